//! The PCF commands that control message channels (SDR, SVR, RCVR, RQSTR), the forms of
//! START, STOP, PING, RESET and RESOLVE CHANNEL that the channel initiator carries out.
//!
//! | command | parameters | answers |
//! |---|---|---|
//! | Start Channel (MQCMD_START_CHANNEL 28) | ChannelName (required) | SDR, SVR or RQSTR with a CONNAME; MQRCCF_CHANNEL_IN_USE when it runs, MQRCCF_CHANNEL_TYPE_ERROR for another type or a blank CONNAME |
//! | Stop Channel (29) | ChannelName (required), Mode (MQIACF_MODE: MQMODE_QUIESCE, the default, or MQMODE_FORCE; MQMODE_TERMINATE is taken as FORCE) | MQRCCF_CHANNEL_NOT_ACTIVE when no instance runs |
//! | Ping Channel (26) | ChannelName (required), DataCount (MQIACH_DATA_COUNT, 16 - 32768, default 64) | a SDR or SVR with a CONNAME that is not running; MQRCCF_PING_DATA_COUNT_ERROR, MQRCCF_CHANNEL_IN_USE, MQRCCF_CHANNEL_TYPE_ERROR, MQRCCF_PING_ERROR (the partner did not answer or echo) |
//! | Reset Channel (27) | ChannelName (required), MsgSeqNumber (MQIACH_MSG_SEQUENCE_NUMBER, 1 - 999999999, default 1) | a message channel that is not running; MQRCCF_MSG_SEQ_NUMBER_ERROR, MQRCCF_CHANNEL_IN_USE, MQRCCF_CHANNEL_INDOUBT (a sender with a batch in doubt: Resolve Channel first) |
//! | Resolve Channel (39) | ChannelName (required), InDoubt (MQIACH_IN_DOUBT: MQIDO_COMMIT or MQIDO_BACKOUT, required) | a SDR or SVR that is not running; MQRCCF_INDOUBT_VALUE_ERROR, MQRCCF_CHANNEL_IN_USE |
//!
//! Every command answers MQRCCF_CHANNEL_NOT_FOUND for a channel that is not defined and
//! MQRCCF_NO_CHANNEL_INITIATOR when no channel initiator is attached; CommandScope,
//! QSGDisposition and ChannelDisposition are accepted and ignored (no queue sharing group).
//! A successful command answers with no parameters.

use ferrite_constants::{misc::*, pcf_reason::*, pcf_selector::*};
use ferrite_queue_manager::objects::message_channel::ChannelType;
use ferrite_queue_manager::ChannelDefinition;

use super::{check_name, ignorable, Context, PcfFailure, Request, Responses};
use crate::ChannelInitiator;

/// PING CHANNEL's DataCount: MQ's range and default.
const PING_DATA_COUNT_MIN: i32 = 16;
const PING_DATA_COUNT_MAX: i32 = 32_768;
const PING_DATA_COUNT_DEFAULT: i32 = 64;
/// The largest sequence number (SEQWRAP's maximum).
const SEQUENCE_NUMBER_MAX: i32 = 999_999_999;

/// The request's parameters are ChannelName, the ignorable ones and `extra`.
fn check(request: &Request, extra: &[i32]) -> Result<(), PcfFailure> {
    request.check(|p| {
        ignorable(p)
            || p.id() == MQCACH_CHANNEL_NAME
            || p.id() == MQIACH_CHANNEL_DISP
            || extra.contains(&p.id())
    })
}

/// The message channel the request names and the channel initiator to act on it.
fn message_channel<'a>(
    context: &Context<'a>,
    request: &Request,
) -> Result<(ChannelDefinition, &'a dyn ChannelInitiator), PcfFailure> {
    let name = request.required_string(MQCACH_CHANNEL_NAME)?;
    check_name(name, MQCACH_CHANNEL_NAME, false, 20)?;
    let channel = context
        .queue_manager
        .channel(name)
        .ok_or_else(|| PcfFailure::new(MQRCCF_CHANNEL_NOT_FOUND))?;
    if !channel.channel_type.is_message_channel() {
        return Err(PcfFailure::new(MQRCCF_CHANNEL_TYPE_ERROR));
    }
    let initiator = context
        .initiator
        .ok_or_else(|| PcfFailure::new(MQRCCF_NO_CHANNEL_INITIATOR))?;
    Ok((channel, initiator))
}

/// The reason for the channel initiator's refusal `error` (`otherwise` when it names none of
/// the states a command can meet).
fn refusal(error: &str, otherwise: i32) -> PcfFailure {
    let reason = if error.contains("running") {
        MQRCCF_CHANNEL_IN_USE
    } else if error.contains("in doubt") {
        MQRCCF_CHANNEL_INDOUBT
    } else {
        otherwise
    };
    PcfFailure::new(reason)
}

