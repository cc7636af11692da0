//! Hostile-input tests for every storage decoder that reads bytes from disk: message images,
//! recovery log payloads and framing, pages (common header, data and continuation pages), the
//! BSDS and stored object definitions.
//!
//! Each target gets a proptest over random bytes and over mutations of valid encodings (bit
//! flips, truncations, byte overwrites, length-field tampering, and — where a checksum would
//! stop the decoder early — mutations re-sealed with a correct checksum), asserting no panic and
//! sane results. Each target also has a corpus directory under `tests/corpus/<target>/` whose
//! files are replayed by `corpus_*` tests (one raw input per file: the format cargo-fuzz uses).
//!
//! Corpus formats:
//! - `message_image/`: a message image (`decode_descriptor`, `decode_index_fields`).
//! - `log_payload/`: byte 0 is the record kind, the rest the payload (`RecoveryRecord::decode`).
//! - `log_record/`: bytes 0..8 are the RBA (u64 LE), the rest the framed record (`decode_record`).
//! - `page/`: a page (zero-padded or cut to 4096 bytes), verified as page 9 of page set 1 and as
//!   the page/page set its own header names, then read as a data and a continuation page.
//! - `bsds/`: a BSDS file (`Bsds::decode`).
//! - `object_definition/`: a stored object definition (`QueueDefinition::decode`).
//!
//! `cargo test -p ferrite-queue-manager --test hostile_decoders -- --ignored write_seed_corpus`
//! rewrites the `seed-*` files from the current encoders.

use std::path::PathBuf;

use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::data_manager::data_page::{self, SlotHeader, CONTINUATION_CAPACITY};
use ferrite_storage::data_manager::message::{decode_descriptor, encode_image, MessageDescriptor};
use ferrite_storage::log::bsds::Bsds;
use ferrite_storage::log::record::{decode_record, encode_record, LOG_RECORD_HEADER_BYTES};
use ferrite_storage::log_records::{
    encode_urid, kind, BackoutRecord, CheckpointRecord, GetRecord, MessageLocation, PutRecord,
    UrOperation, UrReference, UrSnapshot, UrState,
};
use ferrite_storage::page::{PageBytes, PageType, PAGE_SIZE};
use ferrite_storage::{PageNumber, PageSetId, Rba, Urid};
use ferrite_test_kit::hostile::{
    check_log_payload, check_log_record, check_message_image, check_page,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Mutations

#[derive(Clone, Debug)]
enum Mutation {
    FlipBit(usize, u8),
    Overwrite(usize, u8),
    Truncate(usize),
    /// Overwrite 4 bytes with a large little-endian u32 (length fields).
    BigU32(usize, u32),
    /// Insert a long varint (length fields in varint encodings).
    BigVarint(usize),
    Delete(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Overwrite(i, v)),
        any::<usize>().prop_map(Mutation::Truncate),
        (
            any::<usize>(),
            prop_oneof![
                Just(u32::MAX),
                Just(0x8000_0000),
                Just(0x1_0000),
                any::<u32>()
            ]
        )
            .prop_map(|(i, v)| Mutation::BigU32(i, v)),
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
            Mutation::BigU32(i, v) if len >= 4 => {
                let at = i % (len - 3);
                bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            Mutation::BigVarint(i) => {
                let at = i % (len + 1);
                bytes.splice(
                    at..at,
                    [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],
                );
            }
            Mutation::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            _ => {}
        }
    }
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..6)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Corpus

fn corpus_dir(target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(target)
}

/// Every file of a corpus directory, sorted by name. The directory must not be empty.
fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    ferrite_test_kit::corpus::corpus_files(&corpus_dir(target), 1)
}

// ---------------------------------------------------------------------------------------------
// Target: message images

