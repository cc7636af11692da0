//! The storage engine through the queue manager facade: durability across clean and dirty
//! restarts, units of recovery, in-doubt resolution, page set limits, log volume.

mod support;

use std::path::Path;
use std::sync::{Arc, Mutex};

use ferrite_queue_manager::{
    LocalQueue, MessageSelector, QueueDefinition, QueueManager, UnitOfWork,
};
use ferrite_storage::config::{Expand, QueueManagerConfig};
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::simulated::{CrashMode, SimulatedFileSystem};
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::{PageSetId, StorageError};

fn quiet() -> Sink {
    Arc::new(|_line: &str| {})
}

type Sink = Arc<dyn Fn(&str) + Send + Sync>;

fn recording() -> (Sink, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    (
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
        lines,
    )
}

fn create(fs: Arc<dyn FileSystem>, directory: &Path, config: &QueueManagerConfig) {
    QueueManager::create(fs, directory, config, &mut |_, _, _| {}).unwrap();
}

fn descriptor(persistent: bool, tag: u32) -> MessageDescriptor {
    support::tagged_descriptor(tag, persistent)
}

fn drain(queue_manager: &QueueManager, queue: &str) -> Vec<Vec<u8>> {
    let queue = queue_manager.queue(queue).expect("queue exists");
    let mut out = Vec::new();
    while let Some(message) = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
    {
        out.push(message.data.into_vec());
    }
    out
}

#[test]
fn persistent_messages_survive_clean_restart_and_nonpersistent_do_not() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    create(
        fs.clone(),
        directory.path(),
        &QueueManagerConfig::small("QM1"),
    );
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        let queue = queue_manager
            .define_queue(QueueDefinition::local("APP.Q", PageSetId(1)), false)
            .unwrap();
        let mut unit = UnitOfWork::new();
        for i in 0..50u32 {
            let persistent = i % 2 == 0;
            let data = format!("message {i}").into_bytes();
            if i < 25 {
                queue_manager
                    .put(None, &queue, &descriptor(persistent, i), &data)
                    .unwrap();
            } else {
                queue_manager
                    .put(Some(&mut unit), &queue, &descriptor(persistent, i), &data)
                    .unwrap();
            }
        }
        queue_manager.commit(&mut unit).unwrap();
        // An uncommitted put is never visible after restart.
        let mut open_unit = UnitOfWork::new();
        queue_manager
            .put(
                Some(&mut open_unit),
                &queue,
                &descriptor(true, 999),
                b"uncommitted",
            )
            .unwrap();
        queue_manager.shutdown().unwrap();
    }
    let (sink, lines) = recording();
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), sink).unwrap();
    let got = drain(&queue_manager, "APP.Q");
    let expected: Vec<Vec<u8>> = (0..50u32)
        .filter(|i| i % 2 == 0)
        .map(|i| format!("message {i}").into_bytes())
        .collect();
    assert_eq!(got, expected);
    let lines = lines.lock().unwrap().clone();
    for id in [
        "CSQR001I", "CSQR004I", "CSQR030I", "CSQR005I", "CSQR006I", "CSQR002I",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(id)),
            "missing {id} in {lines:?}"
        );
    }
    queue_manager.shutdown().unwrap();
}

#[test]
fn large_messages_span_pages_and_restart() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    create(
        fs.clone(),
        directory.path(),
        &QueueManagerConfig::small("QM2"),
    );
    let sizes = [0usize, 1, 4000, 4036, 4037, 10_000, 100_000, 300_000];
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        let queue = queue_manager
            .define_queue(QueueDefinition::local("BIG", PageSetId(2)), false)
            .unwrap();
        for (i, size) in sizes.iter().enumerate() {
            let data: Vec<u8> = (0..*size).map(|b| (b * 7 + i) as u8).collect();
            queue_manager
                .put(None, &queue, &descriptor(true, i as u32), &data)
                .unwrap();
        }
        // No clean shutdown: the buffer pools are not flushed, so restart must redo from the log.
        drop(queue_manager);
    }
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let got = drain(&queue_manager, "BIG");
    assert_eq!(got.len(), sizes.len());
    for (i, (data, size)) in got.iter().zip(sizes).enumerate() {
        let expected: Vec<u8> = (0..size).map(|b| (b * 7 + i) as u8).collect();
        assert_eq!(data, &expected, "message {i} of {size} bytes");
    }
    queue_manager.shutdown().unwrap();
}

