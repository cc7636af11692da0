//! Shared helpers for the page set and buffer pool tests:
//! - a file system wrapper that records every write and injects faults;
//! - a fake write-ahead log that records forces and checks the write-ahead rule on every page
//!   written.
#![allow(dead_code)]

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_storage::buffer_pool::WriteAheadLog;
use ferrite_storage::config::Expand;
use ferrite_storage::page::{PageBytes, PageType, PAGE_FLAG_NONPERSISTENT, PAGE_SIZE};
use ferrite_storage::page_set::PageSet;
use ferrite_storage::vfs::{FileSystem, OpenMode, RealFileSystem, StorageFile};
use ferrite_storage::{PageNumber, PageSetId, Rba, StorageResult};

/// A fake log manager: `force_through(x)` makes everything before `x` "durable".
#[derive(Default)]
pub struct FakeLog {
    pub durable_through: AtomicU64,
    pub forces: AtomicU64,
    pub fail: AtomicBool,
    /// While set, `force_through` waits (to hold a writer between its copy and its write).
    pub hold: AtomicBool,
    /// Set while a force is being held.
    pub holding: AtomicBool,
}

impl WriteAheadLog for FakeLog {
    fn force_through(&self, rba: Rba) -> StorageResult<()> {
        if self.fail.load(Ordering::SeqCst) {
            return Err(ferrite_storage::StorageError::invalid(
                "fake log: force failed",
            ));
        }
        while self.hold.load(Ordering::SeqCst) {
            self.holding.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(1));
        }
        self.holding.store(false, Ordering::SeqCst);
        self.forces.fetch_add(1, Ordering::SeqCst);
        self.durable_through.fetch_max(rba.0, Ordering::SeqCst);
        Ok(())
    }
}

/// One write call seen by the recording file system.
#[derive(Clone, Debug)]
pub struct WriteRecord {
    pub path: PathBuf,
    pub first_page: u64,
    pub pages: u64,
    /// Page RBA of each page in the write.
    pub page_rbas: Vec<u64>,
}

#[derive(Default)]
pub struct FaultState {
    /// Fail every write_at with EIO.
    pub fail_writes: AtomicBool,
    /// Fail set_len growth past this many bytes with ENOSPC (0 = no limit).
    pub space_limit_bytes: AtomicU64,
    /// Pages written whose log records were not yet durable (write-ahead rule violations).
    pub write_ahead_violations: AtomicU64,
    pub writes: Mutex<Vec<WriteRecord>>,
    pub syncs: AtomicU64,
}

/// Wraps the real file system: records writes, checks the write-ahead rule, injects faults.
pub struct RecordingFileSystem {
    pub faults: Arc<FaultState>,
    pub log: Option<Arc<FakeLog>>,
}

impl RecordingFileSystem {
    pub fn new(log: Option<Arc<FakeLog>>) -> Arc<RecordingFileSystem> {
        Arc::new(RecordingFileSystem {
            faults: Arc::new(FaultState::default()),
            log,
        })
    }

    pub fn writes(&self) -> Vec<WriteRecord> {
        self.faults.writes.lock().unwrap().clone()
    }

    pub fn clear_writes(&self) {
        self.faults.writes.lock().unwrap().clear();
    }

    /// Pages written, in write order, as (first page of the write, pages in it).
    pub fn write_shapes(&self) -> Vec<(u64, u64)> {
        self.writes()
            .iter()
            .map(|write| (write.first_page, write.pages))
            .collect()
    }
}

struct RecordingFile {
    inner: Arc<dyn StorageFile>,
    faults: Arc<FaultState>,
    log: Option<Arc<FakeLog>>,
}

