//! MQRFH2, the rules and formatting header version 2: parse, build, and chains of headers.
//!
//! # Layout (IBM MQ "MQRFH2 - Rules and formatting header 2")
//!
//! ```text
//! off len field            value / meaning
//!   0   4 StrucId          "RFH " (MQRFH_STRUC_ID)
//!   4   4 Version          2 (MQRFH_VERSION_2)
//!   8   4 StrucLength      36 + sum(4 + NameValueLength): the whole header, folders included;
//!                          a multiple of 4; excludes whatever follows the header
//!  12   4 Encoding         numeric encoding of the data that follows this header
//!  16   4 CodedCharSetId   CCSID of the data that follows this header
//!  20   8 Format           format of the data that follows (MQFMT_STRING, MQFMT_RF_HEADER_2 ...)
//!  28   4 Flags            MQRFH_NO_FLAGS (0)
//!  32   4 NameValueCCSID   CCSID of every NameValueData: 1208 (UTF-8), 1200, 13488 or 17584
//!                          (UTF-16 in the byte order of this header's integers)
//!  36   4 NameValueLength  length of the NameValueData that follows, a multiple of 4 ...
//!  40   n NameValueData    ... one folder, blank padded (see crate::folder)
//!         (NameValueLength, NameValueData) repeated until StrucLength
//! ```
//!
//! Integers of the header itself (Version, StrucLength, ..., every NameValueLength) are in the
//! encoding of the structure that precedes it: the MQMD's `Encoding` for the first header,
//! the previous header's `Encoding` for the next. The header's character fields (StrucId,
//! Format) are single-byte ASCII here; EBCDIC headers from z/OS applications are not converted
//! yet and fail with a bad StrucId.
//!
//! Decoding is total: a truncated, inconsistent or hostile header gives an [`Rfh2Error`] with
//! MQ's reason code (`MQRC_RFH_ERROR` 2334 for the header, `MQRC_RFH_FORMAT_ERROR` 2421 for the
//! folder contents), never a panic. Limits: [`RFH2_CHAIN_LENGTH_MAX`] headers in a chain,
//! [`RFH2_FOLDERS_MAX`] folders in a header.

use std::fmt;

use ferrite_constants::{
    ccsid::MQCCSI_INHERIT,
    format::MQFMT_RF_HEADER_2,
    misc::MQRFH_NO_FLAGS,
    reason::{MQRC_RFH_ERROR, MQRC_RFH_FORMAT_ERROR},
    structs::{MQRFH2_STRUC_ID, MQRFH_STRUC_LENGTH_FIXED_2, MQRFH_VERSION_2},
};
use ferrite_protocol::ByteOrder;

use crate::codec::{byte_order_of, put_i32, read_array, read_i32};
use crate::folder::{Folder, FolderError};

/// Length of the fixed part (StrucId ... NameValueCCSID): 36 bytes.
pub const RFH2_FIXED_LENGTH: usize = MQRFH_STRUC_LENGTH_FIXED_2 as usize;

/// Most MQRFH2 headers accepted in one chain (each header's Format naming the next).
pub const RFH2_CHAIN_LENGTH_MAX: usize = 16;

/// Most folders (NameValueLength/NameValueData pairs) accepted in one header.
pub const RFH2_FOLDERS_MAX: usize = 1024;

/// NameValueCCSID: UTF-8.
pub const NAME_VALUE_CCSID_UTF8: i32 = 1208;
/// NameValueCCSID values for UTF-16 (the latest Unicode, the 2.0 subset, the 3.0 subset).
pub const NAME_VALUE_CCSIDS_UTF16: [i32; 3] = [1200, 13488, 17584];

/// One MQRFH2 header. Folders are kept as their raw `NameValueData` bytes (padding included),
/// so that parse followed by build is byte-identical; [`Rfh2::folders`] decodes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfh2 {
    /// Encoding of the data that follows this header.
    pub encoding: i32,
    /// CodedCharSetId of the data that follows this header.
    pub coded_char_set_id: i32,
    /// Format of the data that follows this header.
    pub format: [u8; 8],
    /// Flags (MQRFH_NO_FLAGS).
    pub flags: i32,
    /// CCSID of the NameValueData fields.
    pub name_value_ccsid: i32,
    /// Each folder's NameValueData, as it travels (padded to a multiple of 4).
    pub name_value_data: Vec<Vec<u8>>,
}

