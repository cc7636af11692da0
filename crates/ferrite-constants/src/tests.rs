use std::collections::HashMap;

use crate::*;

#[test]
fn completion_codes() {
    use completion::*;
    assert_eq!(MQCC_OK, 0);
    assert_eq!(MQCC_WARNING, 1);
    assert_eq!(MQCC_FAILED, 2);
    assert_eq!(MQCC_UNKNOWN, -1);
}

#[test]
fn well_known_reason_codes() {
    use reason::*;
    assert_eq!(MQRC_NONE, 0);
    assert_eq!(MQRC_ALIAS_BASE_Q_TYPE_ERROR, 2001);
    assert_eq!(MQRC_CONNECTION_BROKEN, 2009);
    assert_eq!(MQRC_GET_INHIBITED, 2016);
    assert_eq!(MQRC_HCONN_ERROR, 2018);
    assert_eq!(MQRC_HOBJ_ERROR, 2019);
    assert_eq!(MQRC_SYNCPOINT_LIMIT_REACHED, 2024);
    assert_eq!(MQRC_NO_MSG_AVAILABLE, 2033);
    assert_eq!(MQRC_NOT_AUTHORIZED, 2035);
    assert_eq!(MQRC_OPTIONS_ERROR, 2046);
    assert_eq!(MQRC_PUT_INHIBITED, 2051);
    assert_eq!(MQRC_Q_FULL, 2053);
    assert_eq!(MQRC_Q_MGR_NAME_ERROR, 2058);
    assert_eq!(MQRC_Q_MGR_NOT_AVAILABLE, 2059);
    assert_eq!(MQRC_TRUNCATED_MSG_ACCEPTED, 2079);
    assert_eq!(MQRC_TRUNCATED_MSG_FAILED, 2080);
    assert_eq!(MQRC_UNKNOWN_OBJECT_NAME, 2085);
    assert_eq!(MQRC_RESOURCE_PROBLEM, 2102);
    assert_eq!(MQRC_Q_MGR_STOPPING, 2162);
    assert_eq!(MQRC_STORAGE_MEDIUM_FULL, 2192);
    assert_eq!(MQRC_PAGESET_FULL, 2192);
    assert_eq!(MQRC_UNEXPECTED_ERROR, 2195);
    assert_eq!(MQRC_NOT_CONVERTED, 2119);
    assert_eq!(MQRC_CONVERTED_MSG_TOO_BIG, 2120);
    assert_eq!(MQRC_TRUNCATED, 2120);
    assert_eq!(MQRC_BACKED_OUT, 2003);
    assert_eq!(MQRC_SECURITY_ERROR, 2063);
    assert_eq!(MQRC_UNKNOWN_ALIAS_BASE_Q, 2082);
    assert_eq!(MQRC_CHANNEL_CONFIG_ERROR, 2539);
    assert_eq!(MQRC_HOST_NOT_AVAILABLE, 2538);
    assert_eq!(MQRC_SELECTOR_SYNTAX_ERROR, 2459);
    assert_eq!(MQRC_APPL_FIRST, 900);
    assert_eq!(MQRC_APPL_LAST, 999);
}

#[test]
fn well_known_pcf_values() {
    use pcf::*;
    use pcf_reason::*;
    use pcf_selector::*;
    assert_eq!(MQRCCF_CFH_TYPE_ERROR, 3001);
    assert_eq!(MQRCCF_COMMAND_FAILED, 3008);
    assert_eq!(MQRCCF_OBJECT_ALREADY_EXISTS, 4001);
    assert_eq!(MQRCCF_MODE_VALUE_ERROR, MQRCCF_QUIESCE_VALUE_ERROR);
    assert_eq!(MQCFT_COMMAND, 1);
    assert_eq!(MQCFT_RESPONSE, 2);
    assert_eq!(MQCFT_INTEGER, 3);
    assert_eq!(MQCFT_STRING, 4);
    assert_eq!(MQCFT_COMMAND_XR, 16);
    assert_eq!(MQCFH_STRUC_LENGTH, 36);
    assert_eq!(MQCFIN_STRUC_LENGTH, 16);
    assert_eq!(MQCFST_STRUC_LENGTH_FIXED, 20);
    assert_eq!(MQCMD_CHANGE_Q, 8);
    assert_eq!(MQCMD_CREATE_Q, 11);
    assert_eq!(MQCMD_DELETE_Q, 12);
    assert_eq!(MQCMD_INQUIRE_Q, 13);
    assert_eq!(MQCMD_INQUIRE_Q_MGR, 2);
    assert_eq!(MQCFC_LAST, 1);
    assert_eq!(MQIACF_Q_ATTRS, 1002);
    assert_eq!(MQCACF_FROM_Q_NAME, 3001);
    assert_eq!(MQIACH_CHANNEL_TYPE, 1511);
    assert_eq!(MQCACH_CHANNEL_NAME, 3501);
}