impl StorageFile for RecordingFile {
    fn read_at(&self, buffer: &mut [u8], offset: u64) -> io::Result<()> {
        self.inner.read_at(buffer, offset)
    }
    fn write_at(&self, buffer: &[u8], offset: u64) -> io::Result<()> {
        if self.faults.fail_writes.load(Ordering::SeqCst) {
            return Err(io::Error::from_raw_os_error(libc::EIO));
        }
        if self
            .inner
            .path()
            .extension()
            .is_some_and(|extension| extension == "dw")
        {
            // A page set's double-write file: neither recorded nor checked here; the
            // in-place writes that follow it are.
            return self.inner.write_at(buffer, offset);
        }
        assert_eq!(offset % PAGE_SIZE as u64, 0, "page writes are page aligned");
        assert_eq!(buffer.len() % PAGE_SIZE, 0, "page writes are whole pages");
        let mut page_rbas = Vec::new();
        for page in buffer.chunks(PAGE_SIZE) {
            let rba = u64::from_le_bytes(page[8..16].try_into().unwrap());
            page_rbas.push(rba);
            let is_data = page[6] != PageType::PageSetHeader as u8 && page.iter().any(|&b| b != 0);
            let persistent = page[21] & PAGE_FLAG_NONPERSISTENT == 0;
            if let Some(log) = &self.log {
                if is_data && persistent && rba >= log.durable_through.load(Ordering::SeqCst) {
                    self.faults
                        .write_ahead_violations
                        .fetch_add(1, Ordering::SeqCst);
                }
            }
        }
        self.faults.writes.lock().unwrap().push(WriteRecord {
            path: self.inner.path().to_path_buf(),
            first_page: offset / PAGE_SIZE as u64,
            pages: (buffer.len() / PAGE_SIZE) as u64,
            page_rbas,
        });
        self.inner.write_at(buffer, offset)
    }
    fn sync_data(&self) -> io::Result<()> {
        self.faults.syncs.fetch_add(1, Ordering::SeqCst);
        self.inner.sync_data()
    }
    fn len(&self) -> io::Result<u64> {
        self.inner.len()
    }
    fn set_len(&self, length: u64) -> io::Result<()> {
        let limit = self.faults.space_limit_bytes.load(Ordering::SeqCst);
        if limit != 0 && length > limit {
            return Err(io::Error::from_raw_os_error(libc::ENOSPC));
        }
        self.inner.set_len(length)
    }
    fn path(&self) -> &Path {
        self.inner.path()
    }
}

impl FileSystem for RecordingFileSystem {
    fn open(&self, path: &Path, mode: OpenMode) -> io::Result<Arc<dyn StorageFile>> {
        let inner = RealFileSystem.open(path, mode)?;
        Ok(Arc::new(RecordingFile {
            inner,
            faults: Arc::clone(&self.faults),
            log: self.log.clone(),
        }))
    }
    fn exists(&self, path: &Path) -> bool {
        RealFileSystem.exists(path)
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        RealFileSystem.create_dir_all(path)
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        RealFileSystem.remove_file(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        RealFileSystem.rename(from, to)
    }
    fn sync_directory(&self, directory: &Path) -> io::Result<()> {
        RealFileSystem.sync_directory(directory)
    }
    fn list_directory(&self, directory: &Path) -> io::Result<Vec<String>> {
        RealFileSystem.list_directory(directory)
    }
}

pub const QUEUE_MANAGER_ID: u64 = 0x0051_4D31_0000_0001;

pub fn page_set_path(directory: &Path, id: u8) -> PathBuf {
    directory.join(format!("PSID{id:02}.pageset"))
}

/// Format a page set of `pages` pages and open it with EXPAND(NONE).
pub fn create_page_set(fs: &dyn FileSystem, directory: &Path, id: u8, pages: u32) -> Arc<PageSet> {
    let path = page_set_path(directory, id);
    PageSet::format(
        fs,
        &path,
        PageSetId(id),
        pages,
        QUEUE_MANAGER_ID,
        &mut |_, _| {},
    )
    .unwrap();
    PageSet::open(fs, &path, PageSetId(id), Expand::None, 0, pages).unwrap()
}

pub fn open_page_set(fs: &dyn FileSystem, directory: &Path, id: u8) -> Arc<PageSet> {
    let path = page_set_path(directory, id);
    PageSet::open(fs, &path, PageSetId(id), Expand::None, 0, u32::MAX).unwrap()
}

/// Byte offset of the test payload in a data page.
pub const PAYLOAD_OFFSET: usize = 64;

/// Format `page` as a data page carrying `value` in its payload.
pub fn format_data_page(bytes: &mut PageBytes, page_set: PageSetId, page: PageNumber, value: u64) {
    bytes.format(PageType::Data, page_set, page);
    set_payload(bytes, value);
}

pub fn set_payload(bytes: &mut PageBytes, value: u64) {
    bytes.0[PAYLOAD_OFFSET..PAYLOAD_OFFSET + 8].copy_from_slice(&value.to_le_bytes());
}

pub fn payload(bytes: &PageBytes) -> u64 {
    u64::from_le_bytes(
        bytes.0[PAYLOAD_OFFSET..PAYLOAD_OFFSET + 8]
            .try_into()
            .unwrap(),
    )
}

/// Poll `condition` until it holds or `timeout` passes. Returns whether it held.
pub fn wait_until(timeout: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if condition() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}
