//! The Programmable Command Format (PCF) codec: a command or response message is an MQCFH
//! followed by `ParameterCount` parameter structures, every integer in the byte order of the
//! message's MQMD Encoding (MQENC_INTEGER_NORMAL = big-endian, MQENC_INTEGER_REVERSED =
//! little-endian). Decoding checks every length and count against the bytes present and
//! answers a structure that is not valid with the MQRCCF_* reason MQ gives for it, so hostile
//! input becomes an error response, never a panic.
//!
//! ## Structures (all fields MQLONG = 4 bytes unless said otherwise)
//!
//! | structure | Type | fields after Type, StrucLength                                       |
//! |-----------|------|-----------------------------------------------------------------------|
//! | MQCFH     | 1,2,16..19 | Version, Command, MsgSeqNumber, Control, CompCode, Reason, ParameterCount (StrucLength 36) |
//! | MQCFIN    | 3    | Parameter, Value (StrucLength 16)                                     |
//! | MQCFST    | 4    | Parameter, CodedCharSetId, StringLength, String (20 + string, padded to 4) |
//! | MQCFIL    | 5    | Parameter, Count, Values (16 + 4 × Count)                             |
//! | MQCFSL    | 6    | Parameter, CodedCharSetId, Count, StringLength, Strings (24 + Count × StringLength, padded to 4) |
//! | MQCFBS    | 9    | Parameter, StringLength, String (16 + string, padded to 4)            |
//! | MQCFIF    | 13   | Parameter, Operator, FilterValue (StrucLength 20)                     |
//! | MQCFSF    | 14   | Parameter, Operator, CodedCharSetId, FilterValueLength, FilterValue (24 + value, padded to 4) |
//! | MQCFBF    | 15   | Parameter, Operator, FilterValueLength, FilterValue (20 + value, padded to 4) |
//! | MQCFGR    | 20   | Parameter, ParameterCount (StrucLength 16; the group's parameters follow) |
//! | MQCFIN64  | 23   | Parameter, Reserved, Value (MQINT64; StrucLength 24)                  |
//! | MQCFIL64  | 25   | Parameter, Count, Values (MQINT64 each; 16 + 8 × Count)               |
//!
//! Strings are read as UTF-8 (CCSID 1208, 819 and the ASCII code pages agree on what MQ names
//! may contain), trailing blanks and NULs removed; they are written in CCSID 1208, padded with
//! NULs to a multiple of 4 bytes. The strings of an MQCFSL all have its StringLength: shorter
//! ones are padded with blanks.

use ferrite_constants::{encoding::MQENC_INTEGER_REVERSED, pcf::*, pcf_reason::*};

/// The CCSID of the strings this codec writes.
pub const PCF_CCSID: i32 = 1208;

/// Parameters in one PCF message (groups included), at most: far more than any command has,
/// small enough that a hostile count cannot make the decoder allocate much.
pub const PARAMETERS_MAX: usize = 4_096;

/// Values in one MQCFIL or strings in one MQCFSL, at most.
pub const LIST_VALUES_MAX: usize = 65_536;

/// Bytes of one string of an MQCFSL, at most.
pub const STRING_LENGTH_MAX: i32 = 65_536;

/// Nesting of MQCFGR groups, at most.
pub const GROUP_DEPTH_MAX: usize = 4;

/// The byte order of a PCF message's integers, from its MQMD Encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByteOrder {
    /// MQENC_INTEGER_NORMAL: big-endian.
    Normal,
    /// MQENC_INTEGER_REVERSED: little-endian.
    Reversed,
}

impl ByteOrder {
    /// The byte order an MQMD Encoding names.
    pub fn of_encoding(encoding: i32) -> ByteOrder {
        if encoding & MQENC_INTEGER_REVERSED != 0 {
            ByteOrder::Reversed
        } else {
            ByteOrder::Normal
        }
    }

    fn read(self, bytes: [u8; 4]) -> i32 {
        match self {
            ByteOrder::Normal => i32::from_be_bytes(bytes),
            ByteOrder::Reversed => i32::from_le_bytes(bytes),
        }
    }

    fn read64(self, bytes: [u8; 8]) -> i64 {
        match self {
            ByteOrder::Normal => i64::from_be_bytes(bytes),
            ByteOrder::Reversed => i64::from_le_bytes(bytes),
        }
    }

    fn write(self, value: i32, out: &mut Vec<u8>) {
        match self {
            ByteOrder::Normal => out.extend_from_slice(&value.to_be_bytes()),
            ByteOrder::Reversed => out.extend_from_slice(&value.to_le_bytes()),
        }
    }

    fn write64(self, value: i64, out: &mut Vec<u8>) {
        match self {
            ByteOrder::Normal => out.extend_from_slice(&value.to_be_bytes()),
            ByteOrder::Reversed => out.extend_from_slice(&value.to_le_bytes()),
        }
    }
}

