//! Message properties: typed values under MQ's names, and their MQRFH2 folder form.
//!
//! A property has a name and a value of one of MQ's property types (`MQTYPE_*`):
//!
//! | [`PropertyValue`] | MQTYPE_*          | MQRFH2 `dt`  | text form                          |
//! |-------------------|-------------------|--------------|------------------------------------|
//! | `Boolean`         | BOOLEAN (4)       | `boolean`    | `1` / `0` (`true`/`false` accepted)|
//! | `ByteString`      | BYTE_STRING (8)   | `bin.hex`    | hex digits, two per byte           |
//! | `Int8`            | INT8 (16)         | `i1`         | decimal                            |
//! | `Int16`           | INT16 (32)        | `i2`         | decimal                            |
//! | `Int32`           | INT32 (64)        | `i4`         | decimal                            |
//! | `Int64`           | INT64 (128)       | `i8` (`int` read as `i8`) | decimal               |
//! | `Float32`         | FLOAT32 (256)     | `r4`         | Java float syntax (`1.5E0`, `NaN`, `Infinity`) |
//! | `Float64`         | FLOAT64 (512)     | `r8`         | Java double syntax                 |
//! | `String`          | STRING (1024)     | none (or `string`) | the text                     |
//! | `Null`            | NULL (2)          | `xsi:nil='true'` | empty                          |
//!
//! # Names and folders
//!
//! A name is one or more identifiers joined by `.` (each a Java identifier: a letter, `_` or
//! `$`, then letters, digits, `_` or `$`), at most [`PROPERTY_NAME_LENGTH_MAX`] characters, and
//! not one of the selector keywords (`NULL TRUE FALSE NOT AND OR BETWEEN LIKE IN IS ESCAPE`).
//! Names starting `JMS` are JMS header fields, set through [`crate::jms`], not here.
//!
//! Properties live in the MQRFH2 folders IBM calls property folders: `usr` (application
//! properties: `Colour` is `<usr><Colour>`, and `usr.Colour` is the same property), the defined
//! folders `mcd jms mq_usr sib sib_context sib_usr` and the ungrouped folders
//! `ibm mq mqema mqext mqps mq_svc mqtt` (their properties are named with the folder as a prefix:
//! `mcd.Msd`, `jms.Cid`, `mqps.Top`), and any folder with the attribute `content='properties'`.
//! A dotted name in `usr` is a group: `Order.Colour` is `<usr><Order><Colour>`. Other folders
//! (`psc`, application name/value folders) carry no properties and stay in the MQRFH2.
//!
//! One asymmetry: properties read from a folder that is a property folder only through
//! `content='properties'` (say `<app content='properties'><x>`) are named `app.x`; written
//! back, such a name goes to `usr` as the group `<usr><app><x>`, because a prefix that is not
//! a known folder names a group. IBM's handling of such folders is not confirmed here.

use std::collections::HashSet;
use std::fmt;

use ferrite_constants::{
    lengths::MQ_MAX_PROPERTY_NAME_LENGTH,
    misc::{
        MQTYPE_BOOLEAN, MQTYPE_BYTE_STRING, MQTYPE_FLOAT32, MQTYPE_FLOAT64, MQTYPE_INT16,
        MQTYPE_INT32, MQTYPE_INT64, MQTYPE_INT8, MQTYPE_NULL, MQTYPE_STRING,
    },
    reason::{
        MQRC_PROPERTIES_TOO_BIG, MQRC_PROPERTY_NAME_ERROR, MQRC_PROPERTY_NAME_LENGTH_ERR,
        MQRC_PROPERTY_VALUE_TOO_BIG, MQRC_PROP_CONV_NOT_SUPPORTED, MQRC_PROP_NUMBER_FORMAT_ERROR,
        MQRC_RFH_FORMAT_ERROR,
    },
};

use ferrite_protocol::mqi::Md;

use crate::folder::{Content, Element, Folder};

/// Longest property name, in characters (MQ_MAX_PROPERTY_NAME_LENGTH).
pub const PROPERTY_NAME_LENGTH_MAX: usize = MQ_MAX_PROPERTY_NAME_LENGTH as usize;

/// Most properties in one message. IBM has tested more than 32,000 (V7.0 report).
pub const PROPERTIES_PER_MESSAGE_MAX: usize = 65_536;

/// Folders whose elements are properties named with the folder as prefix (`mcd.Msd`).
pub const PREFIXED_PROPERTY_FOLDERS: [&str; 12] = [
    "mcd",
    "jms",
    "mq_usr",
    "sib",
    "sib_context",
    "sib_usr",
    "ibm",
    "mq",
    "mqema",
    "mqext",
    "mqps",
    "mq_svc",
];
/// `mqtt`, the last ungrouped property folder (kept apart so the array above stays readable).
const MQTT_FOLDER: &str = "mqtt";

