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
//! - [`data_manager`]: queues and messages laid out on pages, objects on page set 0.
//! - [`recovery`]: units of recovery, checkpoints and the four-phase restart.
//! - [`queue_manager`]: the facade the MQI layer uses.

pub mod buffer_pool;
pub mod config;
pub mod data_manager;
pub mod error;
pub mod layout;
pub mod log;
pub mod page;
pub mod page_set;
pub mod queue_manager;
pub mod recovery;
pub mod types;
pub mod users;
pub mod vfs;

pub use error::{StorageError, StorageResult};
pub use types::{BufferPoolId, PageNumber, PageSetId, Rba, Urid};
