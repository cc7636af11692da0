//! Command events (QMGR CMDEV) and configuration events (QMGR CONFIGEV), as IBM MQ documents
//! them ("Command", "Create object", "Change object", "Delete object", "Refresh object"):
//! PCF event messages on SYSTEM.ADMIN.COMMAND.EVENT and SYSTEM.ADMIN.CONFIG.EVENT that a
//! monitoring program (or IBM's `PCFMessage`) reads.
//!
//! ## When
//! - **Command event**: every MQSC or PCF command that *succeeds*, with CMDEV(ENABLED); with
//!   CMDEV(NODISPLAY) all but DISPLAY and PCF Inquire commands. ALTER QMGR and Change Queue
//!   Manager are reported when CMDEV is not DISABLED before *or* after them, so switching
//!   command events on or off is itself reported. A failed command gives none.
//! - **Configuration events**, with CONFIGEV(ENABLED): Create object for a DEFINE (or DEFINE
//!   REPLACE, PCF Create/Copy) that made a new object; Change object, two messages (the
//!   attributes before, then after, one CorrelId) for an ALTER, DEFINE REPLACE of an existing
//!   object or PCF Change, even when nothing changed; Delete object for a DELETE; Refresh
//!   object for each object REFRESH QMGR TYPE(CONFIGEV) selects. ALTER QMGR is reported unless
//!   CONFIGEV was DISABLED and stays so; switching CONFIGEV from DISABLED to ENABLED refreshes
//!   every object at once (MQ generates that Refresh Queue Manager itself: EventOrigin
//!   MQEVO_INTERNAL). Not reported, as in MQ: temporary dynamic queues, changes the queue
//!   manager makes itself (depth event switches, trigger control), and
//!   SYSTEM.ADMIN.CONFIG.EVENT itself except by a refresh. Applications' calls are reported
//!   too: MQSET gives a Change object (EventOrigin MQEVO_MQSET), an MQCLOSE that deletes a
//!   permanent dynamic queue a Delete object (MQEVO_OTHER), both for the connection's user;
//!   creating a dynamic queue at MQOPEN gives none (MQ's list names only DEFINE).
//! - REFRESH QMGR TYPE(CONFIGEV) INCLINT(n) (PCF RefreshInterval) reports only objects whose
//!   ALTDATE/ALTTIME is within the last n minutes (0: all); one whose time was never recorded
//!   (an image from an older build) is included. The object types are those Ferrite
//!   stores and MQ for z/OS reports: queues, CHANNEL, PROCESS, NAMELIST, STGCLASS, AUTHINFO
//!   and the queue manager.
//! - An event that cannot be put (the queue not defined, put-inhibited, full) is discarded;
//!   the command's outcome is unchanged.
//!
//! ## The messages
//! MQMD: MsgType MQMT_DATAGRAM, Format MQFMT_EVENT, PutApplType MQAT_QMGR, PutApplName the
//! queue manager's name, Priority and Persistence the event queue's defaults; CorrelId zeros,
//! except the two messages of a Change object, which share a new one. Data: one PCF message in
//! the native encoding, MQCFH Type MQCFT_EVENT, CompCode MQCC_WARNING.
//!
//! The origin of the command, first in both kinds of event:
//!
//! | parameter | id | type | when |
//! |---|---|---|---|
//! | EventUserId | MQCACF_EVENT_USER_ID 3045 | MQCFST 12 | always: the console's user, or the command message's UserIdentifier |
//! | EventOrigin | MQIACF_EVENT_ORIGIN 1011 | MQCFIN | always: MQEVO_CONSOLE (1), MQEVO_MSG (3, a message on a command queue), MQEVO_INTERNAL (5); MQEVO_MQSET (4) and MQEVO_OTHER (0, MQCLOSE) for configuration events of MQI calls |
//! | EventQMgr | MQCACF_EVENT_Q_MGR 3047 | MQCFST 48 | always |
//! | EventAccountingToken | MQBACF_EVENT_ACCOUNTING_TOKEN 7001 | MQCFBS 32 | MQEVO_MSG: the command message's AccountingToken |
//! | EventApplIdentity | MQCACF_EVENT_APPL_IDENTITY 3049 | MQCFST 32 | MQEVO_MSG: its ApplIdentityData |
//! | EventApplType | MQIACF_EVENT_APPL_TYPE 1010 | MQCFIN | MQEVO_MSG: its PutApplType |
//! | EventApplName | MQCACF_EVENT_APPL_NAME 3050 | MQCFST 28 | MQEVO_MSG: its PutApplName |
//! | EventApplOrigin | MQCACF_EVENT_APPL_ORIGIN 3051 | MQCFST 4 | MQEVO_MSG: its ApplOriginData |
//!
//! **Command event**: MQCFH Version 3, Command MQCMD_COMMAND_EVENT (99), Reason
//! MQRC_COMMAND_MQSC (2412) or MQRC_COMMAND_PCF (2413), ParameterCount 2: the group
//! MQGACF_COMMAND_CONTEXT (8001, an MQCFGR) holding the origin above and Command
//! (MQIACF_COMMAND 1021: the PCF command, or for MQSC the PCF command of the same verb and
//! object, MQCMD_NONE when there is none); then the group MQGACF_COMMAND_DATA (8002) holding
//! a PCF command's parameters as they came, or an MQSC command's text (MQCACF_COMMAND_MQSC
//! 3075, as on z/OS).
//!
//! **Configuration event**: MQCFH Version 2, Command MQCMD_CONFIG_EVENT (43), Reason
//! MQRC_CONFIG_CREATE_OBJECT (2367), _CHANGE_OBJECT (2368), _DELETE_OBJECT (2369) or
//! _REFRESH_OBJECT (2370); MsgSeqNumber 1 and Control MQCFC_LAST, but 1 / MQCFC_NOT_LAST and
//! 2 / MQCFC_LAST for the two messages of a change. Flat parameters: the origin, ObjectType
//! (MQIACF_OBJECT_TYPE 1016: MQOT_Q, MQOT_CHANNEL, ...), ObjectName (the object's name
//! parameter: MQCA_Q_NAME, MQCACH_CHANNEL_NAME, ...), Disposition (MQIA_QSG_DISP 63,
//! MQQSGD_Q_MGR; not for the queue manager), then every attribute of the object with the
//! identifiers and values of a PCF Inquire response (`pcf_commands::object_event_parameters`).