/// The folder of application properties, whose names carry no prefix.
pub const USER_FOLDER: &str = "usr";

/// Words a property name must not be (any case): the selector keywords.
pub const RESERVED_WORDS: [&str; 11] = [
    "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE",
];

/// A property value, one variant per MQTYPE_*.
#[derive(Clone, Debug, PartialEq)]
pub enum PropertyValue {
    /// MQTYPE_BOOLEAN.
    Boolean(bool),
    /// MQTYPE_BYTE_STRING.
    ByteString(Vec<u8>),
    /// MQTYPE_INT8.
    Int8(i8),
    /// MQTYPE_INT16.
    Int16(i16),
    /// MQTYPE_INT32.
    Int32(i32),
    /// MQTYPE_INT64.
    Int64(i64),
    /// MQTYPE_FLOAT32.
    Float32(f32),
    /// MQTYPE_FLOAT64.
    Float64(f64),
    /// MQTYPE_STRING.
    String(String),
    /// MQTYPE_NULL.
    Null,
}

impl PropertyValue {
    /// The MQTYPE_* of this value.
    pub fn mq_type(&self) -> i32 {
        match self {
            PropertyValue::Boolean(_) => MQTYPE_BOOLEAN,
            PropertyValue::ByteString(_) => MQTYPE_BYTE_STRING,
            PropertyValue::Int8(_) => MQTYPE_INT8,
            PropertyValue::Int16(_) => MQTYPE_INT16,
            PropertyValue::Int32(_) => MQTYPE_INT32,
            PropertyValue::Int64(_) => MQTYPE_INT64,
            PropertyValue::Float32(_) => MQTYPE_FLOAT32,
            PropertyValue::Float64(_) => MQTYPE_FLOAT64,
            PropertyValue::String(_) => MQTYPE_STRING,
            PropertyValue::Null => MQTYPE_NULL,
        }
    }

    /// The value as an MQRFH2 element named `name`.
    pub fn to_element(&self, name: &str) -> Element {
        let (dt, text) = match self {
            PropertyValue::Boolean(b) => (Some("boolean"), if *b { "1" } else { "0" }.to_owned()),
            PropertyValue::ByteString(bytes) => (Some("bin.hex"), hex_upper(bytes)),
            PropertyValue::Int8(v) => (Some("i1"), v.to_string()),
            PropertyValue::Int16(v) => (Some("i2"), v.to_string()),
            PropertyValue::Int32(v) => (Some("i4"), v.to_string()),
            PropertyValue::Int64(v) => (Some("i8"), v.to_string()),
            PropertyValue::Float32(v) => (Some("r4"), java_float(f64::from(*v), format!("{v:E}"))),
            PropertyValue::Float64(v) => (Some("r8"), java_float(*v, format!("{v:E}"))),
            PropertyValue::String(s) => (None, s.clone()),
            PropertyValue::Null => {
                return Element {
                    name: name.to_owned(),
                    attributes: vec![("xsi:nil".into(), "true".into())],
                    content: Content::Value(String::new()),
                }
            }
        };
        Element {
            name: name.to_owned(),
            attributes: dt
                .map(|dt| vec![("dt".to_owned(), dt.to_owned())])
                .unwrap_or_default(),
            content: Content::Value(text),
        }
    }

    /// The value of a property element (`dt` and `xsi:nil` attributes, text). `what` names the
    /// property for the error.
    pub fn from_element_text(
        dt: Option<&str>,
        nil: bool,
        text: &str,
        what: &str,
    ) -> Result<PropertyValue, PropertyError> {
        if nil {
            return Ok(PropertyValue::Null);
        }
        let bad = |expected: &'static str| PropertyError::BadValue {
            name: what.to_owned(),
            dt: dt.unwrap_or("string").to_owned(),
            text: text.chars().take(64).collect(),
            expected,
        };
        let integer = |expected| text.trim().parse::<i64>().map_err(|_| bad(expected));
        Ok(match dt {
            None | Some("string") => PropertyValue::String(text.to_owned()),
            Some("boolean") => match text.trim() {
                "1" => PropertyValue::Boolean(true),
                "0" => PropertyValue::Boolean(false),
                t if t.eq_ignore_ascii_case("true") => PropertyValue::Boolean(true),
                t if t.eq_ignore_ascii_case("false") => PropertyValue::Boolean(false),
                _ => return Err(bad("1, 0, true or false")),
            },
            Some("bin.hex") => PropertyValue::ByteString(
                from_hex(text.trim()).ok_or_else(|| bad("hex digits in pairs"))?,
            ),
            Some("i1") => PropertyValue::Int8(
                i8::try_from(integer("an integer -128..127")?)
                    .map_err(|_| bad("an integer -128..127"))?,
            ),
            Some("i2") => PropertyValue::Int16(
                i16::try_from(integer("a 16-bit integer")?).map_err(|_| bad("a 16-bit integer"))?,
            ),
            Some("i4") => PropertyValue::Int32(
                i32::try_from(integer("a 32-bit integer")?).map_err(|_| bad("a 32-bit integer"))?,
            ),
            Some("i8") | Some("int") => PropertyValue::Int64(integer("a 64-bit integer")?),
            Some("r4") => PropertyValue::Float32(
                parse_java_float(text.trim()).ok_or_else(|| bad("a floating point number"))?,
            ),
            Some("r8") => PropertyValue::Float64(
                parse_java_float(text.trim()).ok_or_else(|| bad("a floating point number"))?,
            ),
            Some(_) => {
                return Err(bad(
                    "a known dt: string boolean bin.hex i1 i2 i4 i8 int r4 r8",
                ))
            }
        })
    }
}

