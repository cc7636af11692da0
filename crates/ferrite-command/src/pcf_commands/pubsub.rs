//! PCF's publish/subscribe inquiries: Inquire Subscription (MQCMD_INQUIRE_SUBSCRIPTION), Inquire
//! Subscription Status (MQCMD_INQUIRE_SUB_STATUS), Inquire Topic Status
//! (MQCMD_INQUIRE_TOPIC_STATUS) and Delete Subscription (MQCMD_DELETE_SUBSCRIPTION), answered
//! from what DISPLAY SUB, SBSTATUS and TPSTATUS show (pubsub_commands.rs) through the PCF maps;
//! Change Subscription (MQCMD_CHANGE_SUBSCRIPTION), checked as ALTER SUB is
//! (subscription_changes.rs); Create Subscription (MQCMD_CREATE_SUBSCRIPTION) and Copy
//! Subscription (MQCMD_COPY_SUBSCRIPTION), made as DEFINE SUB and DEFINE SUB LIKE make them
//! (`pubsub_commands::new_subscription`).

use ferrite_constants::{
    expiry::MQEI_UNLIMITED, misc::*, pcf_reason::*, pcf_selector::*, priority::*, reason::*,
    selector::*,
};
use ferrite_queue_manager::objects::subscription::{PublicationProperties, SUBSCRIPTION_LEVEL_MAX};

use super::{ignorable, replace_option, Context, Inquiry, PcfFailure, Request, Responses};
use crate::pcf_attributes::{
    to_parameters, SUBSCRIPTION_MAP, SUBSCRIPTION_STATUS_MAP, TOPIC_STATUS_MAP,
};
use crate::pubsub_commands::{new_subscription, NewSubscription, NotDefined};
use crate::pubsub_commands::{
    selected_subscriptions, status_attributes, subscription_attributes, topic_status_rows,
};
use crate::subscription_changes::{named_subscription, SubscriptionChanges};

/// The SubType and Durable selections of a subscription inquiry.
fn selections(
    request: &Request,
) -> Result<(Option<&'static str>, Option<&'static str>), PcfFailure> {
    let sub_type = match request.integer(MQIACF_SUB_TYPE)? {
        None | Some(MQSUBTYPE_ALL) => None,
        Some(MQSUBTYPE_API) => Some("API"),
        Some(MQSUBTYPE_ADMIN) => Some("ADMIN"),
        Some(MQSUBTYPE_PROXY) => Some("PROXY"),
        Some(MQSUBTYPE_USER) => Some("USER"),
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_SUB_TYPE,
            ))
        }
    };
    let durable = match request.integer(MQIACF_DURABLE_SUBSCRIPTION)? {
        None | Some(MQSUB_DURABLE_ALL) => None,
        Some(MQSUB_DURABLE_YES) => Some("YES"),
        Some(MQSUB_DURABLE_NO) => Some("NO"),
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_DURABLE_SUBSCRIPTION,
            ))
        }
    };
    Ok((sub_type, durable))
}

/// Inquire Subscription (`status` false) and Inquire Subscription Status (`status` true):
/// SubName (generic, `*` when absent), SubType, Durable and the attribute list.
pub(super) fn inquire_subscriptions(
    context: &Context,
    request: &Request,
    status: bool,
) -> Responses {
    let attributes_parameter = if status {
        MQIACF_SUB_STATUS_ATTRS
    } else {
        MQIACF_SUB_ATTRS
    };
    request.check(|p| {
        ignorable(p)
            || [
                MQCACF_SUB_NAME,
                attributes_parameter,
                MQIACF_SUB_TYPE,
                MQIACF_DURABLE_SUBSCRIPTION,
            ]
            .contains(&p.id())
    })?;
    let pattern = request.string(MQCACF_SUB_NAME)?.unwrap_or("*");
    let (sub_type, durable) = selections(request)?;
    let inquiry = Inquiry {
        wanted: request.integers(attributes_parameter)?,
        always: &[MQCACF_SUB_NAME, MQBACF_SUB_ID],
        filter: request.filter()?,
    };
    let subscriptions = selected_subscriptions(context, pattern, sub_type, durable);
    if subscriptions.is_empty() && !pattern.ends_with('*') {
        return Err(PcfFailure::new(MQRC_NO_SUBSCRIPTION));
    }
    let mut responses = Vec::new();
    for subscription in &subscriptions {
        let parameters = if status {
            let attributes = status_attributes(context, subscription);
            to_parameters(&context.name, SUBSCRIPTION_STATUS_MAP, &attributes)
        } else {
            let attributes = subscription_attributes(subscription);
            to_parameters(&context.name, SUBSCRIPTION_MAP, &attributes)
        };
        if let Some(selected) = inquiry.select(parameters)? {
            responses.push(selected);
        }
    }
    if responses.is_empty() {
        return Err(PcfFailure::new(MQRCCF_NONE_FOUND));
    }
    Ok(responses)
}

