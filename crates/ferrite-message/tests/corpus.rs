//! Replays the seed corpora under `tests/corpus/` through the `fuzz_*` entry points (the same
//! functions cargo-fuzz targets will call): every file must be handled without a panic, and
//! the files named `valid-*` must also decode successfully, so that the corpus keeps
//! exercising the deep paths and not only the first error.
//!
//! `tests/corpus/selector/` holds one selection string per file, `rfh2/` a byte-order byte
//! (even = big-endian, odd = little-endian) then MQRFH2 bytes, `dlh/` and `xqh/` the same for
//! MQDLH and MQXQH. `write_seed_corpus` (ignored) regenerates the generated seeds.

use std::path::{Path, PathBuf};

use ferrite_message::{
    dead_letter_header::DeadLetterHeader, fuzz_dead_letter_header, fuzz_rfh2, fuzz_selector,
    fuzz_transmission_header, rfh2::Rfh2, transmission_header::TransmissionHeader, Folder,
    Selector,
};
use ferrite_protocol::{mqi::Md, ByteOrder, MqChars};

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(kind);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 5, "corpus {kind} has too few seeds");
    files
}

fn is_valid_seed(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("valid-"))
}

fn order(first: u8) -> ByteOrder {
    if first & 1 == 0 {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    }
}

#[test]
fn corpus_selector() {
    for path in corpus("selector") {
        let bytes = std::fs::read(&path).unwrap();
        fuzz_selector(&bytes);
        let text = String::from_utf8_lossy(&bytes);
        let parsed = Selector::parse(&text);
        assert_eq!(
            parsed.is_ok(),
            is_valid_seed(&path),
            "{}: {:?}",
            path.display(),
            parsed.err()
        );
    }
}

#[test]
fn corpus_rfh2() {
    for path in corpus("rfh2") {
        let bytes = std::fs::read(&path).unwrap();
        fuzz_rfh2(&bytes);
        let decoded = bytes.split_first().map(|(first, rest)| {
            Rfh2::parse(rest, order(*first)).and_then(|(header, _)| header.folders(order(*first)))
        });
        assert_eq!(
            decoded.as_ref().is_some_and(|d| d.is_ok()),
            is_valid_seed(&path),
            "{}: {decoded:?}",
            path.display()
        );
    }
}

#[test]
fn corpus_dlh() {
    for path in corpus("dlh") {
        let bytes = std::fs::read(&path).unwrap();
        fuzz_dead_letter_header(&bytes);
        let decoded = bytes
            .split_first()
            .map(|(first, rest)| DeadLetterHeader::decode(rest, order(*first)));
        assert_eq!(
            decoded.is_some_and(|d| d.is_ok()),
            is_valid_seed(&path),
            "{}",
            path.display()
        );
    }
}

#[test]
fn corpus_xqh() {
    for path in corpus("xqh") {
        let bytes = std::fs::read(&path).unwrap();
        fuzz_transmission_header(&bytes);
        let decoded = bytes
            .split_first()
            .map(|(first, rest)| TransmissionHeader::decode(rest, order(*first)));
        assert_eq!(
            decoded.is_some_and(|d| d.is_ok()),
            is_valid_seed(&path),
            "{}",
            path.display()
        );
    }
}

fn with_order(order: ByteOrder, bytes: Vec<u8>) -> Vec<u8> {
    let mut out = vec![if order == ByteOrder::Big { 0 } else { 1 }];
    out.extend(bytes);
    out
}

