//! The frames of a pool and their page bytes, in chunks that are never moved, so that a
//! running pool can grow (ALTER BUFFPOOL BUFFERS, see `resize.rs`) while other threads hold
//! references to its frames.
//!
//! ## Layout
//! Frame `i` lives in chunk `i / FRAMES_PER_CHUNK` at slot `i % FRAMES_PER_CHUNK`. The chunk
//! directory has room for [`BUFFERS_MAX`] frames (or the pool's first size, if larger: qm.toml
//! may define one) and is allocated with the pool (16 bytes per chunk: under 16 KiB); each chunk (1,024 control blocks and 4 MiB of page bytes) is
//! allocated the first time the pool grows into it and freed only with the pool. A chunk's page
//! bytes are an anonymous private mapping of their own (page-aligned, zero until written), so
//! the operating system commits them only as buffers are first used, whatever the pool's size,
//! and [`FrameTable::release_page_memory`] gives them back after a shrink.
//!
//! A lookup is a shift, a mask, one load of the chunk pointer and the index: the get/release
//! path takes no lock for it.
//!
//! ## Frames beyond the pool's size
//! A frame that is not part of the pool (allocated in a chunk but beyond the size, or given
//! up by a shrink) is kept `RESERVED` with no key, so no steal, write or discard can claim it;
//! growing frees it (`RESERVED` -> unused) through the pool's counted transition.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use std::ptr::NonNull;

use super::frame::{Frame, PageCell, RESERVED};
use crate::page::PAGE_SIZE;

/// The most buffers one pool may have, at definition or after ALTER BUFFPOOL (MQ for z/OS
/// accepts up to 999,999 buffers for LOCATION(BELOW) pools; Ferrite takes that as its limit).
pub const BUFFERS_MAX: u32 = 999_999;

/// log2 of the frames per chunk.
const FRAMES_PER_CHUNK_SHIFT: u32 = 10;
/// Frames per chunk: 1,024 buffers, 4 MiB of page bytes.
pub(super) const FRAMES_PER_CHUNK: usize = 1 << FRAMES_PER_CHUNK_SHIFT;

struct Chunk {
    frames: Box<[Frame]>,
    pages: ChunkPages,
}

/// The page bytes of one chunk: [`FRAMES_PER_CHUNK`] pages in an anonymous mapping, unmapped
/// when the chunk goes.
struct ChunkPages {
    start: NonNull<PageCell>,
}

// SAFETY: the mapping is owned by this value alone; access to each cell is governed by its
// frame's latch (`PageCell` is `Sync` for that reason).
unsafe impl Send for ChunkPages {}
// SAFETY: as above.
unsafe impl Sync for ChunkPages {}

const CHUNK_PAGE_BYTES: usize = FRAMES_PER_CHUNK * PAGE_SIZE;

impl ChunkPages {
    fn new() -> ChunkPages {
        // SAFETY: a fresh anonymous private mapping; no existing memory is affected.
        let address = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                CHUNK_PAGE_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if address == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::from_size_align(CHUNK_PAGE_BYTES, PAGE_SIZE)
                    .expect("a valid layout"),
            );
        }
        ChunkPages {
            start: NonNull::new(address.cast::<PageCell>()).expect("mmap succeeded"),
        }
    }

    fn cells(&self) -> &[PageCell] {
        // SAFETY: the mapping holds FRAMES_PER_CHUNK zero-initialised (all-zero is a valid
        // `PageCell`) page-aligned cells and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), FRAMES_PER_CHUNK) }
    }
}

impl Drop for ChunkPages {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, of that size; no reference to it outlives `self`.
        unsafe {
            libc::munmap(self.start.as_ptr().cast(), CHUNK_PAGE_BYTES);
        }
    }
}

