//! PCF commands: what the command server runs for a request on SYSTEM.ADMIN.COMMAND.QUEUE
//! whose data is a PCF command (`pcf.rs` decodes it), answered as IBM MQ documents in "PCF
//! commands and responses".
//!
//! The commands run on the object layer MQSC uses, with structured values: an inquiry takes
//! the attributes DISPLAY would show (`(keyword, AttributeValue)` pairs from
//! `object_commands`, `queue_attributes` and `connection_commands`) and maps each through a
//! table (`Mapping`, in `pcf_attributes`) to its PCF parameter (MQCA_*/MQIA_*/MQIACF_*/
//! MQCACH_* with MQ's constant for each keyword value); a create or change maps each PCF
//! parameter back through the same table to the keyword and value DEFINE/ALTER take and
//! applies it with MQSC's own checks
//! (`object_commands::apply`), so both interfaces accept and refuse the same values and every
//! attribute the store has is reachable from both.
//!
//! ## Commands
//! PING_Q_MGR, INQUIRE_Q_MGR, INQUIRE_Q (generic names, QType, MQIACF_Q_ATTRS, one MQCFIF or
//! MQCFSF filter), INQUIRE_Q_NAMES, CREATE_Q, COPY_Q, CHANGE_Q, DELETE_Q (Purge), CLEAR_Q,
//! INQUIRE_Q_STATUS (StatusType MQIACF_Q_STATUS or MQIACF_Q_HANDLE, OpenType),
//! RESET_Q_STATS, INQUIRE_CHANNEL(_NAMES), CREATE/COPY/CHANGE/DELETE_CHANNEL (SVRCONN),
//! INQUIRE_CHANNEL_STATUS, INQUIRE_CONNECTION (ConnInfoType CONN, HANDLE or ALL),
//! INQUIRE_PROCESS(_NAMES), CREATE/COPY/CHANGE/DELETE_PROCESS, INQUIRE_NAMELIST(_NAMES),
//! CREATE/COPY/CHANGE/DELETE_NAMELIST, INQUIRE_AUTH_INFO(_NAMES),
//! CREATE/COPY/CHANGE/DELETE_AUTH_INFO (AuthInfoType MQAIT_IDPW_OS), INQUIRE_LISTENER_STATUS,
//! INQUIRE_USAGE (page sets and buffer pools: `pcf_commands/usage.rs`), SET_CHLAUTH_REC and
//! INQUIRE_CHLAUTH_RECS (`pcf_commands/channel_authentication.rs`). Any other command is
//! answered MQRCCF_CFH_COMMAND_ERROR.
//!
//! ## Responses
//! One response per object, MQCFC_LAST on the last only; a command that returns no object
//! (PING, CREATE, ...) answers one response without parameters. A failure is one response
//! with CompCode MQCC_FAILED and the reason: MQRC_UNKNOWN_OBJECT_NAME (2085) for an object
//! that does not exist, MQRCCF_OBJECT_ALREADY_EXISTS, MQRCCF_OBJECT_WRONG_TYPE,
//! MQRC_Q_NOT_EMPTY, MQRC_OBJECT_IN_USE, MQRCCF_NONE_FOUND (no status matches), and for a
//! parameter the MQRCCF_* of its fault (unknown identifier, repeated, wrong structure, value
//! not valid) with MQIACF_PARAMETER_ID naming it. For MQCFT_COMMAND_XR requests (as z/OS
//! clients send) each object is an MQCFT_XR_ITEM and the last response an MQCFT_XR_SUMMARY.
//!
//! Parameters may come in any order (as on z/OS); each at most once.

use std::sync::Arc;

use ferrite_constants::{
    channel::*, completion::*, misc::*, object_type::*, open_options::*, pcf::*, pcf_reason::*,
    pcf_selector::*, queue_type::*, reason::*, selector::*,
};
use ferrite_queue_manager::objects::is_valid_object_name;
use ferrite_queue_manager::objects::message_channel::ChannelType;
use ferrite_queue_manager::{
    now_ms, ConnectionRecord, DefinitionType, ObjectDefinition, ObjectType,
};
use ferrite_storage::StorageError;

use crate::attributes::{generic_match, AttributeValue};
use crate::channel_commands;
use crate::connection_commands;
use crate::context::{fill_object_times, Context};
use crate::events::{self, CommandOrigin, CommandReport, ConfigWatch, Target};
use crate::object_commands;
use crate::parser::{Token, Value};
use crate::pcf::{decode, encode, ByteOrder, Parameter, PcfHeader, PcfMessage};
use crate::qmgr_commands;
use crate::queue_attributes::{apply_attributes, queue_attributes, status_attributes};
use crate::CommandProcessor;

use crate::pcf_attributes::{
    connection_id, to_parameters, Kind, Mapping, AUTH_INFO_MAP, CHANNEL_MAP, CHANNEL_STATUS_MAP,
    CONNECTION_MAP, LISTENER_STATUS_MAP, NAMELIST_MAP, PROCESS_MAP, QUEUE_HANDLE_MAP,
    QUEUE_MANAGER_MAP, QUEUE_MAP, QUEUE_STATUS_MAP, TOPIC_MAP,
};

mod authority;
mod channel_authentication;
mod message_channels;
mod pubsub;
mod usage;

// ----- errors and the request's parameters ----------------------------------------------------

/// A failed command: the reason and the parameters of the error response.
#[derive(Debug)]
pub(crate) struct PcfFailure {
    reason: i32,
    parameters: Vec<Parameter>,
}

impl PcfFailure {
    fn new(reason: i32) -> PcfFailure {
        PcfFailure {
            reason,
            parameters: Vec::new(),
        }
    }

    /// A fault in parameter `id`: the response names it (MQIACF_PARAMETER_ID).
    fn parameter(reason: i32, id: i32) -> PcfFailure {
        PcfFailure {
            reason,
            parameters: vec![Parameter::integer(MQIACF_PARAMETER_ID, id)],
        }
    }

    fn storage(error: StorageError) -> PcfFailure {
        match error.reason_code() {
            0 | MQRC_UNEXPECTED_ERROR => PcfFailure::new(MQRCCF_COMMAND_FAILED),
            reason => PcfFailure::new(reason),
        }
    }
}

type Responses = Result<Vec<Vec<Parameter>>, PcfFailure>;

/// The reason for a parameter identifier a command does not take, by structure.
fn unknown_parameter(parameter: &Parameter) -> PcfFailure {
    let reason = match parameter {
        Parameter::Integer { .. } | Parameter::Integer64 { .. } => MQRCCF_CFIN_PARM_ID_ERROR,
        Parameter::String { .. } => MQRCCF_CFST_PARM_ID_ERROR,
        Parameter::IntegerList { .. } | Parameter::Integer64List { .. } => {
            MQRCCF_CFIL_PARM_ID_ERROR
        }
        Parameter::StringList { .. } => MQRCCF_CFSL_PARM_ID_ERROR,
        Parameter::ByteString { .. } => MQRCCF_CFBS_PARM_ID_ERROR,
        Parameter::IntegerFilter { .. } => MQRCCF_CFIF_PARM_ID_ERROR,
        Parameter::StringFilter { .. } => MQRCCF_CFSF_PARM_ID_ERROR,
        Parameter::ByteStringFilter { .. } => MQRCCF_CFBF_PARM_ID_ERROR,
        Parameter::Group { .. } => MQRCCF_CFGR_PARM_ID_ERROR,
    };
    PcfFailure::parameter(reason, parameter.id())
}

fn duplicate_parameter(parameter: &Parameter) -> PcfFailure {
    let reason = match parameter {
        Parameter::String { .. } | Parameter::StringFilter { .. } => MQRCCF_CFST_DUPLICATE_PARM,
        Parameter::StringList { .. } => MQRCCF_CFSL_DUPLICATE_PARM,
        Parameter::ByteString { .. } | Parameter::ByteStringFilter { .. } => {
            MQRCCF_CFBS_DUPLICATE_PARM
        }
        _ => MQRCCF_CFIN_DUPLICATE_PARM,
    };
    PcfFailure::parameter(reason, parameter.id())
}

fn is_filter(parameter: &Parameter) -> bool {
    matches!(
        parameter,
        Parameter::IntegerFilter { .. }
            | Parameter::StringFilter { .. }
            | Parameter::ByteStringFilter { .. }
    )
}

/// A request's parameters, checked against what its command takes.
struct Request<'a> {
    parameters: &'a [Parameter],
}

impl<'a> Request<'a> {
    /// Every parameter is one `takes` accepts (by identifier) and none is repeated; filters
    /// are checked apart ([`Request::filter`]).
    fn check(&self, takes: impl Fn(&Parameter) -> bool) -> Result<(), PcfFailure> {
        for (index, parameter) in self.parameters.iter().enumerate() {
            if !is_filter(parameter) && !takes(parameter) {
                return Err(unknown_parameter(parameter));
            }
            if self.parameters[..index]
                .iter()
                .any(|earlier| earlier.id() == parameter.id() && !is_filter(earlier))
                && !is_filter(parameter)
            {
                return Err(duplicate_parameter(parameter));
            }
        }
        Ok(())
    }

    fn find(&self, id: i32) -> Option<&'a Parameter> {
        self.parameters
            .iter()
            .find(|parameter| parameter.id() == id && !is_filter(parameter))
    }

    fn string(&self, id: i32) -> Result<Option<&'a str>, PcfFailure> {
        match self.find(id) {
            None => Ok(None),
            Some(Parameter::String { value, .. }) => Ok(Some(value.as_str())),
            Some(other) => Err(unknown_parameter(other)),
        }
    }

    fn required_string(&self, id: i32) -> Result<&'a str, PcfFailure> {
        self.string(id)?
            .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_COUNT_TOO_SMALL, id))
    }

    fn integer(&self, id: i32) -> Result<Option<i32>, PcfFailure> {
        match self.find(id) {
            None => Ok(None),
            Some(Parameter::Integer { value, .. }) => Ok(Some(*value)),
            Some(other) => Err(unknown_parameter(other)),
        }
    }

    fn bytes(&self, id: i32) -> Result<Option<&'a [u8]>, PcfFailure> {
        match self.find(id) {
            None => Ok(None),
            Some(Parameter::ByteString { value, .. }) => Ok(Some(value.as_slice())),
            Some(other) => Err(unknown_parameter(other)),
        }
    }

    fn integers(&self, id: i32) -> Result<Option<&'a [i32]>, PcfFailure> {
        match self.find(id) {
            None => Ok(None),
            Some(Parameter::IntegerList { values, .. }) => Ok(Some(values.as_slice())),
            Some(other) => Err(unknown_parameter(other)),
        }
    }

    /// The one filter (MQCFIF, MQCFSF or MQCFBF), if any (MQRCCF_TOO_MANY_FILTERS for more).
    fn filter(&self) -> Result<Option<&'a Parameter>, PcfFailure> {
        let mut filters = self.parameters.iter().filter(|p| is_filter(p));
        let first = filters.next();
        if filters.next().is_some() {
            return Err(PcfFailure::new(MQRCCF_TOO_MANY_FILTERS));
        }
        Ok(first)
    }
}

