//! MQCMD_SET_CHLAUTH_REC (Set Channel Authentication Record) and MQCMD_INQUIRE_CHLAUTH_RECS
//! (Inquire Channel Authentication Records): the PCF forms of SET CHLAUTH and DISPLAY CHLAUTH,
//! as tools such as dmpmqcfg and MQ Explorer send them. Both run on the records and rules of
//! `ferrite_queue_manager::security::channel_authentication`, and the inquiry chooses records
//! with the function DISPLAY CHLAUTH uses (`channel_authentication_commands::matching_records`),
//! so the two interfaces agree.
//!
//! ## Set: request parameters
//! | parameter | structure, identifier | |
//! |---|---|---|
//! | ProfileName | MQCFST MQCACH_CHANNEL_NAME | required; a generic channel name |
//! | Type | MQCFIN MQIACF_CHLAUTH_TYPE | required: MQCAUT_BLOCKUSER, _BLOCKADDR, _ADDRESSMAP, _USERMAP |
//! | Action | MQCFIN MQIACF_ACTION | MQACT_ADD (default), _REPLACE, _REMOVE, _REMOVEALL |
//! | UserList | MQCFSL MQCACH_MCA_USER_ID_LIST | BLOCKUSER |
//! | AddrList | MQCFSL MQCACH_CONNECTION_NAME_LIST | BLOCKADDR |
//! | Address | MQCFST MQCACH_CONNECTION_NAME | ADDRESSMAP (required), USERMAP |
//! | ClntUser | MQCFST MQCACH_CLIENT_USER_ID | USERMAP (required) |
//! | UserSrc | MQCFIN MQIACH_USER_SOURCE | maps: MQUSRC_MAP (default), _NOACCESS, _CHANNEL |
//! | MCAUser | MQCFST MQCACH_MCA_USER_ID | maps, with MQUSRC_MAP |
//! | Warn | MQCFIN MQIACH_WARNING | MQWARN_NO (default), MQWARN_YES |
//! | Description | MQCFST MQCA_CHLAUTH_DESC | |
//! | CommandScope | MQCFST MQCACF_COMMAND_SCOPE | accepted, ignored (no queue sharing group) |
//!
//! Faults, each naming the parameter (MQIACF_PARAMETER_ID): a Type Ferrite does not keep
//! (SSLPEERMAP, QMGRMAP) or does not know, MQRCCF_CHLAUTH_TYPE_ERROR; an Action not known,
//! MQRCCF_CHLAUTH_ACTION_ERROR; a UserSrc not known, MQRCCF_CHLAUTH_USERSRC_ERROR; a Warn not
//! known, MQRCCF_CHLAUTH_WARN_ERROR; a parameter the Type does not take,
//! MQRCCF_WRONG_CHLAUTH_TYPE; MCAUser with a UserSrc other than MAP,
//! MQRCCF_WRONG_CHLAUTH_USERSRC; a required parameter missing (MCAUser with MQUSRC_MAP
//! included), MQRCCF_PARM_MISSING; a profile that is not a generic channel name (or not `*`
//! for BLOCKADDR), MQRCCF_CHLAUTH_NAME_ERROR; a ClntUser not valid,
//! MQRCCF_CHLAUTH_CLNTUSER_ERROR; any other value the record's rules refuse (an address
//! pattern, a list empty or too long, a description too long), MQRCCF_PARM_VALUE_ERROR. The
//! rules are the ones SET CHLAUTH applies (`ChannelAuthenticationRecord::fault`). ACTION(ADD) of a mapping record that exists answers
//! MQRCCF_CHLAUTH_ALREADY_EXISTS, ACTION(REMOVE) of one that does not,
//! MQRCCF_CHLAUTH_NOT_FOUND. A successful Set answers one response without parameters.
//!
//! ## Inquire: request parameters
//! ProfileName (optional, generic; default `*`), Type (MQCAUT_ALL, the default, or one type),
//! Match (MQIACH_MATCH: MQMATCH_GENERIC, the default, _EXACT, _ALL, _RUNCHECK), Address and
//! ClntUser (only with MQMATCH_RUNCHECK, which needs Address as an IP address and a
//! ProfileName that is not generic: MQRCCF_WRONG_CHLAUTH_MATCH otherwise), ChannelAuthAttrs
//! (MQIACF_CHLAUTH_ATTRS, MQCFIL: which parameters to return; MQIACF_ALL all), one MQCFIF or
//! MQCFSF filter, CommandScope.
//!
//! ## Inquire: responses
//! One per record: MQCACH_CHANNEL_NAME (the profile) and MQIACF_CHLAUTH_TYPE always, then
//! MQCA_CHLAUTH_DESC, MQIACH_WARNING, and by type MQCACH_MCA_USER_ID_LIST (BLOCKUSER),
//! MQCACH_CONNECTION_NAME_LIST (BLOCKADDR), or MQCACH_CLIENT_USER_ID (USERMAP),
//! MQCACH_CONNECTION_NAME, MQIACH_USER_SOURCE and MQCACH_MCA_USER_ID (the maps). No record
//! matching answers MQRCCF_CHLAUTH_NOT_FOUND (a filter excluding every record,
//! MQRCCF_NONE_FOUND). A filter on a parameter that only other types have (MQIACH_USER_SOURCE
//! on a BLOCKUSER record) excludes the record. The records keep no alteration date or time, so MQCA_ALTERATION_DATE
//! and _TIME are not returned.

