//! SET AUTHREC, DELETE AUTHREC, DISPLAY AUTHREC and DISPLAY ENTAUTH: authority records, as
//! MQ for Multiplatforms' MQSC has them (`ferrite_queue_manager::security::authorization`
//! keeps the records and makes the checks).
//!
//! ```text
//! SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') | GROUP('apps')
//!             AUTHADD(PUT,GET,...) AUTHRMV(...)            (OBJTYPE(QMGR): no PROFILE)
//! DELETE AUTHREC PROFILE(..) OBJTYPE(..) PRINCIPAL(..) | GROUP(..)
//! DISPLAY AUTHREC [PROFILE(..)] [OBJTYPE(..)] [PRINCIPAL(..) | GROUP(..)]
//!                 [MATCH(PROFILE|EXACT|MEMBERSHIP)] [ALL]
//! DISPLAY ENTAUTH OBJNAME(..) OBJTYPE(..) PRINCIPAL(..) | GROUP(..) [ALL]
//! ```
//!
//! Names are MQSC values: an unquoted name is upper-cased, so quote user and group names
//! (`PRINCIPAL('app')`). An authority that the object type does not have (CONNECT on a
//! queue) is refused; ALL, ALLADM and ALLMQI stand for the type's own. DISPLAY AUTHREC
//! answers one AMQ8864I per record (PROFILE ENTITY ENTTYPE OBJTYPE AUTHLIST), MATCH(PROFILE)
//! (the default) the records whose profiles match the name given (generic ones included),
//! EXACT those of that very profile, MEMBERSHIP those of the principal and of its groups;
//! DISPLAY ENTAUTH answers AMQ8866I with what the entity may do to the object (a
//! principal's own authority with its groups', or an administrator's every one).

use ferrite_queue_manager::objects::authority_record::{
    authority_from_keyword, authority_keywords, check_profile, valid_authorities_for,
    AuthorityObjectType, AuthorityRecord, Entity,
};
use ferrite_queue_manager::ConnectingUser;

use crate::context::{
    choice, exclusive, keywords, value_error, Context, Failure, Found, Outcome, Output, Takes,
};
use crate::parser::{SyntaxError, Token, Value};

const SET_KEYWORDS: &[(&str, Takes)] = &[
    ("PROFILE", Takes::Value),
    ("OBJTYPE", Takes::Value),
    ("PRINCIPAL", Takes::Value),
    ("GROUP", Takes::Value),
    ("AUTHADD", Takes::Value),
    ("AUTHRMV", Takes::Value),
    ("SERVCOMP", Takes::Value),
];

const DELETE_KEYWORDS: &[(&str, Takes)] = &[
    ("PROFILE", Takes::Value),
    ("OBJTYPE", Takes::Value),
    ("PRINCIPAL", Takes::Value),
    ("GROUP", Takes::Value),
    ("SERVCOMP", Takes::Value),
];

const DISPLAY_KEYWORDS: &[(&str, Takes)] = &[
    ("PROFILE", Takes::Value),
    ("OBJTYPE", Takes::Value),
    ("PRINCIPAL", Takes::Value),
    ("GROUP", Takes::Value),
    ("MATCH", Takes::Value),
    ("ALL", Takes::Nothing),
    ("SERVCOMP", Takes::Value),
];

const ENTAUTH_KEYWORDS: &[(&str, Takes)] = &[
    ("OBJNAME", Takes::Value),
    ("OBJTYPE", Takes::Value),
    ("PRINCIPAL", Takes::Value),
    ("GROUP", Takes::Value),
    ("ALL", Takes::Nothing),
    ("SERVCOMP", Takes::Value),
];

/// The value of `keyword` among `found`, with its token.
fn get<'t>(found: &Found<'t>, keyword: &str) -> Option<(&'t Token, &'t Value)> {
    found
        .iter()
        .find(|(token, _)| token.keyword == keyword)
        .and_then(|(token, value)| value.map(|value| (*token, value)))
}

fn missing(object: &Token, keyword: &str, why: &str) -> SyntaxError {
    SyntaxError::new(
        format!("CSQ9010E Required parameter '{keyword}' is missing: {why}"),
        object.position + object.keyword.chars().count(),
    )
}

/// The keywords of a command on authority records: the object keyword takes no value.
fn parse<'t>(
    context: &Context,
    object: &Token,
    rest: &'t [Token],
    allowed: &[(&str, Takes)],
) -> Result<Found<'t>, Failure> {
    let syntax = |e| context.syntax(e);
    if let Some(value) = &object.value {
        return Err(syntax(value_error(
            object,
            value,
            "the profile is given by PROFILE (or OBJNAME), not in parentheses here",
        )));
    }
    let found = keywords(rest, allowed).map_err(syntax)?;
    exclusive(&found, "PRINCIPAL", "GROUP").map_err(syntax)?;
    Ok(found)
}

