//! The queue manager: the facade over the storage engine (`ferrite-storage`) that the MQI
//! layer and the command line use. It owns the log manager, the buffer pools, the page sets
//! and the data manager, keeps local queues in memory, runs units of recovery, takes
//! checkpoints and restarts (restart.rs).
//!
//! Data directory of a queue manager (created on first use; the files named are
//! `ferrite-storage`'s):
//! ```text
//! qm.toml            configuration (config.rs)
//! QMID               16 hex digits: the queue manager's unique id, also in every page set header
//! bsds/BSDS01, BSDS02 the dual bootstrap data set          (log/bsds.rs)
//! active/LOGCOPYn.DSmm active log files                    (log/active.rs)
//! archive/           archive logs                          (log/archive.rs)
//! pagesets/PSIDnn.pageset page set files                   (page_set.rs)
//! ```

pub mod buffer_pool_resizes;
pub mod cf_structure_recovery;
pub mod connections;
pub mod delivery_order;
pub mod groups;
pub mod hashing;
pub mod message_data;
mod open_directories;
pub mod page_set_errors;
pub mod queue;
mod restart;
pub mod storage_definitions;
pub mod unit_of_work;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ferrite_constants::reason;

use ferrite_storage::buffer_pool::{BufferPool, BufferPoolStatistics, WriteAheadLog};
use ferrite_storage::config::{QueueManagerConfig, CONFIG_FILE_NAME};
use ferrite_storage::data_manager::memory::recycle_image_buffer;
use ferrite_storage::data_manager::message::{
    decode_descriptor, encode_image, encode_image_head, ImageParts, MessageDescriptor,
};
use ferrite_storage::data_manager::{
    DataManager, PageSetSpace, SlotEffect, SLOT_KIND_MESSAGE, SLOT_KIND_OBJECT,
};
use ferrite_storage::error::{StorageError, StorageResult};
use ferrite_storage::log::{CheckpointLocation, LogManager, LogStatistics};
use ferrite_storage::log_records::{
    encode_urid, kind, BackoutRecord, CheckpointRecord, GetRecord, MessageLocation, UrOperation,
    UrReference, UrSnapshot, UrState,
};
use ferrite_storage::page_set::PageSet;
use ferrite_storage::types::{BufferPoolId, PageSetId, Rba, Urid};
use ferrite_storage::vfs::{FileSystem, OpenMode};

use crate::objects::{
    ChannelDefinition, DefinitionType, ObjectDefinition, ObjectTimes, ObjectType, QueueDefinition,
    QueueManagerAttributes,
};
use crate::security::ConnectionAuthentication;
pub use connections::{thread_number, ConnectionRecord, Connections, HandleRecord};
pub use groups::GroupMember;
pub use message_data::MessageData;
pub use queue::{
    ArrivalWaker, ArrivalWatch, LocalQueue, MessageEntry, MessageKey, MessageSelector,
    MessageStorage, QueueIntervalStatistics, QueueStatistics, QueueStatus,
};
pub use unit_of_work::UnitOfWork;

/// Where operator messages (CSQR001I and friends) go.
pub type MessageSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Messages whose pages a sequential get asks the buffer pool to read ahead.
pub const READ_AHEAD_MESSAGES: usize = 8;

/// How often the checkpoint task looks at LOGLOAD and log switches.
pub const CHECKPOINT_POLL_INTERVAL_MS: u64 = 20;
/// Most threads building indexes in the background after a restart with QINDXBLD(NOWAIT) (MQ:
/// "a maximum of 10").
pub const INDEX_BUILD_THREADS_MAX: usize = 10;

/// The page set file of page set `id` inside a data directory.
pub fn page_set_path(directory: &Path, id: u8) -> PathBuf {
    directory
        .join("pagesets")
        .join(format!("PSID{id:02}.pageset"))
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// LPUTDATE/LPUTTIME for a put that becomes visible: the time MQPUT stamped on it, without
/// another clock read; the clock only for a put without one (`stamped` 0: restart's in-doubt
/// puts), read once into `now` for all such puts of one commit.
fn last_put_time_ms(stamped: u64, now: &mut Option<u64>) -> u64 {
    match stamped {
        0 => *now.get_or_insert_with(now_ms),
        stamped => stamped,
    }
}

struct LogForcer(Arc<LogManager>);

impl WriteAheadLog for LogForcer {
    /// The buffer pool names the *start* of the last record applied to a page; the log can be
    /// durable part-way into a long record, so force everything appended so far, which
    /// certainly includes that whole record.
    fn force_through(&self, _rba: Rba) -> StorageResult<()> {
        self.0.force(self.0.end_rba())
    }
}

/// A unit of recovery's operations as checkpoints see them.
pub(crate) struct UrRecord {
    pub state: UrState,
    pub operations: Vec<UrOperation>,
}

/// A message got by a unit of work, with its queue (restored on backout).
pub(crate) struct PendingGet {
    pub queue: Arc<LocalQueue>,
    pub entry: MessageEntry,
    /// Got with MQGMO_MARK_SKIP_BACKOUT: a backout leaves it got, in a new unit of work.
    pub skip_backout: bool,
}

/// A message put by a unit of work (made available on commit).
pub(crate) struct PendingPut {
    pub queue: Arc<LocalQueue>,
    pub entry: MessageEntry,
    /// When MQPUT ran (the descriptor's put time), for LPUTDATE/LPUTTIME at commit; 0 when
    /// not known (restart's in-doubt puts), and the commit reads the clock instead.
    pub put_time_ms: u64,
}

/// What the MQI asks of a get beyond a selector and a wait ([`QueueManager::get_with`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GetControls {
    /// MQGMO_FAIL_IF_QUIESCING: a waiting get ends when [`QueueManager::quiesce`] is called
    /// (MQRC_Q_MGR_QUIESCING), and none starts once the queue manager is quiescing.
    pub fail_if_quiescing: bool,
    /// MQGMO_SYNCPOINT_IF_PERSISTENT: the unit of work given takes the message only if it is
    /// persistent; a non-persistent message is got outside it.
    pub syncpoint_if_persistent: bool,
    /// Without MQGMO_ACCEPT_TRUNCATED_MSG: a message whose data is longer than this stays on
    /// the queue (MQRC_TRUNCATED_MSG_FAILED) and is returned as [`GetOutcome::LeftOnQueue`].
    pub leave_if_longer_than: Option<usize>,
    /// The object handle's lock holder (MQGMO_LOCK): messages other handles locked are
    /// invisible; 0 ([`queue::NO_LOCK_HOLDER`]) sees no locked message.
    pub lock_holder: u64,
    /// MQGMO_MARK_SKIP_BACKOUT: the message, got in the unit of work given, is not backed
    /// out by [`QueueManager::backout`] but stays got in the unit's next unit of work. One
    /// marked message per unit of work (MQRC_SECOND_MARK_NOT_ALLOWED).
    pub mark_skip_backout: bool,
}

/// Called with every expired message the queue manager discards (at get, and by the expiry
/// scan), after it is gone: the MQI sends the expiration reports it asks for.
pub type ExpiryObserver = Arc<dyn Fn(&QueueManager, &LocalQueue, &RetrievedMessage) + Send + Sync>;

/// Called by the queue manager's background task every [`CHECKPOINT_POLL_INTERVAL_MS`] (later
/// while a checkpoint or expiry scan runs): the MQI's timers (the queue service timer's High
/// events) run here rather than on a thread of their own.
pub type TimerObserver = Arc<dyn Fn(&QueueManager) + Send + Sync>;

/// A change an application's MQI call made to an object (MQSET, or MQCLOSE deleting a
/// permanent dynamic queue), for the configuration events the command layer puts.
#[derive(Clone, Debug)]
pub struct ConfigurationChange {
    /// The definition before the call.
    pub before: ObjectDefinition,
    /// Its CRDATE ... ALTTIME before the call.
    pub before_times: ObjectTimes,
    /// The definition after it; `None` when the call deleted the object.
    pub after: Option<ObjectDefinition>,
    /// MQEVO_*: MQEVO_MQSET, or MQEVO_OTHER for MQCLOSE.
    pub origin: i32,
    /// The connection's user (at most 12 characters).
    pub user_id: String,
}

/// Called with every [`ConfigurationChange`] after it is made (set once, by the command layer,
/// which owns the configuration events' format).
pub type ConfigurationObserver =
    Arc<dyn Fn(&Arc<QueueManager>, &ConfigurationChange) + Send + Sync>;

/// The result of [`QueueManager::get_with`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GetOutcome {
    /// The message was got (inside the unit of work when `in_unit_of_work`).
    Got {
        message: RetrievedMessage,
        in_unit_of_work: bool,
    },
    /// The first matching message was longer than `leave_if_longer_than`; it is still on the
    /// queue, in its place.
    LeftOnQueue(RetrievedMessage),
    /// No matching message arrived within the wait.
    NoMessage,
}

/// MQRC_Q_MGR_QUIESCING, for a get with `fail_if_quiescing` while the queue manager quiesces.
fn quiescing_error() -> StorageError {
    StorageError::mq(
        reason::MQRC_Q_MGR_QUIESCING,
        "the queue manager is quiescing",
    )
}

/// A got message's image: read from its pages, or shared with its in-memory entry.
enum GotImage {
    Read(Vec<u8>),
    Memory(ferrite_storage::data_manager::memory::HeldImage),
}

impl GotImage {
    fn bytes(&self) -> &[u8] {
        match self {
            GotImage::Read(image) => image,
            GotImage::Memory(image) => image.bytes(),
        }
    }

    /// The message data after the descriptor (`data_offset`), not copied: a view of the
    /// image read from pages past its descriptor, or of the in-memory image (shared with the
    /// unit of work that keeps it for a backout, or the last holder of it).
    fn into_data(self, data_offset: usize) -> MessageData {
        match self {
            GotImage::Read(image) => MessageData::read(image, data_offset),
            GotImage::Memory(shared) => MessageData::shared(shared, data_offset),
        }
    }
}

/// A message as a get or browse returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetrievedMessage {
    pub descriptor: MessageDescriptor,
    /// The data, read in place from an in-memory image when it is one (`message_data.rs`).
    pub data: MessageData,
    pub backout_count: u16,
    pub key: MessageKey,
}

pub struct QueueManager {
    name: String,
    directory: PathBuf,
    config: QueueManagerConfig,
    identity: u64,
    log: Arc<LogManager>,
    /// The buffer pools serving now (DEFINE BUFFPOOL adds one at run time).
    pools: RwLock<Vec<Arc<BufferPool>>>,
    /// qm.toml as it is now: the startup configuration plus the DEFINE/ALTER/DELETE BUFFPOOL
    /// and PSID done since (storage_definitions.rs); `config` stays as started.
    pub(crate) configuration: Mutex<QueueManagerConfig>,
    /// ALTER BUFFPOOL requests: their order, the one resizing (buffer_pool_resizes.rs).
    buffer_pool_resizes: buffer_pool_resizes::BufferPoolResizes,
    data: Arc<DataManager>,
    queues: RwLock<HashMap<String, Arc<LocalQueue>>>,
    queues_by_id: RwLock<HashMap<u32, Arc<LocalQueue>>>,
    /// Every stored object that is not a local queue, by type and name, with its object id.
    definitions: RwLock<BTreeMap<(ObjectType, String), (u32, ObjectDefinition)>>,
    /// Where each object's definition is stored on page set 0: (location, sequence).
    object_locations: Mutex<HashMap<u32, (MessageLocation, u64)>>,
    /// Each object's CRDATE/CRTIME and ALTDATE/ALTTIME, by object id (stored in its image;
    /// temporary dynamic queues' only here). Written under `object_locations`.
    object_times: Mutex<HashMap<u32, ObjectTimes>>,
    next_message_sequence: AtomicU64,
    next_object_id: AtomicU32,
    pub(crate) units_of_recovery: Mutex<HashMap<Urid, Arc<Mutex<UrRecord>>>>,
    /// Units of recovery left in doubt by restart, waiting for their coordinator.
    in_doubt: Mutex<HashMap<Urid, UnitOfWork>>,
    /// Held shared by every logged unit-of-recovery step, exclusively while a checkpoint takes
    /// its snapshot, so a checkpoint sees each UR either before or after each step.
    pub(crate) checkpoint_gate: RwLock<()>,
    checkpoint_sequence: Mutex<u64>,
    checkpoints_taken: AtomicU64,
    stopping: AtomicBool,
    /// STOP QMGR MODE(QUIESCE) has begun: calls with FAIL_IF_QUIESCING are refused.
    quiescing: AtomicBool,
    failed: AtomicBool,
    /// Page set write errors: reported as CSQP004E (see `page_set_errors`).
    page_set_errors: Arc<page_set_errors::PageSetErrorReporter>,
    /// Consecutive checkpoints whose page writes failed.
    failed_checkpoints: AtomicU64,
    /// The last checkpoint failed only because page set writes failed (the log is fine).
    checkpoint_failed_in_page_writes: AtomicBool,
    /// The file system (archive retention reads the page set backup registry through it).
    pub(crate) fs: Arc<dyn FileSystem>,
    checkpoint_task: Mutex<Option<JoinHandle<()>>>,
    messages: MessageSink,
    /// The connections (DISPLAY CONN).
    connections: Connections,
    /// STATIME and the statistics interval (statistics/mod.rs).
    statistics: crate::statistics::StatisticsState,
    /// Told of every expired message discarded (set once, by the MQI layer).
    expiry_observer: std::sync::OnceLock<ExpiryObserver>,
    /// Told at each poll of the background task (set once, by the MQI layer).
    timer_observer: std::sync::OnceLock<TimerObserver>,
    /// Told of object changes made by MQI calls (set once, by the command layer).
    configuration_observer: std::sync::OnceLock<ConfigurationObserver>,
    /// The queue sharing group this queue manager is a member of (attached once at start).
    queue_sharing_group: std::sync::OnceLock<Arc<dyn crate::QueueSharingGroup>>,
    /// MAXUMSGS and EXPRYINT as the QMGR object has them (qm.toml's values until ALTER QMGR),
    /// read on the put/get path without the object store's lock.
    max_uncommitted_messages: AtomicU32,
    expiry_interval_seconds: AtomicU32,
    /// PSMODE(DISABLED): MQOPEN of topics, MQSUB and publishing fail with
    /// MQRC_PUBSUB_INHIBITED (read on the publish path without the object store's lock).
    publish_subscribe_inhibited: std::sync::atomic::AtomicBool,
    /// The AUTHINFO in force for connection authentication (security/connection_authentication.rs).
    pub(crate) connection_authentication: RwLock<ConnectionAuthentication>,
    /// Serialises SET CHLAUTH's read-modify-write of a record (security/channel_authentication.rs).
    pub(crate) channel_authentication_lock: Mutex<()>,
    /// The authority records in force (security/authorization.rs).
    pub(crate) authority_records: RwLock<Arc<crate::security::authorization::AuthorityRecords>>,
    /// Serialises SET AUTHREC's read-modify-write of a record.
    pub(crate) authority_lock: Mutex<()>,
    /// Dynamic queues' creators, who have every authority on them (security/authorization.rs).
    pub(crate) dynamic_queue_creators: RwLock<HashMap<String, String>>,
    /// Non-durable subscriptions and the subscriptions handles have open (pubsub/).
    subscription_registry: crate::pubsub::SubscriptionRegistry,
    /// This instance's claim on its directory within the process (open_directories.rs),
    /// released by a completed shutdown or else by the drop. The last field: fields drop in
    /// declaration order, so a reopen that waits for the claim starts only once the log
    /// manager, the buffer pools and the page sets above have dropped.
    directory_claim: Mutex<Option<open_directories::DirectoryClaim>>,
}

