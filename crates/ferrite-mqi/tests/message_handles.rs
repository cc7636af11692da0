//! Message handles (MQCRTMH, MQSETMP, MQINQMP, MQDLTMP, MQDLTMH), properties put from a handle
//! and got into one, and the queue's PROPCTL deciding where properties go at MQGET.

use ferrite_constants::{
    format::{MQFMT_RF_HEADER_2, MQFMT_STRING},
    get_options::*,
    misc::*,
    open_options::*,
    put_options::*,
    reason::*,
};
use ferrite_mqi::message_handles::PropertyValue;
use ferrite_mqi::*;
use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

fn reason<T: std::fmt::Debug>(result: MqResult<T>) -> i32 {
    result.expect_err("the call should fail").reason
}

/// Put `body` as a string with properties from a new handle holding `properties`.
fn put_with_properties(
    connection: &mut Connection,
    hobj: Hobj,
    properties: &[(&str, PropertyValue)],
    body: &[u8],
) {
    let hmsg = connection.create_message_handle(0).unwrap();
    for (name, value) in properties {
        connection
            .set_message_property(hmsg, name, value.clone())
            .unwrap();
    }
    let mut md = Mqmd {
        format: MQFMT_STRING,
        ..Mqmd::default()
    };
    let mut pmo = Mqpmo {
        original_msg_handle: Some(hmsg),
        ..Mqpmo::with_options(MQPMO_NO_SYNCPOINT)
    };
    connection.put(hobj, &mut md, &mut pmo, body).unwrap();
    connection.delete_message_handle(hmsg).unwrap();
}

fn get(
    connection: &mut Connection,
    hobj: Hobj,
    options: i32,
    handle: Option<Hmsg>,
) -> (Mqmd, Vec<u8>) {
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo {
        msg_handle: handle,
        ..Mqgmo::with_options(options | MQGMO_NO_SYNCPOINT)
    };
    let mut buffer = vec![0u8; 4096];
    let result = connection
        .get(hobj, &mut md, &mut gmo, &mut buffer)
        .unwrap();
    buffer.truncate(result.returned_length);
    assert_eq!(result.data_length, result.returned_length);
    (md, buffer)
}

fn properties() -> Vec<(&'static str, PropertyValue)> {
    vec![
        ("colour", PropertyValue::String("blue".into())),
        ("size", PropertyValue::Int32(42)),
        ("urgent", PropertyValue::Boolean(true)),
    ]
}

#[test]
fn properties_travel_from_a_put_handle_into_a_get_handle() {
    let (_directory, queue_manager) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED | MQOO_OUTPUT)
        .unwrap();
    put_with_properties(&mut connection, hobj, &properties(), b"hello");

    let hmsg = connection.create_message_handle(MQCMHO_VALIDATE).unwrap();
    let (md, data) = get(&mut connection, hobj, 0, Some(hmsg));
    assert_eq!(data, b"hello");
    assert_eq!(md.format, MQFMT_STRING);
    // MQINQMP: by name, by wildcard in order, with type conversion.
    assert_eq!(
        connection
            .inquire_message_property(hmsg, "size", MQIMPO_INQ_FIRST, MQTYPE_AS_SET)
            .unwrap(),
        ("size".to_string(), PropertyValue::Int32(42))
    );
    let mut names = Vec::new();
    let mut options = MQIMPO_INQ_FIRST;
    loop {
        match connection.inquire_message_property(hmsg, "%", options, MQTYPE_AS_SET) {
            Ok((name, _)) => names.push(name),
            Err(error) => {
                assert_eq!(error.reason, MQRC_PROPERTY_NOT_AVAILABLE);
                break;
            }
        }
        options = MQIMPO_INQ_NEXT;
    }
    assert_eq!(names, ["colour", "size", "urgent"]);
    assert_eq!(
        connection
            .inquire_message_property(hmsg, "size", MQIMPO_CONVERT_TYPE, MQTYPE_STRING)
            .unwrap()
            .1,
        PropertyValue::String("42".into())
    );
    assert_eq!(
        reason(connection.inquire_message_property(hmsg, "size", 0, MQTYPE_STRING)),
        MQRC_PROPERTY_TYPE_ERROR
    );
    connection.delete_message_property(hmsg, "size").unwrap();
    assert_eq!(
        reason(connection.delete_message_property(hmsg, "size")),
        MQRC_PROPERTY_NOT_AVAILABLE
    );
    assert_eq!(
        reason(connection.inquire_message_property(hmsg, "nothing%", 0, MQTYPE_AS_SET)),
        MQRC_PROPERTY_NOT_AVAILABLE
    );
    // Names MQ refuses, options it refuses, handles that do not exist.
    assert_eq!(
        reason(connection.set_message_property(hmsg, "JMSPriority", PropertyValue::Int32(1))),
        MQRC_PROPERTY_NAME_ERROR
    );
    assert_eq!(
        reason(connection.inquire_message_property(hmsg, "%", 0x4000, MQTYPE_AS_SET)),
        MQRC_IMPO_ERROR
    );
    assert_eq!(
        reason(connection.create_message_handle(MQCMHO_VALIDATE | MQCMHO_NO_VALIDATION)),
        MQRC_CMHO_ERROR
    );
    connection.delete_message_handle(hmsg).unwrap();
    assert_eq!(
        reason(connection.delete_message_handle(hmsg)),
        MQRC_HMSG_ERROR
    );
    assert_eq!(
        reason(connection.set_message_property(hmsg, "a", PropertyValue::Null)),
        MQRC_HMSG_ERROR
    );
}

