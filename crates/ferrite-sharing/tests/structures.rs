//! CF structures as group objects: defined on one member, seen, altered and deleted from
//! another, through MQSC run in-process on two members of one group (a Redis server and a
//! throw-away PostgreSQL cluster started by the test).

mod support;

use ferrite_test_kit::servers::Server;
use support::{fails, member, ok};

#[test]
fn a_structure_defined_on_one_member_is_the_groups() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = member(one.path(), "QM1", &redis, &postgres);
    let second = member(two.path(), "QM2", &redis, &postgres);

    ok(
        &first,
        "DEFINE CFSTRUCT(APP1) RECOVER(YES) OFFLD1SZ(16K) DESCR('Orders')",
    );
    let shown = ok(&second, "DISPLAY CFSTRUCT(APP1) ALL");
    for expected in [
        "CFSTRUCT(APP1)",
        "CFLEVEL(5)",
        "RECOVER(YES)",
        "OFFLOAD(DB2)",
        "OFFLD1TH(70)",
        "OFFLD1SZ(16K)",
        "OFFLD2SZ(4K)",
        "DSBLOCK(256K)",
        "CFCONLOS(ASQMGR)",
        "DESCR(Orders)",
    ] {
        assert!(shown.contains(expected), "{expected} not in {shown}");
    }
    let again = fails(&second, "DEFINE CFSTRUCT(APP1)");
    assert!(again.contains("2100 MQRC_OBJECT_ALREADY_EXISTS"), "{again}");
    ok(&second, "DEFINE CFSTRUCT(APP1) CFLEVEL(4) REPLACE");
    ok(
        &second,
        "DEFINE CFSTRUCT(APP2) LIKE(APP1) OFFLOAD(DB2) DSBLOCK(1M)",
    );
    ok(&first, "ALTER CFSTRUCT(APP2) CFCONLOS(TOLERATE)");
    let shown = ok(&first, "DISPLAY CFSTRUCT(APP*) CFLEVEL CFCONLOS DSBLOCK");
    assert!(shown.contains("2 CFSTRUCT FOUND"), "{shown}");
    assert!(shown.contains("CFLEVEL(4)"), "{shown}");
    assert!(shown.contains("CFCONLOS(TOLERATE)"), "{shown}");
    assert!(shown.contains("DSBLOCK(1M)"), "{shown}");
    assert!(
        !shown.contains("RECAUTO"),
        "only the attributes asked for: {shown}"
    );

    // Every structure's status, the administration structure first.
    let status = ok(&second, "DISPLAY CFSTATUS(*)");
    assert!(status.contains("3 CFSTATUS FOUND"), "{status}");
    assert!(status.contains("CFSTATUS(CSQ_ADMIN)"), "{status}");
    assert!(status.contains("CFTYPE(ADMIN)"), "{status}");
    assert!(status.contains("CFTYPE(APPL)"), "{status}");
    assert!(status.contains("STATUS(ACTIVE)"), "{status}");

    ok(&first, "DELETE CFSTRUCT(APP1)");
    let gone = fails(&second, "DELETE CFSTRUCT(APP1)");
    assert!(gone.contains("2085 MQRC_UNKNOWN_OBJECT_NAME"), "{gone}");
    let missing = fails(&second, "ALTER CFSTRUCT(APP1) RECOVER(NO)");
    assert!(
        missing.contains("CFSTRUCT(APP1) QSGDISP(GROUP) WAS NOT FOUND"),
        "{missing}"
    );
    first.shutdown().unwrap();
    second.shutdown().unwrap();
}

#[test]
fn structure_attributes_are_checked_before_anything_is_stored() {
    let redis = Server::redis();
    let postgres = Server::postgres();
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = member(directory.path(), "QM1", &redis, &postgres);
    for (command, why) in [
        ("DEFINE CFSTRUCT(APP1) CFLEVEL(6)", "CFLEVEL"),
        ("DEFINE CFSTRUCT(APP1) OFFLD2TH(50)", "70 to 100"),
        ("DEFINE CFSTRUCT(APP1) OFFLD3SZ(65K)", "0K to 64K"),
        ("DEFINE CFSTRUCT(APP1) DSBLOCK(100K)", "8K, 16K"),
        (
            "DEFINE CFSTRUCT(APP1) CFLEVEL(2) RECOVER(YES)",
            "needs CFLEVEL(3)",
        ),
        (
            "DEFINE CFSTRUCT(APP1) CFLEVEL(4) OFFLOAD(SMDS)",
            "needs CFLEVEL(5)",
        ),
        ("DEFINE CFSTRUCT(TOOLONGNAME12X)", "1-12 characters"),
        ("DEFINE CFSTRUCT(APP1) QSGDISP(GROUP)", "QSGDISP"),
    ] {
        let output = fails(&queue_manager, command);
        assert!(output.contains(why), "{command}: {output}");
    }
    let none = ok(&queue_manager, "DISPLAY CFSTRUCT(*)");
    assert!(none.contains("NO CFSTRUCT FOUND"), "{none}");
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_queue_manager_outside_a_group_has_no_structures() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    for command in [
        "DEFINE CFSTRUCT(APP1)",
        "DISPLAY CFSTRUCT(*)",
        "DISPLAY CFSTATUS(*)",
        "DELETE CFSTRUCT(APP1)",
    ] {
        let output = fails(&queue_manager, command);
        assert!(output.contains("CSQ5112E"), "{command}: {output}");
    }
}
