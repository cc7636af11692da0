//! MQPUT and MQGET borrow their handle's queue for the call (no reference count change per
//! call) and give it back on every path: a call that fails, at any check, or panics, leaves
//! the handle usable, and closing it leaves no reference to the queue behind (which shows
//! nothing leaks, not that the queue was lent rather than cloned). A handle whose queue is
//! gone lends nothing, and its checks fail in MQ's order.

use std::sync::Arc;

use ferrite_constants::{
    close_options::MQCO_NONE, get_options::*, match_options::*, open_options::*, put_options::*,
    reason::*, selector::*,
};
use ferrite_mqi::*;
use ferrite_test_kit::*;

fn put(c: &mut Connection, hobj: Hobj, md: &mut Mqmd, options: i32) -> MqResult<()> {
    put_md(c, hobj, md, options, b"data").map(|_| ())
}

fn get(c: &mut Connection, hobj: Hobj, options: i32) -> MqResult<Vec<u8>> {
    get_sized(c, hobj, options, 64).map(|(_, data)| data)
}

/// MQGET with MQGMO_UNLOCK: its warning's reason, or its failure's.
fn unlock(c: &mut Connection, hobj: Hobj) -> Result<Option<i32>, i32> {
    c.get(
        hobj,
        &mut Mqmd::default(),
        &mut Mqgmo::with_options(MQGMO_UNLOCK),
        &mut [],
    )
    .map(|result| result.warning.map(|warning| warning.reason))
    .map_err(|error| error.reason)
}

fn depth(c: &mut Connection, hobj: Hobj) -> AttributeValue {
    c.inquire(hobj, &[MQIA_CURRENT_Q_DEPTH]).unwrap().values[0].clone()
}

