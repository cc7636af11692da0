//! MQSC syntax: scripts split into commands (comments, continuation lines), and a command split
//! into keywords and KEYWORD(value) pairs.
//!
//! - A line whose first non-blank character is `*` is a comment (outside a command).
//! - A line ending in `+` continues on the next line from its first non-blank character; a line
//!   ending in `-` continues on the next line from its first column (blanks kept).
//! - Keywords are case-insensitive; a value in parentheses may follow a keyword, with or without
//!   blanks between. Unquoted values are folded to upper case; quoted values (`'...'`, a quote
//!   inside written twice) keep their case and blanks.
//! - Keywords are separated by blanks or commas.
//!
//! Positions are 1-based character positions in the command as joined.

/// A value in parentheses after a keyword.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The value: unquoted parts in upper case, quoted parts as written (quotes removed,
    /// doubled quotes made single), blanks at either end trimmed.
    pub text: String,
    /// The text between the parentheses exactly as written.
    pub raw: String,
    /// Position of the first character after `(`.
    pub position: usize,
}

/// One keyword, with its value if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The keyword in upper case.
    pub keyword: String,
    pub value: Option<Value>,
    /// Position of the keyword's first character.
    pub position: usize,
}

/// A syntax error: the message (with its CSQ9 id) and where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub position: usize,
}

impl SyntaxError {
    pub fn new(message: impl Into<String>, position: usize) -> SyntaxError {
        SyntaxError {
            message: message.into(),
            position,
        }
    }

    /// The message as a response line: `CSQ9002E QM1 Unbalanced ... at position 15`.
    pub fn line(&self, queue_manager: &str) -> String {
        let (id, text) = self
            .message
            .split_once(' ')
            .unwrap_or((self.message.as_str(), ""));
        format!("{id} {queue_manager} {text} at position {}", self.position)
    }
}

/// A command of a script with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptCommand {
    pub text: String,
    pub line: usize,
}

/// Split an MQSC script into commands: comments and blank lines dropped, continuation lines
/// joined. A script ending in a continuation gives its incomplete last command as it is.
pub fn split_commands(script: &str) -> Vec<ScriptCommand> {
    let mut commands = Vec::new();
    let mut current: Option<ScriptCommand> = None;
    // How the next line joins the current command: strip its leading blanks (`+`) or not (`-`).
    let mut strip_leading = true;
    for (index, line) in script.lines().enumerate() {
        let piece = if strip_leading {
            line.trim_start()
        } else {
            line
        };
        if current.is_none() && (piece.trim().is_empty() || piece.trim_start().starts_with('*')) {
            continue;
        }
        let command = current.get_or_insert_with(|| ScriptCommand {
            text: String::new(),
            line: index + 1,
        });
        let trimmed = piece.trim_end();
        if let Some(rest) = trimmed.strip_suffix('+') {
            command.text.push_str(rest);
            strip_leading = true;
        } else if let Some(rest) = trimmed.strip_suffix('-') {
            command.text.push_str(rest);
            strip_leading = false;
        } else {
            command.text.push_str(trimmed);
            strip_leading = true;
            commands.extend(current.take());
        }
    }
    if let Some(command) = current {
        if !command.text.trim().is_empty() {
            commands.push(command);
        }
    }
    commands
}

fn is_keyword_char(character: char) -> bool {
    !(character.is_whitespace() || matches!(character, '(' | ')' | ',' | '\''))
}

/// Split one command into tokens.
pub fn tokenize(command: &str) -> Result<Vec<Token>, SyntaxError> {
    let characters: Vec<char> = command.chars().collect();
    let mut tokens = Vec::new();
    let mut index = 0;
    while index < characters.len() {
        let character = characters[index];
        if character.is_whitespace() || character == ',' {
            index += 1;
            continue;
        }
        let start = index;
        if !is_keyword_char(character) {
            let previous = tokens
                .last()
                .map(|token: &Token| token.keyword.clone())
                .unwrap_or_default();
            return Err(match character {
                ')' | '(' => SyntaxError::new(
                    format!("CSQ9002E Unbalanced parentheses following '{previous}'"),
                    index + 1,
                ),
                _ => SyntaxError::new(format!("CSQ9001E '{character}' is invalid"), index + 1),
            });
        }
        let mut keyword = String::new();
        while index < characters.len() && is_keyword_char(characters[index]) {
            keyword.extend(characters[index].to_uppercase());
            index += 1;
        }
        // A value may follow after blanks.
        let mut look = index;
        while look < characters.len() && characters[look].is_whitespace() {
            look += 1;
        }
        let mut value = None;
        if look < characters.len() && characters[look] == '(' {
            let open = look;
            index = look + 1;
            let value_start = index;
            let mut text = String::new();
            let mut raw = String::new();
            let mut quote_start: Option<usize> = None;
            loop {
                if index >= characters.len() {
                    return Err(match quote_start {
                        Some(at) => SyntaxError::new(
                            format!(
                                "CSQ9003E '{keyword}' parameter contains unbalanced apostrophes"
                            ),
                            at + 1,
                        ),
                        None => SyntaxError::new(
                            format!("CSQ9002E Unbalanced parentheses following '{keyword}'"),
                            open + 1,
                        ),
                    });
                }
                let character = characters[index];
                if character == '\'' {
                    raw.push(character);
                    if quote_start.is_some()
                        && index + 1 < characters.len()
                        && characters[index + 1] == '\''
                    {
                        raw.push('\'');
                        text.push('\'');
                        index += 2;
                        continue;
                    }
                    quote_start = match quote_start {
                        Some(_) => None,
                        None => Some(index),
                    };
                    index += 1;
                    continue;
                }
                if quote_start.is_none() {
                    if character == ')' {
                        index += 1;
                        break;
                    }
                    if character == '(' {
                        return Err(SyntaxError::new(
                            format!("CSQ9002E Unbalanced parentheses following '{keyword}'"),
                            index + 1,
                        ));
                    }
                    text.extend(character.to_uppercase());
                } else {
                    text.push(character);
                }
                raw.push(character);
                index += 1;
            }
            value = Some(Value {
                text: text.trim().to_string(),
                raw,
                position: value_start + 1,
            });
        }
        tokens.push(Token {
            keyword,
            value,
            position: start + 1,
        });
    }
    Ok(tokens)
}