/// Persistent messages larger than an active log (1 MiB logs): their PUT records span log
/// switches, and survive a dirty restart; an uncommitted one held over a checkpoint is backed
/// out. (Before records could span active logs these puts failed with 2195.)
#[test]
fn messages_larger_than_an_active_log_are_logged_across_switches() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QMSPAN");
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 2048;
    }
    create(fs.clone(), directory.path(), &config);
    let body = |tag: u32, size: usize| -> Vec<u8> {
        (0..size)
            .map(|b| (b as u32 * 31 + tag) as u8)
            .collect::<Vec<u8>>()
    };
    let sizes = [1024 * 1024, 3 * 1024 * 1024 + 5, 1024 * 1024 - 100];
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        let queue = queue_manager
            .define_queue(QueueDefinition::local("BIG", PageSetId(1)), false)
            .unwrap();
        // Out of syncpoint, then in a committed unit.
        queue_manager
            .put(None, &queue, &descriptor(true, 0), &body(0, sizes[0]))
            .unwrap();
        let mut unit = UnitOfWork::new();
        for (tag, size) in sizes.iter().enumerate().skip(1) {
            queue_manager
                .put(
                    Some(&mut unit),
                    &queue,
                    &descriptor(true, tag as u32),
                    &body(tag as u32, *size),
                )
                .unwrap();
        }
        queue_manager.commit(&mut unit).unwrap();
        // An uncommitted 1 MiB put over a checkpoint (whose record carries the unit).
        let mut open_unit = UnitOfWork::new();
        queue_manager
            .put(
                Some(&mut open_unit),
                &queue,
                &descriptor(true, 99),
                &body(99, 1024 * 1024),
            )
            .unwrap();
        queue_manager.checkpoint().unwrap();
        assert!(queue_manager.log_statistics().active_log_switches >= 5);
        // No clean shutdown: restart redoes from the log and backs the open unit out.
        drop(queue_manager);
        drop(open_unit);
    }
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let got = drain(&queue_manager, "BIG");
    assert_eq!(got.len(), sizes.len());
    for (tag, (data, size)) in got.iter().zip(sizes).enumerate() {
        assert!(
            *data == body(tag as u32, size),
            "message {tag} of {size} bytes damaged"
        );
    }
    queue_manager.shutdown().unwrap();
}

#[test]
fn backout_restores_messages_with_backout_count_across_restart() {
    let fs = SimulatedFileSystem::new(7);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/QM3");
    create(shared.clone(), directory, &QueueManagerConfig::small("QM3"));
    let queue_manager = QueueManager::open(shared.clone(), directory, quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    queue_manager
        .put(None, &queue, &descriptor(true, 1), b"one")
        .unwrap();
    let mut unit = UnitOfWork::new();
    let got = queue_manager
        .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(got.backout_count, 0);
    queue_manager.backout(&mut unit).unwrap();
    let again = queue_manager
        .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(again.backout_count, 1);
    queue_manager.backout(&mut unit).unwrap();
    // Power loss after the backouts (which are not forced): force something else first.
    queue_manager
        .put(None, &queue, &descriptor(true, 2), b"two")
        .unwrap();
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    drop(queue_manager);
    let queue_manager = QueueManager::open(Arc::new(after), directory, quiet()).unwrap();
    let queue = queue_manager.queue("Q").unwrap();
    let first = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(first.data, b"one");
    assert_eq!(first.backout_count, 2);
    assert_eq!(
        queue_manager
            .get(None, &queue, &MessageSelector::default(), None)
            .unwrap()
            .unwrap()
            .data,
        b"two"
    );
}

#[test]
fn in_doubt_unit_stays_locked_until_resolved() {
    let fs = SimulatedFileSystem::new(11);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/QM4");
    create(shared.clone(), directory, &QueueManagerConfig::small("QM4"));
    let queue_manager = QueueManager::open(shared, directory, quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    // No message id: restart must lock it for the in-doubt unit without looking it up by id.
    let anonymous = MessageDescriptor {
        persistent: true,
        ..MessageDescriptor::default()
    };
    queue_manager
        .put(None, &queue, &anonymous, b"got by the in-doubt unit")
        .unwrap();
    let mut unit = UnitOfWork::new();
    queue_manager
        .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    queue_manager
        .put(
            Some(&mut unit),
            &queue,
            &descriptor(true, 2),
            b"put by the in-doubt unit",
        )
        .unwrap();
    queue_manager.prepare(&mut unit).unwrap();
    let urid = unit.urid().unwrap();
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    drop(queue_manager);

    let (sink, lines) = recording();
    let restarted = QueueManager::open(Arc::new(after.clone()), directory, sink).unwrap();
    assert!(lines
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.contains("INDOUBT=1")));
    assert_eq!(restarted.in_doubt_units(), vec![urid]);
    let queue = restarted.queue("Q").unwrap();
    assert!(
        restarted
            .get(None, &queue, &MessageSelector::default(), None)
            .unwrap()
            .is_none(),
        "both messages are locked"
    );
    // Still in doubt after another restart.
    restarted.checkpoint().unwrap();
    let again = after.crash_with(CrashMode::LoseAllUnsynced);
    drop(restarted);
    let restarted = QueueManager::open(Arc::new(again), directory, quiet()).unwrap();
    assert_eq!(restarted.in_doubt_units(), vec![urid]);
    restarted.resolve_in_doubt(urid, true).unwrap();
    assert_eq!(
        drain(&restarted, "Q"),
        vec![b"put by the in-doubt unit".to_vec()]
    );
}

/// A queue manager whose page set 3 has 64 pages and cannot expand, with queue FULL on it.
fn small_page_set_without_expansion() -> (
    tempfile::TempDir,
    Arc<dyn FileSystem>,
    Arc<QueueManager>,
    Arc<LocalQueue>,
) {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QM5");
    config.page_sets[3].expand = Expand::None;
    config.page_sets[3].primary_pages = 64;
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("FULL", PageSetId(3)), false)
        .unwrap();
    (directory, fs, queue_manager, queue)
}