#[test]
fn every_failed_put_and_get_gives_the_queue_back_to_its_handle() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let queue = qm.queue("Q1").unwrap();
    let references_before = Arc::strong_count(&queue);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c
        .open(
            &mut Mqod::queue("Q1"),
            MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_INQUIRE,
        )
        .unwrap();
    // Failures at several points of MQPUT: its options, the descriptor, then a put.
    let bad_options = put(
        &mut c,
        h,
        &mut Mqmd::default(),
        MQPMO_SYNCPOINT | MQPMO_NO_SYNCPOINT,
    );
    assert_eq!(reason(bad_options), MQRC_OPTIONS_ERROR);
    let mut bad_priority = Mqmd {
        priority: -2,
        ..Mqmd::default()
    };
    assert_eq!(
        reason(put(&mut c, h, &mut bad_priority, MQPMO_NO_SYNCPOINT)),
        MQRC_PRIORITY_ERROR
    );
    put(&mut c, h, &mut Mqmd::default(), MQPMO_NO_SYNCPOINT).unwrap();
    // The handle still names its queue (MQINQ reads it).
    assert_eq!(depth(&mut c, h), AttributeValue::Integer(1));
    // Failures of MQGET: bad options, nothing to unlock, then no message.
    assert_eq!(
        reason(get(&mut c, h, MQGMO_BROWSE_FIRST | MQGMO_SYNCPOINT)),
        MQRC_OPTIONS_ERROR
    );
    assert_eq!(
        unlock(&mut c, h),
        Ok(Some(MQRC_NO_MSG_LOCKED)),
        "MQGMO_UNLOCK (its own early return) with no message locked"
    );
    assert_eq!(get(&mut c, h, MQGMO_NO_SYNCPOINT).unwrap(), b"data");
    assert_eq!(
        reason(get(&mut c, h, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(depth(&mut c, h), AttributeValue::Integer(0));
    put(&mut c, h, &mut Mqmd::default(), MQPMO_SYNCPOINT).unwrap();
    c.commit().unwrap();
    assert_eq!(get(&mut c, h, MQGMO_SYNCPOINT).unwrap(), b"data");
    c.commit().unwrap();
    c.close(h, MQCO_NONE).unwrap();
    // (The unit of work keeps one reference for its next put or get until the end.)
    c.disconnect().unwrap();
    assert_eq!(
        Arc::strong_count(&queue),
        references_before,
        "no reference to the queue is left behind"
    );
}

#[test]
fn a_handle_without_a_live_queue_lends_nothing_and_fails_in_order() {
    let (_dir, qm) = queue_manager(&["Q1", "Q2"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let output_only = c.open(&mut Mqod::queue("Q2"), MQOO_OUTPUT).unwrap();
    qm.delete_queue("Q2", true).unwrap();
    // Not open for input: that check comes before the queue's own (MQRC_Q_DELETED).
    assert_eq!(
        reason(get(&mut c, output_only, MQGMO_NO_SYNCPOINT)),
        MQRC_NOT_OPEN_FOR_INPUT
    );
    assert_eq!(
        unlock(&mut c, output_only),
        Err(MQRC_Q_DELETED),
        "MQGMO_UNLOCK on a handle whose queue is gone"
    );
    assert_eq!(
        reason(put(
            &mut c,
            output_only,
            &mut Mqmd::default(),
            MQPMO_NO_SYNCPOINT
        )),
        MQRC_Q_DELETED
    );
    assert_eq!(
        reason(put(
            &mut c,
            Hobj(12345),
            &mut Mqmd::default(),
            MQPMO_NO_SYNCPOINT
        )),
        MQRC_HOBJ_ERROR
    );
    c.close(output_only, MQCO_NONE).unwrap();
    let h = c
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED | MQOO_OUTPUT)
        .unwrap();
    put(&mut c, h, &mut Mqmd::default(), MQPMO_NO_SYNCPOINT).unwrap();
    assert_eq!(get(&mut c, h, MQGMO_NO_SYNCPOINT).unwrap(), b"data");
    c.disconnect().unwrap();
}

/// A panic inside MQGET (an engine assertion, met here by a message planted back as
/// persistent though it is held in memory) still gives the handle its queue back: the handle
/// answers MQINQ, and the end of the connection closes it, releasing its exclusive input
/// open (IPPROCS) and the message it locked.
#[test]
fn a_panic_inside_mqget_gives_the_queue_back_and_the_connection_end_closes_the_handle() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let queue = qm.queue("Q1").unwrap();
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c
        .open(
            &mut Mqod::queue("Q1"),
            MQOO_INPUT_EXCLUSIVE | MQOO_OUTPUT | MQOO_BROWSE | MQOO_INQUIRE,
        )
        .unwrap();
    // The poison: priority 9, so a get meets it first.
    let mut poison_md = Mqmd {
        priority: 9,
        ..Mqmd::default()
    };
    put(&mut c, h, &mut poison_md, MQPMO_NO_SYNCPOINT).unwrap();
    let mut poison = queue.drain().pop().expect("the message just put");
    assert!(poison.in_memory());
    poison.persistent = true;
    queue.insert(poison, false, 0);
    // A message the handle locks.
    let mut locked_md = Mqmd::default();
    put(&mut c, h, &mut locked_md, MQPMO_NO_SYNCPOINT).unwrap();
    let mut browse = Mqgmo::with_options(MQGMO_BROWSE_FIRST | MQGMO_LOCK);
    browse.match_options = MQMO_MATCH_MSG_ID;
    let mut browse_md = Mqmd {
        msg_id: locked_md.msg_id,
        ..Mqmd::default()
    };
    c.get(h, &mut browse_md, &mut browse, &mut [0u8; 64])
        .unwrap();

    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        get(&mut c, h, MQGMO_SYNCPOINT)
    }));
    assert!(panicked.is_err(), "the planted message stops the get");
    assert_eq!(
        depth(&mut c, h),
        AttributeValue::Integer(1),
        "the handle names its queue again"
    );
    assert_eq!(queue.status().open_input_count, 1);
    // The connection's thread would unwind and drop it: an abnormal end.
    drop(c);
    assert_eq!(
        (
            queue.status().open_input_count,
            queue.status().open_output_count
        ),
        (0, 0),
        "IPPROCS and OPPROCS released"
    );
    let mut other = Connection::connect(qm.clone(), "").unwrap();
    let exclusive = other
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_EXCLUSIVE)
        .expect("the exclusive input open was released");
    assert_eq!(
        get(&mut other, exclusive, MQGMO_NO_SYNCPOINT).unwrap(),
        b"data",
        "the lock was released"
    );
    other.disconnect().unwrap();
}
