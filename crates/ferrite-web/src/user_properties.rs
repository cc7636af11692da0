//! The messaging REST API's `ibm-mq-usr` header: a message's user-defined properties (JMS
//! user properties, MQ's `usr` folder), set on a put and given back by a get or browse.
//!
//! The header is a comma-separated list of properties, each `name;value;type`; it may also
//! come as several headers. `type` is one of `string`, `boolean`, `byte`, `short`, `int`,
//! `long`, `float`, `double` (the JMS property types; MQTYPE_STRING, MQTYPE_BOOLEAN,
//! MQTYPE_INT8 to MQTYPE_INT64, MQTYPE_FLOAT32, MQTYPE_FLOAT64), `string` when it is left out.
//! A string value is in double quotes, where `\"` is a quote and `\\` a backslash (and `,`
//! and `;` are themselves); a boolean is `true` or `false`; numbers are decimal.
//!
//! ```text
//! ibm-mq-usr: region;"north, west";string,retries;3;int,urgent;true;boolean
//! ```
//!
//! A name is a JMS user property's: a Java identifier (letters, digits, `_`, `$`, not
//! starting with a digit), not one of the selector keywords, and not starting with `JMS`,
//! which JMS keeps for its own (2442 MQRC_PROPERTY_NAME_ERROR). A type that is none of the
//! above, or a value not of its type, is 2473 MQRC_PROPERTY_TYPE_ERROR.

use ferrite_constants::reason::{MQRC_PROPERTY_NAME_ERROR, MQRC_PROPERTY_TYPE_ERROR};
use ferrite_mqi::message_handles::PropertyValue;

/// The most user properties one request may set.
pub const USER_PROPERTIES_MAX: usize = 64;
/// The longest property name, characters (MQ's limit for a property name is 4095).
pub const USER_PROPERTY_NAME_LENGTH_MAX: usize = 4_095;

/// What is wrong with an `ibm-mq-usr` header: the MQ reason and what to tell the user.
#[derive(Debug, PartialEq, Eq)]
pub struct UserPropertyError {
    /// MQRC_PROPERTY_NAME_ERROR or MQRC_PROPERTY_TYPE_ERROR.
    pub reason: i32,
    /// The problem, naming the property.
    pub problem: String,
}

fn name_error(name: &str, problem: &str) -> UserPropertyError {
    UserPropertyError {
        reason: MQRC_PROPERTY_NAME_ERROR,
        problem: format!("the property name '{name}' {problem}"),
    }
}

fn type_error(name: &str, problem: String) -> UserPropertyError {
    UserPropertyError {
        reason: MQRC_PROPERTY_TYPE_ERROR,
        problem: format!("the property '{name}': {problem}"),
    }
}

/// The properties one or more `ibm-mq-usr` header values name, in order.
pub fn parse(values: &[&str]) -> Result<Vec<(String, PropertyValue)>, UserPropertyError> {
    let mut properties = Vec::new();
    for value in values {
        for item in split_outside_quotes(value, ',')? {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            if properties.len() == USER_PROPERTIES_MAX {
                return Err(type_error(
                    item,
                    format!("more than {USER_PROPERTIES_MAX} properties"),
                ));
            }
            properties.push(parse_property(item)?);
        }
    }
    Ok(properties)
}

