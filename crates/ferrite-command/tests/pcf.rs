//! PCF commands against a fresh queue manager: each command and its errors, run through
//! `pcf_commands::execute` on the bytes a client would send (both byte orders), and the
//! command server round trip on SYSTEM.ADMIN.COMMAND.QUEUE.

mod support;

use std::sync::Arc;

use ferrite_command::pcf::{decode_response, encode, ByteOrder, Parameter, PcfMessage};
use ferrite_command::{
    define_default_objects, pcf_commands, run_command, CommandProcessor, CommandServer,
    ADMIN_COMMAND_QUEUE,
};
use ferrite_constants::{
    channel::*, completion::*, encoding::*, expiry::MQEI_UNLIMITED, format::*, get_options::*,
    match_options::*, message_type::*, misc::*, object_type::*, open_options::*, pcf::*,
    pcf_reason::*, pcf_selector::*, platform::*, priority::*, put_options::*, queue_type::*,
    reason::*, selector::*, shareability::*, trigger_type::*,
};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::QueueManager;

struct Admin {
    _directory: tempfile::TempDir,
    queue_manager: Arc<QueueManager>,
    processor: CommandProcessor,
}

fn admin() -> Admin {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    define_default_objects(&queue_manager).unwrap();
    let processor = CommandProcessor::new(queue_manager.clone());
    processor.set_channel_initiator(Some(Arc::new(support::FakeInitiator::new(1414))));
    Admin {
        _directory: directory,
        queue_manager,
        processor,
    }
}

impl Drop for Admin {
    fn drop(&mut self) {
        let _ = self.queue_manager.shutdown();
    }
}

use support::pcf_request as request;

impl Admin {
    /// Send `command` as bytes in `order` and decode the responses, checking their headers.
    fn send_in(&self, order: ByteOrder, message: &PcfMessage) -> Vec<PcfMessage> {
        let encoding = match order {
            ByteOrder::Normal => MQENC_INTEGER_NORMAL,
            ByteOrder::Reversed => MQENC_INTEGER_REVERSED,
        };
        let replies = pcf_commands::execute(&self.processor, encoding, &encode(message, order));
        let responses: Vec<PcfMessage> = replies
            .iter()
            .map(|data| decode_response(data, order).expect("a valid response"))
            .collect();
        assert!(!responses.is_empty());
        for (index, response) in responses.iter().enumerate() {
            assert_eq!(response.header.command, message.header.command);
            assert_eq!(response.header.msg_seq_number, index as i32 + 1);
            let last = index + 1 == responses.len();
            assert_eq!(
                response.header.control,
                if last { MQCFC_LAST } else { MQCFC_NOT_LAST }
            );
        }
        responses
    }

    fn send(&self, command: i32, parameters: Vec<Parameter>) -> Vec<PcfMessage> {
        self.send_in(ByteOrder::Reversed, &request(command, parameters))
    }

    /// Send and expect success: the responses' parameters.
    fn ok(&self, command: i32, parameters: Vec<Parameter>) -> Vec<Vec<Parameter>> {
        let responses = self.send(command, parameters);
        for response in &responses {
            assert_eq!(
                (response.header.comp_code, response.header.reason),
                (MQCC_OK, 0),
                "{response:?}"
            );
            assert_eq!(response.header.kind, MQCFT_RESPONSE);
        }
        responses.into_iter().map(|r| r.parameters).collect()
    }

    /// Send and expect one failed response: its reason and parameters.
    fn fails(&self, command: i32, parameters: Vec<Parameter>) -> (i32, Vec<Parameter>) {
        let responses = self.send(command, parameters);
        assert_eq!(responses.len(), 1, "{responses:?}");
        assert_eq!(responses[0].header.comp_code, MQCC_FAILED);
        (responses[0].header.reason, responses[0].parameters.clone())
    }
}

fn string(id: i32, value: &str) -> Parameter {
    Parameter::string(id, value)
}

fn int(id: i32, value: i32) -> Parameter {
    Parameter::integer(id, value)
}

fn find(parameters: &[Parameter], id: i32) -> &Parameter {
    parameters
        .iter()
        .find(|p| p.id() == id)
        .unwrap_or_else(|| panic!("parameter {id} in {parameters:?}"))
}

fn integer_of(parameters: &[Parameter], id: i32) -> i32 {
    match find(parameters, id) {
        Parameter::Integer { value, .. } => *value,
        other => panic!("{other:?} is not an integer"),
    }
}

fn string_of(parameters: &[Parameter], id: i32) -> String {
    match find(parameters, id) {
        Parameter::String { value, .. } => value.clone(),
        other => panic!("{other:?} is not a string"),
    }
}

fn names_of(parameters: &[Parameter], id: i32) -> Vec<String> {
    match find(parameters, id) {
        Parameter::StringList { values, .. } => values.clone(),
        other => panic!("{other:?} is not a string list"),
    }
}

#[test]
fn ping_and_queue_manager_in_both_byte_orders() {
    let admin = admin();
    for order in [ByteOrder::Normal, ByteOrder::Reversed] {
        let responses = admin.send_in(order, &request(MQCMD_PING_Q_MGR, vec![]));
        assert_eq!(responses.len(), 1);
        assert_eq!(responses[0].header.comp_code, MQCC_OK);
        assert!(responses[0].parameters.is_empty());
        let responses = admin.send_in(
            order,
            &request(
                MQCMD_INQUIRE_Q_MGR,
                vec![Parameter::IntegerList {
                    parameter: MQIACF_Q_MGR_ATTRS,
                    values: vec![MQIA_PLATFORM, MQIA_COMMAND_LEVEL, MQCA_DEAD_LETTER_Q_NAME],
                }],
            ),
        );
        let parameters = &responses[0].parameters;
        assert_eq!(string_of(parameters, MQCA_Q_MGR_NAME), "QM1");
        assert_eq!(integer_of(parameters, MQIA_PLATFORM), MQPL_UNIX);
        assert_eq!(
            integer_of(parameters, MQIA_COMMAND_LEVEL),
            MQCMDL_CURRENT_LEVEL
        );
        assert_eq!(
            string_of(parameters, MQCA_DEAD_LETTER_Q_NAME),
            "SYSTEM.DEAD.LETTER.QUEUE"
        );
        assert_eq!(parameters.len(), 4, "only what was asked, and the name");
    }
    // Every attribute without a list.
    let all = admin.ok(MQCMD_INQUIRE_Q_MGR, vec![]);
    assert_eq!(integer_of(&all[0], MQIA_TRIGGER_INTERVAL), 999_999_999);
    assert_eq!(integer_of(&all[0], MQIA_SYNCPOINT), 1);

    // CHANGE_Q_MGR: stored, and shown by DISPLAY QMGR.
    admin.ok(
        MQCMD_CHANGE_Q_MGR,
        vec![
            string(MQCA_Q_MGR_DESC, "changed by PCF"),
            int(MQIA_TRIGGER_INTERVAL, 5000),
            int(MQIA_PERFORMANCE_EVENT, MQEVR_ENABLED),
        ],
    );
    let attributes = admin.queue_manager.queue_manager_attributes();
    assert_eq!(attributes.description, "changed by PCF");
    assert_eq!(attributes.trigger_interval, 5000);
    assert!(attributes.performance_events);
    let (reason, parameters) =
        admin.fails(MQCMD_CHANGE_Q_MGR, vec![int(MQIA_MAX_UNCOMMITTED_MSGS, 0)]);
    assert_eq!(reason, MQRCCF_PARM_VALUE_ERROR);
    assert_eq!(
        parameters,
        vec![int(MQIACF_PARAMETER_ID, MQIA_MAX_UNCOMMITTED_MSGS)]
    );
    // PLATFORM is not alterable.
    let (reason, _) = admin.fails(MQCMD_CHANGE_Q_MGR, vec![int(MQIA_PLATFORM, 1)]);
    assert_eq!(reason, MQRCCF_CFIN_PARM_ID_ERROR);
}

#[test]
fn create_inquire_change_copy_and_delete_queues() {
    let admin = admin();
    create_a_local_queue(&admin);
    inquire_one_queue(&admin);
    change_copy_and_alias(&admin);
    inquire_queue_names(&admin);
    inquire_queues_generically(&admin);
    refuse_bad_commands(&admin);
    clear_and_delete(&admin);
}

