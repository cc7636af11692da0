//! MQINQ's MQRC_SELECTOR_NOT_FOR_TYPE: a queue attribute of another queue type completes with
//! MQCC_WARNING, MQIAV_NOT_APPLICABLE for an integer and asterisks for a character attribute,
//! while a selector that is no queue attribute at all still fails with MQRC_SELECTOR_ERROR.

use ferrite_constants::{
    completion::{MQCC_FAILED, MQCC_WARNING},
    open_options::*,
    queue_type::*,
    reason::*,
    selector::*,
};
use ferrite_mqi::*;
use ferrite_queue_manager::{AliasDefinition, ObjectDefinition};
use ferrite_test_kit::*;

use AttributeValue::{Integer, Text};

fn asterisks(length: usize) -> AttributeValue {
    Text("*".repeat(length))
}

#[test]
fn local_queue_answers_alias_and_remote_attributes_as_not_applicable() {
    let (_directory, qm) = queue_manager(&["LOCAL.Q"]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("LOCAL.Q"), MQOO_INQUIRE)
        .unwrap();

    let inquired = connection
        .inquire(
            hobj,
            &[
                MQIA_Q_TYPE,
                MQCA_BASE_Q_NAME,
                MQIA_CURRENT_Q_DEPTH,
                MQCA_XMIT_Q_NAME,
                MQCA_REMOTE_Q_NAME,
            ],
        )
        .unwrap();
    assert_eq!(
        inquired.values,
        vec![
            Integer(MQQT_LOCAL),
            asterisks(48),
            Integer(0),
            asterisks(48),
            asterisks(48),
        ]
    );
    let warning = inquired.warning.expect("MQCC_WARNING");
    assert_eq!(warning.completion_code, MQCC_WARNING);
    assert_eq!(warning.reason, MQRC_SELECTOR_NOT_FOR_TYPE);

    // Only the local queue's own attributes: MQCC_OK.
    let inquired = connection
        .inquire(hobj, &[MQIA_CURRENT_Q_DEPTH, MQCA_Q_NAME])
        .unwrap();
    assert_eq!(inquired.warning, None);

    // Not a queue attribute at all: the call fails, as in MQ.
    let error = connection
        .inquire(hobj, &[MQCA_BASE_Q_NAME, MQCA_Q_MGR_NAME])
        .unwrap_err();
    assert_eq!(
        (error.completion_code, error.reason),
        (MQCC_FAILED, MQRC_SELECTOR_ERROR)
    );
}

#[test]
fn alias_queue_answers_local_queue_attributes_as_not_applicable() {
    let (_directory, qm) = queue_manager(&["TARGET.Q"]);
    qm.define_object(
        ObjectDefinition::Alias(AliasDefinition::new("APP.ALIAS", "TARGET.Q")),
        false,
    )
    .unwrap();
    let mut connection = Connection::connect(qm, "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("APP.ALIAS"), MQOO_INQUIRE)
        .unwrap();
    let inquired = connection
        .inquire(
            hobj,
            &[
                MQCA_BASE_Q_NAME,
                MQIA_CURRENT_Q_DEPTH,
                MQIA_MAX_Q_DEPTH,
                MQCA_TRIGGER_DATA,
                MQIA_Q_TYPE,
            ],
        )
        .unwrap();
    assert_eq!(
        inquired.values,
        vec![
            Text("TARGET.Q".into()),
            Integer(MQIAV_NOT_APPLICABLE),
            Integer(MQIAV_NOT_APPLICABLE),
            asterisks(64),
            Integer(MQQT_ALIAS),
        ]
    );
    assert_eq!(
        inquired.warning.map(|w| (w.completion_code, w.reason)),
        Some((MQCC_WARNING, MQRC_SELECTOR_NOT_FOR_TYPE))
    );
}

#[test]
fn queue_manager_object_has_no_not_applicable_answers() {
    let (_directory, qm) = queue_manager(&[]);
    let mut connection = Connection::connect(qm, "").unwrap();
    let mut od = Mqod {
        object_type: ferrite_constants::object_type::MQOT_Q_MGR,
        ..Mqod::default()
    };
    let hobj = connection.open(&mut od, MQOO_INQUIRE).unwrap();
    // MQ returns MQRC_SELECTOR_NOT_FOR_TYPE only for queues.
    let error = connection
        .inquire(hobj, &[MQIA_CURRENT_Q_DEPTH])
        .unwrap_err();
    assert_eq!(error.reason, MQRC_SELECTOR_ERROR);
}
