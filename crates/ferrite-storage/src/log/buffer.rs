//! The log output buffer: OUTBUFF KiB of memory as a ring of 4 KiB log pages.
//!
//! Log byte RBA `r` lives at offset `r mod capacity` of the ring, so a log page sits in one ring
//! page and a record is copied in at most two pieces. The buffer is allocated once, when the log
//! manager starts; appends never allocate.
//!
//! Sharing discipline (what makes the `unsafe` sound): the live bytes are the RBA range
//! `[page_floor(written), filled)`, never more than `capacity` bytes (appenders wait for space).
//! `written` is where the log's writers have handed every copy its bytes (`LogShared::written`,
//! moved before the I/O's sync: the bytes are then in the files, and readers read the files).
//! - Appenders, serialised by the append lock, write only bytes at RBAs `>= filled`, then publish
//!   the new `filled` with a release store.
//! - The writer (and copy 2's writer) reads only bytes at RBAs `< filled` (acquire load), at or
//!   above `page_floor(written)`, and only until it advances `written` past them, after which
//!   appenders may reuse the space. The page holding `written` stays live: the next I/O starts
//!   there.
//!
//! So no byte is read and written at the same time. The ring is accessed through a raw pointer
//! so no reference ever covers bytes another thread is touching.

use std::ptr;

use super::LOG_PAGE_BYTES;

pub(crate) struct LogBuffer {
    base: *mut u8,
    capacity: usize,
}

// SAFETY: see the sharing discipline in the module documentation; the pointer is owned.
unsafe impl Send for LogBuffer {}
unsafe impl Sync for LogBuffer {}

impl LogBuffer {
    pub fn new(pages: usize) -> LogBuffer {
        assert!(pages >= 2, "the log buffer needs at least two pages");
        let capacity = pages * LOG_PAGE_BYTES;
        let boxed: Box<[u8]> = vec![0u8; capacity].into_boxed_slice();
        let base = Box::into_raw(boxed) as *mut u8;
        LogBuffer { base, capacity }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Copy `data` into the ring at log position `rba`.
    ///
    /// # Safety
    /// The caller holds the append lock and `[rba, rba + len)` is free space (at or above
    /// `filled`, below `page_floor(written) + capacity`).
    pub unsafe fn write(&self, rba: u64, data: &[u8]) {
        debug_assert!(data.len() <= self.capacity);
        let start = (rba % self.capacity as u64) as usize;
        let first = data.len().min(self.capacity - start);
        ptr::copy_nonoverlapping(data.as_ptr(), self.base.add(start), first);
        if first < data.len() {
            ptr::copy_nonoverlapping(data.as_ptr().add(first), self.base, data.len() - first);
        }
    }

    /// Log bytes `[rba, rba + length)` in place in the ring, as one slice or, where the ring
    /// wraps, two (the second empty otherwise): the log writers write them to the files from
    /// here, without a copy.
    ///
    /// # Safety
    /// The range is live (below `filled`, at or above `page_floor(written)`), and stays so while
    /// the slices are used: no appender writes those bytes until `written` passes them.
    pub unsafe fn slices(&self, rba: u64, length: usize) -> (&[u8], &[u8]) {
        debug_assert!(length <= self.capacity);
        let start = (rba % self.capacity as u64) as usize;
        let first = length.min(self.capacity - start);
        (
            std::slice::from_raw_parts(self.base.add(start), first),
            std::slice::from_raw_parts(self.base, length - first),
        )
    }

    /// Copy log bytes `[rba, rba + out.len())` out of the ring.
    ///
    /// # Safety
    /// The range is live (below `filled`, at or above `page_floor(written)`), and stays so until
    /// this returns.
    pub unsafe fn read(&self, rba: u64, out: &mut [u8]) {
        debug_assert!(out.len() <= self.capacity);
        let start = (rba % self.capacity as u64) as usize;
        let first = out.len().min(self.capacity - start);
        ptr::copy_nonoverlapping(self.base.add(start), out.as_mut_ptr(), first);
        if first < out.len() {
            ptr::copy_nonoverlapping(self.base, out.as_mut_ptr().add(first), out.len() - first);
        }
    }
}

impl Drop for LogBuffer {
    fn drop(&mut self) {
        // SAFETY: `base` came from `Box::into_raw` of a slice of `capacity` bytes.
        unsafe {
            drop(Box::from_raw(ptr::slice_from_raw_parts_mut(
                self.base,
                self.capacity,
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_wrap_around_the_ring() {
        let buffer = LogBuffer::new(2);
        let data: Vec<u8> = (0..3000u32).map(|i| i as u8).collect();
        unsafe { buffer.write(3 * 4096 + 2000, &data) };
        let mut out = vec![0u8; 3000];
        unsafe { buffer.read(3 * 4096 + 2000, &mut out) };
        assert_eq!(out, data);
        let (first, second) = unsafe { buffer.slices(3 * 4096 + 2000, 3000) };
        assert_eq!((first.len(), second.len()), (2096, 904));
        assert_eq!([first, second].concat(), data);
    }
}
