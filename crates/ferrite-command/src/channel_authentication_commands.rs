//! SET CHLAUTH and DISPLAY CHLAUTH: channel authentication records
//! (`ferrite_queue_manager::security::channel_authentication` has the records and the rules).
//!
//! ```text
//! SET CHLAUTH('profile') TYPE(BLOCKUSER) USERLIST('u1','u2')     [WARN(NO|YES)] [DESCR(..)] [ACTION(..)]
//! SET CHLAUTH('*')       TYPE(BLOCKADDR) ADDRLIST('10.1.*')
//! SET CHLAUTH('profile') TYPE(ADDRESSMAP) ADDRESS('10.1.*') USERSRC(MAP|CHANNEL|NOACCESS) [MCAUSER(u)]
//! SET CHLAUTH('profile') TYPE(USERMAP) CLNTUSER('alice') [ADDRESS(..)] USERSRC(..) [MCAUSER(u)]
//! ACTION(ADD|REPLACE|REMOVE|REMOVEALL), ADD the default
//! DISPLAY CHLAUTH('generic') [TYPE(ALL|BLOCKUSER|BLOCKADDR|ADDRESSMAP|USERMAP)]
//!         [MATCH(GENERIC|EXACT|ALL)] | MATCH(RUNCHECK) ADDRESS(a) CLNTUSER(u)  [ALL]
//! ```
//!
//! DISPLAY answers one `AMQ8878I` message per record (MQ's "Display channel authentication
//! record details"), its attributes as DISPLAY CHLAUTH ALL shows them, ALTDATE and ALTTIME
//! last (the record's image carries them, as every object's does); none found is
//! `AMQ8884I`-style CSQM297I. MATCH(GENERIC) (the default) compares the given name, `*` a
//! wildcard, with the records' profiles; EXACT takes it literally; ALL lists the records
//! whose profiles match the channel name given; RUNCHECK shows the record that would decide
//! a connection to that channel from ADDRESS as CLNTUSER.

use std::net::IpAddr;

use ferrite_queue_manager::security::channel_authentication::{
    generic_matches, ChannelAuthenticationAction, ChannelAuthenticationRecord,
    ChannelAuthenticationType, ConnectionToCheck, UserSource,
};
use ferrite_queue_manager::{ObjectType, QueueManager};

use crate::attributes::AttributeValue;
use crate::context::{choice, keywords, value_error, Context, Failure, Outcome, Output, Takes};
use crate::parser::{SyntaxError, Token, Value};

const SET_KEYWORDS: &[(&str, Takes)] = &[
    ("TYPE", Takes::Value),
    ("USERLIST", Takes::Value),
    ("ADDRLIST", Takes::Value),
    ("ADDRESS", Takes::Value),
    ("CLNTUSER", Takes::Value),
    ("USERSRC", Takes::Value),
    ("MCAUSER", Takes::Value),
    ("WARN", Takes::Value),
    ("DESCR", Takes::Value),
    ("ACTION", Takes::Value),
    ("CMDSCOPE", Takes::Value),
];

const DISPLAY_KEYWORDS: &[(&str, Takes)] = &[
    ("TYPE", Takes::Value),
    ("MATCH", Takes::Value),
    ("ADDRESS", Takes::Value),
    ("CLNTUSER", Takes::Value),
    ("ALL", Takes::Nothing),
    ("CMDSCOPE", Takes::Value),
];

const TYPES: [&str; 4] = ["BLOCKUSER", "BLOCKADDR", "ADDRESSMAP", "USERMAP"];

fn profile(object: &Token) -> Result<String, SyntaxError> {
    match &object.value {
        Some(value) if !value.text.is_empty() => Ok(value.text.clone()),
        _ => Err(SyntaxError::new(
            "CSQ9010E Required parameter 'CHLAUTH' name is missing".to_string(),
            object.position + object.keyword.chars().count(),
        )),
    }
}

