//! The XML-like content of one MQRFH2 `NameValueData` field: a *folder*.
//!
//! # Syntax (IBM MQ "NameValueData (MQCHARn)")
//!
//! ```text
//! <folder [content='properties']> element* </folder> blanks*
//! element := <name [dt='type'] [xsi:nil='true']>value</name>      a property
//!          | <name .../>                                           empty (or null with xsi:nil)
//!          | <group> element* </group>                             a group of properties
//! ```
//!
//! - Exactly one folder per `NameValueData`; everything after its end tag, up to
//!   `NameValueLength`, must be blanks (MQ pads to a multiple of 4 with blanks; NULs are
//!   tolerated on input).
//! - Attribute values are quoted with `'` or `"`. MQ writes `'`; so does [`Folder::to_xml`].
//! - Blanks between tags are not significant; inside a value they are (`<a> x </a>` is " x ").
//! - Values escape `<`, `>`, `&`, `'` and `"` as `&lt;`, `&gt;`, `&amp;`, `&apos;`, `&quot;`;
//!   numeric character references `&#NN;` and `&#xHH;` are accepted on input.
//! - An element holds either a value (text) or groups/properties (elements), not both.
//!
//! Limits: [`FOLDER_NESTING_DEPTH_MAX`] levels of groups and [`FOLDER_ELEMENTS_MAX`] elements in
//! one folder; a folder breaking either is rejected like any other malformed folder
//! (`MQRC_RFH_FORMAT_ERROR`, 2421). This module knows nothing of data types: `dt` and `xsi:nil`
//! are ordinary attributes here, interpreted by [`crate::properties`].

use std::fmt;

use ferrite_constants::reason::MQRC_RFH_FORMAT_ERROR;

/// Deepest nesting of elements inside a folder, the folder's own element counting as level 1.
/// IBM sets no documented limit; this one bounds recursion on hostile input.
pub const FOLDER_NESTING_DEPTH_MAX: usize = 64;

/// Most elements (properties and groups) in one folder. IBM has tested more than 32,000
/// properties per message (V7.0 report); a message may hold several folders.
pub const FOLDER_ELEMENTS_MAX: usize = 65_536;

/// One folder: `<name attributes>elements</name>`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Folder {
    /// Folder name (`usr`, `jms`, `mcd`, `mqext`, `mqps`, ...).
    pub name: String,
    /// Attributes of the folder's tag in order, for example `content='properties'`.
    pub attributes: Vec<(String, String)>,
    /// Properties and groups in the order they appear.
    pub elements: Vec<Element>,
}

/// A property (`Content::Value`) or a group of elements (`Content::Elements`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// Tag name.
    pub name: String,
    /// Attributes in order (`dt`, `xsi:nil`).
    pub attributes: Vec<(String, String)>,
    /// The value, or the nested elements.
    pub content: Content,
}

/// What an element holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// Text value, unescaped (an empty element is the empty string).
    Value(String),
    /// Nested elements: a group.
    Elements(Vec<Element>),
}

impl Element {
    /// The value of attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        attribute(&self.attributes, name)
    }
}

impl Folder {
    /// The value of attribute `name` of the folder tag, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        attribute(&self.attributes, name)
    }

    /// Parses one folder from the text of a `NameValueData` field (already converted from its
    /// `NameValueCCSID` to UTF-8). Trailing blanks and NULs are padding.
    pub fn parse(text: &str) -> Result<Folder, FolderError> {
        let mut parser = Parser {
            text,
            position: 0,
            elements: 0,
        };
        parser.skip_blanks();
        let root = parser.element(1)?;
        let rest = &text[parser.position..];
        if let Some(offset) = rest.find(|c: char| c != ' ' && c != '\0' && !c.is_whitespace()) {
            return Err(FolderError {
                offset: parser.position + offset,
                problem: "characters after the folder's end tag (only blanks may follow it)",
            });
        }
        let elements = match root.content {
            Content::Elements(elements) => elements,
            Content::Value(value) if value.trim().is_empty() => Vec::new(),
            Content::Value(_) => {
                return Err(FolderError {
                    offset: 0,
                    problem: "a folder holds properties and groups, not a value",
                })
            }
        };
        Ok(Folder {
            name: root.name,
            attributes: root.attributes,
            elements,
        })
    }

    /// The folder as MQ writes it: no blanks between tags, attributes quoted with `'`, values
    /// escaped. Padding to a multiple of 4 is the MQRFH2 encoder's job.
    pub fn to_xml(&self) -> String {
        let mut out = String::new();
        open_tag(&mut out, &self.name, &self.attributes);
        for element in &self.elements {
            write_element(&mut out, element);
        }
        close_tag(&mut out, &self.name);
        out
    }
}

