//! Evaluation of a parsed selector against a message, with SQL's three-valued logic.
//!
//! A value is `None` when it is NULL (an absent property, a NULL property) or UNKNOWN (the
//! result of an operation on NULL, of comparing mismatched types, of integer division by zero or
//! overflow). Numbers promote as in Java: an integer operand with a float operand gives a
//! float; integers of any width compare as 64-bit. Strings, booleans and byte strings compare
//! with `=` and `<>` only; `<`, `>` on them is UNKNOWN. A message is selected only if the
//! selector is TRUE.

use std::borrow::Cow;
use std::cmp::Ordering;

use ferrite_constants::ids::MQCI_NONE;

use super::parser::{Arithmetic, Comparison, Expression, Literal, PatternPart};
use crate::codec::trimmed;
use crate::jms::{id_hex_bytes, selector_value};
use crate::properties::{PropertySource, PropertyValue};

/// A non-NULL value during evaluation.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value<'a> {
    Boolean(bool),
    Integer(i64),
    Float(f64),
    String(Cow<'a, str>),
    Bytes(Cow<'a, [u8]>),
}

impl<'a> Value<'a> {
    fn of_literal(literal: &'a Literal) -> Value<'a> {
        match literal {
            Literal::Boolean(b) => Value::Boolean(*b),
            Literal::Integer(v) => Value::Integer(*v),
            Literal::Float(v) => Value::Float(*v),
            Literal::String(s) => Value::String(Cow::Borrowed(s)),
            Literal::Bytes(b) => Value::Bytes(Cow::Borrowed(b)),
        }
    }

    fn of_property(value: Cow<'a, PropertyValue>) -> Option<Value<'a>> {
        Some(match value {
            Cow::Borrowed(value) => match value {
                PropertyValue::String(s) => Value::String(Cow::Borrowed(s)),
                PropertyValue::ByteString(b) => Value::Bytes(Cow::Borrowed(b)),
                other => Value::of_scalar(other)?,
            },
            Cow::Owned(value) => match value {
                PropertyValue::String(s) => Value::String(Cow::Owned(s)),
                PropertyValue::ByteString(b) => Value::Bytes(Cow::Owned(b)),
                other => Value::of_scalar(&other)?,
            },
        })
    }

    fn of_scalar(value: &PropertyValue) -> Option<Value<'static>> {
        Some(match value {
            PropertyValue::Boolean(b) => Value::Boolean(*b),
            PropertyValue::Int8(v) => Value::Integer(i64::from(*v)),
            PropertyValue::Int16(v) => Value::Integer(i64::from(*v)),
            PropertyValue::Int32(v) => Value::Integer(i64::from(*v)),
            PropertyValue::Int64(v) => Value::Integer(*v),
            PropertyValue::Float32(v) => Value::Float(f64::from(*v)),
            PropertyValue::Float64(v) => Value::Float(*v),
            PropertyValue::Null | PropertyValue::String(_) | PropertyValue::ByteString(_) => {
                return None
            }
        })
    }
}

/// The value of identifier `name` for the message: a JMS name through [`crate::jms`], a
/// `Root.MQMD.<Field>` from the descriptor, or a property.
fn identifier<'a>(source: &'a impl PropertySource, name: &str) -> Option<Value<'a>> {
    if let Some(value) = selector_value(source, name) {
        return Value::of_property(Cow::Owned(value?));
    }
    if let Some(field) = name.strip_prefix("Root.MQMD.") {
        return descriptor_field(source, field);
    }
    Value::of_property(Cow::Borrowed(source.property(name)?))
}

/// `Root.MQMD.<field>`: the MQMD fields by their MQ names.
fn descriptor_field<'a>(source: &'a impl PropertySource, field: &str) -> Option<Value<'a>> {
    let md = source.descriptor();
    let bytes = |b: &'a [u8]| Some(Value::Bytes(Cow::Borrowed(b)));
    let text = |b: &[u8]| Some(Value::String(Cow::Owned(trimmed(b))));
    let integer = |v: i32| Some(Value::Integer(i64::from(v)));
    match field {
        "MsgId" => bytes(&md.msg_id),
        "CorrelId" => bytes(&md.correl_id),
        "GroupId" => bytes(&md.group_id),
        "AccountingToken" => bytes(&md.accounting_token),
        "Report" => integer(md.report),
        "MsgType" => integer(md.msg_type),
        "Expiry" => integer(md.expiry),
        "Feedback" => integer(md.feedback),
        "Encoding" => integer(md.encoding),
        "CodedCharSetId" => integer(md.coded_char_set_id),
        "Priority" => integer(md.priority),
        "Persistence" => integer(md.persistence),
        "BackoutCount" => integer(md.backout_count),
        "PutApplType" => integer(md.put_appl_type),
        "MsgSeqNumber" => integer(md.msg_seq_number),
        "Offset" => integer(md.offset),
        "MsgFlags" => integer(md.msg_flags),
        "OriginalLength" => integer(md.original_length),
        "Format" => text(&md.format.0),
        "ReplyToQ" => text(&md.reply_to_q.0),
        "ReplyToQMgr" => text(&md.reply_to_q_mgr.0),
        "UserIdentifier" => text(&md.user_identifier.0),
        "ApplIdentityData" => text(&md.appl_identity_data.0),
        "PutApplName" => text(&md.put_appl_name.0),
        "PutDate" => text(&md.put_date.0),
        "PutTime" => text(&md.put_time.0),
        "ApplOriginData" => text(&md.appl_origin_data.0),
        _ => None,
    }
}

