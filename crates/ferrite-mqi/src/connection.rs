//! A connection to an in-process queue manager (MQCONN/MQCONNX) and the MQI calls on it.

mod get_watch;
pub use get_watch::NextMessage;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ferrite_constants::{
    appl_type::MQAT_DEFAULT,
    ccsid::MQCCSI_Q_MGR,
    close_options::{MQCO_DELETE, MQCO_DELETE_PURGE, MQCO_KEEP_SUB, MQCO_QUIESCE, MQCO_REMOVE_SUB},
    connect_options::*,
    expiry::MQEI_UNLIMITED,
    get_options::*,
    ids::{MQCI_NONE, MQGI_NONE, MQMI_NONE},
    match_options::*,
    message_type::{MQMT_APPL_FIRST, MQMT_APPL_LAST, MQMT_REQUEST},
    misc::{MQEVO_MQSET, MQEVO_OTHER},
    object_type::{MQOT_NAMELIST, MQOT_PROCESS, MQOT_Q, MQOT_Q_MGR},
    open_options::*,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENCE_AS_Q_DEF, MQPER_PERSISTENT},
    priority::MQPRI_PRIORITY_AS_Q_DEF,
    put_options::*,
    queue_type::MQQT_ALIAS,
    reason::*,
    selector::*,
    structs::MQGMO_VERSION_2,
    wait::MQWI_UNLIMITED,
};
use ferrite_storage::data_manager::message::Identifier;
use ferrite_storage::queue_manager::hashing::FastHashing;
use ferrite_storage::queue_manager::{
    now_ms, thread_number, AliasDefinition, ConfigurationChange, ConnectingUser, ConnectionRecord,
    DefinitionType, GetControls, GetOutcome, HandleRecord, LocalAuthentication, LocalQueue,
    MessageKey, MessageSelector, ObjectDefinition, ObjectTimes, ObjectType, QueueDefinition,
    QueueManager, RetrievedMessage, UnitOfWork,
};

use crate::async_status::{AsyncPutStatus, PutTarget};
use crate::descriptor::{self, trim, QUEUE_MANAGER_CCSID};
use crate::error::{MqError, MqResult};
use crate::groups::{self, Position};
use crate::mq_char::MqChar;

#[path = "connection_groups.rs"]
mod connection_groups;
use crate::selection::Selection;
use crate::structures::{Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use crate::{depth_events, queue_manager_events, triggering};
use connection_groups::GroupGet;

pub use ferrite_mqi_types::{AttributeValue, GetResult, Hobj, Inquired};

/// The greatest message priority (the queue manager's MAXPRTY).
pub const MAX_PRIORITY: i32 = 9;

/// MQINQ selectors a local queue answers.
pub const QUEUE_SELECTORS: &[i32] = &[
    MQCA_Q_NAME,
    MQCA_Q_DESC,
    MQCA_STORAGE_CLASS,
    MQIA_Q_TYPE,
    MQIA_CURRENT_Q_DEPTH,
    MQIA_MAX_Q_DEPTH,
    MQIA_MAX_MSG_LENGTH,
    MQIA_DEF_PERSISTENCE,
    MQIA_DEF_PRIORITY,
    MQIA_INHIBIT_PUT,
    MQIA_INHIBIT_GET,
    MQIA_OPEN_INPUT_COUNT,
    MQIA_OPEN_OUTPUT_COUNT,
    MQIA_SHAREABILITY,
    MQIA_DEF_INPUT_OPEN_OPTION,
    MQIA_MSG_DELIVERY_SEQUENCE,
    MQIA_INDEX_TYPE,
    MQIA_PAGESET_ID,
    MQIA_BACKOUT_THRESHOLD,
    MQCA_BACKOUT_REQ_Q_NAME,
    MQIA_HARDEN_GET_BACKOUT,
    MQIA_DEFINITION_TYPE,
];

/// MQINQ selectors an alias queue answers (a handle opened through an alias inquires the
/// alias, as in MQ).
pub const ALIAS_SELECTORS: &[i32] = &[
    MQCA_Q_NAME,
    MQCA_Q_DESC,
    MQCA_BASE_Q_NAME,
    MQIA_Q_TYPE,
    MQIA_INHIBIT_PUT,
    MQIA_INHIBIT_GET,
    MQIA_DEF_PERSISTENCE,
    MQIA_DEF_PRIORITY,
];

/// MQINQ selectors a process definition answers.
pub const PROCESS_SELECTORS: &[i32] = &[
    MQCA_PROCESS_NAME,
    MQCA_PROCESS_DESC,
    MQCA_APPL_ID,
    MQIA_APPL_TYPE,
    MQCA_USER_DATA,
    MQCA_ENV_DATA,
];

/// MQINQ selectors a namelist answers (MQCA_NAMES: every name blank-padded to 48
/// characters, concatenated, as MQ returns them).
pub const NAMELIST_SELECTORS: &[i32] = &[
    MQCA_NAMELIST_NAME,
    MQCA_NAMELIST_DESC,
    MQIA_NAME_COUNT,
    MQCA_NAMES,
];

/// The longest DynamicQName prefix before the `*`: the generated suffix is 16 hexadecimal
/// digits and a queue name at most 48 characters.
pub const DYNAMIC_Q_NAME_PREFIX_MAX: usize = 32;

/// MQINQ selectors the queue manager object answers.
pub const QUEUE_MANAGER_SELECTORS: &[i32] = &[
    MQCA_Q_MGR_NAME,
    MQIA_CODED_CHAR_SET_ID,
    MQIA_MAX_PRIORITY,
    MQIA_SYNCPOINT,
    MQIA_MAX_UNCOMMITTED_MSGS,
    MQIA_PLATFORM,
    MQIA_COMMAND_LEVEL,
    MQCA_Q_MGR_IDENTIFIER,
    MQCA_Q_MGR_DESC,
    MQCA_COMMAND_INPUT_Q_NAME,
    MQIA_MAX_MSG_LENGTH,
    MQIA_ADVANCED_CAPABILITY,
    MQCA_DEAD_LETTER_Q_NAME,
    MQIA_DIST_LISTS,
];

/// Every MQOO_* bit MQOPEN knows.
/// What [`Target::Lent`] relies on: a handle's queue is lent only for the MQPUT or MQGET
/// running on that handle, which neither closes the handle nor reads its target.
const LENT_QUEUE_CONTRACT: &str =
    "a handle's queue is lent only to the MQPUT or MQGET on it, which keeps the handle open";

const KNOWN_OPEN_OPTIONS: i32 = MQOO_INPUT_AS_Q_DEF
    | MQOO_INPUT_SHARED
    | MQOO_INPUT_EXCLUSIVE
    | MQOO_BROWSE
    | MQOO_OUTPUT
    | MQOO_INQUIRE
    | MQOO_SET
    | MQOO_SAVE_ALL_CONTEXT
    | MQOO_PASS_IDENTITY_CONTEXT
    | MQOO_PASS_ALL_CONTEXT
    | MQOO_SET_IDENTITY_CONTEXT
    | MQOO_SET_ALL_CONTEXT
    | MQOO_ALTERNATE_USER_AUTHORITY
    | MQOO_FAIL_IF_QUIESCING
    | MQOO_BIND_ON_OPEN
    | MQOO_BIND_NOT_FIXED
    | MQOO_BIND_ON_GROUP
    | MQOO_RESOLVE_NAMES
    | MQOO_CO_OP
    | MQOO_RESOLVE_LOCAL_Q
    | MQOO_NO_READ_AHEAD
    | MQOO_READ_AHEAD
    | MQOO_NO_MULTICAST;

/// Every MQGMO_* bit MQGET knows.
const KNOWN_GET_OPTIONS: i32 = MQGMO_WAIT
    | MQGMO_MARK_SKIP_BACKOUT
    | MQGMO_LOCK
    | MQGMO_UNLOCK
    | MQGMO_SYNCPOINT
    | MQGMO_NO_SYNCPOINT
    | MQGMO_BROWSE_FIRST
    | MQGMO_BROWSE_NEXT
    | MQGMO_ACCEPT_TRUNCATED_MSG
    | MQGMO_MSG_UNDER_CURSOR
    | MQGMO_BROWSE_MSG_UNDER_CURSOR
    | MQGMO_SYNCPOINT_IF_PERSISTENT
    | MQGMO_FAIL_IF_QUIESCING
    | MQGMO_CONVERT
    // Where properties go: message_handles.rs with the queue's PROPCTL.
    | MQGMO_NO_PROPERTIES
    | MQGMO_PROPERTIES_FORCE_MQRFH2
    | MQGMO_PROPERTIES_COMPATIBILITY
    | MQGMO_PROPERTIES_IN_HANDLE
    // Groups and segments (groups.rs).
    | MQGMO_LOGICAL_ORDER
    | MQGMO_COMPLETE_MSG
    | MQGMO_ALL_MSGS_AVAILABLE
    | MQGMO_ALL_SEGMENTS_AVAILABLE
    | UNSUPPORTED_GET_OPTIONS;

/// MQGMO options recognised but not implemented yet (MQRC_FUNCTION_NOT_SUPPORTED).
const UNSUPPORTED_GET_OPTIONS: i32 = MQGMO_SET_SIGNAL
    | MQGMO_MARK_BROWSE_HANDLE
    | MQGMO_MARK_BROWSE_CO_OP
    | MQGMO_UNMARK_BROWSE_CO_OP
    | MQGMO_UNMARK_BROWSE_HANDLE
    | MQGMO_UNMARKED_BROWSE_MSG;

/// Every MQPMO_* bit MQPUT knows.
const KNOWN_PUT_OPTIONS: i32 = MQPMO_SYNCPOINT
    | MQPMO_NO_SYNCPOINT
    | MQPMO_DEFAULT_CONTEXT
    | MQPMO_NEW_MSG_ID
    | MQPMO_NEW_CORREL_ID
    | MQPMO_PASS_IDENTITY_CONTEXT
    | MQPMO_PASS_ALL_CONTEXT
    | MQPMO_SET_IDENTITY_CONTEXT
    | MQPMO_SET_ALL_CONTEXT
    | MQPMO_ALTERNATE_USER_AUTHORITY
    | MQPMO_FAIL_IF_QUIESCING
    | MQPMO_NO_CONTEXT
    | MQPMO_LOGICAL_ORDER
    | MQPMO_ASYNC_RESPONSE
    | MQPMO_SYNC_RESPONSE
    | MQPMO_RESOLVE_LOCAL_Q
    | MQPMO_WARN_IF_NO_SUBS_MATCHED
    | MQPMO_RETAIN
    | MQPMO_MD_FOR_OUTPUT_ONLY
    | MQPMO_SCOPE_QMGR
    | MQPMO_SUPPRESS_REPLYTO
    | MQPMO_NOT_OWN_SUBS;

/// MQPMO options recognised but not implemented yet (MQRC_FUNCTION_NOT_SUPPORTED).
const UNSUPPORTED_PUT_OPTIONS: i32 = MQPMO_RETAIN | MQPMO_MD_FOR_OUTPUT_ONLY;

/// This process's user (the first 12 bytes of $USER, whole characters) and program name (the
/// last 28 bytes of its executable's name, whole characters, as MQ keeps PutApplName), read
/// once: MQCONN is on the path of applications that connect per request, and neither changes
/// while the process runs.
fn process_identity() -> &'static (String, MqChar<28>) {
    static IDENTITY: std::sync::OnceLock<(String, MqChar<28>)> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        let user = MqChar::<12>::truncating(&std::env::var("USER").unwrap_or_default());
        let program = std::env::current_exe()
            .ok()
            .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        (user.to_string(), MqChar::last_fitting(&program))
    })
}

/// CHCKLOCL for an in-process MQCONN: this process connects, with the MQCSP of `cno`.
/// Returns the user ID to run under when ADOPTCTX adopts the authenticated one.
fn authenticate_in_process(queue_manager: &QueueManager, cno: &Mqcno) -> MqResult<Option<String>> {
    static THIS_PROCESS: std::sync::OnceLock<ConnectingUser> = std::sync::OnceLock::new();
    let credentials = cno
        .security_parms
        .as_ref()
        .map(|csp| (csp.user_id.as_str(), csp.password.as_bytes()));
    let user = THIS_PROCESS.get_or_init(ConnectingUser::this_process);
    match queue_manager.authenticate_local("in-process", user, credentials) {
        LocalAuthentication::Accepted { adopted_user } => {
            Ok(adopted_user.map(|user| user.chars().take(12).collect()))
        }
        LocalAuthentication::Refused { reason, fail_delay } => {
            std::thread::sleep(fail_delay);
            failed(reason)
        }
    }
}