#[test]
fn full_page_set_gives_2192_and_loses_nothing() {
    let (directory, fs, queue_manager, queue) = small_page_set_without_expansion();
    let data = vec![0xAB; 3000];
    let mut stored = 0u32;
    let error = loop {
        match queue_manager.put(None, &queue, &descriptor(true, stored), &data) {
            Ok(_) => stored += 1,
            Err(error) => break error,
        }
        assert!(
            stored < 1000,
            "a 64-page page set cannot hold 1000 messages"
        );
    };
    assert!(
        matches!(error, StorageError::StorageMediumFull { .. }),
        "{error}"
    );
    assert_eq!(error.reason_code(), 2192);
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    assert_eq!(drain(&queue_manager, "FULL").len(), stored as usize);
}

/// A long message the page set has no room for fails with 2192 and gives back every page it
/// had taken (its continuation pages are allocated together): exactly as many one-page
/// messages fit afterwards as pages were free before it.
#[test]
fn a_long_message_that_does_not_fit_gives_its_pages_back() {
    let (directory, fs, queue_manager, queue) = small_page_set_without_expansion();
    let one_page = vec![0xAB; 3000];
    let fill = |first_tag: u32| {
        let mut stored = 0u32;
        loop {
            match queue_manager.put(
                None,
                &queue,
                &descriptor(true, first_tag + stored),
                &one_page,
            ) {
                Ok(_) => stored += 1,
                Err(error) => {
                    assert_eq!(error.reason_code(), 2192, "{error}");
                    return stored;
                }
            }
            assert!(
                stored < 1000,
                "a 64-page page set cannot hold 1000 messages"
            );
        }
    };
    let stored = fill(0);
    const FREED: u32 = 10;
    for _ in 0..FREED {
        let got = queue_manager
            .get(None, &queue, &MessageSelector::default(), None)
            .unwrap();
        assert!(got.is_some());
    }
    // Twice the pages just freed: it takes them all and still fails.
    let long = vec![0xCD; 2 * FREED as usize * 4096];
    let error = queue_manager
        .put(None, &queue, &descriptor(true, 5000), &long)
        .unwrap_err();
    assert_eq!(error.reason_code(), 2192, "{error}");
    assert_eq!(
        fill(10_000),
        FREED,
        "pages the failed put took were not given back"
    );
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    assert_eq!(drain(&queue_manager, "FULL").len(), stored as usize);
}

/// A message's bytes, from its tag: a long one spans continuation pages, a short one packs.
fn tagged_message(tag: u32) -> Vec<u8> {
    let length = match tag % 4 {
        0 => 100,
        1 => 5_000,
        2 => 20_000,
        _ => 70_000,
    };
    let mut bytes: Vec<u8> = (0..length)
        .map(|i| (i as u32 ^ tag.wrapping_mul(2_654_435_761)) as u8)
        .collect();
    bytes[..4].copy_from_slice(&tag.to_be_bytes());
    bytes
}