/// MQCFH.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcfHeader {
    /// Type: MQCFT_COMMAND, MQCFT_COMMAND_XR, MQCFT_RESPONSE, MQCFT_XR_*, MQCFT_EVENT.
    pub kind: i32,
    pub version: i32,
    /// Command: MQCMD_*.
    pub command: i32,
    pub msg_seq_number: i32,
    /// Control: MQCFC_LAST or MQCFC_NOT_LAST.
    pub control: i32,
    pub comp_code: i32,
    pub reason: i32,
    /// ParameterCount (set by [`encode`] from the parameters).
    pub parameter_count: i32,
}

/// One parameter structure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parameter {
    /// MQCFIN.
    Integer { parameter: i32, value: i32 },
    /// MQCFIN64.
    Integer64 { parameter: i32, value: i64 },
    /// MQCFST.
    String { parameter: i32, value: String },
    /// MQCFIL.
    IntegerList { parameter: i32, values: Vec<i32> },
    /// MQCFIL64.
    Integer64List { parameter: i32, values: Vec<i64> },
    /// MQCFSL.
    StringList { parameter: i32, values: Vec<String> },
    /// MQCFBS.
    ByteString { parameter: i32, value: Vec<u8> },
    /// MQCFIF.
    IntegerFilter {
        parameter: i32,
        operator: i32,
        value: i32,
    },
    /// MQCFSF.
    StringFilter {
        parameter: i32,
        operator: i32,
        value: String,
    },
    /// MQCFBF.
    ByteStringFilter {
        parameter: i32,
        operator: i32,
        value: Vec<u8>,
    },
    /// MQCFGR and the parameters it groups.
    Group {
        parameter: i32,
        parameters: Vec<Parameter>,
    },
}

impl Parameter {
    /// The parameter identifier (MQIA_*, MQCA_*, MQIACF_*, ...).
    pub fn id(&self) -> i32 {
        match self {
            Parameter::Integer { parameter, .. }
            | Parameter::Integer64 { parameter, .. }
            | Parameter::String { parameter, .. }
            | Parameter::IntegerList { parameter, .. }
            | Parameter::Integer64List { parameter, .. }
            | Parameter::StringList { parameter, .. }
            | Parameter::ByteString { parameter, .. }
            | Parameter::IntegerFilter { parameter, .. }
            | Parameter::StringFilter { parameter, .. }
            | Parameter::ByteStringFilter { parameter, .. }
            | Parameter::Group { parameter, .. } => *parameter,
        }
    }

    /// The structure type (MQCFT_*).
    pub fn kind(&self) -> i32 {
        match self {
            Parameter::Integer { .. } => MQCFT_INTEGER,
            Parameter::Integer64 { .. } => MQCFT_INTEGER64,
            Parameter::String { .. } => MQCFT_STRING,
            Parameter::IntegerList { .. } => MQCFT_INTEGER_LIST,
            Parameter::Integer64List { .. } => MQCFT_INTEGER64_LIST,
            Parameter::StringList { .. } => MQCFT_STRING_LIST,
            Parameter::ByteString { .. } => MQCFT_BYTE_STRING,
            Parameter::IntegerFilter { .. } => MQCFT_INTEGER_FILTER,
            Parameter::StringFilter { .. } => MQCFT_STRING_FILTER,
            Parameter::ByteStringFilter { .. } => MQCFT_BYTE_STRING_FILTER,
            Parameter::Group { .. } => MQCFT_GROUP,
        }
    }

    pub fn integer(parameter: i32, value: i32) -> Parameter {
        Parameter::Integer { parameter, value }
    }

    pub fn string(parameter: i32, value: impl Into<String>) -> Parameter {
        Parameter::String {
            parameter,
            value: value.into(),
        }
    }
}

/// A PCF message: the header and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcfMessage {
    pub header: PcfHeader,
    pub parameters: Vec<Parameter>,
}

/// Why a message is not a valid PCF command: the MQRCCF_* reason and, as far as it could be
/// read, the header (its Command and Type are echoed in the error response).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub reason: i32,
    /// The parameter whose structure is wrong, when the error is in one.
    pub parameter: Option<i32>,
    /// Type, Version and Command of the header, 0 where absent.
    pub kind: i32,
    pub version: i32,
    pub command: i32,
}

struct Reader<'a> {
    data: &'a [u8],
    offset: usize,
    order: ByteOrder,
}

impl Reader<'_> {
    fn remaining(&self) -> usize {
        self.data.len() - self.offset
    }

    /// The MQLONG at `index` (in MQLONGs) after the current offset, if present.
    fn peek(&self, index: usize) -> Option<i32> {
        let start = self.offset.checked_add(index.checked_mul(4)?)?;
        let bytes = self.data.get(start..start.checked_add(4)?)?;
        Some(self.order.read(bytes.try_into().expect("four bytes")))
    }
}