/// The MsgToken of a message: a 16-byte name of the message while it is on its queue,
/// returned by every get and browse, and matched with MQMO_MATCH_MSG_TOKEN (IBM's Java client
/// uses it to fetch a message again after a get failed with MQRC_TRUNCATED_MSG_FAILED).
///
/// ```text
/// 0 1 'F'   1 1 inverted priority (9 - Priority)   2 6 zero   8 8 arrival sequence, big-endian
/// ```
fn message_token(key: MessageKey) -> [u8; 16] {
    let mut token = [0u8; 16];
    token[0] = b'F';
    token[1] = key.inverted_priority;
    token[8..].copy_from_slice(&key.sequence.to_be_bytes());
    token
}

/// The message a token names, or `None` for bytes that are not a Ferrite token.
fn key_of_message_token(token: &[u8; 16]) -> Option<MessageKey> {
    if token[0] != b'F' || token[1] > 9 || token[2..8] != [0; 6] {
        return None;
    }
    let sequence = u64::from_be_bytes(token[8..].try_into().expect("8 bytes"));
    Some(MessageKey::new(9 - token[1], sequence))
}

/// Generator of unique message and correlation ids: "CSQ " + the first four characters of the
/// queue manager name + the process id (twice, 8 bytes) + 8 bytes of a counter seeded from the
/// clock in nanoseconds (so ids stay unique across restarts).
pub(crate) fn new_identifier(queue_manager: &str) -> Identifier {
    identifier_with(queue_manager, next_identifier_counter(1))
}

/// The identifier counter: the next value [`new_identifier`] uses.
static IDENTIFIER_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Take `block` consecutive values of the identifier counter, the first a multiple of
/// `block` (a power of two), and return it.
fn next_identifier_counter(block: u64) -> u64 {
    debug_assert!(block.is_power_of_two());
    if IDENTIFIER_COUNTER.load(Ordering::Relaxed) == 0 {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        let _ = IDENTIFIER_COUNTER.compare_exchange(0, seed, Ordering::Relaxed, Ordering::Relaxed);
    }
    if block == 1 {
        return IDENTIFIER_COUNTER.fetch_add(1, Ordering::Relaxed);
    }
    let mut current = IDENTIFIER_COUNTER.load(Ordering::Relaxed);
    loop {
        let first = current.next_multiple_of(block);
        match IDENTIFIER_COUNTER.compare_exchange_weak(
            current,
            first + block,
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => return first,
            Err(actual) => current = actual,
        }
    }
}

/// Reserve `count` (1 to 2^24) message identifiers for a client that generates them itself
/// (IBM's client, SPI RESERVE). Returns the first and how many of its last bytes count: the
/// others are the first with that big-endian counter (0 in the first) raised by 1 to
/// `count - 1`. No other identifier this process issues is in the range.
pub fn reserve_identifiers(queue_manager: &str, count: u32) -> (Identifier, usize) {
    assert!(
        (1..=1 << 24).contains(&count),
        "reserve 1 to 2^24 identifiers"
    );
    let counter_bytes = (u32::BITS - (count - 1).leading_zeros()).div_ceil(8).max(1) as usize;
    let first = next_identifier_counter(1 << (8 * counter_bytes));
    let id = identifier_with(queue_manager, first);
    debug_assert!(id[24 - counter_bytes..].iter().all(|byte| *byte == 0));
    (id, counter_bytes)
}

/// The first of 2^`bits` consecutive identifiers no other call hands out (for a client's
/// asynchronous puts, `async_status::reserve_message_ids`): its low `bits` bits are zero.
pub(crate) fn reserve_identifier_range(queue_manager: &str, bits: u32) -> Identifier {
    assert!((1..=32).contains(&bits), "identifier range of {bits} bits");
    identifier_with(queue_manager, next_identifier_counter(1u64 << bits))
}

/// The identifier with counter value `value`.
fn identifier_with(queue_manager: &str, value: u64) -> Identifier {
    static PROCESS_ID: std::sync::OnceLock<[u8; 4]> = std::sync::OnceLock::new();
    let mut id = [b' '; 24];
    id[..4].copy_from_slice(b"CSQ ");
    for (slot, byte) in id[4..8].iter_mut().zip(queue_manager.bytes()) {
        *slot = byte;
    }
    let process_id = PROCESS_ID.get_or_init(|| std::process::id().to_be_bytes());
    id[8..12].copy_from_slice(process_id);
    id[12..16].copy_from_slice(process_id);
    id[16..24].copy_from_slice(&value.to_be_bytes());
    id
}

enum Target {
    Queue(Arc<LocalQueue>),
    QueueManager,
    /// A process or namelist, opened for MQINQ.
    Definition(ObjectType, String),
    /// The handle's queue, taken out for the MQPUT or MQGET running on the handle
    /// ([`Connection::lend_queue`]); nothing else reads a handle during that call.
    Lent,
}

struct ObjectHandle {
    target: Target,
    /// The alias queue the handle was opened through: its PUT/GET inhibits and message
    /// defaults apply, and MQINQ answers for it.
    alias: Option<String>,
    /// This handle's MQOPEN created the temporary dynamic queue it refers to: MQCLOSE of the
    /// handle deletes the queue.
    created_temporary: bool,
    options: i32,
    /// Some(exclusive) when open for input.
    input: Option<bool>,
    output: bool,
    /// The browse cursor: the message last browsed.
    cursor: Option<MessageKey>,
    /// The selector the handle was opened with (MQOD SelectionString).
    selection: Option<Selection>,
    /// Logical order positions for puts, gets and browsing (groups.rs).
    groups: groups::HandleGroups,
    /// This handle as a lock holder (MQGMO_LOCK): unique in the process, never 0.
    lock_holder: u64,
    /// MQOO_SAVE_ALL_CONTEXT: the descriptor of the last message got destructively through
    /// the handle, whose context MQPMO_PASS_*_CONTEXT passes on.
    saved_context: Option<Box<Mqmd>>,
}

/// A new lock holder number for an object handle (MQGMO_LOCK): unique in the process.
fn new_lock_holder() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A connection (MQHCONN) to an in-process queue manager. One thread uses a connection at a
/// time, as MQ's default handle-sharing (MQCNO_HANDLE_SHARE_NONE) requires; it may move
/// between threads. Its unit of work holds everything put and got in syncpoint since the last
/// MQCMIT or MQBACK.
///
/// Syncpoint default: an MQPUT or MQGET that names neither SYNCPOINT nor NO_SYNCPOINT is in the
/// unit of work, as on z/OS (distributed MQ puts it outside).
///
/// MQDISC commits the unit of work, as both z/OS batch and distributed MQ do at a normal
/// disconnect; a connection dropped without MQDISC (the application ended abnormally) is
/// backed out.
pub struct Connection {
    queue_manager: Arc<QueueManager>,
    unit: UnitOfWork,
    /// Hashed with the engine's fast hasher: every MQI call looks its handle up.
    handles: HashMap<i32, ObjectHandle, FastHashing>,
    /// This connection in the queue manager's registry (DISPLAY CONN).
    record: Arc<ConnectionRecord>,
    next_handle: i32,
    /// The identity context's UserIdentifier this connection's puts carry (MQ's 12 bytes).
    user_identifier: MqChar<12>,
    /// PutApplName of this connection's puts (MQ's 28 bytes).
    appl_name: MqChar<28>,
    /// Temporary dynamic queues this connection created and has not deleted yet: deleted
    /// when the connection ends.
    temporary_queues: Vec<Arc<LocalQueue>>,
    /// Outcomes of asynchronous puts since the last MQSTAT (`async_status`).
    pub(crate) async_status: AsyncPutStatus,
    /// Message handles (MQCRTMH), see `message_handles.rs`.
    pub(crate) message_handles: crate::message_handles::MessageHandles,
    /// Trigger hook: the unit of work's uncommitted puts to triggered queues and the trigger
    /// messages it holds until it is resolved.
    arrivals: triggering::PendingArrivals,
}

fn failed<T>(reason: i32) -> MqResult<T> {
    Err(MqError::failed(reason))
}

impl Connection {
    /// MQCONN: connect to `queue_manager`. `q_mgr_name` must be blank or its name
    /// (MQRC_Q_MGR_NAME_ERROR otherwise).
    pub fn connect(queue_manager: Arc<QueueManager>, q_mgr_name: &str) -> MqResult<Connection> {
        Self::connect_with(queue_manager, q_mgr_name, &Mqcno::default())
    }

    /// MQCONNX: connect with connect options. Refused with MQRC_Q_MGR_QUIESCING while the
    /// queue manager quiesces and MQRC_Q_MGR_NOT_AVAILABLE once it has stopped.
    ///
    /// Connection authentication: the queue manager's CHCKLOCL decides, with this process as
    /// the connecting user and `cno.security_parms` as its user ID and password
    /// (MQRC_NOT_AUTHORIZED when refused, after FAILDLAY for a wrong password); with
    /// ADOPTCTX(YES) an authenticated connection runs under the user ID it gave.
    pub fn connect_with(
        queue_manager: Arc<QueueManager>,
        q_mgr_name: &str,
        cno: &Mqcno,
    ) -> MqResult<Connection> {
        Self::connect_checked(queue_manager, q_mgr_name, cno, true)
    }

    /// MQCONNX without CHCKLOCL: for the queue manager's own components (the command server)
    /// and for a listener that has authenticated its peer itself (the bindings socket with
    /// CHCKLOCL, client channels with CHCKCLNT) and sets the connection's user ID afterwards.
    /// This process's identity and `cno.security_parms` are not checked.
    pub fn connect_authenticated(
        queue_manager: Arc<QueueManager>,
        q_mgr_name: &str,
        cno: &Mqcno,
    ) -> MqResult<Connection> {
        Self::connect_checked(queue_manager, q_mgr_name, cno, false)
    }

    fn connect_checked(
        queue_manager: Arc<QueueManager>,
        q_mgr_name: &str,
        cno: &Mqcno,
        check_local: bool,
    ) -> MqResult<Connection> {
        let name = trim(q_mgr_name);
        if !name.is_empty() && name != queue_manager.name() {
            return failed(MQRC_Q_MGR_NAME_ERROR);
        }
        let share = cno.options
            & (MQCNO_HANDLE_SHARE_NONE | MQCNO_HANDLE_SHARE_BLOCK | MQCNO_HANDLE_SHARE_NO_BLOCK);
        let binding = cno.options
            & (MQCNO_FASTPATH_BINDING
                | MQCNO_SHARED_BINDING
                | MQCNO_ISOLATED_BINDING
                | MQCNO_LOCAL_BINDING
                | MQCNO_CLIENT_BINDING);
        if share.count_ones() > 1 || binding.count_ones() > 1 {
            return failed(MQRC_OPTIONS_ERROR);
        }
        if cno.options & MQCNO_CLIENT_BINDING != 0 {
            return failed(MQRC_ENVIRONMENT_ERROR);
        }
        if queue_manager.is_stopping() {
            return failed(MQRC_Q_MGR_NOT_AVAILABLE);
        }
        if queue_manager.is_quiescing() {
            return failed(MQRC_Q_MGR_QUIESCING);
        }
        // Security hook: CHCKLOCL for an in-process connection.
        let adopted_user = if check_local {
            authenticate_in_process(&queue_manager, cno)?
        } else {
            None
        };
        let (user_identifier, program_name) = process_identity();
        let user_identifier: &String = match &adopted_user {
            Some(user) => user,
            None => user_identifier,
        };
        let appl_name: MqChar<28> = if cno.appl_name.is_empty() {
            *program_name
        } else {
            // PutApplName holds the last 28 bytes of the program name (whole characters), as
            // MQ keeps the end of a program's name.
            MqChar::last_fitting(&cno.appl_name)
        };
        crate::reports::install(&queue_manager);
        crate::service_interval_events::install(&queue_manager);
        let record = queue_manager
            .connections()
            .register(appl_name.as_str(), MQAT_DEFAULT, user_identifier, now_ms())
            .ok_or(MqError::failed(MQRC_MAX_CONNS_LIMIT_REACHED))?;
        Ok(Connection {
            queue_manager,
            unit: UnitOfWork::new(),
            handles: HashMap::default(),
            next_handle: 1,
            // A user ID longer than MQ's 12 bytes (an adopted one) is cut, as MQ cuts it.
            user_identifier: MqChar::truncating(user_identifier),
            appl_name,
            temporary_queues: Vec::new(),
            async_status: AsyncPutStatus::default(),
            message_handles: Default::default(),
            record,
            arrivals: triggering::PendingArrivals::default(),
        })
    }

    /// The queue manager this connection is to.
    pub fn queue_manager(&self) -> &Arc<QueueManager> {
        &self.queue_manager
    }

    /// Sets the UserIdentifier the connection's messages carry in their identity context
    /// (its first 12 bytes kept, whole characters). An in-process connection takes it from the environment;
    /// a connection made for another process (bindings socket, client channel) is given the
    /// identity the channel established instead.
    pub fn set_user_identifier(&mut self, user_identifier: &str) {
        self.user_identifier = MqChar::truncating(user_identifier);
        self.record.set_user(&self.user_identifier);
    }