impl Rfh2 {
    /// A header with no folders in front of data of `format`, `encoding` and `ccsid`, with
    /// UTF-8 folders.
    pub fn new(encoding: i32, coded_char_set_id: i32, format: [u8; 8]) -> Rfh2 {
        Rfh2 {
            encoding,
            coded_char_set_id,
            format,
            flags: MQRFH_NO_FLAGS,
            name_value_ccsid: NAME_VALUE_CCSID_UTF8,
            name_value_data: Vec::new(),
        }
    }

    /// Appends `folder`, written as MQ writes it and blank padded to a multiple of 4, in this
    /// header's NameValueCCSID (`order` decides the byte order of UTF-16).
    pub fn push_folder(&mut self, folder: &Folder, order: ByteOrder) -> Result<(), Rfh2Error> {
        let text = folder.to_xml();
        let mut data = encode_text(&text, self.name_value_ccsid, order)?;
        let blank = encode_text(" ", self.name_value_ccsid, order)?;
        while data.len() % 4 != 0 {
            // A blank in the folder's own CCSID (a UTF-16 blank is two bytes).
            data.extend_from_slice(&blank);
        }
        self.name_value_data.push(data);
        Ok(())
    }

    /// Decodes every folder (in `order` for UTF-16 NameValueCCSIDs).
    pub fn folders(&self, order: ByteOrder) -> Result<Vec<Folder>, Rfh2Error> {
        self.name_value_data
            .iter()
            .enumerate()
            .map(|(index, data)| {
                let text = decode_text(data, self.name_value_ccsid, order, index)?;
                Folder::parse(&text).map_err(|error| Rfh2Error::Folder { index, error })
            })
            .collect()
    }

    /// StrucLength of this header once built.
    pub fn struc_length(&self) -> usize {
        RFH2_FIXED_LENGTH
            + self
                .name_value_data
                .iter()
                .map(|d| 4 + d.len())
                .sum::<usize>()
    }

    /// Decodes one header at the start of `data`, whose integers are in `order` (the preceding
    /// structure's encoding). Returns the header and its StrucLength.
    pub fn parse(data: &[u8], order: ByteOrder) -> Result<(Rfh2, usize), Rfh2Error> {
        let truncated = |offset: usize, needed: usize| Rfh2Error::Truncated {
            offset,
            needed,
            available: data.len().saturating_sub(offset),
        };
        if data.len() < RFH2_FIXED_LENGTH {
            return Err(truncated(0, RFH2_FIXED_LENGTH));
        }
        let struc_id: [u8; 4] = read_array(data, 0).ok_or(truncated(0, 4))?;
        if struc_id != MQRFH2_STRUC_ID {
            return Err(Rfh2Error::BadStrucId { found: struc_id });
        }
        let int = |offset: usize| read_i32(data, offset, order).ok_or(truncated(offset, 4));
        let version = int(4)?;
        if version != MQRFH_VERSION_2 {
            return Err(Rfh2Error::UnsupportedVersion { version });
        }
        let struc_length = int(8)?;
        let length = usize::try_from(struc_length)
            .ok()
            .filter(|l| *l >= RFH2_FIXED_LENGTH && l % 4 == 0)
            .ok_or(Rfh2Error::BadStrucLength {
                value: struc_length,
                available: data.len(),
            })?;
        if length > data.len() {
            return Err(Rfh2Error::BadStrucLength {
                value: struc_length,
                available: data.len(),
            });
        }
        let mut header = Rfh2 {
            encoding: int(12)?,
            coded_char_set_id: int(16)?,
            format: read_array(data, 20).ok_or(truncated(20, 8))?,
            flags: int(28)?,
            name_value_ccsid: int(32)?,
            name_value_data: Vec::new(),
        };
        check_name_value_ccsid(header.name_value_ccsid)?;
        let mut offset = RFH2_FIXED_LENGTH;
        while offset < length {
            if header.name_value_data.len() == RFH2_FOLDERS_MAX {
                return Err(Rfh2Error::TooManyFolders);
            }
            let value = int(offset)?;
            let remaining = length - offset - 4;
            let folder_length = usize::try_from(value)
                .ok()
                .filter(|l| *l <= remaining && l % 4 == 0)
                .ok_or(Rfh2Error::BadNameValueLength {
                    offset,
                    value,
                    remaining,
                })?;
            offset += 4;
            header
                .name_value_data
                .push(data[offset..offset + folder_length].to_vec());
            offset += folder_length;
        }
        debug_assert_eq!(header.struc_length(), length);
        Ok((header, length))
    }

