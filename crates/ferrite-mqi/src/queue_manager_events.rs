//! Queue manager events: inhibit events (QMGR INHIBTEV), local events (QMGR LOCALEV) and
//! authority events (QMGR AUTHOREV), put on SYSTEM.ADMIN.QMGR.EVENT when an MQI call or a
//! command fails for one of their reasons, as IBM MQ documents them ("Get Inhibited", "Put
//! Inhibited", "Unknown Object Name", "Unknown Alias Base Queue", "Alias Base Queue Type
//! Error", "Not Authorized"). The three switches are DISABLED by default. And the start event
//! (QMGR STRSTPEV, ENABLED by default): Queue Manager Active (MQRC_Q_MGR_ACTIVE, 2222) each
//! time `ferrite start` brings the queue manager up, as MQ for z/OS generates it on every start
//! but the first (Ferrite's first start is `ferrite create`'s); its only parameter is QMgrName
//! (ReasonQualifier and HostName are for multi-instance platforms, not z/OS). z/OS has no Queue
//! Manager Not Active event.
//!
//! | event | reason | raised by | switch |
//! |---|---|---|---|
//! | Get Inhibited | MQRC_GET_INHIBITED (2016) | MQGET (browse included) on a queue, or an alias, with GET(DISABLED) | INHIBTEV |
//! | Put Inhibited | MQRC_PUT_INHIBITED (2051) | MQPUT, MQPUT1 on a queue, or an alias, with PUT(DISABLED) | INHIBTEV |
//! | Unknown Object Name | MQRC_UNKNOWN_OBJECT_NAME (2085) | MQOPEN, MQPUT1 of an object that does not exist | LOCALEV |
//! | Unknown Alias Base Queue | MQRC_UNKNOWN_ALIAS_BASE_Q (2082) | MQOPEN, MQPUT1 of an alias whose TARGET does not exist | LOCALEV |
//! | Alias Base Queue Type Error | MQRC_ALIAS_BASE_Q_TYPE_ERROR (2001) | MQOPEN, MQPUT1 of an alias whose TARGET is a model or alias queue | LOCALEV |
//! | Not Authorized (type 1) | MQRC_NOT_AUTHORIZED (2035), MQRQ_CONN_NOT_AUTHORIZED | MQCONN without connect authority | AUTHOREV |
//! | Not Authorized (type 2) | MQRC_NOT_AUTHORIZED (2035), MQRQ_OPEN_NOT_AUTHORIZED | MQOPEN, MQPUT1 without an authority its options need | AUTHOREV |
//! | Not Authorized (type 3) | MQRC_NOT_AUTHORIZED (2035), MQRQ_CLOSE_NOT_AUTHORIZED | MQCLOSE deleting a permanent dynamic queue without dlt | AUTHOREV |
//! | Not Authorized (type 4) | MQRC_NOT_AUTHORIZED (2035), MQRQ_CMD_NOT_AUTHORIZED | an MQSC or PCF command refused for its user | AUTHOREV |
//! | Not Authorized (type 5) | MQRC_NOT_AUTHORIZED (2035), MQRQ_SUB_NOT_AUTHORIZED | MQSUB without sub (resume to resume) on its topic | AUTHOREV |
//!
//! The event never changes the call's outcome; one that cannot be put (the event queue not
//! defined, full, put-inhibited) is lost, as in MQ.
//!
//! ## The message
//! MQMD: MsgType MQMT_DATAGRAM, Format MQFMT_EVENT, PutApplType MQAT_QMGR, PutApplName the
//! queue manager's name, Priority and Persistence the event queue's defaults. Data: MQCFH
//! Version 1, Command MQCMD_Q_MGR_EVENT (44), CompCode MQCC_WARNING, Reason the call's
//! (`event_writer.rs` has the structures), then, in IBM's listing order:
//!
//! | parameter | id | type | in |
//! |---|---|---|---|
//! | QMgrName | MQCA_Q_MGR_NAME 2015 | MQCFST 48 | all |
//! | QName | MQCA_Q_NAME 2016 | MQCFST 48 | inhibit events, the alias events (the name the application used: an alias, not its base); for Unknown Object Name after ApplName, when the object is a queue |
//! | ProcessName | MQCA_PROCESS_NAME 2012 | MQCFST 48 | Unknown Object Name of a process (no name parameter for a namelist: IBM documents none) |
//! | BaseObjectName | MQCA_BASE_OBJECT_NAME 2002 | MQCFST 48 | the alias events: the alias's TARGET |
//! | QType | MQIA_Q_TYPE 20 | MQCFIN | Alias Base Queue Type Error: the TARGET's type (MQQT_MODEL or MQQT_ALIAS) |
//! | ApplType | MQIA_APPL_TYPE 1 | MQCFIN | all: the connection's |
//! | ApplName | MQCACF_APPL_NAME 3024 | MQCFST 28 | all: the connection's |
//! | BaseType | MQIA_BASE_TYPE 193 | MQCFIN | Unknown Alias Base Queue: MQOT_Q |
//! | ConnName | MQCACH_CONNECTION_NAME 3506 | MQCFST 264 | all, for a client connection only |
//! | ChannelName | MQCACH_CHANNEL_NAME 3501 | MQCFST 20 | all, for a client connection only |
//!
//! The Not Authorized events have their own parameters, in IBM's order: QMgrName, ReasonQualifier
//! (MQIACF_REASON_QUALIFIER 1020), then for type 1 UserIdentifier (MQCACF_USER_IDENTIFIER 3025,
//! MQCFST 12), ApplType, ApplName; for type 2 Options (MQIACF_OPEN_OPTIONS 1022), UserIdentifier
//! (the alternate user with MQOO_ALTERNATE_USER_AUTHORITY), ApplType, ApplName and the object's
//! name (QName, ProcessName or NamelistName; none for the queue manager); for type 4 Command
//! (MQIACF_COMMAND 1021: the PCF command, or for MQSC the PCF command of the same verb and
//! object) and UserIdentifier.
//!
//! ObjectQMgrName never applies here: a queue of another queue manager resolves to a
//! transmission queue or fails with a distributed queuing reason (name_resolution.rs; MQ's
//! Unknown Remote Queue Manager and transmission queue events are not raised yet). Topics
//! appear only in the Not Authorized events (TopicString).