use ferrite_constants::{misc::*, pcf_reason::*, pcf_selector::*, reason::*, selector::*};
use ferrite_queue_manager::security::channel_authentication::{
    ChannelAuthenticationAction, ChannelAuthenticationRecord, ChannelAuthenticationType, UserSource,
};

use super::{ignorable, Context, Inquiry, Parameter, PcfFailure, Request, Responses};
use crate::channel_authentication_commands::{matching_records, Selection};

/// The parameters a record of each type may be set with, besides those every type takes.
fn takes(record_type: ChannelAuthenticationType) -> &'static [i32] {
    match record_type {
        ChannelAuthenticationType::BlockUser => &[MQCACH_MCA_USER_ID_LIST],
        ChannelAuthenticationType::BlockAddress => &[MQCACH_CONNECTION_NAME_LIST],
        ChannelAuthenticationType::AddressMap => &[
            MQCACH_CONNECTION_NAME,
            MQIACH_USER_SOURCE,
            MQCACH_MCA_USER_ID,
        ],
        ChannelAuthenticationType::UserMap => &[
            MQCACH_CLIENT_USER_ID,
            MQCACH_CONNECTION_NAME,
            MQIACH_USER_SOURCE,
            MQCACH_MCA_USER_ID,
        ],
    }
}

/// Parameters that only some types take (checked against [`takes`]).
const TYPE_PARAMETERS: [i32; 6] = [
    MQCACH_MCA_USER_ID_LIST,
    MQCACH_CONNECTION_NAME_LIST,
    MQCACH_CONNECTION_NAME,
    MQCACH_CLIENT_USER_ID,
    MQIACH_USER_SOURCE,
    MQCACH_MCA_USER_ID,
];

fn record_type(value: i32) -> Option<ChannelAuthenticationType> {
    Some(match value {
        MQCAUT_BLOCKUSER => ChannelAuthenticationType::BlockUser,
        MQCAUT_BLOCKADDR => ChannelAuthenticationType::BlockAddress,
        MQCAUT_ADDRESSMAP => ChannelAuthenticationType::AddressMap,
        MQCAUT_USERMAP => ChannelAuthenticationType::UserMap,
        _ => return None,
    })
}

fn type_value(record_type: ChannelAuthenticationType) -> i32 {
    match record_type {
        ChannelAuthenticationType::BlockUser => MQCAUT_BLOCKUSER,
        ChannelAuthenticationType::BlockAddress => MQCAUT_BLOCKADDR,
        ChannelAuthenticationType::AddressMap => MQCAUT_ADDRESSMAP,
        ChannelAuthenticationType::UserMap => MQCAUT_USERMAP,
    }
}

fn user_source_value(source: UserSource) -> i32 {
    match source {
        UserSource::Map => MQUSRC_MAP,
        UserSource::NoAccess => MQUSRC_NOACCESS,
        UserSource::Channel => MQUSRC_CHANNEL,
    }
}

