//! One queue manager instance per data directory per process.
//!
//! Between processes the `ferrite` command's directory lock keeps a second queue manager out.
//! Within one process nothing did: an embedder (or a test) that drops its `Arc<QueueManager>`
//! and opens the directory again could start the new instance while the old one was still
//! dropping on another thread (the checkpoint task holds a strong reference while it runs a
//! checkpoint, so the last reference, and with it the log manager's shutdown that writes the
//! BSDS, can go there), and both then worked on the same files.
//!
//! `QueueManager::open` claims its directory here first; the claim is the queue manager's last
//! field, so it is released only when the log manager, the buffer pools and the page sets have
//! dropped (and joined their threads). A second open of a claimed directory waits for the claim
//! to go, up to [`DIRECTORY_RELEASE_WAIT_SECONDS`], then fails with MQRC_Q_MGR_NOT_AVAILABLE.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ferrite_constants::reason;
use ferrite_storage::error::{StorageError, StorageResult};
use ferrite_storage::vfs::FileSystem;

/// How long an open waits, in seconds, for an instance of the same queue manager that is
/// dropping in this process to finish before it gives up.
pub const DIRECTORY_RELEASE_WAIT_SECONDS: u64 = 30;

/// A directory: which file system (`FileSystem::instance_id`) and its canonical path there.
type DirectoryKey = (usize, PathBuf);

struct Claims {
    held: Mutex<BTreeSet<DirectoryKey>>,
    released: Condvar,
}

static CLAIMS: Claims = Claims {
    held: Mutex::new(BTreeSet::new()),
    released: Condvar::new(),
};

fn held() -> MutexGuard<'static, BTreeSet<DirectoryKey>> {
    // The set is consistent whatever panicked while it was held (insert and remove are single
    // steps), so a poisoned lock is used as it is.
    CLAIMS
        .held
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A queue manager directory claimed by one instance in this process; released on drop.
pub(crate) struct DirectoryClaim {
    key: DirectoryKey,
}

impl DirectoryClaim {
    /// Claim `directory` on `fs` for queue manager `name`, waiting up to `wait` for an instance
    /// still holding it to finish dropping.
    pub(crate) fn acquire(
        fs: &dyn FileSystem,
        directory: &Path,
        name: &str,
        wait: Duration,
    ) -> StorageResult<DirectoryClaim> {
        let key = (fs.instance_id(), fs.canonical_path(directory));
        let deadline = Instant::now() + wait;
        let mut held = held();
        while held.contains(&key) {
            #[cfg(test)]
            tests::WAITERS.lock().unwrap().push(key.clone());
            let now = Instant::now();
            if now >= deadline {
                return Err(StorageError::mq(
                    reason::MQRC_Q_MGR_NOT_AVAILABLE,
                    format!(
                        "queue manager {name} is already open in this process ({}); it was not \
                         released within {} ms",
                        directory.display(),
                        wait.as_millis()
                    ),
                ));
            }
            held = CLAIMS
                .released
                .wait_timeout(held, deadline - now)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        held.insert(key.clone());
        Ok(DirectoryClaim { key })
    }
}

impl Drop for DirectoryClaim {
    fn drop(&mut self) {
        held().remove(&self.key);
        CLAIMS.released.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};

    use ferrite_storage::config::QueueManagerConfig;
    use ferrite_storage::vfs::simulated::SimulatedFileSystem;

    use super::*;
    use crate::queue_manager::{MessageSink, QueueManager};

    /// The directories an open has found held and begun to wait for.
    pub(super) static WAITERS: Mutex<Vec<DirectoryKey>> = Mutex::new(Vec::new());

    const DIRECTORY: &str = "/qm/CLAIMQM";

    fn created() -> Arc<dyn FileSystem> {
        let fs: Arc<dyn FileSystem> = Arc::new(SimulatedFileSystem::new(7));
        QueueManager::create(
            fs.clone(),
            Path::new(DIRECTORY),
            &QueueManagerConfig::small("CLAIMQM"),
            &mut |_, _, _| {},
        )
        .unwrap();
        fs
    }

    fn quiet() -> MessageSink {
        Arc::new(|_: &str| {})
    }

    /// The old instance's last reference is another thread's (as the checkpoint task's can be):
    /// a reopen waits until that thread has dropped it, and does not fail or race it.
    #[test]
    fn a_reopen_waits_for_the_last_reference_elsewhere_to_drop() {
        let fs = created();
        let key = (fs.instance_id(), PathBuf::from(DIRECTORY));
        let first = QueueManager::open(fs.clone(), Path::new(DIRECTORY), quiet()).unwrap();
        let releasing = Arc::new(AtomicBool::new(false));
        let (go, wait_for_go) = mpsc::channel::<()>();
        let holder = {
            let (reference, releasing) = (first.clone(), releasing.clone());
            std::thread::spawn(move || {
                wait_for_go.recv().unwrap();
                releasing.store(true, Ordering::Release);
                drop(reference);
            })
        };
        drop(first);
        let reopen = {
            let (fs, releasing) = (fs.clone(), releasing.clone());
            std::thread::spawn(move || {
                let opened = QueueManager::open(fs, Path::new(DIRECTORY), quiet());
                (opened, releasing.load(Ordering::Acquire))
            })
        };
        // Let the holder drop only once the reopen has found the directory held (or has
        // returned, which is the bug).
        while !reopen.is_finished() && !WAITERS.lock().unwrap().contains(&key) {
            std::thread::yield_now();
        }
        go.send(()).unwrap();
        let (second, released_before) = reopen.join().unwrap();
        let second = second.unwrap();
        assert!(
            released_before,
            "the reopen returned while the old instance's last reference was still held"
        );
        holder.join().unwrap();
        drop(second);
    }

    /// A second open while the first instance is kept alive fails with a clear reason after the
    /// wait, and the first instance is unharmed.
    #[test]
    fn a_second_open_of_a_live_instance_fails_after_the_wait() {
        let fs = created();
        let first = QueueManager::open(fs.clone(), Path::new(DIRECTORY), quiet()).unwrap();
        let error = QueueManager::open_within(
            fs.clone(),
            Path::new(DIRECTORY),
            quiet(),
            Duration::from_millis(50),
        )
        .err()
        .expect("a second instance of a live queue manager must not open");
        assert_eq!(error.reason_code(), reason::MQRC_Q_MGR_NOT_AVAILABLE);
        assert!(
            error
                .to_string()
                .contains("queue manager CLAIMQM is already open in this process"),
            "{error}"
        );
        first.checkpoint().unwrap();
        drop(first);
        QueueManager::open(fs, Path::new(DIRECTORY), quiet()).unwrap();
    }

    /// Another simulated file system's directory of the same name is another directory.
    #[test]
    fn the_same_path_on_another_file_system_is_not_held() {
        let (one, other) = (created(), created());
        let _first = QueueManager::open(one, Path::new(DIRECTORY), quiet()).unwrap();
        QueueManager::open_within(other, Path::new(DIRECTORY), quiet(), Duration::ZERO).unwrap();
    }
}