    /// Encodes the header with its integers in `order`.
    pub fn build(&self, order: ByteOrder) -> Result<Vec<u8>, Rfh2Error> {
        check_name_value_ccsid(self.name_value_ccsid)?;
        let length = self.struc_length();
        let struc_length = i32::try_from(length).map_err(|_| Rfh2Error::BadStrucLength {
            value: i32::MAX,
            available: length,
        })?;
        let mut out = Vec::with_capacity(length);
        out.extend_from_slice(&MQRFH2_STRUC_ID);
        put_i32(&mut out, MQRFH_VERSION_2, order);
        put_i32(&mut out, struc_length, order);
        put_i32(&mut out, self.encoding, order);
        put_i32(&mut out, self.coded_char_set_id, order);
        out.extend_from_slice(&self.format);
        put_i32(&mut out, self.flags, order);
        put_i32(&mut out, self.name_value_ccsid, order);
        for data in &self.name_value_data {
            if !data.len().is_multiple_of(4) {
                return Err(Rfh2Error::BadNameValueLength {
                    offset: out.len(),
                    value: i32::try_from(data.len()).unwrap_or(i32::MAX),
                    remaining: length - out.len() - 4,
                });
            }
            put_i32(&mut out, data.len() as i32, order);
            out.extend_from_slice(data);
        }
        assert_eq!(
            out.len(),
            length,
            "StrucLength must describe what was built"
        );
        Ok(out)
    }
}

fn check_name_value_ccsid(ccsid: i32) -> Result<(), Rfh2Error> {
    if ccsid == NAME_VALUE_CCSID_UTF8 || NAME_VALUE_CCSIDS_UTF16.contains(&ccsid) {
        Ok(())
    } else {
        Err(Rfh2Error::UnsupportedNameValueCcsid { ccsid })
    }
}

fn encode_text(text: &str, ccsid: i32, order: ByteOrder) -> Result<Vec<u8>, Rfh2Error> {
    check_name_value_ccsid(ccsid)?;
    if ccsid == NAME_VALUE_CCSID_UTF8 {
        return Ok(text.as_bytes().to_vec());
    }
    Ok(text
        .encode_utf16()
        .flat_map(|unit| match order {
            ByteOrder::Big => unit.to_be_bytes(),
            ByteOrder::Little => unit.to_le_bytes(),
        })
        .collect())
}

fn decode_text(
    data: &[u8],
    ccsid: i32,
    order: ByteOrder,
    index: usize,
) -> Result<String, Rfh2Error> {
    check_name_value_ccsid(ccsid)?;
    let bad = |offset| Rfh2Error::Folder {
        index,
        error: FolderError {
            offset,
            problem: "NameValueData is not valid in its NameValueCCSID",
        },
    };
    if ccsid == NAME_VALUE_CCSID_UTF8 {
        return String::from_utf8(data.to_vec()).map_err(|e| bad(e.utf8_error().valid_up_to()));
    }
    let units = data.chunks_exact(2).map(|pair| match order {
        ByteOrder::Big => u16::from_be_bytes([pair[0], pair[1]]),
        ByteOrder::Little => u16::from_le_bytes([pair[0], pair[1]]),
    });
    let mut text = String::with_capacity(data.len() / 2);
    for (position, c) in char::decode_utf16(units).enumerate() {
        text.push(c.map_err(|_| bad(position * 2))?);
    }
    Ok(text)
}

/// A message body after its chain of MQRFH2 headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfh2Chain {
    /// The headers in order, each with the byte order its integers were in.
    pub headers: Vec<(Rfh2, ByteOrder)>,
    /// Offset of the data after the last header.
    pub body_offset: usize,
    /// Encoding, CCSID and Format of that data (from the last header, or the caller's if none).
    pub body_encoding: i32,
    /// CodedCharSetId of the body.
    pub body_coded_char_set_id: i32,
    /// Format of the body.
    pub body_format: [u8; 8],
}