/// Evaluates a condition: `Some(true)`, `Some(false)` or `None` (UNKNOWN).
pub(super) fn truth(expression: &Expression, source: &impl PropertySource) -> Option<bool> {
    match expression {
        Expression::Not(inner) => truth(inner, source).map(|b| !b),
        Expression::And(terms) => {
            let mut unknown = false;
            for term in terms {
                match truth(term, source) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            (!unknown).then_some(true)
        }
        Expression::Or(terms) => {
            let mut unknown = false;
            for term in terms {
                match truth(term, source) {
                    Some(true) => return Some(true),
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            (!unknown).then_some(false)
        }
        Expression::Compare(comparison, left, right) => {
            let left = value(left, source)?;
            let right = value(right, source)?;
            compare(*comparison, &left, &right)
        }
        Expression::CorrelationIdEquals {
            literal,
            key,
            negated,
        } => correlation_id_equals(source, literal, key).map(|b| b != *negated),
        Expression::Between {
            value: tested,
            low,
            high,
            negated,
        } => {
            let tested = value(tested, source);
            let above = tested
                .as_ref()
                .zip(value(low, source))
                .and_then(|(v, low)| compare(Comparison::GreaterEqual, v, &low));
            let below = tested
                .as_ref()
                .zip(value(high, source))
                .and_then(|(v, high)| compare(Comparison::LessEqual, v, &high));
            let inside = match (above, below) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
            inside.map(|b| b != *negated)
        }
        Expression::In {
            identifier: name,
            list,
            negated,
        } => {
            let tested = identifier(source, name)?;
            let mut unknown = false;
            for item in list {
                match compare(Comparison::Equal, &tested, &Value::of_literal(item)) {
                    Some(true) => return Some(!*negated),
                    None => unknown = true,
                    Some(false) => {}
                }
            }
            (!unknown).then_some(*negated)
        }
        Expression::Like {
            identifier: name,
            pattern,
            negated,
        } => match identifier(source, name)? {
            Value::String(text) => Some(like(&text, pattern) != *negated),
            _ => None,
        },
        Expression::IsNull {
            identifier: name,
            negated,
        } => Some(identifier(source, name).is_none() != *negated),
        Expression::Literal(_)
        | Expression::Identifier(_)
        | Expression::Negate(_)
        | Expression::Arithmetic(..) => match value(expression, source)? {
            Value::Boolean(b) => Some(b),
            _ => None,
        },
    }
}

/// `JMSCorrelationID = literal` as MQ JMS maps it: the `jms.Cid` string when the message has
/// one, else the MQMD CorrelId against the literal's bytes (see `jms::correlation_id_bytes`).
fn correlation_id_equals(
    source: &impl PropertySource,
    literal: &str,
    key: &[u8; 24],
) -> Option<bool> {
    if let Some(PropertyValue::String(cid)) = source.property("jms.Cid") {
        return Some(cid == literal);
    }
    let correl_id = &source.descriptor().correl_id;
    if *correl_id == MQCI_NONE {
        return None;
    }
    if id_hex_bytes(literal).is_some() || literal.len() <= 24 {
        Some(correl_id == key)
    } else {
        Some(false)
    }
}

/// Evaluates a value expression; `None` is NULL or UNKNOWN.
fn value<'a>(expression: &'a Expression, source: &'a impl PropertySource) -> Option<Value<'a>> {
    match expression {
        Expression::Literal(literal) => Some(Value::of_literal(literal)),
        Expression::Identifier(name) => identifier(source, name),
        Expression::Negate(inner) => match value(inner, source)? {
            Value::Integer(v) => v.checked_neg().map(Value::Integer),
            Value::Float(v) => Some(Value::Float(-v)),
            _ => None,
        },
        Expression::Arithmetic(operator, left, right) => {
            arithmetic(*operator, value(left, source)?, value(right, source)?)
        }
        condition => truth(condition, source).map(Value::Boolean),
    }
}

fn arithmetic(operator: Arithmetic, left: Value<'_>, right: Value<'_>) -> Option<Value<'static>> {
    match (left, right) {
        (Value::Integer(a), Value::Integer(b)) => match operator {
            Arithmetic::Add => a.checked_add(b),
            Arithmetic::Subtract => a.checked_sub(b),
            Arithmetic::Multiply => a.checked_mul(b),
            Arithmetic::Divide => a.checked_div(b),
        }
        .map(Value::Integer),
        (a, b) => {
            let (a, b) = (as_float(&a)?, as_float(&b)?);
            Some(Value::Float(match operator {
                Arithmetic::Add => a + b,
                Arithmetic::Subtract => a - b,
                Arithmetic::Multiply => a * b,
                Arithmetic::Divide => a / b,
            }))
        }
    }
}

fn as_float(value: &Value<'_>) -> Option<f64> {
    match value {
        Value::Integer(v) => Some(*v as f64),
        Value::Float(v) => Some(*v),
        _ => None,
    }
}

fn compare(comparison: Comparison, left: &Value<'_>, right: &Value<'_>) -> Option<bool> {
    let ordering = match (left, right) {
        (Value::Integer(a), Value::Integer(b)) => a.cmp(b),
        (Value::Integer(_) | Value::Float(_), Value::Integer(_) | Value::Float(_)) => {
            // NaN is unordered: every comparison with it is false, except <>.
            match as_float(left)?.partial_cmp(&as_float(right)?) {
                Some(ordering) => ordering,
                None => return Some(comparison == Comparison::NotEqual),
            }
        }
        (Value::String(a), Value::String(b)) => return equality(comparison, a == b),
        (Value::Boolean(a), Value::Boolean(b)) => return equality(comparison, a == b),
        (Value::Bytes(a), Value::Bytes(b)) => return equality(comparison, a == b),
        _ => return None,
    };
    Some(match comparison {
        Comparison::Equal => ordering == Ordering::Equal,
        Comparison::NotEqual => ordering != Ordering::Equal,
        Comparison::Less => ordering == Ordering::Less,
        Comparison::LessEqual => ordering != Ordering::Greater,
        Comparison::Greater => ordering == Ordering::Greater,
        Comparison::GreaterEqual => ordering != Ordering::Less,
    })
}

fn equality(comparison: Comparison, equal: bool) -> Option<bool> {
    match comparison {
        Comparison::Equal => Some(equal),
        Comparison::NotEqual => Some(!equal),
        _ => None,
    }
}

/// Matches `text` against a compiled LIKE pattern. Linear in practice: on a mismatch it
/// backtracks only to the last `%` (the classic wildcard algorithm), so the cost is at most
/// O(text × pattern).
fn like(text: &str, pattern: &[PatternPart]) -> bool {
    let text: Vec<char> = text.chars().collect();
    let (mut t, mut p) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(PatternPart::AnyMany) => {
                backtrack = Some((p, t));
                p += 1;
                continue;
            }
            Some(PatternPart::AnyOne) => {
                t += 1;
                p += 1;
                continue;
            }
            Some(PatternPart::Character(c)) if *c == text[t] => {
                t += 1;
                p += 1;
                continue;
            }
            _ => {}
        }
        match backtrack {
            Some((star, matched)) => {
                p = star + 1;
                t = matched + 1;
                backtrack = Some((star, matched + 1));
            }
            None => return false,
        }
    }
    pattern[p..]
        .iter()
        .all(|part| *part == PatternPart::AnyMany)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(text: &str) -> Vec<PatternPart> {
        text.chars()
            .map(|c| match c {
                '%' => PatternPart::AnyMany,
                '_' => PatternPart::AnyOne,
                c => PatternPart::Character(c),
            })
            .collect()
    }

    #[test]
    fn like_patterns() {
        for (text, p, expected) in [
            ("123", "12%3", true),
            ("1234", "12%3", false),
            ("12993", "12%3", true),
            ("", "%", true),
            ("", "_", false),
            ("abc", "a_c", true),
            ("ac", "a_c", false),
            ("aXbXc", "%b%c", true),
            ("mississippi", "%iss%pi", true),
            ("mississippi", "%iss%pix", false),
        ] {
            assert_eq!(like(text, &pattern(p)), expected, "{text} LIKE {p}");
        }
    }

    #[test]
    fn comparisons_and_promotion() {
        use Comparison::*;
        let int = Value::Integer;
        let float = Value::Float;
        assert_eq!(compare(Equal, &int(3), &float(3.0)), Some(true));
        assert_eq!(compare(Less, &int(2), &float(2.5)), Some(true));
        assert_eq!(
            compare(Equal, &float(f64::NAN), &float(f64::NAN)),
            Some(false)
        );
        assert_eq!(compare(NotEqual, &float(f64::NAN), &int(1)), Some(true));
        let s = |t: &'static str| Value::String(Cow::Borrowed(t));
        assert_eq!(compare(Equal, &s("a"), &s("a")), Some(true));
        assert_eq!(compare(Less, &s("a"), &s("b")), None);
        assert_eq!(compare(Equal, &s("1"), &int(1)), None);
        assert_eq!(arithmetic(Arithmetic::Divide, int(7), int(2)), Some(int(3)));
        assert_eq!(arithmetic(Arithmetic::Divide, int(7), int(0)), None);
        assert_eq!(arithmetic(Arithmetic::Add, int(i64::MAX), int(1)), None);
        assert_eq!(
            arithmetic(Arithmetic::Divide, int(7), float(2.0)),
            Some(float(3.5))
        );
        assert_eq!(arithmetic(Arithmetic::Add, s("a"), int(1)), None);
    }
}
