//! PCF's publish/subscribe inquiries: Inquire Subscription (MQCMD_INQUIRE_SUBSCRIPTION), Inquire
//! Subscription Status (MQCMD_INQUIRE_SUB_STATUS), Inquire Topic Status
//! (MQCMD_INQUIRE_TOPIC_STATUS) and Delete Subscription (MQCMD_DELETE_SUBSCRIPTION), answered
//! from what DISPLAY SUB, SBSTATUS and TPSTATUS show (pubsub_commands.rs) through the PCF maps.

use ferrite_constants::{misc::*, pcf_reason::*, pcf_selector::*, reason::*, selector::*};

use super::{ignorable, Context, Inquiry, PcfFailure, Request, Responses};
use crate::pcf_attributes::{
    to_parameters, SUBSCRIPTION_MAP, SUBSCRIPTION_STATUS_MAP, TOPIC_STATUS_MAP,
};
use crate::pubsub_commands::{
    selected_subscriptions, status_attributes, subscription_attributes, topic_status_rows,
};

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
