//! The reason codes the local MQI and the storage engine return that no other test produced
//! (issue 3: "every reason code the API can return is produced by at least one test"). Each
//! test makes the call MQ documents for the code and asserts it.

use ferrite_constants::{
    completion::*, get_options::*, message_flags::*, object_type::MQOT_PROCESS, open_options::*,
    put_options::*, reason::*, selector::*,
};
use ferrite_mqi::*;
use ferrite_queue_manager::{
    AliasDefinition, ObjectDefinition, ObjectType, ProcessDefinition, QueueDefinition,
    StorageClassDefinition,
};
use ferrite_storage::types::{Rba, Urid};
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

#[test]
fn alias_of_a_model_queue_is_mqrc_alias_base_q_type_error() {
    let (_directory, qm) = queue_manager(&[]);
    qm.define_object(
        ObjectDefinition::Model(QueueDefinition::model("A.MODEL", PageSetId(1))),
        false,
    )
    .unwrap();
    qm.define_object(
        ObjectDefinition::Alias(AliasDefinition::new("TO.MODEL", "A.MODEL")),
        false,
    )
    .unwrap();
    let mut c = Connection::connect(qm, "").unwrap();
    assert_eq!(
        reason(c.open(&mut Mqod::queue("TO.MODEL"), MQOO_OUTPUT)),
        MQRC_ALIAS_BASE_Q_TYPE_ERROR
    );
}

#[test]
fn options_and_objects_not_supported_are_mqrc_function_not_supported() {
    let (_directory, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c
        .open(&mut Mqod::queue("Q"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    assert_eq!(
        reason(c.put(
            h,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_RETAIN),
            b"m",
        )),
        MQRC_FUNCTION_NOT_SUPPORTED
    );
    assert_eq!(
        reason(c.get(
            h,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_BROWSE_FIRST | MQGMO_MARK_BROWSE_HANDLE),
            &mut [0u8; 8],
        )),
        MQRC_FUNCTION_NOT_SUPPORTED
    );
    assert_eq!(qm.queue("Q").unwrap().depth(), 0, "nothing was put");
}

#[test]
fn an_object_deleted_under_an_inquire_handle_is_mqrc_object_changed() {
    let (_directory, qm) = queue_manager(&["TARGET.Q"]);
    qm.define_object(
        ObjectDefinition::Process(ProcessDefinition::new("APP.PROCESS")),
        false,
    )
    .unwrap();
    qm.define_object(
        ObjectDefinition::Alias(AliasDefinition::new("APP.ALIAS", "TARGET.Q")),
        false,
    )
    .unwrap();
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let mut od = Mqod {
        object_type: MQOT_PROCESS,
        ..Mqod::queue("APP.PROCESS")
    };
    let process = c.open(&mut od, MQOO_INQUIRE).unwrap();
    let alias = c.open(&mut Mqod::queue("APP.ALIAS"), MQOO_INQUIRE).unwrap();
    assert!(c.inquire(process, &[MQCA_PROCESS_NAME]).is_ok());
    assert!(c.inquire(alias, &[MQCA_BASE_Q_NAME]).is_ok());
    qm.delete_object(ObjectType::Process, "APP.PROCESS")
        .unwrap();
    qm.delete_object(ObjectType::AliasQueue, "APP.ALIAS")
        .unwrap();
    assert_eq!(
        reason(c.inquire(process, &[MQCA_PROCESS_NAME])),
        MQRC_OBJECT_CHANGED
    );
    assert_eq!(
        reason(c.inquire(alias, &[MQCA_BASE_Q_NAME])),
        MQRC_OBJECT_CHANGED
    );
}

#[test]
fn trigger_data_longer_than_the_attribute_is_mqrc_char_attrs_too_short() {
    let (_directory, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), MQOO_SET).unwrap();
    let too_long = "x".repeat(ferrite_queue_manager::TRIGGER_DATA_LENGTH_MAX + 1);
    assert_eq!(
        reason(c.set(h, &[(MQCA_TRIGGER_DATA, AttributeValue::Text(too_long))])),
        MQRC_CHAR_ATTRS_TOO_SHORT
    );
    let fits = "x".repeat(ferrite_queue_manager::TRIGGER_DATA_LENGTH_MAX);
    c.set(
        h,
        &[(MQCA_TRIGGER_DATA, AttributeValue::Text(fits.clone()))],
    )
    .unwrap();
    assert_eq!(qm.queue("Q").unwrap().definition().trigger_data, fits);
}

#[test]
fn segments_with_other_ccsids_or_encodings_end_a_reassembly_with_a_warning() {
    // MQ, "Reassembly of segments": segments whose CodedCharSetId or Encoding differ cannot
    // be reassembled; the leading segments that agree are returned with MQCC_WARNING and
    // MQRC_INCONSISTENT_CCSIDS or MQRC_INCONSISTENT_ENCODINGS.
    let (_directory, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c
        .open(&mut Mqod::queue("Q"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    for (group, differs) in [([1u8; 24], "ccsid"), ([2u8; 24], "encoding")] {
        for (offset, data, last) in [(0, &b"first "[..], false), (6, b"second", true)] {
            let mut md = Mqmd {
                group_id: group,
                msg_seq_number: 1,
                offset,
                msg_flags: if last {
                    MQMF_LAST_SEGMENT
                } else {
                    MQMF_SEGMENT
                },
                coded_char_set_id: 1208,
                encoding: 546,
                ..Mqmd::default()
            };
            if last && differs == "ccsid" {
                md.coded_char_set_id = 819;
            }
            if last && differs == "encoding" {
                md.encoding = 273;
            }
            c.put(
                h,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                data,
            )
            .unwrap();
        }
    }
    for expected in [MQRC_INCONSISTENT_CCSIDS, MQRC_INCONSISTENT_ENCODINGS] {
        let mut buffer = [0u8; 64];
        let got = c
            .get(
                h,
                &mut Mqmd::default(),
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG),
                &mut buffer,
            )
            .unwrap();
        let warning = got.warning.expect("a warning");
        assert_eq!(
            (warning.completion_code, warning.reason),
            (MQCC_WARNING, expected)
        );
        assert_eq!(&buffer[..got.data_length], b"first ");
    }
    assert_eq!(
        qm.queue("Q").unwrap().depth(),
        2,
        "the segments that differ stay on the queue"
    );
}

#[test]
fn storage_engine_reason_codes() {
    let (_directory, qm) = queue_manager(&[]);
    // MQRC_PAGESET_ERROR: a storage class on a page set the queue manager does not have.
    let error = qm
        .define_object(
            ObjectDefinition::StorageClass(StorageClassDefinition {
                name: "NOWHERE".into(),
                description: String::new(),
                page_set: PageSetId(77),
            }),
            false,
        )
        .expect_err("page set 77 is not defined");
    assert_eq!(error.reason_code(), MQRC_PAGESET_ERROR);
    // MQRC_UOW_NOT_AVAILABLE: RESOLVE INDOUBT of a unit of recovery that is not in doubt.
    let error = qm
        .resolve_in_doubt(Urid(Rba(0x1234)), true)
        .expect_err("no such unit");
    assert_eq!(error.reason_code(), MQRC_UOW_NOT_AVAILABLE);
}
