//! Non-persistent message images kept in memory beside their queue entries.
//!
//! MP16 describes non-persistent messages as living in the buffer pool: they are never
//! logged, reach a page set only when the pool needs their buffers, and vanish at restart.
//! Ferrite gives a non-persistent message the same life without a page: its encoded image
//! (`message.rs`) is held by the queue entry itself, so a put, a get and their commits touch no
//! page, no buffer lookup, no space map and no update stripe, and the image moves from the
//! putter to the getter.
//!
//! The memory is bounded per *buffer pool*: the images of every page set using a pool may hold
//! at most [`NONPERSISTENT_MEMORY_PERCENT_OF_POOL`] percent of the pool's bytes (buffers ×
//! 4 KiB), counted as each image's buffer capacity (the memory it really holds: a recycled
//! buffer serves an image only if it is at most twice the size the image asked for, see
//! [`take_image_buffer`]) plus [`IMAGE_OVERHEAD_BYTES`]. A put that would pass the limit
//! places its message on data pages as before (and, like MQ's, those pages are written to
//! the page set only when the pool steals their buffers), so a deep queue still
//! spills to its page set, fills it (MQRC_STORAGE_MEDIUM_FULL) and reads ahead when drained.
//! The decision is made per message at put: a message stays where it was put, and once gets
//! have freed memory the next puts are held in memory again.
//!
//! ## Recycled image buffers
//! In MP16's single-queue workload a putter on one processor allocates every image and a
//! getter on the other frees it at its commit: one `malloc` and one cross-arena `free` per
//! message, and every fresh buffer is memory the process may touch for the first time (a page
//! fault). Image buffers are therefore recycled ([`take_image_buffer`], and the drop of a
//! [`MemoryImage`]): each thread keeps a short list of free buffers, and a thread that frees
//! more than it takes (a getter) passes its whole list, as one batch, to a shared exchange
//! that a thread short of buffers (a putter) takes a batch from. Everything is bounded:
//! buffers over [`IMAGE_BUFFER_RECYCLED_BYTES_MAX`] are freed; a thread's list is passed on as
//! soon as it reaches [`IMAGE_BUFFER_BATCH`] buffers or would pass
//! [`IMAGE_BUFFER_THREAD_BYTES_MAX`] bytes of capacity, so a thread, busy or idle, never keeps
//! more than that many bytes (and a batch is no larger); the exchange holds at most
//! [`IMAGE_BUFFER_EXCHANGE_BYTES_MAX`] bytes of buffer capacity in at most
//! [`IMAGE_BUFFER_EXCHANGE_BATCHES_MAX`] batches, and a batch beyond either is freed. The
//! exchange is bounded by bytes, not by a few batches, because a sustained 4+4 run's depth swings
//! by thousands of messages: getters ahead free a surplus that putters need again a moment later,
//! and a surplus freed to `malloc` came back as fresh memory, first-touch page faults included
//! (docs/performance-notes.md, "The single queue"). Free buffers are not charged to a
//! [`MemoryAccount`] (they hold no message); their bound is these limits. The exchange's
//! bytes count each batch's free handles and list capacity beside its buffers
//! ([`FreeBuffers::held_bytes`]), so the exchange holds at most 4 MiB in all; a thread's
//! list holds at most 64 KiB of buffers plus about 3 KiB of handles and list (32 free
//! handles of 56 bytes and room for 32 buffers and 32 handles): in all at most 4 MiB plus
//! threads × 67 KiB, so about 38 MiB for 512 threads with MQI connections, whatever the
//! traffic was. A thread's list is freed when the thread ends.
//!
//! A buffer is recycled only by the drop of the last holder of its image (the queue entry, a
//! unit of work's copy of it, a got message's data), so a recycled buffer never aliases a
//! message anyone can still read.
//!
//! ## Recycled image handles
//! The holders share an image through a [`HeldImage`], a reference-counted handle allocated
//! beside the buffer. The handle is recycled with it: the drop of the last holder (the
//! handle's count at one, checked with `Arc::get_mut`, so no other holder can appear) gives
//! its charge back, passes the buffer on as above and keeps the emptied handle, with its
//! account's reference, in the same thread list, so handles travel to the putters in the
//! same batches (at most [`IMAGE_BUFFER_BATCH`] handles per list). [`MemoryAccount::try_hold`]
//! takes one from this thread's list before allocating, and keeps its account reference when
//! it is the same account, so a put and a get change no reference count another processor
//! writes. Two holders dropping at the same moment may each see the other: the handle is then
//! simply freed by the last, its buffer recycled as before. A free handle holds no bytes and
//! no charge (about 60 bytes, and its account alive).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::page::PAGE_SIZE;

/// Share of a buffer pool's bytes that in-memory non-persistent images may hold.
pub const NONPERSISTENT_MEMORY_PERCENT_OF_POOL: u64 = 50;

/// Bytes counted for each image beyond its length (its allocation and the shared handle).
pub const IMAGE_OVERHEAD_BYTES: u64 = 64;

/// Image buffers whose capacity is larger than this are freed, not recycled (a 1 KiB
/// message's image fits many times over; a 100 KiB one is rare enough for `malloc`).
pub const IMAGE_BUFFER_RECYCLED_BYTES_MAX: usize = 16 * 1024;

