//! Buffer pool behaviour: GETP/GETN/SET WRITE/release, stealing, the deferred write process and
//! its thresholds, synchronous writes, checkpoint, shutdown, read-ahead and error handling.
//! Every test's writes go through a recording file system that checks the write-ahead rule
//! against a fake log.

mod support;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_storage::buffer_pool::{BufferPool, PageChange, PageStateCounts};
use ferrite_storage::page::{PageBytes, PAGE_FLAG_NONPERSISTENT, PAGE_SIZE};
use ferrite_storage::page_set::PageSet;
use ferrite_storage::{BufferPoolId, PageNumber, PageSetId, Rba, StorageError};
use support::buffer_pool::*;

const PAGE_SET: PageSetId = PageSetId(2);

struct Fixture {
    directory: tempfile::TempDir,
    fs: Arc<RecordingFileSystem>,
    log: Arc<FakeLog>,
    _page_set: Arc<PageSet>,
    pool: Arc<BufferPool>,
    next_rba: AtomicU64,
}

impl Fixture {
    fn new(buffers: u32, pages: u32) -> Fixture {
        let directory = tempfile::tempdir().unwrap();
        let log = Arc::new(FakeLog::default());
        let fs = RecordingFileSystem::new(Some(Arc::clone(&log)));
        let page_set = create_page_set(fs.as_ref(), directory.path(), PAGE_SET.0, pages);
        let pool = BufferPool::new(BufferPoolId(2), buffers, log.clone());
        pool.attach(Arc::clone(&page_set));
        fs.clear_writes();
        Fixture {
            directory,
            fs,
            log,
            _page_set: page_set,
            pool,
            next_rba: AtomicU64::new(100),
        }
    }

    fn rba(&self) -> Rba {
        Rba(self.next_rba.fetch_add(50, Ordering::SeqCst))
    }

    /// GETN, format with `value`, logged change, release.
    fn put(&self, page: u32, value: u64) {
        let guard = self.pool.get_new_page(PAGE_SET, PageNumber(page)).unwrap();
        let rba = self.rba();
        guard.update(PageChange::Logged(rba), |bytes| {
            format_data_page(bytes, PAGE_SET, PageNumber(page), value)
        });
    }

    fn put_nonpersistent(&self, page: u32, value: u64) {
        let guard = self.pool.get_new_page(PAGE_SET, PageNumber(page)).unwrap();
        guard.update(PageChange::NonPersistent, |bytes| {
            format_data_page(bytes, PAGE_SET, PageNumber(page), value)
        });
    }

    fn get_value(&self, page: u32) -> u64 {
        self.pool
            .get_page(PAGE_SET, PageNumber(page))
            .unwrap()
            .read(payload)
    }

    /// Every page number written so far.
    fn pages_written(&self) -> Vec<u64> {
        self.fs
            .writes()
            .iter()
            .flat_map(|write| write.first_page..write.first_page + write.pages)
            .collect()
    }

    fn assert_write_ahead_rule_held(&self) {
        assert_eq!(
            self.fs.faults.write_ahead_violations.load(Ordering::SeqCst),
            0,
            "write-ahead rule broken"
        );
    }

    fn wait_for_deferred_write_to_finish(&self, starts: u64) {
        assert!(
            wait_until(Duration::from_secs(10), || {
                self.pool.statistics().qpstdwt >= starts && !self.pool.deferred_write_active()
            }),
            "the deferred write process did not run and stop: {:?}",
            self.pool.statistics()
        );
    }
}