/// Parses the MQRFH2 headers at the start of `data` while the format says one follows
/// (`format` is MQMD.Format, `encoding` and `coded_char_set_id` MQMD's). A header whose
/// CodedCharSetId is MQCCSI_INHERIT passes the preceding CCSID on to the data after it.
pub fn parse_chain(
    data: &[u8],
    encoding: i32,
    coded_char_set_id: i32,
    format: [u8; 8],
) -> Result<Rfh2Chain, Rfh2Error> {
    let mut chain = Rfh2Chain {
        headers: Vec::new(),
        body_offset: 0,
        body_encoding: encoding,
        body_coded_char_set_id: coded_char_set_id,
        body_format: format,
    };
    while chain.body_format == MQFMT_RF_HEADER_2 {
        if chain.headers.len() == RFH2_CHAIN_LENGTH_MAX {
            return Err(Rfh2Error::ChainTooLong);
        }
        let order = byte_order_of(chain.body_encoding).ok_or(Rfh2Error::UnknownEncoding {
            encoding: chain.body_encoding,
        })?;
        let (header, length) =
            Rfh2::parse(&data[chain.body_offset..], order).map_err(|e| Rfh2Error::InChain {
                header: chain.headers.len(),
                offset: chain.body_offset,
                error: Box::new(e),
            })?;
        chain.body_offset += length;
        chain.body_encoding = header.encoding;
        if header.coded_char_set_id != MQCCSI_INHERIT {
            chain.body_coded_char_set_id = header.coded_char_set_id;
        }
        chain.body_format = header.format;
        chain.headers.push((header, order));
    }
    Ok(chain)
}

/// What is wrong with an MQRFH2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rfh2Error {
    /// Fewer bytes than the header needs.
    Truncated {
        /// Offset in the header where bytes ran out.
        offset: usize,
        /// Bytes needed there.
        needed: usize,
        /// Bytes available there.
        available: usize,
    },
    /// StrucId is not "RFH ".
    BadStrucId {
        /// The four bytes found.
        found: [u8; 4],
    },
    /// Version is not 2 (version 1, MQRFH, is a different structure).
    UnsupportedVersion {
        /// Version found.
        version: i32,
    },
    /// StrucLength is below 36, not a multiple of 4, or beyond the data.
    BadStrucLength {
        /// StrucLength found.
        value: i32,
        /// Bytes available.
        available: usize,
    },
    /// A NameValueLength is negative, not a multiple of 4, or runs past StrucLength.
    BadNameValueLength {
        /// Offset of the NameValueLength.
        offset: usize,
        /// Value found.
        value: i32,
        /// Bytes left in the header after it.
        remaining: usize,
    },
    /// NameValueCCSID is not 1208, 1200, 13488 or 17584.
    UnsupportedNameValueCcsid {
        /// CCSID found.
        ccsid: i32,
    },
    /// The encoding before a header does not say which byte order its integers use.
    UnknownEncoding {
        /// Encoding found.
        encoding: i32,
    },
    /// More than RFH2_FOLDERS_MAX folders.
    TooManyFolders,
    /// More than RFH2_CHAIN_LENGTH_MAX headers chained.
    ChainTooLong,
    /// A folder's content is malformed.
    Folder {
        /// Index of the folder in its header.
        index: usize,
        /// What is wrong.
        error: FolderError,
    },
    /// An error in the `header`-th header of a chain, which starts at `offset`.
    InChain {
        /// Index of the header in the chain.
        header: usize,
        /// Offset of that header in the message data.
        offset: usize,
        /// The error.
        error: Box<Rfh2Error>,
    },
}

impl Rfh2Error {
    /// MQ's reason code: `MQRC_RFH_FORMAT_ERROR` (2421) for folder contents,
    /// `MQRC_RFH_ERROR` (2334) for the rest of the header.
    pub fn reason_code(&self) -> i32 {
        match self {
            Rfh2Error::Folder { .. } => MQRC_RFH_FORMAT_ERROR,
            Rfh2Error::InChain { error, .. } => error.reason_code(),
            _ => MQRC_RFH_ERROR,
        }
    }
}