/// Decode a PCF command message (MQCFT_COMMAND or MQCFT_COMMAND_XR) whose integers are in
/// `order`.
pub fn decode(data: &[u8], order: ByteOrder) -> Result<PcfMessage, DecodeError> {
    decode_kinds(data, order, &[MQCFT_COMMAND, MQCFT_COMMAND_XR])
}

/// Decode a PCF response message (MQCFT_RESPONSE or MQCFT_XR_*), as an administration
/// program reads the command server's replies.
pub fn decode_response(data: &[u8], order: ByteOrder) -> Result<PcfMessage, DecodeError> {
    decode_kinds(
        data,
        order,
        &[
            MQCFT_RESPONSE,
            MQCFT_XR_MSG,
            MQCFT_XR_ITEM,
            MQCFT_XR_SUMMARY,
        ],
    )
}

/// Decode a PCF event message (MQCFT_EVENT), as a monitoring program reads the event queues.
pub fn decode_event(data: &[u8], order: ByteOrder) -> Result<PcfMessage, DecodeError> {
    decode_kinds(data, order, &[MQCFT_EVENT])
}

/// Decode a statistics or accounting message (MQCFT_STATISTICS, MQCFT_ACCOUNTING), as a
/// monitoring program (amqsmon) reads SYSTEM.ADMIN.STATISTICS.QUEUE and
/// SYSTEM.ADMIN.ACCOUNTING.QUEUE.
pub fn decode_statistics(data: &[u8], order: ByteOrder) -> Result<PcfMessage, DecodeError> {
    decode_kinds(data, order, &[MQCFT_STATISTICS, MQCFT_ACCOUNTING])
}

fn decode_kinds(data: &[u8], order: ByteOrder, kinds: &[i32]) -> Result<PcfMessage, DecodeError> {
    let mut reader = Reader {
        data,
        offset: 0,
        order,
    };
    let field = |index| reader.peek(index).unwrap_or(0);
    let (kind, length, version, command) = (field(0), field(1), field(2), field(3));
    let error = |reason: i32| DecodeError {
        reason,
        parameter: None,
        kind,
        version,
        command,
    };
    if !kinds.contains(&kind) {
        return Err(error(MQRCCF_CFH_TYPE_ERROR));
    }
    if data.len() < MQCFH_STRUC_LENGTH as usize {
        return Err(error(MQRCCF_MSG_LENGTH_ERROR));
    }
    if length != MQCFH_STRUC_LENGTH {
        return Err(error(MQRCCF_CFH_LENGTH_ERROR));
    }
    if !(MQCFH_VERSION_1..=MQCFH_VERSION_3).contains(&version) {
        return Err(error(MQRCCF_CFH_VERSION_ERROR));
    }
    let header = PcfHeader {
        kind,
        version,
        command,
        msg_seq_number: field(4),
        control: field(5),
        comp_code: field(6),
        reason: field(7),
        parameter_count: field(8),
    };
    if header.msg_seq_number < 1 {
        return Err(error(MQRCCF_CFH_MSG_SEQ_NUMBER_ERR));
    }
    if !matches!(header.control, MQCFC_LAST | MQCFC_NOT_LAST) {
        return Err(error(MQRCCF_CFH_CONTROL_ERROR));
    }
    if header.parameter_count < 0 || header.parameter_count as usize > PARAMETERS_MAX {
        return Err(error(MQRCCF_CFH_PARM_COUNT_ERROR));
    }
    reader.offset = MQCFH_STRUC_LENGTH as usize;
    let mut budget = PARAMETERS_MAX;
    let parameters = read_parameters(&mut reader, header.parameter_count as usize, 0, &mut budget)
        .map_err(|(reason, parameter)| DecodeError {
            parameter,
            ..error(reason)
        })?;
    if reader.remaining() != 0 {
        return Err(error(MQRCCF_MSG_LENGTH_ERROR));
    }
    Ok(PcfMessage { header, parameters })
}

type ParameterError = (i32, Option<i32>);

fn read_parameters(
    reader: &mut Reader,
    count: usize,
    depth: usize,
    budget: &mut usize,
) -> Result<Vec<Parameter>, ParameterError> {
    let mut parameters = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        if *budget == 0 {
            return Err((MQRCCF_CFH_PARM_COUNT_ERROR, None));
        }
        *budget -= 1;
        parameters.push(read_parameter(reader, depth, budget)?);
    }
    Ok(parameters)
}

/// Bytes of a string field of `length` padded to a multiple of 4.
fn padded(length: usize) -> usize {
    length.div_ceil(4) * 4
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .trim_end_matches([' ', '\0'])
        .to_string()
}

/// One parameter structure whose StrucLength was checked: its bytes, and the identifier and
/// length error its faults name.
struct Structure<'a> {
    kind: i32,
    parameter: i32,
    bytes: &'a [u8],
    order: ByteOrder,
    /// The MQRCCF_*_LENGTH_ERROR of the structure's type.
    length_error: i32,
}

