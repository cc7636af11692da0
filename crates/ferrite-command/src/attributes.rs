//! Attribute values of displayed objects, attribute selection (ALL or named attributes) and
//! WHERE(keyword operator value) filters.

use crate::parser::{words, SyntaxError, Value};

/// A displayed attribute's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttributeValue {
    /// A number: compared numerically in WHERE.
    Integer(i64),
    /// A character string (names, DESCR): EQ/NE/LT/GT/LE/GE and LK/NL with generic values.
    Text(String),
    /// One of a set of keywords (PUT(ENABLED), DEFPSIST(NO)): EQ and NE only.
    Keyword(&'static str),
    /// No value to show (MSGAGE of an empty queue): shown as `( )`, never matches a filter.
    Blank,
    /// A pair shown as `(a, b)` (QTIME), blank when absent.
    Pair(Option<(u64, u64)>),
    /// A keyword shown alone, without the attribute's name (TRIGGER or NOTRIGGER, SHARE or
    /// NOSHARE); WHERE compares it with EQ and NE.
    Flag(&'static str),
}

impl AttributeValue {
    pub fn render(&self, name: &str) -> String {
        match self {
            AttributeValue::Integer(value) => format!("{name}({value})"),
            AttributeValue::Text(text) if text.is_empty() => format!("{name}( )"),
            AttributeValue::Text(text) => format!("{name}({text})"),
            AttributeValue::Keyword(keyword) => format!("{name}({keyword})"),
            AttributeValue::Blank => format!("{name}( )"),
            AttributeValue::Pair(Some((a, b))) => format!("{name}({a}, {b})"),
            AttributeValue::Pair(None) => format!("{name}( , )"),
            AttributeValue::Flag(keyword) => keyword.to_string(),
        }
    }
}

/// MQ's generic match: a trailing `*` matches any (possibly empty) rest.
pub fn generic_match(pattern: &str, value: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => value.starts_with(prefix),
        None => pattern == value,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    Eq,
    Ne,
    Gt,
    Lt,
    Ge,
    Le,
    Lk,
    Nl,
}

/// A parsed WHERE condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    pub attribute: &'static str,
    operator: Operator,
    value: FilterValue,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum FilterValue {
    Integer(i64),
    Text(String),
}

impl Filter {
    /// Parse `WHERE(keyword operator value)`. `attributes` are the filterable attributes of the
    /// object with a sample value of each (its kind decides which operators are allowed).
    pub fn parse(
        where_value: &Value,
        attributes: &[(&'static str, AttributeValue)],
    ) -> Result<Filter, SyntaxError> {
        let parts = words(&where_value.raw, where_value.position)?;
        if parts.len() != 3 {
            return Err(SyntaxError::new(
                "CSQ9004E 'WHERE' needs a filter keyword, an operator and a value",
                where_value.position,
            ));
        }
        let (keyword, _, keyword_position) = &parts[0];
        let (operator, _, operator_position) = &parts[1];
        let (value, quoted, value_position) = &parts[2];
        let Some((attribute, sample)) = attributes.iter().find(|(name, _)| name == keyword) else {
            return Err(SyntaxError::new(
                format!("CSQ9001E '{keyword}' is invalid"),
                *keyword_position,
            ));
        };
        let operator = match operator.as_str() {
            "EQ" => Operator::Eq,
            "NE" => Operator::Ne,
            "GT" => Operator::Gt,
            "LT" => Operator::Lt,
            "GE" => Operator::Ge,
            "LE" => Operator::Le,
            "LK" => Operator::Lk,
            "NL" => Operator::Nl,
            _ => {
                return Err(SyntaxError::new(
                    format!("CSQ9001E '{operator}' is invalid"),
                    *operator_position,
                ))
            }
        };
        let generic = matches!(operator, Operator::Lk | Operator::Nl);
        let not_valid = |why: &str| {
            SyntaxError::new(
                format!("CSQ9004E 'WHERE' value '{value}' is not valid: {why}"),
                *value_position,
            )
        };
        let value = match sample {
            AttributeValue::Integer(_) => {
                if generic {
                    return Err(not_valid("LK and NL need a character attribute"));
                }
                FilterValue::Integer(
                    value
                        .parse::<i64>()
                        .map_err(|_| not_valid("a number is needed"))?,
                )
            }
            AttributeValue::Keyword(_)
            | AttributeValue::Flag(_)
            | AttributeValue::Blank
            | AttributeValue::Pair(_) => {
                if !matches!(operator, Operator::Eq | Operator::Ne) {
                    return Err(not_valid("only EQ and NE apply to this attribute"));
                }
                FilterValue::Text(value.clone())
            }
            AttributeValue::Text(_) => {
                if !generic && value.ends_with('*') && !quoted {
                    return Err(not_valid("a generic value needs LK or NL"));
                }
                FilterValue::Text(value.clone())
            }
        };
        Ok(Filter {
            attribute,
            operator,
            value,
        })
    }

    /// Whether an object whose attribute has `actual` passes the filter.
    pub fn matches(&self, actual: &AttributeValue) -> bool {
        use std::cmp::Ordering;
        let ordering = match (actual, &self.value) {
            (AttributeValue::Integer(actual), FilterValue::Integer(wanted)) => actual.cmp(wanted),
            (AttributeValue::Text(actual), FilterValue::Text(wanted)) => match self.operator {
                Operator::Lk => return generic_match(wanted, actual),
                Operator::Nl => return !generic_match(wanted, actual),
                _ => actual.as_str().cmp(wanted.as_str()),
            },
            (
                AttributeValue::Keyword(actual) | AttributeValue::Flag(actual),
                FilterValue::Text(wanted),
            ) => actual.cmp(&wanted.as_str()),
            _ => return false,
        };
        match self.operator {
            Operator::Eq => ordering == Ordering::Equal,
            Operator::Ne => ordering != Ordering::Equal,
            Operator::Gt => ordering == Ordering::Greater,
            Operator::Lt => ordering == Ordering::Less,
            Operator::Ge => ordering != Ordering::Less,
            Operator::Le => ordering != Ordering::Greater,
            Operator::Lk | Operator::Nl => false,
        }
    }
}

/// CRDATE and CRTIME (with `created`: local queues) then ALTDATE and ALTTIME, blank: the
/// attribute builders list them so that DISPLAY accepts their names and WHERE; the callers
/// that show a real object fill them with [`fill_times`].
pub(crate) fn time_attributes(created: bool) -> Vec<(&'static str, AttributeValue)> {
    let names: &[&'static str] = if created {
        &["CRDATE", "CRTIME", "ALTDATE", "ALTTIME"]
    } else {
        &["ALTDATE", "ALTTIME"]
    };
    names
        .iter()
        .map(|name| (*name, AttributeValue::Blank))
        .collect()
}

/// Fill the time attributes of [`time_attributes`] with an object's times (a time of 0, not
/// recorded, stays blank).
pub(crate) fn fill_times(
    attributes: &mut [(&'static str, AttributeValue)],
    times: ferrite_queue_manager::ObjectTimes,
) {
    for (name, value) in attributes.iter_mut() {
        let (ms, clock) = match *name {
            "CRDATE" => (times.created_ms, false),
            "CRTIME" => (times.created_ms, true),
            "ALTDATE" => (times.altered_ms, false),
            "ALTTIME" => (times.altered_ms, true),
            _ => continue,
        };
        if ms != 0 {
            let (date, time) = date_time(ms);
            *value = AttributeValue::Text(if clock { time } else { date });
        }
    }
}

/// Date and time of `ms` since the Unix epoch, UTC, as MQ shows them: (`2024-01-31`,
/// `12.34.56`).
pub fn date_time(ms: u64) -> (String, String) {
    ferrite_mqi::descriptor::display_date_time(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn where_value(text: &str) -> Value {
        Value {
            text: text.to_uppercase(),
            raw: text.to_string(),
            position: 7,
        }
    }

    #[test]
    fn filters() {
        let attributes = [
            ("CURDEPTH", AttributeValue::Integer(0)),
            ("DESCR", AttributeValue::Text(String::new())),
            ("PUT", AttributeValue::Keyword("ENABLED")),
        ];
        let filter = Filter::parse(&where_value("curdepth gt 5"), &attributes).unwrap();
        assert!(filter.matches(&AttributeValue::Integer(6)));
        assert!(!filter.matches(&AttributeValue::Integer(5)));
        let filter = Filter::parse(&where_value("DESCR LK 'App*'"), &attributes).unwrap();
        assert!(filter.matches(&AttributeValue::Text("Application".into())));
        assert!(!filter.matches(&AttributeValue::Text("APPLICATION".into())));
        let filter = Filter::parse(&where_value("DESCR NL 'App*'"), &attributes).unwrap();
        assert!(filter.matches(&AttributeValue::Text("other".into())));
        let filter = Filter::parse(&where_value("PUT EQ disabled"), &attributes).unwrap();
        assert!(filter.matches(&AttributeValue::Keyword("DISABLED")));
        assert!(!filter.matches(&AttributeValue::Keyword("ENABLED")));

        let error = Filter::parse(&where_value("CURDEPTH LK 5*"), &attributes).unwrap_err();
        assert!(error.message.starts_with("CSQ9004E"), "{error:?}");
        let error = Filter::parse(&where_value("NOSUCH EQ 1"), &attributes).unwrap_err();
        assert_eq!(error.message, "CSQ9001E 'NOSUCH' is invalid");
        assert_eq!(error.position, 7);
        let error = Filter::parse(&where_value("CURDEPTH XX 1"), &attributes).unwrap_err();
        assert_eq!(error.position, 16);
        assert!(Filter::parse(&where_value("PUT GT ENABLED"), &attributes).is_err());
        assert!(Filter::parse(&where_value("CURDEPTH GT"), &attributes).is_err());
    }

    #[test]
    fn dates() {
        assert_eq!(
            date_time(0),
            ("1970-01-01".to_string(), "00.00.00".to_string())
        );
        assert_eq!(
            date_time(1_709_210_096_000),
            ("2024-02-29".to_string(), "12.34.56".to_string())
        );
    }
}
