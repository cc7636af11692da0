//! Wildcard subscriptions: which topic strings a subscription's topic string selects, in MQ's
//! two schemes (MQSD Options MQSO_WILDCARD_TOPIC, the default, or MQSO_WILDCARD_CHAR; MQSC
//! DEFINE SUB WSCHEMA(TOPIC|CHAR)), and WILDCARD(BLOCK) on administered topics.
//!
//! - **Topic-based**: `#` as a whole level matches zero or more levels (`a/#` matches `a`,
//!   `a/b`, `a/b/c`), `+` as a whole level exactly one level; within a level both are ordinary
//!   characters.
//! - **Character-based** (MQ V6's scheme): over the whole string, `/` included, `*` matches
//!   any number of characters and `?` exactly one; `%` makes the next character ordinary.
//!
//! Both matchers are the classic two-cursor glob match (the star's last position is
//! remembered and retried one step further), so a pattern costs at most
//! pattern units × topic units steps, however many wildcards it has.

use super::topic_string::{levels, MULTI_LEVEL_WILDCARD, SINGLE_LEVEL_WILDCARD};

/// A subscription's wildcard scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WildcardScheme {
    /// MQSO_WILDCARD_TOPIC, WSCHEMA(TOPIC): `#` and `+` as whole levels.
    Topic,
    /// MQSO_WILDCARD_CHAR, WSCHEMA(CHAR): `*`, `?` and the escape `%`.
    Character,
}

impl WildcardScheme {
    pub fn keyword(self) -> &'static str {
        match self {
            WildcardScheme::Topic => "TOPIC",
            WildcardScheme::Character => "CHAR",
        }
    }
}

/// One unit of a character-based pattern.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CharacterUnit {
    Any,
    One,
    Literal(char),
}

/// Whether `topic_string` (a publication's, never a wildcard) is selected by `pattern`.
pub fn matches(scheme: WildcardScheme, pattern: &str, topic_string: &str) -> bool {
    match scheme {
        WildcardScheme::Topic => {
            let pattern: Vec<&str> = levels(pattern).collect();
            let topic: Vec<&str> = levels(topic_string).collect();
            glob(
                &pattern,
                &topic,
                |unit| *unit == MULTI_LEVEL_WILDCARD,
                |unit, level| *unit == SINGLE_LEVEL_WILDCARD || unit == level,
            )
        }
        WildcardScheme::Character => {
            let pattern = character_units(pattern);
            let topic: Vec<char> = topic_string.chars().collect();
            glob(
                &pattern,
                &topic,
                |unit| *unit == CharacterUnit::Any,
                |unit, c| match unit {
                    CharacterUnit::One => true,
                    CharacterUnit::Literal(literal) => literal == c,
                    CharacterUnit::Any => unreachable!("stars are handled by glob"),
                },
            )
        }
    }
}

/// Whether `pattern` contains a wildcard of its scheme (a subscription without one selects its
/// own topic string only).
pub fn is_wildcard(scheme: WildcardScheme, pattern: &str) -> bool {
    literal_prefix_units(scheme, pattern).1
}

/// Whether WILDCARD(BLOCK) on the administered topic `blocked_topic_string` keeps a
/// publication from the wildcard subscription `pattern`: it does when the subscription's
/// first wildcard lies at or above the blocked node (`Price/#` is blocked by `Price/Fruit`;
/// `Price/Fruit/#` is not).
pub fn blocked_by(scheme: WildcardScheme, pattern: &str, blocked_topic_string: &str) -> bool {
    let (prefix, wildcard) = literal_prefix_units(scheme, pattern);
    if !wildcard {
        return false;
    }
    match scheme {
        WildcardScheme::Topic => levels(blocked_topic_string).count() > prefix,
        WildcardScheme::Character => blocked_topic_string.chars().count() >= prefix,
    }
}

/// How many leading units (levels, or characters) of `pattern` are literal, and whether a
/// wildcard follows them.
fn literal_prefix_units(scheme: WildcardScheme, pattern: &str) -> (usize, bool) {
    match scheme {
        WildcardScheme::Topic => {
            match levels(pattern)
                .position(|level| level == MULTI_LEVEL_WILDCARD || level == SINGLE_LEVEL_WILDCARD)
            {
                Some(position) => (position, true),
                None => (levels(pattern).count(), false),
            }
        }
        WildcardScheme::Character => {
            let units = character_units(pattern);
            match units
                .iter()
                .position(|unit| !matches!(unit, CharacterUnit::Literal(_)))
            {
                Some(position) => (position, true),
                None => (units.len(), false),
            }
        }
    }
}

fn character_units(pattern: &str) -> Vec<CharacterUnit> {
    let mut units = Vec::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        units.push(match c {
            '*' => CharacterUnit::Any,
            '?' => CharacterUnit::One,
            // A trailing escape stands for itself.
            '%' => CharacterUnit::Literal(chars.next().unwrap_or('%')),
            other => CharacterUnit::Literal(other),
        });
    }
    units
}

