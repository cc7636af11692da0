//! Buffer frames: the control block and state word of each buffer, the preallocated page bytes,
//! and the sharded page table that maps (page set, page) to a frame.
//!
//! ## The state word
//!
//! Each frame's state that decides stealing, writing and pinning lives in one `AtomicU64`. Every
//! transition is a single compare-and-swap, so the pool-wide counts of stealable and changed
//! frames can be kept exactly: each successful CAS adds the difference between the old and new
//! state to the counters (see `PoolShared::transition`).
//!
//! | Bits | Name | Meaning |
//! |---|---|---|
//! | 0–31 | pin count | users holding the page "in use" (GETP/GETN not yet released) |
//! | 32 | `CHANGED` | the frame differs from the page on disk (SET WRITE since the last write) |
//! | 33 | `WRITING` | one writer (DWP, checkpoint, shutdown or a synchronous write) owns its write |
//! | 34 | `WRITE_ON_RELEASE` | a checkpoint found it in use: write it when it is released |
//! | 35 | `RESERVED` | being stolen, loaded or discarded; nobody else may pin or use it |
//!
//! The five MP16 page states are then:
//! - unused: no key, state 0;
//! - changed & in use: `CHANGED`, pin > 0;
//! - changed & not in use: `CHANGED`, pin = 0;
//! - unchanged & in use: pin > 0, not `CHANGED`;
//! - unchanged & not in use: a key, state 0.
//!
//! A frame is *stealable* when it is unused or unchanged & not in use: pin = 0, and neither
//! `CHANGED` nor `RESERVED` is set.

use std::cell::UnsafeCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Condvar, Mutex, RwLock};

use crate::page::PageBytes;
use crate::types::{PageNumber, PageSetId};

pub(super) const PIN_MASK: u64 = 0xFFFF_FFFF;
pub(super) const CHANGED: u64 = 1 << 32;
pub(super) const WRITING: u64 = 1 << 33;
pub(super) const WRITE_ON_RELEASE: u64 = 1 << 34;
pub(super) const RESERVED: u64 = 1 << 35;

/// Pins of one frame at once. Far more than any number of threads could hold.
pub(super) const PIN_COUNT_MAX: u64 = PIN_MASK;

pub(super) fn pin_count(state: u64) -> u64 {
    state & PIN_MASK
}

pub(super) fn is_stealable(state: u64) -> bool {
    state & (PIN_MASK | CHANGED | RESERVED) == 0
}

pub(super) fn is_changed(state: u64) -> bool {
    state & CHANGED != 0
}

/// `recovery_rba` value of a frame with no logged change since it was last written.
pub(super) const NO_RECOVERY_RBA: u64 = u64::MAX;

/// Page table key: bit 63 set, page set id in bits 32–39, page number in bits 0–31.
/// 0 means "no page" (an unused frame).
pub(super) const NO_KEY: u64 = 0;
const KEY_VALID: u64 = 1 << 63;

pub(super) fn page_key(page_set: PageSetId, page: PageNumber) -> u64 {
    KEY_VALID | (u64::from(page_set.0) << 32) | u64::from(page.0)
}

pub(super) fn key_page_set(key: u64) -> PageSetId {
    debug_assert!(key & KEY_VALID != 0);
    PageSetId((key >> 32) as u8)
}

pub(super) fn key_page(key: u64) -> PageNumber {
    debug_assert!(key & KEY_VALID != 0);
    PageNumber(key as u32)
}

/// Control block of one buffer. Cache-line aligned, so pinning one frame does not slow threads
/// that use its neighbours.
#[repr(align(64))]
pub(super) struct Frame {
    /// See the module documentation.
    pub state: AtomicU64,
    /// The page held, as [`page_key`], or [`NO_KEY`]. Changed only while the frame is
    /// `RESERVED`, under the lock of the shard that maps the key.
    pub key: AtomicU64,
    /// Clock reference bit: set on every hit, cleared by the steal scan as it passes.
    pub referenced: AtomicBool,
    /// The latch on the page bytes: shared to read or copy them, exclusive to change them.
    pub latch: RwLock<()>,
    /// Incremented by every SET WRITE. A write that completes makes the frame unchanged only if
    /// this has not moved since the bytes were copied for the write.
    pub change_version: AtomicU64,
    /// The lowest log RBA of a logged change not yet written, or [`NO_RECOVERY_RBA`].
    pub recovery_rba: AtomicU64,
    /// The pool's checkpoint sequence when the frame was first changed after its last write.
    pub first_change_checkpoint: AtomicU64,
    /// Position of that first change in the pool-wide order of first changes (oldest = lowest).
    pub first_change_order: AtomicU64,
    /// The latest change was [`super::PageChange::NonPersistent`].
    pub nonpersistent: AtomicBool,
}

