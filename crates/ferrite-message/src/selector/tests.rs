use super::*;
use crate::properties::{MessageProperties, MessageView, PropertyValue};
use ferrite_protocol::mqi::Md;

fn message() -> (Md, MessageProperties) {
    let md = Md {
        correl_id: *b"order-17\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
        msg_id: [0xAB; 24],
        priority: 7,
        persistence: 1,
        put_date: ferrite_protocol::MqChars(*b"20231114"),
        put_time: ferrite_protocol::MqChars(*b"22132000"),
        ..Md::default()
    };
    let mut properties = MessageProperties::new();
    for (name, value) in [
        ("Colour", PropertyValue::String("red".into())),
        ("Size", PropertyValue::Int16(12)),
        ("Count", PropertyValue::Int64(3)),
        ("Weight", PropertyValue::Float32(2.5)),
        ("Flag", PropertyValue::Boolean(true)),
        ("Off", PropertyValue::Boolean(false)),
        ("Bytes", PropertyValue::ByteString(vec![0x0A, 0xFC, 0x23])),
        ("Nothing", PropertyValue::Null),
        ("Quote", PropertyValue::String("it's 50%".into())),
        ("Order.Region", PropertyValue::String("EU".into())),
        ("mcd.Type", PropertyValue::String("Invoice".into())),
    ] {
        if name.starts_with("mcd.") {
            properties.set_unchecked_jms(name, value).unwrap();
        } else {
            properties.set(name, value).unwrap();
        }
    }
    (md, properties)
}

fn check(selector: &str, expected: bool) {
    let (md, properties) = message();
    let view = MessageView {
        descriptor: &md,
        properties: &properties,
    };
    let parsed = Selector::parse(selector).unwrap_or_else(|e| panic!("{selector}: {e}"));
    assert_eq!(parsed.matches(&view), expected, "{selector}");
}

#[test]
fn comparisons_of_each_type() {
    for (selector, expected) in [
        ("Colour = 'red'", true),
        ("Colour <> 'red'", false),
        ("usr.Colour = 'red'", true),
        ("Colour = 'RED'", false),
        ("Size = 12", true),
        ("Size > 11 AND Size < 13", true),
        ("Size >= 12.0", true),
        ("Count * 4 = Size", true),
        ("Size / 5 = 2", true),
        ("Size / 5.0 = 2.4", true),
        ("Weight = 2.5", true),
        ("Weight > 2", true),
        ("-Size = -12", true),
        ("+Size = 12", true),
        ("Size - 2 * 3 = 6", true),
        ("(Size - 2) * 3 = 30", true),
        ("Flag", true),
        ("Flag = TRUE", true),
        ("Off", false),
        ("NOT Off", true),
        ("Flag = 'true'", false),
        ("Bytes = \"0x0AFC23\"", true),
        ("Bytes = \"0x0AFC2300\"", false),
        ("Bytes = \"0x000AFC23\"", false),
        ("Quote = 'it''s 50%'", true),
        ("Order.Region = 'EU'", true),
        ("Size = 0xC", true),
        ("Size = 014", true),
        ("Size = 12L", true),
        ("Size = 1.2E1", true),
        ("TRUE", true),
        ("FALSE", false),
        ("  ", true),
        ("", true),
    ] {
        check(selector, expected);
    }
}

#[test]
fn three_valued_logic() {
    for (selector, expected) in [
        ("Missing = 1", false),
        ("NOT (Missing = 1)", false),
        ("Missing = 1 OR Size = 12", true),
        ("Missing = 1 AND Size = 12", false),
        ("NOT (Missing = 1 AND Size = 99)", true),
        ("NOT (Missing = 1 OR Size = 99)", false),
        ("Missing IS NULL", true),
        ("Nothing IS NULL", true),
        ("Colour IS NULL", false),
        ("Colour IS NOT NULL", true),
        ("Nothing = 'x' OR Nothing IS NULL", true),
        ("Colour = 1", false),
        ("NOT (Colour = 1)", false),
        ("Colour > 'a'", false),
        ("NOT (Colour > 'a')", false),
        ("Colour + 1 = 2", false),
        ("Size / 0 = 1", false),
        ("NOT (Size / 0 = 1)", false),
        ("Missing", false),
        ("NOT Missing", false),
        ("Colour", false),
    ] {
        check(selector, expected);
    }
}