#[test]
fn well_known_options() {
    assert_eq!(open_options::MQOO_INPUT_AS_Q_DEF, 1);
    assert_eq!(open_options::MQOO_INPUT_SHARED, 2);
    assert_eq!(open_options::MQOO_INPUT_EXCLUSIVE, 4);
    assert_eq!(open_options::MQOO_BROWSE, 8);
    assert_eq!(open_options::MQOO_OUTPUT, 16);
    assert_eq!(open_options::MQOO_INQUIRE, 32);
    assert_eq!(open_options::MQOO_FAIL_IF_QUIESCING, 0x2000);
    assert_eq!(put_options::MQPMO_SYNCPOINT, 2);
    assert_eq!(put_options::MQPMO_NO_SYNCPOINT, 4);
    assert_eq!(put_options::MQPMO_NEW_MSG_ID, 0x40);
    assert_eq!(put_options::MQPMO_FAIL_IF_QUIESCING, 0x2000);
    assert_eq!(get_options::MQGMO_WAIT, 1);
    assert_eq!(get_options::MQGMO_NO_WAIT, 0);
    assert_eq!(get_options::MQGMO_SYNCPOINT, 2);
    assert_eq!(get_options::MQGMO_BROWSE_FIRST, 0x10);
    assert_eq!(get_options::MQGMO_ACCEPT_TRUNCATED_MSG, 0x40);
    assert_eq!(get_options::MQGMO_CONVERT, 0x4000);
    assert_eq!(get_options::MQGS_LAST_MSG_IN_GROUP, b'L');
    assert_eq!(match_options::MQMO_MATCH_MSG_ID, 1);
    assert_eq!(match_options::MQMO_MATCH_CORREL_ID, 2);
    assert_eq!(close_options::MQCO_NONE, 0);
    assert_eq!(close_options::MQCO_DELETE, 1);
    assert_eq!(close_options::MQCO_DELETE_PURGE, 2);
    assert_eq!(connect_options::MQCNO_NONE, 0);
    assert_eq!(connect_options::MQCNO_CLIENT_BINDING, 0x800);
    assert_eq!(status::MQSTAT_TYPE_ASYNC_ERROR, 0);
    assert_eq!(report::MQRO_COA, 0x100);
    assert_eq!(report::MQRO_EXCEPTION, 0x0100_0000);
    assert_eq!(report::MQRO_DISCARD_MSG, 0x0800_0000);
    assert_eq!(message_flags::MQMF_LAST_MSG_IN_GROUP, 0x10);
}

#[test]
fn well_known_message_descriptor_values() {
    assert_eq!(persistence::MQPER_NOT_PERSISTENT, 0);
    assert_eq!(persistence::MQPER_PERSISTENT, 1);
    assert_eq!(persistence::MQPER_PERSISTENCE_AS_Q_DEF, 2);
    assert_eq!(priority::MQPRI_PRIORITY_AS_Q_DEF, -1);
    assert_eq!(message_type::MQMT_REQUEST, 1);
    assert_eq!(message_type::MQMT_REPLY, 2);
    assert_eq!(message_type::MQMT_DATAGRAM, 8);
    assert_eq!(message_type::MQMT_REPORT, 4);
    assert_eq!(feedback::MQFB_NONE, 0);
    assert_eq!(feedback::MQFB_EXPIRATION, 258);
    assert_eq!(feedback::MQFB_COA, 259);
    assert_eq!(expiry::MQEI_UNLIMITED, -1);
    assert_eq!(wait::MQWI_UNLIMITED, -1);
    assert_eq!(encoding::MQENC_NATIVE, 546);
    assert_eq!(encoding::MQENC_INTEGER_REVERSED, 2);
    assert_eq!(ccsid::MQCCSI_Q_MGR, 0);
    assert_eq!(ccsid::MQCCSI_INHERIT, -2);
    assert_eq!(format::MQFMT_STRING, *b"MQSTR   ");
    assert_eq!(format::MQFMT_NONE, *b"        ");
    assert_eq!(format::MQFMT_DEAD_LETTER_HEADER, *b"MQDEAD  ");
    assert_eq!(format::MQFMT_RF_HEADER_2, *b"MQHRF2  ");
    assert_eq!(format::MQFMT_XMIT_Q_HEADER, *b"MQXMIT  ");
    assert_eq!(ids::MQMI_NONE, [0; 24]);
    assert_eq!(ids::MQCI_NONE, [0; 24]);
    assert_eq!(&ids::MQCI_NEW_SESSION[..4], b"AMQ!");
    assert_eq!(appl_type::MQAT_UNIX, 6);
    assert_eq!(appl_type::MQAT_JAVA, 28);
    assert_eq!(platform::MQPL_UNIX, 3);
    assert_eq!(syncpoint::MQSP_AVAILABLE, 1);
}