/// OBJTYPE, when given.
fn object_type(context: &Context, found: &Found) -> Result<Option<AuthorityObjectType>, Failure> {
    let Some((token, value)) = get(found, "OBJTYPE") else {
        return Ok(None);
    };
    AuthorityObjectType::from_keyword(&value.text)
        .map(Some)
        .ok_or_else(|| {
            let names: Vec<&str> = AuthorityObjectType::ALL
                .iter()
                .map(|object_type| object_type.keyword())
                .collect();
            context.syntax(value_error(
                token,
                value,
                &format!("OBJTYPE is one of {}", names.join(", ")),
            ))
        })
}

/// PRINCIPAL or GROUP, when given.
fn entity(found: &Found) -> Option<Entity> {
    get(found, "PRINCIPAL")
        .map(|(_, value)| Entity::Principal(value.text.clone()))
        .or_else(|| get(found, "GROUP").map(|(_, value)| Entity::Group(value.text.clone())))
}

/// The profile a record is named by: PROFILE, or the queue manager's name for OBJTYPE(QMGR)
/// (which takes no PROFILE but its own name).
fn record_profile(
    context: &Context,
    object: &Token,
    found: &Found,
    object_type: AuthorityObjectType,
) -> Result<String, Failure> {
    let given = get(found, "PROFILE");
    if object_type == AuthorityObjectType::QueueManager {
        return match given {
            Some((token, value)) if value.text != context.name => Err(context.syntax(value_error(
                token,
                value,
                "OBJTYPE(QMGR) records are for this queue manager: omit PROFILE",
            ))),
            _ => Ok(context.name.clone()),
        };
    }
    let Some((token, value)) = given else {
        return Err(context.syntax(missing(
            object,
            "PROFILE",
            "an object name or generic profile",
        )));
    };
    check_profile(&value.text)
        .map_err(|error| context.syntax(value_error(token, value, &error.to_string())))?;
    Ok(value.text.clone())
}

/// AUTHADD or AUTHRMV's list: MQSC's authority keywords, separated by commas.
fn authority_list(
    context: &Context,
    token: &Token,
    value: &Value,
    object_type: AuthorityObjectType,
    profile: &str,
) -> Result<u32, Failure> {
    let valid = valid_authorities_for(object_type, profile);
    let mut authorities = 0;
    for keyword in value.raw.split(',').map(|k| k.trim().trim_matches('\'')) {
        let Some(bits) = authority_from_keyword(keyword) else {
            return Err(context.syntax(value_error(
                token,
                value,
                &format!("'{keyword}' is not an authority (ALL, ALLADM, ALLMQI, NONE, ALTUSR, BROWSE, CHG, CLR, CONNECT, CRT, CTRL, CTRLX, DLT, DSP, GET, INQ, PASSALL, PASSID, PUB, PUT, RESUME, SET, SETALL, SETID, SUB, SYSTEM)"),
            )));
        };
        let grouped = ["ALL", "ALLADM", "ALLMQI"]
            .iter()
            .any(|group| group.eq_ignore_ascii_case(keyword));
        if !grouped && bits & !valid != 0 {
            return Err(context.syntax(value_error(
                token,
                value,
                &format!(
                    "{} does not apply to OBJTYPE({}), whose authorities are {}",
                    keyword.to_uppercase(),
                    object_type.keyword(),
                    authority_keywords(valid).join(",")
                ),
            )));
        }
        authorities |= bits & valid;
    }
    Ok(authorities)
}

fn required<T>(
    context: &Context,
    object: &Token,
    value: Option<T>,
    keyword: &str,
    why: &str,
) -> Result<T, Failure> {
    value.ok_or_else(|| context.syntax(missing(object, keyword, why)))
}

/// SET AUTHREC.
pub(crate) fn set(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let found = parse(context, object, rest, SET_KEYWORDS)?;
    let object_type = required(
        context,
        object,
        object_type(context, &found)?,
        "OBJTYPE",
        "the type of object the profile is for",
    )?;
    let profile = record_profile(context, object, &found, object_type)?;
    let entity = required(
        context,
        object,
        entity(&found),
        "PRINCIPAL",
        "PRINCIPAL or GROUP names whom the record is for",
    )?;
    let add = get(&found, "AUTHADD");
    let remove = get(&found, "AUTHRMV");
    if add.is_none() && remove.is_none() {
        return Err(context.syntax(missing(
            object,
            "AUTHADD",
            "AUTHADD or AUTHRMV says which authorities change",
        )));
    }
    let list = |given: Option<(&Token, &Value)>| match given {
        Some((token, value)) => authority_list(context, token, value, object_type, &profile),
        None => Ok(0),
    };
    let (add, remove) = (list(add)?, list(remove)?);
    context
        .queue_manager
        .set_authority_record(&profile, object_type, entity, add, remove)
        .map_err(|error| context.storage("CSQMSAUT", error))?;
    Ok(Output::default())
}

