//! Recursive-descent parser from tokens to the expression tree, with a static check that each
//! operator gets operands of a kind it accepts.
//!
//! ```text
//! selector   := or
//! or         := and (OR and)*
//! and        := not (AND not)*
//! not        := NOT not | predicate
//! predicate  := sum [ comparison sum
//!                   | [NOT] BETWEEN sum AND sum
//!                   | [NOT] IN ( literal {, literal} )        (left side: an identifier)
//!                   | [NOT] LIKE 'pattern' [ESCAPE 'c']       (left side: an identifier)
//!                   | IS [NOT] NULL ]                         (left side: an identifier)
//! sum        := product ((+ | -) product)*
//! product    := unary ((* | /) unary)*
//! unary      := (+ | -) unary | primary
//! primary    := literal | identifier | ( or )
//! ```
//!
//! Comparisons do not chain (`20 < b < 30` is a syntax error, as IBM documents).

use super::lexer::Token;
use super::{SelectorError, SELECTOR_NESTING_DEPTH_MAX};
use crate::jms::correlation_id_bytes;

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Literal {
    Boolean(bool),
    Integer(i64),
    Float(f64),
    String(String),
    Bytes(Vec<u8>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Comparison {
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arithmetic {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// One element of a compiled LIKE pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum PatternPart {
    Character(char),
    AnyOne,
    AnyMany,
}

/// The expression tree.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Expression {
    Literal(Literal),
    Identifier(String),
    Negate(Box<Expression>),
    Arithmetic(Arithmetic, Box<Expression>, Box<Expression>),
    Compare(Comparison, Box<Expression>, Box<Expression>),
    /// `JMSCorrelationID = 'literal'` (or `<>` when `negated`): compared the way MQ JMS maps
    /// correlation ids, so that it agrees with a get by CORRELID on `key`.
    CorrelationIdEquals {
        literal: String,
        key: [u8; 24],
        negated: bool,
    },
    Not(Box<Expression>),
    And(Vec<Expression>),
    Or(Vec<Expression>),
    Between {
        value: Box<Expression>,
        low: Box<Expression>,
        high: Box<Expression>,
        negated: bool,
    },
    In {
        identifier: String,
        list: Vec<Literal>,
        negated: bool,
    },
    Like {
        identifier: String,
        pattern: Vec<PatternPart>,
        negated: bool,
    },
    IsNull {
        identifier: String,
        negated: bool,
    },
}

/// What an expression yields, as far as the parser can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The result of a comparison or a logical operator.
    Condition,
    Boolean,
    Numeric,
    String,
    Bytes,
    /// An identifier: any type, known only when evaluated.
    Any,
}

impl Kind {
    fn of(literal: &Literal) -> Kind {
        match literal {
            Literal::Boolean(_) => Kind::Boolean,
            Literal::Integer(_) | Literal::Float(_) => Kind::Numeric,
            Literal::String(_) => Kind::String,
            Literal::Bytes(_) => Kind::Bytes,
        }
    }

    fn is_truth_value(self) -> bool {
        matches!(self, Kind::Condition | Kind::Boolean | Kind::Any)
    }

    fn is_numeric(self) -> bool {
        matches!(self, Kind::Numeric | Kind::Any)
    }
}

pub(super) struct Parser {
    tokens: Vec<(Token, usize)>,
    next: usize,
    depth: usize,
}

type Parsed = Result<(Expression, Kind), SelectorError>;

impl Parser {
    pub(super) fn new(tokens: Vec<(Token, usize)>) -> Parser {
        debug_assert_eq!(tokens.last().map(|t| &t.0), Some(&Token::End));
        Parser {
            tokens,
            next: 0,
            depth: 0,
        }
    }

    /// Parses the whole selector; it must be a condition.
    pub(super) fn selector(&mut self) -> Result<Expression, SelectorError> {
        let position = self.position();
        let (expression, kind) = self.or()?;
        if self.peek() != &Token::End {
            return self.unexpected("an operator, AND, OR or the end");
        }
        if !kind.is_truth_value() {
            return Err(SelectorError::syntax(
                position,
                "the selector must be a condition (a comparison, a boolean property or TRUE/FALSE), not a value".into(),
            ));
        }
        Ok(expression)
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.next].0
    }

    fn position(&self) -> usize {
        self.tokens[self.next].1
    }

    fn advance(&mut self) -> Token {
        let token = self.tokens[self.next].0.clone();
        if token != Token::End {
            self.next += 1;
        }
        token
    }

    fn accept(&mut self, token: &Token) -> bool {
        if self.peek() == token {
            self.advance();
            true
        } else {
            false
        }
    }

    fn unexpected<T>(&self, expected: &str) -> Result<T, SelectorError> {
        Err(SelectorError::syntax(
            self.position(),
            format!("expected {expected}, found {}", self.peek().describe()),
        ))
    }

    fn nest<T>(
        &mut self,
        f: impl FnOnce(&mut Parser) -> Result<T, SelectorError>,
    ) -> Result<T, SelectorError> {
        self.depth += 1;
        if self.depth > SELECTOR_NESTING_DEPTH_MAX {
            return Err(SelectorError::nesting(self.position()));
        }
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn truth_operand(
        &self,
        kind: Kind,
        position: usize,
        operator: &str,
    ) -> Result<(), SelectorError> {
        if kind.is_truth_value() {
            Ok(())
        } else {
            Err(SelectorError::syntax(
                position,
                format!("{operator} needs a condition or a boolean, not a value"),
            ))
        }
    }

    fn or(&mut self) -> Parsed {
        let position = self.position();
        let (first, kind) = self.and()?;
        if self.peek() != &Token::Or {
            return Ok((first, kind));
        }
        self.truth_operand(kind, position, "OR")?;
        let mut terms = vec![first];
        while self.accept(&Token::Or) {
            let position = self.position();
            let (term, kind) = self.and()?;
            self.truth_operand(kind, position, "OR")?;
            terms.push(term);
        }
        Ok((Expression::Or(terms), Kind::Condition))
    }

    fn and(&mut self) -> Parsed {
        let position = self.position();
        let (first, kind) = self.not()?;
        if self.peek() != &Token::And {
            return Ok((first, kind));
        }
        self.truth_operand(kind, position, "AND")?;
        let mut terms = vec![first];
        while self.accept(&Token::And) {
            let position = self.position();
            let (term, kind) = self.not()?;
            self.truth_operand(kind, position, "AND")?;
            terms.push(term);
        }
        Ok((Expression::And(terms), Kind::Condition))
    }

    fn not(&mut self) -> Parsed {
        if self.accept(&Token::Not) {
            let position = self.position();
            let (operand, kind) = self.nest(Parser::not)?;
            self.truth_operand(kind, position, "NOT")?;
            return Ok((Expression::Not(Box::new(operand)), Kind::Condition));
        }
        self.predicate()
    }

    fn predicate(&mut self) -> Parsed {
        let position = self.position();
        let (left, kind) = self.sum()?;
        if let Some(comparison) = comparison_of(self.peek()) {
            return self.comparison(comparison, left, kind, position);
        }
        let negated = self.peek() == &Token::Not
            && matches!(
                self.tokens[self.next + 1].0,
                Token::Between | Token::In | Token::Like
            );
        if negated {
            self.advance();
        }
        match self.peek() {
            Token::Between => self.between(left, kind, position, negated),
            Token::In => self.in_list(left, position, negated),
            Token::Like => self.like(left, position, negated),
            Token::Is => self.is_null(left, position),
            _ => Ok((left, kind)),
        }
    }

    /// `left comparison sum`, at the comparison operator: neither side a condition, and no
    /// second comparison after it.
    fn comparison(
        &mut self,
        comparison: Comparison,
        left: Expression,
        kind: Kind,
        position: usize,
    ) -> Parsed {
        if kind == Kind::Condition {
            return Err(SelectorError::syntax(
                position,
                "a comparison cannot compare a condition".into(),
            ));
        }
        self.advance();
        let right_position = self.position();
        let (right, right_kind) = self.sum()?;
        if right_kind == Kind::Condition {
            return Err(SelectorError::syntax(
                right_position,
                "a comparison cannot compare a condition".into(),
            ));
        }
        if comparison_of(self.peek()).is_some() {
            return self.unexpected(
                "AND, OR or the end (comparisons do not chain: write (b > 20) AND (b < 30))",
            );
        }
        Ok((
            correlation_or_compare(comparison, left, right),
            Kind::Condition,
        ))
    }

    /// `left [NOT] BETWEEN sum AND sum`, at BETWEEN: every operand a number.
    fn between(&mut self, left: Expression, kind: Kind, position: usize, negated: bool) -> Parsed {
        self.advance();
        if !kind.is_numeric() {
            return Err(SelectorError::syntax(
                position,
                "BETWEEN applies to numbers".into(),
            ));
        }
        let low = self.numeric_operand()?;
        if !self.accept(&Token::And) {
            return self.unexpected("AND between the bounds of BETWEEN");
        }
        let high = self.numeric_operand()?;
        Ok((
            Expression::Between {
                value: Box::new(left),
                low: Box::new(low),
                high: Box::new(high),
                negated,
            },
            Kind::Condition,
        ))
    }

    /// `identifier [NOT] IN ( literal {, literal} )`, at IN: string or number literals.
    fn in_list(&mut self, left: Expression, position: usize, negated: bool) -> Parsed {
        self.advance();
        let identifier = identifier_of(left, position, "IN")?;
        if !self.accept(&Token::Open) {
            return self.unexpected("( after IN");
        }
        let mut list = Vec::new();
        loop {
            let negative = self.accept(&Token::Minus);
            let item = match (self.peek(), negative) {
                (Token::String(s), false) => Literal::String(s.clone()),
                (Token::Integer(v), _) => {
                    Literal::Integer(if negative { v.wrapping_neg() } else { *v })
                }
                (Token::Float(v), _) => Literal::Float(if negative { -v } else { *v }),
                _ => return self.unexpected("a string or number literal in the IN list"),
            };
            self.advance();
            list.push(item);
            if self.accept(&Token::Close) {
                break;
            }
            if !self.accept(&Token::Comma) {
                return self.unexpected(", or ) in the IN list");
            }
        }
        Ok((
            Expression::In {
                identifier,
                list,
                negated,
            },
            Kind::Condition,
        ))
    }

    /// `identifier [NOT] LIKE 'pattern' [ESCAPE 'c']`, at LIKE: the pattern compiled.
    fn like(&mut self, left: Expression, position: usize, negated: bool) -> Parsed {
        self.advance();
        let identifier = identifier_of(left, position, "LIKE")?;
        let Token::String(pattern) = self.peek().clone() else {
            return self.unexpected("a string literal pattern after LIKE");
        };
        self.advance();
        let mut escape = None;
        if self.accept(&Token::Escape) {
            let escape_position = self.position();
            match self.advance() {
                Token::String(e) if e.chars().count() == 1 => escape = e.chars().next(),
                _ => {
                    return Err(SelectorError::syntax(
                        escape_position,
                        "ESCAPE takes a string literal of exactly one character".into(),
                    ))
                }
            }
        }
        let pattern = compile_like(&pattern, escape)
            .map_err(|problem| SelectorError::syntax(position, problem.into()))?;
        Ok((
            Expression::Like {
                identifier,
                pattern,
                negated,
            },
            Kind::Condition,
        ))
    }

    /// `identifier IS [NOT] NULL`, at IS.
    fn is_null(&mut self, left: Expression, position: usize) -> Parsed {
        self.advance();
        let identifier = identifier_of(left, position, "IS NULL")?;
        let negated = self.accept(&Token::Not);
        if !self.accept(&Token::Null) {
            return self.unexpected("NULL after IS");
        }
        Ok((
            Expression::IsNull {
                identifier,
                negated,
            },
            Kind::Condition,
        ))
    }

    fn numeric_operand(&mut self) -> Result<Expression, SelectorError> {
        let position = self.position();
        let (expression, kind) = self.sum()?;
        if !kind.is_numeric() {
            return Err(SelectorError::syntax(
                position,
                "BETWEEN bounds must be numbers".into(),
            ));
        }
        Ok(expression)
    }

    fn sum(&mut self) -> Parsed {
        let position = self.position();
        let (mut left, mut kind) = self.product()?;
        loop {
            let operator = match self.peek() {
                Token::Plus => Arithmetic::Add,
                Token::Minus => Arithmetic::Subtract,
                _ => return Ok((left, kind)),
            };
            self.advance();
            let right_position = self.position();
            let (right, right_kind) = self.product()?;
            check_numeric(kind, position)?;
            check_numeric(right_kind, right_position)?;
            left = self.nest_arithmetic(operator, left, right)?;
            kind = Kind::Numeric;
        }
    }

    fn product(&mut self) -> Parsed {
        let position = self.position();
        let (mut left, mut kind) = self.unary()?;
        loop {
            let operator = match self.peek() {
                Token::Times => Arithmetic::Multiply,
                Token::Divide => Arithmetic::Divide,
                _ => return Ok((left, kind)),
            };
            self.advance();
            let right_position = self.position();
            let (right, right_kind) = self.unary()?;
            check_numeric(kind, position)?;
            check_numeric(right_kind, right_position)?;
            left = self.nest_arithmetic(operator, left, right)?;
            kind = Kind::Numeric;
        }
    }

    /// Left-deep chains of arithmetic count against the nesting limit too, so that evaluating
    /// the tree never recurses deeper than SELECTOR_NESTING_DEPTH_MAX plus a constant.
    fn nest_arithmetic(
        &mut self,
        operator: Arithmetic,
        left: Expression,
        right: Expression,
    ) -> Result<Expression, SelectorError> {
        let depth = 1 + depth_of(&left).max(depth_of(&right));
        if depth > SELECTOR_NESTING_DEPTH_MAX {
            return Err(SelectorError::nesting(self.position()));
        }
        Ok(Expression::Arithmetic(
            operator,
            Box::new(left),
            Box::new(right),
        ))
    }

    fn unary(&mut self) -> Parsed {
        let position = self.position();
        match self.peek() {
            Token::Minus | Token::Plus => {
                let negate = self.advance() == Token::Minus;
                let (operand, kind) = self.nest(Parser::unary)?;
                check_numeric(kind, position)?;
                let expression = match (negate, operand) {
                    (false, operand) => operand,
                    (true, Expression::Literal(Literal::Integer(v))) => {
                        Expression::Literal(Literal::Integer(v.wrapping_neg()))
                    }
                    (true, Expression::Literal(Literal::Float(v))) => {
                        Expression::Literal(Literal::Float(-v))
                    }
                    (true, operand) => Expression::Negate(Box::new(operand)),
                };
                Ok((expression, kind))
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Parsed {
        let literal = |l: Literal| {
            let kind = Kind::of(&l);
            Ok((Expression::Literal(l), kind))
        };
        if !matches!(
            self.peek(),
            Token::Identifier(_)
                | Token::String(_)
                | Token::Bytes(_)
                | Token::Integer(_)
                | Token::Float(_)
                | Token::True
                | Token::False
                | Token::Open
        ) {
            return self.unexpected("a literal, an identifier or (");
        }
        match self.advance() {
            Token::Identifier(name) => Ok((Expression::Identifier(name), Kind::Any)),
            Token::String(s) => literal(Literal::String(s)),
            Token::Bytes(b) => literal(Literal::Bytes(b)),
            Token::Integer(v) => literal(Literal::Integer(v)),
            Token::Float(v) => literal(Literal::Float(v)),
            Token::True => literal(Literal::Boolean(true)),
            Token::False => literal(Literal::Boolean(false)),
            _ => {
                let inner = self.nest(Parser::or)?;
                if !self.accept(&Token::Close) {
                    return self.unexpected(")");
                }
                Ok(inner)
            }
        }
    }
}

fn check_numeric(kind: Kind, position: usize) -> Result<(), SelectorError> {
    if kind.is_numeric() {
        Ok(())
    } else {
        Err(SelectorError::syntax(
            position,
            "arithmetic applies to numbers only".into(),
        ))
    }
}

fn depth_of(expression: &Expression) -> usize {
    match expression {
        Expression::Arithmetic(_, left, right) => 1 + depth_of(left).max(depth_of(right)),
        Expression::Negate(inner) => 1 + depth_of(inner),
        _ => 1,
    }
}

/// The comparison operator `token` is, if it is one.
fn comparison_of(token: &Token) -> Option<Comparison> {
    match token {
        Token::Equal => Some(Comparison::Equal),
        Token::NotEqual => Some(Comparison::NotEqual),
        Token::Less => Some(Comparison::Less),
        Token::LessEqual => Some(Comparison::LessEqual),
        Token::Greater => Some(Comparison::Greater),
        Token::GreaterEqual => Some(Comparison::GreaterEqual),
        _ => None,
    }
}

fn identifier_of(
    expression: Expression,
    position: usize,
    operator: &str,
) -> Result<String, SelectorError> {
    match expression {
        Expression::Identifier(name) => Ok(name),
        _ => Err(SelectorError::syntax(
            position,
            format!("{operator} applies to an identifier"),
        )),
    }
}

fn correlation_or_compare(
    comparison: Comparison,
    left: Expression,
    right: Expression,
) -> Expression {
    if matches!(comparison, Comparison::Equal | Comparison::NotEqual) {
        let pair = match (&left, &right) {
            (Expression::Identifier(name), Expression::Literal(Literal::String(literal)))
            | (Expression::Literal(Literal::String(literal)), Expression::Identifier(name)) => {
                Some((name, literal))
            }
            _ => None,
        };
        if let Some((name, literal)) = pair {
            if name == "JMSCorrelationID" {
                return Expression::CorrelationIdEquals {
                    key: correlation_id_bytes(literal),
                    literal: literal.clone(),
                    negated: comparison == Comparison::NotEqual,
                };
            }
        }
    }
    Expression::Compare(comparison, Box::new(left), Box::new(right))
}

/// Compiles a LIKE pattern: `%` any sequence, `_` any one character, `escape` makes the next
/// character literal.
fn compile_like(pattern: &str, escape: Option<char>) -> Result<Vec<PatternPart>, &'static str> {
    let mut parts = Vec::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if Some(c) == escape {
            match chars.next() {
                Some(next) => parts.push(PatternPart::Character(next)),
                None => return Err("LIKE pattern ends with its ESCAPE character"),
            }
        } else if c == '%' {
            if parts.last() != Some(&PatternPart::AnyMany) {
                parts.push(PatternPart::AnyMany);
            }
        } else if c == '_' {
            parts.push(PatternPart::AnyOne);
        } else {
            parts.push(PatternPart::Character(c));
        }
    }
    Ok(parts)
}
