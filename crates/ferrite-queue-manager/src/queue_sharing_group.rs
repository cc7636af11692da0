//! The queue manager's view of its queue sharing group: a small trait that `ferrite-sharing`
//! implements over the group's coupling facility (Redis) and shared repository (PostgreSQL),
//! so that this crate, and everything built on it, needs neither client. A queue manager
//! outside a group has none attached ([`QueueManager::queue_sharing_group`] is `None`).
//!
//! [`QueueManager::queue_sharing_group`]: crate::QueueManager::queue_sharing_group

use std::fmt;

use crate::QueueDefinition;

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

/// Longest CF structure name (MQ: 12 characters, the application structure's part of the
/// CFRM name after the group's name).
pub const CF_STRUCTURE_NAME_LENGTH_MAX: usize = 12;

/// The administration structure every group has (DISPLAY CFSTATUS shows it as CFTYPE(ADMIN)).
pub const ADMIN_STRUCTURE_NAME: &str = "CSQ_ADMIN";

/// Where messages too large for the structure go (OFFLOAD).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffloadTarget {
    /// The shared repository (MQ: Db2).
    Db2,
    /// Shared message data sets.
    Smds,
}

/// What a member does when it loses its connection to the structure (CFCONLOS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectivityLoss {
    Terminate,
    Tolerate,
    AsQueueManager,
}

/// A CF application structure's definition (DEFINE CFSTRUCT), a group object kept in the
/// shared repository. Sizes are in KiB; thresholds in percent of the structure full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfStructure {
    pub name: String,
    pub description: String,
    /// CFLEVEL 1-5 (5: every function, offload included).
    pub level: u8,
    /// RECOVER: persistent messages may be put, and BACKUP CFSTRUCT backs them up.
    pub recover: bool,
    pub offload: OffloadTarget,
    /// OFFLD1TH/OFFLD1SZ ... OFFLD3TH/OFFLD3SZ: at threshold% full, messages larger than the
    /// size (KiB) are offloaded.
    pub offload_rules: [(u8, u32); 3],
    /// DSGROUP: the shared message data sets' name pattern (blank: none).
    pub data_set_group: String,
    /// DSBLOCK in KiB (8-1024, a power of two).
    pub data_set_block_kib: u32,
    /// DSBUFS (1-9999).
    pub data_set_buffers: u32,
    /// DSEXPAND.
    pub data_set_expand: bool,
    pub connectivity_loss: ConnectivityLoss,
    /// RECAUTO: recover the structure automatically after a failure.
    pub recover_automatically: bool,
    pub created_ms: u64,
    pub altered_ms: u64,
}

impl CfStructure {
    /// A new structure with MQ's defaults.
    pub fn new(name: &str) -> CfStructure {
        CfStructure {
            name: name.to_string(),
            description: String::new(),
            level: 5,
            recover: false,
            offload: OffloadTarget::Db2,
            offload_rules: [(70, 32), (80, 4), (90, 0)],
            data_set_group: String::new(),
            data_set_block_kib: 256,
            data_set_buffers: 100,
            data_set_expand: true,
            connectivity_loss: ConnectivityLoss::AsQueueManager,
            recover_automatically: true,
            created_ms: 0,
            altered_ms: 0,
        }
    }
}

/// A shared local queue (QSGDISP(SHARED)): a group object kept in the shared repository, so
/// every member sees the same definition; its messages live in the CF list structure it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedQueueDefinition {
    /// CFSTRUCT: the structure that holds the queue's messages.
    pub structure: String,
    pub queue: QueueDefinition,
}

/// What a member's restart found of its shared work ([`QueueSharingGroup::recover_member`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberRecovery {
    /// Units left staged on a structure (by a crash), backed out.
    pub units_backed_out: usize,
    /// In-doubt units of recovery whose shared half committed: they commit.
    pub commit: Vec<String>,
    /// In-doubt units of recovery whose shared half did not commit: they back out.
    pub backout: Vec<String>,
}

/// MSGID and CORRELID length (MQ_MSG_ID_LENGTH, MQ_CORREL_ID_LENGTH).
pub const IDENTIFIER_LENGTH: usize = 24;

/// One message on a shared queue as the CF list structure keeps it: the data is opaque to
/// the structure (the member's encoded descriptor and data).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedMessage {
    /// 0-9.
    pub priority: u8,
    pub message_id: [u8; IDENTIFIER_LENGTH],
    pub correlation_id: [u8; IDENTIFIER_LENGTH],
    pub data: Vec<u8>,
}