#[test]
fn hits_and_misses_are_counted_as_mq_counts_them() {
    let fixture = Fixture::new(100, 64);
    let pool = &fixture.pool;
    fixture.put(5, 55);
    let statistics = pool.statistics();
    assert_eq!(
        (
            statistics.qpstgetn,
            statistics.qpstgetp,
            statistics.qpstrio,
            statistics.qpststl,
            statistics.qpststw
        ),
        (1, 0, 0, 1, 1)
    );
    assert_eq!(statistics.qpstnbuf, 100);
    assert_eq!(statistics.qpstcbs, 99, "the changed page is not stealable");
    assert_eq!(pool.flush_for_shutdown().unwrap(), 1);
    let statistics = pool.statistics();
    assert_eq!(
        (statistics.qpsttpw, statistics.qpstwio, statistics.qpstcbs),
        (1, 1, 100)
    );

    pool.discard_page_set(PAGE_SET);
    assert_eq!(pool.page_state_counts().unused, 100);
    let guard = pool.get_page(PAGE_SET, PageNumber(5)).unwrap();
    assert_eq!(guard.read(payload), 55);
    assert_eq!(guard.page_number(), PageNumber(5));
    assert_eq!(guard.page_set(), PAGE_SET);
    assert_eq!(
        pool.page_state_counts(),
        PageStateCounts {
            unused: 99,
            unchanged_in_use: 1,
            ..PageStateCounts::default()
        }
    );
    let second = pool.get_page(PAGE_SET, PageNumber(5)).unwrap();
    drop(guard);
    drop(second);
    let statistics = pool.statistics();
    assert_eq!(
        (statistics.qpstgetp, statistics.qpstrio, statistics.qpststl),
        (2, 1, 2)
    );
    assert_eq!(statistics.qpstcbs, 100);
    assert_eq!(
        statistics.qpstsos + statistics.qpstdmc + statistics.qpstdwt,
        0
    );

    // GETN on a hit keeps the contents; page 0 and pages past the end are refused.
    let guard = pool.get_new_page(PAGE_SET, PageNumber(5)).unwrap();
    assert_eq!(guard.read(payload), 55);
    drop(guard);
    assert!(matches!(
        pool.get_page(PAGE_SET, PageNumber(0)),
        Err(StorageError::Invalid { .. })
    ));
    assert!(matches!(
        pool.get_page(PAGE_SET, PageNumber(64)),
        Err(StorageError::Invalid { .. })
    ));
    assert!(matches!(
        pool.get_page(PageSetId(9), PageNumber(1)),
        Err(StorageError::Invalid { .. })
    ));
    fixture.assert_write_ahead_rule_held();
}

#[test]
fn a_pool_much_smaller_than_the_working_set_steals_reads_and_defers_writes() {
    let fixture = Fixture::new(100, 1001);
    for page in 1..=1000 {
        fixture.put(page, u64::from(page) * 3);
    }
    assert_eq!(fixture.pool.flush_for_shutdown().map(|_| ()).ok(), Some(()));
    for page in 1..=1000 {
        assert_eq!(fixture.get_value(page), u64::from(page) * 3, "page {page}");
    }
    let statistics = fixture.pool.statistics();
    assert_eq!(statistics.qpstgetn, 1000);
    assert_eq!(statistics.qpstgetp, 1000);
    assert!(statistics.qpstrio >= 900, "{statistics:?}");
    assert!(statistics.qpststl >= 1900, "{statistics:?}");
    assert!(
        statistics.qpstdwt >= 1,
        "the deferred write process ran: {statistics:?}"
    );
    assert!(
        statistics.qpsttpw >= 1000,
        "every page was written at least once: {statistics:?}"
    );
    assert!(
        statistics.qpstwio < statistics.qpsttpw,
        "writes were coalesced: {statistics:?}"
    );
    assert!(
        statistics.qpstcbsl < 15,
        "stealable fell below the deferred write threshold: {statistics:?}"
    );
    assert!(fixture.fs.writes().iter().all(|write| write.pages <= 16));
    fixture.assert_write_ahead_rule_held();
    assert!(fixture.log.forces.load(Ordering::SeqCst) > 0);
}

