//! An MQGET that fails after taking its message puts it back: a corrupt in-memory descriptor,
//! an expired message met on the way whose deletion fails, and a message longer than the
//! caller's buffer (MQRC_TRUNCATED_MSG_FAILED). The message is in its place again, gettable;
//! the get's uncommitted count and its MAXDEPTH place are given back, and MSGSOUT does not
//! count it.

use std::path::Path;
use std::sync::{Arc, Mutex};

use ferrite_queue_manager::{
    GetControls, GetOutcome, LocalQueue, MessageEntry, MessageKey, MessageSelector, MessageStorage,
    QueueDefinition, QueueManager, UnitOfWork,
};
use ferrite_storage::data_manager::memory::MemoryAccount;
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::log_records::MessageLocation;
use ferrite_storage::types::PageNumber;
use ferrite_storage::PageSetId;

/// MAXDEPTH of the test queue: small, so a place that is not given back shows.
const MAX_DEPTH: u32 = 3;

fn open(directory: &Path) -> Arc<QueueManager> {
    ferrite_test_kit::create(directory, "QMPB");
    ferrite_test_kit::open(directory)
}

fn queue(queue_manager: &QueueManager) -> Arc<LocalQueue> {
    let mut definition = QueueDefinition::local("PB.Q", PageSetId(1));
    definition.max_depth = MAX_DEPTH;
    queue_manager.define_queue(definition, false).unwrap()
}

/// An entry the queue manager never wrote: `storage` and `expires_at_ms` as given.
fn planted(sequence: u64, storage: MessageStorage, expires_at_ms: Option<u64>) -> MessageEntry {
    MessageEntry {
        key: MessageKey::new(0, sequence),
        storage,
        persistent: false,
        message_id: [7; 24],
        correlation_id: [0; 24],
        expires_at_ms,
        backout_count: 0,
        group: None,
    }
}

fn get(
    queue_manager: &QueueManager,
    queue: &Arc<LocalQueue>,
    unit: Option<&mut UnitOfWork>,
) -> Result<GetOutcome, ferrite_storage::StorageError> {
    queue_manager.get_with(
        unit,
        queue,
        &MessageSelector::default(),
        None,
        &GetControls::default(),
    )
}

/// The places MAXDEPTH still allows: puts until MQRC_Q_FULL (each then taken back out).
fn places_left(queue_manager: &QueueManager, queue: &Arc<LocalQueue>) -> u32 {
    let mut places = 0;
    let mut units = Vec::new();
    loop {
        let mut unit = UnitOfWork::new();
        match queue_manager.put(Some(&mut unit), queue, &MessageDescriptor::default(), b"x") {
            Ok(_) => {
                places += 1;
                units.push(unit);
            }
            Err(error) => {
                assert_eq!(error.reason_code(), 2053, "MQRC_Q_FULL: {error}");
                break;
            }
        }
    }
    for mut unit in units {
        queue_manager.backout(&mut unit).unwrap();
    }
    places
}

#[test]
fn a_corrupt_in_memory_descriptor_leaves_the_message_in_its_place() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path());
    let queue = queue(&queue_manager);
    let account = MemoryAccount::with_limit(1 << 20);
    let image = account.try_hold(b"not a message image".to_vec()).unwrap();
    queue.insert(planted(1, MessageStorage::Memory(image), None), false, 0);
    assert_eq!(places_left(&queue_manager, &queue), MAX_DEPTH - 1);
    for in_unit in [true, false] {
        let mut unit = UnitOfWork::new();
        let result = get(&queue_manager, &queue, in_unit.then_some(&mut unit));
        assert!(
            result.is_err(),
            "in unit {in_unit}: the descriptor cannot be read"
        );
        assert_eq!(queue.depth(), 1, "in unit {in_unit}: back in its place");
        assert_eq!(queue.status().uncommitted, 0, "in unit {in_unit}");
        assert_eq!(
            messages_out(&queue),
            0,
            "in unit {in_unit}: nothing was got"
        );
        assert!(unit.is_empty(), "in unit {in_unit}: the unit holds no get");
        assert_eq!(
            places_left(&queue_manager, &queue),
            MAX_DEPTH - 1,
            "in unit {in_unit}: the message keeps its one place, no more"
        );
        queue_manager.commit(&mut unit).unwrap();
        assert_eq!(
            queue.depth(),
            1,
            "in unit {in_unit}: a commit takes nothing"
        );
    }
    assert_eq!(
        account.held_bytes(),
        19 + 64,
        "the image is still held, once"
    );
}