    /// Whether the unit of work holds uncommitted puts or gets.
    pub fn in_unit_of_work(&self) -> bool {
        !self.unit.is_empty()
    }

    fn check_running(&self) -> MqResult<()> {
        if self.queue_manager.is_stopping() {
            return failed(MQRC_Q_MGR_STOPPING);
        }
        Ok(())
    }

    fn check_quiescing(&self, fail_if_quiescing: bool) -> MqResult<()> {
        self.check_running()?;
        if fail_if_quiescing && self.queue_manager.is_quiescing() {
            return failed(MQRC_Q_MGR_QUIESCING);
        }
        Ok(())
    }

    // ----- MQOPEN / MQCLOSE ----------------------------------------------------------------

    /// MQOPEN: open a queue (MQOT_Q), the queue manager (MQOT_Q_MGR, for MQINQ), or a process
    /// or namelist (MQOT_PROCESS, MQOT_NAMELIST, for MQINQ).
    ///
    /// A queue name resolves as in MQ: a local queue is opened; a model queue creates a
    /// dynamic queue from DynamicQName (a trailing `*` becomes 16 hexadecimal digits; ObjectName
    /// returns the name; MQRC_DYNAMIC_Q_NAME_ERROR, MQRC_OBJECT_ALREADY_EXISTS); an alias
    /// opens its TARGET (MQRC_UNKNOWN_ALIAS_BASE_Q, MQRC_ALIAS_BASE_Q_TYPE_ERROR); a remote
    /// queue needs its transmission queue (MQRC_UNKNOWN_XMIT_Q; with one, channels are still
    /// needed: MQRC_FUNCTION_NOT_SUPPORTED) and opens for output only.
    ///
    /// Input options: MQOO_INPUT_AS_Q_DEF (the queue's DEFSOPT), MQOO_INPUT_SHARED (exclusive
    /// on a NOSHARE queue), MQOO_INPUT_EXCLUSIVE (MQRC_OBJECT_IN_USE when another
    /// handle has the queue open for input, or any handle has it exclusively).
    pub fn open(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj> {
        let result = self.open_object(od, options);
        if let Err(error) = &result {
            // Local events (LOCALEV): an unknown object or alias base.
            queue_manager_events::open_failed(
                &self.queue_manager,
                &self.record,
                od.object_type,
                trim(&od.object_name),
                error.reason,
            );
        }
        result
    }

    fn open_object(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj> {
        self.check_quiescing(options & MQOO_FAIL_IF_QUIESCING != 0)?;
        if options & !KNOWN_OPEN_OPTIONS != 0 {
            return failed(MQRC_OPTIONS_ERROR);
        }
        let input_options =
            options & (MQOO_INPUT_AS_Q_DEF | MQOO_INPUT_SHARED | MQOO_INPUT_EXCLUSIVE);
        let access = MQOO_INPUT_AS_Q_DEF
            | MQOO_INPUT_SHARED
            | MQOO_INPUT_EXCLUSIVE
            | MQOO_BROWSE
            | MQOO_OUTPUT
            | MQOO_INQUIRE
            | MQOO_SET;
        let context_options = MQOO_PASS_IDENTITY_CONTEXT
            | MQOO_PASS_ALL_CONTEXT
            | MQOO_SET_IDENTITY_CONTEXT
            | MQOO_SET_ALL_CONTEXT;
        let bind = options & (MQOO_BIND_ON_OPEN | MQOO_BIND_NOT_FIXED | MQOO_BIND_ON_GROUP);
        let read_ahead = options & (MQOO_NO_READ_AHEAD | MQOO_READ_AHEAD);
        if input_options.count_ones() > 1
            || options & access == 0
            || bind.count_ones() > 1
            || read_ahead.count_ones() > 1
            || (options & context_options != 0 && options & MQOO_OUTPUT == 0)
            || (options & MQOO_SAVE_ALL_CONTEXT != 0 && input_options == 0)
        {
            return failed(MQRC_OPTIONS_ERROR);
        }
        let selection = match trim(&od.selection_string) {
            "" => None,
            text => Some(Selection::parse(text).map_err(MqError::failed)?),
        };
        let name = trim(&od.object_name).to_string();
        let q_mgr_name = trim(&od.object_q_mgr_name);
        let mut alias = None;
        let mut created_temporary = false;
        let target = match od.object_type {
            MQOT_Q => {
                if !q_mgr_name.is_empty() && q_mgr_name != self.queue_manager.name() {
                    return failed(MQRC_UNKNOWN_OBJECT_Q_MGR);
                }
                if name.is_empty() || name.len() > 48 {
                    return failed(MQRC_OBJECT_NAME_ERROR);
                }
                let (queue, via_alias, temporary) = self.resolve_queue(od, &name, options)?;
                alias = via_alias;
                created_temporary = temporary;
                Target::Queue(queue)
            }
            MQOT_PROCESS | MQOT_NAMELIST => {
                let object_type = if od.object_type == MQOT_PROCESS {
                    ObjectType::Process
                } else {
                    ObjectType::Namelist
                };
                if !q_mgr_name.is_empty() && q_mgr_name != self.queue_manager.name() {
                    return failed(MQRC_UNKNOWN_OBJECT_Q_MGR);
                }
                if name.is_empty() || name.len() > 48 {
                    return failed(MQRC_OBJECT_NAME_ERROR);
                }
                if options & !(MQOO_INQUIRE | MQOO_FAIL_IF_QUIESCING) != 0 {
                    return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
                }
                if self.queue_manager.object(object_type, &name).is_none() {
                    return failed(MQRC_UNKNOWN_OBJECT_NAME);
                }
                Target::Definition(object_type, name.clone())
            }
            MQOT_Q_MGR => {
                if !name.is_empty() && name != self.queue_manager.name() {
                    return failed(MQRC_OBJECT_NAME_ERROR);
                }
                if options & !(MQOO_INQUIRE | MQOO_FAIL_IF_QUIESCING) != 0 {
                    return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
                }
                Target::QueueManager
            }
            _ => return failed(MQRC_OBJECT_TYPE_ERROR),
        };
        // Exclusive: asked for, or MQOO_INPUT_AS_Q_DEF on a DEFSOPT(EXCL) queue, or any input
        // on a NOSHARE queue (MQ treats MQOO_INPUT_SHARED as exclusive there).
        let input = (input_options != 0).then(|| {
            options & MQOO_INPUT_EXCLUSIVE != 0
                || match &target {
                    Target::Queue(queue) => queue.with_definition(|definition| {
                        !definition.shareable
                            || (options & MQOO_INPUT_AS_Q_DEF != 0
                                && !definition.default_input_shared)
                    }),
                    _ => false,
                }
        });
        let output = options & MQOO_OUTPUT != 0;
        let mut opened_for_input = None;
        if let Target::Queue(queue) = &target {
            if !queue.open_handle(input, output) {
                return failed(MQRC_OBJECT_IN_USE);
            }
            od.resolved_q_name = queue.name();
            opened_for_input = input.map(|_| queue.clone());
        }
        od.resolved_q_mgr_name = self.queue_manager.name().to_string();
        let hobj = self.next_handle;
        self.next_handle += 1;
        // The handle registry (DISPLAY QSTATUS TYPE(HANDLE), DISPLAY CONN TYPE(HANDLE)).
        self.record.handle_opened(HandleRecord {
            hobj,
            object_name: trim(&od.object_name).to_string(),
            object_type: od.object_type,
            queue: match &target {
                Target::Queue(queue) => queue.name(),
                _ => String::new(),
            },
            open_options: options,
            thread: thread_number(),
        });
        self.handles.insert(
            hobj,
            ObjectHandle {
                target,
                options,
                input,
                output,
                cursor: None,
                alias,
                created_temporary,
                selection,
                groups: groups::HandleGroups::default(),
                lock_holder: new_lock_holder(),
                saved_context: None,
            },
        );
        self.note_handles();
        // Trigger hook: a trigger monitor opening its initiation queue.
        if let Some(queue) = opened_for_input {
            triggering::initiation_queue_opened(&self.queue_manager, &queue);
        }
        Ok(Hobj(hobj))
    }

    /// The local queue an MQOPEN of the queue `name` reaches: the queue itself, a new dynamic
    /// queue made from a model (ObjectName becomes its name), or an alias's target. Returns
    /// the queue, the alias it was reached through, and whether a temporary dynamic queue was
    /// created.
    fn resolve_queue(
        &mut self,
        od: &mut Mqod,
        name: &str,
        options: i32,
    ) -> MqResult<(Arc<LocalQueue>, Option<String>, bool)> {
        let object_type = self.queue_manager.queue_object_type(name);
        let definition = object_type.and_then(|kind| self.queue_manager.object(kind, name));
        match definition {
            Some(ObjectDefinition::Local(_)) => match self.queue_manager.queue(name) {
                Some(queue) => Ok((queue, None, false)),
                None => failed(MQRC_UNKNOWN_OBJECT_NAME),
            },
            Some(ObjectDefinition::Model(model)) => {
                let dynamic_name = self.dynamic_queue_name(&od.dynamic_q_name)?;
                let temporary = model.definition_type == DefinitionType::TemporaryDynamic;
                let definition = QueueDefinition {
                    name: dynamic_name.clone(),
                    ..model
                };
                let queue = self.queue_manager.define_queue(definition, false)?;
                if temporary {
                    self.temporary_queues.push(queue.clone());
                }
                od.object_name = dynamic_name;
                Ok((queue, None, temporary))
            }
            Some(ObjectDefinition::Alias(alias)) => {
                match self.queue_manager.queue_object_type(&alias.target) {
                    Some(ObjectType::LocalQueue) => match self.queue_manager.queue(&alias.target) {
                        Some(queue) => Ok((queue, Some(alias.name), false)),
                        None => failed(MQRC_UNKNOWN_ALIAS_BASE_Q),
                    },
                    None => failed(MQRC_UNKNOWN_ALIAS_BASE_Q),
                    // An alias of a model, alias or remote queue: not a queue MQOPEN can use.
                    Some(_) => failed(MQRC_ALIAS_BASE_Q_TYPE_ERROR),
                }
            }
            Some(ObjectDefinition::Remote(remote)) => {
                let input_or_more = MQOO_INPUT_AS_Q_DEF
                    | MQOO_INPUT_SHARED
                    | MQOO_INPUT_EXCLUSIVE
                    | MQOO_BROWSE
                    | MQOO_SET;
                if options & input_or_more != 0 || options & MQOO_OUTPUT == 0 {
                    return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
                }
                let transmission_queue = if remote.transmission_queue.is_empty() {
                    &remote.remote_queue_manager
                } else {
                    &remote.transmission_queue
                };
                if transmission_queue.is_empty()
                    || self.queue_manager.queue(transmission_queue).is_none()
                {
                    return failed(MQRC_UNKNOWN_XMIT_Q);
                }
                // Messages for another queue manager need the channels that move them.
                failed(MQRC_FUNCTION_NOT_SUPPORTED)
            }
            _ => failed(MQRC_UNKNOWN_OBJECT_NAME),
        }
    }

    /// The name of a dynamic queue from DynamicQName: a trailing `*` is replaced by 16
    /// hexadecimal digits that make the name unique (`AMQ.*` gives `AMQ.5F3A...`); a name
    /// without `*` is used as it is. MQRC_DYNAMIC_Q_NAME_ERROR for anything else.
    fn dynamic_queue_name(&self, pattern: &str) -> MqResult<String> {
        static SUFFIX: AtomicU64 = AtomicU64::new(0);
        let pattern = trim(pattern);
        let Some(prefix) = pattern.strip_suffix('*') else {
            if !ferrite_storage::queue_manager::objects::is_valid_object_name(pattern, 48) {
                return failed(MQRC_DYNAMIC_Q_NAME_ERROR);
            }
            return Ok(pattern.to_string());
        };
        if prefix.len() > DYNAMIC_Q_NAME_PREFIX_MAX
            || !prefix
                .chars()
                .all(ferrite_storage::config::is_object_name_char)
        {
            return failed(MQRC_DYNAMIC_Q_NAME_ERROR);
        }
        if SUFFIX.load(Ordering::Relaxed) == 0 {
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
                | 1;
            let _ = SUFFIX.compare_exchange(0, seed, Ordering::Relaxed, Ordering::Relaxed);
        }
        // A name some queue already has is skipped; 64 bits of counter do not wrap in practice.
        loop {
            let name = format!("{prefix}{:016X}", SUFFIX.fetch_add(1, Ordering::Relaxed));
            if self.queue_manager.queue_object_type(&name).is_none() {
                return Ok(name);
            }
        }
    }

    /// MQCLOSE. Closing the handle whose MQOPEN created a temporary dynamic queue deletes the
    /// queue and its messages, whatever the options. MQCO_DELETE deletes a permanent dynamic
    /// queue that is empty with nothing uncommitted (MQRC_Q_NOT_EMPTY otherwise, and the
    /// handle stays open); MQCO_DELETE_PURGE deletes it with its committed messages. Delete
    /// options on any other queue, or on a temporary dynamic queue through a handle that did
    /// not create it: MQRC_OPTION_NOT_VALID_FOR_TYPE.
    pub fn close(&mut self, hobj: Hobj, options: i32) -> MqResult<()> {
        if options
            & !(MQCO_DELETE | MQCO_DELETE_PURGE | MQCO_KEEP_SUB | MQCO_REMOVE_SUB | MQCO_QUIESCE)
            != 0
            || (options & MQCO_DELETE != 0 && options & MQCO_DELETE_PURGE != 0)
        {
            return failed(MQRC_OPTIONS_ERROR);
        }
        if !self.handles.contains_key(&hobj.0) {
            return failed(MQRC_HOBJ_ERROR);
        }
        if options & (MQCO_KEEP_SUB | MQCO_REMOVE_SUB) != 0 {
            return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
        }
        if options & (MQCO_DELETE | MQCO_DELETE_PURGE) != 0 {
            let handle = &self.handles[&hobj.0];
            let Target::Queue(queue) = &handle.target else {
                return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
            };
            if handle.alias.is_some() {
                return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
            }
            match queue.with_definition(|d| d.definition_type) {
                DefinitionType::Predefined => return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE),
                DefinitionType::TemporaryDynamic if !handle.created_temporary => {
                    return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE)
                }
                DefinitionType::TemporaryDynamic => {}
                DefinitionType::PermanentDynamic => {
                    let current = self.queue_manager.queue(queue.name_str());
                    if current.is_some_and(|current| Arc::ptr_eq(&current, queue)) {
                        let before = self.times_of(ObjectDefinition::Local(queue.definition()));
                        self.queue_manager
                            .delete_queue(queue.name_str(), options & MQCO_DELETE_PURGE != 0)?;
                        self.configuration_changed(before, None, MQEVO_OTHER);
                    }
                }
            }
        }
        let handle = self.handles.remove(&hobj.0).expect("checked");
        self.record.handle_closed(hobj.0);
        self.note_handles();
        if let Target::Queue(queue) = &handle.target {
            queue.unlock(handle.lock_holder);
            queue.close_handle(handle.input, handle.output);
            if handle.input.is_some() {
                // Trigger hook: the last server of a queue closing it.
                triggering::input_closed(&self.queue_manager, queue);
            }
            if handle.created_temporary {
                self.delete_temporary_queue(queue)?;
            }
        }
        // A group or logical message left unfinished by logical-order puts: closed anyway,
        // with MQ's warning.
        match handle.groups.close_warning() {
            Some(warning) => Err(warning),
            None => Ok(()),
        }
    }