fn attribute<'a>(attributes: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attributes
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn open_tag(out: &mut String, name: &str, attributes: &[(String, String)]) {
    out.push('<');
    out.push_str(name);
    for (attribute, value) in attributes {
        out.push(' ');
        out.push_str(attribute);
        out.push_str("='");
        escape_into(out, value);
        out.push('\'');
    }
    out.push('>');
}

fn close_tag(out: &mut String, name: &str) {
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

fn write_element(out: &mut String, element: &Element) {
    open_tag(out, &element.name, &element.attributes);
    match &element.content {
        Content::Value(value) => escape_into(out, value),
        Content::Elements(children) => {
            for child in children {
                write_element(out, child);
            }
        }
    }
    close_tag(out, &element.name);
}

/// Escapes the five XML special characters of `text` onto `out`.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\'' => out.push_str("&apos;"),
            '"' => out.push_str("&quot;"),
            other => out.push(other),
        }
    }
}

/// A folder that is not well formed: where (byte offset in the folder text) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FolderError {
    /// Byte offset in the folder's text.
    pub offset: usize,
    /// What is wrong there.
    pub problem: &'static str,
}

impl FolderError {
    /// MQ's reason code for a malformed folder: `MQRC_RFH_FORMAT_ERROR` (2421).
    pub fn reason_code(&self) -> i32 {
        MQRC_RFH_FORMAT_ERROR
    }
}

impl fmt::Display for FolderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MQRFH2 folder is malformed at byte {}: {} (MQRC_RFH_FORMAT_ERROR)",
            self.offset, self.problem
        )
    }
}

impl std::error::Error for FolderError {}

struct Parser<'a> {
    text: &'a str,
    position: usize,
    elements: usize,
}