#[test]
fn the_deferred_write_process_starts_at_15_percent_writes_oldest_first_and_stops_at_25_percent() {
    let fixture = Fixture::new(100, 200);
    // Changed in an order unrelated to page numbers: a stride through 1..=150.
    let change_order: Vec<u32> = (0..86).map(|i| (i * 37) % 150 + 1).collect();
    for (position, &page) in change_order.iter().enumerate() {
        fixture.put(page, u64::from(page));
        if position < 85 {
            // At 85 changed (15 stealable), neither threshold is crossed yet.
            assert_eq!(
                fixture.pool.statistics().qpstdwt,
                0,
                "started early, after {} pages",
                position + 1
            );
        }
    }
    fixture.wait_for_deferred_write_to_finish(1);
    let statistics = fixture.pool.statistics();
    assert_eq!(statistics.qpstdwt, 1, "{statistics:?}");
    assert_eq!(
        statistics.qpsttpw, 11,
        "14 stealable + 11 written = 25%: {statistics:?}"
    );
    assert_eq!(statistics.qpstcbs, 25);
    assert_eq!(statistics.qpstcbsl, 14);
    let written: BTreeSet<u64> = fixture.pages_written().into_iter().collect();
    let oldest: BTreeSet<u64> = change_order[..11]
        .iter()
        .map(|&page| u64::from(page))
        .collect();
    assert_eq!(
        written, oldest,
        "the oldest changed pages are written first"
    );
    assert_eq!(
        fixture.pool.page_state_counts(),
        PageStateCounts {
            unused: 14,
            changed_not_in_use: 75,
            unchanged_not_in_use: 11,
            ..Default::default()
        }
    );
    fixture.assert_write_ahead_rule_held();

    // Reset starts a new low-water interval.
    fixture.pool.reset_interval_statistics();
    assert_eq!(fixture.pool.statistics().qpstcbsl, 25);
}

#[test]
fn deferred_writes_and_shutdown_writes_are_coalesced_into_runs_of_at_most_16_pages() {
    let fixture = Fixture::new(100, 200);
    for page in 1..=86 {
        fixture.put(page, u64::from(page));
    }
    fixture.wait_for_deferred_write_to_finish(1);
    assert_eq!(
        fixture.fs.write_shapes(),
        vec![(1, 11)],
        "the 11 oldest pages went in one I/O"
    );
    fixture.fs.clear_writes();
    assert_eq!(fixture.pool.flush_for_shutdown().unwrap(), 75);
    let mut shapes = fixture.fs.write_shapes();
    shapes.sort_unstable();
    assert_eq!(
        shapes,
        vec![(12, 16), (28, 16), (44, 16), (60, 16), (76, 11)]
    );
    let statistics = fixture.pool.statistics();
    assert_eq!((statistics.qpstwio, statistics.qpsttpw), (6, 86));
    assert_eq!(
        fixture.pool.flush_for_shutdown().unwrap(),
        0,
        "nothing left to write"
    );
    fixture.assert_write_ahead_rule_held();
}

#[test]
fn a_changed_page_released_below_5_percent_stealable_is_written_synchronously() {
    let fixture = Fixture::new(100, 200);
    let held: Vec<_> = (1..=96)
        .map(|page| fixture.pool.get_page(PAGE_SET, PageNumber(page)).unwrap())
        .collect();
    assert_eq!(fixture.pool.statistics().qpstcbs, 4);
    fixture.put(150, 150);
    let statistics = fixture.pool.statistics();
    assert_eq!(
        (statistics.qpstdmc, statistics.qpstimw, statistics.qpsttpw),
        (1, 1, 1),
        "{statistics:?}"
    );
    assert_eq!(fixture.pages_written(), vec![150]);
    assert_eq!(fixture.pool.page_state_counts().changed_not_in_use, 0);
    // Above the threshold, a release does not write.
    drop(held);
    fixture.put(151, 151);
    assert_eq!(fixture.pool.statistics().qpstdmc, 1);
    assert_eq!(fixture.pool.page_state_counts().changed_not_in_use, 1);
    fixture.assert_write_ahead_rule_held();
}

