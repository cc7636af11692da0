//! The REST API's queue attributes (IBM MQ's `/admin/qmgr/{qmgr}/queue` resource) and the
//! MQSC keywords they stand for, both ways: a DISPLAY's keywords become the JSON groups
//! (`general`, `storage`, ...), and a POST or PATCH body's groups become DEFINE or ALTER
//! keywords.

use serde_json::{Map, Value};

use crate::errors::{RestError, RestResult};

/// How a REST value maps to an MQSC keyword.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A string, quoted in MQSC.
    Text,
    /// A whole number.
    Number,
    /// `true` is the first MQSC value, `false` the second (PUT(DISABLED) is inhibitPut true).
    Choice(&'static str, &'static str),
    /// Keywords without value: `true` is the first, `false` the second (SHARE, NOSHARE).
    Switch(&'static str, &'static str),
    /// Named values: (REST, MQSC) pairs.
    Names(&'static [(&'static str, &'static str)]),
}

/// One attribute: its group, REST name, MQSC keyword and kind.
pub struct Attribute {
    pub group: &'static str,
    pub name: &'static str,
    pub keyword: &'static str,
    pub kind: Kind,
}

pub const fn attribute(
    group: &'static str,
    name: &'static str,
    keyword: &'static str,
    kind: Kind,
) -> Attribute {
    Attribute {
        group,
        name,
        keyword,
        kind,
    }
}

/// The queue attributes of the REST API that Ferrite's queues have.
pub const QUEUE_ATTRIBUTES: &[Attribute] = &[
    attribute("general", "description", "DESCR", Kind::Text),
    attribute(
        "general",
        "inhibitPut",
        "PUT",
        Kind::Choice("DISABLED", "ENABLED"),
    ),
    attribute(
        "general",
        "inhibitGet",
        "GET",
        Kind::Choice("DISABLED", "ENABLED"),
    ),
    attribute(
        "general",
        "isTransmissionQueue",
        "USAGE",
        Kind::Choice("XMITQ", "NORMAL"),
    ),
    attribute(
        "applicationDefaults",
        "persistence",
        "DEFPSIST",
        Kind::Names(&[("persistent", "YES"), ("nonPersistent", "NO")]),
    ),
    attribute("applicationDefaults", "priority", "DEFPRTY", Kind::Number),
    attribute(
        "applicationDefaults",
        "putResponse",
        "DEFPRESP",
        Kind::Names(&[("synchronous", "SYNC"), ("asynchronous", "ASYNC")]),
    ),
    attribute("storage", "maximumDepth", "MAXDEPTH", Kind::Number),
    attribute("storage", "maximumMessageLength", "MAXMSGL", Kind::Number),
    attribute(
        "storage",
        "messageDeliverySequence",
        "MSGDLVSQ",
        Kind::Names(&[("priority", "PRIORITY"), ("fifo", "FIFO")]),
    ),
    attribute("storage", "storageClass", "STGCLASS", Kind::Text),
    attribute("extended", "backoutThreshold", "BOTHRESH", Kind::Number),
    attribute("extended", "backoutRequeueQueue", "BOQNAME", Kind::Text),
    attribute(
        "extended",
        "shareable",
        "SHARE",
        Kind::Switch("SHARE", "NOSHARE"),
    ),
    attribute(
        "extended",
        "hardenBackoutCount",
        "HARDENBO",
        Kind::Switch("HARDENBO", "NOHARDENBO"),
    ),
    attribute(
        "trigger",
        "enabled",
        "TRIGGER",
        Kind::Switch("TRIGGER", "NOTRIGGER"),
    ),
    attribute(
        "trigger",
        "type",
        "TRIGTYPE",
        Kind::Names(&[
            ("first", "FIRST"),
            ("every", "EVERY"),
            ("depth", "DEPTH"),
            ("none", "NONE"),
        ]),
    ),
    attribute("trigger", "depth", "TRIGDPTH", Kind::Number),
    attribute("trigger", "initiationQueueName", "INITQ", Kind::Text),
    attribute("trigger", "processName", "PROCESS", Kind::Text),
    attribute("trigger", "data", "TRIGDATA", Kind::Text),
    attribute(
        "events",
        "depthHigh.enabled",
        "QDPHIEV",
        Kind::Choice("ENABLED", "DISABLED"),
    ),
    attribute("events", "depthHigh.value", "QDEPTHHI", Kind::Number),
    attribute(
        "events",
        "depthLow.enabled",
        "QDPLOEV",
        Kind::Choice("ENABLED", "DISABLED"),
    ),
    attribute("events", "depthLow.value", "QDEPTHLO", Kind::Number),
    attribute(
        "events",
        "depthFull.enabled",
        "QDPMAXEV",
        Kind::Choice("ENABLED", "DISABLED"),
    ),
    attribute("alias", "targetName", "TARGET", Kind::Text),
    attribute("remote", "queueName", "RNAME", Kind::Text),
    attribute("remote", "qmgrName", "RQMNAME", Kind::Text),
    attribute("remote", "transmissionQueueName", "XMITQ", Kind::Text),
];

