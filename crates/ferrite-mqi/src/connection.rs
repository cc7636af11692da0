//! A connection to an in-process queue manager (MQCONN/MQCONNX) and the MQI calls on it.

mod get;
pub(crate) mod get_buffer;
mod get_watch;
mod group_get;
mod inquire;
mod message_handles;
mod open;
mod pubsub;
mod put;
pub(crate) mod queue_accounting;
mod retained;
mod shared_queues;
mod statistics;
mod status;
mod syncpoint;
pub(crate) mod verb_accounting;
pub use get_watch::NextMessage;
pub use retained::retained_topic_strings;
pub use shared_queues::WAIT_SLICE_MS;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ferrite_constants::{appl_type::MQAT_DEFAULT, connect_options::*, reason::*, selector::*};
use ferrite_queue_manager::objects::authority_record::{AuthorityObjectType, MQZAO_CONNECT};
use ferrite_queue_manager::queue_manager::hashing::FastHashing;
use ferrite_queue_manager::{
    now_ms, AliasDefinition, ConnectingUser, ConnectionRecord, LocalAuthentication, LocalQueue,
    MessageKey, ObjectDefinition, ObjectType, Principal, QueueManager, UnitOfWork,
};

use crate::async_status::AsyncPutStatus;
use crate::descriptor::trim;
use crate::error::{MqError, MqResult};
use crate::groups;
pub use crate::identifiers::reserve_identifiers;
pub use crate::inquire::MAX_PRIORITY;
use crate::mq_char::MqChar;
pub use crate::triggering::application_type_number;

use crate::selection::Selection;
use crate::structures::{Mqcno, Mqmd};
use crate::{queue_manager_events, triggering};

pub use ferrite_mqi_types::{AttributeValue, GetResult, Hobj, Inquired};

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
    MQCA_DEF_XMIT_Q_NAME,
];

/// Every MQOO_* bit MQOPEN knows.
/// What [`Target::Lent`] relies on: a handle's queue is lent only for the MQPUT or MQGET
/// running on that handle, which neither closes the handle nor reads its target.
const LENT_QUEUE_CONTRACT: &str =
    "a handle's queue is lent only to the MQPUT or MQGET on it, which keeps the handle open";

/// This process's user (the first 12 bytes of $USER or of the user's name, whole characters)
/// and program name (the
/// last 28 bytes of its executable's name, whole characters, as MQ keeps PutApplName), read
/// once: MQCONN is on the path of applications that connect per request, and neither changes
/// while the process runs.
fn process_identity() -> &'static (String, MqChar<28>) {
    static IDENTITY: std::sync::OnceLock<(String, MqChar<28>)> = std::sync::OnceLock::new();
    IDENTITY.get_or_init(|| {
        // $USER, else the name of the user the process runs as (whom its authority checks
        // are made for).
        let user = std::env::var("USER")
            .ok()
            .filter(|user| !user.trim().is_empty())
            .unwrap_or_else(|| this_process().name.clone());
        let user = MqChar::<12>::truncating(&user);
        let program = std::env::current_exe()
            .ok()
            .and_then(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        (user.to_string(), MqChar::last_fitting(&program))
    })
}

/// This process's user (its effective user and group IDs), read once.
fn this_process() -> &'static ConnectingUser {
    static THIS_PROCESS: std::sync::OnceLock<ConnectingUser> = std::sync::OnceLock::new();
    THIS_PROCESS.get_or_init(ConnectingUser::this_process)
}

/// MQCONN's authority check: connect on the queue manager object (MQRC_NOT_AUTHORIZED, and
/// the Not Authorized event for the application `appl_name`).
fn authorize_connect(
    queue_manager: &QueueManager,
    principal: &Principal,
    appl_name: &str,
) -> MqResult<()> {
    let checked = queue_manager.check_authority(
        principal,
        AuthorityObjectType::QueueManager,
        queue_manager.name(),
        MQZAO_CONNECT,
    );
    if checked.is_err() {
        let refused = crate::queue_manager_events::Refused {
            user_identifier: &principal.name,
            appl_type: MQAT_DEFAULT,
            appl_name,
        };
        crate::queue_manager_events::connect_not_authorized(queue_manager, &refused);
    }
    checked?;
    Ok(())
}

