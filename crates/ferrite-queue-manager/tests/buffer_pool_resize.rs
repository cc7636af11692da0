//! ALTER BUFFPOOL BUFFERS(n) on a running queue manager (`buffer_pool/resize.rs`): the pool
//! grows and shrinks while puts and gets go on, QPSTNBUF shows the new size at once, no
//! message is lost or damaged, and a crash at any step of a shrink loses nothing committed.

mod support;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_queue_manager::{MessageSelector, QueueDefinition, QueueManager, UnitOfWork};
use ferrite_storage::buffer_pool::BufferPool;
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::FileSystem;
use ferrite_storage::{BufferPoolId, PageSetId};

/// The pool the application page set (1) uses in a new queue manager's configuration.
const POOL: u8 = 1;

fn config(name: &str, buffers: u32) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::with_defaults(name);
    config.log.active_log_size_mib = 8;
    config.log.active_log_count = 3;
    for pool in &mut config.buffer_pools {
        pool.buffers = if pool.id == POOL { buffers } else { 200 };
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 2048;
        page_set.secondary_pages = 1024;
    }
    config
}

fn descriptor(tag: u32, persistent: bool) -> MessageDescriptor {
    support::tagged_descriptor(tag, persistent)
}

fn body(tag: u32) -> Vec<u8> {
    (0..1500u32)
        .map(|i| (i.wrapping_mul(31) ^ tag) as u8)
        .collect()
}

fn tag_of(message_id: &[u8; 24]) -> u32 {
    u32::from_be_bytes(message_id[..4].try_into().unwrap())
}

fn start(fs: &SimulatedFileSystem, name: &str, buffers: u32) -> Arc<QueueManager> {
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = format!("/qm/{name}");
    QueueManager::create(
        shared.clone(),
        Path::new(&directory),
        &config(name, buffers),
        &mut |_, _, _| {},
    )
    .unwrap();
    let queue_manager =
        QueueManager::open(shared, Path::new(&directory), Arc::new(|_: &str| {})).unwrap();
    queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    queue_manager
}

fn pool_buffers(queue_manager: &QueueManager) -> u64 {
    queue_manager
        .buffer_pool_statistics()
        .into_iter()
        .find(|(id, _)| *id == BufferPoolId(POOL))
        .map(|(_, statistics)| statistics.qpstnbuf)
        .unwrap()
}

fn pool(queue_manager: &QueueManager) -> Arc<BufferPool> {
    queue_manager
        .pools()
        .into_iter()
        .find(|pool| pool.id() == BufferPoolId(POOL))
        .unwrap()
}

/// Gets everything on Q, checking each message's data; returns the tags.
fn drain(queue_manager: &QueueManager) -> Vec<u32> {
    let queue = queue_manager.queue("Q").unwrap();
    let mut seen = Vec::new();
    while let Some(message) = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
    {
        let tag = tag_of(&message.descriptor.message_id);
        assert_eq!(message.data, body(tag), "message {tag} damaged");
        seen.push(tag);
    }
    seen.sort_unstable();
    seen
}

#[test]
fn the_pool_grows_and_shrinks_while_puts_and_gets_go_on() {
    let fs = SimulatedFileSystem::new(11);
    let queue_manager = start(&fs, "RESIZE1", 150);
    assert_eq!(pool_buffers(&queue_manager), 150);
    let stop = Arc::new(AtomicBool::new(false));
    // Tags put and committed, and tags got and committed, by every worker.
    let put = Arc::new(Mutex::new(Vec::new()));
    let got = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..4u32)
        .map(|worker| {
            let queue_manager = queue_manager.clone();
            let (stop, put, got) = (stop.clone(), put.clone(), got.clone());
            std::thread::spawn(move || {
                let queue = queue_manager.queue("Q").unwrap();
                let mut next = worker << 24;
                let mut round = 0u32;
                while !stop.load(Ordering::Relaxed) {
                    // Put 6 (persistent and not), get 4: the queue deepens, so the pool
                    // holds changed pages of both kinds and pages come and go.
                    let mut unit = UnitOfWork::new();
                    let mut tags = Vec::new();
                    for _ in 0..6 {
                        let persistent = !next.is_multiple_of(3);
                        queue_manager
                            .put(
                                Some(&mut unit),
                                &queue,
                                &descriptor(next, persistent),
                                &body(next),
                            )
                            .unwrap();
                        tags.push(next);
                        next += 1;
                    }
                    queue_manager.commit(&mut unit).unwrap();
                    put.lock().unwrap().extend(tags);
                    let mut unit = UnitOfWork::new();
                    let mut tags = Vec::new();
                    for _ in 0..4 {
                        if let Some(message) = queue_manager
                            .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
                            .unwrap()
                        {
                            let tag = tag_of(&message.descriptor.message_id);
                            assert_eq!(message.data, body(tag), "message {tag} damaged");
                            tags.push(tag);
                        }
                    }
                    // Every fourth unit is backed out: its messages go back to the queue.
                    round += 1;
                    if round.is_multiple_of(4) {
                        queue_manager.backout(&mut unit).unwrap();
                    } else {
                        queue_manager.commit(&mut unit).unwrap();
                        got.lock().unwrap().extend(tags);
                    }
                }
            })
        })
        .collect();
    let mut last_progress = 0;
    let mut wait_for_work = || {
        // Let the workers put a few hundred messages at each size.
        let deadline = Instant::now() + Duration::from_secs(60);
        while put.lock().unwrap().len() < last_progress + 300 {
            assert!(
                Instant::now() < deadline,
                "the workers stopped making progress"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        last_progress = put.lock().unwrap().len();
    };
    for buffers in [1_500u32, 100, 2_200, 1_100, 100, 400] {
        wait_for_work();
        let outcome = queue_manager.alter_buffer_pool(POOL, buffers).unwrap();
        assert_eq!(outcome.buffers, buffers);
        assert_eq!(pool_buffers(&queue_manager), u64::from(buffers));
        let counts = pool(&queue_manager).page_state_counts();
        let total = counts.unused
            + counts.changed_in_use
            + counts.changed_not_in_use
            + counts.unchanged_in_use
            + counts.unchanged_not_in_use;
        assert_eq!(total, u64::from(buffers), "{counts:?}");
    }
    wait_for_work();
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.join().unwrap();
    }
    let mut expected = put.lock().unwrap().clone();
    let got = got.lock().unwrap().clone();
    expected.sort_unstable();
    let mut got_sorted = got.clone();
    got_sorted.sort_unstable();
    got_sorted.dedup();
    assert_eq!(got_sorted.len(), got.len(), "a message was got twice");
    expected.retain(|tag| got_sorted.binary_search(tag).is_err());
    assert_eq!(
        drain(&queue_manager),
        expected,
        "messages lost or duplicated"
    );
    // The size restart uses is the last one set.
    queue_manager.shutdown().unwrap();
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let queue_manager =
        QueueManager::open(shared, Path::new("/qm/RESIZE1"), Arc::new(|_: &str| {})).unwrap();
    assert_eq!(pool_buffers(&queue_manager), 400);
    queue_manager.shutdown().unwrap();
}