/// `text` cut at each `separator` that is not inside a quoted string.
fn split_outside_quotes(text: &str, separator: char) -> Result<Vec<&str>, UserPropertyError> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (index, character) in text.char_indices() {
        match character {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ if character == separator && !quoted => {
                parts.push(&text[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err(type_error(
            text,
            "a quoted string has no closing quote".into(),
        ));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

fn parse_property(item: &str) -> Result<(String, PropertyValue), UserPropertyError> {
    let parts = split_outside_quotes(item, ';')?;
    let (name, value, kind) = match parts.as_slice() {
        [name, value] => (name.trim(), value.trim(), "string"),
        [name, value, kind] => (name.trim(), value.trim(), kind.trim()),
        _ => {
            return Err(type_error(
                item,
                "a property is name;value;type".to_string(),
            ))
        }
    };
    check_name(name)?;
    Ok((name.to_string(), parse_value(name, value, kind)?))
}

/// A JMS user property's name: a Java identifier, no selector keyword, no `JMS` prefix.
fn check_name(name: &str) -> Result<(), UserPropertyError> {
    let mut characters = name.chars();
    match characters.next() {
        None => return Err(name_error(name, "is empty")),
        Some(first) if !(first.is_alphabetic() || first == '_' || first == '$') => {
            return Err(name_error(name, "must start with a letter, '_' or '$'"))
        }
        Some(_) => {}
    }
    if !characters.all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return Err(name_error(
            name,
            "may hold only letters, digits, '_' and '$'",
        ));
    }
    if name.chars().count() > USER_PROPERTY_NAME_LENGTH_MAX {
        return Err(name_error(name, "is too long"));
    }
    if name.starts_with("JMS") {
        return Err(name_error(
            name,
            "starts with JMS, which JMS keeps for its own",
        ));
    }
    if is_selector_keyword(name) {
        return Err(name_error(name, "is a selector keyword"));
    }
    Ok(())
}

/// The selector keywords, which no property may be called (any case).
fn is_selector_keyword(name: &str) -> bool {
    const RESERVED_WORDS: [&str; 11] = [
        "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE",
    ];
    RESERVED_WORDS
        .iter()
        .any(|word| word.eq_ignore_ascii_case(name))
}

fn parse_value(name: &str, text: &str, kind: &str) -> Result<PropertyValue, UserPropertyError> {
    let not_a = |what: &str| type_error(name, format!("'{text}' is not {what}"));
    let number = |what: &str| -> Result<&str, UserPropertyError> {
        if text.starts_with('"') {
            Err(not_a(what))
        } else {
            Ok(text)
        }
    };
    Ok(match kind {
        "string" => PropertyValue::String(unquote(text).ok_or_else(|| not_a("a quoted string"))?),
        "boolean" => match text {
            "true" => PropertyValue::Boolean(true),
            "false" => PropertyValue::Boolean(false),
            _ => return Err(not_a("true or false")),
        },
        "byte" => PropertyValue::Int8(number("a byte")?.parse().map_err(|_| not_a("a byte"))?),
        "short" => PropertyValue::Int16(number("a short")?.parse().map_err(|_| not_a("a short"))?),
        "int" => PropertyValue::Int32(number("an int")?.parse().map_err(|_| not_a("an int"))?),
        "long" => PropertyValue::Int64(number("a long")?.parse().map_err(|_| not_a("a long"))?),
        "float" => PropertyValue::Float32(
            finite(number("a float")?.parse::<f32>().ok()).ok_or_else(|| not_a("a float"))?,
        ),
        "double" => PropertyValue::Float64(
            finite(number("a double")?.parse::<f64>().ok()).ok_or_else(|| not_a("a double"))?,
        ),
        other => {
            return Err(type_error(
                name,
                format!(
                "'{other}' is not a type (string, boolean, byte, short, int, long, float, double)"
            ),
            ))
        }
    })
}

/// Only finite numbers: JMS has no text for the others in this header.
fn finite<T: Into<f64> + Copy>(value: Option<T>) -> Option<T> {
    value.filter(|value| (*value).into().is_finite())
}

/// The text of a quoted string, its escapes undone; `None` when it is not one.
fn unquote(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(inner.len());
    let mut characters = inner.chars();
    while let Some(character) = characters.next() {
        match character {
            '\\' => value.push(characters.next()?),
            '"' => return None,
            _ => value.push(character),
        }
    }
    Some(value)
}

/// A property as the header gives it back: `name;value;type`; `None` for a type the header
/// has no name for (byte strings, null) or a string an HTTP header cannot carry.
pub fn format_property(name: &str, value: &PropertyValue) -> Option<String> {
    let (text, kind) = match value {
        PropertyValue::String(text) => {
            if text.chars().any(|c| c.is_control() && c != '\t') {
                return None;
            }
            (quote(text), "string")
        }
        PropertyValue::Boolean(value) => (value.to_string(), "boolean"),
        PropertyValue::Int8(value) => (value.to_string(), "byte"),
        PropertyValue::Int16(value) => (value.to_string(), "short"),
        PropertyValue::Int32(value) => (value.to_string(), "int"),
        PropertyValue::Int64(value) => (value.to_string(), "long"),
        PropertyValue::Float32(value) => (value.to_string(), "float"),
        PropertyValue::Float64(value) => (value.to_string(), "double"),
        PropertyValue::ByteString(_) | PropertyValue::Null => return None,
    };
    Some(format!("{name};{text};{kind}"))
}

fn quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for character in text.chars() {
        if matches!(character, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(character);
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_is_read_and_given_back_in_the_same_form() {
        let header = r#"region;"north, west; \"up\"";string,retries;3;int,urgent;true;boolean,small;-8;byte,mid;300;short,big;9000000000;long,ratio;0.5;float,exact;2.25;double,plain;"x""#;
        let properties = parse(&[header]).unwrap();
        assert_eq!(
            properties,
            vec![
                (
                    "region".into(),
                    PropertyValue::String("north, west; \"up\"".into())
                ),
                ("retries".into(), PropertyValue::Int32(3)),
                ("urgent".into(), PropertyValue::Boolean(true)),
                ("small".into(), PropertyValue::Int8(-8)),
                ("mid".into(), PropertyValue::Int16(300)),
                ("big".into(), PropertyValue::Int64(9_000_000_000)),
                ("ratio".into(), PropertyValue::Float32(0.5)),
                ("exact".into(), PropertyValue::Float64(2.25)),
                ("plain".into(), PropertyValue::String("x".into())),
            ]
        );
        let given: Vec<String> = properties
            .iter()
            .map(|(name, value)| format_property(name, value).unwrap())
            .collect();
        assert_eq!(parse(&[&given.join(",")]).unwrap(), properties);
        assert_eq!(given[0], r#"region;"north, west; \"up\"";string"#);
        assert_eq!(
            format_property("b", &PropertyValue::ByteString(vec![1])),
            None
        );
        assert_eq!(
            format_property("s", &PropertyValue::String("a\nb".into())),
            None
        );
    }

    #[test]
    fn bad_names_types_and_values_have_their_reasons() {
        for name in ["", "1st", "a.b", "a-b", "JMSType", "null", "Between"] {
            let error = parse(&[&format!("{name};\"x\";string")]).unwrap_err();
            assert_eq!(error.reason, MQRC_PROPERTY_NAME_ERROR, "{name}: {error:?}");
        }
        for item in [
            "a;3;integer",
            "a;abc;int",
            "a;300;byte",
            "a;\"3\";int",
            "a;yes;boolean",
            "a;unquoted;string",
            "a;\"open;string",
            "a;1e999;double",
            "a",
            "a;1;int;extra",
        ] {
            let error = parse(&[item]).unwrap_err();
            assert_eq!(error.reason, MQRC_PROPERTY_TYPE_ERROR, "{item}: {error:?}");
        }
        let many: Vec<String> = (0..=USER_PROPERTIES_MAX)
            .map(|n| format!("p{n};1;int"))
            .collect();
        assert!(parse(&[&many.join(",")]).is_err());
        assert_eq!(parse(&["", " , "]).unwrap(), vec![]);
    }
}
