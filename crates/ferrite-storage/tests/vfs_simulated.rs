//! Tests of the simulated file system's fault model (`ferrite_storage::vfs::simulated`).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, OpKind, PathFilter, SimulatedFileSystem,
    SECTOR_SIZE,
};
use ferrite_storage::vfs::{FileSystem, OpenMode, StorageFile};

const MODES: [CrashMode; 3] = [
    CrashMode::LoseAllUnsynced,
    CrashMode::KeepAllUnsynced,
    CrashMode::Random,
];

fn p(path: &str) -> &Path {
    Path::new(path)
}

/// Every file of `fs` with its contents.
fn image(fs: &SimulatedFileSystem) -> BTreeMap<PathBuf, Vec<u8>> {
    fs.files()
        .into_iter()
        .map(|path| (path.clone(), fs.contents(&path).unwrap()))
        .collect()
}

fn read_all(file: &dyn StorageFile) -> Vec<u8> {
    let mut buffer = vec![0; file.len().unwrap() as usize];
    file.read_at(&mut buffer, 0).unwrap();
    buffer
}

/// A file system with `/d` and a durable, empty file `/d/f` (created and directory-synced).
fn with_durable_file(seed: u64) -> (SimulatedFileSystem, Arc<dyn StorageFile>) {
    let fs = SimulatedFileSystem::new(seed);
    fs.create_dir_all(p("/d")).unwrap();
    let file = fs.open(p("/d/f"), OpenMode::CreateNew).unwrap();
    fs.sync_directory(p("/d")).unwrap();
    (fs, file)
}

fn is_errno(error: &io::Error, code: i32) -> bool {
    error.raw_os_error() == Some(code)
}

// --- durability of synced and unsynced data -------------------------------------------------

#[test]
fn synced_data_survives_every_crash_mode() {
    for mode in MODES {
        for seed in 0..64 {
            let (fs, file) = with_durable_file(seed);
            let synced: Vec<u8> = (0..3000u32).map(|i| (i % 251) as u8).collect();
            file.write_at(&synced, 0).unwrap();
            file.sync_data().unwrap();
            // Unsynced activity elsewhere in the file and in another file.
            file.write_at(&[0xEE; 1000], 3000).unwrap();
            file.set_len(5000).unwrap();
            let other = fs.open(p("/d/g"), OpenMode::CreateNew).unwrap();
            other.write_at(&[1; 100], 0).unwrap();

            let after = fs.crash_with(mode);
            let contents = after.contents(p("/d/f")).unwrap();
            assert!(
                contents.len() >= synced.len(),
                "mode {mode:?} seed {seed}: file shrank"
            );
            assert_eq!(
                &contents[..synced.len()],
                &synced[..],
                "mode {mode:?} seed {seed}"
            );
        }
    }
}

#[test]
fn unsynced_writes_are_lost_under_lose_all_and_kept_under_keep_all() {
    let (fs, file) = with_durable_file(7);
    file.write_at(b"durable", 0).unwrap();
    file.sync_data().unwrap();
    file.write_at(b"VOLATILE", 7).unwrap();
    file.write_at(b"D", 0).unwrap();
    assert_eq!(fs.pending_writes(p("/d/f")).unwrap(), 2);

    let lost = fs.crash_with(CrashMode::LoseAllUnsynced);
    assert_eq!(lost.contents(p("/d/f")).unwrap(), b"durable");

    let kept = fs.crash_with(CrashMode::KeepAllUnsynced);
    assert_eq!(kept.contents(p("/d/f")).unwrap(), b"DurableVOLATILE");
    // Everything is durable in the new instance.
    assert_eq!(
        kept.durable_contents(p("/d/f")).unwrap(),
        b"DurableVOLATILE"
    );
    assert_eq!(kept.pending_writes(p("/d/f")).unwrap(), 0);
    assert_eq!(
        kept.crash_with(CrashMode::LoseAllUnsynced)
            .contents(p("/d/f"))
            .unwrap(),
        b"DurableVOLATILE"
    );
}

#[test]
fn set_len_is_pending_until_sync() {
    let (fs, file) = with_durable_file(1);
    file.write_at(&[9; 100], 0).unwrap();
    file.sync_data().unwrap();
    file.set_len(10).unwrap();
    assert_eq!(file.len().unwrap(), 10);
    assert_eq!(fs.durable_contents(p("/d/f")).unwrap().len(), 100);
    assert_eq!(
        fs.crash_with(CrashMode::LoseAllUnsynced)
            .contents(p("/d/f"))
            .unwrap(),
        vec![9; 100]
    );

    let (fs, file) = with_durable_file(1);
    file.write_at(&[9; 100], 0).unwrap();
    file.set_len(10).unwrap();
    file.set_len(4096).unwrap();
    file.sync_data().unwrap();
    let mut expected = vec![9; 10];
    expected.resize(4096, 0);
    assert_eq!(
        fs.crash_with(CrashMode::LoseAllUnsynced)
            .contents(p("/d/f"))
            .unwrap(),
        expected
    );
}

