//! Integration tests of the log manager on the real file system.

use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::active::{ActiveLogHeader, ACTIVE_LOG_HEADER_BYTES};
use ferrite_storage::log::bsds::{bsds_paths, ActiveLogStatus, Bsds};
use ferrite_storage::log::record::LOG_RECORD_HEADER_BYTES;
use ferrite_storage::log::{CheckpointLocation, LogManager, LogRecord, LOG_PAGE_BYTES};
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::{Rba, StorageError};

fn log_parameters(
    active_log_size_mib: u32,
    active_log_count: u32,
    outbuff_kib: u32,
    twoactv: bool,
) -> LogParameters {
    LogParameters {
        outbuff_kib,
        wrthrsh: 4,
        twoactv,
        active_log_count,
        active_log_size_mib,
    }
}

fn archive_parameters(compress: bool, twoarch: bool) -> ArchiveParameters {
    ArchiveParameters {
        directory: "archive".to_string(),
        compress,
        twoarch,
        retention_days: 9999,
        max_archives: 500,
    }
}

struct Fixture {
    _temporary: tempfile::TempDir,
    fs: Arc<dyn FileSystem>,
    directory: PathBuf,
    log: LogParameters,
    archive: ArchiveParameters,
}

impl Fixture {
    fn new(log: LogParameters, archive: ArchiveParameters) -> Fixture {
        let temporary = tempfile::tempdir().unwrap();
        let directory = temporary.path().join("QM1");
        let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
        LogManager::create(fs.clone(), &directory, &log, &archive).unwrap();
        Fixture {
            _temporary: temporary,
            fs,
            directory,
            log,
            archive,
        }
    }

    fn open(&self) -> Arc<LogManager> {
        LogManager::open(self.fs.clone(), &self.directory, &self.log, &self.archive).unwrap()
    }

    fn active_path(&self, copy: usize, number: usize) -> PathBuf {
        self.directory
            .join("active")
            .join(format!("LOGCOPY{}.DS{:02}", copy + 1, number + 1))
    }
}

/// Deterministic payload bytes for (seed, length).
fn payload(seed: u64, length: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..length)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

fn read_all(manager: &LogManager, from: Rba) -> Vec<LogRecord> {
    manager
        .read_forward(from)
        .unwrap()
        .map(|record| record.unwrap())
        .collect()
}

/// Overwrite bytes of a file directly (simulating damage).
fn damage(path: &Path, offset: u64, bytes: &[u8]) {
    let file = OpenOptions::new().write(true).open(path).unwrap();
    file.write_all_at(bytes, offset).unwrap();
    file.sync_all().unwrap();
}

fn read_file_range(path: &Path, offset: u64, length: usize) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap();
    let mut bytes = vec![0u8; length];
    file.read_exact_at(&mut bytes, offset).unwrap();
    bytes
}

#[test]
fn append_force_reopen_reads_every_forced_record() {
    let fixture = Fixture::new(
        log_parameters(4, 3, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    assert_eq!(manager.end_rba(), Rba(0));
    let mut expected = Vec::new();
    for index in 0..600u64 {
        let body = payload(index, (index as usize * 37) % 2500);
        let (start, end) = manager
            .append(
                (index % 7) as u8,
                &[&body[..10.min(body.len())], &body[10.min(body.len())..]],
            )
            .unwrap();
        assert_eq!(
            end.0 - start.0,
            (LOG_RECORD_HEADER_BYTES + body.len()) as u64
        );
        expected.push((start, (index % 7) as u8, body));
        if index % 50 == 0 {
            manager.force(end).unwrap();
            assert!(manager.durable_rba() >= end);
        }
    }
    let end = manager.end_rba();
    manager.force(end).unwrap();
    assert_eq!(manager.durable_rba(), end);
    let statistics = manager.statistics();
    assert_eq!(statistics.qjstwrnw + statistics.qjstwrw, 600);
    assert!(statistics.qjstwrf >= 13);
    assert!(statistics.qjstlogw[0] >= 1 && statistics.qjstbfwr >= 1);
    assert_eq!(statistics.qjstbffl, end.0.div_ceil(LOG_PAGE_BYTES as u64));
    // QJSTIO: copy 1's I/Os (one page or more) are QJSTLOGW's, their pages QJSTCIWR's; no
    // copy 2 without dual logging.
    let [copy1, copy2] = statistics.copy_io;
    assert_eq!(copy1[0].count + copy1[1].count, statistics.qjstlogw[0]);
    assert_eq!(copy1[0].pages + copy1[1].pages, statistics.qjstciwr);
    assert_eq!(copy1[0].count, copy1[0].pages, "one page each");
    assert_eq!(copy2, [ferrite_storage::log::LogCopyIo::default(); 2]);
    manager.shutdown().unwrap();
    drop(manager);

    let manager = fixture.open();
    assert_eq!(manager.end_rba(), end);
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len(), expected.len());
    for (record, (start, kind, body)) in records.iter().zip(&expected) {
        assert_eq!(
            (record.rba, record.kind, &record.payload),
            (*start, *kind, body)
        );
    }
    // Appends continue in the same page after the restart.
    let (start, _) = manager.append(1, &[b"after restart"]).unwrap();
    assert_eq!(start, end);
    manager.force(manager.end_rba()).unwrap();
    drop(manager);
    let manager = fixture.open();
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len(), expected.len() + 1);
    assert_eq!(records.last().unwrap().payload, b"after restart");
    // Reading from a position that is not a record boundary is refused.
    assert!(manager.read_forward(Rba(1)).is_err());
    // Reading from the middle works.
    let middle = expected[300].0;
    assert_eq!(read_all(&manager, middle).len(), expected.len() + 1 - 300);
}