impl PropertyValue {
    /// The value converted to `mq_type` (MQTYPE_*), for MQINQMP with MQIMPO_CONVERT_TYPE. This
    /// follows the outline of IBM's conversion rules; cells of IBM's table not confirmed here
    /// (boolean to integer, float to integer) are refused rather than guessed. Integers to wider or narrower integers when the value fits
    /// (MQRC_PROPERTY_VALUE_TOO_BIG otherwise), numbers and booleans to and from their text,
    /// integers to floats, FLOAT32 and FLOAT64 to each other, byte strings to and from hex
    /// text. A string that does not parse gives MQRC_PROP_NUMBER_FORMAT_ERROR; any other pair
    /// (NULL to anything but NULL, for one) gives MQRC_PROP_CONV_NOT_SUPPORTED.
    pub fn convert(&self, mq_type: i32) -> Result<PropertyValue, ConversionError> {
        use PropertyValue as P;
        if self.mq_type() == mq_type {
            return Ok(self.clone());
        }
        let integer = match self {
            P::Int8(v) => Some(i64::from(*v)),
            P::Int16(v) => Some(i64::from(*v)),
            P::Int32(v) => Some(i64::from(*v)),
            P::Int64(v) => Some(*v),
            _ => None,
        };
        let too_big = ConversionError::ValueTooBig;
        let format = ConversionError::NumberFormat;
        let parsed_integer = |text: &str| text.trim().parse::<i64>().map_err(|_| format);
        Ok(match (self, mq_type) {
            (_, MQTYPE_STRING) => match self {
                P::Boolean(b) => P::String(if *b { "TRUE" } else { "FALSE" }.into()),
                P::ByteString(bytes) => P::String(hex_upper(bytes)),
                P::Float32(v) => P::String(v.to_string()),
                P::Float64(v) => P::String(v.to_string()),
                _ => P::String(integer.ok_or(ConversionError::NotSupported)?.to_string()),
            },
            (P::String(text), MQTYPE_BOOLEAN) => match text.trim() {
                t if t.eq_ignore_ascii_case("true") || t == "1" => P::Boolean(true),
                t if t.eq_ignore_ascii_case("false") || t == "0" => P::Boolean(false),
                _ => return Err(format),
            },
            (P::String(text), MQTYPE_BYTE_STRING) => {
                P::ByteString(from_hex(text.trim()).ok_or(format)?)
            }
            (P::String(text), MQTYPE_FLOAT32) => {
                P::Float32(parse_java_float(text.trim()).ok_or(format)?)
            }
            (P::String(text), MQTYPE_FLOAT64) => {
                P::Float64(parse_java_float(text.trim()).ok_or(format)?)
            }
            (P::String(text), _) => P::Int64(parsed_integer(text)?).convert(mq_type)?,
            (P::Float32(v), MQTYPE_FLOAT64) => P::Float64(f64::from(*v)),
            (P::Float64(v), MQTYPE_FLOAT32) => P::Float32(*v as f32),
            (_, MQTYPE_FLOAT32) if integer.is_some() => P::Float32(integer.unwrap_or(0) as f32),
            (_, MQTYPE_FLOAT64) if integer.is_some() => P::Float64(integer.unwrap_or(0) as f64),
            (_, MQTYPE_INT8) if integer.is_some() => {
                P::Int8(i8::try_from(integer.unwrap_or(0)).map_err(|_| too_big)?)
            }
            (_, MQTYPE_INT16) if integer.is_some() => {
                P::Int16(i16::try_from(integer.unwrap_or(0)).map_err(|_| too_big)?)
            }
            (_, MQTYPE_INT32) if integer.is_some() => {
                P::Int32(i32::try_from(integer.unwrap_or(0)).map_err(|_| too_big)?)
            }
            (_, MQTYPE_INT64) if integer.is_some() => P::Int64(integer.unwrap_or(0)),
            _ => return Err(ConversionError::NotSupported),
        })
    }
}