impl Structure<'_> {
    /// The MQLONG at `index` (in MQLONGs), within the checked StrucLength.
    fn int(&self, index: usize) -> i32 {
        let bytes = &self.bytes[index * 4..index * 4 + 4];
        self.order.read(bytes.try_into().expect("four bytes"))
    }

    /// The structure's fault `reason`, naming its parameter.
    fn error(&self, reason: i32) -> ParameterError {
        (reason, Some(self.parameter))
    }

    /// StrucLength is exactly `expected` bytes.
    fn exact(&self, expected: usize) -> Result<(), ParameterError> {
        if self.bytes.len() == expected {
            Ok(())
        } else {
            Err(self.error(self.length_error))
        }
    }

    /// The `length` bytes of a string or byte string field after the fixed part (`fixed`
    /// bytes), padded to a multiple of 4 to the structure's end; `reason` when they do not
    /// fit.
    fn field(&self, fixed: usize, length: i32, reason: i32) -> Result<&[u8], ParameterError> {
        if length < 0 || fixed + length as usize > self.bytes.len() {
            return Err(self.error(reason));
        }
        self.exact(fixed + padded(length as usize))?;
        Ok(&self.bytes[fixed..fixed + length as usize])
    }
}

/// A structure type's MQRCCF_*_LENGTH_ERROR and the length of its fixed part; `None` for a
/// type PCF does not have.
fn structure_lengths(kind: i32) -> Option<(i32, i32)> {
    Some(match kind {
        MQCFT_INTEGER => (MQRCCF_CFIN_LENGTH_ERROR, MQCFIN_STRUC_LENGTH),
        MQCFT_INTEGER64 => (MQRCCF_CFIN_LENGTH_ERROR, MQCFIN64_STRUC_LENGTH),
        MQCFT_STRING => (MQRCCF_CFST_LENGTH_ERROR, MQCFST_STRUC_LENGTH_FIXED),
        MQCFT_INTEGER_LIST => (MQRCCF_CFIL_LENGTH_ERROR, MQCFIL_STRUC_LENGTH_FIXED),
        MQCFT_INTEGER64_LIST => (MQRCCF_CFIL_LENGTH_ERROR, MQCFIL64_STRUC_LENGTH_FIXED),
        MQCFT_STRING_LIST => (MQRCCF_CFSL_LENGTH_ERROR, MQCFSL_STRUC_LENGTH_FIXED),
        MQCFT_BYTE_STRING => (MQRCCF_CFBS_LENGTH_ERROR, MQCFBS_STRUC_LENGTH_FIXED),
        MQCFT_INTEGER_FILTER => (MQRCCF_CFIF_LENGTH_ERROR, MQCFIF_STRUC_LENGTH),
        MQCFT_STRING_FILTER => (MQRCCF_CFSF_LENGTH_ERROR, MQCFSF_STRUC_LENGTH_FIXED),
        MQCFT_BYTE_STRING_FILTER => (MQRCCF_CFBF_LENGTH_ERROR, MQCFBF_STRUC_LENGTH_FIXED),
        MQCFT_GROUP => (MQRCCF_CFGR_LENGTH_ERROR, MQCFGR_STRUC_LENGTH),
        _ => return None,
    })
}

/// Read the parameter structure at the reader's offset (a group with the parameters in it,
/// `depth` groups down, out of `budget` parameters left for the message) and move past it.
fn read_parameter(
    reader: &mut Reader,
    depth: usize,
    budget: &mut usize,
) -> Result<Parameter, ParameterError> {
    let (Some(kind), Some(length)) = (reader.peek(0), reader.peek(1)) else {
        return Err((MQRCCF_MSG_LENGTH_ERROR, None));
    };
    let parameter = reader.peek(2);
    let Some((length_error, fixed)) = structure_lengths(kind) else {
        return Err((MQRCCF_STRUCTURE_TYPE_ERROR, parameter));
    };
    if length < fixed || length % 4 != 0 {
        return Err((length_error, parameter));
    }
    let length = length as usize;
    if length > reader.remaining() {
        return Err((MQRCCF_MSG_LENGTH_ERROR, parameter));
    }
    let start = reader.offset;
    let data = reader.data;
    let structure = Structure {
        kind,
        parameter: parameter.expect("StrucLength at least 12 bytes present"),
        bytes: &data[start..start + length],
        order: reader.order,
        length_error,
    };
    if kind == MQCFT_GROUP {
        structure.exact(MQCFGR_STRUC_LENGTH as usize)?;
        let count = structure.int(3);
        if depth >= GROUP_DEPTH_MAX || count < 0 || count as usize > *budget {
            return Err(structure.error(MQRCCF_CFGR_PARM_COUNT_ERROR));
        }
        reader.offset = start + length;
        let parameters = read_parameters(reader, count as usize, depth + 1, budget)?;
        return Ok(Parameter::Group {
            parameter: structure.parameter,
            parameters,
        });
    }
    let decoded = match kind {
        MQCFT_INTEGER_LIST | MQCFT_INTEGER64_LIST => integer_list(&structure)?,
        MQCFT_STRING_LIST => string_list(&structure)?,
        _ => single_value(&structure)?,
    };
    reader.offset = start + length;
    Ok(decoded)
}