/// CHCKLOCL for an in-process MQCONN: this process connects, with the MQCSP of `cno`.
/// Returns the user ID to run under when ADOPTCTX adopts the authenticated one.
fn authenticate_in_process(queue_manager: &QueueManager, cno: &Mqcno) -> MqResult<Option<String>> {
    let credentials = cno
        .security_parms
        .as_ref()
        .map(|csp| (csp.user_id.as_str(), csp.password.as_bytes()));
    let user = this_process();
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

enum Target {
    Queue(Arc<LocalQueue>),
    QueueManager,
    /// A process or namelist, opened for MQINQ.
    Definition(ObjectType, String),
    /// The handle's queue, taken out for the MQPUT or MQGET running on the handle
    /// ([`Connection::lend_queue`]); nothing else reads a handle during that call.
    Lent,
    /// A topic opened for publishing (MQOT_TOPIC): its full topic string (pubsub.rs).
    Topic(String),
    /// A subscription MQSUB made or resumed (an Hsub; pubsub.rs).
    Subscription(pubsub::SubscriptionHandle),
    /// A shared queue of the queue sharing group (shared_queues.rs).
    Shared(Box<shared_queues::SharedTarget>),
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
    /// Queue accounting (ACCTQ) of this handle's calls, when its queue asks for it.
    accounting: Option<Box<queue_accounting::QueueAccounting>>,
    /// Distributed queuing: the handle's queue is the transmission queue to this destination
    /// (name_resolution.rs); its puts are wrapped in an MQXQH.
    remote: Option<RemoteRoute>,
}

/// The route of a handle opened for another queue manager's queue.
#[derive(Clone, Debug)]
struct RemoteRoute {
    destination: crate::name_resolution::RemoteDestination,
    /// The QREMOTE it was opened through (its PUT inhibit and message defaults apply).
    definition: Option<String>,
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
    /// The user authority checks are made for (ferrite-queue-manager's
    /// security/authorization.rs): this process's user, the user ID ADOPTCTX adopted, or the
    /// one a listener established ([`Connection::connect_as`]).
    pub(crate) principal: Principal,
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
    /// Queue accounting (queue_accounting.rs): handles open with it, and closed handles'
    /// totals by queue.
    accounted_handles: u32,
    /// Which calls queue accounting times.
    accounting_sampler: queue_accounting::CallSampler,
    queue_accounting: queue_accounting::ConnectionQueueAccounting,
    /// Class 1 accounting (verb_accounting.rs), when ACCTMQI was ON at MQCONN.
    verb_accounting: Option<Box<verb_accounting::VerbAccounting>>,
    /// Queue sharing groups: the unit of work's shared queue work (shared_queues.rs).
    shared_unit: shared_queues::SharedUnitOfWork,
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
        // Authorization: the user checks are made for, and its connect authority.
        let principal = match &adopted_user {
            Some(user) => queue_manager.principal(&ConnectingUser::asserted(user)),
            None => queue_manager.principal(this_process()),
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
        authorize_connect(&queue_manager, &principal, appl_name.as_str())?;
        crate::queue_manager_put::install_expiry_observer(&queue_manager);
        crate::service_interval_events::install(&queue_manager);
        crate::statistics_messages::install(&queue_manager);
        let record = queue_manager
            .connections()
            .register(appl_name.as_str(), MQAT_DEFAULT, user_identifier, now_ms())
            .ok_or(MqError::failed(MQRC_MAX_CONNS_LIMIT_REACHED))?;
        record
            .mqi
            .add(ferrite_queue_manager::statistics::MqiCounter::Conn, 1);
        let queue_manager_accounts_mqi =
            queue_manager.queue_manager_attributes().accounting_mqi == "ON";
        Ok(Connection {
            queue_manager,
            unit: UnitOfWork::new(),
            handles: HashMap::default(),
            next_handle: 1,
            // A user ID longer than MQ's 12 bytes (an adopted one) is cut, as MQ cuts it.
            user_identifier: MqChar::truncating(user_identifier),
            appl_name,
            principal,
            temporary_queues: Vec::new(),
            async_status: AsyncPutStatus::default(),
            message_handles: Default::default(),
            record,
            arrivals: triggering::PendingArrivals::default(),
            accounted_handles: 0,
            accounting_sampler: Default::default(),
            queue_accounting: Default::default(),
            verb_accounting: queue_manager_accounts_mqi
                .then(|| Box::new(verb_accounting::VerbAccounting::default())),
            shared_unit: Default::default(),
        })
    }

    /// The queue manager this connection is to.
    pub fn queue_manager(&self) -> &Arc<QueueManager> {
        &self.queue_manager
    }

    /// MQCONNX for a listener that has authenticated its peer itself (the bindings socket
    /// with CHCKLOCL, client channels with CHCKCLNT, CHLAUTH and MCAUSER): the connection
    /// runs as `user` (blank: as this process, the queue manager's own user, as an MCA
    /// without a user ID does on MQ), and MQCONN's authority check is made for that user
    /// (MQRC_NOT_AUTHORIZED without connect authority on the queue manager).
    pub fn connect_as(
        queue_manager: Arc<QueueManager>,
        q_mgr_name: &str,
        cno: &Mqcno,
        user: &str,
    ) -> MqResult<Connection> {
        let mut connection = Self::connect_checked(queue_manager, q_mgr_name, cno, false)?;
        if !user.trim().is_empty() {
            connection.set_user_identifier(user);
            authorize_connect(
                &connection.queue_manager,
                &connection.principal,
                connection.appl_name.as_str(),
            )?;
        }
        Ok(connection)
    }

    /// Sets the UserIdentifier the connection's messages carry in their identity context
    /// (its first 12 bytes kept, whole characters), and the user its authority checks are
    /// made for. An in-process connection takes it from the environment; a connection made
    /// for another process (bindings socket, client channel) is given the identity the
    /// channel established instead ([`Connection::connect_as`]).
    pub fn set_user_identifier(&mut self, user_identifier: &str) {
        self.user_identifier = MqChar::truncating(user_identifier);
        self.record.set_user(&self.user_identifier);
        self.principal = self
            .queue_manager
            .principal(&ConnectingUser::asserted(user_identifier));
    }

    /// The user this connection's authority checks are made for.
    pub fn principal(&self) -> &Principal {
        &self.principal
    }

    /// Whether the unit of work holds uncommitted puts or gets.
    pub fn in_unit_of_work(&self) -> bool {
        !self.unit.is_empty()
    }

    /// Whether the unit of work has logged (it holds persistent work): its commit or backout
    /// waits for the log to be forced.
    pub fn unit_of_work_is_logged(&self) -> bool {
        self.unit.urid().is_some()
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
            Target::QueueManager
            | Target::Definition(..)
            | Target::Topic(_)
            | Target::Subscription(_)
            | Target::Shared(_) => failed(MQRC_OBJECT_TYPE_ERROR),
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

    /// The current definition of the alias a handle was opened through (an alias deleted
    /// since no longer constrains the handle).
    fn alias_of(&self, handle: &ObjectHandle) -> Option<AliasDefinition> {
        let name = handle.alias.as_ref()?;
        match self.queue_manager.object(ObjectType::AliasQueue, name) {
            Some(ObjectDefinition::Alias(alias)) => Some(alias),
            _ => None,
        }
    }

    /// The current definition of the QREMOTE a remote handle was opened through (none for an
    /// ObjectQMgrName, or once the definition is deleted).
    fn remote_of(&self, route: &RemoteRoute) -> Option<ferrite_queue_manager::RemoteDefinition> {
        let name = route.definition.as_ref()?;
        match self.queue_manager.object(ObjectType::RemoteQueue, name) {
            Some(ObjectDefinition::Remote(remote)) => Some(remote),
            _ => None,
        }
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
        let _ = self.end_shared_unit(false);
        if !self.unit.is_empty() && !self.queue_manager.is_stopping() {
            let _ = self.backout_unit();
        }
        self.delete_temporary_queues();
        // Accounting hook: the connection's MQI (ACCTMQI) and queue (ACCTQ) accounting.
        crate::statistics_messages::connection_ended(
            &self.queue_manager,
            &self.record,
            self.verb_accounting.as_deref(),
        );
        crate::statistics_messages::queues_accounted(
            &self.queue_manager,
            &self.record,
            &self.queue_accounting.queues,
        );
        self.queue_manager.connections().deregister(self.record.id);
    }
}

/// Set an output text field, reusing its buffer (MQPUT and MQGET fill the resolved names on
/// every call; a caller reusing its MQPMO or MQGMO pays no allocation for them).
pub(crate) fn set_text(field: &mut String, text: &str) {
    field.clear();
    field.push_str(text);
}