#[test]
fn a_torn_tail_ends_the_log_and_stale_records_beyond_it_never_return() {
    let fixture = Fixture::new(
        log_parameters(1, 2, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let first = manager.append(1, &[&payload(1, 100)]).unwrap();
    // Record B ends exactly on a page boundary one page later, so record C starts a page.
    let b_length = (2 * LOG_PAGE_BYTES as u64 - first.1 .0) as usize - LOG_RECORD_HEADER_BYTES;
    let second = manager.append(2, &[&payload(2, b_length)]).unwrap();
    assert_eq!(second.1 .0 % LOG_PAGE_BYTES as u64, 0);
    let third = manager.append(3, &[&payload(3, 200)]).unwrap();
    manager.force(third.1).unwrap();
    manager.shutdown().unwrap();
    drop(manager);

    // Tear B: its last bytes are lost. C is intact (as if the write of C's page survived).
    let path = fixture.active_path(0, 0);
    damage(
        &path,
        ACTIVE_LOG_HEADER_BYTES + second.1 .0 - 100,
        &[0u8; 100],
    );
    let manager = fixture.open();
    assert_eq!(
        manager.end_rba(),
        second.0,
        "the log ends at the torn record"
    );
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].payload, payload(1, 100));
    // A new record of B's length ends exactly where stale C starts. C must not come back.
    let replacement = manager.append(4, &[&payload(4, b_length)]).unwrap();
    assert_eq!(replacement.1, third.0);
    manager.force(replacement.1).unwrap();
    manager.shutdown().unwrap();
    drop(manager);
    let manager = fixture.open();
    let records = read_all(&manager, Rba(0));
    assert_eq!(
        records.iter().map(|r| r.kind).collect::<Vec<_>>(),
        vec![1, 4]
    );
    assert_eq!(manager.end_rba(), third.0);
}