use ferrite_constants::{
    encoding::MQENC_NATIVE,
    format::MQFMT_EVENT,
    lengths::{
        MQ_APPL_NAME_LENGTH, MQ_CHANNEL_NAME_LENGTH, MQ_CONN_NAME_LENGTH, MQ_Q_MGR_NAME_LENGTH,
        MQ_Q_NAME_LENGTH, MQ_USER_ID_LENGTH,
    },
    misc::{
        MQRQ_CLOSE_NOT_AUTHORIZED, MQRQ_CMD_NOT_AUTHORIZED, MQRQ_CONN_NOT_AUTHORIZED,
        MQRQ_OPEN_NOT_AUTHORIZED, MQRQ_SUB_NOT_AUTHORIZED,
    },
    object_type::{MQOT_NAMELIST, MQOT_PROCESS, MQOT_Q, MQOT_TOPIC},
    pcf::{MQCFH_VERSION_1, MQCMD_Q_MGR_EVENT},
    pcf_selector::{
        MQCACF_APPL_NAME, MQCACF_USER_IDENTIFIER, MQCACH_CHANNEL_NAME, MQCACH_CONNECTION_NAME,
        MQIACF_CLOSE_OPTIONS, MQIACF_COMMAND, MQIACF_OPEN_OPTIONS, MQIACF_REASON_QUALIFIER,
        MQIACF_SUB_OPTIONS,
    },
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT},
    queue_type::{MQQT_ALIAS, MQQT_LOCAL, MQQT_MODEL, MQQT_REMOTE},
    reason::{
        MQRC_ALIAS_BASE_Q_TYPE_ERROR, MQRC_GET_INHIBITED, MQRC_NOT_AUTHORIZED, MQRC_PUT_INHIBITED,
        MQRC_Q_MGR_ACTIVE, MQRC_UNKNOWN_ALIAS_BASE_Q, MQRC_UNKNOWN_OBJECT_NAME,
    },
    selector::{
        MQCA_BASE_OBJECT_NAME, MQCA_NAMELIST_NAME, MQCA_PROCESS_NAME, MQCA_Q_MGR_NAME, MQCA_Q_NAME,
        MQCA_TOPIC_STRING, MQIA_APPL_TYPE, MQIA_BASE_TYPE, MQIA_Q_TYPE,
    },
};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::{now_ms, ConnectionRecord, ObjectDefinition, ObjectType, QueueManager};