impl QueueManager {
    /// Create a new queue manager's data directory: configuration, logs, BSDS, page sets.
    pub fn create(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        config: &QueueManagerConfig,
        progress: &mut dyn FnMut(&str, u64, u64),
    ) -> StorageResult<()> {
        config.validate()?;
        let config_path = directory.join(CONFIG_FILE_NAME);
        if fs.exists(&config_path) {
            return Err(StorageError::invalid(format!(
                "queue manager {} already exists in {}",
                config.name,
                directory.display()
            )));
        }
        fs.create_dir_all(directory)
            .map_err(|e| StorageError::io(directory, "create directory", e))?;
        fs.create_dir_all(&directory.join("pagesets"))
            .map_err(|e| StorageError::io(directory.join("pagesets"), "create directory", e))?;
        let identity = {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(1);
            (nanos as u64) ^ ((std::process::id() as u64) << 32) | 1
        };
        write_small_file(
            fs.as_ref(),
            &directory.join("QMID"),
            format!("{identity:016X}\n").as_bytes(),
        )?;
        LogManager::create(fs.clone(), directory, &config.log, &config.archive)?;
        for definition in &config.page_sets {
            let path = page_set_path(directory, definition.id);
            let label = format!("formatting page set {:02}", definition.id);
            PageSet::format(
                fs.as_ref(),
                &path,
                PageSetId(definition.id),
                definition.primary_pages,
                identity,
                &mut |done, total| progress(&label, done, total),
            )?;
        }
        // The configuration is written last: its presence means the queue manager is complete.
        write_small_file(fs.as_ref(), &config_path, config.to_toml().as_bytes())?;
        fs.sync_directory(directory)
            .map_err(|e| StorageError::io(directory, "sync directory", e))?;
        Ok(())
    }

    /// Whether `directory` holds a complete queue manager.
    pub fn exists(fs: &dyn FileSystem, directory: &Path) -> bool {
        fs.exists(&directory.join(CONFIG_FILE_NAME))
    }

    pub fn read_config(fs: &dyn FileSystem, directory: &Path) -> StorageResult<QueueManagerConfig> {
        let path = directory.join(CONFIG_FILE_NAME);
        let text = read_small_file(fs, &path)?;
        let text = String::from_utf8(text).map_err(|_| StorageError::CorruptMetadata {
            path: path.clone(),
            detail: "not UTF-8".into(),
        })?;
        QueueManagerConfig::from_toml(&text).map_err(|error| StorageError::CorruptMetadata {
            path,
            detail: error.to_string(),
        })
    }

    /// Start the queue manager: restart from the log in MQ's four phases, rebuild queues,
    /// then start the checkpoint task.
    ///
    /// One instance per directory in a process: while an earlier instance of this directory is
    /// still dropping (its last reference on another thread), the open waits for it, up to
    /// [`open_directories::DIRECTORY_RELEASE_WAIT_SECONDS`]; an instance still in use makes the
    /// open fail with MQRC_Q_MGR_NOT_AVAILABLE.
    pub fn open(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        messages: MessageSink,
    ) -> StorageResult<Arc<QueueManager>> {
        let wait = Duration::from_secs(open_directories::DIRECTORY_RELEASE_WAIT_SECONDS);
        Self::open_within(fs, directory, messages, wait)
    }

    /// `open`, waiting up to `wait` for an earlier instance of the directory to be released.
    fn open_within(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        messages: MessageSink,
        wait: Duration,
    ) -> StorageResult<Arc<QueueManager>> {
        let config = Self::read_config(fs.as_ref(), directory)?;
        // Claimed before any file but the configuration is opened; on an error below it is
        // released last, after what was opened so far.
        let directory_claim =
            open_directories::DirectoryClaim::acquire(fs.as_ref(), directory, &config.name, wait)?;
        let identity_path = directory.join("QMID");
        let identity_text = read_small_file(fs.as_ref(), &identity_path)?;
        let identity = std::str::from_utf8(&identity_text)
            .ok()
            .and_then(|text| u64::from_str_radix(text.trim(), 16).ok())
            .ok_or_else(|| StorageError::CorruptMetadata {
                path: identity_path.clone(),
                detail: "not a queue manager id".into(),
            })?;

        let log = LogManager::open(fs.clone(), directory, &config.log, &config.archive)?;
        {
            // The log's messages (CSQJ001I, CSQJ002I, CSQJ003I, CSQJ110E, CSQJ111A) carry the
            // queue manager's name after their number, as the queue manager's own do.
            let (sink, name) = (messages.clone(), config.name.clone());
            log.set_operator_messages(Arc::new(move |text: &str| match text.split_once(' ') {
                Some((number, rest)) => sink(&format!("{number} {name} {rest}")),
                None => sink(text),
            }));
        }
        messages(&format!(
            "CSQJ099I {} LOG RECORDING TO COMMENCE WITH STARTRBA={}",
            config.name,
            log.end_rba()
        ));
        let forcer: Arc<dyn WriteAheadLog> = Arc::new(LogForcer(log.clone()));
        let mut pools = Vec::new();
        for definition in &config.buffer_pools {
            let pool = BufferPool::new(
                BufferPoolId(definition.id),
                definition.buffers,
                forcer.clone(),
            );
            // A pool that cannot be fixed any more (a lower RLIMIT_MEMLOCK since it was
            // defined) serves pageable rather than keep the queue manager down; qm.toml keeps
            // FIXED4KB, so the next start tries again.
            if let Err(error) = pool.set_page_class(definition.page_class) {
                messages(&format!(
                    "CSQP072W {} buffer pool {} starts as PAGECLAS(4KB), qm.toml keeps FIXED4KB: {error}",
                    config.name, definition.id
                ));
            }
            pools.push(pool);
        }
        let mut spaces = Vec::new();
        for definition in &config.page_sets {
            let page_set = PageSet::open(
                fs.as_ref(),
                &page_set_path(directory, definition.id),
                PageSetId(definition.id),
                definition.expand,
                definition.secondary_pages,
                definition.maximum_pages,
            )?;
            if page_set.header().queue_manager_id != identity {
                return Err(StorageError::CorruptMetadata {
                    path: page_set.path(),
                    detail: format!(
                        "page set belongs to another queue manager (id {:016X})",
                        page_set.header().queue_manager_id
                    ),
                });
            }
            let pool = pools
                .iter()
                .find(|pool| pool.id().0 == definition.buffer_pool)
                .expect("configuration validated")
                .clone();
            pool.attach(page_set.clone());
            spaces.push(PageSetSpace::new(page_set, pool));
        }
        let data = Arc::new(DataManager::new(log.clone(), spaces));
        let page_set_errors = Arc::new(page_set_errors::PageSetErrorReporter::new(
            &config.name,
            messages.clone(),
        ));
        for pool in &pools {
            let reporter = page_set_errors.clone();
            pool.set_write_error_observer(Arc::new(move |pool, error| {
                reporter.report(pool, error)
            }));
        }
        let max_uncommitted_messages = AtomicU32::new(config.system.maxumsgs);
        let expiry_interval_seconds = AtomicU32::new(config.system.expryint);
        let configuration = Mutex::new(config.clone());
        let statistics = crate::statistics::StatisticsState::new(config.system.statime);
        let queue_manager = Arc::new(QueueManager {
            name: config.name.clone(),
            directory: directory.to_path_buf(),
            config,
            identity,
            log,
            pools: RwLock::new(pools),
            configuration,
            buffer_pool_resizes: Default::default(),
            data,
            queues: RwLock::new(HashMap::new()),
            queues_by_id: RwLock::new(HashMap::new()),
            definitions: RwLock::new(BTreeMap::new()),
            max_uncommitted_messages,
            expiry_interval_seconds,
            publish_subscribe_inhibited: Default::default(),
            object_locations: Mutex::new(HashMap::new()),
            object_times: Mutex::new(HashMap::new()),
            next_message_sequence: AtomicU64::new(1),
            next_object_id: AtomicU32::new(1),
            units_of_recovery: Mutex::new(HashMap::new()),
            in_doubt: Mutex::new(HashMap::new()),
            checkpoint_gate: RwLock::new(()),
            checkpoint_sequence: Mutex::new(0),
            checkpoints_taken: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
            quiescing: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            page_set_errors,
            failed_checkpoints: AtomicU64::new(0),
            checkpoint_failed_in_page_writes: AtomicBool::new(false),
            fs: fs.clone(),
            checkpoint_task: Mutex::new(None),
            messages,
            connections: Connections::default(),
            statistics,
            expiry_observer: std::sync::OnceLock::new(),
            timer_observer: std::sync::OnceLock::new(),
            configuration_observer: std::sync::OnceLock::new(),
            queue_sharing_group: std::sync::OnceLock::new(),
            connection_authentication: RwLock::new(ConnectionAuthentication::default()),
            channel_authentication_lock: Mutex::new(()),
            authority_records: RwLock::default(),
            authority_lock: Mutex::new(()),
            dynamic_queue_creators: RwLock::default(),
            subscription_registry: Default::default(),
            directory_claim: Mutex::new(Some(directory_claim)),
        });
        queue_manager.restart()?;
        queue_manager.load_connection_authentication();
        queue_manager.reload_authority_records();
        queue_manager.start_checkpoint_task();
        queue_manager.start_index_builders();
        Ok(queue_manager)
    }

    /// QINDXBLD(NOWAIT): build the indexes restart left unbuilt, deepest queue first, on up to
    /// [`INDEX_BUILD_THREADS_MAX`] background threads (MQ: at most 10). A get that needs an
    /// index first builds it itself (or waits for the builder holding the queue).
    fn start_index_builders(&self) {
        let mut pending: Vec<(u64, Arc<LocalQueue>)> = self
            .queues()
            .into_iter()
            .filter(|queue| queue.index_pending())
            .map(|queue| (queue.status().current_depth, queue))
            .collect();
        if pending.is_empty() {
            return;
        }
        pending.sort_by_key(|(depth, _)| std::cmp::Reverse(*depth));
        let threads = std::thread::available_parallelism()
            .map_or(1, |count| count.get())
            .clamp(1, INDEX_BUILD_THREADS_MAX)
            .min(pending.len());
        let work = Arc::new(Mutex::new(pending.into_iter()));
        for thread in 0..threads {
            let (work, messages, name) = (work.clone(), self.messages.clone(), self.name.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("ferrite-index-build-{thread}"))
                .spawn(move || loop {
                    let Some((depth, queue)) = work.lock().unwrap().next() else {
                        return;
                    };
                    let queue_name = queue.name();
                    messages(&format!(
                        "CSQI007I {name} BUILDING IN-STORAGE INDEX FOR QUEUE {queue_name} ({depth} messages)"
                    ));
                    queue.build_index();
                    messages(&format!(
                        "CSQI006I {name} COMPLETED IN-STORAGE INDEX FOR QUEUE {queue_name}"
                    ));
                });
            if let Err(error) = spawned {
                // The indexes are then built by the first get that needs each.
                self.say(&format!(
                    "CSQI007I {} INDEX BUILD THREAD NOT STARTED ({error}); indexes are built by the first get that needs them",
                    self.name
                ));
                return;
            }
        }
    }