impl fmt::Display for Rfh2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rfh2Error::Truncated {
                offset,
                needed,
                available,
            } => write!(
                f,
                "MQRFH2 truncated at offset {offset}: {needed} bytes needed, {available} present"
            ),
            Rfh2Error::BadStrucId { found } => write!(
                f,
                "MQRFH2 StrucId is {:?}, expected \"RFH \" (is the preceding Format right?)",
                String::from_utf8_lossy(found)
            ),
            Rfh2Error::UnsupportedVersion { version } => {
                write!(f, "MQRFH2 Version is {version}, expected 2")
            }
            Rfh2Error::BadStrucLength { value, available } => write!(
                f,
                "MQRFH2 StrucLength {value} must be at least 36, a multiple of 4 and within the \
                 {available} bytes of data"
            ),
            Rfh2Error::BadNameValueLength {
                offset,
                value,
                remaining,
            } => write!(
                f,
                "MQRFH2 NameValueLength {value} at offset {offset} must be a multiple of 4 and \
                 at most the {remaining} bytes left before StrucLength"
            ),
            Rfh2Error::UnsupportedNameValueCcsid { ccsid } => write!(
                f,
                "MQRFH2 NameValueCCSID {ccsid} is not 1208, 1200, 13488 or 17584"
            ),
            Rfh2Error::UnknownEncoding { encoding } => write!(
                f,
                "encoding {encoding:#x} before an MQRFH2 names no integer byte order"
            ),
            Rfh2Error::TooManyFolders => {
                write!(f, "MQRFH2 holds more than {RFH2_FOLDERS_MAX} folders")
            }
            Rfh2Error::ChainTooLong => write!(
                f,
                "more than {RFH2_CHAIN_LENGTH_MAX} MQRFH2 headers chained in one message"
            ),
            Rfh2Error::Folder { index, error } => write!(f, "folder {index}: {error}"),
            Rfh2Error::InChain {
                header,
                offset,
                error,
            } => write!(f, "MQRFH2 number {header} (at offset {offset}): {error}"),
        }?;
        write!(
            f,
            " ({})",
            ferrite_constants::reason_name(self.reason_code()).unwrap_or("?")
        )
    }
}