fn check_tagged(bytes: &[u8]) -> u32 {
    let tag = u32::from_be_bytes(bytes[..4].try_into().unwrap());
    assert!(
        bytes == tagged_message(tag),
        "message {tag} came back changed"
    );
    tag
}

/// Long messages are put into one page set by many threads at once (each outside the
/// placement lock once its pages are its own) while short ones pack and getters free pages:
/// every message comes back whole, once, before and after a restart.
#[test]
fn long_and_short_messages_put_in_parallel_keep_their_bytes() {
    const PUTTERS: u32 = 6;
    const PER_PUTTER: u32 = 120;
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let config = QueueManagerConfig::small("QMPAR");
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("PAR", PageSetId(1)), false)
        .unwrap();
    let got = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for putter in 0..PUTTERS {
            let (queue_manager, queue) = (&queue_manager, &queue);
            scope.spawn(move || {
                for index in 0..PER_PUTTER {
                    let tag = putter * PER_PUTTER + index;
                    let mut unit = UnitOfWork::new();
                    queue_manager
                        .put(
                            Some(&mut unit),
                            queue,
                            &descriptor(true, tag),
                            &tagged_message(tag),
                        )
                        .unwrap();
                    queue_manager.commit(&mut unit).unwrap();
                }
            });
        }
        for _ in 0..2 {
            let (queue_manager, queue, got) = (&queue_manager, &queue, &got);
            scope.spawn(move || {
                for _ in 0..PUTTERS * PER_PUTTER / 4 {
                    let message = queue_manager
                        .get(
                            None,
                            queue,
                            &MessageSelector::default(),
                            Some(std::time::Duration::from_secs(30)),
                        )
                        .unwrap()
                        .expect("a message within 30 s");
                    got.lock()
                        .unwrap()
                        .push(check_tagged(&message.data.into_vec()));
                }
            });
        }
    });
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    let mut tags = got.into_inner().unwrap();
    tags.extend(
        drain(&queue_manager, "PAR")
            .iter()
            .map(|bytes| check_tagged(bytes)),
    );
    tags.sort_unstable();
    assert_eq!(tags, (0..PUTTERS * PER_PUTTER).collect::<Vec<_>>());
}

#[test]
fn page_set_expands_when_ninety_percent_full() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QM6");
    config.page_sets[2].expand = Expand::User;
    config.page_sets[2].primary_pages = 64;
    config.page_sets[2].secondary_pages = 64;
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("GROW", PageSetId(2)), false)
        .unwrap();
    for i in 0..200u32 {
        queue_manager
            .put(None, &queue, &descriptor(true, i), &vec![1u8; 3500])
            .unwrap();
    }
    let space = queue_manager.data_manager().space(PageSetId(2)).unwrap();
    assert!(space.expansions_this_run() > 0, "page set 2 did not expand");
    assert!(
        space.usage().0 > 64,
        "page set 2 has {} pages",
        space.usage().0
    );
    queue_manager.shutdown().unwrap();
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    assert_eq!(drain(&queue_manager, "GROW").len(), 200);
}

#[test]
fn log_bytes_per_operation_beat_mp16() {
    // MP16's table: 1 KiB persistent put+commit 2,088 bytes, get+commit 492 bytes.
    // Goals: at most 1,300 and 200.
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    create(
        fs.clone(),
        directory.path(),
        &QueueManagerConfig::small("QM7"),
    );
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("LOGQ", PageSetId(1)), false)
        .unwrap();
    let count = 100u64;
    let data = vec![7u8; 1024];
    let start = queue_manager.log().end_rba();
    for i in 0..count {
        let mut unit = UnitOfWork::new();
        let mut descriptor = descriptor(true, i as u32 + 1);
        descriptor.put_time_ms = 1_700_000_000_000;
        queue_manager
            .put(Some(&mut unit), &queue, &descriptor, &data)
            .unwrap();
        queue_manager.commit(&mut unit).unwrap();
    }
    let put_bytes = (queue_manager.log().end_rba().0 - start.0) / count;
    let start = queue_manager.log().end_rba();
    for _ in 0..count {
        let mut unit = UnitOfWork::new();
        queue_manager
            .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
            .unwrap()
            .unwrap();
        queue_manager.commit(&mut unit).unwrap();
    }
    let get_bytes = (queue_manager.log().end_rba().0 - start.0) / count;
    assert!(put_bytes <= 1300, "put+commit logged {put_bytes} bytes");
    assert!(get_bytes <= 200, "get+commit logged {get_bytes} bytes");
    queue_manager.shutdown().unwrap();
}