fn descriptor_strategy() -> impl Strategy<Value = MessageDescriptor> {
    (
        any::<bool>(),
        0u8..=9,
        prop::option::of(any::<[u8; 24]>()),
        prop::option::of(any::<[u8; 24]>()),
        prop::option::of((any::<[u8; 24]>(), any::<u32>())),
        prop::option::of(any::<u32>()),
        prop_oneof![any::<u64>(), Just(u64::MAX), 0u64..2_000_000_000_000],
        prop::collection::vec(any::<u8>(), 0..64),
    )
        .prop_map(
            |(persistent, priority, msg, correl, group, expiry, put_time_ms, extension)| {
                let mut d = MessageDescriptor {
                    persistent,
                    priority,
                    expiry_tenths: expiry,
                    put_time_ms,
                    descriptor_extension: extension,
                    ..MessageDescriptor::default()
                };
                if let Some(id) = msg {
                    d.message_id = id;
                }
                if let Some(id) = correl {
                    d.correlation_id = id;
                }
                if let Some((id, sequence)) = group {
                    d.group_id = id;
                    d.sequence_in_group = sequence;
                }
                d
            },
        )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn message_image_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_message_image(&bytes);
    }

    #[test]
    fn message_image_round_trip_and_mutations(
        descriptor in descriptor_strategy(),
        data in prop::collection::vec(any::<u8>(), 0..64),
        mutations in mutations(),
    ) {
        let image = encode_image(&descriptor, &data);
        let (decoded, offset) = decode_descriptor(&image).unwrap();
        prop_assert_eq!(&decoded, &descriptor);
        prop_assert_eq!(&image[offset..], &data[..]);
        check_message_image(&image);
        let mut mutated = image.clone();
        apply(&mut mutated, &mutations);
        check_message_image(&mutated);
    }
}

#[test]
fn corpus_message_image() {
    for (name, bytes) in corpus("message_image") {
        eprintln!("message_image/{name}");
        check_message_image(&bytes);
    }
}

// ---------------------------------------------------------------------------------------------
// Target: recovery log payloads

fn location_strategy() -> impl Strategy<Value = MessageLocation> {
    (0u8..=99, any::<u32>(), any::<u16>()).prop_map(|(ps, page, offset)| MessageLocation {
        page_set: PageSetId(ps),
        page: PageNumber(page),
        offset,
    })
}

fn ur_strategy() -> impl Strategy<Value = UrReference> {
    prop_oneof![
        Just(UrReference::None),
        Just(UrReference::Begins),
        (0u64..u64::MAX - 2).prop_map(|n| UrReference::Continues(Urid(Rba(n)))),
    ]
}

