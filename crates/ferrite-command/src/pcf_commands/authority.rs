//! MQCMD_SET_AUTH_REC, MQCMD_DELETE_AUTH_REC, MQCMD_INQUIRE_AUTH_RECS and
//! MQCMD_INQUIRE_ENTITY_AUTH: the PCF forms of SET AUTHREC, DELETE AUTHREC, DISPLAY AUTHREC
//! and DISPLAY ENTAUTH (authority_commands.rs), on the same records and rules
//! (`ferrite_queue_manager::security::authorization`).
//!
//! | parameter | structure, identifier | |
//! |---|---|---|
//! | ProfileName | MQCFST MQCACF_AUTH_PROFILE_NAME | Set, Delete: required but for MQOT_Q_MGR (its own name); Inquire: optional |
//! | ObjectType | MQCFIN MQIACF_OBJECT_TYPE | required: MQOT_Q, _Q_MGR, _PROCESS, _NAMELIST, _CHANNEL, ...; Inquire also MQOT_ALL |
//! | PrincipalNames, GroupNames | MQCFSL MQCACF_PRINCIPAL_ENTITY_NAMES, _GROUP_ENTITY_NAMES | Set, Delete: one or both, each name a record |
//! | AuthorityAdd, AuthorityRemove | MQCFIL MQIACF_AUTH_ADD_AUTHS, _REMOVE_AUTHS | Set: one or both, MQAUTH_* values |
//! | Options | MQCFIN MQIACF_AUTH_OPTIONS | Inquire: MQAUTHOPT_NAME_ALL_MATCHING or _NAME_EXPLICIT, with _ENTITY_EXPLICIT or _ENTITY_SET |
//! | EntityName, EntityType | MQCFST MQCACF_ENTITY_NAME, MQCFIN MQIACF_ENTITY_TYPE | Inquire: optional, MQZAET_PRINCIPAL or _GROUP; Inquire Entity Authority: required |
//! | ObjectName | MQCFST MQCACF_OBJECT_NAME | Inquire Entity Authority: required but for MQOT_Q_MGR |
//! | ServiceComponent | MQCFST MQCACF_SERVICE_COMPONENT | accepted, ignored (one authorization service) |
//!
//! Faults name the parameter: an object type not known, MQRCCF_OBJECT_TYPE_MISSING when
//! absent, MQRCCF_PARM_VALUE_ERROR otherwise; no entity, MQRCCF_ENTITY_NAME_MISSING; an
//! entity name not valid, MQRC_UNKNOWN_ENTITY; a bad profile, MQRCCF_PROFILE_NAME_ERROR; no
//! authority list, MQRCCF_AUTH_VALUE_MISSING; an MQAUTH_* value not known or not the type's,
//! MQRCCF_AUTH_VALUE_ERROR; Delete of no such record, MQRC_UNKNOWN_OBJECT_NAME. Inquiry
//! responses, one per record: ProfileName, ObjectType, EntityName, EntityType and
//! AuthorizationList (MQIACF_AUTHORIZATION_LIST, MQAUTH_* values); no record matching answers
//! MQRC_UNKNOWN_OBJECT_NAME.

use ferrite_constants::{
    misc::*, object_type::MQOT_ALL, pcf_reason::*, pcf_selector::*, reason::*,
};
use ferrite_queue_manager::objects::authority_record::{
    authority_from_pcf, authority_pcf_values, check_entity, check_profile, valid_authorities_for,
    AuthorityObjectType, Entity,
};
use ferrite_queue_manager::ConnectingUser;

use super::{Context, Parameter, PcfFailure, Request, Responses};

fn service_component(parameter: &Parameter) -> bool {
    parameter.id() == MQCACF_SERVICE_COMPONENT
}