#[test]
fn checkpoints_follow_logload_and_nonpersistent_work_is_never_logged() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QM8");
    config.system.logload = 200;
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    // Non-persistent puts and gets, in and out of syncpoint, write nothing to the log.
    let before = queue_manager.log().end_rba();
    let mut unit = UnitOfWork::new();
    for i in 0..100u32 {
        queue_manager
            .put(None, &queue, &descriptor(false, i), b"np")
            .unwrap();
        queue_manager
            .put(Some(&mut unit), &queue, &descriptor(false, i), b"np")
            .unwrap();
    }
    queue_manager.commit(&mut unit).unwrap();
    while queue_manager
        .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
        .unwrap()
        .is_some()
    {}
    queue_manager.commit(&mut unit).unwrap();
    assert_eq!(
        queue_manager.log().end_rba(),
        before,
        "non-persistent work was logged"
    );
    // Persistent work past LOGLOAD records triggers checkpoints.
    let checkpoints = queue_manager.checkpoints_taken();
    for i in 0..1000u32 {
        queue_manager
            .put(None, &queue, &descriptor(true, i), b"p")
            .unwrap();
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while queue_manager.checkpoints_taken() < checkpoints + 3
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        queue_manager.checkpoints_taken() >= checkpoints + 3,
        "1000 records with LOGLOAD 200 took too few checkpoints"
    );
    let report = queue_manager.display_log();
    assert!(
        report.contains("Write_Force") && report.contains("LOGLOAD     200"),
        "{report}"
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn maxumsgs_limits_a_unit_of_work() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QM9");
    config.system.maxumsgs = 5;
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    let mut unit = UnitOfWork::new();
    for i in 0..5u32 {
        queue_manager
            .put(Some(&mut unit), &queue, &descriptor(true, i), b"x")
            .unwrap();
    }
    let error = queue_manager
        .put(Some(&mut unit), &queue, &descriptor(true, 9), b"x")
        .unwrap_err();
    assert_eq!(error.reason_code(), 2024, "{error}");
    queue_manager.commit(&mut unit).unwrap();
    assert_eq!(drain(&queue_manager, "Q").len(), 5);
    queue_manager.shutdown().unwrap();
}

#[test]
fn dual_logging_survives_the_loss_of_one_copy() {
    let fs = SimulatedFileSystem::new(21);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/DUALQM");
    let mut config = QueueManagerConfig::small("DUALQM");
    config.log.twoactv = true;
    create(shared.clone(), directory, &config);
    let queue_manager = QueueManager::open(shared, directory, quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    for i in 0..200u32 {
        let mut unit = UnitOfWork::new();
        queue_manager
            .put(
                Some(&mut unit),
                &queue,
                &descriptor(true, i),
                &vec![i as u8; 700],
            )
            .unwrap();
        queue_manager.commit(&mut unit).unwrap();
    }
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    drop(queue_manager);
    // Destroy the tail of copy 1 of every active log: copy 2 must carry the committed work.
    for path in after.files() {
        let name = path.to_string_lossy().to_string();
        if name.contains("LOGCOPY1") {
            let length = after.contents(&path).unwrap().len() as u64;
            after
                .corrupt_range(&path, 8192, length.saturating_sub(8192).min(1 << 20))
                .unwrap();
        }
    }
    let queue_manager = QueueManager::open(Arc::new(after), directory, quiet()).unwrap();
    let got = drain(&queue_manager, "Q");
    assert_eq!(got.len(), 200);
    for (i, data) in got.iter().enumerate() {
        assert_eq!(data, &vec![i as u8; 700]);
    }
}

#[test]
fn page_set_restored_from_backup_is_recovered_from_the_log() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    create(
        fs.clone(),
        directory.path(),
        &QueueManagerConfig::small("QM10"),
    );
    let page_set_file = ferrite_queue_manager::page_set_path(directory.path(), 2);
    let backup = directory.path().join("ps02.backup");
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        let queue = queue_manager
            .define_queue(QueueDefinition::local("MEDIA", PageSetId(2)), false)
            .unwrap();
        for i in 0..50u32 {
            queue_manager
                .put(
                    None,
                    &queue,
                    &descriptor(true, i),
                    format!("before {i}").as_bytes(),
                )
                .unwrap();
        }
        queue_manager.checkpoint().unwrap();
        // A fuzzy backup while the queue manager runs (COPYPAGE analogue): header page first.
        std::fs::copy(&page_set_file, &backup).unwrap();
        for i in 50..120u32 {
            queue_manager
                .put(
                    None,
                    &queue,
                    &descriptor(true, i),
                    format!("after {i}").as_bytes(),
                )
                .unwrap();
        }
        let mut unit = UnitOfWork::new();
        for _ in 0..10 {
            queue_manager
                .get(Some(&mut unit), &queue, &MessageSelector::default(), None)
                .unwrap()
                .unwrap();
        }
        queue_manager.commit(&mut unit).unwrap();
        queue_manager.archive_log().unwrap();
        queue_manager.shutdown().unwrap();
    }
    // Media failure: the page set is lost; restore the backup and restart.
    std::fs::copy(&backup, &page_set_file).unwrap();
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    let got = drain(&queue_manager, "MEDIA");
    let expected: Vec<Vec<u8>> = (10..120u32)
        .map(|i| {
            if i < 50 {
                format!("before {i}")
            } else {
                format!("after {i}")
            }
            .into_bytes()
        })
        .collect();
    assert_eq!(got, expected);
    queue_manager.shutdown().unwrap();
}