/// Glob matching of `topic` against `pattern`, whose units are stars (`is_star`) or match one
/// unit of the topic (`matches_one`).
fn glob<P, T>(
    pattern: &[P],
    topic: &[T],
    is_star: impl Fn(&P) -> bool,
    matches_one: impl Fn(&P, &T) -> bool,
) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < topic.len() {
        if p < pattern.len() && is_star(&pattern[p]) {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && matches_one(&pattern[p], &topic[t]) {
            p += 1;
            t += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(is_star)
}

#[cfg(test)]
mod tests {
    use super::*;
    use WildcardScheme::{Character, Topic};

    /// The V7.0 report's example tree (its wildcard section).
    const TREE: [&str; 6] = [
        "IBM/iSeries/MQ",
        "IBM/pSeries/MQ",
        "IBM/zSeries/zOS/MQ",
        "IBM/zSeries/zOS/CTS",
        "IBM/zSeries/zOS/DB2",
        "IBM/zSeries/zOS/Comms Server",
    ];

    fn selected(scheme: WildcardScheme, pattern: &str) -> Vec<&'static str> {
        TREE.into_iter()
            .filter(|topic| matches(scheme, pattern, topic))
            .collect()
    }

    #[test]
    fn topic_based_wildcards_over_the_reports_tree() {
        assert_eq!(selected(Topic, "IBM/zSeries/zOS/+").len(), 4);
        assert_eq!(selected(Topic, "IBM/#").len(), 6);
        assert_eq!(selected(Topic, "#").len(), 6);
        assert_eq!(
            selected(Topic, "IBM/+/MQ"),
            vec!["IBM/iSeries/MQ", "IBM/pSeries/MQ"]
        );
        assert_eq!(selected(Topic, "#/MQ").len(), 3);
        assert_eq!(selected(Topic, "IBM/#/DB2"), vec!["IBM/zSeries/zOS/DB2"]);
        assert_eq!(selected(Topic, "IBM/zSeries/+"), Vec::<&str>::new());
        assert_eq!(
            selected(Topic, "IBM/zSeries/zOS/MQ"),
            vec!["IBM/zSeries/zOS/MQ"]
        );
        // `#` matches zero levels; `+` exactly one, possibly empty.
        assert!(matches(Topic, "USA/#", "USA"));
        assert!(matches(Topic, "a/+/c", "a//c"));
        assert!(!matches(Topic, "a/+", "a"));
        // Inside a level they are ordinary characters.
        assert!(!matches(Topic, "a/b#", "a/bc"));
        assert!(matches(Topic, "a/b#", "a/b#"));
        assert!(matches(Topic, "#/#/#", "x"));
    }

    #[test]
    fn character_based_wildcards_over_the_reports_tree() {
        assert_eq!(selected(Character, "IBM/*").len(), 6);
        assert_eq!(selected(Character, "*MQ").len(), 3);
        assert_eq!(selected(Character, "IBM/?Series/MQ").len(), 2);
        assert_eq!(selected(Character, "IBM/zSeries/zOS/C*").len(), 2);
        assert_eq!(selected(Character, "IBM/zSeries/zOS/*S*").len(), 2);
        // `#` and `+` mean nothing here; `%` escapes.
        assert!(!matches(Character, "IBM/#", "IBM/iSeries/MQ"));
        assert!(matches(Character, "100%*", "100*"));
        assert!(!matches(Character, "100%*", "1000"));
        assert!(matches(Character, "a*b*c", "axxbyyc"));
        assert!(!matches(Character, "a*b*c", "axxbyy"));
    }

    #[test]
    fn wildcard_block_stops_subscriptions_whose_wildcard_is_above_the_node() {
        assert!(blocked_by(Topic, "Price/#", "Price/Fruit"));
        assert!(blocked_by(Topic, "#", "Price"));
        assert!(!blocked_by(Topic, "Price/Fruit/#", "Price/Fruit"));
        assert!(
            !blocked_by(Topic, "Price/Fruit", "Price/Fruit"),
            "not a wildcard"
        );
        assert!(blocked_by(Character, "Price/*", "Price/Fruit"));
        assert!(!blocked_by(Character, "Price/Fruit/*", "Price/Fruit"));
        assert!(is_wildcard(Topic, "a/+"));
        assert!(!is_wildcard(Topic, "a/b+"));
        assert!(is_wildcard(Character, "a?"));
        assert!(!is_wildcard(Character, "a%?"));
    }

    #[test]
    fn pathological_patterns_stay_linear_in_stars() {
        let topic = "a/".repeat(2_000) + "b";
        let pattern = "#/".repeat(50) + "c";
        assert!(!matches(Topic, &pattern, &topic));
        let pattern = "*a".repeat(100) + "c";
        assert!(!matches(Character, &pattern, &topic));
    }
}
