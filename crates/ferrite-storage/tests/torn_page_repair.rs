//! Torn page writes and the page set double-write file (simulated file system): a crash at
//! every step of a flush, with the write at the crash point torn at sector granularity, must
//! never leave a page that restart cannot use. Reopening the page set repairs every damaged
//! page from the double-write file, and every page then holds its old or its new image.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ferrite_storage::buffer_pool::{BufferPool, PageChange};
use ferrite_storage::config::Expand;
use ferrite_storage::page::{PageBytes, PAGE_SIZE};
use ferrite_storage::page_set::{double_write_path, PageSet, DOUBLE_WRITE_SLOTS};
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::{FileSystem, OpenMode};
use ferrite_storage::{BufferPoolId, PageNumber, PageSetId, Rba, StorageError};
use support::buffer_pool::*;

const ID: PageSetId = PageSetId(1);
const PAGES: u32 = 64;
const DIRECTORY: &str = "/qm/pagesets";

fn path() -> PathBuf {
    page_set_path(Path::new(DIRECTORY), ID.0)
}

/// The pages the flush changes: a run longer than one I/O, a short run, and lone pages, so the
/// batch has several in-place writes.
fn changed_pages() -> Vec<u32> {
    let mut pages: Vec<u32> = (1..=20).collect();
    pages.extend([23, 24, 25]);
    pages.extend((30..=50).step_by(3));
    pages
}

/// Format `page` as a data page whose body (every sector) depends on `value`, so that a write
/// torn between two values is detectable in any sector.
fn data_page(page: &mut PageBytes, page_set: PageSetId, number: u32, value: u64) {
    format_data_page(page, page_set, PageNumber(number), value);
    fill_body(page, value);
}

fn fill_body(page: &mut PageBytes, value: u64) {
    for (offset, byte) in page.0.iter_mut().enumerate().skip(PAYLOAD_OFFSET + 8) {
        *byte = (offset as u64 * 31 + value * 7) as u8;
    }
}

fn open(fs: &SimulatedFileSystem) -> Arc<PageSet> {
    PageSet::open(fs, &path(), ID, Expand::None, 0, PAGES).unwrap()
}

/// A simulated file system holding page set 01, every page of which has been written once
/// (value 1) and synced.
fn formatted(seed: u64) -> SimulatedFileSystem {
    let fs = SimulatedFileSystem::new(seed);
    fs.create_dir_all(Path::new(DIRECTORY)).unwrap();
    let page_set = create_page_set(&fs, Path::new(DIRECTORY), ID.0, PAGES);
    let pages: Vec<PageBytes> = (1..PAGES)
        .map(|number| {
            let mut page = PageBytes::default();
            data_page(&mut page, ID, number, 1);
            page.set_page_rba(Rba(u64::from(number)));
            page
        })
        .collect();
    let references: Vec<&PageBytes> = pages.iter().collect();
    page_set.write_pages(PageNumber(1), &references).unwrap();
    fs
}

/// Change the pages of [`changed_pages`] in a buffer pool (value 2), then flush it as
/// shutdown does. Returns the flush's outcome.
fn change_and_flush(fs: &SimulatedFileSystem, arm: impl FnOnce()) -> Result<u64, StorageError> {
    let log = Arc::new(FakeLog::default());
    // Four buffers per page: the deferred write process stays asleep, so the flush is the
    // only writer and the run is deterministic.
    let pool = BufferPool::new(BufferPoolId(1), PAGES * 4, log);
    pool.attach(open(fs));
    for (index, number) in changed_pages().into_iter().enumerate() {
        let guard = pool.get_page(ID, PageNumber(number)).unwrap();
        guard.update(PageChange::Logged(Rba(1000 + index as u64)), |bytes| {
            set_payload(bytes, 2);
            fill_body(bytes, 2);
        });
    }
    arm();
    let result = pool.flush_for_shutdown();
    pool.shutdown();
    result
}

fn page_image(contents: &[u8], number: u32) -> &[u8] {
    &contents[number as usize * PAGE_SIZE..(number as usize + 1) * PAGE_SIZE]
}

/// Pages of the page set file, in `fs`'s current image, that fail verification.
fn damaged_pages(fs: &SimulatedFileSystem) -> BTreeSet<u32> {
    let contents = fs.contents(&path()).unwrap();
    (0..PAGES)
        .filter(|&number| {
            let mut page = PageBytes::default();
            page.0.copy_from_slice(page_image(&contents, number));
            page.verify(ID, PageNumber(number)).is_err()
        })
        .collect()
}