/// DELETE AUTHREC.
pub(crate) fn delete(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let found = parse(context, object, rest, DELETE_KEYWORDS)?;
    let object_type = required(
        context,
        object,
        object_type(context, &found)?,
        "OBJTYPE",
        "the type of object the profile is for",
    )?;
    let profile = record_profile(context, object, &found, object_type)?;
    let entity = required(
        context,
        object,
        entity(&found),
        "PRINCIPAL",
        "PRINCIPAL or GROUP names whom the record is for",
    )?;
    context
        .queue_manager
        .delete_authority_record(&profile, object_type, &entity)
        .map_err(|error| context.storage("CSQMSAUT", error))?;
    Ok(Output::default())
}

/// A record's attributes as DISPLAY AUTHREC shows them.
fn shown(record: &AuthorityRecord) -> Vec<String> {
    vec![
        format!("PROFILE({})", record.profile),
        format!("ENTITY({})", record.entity.name()),
        format!("ENTTYPE({})", record.entity.keyword()),
        format!("OBJTYPE({})", record.object_type.keyword()),
        format!("AUTHLIST({})", authority_list_text(record.authorities)),
    ]
}

fn authority_list_text(authorities: u32) -> String {
    let keywords = authority_keywords(authorities);
    if keywords.is_empty() {
        "NONE".to_string()
    } else {
        keywords.join(",")
    }
}

/// DISPLAY AUTHREC.
pub(crate) fn display(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let found = parse(context, object, rest, DISPLAY_KEYWORDS)?;
    let object_type = object_type(context, &found)?;
    let entity = entity(&found);
    let profile = get(&found, "PROFILE").map(|(_, value)| value.text.clone());
    let matches = ["PROFILE", "EXACT", "MEMBERSHIP"];
    let how = match get(&found, "MATCH") {
        Some((token, value)) => {
            matches[choice(token, value, &matches).map_err(|e| context.syntax(e))?]
        }
        None => "PROFILE",
    };
    let entities: Option<Vec<Entity>> = match (&entity, how) {
        (Some(Entity::Principal(name)), "MEMBERSHIP") => {
            let principal = context
                .queue_manager
                .principal(&ConnectingUser::asserted(name));
            Some(
                std::iter::once(Entity::Principal(name.clone()))
                    .chain(principal.groups.into_iter().map(Entity::Group))
                    .collect(),
            )
        }
        (None, "MEMBERSHIP") => {
            return Err(context.syntax(missing(object, "PRINCIPAL", "MATCH(MEMBERSHIP) needs it")))
        }
        (Some(entity), _) => Some(vec![entity.clone()]),
        (None, _) => None,
    };
    let records = context.queue_manager.authority_records();
    let chosen = records.select(
        object_type,
        entities.as_deref(),
        profile.as_deref(),
        how == "EXACT",
    );
    let mut output = Output::default();
    for record in &chosen {
        output.attributes(format!("AMQ8864I {}", context.name), shown(record), None);
    }
    if chosen.is_empty() {
        output.line(format!(
            "CSQM297I {} CSQMDRTS NO AUTHREC FOUND MATCHING REQUEST CRITERIA",
            context.name
        ));
    }
    Ok(output)
}

/// DISPLAY ENTAUTH.
pub(crate) fn display_entity(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let found = parse(context, object, rest, ENTAUTH_KEYWORDS)?;
    let object_type = required(
        context,
        object,
        object_type(context, &found)?,
        "OBJTYPE",
        "the type of the object",
    )?;
    let entity = required(
        context,
        object,
        entity(&found),
        "PRINCIPAL",
        "PRINCIPAL or GROUP names whom the record is for",
    )?;
    let name = if object_type == AuthorityObjectType::QueueManager {
        context.name.clone()
    } else {
        let (_, value) = required(
            context,
            object,
            get(&found, "OBJNAME"),
            "OBJNAME",
            "the object's name",
        )?;
        value.text.clone()
    };
    let queue_manager = context.queue_manager;
    let authorities = match &entity {
        Entity::Principal(user) => {
            let principal = queue_manager.principal(&ConnectingUser::asserted(user));
            queue_manager.authority_of(&principal, object_type, &name)
                & object_type.valid_authorities()
        }
        Entity::Group(_) => queue_manager
            .authority_records()
            .entity_authority(&entity, object_type, &name)
            .map_or(0, |record| record.authorities),
    };
    let mut output = Output::default();
    output.attributes(
        format!("AMQ8866I {}", context.name),
        vec![
            format!("ENTITY({})", entity.name()),
            format!("ENTTYPE({})", entity.keyword()),
            format!("OBJNAME({name})"),
            format!("OBJTYPE({})", object_type.keyword()),
            format!("AUTHLIST({})", authority_list_text(authorities)),
        ],
        None,
    );
    Ok(output)
}