/// Buffers a thread's list holds at most before it is passed to the shared exchange as a
/// batch.
pub const IMAGE_BUFFER_BATCH: usize = 32;

/// Bytes of capacity a thread's list of free buffers (and so a batch) holds at most: 32 images
/// of a 1 KiB message fit, so the common case passes full batches; larger images pass fewer
/// per batch rather than letting an idle thread keep up to 32 × 16 KiB.
pub const IMAGE_BUFFER_THREAD_BYTES_MAX: usize = 64 * 1024;

/// Bytes of buffer capacity the shared exchange holds at most; a batch that would take it
/// past this is freed. About 3,600 free images of a 1 KiB message: enough to cut a sustained
/// single-queue run's first-touch page faults from 35 to about 5 per 1,000 messages
/// (16 MiB cut them to 1, for 12 MiB more that a drained deep queue can keep:
/// docs/performance-notes.md, "The single queue").
pub const IMAGE_BUFFER_EXCHANGE_BYTES_MAX: usize = 4 * 1024 * 1024;

/// Batches the shared exchange holds at most, whatever their bytes (batches of small buffers
/// are mostly bookkeeping); a batch beyond them is freed.
pub const IMAGE_BUFFER_EXCHANGE_BATCHES_MAX: usize = 1024;

/// Batches of free image buffers given by threads with too many, for threads with none.
static IMAGE_BUFFER_EXCHANGE: ImageBufferExchange = Mutex::new(ExchangedBatches::new());

thread_local! {
    /// This thread's free image buffers (at most [`IMAGE_BUFFER_BATCH`], and that many only
    /// after taking a batch none of which fitted; at most [`IMAGE_BUFFER_THREAD_BYTES_MAX`]
    /// bytes).
    static IMAGE_BUFFERS: RefCell<FreeBuffers> = const { RefCell::new(FreeBuffers::new()) };
}

/// Free image buffers shared between threads: batches given by threads with too many, for
/// threads with none.
type ImageBufferExchange = Mutex<ExchangedBatches>;

/// The exchange's batches and the memory they hold ([`FreeBuffers::held_bytes`]).
#[derive(Debug, Default)]
struct ExchangedBatches {
    batches: Vec<FreeBuffers>,
    /// The sum of the batches' [`FreeBuffers::held_bytes`].
    bytes: usize,
}

impl ExchangedBatches {
    const fn new() -> ExchangedBatches {
        ExchangedBatches {
            batches: Vec::new(),
            bytes: 0,
        }
    }

    /// Keep `batch`, or hand it back when it would take the exchange past
    /// [`IMAGE_BUFFER_EXCHANGE_BYTES_MAX`] (its buffers, handles and lists counted:
    /// [`FreeBuffers::held_bytes`]) or [`IMAGE_BUFFER_EXCHANGE_BATCHES_MAX`].
    fn push(&mut self, batch: FreeBuffers) -> Option<FreeBuffers> {
        let held = batch.held_bytes();
        if self.batches.len() >= IMAGE_BUFFER_EXCHANGE_BATCHES_MAX
            || self.bytes + held > IMAGE_BUFFER_EXCHANGE_BYTES_MAX
        {
            return Some(batch);
        }
        self.bytes += held;
        self.batches.push(batch);
        debug_assert!(self.bytes <= IMAGE_BUFFER_EXCHANGE_BYTES_MAX);
        None
    }

    /// The batch given last.
    fn pop(&mut self) -> Option<FreeBuffers> {
        let batch = self.batches.pop()?;
        // Unchanged since `push` counted it (batches move by value).
        self.bytes -= batch.held_bytes();
        Some(batch)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.batches.len()
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.batches.is_empty()
    }
}

/// A list of free (empty) image buffers and the sum of their capacities, and free image
/// handles (no bytes, no charge; see the module's comment).
#[derive(Debug, Default)]
struct FreeBuffers {
    buffers: Vec<Vec<u8>>,
    bytes: usize,
    handles: Vec<Arc<MemoryImage>>,
}

impl FreeBuffers {
    const fn new() -> FreeBuffers {
        FreeBuffers {
            buffers: Vec::new(),
            bytes: 0,
            handles: Vec::new(),
        }
    }

    /// An empty list with room for a batch of buffers and handles.
    fn with_batch_capacity() -> FreeBuffers {
        FreeBuffers {
            buffers: Vec::with_capacity(IMAGE_BUFFER_BATCH),
            bytes: 0,
            handles: Vec::with_capacity(IMAGE_BUFFER_BATCH),
        }
    }

    /// Keep an emptied handle (at most [`IMAGE_BUFFER_BATCH`]; beyond, it is freed).
    fn push_handle(&mut self, handle: Arc<MemoryImage>) {
        debug_assert!(handle.bytes.capacity() == 0 && handle.charge == 0);
        if self.handles.len() < IMAGE_BUFFER_BATCH {
            self.handles.push(handle);
        }
    }

    fn push(&mut self, buffer: Vec<u8>) {
        debug_assert!(buffer.is_empty(), "free image buffers are empty");
        self.bytes += buffer.capacity();
        self.buffers.push(buffer);
    }

