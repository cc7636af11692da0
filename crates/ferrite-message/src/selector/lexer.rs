//! Tokens of a selection string, each with its 1-based character position.

use super::SelectorError;
use crate::properties::from_hex;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Token {
    Identifier(String),
    String(String),
    Bytes(Vec<u8>),
    Integer(i64),
    Float(f64),
    True,
    False,
    Null,
    Not,
    And,
    Or,
    Between,
    Like,
    In,
    Is,
    Escape,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Plus,
    Minus,
    Times,
    Divide,
    Open,
    Close,
    Comma,
    End,
}

impl Token {
    /// How the token reads in an error message.
    pub(super) fn describe(&self) -> String {
        match self {
            Token::Identifier(name) => format!("identifier {name}"),
            Token::String(s) => format!("string '{}'", s.replace('\'', "''")),
            Token::Bytes(_) => "byte string".into(),
            Token::Integer(v) => format!("number {v}"),
            Token::Float(v) => format!("number {v}"),
            Token::End => "the end of the selector".into(),
            other => format!("{other:?}").to_uppercase(),
        }
    }
}

/// Splits `text` into tokens; the last is always `Token::End`.
pub(super) fn tokens(text: &str) -> Result<Vec<(Token, usize)>, SelectorError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let position = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let error = |problem: String| Err(SelectorError::syntax(position, problem));
        let (token, next) = match c {
            '\'' => {
                let mut value = String::new();
                let mut j = i + 1;
                loop {
                    match chars.get(j) {
                        None => return error("string literal has no closing quote".into()),
                        Some('\'') if chars.get(j + 1) == Some(&'\'') => {
                            value.push('\'');
                            j += 2;
                        }
                        Some('\'') => break,
                        Some(&other) => {
                            value.push(other);
                            j += 1;
                        }
                    }
                }
                (Token::String(value), j + 1)
            }
            '"' => {
                let Some(length) = chars[i + 1..].iter().position(|&c| c == '"') else {
                    return error("byte string has no closing double quote".into());
                };
                let inner: String = chars[i + 1..i + 1 + length].iter().collect();
                let Some(hex) = inner
                    .strip_prefix("0x")
                    .or_else(|| inner.strip_prefix("0X"))
                else {
                    return error(
                        "double quotes enclose only byte strings (\"0x0AFC23\"); strings use single quotes"
                            .into(),
                    );
                };
                match from_hex(hex).filter(|b| !b.is_empty()) {
                    Some(bytes) => (Token::Bytes(bytes), i + length + 2),
                    None => {
                        return error(
                            "a byte string is one or more pairs of hex digits after 0x".into(),
                        )
                    }
                }
            }
            '0'..='9' | '.' if c != '.' || chars.get(i + 1).is_some_and(char::is_ascii_digit) => {
                number(&chars, i)?
            }
            c if c.is_alphabetic() || c == '_' || c == '$' => {
                let mut j = i + 1;
                while j < chars.len()
                    && (chars[j].is_alphanumeric() || matches!(chars[j], '_' | '$' | '.'))
                {
                    j += 1;
                }
                let word: String = chars[i..j].iter().collect();
                if word.ends_with('.') || word.contains("..") {
                    return error(format!("identifier {word} has an empty part between dots"));
                }
                (keyword(&word).unwrap_or(Token::Identifier(word)), j)
            }
            '=' => (Token::Equal, i + 1),
            '<' => match chars.get(i + 1) {
                Some('>') => (Token::NotEqual, i + 2),
                Some('=') => (Token::LessEqual, i + 2),
                _ => (Token::Less, i + 1),
            },
            '>' => match chars.get(i + 1) {
                Some('=') => (Token::GreaterEqual, i + 2),
                _ => (Token::Greater, i + 1),
            },
            '+' => (Token::Plus, i + 1),
            '-' => (Token::Minus, i + 1),
            '*' => (Token::Times, i + 1),
            '/' => (Token::Divide, i + 1),
            '(' => (Token::Open, i + 1),
            ')' => (Token::Close, i + 1),
            ',' => (Token::Comma, i + 1),
            '!' if chars.get(i + 1) == Some(&'=') => {
                return error("'!=' is not an operator; write <>".into())
            }
            other => return error(format!("unexpected character {other:?}")),
        };
        out.push((token, position));
        i = next;
    }
    out.push((Token::End, chars.len() + 1));
    Ok(out)
}

fn keyword(word: &str) -> Option<Token> {
    const KEYWORDS: [(&str, Token); 11] = [
        ("TRUE", Token::True),
        ("FALSE", Token::False),
        ("NULL", Token::Null),
        ("NOT", Token::Not),
        ("AND", Token::And),
        ("OR", Token::Or),
        ("BETWEEN", Token::Between),
        ("LIKE", Token::Like),
        ("IN", Token::In),
        ("IS", Token::Is),
        ("ESCAPE", Token::Escape),
    ];
    KEYWORDS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(word))
        .map(|(_, t)| t.clone())
}

