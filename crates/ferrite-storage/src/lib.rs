//! # ferrite-storage
//!
//! The storage engine of a Ferrite queue manager, built as IBM MQ for z/OS builds its own
//! (MP16 chapters 1 and 5): messages live in 4 KiB pages of page sets, cached in buffer pools
//! with a deferred write process; every persistent change is first written to a recovery log
//! (log buffers, single or dual active logs, archives, a bootstrap data set); checkpoints bound
//! restart work; restart runs MQ's four phases.
//!
//! Layout of the crate (one job per module):
//! - [`vfs`]: the file system interface; real and simulated (fault-injecting) implementations.
//! - [`config`]: queue manager parameters (LOGLOAD, OUTBUFF, WRTHRSH, TWOACTV, pools, page sets).
//! - [`page`]: the 4 KiB page and its checksummed header.
//! - [`page_set`]: page set files (header page, formatting, expansion).
//! - [`buffer_pool`]: buffer pools, page states, deferred write process, statistics (QPST*).
//! - [`log`]: the log manager: record framing, log buffers, writer, active and archive logs,
//!   the bootstrap data set, readers, statistics (QJST*).
//! - [`log_records`]: the log record formats: the data manager and the queue manager write
//!   them, restart reads them.
//! - [`data_manager`]: queues and messages laid out on pages, objects on page set 0.
//! - [`recovery`]: units of recovery, checkpoints and the four-phase restart.
//! - [`types`], [`error`]: the small value types and the error every module returns.
//!
//! ## The interface the queue manager builds on
//! The queue manager (`ferrite-queue-manager`: queues, units of work, objects, security)
//! stands above this crate and uses only its public items, chiefly:
//! - [`config::QueueManagerConfig`] (qm.toml) and a [`vfs::FileSystem`] to run on;
//! - [`log::LogManager`]: create and open the log, append and force records, checkpoints,
//!   archiving; [`log::retention`]: the registry of page set backups archive retention keeps;
//! - [`buffer_pool::BufferPool`], forcing the log through the [`buffer_pool::WriteAheadLog`]
//!   it is given; [`page_set::PageSet`]: format and open page set files;
//! - [`data_manager::DataManager`]: message and object slots on the page sets (put, get, free,
//!   the scan that finds them at restart); [`data_manager::message`]: the stored image and
//!   descriptor of a message; [`data_manager::memory`]: images held in memory;
//! - [`recovery::restart::recover`]: restart up to the end of backward recovery, and
//!   [`log_records`]: the unit-of-recovery records the queue manager writes.

pub mod buffer_pool;
pub mod config;
pub mod data_manager;
pub mod error;
pub mod layout;
pub mod log;
pub mod log_records;
pub mod page;
pub mod page_set;
pub mod recovery;
pub mod types;
pub mod vfs;

pub use error::{StorageError, StorageResult};
pub use types::{BufferPoolId, PageNumber, PageSetId, Rba, Urid};