#[test]
fn well_known_object_attributes() {
    assert_eq!(object_type::MQOT_Q, 1);
    assert_eq!(object_type::MQOT_Q_MGR, 5);
    assert_eq!(object_type::MQOT_CHANNEL, 6);
    assert_eq!(object_type::MQOT_TOPIC, 8);
    assert_eq!(queue_type::MQQT_LOCAL, 1);
    assert_eq!(queue_type::MQQT_MODEL, 2);
    assert_eq!(queue_type::MQQT_ALIAS, 3);
    assert_eq!(queue_type::MQQT_REMOTE, 6);
    assert_eq!(queue_type::MQQT_CLUSTER, 7);
    assert_eq!(definition_type::MQQDT_PREDEFINED, 1);
    assert_eq!(definition_type::MQQDT_TEMPORARY_DYNAMIC, 3);
    assert_eq!(index_type::MQIT_NONE, 0);
    assert_eq!(index_type::MQIT_MSG_ID, 1);
    assert_eq!(trigger_type::MQTT_FIRST, 1);
    assert_eq!(trigger_type::MQTC_ON, 1);
    assert_eq!(message_delivery_sequence::MQMDS_PRIORITY, 0);
    assert_eq!(message_delivery_sequence::MQMDS_FIFO, 1);
    assert_eq!(shareability::MQQA_SHAREABLE, 1);
    assert_eq!(shareability::MQQA_GET_INHIBITED, 1);
    assert_eq!(selector::MQIA_CURRENT_Q_DEPTH, 3);
    assert_eq!(selector::MQIA_MAX_Q_DEPTH, 15);
    assert_eq!(selector::MQIA_MAX_MSG_LENGTH, 13);
    assert_eq!(selector::MQIA_Q_TYPE, 20);
    assert_eq!(selector::MQCA_Q_NAME, 2016);
    assert_eq!(selector::MQCA_Q_MGR_NAME, 2015);
    assert_eq!(channel::MQCHT_SENDER, 1);
    assert_eq!(channel::MQCHT_SVRCONN, 7);
    assert_eq!(channel::MQCHT_CLNTCONN, 6);
    assert_eq!(channel::MQXPT_TCP, 2);
    assert_eq!(channel::MQCHS_RUNNING, 3);
}