    /// Write an operator message (the queue manager's log: the console of `ferrite start`).
    pub fn say(&self, text: &str) {
        (self.messages)(text);
    }

    /// Install the observer of discarded expired messages (the MQI's expiration reports).
    /// Only the first call installs one; later calls return false.
    pub fn set_expiry_observer(&self, observer: ExpiryObserver) -> bool {
        self.expiry_observer.set(observer).is_ok()
    }

    /// Install the observer called at each poll of the background task (the MQI's timers).
    /// Only the first call installs one; later calls return false.
    pub fn set_timer_observer(&self, observer: TimerObserver) -> bool {
        self.timer_observer.set(observer).is_ok()
    }

    /// Install the observer of object changes made by MQI calls (the configuration events).
    /// Only the first call installs one; later calls return false.
    pub fn set_configuration_observer(&self, observer: ConfigurationObserver) -> bool {
        self.configuration_observer.set(observer).is_ok()
    }

    /// The observer of object changes made by MQI calls, if one is installed.
    pub fn configuration_observer(&self) -> Option<&ConfigurationObserver> {
        self.configuration_observer.get()
    }

    /// Attach the queue sharing group this queue manager joined at start (ferrite-sharing).
    /// Only the first call attaches one; later calls return false.
    ///
    /// Attaching recovers the member's shared work first: the units it left staged on the
    /// structures are backed out, and each in-doubt unit of recovery of a unit of work that
    /// held private and shared work goes the way its shared half went
    /// ([`crate::QueueSharingGroup::recover_member`]).
    pub fn attach_queue_sharing_group(&self, group: Arc<dyn crate::QueueSharingGroup>) -> bool {
        if self.queue_sharing_group.set(group.clone()).is_err() {
            return false;
        }
        if let Err(error) = group.record_member_directory(&self.directory) {
            self.say(&format!(
                "CSQE006E {} data directory not recorded in the shared repository (RECOVER CFSTRUCT cannot read this member's log): {error}",
                self.name
            ));
        }
        self.recover_shared_work(group.as_ref());
        true
    }

    fn recover_shared_work(&self, group: &dyn crate::QueueSharingGroup) {
        let in_doubt = self.in_doubt_units();
        let names: Vec<String> = in_doubt.iter().map(ToString::to_string).collect();
        let recovery = match group.recover_member(&names) {
            Ok(recovery) => recovery,
            Err(error) => {
                self.say(&format!(
                    "CSQE006E {} shared work of this member not recovered: {error}",
                    self.name
                ));
                return;
            }
        };
        for (urid, name) in in_doubt.iter().zip(&names) {
            let commit = recovery.commit.contains(name);
            if !commit && !recovery.backout.contains(name) {
                continue;
            }
            match self.resolve_in_doubt(*urid, commit) {
                Ok(()) => {
                    let _ = group.forget_mixed(name);
                }
                Err(error) => self.say(&format!(
                    "CSQE006E {} unit of recovery {name} not resolved: {error}",
                    self.name
                )),
            }
        }
        if recovery.units_backed_out + recovery.commit.len() + recovery.backout.len() > 0 {
            self.say(&format!(
                "CSQE005I {} shared work recovered: {} staged units backed out, {} in-doubt units committed, {} backed out",
                self.name,
                recovery.units_backed_out,
                recovery.commit.len(),
                recovery.backout.len()
            ));
        }
    }

    /// The queue sharing group this queue manager is a member of, if any.
    pub fn queue_sharing_group(&self) -> Option<&Arc<dyn crate::QueueSharingGroup>> {
        self.queue_sharing_group.get()
    }

    /// Whether an expiry observer is installed.
    pub fn has_expiry_observer(&self) -> bool {
        self.expiry_observer.get().is_some()
    }

    /// The non-durable subscriptions and the claims on subscriptions (pubsub/subscriptions.rs).
    pub(crate) fn subscription_registry(&self) -> &crate::pubsub::SubscriptionRegistry {
        &self.subscription_registry
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn directory(&self) -> &Path {
        &self.directory
    }

    pub fn config(&self) -> &QueueManagerConfig {
        &self.config
    }

    /// The registry of this queue manager's connections.
    /// STATIME and the statistics interval (statistics/mod.rs).
    pub(crate) fn statistics_state(&self) -> &crate::statistics::StatisticsState {
        &self.statistics
    }

    pub fn connections(&self) -> &Connections {
        &self.connections
    }

    pub fn identity(&self) -> u64 {
        self.identity
    }

    pub fn log(&self) -> &Arc<LogManager> {
        &self.log
    }

    pub fn data_manager(&self) -> &Arc<DataManager> {
        &self.data
    }

    fn check_running(&self) -> StorageResult<()> {
        if self.failed.load(Ordering::Acquire) {
            return Err(StorageError::mq(
                reason::MQRC_Q_MGR_NOT_AVAILABLE,
                "the queue manager failed after an I/O error and must be restarted",
            ));
        }
        if self.stopping.load(Ordering::Acquire) {
            return Err(StorageError::Stopping);
        }
        Ok(())
    }

    /// A failed log force leaves the queue manager unable to promise durability: stop accepting
    /// work rather than risk acknowledging what is not on disk.
    fn fail_on<T>(&self, result: StorageResult<T>) -> StorageResult<T> {
        if let Err(error) = &result {
            if matches!(
                error,
                StorageError::Io { .. } | StorageError::CorruptLog { .. }
            ) {
                self.failed.store(true, Ordering::Release);
                self.say(&format!(
                    "CSQJ103E {} LOG WRITE ERROR, QUEUE MANAGER STOPS ACCEPTING WORK: {error}",
                    self.name
                ));
            }
        }
        result
    }

    // ----- objects -------------------------------------------------------------------------

    /// The type of the queue called `name`, whatever its type (queues share one name space).
    pub fn queue_object_type(&self, name: &str) -> Option<ObjectType> {
        if self.queues.read().unwrap().contains_key(name) {
            return Some(ObjectType::LocalQueue);
        }
        let definitions = self.definitions.read().unwrap();
        [
            ObjectType::ModelQueue,
            ObjectType::AliasQueue,
            ObjectType::RemoteQueue,
        ]
        .into_iter()
        .find(|object_type| definitions.contains_key(&(*object_type, name.to_string())))
    }

    fn name_taken(object_type: ObjectType, existing: ObjectType, name: &str) -> StorageError {
        StorageError::mq(
            reason::MQRC_OBJECT_ALREADY_EXISTS,
            format!(
                "{}({name}) cannot be defined: {name} is already a {}",
                object_type.keyword(),
                existing.keyword()
            ),
        )
    }

    /// DEFINE QLOCAL, and the local queue MQOPEN makes from a model queue. The definition is
    /// stored on page set 0 and the log is forced; a temporary dynamic queue
    /// (DEFTYPE(TEMPDYN)) is not stored, so restart does not bring it back.
    ///
    /// Replacing a queue keeps its DEFTYPE: how a queue came to exist does not change (a
    /// temporary dynamic queue stays temporary, and unstored).
    pub fn define_queue(
        &self,
        definition: QueueDefinition,
        replace: bool,
    ) -> StorageResult<Arc<LocalQueue>> {
        self.check_running()?;
        let mut locations = self.object_locations.lock().unwrap();
        self.define_queue_locked(&mut locations, definition, replace)
    }

    /// [`QueueManager::define_queue`] under the object lock the caller holds.
    fn define_queue_locked(
        &self,
        locations: &mut HashMap<u32, (MessageLocation, u64)>,
        mut definition: QueueDefinition,
        replace: bool,
    ) -> StorageResult<Arc<LocalQueue>> {
        definition.validate()?;
        self.data.space(definition.page_set)?;
        match self.queue_object_type(&definition.name) {
            Some(ObjectType::LocalQueue) | None => {}
            Some(other) => {
                return Err(Self::name_taken(
                    ObjectType::LocalQueue,
                    other,
                    &definition.name,
                ))
            }
        }
        let existing = self.queues.read().unwrap().get(&definition.name).cloned();
        if let Some(queue) = &existing {
            definition.definition_type = queue.with_definition(|d| d.definition_type);
        }
        let stored = definition.definition_type != DefinitionType::TemporaryDynamic;
        if let Some(queue) = existing {
            if !replace {
                return Err(StorageError::mq(
                    reason::MQRC_OBJECT_ALREADY_EXISTS,
                    format!("queue {} already exists", definition.name),
                ));
            }
            if queue.definition().page_set != definition.page_set
                && queue.status().current_depth > 0
            {
                return Err(StorageError::mq(
                    reason::MQRC_OBJECT_IN_USE,
                    format!(
                        "queue {} holds messages on page set {}",
                        definition.name,
                        queue.definition().page_set
                    ),
                ));
            }
            if stored {
                self.store_object(locations, queue.object_id, &definition.encode())?;
            } else {
                self.note_object_times(queue.object_id);
            }
            queue.set_definition(definition);
            return Ok(queue);
        }
        let object_id = self.next_object_id.fetch_add(1, Ordering::SeqCst);
        if stored {
            self.store_object(locations, object_id, &definition.encode())?;
        } else {
            self.note_object_times(object_id);
        }
        let queue = Arc::new(LocalQueue::new(object_id, definition.clone()));
        self.queues
            .write()
            .unwrap()
            .insert(definition.name.clone(), queue.clone());
        self.queues_by_id
            .write()
            .unwrap()
            .insert(object_id, queue.clone());
        Ok(queue)
    }

    /// DEFINE of any object type (QLOCAL goes to [`QueueManager::define_queue`]). With
    /// `replace`, an existing object of the same type and name is replaced; a queue name held
    /// by a queue of another type is refused (MQRC_OBJECT_ALREADY_EXISTS) either way.
    pub fn define_object(&self, definition: ObjectDefinition, replace: bool) -> StorageResult<()> {
        let definition = match definition {
            ObjectDefinition::Local(local) => {
                return self.define_queue(local, replace).map(|_| ());
            }
            other => other,
        };
        self.check_running()?;
        definition.validate()?;
        let object_type = definition.object_type();
        let name = definition.name().to_string();
        match &definition {
            ObjectDefinition::Model(model) => {
                self.data.space(model.page_set)?;
            }
            ObjectDefinition::StorageClass(class) => {
                let defined = self.page_set_defined(class.page_set.0);
                self.data
                    .space(class.page_set)
                    .ok()
                    .filter(|_| defined)
                    .ok_or_else(|| {
                        StorageError::mq(
                            reason::MQRC_PAGESET_ERROR,
                            format!(
                                "STGCLASS({name}) names page set {:02}, which is not defined",
                                class.page_set.0
                            ),
                        )
                    })?;
            }
            ObjectDefinition::QueueManager(attributes) => {
                // CONNAUTH must name an AUTHINFO when it changes (MQ refuses a name that is
                // not one); the one in force changes at REFRESH SECURITY TYPE(CONNAUTH).
                let current = self.queue_manager_attributes().connection_authentication;
                if attributes.connection_authentication != current {
                    self.auth_info(&attributes.connection_authentication)?;
                }
            }
            _ => {}
        }
        let mut locations = self.object_locations.lock().unwrap();
        if let ObjectDefinition::Topic(topic) = &definition {
            self.check_topic_string_free(topic)?;
        }
        if object_type.is_queue() {
            if let Some(existing) = self.queue_object_type(&name) {
                if existing != object_type {
                    return Err(Self::name_taken(object_type, existing, &name));
                }
            }
        }
        let key = (object_type, name.clone());
        let existing_id = self
            .definitions
            .read()
            .unwrap()
            .get(&key)
            .map(|(object_id, _)| *object_id);
        if existing_id.is_some() && !replace {
            return Err(StorageError::mq(
                reason::MQRC_OBJECT_ALREADY_EXISTS,
                format!("{}({name}) already exists", object_type.keyword()),
            ));
        }
        if let (ObjectDefinition::StorageClass(class), Some(_)) = (&definition, existing_id) {
            // A queue's messages stay where they are: a storage class in use keeps its page set.
            let old = self.object(ObjectType::StorageClass, &name);
            let moved = matches!(old, Some(ObjectDefinition::StorageClass(old)) if old.page_set != class.page_set);
            if moved && !self.queues_using_storage_class(&name).is_empty() {
                return Err(StorageError::mq(
                    reason::MQRC_OBJECT_IN_USE,
                    format!("STGCLASS({name}) is used by queues; its PSID cannot change"),
                ));
            }
        }
        let object_id =
            existing_id.unwrap_or_else(|| self.next_object_id.fetch_add(1, Ordering::SeqCst));
        self.store_object(&mut locations, object_id, &definition.encode())?;
        self.note_queue_manager_attributes(&definition);
        self.definitions
            .write()
            .unwrap()
            .insert(key, (object_id, definition));
        Ok(())
    }

    /// The queue manager object's attributes: the stored QMGR image, or the defaults (MQ's,
    /// with MAXUMSGS and EXPRYINT from qm.toml) when ALTER QMGR never ran.
    pub fn queue_manager_attributes(&self) -> QueueManagerAttributes {
        match self
            .definitions
            .read()
            .unwrap()
            .get(&(ObjectType::QueueManager, self.name.clone()))
        {
            Some((_, ObjectDefinition::QueueManager(attributes))) => attributes.clone(),
            _ => QueueManagerAttributes::new(
                &self.name,
                self.config.system.maxumsgs,
                self.config.system.expryint,
            ),
        }
    }

    /// ALTER QMGR: store the queue manager object (its name cannot change).
    pub fn alter_queue_manager(&self, mut attributes: QueueManagerAttributes) -> StorageResult<()> {
        attributes.name = self.name.clone();
        self.define_object(ObjectDefinition::QueueManager(attributes), true)
    }

    fn note_queue_manager_attributes(&self, definition: &ObjectDefinition) {
        if let ObjectDefinition::QueueManager(attributes) = definition {
            self.max_uncommitted_messages
                .store(attributes.max_uncommitted_messages, Ordering::Relaxed);
            self.expiry_interval_seconds
                .store(attributes.expiry_interval, Ordering::Relaxed);
            self.publish_subscribe_inhibited.store(
                attributes.publish_subscribe_mode == "DISABLED",
                Ordering::Relaxed,
            );
            self.note_queue_manager_accounting(&attributes.accounting_queue);
        }
    }

    /// MAXUMSGS in force.
    pub fn max_uncommitted_messages(&self) -> u32 {
        self.max_uncommitted_messages.load(Ordering::Relaxed)
    }

    /// Whether PSMODE is DISABLED: the MQI's publish/subscribe calls fail with
    /// MQRC_PUBSUB_INHIBITED.
    pub fn publish_subscribe_inhibited(&self) -> bool {
        self.publish_subscribe_inhibited.load(Ordering::Relaxed)
    }

    /// EXPRYINT in force, seconds (0 = no scan).
    pub fn expiry_interval_seconds(&self) -> u32 {
        self.expiry_interval_seconds.load(Ordering::Relaxed)
    }

    /// ALTER of any object type: the object must exist (MQRC_UNKNOWN_OBJECT_NAME).
    pub fn alter_object(&self, definition: ObjectDefinition) -> StorageResult<()> {
        let object_type = definition.object_type();
        if self.object(object_type, definition.name()).is_none() {
            return Err(StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!(
                    "{}({}) does not exist",
                    object_type.keyword(),
                    definition.name()
                ),
            ));
        }
        self.define_object(definition, true)
    }

