//! Shared local queues: DEFINE, ALTER and DELETE QLOCAL with QSGDISP(SHARED), and the shared
//! queues DISPLAY QUEUE shows. A shared queue is a group object: its definition (the local
//! queue's image and CFSTRUCT, the structure that holds its messages) is kept in the group's
//! shared repository through [`QueueSharingGroup`], so a queue defined on one member is every
//! member's. As MQ: DEFINE needs CFSTRUCT naming a structure the group has; a member's own
//! (QSGDISP(QMGR)) queue of the same name refuses the shared one, and ALTER and DELETE of a
//! shared queue name QSGDISP(SHARED) (their default is QSGDISP(QMGR)). On a queue manager
//! outside a group every one of these fails with CSQ5112E.

use std::sync::Arc;

use ferrite_constants::reason::MQRC_Q_NOT_EMPTY;
use ferrite_queue_manager::{
    ObjectDefinition, ObjectType, QueueSharingGroup, SharedQueueDefinition,
};

use crate::attributes::{generic_match, AttributeValue};
use crate::cfstruct_commands::{group, group_failure, structure_name};
use crate::context::{
    exclusive, keywords, object_name, Context, Failure, Found, Outcome, Output, Takes,
};
use crate::object_commands::{apply_all, default_definition, settable};
use crate::parser::{SyntaxError, Token};
use crate::queue_attributes::queue_definition_attributes;

/// Whether a command's keywords name QSGDISP(SHARED).
pub(crate) fn names_shared(rest: &[Token]) -> bool {
    rest.iter().any(|token| {
        token.keyword == "QSGDISP"
            && token
                .value
                .as_ref()
                .is_some_and(|value| value.text == "SHARED")
    })
}

/// DEFINE or ALTER QLOCAL(name) QSGDISP(SHARED) [CFSTRUCT(structure)] and any local queue
/// attribute but LIKE.
pub(crate) fn define_or_alter(
    context: &Context,
    alter: bool,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let mut allowed = settable(ObjectType::LocalQueue);
    allowed.push(("CFSTRUCT", Takes::Value));
    if !alter {
        allowed.extend([("REPLACE", Takes::Nothing), ("NOREPLACE", Takes::Nothing)]);
    }
    let found: Found = keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
    exclusive(&found, "REPLACE", "NOREPLACE").map_err(|e| context.syntax(e))?;
    let replace = found.iter().any(|(token, _)| token.keyword == "REPLACE");
    let verb = if alter {
        "ALTER QLOCAL"
    } else {
        "DEFINE QLOCAL"
    };
    let group = group(context, verb)?;
    let existing = shared_queue(context, group, &name)?;
    let mut definition = match (existing, alter) {
        (None, true) => return Err(not_found(context, &name)),
        (Some(_), false) if !replace => return Err(already_exists(context, &name)),
        (Some(existing), true) => existing,
        (_, false) => {
            let ObjectDefinition::Local(queue) = default_definition(ObjectType::LocalQueue, &name)
            else {
                unreachable!("a local queue's default is a local queue")
            };
            SharedQueueDefinition {
                structure: String::new(),
                queue,
            }
        }
    };
    if context.queue_manager.queue(&name).is_some() {
        return Err(Failure(vec![format!(
            "CSQM095I {} CSQMMSGP QLOCAL({name}) QSGDISP(QMGR) ALREADY EXISTS",
            context.name
        )]));
    }
    apply_shared(context, &mut definition, &found, object)?;
    definition
        .queue
        .validate()
        .map_err(|error| context.storage("CSQMMSGP", error))?;
    check_structure(context, group, &definition.structure)?;
    group
        .define_shared_queue(&definition, alter || replace)
        .map_err(|error| group_failure(context, error))?;
    Ok(Output::default())
}

/// Apply the keywords to a shared queue's definition: CFSTRUCT to it, QSGDISP checked, the
/// rest to the local queue.
fn apply_shared(
    context: &Context,
    definition: &mut SharedQueueDefinition,
    found: &Found,
    object: &Token,
) -> Result<(), Failure> {
    let mut queue_keywords = Vec::new();
    for (token, value) in found {
        match (token.keyword.as_str(), value) {
            ("CFSTRUCT", _) => {
                definition.structure =
                    structure_name(token, false).map_err(|e| context.syntax(e))?
            }
            ("QSGDISP", _) => {}
            _ => queue_keywords.push((*token, *value)),
        }
    }
    let mut queue = ObjectDefinition::Local(definition.queue.clone());
    apply_all(context, &mut queue, &queue_keywords).map_err(|e| context.syntax(e))?;
    let ObjectDefinition::Local(queue) = queue else {
        unreachable!("a local queue stays a local queue")
    };
    definition.queue = queue;
    if definition.structure.is_empty() {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'CFSTRUCT' is missing (QSGDISP(SHARED))",
            object.position + object.keyword.chars().count(),
        )));
    }
    Ok(())
}

