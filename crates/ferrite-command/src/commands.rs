//! The commands: parse and check everything, then act, then answer in MQ for z/OS's style.

use std::sync::Arc;

use ferrite_queue_manager::{ObjectType, QueueManager};

use crate::channel_commands;
use crate::channel_initiator::ChannelInitiator;
use crate::connection_commands;
use crate::context::{
    choice, fail, keywords, no_object_value, number, object_name, value_error, Context, Failure,
    Found, Message, Outcome, Output, Takes,
};
use crate::events::{self, CommandOrigin, CommandReport, ConfigWatch, Target};
use crate::object_commands;
use crate::parser::{split_commands, tokenize, SyntaxError, Token};
use crate::qmgr_commands;
use crate::queue_commands;
use crate::CommandResponse;

/// Verbs with MQ's synonyms.
pub(crate) const VERBS: &[(&str, &str)] = &[
    ("ALTER", "ALT"),
    ("ARCHIVE", "ARC"),
    ("BACKUP", "BACKUP"),
    ("CLEAR", "CLEAR"),
    ("DEFINE", "DEF"),
    ("DELETE", "DELETE"),
    ("DISPLAY", "DIS"),
    ("PING", "PING"),
    ("RECOVER", "REC"),
    ("REFRESH", "REF"),
    ("RESET", "RESET"),
    ("RESOLVE", "RESOLVE"),
    ("SET", "SET"),
    ("START", "STA"),
    ("STOP", "STOP"),
];

/// Object keywords with MQ's synonyms.
pub(crate) const OBJECTS: &[(&str, &str)] = &[
    ("QLOCAL", "QL"),
    ("QUEUE", "Q"),
    ("QSTATUS", "QS"),
    ("QSTATS", "QSTATS"),
    ("QMGR", "QMGR"),
    ("USAGE", "USAGE"),
    ("LOG", "LOG"),
    ("SYSTEM", "SYSTEM"),
    ("CONN", "CONN"),
    ("QMODEL", "QM"),
    ("QALIAS", "QA"),
    ("QREMOTE", "QR"),
    ("STGCLASS", "STGCLASS"),
    ("PROCESS", "PRO"),
    ("NAMELIST", "NL"),
    ("CHANNEL", "CHL"),
    ("TOPIC", "TOPIC"),
    ("SUB", "SUB"),
    ("SBSTATUS", "SBS"),
    ("TPSTATUS", "TPS"),
    ("PUBSUB", "PUBSUB"),
    ("PSID", "PSID"),
    ("BUFFPOOL", "BUFFPOOL"),
    ("CMDSERV", "CMDSERV"),
    ("CHSTATUS", "CHS"),
    ("THREAD", "THREAD"),
    ("TRACE", "TRACE"),
    ("LISTENER", "LSTR"),
    ("LSSTATUS", "LSSTATUS"),
    ("CHINIT", "CHI"),
    ("AUTHINFO", "AUTHINFO"),
    ("SECURITY", "SEC"),
    ("CHLAUTH", "CHLAUTH"),
    ("AUTHREC", "AUTHREC"),
    ("ENTAUTH", "ENTAUTH"),
    ("GROUP", "GROUP"),
    ("CFSTRUCT", "CFSTRUCT"),
    ("CFSTATUS", "CFSTATUS"),
];

fn canonical(table: &[(&'static str, &'static str)], word: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(full, synonym)| word == *full || word == *synonym)
        .map(|(full, _)| *full)
}