use std::sync::Arc;

use ferrite_constants::{
    completion::MQCC_WARNING,
    encoding::MQENC_NATIVE,
    format::MQFMT_EVENT,
    lengths::{
        MQ_ACCOUNTING_TOKEN_LENGTH, MQ_APPL_IDENTITY_DATA_LENGTH, MQ_APPL_NAME_LENGTH,
        MQ_APPL_ORIGIN_DATA_LENGTH, MQ_Q_MGR_NAME_LENGTH, MQ_USER_ID_LENGTH,
    },
    misc::MQEVO_MSG,
    pcf::*,
    pcf_selector::*,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT},
    reason::{
        MQRC_COMMAND_MQSC, MQRC_COMMAND_PCF, MQRC_CONFIG_CHANGE_OBJECT, MQRC_CONFIG_CREATE_OBJECT,
        MQRC_CONFIG_DELETE_OBJECT, MQRC_CONFIG_REFRESH_OBJECT,
    },
};
use ferrite_mqi::descriptor;
use ferrite_mqi::queue_manager_put::{put_message, queue_manager_descriptor};
use ferrite_queue_manager::{
    now_ms, ConfigurationChange, DefinitionType, ObjectDefinition, ObjectTimes, ObjectType,
    QueueManager, QueueManagerAttributes,
};

use crate::context::Context;
pub use crate::context::{CommandOrigin, MessageContext};
use crate::pcf::{encode, ByteOrder, Parameter, PcfHeader, PcfMessage};

/// The queue command events go to.
pub const COMMAND_EVENT_QUEUE: &str = "SYSTEM.ADMIN.COMMAND.EVENT";

/// The queue configuration events go to.
pub const CONFIG_EVENT_QUEUE: &str = "SYSTEM.ADMIN.CONFIG.EVENT";

impl CommandOrigin {
    /// EventUserId ... EventApplOrigin (table in the module documentation).
    fn parameters(&self, queue_manager: &str) -> Vec<Parameter> {
        let mut parameters = vec![
            fixed(MQCACF_EVENT_USER_ID, &self.user_id, MQ_USER_ID_LENGTH),
            Parameter::integer(MQIACF_EVENT_ORIGIN, self.origin),
            fixed(MQCACF_EVENT_Q_MGR, queue_manager, MQ_Q_MGR_NAME_LENGTH),
        ];
        if let Some(message) = &self.message {
            debug_assert_eq!(self.origin, MQEVO_MSG, "only a command message has context");
            debug_assert_eq!(
                message.accounting_token.len(),
                MQ_ACCOUNTING_TOKEN_LENGTH as usize
            );
            parameters.extend([
                Parameter::ByteString {
                    parameter: MQBACF_EVENT_ACCOUNTING_TOKEN,
                    value: message.accounting_token.to_vec(),
                },
                fixed(
                    MQCACF_EVENT_APPL_IDENTITY,
                    &message.appl_identity_data,
                    MQ_APPL_IDENTITY_DATA_LENGTH,
                ),
                Parameter::integer(MQIACF_EVENT_APPL_TYPE, message.put_appl_type),
                fixed(
                    MQCACF_EVENT_APPL_NAME,
                    &message.put_appl_name,
                    MQ_APPL_NAME_LENGTH,
                ),
                fixed(
                    MQCACF_EVENT_APPL_ORIGIN,
                    &message.appl_origin_data,
                    MQ_APPL_ORIGIN_DATA_LENGTH,
                ),
            ]);
        }
        parameters
    }
}