impl Frame {
    pub fn new() -> Frame {
        Frame {
            state: AtomicU64::new(0),
            key: AtomicU64::new(NO_KEY),
            referenced: AtomicBool::new(false),
            latch: RwLock::new(()),
            change_version: AtomicU64::new(0),
            recovery_rba: AtomicU64::new(NO_RECOVERY_RBA),
            first_change_checkpoint: AtomicU64::new(0),
            first_change_order: AtomicU64::new(0),
            nonpersistent: AtomicBool::new(false),
        }
    }
}

/// The bytes of one buffer. Read only under the frame's shared latch, written only under its
/// exclusive latch.
#[repr(transparent)]
pub(super) struct PageCell(pub UnsafeCell<PageBytes>);

// SAFETY: every access to the cell goes through `Frame::latch` (see `PoolShared::page_ref` and
// `page_mut`), which provides the required exclusion between threads.
unsafe impl Sync for PageCell {}

/// `count` zeroed pages in one allocation, aligned for direct I/O. The memory is allocated
/// zeroed, so the operating system commits it only as buffers are first used.
pub(super) fn allocate_zeroed_pages(count: usize) -> Box<[PageCell]> {
    assert!(count > 0, "a buffer pool has at least one buffer");
    let layout = std::alloc::Layout::array::<PageCell>(count).expect("buffer pool size overflows");
    // SAFETY: the layout is non-zero in size. All-zero bytes are a valid `PageCell` (a byte
    // array). The pointer is allocated by the global allocator with the layout of a
    // `[PageCell; count]`, which is what `Box<[PageCell]>` frees it with.
    unsafe {
        let pointer = std::alloc::alloc_zeroed(layout).cast::<PageCell>();
        if pointer.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(pointer, count))
    }
}

/// Staging buffers for writes: `count` zeroed pages.
pub(super) fn allocate_staging_pages(count: usize) -> Box<[PageBytes]> {
    let cells = allocate_zeroed_pages(count);
    // SAFETY: `PageCell` is `repr(transparent)` over `UnsafeCell<PageBytes>`, which is
    // `repr(transparent)` over `PageBytes`, so the slices have the same layout.
    unsafe { Box::from_raw(Box::into_raw(cells) as *mut [PageBytes]) }
}

/// Shards of the page table. Each has its own lock, so there is no pool-wide lock on the
/// get-page path.
pub(super) const PAGE_TABLE_SHARDS: usize = 64;

/// Consecutive pages of a page set are laid out together in the page table: a run of
/// `1 << PAGE_RUN_BITS` pages shares a shard (`shard_index`) and neighbouring buckets of its
/// hash map (`PageKeyHasher` keeps a key's low bits). A long message's pages are usually
/// consecutive (continuation pages are allocated together), so fetching them touches one or two
/// cache lines of the table instead of one random line per page: the hash probe's cache misses were
/// 12% of a 64 KiB committer's CPU (docs/performance-notes.md, "Buffer pools and page sets").
pub(super) const PAGE_RUN_BITS: u32 = 4;
const PAGE_RUN_MASK: u64 = (1 << PAGE_RUN_BITS) - 1;

/// A multiply-xorshift hash of a page key's run, for the page table's hash maps, keeping the
/// page's place in its run as the low bits (see [`PAGE_RUN_BITS`]): the maps find a bucket
/// from a hash's low bits and filter a group of buckets by its top 7 bits, which stay well
/// mixed. SipHash would cost more than the lookup itself.
#[derive(Default)]
pub(super) struct PageKeyHasher(u64);