#[test]
fn lengths_and_structures() {
    use lengths::*;
    use structs::*;
    assert_eq!(MQ_Q_NAME_LENGTH, 48);
    assert_eq!(MQ_Q_MGR_NAME_LENGTH, 48);
    assert_eq!(MQ_OBJECT_NAME_LENGTH, 48);
    assert_eq!(MQ_MSG_ID_LENGTH, 24);
    assert_eq!(MQ_CORREL_ID_LENGTH, 24);
    assert_eq!(MQ_GROUP_ID_LENGTH, 24);
    assert_eq!(MQ_MSG_TOKEN_LENGTH, 16);
    assert_eq!(MQ_USER_ID_LENGTH, 12);
    assert_eq!(MQ_ACCOUNTING_TOKEN_LENGTH, 32);
    assert_eq!(MQ_APPL_IDENTITY_DATA_LENGTH, 32);
    assert_eq!(MQ_PUT_APPL_NAME_LENGTH, 28);
    assert_eq!(MQ_PUT_DATE_LENGTH, 8);
    assert_eq!(MQ_PUT_TIME_LENGTH, 8);
    assert_eq!(MQ_APPL_ORIGIN_DATA_LENGTH, 4);
    assert_eq!(MQ_FORMAT_LENGTH, 8);
    assert_eq!(MQ_CHANNEL_NAME_LENGTH, 20);
    assert_eq!(MQ_CONN_NAME_LENGTH, 264);

    assert_eq!(MQMD_STRUC_ID, *b"MD  ");
    assert_eq!(MQMD_VERSION_1, 1);
    assert_eq!(MQMD_VERSION_2, 2);
    assert_eq!(MQMD_LENGTH_1, 324);
    assert_eq!(MQMD_LENGTH_2, 364);
    assert_eq!(MQOD_STRUC_ID, *b"OD  ");
    assert_eq!(MQGMO_STRUC_ID, *b"GMO ");
    assert_eq!(MQPMO_STRUC_ID, *b"PMO ");
    assert_eq!(MQCNO_STRUC_ID, *b"CNO ");
    assert_eq!(MQDLH_STRUC_ID, *b"DLH ");
    assert_eq!(MQDLH_LENGTH_1, 172);
    assert_eq!(MQRFH_STRUC_ID, *b"RFH ");
    assert_eq!(MQRFH2_STRUC_ID, *b"RFH ");
    assert_eq!(MQRFH_VERSION_2, 2);
    assert_eq!(MQXQH_STRUC_ID, *b"XQH ");
    assert_eq!(MQXQH_LENGTH_1, 428);
    assert_eq!(MQTM_STRUC_ID, *b"TM  ");
    assert_eq!(MQTM_LENGTH_1, 684);
    assert_eq!(MQMDE_STRUC_ID, *b"MDE ");
    assert_eq!(MQMDE_LENGTH_2, 72);
    assert_eq!(MQSD_STRUC_ID, *b"SD  ");
    assert_eq!(MQSTS_STRUC_ID, *b"STAT");
    assert_eq!(MQCD_VERSION_1, 1);
    assert_eq!(MQGMO_VERSION_4, 4);
    assert_eq!(MQPMO_VERSION_3, 3);
    assert_eq!(MQOD_VERSION_4, 4);
}

#[test]
fn reason_table_has_distinct_codes_and_names() {
    let all = reason::MQRC_CODES.iter().chain(pcf_reason::MQRCCF_CODES);
    let mut by_code: HashMap<i32, &str> = HashMap::new();
    let mut by_name: HashMap<&str, i32> = HashMap::new();
    for &(code, name) in all {
        assert!(
            by_code.insert(code, name).is_none(),
            "code {code} listed twice"
        );
        assert!(
            by_name.insert(name, code).is_none(),
            "name {name} listed twice"
        );
        assert!(
            name.starts_with("MQRC_") || name.starts_with("MQRCCF_"),
            "{name} is not a reason code name"
        );
    }
    assert!(reason::MQRC_CODES.len() > 500);
    assert!(pcf_reason::MQRCCF_CODES.len() > 300);
}

#[test]
fn reason_tables_are_sorted() {
    for table in [reason::MQRC_CODES, pcf_reason::MQRCCF_CODES] {
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
    }
}

#[test]
fn reason_name_round_trips() {
    for &(code, name) in reason::MQRC_CODES.iter().chain(pcf_reason::MQRCCF_CODES) {
        assert_eq!(reason_name(code), Some(name));
    }
    assert_eq!(reason_name(2033), Some("MQRC_NO_MSG_AVAILABLE"));
    assert_eq!(reason_name(2459), Some("MQRC_SELECTOR_SYNTAX_ERROR"));
    assert_eq!(reason_name(2192), Some("MQRC_STORAGE_MEDIUM_FULL"));
    assert_eq!(reason_name(2120), Some("MQRC_CONVERTED_MSG_TOO_BIG"));
    assert_eq!(reason_name(3029), Some("MQRCCF_QUIESCE_VALUE_ERROR"));
    assert_eq!(reason_name(0), Some("MQRC_NONE"));
    assert_eq!(reason_name(1), None);
    assert_eq!(reason_name(2015), None);
    assert_eq!(reason_name(-1), None);
}

#[test]
fn existing_storage_reasons_are_named() {
    use reason::*;
    for code in [
        MQRC_NONE,
        MQRC_STORAGE_MEDIUM_FULL,
        MQRC_SYNCPOINT_LIMIT_REACHED,
        MQRC_Q_MGR_STOPPING,
        MQRC_UNEXPECTED_ERROR,
        MQRC_RESOURCE_PROBLEM,
    ] {
        assert!(reason_name(code).is_some());
    }
}
