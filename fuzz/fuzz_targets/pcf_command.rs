//! PCF command decoding: `pcf::decode` on any bytes, in both byte orders. A message that
//! decodes encodes back to bytes that decode to the same message; a message that does not
//! decode is refused with an MQRCCF_* reason (3001..4099).
//! Corpus: crates/ferrite-command/tests/corpus/pcf/.
#![no_main]

use ferrite_command::pcf::{decode, encode, ByteOrder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for order in [ByteOrder::Normal, ByteOrder::Reversed] {
        match decode(data, order) {
            Ok(message) => {
                let again = encode(&message, order);
                assert_eq!(again.len() % 4, 0);
                assert_eq!(
                    decode(&again, order).expect("re-encoded message decodes"),
                    message
                );
            }
            Err(error) => assert!((3001..=4099).contains(&error.reason), "{error:?}"),
        }
    }
});