/// The log's operator messages reach the queue manager's console with its name after the
/// message number, as its own do: ARCHIVE LOG's switch and offload (CSQJ002I, CSQJ001I,
/// CSQJ003I).
#[test]
fn log_messages_carry_the_queue_manager_name() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let config = QueueManagerConfig::small("QMLOGMSG");
    create(fs.clone(), directory.path(), &config);
    let (sink, lines) = recording();
    let queue_manager = QueueManager::open(fs, directory.path(), sink).unwrap();
    queue_manager.archive_log().unwrap();
    assert!(queue_manager
        .log()
        .wait_for_offload(std::time::Duration::from_secs(30)));
    let lines = lines.lock().unwrap().clone();
    for prefix in [
        "CSQJ002I QMLOGMSG END OF ACTIVE LOG DATA SET DSNAME=",
        "CSQJ001I QMLOGMSG CURRENT COPY 1 ACTIVE LOG DATA SET IS DSNAME=",
        "CSQJ003I QMLOGMSG FULL ARCHIVE LOG VOLUME DSNAME=",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(prefix)),
            "no {prefix:?} in {lines:#?}"
        );
    }
    queue_manager.shutdown().unwrap();
}

#[test]
fn deep_queue_beyond_the_buffer_pool_drains_in_order_with_statistics() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QM11");
    config.buffer_pools[2].buffers = 100;
    config.page_sets[2].primary_pages = 2048;
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("DEEP", PageSetId(2)), false)
        .unwrap();
    let count = 1500u32;
    for i in 0..count {
        let persistent = i % 3 != 0;
        queue_manager
            .put(
                None,
                &queue,
                &descriptor(persistent, i),
                &vec![(i % 251) as u8; 3000],
            )
            .unwrap();
    }
    for i in 0..count {
        let message = queue_manager
            .get(None, &queue, &MessageSelector::default(), None)
            .unwrap()
            .unwrap();
        assert_eq!(message.data, vec![(i % 251) as u8; 3000], "message {i}");
    }
    let statistics = queue_manager.buffer_pool_statistics()[2].1.clone();
    assert!(
        statistics.qpstdwt > 0,
        "the deferred write process never started: {statistics:?}"
    );
    assert!(
        statistics.qpstrio > 0 && statistics.qpststl > 0,
        "{statistics:?}"
    );
    assert_eq!(statistics.qpstsos, 0, "{statistics:?}");
    assert!(queue_manager
        .display_buffer_pool_statistics()
        .contains("QPSTDWT"));
    queue_manager.shutdown().unwrap();
}

