//! Shared local queues as group objects: DEFINE QLOCAL QSGDISP(SHARED) on one member is seen,
//! altered and deleted from another, through MQSC run in-process on two members of one group
//! (a Redis server and a throw-away PostgreSQL cluster started by the test).

mod support;

use ferrite_test_kit::servers::Server;
use support::{fails, member, ok};

#[test]
fn a_shared_queue_defined_on_one_member_is_the_groups() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = member(one.path(), "QM1", &redis, &postgres);
    let second = member(two.path(), "QM2", &redis, &postgres);

    let unbound = fails(&first, "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED)");
    assert!(unbound.contains("'CFSTRUCT' is missing"), "{unbound}");
    let no_structure = fails(
        &first,
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );
    assert!(
        no_structure.contains("CFSTRUCT(APP1) QSGDISP(GROUP) WAS NOT FOUND"),
        "{no_structure}"
    );
    ok(&first, "DEFINE CFSTRUCT(APP1)");
    ok(
        &first,
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1) MAXDEPTH(500) DESCR('Shared orders')",
    );

    // The other member sees it, with its disposition and structure.
    let shown = ok(&second, "DISPLAY QLOCAL(ORDERS) ALL");
    for expected in [
        "QUEUE(ORDERS)",
        "QSGDISP(SHARED)",
        "CFSTRUCT(APP1)",
        "MAXDEPTH(500)",
        "DESCR(Shared orders)",
    ] {
        assert!(shown.contains(expected), "{expected} not in {shown}");
    }
    let again = fails(
        &second,
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );
    assert!(again.contains("QSGDISP(SHARED) ALREADY EXISTS"), "{again}");

    // A private queue of the same name refuses the shared one.
    ok(&second, "DEFINE QLOCAL(LOCAL.ONLY)");
    let clash = fails(
        &second,
        "DEFINE QLOCAL(LOCAL.ONLY) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );
    assert!(clash.contains("QSGDISP(QMGR) ALREADY EXISTS"), "{clash}");

    // QSGDISP on DISPLAY chooses between this member's queues and the group's.
    let only_shared = ok(&second, "DISPLAY QUEUE(*) QSGDISP(SHARED)");
    assert!(only_shared.contains("QUEUE(ORDERS)"), "{only_shared}");
    assert!(!only_shared.contains("LOCAL.ONLY"), "{only_shared}");
    let private = ok(&second, "DISPLAY QLOCAL(*) QSGDISP(QMGR)");
    assert!(private.contains("LOCAL.ONLY"), "{private}");
    assert!(!private.contains("QUEUE(ORDERS)"), "{private}");
    let live = ok(&second, "DISPLAY QLOCAL(*) CFSTRUCT");
    assert!(live.contains("QUEUE(ORDERS)"), "{live}");
    assert!(live.contains("LOCAL.ONLY"), "{live}");

    ok(
        &second,
        "ALTER QLOCAL(ORDERS) QSGDISP(SHARED) MAXDEPTH(900)",
    );
    let altered = ok(&first, "DISPLAY QLOCAL(ORDERS) MAXDEPTH");
    assert!(altered.contains("MAXDEPTH(900)"), "{altered}");
    let bad = fails(&first, "ALTER QLOCAL(ORDERS) QSGDISP(SHARED) DEFPRTY(12)");
    assert!(bad.contains("DEFPRTY"), "{bad}");

    ok(&first, "DELETE QLOCAL(ORDERS) QSGDISP(SHARED)");
    let gone = fails(&second, "DELETE QLOCAL(ORDERS) QSGDISP(SHARED)");
    assert!(
        gone.contains("QLOCAL(ORDERS) QSGDISP(SHARED) WAS NOT FOUND"),
        "{gone}"
    );
    let none = ok(&second, "DISPLAY QUEUE(*) QSGDISP(SHARED)");
    assert!(none.contains("NO QUEUE FOUND"), "{none}");
    first.shutdown().unwrap();
    second.shutdown().unwrap();
}

#[test]
fn a_queue_manager_outside_a_group_has_no_shared_queues() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let refused = fails(
        &queue_manager,
        "DEFINE QLOCAL(ORDERS) QSGDISP(SHARED) CFSTRUCT(APP1)",
    );
    assert!(refused.contains("CSQ5112E"), "{refused}");
    let shown = ok(&queue_manager, "DISPLAY QUEUE(*) QSGDISP(SHARED)");
    assert!(shown.contains("NO QUEUE FOUND"), "{shown}");
}