/// A USERLIST or ADDRLIST value: entries separated by commas, each quoted or not.
fn list(value: &Value) -> Vec<String> {
    value
        .raw
        .split(',')
        .map(|entry| entry.trim().trim_matches('\'').to_string())
        .filter(|entry| !entry.is_empty())
        .collect()
}

fn missing(object: &Token, keyword: &str, why: &str) -> SyntaxError {
    SyntaxError::new(
        format!("CSQ9010E Required parameter '{keyword}' is missing: {why}"),
        object.position,
    )
}

fn not_allowed(token: &Token, why: &str) -> SyntaxError {
    SyntaxError::new(
        format!("CSQ9011E '{}' is not allowed here: {why}", token.keyword),
        token.position,
    )
}

/// SET CHLAUTH.
pub(crate) fn set(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let syntax = |e| context.syntax(e);
    let profile = profile(object).map_err(syntax)?;
    let found = keywords(rest, SET_KEYWORDS).map_err(syntax)?;
    let get = |name: &str| {
        found
            .iter()
            .find(|(token, _)| token.keyword == name)
            .map(|(token, value)| (*token, value.expect("takes a value")))
    };
    let Some((type_token, type_value)) = get("TYPE") else {
        return Err(syntax(missing(object, "TYPE", "SET CHLAUTH needs TYPE")));
    };
    let record_type = ChannelAuthenticationType::from_keyword(
        TYPES[choice(type_token, type_value, &TYPES).map_err(syntax)?],
    )
    .expect("one of TYPES");
    let action = match get("ACTION") {
        Some((token, value)) => ChannelAuthenticationAction::from_keyword(
            ["ADD", "REPLACE", "REMOVE", "REMOVEALL"][choice(
                token,
                value,
                &["ADD", "REPLACE", "REMOVE", "REMOVEALL"],
            )
            .map_err(syntax)?],
        )
        .expect("checked"),
        None => ChannelAuthenticationAction::Add,
    };
    // Which keywords each type takes.
    let allowed: &[&str] = match record_type {
        ChannelAuthenticationType::BlockUser => &["USERLIST", "WARN"],
        ChannelAuthenticationType::BlockAddress => &["ADDRLIST", "WARN"],
        ChannelAuthenticationType::AddressMap => &["ADDRESS", "USERSRC", "MCAUSER", "WARN"],
        ChannelAuthenticationType::UserMap => {
            &["CLNTUSER", "ADDRESS", "USERSRC", "MCAUSER", "WARN"]
        }
    };
    for (token, _) in &found {
        let keyword = token.keyword.as_str();
        if matches!(
            keyword,
            "USERLIST" | "ADDRLIST" | "ADDRESS" | "CLNTUSER" | "USERSRC" | "MCAUSER" | "WARN"
        ) && !allowed.contains(&keyword)
        {
            return Err(syntax(not_allowed(
                token,
                &format!(
                    "TYPE({}) takes {}",
                    record_type.keyword(),
                    allowed.join(", ")
                ),
            )));
        }
        if keyword == "CMDSCOPE" {
            let value = token.value.as_ref().expect("takes a value");
            if !value.text.is_empty() && value.text != context.name {
                return Err(syntax(value_error(
                    token,
                    value,
                    "this queue manager is in no queue-sharing group",
                )));
            }
        }
    }
    let text = |name: &str| get(name).map(|(_, value)| value.text.clone());
    let address = text("ADDRESS").unwrap_or_default();
    let client_user = text("CLNTUSER").unwrap_or_default();
    let key_needs = match record_type {
        ChannelAuthenticationType::AddressMap if address.is_empty() => Some("ADDRESS"),
        ChannelAuthenticationType::UserMap if client_user.is_empty() => Some("CLNTUSER"),
        _ => None,
    };
    if let (Some(keyword), false) = (key_needs, action == ChannelAuthenticationAction::RemoveAll) {
        return Err(syntax(missing(
            object,
            keyword,
            &format!("TYPE({}) names its record by it", record_type.keyword()),
        )));
    }
    let mut record =
        ChannelAuthenticationRecord::new(&profile, record_type, &address, &client_user);
    if let Some((_, value)) = get("USERLIST") {
        record.user_list = list(value);
    }
    if let Some((_, value)) = get("ADDRLIST") {
        record.address_list = list(value);
    }
    if let Some((token, value)) = get("USERSRC") {
        let sources = ["MAP", "NOACCESS", "CHANNEL"];
        record.user_source =
            UserSource::from_keyword(sources[choice(token, value, &sources).map_err(syntax)?])
                .expect("checked");
    }
    record.mca_user = text("MCAUSER").unwrap_or_default();
    if let Some((token, value)) = get("WARN") {
        record.warn = choice(token, value, &["NO", "YES"]).map_err(syntax)? == 1;
    }
    record.description = text("DESCR").unwrap_or_default();
    if matches!(
        action,
        ChannelAuthenticationAction::Add | ChannelAuthenticationAction::Replace
    ) {
        record
            .validate()
            .map_err(|error| Failure(vec![format!("CSQM090E {} CSQMSCA {error}", context.name)]))?;
    }
    let changed = context
        .queue_manager
        .set_channel_authentication(record, action)
        .map_err(|error| context.storage("CSQMSCA", error))?;
    let mut output = Output::default();
    if action == ChannelAuthenticationAction::RemoveAll {
        output.line(format!(
            "CSQM298I {} CSQMSCA {changed} channel authentication records removed",
            context.name
        ));
    }
    Ok(output)
}

