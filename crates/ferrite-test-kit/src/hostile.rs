//! Checks of the product's decoders on hostile input that must hold for any bytes: each is
//! run both by a fuzz target (fuzz/fuzz_targets/) and by the property and corpus tests of the
//! crate that owns the decoder, so that the two run the same code. Nothing may panic; every
//! assertion here is a property of the decoder.

use std::sync::Arc;

use ferrite_command::parser::{split_commands, tokenize};
use ferrite_command::run_command;
use ferrite_mqi::descriptor::from_engine;
use ferrite_queue_manager::QueueManager;
use ferrite_storage::data_manager::data_page::{self, CONTINUATION_CAPACITY};
use ferrite_storage::data_manager::message::{
    decode_descriptor, decode_index_fields, encode_image, MessageDescriptor,
    DESCRIPTOR_EXTENSION_BYTES_MAX,
};
use ferrite_storage::log::record::{
    decode_header, decode_record, SegmentHeader, LOG_RECORD_BYTES_MAX, LOG_RECORD_HEADER_BYTES,
    RECORD_KIND_END_OF_FILE, RECORD_KIND_SEGMENT,
};
use ferrite_storage::log_records::{RecoveryRecord, CONTINUATION_PAGES_MAX, IMAGE_BYTES_MAX};
use ferrite_storage::page::{PageBytes, PAGE_HEADER_SIZE, PAGE_SIZE};
use ferrite_storage::{PageNumber, PageSetId, Rba};

/// A message image as stored in page set slots and PUT log records: the full and the index
/// decoders agree, the data offset is inside the image, priority 0-9, the extension within its
/// limit, derived values do not overflow, and what decodes re-encodes to the same descriptor.
pub fn check_message_image(image: &[u8]) {
    let full = decode_descriptor(image);
    let index = decode_index_fields(image);
    assert_eq!(full.is_ok(), index.is_ok(), "the two decoders disagree");
    if let Ok((descriptor, offset)) = full {
        assert!(offset <= image.len());
        assert!(descriptor.priority <= 9);
        assert!(descriptor.descriptor_extension.len() <= DESCRIPTOR_EXTENSION_BYTES_MAX);
        // Derived values must not overflow either.
        let _ = descriptor.expires_at_ms();
        let mut without_extension = descriptor.clone();
        without_extension.descriptor_extension.clear();
        assert_eq!(index.unwrap(), without_extension);
        // What decodes re-encodes to the same descriptor and data.
        let again = encode_image(&descriptor, &image[offset..]);
        let (decoded, again_offset) = decode_descriptor(&again).expect("re-encoded image decodes");
        assert_eq!(decoded, descriptor);
        assert_eq!(&again[again_offset..], &image[offset..]);
    }
}

/// A recovery log record payload of kind `kind_byte`, decoded as restart does: counts stay
/// within the payload and the documented maxima, and `describe` never panics. The record, if
/// it decoded.
pub fn check_log_payload(kind_byte: u8, payload: &[u8]) -> Option<RecoveryRecord> {
    let record = RecoveryRecord::decode(kind_byte, payload).ok()?;
    match &record {
        RecoveryRecord::Put { record, image } => {
            assert!(record.continuation_pages.len() <= CONTINUATION_PAGES_MAX);
            assert!(image.len() <= IMAGE_BYTES_MAX && image.len() <= payload.len());
            assert!(record.location.page_set.0 <= PageSetId::MAX);
        }
        RecoveryRecord::Backout(record) => {
            assert!(record.backout_counts.len() <= payload.len());
        }
        RecoveryRecord::Checkpoint(record) => {
            assert!(record.page_set_recovery_rbas.len() <= 100);
            let operations: usize = record
                .units_of_recovery
                .iter()
                .map(|ur| ur.operations.len())
                .sum();
            assert!(record.units_of_recovery.len() + operations <= payload.len());
        }
        _ => {}
    }
    let _ = record.describe(Rba(u64::MAX));
    let _ = record.describe(Rba(0));
    Some(record)
}