impl Parser<'_> {
    fn error<T>(&self, problem: &'static str) -> Result<T, FolderError> {
        Err(FolderError {
            offset: self.position,
            problem,
        })
    }

    fn rest(&self) -> &str {
        &self.text[self.position..]
    }

    fn skip_blanks(&mut self) {
        let rest = self.rest();
        let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\0');
        self.position += rest.len() - trimmed.len();
    }

    fn expect(&mut self, c: char, problem: &'static str) -> Result<(), FolderError> {
        if self.rest().starts_with(c) {
            self.position += c.len_utf8();
            Ok(())
        } else {
            self.error(problem)
        }
    }

    /// A tag or attribute name: letters, digits, `_`, `-`, `.`, `:`, not starting with a digit,
    /// `-` or `.`.
    fn name(&mut self) -> Result<&str, FolderError> {
        let rest = self.rest();
        let length = rest
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
            .unwrap_or(rest.len());
        let name = &rest[..length];
        match name.chars().next() {
            None => self.error("expected a name"),
            Some(c) if c.is_ascii_digit() || c == '-' || c == '.' => {
                self.error("a name must not start with a digit, '-' or '.'")
            }
            Some(_) => {
                let start = self.position;
                self.position += length;
                Ok(&self.text[start..start + length])
            }
        }
    }

    fn element(&mut self, depth: usize) -> Result<Element, FolderError> {
        if depth > FOLDER_NESTING_DEPTH_MAX {
            return self.error("groups nested deeper than FOLDER_NESTING_DEPTH_MAX");
        }
        self.elements += 1;
        if self.elements > FOLDER_ELEMENTS_MAX {
            return self.error("more elements than FOLDER_ELEMENTS_MAX");
        }
        self.expect('<', "expected '<' to start an element")?;
        let name = self.name()?.to_owned();
        let mut attributes = Vec::new();
        loop {
            let before = self.position;
            self.skip_blanks();
            let rest = self.rest();
            if rest.starts_with("/>") {
                self.position += 2;
                return Ok(Element {
                    name,
                    attributes,
                    content: Content::Value(String::new()),
                });
            }
            if rest.starts_with('>') {
                self.position += 1;
                break;
            }
            if self.position == before {
                return self.error("expected a blank before an attribute, '>' or '/>'");
            }
            let attribute = self.name()?.to_owned();
            self.skip_blanks();
            self.expect('=', "expected '=' after an attribute name")?;
            self.skip_blanks();
            let quote = match self.rest().chars().next() {
                Some(q @ ('\'' | '"')) => q,
                _ => return self.error("an attribute value must be quoted with ' or \""),
            };
            self.position += 1;
            let Some(end) = self.rest().find(quote) else {
                return self.error("attribute value has no closing quote");
            };
            let raw_start = self.position;
            self.position += end + 1;
            let value = unescape(&self.text[raw_start..raw_start + end], raw_start)?;
            if attributes.iter().any(|(n, _)| *n == attribute) {
                return Err(FolderError {
                    offset: raw_start,
                    problem: "attribute given twice",
                });
            }
            attributes.push((attribute, value));
        }
        // Content: text up to '<'. If the next tag is a start tag, this is a group and the text
        // must be blanks.
        let text_start = self.position;
        let Some(lt) = self.rest().find('<') else {
            return self.error("element has no end tag");
        };
        self.position += lt;
        let content = if self.rest().starts_with("</") {
            Content::Value(unescape(
                &self.text[text_start..text_start + lt],
                text_start,
            )?)
        } else {
            if !self.text[text_start..text_start + lt]
                .chars()
                .all(char::is_whitespace)
            {
                return self.error("an element holds either a value or elements, not both");
            }
            let mut children = Vec::new();
            loop {
                self.skip_blanks();
                if self.rest().starts_with("</") {
                    break;
                }
                if self.rest().is_empty() {
                    return self.error("group has no end tag");
                }
                children.push(self.element(depth + 1)?);
            }
            Content::Elements(children)
        };
        self.position += 2;
        let end_name_at = self.position;
        let end_name = self.name()?;
        if end_name != name {
            return Err(FolderError {
                offset: end_name_at,
                problem: "end tag does not match the start tag",
            });
        }
        self.skip_blanks();
        self.expect('>', "expected '>' to close the end tag")?;
        Ok(Element {
            name,
            attributes,
            content,
        })
    }
}

