//! `docs/formats.md` against the code: every table there that follows a `<!-- … -->` marker must
//! equal what the code writes.
//!
//! - `<!-- layout: NAME -->`: the field table of a fixed-layout structure must equal the code's
//!   `Field` table (name, offset, size, type), and the code's encoder must put each field where
//!   its table says (a sample is encoded and every field read back at its offset).
//! - `<!-- constants -->`: every magic number, version and record kind, with its value.
//! - `<!-- record: KIND -->`: the fields of a recovery log record payload, in order, with their
//!   encodings: a sample record is encoded by the code and decoded by walking the table; every
//!   field must come out with the sample's value and no byte may be left over.
//! - `<!-- toml: TABLE -->`: the keys of the BSDS body and their TOML types, from a serialised
//!   sample.
//!
//! Each marker must name something the code has, and everything the code has must be in the
//! document.

use std::collections::{BTreeMap, BTreeSet};

use ferrite_storage::layout::{check_contiguous, layout_bytes, Field};
use ferrite_storage::log::active::{
    self, ActiveLogHeader, PingPongSlot, ACTIVE_LOG_HEADER_LAYOUT, PING_PONG_HEADER_LAYOUT,
};
use ferrite_storage::log::archive::{self, ArchiveHeader, ARCHIVE_HEADER_LAYOUT};
use ferrite_storage::log::bsds::{
    self, ActiveLogEntry, ActiveLogStatus, ArchiveEntry, Bsds, BSDS_FRAME_LAYOUT,
};
use ferrite_storage::log::record::{
    self, SegmentHeader, RECORD_HEADER_LAYOUT, SEGMENT_HEADER_LAYOUT,
};
use ferrite_storage::log::CheckpointLocation;
use ferrite_storage::log_records::shared::{
    BackupEnd, BackupMessage, SharedEntry, SharedMessageImage, SharedQueueRecord, SharedUnitEnd,
};
use ferrite_storage::log_records::{
    self, kind, BackoutRecord, CheckpointRecord, GetRecord, MessageLocation, PutRecord,
    RecoveryRecord, UrOperation, UrReference, UrSnapshot, UrState,
};
use ferrite_storage::page::{self, PageBytes, PageType, PAGE_HEADER_LAYOUT};
use ferrite_storage::page_set::{
    self, DOUBLE_WRITE_BATCH_LAYOUT, DOUBLE_WRITE_DESCRIPTOR_LAYOUT, DOUBLE_WRITE_HEADER_LAYOUT,
    PAGE_SET_HEADER_LAYOUT,
};
use ferrite_storage::{PageNumber, PageSetId, Rba, Urid};

const FORMATS_DOC: &str = include_str!("../../../docs/formats.md");

// ---------------------------------------------------------------------------------------------
// Reading the document

/// A table that follows a marker: its marker text and its rows (cells trimmed).
struct MarkedTable {
    marker: String,
    rows: Vec<Vec<String>>,
}

/// Every `<!-- … -->` marker line of the document with the table right after it.
fn marked_tables(document: &str) -> Vec<MarkedTable> {
    let lines: Vec<&str> = document.lines().collect();
    let mut tables = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let line = line.trim();
        let Some(marker) = line
            .strip_prefix("<!--")
            .and_then(|rest| rest.strip_suffix("-->"))
        else {
            continue;
        };
        let marker = marker.trim().to_string();
        let mut table_lines = lines[index + 1..]
            .iter()
            .take_while(|line| line.trim_start().starts_with('|'));
        let header = table_lines
            .next()
            .unwrap_or_else(|| panic!("marker <!-- {marker} --> is not followed by a table"));
        let separator = table_lines.next().expect("table separator row");
        assert!(
            separator.contains("---"),
            "table after <!-- {marker} --> has no separator row"
        );
        let columns = cells(header).len();
        let rows = table_lines
            .map(|line| {
                let row = cells(line);
                assert!(
                    row.len() >= columns,
                    "row {line:?} after <!-- {marker} --> has too few cells"
                );
                row
            })
            .collect();
        tables.push(MarkedTable { marker, rows });
    }
    tables
}

/// The cells of a table row. A `|` inside a cell would split it, so only the last column (the
/// free-text meaning, never compared) may be cut short by one.
fn cells(line: &str) -> Vec<String> {
    let line = line.trim();
    let inner = line
        .strip_prefix('|')
        .and_then(|rest| rest.strip_suffix('|'))
        .unwrap_or_else(|| panic!("table row {line:?} does not start and end with |"));
    inner
        .split('|')
        .map(|cell| cell.trim().to_string())
        .collect()
}

/// The tables whose marker starts with `prefix` (`"layout:"`), by the rest of the marker.
fn tables_with(prefix: &str) -> BTreeMap<String, Vec<Vec<String>>> {
    let mut found = BTreeMap::new();
    for table in marked_tables(FORMATS_DOC) {
        if let Some(name) = table.marker.strip_prefix(prefix) {
            let name = name.trim().to_string();
            assert!(
                found.insert(name.clone(), table.rows).is_none(),
                "<!-- {prefix} {name} --> appears twice"
            );
        }
    }
    found
}

fn strip_backticks(cell: &str) -> &str {
    cell.strip_prefix('`')
        .and_then(|rest| rest.strip_suffix('`'))
        .unwrap_or(cell)
}

#[test]
fn every_marker_is_known() {
    for table in marked_tables(FORMATS_DOC) {
        let known = ["layout:", "record:", "toml:"]
            .iter()
            .any(|prefix| table.marker.starts_with(prefix))
            || table.marker == "constants";
        assert!(known, "unknown marker <!-- {} -->", table.marker);
    }
}

