//! MQMD decoding from the engine's descriptor: `ferrite_mqi::descriptor::from_engine` on any
//! descriptor extension (the MQMD fields the engine keeps opaque), with extreme and ordinary
//! put times and expiries. Text fields stay within their MQMD lengths; the remaining expiry
//! is unlimited or at least 1. Byte 0 picks the times; the rest is the extension.
//! Corpus: crates/ferrite-mqi/tests/corpus/descriptor_extension/ (raw extensions; byte 0 is
//! then part of the choice).
#![no_main]

use ferrite_test_kit::hostile::check_descriptor_extension;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let choice = data.first().copied().unwrap_or(0);
    let (put_time_ms, expiry_tenths, now_ms) = match choice % 4 {
        0 => (u64::MAX, Some(u32::MAX), 0),
        1 => (1_700_000_000_000, None, 1_700_000_000_000),
        2 => (1_700_000_000_000, Some(1), 1_700_000_000_000 + 50),
        _ => (0, Some(u32::from(choice)), u64::MAX),
    };
    check_descriptor_extension(data, put_time_ms, expiry_tenths, now_ms);
});
