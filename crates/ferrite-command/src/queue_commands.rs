//! The local queue commands of MQSC: DELETE and CLEAR QLOCAL, DISPLAY QUEUE and QSTATUS,
//! RESET QSTATS (DEFINE and ALTER are the object commands'; the attributes are
//! [`crate::queue_attributes`]').

use ferrite_constants::reason;
use ferrite_queue_manager::{now_ms, ObjectType};
use ferrite_storage::StorageError;

use crate::attributes::{generic_match, AttributeValue};
use crate::connection_commands;
use crate::context::{
    choice, exclusive, fill_object_times, is_generic, keywords, object_name, Context, Outcome,
    Output, Selection, Takes,
};
use crate::object_commands;
use crate::parser::Token;
use crate::queue_attributes::{queue_attributes, status_attributes};

pub(crate) fn delete(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let found = keywords(
        rest,
        &[
            ("PURGE", Takes::Nothing),
            ("NOPURGE", Takes::Nothing),
            ("QSGDISP", Takes::Value),
        ],
    )
    .map_err(|e| context.syntax(e))?;
    exclusive(&found, "PURGE", "NOPURGE").map_err(|e| context.syntax(e))?;
    let purge = found.iter().any(|(token, _)| token.keyword == "PURGE");
    if context.queue_manager.queue(&name).is_none() {
        return Err(context.not_found("CSQMUQLC", "QLOCAL", &name));
    }
    context
        .queue_manager
        .delete_queue(&name, purge)
        .map_err(|error| context.storage("CSQMUQLC", error))?;
    Ok(Output::default())
}