#[test]
fn random_crash_keeps_subsets_of_unsynced_writes() {
    // Four unsynced single-sector writes: every one of the 16 subsets should show up.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..400 {
        let (fs, file) = with_durable_file(seed);
        file.write_at(&[0; 2048], 0).unwrap();
        file.sync_data().unwrap();
        for sector in 0..4u64 {
            file.write_at(&[sector as u8 + 1; 512], sector * SECTOR_SIZE)
                .unwrap();
        }
        let contents = fs
            .crash_with(CrashMode::Random)
            .contents(p("/d/f"))
            .unwrap();
        let mut mask = 0;
        for sector in 0..4usize {
            let bytes = &contents[sector * 512..(sector + 1) * 512];
            if bytes.iter().all(|b| *b == sector as u8 + 1) {
                mask |= 1 << sector;
            } else {
                assert!(
                    bytes.iter().all(|b| *b == 0),
                    "seed {seed}: sector {sector} mixed"
                );
            }
        }
        seen.insert(mask);
    }
    assert_eq!(seen.len(), 16, "subsets seen: {seen:?}");
}

// --- torn writes ----------------------------------------------------------------------------

#[test]
fn torn_writes_mix_old_and_new_sectors_only_at_sector_boundaries() {
    const OLD: u8 = 0xAA;
    const NEW: u8 = 0xBB;
    let (offset, length) = (100u64, 3000u64); // unaligned on both ends: touches sectors 0..=6
    let (mut all_old, mut all_new, mut mixed) = (0, 0, 0);
    for seed in 0..500 {
        let (fs, file) = with_durable_file(seed);
        file.write_at(&[OLD; 4096], 0).unwrap();
        file.sync_data().unwrap();
        file.write_at(&vec![NEW; length as usize], offset).unwrap();

        let contents = fs
            .crash_with(CrashMode::Random)
            .contents(p("/d/f"))
            .unwrap();
        assert_eq!(contents.len(), 4096, "seed {seed}");
        let (mut old_sectors, mut new_sectors) = (0, 0);
        for sector in 0..8u64 {
            let start = (sector * SECTOR_SIZE).max(offset);
            let end = ((sector + 1) * SECTOR_SIZE).min(offset + length);
            // Outside the write: always old.
            for (index, byte) in contents.iter().enumerate() {
                let index = index as u64;
                if index / SECTOR_SIZE == sector && !(start..end).contains(&index) {
                    assert_eq!(
                        *byte, OLD,
                        "seed {seed}: byte {index} outside the write changed"
                    );
                }
            }
            if start >= end {
                continue;
            }
            let piece = &contents[start as usize..end as usize];
            if piece.iter().all(|b| *b == NEW) {
                new_sectors += 1;
            } else if piece.iter().all(|b| *b == OLD) {
                old_sectors += 1;
            } else {
                panic!("seed {seed}: sector {sector} torn inside the sector");
            }
        }
        match (old_sectors, new_sectors) {
            (_, 0) => all_old += 1,
            (0, _) => all_new += 1,
            _ => mixed += 1,
        }
    }
    assert!(
        all_old > 0 && all_new > 0 && mixed > 0,
        "old {all_old} new {all_new} mixed {mixed}"
    );
}

// --- determinism ----------------------------------------------------------------------------

fn busy_workload(fs: &SimulatedFileSystem) -> io::Result<()> {
    fs.create_dir_all(p("/qm/log"))?;
    fs.create_dir_all(p("/qm/data"))?;
    let log = fs.open(p("/qm/log/a"), OpenMode::CreateNew)?;
    fs.sync_directory(p("/qm/log"))?;
    let data = fs.open(p("/qm/data/ps0"), OpenMode::CreateNew)?;
    data.set_len(8192)?;
    for i in 0..10u64 {
        log.write_at(&[i as u8 + 1; 700], i * 700)?;
        data.write_at(&[i as u8 + 100; 1000], (i * 1337) % 7000)?;
        if i % 3 == 0 {
            log.sync_data()?;
        }
    }
    fs.rename(p("/qm/data/ps0"), p("/qm/data/ps0.final"))?;
    let tmp = fs.open(p("/qm/log/b"), OpenMode::CreateNew)?;
    tmp.write_at(b"temporary", 0)?;
    fs.remove_file(p("/qm/log/a"))?;
    Ok(())
}

