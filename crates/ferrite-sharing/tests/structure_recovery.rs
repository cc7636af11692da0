//! BACKUP and RECOVER CFSTRUCT: two members put and get persistent and non-persistent shared
//! messages, in and out of units of work (committed, backed out, one spanning the backup, one
//! in flight when the structure is lost), with a backup taken between; Redis restarts empty;
//! the structure is FAILED (MQI calls fail with MQRC_CF_STRUC_FAILED) until RECOVER CFSTRUCT
//! on the member that did not take the backup rebuilds it from the backup and both members'
//! logs. Afterwards the queues hold exactly the committed persistent messages a model of the
//! run says they should, in their order; the non-persistent ones are gone, as in MQ.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;

use ferrite_constants::{
    get_options::*, open_options::*, persistence::*, put_options::*, reason::*,
};
use ferrite_mqi::{Connection, Hobj, Mqmd, Mqod};
use ferrite_queue_manager::QueueManager;
use ferrite_test_kit::mqi::{connect, get_sized, put_md, reason, take_all, with_persistence};
use ferrite_test_kit::servers::Server;
use support::{fails, member, ok};

const BUFFER: usize = 1024;

/// The committed persistent messages each shared queue should hold, in order.
#[derive(Default)]
struct Model {
    queues: BTreeMap<&'static str, Vec<Vec<u8>>>,
}

impl Model {
    fn put(&mut self, queue: &'static str, data: &[u8]) {
        self.queues.entry(queue).or_default().push(data.to_vec());
    }

    /// A committed get took `data`, which must be the first message of `queue`.
    fn got(&mut self, queue: &'static str, data: &[u8]) {
        let messages = self.queues.get_mut(queue).expect("a queue with messages");
        assert_eq!(messages.first().map(Vec::as_slice), Some(data), "FIFO");
        messages.remove(0);
    }
}

struct App {
    connection: Connection,
    handles: BTreeMap<&'static str, Hobj>,
}

impl App {
    fn new(queue_manager: &Arc<QueueManager>) -> App {
        let mut connection = connect(queue_manager);
        let mut handles = BTreeMap::new();
        for queue in ["SQ1", "SQ2", "PRIVATE.Q"] {
            let hobj = connection
                .open(&mut Mqod::queue(queue), MQOO_OUTPUT | MQOO_INPUT_SHARED)
                .unwrap();
            handles.insert(queue, hobj);
        }
        App {
            connection,
            handles,
        }
    }

    fn put(&mut self, queue: &'static str, persistent: bool, syncpoint: bool, data: &[u8]) {
        let mut md = with_persistence(match persistent {
            true => MQPER_PERSISTENT,
            false => MQPER_NOT_PERSISTENT,
        });
        let options = match syncpoint {
            true => MQPMO_SYNCPOINT,
            false => MQPMO_NO_SYNCPOINT,
        };
        put_md(
            &mut self.connection,
            self.handles[queue],
            &mut md,
            options,
            data,
        )
        .unwrap_or_else(|error| panic!("MQPUT to {queue}: {error}"));
    }

    fn get(&mut self, queue: &'static str, syncpoint: bool) -> Vec<u8> {
        let options = match syncpoint {
            true => MQGMO_SYNCPOINT,
            false => MQGMO_NO_SYNCPOINT,
        };
        get_sized(&mut self.connection, self.handles[queue], options, BUFFER)
            .unwrap_or_else(|error| panic!("MQGET from {queue}: {error}"))
            .1
    }
}

fn data_of(messages: Vec<(Mqmd, Vec<u8>)>) -> Vec<Vec<u8>> {
    messages.into_iter().map(|(_, data)| data).collect()
}

