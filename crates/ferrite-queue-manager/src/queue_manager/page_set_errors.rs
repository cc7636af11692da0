//! What the queue manager does when a page set write or sync fails (MQ: CSQP004E).
//!
//! A failed page write never loses a committed message: the log already holds every change on
//! the page (the write-ahead rule forced it before the write), the buffer keeps the page
//! changed, and its recovery RBA keeps holding back the page set's media recovery RBA, so a
//! restart redoes it. The page is written again by the next deferred write, synchronous write
//! or checkpoint, from the buffer (never from the kernel's page cache, whose pages a failed
//! fsync may have dropped or marked clean).
//!
//! So the queue manager **continues** after a page set I/O error, reporting each one (at most
//! one message per [`PAGE_SET_ERROR_REPORT_INTERVAL_MS`], with the count of those not
//! reported), and **retries**. A failure that persists is bounded: after
//! [`PAGE_SET_FAILED_CHECKPOINTS_MAX`] consecutive checkpoints whose page writes failed, it
//! **stops accepting work** (as MQ terminates after CSQP004E): nothing more is acknowledged,
//! and a restart recovers every committed message from the log.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_storage::error::StorageError;
use ferrite_storage::types::BufferPoolId;

/// Shortest time between two CSQP004E messages (the others are counted, and the count is given
/// in the next message).
pub const PAGE_SET_ERROR_REPORT_INTERVAL_MS: u64 = 1000;
/// Consecutive checkpoints that may fail to write their pages before the queue manager stops
/// accepting work.
pub const PAGE_SET_FAILED_CHECKPOINTS_MAX: u64 = 3;

/// Reports page set write errors as MQ's CSQP004E, rate-limited.
pub(crate) struct PageSetErrorReporter {
    name: String,
    messages: Arc<dyn Fn(&str) + Send + Sync>,
    last_report: Mutex<Option<Instant>>,
    /// Errors not reported since the last message.
    unreported: AtomicU64,
    /// Every error reported or not, since start.
    total: AtomicU64,
}

impl PageSetErrorReporter {
    pub fn new(name: &str, messages: Arc<dyn Fn(&str) + Send + Sync>) -> PageSetErrorReporter {
        PageSetErrorReporter {
            name: name.to_string(),
            messages,
            last_report: Mutex::new(None),
            unreported: AtomicU64::new(0),
            total: AtomicU64::new(0),
        }
    }

    /// A write of buffer pool `pool`'s pages failed with `error`.
    pub fn report(&self, pool: BufferPoolId, error: &StorageError) {
        self.total.fetch_add(1, Ordering::Relaxed);
        let now = Instant::now();
        {
            let mut last = self.last_report.lock().unwrap();
            let due = match *last {
                None => true,
                Some(at) => {
                    now.duration_since(at)
                        >= Duration::from_millis(PAGE_SET_ERROR_REPORT_INTERVAL_MS)
                }
            };
            if !due {
                self.unreported.fetch_add(1, Ordering::Relaxed);
                return;
            }
            *last = Some(now);
        }
        let unreported = self.unreported.swap(0, Ordering::Relaxed);
        let also = if unreported > 0 {
            format!(" ({unreported} more since the last report)")
        } else {
            String::new()
        };
        (self.messages)(&format!(
            "CSQP004E {} CSQP1DWP I/O ERROR, BUFFER POOL {}: {error}{also}; the pages stay changed \
             in the buffer pool and are written again; the log holds every committed change",
            self.name, pool.0
        ));
    }

    /// Page write errors met since the queue manager started.
    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_rate_limited_and_count_the_rest() {
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = lines.clone();
        let reporter = PageSetErrorReporter::new(
            "QM1",
            Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
        );
        let error = StorageError::io(
            "/qm/pagesets/PSID01.pageset",
            "sync page set",
            std::io::Error::other("EIO"),
        );
        for _ in 0..5 {
            reporter.report(BufferPoolId(1), &error);
        }
        assert_eq!(reporter.total(), 5);
        assert_eq!(lines.lock().unwrap().len(), 1);
        *reporter.last_report.lock().unwrap() =
            Some(Instant::now() - Duration::from_millis(PAGE_SET_ERROR_REPORT_INTERVAL_MS + 1));
        reporter.report(BufferPoolId(1), &error);
        let lines = lines.lock().unwrap();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("CSQP004E QM1 "), "{}", lines[0]);
        assert!(lines[0].contains("PSID01.pageset"), "{}", lines[0]);
        assert!(
            lines[1].contains("(4 more since the last report)"),
            "{}",
            lines[1]
        );
    }
}