/// Parameters every inquiry accepts and Ferrite ignores: CommandScope (blank or this queue
/// manager: there is no queue sharing group) and QSGDisposition.
fn ignorable(parameter: &Parameter) -> bool {
    matches!(parameter.id(), MQCACF_COMMAND_SCOPE | MQIA_QSG_DISP)
}

// ----- inquiries: selection and filters -------------------------------------------------------

/// What an inquiry returns of each object: every parameter, or those listed (MQIACF_ALL in
/// the list means every one), with `always` returned whatever is asked.
struct Inquiry<'a> {
    wanted: Option<&'a [i32]>,
    always: &'a [i32],
    filter: Option<&'a Parameter>,
}

impl Inquiry<'_> {
    /// The object's response parameters, or `None` when the filter excludes it.
    fn select(&self, parameters: Vec<Parameter>) -> Result<Option<Vec<Parameter>>, PcfFailure> {
        if let Some(filter) = self.filter {
            if !passes(filter, &parameters)? {
                return Ok(None);
            }
        }
        let all = self
            .wanted
            .is_none_or(|wanted| wanted.contains(&MQIACF_ALL));
        Ok(Some(
            parameters
                .into_iter()
                .filter(|parameter| {
                    all || self.always.contains(&parameter.id())
                        || self.wanted.is_some_and(|w| w.contains(&parameter.id()))
                })
                .collect(),
        ))
    }
}

fn compare<T: Ord>(operator: i32, actual: T, wanted: T) -> Option<bool> {
    use std::cmp::Ordering::*;
    let ordering = actual.cmp(&wanted);
    Some(match operator {
        MQCFOP_EQUAL => ordering == Equal,
        MQCFOP_NOT_EQUAL => ordering != Equal,
        MQCFOP_LESS => ordering == Less,
        MQCFOP_NOT_LESS => ordering != Less,
        MQCFOP_GREATER => ordering == Greater,
        MQCFOP_NOT_GREATER => ordering != Greater,
        _ => return None,
    })
}

/// Whether an object whose parameters are `parameters` passes `filter`.
fn passes(filter: &Parameter, parameters: &[Parameter]) -> Result<bool, PcfFailure> {
    let actual = parameters.iter().find(|p| p.id() == filter.id());
    match filter {
        Parameter::IntegerFilter {
            operator, value, ..
        } => {
            let operator_error = || PcfFailure::parameter(MQRCCF_CFIF_OPERATOR_ERROR, filter.id());
            match actual {
                Some(Parameter::Integer { value: actual, .. }) => {
                    compare(*operator, *actual, *value).ok_or_else(operator_error)
                }
                Some(Parameter::IntegerList { values, .. }) => match *operator {
                    MQCFOP_CONTAINS => Ok(values.contains(value)),
                    MQCFOP_EXCLUDES => Ok(!values.contains(value)),
                    _ => Err(operator_error()),
                },
                _ => Err(PcfFailure::parameter(
                    MQRCCF_CFIF_PARM_ID_ERROR,
                    filter.id(),
                )),
            }
        }
        Parameter::StringFilter {
            operator, value, ..
        } => {
            let operator_error = || PcfFailure::parameter(MQRCCF_CFSF_OPERATOR_ERROR, filter.id());
            match actual {
                Some(Parameter::String { value: actual, .. }) => match *operator {
                    MQCFOP_LIKE => Ok(generic_match(value, actual)),
                    MQCFOP_NOT_LIKE => Ok(!generic_match(value, actual)),
                    operator => compare(operator, actual.as_str(), value.as_str())
                        .ok_or_else(operator_error),
                },
                Some(Parameter::StringList { values, .. }) => match *operator {
                    MQCFOP_CONTAINS => Ok(values.contains(value)),
                    MQCFOP_EXCLUDES => Ok(!values.contains(value)),
                    MQCFOP_CONTAINS_GEN => Ok(values.iter().any(|v| generic_match(value, v))),
                    MQCFOP_EXCLUDES_GEN => Ok(!values.iter().any(|v| generic_match(value, v))),
                    _ => Err(operator_error()),
                },
                _ => Err(PcfFailure::parameter(
                    MQRCCF_CFSF_PARM_ID_ERROR,
                    filter.id(),
                )),
            }
        }
        Parameter::ByteStringFilter {
            operator, value, ..
        } => match actual {
            Some(Parameter::ByteString { value: actual, .. }) => {
                compare(*operator, actual.as_slice(), value.as_slice())
                    .ok_or_else(|| PcfFailure::parameter(MQRCCF_CFBF_OPERATOR_ERROR, filter.id()))
            }
            _ => Err(PcfFailure::parameter(
                MQRCCF_CFBF_PARM_ID_ERROR,
                filter.id(),
            )),
        },
        _ => unreachable!("only filters are passed"),
    }
}

/// A name a command takes: an MQ object name, generic (trailing `*`) when `generic`.
/// MQIACF_REPLACE of a Create or Copy request: MQRP_YES or MQRP_NO (the default).
fn replace_option(request: &Request) -> Result<bool, PcfFailure> {
    match request.integer(MQIACF_REPLACE)? {
        None | Some(MQRP_NO) => Ok(false),
        Some(MQRP_YES) => Ok(true),
        Some(_) => Err(PcfFailure::parameter(
            MQRCCF_REPLACE_VALUE_ERROR,
            MQIACF_REPLACE,
        )),
    }
}

fn check_name(name: &str, id: i32, generic: bool, length_max: usize) -> Result<(), PcfFailure> {
    let stem = if generic {
        name.strip_suffix('*').unwrap_or(name)
    } else {
        name
    };
    let valid = (stem.is_empty() && generic && name == "*")
        || is_valid_object_name(stem, length_max) && name.len() <= length_max;
    if valid {
        Ok(())
    } else {
        Err(PcfFailure::parameter(MQRCCF_PARM_SYNTAX_ERROR, id))
    }
}

// ----- the object types PCF administers generically -------------------------------------------

/// What PCF calls an object type's name, attribute list and name list.
struct ObjectKind {
    name_parameter: i32,
    attributes_parameter: i32,
    names_parameter: i32,
    map: &'static [Mapping],
}

fn object_kind(object_type: ObjectType) -> ObjectKind {
    match object_type {
        ObjectType::Channel => ObjectKind {
            name_parameter: MQCACH_CHANNEL_NAME,
            attributes_parameter: MQIACF_CHANNEL_ATTRS,
            names_parameter: MQCACH_CHANNEL_NAMES,
            map: CHANNEL_MAP,
        },
        ObjectType::Process => ObjectKind {
            name_parameter: MQCA_PROCESS_NAME,
            attributes_parameter: MQIACF_PROCESS_ATTRS,
            names_parameter: MQCACF_PROCESS_NAMES,
            map: PROCESS_MAP,
        },
        ObjectType::Namelist => ObjectKind {
            name_parameter: MQCA_NAMELIST_NAME,
            attributes_parameter: MQIACF_NAMELIST_ATTRS,
            names_parameter: MQCACF_NAMELIST_NAMES,
            map: NAMELIST_MAP,
        },
        ObjectType::Topic => ObjectKind {
            name_parameter: MQCA_TOPIC_NAME,
            attributes_parameter: MQIACF_TOPIC_ATTRS,
            names_parameter: MQCACF_TOPIC_NAMES,
            map: TOPIC_MAP,
        },
        ObjectType::AuthInfo => ObjectKind {
            name_parameter: MQCA_AUTH_INFO_NAME,
            attributes_parameter: MQIACF_AUTH_INFO_ATTRS,
            names_parameter: MQCACF_AUTH_INFO_NAMES,
            map: AUTH_INFO_MAP,
        },
        _ => ObjectKind {
            name_parameter: MQCA_Q_NAME,
            attributes_parameter: MQIACF_Q_ATTRS,
            names_parameter: MQCACF_Q_NAMES,
            map: QUEUE_MAP,
        },
    }
}

fn queue_type_of(value: i32) -> Option<ObjectType> {
    Some(match value {
        MQQT_LOCAL => ObjectType::LocalQueue,
        MQQT_MODEL => ObjectType::ModelQueue,
        MQQT_ALIAS => ObjectType::AliasQueue,
        MQQT_REMOTE => ObjectType::RemoteQueue,
        _ => return None,
    })
}

fn queue_type_value(object_type: ObjectType) -> i32 {
    match object_type {
        ObjectType::LocalQueue => MQQT_LOCAL,
        ObjectType::ModelQueue => MQQT_MODEL,
        ObjectType::AliasQueue => MQQT_ALIAS,
        _ => MQQT_REMOTE,
    }
}

/// The queue types a request's QType names (all when absent or MQQT_ALL).
/// Apply every attribute parameter of a create, copy or change request to `definition`.
fn apply_parameters(
    context: &Context,
    definition: &mut ObjectDefinition,
    request: &Request,
    attribute: &dyn Fn(&Parameter) -> Option<&'static Mapping>,
) -> Result<(), PcfFailure> {
    for parameter in request.parameters {
        let Some(mapping) = attribute(parameter) else {
            continue;
        };
        let value_error = || PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, parameter.id());
        if let Kind::Flag(values) = mapping.kind {
            // The keyword alone (SHARE, NOSHARE), as DEFINE takes it.
            let Parameter::Integer { value, .. } = parameter else {
                return Err(unknown_parameter(parameter));
            };
            let (keyword, _) = values
                .iter()
                .find(|(_, known)| known == value)
                .ok_or_else(value_error)?;
            let token = Token {
                keyword: keyword.to_string(),
                value: None,
                position: 1,
            };
            match definition {
                ObjectDefinition::Local(queue) | ObjectDefinition::Model(queue) => {
                    apply_attributes(context, queue, &[(&token, None)])
                        .map_err(|_| value_error())?
                }
                _ => return Err(unknown_parameter(parameter)),
            }
            continue;
        }
        let (token, value) = mqsc_value(mapping, parameter)?;
        object_commands::apply(context, definition, &token, &value).map_err(|_| value_error())?;
    }
    Ok(())
}

