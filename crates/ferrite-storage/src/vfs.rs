//! The file system interface of the storage engine.
//!
//! Every byte the engine reads or writes goes through [`FileSystem`] and [`StorageFile`], so a
//! deterministic simulator (see `vfs::simulated`) can stand in for the disk and inject the faults
//! that matter for durability: crashes that lose unsynced writes, torn writes, failed fsyncs,
//! full disks and bit flips. [`RealFileSystem`] is the production implementation on Linux.
//!
//! Contract (both implementations):
//! - `write_at` may be partially lost on crash unless followed by a successful `sync_data`.
//! - After `sync_data` returns `Ok`, every earlier `write_at` on that file survives a crash.
//! - `create`/`rename`/`remove_file` are durable once `sync_directory` on the parent returns `Ok`.
//! - `read_at` fills the whole buffer or fails (reading past the end is an error).
//! - `write_back` makes every earlier `write_at` on that file *reach the device*, not durable:
//!   a crash may still lose or tear it, until a `sync_data` of any file whose
//!   `shared_flush_device` is the same device (the device cache flush that `sync_data` ends
//!   with makes every write the device has completed durable, whichever file it belongs to).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod shared_flush;
pub mod simulated;

/// How to open a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpenMode {
    /// Create a new file; fail if it exists.
    CreateNew,
    /// Open an existing file for reading and writing; fail if it does not exist.
    Existing,
    /// Open an existing file read-only.
    ReadOnly,
}

/// One open file. Positioned I/O only, so a file can be shared between threads.
pub trait StorageFile: Send + Sync {
    /// Read exactly `buffer.len()` bytes at `offset`.
    fn read_at(&self, buffer: &mut [u8], offset: u64) -> io::Result<()>;
    /// Write all of `buffer` at `offset`, extending the file if needed.
    fn write_at(&self, buffer: &[u8], offset: u64) -> io::Result<()>;
    /// Make every earlier write durable (fdatasync).
    fn sync_data(&self) -> io::Result<()>;
    /// Write every earlier write back to the device and wait until the device has completed
    /// it (`sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)`), without a device cache flush:
    /// the data is durable only after a later `sync_data` of a file on the same
    /// [`StorageFile::shared_flush_device`]. The default is `sync_data` (always correct).
    fn write_back(&self) -> io::Result<()> {
        self.sync_data()
    }
    /// Start writing every earlier write back to the device and return without waiting
    /// (`sync_file_range(WRITE)`): a hint that lets the device work on this file while the
    /// caller prepares the next; it guarantees nothing (the default does nothing).
    fn start_write_back(&self) -> io::Result<()> {
        Ok(())
    }
    /// `Some(device)` when a `sync_data` of any file reporting the same device makes this
    /// file's written-back data durable: the file is on a local block device of a file system
    /// whose fdatasync ends with a device cache flush (ext4, xfs), and every byte of it is
    /// allocated and written (no hole, no unwritten extent), so overwriting it needs no
    /// metadata change that only this file's own fdatasync would commit. `None` otherwise (the
    /// default): only the file's own `sync_data` makes its writes durable.
    fn shared_flush_device(&self) -> io::Result<Option<u64>> {
        Ok(None)
    }
    /// Current length in bytes.
    fn len(&self) -> io::Result<u64>;
    /// True when the file holds no bytes.
    fn is_empty(&self) -> io::Result<bool> {
        Ok(self.len()? == 0)
    }
    /// Grow (zero-filled, space reserved where the platform can) or shrink the file.
    fn set_len(&self, length: u64) -> io::Result<()>;
    /// The path the file was opened with, for error messages.
    fn path(&self) -> &Path;
}