    /// Local and model queues whose STGCLASS is `name`.
    pub fn queues_using_storage_class(&self, name: &str) -> Vec<String> {
        let mut users: Vec<String> = self
            .queues()
            .into_iter()
            .filter(|queue| queue.with_definition(|d| d.storage_class == name))
            .map(|queue| queue.name())
            .collect();
        for definition in self.objects(ObjectType::ModelQueue) {
            if let ObjectDefinition::Model(model) = definition {
                if model.storage_class == name {
                    users.push(model.name);
                }
            }
        }
        users
    }

    /// DELETE of an object that is not a local queue (those go to
    /// [`QueueManager::delete_queue`]). A storage class that queues use is not deleted
    /// (MQRC_OBJECT_IN_USE).
    pub fn delete_object(&self, object_type: ObjectType, name: &str) -> StorageResult<()> {
        if object_type == ObjectType::LocalQueue {
            return self.delete_queue(name, false);
        }
        self.check_running()?;
        let mut locations = self.object_locations.lock().unwrap();
        let key = (object_type, name.to_string());
        let Some((object_id, _)) = self.definitions.read().unwrap().get(&key).cloned() else {
            return Err(StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("{}({name}) does not exist", object_type.keyword()),
            ));
        };
        if object_type == ObjectType::StorageClass {
            let users = self.queues_using_storage_class(name);
            if !users.is_empty() {
                return Err(StorageError::mq(
                    reason::MQRC_OBJECT_IN_USE,
                    format!(
                        "STGCLASS({name}) is used by {} queues (first {})",
                        users.len(),
                        users[0]
                    ),
                ));
            }
        }
        if object_type == ObjectType::AuthInfo
            && self.queue_manager_attributes().connection_authentication == name
        {
            return Err(StorageError::mq(
                reason::MQRC_OBJECT_IN_USE,
                format!(
                    "AUTHINFO({name}) is the queue manager's CONNAUTH; ALTER QMGR CONNAUTH first"
                ),
            ));
        }
        self.free_object_image(&mut locations, object_id)?;
        self.definitions.write().unwrap().remove(&key);
        let end = self.log.end_rba();
        self.fail_on(self.log.force(end))
    }

    /// The definition of `object_type` called `name` (local queues included).
    pub fn object(&self, object_type: ObjectType, name: &str) -> Option<ObjectDefinition> {
        if object_type == ObjectType::LocalQueue {
            return self
                .queue(name)
                .map(|queue| ObjectDefinition::Local(queue.definition()));
        }
        self.definitions
            .read()
            .unwrap()
            .get(&(object_type, name.to_string()))
            .map(|(_, definition)| definition.clone())
    }

    /// Every object of `object_type`, by name.
    pub fn objects(&self, object_type: ObjectType) -> Vec<ObjectDefinition> {
        if object_type == ObjectType::LocalQueue {
            return self
                .queues()
                .into_iter()
                .map(|queue| ObjectDefinition::Local(queue.definition()))
                .collect();
        }
        self.definitions
            .read()
            .unwrap()
            .range((object_type, String::new())..)
            .take_while(|((kind, _), _)| *kind == object_type)
            .map(|(_, (_, definition))| definition.clone())
            .collect()
    }

    /// The SVRCONN channel called `name` (what the channel initiator accepts connections for).
    pub fn channel(&self, name: &str) -> Option<ChannelDefinition> {
        match self.object(ObjectType::Channel, name) {
            Some(ObjectDefinition::Channel(channel)) => Some(channel),
            _ => None,
        }
    }

    /// The page set of storage class `name`, if a STGCLASS object of that name is defined.
    pub fn storage_class_page_set(&self, name: &str) -> Option<PageSetId> {
        match self.object(ObjectType::StorageClass, name) {
            Some(ObjectDefinition::StorageClass(class)) => Some(class.page_set),
            _ => None,
        }
    }

    /// Write a new image of an object and free the old one (a log check follows, as MQ does at
    /// object define, alter and delete).
    /// The image carries the object's times: created when the id was first stored, altered
    /// now.
    fn store_object(
        &self,
        locations: &mut HashMap<u32, (MessageLocation, u64)>,
        object_id: u32,
        image: &[u8],
    ) -> StorageResult<()> {
        let times = self.times_altered_now(object_id);
        let mut image = image.to_vec();
        times.stamp(&mut image);
        let image = &image[..];
        let sequence = self.next_message_sequence.fetch_add(1, Ordering::SeqCst);
        let _gate = self.checkpoint_gate.read().unwrap();
        let outcome = self.data.put(
            UrReference::None,
            SLOT_KIND_OBJECT,
            object_id,
            sequence,
            PageSetId(0),
            true,
            ImageParts::whole(image),
        )?;
        if let Some((old_location, old_sequence)) =
            locations.insert(object_id, (outcome.location, sequence))
        {
            let record = GetRecord {
                ur: UrReference::None,
                location: old_location,
                object_id,
                sequence: old_sequence,
            };
            self.data.get_and_free(&record, true)?;
        }
        drop(_gate);
        self.object_times.lock().unwrap().insert(object_id, times);
        let end = self.log.end_rba();
        self.fail_on(self.log.force(end))
    }

    /// An object's times if it is altered now: created when first noted (now for a new id).
    fn times_altered_now(&self, object_id: u32) -> ObjectTimes {
        let now = now_ms();
        let created_ms = match self.object_times.lock().unwrap().get(&object_id) {
            Some(times) if times.created_ms != 0 => times.created_ms,
            Some(_) | None => now,
        };
        ObjectTimes {
            created_ms,
            altered_ms: now,
        }
    }

    /// Note an unstored object's (a temporary dynamic queue's) creation or alteration now.
    fn note_object_times(&self, object_id: u32) {
        let times = self.times_altered_now(object_id);
        self.object_times.lock().unwrap().insert(object_id, times);
    }

    /// When the object `object_type` called `name` was created and last altered (CRDATE/CRTIME,
    /// ALTDATE/ALTTIME); `None` when there is no such object. A field of 0 was not recorded
    /// (an image stored before this build).
    pub fn object_times(&self, object_type: ObjectType, name: &str) -> Option<ObjectTimes> {
        let object_id = if object_type == ObjectType::LocalQueue {
            self.queue(name)?.object_id
        } else {
            self.definitions
                .read()
                .unwrap()
                .get(&(object_type, name.to_string()))?
                .0
        };
        Some(
            self.object_times
                .lock()
                .unwrap()
                .get(&object_id)
                .copied()
                .unwrap_or_default(),
        )
    }

    /// Free an object's stored image (the caller forces the log).
    fn free_object_image(
        &self,
        locations: &mut HashMap<u32, (MessageLocation, u64)>,
        object_id: u32,
    ) -> StorageResult<()> {
        self.object_times.lock().unwrap().remove(&object_id);
        if let Some((location, sequence)) = locations.remove(&object_id) {
            let record = GetRecord {
                ur: UrReference::None,
                location,
                object_id,
                sequence,
            };
            let _gate = self.checkpoint_gate.read().unwrap();
            self.data.get_and_free(&record, true)?;
        }
        Ok(())
    }

    /// ALTER QLOCAL.
    pub fn alter_queue(&self, definition: QueueDefinition) -> StorageResult<Arc<LocalQueue>> {
        if !self.queues.read().unwrap().contains_key(&definition.name) {
            return Err(StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("queue {} does not exist", definition.name),
            ));
        }
        self.define_queue(definition, true)
    }

    /// Change attributes of `queue` as one read-modify-write under the object lock that
    /// DEFINE, ALTER and DELETE take: the queue manager's own switches (MQ's event and trigger
    /// controls: QDEPTHHI/QDEPTHLO/QDPMAXEV after a depth event, NOTRIGGER after a DEPTH
    /// trigger, QSVCIEV after a service interval event) and an operator's ALTER QLOCAL (MQSC
    /// or PCF: only the attributes it names change), so neither overwrites the other with a
    /// definition read before it. `change` returns false to leave the definition as it is
    /// (nothing is stored) and an error to refuse the change; the result says whether it
    /// changed. The changed definition passes DEFINE REPLACE's checks. A queue deleted (or
    /// deleted and defined again) since `queue` was resolved is MQRC_UNKNOWN_OBJECT_NAME.
    pub fn update_queue_definition(
        &self,
        queue: &Arc<LocalQueue>,
        change: impl FnOnce(&mut QueueDefinition) -> StorageResult<bool>,
    ) -> StorageResult<bool> {
        self.check_running()?;
        let mut locations = self.object_locations.lock().unwrap();
        let current = self.queues.read().unwrap().get(queue.name_str()).cloned();
        if !current.is_some_and(|current| Arc::ptr_eq(&current, queue)) {
            return Err(StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("queue {} no longer exists", queue.name_str()),
            ));
        }
        let mut definition = queue.definition();
        if !change(&mut definition)? {
            return Ok(false);
        }
        self.define_queue_locked(&mut locations, definition, true)?;
        Ok(true)
    }

    /// DELETE QLOCAL, with PURGE or NOPURGE (and MQCLOSE with MQCO_DELETE or
    /// MQCO_DELETE_PURGE of a dynamic queue).
    pub fn delete_queue(&self, name: &str, purge: bool) -> StorageResult<()> {
        self.check_running()?;
        let mut locations = self.object_locations.lock().unwrap();
        let queue = self.queue(name).ok_or_else(|| {
            StorageError::mq(
                reason::MQRC_UNKNOWN_OBJECT_NAME,
                format!("queue {name} does not exist"),
            )
        })?;
        let status = queue.status();
        if status.uncommitted > 0 {
            return Err(StorageError::mq(
                reason::MQRC_Q_NOT_EMPTY,
                format!("queue {name} has uncommitted messages"),
            ));
        }
        if status.current_depth > 0 && !purge {
            return Err(StorageError::mq(
                reason::MQRC_Q_NOT_EMPTY,
                format!("queue {name} is not empty; use PURGE"),
            ));
        }
        self.clear_queue(&queue)?;
        self.free_object_image(&mut locations, queue.object_id)?;
        self.queues.write().unwrap().remove(name);
        self.queues_by_id.write().unwrap().remove(&queue.object_id);
        queue.mark_deleted();
        self.forget_dynamic_queue_creator(name);
        let end = self.log.end_rba();
        self.fail_on(self.log.force(end))
    }

    /// Delete a temporary dynamic queue when its creator closes it or ends: its committed
    /// messages go with it (they are non-persistent, so nothing is logged). Handles other
    /// connections hold get MQRC_Q_DELETED. Messages still uncommitted in some unit of work
    /// are dropped with the queue when that unit ends (a unit keeps no spare reference to a
    /// deleted queue); their non-persistent pages are reclaimed at the next restart.
    pub fn delete_temporary_queue(&self, queue: &Arc<LocalQueue>) -> StorageResult<()> {
        assert_eq!(
            queue.with_definition(|d| d.definition_type),
            DefinitionType::TemporaryDynamic,
            "only temporary dynamic queues are deleted this way"
        );
        let _locations = self.object_locations.lock().unwrap();
        let name = queue.name();
        {
            let mut queues = self.queues.write().unwrap();
            match queues.get(&name) {
                Some(current) if Arc::ptr_eq(current, queue) => {
                    queues.remove(&name);
                }
                _ => return Ok(()),
            }
        }
        self.queues_by_id.write().unwrap().remove(&queue.object_id);
        self.object_times.lock().unwrap().remove(&queue.object_id);
        queue.mark_deleted();
        self.forget_dynamic_queue_creator(&name);
        for entry in queue.drain() {
            self.discard_message(queue.object_id, &entry)?;
        }
        Ok(())
    }

    /// CLEAR QLOCAL: delete every committed message.
    pub fn clear_queue(&self, queue: &LocalQueue) -> StorageResult<u64> {
        let entries = queue.drain();
        let count = entries.len() as u64;
        for entry in entries {
            self.discard_message(queue.object_id, &entry)?;
        }
        let end = self.log.end_rba();
        self.fail_on(self.log.force(end))?;
        Ok(count)
    }

    /// Remove a message that left its queue outside any unit of work (CLEAR, a deleted
    /// queue, expiry): free its slot, logging the get if it is persistent (not forced), or,
    /// held in memory, let its image go.
    fn discard_message(
        &self,
        object_id: u32,
        entry: &MessageEntry,
    ) -> StorageResult<Option<(Rba, Rba)>> {
        let Some(location) = entry.location() else {
            return Ok(None);
        };
        let record = GetRecord {
            ur: UrReference::None,
            location,
            object_id,
            sequence: entry.key.sequence,
        };
        let _gate = entry
            .persistent
            .then(|| self.checkpoint_gate.read().unwrap());
        self.data.get_and_free(&record, entry.persistent)
    }

    /// Run `f` on a message's image: read from its pages, or in memory.
    fn with_image<R>(&self, entry: &MessageEntry, f: impl FnOnce(&[u8]) -> R) -> StorageResult<R> {
        match &entry.storage {
            MessageStorage::Memory(image) => Ok(f(image.bytes())),
            MessageStorage::Pages(location) => Ok(f(&self.data.read_image(*location)?)),
        }
    }

    pub fn queue(&self, name: &str) -> Option<Arc<LocalQueue>> {
        self.queues.read().unwrap().get(name).cloned()
    }

    /// Every queue, by name.
    pub fn queues(&self) -> Vec<Arc<LocalQueue>> {
        let mut queues: Vec<_> = self.queues.read().unwrap().values().cloned().collect();
        queues.sort_by_key(|queue| queue.name());
        queues
    }

    // ----- messages ------------------------------------------------------------------------

    /// MQPUT. Inside a unit of work the message becomes visible at commit; outside, a
    /// persistent message is on disk before this returns.
    pub fn put(
        &self,
        unit: Option<&mut UnitOfWork>,
        queue: &Arc<LocalQueue>,
        descriptor: &MessageDescriptor,
        data: &[u8],
    ) -> StorageResult<MessageEntry> {
        self.check_running()?;
        let (put_inhibited, max_message_length, max_depth, page_set, temporary, fifo) = queue
            .with_definition(|definition| {
                (
                    definition.put_inhibited,
                    definition.max_message_length,
                    definition.max_depth,
                    definition.page_set,
                    definition.definition_type == DefinitionType::TemporaryDynamic,
                    definition.message_delivery_fifo,
                )
            });
        if put_inhibited {
            return Err(StorageError::mq(
                reason::MQRC_PUT_INHIBITED,
                format!("puts to {} are inhibited", queue.name()),
            ));
        }
        if temporary && descriptor.persistent {
            return Err(StorageError::mq(
                reason::MQRC_PERSISTENT_NOT_ALLOWED,
                format!(
                    "{} is a temporary dynamic queue: it takes non-persistent messages only",
                    queue.name()
                ),
            ));
        }
        if data.len() > max_message_length as usize {
            return Err(StorageError::mq(
                reason::MQRC_MSG_TOO_BIG_FOR_Q,
                format!(
                    "{} bytes exceeds MAXMSGL {} of {}",
                    data.len(),
                    max_message_length,
                    queue.name()
                ),
            ));
        }
        if let Some(unit) = &unit {
            let limit = self.max_uncommitted_messages();
            if unit.message_count >= limit {
                return Err(StorageError::SyncpointLimitReached { limit });
            }
            if unit.prepared {
                return Err(StorageError::mq(
                    reason::MQRC_UOW_NOT_AVAILABLE,
                    "the unit of work is prepared",
                ));
            }
        }
        if !queue.reserve_put(max_depth) {
            return Err(StorageError::mq(
                reason::MQRC_Q_FULL,
                format!("queue {} is at MAXDEPTH {max_depth}", queue.name()),
            ));
        }
        // MSGDLVSQ(FIFO): every message orders as priority 0, by put sequence alone.
        let delivery_priority = if fifo { 0 } else { descriptor.priority };
        let result = self.put_reserved(unit, queue, page_set, delivery_priority, descriptor, data);
        if result.is_err() {
            queue.release_put();
        }
        result
    }

    fn put_reserved(
        &self,
        unit: Option<&mut UnitOfWork>,
        queue: &Arc<LocalQueue>,
        page_set: PageSetId,
        delivery_priority: u8,
        descriptor: &MessageDescriptor,
        data: &[u8],
    ) -> StorageResult<MessageEntry> {
        let sequence = self.next_message_sequence.fetch_add(1, Ordering::Relaxed);
        let persistent = descriptor.persistent;
        // A persistent message's image is logged and written to its pages from its head and
        // the caller's data (`ImageParts`: the data is not copied into an image first); a
        // non-persistent one is assembled whole, as memory may hold it.
        let mut image = if persistent {
            encode_image_head(descriptor)
        } else {
            encode_image(descriptor, data)
        };
        let object_id = queue.object_id;
        let make_entry = |storage| MessageEntry {
            key: MessageKey::new(delivery_priority, sequence),
            storage,
            persistent,
            message_id: descriptor.message_id,
            correlation_id: descriptor.correlation_id,
            expires_at_ms: descriptor.expires_at_ms(),
            backout_count: 0,
            group: GroupMember::of(descriptor, data.len()).map(Box::new),
        };
        // A non-persistent message is held in memory beside its entry while its buffer pool's
        // share allows (data_manager/memory.rs), otherwise placed on pages, never logged.
        let non_persistent = if persistent {
            None
        } else {
            let space = self.data.space(page_set)?;
            Some(match space.memory().try_hold(std::mem::take(&mut image)) {
                Ok(held) => MessageStorage::Memory(held),
                Err(image) => {
                    let outcome = self.data.put(
                        UrReference::None,
                        SLOT_KIND_MESSAGE,
                        object_id,
                        sequence,
                        page_set,
                        false,
                        ImageParts::whole(&image),
                    );
                    // On the pages now (or refused): the buffer can serve the next image.
                    recycle_image_buffer(image);
                    MessageStorage::Pages(outcome?.location)
                }
            })
        };
        match unit {
            None => {
                let storage = match non_persistent {
                    Some(storage) => storage,
                    None => {
                        let gate = self.checkpoint_gate.read().unwrap();
                        let outcome = self.data.put(
                            UrReference::None,
                            SLOT_KIND_MESSAGE,
                            object_id,
                            sequence,
                            page_set,
                            true,
                            ImageParts { head: &image, data },
                        )?;
                        drop(gate);
                        if let Some((_, end)) = outcome.log_range {
                            self.fail_on(self.log.force(end))?;
                        }
                        // On the pages now: the buffer can serve the next image.
                        recycle_image_buffer(image);
                        MessageStorage::Pages(outcome.location)
                    }
                };
                let entry = make_entry(storage);
                let put_time_ms = last_put_time_ms(descriptor.put_time_ms, &mut None);
                queue.insert(entry.clone(), true, put_time_ms);
                Ok(entry)
            }
            Some(unit) => {
                let storage = match non_persistent {
                    Some(storage) => storage,
                    None => {
                        let _gate = self.checkpoint_gate.read().unwrap();
                        let ur = unit.ur_reference();
                        let outcome = self.data.put(
                            ur,
                            SLOT_KIND_MESSAGE,
                            object_id,
                            sequence,
                            page_set,
                            true,
                            ImageParts { head: &image, data },
                        )?;
                        let (rba, _) = outcome.log_range.expect("persistent puts are logged");
                        self.record_operation(
                            unit,
                            rba,
                            UrOperation {
                                is_put: true,
                                location: outcome.location,
                                object_id,
                                sequence,
                            },
                        );
                        // On the pages now: the buffer can serve the next image.
                        recycle_image_buffer(image);
                        MessageStorage::Pages(outcome.location)
                    }
                };
                let entry = make_entry(storage);
                unit.message_count += 1;
                let queue = unit.queue_reference(queue);
                unit.puts.push(PendingPut {
                    queue,
                    entry: entry.clone(),
                    put_time_ms: descriptor.put_time_ms,
                });
                Ok(entry)
            }
        }
    }

    /// Register a logged operation with its unit of recovery (under the checkpoint gate).
    fn record_operation(&self, unit: &mut UnitOfWork, rba: Rba, operation: UrOperation) {
        let record = match &unit.record {
            Some(record) => record.clone(),
            None => {
                let urid = Urid(rba);
                unit.urid = Some(urid);
                let record = Arc::new(Mutex::new(UrRecord {
                    state: UrState::InFlight,
                    operations: Vec::new(),
                }));
                self.units_of_recovery
                    .lock()
                    .unwrap()
                    .insert(urid, record.clone());
                unit.record = Some(record.clone());
                record
            }
        };
        record.lock().unwrap().operations.push(operation);
    }

    /// MQGET (destructive). Returns `None` when no message matches within `wait`.
    pub fn get(
        &self,
        unit: Option<&mut UnitOfWork>,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        wait: Option<Duration>,
    ) -> StorageResult<Option<RetrievedMessage>> {
        match self.get_with(unit, queue, selector, wait, &GetControls::default())? {
            GetOutcome::Got { message, .. } => Ok(Some(message)),
            GetOutcome::LeftOnQueue(_) | GetOutcome::NoMessage => Ok(None),
        }
    }

    /// MQGET with the MQI's controls (quiescing, SYNCPOINT_IF_PERSISTENT, truncation). A
    /// waiting get ends at once when the queue manager stops (MQRC_Q_MGR_STOPPING) or, with
    /// `fail_if_quiescing`, quiesces (MQRC_Q_MGR_QUIESCING).
    pub fn get_with(
        &self,
        unit: Option<&mut UnitOfWork>,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        wait: Option<Duration>,
        controls: &GetControls,
    ) -> StorageResult<GetOutcome> {
        self.check_get_allowed(unit.as_deref(), queue, controls)?;
        let Some((entry, looked_at_ms)) =
            self.take_for_get(unit.is_some(), queue, selector, wait, controls)?
        else {
            return Ok(GetOutcome::NoMessage);
        };
        // SYNCPOINT_IF_PERSISTENT: a non-persistent message is got outside the unit of work.
        let unit = match unit {
            Some(_) if controls.syncpoint_if_persistent && !entry.persistent => {
                queue.get_committed();
                None
            }
            unit => unit,
        };
        if selector.message_id.is_none() && selector.correlation_id.is_none() {
            self.read_ahead_after(queue, &entry);
        }
        let (image, descriptor, data_offset) = match self.read_got_message(&entry) {
            Ok(read) => read,
            Err(error) => {
                // The message stays on the queue; the damaged page is reported, never served.
                queue.put_back(entry, unit.is_some());
                return Err(error);
            }
        };
        if controls
            .leave_if_longer_than
            .is_some_and(|limit| image.bytes().len() - data_offset > limit)
        {
            // Back in its place, untouched (MQRC_TRUNCATED_MSG_FAILED).
            let data = image.bytes()[data_offset..].to_vec().into();
            let (backout_count, key) = (entry.backout_count, entry.key);
            queue.put_back(entry, unit.is_some());
            return Ok(GetOutcome::LeftOnQueue(RetrievedMessage {
                descriptor,
                data,
                backout_count,
                key,
            }));
        }
        let in_unit_of_work = unit.is_some();
        let (backout_count, key) = (entry.backout_count, entry.key);
        let (persistent, data_bytes) = (entry.persistent, image.bytes().len() - data_offset);
        self.complete_get(unit, queue, entry, controls)?;
        // QTIME (DISPLAY QSTATUS) and STATQ: how long the message waited on the queue.
        let time_on_queue_us = (descriptor.put_time_ms > 0).then(|| {
            looked_at_ms
                .saturating_sub(descriptor.put_time_ms)
                .saturating_mul(1000)
        });
        if let Some(microseconds) = time_on_queue_us {
            queue.record_time_on_queue(microseconds);
        }
        queue.record_got(persistent, data_bytes, time_on_queue_us);
        Ok(GetOutcome::Got {
            message: RetrievedMessage {
                descriptor,
                data: image.into_data(data_offset),
                backout_count,
                key,
            },
            in_unit_of_work,
        })
    }

    /// The checks before a get looks at the queue: running, not quiescing (with
    /// `fail_if_quiescing`), GET enabled, and the unit of work's limits.
    fn check_get_allowed(
        &self,
        unit: Option<&UnitOfWork>,
        queue: &LocalQueue,
        controls: &GetControls,
    ) -> StorageResult<()> {
        self.check_running()?;
        if controls.fail_if_quiescing && self.is_quiescing() {
            return Err(quiescing_error());
        }
        if queue.with_definition(|definition| definition.get_inhibited) {
            return Err(StorageError::mq(
                reason::MQRC_GET_INHIBITED,
                format!("gets from {} are inhibited", queue.name()),
            ));
        }
        if let Some(unit) = unit {
            let limit = self.max_uncommitted_messages();
            if unit.message_count >= limit {
                return Err(StorageError::SyncpointLimitReached { limit });
            }
            if controls.mark_skip_backout && unit.gets.iter().any(|get| get.skip_backout) {
                return Err(StorageError::mq(
                    reason::MQRC_SECOND_MARK_NOT_ALLOWED,
                    "a message is already marked MQGMO_MARK_SKIP_BACKOUT in this unit of work",
                ));
            }
        }
        Ok(())
    }

    /// Take the first message `selector` matches (waiting up to `wait`), deleting the expired
    /// messages passed on the way, with the time of the last look at the queue (the moment the
    /// message left it, for QTIME). `None`: no message; the errors say why a wait ended early.
    fn take_for_get(
        &self,
        in_unit: bool,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        wait: Option<Duration>,
        controls: &GetControls,
    ) -> StorageResult<Option<(MessageEntry, u64)>> {
        let mut expired = Vec::new();
        let interrupted = || {
            self.stopping.load(Ordering::Acquire)
                || queue.is_deleted()
                || (controls.fail_if_quiescing && self.quiescing.load(Ordering::Acquire))
        };
        let looked_at_ms = std::cell::Cell::new(0);
        let taken = queue.take_visible_to(
            controls.lock_holder,
            selector,
            wait,
            || {
                let now = now_ms();
                looked_at_ms.set(now);
                now
            },
            in_unit,
            &mut expired,
            interrupted,
        );
        // A taken message goes back in its place, as if never taken, when the get does not
        // complete (LocalQueue::put_back).
        if let (_, Err(error)) = self.delete_all_expired(queue, expired) {
            if let Some(taken) = taken {
                queue.put_back(taken, in_unit);
            }
            return Err(error);
        }
        let Some(entry) = taken else {
            if self.stopping.load(Ordering::Acquire) {
                return Err(StorageError::Stopping);
            }
            if controls.fail_if_quiescing && self.is_quiescing() {
                return Err(quiescing_error());
            }
            if queue.is_deleted() {
                return Err(StorageError::mq(
                    reason::MQRC_Q_DELETED,
                    format!("queue {} was deleted", queue.name()),
                ));
            }
            return Ok(None);
        };
        Ok(Some((entry, looked_at_ms.get())))
    }

    /// The taken message's image (held in memory, or read from its pages) and its decoded
    /// descriptor, with the offset of its data in the image.
    fn read_got_message(
        &self,
        entry: &MessageEntry,
    ) -> StorageResult<(GotImage, MessageDescriptor, usize)> {
        let image = match &entry.storage {
            MessageStorage::Memory(image) => GotImage::Memory(image.clone()),
            MessageStorage::Pages(location) => GotImage::Read(self.data.read_image(*location)?),
        };
        let (descriptor, data_offset) = decode_descriptor(image.bytes())
            .map_err(|error| Self::descriptor_error(entry, error))?;
        Ok((image, descriptor, data_offset))
    }

    /// The got message leaves the queue: outside a unit of work its slot is freed (and the
    /// log forced when that was logged); inside one the get is logged when the message is
    /// persistent and the unit keeps the entry, and with it the image, for a backout.
    fn complete_get(
        &self,
        unit: Option<&mut UnitOfWork>,
        queue: &Arc<LocalQueue>,
        entry: MessageEntry,
        controls: &GetControls,
    ) -> StorageResult<()> {
        let object_id = queue.object_id;
        let Some(unit) = unit else {
            let range = self.discard_message(object_id, &entry)?;
            // The entry lets go of an in-memory image: the got data, a view of it, is now
            // its last holder (its drop recycles the buffer).
            drop(entry);
            if let Some((_, end)) = range {
                self.fail_on(self.log.force(end))?;
            }
            return Ok(());
        };
        if entry.persistent {
            let _gate = self.checkpoint_gate.read().unwrap();
            let location = entry.location().expect("persistent messages are on pages");
            let record = GetRecord {
                ur: unit.ur_reference(),
                location,
                object_id,
                sequence: entry.key.sequence,
            };
            let (rba, _) = self.data.log_get(&record)?;
            self.record_operation(
                unit,
                rba,
                UrOperation {
                    is_put: false,
                    location,
                    object_id,
                    sequence: entry.key.sequence,
                },
            );
        }
        unit.message_count += 1;
        // The unit keeps the entry, and with it the image, for a backout.
        let queue = unit.queue_reference(queue);
        unit.gets.push(PendingGet {
            queue,
            entry,
            skip_backout: controls.mark_skip_backout,
        });
        Ok(())
    }

    fn descriptor_error(entry: &MessageEntry, error: impl std::fmt::Display) -> StorageError {
        match entry.location() {
            Some(location) => StorageError::CorruptPage {
                page_set: location.page_set,
                page: location.page,
                path: PathBuf::from(format!("page set {}", location.page_set)),
                detail: format!("message descriptor: {error}"),
            },
            None => StorageError::invalid(format!(
                "message descriptor of in-memory message {}: {error}",
                entry.key.sequence
            )),
        }
    }

    /// A sequential getter on a queue deeper than its buffer pool can hold will soon need
    /// pages that are on disk only: ask the buffer pool to read the next few ahead.
    fn read_ahead_after(&self, queue: &LocalQueue, entry: &MessageEntry) {
        let Some(location) = entry.location() else {
            return;
        };
        let Ok(space) = self.data.space(location.page_set) else {
            return;
        };
        if queue.depth_hint() < space.pool_buffers() / 2 {
            return;
        }
        let mut next = Vec::with_capacity(READ_AHEAD_MESSAGES);
        let mut after = Some(entry.key);
        while next.len() < READ_AHEAD_MESSAGES {
            let Some(following) = queue.browse(&MessageSelector::default(), after) else {
                break;
            };
            next.extend(following.location());
            after = Some(following.key);
        }
        self.data.read_ahead(&next);
    }

    /// Browse: the next matching message after `after`, left on the queue.
    pub fn browse(
        &self,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        after: Option<MessageKey>,
    ) -> StorageResult<Option<RetrievedMessage>> {
        self.browse_with(queue, selector, after, queue::NO_LOCK_HOLDER, None, false)
    }

    /// Browse for lock holder `holder` (messages other handles locked are skipped), waiting
    /// up to `wait` for a matching message to arrive (MQGMO_WAIT with MQGMO_BROWSE_*): the
    /// browser parks like a waiting getter and takes nothing. A waiting browse ends when the
    /// queue manager stops (MQRC_Q_MGR_STOPPING), the queue is deleted (MQRC_Q_DELETED) or,
    /// with `fail_if_quiescing`, the queue manager quiesces (MQRC_Q_MGR_QUIESCING).
    pub fn browse_with(
        &self,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        holder: u64,
        wait: Option<Duration>,
        fail_if_quiescing: bool,
    ) -> StorageResult<Option<RetrievedMessage>> {
        self.check_running()?;
        let interrupted = || {
            self.stopping.load(Ordering::Acquire)
                || queue.is_deleted()
                || (fail_if_quiescing && self.quiescing.load(Ordering::Acquire))
        };
        loop {
            let found = match wait {
                None => queue.browse_visible_to(holder, selector, after),
                Some(wait) => queue.browse_waiting(holder, selector, after, wait, interrupted),
            };
            let Some(entry) = found else {
                if wait.is_some() {
                    if self.stopping.load(Ordering::Acquire) {
                        return Err(StorageError::Stopping);
                    }
                    if fail_if_quiescing && self.is_quiescing() {
                        return Err(StorageError::mq(
                            reason::MQRC_Q_MGR_QUIESCING,
                            "the queue manager is quiescing",
                        ));
                    }
                    if queue.is_deleted() {
                        return Err(StorageError::mq(
                            reason::MQRC_Q_DELETED,
                            format!("queue {} was deleted", queue.name()),
                        ));
                    }
                }
                return Ok(None);
            };
            let read = self.with_image(&entry, |image| {
                decode_descriptor(image).map(|(descriptor, offset)| RetrievedMessage {
                    descriptor,
                    data: image[offset..].to_vec().into(),
                    backout_count: entry.backout_count,
                    key: entry.key,
                })
            });
            match read {
                Ok(decoded) => {
                    let message = decoded.map_err(|error| Self::descriptor_error(&entry, error))?;
                    return Ok(Some(message));
                }
                // Got by someone else between the browse and the read: look again.
                Err(_)
                    if queue
                        .browse_visible_to(holder, selector, after)
                        .map(|next| next.key)
                        != Some(entry.key) =>
                {
                    continue
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// Delete expired messages already taken off `queue` (unclaimed and unindexed): each is
    /// tried, so one whose deletion fails (its page cannot be freed, the log cannot be
    /// written) leaves none of the others undeleted. Returns how many were deleted and the
    /// first failure. A message whose deletion failed stays off the queue (put back, every
    /// get would meet it and fail again); a persistent one is still expired at restart, which
    /// deletes it, and its page space is lost until then.
    fn delete_all_expired(
        &self,
        queue: &LocalQueue,
        entries: Vec<MessageEntry>,
    ) -> (u64, StorageResult<()>) {
        let mut deleted = 0;
        let mut first_error = Ok(());
        for entry in entries {
            match self.delete_expired(queue, &entry) {
                Ok(()) => deleted += 1,
                Err(error) => first_error = first_error.and(Err(error)),
            }
        }
        (deleted, first_error)
    }

    fn delete_expired(&self, queue: &LocalQueue, entry: &MessageEntry) -> StorageResult<()> {
        // The observer (expiration reports) sees the message as it was; read it before the
        // slot is freed. A message that cannot be read is still discarded, without a report.
        let observer = self.expiry_observer.get();
        let expired = observer.and_then(|_| {
            self.with_image(entry, |image| {
                let (descriptor, offset) = decode_descriptor(image).ok()?;
                Some(RetrievedMessage {
                    descriptor,
                    data: image[offset..].to_vec().into(),
                    backout_count: entry.backout_count,
                    key: entry.key,
                })
            })
            .ok()
            .flatten()
        });
        // Not forced: if the deletion is lost, the message is still expired after restart.
        self.discard_message(queue.object_id, entry)?;
        // Outside the checkpoint gate: the observer puts messages of its own.
        if let (Some(observer), Some(message)) = (observer, expired) {
            observer(self, queue, &message);
        }
        Ok(())
    }

    /// MQCMIT (one-phase), or phase 2 after `prepare`.
    pub fn commit(&self, unit: &mut UnitOfWork) -> StorageResult<()> {
        match self.commit_logged(unit)? {
            Some(end) => {
                let forced = self.log.force(end);
                self.commit_durable(unit, end, forced)
            }
            None => self.commit_durable(unit, Rba(0), Ok(())),
        }
    }

    /// A commit in two steps, for a caller that must not wait for the log: the unit's commit
    /// is logged (not forced) and the RBA that must be durable before it completes returned
    /// (`None`: nothing to wait for). Nothing of the unit is visible to others yet; the caller
    /// completes it with [`QueueManager::commit_durable`] once the log says how the force
    /// ended ([`LogManager::notify_when_durable`], [`LogManager::durable_outcome`]).
    pub fn commit_logged(&self, unit: &mut UnitOfWork) -> StorageResult<Option<Rba>> {
        if unit.is_empty() {
            return Ok(None);
        }
        self.check_not_failed()?;
        let frees: Vec<SlotEffect> = unit
            .gets
            .iter()
            .filter_map(|get| get.entry.slot_effect())
            .collect();
        // A unit of work of in-memory messages only has no record to write and no page to
        // free: it skips the checkpoint gate and the data manager.
        let range = if unit.urid.is_none() && frees.is_empty() {
            None
        } else {
            let _gate = self.checkpoint_gate.read().unwrap();
            let record = unit.urid.map(|urid| (kind::COMMIT, encode_urid(urid)));
            let range = self.data.end_unit_of_recovery(record, &frees, &[])?;
            if let Some(urid) = unit.urid {
                self.units_of_recovery.lock().unwrap().remove(&urid);
            }
            range
        };
        Ok(range.map(|(_, end)| end))
    }

    /// The end of a commit whose record [`QueueManager::commit_logged`] logged through
    /// `end`: `forced` is how the force through it ended. Once it is durable, the unit's puts
    /// become visible and its gets final; a failed force fails the queue manager (CSQJ103E)
    /// and the commit, the unit left as it was.
    pub fn commit_durable(
        &self,
        unit: &mut UnitOfWork,
        end: Rba,
        forced: StorageResult<()>,
    ) -> StorageResult<()> {
        self.fail_on(forced)?;
        debug_assert!(
            unit.is_empty() || self.log.durable_rba() >= end,
            "a commit completed before its record is durable"
        );
        if unit.is_empty() {
            return Ok(());
        }
        let mut now = None;
        for put in unit.puts.drain(..) {
            let put_time_ms = last_put_time_ms(put.put_time_ms, &mut now);
            put.queue.insert(put.entry, true, put_time_ms);
            keep_spare_queue(&mut unit.spare_queue, put.queue);
        }
        for get in unit.gets.drain(..) {
            get.queue.get_committed();
            keep_spare_queue(&mut unit.spare_queue, get.queue);
        }
        unit.reset();
        Ok(())
    }

    /// Commit and backout still run while stopping (they end work); only a failed queue
    /// manager refuses them.
    fn check_not_failed(&self) -> StorageResult<()> {
        if self.failed.load(Ordering::Acquire) {
            return Err(StorageError::mq(
                reason::MQRC_Q_MGR_NOT_AVAILABLE,
                "the queue manager failed after an I/O error",
            ));
        }
        Ok(())
    }

    /// Two-phase commit, phase 1: the unit becomes in doubt; the log is forced.
    pub fn prepare(&self, unit: &mut UnitOfWork) -> StorageResult<()> {
        self.check_running()?;
        if let (Some(urid), Some(record)) = (unit.urid, unit.record.clone()) {
            let range = {
                let _gate = self.checkpoint_gate.read().unwrap();
                let range = self.data.append_log(kind::PREPARE, &[&encode_urid(urid)])?;
                record.lock().unwrap().state = UrState::InDoubt;
                range
            };
            self.fail_on(self.log.force(range.1))?;
        }
        unit.prepared = true;
        Ok(())
    }

    /// MQBACK: undo the unit's puts and return its gets to their queues, backout count + 1.
    ///
    /// A message got with MQGMO_MARK_SKIP_BACKOUT is the exception: it is not returned (nor
    /// its backout count raised) but stays got, as if by a new unit of work that `unit`
    /// becomes (a new unit of recovery in the log when it is persistent); committing that
    /// unit removes it, backing it out returns it.
    pub fn backout(&self, unit: &mut UnitOfWork) -> StorageResult<()> {
        if unit.is_empty() {
            return Ok(());
        }
        self.check_not_failed()?;
        let marked = unit
            .gets
            .iter()
            .position(|get| get.skip_backout)
            .map(|index| unit.gets.remove(index));
        let result = self.backout_unmarked(unit);
        if let Some(mut get) = marked {
            debug_assert!(unit.is_empty() || result.is_err());
            get.skip_backout = false;
            if let (true, Some(location)) = (get.entry.persistent, get.entry.location()) {
                let _gate = self.checkpoint_gate.read().unwrap();
                let record = GetRecord {
                    ur: unit.ur_reference(),
                    location,
                    object_id: get.queue.object_id,
                    sequence: get.entry.key.sequence,
                };
                let (rba, _) = self.data.log_get(&record)?;
                self.record_operation(
                    unit,
                    rba,
                    UrOperation {
                        is_put: false,
                        location,
                        object_id: get.queue.object_id,
                        sequence: get.entry.key.sequence,
                    },
                );
            }
            unit.message_count += 1;
            unit.gets.push(get);
        }
        result
    }

    fn backout_unmarked(&self, unit: &mut UnitOfWork) -> StorageResult<()> {
        let frees: Vec<SlotEffect> = unit
            .puts
            .iter()
            .filter_map(|put| put.entry.slot_effect())
            .collect();
        // A message held in memory keeps its backout count in its entry only (restored below).
        let counts: Vec<(SlotEffect, u16)> = unit
            .gets
            .iter()
            .filter_map(|get| {
                let effect = get.entry.slot_effect()?;
                Some((effect, get.entry.backout_count.saturating_add(1)))
            })
            .collect();
        if unit.urid.is_some() || !frees.is_empty() || !counts.is_empty() {
            let _gate = self.checkpoint_gate.read().unwrap();
            let record = unit.urid.map(|urid| {
                let backout_counts = counts
                    .iter()
                    .filter(|(effect, _)| effect.persistent)
                    .map(|(effect, count)| (effect.location, *count))
                    .collect();
                (
                    kind::BACKOUT,
                    BackoutRecord {
                        urid,
                        backout_counts,
                    }
                    .encode(),
                )
            });
            self.data.end_unit_of_recovery(record, &frees, &counts)?;
            if let Some(urid) = unit.urid {
                self.units_of_recovery.lock().unwrap().remove(&urid);
            }
        }
        for put in unit.puts.drain(..) {
            put.queue.release_put();
        }
        for mut get in unit.gets.drain(..) {
            get.entry.backout_count = get.entry.backout_count.saturating_add(1);
            get.queue.restore(get.entry);
        }
        unit.reset();
        Ok(())
    }

    /// Units of recovery restart left in doubt.
    pub fn in_doubt_units(&self) -> Vec<Urid> {
        let mut urids: Vec<Urid> = self.in_doubt.lock().unwrap().keys().copied().collect();
        urids.sort();
        urids
    }

    /// Keep a prepared unit in doubt while its coordinator cannot say which way it goes (a
    /// unit with shared queues' work whose coupling facility failed at commit): its messages
    /// stay held until [`QueueManager::resolve_in_doubt`] or the restart's resolution.
    pub fn keep_in_doubt(&self, unit: UnitOfWork) {
        assert!(unit.prepared, "only a prepared unit is in doubt");
        let Some(urid) = unit.urid else {
            return;
        };
        self.in_doubt.lock().unwrap().insert(urid, unit);
    }

    /// RESOLVE INDOUBT: commit or back out a unit left in doubt.
    pub fn resolve_in_doubt(&self, urid: Urid, commit: bool) -> StorageResult<()> {
        let mut unit = self.in_doubt.lock().unwrap().remove(&urid).ok_or_else(|| {
            StorageError::mq(
                reason::MQRC_UOW_NOT_AVAILABLE,
                format!("no in-doubt unit of recovery {urid}"),
            )
        })?;
        unit.record = self.units_of_recovery.lock().unwrap().get(&urid).cloned();
        if commit {
            self.commit(&mut unit)
        } else {
            self.backout(&mut unit)
        }
    }

    // ----- checkpoints, archive, shutdown ----------------------------------------------------

    fn start_checkpoint_task(self: &Arc<Self>) {
        let weak = Arc::downgrade(self);
        let handle = std::thread::Builder::new()
            .name("checkpoint".to_string())
            .spawn(move || {
                let mut next_expiry_scan_ms = 0u64;
                loop {
                    std::thread::sleep(Duration::from_millis(CHECKPOINT_POLL_INTERVAL_MS));
                    let Some(queue_manager) = weak.upgrade() else {
                        return;
                    };
                    if queue_manager.stopping.load(Ordering::Acquire)
                        || queue_manager.failed.load(Ordering::Acquire)
                    {
                        return;
                    }
                    let loaded = queue_manager
                        .data
                        .log_records_since_checkpoint
                        .load(Ordering::Relaxed)
                        >= queue_manager.config.system.logload;
                    let expiry_interval_ms =
                        u64::from(queue_manager.expiry_interval_seconds()) * 1000;
                    if expiry_interval_ms > 0 && now_ms() >= next_expiry_scan_ms {
                        next_expiry_scan_ms = now_ms() + expiry_interval_ms;
                        if let Err(error) = queue_manager.expire_messages() {
                            queue_manager.say(&format!(
                                "CSQE001E {} EXPIRY SCAN FAILED: {error}",
                                queue_manager.name
                            ));
                        }
                    }
                    if let Err(error) = queue_manager.remove_expired_subscriptions(now_ms()) {
                        queue_manager.say(&format!(
                            "CSQE001E {} SUBSCRIPTION EXPIRY FAILED: {error}",
                            queue_manager.name
                        ));
                    }
                    if let Some(observer) = queue_manager.timer_observer.get() {
                        observer(&queue_manager);
                    }
                    queue_manager.statistics_tick();
                    if queue_manager.log.take_checkpoint_request() || loaded {
                        if let Err(error) = queue_manager.checkpoint() {
                            queue_manager.checkpoint_failed(error);
                        }
                    }
                }
            })
            .expect("spawn checkpoint task");
        *self.checkpoint_task.lock().unwrap() = Some(handle);
    }

    /// The expiry scan (EXPRYINT, and REFRESH QMGR TYPE(EXPIRY)): delete every expired
    /// committed message. Queues where nothing can have expired yet cost one comparison.
    /// Returns the number of messages deleted.
    pub fn expire_messages(&self) -> StorageResult<u64> {
        self.check_running()?;
        let now = now_ms();
        let mut deleted = 0u64;
        let mut first_error = Ok(());
        for queue in self.queues() {
            let (count, result) = self.delete_all_expired(&queue, queue.remove_expired(now));
            deleted += count;
            first_error = first_error.and(result);
        }
        first_error.map(|()| deleted)
    }

    /// Take a checkpoint: record the units of recovery and page set recovery RBAs in the log and
    /// the BSDS, then write buffer pool pages first changed at least two checkpoints ago.
    pub fn checkpoint(&self) -> StorageResult<CheckpointLocation> {
        let mut sequence_guard = self.checkpoint_sequence.lock().unwrap();
        self.checkpoint_failed_in_page_writes
            .store(false, Ordering::Relaxed);
        let sequence = *sequence_guard + 1;
        let (begin, end) = {
            let _gate = self.checkpoint_gate.write().unwrap();
            let horizon = self.log.end_rba();
            let page_set_recovery_rbas = self
                .data
                .spaces()
                .map(|space| {
                    let rba = space
                        .pool
                        .recovery_rba(space.id())
                        .unwrap_or(horizon)
                        .min(horizon);
                    (space.id(), rba)
                })
                .collect();
            let units_of_recovery = self
                .units_of_recovery
                .lock()
                .unwrap()
                .iter()
                .map(|(urid, record)| {
                    let record = record.lock().unwrap();
                    UrSnapshot {
                        urid: *urid,
                        state: record.state,
                        operations: record.operations.clone(),
                    }
                })
                .collect();
            let record = CheckpointRecord {
                checkpoint_sequence: sequence,
                next_message_sequence: self.next_message_sequence.load(Ordering::SeqCst),
                next_object_id: self.next_object_id.load(Ordering::SeqCst),
                page_set_recovery_rbas,
                units_of_recovery,
            };
            let range = self
                .data
                .append_log(kind::CHECKPOINT, &[&record.encode()])?;
            self.data
                .log_records_since_checkpoint
                .store(0, Ordering::Relaxed);
            range
        };
        self.log.force(end)?;
        let location = CheckpointLocation {
            begin_rba: begin,
            end_rba: end,
        };
        self.log.record_checkpoint(location)?;
        *sequence_guard = sequence;
        self.say(&format!(
            "CSQP018I {} CSQPBCKW CHECKPOINT STARTED FOR ALL BUFFER POOLS",
            self.name
        ));
        // A pool whose page writes fail does not stop the others; its unwritten pages stay
        // changed and keep holding back their page sets' recovery RBAs (set below).
        let mut page_write_error = None;
        for pool in &self.pools() {
            match pool.checkpoint(sequence) {
                Ok(written) => self.say(&format!("CSQP019I {} CSQP1DWP CHECKPOINT COMPLETED FOR BUFFER POOL {}, {written} PAGES WRITTEN", self.name, pool.id())),
                Err(error) => {
                    page_write_error.get_or_insert(error);
                }
            }
        }
        for space in self.data.spaces() {
            let rba = space
                .pool
                .recovery_rba(space.id())
                .unwrap_or(begin)
                .min(begin);
            if let Err(error) = space.page_set.set_recovery_rba(rba) {
                self.page_set_errors.report(space.pool.id(), &error);
                page_write_error.get_or_insert(error);
            }
        }
        self.checkpoints_taken.fetch_add(1, Ordering::Relaxed);
        if let Err(error) = self.apply_archive_retention() {
            self.say(&format!(
                "CSQJ152E {} ARCHIVE LOG RETENTION FAILED: {error}; the archives are kept",
                self.name
            ));
        }
        match page_write_error {
            None => {
                self.failed_checkpoints.store(0, Ordering::Relaxed);
                Ok(location)
            }
            Some(error) => {
                let failed_checkpoints =
                    self.failed_checkpoints.fetch_add(1, Ordering::Relaxed) + 1;
                self.checkpoint_failed_in_page_writes
                    .store(true, Ordering::Relaxed);
                if failed_checkpoints >= page_set_errors::PAGE_SET_FAILED_CHECKPOINTS_MAX
                    && !self.failed.swap(true, Ordering::AcqRel)
                {
                    self.say(&format!(
                        "CSQP004E {} PAGE SET WRITES FAILED AT {failed_checkpoints} CHECKPOINTS IN A ROW, QUEUE \
                         MANAGER STOPS ACCEPTING WORK: {error}; restart it once the page set's device is \
                         repaired (restart recovers every committed message from the log)",
                        self.name
                    ));
                }
                Err(error)
            }
        }
    }

    /// The lowest log RBA restart or media recovery may still read (see `log/retention.rs`):
    /// (floor, restart RBA, lowest registered backup's recovery RBA).
    pub fn archive_retention_floor(&self) -> StorageResult<(Rba, Rba, Option<Rba>)> {
        let lowest_page_set = self
            .data
            .spaces()
            .map(|space| space.page_set.header().recovery_rba)
            .min()
            .unwrap_or(Rba::ZERO);
        let restart = self
            .log
            .checkpoint_history()
            .iter()
            .filter(|location| location.begin_rba <= lowest_page_set)
            .map(|location| location.begin_rba)
            .max()
            .unwrap_or(Rba::ZERO);
        let media =
            ferrite_storage::log::retention::registered_backups(&*self.fs, &self.directory)?
                .into_iter()
                .map(|(_, rba)| rba)
                .min();
        Ok((restart.min(media.unwrap_or(restart)), restart, media))
    }

    /// Delete the archives ARCRETN and MAXARCH let go of, below the retention floor.
    fn apply_archive_retention(&self) -> StorageResult<()> {
        let (floor, _, _) = self.archive_retention_floor()?;
        for (archive, why) in self.log.apply_archive_retention(floor)? {
            self.say(&format!(
                "CSQJ151I {} ARCHIVE LOG {} RBA {}-{} DELETED ({why}; the log is needed from RBA {floor})",
                self.name,
                archive.copies.join(", "),
                Rba(archive.start_rba),
                Rba(archive.end_rba)
            ));
        }
        Ok(())
    }

    /// Register a backup of page set `page_set` whose media recovery starts at `recovery_rba`
    /// (the backup's header recovery RBA): the archives it needs are kept.
    pub fn record_page_set_backup(
        &self,
        page_set: PageSetId,
        recovery_rba: Rba,
    ) -> StorageResult<()> {
        ferrite_storage::log::retention::record_page_set_backup(
            &*self.fs,
            &self.directory,
            page_set,
            recovery_rba,
        )
    }

    /// Page set write errors (deferred, synchronous and checkpoint writes) since start.
    pub fn page_set_write_errors(&self) -> u64 {
        self.page_set_errors.total()
    }

    /// The checkpoint task's answer to a failed checkpoint: a log failure stops the queue
    /// manager at once; a page set write failure is retried by later writes and checkpoints
    /// (`checkpoint` stops the queue manager after
    /// [`page_set_errors::PAGE_SET_FAILED_CHECKPOINTS_MAX`] of them in a row).
    fn checkpoint_failed(&self, error: StorageError) {
        if !self
            .checkpoint_failed_in_page_writes
            .load(Ordering::Relaxed)
        {
            // Not a page write: the checkpoint record or the BSDS could not be written.
            self.say(&format!(
                "CSQP020E {} CHECKPOINT FAILED: {error}",
                self.name
            ));
            let _ = self.fail_on::<()>(Err(error));
            return;
        }
        if !self.failed.load(Ordering::Acquire) {
            self.say(&format!(
                "CSQP020E {} CHECKPOINT INCOMPLETE ({} of {} allowed in a row): page set writes \
                 failed: {error}; the queue manager continues and writes the pages again",
                self.name,
                self.failed_checkpoints.load(Ordering::Relaxed),
                page_set_errors::PAGE_SET_FAILED_CHECKPOINTS_MAX
            ));
        }
    }

    /// ARCHIVE LOG: switch active logs now, offload the old one, take a checkpoint.
    pub fn archive_log(&self) -> StorageResult<()> {
        self.check_running()?;
        self.log.archive_log()?;
        self.checkpoint()?;
        Ok(())
    }

    /// Normal shutdown: stop new work, take the shutdown checkpoint, write every changed
    /// persistent page, close the log.
    pub fn shutdown(&self) -> StorageResult<()> {
        if self.stopping.swap(true, Ordering::AcqRel) {
            return Ok(());
        }
        self.wait_for_buffer_pool_resize();
        for queue in self.queues() {
            queue.wake_all();
        }
        if let Some(handle) = self.checkpoint_task.lock().unwrap().take() {
            let _ = handle.join();
        }
        if self.failed.load(Ordering::Acquire) {
            for pool in &self.pools() {
                pool.shutdown();
            }
            return Ok(());
        }
        self.leave_queue_sharing_group();
        let checkpoint = self.checkpoint()?;
        let mut written = 0;
        for pool in &self.pools() {
            written += pool.flush_for_shutdown()?;
        }
        for space in self.data.spaces() {
            let rba = space
                .pool
                .recovery_rba(space.id())
                .unwrap_or(checkpoint.begin_rba)
                .min(checkpoint.begin_rba);
            space.page_set.set_recovery_rba(rba)?;
        }
        self.log.shutdown()?;
        for pool in &self.pools() {
            pool.shutdown();
        }
        // The log is closed and the pools written and stopped: nothing of this instance writes
        // the directory's files any more, so it may be opened again while this one lingers.
        // (After a failure the log still shuts down when dropped; the drop releases it then.)
        self.directory_claim.lock().unwrap().take();
        self.say(&format!("CSQ9022I {} CSQYASCP ' STOP QMGR' NORMAL COMPLETION ({written} PAGES WRITTEN AT SHUTDOWN)", self.name));
        Ok(())
    }

    /// Tell the queue sharing group (if any) that this member stops; a failure is reported,
    /// not fatal (the next start records it active again).
    fn leave_queue_sharing_group(&self) {
        if let Some(group) = self.queue_sharing_group.get() {
            if let Err(error) = group.leave() {
                self.say(&format!(
                    "CSQ5003A {} CONNECTION TO THE QUEUE SHARING GROUP {} NOT ENDED CLEANLY: {error}",
                    self.name,
                    group.name()
                ));
            }
        }
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Acquire)
    }

    /// STOP QMGR MODE(QUIESCE), first step: from now on MQI calls with FAIL_IF_QUIESCING are
    /// refused with MQRC_Q_MGR_QUIESCING, and gets waiting with it end at once. Other work
    /// continues until [`QueueManager::shutdown`].
    pub fn quiesce(&self) {
        self.quiescing.store(true, Ordering::Release);
        for queue in self.queues() {
            queue.wake_all();
        }
    }

    /// Whether [`QueueManager::quiesce`] has been called.
    pub fn is_quiescing(&self) -> bool {
        self.quiescing.load(Ordering::Acquire)
    }

    // ----- statistics ----------------------------------------------------------------------

    pub fn buffer_pool_statistics(&self) -> Vec<(BufferPoolId, BufferPoolStatistics)> {
        self.pools()
            .iter()
            .map(|pool| (pool.id(), pool.statistics()))
            .collect()
    }

    pub fn log_statistics(&self) -> LogStatistics {
        self.log.statistics()
    }

    /// A statistics interval begins for the log's longest I/Os (QJSTIO).
    pub(crate) fn reset_log_interval_statistics(&self) {
        self.log.reset_interval_statistics();
    }

    pub fn checkpoints_taken(&self) -> u64 {
        self.checkpoints_taken.load(Ordering::Relaxed)
    }

    /// Buffer pool statistics with MP16's field names (SMF 115 QPST), one block per pool.
    pub fn display_buffer_pool_statistics(&self) -> String {
        let mut text = String::new();
        for (id, s) in self.buffer_pool_statistics() {
            text.push_str(&format!(
                "CSQP054I {} Buffer pool {id} statistics (QPST)\n                  QPSTNBUF {} QPSTCBSL {} QPSTCBS {} QPSTGETP {} QPSTGETN {} QPSTSTW {} QPSTRIO {}\n                  QPSTDWT {} QPSTTPW {} QPSTWIO {} QPSTIMW {} QPSTDMC {} QPSTSTL {} QPSTSTLA {} QPSTSOS {}\n",
                self.name,
                s.qpstnbuf, s.qpstcbsl, s.qpstcbs, s.qpstgetp, s.qpstgetn, s.qpststw, s.qpstrio,
                s.qpstdwt, s.qpsttpw, s.qpstwio, s.qpstimw, s.qpstdmc, s.qpststl, s.qpststla, s.qpstsos,
            ));
        }
        text
    }

    /// DISPLAY LOG: the current RBA and the log manager counters.
    pub fn display_log(&self) -> String {
        let statistics = self.log.statistics();
        format!(
            "CSQJ322I {} DISPLAY LOG report ...\n Parameter   Initial value\n OUTBUFF     {}\n WRTHRSH     {}\n TWOACTV     {}\n LOGLOAD     {}\n\
             CSQJ370I {} LOG status report ...\n Current RBA {}  Durable RBA {}\n Checkpoints {}\n\
             Write_Wait {} Write_Nowait {} Write_Force {} WTB {}\n BFFL {} BFWR {} LOGW {:?} bytes {:?}\n CIs_Offload {} BSDS_Reqs {}\n{}",
            self.name,
            self.config.log.outbuff_kib,
            self.config.log.wrthrsh,
            if self.config.log.twoactv { "YES" } else { "NO" },
            self.config.system.logload,
            self.name,
            self.log.end_rba(),
            self.log.durable_rba(),
            statistics.qjstllcp,
            statistics.qjstwrw,
            statistics.qjstwrnw,
            statistics.qjstwrf,
            statistics.qjstwtb,
            statistics.qjstbffl,
            statistics.qjstbfwr,
            statistics.qjstlogw,
            statistics.bytes_written,
            statistics.qjstciof,
            statistics.qjstbsds,
            self.display_archive_retention(),
        )
    }

    /// DISPLAY LOG's archive lines: what is kept, under which limits, and why.
    fn display_archive_retention(&self) -> String {
        let archives = self.log.archives();
        let parameters = self.log.archive_parameters();
        let state = self.log.retention_state();
        let needed = match self.archive_retention_floor() {
            Ok((floor, restart, media)) => format!(
                " Log needed from RBA {floor} (restart {restart}, media recovery {})\n",
                media.map_or("NONE REGISTERED".to_string(), |rba| rba.to_string())
            ),
            Err(error) => format!(" Log needed from: unknown ({error})\n"),
        };
        let mut text = format!(
            " Archive logs kept {} (MAXARCH {}, ARCRETN {} days), {} deleted since start\n{needed}",
            archives.len(),
            parameters.max_archives,
            parameters.retention_days,
            state.deleted
        );
        // The newest ones (the BSDS holds the full inventory).
        const ARCHIVES_LISTED_MAX: usize = 20;
        if archives.len() > ARCHIVES_LISTED_MAX {
            text.push_str(&format!(
                "  ... {} older archives\n",
                archives.len() - ARCHIVES_LISTED_MAX
            ));
        }
        for archive in &archives[archives.len().saturating_sub(ARCHIVES_LISTED_MAX)..] {
            text.push_str(&format!(
                "  {} RBA {}-{}\n",
                archive.copies.join(", "),
                Rba(archive.start_rba),
                Rba(archive.end_rba)
            ));
        }
        text
    }
}

impl Drop for QueueManager {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Release);
    }
}

