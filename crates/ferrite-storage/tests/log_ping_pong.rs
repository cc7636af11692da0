//! The ping-pong slots of active log format 2 (see `log/active.rs`) under torn writes.
//!
//! The partially filled current page is written to one of two slots, alternately, and in place
//! only once it is final; so no write ever overwrites the only durable image of a record, and
//! both dual copies are written in parallel. These tests check that rule where it matters:
//!
//! - **Garbage tears.** The simulator tears writes at sector granularity (each sector old or
//!   new), which can never damage bytes a rewrite leaves unchanged. Here every byte the next
//!   force would write is replaced with garbage instead, on copy 1, on copy 2 or on both, after
//!   each force of a sequence that ends pages part-way, extends them, fills them exactly, spans
//!   several pages and switches active logs: every forced record must survive, once, intact.
//! - **Every step.** A crash at every mutating step of that sequence (applied, not applied,
//!   torn; unsynced writes lost, kept or randomly kept and torn), single and dual logging, then
//!   a second crash at every step of the restart that follows (which writes the slot images in
//!   place and resets the slots): what restart finds is always the appended records in order,
//!   every forced one included, and nothing else.
//! - **Format.** Offline verification reads the partial page from the slots; an active log of
//!   format version 1 is converted when opened.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::active::{
    active_log_file_bytes, ActiveLogHeader, PingPongSlot, ACTIVE_LOG_FORMAT_VERSION,
    ACTIVE_LOG_HEADER_BYTES,
};
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::{FileSystem, OpenMode};
use ferrite_storage::Rba;

mod support;
use support::log::{kept_archives, FileHooks, HookedFileSystem, WriteCall};

const DIRECTORY: &str = "/qm/PINGPONG";
const DATA_BYTES: u64 = 1024 * 1024;
const RECORD_HEADER_BYTES: u64 = 9;

fn parameters(twoactv: bool) -> (LogParameters, ArchiveParameters) {
    (
        LogParameters {
            // A large buffer and threshold: only the forces write, so both runs of a scenario
            // issue the same I/Os.
            outbuff_kib: 1024,
            wrthrsh: 256,
            twoactv,
            active_log_count: 3,
            active_log_size_mib: 1,
        },
        kept_archives(),
    )
}

fn body(tag: usize, length: usize) -> Vec<u8> {
    (0..length)
        .map(|i| (tag as u8).wrapping_mul(17) ^ (i as u8).wrapping_mul(31))
        .collect()
}

/// Payload lengths of the scenario: ends part-way into a page, extends it, crosses pages, ends
/// exactly on a page boundary (`None`: computed), spans many pages in two I/Os, and (with
/// `switch`) fills the first active log so the next record starts the second.
fn lengths(switch: bool) -> Vec<usize> {
    let mut plan: Vec<Option<usize>> = vec![
        Some(100),
        Some(200),
        Some(3000),
        None,
        Some(50),
        Some(5000),
        Some(20),
        None,
        Some(7),
    ];
    if switch {
        plan.extend([Some(700_000), Some(300_000), Some(1500), Some(60)]);
    } else {
        plan.extend([Some(530_000), Some(40)]);
    }
    let mut end = 0u64;
    plan.into_iter()
        .map(|length| {
            let length = length.unwrap_or_else(|| {
                // Reach the next page boundary after at least one more page.
                let target = (end + RECORD_HEADER_BYTES + 4096).next_multiple_of(4096);
                (target - end - RECORD_HEADER_BYTES) as usize
            });
            // (Every page boundary is computed before the records that fill the first file.)
            end += RECORD_HEADER_BYTES + length as u64;
            length
        })
        .collect()
}

fn open(fs: &SimulatedFileSystem, twoactv: bool) -> Result<Arc<LogManager>, String> {
    let (log, archive) = parameters(twoactv);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    LogManager::open(shared, Path::new(DIRECTORY), &log, &archive).map_err(|e| e.to_string())
}