#[test]
fn same_seed_gives_the_same_crash_image() {
    let mut distinct = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let run = || {
            let fs = SimulatedFileSystem::new(seed);
            busy_workload(&fs).unwrap();
            let first = fs.crash();
            let second = first.crash(); // a chain of crashes is deterministic too
            (image(&first), image(&second))
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b, "seed {seed}");
        distinct.insert(format!("{:?}", a.0));
    }
    assert!(
        distinct.len() > 10,
        "only {} distinct images over 20 seeds",
        distinct.len()
    );
}

// --- crash points -----------------------------------------------------------------------------

/// A log writer: each record is acknowledged once `sync_data` returns. Returns how many
/// records were acknowledged and whether the file's creation and the final rename were made
/// durable, or how far it got when an operation failed.
#[derive(Debug, Default, Clone, Copy)]
struct Progress {
    created_durably: bool,
    acknowledged: usize,
    renamed_durably: bool,
}

const RECORDS: usize = 12;
const RECORD_LEN: usize = 300; // records straddle sector boundaries

fn record(i: usize) -> Vec<u8> {
    (0..RECORD_LEN).map(|j| (i * 31 + j) as u8 | 1).collect()
}

fn log_workload(fs: &SimulatedFileSystem, progress: &mut Progress) -> io::Result<()> {
    fs.create_dir_all(p("/qm/log"))?;
    let file = fs.open(p("/qm/log/active.tmp"), OpenMode::CreateNew)?;
    fs.sync_directory(p("/qm/log"))?;
    progress.created_durably = true;
    for i in 0..RECORDS {
        file.write_at(&record(i), (i * RECORD_LEN) as u64)?;
        file.sync_data()?;
        progress.acknowledged = i + 1;
    }
    fs.rename(p("/qm/log/active.tmp"), p("/qm/log/active"))?;
    fs.sync_directory(p("/qm/log"))?;
    progress.renamed_durably = true;
    Ok(())
}

fn check_log_image(after: &SimulatedFileSystem, progress: Progress, context: &str) {
    let name = if progress.renamed_durably {
        "/qm/log/active"
    } else {
        "/qm/log/active.tmp"
    };
    if !progress.created_durably {
        return;
    }
    let path = if after.exists(p(name)) {
        p(name)
    } else {
        // An unsynced rename may or may not have happened.
        assert!(!progress.renamed_durably, "{context}: durable rename lost");
        assert!(
            after.exists(p("/qm/log/active")),
            "{context}: durable file lost"
        );
        p("/qm/log/active")
    };
    let contents = after.contents(path).unwrap();
    for i in 0..progress.acknowledged {
        let range = i * RECORD_LEN..(i + 1) * RECORD_LEN;
        assert!(contents.len() >= range.end, "{context}: record {i} missing");
        assert_eq!(
            contents[range],
            record(i)[..],
            "{context}: record {i} damaged"
        );
    }
}

#[test]
fn crash_at_every_mutating_step() {
    // Count the steps.
    let fs = SimulatedFileSystem::new(0);
    let counter = fs.count_operations(OpClass::Mutating, PathFilter::Any);
    let mut progress = Progress::default();
    log_workload(&fs, &mut progress).unwrap();
    let steps = counter.get();
    assert_eq!(
        steps,
        1 + 1 + 1 + 2 * RECORDS as u64 + 2,
        "create_dir, create, sync_dir, records, rename+sync"
    );
    assert_eq!(steps, fs.operation_count_in(OpClass::Mutating));

    for k in 0..steps {
        for mode in MODES {
            let seed = k * 3 + mode as u64;
            let fs = SimulatedFileSystem::new(seed).with_crash_mode(mode);
            let counter = fs.count_operations(OpClass::Mutating, PathFilter::Any);
            fs.fail_after_operations(k, OpClass::Mutating);
            let mut progress = Progress::default();
            let error = log_workload(&fs, &mut progress)
                .expect_err("the crash point must stop the workload");
            assert!(is_errno(&error, libc::EIO));
            assert!(fs.crash_point_reached());
            assert_eq!(
                counter.get(),
                k + 1,
                "step {k}: the crash point is operation k"
            );
            let after = fs.crash();
            assert!(!after.is_crashed());
            check_log_image(
                &after,
                progress,
                &format!("step {k} mode {mode:?} seed {seed}"),
            );
        }
    }

    // One past the last step: nothing happens.
    let fs = SimulatedFileSystem::new(1);
    fs.fail_after_operations(steps, OpClass::Mutating);
    log_workload(&fs, &mut Progress::default()).unwrap();
    assert!(!fs.crash_point_reached());
}

