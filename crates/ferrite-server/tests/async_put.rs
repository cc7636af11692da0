//! Asynchronous put and MQSTAT: through a SVRCONN channel with Ferrite's Rust client (puts
//! sent without waiting, MsgIds from a reserved range, outcomes counted by the queue manager
//! and returned and reset by MQSTAT), and in-process on `ferrite_mqi::Connection`.

mod support;

use ferrite_client::Connection;
use ferrite_constants::{
    completion::*, get_options::*, open_options::*, put_options::*, reason::*, selector::*,
    shareability::*, status::*,
};
use ferrite_mqi::{AttributeValue, Hobj, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_server::ServerConfig;

use support::{listen, Listener};

const QUEUE: &str = "FERRITE.ASYNC.Q";

fn start() -> Listener {
    listen(support::start_with(&[QUEUE], ServerConfig::default()))
}

fn connect(listener: &Listener) -> Connection {
    listener.connect_app()
}

fn put_async(connection: &mut Connection, hobj: Hobj, data: &[u8]) -> [u8; 24] {
    let mut md = Mqmd::default();
    let mut pmo = Mqpmo::with_options(MQPMO_ASYNC_RESPONSE | MQPMO_NO_SYNCPOINT);
    let outcome = connection.put(hobj, &mut md, &mut pmo, data).unwrap();
    assert_eq!(outcome, None, "an asynchronous put completes at once");
    md.msg_id
}

fn depth(listener: &Listener) -> u64 {
    listener
        .fixture
        .queue_manager
        .queue(QUEUE)
        .unwrap()
        .status()
        .current_depth
}

#[test]
fn rust_client_asynchronous_puts_are_counted_and_mqstat_resets_the_counts() {
    let listener = start();
    let mut connection = connect(&listener);
    let hobj = connection
        .open(
            &mut Mqod::queue(QUEUE),
            MQOO_OUTPUT | MQOO_INPUT_SHARED | MQOO_SET,
        )
        .unwrap();
    let status = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!(
        (status.comp_code, status.put_success_count),
        (MQCC_OK, 0),
        "nothing yet"
    );

    let ids: Vec<[u8; 24]> = (0..5)
        .map(|n| put_async(&mut connection, hobj, format!("message {n}").as_bytes()))
        .collect();
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 5, "each put has its own MsgId: {ids:?}");

    let status = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!(
        (
            status.comp_code,
            status.reason,
            status.put_success_count,
            status.put_warning_count,
            status.put_failure_count
        ),
        (MQCC_OK, MQRC_NONE, 5, 0, 0)
    );
    assert_eq!(depth(&listener), 5, "the puts were made");
    let again = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!(again.put_success_count, 0, "MQSTAT reset the counts");

    // The messages carry the MsgIds the client stamped, in order.
    for (n, id) in ids.iter().enumerate() {
        let mut md = Mqmd::default();
        let mut buffer = [0u8; 64];
        let got = connection
            .get(
                hobj,
                &mut md,
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                &mut buffer,
            )
            .unwrap();
        assert_eq!(
            &buffer[..got.data_length],
            format!("message {n}").as_bytes()
        );
        assert_eq!(&md.msg_id, id);
    }

    // PUT(DISABLED) after the open: the asynchronous puts fail, and only MQSTAT says so.
    connection
        .set(
            hobj,
            &[(
                MQIA_INHIBIT_PUT,
                AttributeValue::Integer(MQQA_PUT_INHIBITED),
            )],
        )
        .unwrap();
    put_async(&mut connection, hobj, b"refused");
    put_async(&mut connection, hobj, b"refused too");
    let mut od = Mqod::queue(QUEUE);
    let mut md = Mqmd::default();
    let mut pmo = Mqpmo::with_options(MQPMO_ASYNC_RESPONSE | MQPMO_NO_SYNCPOINT);
    assert_eq!(
        connection.put1(&mut od, &mut md, &mut pmo, b"refused by MQPUT1"),
        Ok(None)
    );
    let status = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!(
        (
            status.comp_code,
            status.reason,
            status.put_success_count,
            status.put_failure_count
        ),
        (MQCC_FAILED, MQRC_PUT_INHIBITED, 0, 3)
    );
    assert_eq!(status.object_name, QUEUE);
    assert_eq!(status.resolved_object_name, QUEUE);
    assert_eq!(status.resolved_q_mgr_name, "QM1");
    assert_eq!(depth(&listener), 0);
    let cleared = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!(
        (cleared.comp_code, cleared.reason, cleared.put_failure_count),
        (MQCC_OK, MQRC_NONE, 0)
    );

    // A synchronous put still gets its reply, and is not counted.
    connection
        .set(
            hobj,
            &[(MQIA_INHIBIT_PUT, AttributeValue::Integer(MQQA_PUT_ALLOWED))],
        )
        .unwrap();
    let mut md = Mqmd::default();
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_SYNC_RESPONSE),
            b"sync",
        )
        .unwrap();
    assert_eq!(
        connection
            .stat(MQSTAT_TYPE_ASYNC_ERROR)
            .unwrap()
            .put_success_count,
        0
    );
    assert_eq!(
        connection.stat(99).unwrap_err().reason,
        MQRC_STAT_TYPE_ERROR
    );
    connection.disconnect().unwrap();
}

