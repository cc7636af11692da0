//! Page set files: formatting, the header page, verification, writes and expansion.

mod support;

use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::atomic::Ordering;

use ferrite_storage::config::Expand;
use ferrite_storage::page::{PageBytes, PageType, PAGE_SIZE};
use ferrite_storage::page_set::{PageSet, PAGE_SET_FORMAT_VERSION};
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::{PageNumber, PageSetId, Rba, StorageError};
use support::buffer_pool::*;

fn flip_byte(path: &std::path::Path, offset: u64) {
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut byte = [0u8; 1];
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.read_exact(&mut byte).unwrap();
    byte[0] ^= 0x10;
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.write_all(&byte).unwrap();
}

#[test]
fn format_then_open_round_trips_the_header() {
    let directory = tempfile::tempdir().unwrap();
    let path = page_set_path(directory.path(), 3);
    let mut reports = Vec::new();
    PageSet::format(
        &RealFileSystem,
        &path,
        PageSetId(3),
        3000,
        QUEUE_MANAGER_ID,
        &mut |done, total| reports.push((done, total)),
    )
    .unwrap();
    assert!(
        reports.len() >= 3,
        "progress reported every 1024 pages: {reports:?}"
    );
    assert!(reports.windows(2).all(|pair| pair[0].0 < pair[1].0));
    assert_eq!(*reports.last().unwrap(), (3000, 3000));
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        3000 * PAGE_SIZE as u64
    );

    let page_set = PageSet::open(
        &RealFileSystem,
        &path,
        PageSetId(3),
        Expand::User,
        100,
        5000,
    )
    .unwrap();
    let header = page_set.header();
    assert_eq!(header.page_set, PageSetId(3));
    assert_eq!(header.format_version, PAGE_SET_FORMAT_VERSION);
    assert_eq!(header.recovery_rba, Rba::ZERO);
    assert_eq!(header.page_count, 3000);
    assert_eq!(header.expansion_count, 0);
    assert_eq!(header.queue_manager_id, QUEUE_MANAGER_ID);
    assert!(header.creation_time_micros > 1_600_000_000_000_000);
    assert_eq!(page_set.page_count(), 3000);
    assert_eq!(page_set.id(), PageSetId(3));
    assert_eq!(page_set.path(), path);

    let mut page = PageBytes::zeroed();
    page_set.read_page(PageNumber(0), &mut page).unwrap();
    assert_eq!(page.page_type(), Some(PageType::PageSetHeader));
    for number in [1, 1500, 2999] {
        page_set.read_page(PageNumber(number), &mut page).unwrap();
        assert!(
            page.is_all_zero(),
            "page {number} is unformatted after format"
        );
    }

    page_set.set_recovery_rba(Rba(0xABCDEF)).unwrap();
    drop(page_set);
    let reopened = PageSet::open(
        &RealFileSystem,
        &path,
        PageSetId(3),
        Expand::User,
        100,
        5000,
    )
    .unwrap();
    assert_eq!(reopened.header().recovery_rba, Rba(0xABCDEF));
    assert_eq!(
        reopened.header().creation_time_micros,
        header.creation_time_micros
    );
}