/// DISPLAY CHLAUTH.
pub(crate) fn display(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let syntax = |e| context.syntax(e);
    let name = profile(object).map_err(syntax)?;
    let found = keywords(rest, DISPLAY_KEYWORDS).map_err(syntax)?;
    let get = |keyword: &str| {
        found
            .iter()
            .find(|(token, _)| token.keyword == keyword)
            .map(|(token, value)| (*token, *value))
    };
    let type_wanted = match get("TYPE") {
        Some((token, Some(value))) => {
            let types = ["ALL", "BLOCKUSER", "BLOCKADDR", "ADDRESSMAP", "USERMAP"];
            let chosen = choice(token, value, &types).map_err(syntax)?;
            ChannelAuthenticationType::from_keyword(types[chosen])
        }
        _ => None,
    };
    let matches = ["GENERIC", "EXACT", "ALL", "RUNCHECK"];
    let how = match get("MATCH") {
        Some((token, Some(value))) => matches[choice(token, value, &matches).map_err(syntax)?],
        _ => "GENERIC",
    };
    for keyword in ["ADDRESS", "CLNTUSER"] {
        if let (Some((token, _)), false) = (get(keyword), how == "RUNCHECK") {
            return Err(syntax(not_allowed(token, "only with MATCH(RUNCHECK)")));
        }
    }
    let selection = if how == "RUNCHECK" {
        if name.contains('*') {
            return Err(syntax(value_error(
                object,
                object.value.as_ref().expect("named"),
                "MATCH(RUNCHECK) needs a channel name, not a generic one",
            )));
        }
        let Some((_, Some(address))) = get("ADDRESS") else {
            return Err(syntax(missing(
                object,
                "ADDRESS",
                "MATCH(RUNCHECK) needs it",
            )));
        };
        let Ok(ip) = address.text.parse() else {
            return Err(syntax(value_error(
                get("ADDRESS").expect("given").0,
                address,
                "an IP address is needed (not generic, not a host name)",
            )));
        };
        let client_user = get("CLNTUSER")
            .and_then(|(_, value)| value)
            .map(|value| value.text.clone())
            .unwrap_or_default();
        Selection::RunCheck {
            address: ip,
            client_user,
        }
    } else {
        match how {
            "EXACT" => Selection::Exact,
            "ALL" => Selection::All,
            _ => Selection::Generic,
        }
    };
    let records = matching_records(context.queue_manager, &name, type_wanted, &selection);
    let mut output = Output::default();
    for record in &records {
        let mut attributes = shown(record);
        // ALTDATE and ALTTIME, as MQ shows them last (blank if never recorded).
        let times = context
            .queue_manager
            .object_times(ObjectType::ChannelAuthentication, &record.key)
            .unwrap_or_default();
        let mut dates = crate::attributes::time_attributes(false);
        crate::attributes::fill_times(&mut dates, times);
        attributes.extend(dates.iter().map(|(name, value)| match value {
            AttributeValue::Text(text) => format!("{name}({text})"),
            _ => format!("{name}( )"),
        }));
        output.attributes(format!("AMQ8878I {}", context.name), attributes, None);
    }
    if records.is_empty() {
        output.line(format!(
            "CSQM297I {} CSQMDRTS NO CHLAUTH FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
    }
    Ok(output)
}

/// How DISPLAY CHLAUTH and PCF Inquire Channel Authentication Records choose records
/// (MATCH / Match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    /// The name given, `*` a wildcard, compared with the records' profiles (the default).
    Generic,
    /// The name given taken literally.
    Exact,
    /// The records whose generic profiles match the channel name given.
    All,
    /// The record that would decide a connection to the channel from `address` as
    /// `client_user` (the one that blocks it, else the mapping used), whatever the type.
    RunCheck {
        address: IpAddr,
        client_user: String,
    },
}

/// The records `selection` chooses for the name `name`, of `type_wanted` (all types when
/// `None`; RUNCHECK ignores it), in the store's order.
pub(crate) fn matching_records(
    queue_manager: &QueueManager,
    name: &str,
    type_wanted: Option<ChannelAuthenticationType>,
    selection: &Selection,
) -> Vec<ChannelAuthenticationRecord> {
    if let Selection::RunCheck {
        address,
        client_user,
    } = selection
    {
        let channel_mca_user = queue_manager
            .channel(name)
            .map(|channel| channel.mca_user)
            .unwrap_or_default();
        return queue_manager
            .channel_authentication_runcheck(&ConnectionToCheck {
                channel: name,
                address: *address,
                client_user,
                channel_mca_user: &channel_mca_user,
            })
            .into_iter()
            .collect();
    }
    queue_manager
        .channel_authentication_records()
        .into_iter()
        .filter(|record| type_wanted.is_none_or(|wanted| record.record_type == wanted))
        .filter(|record| match selection {
            Selection::Exact => record.profile == name,
            Selection::All => generic_matches(&record.profile, name),
            _ => generic_matches(name, &record.profile),
        })
        .collect()
}

/// A record's attributes as DISPLAY CHLAUTH ALL shows them, the ones its type has.
fn shown(record: &ChannelAuthenticationRecord) -> Vec<String> {
    let quoted = |list: &[String]| {
        list.iter()
            .map(|entry| format!("'{entry}'"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut attributes = vec![
        format!("CHLAUTH({})", record.profile),
        format!("TYPE({})", record.record_type.keyword()),
        format!("DESCR({})", record.description),
    ];
    match record.record_type {
        ChannelAuthenticationType::BlockUser => {
            attributes.push(format!("USERLIST({})", quoted(&record.user_list)));
        }
        ChannelAuthenticationType::BlockAddress => {
            attributes.push(format!("ADDRLIST({})", quoted(&record.address_list)));
        }
        ChannelAuthenticationType::AddressMap | ChannelAuthenticationType::UserMap => {
            if record.record_type == ChannelAuthenticationType::UserMap {
                attributes.push(format!("CLNTUSER({})", record.client_user));
            }
            attributes.push(format!("ADDRESS({})", record.address));
            attributes.push(format!("USERSRC({})", record.user_source.keyword()));
            attributes.push(format!("MCAUSER({})", record.mca_user));
        }
    }
    attributes.push(format!("WARN({})", if record.warn { "YES" } else { "NO" }));
    attributes
}
