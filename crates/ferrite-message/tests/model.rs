//! Property-based tests:
//!
//! - random property sets survive properties -> folders -> MQRFH2 bytes (either byte order,
//!   UTF-8 or UTF-16 folders) -> folders -> properties;
//! - random selectors over a fixed message agree with a small reference model of SQL's
//!   three-valued logic written here from the JMS/IBM rules, independently of the crate's
//!   evaluator;
//! - arbitrary bytes, and valid encodings with random mutations, never make a decoder panic.

use std::collections::BTreeMap;

use ferrite_message::{
    fuzz_dead_letter_header, fuzz_folder, fuzz_rfh2, fuzz_selector, fuzz_transmission_header,
    rfh2::Rfh2, MessageProperties, MessageView, PropertyValue, Selector,
};
use ferrite_protocol::{mqi::Md, ByteOrder};
use proptest::prelude::*;

fn name_part() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_]{0,6}".prop_filter("not a keyword nor JMS", |s| {
        !s.starts_with("JMS")
            && ![
                "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS",
                "ESCAPE",
            ]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(s))
    })
}

fn property_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => name_part(),
        1 => (name_part(), name_part()).prop_map(|(a, b)| format!("{a}.{b}")),
        1 => (prop::sample::select(vec!["mcd", "jms", "mqext", "mqps"]), name_part())
            .prop_map(|(f, b)| format!("{f}.{b}")),
    ]
}

fn property_value() -> impl Strategy<Value = PropertyValue> {
    prop_oneof![
        any::<bool>().prop_map(PropertyValue::Boolean),
        prop::collection::vec(any::<u8>(), 0..8).prop_map(PropertyValue::ByteString),
        any::<i8>().prop_map(PropertyValue::Int8),
        any::<i16>().prop_map(PropertyValue::Int16),
        any::<i32>().prop_map(PropertyValue::Int32),
        any::<i64>().prop_map(PropertyValue::Int64),
        any::<f32>()
            .prop_filter("NaN never equals itself", |v| !v.is_nan())
            .prop_map(PropertyValue::Float32),
        any::<f64>()
            .prop_filter("NaN never equals itself", |v| !v.is_nan())
            .prop_map(PropertyValue::Float64),
        "[ -~\u{e9}\u{20ac}]{0,12}".prop_map(PropertyValue::String),
        Just(PropertyValue::Null),
    ]
}

fn sorted(properties: &MessageProperties) -> BTreeMap<String, PropertyValue> {
    properties
        .iter()
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect()
}

proptest! {
    #[test]
    fn properties_round_trip_through_rfh2(
        entries in prop::collection::vec((property_name(), property_value()), 0..24),
        big in any::<bool>(),
        utf16 in any::<bool>(),
    ) {
        let order = if big { ByteOrder::Big } else { ByteOrder::Little };
        let mut properties = MessageProperties::new();
        for (name, value) in entries {
            // A name that is both a property and a group prefix in the same folder is legal;
            // a name that is already set is replaced.
            properties.set(&name, value).unwrap();
        }
        let mut header = Rfh2::new(273, 1208, *b"MQSTR   ");
        if utf16 {
            header.name_value_ccsid = 1200;
        }
        for folder in properties.to_folders() {
            header.push_folder(&folder, order).unwrap();
        }
        let bytes = header.build(order).unwrap();
        prop_assert_eq!(bytes.len() % 4, 0);
        let (parsed, length) = Rfh2::parse(&bytes, order).unwrap();
        prop_assert_eq!(length, bytes.len());
        let (back, others) = MessageProperties::from_folders(&parsed.folders(order).unwrap()).unwrap();
        prop_assert!(others.is_empty());
        prop_assert_eq!(sorted(&back), sorted(&properties));
    }
}

// ---- Selectors against a reference model -------------------------------------------------