pub fn run(
    queue_manager: &Arc<QueueManager>,
    initiator: Option<&dyn ChannelInitiator>,
    origin: &CommandOrigin,
    text: &str,
) -> CommandResponse {
    crate::events::install_configuration_observer(queue_manager);
    let context = Context {
        queue_manager,
        name: queue_manager.name().to_string(),
        initiator,
        origin,
    };
    let command = match single_command(&context, text) {
        Ok(command) => command,
        Err(response) => return response,
    };
    let tokens = match tokenize(&command) {
        Ok(tokens) => tokens,
        Err(error) => {
            let label = recognised_words(&command);
            return fail(&context, "CSQ9SCND", &label, context.syntax(error));
        }
    };
    let (verb, object) = match recognise(&context, &tokens) {
        Ok(recognised) => recognised,
        Err(response) => return response,
    };
    let object_token = &tokens[1];
    let rest = &tokens[2..];
    let label = format!("{verb} {object}");
    // Subscriptions have commands of their own (pubsub_commands.rs), not the generic ones.
    let object_type =
        ObjectType::from_keyword(object).filter(|kind| *kind != ObjectType::Subscription);
    // Command authority (command_authority.rs): for whom the command runs, before it runs.
    if let Err(failure) =
        crate::command_authority::check_mqsc(&context, verb, object, object_type, object_token)
    {
        return fail(&context, "CSQ9SCND", &label, failure);
    }
    // What the command's events need from before it runs (events.rs).
    let command_events_before = queue_manager.queue_manager_attributes().command_events;
    let watch = match configuration_target(verb, object_type, object_token) {
        Some(target) => ConfigWatch::begin(&context, target),
        None => ConfigWatch::none(),
    };
    let (csect, outcome) = dispatch(&context, verb, object, object_type, object_token, rest);
    match outcome {
        Ok(output) => {
            watch.finish(&context);
            events::report_command(
                &context,
                &CommandReport::mqsc(verb, object, command.trim()),
                &command_events_before,
            );
            output.finish(
                format!(
                    "CSQ9022I {} {csect} ' {label}' NORMAL COMPLETION",
                    context.name
                ),
                true,
            )
        }
        Err(failure) => fail(&context, csect, &label, failure),
    }
}

/// The one command in `text` (MQSC takes one command at a time); `Err` is the response when
/// there is none (success, nothing done) or more than one.
fn single_command(context: &Context, text: &str) -> Result<String, CommandResponse> {
    let commands = split_commands(text);
    match commands.as_slice() {
        [] => Err(CommandResponse {
            success: true,
            ..CommandResponse::default()
        }),
        [command] => Ok(command.text.clone()),
        [_, second, ..] => {
            let mut output = Output::default();
            output.line(format!(
                "CSQ9001E {} Only one command is allowed; a second starts on line {}",
                context.name, second.line
            ));
            Err(output.finish(
                format!("CSQ9023E {} CSQ9SCND ' ' ABNORMAL COMPLETION", context.name),
                false,
            ))
        }
    }
}

/// The verb and object of a command that does not tokenize, as far as they can be
/// recognised, for its failure message.
fn recognised_words(command: &str) -> String {
    command
        .split_whitespace()
        .take(2)
        .map(|word| {
            let word = word.split('(').next().unwrap_or("").to_uppercase();
            canonical(VERBS, &word)
                .or_else(|| canonical(OBJECTS, &word))
                .map(str::to_string)
                .unwrap_or(word)
        })
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The command's verb and object keywords in their full forms (the first two tokens); `Err`
/// is the response when there are no tokens (success, nothing done) or either is not one
/// MQSC knows.
fn recognise(
    context: &Context,
    tokens: &[Token],
) -> Result<(&'static str, &'static str), CommandResponse> {
    let Some(verb_token) = tokens.first() else {
        return Err(CommandResponse {
            success: true,
            ..CommandResponse::default()
        });
    };
    let Some(verb) = canonical(VERBS, &verb_token.keyword).filter(|_| verb_token.value.is_none())
    else {
        return Err(fail(
            context,
            "CSQ9SCND",
            &verb_token.keyword,
            context.syntax(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", verb_token.keyword),
                verb_token.position,
            )),
        ));
    };
    let Some(object_token) = tokens.get(1) else {
        return Err(fail(
            context,
            "CSQ9SCND",
            verb,
            context.syntax(SyntaxError::new(
                format!("CSQ9010E Required parameter for '{verb}' is missing"),
                verb_token.position + verb_token.keyword.chars().count(),
            )),
        ));
    };
    let Some(object) = canonical(OBJECTS, &object_token.keyword) else {
        return Err(fail(
            context,
            "CSQ9SCND",
            verb,
            context.syntax(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", object_token.keyword),
                object_token.position,
            )),
        ));
    };
    Ok((verb, object))
}