/// Inquire Topic Status: TopicString (required; `#` every topic string known) and
/// TopicStatusType (MQIACF_TOPIC_STATUS, MQIACF_TOPIC_SUB or MQIACF_TOPIC_PUB).
pub(super) fn inquire_topic_status(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p)
            || [
                MQCA_TOPIC_STRING,
                MQIACF_TOPIC_STATUS_TYPE,
                MQIACF_TOPIC_STATUS_ATTRS,
            ]
            .contains(&p.id())
    })?;
    let pattern = request.required_string(MQCA_TOPIC_STRING)?;
    let kind = match request.integer(MQIACF_TOPIC_STATUS_TYPE)? {
        None | Some(MQIACF_TOPIC_STATUS) => "TOPIC",
        Some(MQIACF_TOPIC_SUB) => "SUB",
        Some(MQIACF_TOPIC_PUB) => "PUB",
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_TOPIC_STATUS_TYPE,
            ))
        }
    };
    let inquiry = Inquiry {
        wanted: request.integers(MQIACF_TOPIC_STATUS_ATTRS)?,
        always: &[MQCA_TOPIC_STRING],
        filter: request.filter()?,
    };
    let mut responses = Vec::new();
    for attributes in topic_status_rows(context, pattern, kind) {
        let parameters = to_parameters(&context.name, TOPIC_STATUS_MAP, &attributes);
        if let Some(selected) = inquiry.select(parameters)? {
            responses.push(selected);
        }
    }
    Ok(responses)
}

/// Delete Subscription: SubName (MQRC_NO_SUBSCRIPTION; MQRC_SUBSCRIPTION_IN_USE while a handle
/// has it open). A durable managed subscription's queue goes with it.
pub(super) fn delete_subscription(context: &Context, request: &Request) -> Responses {
    request.check(|p| ignorable(p) || p.id() == MQCACF_SUB_NAME)?;
    let name = request.required_string(MQCACF_SUB_NAME)?;
    let queue_manager = context.queue_manager;
    if queue_manager.subscription(name).is_none() {
        return Err(PcfFailure::new(MQRC_NO_SUBSCRIPTION));
    }
    if queue_manager.subscription_in_use(name) {
        return Err(PcfFailure::new(MQRC_SUBSCRIPTION_IN_USE));
    }
    let removed = queue_manager
        .delete_subscription(name)
        .map_err(PcfFailure::storage)?;
    if removed.managed && removed.durable {
        let _ = queue_manager.delete_queue(&removed.destination, true);
    }
    Ok(Vec::new())
}

/// The parameters Change Subscription takes.
const CHANGE_SUBSCRIPTION_PARAMETERS: &[i32] = &[
    MQCACF_SUB_NAME,
    MQBACF_SUB_ID,
    MQCACF_DESTINATION,
    MQCACF_DESTINATION_Q_MGR,
    MQBACF_DESTINATION_CORREL_ID,
    MQIACF_DESTINATION_CLASS,
    MQIACF_EXPIRY,
    MQBACF_ACCOUNTING_TOKEN,
    MQCACF_APPL_IDENTITY_DATA,
    MQIACF_PUB_PRIORITY,
    MQIACF_PUBSUB_PROPERTIES,
    MQIACF_REQUEST_ONLY,
    MQCACF_SUB_SELECTOR,
    MQCACF_SUB_USER_ID,
    MQCA_TOPIC_NAME,
    MQCA_TOPIC_STRING,
    MQCACF_SUB_USER_DATA,
    MQIACF_VARIABLE_USER_ID,
    MQIACF_WILDCARD_SCHEMA,
];

/// An integer parameter that must be one of `values`: the index of its value.
fn one_of(request: &Request, id: i32, values: &[i32]) -> Result<Option<usize>, PcfFailure> {
    match request.integer(id)? {
        None => Ok(None),
        Some(value) => values
            .iter()
            .position(|candidate| *candidate == value)
            .map(Some)
            .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, id)),
    }
}

/// A byte-string parameter of exactly `N` bytes.
fn bytes_of<const N: usize>(request: &Request, id: i32) -> Result<Option<[u8; N]>, PcfFailure> {
    match request.bytes(id)? {
        None => Ok(None),
        Some(bytes) => <[u8; N]>::try_from(bytes)
            .map(Some)
            .map_err(|_| PcfFailure::parameter(MQRCCF_CFBS_LENGTH_ERROR, id)),
    }
}