/// An MQCFST of an MQ field `length` characters long: cut to it, blank padded.
fn fixed(parameter: i32, text: &str, length: i32) -> Parameter {
    let mut value: String = text.chars().take(length as usize).collect();
    let padding = (length as usize).saturating_sub(value.chars().count());
    value.extend(std::iter::repeat_n(' ', padding));
    Parameter::string(parameter, value)
}

// ----- command events ---------------------------------------------------------------------------

/// Whether CMDEV asks for an event for a command that succeeded; `inquiry` for DISPLAY and
/// PCF Inquire commands (not reported with NODISPLAY).
fn command_events_wanted(command_events: &str, inquiry: bool) -> bool {
    match command_events {
        "ENABLED" => true,
        "NODISPLAY" => !inquiry,
        _ => false,
    }
}

/// What a command's event says about the command itself.
pub(crate) struct CommandReport {
    /// MQRC_COMMAND_MQSC or MQRC_COMMAND_PCF.
    pub(crate) reason: i32,
    /// The PCF command code (MQCMD_*), for MQSC the PCF command of the same verb and object.
    pub(crate) command: i32,
    /// A DISPLAY or PCF Inquire.
    pub(crate) inquiry: bool,
    /// The command data: a PCF command's parameters, or an MQSC command's text.
    pub(crate) data: Vec<Parameter>,
}

impl CommandReport {
    /// The report of an MQSC command `text` of `verb` and `object` (canonical keywords).
    pub(crate) fn mqsc(verb: &str, object: &str, text: &str) -> CommandReport {
        CommandReport {
            reason: MQRC_COMMAND_MQSC,
            command: mqsc_command_code(verb, object),
            inquiry: verb == "DISPLAY",
            data: vec![Parameter::string(MQCACF_COMMAND_MQSC, text)],
        }
    }

    /// The report of a PCF command `command` with `parameters`.
    pub(crate) fn pcf(command: i32, parameters: &[Parameter]) -> CommandReport {
        CommandReport {
            reason: MQRC_COMMAND_PCF,
            command,
            inquiry: is_inquiry(command),
            data: parameters.to_vec(),
        }
    }
}

/// PCF commands that only read (not reported with CMDEV(NODISPLAY)).
pub(crate) fn is_inquiry(command: i32) -> bool {
    matches!(
        command,
        MQCMD_INQUIRE_Q_MGR
            | MQCMD_INQUIRE_PROCESS
            | MQCMD_INQUIRE_Q
            | MQCMD_INQUIRE_Q_NAMES
            | MQCMD_INQUIRE_PROCESS_NAMES
            | MQCMD_INQUIRE_CHANNEL_NAMES
            | MQCMD_INQUIRE_CHANNEL
            | MQCMD_INQUIRE_NAMELIST
            | MQCMD_INQUIRE_NAMELIST_NAMES
            | MQCMD_INQUIRE_Q_STATUS
            | MQCMD_INQUIRE_CHANNEL_STATUS
            | MQCMD_INQUIRE_AUTH_INFO
            | MQCMD_INQUIRE_AUTH_INFO_NAMES
            | MQCMD_INQUIRE_TOPIC
            | MQCMD_INQUIRE_TOPIC_NAMES
            | MQCMD_INQUIRE_SUBSCRIPTION
            | MQCMD_INQUIRE_SUB_STATUS
            | MQCMD_INQUIRE_TOPIC_STATUS
            | MQCMD_INQUIRE_CONNECTION
            | MQCMD_INQUIRE_LISTENER_STATUS
            | MQCMD_INQUIRE_USAGE
            | MQCMD_INQUIRE_LOG
            | MQCMD_INQUIRE_SYSTEM
            | MQCMD_INQUIRE_STG_CLASS
            | MQCMD_INQUIRE_STG_CLASS_NAMES
            | MQCMD_INQUIRE_CHLAUTH_RECS
            | MQCMD_INQUIRE_CHANNEL_INIT
            | MQCMD_INQUIRE_Q_MGR_STATUS
            | MQCMD_PING_Q_MGR
    )
}