    /// The most recently freed buffer that fits a request for `capacity` bytes (with one
    /// message size, the last one, at once).
    fn take_fitting(&mut self, capacity: usize) -> Option<Vec<u8>> {
        let index = self
            .buffers
            .iter()
            .rposition(|buffer| fits_request(buffer.capacity(), capacity))?;
        let buffer = self.buffers.swap_remove(index);
        self.bytes -= buffer.capacity();
        Some(buffer)
    }

    fn len(&self) -> usize {
        self.buffers.len()
    }

    /// The memory the list holds: its buffers' capacities, its free handles (each a
    /// [`MemoryImage`] behind an `Arc`'s two counts) and the lists' own capacity. The
    /// exchange's byte bound counts this, not the buffers alone: with small images its
    /// 1,024-batch bound would otherwise keep about 3 MiB of handles and lists uncounted.
    fn held_bytes(&self) -> usize {
        self.bytes + FREE_HANDLE_BYTES * self.handles.len() + self.list_bytes()
    }

    fn list_bytes(&self) -> usize {
        self.buffers.capacity() * std::mem::size_of::<Vec<u8>>()
            + self.handles.capacity() * std::mem::size_of::<Arc<MemoryImage>>()
    }
}

/// Bytes a free image handle holds: its [`MemoryImage`] and the `Arc`'s strong and weak
/// counts.
const FREE_HANDLE_BYTES: usize =
    std::mem::size_of::<MemoryImage>() + 2 * std::mem::size_of::<usize>();

/// An empty buffer for an image of `capacity` bytes: a recycled one when this thread or the
/// exchange has one that fits ([`fits_request`]), otherwise a new allocation of exactly
/// `capacity` bytes.
pub fn take_image_buffer(capacity: usize) -> Vec<u8> {
    let recycled = IMAGE_BUFFERS
        .try_with(|buffers| take_from(&mut buffers.borrow_mut(), &IMAGE_BUFFER_EXCHANGE, capacity))
        .ok()
        .flatten();
    match recycled {
        Some(buffer) => {
            debug_assert!(buffer.is_empty(), "recycled image buffers are empty");
            debug_assert!(fits_request(buffer.capacity(), capacity));
            buffer
        }
        None => Vec::with_capacity(capacity),
    }
}

/// Whether a free buffer of `buffer_capacity` bytes may serve a request for `capacity`: it
/// holds the image without growing, and at most twice what the image needs, so an image's
/// charge (its buffer's capacity) stays within 2× of its own size.
fn fits_request(buffer_capacity: usize, capacity: usize) -> bool {
    capacity <= buffer_capacity && buffer_capacity <= capacity.saturating_mul(2)
}

/// Give an image buffer back for reuse (or free it, past the limits). The caller must be its
/// last holder: nothing may read the old image through it again.
pub fn recycle_image_buffer(buffer: Vec<u8>) {
    // A thread being torn down has no list any more: the buffer is simply freed.
    let _ = IMAGE_BUFFERS
        .try_with(|buffers| give_to(&mut buffers.borrow_mut(), &IMAGE_BUFFER_EXCHANGE, buffer));
}

/// A buffer from a thread's list that fits a request for `capacity` bytes; an empty list is
/// first refilled with a batch from the exchange. `None` when no free buffer fits, and at
/// once for a request above [`IMAGE_BUFFER_RECYCLED_BYTES_MAX`] (no free buffer is that
/// large: the lists and the exchange are left alone).
fn take_from(
    buffers: &mut FreeBuffers,
    exchange: &ImageBufferExchange,
    capacity: usize,
) -> Option<Vec<u8>> {
    if capacity > IMAGE_BUFFER_RECYCLED_BYTES_MAX {
        return None;
    }
    if buffers.len() == 0 {
        let batch = exchange.lock().unwrap().pop();
        if let Some(batch) = batch {
            debug_assert!(batch.len() <= IMAGE_BUFFER_BATCH);
            debug_assert!(batch.bytes <= IMAGE_BUFFER_THREAD_BYTES_MAX);
            *buffers = batch;
        }
    }
    buffers.take_fitting(capacity)
}

/// Keep `buffer` in a thread's list; a list at [`IMAGE_BUFFER_BATCH`] buffers, or one the
/// buffer would take past [`IMAGE_BUFFER_THREAD_BYTES_MAX`], is first passed whole to the
/// exchange (or freed when the exchange is full too). Buffers past the size limit are freed
/// at once.
fn give_to(buffers: &mut FreeBuffers, exchange: &ImageBufferExchange, mut buffer: Vec<u8>) {
    if buffer.capacity() == 0 || buffer.capacity() > IMAGE_BUFFER_RECYCLED_BYTES_MAX {
        return;
    }
    buffer.clear();
    // A full list here is a batch just taken from the exchange in which no buffer fitted.
    if buffers.len() >= IMAGE_BUFFER_BATCH
        || buffers.bytes + buffer.capacity() > IMAGE_BUFFER_THREAD_BYTES_MAX
    {
        pass_to_exchange(buffers, exchange);
    }
    buffers.push(buffer);
    if buffers.len() >= IMAGE_BUFFER_BATCH {
        pass_to_exchange(buffers, exchange);
    }
    debug_assert!(buffers.len() < IMAGE_BUFFER_BATCH);
    debug_assert!(buffers.bytes <= IMAGE_BUFFER_THREAD_BYTES_MAX);
}