/// An MQCFIN, MQCFIN64, MQCFST, MQCFBS or filter (MQCFIF, MQCFSF, MQCFBF) structure.
fn single_value(structure: &Structure) -> Result<Parameter, ParameterError> {
    let parameter = structure.parameter;
    Ok(match structure.kind {
        MQCFT_INTEGER => {
            structure.exact(MQCFIN_STRUC_LENGTH as usize)?;
            Parameter::Integer {
                parameter,
                value: structure.int(3),
            }
        }
        MQCFT_INTEGER64 => {
            structure.exact(MQCFIN64_STRUC_LENGTH as usize)?;
            Parameter::Integer64 {
                parameter,
                value: structure
                    .order
                    .read64(structure.bytes[16..24].try_into().expect("eight bytes")),
            }
        }
        MQCFT_STRING => {
            let fixed = MQCFST_STRUC_LENGTH_FIXED as usize;
            let string = structure.field(fixed, structure.int(4), MQRCCF_CFST_STRING_LENGTH_ERR)?;
            Parameter::String {
                parameter,
                value: text(string),
            }
        }
        MQCFT_BYTE_STRING => {
            let fixed = MQCFBS_STRUC_LENGTH_FIXED as usize;
            let bytes = structure.field(fixed, structure.int(3), MQRCCF_CFBS_LENGTH_ERROR)?;
            Parameter::ByteString {
                parameter,
                value: bytes.to_vec(),
            }
        }
        MQCFT_INTEGER_FILTER => {
            structure.exact(MQCFIF_STRUC_LENGTH as usize)?;
            Parameter::IntegerFilter {
                parameter,
                operator: structure.int(3),
                value: structure.int(4),
            }
        }
        MQCFT_STRING_FILTER => {
            let fixed = MQCFSF_STRUC_LENGTH_FIXED as usize;
            let value = structure.field(fixed, structure.int(5), MQRCCF_CFSF_FILTER_VAL_LEN_ERR)?;
            Parameter::StringFilter {
                parameter,
                operator: structure.int(3),
                value: text(value),
            }
        }
        MQCFT_BYTE_STRING_FILTER => {
            let fixed = MQCFBF_STRUC_LENGTH_FIXED as usize;
            let value = structure.field(fixed, structure.int(4), MQRCCF_CFBF_FILTER_VAL_LEN_ERR)?;
            Parameter::ByteStringFilter {
                parameter,
                operator: structure.int(3),
                value: value.to_vec(),
            }
        }
        _ => unreachable!("structure types checked by read_parameter"),
    })
}

/// An MQCFIL or MQCFIL64 structure: Count integers of 4 or 8 bytes filling it exactly.
fn integer_list(structure: &Structure) -> Result<Parameter, ParameterError> {
    let parameter = structure.parameter;
    let count = structure.int(3);
    let width = if structure.kind == MQCFT_INTEGER_LIST {
        4
    } else {
        8
    };
    let fixed = MQCFIL_STRUC_LENGTH_FIXED as usize;
    if count < 0
        || count as usize > LIST_VALUES_MAX
        || fixed + count as usize * width != structure.bytes.len()
    {
        return Err(structure.error(MQRCCF_CFIL_COUNT_ERROR));
    }
    let values = structure.bytes[fixed..].chunks_exact(width);
    let order = structure.order;
    Ok(if structure.kind == MQCFT_INTEGER_LIST {
        Parameter::IntegerList {
            parameter,
            values: values
                .map(|bytes| order.read(bytes.try_into().expect("four bytes")))
                .collect(),
        }
    } else {
        Parameter::Integer64List {
            parameter,
            values: values
                .map(|bytes| order.read64(bytes.try_into().expect("eight bytes")))
                .collect(),
        }
    })
}

/// An MQCFSL structure: Count strings of StringLength bytes each.
fn string_list(structure: &Structure) -> Result<Parameter, ParameterError> {
    let parameter = structure.parameter;
    let (count, string_length) = (structure.int(4), structure.int(5));
    let fixed = MQCFSL_STRUC_LENGTH_FIXED as usize;
    if count < 0 || count as usize > LIST_VALUES_MAX {
        return Err(structure.error(MQRCCF_CFSL_COUNT_ERROR));
    }
    if !(0..=STRING_LENGTH_MAX).contains(&string_length) {
        return Err(structure.error(MQRCCF_CFSL_STRING_LENGTH_ERR));
    }
    let total = count as usize * string_length as usize;
    if fixed + total > structure.bytes.len() {
        return Err(structure.error(MQRCCF_CFSL_TOTAL_LENGTH_ERROR));
    }
    structure.exact(fixed + padded(total))?;
    let values = if string_length == 0 {
        vec![String::new(); count as usize]
    } else {
        structure.bytes[fixed..fixed + total]
            .chunks_exact(string_length as usize)
            .map(text)
            .collect()
    };
    Ok(Parameter::StringList { parameter, values })
}