/// A string list parameter's entries (MQCFSL), blank-padded entries trimmed.
fn strings(request: &Request, id: i32) -> Result<Option<Vec<String>>, PcfFailure> {
    match request.find(id) {
        None => Ok(None),
        Some(Parameter::StringList { values, .. }) => Ok(Some(
            values
                .iter()
                .map(|value| value.trim_end().to_string())
                .filter(|value| !value.is_empty())
                .collect(),
        )),
        Some(other) => Err(super::unknown_parameter(other)),
    }
}

/// A string parameter's value with MQ's blank padding removed.
fn text(request: &Request, id: i32) -> Result<Option<String>, PcfFailure> {
    Ok(request
        .string(id)?
        .map(|value| value.trim_end().to_string()))
}

pub(super) fn set(context: &Context, request: &Request) -> Responses {
    let common = [
        MQCACH_CHANNEL_NAME,
        MQIACF_CHLAUTH_TYPE,
        MQIACF_ACTION,
        MQIACH_WARNING,
        MQCA_CHLAUTH_DESC,
    ];
    request
        .check(|p| ignorable(p) || common.contains(&p.id()) || TYPE_PARAMETERS.contains(&p.id()))?;
    let profile = text(request, MQCACH_CHANNEL_NAME)?
        .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_MISSING, MQCACH_CHANNEL_NAME))?;
    let type_given = request
        .integer(MQIACF_CHLAUTH_TYPE)?
        .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_MISSING, MQIACF_CHLAUTH_TYPE))?;
    let record_type = record_type(type_given)
        .ok_or_else(|| PcfFailure::parameter(MQRCCF_CHLAUTH_TYPE_ERROR, MQIACF_CHLAUTH_TYPE))?;
    let action = match request.integer(MQIACF_ACTION)? {
        None | Some(MQACT_ADD) => ChannelAuthenticationAction::Add,
        Some(MQACT_REPLACE) => ChannelAuthenticationAction::Replace,
        Some(MQACT_REMOVE) => ChannelAuthenticationAction::Remove,
        Some(MQACT_REMOVEALL) => ChannelAuthenticationAction::RemoveAll,
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_CHLAUTH_ACTION_ERROR,
                MQIACF_ACTION,
            ))
        }
    };
    if let Some(parameter) = request
        .parameters
        .iter()
        .find(|p| TYPE_PARAMETERS.contains(&p.id()) && !takes(record_type).contains(&p.id()))
    {
        return Err(PcfFailure::parameter(
            MQRCCF_WRONG_CHLAUTH_TYPE,
            parameter.id(),
        ));
    }
    let address = text(request, MQCACH_CONNECTION_NAME)?.unwrap_or_default();
    let client_user = text(request, MQCACH_CLIENT_USER_ID)?.unwrap_or_default();
    if action != ChannelAuthenticationAction::RemoveAll {
        let key_missing = match record_type {
            ChannelAuthenticationType::AddressMap if address.is_empty() => {
                Some(MQCACH_CONNECTION_NAME)
            }
            ChannelAuthenticationType::UserMap if client_user.is_empty() => {
                Some(MQCACH_CLIENT_USER_ID)
            }
            _ => None,
        };
        if let Some(id) = key_missing {
            return Err(PcfFailure::parameter(MQRCCF_PARM_MISSING, id));
        }
    }
    let mut record =
        ChannelAuthenticationRecord::new(&profile, record_type, &address, &client_user);
    record.user_list = strings(request, MQCACH_MCA_USER_ID_LIST)?.unwrap_or_default();
    record.address_list = strings(request, MQCACH_CONNECTION_NAME_LIST)?.unwrap_or_default();
    record.user_source = match request.integer(MQIACH_USER_SOURCE)? {
        None | Some(MQUSRC_MAP) => UserSource::Map,
        Some(MQUSRC_NOACCESS) => UserSource::NoAccess,
        Some(MQUSRC_CHANNEL) => UserSource::Channel,
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_CHLAUTH_USERSRC_ERROR,
                MQIACH_USER_SOURCE,
            ))
        }
    };
    record.mca_user = text(request, MQCACH_MCA_USER_ID)?.unwrap_or_default();
    if !record.mca_user.is_empty() && record.user_source != UserSource::Map {
        return Err(PcfFailure::parameter(
            MQRCCF_WRONG_CHLAUTH_USERSRC,
            MQCACH_MCA_USER_ID,
        ));
    }
    record.warn = match request.integer(MQIACH_WARNING)? {
        None | Some(MQWARN_NO) => false,
        Some(MQWARN_YES) => true,
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_CHLAUTH_WARN_ERROR,
                MQIACH_WARNING,
            ))
        }
    };
    record.description = text(request, MQCA_CHLAUTH_DESC)?.unwrap_or_default();
    if matches!(
        action,
        ChannelAuthenticationAction::Add | ChannelAuthenticationAction::Replace
    ) {
        if let Some(fault) = record.fault() {
            let (reason, id) = match fault.keyword {
                "USERLIST" => (MQRCCF_PARM_VALUE_ERROR, MQCACH_MCA_USER_ID_LIST),
                "ADDRLIST" => (MQRCCF_PARM_VALUE_ERROR, MQCACH_CONNECTION_NAME_LIST),
                "ADDRESS" => (MQRCCF_PARM_VALUE_ERROR, MQCACH_CONNECTION_NAME),
                "CLNTUSER" => (MQRCCF_CHLAUTH_CLNTUSER_ERROR, MQCACH_CLIENT_USER_ID),
                "MCAUSER" if record.mca_user.is_empty() => {
                    (MQRCCF_PARM_MISSING, MQCACH_MCA_USER_ID)
                }
                "MCAUSER" => (MQRCCF_PARM_VALUE_ERROR, MQCACH_MCA_USER_ID),
                "DESCR" => (MQRCCF_PARM_VALUE_ERROR, MQCA_CHLAUTH_DESC),
                _ => (MQRCCF_CHLAUTH_NAME_ERROR, MQCACH_CHANNEL_NAME),
            };
            return Err(PcfFailure::parameter(reason, id));
        }
    }
    match context
        .queue_manager
        .set_channel_authentication(record, action)
    {
        Ok(_) => Ok(vec![Vec::new()]),
        Err(error) => Err(match error.reason_code() {
            MQRC_OBJECT_ALREADY_EXISTS => PcfFailure::new(MQRCCF_CHLAUTH_ALREADY_EXISTS),
            MQRC_UNKNOWN_OBJECT_NAME => PcfFailure::new(MQRCCF_CHLAUTH_NOT_FOUND),
            _ => PcfFailure::storage(error),
        }),
    }
}