/// Move a thread's whole list to the exchange as one batch, or free it when the exchange
/// is full ([`ExchangedBatches::push`]).
fn pass_to_exchange(buffers: &mut FreeBuffers, exchange: &ImageBufferExchange) {
    // The list starts again with room for a whole batch: growing an empty one buffer by
    // buffer reallocated it five times per batch (1% of the single-queue profile).
    let batch = std::mem::replace(buffers, FreeBuffers::with_batch_capacity());
    let refused = exchange.lock().unwrap().push(batch);
    // Freed outside the exchange's lock.
    drop(refused);
}

/// A free image handle from this thread's list (refilled with the buffers, see
/// [`take_image_buffer`]), if it has one.
fn take_image_handle() -> Option<Arc<MemoryImage>> {
    IMAGE_BUFFERS
        .try_with(|buffers| buffers.borrow_mut().handles.pop())
        .ok()
        .flatten()
}

/// Keep an emptied image handle in this thread's list.
fn recycle_image_handle(handle: Arc<MemoryImage>) {
    // A thread being torn down has no list any more: the handle is simply freed.
    let _ = IMAGE_BUFFERS.try_with(|buffers| buffers.borrow_mut().push_handle(handle));
}

/// Free image handles this thread holds (tests).
pub fn image_handles_held_by_this_thread() -> usize {
    IMAGE_BUFFERS
        .try_with(|buffers| buffers.borrow().handles.len())
        .unwrap_or(0)
}

/// Free buffers this thread holds (tests).
pub fn image_buffers_held_by_this_thread() -> usize {
    IMAGE_BUFFERS
        .try_with(|buffers| buffers.borrow().len())
        .unwrap_or(0)
}

/// Bytes of capacity of the free buffers this thread holds (tests).
pub fn image_buffer_bytes_held_by_this_thread() -> usize {
    IMAGE_BUFFERS
        .try_with(|buffers| buffers.borrow().bytes)
        .unwrap_or(0)
}

/// The in-memory images of one buffer pool's page sets: bytes held against a limit.
#[derive(Debug)]
pub struct MemoryAccount {
    held_bytes: AtomicU64,
    /// Changed by ALTER BUFFPOOL ([`MemoryAccount::set_pool_buffers`]): a smaller limit
    /// keeps the images already held; new puts go to pages until they fit again.
    limit_bytes: AtomicU64,
}

impl MemoryAccount {
    /// The account for a buffer pool of `buffers` 4 KiB buffers.
    pub fn for_pool(buffers: u64) -> Arc<MemoryAccount> {
        MemoryAccount::with_limit(Self::pool_limit_bytes(buffers))
    }

    fn pool_limit_bytes(buffers: u64) -> u64 {
        let pool_bytes = buffers.saturating_mul(PAGE_SIZE as u64);
        pool_bytes / 100 * NONPERSISTENT_MEMORY_PERCENT_OF_POOL
    }

    /// The pool was resized (ALTER BUFFPOOL BUFFERS(n) on a running pool): the limit follows.
    pub fn set_pool_buffers(&self, buffers: u64) {
        self.limit_bytes
            .store(Self::pool_limit_bytes(buffers), Ordering::Relaxed);
    }

    /// An account holding at most `limit_bytes` (tests use small limits).
    pub fn with_limit(limit_bytes: u64) -> Arc<MemoryAccount> {
        Arc::new(MemoryAccount {
            held_bytes: AtomicU64::new(0),
            limit_bytes: AtomicU64::new(limit_bytes),
        })
    }

    pub fn limit_bytes(&self) -> u64 {
        self.limit_bytes.load(Ordering::Relaxed)
    }

    /// Bytes the live images hold now (overhead included).
    pub fn held_bytes(&self) -> u64 {
        self.held_bytes.load(Ordering::Relaxed)
    }

    /// Hold `image` in memory if the limit allows; otherwise hand it back for the pages. The
    /// charge is the memory really held: the buffer's capacity, not the image's length. The
    /// handle is a recycled one when this thread has one (see the module's comment).
    pub fn try_hold(self: &Arc<Self>, image: Vec<u8>) -> Result<HeldImage, Vec<u8>> {
        let charge = image.capacity() as u64 + IMAGE_OVERHEAD_BYTES;
        let before = self.held_bytes.fetch_add(charge, Ordering::Relaxed);
        if before + charge > self.limit_bytes() {
            self.held_bytes.fetch_sub(charge, Ordering::Relaxed);
            return Err(image);
        }
        let handle = match take_image_handle() {
            Some(mut handle) => {
                let free = Arc::get_mut(&mut handle).expect("a free handle has no other holder");
                assert!(
                    free.bytes.capacity() == 0 && free.charge == 0,
                    "a free image handle holds no bytes and no charge"
                );
                free.bytes = image;
                free.charge = charge;
                if !Arc::ptr_eq(&free.account, self) {
                    free.account = self.clone();
                }
                handle
            }
            None => Arc::new(MemoryImage {
                bytes: image,
                charge,
                account: self.clone(),
            }),
        };
        Ok(HeldImage(Some(handle)))
    }
}

