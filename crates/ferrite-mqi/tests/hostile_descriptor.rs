//! Hostile-input tests for the MQI descriptor extension decoder (`descriptor::from_engine`),
//! which reads the MQMD fields a stored message carries in its image.
//!
//! A proptest feeds random extensions and mutations of valid ones (bit flips, truncations, byte
//! overwrites, long varints in length fields) with random engine fields, asserting no panic and
//! sane results (text fields within their MQMD lengths). `tests/corpus/descriptor_extension/`
//! holds one raw extension per file, replayed by `corpus_descriptor_extension`.

use std::path::PathBuf;

use ferrite_mqi::descriptor::{from_engine, to_engine};
use ferrite_mqi::Mqmd;
use ferrite_test_kit::hostile::check_descriptor_extension;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Mutation {
    FlipBit(usize, u8),
    Overwrite(usize, u8),
    Truncate(usize),
    BigVarint(usize),
    Delete(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Overwrite(i, v)),
        any::<usize>().prop_map(Mutation::Truncate),
        any::<usize>().prop_map(Mutation::BigVarint),
        any::<usize>().prop_map(Mutation::Delete),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
    for m in mutations {
        let len = bytes.len();
        match *m {
            Mutation::FlipBit(i, bit) if len > 0 => bytes[i % len] ^= 1 << bit,
            Mutation::Overwrite(i, v) if len > 0 => bytes[i % len] = v,
            Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
            Mutation::BigVarint(i) => {
                let at = i % (len + 1);
                bytes.splice(at..at, [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
            }
            Mutation::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            _ => {}
        }
    }
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::string::string_regex(&format!("[ -~]{{0,{max}}}")).unwrap()
}

fn mqmd() -> impl Strategy<Value = Mqmd> {
    (
        (
            any::<i32>(),
            any::<i32>(),
            any::<i32>(),
            any::<i32>(),
            any::<i32>(),
        ),
        (text(48), text(48), text(12), text(32), text(28), text(4)),
        (
            any::<[u8; 32]>(),
            any::<i32>(),
            any::<i32>(),
            any::<i32>(),
            any::<i32>(),
        ),
        any::<[u8; 8]>(),
    )
        .prop_map(
            |(
                (report, msg_type, feedback, encoding, ccsid),
                (reply_q, reply_qmgr, user, identity, appl_name, origin),
                (token, appl_type, offset, flags, original_length),
                format,
            )| Mqmd {
                report,
                msg_type,
                feedback,
                encoding,
                coded_char_set_id: ccsid,
                format: format.map(|b| b' ' + b % 95),
                reply_to_q: reply_q.into(),
                reply_to_q_mgr: reply_qmgr.into(),
                user_identifier: user.into(),
                appl_identity_data: identity.into(),
                put_appl_name: appl_name.into(),
                appl_origin_data: origin.into(),
                accounting_token: token,
                put_appl_type: appl_type,
                offset,
                msg_flags: flags,
                original_length,
                priority: 0,
                ..Mqmd::default()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_extensions(
        extension in prop::collection::vec(any::<u8>(), 0..96),
        put_time_ms in prop_oneof![any::<u64>(), Just(u64::MAX)],
        expiry in prop::option::of(any::<u32>()),
        now_ms in any::<u64>(),
    ) {
        check_descriptor_extension(&extension, put_time_ms, expiry, now_ms);
    }

    #[test]
    fn mutated_extensions(
        md in mqmd(),
        put_time_ms in 0u64..4_000_000_000_000,
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let descriptor = to_engine(&md, put_time_ms);
        let decoded = from_engine(&descriptor, 0, put_time_ms, 2).unwrap();
        prop_assert_eq!(decoded.reply_to_q.trim_end(), md.reply_to_q.trim_end());
        prop_assert_eq!(decoded.put_appl_type, md.put_appl_type);
        prop_assert_eq!(decoded.original_length, md.original_length);
        let mut mutated = descriptor.descriptor_extension.clone();
        apply(&mut mutated, &mutations);
        check_descriptor_extension(&mutated, put_time_ms, descriptor.expiry_tenths, put_time_ms);
    }
}

#[test]
fn corpus_descriptor_extension() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/descriptor_extension");
    for (name, bytes) in ferrite_test_kit::corpus::corpus_files(&dir, 1) {
        eprintln!("descriptor_extension/{name}");
        check_descriptor_extension(&bytes, u64::MAX, Some(u32::MAX), 0);
        check_descriptor_extension(&bytes, 1_700_000_000_000, None, 1_700_000_000_000);
    }
}

#[test]
#[ignore = "rewrites the seed corpus files; run by hand"]
fn write_seed_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/descriptor_extension");
    std::fs::create_dir_all(&dir).unwrap();
    let full = Mqmd {
        report: 1,
        msg_type: 1,
        feedback: 3,
        encoding: 273,
        coded_char_set_id: 819,
        format: *b"MQSTR   ",
        reply_to_q: "REPLY.Q".into(),
        reply_to_q_mgr: "QM2".into(),
        user_identifier: "alice".into(),
        accounting_token: [7; 32],
        appl_identity_data: "identity".into(),
        put_appl_type: 6,
        put_appl_name: "app".into(),
        put_date: "20240101".into(),
        put_time: "12000000".into(),
        appl_origin_data: "orig".into(),
        msg_seq_number: 5,
        offset: 100,
        msg_flags: 8,
        original_length: 1000,
        priority: 0,
        ..Mqmd::default()
    };
    std::fs::write(
        dir.join("seed-all-fields"),
        to_engine(&full, 1_700_000_000_000).descriptor_extension,
    )
    .unwrap();
    std::fs::write(dir.join("seed-empty"), []).unwrap();
}