/// Why [`PropertyValue::convert`] failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConversionError {
    /// The value does not fit the target type: MQRC_PROPERTY_VALUE_TOO_BIG (2469).
    ValueTooBig,
    /// A string is not a number (or boolean, or hex) of the target type:
    /// MQRC_PROP_NUMBER_FORMAT_ERROR (2472).
    NumberFormat,
    /// MQ does not convert between these types: MQRC_PROP_CONV_NOT_SUPPORTED (2470).
    NotSupported,
}

impl ConversionError {
    /// MQ's reason code.
    pub fn reason_code(self) -> i32 {
        match self {
            ConversionError::ValueTooBig => MQRC_PROPERTY_VALUE_TOO_BIG,
            ConversionError::NumberFormat => MQRC_PROP_NUMBER_FORMAT_ERROR,
            ConversionError::NotSupported => MQRC_PROP_CONV_NOT_SUPPORTED,
        }
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            ConversionError::ValueTooBig => "the value does not fit the requested type",
            ConversionError::NumberFormat => "the string is not a value of the requested type",
            ConversionError::NotSupported => "MQ does not convert between these types",
        };
        write!(
            f,
            "{what} ({})",
            ferrite_constants::reason_name(self.reason_code()).unwrap_or("?")
        )
    }
}

impl std::error::Error for ConversionError {}

fn hex_upper(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// Decodes hex digits in pairs (either case); `None` for an odd count or a non-digit.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks_exact(2)
        .map(|pair| {
            let high = (pair[0] as char).to_digit(16)?;
            let low = (pair[1] as char).to_digit(16)?;
            Some((high * 16 + low) as u8)
        })
        .collect()
}

/// Upper-case hex of `bytes` (MQ's `bin.hex`, and the digits after JMS's `ID:`).
pub fn to_hex(bytes: &[u8]) -> String {
    hex_upper(bytes)
}

fn java_float(value: f64, finite: String) -> String {
    if value.is_nan() {
        "NaN".into()
    } else if value.is_infinite() {
        if value > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        finite
    }
}

/// Parses Java's float syntax (what `Float.toString`/`Double.toString` write: digits with an
/// optional exponent, `NaN`, `Infinity`, `-Infinity`) straight into `T`, so that an `r4`
/// value is rounded once, to f32.
fn parse_java_float<T: std::str::FromStr>(text: &str) -> Option<T> {
    let special = matches!(text, "NaN" | "Infinity" | "+Infinity" | "-Infinity");
    // Rust also accepts "inf" and "nan" spelled any way; Java does not, so neither do we.
    if !special
        && text
            .chars()
            .any(|c| c.is_ascii_alphabetic() && !matches!(c, 'e' | 'E'))
    {
        return None;
    }
    text.parse().ok()
}

/// Checks `name` against MQ's rules for property names (see the module documentation).
pub fn validate_name(name: &str) -> Result<(), PropertyError> {
    let error = |problem: &'static str| PropertyError::BadName {
        name: name.chars().take(80).collect(),
        problem,
    };
    if name.is_empty() {
        return Err(error("a property name must not be empty"));
    }
    if name.chars().count() > PROPERTY_NAME_LENGTH_MAX {
        return Err(PropertyError::NameTooLong {
            length: name.chars().count(),
        });
    }
    for part in name.split('.') {
        let mut chars = part.chars();
        match chars.next() {
            None => return Err(error("empty identifier between dots")),
            Some(c) if !(c.is_alphabetic() || c == '_' || c == '$') => {
                return Err(error(
                    "each identifier must start with a letter, '_' or '$'",
                ))
            }
            Some(_) => {}
        }
        if !chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            return Err(error("identifiers hold only letters, digits, '_' and '$'"));
        }
    }
    if RESERVED_WORDS.iter().any(|w| w.eq_ignore_ascii_case(name)) {
        return Err(error("a selector keyword cannot be a property name"));
    }
    Ok(())
}

/// True for folders whose elements are properties named `folder.element`.
pub fn is_prefixed_property_folder(folder: &str) -> bool {
    PREFIXED_PROPERTY_FOLDERS.contains(&folder) || folder == MQTT_FOLDER
}

/// The canonical form of a name: without a leading `usr.`.
pub fn canonical_name(name: &str) -> &str {
    name.strip_prefix("usr.").unwrap_or(name)
}

/// A message's properties in the order they were set (MQ keeps that order in the MQRFH2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MessageProperties {
    entries: Vec<(String, PropertyValue)>,
}

impl MessageProperties {
    /// No properties.
    pub fn new() -> MessageProperties {
        MessageProperties::default()
    }

