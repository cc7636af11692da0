//! A first MQSC command processor over the storage engine: the commands an operator needs to
//! manage local queues and look at the engine (DEFINE/ALTER/DELETE/CLEAR/DISPLAY QLOCAL,
//! DISPLAY QSTATUS, DISPLAY USAGE, DISPLAY LOG, ARCHIVE LOG). Output follows MQ's style, with
//! message ids. A command is parsed completely before anything is changed, and a syntax error
//! names the token and its position.

use std::sync::Arc;

use ferrite_storage::queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::{PageSetId, StorageError};

/// Storage classes defined at creation, as MQ's supplied CSQ4INYS sample defines them.
pub const STORAGE_CLASSES: [(&str, u8); 4] = [
    ("SYSTEM", 0),
    ("DEFAULT", 1),
    ("NODEFINE", 1),
    ("REMOTE", 3),
];

pub fn storage_class_page_set(name: &str) -> Option<u8> {
    STORAGE_CLASSES
        .iter()
        .find(|(class, _)| *class == name)
        .map(|(_, page_set)| *page_set)
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    text: String,
    /// `Some` for a keyword with a parenthesised value: KEYWORD(value).
    value: Option<String>,
    position: usize,
}

/// Split a command into keywords and KEYWORD(value) pairs. Quoted values keep their case.
fn tokenize(command: &str) -> Result<Vec<Token>, String> {
    let characters: Vec<char> = command.chars().collect();
    let mut tokens = Vec::new();
    let mut index = 0;
    while index < characters.len() {
        if characters[index].is_whitespace() || characters[index] == ',' {
            index += 1;
            continue;
        }
        let start = index;
        let mut word = String::new();
        while index < characters.len()
            && !characters[index].is_whitespace()
            && characters[index] != '('
            && characters[index] != ','
        {
            if characters[index] == ')' {
                return Err(format!(
                    "CSQ9002E Unbalanced parentheses following '{word}' at position {}",
                    index + 1
                ));
            }
            word.push(characters[index].to_ascii_uppercase());
            index += 1;
        }
        let mut value = None;
        if index < characters.len() && characters[index] == '(' {
            index += 1;
            let mut text = String::new();
            let mut quoted = false;
            loop {
                if index >= characters.len() {
                    return Err(format!(
                        "CSQ9002E Unbalanced parentheses following '{word}' at position {}",
                        start + 1
                    ));
                }
                let character = characters[index];
                if character == '\'' {
                    if quoted && index + 1 < characters.len() && characters[index + 1] == '\'' {
                        text.push('\'');
                        index += 2;
                        continue;
                    }
                    quoted = !quoted;
                    index += 1;
                    continue;
                }
                if character == ')' && !quoted {
                    index += 1;
                    break;
                }
                text.push(if quoted {
                    character
                } else {
                    character.to_ascii_uppercase()
                });
                index += 1;
            }
            value = Some(text.trim().to_string());
        }
        if word.is_empty() {
            return Err(format!(
                "CSQ9001E Keyword missing at position {}",
                start + 1
            ));
        }
        tokens.push(Token {
            text: word,
            value,
            position: start + 1,
        });
    }
    Ok(tokens)
}

fn keyword_is(token: &Token, full: &str, minimum: usize) -> bool {
    token.text.len() >= minimum && full.starts_with(&token.text)
}

fn error_at(token: &Token, detail: &str) -> String {
    format!(
        "CSQ9003E {detail}: '{}' at position {}",
        token.text, token.position
    )
}

fn reason_message(queue_manager: &QueueManager, error: StorageError) -> String {
    format!(
        "CSQN205I {} COMMAND FAILED, REASON={:08X} ({error})",
        queue_manager.name(),
        error.reason_code()
    )
}