#[test]
fn a_page_set_opened_under_the_wrong_id_or_unformatted_is_refused() {
    let directory = tempfile::tempdir().unwrap();
    let path = page_set_path(directory.path(), 3);
    PageSet::format(
        &RealFileSystem,
        &path,
        PageSetId(3),
        16,
        QUEUE_MANAGER_ID,
        &mut |_, _| {},
    )
    .unwrap();
    let error =
        PageSet::open(&RealFileSystem, &path, PageSetId(4), Expand::None, 0, 16).unwrap_err();
    assert!(
        matches!(error, StorageError::CorruptMetadata { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains("is page set 03"), "{error}");

    // Formatting over an existing file fails and leaves the file alone.
    let again = PageSet::format(&RealFileSystem, &path, PageSetId(3), 16, 1, &mut |_, _| {});
    assert!(matches!(again, Err(StorageError::Io { .. })));
    assert!(PageSet::open(&RealFileSystem, &path, PageSetId(3), Expand::None, 0, 16).is_ok());

    // A file of zeros was never formatted.
    let blank = directory.path().join("blank");
    std::fs::write(&blank, vec![0u8; 4 * PAGE_SIZE]).unwrap();
    let error =
        PageSet::open(&RealFileSystem, &blank, PageSetId(3), Expand::None, 0, 16).unwrap_err();
    assert!(error.to_string().contains("never formatted"), "{error}");

    // A truncated page set is refused.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(10 * PAGE_SIZE as u64).unwrap();
    let error =
        PageSet::open(&RealFileSystem, &path, PageSetId(3), Expand::None, 0, 16).unwrap_err();
    assert!(error.to_string().contains("truncated"), "{error}");

    // A damaged header page with no double-write copy is a corrupt page (with a copy, open
    // repairs it: tests/torn_page_*.rs).
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(16 * PAGE_SIZE as u64).unwrap();
    std::fs::remove_file(ferrite_storage::page_set::double_write_path(&path)).unwrap();
    flip_byte(&path, 50);
    let error =
        PageSet::open(&RealFileSystem, &path, PageSetId(3), Expand::None, 0, 16).unwrap_err();
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
}

#[test]
fn a_corrupt_page_is_reported_with_its_location_and_never_returned() {
    let directory = tempfile::tempdir().unwrap();
    let page_set = create_page_set(&RealFileSystem, directory.path(), 7, 64);
    let mut page = PageBytes::zeroed();
    format_data_page(&mut page, PageSetId(7), PageNumber(5), 0x5555);
    page_set.write_pages(PageNumber(5), &[&page]).unwrap();
    page_set.sync().unwrap();
    let mut read = PageBytes::zeroed();
    page_set.read_page(PageNumber(5), &mut read).unwrap();
    assert_eq!(payload(&read), 0x5555);

    flip_byte(&page_set.path(), 5 * PAGE_SIZE as u64 + 3000);
    let mut read = PageBytes::zeroed();
    let error = page_set.read_page(PageNumber(5), &mut read).unwrap_err();
    match &error {
        StorageError::CorruptPage {
            page_set: id,
            page,
            path,
            detail,
        } => {
            assert_eq!(*id, PageSetId(7));
            assert_eq!(*page, PageNumber(5));
            assert_eq!(*path, page_set.path());
            assert!(detail.contains("checksum"), "{detail}");
        }
        other => panic!("expected CorruptPage, got {other:?}"),
    }
    assert!(
        read.is_all_zero(),
        "the damaged bytes are not left in the caller's buffer"
    );

    // A page written to the wrong place (misdirected write) is caught too.
    let mut page = PageBytes::zeroed();
    format_data_page(&mut page, PageSetId(7), PageNumber(9), 1);
    page.seal();
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(page_set.path())
        .unwrap();
    file.seek(SeekFrom::Start(10 * PAGE_SIZE as u64)).unwrap();
    file.write_all(&page.0).unwrap();
    let error = page_set.read_page(PageNumber(10), &mut read).unwrap_err();
    assert!(error.to_string().contains("misdirected"), "{error}");
}

#[test]
fn write_pages_is_one_call_and_leaves_the_callers_bytes_alone() {
    let directory = tempfile::tempdir().unwrap();
    let fs = RecordingFileSystem::new(None);
    let page_set = create_page_set(fs.as_ref(), directory.path(), 1, 64);
    fs.clear_writes();
    let mut pages: Vec<PageBytes> = Vec::new();
    for number in 10..13 {
        let mut page = PageBytes::default();
        format_data_page(
            &mut page,
            PageSetId(1),
            PageNumber(number),
            u64::from(number) * 7,
        );
        pages.push(page);
    }
    let before: Vec<[u8; PAGE_SIZE]> = pages.iter().map(|page| page.0).collect();
    let references: Vec<&PageBytes> = pages.iter().collect();
    page_set.write_pages(PageNumber(10), &references).unwrap();
    assert_eq!(fs.write_shapes(), vec![(10, 3)]);
    assert!(pages
        .iter()
        .zip(&before)
        .all(|(page, original)| page.0 == *original));
    page_set.sync().unwrap();
    for number in 10..13 {
        let mut read = PageBytes::zeroed();
        page_set.read_page(PageNumber(number), &mut read).unwrap();
        assert_eq!(payload(&read), u64::from(number) * 7);
    }

    // Outside the data pages, or not formatted as the page it is written to: refused.
    let mut read = PageBytes::zeroed();
    assert!(matches!(
        page_set.read_page(PageNumber(64), &mut read),
        Err(StorageError::Invalid { .. })
    ));
    assert!(page_set.write_pages(PageNumber(0), &[&pages[0]]).is_err());
    assert!(page_set
        .write_pages(PageNumber(63), &[&pages[0], &pages[1]])
        .is_err());
    assert!(page_set.write_pages(PageNumber(11), &[&pages[0]]).is_err());
    let zero = PageBytes::default();
    page_set.write_pages(PageNumber(63), &[&zero]).unwrap();
}

#[test]
fn expansion_follows_user_system_and_none_up_to_the_maximum() {
    let directory = tempfile::tempdir().unwrap();
    let fs = RealFileSystem;
    let path = page_set_path(directory.path(), 2);
    PageSet::format(
        &fs,
        &path,
        PageSetId(2),
        1000,
        QUEUE_MANAGER_ID,
        &mut |_, _| {},
    )
    .unwrap();

    // USER: by the secondary extent, capped at the maximum.
    let user = PageSet::open(&fs, &path, PageSetId(2), Expand::User, 300, 1500).unwrap();
    assert_eq!(user.expand().unwrap(), 1300);
    assert_eq!(user.expand().unwrap(), 1500);
    assert!(matches!(
        user.expand(),
        Err(StorageError::StorageMediumFull {
            page_set: PageSetId(2)
        })
    ));
    assert_eq!(user.header().expansion_count, 2);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        1500 * PAGE_SIZE as u64
    );
    let mut page = PageBytes::zeroed();
    user.read_page(PageNumber(1499), &mut page).unwrap();
    assert!(page.is_all_zero());
    drop(user);

    // SYSTEM: by max(secondary, 10% of the current size).
    let system = PageSet::open(&fs, &path, PageSetId(2), Expand::System, 50, 10_000).unwrap();
    assert_eq!(system.page_count(), 1500, "the header survived reopening");
    assert_eq!(system.expand().unwrap(), 1650);
    drop(system);
    let system = PageSet::open(&fs, &path, PageSetId(2), Expand::System, 400, 10_000).unwrap();
    assert_eq!(system.expand().unwrap(), 2050);
    assert_eq!(system.header().expansion_count, 4);
    drop(system);

    // NONE: never.
    let none = PageSet::open(&fs, &path, PageSetId(2), Expand::None, 400, 10_000).unwrap();
    assert!(matches!(
        none.expand(),
        Err(StorageError::StorageMediumFull { .. })
    ));
    assert_eq!(none.page_count(), 2050);
    assert_eq!(none.header().expansion_count, 4);
}

#[test]
fn expansion_that_runs_out_of_disk_space_changes_nothing() {
    let directory = tempfile::tempdir().unwrap();
    let fs = RecordingFileSystem::new(None);
    let path = page_set_path(directory.path(), 4);
    PageSet::format(
        fs.as_ref(),
        &path,
        PageSetId(4),
        100,
        QUEUE_MANAGER_ID,
        &mut |_, _| {},
    )
    .unwrap();
    let page_set =
        PageSet::open(fs.as_ref(), &path, PageSetId(4), Expand::User, 100, 1000).unwrap();
    let header = page_set.header();
    fs.faults
        .space_limit_bytes
        .store(150 * PAGE_SIZE as u64, Ordering::SeqCst);
    let error = page_set.expand().unwrap_err();
    assert!(
        matches!(
            error,
            StorageError::StorageMediumFull {
                page_set: PageSetId(4)
            }
        ),
        "{error:?}"
    );
    assert_eq!(error.reason_code(), 2192);
    assert_eq!(page_set.page_count(), 100);
    assert_eq!(page_set.header(), header);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        100 * PAGE_SIZE as u64
    );
    fs.faults.space_limit_bytes.store(0, Ordering::SeqCst);
    assert_eq!(page_set.expand().unwrap(), 200);
    drop(page_set);
    let reopened =
        PageSet::open(fs.as_ref(), &path, PageSetId(4), Expand::User, 100, 1000).unwrap();
    assert_eq!(reopened.header().page_count, 200);
    assert_eq!(reopened.header().expansion_count, 1);
}

#[test]
fn a_file_longer_than_its_header_says_is_accepted_and_the_header_wins() {
    // What a crash between growing the file and rewriting the header leaves behind.
    let directory = tempfile::tempdir().unwrap();
    let path = page_set_path(directory.path(), 5);
    PageSet::format(
        &RealFileSystem,
        &path,
        PageSetId(5),
        100,
        QUEUE_MANAGER_ID,
        &mut |_, _| {},
    )
    .unwrap();
    let file = RealFileSystem
        .open(&path, ferrite_storage::vfs::OpenMode::Existing)
        .unwrap();
    file.set_len(180 * PAGE_SIZE as u64).unwrap();
    drop(file);
    let page_set = PageSet::open(
        &RealFileSystem,
        &path,
        PageSetId(5),
        Expand::User,
        100,
        1000,
    )
    .unwrap();
    assert_eq!(page_set.page_count(), 100);
    assert_eq!(page_set.expand().unwrap(), 200);
}