#[test]
fn checkpoint_writes_only_persistent_pages_first_changed_two_checkpoints_ago() {
    let fixture = Fixture::new(100, 100);
    let pool = &fixture.pool;
    fixture.put(1, 1); // first changed at sequence 0
    fixture.put_nonpersistent(2, 2); // sequence 0, non-persistent
    let held = pool.get_new_page(PAGE_SET, PageNumber(5)).unwrap();
    held.update(PageChange::Logged(Rba(60)), |bytes| {
        format_data_page(bytes, PAGE_SET, PageNumber(5), 5)
    });
    assert_eq!(pool.recovery_rba(PAGE_SET), Some(Rba(60)));

    assert_eq!(pool.checkpoint(1).unwrap(), 0);
    fixture.put(3, 3); // sequence 1
    assert_eq!(
        pool.checkpoint(2).unwrap(),
        1,
        "only page 1: page 5 is in use, 2 is non-persistent, 3 too young"
    );
    assert_eq!(fixture.pages_written(), vec![1]);
    assert_eq!(
        pool.recovery_rba(PAGE_SET),
        Some(Rba(60)),
        "page 5 is still unwritten"
    );

    drop(held); // the checkpoint's missed write happens on release
    assert_eq!(fixture.pages_written(), vec![1, 5]);
    assert_eq!(pool.statistics().qpstimw, 1);
    let page_3_rba = Rba(150);
    assert_eq!(pool.recovery_rba(PAGE_SET), Some(page_3_rba));

    fixture.put(1, 11); // page 1 changed again, at sequence 2
    assert_eq!(pool.checkpoint(3).unwrap(), 1, "page 3 only");
    assert_eq!(fixture.pages_written(), vec![1, 5, 3]);
    assert_eq!(pool.checkpoint(4).unwrap(), 1, "page 1 again");
    assert_eq!(pool.checkpoint(5).unwrap(), 0);
    assert_eq!(
        pool.recovery_rba(PAGE_SET),
        None,
        "non-persistent pages do not hold recovery back"
    );
    assert!(
        !fixture.pages_written().contains(&2),
        "non-persistent pages are never written at checkpoint"
    );
    assert_eq!(
        pool.page_state_counts().changed_not_in_use,
        1,
        "page 2 stays changed"
    );

    // The non-persistent page carries the flag in its header; logged changes clear it.
    let guard = pool.get_page(PAGE_SET, PageNumber(2)).unwrap();
    assert_eq!(
        guard.read(|bytes| bytes.flags() & PAGE_FLAG_NONPERSISTENT),
        PAGE_FLAG_NONPERSISTENT
    );
    guard.update(PageChange::Logged(Rba(10_000)), |_| {});
    assert_eq!(
        guard.read(|bytes| (bytes.flags(), bytes.page_rba())),
        (0, Rba(10_000))
    );
    fixture.assert_write_ahead_rule_held();
}

#[test]
fn shutdown_flush_writes_persistent_pages_and_a_fresh_pool_reads_them_back() {
    let fixture = Fixture::new(50, 300);
    for page in 1..=200 {
        fixture.put(page, u64::from(page) * 11);
    }
    for page in 201..=210 {
        fixture.put_nonpersistent(page, 1);
    }
    let held = fixture.pool.get_page(PAGE_SET, PageNumber(200)).unwrap();
    held.update(PageChange::Logged(fixture.rba()), |bytes| {
        set_payload(bytes, 2222)
    });
    fixture.pool.flush_for_shutdown().unwrap();
    drop(held);
    assert_eq!(fixture.pool.recovery_rba(PAGE_SET), None);
    fixture.pool.shutdown();
    fixture.pool.shutdown(); // idempotent
    fixture.assert_write_ahead_rule_held();

    let directory = fixture.directory.path().to_path_buf();
    let fresh_log = Arc::new(FakeLog::default());
    let fresh_pool = BufferPool::new(BufferPoolId(7), 100, fresh_log);
    fresh_pool.attach(open_page_set(fixture.fs.as_ref(), &directory, PAGE_SET.0));
    for page in 1..=199 {
        let guard = fresh_pool.get_page(PAGE_SET, PageNumber(page)).unwrap();
        assert_eq!(guard.read(payload), u64::from(page) * 11, "page {page}");
    }
    assert_eq!(
        fresh_pool
            .get_page(PAGE_SET, PageNumber(200))
            .unwrap()
            .read(payload),
        2222
    );
    for page in 201..=210 {
        // Written or not (the deferred write process may have), never damaged.
        fresh_pool.get_page(PAGE_SET, PageNumber(page)).unwrap();
    }
}