fn queue_types(request: &Request) -> Result<Vec<ObjectType>, PcfFailure> {
    let all = vec![
        ObjectType::LocalQueue,
        ObjectType::ModelQueue,
        ObjectType::AliasQueue,
        ObjectType::RemoteQueue,
    ];
    match request.integer(MQIA_Q_TYPE)? {
        None | Some(MQQT_ALL) => Ok(all),
        Some(MQQT_CLUSTER) => Ok(Vec::new()),
        Some(value) => queue_type_of(value)
            .map(|object_type| vec![object_type])
            .ok_or_else(|| PcfFailure::parameter(MQRCCF_Q_TYPE_ERROR, MQIA_Q_TYPE)),
    }
}

/// Attributes as DISPLAY shows them.
type Attributes = Vec<(&'static str, AttributeValue)>;

/// The displayed attributes of every object of `types` whose name matches `pattern`, by name.
fn matching_objects(
    context: &Context,
    types: &[ObjectType],
    pattern: &str,
) -> Vec<(String, ObjectType, Attributes)> {
    let mut found = Vec::new();
    for object_type in types {
        if *object_type == ObjectType::LocalQueue {
            for queue in context.queue_manager.queues() {
                if generic_match(pattern, &queue.name()) {
                    let mut attributes = queue_attributes(Some(&queue));
                    fill_object_times(context, *object_type, &queue.name(), &mut attributes);
                    found.push((queue.name(), *object_type, attributes));
                }
            }
            continue;
        }
        for definition in context.queue_manager.objects(*object_type) {
            if generic_match(pattern, definition.name()) {
                let mut attributes = object_commands::attributes(&definition);
                fill_object_times(context, *object_type, definition.name(), &mut attributes);
                found.push((definition.name().to_string(), *object_type, attributes));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// The channels of the ChannelType a request names (every object when it names none or
/// MQCHT_ALL).
fn of_channel_type(
    request: &Request,
    objects: Vec<(String, ObjectType, Attributes)>,
) -> Result<Vec<(String, ObjectType, Attributes)>, PcfFailure> {
    let wanted = match request.integer(MQIACH_CHANNEL_TYPE)? {
        None | Some(MQCHT_ALL) => return Ok(objects),
        Some(value) => ChannelType::from_mqcht(value).map(ChannelType::keyword),
    };
    Ok(objects
        .into_iter()
        .filter(|(_, _, attributes)| {
            attributes.iter().any(|(keyword, value)| {
                *keyword == "CHLTYPE"
                    && matches!(value, AttributeValue::Keyword(k) if Some(*k) == wanted)
            })
        })
        .collect())
}

/// The object types an inquiry covers: the queue types of QType, SVRCONN channels for a
/// ChannelType that includes them, IDPWOS authentication information objects for an
/// AuthInfoType that includes them.
fn object_types_of(
    request: &Request,
    types: Option<ObjectType>,
) -> Result<Vec<ObjectType>, PcfFailure> {
    Ok(match types {
        None => queue_types(request)?,
        Some(ObjectType::Channel) => match request.integer(MQIACH_CHANNEL_TYPE)? {
            None | Some(MQCHT_ALL) => vec![ObjectType::Channel],
            Some(value) if ChannelType::from_mqcht(value).is_some() => vec![ObjectType::Channel],
            Some(_) => Vec::new(),
        },
        Some(ObjectType::AuthInfo) => match request.integer(MQIA_AUTH_INFO_TYPE)? {
            None | Some(MQAIT_ALL) | Some(MQAIT_IDPW_OS) => vec![ObjectType::AuthInfo],
            Some(_) => Vec::new(),
        },
        Some(ObjectType::Topic) => match request.integer(MQIA_TOPIC_TYPE)? {
            None | Some(MQTOPT_ALL) | Some(MQTOPT_LOCAL) => vec![ObjectType::Topic],
            Some(_) => Vec::new(),
        },
        Some(object_type) => vec![object_type],
    })
}

/// INQUIRE_Q, INQUIRE_CHANNEL, INQUIRE_PROCESS, INQUIRE_NAMELIST, INQUIRE_AUTH_INFO.
fn inquire_objects(context: &Context, request: &Request, types: Option<ObjectType>) -> Responses {
    let kind = object_kind(types.unwrap_or(ObjectType::LocalQueue));
    request.check(|p| {
        ignorable(p)
            || [kind.name_parameter, kind.attributes_parameter].contains(&p.id())
            || (types.is_none() && p.id() == MQIA_Q_TYPE)
            || (types == Some(ObjectType::Channel) && p.id() == MQIACH_CHANNEL_TYPE)
            || (types == Some(ObjectType::AuthInfo) && p.id() == MQIA_AUTH_INFO_TYPE)
            || (types == Some(ObjectType::Topic) && p.id() == MQIA_TOPIC_TYPE)
    })?;
    let pattern = request.required_string(kind.name_parameter)?;
    check_name(pattern, kind.name_parameter, true, 48)?;
    let object_types = object_types_of(request, types)?;
    let always = match types {
        None => vec![MQCA_Q_NAME, MQIA_Q_TYPE],
        Some(ObjectType::Channel) => vec![MQCACH_CHANNEL_NAME, MQIACH_CHANNEL_TYPE],
        Some(ObjectType::AuthInfo) => vec![MQCA_AUTH_INFO_NAME, MQIA_AUTH_INFO_TYPE],
        Some(ObjectType::Topic) => vec![MQCA_TOPIC_NAME, MQIA_TOPIC_TYPE],
        Some(_) => vec![kind.name_parameter],
    };
    let inquiry = Inquiry {
        wanted: request.integers(kind.attributes_parameter)?,
        always: &always,
        filter: request.filter()?,
    };
    let objects = matching_objects(context, &object_types, pattern);
    let objects = of_channel_type(request, objects)?;
    if objects.is_empty() {
        return Err(PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME));
    }
    let mut responses = Vec::new();
    for (_, _, attributes) in objects {
        let parameters = to_parameters(&context.name, kind.map, &attributes);
        if let Some(selected) = inquiry.select(parameters)? {
            responses.push(selected);
        }
    }
    if responses.is_empty() {
        return Err(PcfFailure::new(MQRCCF_NONE_FOUND));
    }
    Ok(responses)
}

/// INQUIRE_Q_NAMES, INQUIRE_CHANNEL_NAMES, INQUIRE_PROCESS_NAMES, INQUIRE_NAMELIST_NAMES:
/// one response with the names (and, for queues, their types).
fn inquire_names(context: &Context, request: &Request, types: Option<ObjectType>) -> Responses {
    let kind = object_kind(types.unwrap_or(ObjectType::LocalQueue));
    request.check(|p| {
        ignorable(p)
            || p.id() == kind.name_parameter
            || (types.is_none() && p.id() == MQIA_Q_TYPE)
            || (types == Some(ObjectType::Channel) && p.id() == MQIACH_CHANNEL_TYPE)
            || (types == Some(ObjectType::AuthInfo) && p.id() == MQIA_AUTH_INFO_TYPE)
            || (types == Some(ObjectType::Topic) && p.id() == MQIA_TOPIC_TYPE)
    })?;
    let pattern = request.required_string(kind.name_parameter)?;
    check_name(pattern, kind.name_parameter, true, 48)?;
    let object_types = object_types_of(request, types)?;
    let objects = matching_objects(context, &object_types, pattern);
    let objects = of_channel_type(request, objects)?;
    let mut parameters = vec![Parameter::StringList {
        parameter: kind.names_parameter,
        values: objects.iter().map(|(name, _, _)| name.clone()).collect(),
    }];
    if types.is_none() {
        parameters.push(Parameter::IntegerList {
            parameter: MQIACF_Q_TYPES,
            values: objects
                .iter()
                .map(|(_, object_type, _)| queue_type_value(*object_type))
                .collect(),
        });
    }
    Ok(vec![parameters])
}

/// The MQSC keyword and value a PCF parameter stands for (not a flag).
fn mqsc_value(mapping: &Mapping, parameter: &Parameter) -> Result<(Token, Value), PcfFailure> {
    let value_error = || PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, parameter.id());
    let (text, raw) = match (mapping.kind, parameter) {
        (Kind::Text, Parameter::String { value, .. }) => (value.clone(), value.clone()),
        (Kind::Integer(values), Parameter::Integer { value, .. }) => {
            let text = values
                .iter()
                .find(|(_, known)| known == value)
                .map(|(keyword, _)| keyword.to_string())
                .unwrap_or_else(|| value.to_string());
            if text.starts_with('-') {
                return Err(value_error());
            }
            (text.clone(), text)
        }
        (Kind::TextList, Parameter::StringList { values, .. }) => {
            (values.join(","), values.join(","))
        }
        (Kind::KeywordList(keywords), Parameter::IntegerList { values, .. }) => {
            let words = values
                .iter()
                .map(|value| {
                    keywords
                        .iter()
                        .find(|(_, known)| known == value)
                        .map(|(keyword, _)| *keyword)
                })
                .collect::<Option<Vec<&str>>>()
                .ok_or_else(value_error)?;
            (words.join(","), words.join(","))
        }
        _ => return Err(unknown_parameter(parameter)),
    };
    Ok((
        Token {
            keyword: mapping.keyword.to_string(),
            value: None,
            position: 1,
        },
        Value {
            text,
            raw,
            position: 1,
        },
    ))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Create,
    Copy,
    Alter,
}

/// CREATE, COPY and CHANGE of queues, channels, processes and namelists: the definition is
/// built (from the defaults, the copied object or the existing one), every attribute
/// parameter applied with MQSC's checks, validated, then stored in one change.
fn create_or_change(
    context: &Context,
    request: &Request,
    fixed_type: Option<ObjectType>,
    mode: Mode,
) -> Responses {
    let kind = object_kind(fixed_type.unwrap_or(ObjectType::LocalQueue));
    let (from_parameter, to_parameter) = match fixed_type {
        None => (MQCACF_FROM_Q_NAME, MQCACF_TO_Q_NAME),
        Some(ObjectType::Channel) => (MQCACF_FROM_CHANNEL_NAME, MQCACF_TO_CHANNEL_NAME),
        Some(ObjectType::Process) => (MQCACF_FROM_PROCESS_NAME, MQCACF_TO_PROCESS_NAME),
        Some(ObjectType::AuthInfo) => (MQCACF_FROM_AUTH_INFO_NAME, MQCACF_TO_AUTH_INFO_NAME),
        Some(ObjectType::Topic) => (MQCACF_FROM_TOPIC_NAME, MQCACF_TO_TOPIC_NAME),
        Some(_) => (MQCACF_FROM_NAMELIST_NAME, MQCACF_TO_NAMELIST_NAME),
    };
    let object_type = match fixed_type {
        Some(object_type) => object_type,
        None => requested_queue_type(request)?,
    };
    let settable = object_commands::settable(object_type);
    let attribute = |parameter: &Parameter| {
        kind.map.iter().find(|mapping| {
            mapping.selector == parameter.id()
                // Change Topic cannot move a topic object's node.
                && !(mode == Mode::Alter && mapping.keyword == "TOPICSTR")
                && settable
                    .iter()
                    .any(|(keyword, _)| *keyword == mapping.keyword)
        })
    };
    let name_parameter = if mode == Mode::Copy {
        to_parameter
    } else {
        kind.name_parameter
    };
    request.check(|p| {
        let id = p.id();
        id == name_parameter
            || (mode == Mode::Copy && id == from_parameter)
            || (fixed_type.is_none() && id == MQIA_Q_TYPE)
            || (mode != Mode::Alter && id == MQIACF_REPLACE)
            || (mode == Mode::Alter && id == MQIACF_FORCE)
            || id == MQCACF_COMMAND_SCOPE
            || attribute(p).is_some()
    })?;
    if let Some(filter) = request.filter()? {
        return Err(unknown_parameter(filter));
    }
    let length_max = object_commands::name_length_max(object_type);
    let name = request.required_string(name_parameter)?;
    check_name(name, name_parameter, false, length_max)?;
    let replace = replace_option(request)?;
    let copied = (mode == Mode::Copy).then_some((from_parameter, length_max));
    let mut definition =
        starting_definition(context, request, mode, object_type, name, replace, copied)?;
    let type_parameter = match object_type {
        ObjectType::Channel => Some(MQIACH_CHANNEL_TYPE),
        ObjectType::AuthInfo => Some(MQIA_AUTH_INFO_TYPE),
        ObjectType::Topic => Some(MQCA_TOPIC_STRING),
        _ => None,
    };
    if let Some(type_parameter) = type_parameter.filter(|_| mode == Mode::Create) {
        if request.find(type_parameter).is_none() {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_COUNT_TOO_SMALL,
                type_parameter,
            ));
        }
    }
    apply_parameters(context, &mut definition, request, &attribute)?;
    if let ObjectDefinition::Channel(channel) = &definition {
        match object_commands::missing_channel_attribute(channel) {
            Some("CONNAME") => {
                return Err(PcfFailure::parameter(
                    MQRCCF_PARM_MISSING,
                    MQCACH_CONNECTION_NAME,
                ))
            }
            Some(_) => {
                return Err(PcfFailure::parameter(
                    MQRCCF_PARM_MISSING,
                    MQCACH_XMIT_Q_NAME,
                ))
            }
            None => {}
        }
    }
    definition.validate().map_err(PcfFailure::storage)?;
    store_definition(
        context, request, definition, mode, name, replace, &attribute,
    )?;
    Ok(Vec::new())
}

/// The queue type CREATE_Q, COPY_Q and CHANGE_Q name (QType, required).
fn requested_queue_type(request: &Request) -> Result<ObjectType, PcfFailure> {
    let value = request
        .integer(MQIA_Q_TYPE)?
        .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_COUNT_TOO_SMALL, MQIA_Q_TYPE))?;
    queue_type_of(value).ok_or_else(|| PcfFailure::parameter(MQRCCF_Q_TYPE_ERROR, MQIA_Q_TYPE))
}

