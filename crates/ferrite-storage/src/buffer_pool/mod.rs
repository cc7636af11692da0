//! Buffer pools. CONTRACT STUB: to be implemented; signatures are the agreed interface.

use std::sync::Arc;

use crate::error::StorageResult;
use crate::page::PageBytes;
use crate::page_set::PageSet;
use crate::types::{BufferPoolId, PageNumber, PageSetId, Rba};

/// The buffer manager asks the log manager to make the log durable through a page's RBA
/// before that page is written (the write-ahead rule).
pub trait WriteAheadLog: Send + Sync {
    /// Return once every log byte before `rba` is on stable storage.
    fn force_through(&self, rba: Rba) -> StorageResult<()>;
}

/// How an update changes a page.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PageChange {
    /// A logged (persistent) change whose log record starts at this RBA; the page RBA is set to it.
    Logged(Rba),
    /// A change that is not logged: the page holds non-persistent data only.
    NonPersistent,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferPoolStatistics {
    pub qpstnbuf: u64,
    pub qpstcbsl: u64,
    pub qpstcbs: u64,
    pub qpstgetp: u64,
    pub qpstgetn: u64,
    pub qpststw: u64,
    pub qpstrio: u64,
    pub qpstdwt: u64,
    pub qpsttpw: u64,
    pub qpstwio: u64,
    pub qpstimw: u64,
    pub qpstdmc: u64,
    pub qpststl: u64,
    pub qpststla: u64,
    pub qpstsos: u64,
}

pub struct BufferPool {
    _private: (),
}

/// A page pinned "in use". Dropping it releases the page (in use -> not in use).
pub struct PageGuard {
    _private: (),
}

impl PageGuard {
    pub fn read<R>(&self, _f: impl FnOnce(&PageBytes) -> R) -> R {
        todo!()
    }
    pub fn update<R>(&self, _change: PageChange, _f: impl FnOnce(&mut PageBytes) -> R) -> R {
        todo!()
    }
    pub fn page_number(&self) -> PageNumber {
        todo!()
    }
}

impl BufferPool {
    pub fn new(_id: BufferPoolId, _buffers: u32, _write_ahead: Arc<dyn WriteAheadLog>) -> Arc<BufferPool> {
        todo!()
    }
    pub fn id(&self) -> BufferPoolId {
        todo!()
    }
    pub fn attach(&self, _page_set: Arc<PageSet>) {
        todo!()
    }
    pub fn get_page(&self, _page_set: PageSetId, _page: PageNumber) -> StorageResult<PageGuard> {
        todo!()
    }
    pub fn get_new_page(&self, _page_set: PageSetId, _page: PageNumber) -> StorageResult<PageGuard> {
        todo!()
    }
    pub fn read_ahead(&self, _page_set: PageSetId, _pages: &[PageNumber]) {
        todo!()
    }
    pub fn checkpoint(&self, _checkpoint_sequence: u64) -> StorageResult<u64> {
        todo!()
    }
    pub fn flush_for_shutdown(&self) -> StorageResult<u64> {
        todo!()
    }
    pub fn recovery_rba(&self, _page_set: PageSetId) -> Option<Rba> {
        todo!()
    }
    pub fn discard_page_set(&self, _page_set: PageSetId) {
        todo!()
    }
    pub fn statistics(&self) -> BufferPoolStatistics {
        todo!()
    }
    pub fn reset_interval_statistics(&self) {
        todo!()
    }
    pub fn shutdown(&self) {
        todo!()
    }
}