/// A valid payload of every kind, with its kind byte.
fn payload_strategy() -> impl Strategy<Value = (u8, Vec<u8>)> {
    prop_oneof![
        (
            ur_strategy(),
            any::<u8>(),
            location_strategy(),
            any::<u32>(),
            any::<u64>(),
            any::<bool>(),
            prop::collection::vec(any::<u32>(), 0..8),
            prop::collection::vec(any::<u8>(), 0..64),
        )
            .prop_map(
                |(ur, slot_kind, location, object_id, sequence, new_page, pages, image)| {
                    let record = PutRecord {
                        ur,
                        slot_kind,
                        location,
                        object_id,
                        sequence,
                        new_page,
                        continuation_pages: pages,
                    };
                    let mut payload = record.encode_header();
                    payload.extend_from_slice(&image);
                    (kind::PUT, payload)
                }
            ),
        (
            ur_strategy(),
            location_strategy(),
            any::<u32>(),
            any::<u64>()
        )
            .prop_map(|(ur, location, object_id, sequence)| {
                let record = GetRecord {
                    ur,
                    location,
                    object_id,
                    sequence,
                };
                (kind::GET, record.encode())
            }),
        any::<u64>().prop_map(|n| (kind::COMMIT, encode_urid(Urid(Rba(n))))),
        any::<u64>().prop_map(|n| (kind::PREPARE, encode_urid(Urid(Rba(n))))),
        (
            any::<u64>(),
            prop::collection::vec((location_strategy(), any::<u16>()), 0..8)
        )
            .prop_map(|(n, counts)| {
                let record = BackoutRecord {
                    urid: Urid(Rba(n)),
                    backout_counts: counts,
                };
                (kind::BACKOUT, record.encode())
            }),
        (
            any::<u64>(),
            any::<u64>(),
            any::<u32>(),
            prop::collection::vec((0u8..=99, any::<u64>()), 0..6),
            prop::collection::vec(
                (
                    any::<u64>(),
                    any::<bool>(),
                    prop::collection::vec(
                        (
                            any::<bool>(),
                            location_strategy(),
                            any::<u32>(),
                            any::<u64>()
                        ),
                        0..4
                    )
                ),
                0..4
            ),
        )
            .prop_map(|(cs, ms, oid, rbas, urs)| {
                let record = CheckpointRecord {
                    checkpoint_sequence: cs,
                    next_message_sequence: ms,
                    next_object_id: oid,
                    page_set_recovery_rbas: rbas
                        .into_iter()
                        .map(|(ps, rba)| (PageSetId(ps), Rba(rba)))
                        .collect(),
                    units_of_recovery: urs
                        .into_iter()
                        .map(|(urid, in_doubt, operations)| UrSnapshot {
                            urid: Urid(Rba(urid)),
                            state: if in_doubt {
                                UrState::InDoubt
                            } else {
                                UrState::InFlight
                            },
                            operations: operations
                                .into_iter()
                                .map(|(is_put, location, object_id, sequence)| UrOperation {
                                    is_put,
                                    location,
                                    object_id,
                                    sequence,
                                })
                                .collect(),
                        })
                        .collect(),
                };
                (kind::CHECKPOINT, record.encode())
            }),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn log_payload_random_bytes(
        kind_byte in prop_oneof![1u8..=6, any::<u8>()],
        payload in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        check_log_payload(kind_byte, &payload);
    }

    #[test]
    fn log_payload_round_trip_and_mutations(
        (kind_byte, payload) in payload_strategy(),
        mutations in mutations(),
        other_kind in 0u8..=7,
    ) {
        prop_assert!(check_log_payload(kind_byte, &payload).is_some(), "valid payload refused");
        let mut mutated = payload.clone();
        apply(&mut mutated, &mutations);
        check_log_payload(kind_byte, &mutated);
        // The payload read as another kind (a kind byte flipped under a good checksum).
        check_log_payload(other_kind, &payload);
    }
}

#[test]
fn corpus_log_payload() {
    for (name, bytes) in corpus("log_payload") {
        eprintln!("log_payload/{name}");
        if let Some((&kind_byte, payload)) = bytes.split_first() {
            check_log_payload(kind_byte, payload);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Target: log record framing

proptest! {
    #![proptest_config(config())]

    #[test]
    fn log_record_random_bytes(rba in any::<u64>(), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        check_log_record(rba, &bytes);
    }

    #[test]
    fn log_record_round_trip_and_mutations(
        rba in any::<u64>(),
        kind_byte in 0u8..0xFF,
        payload in prop::collection::vec(any::<u8>(), 0..128),
        trailing in prop::collection::vec(any::<u8>(), 0..16),
        mutations in mutations(),
        other_rba in any::<u64>(),
    ) {
        let mut framed = encode_record(Rba(rba), kind_byte, &payload);
        framed.extend_from_slice(&trailing);
        let (header, decoded) = decode_record(Rba(rba), &framed).unwrap();
        prop_assert_eq!(header.kind, kind_byte);
        prop_assert_eq!(decoded, &payload[..]);
        // A record read at another RBA (a stale record of a reused log file) is refused.
        if other_rba != rba {
            prop_assert!(decode_record(Rba(other_rba), &framed).is_err());
        }
        let record_length = LOG_RECORD_HEADER_BYTES + payload.len();
        let mut mutated = framed.clone();
        apply(&mut mutated, &mutations);
        check_log_record(rba, &mutated);
        // CRC-32C catches every change of up to 3 bits: a mutation inside the record that
        // still decodes must have left the record's bytes as they were.
        if let Ok((_, decoded)) = decode_record(Rba(rba), &mutated) {
            if mutated.len() >= record_length
                && mutations.iter().all(|m| matches!(m, Mutation::FlipBit(..)))
                && mutations.len() <= 3
            {
                prop_assert_eq!(decoded, &payload[..]);
            }
        }
    }
}

#[test]
fn corpus_log_record() {
    for (name, bytes) in corpus("log_record") {
        eprintln!("log_record/{name}");
        let rba = bytes
            .get(..8)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap()));
        check_log_record(rba, bytes.get(8..).unwrap_or(&[]));
    }
}

// ---------------------------------------------------------------------------------------------
// Target: pages

fn page_from(bytes: &[u8]) -> Box<PageBytes> {
    let mut page = PageBytes::zeroed();
    let n = bytes.len().min(PAGE_SIZE);
    page.0[..n].copy_from_slice(&bytes[..n]);
    page
}

/// A valid sealed data page holding `lengths.len()` slots, or a continuation page.
fn valid_page(continuation: bool, lengths: &[u16], fill: u8) -> Box<PageBytes> {
    let mut page = PageBytes::zeroed();
    if continuation {
        page.format(PageType::Continuation, PageSetId(1), PageNumber(9));
        let length = lengths
            .iter()
            .map(|&l| l as usize)
            .sum::<usize>()
            .min(CONTINUATION_CAPACITY);
        data_page::write_continuation(&mut page, 10, &vec![fill; length]);
    } else {
        page.format(PageType::Data, PageSetId(1), PageNumber(9));
        for (i, &length) in lengths.iter().enumerate() {
            let offset = data_page::slot_area_end(&page);
            if offset + data_page::SLOT_HEADER_SIZE + length as usize > PAGE_SIZE {
                break;
            }
            let header = SlotHeader {
                state: data_page::SLOT_STATE_LIVE,
                kind: data_page::SLOT_KIND_MESSAGE,
                backout_count: i as u16,
                length_here: length,
                total_length: length as u32 + i as u32,
                first_continuation: 0,
                object_id: 7,
                sequence: i as u64,
            };
            data_page::write_slot(&mut page, offset, &header, &vec![fill; length as usize]);
        }
    }
    page.seal();
    page
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..config() })]

    #[test]
    fn page_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..PAGE_SIZE)) {
        let page = page_from(&bytes);
        check_page(&page);
        // Random pages with a good checksum and header get past verify into the slot readers.
        let mut sealed = page.clone();
        sealed.0[4..6].copy_from_slice(b"FP");
        sealed.0[7] = 1;
        sealed.seal();
        check_page(&sealed);
    }

    #[test]
    fn page_mutations(
        continuation in any::<bool>(),
        lengths in prop::collection::vec(0u16..1500, 0..6),
        fill in any::<u8>(),
        mutations in mutations(),
        reseal in any::<bool>(),
    ) {
        let page = valid_page(continuation, &lengths, fill);
        prop_assert!(page.verify(PageSetId(1), PageNumber(9)).is_ok());
        check_page(&page);
        let mut bytes = page.0.to_vec();
        apply(&mut bytes, &mutations);
        let mut mutated = page_from(&bytes);
        let changed = mutated.0 != page.0;
        if reseal {
            mutated.seal();
        } else if changed && mutated.0[4..].iter().any(|&b| b != 0)
            && mutations.iter().all(|m| matches!(m, Mutation::FlipBit(..))) && mutations.len() <= 3 {
            // Up to three flipped bits never pass CRC-32C.
            prop_assert!(mutated.verify(PageSetId(1), PageNumber(9)).is_err());
        }
        check_page(&mutated);
    }
}