/// One message's image held in memory, shared by its holders (the queue entry, a unit of
/// work's copy of it, a got message's data). The drop of the last holder gives the charge
/// back and recycles the buffer and the handle (see the module's comment).
#[derive(Clone)]
pub struct HeldImage(Option<Arc<MemoryImage>>);

impl HeldImage {
    /// Whether two holders hold the same image.
    pub fn ptr_eq(&self, other: &HeldImage) -> bool {
        Arc::ptr_eq(self.handle(), other.handle())
    }

    fn handle(&self) -> &Arc<MemoryImage> {
        self.0
            .as_ref()
            .expect("a held image has its handle until it is dropped")
    }
}

impl std::ops::Deref for HeldImage {
    type Target = MemoryImage;

    fn deref(&self) -> &MemoryImage {
        self.handle()
    }
}

impl Drop for HeldImage {
    fn drop(&mut self) {
        let Some(mut handle) = self.0.take() else {
            return;
        };
        // The last holder (no other can appear: only a holder clones): recycle the handle
        // with its buffer. Otherwise another holder still reads the image, or drops its own
        // at this moment, and the handle's last drop frees it (MemoryImage's Drop).
        if let Some(image) = Arc::get_mut(&mut handle) {
            image.release();
            recycle_image_handle(handle);
        }
    }
}

impl std::fmt::Debug for HeldImage {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.handle().fmt(formatter)
    }
}

/// One message's image in memory; dropping it (or [`MemoryImage::release`]) gives its bytes
/// back to the account. Shared through a [`HeldImage`].
pub struct MemoryImage {
    bytes: Vec<u8>,
    /// 0 once released (a free handle).
    charge: u64,
    account: Arc<MemoryAccount>,
}

impl MemoryImage {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The capacity of the image's buffer: the bytes it is charged for (beside
    /// [`IMAGE_OVERHEAD_BYTES`]).
    pub fn capacity(&self) -> usize {
        self.bytes.capacity()
    }
}

impl MemoryImage {
    /// The last holder is done with the image: give its charge back and its buffer for
    /// reuse, leaving the handle empty (no bytes, no charge). Releasing twice is harmless.
    fn release(&mut self) {
        if self.charge != 0 {
            let before = self
                .account
                .held_bytes
                .fetch_sub(self.charge, Ordering::Relaxed);
            assert!(before >= self.charge, "in-memory image charges balance");
            self.charge = 0;
        }
        // A free handle has no buffer: nothing to recycle (and a free handle is dropped
        // while its thread's list is borrowed, see pass_to_exchange).
        if self.bytes.capacity() != 0 {
            recycle_image_buffer(std::mem::take(&mut self.bytes));
        }
    }
}

impl Drop for MemoryImage {
    fn drop(&mut self) {
        self.release();
    }
}

impl std::fmt::Debug for MemoryImage {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "MemoryImage({} bytes)", self.bytes.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_refuses_an_image_and_a_drop_makes_room() {
        let account = MemoryAccount::with_limit(2 * (100 + IMAGE_OVERHEAD_BYTES));
        let first = account.try_hold(vec![1; 100]).unwrap();
        let second = account.try_hold(vec![2; 100]).unwrap();
        let refused = account.try_hold(vec![3; 100]).unwrap_err();
        assert_eq!(refused, vec![3; 100], "the image comes back whole");
        assert_eq!(account.held_bytes(), 2 * (100 + IMAGE_OVERHEAD_BYTES));
        drop(first);
        assert_eq!(second.bytes(), &[2; 100][..]);
        drop(second);
        assert_eq!(account.held_bytes(), 0);
        assert!(account.try_hold(vec![4; 100]).is_ok());
    }

    #[test]
    fn an_image_is_charged_its_buffer_capacity_not_its_length() {
        let account = MemoryAccount::with_limit(1 << 20);
        let mut image = Vec::with_capacity(1000);
        image.extend_from_slice(&[1; 10]);
        let held = account.try_hold(image).unwrap();
        assert_eq!(account.held_bytes(), 1000 + IMAGE_OVERHEAD_BYTES);
        drop(held);
        assert_eq!(account.held_bytes(), 0);
    }

    #[test]
    fn a_free_buffer_serves_only_a_request_it_fits_within_twice() {
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        let mut buffers = free_buffers(&[4000, 1000]);
        // Too large for a small image (it would hold 10× what the image needs): none fits.
        assert!(take_from(&mut buffers, &exchange, 100).is_none());
        assert_eq!(buffers.len(), 2, "the buffers that did not fit stay free");
        // Too small for a large one (it would have to grow): none fits.
        assert!(take_from(&mut buffers, &exchange, 5000).is_none());
        let fitting = take_from(&mut buffers, &exchange, 600).expect("1000 serves 600-1000");
        assert_eq!(fitting.capacity(), 1000);
        let fitting = take_from(&mut buffers, &exchange, 2000).expect("4000 serves 2000-4000");
        assert_eq!(fitting.capacity(), 4000);
        assert_eq!((buffers.len(), buffers.bytes), (0, 0));
        assert!(fits_request(1000, 1000) && fits_request(2000, 1000));
        assert!(!fits_request(2001, 1000) && !fits_request(999, 1000));
    }

