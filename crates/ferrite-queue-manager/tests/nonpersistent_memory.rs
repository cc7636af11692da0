//! Non-persistent messages held in memory beside their queue entries (data_manager/memory.rs):
//! the limit derived from the buffer pool, spilling to pages and back, restart, backout,
//! expiry, and the memory given back in every way a message leaves.

mod support;

use std::path::Path;
use std::sync::Arc;

use ferrite_queue_manager::{
    MessageData, MessageSelector, QueueDefinition, QueueManager, UnitOfWork,
};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::data_manager::memory::{
    image_buffers_held_by_this_thread, IMAGE_OVERHEAD_BYTES, NONPERSISTENT_MEMORY_PERCENT_OF_POOL,
};
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::RealFileSystem;
use ferrite_storage::PageSetId;

const POOL_BUFFERS: u32 = 200;

fn config(name: &str) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::with_defaults(name);
    config.log.active_log_size_mib = 1;
    config.log.active_log_count = 3;
    config.log.outbuff_kib = 256;
    for pool in &mut config.buffer_pools {
        pool.buffers = POOL_BUFFERS;
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 512;
        page_set.secondary_pages = 512;
    }
    config
}

fn open(directory: &Path, name: &str) -> Arc<QueueManager> {
    if !QueueManager::exists(&RealFileSystem, directory) {
        ferrite_test_kit::create_with(directory, &config(name));
    }
    ferrite_test_kit::open(directory)
}

fn descriptor(persistent: bool, tag: u32) -> MessageDescriptor {
    support::tagged_descriptor(tag, persistent)
}

fn body(tag: u32, length: usize) -> Vec<u8> {
    (0..length).map(|i| (tag as usize * 31 + i) as u8).collect()
}

/// (bytes held, limit) of page set 1's buffer pool.
fn memory(queue_manager: &QueueManager) -> (u64, u64) {
    let space = queue_manager.data_manager().space(PageSetId(1)).unwrap();
    (space.memory().held_bytes(), space.memory().limit_bytes())
}

#[test]
fn the_limit_is_a_share_of_the_buffer_pool_and_a_deep_queue_spills_to_pages_and_back() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP1");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    let (_, limit) = memory(&queue_manager);
    assert_eq!(
        limit,
        POOL_BUFFERS as u64 * 4096 * NONPERSISTENT_MEMORY_PERCENT_OF_POOL / 100
    );
    let length = 10_000;
    let messages = 3 * limit as usize / length;
    for tag in 0..messages as u32 {
        queue_manager
            .put(None, &queue, &descriptor(false, tag), &body(tag, length))
            .unwrap();
        assert!(memory(&queue_manager).0 <= limit, "the limit holds");
    }
    let in_memory = queue.messages_in_memory();
    // Each image is the data, its descriptor (well under 1 KiB) and the counted overhead.
    assert!(in_memory <= limit / (length as u64 + IMAGE_OVERHEAD_BYTES));
    assert!(
        in_memory >= limit / (length as u64 + 1024),
        "{in_memory} in memory"
    );
    assert_eq!(queue.depth(), messages as u64, "the rest went to pages");
    let (pages, unused) = queue_manager
        .data_manager()
        .space(PageSetId(1))
        .unwrap()
        .usage();
    assert!(pages - unused > 0, "spilled messages use pages");

    // Drain half: FIFO across memory and pages; the memory comes back as the memory
    // messages go, and the next puts are held in memory again.
    for tag in 0..messages as u32 / 2 {
        let message = queue_manager
            .get(None, &queue, &MessageSelector::default(), None)
            .unwrap()
            .expect("a message");
        assert_eq!(message.descriptor.message_id[..4], tag.to_be_bytes());
        assert_eq!(message.data, body(tag, length));
    }
    assert_eq!(memory(&queue_manager).0, 0, "every memory message was got");
    let tag = messages as u32;
    queue_manager
        .put(None, &queue, &descriptor(false, tag), &body(tag, length))
        .unwrap();
    assert_eq!(queue.messages_in_memory(), 1, "back in memory");
    for tag in messages as u32 / 2..=messages as u32 {
        let message = queue_manager
            .get(None, &queue, &MessageSelector::default(), None)
            .unwrap()
            .expect("a message");
        assert_eq!(message.descriptor.message_id[..4], tag.to_be_bytes());
        assert_eq!(message.data, body(tag, length));
    }
    assert_eq!(queue.depth(), 0);
    assert_eq!(memory(&queue_manager).0, 0);
    queue_manager.shutdown().unwrap();
}