#[test]
fn crash_point_effects_on_a_write() {
    let run = |effect: CrashEffect, seed: u64| {
        let (fs, file) = with_durable_file(seed);
        file.write_at(&[1; 2048], 0).unwrap();
        file.sync_data().unwrap();
        fs.set_crash_point(CrashPoint {
            after: 0,
            class: OpClass::Writes,
            paths: PathFilter::Any,
            effect,
        });
        assert!(is_errno(
            &file.write_at(&[2; 2048], 0).unwrap_err(),
            libc::EIO
        ));
        assert!(is_errno(&file.sync_data().unwrap_err(), libc::EIO));
        // kill -9: whatever reached the page cache survives.
        fs.crash_with(CrashMode::KeepAllUnsynced)
            .contents(p("/d/f"))
            .unwrap()
    };
    assert_eq!(run(CrashEffect::NotApplied, 0), vec![1; 2048]);
    assert_eq!(run(CrashEffect::Applied, 0), vec![2; 2048]);
    let mut mixed = false;
    for seed in 0..50 {
        let contents = run(CrashEffect::Torn, seed);
        for sector in contents.chunks(512) {
            assert!(
                sector.iter().all(|b| *b == sector[0]),
                "seed {seed}: torn inside a sector"
            );
        }
        mixed |= contents.contains(&1) && contents.contains(&2);
    }
    assert!(mixed);
}

#[test]
fn crash_points_can_target_one_file() {
    let fs = SimulatedFileSystem::new(3);
    fs.create_dir_all(p("/qm/log")).unwrap();
    let copy1 = fs
        .open(p("/qm/log/copy1-0001"), OpenMode::CreateNew)
        .unwrap();
    let copy2 = fs
        .open(p("/qm/log/copy2-0001"), OpenMode::CreateNew)
        .unwrap();
    fs.set_crash_point(CrashPoint {
        after: 2,
        class: OpClass::Only(OpKind::Write),
        paths: PathFilter::prefix("/qm/log/copy2-"),
        effect: CrashEffect::NotApplied,
    });
    for i in 0..2u64 {
        copy1.write_at(b"x", i).unwrap();
        copy2.write_at(b"x", i).unwrap();
    }
    copy1.write_at(b"x", 2).unwrap();
    copy1.sync_data().unwrap();
    assert!(is_errno(&copy2.write_at(b"x", 2).unwrap_err(), libc::EIO));
    assert!(is_errno(&copy1.write_at(b"x", 3).unwrap_err(), libc::EIO));
}

// --- fsync errors ---------------------------------------------------------------------------

#[test]
fn fsync_error_drops_pending_writes() {
    let (fs, file) = with_durable_file(5);
    file.write_at(b"first", 0).unwrap();
    file.sync_data().unwrap();
    fs.fsync_error_at(1);
    file.write_at(b"FIRST", 0).unwrap();
    file.sync_data().unwrap(); // sync 0 succeeds
    file.write_at(b"-second", 5).unwrap();
    let error = file.sync_data().unwrap_err(); // sync 1 fails
    assert!(is_errno(&error, libc::EIO));
    assert_eq!(fs.pending_writes(p("/d/f")).unwrap(), 0);
    // The page cache still shows the lost write (Linux), the disk does not.
    assert_eq!(read_all(&*file), b"FIRST-second");
    assert_eq!(fs.durable_contents(p("/d/f")).unwrap(), b"FIRST");
    // A later successful fsync does not bring the dropped write back.
    file.sync_data().unwrap();
    for mode in [CrashMode::LoseAllUnsynced, CrashMode::Random] {
        for _ in 0..20 {
            assert_eq!(fs.crash_with(mode).contents(p("/d/f")).unwrap(), b"FIRST");
        }
    }
    // Writes after the failure can be made durable again.
    let (fs, file) = with_durable_file(5);
    fs.fsync_error_at(0);
    file.write_at(b"lost", 0).unwrap();
    assert!(file.sync_data().is_err());
    file.write_at(b"kept", 4).unwrap();
    file.sync_data().unwrap();
    assert_eq!(
        fs.crash_with(CrashMode::LoseAllUnsynced)
            .contents(p("/d/f"))
            .unwrap(),
        b"\0\0\0\0kept"
    );
}