    /// Delete a temporary dynamic queue this connection created.
    fn delete_temporary_queue(&mut self, queue: &Arc<LocalQueue>) -> MqResult<()> {
        self.temporary_queues
            .retain(|created| !Arc::ptr_eq(created, queue));
        if self.queue_manager.is_stopping() {
            return Ok(());
        }
        self.queue_manager.delete_temporary_queue(queue)?;
        Ok(())
    }

    /// At the end of the connection: delete the temporary dynamic queues it created.
    fn delete_temporary_queues(&mut self) {
        for queue in std::mem::take(&mut self.temporary_queues) {
            if !self.queue_manager.is_stopping() {
                let _ = self.queue_manager.delete_temporary_queue(&queue);
            }
        }
    }

    fn handle(&self, hobj: Hobj) -> MqResult<&ObjectHandle> {
        self.handles
            .get(&hobj.0)
            .ok_or(MqError::failed(MQRC_HOBJ_ERROR))
    }

    /// The queue of a handle, checking it still exists (MQRC_Q_DELETED). The engine marks a
    /// queue deleted as it leaves the queue manager's map (DELETE QLOCAL, a dynamic queue's
    /// end), and a name is only ever given a new queue after that, so the mark answers without
    /// looking the name up on every MQPUT and MQGET.
    fn queue_of(&self, handle: &ObjectHandle) -> MqResult<Arc<LocalQueue>> {
        match &handle.target {
            Target::QueueManager | Target::Definition(..) => failed(MQRC_OBJECT_TYPE_ERROR),
            Target::Queue(queue) if queue.is_deleted() => failed(MQRC_Q_DELETED),
            Target::Queue(queue) => Ok(queue.clone()),
            // Code running inside the MQPUT or MQGET that borrowed the queue must use the
            // queue it was lent (`lent_or_error`); asking the handle fails that call alone
            // (MQRC_UNEXPECTED_ERROR) rather than stopping the connection's thread.
            Target::Lent => failed(MQRC_UNEXPECTED_ERROR),
        }
    }

    /// The queue of handle `hobj`, taken out of the handle for one MQPUT or MQGET on it and
    /// given back by [`Connection::return_queue`] when the call ends: the call reads the
    /// queue without cloning its `Arc` (an atomic on a line every putter and getter of the
    /// queue would write, twice per call). `None`, leaving the handle as it is, when the
    /// handle has no queue or its queue was deleted: the call's checks then fail in their
    /// order, [`Connection::queue_of`]'s among them.
    fn lend_queue(&mut self, hobj: Hobj) -> Option<Arc<LocalQueue>> {
        let handle = self.handles.get_mut(&hobj.0)?;
        match &handle.target {
            Target::Queue(queue) if !queue.is_deleted() => {}
            _ => return None,
        }
        match std::mem::replace(&mut handle.target, Target::Lent) {
            Target::Queue(queue) => Some(queue),
            _ => unreachable!("matched above"),
        }
    }