#[test]
fn corpus_page() {
    for (name, bytes) in corpus("page") {
        eprintln!("page/{name}");
        check_page(&page_from(&bytes));
    }
}

// ---------------------------------------------------------------------------------------------
// Target: BSDS

/// Re-frame `body` with correct checksums, so the decoder reaches the TOML parser.
fn frame_bsds(template: &[u8], body: &[u8]) -> Vec<u8> {
    let mut bytes = template[..24].to_vec();
    bytes[12..16].copy_from_slice(&(body.len() as u32).to_le_bytes());
    bytes[16..20].copy_from_slice(&crc32c::crc32c(body).to_le_bytes());
    let frame = crc32c::crc32c(&bytes[0..20]);
    bytes[20..24].copy_from_slice(&frame.to_le_bytes());
    bytes.extend_from_slice(body);
    bytes
}

fn sample_bsds(sequence: u64, checkpoints: u8) -> Bsds {
    let mut bsds = Bsds::new(3, 1, sequence & 1 == 0);
    bsds.update_sequence = sequence;
    bsds.created_unix_seconds = 1_700_000_000;
    for i in 0..checkpoints as u64 {
        bsds.add_checkpoint(ferrite_storage::log::CheckpointLocation {
            begin_rba: Rba(i * 4096),
            end_rba: Rba(i * 4096 + 100),
        });
    }
    bsds
}

