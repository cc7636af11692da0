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
//! 4 KiB), counted as each image's length plus [`IMAGE_OVERHEAD_BYTES`]. A put that would pass
//! the limit places its message on data pages as before (and, like MQ's, those pages are
//! written to the page set only when the pool steals their buffers), so a deep queue still
//! spills to its page set, fills it (MQRC_STORAGE_MEDIUM_FULL) and reads ahead when drained.
//! The decision is made per message at put: a message stays where it was put, and once gets
//! have freed memory the next puts are held in memory again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::page::PAGE_SIZE;

/// Share of a buffer pool's bytes that in-memory non-persistent images may hold.
pub const NONPERSISTENT_MEMORY_PERCENT_OF_POOL: u64 = 50;

/// Bytes counted for each image beyond its length (its allocation and the shared handle).
pub const IMAGE_OVERHEAD_BYTES: u64 = 64;

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

    /// Hold `image` in memory if the limit allows; otherwise hand it back for the pages.
    pub fn try_hold(self: &Arc<Self>, image: Vec<u8>) -> Result<MemoryImage, Vec<u8>> {
        let charge = image.len() as u64 + IMAGE_OVERHEAD_BYTES;
        let before = self.held_bytes.fetch_add(charge, Ordering::Relaxed);
        if before + charge > self.limit_bytes() {
            self.held_bytes.fetch_sub(charge, Ordering::Relaxed);
            return Err(image);
        }
        Ok(MemoryImage {
            bytes: image,
            charge,
            account: self.clone(),
        })
    }
}

/// One message's image held in memory; dropping it gives its bytes back to the account.
pub struct MemoryImage {
    bytes: Vec<u8>,
    charge: u64,
    account: Arc<MemoryAccount>,
}

impl MemoryImage {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The image's buffer, moved out (the account is credited as the holder ends).
    pub fn into_bytes(mut self) -> Vec<u8> {
        std::mem::take(&mut self.bytes)
    }
}

impl Drop for MemoryImage {
    fn drop(&mut self) {
        let before = self
            .account
            .held_bytes
            .fetch_sub(self.charge, Ordering::Relaxed);
        assert!(before >= self.charge, "in-memory image charges balance");
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
        let bytes = second.into_bytes();
        assert_eq!(bytes, vec![2; 100]);
        assert_eq!(account.held_bytes(), 0);
        assert!(account.try_hold(vec![4; 100]).is_ok());
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
