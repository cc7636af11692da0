//! Object definitions kept on page set 0 (the analogue of MQ's object records in PSID00).
//!
//! ## Stored image of an object definition, version 1
//! UTF-8 text: a first line `FERRITE-OBJECT 1 <type>`, then one `ATTRIBUTE=value` line per
//! attribute, values with `\` escapes for newline and backslash. Text keeps definitions readable
//! in log prints and lets later versions add attributes without a format change; unknown
//! attributes are refused so that nothing is silently dropped.

use crate::error::{StorageError, StorageResult};
use crate::types::PageSetId;

/// Maximum stored size of one object definition.
pub const OBJECT_IMAGE_BYTES_MAX: usize = 16 * 1024;

/// A local queue's definition: the attributes the storage engine needs, in MQ's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueDefinition {
    /// QUEUE name, 1–48 characters.
    pub name: String,
    /// DESCR.
    pub description: String,
    /// The page set its messages live on (resolved from STGCLASS → PSID).
    pub page_set: PageSetId,
    /// STGCLASS.
    pub storage_class: String,
    /// MAXDEPTH (0 – 999,999,999; MQ default 999,999,999).
    pub max_depth: u32,
    /// MAXMSGL (MQ default 4,194,304).
    pub max_message_length: u32,
    /// DEFPSIST(YES) is true.
    pub default_persistent: bool,
    /// DEFPRTY (0–9).
    pub default_priority: u8,
    /// INDXTYPE: NONE, MSGID, CORRELID, GROUPID, MSGTOKEN.
    pub index_type: String,
    /// PUT(DISABLED).
    pub put_inhibited: bool,
    /// GET(DISABLED).
    pub get_inhibited: bool,
}

impl QueueDefinition {
    /// A QLOCAL with MQ's defaults on `page_set`.
    pub fn local(name: &str, page_set: PageSetId) -> QueueDefinition {
        QueueDefinition {
            name: name.to_string(),
            description: String::new(),
            page_set,
            storage_class: "DEFAULT".to_string(),
            max_depth: 999_999_999,
            max_message_length: 4_194_304,
            default_persistent: false,
            default_priority: 0,
            index_type: "NONE".to_string(),
            put_inhibited: false,
            get_inhibited: false,
        }
    }

    pub fn validate(&self) -> StorageResult<()> {
        if self.name.is_empty()
            || self.name.len() > 48
            || !self.name.chars().all(crate::config::is_object_name_char)
        {
            return Err(StorageError::invalid(format!(
                "queue name '{}' is not a valid MQ object name",
                self.name
            )));
        }
        if self.default_priority > 9 {
            return Err(StorageError::invalid("DEFPRTY must be 0-9"));
        }
        if !["NONE", "MSGID", "CORRELID", "GROUPID", "MSGTOKEN"].contains(&self.index_type.as_str())
        {
            return Err(StorageError::invalid(format!(
                "INDXTYPE({}) is not valid",
                self.index_type
            )));
        }
        if self.max_depth > 999_999_999 || self.max_message_length > 104_857_600 {
            return Err(StorageError::invalid("MAXDEPTH or MAXMSGL out of range"));
        }
        Ok(())
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut text = String::from("FERRITE-OBJECT 1 QLOCAL\n");
        let mut line = |key: &str, value: &str| {
            text.push_str(key);
            text.push('=');
            text.push_str(&value.replace('\\', "\\\\").replace('\n', "\\n"));
            text.push('\n');
        };
        line("QUEUE", &self.name);
        line("DESCR", &self.description);
        line("PSID", &self.page_set.0.to_string());
        line("STGCLASS", &self.storage_class);
        line("MAXDEPTH", &self.max_depth.to_string());
        line("MAXMSGL", &self.max_message_length.to_string());
        line(
            "DEFPSIST",
            if self.default_persistent { "YES" } else { "NO" },
        );
        line("DEFPRTY", &self.default_priority.to_string());
        line("INDXTYPE", &self.index_type);
        line(
            "PUT",
            if self.put_inhibited {
                "DISABLED"
            } else {
                "ENABLED"
            },
        );
        line(
            "GET",
            if self.get_inhibited {
                "DISABLED"
            } else {
                "ENABLED"
            },
        );
        assert!(text.len() <= OBJECT_IMAGE_BYTES_MAX);
        text.into_bytes()
    }

    pub fn decode(image: &[u8]) -> StorageResult<QueueDefinition> {
        let bad =
            |detail: String| StorageError::invalid(format!("stored object definition: {detail}"));
        let text = std::str::from_utf8(image).map_err(|_| bad("not UTF-8".into()))?;
        // Split on `\n` only: `lines()` would also drop a `\r` that ends a value.
        let mut lines = text.split_terminator('\n');
        if lines.next() != Some("FERRITE-OBJECT 1 QLOCAL") {
            return Err(bad("unknown object type or version".into()));
        }
        let mut definition = QueueDefinition::local("X", PageSetId(0));
        definition.name.clear();
        for line in lines {
            let (key, raw) = line
                .split_once('=')
                .ok_or_else(|| bad(format!("line '{line}'")))?;
            let value = unescape(raw);
            let number = |value: &str| {
                value
                    .parse::<u32>()
                    .map_err(|_| bad(format!("{key}={value}")))
            };
            match key {
                "QUEUE" => definition.name = value,
                "DESCR" => definition.description = value,
                "PSID" => {
                    definition.page_set = PageSetId::new(number(&value)?.min(255) as u8)
                        .ok_or_else(|| bad(format!("PSID={value}")))?
                }
                "STGCLASS" => definition.storage_class = value,
                "MAXDEPTH" => definition.max_depth = number(&value)?,
                "MAXMSGL" => definition.max_message_length = number(&value)?,
                "DEFPSIST" => definition.default_persistent = value == "YES",
                "DEFPRTY" => definition.default_priority = number(&value)?.min(255) as u8,
                "INDXTYPE" => definition.index_type = value,
                "PUT" => definition.put_inhibited = value == "DISABLED",
                "GET" => definition.get_inhibited = value == "DISABLED",
                _ => return Err(bad(format!("unknown attribute {key}"))),
            }
        }
        definition.validate()?;
        Ok(definition)
    }
}

/// Undo `encode`'s escapes in one pass (`\\` is a backslash, `\n` a newline), so that a
/// value holding a backslash followed by `n` reads back as written.
fn unescape(raw: &str) -> String {
    let mut value = String::with_capacity(raw.len());
    let mut characters = raw.chars();
    while let Some(character) = characters.next() {
        if character != '\\' {
            value.push(character);
            continue;
        }
        match characters.next() {
            Some('n') => value.push('\n'),
            Some(other) => value.push(other),
            None => value.push('\\'),
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_round_trip() {
        let mut definition = QueueDefinition::local("APP.QUEUE.1", PageSetId(3));
        definition.description = "line one\nback\\slash".into();
        definition.index_type = "CORRELID".into();
        definition.default_persistent = true;
        assert_eq!(
            QueueDefinition::decode(&definition.encode()).unwrap(),
            definition
        );
        assert!(QueueDefinition::decode(b"FERRITE-OBJECT 1 QLOCAL\nBOGUS=1\n").is_err());
        assert!(QueueDefinition::decode(b"garbage").is_err());
    }
}