#[test]
fn restart_discards_in_memory_and_spilled_messages_and_keeps_persistent_ones() {
    let directory = tempfile::tempdir().unwrap();
    {
        let queue_manager = open(directory.path(), "QMNP2");
        let queue = queue_manager
            .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
            .unwrap();
        let (_, limit) = memory(&queue_manager);
        let length = 30_000;
        let count = 2 * limit as usize / length;
        for tag in 0..count as u32 {
            queue_manager
                .put(None, &queue, &descriptor(false, tag), &body(tag, length))
                .unwrap();
        }
        let mut unit = UnitOfWork::new();
        queue_manager
            .put(Some(&mut unit), &queue, &descriptor(true, 1000), b"kept")
            .unwrap();
        queue_manager.commit(&mut unit).unwrap();
        assert!(queue.messages_in_memory() > 0);
        assert!(queue.messages_in_memory() < count as u64, "some spilled");
        queue_manager.shutdown().unwrap();
    }
    let queue_manager = open(directory.path(), "QMNP2");
    let queue = queue_manager.queue("NP.Q").unwrap();
    assert_eq!(queue.depth(), 1, "only the persistent message survives");
    let message = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(message.data, b"kept");
    queue_manager.shutdown().unwrap();
}

#[test]
fn uncommitted_in_memory_puts_are_invisible_and_backout_gives_the_memory_back() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP3");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    let mut unit = UnitOfWork::new();
    queue_manager
        .put(Some(&mut unit), &queue, &descriptor(false, 1), b"one")
        .unwrap();
    assert!(memory(&queue_manager).0 > 0, "held while uncommitted");
    assert!(queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
        .is_none());
    assert_eq!(queue.status().current_depth, 1);
    queue_manager.backout(&mut unit).unwrap();
    assert_eq!(queue.status().current_depth, 0);
    assert_eq!(
        memory(&queue_manager).0,
        0,
        "a backed-out put frees its image"
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_backed_out_get_returns_the_in_memory_message_with_its_backout_count() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP4");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    queue_manager
        .put(None, &queue, &descriptor(false, 7), b"seven")
        .unwrap();
    assert_eq!(queue.messages_in_memory(), 1);
    for expected_count in 0..3u16 {
        let mut unit = UnitOfWork::new();
        let message = queue_manager
            .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
            .unwrap()
            .unwrap();
        assert_eq!(message.backout_count, expected_count);
        assert_eq!(message.data, b"seven");
        assert!(memory(&queue_manager).0 > 0, "the unit keeps the image");
        queue_manager.backout(&mut unit).unwrap();
    }
    // Browsing sees the count too; a committed get frees the image.
    let browsed = queue_manager
        .browse(&queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(browsed.backout_count, 3);
    assert_eq!(browsed.data, b"seven");
    let mut unit = UnitOfWork::new();
    let message = queue_manager
        .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(message.backout_count, 3);
    queue_manager.commit(&mut unit).unwrap();
    // The got data is read in place from the image: it is the image's last holder.
    drop(message);
    assert_eq!(memory(&queue_manager).0, 0);
    assert_eq!(queue.depth(), 0);
    queue_manager.shutdown().unwrap();
}

#[test]
fn in_memory_messages_expire_at_get_and_in_the_scan_and_clear_frees_them() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP5");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    let now = ferrite_queue_manager::now_ms();
    for tag in 0..10u32 {
        let mut descriptor = descriptor(false, tag);
        descriptor.put_time_ms = now;
        // Even messages expire after 0.1 s; odd ones never.
        descriptor.expiry_tenths = (tag % 2 == 0).then_some(1);
        queue_manager.put(None, &queue, &descriptor, b"x").unwrap();
    }
    assert_eq!(queue.messages_in_memory(), 10);
    std::thread::sleep(std::time::Duration::from_millis(150));
    // At get: the first message has expired and is skipped.
    let first = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(first.descriptor.message_id[..4], 1u32.to_be_bytes());
    // Its data is read in place from its image, which it holds until dropped.
    drop(first);
    // The scan takes the other expired ones (those the get passed over are already gone).
    let scanned = queue_manager.expire_messages().unwrap();
    assert!(scanned <= 4);
    assert_eq!(queue.depth(), 4);
    assert_eq!(queue.messages_in_memory(), 4);
    assert_eq!(queue_manager.clear_queue(&queue).unwrap(), 4);
    assert_eq!(
        memory(&queue_manager).0,
        0,
        "expiry and CLEAR free the images"
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn alter_buffpool_moves_the_limit_of_its_page_sets() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP9");
    let pool = queue_manager
        .data_manager()
        .space(PageSetId(1))
        .unwrap()
        .pool
        .id()
        .0;
    queue_manager.alter_buffer_pool(pool, 400).unwrap();
    assert_eq!(
        memory(&queue_manager).1,
        400 * 4096 * NONPERSISTENT_MEMORY_PERCENT_OF_POOL / 100,
        "a grown pool holds more in memory"
    );
    queue_manager.alter_buffer_pool(pool, 100).unwrap();
    assert_eq!(
        memory(&queue_manager).1,
        100 * 4096 * NONPERSISTENT_MEMORY_PERCENT_OF_POOL / 100,
        "a shrunk pool holds less"
    );
}

/// Image buffers are recycled (data_manager/memory.rs): a got message's data is read in place
/// from its image, so a buffer must never serve a new message while a unit of work (for a
/// backout) or the getter's data still reads the old one.
#[test]
fn a_recycled_image_buffer_never_serves_a_message_still_being_read() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP7");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    let any = MessageSelector::default();
    // Put, get in a unit of work, and commit many times over on one thread: every image
    // after the first few is a recycled buffer.
    let mut got_and_kept = Vec::new();
    let mut puts_in_a_recycled_buffer = 0;
    for tag in 0..500u32 {
        let mut unit = UnitOfWork::new();
        let free_before_put = image_buffers_held_by_this_thread();
        queue_manager
            .put(
                Some(&mut unit),
                &queue,
                &descriptor(false, tag),
                &body(tag, 1000),
            )
            .unwrap();
        // The put's image took a free buffer of this thread's (the one the last message's
        // data gave back when it was dropped), unless that message's data is still kept.
        if image_buffers_held_by_this_thread() < free_before_put {
            puts_in_a_recycled_buffer += 1;
        }
        queue_manager.commit(&mut unit).unwrap();
        let message = queue_manager
            .get(Some(&mut unit), &queue, &any, None)
            .unwrap()
            .expect("the committed message");
        assert_eq!(message.data, body(tag, 1000), "message {tag}");
        if tag % 7 == 0 {
            // Backed out: the unit gave the image back to the queue, bytes intact.
            queue_manager.backout(&mut unit).unwrap();
            let again = queue_manager
                .get(Some(&mut unit), &queue, &any, None)
                .unwrap()
                .expect("the backed-out message");
            assert_eq!(again.data, body(tag, 1000), "message {tag} after backout");
            assert_eq!(again.backout_count, 1);
        }
        queue_manager.commit(&mut unit).unwrap();
        // The getter still holds this data after the commit: it keeps its image.
        if tag % 10 == 0 {
            got_and_kept.push((tag, message));
        }
    }
    assert!(
        puts_in_a_recycled_buffer >= 400,
        "recycling took part: {puts_in_a_recycled_buffer} of 500 puts reused a buffer"
    );
    for (tag, message) in &got_and_kept {
        assert_eq!(message.data, body(*tag, 1000), "kept message {tag} changed");
    }
    assert!(memory(&queue_manager).0 > 0, "kept data holds its images");
    drop(got_and_kept);
    assert_eq!(memory(&queue_manager).0, 0, "every image was given back");
}