/// The changes a Change Subscription asks for, each value checked.
fn requested_changes(request: &Request) -> Result<SubscriptionChanges, PcfFailure> {
    let text = |id| request.string(id).map(|value| value.map(str::to_string));
    let mut changes = SubscriptionChanges {
        destination: text(MQCACF_DESTINATION)?,
        destination_queue_manager: text(MQCACF_DESTINATION_Q_MGR)?,
        user_data: text(MQCACF_SUB_USER_DATA)?,
        user: text(MQCACF_SUB_USER_ID)?,
        application_id: text(MQCACF_APPL_IDENTITY_DATA)?,
        topic_object: text(MQCA_TOPIC_NAME)?,
        topic_string: text(MQCA_TOPIC_STRING)?,
        selector: text(MQCACF_SUB_SELECTOR)?,
        correl_id: bytes_of::<24>(request, MQBACF_DESTINATION_CORREL_ID)?,
        accounting_token: bytes_of::<32>(request, MQBACF_ACCOUNTING_TOKEN)?,
        ..SubscriptionChanges::default()
    };
    if changes.destination.as_deref() == Some("") {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQCACF_DESTINATION,
        ));
    }
    let limit = ferrite_queue_manager::objects::subscription::PUBLICATION_APPLICATION_ID_LENGTH_MAX;
    if changes
        .application_id
        .as_ref()
        .is_some_and(|id| id.len() > limit)
    {
        return Err(PcfFailure::parameter(
            MQRCCF_CFST_STRING_LENGTH_ERR,
            MQCACF_APPL_IDENTITY_DATA,
        ));
    }
    if let Some(expiry) = request.integer(MQIACF_EXPIRY)? {
        if !(expiry == MQEI_UNLIMITED || (0..=999_999_999).contains(&expiry)) {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_EXPIRY,
            ));
        }
        changes.expiry = Some(expiry);
    }
    if let Some(priority) = request.integer(MQIACF_PUB_PRIORITY)? {
        let valid = [MQPRI_PRIORITY_AS_PUBLISHED, MQPRI_PRIORITY_AS_Q_DEF].contains(&priority)
            || (0..=9).contains(&priority);
        if !valid {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_PUB_PRIORITY,
            ));
        }
        changes.publication_priority = Some(priority);
    }
    changes.properties = one_of(
        request,
        MQIACF_PUBSUB_PROPERTIES,
        &[
            MQPSPROP_NONE,
            MQPSPROP_COMPAT,
            MQPSPROP_RFH2,
            MQPSPROP_MSGPROP,
        ],
    )?
    .map(|index| PublicationProperties::ALL[index]);
    changes.publications_on_request = one_of(
        request,
        MQIACF_REQUEST_ONLY,
        &[MQRU_PUBLISH_ALL, MQRU_PUBLISH_ON_REQUEST],
    )?
    .map(|index| index == 1);
    changes.any_user = one_of(
        request,
        MQIACF_VARIABLE_USER_ID,
        &[MQVU_FIXED_USER, MQVU_ANY_USER],
    )?
    .map(|index| index == 1);
    changes.managed = one_of(
        request,
        MQIACF_DESTINATION_CLASS,
        &[MQDC_PROVIDED, MQDC_MANAGED],
    )?
    .map(|index| index == 1);
    changes.wildcard_character =
        one_of(request, MQIACF_WILDCARD_SCHEMA, &[MQWS_TOPIC, MQWS_CHAR])?.map(|index| index == 1);
    Ok(changes)
}

/// Change Subscription: SubName, SubId or both (MQRC_NO_SUBSCRIPTION when none matches), then
/// the attributes to change, checked as ALTER SUB checks them.
pub(super) fn change_subscription(context: &Context, request: &Request) -> Responses {
    request.check(|p| ignorable(p) || CHANGE_SUBSCRIPTION_PARAMETERS.contains(&p.id()))?;
    let name = request.string(MQCACF_SUB_NAME)?;
    let id = bytes_of::<24>(request, MQBACF_SUB_ID)?;
    if name.is_none() && id.is_none() {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_COUNT_TOO_SMALL,
            MQCACF_SUB_NAME,
        ));
    }
    let changes = requested_changes(request)?;
    let queue_manager = context.queue_manager;
    let subscription =
        named_subscription(queue_manager, name, id).ok_or(PcfFailure::new(MQRC_NO_SUBSCRIPTION))?;
    let altered = changes
        .apply(queue_manager, subscription, ferrite_queue_manager::now_ms())
        .map_err(|refused| PcfFailure::new(refused.reason))?;
    queue_manager
        .define_subscription(altered, true)
        .map_err(PcfFailure::storage)?;
    Ok(Vec::new())
}