    /// Number of properties.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The properties in order, under their canonical names.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &PropertyValue)> {
        self.entries.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// The value of `name` (`usr.` prefix optional).
    pub fn get(&self, name: &str) -> Option<&PropertyValue> {
        let name = canonical_name(name);
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Sets `name` to `value` (replacing an earlier value in place, as MQSETMP does).
    /// Names starting `JMS` are refused: JMS header fields map onto the MQMD and the `jms`
    /// and `mcd` folders, see [`crate::jms`].
    pub fn set(&mut self, name: &str, value: PropertyValue) -> Result<(), PropertyError> {
        validate_name(name)?;
        let name = canonical_name(name);
        if name.starts_with("JMS") {
            return Err(PropertyError::BadName {
                name: name.to_owned(),
                problem: "JMS header fields are set through ferrite_message::jms",
            });
        }
        self.set_unchecked_jms(name, value)
    }

    /// [`set`](Self::set) without the `JMS` prefix check (the JMS mapping's own use).
    pub(crate) fn set_unchecked_jms(
        &mut self,
        name: &str,
        value: PropertyValue,
    ) -> Result<(), PropertyError> {
        let name = canonical_name(name);
        if let Some(entry) = self.entries.iter_mut().find(|(n, _)| n == name) {
            entry.1 = value;
            return Ok(());
        }
        if self.entries.len() == PROPERTIES_PER_MESSAGE_MAX {
            return Err(PropertyError::TooMany);
        }
        self.entries.push((name.to_owned(), value));
        Ok(())
    }

    /// MQINQMP's lookup: the first property at or after position `from` whose name matches
    /// `pattern`, with its position (pass `position + 1` for MQIMPO_INQ_NEXT). A pattern ending
    /// in `%` matches every name with that prefix (`%` alone matches all); `usr.` is optional.
    pub fn inquire(&self, pattern: &str, from: usize) -> Option<(usize, &str, &PropertyValue)> {
        let pattern = canonical_name(pattern);
        let matches = |name: &str| match pattern.strip_suffix('%') {
            Some(prefix) => name.starts_with(prefix),
            None => name == pattern,
        };
        self.entries
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, (name, _))| matches(name))
            .map(|(index, (name, value))| (index, name.as_str(), value))
    }

    /// Removes `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<PropertyValue> {
        let name = canonical_name(name);
        let index = self.entries.iter().position(|(n, _)| n == name)?;
        Some(self.entries.remove(index).1)
    }

    /// Reads the properties out of MQRFH2 folders. Returns them and the folders that are not
    /// property folders (which stay in the message's MQRFH2).
    pub fn from_folders(
        folders: &[Folder],
    ) -> Result<(MessageProperties, Vec<Folder>), PropertyError> {
        let mut properties = MessageProperties::new();
        let mut others = Vec::new();
        let mut seen = HashSet::new();
        for folder in folders {
            let prefix = if folder.name == USER_FOLDER {
                String::new()
            } else if is_prefixed_property_folder(&folder.name)
                || folder.attribute("content") == Some("properties")
            {
                format!("{}.", folder.name)
            } else {
                others.push(folder.clone());
                continue;
            };
            properties.collect(&folder.elements, &prefix, &mut seen)?;
        }
        Ok((properties, others))
    }

    fn collect(
        &mut self,
        elements: &[Element],
        prefix: &str,
        seen: &mut HashSet<String>,
    ) -> Result<(), PropertyError> {
        for element in elements {
            let name = format!("{prefix}{}", element.name);
            match &element.content {
                Content::Elements(children) => self.collect(children, &format!("{name}."), seen)?,
                Content::Value(text) => {
                    let nil = element.attribute("xsi:nil") == Some("true");
                    let value = PropertyValue::from_element_text(
                        element.attribute("dt"),
                        nil,
                        text,
                        &name,
                    )?;
                    if self.entries.len() == PROPERTIES_PER_MESSAGE_MAX {
                        return Err(PropertyError::TooMany);
                    }
                    let name = canonical_name(&name).to_owned();
                    if !seen.insert(name.clone()) {
                        return Err(PropertyError::Duplicate { name });
                    }
                    self.entries.push((name, value));
                }
            }
        }
        Ok(())
    }

    /// The properties as MQRFH2 folders: one per folder used, in order of first use; `usr`
    /// properties with dots in their names become groups.
    pub fn to_folders(&self) -> Vec<Folder> {
        let mut folders: Vec<Folder> = Vec::new();
        for (name, value) in &self.entries {
            let (folder_name, path) = match name.split_once('.') {
                Some((first, rest)) if is_prefixed_property_folder(first) => (first, rest),
                _ => (USER_FOLDER, name.as_str()),
            };
            let index = match folders.iter().position(|f| f.name == folder_name) {
                Some(index) => index,
                None => {
                    folders.push(Folder {
                        name: folder_name.to_owned(),
                        ..Folder::default()
                    });
                    folders.len() - 1
                }
            };
            insert_path(&mut folders[index].elements, path, value);
        }
        folders
    }
}

