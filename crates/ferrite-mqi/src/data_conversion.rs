//! MQGMO_CONVERT on MQGET: the message a get returned, converted to the CodedCharSetId and
//! Encoding the getter's MQMD asked for (`ferrite_message::conversion` does the converting).
//!
//! As MQ does:
//! - The requested values are the MQMD's on input (MQCCSI_Q_MGR: the queue manager's CCSID,
//!   1208). On success the MQMD names them; the data is the converted data.
//! - A message that cannot be converted (CCSID not known: MQRC_SOURCE_CCSID_ERROR or
//!   MQRC_TARGET_CCSID_ERROR; data not valid in its CCSID: MQRC_NOT_CONVERTED; MQFMT_NONE or a
//!   user format: MQRC_FORMAT_ERROR) is still got, unconverted, with MQCC_WARNING and the
//!   reason; the MQMD describes it as it is.
//! - The buffer is checked against the unconverted length first (a message that does not fit
//!   stays on the queue, MQRC_TRUNCATED_MSG_FAILED, as without conversion). A message that fit
//!   but grew past the buffer in conversion is returned unconverted with
//!   MQRC_CONVERTED_MSG_TOO_BIG, or, with MQGMO_ACCEPT_TRUNCATED_MSG, converted and cut to the
//!   buffer with MQRC_TRUNCATED_MSG_ACCEPTED (DataLength: the converted length).
//! - A message already truncated by the get (MQGMO_ACCEPT_TRUNCATED_MSG) is returned as it is:
//!   the part returned may end inside a character.

use ferrite_constants::{
    ccsid::MQCCSI_Q_MGR,
    get_options::MQGMO_ACCEPT_TRUNCATED_MSG,
    reason::{MQRC_CONVERTED_MSG_TOO_BIG, MQRC_TRUNCATED_MSG_ACCEPTED},
};
use ferrite_message::conversion::convert_message;

use crate::connection::get_buffer::GetBuffer;
use crate::descriptor::QUEUE_MANAGER_CCSID;
use crate::error::{MqError, MqResult};
use crate::structures::{Mqgmo, Mqmd};
use ferrite_mqi_types::GetResult;

/// The CCSID and encoding a getter asks for: its MQMD's on input.
#[derive(Clone, Copy, Debug)]
pub struct Requested {
    coded_char_set_id: i32,
    encoding: i32,
}

impl Requested {
    /// What `md` asks for, read before the get overwrites it.
    pub fn from_md(md: &Mqmd) -> Requested {
        Requested {
            coded_char_set_id: if md.coded_char_set_id == MQCCSI_Q_MGR {
                QUEUE_MANAGER_CCSID
            } else {
                md.coded_char_set_id
            },
            encoding: md.encoding,
        }
    }
}

/// Converts what a get returned in `buffer` (described by `md`), per the module documentation.
pub(crate) fn convert_got(
    requested: Requested,
    md: &mut Mqmd,
    gmo: &Mqgmo,
    buffer: &mut GetBuffer<'_>,
    result: MqResult<GetResult>,
) -> MqResult<GetResult> {
    let got = match result {
        Ok(got) if got.returned_length == got.data_length && got.warning.is_none() => got,
        other => return other,
    };
    let converted = match convert_message(
        &md.format,
        md.coded_char_set_id,
        md.encoding,
        buffer.returned(got.returned_length),
        requested.coded_char_set_id,
        requested.encoding,
    ) {
        Ok(converted) => converted,
        Err(error) => {
            return Ok(GetResult {
                warning: Some(MqError::warning(error.reason_code())),
                ..got
            })
        }
    };
    let length = converted.data.len();
    let warning = if length <= buffer.length() {
        None
    } else if gmo.options & MQGMO_ACCEPT_TRUNCATED_MSG != 0 {
        Some(MqError::warning(MQRC_TRUNCATED_MSG_ACCEPTED))
    } else {
        return Ok(GetResult {
            warning: Some(MqError::warning(MQRC_CONVERTED_MSG_TOO_BIG)),
            ..got
        });
    };
    let returned_length = length.min(buffer.length());
    buffer.put(&converted.data[..returned_length]);
    md.coded_char_set_id = converted.coded_char_set_id;
    md.encoding = converted.encoding;
    Ok(GetResult {
        data_length: length,
        returned_length,
        warning,
    })
}