thread_local! {
    /// Whether this test's file systems put the two copies on separate devices (no shared
    /// flush): the logger then writes and syncs the copies in parallel (`writer.rs`) instead of
    /// making both durable with one flush. Crash images keep the setting.
    static SEPARATE_DEVICES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn create(seed: u64, twoactv: bool) -> SimulatedFileSystem {
    let fs = SimulatedFileSystem::new(seed);
    if SEPARATE_DEVICES.get() {
        fs.set_shared_flush(false);
    }
    let (log, archive) = parameters(twoactv);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    LogManager::create(shared, Path::new(DIRECTORY), &log, &archive).unwrap();
    fs
}

/// Every record restart finds, with its RBA.
fn read_all(manager: &LogManager, context: &str) -> Vec<(Rba, Vec<u8>)> {
    manager
        .read_forward(Rba::ZERO)
        .unwrap_or_else(|error| panic!("{context}: {error}"))
        .map(|record| {
            let record = record.unwrap_or_else(|error| panic!("{context}: {error}"));
            (record.rba, record.payload)
        })
        .collect()
}

/// What restart found must be the appended records in order (a prefix of them), at least the
/// first `forced`, intact, each once.
fn check_prefix(
    found: &[(Rba, Vec<u8>)],
    appended: &[(Rba, Vec<u8>)],
    forced: usize,
    context: &str,
) {
    assert!(
        found.len() >= forced,
        "{context}: {} records found, {forced} were forced",
        found.len()
    );
    assert!(
        found.len() <= appended.len(),
        "{context}: {} records found, only {} appended",
        found.len(),
        appended.len()
    );
    for (index, (record, expected)) in found.iter().zip(appended).enumerate() {
        assert!(
            record.0 == expected.0 && record.1 == expected.1,
            "{context}: record {index} at {} differs from the one appended at {} ({} bytes, expected {})",
            record.0,
            expected.0,
            record.1.len(),
            expected.1.len()
        );
    }
}

/// Append and force the records of `lengths` from `from`, pushing (RBA, payload) of each
/// appended record to `appended`; returns how many forces returned, and the first failure.
fn append_and_force(
    manager: &LogManager,
    lengths: &[usize],
    from: usize,
    appended: &mut Vec<(Rba, Vec<u8>)>,
) -> (usize, Result<(), String>) {
    let mut forced = 0;
    for (index, length) in lengths.iter().enumerate().skip(from) {
        let payload = body(index, *length);
        let (start, end) = match manager.append(1, &[&payload]) {
            Ok(range) => range,
            Err(error) => return (forced, Err(error.to_string())),
        };
        appended.push((start, payload));
        if let Err(error) = manager.force(end) {
            return (forced, Err(error.to_string()));
        }
        forced += 1;
    }
    (forced, Ok(()))
}

fn append_and_force_all(
    manager: &LogManager,
    lengths: &[usize],
    from: usize,
    appended: &mut Vec<(Rba, Vec<u8>)>,
) {
    append_and_force(manager, lengths, from, appended)
        .1
        .unwrap()
}

// --- garbage tears --------------------------------------------------------------------------

/// Records the byte ranges written to active logs: (file name, offset, length).
#[derive(Default)]
struct WriteRanges(Mutex<Vec<(String, u64, u64)>>);

impl FileHooks for WriteRanges {
    fn write_at(&self, call: WriteCall<'_>) -> io::Result<()> {
        if call.name.starts_with("LOGCOPY") {
            let range = (call.name.to_string(), call.offset, call.buffer.len() as u64);
            self.0.lock().unwrap().push(range);
        }
        call.run()
    }
}

/// The active log ranges force `k` writes (after forces `0..k`), from a run that does it.
fn ranges_of_force(twoactv: bool, lengths: &[usize], k: usize) -> Vec<(String, u64, u64)> {
    let fs = create(0, twoactv);
    let ranges = Arc::new(WriteRanges::default());
    let writes = &ranges.0;
    let recording: Arc<dyn FileSystem> =
        Arc::new(HookedFileSystem::new(Arc::new(fs.clone()), ranges.clone()));
    let (log, archive) = parameters(twoactv);
    let manager = LogManager::open(recording, Path::new(DIRECTORY), &log, &archive).unwrap();
    let mut appended = Vec::new();
    append_and_force_all(&manager, &lengths[..k], 0, &mut appended);
    writes.lock().unwrap().clear();
    append_and_force_all(&manager, &lengths[..=k], k, &mut appended);
    let ranges = writes.lock().unwrap().clone();
    manager.abandon();
    ranges
}

/// After forces `0..k`, every byte force `k` would write is garbage on the copies `damaged`
/// names (1-based file name prefixes): restart must find exactly records `0..k`.
fn garbage_tear(twoactv: bool, lengths: &[usize], k: usize, damaged: &[&str]) {
    let ranges = ranges_of_force(twoactv, lengths, k);
    assert!(!ranges.is_empty(), "force {k} wrote nothing");
    let fs = create(1, twoactv);
    let manager = open(&fs, twoactv).unwrap();
    let mut appended = Vec::new();
    append_and_force_all(&manager, &lengths[..k], 0, &mut appended);
    manager.abandon();
    drop(manager);
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let mut torn = Vec::new();
    for (name, offset, length) in &ranges {
        if damaged.iter().any(|copy| name.starts_with(copy)) {
            let path = PathBuf::from(DIRECTORY).join("active").join(name);
            after.corrupt_range(&path, *offset, *length).unwrap();
            torn.push(format!("{name}@{offset:#X}+{length:#X}"));
        }
    }
    let context = format!(
        "TWOACTV {twoactv}, garbage where force {k} ({} bytes) writes on {damaged:?}: {torn:?}",
        lengths[k]
    );
    let manager = open(&after, twoactv).unwrap_or_else(|error| panic!("{context}: {error}"));
    let found = read_all(&manager, &context);
    assert_eq!(found.len(), k, "{context}: records found");
    check_prefix(&found, &appended, k, &context);
    // The log goes on from there: the next force works and survives a restart.
    let payload = body(99, 333);
    let (start, end) = manager.append(1, &[&payload]).unwrap();
    manager.force(end).unwrap();
    manager.shutdown().unwrap();
    drop(manager);
    let manager = open(&after, twoactv).unwrap();
    let found = read_all(&manager, &context);
    assert_eq!(found.len(), k + 1, "{context}: after the next force");
    assert_eq!(found[k], (start, payload), "{context}: the next record");
    manager.shutdown().unwrap();
}

#[test]
fn garbage_where_the_next_force_writes_never_loses_a_forced_record_single() {
    let lengths = lengths(true);
    for k in 0..lengths.len() {
        garbage_tear(false, &lengths, k, &["LOGCOPY1"]);
    }
}

#[test]
fn garbage_where_the_next_force_writes_never_loses_a_forced_record_dual() {
    let lengths = lengths(true);
    for k in 0..lengths.len() {
        for damaged in [&["LOGCOPY1"][..], &["LOGCOPY2"], &["LOGCOPY1", "LOGCOPY2"]] {
            garbage_tear(true, &lengths, k, damaged);
        }
    }
}

// --- every step -----------------------------------------------------------------------------

/// Crash at `step` of the scenario's forces; restart (crashing again at `restart_step` of it, if
/// given, then restarting once more) and check what is found.
fn crash_at_step(
    twoactv: bool,
    lengths: &[usize],
    step: u64,
    effect: CrashEffect,
    mode: CrashMode,
    seed: u64,
    restart_step: Option<u64>,
) {
    let fs = create(seed, twoactv);
    let manager = open(&fs, twoactv).unwrap();
    let active = PathFilter::prefix(format!("{DIRECTORY}/active/"));
    fs.set_crash_point(CrashPoint {
        after: step,
        class: OpClass::Mutating,
        paths: active.clone(),
        effect,
    });
    let mut appended = Vec::new();
    let (forced, _) = append_and_force(&manager, lengths, 0, &mut appended);
    let mut after = fs.crash_with(mode);
    manager.abandon();
    drop(manager);
    let mut context = format!(
        "TWOACTV {twoactv}, crash at step {step} ({effect:?}, {mode:?}, seed {seed}), {forced} forced"
    );
    if let Some(restart_step) = restart_step {
        after.set_crash_point(CrashPoint {
            after: restart_step,
            class: OpClass::Mutating,
            paths: active,
            effect,
        });
        if let Ok(manager) = open(&after, twoactv) {
            manager.abandon();
        }
        if !after.crash_point_reached() {
            return;
        }
        after = after.crash_with(mode);
        context.push_str(&format!(", then at restart step {restart_step}"));
    }
    let manager = open(&after, twoactv).unwrap_or_else(|error| panic!("{context}: {error}"));
    let found = read_all(&manager, &context);
    check_prefix(&found, &appended, forced, &context);
    manager.shutdown().unwrap();
}

fn every_step(twoactv: bool) {
    let lengths = lengths(true);
    let steps = {
        let fs = create(0, twoactv);
        let manager = open(&fs, twoactv).unwrap();
        let counter = fs.count_operations(
            OpClass::Mutating,
            PathFilter::prefix(format!("{DIRECTORY}/active/")),
        );
        append_and_force_all(&manager, &lengths, 0, &mut Vec::new());
        let steps = counter.get();
        manager.shutdown().unwrap();
        steps
    };
    assert!(steps >= 2 * lengths.len() as u64, "{steps} steps");
    for step in 0..=steps {
        for effect in [
            CrashEffect::Torn,
            CrashEffect::NotApplied,
            CrashEffect::Applied,
        ] {
            for (mode, seeds) in [
                (CrashMode::LoseAllUnsynced, 0..1),
                (CrashMode::KeepAllUnsynced, 0..1),
                (CrashMode::Random, 0..3),
            ] {
                for seed in seeds {
                    crash_at_step(twoactv, &lengths, step, effect, mode, seed, None);
                }
            }
        }
        // A second crash at every step of the restart that follows a torn write (restart's
        // writes: slot images in place, the tail cleared, the slots reset; 7 per copy).
        for restart_step in 0..16 {
            crash_at_step(
                twoactv,
                &lengths,
                step,
                CrashEffect::Torn,
                CrashMode::Random,
                step,
                Some(restart_step),
            );
        }
    }
}

#[test]
fn a_crash_at_every_step_of_ping_pong_writes_and_their_restart_single() {
    every_step(false);
}

#[test]
fn a_crash_at_every_step_of_ping_pong_writes_and_their_restart_dual() {
    every_step(true);
}

/// The same with the copies on separate devices: the parallel write-and-sync path, which the
/// simulator's default (one shared device) would otherwise never crash.
#[test]
fn a_crash_at_every_step_of_ping_pong_writes_and_their_restart_dual_on_separate_devices() {
    SEPARATE_DEVICES.set(true);
    every_step(true);
}

// --- format ---------------------------------------------------------------------------------

/// Offline verification (`ferrite log verify`) finds records whose page is only in a slot.
#[test]
fn offline_verification_reads_the_partial_page_from_the_slots() {
    for twoactv in [false, true] {
        let fs = create(3, twoactv);
        let manager = open(&fs, twoactv).unwrap();
        let lengths = [100usize, 200, 300];
        let mut appended = Vec::new();
        append_and_force_all(&manager, &lengths, 0, &mut appended);
        manager.abandon();
        drop(manager);
        let after = fs.crash_with(CrashMode::LoseAllUnsynced);
        let (log, archive) = parameters(twoactv);
        // The last records are in a slot only: the data area holds none of them.
        let copy1 = PathBuf::from(DIRECTORY).join("active/LOGCOPY1.DS01");
        let contents = after.contents(&copy1).unwrap();
        assert!(
            contents[ACTIVE_LOG_HEADER_BYTES as usize..][..4096]
                .iter()
                .all(|byte| *byte == 0),
            "the partial page was written in place"
        );
        let shared: Arc<dyn FileSystem> = Arc::new(after.clone());
        let report =
            LogManager::verify(shared.clone(), Path::new(DIRECTORY), &log, &archive).unwrap();
        assert!(report.is_healthy(), "{:?}", report.problems);
        assert_eq!(report.records, 3);
        let manager = open(&after, twoactv).unwrap();
        check_prefix(
            &read_all(&manager, "after restart"),
            &appended,
            3,
            "after restart",
        );
        manager.shutdown().unwrap();
    }
}

/// Rewrite an active log as format version 1 wrote it: no slots, version 1 in the header.
fn make_version_1(fs: &SimulatedFileSystem, path: &Path) {
    let file = fs.open(path, OpenMode::Existing).unwrap();
    file.set_len(ACTIVE_LOG_HEADER_BYTES + DATA_BYTES).unwrap();
    let mut page = vec![0u8; ACTIVE_LOG_HEADER_BYTES as usize];
    file.read_at(&mut page, 0).unwrap();
    page[8..12].copy_from_slice(&1u32.to_le_bytes());
    let checksum = crc32c::crc32c(&page[0..48]);
    page[48..52].copy_from_slice(&checksum.to_le_bytes());
    file.write_at(&page, 0).unwrap();
    file.sync_data().unwrap();
}

#[test]
fn a_version_1_active_log_is_converted_when_opened() {
    for twoactv in [false, true] {
        let fs = create(4, twoactv);
        let manager = open(&fs, twoactv).unwrap();
        let mut appended = Vec::new();
        append_and_force_all(&manager, &[100, 5000, 70], 0, &mut appended);
        manager.shutdown().unwrap();
        drop(manager);
        // A restart writes the partial page in place (where version 1 kept it).
        open(&fs, twoactv).unwrap().shutdown().unwrap();
        let copies = if twoactv { 2 } else { 1 };
        let paths: Vec<PathBuf> = (1..=copies)
            .flat_map(|copy| {
                (1..=3).map(move |number| {
                    PathBuf::from(DIRECTORY).join(format!("active/LOGCOPY{copy}.DS{number:02}"))
                })
            })
            .collect();
        for path in &paths {
            make_version_1(&fs, path);
        }
        // Read-only: read as it is.
        let (log, archive) = parameters(twoactv);
        let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
        let report =
            LogManager::verify(shared.clone(), Path::new(DIRECTORY), &log, &archive).unwrap();
        assert!(report.is_healthy(), "{:?}", report.problems);
        assert_eq!(report.records, 3);
        // Opened for writing: converted, and the log goes on.
        let manager = open(&fs, twoactv).unwrap();
        check_prefix(&read_all(&manager, "converted"), &appended, 3, "converted");
        append_and_force_all(&manager, &[100, 5000, 70, 40], 3, &mut appended);
        manager.shutdown().unwrap();
        drop(manager);
        for path in &paths {
            let contents = fs.contents(path).unwrap();
            assert_eq!(contents.len() as u64, active_log_file_bytes(DATA_BYTES));
            let header = ActiveLogHeader::decode(&contents[..4096]).unwrap();
            assert_eq!(header.data_bytes, DATA_BYTES);
            let version = u32::from_le_bytes(contents[8..12].try_into().unwrap());
            assert_eq!(version, ACTIVE_LOG_FORMAT_VERSION, "{}", path.display());
        }
        let manager = open(&fs, twoactv).unwrap();
        check_prefix(&read_all(&manager, "reopened"), &appended, 4, "reopened");
        manager.shutdown().unwrap();
    }
}

/// A slot is read from disk after a crash: any bytes decode to an image, "empty" or an error,
/// never a panic, and a damaged image is never accepted.
#[test]
fn slot_decoding_refuses_damage_and_survives_hostile_bytes() {
    let slot = PingPongSlot {
        page_rba: 7 * 4096,
        image: body(5, 3000),
    };
    let bytes = slot.encode();
    // Header and image in whole pages: one page here, two when the image passes 4064 bytes.
    assert_eq!(bytes.len(), 4096);
    let long = PingPongSlot {
        page_rba: 4096,
        image: body(6, 4090),
    };
    let long_bytes = long.encode();
    assert_eq!(long_bytes.len(), 8192);
    assert_eq!(PingPongSlot::decode(&long_bytes).unwrap(), Some(long));
    assert_eq!(PingPongSlot::decode(&bytes).unwrap(), Some(slot.clone()));
    assert_eq!(PingPongSlot::decode(&[0u8; 8192]).unwrap(), None);
    for at in (0..32).chain([40, 1000, 3031]) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert!(
            !matches!(PingPongSlot::decode(&damaged), Ok(Some(_))),
            "a flip at byte {at} was accepted"
        );
    }
    // Bytes past the image are not part of it.
    let mut tail = bytes.clone();
    tail[32 + 3000] = 0xFF;
    assert_eq!(PingPongSlot::decode(&tail).unwrap(), Some(slot));
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..2000 {
        let length = round % 80 + if round % 3 == 0 { 8192 - 80 } else { 0 };
        let mut hostile: Vec<u8> = (0..length)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        if round % 2 == 0 && hostile.len() >= 8 {
            hostile[..8].copy_from_slice(b"FERLOGPP");
        }
        let _ = PingPongSlot::decode(&hostile);
    }
}
