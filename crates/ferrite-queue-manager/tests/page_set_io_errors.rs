//! Page set write and sync errors at the queue manager level (simulated file system): reported
//! as CSQP004E, never losing a committed message (the log holds it), retried while they are
//! transient, and stopping the queue manager cleanly when they persist, so that a restart
//! recovers everything (see `queue_manager/page_set_errors.rs`).

mod support;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_constants::reason;
use ferrite_queue_manager::queue_manager::page_set_errors::PAGE_SET_FAILED_CHECKPOINTS_MAX;
use ferrite_queue_manager::{MessageSelector, QueueDefinition, QueueManager, UnitOfWork};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::simulated::{CrashMode, PathFilter, SimulatedFileSystem};
use ferrite_storage::vfs::FileSystem;
use ferrite_storage::PageSetId;

type Lines = Arc<Mutex<Vec<String>>>;

fn config(name: &str, logload: u64) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::small(name);
    config.log.active_log_size_mib = 4;
    config.system.logload = logload;
    // Small pools: the deferred write process and synchronous writes run.
    for pool in &mut config.buffer_pools {
        pool.buffers = 100;
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 1024;
        page_set.secondary_pages = 256;
    }
    config
}

fn descriptor(tag: u32) -> MessageDescriptor {
    support::tagged_descriptor(tag, true)
}

fn body(tag: u32) -> Vec<u8> {
    (0..1800u32).map(|i| (i ^ tag) as u8).collect()
}