/// PCF.Q1 by CREATE_Q, as the queue manager and MQSC see it.
fn create_a_local_queue(admin: &Admin) {
    admin.ok(
        MQCMD_CREATE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            string(MQCA_Q_DESC, "made by PCF"),
            int(MQIA_MAX_Q_DEPTH, 1234),
            int(MQIA_SHAREABILITY, MQQA_NOT_SHAREABLE),
            int(MQIA_TRIGGER_CONTROL, MQTC_ON),
            int(MQIA_TRIGGER_TYPE, MQTT_DEPTH),
            int(MQIA_TRIGGER_DEPTH, 7),
            int(MQIA_MSG_DELIVERY_SEQUENCE, 1),
            int(MQIA_BACKOUT_THRESHOLD, 3),
            string(MQCA_BACKOUT_REQ_Q_NAME, "PCF.BACKOUT"),
        ],
    );
    let definition = admin.queue_manager.queue("PCF.Q1").unwrap().definition();
    assert_eq!(definition.description, "made by PCF");
    assert_eq!(definition.max_depth, 1234);
    assert!(!definition.shareable);
    assert!(definition.trigger_control);
    assert_eq!(definition.trigger_type, "DEPTH");
    assert_eq!(definition.trigger_depth, 7);
    assert!(definition.message_delivery_fifo);
    assert_eq!(definition.backout_threshold, 3);
    assert_eq!(definition.backout_requeue_queue, "PCF.BACKOUT");
    // The same definition through MQSC.
    let display = run_command(&admin.queue_manager, "DISPLAY QLOCAL(PCF.Q1) ALL").text();
    for shown in ["NOSHARE", "TRIGGER", "TRIGTYPE(DEPTH)", "MAXDEPTH(1234)"] {
        assert!(display.contains(shown), "{shown} in {display}");
    }
}

fn inquire_one_queue(admin: &Admin) {
    // INQUIRE_Q with an attribute list: the name and type always, then what was asked.
    let responses = admin.ok(
        MQCMD_INQUIRE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            Parameter::IntegerList {
                parameter: MQIACF_Q_ATTRS,
                values: vec![MQIA_MAX_Q_DEPTH, MQIA_SHAREABILITY, MQCA_Q_DESC],
            },
        ],
    );
    assert_eq!(
        responses,
        vec![vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            string(MQCA_Q_DESC, "made by PCF"),
            int(MQIA_MAX_Q_DEPTH, 1234),
            int(MQIA_SHAREABILITY, MQQA_NOT_SHAREABLE),
        ]]
    );
    // Every attribute: one parameter per selector, none twice.
    let all = admin.ok(MQCMD_INQUIRE_Q, vec![string(MQCA_Q_NAME, "PCF.Q1")]);
    let mut ids: Vec<i32> = all[0].iter().map(Parameter::id).collect();
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count);
    assert_eq!(integer_of(&all[0], MQIA_TRIGGER_CONTROL), MQTC_ON);
    assert_eq!(integer_of(&all[0], MQIA_CURRENT_Q_DEPTH), 0);
}

fn change_copy_and_alias(admin: &Admin) {
    // CHANGE_Q, COPY_Q.
    admin.ok(
        MQCMD_CHANGE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            int(MQIA_SHAREABILITY, MQQA_SHAREABLE),
            int(MQIA_INHIBIT_PUT, MQQA_PUT_INHIBITED),
        ],
    );
    let definition = admin.queue_manager.queue("PCF.Q1").unwrap().definition();
    assert!(definition.shareable && definition.put_inhibited);
    assert_eq!(definition.max_depth, 1234, "unchanged");
    admin.ok(
        MQCMD_COPY_Q,
        vec![
            string(MQCACF_FROM_Q_NAME, "PCF.Q1"),
            string(MQCACF_TO_Q_NAME, "PCF.Q2"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            int(MQIA_MAX_Q_DEPTH, 99),
            int(MQIA_INHIBIT_PUT, MQQA_PUT_ALLOWED),
        ],
    );
    let copy = admin.queue_manager.queue("PCF.Q2").unwrap().definition();
    assert_eq!((copy.max_depth, copy.trigger_depth), (99, 7));
    assert!(!copy.put_inhibited);
    admin.ok(
        MQCMD_CREATE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.ALIAS"),
            int(MQIA_Q_TYPE, MQQT_ALIAS),
            string(MQCA_BASE_OBJECT_NAME, "PCF.Q1"),
        ],
    );
}

fn inquire_queue_names(admin: &Admin) {
    // INQUIRE_Q_NAMES, generic, by type.
    let names = admin.ok(MQCMD_INQUIRE_Q_NAMES, vec![string(MQCA_Q_NAME, "PCF.*")]);
    assert_eq!(
        names_of(&names[0], MQCACF_Q_NAMES),
        vec!["PCF.ALIAS", "PCF.Q1", "PCF.Q2"]
    );
    assert_eq!(
        find(&names[0], MQIACF_Q_TYPES),
        &Parameter::IntegerList {
            parameter: MQIACF_Q_TYPES,
            values: vec![MQQT_ALIAS, MQQT_LOCAL, MQQT_LOCAL]
        }
    );
    let names = admin.ok(
        MQCMD_INQUIRE_Q_NAMES,
        vec![string(MQCA_Q_NAME, "PCF.*"), int(MQIA_Q_TYPE, MQQT_ALIAS)],
    );
    assert_eq!(names_of(&names[0], MQCACF_Q_NAMES), vec!["PCF.ALIAS"]);
    let none = admin.ok(MQCMD_INQUIRE_Q_NAMES, vec![string(MQCA_Q_NAME, "NONE.*")]);
    assert!(names_of(&none[0], MQCACF_Q_NAMES).is_empty());
}

fn inquire_queues_generically(admin: &Admin) {
    // INQUIRE_Q generic: one response per queue, with a filter.
    let responses = admin.ok(
        MQCMD_INQUIRE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.*"),
            Parameter::IntegerList {
                parameter: MQIACF_Q_ATTRS,
                values: vec![MQIA_MAX_Q_DEPTH],
            },
        ],
    );
    assert_eq!(responses.len(), 3);
    let filtered = admin.ok(
        MQCMD_INQUIRE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.*"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            Parameter::IntegerFilter {
                parameter: MQIA_MAX_Q_DEPTH,
                operator: MQCFOP_LESS,
                value: 100,
            },
        ],
    );
    assert_eq!(filtered.len(), 1);
    assert_eq!(string_of(&filtered[0], MQCA_Q_NAME), "PCF.Q2");
}

