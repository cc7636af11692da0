//! ferrite-message's `fuzz_conversion` on any bytes: MQGMO_CONVERT's data conversion (MQSTR,
//! MQRFH2, MQDLH between every supported CCSID and encoding) must convert or fail with MQ's
//! reason, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ferrite_message::fuzz_conversion(data);
});
