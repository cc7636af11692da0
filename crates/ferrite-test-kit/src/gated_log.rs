//! The real file system with a gate on the active logs' syncs: a test holds the log's
//! `sync_data` (nothing becomes durable until it opens the gate again), sees when the log's
//! writer is held there, and can make the held syncs fail with `EIO`, as a failing disk does.
//! Every other operation, and every sync of other files, goes straight to the real file system.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use ferrite_storage::log::active::ACTIVE_DIRECTORY;
use ferrite_storage::vfs::{FileSystem, OpenMode, RealFileSystem, StorageFile};

/// A file system whose active log syncs wait while the gate is closed.
#[derive(Clone, Default)]
pub struct GatedLogFileSystem {
    gate: Arc<Gate>,
}

#[derive(Default)]
struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    closed: bool,
    /// Syncs waiting at the closed gate now.
    held: usize,
    /// Syncs of active logs that completed (passed the gate and synced).
    synced: u64,
    /// The syncs held when the gate opens fail with `EIO` (and sync nothing).
    fail_held: bool,
}

impl GatedLogFileSystem {
    /// The gate open: syncs go through.
    pub fn new() -> GatedLogFileSystem {
        GatedLogFileSystem::default()
    }

    /// This file system, as the queue manager takes it.
    pub fn shared(&self) -> Arc<dyn FileSystem> {
        Arc::new(self.clone())
    }

    /// From now on, active log syncs wait until [`GatedLogFileSystem::open`].
    pub fn close(&self) {
        self.gate.state.lock().unwrap().closed = true;
    }

    /// Lets the held syncs (and later ones) go through.
    pub fn open(&self) {
        self.gate.state.lock().unwrap().closed = false;
        self.gate.changed.notify_all();
    }

    /// Opens the gate making every sync held at it fail with `EIO` (later ones go through to
    /// the disk, which the log, once failed, no longer writes).
    pub fn open_failing(&self) {
        let mut state = self.gate.state.lock().unwrap();
        state.fail_held = true;
        state.closed = false;
        drop(state);
        self.gate.changed.notify_all();
    }

    /// Waits (at most `limit`) until a sync is held at the closed gate; returns whether one is.
    pub fn wait_until_held(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let mut state = self.gate.state.lock().unwrap();
        while state.held == 0 {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            state = self
                .gate
                .changed
                .wait_timeout(state, deadline - now)
                .unwrap()
                .0;
        }
        true
    }

    /// Active log syncs completed so far.
    pub fn synced(&self) -> u64 {
        self.gate.state.lock().unwrap().synced
    }

    /// Waits at the gate; `Err` when the held sync must fail.
    fn pass(&self) -> io::Result<()> {
        let mut state = self.gate.state.lock().unwrap();
        if !state.closed {
            return Ok(());
        }
        state.held += 1;
        self.gate.changed.notify_all();
        while state.closed {
            state = self.gate.changed.wait(state).unwrap();
        }
        state.held -= 1;
        if state.fail_held {
            if state.held == 0 {
                state.fail_held = false;
            }
            return Err(io::Error::from_raw_os_error(libc::EIO));
        }
        Ok(())
    }
}

fn is_active_log(path: &Path) -> bool {
    path.parent()
        .and_then(Path::file_name)
        .is_some_and(|name| name == ACTIVE_DIRECTORY)
}

impl FileSystem for GatedLogFileSystem {
    fn open(&self, path: &Path, mode: OpenMode) -> io::Result<Arc<dyn StorageFile>> {
        let file = RealFileSystem.open(path, mode)?;
        if !is_active_log(path) {
            return Ok(file);
        }
        Ok(Arc::new(GatedFile {
            file,
            gate: self.clone(),
            path: path.to_path_buf(),
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

    fn canonical_path(&self, path: &Path) -> PathBuf {
        RealFileSystem.canonical_path(path)
    }
}

/// An active log file: its syncs pass the gate first.
struct GatedFile {
    file: Arc<dyn StorageFile>,
    gate: GatedLogFileSystem,
    path: PathBuf,
}

impl StorageFile for GatedFile {
    fn read_at(&self, buffer: &mut [u8], offset: u64) -> io::Result<()> {
        self.file.read_at(buffer, offset)
    }

    fn write_at(&self, buffer: &[u8], offset: u64) -> io::Result<()> {
        self.file.write_at(buffer, offset)
    }

    fn sync_data(&self) -> io::Result<()> {
        self.gate.pass()?;
        self.file.sync_data()?;
        self.gate.gate.state.lock().unwrap().synced += 1;
        Ok(())
    }

    fn len(&self) -> io::Result<u64> {
        self.file.len()
    }

    fn set_len(&self, length: u64) -> io::Result<()> {
        self.file.set_len(length)
    }

    fn path(&self) -> &Path {
        &self.path
    }
}