/// Each refused command says why; a failed change changes nothing.
fn refuse_bad_commands(admin: &Admin) {
    // Errors.
    let unknown = admin.fails(MQCMD_INQUIRE_Q, vec![string(MQCA_Q_NAME, "NO.SUCH.Q")]);
    assert_eq!(unknown.0, MQRC_UNKNOWN_OBJECT_NAME);
    let exists = admin.fails(
        MQCMD_CREATE_Q,
        vec![string(MQCA_Q_NAME, "PCF.Q1"), int(MQIA_Q_TYPE, MQQT_LOCAL)],
    );
    assert_eq!(exists.0, MQRCCF_OBJECT_ALREADY_EXISTS);
    let wrong_type = admin.fails(
        MQCMD_CREATE_Q,
        vec![string(MQCA_Q_NAME, "PCF.Q1"), int(MQIA_Q_TYPE, MQQT_ALIAS)],
    );
    assert_eq!(wrong_type.0, MQRCCF_OBJECT_WRONG_TYPE);
    let (reason, parameters) = admin.fails(
        MQCMD_CHANGE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            int(MQIA_DEF_PRIORITY, 10),
        ],
    );
    assert_eq!(reason, MQRCCF_PARM_VALUE_ERROR);
    assert_eq!(
        parameters,
        vec![int(MQIACF_PARAMETER_ID, MQIA_DEF_PRIORITY)]
    );
    assert_eq!(
        admin
            .queue_manager
            .queue("PCF.Q1")
            .unwrap()
            .definition()
            .default_priority,
        0,
        "a failed change changes nothing"
    );
    let (reason, parameters) = admin.fails(
        MQCMD_CHANGE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            int(MQIA_SHAREABILITY, 7),
        ],
    );
    assert_eq!(
        (reason, parameters[0].clone()),
        (
            MQRCCF_PARM_VALUE_ERROR,
            int(MQIACF_PARAMETER_ID, MQIA_SHAREABILITY)
        )
    );
    let unknown_parameter = admin.fails(
        MQCMD_CHANGE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            int(9999, 1),
        ],
    );
    assert_eq!(unknown_parameter.0, MQRCCF_CFIN_PARM_ID_ERROR);
    let duplicate = admin.fails(
        MQCMD_CHANGE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            int(MQIA_MAX_Q_DEPTH, 1),
            int(MQIA_MAX_Q_DEPTH, 2),
        ],
    );
    assert_eq!(duplicate.0, MQRCCF_CFIN_DUPLICATE_PARM);
    let missing = admin.fails(MQCMD_CREATE_Q, vec![string(MQCA_Q_NAME, "PCF.Q3")]);
    assert_eq!(
        missing,
        (
            MQRCCF_PARM_COUNT_TOO_SMALL,
            vec![int(MQIACF_PARAMETER_ID, MQIA_Q_TYPE)]
        )
    );
    let bad_type = admin.fails(
        MQCMD_CREATE_Q,
        vec![string(MQCA_Q_NAME, "PCF.Q3"), int(MQIA_Q_TYPE, 42)],
    );
    assert_eq!(bad_type.0, MQRCCF_Q_TYPE_ERROR);
    let bad_name = admin.fails(
        MQCMD_CREATE_Q,
        vec![
            string(MQCA_Q_NAME, "BAD NAME"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
        ],
    );
    assert_eq!(bad_name.0, MQRCCF_PARM_SYNTAX_ERROR);
    let wrong_structure = admin.fails(
        MQCMD_CHANGE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.Q1"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
            string(MQIA_MAX_Q_DEPTH, "5"),
        ],
    );
    assert_eq!(wrong_structure.0, MQRCCF_CFST_PARM_ID_ERROR);
    let unknown_command = admin.fails(4242, vec![]);
    assert_eq!(unknown_command.0, MQRCCF_CFH_COMMAND_ERROR);
}

fn clear_and_delete(admin: &Admin) {
    // CLEAR_Q and DELETE_Q with and without Purge.
    ferrite_test_kit::put_messages(&admin.queue_manager, "PCF.Q2", 3, false);
    let not_empty = admin.fails(MQCMD_DELETE_Q, vec![string(MQCA_Q_NAME, "PCF.Q2")]);
    assert_eq!(not_empty.0, MQRC_Q_NOT_EMPTY);
    admin.ok(MQCMD_CLEAR_Q, vec![string(MQCA_Q_NAME, "PCF.Q2")]);
    assert_eq!(
        admin
            .queue_manager
            .queue("PCF.Q2")
            .unwrap()
            .status()
            .current_depth,
        0
    );
    ferrite_test_kit::put_messages(&admin.queue_manager, "PCF.Q2", 2, true);
    admin.ok(
        MQCMD_DELETE_Q,
        vec![string(MQCA_Q_NAME, "PCF.Q2"), int(MQIACF_PURGE, MQPO_YES)],
    );
    assert!(admin.queue_manager.queue("PCF.Q2").is_none());
    let wrong = admin.fails(
        MQCMD_DELETE_Q,
        vec![
            string(MQCA_Q_NAME, "PCF.ALIAS"),
            int(MQIA_Q_TYPE, MQQT_LOCAL),
        ],
    );
    assert_eq!(wrong.0, MQRCCF_OBJECT_WRONG_TYPE);
    admin.ok(MQCMD_DELETE_Q, vec![string(MQCA_Q_NAME, "PCF.ALIAS")]);
    let gone = admin.fails(MQCMD_DELETE_Q, vec![string(MQCA_Q_NAME, "PCF.ALIAS")]);
    assert_eq!(gone.0, MQRC_UNKNOWN_OBJECT_NAME);
    let clear_alias = admin.fails(
        MQCMD_CLEAR_Q,
        vec![string(MQCA_Q_NAME, "SYSTEM.DEFAULT.ALIAS.QUEUE")],
    );
    assert_eq!(clear_alias.0, MQRCCF_Q_WRONG_TYPE);
}

#[test]
fn queue_status_handles_connections_and_statistics() {
    let admin = admin();
    run_command(&admin.queue_manager, "DEFINE QLOCAL(ST.Q)");
    ferrite_test_kit::put_messages(&admin.queue_manager, "ST.Q", 4, false);
    let mut reader = Connection::connect(admin.queue_manager.clone(), "").unwrap();
    let input = reader
        .open(&mut Mqod::queue("ST.Q"), MQOO_INPUT_EXCLUSIVE | MQOO_BROWSE)
        .unwrap();
    let mut writer = Connection::connect(admin.queue_manager.clone(), "").unwrap();
    writer
        .open(&mut Mqod::queue("ST.Q"), MQOO_OUTPUT | MQOO_INQUIRE)
        .unwrap();

    let status = admin.ok(MQCMD_INQUIRE_Q_STATUS, vec![string(MQCA_Q_NAME, "ST.Q")]);
    assert_eq!(status.len(), 1);
    let status = &status[0];
    assert_eq!(integer_of(status, MQIACF_Q_STATUS_TYPE), MQIACF_Q_STATUS);
    assert_eq!(integer_of(status, MQIA_CURRENT_Q_DEPTH), 4);
    assert_eq!(integer_of(status, MQIA_OPEN_INPUT_COUNT), 1);
    assert_eq!(integer_of(status, MQIA_OPEN_OUTPUT_COUNT), 1);
    assert!(integer_of(status, MQIACF_OLDEST_MSG_AGE) >= 0);
    assert_eq!(string_of(status, MQCACF_LAST_PUT_DATE).len(), 10);

    let handles = admin.ok(
        MQCMD_INQUIRE_Q_STATUS,
        vec![
            string(MQCA_Q_NAME, "ST.*"),
            int(MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE),
        ],
    );
    assert_eq!(handles.len(), 2, "{handles:?}");
    assert_eq!(
        integer_of(&handles[0], MQIACF_Q_STATUS_TYPE),
        MQIACF_Q_HANDLE
    );
    assert_eq!(
        integer_of(&handles[0], MQIACF_OPEN_INPUT_TYPE),
        MQQSO_EXCLUSIVE
    );
    assert_eq!(integer_of(&handles[0], MQIACF_OPEN_BROWSE), MQQSO_YES);
    assert_eq!(integer_of(&handles[0], MQIACF_OPEN_OUTPUT), MQQSO_NO);
    assert_eq!(integer_of(&handles[1], MQIACF_OPEN_OUTPUT), MQQSO_YES);
    assert_eq!(integer_of(&handles[1], MQIACF_OPEN_INQUIRE), MQQSO_YES);
    assert_eq!(integer_of(&handles[1], MQIACF_OPEN_INPUT_TYPE), MQQSO_NO);
    assert_eq!(
        integer_of(&handles[0], MQIACF_PROCESS_ID),
        std::process::id() as i32
    );
    let Parameter::ByteString {
        value: reader_id, ..
    } = find(&handles[0], MQBACF_CONNECTION_ID)
    else {
        panic!("a connection id");
    };
    assert_eq!(reader_id.len(), 24);
    assert_eq!(
        &reader_id[16..],
        &reader.record().id.to_be_bytes(),
        "the connection DISPLAY CONN shows"
    );
    // OpenType OUTPUT: only the writer's handle.
    let output = admin.ok(
        MQCMD_INQUIRE_Q_STATUS,
        vec![
            string(MQCA_Q_NAME, "ST.Q"),
            int(MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE),
            int(MQIACF_OPEN_TYPE, MQQSOT_OUTPUT),
            Parameter::IntegerList {
                parameter: MQIACF_Q_STATUS_ATTRS,
                values: vec![MQIACF_OPEN_OUTPUT],
            },
        ],
    );
    assert_eq!(
        output,
        vec![vec![
            string(MQCA_Q_NAME, "ST.Q"),
            int(MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE),
            int(MQIACF_OPEN_OUTPUT, MQQSO_YES),
        ]]
    );

    // INQUIRE_CONNECTION: the reader's connection and its handle.
    let connection = admin.ok(
        MQCMD_INQUIRE_CONNECTION,
        vec![
            Parameter::ByteString {
                parameter: MQBACF_GENERIC_CONNECTION_ID,
                value: reader_id.clone(),
            },
            int(MQIACF_CONN_INFO_TYPE, MQIACF_CONN_INFO_ALL),
        ],
    );
    assert_eq!(connection.len(), 2, "{connection:?}");
    assert_eq!(
        integer_of(&connection[0], MQIACF_CONN_INFO_TYPE),
        MQIACF_CONN_INFO_CONN
    );
    assert_eq!(
        integer_of(&connection[1], MQIACF_CONN_INFO_TYPE),
        MQIACF_CONN_INFO_HANDLE
    );
    assert_eq!(string_of(&connection[1], MQCACF_OBJECT_NAME), "ST.Q");
    assert_eq!(integer_of(&connection[1], MQIACF_OBJECT_TYPE), MQOT_Q);
    assert_eq!(
        integer_of(&connection[1], MQIACF_OPEN_OPTIONS),
        MQOO_INPUT_EXCLUSIVE | MQOO_BROWSE
    );
    let every = admin.ok(MQCMD_INQUIRE_CONNECTION, vec![]);
    assert_eq!(every.len(), 2);

    // Closed handles disappear.
    reader.close(input, 0).unwrap();
    let handles = admin.ok(
        MQCMD_INQUIRE_Q_STATUS,
        vec![
            string(MQCA_Q_NAME, "ST.Q"),
            int(MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE),
        ],
    );
    assert_eq!(handles.len(), 1);
    drop(writer);
    let none = admin.fails(
        MQCMD_INQUIRE_Q_STATUS,
        vec![
            string(MQCA_Q_NAME, "ST.Q"),
            int(MQIACF_Q_STATUS_TYPE, MQIACF_Q_HANDLE),
        ],
    );
    assert_eq!(none.0, MQRCCF_NONE_FOUND);
    let unknown = admin.fails(MQCMD_INQUIRE_Q_STATUS, vec![string(MQCA_Q_NAME, "NO.Q")]);
    assert_eq!(unknown.0, MQRC_UNKNOWN_OBJECT_NAME);

    // RESET_Q_STATS.
    let statistics = admin.ok(MQCMD_RESET_Q_STATS, vec![string(MQCA_Q_NAME, "ST.Q")]);
    assert_eq!(integer_of(&statistics[0], MQIA_MSG_ENQ_COUNT), 4);
    assert_eq!(integer_of(&statistics[0], MQIA_HIGH_Q_DEPTH), 4);
    let statistics = admin.ok(MQCMD_RESET_Q_STATS, vec![string(MQCA_Q_NAME, "ST.Q")]);
    assert_eq!(integer_of(&statistics[0], MQIA_MSG_ENQ_COUNT), 0);
    reader.disconnect().unwrap();
}