#[test]
fn a_lost_structure_is_recovered_from_its_backup_and_every_members_log() {
    let mut redis = Server::redis();
    let postgres = Server::postgres();
    let directories = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let first = member(directories[0].path(), "QM1", &redis, &postgres);
    let second = member(directories[1].path(), "QM2", &redis, &postgres);
    ok(&first, "DEFINE CFSTRUCT(APP1) RECOVER(YES)");
    ok(&first, "DEFINE CFSTRUCT(NOREC) RECOVER(NO)");
    for queue in ["SQ1", "SQ2"] {
        ok(
            &first,
            &format!("DEFINE QLOCAL({queue}) QSGDISP(SHARED) CFSTRUCT(APP1)"),
        );
    }
    for queue_manager in [&first, &second] {
        ok(queue_manager, "DEFINE QLOCAL(PRIVATE.Q)");
    }
    let status = ok(&first, "DISPLAY CFSTATUS(APP1)");
    assert!(status.contains("STATUS(NEVERUSED)"), "{status}");
    let mut model = Model::default();
    let (mut one, mut two) = (App::new(&first), App::new(&second));

    // Before the backup.
    one.put("SQ1", true, false, b"p1");
    one.put("SQ1", false, false, b"n1");
    one.put("SQ1", true, false, b"p2");
    model.put("SQ1", b"p1");
    model.put("SQ1", b"p2");
    one.put("SQ1", true, true, b"p3");
    one.put("SQ2", true, true, b"p4");
    one.put("SQ2", false, true, b"n2");
    one.connection.commit().unwrap();
    model.put("SQ1", b"p3");
    model.put("SQ2", b"p4");
    assert_eq!(two.get("SQ1", true), b"p1");
    two.connection.commit().unwrap();
    model.got("SQ1", b"p1");
    assert_eq!(two.get("SQ1", true), b"n1");
    two.connection.backout().unwrap();
    assert_eq!(two.get("SQ1", false), b"n1");
    // A unit of work that spans the backup: its put is logged before, its commit after.
    one.put("SQ2", true, true, b"p5");

    let refused = fails(&first, "BACKUP CFSTRUCT(NOREC)");
    assert!(refused.contains("CSQE151I"), "{refused}");
    let backup = ok(&first, "BACKUP CFSTRUCT(APP1)");
    assert!(
        backup.contains("CSQE121I") && backup.contains("3 messages"),
        "the backup holds p2, p3 and p4: {backup}"
    );
    let shown = ok(&second, "DISPLAY CFSTATUS(APP1) TYPE(BACKUP)");
    assert!(
        shown.contains("STATUS(ACTIVE)") && shown.contains("QMNAME(QM1)"),
        "{shown}"
    );
    assert!(shown.contains("LOGS(QM1,QM2)"), "{shown}");

    // After the backup.
    one.connection.commit().unwrap();
    model.put("SQ2", b"p5");
    two.put("SQ2", true, false, b"p6");
    model.put("SQ2", b"p6");
    assert_eq!(two.get("SQ1", true), b"p2");
    two.connection.commit().unwrap();
    model.got("SQ1", b"p2");
    assert_eq!(one.get("SQ2", true), b"p4");
    one.connection.backout().unwrap();
    assert_eq!(one.get("SQ2", false), b"p4");
    model.got("SQ2", b"p4");
    two.put("SQ1", true, true, b"p7");
    two.put("SQ1", false, true, b"n3");
    two.connection.commit().unwrap();
    model.put("SQ1", b"p7");
    // In flight when the structure is lost: neither its put nor its get is recovered.
    one.put("SQ1", true, true, b"lost");
    assert_eq!(one.get("SQ2", true), b"n2");
    assert_eq!(one.get("SQ2", true), b"p5");

    redis.stop();
    redis.restart();
    // DISPLAY CFSTATUS looks at the structure: it is found lost.
    let mut status = ok(&second, "DISPLAY CFSTATUS(APP1)");
    if status.contains("REASON(2373)") {
        // The member's coupling facility connection broke with the restart; it connects
        // again on this next call.
        status = ok(&second, "DISPLAY CFSTATUS(APP1)");
    }
    assert!(status.contains("STATUS(FAILED)"), "{status}");
    // The structure is lost, not empty: shared queue calls fail until it is recovered, while
    // private queues work on.
    // (The first call may find its connection broken, the second the structure gone: both
    // are MQRC_CF_STRUC_FAILED.)
    for _ in 0..2 {
        let mut md = with_persistence(MQPER_PERSISTENT);
        let failed = put_md(
            &mut two.connection,
            two.handles["SQ1"],
            &mut md,
            MQPMO_NO_SYNCPOINT,
            b"refused",
        );
        assert_eq!(reason(failed), MQRC_CF_STRUC_FAILED);
    }
    two.put("PRIVATE.Q", true, false, b"private");
    assert_eq!(two.get("PRIVATE.Q", false), b"private");
    let status = ok(&second, "DISPLAY CFSTATUS(APP1)");
    assert!(
        status.contains("STATUS(FAILED)") && !status.contains("FAILDATE( )"),
        "{status}"
    );

    let recovered = ok(&second, "RECOVER CFSTRUCT(APP1)");
    assert!(
        recovered.contains("CSQE132I") && recovered.contains("3 messages from the backup"),
        "{recovered}"
    );
    let status = ok(&second, "DISPLAY CFSTATUS(APP1)");
    assert!(status.contains("STATUS(RECOVERED)"), "{status}");
    let again = fails(&first, "RECOVER CFSTRUCT(APP1)");
    assert!(again.contains("not FAILED"), "{again}");
    // The unit in flight at the failure cannot commit.
    assert_eq!(reason(one.connection.commit()), MQRC_BACKED_OUT);

    for queue in ["SQ1", "SQ2"] {
        let found = data_of(take_all(&first, queue, BUFFER));
        assert_eq!(
            found, model.queues[queue],
            "{queue} holds exactly its committed persistent messages"
        );
    }
    // New entries do not collide with recovered ones.
    one.put("SQ1", true, false, b"after");
    assert_eq!(
        data_of(take_all(&second, "SQ1", BUFFER)),
        vec![b"after".to_vec()]
    );

    drop((one, two));
    first.shutdown().unwrap();
    second.shutdown().unwrap();
}
