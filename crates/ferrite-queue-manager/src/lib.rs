//! # ferrite-queue-manager
//!
//! The queue manager of Ferrite, above its storage engine (`ferrite-storage`): the
//! [`QueueManager`] that the MQI layer (`ferrite-mqi`), the commands (`ferrite-command`) and
//! the server use, with the queues, the objects and the security checks of an MQ for z/OS
//! queue manager. The engine keeps pages, buffer pools, the log and restart's recovery; this
//! crate keeps what those pages hold: which queue a message is on, in which unit of work,
//! what each object is defined as, and who may connect.
//!
//! Layout of the crate:
//! - [`queue_manager`]: the queue manager itself: start (restart from the engine's log in
//!   MQ's four phases, then the queues and objects rebuilt from page set scans), local queues
//!   and their messages, delivery order and message groups, units of work, connections,
//!   checkpoints, and the buffer pools and page sets it defines at run time.
//! - [`objects`]: object definitions (QLOCAL, QMODEL, QALIAS, QREMOTE, CHANNEL, PROCESS,
//!   NAMELIST, STGCLASS, AUTHINFO, CHLAUTH, the QMGR object) and their stored images on page
//!   set 0.
//! - [`pubsub`]: publish/subscribe's topic tree: topic strings, wildcard matching and the
//!   attributes a topic inherits from the TOPIC objects above it.
//! - [`security`]: channel authentication (CHLAUTH), connection authentication (CONNAUTH),
//!   privileged users and the user registry.
//! - [`queue_sharing_group`]: the trait through which a member reaches its queue sharing
//!   group (implemented by `ferrite-sharing`).
//! - [`statistics`]: statistics records (SMF 115's QMST, QPST, QJST, QIS1) at each STATIME
//!   interval and on demand, the message manager's counters, and the statistics file.

pub mod objects;
pub mod pubsub;
pub mod queue_manager;
pub mod queue_sharing_group;
pub mod security;
pub mod statistics;

pub use objects::topic::TopicDefinition;
pub use objects::{
    AliasDefinition, AliasTargetType, AuthInfoDefinition, ChannelDefinition, DefinitionType,
    NamelistDefinition, ObjectDefinition, ObjectTimes, ObjectType, ProcessDefinition,
    QueueDefinition, QueueManagerAttributes, RemoteDefinition, StorageClassDefinition,
    ACCOUNTING_VALUES, COUNT_ATTRIBUTE_MAX, DEFAULT_DEAD_LETTER_QUEUE, KEEPALIVE_AUTO,
    MONITORING_VALUES, PROPERTY_CONTROL_VALUES, PUT_RESPONSE_VALUES, QMGR_ACCOUNTING_VALUES,
    QMGR_MONITORING_VALUES, QMGR_MQI_MONITORING_VALUES, READ_AHEAD_VALUES,
    SERVICE_INTERVAL_EVENT_VALUES, TRIGGER_DATA_LENGTH_MAX, TRIGGER_TYPE_VALUES,
};
pub use queue_manager::{
    now_ms, page_set_path, thread_number, ArrivalWaker, ArrivalWatch, ConfigurationChange,
    ConfigurationObserver, ConnectionRecord, Connections, ExpiryObserver, GetControls, GetOutcome,
    GroupMember, HandleRecord, LocalQueue, MessageData, MessageEntry, MessageKey, MessageSelector,
    MessageSink, MessageStorage, QueueIntervalStatistics, QueueManager, QueueStatistics,
    QueueStatus, RetrievedMessage, TimerObserver, UnitOfWork, CHECKPOINT_POLL_INTERVAL_MS,
    INDEX_BUILD_THREADS_MAX, READ_AHEAD_MESSAGES,
};
pub use queue_sharing_group::{
    BrowseCursor, RetrievedSharedMessage, SharedMessage, SharedSelection, IDENTIFIER_LENGTH,
};
pub use queue_sharing_group::{
    CfStructure, ConnectivityLoss, CouplingFacilityStatus, MemberRecovery, OffloadTarget,
    QueueSharingGroup, SharedQueueDefinition, SharingError, SharingGroupMember, StructureBackup,
    StructureMessage, StructureRecoveryStatus, StructureSnapshot, StructureState,
    ADMIN_STRUCTURE_NAME, CF_STRUCTURE_NAME_LENGTH_MAX, QUEUE_SHARING_GROUP_MEMBERS_MAX,
};
pub use security::{
    ConnectingUser, ConnectionAuthentication, CredentialCheck, LocalAuthentication, Principal,
};
