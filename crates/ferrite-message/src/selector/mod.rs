//! Message selectors: MQ's subset of SQL92 conditional expressions (the JMS selector language
//! as IBM MQ documents it in "Message selector syntax").
//!
//! # Language
//!
//! - Literals: strings in single quotes (`'it''s'`), byte strings in double quotes
//!   (`"0x0AFC23"`, pairs of hex digits), exact numbers (`57`, `-957`, `+62`, `3L`, hex `0x1F`,
//!   octal `017`), approximate numbers (`7E3`, `-57.9E2`, `7.`, `.5`, `2.5F`), `TRUE`, `FALSE`.
//! - Identifiers: a Java identifier, optionally with `.`-separated parts (`Colour`,
//!   `usr.Colour`, `mcd.Msd`), case-sensitive. `JMS...` names are the JMS header fields
//!   ([`crate::jms`]); `Root.MQMD.<Field>` names an MQMD field by its MQ name. Anything else is
//!   a message property; an absent property is NULL.
//! - Operators, loosest first: `OR`; `AND`; `NOT`; `= <> < <= > >=`, `[NOT] BETWEEN x AND y`,
//!   `[NOT] IN ('a', 'b')`, `[NOT] LIKE 'a%b_' [ESCAPE '\']`, `IS [NOT] NULL`; `+ -`; `* /`;
//!   unary `+ -`. Keywords are case-insensitive. Parentheses group.
//! - Three-valued logic: NULL or mismatched types make a comparison UNKNOWN; `NOT UNKNOWN` is
//!   UNKNOWN; `FALSE AND UNKNOWN` is FALSE, `TRUE OR UNKNOWN` is TRUE. A message is selected
//!   only when the selector is TRUE. See `evaluate` for numeric promotion.
//! - A selector of only blanks selects every message.
//!
//! Parse errors carry `MQRC_SELECTOR_SYNTAX_ERROR` (2459) and the 1-based character position.
//! Limits: [`SELECTOR_LENGTH_MAX_BYTES`] (MQ's `MQ_SELECTOR_LENGTH`) and
//! [`SELECTOR_NESTING_DEPTH_MAX`] levels of parentheses, `NOT`, unary signs and arithmetic.
//!
//! # Gets by CorrelId and MsgId
//!
//! [`Selector::correlation_id_equality`] recognises `JMSCorrelationID = '...'` (or
//! `Root.MQMD.CorrelId = "0x..."`) when it is the whole selector or one of its top-level `AND`
//! terms, and returns the MQMD CorrelId every selected message must have, so that the queue
//! manager can use its CORRELID index and evaluate the selector only on those candidates.
//! [`Selector::message_id_equality`] does the same for `JMSMessageID` and MsgId.

mod evaluate;
mod lexer;
mod parser;

use std::fmt;

use ferrite_constants::{lengths::MQ_SELECTOR_LENGTH, reason::MQRC_SELECTOR_SYNTAX_ERROR};

use crate::properties::PropertySource;
use parser::{Comparison, Expression, Literal, Parser};

/// Longest selection string, in bytes (MQ_SELECTOR_LENGTH, 10,240).
pub const SELECTOR_LENGTH_MAX_BYTES: usize = MQ_SELECTOR_LENGTH as usize;

/// Deepest nesting of parentheses, NOT, unary signs and chained arithmetic in one selector.
pub const SELECTOR_NESTING_DEPTH_MAX: usize = 100;

/// A parsed message selector.
#[derive(Clone, Debug, PartialEq)]
pub struct Selector {
    text: String,
    /// `None`: blank selector, selects everything.
    expression: Option<Expression>,
}

impl Selector {
    /// Parses a selection string.
    pub fn parse(text: &str) -> Result<Selector, SelectorError> {
        if text.len() > SELECTOR_LENGTH_MAX_BYTES {
            return Err(SelectorError {
                position: SELECTOR_LENGTH_MAX_BYTES + 1,
                problem: format!(
                    "the selector is {} bytes long; at most {SELECTOR_LENGTH_MAX_BYTES} are allowed",
                    text.len()
                ),
            });
        }
        if text.trim().is_empty() {
            return Ok(Selector {
                text: text.to_owned(),
                expression: None,
            });
        }
        let tokens = lexer::tokens(text)?;
        let expression = Parser::new(tokens).selector()?;
        Ok(Selector {
            text: text.to_owned(),
            expression: Some(expression),
        })
    }

    /// The selection string as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// True if the message `source` describes is selected: the selector is TRUE for it (not
    /// FALSE, not UNKNOWN).
    pub fn matches(&self, source: &impl PropertySource) -> bool {
        match &self.expression {
            None => true,
            Some(expression) => evaluate::truth(expression, source) == Some(true),
        }
    }