#[test]
fn fsync_errors_can_target_one_file() {
    let fs = SimulatedFileSystem::new(0);
    fs.create_dir_all(p("/qm/log")).unwrap();
    let copy1 = fs.open(p("/qm/log/copy1"), OpenMode::CreateNew).unwrap();
    let copy2 = fs.open(p("/qm/log/copy2"), OpenMode::CreateNew).unwrap();
    fs.fsync_error_at_matching(0, PathFilter::exact("/qm/log/copy2"));
    copy1.write_at(b"a", 0).unwrap();
    copy2.write_at(b"a", 0).unwrap();
    copy1.sync_data().unwrap();
    assert!(is_errno(&copy2.sync_data().unwrap_err(), libc::EIO));
    copy2.write_at(b"b", 0).unwrap();
    copy2.sync_data().unwrap(); // only the first matching sync fails
}

// --- disk full ------------------------------------------------------------------------------

#[test]
fn enospc_changes_nothing_and_freeing_space_recovers() {
    let fs = SimulatedFileSystem::new(0);
    fs.capacity_bytes(4096);
    fs.create_dir_all(p("/d")).unwrap();
    let a = fs.open(p("/d/a"), OpenMode::CreateNew).unwrap();
    a.write_at(&[1; 3000], 0).unwrap();
    let b = fs.open(p("/d/b"), OpenMode::CreateNew).unwrap();
    b.write_at(&[2; 1000], 0).unwrap();
    assert_eq!(fs.used_bytes(), 4000);
    let written = fs.bytes_written();

    let before = image(&fs);
    let pending = fs.pending_writes(p("/d/a")).unwrap();
    assert!(is_errno(
        &a.write_at(&[3; 200], 2990).unwrap_err(),
        libc::ENOSPC
    ));
    assert!(is_errno(&b.set_len(1200).unwrap_err(), libc::ENOSPC));
    assert_eq!(image(&fs), before);
    assert_eq!(fs.pending_writes(p("/d/a")).unwrap(), pending);
    assert_eq!(fs.bytes_written(), written);
    // Overwriting in place needs no space.
    a.write_at(&[3; 200], 0).unwrap();

    // Shrinking frees space.
    a.set_len(2000).unwrap();
    a.write_at(&[4; 1000], 2000).unwrap();
    assert!(a.write_at(&[4; 100], 3000).is_err());

    // Removing a file frees its space once its last handle is closed.
    fs.remove_file(p("/d/b")).unwrap();
    assert!(a.write_at(&[4; 100], 3000).is_err());
    drop(b);
    a.write_at(&[5; 1000], 3000).unwrap();
    assert_eq!(fs.used_bytes(), 4000);
}

// --- directory operations -------------------------------------------------------------------

#[test]
fn unsynced_create_may_vanish_but_synced_create_never_does() {
    let (mut vanished, mut survived) = (0, 0);
    for seed in 0..100 {
        let fs = SimulatedFileSystem::new(seed);
        fs.create_dir_all(p("/d")).unwrap();
        let synced = fs.open(p("/d/synced"), OpenMode::CreateNew).unwrap();
        fs.sync_directory(p("/d")).unwrap();
        let unsynced = fs.open(p("/d/unsynced"), OpenMode::CreateNew).unwrap();
        // Even synced data is lost with its file when the name is not durable.
        unsynced.write_at(b"data", 0).unwrap();
        unsynced.sync_data().unwrap();
        synced.write_at(b"data", 0).unwrap();
        synced.sync_data().unwrap();

        assert!(!fs
            .crash_with(CrashMode::LoseAllUnsynced)
            .exists(p("/d/unsynced")));
        assert!(fs
            .crash_with(CrashMode::KeepAllUnsynced)
            .exists(p("/d/unsynced")));
        let after = fs.crash_with(CrashMode::Random);
        assert_eq!(
            after.contents(p("/d/synced")).unwrap(),
            b"data",
            "seed {seed}"
        );
        if after.exists(p("/d/unsynced")) {
            survived += 1;
            assert_eq!(after.contents(p("/d/unsynced")).unwrap(), b"data");
        } else {
            vanished += 1;
        }
    }
    assert!(
        vanished > 0 && survived > 0,
        "vanished {vanished} survived {survived}"
    );
}