fn generic_match(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

fn display_queue(definition: &QueueDefinition, depth: u64) -> String {
    format!(
        "CSQM401I QLOCAL({}) TYPE(QLOCAL) DESCR({}) STGCLASS({}) PSID({:02}) MAXDEPTH({}) MAXMSGL({}) \
         DEFPSIST({}) DEFPRTY({}) INDXTYPE({}) PUT({}) GET({}) CURDEPTH({depth})",
        definition.name,
        definition.description,
        definition.storage_class,
        definition.page_set.0,
        definition.max_depth,
        definition.max_message_length,
        if definition.default_persistent { "YES" } else { "NO" },
        definition.default_priority,
        definition.index_type,
        if definition.put_inhibited { "DISABLED" } else { "ENABLED" },
        if definition.get_inhibited { "DISABLED" } else { "ENABLED" },
    )
}

/// Apply QLOCAL attribute tokens to a definition (all checked before any change is made).
fn apply_attributes(definition: &mut QueueDefinition, tokens: &[Token]) -> Result<bool, String> {
    let mut replace = false;
    for token in tokens {
        let value = || {
            token
                .value
                .clone()
                .ok_or_else(|| error_at(token, "Value missing"))
        };
        let number = |limit: u64| -> Result<u64, String> {
            let text = value()?;
            text.parse::<u64>()
                .ok()
                .filter(|n| *n <= limit)
                .ok_or_else(|| error_at(token, "Value not valid"))
        };
        match token.text.as_str() {
            "DESCR" => definition.description = value()?,
            "STGCLASS" => {
                let class = value()?;
                let page_set = storage_class_page_set(&class)
                    .ok_or_else(|| error_at(token, "Storage class not defined"))?;
                definition.storage_class = class;
                definition.page_set = PageSetId(page_set);
            }
            "MAXDEPTH" => definition.max_depth = number(999_999_999)? as u32,
            "MAXMSGL" => definition.max_message_length = number(104_857_600)? as u32,
            "DEFPSIST" => {
                definition.default_persistent = match value()?.as_str() {
                    "YES" => true,
                    "NO" => false,
                    _ => return Err(error_at(token, "Value not valid")),
                }
            }
            "DEFPRTY" => definition.default_priority = number(9)? as u8,
            "INDXTYPE" => {
                let index = value()?;
                if !["NONE", "MSGID", "CORRELID", "GROUPID", "MSGTOKEN"].contains(&index.as_str()) {
                    return Err(error_at(token, "Value not valid"));
                }
                definition.index_type = index;
            }
            "PUT" | "GET" => {
                let disabled = match value()?.as_str() {
                    "ENABLED" => false,
                    "DISABLED" => true,
                    _ => return Err(error_at(token, "Value not valid")),
                };
                if token.text == "PUT" {
                    definition.put_inhibited = disabled;
                } else {
                    definition.get_inhibited = disabled;
                }
            }
            "REPLACE" => replace = true,
            "NOREPLACE" => replace = false,
            _ => return Err(error_at(token, "Keyword not valid for this command")),
        }
    }
    Ok(replace)
}

/// Run one MQSC command; returns the response lines.
pub fn run_command(queue_manager: &Arc<QueueManager>, command: &str) -> Result<String, String> {
    let tokens = tokenize(command)?;
    let Some(verb) = tokens.first() else {
        return Ok(String::new());
    };
    let object = tokens.get(1);
    let name = queue_manager.name().to_string();
    let object_is =
        |full: &str, minimum: usize| object.is_some_and(|token| keyword_is(token, full, minimum));
    let verb_is = |full: &str, minimum: usize| keyword_is(verb, full, minimum);

    if (verb_is("DEFINE", 3) || verb_is("ALTER", 3))
        && (object_is("QLOCAL", 2) || object_is("QL", 2))
    {
        let object = object.unwrap();
        let queue_name = object
            .value
            .clone()
            .ok_or_else(|| error_at(object, "Queue name missing"))?;
        let existing = queue_manager
            .queue(&queue_name)
            .map(|queue| queue.definition());
        let mut definition = match (&existing, verb_is("ALTER", 3)) {
            (Some(current), true) => current.clone(),
            (None, true) => {
                return Err(format!(
                    "CSQM125I {name} QLOCAL({queue_name}) WAS NOT FOUND"
                ))
            }
            _ => QueueDefinition::local(
                &queue_name,
                PageSetId(storage_class_page_set("DEFAULT").unwrap()),
            ),
        };
        let replace = apply_attributes(&mut definition, &tokens[2..])?;
        definition
            .validate()
            .map_err(|error| reason_message(queue_manager, error))?;
        if verb_is("ALTER", 3) {
            queue_manager
                .alter_queue(definition)
                .map_err(|error| reason_message(queue_manager, error))?;
        } else {
            if existing.is_some() && !replace {
                return Err(format!(
                    "CSQM095I {name} QLOCAL({queue_name}) ALREADY EXISTS"
                ));
            }
            queue_manager
                .define_queue(definition, replace)
                .map_err(|error| reason_message(queue_manager, error))?;
        }
        return Ok(format!(
            "CSQ9022I {name} CSQMMSGP ' {} QLOCAL' NORMAL COMPLETION",
            verb.text
        ));
    }
    if verb_is("DELETE", 3) && object_is("QLOCAL", 2) {
        let object = object.unwrap();
        let queue_name = object
            .value
            .clone()
            .ok_or_else(|| error_at(object, "Queue name missing"))?;
        let mut purge = false;
        for token in &tokens[2..] {
            match token.text.as_str() {
                "PURGE" => purge = true,
                "NOPURGE" => purge = false,
                _ => return Err(error_at(token, "Keyword not valid for this command")),
            }
        }
        queue_manager
            .delete_queue(&queue_name, purge)
            .map_err(|error| reason_message(queue_manager, error))?;
        return Ok(format!(
            "CSQ9022I {name} CSQMMSGP ' DELETE QLOCAL' NORMAL COMPLETION"
        ));
    }
    if verb_is("CLEAR", 3) && object_is("QLOCAL", 2) {
        let object = object.unwrap();
        let queue_name = object
            .value
            .clone()
            .ok_or_else(|| error_at(object, "Queue name missing"))?;
        let queue = queue_manager
            .queue(&queue_name)
            .ok_or_else(|| format!("CSQM125I {name} QLOCAL({queue_name}) WAS NOT FOUND"))?;
        let count = queue_manager
            .clear_queue(&queue)
            .map_err(|error| reason_message(queue_manager, error))?;
        return Ok(format!(
            "CSQM152I {name} CSQMCLMQ QLOCAL({queue_name}) CLEARED, {count} MESSAGES DELETED"
        ));
    }
    if verb_is("DISPLAY", 3) && (object_is("QLOCAL", 2) || object_is("QUEUE", 1)) {
        let object = object.unwrap();
        let pattern = object.value.clone().unwrap_or_else(|| "*".to_string());
        let mut lines = Vec::new();
        for queue in queue_manager.queues() {
            if generic_match(&pattern, &queue.name()) {
                lines.push(display_queue(
                    &queue.definition(),
                    queue.status().current_depth,
                ));
            }
        }
        if lines.is_empty() {
            return Err(format!(
                "CSQM297I {name} CSQMDRTS NO QUEUE FOUND MATCHING REQUEST CRITERIA"
            ));
        }
        lines.push(format!(
            "CSQ9022I {name} CSQMDRTS ' DISPLAY QUEUE' NORMAL COMPLETION"
        ));
        return Ok(lines.join("\n"));
    }
    if verb_is("DISPLAY", 3) && object_is("QSTATUS", 2) {
        let object = object.unwrap();
        let pattern = object.value.clone().unwrap_or_else(|| "*".to_string());
        let mut lines = Vec::new();
        for queue in queue_manager.queues() {
            if generic_match(&pattern, &queue.name()) {
                let status = queue.status();
                lines.push(format!(
                    "CSQM293I {name} CSQMDRTC QSTATUS({}) TYPE(QUEUE) CURDEPTH({}) UNCOM({}) IPPROCS({}) OPPROCS({})",
                    queue.name(),
                    status.current_depth,
                    status.uncommitted,
                    status.open_input_count,
                    status.open_output_count
                ));
            }
        }
        lines.push(format!(
            "CSQ9022I {name} CSQMDRTC ' DISPLAY QSTATUS' NORMAL COMPLETION"
        ));
        return Ok(lines.join("\n"));
    }
    if verb_is("DISPLAY", 3) && object_is("USAGE", 5) {
        return Ok(format!(
            "{}{}CSQ9022I {name} CSQIDUSE ' DISPLAY USAGE' NORMAL COMPLETION",
            queue_manager.display_usage(),
            queue_manager.display_buffer_pool_statistics()
        ));
    }
    if verb_is("DISPLAY", 3) && object_is("LOG", 3) {
        return Ok(format!(
            "{}CSQ9022I {name} CSQJC001 ' DISPLAY LOG' NORMAL COMPLETION",
            queue_manager.display_log()
        ));
    }
    if verb_is("REFRESH", 3) && object_is("QMGR", 4) {
        let typed = tokens[2..]
            .iter()
            .any(|token| token.text == "TYPE" && token.value.as_deref() == Some("EXPIRY"));
        if !typed {
            return Err(error_at(
                object.unwrap(),
                "Only REFRESH QMGR TYPE(EXPIRY) is supported",
            ));
        }
        let deleted = queue_manager
            .expire_messages()
            .map_err(|error| reason_message(queue_manager, error))?;
        return Ok(format!(
            "CSQM572I {name} CSQMREFR EXPIRY SCAN COMPLETE, {deleted} EXPIRED MESSAGES DELETED\n\
             CSQ9022I {name} CSQMREFR ' REFRESH QMGR' NORMAL COMPLETION"
        ));
    }
    if verb_is("ARCHIVE", 3) && object_is("LOG", 3) {
        queue_manager
            .archive_log()
            .map_err(|error| reason_message(queue_manager, error))?;
        return Ok(format!("CSQJ311I {name} CSQJC001 LOG ARCHIVE (OFFLOAD) TASK INITIATED\nCSQ9022I {name} CSQJC001 ' ARCHIVE LOG' NORMAL COMPLETION"));
    }
    Err(format!(
        "CSQ9016E {name} '{}' COMMAND REQUEST NOT AUTHORIZED OR NOT RECOGNIZED at position {}",
        verb.text, verb.position
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_keeps_quoted_case_and_reports_positions() {
        let tokens = tokenize("define qlocal(app.q) descr('Hello, World') maxdepth(5)").unwrap();
        assert_eq!(tokens[1].value.as_deref(), Some("APP.Q"));
        assert_eq!(tokens[2].value.as_deref(), Some("Hello, World"));
        assert_eq!(tokens[3].position, 44);
        assert!(tokenize("DEFINE QLOCAL(A")
            .unwrap_err()
            .contains("Unbalanced"));
        assert!(tokenize("DEFINE QLOCAL)A")
            .unwrap_err()
            .contains("position 14"));
    }

    #[test]
    fn attributes_are_checked_before_anything_changes() {
        let mut definition = QueueDefinition::local("Q", PageSetId(1));
        let tokens = tokenize("X Y MAXDEPTH(10) DEFPRTY(12)").unwrap();
        assert!(apply_attributes(&mut definition, &tokens[2..])
            .unwrap_err()
            .contains("DEFPRTY"));
        let tokens = tokenize("X Y STGCLASS(NOSUCH)").unwrap();
        assert!(apply_attributes(&mut definition, &tokens[2..])
            .unwrap_err()
            .contains("Storage class"));
    }
}