/// Log record framing as the log reader meets it at `rba`: the header and record decoders
/// never claim more bytes than there are, END_OF_FILE carries nothing, and a segment piece
/// fits its logical record and re-encodes.
pub fn check_log_record(rba: u64, bytes: &[u8]) {
    if let Ok(header) = decode_header(
        bytes
            .get(..LOG_RECORD_HEADER_BYTES)
            .and_then(|h| h.try_into().ok())
            .unwrap_or(&[0u8; LOG_RECORD_HEADER_BYTES]),
        bytes.len() as u64,
    ) {
        assert!(header.length as usize >= LOG_RECORD_HEADER_BYTES);
        let _ = header.payload_len();
    }
    if let Ok((header, payload)) = decode_record(Rba(rba), bytes) {
        assert!(header.length as usize <= bytes.len());
        if header.kind == RECORD_KIND_END_OF_FILE {
            assert!(payload.is_empty());
        } else {
            assert_eq!(payload.len(), header.payload_len());
        }
    }
    // Any bytes as a segment's payload: refused, or a piece that fits its logical record.
    if let Ok((segment, piece)) = SegmentHeader::decode(bytes) {
        assert!(segment.kind < RECORD_KIND_SEGMENT);
        assert!(segment.total_bytes as usize <= LOG_RECORD_BYTES_MAX);
        assert!(segment.offset as usize + piece.len() <= segment.total_bytes as usize);
        assert_eq!(
            SegmentHeader::decode(&[&segment.encode()[..], piece].concat()).unwrap(),
            (segment, piece)
        );
    }
}

/// A 4 KiB page as read from a page set, seen as a data page and as a continuation page:
/// slots lie end to end inside the page and every length stays inside it.
pub fn check_page(page: &PageBytes) {
    let _ = page.verify(PageSetId(1), PageNumber(9));
    let own_number = PageNumber(u32::from_le_bytes(page.0[16..20].try_into().unwrap()));
    let own_set = PageSetId(page.0[20]);
    let _ = page.verify(own_set, own_number);
    let _ = page.page_type();
    // Data page view.
    let end = data_page::slot_area_end(page);
    assert!(end >= PAGE_HEADER_SIZE);
    let free = data_page::free_space(page);
    assert!(free <= PAGE_SIZE - PAGE_HEADER_SIZE);
    let _ = data_page::slot_count(page);
    let _ = data_page::is_empty(page);
    let mut previous_end = PAGE_HEADER_SIZE;
    for (offset, header) in data_page::slots(page) {
        assert_eq!(offset, previous_end, "slots are laid end to end");
        let bytes = data_page::slot_bytes(page, offset, &header);
        assert_eq!(bytes.len(), header.length_here as usize);
        assert!(header.length_here as u32 <= header.total_length);
        previous_end = offset + data_page::SLOT_HEADER_SIZE + bytes.len();
        assert!(previous_end <= PAGE_SIZE);
    }
    for offset in [
        0,
        31,
        32,
        33,
        100,
        4067,
        4068,
        4069,
        4095,
        4096,
        usize::MAX / 2,
    ] {
        if let Some(header) = data_page::read_slot(page, offset) {
            assert!(
                offset + data_page::SLOT_HEADER_SIZE + header.length_here as usize <= PAGE_SIZE
            );
            let _ = data_page::slot_bytes(page, offset, &header);
        }
    }
    // Continuation page view.
    let _ = data_page::continuation_next(page);
    assert!(data_page::continuation_bytes(page).len() <= CONTINUATION_CAPACITY);
}