/// Run the command `verb` `object` (`object_type` when it names an object type; the object
/// keyword's token and the tokens after it): the command module that does it, and the CSECT
/// its messages name.
fn dispatch(
    context: &Context,
    verb: &'static str,
    object: &'static str,
    object_type: Option<ObjectType>,
    object_token: &Token,
    rest: &[Token],
) -> (&'static str, Outcome) {
    match (verb, object, object_type) {
        ("ALTER", "QMGR", _) => (
            "CSQMAMMS",
            qmgr_commands::alter_qmgr(context, object_token, rest),
        ),
        ("DISPLAY", "QMGR", _) => (
            "CSQMDRTS",
            qmgr_commands::display_qmgr(context, object_token, rest),
        ),
        ("DISPLAY", "GROUP", _) => (
            "CSQ5DQSG",
            crate::group_commands::display_group(context, object_token, rest),
        ),
        ("DEFINE" | "ALTER", "CFSTRUCT", _) => (
            "CSQMMSGP",
            crate::cfstruct_commands::define_or_alter(context, verb == "ALTER", object_token, rest),
        ),
        ("DELETE", "CFSTRUCT", _) => (
            "CSQMMSGP",
            crate::cfstruct_commands::delete(context, object_token, rest),
        ),
        ("DISPLAY", "CFSTRUCT", _) => (
            "CSQMDRTC",
            crate::cfstruct_commands::display(context, object_token, rest),
        ),
        ("BACKUP", "CFSTRUCT", _) => (
            "CSQEBKUP",
            crate::cfstruct_commands::backup(context, object_token, rest),
        ),
        ("RECOVER", "CFSTRUCT", _) => (
            "CSQERCVR",
            crate::cfstruct_commands::recover(context, object_token, rest),
        ),
        ("DISPLAY", "CFSTATUS", _) => (
            "CSQMDRTC",
            crate::cfstruct_commands::display_status(context, object_token, rest),
        ),
        ("SET", "CHLAUTH", _) => (
            "CSQMSCA",
            crate::channel_authentication_commands::set(context, object_token, rest),
        ),
        ("DISPLAY", "CHLAUTH", _) => (
            "CSQMDRTS",
            crate::channel_authentication_commands::display(context, object_token, rest),
        ),
        ("SET", "AUTHREC", _) => (
            "CSQMSAUT",
            crate::authority_commands::set(context, object_token, rest),
        ),
        ("DELETE", "AUTHREC", _) => (
            "CSQMSAUT",
            crate::authority_commands::delete(context, object_token, rest),
        ),
        ("DISPLAY", "AUTHREC", _) => (
            "CSQMDRTS",
            crate::authority_commands::display(context, object_token, rest),
        ),
        ("DISPLAY", "ENTAUTH", _) => (
            "CSQMDRTS",
            crate::authority_commands::display_entity(context, object_token, rest),
        ),
        // Publish/subscribe (pubsub_commands.rs).
        ("DEFINE", "SUB", _) => (
            "CSQMMSGP",
            crate::pubsub_commands::define_subscription(context, object_token, rest),
        ),
        ("ALTER", "SUB", _) => (
            "CSQMMSGP",
            crate::subscription_changes::alter_subscription(context, object_token, rest),
        ),
        ("DELETE", "SUB", _) => (
            "CSQMUQLC",
            crate::pubsub_commands::delete_subscription(context, object_token, rest),
        ),
        ("DISPLAY", "SUB" | "SBSTATUS", _) => (
            "CSQMDRTS",
            crate::pubsub_commands::display_subscriptions(
                context,
                object == "SBSTATUS",
                object_token,
                rest,
            ),
        ),
        ("DISPLAY", "TPSTATUS", _) => (
            "CSQMDRTS",
            crate::pubsub_commands::display_topic_status(context, object_token, rest),
        ),
        ("DISPLAY", "PUBSUB", _) => (
            "CSQMDRTS",
            crate::pubsub_commands::display_pubsub(context, object_token, rest),
        ),
        ("DEFINE" | "ALTER", "AUTHREC", _) => (
            "CSQ9SCND",
            Err(context.syntax(SyntaxError::new(
                format!(
                    "CSQ9001E '{}' is invalid: authority records are made by SET AUTHREC",
                    object_token.keyword
                ),
                object_token.position,
            ))),
        ),
        ("DEFINE" | "ALTER" | "DELETE", "CHLAUTH", _) => (
            "CSQ9SCND",
            Err(context.syntax(SyntaxError::new(
                format!(
                    "CSQ9001E '{}' is invalid: channel authentication records are made and removed by SET CHLAUTH",
                    object_token.keyword
                ),
                object_token.position,
            ))),
        ),
        ("DEFINE" | "DELETE", "QMGR", _) => (
            "CSQ9SCND",
            Err(context.syntax(SyntaxError::new(
                format!("CSQ9001E '{}' is invalid", object_token.keyword),
                object_token.position,
            ))),
        ),
        // Shared queues (shared_queue_commands.rs): group objects, not this member's.
        ("DEFINE" | "ALTER", "QLOCAL", _) if crate::shared_queue_commands::names_shared(rest) => (
            "CSQMMSGP",
            crate::shared_queue_commands::define_or_alter(context, verb == "ALTER", object_token, rest),
        ),
        ("DELETE", "QLOCAL", _) if crate::shared_queue_commands::names_shared(rest) => (
            "CSQMUQLC",
            crate::shared_queue_commands::delete(context, object_token, rest),
        ),
        ("DEFINE" | "ALTER", _, Some(object_type)) => (
            "CSQMMSGP",
            object_commands::define_or_alter(
                context,
                verb == "ALTER",
                object_type,
                object_token,
                rest,
            ),
        ),
        ("DELETE", "QLOCAL", _) => ("CSQMUQLC", queue_commands::delete(context, object_token, rest)),
        ("DELETE", _, Some(object_type)) => (
            "CSQMUQLC",
            object_commands::delete(context, object_type, object_token, rest),
        ),
        ("CLEAR", "QLOCAL", _) => ("CSQMUQLC", queue_commands::clear(context, object_token, rest)),
        ("DISPLAY", "QUEUE", _) => (
            "CSQMDRTS",
            queue_commands::display_queue(context, None, object_token, rest),
        ),
        ("DISPLAY", _, Some(object_type)) if object_type.is_queue() => (
            "CSQMDRTS",
            queue_commands::display_queue(context, Some(object_type), object_token, rest),
        ),
        ("DISPLAY", _, Some(object_type)) => (
            "CSQMDRTS",
            object_commands::display(context, object_type, object_token, rest),
        ),
        ("DISPLAY", "CHSTATUS", _) => (
            "CSQXDRTS",
            channel_commands::display_channel_status(context, object_token, rest),
        ),
        ("STOP", "CHANNEL", _) => (
            "CSQXCRPS",
            channel_commands::stop_channel(context, object_token, rest),
        ),
        ("START", "CHANNEL", _) => (
            "CSQXCRPS",
            channel_commands::start_channel(context, object_token, rest),
        ),
        ("RESET", "CHANNEL", _) => (
            "CSQXCRPS",
            channel_commands::reset_channel(context, object_token, rest),
        ),
        ("RESOLVE", "CHANNEL", _) => (
            "CSQXCRPS",
            channel_commands::resolve_channel(context, object_token, rest),
        ),
        ("PING", "CHANNEL", _) => (
            "CSQXCRPS",
            channel_commands::ping_channel(context, object_token, rest),
        ),
        ("START", "LISTENER", _) => (
            "CSQXCRPS",
            channel_commands::start_listener(context, object_token, rest),
        ),
        ("STOP", "LISTENER", _) => (
            "CSQXCRPS",
            channel_commands::stop_listener(context, object_token, rest),
        ),
        ("DISPLAY", "LSSTATUS", _) => (
            "CSQXDRTS",
            channel_commands::display_listener_status(context, object_token, rest),
        ),
        ("DISPLAY", "CHINIT", _) => (
            "CSQXCRPS",
            channel_commands::display_channel_initiator(context, object_token, rest),
        ),
        ("DISPLAY", "QSTATUS", _) => ("CSQMDRTC", queue_commands::display_status(context, object_token, rest)),
        ("DISPLAY", "CONN", _) => (
            "CSQMDRTC",
            connection_commands::display_connections(context, object_token, rest),
        ),
        ("DISPLAY", "USAGE", _) => (
            "CSQIDUSE",
            crate::usage::display_usage(context, object_token, rest),
        ),
        ("DISPLAY", "LOG", _) => ("CSQJC001", display_log(context, object_token, rest)),
        ("DISPLAY", "SYSTEM", _) => ("CSQJC001", display_system(context, object_token, rest)),
        ("ARCHIVE", "LOG", _) => ("CSQJC001", archive_log(context, object_token, rest)),
        ("REFRESH", "QMGR", _) => ("CSQMREFR", refresh_qmgr(context, object_token, rest)),
        ("DEFINE" | "ALTER" | "DELETE", "BUFFPOOL", _) => (
            "CSQPCMDS",
            crate::storage_commands::buffer_pool(context, verb, object_token, rest),
        ),
        ("DEFINE" | "ALTER" | "DELETE", "PSID", _) => (
            "CSQPCMDS",
            crate::storage_commands::page_set(context, verb, object_token, rest),
        ),
        ("REFRESH", "SECURITY", _) => (
            "CSQHREFR",
            crate::security_commands::refresh_security(context, object_token, rest),
        ),
        ("RESET", "QSTATS", _) => ("CSQMRQST", queue_commands::reset_qstats(context, object_token, rest)),
        ("SET", "SYSTEM", _) => (
            "CSQJC001",
            crate::statistics_commands::set_system(context, object_token, rest),
        ),
        ("RESET", "QMGR", _) => (
            "CSQMRESE",
            crate::statistics_commands::reset_qmgr(context, object_token, rest),
        ),
        _ => (
            "CSQ9SCND",
            Err(Failure(vec![format!(
                "CSQ9032E {} CSQ9SCND Requested function is not available: '{verb} {object}' is not implemented yet",
                context.name
            )])),
        ),
    }
}

