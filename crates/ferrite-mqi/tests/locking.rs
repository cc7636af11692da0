//! MQGMO_LOCK / MQGMO_UNLOCK with browse, and waiting browses.

use std::time::{Duration, Instant};

use ferrite_constants::{
    completion::MQCC_WARNING, get_options::*, open_options::*, put_options::*, reason::*,
};
use ferrite_mqi::*;
use ferrite_test_kit::*;

const OPTIONS: i32 = MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE;

fn put(c: &mut Connection, hobj: Hobj, data: &[u8]) {
    ferrite_test_kit::put(c, hobj, MQPMO_NO_SYNCPOINT, data);
}

fn get_with(c: &mut Connection, hobj: Hobj, gmo: &mut Mqgmo) -> MqResult<Vec<u8>> {
    ferrite_test_kit::get_with(c, hobj, gmo, 1024).map(|(_, data)| data)
}

fn get(c: &mut Connection, hobj: Hobj, options: i32) -> MqResult<Vec<u8>> {
    get_with(c, hobj, &mut Mqgmo::with_options(options))
}

#[test]
fn a_locked_message_is_invisible_to_other_handles() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = connect(&qm);
    let mut b = connect(&qm);
    let ha = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut a, ha, b"one");
    put(&mut a, ha, b"two");
    assert_eq!(
        get(&mut a, ha, MQGMO_BROWSE_FIRST | MQGMO_LOCK).unwrap(),
        b"one"
    );
    // Other handles browse and get past it.
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_FIRST).unwrap(), b"two");
    assert_eq!(get(&mut b, hb, MQGMO_NO_SYNCPOINT).unwrap(), b"two");
    assert_eq!(
        reason(get(&mut b, hb, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
    // Another handle of the same connection does not see it either.
    let ha2 = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    assert_eq!(
        reason(get(&mut a, ha2, MQGMO_BROWSE_FIRST)),
        MQRC_NO_MSG_AVAILABLE
    );
    // The holder gets it under the cursor; the lock goes with it.
    assert_eq!(
        get(&mut a, ha, MQGMO_MSG_UNDER_CURSOR | MQGMO_NO_SYNCPOINT).unwrap(),
        b"one"
    );
    let warning = a
        .get(
            ha,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_UNLOCK),
            &mut [],
        )
        .unwrap()
        .warning
        .expect("nothing is locked any more");
    assert_eq!(
        (warning.completion_code, warning.reason),
        (MQCC_WARNING, MQRC_NO_MSG_LOCKED)
    );
    assert_eq!(qm.queue("Q1").unwrap().depth(), 0);
}

#[test]
fn unlock_next_locking_browse_and_close_release_the_lock() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = connect(&qm);
    let mut b = connect(&qm);
    let ha = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut a, ha, b"one");
    put(&mut a, ha, b"two");

    // MQGMO_UNLOCK.
    get(&mut a, ha, MQGMO_BROWSE_FIRST | MQGMO_LOCK).unwrap();
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_FIRST).unwrap(), b"two");
    let result = a
        .get(
            ha,
            &mut Mqmd::default(),
            &mut Mqgmo::with_options(MQGMO_UNLOCK | MQGMO_NO_SYNCPOINT),
            &mut [],
        )
        .unwrap();
    assert_eq!(result.warning, None);
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_FIRST).unwrap(), b"one");

    // The next locking browse releases the previous lock.
    get(&mut a, ha, MQGMO_BROWSE_FIRST | MQGMO_LOCK).unwrap();
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_FIRST).unwrap(), b"two");
    assert_eq!(
        get(&mut a, ha, MQGMO_BROWSE_NEXT | MQGMO_LOCK).unwrap(),
        b"two"
    );
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_FIRST).unwrap(), b"one");
    assert_eq!(
        reason(get(&mut b, hb, MQGMO_BROWSE_NEXT)),
        MQRC_NO_MSG_AVAILABLE,
        "two is locked"
    );

    // A browse without MQGMO_LOCK keeps the lock.
    get(&mut a, ha, MQGMO_BROWSE_FIRST).unwrap();
    assert_eq!(
        reason(get(&mut b, hb, MQGMO_BROWSE_NEXT)),
        MQRC_NO_MSG_AVAILABLE
    );

    // MQCLOSE.
    a.close(ha, 0).unwrap();
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_NEXT).unwrap(), b"two");

    // The end of the connection.
    let hb2 = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    let mut c = connect(&qm);
    let hc = c.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    get(&mut c, hc, MQGMO_BROWSE_FIRST | MQGMO_LOCK).unwrap();
    assert_eq!(get(&mut b, hb2, MQGMO_BROWSE_FIRST).unwrap(), b"two");
    c.disconnect().unwrap();
    assert_eq!(get(&mut b, hb2, MQGMO_BROWSE_FIRST).unwrap(), b"one");
}

#[test]
fn lock_and_unlock_option_rules() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = connect(&qm);
    let ha = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut a, ha, b"one");
    for options in [
        MQGMO_LOCK,                                     // not a browse
        MQGMO_LOCK | MQGMO_MSG_UNDER_CURSOR,            // not a browse
        MQGMO_BROWSE_FIRST | MQGMO_LOCK | MQGMO_UNLOCK, // both
        MQGMO_UNLOCK | MQGMO_BROWSE_FIRST,              // UNLOCK stands alone
        MQGMO_UNLOCK | MQGMO_WAIT,
        MQGMO_UNLOCK | MQGMO_SYNCPOINT,
    ] {
        assert_eq!(
            reason(get(&mut a, ha, options)),
            MQRC_OPTIONS_ERROR,
            "{options:#x}"
        );
    }
}

