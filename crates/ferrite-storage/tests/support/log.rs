//! Shared helpers for the log tests: a file system that runs a test's hooks around the opens,
//! writes and syncs of every file, and forwards everything else to the file system it wraps
//! (so each test states only what it observes or injects, not the whole `FileSystem` and
//! `StorageFile` interfaces).
#![allow(dead_code)]

use std::io;
use std::path::Path;
use std::sync::Arc;

use ferrite_storage::config::{ArchiveParameters, LogParameters};
use ferrite_storage::log::LogManager;
use ferrite_storage::vfs::simulated::SimulatedFileSystem;
use ferrite_storage::vfs::{FileSystem, OpenMode, StorageFile};

/// What a test does around the file operations it cares about. Every method has the plain
/// forwarding behaviour as its default.
pub trait FileHooks: Send + Sync + 'static {
    /// Called before a file named `name` (the last path component) is opened; an error fails
    /// the open.
    fn open(&self, _name: &str, _mode: OpenMode) -> io::Result<()> {
        Ok(())
    }
    /// A write to a file ([`WriteCall::run`] carries it out).
    fn write_at(&self, call: WriteCall<'_>) -> io::Result<()> {
        call.run()
    }
    /// A `sync_data` of the file named `name`.
    fn sync_data(&self, _name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        inner.sync_data()
    }
    /// A `start_write_back` of the file named `name` (only when
    /// [`FileHooks::forwards_shared_flush`]).
    fn start_write_back(&self, _name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        inner.start_write_back()
    }
    /// Whether the wrapped files pass `write_back`, `start_write_back` and
    /// `shared_flush_device` to the inner file (`true`), or keep the `StorageFile` defaults
    /// (`false`: no file shares a device flush, `write_back` is this file's `sync_data`, which
    /// goes through [`FileHooks::sync_data`]).
    fn forwards_shared_flush(&self) -> bool {
        false
    }
}

/// One `write_at` of a hooked file: `buffer` at `offset` of the file named `name`.
pub struct WriteCall<'a> {
    pub name: &'a str,
    pub inner: &'a dyn StorageFile,
    pub buffer: &'a [u8],
    pub offset: u64,
}

impl WriteCall<'_> {
    /// Write to the inner file.
    pub fn run(&self) -> io::Result<()> {
        self.inner.write_at(self.buffer, self.offset)
    }
}

/// A file system whose files run `hooks` around their opens, writes and syncs.
pub struct HookedFileSystem<H: FileHooks> {
    inner: Arc<dyn FileSystem>,
    hooks: Arc<H>,
}

impl<H: FileHooks> HookedFileSystem<H> {
    pub fn new(inner: Arc<dyn FileSystem>, hooks: Arc<H>) -> HookedFileSystem<H> {
        HookedFileSystem { inner, hooks }
    }
}

struct HookedFile<H: FileHooks> {
    inner: Arc<dyn StorageFile>,
    name: String,
    hooks: Arc<H>,
}

impl<H: FileHooks> FileSystem for HookedFileSystem<H> {
    fn open(&self, path: &Path, mode: OpenMode) -> io::Result<Arc<dyn StorageFile>> {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().to_string())
            .unwrap_or_default();
        self.hooks.open(&name, mode)?;
        Ok(Arc::new(HookedFile {
            inner: self.inner.open(path, mode)?,
            name,
            hooks: self.hooks.clone(),
        }))
    }
    fn exists(&self, path: &Path) -> bool {
        self.inner.exists(path)
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        self.inner.create_dir_all(path)
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.inner.remove_file(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.inner.rename(from, to)
    }
    fn sync_directory(&self, directory: &Path) -> io::Result<()> {
        self.inner.sync_directory(directory)
    }
    fn list_directory(&self, directory: &Path) -> io::Result<Vec<String>> {
        self.inner.list_directory(directory)
    }
}

impl<H: FileHooks> StorageFile for HookedFile<H> {
    fn read_at(&self, buffer: &mut [u8], offset: u64) -> io::Result<()> {
        self.inner.read_at(buffer, offset)
    }
    fn write_at(&self, buffer: &[u8], offset: u64) -> io::Result<()> {
        self.hooks.write_at(WriteCall {
            name: &self.name,
            inner: &*self.inner,
            buffer,
            offset,
        })
    }
    fn sync_data(&self) -> io::Result<()> {
        self.hooks.sync_data(&self.name, &*self.inner)
    }
    fn write_back(&self) -> io::Result<()> {
        if self.hooks.forwards_shared_flush() {
            self.inner.write_back()
        } else {
            self.sync_data()
        }
    }
    fn start_write_back(&self) -> io::Result<()> {
        if self.hooks.forwards_shared_flush() {
            self.hooks.start_write_back(&self.name, &*self.inner)
        } else {
            Ok(())
        }
    }
    fn shared_flush_device(&self) -> io::Result<Option<u64>> {
        if self.hooks.forwards_shared_flush() {
            self.inner.shared_flush_device()
        } else {
            Ok(None)
        }
    }
    fn len(&self) -> io::Result<u64> {
        self.inner.len()
    }
    fn set_len(&self, length: u64) -> io::Result<()> {
        self.inner.set_len(length)
    }
    fn path(&self) -> &Path {
        self.inner.path()
    }
}

/// The active log copy (0 or 1) a file named `LOGCOPYn.DSmm` is, if it is one.
pub fn active_log_copy(name: &str) -> Option<usize> {
    name.strip_prefix("LOGCOPY")
        .and_then(|rest| rest.get(..1))
        .and_then(|digit| digit.parse::<usize>().ok())
        .and_then(|number| number.checked_sub(1))
}

/// Two 1 MiB active logs, 64 KiB OUTBUFF, no early writes (WRTHRSH 1000): a switch comes
/// soon, and only forces write.
pub fn two_small_active_logs(twoactv: bool) -> LogParameters {
    one_mib_logs(64, 1000, twoactv, 2).0
}

/// `active_log_count` active logs of 1 MiB (two copies of each if `twoactv`), an OUTBUFF of
/// `outbuff_kib` and WRTHRSH `wrthrsh`; the archives kept ([`kept_archives`]).
pub fn one_mib_logs(
    outbuff_kib: u32,
    wrthrsh: u32,
    twoactv: bool,
    active_log_count: u32,
) -> (LogParameters, ArchiveParameters) {
    let log = LogParameters {
        outbuff_kib,
        wrthrsh,
        twoactv,
        active_log_count,
        active_log_size_mib: 1,
    };
    (log, kept_archives())
}

/// The log in `directory` of the simulated file system `fs`, opened (created if new).
pub fn open_log(
    fs: &SimulatedFileSystem,
    directory: &str,
    (log, archive): &(LogParameters, ArchiveParameters),
) -> Arc<LogManager> {
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    LogManager::open(shared, Path::new(directory), log, archive).unwrap()
}

/// The archive parameters of the log tests: plain single archives kept for ever.
pub fn kept_archives() -> ArchiveParameters {
    ArchiveParameters {
        directory: "archive".to_string(),
        compress: false,
        twoarch: false,
        retention_days: 9999,
        max_archives: 500,
    }
}
