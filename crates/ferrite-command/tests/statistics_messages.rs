//! MQ distributed's statistics and accounting messages, decoded with the PCF decoder: STATMQI
//! and ACCTMQI as ALTER/DISPLAY QMGR attributes, an MQCMD_STATISTICS_MQI message on
//! SYSTEM.ADMIN.STATISTICS.QUEUE for each interval closed while STATMQI is ON (none while it
//! is OFF), and an MQCMD_ACCOUNTING_MQI message on SYSTEM.ADMIN.ACCOUNTING.QUEUE and a record
//! in accounting.jsonl for each connection that ends while ACCTMQI is ON, with the counts of
//! the work done; and an MQCMD_STATISTICS_Q message and STATISTICS_Q records for each
//! interval, with the queues whose STATQ asks.

use std::sync::Arc;

use ferrite_command::pcf::{decode_statistics, ByteOrder, Parameter, PcfMessage};
use ferrite_command::{define_default_objects, run_command};
use ferrite_constants::{
    get_options::*, open_options::*, pcf::*, pcf_selector::*, put_options::*, selector::MQCA_Q_NAME,
};
use ferrite_mqi::statistics_messages::{ACCOUNTING_QUEUE, STATISTICS_QUEUE};
use ferrite_mqi::*;
use ferrite_queue_manager::statistics::{ACCOUNTING_FILE, STATISTICS_FILE};
use ferrite_queue_manager::QueueManager;
use ferrite_test_kit::{
    connect, get, get_until_empty, persistence, put_md, queue_manager, reason, with_persistence,
};

fn ok(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

/// Every message on `queue`, decoded (a message too long for the buffer fails the test).
fn messages(queue_manager: &Arc<QueueManager>, queue: &str) -> Vec<PcfMessage> {
    let mut connection = connect(queue_manager);
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_INPUT_SHARED)
        .unwrap();
    get_until_empty(&mut connection, hobj, 1 << 20, queue)
        .into_iter()
        .map(|(md, data)| {
            assert_eq!(&md.format, b"MQADMIN ");
            let order = ByteOrder::of_encoding(md.encoding);
            decode_statistics(&data, order).expect("a valid PCF message")
        })
        .collect()
}

