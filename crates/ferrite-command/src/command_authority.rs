//! Command authority: who may run which MQSC or PCF command on which object, checked before
//! the command runs with the authority records of `ferrite_queue_manager::security::
//! authorization` (MQRC_NOT_AUTHORIZED, 2035; MQSC answers CSQ9016E and PCF its reason).
//!
//! ## For whom
//! - A command that came as a message (the command server: MQSC on SYSTEM.COMMAND.INPUT, PCF
//!   on SYSTEM.ADMIN.COMMAND.QUEUE): the message's UserIdentifier, which the queue manager set
//!   from the putting connection's user (or a user granted setid set).
//! - A command typed at this process's console, or given it in a file: the user that runs the
//!   process (its effective user ID, not `$USER`).
//! - What the queue manager does itself (MQEVO_INTERNAL): no check.
//!
//! ## Which authority, on which object
//! | command | authority |
//! |---|---|
//! | DEFINE, PCF Create and Copy | crt |
//! | ALTER, SET, RESET, REFRESH, PCF Change, Set, Reset, Refresh and the rest | chg |
//! | DELETE, PCF Delete | dlt |
//! | CLEAR, PCF Clear Queue | clr |
//! | DISPLAY, PCF Inquire | dsp |
//! | START, STOP, PING, ARCHIVE, PCF Start and Stop | ctrl |
//!
//! on the object named when the command names one object of a type that has authority
//! records (a queue of any type, a channel, a process, a namelist, an authentication
//! information object); on the queue manager object otherwise (ALTER QMGR, SET AUTHREC and
//! SET CHLAUTH, buffer pools and page sets, DISPLAY CONN, a generic name such as
//! `DISPLAY QLOCAL(APP.*)`), and crt on the type's class profile `@class`, as MQ checks it
//! (`SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) ... AUTHADD(CRT)`), or else on the queue
//! manager (an object that does not exist has no profile yet). MQ checks dsp of a generic
//! DISPLAY object by object; Ferrite checks a generic DISPLAY as dsp on the queue manager.

use ferrite_constants::{pcf::*, pcf_selector::*, reason::MQRC_NOT_AUTHORIZED, selector::*};
use ferrite_queue_manager::objects::authority_record::{
    AuthorityObjectType, CLASS_PROFILE, MQZAO_CHANGE, MQZAO_CLEAR, MQZAO_CONTROL,
    MQZAO_CONTROL_EXTENDED, MQZAO_CREATE, MQZAO_DELETE, MQZAO_DISPLAY,
};
use ferrite_queue_manager::{ConnectingUser, ObjectType, Principal};

use crate::context::{CommandOrigin, Context, Failure};
use crate::parser::Token;

/// The user a command runs for; `None` for the queue manager's own actions.
fn principal(context: &Context) -> Option<Principal> {
    let origin: &CommandOrigin = context.origin;
    match origin.origin {
        ferrite_constants::misc::MQEVO_INTERNAL => None,
        ferrite_constants::misc::MQEVO_MSG => Some(
            context
                .queue_manager
                .principal(&ConnectingUser::asserted(&origin.user_id)),
        ),
        _ => Some(
            context
                .queue_manager
                .principal(&ConnectingUser::this_process()),
        ),
    }
}

/// The authority an MQSC verb needs on its object (RESET and RESOLVE CHANNEL: ctrlx, as
/// MQ's).
fn verb_authority(verb: &str, object_keyword: &str) -> u32 {
    if matches!((verb, object_keyword), ("RESET" | "RESOLVE", "CHANNEL")) {
        return MQZAO_CONTROL_EXTENDED;
    }
    match verb {
        "DEFINE" => MQZAO_CREATE,
        "DELETE" => MQZAO_DELETE,
        "CLEAR" => MQZAO_CLEAR,
        "DISPLAY" => MQZAO_DISPLAY,
        "START" | "STOP" | "PING" | "ARCHIVE" => MQZAO_CONTROL,
        _ => MQZAO_CHANGE,
    }
}

/// Check `authority` on the object (`object_type`, `name`), or on the queue manager when
/// there is no single object of a type with records. A refusal of the command `command`
/// (MQCMD_*) is also a Not Authorized event (AUTHOREV).
fn check(
    context: &Context,
    principal: &Principal,
    object: Option<(AuthorityObjectType, &str)>,
    authority: u32,
    command: i32,
) -> Result<(), i32> {
    if principal.administrator {
        return Ok(());
    }
    let queue_manager = context.queue_manager;
    let (object_type, name) = match object {
        Some((object_type, name)) if !name.is_empty() && !name.contains(['*', '?']) => {
            (object_type, name)
        }
        _ => (AuthorityObjectType::QueueManager, queue_manager.name()),
    };
    queue_manager
        .check_authority(principal, object_type, name, authority)
        .map_err(|_| {
            ferrite_mqi::queue_manager_events::command_not_authorized(
                queue_manager,
                command,
                &principal.name,
            );
            MQRC_NOT_AUTHORIZED
        })
}