/// The definition the parameters are applied to: for a change the existing object of that
/// type; for a create or copy (`copied`: the FromName parameter and the name length limit)
/// the defaults or the copied object under `name`, when no object of the name exists or
/// `replace` allows replacing one of the same type.
fn starting_definition(
    context: &Context,
    request: &Request,
    mode: Mode,
    object_type: ObjectType,
    name: &str,
    replace: bool,
    copied: Option<(i32, usize)>,
) -> Result<ObjectDefinition, PcfFailure> {
    let queue_manager = context.queue_manager;
    // Queues of every type share one name space.
    let existing_type = if object_type.is_queue() {
        queue_manager.queue_object_type(name)
    } else {
        queue_manager.object(object_type, name).map(|_| object_type)
    };
    Ok(match mode {
        Mode::Alter => match existing_type {
            Some(found) if found == object_type => queue_manager
                .object(object_type, name)
                .ok_or_else(|| PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME))?,
            Some(_) => return Err(PcfFailure::new(MQRCCF_OBJECT_WRONG_TYPE)),
            None => return Err(PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME)),
        },
        Mode::Create | Mode::Copy => {
            match existing_type {
                Some(found) if found != object_type => {
                    return Err(PcfFailure::new(MQRCCF_OBJECT_WRONG_TYPE))
                }
                Some(_) if !replace => return Err(PcfFailure::new(MQRCCF_OBJECT_ALREADY_EXISTS)),
                _ => {}
            }
            if let Some((from_parameter, length_max)) = copied {
                let from = request.required_string(from_parameter)?;
                check_name(from, from_parameter, false, length_max)?;
                let mut source = queue_manager
                    .object(object_type, from)
                    .ok_or_else(|| PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME))?;
                object_commands::rename(&mut source, name);
                if let ObjectDefinition::Local(queue) = &mut source {
                    // A queue copied from a dynamic queue is a predefined queue.
                    queue.definition_type = DefinitionType::Predefined;
                }
                source
            } else if object_type == ObjectType::Channel {
                // A channel starts from its type's defaults.
                let channel_type = request
                    .integer(MQIACH_CHANNEL_TYPE)?
                    .map(|value| {
                        ChannelType::from_mqcht(value).ok_or_else(|| {
                            PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, MQIACH_CHANNEL_TYPE)
                        })
                    })
                    .transpose()?
                    .unwrap_or(ChannelType::ServerConnection);
                ObjectDefinition::Channel(ferrite_queue_manager::ChannelDefinition::of_type(
                    name,
                    channel_type,
                ))
            } else {
                object_commands::default_definition(object_type, name)
            }
        }
    })
}

/// Store the checked definition: a change of a local queue applies the parameters again to
/// the definition current under the object lock; others define (replacing with `replace`)
/// or alter the object.
fn store_definition(
    context: &Context,
    request: &Request,
    definition: ObjectDefinition,
    mode: Mode,
    name: &str,
    replace: bool,
    attribute: &dyn Fn(&Parameter) -> Option<&'static Mapping>,
) -> Result<(), PcfFailure> {
    let queue_manager = context.queue_manager;
    let result = match (definition, mode) {
        (ObjectDefinition::Local(_), Mode::Alter) => {
            let queue = queue_manager
                .queue(name)
                .ok_or_else(|| PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME))?;
            // Only the attributes named change, applied again to the definition current under
            // the object lock, so a switch the queue manager made since it was read (an
            // event or trigger control) is not undone.
            let mut refused = None;
            let result = queue_manager.update_queue_definition(&queue, |current| {
                let mut altered = ObjectDefinition::Local(current.clone());
                if let Err(failure) = apply_parameters(context, &mut altered, request, attribute) {
                    refused = Some(failure);
                    return Err(ferrite_storage::StorageError::mq(
                        ferrite_constants::reason::MQRC_UNEXPECTED_ERROR,
                        "the change no longer applies",
                    ));
                }
                let ObjectDefinition::Local(altered) = altered else {
                    unreachable!("a local queue stays a local queue");
                };
                *current = altered;
                Ok(true)
            });
            if let Some(failure) = refused {
                return Err(failure);
            }
            result.map(|_| ())
        }
        (ObjectDefinition::Local(queue), _) => {
            queue_manager.define_queue(queue, replace).map(|_| ())
        }
        (other, Mode::Alter) => queue_manager.alter_object(other),
        (other, _) => queue_manager.define_object(other, replace),
    };
    result.map_err(PcfFailure::storage)
}

/// DELETE_Q, DELETE_CHANNEL, DELETE_PROCESS, DELETE_NAMELIST.
fn delete(context: &Context, request: &Request, fixed_type: Option<ObjectType>) -> Responses {
    let kind = object_kind(fixed_type.unwrap_or(ObjectType::LocalQueue));
    request.check(|p| {
        let id = p.id();
        ignorable(p)
            || id == kind.name_parameter
            || (fixed_type.is_none() && [MQIA_Q_TYPE, MQIACF_PURGE].contains(&id))
            || (fixed_type == Some(ObjectType::Channel) && id == MQIACH_CHANNEL_TYPE)
            || (fixed_type == Some(ObjectType::AuthInfo) && id == MQIA_AUTH_INFO_TYPE)
            || (fixed_type == Some(ObjectType::Topic) && id == MQIA_TOPIC_TYPE)
    })?;
    let name = request.required_string(kind.name_parameter)?;
    check_name(name, kind.name_parameter, false, 48)?;
    let queue_manager = context.queue_manager;
    let object_type = match fixed_type {
        Some(object_type) => queue_manager
            .object(object_type, name)
            .map(|_| object_type)
            .ok_or_else(|| PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME))?,
        None => {
            let found = queue_manager
                .queue_object_type(name)
                .ok_or_else(|| PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME))?;
            match request.integer(MQIA_Q_TYPE)? {
                None | Some(MQQT_ALL) => {}
                Some(value) if queue_type_of(value) == Some(found) => {}
                Some(value) if queue_type_of(value).is_some() => {
                    return Err(PcfFailure::new(MQRCCF_OBJECT_WRONG_TYPE))
                }
                Some(_) => return Err(PcfFailure::parameter(MQRCCF_Q_TYPE_ERROR, MQIA_Q_TYPE)),
            }
            found
        }
    };
    let purge = match request.integer(MQIACF_PURGE)? {
        None | Some(MQPO_NO) => false,
        Some(MQPO_YES) => true,
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PURGE_VALUE_ERROR,
                MQIACF_PURGE,
            ))
        }
    };
    let result = if object_type == ObjectType::LocalQueue {
        queue_manager.delete_queue(name, purge)
    } else {
        queue_manager.delete_object(object_type, name)
    };
    result.map_err(PcfFailure::storage)?;
    Ok(Vec::new())
}