fn integer(message: &PcfMessage, id: i32) -> i32 {
    message
        .parameters
        .iter()
        .find_map(|p| match p {
            Parameter::Integer { parameter, value } if *parameter == id => Some(*value),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no MQCFIN {id}"))
}

fn list(message: &PcfMessage, id: i32) -> Vec<i64> {
    message
        .parameters
        .iter()
        .find_map(|p| match p {
            Parameter::IntegerList { parameter, values } if *parameter == id => {
                Some(values.iter().map(|v| i64::from(*v)).collect())
            }
            Parameter::Integer64List { parameter, values } if *parameter == id => {
                Some(values.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no list {id}"))
}

/// Three persistent and two non-persistent puts of 100 bytes, two gets, one failed get.
fn work(queue_manager: &Arc<QueueManager>) {
    let mut connection = connect(queue_manager);
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    for index in 0..5 {
        let mut md = with_persistence(persistence(index < 3));
        put_md(
            &mut connection,
            hobj,
            &mut md,
            MQPMO_NO_SYNCPOINT,
            &[7u8; 100],
        )
        .unwrap();
    }
    for _ in 0..5 {
        get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    }
    reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT));
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();
}

#[test]
fn statistics_mqi_messages_follow_statmqi() {
    let (_directory, queue_manager) = queue_manager(&["Q1"]);
    define_default_objects(&queue_manager).unwrap();
    let display = ok(&queue_manager, "DISPLAY QMGR STATMQI ACCTMQI");
    assert!(
        display.contains("STATMQI(OFF)") && display.contains("ACCTMQI(OFF)"),
        "{display}"
    );
    work(&queue_manager);
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    assert!(
        messages(&queue_manager, STATISTICS_QUEUE).is_empty(),
        "STATMQI(OFF)"
    );

    ok(&queue_manager, "ALTER QMGR STATMQI(ON)");
    assert!(ok(&queue_manager, "DISPLAY QMGR STATMQI").contains("STATMQI(ON)"));
    // The interval closed above ended after the first work: this one holds only this work.
    work(&queue_manager);
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let statistics = messages(&queue_manager, STATISTICS_QUEUE);
    assert_eq!(statistics.len(), 1);
    let message = &statistics[0];
    assert_eq!(message.header.kind, MQCFT_STATISTICS);
    assert_eq!(message.header.command, MQCMD_STATISTICS_MQI);
    assert_eq!(
        list(message, MQIAMO_PUTS),
        vec![2, 3],
        "[non-persistent, persistent]"
    );
    assert_eq!(list(message, MQIAMO64_PUT_BYTES), vec![200, 300]);
    assert_eq!(list(message, MQIAMO_GETS), vec![2, 3]);
    assert_eq!(list(message, MQIAMO64_GET_BYTES), vec![200, 300]);
    // The work's connection and the first look at the statistics queue (after the first
    // interval closed) each connected, opened once and ended with a get that found nothing.
    assert_eq!(integer(message, MQIAMO_GETS_FAILED), 2);
    assert_eq!(integer(message, MQIAMO_CONNS), 2);
    assert_eq!(integer(message, MQIAMO_OPENS), 2);
}

#[test]
fn accounting_mqi_messages_follow_acctmqi() {
    let (directory, queue_manager) = queue_manager(&["Q1"]);
    define_default_objects(&queue_manager).unwrap();
    work(&queue_manager);
    assert!(
        messages(&queue_manager, ACCOUNTING_QUEUE).is_empty(),
        "ACCTMQI(OFF)"
    );
    ok(&queue_manager, "ALTER QMGR ACCTMQI(ON)");
    work(&queue_manager);
    let accounting = messages(&queue_manager, ACCOUNTING_QUEUE);
    // The work's connection, and none yet for the reader itself (it ends after reading).
    assert_eq!(accounting.len(), 1);
    let message = &accounting[0];
    assert_eq!(message.header.kind, MQCFT_ACCOUNTING);
    assert_eq!(message.header.command, MQCMD_ACCOUNTING_MQI);
    assert_eq!(list(message, MQIAMO_PUTS), vec![2, 3]);
    assert_eq!(list(message, MQIAMO_GETS), vec![2, 3]);
    assert_eq!(integer(message, MQIAMO_CLOSES), 1);
    let text = std::fs::read_to_string(directory.path().join(ACCOUNTING_FILE)).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "the work's connection and the reader's");
    assert_eq!(records[0]["Record"], "ACCOUNTING_MQI");
    assert_eq!(records[0]["PersPuts"], 3);
    assert_eq!(records[0]["Get_Failed"], 1);
    // Class 1 accounting: each verb's calls (the times are sampled: present, maybe 0).
    for (verb, calls) in [
        ("MQOPEN", 1),
        ("MQPUT", 5),
        ("MQGET", 6),
        ("MQCLOSE", 1),
        ("MQPUT1", 0),
        ("MQCMIT", 0),
    ] {
        assert_eq!(records[0][format!("{verb}_Calls")], calls, "{verb}");
        assert!(records[0][format!("{verb}_CPU_us")].is_u64(), "{verb}");
        assert!(records[0][format!("{verb}_Elapsed_us")].is_u64(), "{verb}");
    }
    assert_eq!(
        records[1]["Get"],
        1 + 1,
        "the reader's get and its final failed one"
    );
}

fn groups(message: &PcfMessage) -> Vec<&Vec<Parameter>> {
    groups_of(message, MQGACF_Q_ACCOUNTING_DATA)
}

fn groups_of(message: &PcfMessage, id: i32) -> Vec<&Vec<Parameter>> {
    message
        .parameters
        .iter()
        .filter_map(|p| match p {
            Parameter::Group {
                parameter,
                parameters,
            } if *parameter == id => Some(parameters),
            _ => None,
        })
        .collect()
}

/// The statistics records of type `kind` in statistics.jsonl.
fn statistics_records(directory: &std::path::Path, kind: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(directory.join(STATISTICS_FILE)).unwrap_or_default();
    text.lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|record| record["Record"] == kind)
        .collect()
}

/// The one MQCMD_STATISTICS_Q message on the statistics queue, as its queues' groups.
fn statistics_q_groups(queue_manager: &Arc<QueueManager>) -> Vec<PcfMessage> {
    let statistics = messages(queue_manager, STATISTICS_QUEUE);
    let queue_messages: Vec<&PcfMessage> = statistics
        .iter()
        .filter(|message| message.header.command == MQCMD_STATISTICS_Q)
        .collect();
    assert_eq!(queue_messages.len(), 1, "one MQCMD_STATISTICS_Q message");
    let message = queue_messages[0];
    assert_eq!(message.header.kind, MQCFT_STATISTICS);
    let groups = groups_of(message, MQGACF_Q_STATISTICS_DATA);
    assert_eq!(integer(message, MQIAMO_OBJECT_COUNT), groups.len() as i32);
    groups
        .into_iter()
        .map(|parameters| PcfMessage {
            header: message.header.clone(),
            parameters: parameters.clone(),
        })
        .collect()
}

fn string(message: &PcfMessage, id: i32) -> String {
    message
        .parameters
        .iter()
        .find_map(|p| match p {
            Parameter::String { parameter, value } if *parameter == id => {
                Some(value.trim_end().to_string())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no MQCFST {id}"))
}

#[test]
fn queue_statistics_follow_statq() {
    let (directory, queue_manager) = queue_manager(&["Q1", "Q2"]);
    define_default_objects(&queue_manager).unwrap();
    // STATQ(QMGR) with the queue manager's STATQ(OFF): no queue statistics.
    work(&queue_manager);
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    assert!(messages(&queue_manager, STATISTICS_QUEUE).is_empty());
    assert!(statistics_records(directory.path(), "STATISTICS_Q").is_empty());

    // The queue's STATQ(ON): this interval's work, and only Q1's.
    ok(&queue_manager, "ALTER QLOCAL(Q1) STATQ(ON)");
    work(&queue_manager);
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let queues = statistics_q_groups(&queue_manager);
    assert_eq!(queues.len(), 1, "Q1 alone asked");
    let q1 = &queues[0];
    assert_eq!(string(q1, MQCA_Q_NAME), "Q1");
    assert_eq!(
        list(q1, MQIAMO_PUTS),
        vec![2, 3],
        "[non-persistent, persistent]"
    );
    assert_eq!(list(q1, MQIAMO_GETS), vec![2, 3]);
    assert_eq!(list(q1, MQIAMO64_GET_BYTES), vec![200, 300]);
    assert_eq!(integer(q1, MQIAMO_Q_MIN_DEPTH), 0);
    assert_eq!(integer(q1, MQIAMO_Q_MAX_DEPTH), 5);
    assert_eq!(list(q1, MQIAMO64_AVG_Q_TIME).len(), 2);
    let records = statistics_records(directory.path(), "STATISTICS_Q");
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["QName"], "Q1");
    assert_eq!(records[0]["PersPuts"], 3);
    assert_eq!(records[0]["NonPersGets"], 2);
    assert_eq!(records[0]["QMaxDepth"], 5);
    assert_eq!(list(q1, MQIAMO64_PUT_BYTES), vec![200, 300]);
    assert_eq!(integer(q1, MQIAMO_PUTS_FAILED), 0);
    assert_eq!(
        integer(q1, MQIAMO_GETS_FAILED),
        1,
        "the get that found nothing"
    );
    assert_eq!(records[0]["GetFailCount"], 1);
    assert_eq!(records[0]["PersPutBytes"], 300);

    // An interval's depth range starts from the depth it opens with: two messages left on
    // the queue, then one got in the next interval.
    let mut connection = connect(&queue_manager);
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    for _ in 0..2 {
        let mut md = with_persistence(persistence(false));
        put_md(&mut connection, hobj, &mut md, MQPMO_NO_SYNCPOINT, b"x").unwrap();
    }
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let q1 = &statistics_q_groups(&queue_manager)[0];
    assert_eq!(list(q1, MQIAMO_PUTS), vec![2, 0]);
    assert_eq!(list(q1, MQIAMO_GETS), vec![0, 0]);
    assert_eq!(
        (
            integer(q1, MQIAMO_Q_MIN_DEPTH),
            integer(q1, MQIAMO_Q_MAX_DEPTH)
        ),
        (0, 2)
    );
    get(&mut connection, hobj, MQGMO_NO_SYNCPOINT).unwrap();
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let q1 = &statistics_q_groups(&queue_manager)[0];
    assert_eq!(list(q1, MQIAMO_GETS), vec![1, 0]);
    assert_eq!(list(q1, MQIAMO64_GET_BYTES), vec![1, 0]);
    assert_eq!(
        (
            integer(q1, MQIAMO_Q_MIN_DEPTH),
            integer(q1, MQIAMO_Q_MAX_DEPTH)
        ),
        (1, 2)
    );
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();

    // The queue manager's STATQ(ON) adds the queues left at QMGR (Q2, among others); its
    // STATQ(NONE) turns statistics off whatever the queue says.
    ok(&queue_manager, "ALTER QMGR STATQ(ON)");
    ok(&queue_manager, "ALTER QLOCAL(Q1) STATQ(OFF)");
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let names: Vec<String> = statistics_q_groups(&queue_manager)
        .iter()
        .map(|queue| string(queue, MQCA_Q_NAME))
        .collect();
    assert!(names.contains(&"Q2".to_string()), "{names:?}");
    assert!(!names.contains(&"Q1".to_string()), "{names:?}");
    ok(&queue_manager, "ALTER QMGR STATQ(NONE)");
    ok(&queue_manager, "ALTER QLOCAL(Q1) STATQ(ON)");
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    assert!(messages(&queue_manager, STATISTICS_QUEUE).is_empty());
}

#[test]
fn queue_accounting_follows_acctq() {
    let (directory, queue_manager) = queue_manager(&["Q1"]);
    define_default_objects(&queue_manager).unwrap();
    // ACCTQ(QMGR) with the queue manager's ACCTQ(OFF): nothing.
    work(&queue_manager);
    assert!(messages(&queue_manager, ACCOUNTING_QUEUE).is_empty());
    // The queue's ACCTQ(ON).
    ok(&queue_manager, "ALTER QLOCAL(Q1) ACCTQ(ON)");
    work(&queue_manager);
    let accounting = messages(&queue_manager, ACCOUNTING_QUEUE);
    assert_eq!(accounting.len(), 1);
    let message = &accounting[0];
    assert_eq!(message.header.command, MQCMD_ACCOUNTING_Q);
    assert_eq!(integer(message, MQIAMO_OBJECT_COUNT), 1);
    let queues = groups(message);
    assert_eq!(queues.len(), 1);
    let queue = PcfMessage {
        header: message.header.clone(),
        parameters: queues[0].clone(),
    };
    assert_eq!(list(&queue, MQIAMO_PUTS), vec![2, 3]);
    assert_eq!(list(&queue, MQIAMO64_PUT_BYTES), vec![200, 300]);
    assert_eq!(list(&queue, MQIAMO_GETS), vec![2, 3]);
    assert_eq!(integer(&queue, MQIAMO_GETS_FAILED), 1);
    assert_eq!(integer(&queue, MQIAMO_OPENS), 1);
    let text = std::fs::read_to_string(directory.path().join(ACCOUNTING_FILE)).unwrap();
    let record: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(record["Record"], "ACCOUNTING_Q");
    assert_eq!(record["Queue"], "Q1");
    assert_eq!(
        record["Get_Next"], 6,
        "five gets and the failed one, none by identifier"
    );
    assert_eq!(record["Get_Specific"], 0);
    assert_eq!(record["PersPuts"], 3);
    assert!(
        record["Put_Max_Elapsed_us"].as_u64().unwrap()
            <= record["Put_Elapsed_us"].as_u64().unwrap()
    );
    // The queue manager's ACCTQ(NONE) turns it off whatever the queue says.
    ok(&queue_manager, "ALTER QMGR ACCTQ(NONE)");
    work(&queue_manager);
    assert!(messages(&queue_manager, ACCOUNTING_QUEUE).is_empty());
}

#[test]
fn queue_statistics_count_browses_failed_calls_and_purges() {
    let (directory, queue_manager) = queue_manager(&["Q1"]);
    define_default_objects(&queue_manager).unwrap();
    ok(&queue_manager, "ALTER QLOCAL(Q1) STATQ(ON)");
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    messages(&queue_manager, STATISTICS_QUEUE);
    // Three non-persistent messages of 10 bytes, browsed through and one browse past the
    // end; a put while PUT(DISABLED); then CLEAR QLOCAL removes the three.
    let mut connection = connect(&queue_manager);
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_BROWSE)
        .unwrap();
    for _ in 0..3 {
        let mut md = with_persistence(persistence(false));
        put_md(
            &mut connection,
            hobj,
            &mut md,
            MQPMO_NO_SYNCPOINT,
            &[1u8; 10],
        )
        .unwrap();
    }
    get(&mut connection, hobj, MQGMO_BROWSE_FIRST).unwrap();
    for _ in 0..2 {
        get(&mut connection, hobj, MQGMO_BROWSE_NEXT).unwrap();
    }
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_BROWSE_NEXT)),
        ferrite_constants::reason::MQRC_NO_MSG_AVAILABLE
    );
    ok(&queue_manager, "ALTER QLOCAL(Q1) PUT(DISABLED)");
    let mut md = with_persistence(persistence(false));
    reason(put_md(
        &mut connection,
        hobj,
        &mut md,
        MQPMO_NO_SYNCPOINT,
        b"refused",
    ));
    ok(&queue_manager, "ALTER QLOCAL(Q1) PUT(ENABLED)");
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();
    ok(&queue_manager, "CLEAR QLOCAL(Q1)");
    ok(&queue_manager, "RESET QMGR TYPE(STATISTICS)");
    let q1 = &statistics_q_groups(&queue_manager)[0];
    assert_eq!(list(q1, MQIAMO_PUTS), vec![3, 0]);
    assert_eq!(list(q1, MQIAMO64_PUT_BYTES), vec![30, 0]);
    assert_eq!(integer(q1, MQIAMO_PUTS_FAILED), 1);
    assert_eq!(list(q1, MQIAMO_BROWSES), vec![3, 0]);
    assert_eq!(list(q1, MQIAMO64_BROWSE_BYTES), vec![30, 0]);
    assert_eq!(integer(q1, MQIAMO_BROWSES_FAILED), 1);
    assert_eq!(list(q1, MQIAMO_GETS), vec![0, 0]);
    assert_eq!(integer(q1, MQIAMO_GETS_FAILED), 0);
    assert_eq!(integer(q1, MQIAMO_MSGS_PURGED), 3);
    let records = statistics_records(directory.path(), "STATISTICS_Q");
    let last = records.last().unwrap();
    assert_eq!(last["PurgeCount"], 3);
    assert_eq!(last["NonPersBrowses"], 3);
    assert_eq!(last["BrowseFailCount"], 1);
    assert_eq!(last["PutFailCount"], 1);
}
