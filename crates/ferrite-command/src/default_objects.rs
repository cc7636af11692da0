//! The objects every queue manager has, as MQ's supplied definitions (CSQ4INSG, CSQ4INYS and
//! the defaults of MQ for Multiplatforms) give them: applications, tools and IBM's clients look
//! for these names.
//!
//! [`define_default_objects`] defines each one that does not exist yet (an existing object,
//! whatever its attributes, is left alone: an operator may have altered it), through the
//! same MQSC commands an operator would type. `ferrite create` runs it once and `ferrite
//! start` runs it at every start, so queue managers created by older versions gain the
//! objects added since.
//!
//! MQ's default channel authentication records ([`DEFAULT_CHANNEL_AUTHENTICATION`]) are set
//! once, with the default objects of a new queue manager (the start that defines
//! SYSTEM.DEF.SVRCONN), as crtmqm sets them: an operator who removes one does not see it come
//! back, and queue managers created before they existed are left as they were (as MQ leaves a
//! migrated queue manager).

use std::sync::Arc;

use ferrite_queue_manager::objects::DEFAULT_CONNECTION_AUTH_INFO;
use ferrite_queue_manager::{ObjectType, QueueManager};

use crate::CommandOrigin;

/// Each default object: its type, its name, and the DEFINE command's attributes.
pub const DEFAULT_OBJECTS: &[(ObjectType, &str, &str)] = &[
    // Storage classes first: queues name them (CSQ4INYS's page sets).
    (
        ObjectType::StorageClass,
        "SYSTEM",
        "PSID(00) DESCR('System objects')",
    ),
    (
        ObjectType::StorageClass,
        "DEFAULT",
        "PSID(01) DESCR('Application queues')",
    ),
    (
        ObjectType::StorageClass,
        "NODEFINE",
        "PSID(01) DESCR('Queues defined without a class')",
    ),
    (
        ObjectType::StorageClass,
        "REMOTE",
        "PSID(03) DESCR('Transmission queues')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.DEFAULT.LOCAL.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Default local queue')",
    ),
    (
        ObjectType::ModelQueue,
        "SYSTEM.DEFAULT.MODEL.QUEUE",
        "DEFTYPE(TEMPDYN) DESCR('Default model queue')",
    ),
    (
        ObjectType::AliasQueue,
        "SYSTEM.DEFAULT.ALIAS.QUEUE",
        "TARGET(' ') DESCR('Default alias queue')",
    ),
    (
        ObjectType::RemoteQueue,
        "SYSTEM.DEFAULT.REMOTE.QUEUE",
        "DESCR('Default remote queue')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.DEAD.LETTER.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Dead-letter queue')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.DEFAULT.INITIATION.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Default initiation queue')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.PERFM.EVENT",
        "STGCLASS(SYSTEM) DESCR('Performance events')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.QMGR.EVENT",
        "STGCLASS(SYSTEM) DESCR('Queue manager events')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.CONFIG.EVENT",
        "STGCLASS(SYSTEM) DESCR('Configuration events')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.COMMAND.EVENT",
        "STGCLASS(SYSTEM) DESCR('Command events')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.CHANNEL.EVENT",
        "STGCLASS(SYSTEM) DESCR('Channel events')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.STATISTICS.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Statistics messages')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.ACCOUNTING.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Accounting messages')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.COMMAND.INPUT",
        "STGCLASS(SYSTEM) DESCR('Command server input')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.ADMIN.COMMAND.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Command server input (MQSC and PCF)')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.MQSC.REPLY.QUEUE",
        "STGCLASS(SYSTEM) DESCR('Replies to the MQSC console')",
    ),
    // Message channel agents' synchronization records (CSQ4INSX's queue; its records are
    // found by CorrelId: ferrite-server/src/message_channel/sync_queue.rs).
    (
        ObjectType::LocalQueue,
        "SYSTEM.CHANNEL.SYNCQ",
        "STGCLASS(SYSTEM) DEFPSIST(YES) MAXMSGL(104857600) INDXTYPE(CORRELID) DESCR('Channel synchronization data')",
    ),
    // The channel initiator's initiation queue (CSQ4INSX's): triggered transmission queues
    // name it (ferrite-server/src/message_channel/trigger.rs).
    (
        ObjectType::LocalQueue,
        "SYSTEM.CHANNEL.INITQ",
        "STGCLASS(SYSTEM) DESCR('Channel initiator initiation queue')",
    ),
    (
        ObjectType::ModelQueue,
        "SYSTEM.COMMAND.REPLY.MODEL",
        "DEFTYPE(TEMPDYN) STGCLASS(SYSTEM) DESCR('Command server replies')",
    ),
    (
        ObjectType::Process,
        "SYSTEM.DEFAULT.PROCESS",
        "DESCR('Default process')",
    ),
    (
        ObjectType::Namelist,
        "SYSTEM.DEFAULT.NAMELIST",
        "DESCR('Default namelist')",
    ),
    (
        ObjectType::Channel,
        "SYSTEM.DEF.SVRCONN",
        "CHLTYPE(SVRCONN) DESCR('Default server-connection channel')",
    ),
    (
        ObjectType::Channel,
        "SYSTEM.ADMIN.SVRCONN",
        "CHLTYPE(SVRCONN) DESCR('Administration channel')",
    ),
    (
        ObjectType::Channel,
        "DEV.APP.SVRCONN",
        "CHLTYPE(SVRCONN) DESCR('Application channel')",
    ),
    // Publish/subscribe: the root of the topic tree and DEFINE TOPIC's model, as MQ supplies
    // them, and the model queues of managed subscriptions' queues (objects/topic.rs).
    (
        ObjectType::Topic,
        "SYSTEM.BASE.TOPIC",
        "TOPICSTR('') DURSUB(YES) DEFPSIST(NO) DEFPRTY(0) DEFPRESP(SYNC) PUB(ENABLED) SUB(ENABLED) WILDCARD(PASSTHRU) MDURMDL(SYSTEM.DURABLE.MODEL.QUEUE) MNDURMDL(SYSTEM.NDURABLE.MODEL.QUEUE) PMSGDLV(ALLDUR) NPMSGDLV(ALLAVAIL) USEDLQ(YES) PROXYSUB(FIRSTUSE) PUBSCOPE(ALL) SUBSCOPE(ALL) DESCR('Base topic for attribute inheritance')",
    ),
    (
        ObjectType::Topic,
        "SYSTEM.DEFAULT.TOPIC",
        "TOPICSTR('') DESCR('Default topic')",
    ),
    (
        ObjectType::LocalQueue,
        "SYSTEM.RETAINED.PUB.QUEUE",
        "MAXDEPTH(999999999) INDXTYPE(CORRELID) DESCR('Retained publications')",
    ),
    (
        ObjectType::ModelQueue,
        "SYSTEM.DURABLE.MODEL.QUEUE",
        "DEFTYPE(PERMDYN) DEFSOPT(SHARED) SHARE DESCR('Managed durable subscriptions')",
    ),
    (
        ObjectType::ModelQueue,
        "SYSTEM.NDURABLE.MODEL.QUEUE",
        "DEFTYPE(TEMPDYN) DEFSOPT(SHARED) SHARE DESCR('Managed non-durable subscriptions')",
    ),
    // The AUTHINFO a new queue manager's CONNAUTH names, as MQ for Multiplatforms supplies it:
    // CHCKCLNT(REQDADM), a password of privileged client users (the mqm group and the queue
    // manager's owner, qm.toml [security]) and of no one else; CHCKLOCL(OPTIONAL);
    // ADOPTCTX(YES), an authenticated connection runs as its user.
    (
        ObjectType::AuthInfo,
        DEFAULT_CONNECTION_AUTH_INFO,
        "AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) CHCKLOCL(OPTIONAL) ADOPTCTX(YES) FAILDLAY(1) DESCR('Connection authentication (CONNAUTH)')",
    ),
];

