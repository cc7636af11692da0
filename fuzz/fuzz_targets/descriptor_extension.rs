//! MQMD decoding from the engine's descriptor: `ferrite_mqi::descriptor::from_engine` on any
//! descriptor extension (the MQMD fields the engine keeps opaque), with extreme and ordinary
//! put times and expiries. Text fields stay within their MQMD lengths; the remaining expiry
//! is unlimited or at least 1. Byte 0 picks the times; the rest is the extension.
//! Corpus: crates/ferrite-mqi/tests/corpus/descriptor_extension/ (raw extensions; byte 0 is
//! then part of the choice).
#![no_main]

use ferrite_mqi::descriptor::from_engine;
use ferrite_storage::data_manager::message::MessageDescriptor;
use libfuzzer_sys::fuzz_target;

fn check(extension: &[u8], put_time_ms: u64, expiry_tenths: Option<u32>, now_ms: u64) {
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

fuzz_target!(|data: &[u8]| {
    let choice = data.first().copied().unwrap_or(0);
    let (put_time_ms, expiry_tenths, now_ms) = match choice % 4 {
        0 => (u64::MAX, Some(u32::MAX), 0),
        1 => (1_700_000_000_000, None, 1_700_000_000_000),
        2 => (1_700_000_000_000, Some(1), 1_700_000_000_000 + 50),
        _ => (0, Some(u32::from(choice)), u64::MAX),
    };
    check(data, put_time_ms, expiry_tenths, now_ms);
});