/// The PCF command code of an MQSC verb and object (MQCMD_NONE when PCF has none).
pub(crate) fn mqsc_command_code(verb: &str, object: &str) -> i32 {
    let queue = matches!(object, "QLOCAL" | "QMODEL" | "QALIAS" | "QREMOTE" | "QUEUE");
    match (verb, object) {
        ("DEFINE", _) if queue => MQCMD_CREATE_Q,
        ("ALTER", _) if queue => MQCMD_CHANGE_Q,
        ("DELETE", _) if queue => MQCMD_DELETE_Q,
        ("DISPLAY", _) if queue => MQCMD_INQUIRE_Q,
        ("CLEAR", "QLOCAL") => MQCMD_CLEAR_Q,
        ("DISPLAY", "QSTATUS") => MQCMD_INQUIRE_Q_STATUS,
        ("RESET", "QSTATS") => MQCMD_RESET_Q_STATS,
        ("ALTER", "QMGR") => MQCMD_CHANGE_Q_MGR,
        ("DISPLAY", "QMGR") => MQCMD_INQUIRE_Q_MGR,
        ("REFRESH", "QMGR") => MQCMD_REFRESH_Q_MGR,
        ("DEFINE", "CHANNEL") => MQCMD_CREATE_CHANNEL,
        ("ALTER", "CHANNEL") => MQCMD_CHANGE_CHANNEL,
        ("DELETE", "CHANNEL") => MQCMD_DELETE_CHANNEL,
        ("DISPLAY", "CHANNEL") => MQCMD_INQUIRE_CHANNEL,
        ("DISPLAY", "CHSTATUS") => MQCMD_INQUIRE_CHANNEL_STATUS,
        ("STOP", "CHANNEL") => MQCMD_STOP_CHANNEL,
        ("START", "CHANNEL") => MQCMD_START_CHANNEL,
        ("PING", "CHANNEL") => MQCMD_PING_CHANNEL,
        ("RESET", "CHANNEL") => MQCMD_RESET_CHANNEL,
        ("RESOLVE", "CHANNEL") => MQCMD_RESOLVE_CHANNEL,
        ("START", "LISTENER") => MQCMD_START_CHANNEL_LISTENER,
        ("STOP", "LISTENER") => MQCMD_STOP_CHANNEL_LISTENER,
        ("DISPLAY", "LSSTATUS") => MQCMD_INQUIRE_LISTENER_STATUS,
        ("DISPLAY", "CHINIT") => MQCMD_INQUIRE_CHANNEL_INIT,
        ("DEFINE", "PROCESS") => MQCMD_CREATE_PROCESS,
        ("ALTER", "PROCESS") => MQCMD_CHANGE_PROCESS,
        ("DELETE", "PROCESS") => MQCMD_DELETE_PROCESS,
        ("DISPLAY", "PROCESS") => MQCMD_INQUIRE_PROCESS,
        ("DEFINE", "NAMELIST") => MQCMD_CREATE_NAMELIST,
        ("ALTER", "NAMELIST") => MQCMD_CHANGE_NAMELIST,
        ("DELETE", "NAMELIST") => MQCMD_DELETE_NAMELIST,
        ("DISPLAY", "NAMELIST") => MQCMD_INQUIRE_NAMELIST,
        ("DEFINE", "STGCLASS") => MQCMD_CREATE_STG_CLASS,
        ("ALTER", "STGCLASS") => MQCMD_CHANGE_STG_CLASS,
        ("DELETE", "STGCLASS") => MQCMD_DELETE_STG_CLASS,
        ("DISPLAY", "STGCLASS") => MQCMD_INQUIRE_STG_CLASS,
        ("DEFINE", "AUTHINFO") => MQCMD_CREATE_AUTH_INFO,
        ("ALTER", "AUTHINFO") => MQCMD_CHANGE_AUTH_INFO,
        ("DELETE", "AUTHINFO") => MQCMD_DELETE_AUTH_INFO,
        ("DISPLAY", "AUTHINFO") => MQCMD_INQUIRE_AUTH_INFO,
        ("DEFINE", "TOPIC") => MQCMD_CREATE_TOPIC,
        ("ALTER", "TOPIC") => MQCMD_CHANGE_TOPIC,
        ("DELETE", "TOPIC") => MQCMD_DELETE_TOPIC,
        ("DISPLAY", "TOPIC") => MQCMD_INQUIRE_TOPIC,
        ("DEFINE", "SUB") => MQCMD_CREATE_SUBSCRIPTION,
        ("ALTER", "SUB") => MQCMD_CHANGE_SUBSCRIPTION,
        ("DELETE", "SUB") => MQCMD_DELETE_SUBSCRIPTION,
        ("DISPLAY", "SUB") => MQCMD_INQUIRE_SUBSCRIPTION,
        ("DISPLAY", "SBSTATUS") => MQCMD_INQUIRE_SUB_STATUS,
        ("DISPLAY", "TPSTATUS") => MQCMD_INQUIRE_TOPIC_STATUS,
        ("DISPLAY", "PUBSUB") => MQCMD_INQUIRE_PUBSUB_STATUS,
        ("DEFINE", "BUFFPOOL") => MQCMD_CREATE_BUFFER_POOL,
        ("ALTER", "BUFFPOOL") => MQCMD_CHANGE_BUFFER_POOL,
        ("DELETE", "BUFFPOOL") => MQCMD_DELETE_BUFFER_POOL,
        ("DEFINE", "PSID") => MQCMD_CREATE_PAGE_SET,
        ("ALTER", "PSID") => MQCMD_CHANGE_PAGE_SET,
        ("DELETE", "PSID") => MQCMD_DELETE_PAGE_SET,
        ("DISPLAY", "USAGE") => MQCMD_INQUIRE_USAGE,
        ("DISPLAY", "LOG") => MQCMD_INQUIRE_LOG,
        ("DISPLAY", "SYSTEM") => MQCMD_INQUIRE_SYSTEM,
        ("SET", "SYSTEM") => MQCMD_SET_SYSTEM,
        ("RESET", "QMGR") => MQCMD_RESET_Q_MGR,
        ("ARCHIVE", "LOG") => MQCMD_ARCHIVE_LOG,
        ("DISPLAY", "CONN") => MQCMD_INQUIRE_CONNECTION,
        ("REFRESH", "SECURITY") => MQCMD_REFRESH_SECURITY,
        ("SET", "CHLAUTH") => MQCMD_SET_CHLAUTH_REC,
        ("DISPLAY", "CHLAUTH") => MQCMD_INQUIRE_CHLAUTH_RECS,
        ("SET", "AUTHREC") => MQCMD_SET_AUTH_REC,
        ("DELETE", "AUTHREC") => MQCMD_DELETE_AUTH_REC,
        ("DISPLAY", "AUTHREC") => MQCMD_INQUIRE_AUTH_RECS,
        ("DISPLAY", "ENTAUTH") => MQCMD_INQUIRE_ENTITY_AUTH,
        _ => MQCMD_NONE,
    }
}