#[test]
fn between_in_like() {
    for (selector, expected) in [
        ("Size BETWEEN 10 AND 12", true),
        ("Size BETWEEN 13 AND 20", false),
        ("Size NOT BETWEEN 13 AND 20", true),
        ("Weight BETWEEN 2 AND 3", true),
        ("Missing BETWEEN 1 AND 2", false),
        ("NOT (Missing BETWEEN 1 AND 2)", false),
        ("Size BETWEEN Count AND 20", true),
        ("Colour IN ('green', 'red')", true),
        ("Colour NOT IN ('green', 'red')", false),
        ("Colour IN ('green')", false),
        ("Missing IN ('green')", false),
        ("NOT (Missing IN ('green'))", false),
        ("Size IN (11, 12, -3)", true),
        ("Size IN ('12')", false),
        ("NOT (Size IN ('12'))", false),
        ("Colour LIKE 'r%'", true),
        ("Colour LIKE '_ed'", true),
        ("Colour LIKE 'r_'", false),
        ("Colour NOT LIKE 'b%'", true),
        ("Quote LIKE '%50\\%' ESCAPE '\\'", true),
        ("Quote LIKE '%5!_' ESCAPE '!'", false),
        ("Missing LIKE '%'", false),
        ("Size LIKE '1%'", false),
    ] {
        check(selector, expected);
    }
}

#[test]
fn jms_header_fields() {
    for (selector, expected) in [
        ("JMSPriority = 7", true),
        ("JMSPriority > 4", true),
        ("JMSDeliveryMode = 'NON_PERSISTENT'", false),
        ("JMSDeliveryMode = 'PERSISTENT'", true),
        ("JMSCorrelationID = 'order-17'", true),
        ("JMSCorrelationID = 'order-18'", false),
        ("JMSCorrelationID <> 'order-18'", true),
        ("JMSType = 'Invoice'", true),
        ("JMSTimestamp = 1700000000000", true),
        (
            "JMSTimestamp > 1600000000000 AND JMSPriority BETWEEN 5 AND 9",
            true,
        ),
        (&format!("JMSMessageID = 'ID:{}'", "AB".repeat(24)), true),
        ("JMSDestination IS NULL", true),
        ("JMSXDeliveryCount = 1", true),
        ("Root.MQMD.Priority = 7", true),
        (
            &format!(
                "Root.MQMD.CorrelId = \"0x6F726465722D3137{}\"",
                "00".repeat(16)
            ),
            true,
        ),
        (
            &format!(
                "Root.MQMD.CorrelId = \"0x6F726465722D3138{}\"",
                "00".repeat(16)
            ),
            false,
        ),
        ("Root.MQMD.Persistence = 1", true),
        ("Root.MQMD.Nonsense IS NULL", true),
    ] {
        check(selector, expected);
    }
}

#[test]
fn correlation_id_shortcut() {
    let hex = format!("ID:{}", "0123456789ABCDEF".repeat(3));
    let key = crate::jms::correlation_id_bytes(&hex);
    assert_eq!(key[..2], [0x01, 0x23]);
    for (selector, expected) in [
        (format!("JMSCorrelationID = '{hex}'"), Some(key)),
        (format!("'{hex}' = JMSCorrelationID"), Some(key)),
        (
            format!("Colour = 'red' AND JMSCorrelationID = '{hex}'"),
            Some(key),
        ),
        (format!("(JMSCorrelationID = '{hex}')"), Some(key)),
        (
            format!("Colour = 'red' OR JMSCorrelationID = '{hex}'"),
            None,
        ),
        (format!("NOT JMSCorrelationID = '{hex}'"), None),
        (format!("JMSCorrelationID <> '{hex}'"), None),
        (
            "JMSCorrelationID = 'order-17'".into(),
            Some(*b"order-17\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"),
        ),
        (format!("JMSCorrelationID = '{}'", "x".repeat(25)), None),
        ("Colour = 'red'".into(), None),
        ("JMSCorrelationID IN ('a')".into(), None),
        (
            format!("Root.MQMD.CorrelId = \"0x{}\"", "01".repeat(24)),
            Some([1; 24]),
        ),
        (
            format!("Root.MQMD.CorrelId = \"0x{}\"", "01".repeat(23)),
            None,
        ),
    ] {
        let parsed = Selector::parse(&selector).unwrap();
        assert_eq!(parsed.correlation_id_equality(), expected, "{selector}");
    }
    // The shortcut and evaluation agree on the test message.
    let (md, properties) = message();
    let view = MessageView {
        descriptor: &md,
        properties: &properties,
    };
    let selector = Selector::parse("JMSCorrelationID = 'order-17' AND Size = 12").unwrap();
    assert!(selector.matches(&view));
    assert_eq!(selector.correlation_id_equality(), Some(md.correl_id));
    let by_hex = Selector::parse(&format!(
        "JMSCorrelationID = '{}'",
        crate::jms::id_string(&md.correl_id)
    ))
    .unwrap();
    assert!(by_hex.matches(&view));
}