#[test]
fn a_waiting_getter_gets_the_message_when_it_is_unlocked() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = connect(&qm);
    let ha = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut a, ha, b"one");
    get(&mut a, ha, MQGMO_BROWSE_FIRST | MQGMO_LOCK).unwrap();
    let getter = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            let mut b = connect(&qm);
            let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
            let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_NO_SYNCPOINT);
            gmo.wait_interval = 10_000;
            let started = Instant::now();
            (get_with(&mut b, hb, &mut gmo), started.elapsed())
        })
    };
    std::thread::sleep(Duration::from_millis(150));
    a.get(
        ha,
        &mut Mqmd::default(),
        &mut Mqgmo::with_options(MQGMO_UNLOCK),
        &mut [],
    )
    .unwrap();
    let (got, waited) = getter.join().unwrap();
    assert_eq!(got.unwrap(), b"one");
    assert!(waited >= Duration::from_millis(100), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "woken by the unlock");
}

#[test]
fn waiting_browse_waits_for_an_arrival_without_taking_it() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let browser = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            let mut b = connect(&qm);
            let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
            let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_BROWSE_FIRST);
            gmo.wait_interval = 10_000;
            let started = Instant::now();
            let first = get_with(&mut b, hb, &mut gmo);
            let waited = started.elapsed();
            // BROWSE_NEXT waits for the message after the cursor.
            let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_BROWSE_NEXT);
            gmo.wait_interval = 10_000;
            let second = get_with(&mut b, hb, &mut gmo);
            (first, waited, second)
        })
    };
    std::thread::sleep(Duration::from_millis(150));
    let mut a = connect(&qm);
    let ha = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    put(&mut a, ha, b"one");
    std::thread::sleep(Duration::from_millis(150));
    put(&mut a, ha, b"two");
    let (first, waited, second) = browser.join().unwrap();
    assert_eq!(first.unwrap(), b"one");
    assert_eq!(second.unwrap(), b"two");
    assert!(waited >= Duration::from_millis(100), "{waited:?}");
    assert!(waited < Duration::from_secs(5), "woken by the put");
    assert_eq!(qm.queue("Q1").unwrap().depth(), 2, "browsing took nothing");
}

#[test]
fn waiting_browse_times_out_and_locks() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = connect(&qm);
    let ha = a.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_BROWSE_FIRST);
    gmo.wait_interval = 200;
    let started = Instant::now();
    assert_eq!(
        reason(get_with(&mut a, ha, &mut gmo)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert!(started.elapsed() >= Duration::from_millis(200));

    // A waiting locking browse locks what arrives.
    let browser = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            let mut b = connect(&qm);
            let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
            let mut gmo = Mqgmo::with_options(MQGMO_WAIT | MQGMO_BROWSE_FIRST | MQGMO_LOCK);
            gmo.wait_interval = 10_000;
            let got = get_with(&mut b, hb, &mut gmo);
            (b, hb, got)
        })
    };
    std::thread::sleep(Duration::from_millis(100));
    put(&mut a, ha, b"one");
    let (mut b, hb, got) = browser.join().unwrap();
    assert_eq!(got.unwrap(), b"one");
    assert_eq!(
        reason(get(&mut a, ha, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE,
        "locked by the browser"
    );
    assert_eq!(
        get(&mut b, hb, MQGMO_MSG_UNDER_CURSOR | MQGMO_NO_SYNCPOINT).unwrap(),
        b"one"
    );
}

#[test]
fn waiting_browse_ends_when_the_queue_manager_quiesces() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let browser = {
        let qm = qm.clone();
        std::thread::spawn(move || {
            let mut b = connect(&qm);
            let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
            let mut gmo =
                Mqgmo::with_options(MQGMO_WAIT | MQGMO_BROWSE_FIRST | MQGMO_FAIL_IF_QUIESCING);
            gmo.wait_interval = -1; // MQWI_UNLIMITED
            get_with(&mut b, hb, &mut gmo)
        })
    };
    std::thread::sleep(Duration::from_millis(150));
    qm.quiesce();
    assert_eq!(reason(browser.join().unwrap()), MQRC_Q_MGR_QUIESCING);
}

#[test]
fn a_handle_with_a_selector_locks_what_it_browses() {
    let (_dir, qm) = queue_manager(&["Q1"]);
    let mut a = connect(&qm);
    let mut od = Mqod::queue("Q1");
    od.selection_string = "JMSCorrelationID = 'ID:414243'".to_string();
    let ha = a.open(&mut od, OPTIONS).unwrap();
    let mut b = connect(&qm);
    let hb = b.open(&mut Mqod::queue("Q1"), OPTIONS).unwrap();
    let mut md = Mqmd {
        correl_id: {
            let mut id = [0u8; 24];
            id[..3].copy_from_slice(b"ABC");
            id
        },
        ..Mqmd::default()
    };
    b.put(
        hb,
        &mut md,
        &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
        b"selected",
    )
    .unwrap();
    assert_eq!(
        get(&mut a, ha, MQGMO_BROWSE_FIRST | MQGMO_LOCK).unwrap(),
        b"selected"
    );
    assert_eq!(
        reason(get(&mut b, hb, MQGMO_BROWSE_FIRST)),
        MQRC_NO_MSG_AVAILABLE,
        "locked by the selecting handle"
    );
    a.get(
        ha,
        &mut Mqmd::default(),
        &mut Mqgmo::with_options(MQGMO_UNLOCK),
        &mut [],
    )
    .unwrap();
    assert_eq!(get(&mut b, hb, MQGMO_BROWSE_FIRST).unwrap(), b"selected");
}