/// MQSC: the command `verb` `object` (`object_type` when the object keyword is an object
/// type, its token naming the object).
pub(crate) fn check_mqsc(
    context: &Context,
    verb: &str,
    object_keyword: &str,
    object_type: Option<ObjectType>,
    object_token: &Token,
) -> Result<(), Failure> {
    let Some(principal) = principal(context) else {
        return Ok(());
    };
    let name = object_token
        .value
        .as_ref()
        .map(|value| value.text.as_str())
        .unwrap_or("");
    let typed = object_type
        .and_then(AuthorityObjectType::of)
        .filter(|object_type| *object_type != AuthorityObjectType::QueueManager);
    if verb == "DEFINE" && typed.is_some_and(|kind| class_grants_create(context, &principal, kind))
    {
        return Ok(());
    }
    let object = typed
        .filter(|_| verb != "DEFINE")
        .map(|object_type| (object_type, name));
    let command = crate::events::mqsc_command_code(verb, object_keyword);
    check(
        context,
        &principal,
        object,
        verb_authority(verb, object_keyword),
        command,
    )
    .map_err(|_| {
        Failure(vec![format!(
            "CSQ9016E {} '{verb}' command request not authorized for user '{}'",
            context.name, principal.name
        )])
    })
}

/// Whether `principal` has crt on the class profile of `object_type` (no log line: the
/// queue manager's crt is checked next when it has not).
fn class_grants_create(
    context: &Context,
    principal: &Principal,
    object_type: AuthorityObjectType,
) -> bool {
    context
        .queue_manager
        .authority_of(principal, object_type, CLASS_PROFILE)
        & MQZAO_CREATE
        != 0
}