/// The queue status attributes (`status=`), from DISPLAY QSTATUS.
pub const QUEUE_STATUS: &[(&str, &str)] = &[
    ("currentDepth", "CURDEPTH"),
    ("openInputCount", "IPPROCS"),
    ("openOutputCount", "OPPROCS"),
    ("uncommittedMessages", "UNCOM"),
    ("oldestMessageAge", "MSGAGE"),
];

/// The REST queue types and the MQSC ones.
pub const QUEUE_TYPES: &[(&str, &str)] = &[
    ("local", "QLOCAL"),
    ("alias", "QALIAS"),
    ("remote", "QREMOTE"),
    ("model", "QMODEL"),
];

/// The REST name of an MQSC queue type.
pub fn rest_type(mqsc: &str) -> &str {
    QUEUE_TYPES
        .iter()
        .find(|(_, keyword)| *keyword == mqsc)
        .map(|(rest, _)| *rest)
        .unwrap_or(mqsc)
}

/// The JSON value of a displayed MQSC value, or `None` when this attribute is not displayed.
pub fn rest_value(attribute: &Attribute, displayed: &[(String, String)]) -> Option<Value> {
    let value_of = |keyword: &str| {
        displayed
            .iter()
            .find(|(name, _)| name == keyword)
            .map(|(_, value)| value.clone())
    };
    match attribute.kind {
        Kind::Switch(on, off) => {
            if value_of(on).is_some() {
                Some(Value::Bool(true))
            } else {
                value_of(off).map(|_| Value::Bool(false))
            }
        }
        Kind::Text => value_of(attribute.keyword).map(|value| Value::String(unquote(&value))),
        Kind::Number => value_of(attribute.keyword).map(|value| match value.as_str() {
            // A topic's inherited figure (DEFPRTY(ASPARENT)).
            "ASPARENT" => Value::String("asParent".into()),
            _ => value
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or(Value::String(value)),
        }),
        Kind::Choice(yes, _) => value_of(attribute.keyword).map(|value| Value::Bool(value == yes)),
        Kind::Names(names) => value_of(attribute.keyword).map(|value| {
            let rest = names
                .iter()
                .find(|(_, mqsc)| *mqsc == value)
                .map(|(rest, _)| rest.to_string())
                .unwrap_or(value);
            Value::String(rest)
        }),
    }
}

/// An MQSC value without its quotes (`'it''s'` is `it's`).
pub fn unquote(value: &str) -> String {
    match value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        Some(inner) => inner.replace("''", "'"),
        None => value.to_string(),
    }
}

/// Whether `attributes=` (its comma-separated `group.name`, `group` or `*`) asks for one.
pub fn wanted(selection: &[String], group: &str, name: &str) -> bool {
    selection
        .iter()
        .any(|asked| asked == "*" || asked == group || asked == &format!("{group}.{name}"))
}

/// Adds the asked-for attributes of a displayed queue to its JSON object.
pub fn add_attributes(
    object: &mut Map<String, Value>,
    displayed: &[(String, String)],
    selection: &[String],
) {
    add_attributes_of(QUEUE_ATTRIBUTES, object, displayed, selection);
}

/// Adds the asked-for attributes of `table` (a resource's attributes) that a DISPLAY showed
/// to the object.
pub fn add_attributes_of(
    table: &[Attribute],
    object: &mut Map<String, Value>,
    displayed: &[(String, String)],
    selection: &[String],
) {
    for attribute in table {
        if !wanted(selection, attribute.group, attribute.name) {
            continue;
        }
        if let Some(value) = rest_value(attribute, displayed) {
            insert(object, attribute.group, attribute.name, value);
        }
    }
}

/// Adds the asked-for status figures (`status=`) of a DISPLAY QSTATUS to the object.
pub fn add_status(
    object: &mut Map<String, Value>,
    displayed: &[(String, String)],
    selection: &[String],
) {
    for (name, keyword) in QUEUE_STATUS {
        if !wanted(selection, "status", name) {
            continue;
        }
        if let Some((_, value)) = displayed.iter().find(|(key, _)| key == keyword) {
            insert(object, "status", name, Value::from(status_number(value)));
        }
    }
}

/// A status figure as a number: MQ for z/OS's UNCOM(YES/NO) as 1 or 0, and a blank (no
/// oldest message) as -1, as the REST API shows a figure that is not available.
fn status_number(value: &str) -> i64 {
    match value {
        "YES" => 1,
        "NO" => 0,
        _ => value.parse().unwrap_or(-1),
    }
}