#[test]
fn channels_processes_namelists_and_listener() {
    let admin = admin();
    admin.ok(
        MQCMD_CREATE_CHANNEL,
        vec![
            string(MQCACH_CHANNEL_NAME, "PCF.SVRCONN"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SVRCONN),
            int(MQIACH_MAX_INSTANCES, 12),
            int(MQIACH_KEEP_ALIVE_INTERVAL, MQKAI_AUTO),
            string(MQCACH_DESC, "pcf channel"),
        ],
    );
    let channel = admin.queue_manager.channel("PCF.SVRCONN").unwrap();
    assert_eq!(channel.max_instances, 12);
    let sender = admin.fails(
        MQCMD_CREATE_CHANNEL,
        vec![
            string(MQCACH_CHANNEL_NAME, "PCF.SDR"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SENDER),
        ],
    );
    // A sender needs its partner's address and its transmission queue.
    assert_eq!(sender.0, MQRCCF_PARM_MISSING);
    admin.ok(
        MQCMD_CREATE_CHANNEL,
        vec![
            string(MQCACH_CHANNEL_NAME, "PCF.SDR"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SENDER),
            string(MQCACH_CONNECTION_NAME, "127.0.0.1(1415)"),
            string(MQCACH_XMIT_Q_NAME, "QM2"),
            int(MQIACH_BATCH_SIZE, 20),
            int(MQIACH_NPM_SPEED, MQNPMS_NORMAL),
            Parameter::IntegerList {
                parameter: MQIACH_MSG_COMPRESSION,
                values: vec![MQCOMPRESS_ZLIBHIGH, MQCOMPRESS_RLE],
            },
        ],
    );
    // COMPMSG(ANY) belongs to receiving channels; an unknown technique is a value error.
    for values in [vec![MQCOMPRESS_ANY], vec![77]] {
        let refused = admin.fails(
            MQCMD_CHANGE_CHANNEL,
            vec![
                string(MQCACH_CHANNEL_NAME, "PCF.SDR"),
                int(MQIACH_CHANNEL_TYPE, MQCHT_SENDER),
                Parameter::IntegerList {
                    parameter: MQIACH_MSG_COMPRESSION,
                    values,
                },
            ],
        );
        assert_ne!(refused.0, 0);
    }
    let sender = admin.queue_manager.channel("PCF.SDR").unwrap();
    assert_eq!(
        sender.message.message_compression,
        vec![MQCOMPRESS_ZLIBHIGH, MQCOMPRESS_RLE]
    );
    assert_eq!(sender.message.batch_size, 20);
    assert_eq!(sender.message.transmission_queue, "QM2");
    let senders = admin.ok(
        MQCMD_INQUIRE_CHANNEL,
        vec![
            string(MQCACH_CHANNEL_NAME, "PCF.*"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SENDER),
            Parameter::IntegerList {
                parameter: MQIACF_CHANNEL_ATTRS,
                values: vec![
                    MQCACH_XMIT_Q_NAME,
                    MQIACH_BATCH_SIZE,
                    MQIACH_NPM_SPEED,
                    MQIACH_HDR_COMPRESSION,
                    MQIACH_MSG_COMPRESSION,
                ],
            },
        ],
    );
    assert_eq!(
        senders,
        vec![vec![
            string(MQCACH_CHANNEL_NAME, "PCF.SDR"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SENDER),
            string(MQCACH_XMIT_Q_NAME, "QM2"),
            int(MQIACH_BATCH_SIZE, 20),
            int(MQIACH_NPM_SPEED, MQNPMS_NORMAL),
            Parameter::IntegerList {
                parameter: MQIACH_HDR_COMPRESSION,
                values: vec![MQCOMPRESS_NONE],
            },
            Parameter::IntegerList {
                parameter: MQIACH_MSG_COMPRESSION,
                values: vec![MQCOMPRESS_ZLIBHIGH, MQCOMPRESS_RLE],
            },
        ]]
    );
    admin.ok(
        MQCMD_DELETE_CHANNEL,
        vec![string(MQCACH_CHANNEL_NAME, "PCF.SDR")],
    );
    admin.ok(
        MQCMD_CHANGE_CHANNEL,
        vec![
            string(MQCACH_CHANNEL_NAME, "PCF.SVRCONN"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SVRCONN),
            int(MQIACH_HB_INTERVAL, 60),
        ],
    );
    let channels = admin.ok(
        MQCMD_INQUIRE_CHANNEL,
        vec![
            string(MQCACH_CHANNEL_NAME, "PCF.*"),
            Parameter::IntegerList {
                parameter: MQIACF_CHANNEL_ATTRS,
                values: vec![MQIACH_HB_INTERVAL, MQIACH_KEEP_ALIVE_INTERVAL],
            },
        ],
    );
    assert_eq!(
        channels,
        vec![vec![
            string(MQCACH_CHANNEL_NAME, "PCF.SVRCONN"),
            int(MQIACH_CHANNEL_TYPE, MQCHT_SVRCONN),
            int(MQIACH_HB_INTERVAL, 60),
            int(MQIACH_KEEP_ALIVE_INTERVAL, MQKAI_AUTO),
        ]]
    );
    let names = admin.ok(
        MQCMD_INQUIRE_CHANNEL_NAMES,
        vec![string(MQCACH_CHANNEL_NAME, "*")],
    );
    assert!(names_of(&names[0], MQCACH_CHANNEL_NAMES).contains(&"DEV.APP.SVRCONN".to_string()));
    admin.ok(
        MQCMD_DELETE_CHANNEL,
        vec![string(MQCACH_CHANNEL_NAME, "PCF.SVRCONN")],
    );
    assert!(admin.queue_manager.channel("PCF.SVRCONN").is_none());

    // Channel status from the channel initiator.
    let status = admin.ok(
        MQCMD_INQUIRE_CHANNEL_STATUS,
        vec![string(MQCACH_CHANNEL_NAME, "*")],
    );
    assert!(!status.is_empty());
    assert_eq!(integer_of(&status[0], MQIACH_CHANNEL_STATUS), MQCHS_RUNNING);
    let none = admin.fails(
        MQCMD_INQUIRE_CHANNEL_STATUS,
        vec![string(MQCACH_CHANNEL_NAME, "NONE.*")],
    );
    assert_eq!(none.0, MQRCCF_CHL_STATUS_NOT_FOUND);
    let listener = admin.ok(MQCMD_INQUIRE_LISTENER_STATUS, vec![]);
    assert_eq!(integer_of(&listener[0], MQIACH_PORT), 1414);

    // Processes and namelists.
    admin.ok(
        MQCMD_CREATE_PROCESS,
        vec![
            string(MQCA_PROCESS_NAME, "PCF.PROCESS"),
            string(MQCA_APPL_ID, "/usr/bin/true"),
        ],
    );
    let process = admin.ok(
        MQCMD_INQUIRE_PROCESS,
        vec![string(MQCA_PROCESS_NAME, "PCF.*")],
    );
    assert_eq!(string_of(&process[0], MQCA_APPL_ID), "/usr/bin/true");
    admin.ok(
        MQCMD_CREATE_NAMELIST,
        vec![
            string(MQCA_NAMELIST_NAME, "PCF.NAMES"),
            Parameter::StringList {
                parameter: MQCA_NAMES,
                values: vec!["A.ONE".into(), "B.TWO".into()],
            },
        ],
    );
    let namelist = admin.ok(
        MQCMD_INQUIRE_NAMELIST,
        vec![string(MQCA_NAMELIST_NAME, "PCF.NAMES")],
    );
    assert_eq!(names_of(&namelist[0], MQCA_NAMES), vec!["A.ONE", "B.TWO"]);
    assert_eq!(integer_of(&namelist[0], MQIA_NAME_COUNT), 2);
    let filtered = admin.ok(
        MQCMD_INQUIRE_NAMELIST,
        vec![
            string(MQCA_NAMELIST_NAME, "*"),
            Parameter::StringFilter {
                parameter: MQCA_NAMES,
                operator: MQCFOP_CONTAINS,
                value: "B.TWO".into(),
            },
        ],
    );
    assert_eq!(filtered.len(), 1);
    admin.ok(
        MQCMD_DELETE_NAMELIST,
        vec![string(MQCA_NAMELIST_NAME, "PCF.NAMES")],
    );
}