/// Reopen after a crash: every damaged page is repaired, every page verifies and holds its
/// old or its new image. Returns the number of pages repaired.
fn check_reopened(after: SimulatedFileSystem, old: &[u8], new: &[u8], context: &str) -> usize {
    let damaged = damaged_pages(&after);
    let page_set = PageSet::open(&after, &path(), ID, Expand::None, 0, PAGES)
        .unwrap_or_else(|error| panic!("{context}: reopen failed: {error}"));
    let repaired: BTreeSet<u32> = page_set.repaired_pages().iter().map(|p| p.0).collect();
    assert_eq!(
        repaired, damaged,
        "{context}: repaired pages are not the damaged ones"
    );
    let mut page = PageBytes::default();
    for number in 0..PAGES {
        page_set
            .read_page(PageNumber(number), &mut page)
            .unwrap_or_else(|error| panic!("{context}: page {number}: {error}"));
        if number == 0 {
            continue;
        }
        let (old, new) = (page_image(old, number), page_image(new, number));
        assert!(
            page.0.as_slice() == old || page.0.as_slice() == new,
            "{context}: page {number} is neither its old nor its new image"
        );
    }
    drop(page_set);
    // A second open finds nothing more to repair.
    let again = PageSet::open(&after, &path(), ID, Expand::None, 0, PAGES).unwrap();
    assert!(
        again.repaired_pages().is_empty(),
        "{context}: repaired twice"
    );
    repaired.len()
}

/// Crash at every mutating step of the flush, on the files `paths` selects, with the write at
/// the crash point torn. Returns (crashes, pages repaired in all).
fn torn_flush_at_every_step(seed: u64, paths: PathFilter, mode: CrashMode) -> (u64, usize) {
    // The old and new images, and the number of steps, from a run without a crash.
    let fs = formatted(seed);
    let old = fs.contents(&path()).unwrap();
    let counter = fs.count_operations(OpClass::Mutating, paths.clone());
    change_and_flush(&fs, || {}).unwrap();
    let new = fs.contents(&path()).unwrap();
    let steps = counter.get();
    assert_ne!(old, new);
    assert!(steps >= 6, "the flush did too little I/O ({steps} steps)");

    let mut repaired = 0;
    for step in 0..steps {
        let fs = formatted(seed.wrapping_mul(1000).wrapping_add(step));
        let result = change_and_flush(&fs, || {
            fs.set_crash_point(CrashPoint {
                after: step,
                class: OpClass::Mutating,
                paths: paths.clone(),
                effect: CrashEffect::Torn,
            });
        });
        assert!(
            result.is_err(),
            "step {step}: the crash point was not reached"
        );
        let after = fs.crash_with(mode);
        let context = format!("seed {seed} step {step}/{steps} ({paths:?}, {mode:?})");
        repaired += check_reopened(after, &old, &new, &context);
    }
    (steps, repaired)
}

#[test]
fn torn_in_place_write_at_every_step_of_a_flush_is_repaired() {
    for mode in [
        CrashMode::Random,
        CrashMode::KeepAllUnsynced,
        CrashMode::LoseAllUnsynced,
    ] {
        let mut repaired = 0;
        for seed in 1..=4 {
            let (steps, pages) = torn_flush_at_every_step(seed, PathFilter::exact(path()), mode);
            assert!(steps > 0);
            repaired += pages;
        }
        eprintln!("{mode:?}: {repaired} torn pages repaired");
        // Power loss that keeps only synced data never shows a torn write; the other modes
        // must have met (and repaired) torn pages, or this test tests nothing.
        if mode != CrashMode::LoseAllUnsynced {
            assert!(repaired > 0, "{mode:?}: no torn page was ever produced");
        }
    }
}

#[test]
fn torn_write_of_either_file_at_every_step_of_a_flush_is_survived() {
    // The prefix matches PSID01.pageset and PSID01.pageset.dw: torn double-write batches too.
    let both = PathFilter::prefix(path().into_os_string());
    for mode in [
        CrashMode::Random,
        CrashMode::KeepAllUnsynced,
        CrashMode::LoseAllUnsynced,
    ] {
        for seed in 11..=13 {
            torn_flush_at_every_step(seed, both.clone(), mode);
        }
    }
}