#[test]
fn unforced_records_are_lost_or_kept_whole_after_a_failure() {
    let fixture = Fixture::new(
        log_parameters(2, 3, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let mut appended = Vec::new();
    for index in 0..200u64 {
        let body = payload(index + 1000, 300 + index as usize);
        appended.push(manager.append(9, &[&body]).unwrap());
    }
    manager.force(appended[99].1).unwrap();
    manager.abandon();
    drop(manager);
    let manager = fixture.open();
    let records = read_all(&manager, Rba(0));
    assert!(
        records.len() >= 100,
        "a forced record was lost: {} records",
        records.len()
    );
    for (index, record) in records.iter().enumerate() {
        assert_eq!(record.rba, appended[index].0);
        assert_eq!(record.payload, payload(index as u64 + 1000, 300 + index));
    }
    assert_eq!(manager.end_rba(), records.last().unwrap().end_rba);
}

#[test]
fn records_larger_than_the_output_buffer_stream_through_it() {
    let fixture = Fixture::new(
        log_parameters(4, 2, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let sizes = [300 * 1024, 3 * 1024 * 1024 + 17, 10, 40 * 1024];
    let mut ranges = Vec::new();
    for (index, size) in sizes.iter().enumerate() {
        ranges.push(manager.append(5, &[&payload(index as u64, *size)]).unwrap());
    }
    manager.force(manager.end_rba()).unwrap();
    let statistics = manager.statistics();
    assert!(
        statistics.qjstwtb > 0,
        "a record larger than OUTBUFF must wait for buffers"
    );
    assert!(statistics.qjstwrw > 0);
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len(), sizes.len());
    for (index, record) in records.iter().enumerate() {
        assert_eq!(record.payload, payload(index as u64, sizes[index]));
    }
    // A record larger than an active log spans log switches (tests/log_spanned_records.rs).
    let spanned = payload(77, 4 * 1024 * 1024);
    let (start, end) = manager.append(5, &[&spanned]).unwrap();
    manager.force(end).unwrap();
    drop(manager);
    let manager = fixture.open();
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len(), sizes.len() + 1);
    let last = records.last().unwrap();
    assert_eq!((last.rba, last.end_rba), (start, end));
    assert!(last.payload == spanned);
    // Reserved kinds are refused.
    assert!(manager.append(0xFE, &[b"x"]).is_err());
    assert!(manager.append(0xFF, &[b"x"]).is_err());
}

#[test]
fn many_threads_append_and_force_concurrently() {
    for twoactv in [false, true] {
        let fixture = Fixture::new(
            log_parameters(2, 4, 40, twoactv),
            archive_parameters(false, false),
        );
        let manager = fixture.open();
        const THREADS: u64 = 8;
        const RECORDS: u64 = 400;
        std::thread::scope(|scope| {
            for thread in 0..THREADS {
                let manager = manager.clone();
                scope.spawn(move || {
                    for sequence in 0..RECORDS {
                        let seed = thread * 1_000_000 + sequence;
                        let body = payload(seed, (seed as usize * 131) % 3000);
                        let header = [thread.to_le_bytes(), sequence.to_le_bytes()].concat();
                        let (_, end) = manager.append(thread as u8, &[&header, &body]).unwrap();
                        if sequence % 3 == 0 {
                            manager.force(end).unwrap();
                            assert!(manager.durable_rba() >= end);
                        }
                    }
                });
            }
        });
        manager.force(manager.end_rba()).unwrap();
        let statistics = manager.statistics();
        // Group commit: fewer write I/Os than suspended forces (on all but the slowest disks).
        eprintln!("twoactv {twoactv}: {statistics:?}");
        manager.shutdown().unwrap();
        drop(manager);
        let manager = fixture.open();
        let records = read_all(&manager, Rba(0));
        assert_eq!(records.len() as u64, THREADS * RECORDS);
        let mut next_sequence = [0u64; THREADS as usize];
        let mut previous_end = Rba(0);
        for record in &records {
            assert!(record.rba >= previous_end);
            previous_end = record.end_rba;
            let thread = u64::from_le_bytes(record.payload[0..8].try_into().unwrap());
            let sequence = u64::from_le_bytes(record.payload[8..16].try_into().unwrap());
            assert_eq!(record.kind as u64, thread);
            assert_eq!(
                sequence, next_sequence[thread as usize],
                "thread {thread} records out of order"
            );
            next_sequence[thread as usize] += 1;
            let seed = thread * 1_000_000 + sequence;
            assert_eq!(
                record.payload[16..],
                payload(seed, (seed as usize * 131) % 3000)[..]
            );
        }
    }
}

/// Fill small active logs several times over so the ring wraps; archives hold the old ranges.
fn wrap_the_ring(compress: bool, twoarch: bool) {
    let fixture = Fixture::new(
        log_parameters(1, 3, 40, false),
        archive_parameters(compress, twoarch),
    );
    let manager = fixture.open();
    let mut expected = Vec::new();
    let mut index = 0u64;
    while manager.end_rba().0 < 7 * 1024 * 1024 {
        let body = payload(index, 5000 + (index as usize * 53) % 9000);
        let (start, end) = manager.append(2, &[&body]).unwrap();
        expected.push((start, body));
        if index.is_multiple_of(10) {
            manager.force(end).unwrap();
        }
        index += 1;
    }
    manager.force(manager.end_rba()).unwrap();
    assert!(manager.wait_for_offload(Duration::from_secs(30)));
    let statistics = manager.statistics();
    assert!(statistics.active_log_switches >= 6, "{statistics:?}");
    assert!(statistics.qjstciof >= 6 * 250, "{statistics:?}");
    assert_eq!(
        statistics.qjstalw,
        statistics.active_log_switches * if twoarch { 2 } else { 1 }
    );
    assert!(manager.take_checkpoint_request());
    assert!(!manager.take_checkpoint_request());
    let archives = manager.archives();
    assert!(archives.len() >= 6);
    for pair in archives.windows(2) {
        assert_eq!(
            pair[0].end_rba, pair[1].start_rba,
            "archives must cover the log without gaps"
        );
    }
    let check = |manager: &LogManager| {
        let records = read_all(manager, Rba(0));
        assert_eq!(records.len(), expected.len());
        for (record, (start, body)) in records.iter().zip(&expected) {
            assert_eq!(record.rba, *start);
            assert_eq!(&record.payload, body);
        }
    };
    check(&manager);
    assert!(
        manager.statistics().qjstalr >= 1,
        "the oldest records come from archives"
    );
    manager.shutdown().unwrap();
    drop(manager);
    let manager = fixture.open();
    check(&manager);
    let bsds = manager.bsds();
    assert!(
        bsds.active_logs
            .iter()
            .filter(|entry| entry.status == ActiveLogStatus::Current)
            .count()
            == 1
    );
    if twoarch {
        // Lose copy 1 of the oldest archive: copy 2 serves.
        let first = &manager.archives()[0];
        std::fs::remove_file(fixture.directory.join("archive").join(&first.copies[0])).unwrap();
        check(&manager);
    }
    let suffix = if compress { ".log.z" } else { ".log" };
    assert!(manager
        .archives()
        .iter()
        .all(|entry| entry.copies.iter().all(|name| name.ends_with(suffix))));
    drop(manager);
    let report = LogManager::verify(
        fixture.fs.clone(),
        &fixture.directory,
        &fixture.log,
        &fixture.archive,
    )
    .unwrap();
    assert_eq!(report.records, expected.len() as u64);
    assert_eq!(report.first_rba, Rba(0));
    assert_eq!(report.is_healthy(), !twoarch, "{:?}", report.problems);
}

#[test]
fn ring_wrap_reads_through_plain_archives() {
    wrap_the_ring(false, false);
}

#[test]
fn ring_wrap_reads_through_compressed_dual_archives() {
    wrap_the_ring(true, true);
}

#[test]
fn dual_logging_repairs_a_damaged_copy_from_the_other() {
    for damaged_copy in [1usize, 0] {
        let fixture = Fixture::new(
            log_parameters(1, 2, 40, true),
            archive_parameters(false, false),
        );
        let manager = fixture.open();
        let mut ranges = Vec::new();
        for index in 0..50u64 {
            ranges.push(manager.append(1, &[&payload(index, 700)]).unwrap());
            manager.force(ranges.last().unwrap().1).unwrap();
        }
        let statistics = manager.statistics();
        // Ping-pong slots: the partial page is never rewritten in place, nothing is serial.
        assert_eq!(statistics.qjstserw, 0, "no serial writes with dual logging");
        assert_eq!(statistics.qjstlogw[0], statistics.qjstlogw[1]);
        let end = manager.end_rba();
        manager.shutdown().unwrap();
        drop(manager);
        let damaged = fixture.active_path(damaged_copy, 0);
        let good = fixture.active_path(1 - damaged_copy, 0);
        if damaged_copy == 1 {
            // Copy 2's tail is lost (zeroed) from the middle of record 40.
            let from = ranges[40].0 .0 + 100;
            damage(
                &damaged,
                ACTIVE_LOG_HEADER_BYTES + from,
                &vec![0u8; (end.0 - from) as usize],
            );
        } else {
            // Copy 1 has garbage in records 10 and 45.
            damage(
                &damaged,
                ACTIVE_LOG_HEADER_BYTES + ranges[10].0 .0 + 20,
                b"garbage",
            );
            damage(
                &damaged,
                ACTIVE_LOG_HEADER_BYTES + ranges[45].0 .0 + 3,
                b"x",
            );
        }
        let report = LogManager::verify(
            fixture.fs.clone(),
            &fixture.directory,
            &fixture.log,
            &fixture.archive,
        )
        .unwrap();
        assert!(!report.is_healthy(), "verify must report the damaged copy");
        assert_eq!(report.records, 50);
        let manager = fixture.open();
        assert_eq!(manager.end_rba(), end);
        let records = read_all(&manager, Rba(0));
        assert_eq!(records.len(), 50);
        for (index, record) in records.iter().enumerate() {
            assert_eq!(record.payload, payload(index as u64, 700));
        }
        // The damaged copy was repaired: both copies hold the same log bytes.
        let length = end.0 as usize;
        assert_eq!(
            read_file_range(&damaged, ACTIVE_LOG_HEADER_BYTES, length),
            read_file_range(&good, ACTIVE_LOG_HEADER_BYTES, length)
        );
        drop(manager);
        let report = LogManager::verify(
            fixture.fs.clone(),
            &fixture.directory,
            &fixture.log,
            &fixture.archive,
        )
        .unwrap();
        assert!(report.is_healthy(), "{:?}", report.problems);
    }
}

#[test]
fn dual_logging_keeps_a_record_that_reached_only_one_copy() {
    let fixture = Fixture::new(
        log_parameters(1, 2, 40, true),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let first = manager.append(1, &[b"one"]).unwrap();
    let second = manager.append(1, &[b"two"]).unwrap();
    manager.force(second.1).unwrap();
    manager.shutdown().unwrap();
    drop(manager);
    // As if the last write reached copy 1 only: copy 2 lacks record two.
    damage(
        &fixture.active_path(1, 0),
        ACTIVE_LOG_HEADER_BYTES + second.0 .0,
        &[0u8; 12],
    );
    let manager = fixture.open();
    assert_eq!(manager.end_rba(), second.1);
    assert_eq!(read_all(&manager, first.0).len(), 2);
}

#[test]
fn archive_log_switches_truncates_and_archives() {
    let fixture = Fixture::new(
        log_parameters(1, 2, 40, false),
        archive_parameters(true, false),
    );
    let manager = fixture.open();
    let mut expected = Vec::new();
    for round in 0..5u64 {
        for index in 0..20u64 {
            let body = payload(round * 100 + index, 333);
            expected.push(manager.append(3, &[&body]).unwrap().0);
        }
        assert!(!manager.take_checkpoint_request());
        let before = manager.end_rba();
        manager.archive_log().unwrap();
        let after = manager.end_rba();
        assert_eq!(after.0 % LOG_PAGE_BYTES as u64, 0);
        assert!(
            after > before
                && after.0 - before.0 <= LOG_PAGE_BYTES as u64 + LOG_RECORD_HEADER_BYTES as u64
        );
        assert_eq!(manager.durable_rba(), after, "ARCHIVE LOG forces the log");
        assert!(
            manager.take_checkpoint_request(),
            "a log switch requests a checkpoint"
        );
        assert!(manager.wait_for_offload(Duration::from_secs(30)));
        let archives = manager.archives();
        assert_eq!(archives.len() as u64, round + 1);
        assert_eq!(archives.last().unwrap().end_rba, after.0);
    }
    // ARCHIVE LOG with nothing new written does not switch.
    let end = manager.end_rba();
    manager.archive_log().unwrap();
    assert_eq!(manager.end_rba(), end);
    assert_eq!(manager.archives().len(), 5);
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.iter().map(|r| r.rba).collect::<Vec<_>>(), expected);
    manager.shutdown().unwrap();
    drop(manager);
    let manager = fixture.open();
    assert_eq!(manager.end_rba(), end);
    assert_eq!(read_all(&manager, Rba(0)).len(), expected.len());
    let (start, _) = manager.append(1, &[b"next"]).unwrap();
    assert_eq!(start, end);
}

#[test]
fn checkpoints_are_recorded_in_the_bsds() {
    let fixture = Fixture::new(
        log_parameters(1, 3, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    assert_eq!(manager.last_checkpoint(), None);
    let mut checkpoint = None;
    while !manager.take_checkpoint_request() {
        let (start, end) = manager.append(7, &[&payload(1, 10_000)]).unwrap();
        checkpoint.get_or_insert(CheckpointLocation {
            begin_rba: start,
            end_rba: end,
        });
    }
    assert!(manager.end_rba().0 > 1024 * 1024);
    let (begin, _) = manager.append(8, &[b"begin checkpoint"]).unwrap();
    let (_, end) = manager.append(9, &[b"end checkpoint"]).unwrap();
    let location = CheckpointLocation {
        begin_rba: begin,
        end_rba: end,
    };
    manager.record_checkpoint(location).unwrap();
    assert!(manager.durable_rba() >= end);
    assert_eq!(manager.last_checkpoint(), Some(location));
    assert_eq!(manager.statistics().qjstllcp, 1);
    assert!(manager
        .record_checkpoint(CheckpointLocation {
            begin_rba: end,
            end_rba: Rba(end.0 + 1_000_000)
        })
        .is_err());
    let (_, last) = manager.append(1, &[b"after"]).unwrap();
    manager.force(last).unwrap();
    drop(manager);
    let manager = fixture.open();
    assert_eq!(manager.last_checkpoint(), Some(location));
    assert_eq!(manager.end_rba(), last);
    let bsds = Bsds::read(&*fixture.fs, &fixture.directory).unwrap();
    assert_eq!(bsds.last_checkpoint(), Some(location));
}

/// A log of `active_logs` 1 MiB active logs whose offload is suspended, appenders waiting
/// `wait` for a reusable active log before `ActiveLogsFull`.
fn offload_suspended(active_logs: u32, wait: Duration) -> (Fixture, Arc<LogManager>) {
    let fixture = Fixture::new(
        log_parameters(1, active_logs, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    manager.set_offload_suspended(true);
    manager.set_active_log_full_wait(wait);
    (fixture, manager)
}

#[test]
fn stuck_offload_fills_every_active_log() {
    let (_fixture, manager) = offload_suspended(2, Duration::from_millis(300));
    let mut appended = 0u64;
    let error = loop {
        match manager.append(1, &[&payload(appended, 20_000)]) {
            Ok(_) => appended += 1,
            Err(error) => break error,
        }
        assert!(appended < 1000, "appends never failed");
    };
    assert!(
        matches!(error, StorageError::ActiveLogsFull { .. }),
        "{error}"
    );
    let text = error.to_string();
    assert!(
        text.contains("LOGCOPY1.DS01") && text.contains("suspended"),
        "{text}"
    );
    // Two files of 1 MiB: the first is full and unarchived, the second is full too.
    assert!(appended * 20_009 > 1024 * 1024 && appended * 20_009 < 2 * 1024 * 1024 + 20_009);
    manager.set_offload_suspended(false);
    manager.set_active_log_full_wait(Duration::from_secs(30));
    manager
        .append(1, &[b"after the offload caught up"])
        .unwrap();
    manager.force(manager.end_rba()).unwrap();
    assert!(manager.wait_for_offload(Duration::from_secs(30)));
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len() as u64, appended + 1);
}

/// Wait until the end of the log has not moved for `quiet` (every appender is blocked).
fn wait_until_appends_stop(manager: &LogManager, quiet: Duration) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut last = manager.end_rba();
    loop {
        std::thread::sleep(quiet);
        let now = manager.end_rba();
        if now == last {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "appends never stopped"
        );
        last = now;
    }
}

/// Eight appenders wait together for the next active log (offload suspended, every file
/// full). Once it is reusable, one of them switches to it and the others append to the new
/// file: each switch ends a full file. (Each waiting appender used to end the new file again
/// as it took its turn, so a queue of them switched through the ring with nearly empty
/// files, archived at a few bytes each.)
#[test]
fn appenders_waiting_for_an_active_log_switch_to_it_once() {
    const RECORD: usize = 20_000;
    const THREADS: u64 = 8;
    const PER_THREAD: u64 = 40;
    let (_fixture, manager) = offload_suspended(3, Duration::from_secs(120));
    std::thread::scope(|scope| {
        for thread in 0..THREADS {
            let manager = &manager;
            scope.spawn(move || {
                for index in 0..PER_THREAD {
                    manager
                        .append(1, &[&payload(thread * 1000 + index, RECORD)])
                        .unwrap();
                }
            });
        }
        wait_until_appends_stop(&manager, Duration::from_millis(300));
        assert_eq!(
            manager.statistics().active_log_switches,
            2,
            "every active log full, the appenders waiting"
        );
        manager.set_offload_suspended(false);
    });
    manager.force(manager.end_rba()).unwrap();
    manager.archive_log().unwrap();
    assert!(manager.wait_for_offload(Duration::from_secs(60)));
    let archives = manager.archives();
    let data_bytes = 1024 * 1024 - 4096;
    let full = (data_bytes - RECORD as u64 - 9) as f64;
    for archive in &archives[..archives.len() - 1] {
        assert!(
            archive.content_bytes as f64 >= full,
            "archive {:016X}-{:016X} holds {} bytes: its active log was switched before it was full",
            archive.start_rba,
            archive.end_rba,
            archive.content_bytes
        );
    }
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len() as u64, THREADS * PER_THREAD);
}

/// A record larger than an active log (a chain of segments) whose switch waits for the next
/// active log keeps the append lock while it waits: appenders arriving meanwhile (many, so
/// that one of them would most likely carry the switch out if the chain let them run) wait
/// for the whole chain, and none comes between two of its segments (a reader would drop the
/// chain as an orphan).
#[test]
fn a_spanned_record_waiting_for_an_active_log_is_not_interleaved() {
    let (_fixture, manager) = offload_suspended(3, Duration::from_secs(120));
    // Into the third file, leaving most of it free.
    let mut count = 0;
    while manager.statistics().active_log_switches < 2 {
        manager.append(1, &[&payload(count, 30_000)]).unwrap();
        count += 1;
    }
    let spanned = payload(7777, 1_500_000);
    const INTERLOPERS: u64 = 32;
    let (interlopers, spanned_range) = std::thread::scope(|scope| {
        let chain = scope.spawn(|| manager.append(2, &[&spanned]).unwrap());
        wait_until_appends_stop(&manager, Duration::from_millis(300));
        assert!(
            !chain.is_finished(),
            "the chain waits for the next active log"
        );
        // Started across one retry period of a waiting switch, so that, if they could retry
        // the switch, one of them would find the next active log reusable before the chain.
        let interlopers: Vec<_> = (0..INTERLOPERS)
            .map(|_| {
                std::thread::sleep(Duration::from_millis(10) / INTERLOPERS as u32);
                scope.spawn(|| manager.append(3, &[b"interloper"]).unwrap())
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        manager.set_offload_suspended(false);
        let range = chain.join().unwrap();
        let interlopers: Vec<_> = interlopers
            .into_iter()
            .map(|interloper| interloper.join().unwrap().0)
            .collect();
        (interlopers, range)
    });
    for rba in interlopers {
        assert!(
            rba >= spanned_range.1,
            "an interloper at {rba} came inside the chain {}-{}",
            spanned_range.0,
            spanned_range.1
        );
    }
    manager.force(manager.end_rba()).unwrap();
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len() as u64, count + 1 + INTERLOPERS);
    let chain = records
        .iter()
        .find(|record| record.kind == 2)
        .expect("the spanned record");
    assert_eq!(
        (chain.rba, chain.end_rba),
        (spanned_range.0, spanned_range.1)
    );
    assert!(chain.payload == spanned);
    assert_eq!(records.last().unwrap().payload, b"interloper");
}

/// The log's operator messages, collected.
fn collect_operator_messages(manager: &LogManager) -> Arc<std::sync::Mutex<Vec<String>>> {
    let collected = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = collected.clone();
    manager.set_operator_messages(Arc::new(move |text: &str| {
        sink.lock().unwrap().push(text.to_string());
    }));
    collected
}

/// A log switch reports the end of the old active log and the new current one on every copy
/// (CSQJ002I, CSQJ001I), with their RBA ranges, and each offload the archive it wrote
/// (CSQJ003I), as MQ's operators see them.
#[test]
fn log_switches_and_offloads_are_reported() {
    for twoactv in [false, true] {
        let fixture = Fixture::new(
            log_parameters(1, 3, 40, twoactv),
            archive_parameters(false, false),
        );
        let manager = fixture.open();
        let collected = collect_operator_messages(&manager);
        let mut count = 0;
        while manager.statistics().active_log_switches < 1 {
            manager.append(1, &[&payload(count, 30_000)]).unwrap();
            count += 1;
        }
        manager.force(manager.end_rba()).unwrap();
        assert!(manager.wait_for_offload(Duration::from_secs(30)));
        let archive = manager.archives()[0].clone();
        let messages = collected.lock().unwrap().clone();
        let copies = if twoactv { 2 } else { 1 };
        for copy in 0..copies {
            let ended = format!(
                "CSQJ002I END OF ACTIVE LOG DATA SET DSNAME={}, STARTRBA={} ENDRBA={}",
                fixture.active_path(copy, 0).display(),
                Rba(archive.start_rba),
                Rba(archive.end_rba - 1)
            );
            let current = format!(
                "CSQJ001I CURRENT COPY {} ACTIVE LOG DATA SET IS DSNAME={}, STARTRBA={} ENDRBA={}",
                copy + 1,
                fixture.active_path(copy, 1).display(),
                Rba(archive.end_rba),
                Rba(2 * archive.end_rba - 1)
            );
            let at = |text: &str| {
                messages
                    .iter()
                    .position(|message| message == text)
                    .unwrap_or_else(|| panic!("no {text:?} in {messages:#?}"))
            };
            assert!(at(&ended) < at(&current), "{messages:#?}");
        }
        let archived = format!(
            "CSQJ003I FULL ARCHIVE LOG VOLUME DSNAME={}, STARTRBA={} ENDRBA={}, COPY1",
            fixture
                .directory
                .join("archive")
                .join(&archive.copies[0])
                .display(),
            Rba(archive.start_rba),
            Rba(archive.end_rba - 1)
        );
        assert!(messages.contains(&archived), "{messages:#?}");
        assert!(
            !messages.iter().any(|message| message.starts_with("CSQJ11")),
            "the ring never filled: {messages:#?}"
        );
    }
}

/// With offload stuck, the last available active log is reported at every 5% it fills
/// (CSQJ110E), then once that the active logs are out of space (CSQJ111A) however long the
/// appenders wait; once a switch succeeds, a new episode is reported again.
#[test]
fn a_filling_last_active_log_and_then_no_space_are_reported() {
    let (_fixture, manager) = offload_suspended(2, Duration::from_millis(300));
    let collected = collect_operator_messages(&manager);
    let mut appended = 0u64;
    let fill = |appended: &mut u64| loop {
        match manager.append(1, &[&payload(*appended, 20_000)]) {
            Ok(_) => *appended += 1,
            Err(error) => break error,
        }
        assert!(*appended < 1000, "appends never failed");
    };
    let error = fill(&mut appended);
    assert!(
        matches!(error, StorageError::ActiveLogsFull { .. }),
        "{error}"
    );
    // A second appender finds the logs still full: no second CSQJ111A.
    assert!(manager.append(1, &[b"x"]).is_err());
    let messages = collected.lock().unwrap().clone();
    let percents: Vec<u64> = messages
        .iter()
        .filter_map(|message| {
            let rest = message.strip_prefix("CSQJ110E LAST COPY1 ACTIVE LOG DATA SET IS ")?;
            rest.strip_suffix(" PERCENT FULL")?.parse().ok()
        })
        .collect();
    // The first file had a reusable successor: only the second, the last available, is
    // reported, at each step of 5% once.
    assert_eq!(
        percents,
        (1..=19).map(|step| step * 5).collect::<Vec<u64>>(),
        "{messages:#?}"
    );
    let out_of_space = |messages: &[String]| {
        messages
            .iter()
            .filter(|message| message.as_str() == "CSQJ111A OUT OF SPACE IN ACTIVE LOG DATA SETS")
            .count()
    };
    assert_eq!(out_of_space(&messages), 1, "{messages:#?}");
    let last_warning = messages
        .iter()
        .position(|message| message.starts_with("CSQJ110E"))
        .unwrap();
    assert!(messages[last_warning..]
        .iter()
        .any(|message| message.starts_with("CSQJ111A")));
    // The offload catches up: the switch goes through, then the ring fills again.
    manager.set_offload_suspended(false);
    manager.set_active_log_full_wait(Duration::from_secs(30));
    manager
        .append(1, &[b"after the offload caught up"])
        .unwrap();
    manager.force(manager.end_rba()).unwrap();
    assert!(manager.wait_for_offload(Duration::from_secs(30)));
    manager.set_offload_suspended(true);
    manager.set_active_log_full_wait(Duration::from_millis(300));
    let error = fill(&mut appended);
    assert!(
        matches!(error, StorageError::ActiveLogsFull { .. }),
        "{error}"
    );
    assert_eq!(out_of_space(&collected.lock().unwrap()), 2);
}

#[test]
fn unarchived_logs_are_offloaded_after_a_restart() {
    let fixture = Fixture::new(
        log_parameters(1, 3, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    manager.set_offload_suspended(true);
    let mut count = 0;
    while manager.end_rba().0 < 1024 * 1024 + 100_000 {
        manager.append(1, &[&payload(count, 9000)]).unwrap();
        count += 1;
    }
    manager.force(manager.end_rba()).unwrap();
    manager.abandon();
    drop(manager);
    let manager = fixture.open();
    assert!(manager.wait_for_offload(Duration::from_secs(30)));
    assert_eq!(manager.archives().len(), 1);
    assert_eq!(
        manager.bsds().active_logs[0].status,
        ActiveLogStatus::Reusable
    );
    assert_eq!(read_all(&manager, Rba(0)).len() as u64, count);
}

#[test]
fn bsds_damage_at_open() {
    let fixture = Fixture::new(
        log_parameters(1, 2, 40, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    manager.append(1, &[b"x"]).unwrap();
    drop(manager);
    let paths = bsds_paths(&fixture.directory);
    // One copy damaged: open uses the other and rewrites it.
    damage(&paths[0], 30, b"!!");
    let manager = fixture.open();
    drop(manager);
    assert!(Bsds::read_with_damage(&*fixture.fs, &fixture.directory)
        .unwrap()
        .damaged
        .is_empty());
    // Both damaged: a clear error naming both files.
    damage(&paths[0], 30, b"!!");
    std::fs::remove_file(&paths[1]).unwrap();
    let error = LogManager::open(
        fixture.fs.clone(),
        &fixture.directory,
        &fixture.log,
        &fixture.archive,
    )
    .err()
    .unwrap();
    assert!(matches!(error, StorageError::CorruptMetadata { .. }));
    let text = error.to_string();
    assert!(
        text.contains("BSDS01") && text.contains("BSDS02") && text.contains("missing"),
        "{text}"
    );
    // And creating over an existing log is refused.
    let error = LogManager::create(
        fixture.fs.clone(),
        &fixture.directory,
        &fixture.log,
        &fixture.archive,
    )
    .unwrap_err();
    assert!(error.to_string().contains("already exists"), "{error}");
}

#[test]
fn changed_log_shape_is_refused() {
    let fixture = Fixture::new(
        log_parameters(1, 2, 40, false),
        archive_parameters(false, false),
    );
    let mut other = fixture.log.clone();
    other.twoactv = true;
    let error = LogManager::open(
        fixture.fs.clone(),
        &fixture.directory,
        &other,
        &fixture.archive,
    )
    .err()
    .unwrap();
    assert!(error.to_string().contains("TWOACTV"), "{error}");
}

#[test]
fn an_interrupted_log_switch_completes_at_restart() {
    let fixture = Fixture::new(
        log_parameters(1, 3, 40, true),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let (first, _) = manager.append(1, &[b"before the switch"]).unwrap();
    manager.archive_log().unwrap();
    let switched_at = manager.end_rba();
    assert!(manager.wait_for_offload(Duration::from_secs(30)));
    manager.shutdown().unwrap();
    drop(manager);
    // Undo the new file's header on both copies: as if the failure came after the end-of-file
    // marker was durable but before the next active log was started.
    let bsds = Bsds::read(&*fixture.fs, &fixture.directory).unwrap();
    for copy in 0..2 {
        let header = ActiveLogHeader {
            copy_number: copy as u32 + 1,
            data_set_number: 2,
            data_bytes: 1024 * 1024,
            start_rba: None,
            created_unix_seconds: bsds.created_unix_seconds,
        };
        damage(&fixture.active_path(copy, 1), 0, &header.encode());
    }
    // And damage copy 2's header of the first file: restart rewrites it from copy 1.
    damage(&fixture.active_path(1, 0), 40, b"\xFF");
    let manager = fixture.open();
    assert_eq!(
        manager.end_rba(),
        switched_at,
        "the log ends at the marker's end"
    );
    let (next, _) = manager.append(2, &[b"after the switch"]).unwrap();
    assert_eq!(next, switched_at);
    manager.force(manager.end_rba()).unwrap();
    assert!(manager.wait_for_offload(Duration::from_secs(30)));
    let records = read_all(&manager, first);
    assert_eq!(
        records
            .iter()
            .map(|r| r.payload.as_slice())
            .collect::<Vec<_>>(),
        vec![&b"before the switch"[..], b"after the switch"]
    );
    drop(manager);
    let report = LogManager::verify(
        fixture.fs.clone(),
        &fixture.directory,
        &fixture.log,
        &fixture.archive,
    )
    .unwrap();
    assert!(report.is_healthy(), "{:?}", report.problems);
    assert_eq!(report.records, 2);
}

#[test]
fn throughput_measurement_groups_commits() {
    let fixture = Fixture::new(
        log_parameters(16, 3, 400, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let single = ferrite_storage::log::measure_throughput(&manager, 1, 200, 1024, 1).unwrap();
    let grouped = ferrite_storage::log::measure_throughput(&manager, 16, 200, 1024, 1).unwrap();
    eprintln!(
        "1 thread: {:.0} commits/s; 16 threads: {:.0} commits/s, {} forces in {} write I/Os",
        single.records_per_second(),
        grouped.records_per_second(),
        grouped.statistics.qjstwrf,
        grouped.statistics.qjstlogw[0]
    );
    assert_eq!(
        single.log_bytes,
        200 * (1024 + LOG_RECORD_HEADER_BYTES as u64)
    );
    assert_eq!(grouped.statistics.qjstwrf, 16 * 200);
    // Group commit: concurrent forcers share write I/Os.
    assert!(
        grouped.statistics.qjstlogw[0] < grouped.statistics.qjstwrf,
        "{:?}",
        grouped.statistics
    );
}

/// Readers read active logs 1 MiB at a time (`log::reader::READ_CHUNK_BYTES`) and decode
/// records from memory. Records of every size around that window: straddling its end, larger
/// than it, ending exactly at it, and crossing into the next active log after an end-of-file
/// marker; read whole (owned and borrowed), from the start, from the middle, and while new
/// records are appended behind the reader.
#[test]
fn chunked_reads_cross_window_and_file_ends() {
    const CHUNK: usize = 1024 * 1024;
    let fixture = Fixture::new(
        log_parameters(3, 4, 64, false),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let mut expected: Vec<(Rba, Vec<u8>)> = Vec::new();
    let mut append = |manager: &LogManager, index: u64, length: usize| {
        let body = payload(index, length);
        let (start, _) = manager.append(2, &[&body]).unwrap();
        expected.push((start, body));
    };
    let mut index = 0u64;
    // Small records up to just before the first window end, then one straddling it.
    while manager.end_rba().0 < (CHUNK - 3000) as u64 {
        append(&manager, index, 100 + (index as usize * 131) % 2000);
        index += 1;
    }
    append(&manager, index, 6000);
    index += 1;
    // A record larger than a window, then one ending exactly at a window end (relative to the
    // window the reader will have started at that record), then one whose header straddles.
    append(&manager, index, CHUNK + 12_345);
    index += 1;
    append(&manager, index, CHUNK - LOG_RECORD_HEADER_BYTES);
    index += 1;
    append(&manager, index, 1);
    index += 1;
    // Fill past the end of the 3 MiB active log: an end-of-file marker, then the next file.
    while manager.end_rba().0 < 4 * 1024 * 1024 {
        append(&manager, index, 50_000 + (index as usize * 7919) % 40_000);
        index += 1;
    }
    manager.force(manager.end_rba()).unwrap();
    assert!(manager.statistics().active_log_switches >= 1);

    let check = |manager: &LogManager, from_index: usize, expected: &[(Rba, Vec<u8>)]| {
        let records = read_all(manager, expected[from_index].0);
        assert_eq!(records.len(), expected.len() - from_index);
        for (record, (start, body)) in records.iter().zip(&expected[from_index..]) {
            assert_eq!(record.rba, *start);
            assert_eq!(record.payload.len(), body.len(), "record at {start}");
            assert!(record.payload == *body, "record at {start} differs");
            assert_eq!(
                record.end_rba.0,
                start.0 + (LOG_RECORD_HEADER_BYTES + body.len()) as u64
            );
        }
        let mut reader = manager.read_forward(expected[from_index].0).unwrap();
        let mut count = 0;
        while let Some(record) = reader.next_ref() {
            let record = record.unwrap();
            let (start, body) = &expected[from_index + count];
            assert_eq!((record.rba, record.payload), (*start, &body[..]));
            count += 1;
        }
        assert_eq!(count, expected.len() - from_index);
    };
    check(&manager, 0, &expected);
    for from in [
        1,
        expected.len() / 3,
        expected.len() / 2,
        expected.len() - 1,
    ] {
        check(&manager, from, &expected);
    }

    // A reader at the end of the durable log sees records appended behind it once they are
    // forced, and nothing before (bytes beyond the durable RBA are never kept).
    let mut reader = manager.read_forward(manager.end_rba()).unwrap();
    assert!(reader.next().is_none());
    let mut tail = Vec::new();
    for round in 0..5u64 {
        let body = payload(1000 + round, 300);
        let (start, end) = manager.append(3, &[&body]).unwrap();
        manager.force(end).unwrap();
        tail.push((start, body));
    }
    let mut reader = manager.read_forward(tail[0].0).unwrap();
    for (start, body) in &tail {
        let record = reader.next().unwrap().unwrap();
        assert_eq!((record.rba, &record.payload), (*start, body));
    }
    assert!(reader.next().is_none());
    let (start, end) = manager.append(3, &[b"later"]).unwrap();
    manager.force(end).unwrap();
    let record = reader.next().unwrap().unwrap();
    assert_eq!((record.rba, &record.payload[..]), (start, &b"later"[..]));
    manager.shutdown().unwrap();
    drop(manager);

    // After a restart (whose end-of-log scan also reads in windows) every record is still there.
    let manager = fixture.open();
    expected.extend(tail);
    expected.push((start, b"later".to_vec()));
    check(&manager, 0, &expected);
}

/// A record damaged in copy 1 while the log manager runs (so restart has not repaired it) is
/// read from copy 2; the records around it still come from copy 1's window.
#[test]
fn chunked_reader_falls_back_to_copy_2_for_a_damaged_record() {
    let fixture = Fixture::new(
        log_parameters(1, 2, 40, true),
        archive_parameters(false, false),
    );
    let manager = fixture.open();
    let mut ranges = Vec::new();
    for index in 0..40u64 {
        ranges.push(manager.append(1, &[&payload(index, 900)]).unwrap());
    }
    manager.force(manager.end_rba()).unwrap();
    damage(
        &fixture.active_path(0, 0),
        ACTIVE_LOG_HEADER_BYTES + ranges[17].0 .0 + 30,
        b"damage",
    );
    let records = read_all(&manager, Rba(0));
    assert_eq!(records.len(), 40);
    for (index, record) in records.iter().enumerate() {
        assert_eq!(record.payload, payload(index as u64, 900));
    }
    // Damage on both copies: the reader reports the RBA.
    damage(
        &fixture.active_path(1, 0),
        ACTIVE_LOG_HEADER_BYTES + ranges[17].0 .0 + 30,
        b"damage",
    );
    let mut reader = manager.read_forward(Rba(0)).unwrap();
    for _ in 0..17 {
        reader.next().unwrap().unwrap();
    }
    match reader.next().unwrap() {
        Err(StorageError::CorruptLog { rba, .. }) => assert_eq!(rba, ranges[17].0),
        other => panic!("expected a corrupt-log error, got {other:?}"),
    }
    assert!(reader.next().is_none());
    manager.abandon();
}

/// Forcers park individually and are woken when their RBA is durable; when the logger fails,
/// every parked forcer (and every later one) gets the error instead of waiting forever.
#[test]
fn parked_forcers_return_when_durable_or_when_the_logger_fails() {
    use ferrite_storage::vfs::simulated::{PathFilter, SimulatedFileSystem};
    let fs = SimulatedFileSystem::new(11);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/FORCEQM");
    let log = log_parameters(1, 3, 64, false);
    let archive = archive_parameters(false, false);
    LogManager::create(shared.clone(), directory, &log, &archive).unwrap();
    let manager = LogManager::open(shared, directory, &log, &archive).unwrap();
    // Many forcers of different RBAs: each returns with its own RBA durable.
    std::thread::scope(|scope| {
        for thread in 0..16u64 {
            let manager = &manager;
            scope.spawn(move || {
                for index in 0..50u64 {
                    let body = payload(thread * 1000 + index, 50 + (index as usize % 7) * 300);
                    let (_, end) = manager.append(1, &[&body]).unwrap();
                    manager.force(end).unwrap();
                    assert!(manager.durable_rba() >= end);
                }
            });
        }
    });
    // Then the next log sync fails: the forcers parked at that moment and every later one fail.
    fs.fsync_error_at_matching(0, PathFilter::prefix("/qm/FORCEQM/active/"));
    let failures = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for thread in 0..8u64 {
            let (manager, failures) = (&manager, &failures);
            scope.spawn(move || {
                for index in 0..20u64 {
                    let Ok((_, end)) = manager.append(1, &[&payload(thread + index, 200)]) else {
                        failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        return;
                    };
                    if manager.force(end).is_err() {
                        failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                }
            });
        }
    });
    assert_eq!(failures.into_inner(), 8, "every forcer sees the failure");
    assert!(
        manager.force(manager.end_rba()).is_err() || manager.durable_rba() == manager.end_rba()
    );
    manager.abandon();
}

/// Durability notices: a caller that does not wait for the log is called back once its RBA is
/// durable (by the log's writer), never before; when the log fails, every notice still
/// registered is called and the outcome is the log's error; a notice for what is durable
/// already comes straight back.
#[test]
fn durability_notices_are_called_once_durable_or_when_the_log_fails() {
    use ferrite_storage::vfs::simulated::{PathFilter, SimulatedFileSystem};
    use std::sync::mpsc;
    let fs = SimulatedFileSystem::new(12);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new("/qm/NOTICEQM");
    let log = log_parameters(1, 3, 64, false);
    let archive = archive_parameters(false, false);
    LogManager::create(shared.clone(), directory, &log, &archive).unwrap();
    let manager = LogManager::open(shared, directory, &log, &archive).unwrap();

    let (called, notices) = mpsc::channel::<(usize, Rba)>();
    let mut ends = Vec::new();
    for index in 0..32usize {
        let (_, end) = manager.append(1, &[&payload(index as u64, 300)]).unwrap();
        let called = called.clone();
        let notice = Box::new(move || {
            let _ = called.send((index, end));
        });
        match manager.notify_when_durable(end, notice) {
            Some(_) => assert!(
                manager.durable_rba() >= end,
                "a notice came back with {end} not durable"
            ),
            None => ends.push((index, end)),
        }
    }
    for _ in 0..ends.len() {
        let (index, end) = notices
            .recv_timeout(Duration::from_secs(60))
            .expect("every notice is called once the log is durable");
        assert!(ends.contains(&(index, end)));
        assert!(
            manager.durable_rba() >= end,
            "notice {index} called before {end} is durable"
        );
        assert!(matches!(manager.durable_outcome(end), Some(Ok(()))));
    }
    let (_, end) = manager.append(1, &[&payload(99, 10)]).unwrap();
    manager.force(end).unwrap();
    assert!(manager.notify_when_durable(end, Box::new(|| {})).is_some());

    // The next log sync fails: the notices waiting then are called, with the log's error.
    fs.fsync_error_at_matching(0, PathFilter::prefix("/qm/NOTICEQM/active/"));
    let mut waiting = Vec::new();
    for index in 0..8usize {
        let Ok((_, end)) = manager.append(1, &[&payload(200 + index as u64, 300)]) else {
            break;
        };
        let called = called.clone();
        let notice = Box::new(move || {
            let _ = called.send((index, end));
        });
        if manager.notify_when_durable(end, notice).is_none() {
            waiting.push(end);
        }
    }
    for _ in 0..waiting.len() {
        notices
            .recv_timeout(Duration::from_secs(60))
            .expect("a notice waiting when the log fails is called");
    }
    let last = manager.end_rba();
    assert!(
        matches!(manager.durable_outcome(last), Some(Err(_))) || manager.durable_rba() >= last,
        "after the failure, the outcome is the log's error"
    );
    manager.abandon();
}