#[test]
fn extended_responses_for_command_xr() {
    let admin = admin();
    let mut message = request(
        MQCMD_INQUIRE_Q,
        vec![string(MQCA_Q_NAME, "SYSTEM.DEFAULT.*")],
    );
    message.header.kind = MQCFT_COMMAND_XR;
    let responses = admin.send_in(ByteOrder::Normal, &message);
    let (summary, items) = responses.split_last().unwrap();
    assert!(items.len() >= 4);
    assert!(items.iter().all(|item| item.header.kind == MQCFT_XR_ITEM));
    assert_eq!(summary.header.kind, MQCFT_XR_SUMMARY);
    assert_eq!(summary.header.comp_code, MQCC_OK);
}

#[test]
fn hostile_requests_get_error_responses() {
    let admin = admin();
    let good = encode(
        &request(MQCMD_INQUIRE_Q, vec![string(MQCA_Q_NAME, "*")]),
        ByteOrder::Normal,
    );
    let cases: Vec<(Vec<u8>, i32)> = vec![
        (Vec::new(), MQRCCF_CFH_TYPE_ERROR),
        (good[..30].to_vec(), MQRCCF_MSG_LENGTH_ERROR),
        (good[..good.len() - 4].to_vec(), MQRCCF_MSG_LENGTH_ERROR),
        ([good.clone(), vec![0; 8]].concat(), MQRCCF_MSG_LENGTH_ERROR),
    ];
    for (data, reason) in cases {
        let replies = pcf_commands::execute(&admin.processor, MQENC_INTEGER_NORMAL, &data);
        assert_eq!(replies.len(), 1);
        let response = decode_response(&replies[0], ByteOrder::Normal).unwrap();
        assert_eq!(
            (response.header.comp_code, response.header.reason),
            (MQCC_FAILED, reason),
            "{} bytes",
            data.len()
        );
    }
    // Every truncation and every corrupted word of a real command: a response, no panic.
    for length in 0..good.len() {
        let replies =
            pcf_commands::execute(&admin.processor, MQENC_INTEGER_NORMAL, &good[..length]);
        assert_eq!(replies.len(), 1);
    }
    for index in (0..good.len()).step_by(4) {
        for value in [-1i32, 0, 3, 1 << 30, i32::MAX] {
            let mut data = good.clone();
            data[index..index + 4].copy_from_slice(&value.to_be_bytes());
            let replies = pcf_commands::execute(&admin.processor, MQENC_INTEGER_NORMAL, &data);
            assert!(!replies.is_empty());
            for reply in replies {
                decode_response(&reply, ByteOrder::Normal).unwrap();
            }
        }
    }
}

/// The command server: a PCF request put to SYSTEM.ADMIN.COMMAND.QUEUE in each byte order;
/// one reply message per object, in the request's encoding, CorrelId = the request's MsgId.
#[test]
fn command_server_round_trip() {
    let admin = admin();
    run_command(
        &admin.queue_manager,
        "DEFINE QLOCAL(ADMIN.REPLY) INDXTYPE(CORRELID)",
    );
    let server = CommandServer::start(admin.queue_manager.clone());
    let mut connection = Connection::connect(admin.queue_manager.clone(), "").unwrap();
    for (order, encoding) in [
        (ByteOrder::Normal, MQENC_INTEGER_NORMAL),
        (ByteOrder::Reversed, MQENC_INTEGER_REVERSED),
    ] {
        let data = encode(
            &request(
                MQCMD_INQUIRE_Q,
                vec![string(MQCA_Q_NAME, "SYSTEM.DEFAULT.*")],
            ),
            order,
        );
        let mut md = Mqmd {
            msg_type: MQMT_REQUEST,
            format: MQFMT_ADMIN,
            encoding,
            reply_to_q: "ADMIN.REPLY".into(),
            ..Mqmd::default()
        };
        connection
            .put1(
                &mut Mqod::queue(ADMIN_COMMAND_QUEUE),
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID),
                &data,
            )
            .unwrap();
        let hobj = connection
            .open(&mut Mqod::queue("ADMIN.REPLY"), MQOO_INPUT_SHARED)
            .unwrap();
        let mut responses = Vec::new();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let mut reply = Mqmd {
                correl_id: md.msg_id,
                ..Mqmd::default()
            };
            let mut gmo = Mqgmo::matching(MQGMO_WAIT | MQGMO_NO_SYNCPOINT, MQMO_MATCH_CORREL_ID);
            gmo.wait_interval = 10_000;
            let got = connection
                .get(hobj, &mut reply, &mut gmo, &mut buffer)
                .expect("a reply");
            assert_eq!(reply.format, MQFMT_ADMIN);
            assert_eq!(reply.msg_type, MQMT_REPLY);
            assert_eq!(reply.encoding, encoding);
            let response = decode_response(&buffer[..got.data_length], order).unwrap();
            let last = response.header.control == MQCFC_LAST;
            responses.push(response);
            if last {
                break;
            }
        }
        connection.close(hobj, 0).unwrap();
        assert!(responses.len() >= 4, "one per SYSTEM.DEFAULT.* queue");
        assert!(responses
            .iter()
            .all(|response| response.header.comp_code == MQCC_OK));
    }
    connection.disconnect().unwrap();
    server.stop();
}

/// The fuzz target's kept corpus (tests/corpus/pcf, also the seeds of `fuzz/` pcf_command):
/// each input, in both byte orders, gets well-formed responses and never a panic.
#[test]
fn corpus_replays() {
    let admin = admin();
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/pcf");
    let mut count = 0;
    for entry in std::fs::read_dir(directory).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        for (order, encoding) in [
            (ByteOrder::Normal, MQENC_INTEGER_NORMAL),
            (ByteOrder::Reversed, MQENC_INTEGER_REVERSED),
        ] {
            let replies = pcf_commands::execute(&admin.processor, encoding, &data);
            assert!(!replies.is_empty());
            for reply in replies {
                decode_response(&reply, order).unwrap();
            }
        }
        count += 1;
    }
    assert!(count >= 5, "the corpus is there");
}