#[test]
fn a_corrupt_page_on_disk_is_reported_through_the_pool_and_never_served() {
    let fixture = Fixture::new(100, 64);
    fixture.put(9, 99);
    fixture.pool.flush_for_shutdown().unwrap();
    fixture.pool.discard_page_set(PAGE_SET);
    let path = page_set_path(fixture.directory.path(), PAGE_SET.0);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[9 * PAGE_SIZE + 1234] ^= 0x01;
    std::fs::write(&path, bytes).unwrap();
    for _ in 0..2 {
        match fixture.pool.get_page(PAGE_SET, PageNumber(9)) {
            Err(StorageError::CorruptPage {
                page_set,
                page,
                path: reported,
                ..
            }) => {
                assert_eq!((page_set, page), (PAGE_SET, PageNumber(9)));
                assert_eq!(reported, path);
            }
            other => panic!("expected CorruptPage, got {other:?}"),
        }
    }
    assert_eq!(
        fixture.pool.page_state_counts().unused,
        100,
        "the frame went back to the pool"
    );
    assert_eq!(fixture.pool.statistics().qpstcbs, 100);
    // GETN does not read, so the page can be rebuilt (as media recovery would).
    fixture.put(9, 100);
    assert_eq!(fixture.get_value(9), 100);
}

#[test]
fn a_failed_write_or_log_force_leaves_the_page_changed_and_a_retry_succeeds() {
    let fixture = Fixture::new(100, 64);
    for page in 1..=20 {
        fixture.put(page, u64::from(page));
    }
    let lowest = fixture.pool.recovery_rba(PAGE_SET);
    assert_eq!(lowest, Some(Rba(100)));

    fixture.fs.faults.fail_writes.store(true, Ordering::SeqCst);
    assert!(matches!(
        fixture.pool.flush_for_shutdown(),
        Err(StorageError::Io { .. })
    ));
    assert_eq!(fixture.pool.page_state_counts().changed_not_in_use, 20);
    assert_eq!(fixture.pool.recovery_rba(PAGE_SET), lowest);
    fixture.fs.faults.fail_writes.store(false, Ordering::SeqCst);

    fixture.log.fail.store(true, Ordering::SeqCst);
    assert!(fixture.pool.flush_for_shutdown().is_err());
    assert!(
        fixture.fs.writes().is_empty(),
        "nothing is written before the log is forced"
    );
    assert_eq!(fixture.pool.page_state_counts().changed_not_in_use, 20);
    fixture.log.fail.store(false, Ordering::SeqCst);

    assert_eq!(fixture.pool.flush_for_shutdown().unwrap(), 20);
    assert_eq!(fixture.pool.recovery_rba(PAGE_SET), None);
    assert_eq!(fixture.pool.statistics().qpsttpw, 20);
    fixture.assert_write_ahead_rule_held();
}

#[test]
fn discard_drops_changed_pages_without_writing_them() {
    let fixture = Fixture::new(100, 64);
    for page in 1..=10 {
        fixture.put(page, 7);
    }
    fixture.pool.discard_page_set(PAGE_SET);
    assert!(fixture.fs.writes().is_empty());
    assert_eq!(fixture.pool.page_state_counts().unused, 100);
    assert_eq!(fixture.pool.recovery_rba(PAGE_SET), None);
    assert!(fixture
        .pool
        .get_page(PAGE_SET, PageNumber(3))
        .unwrap()
        .read(PageBytes::is_all_zero));
}

#[test]
fn read_ahead_loads_pages_unpinned_so_later_gets_hit() {
    let fixture = Fixture::new(100, 64);
    for page in 1..=10 {
        fixture.put(page, u64::from(page) + 1000);
    }
    fixture.pool.flush_for_shutdown().unwrap();
    fixture.pool.discard_page_set(PAGE_SET);
    let pages: Vec<PageNumber> = (1..=10).map(PageNumber).collect();
    fixture.pool.read_ahead(PAGE_SET, &pages);
    assert!(wait_until(Duration::from_secs(10), || fixture
        .pool
        .statistics()
        .qpstrio
        == 10));
    assert_eq!(fixture.pool.page_state_counts().unchanged_not_in_use, 10);
    for page in 1..=10 {
        assert_eq!(fixture.get_value(page), u64::from(page) + 1000);
    }
    let statistics = fixture.pool.statistics();
    assert_eq!((statistics.qpstrio, statistics.qpstgetp), (10, 10));
}

#[test]
fn a_get_that_finds_every_buffer_in_use_fails_instead_of_hanging() {
    let fixture = Fixture::new(4, 64);
    let held: Vec<_> = (1..=4)
        .map(|page| fixture.pool.get_page(PAGE_SET, PageNumber(page)).unwrap())
        .collect();
    let started = Instant::now();
    let error = fixture
        .pool
        .get_new_page(PAGE_SET, PageNumber(10))
        .unwrap_err();
    assert!(error.to_string().contains("no stealable buffer"), "{error}");
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(fixture.pool.statistics().qpstsos, 1);
    drop(held);
    fixture.put(10, 10);
}