fn clear_queue(context: &Context, request: &Request) -> Responses {
    request.check(|p| ignorable(p) || p.id() == MQCA_Q_NAME)?;
    let name = request.required_string(MQCA_Q_NAME)?;
    check_name(name, MQCA_Q_NAME, false, 48)?;
    let queue_manager = context.queue_manager;
    let Some(queue) = queue_manager.queue(name) else {
        return Err(PcfFailure::new(
            match queue_manager.queue_object_type(name) {
                Some(_) => MQRCCF_Q_WRONG_TYPE,
                None => MQRC_UNKNOWN_OBJECT_NAME,
            },
        ));
    };
    // As MQ: not while an application has the queue open or messages are uncommitted.
    let status = queue.status();
    if status.open_input_count + status.open_output_count > 0 || status.uncommitted > 0 {
        return Err(PcfFailure::new(MQRC_OBJECT_IN_USE));
    }
    queue_manager
        .clear_queue(&queue)
        .map_err(PcfFailure::storage)?;
    // Clearing is a get operation for the queue service timer (MQ).
    ferrite_mqi::service_interval_events::after_removal(queue_manager, &queue);
    Ok(Vec::new())
}

/// INQUIRE_Q_STATUS: StatusType MQIACF_Q_STATUS (default) or MQIACF_Q_HANDLE.
fn inquire_queue_status(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p)
            || [
                MQCA_Q_NAME,
                MQIACF_Q_STATUS_TYPE,
                MQIACF_Q_STATUS_ATTRS,
                MQIACF_OPEN_TYPE,
            ]
            .contains(&p.id())
    })?;
    let pattern = request.required_string(MQCA_Q_NAME)?;
    check_name(pattern, MQCA_Q_NAME, true, 48)?;
    let handles = match request.integer(MQIACF_Q_STATUS_TYPE)? {
        None | Some(MQIACF_Q_STATUS) => false,
        Some(MQIACF_Q_HANDLE) => true,
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_Q_STATUS_TYPE,
            ))
        }
    };
    let open_type = request.integer(MQIACF_OPEN_TYPE)?.unwrap_or(MQQSOT_ALL);
    if ![MQQSOT_ALL, MQQSOT_INPUT, MQQSOT_OUTPUT].contains(&open_type) {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIACF_OPEN_TYPE,
        ));
    }
    let wanted = request.integers(MQIACF_Q_STATUS_ATTRS)?;
    let inquiry = Inquiry {
        wanted,
        always: &[MQCA_Q_NAME, MQIACF_Q_STATUS_TYPE],
        filter: request.filter()?,
    };
    let queues: Vec<_> = context
        .queue_manager
        .queues()
        .into_iter()
        .filter(|queue| generic_match(pattern, &queue.name()))
        .collect();
    if queues.is_empty() {
        return Err(PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME));
    }
    let mut responses = Vec::new();
    if handles {
        for (queue, record, handle) in connection_commands::queue_handles(context, pattern) {
            let input = handle.open_options
                & (MQOO_INPUT_AS_Q_DEF | MQOO_INPUT_SHARED | MQOO_INPUT_EXCLUSIVE)
                != 0;
            let output = handle.open_options & MQOO_OUTPUT != 0;
            if (open_type == MQQSOT_INPUT && !input) || (open_type == MQQSOT_OUTPUT && !output) {
                continue;
            }
            let attributes =
                connection_commands::queue_handle_attributes(&queue, Some((&record, &handle)));
            let parameters = to_parameters(&context.name, QUEUE_HANDLE_MAP, &attributes);
            if let Some(selected) = inquiry.select(parameters)? {
                responses.push(selected);
            }
        }
    } else {
        let message_age = wanted.is_none_or(|wanted| {
            wanted.contains(&MQIACF_ALL) || wanted.contains(&MQIACF_OLDEST_MSG_AGE)
        }) || inquiry
            .filter
            .is_some_and(|filter| filter.id() == MQIACF_OLDEST_MSG_AGE);
        for queue in queues {
            let attributes = status_attributes(context, Some(&queue), message_age);
            let parameters = to_parameters(&context.name, QUEUE_STATUS_MAP, &attributes);
            if let Some(selected) = inquiry.select(parameters)? {
                responses.push(selected);
            }
        }
    }
    if responses.is_empty() {
        return Err(PcfFailure::new(MQRCCF_NONE_FOUND));
    }
    Ok(responses)
}

fn reset_queue_statistics(context: &Context, request: &Request) -> Responses {
    request.check(|p| ignorable(p) || p.id() == MQCA_Q_NAME)?;
    let pattern = request.required_string(MQCA_Q_NAME)?;
    check_name(pattern, MQCA_Q_NAME, true, 48)?;
    let queues: Vec<_> = context
        .queue_manager
        .queues()
        .into_iter()
        .filter(|queue| generic_match(pattern, &queue.name()))
        .collect();
    if queues.is_empty() {
        return Err(PcfFailure::new(MQRC_UNKNOWN_OBJECT_NAME));
    }
    let now = now_ms();
    let clamp = |value: u64| value.min(i32::MAX as u64) as i32;
    Ok(queues
        .into_iter()
        .map(|queue| {
            let statistics = queue.reset_statistics(now);
            vec![
                Parameter::string(MQCA_Q_NAME, queue.name()),
                Parameter::integer(
                    MQIA_TIME_SINCE_RESET,
                    clamp(now.saturating_sub(statistics.reset_ms) / 1000),
                ),
                Parameter::integer(MQIA_HIGH_Q_DEPTH, clamp(statistics.high_depth)),
                Parameter::integer(MQIA_MSG_ENQ_COUNT, clamp(statistics.messages_in)),
                Parameter::integer(MQIA_MSG_DEQ_COUNT, clamp(statistics.messages_out)),
            ]
        })
        .collect())
}

// ----- queue manager --------------------------------------------------------------------------

fn inquire_queue_manager(context: &Context, request: &Request) -> Responses {
    request.check(|p| ignorable(p) || p.id() == MQIACF_Q_MGR_ATTRS)?;
    let inquiry = Inquiry {
        wanted: request.integers(MQIACF_Q_MGR_ATTRS)?,
        always: &[MQCA_Q_MGR_NAME],
        filter: request.filter()?,
    };
    let attributes = qmgr_commands::all_attributes(context);
    match inquiry.select(to_parameters(&context.name, QUEUE_MANAGER_MAP, &attributes))? {
        Some(parameters) => Ok(vec![parameters]),
        None => Err(PcfFailure::new(MQRCCF_NONE_FOUND)),
    }
}

/// CHANGE_Q_MGR: every parameter applied with ALTER QMGR's checks, then one store.
fn change_queue_manager(context: &Context, request: &Request) -> Responses {
    let attribute = |parameter: &Parameter| {
        QUEUE_MANAGER_MAP.iter().find(|mapping| {
            mapping.selector == parameter.id()
                && qmgr_commands::ALTERABLE
                    .iter()
                    .any(|(keyword, _)| *keyword == mapping.keyword)
        })
    };
    request.check(|p| ignorable(p) || p.id() == MQIACF_FORCE || attribute(p).is_some())?;
    if let Some(filter) = request.filter()? {
        return Err(unknown_parameter(filter));
    }
    let mut attributes = context.queue_manager.queue_manager_attributes();
    for parameter in request.parameters {
        let Some(mapping) = attribute(parameter) else {
            continue;
        };
        let (token, value) = mqsc_value(mapping, parameter)?;
        qmgr_commands::apply_qmgr_attribute(&mut attributes, &token, &value)
            .map_err(|_| PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, parameter.id()))?;
    }
    attributes.validate().map_err(PcfFailure::storage)?;
    context
        .queue_manager
        .alter_queue_manager(attributes)
        .map_err(PcfFailure::storage)?;
    Ok(Vec::new())
}

/// REFRESH_Q_MGR: RefreshType MQRT_CONFIGURATION (a Refresh object configuration event for
/// every object ObjectType and ObjectName select; CONFIGEV must be ENABLED) or MQRT_EXPIRY
/// (the expiry scan, ObjectName `*` only), as REFRESH QMGR TYPE(CONFIGEV|EXPIRY) does.
fn refresh_queue_manager(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p)
            || [
                MQIACF_REFRESH_TYPE,
                MQIACF_OBJECT_TYPE,
                MQCACF_OBJECT_NAME,
                MQIACF_REFRESH_INTERVAL,
            ]
            .contains(&p.id())
    })?;
    let refresh_type = request
        .integer(MQIACF_REFRESH_TYPE)?
        .ok_or_else(|| PcfFailure::parameter(MQRCCF_PARM_COUNT_TOO_SMALL, MQIACF_REFRESH_TYPE))?;
    let name = request.string(MQCACF_OBJECT_NAME)?.unwrap_or("*");
    check_name(name, MQCACF_OBJECT_NAME, true, 48)?;
    match refresh_type {
        MQRT_EXPIRY => {
            if name != "*" {
                return Err(PcfFailure::parameter(
                    MQRCCF_PARM_VALUE_ERROR,
                    MQCACF_OBJECT_NAME,
                ));
            }
            context
                .queue_manager
                .expire_messages()
                .map_err(PcfFailure::storage)?;
            Ok(Vec::new())
        }
        MQRT_CONFIGURATION => {
            let interval = request.integer(MQIACF_REFRESH_INTERVAL)?.unwrap_or(0);
            let include_interval_minutes = u32::try_from(interval)
                .ok()
                .filter(|minutes| *minutes <= events::INCLUDE_INTERVAL_MINUTES_MAX)
                .ok_or_else(|| {
                    PcfFailure::parameter(MQRCCF_PARM_VALUE_ERROR, MQIACF_REFRESH_INTERVAL)
                })?;
            let (types, queue_manager) = match request.integer(MQIACF_OBJECT_TYPE)? {
                None | Some(MQOT_ALL) => (events::REFRESHED_TYPES.to_vec(), true),
                Some(MQOT_Q) => (
                    ObjectType::ALL
                        .into_iter()
                        .filter(|object_type| object_type.is_queue())
                        .collect(),
                    false,
                ),
                Some(MQOT_LOCAL_Q) => (vec![ObjectType::LocalQueue], false),
                Some(MQOT_MODEL_Q) => (vec![ObjectType::ModelQueue], false),
                Some(MQOT_ALIAS_Q) => (vec![ObjectType::AliasQueue], false),
                Some(MQOT_REMOTE_Q) => (vec![ObjectType::RemoteQueue], false),
                Some(MQOT_NAMELIST) => (vec![ObjectType::Namelist], false),
                Some(MQOT_PROCESS) => (vec![ObjectType::Process], false),
                Some(MQOT_STORAGE_CLASS) => (vec![ObjectType::StorageClass], false),
                Some(MQOT_CHANNEL) => (vec![ObjectType::Channel], false),
                Some(MQOT_AUTH_INFO) => (vec![ObjectType::AuthInfo], false),
                Some(MQOT_TOPIC) => (vec![ObjectType::Topic], false),
                Some(MQOT_Q_MGR) => (Vec::new(), true),
                Some(_) => {
                    return Err(PcfFailure::parameter(
                        MQRCCF_PARM_VALUE_ERROR,
                        MQIACF_OBJECT_TYPE,
                    ))
                }
            };
            if !context
                .queue_manager
                .queue_manager_attributes()
                .config_events
            {
                return Err(PcfFailure::new(MQRCCF_EVENTS_DISABLED));
            }
            let selection = events::RefreshSelection {
                types,
                queue_manager,
                name: name.to_string(),
                include_interval_minutes,
            };
            events::refresh(context, &selection);
            Ok(Vec::new())
        }
        _ => Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIACF_REFRESH_TYPE,
        )),
    }
}

