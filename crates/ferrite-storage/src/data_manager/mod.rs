//! The data manager: lays messages and object definitions out on page set pages, through the
//! buffer pools, and writes the log records that make those changes recoverable.
//!
//! Data path of a persistent put (MP16 ch. 5): choose a slot (packing small messages into the
//! page set's current insertion page, a new page otherwise) → write the PUT log record into the
//! log buffers → change the pages in the buffer pool, stamping each with the record's RBA → the
//! deferred write process or a checkpoint writes the pages later. Non-persistent messages use
//! pages of their own and are never logged.
//!
//! Ordering contract: every logged change to a data page is made while holding that page's
//! update stripe lock, from before its log record is appended until the page is changed, so the
//! changes to any page happen in RBA order and redo can compare page RBAs with record RBAs.

pub mod data_page;
pub mod memory;
pub mod message;
pub mod space_map;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use crate::buffer_pool::{BufferPool, PageChange};
use crate::error::{StorageError, StorageResult};
use crate::log::LogManager;
use crate::log_records::{kind, GetRecord, MessageLocation, PutRecord, UrReference};
use crate::page::{PageBytes, PageType, PAGE_FLAG_NONPERSISTENT, PAGE_HEADER_SIZE};
use crate::page_set::PageSet;
use crate::types::{PageNumber, PageSetId, Rba};
use message::ImageParts;

use data_page::{SlotHeader, SLOT_HEADER_SIZE, SLOT_STATE_FREE, SLOT_STATE_LIVE};
use memory::MemoryAccount;
use space_map::SpaceAllocator;

/// Number of page update stripe locks.
pub const UPDATE_STRIPES: usize = 1024;
/// Expansion starts when this percentage of a page set's data pages is in use (MP16: 90%).
pub const EXPANSION_THRESHOLD_PERCENT: u32 = 90;
/// How long a putter waits for an expansion in progress before the page set counts as full.
pub const EXPANSION_WAIT_MS: u64 = 30_000;

const CLASS_PERSISTENT: usize = 0;
const CLASS_NONPERSISTENT: usize = 1;
const NO_PAGE: u32 = 0;

/// One page set as the data manager uses it.
pub struct PageSetSpace {
    pub page_set: Arc<PageSet>,
    pub pool: Arc<BufferPool>,
    allocator: Mutex<SpaceAllocator>,
    /// Current insertion page per class (persistent, non-persistent); the mutex serialises
    /// placement decisions in this page set and class.
    insertion: [Mutex<u32>; 2],
    /// Copies of the insertion pages, readable without the mutex (0 = none).
    insertion_page: [AtomicU32; 2],
    expanding: AtomicBool,
    expansion_count: AtomicU64,
    /// The in-memory non-persistent images of every page set on this buffer pool
    /// (`memory.rs`); shared when the data manager attaches the page set.
    memory: OnceLock<Arc<MemoryAccount>>,
}

impl PageSetSpace {
    pub fn new(page_set: Arc<PageSet>, pool: Arc<BufferPool>) -> Arc<PageSetSpace> {
        let page_count = page_set.page_count();
        Arc::new(PageSetSpace {
            page_set,
            pool,
            allocator: Mutex::new(SpaceAllocator::new(page_count)),
            insertion: [Mutex::new(NO_PAGE), Mutex::new(NO_PAGE)],
            insertion_page: [AtomicU32::new(NO_PAGE), AtomicU32::new(NO_PAGE)],
            expanding: AtomicBool::new(false),
            expansion_count: AtomicU64::new(0),
            memory: OnceLock::new(),
        })
    }

    /// The account of in-memory non-persistent images for this page set's buffer pool.
    pub fn memory(&self) -> &Arc<MemoryAccount> {
        self.memory
            .get_or_init(|| MemoryAccount::for_pool(self.pool_buffers()))
    }

    /// Use `account` for this page set's in-memory images (tests set small limits; the data
    /// manager shares one account among the page sets of a buffer pool). False if the page
    /// set already has one.
    pub fn set_memory_account(&self, account: Arc<MemoryAccount>) -> bool {
        self.memory.set(account).is_ok()
    }

    /// Buffers in the pool serving this page set now (ALTER BUFFPOOL resizes a running pool).
    pub fn pool_buffers(&self) -> u64 {
        self.pool.buffers() as u64
    }

    pub fn id(&self) -> PageSetId {
        self.page_set.id()
    }