#[test]
fn when_nothing_is_stealable_the_getter_writes_the_oldest_changed_page_itself() {
    let fixture = Fixture::new(10, 64);
    fixture.pool.shutdown(); // no deferred write process: the getter must make room itself
                             // With writes failing, the releases' synchronous writes (changed > 95%) fail and every
                             // buffer is left changed & not in use.
    fixture.fs.faults.fail_writes.store(true, Ordering::SeqCst);
    for page in 1..=10 {
        fixture.put(page, u64::from(page));
    }
    assert!(fixture.pool.last_write_error().is_some());
    assert_eq!(fixture.pool.page_state_counts().changed_not_in_use, 10);
    assert_eq!(fixture.pool.statistics().qpstcbs, 0);
    fixture.fs.faults.fail_writes.store(false, Ordering::SeqCst);
    let before = fixture.pool.statistics();
    fixture.put(11, 11);
    let after = fixture.pool.statistics();
    assert_eq!(after.qpstsos, before.qpstsos + 1, "{after:?}");
    assert!(after.qpstimw > before.qpstimw, "{after:?}");
    assert_eq!(
        fixture.pages_written()[0],
        1,
        "the oldest changed page was written first"
    );
    for page in 1..=11 {
        assert_eq!(fixture.get_value(page), u64::from(page));
    }
    fixture.assert_write_ahead_rule_held();
}

#[test]
fn a_get_that_finds_every_buffer_in_use_waits_for_a_release() {
    let fixture = Arc::new(Fixture::new(8, 64));
    let held: Vec<_> = (1..=8)
        .map(|page| fixture.pool.get_page(PAGE_SET, PageNumber(page)).unwrap())
        .collect();
    let releaser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        drop(held);
    });
    let started = Instant::now();
    fixture.put(20, 20);
    assert!(started.elapsed() >= Duration::from_millis(150));
    releaser.join().unwrap();
    let statistics = fixture.pool.statistics();
    assert_eq!(statistics.qpstsos, 1, "{statistics:?}");
    assert_eq!(fixture.get_value(20), 20);
}

#[test]
fn a_page_changed_again_while_it_is_being_written_stays_changed() {
    let fixture = Arc::new(Fixture::new(100, 64));
    fixture.put(4, 1);
    fixture.log.hold.store(true, Ordering::SeqCst);
    let flusher = {
        let fixture = Arc::clone(&fixture);
        std::thread::spawn(move || fixture.pool.flush_for_shutdown().unwrap())
    };
    // The flush has copied the page and is waiting for the log; the page can still be updated.
    assert!(wait_until(Duration::from_secs(10), || fixture
        .log
        .holding
        .load(Ordering::SeqCst)));
    let guard = fixture.pool.get_page(PAGE_SET, PageNumber(4)).unwrap();
    guard.update(PageChange::Logged(fixture.rba()), |bytes| {
        set_payload(bytes, 2)
    });
    drop(guard);
    fixture.log.hold.store(false, Ordering::SeqCst);
    assert_eq!(
        flusher.join().unwrap(),
        1,
        "the copy taken before the update was written"
    );
    assert_eq!(
        fixture.pool.page_state_counts().changed_not_in_use,
        1,
        "the newer change is not lost"
    );
    assert!(fixture.pool.recovery_rba(PAGE_SET).is_some());
    let mut on_disk = PageBytes::zeroed();
    let page_set = open_page_set(fixture.fs.as_ref(), fixture.directory.path(), PAGE_SET.0);
    page_set.read_page(PageNumber(4), &mut on_disk).unwrap();
    assert_eq!(payload(&on_disk), 1);
    assert_eq!(fixture.pool.flush_for_shutdown().unwrap(), 1);
    page_set.read_page(PageNumber(4), &mut on_disk).unwrap();
    assert_eq!(payload(&on_disk), 2);
    assert_eq!(fixture.pool.recovery_rba(PAGE_SET), None);
    fixture.assert_write_ahead_rule_held();
}