fn write_small_file(fs: &dyn FileSystem, path: &Path, bytes: &[u8]) -> StorageResult<()> {
    let file = fs
        .open(path, OpenMode::CreateNew)
        .map_err(|e| StorageError::io(path, "create", e))?;
    file.write_at(bytes, 0)
        .map_err(|e| StorageError::io(path, "write", e))?;
    file.sync_data()
        .map_err(|e| StorageError::io(path, "sync", e))
}

fn read_small_file(fs: &dyn FileSystem, path: &Path) -> StorageResult<Vec<u8>> {
    let file = fs
        .open(path, OpenMode::ReadOnly)
        .map_err(|e| StorageError::io(path, "open", e))?;
    let length = file.len().map_err(|e| StorageError::io(path, "stat", e))?;
    if length > 1024 * 1024 {
        return Err(StorageError::CorruptMetadata {
            path: path.to_path_buf(),
            detail: "file too large".into(),
        });
    }
    let mut bytes = vec![0u8; length as usize];
    file.read_at(&mut bytes, 0)
        .map_err(|e| StorageError::io(path, "read", e))?;
    Ok(bytes)
}

/// Keep the queue reference a commit released, for the unit's next put or get to that queue
/// (`UnitOfWork::spare_queue`), unless the queue is deleted: a deleted temporary dynamic queue,
/// with any messages committed into it after its deletion, must go when this commit drops it,
/// not when the connection next works on another queue.
fn keep_spare_queue(spare_queue: &mut Option<Arc<LocalQueue>>, queue: Arc<LocalQueue>) {
    if !queue.is_deleted() {
        *spare_queue = Some(queue);
    }
}
