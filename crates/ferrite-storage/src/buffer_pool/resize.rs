//! ALTER BUFFPOOL BUFFERS(n) on a running pool: buffers are added or taken away until the pool
//! has `n`, as IBM MQ for z/OS does (its ALTER BUFFPOOL usage notes), without stopping the page
//! sets the pool serves.
//!
//! ## Growing
//! The chunks the new frames live in are allocated (`frame_table.rs`), the frames join the
//! scans, each becomes unused through the pool's counted transition (so the stealable count,
//! which drives every threshold, rises with them), and only then does the size the steal
//! clock and the thresholds use (`buffers`) move. Nothing on the get/release path waits.
//!
//! ## Shrinking
//! 1. The size moves first: from then on the steal clock hands out frames below the new size
//!    only, and the thresholds are shares of it.
//! 2. The frames given up are emptied without losing a change:
//!    - changed and not in use: written as the deferred write process writes (batched, the
//!      write-ahead rule, the double-write protocol), which makes them unchanged;
//!    - unchanged and not in use (or unused): claimed `RESERVED` and taken out of the page
//!      table, as a steal does, and kept `RESERVED` so that nothing can use them again;
//!    - in use, or being loaded or written: left for the next pass. The resizing thread
//!      (the command's) waits, never a getter or putter: a page in a frame being given up is
//!      still found and pinned as usual until its frame is claimed, and a frame a getter
//!      loads into meanwhile is simply emptied on a later pass.
//! 3. Passes repeat every [`STEAL_RETRY_PAUSE`] for at most [`SHRINK_WAIT_MAX`]. If some frame
//!    stays in use that long, or a page cannot be written (it stays changed: the deferred
//!    write process and checkpoints retry it), the shrink is undone (the frames claimed become
//!    unused again, the size goes back) and the command fails, changing nothing.
//! 4. Once every frame given up is claimed, scans stop covering them and their page memory
//!    goes back to the operating system.
//!
//! A crash at any point of a shrink loses nothing: it only ever writes changed pages through
//! the normal write path (log forced first, double-write protocol) and drops unchanged ones,
//! and the size itself lives in memory (qm.toml holds the size restart uses).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::frame::{is_stealable, NO_RECOVERY_RBA, RESERVED};
use super::{lock, BufferPool, PoolShared, STEAL_RETRY_PAUSE};
use crate::config::PageClass;
use crate::error::{StorageError, StorageResult};

/// A fixed pool that cannot lock all the buffers a grow adds locks them in steps of this many
/// (1 MiB of page bytes), and adds as many as it could lock.
const FIXED_GROW_STEP_FRAMES: usize = 256;

/// The longest a shrink waits for the frames it gives up to leave use before it is undone.
pub const SHRINK_WAIT_MAX: Duration = Duration::from_secs(30);

/// What a resize did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResizeOutcome {
    /// Buffers before.
    pub buffers_before: u32,
    /// Buffers now.
    pub buffers: u32,
    /// Changed pages a shrink wrote to empty the frames it gave up.
    pub pages_written: u64,
}

impl BufferPool {
    /// The pool's size now (QPSTNBUF).
    pub fn buffers(&self) -> u32 {
        self.shared.frame_count() as u32
    }

    /// ALTER BUFFPOOL BUFFERS(`buffers`): grow or shrink the running pool (see the module
    /// docs). Fails, leaving the pool as it was, when `buffers` is 0 or beyond the pool's
    /// capacity ([`super::BUFFERS_MAX`]), or when a shrink cannot empty the frames it gives up
    /// within [`SHRINK_WAIT_MAX`].
    pub fn resize(&self, buffers: u32) -> StorageResult<ResizeOutcome> {
        self.shared.resize(buffers as usize)
    }

    /// The pool's page class (PAGECLAS).
    pub fn page_class(&self) -> PageClass {
        if self.shared.fixed.load(Ordering::Acquire) {
            PageClass::Fixed
        } else {
            PageClass::Pageable
        }
    }

    /// PAGECLAS(`class`) on the running pool: FIXED4KB locks every buffer's page bytes in
    /// memory (faulting them in), 4KB unlocks them. Fails, leaving the pool pageable, when
    /// the operating system refuses to lock them all (RLIMIT_MEMLOCK without CAP_IPC_LOCK,
    /// or not enough memory).
    pub fn set_page_class(&self, class: PageClass) -> StorageResult<()> {
        let shared = &self.shared;
        let _resizing = lock(&shared.resize_lock);
        if class == self.page_class() {
            return Ok(());
        }
        let frames = 0..shared.frames.len();
        match class {
            PageClass::Fixed => {
                shared.frames.lock_page_memory(frames).map_err(|error| {
                    StorageError::invalid(format!(
                        "buffer pool {} cannot be PAGECLAS(FIXED4KB): locking its {} buffers \
                         ({} MiB) in memory failed: {error} (raise RLIMIT_MEMLOCK, e.g. \
                         LimitMEMLOCK= or `ulimit -l`, or grant CAP_IPC_LOCK); it stays 4KB",
                        shared.id,
                        shared.frames.len(),
                        (shared.frames.len() * crate::page::PAGE_SIZE) >> 20
                    ))
                })?;
                shared.fixed.store(true, Ordering::Release);
            }
            PageClass::Pageable => {
                shared.fixed.store(false, Ordering::Release);
                shared.frames.unlock_page_memory(frames);
            }
        }
        Ok(())
    }
}