impl std::error::Error for Rfh2Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::{encoding::*, format::MQFMT_STRING};

    fn usr_colour() -> Folder {
        Folder::parse("<usr><COLOUR>BLUE</COLOUR></usr>").unwrap()
    }

    #[test]
    fn build_then_parse_in_both_byte_orders() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let mut header = Rfh2::new(MQENC_NATIVE, 1208, MQFMT_STRING);
            header.push_folder(&usr_colour(), order).unwrap();
            let bytes = header.build(order).unwrap();
            assert_eq!(bytes.len(), 72, "36 + 4 + 32 (the V7.0 report's example)");
            let (parsed, length) = Rfh2::parse(&bytes, order).unwrap();
            assert_eq!(length, 72);
            assert_eq!(parsed, header);
            assert_eq!(parsed.folders(order).unwrap(), vec![usr_colour()]);
        }
    }

    #[test]
    fn folders_are_padded_with_blanks() {
        let mut header = Rfh2::new(MQENC_NATIVE, 1208, MQFMT_STRING);
        let folder = Folder::parse("<usr><a>x</a></usr>").unwrap();
        header.push_folder(&folder, ByteOrder::Little).unwrap();
        assert_eq!(header.name_value_data[0], b"<usr><a>x</a></usr> ".to_vec());
        assert_eq!(header.folders(ByteOrder::Little).unwrap(), vec![folder]);
    }

    #[test]
    fn utf16_folders_follow_the_header_byte_order() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let mut header = Rfh2::new(MQENC_NATIVE, 1208, MQFMT_STRING);
            header.name_value_ccsid = 1200;
            let folder = Folder::parse("<usr><a>x€</a></usr>").unwrap();
            header.push_folder(&folder, order).unwrap();
            assert_eq!(header.name_value_data[0].len() % 4, 0);
            let bytes = header.build(order).unwrap();
            let (parsed, _) = Rfh2::parse(&bytes, order).unwrap();
            assert_eq!(parsed.folders(order).unwrap(), vec![folder]);
        }
    }

    #[test]
    fn chain_of_two_headers_then_body() {
        let order = ByteOrder::Big;
        let mut second = Rfh2::new(MQENC_REVERSED, 819, MQFMT_STRING);
        second
            .push_folder(&usr_colour(), ByteOrder::Little)
            .unwrap();
        let first = Rfh2::new(MQENC_REVERSED, 1208, MQFMT_RF_HEADER_2);
        let mut data = first.build(order).unwrap();
        data.extend(second.build(ByteOrder::Little).unwrap());
        data.extend_from_slice(b"hello");
        let chain = parse_chain(&data, MQENC_NORMAL, 1208, MQFMT_RF_HEADER_2).unwrap();
        assert_eq!(chain.headers.len(), 2);
        assert_eq!(chain.headers[1].1, ByteOrder::Little);
        assert_eq!(&data[chain.body_offset..], b"hello");
        assert_eq!(chain.body_format, MQFMT_STRING);
        assert_eq!(chain.body_coded_char_set_id, 819);
        assert_eq!(chain.body_encoding, MQENC_REVERSED);
    }

    #[test]
    fn malformed_headers_give_rfh_error() {
        let mut header = Rfh2::new(MQENC_NATIVE, 1208, MQFMT_STRING);
        header
            .push_folder(&usr_colour(), ByteOrder::Little)
            .unwrap();
        let good = header.build(ByteOrder::Little).unwrap();
        type Expectation = fn(&Rfh2Error) -> bool;
        let cases: Vec<(Vec<u8>, Expectation)> = vec![
            (good[..35].to_vec(), |e| {
                matches!(e, Rfh2Error::Truncated { .. })
            }),
            ([b"RFX ".as_slice(), &good[4..]].concat(), |e| {
                matches!(e, Rfh2Error::BadStrucId { .. })
            }),
            (
                {
                    let mut b = good.clone();
                    b[4] = 1;
                    b
                },
                |e| matches!(e, Rfh2Error::UnsupportedVersion { version: 1 }),
            ),
            (
                {
                    let mut b = good.clone();
                    b[8] = 74;
                    b
                },
                |e| matches!(e, Rfh2Error::BadStrucLength { value: 74, .. }),
            ),
            (good[..68].to_vec(), |e| {
                matches!(e, Rfh2Error::BadStrucLength { value: 72, .. })
            }),
            (
                {
                    let mut b = good.clone();
                    b[36] = 36;
                    b
                },
                |e| matches!(e, Rfh2Error::BadNameValueLength { value: 36, .. }),
            ),
            (
                {
                    let mut b = good.clone();
                    b[36..40].copy_from_slice(&(-4i32).to_le_bytes());
                    b
                },
                |e| matches!(e, Rfh2Error::BadNameValueLength { value: -4, .. }),
            ),
            (
                {
                    let mut b = good.clone();
                    b[32..36].copy_from_slice(&819i32.to_le_bytes());
                    b
                },
                |e| matches!(e, Rfh2Error::UnsupportedNameValueCcsid { ccsid: 819 }),
            ),
        ];
        for (bytes, expected) in cases {
            let error = Rfh2::parse(&bytes, ByteOrder::Little).unwrap_err();
            assert!(expected(&error), "{error}");
            assert_eq!(error.reason_code(), 2334);
            assert!(error.to_string().contains("MQRC_RFH_ERROR"), "{error}");
        }
        let mut bad_folder = good.clone();
        bad_folder[41] = b'!';
        let (parsed, _) = Rfh2::parse(&bad_folder, ByteOrder::Little).unwrap();
        let error = parsed.folders(ByteOrder::Little).unwrap_err();
        assert_eq!(error.reason_code(), 2421);
    }

    #[test]
    fn build_refuses_unpadded_folders() {
        let mut header = Rfh2::new(MQENC_NATIVE, 1208, MQFMT_STRING);
        header.name_value_data.push(b"<usr></usr>".to_vec());
        let error = header.build(ByteOrder::Big).unwrap_err();
        assert!(
            matches!(
                error,
                Rfh2Error::BadNameValueLength {
                    offset: 36,
                    value: 11,
                    ..
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn chain_errors_say_which_header() {
        let data = Rfh2::new(MQENC_NATIVE, 1208, MQFMT_RF_HEADER_2)
            .build(ByteOrder::Little)
            .unwrap();
        let error = parse_chain(&data, MQENC_NATIVE, 1208, MQFMT_RF_HEADER_2).unwrap_err();
        assert!(
            matches!(
                &error,
                Rfh2Error::InChain {
                    header: 1,
                    offset: 36,
                    ..
                }
            ),
            "{error}"
        );
        let error = parse_chain(&data, 0, 1208, MQFMT_RF_HEADER_2).unwrap_err();
        assert!(matches!(error, Rfh2Error::UnknownEncoding { encoding: 0 }));
        let mut looping = Vec::new();
        for _ in 0..=RFH2_CHAIN_LENGTH_MAX {
            looping.extend(&data);
        }
        let error = parse_chain(&looping, MQENC_NATIVE, 1208, MQFMT_RF_HEADER_2).unwrap_err();
        assert_eq!(error, Rfh2Error::ChainTooLong);
    }
}