fn check_bsds(bytes: &[u8]) -> Option<Bsds> {
    let bsds = Bsds::decode(bytes).ok()?;
    // A decoded BSDS re-encodes to something that decodes to the same value.
    assert_eq!(Bsds::decode(&bsds.encode()).unwrap(), bsds);
    let _ = bsds.last_checkpoint();
    Some(bsds)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..config() })]

    #[test]
    fn bsds_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..128)) {
        prop_assert!(check_bsds(&bytes).is_none());
    }

    #[test]
    fn bsds_mutations(
        // TOML integers are i64: the BSDS cannot encode a sequence above i64::MAX (it counts
        // updates from 0, so it never gets there).
        sequence in 0..i64::MAX as u64,
        checkpoints in 0u8..4,
        mutations in mutations(),
        body_mutations in mutations(),
    ) {
        let bsds = sample_bsds(sequence, checkpoints);
        let encoded = bsds.encode();
        prop_assert_eq!(check_bsds(&encoded), Some(bsds.clone()));
        let mut mutated = encoded.clone();
        apply(&mut mutated, &mutations);
        let decoded = check_bsds(&mutated);
        if mutated != encoded && mutations.len() <= 3
            && mutations.iter().all(|m| matches!(m, Mutation::FlipBit(..))) {
            prop_assert!(decoded.is_none(), "a damaged BSDS was accepted");
        }
        // A body damaged under good checksums: the TOML and serde layer must refuse or parse,
        // never panic.
        let mut body = encoded[24..].to_vec();
        apply(&mut body, &body_mutations);
        check_bsds(&frame_bsds(&encoded, &body));
    }

    #[test]
    fn bsds_random_body(body in "[a-z_=\\[\\]0-9 \n\"{},.-]{0,200}") {
        let template = sample_bsds(1, 0).encode();
        check_bsds(&frame_bsds(&template, body.as_bytes()));
    }
}

#[test]
fn corpus_bsds() {
    for (name, bytes) in corpus("bsds") {
        eprintln!("bsds/{name}");
        check_bsds(&bytes);
    }
}

// ---------------------------------------------------------------------------------------------
// Target: object definitions

fn definition_strategy() -> impl Strategy<Value = QueueDefinition> {
    (
        "[A-Z0-9._%/]{1,48}",
        prop_oneof!["[ -~]{0,64}", "[\\\\n\n\r]{0,12}", "\\PC{0,16}"],
        0u8..=99,
        0u32..=999_999_999,
        0u32..=104_857_600,
        any::<bool>(),
        0u8..=9,
        prop::sample::select(vec!["NONE", "MSGID", "CORRELID", "GROUPID", "MSGTOKEN"]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(name, description, ps, depth, msgl, persistent, priority, index, put, get)| {
                let mut definition = QueueDefinition::local(&name, PageSetId(ps));
                definition.description = description;
                definition.max_depth = depth;
                definition.max_message_length = msgl;
                definition.default_persistent = persistent;
                definition.default_priority = priority;
                definition.index_type = index.to_string();
                definition.put_inhibited = put;
                definition.get_inhibited = get;
                definition
            },
        )
}

fn check_definition(bytes: &[u8]) -> Option<QueueDefinition> {
    let definition = QueueDefinition::decode(bytes).ok()?;
    assert!(definition.validate().is_ok());
    assert_eq!(
        QueueDefinition::decode(&definition.encode()).unwrap(),
        definition
    );
    assert!(definition.page_set.0 <= PageSetId::MAX);
    assert!(definition.default_priority <= 9);
    Some(definition)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn object_definition_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..128)) {
        check_definition(&bytes);
    }

    #[test]
    fn object_definition_random_lines(lines in "FERRITE-OBJECT 1 QLOCAL\n([A-Z]{1,9}=[ -~]{0,12}\n){0,8}") {
        check_definition(lines.as_bytes());
    }

    #[test]
    fn object_definition_round_trip_and_mutations(
        definition in definition_strategy(),
        mutations in mutations(),
    ) {
        let encoded = definition.encode();
        prop_assert_eq!(check_definition(&encoded), Some(definition));
        let mut mutated = encoded;
        apply(&mut mutated, &mutations);
        check_definition(&mutated);
    }
}