/// Put the command event for `report` when CMDEV asks for one. `command_events_before` is
/// CMDEV before the command ran (an ALTER QMGR that switched it off is still reported).
/// Returns whether an event was put.
pub(crate) fn report_command(
    context: &Context,
    report: &CommandReport,
    command_events_before: &str,
) -> bool {
    let queue_manager = context.queue_manager;
    let now = queue_manager.queue_manager_attributes().command_events;
    if !command_events_wanted(&now, report.inquiry)
        && !command_events_wanted(command_events_before, report.inquiry)
    {
        return false;
    }
    let mut origin = context.origin.parameters(&context.name);
    origin.push(Parameter::integer(MQIACF_COMMAND, report.command));
    let parameters = vec![
        Parameter::Group {
            parameter: MQGACF_COMMAND_CONTEXT,
            parameters: origin,
        },
        Parameter::Group {
            parameter: MQGACF_COMMAND_DATA,
            parameters: report.data.clone(),
        },
    ];
    let message = event_message(
        MQCFH_VERSION_3,
        MQCMD_COMMAND_EVENT,
        report.reason,
        (1, MQCFC_LAST),
        parameters,
    );
    put_event(queue_manager, COMMAND_EVENT_QUEUE, &message, Correl::None).is_some()
}

// ----- configuration events ---------------------------------------------------------------------

/// The object a configuration-changing command names, watched across the command.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// A queue of any type (queues share one name space; DELETE QUEUE ... finds its type).
    Queue(String),
    /// An object of one type.
    Object(ObjectType, String),
    /// The queue manager object (ALTER QMGR).
    QueueManager,
}

/// An object's state as a configuration event reports it.
#[derive(Clone, Debug)]
enum ObjectState {
    /// An object's definition and its CRDATE ... ALTTIME.
    Object(ObjectDefinition, ObjectTimes),
    QueueManager(QueueManagerAttributes),
}

impl ObjectState {
    fn read(queue_manager: &QueueManager, target: &Target) -> Option<ObjectState> {
        match target {
            Target::Queue(name) => {
                let object_type = queue_manager.queue_object_type(name)?;
                ObjectState::of(queue_manager, queue_manager.object(object_type, name)?)
            }
            Target::Object(object_type, name) => {
                ObjectState::of(queue_manager, queue_manager.object(*object_type, name)?)
            }
            Target::QueueManager => Some(ObjectState::QueueManager(
                queue_manager.queue_manager_attributes(),
            )),
        }
    }

    /// An object's state with its times as the queue manager has them now.
    fn of(queue_manager: &QueueManager, definition: ObjectDefinition) -> Option<ObjectState> {
        let times = queue_manager
            .object_times(definition.object_type(), definition.name())
            .unwrap_or_default();
        Some(ObjectState::Object(definition, times))
    }

    /// Whether MQ reports this object's changes at all (module documentation); `refresh`
    /// for a REFRESH QMGR, which also reports the configuration event queue.
    fn reported(&self, refresh: bool) -> bool {
        match self {
            ObjectState::Object(ObjectDefinition::Local(queue), _) => {
                queue.definition_type != DefinitionType::TemporaryDynamic
                    && (refresh || queue.name != CONFIG_EVENT_QUEUE)
            }
            ObjectState::Object(ObjectDefinition::ChannelAuthentication(_), _) => false,
            _ => true,
        }
    }

