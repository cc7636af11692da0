//! IBM MQ constants with MQ's own names and numeric values.
//!
//! Ferrite re-implements an IBM MQ queue manager, so every number that crosses an interface must
//! be the number IBM MQ uses: the MQI (`MQCONN`/`MQOPEN`/`MQPUT`/`MQGET`/... completion and
//! reason codes, option bit masks, `MQMD` field values), the MQSC command processor and the PCF
//! command server (command codes, parameter identifiers, attribute values, `MQRCCF_*` reasons),
//! the client wire protocol (structure identifiers, versions, lengths, formats, encodings) and
//! the storage engine (which reports failures as MQ reason codes). All of them take their
//! numbers from this crate, so that every layer speaks the same numbers and an existing MQ
//! application, tool or packet trace sees exactly what a real queue manager would produce.
//!
//! The names are exactly IBM's (`MQRC_NO_MSG_AVAILABLE`, `MQGMO_WAIT`, ...) and the values are
//! IBM's documented ones (as in `cmqc.h`, `cmqcfc.h` and `cmqxc.h`, IBM MQ 9.4). Integer constants
//! are `i32` (MQ's `MQLONG`); fixed-width character and byte fields are byte arrays, for example
//! [`format::MQFMT_STRING`] is `*b"MQSTR   "` and [`structs::MQMD_STRUC_ID`] is `*b"MD  "`.
//! Lengths of structures containing pointers are the 64-bit ones.
//!
//! Constants are grouped by family into modules (one module per MQ prefix or a few related
//! prefixes); families with no module of their own are in [`misc`]. Reason codes can be mapped
//! back to their names with [`reason_name`].
//!
//! ```
//! use ferrite_constants::{get_options::*, reason::*, reason_name};
//!
//! let options = MQGMO_WAIT | MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING;
//! assert_eq!(options, 0x2003);
//! assert_eq!(reason_name(MQRC_NO_MSG_AVAILABLE), Some("MQRC_NO_MSG_AVAILABLE"));
//! ```

/// Defines a family of named codes: one `pub const NAME: i32 = value;` per entry, a table of all
/// `(value, name)` pairs, and a lookup function from value to name. Names and values come from
/// the same tokens so they cannot diverge, and a value listed twice fails to compile
/// (`unreachable_patterns` is denied in the generated `match`).
#[macro_export]
#[doc(hidden)]
macro_rules! named_codes {
    (
        $(#[$table_meta:meta])* $table:ident;
        $(#[$fn_meta:meta])* fn $lookup:ident;
        $($name:ident = $value:literal;)*
    ) => {
        $(pub const $name: i32 = $value;)*

        $(#[$table_meta])*
        pub const $table: &[(i32, &str)] = &[$(($value, stringify!($name))),*];

        $(#[$fn_meta])*
        #[deny(unreachable_patterns)]
        pub const fn $lookup(code: i32) -> Option<&'static str> {
            match code {
                $($value => Some(stringify!($name)),)*
                _ => None,
            }
        }
    };
}

pub mod appl_type;
pub mod ccsid;
pub mod channel;
pub mod close_options;
pub mod completion;
pub mod connect_options;
pub mod definition_type;
pub mod encoding;
pub mod expiry;
pub mod feedback;
pub mod format;
pub mod get_options;
pub mod ids;
pub mod index_type;
pub mod lengths;
pub mod match_options;
pub mod message_delivery_sequence;
pub mod message_flags;
pub mod message_type;
pub mod misc;
pub mod object_type;
pub mod open_options;
pub mod pcf;
pub mod pcf_reason;
pub mod pcf_selector;
pub mod persistence;
pub mod platform;
pub mod priority;
pub mod put_options;
pub mod queue_type;
pub mod reason;
pub mod report;
pub mod selector;
pub mod shareability;
pub mod status;
pub mod structs;
pub mod syncpoint;
pub mod trigger_type;
pub mod wait;

pub use reason::reason_name;

#[cfg(test)]
mod tests;
