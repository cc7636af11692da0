//! Statistics records against known work: the message manager's counts (N puts give N), the
//! buffer pool's and the log's counters moving with the work, and the records as written to
//! the statistics file (JSON lines) decoded back.

use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::*;
use ferrite_queue_manager::statistics::{MqiCounter, STATISTICS_FILE};
use ferrite_test_kit::*;
use serde_json::Value;

const MESSAGES: usize = 25;
const MESSAGE_BYTES: usize = 1000;

/// The records of the statistics file, in order.
fn written_records(directory: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(directory.join(STATISTICS_FILE)).unwrap();
    text.lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect()
}

fn record<'a>(records: &'a [Value], kind: &str) -> &'a Value {
    records
        .iter()
        .find(|record| record["Record"] == kind)
        .unwrap_or_else(|| panic!("no {kind} record"))
}

#[test]
fn n_puts_and_gets_are_counted_and_written() {
    let (directory, queue_manager) = queue_manager(&["Q1"]);
    // The work before this interval (defining the queue) is in the first interval.
    queue_manager.close_statistics_interval().unwrap();
    let before = queue_manager.statistics_snapshot();

    let mut connection = connect(&queue_manager);
    let hobj = connection
        .open(
            &mut Mqod::queue("Q1"),
            MQOO_OUTPUT | MQOO_INPUT_SHARED | MQOO_BROWSE,
        )
        .unwrap();
    let data = vec![b'x'; MESSAGE_BYTES];
    for index in 0..MESSAGES {
        let mut md = with_persistence(persistence(index % 5 != 0));
        put_md(&mut connection, hobj, &mut md, MQPMO_SYNCPOINT, &data).unwrap();
    }
    connection.commit().unwrap();
    get(
        &mut connection,
        hobj,
        MQGMO_BROWSE_FIRST | MQGMO_NO_SYNCPOINT,
    )
    .unwrap();
    for _ in 0..MESSAGES {
        get(&mut connection, hobj, MQGMO_SYNCPOINT).unwrap();
    }
    assert_eq!(
        reason(get(&mut connection, hobj, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    connection.commit().unwrap();
    connection.close(hobj, 0).unwrap();
    connection.disconnect().unwrap();

    let records = queue_manager.close_statistics_interval().unwrap();
    let mqi = records.message_manager;
    let persistent = MESSAGES - MESSAGES.div_ceil(5);
    let expected = [
        (MqiCounter::Conn, 1),
        (MqiCounter::Disc, 1),
        (MqiCounter::Open, 1),
        (MqiCounter::Close, 1),
        (MqiCounter::Put, MESSAGES),
        (MqiCounter::PutFailed, 0),
        (MqiCounter::PersistentPuts, persistent),
        (MqiCounter::NonPersistentPuts, MESSAGES - persistent),
        (MqiCounter::PersistentPutBytes, persistent * MESSAGE_BYTES),
        (
            MqiCounter::NonPersistentPutBytes,
            (MESSAGES - persistent) * MESSAGE_BYTES,
        ),
        (MqiCounter::Get, MESSAGES + 2),
        (MqiCounter::GetFailed, 1),
        (MqiCounter::Browse, 1),
        (MqiCounter::GetNext, MESSAGES + 2),
        (MqiCounter::GetSpecific, 0),
        (MqiCounter::PersistentGetBytes, persistent * MESSAGE_BYTES),
        (
            MqiCounter::NonPersistentGetBytes,
            (MESSAGES - persistent) * MESSAGE_BYTES,
        ),
        (MqiCounter::NonPersistentBrowseBytes, MESSAGE_BYTES),
        (MqiCounter::PersistentBrowseBytes, 0),
        (MqiCounter::PersistentGets, persistent),
        (MqiCounter::NonPersistentGets, MESSAGES - persistent),
        (MqiCounter::NonPersistentBrowses, 1),
        (MqiCounter::PersistentBrowses, 0),
        (MqiCounter::Commit, 2),
    ];
    for (counter, count) in expected {
        assert_eq!(mqi.get(counter), count as u64, "{counter:?}");
    }

    // The engine's counters moved with the work, and the interval is their difference.
    let after = queue_manager.statistics_snapshot();
    let log = after.log.since(&before.log);
    assert_eq!(records.log.qjstbffl, log.qjstbffl);
    assert!(log.qjstbffl > 0, "persistent puts filled log pages");
    assert!(log.qjstwrf >= 2, "two commits forced the log");
    // Q1 is on page set 1: its pool's pages were updated.
    let pool_number = records
        .page_sets
        .iter()
        .find(|page_set| page_set.page_set == 1)
        .unwrap()
        .buffer_pool;
    let pool = &records
        .buffer_pools
        .iter()
        .find(|(number, _)| *number == pool_number)
        .unwrap()
        .1;
    assert!(pool.qpststw > 0, "pages were updated");

    // The file holds both intervals, each record whole.
    let written = written_records(directory.path());
    let last_interval: Vec<Value> = written
        .iter()
        .filter(|record| record["Interval_End_ms"] == records.end_ms)
        .cloned()
        .collect();
    let qmst = record(&last_interval, "QMST");
    assert_eq!(qmst["Put"], MESSAGES as u64);
    assert_eq!(qmst["PersPuts"], persistent as u64);
    assert_eq!(qmst["Get"], (MESSAGES + 2) as u64);
    assert_eq!(qmst["QMgr"], "QM1");
    let qjst = record(&last_interval, "QJST");
    assert_eq!(qjst["Active_Log_CI"], records.log.qjstbffl);
    let qpst = last_interval
        .iter()
        .find(|r| r["Record"] == "QPST" && r["POOL"] == pool_number)
        .unwrap();
    assert_eq!(qpst["STW"], pool.qpststw);
    assert_eq!(qpst["NBUF"], pool.qpstnbuf);
    assert!(last_interval.iter().any(|r| r["Record"] == "QIS1"));
    let first_end = written[0]["Interval_End_ms"].as_u64().unwrap();
    assert_eq!(
        qmst["Interval_Start_ms"].as_u64().unwrap(),
        first_end,
        "intervals follow each other without a gap"
    );
}

#[test]
fn put1_and_inquire_count_as_themselves() {
    let (_directory, queue_manager) = queue_manager(&["Q1"]);
    let opened = queue_manager.statistics_snapshot().message_manager;
    let mut connection = connect(&queue_manager);
    let mut od = Mqod::queue("Q1");
    let mut md = Mqmd::default();
    connection
        .put1(
            &mut od,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"one",
        )
        .unwrap();
    let mut missing = Mqod::queue("NO.SUCH.QUEUE");
    assert_eq!(
        reason(connection.put1(
            &mut missing,
            &mut Mqmd::default(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"x"
        )),
        MQRC_UNKNOWN_OBJECT_NAME
    );
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_INQUIRE | MQOO_INPUT_SHARED)
        .unwrap();
    connection.inquire(hobj, &[]).unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
    gmo.match_options = ferrite_constants::match_options::MQMO_MATCH_MSG_ID;
    let mut specific = Mqmd {
        msg_id: md.msg_id,
        ..Mqmd::default()
    };
    connection
        .get(hobj, &mut specific, &mut gmo, &mut [0u8; 16])
        .unwrap();
    let counted = queue_manager
        .statistics_snapshot()
        .message_manager
        .since(&opened);
    assert_eq!(counted.get(MqiCounter::Put1), 2);
    assert_eq!(counted.get(MqiCounter::Put1Failed), 1);
    assert_eq!(
        counted.get(MqiCounter::Open),
        1,
        "MQPUT1's own open is not an MQOPEN"
    );
    assert_eq!(counted.get(MqiCounter::Close), 0);
    assert_eq!(counted.get(MqiCounter::Put), 0);
    assert_eq!(counted.get(MqiCounter::NonPersistentPuts), 1);
    assert_eq!(counted.get(MqiCounter::Put1NonPersistent), 1);
    assert_eq!(counted.get(MqiCounter::Put1Persistent), 0);
    assert_eq!(counted.get(MqiCounter::Inq), 1);
    assert_eq!(counted.get(MqiCounter::GetSpecific), 1);
    assert_eq!(counted.get(MqiCounter::GetNext), 0);
}