    /// ObjectType, ObjectName, Disposition and the attributes.
    fn parameters(&self, queue_manager: &str) -> Vec<Parameter> {
        match self {
            ObjectState::Object(definition, times) => {
                crate::pcf_attributes::object_event_parameters(queue_manager, definition, *times)
            }
            ObjectState::QueueManager(attributes) => {
                crate::pcf_attributes::queue_manager_event_parameters(queue_manager, attributes)
            }
        }
    }
}

/// A configuration-changing command's target and its state before the command: after the
/// command succeeds, [`ConfigWatch::finish`] compares and reports.
pub(crate) struct ConfigWatch {
    target: Option<Target>,
    before: Option<ObjectState>,
    /// CONFIGEV before the command (ALTER QMGR may switch it).
    enabled_before: bool,
}

impl ConfigWatch {
    /// Nothing to watch (the command changes no object).
    pub(crate) fn none() -> ConfigWatch {
        ConfigWatch {
            target: None,
            before: None,
            enabled_before: false,
        }
    }

    /// Read `target`'s state before the command runs.
    pub(crate) fn begin(context: &Context, target: Target) -> ConfigWatch {
        let queue_manager = context.queue_manager;
        let enabled_before = queue_manager.queue_manager_attributes().config_events;
        let before = enabled_before
            .then(|| ObjectState::read(queue_manager, &target))
            .flatten();
        // ALTER QMGR is read whatever CONFIGEV is: it may switch it on.
        let before = match (&target, before) {
            (Target::QueueManager, None) => ObjectState::read(queue_manager, &target),
            (_, before) => before,
        };
        ConfigWatch {
            target: Some(target),
            before,
            enabled_before,
        }
    }

    /// The command succeeded: put the configuration events its change calls for. Returns the
    /// number of event messages put.
    pub(crate) fn finish(self, context: &Context) -> usize {
        let Some(target) = self.target else {
            return 0;
        };
        let queue_manager = context.queue_manager;
        let enabled_after = queue_manager.queue_manager_attributes().config_events;
        let queue_manager_target = matches!(target, Target::QueueManager);
        // ALTER QMGR is reported unless CONFIGEV was DISABLED and stays so; any other object
        // only when CONFIGEV was ENABLED before (its state was read) and still is.
        let reported = if queue_manager_target {
            self.enabled_before || enabled_after
        } else {
            self.enabled_before && enabled_after
        };
        if !reported {
            return 0;
        }
        let after = ObjectState::read(queue_manager, &target);
        let mut put = report_change(context, self.before, after);
        if queue_manager_target && !self.enabled_before && enabled_after {
            // MQ generates a Refresh Queue Manager (TYPE(CONFIGEV)) itself.
            let internal = Context {
                queue_manager: context.queue_manager,
                name: context.name.clone(),
                initiator: context.initiator,
                origin: &CommandOrigin::internal(&context.origin.user_id),
            };
            put += refresh(&internal, &RefreshSelection::default());
        }
        put
    }
}

/// Put the Create, Change or Delete object event(s) for an object's states before and after a
/// change (`None`: it did not exist). Returns the number of event messages put.
fn report_change(
    context: &Context,
    before: Option<ObjectState>,
    after: Option<ObjectState>,
) -> usize {
    match (before, after) {
        (None, Some(after)) if after.reported(false) => {
            usize::from(config_event(context, MQRC_CONFIG_CREATE_OBJECT, &after))
        }
        (Some(before), Some(after)) if after.reported(false) => {
            change_events(context, &before, &after)
        }
        (Some(before), None) if before.reported(false) => {
            usize::from(config_event(context, MQRC_CONFIG_DELETE_OBJECT, &before))
        }
        _ => 0,
    }
}

/// Install, once per queue manager, the observer that turns object changes made by MQI calls
/// into configuration events: MQSET's Change object (EventOrigin MQEVO_MQSET) and the Delete
/// object of an MQCLOSE that deletes a permanent dynamic queue (MQEVO_OTHER), for the
/// connection's user, when CONFIGEV is ENABLED.
pub(crate) fn install_configuration_observer(queue_manager: &QueueManager) {
    if queue_manager.configuration_observer().is_some() {
        return;
    }
    queue_manager.set_configuration_observer(Arc::new(
        |queue_manager: &Arc<QueueManager>, change: &ConfigurationChange| {
            if !queue_manager.queue_manager_attributes().config_events {
                return;
            }
            let origin = CommandOrigin {
                origin: change.origin,
                user_id: change.user_id.trim_end().to_string(),
                message: None,
            };
            let context = Context {
                queue_manager,
                name: queue_manager.name().to_string(),
                initiator: None,
                origin: &origin,
            };
            report_change(
                &context,
                Some(ObjectState::Object(
                    change.before.clone(),
                    change.before_times,
                )),
                change
                    .after
                    .clone()
                    .and_then(|after| ObjectState::of(queue_manager, after)),
            );
        },
    ));
}