#[test]
fn expiry_scan_deletes_expired_messages_and_restart_keeps_them_deleted() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QM12");
    config.system.expryint = 5;
    create(fs.clone(), directory.path(), &config);
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("EXP", PageSetId(1)), false)
        .unwrap();
    let now = ferrite_queue_manager::now_ms();
    for i in 0..20u32 {
        let mut descriptor = descriptor(true, i);
        descriptor.put_time_ms = now;
        // Even messages expire after 0.1 s; odd ones never.
        descriptor.expiry_tenths = (i % 2 == 0).then_some(1);
        queue_manager.put(None, &queue, &descriptor, b"x").unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(150));
    assert_eq!(queue_manager.expire_messages().unwrap(), 10);
    assert_eq!(queue_manager.expire_messages().unwrap(), 0);
    assert_eq!(queue.depth(), 10);
    queue_manager.shutdown().unwrap();
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    assert_eq!(queue_manager.queue("EXP").unwrap().depth(), 10);
    queue_manager.shutdown().unwrap();
}

#[test]
fn damaged_page_is_reported_never_served_and_media_recovery_repairs_it() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    create(
        fs.clone(),
        directory.path(),
        &QueueManagerConfig::small("QM13"),
    );
    let page_set_file = ferrite_queue_manager::page_set_path(directory.path(), 1);
    let backup = directory.path().join("ps01.backup");
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        queue_manager
            .define_queue(QueueDefinition::local("ROT", PageSetId(1)), false)
            .unwrap();
        queue_manager.shutdown().unwrap();
    }
    std::fs::copy(&page_set_file, &backup).unwrap();
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        let queue = queue_manager.queue("ROT").unwrap();
        queue_manager
            .put(None, &queue, &descriptor(true, 1), b"precious")
            .unwrap();
        queue_manager.shutdown().unwrap();
    }
    // Bit rot in the message's page (page 2 is the first data page of the page set).
    let mut bytes = std::fs::read(&page_set_file).unwrap();
    bytes[2 * 4096 + 100] ^= 0x10;
    std::fs::write(&page_set_file, &bytes).unwrap();
    let error = QueueManager::open(fs.clone(), directory.path(), quiet())
        .err()
        .expect("a damaged page must stop restart");
    let text = error.to_string();
    assert!(
        text.contains("PSID01.pageset") && text.contains("page 2"),
        "{text}"
    );
    // Restore the backup taken before the put; the log recovers the message.
    std::fs::copy(&backup, &page_set_file).unwrap();
    let queue_manager = QueueManager::open(fs, directory.path(), quiet()).unwrap();
    assert_eq!(drain(&queue_manager, "ROT"), vec![b"precious".to_vec()]);
    queue_manager.shutdown().unwrap();
}

#[test]
fn full_disk_stops_updates_with_a_reason_code_and_loses_nothing() {
    // Small page sets: expansion meets the full disk first (2192). Large page sets: the log
    // wraps and cannot archive, so all active logs fill (2102, MQRC_RESOURCE_PROBLEM).
    for (primary_pages, expected_reason) in [(256u32, 2192), (8192, 2102)] {
        full_disk_case(primary_pages, expected_reason);
    }
}

fn full_disk_case(primary_pages: u32, expected_reason: i32) {
    let fs = SimulatedFileSystem::new(31);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/FULLQM");
    let mut config = QueueManagerConfig::small("FULLQM");
    config.page_sets[1].primary_pages = primary_pages;
    create(shared.clone(), directory, &config);
    let queue_manager = QueueManager::open(shared, directory, quiet()).unwrap();
    queue_manager
        .log()
        .set_active_log_full_wait(std::time::Duration::from_millis(300));
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    // The disk fills up: archives of full active logs cannot be written any more.
    fs.capacity_bytes(fs.used_bytes() + 64 * 1024);
    let data = vec![5u8; 2000];
    let mut committed = 0u32;
    let error = loop {
        match queue_manager.put(None, &queue, &descriptor(true, committed), &data) {
            Ok(_) => committed += 1,
            Err(error) => break error,
        }
        assert!(committed < 20_000, "a full disk never stopped the puts");
    };
    eprintln!(
        "after {committed} puts: {error} [reason {}]",
        error.reason_code()
    );
    // A clear refusal with MQ's reason code, and the queue manager is still up.
    assert_eq!(error.reason_code(), expected_reason, "{error}");
    assert!(!queue_manager.is_stopping());
    // Space is freed: work continues without a restart.
    fs.unlimited_capacity();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        match queue_manager.put(None, &queue, &descriptor(true, committed), &data) {
            Ok(_) => {
                committed += 1;
                break;
            }
            Err(error) if std::time::Instant::now() < deadline => {
                let _ = error;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(error) => panic!("work did not continue after space was freed: {error}"),
        }
    }
    queue_manager.shutdown().unwrap();
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    drop(queue_manager);
    let queue_manager = QueueManager::open(Arc::new(after), directory, quiet()).unwrap();
    assert_eq!(
        drain(&queue_manager, "Q").len(),
        committed as usize,
        "committed messages lost"
    );
}