/// ObjectType (required); MQOT_ALL as `None` when `all` allows it.
fn object_type(request: &Request, all: bool) -> Result<Option<AuthorityObjectType>, PcfFailure> {
    match request.integer(MQIACF_OBJECT_TYPE)? {
        None => Err(PcfFailure::new(MQRCCF_OBJECT_TYPE_MISSING)),
        Some(MQOT_ALL) if all => Ok(None),
        Some(value) => AuthorityObjectType::from_mqot(value)
            .map(Some)
            .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, MQIACF_OBJECT_TYPE)),
    }
}

/// The record's profile: ProfileName, or the queue manager's name for MQOT_Q_MGR.
fn profile(
    context: &Context,
    request: &Request,
    object_type: AuthorityObjectType,
) -> Result<String, PcfFailure> {
    let given = request.string(MQCACF_AUTH_PROFILE_NAME)?.map(str::trim);
    let name = context.queue_manager.name();
    let profile = match (object_type, given) {
        (AuthorityObjectType::QueueManager, None | Some("")) => name.to_string(),
        (_, Some(profile)) => profile.to_string(),
        (_, None) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_COUNT_TOO_SMALL,
                MQCACF_AUTH_PROFILE_NAME,
            ))
        }
    };
    if check_profile(&profile).is_err()
        || (object_type == AuthorityObjectType::QueueManager && profile != name)
    {
        return Err(PcfFailure::parameter(
            MQRCCF_PROFILE_NAME_ERROR,
            MQCACF_AUTH_PROFILE_NAME,
        ));
    }
    Ok(profile)
}

fn string_list<'a>(request: &Request<'a>, id: i32) -> Result<&'a [String], PcfFailure> {
    match request.find(id) {
        None => Ok(&[]),
        Some(Parameter::StringList { values, .. }) => Ok(values.as_slice()),
        Some(other) => Err(super::unknown_parameter(other)),
    }
}

/// PrincipalNames and GroupNames: every entity named (MQRCCF_ENTITY_NAME_MISSING for none).
fn entities(request: &Request) -> Result<Vec<Entity>, PcfFailure> {
    let mut entities = Vec::new();
    for name in string_list(request, MQCACF_PRINCIPAL_ENTITY_NAMES)? {
        entities.push(Entity::Principal(name.trim().to_string()));
    }
    for name in string_list(request, MQCACF_GROUP_ENTITY_NAMES)? {
        entities.push(Entity::Group(name.trim().to_string()));
    }
    if entities.is_empty() {
        return Err(PcfFailure::new(MQRCCF_ENTITY_NAME_MISSING));
    }
    for entity in &entities {
        if check_entity(entity).is_err() {
            return Err(PcfFailure::parameter(
                MQRC_UNKNOWN_ENTITY,
                match entity {
                    Entity::Principal(_) => MQCACF_PRINCIPAL_ENTITY_NAMES,
                    Entity::Group(_) => MQCACF_GROUP_ENTITY_NAMES,
                },
            ));
        }
    }
    Ok(entities)
}

/// AuthorityAdd or AuthorityRemove: MQAUTH_* values, each one the object type has (or a
/// group value: ALL, ALLADM, ALLMQI, NONE, which stand for the type's own).
fn authorities(
    request: &Request,
    id: i32,
    object_type: AuthorityObjectType,
    profile: &str,
) -> Result<Option<u32>, PcfFailure> {
    let Some(values) = request.integers(id)? else {
        return Ok(None);
    };
    let valid = valid_authorities_for(object_type, profile);
    let mut authorities = 0;
    for value in values {
        let bits = authority_from_pcf(*value)
            .ok_or_else(|| PcfFailure::parameter(MQRCCF_AUTH_VALUE_ERROR, id))?;
        if *value > 0 && bits & !valid != 0 {
            return Err(PcfFailure::parameter(MQRCCF_AUTH_VALUE_ERROR, id));
        }
        authorities |= bits & valid;
    }
    Ok(Some(authorities))
}