use crate::event_writer::EventWriter;
use crate::queue_manager_put::{put_message, queue_manager_descriptor};

/// The queue queue manager events go to.
pub const QUEUE_MANAGER_EVENT_QUEUE: &str = "SYSTEM.ADMIN.QMGR.EVENT";

/// An MQPUT, MQPUT1 or MQGET of the queue the application named `queue_name` (the alias, if it
/// opened one) failed with `reason`: a Put or Get Inhibited event, when the reason is one and
/// INHIBTEV is ENABLED. Returns whether an event was put.
pub fn call_failed(
    queue_manager: &QueueManager,
    record: &ConnectionRecord,
    queue_name: &str,
    reason: i32,
) -> bool {
    if !matches!(reason, MQRC_PUT_INHIBITED | MQRC_GET_INHIBITED)
        || !queue_manager.queue_manager_attributes().inhibit_events
    {
        return false;
    }
    let mut event = writer(reason);
    event
        .string(MQCA_Q_MGR_NAME, queue_manager.name(), MQ_Q_MGR_NAME_LENGTH)
        .string(MQCA_Q_NAME, queue_name, MQ_Q_NAME_LENGTH);
    application(&mut event, record);
    client(&mut event, record);
    put_event(queue_manager, event.finish())
}

/// An MQOPEN (or the open of an MQPUT1) of `object_name`, an object of MQ type `object_type`
/// (MQOT_*), failed with `reason`: a local event, when the reason is one and LOCALEV is
/// ENABLED. Returns whether an event was put.
pub fn open_failed(
    queue_manager: &QueueManager,
    record: &ConnectionRecord,
    object_type: i32,
    object_name: &str,
    reason: i32,
) -> bool {
    if !matches!(
        reason,
        MQRC_UNKNOWN_OBJECT_NAME | MQRC_UNKNOWN_ALIAS_BASE_Q | MQRC_ALIAS_BASE_Q_TYPE_ERROR
    ) || !queue_manager.queue_manager_attributes().local_events
    {
        return false;
    }
    let mut event = writer(reason);
    event.string(MQCA_Q_MGR_NAME, queue_manager.name(), MQ_Q_MGR_NAME_LENGTH);
    if reason == MQRC_UNKNOWN_OBJECT_NAME {
        application(&mut event, record);
        match object_type {
            MQOT_Q => {
                event.string(MQCA_Q_NAME, object_name, MQ_Q_NAME_LENGTH);
            }
            MQOT_PROCESS => {
                event.string(MQCA_PROCESS_NAME, object_name, MQ_Q_NAME_LENGTH);
            }
            _ => {}
        }
    } else {
        // The alias events: the alias and its TARGET as they are now.
        let target = match queue_manager.object(ObjectType::AliasQueue, object_name) {
            Some(ObjectDefinition::Alias(alias)) => alias.target,
            _ => String::new(),
        };
        event
            .string(MQCA_Q_NAME, object_name, MQ_Q_NAME_LENGTH)
            .string(MQCA_BASE_OBJECT_NAME, &target, MQ_Q_NAME_LENGTH);
        if reason == MQRC_ALIAS_BASE_Q_TYPE_ERROR {
            let queue_type = match queue_manager.queue_object_type(&target) {
                Some(ObjectType::ModelQueue) => MQQT_MODEL,
                Some(ObjectType::AliasQueue) => MQQT_ALIAS,
                Some(ObjectType::RemoteQueue) => MQQT_REMOTE,
                _ => MQQT_LOCAL,
            };
            event.integer(MQIA_Q_TYPE, queue_type);
        }
        application(&mut event, record);
        if reason == MQRC_UNKNOWN_ALIAS_BASE_Q {
            event.integer(MQIA_BASE_TYPE, MQOT_Q);
        }
    }
    client(&mut event, record);
    put_event(queue_manager, event.finish())
}