/// Whether `channel` is started from this end: SDR, SVR or RQSTR with a CONNAME.
fn starts_here(channel: &ChannelDefinition) -> bool {
    let kind = channel.channel_type;
    (kind.sends() || kind == ChannelType::Requester) && !channel.message.connection_names.is_empty()
}

/// MQCMD_START_CHANNEL.
pub(super) fn start(context: &Context, request: &Request) -> Responses {
    check(request, &[])?;
    let (channel, initiator) = message_channel(context, request)?;
    if !starts_here(&channel) {
        return Err(PcfFailure::new(MQRCCF_CHANNEL_TYPE_ERROR));
    }
    initiator
        .start_channel(&channel.name)
        .map_err(|error| refusal(&error, MQRCCF_COMMAND_FAILED))?;
    Ok(Vec::new())
}

/// MQCMD_STOP_CHANNEL.
pub(super) fn stop(context: &Context, request: &Request) -> Responses {
    check(request, &[MQIACF_MODE])?;
    let force = match request.integer(MQIACF_MODE)? {
        None | Some(MQMODE_QUIESCE) => false,
        Some(MQMODE_FORCE | MQMODE_TERMINATE) => true,
        Some(_) => return Err(PcfFailure::parameter(MQRCCF_MODE_VALUE_ERROR, MQIACF_MODE)),
    };
    let (channel, initiator) = message_channel(context, request)?;
    let stopped = if force {
        initiator.stop_channel_forced(&channel.name)
    } else {
        initiator.stop_channel(&channel.name)
    }
    .map_err(|error| refusal(&error, MQRCCF_COMMAND_FAILED))?;
    if stopped == 0 {
        return Err(PcfFailure::new(MQRCCF_CHANNEL_NOT_ACTIVE));
    }
    Ok(Vec::new())
}

/// MQCMD_PING_CHANNEL.
pub(super) fn ping(context: &Context, request: &Request) -> Responses {
    check(request, &[MQIACH_DATA_COUNT])?;
    let data_count = request
        .integer(MQIACH_DATA_COUNT)?
        .unwrap_or(PING_DATA_COUNT_DEFAULT);
    if !(PING_DATA_COUNT_MIN..=PING_DATA_COUNT_MAX).contains(&data_count) {
        return Err(PcfFailure::parameter(
            MQRCCF_PING_DATA_COUNT_ERROR,
            MQIACH_DATA_COUNT,
        ));
    }
    let (channel, initiator) = message_channel(context, request)?;
    if !channel.channel_type.sends() || channel.message.connection_names.is_empty() {
        return Err(PcfFailure::new(MQRCCF_CHANNEL_TYPE_ERROR));
    }
    initiator
        .ping_channel(&channel.name, data_count as usize)
        .map_err(|error| refusal(&error, MQRCCF_PING_ERROR))?;
    Ok(Vec::new())
}

/// MQCMD_RESET_CHANNEL.
pub(super) fn reset(context: &Context, request: &Request) -> Responses {
    check(request, &[MQIACH_MSG_SEQUENCE_NUMBER])?;
    let next = request.integer(MQIACH_MSG_SEQUENCE_NUMBER)?.unwrap_or(1);
    if !(1..=SEQUENCE_NUMBER_MAX).contains(&next) {
        return Err(PcfFailure::parameter(
            MQRCCF_MSG_SEQ_NUMBER_ERROR,
            MQIACH_MSG_SEQUENCE_NUMBER,
        ));
    }
    let (channel, initiator) = message_channel(context, request)?;
    initiator
        .reset_channel(&channel.name, next as u32)
        .map_err(|error| refusal(&error, MQRCCF_COMMAND_FAILED))?;
    Ok(Vec::new())
}

/// MQCMD_RESOLVE_CHANNEL.
pub(super) fn resolve(context: &Context, request: &Request) -> Responses {
    check(request, &[MQIACH_IN_DOUBT])?;
    let commit = match request.integer(MQIACH_IN_DOUBT)? {
        Some(MQIDO_COMMIT) => true,
        Some(MQIDO_BACKOUT) => false,
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_INDOUBT_VALUE_ERROR,
                MQIACH_IN_DOUBT,
            ))
        }
        None => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_COUNT_TOO_SMALL,
                MQIACH_IN_DOUBT,
            ))
        }
    };
    let (channel, initiator) = message_channel(context, request)?;
    if !channel.channel_type.sends() {
        return Err(PcfFailure::new(MQRCCF_CHANNEL_TYPE_ERROR));
    }
    initiator
        .resolve_channel(&channel.name, commit)
        .map_err(|error| refusal(&error, MQRCCF_COMMAND_FAILED))?;
    Ok(Vec::new())
}