/// MQ's default CHLAUTH records, as crtmqm sets them: the administration channel is open to
/// MQ Explorer, every other SYSTEM.* channel is refused, and privileged users are refused on
/// every channel (a channel's own BLOCKUSER record takes the place of `'*'`'s).
pub const DEFAULT_CHANNEL_AUTHENTICATION: &[&str] = &[
    "SET CHLAUTH('SYSTEM.ADMIN.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) DESCR('Default rule to allow MQ Explorer access') ACTION(ADD)",
    "SET CHLAUTH('SYSTEM.*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) DESCR('Default rule to disable all SYSTEM channels') ACTION(ADD)",
    "SET CHLAUTH('*') TYPE(BLOCKUSER) USERLIST('*MQADMIN') DESCR('Default rule to disallow privileged users') ACTION(ADD)",
];

/// The channel whose definition marks the default objects' first start.
const FIRST_START_MARKER: &str = "SYSTEM.DEF.SVRCONN";

/// Define every default object that does not exist yet; returns the names defined. A storage
/// class whose page set is not configured is skipped. Fails with the command's response if a
/// DEFINE fails.
pub fn define_default_objects(queue_manager: &Arc<QueueManager>) -> Result<Vec<String>, String> {
    let mut defined = Vec::new();
    for (object_type, name, attributes) in DEFAULT_OBJECTS {
        let exists = if object_type.is_queue() {
            queue_manager.queue_object_type(name).is_some()
        } else {
            queue_manager.object(*object_type, name).is_some()
        };
        if exists {
            continue;
        }
        if *object_type == ObjectType::StorageClass {
            let page_set: u8 = attributes[5..7].parse().expect("PSID(nn) first");
            let configured = queue_manager.page_set_defined(page_set);
            if !configured {
                continue;
            }
        }
        let command = format!("DEFINE {}({name}) {attributes}", object_type.keyword());
        // The queue manager defines its own objects: no user's command authority applies.
        let origin = CommandOrigin::internal(&CommandOrigin::console().user_id);
        let response = crate::commands::run(queue_manager, None, &origin, &command);
        if !response.success {
            return Err(format!("{command}: {}", response.text()));
        }
        defined.push(name.to_string());
    }
    if defined.iter().any(|name| name == FIRST_START_MARKER)
        && queue_manager.channel_authentication_records().is_empty()
    {
        set_default_channel_authentication(queue_manager)?;
    }
    // A CONNAUTH that named no object at restart names one now: put it in force.
    if defined
        .iter()
        .any(|name| name == DEFAULT_CONNECTION_AUTH_INFO)
        && queue_manager
            .queue_manager_attributes()
            .connection_authentication
            == DEFAULT_CONNECTION_AUTH_INFO
    {
        queue_manager
            .refresh_connection_authentication()
            .map_err(|error| format!("REFRESH SECURITY TYPE(CONNAUTH): {error}"))?;
    }
    Ok(defined)
}

/// Set [`DEFAULT_CHANNEL_AUTHENTICATION`] (a new queue manager's, which has no records yet).
fn set_default_channel_authentication(queue_manager: &Arc<QueueManager>) -> Result<(), String> {
    let origin = CommandOrigin::internal(&CommandOrigin::console().user_id);
    for command in DEFAULT_CHANNEL_AUTHENTICATION {
        let response = crate::commands::run(queue_manager, None, &origin, command);
        if !response.success {
            return Err(format!("{command}: {}", response.text()));
        }
    }
    Ok(())
}