/// A model value: the fixed message's properties and the literals compared with them.
#[derive(Clone, Debug, PartialEq)]
enum V {
    S(&'static str),
    I(i64),
    F(f64),
    B(bool),
}

/// The fixed message: name -> value (None = absent or NULL).
fn message_value(name: &str) -> Option<V> {
    match name {
        "Colour" => Some(V::S("red")),
        "Count" => Some(V::I(3)),
        "Ratio" => Some(V::F(0.5)),
        "Flag" => Some(V::B(true)),
        "Off" => Some(V::B(false)),
        _ => None,
    }
}

fn literal_text(value: &V) -> String {
    match value {
        V::S(s) => format!("'{s}'"),
        V::I(i) => i.to_string(),
        V::F(f) => format!("{f:?}"),
        V::B(b) => if *b { "TRUE" } else { "FALSE" }.into(),
    }
}

#[derive(Clone, Debug)]
enum Model {
    Compare(&'static str, &'static str, V),
    IsNull(&'static str, bool),
    Between(&'static str, i64, i64, bool),
    In(&'static str, Vec<&'static str>, bool),
    Like(&'static str, &'static str, bool),
    Ident(&'static str),
    Not(Box<Model>),
    And(Box<Model>, Box<Model>),
    Or(Box<Model>, Box<Model>),
}

const NAMES: [&str; 6] = ["Colour", "Count", "Ratio", "Flag", "Off", "Missing"];

fn model() -> impl Strategy<Value = Model> {
    let name = prop::sample::select(NAMES.to_vec());
    let literal = prop_oneof![
        prop::sample::select(vec!["red", "blue", ""]).prop_map(V::S),
        (-1i64..5).prop_map(V::I),
        prop::sample::select(vec![0.5, 2.0, -1.5]).prop_map(V::F),
        any::<bool>().prop_map(V::B),
    ];
    let operator = prop::sample::select(vec!["=", "<>", "<", "<=", ">", ">="]);
    let leaf = prop_oneof![
        (name.clone(), operator, literal).prop_map(|(n, o, l)| Model::Compare(n, o, l)),
        (name.clone(), any::<bool>()).prop_map(|(n, neg)| Model::IsNull(n, neg)),
        (name.clone(), -2i64..4, 0i64..6, any::<bool>())
            .prop_map(|(n, a, b, neg)| Model::Between(n, a, b, neg)),
        (
            name.clone(),
            prop::collection::vec(prop::sample::select(vec!["red", "green", "x"]), 1..3),
            any::<bool>()
        )
            .prop_map(|(n, l, neg)| Model::In(n, l, neg)),
        (
            name.clone(),
            prop::sample::select(vec!["r%", "%e_", "_", "%", "blue"]),
            any::<bool>()
        )
            .prop_map(|(n, p, neg)| Model::Like(n, p, neg)),
        name.prop_map(Model::Ident),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|m| Model::Not(Box::new(m))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Model::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Model::Or(Box::new(a), Box::new(b))),
        ]
    })
}

fn text(model: &Model) -> String {
    let not = |negated: &bool| if *negated { "NOT " } else { "" };
    match model {
        Model::Compare(n, o, l) => format!("{n} {o} {}", literal_text(l)),
        Model::IsNull(n, negated) => format!("{n} IS {}NULL", not(negated)),
        Model::Between(n, a, b, negated) => format!("{n} {}BETWEEN {a} AND {b}", not(negated)),
        Model::In(n, list, negated) => format!(
            "{n} {}IN ({})",
            not(negated),
            list.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Model::Like(n, p, negated) => format!("{n} {}LIKE '{p}'", not(negated)),
        Model::Ident(n) => n.to_string(),
        Model::Not(m) => format!("NOT ({})", text(m)),
        Model::And(a, b) => format!("({}) AND ({})", text(a), text(b)),
        Model::Or(a, b) => format!("({}) OR ({})", text(a), text(b)),
    }
}

fn number(v: &V) -> Option<f64> {
    match v {
        V::I(i) => Some(*i as f64),
        V::F(f) => Some(*f),
        _ => None,
    }
}

/// JMS/IBM rules: numbers compare numerically across int/float; strings and booleans only with
/// = and <>; anything else (NULL, mixed types) is UNKNOWN.
fn compare(left: &V, operator: &str, right: &V) -> Option<bool> {
    if let (Some(a), Some(b)) = (number(left), number(right)) {
        return Some(match operator {
            "=" => a == b,
            "<>" => a != b,
            "<" => a < b,
            "<=" => a <= b,
            ">" => a > b,
            _ => a >= b,
        });
    }
    let equal = match (left, right) {
        (V::S(a), V::S(b)) => a == b,
        (V::B(a), V::B(b)) => a == b,
        _ => return None,
    };
    match operator {
        "=" => Some(equal),
        "<>" => Some(!equal),
        _ => None,
    }
}

fn like(text: &str, pattern: &str) -> bool {
    // Small patterns only: try every split (exponential in %, fine for these).
    fn go(t: &[char], p: &[char]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some(('%', rest)) => (0..=t.len()).any(|i| go(&t[i..], rest)),
            Some(('_', rest)) => !t.is_empty() && go(&t[1..], rest),
            Some((c, rest)) => t.first() == Some(c) && go(&t[1..], rest),
        }
    }
    let t: Vec<char> = text.chars().collect();
    let p: Vec<char> = pattern.chars().collect();
    go(&t, &p)
}

fn evaluate(model: &Model) -> Option<bool> {
    let flip = |b: bool, negated: &bool| b != *negated;
    match model {
        Model::Compare(n, o, l) => compare(&message_value(n)?, o, l),
        Model::IsNull(n, negated) => Some(flip(message_value(n).is_none(), negated)),
        Model::Between(n, a, b, negated) => {
            let v = message_value(n)?;
            let low = compare(&v, ">=", &V::I(*a));
            let high = compare(&v, "<=", &V::I(*b));
            match (low, high) {
                (Some(false), _) | (_, Some(false)) => Some(*negated),
                (Some(true), Some(true)) => Some(!*negated),
                _ => None,
            }
        }
        Model::In(n, list, negated) => match message_value(n)? {
            V::S(s) => Some(flip(list.contains(&s), negated)),
            _ => None,
        },
        Model::Like(n, p, negated) => match message_value(n)? {
            V::S(s) => Some(flip(like(s, p), negated)),
            _ => None,
        },
        Model::Ident(n) => match message_value(n)? {
            V::B(b) => Some(b),
            _ => None,
        },
        Model::Not(m) => evaluate(m).map(|b| !b),
        Model::And(a, b) => match (evaluate(a), evaluate(b)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        Model::Or(a, b) => match (evaluate(a), evaluate(b)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn selectors_agree_with_the_model(model in model()) {
        let md = Md::default();
        let mut properties = MessageProperties::new();
        properties.set("Colour", PropertyValue::String("red".into())).unwrap();
        properties.set("Count", PropertyValue::Int16(3)).unwrap();
        properties.set("Ratio", PropertyValue::Float32(0.5)).unwrap();
        properties.set("Flag", PropertyValue::Boolean(true)).unwrap();
        properties.set("Off", PropertyValue::Boolean(false)).unwrap();
        let view = MessageView { descriptor: &md, properties: &properties };
        let selector_text = text(&model);
        let selector = Selector::parse(&selector_text)
            .map_err(|e| TestCaseError::fail(format!("{selector_text}: {e}")))?;
        prop_assert_eq!(
            selector.matches(&view),
            evaluate(&model) == Some(true),
            "{}", selector_text
        );
        // NOT of the whole selector is selected exactly when the model says FALSE.
        let negated = Selector::parse(&format!("NOT ({selector_text})")).unwrap();
        prop_assert_eq!(negated.matches(&view), evaluate(&model) == Some(false));
    }
}

// ---- Hostile input --------------------------------------------------------------------------

fn valid_rfh2() -> Vec<u8> {
    let mut data = vec![0u8];
    let mut header = Rfh2::new(273, 1208, *b"MQSTR   ");
    for xml in [
        "<mcd><Msd>jms_text</Msd></mcd>",
        "<usr><Colour>red</Colour><Count dt='i4'>3</Count><g><n xsi:nil='true'/></g></usr>",
    ] {
        header
            .push_folder(
                &ferrite_message::Folder::parse(xml).unwrap(),
                ByteOrder::Big,
            )
            .unwrap();
    }
    data.extend(header.build(ByteOrder::Big).unwrap());
    data
}

fn mutate(mut bytes: Vec<u8>, mutations: &[(usize, u8)]) -> Vec<u8> {
    for (index, value) in mutations {
        if !bytes.is_empty() {
            let i = index % bytes.len();
            bytes[i] = *value;
        }
    }
    bytes
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..600)) {
        fuzz_rfh2(&data);
        fuzz_folder(&data);
        fuzz_selector(&data);
        fuzz_dead_letter_header(&data);
        fuzz_transmission_header(&data);
    }

    #[test]
    fn mutated_rfh2_never_panics(mutations in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        fuzz_rfh2(&mutate(valid_rfh2(), &mutations));
    }

    #[test]
    fn mutated_selectors_never_panic(
        mutations in prop::collection::vec((any::<usize>(), 32u8..127), 1..6),
        truncate in any::<usize>(),
    ) {
        let base = b"(Colour = 'red' OR Count BETWEEN 1 AND 5) AND Name LIKE 'a\\_%' ESCAPE '\\' AND JMSCorrelationID = 'ID:0102' AND Bytes = \"0x0AFC\" AND X IN ('a', -1.5E3)".to_vec();
        let mut mutated = mutate(base, &mutations);
        mutated.truncate(truncate % (mutated.len() + 1));
        fuzz_selector(&mutated);
    }

    #[test]
    fn folder_text_with_markup_never_panics(text in "[<>/a-z='\" &;#x0-9]{0,80}") {
        fuzz_folder(text.as_bytes());
        fuzz_selector(text.as_bytes());
    }
}