impl PoolShared {
    fn resize(&self, target: usize) -> StorageResult<ResizeOutcome> {
        if target == 0 || target > self.frames.capacity() {
            return Err(StorageError::invalid(format!(
                "buffer pool {} cannot have {target} buffers: 1 to {} are possible",
                self.id,
                self.frames.capacity()
            )));
        }
        let _resizing = lock(&self.resize_lock);
        let current = self.frame_count() as usize;
        let mut reached = target;
        let pages_written = if target > current {
            reached = self.grow(current, target)?;
            0
        } else if target < current {
            self.shrink(current, target)?
        } else {
            0
        };
        debug_assert_eq!(self.frame_count() as usize, reached);
        debug_assert_eq!(self.frames.len(), reached);
        Ok(ResizeOutcome {
            buffers_before: current as u32,
            buffers: reached as u32,
            pages_written,
        })
    }

    /// Grow from `from` to `to` buffers. A fixed pool adds as many as it can lock in memory,
    /// as MQ adds "as many as possible" when fixed storage runs short; it fails, changing
    /// nothing, when it cannot lock even one step. Returns the size reached.
    fn grow(&self, from: usize, to: usize) -> StorageResult<usize> {
        debug_assert_eq!(self.frames.len(), from, "no shrink is half done");
        self.frames.allocate_through(to);
        let to = if self.fixed.load(Ordering::Acquire) {
            let mut locked = from;
            while locked < to {
                let step = (to - locked).min(FIXED_GROW_STEP_FRAMES);
                if let Err(error) = self.frames.lock_page_memory(locked..locked + step) {
                    if locked == from {
                        return Err(StorageError::invalid(format!(
                            "buffer pool {} (PAGECLAS(FIXED4KB)) was not grown from {from} \
                             buffers: locking the new buffers in memory failed: {error}",
                            self.id
                        )));
                    }
                    break;
                }
                locked += step;
            }
            locked
        } else {
            to
        };
        {
            let mut writer = lock(&self.batch_writer);
            if writer.smaller_than_for(to) {
                *writer = super::BatchWriter::new(to);
            }
        }
        // Scans may see the new frames before they are free: they are RESERVED with no key.
        self.frames.set_len(to);
        self.free_frames(from..to);
        self.buffers.store(to, Ordering::Release);
        Ok(to)
    }

    /// Frames `range`, `RESERVED` with no key, become unused members of the pool.
    fn free_frames(&self, range: std::ops::Range<usize>) {
        for index in range {
            let frame = self.frames.frame(index);
            debug_assert_eq!(frame.key.load(Ordering::Acquire), super::NO_KEY);
            frame.referenced.store(false, Ordering::Relaxed);
            frame.nonpersistent.store(false, Ordering::Relaxed);
            frame.recovery_rba.store(NO_RECOVERY_RBA, Ordering::Relaxed);
            self.transition(index, |state| {
                assert_eq!(
                    state, RESERVED,
                    "frame {index} freed while someone holds it"
                );
                Some(0)
            })
            .expect("free a reserved frame");
        }
    }

    fn shrink(&self, from: usize, to: usize) -> StorageResult<u64> {
        self.buffers.store(to, Ordering::Release);
        let deadline = Instant::now() + SHRINK_WAIT_MAX;
        let mut pending: Vec<usize> = (to..from).collect();
        let mut claimed = vec![false; from - to];
        let mut written = 0;
        loop {
            match self.write_changed_frames_in(to..from) {
                Ok(pages) => written += pages,
                Err(error) => {
                    self.record_write_error(&error);
                    self.undo_shrink(from, to, &claimed);
                    return Err(StorageError::invalid(format!(
                        "buffer pool {} was not reduced from {from} to {to} buffers: a changed \
                         page could not be written ({error}); it still has {from} buffers and \
                         the page stays changed",
                        self.id
                    )));
                }
            }
            pending.retain(|&index| {
                let taken = self.claim_given_up_frame(index);
                claimed[index - to] |= taken;
                !taken
            });
            if pending.is_empty() {
                break;
            }
            if Instant::now() >= deadline {
                self.undo_shrink(from, to, &claimed);
                return Err(StorageError::invalid(format!(
                    "buffer pool {} was not reduced from {from} to {to} buffers: {} of the \
                     buffers given up stayed in use for {} s; it still has {from} buffers; try \
                     again when the pool is less busy",
                    self.id,
                    pending.len(),
                    SHRINK_WAIT_MAX.as_secs()
                )));
            }
            std::thread::sleep(STEAL_RETRY_PAUSE);
        }
        self.frames.set_len(to);
        self.frames.release_page_memory(to..from);
        self.check_deferred_write_thresholds();
        Ok(written)
    }

    /// A shrink from `from` to `to` that cannot finish: the frames it claimed become unused
    /// again and the size goes back.
    fn undo_shrink(&self, from: usize, to: usize, claimed: &[bool]) {
        for index in (to..from).filter(|index| claimed[index - to]) {
            self.free_frames(index..index + 1);
        }
        self.buffers.store(from, Ordering::Release);
    }

    /// Claim a frame being given up if it is stealable (unused, or unchanged and not in use):
    /// it becomes `RESERVED` with no key, for good.
    fn claim_given_up_frame(&self, index: usize) -> bool {
        if self
            .transition(index, |state| is_stealable(state).then_some(RESERVED))
            .is_err()
        {
            return false;
        }
        self.unmap_reserved(index);
        let frame = self.frames.frame(index);
        frame.referenced.store(false, Ordering::Relaxed);
        frame.recovery_rba.store(NO_RECOVERY_RBA, Ordering::Relaxed);
        frame.nonpersistent.store(false, Ordering::Relaxed);
        true
    }
}