/// Regenerates the generated seeds (the hand-written selector seeds are kept as they are).
#[test]
#[ignore = "rewrites the seed corpus files; run by hand"]
fn write_seed_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let write = |kind: &str, name: &str, bytes: &[u8]| {
        std::fs::create_dir_all(root.join(kind)).unwrap();
        std::fs::write(root.join(kind).join(name), bytes).unwrap();
    };

    // MQRFH2.
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let suffix = if order == ByteOrder::Big { "be" } else { "le" };
        let mut header = Rfh2::new(273, 1208, *b"MQSTR   ");
        for xml in [
            "<mcd><Msd>jms_text</Msd></mcd>",
            "<jms><Dst>queue:///Q1</Dst><Tms>1700000000000</Tms><Dlv>2</Dlv></jms>",
            "<usr><Colour>red</Colour><Count dt='i4'>3</Count><n xsi:nil='true'></n><g><a dt='bin.hex'>0AFC</a></g></usr>",
        ] {
            header
                .push_folder(&Folder::parse(xml).unwrap(), order)
                .unwrap();
        }
        let bytes = header.build(order).unwrap();
        write(
            "rfh2",
            &format!("valid-jms-{suffix}"),
            &with_order(order, bytes.clone()),
        );
        let mut empty = Rfh2::new(273, 1208, *b"MQSTR   ");
        empty.name_value_ccsid = 1200;
        empty
            .push_folder(&Folder::parse("<usr><x>\u{20ac}</x></usr>").unwrap(), order)
            .unwrap();
        write(
            "rfh2",
            &format!("valid-utf16-{suffix}"),
            &with_order(order, empty.build(order).unwrap()),
        );
        write(
            "rfh2",
            &format!("edge-truncated-{suffix}"),
            &with_order(order, bytes[..50].to_vec()),
        );
        let mut bad_length = bytes.clone();
        bad_length[39] ^= 0x40;
        bad_length[36] ^= 0x40;
        write(
            "rfh2",
            &format!("edge-namevaluelength-{suffix}"),
            &with_order(order, bad_length),
        );
        let mut bad_folder = bytes.clone();
        bad_folder[41] = b'!';
        write(
            "rfh2",
            &format!("edge-bad-folder-{suffix}"),
            &with_order(order, bad_folder),
        );
    }
    write("rfh2", "edge-empty", &[]);
    write("rfh2", "edge-huge-struclength", &{
        let mut b = vec![0u8];
        b.extend_from_slice(b"RFH ");
        b.extend_from_slice(&2i32.to_be_bytes());
        b.extend_from_slice(&i32::MAX.to_be_bytes());
        b.extend_from_slice(&[0; 28]);
        b
    });

    // MQDLH.
    let dlh = DeadLetterHeader {
        reason: 2053,
        dest_q_name: "APP.INPUT".into(),
        dest_q_mgr_name: "QM1".into(),
        encoding: 546,
        coded_char_set_id: 1208,
        format: *b"MQSTR   ",
        put_appl_type: 28,
        put_appl_name: "ferrite".into(),
        put_date: "20240102".into(),
        put_time: "03040506".into(),
    };
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let suffix = if order == ByteOrder::Big { "be" } else { "le" };
        let bytes = dlh.encode(order).unwrap();
        write(
            "dlh",
            &format!("valid-{suffix}"),
            &with_order(order, bytes.clone()),
        );
        write(
            "dlh",
            &format!("edge-truncated-{suffix}"),
            &with_order(order, bytes[..171].to_vec()),
        );
        let mut version = bytes.clone();
        version[4..8].copy_from_slice(&[0, 0, 0, 2]);
        write(
            "dlh",
            &format!("edge-version-{suffix}"),
            &with_order(order, version),
        );
    }
    write(
        "dlh",
        "edge-bad-strucid",
        &with_order(ByteOrder::Big, {
            let mut b = dlh.encode(ByteOrder::Big).unwrap();
            b[0] = b'X';
            b
        }),
    );

    // MQXQH.
    let xqh = TransmissionHeader {
        remote_q_name: "REMOTE.Q".into(),
        remote_q_mgr_name: "QM2".into(),
        msg_desc: Md {
            msg_id: [7; 24],
            correl_id: [9; 24],
            format: MqChars(*b"MQSTR   "),
            ..Md::default()
        },
    };
    for order in [ByteOrder::Big, ByteOrder::Little] {
        let suffix = if order == ByteOrder::Big { "be" } else { "le" };
        let bytes = xqh.encode(order).unwrap();
        write(
            "xqh",
            &format!("valid-{suffix}"),
            &with_order(order, bytes.clone()),
        );
        write(
            "xqh",
            &format!("edge-truncated-{suffix}"),
            &with_order(order, bytes[..427].to_vec()),
        );
        let mut md = bytes.clone();
        md[104] = b'X';
        write(
            "xqh",
            &format!("edge-bad-md-{suffix}"),
            &with_order(order, md),
        );
    }
}