#[test]
fn a_bad_message_handle_fails_the_get_before_any_message_is_taken() {
    let (_directory, queue_manager) = queue_manager(&["Q1"]);
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED | MQOO_OUTPUT)
        .unwrap();
    put_with_properties(&mut connection, hobj, &properties(), b"kept");
    let mut gmo = Mqgmo {
        msg_handle: Some(Hmsg(999)),
        ..Mqgmo::with_options(MQGMO_NO_SYNCPOINT)
    };
    let mut buffer = [0u8; 64];
    assert_eq!(
        reason(connection.get(hobj, &mut Mqmd::default(), &mut gmo, &mut buffer)),
        MQRC_HMSG_ERROR
    );
    assert_eq!(queue_manager.queue("Q1").unwrap().depth(), 1);
}

#[test]
fn propctl_and_get_options_decide_where_properties_go() {
    let (_directory, queue_manager) = queue_manager(&[]);
    for (name, control) in [
        ("Q.COMPAT", "COMPAT"),
        ("Q.NONE", "NONE"),
        ("Q.FORCE", "FORCE"),
        ("Q.ALL", "ALL"),
        ("Q.V6", "V6COMPAT"),
    ] {
        let mut definition = QueueDefinition::local(name, PageSetId(1));
        definition.property_control = control.into();
        define(&queue_manager, definition);
    }
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    // (queue, get options, with a handle, expect an MQRFH2 in the data, expect the handle filled)
    let cases = [
        ("Q.COMPAT", 0, false, true, false),
        ("Q.COMPAT", 0, true, false, true),
        ("Q.COMPAT", MQGMO_NO_PROPERTIES, false, false, false),
        ("Q.COMPAT", MQGMO_PROPERTIES_FORCE_MQRFH2, true, true, false),
        ("Q.NONE", 0, false, false, false),
        ("Q.NONE", 0, true, false, false),
        ("Q.NONE", MQGMO_PROPERTIES_FORCE_MQRFH2, false, true, false),
        ("Q.FORCE", 0, true, true, false),
        ("Q.ALL", 0, false, true, false),
        ("Q.ALL", 0, true, false, true),
        ("Q.ALL", MQGMO_PROPERTIES_IN_HANDLE, true, false, true),
        ("Q.V6", 0, false, true, false),
    ];
    for (queue, options, with_handle, expect_rfh2, expect_handle) in cases {
        let hobj = connection
            .open(&mut Mqod::queue(queue), MQOO_INPUT_SHARED | MQOO_OUTPUT)
            .unwrap();
        put_with_properties(&mut connection, hobj, &properties(), b"body");
        let hmsg = connection.create_message_handle(0).unwrap();
        connection
            .set_message_property(hmsg, "stale", PropertyValue::Int8(1))
            .unwrap();
        let (md, data) = get(&mut connection, hobj, options, with_handle.then_some(hmsg));
        let case = format!("{queue} options {options:#x} handle {with_handle}");
        if expect_rfh2 {
            assert_eq!(md.format, MQFMT_RF_HEADER_2, "{case}");
            assert!(
                data.starts_with(b"RFH ") && data.ends_with(b"body"),
                "{case}"
            );
        } else {
            assert_eq!(md.format, MQFMT_STRING, "{case}");
            assert_eq!(data, b"body", "{case}");
        }
        let colour = connection.inquire_message_property(hmsg, "colour", 0, MQTYPE_AS_SET);
        let stale = connection.inquire_message_property(hmsg, "stale", 0, MQTYPE_AS_SET);
        if expect_handle {
            assert_eq!(
                colour.unwrap().1,
                PropertyValue::String("blue".into()),
                "{case}"
            );
            assert!(
                stale.is_err(),
                "{case}: a get replaces the handle's properties"
            );
        } else if with_handle {
            // Properties not delivered into the handle leave it empty (MQ replaces them).
            assert!(colour.is_err(), "{case}");
        }
        connection.delete_message_handle(hmsg).unwrap();
        connection.close(hobj, 0).unwrap();
    }
}