/// Set Authority Record.
pub(super) fn set(context: &Context, request: &Request) -> Responses {
    request.check(|parameter| {
        matches!(
            parameter.id(),
            MQCACF_AUTH_PROFILE_NAME
                | MQIACF_OBJECT_TYPE
                | MQCACF_PRINCIPAL_ENTITY_NAMES
                | MQCACF_GROUP_ENTITY_NAMES
                | MQIACF_AUTH_ADD_AUTHS
                | MQIACF_AUTH_REMOVE_AUTHS
        ) || service_component(parameter)
    })?;
    let object_type = object_type(request, false)?.expect("MQOT_ALL not allowed");
    let profile = profile(context, request, object_type)?;
    let entities = entities(request)?;
    let add = authorities(request, MQIACF_AUTH_ADD_AUTHS, object_type, &profile)?;
    let remove = authorities(request, MQIACF_AUTH_REMOVE_AUTHS, object_type, &profile)?;
    if add.is_none() && remove.is_none() {
        return Err(PcfFailure::new(MQRCCF_AUTH_VALUE_MISSING));
    }
    for entity in entities {
        context
            .queue_manager
            .set_authority_record(
                &profile,
                object_type,
                entity,
                add.unwrap_or(0),
                remove.unwrap_or(0),
            )
            .map_err(PcfFailure::storage)?;
    }
    Ok(vec![Vec::new()])
}

/// Delete Authority Record.
pub(super) fn delete(context: &Context, request: &Request) -> Responses {
    request.check(|parameter| {
        matches!(
            parameter.id(),
            MQCACF_AUTH_PROFILE_NAME
                | MQIACF_OBJECT_TYPE
                | MQCACF_PRINCIPAL_ENTITY_NAMES
                | MQCACF_GROUP_ENTITY_NAMES
        ) || service_component(parameter)
    })?;
    let object_type = object_type(request, false)?.expect("MQOT_ALL not allowed");
    let profile = profile(context, request, object_type)?;
    for entity in entities(request)? {
        context
            .queue_manager
            .delete_authority_record(&profile, object_type, &entity)
            .map_err(PcfFailure::storage)?;
    }
    Ok(vec![Vec::new()])
}

/// EntityName and EntityType, when given (EntityType defaults to a principal).
fn inquired_entity(request: &Request) -> Result<Option<Entity>, PcfFailure> {
    let Some(name) = request.string(MQCACF_ENTITY_NAME)?.map(str::trim) else {
        return Ok(None);
    };
    match request.integer(MQIACF_ENTITY_TYPE)? {
        None | Some(MQZAET_PRINCIPAL) => Ok(Some(Entity::Principal(name.to_string()))),
        Some(MQZAET_GROUP) => Ok(Some(Entity::Group(name.to_string()))),
        Some(_) => Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIACF_ENTITY_TYPE,
        )),
    }
}

fn entity_parameters(entity: &Entity) -> [Parameter; 2] {
    [
        Parameter::string(MQCACF_ENTITY_NAME, entity.name()),
        Parameter::integer(
            MQIACF_ENTITY_TYPE,
            match entity {
                Entity::Principal(_) => MQZAET_PRINCIPAL,
                Entity::Group(_) => MQZAET_GROUP,
            },
        ),
    ]
}

fn authorization_list(authorities: u32) -> Parameter {
    Parameter::IntegerList {
        parameter: MQIACF_AUTHORIZATION_LIST,
        values: authority_pcf_values(authorities),
    }
}