/// A message a get or browse of a shared queue returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetrievedSharedMessage {
    /// Its entry: the number its structure gave it, never given again (the member's log
    /// names it so).
    pub entry: u64,
    pub message: SharedMessage,
    /// How often a unit of work that got it was backed out.
    pub backout_count: u32,
    /// Where a browse goes on from.
    pub cursor: BrowseCursor,
}

/// A browse position in a shared queue: the structure's score of the last entry seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrowseCursor(pub u64);

impl BrowseCursor {
    /// Before the first message.
    pub const START: BrowseCursor = BrowseCursor(0);
}

/// A CF application structure's state in the group (DISPLAY CFSTATUS STATUS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructureState {
    /// Defined, never used: the first member that uses it allocates it.
    NeverUsed,
    Active,
    /// Lost (the coupling facility restarted empty or was flushed); RECOVER(YES) structures
    /// stay failed until RECOVER CFSTRUCT.
    Failed,
    /// Rebuilt by RECOVER CFSTRUCT.
    Recovered,
}

impl StructureState {
    /// The name DISPLAY CFSTATUS shows.
    pub fn name(self) -> &'static str {
        match self {
            StructureState::NeverUsed => "NEVERUSED",
            StructureState::Active => "ACTIVE",
            StructureState::Failed => "FAILED",
            StructureState::Recovered => "RECOVERED",
        }
    }
}

/// The last backup of a structure (BACKUP CFSTRUCT), as the shared repository records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureBackup {
    /// The member whose log holds it.
    pub member: String,
    /// Its log range: the first CF BACKUP record and the end of the CF BACKUP END record.
    pub start_rba: u64,
    pub end_rba: u64,
    /// When it began, milliseconds since the Unix epoch: recovery replays every member's
    /// shared queue records logged from then on.
    pub taken_ms: u64,
    pub messages: u64,
    pub bytes: u64,
}

/// A structure's recovery state (DISPLAY CFSTATUS).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureRecoveryStatus {
    pub state: StructureState,
    /// When it was found failed (ms since the Unix epoch), while it is failed or recovered.
    pub failed_ms: Option<u64>,
    pub backup: Option<StructureBackup>,
}

/// One message of a structure as a snapshot or a recovery sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructureMessage {
    pub queue: String,
    pub entry: u64,
    pub backout_count: u32,
    pub message: SharedMessage,
}

/// A structure's committed messages (those hidden by a unit's uncommitted get included) and
/// its entry counter, read queue by queue (a fuzzy snapshot, as MQ's backup is: the log
/// records logged from before its start make it exact).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructureSnapshot {
    pub entries: u64,
    pub messages: Vec<StructureMessage>,
}

