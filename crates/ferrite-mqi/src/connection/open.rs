//! MQOPEN and MQCLOSE: name resolution (local, model, alias and remote queues, the queue
//! manager, processes and namelists), dynamic queues and the handles they give.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ferrite_constants::{
    close_options::{MQCO_DELETE, MQCO_DELETE_PURGE, MQCO_KEEP_SUB, MQCO_QUIESCE, MQCO_REMOVE_SUB},
    misc::MQEVO_OTHER,
    object_type::{MQOT_NAMELIST, MQOT_PROCESS, MQOT_Q, MQOT_Q_MGR, MQOT_TOPIC},
    open_options::*,
    reason::*,
};
use ferrite_queue_manager::objects::authority_record::{
    AuthorityObjectType, MQZAO_ALTERNATE_USER_AUTHORITY, MQZAO_BROWSE, MQZAO_DELETE, MQZAO_INPUT,
    MQZAO_INQUIRE, MQZAO_OUTPUT, MQZAO_PASS_ALL_CONTEXT, MQZAO_PASS_IDENTITY_CONTEXT, MQZAO_SET,
    MQZAO_SET_ALL_CONTEXT, MQZAO_SET_IDENTITY_CONTEXT,
};
use ferrite_queue_manager::{
    thread_number, AliasDefinition, AliasTargetType, ConnectingUser, DefinitionType, HandleRecord,
    LocalQueue, ObjectDefinition, ObjectType, Principal, QueueDefinition,
};

use super::verb_accounting::Verb;
use super::{
    failed, new_lock_holder, Connection, Hobj, ObjectHandle, RemoteRoute, Target,
    DYNAMIC_Q_NAME_PREFIX_MAX,
};
use crate::name_resolution::{resolve_queue_name, Destination, RemoteDestination};

/// The queue an MQOPEN of a queue name reaches.
struct Resolved {
    queue: Arc<LocalQueue>,
    /// The alias it was reached through.
    alias: Option<String>,
    /// Whether the open created a temporary dynamic queue.
    temporary: bool,
    /// For another queue manager's queue: the route (`queue` is its transmission queue).
    remote: Option<RemoteRoute>,
}

impl Resolved {
    fn queue(queue: Arc<LocalQueue>, alias: Option<String>, temporary: bool) -> Resolved {
        Resolved {
            queue,
            alias,
            temporary,
            remote: None,
        }
    }
}

use crate::descriptor::trim;
use crate::error::{MqError, MqResult};
use crate::groups;
use crate::selection::Selection;
use crate::structures::Mqod;
use crate::{queue_manager_events, triggering};
use ferrite_queue_manager::statistics::MqiCounter;

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

/// Another queue manager's queue opens for output only (MQRC_OPTION_NOT_VALID_FOR_TYPE).
fn check_remote_open_options(options: i32) -> MqResult<()> {
    let input_or_more =
        MQOO_INPUT_AS_Q_DEF | MQOO_INPUT_SHARED | MQOO_INPUT_EXCLUSIVE | MQOO_BROWSE | MQOO_SET;
    if options & input_or_more != 0 || options & MQOO_OUTPUT == 0 {
        return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
    }
    Ok(())
}

/// The authorities MQOPEN's `options` need on the object opened.
fn open_authorities(options: i32) -> u32 {
    [
        (
            MQOO_INPUT_AS_Q_DEF | MQOO_INPUT_SHARED | MQOO_INPUT_EXCLUSIVE,
            MQZAO_INPUT,
        ),
        (MQOO_BROWSE, MQZAO_BROWSE),
        (MQOO_OUTPUT, MQZAO_OUTPUT),
        (MQOO_INQUIRE, MQZAO_INQUIRE),
        (MQOO_SET, MQZAO_SET),
        (MQOO_PASS_IDENTITY_CONTEXT, MQZAO_PASS_IDENTITY_CONTEXT),
        (MQOO_PASS_ALL_CONTEXT, MQZAO_PASS_ALL_CONTEXT),
        (MQOO_SET_IDENTITY_CONTEXT, MQZAO_SET_IDENTITY_CONTEXT),
        (MQOO_SET_ALL_CONTEXT, MQZAO_SET_ALL_CONTEXT),
    ]
    .into_iter()
    .filter(|(option, _)| options & option != 0)
    .fold(0, |wanted, (_, authority)| wanted | authority)
}