    fn allocator(&self) -> MutexGuard<'_, SpaceAllocator> {
        self.allocator.lock().unwrap()
    }

    /// Usage for DISPLAY USAGE: (total pages, unused pages).
    pub fn usage(&self) -> (u32, u32) {
        let allocator = self.allocator();
        (
            allocator.page_count(),
            allocator.data_pages() - allocator.allocated_data_pages(),
        )
    }

    /// Hook for DISPLAY USAGE's page classes (ferrite-command/src/usage.rs): the data pages
    /// allocated now, ascending.
    pub fn allocated_pages(&self) -> Vec<u32> {
        self.allocator().allocated_pages()
    }

    pub fn expansions_this_run(&self) -> u64 {
        self.expansion_count.load(Ordering::Relaxed)
    }

    /// Allocate a data page, starting an expansion in the background at 90% full and waiting
    /// for one when the page set is full. Fails with MQRC_STORAGE_MEDIUM_FULL when it cannot grow.
    fn allocate_page(self: &Arc<Self>) -> StorageResult<u32> {
        let deadline = Instant::now() + Duration::from_millis(EXPANSION_WAIT_MS);
        loop {
            {
                let mut allocator = self.allocator();
                if let Some(page) = allocator.allocate() {
                    if allocator.percent_used() >= EXPANSION_THRESHOLD_PERCENT {
                        drop(allocator);
                        self.start_expansion();
                    }
                    return Ok(page);
                }
            }
            if !self.expanding.load(Ordering::Acquire) {
                // Full and nobody is expanding: expand here, in the putter's path.
                if self.expanding.swap(true, Ordering::AcqRel) {
                    continue;
                }
                let result = self.expand_now();
                self.expanding.store(false, Ordering::Release);
                result?;
                continue;
            }
            if Instant::now() > deadline {
                return Err(StorageError::StorageMediumFull {
                    page_set: self.id(),
                });
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Allocate `count` data pages for one message's continuation pages, appended to `pages`:
    /// as many as the space map has free under one lock (first fit from the cursor, so a long
    /// message's pages are consecutive where space allows, and a 64 KiB put locks the space map
    /// once rather than 16 times), the rest one by one as [`allocate_page`](Self::allocate_page)
    /// allocates (waiting for an expansion). On failure the pages this call took are freed.
    fn allocate_pages(self: &Arc<Self>, count: usize, pages: &mut Vec<u32>) -> StorageResult<()> {
        let first = pages.len();
        {
            let mut allocator = self.allocator();
            while pages.len() - first < count {
                match allocator.allocate() {
                    Some(page) => pages.push(page),
                    None => break,
                }
            }
            if allocator.percent_used() >= EXPANSION_THRESHOLD_PERCENT {
                drop(allocator);
                self.start_expansion();
            }
        }
        while pages.len() - first < count {
            match self.allocate_page() {
                Ok(page) => pages.push(page),
                Err(error) => {
                    let mut allocator = self.allocator();
                    for page in pages.drain(first..) {
                        allocator.free(page);
                    }
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    fn start_expansion(self: &Arc<Self>) {
        if self.expanding.swap(true, Ordering::AcqRel) {
            return;
        }
        let space = Arc::clone(self);
        std::thread::Builder::new()
            .name(format!("expand-ps{}", space.id()))
            .spawn(move || {
                // A failure is reported to the putter that finds the page set full.
                let _ = space.expand_now();
                space.expanding.store(false, Ordering::Release);
            })
            .expect("spawn expansion thread");
    }

    fn expand_now(&self) -> StorageResult<()> {
        let page_count = self.page_set.expand()?;
        self.allocator().grow(page_count);
        self.expansion_count.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Record an allocation in the space map page (logged changes only; non-persistent pages
    /// need not be on disk because restart discards them).
    fn space_map_mark(&self, page: u32, allocated: bool, rba: Rba) -> StorageResult<()> {
        let (space_map_page, bit) = space_map::space_map_position(page);
        let guard = self.pool.get_page(self.id(), PageNumber(space_map_page))?;
        let id = self.id();
        guard.update(PageChange::Logged(rba), |bytes| {
            if bytes.page_type() != Some(PageType::SpaceMap) {
                bytes.format(PageType::SpaceMap, id, PageNumber(space_map_page));
            }
            bytes.set_page_rba(rba);
            space_map::bitmap_set(&mut bytes.0, bit, allocated);
        });
        Ok(())
    }

    /// Free a page in memory. The on-disk space map keeps the page marked (a superset is
    /// allowed) until restart verifies and clears it: this way every runtime space map change
    /// is an allocation made under the insertion lock, in log order, so space map page RBAs
    /// only grow.
    fn free_page(&self, page: u32) {
        self.allocator().free(page);
    }
}

/// Where a put went and, for a persistent put, its log record's RBA range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PutOutcome {
    pub location: MessageLocation,
    pub log_range: Option<(Rba, Rba)>,
}

/// A live record found by the restart scan of a page set.
#[derive(Clone, Debug)]
pub struct ScannedRecord<'a> {
    pub location: MessageLocation,
    pub header: SlotHeader,
    /// The bytes of the record stored in its first page (the descriptor is always there).
    pub first_page_bytes: &'a [u8],
}

/// A message or object to free or update when a unit of recovery ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SlotEffect {
    pub location: MessageLocation,
    pub persistent: bool,
}

pub struct DataManager {
    /// By page set id. A slot is set once: at start, or by DEFINE PSID at run time
    /// ([`DataManager::attach_space`]); reading it costs no lock on the put/get path.
    spaces: Box<[OnceLock<Arc<PageSetSpace>>]>,
    log: Arc<LogManager>,
    stripes: Box<[Mutex<()>]>,
    /// Log records written since the last checkpoint (drives LOGLOAD).
    pub log_records_since_checkpoint: AtomicU64,
}

impl DataManager {
    pub fn new(log: Arc<LogManager>, spaces: Vec<Arc<PageSetSpace>>) -> DataManager {
        let by_id: Box<[OnceLock<Arc<PageSetSpace>>]> =
            (0..=PageSetId::MAX).map(|_| OnceLock::new()).collect();
        for space in spaces {
            let index = space.id().0 as usize;
            let id = space.id();
            share_memory_account(by_id.iter().filter_map(OnceLock::get), &space);
            assert!(
                by_id[index].set(space).is_ok(),
                "page set {id} attached twice"
            );
        }
        DataManager {
            spaces: by_id,
            log,
            stripes: (0..UPDATE_STRIPES).map(|_| Mutex::new(())).collect(),
            log_records_since_checkpoint: AtomicU64::new(0),
        }
    }

    pub fn log(&self) -> &Arc<LogManager> {
        &self.log
    }

    pub fn space(&self, page_set: PageSetId) -> StorageResult<&Arc<PageSetSpace>> {
        self.spaces
            .get(page_set.0 as usize)
            .and_then(OnceLock::get)
            .ok_or_else(|| StorageError::invalid(format!("page set {page_set} is not defined")))
    }

    pub fn spaces(&self) -> impl Iterator<Item = &Arc<PageSetSpace>> {
        self.spaces.iter().filter_map(OnceLock::get)
    }

    /// DEFINE PSID at run time: serve a newly formatted page set (its space map read as at
    /// restart). A page set id is attached at most once per run: a page set deleted in this
    /// run keeps its slot until the restart that no longer opens it.
    pub fn attach_space(&self, space: Arc<PageSetSpace>) -> StorageResult<()> {
        let id = space.id();
        let slot = self
            .spaces
            .get(id.0 as usize)
            .ok_or_else(|| StorageError::invalid(format!("page set {id} is outside 0-99")))?;
        if slot.get().is_some() {
            return Err(StorageError::mq(
                ferrite_constants::reason::MQRC_OBJECT_IN_USE,
                format!("page set {id} is already attached in this run (a page set deleted since the start is detached at the next restart)"),
            ));
        }
        self.load_space_map(&space)?;
        share_memory_account(self.spaces(), &space);
        slot.set(space)
            .map_err(|_| StorageError::invalid(format!("page set {id} attached twice")))
    }

    fn stripe_index(page_set: PageSetId, page: u32) -> usize {
        let key = (page_set.0 as u64) << 32 | page as u64;
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % UPDATE_STRIPES
    }

    /// Lock the update stripes of `pages`, in ascending stripe order (no deadlock).
    fn lock_stripes(
        &self,
        pages: impl Iterator<Item = (PageSetId, u32)>,
    ) -> Vec<MutexGuard<'_, ()>> {
        let indexes: BTreeSet<usize> = pages
            .map(|(set, page)| Self::stripe_index(set, page))
            .collect();
        indexes
            .into_iter()
            .map(|index| self.stripes[index].lock().unwrap())
            .collect()
    }

    /// Append a log record, counting it towards LOGLOAD.
    pub fn append_log(&self, kind: u8, parts: &[&[u8]]) -> StorageResult<(Rba, Rba)> {
        let range = self.log.append(kind, parts)?;
        self.log_records_since_checkpoint
            .fetch_add(1, Ordering::Relaxed);
        Ok(range)
    }

    /// Place a record (message or object definition) in `page_set`. A persistent record is
    /// logged (its unit of recovery given by `ur`); the caller forces the log when it must.
    #[allow(clippy::too_many_arguments)]
    pub fn put(
        &self,
        ur: UrReference,
        slot_kind: u8,
        object_id: u32,
        sequence: u64,
        page_set: PageSetId,
        persistent: bool,
        image: ImageParts<'_>,
    ) -> StorageResult<PutOutcome> {
        let space = self.space(page_set)?;
        let class = if persistent {
            CLASS_PERSISTENT
        } else {
            CLASS_NONPERSISTENT
        };
        let mut insertion = space.insertion[class].lock().unwrap();
        let slot_length = SLOT_HEADER_SIZE + image.len();

        // Choose the head page: pack into the insertion page if the whole record fits there.
        let mut head: Option<(u32, usize, bool)> = None;
        if *insertion != NO_PAGE {
            let guard = space.pool.get_page(page_set, PageNumber(*insertion))?;
            let (free, empty) =
                guard.read(|page| (data_page::free_space(page), data_page::is_empty(page)));
            if empty {
                head = Some((*insertion, PAGE_HEADER_SIZE, true));
            } else if slot_length <= free {
                head = Some((*insertion, guard.read(data_page::slot_area_end), false));
            }
        }
        let (head_page, offset, new_page) = match head {
            Some(choice) => choice,
            None => (space.allocate_page()?, PAGE_HEADER_SIZE, true),
        };
        let length_here = image
            .len()
            .min(data_page::FIRST_PAGE_CAPACITY - (offset - PAGE_HEADER_SIZE));
        let remaining = image.len() - length_here;
        let continuation_count = remaining.div_ceil(data_page::CONTINUATION_CAPACITY);
        let mut continuation_pages = Vec::with_capacity(continuation_count);
        if let Err(error) = space.allocate_pages(continuation_count, &mut continuation_pages) {
            // Give back what this put took (`allocate_pages` gave back its own pages); nothing
            // was logged or written.
            if new_page && Some(head_page) != Some(*insertion) {
                space.allocator().free(head_page);
            }
            return Err(error);
        }
        // A long message whose head page is a new page of its own shares no page with another
        // put: the placement decision is made, and the rest of the put (logging and copying the
        // image, tens of µs at 64 KiB) runs without the placement lock, so that long messages
        // on one page set are put in parallel rather than one at a time. The insertion page is
        // given up now, as it would be at the end (no small record packs after a long one),
        // and never while it is this put's head (a get emptying it would free it: `free_slot`).
        let insertion = if new_page && head_page != *insertion && continuation_count > 0 {
            if *insertion != NO_PAGE {
                *insertion = NO_PAGE;
                space.insertion_page[class].store(NO_PAGE, Ordering::Release);
            }
            drop(insertion);
            None
        } else {
            Some(insertion)
        };
        let location = MessageLocation {
            page_set,
            page: PageNumber(head_page),
            offset: offset as u16,
        };
        let record = PutRecord {
            ur,
            slot_kind,
            location,
            object_id,
            sequence,
            new_page,
            continuation_pages,
        };

        let _stripes = self.lock_stripes(std::iter::once((page_set, head_page)));
        let log_range = if persistent {
            let header = record.encode_header();
            Some(self.append_log(kind::PUT, &[&header, image.head, image.data])?)
        } else {
            None
        };
        let change = match log_range {
            Some((rba, _)) => PageChange::Logged(rba),
            None => PageChange::NonPersistent,
        };
        self.apply_put(space, &record, image, change, false)?;
        if let Some((rba, _)) = log_range {
            space.space_map_mark(head_page, true, rba)?;
            for page in &record.continuation_pages {
                space.space_map_mark(*page, true, rba)?;
            }
        }
        // Keep packing into the head page while it has room for another small record.
        let keep = record.continuation_pages.is_empty()
            && offset + SLOT_HEADER_SIZE + length_here + SLOT_HEADER_SIZE < crate::page::PAGE_SIZE;
        let next_insertion = if keep { head_page } else { NO_PAGE };
        if let Some(mut insertion) = insertion {
            if next_insertion != *insertion {
                *insertion = next_insertion;
                space.insertion_page[class].store(next_insertion, Ordering::Release);
            }
        } else {
            debug_assert_eq!(next_insertion, NO_PAGE, "a long record is not packed after");
        }
        Ok(PutOutcome {
            location,
            log_range,
        })
    }

    /// Write a PUT's slot and continuation pages. With `redo`, pages whose RBA shows a later
    /// change are left alone. A page whose RBA equals the record's may have received part of
    /// the record's effects (one record can change several slots of a page), so every effect
    /// is written to be idempotent and is applied again.
    fn apply_put(
        &self,
        space: &PageSetSpace,
        record: &PutRecord,
        image: ImageParts<'_>,
        change: PageChange,
        redo: bool,
    ) -> StorageResult<()> {
        let page_set = space.id();
        let record_rba = match change {
            PageChange::Logged(rba) => rba,
            PageChange::NonPersistent => Rba::ZERO,
        };
        let offset = record.location.offset as usize;
        let length_here = image
            .len()
            .min(data_page::FIRST_PAGE_CAPACITY - (offset - PAGE_HEADER_SIZE));
        let header = SlotHeader {
            state: SLOT_STATE_LIVE,
            kind: record.slot_kind,
            backout_count: 0,
            length_here: length_here as u16,
            total_length: image.len() as u32,
            first_continuation: record.continuation_pages.first().copied().unwrap_or(0),
            object_id: record.object_id,
            sequence: record.sequence,
        };
        let persistent = matches!(change, PageChange::Logged(_));
        let head = record.location.page;
        let guard = if record.new_page && !redo {
            space.pool.get_new_page(page_set, head)?
        } else {
            space.pool.get_page(page_set, head)?
        };
        let needed = !redo
            || guard.read(|page| {
                page.page_rba() <= record_rba
                    && (record.new_page
                        || (page.page_type() == Some(PageType::Data)
                            && page.flags() & PAGE_FLAG_NONPERSISTENT == 0))
            });
        if needed {
            guard.update(change, |page| {
                if record.new_page || page.page_type() != Some(PageType::Data) {
                    page.format(PageType::Data, page_set, head);
                }
                page.set_flags(if persistent {
                    0
                } else {
                    PAGE_FLAG_NONPERSISTENT
                });
                if persistent {
                    page.set_page_rba(record_rba);
                }
                data_page::write_slot_with(page, offset, &header, |slot| image.copy_to(0, slot));
            });
        }
        drop(guard);
        let mut position = length_here;
        for (index, &page_number) in record.continuation_pages.iter().enumerate() {
            let chunk_start = position;
            let chunk_length = (image.len() - position).min(data_page::CONTINUATION_CAPACITY);
            position += chunk_length;
            let next = record
                .continuation_pages
                .get(index + 1)
                .copied()
                .unwrap_or(0);
            let guard = if redo {
                space.pool.get_page(page_set, PageNumber(page_number))?
            } else {
                space.pool.get_new_page(page_set, PageNumber(page_number))?
            };
            let needed = !redo || guard.read(|page| page.page_rba() <= record_rba);
            if needed {
                guard.update(change, |page| {
                    data_page::format_continuation(
                        page,
                        page_set,
                        PageNumber(page_number),
                        next,
                        chunk_length,
                        |body| image.copy_to(chunk_start, body),
                    );
                    page.set_flags(if persistent {
                        0
                    } else {
                        PAGE_FLAG_NONPERSISTENT
                    });
                    if persistent {
                        page.set_page_rba(record_rba);
                    }
                });
            }
        }
        assert_eq!(
            position,
            image.len(),
            "continuation pages too few for the image"
        );
        Ok(())
    }

    /// Read the whole image of the live record at `location`.
    pub fn read_image(&self, location: MessageLocation) -> StorageResult<Vec<u8>> {
        let space = self.space(location.page_set)?;
        let corrupt = |page: u32, detail: &str| StorageError::CorruptPage {
            page_set: location.page_set,
            page: PageNumber(page),
            path: space.page_set.path(),
            detail: detail.to_string(),
        };
        let guard = space.pool.get_page(location.page_set, location.page)?;
        let (header, mut image) = guard
            .read(|page| {
                let header = data_page::read_slot(page, location.offset as usize)?;
                let mut image = Vec::with_capacity(header.total_length as usize);
                image.extend_from_slice(data_page::slot_bytes(
                    page,
                    location.offset as usize,
                    &header,
                ));
                Some((header, image))
            })
            .ok_or_else(|| corrupt(location.page.0, "no record at this slot"))?;
        drop(guard);
        if header.state != SLOT_STATE_LIVE {
            return Err(corrupt(
                location.page.0,
                "slot is free; the record was already removed",
            ));
        }
        let mut next = header.first_continuation;
        let mut pages_followed = 0usize;
        while image.len() < header.total_length as usize {
            if next == 0 || pages_followed > log_records_continuation_limit() {
                return Err(corrupt(location.page.0, "continuation chain ends early"));
            }
            let guard = space.pool.get_page(location.page_set, PageNumber(next))?;
            let page_number = next;
            next = guard.read(|page| {
                if page.page_type() != Some(PageType::Continuation) {
                    return Err(corrupt(page_number, "expected a continuation page"));
                }
                image.extend_from_slice(data_page::continuation_bytes(page));
                Ok(data_page::continuation_next(page))
            })?;
            pages_followed += 1;
        }
        if image.len() != header.total_length as usize {
            return Err(corrupt(
                location.page.0,
                "record longer than its stated length",
            ));
        }
        Ok(image)
    }

    /// Read-ahead for sequential gets (MP16: an internal task reads the next messages' pages
    /// while the getter waits for its log I/O). `next` are the queue's next messages.
    pub fn read_ahead(&self, next: &[MessageLocation]) {
        let Some(first) = next.first() else { return };
        let Ok(space) = self.space(first.page_set) else {
            return;
        };
        let mut pages: Vec<PageNumber> = next
            .iter()
            .filter(|location| location.page_set == first.page_set)
            .map(|location| location.page)
            .collect();
        pages.dedup();
        space.pool.read_ahead(first.page_set, &pages);
    }

    /// Log a GET inside a unit of recovery (the page is not changed until commit).
    pub fn log_get(&self, record: &GetRecord) -> StorageResult<(Rba, Rba)> {
        self.append_log(kind::GET, &[&record.encode()])
    }

    /// An out-of-syncpoint get or an object deletion: log it (if persistent) and free the slot.
    pub fn get_and_free(
        &self,
        record: &GetRecord,
        persistent: bool,
    ) -> StorageResult<Option<(Rba, Rba)>> {
        assert_eq!(record.ur, UrReference::None);
        let location = record.location;
        let _stripes = self.lock_stripes(std::iter::once((location.page_set, location.page.0)));
        let range = if persistent {
            Some(self.log_get(record)?)
        } else {
            None
        };
        let change = range.map_or(PageChange::NonPersistent, |(rba, _)| {
            PageChange::Logged(rba)
        });
        self.free_slot(location, change, false)?;
        Ok(range)
    }

    /// End a unit of recovery: append its record (if any) and apply its page effects in one
    /// step under the stripe locks: free `frees`, set backout counts.
    pub fn end_unit_of_recovery(
        &self,
        record: Option<(u8, Vec<u8>)>,
        frees: &[SlotEffect],
        backout_counts: &[(SlotEffect, u16)],
    ) -> StorageResult<Option<(Rba, Rba)>> {
        let pages = frees
            .iter()
            .chain(backout_counts.iter().map(|(effect, _)| effect))
            .map(|effect| (effect.location.page_set, effect.location.page.0));
        let _stripes = self.lock_stripes(pages);
        let range = match &record {
            Some((kind, payload)) => Some(self.append_log(*kind, &[payload])?),
            None => None,
        };
        let change_for = |effect: &SlotEffect| match range {
            Some((rba, _)) if effect.persistent => PageChange::Logged(rba),
            _ => PageChange::NonPersistent,
        };
        for (effect, count) in backout_counts {
            self.set_backout_count(effect.location, *count, change_for(effect), false)?;
        }
        for effect in frees {
            self.free_slot(effect.location, change_for(effect), false)?;
        }
        Ok(range)
    }

    fn set_backout_count(
        &self,
        location: MessageLocation,
        count: u16,
        change: PageChange,
        redo: bool,
    ) -> StorageResult<()> {
        let space = self.space(location.page_set)?;
        let guard = space.pool.get_page(location.page_set, location.page)?;
        if redo && guard.read(|page| redo_target_gone(page, change)) {
            return Ok(());
        }
        guard.update(change, |page| {
            if let PageChange::Logged(rba) = change {
                page.set_page_rba(rba);
            }
            data_page::set_backout_count(page, location.offset as usize, count);
        });
        Ok(())
    }

    /// Free the slot at `location` and its continuation pages; free the head page too when it
    /// holds no other live slot and is not an insertion page.
    fn free_slot(
        &self,
        location: MessageLocation,
        change: PageChange,
        redo: bool,
    ) -> StorageResult<()> {
        let space = self.space(location.page_set)?;
        let guard = space.pool.get_page(location.page_set, location.page)?;
        if redo && guard.read(|page| redo_target_gone(page, change)) {
            // Already applied, or the page has since been freed and reused for non-persistent
            // data (which restart discards): nothing of this record's target remains.
            return Ok(());
        }
        let slot = guard.read(|page| data_page::read_slot(page, location.offset as usize));
        let Some(slot) = slot else {
            return Err(StorageError::CorruptPage {
                page_set: location.page_set,
                page: location.page,
                path: space.page_set.path(),
                detail: format!("no slot at offset {}", location.offset),
            });
        };
        if slot.state != SLOT_STATE_LIVE {
            if redo {
                return Ok(());
            }
            panic!("slot {location} freed twice");
        }
        // Collect the continuation chain before the slot goes.
        let mut chain = Vec::new();
        let mut next = slot.first_continuation;
        while next != 0 && chain.len() <= log_records_continuation_limit() {
            chain.push(next);
            let continuation = space.pool.get_page(location.page_set, PageNumber(next))?;
            next = continuation.read(|page| {
                if page.page_type() == Some(PageType::Continuation) {
                    data_page::continuation_next(page)
                } else {
                    0
                }
            });
        }
        let empty = guard.update(change, |page| {
            if let PageChange::Logged(rba) = change {
                page.set_page_rba(rba);
            }
            data_page::set_slot_state(page, location.offset as usize, SLOT_STATE_FREE);
            data_page::is_empty(page)
        });
        drop(guard);
        for page in chain {
            if redo {
                let mut allocator = space.allocator();
                if allocator.is_allocated(page) {
                    allocator.free(page);
                }
            } else {
                space.free_page(page);
            }
        }
        let is_insertion = space
            .insertion_page
            .iter()
            .any(|page| page.load(Ordering::Acquire) == location.page.0);
        if empty && !is_insertion && !redo {
            space.free_page(location.page.0);
        }
        Ok(())
    }

    /// Redo a PUT found in the log at restart.
    pub fn redo_put(&self, rba: Rba, record: &PutRecord, image: &[u8]) -> StorageResult<()> {
        let space = self.space(record.location.page_set)?;
        {
            let mut allocator = space.allocator();
            allocator.mark_allocated(record.location.page.0);
            for page in &record.continuation_pages {
                allocator.mark_allocated(*page);
            }
        }
        self.apply_put(
            space,
            record,
            ImageParts::whole(image),
            PageChange::Logged(rba),
            true,
        )
    }

    /// Redo the freeing of a slot (commit of a get, backout of a put, out-of-syncpoint get).
    pub fn redo_free(&self, rba: Rba, location: MessageLocation) -> StorageResult<()> {
        self.free_slot(location, PageChange::Logged(rba), true)
    }

    /// Redo a backout count update.
    pub fn redo_backout_count(
        &self,
        rba: Rba,
        location: MessageLocation,
        count: u16,
    ) -> StorageResult<()> {
        self.set_backout_count(location, count, PageChange::Logged(rba), true)
    }

    /// The backout count stored with the record at `location`.
    pub fn backout_count_at(&self, location: MessageLocation) -> StorageResult<u16> {
        let space = self.space(location.page_set)?;
        let guard = space.pool.get_page(location.page_set, location.page)?;
        Ok(guard
            .read(|page| data_page::read_slot(page, location.offset as usize))
            .map_or(0, |slot| slot.backout_count))
    }

    /// Restart: load the on-disk space maps into the allocators (a superset of what is live).
    pub fn load_space_maps(&self) -> StorageResult<()> {
        for space in self.spaces() {
            self.load_space_map(space)?;
        }
        Ok(())
    }

    /// One page set's space map into its allocator.
    fn load_space_map(&self, space: &Arc<PageSetSpace>) -> StorageResult<()> {
        {
            let page_count = space.page_set.page_count();
            let mut marked = Vec::new();
            for space_map_page in space_map::space_map_pages(page_count) {
                let guard = space
                    .pool
                    .get_page(space.id(), PageNumber(space_map_page))?;
                guard.read(|page| {
                    if page.page_type() != Some(PageType::SpaceMap) {
                        return;
                    }
                    for bit in 0..space_map::PAGES_PER_SPACE_MAP as usize {
                        let data_page = space_map_page + 1 + bit as u32;
                        if data_page >= page_count {
                            break;
                        }
                        if space_map::bitmap_get(&page.0, bit) {
                            marked.push(data_page);
                        }
                    }
                });
            }
            let mut allocator = space.allocator();
            allocator.grow(page_count);
            for page in marked {
                allocator.mark_allocated(page);
            }
        }
        Ok(())
    }

    /// Restart, after forward and backward recovery and before the checkpoint that moves the
    /// page sets' recovery RBA past the redone records: write into the on-disk space maps every
    /// page the allocator marks (redo marks pages in memory only), and write and sync them.
    ///
    /// Without this, a redone PUT's page bit could exist only in memory while the checkpoint
    /// records a recovery RBA past that PUT; a crash then leaves a restart that neither redoes
    /// the PUT nor finds the page in the space map, and loses its messages (found by the crash
    /// torture with kills during restart). `rba` (the log's end) stamps the space map pages.
    pub fn harden_allocations(&self, rba: Rba) -> StorageResult<()> {
        let mut pools: Vec<Arc<crate::buffer_pool::BufferPool>> = Vec::new();
        for space in self.spaces() {
            for page in space.allocator().allocated_pages() {
                space.space_map_mark(page, true, rba)?;
            }
            if !pools.iter().any(|pool| Arc::ptr_eq(pool, &space.pool)) {
                pools.push(space.pool.clone());
            }
        }
        for pool in pools {
            pool.flush_for_shutdown()?;
        }
        Ok(())
    }

    /// Restart: read every page the allocator marks, keep the pages that hold live persistent
    /// records (and their continuation pages), free the rest, and report every live record.
    /// Non-persistent pages are discarded. `rba` stamps the space map pages this corrects.
    pub fn scan_and_rebuild(
        &self,
        rba: Rba,
        on_record: &mut dyn FnMut(ScannedRecord<'_>),
    ) -> StorageResult<u64> {
        let mut records = 0u64;
        for space in self.spaces() {
            let page_set = space.id();
            let candidates = space.allocator().allocated_pages();
            let mut keep: BTreeSet<u32> = BTreeSet::new();
            let mut continuation_chains: Vec<u32> = Vec::new();
            for (index, &page_number) in candidates.iter().enumerate() {
                if index % 64 == 0 {
                    let ahead: Vec<PageNumber> = candidates
                        [index..(index + 64).min(candidates.len())]
                        .iter()
                        .map(|&page| PageNumber(page))
                        .collect();
                    space.pool.read_ahead(page_set, &ahead);
                }
                let guard = space.pool.get_page(page_set, PageNumber(page_number))?;
                guard.read(|page| {
                    if page.page_type() != Some(PageType::Data)
                        || page.flags() & PAGE_FLAG_NONPERSISTENT != 0
                    {
                        return;
                    }
                    for (offset, header) in data_page::slots(page) {
                        if header.state != SLOT_STATE_LIVE {
                            continue;
                        }
                        keep.insert(page_number);
                        if header.first_continuation != 0 {
                            continuation_chains.push(header.first_continuation);
                        }
                        records += 1;
                        on_record(ScannedRecord {
                            location: MessageLocation {
                                page_set,
                                page: PageNumber(page_number),
                                offset: offset as u16,
                            },
                            header,
                            first_page_bytes: data_page::slot_bytes(page, offset, &header),
                        });
                    }
                });
            }
            for first in continuation_chains {
                let mut next = first;
                let mut followed = 0;
                while next != 0 && followed <= log_records_continuation_limit() && keep.insert(next)
                {
                    let guard = space.pool.get_page(page_set, PageNumber(next))?;
                    next = guard.read(|page| {
                        if page.page_type() == Some(PageType::Continuation) {
                            data_page::continuation_next(page)
                        } else {
                            0
                        }
                    });
                    followed += 1;
                }
            }
            for page in candidates {
                if !keep.contains(&page) {
                    space.free_page(page);
                    space.space_map_mark(page, false, rba)?;
                }
            }
            // Persistent pages that are live but were missing from the on-disk space map.
            for &page in &keep {
                space.space_map_mark(page, true, rba)?;
            }
        }
        Ok(records)
    }
}

/// Give `space` the in-memory account of another page set on the same buffer pool, if any, so
/// the limit is per pool (MP16: non-persistent messages live in the buffer pool).
fn share_memory_account<'a>(
    attached: impl Iterator<Item = &'a Arc<PageSetSpace>>,
    space: &PageSetSpace,
) {
    let mut attached = attached;
    if let Some(other) = attached.find(|other| Arc::ptr_eq(&other.pool, &space.pool)) {
        space.set_memory_account(other.memory().clone());
    }
}

/// At redo, whether a slot change no longer applies to `page`: the page holds a later change
/// (its RBA is higher than the record's), or it has since been freed and reused for something
/// other than persistent data (restart discards that). At an equal RBA the change is applied
/// again, which every slot change allows.
fn redo_target_gone(page: &PageBytes, change: PageChange) -> bool {
    let rba = match change {
        PageChange::Logged(rba) => rba,
        PageChange::NonPersistent => Rba::ZERO,
    };
    page.page_rba() > rba
        || page.page_type() != Some(PageType::Data)
        || page.flags() & PAGE_FLAG_NONPERSISTENT != 0
}

/// Longest continuation chain followed before a chain counts as damaged (a 100 MiB record).
fn log_records_continuation_limit() -> usize {
    crate::log_records::CONTINUATION_PAGES_MAX
}

pub use data_page::{SLOT_KIND_MESSAGE, SLOT_KIND_OBJECT};
