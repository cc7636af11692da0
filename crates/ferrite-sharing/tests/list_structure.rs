//! The CF list structure on a real Redis server (started by the test): two members' connections
//! share a queue, in priority then FIFO order, select by MSGID and CORRELID, browse, stage puts
//! and gets in units of work committed or backed out all at once (also by another member, as
//! peer recovery does), and announce a queue's 0 -> 1 transition on the arrivals channel.

use std::time::Duration;

use ferrite_sharing::coupling_facility::CouplingFacility;
use ferrite_sharing::list_structure::{
    arrivals_channel, BrowseCursor, ListStructure, SharedMessage, SharedSelection, SharedUnit,
    IDENTIFIER_LENGTH,
};
use ferrite_test_kit::servers::Server;

const QUEUE: &str = "APP.SHARED.Q";

fn structure(redis: &Server) -> ListStructure {
    let mut structure = ListStructure::new(
        CouplingFacility::connect(&redis.url()).unwrap(),
        "QSG1",
        "APP1",
    );
    structure.allocate(0).unwrap();
    structure
}

fn identifier(byte: u8) -> [u8; IDENTIFIER_LENGTH] {
    [byte; IDENTIFIER_LENGTH]
}

fn message(priority: u8, id: u8, correl: u8, data: &str) -> SharedMessage {
    SharedMessage {
        priority,
        message_id: identifier(id),
        correlation_id: identifier(correl),
        data: data.as_bytes().to_vec(),
    }
}

fn data_of(found: Option<ferrite_sharing::list_structure::RetrievedSharedMessage>) -> String {
    String::from_utf8(found.expect("a message").message.data).unwrap()
}

fn unit(member: &str, name: &str) -> SharedUnit {
    SharedUnit {
        member: member.to_string(),
        unit: name.to_string(),
    }
}

#[test]
fn a_message_put_by_one_member_is_got_by_another_in_priority_then_fifo_order() {
    let redis = Server::redis();
    let (mut first, mut second) = (structure(&redis), structure(&redis));
    first.put(QUEUE, &message(4, 1, 0, "low 1")).unwrap();
    first.put(QUEUE, &message(9, 2, 0, "high")).unwrap();
    second.put(QUEUE, &message(4, 3, 0, "low 2")).unwrap();
    first.put(QUEUE, &message(0, 4, 0, "lowest")).unwrap();
    assert_eq!(second.depth(QUEUE).unwrap(), 4);
    let order: Vec<String> = (0..4)
        .map(|_| data_of(second.get(QUEUE, SharedSelection::First).unwrap()))
        .collect();
    assert_eq!(order, ["high", "low 1", "low 2", "lowest"]);
    assert_eq!(first.get(QUEUE, SharedSelection::First).unwrap(), None);
    assert_eq!(first.depth(QUEUE).unwrap(), 0);
}

#[test]
fn gets_and_browses_select_by_message_and_correlation_identifiers() {
    let redis = Server::redis();
    let (mut first, mut second) = (structure(&redis), structure(&redis));
    first.put(QUEUE, &message(5, 1, 7, "one")).unwrap();
    first.put(QUEUE, &message(5, 2, 8, "two")).unwrap();
    first.put(QUEUE, &message(5, 3, 8, "three")).unwrap();
    first
        .put(QUEUE, &message(6, 2, 9, "two again, higher"))
        .unwrap();

    // Browse leaves everything in place, in delivery order.
    let mut cursor = BrowseCursor::START;
    let mut browsed = Vec::new();
    while let Some(found) = second
        .browse(QUEUE, SharedSelection::First, cursor)
        .unwrap()
    {
        cursor = found.cursor;
        browsed.push(String::from_utf8(found.message.data).unwrap());
    }
    assert_eq!(browsed, ["two again, higher", "one", "two", "three"]);
    let by_correl = second
        .browse(
            QUEUE,
            SharedSelection::CorrelationId(identifier(8)),
            BrowseCursor::START,
        )
        .unwrap();
    assert_eq!(data_of(by_correl), "two");

    let both = SharedSelection::Both(identifier(2), identifier(8));
    assert_eq!(data_of(second.get(QUEUE, both).unwrap()), "two");
    assert_eq!(second.get(QUEUE, both).unwrap(), None);
    let by_id = SharedSelection::MessageId(identifier(2));
    assert_eq!(
        data_of(second.get(QUEUE, by_id).unwrap()),
        "two again, higher"
    );
    let by_correl = SharedSelection::CorrelationId(identifier(8));
    assert_eq!(data_of(first.get(QUEUE, by_correl).unwrap()), "three");
    assert_eq!(first.get(QUEUE, by_correl).unwrap(), None);
    assert_eq!(first.depth(QUEUE).unwrap(), 1);
    let last = first.get(QUEUE, SharedSelection::First).unwrap().unwrap();
    assert_eq!(last.message, message(5, 1, 7, "one"));
}