/// The parameters Create Subscription takes (Copy Subscription: these, FromSubscriptionName
/// and ToSubscriptionName in place of SubName).
const CREATE_SUBSCRIPTION_PARAMETERS: &[i32] = &[
    MQCACF_SUB_NAME,
    MQCACF_DESTINATION,
    MQCACF_DESTINATION_Q_MGR,
    MQBACF_DESTINATION_CORREL_ID,
    MQIACF_DESTINATION_CLASS,
    MQIACF_EXPIRY,
    MQBACF_ACCOUNTING_TOKEN,
    MQCACF_APPL_IDENTITY_DATA,
    MQIACF_PUB_PRIORITY,
    MQIACF_PUBSUB_PROPERTIES,
    MQIACF_REQUEST_ONLY,
    MQCACF_SUB_SELECTOR,
    MQCACF_SUB_USER_ID,
    MQCA_TOPIC_NAME,
    MQCA_TOPIC_STRING,
    MQCACF_SUB_USER_DATA,
    MQIACF_VARIABLE_USER_ID,
    MQIACF_WILDCARD_SCHEMA,
    MQIACF_SUBSCRIPTION_SCOPE,
    MQIACF_SUB_LEVEL,
    MQIACF_REPLACE,
];

/// Create Subscription (`copy` false: SubName) and Copy Subscription (`copy` true:
/// FromSubscriptionName, ToSubscriptionName): a durable administrative subscription, as DEFINE
/// SUB (LIKE) makes it. An existing one is MQRC_SUB_ALREADY_EXISTS unless Replace is MQRP_YES.
pub(super) fn create_subscription(context: &Context, request: &Request, copy: bool) -> Responses {
    let names = if copy {
        [MQCACF_FROM_SUB_NAME, MQCACF_TO_SUB_NAME]
    } else {
        [MQCACF_SUB_NAME, MQCACF_SUB_NAME]
    };
    request.check(|p| {
        ignorable(p)
            || names.contains(&p.id())
            || (p.id() != MQCACF_SUB_NAME || !copy)
                && CREATE_SUBSCRIPTION_PARAMETERS.contains(&p.id())
    })?;
    let queue_manager = context.queue_manager;
    let like = match copy {
        true => {
            let from = request.required_string(MQCACF_FROM_SUB_NAME)?;
            Some(
                queue_manager
                    .subscription(from)
                    .ok_or(PcfFailure::new(MQRC_NO_SUBSCRIPTION))?,
            )
        }
        false => None,
    };
    let name = request.required_string(names[1])?;
    let limit = ferrite_queue_manager::objects::subscription::SUBSCRIPTION_TEXT_LENGTH_MAX;
    if name.is_empty() || name.len() > limit || name.contains('*') {
        return Err(PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, names[1]));
    }
    let replace = replace_option(request)?;
    let wanted = new_subscription_request(request)?;
    let subscription = new_subscription(context, name, like.as_ref(), &wanted).map_err(
        |refusal| match refusal {
            NotDefined::UnknownTopicObject(_) | NotDefined::UnknownDestination(_) => {
                PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME)
            }
            NotDefined::Missing("DEST") => {
                PcfFailure::parameter(MQRCCF_PARM_COUNT_TOO_SMALL, MQCACF_DESTINATION)
            }
            NotDefined::Missing(_) => {
                PcfFailure::parameter(MQRCCF_PARM_COUNT_TOO_SMALL, MQCA_TOPIC_STRING)
            }
            NotDefined::Refused { reason, .. } => PcfFailure::new(reason),
        },
    )?;
    let replace = replace && queue_manager.subscription(name).is_some();
    queue_manager
        .define_subscription(subscription, replace)
        .map_err(PcfFailure::storage)?;
    Ok(Vec::new())
}

/// What a Create or Copy Subscription asks of the new subscription, each value checked.
fn new_subscription_request(request: &Request) -> Result<NewSubscription, PcfFailure> {
    let mut changes = requested_changes(request)?;
    if changes.managed == Some(true) {
        // DEFINE SUB makes subscriptions to a provided destination only.
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIACF_DESTINATION_CLASS,
        ));
    }
    let level = match request.integer(MQIACF_SUB_LEVEL)? {
        None => None,
        Some(level) => Some(
            u8::try_from(level)
                .ok()
                .filter(|level| *level <= SUBSCRIPTION_LEVEL_MAX)
                .ok_or(PcfFailure::parameter(
                    MQRCCF_PARM_VALUE_ERROR,
                    MQIACF_SUB_LEVEL,
                ))?,
        ),
    };
    let scope = one_of(
        request,
        MQIACF_SUBSCRIPTION_SCOPE,
        &[MQTSCOPE_ALL, MQTSCOPE_QMGR],
    )?
    .map(|index| index == 1);
    // What ALTER SUB may not change is what a new subscription is made with.
    Ok(NewSubscription {
        topic_object: changes.topic_object.take(),
        topic_string: changes.topic_string.take(),
        correl_id: changes.correl_id.take(),
        selector: changes.selector.take(),
        wildcard_character: changes.wildcard_character.take(),
        scope_queue_manager: scope,
        level,
        changes: SubscriptionChanges {
            managed: None,
            ..changes
        },
    })
}