// ----- channels, connections, listener --------------------------------------------------------

fn inquire_channel_status(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p)
            || [
                MQCACH_CHANNEL_NAME,
                MQIACH_CHANNEL_INSTANCE_TYPE,
                MQIACH_CHANNEL_INSTANCE_ATTRS,
                MQIACH_CHANNEL_TYPE,
            ]
            .contains(&p.id())
    })?;
    let pattern = request.required_string(MQCACH_CHANNEL_NAME)?;
    check_name(pattern, MQCACH_CHANNEL_NAME, true, 20)?;
    match request.integer(MQIACH_CHANNEL_INSTANCE_TYPE)? {
        None | Some(MQOT_CURRENT_CHANNEL) => {}
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_CHL_INST_TYPE_ERROR,
                MQIACH_CHANNEL_INSTANCE_TYPE,
            ))
        }
    }
    let Some(initiator) = context.initiator else {
        return Err(PcfFailure::new(MQRCCF_NO_CHANNEL_INITIATOR));
    };
    let inquiry = Inquiry {
        wanted: request.integers(MQIACH_CHANNEL_INSTANCE_ATTRS)?,
        always: &[
            MQCACH_CHANNEL_NAME,
            MQIACH_CHANNEL_TYPE,
            MQCACH_CONNECTION_NAME,
        ],
        filter: request.filter()?,
    };
    // ChannelType selects one type's instances (MQCHT_ALL or absent: every type).
    let wanted_type = match request.integer(MQIACH_CHANNEL_TYPE)? {
        None | Some(MQCHT_ALL) => None,
        Some(value) => Some(ChannelType::from_mqcht(value).ok_or_else(|| {
            PcfFailure::parameter(MQRCCF_CHANNEL_TYPE_ERROR, MQIACH_CHANNEL_TYPE)
        })?),
    };
    type Attributes = Vec<(&'static str, AttributeValue)>;
    let mut statuses: Vec<(String, ChannelType, Attributes)> = initiator
        .channel_statuses()
        .iter()
        .map(|status| {
            let attributes = channel_commands::status_attributes(Some(status));
            (
                status.channel.clone(),
                ChannelType::ServerConnection,
                attributes,
            )
        })
        .collect();
    statuses.extend(initiator.message_channel_statuses().iter().map(|status| {
        let channel_type =
            ChannelType::from_keyword(status.channel_type).unwrap_or(ChannelType::Sender);
        let attributes = channel_commands::message_status_attributes(status);
        (status.channel.clone(), channel_type, attributes)
    }));
    statuses.sort_by(|a, b| a.0.cmp(&b.0));
    let mut responses = Vec::new();
    for (_, _, attributes) in statuses.into_iter().filter(|(channel, channel_type, _)| {
        generic_match(pattern, channel) && wanted_type.is_none_or(|wanted| wanted == *channel_type)
    }) {
        let mut parameters = to_parameters(&context.name, CHANNEL_STATUS_MAP, &attributes);
        parameters.push(Parameter::integer(
            MQIACH_CHANNEL_INSTANCE_TYPE,
            MQOT_CURRENT_CHANNEL,
        ));
        if let Some(selected) = inquiry.select(parameters)? {
            responses.push(selected);
        }
    }
    if responses.is_empty() {
        return Err(PcfFailure::new(MQRCCF_CHL_STATUS_NOT_FOUND));
    }
    Ok(responses)
}

fn handle_parameters(
    context: &Context,
    record: &ConnectionRecord,
    handle: &ferrite_queue_manager::HandleRecord,
) -> Vec<Parameter> {
    vec![
        Parameter::ByteString {
            parameter: MQBACF_CONNECTION_ID,
            value: connection_id(&context.name, record.id),
        },
        Parameter::integer(MQIACF_CONN_INFO_TYPE, MQIACF_CONN_INFO_HANDLE),
        Parameter::string(MQCACF_OBJECT_NAME, handle.object_name.clone()),
        Parameter::integer(MQIACF_OBJECT_TYPE, handle.object_type),
        Parameter::integer(MQIACF_OPEN_OPTIONS, handle.open_options),
        Parameter::integer(MQIACF_ASYNC_STATE, MQAS_NONE),
        Parameter::integer(MQIA_QSG_DISP, MQQSGD_Q_MGR),
    ]
}

fn inquire_connection(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p)
            || [
                MQBACF_GENERIC_CONNECTION_ID,
                MQBACF_CONNECTION_ID,
                MQIACF_CONN_INFO_TYPE,
                MQIACF_CONNECTION_ATTRS,
            ]
            .contains(&p.id())
    })?;
    let wanted_id = match request
        .find(MQBACF_GENERIC_CONNECTION_ID)
        .or_else(|| request.find(MQBACF_CONNECTION_ID))
    {
        None => Vec::new(),
        Some(Parameter::ByteString { value, .. }) => value.clone(),
        Some(other) => return Err(unknown_parameter(other)),
    };
    let info = request
        .integer(MQIACF_CONN_INFO_TYPE)?
        .unwrap_or(MQIACF_CONN_INFO_CONN);
    if ![
        MQIACF_CONN_INFO_CONN,
        MQIACF_CONN_INFO_HANDLE,
        MQIACF_CONN_INFO_ALL,
    ]
    .contains(&info)
    {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIACF_CONN_INFO_TYPE,
        ));
    }
    let inquiry = Inquiry {
        wanted: request.integers(MQIACF_CONNECTION_ATTRS)?,
        always: &[
            MQBACF_CONNECTION_ID,
            MQIACF_CONN_INFO_TYPE,
            MQCACF_OBJECT_NAME,
        ],
        filter: request.filter()?,
    };
    let mut responses = Vec::new();
    for record in context.queue_manager.connections().all() {
        let id = connection_id(&context.name, record.id);
        // An all-zero or empty identifier selects every connection.
        if !wanted_id.iter().all(|byte| *byte == 0) && !id.starts_with(&wanted_id) {
            continue;
        }
        if info != MQIACF_CONN_INFO_HANDLE {
            let attributes = connection_commands::attributes(Some(&record));
            let parameters = to_parameters(&context.name, CONNECTION_MAP, &attributes);
            if let Some(selected) = inquiry.select(parameters)? {
                responses.push(selected);
            }
        }
        if info != MQIACF_CONN_INFO_CONN {
            for handle in record.handles() {
                if let Some(selected) =
                    inquiry.select(handle_parameters(context, &record, &handle))?
                {
                    responses.push(selected);
                }
            }
        }
    }
    if responses.is_empty() {
        return Err(PcfFailure::new(MQRCCF_NONE_FOUND));
    }
    Ok(responses)
}

fn inquire_listener_status(context: &Context, request: &Request) -> Responses {
    request.check(|p| {
        ignorable(p) || [MQCACH_LISTENER_NAME, MQIACF_LISTENER_STATUS_ATTRS].contains(&p.id())
    })?;
    let pattern = request.string(MQCACH_LISTENER_NAME)?.unwrap_or("*");
    check_name(pattern, MQCACH_LISTENER_NAME, true, 48)?;
    let Some(initiator) = context.initiator else {
        return Err(PcfFailure::new(MQRCCF_NO_CHANNEL_INITIATOR));
    };
    let inquiry = Inquiry {
        wanted: request.integers(MQIACF_LISTENER_STATUS_ATTRS)?,
        always: &[MQCACH_LISTENER_NAME],
        filter: request.filter()?,
    };
    if !generic_match(pattern, crate::LISTENER_NAME) {
        return Err(PcfFailure::new(MQRCCF_LSTR_STATUS_NOT_FOUND));
    }
    let attributes = channel_commands::listener_attributes(&initiator.listener_status());
    match inquiry.select(to_parameters(
        &context.name,
        LISTENER_STATUS_MAP,
        &attributes,
    ))? {
        Some(parameters) => Ok(vec![parameters]),
        None => Err(PcfFailure::new(MQRCCF_LSTR_STATUS_NOT_FOUND)),
    }
}

// ----- the entry point ------------------------------------------------------------------------