/// Every parameter an inquiry can return, of one record type or another.
const RESPONSE_PARAMETERS: [i32; 10] = [
    MQCACH_CHANNEL_NAME,
    MQIACF_CHLAUTH_TYPE,
    MQCA_CHLAUTH_DESC,
    MQIACH_WARNING,
    MQCACH_MCA_USER_ID_LIST,
    MQCACH_CONNECTION_NAME_LIST,
    MQCACH_CLIENT_USER_ID,
    MQCACH_CONNECTION_NAME,
    MQIACH_USER_SOURCE,
    MQCACH_MCA_USER_ID,
];

/// A record's response parameters, the ones its type has.
fn parameters(record: &ChannelAuthenticationRecord) -> Vec<Parameter> {
    let mut parameters = vec![
        Parameter::string(MQCACH_CHANNEL_NAME, record.profile.clone()),
        Parameter::integer(MQIACF_CHLAUTH_TYPE, type_value(record.record_type)),
        Parameter::string(MQCA_CHLAUTH_DESC, record.description.clone()),
        Parameter::integer(
            MQIACH_WARNING,
            if record.warn { MQWARN_YES } else { MQWARN_NO },
        ),
    ];
    match record.record_type {
        ChannelAuthenticationType::BlockUser => parameters.push(Parameter::StringList {
            parameter: MQCACH_MCA_USER_ID_LIST,
            values: record.user_list.clone(),
        }),
        ChannelAuthenticationType::BlockAddress => parameters.push(Parameter::StringList {
            parameter: MQCACH_CONNECTION_NAME_LIST,
            values: record.address_list.clone(),
        }),
        ChannelAuthenticationType::AddressMap | ChannelAuthenticationType::UserMap => {
            if record.record_type == ChannelAuthenticationType::UserMap {
                parameters.push(Parameter::string(
                    MQCACH_CLIENT_USER_ID,
                    record.client_user.clone(),
                ));
            }
            parameters.push(Parameter::string(
                MQCACH_CONNECTION_NAME,
                record.address.clone(),
            ));
            parameters.push(Parameter::integer(
                MQIACH_USER_SOURCE,
                user_source_value(record.user_source),
            ));
            parameters.push(Parameter::string(
                MQCACH_MCA_USER_ID,
                record.mca_user.clone(),
            ));
        }
    }
    parameters
}