/// Inquire Authority Records.
pub(super) fn inquire(context: &Context, request: &Request) -> Responses {
    request.check(|parameter| {
        matches!(
            parameter.id(),
            MQIACF_AUTH_OPTIONS
                | MQCACF_AUTH_PROFILE_NAME
                | MQIACF_OBJECT_TYPE
                | MQCACF_ENTITY_NAME
                | MQIACF_ENTITY_TYPE
        ) || service_component(parameter)
    })?;
    let options = request
        .integer(MQIACF_AUTH_OPTIONS)?
        .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_COUNT_TOO_SMALL, MQIACF_AUTH_OPTIONS))?;
    let known = MQAUTHOPT_NAME_ALL_MATCHING
        | MQAUTHOPT_NAME_EXPLICIT
        | MQAUTHOPT_ENTITY_EXPLICIT
        | MQAUTHOPT_ENTITY_SET
        | MQAUTHOPT_NAME_AS_WILDCARD
        | MQAUTHOPT_EXCLUDE_TEMP;
    let names = options & (MQAUTHOPT_NAME_ALL_MATCHING | MQAUTHOPT_NAME_EXPLICIT);
    let entity_options = options & (MQAUTHOPT_ENTITY_EXPLICIT | MQAUTHOPT_ENTITY_SET);
    if options & !known != 0
        || names.count_ones() != 1
        || entity_options.count_ones() > 1
        || options & (MQAUTHOPT_NAME_EXPLICIT | MQAUTHOPT_ENTITY_SET)
            == MQAUTHOPT_NAME_EXPLICIT | MQAUTHOPT_ENTITY_SET
    {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIACF_AUTH_OPTIONS,
        ));
    }
    let object_type = object_type(request, true)?;
    let profile = request
        .string(MQCACF_AUTH_PROFILE_NAME)?
        .map(|profile| profile.trim().to_string())
        .filter(|profile| !profile.is_empty());
    let entities: Option<Vec<Entity>> = match inquired_entity(request)? {
        Some(Entity::Principal(name)) if options & MQAUTHOPT_ENTITY_SET != 0 => {
            let principal = context
                .queue_manager
                .principal(&ConnectingUser::asserted(&name));
            Some(
                std::iter::once(Entity::Principal(name))
                    .chain(principal.groups.into_iter().map(Entity::Group))
                    .collect(),
            )
        }
        Some(entity) => Some(vec![entity]),
        None => None,
    };
    let explicit = names == MQAUTHOPT_NAME_EXPLICIT || options & MQAUTHOPT_NAME_AS_WILDCARD != 0;
    let records = context.queue_manager.authority_records();
    let chosen = records.select(
        object_type,
        entities.as_deref(),
        profile.as_deref(),
        explicit,
    );
    if chosen.is_empty() {
        return Err(PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME));
    }
    Ok(chosen
        .into_iter()
        .map(|record| {
            let mut parameters = vec![
                Parameter::string(MQCACF_AUTH_PROFILE_NAME, &record.profile),
                Parameter::integer(MQIACF_OBJECT_TYPE, record.object_type.mqot()),
            ];
            parameters.extend(entity_parameters(&record.entity));
            parameters.push(authorization_list(record.authorities));
            parameters
        })
        .collect())
}

/// Inquire Entity Authority.
pub(super) fn inquire_entity(context: &Context, request: &Request) -> Responses {
    request.check(|parameter| {
        matches!(
            parameter.id(),
            MQIACF_AUTH_OPTIONS
                | MQCACF_OBJECT_NAME
                | MQIACF_OBJECT_TYPE
                | MQCACF_ENTITY_NAME
                | MQIACF_ENTITY_TYPE
        ) || service_component(parameter)
    })?;
    let object_type = object_type(request, false)?.expect("MQOT_ALL not allowed");
    let entity =
        inquired_entity(request)?.ok_or_else(|| PcfFailure::new(MQRCCF_ENTITY_NAME_MISSING))?;
    let queue_manager = context.queue_manager;
    let name = match (
        object_type,
        request.string(MQCACF_OBJECT_NAME)?.map(str::trim),
    ) {
        (AuthorityObjectType::QueueManager, _) => queue_manager.name().to_string(),
        (_, Some(name)) if !name.is_empty() => name.to_string(),
        _ => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_COUNT_TOO_SMALL,
                MQCACF_OBJECT_NAME,
            ))
        }
    };
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
    let mut parameters = vec![
        Parameter::string(MQCACF_OBJECT_NAME, &name),
        Parameter::integer(MQIACF_OBJECT_TYPE, object_type.mqot()),
    ];
    parameters.extend(entity_parameters(&entity));
    parameters.push(authorization_list(authorities));
    Ok(vec![parameters])
}