/// The object a configuration event would report for MQSC `verb` of `object_type` (DEFINE,
/// ALTER and DELETE of the object types MQ reports, and ALTER QMGR); `None` for any other
/// command, and for a name that is not valid (the command fails).
fn configuration_target(
    verb: &str,
    object_type: Option<ObjectType>,
    object: &Token,
) -> Option<Target> {
    if !matches!(verb, "DEFINE" | "ALTER" | "DELETE") {
        return None;
    }
    match object_type? {
        ObjectType::QueueManager => (verb == "ALTER").then_some(Target::QueueManager),
        ObjectType::ChannelAuthentication | ObjectType::AuthorityRecord => None,
        object_type => {
            let name = object_name(object, false).ok()?;
            Some(if object_type.is_queue() {
                Target::Queue(name)
            } else {
                Target::Object(object_type, name)
            })
        }
    }
}

// ----- queue manager, usage, log, system -------------------------------------------------------

pub(crate) fn display_log(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let mut output = Output::default();
    output.report(&context.queue_manager.display_log());
    Ok(output)
}

pub(crate) fn display_system(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let config = context.queue_manager.config();
    let mut lines = vec![
        format!("CSQJ322I {} DISPLAY SYSTEM report ...", context.name),
        " Parameter                    Initial value".to_string(),
    ];
    let mut row = |name: &str, value: String| lines.push(format!(" {name:<28} {value}"));
    row("LOGLOAD", config.system.logload.to_string());
    row("MAXUMSGS", config.system.maxumsgs.to_string());
    row(
        "EXPRYINT",
        if config.system.expryint == 0 {
            "OFF".to_string()
        } else {
            config.system.expryint.to_string()
        },
    );
    row(
        "QMCCSID",
        ferrite_mqi::descriptor::QUEUE_MANAGER_CCSID.to_string(),
    );
    row(
        "STATIME",
        context
            .queue_manager
            .statistics_interval_minutes()
            .to_string(),
    );
    row("BUFFER POOLS", config.buffer_pools.len().to_string());
    row("PAGE SETS", config.page_sets.len().to_string());
    lines.push(" End of SYSTEM report".to_string());
    let mut output = Output::default();
    output.messages.push(Message::Text(lines));
    Ok(output)
}