#[test]
fn jms_cid_folder_wins_over_the_descriptor() {
    let (md, mut properties) = message();
    properties
        .set_unchecked_jms(
            "jms.Cid",
            PropertyValue::String("a-much-longer-correlation-id-string".into()),
        )
        .unwrap();
    let view = MessageView {
        descriptor: &md,
        properties: &properties,
    };
    assert!(
        Selector::parse("JMSCorrelationID = 'a-much-longer-correlation-id-string'")
            .unwrap()
            .matches(&view)
    );
    assert!(!Selector::parse("JMSCorrelationID = 'order-17'")
        .unwrap()
        .matches(&view));
}

#[test]
fn message_id_shortcut() {
    let id = format!("ID:{}", "AB".repeat(24));
    let parsed = Selector::parse(&format!("JMSMessageID = '{id}' AND Colour = 'red'")).unwrap();
    assert_eq!(parsed.message_id_equality(), Some([0xAB; 24]));
    check(&format!("JMSMessageID = '{id}' AND Colour = 'red'"), true);
    assert_eq!(
        Selector::parse("JMSMessageID = 'ID:AB'")
            .unwrap()
            .message_id_equality(),
        None
    );
    assert_eq!(
        Selector::parse("JMSMessageID = 'x'")
            .unwrap()
            .message_id_equality(),
        None
    );
    assert_eq!(
        Selector::parse(&format!("Root.MQMD.MsgId = \"0x{}\"", "AB".repeat(24)))
            .unwrap()
            .message_id_equality(),
        Some([0xAB; 24])
    );
}

#[test]
fn constant_selectors() {
    assert_eq!(
        Selector::parse("1 = 2").unwrap().constant_value(),
        Some(false)
    );
    assert_eq!(
        Selector::parse("TRUE <> FALSE").unwrap().constant_value(),
        Some(true)
    );
    assert_eq!(Selector::parse("a = 2").unwrap().constant_value(), None);
    assert_eq!(Selector::parse("").unwrap().constant_value(), None);
}

#[test]
fn syntax_errors_name_the_position() {
    for (selector, position) in [
        ("Colour =", 9),
        ("= 'red'", 1),
        ("Colour = 'red' AND", 19),
        ("Colour == 'red'", 9),
        ("20 < b < 30", 8),
        ("(a = 1", 7),
        ("a = 1)", 6),
        ("'red'", 1),
        ("5", 1),
        ("a + 1", 1),
        ("a AND 5", 7),
        ("NOT 'x'", 5),
        ("'a' + 1 = 2", 1),
        ("a BETWEEN 'x' AND 'y'", 11),
        ("'a' IN ('a')", 1),
        ("a IN (b)", 7),
        ("a IN ()", 7),
        ("a LIKE b", 8),
        ("a LIKE 'x' ESCAPE 'xy'", 19),
        ("a LIKE 'x!' ESCAPE '!'", 1),
        ("a IS 5", 6),
        ("1 + 1 IS NULL", 1),
        ("(a = 1) = TRUE", 1),
        ("a && b", 3),
        ("a = 1 b = 2", 7),
        ("NULL = 1", 1),
    ] {
        let error = Selector::parse(selector).unwrap_err();
        assert_eq!(error.position, position, "{selector}: {error}");
        assert_eq!(error.reason_code(), 2459);
        assert!(error.to_string().contains("MQRC_SELECTOR_SYNTAX_ERROR"));
    }
}

#[test]
fn limits_are_enforced() {
    let long = format!("a = '{}'", "x".repeat(SELECTOR_LENGTH_MAX_BYTES));
    let error = Selector::parse(&long).unwrap_err();
    assert!(error.problem.contains("at most 10240"), "{error}");
    let deep = format!(
        "{}a = 1{}",
        "(".repeat(SELECTOR_NESTING_DEPTH_MAX + 1),
        ")".repeat(SELECTOR_NESTING_DEPTH_MAX + 1)
    );
    assert!(Selector::parse(&deep)
        .unwrap_err()
        .problem
        .contains("SELECTOR_NESTING_DEPTH_MAX"));
    let ok = format!(
        "{}a = 1{}",
        "(".repeat(SELECTOR_NESTING_DEPTH_MAX - 1),
        ")".repeat(SELECTOR_NESTING_DEPTH_MAX - 1)
    );
    Selector::parse(&ok).unwrap();
    let nots = format!("{}a", "NOT ".repeat(SELECTOR_NESTING_DEPTH_MAX + 1));
    assert!(Selector::parse(&nots).is_err());
    let chain = format!("a{} = 1", " + 1".repeat(SELECTOR_NESTING_DEPTH_MAX + 1));
    assert!(Selector::parse(&chain)
        .unwrap_err()
        .problem
        .contains("SELECTOR_NESTING_DEPTH_MAX"));
    let wide = vec!["a = 1"; 1000].join(" AND ");
    assert!(wide.len() <= SELECTOR_LENGTH_MAX_BYTES);
    check(&wide, false);
}