fn run(context: &Context, command: i32, request: &Request) -> Responses {
    use Mode::*;
    let queue = None;
    let channel = Some(ObjectType::Channel);
    let process = Some(ObjectType::Process);
    let namelist = Some(ObjectType::Namelist);
    let auth_info = Some(ObjectType::AuthInfo);
    let topic = Some(ObjectType::Topic);
    match command {
        MQCMD_PING_Q_MGR => {
            request.check(ignorable)?;
            Ok(Vec::new())
        }
        MQCMD_INQUIRE_Q_MGR => inquire_queue_manager(context, request),
        MQCMD_CHANGE_Q_MGR => change_queue_manager(context, request),
        MQCMD_REFRESH_Q_MGR => refresh_queue_manager(context, request),
        MQCMD_INQUIRE_Q => inquire_objects(context, request, queue),
        MQCMD_INQUIRE_Q_NAMES => inquire_names(context, request, queue),
        MQCMD_CREATE_Q => create_or_change(context, request, queue, Create),
        MQCMD_COPY_Q => create_or_change(context, request, queue, Copy),
        MQCMD_CHANGE_Q => create_or_change(context, request, queue, Alter),
        MQCMD_DELETE_Q => delete(context, request, queue),
        MQCMD_CLEAR_Q => clear_queue(context, request),
        MQCMD_INQUIRE_Q_STATUS => inquire_queue_status(context, request),
        MQCMD_RESET_Q_STATS => reset_queue_statistics(context, request),
        MQCMD_INQUIRE_CHANNEL => inquire_objects(context, request, channel),
        MQCMD_INQUIRE_CHANNEL_NAMES => inquire_names(context, request, channel),
        MQCMD_CREATE_CHANNEL => create_or_change(context, request, channel, Create),
        MQCMD_COPY_CHANNEL => create_or_change(context, request, channel, Copy),
        MQCMD_CHANGE_CHANNEL => create_or_change(context, request, channel, Alter),
        MQCMD_DELETE_CHANNEL => delete(context, request, channel),
        MQCMD_INQUIRE_CHANNEL_STATUS => inquire_channel_status(context, request),
        MQCMD_START_CHANNEL => message_channels::start(context, request),
        MQCMD_STOP_CHANNEL => message_channels::stop(context, request),
        MQCMD_PING_CHANNEL => message_channels::ping(context, request),
        MQCMD_RESET_CHANNEL => message_channels::reset(context, request),
        MQCMD_RESOLVE_CHANNEL => message_channels::resolve(context, request),
        MQCMD_INQUIRE_CONNECTION => inquire_connection(context, request),
        MQCMD_INQUIRE_PROCESS => inquire_objects(context, request, process),
        MQCMD_INQUIRE_PROCESS_NAMES => inquire_names(context, request, process),
        MQCMD_CREATE_PROCESS => create_or_change(context, request, process, Create),
        MQCMD_COPY_PROCESS => create_or_change(context, request, process, Copy),
        MQCMD_CHANGE_PROCESS => create_or_change(context, request, process, Alter),
        MQCMD_DELETE_PROCESS => delete(context, request, process),
        MQCMD_INQUIRE_NAMELIST => inquire_objects(context, request, namelist),
        MQCMD_INQUIRE_NAMELIST_NAMES => inquire_names(context, request, namelist),
        MQCMD_CREATE_NAMELIST => create_or_change(context, request, namelist, Create),
        MQCMD_COPY_NAMELIST => create_or_change(context, request, namelist, Copy),
        MQCMD_CHANGE_NAMELIST => create_or_change(context, request, namelist, Alter),
        MQCMD_DELETE_NAMELIST => delete(context, request, namelist),
        MQCMD_INQUIRE_AUTH_INFO => inquire_objects(context, request, auth_info),
        MQCMD_INQUIRE_AUTH_INFO_NAMES => inquire_names(context, request, auth_info),
        MQCMD_CREATE_AUTH_INFO => create_or_change(context, request, auth_info, Create),
        MQCMD_COPY_AUTH_INFO => create_or_change(context, request, auth_info, Copy),
        MQCMD_CHANGE_AUTH_INFO => create_or_change(context, request, auth_info, Alter),
        MQCMD_DELETE_AUTH_INFO => delete(context, request, auth_info),
        MQCMD_INQUIRE_TOPIC => inquire_objects(context, request, topic),
        MQCMD_INQUIRE_TOPIC_NAMES => inquire_names(context, request, topic),
        MQCMD_CREATE_TOPIC => create_or_change(context, request, topic, Create),
        MQCMD_COPY_TOPIC => create_or_change(context, request, topic, Copy),
        MQCMD_CHANGE_TOPIC => create_or_change(context, request, topic, Alter),
        MQCMD_DELETE_TOPIC => delete(context, request, topic),
        MQCMD_INQUIRE_SUBSCRIPTION => pubsub::inquire_subscriptions(context, request, false),
        MQCMD_INQUIRE_SUB_STATUS => pubsub::inquire_subscriptions(context, request, true),
        MQCMD_INQUIRE_TOPIC_STATUS => pubsub::inquire_topic_status(context, request),
        MQCMD_DELETE_SUBSCRIPTION => pubsub::delete_subscription(context, request),
        MQCMD_CHANGE_SUBSCRIPTION => pubsub::change_subscription(context, request),
        MQCMD_CREATE_SUBSCRIPTION => pubsub::create_subscription(context, request, false),
        MQCMD_COPY_SUBSCRIPTION => pubsub::create_subscription(context, request, true),
        MQCMD_INQUIRE_LISTENER_STATUS => inquire_listener_status(context, request),
        MQCMD_INQUIRE_USAGE => usage::inquire_usage(context, request),
        MQCMD_SET_CHLAUTH_REC => channel_authentication::set(context, request),
        MQCMD_INQUIRE_CHLAUTH_RECS => channel_authentication::inquire(context, request),
        MQCMD_SET_AUTH_REC => authority::set(context, request),
        MQCMD_DELETE_AUTH_REC => authority::delete(context, request),
        MQCMD_INQUIRE_AUTH_RECS => authority::inquire(context, request),
        MQCMD_INQUIRE_ENTITY_AUTH => authority::inquire_entity(context, request),
        _ => Err(PcfFailure::new(MQRCCF_CFH_COMMAND_ERROR)),
    }
}

/// The response messages to one PCF command.
fn responses(header: &PcfHeader, outcome: Responses) -> Vec<PcfMessage> {
    let extended = header.kind == MQCFT_COMMAND_XR;
    let response =
        |kind: i32, comp_code: i32, reason: i32, parameters: Vec<Parameter>| PcfMessage {
            header: PcfHeader {
                kind,
                version: header.version,
                command: header.command,
                msg_seq_number: 0,
                control: MQCFC_NOT_LAST,
                comp_code,
                reason,
                parameter_count: parameters.len() as i32,
            },
            parameters,
        };
    let item = if extended {
        MQCFT_XR_ITEM
    } else {
        MQCFT_RESPONSE
    };
    let summary = if extended {
        MQCFT_XR_SUMMARY
    } else {
        MQCFT_RESPONSE
    };
    let mut messages = match outcome {
        Ok(objects) if objects.is_empty() => vec![response(summary, MQCC_OK, 0, Vec::new())],
        Ok(objects) => {
            let mut messages: Vec<PcfMessage> = objects
                .into_iter()
                .map(|parameters| response(item, MQCC_OK, 0, parameters))
                .collect();
            if extended {
                messages.push(response(summary, MQCC_OK, 0, Vec::new()));
            }
            messages
        }
        Err(failure) => vec![response(
            summary,
            MQCC_FAILED,
            failure.reason,
            failure.parameters,
        )],
    };
    let count = messages.len();
    for (index, message) in messages.iter_mut().enumerate() {
        message.header.msg_seq_number = index as i32 + 1;
        if index + 1 == count {
            message.header.control = MQCFC_LAST;
        }
    }
    debug_assert!(messages
        .last()
        .is_some_and(|m| m.header.control == MQCFC_LAST));
    messages
}

/// Run the PCF command in `data` (a request whose MQMD Encoding is `encoding`) from this
/// process's console and return the response messages' data, in the request's byte order.
pub fn execute(processor: &CommandProcessor, encoding: i32, data: &[u8]) -> Vec<Vec<u8>> {
    execute_from(processor, &CommandOrigin::console(), encoding, data)
}

/// [`execute`] for a command that came from `origin` (its events report it).
pub fn execute_from(
    processor: &CommandProcessor,
    origin: &CommandOrigin,
    encoding: i32,
    data: &[u8],
) -> Vec<Vec<u8>> {
    let order = ByteOrder::of_encoding(encoding);
    let messages = match decode(data, order) {
        Ok(request) => execute_message_from(processor, origin, &request),
        Err(error) => {
            let header = PcfHeader {
                kind: if error.kind == MQCFT_COMMAND_XR {
                    MQCFT_COMMAND_XR
                } else {
                    MQCFT_COMMAND
                },
                version: if (MQCFH_VERSION_1..=MQCFH_VERSION_3).contains(&error.version) {
                    error.version
                } else {
                    MQCFH_VERSION_1
                },
                command: error.command,
                msg_seq_number: 1,
                control: MQCFC_LAST,
                comp_code: 0,
                reason: 0,
                parameter_count: 0,
            };
            let failure = match error.parameter {
                Some(parameter) => PcfFailure::parameter(error.reason, parameter),
                None => PcfFailure::new(error.reason),
            };
            responses(&header, Err(failure))
        }
    };
    messages
        .iter()
        .map(|message| encode(message, order))
        .collect()
}

/// Run a decoded PCF command from this process's console.
pub fn execute_message(processor: &CommandProcessor, request: &PcfMessage) -> Vec<PcfMessage> {
    execute_message_from(processor, &CommandOrigin::console(), request)
}

/// Run a decoded PCF command that came from `origin`: the command, then (when it succeeded)
/// its configuration and command events (events.rs).
pub fn execute_message_from(
    processor: &CommandProcessor,
    origin: &CommandOrigin,
    request: &PcfMessage,
) -> Vec<PcfMessage> {
    let initiator: Option<Arc<dyn crate::ChannelInitiator>> = processor.channel_initiator();
    let queue_manager = processor.queue_manager();
    let context = Context {
        queue_manager,
        name: queue_manager.name().to_string(),
        initiator: initiator.as_deref(),
        origin,
    };
    let command = request.header.command;
    let request_parameters = Request {
        parameters: &request.parameters,
    };
    // Command authority (command_authority.rs): for whom the command runs, before it runs.
    if let Err(reason) = crate::command_authority::check_pcf(&context, command, &request.parameters)
    {
        return responses(&request.header, Err(PcfFailure::new(reason)));
    }
    let command_events_before = queue_manager.queue_manager_attributes().command_events;
    let watch = match configuration_target(command, &request_parameters) {
        Some(target) => ConfigWatch::begin(&context, target),
        None => ConfigWatch::none(),
    };
    let outcome = run(&context, command, &request_parameters);
    if outcome.is_ok() {
        watch.finish(&context);
        events::report_command(
            &context,
            &CommandReport::pcf(command, &request.parameters),
            &command_events_before,
        );
    }
    responses(&request.header, outcome)
}

