//! Queue name resolution for distributed queuing: where a message for (ObjectName,
//! ObjectQMgrName) goes, as MQ's MQOPEN and MQPUT1 resolve it. One place decides whether a
//! name stays on this queue manager (and is then opened as a local, model or alias queue by
//! `connection/open.rs`) or leaves through a transmission queue, prefixed by an MQXQH.
//!
//! The rules, in MQ's order:
//!
//! 1. ObjectQMgrName blank or this queue manager's name: a QREMOTE named ObjectName sends to
//!    its RNAME on its RQMNAME (MQRC_REMOTE_Q_NAME_ERROR when RNAME is blank: that is a queue
//!    manager alias; MQRC_UNKNOWN_REMOTE_Q_MGR when RQMNAME is blank or this queue manager)
//!    through its XMITQ, or when XMITQ is blank the transmission queue for RQMNAME (rule 3).
//!    Any other name is a queue of this queue manager.
//! 2. ObjectQMgrName names a queue manager alias (a QREMOTE with blank RNAME): its RQMNAME
//!    replaces ObjectQMgrName (MQRC_UNKNOWN_REMOTE_Q_MGR when blank); when that is this queue
//!    manager, ObjectName is a queue here. Otherwise its XMITQ, or the transmission queue for
//!    RQMNAME (rule 3). A QREMOTE with an RNAME named as ObjectQMgrName is
//!    MQRC_UNKNOWN_REMOTE_Q_MGR.
//! 3. The transmission queue for another queue manager: the local queue of that name, else the
//!    queue manager's DEFXMITQ, else MQRC_UNKNOWN_REMOTE_Q_MGR. For a definition's blank XMITQ,
//!    a queue of RQMNAME's name that is not a local queue is MQRC_XMIT_Q_TYPE_ERROR.
//!
//! A transmission queue must be a local queue (MQRC_UNKNOWN_XMIT_Q, MQRC_XMIT_Q_TYPE_ERROR)
//! with USAGE(XMITQ) (MQRC_XMIT_Q_USAGE_ERROR); DEFXMITQ has its own reasons
//! (MQRC_UNKNOWN_DEF_XMIT_Q, MQRC_DEF_XMIT_Q_TYPE_ERROR, MQRC_DEF_XMIT_Q_USAGE_ERROR).
//! Resolution takes at most one alias step, so no definitions can make it loop.
//!
//! Reply-to queue aliases ([`resolve_reply_to`]): at MQPUT a ReplyToQ with a blank ReplyToQMgr
//! that names a QREMOTE is replaced by its RNAME and RQMNAME.

use ferrite_constants::reason::*;
use ferrite_queue_manager::{ObjectDefinition, ObjectType, QueueManager, RemoteDefinition};

use crate::error::{MqError, MqResult};

/// Where a queue name resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A queue of this queue manager, opened by this name.
    Local(String),
    /// A queue of another queue manager.
    Remote(RemoteDestination),
}

/// A queue on another queue manager and the transmission queue its messages wait on (the
/// MQXQH's RemoteQName and RemoteQMgrName).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteDestination {
    /// The local USAGE(XMITQ) queue the message is put to.
    pub transmission_queue: String,
    /// RemoteQName: the queue's name at its queue manager.
    pub remote_q_name: String,
    /// RemoteQMgrName: the queue manager the message is for.
    pub remote_q_mgr_name: String,
}

/// Resolves `object_name` at `q_mgr_name` (blank: this queue manager) as MQOPEN and MQPUT1
/// do (the module's rules).
pub fn resolve_queue_name(
    queue_manager: &QueueManager,
    object_name: &str,
    q_mgr_name: &str,
) -> MqResult<Destination> {
    let local = queue_manager.name();
    if q_mgr_name.is_empty() || q_mgr_name == local {
        return match remote_definition(queue_manager, object_name) {
            Some(definition) => remote_queue(queue_manager, &definition).map(Destination::Remote),
            None => Ok(Destination::Local(object_name.to_string())),
        };
    }
    match remote_definition(queue_manager, q_mgr_name) {
        Some(alias) if alias.remote_name.is_empty() => {
            queue_manager_alias(queue_manager, object_name, &alias)
        }
        // A remote queue's definition is not a queue manager alias.
        Some(_) => Err(MqError::failed(MQRC_UNKNOWN_REMOTE_Q_MGR)),
        _ => Ok(Destination::Remote(RemoteDestination {
            transmission_queue: transmission_queue_for(queue_manager, q_mgr_name)?,
            remote_q_name: object_name.to_string(),
            remote_q_mgr_name: q_mgr_name.to_string(),
        })),
    }
}

/// Reply-to resolution at MQPUT: a ReplyToQ given with a blank ReplyToQMgr that names a
/// QREMOTE (a reply-to queue alias) becomes its RNAME (when not blank) at its RQMNAME (when
/// not blank); otherwise ReplyToQMgr becomes this queue manager. Returns (ReplyToQ,
/// ReplyToQMgr).
pub fn resolve_reply_to(queue_manager: &QueueManager, reply_to_q: &str) -> (String, String) {
    let local = queue_manager.name().to_string();
    match remote_definition(queue_manager, reply_to_q) {
        Some(alias) => {
            let queue = if alias.remote_name.is_empty() {
                reply_to_q.to_string()
            } else {
                alias.remote_name
            };
            let q_mgr = if alias.remote_queue_manager.is_empty() {
                local
            } else {
                alias.remote_queue_manager
            };
            (queue, q_mgr)
        }
        None => (reply_to_q.to_string(), local),
    }
}