#[test]
fn torn_write_of_a_write_larger_than_the_double_write_area_is_repaired() {
    const BIG: u32 = DOUBLE_WRITE_SLOTS as u32 + 200;
    let big_path = page_set_path(Path::new(DIRECTORY), 2);
    let image = |number: u32, value: u64| {
        let mut page = PageBytes::default();
        data_page(&mut page, PageSetId(2), number, value);
        page
    };
    let setup = |seed: u64| {
        let fs = SimulatedFileSystem::new(seed);
        fs.create_dir_all(Path::new(DIRECTORY)).unwrap();
        let page_set = create_page_set(&fs, Path::new(DIRECTORY), 2, BIG + 1);
        let pages: Vec<PageBytes> = (1..=BIG).map(|number| image(number, 1)).collect();
        page_set
            .write_pages(PageNumber(1), &pages.iter().collect::<Vec<_>>())
            .unwrap();
        (fs, page_set)
    };
    let new_pages: Vec<PageBytes> = (1..=BIG).map(|number| image(number, 2)).collect();
    let new_references: Vec<&PageBytes> = new_pages.iter().collect();
    let (fs, page_set) = setup(1);
    let counter = fs.count_operations(OpClass::Mutating, PathFilter::exact(&big_path));
    page_set
        .write_pages(PageNumber(1), &new_references)
        .unwrap();
    let steps = counter.get();
    assert!(
        steps >= 4,
        "two batches: two in-place writes and two syncs ({steps})"
    );
    let mut repaired = 0;
    for mode in [CrashMode::Random, CrashMode::KeepAllUnsynced] {
        for step in 0..steps {
            let (fs, page_set) = setup(step + 7);
            fs.set_crash_point(CrashPoint {
                after: step,
                class: OpClass::Mutating,
                paths: PathFilter::exact(&big_path),
                effect: CrashEffect::Torn,
            });
            assert!(page_set
                .write_pages(PageNumber(1), &new_references)
                .is_err());
            drop(page_set);
            let after = fs.crash_with(mode);
            let reopened =
                PageSet::open(&after, &big_path, PageSetId(2), Expand::None, 0, BIG + 1).unwrap();
            repaired += reopened.repaired_pages().len();
            let mut page = PageBytes::default();
            for number in 1..=BIG {
                reopened
                    .read_page(PageNumber(number), &mut page)
                    .unwrap_or_else(|error| panic!("step {step} {mode:?}: {error}"));
                let value = payload(&page);
                assert!(
                    value == 1 || value == 2,
                    "step {step}: page {number} holds {value}"
                );
            }
        }
    }
    assert!(repaired > 0, "no torn page was ever produced");
}

/// Page 0 after `set_recovery_rba(100)`, then a torn `set_recovery_rba(200)`: the crash
/// point tears the in-place write of page 0 (after its double-write copy was synced).
///
/// Every field of the header page lies in its first 512-byte sector, and the rest of the page
/// is zero, so a tear at sector granularity always leaves the old or the new header (checked
/// here). A device that does not write sectors atomically can also tear inside the sector:
/// that is modelled by writing the start of the new header over the old one.
fn torn_header(seed: u64) -> SimulatedFileSystem {
    let fs = formatted(seed);
    let page_set = open(&fs);
    page_set.set_recovery_rba(Rba(100)).unwrap();
    let old = page_image(&fs.contents(&path()).unwrap(), 0).to_vec();
    fs.set_crash_point(CrashPoint {
        after: 0,
        class: OpClass::Writes,
        paths: PathFilter::exact(path()),
        effect: CrashEffect::Torn,
    });
    assert!(page_set.set_recovery_rba(Rba(200)).is_err());
    drop(page_set);
    let after = fs.crash_with(CrashMode::KeepAllUnsynced);
    assert!(
        damaged_pages(&after).is_empty(),
        "a sector tear of page 0 leaves a valid page"
    );
    // The new header: the old one with recovery RBA 200 (offset 48), sealed.
    let mut new = PageBytes::default();
    new.0.copy_from_slice(&old);
    new.0[48..56].copy_from_slice(&200u64.to_le_bytes());
    new.seal();
    // Torn inside the first sector: the new checksum and leading bytes, the old RBA.
    let mut torn = old.clone();
    torn[..40].copy_from_slice(&new.0[..40]);
    let file = after.open(&path(), OpenMode::Existing).unwrap();
    file.write_at(&torn, 0).unwrap();
    file.sync_data().unwrap();
    drop(file);
    assert!(damaged_pages(&after).contains(&0));
    after
}