/// Who an authority check refused, for a Not Authorized event.
pub struct Refused<'a> {
    pub user_identifier: &'a str,
    pub appl_type: i32,
    pub appl_name: &'a str,
}

/// MQCONN refused `refused` (no connect authority): a Not Authorized event (type 1) when
/// AUTHOREV is ENABLED. Returns whether an event was put.
pub fn connect_not_authorized(queue_manager: &QueueManager, refused: &Refused<'_>) -> bool {
    let Some(mut event) = not_authorized(queue_manager, MQRQ_CONN_NOT_AUTHORIZED) else {
        return false;
    };
    refused_application(&mut event, refused);
    put_event(queue_manager, event.finish())
}

/// MQOPEN (or MQPUT1's open) with `options` of the object `name` of MQ type `object_type`
/// (MQOT_*) refused `refused`: a Not Authorized event (type 2) when AUTHOREV is ENABLED.
/// Returns whether an event was put.
pub fn open_not_authorized(
    queue_manager: &QueueManager,
    refused: &Refused<'_>,
    options: i32,
    object_type: i32,
    name: &str,
) -> bool {
    let Some(mut event) = not_authorized(queue_manager, MQRQ_OPEN_NOT_AUTHORIZED) else {
        return false;
    };
    event.integer(MQIACF_OPEN_OPTIONS, options);
    refused_application(&mut event, refused);
    match object_type {
        MQOT_Q => event.string(MQCA_Q_NAME, name, MQ_Q_NAME_LENGTH),
        MQOT_PROCESS => event.string(MQCA_PROCESS_NAME, name, MQ_Q_NAME_LENGTH),
        MQOT_NAMELIST => event.string(MQCA_NAMELIST_NAME, name, MQ_Q_NAME_LENGTH),
        MQOT_TOPIC => event.string(MQCA_TOPIC_STRING, name, topic_length(name)),
        _ => &mut event,
    };
    put_event(queue_manager, event.finish())
}

/// MQCLOSE with `options` (MQCO_DELETE or MQCO_DELETE_PURGE) of the permanent dynamic queue
/// `queue_name` refused `refused`: a Not Authorized event (type 3, MQRQ_CLOSE_NOT_AUTHORIZED)
/// when AUTHOREV is ENABLED. Returns whether an event was put.
pub fn close_not_authorized(
    queue_manager: &QueueManager,
    refused: &Refused<'_>,
    options: i32,
    queue_name: &str,
) -> bool {
    let Some(mut event) = not_authorized(queue_manager, MQRQ_CLOSE_NOT_AUTHORIZED) else {
        return false;
    };
    event.integer(MQIACF_CLOSE_OPTIONS, options);
    refused_application(&mut event, refused);
    event.string(MQCA_Q_NAME, queue_name, MQ_Q_NAME_LENGTH);
    put_event(queue_manager, event.finish())
}

/// MQSUB with `options` (MQSO_*) of the topic string `topic_string` refused `refused`: a Not
/// Authorized event (MQRQ_SUB_NOT_AUTHORIZED) when AUTHOREV is ENABLED. Returns whether an
/// event was put.
pub fn subscribe_not_authorized(
    queue_manager: &QueueManager,
    refused: &Refused<'_>,
    options: i32,
    topic_string: &str,
) -> bool {
    let Some(mut event) = not_authorized(queue_manager, MQRQ_SUB_NOT_AUTHORIZED) else {
        return false;
    };
    event.integer(MQIACF_SUB_OPTIONS, options);
    refused_application(&mut event, refused);
    event.string(MQCA_TOPIC_STRING, topic_string, topic_length(topic_string));
    put_event(queue_manager, event.finish())
}

/// A topic string's MQCFST field length: the string, blank-padded to a multiple of 4 (topic
/// strings have no fixed field length; MQCFST's are multiples of 4).
fn topic_length(topic_string: &str) -> i32 {
    let padded = topic_string.len().div_ceil(4) * 4;
    i32::try_from(padded).expect("a topic string fits an MQCFST")
}

