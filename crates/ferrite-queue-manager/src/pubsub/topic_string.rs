//! Topic strings: `/`-separated levels of up to [`TOPIC_STRING_LENGTH_MAX`] bytes of UTF-8,
//! as MQ's MQOD ObjectString, MQSD ObjectString and TOPICSTR carry them.
//!
//! Levels may be empty (`a//b`, a leading or trailing `/`): MQ accepts them, and they are
//! distinct from the strings without them. `#` and `+` are wildcards only as whole levels of a
//! subscription's topic-based scheme (`crate::pubsub::wildcards`); within a level they are
//! ordinary characters.

pub use crate::objects::topic::TOPIC_STRING_LENGTH_MAX;

/// The level separator.
pub const LEVEL_SEPARATOR: char = '/';

/// The multi-level wildcard of the topic-based scheme (zero or more whole levels).
pub const MULTI_LEVEL_WILDCARD: &str = "#";

/// The single-level wildcard of the topic-based scheme (exactly one level).
pub const SINGLE_LEVEL_WILDCARD: &str = "+";

/// Why a topic string is not valid, or `Ok` (MQRC_TOPIC_STRING_ERROR when an MQI call gives
/// one).
pub fn check_topic_string(topic_string: &str) -> Result<(), String> {
    if topic_string.len() > TOPIC_STRING_LENGTH_MAX {
        return Err(format!(
            "a topic string is at most {TOPIC_STRING_LENGTH_MAX} bytes ({} given)",
            topic_string.len()
        ));
    }
    if topic_string.contains('\0') {
        return Err("a topic string may not contain a NUL character".to_string());
    }
    Ok(())
}

/// The levels of a topic string (one empty level for the empty string).
pub fn levels(topic_string: &str) -> impl Iterator<Item = &str> {
    topic_string.split(LEVEL_SEPARATOR)
}

/// Whether any whole level is `#` or `+` (a subscription's topic-based wildcard; a publisher
/// may not use one).
pub fn has_wildcard_level(topic_string: &str) -> bool {
    levels(topic_string)
        .any(|level| level == MULTI_LEVEL_WILDCARD || level == SINGLE_LEVEL_WILDCARD)
}

/// The full topic string of an MQOPEN or MQSUB that names a topic object and/or gives a
/// topic string: the object's TOPICSTR, then `/`, then the string (either alone when the
/// other is blank), as MQ combines them.
pub fn combine(object_topic_string: &str, object_string: &str) -> String {
    match (object_topic_string.is_empty(), object_string.is_empty()) {
        (true, _) => object_string.to_string(),
        (false, true) => object_topic_string.to_string(),
        (false, false) => format!("{object_topic_string}{LEVEL_SEPARATOR}{object_string}"),
    }
}

/// The topic string and each of its ancestors, nearest first, ending with the root (`""`):
/// `a/b/c`, `a/b`, `a`, `""`.
pub fn ancestry(topic_string: &str) -> impl Iterator<Item = &str> {
    let cuts = topic_string
        .char_indices()
        .filter(|(_, c)| *c == LEVEL_SEPARATOR)
        .map(|(index, _)| index)
        .collect::<Vec<_>>();
    let whole = (!topic_string.is_empty()).then_some(topic_string);
    whole
        .into_iter()
        .chain(
            cuts.into_iter()
                .rev()
                .filter(|cut| *cut > 0)
                .map(move |cut| &topic_string[..cut]),
        )
        .chain(std::iter::once(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_checked_combined_and_walked_up() {
        assert!(check_topic_string(&"a".repeat(TOPIC_STRING_LENGTH_MAX)).is_ok());
        assert!(check_topic_string(&"a".repeat(TOPIC_STRING_LENGTH_MAX + 1)).is_err());
        assert!(check_topic_string("a\0b").is_err());
        assert_eq!(
            combine("Sports", "Football/Results"),
            "Sports/Football/Results"
        );
        assert_eq!(combine("", "x"), "x");
        assert_eq!(combine("x", ""), "x");
        assert_eq!(
            ancestry("a/b/c").collect::<Vec<_>>(),
            vec!["a/b/c", "a/b", "a", ""]
        );
        assert_eq!(ancestry("/a").collect::<Vec<_>>(), vec!["/a", ""]);
        assert_eq!(ancestry("").collect::<Vec<_>>(), vec![""]);
        assert_eq!(
            ancestry("a//b").collect::<Vec<_>>(),
            vec!["a//b", "a/", "a", ""]
        );
        assert!(has_wildcard_level("a/#"));
        assert!(has_wildcard_level("+"));
        assert!(!has_wildcard_level("a/b#/+c"));
    }
}