#[test]
fn unsynced_rename_may_be_undone_but_synced_rename_never_is() {
    let (mut undone, mut done) = (0, 0);
    for seed in 0..100 {
        let fs = SimulatedFileSystem::new(seed);
        fs.create_dir_all(p("/d")).unwrap();
        let old = fs.open(p("/d/target"), OpenMode::CreateNew).unwrap();
        old.write_at(b"old", 0).unwrap();
        old.sync_data().unwrap();
        let new = fs.open(p("/d/target.tmp"), OpenMode::CreateNew).unwrap();
        new.write_at(b"new", 0).unwrap();
        new.sync_data().unwrap();
        fs.sync_directory(p("/d")).unwrap();
        fs.rename(p("/d/target.tmp"), p("/d/target")).unwrap(); // atomic replace
        assert_eq!(fs.files(), vec![PathBuf::from("/d/target")]);
        assert_eq!(fs.contents(p("/d/target")).unwrap(), b"new");
        assert_eq!(read_all(&*old), b"old"); // the replaced file stays readable while open

        let lost = fs.crash_with(CrashMode::LoseAllUnsynced);
        assert_eq!(image(&lost).len(), 2);
        assert_eq!(lost.contents(p("/d/target")).unwrap(), b"old");

        let after = fs.crash_with(CrashMode::Random);
        match after.contents(p("/d/target")).unwrap().as_slice() {
            b"old" => {
                undone += 1;
                assert_eq!(
                    after.contents(p("/d/target.tmp")).unwrap(),
                    b"new",
                    "seed {seed}"
                );
            }
            b"new" => {
                done += 1;
                assert!(!after.exists(p("/d/target.tmp")), "seed {seed}");
            }
            other => panic!("seed {seed}: {other:?}"),
        }

        // Once the directory is synced, every crash keeps the rename.
        let fs = fs.crash_with(CrashMode::KeepAllUnsynced);
        fs.sync_directory(p("/d")).unwrap();
        for _ in 0..5 {
            let after = fs.crash_with(CrashMode::Random);
            assert_eq!(
                image(&after),
                BTreeMap::from([(PathBuf::from("/d/target"), b"new".to_vec())])
            );
        }
    }
    assert!(undone > 0 && done > 0, "undone {undone} done {done}");
}

#[test]
fn unsynced_remove_may_be_undone() {
    let (mut back, mut gone) = (0, 0);
    for seed in 0..50 {
        let (fs, file) = with_durable_file(seed);
        file.write_at(b"x", 0).unwrap();
        file.sync_data().unwrap();
        drop(file);
        fs.remove_file(p("/d/f")).unwrap();
        assert!(!fs.exists(p("/d/f")));
        assert!(fs.crash_with(CrashMode::LoseAllUnsynced).exists(p("/d/f")));
        if fs.crash_with(CrashMode::Random).exists(p("/d/f")) {
            back += 1;
        } else {
            gone += 1;
        }
        let fs = fs.crash_with(CrashMode::KeepAllUnsynced);
        assert!(!fs.exists(p("/d/f")));
    }
    assert!(back > 0 && gone > 0);
}

#[test]
fn directory_sync_commits_dependencies_in_other_directories() {
    let fs = SimulatedFileSystem::new(0);
    fs.create_dir_all(p("/a")).unwrap();
    fs.create_dir_all(p("/b")).unwrap();
    let file = fs.open(p("/a/x"), OpenMode::CreateNew).unwrap();
    let _other = fs.open(p("/a/unrelated"), OpenMode::CreateNew).unwrap();
    fs.rename(p("/a/x"), p("/b/y")).unwrap();
    fs.sync_directory(p("/b")).unwrap();
    assert_eq!(fs.durable_files(), vec![PathBuf::from("/b/y")]);
    assert_eq!(fs.pending_directory_operations(), 1);
    file.write_at(b"y", 0).unwrap();
    file.sync_data().unwrap();
    for _ in 0..10 {
        let after = fs.crash_with(CrashMode::Random);
        assert_eq!(after.contents(p("/b/y")).unwrap(), b"y");
        assert!(!after.exists(p("/a/x")));
    }
}