    /// The MQMD CorrelId every selected message has, when the selector (or a top-level AND term
    /// of it) is `JMSCorrelationID = 'ID:<hex>'`, `JMSCorrelationID = 'plain string'` (its
    /// first 24 UTF-8 bytes, NUL padded, as MQ JMS stores it) or `Root.MQMD.CorrelId = "0x.."`
    /// (24 bytes). The queue manager may get by CORRELID with it and must still call
    /// [`matches`](Self::matches) on each candidate.
    pub fn correlation_id_equality(&self) -> Option<[u8; 24]> {
        self.top_level_terms().find_map(|term| match term {
            Expression::CorrelationIdEquals {
                key,
                negated: false,
                literal,
            } if crate::jms::id_hex_bytes(literal).is_some() || literal.len() <= 24 => Some(*key),
            Expression::Compare(Comparison::Equal, left, right) => {
                byte_equality(left, right, "Root.MQMD.CorrelId")
            }
            _ => None,
        })
    }

    /// The MQMD MsgId every selected message has, when the selector (or a top-level AND term)
    /// is `JMSMessageID = 'ID:<48 hex digits>'` or `Root.MQMD.MsgId = "0x.."` (24 bytes).
    pub fn message_id_equality(&self) -> Option<[u8; 24]> {
        self.top_level_terms().find_map(|term| match term {
            Expression::Compare(Comparison::Equal, left, right) => {
                let string = match (&**left, &**right) {
                    (Expression::Identifier(name), Expression::Literal(Literal::String(s)))
                    | (Expression::Literal(Literal::String(s)), Expression::Identifier(name))
                        if name == "JMSMessageID" =>
                    {
                        Some(s)
                    }
                    _ => None,
                };
                match string {
                    // JMSMessageID is always ID: and 48 digits, so only that form can match.
                    Some(s) => crate::jms::id_hex_bytes(s)
                        .filter(|b| b.len() == 24)
                        .map(|b| b.try_into().expect("24 bytes")),
                    None => byte_equality(left, right, "Root.MQMD.MsgId"),
                }
            }
            _ => None,
        })
    }

    /// `Some(result)` if the selector does not depend on the message (it names no identifier),
    /// for MQRC_SELECTOR_ALWAYS_FALSE at MQOPEN/MQSUB time.
    pub fn constant_value(&self) -> Option<bool> {
        let expression = self.expression.as_ref()?;
        if self.text_names_identifier() {
            return None;
        }
        Some(evaluate::truth(expression, &NoMessage) == Some(true))
    }

    fn text_names_identifier(&self) -> bool {
        lexer::tokens(&self.text)
            .map(|tokens| {
                tokens
                    .iter()
                    .any(|(t, _)| matches!(t, lexer::Token::Identifier(_)))
            })
            .unwrap_or(true)
    }

    fn top_level_terms(&self) -> impl Iterator<Item = &Expression> {
        let terms: &[Expression] = match &self.expression {
            None => &[],
            Some(Expression::And(terms)) => terms,
            Some(other) => std::slice::from_ref(other),
        };
        terms.iter()
    }
}

fn byte_equality(left: &Expression, right: &Expression, field: &str) -> Option<[u8; 24]> {
    match (left, right) {
        (Expression::Identifier(name), Expression::Literal(Literal::Bytes(b)))
        | (Expression::Literal(Literal::Bytes(b)), Expression::Identifier(name))
            if name == field =>
        {
            b.as_slice().try_into().ok()
        }
        _ => None,
    }
}

/// A message with no properties and a default MQMD, for constant selectors.
struct NoMessage;

static DEFAULT_MD: std::sync::OnceLock<ferrite_protocol::mqi::Md> = std::sync::OnceLock::new();

impl PropertySource for NoMessage {
    fn property(&self, _name: &str) -> Option<&crate::properties::PropertyValue> {
        None
    }

    fn descriptor(&self) -> &ferrite_protocol::mqi::Md {
        DEFAULT_MD.get_or_init(Default::default)
    }
}

/// A selection string that does not parse: where (1-based character position) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorError {
    /// 1-based character position of the offending token.
    pub position: usize,
    /// What is wrong there.
    pub problem: String,
}

impl SelectorError {
    pub(crate) fn syntax(position: usize, problem: String) -> SelectorError {
        SelectorError { position, problem }
    }

    pub(crate) fn nesting(position: usize) -> SelectorError {
        SelectorError {
            position,
            problem: format!(
                "nested more deeply than SELECTOR_NESTING_DEPTH_MAX ({SELECTOR_NESTING_DEPTH_MAX}) levels"
            ),
        }
    }

    /// MQ's reason code: MQRC_SELECTOR_SYNTAX_ERROR (2459).
    pub fn reason_code(&self) -> i32 {
        MQRC_SELECTOR_SYNTAX_ERROR
    }
}

impl fmt::Display for SelectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "selector syntax error at character {}: {} (MQRC_SELECTOR_SYNTAX_ERROR)",
            self.position, self.problem
        )
    }
}

impl std::error::Error for SelectorError {}

#[cfg(test)]
mod tests;