/// A connection committing every message keeps one spare reference to the queue in its unit
/// of work (unit_of_work.rs; its unit test checks that the spare is reused): the references
/// do not pile up, and the unit gives its one back when it ends.
#[test]
fn committing_every_message_leaves_the_queue_reference_count_alone() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP8");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    let any = MessageSelector::default();
    let mut unit = UnitOfWork::new();
    let mut counts = Vec::new();
    for tag in 0..5u32 {
        queue_manager
            .put(Some(&mut unit), &queue, &descriptor(false, tag), b"m")
            .unwrap();
        queue_manager.commit(&mut unit).unwrap();
        let got = queue_manager
            .get(Some(&mut unit), &queue, &any, None)
            .unwrap();
        assert_eq!(got.expect("committed").data, b"m");
        queue_manager.commit(&mut unit).unwrap();
        counts.push(Arc::strong_count(&queue));
    }
    assert!(
        counts.windows(2).all(|pair| pair[0] == pair[1]),
        "{counts:?}"
    );
    drop(unit);
    assert_eq!(
        Arc::strong_count(&queue),
        counts[0] - 1,
        "the unit held one"
    );
}

/// A unit of work keeps no spare reference to a deleted queue: a temporary dynamic queue
/// deleted while another unit has an uncommitted put on it (a server's reply to a requester
/// that has gone) goes, with the message committed into it, when that unit commits.
#[test]
fn a_commit_keeps_no_reference_to_a_deleted_temporary_queue() {
    use ferrite_queue_manager::DefinitionType;
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP9");
    let queue = queue_manager
        .define_queue(
            QueueDefinition {
                definition_type: DefinitionType::TemporaryDynamic,
                ..QueueDefinition::local("AMQ.TEMP.REPLY", PageSetId(1))
            },
            false,
        )
        .unwrap();
    let mut unit = UnitOfWork::new();
    queue_manager
        .put(
            Some(&mut unit),
            &queue,
            &descriptor(false, 1),
            &body(1, 1000),
        )
        .unwrap();
    queue_manager.delete_temporary_queue(&queue).unwrap();
    queue_manager.commit(&mut unit).unwrap();
    assert_eq!(
        Arc::strong_count(&queue),
        1,
        "only this test holds the deleted queue"
    );
    drop(queue);
    assert_eq!(
        memory(&queue_manager).0,
        0,
        "the message committed into the deleted queue went with it"
    );
}