/// Which message a get or browse of a shared queue wants (MQMO_MATCH_MSG_ID,
/// MQMO_MATCH_CORREL_ID).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedSelection {
    First,
    MessageId([u8; IDENTIFIER_LENGTH]),
    CorrelationId([u8; IDENTIFIER_LENGTH]),
    Both([u8; IDENTIFIER_LENGTH], [u8; IDENTIFIER_LENGTH]),
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
    /// Store a new structure definition (MQRC_OBJECT_ALREADY_EXISTS when it exists and not
    /// `replace`).
    fn define_structure(&self, structure: &CfStructure, replace: bool) -> Result<(), SharingError>;
    /// Replace an existing structure's definition (MQRC_UNKNOWN_OBJECT_NAME when absent).
    fn alter_structure(&self, structure: &CfStructure) -> Result<(), SharingError>;
    /// Delete a structure's definition (MQRC_UNKNOWN_OBJECT_NAME when absent).
    fn delete_structure(&self, name: &str) -> Result<(), SharingError>;
    /// Every structure defined in the group, by name.
    fn structures(&self) -> Result<Vec<CfStructure>, SharingError>;
    /// Store a shared queue's definition (MQRC_OBJECT_ALREADY_EXISTS when it exists and not
    /// `replace`).
    fn define_shared_queue(
        &self,
        definition: &SharedQueueDefinition,
        replace: bool,
    ) -> Result<(), SharingError>;
    /// Delete a shared queue's definition (MQRC_UNKNOWN_OBJECT_NAME when absent).
    fn delete_shared_queue(&self, name: &str) -> Result<(), SharingError>;
    /// Every shared queue defined in the group, by name.
    fn shared_queues(&self) -> Result<Vec<SharedQueueDefinition>, SharingError>;
    /// Put a message on the shared queue `queue` of `structure`, visible at once; its entry.
    fn put_shared(
        &self,
        structure: &str,
        queue: &str,
        message: &SharedMessage,
    ) -> Result<u64, SharingError>;
    /// Get (remove) the first message of `queue` that `selection` matches, if any.
    fn get_shared(
        &self,
        structure: &str,
        queue: &str,
        selection: SharedSelection,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError>;
    /// The first message of `queue` after `after` that `selection` matches, left in place.
    fn browse_shared(
        &self,
        structure: &str,
        queue: &str,
        selection: SharedSelection,
        after: BrowseCursor,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError>;
    /// The visible messages of the shared queue `queue` of `structure` (CURDEPTH).
    fn shared_queue_depth(&self, structure: &str, queue: &str) -> Result<u64, SharingError>;
    /// Stage a put in this member's unit of work `unit` on `structure`: invisible until
    /// [`QueueSharingGroup::commit_shared`]; the entry it will have.
    fn put_shared_in_unit(
        &self,
        structure: &str,
        unit: &str,
        queue: &str,
        message: &SharedMessage,
    ) -> Result<u64, SharingError>;
    /// Get the first message `selection` matches in this member's unit `unit`: hidden from
    /// every other getter at once, removed at commit, restored at backout.
    fn get_shared_in_unit(
        &self,
        structure: &str,
        unit: &str,
        queue: &str,
        selection: SharedSelection,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError>;
    /// Apply every staged change of this member's unit `unit` on `structure` at once.
    fn commit_shared(&self, structure: &str, unit: &str) -> Result<(), SharingError>;
    /// Undo this member's unit `unit` on `structure`.
    fn backout_shared(&self, structure: &str, unit: &str) -> Result<(), SharingError>;
    /// Two-phase commit of a unit of work with private and shared work, step 1: mark this
    /// member's unit of recovery `urid` prepared, its shared half being `unit` (before the
    /// private half's PREPARE is logged).
    fn prepare_mixed(&self, urid: &str, unit: &str) -> Result<(), SharingError>;
    /// Step 3: commit the shared half `unit` on `structure`, recording in the same atomic
    /// step that `urid`'s private half must commit.
    fn commit_shared_deciding(
        &self,
        structure: &str,
        unit: &str,
        urid: &str,
    ) -> Result<(), SharingError>;
    /// Whether the group records the decision to commit `urid` (after a failed step 3, whose
    /// outcome the caller does not know).
    fn mixed_decided(&self, urid: &str) -> Result<bool, SharingError>;
    /// The private half of `urid` ended (committed or backed out): forget its marks.
    fn forget_mixed(&self, urid: &str) -> Result<(), SharingError>;
    /// This member starts again: back out the units it left staged in every structure, and
    /// say which of its in-doubt units of recovery (`in_doubt`, URIDs as text) commit and
    /// which back out; the marks of URIDs not in doubt are dropped.
    fn recover_member(&self, in_doubt: &[String]) -> Result<MemberRecovery, SharingError>;
    /// The arrivals (0 -> 1 transitions, on any member) counted on the shared queue `queue`
    /// so far: a waiting getter reads it before it looks at the structure.
    fn arrivals_seen(&self, queue: &str) -> u64;
    /// Wait until an arrival on `queue` after `seen` or `timeout`; true when the getter should
    /// look again.
    fn wait_for_arrival(&self, queue: &str, seen: u64, timeout: std::time::Duration) -> bool;
    /// This member stops: the repository records it inactive. Called once, by shutdown.
    fn leave(&self) -> Result<(), SharingError>;
    /// Record where this member's data directory (and so its log) is, for structure recovery
    /// run by any member.
    fn record_member_directory(&self, directory: &std::path::Path) -> Result<(), SharingError>;
    /// Every member's data directory as recorded (members that never recorded one omitted).
    fn member_directories(&self) -> Result<Vec<(String, std::path::PathBuf)>, SharingError>;
    /// The recovery state and last backup of `structure` (MQRC_UNKNOWN_OBJECT_NAME when it is
    /// not defined).
    fn structure_recovery_status(
        &self,
        structure: &str,
    ) -> Result<StructureRecoveryStatus, SharingError>;
    /// Read `structure`'s committed messages (BACKUP CFSTRUCT).
    fn snapshot_structure(&self, structure: &str) -> Result<StructureSnapshot, SharingError>;
    /// Record `backup` as `structure`'s last.
    fn record_backup(&self, structure: &str, backup: &StructureBackup) -> Result<(), SharingError>;
    /// Allocate `structure` anew holding exactly `snapshot`'s messages, its entry counter at
    /// least `snapshot.entries`, and record it RECOVERED (RECOVER CFSTRUCT).
    fn restore_structure(
        &self,
        structure: &str,
        snapshot: &StructureSnapshot,
    ) -> Result<(), SharingError>;
}