#[test]
fn failed_log_fsync_is_never_acknowledged_and_stops_updates() {
    use ferrite_storage::vfs::simulated::PathFilter;
    let fs = SimulatedFileSystem::new(41);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/FSYNCQM");
    create(
        shared.clone(),
        directory,
        &QueueManagerConfig::small("FSYNCQM"),
    );
    let queue_manager = QueueManager::open(shared, directory, quiet()).unwrap();
    let queue = queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    for i in 0..10u32 {
        queue_manager
            .put(None, &queue, &descriptor(true, i), b"before")
            .unwrap();
    }
    // The next fdatasync of an active log fails (Linux: the written pages may be lost).
    fs.fsync_error_at_matching(0, PathFilter::prefix("/qm/FSYNCQM/active/"));
    let error = queue_manager
        .put(None, &queue, &descriptor(true, 10), b"not durable")
        .unwrap_err();
    eprintln!("failed put: {error} [reason {}]", error.reason_code());
    // Nothing after the failure is acknowledged: the queue manager refuses updates.
    let refused = queue_manager
        .put(None, &queue, &descriptor(true, 11), b"after")
        .unwrap_err();
    assert!(
        [2059, 2162, 2102].contains(&refused.reason_code()),
        "{refused}"
    );
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    drop(queue_manager);
    let queue_manager = QueueManager::open(Arc::new(after), directory, quiet()).unwrap();
    let got = drain(&queue_manager, "Q");
    assert_eq!(
        got,
        vec![b"before".to_vec(); 10],
        "acknowledged messages lost or unacknowledged ones present"
    );
}

/// The queue manager's own switches of a queue's attributes (event and trigger controls) are
/// read-modify-writes under the object lock: two threads updating different attributes of one
/// queue at once lose neither's changes, the result is what restart recovers, and a switch of
/// a queue deleted since it was resolved is refused.
#[test]
fn queue_definition_updates_lose_no_concurrent_change() {
    const ROUNDS: u32 = 500;
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    create(
        fs.clone(),
        directory.path(),
        &QueueManagerConfig::small("QMUPD"),
    );
    {
        let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
        let mut definition = QueueDefinition::local("SWITCHED.Q", PageSetId(1));
        definition.description = "0".to_string();
        definition.trigger_control = true;
        let queue = queue_manager.define_queue(definition, false).unwrap();
        std::thread::scope(|scope| {
            // An operator's change: DESCR counts up (each update reads the one before).
            scope.spawn(|| {
                for _ in 0..ROUNDS {
                    let changed = queue_manager
                        .update_queue_definition(&queue, |definition| {
                            let count: u32 = definition.description.parse().unwrap();
                            definition.description = (count + 1).to_string();
                            Ok(true)
                        })
                        .unwrap();
                    assert!(changed);
                }
            });
            // The queue manager's switch: TRIGGER flips, an even number of times.
            scope.spawn(|| {
                for _ in 0..ROUNDS {
                    queue_manager
                        .update_queue_definition(&queue, |definition| {
                            definition.trigger_control = !definition.trigger_control;
                            Ok(true)
                        })
                        .unwrap();
                }
            });
        });
        let definition = queue.definition();
        assert_eq!(
            definition.description,
            ROUNDS.to_string(),
            "an update was lost"
        );
        assert!(definition.trigger_control, "a flip was lost");
        // A change that declines stores nothing and says so.
        assert!(!queue_manager
            .update_queue_definition(&queue, |_| Ok(false))
            .unwrap());
        queue_manager.shutdown().unwrap();
    }
    let queue_manager = QueueManager::open(fs.clone(), directory.path(), quiet()).unwrap();
    let queue = queue_manager.queue("SWITCHED.Q").unwrap();
    assert_eq!(queue.definition().description, ROUNDS.to_string());
    assert!(queue.definition().trigger_control);
    queue_manager.delete_queue("SWITCHED.Q", true).unwrap();
    let error = queue_manager
        .update_queue_definition(&queue, |definition| {
            definition.trigger_control = false;
            Ok(true)
        })
        .unwrap_err();
    assert_eq!(
        error.reason_code(),
        ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME
    );
    queue_manager.shutdown().unwrap();
}