/// Puts `value` at `group.name` (a dotted name nests further: `depthHigh.enabled`).
fn insert(object: &mut Map<String, Value>, group: &str, name: &str, value: Value) {
    let mut target = object
        .entry(group.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    let mut parts = name.split('.').peekable();
    while let Some(part) = parts.next() {
        let map = target.as_object_mut().expect("groups are objects");
        if parts.peek().is_none() {
            map.insert(part.to_string(), value);
            return;
        }
        target = map
            .entry(part.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

/// The MQSC keywords a POST or PATCH body's attribute groups stand for (`name` and `type`
/// excluded): 400 for an attribute the API does not have or a value of the wrong kind.
pub fn keywords(body: &Map<String, Value>) -> RestResult<Vec<String>> {
    let mut keywords = Vec::new();
    for (group, members) in body {
        if group == "name" || group == "type" {
            continue;
        }
        let members = members.as_object().ok_or_else(|| unknown(group))?;
        flatten(group, "", members, &mut keywords)?;
    }
    Ok(keywords)
}

fn flatten(
    group: &str,
    prefix: &str,
    members: &Map<String, Value>,
    keywords: &mut Vec<String>,
) -> RestResult<()> {
    for (name, value) in members {
        let full = format!("{prefix}{name}");
        if let Value::Object(nested) = value {
            flatten(group, &format!("{full}."), nested, keywords)?;
            continue;
        }
        let attribute = QUEUE_ATTRIBUTES
            .iter()
            .find(|attribute| attribute.group == group && attribute.name == full)
            .ok_or_else(|| unknown(&format!("{group}.{full}")))?;
        keywords.push(keyword(attribute, value)?);
    }
    Ok(())
}

fn keyword(attribute: &Attribute, value: &Value) -> RestResult<String> {
    let wrong = || {
        RestError::bad_request(
            "MQWB0008E",
            format!(
                "The value {value} of attribute {}.{} is not valid.",
                attribute.group, attribute.name
            ),
            ferrite_constants::pcf_reason::MQRCCF_PARM_SYNTAX_ERROR,
        )
    };
    let keyword = attribute.keyword;
    Ok(match attribute.kind {
        Kind::Text => format!(
            "{keyword}({})",
            crate::commands::quote(value.as_str().ok_or_else(wrong)?)
        ),
        Kind::Number => format!("{keyword}({})", value.as_u64().ok_or_else(wrong)?),
        Kind::Choice(yes, no) => {
            format!(
                "{keyword}({})",
                if value.as_bool().ok_or_else(wrong)? {
                    yes
                } else {
                    no
                }
            )
        }
        Kind::Switch(on, off) => (if value.as_bool().ok_or_else(wrong)? {
            on
        } else {
            off
        })
        .to_string(),
        Kind::Names(names) => {
            let text = value.as_str().ok_or_else(wrong)?;
            let (_, mqsc) = names
                .iter()
                .find(|(rest, _)| *rest == text)
                .ok_or_else(wrong)?;
            format!("{keyword}({mqsc})")
        }
    })
}

fn unknown(name: &str) -> RestError {
    RestError::bad_request(
        "MQWB0006E",
        format!("The attribute {name} is not valid for the queue resource."),
        ferrite_constants::pcf_reason::MQRCCF_PARM_SYNTAX_ERROR,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn displayed(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn displayed_keywords_become_groups() {
        let mut object = Map::new();
        let shown = displayed(&[
            ("DESCR", "it''s"),
            ("PUT", "DISABLED"),
            ("MAXDEPTH", "5000"),
            ("NOSHARE", ""),
            ("DEFPSIST", "YES"),
            ("QDPHIEV", "ENABLED"),
        ]);
        add_attributes(&mut object, &shown, &["*".to_string()]);
        assert_eq!(object["general"]["inhibitPut"], json!(true));
        assert_eq!(object["storage"]["maximumDepth"], json!(5000));
        assert_eq!(object["extended"]["shareable"], json!(false));
        assert_eq!(
            object["applicationDefaults"]["persistence"],
            json!("persistent")
        );
        assert_eq!(object["events"]["depthHigh"]["enabled"], json!(true));
        let mut only = Map::new();
        add_attributes(&mut only, &shown, &["storage.maximumDepth".to_string()]);
        assert_eq!(
            Value::Object(only),
            json!({"storage": {"maximumDepth": 5000}})
        );
    }

    #[test]
    fn body_groups_become_keywords_and_unknown_ones_are_refused() {
        let body = json!({"name": "A", "storage": {"maximumDepth": 10}, "general": {"inhibitGet": true, "description": "x'y"}, "extended": {"shareable": false}});
        let mut found = keywords(body.as_object().unwrap()).unwrap();
        found.sort();
        assert_eq!(
            found,
            vec!["DESCR('x''y')", "GET(DISABLED)", "MAXDEPTH(10)", "NOSHARE"]
        );
        let bad = json!({"storage": {"maximumDepthh": 10}});
        assert_eq!(keywords(bad.as_object().unwrap()).unwrap_err().status, 400);
        let wrong = json!({"storage": {"maximumDepth": "ten"}});
        assert_eq!(
            keywords(wrong.as_object().unwrap()).unwrap_err().status,
            400
        );
    }
}
