//! The queue manager's view of its queue sharing group: a small trait that `ferrite-sharing`
//! implements over the group's coupling facility (Redis) and shared repository (PostgreSQL),
//! so that this crate, and everything built on it, needs neither client. A queue manager
//! outside a group has none attached ([`QueueManager::queue_sharing_group`] is `None`).
//!
//! [`QueueManager::queue_sharing_group`]: crate::QueueManager::queue_sharing_group

use std::fmt;

/// Most queue managers in one queue sharing group (MQ for z/OS: 32).
pub const QUEUE_SHARING_GROUP_MEMBERS_MAX: u32 = 32;

/// A member as the shared repository records it (DISPLAY GROUP).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharingGroupMember {
    /// The queue manager's name.
    pub name: String,
    /// Its number in the group (1-32), given when it joined.
    pub number: u32,
    /// Whether it is running and connected to the group now.
    pub active: bool,
    /// The Ferrite version that last started it.
    pub version: String,
    /// When it joined the group, milliseconds since the Unix epoch.
    pub joined_ms: u64,
}

/// A failure of the group's servers, with MQ's reason code: MQRC_CF_NOT_AVAILABLE (2345) and
/// MQRC_CF_STRUC_FAILED (2373) for the coupling facility, MQRC_DB2_NOT_AVAILABLE (2342) for
/// the shared repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharingError {
    pub reason: i32,
    pub text: String,
}

impl SharingError {
    pub fn new(reason: i32, text: impl Into<String>) -> SharingError {
        SharingError {
            reason,
            text: text.into(),
        }
    }
}

impl fmt::Display for SharingError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = ferrite_constants::reason::reason_name(self.reason).unwrap_or("MQRC_UNKNOWN");
        write!(formatter, "{} [reason {} {name}]", self.text, self.reason)
    }
}

impl std::error::Error for SharingError {}

/// The coupling facility as a connected member sees it (DISPLAY GROUP, DISPLAY CFSTATUS).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CouplingFacilityStatus {
    /// The server's name and version (`redis 7.0.15`, `valkey 8.0.1`).
    pub server: String,
    /// Memory the server uses now, bytes.
    pub used_bytes: u64,
    /// Its memory limit (`maxmemory`), bytes; 0 when it has none.
    pub limit_bytes: u64,
}

/// What the queue manager asks of its queue sharing group.
pub trait QueueSharingGroup: Send + Sync {
    /// The group's name (QSGNAME).
    fn name(&self) -> &str;
    /// This member's number in the group (1-32).
    fn member_number(&self) -> u32;
    /// Every member the shared repository records, in number order.
    fn members(&self) -> Result<Vec<SharingGroupMember>, SharingError>;
    /// The coupling facility's state, asked of it now.
    fn coupling_facility_status(&self) -> Result<CouplingFacilityStatus, SharingError>;
    /// This member stops: the repository records it inactive. Called once, by shutdown.
    fn leave(&self) -> Result<(), SharingError>;
}