fn start(name: &str, seed: u64, logload: u64) -> (SimulatedFileSystem, Arc<QueueManager>, Lines) {
    let fs = SimulatedFileSystem::new(seed);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = format!("/qm/{name}");
    QueueManager::create(
        shared.clone(),
        Path::new(&directory),
        &config(name, logload),
        &mut |_, _, _| {},
    )
    .unwrap();
    let lines: Lines = Arc::default();
    let sink = lines.clone();
    let queue_manager = QueueManager::open(
        shared,
        Path::new(&directory),
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .unwrap();
    queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    (fs, queue_manager, lines)
}

/// Make the next `count` syncs of page set files (page sets and double-write files) fail.
fn fail_page_set_syncs(fs: &SimulatedFileSystem, name: &str, count: u64) {
    for n in 0..count {
        fs.fsync_error_at_matching(n, PathFilter::prefix(format!("/qm/{name}/pagesets/")));
    }
}

/// Put `count` messages from `first`, committed in units of 8. Returns the tags committed.
fn put_committed(queue_manager: &QueueManager, first: u32, count: u32) -> Vec<u32> {
    let queue = queue_manager.queue("Q").unwrap();
    let mut committed = Vec::new();
    for chunk in (first..first + count).collect::<Vec<u32>>().chunks(8) {
        let mut unit = UnitOfWork::new();
        for tag in chunk {
            queue_manager
                .put(Some(&mut unit), &queue, &descriptor(*tag), &body(*tag))
                .unwrap();
        }
        queue_manager.commit(&mut unit).unwrap();
        committed.extend_from_slice(chunk);
    }
    committed
}

/// Crash (power loss), restart, and check the queue holds exactly `expected`.
fn restart_and_check(fs: SimulatedFileSystem, name: &str, expected: &[u32]) {
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let queue_manager = QueueManager::open(
        Arc::new(after),
        Path::new(&format!("/qm/{name}")),
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    let queue = queue_manager.queue("Q").unwrap();
    let mut seen = Vec::new();
    while let Some(message) = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
    {
        let tag = u32::from_be_bytes(message.descriptor.message_id[..4].try_into().unwrap());
        assert_eq!(message.data, body(tag), "message {tag} damaged");
        seen.push(tag);
    }
    seen.sort_unstable();
    let mut expected = expected.to_vec();
    expected.sort_unstable();
    assert_eq!(seen, expected, "committed messages lost or duplicated");
    queue_manager.shutdown().unwrap();
}

fn said(lines: &Lines, prefix: &str) -> bool {
    lines
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.starts_with(prefix))
}

#[test]
fn deferred_write_errors_are_reported_and_retried_and_lose_nothing() {
    let (fs, queue_manager, lines) = start("PSERR1", 1, 1_000_000);
    fail_page_set_syncs(&fs, "PSERR1", 12);
    // 400 messages of 1.8 KiB fill a 100-buffer pool four times over: the deferred write
    // process and synchronous writes meet the failing syncs, and work goes on.
    let mut committed = put_committed(&queue_manager, 0, 400);
    assert!(
        queue_manager.page_set_write_errors() > 0,
        "no page set write failed"
    );
    assert!(said(
        &lines,
        "CSQP004E PSERR1 CSQP1DWP I/O ERROR, BUFFER POOL"
    ));
    // Gets in units of work go on too.
    let queue = queue_manager.queue("Q").unwrap();
    let mut unit = UnitOfWork::new();
    for _ in 0..50 {
        let message = queue_manager
            .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
            .unwrap()
            .unwrap();
        let tag = u32::from_be_bytes(message.descriptor.message_id[..4].try_into().unwrap());
        committed.retain(|other| *other != tag);
    }
    queue_manager.commit(&mut unit).unwrap();
    // Once the faults are spent, a checkpoint completes.
    let deadline = Instant::now() + Duration::from_secs(30);
    while queue_manager.checkpoint().is_err() {
        assert!(Instant::now() < deadline, "checkpoints keep failing");
    }
    restart_and_check(fs, "PSERR1", &committed);
}

#[test]
fn a_checkpoint_whose_page_writes_fail_leaves_the_queue_manager_running() {
    let (fs, queue_manager, lines) = start("PSERR2", 2, 1_000_000);
    let mut committed = put_committed(&queue_manager, 0, 60);
    fail_page_set_syncs(&fs, "PSERR2", 2);
    let error = queue_manager.checkpoint().unwrap_err();
    assert!(error.to_string().contains("pagesets"), "{error}");
    assert!(said(&lines, "CSQP004E PSERR2"));
    // Work continues, and the next checkpoint writes the pages.
    committed.extend(put_committed(&queue_manager, 1000, 40));
    let deadline = Instant::now() + Duration::from_secs(30);
    while queue_manager.checkpoint().is_err() {
        assert!(Instant::now() < deadline, "checkpoints keep failing");
    }
    committed.extend(put_committed(&queue_manager, 2000, 8));
    restart_and_check(fs, "PSERR2", &committed);
}

#[test]
fn persistent_page_set_failures_stop_the_queue_manager_cleanly() {
    // LOGLOAD 200 (the least): the checkpoint task takes a checkpoint every ~200 log records.
    let (fs, queue_manager, lines) = start("PSERR3", 3, 200);
    let mut committed = put_committed(&queue_manager, 0, 40);
    fail_page_set_syncs(&fs, "PSERR3", 1_000_000);
    let queue = queue_manager.queue("Q").unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut tag = 10_000u32;
    let mut refused = 0u32;
    let refusal = loop {
        assert!(Instant::now() < deadline, "the queue manager never stopped");
        let mut unit = UnitOfWork::new();
        let put = queue_manager.put(Some(&mut unit), &queue, &descriptor(tag), &body(tag));
        let result = put.and_then(|_| queue_manager.commit(&mut unit));
        // Checkpoints come every LOGLOAD records from the checkpoint task; ask for more, so
        // the test does not depend on how fast a busy machine reaches LOGLOAD.
        if tag.is_multiple_of(16) {
            let _ = queue_manager.checkpoint();
        }
        match result {
            Ok(()) => committed.push(tag),
            // A put that needs a buffer when no changed page can be written is refused
            // (MQRC_RESOURCE_PROBLEM) until the queue manager stops.
            Err(error) if error.reason_code() == reason::MQRC_RESOURCE_PROBLEM => {
                let _ = queue_manager.backout(&mut unit);
                refused += 1;
            }
            Err(error) => break error,
        }
        tag += 1;
    };
    assert_eq!(
        refusal.reason_code(),
        reason::MQRC_Q_MGR_NOT_AVAILABLE,
        "{refusal}"
    );
    eprintln!(
        "{} puts committed, {refused} refused before the stop",
        committed.len()
    );
    let lines_now = lines.lock().unwrap().clone();
    assert!(
        lines_now.iter().any(|line| line.starts_with("CSQP004E")
            && line.contains(&format!(
                "FAILED AT {PAGE_SET_FAILED_CHECKPOINTS_MAX} CHECKPOINTS IN A ROW"
            ))),
        "{lines_now:?}"
    );
    drop(queue_manager);
    restart_and_check(fs, "PSERR3", &committed);
}