/// Adds `value` at `path` (`a.b.c`: group a, group b, property c), joining existing groups.
fn insert_path(elements: &mut Vec<Element>, path: &str, value: &PropertyValue) {
    match path.split_once('.') {
        None => elements.push(value.to_element(path)),
        Some((group, rest)) => {
            let existing = elements
                .iter()
                .position(|e| e.name == group && matches!(e.content, Content::Elements(_)));
            let index = existing.unwrap_or_else(|| {
                elements.push(Element {
                    name: group.to_owned(),
                    attributes: Vec::new(),
                    content: Content::Elements(Vec::new()),
                });
                elements.len() - 1
            });
            let Content::Elements(children) = &mut elements[index].content else {
                unreachable!("the group was found or created as Content::Elements")
            };
            insert_path(children, rest, value);
        }
    }
}

/// What a message selector is evaluated against: the message's properties by name, and the
/// message descriptor from which the JMS header fields (`JMSCorrelationID`, `JMSPriority`, ...)
/// derive (see [`crate::jms`]).
pub trait PropertySource {
    /// The property `name` (canonical, or with the `usr.` prefix), `None` if absent.
    fn property(&self, name: &str) -> Option<&PropertyValue>;
    /// The message's MQMD.
    fn descriptor(&self) -> &Md;
}

/// A message as a [`PropertySource`]: its MQMD and its properties.
#[derive(Clone, Copy, Debug)]
pub struct MessageView<'a> {
    /// The message descriptor.
    pub descriptor: &'a Md,
    /// The message's properties (from its message handle or its MQRFH2).
    pub properties: &'a MessageProperties,
}

impl PropertySource for MessageView<'_> {
    fn property(&self, name: &str) -> Option<&PropertyValue> {
        self.properties.get(name)
    }

    fn descriptor(&self) -> &Md {
        self.descriptor
    }
}

/// What is wrong with a property name, value or set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyError {
    /// The name breaks MQ's rules.
    BadName {
        /// The name (first 80 characters).
        name: String,
        /// Which rule.
        problem: &'static str,
    },
    /// The name is longer than PROPERTY_NAME_LENGTH_MAX.
    NameTooLong {
        /// Its length in characters.
        length: usize,
    },
    /// A folder element's text does not fit its `dt`.
    BadValue {
        /// Property name.
        name: String,
        /// The `dt` it declares.
        dt: String,
        /// The text (first 64 characters).
        text: String,
        /// What the text should be.
        expected: &'static str,
    },
    /// A property occurs twice in the folders.
    Duplicate {
        /// Its name.
        name: String,
    },
    /// More than PROPERTIES_PER_MESSAGE_MAX properties.
    TooMany,
}

impl PropertyError {
    /// MQ's reason code: MQRC_PROPERTY_NAME_ERROR (2442), MQRC_PROPERTY_NAME_LENGTH_ERR (2513),
    /// MQRC_RFH_FORMAT_ERROR (2421) for folder contents, MQRC_PROPERTIES_TOO_BIG (2478).
    pub fn reason_code(&self) -> i32 {
        match self {
            PropertyError::BadName { .. } => MQRC_PROPERTY_NAME_ERROR,
            PropertyError::NameTooLong { .. } => MQRC_PROPERTY_NAME_LENGTH_ERR,
            PropertyError::BadValue { .. } | PropertyError::Duplicate { .. } => {
                MQRC_RFH_FORMAT_ERROR
            }
            PropertyError::TooMany => MQRC_PROPERTIES_TOO_BIG,
        }
    }
}

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyError::BadName { name, problem } => {
                write!(f, "property name {name:?} is not valid: {problem}")
            }
            PropertyError::NameTooLong { length } => write!(
                f,
                "property name of {length} characters is longer than {PROPERTY_NAME_LENGTH_MAX}"
            ),
            PropertyError::BadValue {
                name,
                dt,
                text,
                expected,
            } => write!(
                f,
                "property {name} (dt='{dt}') has the value {text:?}; expected {expected}"
            ),
            PropertyError::Duplicate { name } => {
                write!(
                    f,
                    "property {name} occurs more than once in the MQRFH2 folders"
                )
            }
            PropertyError::TooMany => write!(
                f,
                "more than {PROPERTIES_PER_MESSAGE_MAX} properties in one message"
            ),
        }?;
        write!(
            f,
            " ({})",
            ferrite_constants::reason_name(self.reason_code()).unwrap_or("?")
        )
    }
}