/// Rule 1: a QREMOTE opened by its name.
pub fn remote_queue(
    queue_manager: &QueueManager,
    definition: &RemoteDefinition,
) -> MqResult<RemoteDestination> {
    if definition.remote_name.is_empty() {
        return Err(MqError::failed(MQRC_REMOTE_Q_NAME_ERROR));
    }
    let remote_q_mgr_name = &definition.remote_queue_manager;
    if remote_q_mgr_name.is_empty() || remote_q_mgr_name == queue_manager.name() {
        return Err(MqError::failed(MQRC_UNKNOWN_REMOTE_Q_MGR));
    }
    let transmission_queue = named_or_for(queue_manager, definition)?;
    Ok(RemoteDestination {
        transmission_queue,
        remote_q_name: definition.remote_name.clone(),
        remote_q_mgr_name: remote_q_mgr_name.clone(),
    })
}

/// Rule 2: ObjectQMgrName is a queue manager alias.
fn queue_manager_alias(
    queue_manager: &QueueManager,
    object_name: &str,
    alias: &RemoteDefinition,
) -> MqResult<Destination> {
    debug_assert!(alias.remote_name.is_empty());
    let target = &alias.remote_queue_manager;
    if target.is_empty() {
        return Err(MqError::failed(MQRC_UNKNOWN_REMOTE_Q_MGR));
    }
    if target == queue_manager.name() {
        return Ok(Destination::Local(object_name.to_string()));
    }
    Ok(Destination::Remote(RemoteDestination {
        transmission_queue: named_or_for(queue_manager, alias)?,
        remote_q_name: object_name.to_string(),
        remote_q_mgr_name: target.clone(),
    }))
}

/// A QREMOTE's XMITQ, or when blank the transmission queue for its RQMNAME.
fn named_or_for(queue_manager: &QueueManager, definition: &RemoteDefinition) -> MqResult<String> {
    if definition.transmission_queue.is_empty() {
        // A queue of RQMNAME's name must be a transmission queue (MQRC_XMIT_Q_TYPE_ERROR when
        // it is not a local queue).
        let named = &definition.remote_queue_manager;
        if queue_manager.queue_object_type(named).is_some() {
            check_transmission_queue(queue_manager, named, false)?;
            return Ok(named.clone());
        }
        return transmission_queue_for(queue_manager, named);
    }
    check_transmission_queue(queue_manager, &definition.transmission_queue, false)?;
    Ok(definition.transmission_queue.clone())
}

/// Rule 3: the local queue named after `q_mgr_name`, else DEFXMITQ.
fn transmission_queue_for(queue_manager: &QueueManager, q_mgr_name: &str) -> MqResult<String> {
    if queue_manager.queue_object_type(q_mgr_name) == Some(ObjectType::LocalQueue) {
        check_transmission_queue(queue_manager, q_mgr_name, false)?;
        return Ok(q_mgr_name.to_string());
    }
    let default = queue_manager
        .queue_manager_attributes()
        .default_transmission_queue;
    if default.is_empty() {
        return Err(MqError::failed(MQRC_UNKNOWN_REMOTE_Q_MGR));
    }
    check_transmission_queue(queue_manager, &default, true)?;
    Ok(default)
}

/// A transmission queue must be a local queue with USAGE(XMITQ); `default` chooses DEFXMITQ's
/// reasons.
fn check_transmission_queue(
    queue_manager: &QueueManager,
    name: &str,
    default: bool,
) -> MqResult<()> {
    let (unknown, type_error, usage_error) = if default {
        (
            MQRC_UNKNOWN_DEF_XMIT_Q,
            MQRC_DEF_XMIT_Q_TYPE_ERROR,
            MQRC_DEF_XMIT_Q_USAGE_ERROR,
        )
    } else {
        (
            MQRC_UNKNOWN_XMIT_Q,
            MQRC_XMIT_Q_TYPE_ERROR,
            MQRC_XMIT_Q_USAGE_ERROR,
        )
    };
    match queue_manager.queue_object_type(name) {
        None => Err(MqError::failed(unknown)),
        Some(ObjectType::LocalQueue) => match queue_manager.queue(name) {
            Some(queue) if queue.with_definition(|d| d.usage_transmission) => Ok(()),
            Some(_) => Err(MqError::failed(usage_error)),
            None => Err(MqError::failed(unknown)),
        },
        Some(_) => Err(MqError::failed(type_error)),
    }
}

/// The QREMOTE named `name`, if there is one.
fn remote_definition(queue_manager: &QueueManager, name: &str) -> Option<RemoteDefinition> {
    match queue_manager.object(ObjectType::RemoteQueue, name) {
        Some(ObjectDefinition::Remote(definition)) => Some(definition),
        _ => None,
    }
}