impl Hasher for PageKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }
    fn write_u64(&mut self, value: u64) {
        let mixed = (self.0 ^ (value >> PAGE_RUN_BITS)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = ((mixed ^ (mixed >> 29)) & !PAGE_RUN_MASK) | (value & PAGE_RUN_MASK);
    }
}

pub(super) type PageMap = HashMap<u64, u32, BuildHasherDefault<PageKeyHasher>>;

/// Which shard maps `key`: the shard of its run of pages ([`PAGE_RUN_BITS`]). Uses a different
/// mix from the hash maps' own hash, so the keys in one shard still spread over that shard's
/// buckets.
pub(super) fn shard_index(key: u64) -> usize {
    let mixed = (key >> PAGE_RUN_BITS).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((mixed ^ (mixed >> 31)) >> 58) as usize % PAGE_TABLE_SHARDS
}

/// The part of a shard protected by its mutex.
pub(super) struct ShardTable {
    pub map: PageMap,
    /// QPSTGETP and QPSTGETN, counted under the shard lock the request takes anyway.
    pub get_page_requests: u64,
    pub get_new_page_requests: u64,
}

/// One shard of the page table.
#[repr(align(64))]
pub(super) struct Shard {
    pub table: Mutex<ShardTable>,
    /// Signalled, under `table`, whenever a `RESERVED` frame mapped in this shard stops being
    /// reserved (its load finished or failed, or it was stolen or discarded).
    pub reserved_released: Condvar,
    /// QPSTSTW, striped by frame so SET WRITE from many threads does not share one counter.
    pub set_writes: AtomicU64,
}

impl Shard {
    pub fn new(capacity: usize) -> Shard {
        Shard {
            table: Mutex::new(ShardTable {
                map: PageMap::with_capacity_and_hasher(capacity, Default::default()),
                get_page_requests: 0,
                get_new_page_requests: 0,
            }),
            reserved_released: Condvar::new(),
            set_writes: AtomicU64::new(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_spread_over_shards() {
        let key = page_key(PageSetId(99), PageNumber(u32::MAX));
        assert_eq!(key_page_set(key), PageSetId(99));
        assert_eq!(key_page(key), PageNumber(u32::MAX));
        assert_ne!(page_key(PageSetId(0), PageNumber(0)), NO_KEY);
        let mut used = [0u32; PAGE_TABLE_SHARDS];
        for page in 0..64 * 64 {
            used[shard_index(page_key(PageSetId(1), PageNumber(page)))] += 1;
        }
        assert!(
            used.iter().all(|&count| (32..=96).contains(&count)),
            "{used:?}"
        );
    }

    #[test]
    fn a_run_of_pages_shares_a_shard_and_neighbouring_hashes() {
        use std::hash::BuildHasher;
        let hash = |page: u32| {
            BuildHasherDefault::<PageKeyHasher>::default()
                .hash_one(page_key(PageSetId(2), PageNumber(page)))
        };
        let run = 1u32 << PAGE_RUN_BITS;
        let mut top_bits = std::collections::HashSet::new();
        for first in (0..64 * run).step_by(run as usize) {
            let shard = shard_index(page_key(PageSetId(2), PageNumber(first)));
            for page in first..first + run {
                assert_eq!(shard_index(page_key(PageSetId(2), PageNumber(page))), shard);
                assert_eq!(hash(page), hash(first) + u64::from(page - first));
            }
            top_bits.insert(hash(first) >> 57);
        }
        // The bits the maps filter a group by still differ from run to run.
        assert!(top_bits.len() > 32, "{top_bits:?}");
    }

    #[test]
    fn stealable_is_unpinned_unchanged_and_unreserved() {
        assert!(is_stealable(0));
        assert!(!is_stealable(1));
        assert!(!is_stealable(CHANGED));
        assert!(!is_stealable(RESERVED));
        assert!(!is_stealable(CHANGED | WRITING));
    }

    #[test]
    fn staging_pages_are_aligned_and_zero() {
        let pages = allocate_staging_pages(3);
        assert_eq!(pages.as_ptr() as usize % 4096, 0);
        assert!(pages.iter().all(PageBytes::is_all_zero));
    }
}