#[test]
fn asynchronous_puts_in_a_unit_of_work_commit_with_it() {
    let listener = start();
    let mut connection = connect(&listener);
    let hobj = connection
        .open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT)
        .unwrap();
    for n in 0..3 {
        let mut md = Mqmd::default();
        let mut pmo = Mqpmo::with_options(MQPMO_ASYNC_RESPONSE | MQPMO_SYNCPOINT);
        connection
            .put(hobj, &mut md, &mut pmo, format!("{n}").as_bytes())
            .unwrap();
    }
    // MQCMIT's reply comes after the puts were served: the conversation keeps its order.
    connection.commit().unwrap();
    assert_eq!(depth(&listener), 3);
    assert_eq!(
        connection
            .stat(MQSTAT_TYPE_ASYNC_ERROR)
            .unwrap()
            .put_success_count,
        3
    );
    connection.disconnect().unwrap();
}

#[test]
fn in_process_asynchronous_puts_are_counted_too() {
    let fixture = support::start(&[QUEUE]);
    let mut connection =
        ferrite_mqi::Connection::connect(fixture.queue_manager.clone(), "QM1").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT | MQOO_SET)
        .unwrap();
    let mut pmo = Mqpmo::with_options(MQPMO_ASYNC_RESPONSE | MQPMO_NO_SYNCPOINT);
    connection
        .put(hobj, &mut Mqmd::default(), &mut pmo, b"one")
        .unwrap();
    let mut high = Mqmd {
        priority: 12,
        ..Mqmd::default()
    };
    let warning = connection.put(hobj, &mut high, &mut pmo, b"two").unwrap();
    assert_eq!(warning.unwrap().reason, MQRC_PRIORITY_EXCEEDS_MAXIMUM);
    connection
        .set(
            hobj,
            &[(
                MQIA_INHIBIT_PUT,
                AttributeValue::Integer(MQQA_PUT_INHIBITED),
            )],
        )
        .unwrap();
    let refused = connection.put(hobj, &mut Mqmd::default(), &mut pmo, b"three");
    assert_eq!(refused.unwrap_err().reason, MQRC_PUT_INHIBITED);
    // A synchronous put is not counted.
    let _ = connection.put(
        hobj,
        &mut Mqmd::default(),
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"four",
    );
    let status = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!(
        (
            status.put_success_count,
            status.put_warning_count,
            status.put_failure_count
        ),
        (1, 1, 1)
    );
    assert_eq!(
        (status.comp_code, status.reason),
        (MQCC_FAILED, MQRC_PUT_INHIBITED),
        "the failure, not the earlier warning"
    );
    assert_eq!(
        connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap(),
        ferrite_mqi::Mqsts::default()
    );
    connection.disconnect().unwrap();
}