pub(crate) fn archive_log(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    context
        .queue_manager
        .archive_log()
        .map_err(|error| context.storage("CSQJC001", error))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQJ311I {} CSQJC001 LOG ARCHIVE (OFFLOAD) TASK INITIATED",
        context.name
    ));
    Ok(output)
}

pub(crate) fn refresh_qmgr(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(
        rest,
        &[
            ("TYPE", Takes::Value),
            ("NAME", Takes::Value),
            ("OBJECT", Takes::Value),
            ("INCLINT", Takes::Value),
        ],
    )
    .map_err(|e| context.syntax(e))?;
    let Some((token, Some(value))) = found.iter().find(|(token, _)| token.keyword == "TYPE") else {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'TYPE' is missing",
            object.position + object.keyword.chars().count(),
        )));
    };
    let types = ["EXPIRY", "CONFIGEV", "EARLY", "PROXYSUB"];
    let refresh_type = choice(token, value, &types).map_err(|e| context.syntax(e))?;
    if refresh_type == 1 {
        return refresh_configuration(context, &found);
    }
    if refresh_type != 0 {
        return Err(Failure(vec![format!(
            "CSQ9032E {} CSQMREFR Requested function is not available: TYPE({})",
            context.name, value.text
        )]));
    }
    for keyword in ["OBJECT", "INCLINT"] {
        if let Some((token, _)) = found.iter().find(|(token, _)| token.keyword == keyword) {
            return Err(context.syntax(SyntaxError::new(
                format!("CSQ9001E '{keyword}' is valid only with TYPE(CONFIGEV)"),
                token.position,
            )));
        }
    }
    if let Some((token, Some(value))) = found.iter().find(|(token, _)| token.keyword == "NAME") {
        if value.text != "*" {
            return Err(context.syntax(value_error(
                token,
                value,
                "the expiry scan covers every queue: only NAME(*) is supported",
            )));
        }
    }
    let deleted = context
        .queue_manager
        .expire_messages()
        .map_err(|error| context.storage("CSQMREFR", error))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQM572I {} CSQMREFR EXPIRY SCAN COMPLETE, {deleted} EXPIRED MESSAGES DELETED",
        context.name
    ));
    Ok(output)
}