/// The frames of one pool (see the module docs).
pub(super) struct FrameTable {
    chunks: Box<[OnceLock<Box<Chunk>>]>,
    /// Frames that may hold a page: every scan of the pool covers `0..len`. Grows before new
    /// frames join the pool and shrinks only once the frames given up are empty.
    len: AtomicUsize,
}

impl FrameTable {
    /// A table of `count` frames, all unused.
    pub fn new(count: usize) -> FrameTable {
        assert!(count >= 1, "a buffer pool has at least one buffer");
        let capacity = count.max(BUFFERS_MAX as usize);
        let table = FrameTable {
            chunks: (0..capacity.div_ceil(FRAMES_PER_CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            len: AtomicUsize::new(0),
        };
        table.allocate_through(count);
        for index in 0..count {
            // Not yet shared: the pool starts with these frames unused.
            table.frame(index).state.store(0, Ordering::Relaxed);
        }
        table.len.store(count, Ordering::Release);
        table
    }

    /// The frames every scan covers.
    #[inline]
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    pub fn set_len(&self, len: usize) {
        debug_assert!(len <= self.allocated());
        self.len.store(len, Ordering::Release);
    }

    /// Frames whose chunk exists.
    pub fn allocated(&self) -> usize {
        self.chunks
            .iter()
            .take_while(|chunk| chunk.get().is_some())
            .count()
            * FRAMES_PER_CHUNK
    }

    /// The most frames this table can hold.
    pub fn capacity(&self) -> usize {
        self.chunks.len() * FRAMES_PER_CHUNK
    }

    /// Allocate the chunks frames `0..count` live in. New frames are `RESERVED` (not part of
    /// the pool) until the pool takes them.
    pub fn allocate_through(&self, count: usize) {
        assert!(
            count <= self.capacity(),
            "{count} buffers exceed the pool's capacity of {}",
            self.capacity()
        );
        for chunk in 0..count.div_ceil(FRAMES_PER_CHUNK) {
            self.chunks[chunk].get_or_init(|| {
                let frames: Box<[Frame]> = (0..FRAMES_PER_CHUNK)
                    .map(|_| {
                        let frame = Frame::new();
                        frame.state.store(RESERVED, Ordering::Relaxed);
                        frame
                    })
                    .collect();
                Box::new(Chunk {
                    frames,
                    pages: ChunkPages::new(),
                })
            });
        }
    }

    #[inline]
    fn chunk(&self, index: usize) -> &Chunk {
        self.chunks[index >> FRAMES_PER_CHUNK_SHIFT]
            .get()
            .expect("frame index within the allocated chunks")
    }

    #[inline]
    pub fn frame(&self, index: usize) -> &Frame {
        &self.chunk(index).frames[index & (FRAMES_PER_CHUNK - 1)]
    }

    #[inline]
    pub fn page(&self, index: usize) -> &PageCell {
        &self.chunk(index).pages.cells()[index & (FRAMES_PER_CHUNK - 1)]
    }

    /// The frames `0..len()` with their indexes.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Frame)> {
        (0..self.len()).map(|index| (index, self.frame(index)))
    }

    /// Give the memory of the page bytes of frames `range` back to the operating system
    /// (unlocking it first if the pool's buffers are fixed).
    /// Contract: those frames are `RESERVED` with no key (nobody reads or writes their bytes);
    /// they read as zeros afterwards, and a frame is always filled before it is used.
    pub fn release_page_memory(&self, range: std::ops::Range<usize>) {
        self.unlock_page_memory(range.clone());
        self.each_page_range(range, |start, length| {
            // SAFETY: the range lies inside one chunk's mapping and is whole operating-system
            // pages; by the contract nobody uses these bytes, and an anonymous private mapping
            // reads as zeros after MADV_DONTNEED.
            unsafe { libc::madvise(start.cast(), length, libc::MADV_DONTNEED) };
            Ok(())
        })
        .expect("madvise is not checked");
    }

    /// Lock the page bytes of frames `range` in memory (`mlock`: PAGECLAS(FIXED4KB)), which
    /// also faults them in. On failure (RLIMIT_MEMLOCK, no memory) nothing of `range` stays
    /// locked and the error is returned.
    pub fn lock_page_memory(&self, range: std::ops::Range<usize>) -> std::io::Result<()> {
        let result = self.each_page_range(range.clone(), |start, length| {
            // SAFETY: the range lies inside one chunk's live mapping; locking changes no byte.
            if unsafe { libc::mlock(start.cast_const().cast(), length) } == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
        if result.is_err() {
            self.unlock_page_memory(range);
        }
        result
    }

    /// Unlock the page bytes of frames `range` (pageable again). Unlocking memory that is not
    /// locked does nothing.
    pub fn unlock_page_memory(&self, range: std::ops::Range<usize>) {
        self.each_page_range(range, |start, length| {
            // SAFETY: the range lies inside one chunk's live mapping; unlocking changes no byte.
            unsafe { libc::munlock(start.cast_const().cast(), length) };
            Ok(())
        })
        .expect("munlock is not checked");
    }

    /// Call `each` with the start and length of the page bytes of frames `range`, one call per
    /// chunk (a chunk's page bytes are one page-aligned mapping, so these are whole
    /// operating-system pages), stopping at the first error.
    fn each_page_range(
        &self,
        range: std::ops::Range<usize>,
        mut each: impl FnMut(*mut u8, usize) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut index = range.start;
        while index < range.end {
            let chunk = self.chunk(index);
            let first = index & (FRAMES_PER_CHUNK - 1);
            let last = (first + (range.end - index)).min(FRAMES_PER_CHUNK);
            let start = chunk.pages.cells()[first..].as_ptr() as *mut u8;
            debug_assert!((start as usize).is_multiple_of(4096), "page-aligned cells");
            each(start, (last - first) * PAGE_SIZE)?;
            index += last - first;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(table: &FrameTable, index: usize, byte: u8) {
        // SAFETY: a test's own table; no other reference to the cell exists.
        unsafe { (*table.page(index).0.get()).0.fill(byte) }
    }

    fn first_and_last(table: &FrameTable, index: usize) -> (u8, u8) {
        // SAFETY: as in `fill`.
        let page = unsafe { &*table.page(index).0.get() };
        (page.0[0], page.0[PAGE_SIZE - 1])
    }

    #[test]
    fn frames_span_chunks_and_released_pages_read_as_zeros() {
        let table = FrameTable::new(3 * FRAMES_PER_CHUNK - 100);
        assert_eq!(table.len(), 3 * FRAMES_PER_CHUNK - 100);
        assert_eq!(table.allocated(), 3 * FRAMES_PER_CHUNK);
        assert_eq!(
            table.frame(table.len()).state.load(Ordering::Relaxed),
            RESERVED,
            "a frame beyond the size is not part of the pool"
        );
        let kept = [0, FRAMES_PER_CHUNK - 1, FRAMES_PER_CHUNK];
        let released = [FRAMES_PER_CHUNK + 1, 2 * FRAMES_PER_CHUNK, table.len() - 1];
        for index in kept.into_iter().chain(released) {
            fill(&table, index, 0xAB);
        }
        table.release_page_memory(FRAMES_PER_CHUNK + 1..table.len());
        for index in kept {
            assert_eq!(first_and_last(&table, index), (0xAB, 0xAB), "frame {index}");
        }
        for index in released {
            assert_eq!(first_and_last(&table, index), (0, 0), "frame {index}");
        }
        // Growing into a new chunk.
        table.allocate_through(4 * FRAMES_PER_CHUNK);
        assert_eq!(table.allocated(), 4 * FRAMES_PER_CHUNK);
        assert_eq!(
            table.capacity(),
            (BUFFERS_MAX as usize).div_ceil(FRAMES_PER_CHUNK) * FRAMES_PER_CHUNK
        );
    }
}
