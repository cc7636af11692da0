//! Page set files (the analogue of MQ's VSAM linear data sets PSID00–PSID99).
//! CONTRACT STUB: to be implemented; signatures are the agreed interface.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::Expand;
use crate::error::StorageResult;
use crate::page::PageBytes;
use crate::types::{PageNumber, PageSetId, Rba};
use crate::vfs::FileSystem;

/// What page 0 of a page set records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageSetHeader {
    pub page_set: PageSetId,
    pub format_version: u32,
    /// Media recovery RBA: recovery of this page set from the log starts here.
    pub recovery_rba: Rba,
    /// Pages in the file, including page 0.
    pub page_count: u32,
    pub expansion_count: u32,
    /// Unique id of the queue manager that owns it (guards against a foreign page set).
    pub queue_manager_id: u64,
}

pub struct PageSet {
    _private: (),
}

impl PageSet {
    /// Create and format a page set file of `pages` pages (page 0 = header, rest zero).
    /// `progress(pages_done, pages_total)` is called as formatting proceeds.
    pub fn format(
        _fs: &dyn FileSystem,
        _path: &Path,
        _page_set: PageSetId,
        _pages: u32,
        _queue_manager_id: u64,
        _progress: &mut dyn FnMut(u64, u64),
    ) -> StorageResult<()> {
        todo!()
    }
    pub fn open(
        _fs: &dyn FileSystem,
        _path: &Path,
        _page_set: PageSetId,
        _expand: Expand,
        _secondary_pages: u32,
        _maximum_pages: u32,
    ) -> StorageResult<Arc<PageSet>> {
        todo!()
    }
    pub fn id(&self) -> PageSetId {
        todo!()
    }
    pub fn path(&self) -> PathBuf {
        todo!()
    }
    pub fn header(&self) -> PageSetHeader {
        todo!()
    }
    pub fn page_count(&self) -> u32 {
        todo!()
    }
    pub fn read_page(&self, _page: PageNumber, _into: &mut PageBytes) -> StorageResult<()> {
        todo!()
    }
    pub fn write_pages(&self, _first: PageNumber, _pages: &[&PageBytes]) -> StorageResult<()> {
        todo!()
    }
    pub fn sync(&self) -> StorageResult<()> {
        todo!()
    }
    pub fn expand(&self) -> StorageResult<u32> {
        todo!()
    }
    pub fn set_recovery_rba(&self, _rba: Rba) -> StorageResult<()> {
        todo!()
    }
}