/// A numeric literal at `start`: decimal, `0x` hex or `0` octal integers (optionally suffixed
/// `L`), or approximate numbers (`7.`, `.5`, `-57.9E2`, optionally suffixed `F` or `D`).
fn number(chars: &[char], start: usize) -> Result<(Token, usize), SelectorError> {
    let position = start + 1;
    let fail = |problem: &str| SelectorError::syntax(position, problem.to_owned());
    let error = |problem: &str| Err(fail(problem));
    let take = |mut j: usize, f: fn(&char) -> bool| {
        while j < chars.len() && f(&chars[j]) {
            j += 1;
        }
        j
    };
    let text = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    let ends_ok = |j: usize| {
        chars
            .get(j)
            .is_none_or(|c| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
    };
    if chars[start] == '0' && matches!(chars.get(start + 1), Some('x' | 'X')) {
        let end = take(start + 2, char::is_ascii_hexdigit);
        let Ok(value) = u64::from_str_radix(&text(start + 2, end), 16) else {
            return error("hex number has no digits or is larger than 64 bits");
        };
        let end = if matches!(chars.get(end), Some('l' | 'L')) {
            end + 1
        } else {
            end
        };
        if !ends_ok(end) {
            return error("malformed hex number");
        }
        return Ok((Token::Integer(value as i64), end));
    }
    let integer_end = take(start, char::is_ascii_digit);
    let mut end = integer_end;
    let mut approximate = false;
    if chars.get(end) == Some(&'.') {
        approximate = true;
        end = take(end + 1, char::is_ascii_digit);
    }
    if matches!(chars.get(end), Some('e' | 'E')) {
        let mut j = end + 1;
        if matches!(chars.get(j), Some('+' | '-')) {
            j += 1;
        }
        let digits_end = take(j, char::is_ascii_digit);
        if digits_end == j {
            return error("exponent has no digits");
        }
        approximate = true;
        end = digits_end;
    }
    if approximate || matches!(chars.get(end), Some('f' | 'F' | 'd' | 'D')) {
        let value: f64 = text(start, end)
            .parse()
            .map_err(|_| fail("malformed approximate number"))?;
        let end = if matches!(chars.get(end), Some('f' | 'F' | 'd' | 'D')) {
            end + 1
        } else {
            end
        };
        if !ends_ok(end) {
            return error("malformed number");
        }
        return Ok((Token::Float(value), end));
    }
    let digits = text(start, integer_end);
    let value = if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8)
            .map_err(|_| fail("a number starting with 0 is octal: digits 0-7 only"))?
    } else {
        match digits.parse::<i64>() {
            Ok(v) => v,
            Err(_) => return error("exact number outside the 64-bit range"),
        }
    };
    let end = if matches!(chars.get(integer_end), Some('l' | 'L')) {
        integer_end + 1
    } else {
        integer_end
    };
    if !ends_ok(end) {
        return error("malformed number");
    }
    Ok((Token::Integer(value), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Token> {
        tokens(text).unwrap().into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn literals() {
        assert_eq!(
            kinds("'it''s' \"0x0AFC23\" 57 0x1F 017 7. .5 -57.9E2 3L 2.5f"),
            vec![
                Token::String("it's".into()),
                Token::Bytes(vec![0x0A, 0xFC, 0x23]),
                Token::Integer(57),
                Token::Integer(31),
                Token::Integer(15),
                Token::Float(7.0),
                Token::Float(0.5),
                Token::Minus,
                Token::Float(5790.0),
                Token::Integer(3),
                Token::Float(2.5),
                Token::End
            ]
        );
    }

    #[test]
    fn identifiers_keywords_and_operators() {
        assert_eq!(
            kinds("usr.Colour <> not And <= >= < > ( ) , * /"),
            vec![
                Token::Identifier("usr.Colour".into()),
                Token::NotEqual,
                Token::Not,
                Token::And,
                Token::LessEqual,
                Token::GreaterEqual,
                Token::Less,
                Token::Greater,
                Token::Open,
                Token::Close,
                Token::Comma,
                Token::Times,
                Token::Divide,
                Token::End
            ]
        );
    }

    #[test]
    fn errors_name_the_position() {
        for (text, position) in [
            ("a = 'x", 5),
            ("a = \"0xABC\"", 5),
            ("a = \"AB\"", 5),
            ("a = 09", 5),
            ("a != 1", 3),
            ("a = 1e", 5),
            ("a = 12abc", 5),
            ("a. = 1", 1),
            ("a = #", 5),
            ("a = 99999999999999999999", 5),
        ] {
            let error = tokens(text).unwrap_err();
            assert_eq!(error.position, position, "{text}: {error}");
        }
    }
}