#[test]
fn an_expired_message_whose_deletion_fails_puts_the_taken_message_back() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path());
    let queue = queue(&queue_manager);
    for in_unit in [true, false] {
        // Expired long ago, on a page that holds no message: its deletion fails.
        let nowhere = MessageLocation {
            page_set: PageSetId(1),
            page: PageNumber(200),
            offset: 0,
        };
        queue.insert(
            planted(1, MessageStorage::Pages(nowhere), Some(1)),
            false,
            0,
        );
        if queue.depth() == 1 {
            queue_manager
                .put(None, &queue, &MessageDescriptor::default(), b"live")
                .unwrap();
        }
        assert_eq!(queue.depth(), 2);
        let mut unit = UnitOfWork::new();
        let result = get(&queue_manager, &queue, in_unit.then_some(&mut unit));
        assert!(result.is_err(), "in unit {in_unit}: the deletion fails");
        // The expired message left the queue (its place with it); the live one is back.
        assert_eq!(queue.depth(), 1, "in unit {in_unit}");
        assert_eq!(queue.status().uncommitted, 0, "in unit {in_unit}");
        assert_eq!(
            messages_out(&queue),
            0,
            "in unit {in_unit}: nothing was got"
        );
        assert!(unit.is_empty(), "in unit {in_unit}");
        assert_eq!(
            places_left(&queue_manager, &queue),
            MAX_DEPTH - 1,
            "in unit {in_unit}: only the live message holds a place"
        );
    }
    let mut unit = UnitOfWork::new();
    match get(&queue_manager, &queue, Some(&mut unit)).unwrap() {
        GetOutcome::Got { message, .. } => assert_eq!(message.data.as_slice(), b"live"),
        _ => panic!("the live message is there to get"),
    }
    queue_manager.commit(&mut unit).unwrap();
    assert_eq!(messages_out(&queue), 1, "the one get");
    assert_eq!(
        (queue.depth(), places_left(&queue_manager, &queue)),
        (0, MAX_DEPTH)
    );
}

#[test]
fn a_message_left_on_the_queue_for_its_length_is_not_counted_as_got() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path());
    let queue = queue(&queue_manager);
    queue_manager
        .put(None, &queue, &MessageDescriptor::default(), b"too long")
        .unwrap();
    let places = places_left(&queue_manager, &queue);
    let short_buffer = GetControls {
        leave_if_longer_than: Some(3),
        ..GetControls::default()
    };
    for in_unit in [true, false] {
        let mut unit = UnitOfWork::new();
        let outcome = queue_manager
            .get_with(
                in_unit.then_some(&mut unit),
                &queue,
                &MessageSelector::default(),
                None,
                &short_buffer,
            )
            .unwrap();
        match outcome {
            GetOutcome::LeftOnQueue(message) => {
                assert_eq!(message.data.as_slice(), b"too long", "in unit {in_unit}")
            }
            other => panic!("in unit {in_unit}: left on the queue, not {other:?}"),
        }
        assert_eq!(
            messages_out(&queue),
            0,
            "in unit {in_unit}: nothing was got"
        );
        assert_eq!(queue.depth(), 1, "in unit {in_unit}");
        assert_eq!(queue.status().uncommitted, 0, "in unit {in_unit}");
        assert!(unit.is_empty(), "in unit {in_unit}");
        assert_eq!(
            places_left(&queue_manager, &queue),
            places,
            "in unit {in_unit}"
        );
    }
    match get(&queue_manager, &queue, None).unwrap() {
        GetOutcome::Got { message, .. } => assert_eq!(message.data.as_slice(), b"too long"),
        other => panic!("the message is there to get, not {other:?}"),
    }
    assert_eq!(messages_out(&queue), 1, "the one get");
}

/// Expired messages met together, the first of which cannot be deleted (its page holds no
/// message): the others are still deleted, by a get that meets them and by the expiry scan,
/// and the call fails with the first error.
#[test]
fn a_failed_expiry_deletion_leaves_no_other_expired_message_undeleted() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path());
    // Room for the undeletable message, two that expire and a live one.
    let mut definition = QueueDefinition::local("PB.EXPIRY", PageSetId(1));
    definition.max_depth = 4;
    let queue = queue_manager.define_queue(definition, false).unwrap();
    let reported = Arc::new(Mutex::new(Vec::new()));
    let observed = reported.clone();
    assert!(
        queue_manager.set_expiry_observer(Arc::new(move |_, _, message| {
            observed.lock().unwrap().push(message.descriptor.message_id)
        })),
        "the test's observer of deleted expired messages"
    );
    let nowhere = MessageLocation {
        page_set: PageSetId(1),
        page: PageNumber(200),
        offset: 0,
    };
    for by_get in [true, false] {
        // Priority 9: met before the others.
        let mut undeletable = planted(1, MessageStorage::Pages(nowhere), Some(1));
        undeletable.key = MessageKey::new(9, 1);
        queue.insert(undeletable, false, 0);
        let expiring = |id: u8| MessageDescriptor {
            persistent: true,
            message_id: [id; 24],
            expiry_tenths: Some(1),
            ..MessageDescriptor::default()
        };
        for id in [1, 2] {
            queue_manager
                .put(None, &queue, &expiring(id), b"expiring")
                .unwrap();
        }
        queue_manager
            .put(None, &queue, &MessageDescriptor::default(), b"live")
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(250));
        let result = if by_get {
            get(&queue_manager, &queue, None).map(|_| ())
        } else {
            queue_manager.expire_messages().map(|_| ())
        };
        assert!(result.is_err(), "by get {by_get}: the first deletion fails");
        assert_eq!(
            reported.lock().unwrap().split_off(0),
            vec![[1; 24], [2; 24]],
            "by get {by_get}: the other expired messages were deleted"
        );
        assert_eq!(queue.depth(), 1, "by get {by_get}: the live message");
        assert_eq!(
            places_left(&queue_manager, &queue),
            3,
            "by get {by_get}: only the live message holds a place"
        );
        match get(&queue_manager, &queue, None).unwrap() {
            GetOutcome::Got { message, .. } => {
                assert_eq!(message.data.as_slice(), b"live", "by get {by_get}")
            }
            other => panic!("by get {by_get}: the live message, not {other:?}"),
        }
    }
}

/// MSGSOUT (RESET QSTATS): the messages got since the queue's counters were last reset.
fn messages_out(queue: &LocalQueue) -> u64 {
    queue.statistics().messages_out
}