/// The authority a PCF command needs, and the type and name parameter of the object it names
/// (`None`: the queue manager).
fn pcf_authority(command: i32) -> (u32, Option<(AuthorityObjectType, i32)>) {
    let queue = |id| Some((AuthorityObjectType::Queue, id));
    let channel = |id| Some((AuthorityObjectType::Channel, id));
    let process = |id| Some((AuthorityObjectType::Process, id));
    let namelist = |id| Some((AuthorityObjectType::Namelist, id));
    let auth_info = |id| Some((AuthorityObjectType::AuthInfo, id));
    let topic = |id| Some((AuthorityObjectType::Topic, id));
    match command {
        MQCMD_INQUIRE_Q | MQCMD_INQUIRE_Q_NAMES | MQCMD_INQUIRE_Q_STATUS => {
            (MQZAO_DISPLAY, queue(MQCA_Q_NAME))
        }
        MQCMD_CREATE_Q => (MQZAO_CREATE, queue(MQCA_Q_NAME)),
        MQCMD_COPY_Q => (MQZAO_CREATE, queue(MQCACF_TO_Q_NAME)),
        MQCMD_CHANGE_Q | MQCMD_RESET_Q_STATS => (MQZAO_CHANGE, queue(MQCA_Q_NAME)),
        MQCMD_DELETE_Q => (MQZAO_DELETE, queue(MQCA_Q_NAME)),
        MQCMD_CLEAR_Q => (MQZAO_CLEAR, queue(MQCA_Q_NAME)),
        MQCMD_INQUIRE_CHANNEL | MQCMD_INQUIRE_CHANNEL_NAMES | MQCMD_INQUIRE_CHANNEL_STATUS => {
            (MQZAO_DISPLAY, channel(MQCACH_CHANNEL_NAME))
        }
        MQCMD_CREATE_CHANNEL => (MQZAO_CREATE, channel(MQCACH_CHANNEL_NAME)),
        MQCMD_COPY_CHANNEL => (MQZAO_CREATE, channel(MQCACF_TO_CHANNEL_NAME)),
        MQCMD_CHANGE_CHANNEL => (MQZAO_CHANGE, channel(MQCACH_CHANNEL_NAME)),
        MQCMD_DELETE_CHANNEL => (MQZAO_DELETE, channel(MQCACH_CHANNEL_NAME)),
        MQCMD_START_CHANNEL | MQCMD_STOP_CHANNEL | MQCMD_PING_CHANNEL => {
            (MQZAO_CONTROL, channel(MQCACH_CHANNEL_NAME))
        }
        MQCMD_RESET_CHANNEL | MQCMD_RESOLVE_CHANNEL => {
            (MQZAO_CONTROL_EXTENDED, channel(MQCACH_CHANNEL_NAME))
        }
        MQCMD_INQUIRE_PROCESS | MQCMD_INQUIRE_PROCESS_NAMES => {
            (MQZAO_DISPLAY, process(MQCA_PROCESS_NAME))
        }
        MQCMD_CREATE_PROCESS => (MQZAO_CREATE, process(MQCA_PROCESS_NAME)),
        MQCMD_COPY_PROCESS => (MQZAO_CREATE, process(MQCACF_TO_PROCESS_NAME)),
        MQCMD_CHANGE_PROCESS => (MQZAO_CHANGE, process(MQCA_PROCESS_NAME)),
        MQCMD_DELETE_PROCESS => (MQZAO_DELETE, process(MQCA_PROCESS_NAME)),
        MQCMD_INQUIRE_NAMELIST | MQCMD_INQUIRE_NAMELIST_NAMES => {
            (MQZAO_DISPLAY, namelist(MQCA_NAMELIST_NAME))
        }
        MQCMD_CREATE_NAMELIST => (MQZAO_CREATE, namelist(MQCA_NAMELIST_NAME)),
        MQCMD_COPY_NAMELIST => (MQZAO_CREATE, namelist(MQCACF_TO_NAMELIST_NAME)),
        MQCMD_CHANGE_NAMELIST => (MQZAO_CHANGE, namelist(MQCA_NAMELIST_NAME)),
        MQCMD_DELETE_NAMELIST => (MQZAO_DELETE, namelist(MQCA_NAMELIST_NAME)),
        MQCMD_INQUIRE_AUTH_INFO | MQCMD_INQUIRE_AUTH_INFO_NAMES => {
            (MQZAO_DISPLAY, auth_info(MQCA_AUTH_INFO_NAME))
        }
        MQCMD_CREATE_AUTH_INFO => (MQZAO_CREATE, auth_info(MQCA_AUTH_INFO_NAME)),
        MQCMD_COPY_AUTH_INFO => (MQZAO_CREATE, auth_info(MQCACF_TO_AUTH_INFO_NAME)),
        MQCMD_CHANGE_AUTH_INFO => (MQZAO_CHANGE, auth_info(MQCA_AUTH_INFO_NAME)),
        MQCMD_DELETE_AUTH_INFO => (MQZAO_DELETE, auth_info(MQCA_AUTH_INFO_NAME)),
        MQCMD_INQUIRE_TOPIC | MQCMD_INQUIRE_TOPIC_NAMES => (MQZAO_DISPLAY, topic(MQCA_TOPIC_NAME)),
        MQCMD_CREATE_TOPIC => (MQZAO_CREATE, topic(MQCA_TOPIC_NAME)),
        MQCMD_COPY_TOPIC => (MQZAO_CREATE, topic(MQCACF_TO_TOPIC_NAME)),
        MQCMD_CHANGE_TOPIC => (MQZAO_CHANGE, topic(MQCA_TOPIC_NAME)),
        MQCMD_DELETE_TOPIC => (MQZAO_DELETE, topic(MQCA_TOPIC_NAME)),
        MQCMD_START_CHANNEL_LISTENER | MQCMD_STOP_CHANNEL_LISTENER | MQCMD_ARCHIVE_LOG => {
            (MQZAO_CONTROL, None)
        }
        command if crate::events::is_inquiry(command) => (MQZAO_DISPLAY, None),
        MQCMD_INQUIRE_AUTH_RECS | MQCMD_INQUIRE_ENTITY_AUTH | MQCMD_INQUIRE_CHLAUTH_RECS => {
            (MQZAO_DISPLAY, None)
        }
        _ => (MQZAO_CHANGE, None),
    }
}

/// PCF: the command `command` with `parameters`; `Err` is MQRC_NOT_AUTHORIZED.
pub(crate) fn check_pcf(
    context: &Context,
    command: i32,
    parameters: &[crate::pcf::Parameter],
) -> Result<(), i32> {
    let Some(principal) = principal(context) else {
        return Ok(());
    };
    let (authority, object) = pcf_authority(command);
    // crt is the type's class profile's, or the queue manager's (see the module docs).
    if authority == MQZAO_CREATE
        && object.is_some_and(|(kind, _)| class_grants_create(context, &principal, kind))
    {
        return Ok(());
    }
    let object = object.filter(|_| authority != MQZAO_CREATE);
    let named = object.map(|(object_type, id)| {
        let name = parameters.iter().find_map(|parameter| match parameter {
            crate::pcf::Parameter::String { parameter, value } if *parameter == id => {
                Some(value.trim())
            }
            _ => None,
        });
        (object_type, name.unwrap_or(""))
    });
    check(context, &principal, named, authority, command)
}