    #[test]
    fn a_request_above_the_recycled_size_leaves_the_lists_alone() {
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        assert!(exchange
            .lock()
            .unwrap()
            .push(free_buffers(&[100; IMAGE_BUFFER_BATCH]))
            .is_none());
        let mut buffers = FreeBuffers::new();
        assert!(take_from(&mut buffers, &exchange, IMAGE_BUFFER_RECYCLED_BYTES_MAX + 1).is_none());
        assert!(
            buffers.len() == 0,
            "no batch taken for a request no buffer can serve"
        );
        assert_eq!(exchange.lock().unwrap().len(), 1);
        let large = take_image_buffer(IMAGE_BUFFER_RECYCLED_BYTES_MAX + 1);
        assert_eq!(large.capacity(), IMAGE_BUFFER_RECYCLED_BYTES_MAX + 1);
    }

    #[test]
    fn a_recycled_buffer_comes_back_empty_to_the_list_it_was_given_to() {
        // A list and an exchange of the test's own: no other thread's buffers take part.
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        let mut buffers = FreeBuffers::new();
        assert!(take_from(&mut buffers, &exchange, 1000).is_none());
        let mut buffer = Vec::with_capacity(1000);
        buffer.extend_from_slice(&[7; 1000]);
        let address = buffer.as_ptr();
        give_to(&mut buffers, &exchange, buffer);
        assert_eq!((buffers.len(), buffers.bytes), (1, 1000));
        let again = take_from(&mut buffers, &exchange, 1000).expect("the buffer given back");
        assert_eq!(again.as_ptr(), address, "the same buffer is reused");
        assert!(again.is_empty(), "no bytes of the old image are visible");
        assert_eq!(again.capacity(), 1000);
        assert_eq!((buffers.len(), buffers.bytes), (0, 0));
        assert!(
            exchange.lock().unwrap().is_empty(),
            "the exchange took no part"
        );
    }

    #[test]
    fn recycling_is_bounded_per_thread_and_in_the_exchange() {
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        let mut getter = FreeBuffers::new();
        // Larger than the limit (or empty): freed, never kept.
        give_to(
            &mut getter,
            &exchange,
            Vec::with_capacity(IMAGE_BUFFER_RECYCLED_BYTES_MAX + 1),
        );
        give_to(&mut getter, &exchange, Vec::new());
        assert_eq!((getter.len(), getter.bytes), (0, 0));
        // Buffers of 2 KiB: the exchange's bytes bound is reached before its batch bound. A
        // batch counts its list's capacity too (the first list grew to a batch's room; the
        // later ones start with it).
        let size = 2048;
        let batch_bytes = IMAGE_BUFFER_BATCH * size;
        let batch_held = batch_bytes + FreeBuffers::with_batch_capacity().held_bytes();
        let batches_kept = IMAGE_BUFFER_EXCHANGE_BYTES_MAX / batch_held;
        assert!(batches_kept < IMAGE_BUFFER_EXCHANGE_BATCHES_MAX);
        let given = (batches_kept + 2) * IMAGE_BUFFER_BATCH;
        for _ in 0..given {
            give_to(&mut getter, &exchange, Vec::with_capacity(size));
            assert!(getter.len() < IMAGE_BUFFER_BATCH, "{}", getter.len());
            assert_eq!(getter.bytes, getter.len() * size);
            let exchange = exchange.lock().unwrap();
            assert!(exchange.bytes <= IMAGE_BUFFER_EXCHANGE_BYTES_MAX);
            assert_eq!(exchange.bytes, exchange_held_bytes(&exchange));
        }
        assert_eq!(
            exchange.lock().unwrap().len(),
            batches_kept,
            "the exchange filled up to its byte bound; the rest was freed"
        );
        // A thread with none takes a whole batch at once, then takes from its own list; the
        // exchange's bytes go down by the batch.
        let mut putter = FreeBuffers::new();
        let first = take_from(&mut putter, &exchange, size).expect("a batch is there");
        assert!(first.is_empty() && first.capacity() >= size);
        assert_eq!(putter.len(), IMAGE_BUFFER_BATCH - 1);
        assert_eq!(putter.bytes, (IMAGE_BUFFER_BATCH - 1) * size);
        {
            let exchange = exchange.lock().unwrap();
            assert_eq!(exchange.len(), batches_kept - 1);
            assert_eq!(exchange.bytes, exchange_held_bytes(&exchange));
        }
        // Room for one batch again: the next one given is kept, the one after is freed.
        for _ in 0..2 * IMAGE_BUFFER_BATCH {
            give_to(&mut getter, &exchange, Vec::with_capacity(size));
        }
        assert_eq!(exchange.lock().unwrap().len(), batches_kept);
        // Empty list, empty exchange: nothing (the caller allocates).
        let empty: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        assert!(take_from(&mut FreeBuffers::new(), &empty, 100).is_none());
    }