#[test]
fn torn_header_page_write_is_repaired_from_the_double_write_file() {
    for seed in 1..=4 {
        let after = torn_header(seed);
        let page_set = open(&after);
        assert_eq!(page_set.repaired_pages(), [PageNumber(0)]);
        // The torn write was the newer header; its double-write copy is what open restores.
        assert_eq!(page_set.header().recovery_rba, Rba(200));
        assert_eq!(page_set.header().page_count, PAGES);
        let mut page = PageBytes::default();
        page_set.read_page(PageNumber(0), &mut page).unwrap();
        drop(page_set);
        assert!(open(&after).repaired_pages().is_empty());
    }
}

#[test]
fn torn_header_page_without_a_double_write_copy_is_refused_naming_the_file() {
    let after = torn_header(1);
    after.remove_file(&double_write_path(&path())).unwrap();
    let error = PageSet::open(&after, &path(), ID, Expand::None, 0, PAGES).unwrap_err();
    assert!(
        matches!(
            error,
            StorageError::CorruptPage {
                page: PageNumber(0),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("PSID01.pageset"),
        "the error names the file: {error}"
    );
}

#[test]
fn torn_double_write_entry_is_ignored_and_the_page_stays_intact() {
    let dw_path = double_write_path(&path());
    let mut torn_entries = 0;
    for seed in 1..=12 {
        for mode in [CrashMode::Random, CrashMode::KeepAllUnsynced] {
            let fs = formatted(seed);
            let old = fs.contents(&path()).unwrap();
            let page_set = open(&fs);
            let dw_before = fs.contents(&dw_path).unwrap();
            fs.set_crash_point(CrashPoint {
                after: 0,
                class: OpClass::Writes,
                paths: PathFilter::exact(&dw_path),
                effect: CrashEffect::Torn,
            });
            let pages: Vec<PageBytes> = (5..=12)
                .map(|number| {
                    let mut page = PageBytes::default();
                    data_page(&mut page, ID, number, 9);
                    page
                })
                .collect();
            assert!(page_set
                .write_pages(PageNumber(5), &pages.iter().collect::<Vec<_>>())
                .is_err());
            drop(page_set);
            let after = fs.crash_with(mode);
            if after.contents(&dw_path).unwrap() != dw_before {
                torn_entries += 1;
            }
            let reopened = open(&after);
            assert!(reopened.repaired_pages().is_empty());
            // The page set was never touched.
            assert_eq!(
                after.contents(&path()).unwrap(),
                old,
                "seed {seed} {mode:?}"
            );
        }
    }
    assert!(
        torn_entries > 0,
        "no torn double-write batch reached the file"
    );
}

#[test]
fn a_double_write_entry_that_fails_its_checksum_is_not_used() {
    // A complete double-write batch for page 5 reaches the file, then the process dies before
    // the in-place write. Damage both the entry and page 5 in place: open must not "repair"
    // the page from an entry it cannot trust.
    let dw_path = double_write_path(&path());
    let fs = formatted(3);
    let page_set = open(&fs);
    fs.set_crash_point(CrashPoint {
        after: 1,
        class: OpClass::Mutating,
        paths: PathFilter::prefix(path().into_os_string()),
        effect: CrashEffect::NotApplied,
    });
    let mut page = PageBytes::default();
    format_data_page(&mut page, ID, PageNumber(5), 9);
    assert!(page_set.write_pages(PageNumber(5), &[&page]).is_err());
    drop(page_set);
    let after = fs.crash_with(CrashMode::KeepAllUnsynced);
    // Batch at 4096: one descriptor block, then the image.
    after.flip_bit(&dw_path, 4096 + 4096 + 100, 3).unwrap();
    after.flip_bit(&path(), 5 * 4096 + 100, 3).unwrap();
    let reopened = open(&after);
    assert!(reopened.repaired_pages().is_empty());
    let mut read = PageBytes::default();
    assert!(matches!(
        reopened.read_page(PageNumber(5), &mut read),
        Err(StorageError::CorruptPage { .. })
    ));

    // An entry whose image sectors are stale: a valid, sealed older image of the same page
    // (the double-write write was torn; the descriptor is new, the image is not). Its page
    // checksum passes; only the entry checksum (sequence, page number, image) rejects it.
    let fs = formatted(4);
    let page_set = open(&fs);
    let mut older = PageBytes::default();
    data_page(&mut older, ID, 5, 8);
    page_set.write_pages(PageNumber(5), &[&older]).unwrap();
    let dw_image_offset = 2 * PAGE_SIZE;
    let stale_image = fs.contents(&dw_path).unwrap()[dw_image_offset..][..PAGE_SIZE].to_vec();
    fs.set_crash_point(CrashPoint {
        after: 1,
        class: OpClass::Mutating,
        paths: PathFilter::prefix(path().into_os_string()),
        effect: CrashEffect::NotApplied,
    });
    assert!(page_set.write_pages(PageNumber(5), &[&page]).is_err());
    drop(page_set);
    let after = fs.crash_with(CrashMode::KeepAllUnsynced);
    let file = after.open(&dw_path, OpenMode::Existing).unwrap();
    file.write_at(&stale_image, dw_image_offset as u64).unwrap();
    file.sync_data().unwrap();
    drop(file);
    after.flip_bit(&path(), 5 * 4096 + 100, 3).unwrap();
    let reopened = open(&after);
    assert!(
        reopened.repaired_pages().is_empty(),
        "a stale image was taken for the batch's"
    );
    assert!(reopened.read_page(PageNumber(5), &mut read).is_err());

    // The same without the damaged entry: the page is repaired to the new image.
    let fs = formatted(3);
    let page_set = open(&fs);
    fs.set_crash_point(CrashPoint {
        after: 1,
        class: OpClass::Mutating,
        paths: PathFilter::prefix(path().into_os_string()),
        effect: CrashEffect::NotApplied,
    });
    assert!(page_set.write_pages(PageNumber(5), &[&page]).is_err());
    drop(page_set);
    let after = fs.crash_with(CrashMode::KeepAllUnsynced);
    after.flip_bit(&path(), 5 * 4096 + 100, 3).unwrap();
    let reopened = open(&after);
    assert_eq!(reopened.repaired_pages(), [PageNumber(5)]);
    reopened.read_page(PageNumber(5), &mut read).unwrap();
    assert_eq!(payload(&read), 9);
}

#[test]
fn a_page_set_without_a_double_write_file_opens_and_gets_one() {
    let fs = formatted(5);
    let dw_path = double_write_path(&path());
    assert!(fs.exists(&dw_path));
    fs.remove_file(&dw_path).unwrap();
    let page_set = open(&fs);
    assert!(page_set.repaired_pages().is_empty());
    assert!(fs.exists(&dw_path), "open creates the double-write file");
    assert_eq!(page_set.double_write_path(), dw_path);
    let mut page = PageBytes::default();
    page_set.read_page(PageNumber(7), &mut page).unwrap();
    assert_eq!(payload(&page), 1);
    // And it protects writes from then on.
    format_data_page(&mut page, ID, PageNumber(7), 3);
    page_set.write_pages(PageNumber(7), &[&page]).unwrap();
    page_set.set_recovery_rba(Rba(42)).unwrap();
    drop(page_set);
    let after = fs.crash_with(CrashMode::LoseAllUnsynced);
    let reopened = open(&after);
    assert_eq!(reopened.header().recovery_rba, Rba(42));
    reopened.read_page(PageNumber(7), &mut page).unwrap();
    assert_eq!(payload(&page), 3);
}

#[test]
fn a_double_write_file_of_another_format_of_the_page_set_is_not_used() {
    // Page 5's image is staged, the in-place write never happens.
    let fs = formatted(6);
    let page_set = open(&fs);
    let dw_path = double_write_path(&path());
    fs.set_crash_point(CrashPoint {
        after: 1,
        class: OpClass::Mutating,
        paths: PathFilter::prefix(path().into_os_string()),
        effect: CrashEffect::NotApplied,
    });
    let mut page = PageBytes::default();
    format_data_page(&mut page, ID, PageNumber(5), 9);
    assert!(page_set.write_pages(PageNumber(5), &[&page]).is_err());
    drop(page_set);
    let after = fs.crash_with(CrashMode::KeepAllUnsynced);
    let stale = after.contents(&dw_path).unwrap();
    // The page set is formatted again (a new incarnation), and the old double-write file put
    // back beside it.
    after.remove_file(&path()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2));
    PageSet::format(&after, &path(), ID, PAGES, QUEUE_MANAGER_ID, &mut |_, _| {}).unwrap();
    after.remove_file(&dw_path).unwrap();
    let file = after.open(&dw_path, OpenMode::CreateNew).unwrap();
    file.write_at(&stale, 0).unwrap();
    file.sync_data().unwrap();
    drop(file);
    after.flip_bit(&path(), 5 * 4096 + 100, 3).unwrap();
    let reopened = open(&after);
    assert!(reopened.repaired_pages().is_empty());
    assert!(reopened.read_page(PageNumber(5), &mut page).is_err());
}