#[test]
fn authentication_information_objects() {
    let admin = admin();
    // AuthInfoType is required to create one, and only IDPWOS exists.
    let (reason, parameters) = admin.fails(
        MQCMD_CREATE_AUTH_INFO,
        vec![string(MQCA_AUTH_INFO_NAME, "PCF.AUTH")],
    );
    assert_eq!(reason, MQRCCF_PARM_COUNT_TOO_SMALL);
    assert_eq!(
        integer_of(&parameters, MQIACF_PARAMETER_ID),
        MQIA_AUTH_INFO_TYPE
    );
    let (reason, _) = admin.fails(
        MQCMD_CREATE_AUTH_INFO,
        vec![
            string(MQCA_AUTH_INFO_NAME, "PCF.AUTH"),
            int(MQIA_AUTH_INFO_TYPE, MQAIT_IDPW_LDAP),
        ],
    );
    assert_eq!(reason, MQRCCF_PARM_VALUE_ERROR);
    admin.ok(
        MQCMD_CREATE_AUTH_INFO,
        vec![
            string(MQCA_AUTH_INFO_NAME, "PCF.AUTH"),
            int(MQIA_AUTH_INFO_TYPE, MQAIT_IDPW_OS),
            int(MQIA_CHECK_CLIENT_BINDING, MQCHK_REQUIRED),
            int(MQIA_ADOPT_CONTEXT, MQADPCTX_YES),
            string(MQCA_AUTH_INFO_DESC, "pcf"),
        ],
    );
    admin.ok(
        MQCMD_CHANGE_AUTH_INFO,
        vec![
            string(MQCA_AUTH_INFO_NAME, "PCF.AUTH"),
            int(MQIA_AUTH_INFO_TYPE, MQAIT_IDPW_OS),
            int(MQIA_AUTHENTICATION_FAIL_DELAY, 3),
        ],
    );
    let (reason, _) = admin.fails(
        MQCMD_CHANGE_AUTH_INFO,
        vec![
            string(MQCA_AUTH_INFO_NAME, "PCF.AUTH"),
            int(MQIA_AUTHENTICATION_FAIL_DELAY, 61),
        ],
    );
    assert_eq!(reason, MQRCCF_PARM_VALUE_ERROR);
    let found = admin.ok(
        MQCMD_INQUIRE_AUTH_INFO,
        vec![
            string(MQCA_AUTH_INFO_NAME, "PCF.*"),
            Parameter::IntegerList {
                parameter: MQIACF_AUTH_INFO_ATTRS,
                values: vec![
                    MQIA_CHECK_CLIENT_BINDING,
                    MQIA_CHECK_LOCAL_BINDING,
                    MQIA_ADOPT_CONTEXT,
                    MQIA_AUTHENTICATION_FAIL_DELAY,
                ],
            },
        ],
    );
    assert_eq!(
        found,
        vec![vec![
            string(MQCA_AUTH_INFO_NAME, "PCF.AUTH"),
            int(MQIA_AUTH_INFO_TYPE, MQAIT_IDPW_OS),
            int(MQIA_CHECK_CLIENT_BINDING, MQCHK_REQUIRED),
            int(MQIA_CHECK_LOCAL_BINDING, MQCHK_OPTIONAL),
            int(MQIA_ADOPT_CONTEXT, MQADPCTX_YES),
            int(MQIA_AUTHENTICATION_FAIL_DELAY, 3),
        ]]
    );
    admin.ok(
        MQCMD_COPY_AUTH_INFO,
        vec![
            string(MQCACF_FROM_AUTH_INFO_NAME, "PCF.AUTH"),
            string(MQCACF_TO_AUTH_INFO_NAME, "PCF.COPY"),
            int(MQIA_AUTH_INFO_TYPE, MQAIT_IDPW_OS),
        ],
    );
    let names = admin.ok(
        MQCMD_INQUIRE_AUTH_INFO_NAMES,
        vec![string(MQCA_AUTH_INFO_NAME, "*")],
    );
    assert_eq!(
        names_of(&names[0], MQCACF_AUTH_INFO_NAMES),
        vec!["PCF.AUTH", "PCF.COPY", "SYSTEM.DEFAULT.AUTHINFO.IDPWOS"]
    );
    // CONNAUTH through CHANGE_Q_MGR; the object it names cannot be deleted.
    admin.ok(MQCMD_CHANGE_Q_MGR, vec![string(MQCA_CONN_AUTH, "PCF.AUTH")]);
    let manager = admin.ok(
        MQCMD_INQUIRE_Q_MGR,
        vec![Parameter::IntegerList {
            parameter: MQIACF_Q_MGR_ATTRS,
            values: vec![MQCA_CONN_AUTH],
        }],
    );
    assert_eq!(string_of(&manager[0], MQCA_CONN_AUTH), "PCF.AUTH");
    let (reason, _) = admin.fails(
        MQCMD_DELETE_AUTH_INFO,
        vec![string(MQCA_AUTH_INFO_NAME, "PCF.AUTH")],
    );
    assert_eq!(reason, MQRC_OBJECT_IN_USE);
    admin.ok(
        MQCMD_DELETE_AUTH_INFO,
        vec![string(MQCA_AUTH_INFO_NAME, "PCF.COPY")],
    );
    let (reason, _) = admin.fails(
        MQCMD_INQUIRE_AUTH_INFO,
        vec![string(MQCA_AUTH_INFO_NAME, "PCF.COPY")],
    );
    assert_eq!(reason, MQRC_UNKNOWN_OBJECT_NAME);
}

#[test]
fn topics_through_pcf() {
    let admin = admin();
    // Create Topic needs TopicString; ASPARENT values travel as MQ's *_AS_PARENT constants.
    let (reason, _) = admin.fails(MQCMD_CREATE_TOPIC, vec![string(MQCA_TOPIC_NAME, "T.NONE")]);
    assert_eq!(reason, MQRCCF_PARM_COUNT_TOO_SMALL);
    admin.ok(
        MQCMD_CREATE_TOPIC,
        vec![
            string(MQCA_TOPIC_NAME, "SPORTS"),
            string(MQCA_TOPIC_STRING, "Sports"),
            int(MQIA_DURABLE_SUB, MQSUB_DURABLE_INHIBITED),
            int(MQIA_DEF_PRIORITY, 6),
            int(MQIA_NPM_DELIVERY, MQDLV_ALL),
            int(MQIA_WILDCARD_OPERATION, MQTA_BLOCK),
        ],
    );
    let (reason, _) = admin.fails(
        MQCMD_CREATE_TOPIC,
        vec![
            string(MQCA_TOPIC_NAME, "SPORTS.TWO"),
            string(MQCA_TOPIC_STRING, "Sports"),
        ],
    );
    assert_eq!(reason, MQRCCF_TOPICSTR_ALREADY_EXISTS);
    admin.ok(
        MQCMD_CHANGE_TOPIC,
        vec![
            string(MQCA_TOPIC_NAME, "SPORTS"),
            int(MQIA_INHIBIT_PUB, MQTA_PUB_INHIBITED),
            int(MQIA_DEF_PRIORITY, MQPRI_PRIORITY_AS_PARENT),
        ],
    );
    // Change Topic does not move the node.
    admin.fails(
        MQCMD_CHANGE_TOPIC,
        vec![
            string(MQCA_TOPIC_NAME, "SPORTS"),
            string(MQCA_TOPIC_STRING, "Elsewhere"),
        ],
    );
    let responses = admin.ok(MQCMD_INQUIRE_TOPIC, vec![string(MQCA_TOPIC_NAME, "SPORTS")]);
    assert_eq!(responses.len(), 1);
    let topic = &responses[0];
    assert_eq!(string_of(topic, MQCA_TOPIC_STRING), "Sports");
    assert_eq!(integer_of(topic, MQIA_TOPIC_TYPE), MQTOPT_LOCAL);
    assert_eq!(integer_of(topic, MQIA_DURABLE_SUB), MQSUB_DURABLE_INHIBITED);
    assert_eq!(
        integer_of(topic, MQIA_DEF_PRIORITY),
        MQPRI_PRIORITY_AS_PARENT
    );
    assert_eq!(integer_of(topic, MQIA_INHIBIT_PUB), MQTA_PUB_INHIBITED);
    assert_eq!(integer_of(topic, MQIA_INHIBIT_SUB), MQTA_SUB_AS_PARENT);
    assert_eq!(integer_of(topic, MQIA_NPM_DELIVERY), MQDLV_ALL);
    assert_eq!(integer_of(topic, MQIA_WILDCARD_OPERATION), MQTA_BLOCK);
    assert_eq!(string_of(topic, MQCA_MODEL_DURABLE_Q), "");
    // The attributes in force below it come from SPORTS and then SYSTEM.BASE.TOPIC.
    let attributes = admin.queue_manager.topic_tree().attributes("Sports/Tennis");
    assert!(!attributes.durable_subscriptions && !attributes.publish_enabled);
    assert_eq!(attributes.default_priority, 0);
    admin.ok(
        MQCMD_COPY_TOPIC,
        vec![
            string(MQCACF_FROM_TOPIC_NAME, "SPORTS"),
            string(MQCACF_TO_TOPIC_NAME, "NEWS"),
            string(MQCA_TOPIC_STRING, "News"),
        ],
    );
    let names = admin.ok(
        MQCMD_INQUIRE_TOPIC_NAMES,
        vec![string(MQCA_TOPIC_NAME, "*")],
    );
    assert_eq!(
        names_of(&names[0], MQCACF_TOPIC_NAMES),
        vec![
            "NEWS",
            "SPORTS",
            "SYSTEM.BASE.TOPIC",
            "SYSTEM.DEFAULT.TOPIC"
        ]
    );
    admin.ok(MQCMD_DELETE_TOPIC, vec![string(MQCA_TOPIC_NAME, "NEWS")]);
    let (reason, _) = admin.fails(MQCMD_DELETE_TOPIC, vec![string(MQCA_TOPIC_NAME, "NEWS")]);
    assert_eq!(reason, MQRC_UNKNOWN_OBJECT_NAME);
    let base = admin.ok(
        MQCMD_INQUIRE_TOPIC,
        vec![
            string(MQCA_TOPIC_NAME, "SYSTEM.BASE.TOPIC"),
            Parameter::IntegerList {
                parameter: MQIACF_TOPIC_ATTRS,
                values: vec![MQIA_PM_DELIVERY],
            },
        ],
    );
    assert_eq!(integer_of(&base[0], MQIA_PM_DELIVERY), MQDLV_ALL_DUR);
}