/// `documented` and `code` are equal; if not, fail naming each entry that differs.
fn assert_same<V: PartialEq + std::fmt::Debug>(
    documented: &BTreeMap<String, V>,
    code: &BTreeMap<String, V>,
    what: &str,
) {
    let mut differences = Vec::new();
    for (key, value) in code {
        match documented.get(key) {
            None => differences.push(format!(
                "{key}: missing from the document (code: {value:?})"
            )),
            Some(shown) if shown != value => {
                differences.push(format!("{key}: document {shown:?}, code {value:?}"))
            }
            Some(_) => {}
        }
    }
    for key in documented.keys().filter(|key| !code.contains_key(*key)) {
        differences.push(format!("{key}: in the document but not in the code"));
    }
    assert!(
        differences.is_empty(),
        "docs/formats.md {what} differs from the code:\n{}",
        differences.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Fixed layouts

/// Every fixed-layout structure the code writes, by the name its table has in the document.
fn layouts() -> Vec<(&'static str, &'static [Field])> {
    vec![
        ("page header", &PAGE_HEADER_LAYOUT),
        ("page set header", &PAGE_SET_HEADER_LAYOUT),
        ("double-write file header", &DOUBLE_WRITE_HEADER_LAYOUT),
        ("double-write batch header", &DOUBLE_WRITE_BATCH_LAYOUT),
        (
            "double-write entry descriptor",
            &DOUBLE_WRITE_DESCRIPTOR_LAYOUT,
        ),
        ("log record header", &RECORD_HEADER_LAYOUT),
        ("segment header", &SEGMENT_HEADER_LAYOUT),
        ("active log header", &ACTIVE_LOG_HEADER_LAYOUT),
        ("ping-pong slot header", &PING_PONG_HEADER_LAYOUT),
        ("archive header", &ARCHIVE_HEADER_LAYOUT),
        ("bsds frame", &BSDS_FRAME_LAYOUT),
    ]
}

/// A layout row as the document states it: offset, size, type, field name.
fn layout_rows(layout: &[Field]) -> Vec<(String, String, String, String)> {
    layout
        .iter()
        .map(|field| {
            (
                field.offset.to_string(),
                field.size.to_string(),
                field.encoding.doc_name().to_string(),
                field.name.to_string(),
            )
        })
        .collect()
}

#[test]
fn layout_tables_match_the_code() {
    let documented = tables_with("layout:");
    let code = layouts();
    let code_names: BTreeSet<&str> = code.iter().map(|(name, _)| *name).collect();
    let documented_names: BTreeSet<&str> = documented.keys().map(String::as_str).collect();
    assert_eq!(
        documented_names, code_names,
        "docs/formats.md documents exactly the layouts the code declares"
    );
    for (name, layout) in code {
        check_contiguous(layout).unwrap_or_else(|error| panic!("layout {name}: {error}"));
        let rows: Vec<(String, String, String, String)> = documented[name]
            .iter()
            .map(|row| {
                (
                    row[0].clone(),
                    row[1].clone(),
                    row[2].clone(),
                    row[3].clone(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            layout_rows(layout),
            "docs/formats.md table \"{name}\" (offset, size, type, field) differs from the code"
        );
    }
}

#[test]
fn layout_sizes_are_the_sizes_the_code_uses() {
    assert_eq!(layout_bytes(&PAGE_HEADER_LAYOUT), page::PAGE_HEADER_SIZE);
    assert_eq!(layout_bytes(&PAGE_SET_HEADER_LAYOUT), page::PAGE_SIZE);
    assert_eq!(layout_bytes(&DOUBLE_WRITE_HEADER_LAYOUT), page::PAGE_SIZE);
    assert_eq!(
        layout_bytes(&RECORD_HEADER_LAYOUT),
        record::LOG_RECORD_HEADER_BYTES
    );
    assert_eq!(
        layout_bytes(&SEGMENT_HEADER_LAYOUT),
        record::SEGMENT_HEADER_BYTES
    );
    assert_eq!(
        layout_bytes(&ACTIVE_LOG_HEADER_LAYOUT) as u64,
        active::ACTIVE_LOG_HEADER_BYTES
    );
    assert_eq!(
        layout_bytes(&PING_PONG_HEADER_LAYOUT),
        active::PING_PONG_HEADER_BYTES
    );
    assert_eq!(
        layout_bytes(&ARCHIVE_HEADER_LAYOUT) as u64,
        archive::ARCHIVE_HEADER_BYTES
    );
    assert_eq!(layout_bytes(&BSDS_FRAME_LAYOUT), bsds::BSDS_FRAME_BYTES);
}

/// What a field of an encoded sample must hold.
enum Expect {
    Integer(u64),
    Bytes(Vec<u8>),
    /// All zero (reserved).
    Zero,
}

/// Every field of `layout` in `bytes` holds what `expected` says for its name; `expected` names
/// every field of the layout and nothing else.
fn assert_encoded(layout: &[Field], bytes: &[u8], expected: &[(&str, Expect)]) {
    let layout_names: BTreeSet<&str> = layout.iter().map(|field| field.name).collect();
    let expected_names: BTreeSet<&str> = expected.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        layout_names, expected_names,
        "the sample checks every field"
    );
    for field in layout {
        for (_, expect) in expected.iter().filter(|(name, _)| *name == field.name) {
            let found = &bytes[field.range()];
            match expect {
                Expect::Integer(value) => {
                    assert_eq!(field.get(bytes), *value, "field {}", field.name)
                }
                Expect::Bytes(value) => assert_eq!(found, &value[..], "field {}", field.name),
                Expect::Zero => assert!(
                    found.iter().all(|&b| b == 0),
                    "field {} is not zero",
                    field.name
                ),
            }
        }
    }
}

fn crc(bytes: &[u8]) -> u64 {
    u64::from(crc32c::crc32c(bytes))
}

#[test]
fn the_page_header_encoder_writes_its_layout() {
    let mut page = PageBytes::zeroed();
    page.format(PageType::Data, PageSetId(42), PageNumber(0x0102_0304));
    page.set_page_rba(Rba(0x1122_3344_5566_7788));
    page.set_flags(page::PAGE_FLAG_NONPERSISTENT);
    page.0[2000] = 7;
    page.seal();
    use Expect::*;
    assert_encoded(
        &PAGE_HEADER_LAYOUT,
        &page.0,
        &[
            ("checksum", Integer(crc(&page.0[4..]))),
            ("magic", Bytes(page::PAGE_MAGIC.to_vec())),
            ("page type", Integer(PageType::Data as u64)),
            ("format version", Integer(1)),
            ("page RBA", Integer(0x1122_3344_5566_7788)),
            ("page number", Integer(0x0102_0304)),
            ("page set id", Integer(42)),
            ("flags", Integer(1)),
            ("type-specific", Zero),
        ],
    );
}

#[test]
fn the_log_record_encoders_write_their_layouts() {
    let payload = b"payload bytes";
    let rba = Rba(0x0001_0000_0000_1234);
    let bytes = record::encode_record(rba, 0x21, payload);
    let mut checksum_input = rba.0.to_le_bytes().to_vec();
    checksum_input.extend_from_slice(&((9 + payload.len()) as u32).to_le_bytes());
    checksum_input.push(0x21);
    checksum_input.extend_from_slice(payload);
    use Expect::*;
    assert_encoded(
        &RECORD_HEADER_LAYOUT,
        &bytes,
        &[
            ("length", Integer(9 + payload.len() as u64)),
            ("checksum", Integer(crc(&checksum_input))),
            ("kind", Integer(0x21)),
        ],
    );
    assert_eq!(&bytes[9..], payload, "the payload follows the header");

    let segment = SegmentHeader {
        record_rba: 0x0A0B_0C0D_0E0F_1011,
        total_bytes: 0x0200_0000,
        offset: 0x0030_0000,
        kind: 0x06,
    };
    let bytes = segment.encode();
    assert_encoded(
        &SEGMENT_HEADER_LAYOUT,
        &bytes,
        &[
            ("record RBA", Integer(0x0A0B_0C0D_0E0F_1011)),
            ("total bytes", Integer(0x0200_0000)),
            ("offset", Integer(0x0030_0000)),
            ("kind", Integer(0x06)),
        ],
    );
}

#[test]
fn the_active_log_encoders_write_their_layouts() {
    let header = ActiveLogHeader {
        copy_number: 2,
        data_set_number: 17,
        data_bytes: 64 << 20,
        start_rba: Some(0x0000_0123_4567_8000),
        created_unix_seconds: 1_700_000_123,
    };
    let bytes = header.encode();
    use Expect::*;
    assert_encoded(
        &ACTIVE_LOG_HEADER_LAYOUT,
        &bytes,
        &[
            ("magic", Bytes(active::ACTIVE_LOG_MAGIC.to_vec())),
            (
                "format version",
                Integer(active::ACTIVE_LOG_FORMAT_VERSION.into()),
            ),
            ("copy number", Integer(2)),
            ("data set number", Integer(17)),
            ("reserved", Zero),
            ("data bytes", Integer(64 << 20)),
            ("start RBA", Integer(0x0000_0123_4567_8000)),
            ("creation time", Integer(1_700_000_123)),
            ("checksum", Integer(crc(&bytes[..48]))),
            ("zero", Zero),
        ],
    );
    let never_used = ActiveLogHeader {
        start_rba: None,
        ..header
    };
    assert_eq!(
        active::header::START_RBA.get(&never_used.encode()),
        active::RBA_NEVER_USED
    );

    let image: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    let slot = PingPongSlot {
        page_rba: 0x0000_0042_0000_3000,
        image: image.clone(),
    };
    let bytes = slot.encode();
    let mut checksum_input = bytes[..24].to_vec();
    checksum_input.extend_from_slice(&image);
    assert_encoded(
        &PING_PONG_HEADER_LAYOUT,
        &bytes,
        &[
            ("magic", Bytes(active::PING_PONG_MAGIC.to_vec())),
            ("page RBA", Integer(0x0000_0042_0000_3000)),
            ("bytes", Integer(1000)),
            ("reserved", Zero),
            ("checksum", Integer(crc(&checksum_input))),
        ],
    );
    assert_eq!(&bytes[32..1032], &image[..], "the image follows the header");
}

#[test]
fn the_archive_header_encoder_writes_its_layout() {
    let header = ArchiveHeader {
        compressed: true,
        start_rba: 0x0000_0001_0000_0000,
        end_rba: 0x0000_0001_0400_0000,
        content_bytes: 0x03FF_F000,
        stored_bytes: 0x0012_3456,
        content_checksum: 0xCAFE_F00D,
        copy_number: 2,
    };
    let bytes = header.encode();
    use Expect::*;
    assert_encoded(
        &ARCHIVE_HEADER_LAYOUT,
        &bytes,
        &[
            ("magic", Bytes(archive::ARCHIVE_MAGIC.to_vec())),
            (
                "format version",
                Integer(archive::ARCHIVE_FORMAT_VERSION.into()),
            ),
            ("flags", Integer(archive::ARCHIVE_FLAG_COMPRESSED.into())),
            ("start RBA", Integer(0x0000_0001_0000_0000)),
            ("end RBA", Integer(0x0000_0001_0400_0000)),
            ("content bytes", Integer(0x03FF_F000)),
            ("stored bytes", Integer(0x0012_3456)),
            ("content checksum", Integer(0xCAFE_F00D)),
            ("copy number", Integer(2)),
            ("header checksum", Integer(crc(&bytes[..56]))),
            ("zero", Zero),
        ],
    );
    assert_eq!(ArchiveHeader::decode(&bytes), Ok(header));
}

#[test]
fn the_bsds_encoder_writes_its_frame_layout() {
    let bytes = sample_bsds().encode();
    let body = &bytes[bsds::BSDS_FRAME_BYTES..];
    use Expect::*;
    assert_encoded(
        &BSDS_FRAME_LAYOUT,
        &bytes,
        &[
            ("magic", Bytes(bsds::BSDS_MAGIC.to_vec())),
            ("format version", Integer(bsds::BSDS_FORMAT_VERSION.into())),
            ("body length", Integer(body.len() as u64)),
            ("body checksum", Integer(crc(body))),
            ("frame checksum", Integer(crc(&bytes[..20]))),
        ],
    );
}

/// The page set header page and the double-write file, as a formatted page set and one write
/// leave them on disk (their encoders are private; unit tests in `src/page_set.rs` check them
/// too).
#[test]
fn a_page_set_and_its_double_write_file_are_written_as_their_layouts() {
    use ferrite_storage::config::Expand;
    use ferrite_storage::page_set::PageSet;
    use ferrite_storage::vfs::RealFileSystem;

    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("PSID05.pageset");
    let queue_manager_id = 0x0A0B_0C0D_0E0F_0102;
    PageSet::format(
        &RealFileSystem,
        &path,
        PageSetId(5),
        16,
        queue_manager_id,
        &mut |_, _| {},
    )
    .unwrap();
    let set = PageSet::open(&RealFileSystem, &path, PageSetId(5), Expand::User, 0, 16).unwrap();
    let mut pages = Vec::new();
    for number in [3u32, 4] {
        let mut page = PageBytes::zeroed();
        page.format(PageType::Data, PageSetId(5), PageNumber(number));
        page.0[100] = number as u8;
        pages.push(page);
    }
    set.write_pages(PageNumber(3), &[&pages[0], &pages[1]])
        .unwrap();
    drop(set);

    let page_set_bytes = std::fs::read(&path).unwrap();
    let dw_bytes = std::fs::read(page_set::double_write_path(&path)).unwrap();
    let header_page = &page_set_bytes[..page::PAGE_SIZE];
    let creation_time = page_set::header_page::CREATION_TIME.get(header_page);
    assert!(creation_time > 0);
    use Expect::*;
    assert_encoded(
        &PAGE_HEADER_LAYOUT,
        header_page,
        &[
            ("checksum", Integer(crc(&header_page[4..]))),
            ("magic", Bytes(page::PAGE_MAGIC.to_vec())),
            ("page type", Integer(PageType::PageSetHeader as u64)),
            ("format version", Integer(page::PAGE_FORMAT_VERSION.into())),
            ("page RBA", Integer(0)),
            ("page number", Integer(0)),
            ("page set id", Integer(5)),
            ("flags", Integer(0)),
            ("type-specific", Zero),
        ],
    );
    assert_encoded(
        &PAGE_SET_HEADER_LAYOUT,
        header_page,
        &[
            ("common page header", Bytes(header_page[..32].to_vec())),
            (
                "eye-catcher",
                Bytes(page_set::PAGE_SET_HEADER_EYE_CATCHER.to_vec()),
            ),
            (
                "format version",
                Integer(page_set::PAGE_SET_FORMAT_VERSION.into()),
            ),
            ("page set id", Integer(5)),
            ("reserved", Zero),
            ("media recovery RBA", Integer(0)),
            ("page count", Integer(16)),
            ("expansion count", Integer(0)),
            ("queue manager id", Integer(queue_manager_id)),
            ("creation time", Integer(creation_time)),
        ],
    );

    let file_header = &dw_bytes[..page::PAGE_SIZE];
    assert_encoded(
        &DOUBLE_WRITE_HEADER_LAYOUT,
        file_header,
        &[
            ("checksum", Integer(crc(&file_header[4..]))),
            (
                "eye-catcher",
                Bytes(page_set::DOUBLE_WRITE_EYE_CATCHER.to_vec()),
            ),
            (
                "format version",
                Integer(page_set::DOUBLE_WRITE_FORMAT_VERSION.into()),
            ),
            ("page set id", Integer(5)),
            ("reserved", Zero),
            ("slots", Integer(page_set::DOUBLE_WRITE_SLOTS as u64)),
            ("queue manager id", Integer(queue_manager_id)),
            ("creation time", Integer(creation_time)),
        ],
    );

    // The batch last written: the two pages, from byte 4096.
    let batch = &dw_bytes[page::PAGE_SIZE..];
    let sequence = page_set::double_write_batch::SEQUENCE.get(batch);
    assert!(sequence > 0);
    assert_encoded(
        &DOUBLE_WRITE_BATCH_LAYOUT,
        batch,
        &[
            ("checksum", Integer(crc(&batch[4..32]))),
            ("magic", Bytes(page_set::DOUBLE_WRITE_BATCH_MAGIC.to_vec())),
            ("batch sequence number", Integer(sequence)),
            ("entry count", Integer(2)),
            ("page set id", Integer(5)),
            ("reserved", Zero),
        ],
    );
    for (index, number) in [3u32, 4].into_iter().enumerate() {
        let descriptor = &batch[32 + 16 * index..];
        // One descriptor block (32 + 16 × 2 bytes), then the images.
        let image = &batch[page::PAGE_SIZE * (1 + index)..][..page::PAGE_SIZE];
        let in_place = &page_set_bytes[page::PAGE_SIZE * number as usize..][..page::PAGE_SIZE];
        assert_eq!(image, in_place, "the image is the page as written in place");
        let mut checksum_input = sequence.to_le_bytes().to_vec();
        checksum_input.extend_from_slice(&number.to_le_bytes());
        checksum_input.extend_from_slice(image);
        assert_encoded(
            &DOUBLE_WRITE_DESCRIPTOR_LAYOUT,
            descriptor,
            &[
                ("page number", Integer(number.into())),
                ("entry checksum", Integer(crc(&checksum_input))),
                ("reserved", Zero),
            ],
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Magic numbers, versions and kinds

/// How the document shows a byte string: ASCII in quotes, `\0` for a zero byte.
fn text(bytes: &[u8]) -> String {
    let mut shown = String::from("`\"");
    for &byte in bytes {
        match byte {
            0 => shown.push_str("\\0"),
            b' '..=b'~' if byte != b'"' && byte != b'\\' => shown.push(byte as char),
            _ => shown.push_str(&format!("\\x{byte:02X}")),
        }
    }
    shown.push_str("\"`");
    shown
}

fn hex(value: u64) -> String {
    format!("0x{value:02X}")
}

/// Every magic number, version and kind, as the document must show it.
fn constants() -> Vec<(&'static str, String)> {
    vec![
        ("page::PAGE_SIZE", page::PAGE_SIZE.to_string()),
        ("page::PAGE_MAGIC", text(&page::PAGE_MAGIC)),
        (
            "page::PAGE_FORMAT_VERSION",
            page::PAGE_FORMAT_VERSION.to_string(),
        ),
        (
            "page::PAGE_FLAG_NONPERSISTENT",
            hex(page::PAGE_FLAG_NONPERSISTENT.into()),
        ),
        (
            "page::PageType::Unformatted",
            (PageType::Unformatted as u8).to_string(),
        ),
        (
            "page::PageType::PageSetHeader",
            (PageType::PageSetHeader as u8).to_string(),
        ),
        (
            "page::PageType::SpaceMap",
            (PageType::SpaceMap as u8).to_string(),
        ),
        ("page::PageType::Data", (PageType::Data as u8).to_string()),
        (
            "page::PageType::Continuation",
            (PageType::Continuation as u8).to_string(),
        ),
        (
            "page_set::PAGE_SET_HEADER_EYE_CATCHER",
            text(&page_set::PAGE_SET_HEADER_EYE_CATCHER),
        ),
        (
            "page_set::PAGE_SET_FORMAT_VERSION",
            page_set::PAGE_SET_FORMAT_VERSION.to_string(),
        ),
        (
            "page_set::DOUBLE_WRITE_EYE_CATCHER",
            text(&page_set::DOUBLE_WRITE_EYE_CATCHER),
        ),
        (
            "page_set::DOUBLE_WRITE_FORMAT_VERSION",
            page_set::DOUBLE_WRITE_FORMAT_VERSION.to_string(),
        ),
        (
            "page_set::DOUBLE_WRITE_BATCH_MAGIC",
            text(&page_set::DOUBLE_WRITE_BATCH_MAGIC),
        ),
        (
            "log::record::RECORD_KIND_SEGMENT",
            hex(record::RECORD_KIND_SEGMENT.into()),
        ),
        (
            "log::record::RECORD_KIND_END_OF_FILE",
            hex(record::RECORD_KIND_END_OF_FILE.into()),
        ),
        (
            "log::record::LOG_RECORD_BYTES_MAX",
            record::LOG_RECORD_BYTES_MAX.to_string(),
        ),
        ("log_records::kind::PUT", hex(kind::PUT.into())),
        ("log_records::kind::GET", hex(kind::GET.into())),
        ("log_records::kind::COMMIT", hex(kind::COMMIT.into())),
        ("log_records::kind::PREPARE", hex(kind::PREPARE.into())),
        ("log_records::kind::BACKOUT", hex(kind::BACKOUT.into())),
        (
            "log_records::kind::CHECKPOINT",
            hex(kind::CHECKPOINT.into()),
        ),
        (
            "log::active::ACTIVE_LOG_MAGIC",
            text(&active::ACTIVE_LOG_MAGIC),
        ),
        (
            "log::active::ACTIVE_LOG_FORMAT_VERSION",
            active::ACTIVE_LOG_FORMAT_VERSION.to_string(),
        ),
        (
            "log::active::ACTIVE_LOG_FORMAT_VERSION_1",
            active::ACTIVE_LOG_FORMAT_VERSION_1.to_string(),
        ),
        ("log::active::RBA_NEVER_USED", hex(active::RBA_NEVER_USED)),
        (
            "log::active::PING_PONG_MAGIC",
            text(&active::PING_PONG_MAGIC),
        ),
        ("log::archive::ARCHIVE_MAGIC", text(&archive::ARCHIVE_MAGIC)),
        (
            "log::archive::ARCHIVE_FORMAT_VERSION",
            archive::ARCHIVE_FORMAT_VERSION.to_string(),
        ),
        (
            "log::archive::ARCHIVE_FLAG_COMPRESSED",
            hex(archive::ARCHIVE_FLAG_COMPRESSED.into()),
        ),
        ("log::bsds::BSDS_MAGIC", text(&bsds::BSDS_MAGIC)),
        (
            "log::bsds::BSDS_FORMAT_VERSION",
            bsds::BSDS_FORMAT_VERSION.to_string(),
        ),
    ]
}

#[test]
fn constants_table_matches_the_code() {
    let tables = marked_tables(FORMATS_DOC);
    let mut documented: Vec<_> = tables
        .iter()
        .filter(|table| table.marker == "constants")
        .collect();
    assert_eq!(documented.len(), 1, "one <!-- constants --> table");
    let documented: BTreeMap<String, String> = documented
        .pop()
        .unwrap()
        .rows
        .iter()
        .map(|row| (strip_backticks(&row[0]).to_string(), row[1].clone()))
        .collect();
    let code: BTreeMap<String, String> = constants()
        .into_iter()
        .map(|(name, value)| (name.to_string(), value))
        .collect();
    assert_same(&documented, &code, "constants table");
    // Every page type is in the table: a new one would not decode.
    assert_eq!(PageType::from_u8(5), None);
}

// ---------------------------------------------------------------------------------------------
// Recovery log records

#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Integer(u64),
    Bytes(Vec<u8>),
}

/// One row of a record table: its encoding and its field path.
struct RecordRow {
    encoding: String,
    path: String,
}

fn read_varint(bytes: &mut &[u8]) -> u64 {
    let mut value = 0u64;
    for index in 0..10 {
        let (&byte, rest) = bytes.split_first().expect("varint runs past the payload");
        *bytes = rest;
        value |= u64::from(byte & 0x7F) << (7 * index);
        if byte & 0x80 == 0 {
            return value;
        }
    }
    panic!("varint longer than 10 bytes");
}

/// Decode `bytes` field by field as `rows` (the document's table) says, recording each field's
/// values by path, in the order met.
fn walk(rows: &[RecordRow], bytes: &mut &[u8], found: &mut BTreeMap<String, Vec<Value>>) {
    let mut index = 0;
    while index < rows.len() {
        let row = &rows[index];
        index += 1;
        let value = match row.encoding.as_str() {
            "varint" => Value::Integer(read_varint(bytes)),
            "u8" => {
                let (&byte, rest) = bytes.split_first().expect("u8 runs past the payload");
                *bytes = rest;
                Value::Integer(byte.into())
            }
            "rest" => Value::Bytes(std::mem::take(bytes).to_vec()),
            "bytes" => {
                let length = read_varint(bytes) as usize;
                assert!(length <= bytes.len(), "bytes run past the payload");
                let (value, rest) = bytes.split_at(length);
                *bytes = rest;
                Value::Bytes(value.to_vec())
            }
            "count" => {
                let count = read_varint(bytes);
                let prefix = format!("{}[].", row.path);
                let body_end = index
                    + rows[index..]
                        .iter()
                        .take_while(|row| row.path.starts_with(&prefix))
                        .count();
                assert!(body_end > index, "count {} repeats no rows", row.path);
                for _ in 0..count {
                    walk(&rows[index..body_end], bytes, found);
                }
                index = body_end;
                Value::Integer(count)
            }
            other => panic!("unknown encoding {other:?} of field {}", row.path),
        };
        found.entry(row.path.clone()).or_default().push(value);
    }
}

fn location(page_set: u8, page: u32, offset: u16) -> MessageLocation {
    MessageLocation {
        page_set: PageSetId(page_set),
        page: PageNumber(page),
        offset,
    }
}

/// Expected field values, by path, in order.
fn expect(values: &[(&str, Value)]) -> BTreeMap<String, Vec<Value>> {
    let mut expected: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (path, value) in values {
        expected
            .entry(path.to_string())
            .or_default()
            .push(value.clone());
    }
    expected
}

fn int(value: u64) -> Value {
    Value::Integer(value)
}

/// A recovery record as the code encodes it, and the value of each of its fields by path.
struct RecordSample {
    name: &'static str,
    kind: u8,
    payload: Vec<u8>,
    fields: BTreeMap<String, Vec<Value>>,
}

/// One sample of each recovery record (every value distinct, so a field read at the wrong
/// place shows).
fn record_samples() -> Vec<RecordSample> {
    vec![
        put_sample(),
        get_sample(),
        RecordSample {
            name: "COMMIT",
            kind: kind::COMMIT,
            payload: log_records::encode_urid(Urid(Rba(8192))),
            fields: expect(&[("urid", int(8192))]),
        },
        RecordSample {
            name: "PREPARE",
            kind: kind::PREPARE,
            payload: log_records::encode_urid(Urid(Rba(16_384))),
            fields: expect(&[("urid", int(16_384))]),
        },
        backout_sample(),
        checkpoint_sample(),
    ]
    .into_iter()
    .chain(shared_samples())
    .collect()
}

/// The shared queue records (`log_records::shared`).
fn shared_samples() -> Vec<RecordSample> {
    let text = |value: &str| Value::Bytes(value.as_bytes().to_vec());
    let entry = SharedEntry {
        structure: "APP1".into(),
        queue: "ORDERS".into(),
        entry: 4711,
    };
    let message = SharedMessageImage {
        priority: 4,
        message_id: [1; 24],
        correlation_id: [2; 24],
        data: b"image".to_vec(),
    };
    let record = SharedQueueRecord {
        unit: "u1".into(),
        entry: entry.clone(),
        time_ms: 1_700_000_000_000,
    };
    let head = [
        ("unit", text("u1")),
        ("structure", text("APP1")),
        ("queue", text("ORDERS")),
        ("entry", int(4711)),
        ("time", int(1_700_000_000_000)),
    ];
    let message_fields = [
        ("priority", int(4)),
        ("message id", Value::Bytes(vec![1; 24])),
        ("correlation id", Value::Bytes(vec![2; 24])),
        ("message", Value::Bytes(b"image".to_vec())),
    ];
    let backup = BackupMessage {
        entry,
        backup_ms: 99,
        backout_count: 3,
        message: message.clone(),
    };
    let mut backup_fields = vec![
        ("structure", text("APP1")),
        ("backup time", int(99)),
        ("queue", text("ORDERS")),
        ("entry", int(4711)),
        ("backout count", int(3)),
    ];
    backup_fields.extend(message_fields.clone());
    vec![
        RecordSample {
            name: "SHARED PUT",
            kind: kind::SHARED_PUT,
            payload: record.encode_put(&message),
            fields: expect(&[&head[..], &message_fields[..]].concat()),
        },
        RecordSample {
            name: "SHARED GET",
            kind: kind::SHARED_GET,
            payload: record.encode_get(),
            fields: expect(&head),
        },
        RecordSample {
            name: "SHARED COMMIT",
            kind: kind::SHARED_COMMIT,
            payload: SharedUnitEnd {
                unit: "u1".into(),
                structure: "APP1".into(),
                time_ms: 5,
            }
            .encode(),
            fields: expect(&[
                ("unit", text("u1")),
                ("structure", text("APP1")),
                ("time", int(5)),
            ]),
        },
        RecordSample {
            name: "CF BACKUP",
            kind: kind::CF_BACKUP,
            payload: backup.encode(),
            fields: expect(&backup_fields),
        },
        RecordSample {
            name: "CF BACKUP END",
            kind: kind::CF_BACKUP_END,
            payload: BackupEnd {
                structure: "APP1".into(),
                backup_ms: 99,
                messages: 1,
                entries: 4711,
            }
            .encode(),
            fields: expect(&[
                ("structure", text("APP1")),
                ("backup time", int(99)),
                ("messages", int(1)),
                ("entries", int(4711)),
            ]),
        },
    ]
}

fn put_sample() -> RecordSample {
    let put = PutRecord {
        ur: UrReference::Continues(Urid(Rba(1000))),
        slot_kind: 2,
        location: location(9, 4711, 88),
        object_id: 12,
        sequence: 99_999,
        new_page: true,
        continuation_pages: vec![501, 502, 503],
    };
    let mut put_payload = put.encode_header();
    put_payload.extend_from_slice(b"image bytes");
    RecordSample {
        name: "PUT",
        kind: kind::PUT,
        payload: put_payload,
        fields: expect(&[
            ("ur", int(1002)),
            ("slot kind", int(2)),
            ("page set", int(9)),
            ("page", int(4711)),
            ("slot offset", int(88)),
            ("object id", int(12)),
            ("sequence", int(99_999)),
            ("new page", int(1)),
            ("continuation pages", int(3)),
            ("continuation pages[].page", int(501)),
            ("continuation pages[].page", int(502)),
            ("continuation pages[].page", int(503)),
            ("image", Value::Bytes(b"image bytes".to_vec())),
        ]),
    }
}

fn get_sample() -> RecordSample {
    let get = GetRecord {
        ur: UrReference::Begins,
        location: location(4, 777, 120),
        object_id: 13,
        sequence: 123_456,
    };
    RecordSample {
        name: "GET",
        kind: kind::GET,
        payload: get.encode(),
        fields: expect(&[
            ("ur", int(1)),
            ("page set", int(4)),
            ("page", int(777)),
            ("slot offset", int(120)),
            ("object id", int(13)),
            ("sequence", int(123_456)),
        ]),
    }
}

fn backout_sample() -> RecordSample {
    let backout = BackoutRecord {
        urid: Urid(Rba(4242)),
        backout_counts: vec![(location(5, 300, 40), 2), (location(6, 301, 72), 9)],
    };
    RecordSample {
        name: "BACKOUT",
        kind: kind::BACKOUT,
        payload: backout.encode(),
        fields: expect(&[
            ("urid", int(4242)),
            ("backout counts", int(2)),
            ("backout counts[].page set", int(5)),
            ("backout counts[].page", int(300)),
            ("backout counts[].slot offset", int(40)),
            ("backout counts[].backout count", int(2)),
            ("backout counts[].page set", int(6)),
            ("backout counts[].page", int(301)),
            ("backout counts[].slot offset", int(72)),
            ("backout counts[].backout count", int(9)),
        ]),
    }
}

fn checkpoint_sample() -> RecordSample {
    let checkpoint = CheckpointRecord {
        checkpoint_sequence: 55,
        next_message_sequence: 1_000_000,
        next_object_id: 41,
        page_set_recovery_rbas: vec![(PageSetId(0), Rba(4096)), (PageSetId(7), Rba(81_920))],
        units_of_recovery: vec![
            UrSnapshot {
                urid: Urid(Rba(12_288)),
                state: UrState::InDoubt,
                operations: vec![
                    UrOperation {
                        is_put: true,
                        location: location(1, 11, 32),
                        object_id: 3,
                        sequence: 44,
                    },
                    UrOperation {
                        is_put: false,
                        location: location(2, 22, 64),
                        object_id: 5,
                        sequence: 66,
                    },
                ],
            },
            UrSnapshot {
                urid: Urid(Rba(20_480)),
                state: UrState::InFlight,
                operations: vec![],
            },
        ],
    };
    let ops = "units of recovery[].operations";
    RecordSample {
        name: "CHECKPOINT",
        kind: kind::CHECKPOINT,
        payload: checkpoint.encode(),
        fields: expect(&[
            ("checkpoint sequence", int(55)),
            ("next message sequence", int(1_000_000)),
            ("next object id", int(41)),
            ("page sets", int(2)),
            ("page sets[].page set", int(0)),
            ("page sets[].recovery RBA", int(4096)),
            ("page sets[].page set", int(7)),
            ("page sets[].recovery RBA", int(81_920)),
            ("units of recovery", int(2)),
            ("units of recovery[].urid", int(12_288)),
            ("units of recovery[].state", int(1)),
            ("units of recovery[].operations", int(2)),
            (&format!("{ops}[].is put"), int(1)),
            (&format!("{ops}[].page set"), int(1)),
            (&format!("{ops}[].page"), int(11)),
            (&format!("{ops}[].slot offset"), int(32)),
            (&format!("{ops}[].object id"), int(3)),
            (&format!("{ops}[].sequence"), int(44)),
            (&format!("{ops}[].is put"), int(0)),
            (&format!("{ops}[].page set"), int(2)),
            (&format!("{ops}[].page"), int(22)),
            (&format!("{ops}[].slot offset"), int(64)),
            (&format!("{ops}[].object id"), int(5)),
            (&format!("{ops}[].sequence"), int(66)),
            ("units of recovery[].urid", int(20_480)),
            ("units of recovery[].state", int(0)),
            ("units of recovery[].operations", int(0)),
        ]),
    }
}

#[test]
fn record_tables_decode_what_the_code_encodes() {
    let documented = tables_with("record:");
    let samples = record_samples();
    let sample_names: BTreeSet<&str> = samples.iter().map(|sample| sample.name).collect();
    let documented_names: BTreeSet<&str> = documented.keys().map(String::as_str).collect();
    assert_eq!(
        documented_names, sample_names,
        "docs/formats.md documents exactly the recovery records the code writes"
    );
    for RecordSample {
        name,
        kind: record_kind,
        payload,
        fields: expected,
    } in samples
    {
        // The sample is a record the code reads back.
        RecoveryRecord::decode(record_kind, &payload)
            .unwrap_or_else(|error| panic!("sample {name} does not decode: {error}"));
        let table = &documented[name];
        for (index, row) in table.iter().enumerate() {
            assert_eq!(
                row[0],
                (index + 1).to_string(),
                "{name}: rows are numbered in order"
            );
        }
        let rows: Vec<RecordRow> = table
            .iter()
            .map(|row| RecordRow {
                encoding: row[1].clone(),
                path: row[2].clone(),
            })
            .collect();
        let mut bytes = &payload[..];
        let mut found = BTreeMap::new();
        walk(&rows, &mut bytes, &mut found);
        assert!(
            bytes.is_empty(),
            "{name}: {} payload bytes left after the documented fields",
            bytes.len()
        );
        assert_eq!(
            found, expected,
            "{name}: the fields read as docs/formats.md says differ from what the code wrote"
        );
    }
    // Every kind the reader knows is documented, and no other kind decodes.
    for unknown in [0u8, 7, 0x21, 0xFD] {
        assert!(RecoveryRecord::decode(unknown, &[0; 16]).is_err());
    }
}

// ---------------------------------------------------------------------------------------------
// BSDS body

fn sample_bsds() -> Bsds {
    let mut sample = Bsds::new(3, 4, true);
    sample.update_sequence = 17;
    sample.highest_written_rba = 0x0123_4000;
    sample.active_logs = [
        (ActiveLogStatus::NotArchived, Some(0), Some(4 << 20)),
        (ActiveLogStatus::Current, Some(4 << 20), None),
        (ActiveLogStatus::Reusable, None, None),
    ]
    .into_iter()
    .enumerate()
    .map(|(index, (status, start_rba, end_rba))| ActiveLogEntry {
        data_set_number: index as u32 + 1,
        copies: vec![
            format!("active/LOGCOPY1.DS{:02}", index + 1),
            format!("active/LOGCOPY2.DS{:02}", index + 1),
        ],
        status,
        start_rba,
        end_rba,
    })
    .collect();
    sample.add_archive(ArchiveEntry {
        start_rba: 0,
        end_rba: 4 << 20,
        content_bytes: (4 << 20) - 100,
        compressed: true,
        copies: vec!["A0000000000000000.1.log.z".to_string()],
        created_unix_seconds: 1_700_000_000,
    });
    sample.add_checkpoint(CheckpointLocation {
        begin_rba: Rba(8192),
        end_rba: Rba(8300),
    });
    sample
}

fn toml_type(value: &toml::Value) -> String {
    match value {
        toml::Value::Integer(_) => "integer".to_string(),
        toml::Value::String(_) => "string".to_string(),
        toml::Value::Boolean(_) => "boolean".to_string(),
        toml::Value::Float(_) => "float".to_string(),
        toml::Value::Datetime(_) => "datetime".to_string(),
        toml::Value::Table(_) => "table".to_string(),
        toml::Value::Array(items) => {
            let kinds: BTreeSet<String> = items.iter().map(toml_type).collect();
            assert_eq!(
                kinds.len(),
                1,
                "the sample's arrays are non-empty and uniform"
            );
            format!("array of {}s", kinds.into_iter().next().unwrap())
        }
    }
}

/// Keys and TOML types of a table; for an array of tables, the union over its entries.
fn keys(tables: &[&toml::Table]) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    for table in tables {
        for (key, value) in table.iter() {
            let kind = toml_type(value);
            if let Some(previous) = found.insert(key.clone(), kind.clone()) {
                assert_eq!(previous, kind, "key {key} has one type");
            }
        }
    }
    found
}

#[test]
fn bsds_body_tables_match_the_serialised_body() {
    let bytes = sample_bsds().encode();
    let body = std::str::from_utf8(&bytes[bsds::BSDS_FRAME_BYTES..]).unwrap();
    let top: toml::Table = toml::from_str(body).unwrap();
    let mut code: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    code.insert("top level".to_string(), keys(&[&top]));
    for (key, value) in top.iter() {
        if let toml::Value::Array(items) = value {
            let entries: Vec<&toml::Table> = items.iter().filter_map(|v| v.as_table()).collect();
            if !entries.is_empty() {
                code.insert(key.clone(), keys(&entries));
            }
        }
    }
    let documented: BTreeMap<String, BTreeMap<String, String>> = tables_with("toml:")
        .into_iter()
        .map(|(name, rows)| {
            let table = rows
                .iter()
                .map(|row| (strip_backticks(&row[0]).to_string(), row[1].clone()))
                .collect();
            (name, table)
        })
        .collect();
    for (name, keys) in &code {
        let shown = documented.get(name).unwrap_or_else(|| {
            panic!("docs/formats.md has no <!-- toml: {name} --> table for the BSDS body")
        });
        assert_same(
            shown,
            keys,
            &format!("BSDS body table \"{name}\" (key, TOML type)"),
        );
    }
    let extra: Vec<&String> = documented
        .keys()
        .filter(|name| !code.contains_key(*name))
        .collect();
    assert!(
        extra.is_empty(),
        "docs/formats.md documents BSDS tables the code does not write: {extra:?}"
    );
    // The documented status values are the ones the code writes.
    let status_meaning = &tables_with("toml:")["active_logs"]
        .iter()
        .find(|row| row[0] == "`status`")
        .expect("status row")[2]
        .clone();
    for entry in top["active_logs"].as_array().unwrap() {
        let status = entry["status"].as_str().unwrap();
        assert!(
            status_meaning.contains(&format!("`{status}`")),
            "status {status} is not documented"
        );
    }
}