    #[test]
    fn a_list_passed_on_starts_again_with_room_for_a_batch() {
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        let mut getter = FreeBuffers::new();
        for _ in 0..IMAGE_BUFFER_BATCH {
            give_to(&mut getter, &exchange, vec![1; 100]);
        }
        assert_eq!(exchange.lock().unwrap().len(), 1);
        assert_eq!(getter.len(), 0);
        assert!(getter.buffers.capacity() >= IMAGE_BUFFER_BATCH);
        assert!(getter.handles.capacity() >= IMAGE_BUFFER_BATCH);
    }

    #[test]
    fn the_exchange_keeps_at_most_its_batch_bound_of_small_batches() {
        let mut exchange = ExchangedBatches::new();
        for _ in 0..IMAGE_BUFFER_EXCHANGE_BATCHES_MAX {
            assert!(exchange.push(free_buffers(&[16])).is_none());
        }
        let refused = exchange
            .push(free_buffers(&[16]))
            .expect("past the batch bound");
        assert_eq!((refused.len(), refused.bytes), (1, 16));
        assert_eq!(
            exchange.bytes,
            IMAGE_BUFFER_EXCHANGE_BATCHES_MAX * refused.held_bytes()
        );
        while exchange.pop().is_some() {}
        assert_eq!((exchange.len(), exchange.bytes), (0, 0));
    }

    #[test]
    fn a_thread_keeps_at_most_its_byte_bound_of_large_buffers() {
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        let mut getter = FreeBuffers::new();
        let large = IMAGE_BUFFER_RECYCLED_BYTES_MAX;
        let per_batch = IMAGE_BUFFER_THREAD_BYTES_MAX / large;
        assert!(
            per_batch < IMAGE_BUFFER_BATCH,
            "the byte bound is the tighter one"
        );
        for given in 1..=3 * per_batch {
            give_to(&mut getter, &exchange, Vec::with_capacity(large));
            assert!(
                getter.bytes <= IMAGE_BUFFER_THREAD_BYTES_MAX,
                "{}",
                getter.bytes
            );
            assert_eq!(getter.bytes, getter.len() * large);
            // The list is passed on when the next buffer would not fit beside it.
            assert_eq!(getter.len(), (given - 1) % per_batch + 1);
        }
        let batches = exchange.lock().unwrap();
        assert_eq!(batches.len(), 2);
        for batch in batches.batches.iter() {
            assert_eq!((batch.len(), batch.bytes), (per_batch, per_batch * large));
        }
    }

    #[test]
    fn a_batch_taken_whole_without_a_fit_is_passed_on_before_it_grows() {
        let exchange: ImageBufferExchange = Mutex::new(ExchangedBatches::new());
        assert!(exchange
            .lock()
            .unwrap()
            .push(free_buffers(&[1000; IMAGE_BUFFER_BATCH]))
            .is_none());
        let mut thread = FreeBuffers::new();
        assert!(take_from(&mut thread, &exchange, 100).is_none());
        assert_eq!(thread.len(), IMAGE_BUFFER_BATCH, "taken, none fitted");
        give_to(&mut thread, &exchange, vec![1; 100]);
        assert_eq!((thread.len(), thread.bytes), (1, 100));
        let batches = exchange.lock().unwrap();
        assert_eq!(batches.len(), 1);
        assert_eq!(
            batches.batches[0].len(),
            IMAGE_BUFFER_BATCH,
            "a batch never grows past its size"
        );
    }

    #[test]
    fn the_exchange_counts_its_batches_free_handles_and_lists() {
        let account = MemoryAccount::with_limit(0);
        let mut batch = FreeBuffers::with_batch_capacity();
        batch.push(Vec::with_capacity(16));
        for _ in 0..IMAGE_BUFFER_BATCH {
            batch.push_handle(Arc::new(MemoryImage {
                bytes: Vec::new(),
                charge: 0,
                account: account.clone(),
            }));
        }
        let lists = IMAGE_BUFFER_BATCH
            * (std::mem::size_of::<Vec<u8>>() + std::mem::size_of::<Arc<MemoryImage>>());
        let held = 16 + IMAGE_BUFFER_BATCH * FREE_HANDLE_BYTES + lists;
        assert_eq!(batch.held_bytes(), held);
        let mut exchange = ExchangedBatches::new();
        assert!(exchange.push(batch).is_none());
        assert_eq!(exchange.bytes, held, "not the 16 bytes of buffer alone");
        // Batches of handles fill the byte bound, not only the batch bound.
        let mut kept = 1;
        while kept < IMAGE_BUFFER_EXCHANGE_BATCHES_MAX {
            let mut batch = FreeBuffers::with_batch_capacity();
            batch.push(Vec::with_capacity(IMAGE_BUFFER_THREAD_BYTES_MAX / 2));
            batch.push_handle(Arc::new(MemoryImage {
                bytes: Vec::new(),
                charge: 0,
                account: account.clone(),
            }));
            if exchange.push(batch).is_some() {
                break;
            }
            kept += 1;
        }
        assert!(exchange.bytes <= IMAGE_BUFFER_EXCHANGE_BYTES_MAX);
        assert_eq!(exchange.bytes, exchange_held_bytes(&exchange));
        assert_eq!(exchange.pop().map(|batch| batch.handles.len()), Some(1));
        assert_eq!(exchange.bytes, exchange_held_bytes(&exchange));
    }