/// The objects a REFRESH QMGR TYPE(CONFIGEV) reports.
#[derive(Clone, Debug)]
pub(crate) struct RefreshSelection {
    /// Object types (every type for OBJECT(ALL)); the queue manager itself with
    /// `queue_manager`.
    pub(crate) types: Vec<ObjectType>,
    pub(crate) queue_manager: bool,
    /// A generic name (`*` for all).
    pub(crate) name: String,
    /// INCLINT in minutes: only objects altered within that many minutes before now (0:
    /// every object). An object whose alteration time was never recorded (an image from an
    /// older build) is included: a refresh errs on reporting too much, never too little.
    pub(crate) include_interval_minutes: u32,
}

#[cfg(test)]
mod include_interval_tests {
    use super::*;

    #[test]
    fn inclint_selects_by_alteration_time() {
        let selection = |minutes| RefreshSelection {
            include_interval_minutes: minutes,
            ..RefreshSelection::default()
        };
        let now = 1_000 * 60_000;
        let altered = |minutes_ago: u64| ObjectTimes {
            created_ms: 1,
            altered_ms: now - minutes_ago * 60_000,
        };
        assert!(
            selection(0).altered_recently(altered(900), now),
            "0: every object"
        );
        assert!(
            selection(10).altered_recently(altered(10), now),
            "the boundary"
        );
        assert!(!selection(10).altered_recently(altered(11), now));
        assert!(
            selection(10).altered_recently(ObjectTimes::default(), now),
            "never recorded: included"
        );
        assert!(
            selection(10).altered_recently(
                ObjectTimes {
                    created_ms: 0,
                    altered_ms: now + 5
                },
                now
            ),
            "a clock that went back"
        );
    }
}

/// The largest INCLINT (minutes), MQ's range.
pub(crate) const INCLUDE_INTERVAL_MINUTES_MAX: u32 = 999_999;

impl RefreshSelection {
    /// Whether an object last altered at `times` passes INCLINT at `now_ms`.
    fn altered_recently(&self, times: ObjectTimes, now_ms: u64) -> bool {
        let interval_ms = u64::from(self.include_interval_minutes) * 60_000;
        self.include_interval_minutes == 0
            || times.altered_ms == 0
            || now_ms.saturating_sub(times.altered_ms) <= interval_ms
    }
}

impl Default for RefreshSelection {
    fn default() -> RefreshSelection {
        RefreshSelection {
            types: REFRESHED_TYPES.to_vec(),
            queue_manager: true,
            name: "*".to_string(),
            include_interval_minutes: 0,
        }
    }
}

/// The object types a refresh reports (OBJECT(ALL)), in MQ's order of object types.
pub(crate) const REFRESHED_TYPES: [ObjectType; 10] = [
    ObjectType::LocalQueue,
    ObjectType::ModelQueue,
    ObjectType::AliasQueue,
    ObjectType::RemoteQueue,
    ObjectType::Namelist,
    ObjectType::Process,
    ObjectType::StorageClass,
    ObjectType::Channel,
    ObjectType::AuthInfo,
    ObjectType::Topic,
];

/// Put one Refresh object event for every object `selection` names (configuration events
/// must be enabled: the caller checks). Returns the number put.
pub(crate) fn refresh(context: &Context, selection: &RefreshSelection) -> usize {
    let queue_manager = context.queue_manager;
    let now = now_ms();
    let mut put = 0;
    for object_type in &selection.types {
        let mut objects = queue_manager.objects(*object_type);
        objects.sort_by(|a, b| a.name().cmp(b.name()));
        for definition in objects {
            if !crate::attributes::generic_match(&selection.name, definition.name()) {
                continue;
            }
            let Some(state) = ObjectState::of(queue_manager, definition) else {
                continue;
            };
            let ObjectState::Object(_, times) = &state else {
                unreachable!("an object's state")
            };
            if !selection.altered_recently(*times, now) {
                continue;
            }
            if state.reported(true) {
                put += usize::from(config_event(context, MQRC_CONFIG_REFRESH_OBJECT, &state));
            }
        }
    }
    let queue_manager_times = queue_manager
        .object_times(ObjectType::QueueManager, queue_manager.name())
        .unwrap_or_default();
    if selection.queue_manager
        && crate::attributes::generic_match(&selection.name, queue_manager.name())
        && selection.altered_recently(queue_manager_times, now)
    {
        let state = ObjectState::QueueManager(queue_manager.queue_manager_attributes());
        put += usize::from(config_event(context, MQRC_CONFIG_REFRESH_OBJECT, &state));
    }
    put
}

/// Put one configuration event (Create, Delete or Refresh object).
fn config_event(context: &Context, reason: i32, state: &ObjectState) -> bool {
    let message = config_message(context, reason, state, (1, MQCFC_LAST));
    put_event(
        context.queue_manager,
        CONFIG_EVENT_QUEUE,
        &message,
        Correl::None,
    )
    .is_some()
}