/// The command `command` (MQCMD_*) was refused for `user_identifier`: a Not Authorized event
/// (type 4) when AUTHOREV is ENABLED. Returns whether an event was put.
pub fn command_not_authorized(
    queue_manager: &QueueManager,
    command: i32,
    user_identifier: &str,
) -> bool {
    let Some(mut event) = not_authorized(queue_manager, MQRQ_CMD_NOT_AUTHORIZED) else {
        return false;
    };
    event.integer(MQIACF_COMMAND, command).string(
        MQCACF_USER_IDENTIFIER,
        user_identifier,
        MQ_USER_ID_LENGTH,
    );
    put_event(queue_manager, event.finish())
}

/// A Not Authorized event's first parameters, or `None` while AUTHOREV is DISABLED.
fn not_authorized(queue_manager: &QueueManager, qualifier: i32) -> Option<EventWriter> {
    if !queue_manager.queue_manager_attributes().authority_events {
        return None;
    }
    let mut event = writer(MQRC_NOT_AUTHORIZED);
    event
        .string(MQCA_Q_MGR_NAME, queue_manager.name(), MQ_Q_MGR_NAME_LENGTH)
        .integer(MQIACF_REASON_QUALIFIER, qualifier);
    Some(event)
}

/// UserIdentifier, ApplType and ApplName of a refused connection.
fn refused_application(event: &mut EventWriter, refused: &Refused<'_>) {
    event
        .string(
            MQCACF_USER_IDENTIFIER,
            refused.user_identifier,
            MQ_USER_ID_LENGTH,
        )
        .integer(MQIA_APPL_TYPE, refused.appl_type)
        .string(MQCACF_APPL_NAME, refused.appl_name, MQ_APPL_NAME_LENGTH);
}

/// The queue manager has started: a Queue Manager Active event when STRSTPEV is ENABLED.
/// Returns whether an event was put.
pub fn queue_manager_active(queue_manager: &QueueManager) -> bool {
    if !queue_manager.queue_manager_attributes().start_stop_events {
        return false;
    }
    let mut event = writer(MQRC_Q_MGR_ACTIVE);
    event.string(MQCA_Q_MGR_NAME, queue_manager.name(), MQ_Q_MGR_NAME_LENGTH);
    put_event(queue_manager, event.finish())
}

fn writer(reason: i32) -> EventWriter {
    let order = ByteOrder::from_mq_encoding(MQENC_NATIVE).expect("native integer encoding");
    EventWriter::new(MQCFH_VERSION_1, MQCMD_Q_MGR_EVENT, reason, order)
}

/// ApplType and ApplName of the connection.
fn application(event: &mut EventWriter, record: &ConnectionRecord) {
    event.integer(MQIA_APPL_TYPE, record.appl_type).string(
        MQCACF_APPL_NAME,
        &record.appl_tag,
        MQ_APPL_NAME_LENGTH,
    );
}

/// ConnName and ChannelName, for a client connection.
fn client(event: &mut EventWriter, record: &ConnectionRecord) {
    let channel = record.channel();
    if channel.is_empty() {
        return;
    }
    event
        .string(
            MQCACH_CONNECTION_NAME,
            &record.connection_name(),
            MQ_CONN_NAME_LENGTH,
        )
        .string(MQCACH_CHANNEL_NAME, &channel, MQ_CHANNEL_NAME_LENGTH);
}

/// Put `data` on SYSTEM.ADMIN.QMGR.EVENT as the queue manager, at the queue's default
/// priority and persistence, outside any unit of work; `false` if it could not be put.
fn put_event(queue_manager: &QueueManager, data: Vec<u8>) -> bool {
    let Some(queue) = queue_manager.queue(QUEUE_MANAGER_EVENT_QUEUE) else {
        return false;
    };
    let now = now_ms();
    let mut md = queue_manager_descriptor(queue_manager, &queue, MQFMT_EVENT, now);
    md.persistence = if queue.with_definition(|definition| definition.default_persistent) {
        MQPER_PERSISTENT
    } else {
        MQPER_NOT_PERSISTENT
    };
    let engine = crate::descriptor::to_engine(&md, now);
    put_message(queue_manager, None, &queue, &engine, &data).is_ok()
}
