//! # ferrite-sharing
//!
//! Queue sharing groups, as MQ for z/OS has them (MP16 chapter 2), on existing engines:
//! **PostgreSQL** plays Db2, the group's shared repository (the group, its members, and the
//! definitions every member shares), and **Redis 7 or Valkey** plays the coupling facility.
//! The queue manager reaches its group only through `ferrite-queue-manager`'s
//! [`QueueSharingGroup`] trait, which [`Group`] implements; a queue manager outside a group
//! never opens either client.
//!
//! Layout of the crate:
//! - [`repository`]: the shared repository's tables (created by the first member, as
//!   CSQ5PQSG ADD QSG does) and the membership rows (ADD QMGR).
//! - [`coupling_facility`]: the connection to Redis and what it reports.
//! - [`group`]: a member's connection to its group, made at start ([`join`]).
//! - [`list_structure`]: shared queues' messages and units of work in a CF list structure.
//! - [`arrivals`]: the listener that wakes a member's waiting getters when a shared queue
//!   goes from empty to non-empty on any member.
//! - [`peer_recovery`]: members' leases, and the backout of a failed member's units of work
//!   by its peers.
//! - [`structure_state`]: structures' states and backups, and members' directories, in the
//!   repository (BACKUP and RECOVER CFSTRUCT; the queue manager's `cf_structure_recovery`
//!   reads the logs).
//!
//! Every failure carries MQ's reason code: MQRC_CF_NOT_AVAILABLE (2345) when the coupling
//! facility cannot be reached or is misconfigured, MQRC_CF_STRUC_FAILED (2373) when a
//! connection to it fails in use, MQRC_DB2_NOT_AVAILABLE (2342) for the repository.
//! docs/formats.md lists the tables and the Redis keys.

pub mod arrivals;
pub mod coupling_facility;
pub mod group;
pub mod list_structure;
pub mod peer_recovery;
pub mod repository;
pub mod structure_state;

pub use ferrite_queue_manager::{QueueSharingGroup, SharingError, SharingGroupMember};
pub use group::{add_member, join, remove_member, Group};

/// How long a connection to either server may take before the member gives up.
pub const CONNECT_TIMEOUT_MS: u64 = 5_000;

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    ferrite_queue_manager::now_ms()
}