/// The limit charges what an image really holds: the capacity of its buffer. Messages of mixed
/// sizes, put after recycled buffers of other sizes were freed, are each charged their
/// buffer's capacity, and no buffer is more than twice what its image asked for (a recycled
/// one that large is not reused for it).
#[test]
fn mixed_sizes_are_charged_their_buffers_capacity_within_twice_their_size() {
    let directory = tempfile::tempdir().unwrap();
    let queue_manager = open(directory.path(), "QMNP9");
    let queue = queue_manager
        .define_queue(QueueDefinition::local("NP.Q", PageSetId(1)), false)
        .unwrap();
    let any = MessageSelector::default();
    let sizes = [15_000, 30, 9_000, 100, 4_000, 700, 50, 2_500];
    let mut tag = 0u32;
    for round in 0..4 {
        // Put one of each size (the first round in new buffers, the later ones in the
        // buffers the previous round's messages gave back, where they fit).
        for (index, &length) in sizes.iter().enumerate() {
            let length = length + round * 7 + index;
            tag += 1;
            queue_manager
                .put(None, &queue, &descriptor(false, tag), &body(tag, length))
                .unwrap();
        }
        // Got in a unit of work: the unit and the data hold every image, none is freed.
        let mut unit = UnitOfWork::new();
        let mut got = Vec::new();
        while let Some(message) = queue_manager
            .get(Some(&mut unit), &queue, &any, None)
            .unwrap()
        {
            got.push(message);
        }
        assert_eq!(got.len(), sizes.len());
        let mut charged = 0u64;
        for message in &got {
            let MessageData::Shared { image, .. } = &message.data else {
                panic!("every message fits in memory")
            };
            // The put asked for the image's length plus at most 112 bytes of room for its
            // fixed fields; a buffer serves it only up to twice that.
            assert!(
                image.capacity() <= 2 * (image.bytes().len() + 112),
                "round {round}: a {} byte image in a {} byte buffer",
                image.bytes().len(),
                image.capacity()
            );
            charged += image.capacity() as u64 + IMAGE_OVERHEAD_BYTES;
        }
        assert_eq!(
            memory(&queue_manager).0,
            charged,
            "round {round}: the held bytes are the capacities of the buffers held"
        );
        queue_manager.commit(&mut unit).unwrap();
        drop(got);
        assert_eq!(memory(&queue_manager).0, 0);
    }
}