/// Tokenizer and splitter checks that need no queue manager.
pub fn check_mqsc_syntax(text: &str) {
    let line_count = text.split('\n').count();
    for command in split_commands(text) {
        assert!(command.line >= 1 && command.line <= line_count);
        let characters = command.text.chars().count();
        match tokenize(&command.text) {
            Ok(tokens) => {
                for token in tokens {
                    assert!(token.position >= 1 && token.position <= characters);
                    assert!(!token.keyword.is_empty());
                    if let Some(value) = token.value {
                        assert!(value.position >= 1 && value.position <= characters + 1);
                    }
                }
            }
            Err(error) => {
                assert!(
                    error.position >= 1 && error.position <= characters + 1,
                    "position {} outside a {characters}-character command",
                    error.position
                );
                assert!(error.line("QM1").contains("at position"));
            }
        }
    }
}

/// MQSC `text` run on `queue_manager`: the syntax checks, then the response: one to a single
/// non-empty command ends in CSQ9022I or CSQ9023E and says whether it succeeded; more than one
/// command is refused as a whole; every syntax error names a position inside the command.
pub fn check_mqsc_command(queue_manager: &Arc<QueueManager>, text: &str) {
    check_mqsc_syntax(text);
    let commands = split_commands(text);
    let response = run_command(queue_manager, text);
    if commands.is_empty() {
        assert!(response.success);
        return;
    }
    if commands.len() != 1 {
        // Refused as a whole with one CSQ9001E line (no completion line).
        assert!(!response.success);
        assert!(response.text().contains("Only one command is allowed"));
        return;
    }
    if tokenize(&commands[0].text).is_ok_and(|tokens| tokens.is_empty()) {
        // Only separators: an empty command, which succeeds with no output.
        assert!(response.success && response.lines.is_empty());
        return;
    }
    let last = response.lines.last().expect("a response");
    assert!(
        last.contains("CSQ9022I") || last.contains("CSQ9023E"),
        "response ends with {last:?}"
    );
    assert_eq!(response.success, last.contains("CSQ9022I"));
    let characters = commands[0].text.chars().count();
    if let Err(error) = tokenize(&commands[0].text) {
        assert!(!response.success);
        assert!(
            response
                .text()
                .contains(&format!("at position {}", error.position)),
            "{}",
            response.text()
        );
    }
    for line in &response.lines {
        // CSQ9000E-CSQ9019E: syntax errors (CSQ9022I/CSQ9023E are the completion lines).
        let is_syntax_error = (line.starts_with("CSQ900") || line.starts_with("CSQ901"))
            && line.as_bytes().get(7) == Some(&b'E')
            && !line.contains("Only one command is allowed");
        if is_syntax_error {
            let position: usize = line
                .rsplit_once("at position ")
                .unwrap_or_else(|| panic!("syntax error without a position: {line}"))
                .1
                .parse()
                .unwrap();
            assert!(position >= 1 && position <= characters + 1, "{line}");
        }
    }
}

/// MQMD decoding (`from_engine`, MQMD versions 1 and 2) of a stored descriptor with
/// `extension` (the MQMD fields the engine keeps opaque) and the given times: text fields stay
/// within their MQMD lengths; the remaining expiry is unlimited or at least 1.
pub fn check_descriptor_extension(
    extension: &[u8],
    put_time_ms: u64,
    expiry_tenths: Option<u32>,
    now_ms: u64,
) {
    let descriptor = MessageDescriptor {
        put_time_ms,
        expiry_tenths,
        descriptor_extension: extension.to_vec(),
        ..MessageDescriptor::default()
    };
    for version in [1, 2] {
        if let Ok(md) = from_engine(&descriptor, u16::MAX, now_ms, version) {
            assert!(md.reply_to_q.len() <= 48 && md.reply_to_q_mgr.len() <= 48);
            assert!(md.user_identifier.len() <= 12 && md.appl_identity_data.len() <= 32);
            assert!(md.put_appl_name.len() <= 28 && md.appl_origin_data.len() <= 4);
            assert!(md.expiry == -1 || md.expiry >= 1);
        }
    }
}