    /// Run `call` (an MQPUT or MQGET on handle `hobj`) with the handle's queue lent to it
    /// ([`Connection::lend_queue`]), and give the queue back however the call ends: a panic
    /// in it too, which then carries on unwinding. A handle left [`Target::Lent`] would be
    /// skipped when the connection ends (IPPROCS, OPPROCS, an exclusive input open, its
    /// locked message and the trigger hook of its close would all leak).
    fn with_lent_queue<T>(
        &mut self,
        hobj: Hobj,
        call: impl FnOnce(&mut Self, Option<&Arc<LocalQueue>>) -> T,
    ) -> T {
        let lent = self.lend_queue(hobj);
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(self, lent.as_ref())));
        if let Some(queue) = lent {
            self.return_queue(hobj, queue);
        }
        outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Give a lent queue back to its handle (see [`Connection::lend_queue`]).
    fn return_queue(&mut self, hobj: Hobj, queue: Arc<LocalQueue>) {
        let handle = self.handles.get_mut(&hobj.0).expect(LENT_QUEUE_CONTRACT);
        assert!(
            matches!(handle.target, Target::Lent),
            "{LENT_QUEUE_CONTRACT}"
        );
        handle.target = Target::Queue(queue);
    }

    /// The queue lent for this call, or, when none was lent, the error
    /// [`Connection::queue_of`] gives for the handle.
    fn lent_or_error<'q>(
        &self,
        lent: Option<&'q Arc<LocalQueue>>,
        handle: &ObjectHandle,
    ) -> MqResult<&'q Arc<LocalQueue>> {
        match lent {
            Some(queue) => Ok(queue),
            None => match self.queue_of(handle) {
                Err(error) => Err(error),
                Ok(_) => unreachable!("a handle with a live queue lends it"),
            },
        }
    }

    // ----- MQPUT / MQPUT1 ------------------------------------------------------------------

    /// MQPUT. Fills in MsgId (when MQMI_NONE or with MQPMO_NEW_MSG_ID), CorrelId (with
    /// MQPMO_NEW_CORREL_ID) and the context fields the put options make the queue manager set.
    /// Returns a warning (MQCC_WARNING) when MQ completes the put with one:
    /// MQRC_PRIORITY_EXCEEDS_MAXIMUM (the message is put with priority 9).
    pub fn put(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let with_properties = crate::message_handles::attach_properties(
            &self.message_handles,
            pmo.original_msg_handle,
            pmo.new_msg_handle,
            md,
            data,
        )?;
        let data = with_properties.as_deref().unwrap_or(data);
        let result = self.put_on_handle(hobj, md, pmo, data);
        self.inhibited_event(hobj, &result, MQRC_PUT_INHIBITED);
        self.note_unit_of_work();
        let queue = match self.handles.get(&hobj.0).map(|handle| &handle.target) {
            Some(Target::Queue(queue)) => Some(queue),
            _ => None,
        };
        if self.put_is_asynchronous(queue, pmo) {
            let target = self.put_target(hobj);
            let queue_manager = self.queue_manager.name().to_string();
            self.async_status.record(&result, &target, &queue_manager);
        }
        result
    }

    /// Inhibit events (INHIBTEV): when an MQPUT or MQGET on `hobj` failed with `reason`
    /// (MQRC_PUT_INHIBITED or MQRC_GET_INHIBITED), the Put or Get Inhibited event naming the
    /// queue or alias the handle opened. The handle has its queue back by then.
    fn inhibited_event<T>(&self, hobj: Hobj, result: &MqResult<T>, reason: i32) {
        if matches!(result, Err(error) if error.reason == reason) {
            let queue_name = self.put_target(hobj).object_name;
            queue_manager_events::call_failed(
                &self.queue_manager,
                &self.record,
                &queue_name,
                reason,
            );
        }
    }

    /// Whether a put is asynchronous (its outcome counted for MQSTAT): MQPMO_ASYNC_RESPONSE,
    /// or MQPMO_RESPONSE_AS_Q_DEF (neither response option) on a queue defined
    /// DEFPRESP(ASYNC). `queue` is the queue the put went to, when known.
    fn put_is_asynchronous(&self, queue: Option<&Arc<LocalQueue>>, pmo: &Mqpmo) -> bool {
        if pmo.options & MQPMO_SYNC_RESPONSE != 0 {
            return false;
        }
        if pmo.options & MQPMO_ASYNC_RESPONSE != 0 {
            return true;
        }
        queue.is_some_and(|queue| {
            queue.with_definition(|definition| definition.default_put_response == "ASYNC")
        })
    }

    /// The object a put on `hobj` goes to, for the asynchronous put status.
    fn put_target(&self, hobj: Hobj) -> PutTarget {
        let Some(handle) = self.handles.get(&hobj.0) else {
            return PutTarget::default();
        };
        let resolved_name = match &handle.target {
            Target::Queue(queue) => queue.name(),
            _ => String::new(),
        };
        PutTarget {
            object_name: handle
                .alias
                .clone()
                .unwrap_or_else(|| resolved_name.clone()),
            resolved_name,
        }
    }

    fn put_on_handle(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        self.with_lent_queue(hobj, |connection, lent| {
            connection.put_on_lent(hobj, lent, md, pmo, data)
        })
    }

    fn put_on_lent(
        &mut self,
        hobj: Hobj,
        lent: Option<&Arc<LocalQueue>>,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let handle = self.handle(hobj)?;
        self.check_quiescing(pmo.options & MQPMO_FAIL_IF_QUIESCING != 0)?;
        if !handle.output {
            return failed(MQRC_NOT_OPEN_FOR_OUTPUT);
        }
        let open_options = handle.options;
        let queue = self.lent_or_error(lent, handle)?;
        let alias = self.alias_of(handle);
        if alias.as_ref().is_some_and(|alias| alias.put_inhibited) {
            return failed(MQRC_PUT_INHIBITED);
        }
        let defaults = alias
            .as_ref()
            .map(|alias| (alias.default_priority, alias.default_persistent));
        let handle = self.handles.get_mut(&hobj.0).expect("open");
        let mut position = std::mem::take(&mut handle.groups.put);
        let result = self.put_to(queue, open_options, defaults, md, pmo, data, &mut position);
        self.handles.get_mut(&hobj.0).expect("open").groups.put = position;
        result
    }

    /// The current definition of the alias a handle was opened through (an alias deleted
    /// since no longer constrains the handle).
    fn alias_of(&self, handle: &ObjectHandle) -> Option<AliasDefinition> {
        let name = handle.alias.as_ref()?;
        match self.queue_manager.object(ObjectType::AliasQueue, name) {
            Some(ObjectDefinition::Alias(alias)) => Some(alias),
            _ => None,
        }
    }

    /// MQPUT1: open the queue for output, put one message, close it.
    pub fn put1(
        &mut self,
        od: &mut Mqod,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let result = self.put1_inner(od, md, pmo, data);
        if let Err(error) = &result {
            // Inhibit events (INHIBTEV): Put Inhibited (the open's local events are raised by
            // the open).
            queue_manager_events::call_failed(
                &self.queue_manager,
                &self.record,
                trim(&od.object_name),
                error.reason,
            );
        }
        self.note_unit_of_work();
        self.note_handles();
        let queue = self.queue_manager.queue(trim(&od.resolved_q_name));
        if self.put_is_asynchronous(queue.as_ref(), pmo) {
            let target = PutTarget {
                object_name: trim(&od.object_name).to_string(),
                resolved_name: trim(&od.resolved_q_name).to_string(),
            };
            let queue_manager = self.queue_manager.name().to_string();
            self.async_status.record(&result, &target, &queue_manager);
        }
        result
    }

    fn put1_inner(
        &mut self,
        od: &mut Mqod,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
    ) -> MqResult<Option<MqError>> {
        let mut options = MQOO_OUTPUT;
        if pmo.options & MQPMO_FAIL_IF_QUIESCING != 0 {
            options |= MQOO_FAIL_IF_QUIESCING;
        }
        if pmo.options & MQPMO_SET_ALL_CONTEXT != 0 {
            options |= MQOO_SET_ALL_CONTEXT;
        } else if pmo.options & MQPMO_SET_IDENTITY_CONTEXT != 0 {
            options |= MQOO_SET_IDENTITY_CONTEXT;
        } else if pmo.options & MQPMO_PASS_ALL_CONTEXT != 0 {
            options |= MQOO_PASS_ALL_CONTEXT;
        } else if pmo.options & MQPMO_PASS_IDENTITY_CONTEXT != 0 {
            options |= MQOO_PASS_IDENTITY_CONTEXT;
        }
        if od.object_type != MQOT_Q {
            return failed(MQRC_OBJECT_TYPE_ERROR);
        }
        if self.queue_manager.queue_object_type(trim(&od.object_name))
            == Some(ObjectType::ModelQueue)
        {
            return failed(MQRC_Q_TYPE_ERROR);
        }
        let hobj = self.open(od, options)?;
        // put_on_handle, not put: MQPUT1 counts an asynchronous outcome once, itself.
        let result = self.put_on_handle(hobj, md, pmo, data);
        // A group MQPUT1 began is not finished by it: no MQRC_INCOMPLETE_GROUP warning.
        if let Err(error) = self.close(hobj, 0) {
            if error.completion_code != ferrite_constants::completion::MQCC_WARNING {
                return Err(error);
            }
        }
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn put_to(
        &mut self,
        queue: &Arc<LocalQueue>,
        open_options: i32,
        defaults: Option<(u8, bool)>,
        md: &mut Mqmd,
        pmo: &mut Mqpmo,
        data: &[u8],
        position: &mut Position,
    ) -> MqResult<Option<MqError>> {
        let options = pmo.options;
        let context = options
            & (MQPMO_DEFAULT_CONTEXT
                | MQPMO_NO_CONTEXT
                | MQPMO_SET_IDENTITY_CONTEXT
                | MQPMO_SET_ALL_CONTEXT
                | MQPMO_PASS_IDENTITY_CONTEXT
                | MQPMO_PASS_ALL_CONTEXT);
        if options & !KNOWN_PUT_OPTIONS != 0
            || (options & MQPMO_SYNCPOINT != 0 && options & MQPMO_NO_SYNCPOINT != 0)
            || (options & MQPMO_ASYNC_RESPONSE != 0 && options & MQPMO_SYNC_RESPONSE != 0)
            || context.count_ones() > 1
        {
            return failed(MQRC_OPTIONS_ERROR);
        }
        if options & UNSUPPORTED_PUT_OPTIONS != 0 {
            return failed(MQRC_FUNCTION_NOT_SUPPORTED);
        }
        if options & MQPMO_SET_ALL_CONTEXT != 0 && open_options & MQOO_SET_ALL_CONTEXT == 0 {
            return failed(MQRC_NOT_OPEN_FOR_SET_ALL);
        }
        if options & MQPMO_SET_IDENTITY_CONTEXT != 0
            && open_options & (MQOO_SET_IDENTITY_CONTEXT | MQOO_SET_ALL_CONTEXT) == 0
        {
            return failed(MQRC_NOT_OPEN_FOR_SET_IDENT);
        }
        // MQPMO_PASS_*_CONTEXT: the context saved by the handle in MQPMO.Context. Opening for
        // a wider context (SET_ALL > PASS_ALL > PASS_IDENTITY) allows the narrower ones.
        let passed = if options & (MQPMO_PASS_ALL_CONTEXT | MQPMO_PASS_IDENTITY_CONTEXT) != 0 {
            if options & MQPMO_PASS_ALL_CONTEXT != 0
                && open_options & (MQOO_PASS_ALL_CONTEXT | MQOO_SET_ALL_CONTEXT) == 0
            {
                return failed(MQRC_NOT_OPEN_FOR_PASS_ALL);
            }
            if open_options
                & (MQOO_PASS_IDENTITY_CONTEXT | MQOO_PASS_ALL_CONTEXT | MQOO_SET_ALL_CONTEXT)
                == 0
            {
                return failed(MQRC_NOT_OPEN_FOR_PASS_IDENT);
            }
            match self.handles.get(&pmo.context) {
                Some(handle) if handle.options & MQOO_SAVE_ALL_CONTEXT != 0 => {
                    Some(handle.saved_context.as_deref().cloned().unwrap_or_default())
                }
                _ => return failed(MQRC_CONTEXT_HANDLE_ERROR),
            }
        } else {
            None
        };
        // Descriptor checks, in MQ's terms. The text fields are MQ's fixed lengths; a longer
        // text the application gave was cut to fit and marked (mq_char.rs), and is refused
        // here, not put cut.
        if md.has_cut_text() || !md.format.is_ascii() || md.version < 1 || md.version > 2 {
            return failed(MQRC_MD_ERROR);
        }
        if ![
            MQPER_NOT_PERSISTENT,
            MQPER_PERSISTENT,
            MQPER_PERSISTENCE_AS_Q_DEF,
        ]
        .contains(&md.persistence)
        {
            return failed(MQRC_PERSISTENCE_ERROR);
        }
        if md.priority < MQPRI_PRIORITY_AS_Q_DEF {
            return failed(MQRC_PRIORITY_ERROR);
        }
        if md.expiry <= 0 && md.expiry != MQEI_UNLIMITED {
            return failed(MQRC_EXPIRY_ERROR);
        }
        let known_type = [1, 2, 4, 8, 112, 113].contains(&md.msg_type)
            || (MQMT_APPL_FIRST..=MQMT_APPL_LAST).contains(&md.msg_type);
        if !known_type {
            return failed(MQRC_MSG_TYPE_ERROR);
        }
        if crate::reports::unsupported_report_options(md.report) {
            return failed(MQRC_REPORT_OPTIONS_ERROR);
        }
        if (md.msg_type == MQMT_REQUEST || md.report & crate::reports::QUEUE_MANAGER_REPORTS != 0)
            && trim(&md.reply_to_q).is_empty()
        {
            return failed(MQRC_MISSING_REPLY_TO_Q);
        }
        // DEFPRTY and DEFPSIST of the first definition in the name resolution (an alias's).
        let (default_priority, default_persistent) = defaults.unwrap_or_else(|| {
            queue.with_definition(|definition| {
                (definition.default_priority, definition.default_persistent)
            })
        });
        let mut warning = None;
        let mut stored = md.clone();
        if md.priority == MQPRI_PRIORITY_AS_Q_DEF {
            stored.priority = default_priority as i32;
        } else if md.priority > MAX_PRIORITY {
            stored.priority = MAX_PRIORITY;
            warning = Some(MqError::warning(MQRC_PRIORITY_EXCEEDS_MAXIMUM));
        }
        if md.persistence == MQPER_PERSISTENCE_AS_Q_DEF {
            stored.persistence = if default_persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            };
        }
        if md.coded_char_set_id == MQCCSI_Q_MGR {
            stored.coded_char_set_id = QUEUE_MANAGER_CCSID;
        }
        if md.msg_id == MQMI_NONE || options & MQPMO_NEW_MSG_ID != 0 {
            stored.msg_id = new_identifier(self.queue_manager.name());
        }
        if options & MQPMO_NEW_CORREL_ID != 0 {
            stored.correl_id = new_identifier(self.queue_manager.name());
        }
        if !trim(&md.reply_to_q).is_empty() && trim(&md.reply_to_q_mgr).is_empty() {
            stored.reply_to_q_mgr = MqChar::from(self.queue_manager.name());
        }
        let put_time_ms = now_ms();
        let (date, time) = descriptor::put_date_time_fields(put_time_ms);
        if options & MQPMO_NO_CONTEXT != 0 {
            stored.user_identifier.clear();
            stored.accounting_token = [0; 32];
            stored.appl_identity_data.clear();
            stored.put_appl_type = ferrite_constants::appl_type::MQAT_NO_CONTEXT;
            stored.put_appl_name.clear();
            stored.put_date.clear();
            stored.put_time.clear();
            stored.appl_origin_data.clear();
        } else if let Some(saved) = &passed {
            stored.user_identifier = saved.user_identifier;
            stored.accounting_token = saved.accounting_token;
            stored.appl_identity_data = saved.appl_identity_data;
            if options & MQPMO_PASS_ALL_CONTEXT != 0 {
                stored.put_appl_type = saved.put_appl_type;
                stored.put_appl_name = saved.put_appl_name;
                stored.put_date = saved.put_date;
                stored.put_time = saved.put_time;
                stored.appl_origin_data = saved.appl_origin_data;
            } else {
                stored.put_appl_type = MQAT_DEFAULT;
                stored.put_appl_name = self.appl_name;
                stored.put_date = date;
                stored.put_time = time;
                stored.appl_origin_data.clear();
            }
        } else if options & MQPMO_SET_ALL_CONTEXT == 0 {
            if options & MQPMO_SET_IDENTITY_CONTEXT == 0 {
                stored.user_identifier = self.user_identifier;
                stored.accounting_token = [0; 32];
                stored.appl_identity_data.clear();
            }
            stored.put_appl_type = MQAT_DEFAULT;
            stored.put_appl_name = self.appl_name;
            stored.put_date = date;
            stored.put_time = time;
            stored.appl_origin_data.clear();
        }
        let syncpoint = options & MQPMO_NO_SYNCPOINT == 0;
        // Trigger hook: the queue's state before the put (None unless its triggering is on).
        let watch = triggering::ArrivalWatch::before(queue);
        let logical_order = options & MQPMO_LOGICAL_ORDER != 0;
        // Groups and segments: check and assign GroupId, MsgSeqNumber and Offset.
        groups::check_put_fields(&mut stored, logical_order, data.len())?;
        let persistent = stored.persistence == MQPER_PERSISTENT;
        let group_warning = groups::assign_put_fields(
            position,
            &mut stored,
            logical_order,
            syncpoint,
            persistent,
            data.len(),
            || new_identifier(self.queue_manager.name()),
        )?;
        warning = warning.or(group_warning);
        let max_message_length = queue.with_definition(|d| d.max_message_length) as usize;
        let segmentation_allowed =
            stored.msg_flags & ferrite_constants::message_flags::MQMF_SEGMENTATION_ALLOWED != 0;
        if data.len() > max_message_length && segmentation_allowed && max_message_length > 0 {
            self.put_segmented(
                queue,
                &mut stored,
                data,
                max_message_length,
                syncpoint,
                put_time_ms,
            )?;
        } else {
            let engine = descriptor::to_engine(&stored, put_time_ms);
            let unit = syncpoint.then_some(&mut self.unit);
            if let Err(error) = self.queue_manager.put(unit, queue, &engine, data) {
                depth_events::put_failed(&self.queue_manager, queue, error.reason_code());
                return Err(error.into());
            }
        }
        if stored.report & crate::reports::QUEUE_MANAGER_REPORTS != 0 {
            let unit = syncpoint.then_some(crate::queue_manager_put::InUnit {
                unit: &mut self.unit,
                arrivals: &mut self.arrivals,
            });
            crate::reports::on_put(&self.queue_manager, unit, &stored, data);
        }
        self.after_put(queue, stored.priority as u8, syncpoint, watch);
        if logical_order {
            position.advance(&stored, data.len(), syncpoint);
        }
        md.group_id = stored.group_id;
        md.msg_seq_number = stored.msg_seq_number;
        md.offset = stored.offset;
        // Output fields: ids and the context the queue manager set (Priority and Persistence
        // are input only).
        md.msg_id = stored.msg_id;
        md.correl_id = stored.correl_id;
        md.coded_char_set_id = stored.coded_char_set_id;
        md.reply_to_q_mgr = stored.reply_to_q_mgr;
        md.user_identifier = stored.user_identifier;
        md.accounting_token = stored.accounting_token;
        md.appl_identity_data = stored.appl_identity_data;
        md.put_appl_type = stored.put_appl_type;
        md.put_appl_name = stored.put_appl_name;
        md.put_date = stored.put_date;
        md.put_time = stored.put_time;
        md.appl_origin_data = stored.appl_origin_data;
        set_text(&mut pmo.resolved_q_name, queue.name_str());
        set_text(&mut pmo.resolved_q_mgr_name, self.queue_manager.name());
        Ok(warning)
    }

    /// Queue-manager segmentation: put `data`, longer than the queue's MAXMSGL, as segments
    /// of at most `max_segment` bytes, all in one unit of work (the connection's with
    /// syncpoint; otherwise one of this call's own, committed before it returns), so no part
    /// of the message is visible before all of it is.
    fn put_segmented(
        &mut self,
        queue: &Arc<LocalQueue>,
        stored: &mut Mqmd,
        data: &[u8],
        max_segment: usize,
        syncpoint: bool,
        put_time_ms: u64,
    ) -> MqResult<()> {
        if stored.group_id == MQGI_NONE {
            stored.group_id = new_identifier(self.queue_manager.name());
        }
        if stored.original_length == ferrite_constants::misc::MQOL_UNDEFINED {
            stored.original_length = data.len().min(i32::MAX as usize) as i32;
        }
        let plan = groups::segment_plan(data.len(), max_segment);
        let mut own = UnitOfWork::new();
        let unit = if syncpoint { &mut self.unit } else { &mut own };
        for (index, &(start, length)) in plan.iter().enumerate() {
            let segment = groups::segment_descriptor(stored, index, plan.len(), start);
            let engine = descriptor::to_engine(&segment, put_time_ms);
            let result = self.queue_manager.put(
                Some(&mut *unit),
                queue,
                &engine,
                &data[start..start + length],
            );
            if let Err(error) = result {
                if !syncpoint {
                    let _ = self.queue_manager.backout(&mut own);
                }
                return Err(error.into());
            }
        }
        if !syncpoint {
            self.queue_manager.commit(&mut own)?;
        }
        Ok(())
    }

    // ----- MQGET ---------------------------------------------------------------------------

    /// MQGET: get or browse a message into `buffer`.
    ///
    /// Matching: with MQGMO version 1, on the MQMD's MsgId and CorrelId when they are not none;
    /// from version 2, on those MatchOptions names (MQMO_MATCH_MSG_ID, MQMO_MATCH_CORREL_ID).
    /// MQMO_MATCH_GROUP_ID / MSG_SEQ_NUMBER / OFFSET / MSG_TOKEN with a value to match are not
    /// supported yet (MQRC_FUNCTION_NOT_SUPPORTED).
    ///
    /// A message longer than the buffer: with MQGMO_ACCEPT_TRUNCATED_MSG it is got and the
    /// result carries the MQRC_TRUNCATED_MSG_ACCEPTED warning; without, the call fails with
    /// MQRC_TRUNCATED_MSG_FAILED, the message stays on the queue and the MQMD and DataLength
    /// (in the error) describe it. A browse that fails so still moves the browse cursor to the
    /// message, so MQGMO_BROWSE_MSG_UNDER_CURSOR can fetch it with a bigger buffer.
    pub fn get(
        &mut self,
        hobj: Hobj,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut [u8],
    ) -> MqResult<GetResult> {
        let requested = crate::data_conversion::Requested::from_md(md);
        // A bad MsgHandle fails the call before any message is taken.
        if let Some(hmsg) = gmo
            .msg_handle
            .filter(|hmsg| hmsg.0 != crate::message_handles::MQHM_NONE)
        {
            self.message_handles.properties(hmsg)?;
        }
        let result = self.with_lent_queue(hobj, |connection, lent| {
            connection.get_from_handle(hobj, lent, md, gmo, buffer)
        });
        self.inhibited_event(hobj, &result, MQRC_GET_INHIBITED);
        self.note_unit_of_work();
        let browse = MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT | MQGMO_BROWSE_MSG_UNDER_CURSOR;
        if result.is_ok() && gmo.options & browse == 0 {
            // Depth event hook: a message left the queue.
            if let Some(Target::Queue(queue)) = self.handles.get(&hobj.0).map(|h| &h.target) {
                depth_events::after_get(&self.queue_manager, queue);
            }
        }
        if gmo.options & MQGMO_CONVERT != 0 {
            // Gets and browses alike: the data returned is the caller's copy.
            return crate::data_conversion::convert_got(requested, md, gmo, buffer, result);
        }
        result
    }

    fn get_from_handle(
        &mut self,
        hobj: Hobj,
        lent: Option<&Arc<LocalQueue>>,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut [u8],
    ) -> MqResult<GetResult> {
        let handle = self.handle(hobj)?;
        let options = gmo.options;
        self.check_quiescing(options & MQGMO_FAIL_IF_QUIESCING != 0)?;
        let browse = MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT | MQGMO_BROWSE_MSG_UNDER_CURSOR;
        let positional = options & (browse | MQGMO_MSG_UNDER_CURSOR);
        let syncpoint_options =
            options & (MQGMO_SYNCPOINT | MQGMO_NO_SYNCPOINT | MQGMO_SYNCPOINT_IF_PERSISTENT);
        let browsing = options & browse != 0;
        if options & !KNOWN_GET_OPTIONS != 0
            || positional.count_ones() > 1
            || syncpoint_options.count_ones() > 1
            || (browsing && options & (MQGMO_SYNCPOINT | MQGMO_SYNCPOINT_IF_PERSISTENT) != 0)
        {
            return failed(MQRC_OPTIONS_ERROR);
        }
        if gmo.version < 1 || gmo.version > 4 {
            return failed(MQRC_GMO_ERROR);
        }
        if options & UNSUPPORTED_GET_OPTIONS != 0 {
            return failed(MQRC_FUNCTION_NOT_SUPPORTED);
        }
        // MQGMO_LOCK goes with a browse; MQGMO_UNLOCK stands alone (NO_WAIT, NO_SYNCPOINT);
        // MQGMO_MARK_SKIP_BACKOUT with a get in the unit of work.
        if (options & MQGMO_LOCK != 0 && (!browsing || options & MQGMO_UNLOCK != 0))
            || (options & MQGMO_UNLOCK != 0
                && options & !(MQGMO_UNLOCK | MQGMO_NO_SYNCPOINT | MQGMO_NO_WAIT) != 0)
            || (options & MQGMO_MARK_SKIP_BACKOUT != 0
                && (browsing || options & MQGMO_NO_SYNCPOINT != 0))
        {
            return failed(MQRC_OPTIONS_ERROR);
        }
        if options & MQGMO_UNLOCK != 0 {
            return crate::locking::unlock(self.lent_or_error(lent, handle)?, handle.lock_holder);
        }
        let wait = if options & MQGMO_WAIT != 0 {
            if gmo.wait_interval < 0 && gmo.wait_interval != MQWI_UNLIMITED {
                return failed(MQRC_WAIT_INTERVAL_ERROR);
            }
            Some(if gmo.wait_interval == MQWI_UNLIMITED {
                Duration::from_secs(u32::MAX as u64)
            } else {
                Duration::from_millis(gmo.wait_interval as u64)
            })
        } else {
            None
        };
        if browsing {
            if handle.options & MQOO_BROWSE == 0 {
                return failed(MQRC_NOT_OPEN_FOR_BROWSE);
            }
        } else if handle.input.is_none() {
            return failed(MQRC_NOT_OPEN_FOR_INPUT);
        }
        // InhibitGet fails browses as well as gets (MQ: "including MQGET calls that specify
        // MQGMO_BROWSE_FIRST or MQGMO_BROWSE_NEXT"), on an alias and on the queue itself; the
        // engine's get checks the queue for a destructive get.
        if self
            .alias_of(handle)
            .is_some_and(|alias| alias.get_inhibited)
            || (browsing
                && self
                    .lent_or_error(lent, handle)?
                    .with_definition(|definition| definition.get_inhibited))
        {
            return failed(MQRC_GET_INHIBITED);
        }
        // Which messages match.
        let match_options = if gmo.version >= MQGMO_VERSION_2 {
            if gmo.match_options
                & !(MQMO_MATCH_MSG_ID
                    | MQMO_MATCH_CORREL_ID
                    | MQMO_MATCH_GROUP_ID
                    | MQMO_MATCH_MSG_SEQ_NUMBER
                    | MQMO_MATCH_OFFSET
                    | MQMO_MATCH_MSG_TOKEN)
                != 0
            {
                return failed(MQRC_MATCH_OPTIONS_ERROR);
            }
            gmo.match_options
        } else {
            MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID
        };
        let mut selector = MessageSelector {
            message_id: (match_options & MQMO_MATCH_MSG_ID != 0 && md.msg_id != MQMI_NONE)
                .then_some(md.msg_id),
            correlation_id: (match_options & MQMO_MATCH_CORREL_ID != 0
                && md.correl_id != MQCI_NONE)
                .then_some(md.correl_id),
            ..MessageSelector::default()
        };
        // Groups and segments: the match fields, logical order and whole-group conditions.
        let in_unit = options & MQGMO_NO_SYNCPOINT == 0 && !browsing;
        let group_get =
            self.plan_group_get(hobj, gmo, md, match_options, &mut selector, in_unit)?;
        let handle = self.handle(hobj)?;
        if match_options & MQMO_MATCH_MSG_TOKEN != 0 && gmo.msg_token != [0; 16] {
            // A token names one message; one this queue manager never issued matches nothing.
            let Some(key) = key_of_message_token(&gmo.msg_token) else {
                return failed(MQRC_NO_MSG_AVAILABLE);
            };
            selector.key = Some(key);
        }
        let queue = self.lent_or_error(lent, handle)?;
        let cursor = handle.cursor;
        let lock_holder = handle.lock_holder;
        if options & (MQGMO_MSG_UNDER_CURSOR | MQGMO_BROWSE_MSG_UNDER_CURSOR) != 0 {
            if handle.options & MQOO_BROWSE == 0 {
                return failed(MQRC_NOT_OPEN_FOR_BROWSE);
            }
            let Some(key) = cursor else {
                return failed(MQRC_NO_MSG_UNDER_CURSOR);
            };
            // The message under the cursor, whatever the match fields say.
            selector = MessageSelector {
                key: Some(key),
                ..MessageSelector::default()
            };
        }
        let accept_truncated = options & MQGMO_ACCEPT_TRUNCATED_MSG != 0;
        if let Some(selection) = handle.selection.clone() {
            if options & (MQGMO_MSG_UNDER_CURSOR | MQGMO_BROWSE_MSG_UNDER_CURSOR) == 0 {
                return self.get_selected(hobj, queue, &selection, selector, md, gmo, buffer, wait);
            }
        }
        if options & MQGMO_COMPLETE_MSG != 0
            && options & (MQGMO_MSG_UNDER_CURSOR | MQGMO_BROWSE_MSG_UNDER_CURSOR) == 0
        {
            let after = match options & browse {
                MQGMO_BROWSE_NEXT => group_get.after.unwrap_or(cursor),
                _ => None,
            };
            let result = self.get_complete_message(
                hobj, queue, &selector, after, wait, in_unit, md, gmo, buffer,
            );
            return self.after_group_get(hobj, &group_get, md, result);
        }
        if browsing {
            let after = match options & browse {
                MQGMO_BROWSE_FIRST => None,
                MQGMO_BROWSE_NEXT => group_get.after.unwrap_or(cursor),
                _ => None, // under the cursor: the key selector finds it
            };
            let lock = options & MQGMO_LOCK != 0;
            if lock {
                // A locking browse releases the handle's previous lock, found or not.
                queue.unlock(lock_holder);
            }
            let browsed = crate::locking::Browse {
                holder: lock_holder,
                wait,
                fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
                lock,
            };
            let now = now_ms();
            let message = self.browse_unexpired(queue, &selector, after, now, &browsed)?;
            let Some(message) = message else {
                return failed(if options & MQGMO_BROWSE_MSG_UNDER_CURSOR != 0 {
                    MQRC_NO_MSG_UNDER_CURSOR
                } else {
                    MQRC_NO_MSG_AVAILABLE
                });
            };
            self.handles.get_mut(&hobj.0).expect("open").cursor = Some(message.key);
            let result = Self::deliver(
                &mut self.message_handles,
                &message,
                md,
                gmo,
                buffer,
                accept_truncated,
                now,
                queue,
            );
            let group_get = GroupGet {
                key: Some(message.key),
                ..group_get
            };
            return self.after_group_get(hobj, &group_get, md, result);
        }
        // Destructive get: in the unit of work unless NO_SYNCPOINT (z/OS default: syncpoint).
        let controls = GetControls {
            fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
            syncpoint_if_persistent: options & MQGMO_SYNCPOINT_IF_PERSISTENT != 0,
            leave_if_longer_than: (!accept_truncated).then_some(buffer.len()),
            lock_holder,
            mark_skip_backout: options & MQGMO_MARK_SKIP_BACKOUT != 0,
        };
        let unit = in_unit.then_some(&mut self.unit);
        let outcome = self
            .queue_manager
            .get_with(unit, queue, &selector, wait, &controls)?;
        match outcome {
            GetOutcome::Got {
                message,
                in_unit_of_work,
            } => {
                let result = Self::deliver(
                    &mut self.message_handles,
                    &message,
                    md,
                    gmo,
                    buffer,
                    true,
                    expiry_now(&message),
                    queue,
                );
                self.after_destructive_get(hobj, md, &message, in_unit_of_work);
                self.after_group_get(hobj, &group_get, md, result)
            }
            GetOutcome::LeftOnQueue(message) => Self::deliver(
                &mut self.message_handles,
                &message,
                md,
                gmo,
                buffer,
                false,
                expiry_now(&message),
                queue,
            ),
            GetOutcome::NoMessage => failed(if options & MQGMO_MSG_UNDER_CURSOR != 0 {
                MQRC_NO_MSG_UNDER_CURSOR
            } else {
                MQRC_NO_MSG_AVAILABLE
            }),
        }
    }

    /// MQGET on a handle opened with a selector: the first message in delivery order (after
    /// the browse cursor for BROWSE_NEXT) that the selector and the match fields select. The
    /// candidates are browsed (through the CorrelId or MsgId index when the selector fixes
    /// one) and the chosen one is then got by its key; if another getter took it meanwhile the
    /// search starts again. A wait parks until a message arrives on the queue (never polls),
    /// then searches again.
    #[allow(clippy::too_many_arguments)]
    fn get_selected(
        &mut self,
        hobj: Hobj,
        queue: &Arc<LocalQueue>,
        selection: &Selection,
        mut selector: MessageSelector,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut [u8],
        wait: Option<Duration>,
    ) -> MqResult<GetResult> {
        let options = gmo.options;
        for (fixed, matched) in [
            (selection.correlation_id, &mut selector.correlation_id),
            (selection.message_id, &mut selector.message_id),
        ] {
            if let Some(id) = fixed {
                if matched.is_some_and(|wanted| wanted != id) {
                    return failed(MQRC_NO_MSG_AVAILABLE);
                }
                *matched = Some(id);
            }
        }
        let browsing = options & (MQGMO_BROWSE_FIRST | MQGMO_BROWSE_NEXT) != 0;
        let accept_truncated = options & MQGMO_ACCEPT_TRUNCATED_MSG != 0;
        let deadline = wait.map(|wait| std::time::Instant::now() + wait);
        loop {
            // Counted before the search: an arrival during it ends the wait below at once.
            let seen = queue.arrivals();
            let now = now_ms();
            let mut after = if options & MQGMO_BROWSE_NEXT != 0 {
                self.handle(hobj)?.cursor
            } else {
                None
            };
            let holder = self.handle(hobj)?.lock_holder;
            let browsed = crate::locking::Browse {
                holder,
                wait: None,
                fail_if_quiescing: false,
                lock: false,
            };
            let chosen = loop {
                let Some(message) =
                    self.browse_unexpired(queue, &selector, after, now, &browsed)?
                else {
                    break None;
                };
                let candidate = descriptor::from_engine(
                    &message.descriptor,
                    message.backout_count,
                    now,
                    ferrite_constants::structs::MQMD_VERSION_2,
                )
                .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
                if selection.matches(&candidate, &message.data) {
                    break Some(message);
                }
                after = Some(message.key);
            };
            if let Some(message) = chosen {
                if browsing {
                    if options & MQGMO_LOCK != 0 {
                        queue.unlock(holder);
                        if !queue.lock(holder, message.key) {
                            // Got or locked by another handle meanwhile: look again.
                            continue;
                        }
                    }
                    self.handles.get_mut(&hobj.0).expect("open").cursor = Some(message.key);
                    return Self::deliver(
                        &mut self.message_handles,
                        &message,
                        md,
                        gmo,
                        buffer,
                        accept_truncated,
                        now,
                        queue,
                    );
                }
                let keyed = MessageSelector {
                    key: Some(message.key),
                    ..MessageSelector::default()
                };
                let controls = GetControls {
                    fail_if_quiescing: options & MQGMO_FAIL_IF_QUIESCING != 0,
                    syncpoint_if_persistent: options & MQGMO_SYNCPOINT_IF_PERSISTENT != 0,
                    leave_if_longer_than: (!accept_truncated).then_some(buffer.len()),
                    lock_holder: holder,
                    mark_skip_backout: options & MQGMO_MARK_SKIP_BACKOUT != 0,
                };
                let unit = (options & MQGMO_NO_SYNCPOINT == 0).then_some(&mut self.unit);
                match self
                    .queue_manager
                    .get_with(unit, queue, &keyed, None, &controls)?
                {
                    GetOutcome::Got {
                        message,
                        in_unit_of_work,
                    } => {
                        let result = Self::deliver(
                            &mut self.message_handles,
                            &message,
                            md,
                            gmo,
                            buffer,
                            true,
                            expiry_now(&message),
                            queue,
                        );
                        self.after_destructive_get(hobj, md, &message, in_unit_of_work);
                        return result;
                    }
                    GetOutcome::LeftOnQueue(message) => {
                        return Self::deliver(
                            &mut self.message_handles,
                            &message,
                            md,
                            gmo,
                            buffer,
                            false,
                            expiry_now(&message),
                            queue,
                        );
                    }
                    // Another getter took it between the browse and the get: look again.
                    GetOutcome::NoMessage => continue,
                }
            }
            let remaining = deadline
                .map(|deadline| deadline.saturating_duration_since(std::time::Instant::now()))
                .unwrap_or_default();
            if remaining.is_zero() {
                return failed(MQRC_NO_MSG_AVAILABLE);
            }
            self.check_quiescing(options & MQGMO_FAIL_IF_QUIESCING != 0)?;
            let queue_manager = &self.queue_manager;
            let fail_if_quiescing = options & MQGMO_FAIL_IF_QUIESCING != 0;
            queue.wait_for_arrival(seen, remaining, || {
                queue_manager.is_stopping()
                    || queue.is_deleted()
                    || (fail_if_quiescing && queue_manager.is_quiescing())
            });
        }
    }

    /// The next matching message after `after` that has not expired, visible to the
    /// browsing handle, waiting for one as `browse.wait` says, locked for the handle with
    /// `browse.lock`.
    fn browse_unexpired(
        &self,
        queue: &Arc<LocalQueue>,
        selector: &MessageSelector,
        after: Option<MessageKey>,
        now: u64,
        browse: &crate::locking::Browse,
    ) -> MqResult<Option<RetrievedMessage>> {
        crate::locking::browse_unexpired(&self.queue_manager, queue, selector, after, now, browse)
    }

    /// After a destructive get through `hobj` (`md` is what the get returned): the handle
    /// saves the message's context when opened with MQOO_SAVE_ALL_CONTEXT, and the COD report
    /// the message asks for is sent, in the unit of work when the get was.
    fn after_destructive_get(
        &mut self,
        hobj: Hobj,
        md: &Mqmd,
        message: &RetrievedMessage,
        in_unit_of_work: bool,
    ) {
        if let Some(handle) = self.handles.get_mut(&hobj.0) {
            if handle.options & MQOO_SAVE_ALL_CONTEXT != 0 {
                handle.saved_context = Some(Box::new(md.clone()));
            }
        }
        if md.report & ferrite_constants::report::MQRO_COD == 0 {
            return;
        }
        let unit = in_unit_of_work.then_some(crate::queue_manager_put::InUnit {
            unit: &mut self.unit,
            arrivals: &mut self.arrivals,
        });
        crate::reports::on_get(&self.queue_manager, unit, md, &message.data);
    }

    /// Fill the MQMD, MQGMO outputs and the buffer from a message.
    #[allow(clippy::too_many_arguments)]
    fn deliver(
        message_handles: &mut crate::message_handles::MessageHandles,
        message: &RetrievedMessage,
        md: &mut Mqmd,
        gmo: &mut Mqgmo,
        buffer: &mut [u8],
        accept_truncated: bool,
        now: u64,
        queue: &LocalQueue,
    ) -> MqResult<GetResult> {
        *md = descriptor::from_engine(&message.descriptor, message.backout_count, now, md.version)
            .map_err(|_| MqError::failed(MQRC_UNEXPECTED_ERROR))?;
        // Properties: left in the MQRFH2, into the getter's handle, or away (PROPCTL).
        // (MQGET checked the handle before taking the message.)
        let handle = gmo
            .msg_handle
            .filter(|hmsg| hmsg.0 != crate::message_handles::MQHM_NONE);
        let control = || {
            queue.with_definition(|definition| {
                crate::message_handles::property_control(&definition.property_control)
            })
        };
        let (data, properties) = crate::message_handles::deliver_properties(
            gmo.options,
            handle.is_some(),
            control,
            md,
            &message.data,
        );
        if let (Some(hmsg), Some(properties)) = (handle, properties) {
            message_handles.replace_properties(hmsg, properties)?;
        }
        let message_data: &[u8] = &data;
        set_text(&mut gmo.resolved_q_name, queue.name_str());
        gmo.msg_token = message_token(message.key);
        groups::status_fields(gmo, md.msg_flags);
        let data_length = message_data.len();
        if data_length > buffer.len() && !accept_truncated {
            gmo.returned_length = 0;
            return Err(MqError {
                data_length: Some(data_length),
                ..MqError::failed(MQRC_TRUNCATED_MSG_FAILED)
            });
        }
        let returned_length = data_length.min(buffer.len());
        buffer[..returned_length].copy_from_slice(&message_data[..returned_length]);
        gmo.returned_length = returned_length as i32;
        Ok(GetResult {
            data_length,
            returned_length,
            warning: (returned_length < data_length)
                .then_some(MqError::warning(MQRC_TRUNCATED_MSG_ACCEPTED)),
        })
    }

    // ----- MQCMIT / MQBACK / MQDISC --------------------------------------------------------

    /// MQCMIT: commit the unit of work (its puts become visible, its gets final).
    pub fn commit(&mut self) -> MqResult<()> {
        self.check_running()?;
        let result = self.queue_manager.commit(&mut self.unit);
        self.note_unit_of_work();
        result?;
        // Trigger hook: the trigger messages the unit of work held.
        self.arrivals.resolved(&self.queue_manager, true);
        Ok(())
    }

    /// MQBACK: back out the unit of work (its puts vanish, its gets return to their queues in
    /// their places with BackoutCount + 1).
    pub fn backout(&mut self) -> MqResult<()> {
        self.check_running()?;
        let result = self.backout_unit();
        self.note_unit_of_work();
        result?;
        Ok(())
    }

    /// MQDISC: close every handle and commit the unit of work (MQ's behaviour at a normal
    /// disconnect). If the commit fails the work is backed out and the failure returned.
    pub fn disconnect(mut self) -> MqResult<()> {
        self.close_all();
        if self.queue_manager.is_stopping() {
            // Restart backs the unit of work out.
            self.unit = UnitOfWork::new();
            return failed(MQRC_Q_MGR_STOPPING);
        }
        let result = self.queue_manager.commit(&mut self.unit);
        if result.is_err() {
            let _ = self.backout_unit();
        } else {
            self.arrivals.resolved(&self.queue_manager, true);
        }
        self.delete_temporary_queues();
        result.map_err(MqError::from)
    }

    /// Back the unit of work out, with the trigger hooks: the trigger messages it held, and
    /// the conditions on the queues its gets return messages to.
    fn backout_unit(&mut self) -> Result<(), ferrite_storage::StorageError> {
        let reinstated = triggering::before_backout(&self.unit);
        let result = self.queue_manager.backout(&mut self.unit);
        self.arrivals.resolved(&self.queue_manager, false);
        if result.is_ok() {
            triggering::reinstated(&self.queue_manager, reinstated);
        }
        result
    }

    fn close_all(&mut self) {
        for (_, handle) in self.handles.drain() {
            if let Target::Queue(queue) = &handle.target {
                queue.unlock(handle.lock_holder);
                queue.close_handle(handle.input, handle.output);
                if handle.input.is_some() {
                    triggering::input_closed(&self.queue_manager, queue);
                }
            }
        }
        self.record.handles_closed();
        self.note_handles();
    }

    /// DISPLAY CONN's UOWSTATE follows the unit of work.
    fn note_unit_of_work(&self) {
        self.record.set_unit_of_work_active(!self.unit.is_empty());
    }

    /// The connection's open handles, for DISPLAY CONN.
    fn note_handles(&self) {
        self.record.set_open_handles(self.handles.len() as u32);
    }

    /// This connection's entry in the queue manager's connection registry (DISPLAY CONN).
    pub fn record(&self) -> &Arc<ConnectionRecord> {
        &self.record
    }

    // ----- MQINQ / MQSET -------------------------------------------------------------------

    /// MQINQ: the values of `selectors`, in order. A selector the object does not have fails
    /// the call with MQRC_SELECTOR_ERROR (see [`QUEUE_SELECTORS`] and
    /// [`QUEUE_MANAGER_SELECTORS`]); on a queue, a selector of another queue type's attribute
    /// (an alias's BaseQName on a local queue, a local queue's CurrentQDepth on an alias)
    /// answers MQ's not-applicable value and the call completes with MQCC_WARNING and
    /// MQRC_SELECTOR_NOT_FOR_TYPE in [`Inquired::warning`].
    pub fn inquire(&mut self, hobj: Hobj, selectors: &[i32]) -> MqResult<Inquired> {
        self.check_running()?;
        let handle = self.handle(hobj)?;
        if handle.options & MQOO_INQUIRE == 0 {
            return failed(MQRC_NOT_OPEN_FOR_INQUIRE);
        }
        if selectors.len() > 256 {
            return failed(MQRC_SELECTOR_COUNT_ERROR);
        }
        let mut values = Vec::with_capacity(selectors.len());
        let mut warning = None;
        match &handle.target {
            Target::QueueManager => {
                for &selector in selectors {
                    let name = self.queue_manager.name();
                    if let Some(answer) =
                        self.time_attribute(ObjectType::QueueManager, name, selector)
                    {
                        values.push(answer?);
                        continue;
                    }
                    values.push(crate::inquire::queue_manager_attribute(
                        &self.queue_manager,
                        || crate::queue_manager_identifier(&self.queue_manager),
                        selector,
                    )?);
                }
            }
            Target::Definition(object_type, name) => {
                let Some(definition) = self.queue_manager.object(*object_type, name) else {
                    return failed(MQRC_OBJECT_CHANGED);
                };
                for &selector in selectors {
                    let answer = match self.time_attribute(*object_type, name, selector) {
                        Some(answer) => answer,
                        None => definition_attribute(&definition, selector),
                    };
                    values.push(answer?);
                }
            }
            Target::Queue(_) if handle.alias.is_some() => {
                let Some(alias) = self.alias_of(handle) else {
                    return failed(MQRC_OBJECT_CHANGED);
                };
                let definition = ObjectDefinition::Alias(alias);
                for &selector in selectors {
                    let answer = self
                        .time_attribute(ObjectType::AliasQueue, definition.name(), selector)
                        .unwrap_or_else(|| definition_attribute(&definition, selector));
                    values.push(crate::inquire::queue_answer(
                        selector,
                        answer,
                        &mut warning,
                    )?);
                }
            }
            Target::Queue(_) => {
                let queue = self.queue_of(handle)?;
                let definition = queue.definition();
                let status = queue.status();
                for &selector in selectors {
                    let answer = self
                        .time_attribute(ObjectType::LocalQueue, &definition.name, selector)
                        .unwrap_or_else(|| {
                            crate::inquire::local_queue_attribute(&definition, &status, selector)
                        });
                    values.push(crate::inquire::queue_answer(
                        selector,
                        answer,
                        &mut warning,
                    )?);
                }
            }
            // As `queue_of`: only the call the queue is lent to runs on the handle meanwhile.
            Target::Lent => return failed(MQRC_UNEXPECTED_ERROR),
        }
        Ok(Inquired { values, warning })
    }

    /// MQCA_CREATION_DATE and MQCA_CREATION_TIME (local queues: MQRC_SELECTOR_ERROR for
    /// other objects) and MQCA_ALTERATION_DATE and MQCA_ALTERATION_TIME (every object) of
    /// `object_type` called `name`, as MQ gives them (`2024-01-31`, `12.34.56`; blank when
    /// never recorded); `None` for any other selector.
    fn time_attribute(
        &self,
        object_type: ObjectType,
        name: &str,
        selector: i32,
    ) -> Option<MqResult<AttributeValue>> {
        let (created, clock) = match selector {
            MQCA_CREATION_DATE => (true, false),
            MQCA_CREATION_TIME => (true, true),
            MQCA_ALTERATION_DATE => (false, false),
            MQCA_ALTERATION_TIME => (false, true),
            _ => return None,
        };
        if created && object_type != ObjectType::LocalQueue {
            return Some(failed(MQRC_SELECTOR_ERROR));
        }
        let times = self
            .queue_manager
            .object_times(object_type, name)
            .unwrap_or_default();
        let ms = if created {
            times.created_ms
        } else {
            times.altered_ms
        };
        let text = match ms {
            0 => String::new(),
            ms => {
                let (date, time) = descriptor::display_date_time(ms);
                if clock {
                    time
                } else {
                    date
                }
            }
        };
        Some(Ok(AttributeValue::Text(text)))
    }

    /// MQSET: MQIA_INHIBIT_PUT and MQIA_INHIBIT_GET (MQQA_*_ALLOWED or MQQA_*_INHIBITED) and
    /// the trigger attributes (TriggerControl, TriggerType, TriggerDepth, TriggerMsgPriority,
    /// TriggerData) of a local queue; through an alias only the inhibits. The new definition is stored (it survives restart). Nothing is changed
    /// unless every selector and value is valid.
    pub fn set(&mut self, hobj: Hobj, attributes: &[(i32, AttributeValue)]) -> MqResult<()> {
        self.check_running()?;
        let handle = self.handle(hobj)?;
        if handle.options & MQOO_SET == 0 {
            return failed(MQRC_NOT_OPEN_FOR_SET);
        }
        if attributes.len() > 256 {
            return failed(MQRC_SELECTOR_COUNT_ERROR);
        }
        let queue = self.queue_of(handle)?;
        let alias = self.alias_of(handle);
        let mut definition = queue.definition();
        if let Some(alias) = &alias {
            definition.put_inhibited = alias.put_inhibited;
            definition.get_inhibited = alias.get_inhibited;
        }
        for (selector, value) in attributes {
            if alias.is_some() && ![MQIA_INHIBIT_PUT, MQIA_INHIBIT_GET].contains(selector) {
                return failed(MQRC_SELECTOR_ERROR);
            }
            crate::inquire::set_local_queue_attribute(&mut definition, *selector, value)?;
        }
        if let Some(mut alias) = alias {
            // Through an alias, MQSET changes the alias (as MQ does).
            let before = self.times_of(ObjectDefinition::Alias(alias.clone()));
            alias.put_inhibited = definition.put_inhibited;
            alias.get_inhibited = definition.get_inhibited;
            let after = ObjectDefinition::Alias(alias);
            self.queue_manager.alter_object(after.clone())?;
            self.configuration_changed(before, Some(after), MQEVO_MQSET);
            return Ok(());
        }
        // The attributes (checked above) applied again to the definition current under the
        // object lock: a switch the queue manager made since the read above (an event or
        // trigger control) is not undone.
        drop(definition);
        let before_times = self
            .queue_manager
            .object_times(ObjectType::LocalQueue, queue.name_str())
            .unwrap_or_default();
        let mut before = None;
        self.queue_manager
            .update_queue_definition(&queue, |current| {
                before = Some(current.clone());
                for (selector, value) in attributes {
                    crate::inquire::set_local_queue_attribute(current, *selector, value).map_err(
                        |error| ferrite_storage::StorageError::mq(error.reason, "MQSET"),
                    )?;
                }
                Ok(true)
            })?;
        // Trigger hook: triggering switched on, or GET enabled, by MQSET.
        if let Some(before) = before {
            triggering::definition_changed(&self.queue_manager, &before, &queue);
            self.configuration_changed(
                (ObjectDefinition::Local(before), before_times),
                Some(ObjectDefinition::Local(queue.definition())),
                MQEVO_MQSET,
            );
        }
        Ok(())
    }

    /// A definition with its times as the queue manager has them now.
    fn times_of(&self, definition: ObjectDefinition) -> (ObjectDefinition, ObjectTimes) {
        let times = self
            .queue_manager
            .object_times(definition.object_type(), definition.name())
            .unwrap_or_default();
        (definition, times)
    }

    /// Tell the configuration observer (the command layer's configuration events) of a change
    /// this connection's MQSET or MQCLOSE made.
    fn configuration_changed(
        &self,
        (before, before_times): (ObjectDefinition, ObjectTimes),
        after: Option<ObjectDefinition>,
        origin: i32,
    ) {
        if let Some(observer) = self.queue_manager.configuration_observer() {
            let change = ConfigurationChange {
                before,
                before_times,
                after,
                origin,
                user_id: self.user_identifier.to_string(),
            };
            observer(&self.queue_manager, &change);
        }
    }

    /// After a successful MQPUT: the trigger conditions (the trigger message written at once
    /// outside syncpoint, at the unit of work's end inside) and Queue Depth High.
    fn after_put(
        &mut self,
        queue: &Arc<LocalQueue>,
        priority: u8,
        syncpoint: bool,
        watch: Option<triggering::ArrivalWatch>,
    ) {
        if watch.is_some() {
            self.arrivals
                .put(&self.queue_manager, watch, priority, syncpoint);
        }
        depth_events::after_put(&self.queue_manager, queue);
    }
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("queue_manager", &self.queue_manager.name())
            .field("handles", &self.handles.len())
            .field("unit", &self.unit)
            .finish()
    }
}