pub(super) fn inquire(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p)
            || [
                MQCACH_CHANNEL_NAME,
                MQIACF_CHLAUTH_TYPE,
                MQIACH_MATCH,
                MQCACH_CONNECTION_NAME,
                MQCACH_CLIENT_USER_ID,
                MQIACF_CHLAUTH_ATTRS,
            ]
            .contains(&p.id())
    })?;
    let name = text(request, MQCACH_CHANNEL_NAME)?.unwrap_or_else(|| "*".to_string());
    if name.is_empty() {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQCACH_CHANNEL_NAME,
        ));
    }
    let type_wanted = match request.integer(MQIACF_CHLAUTH_TYPE)? {
        None | Some(MQCAUT_ALL) => None,
        Some(value) => Some(record_type(value).ok_or_else(|| {
            PcfFailure::parameter(MQRCCF_CHLAUTH_TYPE_ERROR, MQIACF_CHLAUTH_TYPE)
        })?),
    };
    let address = text(request, MQCACH_CONNECTION_NAME)?;
    let client_user = text(request, MQCACH_CLIENT_USER_ID)?;
    let how = request.integer(MQIACH_MATCH)?.unwrap_or(MQMATCH_GENERIC);
    if how != MQMATCH_RUNCHECK {
        for (id, given) in [
            (MQCACH_CONNECTION_NAME, address.is_some()),
            (MQCACH_CLIENT_USER_ID, client_user.is_some()),
        ] {
            if given {
                return Err(PcfFailure::parameter(MQRCCF_WRONG_CHLAUTH_MATCH, id));
            }
        }
    }
    let selection = match how {
        MQMATCH_GENERIC => Selection::Generic,
        MQMATCH_EXACT => Selection::Exact,
        MQMATCH_ALL => Selection::All,
        MQMATCH_RUNCHECK => {
            if name.contains('*') {
                return Err(PcfFailure::parameter(
                    MQRCCF_WRONG_CHLAUTH_MATCH,
                    MQCACH_CHANNEL_NAME,
                ));
            }
            let Some(address) = address else {
                return Err(PcfFailure::parameter(
                    MQRCCF_PARM_MISSING,
                    MQCACH_CONNECTION_NAME,
                ));
            };
            let Ok(address) = address.parse() else {
                return Err(PcfFailure::parameter(
                    MQRCCF_PARM_VALUE_ERROR,
                    MQCACH_CONNECTION_NAME,
                ));
            };
            Selection::RunCheck {
                address,
                client_user: client_user.unwrap_or_default(),
            }
        }
        _ => return Err(PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, MQIACH_MATCH)),
    };
    let inquiry = Inquiry {
        wanted: request.integers(MQIACF_CHLAUTH_ATTRS)?,
        always: &[MQCACH_CHANNEL_NAME, MQIACF_CHLAUTH_TYPE],
        filter: request.filter()?,
    };
    let records = matching_records(context.queue_manager, &name, type_wanted, &selection);
    if records.is_empty() {
        return Err(PcfFailure::new(MQRCCF_CHLAUTH_NOT_FOUND));
    }
    let mut responses = Vec::new();
    for record in &records {
        let parameters = parameters(record);
        // A filter on a parameter of other types only (UserSrc, say, on a BLOCKUSER record)
        // excludes the record; one on a parameter no record has is the filter's fault.
        if inquiry.filter.is_some_and(|filter| {
            RESPONSE_PARAMETERS.contains(&filter.id())
                && parameters.iter().all(|p| p.id() != filter.id())
        }) {
            continue;
        }
        if let Some(selected) = inquiry.select(parameters)? {
            responses.push(selected);
        }
    }
    if responses.is_empty() {
        return Err(PcfFailure::new(MQRCCF_NONE_FOUND));
    }
    Ok(responses)
}
