//! The log manager. CONTRACT STUB: to be implemented; signatures are the agreed interface.

use std::path::Path;
use std::sync::Arc;

use crate::config::{ArchiveParameters, LogParameters};
use crate::error::StorageResult;
use crate::types::Rba;
use crate::vfs::FileSystem;

/// One record read back from the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRecord {
    pub rba: Rba,
    /// RBA just past this record.
    pub end_rba: Rba,
    pub kind: u8,
    pub payload: Vec<u8>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogStatistics {
    pub qjstwrw: u64,
    pub qjstwrnw: u64,
    pub qjstwrf: u64,
    pub qjstwtb: u64,
    pub qjstbffl: u64,
    pub qjstbfwr: u64,
    pub qjstlogw: [u64; 2],
    pub qjstciof: u64,
    pub qjstllcp: u64,
    pub qjstbsds: u64,
    pub qjstlsus: u64,
    pub qjstalr: u64,
    pub qjstalw: u64,
    pub bytes_written: [u64; 2],
    pub write_ios: [u64; 2],
}

/// Checkpoint location recorded in the BSDS.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CheckpointLocation {
    pub begin_rba: Rba,
    pub end_rba: Rba,
}

pub struct LogManager {
    _private: (),
}

pub struct LogReader {
    _private: (),
}

impl Iterator for LogReader {
    type Item = StorageResult<LogRecord>;
    fn next(&mut self) -> Option<Self::Item> {
        todo!()
    }
}

impl LogManager {
    pub fn create(_fs: Arc<dyn FileSystem>, _directory: &Path, _log: &LogParameters, _archive: &ArchiveParameters) -> StorageResult<()> {
        todo!()
    }
    pub fn open(_fs: Arc<dyn FileSystem>, _directory: &Path, _log: &LogParameters, _archive: &ArchiveParameters) -> StorageResult<Arc<LogManager>> {
        todo!()
    }
    pub fn append(&self, _kind: u8, _parts: &[&[u8]]) -> StorageResult<(Rba, Rba)> {
        todo!()
    }
    pub fn force(&self, _through: Rba) -> StorageResult<()> {
        todo!()
    }
    pub fn end_rba(&self) -> Rba {
        todo!()
    }
    pub fn durable_rba(&self) -> Rba {
        todo!()
    }
    pub fn read_forward(&self, _from: Rba) -> StorageResult<LogReader> {
        todo!()
    }
    pub fn last_checkpoint(&self) -> Option<CheckpointLocation> {
        todo!()
    }
    pub fn checkpoint_history(&self) -> Vec<CheckpointLocation> {
        todo!()
    }
    pub fn record_checkpoint(&self, _location: CheckpointLocation) -> StorageResult<()> {
        todo!()
    }
    pub fn take_checkpoint_request(&self) -> bool {
        todo!()
    }
    pub fn archive_log(&self) -> StorageResult<()> {
        todo!()
    }
    pub fn statistics(&self) -> LogStatistics {
        todo!()
    }
    pub fn shutdown(&self) -> StorageResult<()> {
        todo!()
    }
}