/// Puts `count` committed messages (persistent, and every fourth not) and returns the
/// persistent tags; leaves most of their pages changed in a large pool.
fn fill(queue_manager: &QueueManager, count: u32) -> Vec<u32> {
    let queue = queue_manager.queue("Q").unwrap();
    let mut persistent = Vec::new();
    let mut unit = UnitOfWork::new();
    for tag in 0..count {
        let is_persistent = !tag.is_multiple_of(4);
        queue_manager
            .put(
                Some(&mut unit),
                &queue,
                &descriptor(tag, is_persistent),
                &body(tag),
            )
            .unwrap();
        if is_persistent {
            persistent.push(tag);
        }
        if tag % 16 == 15 {
            queue_manager.commit(&mut unit).unwrap();
        }
    }
    queue_manager.commit(&mut unit).unwrap();
    persistent
}

#[test]
fn a_shrink_writes_changed_pages_and_keeps_every_message() {
    let fs = SimulatedFileSystem::new(12);
    let queue_manager = start(&fs, "RESIZE2", 3_000);
    // Non-persistent images go to pages (not memory), so the shrink has them to write.
    queue_manager
        .data_manager()
        .space(PageSetId(1))
        .unwrap()
        .memory()
        .set_pool_buffers(0);
    fill(&queue_manager, 1_200);
    let pool = pool(&queue_manager);
    let changed_before = pool.page_state_counts().changed_not_in_use;
    assert!(changed_before > 200, "{changed_before} changed pages");
    let outcome = queue_manager.alter_buffer_pool(POOL, 100).unwrap();
    assert_eq!((outcome.buffers_before, outcome.buffers), (3_000, 100));
    assert!(outcome.pages_written > 0, "{outcome:?}");
    assert_eq!(pool.buffers(), 100);
    // Non-persistent messages survive a shrink too: their pages were written, not dropped.
    let mut all: Vec<u32> = (0..1_200).collect();
    all.sort_unstable();
    assert_eq!(drain(&queue_manager), all);
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_crash_at_any_step_of_a_shrink_loses_no_committed_message() {
    // Count the mutating file operations one shrink (and its qm.toml rewrite) makes.
    let fs = SimulatedFileSystem::new(13);
    let queue_manager = start(&fs, "RESIZE3", 1_500);
    fill(&queue_manager, 600);
    let counter = fs.count_operations(OpClass::Mutating, PathFilter::Any);
    queue_manager.alter_buffer_pool(POOL, 100).unwrap();
    let steps = counter.get();
    assert!(
        steps > 10,
        "the shrink made only {steps} mutating operations"
    );
    drop(queue_manager);
    // Then crash at each of them (every step up to 64, then every seventh).
    let mut crashes = 0;
    for step in (0..steps).filter(|step| *step < 64 || step % 7 == 0) {
        let fs = SimulatedFileSystem::new(1_000 + step);
        let queue_manager = start(&fs, "RESIZE3", 1_500);
        let persistent = fill(&queue_manager, 600);
        fs.set_crash_point(CrashPoint {
            after: step,
            class: OpClass::Mutating,
            paths: PathFilter::Any,
            effect: CrashEffect::Random,
        });
        // The shrink fails (or completes) as the file system halts; nothing is undone.
        let _ = queue_manager.alter_buffer_pool(POOL, 100);
        let shared: Arc<dyn FileSystem> = Arc::new(fs.crash_with(CrashMode::LoseAllUnsynced));
        drop(queue_manager);
        let restarted =
            QueueManager::open(shared, Path::new("/qm/RESIZE3"), Arc::new(|_: &str| {})).unwrap();
        let size = pool_buffers(&restarted);
        assert!(
            size == 1_500 || size == 100,
            "restarted with {size} buffers"
        );
        assert_eq!(
            drain(&restarted),
            persistent,
            "crash at mutating step {step} of {steps}"
        );
        restarted.shutdown().unwrap();
        crashes += 1;
    }
    assert!(crashes >= 10);
}