/// Encode a PCF message with its integers in `order` (ParameterCount from the parameters).
pub fn encode(message: &PcfMessage, order: ByteOrder) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    let header = &message.header;
    for field in [
        header.kind,
        MQCFH_STRUC_LENGTH,
        header.version,
        header.command,
        header.msg_seq_number,
        header.control,
        header.comp_code,
        header.reason,
        message.parameters.len() as i32,
    ] {
        order.write(field, &mut out);
    }
    for parameter in &message.parameters {
        write_parameter(parameter, order, &mut out);
    }
    out
}

fn pad_to_4(out: &mut Vec<u8>, fill: u8) {
    while !out.len().is_multiple_of(4) {
        out.push(fill);
    }
}

fn write_parameter(parameter: &Parameter, order: ByteOrder, out: &mut Vec<u8>) {
    let start = out.len();
    let id = parameter.id();
    // Type, a StrucLength placeholder (patched at the end), Parameter.
    order.write(parameter.kind(), out);
    order.write(0, out);
    order.write(id, out);
    match parameter {
        Parameter::Integer { value, .. } => order.write(*value, out),
        Parameter::Integer64 { value, .. } => {
            order.write(0, out);
            order.write64(*value, out);
        }
        Parameter::String { value, .. } => {
            order.write(PCF_CCSID, out);
            order.write(value.len() as i32, out);
            out.extend_from_slice(value.as_bytes());
            pad_to_4(out, 0);
        }
        Parameter::IntegerList { values, .. } => {
            order.write(values.len() as i32, out);
            for value in values {
                order.write(*value, out);
            }
        }
        Parameter::Integer64List { values, .. } => {
            order.write(values.len() as i32, out);
            for value in values {
                order.write64(*value, out);
            }
        }
        Parameter::StringList { values, .. } => {
            let string_length = values.iter().map(String::len).max().unwrap_or(0);
            order.write(PCF_CCSID, out);
            order.write(values.len() as i32, out);
            order.write(string_length as i32, out);
            for value in values {
                out.extend_from_slice(value.as_bytes());
                out.resize(out.len() + string_length - value.len(), b' ');
            }
            pad_to_4(out, 0);
        }
        Parameter::ByteString { value, .. } => {
            order.write(value.len() as i32, out);
            out.extend_from_slice(value);
            pad_to_4(out, 0);
        }
        Parameter::IntegerFilter {
            operator, value, ..
        } => {
            order.write(*operator, out);
            order.write(*value, out);
        }
        Parameter::StringFilter {
            operator, value, ..
        } => {
            order.write(*operator, out);
            order.write(PCF_CCSID, out);
            order.write(value.len() as i32, out);
            out.extend_from_slice(value.as_bytes());
            pad_to_4(out, 0);
        }
        Parameter::ByteStringFilter {
            operator, value, ..
        } => {
            order.write(*operator, out);
            order.write(value.len() as i32, out);
            out.extend_from_slice(value);
            pad_to_4(out, 0);
        }
        Parameter::Group { parameters, .. } => {
            order.write(parameters.len() as i32, out);
            let length = (out.len() - start) as i32;
            patch_length(out, start, length, order);
            for inner in parameters {
                write_parameter(inner, order, out);
            }
            return;
        }
    }
    let length = (out.len() - start) as i32;
    patch_length(out, start, length, order);
}