impl Drop for Connection {
    /// Ending without MQDISC is an abnormal end: handles are closed and the unit of work is
    /// backed out (restart does it if the queue manager has stopped).
    fn drop(&mut self) {
        self.close_all();
        if !self.unit.is_empty() && !self.queue_manager.is_stopping() {
            let _ = self.backout_unit();
        }
        self.delete_temporary_queues();
        self.queue_manager.connections().deregister(self.record.id);
    }
}

/// One MQINQ selector of an alias, process or namelist definition.
fn definition_attribute(definition: &ObjectDefinition, selector: i32) -> MqResult<AttributeValue> {
    let text = |value: &str| Ok(AttributeValue::Text(value.to_string()));
    let integer = |value: i32| Ok(AttributeValue::Integer(value));
    match (definition, selector) {
        (ObjectDefinition::Alias(alias), _) => match selector {
            MQCA_Q_NAME => text(&alias.name),
            MQCA_Q_DESC => text(&alias.description),
            MQCA_BASE_Q_NAME => text(&alias.target),
            MQIA_Q_TYPE => integer(MQQT_ALIAS),
            MQIA_INHIBIT_PUT => integer(alias.put_inhibited as i32),
            MQIA_INHIBIT_GET => integer(alias.get_inhibited as i32),
            MQIA_DEF_PERSISTENCE => integer(if alias.default_persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            }),
            MQIA_DEF_PRIORITY => integer(alias.default_priority.into()),
            _ => failed(MQRC_SELECTOR_ERROR),
        },
        (ObjectDefinition::Process(process), _) => match selector {
            MQCA_PROCESS_NAME => text(&process.name),
            MQCA_PROCESS_DESC => text(&process.description),
            MQCA_APPL_ID => text(&process.application_id),
            MQIA_APPL_TYPE => integer(application_type_number(&process.application_type)),
            MQCA_USER_DATA => text(&process.user_data),
            MQCA_ENV_DATA => text(&process.environment_data),
            _ => failed(MQRC_SELECTOR_ERROR),
        },
        (ObjectDefinition::Namelist(namelist), _) => match selector {
            MQCA_NAMELIST_NAME => text(&namelist.name),
            MQCA_NAMELIST_DESC => text(&namelist.description),
            MQIA_NAME_COUNT => integer(namelist.names.len() as i32),
            MQCA_NAMES => text(
                namelist
                    .names
                    .iter()
                    .map(|name| format!("{name:<48}"))
                    .collect::<String>()
                    .trim_end(),
            ),
            _ => failed(MQRC_SELECTOR_ERROR),
        },
        _ => failed(MQRC_SELECTOR_ERROR),
    }
}