/// Words of a WHERE condition or similar: blank-separated, quoted words kept whole (quotes
/// removed, doubled quotes single, case kept); unquoted words in upper case. Each word with
/// whether it was quoted and its position (offset added to `base`).
pub fn words(raw: &str, base: usize) -> Result<Vec<(String, bool, usize)>, SyntaxError> {
    let characters: Vec<char> = raw.chars().collect();
    let mut words = Vec::new();
    let mut index = 0;
    while index < characters.len() {
        if characters[index].is_whitespace() || characters[index] == ',' {
            index += 1;
            continue;
        }
        let start = index;
        let mut word = String::new();
        let mut quoted = false;
        while index < characters.len()
            && !characters[index].is_whitespace()
            && characters[index] != ','
        {
            if characters[index] == '\'' {
                quoted = true;
                index += 1;
                loop {
                    if index >= characters.len() {
                        return Err(SyntaxError::new(
                            "CSQ9003E 'WHERE' parameter contains unbalanced apostrophes",
                            base + start,
                        ));
                    }
                    if characters[index] == '\'' {
                        if index + 1 < characters.len() && characters[index + 1] == '\'' {
                            word.push('\'');
                            index += 2;
                            continue;
                        }
                        index += 1;
                        break;
                    }
                    word.push(characters[index]);
                    index += 1;
                }
                continue;
            }
            word.extend(characters[index].to_uppercase());
            index += 1;
        }
        words.push((word, quoted, base + start));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_values_quotes_and_positions() {
        let tokens =
            tokenize("define qlocal (app.q) descr('It''s, here') maxdepth(5),put(disabled)")
                .unwrap();
        assert_eq!(tokens[0].keyword, "DEFINE");
        assert_eq!(tokens[1].keyword, "QLOCAL");
        assert_eq!(tokens[1].value.as_ref().unwrap().text, "APP.Q");
        assert_eq!(tokens[2].value.as_ref().unwrap().text, "It's, here");
        assert_eq!(tokens[2].value.as_ref().unwrap().raw, "'It''s, here'");
        assert_eq!(tokens[3].position, 44);
        assert_eq!(tokens[4].keyword, "PUT");
        assert_eq!(tokens[4].value.as_ref().unwrap().text, "DISABLED");
    }

    #[test]
    fn syntax_errors_name_the_token_and_position() {
        let error = tokenize("DEFINE QLOCAL(A").unwrap_err();
        assert_eq!(
            error.message,
            "CSQ9002E Unbalanced parentheses following 'QLOCAL'"
        );
        assert_eq!(error.position, 14);
        let error = tokenize("DEFINE QLOCAL(A) DESCR('oops)").unwrap_err();
        assert!(error.message.starts_with("CSQ9003E 'DESCR'"));
        assert_eq!(error.position, 24);
        let error = tokenize("DEFINE QLOCAL)A").unwrap_err();
        assert_eq!(error.position, 14);
        assert!(error.message.contains("'QLOCAL'"));
        let error = tokenize("DEFINE QLOCAL(A(B))").unwrap_err();
        assert_eq!(error.position, 16);
    }

    #[test]
    fn scripts_comments_and_continuations() {
        let script = "* a comment\n\nDEFINE QLOCAL(A) +\n     DESCR('one -\n  two')\n  * a comment between commands\nDISPLAY QLOCAL(A) -\n\n";
        let commands = split_commands(script);
        assert_eq!(commands[0].text, "DEFINE QLOCAL(A) DESCR('one   two')");
        assert_eq!(commands[0].line, 3);
        assert_eq!(commands.len(), 2);
        assert_eq!(commands[1].text, "DISPLAY QLOCAL(A) ");
        assert_eq!(commands[1].line, 7);
    }

    #[test]
    fn where_words() {
        let words = words("descr lk 'App*'", 10).unwrap();
        assert_eq!(
            words,
            vec![
                ("DESCR".to_string(), false, 10),
                ("LK".to_string(), false, 16),
                ("App*".to_string(), true, 19)
            ]
        );
    }
}