impl Connection {
    /// MQOPEN: open a queue (MQOT_Q), the queue manager (MQOT_Q_MGR, for MQINQ), or a process
    /// or namelist (MQOT_PROCESS, MQOT_NAMELIST, for MQINQ).
    ///
    /// A queue name resolves as in MQ: a local queue is opened; a model queue creates a
    /// dynamic queue from DynamicQName (a trailing `*` becomes 16 hexadecimal digits; ObjectName
    /// returns the name; MQRC_DYNAMIC_Q_NAME_ERROR, MQRC_OBJECT_ALREADY_EXISTS); an alias
    /// opens its TARGET (MQRC_UNKNOWN_ALIAS_BASE_Q, MQRC_ALIAS_BASE_Q_TYPE_ERROR); a remote
    /// queue, or ObjectQMgrName naming another queue manager, resolves through
    /// `name_resolution` to a transmission queue (its reasons there) and opens for output
    /// only: puts through the handle go to the transmission queue behind an MQXQH, and
    /// ResolvedQName and ResolvedQMgrName name the destination.
    ///
    /// Input options: MQOO_INPUT_AS_Q_DEF (the queue's DEFSOPT), MQOO_INPUT_SHARED (exclusive
    /// on a NOSHARE queue), MQOO_INPUT_EXCLUSIVE (MQRC_OBJECT_IN_USE when another
    /// handle has the queue open for input, or any handle has it exclusively).
    pub fn open(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj> {
        let timing = self.verb_timing();
        let result = self.open_reporting(od, options);
        self.count_call(MqiCounter::Open, MqiCounter::OpenFailed, &result);
        self.verb_timed(Verb::Open, timing);
        result
    }

    /// MQOPEN with its events, not counted as an MQOPEN call (MQPUT1's own open).
    pub(super) fn open_reporting(&mut self, od: &mut Mqod, options: i32) -> MqResult<Hobj> {
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
        let mut remote = None;
        let target = match od.object_type {
            MQOT_Q => 'queue: {
                if name.is_empty() || name.len() > 48 {
                    return failed(MQRC_OBJECT_NAME_ERROR);
                }
                if q_mgr_name.len() > 48 {
                    return failed(MQRC_UNKNOWN_OBJECT_Q_MGR);
                }
                let local_name = q_mgr_name.is_empty() || q_mgr_name == self.queue_manager.name();
                if local_name
                    && self.queue_manager.queue_object_type(&name) == Some(ObjectType::RemoteQueue)
                {
                    check_remote_open_options(options)?;
                }
                // Publish/subscribe hook: an alias queue whose target is a topic (pubsub.rs).
                if let Some(topic_alias) = local_name.then(|| self.topic_alias(&name)).flatten() {
                    let target = self.open_alias_topic(od, &topic_alias, options)?;
                    alias = Some(topic_alias.name);
                    break 'queue target;
                }
                // Queue sharing group hook: a shared queue (shared_queues.rs).
                if let Some(shared) = self.open_shared_queue(od, &name, q_mgr_name, options)? {
                    break 'queue shared;
                }
                // Distributed queuing: a queue here, or another queue manager's.
                let resolved = match resolve_queue_name(&self.queue_manager, &name, q_mgr_name)? {
                    Destination::Local(local) => self.resolve_queue(od, &local, options)?,
                    Destination::Remote(destination) => {
                        self.resolve_remote(od, &name, q_mgr_name, destination, options)?
                    }
                };
                alias = resolved.alias;
                created_temporary = resolved.temporary;
                remote = resolved.remote;
                Target::Queue(resolved.queue)
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
                if options
                    & !(MQOO_INQUIRE | MQOO_FAIL_IF_QUIESCING | MQOO_ALTERNATE_USER_AUTHORITY)
                    != 0
                {
                    return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
                }
                if self.queue_manager.object(object_type, &name).is_none() {
                    return failed(MQRC_UNKNOWN_OBJECT_NAME);
                }
                let authority_type = if object_type == ObjectType::Process {
                    AuthorityObjectType::Process
                } else {
                    AuthorityObjectType::Namelist
                };
                self.authorize_open(od, authority_type, &name, options)?;
                Target::Definition(object_type, name.clone())
            }
            MQOT_Q_MGR => {
                if !name.is_empty() && name != self.queue_manager.name() {
                    return failed(MQRC_OBJECT_NAME_ERROR);
                }
                if options
                    & !(MQOO_INQUIRE | MQOO_FAIL_IF_QUIESCING | MQOO_ALTERNATE_USER_AUTHORITY)
                    != 0
                {
                    return failed(MQRC_OPTION_NOT_VALID_FOR_TYPE);
                }
                let queue_manager_name = self.queue_manager.name().to_string();
                self.authorize_open(
                    od,
                    AuthorityObjectType::QueueManager,
                    &queue_manager_name,
                    options,
                )?;
                Target::QueueManager
            }
            // Publish/subscribe hook: a topic opened for publishing (pubsub.rs).
            MQOT_TOPIC => self.open_topic(od, options)?,
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
        if let Target::Shared(shared) = &target {
            od.resolved_q_name = shared.name().to_string();
        }
        od.resolved_q_mgr_name = self.queue_manager.name().to_string();
        if let Some(route) = &remote {
            od.resolved_q_name = route.destination.remote_q_name.clone();
            od.resolved_q_mgr_name = route.destination.remote_q_mgr_name.clone();
        }
        let accounting = match &target {
            Target::Queue(queue) => self.queue_accounting_for(queue),
            _ => None,
        };
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
                remote,
                accounting,
            },
        );
        self.note_handles();
        // Trigger hook: a trigger monitor opening its initiation queue.
        if let Some(queue) = opened_for_input {
            triggering::initiation_queue_opened(&self.queue_manager, &queue);
        }
        Ok(Hobj(hobj))
    }

    /// The alias queue `name` when its TARGTYPE is TOPIC.
    fn topic_alias(&self, name: &str) -> Option<AliasDefinition> {
        match self.queue_manager.object(ObjectType::AliasQueue, name) {
            Some(ObjectDefinition::Alias(alias)) if alias.target_type == AliasTargetType::Topic => {
                Some(alias)
            }
            _ => None,
        }
    }

    /// The local queue an MQOPEN of the queue `name` reaches: the queue itself, a new dynamic
    /// queue made from a model (ObjectName becomes its name), or an alias's target. Returns
    /// the queue, the alias it was reached through, and whether a temporary dynamic queue was
    /// created.
    fn resolve_queue(&mut self, od: &mut Mqod, name: &str, options: i32) -> MqResult<Resolved> {
        let object_type = self.queue_manager.queue_object_type(name);
        let definition = object_type.and_then(|kind| self.queue_manager.object(kind, name));
        if definition.is_some() {
            // Authority is checked on the queue named, not on what it resolves to (MQ's rule:
            // an alias may be granted without its target).
            self.authorize_open(od, AuthorityObjectType::Queue, name, options)?;
        }
        match definition {
            Some(ObjectDefinition::Local(_)) => match self.queue_manager.queue(name) {
                Some(queue) => Ok(Resolved::queue(queue, None, false)),
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
                self.queue_manager
                    .note_dynamic_queue_creator(&dynamic_name, &self.principal);
                if temporary {
                    self.temporary_queues.push(queue.clone());
                }
                od.object_name = dynamic_name;
                Ok(Resolved::queue(queue, None, temporary))
            }
            Some(ObjectDefinition::Alias(alias)) => {
                match self.queue_manager.queue_object_type(&alias.target) {
                    Some(ObjectType::LocalQueue) => match self.queue_manager.queue(&alias.target) {
                        Some(queue) => Ok(Resolved::queue(queue, Some(alias.name), false)),
                        None => failed(MQRC_UNKNOWN_ALIAS_BASE_Q),
                    },
                    None => failed(MQRC_UNKNOWN_ALIAS_BASE_Q),
                    // An alias of a model, alias or remote queue: not a queue MQOPEN can use.
                    Some(_) => failed(MQRC_ALIAS_BASE_Q_TYPE_ERROR),
                }
            }
            // Resolved by name_resolution: a QREMOTE reaches this queue manager only when it
            // is a queue manager alias opened as a queue, which MQ refuses.
            Some(ObjectDefinition::Remote(_)) => failed(MQRC_REMOTE_Q_NAME_ERROR),
            _ => failed(MQRC_UNKNOWN_OBJECT_NAME),
        }
    }

    /// A queue of another queue manager (name_resolution.rs): opened for output only
    /// (MQRC_OPTION_NOT_VALID_FOR_TYPE), with the authority to put checked on the QREMOTE
    /// named or, for an ObjectQMgrName, on the transmission queue; the handle's queue is the
    /// transmission queue.
    fn resolve_remote(
        &mut self,
        od: &Mqod,
        name: &str,
        q_mgr_name: &str,
        destination: RemoteDestination,
        options: i32,
    ) -> MqResult<Resolved> {
        check_remote_open_options(options)?;
        let through_definition = q_mgr_name.is_empty() || q_mgr_name == self.queue_manager.name();
        let checked = if through_definition {
            name
        } else {
            &destination.transmission_queue
        };
        self.authorize_open(od, AuthorityObjectType::Queue, checked, options)?;
        let queue = self
            .queue_manager
            .queue(&destination.transmission_queue)
            .ok_or_else(|| MqError::failed(MQRC_UNKNOWN_XMIT_Q))?;
        Ok(Resolved {
            queue,
            alias: None,
            temporary: false,
            remote: Some(RemoteRoute {
                destination,
                definition: through_definition.then(|| name.to_string()),
            }),
        })
    }

    /// MQOPEN's authority check on the object named (the tables of MQ's "Authorizations for
    /// MQI calls"): each access the options ask for needs its authority (MQRC_NOT_AUTHORIZED
    /// otherwise). With MQOO_ALTERNATE_USER_AUTHORITY the connection's user needs altusr on
    /// the queue manager, and the checks are made for AlternateUserId instead. A refusal is
    /// also a Not Authorized event (AUTHOREV).
    pub(super) fn authorize_open(
        &self,
        od: &Mqod,
        object_type: AuthorityObjectType,
        name: &str,
        options: i32,
    ) -> MqResult<()> {
        let alternate;
        let principal = if options & MQOO_ALTERNATE_USER_AUTHORITY != 0 {
            let checked = self.queue_manager.check_authority(
                &self.principal,
                AuthorityObjectType::QueueManager,
                self.queue_manager.name(),
                MQZAO_ALTERNATE_USER_AUTHORITY,
            );
            self.open_refused(
                checked.is_err(),
                &self.principal,
                object_type,
                name,
                options,
            );
            checked?;
            alternate = self
                .queue_manager
                .principal(&ConnectingUser::asserted(trim(&od.alternate_user_id)));
            &alternate
        } else {
            &self.principal
        };
        if principal.administrator {
            return Ok(());
        }
        let checked = self.queue_manager.check_authority(
            principal,
            object_type,
            name,
            open_authorities(options),
        );
        self.open_refused(checked.is_err(), principal, object_type, name, options);
        checked?;
        Ok(())
    }

    /// MQCLOSE's delete of the permanent dynamic queue `name` needs dlt on it (its creator has
    /// every authority on it); a refusal is MQRC_NOT_AUTHORIZED and a Not Authorized event
    /// (type 3).
    fn authorize_delete(&self, name: &str, options: i32) -> MqResult<()> {
        let checked = self.queue_manager.check_authority(
            &self.principal,
            AuthorityObjectType::Queue,
            name,
            MQZAO_DELETE,
        );
        if checked.is_err() {
            let refused = crate::queue_manager_events::Refused {
                user_identifier: &self.principal.name,
                appl_type: self.record.appl_type,
                appl_name: self.appl_name.as_str(),
            };
            crate::queue_manager_events::close_not_authorized(
                &self.queue_manager,
                &refused,
                options,
                name,
            );
        }
        checked?;
        Ok(())
    }

    /// When `refused`, the Not Authorized event of an open (type 2) for `principal`.
    fn open_refused(
        &self,
        refused: bool,
        principal: &Principal,
        object_type: AuthorityObjectType,
        name: &str,
        options: i32,
    ) {
        if !refused {
            return;
        }
        let mq_object_type = match object_type {
            AuthorityObjectType::Queue => MQOT_Q,
            AuthorityObjectType::Process => MQOT_PROCESS,
            AuthorityObjectType::Namelist => MQOT_NAMELIST,
            _ => MQOT_Q_MGR,
        };
        let refused = crate::queue_manager_events::Refused {
            user_identifier: &principal.name,
            appl_type: self.record.appl_type,
            appl_name: self.appl_name.as_str(),
        };
        crate::queue_manager_events::open_not_authorized(
            &self.queue_manager,
            &refused,
            options,
            mq_object_type,
            name,
        );
    }

    /// The name of a dynamic queue from DynamicQName: a trailing `*` is replaced by 16
    /// hexadecimal digits that make the name unique (`AMQ.*` gives `AMQ.5F3A...`); a name
    /// without `*` is used as it is. MQRC_DYNAMIC_Q_NAME_ERROR for anything else.
    fn dynamic_queue_name(&self, pattern: &str) -> MqResult<String> {
        static SUFFIX: AtomicU64 = AtomicU64::new(0);
        let pattern = trim(pattern);
        let Some(prefix) = pattern.strip_suffix('*') else {
            if !ferrite_queue_manager::objects::is_valid_object_name(pattern, 48) {
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
        let timing = self.verb_timing();
        let result = self.close_handle(hobj, options);
        self.count_call(MqiCounter::Close, MqiCounter::CloseFailed, &result);
        self.verb_timed(Verb::Close, timing);
        result
    }

    /// MQCLOSE, not counted as an MQCLOSE call (MQPUT1's own close).
    pub(super) fn close_handle(&mut self, hobj: Hobj, options: i32) -> MqResult<()> {
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
        // Publish/subscribe hook: MQCLOSE of a subscription handle (pubsub.rs).
        if self.is_subscription_handle(hobj) {
            return self.close_subscription(hobj, options);
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
                    self.authorize_delete(queue.name_str(), options)?;
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
        let mut handle = self.handles.remove(&hobj.0).expect("checked");
        self.account_closed(&mut handle);
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

    /// Make the temporary dynamic queue `hobj` created outlive the handle and the connection:
    /// something else (a shared subscription) deletes it.
    pub(super) fn disown_temporary_queue(&mut self, hobj: Hobj) {
        let handle = self.handles.get_mut(&hobj.0).expect("an open handle");
        assert!(handle.created_temporary, "the handle created its queue");
        handle.created_temporary = false;
        if let Target::Queue(queue) = &handle.target {
            self.temporary_queues
                .retain(|created| !Arc::ptr_eq(created, queue));
        }
    }

    /// At the end of the connection: delete the temporary dynamic queues it created.
    pub(super) fn delete_temporary_queues(&mut self) {
        for queue in std::mem::take(&mut self.temporary_queues) {
            if !self.queue_manager.is_stopping() {
                let _ = self.queue_manager.delete_temporary_queue(&queue);
            }
        }
    }
}
