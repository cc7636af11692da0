//! Errors of the storage engine. Each says what happened, to which file or object, and carries
//! the MQ reason code an application or operator would see, where MQ has one.

use std::fmt;
use std::io;
use std::path::PathBuf;

use ferrite_constants::reason;

use crate::types::{PageNumber, PageSetId, Rba};

#[derive(Debug)]
pub enum StorageError {
    /// An I/O call failed on a named file.
    Io {
        path: PathBuf,
        operation: &'static str,
        source: io::Error,
    },
    /// A page failed its checksum or structural checks. It is never served.
    CorruptPage {
        page_set: PageSetId,
        page: PageNumber,
        path: PathBuf,
        detail: String,
    },
    /// A log record or log file is damaged.
    CorruptLog {
        path: PathBuf,
        rba: Rba,
        detail: String,
    },
    /// A bootstrap record (both copies) or a configuration file cannot be used.
    CorruptMetadata { path: PathBuf, detail: String },
    /// The page set is full and cannot expand (MQRC_STORAGE_MEDIUM_FULL, 2192).
    StorageMediumFull { page_set: PageSetId },
    /// Every active log is full and archiving has not freed one (updaters would wait forever).
    ActiveLogsFull { detail: String },
    /// A unit of recovery exceeded MAXUMSGS (MQRC_SYNCPOINT_LIMIT_REACHED, 2024).
    SyncpointLimitReached { limit: u32 },
    /// A configuration or request is not valid.
    Invalid { detail: String },
    /// The queue manager is stopping or has failed; the request was not done.
    Stopping,
    /// An MQ rule refused the request (queue full, put inhibited, unknown object, ...).
    Mq { reason: i32, detail: String },
}

pub type StorageResult<T> = Result<T, StorageError>;

impl StorageError {
    pub fn io(path: impl Into<PathBuf>, operation: &'static str, source: io::Error) -> Self {
        StorageError::Io {
            path: path.into(),
            operation,
            source,
        }
    }

    pub fn invalid(detail: impl Into<String>) -> Self {
        StorageError::Invalid {
            detail: detail.into(),
        }
    }

    pub fn mq(reason: i32, detail: impl Into<String>) -> Self {
        StorageError::Mq {
            reason,
            detail: detail.into(),
        }
    }

    /// The MQ reason code an application sees for this error.
    pub fn reason_code(&self) -> i32 {
        match self {
            StorageError::StorageMediumFull { .. } => reason::MQRC_STORAGE_MEDIUM_FULL,
            StorageError::SyncpointLimitReached { .. } => reason::MQRC_SYNCPOINT_LIMIT_REACHED,
            StorageError::Stopping => reason::MQRC_Q_MGR_STOPPING,
            StorageError::ActiveLogsFull { .. } => reason::MQRC_RESOURCE_PROBLEM,
            StorageError::Invalid { .. } => reason::MQRC_UNEXPECTED_ERROR,
            StorageError::Mq { reason, .. } => *reason,
            StorageError::Io { source, .. } if source.raw_os_error() == Some(libc::ENOSPC) => {
                reason::MQRC_STORAGE_MEDIUM_FULL
            }
            _ => reason::MQRC_RESOURCE_PROBLEM,
        }
    }
}

impl From<StorageError> for ferrite_mqi_types::MqError {
    /// The storage engine's errors carry the reason code an application sees (here, where
    /// `StorageError` is defined, so that the MQI's `?` turns one into the other).
    fn from(error: StorageError) -> ferrite_mqi_types::MqError {
        ferrite_mqi_types::MqError::failed(error.reason_code())
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Io {
                path,
                operation,
                source,
            } => {
                write!(f, "{operation} failed on {}: {source}", path.display())
            }
            StorageError::CorruptPage {
                page_set,
                page,
                path,
                detail,
            } => write!(
                f,
                "page set {page_set} page {page} in {} is damaged ({detail}); restore the page set \
                 from a backup and recover it from the log",
                path.display()
            ),
            StorageError::CorruptLog { path, rba, detail } => {
                write!(
                    f,
                    "log {} is damaged at RBA {rba} ({detail})",
                    path.display()
                )
            }
            StorageError::CorruptMetadata { path, detail } => {
                write!(f, "{} cannot be used: {detail}", path.display())
            }
            StorageError::StorageMediumFull { page_set } => write!(
                f,
                "page set {page_set} is full and cannot expand (MQRC_STORAGE_MEDIUM_FULL 2192)"
            ),
            StorageError::ActiveLogsFull { detail } => {
                write!(f, "all active logs are full: {detail}")
            }
            StorageError::SyncpointLimitReached { limit } => write!(
                f,
                "unit of recovery exceeded MAXUMSGS {limit} (MQRC_SYNCPOINT_LIMIT_REACHED 2024)"
            ),
            StorageError::Invalid { detail } => write!(f, "{detail}"),
            StorageError::Stopping => write!(
                f,
                "the queue manager is stopping (MQRC_Q_MGR_STOPPING 2162)"
            ),
            StorageError::Mq { reason, detail } => {
                let name = ferrite_constants::reason_name(*reason).unwrap_or("MQRC_UNKNOWN");
                write!(f, "{detail} ({name} {reason})")
            }
        }
    }
}

impl std::error::Error for StorageError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StorageError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