#[test]
fn subscriptions_and_topic_status_through_pcf() {
    let admin = admin();
    let queue_manager = &admin.queue_manager;
    for command in [
        "DEFINE QLOCAL(APP.SCORES)",
        "DEFINE TOPIC(SPORTS) TOPICSTR('Sports') DURSUB(YES)",
        "DEFINE SUB('Scores desk') TOPICSTR('Sports/+/Results') DEST(APP.SCORES) USERDATA('desk')",
    ] {
        assert!(run_command(queue_manager, command).success, "{command}");
    }
    let subscriptions = admin.ok(MQCMD_INQUIRE_SUBSCRIPTION, vec![]);
    assert_eq!(subscriptions.len(), 1);
    let subscription = &subscriptions[0];
    assert_eq!(string_of(subscription, MQCACF_SUB_NAME), "Scores desk");
    assert_eq!(
        string_of(subscription, MQCA_TOPIC_STRING),
        "Sports/+/Results"
    );
    assert_eq!(string_of(subscription, MQCACF_DESTINATION), "APP.SCORES");
    assert_eq!(string_of(subscription, MQCACF_SUB_USER_DATA), "desk");
    assert_eq!(integer_of(subscription, MQIACF_SUB_TYPE), MQSUBTYPE_ADMIN);
    assert_eq!(
        integer_of(subscription, MQIACF_DESTINATION_CLASS),
        MQDC_PROVIDED
    );
    assert_eq!(
        integer_of(subscription, MQIACF_PUB_PRIORITY),
        MQPRI_PRIORITY_AS_PUBLISHED
    );
    match find(subscription, MQBACF_SUB_ID) {
        Parameter::ByteString { value, .. } => assert_eq!(value.len(), 24),
        other => panic!("{other:?}"),
    }
    let status = admin.ok(
        MQCMD_INQUIRE_SUB_STATUS,
        vec![string(MQCACF_SUB_NAME, "Scores*")],
    );
    assert_eq!(
        integer_of(&status[0], MQIACF_DURABLE_SUBSCRIPTION),
        MQSUB_DURABLE_YES
    );
    let topic = admin.ok(
        MQCMD_INQUIRE_TOPIC_STATUS,
        vec![string(MQCA_TOPIC_STRING, "Sports/Football")],
    );
    assert_eq!(string_of(&topic[0], MQCA_ADMIN_TOPIC_NAME), "SPORTS");
    assert_eq!(
        integer_of(&topic[0], MQIA_DURABLE_SUB),
        MQSUB_DURABLE_ALLOWED
    );
    assert_eq!(integer_of(&topic[0], MQIACF_RETAINED_PUBLICATION), MQQSO_NO);
    let subs_here = admin.ok(
        MQCMD_INQUIRE_TOPIC_STATUS,
        vec![
            string(MQCA_TOPIC_STRING, "Sports/+/Results"),
            int(MQIACF_TOPIC_STATUS_TYPE, MQIACF_TOPIC_SUB),
        ],
    );
    assert_eq!(subs_here.len(), 1);
    admin.ok(
        MQCMD_DELETE_SUBSCRIPTION,
        vec![string(MQCACF_SUB_NAME, "Scores desk")],
    );
    let (reason, _) = admin.fails(
        MQCMD_INQUIRE_SUBSCRIPTION,
        vec![string(MQCACF_SUB_NAME, "Scores desk")],
    );
    assert_eq!(reason, MQRC_NO_SUBSCRIPTION);
}