/// The time MQGET's Expiry (the lifetime left) is computed at: the clock, read only for a
/// message that can expire (the descriptor's other fields do not need it).
fn expiry_now(message: &RetrievedMessage) -> u64 {
    if message.descriptor.expiry_tenths.is_some() {
        now_ms()
    } else {
        0
    }
}

/// Set an output text field, reusing its buffer (MQPUT and MQGET fill the resolved names on
/// every call; a caller reusing its MQPMO or MQGMO pays no allocation for them).
pub(crate) fn set_text(field: &mut String, text: &str) {
    field.clear();
    field.push_str(text);
}

/// APPLTYPE's MQAT_* value: a keyword MQSC accepts, or the number itself.
pub fn application_type_number(application_type: &str) -> i32 {
    use ferrite_constants::appl_type::*;
    match application_type {
        "CICS" => MQAT_CICS,
        "IMS" => MQAT_IMS,
        "MVS" | "ZOS" => MQAT_ZOS,
        "UNIX" => MQAT_UNIX,
        "WINDOWS" | "WINDOWSNT" => MQAT_WINDOWS_NT,
        "DEF" => MQAT_DEFAULT,
        "OS400" => MQAT_OS400,
        number => number.parse().unwrap_or(MQAT_DEFAULT),
    }
}