#[test]
fn defpresp_async_makes_response_as_q_def_asynchronous_in_process_and_by_the_client() {
    let fixture = support::start(&[QUEUE]);
    let mut definition = ferrite_queue_manager::QueueDefinition::local(
        "FERRITE.ASYNC.DEF",
        ferrite_storage::PageSetId(1),
    );
    definition.default_put_response = "ASYNC".into();
    fixture
        .queue_manager
        .define_queue(definition, false)
        .unwrap();
    let mut connection =
        ferrite_mqi::Connection::connect(fixture.queue_manager.clone(), "QM1").unwrap();
    let as_q_def = || Mqpmo::with_options(MQPMO_RESPONSE_AS_Q_DEF | MQPMO_NO_SYNCPOINT);
    let hobj = connection
        .open(&mut Mqod::queue("FERRITE.ASYNC.DEF"), MQOO_OUTPUT)
        .unwrap();
    connection
        .put(
            hobj,
            &mut Mqmd::default(),
            &mut as_q_def(),
            b"async by DEFPRESP",
        )
        .unwrap();
    connection
        .put1(
            &mut Mqod::queue("FERRITE.ASYNC.DEF"),
            &mut Mqmd::default(),
            &mut as_q_def(),
            b"async by DEFPRESP, MQPUT1",
        )
        .unwrap();
    let sync_queue = connection
        .open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT)
        .unwrap();
    connection
        .put(
            sync_queue,
            &mut Mqmd::default(),
            &mut as_q_def(),
            b"sync by DEFPRESP",
        )
        .unwrap();
    let mut explicit = Mqpmo::with_options(MQPMO_SYNC_RESPONSE | MQPMO_NO_SYNCPOINT);
    connection
        .put(hobj, &mut Mqmd::default(), &mut explicit, b"sync by option")
        .unwrap();
    assert_eq!(
        connection
            .stat(MQSTAT_TYPE_ASYNC_ERROR)
            .unwrap()
            .put_success_count,
        2,
        "the two puts DEFPRESP(ASYNC) made asynchronous"
    );
    connection.disconnect().unwrap();

    // Through a channel the Rust client resolves MQPMO_RESPONSE_AS_Q_DEF itself with the
    // DEFPRESP its SPI OPEN learnt, as IBM's clients do: asynchronous on FERRITE.ASYNC.DEF
    // (no reply, counted by MQSTAT, its MsgId stamped from a reserved range), synchronous on
    // a DEFPRESP(SYNC) queue, with MQPMO_SYNC_RESPONSE, and for MQPUT1 (no handle to learn
    // it from).
    let listener = listen(fixture);
    let mut client = connect(&listener);
    let hobj = client
        .open(&mut Mqod::queue("FERRITE.ASYNC.DEF"), MQOO_OUTPUT)
        .unwrap();
    let mut md = Mqmd::default();
    client
        .put(hobj, &mut md, &mut as_q_def(), b"async by DEFPRESP")
        .unwrap();
    assert_ne!(md.msg_id, [0u8; 24], "a MsgId from the reserved range");
    let sync_queue = client.open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT).unwrap();
    client
        .put(sync_queue, &mut Mqmd::default(), &mut as_q_def(), b"sync")
        .unwrap();
    let mut explicit = Mqpmo::with_options(MQPMO_SYNC_RESPONSE | MQPMO_NO_SYNCPOINT);
    client
        .put(hobj, &mut Mqmd::default(), &mut explicit, b"sync by option")
        .unwrap();
    client
        .put1(
            &mut Mqod::queue("FERRITE.ASYNC.DEF"),
            &mut Mqmd::default(),
            &mut as_q_def(),
            b"sync, MQPUT1",
        )
        .unwrap();
    assert_eq!(
        client
            .stat(MQSTAT_TYPE_ASYNC_ERROR)
            .unwrap()
            .put_success_count,
        1,
        "only the put DEFPRESP(ASYNC) made asynchronous"
    );
    // Closed and opened again, the handle learns DEFPRESP again.
    client.close(hobj, 0).unwrap();
    let hobj = client
        .open(&mut Mqod::queue("FERRITE.ASYNC.DEF"), MQOO_OUTPUT)
        .unwrap();
    client
        .put(hobj, &mut Mqmd::default(), &mut as_q_def(), b"async again")
        .unwrap();
    assert_eq!(
        client
            .stat(MQSTAT_TYPE_ASYNC_ERROR)
            .unwrap()
            .put_success_count,
        1
    );
    let depth = listener
        .fixture
        .queue_manager
        .queue("FERRITE.ASYNC.DEF")
        .unwrap()
        .status()
        .current_depth;
    // In process: the two asynchronous puts and the synchronous one; by the client: four.
    assert_eq!(depth, 3 + 4, "every put arrived");
    client.disconnect().unwrap();
}

#[test]
fn asynchronous_puts_over_the_bindings_socket() {
    let fixture = support::start(&[QUEUE]);
    let mut connection = Connection::connect(&fixture.socket, "QM1").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(QUEUE), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    let first = put_async(&mut connection, hobj, b"one");
    let second = put_async(&mut connection, hobj, b"two");
    assert_ne!(first, second);
    let status = connection.stat(MQSTAT_TYPE_ASYNC_ERROR).unwrap();
    assert_eq!((status.put_success_count, status.put_failure_count), (2, 0));
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 8];
    connection
        .get(
            hobj,
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    assert_eq!(md.msg_id, first);
    connection.disconnect().unwrap();
}