#[test]
fn change_subscription_changes_what_mq_lets_change() {
    let admin = admin();
    let queue_manager = &admin.queue_manager;
    for command in [
        "DEFINE QLOCAL(APP.DAY)",
        "DEFINE QLOCAL(APP.NIGHT)",
        "DEFINE SUB('Prices desk') TOPICSTR('Prices/#') DEST(APP.DAY) SELECTOR('Region = ''EU''')",
    ] {
        assert!(run_command(queue_manager, command).success, "{command}");
    }
    let name = || string(MQCACF_SUB_NAME, "Prices desk");
    admin.ok(
        MQCMD_CHANGE_SUBSCRIPTION,
        vec![
            name(),
            string(MQCACF_DESTINATION, "APP.NIGHT"),
            string(MQCACF_SUB_USER_DATA, "night"),
            int(MQIACF_EXPIRY, 36_000),
            int(MQIACF_PUBSUB_PROPERTIES, MQPSPROP_NONE),
            int(MQIACF_PUB_PRIORITY, 6),
            int(MQIACF_VARIABLE_USER_ID, MQVU_FIXED_USER),
            Parameter::ByteString {
                parameter: MQBACF_ACCOUNTING_TOKEN,
                value: vec![0x5A; 32],
            },
            string(MQCACF_APPL_IDENTITY_DATA, "Ledger"),
            // What may not change, given as it is.
            string(MQCACF_SUB_SELECTOR, "Region = 'EU'"),
            string(MQCA_TOPIC_STRING, "Prices/#"),
            int(MQIACF_DESTINATION_CLASS, MQDC_PROVIDED),
        ],
    );
    let shown = admin.ok(MQCMD_INQUIRE_SUBSCRIPTION, vec![name()]);
    let subscription = &shown[0];
    assert_eq!(string_of(subscription, MQCACF_DESTINATION), "APP.NIGHT");
    assert_eq!(string_of(subscription, MQCACF_SUB_USER_DATA), "night");
    assert_eq!(integer_of(subscription, MQIACF_EXPIRY), 36_000);
    assert_eq!(
        integer_of(subscription, MQIACF_PUBSUB_PROPERTIES),
        MQPSPROP_NONE
    );
    assert_eq!(integer_of(subscription, MQIACF_PUB_PRIORITY), 6);
    assert_eq!(
        integer_of(subscription, MQIACF_VARIABLE_USER_ID),
        MQVU_FIXED_USER
    );
    assert_eq!(string_of(subscription, MQCACF_APPL_IDENTITY_DATA), "Ledger");
    match find(subscription, MQBACF_ACCOUNTING_TOKEN) {
        Parameter::ByteString { value, .. } => assert_eq!(value, &vec![0x5A; 32]),
        other => panic!("{other:?}"),
    }
    let id = match find(subscription, MQBACF_SUB_ID) {
        Parameter::ByteString { value, .. } => value.clone(),
        other => panic!("{other:?}"),
    };

    // What may not change, with MQ's reasons.
    for (parameter, reason) in [
        (
            string(MQCACF_SUB_SELECTOR, "Region = 'US'"),
            MQRC_SELECTOR_NOT_ALTERABLE,
        ),
        (string(MQCA_TOPIC_STRING, "Other"), MQRC_TOPIC_NOT_ALTERABLE),
        (
            int(MQIACF_WILDCARD_SCHEMA, MQWS_CHAR),
            MQRC_TOPIC_NOT_ALTERABLE,
        ),
        (
            int(MQIACF_DESTINATION_CLASS, MQDC_MANAGED),
            MQRC_DEST_CLASS_NOT_ALTERABLE,
        ),
        (int(MQIACF_EXPIRY, -7), MQRCCF_PARM_VALUE_ERROR),
        (int(MQIACF_PUB_PRIORITY, 10), MQRCCF_PARM_VALUE_ERROR),
        (int(MQIACF_PUBSUB_PROPERTIES, 7), MQRCCF_PARM_VALUE_ERROR),
    ] {
        let (refused, _) = admin.fails(MQCMD_CHANGE_SUBSCRIPTION, vec![name(), parameter]);
        assert_eq!(refused, reason);
    }
    let (reason, _) = admin.fails(
        MQCMD_CHANGE_SUBSCRIPTION,
        vec![string(MQCACF_SUB_NAME, "No such desk")],
    );
    assert_eq!(reason, MQRC_NO_SUBSCRIPTION);
    let (reason, _) = admin.fails(MQCMD_CHANGE_SUBSCRIPTION, vec![int(MQIACF_EXPIRY, 1)]);
    assert_eq!(reason, MQRCCF_PARM_COUNT_TOO_SMALL);
    // By SubId alone.
    admin.ok(
        MQCMD_CHANGE_SUBSCRIPTION,
        vec![
            Parameter::ByteString {
                parameter: MQBACF_SUB_ID,
                value: id,
            },
            int(MQIACF_EXPIRY, MQEI_UNLIMITED),
        ],
    );
    let shown = admin.ok(MQCMD_INQUIRE_SUBSCRIPTION, vec![name()]);
    assert_eq!(integer_of(&shown[0], MQIACF_EXPIRY), MQEI_UNLIMITED);
}

#[test]
fn create_and_copy_subscription_make_what_define_sub_makes() {
    let admin = admin();
    let queue_manager = &admin.queue_manager;
    for command in ["DEFINE QLOCAL(APP.DAY)", "DEFINE QLOCAL(APP.NIGHT)"] {
        assert!(run_command(queue_manager, command).success, "{command}");
    }
    admin.ok(
        MQCMD_CREATE_SUBSCRIPTION,
        vec![
            string(MQCACF_SUB_NAME, "Prices desk"),
            string(MQCA_TOPIC_STRING, "Prices/#"),
            string(MQCACF_DESTINATION, "APP.DAY"),
            string(MQCACF_SUB_SELECTOR, "Region = 'EU'"),
            string(MQCACF_SUB_USER_DATA, "day"),
            int(MQIACF_PUBSUB_PROPERTIES, MQPSPROP_RFH2),
            int(MQIACF_SUBSCRIPTION_SCOPE, MQTSCOPE_QMGR),
            int(MQIACF_SUB_LEVEL, 3),
        ],
    );
    let shown = admin.ok(
        MQCMD_INQUIRE_SUBSCRIPTION,
        vec![string(MQCACF_SUB_NAME, "Prices desk")],
    );
    let created = &shown[0];
    assert_eq!(string_of(created, MQCA_TOPIC_STRING), "Prices/#");
    assert_eq!(string_of(created, MQCACF_SUB_SELECTOR), "Region = 'EU'");
    assert_eq!(integer_of(created, MQIACF_PUBSUB_PROPERTIES), MQPSPROP_RFH2);
    assert_eq!(
        integer_of(created, MQIACF_SUBSCRIPTION_SCOPE),
        MQTSCOPE_QMGR
    );
    assert_eq!(integer_of(created, MQIACF_SUB_LEVEL), 3);
    assert_eq!(integer_of(created, MQIACF_SUB_TYPE), MQSUBTYPE_ADMIN);

    // Again without Replace: it exists; with MQRP_YES: replaced.
    let again = vec![
        string(MQCACF_SUB_NAME, "Prices desk"),
        string(MQCA_TOPIC_STRING, "Prices/#"),
        string(MQCACF_DESTINATION, "APP.NIGHT"),
    ];
    let (reason, _) = admin.fails(MQCMD_CREATE_SUBSCRIPTION, again.clone());
    assert_eq!(reason, MQRC_SUB_ALREADY_EXISTS);
    let mut replace = again.clone();
    replace.push(int(MQIACF_REPLACE, MQRP_YES));
    admin.ok(MQCMD_CREATE_SUBSCRIPTION, replace);

    // Copy: the original's attributes, a SUBID and DESTCORL of its own, and what it overrides.
    admin.ok(
        MQCMD_COPY_SUBSCRIPTION,
        vec![
            string(MQCACF_FROM_SUB_NAME, "Prices desk"),
            string(MQCACF_TO_SUB_NAME, "Prices copy"),
            string(MQCACF_SUB_USER_DATA, "copied"),
        ],
    );
    let from = &admin.ok(
        MQCMD_INQUIRE_SUBSCRIPTION,
        vec![string(MQCACF_SUB_NAME, "Prices desk")],
    )[0];
    let copy = &admin.ok(
        MQCMD_INQUIRE_SUBSCRIPTION,
        vec![string(MQCACF_SUB_NAME, "Prices copy")],
    )[0];
    assert_eq!(string_of(copy, MQCA_TOPIC_STRING), "Prices/#");
    assert_eq!(string_of(copy, MQCACF_DESTINATION), "APP.NIGHT");
    assert_eq!(string_of(copy, MQCACF_SUB_USER_DATA), "copied");
    assert_ne!(find(copy, MQBACF_SUB_ID), find(from, MQBACF_SUB_ID));

    // MQ's refusals.
    for (parameters, reason) in [
        (
            vec![
                string(MQCACF_SUB_NAME, "No queue"),
                string(MQCA_TOPIC_STRING, "a"),
                string(MQCACF_DESTINATION, "NO.SUCH.QUEUE"),
            ],
            MQRC_UNKNOWN_OBJECT_NAME,
        ),
        (
            vec![
                string(MQCACF_SUB_NAME, "No topic"),
                string(MQCACF_DESTINATION, "APP.DAY"),
            ],
            MQRCCF_PARM_COUNT_TOO_SMALL,
        ),
        (
            vec![
                string(MQCACF_SUB_NAME, "Level ten"),
                string(MQCA_TOPIC_STRING, "a"),
                string(MQCACF_DESTINATION, "APP.DAY"),
                int(MQIACF_SUB_LEVEL, 10),
            ],
            MQRCCF_PARM_VALUE_ERROR,
        ),
        (
            vec![
                string(MQCACF_SUB_NAME, "Interceptor on request"),
                string(MQCA_TOPIC_STRING, "a"),
                string(MQCACF_DESTINATION, "APP.DAY"),
                int(MQIACF_SUB_LEVEL, 2),
                int(MQIACF_REQUEST_ONLY, MQRU_PUBLISH_ON_REQUEST),
            ],
            MQRC_OPTIONS_ERROR,
        ),
    ] {
        let (refused, _) = admin.fails(MQCMD_CREATE_SUBSCRIPTION, parameters);
        assert_eq!(refused, reason);
    }
    let (reason, _) = admin.fails(
        MQCMD_COPY_SUBSCRIPTION,
        vec![
            string(MQCACF_FROM_SUB_NAME, "No such desk"),
            string(MQCACF_TO_SUB_NAME, "x"),
        ],
    );
    assert_eq!(reason, MQRC_NO_SUBSCRIPTION);
}
