//! # ferrite-mqi
//!
//! The MQI of a Ferrite queue manager, in-process: an application embeds the queue manager (as
//! it would SQLite) and calls MQCONN, MQOPEN, MQPUT, MQPUT1, MQGET, MQINQ, MQSET, MQCMIT,
//! MQBACK, MQCLOSE and MQDISC on it with IBM MQ's structures, options, completion and reason
//! codes and semantics (z/OS's where they differ).
//!
//! - [`structures`]: MQMD (version 2), MQOD, MQPMO, MQGMO, MQCNO with MQ's defaults.
//! - [`descriptor`]: MQMD to and from the storage engine's message descriptor, and the
//!   documented encoding of the MQMD fields the engine does not keep itself.
//! - [`connection`]: [`Connection`] (an MQHCONN) and the calls.
//! - [`error`]: [`MqError`], a completion code and reason code.
//! - [`selection`]: message selectors (MQOD SelectionString) on a handle.
//!
//! ```no_run
//! # use std::sync::Arc;
//! # use ferrite_mqi::*;
//! # use ferrite_constants::{open_options::*, put_options::*, get_options::*};
//! # fn demo(queue_manager: Arc<ferrite_storage::queue_manager::QueueManager>) -> MqResult<()> {
//! let mut connection = Connection::connect(queue_manager, "")?;
//! let hobj = connection.open(&mut Mqod::queue("APP.Q"), MQOO_OUTPUT | MQOO_INPUT_SHARED)?;
//! connection.put(hobj, &mut Mqmd::default(), &mut Mqpmo::with_options(MQPMO_SYNCPOINT), b"hello")?;
//! connection.commit()?;
//! let mut buffer = [0u8; 100];
//! let got = connection.get(hobj, &mut Mqmd::default(), &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT), &mut buffer)?;
//! assert_eq!(&buffer[..got.data_length], b"hello");
//! connection.disconnect()
//! # }
//! ```

pub mod connection;
pub mod descriptor;
pub mod error;
pub mod selection;
pub mod structures;

pub use connection::{AttributeValue, Connection, GetResult, Hobj};
pub use error::{MqError, MqResult};
pub use structures::{Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};

/// The queue manager's identifier (MQCA_Q_MGR_IDENTIFIER, and QMgrId in a client channel's
/// INITIAL_DATA) in MQ's form, the name and a creation time stamp:
/// `QM1_2026-11-21_08.21.29`. The time stamp is derived from the queue manager's 64-bit
/// identity (fixed at creation), so it is stable across restarts and differs between queue
/// managers of the same name.
pub fn queue_manager_identifier(
    queue_manager: &ferrite_storage::queue_manager::QueueManager,
) -> String {
    const SECONDS_PER_DAY: u64 = 86_400;
    // A day number in 2000-2099 and a second of that day, both from the identity.
    let identity = queue_manager.identity();
    let days = (identity >> 20) % 36_524;
    let seconds = (identity >> 4) % SECONDS_PER_DAY;
    let (year, month, day) = civil_from_days(days as i64 + 10_957);
    format!(
        "{}_{year:04}-{month:02}-{day:02}_{:02}.{:02}.{:02}",
        queue_manager.name(),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod identifier_tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_from_days(0), (1970, 1, 1));
        assert_eq!(super::civil_from_days(10_957), (2000, 1, 1));
        assert_eq!(super::civil_from_days(20_778), (2026, 11, 21));
        assert_eq!(super::civil_from_days(11_016), (2000, 2, 29));
    }
}