/// OBJECT values of REFRESH QMGR TYPE(CONFIGEV) that Ferrite has objects for.
const REFRESH_OBJECTS: [&str; 13] = [
    "ALL", "QUEUE", "QLOCAL", "QMODEL", "QALIAS", "QREMOTE", "NAMELIST", "PROCESS", "STGCLASS",
    "CHANNEL", "AUTHINFO", "QMGR", "TOPIC",
];

/// REFRESH QMGR TYPE(CONFIGEV) [OBJECT(type)] [NAME(generic)] [INCLINT(0)]: a Refresh object
/// configuration event for every object selected (events.rs). CONFIGEV must be ENABLED.
fn refresh_configuration(context: &Context, found: &Found) -> Outcome {
    let value_of = |keyword: &str| {
        found
            .iter()
            .find(|(token, _)| token.keyword == keyword)
            .and_then(|(token, value)| value.map(|value| (*token, value)))
    };
    let object = match value_of("OBJECT") {
        Some((token, value)) => {
            REFRESH_OBJECTS
                [choice(token, value, &REFRESH_OBJECTS).map_err(|e| context.syntax(e))?]
        }
        None => "ALL",
    };
    let name = match value_of("NAME") {
        Some((token, value)) => {
            let generic = Token {
                keyword: token.keyword.clone(),
                value: Some(value.clone()),
                position: token.position,
            };
            object_name(&generic, true).map_err(|e| context.syntax(e))?
        }
        None => "*".to_string(),
    };
    let include_interval_minutes = match value_of("INCLINT") {
        Some((token, value)) => number(token, value, events::INCLUDE_INTERVAL_MINUTES_MAX.into())
            .map_err(|e| context.syntax(e))? as u32,
        None => 0,
    };
    if !context
        .queue_manager
        .queue_manager_attributes()
        .config_events
    {
        return Err(Failure(vec![format!(
            "CSQM090E {} CSQMREFR FAILURE REASON CODE X'{:08X}': configuration events are disabled (MQRCCF_EVENTS_DISABLED); ALTER QMGR CONFIGEV(ENABLED) first",
            context.name,
            ferrite_constants::pcf_reason::MQRCCF_EVENTS_DISABLED
        )]));
    }
    let selection = events::RefreshSelection {
        types: match object {
            "ALL" => events::REFRESHED_TYPES.to_vec(),
            "QMGR" => Vec::new(),
            "QUEUE" => ObjectType::ALL
                .into_iter()
                .filter(|object_type| object_type.is_queue())
                .collect(),
            keyword => ObjectType::from_keyword(keyword).into_iter().collect(),
        },
        queue_manager: matches!(object, "ALL" | "QMGR"),
        name,
        include_interval_minutes,
    };
    let put = events::refresh(context, &selection);
    let mut output = Output::default();
    output.line(format!(
        "CSQM574I {} CSQMREFR {put} CONFIGURATION EVENT MESSAGES PUT ON {}",
        context.name,
        events::CONFIG_EVENT_QUEUE
    ));
    Ok(output)
}