fn patch_length(out: &mut [u8], start: usize, length: i32, order: ByteOrder) {
    debug_assert_eq!(length % 4, 0, "PCF structures are multiples of 4 bytes");
    let bytes = match order {
        ByteOrder::Normal => length.to_be_bytes(),
        ByteOrder::Reversed => length.to_le_bytes(),
    };
    out[start + 4..start + 8].copy_from_slice(&bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_constants::pcf_selector::*;
    use ferrite_constants::selector::*;

    fn command(parameters: Vec<Parameter>) -> PcfMessage {
        PcfMessage {
            header: PcfHeader {
                kind: MQCFT_COMMAND,
                version: MQCFH_VERSION_1,
                command: MQCMD_INQUIRE_Q,
                msg_seq_number: 1,
                control: MQCFC_LAST,
                comp_code: 0,
                reason: 0,
                parameter_count: parameters.len() as i32,
            },
            parameters,
        }
    }

    fn every_kind() -> PcfMessage {
        command(vec![
            Parameter::string(MQCA_Q_NAME, "APP.*"),
            Parameter::integer(MQIA_Q_TYPE, 1),
            Parameter::Integer64 {
                parameter: MQIA_CURRENT_Q_DEPTH,
                value: -5_000_000_000,
            },
            Parameter::IntegerList {
                parameter: MQIACF_Q_ATTRS,
                values: vec![MQCA_Q_NAME, MQIA_CURRENT_Q_DEPTH, -1],
            },
            Parameter::Integer64List {
                parameter: MQIACF_Q_ATTRS,
                values: vec![1, i64::MIN],
            },
            Parameter::StringList {
                parameter: MQCACF_Q_NAMES,
                values: vec!["A".into(), "QUEUE.B".into(), "".into()],
            },
            Parameter::ByteString {
                parameter: MQBACF_CONNECTION_ID,
                value: vec![1, 2, 3, 4, 5],
            },
            Parameter::IntegerFilter {
                parameter: MQIA_CURRENT_Q_DEPTH,
                operator: MQCFOP_GREATER,
                value: 7,
            },
            Parameter::StringFilter {
                parameter: MQCA_Q_DESC,
                operator: MQCFOP_LIKE,
                value: "Pay*".into(),
            },
            Parameter::ByteStringFilter {
                parameter: MQBACF_CONNECTION_ID,
                operator: MQCFOP_EQUAL,
                value: vec![9; 6],
            },
            Parameter::Group {
                parameter: MQGACF_COMMAND_DATA,
                parameters: vec![Parameter::integer(MQIACF_PROCESS_ID, 42)],
            },
        ])
    }

    #[test]
    fn round_trip_in_both_byte_orders() {
        let message = every_kind();
        for order in [ByteOrder::Normal, ByteOrder::Reversed] {
            let bytes = encode(&message, order);
            assert_eq!(bytes.len() % 4, 0);
            let decoded = decode(&bytes, order).unwrap();
            assert_eq!(decoded.parameters, message.parameters);
            assert_eq!(decoded.header, message.header);
        }
        let big = encode(&message, ByteOrder::Normal);
        let little = encode(&message, ByteOrder::Reversed);
        assert_eq!(&big[..4], &[0, 0, 0, 1], "Type MQCFT_COMMAND big-endian");
        assert_eq!(
            &little[..4],
            &[1, 0, 0, 0],
            "Type MQCFT_COMMAND little-endian"
        );
        assert!(decode(&big, ByteOrder::Reversed).is_err());
    }

    #[test]
    fn known_layout_of_mqcfst() {
        let bytes = encode(
            &command(vec![Parameter::string(MQCA_Q_NAME, "Q1")]),
            ByteOrder::Normal,
        );
        let cfst = &bytes[36..];
        let ints: Vec<i32> = cfst[..20]
            .chunks_exact(4)
            .map(|b| i32::from_be_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(ints, vec![MQCFT_STRING, 24, MQCA_Q_NAME, 1208, 2]);
        assert_eq!(&cfst[20..], b"Q1\0\0");
    }

    #[test]
    fn blank_padded_strings_are_trimmed() {
        let mut bytes = encode(
            &command(vec![Parameter::string(MQCA_Q_NAME, "Q1  ")]),
            ByteOrder::Reversed,
        );
        let decoded = decode(&bytes, ByteOrder::Reversed).unwrap();
        assert_eq!(decoded.parameters[0], Parameter::string(MQCA_Q_NAME, "Q1"));
        bytes.truncate(bytes.len() - 4);
        assert!(decode(&bytes, ByteOrder::Reversed).is_err());
    }

    fn reason(bytes: &[u8]) -> i32 {
        decode(bytes, ByteOrder::Normal).unwrap_err().reason
    }

    fn set(bytes: &mut [u8], index: usize, value: i32) {
        bytes[index * 4..index * 4 + 4].copy_from_slice(&value.to_be_bytes());
    }

    #[test]
    fn hostile_headers() {
        let good = encode(
            &command(vec![Parameter::integer(MQIA_Q_TYPE, 1)]),
            ByteOrder::Normal,
        );
        assert_eq!(reason(&[]), MQRCCF_CFH_TYPE_ERROR);
        assert_eq!(reason(&good[..20]), MQRCCF_MSG_LENGTH_ERROR);
        let cases = [
            (0, MQCFT_RESPONSE, MQRCCF_CFH_TYPE_ERROR),
            (1, 40, MQRCCF_CFH_LENGTH_ERROR),
            (2, 4, MQRCCF_CFH_VERSION_ERROR),
            (4, 0, MQRCCF_CFH_MSG_SEQ_NUMBER_ERR),
            (5, 7, MQRCCF_CFH_CONTROL_ERROR),
            (8, -1, MQRCCF_CFH_PARM_COUNT_ERROR),
            (8, i32::MAX, MQRCCF_CFH_PARM_COUNT_ERROR),
            (8, 2, MQRCCF_MSG_LENGTH_ERROR),
            (8, 0, MQRCCF_MSG_LENGTH_ERROR),
        ];
        for (index, value, expected) in cases {
            let mut bytes = good.clone();
            set(&mut bytes, index, value);
            assert_eq!(reason(&bytes), expected, "field {index} = {value}");
        }
        let error = decode(&good[..40], ByteOrder::Normal).unwrap_err();
        assert_eq!(error.command, MQCMD_INQUIRE_Q, "the command is echoed");
    }

    #[test]
    fn hostile_parameters() {
        let with = |parameter: Parameter| encode(&command(vec![parameter]), ByteOrder::Normal);
        // MQCFIN with a wrong StrucLength.
        let mut bytes = with(Parameter::integer(MQIA_Q_TYPE, 1));
        set(&mut bytes, 10, 20);
        assert_eq!(reason(&bytes), MQRCCF_MSG_LENGTH_ERROR);
        set(&mut bytes, 10, 15);
        assert_eq!(reason(&bytes), MQRCCF_CFIN_LENGTH_ERROR);
        // Unknown structure type.
        set(&mut bytes, 10, 16);
        set(&mut bytes, 9, 99);
        let error = decode(&bytes, ByteOrder::Normal).unwrap_err();
        assert_eq!(error.reason, MQRCCF_STRUCTURE_TYPE_ERROR);
        assert_eq!(error.parameter, Some(MQIA_Q_TYPE));
        // MQCFST whose StringLength runs past the structure, or is negative.
        let mut bytes = with(Parameter::string(MQCA_Q_NAME, "ABCD"));
        set(&mut bytes, 13, 5);
        assert_eq!(reason(&bytes), MQRCCF_CFST_STRING_LENGTH_ERR);
        set(&mut bytes, 13, -1);
        assert_eq!(reason(&bytes), MQRCCF_CFST_STRING_LENGTH_ERR);
        // A shorter string in the same padded structure is valid.
        set(&mut bytes, 13, 1);
        assert_eq!(
            decode(&bytes, ByteOrder::Normal).unwrap().parameters,
            vec![Parameter::string(MQCA_Q_NAME, "A")]
        );
        // A StrucLength with more padding than the string needs is not.
        set(&mut bytes, 13, 0);
        assert_eq!(reason(&bytes), MQRCCF_CFST_LENGTH_ERROR);
        // MQCFIL with a count that does not fit.
        let mut bytes = with(Parameter::IntegerList {
            parameter: MQIACF_Q_ATTRS,
            values: vec![1, 2],
        });
        for count in [3, -1, i32::MAX] {
            set(&mut bytes, 12, count);
            assert_eq!(reason(&bytes), MQRCCF_CFIL_COUNT_ERROR, "count {count}");
        }
        // MQCFSL with counts and lengths that do not fit.
        let mut bytes = with(Parameter::StringList {
            parameter: MQCACF_Q_NAMES,
            values: vec!["AB".into(), "CD".into()],
        });
        set(&mut bytes, 13, 3);
        assert_eq!(reason(&bytes), MQRCCF_CFSL_TOTAL_LENGTH_ERROR);
        set(&mut bytes, 13, -3);
        assert_eq!(reason(&bytes), MQRCCF_CFSL_COUNT_ERROR);
        set(&mut bytes, 13, 2);
        set(&mut bytes, 14, i32::MAX);
        assert_eq!(reason(&bytes), MQRCCF_CFSL_STRING_LENGTH_ERR);
        // A group claiming more parameters than there are.
        let mut bytes = with(Parameter::Group {
            parameter: MQGACF_COMMAND_DATA,
            parameters: vec![],
        });
        set(&mut bytes, 12, 3);
        assert_eq!(reason(&bytes), MQRCCF_MSG_LENGTH_ERROR);
        set(&mut bytes, 12, i32::MAX);
        assert_eq!(reason(&bytes), MQRCCF_CFGR_PARM_COUNT_ERROR);
    }

    #[test]
    fn nested_groups_are_limited() {
        let mut parameter = Parameter::integer(MQIA_Q_TYPE, 1);
        for _ in 0..=GROUP_DEPTH_MAX {
            parameter = Parameter::Group {
                parameter: MQGACF_COMMAND_DATA,
                parameters: vec![parameter],
            };
        }
        let bytes = encode(&command(vec![parameter]), ByteOrder::Normal);
        assert_eq!(reason(&bytes), MQRCCF_CFGR_PARM_COUNT_ERROR);
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let _ = decode(&bytes, ByteOrder::Normal);
            let _ = decode(&bytes, ByteOrder::Reversed);
        }

        #[test]
        fn corrupted_messages_never_panic(index in 0usize..400, value in proptest::num::i32::ANY) {
            let mut bytes = encode(&every_kind(), ByteOrder::Normal);
            let index = (index % (bytes.len() / 4)) * 4;
            bytes[index..index + 4].copy_from_slice(&value.to_be_bytes());
            if let Ok(message) = decode(&bytes, ByteOrder::Normal) {
                // Whatever decodes encodes back to a message that decodes the same.
                let again = encode(&message, ByteOrder::Normal);
                proptest::prop_assert_eq!(decode(&again, ByteOrder::Normal).unwrap(), message);
            }
        }
    }
}