#[test]
fn corpus_object_definition() {
    for (name, bytes) in corpus("object_definition") {
        eprintln!("object_definition/{name}");
        let definition = check_definition(&bytes);
        // Inputs found by the round-trip property: they must decode and encode back unchanged.
        // When the encoding's version changes, keep the old image as `found-v<n>-...` (it must
        // still decode) and rewrite these with FERRITE_REGENERATE_CORPUS=1.
        if name.starts_with("found-roundtrip-") {
            let encoded = definition.expect("decodes").encode();
            if std::env::var_os("FERRITE_REGENERATE_CORPUS").is_some() {
                std::fs::write(corpus_dir("object_definition").join(&name), &encoded).unwrap();
                continue;
            }
            assert_eq!(encoded, bytes, "{name}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Seed corpus

#[test]
#[ignore = "rewrites the seed corpus files; run by hand"]
fn write_seed_corpus() {
    let write = |target: &str, name: &str, bytes: &[u8]| {
        let dir = corpus_dir(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("seed-{name}")), bytes).unwrap();
    };
    // Message images.
    let full = MessageDescriptor {
        persistent: true,
        priority: 9,
        message_id: [1; 24],
        correlation_id: [2; 24],
        group_id: [3; 24],
        sequence_in_group: 7,
        message_flags: 0x0a,
        segment_offset: 100,
        expiry_tenths: Some(600),
        put_time_ms: 1_700_000_000_000,
        descriptor_extension: vec![1, 2],
    };
    write(
        "message_image",
        "default",
        &encode_image(&MessageDescriptor::default(), b"hello"),
    );
    write("message_image", "all-fields", &encode_image(&full, b"data"));
    // Log payloads.
    let location = MessageLocation {
        page_set: PageSetId(1),
        page: PageNumber(9),
        offset: 32,
    };
    let mut put = PutRecord {
        ur: UrReference::Begins,
        slot_kind: 1,
        location,
        object_id: 5,
        sequence: 42,
        new_page: true,
        continuation_pages: vec![10, 11],
    }
    .encode_header();
    put.extend_from_slice(&encode_image(&full, b"data"));
    let get = GetRecord {
        ur: UrReference::Continues(Urid(Rba(4096))),
        location,
        object_id: 5,
        sequence: 42,
    }
    .encode();
    let backout = BackoutRecord {
        urid: Urid(Rba(4096)),
        backout_counts: vec![(location, 2)],
    }
    .encode();
    let checkpoint = CheckpointRecord {
        checkpoint_sequence: 3,
        next_message_sequence: 43,
        next_object_id: 6,
        page_set_recovery_rbas: vec![(PageSetId(0), Rba(0)), (PageSetId(1), Rba(4096))],
        units_of_recovery: vec![UrSnapshot {
            urid: Urid(Rba(4096)),
            state: UrState::InDoubt,
            operations: vec![UrOperation {
                is_put: true,
                location,
                object_id: 5,
                sequence: 42,
            }],
        }],
    }
    .encode();
    let with_kind = |k: u8, payload: &[u8]| [&[k][..], payload].concat();
    write("log_payload", "put", &with_kind(kind::PUT, &put));
    write("log_payload", "get", &with_kind(kind::GET, &get));
    write(
        "log_payload",
        "commit",
        &with_kind(kind::COMMIT, &encode_urid(Urid(Rba(4096)))),
    );
    write(
        "log_payload",
        "prepare",
        &with_kind(kind::PREPARE, &encode_urid(Urid(Rba(4096)))),
    );
    write(
        "log_payload",
        "backout",
        &with_kind(kind::BACKOUT, &backout),
    );
    write(
        "log_payload",
        "checkpoint",
        &with_kind(kind::CHECKPOINT, &checkpoint),
    );
    // Log records.
    let at = |rba: u64, record: Vec<u8>| [&rba.to_le_bytes()[..], &record].concat();
    write(
        "log_record",
        "commit",
        &at(
            8192,
            encode_record(Rba(8192), kind::COMMIT, &encode_urid(Urid(Rba(4096)))),
        ),
    );
    write(
        "log_record",
        "empty-payload",
        &at(0, encode_record(Rba(0), 9, &[])),
    );
    // Pages.
    write(
        "page",
        "data-3-slots",
        &valid_page(false, &[10, 100, 1000], 0xAB).0,
    );
    write("page", "continuation", &valid_page(true, &[4064], 0xCD).0);
    write("page", "all-zero", &[0u8; PAGE_SIZE]);
    // BSDS.
    write("bsds", "three-checkpoints", &sample_bsds(12, 3).encode());
    // Object definitions.
    let mut definition = QueueDefinition::local("APP.QUEUE.1", PageSetId(3));
    definition.description = "line one\nback\\slash".into();
    write("object_definition", "qlocal", &definition.encode());
}