/// Replaces entity and character references in `raw` (which starts at byte `offset` of the
/// folder). A bare `<` or an unknown entity is an error.
fn unescape(raw: &str, offset: usize) -> Result<String, FolderError> {
    if !raw.contains('&') && !raw.contains('<') {
        return Ok(raw.to_owned());
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find(['&', '<']) {
        out.push_str(&rest[..at]);
        let here = offset + (raw.len() - rest.len()) + at;
        if rest[at..].starts_with('<') {
            return Err(FolderError {
                offset: here,
                problem: "'<' inside a value must be written &lt;",
            });
        }
        let Some(semicolon) = rest[at..].find(';') else {
            return Err(FolderError {
                offset: here,
                problem: "'&' without ';' (write & as &amp;)",
            });
        };
        let entity = &rest[at + 1..at + semicolon];
        let c = match entity {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "apos" => '\'',
            "quot" => '"',
            _ => {
                let code = if let Some(hex) = entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(decimal) = entity.strip_prefix('#') {
                    decimal.parse::<u32>().ok()
                } else {
                    None
                };
                match code.and_then(char::from_u32) {
                    Some(c) => c,
                    None => {
                        return Err(FolderError {
                            offset: here,
                            problem: "unknown entity (&lt; &gt; &amp; &apos; &quot; &#N; &#xH;)",
                        })
                    }
                }
            }
        };
        out.push(c);
        rest = &rest[at + semicolon + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(name: &str, attributes: &[(&str, &str)], text: &str) -> Element {
        Element {
            name: name.into(),
            attributes: attributes
                .iter()
                .map(|(a, v)| (a.to_string(), v.to_string()))
                .collect(),
            content: Content::Value(text.into()),
        }
    }

    #[test]
    fn parses_mq_style_folder() {
        let folder =
            Folder::parse("<usr><Colour>red</Colour><Count dt='i4'>3</Count></usr>    ").unwrap();
        assert_eq!(folder.name, "usr");
        assert_eq!(
            folder.elements,
            vec![
                value("Colour", &[], "red"),
                value("Count", &[("dt", "i4")], "3")
            ]
        );
        assert_eq!(
            folder.to_xml(),
            "<usr><Colour>red</Colour><Count dt='i4'>3</Count></usr>"
        );
    }

    #[test]
    fn groups_empty_and_null_elements() {
        let text = "<usr content=\"properties\">\n <g><a>1</a><b/></g>\n <n xsi:nil='true'/></usr>";
        let folder = Folder::parse(text).unwrap();
        assert_eq!(folder.attribute("content"), Some("properties"));
        assert_eq!(folder.elements.len(), 2);
        let Content::Elements(group) = &folder.elements[0].content else {
            panic!("group expected")
        };
        assert_eq!(group[1], value("b", &[], ""));
        assert_eq!(folder.elements[1].attribute("xsi:nil"), Some("true"));
        assert_eq!(Folder::parse(&folder.to_xml()).unwrap(), folder);
    }

    #[test]
    fn escapes_round_trip() {
        let folder = Folder {
            name: "usr".into(),
            attributes: vec![],
            elements: vec![value("s", &[], "a<b>&'\" c ")],
        };
        let xml = folder.to_xml();
        assert_eq!(xml, "<usr><s>a&lt;b&gt;&amp;&apos;&quot; c </s></usr>");
        assert_eq!(Folder::parse(&xml).unwrap(), folder);
        let numeric = Folder::parse("<usr><s>&#65;&#x42;</s></usr>").unwrap();
        assert_eq!(numeric.elements[0].content, Content::Value("AB".into()));
    }

    #[test]
    fn malformed_folders_name_the_offset() {
        for (text, offset) in [
            ("", 0),
            ("usr", 0),
            ("<usr><a>1</b></usr>", 11),
            ("<usr><a>1</a>", 13),
            ("<usr><a>1</a></usr> x", 20),
            ("<usr><a>x &bogus; y</a></usr>", 10),
            ("<usr><a>x & y</a></usr>", 10),
            ("<usr><a dt=i4>1</a></usr>", 11),
            ("<usr><a>text<b>1</b></a></usr>", 12),
            ("<usr><a dt='x' dt='y'>1</a></usr>", 19),
            ("<usr><1a>1</1a></usr>", 6),
        ] {
            let error = Folder::parse(text).unwrap_err();
            assert_eq!(error.offset, offset, "{text}: {error}");
            assert_eq!(error.reason_code(), 2421);
        }
    }

    #[test]
    fn nesting_is_limited() {
        let depth = FOLDER_NESTING_DEPTH_MAX + 1;
        let mut text = String::new();
        for _ in 0..depth {
            text.push_str("<g>");
        }
        for _ in 0..depth {
            text.push_str("</g>");
        }
        let error = Folder::parse(&text).unwrap_err();
        assert!(error.problem.contains("FOLDER_NESTING_DEPTH_MAX"));
        let ok = text.replacen("<g>", "", 1).replacen("</g>", "", 1);
        assert!(Folder::parse(&ok).is_ok());
    }
}