    /// The sum of the exchange's batches' held bytes, counted afresh.
    fn exchange_held_bytes(exchange: &ExchangedBatches) -> usize {
        exchange.batches.iter().map(FreeBuffers::held_bytes).sum()
    }

    /// A list of empty buffers of these capacities.
    fn free_buffers(capacities: &[usize]) -> FreeBuffers {
        let mut buffers = FreeBuffers::new();
        for &capacity in capacities {
            buffers.push(Vec::with_capacity(capacity));
        }
        buffers
    }

    #[test]
    fn dropping_the_last_holder_of_an_image_recycles_its_buffer_and_handle() {
        std::thread::spawn(|| {
            let account = MemoryAccount::with_limit(1 << 20);
            let image = account.try_hold(vec![5; 500]).unwrap();
            let address = image.bytes().as_ptr();
            let handle_address: *const MemoryImage = &*image;
            let second_holder = image.clone();
            drop(image);
            assert_eq!(image_buffers_held_by_this_thread(), 0, "still held");
            assert_eq!(image_handles_held_by_this_thread(), 0, "still held");
            assert_eq!(second_holder.bytes(), &[5; 500][..]);
            assert_eq!(account.held_bytes(), 500 + IMAGE_OVERHEAD_BYTES);
            drop(second_holder);
            assert_eq!(account.held_bytes(), 0, "the charge is given back once");
            assert_eq!(image_buffers_held_by_this_thread(), 1);
            assert_eq!(image_handles_held_by_this_thread(), 1);
            let reused = take_image_buffer(500);
            assert_eq!(reused.as_ptr(), address);
            let mut reused = reused;
            reused.extend_from_slice(&[6; 500]);
            let again = account.try_hold(reused).unwrap();
            assert_eq!(
                &*again as *const MemoryImage, handle_address,
                "the handle is reused"
            );
            assert_eq!(again.bytes(), &[6; 500][..]);
            assert_eq!(image_handles_held_by_this_thread(), 0);
            assert_eq!(account.held_bytes(), 500 + IMAGE_OVERHEAD_BYTES);
            drop(again);
            assert_eq!(account.held_bytes(), 0);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_recycled_handle_never_serves_a_live_image_and_charges_its_new_account() {
        std::thread::spawn(|| {
            let first_pool = MemoryAccount::with_limit(1 << 20);
            let second_pool = MemoryAccount::with_limit(1 << 20);
            let live = first_pool.try_hold(vec![1; 100]).unwrap();
            let gone = first_pool.try_hold(vec![2; 100]).unwrap();
            let gone_address: *const MemoryImage = &*gone;
            drop(gone);
            assert_eq!(image_handles_held_by_this_thread(), 1);
            // The free handle serves the next image, of another pool: that pool is charged.
            let next = second_pool.try_hold(vec![3; 100]).unwrap();
            assert_eq!(&*next as *const MemoryImage, gone_address);
            assert!(!next.ptr_eq(&live), "never the live image's handle");
            assert_eq!(live.bytes(), &[1; 100][..], "the live image is untouched");
            assert_eq!(first_pool.held_bytes(), 100 + IMAGE_OVERHEAD_BYTES);
            assert_eq!(second_pool.held_bytes(), 100 + IMAGE_OVERHEAD_BYTES);
            drop(next);
            drop(live);
            assert_eq!((first_pool.held_bytes(), second_pool.held_bytes()), (0, 0));
            // A thread keeps at most a batch of free handles.
            let images: Vec<HeldImage> = (0..2 * IMAGE_BUFFER_BATCH)
                .map(|_| first_pool.try_hold(vec![4; 100]).unwrap())
                .collect();
            drop(images);
            assert!(image_handles_held_by_this_thread() <= IMAGE_BUFFER_BATCH);
            assert_eq!(first_pool.held_bytes(), 0);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn holders_dropping_on_two_threads_at_once_give_the_charge_back_once() {
        let account = MemoryAccount::with_limit(1 << 30);
        for round in 0..2000u32 {
            let image = account.try_hold(round.to_le_bytes().to_vec()).unwrap();
            let other = image.clone();
            let barrier = Arc::new(std::sync::Barrier::new(2));
            let other_barrier = barrier.clone();
            let thread = std::thread::spawn(move || {
                other_barrier.wait();
                assert_eq!(other.bytes(), &round.to_le_bytes()[..]);
                drop(other);
            });
            barrier.wait();
            drop(image);
            thread.join().unwrap();
            assert_eq!(account.held_bytes(), 0, "round {round}");
        }
    }

    #[test]
    fn a_pool_allows_half_its_bytes() {
        let account = MemoryAccount::for_pool(1000);
        assert_eq!(account.limit_bytes(), 1000 * 4096 / 2);
        account.set_pool_buffers(200);
        assert_eq!(account.limit_bytes(), 200 * 4096 / 2);
        assert!(account.try_hold(vec![0; 400 * 1024]).is_err());
        assert!(account.try_hold(vec![0; 400 * 1024 - 64]).is_ok());
    }
}