/// CFSTRUCT must name a structure the group has (DEFINE CFSTRUCT).
fn check_structure(
    context: &Context,
    group: &Arc<dyn QueueSharingGroup>,
    structure: &str,
) -> Result<(), Failure> {
    let structures = group
        .structures()
        .map_err(|error| group_failure(context, error))?;
    if structures.iter().any(|defined| defined.name == structure) {
        return Ok(());
    }
    Err(Failure(vec![format!(
        "CSQM125I {} CSQMMSGP CFSTRUCT({structure}) QSGDISP(GROUP) WAS NOT FOUND",
        context.name
    )]))
}

/// DELETE QLOCAL(name) QSGDISP(SHARED): as MQ, refused while the queue has messages
/// (MQRC_Q_NOT_EMPTY, as for a private queue; PURGE is not taken for a shared queue yet).
pub(crate) fn delete(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let allowed = [("QSGDISP", Takes::Value), ("NOPURGE", Takes::Nothing)];
    keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
    let group = group(context, "DELETE QLOCAL")?;
    let Some(shared) = shared_queue(context, group, &name)? else {
        return Err(not_found(context, &name));
    };
    let depth = group
        .shared_queue_depth(&shared.structure, &name)
        .map_err(|error| group_failure(context, error))?;
    if depth > 0 {
        let error = ferrite_storage::StorageError::mq(
            MQRC_Q_NOT_EMPTY,
            format!(
                "shared queue {name} has {depth} messages in CFSTRUCT({})",
                shared.structure
            ),
        );
        return Err(context.storage("CSQMUQLC", error));
    }
    group
        .delete_shared_queue(&name)
        .map_err(|error| group_failure(context, error))?;
    Ok(Output::default())
}

/// The group's shared queue `name`, if it has one.
fn shared_queue(
    context: &Context,
    group: &Arc<dyn QueueSharingGroup>,
    name: &str,
) -> Result<Option<SharedQueueDefinition>, Failure> {
    Ok(group
        .shared_queues()
        .map_err(|error| group_failure(context, error))?
        .into_iter()
        .find(|shared| shared.queue.name == name))
}

/// An object's attributes for DISPLAY, in display order.
type Attributes = Vec<(&'static str, AttributeValue)>;

/// The shared queues `pattern` matches, with their DISPLAY attributes (none outside a group).
pub(crate) fn displayed(
    context: &Context,
    pattern: &str,
) -> Result<Vec<(String, Attributes)>, Failure> {
    let Some(group) = context.queue_manager.queue_sharing_group() else {
        return Ok(Vec::new());
    };
    let shared = group
        .shared_queues()
        .map_err(|error| group_failure(context, error))?;
    let mut shown = Vec::new();
    for shared in shared
        .iter()
        .filter(|shared| generic_match(pattern, &shared.queue.name))
    {
        let depth = group
            .shared_queue_depth(&shared.structure, &shared.queue.name)
            .map_err(|error| group_failure(context, error))?;
        shown.push((shared.queue.name.clone(), attributes(shared, depth)));
    }
    Ok(shown)
}

/// A shared queue's attributes: the local queue's, with QSGDISP(SHARED), CFSTRUCT and
/// CURDEPTH (its visible messages in the structure).
pub(crate) fn attributes(shared: &SharedQueueDefinition, depth: u64) -> Attributes {
    let mut attributes = queue_definition_attributes(&shared.queue, "QLOCAL");
    for (name, value) in attributes.iter_mut() {
        if *name == "QSGDISP" {
            *value = AttributeValue::Keyword("SHARED");
        }
    }
    attributes.push(("CFSTRUCT", AttributeValue::Text(shared.structure.clone())));
    attributes.push(("CURDEPTH", AttributeValue::Integer(depth as i64)));
    attributes
}

fn not_found(context: &Context, name: &str) -> Failure {
    Failure(vec![format!(
        "CSQM125I {} CSQMMSGP QLOCAL({name}) QSGDISP(SHARED) WAS NOT FOUND",
        context.name
    )])
}

fn already_exists(context: &Context, name: &str) -> Failure {
    Failure(vec![format!(
        "CSQM095I {} CSQMMSGP QLOCAL({name}) QSGDISP(SHARED) ALREADY EXISTS",
        context.name
    )])
}
