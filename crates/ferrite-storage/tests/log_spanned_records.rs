//! Log records larger than one active log: written as a chain of segments across log switches
//! (see "Spanned records" in `log/record.rs`), read back whole from active logs and archives,
//! verified offline, and crashed at every I/O step of the chain (each switch inside it
//! included): after restart a record is there whole or not at all, every acknowledged one is
//! there, and the log goes on.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::record::{LOG_RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES};
use ferrite_storage::log::{LogManager, LogRecord};
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::Rba;

const MIB: usize = 1024 * 1024;
const DIRECTORY: &str = "/qm/SPANQM";

fn log_parameters(twoactv: bool) -> LogParameters {
    LogParameters {
        outbuff_kib: 64,
        wrthrsh: 4,
        twoactv,
        active_log_count: 3,
        active_log_size_mib: 1,
    }
}

fn archive_parameters(compress: bool) -> ArchiveParameters {
    ArchiveParameters {
        directory: "archive".to_string(),
        compress,
        twoarch: false,
        retention_days: 9999,
        max_archives: 500,
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

/// One record the workload appended: (seed, kind, length), its RBA range, whether a force
/// through its end returned.
#[derive(Clone, Debug)]
struct Appended {
    seed: u64,
    kind: u8,
    length: usize,
    range: (Rba, Rba),
    acknowledged: bool,
}

/// Small records around records of 1 MiB (exactly one active log: the 1 MiB message of the
/// issue), 1.3 MiB and 2.6 MiB (three switches inside it), given in several parts.
const WORKLOAD: [(u64, u8, usize); 9] = [
    (1, 1, 700),
    (2, 2, MIB),
    (3, 1, 40),
    (4, 3, MIB * 13 / 10),
    (5, 1, 5000),
    (6, 4, MIB * 26 / 10),
    (7, 1, 300),
    (8, 2, MIB + 17),
    (9, 1, 90),
];

/// Append the workload, forcing after each record; stops at the first failure.
fn workload(manager: &LogManager, appended: &mut Vec<Appended>) {
    for &(seed, kind, length) in &WORKLOAD {
        let body = payload(seed, length);
        let cut = length / 3;
        let Ok(range) = manager.append(kind, &[&body[..cut], &[], &body[cut..]]) else {
            return;
        };
        appended.push(Appended {
            seed,
            kind,
            length,
            range,
            acknowledged: false,
        });
        if manager.force(range.1).is_err() {
            return;
        }
        appended.last_mut().unwrap().acknowledged = true;
    }
}

fn check_record(record: &LogRecord, expected: &Appended, context: &str) {
    assert_eq!(
        (record.rba, record.end_rba),
        expected.range,
        "{context}: record {} at the wrong RBAs",
        expected.seed
    );
    assert_eq!(record.kind, expected.kind, "{context}: kind");
    assert!(
        record.payload == payload(expected.seed, expected.length),
        "{context}: record {} ({} bytes) damaged",
        expected.seed,
        expected.length
    );
}

#[test]
fn records_larger_than_an_active_log_span_switches_and_read_back_whole() {
    for (twoactv, compress) in [(false, false), (true, true)] {
        let temporary = tempfile::tempdir().unwrap();
        let directory = temporary.path().join("QM1");
        let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
        let (log, archive) = (log_parameters(twoactv), archive_parameters(compress));
        LogManager::create(fs.clone(), &directory, &log, &archive).unwrap();
        let manager = LogManager::open(fs.clone(), &directory, &log, &archive).unwrap();
        let mut appended = Vec::new();
        workload(&manager, &mut appended);
        assert_eq!(appended.len(), WORKLOAD.len());
        assert!(appended.iter().all(|record| record.acknowledged));
        // A spanned record costs its segments' headers, and the RBA range is contiguous.
        let big = &appended[3];
        let overhead = big.range.1 .0 - big.range.0 .0 - big.length as u64;
        assert!(
            overhead < 3 * (LOG_RECORD_HEADER_BYTES + SEGMENT_HEADER_BYTES) as u64 + 2 * 9,
            "1.3 MiB record took {overhead} bytes of overhead"
        );
        let statistics = manager.statistics();
        assert!(
            statistics.active_log_switches >= 5,
            "{} switches",
            statistics.active_log_switches
        );
        // Online, from the active logs and (the ring has wrapped) the archives.
        assert!(manager.wait_for_offload(Duration::from_secs(30)));
        let records = read_all(&manager, Rba(0));
        assert_eq!(records.len(), appended.len());
        for (record, expected) in records.iter().zip(&appended) {
            check_record(record, expected, "online");
        }
        // From a spanned record's own RBA, and from the record after one.
        let from_big = read_all(&manager, appended[5].range.0);
        assert_eq!(from_big.len(), 4);
        check_record(&from_big[0], &appended[5], "from the spanned record");
        // Not from inside a spanned record.
        assert!(manager
            .read_forward(Rba(appended[5].range.0 .0 + 1))
            .is_err());
        // But from an archive that starts inside one (its first segments in the archive before,
        // which retention may have deleted): the rest of the chain is passed over.
        let (start, end) = (appended[5].range.0 .0, appended[5].range.1 .0);
        let inside = manager
            .archives()
            .iter()
            .map(|archive| archive.start_rba)
            .find(|rba| start < *rba && *rba < end)
            .expect("an archive starts inside the 2.6 MiB record");
        let from_inside = read_all(&manager, Rba(inside));
        assert_eq!(from_inside.len(), 3);
        check_record(
            &from_inside[0],
            &appended[6],
            "from a file start inside a chain",
        );
        manager.shutdown().unwrap();
        drop(manager);

        // Offline verification (the `ferrite log verify` path) counts logical records.
        let report = LogManager::verify(fs.clone(), &directory, &log, &archive).unwrap();
        assert!(report.is_healthy(), "{:?}", report.problems);
        assert_eq!(report.records, appended.len() as u64);
        assert_eq!(report.orphaned_records, 0);
        assert_eq!(
            report.payload_bytes,
            appended
                .iter()
                .map(|record| record.length as u64)
                .sum::<u64>()
        );

        // After a restart every record reads back, and the log goes on.
        let manager = LogManager::open(fs.clone(), &directory, &log, &archive).unwrap();
        let after = manager.append(9, &[&payload(99, 2 * MIB)]).unwrap();
        manager.force(after.1).unwrap();
        let records = read_all(&manager, Rba(0));
        assert_eq!(records.len(), appended.len() + 1);
        for (record, expected) in records.iter().zip(&appended) {
            check_record(record, expected, "after restart");
        }
        assert_eq!(records.last().unwrap().payload, payload(99, 2 * MIB));
        manager.shutdown().unwrap();
    }
}

/// The records that must be read back after a crash: a prefix of what was appended that holds
/// every acknowledged record, each whole.
fn check_after_crash(fs: SimulatedFileSystem, appended: &[Appended], twoactv: bool, context: &str) {
    let shared: Arc<dyn FileSystem> = Arc::new(fs);
    let directory = Path::new(DIRECTORY);
    let (log, archive) = (log_parameters(twoactv), archive_parameters(false));
    let manager = LogManager::open(shared.clone(), directory, &log, &archive)
        .unwrap_or_else(|error| panic!("{context}: restart failed: {error}"));
    manager.set_active_log_full_wait(Duration::from_secs(5));
    let records = read_all(&manager, Rba(0));
    assert!(
        records.len() <= appended.len(),
        "{context}: {} records read, {} appended",
        records.len(),
        appended.len()
    );
    for (record, expected) in records.iter().zip(appended) {
        check_record(record, expected, context);
    }
    let acknowledged = appended.iter().filter(|record| record.acknowledged).count();
    assert!(
        records.len() >= acknowledged,
        "{context}: {} records read, but {acknowledged} were acknowledged",
        records.len()
    );
    // The log goes on after whatever the failure cut: a new spanned record and a small one.
    let next_big = manager.append(7, &[&payload(77, MIB * 3 / 2)]).unwrap();
    let next_small = manager.append(8, &[b"after the crash"]).unwrap();
    manager.force(next_small.1).unwrap();
    let records = read_all(&manager, Rba(0));
    let tail = &records[records.len() - 2..];
    assert_eq!(tail[0].rba, next_big.0, "{context}");
    assert_eq!(tail[0].payload, payload(77, MIB * 3 / 2), "{context}");
    assert_eq!(tail[1].payload, b"after the crash", "{context}");
    manager.shutdown().unwrap();
    drop(manager);
    let report = LogManager::verify(shared, directory, &log, &archive).unwrap();
    assert!(report.is_healthy(), "{context}: {:?}", report.problems);
    assert!(
        report.orphaned_records <= 1,
        "{context}: {} orphans",
        report.orphaned_records
    );
}

fn fresh(seed: u64, twoactv: bool) -> (SimulatedFileSystem, Arc<LogManager>) {
    let fs = SimulatedFileSystem::new(seed);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let directory = Path::new(DIRECTORY);
    let (log, archive) = (log_parameters(twoactv), archive_parameters(false));
    LogManager::create(shared.clone(), directory, &log, &archive).unwrap();
    let manager = LogManager::open(shared, directory, &log, &archive).unwrap();
    // A crash halts the file system: an appender waiting for an offload fails soon (an offload
    // of 1 MiB in memory takes milliseconds; a wait cut short only shortens the workload).
    manager.set_active_log_full_wait(Duration::from_millis(500));
    (fs, manager)
}

/// Crash at every mutating I/O step of the workload (up to `crashes_max`, spread evenly).
fn crash_at_every_step(seed: u64, mode: CrashMode, twoactv: bool, crashes_max: u64) -> u64 {
    let (fs, manager) = fresh(seed, twoactv);
    let counter = fs.count_operations(OpClass::Mutating, PathFilter::Any);
    let mut appended = Vec::new();
    workload(&manager, &mut appended);
    manager.shutdown().unwrap();
    let total = counter.get();
    assert!(total > 40, "workload did too little I/O ({total})");
    let stride = total.div_ceil(crashes_max).max(1);
    let mut crashes = 0;
    let mut step = 0;
    while step < total {
        let (fs, manager) = fresh(seed, twoactv);
        let effect = match step % 3 {
            0 => CrashEffect::NotApplied,
            1 => CrashEffect::Torn,
            _ => CrashEffect::Applied,
        };
        fs.set_crash_point(CrashPoint {
            after: step,
            class: OpClass::Mutating,
            paths: PathFilter::Any,
            effect,
        });
        let mut appended = Vec::new();
        workload(&manager, &mut appended);
        manager.abandon();
        drop(manager);
        let after = fs.crash_with(mode);
        check_after_crash(
            after,
            &appended,
            twoactv,
            &format!("seed {seed} TWOACTV {twoactv} crash at mutating step {step}/{total} ({effect:?}, {mode:?})"),
        );
        crashes += 1;
        step += stride;
    }
    crashes
}

#[test]
fn crash_inside_spanned_records_power_loss() {
    let crashes = crash_at_every_step(21, CrashMode::LoseAllUnsynced, false, u64::MAX);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_inside_spanned_records_torn_and_reordered() {
    let crashes = crash_at_every_step(22, CrashMode::Random, false, 200);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_inside_spanned_records_kill_nine() {
    let crashes = crash_at_every_step(23, CrashMode::KeepAllUnsynced, false, 200);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_inside_spanned_records_dual_logging() {
    let crashes = crash_at_every_step(24, CrashMode::Random, true, 200);
    eprintln!("{crashes} crashes survived");
}