pub(crate) fn clear(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    keywords(rest, &[("QSGDISP", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let queue = context
        .queue_manager
        .queue(&name)
        .ok_or_else(|| context.not_found("CSQMUQLC", "QLOCAL", &name))?;
    // As MQ: not while an application has the queue open or messages are uncommitted.
    let status = queue.status();
    if status.open_input_count + status.open_output_count > 0 || status.uncommitted > 0 {
        return Err(context.storage(
            "CSQMUQLC",
            StorageError::mq(
                reason::MQRC_OBJECT_IN_USE,
                format!(
                    "queue {name} is open (IPPROCS {}, OPPROCS {}) or has uncommitted messages ({})",
                    status.open_input_count, status.open_output_count, status.uncommitted
                ),
            ),
        ));
    }
    context
        .queue_manager
        .clear_queue(&queue)
        .map_err(|error| context.storage("CSQMUQLC", error))?;
    // CLEAR QLOCAL is a get operation for the queue service timer (MQ).
    ferrite_mqi::service_interval_events::after_removal(context.queue_manager, &queue);
    Ok(Output::default())
}

/// DISPLAY QUEUE (every queue type, or those TYPE names) and DISPLAY QLOCAL / QMODEL / QALIAS /
/// QREMOTE (`only` that type). Objects are listed by name.
pub(crate) fn display_queue(
    context: &Context,
    only: Option<ObjectType>,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    let mut sample = match only {
        Some(ObjectType::LocalQueue) => queue_attributes(None),
        Some(object_type) => object_commands::queue_sample(object_type),
        None => object_commands::every_queue_sample(),
    };
    // Shared queues carry CFSTRUCT too (shared_queue_commands.rs).
    sample.push(("CFSTRUCT", AttributeValue::Blank));
    let extra: &[(&str, Takes)] = if only.is_some() {
        &[("QSGDISP", Takes::Value)]
    } else {
        &[("TYPE", Takes::Value), ("QSGDISP", Takes::Value)]
    };
    let (selection, extras) =
        Selection::parse(rest, &sample, extra).map_err(|e| context.syntax(e))?;
    let mut wanted: Vec<ObjectType> = match only {
        Some(object_type) => vec![object_type],
        None => vec![
            ObjectType::LocalQueue,
            ObjectType::ModelQueue,
            ObjectType::AliasQueue,
            ObjectType::RemoteQueue,
        ],
    };
    // QSGDISP: LIVE (the default) and ALL show this member's objects and the group's shared
    // queues, QMGR and PRIVATE this member's, SHARED the shared queues only.
    let (mut private, mut shared) = (true, true);
    for (token, value) in &extras {
        if token.keyword == "QSGDISP" {
            let value = value.expect("checked");
            let dispositions = ["LIVE", "ALL", "QMGR", "PRIVATE", "SHARED"];
            let chosen = choice(token, value, &dispositions).map_err(|e| context.syntax(e))?;
            (private, shared) = (chosen != 4, chosen < 2 || chosen == 4);
        }
    }
    for (token, value) in extras {
        if token.keyword == "TYPE" {
            let value = value.expect("checked");
            let types = ["QLOCAL", "ALL", "QALIAS", "QMODEL", "QREMOTE", "QCLUSTER"];
            let chosen = types[choice(token, value, &types).map_err(|e| context.syntax(e))?];
            wanted = match chosen {
                "ALL" => wanted,
                "QCLUSTER" => Vec::new(),
                keyword => ObjectType::from_keyword(keyword).into_iter().collect(),
            };
        }
    }
    let mut found: Vec<(String, Vec<(&'static str, AttributeValue)>)> = Vec::new();
    if shared && wanted.contains(&ObjectType::LocalQueue) {
        found.extend(crate::shared_queue_commands::displayed(context, &pattern)?);
    }
    if !private {
        wanted.clear();
    }
    for object_type in &wanted {
        if *object_type == ObjectType::LocalQueue {
            for queue in context.queue_manager.queues() {
                if generic_match(&pattern, &queue.name()) {
                    let mut attributes = queue_attributes(Some(&queue));
                    fill_object_times(
                        context,
                        ObjectType::LocalQueue,
                        &queue.name(),
                        &mut attributes,
                    );
                    found.push((queue.name(), attributes));
                }
            }
            continue;
        }
        for definition in context.queue_manager.objects(*object_type) {
            if generic_match(&pattern, definition.name()) {
                let mut attributes = object_commands::attributes(&definition);
                fill_object_times(context, *object_type, definition.name(), &mut attributes);
                found.push((definition.name().to_string(), attributes));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let mut output = Output::default();
    let mut count = 0;
    for (_, attributes) in found {
        if !selection.passes(&attributes) {
            continue;
        }
        count += 1;
        output.attributes(
            format!("CSQM401I {}", context.name),
            selection.render(&attributes, 3),
            None,
        );
    }
    if count == 0 {
        if !is_generic(&pattern) && selection.filter.is_none() && (!wanted.is_empty() || shared) {
            return Err(context.not_found("CSQMDRTS", "QUEUE", &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQMDRTS NO QUEUE FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
    }
    Ok(output)
}

pub(crate) fn display_status(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    // TYPE(HANDLE) shows the handles open on the queues (connection_commands.rs).
    let handles = rest.iter().any(|token| {
        token.keyword == "TYPE" && token.value.as_ref().is_some_and(|v| v.text == "HANDLE")
    });
    let sample = if handles {
        connection_commands::queue_handle_attributes("", None)
    } else {
        status_attributes(context, None, false)
    };
    // TYPE is an attribute shown, and also the keyword choosing QUEUE or HANDLE status.
    let (mut selection, extras) = Selection::parse(rest, &sample, &[("TYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    for (token, value) in extras {
        let value = value.expect("checked");
        choice(token, value, &["QUEUE", "HANDLE"]).map_err(|e| context.syntax(e))?;
    }
    if handles {
        // As MQ: a handle's attributes are all shown unless some are named.
        if selection.named.is_empty() {
            selection.all = true;
        }
        return connection_commands::display_handle_status(context, &pattern, &selection);
    }
    let message_age = selection.wants("MSGAGE");
    let mut details = Vec::new();
    for queue in context.queue_manager.queues() {
        if !generic_match(&pattern, &queue.name()) {
            continue;
        }
        let attributes = status_attributes(context, Some(&queue), message_age);
        if selection.passes(&attributes) {
            details.push(selection.render(&attributes, 4));
        }
    }
    Ok(Output::found_each(
        &context.name,
        "CSQMDRTC",
        "QSTATUS",
        details,
    ))
}

pub(crate) fn reset_qstats(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    let queues: Vec<_> = context
        .queue_manager
        .queues()
        .into_iter()
        .filter(|queue| generic_match(&pattern, &queue.name()))
        .collect();
    let mut output = Output::default();
    if queues.is_empty() {
        if !is_generic(&pattern) {
            return Err(context.not_found("CSQMRQST", "QLOCAL", &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQMRQST NO QLOCAL FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
        return Ok(output);
    }
    let now = now_ms();
    for queue in queues {
        let statistics = queue.reset_statistics(now);
        output.details(
            format!("CSQM201I {} CSQMRQST RESET QSTATS DETAILS", context.name),
            vec![
                format!("QSTATS({})", queue.name()),
                "QSGDISP(QMGR)".to_string(),
                format!(
                    "RESETINT({})",
                    now.saturating_sub(statistics.reset_ms) / 1000
                ),
                format!("HIQDEPTH({})", statistics.high_depth),
                format!("MSGSIN({})", statistics.messages_in),
                format!("MSGSOUT({})", statistics.messages_out),
            ],
            "END QSTATS DETAILS",
        );
    }
    Ok(output)
}