/// Put the two messages of a Change object event, before then after, with one CorrelId (the
/// first message's MsgId).
fn change_events(context: &Context, before: &ObjectState, after: &ObjectState) -> usize {
    let first = config_message(
        context,
        MQRC_CONFIG_CHANGE_OBJECT,
        before,
        (1, MQCFC_NOT_LAST),
    );
    let second = config_message(context, MQRC_CONFIG_CHANGE_OBJECT, after, (2, MQCFC_LAST));
    let queue_manager = context.queue_manager;
    let Some(correl_id) = put_event(queue_manager, CONFIG_EVENT_QUEUE, &first, Correl::OwnMsgId)
    else {
        return 0;
    };
    let second = put_event(
        queue_manager,
        CONFIG_EVENT_QUEUE,
        &second,
        Correl::Given(correl_id),
    );
    1 + usize::from(second.is_some())
}

fn config_message(
    context: &Context,
    reason: i32,
    state: &ObjectState,
    sequence: (i32, i32),
) -> PcfMessage {
    let mut parameters = context.origin.parameters(&context.name);
    parameters.extend(state.parameters(&context.name));
    event_message(
        MQCFH_VERSION_2,
        MQCMD_CONFIG_EVENT,
        reason,
        sequence,
        parameters,
    )
}

// ----- the event message --------------------------------------------------------------------------

fn event_message(
    version: i32,
    command: i32,
    reason: i32,
    (msg_seq_number, control): (i32, i32),
    parameters: Vec<Parameter>,
) -> PcfMessage {
    PcfMessage {
        header: PcfHeader {
            kind: MQCFT_EVENT,
            version,
            command,
            msg_seq_number,
            control,
            comp_code: MQCC_WARNING,
            reason,
            parameter_count: parameters.len() as i32,
        },
        parameters,
    }
}

/// An event message's CorrelId.
#[derive(Clone, Copy)]
enum Correl {
    /// MQCI_NONE.
    None,
    /// The message's own MsgId (the first of a pair).
    OwnMsgId,
    /// The CorrelId of the message before it (the second of a pair).
    Given([u8; 24]),
}

/// Put `message` on the event queue `queue_name` as the queue manager (MQMD in the module
/// documentation); returns its CorrelId, `None` when there is no such queue or the put fails
/// (the event is lost, as in MQ).
fn put_event(
    queue_manager: &QueueManager,
    queue_name: &str,
    message: &PcfMessage,
    correl: Correl,
) -> Option<[u8; 24]> {
    let queue = queue_manager.queue(queue_name)?;
    let data = encode(message, ByteOrder::of_encoding(MQENC_NATIVE));
    let now = now_ms();
    let mut md = queue_manager_descriptor(queue_manager, &queue, MQFMT_EVENT, now);
    md.persistence = if queue.with_definition(|definition| definition.default_persistent) {
        MQPER_PERSISTENT
    } else {
        MQPER_NOT_PERSISTENT
    };
    match correl {
        Correl::None => {}
        Correl::OwnMsgId => md.correl_id = md.msg_id,
        Correl::Given(correl_id) => md.correl_id = correl_id,
    }
    let engine = descriptor::to_engine(&md, now);
    put_message(queue_manager, None, &queue, &engine, &data)
        .ok()
        .map(|_| md.correl_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodisplay_reports_all_but_inquiries() {
        assert!(command_events_wanted("ENABLED", true));
        assert!(command_events_wanted("ENABLED", false));
        assert!(command_events_wanted("NODISPLAY", false));
        assert!(!command_events_wanted("NODISPLAY", true));
        assert!(!command_events_wanted("DISABLED", false));
    }

    #[test]
    fn fixed_fields_are_cut_and_padded() {
        let Parameter::String { value, .. } =
            fixed(MQCACF_EVENT_USER_ID, "averyveryverylongname", 12)
        else {
            panic!("a string");
        };
        assert_eq!(value, "averyveryver");
        let Parameter::String { value, .. } = fixed(MQCACF_EVENT_APPL_ORIGIN, "ab", 4) else {
            panic!("a string");
        };
        assert_eq!(value, "ab  ");
    }

    #[test]
    fn mqsc_verbs_map_to_their_pcf_commands() {
        assert_eq!(mqsc_command_code("ALTER", "QLOCAL"), MQCMD_CHANGE_Q);
        assert_eq!(mqsc_command_code("DEFINE", "QMODEL"), MQCMD_CREATE_Q);
        assert_eq!(mqsc_command_code("ALTER", "QMGR"), MQCMD_CHANGE_Q_MGR);
        assert_eq!(
            mqsc_command_code("DISPLAY", "CHANNEL"),
            MQCMD_INQUIRE_CHANNEL
        );
        assert_eq!(mqsc_command_code("PING", "QMGR"), MQCMD_NONE);
        assert!(is_inquiry(MQCMD_INQUIRE_Q));
        assert!(!is_inquiry(MQCMD_CHANGE_Q));
    }
}
