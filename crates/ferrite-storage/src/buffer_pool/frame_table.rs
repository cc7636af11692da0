//! The frames of a pool and their page bytes, in chunks that are never moved, so that a
//! running pool can grow (ALTER BUFFPOOL BUFFERS, see `resize.rs`) while other threads hold
//! references to its frames.
//!
//! ## Layout
//! Frame `i` lives in chunk `i / FRAMES_PER_CHUNK` at slot `i % FRAMES_PER_CHUNK`. The chunk
//! directory has room for [`BUFFERS_MAX`] frames (or the pool's first size, if larger: qm.toml
//! may define one) and is allocated with the pool (16 bytes per chunk: under 16 KiB); each chunk (1,024 control blocks and 4 MiB of page bytes) is
//! allocated the first time the pool grows into it and freed only with the pool. The page
//! bytes are allocated zeroed, so the operating system commits them only as buffers are first
//! used, and [`FrameTable::release_page_memory`] gives them back after a shrink.
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

use super::frame::{allocate_zeroed_pages, Frame, PageCell, RESERVED};
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
    pages: Box<[PageCell]>,
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
                    pages: allocate_zeroed_pages(FRAMES_PER_CHUNK),
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
        &self.chunk(index).pages[index & (FRAMES_PER_CHUNK - 1)]
    }

    /// The frames `0..len()` with their indexes.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &Frame)> {
        (0..self.len()).map(|index| (index, self.frame(index)))
    }

    /// Give the memory of the page bytes of frames `range` back to the operating system.
    /// Contract: those frames are `RESERVED` with no key (nobody reads or writes their bytes);
    /// they read as zeros afterwards, and a frame is always filled before it is used.
    pub fn release_page_memory(&self, range: std::ops::Range<usize>) {
        let os_page = 4096usize;
        let mut index = range.start;
        while index < range.end {
            let chunk = self.chunk(index);
            let first = index & (FRAMES_PER_CHUNK - 1);
            let last = (first + (range.end - index)).min(FRAMES_PER_CHUNK);
            let start = chunk.pages[first..].as_ptr() as usize;
            let end = start + (last - first) * PAGE_SIZE;
            let aligned_start = start.div_ceil(os_page) * os_page;
            let aligned_end = end / os_page * os_page;
            if aligned_end > aligned_start {
                // SAFETY: the range lies inside this chunk's page allocation and is whole
                // operating-system pages; by the contract nobody uses these bytes, and an
                // anonymous private mapping reads as zeros after MADV_DONTNEED.
                unsafe {
                    libc::madvise(
                        aligned_start as *mut libc::c_void,
                        aligned_end - aligned_start,
                        libc::MADV_DONTNEED,
                    );
                }
            }
            index += last - first;
        }
    }
}