#[test]
fn a_unit_of_work_is_invisible_until_committed_and_undone_whole_by_backout() {
    let redis = Server::redis();
    let (mut first, mut second) = (structure(&redis), structure(&redis));
    first.put(QUEUE, &message(5, 1, 0, "before")).unwrap();
    let work = unit("QM1", "0000000000000001");
    let got = first
        .get_in_unit(&work, QUEUE, SharedSelection::First)
        .unwrap();
    assert_eq!(data_of(got), "before");
    first
        .put_in_unit(&work, QUEUE, &message(5, 2, 0, "staged 1"))
        .unwrap();
    first
        .put_in_unit(&work, "OTHER.Q", &message(5, 3, 0, "staged 2"))
        .unwrap();
    // Nothing of the unit shows: the got message is hidden, the puts are not there yet.
    assert_eq!(second.get(QUEUE, SharedSelection::First).unwrap(), None);
    assert_eq!(second.depth("OTHER.Q").unwrap(), 0);

    first.backout(&work).unwrap();
    let restored = second.get(QUEUE, SharedSelection::First).unwrap().unwrap();
    assert_eq!(String::from_utf8(restored.message.data).unwrap(), "before");
    assert_eq!(restored.backout_count, 1);
    assert_eq!(second.depth(QUEUE).unwrap(), 0);
    assert_eq!(second.depth("OTHER.Q").unwrap(), 0);

    second.put(QUEUE, &message(5, 4, 0, "again")).unwrap();
    let work = unit("QM1", "0000000000000002");
    first
        .get_in_unit(&work, QUEUE, SharedSelection::First)
        .unwrap();
    first
        .put_in_unit(&work, QUEUE, &message(5, 5, 0, "reply"))
        .unwrap();
    first
        .put_in_unit(&work, "OTHER.Q", &message(5, 6, 0, "other"))
        .unwrap();
    first.commit(&work).unwrap();
    assert_eq!(
        data_of(second.get(QUEUE, SharedSelection::First).unwrap()),
        "reply"
    );
    assert_eq!(second.get(QUEUE, SharedSelection::First).unwrap(), None);
    assert_eq!(
        data_of(second.get("OTHER.Q", SharedSelection::First).unwrap()),
        "other"
    );
    assert!(first.units_of("QM1").unwrap().is_empty());
}

#[test]
fn another_member_backs_out_the_units_a_failed_member_left() {
    let redis = Server::redis();
    let mut failed = structure(&redis);
    failed.put(QUEUE, &message(5, 1, 0, "taken")).unwrap();
    for name in ["0000000000000001", "0000000000000002"] {
        let work = unit("QM1", name);
        failed
            .get_in_unit(&work, QUEUE, SharedSelection::First)
            .unwrap();
        failed
            .put_in_unit(&work, QUEUE, &message(5, 2, 0, "uncommitted"))
            .unwrap();
    }
    drop(failed); // the member's connection ends with its units in flight

    let mut peer = structure(&redis);
    let left = peer.units_of("QM1").unwrap();
    assert_eq!(
        left,
        vec![
            unit("QM1", "0000000000000001"),
            unit("QM1", "0000000000000002")
        ]
    );
    for work in &left {
        peer.backout(work).unwrap();
    }
    assert!(peer.units_of("QM1").unwrap().is_empty());
    assert_eq!(
        peer.depth(QUEUE).unwrap(),
        1,
        "nothing lost, nothing doubled"
    );
    let survivor = peer.get(QUEUE, SharedSelection::First).unwrap().unwrap();
    assert_eq!(String::from_utf8(survivor.message.data).unwrap(), "taken");
    assert_eq!(survivor.backout_count, 1);
}

#[test]
fn the_first_message_on_an_empty_queue_is_announced_to_every_member() {
    let redis = Server::redis();
    let client = redis::Client::open(redis.url()).unwrap();
    let mut listener = client.get_connection().unwrap();
    listener
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut subscription = listener.as_pubsub();
    subscription.subscribe(arrivals_channel("QSG1")).unwrap();

    let mut putter = structure(&redis);
    putter.put(QUEUE, &message(5, 1, 0, "first")).unwrap();
    putter.put(QUEUE, &message(5, 2, 0, "second")).unwrap(); // 1 -> 2: not announced
    putter.get(QUEUE, SharedSelection::First).unwrap();
    putter.get(QUEUE, SharedSelection::First).unwrap();
    let work = unit("QM2", "0000000000000001");
    putter
        .put_in_unit(&work, "OTHER.Q", &message(5, 3, 0, "staged"))
        .unwrap();
    putter.commit(&work).unwrap(); // 0 -> 1 at commit

    let queues: Vec<String> = (0..2)
        .map(|_| subscription.get_message().unwrap().get_payload().unwrap())
        .collect();
    assert_eq!(queues, [QUEUE, "OTHER.Q"]);
    // Nothing more was announced: the next put on the now empty queue is the next message.
    putter.put(QUEUE, &message(5, 4, 0, "third")).unwrap();
    let next: String = subscription.get_message().unwrap().get_payload().unwrap();
    assert_eq!(next, QUEUE);
}

#[test]
fn the_arrivals_listener_counts_each_announcement_and_wakes_its_waiter() {
    use ferrite_sharing::arrivals::Arrivals;
    let redis = Server::redis();
    let arrivals = Arrivals::start(&redis.url(), &arrivals_channel("QSG1"));
    assert!(arrivals.subscribed(), "subscribed before start returns");
    let seen = arrivals.seen(QUEUE);
    let waiter = std::thread::spawn({
        let arrivals = arrivals.clone();
        move || arrivals.wait(QUEUE, seen, Duration::from_secs(600))
    });
    let mut putter = structure(&redis);
    putter.put(QUEUE, &message(5, 1, 0, "first")).unwrap();
    assert!(waiter.join().unwrap(), "woken by the arrival");
    // Another queue's arrival does not change this one's count; a 1 -> 2 put announces none.
    putter.put(QUEUE, &message(5, 2, 0, "second")).unwrap();
    putter.put("OTHER.Q", &message(5, 3, 0, "other")).unwrap();
    let other_seen = 0;
    assert!(arrivals.wait("OTHER.Q", other_seen, Duration::from_secs(600)));
    assert_eq!(arrivals.seen(QUEUE), seen + 1);
    arrivals.stop();
}
