//! MQINQ's MQCC_WARNING with MQRC_SELECTOR_NOT_FOR_TYPE travels in the MQINQ reply's
//! CompCode/Reason with the not-applicable values (MQIAV_NOT_APPLICABLE, asterisks), over the
//! bindings socket and over a SVRCONN channel.

mod support;

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{completion::*, open_options::*, reason::*, selector::*};
use ferrite_mqi::{AttributeValue, Inquired, Mqcno, Mqod};
use ferrite_queue_manager::{AliasDefinition, ObjectDefinition};
use ferrite_server::ServerConfig;
use support::*;

const QUEUE: &str = "FERRITE.INQ.Q";
const ALIAS: &str = "FERRITE.INQ.ALIAS";

fn define_alias(fixture: &Fixture) {
    fixture
        .queue_manager
        .define_object(
            ObjectDefinition::Alias(AliasDefinition::new(ALIAS, QUEUE)),
            false,
        )
        .unwrap();
}

/// The same inquiries whichever transport `connection` uses.
fn check_not_for_type(connection: &mut Connection) {
    let local = connection
        .open(&mut Mqod::queue(QUEUE), MQOO_INQUIRE)
        .unwrap();
    let Inquired { values, warning } = connection
        .inquire(
            local,
            &[MQIA_CURRENT_Q_DEPTH, MQCA_BASE_Q_NAME, MQCA_Q_NAME],
        )
        .unwrap();
    assert_eq!(
        values,
        vec![
            AttributeValue::Integer(0),
            AttributeValue::Text("*".repeat(48)),
            AttributeValue::Text(QUEUE.into()),
        ]
    );
    let warning = warning.expect("MQCC_WARNING in the reply");
    assert_eq!(
        (warning.completion_code, warning.reason),
        (MQCC_WARNING, MQRC_SELECTOR_NOT_FOR_TYPE)
    );
    assert_eq!(
        connection
            .inquire(local, &[MQIA_CURRENT_Q_DEPTH])
            .unwrap()
            .warning,
        None
    );

    let alias = connection
        .open(&mut Mqod::queue(ALIAS), MQOO_INQUIRE)
        .unwrap();
    let Inquired { values, warning } = connection
        .inquire(alias, &[MQIA_MAX_Q_DEPTH, MQCA_BASE_Q_NAME])
        .unwrap();
    assert_eq!(
        values,
        vec![
            AttributeValue::Integer(MQIAV_NOT_APPLICABLE),
            AttributeValue::Text(QUEUE.into()),
        ]
    );
    assert_eq!(warning.map(|w| w.reason), Some(MQRC_SELECTOR_NOT_FOR_TYPE));
    // A selector that is no queue attribute still fails the call.
    let error = connection.inquire(alias, &[MQCA_Q_MGR_NAME]).unwrap_err();
    assert_eq!(
        (error.completion_code, error.reason),
        (MQCC_FAILED, MQRC_SELECTOR_ERROR)
    );
    connection.close(alias, 0).unwrap();
    connection.close(local, 0).unwrap();
}

#[test]
fn selector_not_for_type_over_the_bindings_socket() {
    let fixture = start(&[QUEUE]);
    define_alias(&fixture);
    let mut connection = Connection::connect(&fixture.socket, "QM1").unwrap();
    check_not_for_type(&mut connection);
    connection.disconnect().unwrap();
}

#[test]
fn selector_not_for_type_over_a_client_channel() {
    let listener = listen(start_with(&[QUEUE], ServerConfig::default()));
    define_alias(&listener.fixture);
    let mut connection = Connection::connect_client(
        &listener.address(),
        "DEV.APP.SVRCONN",
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
    )
    .unwrap();
    check_not_for_type(&mut connection);
    connection.disconnect().unwrap();
}