/// Directory operations and file opening.
pub trait FileSystem: Send + Sync {
    fn open(&self, path: &Path, mode: OpenMode) -> io::Result<Arc<dyn StorageFile>>;
    fn exists(&self, path: &Path) -> bool;
    fn create_dir_all(&self, path: &Path) -> io::Result<()>;
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Make creations, renames and removals in `directory` durable.
    fn sync_directory(&self, directory: &Path) -> io::Result<()>;
    /// File names (not paths) in `directory`, sorted.
    fn list_directory(&self, directory: &Path) -> io::Result<Vec<String>>;
    /// Which files this handle reaches: handles on the same files give the same value, so
    /// `(instance_id, canonical_path)` names one directory within the process. The real file
    /// system is one instance (0); a simulated one is its own, shared by its clones.
    fn instance_id(&self) -> usize {
        0
    }
    /// `path` as this file system names it uniquely (symbolic links and `..` resolved where the
    /// file system has them); `path` itself when it cannot be resolved.
    fn canonical_path(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
}

/// The real Linux file system.
#[derive(Debug, Default, Clone, Copy)]
pub struct RealFileSystem;

struct RealFile {
    file: File,
    path: PathBuf,
}

/// `sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)` over the whole file: its dirty pages are
/// written and the device has completed them, without a device cache flush
/// ([`StorageFile::write_back`]).
pub fn write_back(file: &std::fs::File) -> io::Result<()> {
    sync_file_range(
        file,
        libc::SYNC_FILE_RANGE_WAIT_BEFORE
            | libc::SYNC_FILE_RANGE_WRITE
            | libc::SYNC_FILE_RANGE_WAIT_AFTER,
    )
}

/// `sync_file_range(WRITE)` over the whole file: start writing its dirty pages, a hint
/// ([`StorageFile::start_write_back`]).
pub fn start_write_back(file: &std::fs::File) -> io::Result<()> {
    sync_file_range(file, libc::SYNC_FILE_RANGE_WRITE)
}

fn sync_file_range(file: &std::fs::File, flags: libc::c_uint) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: a valid descriptor; offset 0 and length 0 mean the whole file.
    let result = unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, flags) };
    if result == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

impl StorageFile for RealFile {
    fn read_at(&self, buffer: &mut [u8], offset: u64) -> io::Result<()> {
        self.file.read_exact_at(buffer, offset)
    }
    fn write_at(&self, buffer: &[u8], offset: u64) -> io::Result<()> {
        self.file.write_all_at(buffer, offset)
    }
    fn sync_data(&self) -> io::Result<()> {
        self.file.sync_data()
    }
    fn write_back(&self) -> io::Result<()> {
        write_back(&self.file)
    }
    fn start_write_back(&self) -> io::Result<()> {
        start_write_back(&self.file)
    }
    fn shared_flush_device(&self) -> io::Result<Option<u64>> {
        shared_flush::device_of(&self.file)
    }
    fn len(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len())
    }
    fn set_len(&self, length: u64) -> io::Result<()> {
        let current = self.len()?;
        if length > current {
            // Reserve the blocks so a later write cannot fail for lack of space.
            use std::os::unix::io::AsRawFd;
            let result = unsafe {
                libc::posix_fallocate(
                    self.file.as_raw_fd(),
                    current as libc::off_t,
                    (length - current) as libc::off_t,
                )
            };
            if result == 0 {
                return Ok(());
            }
            if result != libc::EOPNOTSUPP && result != libc::EINVAL {
                return Err(io::Error::from_raw_os_error(result));
            }
        }
        self.file.set_len(length)
    }
    fn path(&self) -> &Path {
        &self.path
    }
}

impl FileSystem for RealFileSystem {
    fn canonical_path(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    }
    fn open(&self, path: &Path, mode: OpenMode) -> io::Result<Arc<dyn StorageFile>> {
        let mut options = OpenOptions::new();
        match mode {
            OpenMode::CreateNew => options.read(true).write(true).create_new(true),
            OpenMode::Existing => options.read(true).write(true),
            OpenMode::ReadOnly => options.read(true),
        };
        let file = options.open(path)?;
        Ok(Arc::new(RealFile {
            file,
            path: path.to_path_buf(),
        }))
    }
    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        std::fs::create_dir_all(path)
    }
    fn remove_file(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }
    fn sync_directory(&self, directory: &Path) -> io::Result<()> {
        File::open(directory)?.sync_all()
    }
    fn list_directory(&self, directory: &Path) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(directory)? {
            let entry = entry?;
            if let Some(name) = entry.file_name().to_str() {
                names.push(name.to_string());
            }
        }
        names.sort();
        Ok(names)
    }
}
