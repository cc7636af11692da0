//! MQGMO_MARK_SKIP_BACKOUT: a marked message survives MQBACK, got in a new unit of work.

use std::sync::Arc;

use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::*;
use ferrite_queue_manager::QueueManager;
use ferrite_test_kit::*;

const OPTIONS: i32 = MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE;

fn put(c: &mut Connection, hobj: Hobj, data: &[u8], persistent: bool, options: i32) {
    let md = &mut with_persistence(persistence(persistent));
    put_md(c, hobj, md, options, data).unwrap();
}

fn get(c: &mut Connection, hobj: Hobj, options: i32) -> MqResult<(Vec<u8>, i32)> {
    get_sized(c, hobj, options, 1024).map(|(md, data)| (data, md.backout_count))
}

fn depth(qm: &Arc<QueueManager>) -> u64 {
    qm.queue("Q1").unwrap().depth()
}

fn marked_then_backed_out(persistent: bool) {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut c, h, b"marked", persistent, MQPMO_NO_SYNCPOINT);
    put(&mut c, h, b"other", persistent, MQPMO_NO_SYNCPOINT);
    assert_eq!(
        get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT).unwrap(),
        (b"marked".to_vec(), 0)
    );
    assert_eq!(
        reason(get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT)),
        MQRC_SECOND_MARK_NOT_ALLOWED,
        "one marked message per unit of work"
    );
    assert_eq!(get(&mut c, h, MQGMO_SYNCPOINT).unwrap().0, b"other");
    put(&mut c, h, b"put", persistent, MQPMO_SYNCPOINT);
    c.backout().unwrap();
    // The put is gone, the other get is back with its backout count raised; the marked
    // message stays got, in a new unit of work.
    assert_eq!(depth(&qm), 1);
    assert!(c.in_unit_of_work());
    assert_eq!(
        get(&mut c, h, MQGMO_BROWSE_FIRST).unwrap(),
        (b"other".to_vec(), 1)
    );
    assert_eq!(
        reason(get(&mut c, h, MQGMO_BROWSE_NEXT)),
        MQRC_NO_MSG_AVAILABLE
    );
    // In the new unit of work a message can be marked again.
    assert_eq!(
        get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT)
            .unwrap()
            .0,
        b"other"
    );
    c.backout().unwrap();
    // Now "other" is the marked one and stays got; "marked", carried into this unit without
    // a mark, is backed out like any get (its first backout count).
    assert_eq!(
        get(&mut c, h, MQGMO_BROWSE_FIRST).unwrap(),
        (b"marked".to_vec(), 1)
    );
    assert_eq!(
        reason(get(&mut c, h, MQGMO_BROWSE_NEXT)),
        MQRC_NO_MSG_AVAILABLE
    );
    c.commit().unwrap();
    assert!(!c.in_unit_of_work());
    assert_eq!(depth(&qm), 1, "\"other\" is gone for good");
    assert_eq!(qm.queue("Q1").unwrap().status().uncommitted, 0);
}

#[test]
fn marked_message_is_not_backed_out_persistent() {
    marked_then_backed_out(true);
}

#[test]
fn marked_message_is_not_backed_out_non_persistent() {
    marked_then_backed_out(false);
}

#[test]
fn the_new_unit_of_work_backs_out_normally() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut c, h, b"marked", true, MQPMO_NO_SYNCPOINT);
    get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT).unwrap();
    c.backout().unwrap();
    assert_eq!(depth(&qm), 0);
    // The mark does not carry over: this backout returns it, its count raised once (the
    // first backout skipped it).
    c.backout().unwrap();
    assert_eq!(
        get(&mut c, h, MQGMO_NO_SYNCPOINT).unwrap(),
        (b"marked".to_vec(), 1)
    );
}

#[test]
fn mark_needs_a_get_in_syncpoint() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut c, h, b"x", true, MQPMO_NO_SYNCPOINT);
    for options in [
        MQGMO_NO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT,
        MQGMO_BROWSE_FIRST | MQGMO_MARK_SKIP_BACKOUT,
    ] {
        assert_eq!(reason(get(&mut c, h, options)), MQRC_OPTIONS_ERROR);
    }
    // The z/OS default is syncpoint: no syncpoint option at all marks in the unit.
    get(&mut c, h, MQGMO_MARK_SKIP_BACKOUT).unwrap();
    c.backout().unwrap();
    assert_eq!(depth(&qm), 0);
    c.commit().unwrap();
    assert_eq!(depth(&qm), 0);
}

#[test]
fn restart_backs_out_the_new_unit_of_work() {
    let directory = tempfile::tempdir().unwrap();
    create(directory.path(), "QM1");
    {
        let qm = ferrite_test_kit::open(directory.path());
        define(
            &qm,
            ferrite_queue_manager::QueueDefinition::local("Q1", ferrite_storage::PageSetId(1)),
        );
        let mut c = Connection::connect(qm.clone(), "").unwrap();
        let h = c.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
        put(&mut c, h, b"kept", true, MQPMO_NO_SYNCPOINT);
        put(&mut c, h, b"marked", true, MQPMO_NO_SYNCPOINT);
        get(&mut c, h, MQGMO_SYNCPOINT).unwrap();
        c.commit().unwrap();
        get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_MARK_SKIP_BACKOUT).unwrap();
        c.backout().unwrap();
        // The queue manager ends with the new unit of work in flight.
        qm.shutdown().unwrap();
        drop(c);
    }
    let qm = ferrite_test_kit::open(directory.path());
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    let (data, backout_count) = get(&mut c, h, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(data, b"marked", "restart backed out the in-flight unit");
    assert_eq!(backout_count, 1, "backed out once, by restart");
    assert_eq!(depth(&qm), 0);
}