impl std::error::Error for PropertyError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mq_types_match_the_constants() {
        assert_eq!(PropertyValue::Boolean(true).mq_type(), 4);
        assert_eq!(PropertyValue::ByteString(vec![]).mq_type(), 8);
        assert_eq!(PropertyValue::Int8(0).mq_type(), 16);
        assert_eq!(PropertyValue::Int16(0).mq_type(), 32);
        assert_eq!(PropertyValue::Int32(0).mq_type(), 64);
        assert_eq!(PropertyValue::Int64(0).mq_type(), 128);
        assert_eq!(PropertyValue::Float32(0.0).mq_type(), 256);
        assert_eq!(PropertyValue::Float64(0.0).mq_type(), 512);
        assert_eq!(PropertyValue::String(String::new()).mq_type(), 1024);
        assert_eq!(PropertyValue::Null.mq_type(), 2);
    }

    #[test]
    fn names_follow_mq_rules() {
        for good in [
            "Colour",
            "a.b.c",
            "_x",
            "$y1",
            "Größe",
            "usr.Colour",
            "mcd.Msd",
        ] {
            validate_name(good).unwrap();
        }
        for bad in [
            "", "1a", "a..b", "a.", ".a", "a-b", "a b", "NULL", "between", "a.1",
        ] {
            let error = validate_name(bad).unwrap_err();
            assert_eq!(error.reason_code(), 2442, "{bad}");
        }
        let long = "a".repeat(PROPERTY_NAME_LENGTH_MAX + 1);
        assert_eq!(validate_name(&long).unwrap_err().reason_code(), 2513);
        validate_name(&long[1..]).unwrap();
        let mut set = MessageProperties::new();
        assert_eq!(
            set.set("JMSType", PropertyValue::Null)
                .unwrap_err()
                .reason_code(),
            2442
        );
    }

    #[test]
    fn set_get_replace_remove_and_usr_prefix() {
        let mut set = MessageProperties::new();
        set.set("Colour", PropertyValue::String("red".into()))
            .unwrap();
        set.set("Count", PropertyValue::Int32(3)).unwrap();
        set.set("usr.Colour", PropertyValue::String("blue".into()))
            .unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(
            set.get("usr.Colour"),
            Some(&PropertyValue::String("blue".into()))
        );
        assert_eq!(set.iter().next().unwrap().0, "Colour");
        assert_eq!(
            set.remove("Colour"),
            Some(PropertyValue::String("blue".into()))
        );
        assert_eq!(set.get("Colour"), None);
    }

    #[test]
    fn folders_round_trip_every_type() {
        let mut set = MessageProperties::new();
        let values = [
            ("b", PropertyValue::Boolean(true)),
            ("bytes", PropertyValue::ByteString(vec![0, 0xAB, 0xFF])),
            ("i1", PropertyValue::Int8(-128)),
            ("i2", PropertyValue::Int16(32767)),
            ("i4", PropertyValue::Int32(-5)),
            ("i8", PropertyValue::Int64(i64::MIN)),
            ("r4", PropertyValue::Float32(1.5)),
            ("r8", PropertyValue::Float64(-2.25e-300)),
            ("inf", PropertyValue::Float64(f64::INFINITY)),
            ("s", PropertyValue::String("a<b>&'\"".into())),
            ("empty", PropertyValue::String(String::new())),
            ("n", PropertyValue::Null),
            ("Order.Colour", PropertyValue::String("red".into())),
            ("Order.Size", PropertyValue::Int32(9)),
            ("mcd.Msd", PropertyValue::String("jms_text".into())),
            ("mqps.Top", PropertyValue::String("a/b".into())),
        ];
        for (name, value) in values.iter().cloned() {
            set.set(name, value).unwrap();
        }
        let folders = set.to_folders();
        let names: Vec<_> = folders.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["usr", "mcd", "mqps"]);
        let xml = folders[0].to_xml();
        assert!(xml.contains("<b dt='boolean'>1</b>"), "{xml}");
        assert!(xml.contains("<bytes dt='bin.hex'>00ABFF</bytes>"), "{xml}");
        assert!(xml.contains("<r8 dt='r8'>-2.25E-300</r8>"), "{xml}");
        assert!(xml.contains("<inf dt='r8'>Infinity</inf>"), "{xml}");
        assert!(xml.contains("<n xsi:nil='true'></n>"), "{xml}");
        assert!(
            xml.contains("<Order><Colour>red</Colour><Size dt='i4'>9</Size></Order>"),
            "{xml}"
        );
        let reparsed: Vec<Folder> = folders
            .iter()
            .map(|f| Folder::parse(&f.to_xml()).unwrap())
            .collect();
        let (back, others) = MessageProperties::from_folders(&reparsed).unwrap();
        assert!(others.is_empty());
        assert_eq!(back, set);
    }

    #[test]
    fn inquire_with_wildcards_and_cursor() {
        let mut set = MessageProperties::new();
        for name in ["Order.Id", "Colour", "Order.Size"] {
            set.set(name, PropertyValue::Int32(1)).unwrap();
        }
        assert_eq!(set.inquire("Colour", 0).map(|f| f.0), Some(1));
        assert_eq!(set.inquire("usr.Colour", 0).map(|f| f.0), Some(1));
        let first = set.inquire("Order.%", 0).unwrap();
        assert_eq!((first.0, first.1), (0, "Order.Id"));
        let next = set.inquire("Order.%", first.0 + 1).unwrap();
        assert_eq!(next.1, "Order.Size");
        assert_eq!(set.inquire("Order.%", next.0 + 1), None);
        assert_eq!(set.inquire("%", 0).map(|f| f.1), Some("Order.Id"));
        assert_eq!(set.inquire("Missing", 0), None);
    }

    #[test]
    fn conversions_follow_mqinqmp() {
        use PropertyValue as P;
        let convert = |v: P, t| v.convert(t);
        assert_eq!(convert(P::Int32(5), MQTYPE_INT8), Ok(P::Int8(5)));
        assert_eq!(
            convert(P::Int32(300), MQTYPE_INT8)
                .unwrap_err()
                .reason_code(),
            2469
        );
        assert_eq!(convert(P::Int8(-3), MQTYPE_INT64), Ok(P::Int64(-3)));
        assert_eq!(convert(P::Int16(7), MQTYPE_FLOAT64), Ok(P::Float64(7.0)));
        assert_eq!(
            convert(P::Int64(42), MQTYPE_STRING),
            Ok(P::String("42".into()))
        );
        assert_eq!(
            convert(P::String(" 42 ".into()), MQTYPE_INT16),
            Ok(P::Int16(42))
        );
        assert_eq!(
            convert(P::String("x".into()), MQTYPE_INT32)
                .unwrap_err()
                .reason_code(),
            2472
        );
        assert_eq!(
            convert(P::String("TRUE".into()), MQTYPE_BOOLEAN),
            Ok(P::Boolean(true))
        );
        assert_eq!(
            convert(P::Boolean(false), MQTYPE_STRING),
            Ok(P::String("FALSE".into()))
        );
        assert_eq!(
            convert(P::ByteString(vec![1, 0xAB]), MQTYPE_STRING),
            Ok(P::String("01AB".into()))
        );
        assert_eq!(
            convert(P::String("01ab".into()), MQTYPE_BYTE_STRING),
            Ok(P::ByteString(vec![1, 0xAB]))
        );
        assert_eq!(
            convert(P::Float32(1.5), MQTYPE_FLOAT64),
            Ok(P::Float64(1.5))
        );
        assert_eq!(
            convert(P::String("2.5".into()), MQTYPE_FLOAT32),
            Ok(P::Float32(2.5))
        );
        assert_eq!(
            convert(P::Null, MQTYPE_INT32).unwrap_err().reason_code(),
            2470
        );
        assert_eq!(convert(P::Null, MQTYPE_NULL), Ok(P::Null));
        assert_eq!(
            convert(P::Boolean(true), MQTYPE_INT32)
                .unwrap_err()
                .reason_code(),
            2470
        );
        assert_eq!(
            convert(P::Float64(1.0), MQTYPE_INT32)
                .unwrap_err()
                .reason_code(),
            2470
        );
    }

    #[test]
    fn non_property_folders_are_kept_apart() {
        let folders = [
            Folder::parse("<psc><Command>RegSub</Command></psc>").unwrap(),
            Folder::parse("<app content='properties'><x dt='int'>7</x></app>").unwrap(),
        ];
        let (set, others) = MessageProperties::from_folders(&folders).unwrap();
        assert_eq!(others, folders[..1].to_vec());
        assert_eq!(set.get("app.x"), Some(&PropertyValue::Int64(7)));
    }

    #[test]
    fn bad_values_and_duplicates_are_rfh_format_errors() {
        for xml in [
            "<usr><a dt='i1'>128</a></usr>",
            "<usr><a dt='i4'>x</a></usr>",
            "<usr><a dt='boolean'>yes</a></usr>",
            "<usr><a dt='bin.hex'>ABC</a></usr>",
            "<usr><a dt='r8'>nan</a></usr>",
            "<usr><a dt='date'>2024</a></usr>",
            "<usr><a>1</a><a>2</a></usr>",
        ] {
            let folder = Folder::parse(xml).unwrap();
            let error = MessageProperties::from_folders(&[folder]).unwrap_err();
            assert_eq!(error.reason_code(), 2421, "{xml}: {error}");
        }
    }
}