#[test]
fn paths_and_directories() {
    let fs = SimulatedFileSystem::new(0);
    let error = fs.open(p("/qm/log/a"), OpenMode::CreateNew).err().unwrap();
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
    fs.create_dir_all(p("/qm/log")).unwrap();
    assert!(fs.exists(p("/qm")) && fs.exists(p("/qm/log")));
    assert_eq!(
        fs.directories(),
        vec![PathBuf::from("/qm"), PathBuf::from("/qm/log")]
    );
    for name in ["c", "a", "b"] {
        fs.open(&Path::new("/qm/log").join(name), OpenMode::CreateNew)
            .unwrap();
    }
    fs.create_dir_all(p("/qm/log/archive")).unwrap();
    fs.open(p("/qm/log/archive/z"), OpenMode::CreateNew)
        .unwrap();
    assert_eq!(
        fs.list_directory(p("/qm/log")).unwrap(),
        ["a", "archive", "b", "c"]
    );
    assert_eq!(fs.list_directory(p("/qm")).unwrap(), ["log"]);
    assert_eq!(
        fs.list_directory(p("/nowhere")).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );

    assert_eq!(
        fs.open(p("/qm/log/a"), OpenMode::CreateNew)
            .err()
            .unwrap()
            .kind(),
        io::ErrorKind::AlreadyExists
    );
    assert_eq!(
        fs.open(p("/qm/log/zz"), OpenMode::Existing)
            .err()
            .unwrap()
            .kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        fs.remove_file(p("/qm/log/zz")).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        fs.rename(p("/qm/log/zz"), p("/qm/log/y"))
            .unwrap_err()
            .kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        fs.rename(p("/qm/log/a"), p("/nowhere/y"))
            .unwrap_err()
            .kind(),
        io::ErrorKind::NotFound
    );

    let file = fs.open(p("/qm/log/a"), OpenMode::Existing).unwrap();
    file.write_at(b"hello", 0).unwrap();
    let mut buffer = [0; 6];
    assert_eq!(
        file.read_at(&mut buffer, 0).unwrap_err().kind(),
        io::ErrorKind::UnexpectedEof
    );
    let reader = fs.open(p("/qm/log/a"), OpenMode::ReadOnly).unwrap();
    assert_eq!(read_all(&*reader), b"hello");
    assert!(is_errno(
        &reader.write_at(b"x", 0).unwrap_err(),
        libc::EBADF
    ));
    assert_eq!(reader.path(), p("/qm/log/a"));

    // Relative paths live under an implicit root.
    fs.open(p("top"), OpenMode::CreateNew).unwrap();
    fs.create_dir_all(p("rel/dir")).unwrap();
    fs.open(p("rel/dir/f"), OpenMode::CreateNew).unwrap();
    assert_eq!(fs.list_directory(p("rel/dir")).unwrap(), ["f"]);
}

#[test]
fn handles_follow_the_file_across_rename_and_remove() {
    let fs = SimulatedFileSystem::new(0);
    fs.create_dir_all(p("/d")).unwrap();
    let file = fs.open(p("/d/a"), OpenMode::CreateNew).unwrap();
    fs.rename(p("/d/a"), p("/d/b")).unwrap();
    file.write_at(b"after rename", 0).unwrap();
    assert_eq!(fs.contents(p("/d/b")).unwrap(), b"after rename");
    fs.remove_file(p("/d/b")).unwrap();
    file.write_at(b"!", 12).unwrap();
    assert_eq!(read_all(&*file), b"after rename!");
    assert!(fs.files().is_empty());
}

// --- dead instances -------------------------------------------------------------------------

#[test]
fn a_crashed_instance_fails_every_operation() {
    let (fs, file) = with_durable_file(0);
    file.write_at(b"data", 0).unwrap();
    file.sync_data().unwrap();
    let clone = fs.clone();
    let after = fs.crash();
    for instance in [&fs, &clone] {
        assert!(instance.is_crashed());
        assert!(is_errno(
            &instance.open(p("/d/f"), OpenMode::Existing).err().unwrap(),
            libc::EIO
        ));
        assert!(is_errno(
            &instance.open(p("/d/g"), OpenMode::CreateNew).err().unwrap(),
            libc::EIO
        ));
        assert!(is_errno(
            &instance.create_dir_all(p("/e")).unwrap_err(),
            libc::EIO
        ));
        assert!(is_errno(
            &instance.remove_file(p("/d/f")).unwrap_err(),
            libc::EIO
        ));
        assert!(is_errno(
            &instance.rename(p("/d/f"), p("/d/g")).unwrap_err(),
            libc::EIO
        ));
        assert!(is_errno(
            &instance.sync_directory(p("/d")).unwrap_err(),
            libc::EIO
        ));
        assert!(is_errno(
            &instance.list_directory(p("/d")).unwrap_err(),
            libc::EIO
        ));
        assert!(!instance.exists(p("/d/f")));
    }
    let mut buffer = [0; 4];
    assert!(is_errno(
        &file.read_at(&mut buffer, 0).unwrap_err(),
        libc::EIO
    ));
    assert!(is_errno(&file.write_at(b"x", 0).unwrap_err(), libc::EIO));
    assert!(is_errno(&file.sync_data().unwrap_err(), libc::EIO));
    assert!(is_errno(&file.len().unwrap_err(), libc::EIO));
    assert!(is_errno(&file.set_len(0).unwrap_err(), libc::EIO));
    // The new instance works and holds the synced data.
    let reopened = after.open(p("/d/f"), OpenMode::Existing).unwrap();
    assert_eq!(read_all(&*reopened), b"data");
    reopened.write_at(b"more", 4).unwrap();
}