/// The object a configuration event would report for PCF `command` (create, copy, change and
/// delete of the object types MQ reports, and Change Queue Manager); `None` for any other
/// command, and when the name parameter is missing (the command fails).
fn configuration_target(command: i32, request: &Request) -> Option<Target> {
    let (object_type, copy) = match command {
        MQCMD_CHANGE_Q_MGR => return Some(Target::QueueManager),
        MQCMD_CREATE_Q | MQCMD_CHANGE_Q | MQCMD_DELETE_Q => (None, false),
        MQCMD_COPY_Q => (None, true),
        MQCMD_CREATE_CHANNEL | MQCMD_CHANGE_CHANNEL | MQCMD_DELETE_CHANNEL => {
            (Some(ObjectType::Channel), false)
        }
        MQCMD_COPY_CHANNEL => (Some(ObjectType::Channel), true),
        MQCMD_CREATE_PROCESS | MQCMD_CHANGE_PROCESS | MQCMD_DELETE_PROCESS => {
            (Some(ObjectType::Process), false)
        }
        MQCMD_COPY_PROCESS => (Some(ObjectType::Process), true),
        MQCMD_CREATE_NAMELIST | MQCMD_CHANGE_NAMELIST | MQCMD_DELETE_NAMELIST => {
            (Some(ObjectType::Namelist), false)
        }
        MQCMD_COPY_NAMELIST => (Some(ObjectType::Namelist), true),
        MQCMD_CREATE_AUTH_INFO | MQCMD_CHANGE_AUTH_INFO | MQCMD_DELETE_AUTH_INFO => {
            (Some(ObjectType::AuthInfo), false)
        }
        MQCMD_COPY_AUTH_INFO => (Some(ObjectType::AuthInfo), true),
        MQCMD_CREATE_TOPIC | MQCMD_CHANGE_TOPIC | MQCMD_DELETE_TOPIC => {
            (Some(ObjectType::Topic), false)
        }
        MQCMD_COPY_TOPIC => (Some(ObjectType::Topic), true),
        _ => return None,
    };
    let name_parameter = match (object_type, copy) {
        (None, true) => MQCACF_TO_Q_NAME,
        (Some(ObjectType::Channel), true) => MQCACF_TO_CHANNEL_NAME,
        (Some(ObjectType::Process), true) => MQCACF_TO_PROCESS_NAME,
        (Some(ObjectType::AuthInfo), true) => MQCACF_TO_AUTH_INFO_NAME,
        (Some(ObjectType::Topic), true) => MQCACF_TO_TOPIC_NAME,
        (Some(_), true) => MQCACF_TO_NAMELIST_NAME,
        (object_type, false) => {
            object_kind(object_type.unwrap_or(ObjectType::LocalQueue)).name_parameter
        }
    };
    let name = request.required_string(name_parameter).ok()?.to_string();
    Some(match object_type {
        None => Target::Queue(name),
        Some(object_type) => Target::Object(object_type, name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcf_attributes::{
        to_parameter, CHANNEL_STATUS_DISPLAY_ONLY, CONNECTION_DISPLAY_ONLY,
    };
    use crate::queue_attributes::queue_attributes;
    use ferrite_constants::appl_type::MQAT_JAVA;

    /// Every attribute DISPLAY shows for a queue of any type has its PCF parameter.
    #[test]
    fn every_queue_attribute_maps_to_a_selector() {
        let mut samples = vec![queue_attributes(None)];
        for object_type in [
            ObjectType::ModelQueue,
            ObjectType::AliasQueue,
            ObjectType::RemoteQueue,
        ] {
            samples.push(object_commands::queue_sample(object_type));
        }
        for sample in samples {
            assert_every_attribute_maps(QUEUE_MAP, &sample, &[]);
        }
    }

    /// Every attribute but the `display_only` ones has a mapping in `map` and a PCF value.
    fn assert_every_attribute_maps(
        map: &[Mapping],
        attributes: &Attributes,
        display_only: &[&str],
    ) {
        for (keyword, value) in attributes {
            if display_only.contains(keyword) {
                continue;
            }
            let mapping = map
                .iter()
                .find(|mapping| mapping.keyword == *keyword)
                .unwrap_or_else(|| panic!("{keyword} has no PCF parameter"));
            assert!(
                to_parameter("QM1", mapping, value).is_some(),
                "{keyword}({value:?}) has no PCF value"
            );
        }
    }

    #[test]
    fn every_other_displayed_attribute_maps() {
        let channel = object_commands::attributes(&object_commands::default_definition(
            ObjectType::Channel,
            "C",
        ));
        let process = object_commands::attributes(&object_commands::default_definition(
            ObjectType::Process,
            "P",
        ));
        let namelist = object_commands::attributes(&object_commands::default_definition(
            ObjectType::Namelist,
            "N",
        ));
        let connections = ferrite_queue_manager::Connections::default();
        let record = connections.register("APP", MQAT_JAVA, "user", 0).unwrap();
        let handle = ferrite_queue_manager::HandleRecord {
            hobj: 1,
            object_name: "Q".into(),
            object_type: MQOT_Q,
            queue: "Q".into(),
            open_options: MQOO_INPUT_EXCLUSIVE | MQOO_BROWSE,
            thread: 1,
        };
        let cases: Vec<(&[Mapping], Attributes, &[&str])> = vec![
            (CHANNEL_MAP, channel, &[]),
            (PROCESS_MAP, process, &[]),
            (NAMELIST_MAP, namelist, &[]),
            (
                TOPIC_MAP,
                object_commands::attributes(&object_commands::default_definition(
                    ObjectType::Topic,
                    "T",
                )),
                &[],
            ),
            (
                TOPIC_MAP,
                object_commands::attributes(&ObjectDefinition::Topic(
                    ferrite_queue_manager::TopicDefinition::system_base(),
                )),
                &[],
            ),
            (
                CONNECTION_MAP,
                connection_commands::attributes(Some(&record)),
                CONNECTION_DISPLAY_ONLY,
            ),
            (
                QUEUE_HANDLE_MAP,
                connection_commands::queue_handle_attributes("Q", Some((&record, &handle))),
                &[],
            ),
            (
                CHANNEL_STATUS_MAP,
                channel_commands::status_attributes(None),
                CHANNEL_STATUS_DISPLAY_ONLY,
            ),
            (
                CHANNEL_STATUS_MAP,
                channel_commands::message_status_attributes(&crate::MessageChannelStatus {
                    channel: "TO.QM2".into(),
                    channel_type: "SDR",
                    connection_name: String::new(),
                    status: "RETRYING".into(),
                    transmission_queue: "QM2".into(),
                    messages: 0,
                    batches: 0,
                    bytes_sent: 0,
                    bytes_received: 0,
                    current_sequence: 0,
                    last_sequence: 0,
                    in_doubt: true,
                    started: std::time::SystemTime::UNIX_EPOCH,
                    indicators: Default::default(),
                }),
                CHANNEL_STATUS_DISPLAY_ONLY,
            ),
        ];
        for (map, attributes, display_only) in cases {
            assert_every_attribute_maps(map, &attributes, display_only);
        }
    }

    #[test]
    fn connection_ids_carry_the_displayed_number() {
        let id = connection_id("QM1", 0x1234);
        assert_eq!(id.len(), 24);
        assert_eq!(&id[..4], b"QM1 ");
        let parameter = to_parameter(
            "QM1",
            &CONNECTION_MAP[0],
            &AttributeValue::Text("0000000000001234".into()),
        );
        assert_eq!(
            parameter,
            Some(Parameter::ByteString {
                parameter: MQBACF_CONNECTION_ID,
                value: id
            })
        );
    }

    #[test]
    fn filters() {
        let parameters = vec![
            Parameter::integer(MQIA_CURRENT_Q_DEPTH, 5),
            Parameter::string(MQCA_Q_DESC, "Payroll"),
            Parameter::StringList {
                parameter: MQCA_NAMES,
                values: vec!["A.B".into(), "C".into()],
            },
        ];
        let integer = |operator, value| Parameter::IntegerFilter {
            parameter: MQIA_CURRENT_Q_DEPTH,
            operator,
            value,
        };
        let string = |parameter, operator, value: &str| Parameter::StringFilter {
            parameter,
            operator,
            value: value.into(),
        };
        assert!(passes(&integer(MQCFOP_GREATER, 4), &parameters).unwrap());
        assert!(!passes(&integer(MQCFOP_GREATER, 5), &parameters).unwrap());
        assert!(passes(&integer(MQCFOP_NOT_LESS, 5), &parameters).unwrap());
        assert!(passes(&integer(MQCFOP_NOT_EQUAL, 6), &parameters).unwrap());
        assert_eq!(
            passes(&integer(MQCFOP_LIKE, 6), &parameters)
                .unwrap_err()
                .reason,
            MQRCCF_CFIF_OPERATOR_ERROR
        );
        assert!(passes(&string(MQCA_Q_DESC, MQCFOP_LIKE, "Pay*"), &parameters).unwrap());
        assert!(passes(&string(MQCA_Q_DESC, MQCFOP_NOT_LIKE, "X*"), &parameters).unwrap());
        assert!(passes(&string(MQCA_Q_DESC, MQCFOP_LESS, "Q"), &parameters).unwrap());
        assert!(passes(&string(MQCA_NAMES, MQCFOP_CONTAINS, "C"), &parameters).unwrap());
        assert!(passes(&string(MQCA_NAMES, MQCFOP_CONTAINS_GEN, "A.*"), &parameters).unwrap());
        assert!(passes(&string(MQCA_NAMES, MQCFOP_EXCLUDES, "D"), &parameters).unwrap());
        assert_eq!(
            passes(&string(MQCA_Q_MGR_NAME, MQCFOP_EQUAL, "X"), &parameters)
                .unwrap_err()
                .reason,
            MQRCCF_CFSF_PARM_ID_ERROR
        );
    }
}