#[test]
fn a_halted_instance_fails_every_operation_until_crashed() {
    let (fs, file) = with_durable_file(0);
    fs.set_crash_point(CrashPoint {
        after: 0,
        class: OpClass::Syncs,
        paths: PathFilter::Any,
        effect: CrashEffect::Applied,
    });
    file.write_at(b"data", 0).unwrap();
    assert!(is_errno(&file.sync_data().unwrap_err(), libc::EIO));
    assert!(fs.crash_point_reached());
    let mut buffer = [0; 4];
    assert!(is_errno(
        &file.read_at(&mut buffer, 0).unwrap_err(),
        libc::EIO
    ));
    assert!(is_errno(
        &fs.list_directory(p("/d")).unwrap_err(),
        libc::EIO
    ));
    // The sync was applied before the process died: the data is durable.
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    assert_eq!(after.contents(p("/d/f")).unwrap(), b"data");
    assert!(!fs.crash_point_reached() && fs.is_crashed());
}

// --- bit rot --------------------------------------------------------------------------------

#[test]
fn bit_flips_and_corruption_are_visible_and_durable() {
    let (fs, file) = with_durable_file(0);
    file.write_at(&[0; 1024], 0).unwrap();
    file.sync_data().unwrap();
    file.write_at(&[7; 10], 1000).unwrap(); // pending, on top of the corrupted medium
    fs.flip_bit(p("/d/f"), 100, 3).unwrap();
    let mut byte = [0; 1];
    file.read_at(&mut byte, 100).unwrap();
    assert_eq!(byte[0], 0b1000);
    assert_eq!(fs.durable_contents(p("/d/f")).unwrap()[100], 0b1000);
    assert_eq!(&read_all(&*file)[1000..1010], &[7; 10]);
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let contents = after.contents(p("/d/f")).unwrap();
    assert_eq!(contents.iter().filter(|b| **b != 0).count(), 1);

    after.corrupt_range(p("/d/f"), 512, 64).unwrap();
    let contents = after.contents(p("/d/f")).unwrap();
    assert!(contents[512..576].iter().any(|b| *b != 0));
    assert!(contents[576..].iter().all(|b| *b == 0));
    assert!(after.flip_bit(p("/d/f"), 1024, 0).is_err());
    assert!(after.flip_bit(p("/d/f"), 0, 8).is_err());
    assert!(after.corrupt_range(p("/d/f"), 1000, 25).is_err());
}

// --- threads and counters -------------------------------------------------------------------

#[test]
fn usable_as_a_shared_file_system_from_many_threads() {
    let sim = SimulatedFileSystem::new(9);
    let fs: Arc<dyn FileSystem> = Arc::new(sim.clone());
    fs.create_dir_all(p("/d")).unwrap();
    let threads: Vec<_> = (0..4u8)
        .map(|t| {
            let fs = Arc::clone(&fs);
            std::thread::spawn(move || {
                let file = fs
                    .open(&Path::new("/d").join(format!("f{t}")), OpenMode::CreateNew)
                    .unwrap();
                for i in 0..100u64 {
                    file.write_at(&[t; 64], i * 64).unwrap();
                }
                file.sync_data().unwrap();
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    fs.sync_directory(p("/d")).unwrap();
    assert_eq!(sim.operation_count(OpKind::Write), 400);
    assert_eq!(sim.operation_count(OpKind::SyncData), 4);
    assert_eq!(sim.bytes_written(), 400 * 64);
    let after = sim.crash_with(CrashMode::LoseAllUnsynced);
    for t in 0..4u8 {
        assert_eq!(
            after
                .contents(&Path::new("/d").join(format!("f{t}")))
                .unwrap(),
            vec![t; 6400]
        );
    }
}

#[test]
fn crash_keeps_dependent_directory_operations_in_order() {
    // Rename a durable file away, then create a new file under its old name: a crash may keep
    // neither, the rename, or both, but never the new file without the rename, which would
    // lose the old file entirely.
    let mut outcomes = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let (fs, old) = with_durable_file(seed);
        old.write_at(b"old", 0).unwrap();
        old.sync_data().unwrap();
        fs.rename(p("/d/f"), p("/d/f.old")).unwrap();
        let new = fs.open(p("/d/f"), OpenMode::CreateNew).unwrap();
        new.write_at(b"new", 0).unwrap();
        new.sync_data().unwrap();

        let after = fs.crash_with(CrashMode::Random);
        let state = (
            after.contents(p("/d/f")).ok(),
            after.contents(p("/d/f.old")).ok(),
        );
        let old_survives = state.0.as_deref() == Some(b"old") || state.1.as_deref() == Some(b"old");
        assert!(old_survives, "seed {seed}: old file lost: {state:?}");
        outcomes.insert(state);
    }
    assert_eq!(outcomes.len(), 3, "{outcomes:?}");
}
