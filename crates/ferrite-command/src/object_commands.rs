//! DEFINE, ALTER, DELETE and DISPLAY of every object type the queue manager stores: QLOCAL,
//! QMODEL, QALIAS, QREMOTE, CHANNEL (SVRCONN, and the message channels SDR, SVR, RCVR and
//! RQSTR, each with the attributes MQ gives its type), PROCESS, NAMELIST, STGCLASS and AUTHINFO
//! (AUTHTYPE(IDPWOS)), with MQ's attribute names and defaults.
//!
//! DEFINE takes LIKE(name) (an object of the same type to copy), REPLACE and NOREPLACE (the
//! default: an existing object is an error, `CSQM095I ... ALREADY EXISTS`); ALTER changes only
//! the attributes given. Every value is checked before anything is stored, so a command that
//! fails changes nothing. DISPLAY takes a generic name (`APP.*`), ALL, attribute names and
//! WHERE(attribute operator value), and answers one message per object:
//!
//! | object                     | message  |
//! |----------------------------|----------|
//! | QUEUE (every queue type)   | CSQM401I |
//! | CHANNEL                    | CSQM406I |
//! | NAMELIST                   | CSQM407I |
//! | PROCESS                    | CSQM408I |
//! | STGCLASS                   | CSQM410I |
//! | AUTHINFO                   | AMQ8566I (MQ's own number for this display; the z/OS one is not in Ferrite's references) |
//! | TOPIC                      | AMQ8633I (likewise; topic_commands.rs) |
//!
//! An AUTHINFO changes connection authentication only at REFRESH SECURITY TYPE(CONNAUTH)
//! (security_commands.rs), as in MQ. DEFINE AUTHINFO needs AUTHTYPE; of MQ's types only
//! IDPWOS exists here (checked against Ferrite's user registry).

use ferrite_queue_manager::objects::message_channel::{
    compression_list_text, connection_name_text, parse_compression_list, parse_connection_name,
    split_connection_names, ChannelType, MessageChannelAttributes, NonPersistentMessageSpeed,
    PutAuthority, BATCH_DATA_LIMIT_KIB_MAX, BATCH_HEARTBEAT_MS_MAX, BATCH_INTERVAL_MS_MAX,
    BATCH_SIZE_MAX, CHANNEL_STATISTICS_VALUES, CONNECTION_NAME_LENGTH_MAX,
    HEADER_COMPRESSION_KEYWORDS, HEADER_COMPRESSION_LIST_MAX, MESSAGE_COMPRESSION_KEYWORDS,
    MESSAGE_COMPRESSION_LIST_MAX, RETRY_COUNT_MAX, RETRY_INTERVAL_SECONDS_MAX, SEQUENCE_WRAP_MAX,
    SEQUENCE_WRAP_MIN,
};
use ferrite_queue_manager::objects::{
    AliasTargetType, AUTH_INFO_CHECK_VALUES, AUTH_TYPES, FAIL_DELAY_SECONDS_MAX,
};
use ferrite_queue_manager::objects::{
    CHANNEL_NAME_LENGTH_MAX, CIPHER_SPECS, CIPHER_SPECS_UNSUPPORTED, DESCRIPTION_LENGTH_MAX,
    MCA_USER_LENGTH_MAX, NAMELIST_NAMES_MAX, SSL_PEER_LENGTH_MAX, STORAGE_CLASS_NAME_LENGTH_MAX,
};
use ferrite_queue_manager::{
    AliasDefinition, AuthInfoDefinition, ChannelDefinition, DefinitionType, NamelistDefinition,
    ObjectDefinition, ObjectType, ProcessDefinition, QueueDefinition, QueueManagerAttributes,
    RemoteDefinition, StorageClassDefinition, TopicDefinition, KEEPALIVE_AUTO,
};
use ferrite_storage::PageSetId;

use crate::attributes::{generic_match, AttributeValue};
use crate::context::{
    checked_name_or_blank, choice, enabled, exclusive, is_generic, keywords, number, object_name,
    value_error, yes_no, Context, Failure, Found, Outcome, Output, Selection, Takes,
};
use crate::parser::{words, SyntaxError, Token, Value};
use crate::queue_attributes::{
    apply_attributes, queue_attributes, queue_definition_attributes, QLOCAL_ATTRIBUTES,
    QLOCAL_EXCLUSIVE_FLAGS,
};
use crate::storage_class_page_set;

/// The attributes DEFINE and ALTER take for `object_type` (besides LIKE, REPLACE, NOREPLACE).
pub(crate) fn settable(object_type: ObjectType) -> Vec<(&'static str, Takes)> {
    let value = |names: &[&'static str]| -> Vec<(&'static str, Takes)> {
        names.iter().map(|name| (*name, Takes::Value)).collect()
    };
    match object_type {
        // SET CHLAUTH and SET AUTHREC have their own keywords; subscriptions are made by
        // MQSUB (the MQSC dispatcher does not route SUB here).
        ObjectType::ChannelAuthentication
        | ObjectType::AuthorityRecord
        | ObjectType::Subscription => Vec::new(),
        ObjectType::LocalQueue => QLOCAL_ATTRIBUTES.to_vec(),
        ObjectType::ModelQueue => {
            let mut attributes = QLOCAL_ATTRIBUTES.to_vec();
            attributes.push(("DEFTYPE", Takes::Value));
            attributes
        }
        ObjectType::AliasQueue => value(&[
            "DESCR", "TARGET", "TARGQ", "TARGTYPE", "PUT", "GET", "DEFPSIST", "DEFPRTY", "QSGDISP",
        ]),
        ObjectType::RemoteQueue => value(&[
            "DESCR", "RNAME", "RQMNAME", "XMITQ", "PUT", "DEFPSIST", "DEFPRTY", "QSGDISP",
        ]),
        ObjectType::Channel => value(&[
            "CHLTYPE", "TRPTYPE", "DESCR", "MAXMSGL", "HBINT", "KAINT", "SHARECNV", "MAXINST",
            "MAXINSTC", "DISCINT", "MONCHL", "QSGDISP", "SSLCIPH", "SSLCAUTH", "SSLPEER",
            "MCAUSER", // message channels (objects/message_channel.rs):
            "CONNAME", "XMITQ", "BATCHSZ", "BATCHINT", "BATCHLIM", "BATCHHB", "NPMSPEED",
            "SHORTRTY", "SHORTTMR", "LONGRTY", "LONGTMR", "SEQWRAP", "PUTAUT", "STATCHL",
            "COMPHDR", "COMPMSG",
        ]),
        ObjectType::Process => value(&[
            "DESCR", "APPLICID", "APPLTYPE", "USERDATA", "ENVRDATA", "QSGDISP",
        ]),
        ObjectType::Namelist => value(&["DESCR", "NAMES", "NLTYPE", "QSGDISP"]),
        ObjectType::StorageClass => value(&["DESCR", "PSID", "QSGDISP"]),
        ObjectType::AuthInfo => value(&[
            "AUTHTYPE", "DESCR", "CHCKCLNT", "CHCKLOCL", "ADOPTCTX", "FAILDLAY", "QSGDISP",
        ]),
        // ALTER QMGR has its own command (qmgr_commands.rs); DEFINE QMGR does not exist.
        ObjectType::QueueManager => Vec::new(),
        ObjectType::Topic => value(crate::topic_commands::TOPIC_KEYWORDS),
    }
}

/// A new object of `object_type` with MQ's defaults (the attributes of MQ's SYSTEM.DEFAULT.*
/// and SYSTEM.DEF.* objects as supplied).
pub(crate) fn default_definition(object_type: ObjectType, name: &str) -> ObjectDefinition {
    let default_page_set =
        PageSetId(storage_class_page_set("DEFAULT").expect("DEFAULT is a built-in class"));
    match object_type {
        ObjectType::LocalQueue => {
            ObjectDefinition::Local(QueueDefinition::local(name, default_page_set))
        }
        ObjectType::ModelQueue => {
            ObjectDefinition::Model(QueueDefinition::model(name, default_page_set))
        }
        ObjectType::AliasQueue => ObjectDefinition::Alias(AliasDefinition::new(name, "")),
        ObjectType::RemoteQueue => ObjectDefinition::Remote(RemoteDefinition::new(name)),
        ObjectType::Channel => {
            ObjectDefinition::Channel(ChannelDefinition::server_connection(name))
        }
        ObjectType::Process => ObjectDefinition::Process(ProcessDefinition::new(name)),
        ObjectType::Namelist => ObjectDefinition::Namelist(NamelistDefinition {
            name: name.to_string(),
            description: String::new(),
            names: Vec::new(),
        }),
        ObjectType::StorageClass => ObjectDefinition::StorageClass(StorageClassDefinition {
            name: name.to_string(),
            description: String::new(),
            page_set: default_page_set,
        }),
        ObjectType::QueueManager => {
            ObjectDefinition::QueueManager(QueueManagerAttributes::new(name, 1, 0))
        }
        ObjectType::AuthInfo => ObjectDefinition::AuthInfo(AuthInfoDefinition::new(name)),
        ObjectType::Topic => ObjectDefinition::Topic(TopicDefinition::new(name, "")),
        ObjectType::ChannelAuthentication
        | ObjectType::AuthorityRecord
        | ObjectType::Subscription => {
            unreachable!("CHLAUTH and AUTHREC records are made by SET CHLAUTH and SET AUTHREC, subscriptions by MQSUB")
        }
    }
}

pub(crate) fn rename(definition: &mut ObjectDefinition, name: &str) {
    let name = name.to_string();
    match definition {
        ObjectDefinition::Local(d) | ObjectDefinition::Model(d) => d.name = name,
        ObjectDefinition::ChannelAuthentication(_)
        | ObjectDefinition::AuthorityRecord(_)
        | ObjectDefinition::Subscription(_) => {
            unreachable!("CHLAUTH and AUTHREC records and subscriptions are not copied")
        }
        ObjectDefinition::Alias(d) => d.name = name,
        ObjectDefinition::Remote(d) => d.name = name,
        ObjectDefinition::Channel(d) => d.name = name,
        ObjectDefinition::Process(d) => d.name = name,
        ObjectDefinition::Namelist(d) => d.name = name,
        ObjectDefinition::StorageClass(d) => d.name = name,
        ObjectDefinition::QueueManager(d) => d.name = name,
        ObjectDefinition::AuthInfo(d) => d.name = name,
        ObjectDefinition::Topic(d) => d.name = name,
    }
}

/// The longest name an object of `object_type` may have.
pub(crate) fn name_length_max(object_type: ObjectType) -> usize {
    match object_type {
        ObjectType::Channel => CHANNEL_NAME_LENGTH_MAX,
        ObjectType::StorageClass => STORAGE_CLASS_NAME_LENGTH_MAX,
        _ => 48,
    }
}

fn check_name_length(
    object_type: ObjectType,
    object: &Token,
    name: &str,
) -> Result<(), SyntaxError> {
    let max = name_length_max(object_type);
    if name.chars().count() > max {
        let value = object.value.as_ref().expect("object_name found a name");
        return Err(value_error(
            object,
            value,
            &format!(
                "a {} name has at most {max} characters",
                object_type.keyword()
            ),
        ));
    }
    Ok(())
}

/// SSLCIPH: blank, or a CipherSpec name Ferrite's TLS serves (MQ's names, any case).
fn cipher_spec(token: &Token, value: &Value) -> Result<String, SyntaxError> {
    let name = value.text.trim().to_ascii_uppercase();
    if name.is_empty() || CIPHER_SPECS.contains(&name.as_str()) {
        return Ok(name);
    }
    let why = if CIPHER_SPECS_UNSUPPORTED.contains(&name.as_str()) {
        format!(
            "CipherSpec {name} is not available in Ferrite (its TLS library has no static RSA key exchange, CBC or CCM); use one of {}",
            CIPHER_SPECS.join(", ")
        )
    } else {
        format!("unknown CipherSpec; use one of {}", CIPHER_SPECS.join(", "))
    };
    Err(value_error(token, value, &why))
}

fn text(token: &Token, value: &Value, max: usize) -> Result<String, SyntaxError> {
    if value.text.chars().count() > max {
        return Err(value_error(
            token,
            value,
            &format!("at most {max} characters"),
        ));
    }
    Ok(value.text.clone())
}

/// A queue or queue manager name, or blank.
fn name_or_blank(token: &Token, value: &Value) -> Result<String, SyntaxError> {
    checked_name_or_blank(token, value, &value.text)
}

fn interval(token: &Token, value: &Value) -> Result<u32, SyntaxError> {
    Ok(number(token, value, 999_999)? as u32)
}

/// Apply one keyword's value to a definition (everything checked, nothing stored).
pub(crate) fn apply(
    context: &Context,
    definition: &mut ObjectDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    let keyword = token.keyword.as_str();
    if keyword == "QSGDISP" {
        choice(token, value, &["QMGR"])?;
        return Ok(());
    }
    match definition {
        ObjectDefinition::Local(queue) | ObjectDefinition::Model(queue) => {
            if keyword == "DEFTYPE" {
                queue.definition_type = match choice(token, value, &["TEMPDYN", "PERMDYN"])? {
                    0 => DefinitionType::TemporaryDynamic,
                    _ => DefinitionType::PermanentDynamic,
                };
                return Ok(());
            }
            apply_attributes(context, queue, &[(token, Some(value))])?;
        }
        ObjectDefinition::Alias(alias) => apply_alias(alias, token, value)?,
        ObjectDefinition::Remote(remote) => apply_remote(remote, token, value)?,
        ObjectDefinition::Channel(channel) => apply_channel(channel, token, value)?,
        ObjectDefinition::Process(process) => apply_process(process, token, value)?,
        ObjectDefinition::Namelist(namelist) => apply_namelist(namelist, token, value)?,
        ObjectDefinition::StorageClass(class) => apply_storage_class(context, class, token, value)?,
        ObjectDefinition::QueueManager(_) => unreachable!("settable() has no QMGR keywords"),
        ObjectDefinition::ChannelAuthentication(_)
        | ObjectDefinition::AuthorityRecord(_)
        | ObjectDefinition::Subscription(_) => {
            unreachable!("keywords checked against settable(), empty for CHLAUTH, AUTHREC, SUB")
        }
        ObjectDefinition::AuthInfo(auth_info) => apply_auth_info(auth_info, token, value)?,
        ObjectDefinition::Topic(topic) => crate::topic_commands::apply_topic(topic, token, value)?,
    }
    Ok(())
}

/// Apply one keyword's value to an alias queue's definition.
fn apply_alias(
    alias: &mut AliasDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "DESCR" => alias.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "TARGET" | "TARGQ" => alias.target = name_or_blank(token, value)?,
        "TARGTYPE" => {
            alias.target_type = match choice(token, value, &["QUEUE", "TOPIC"])? {
                0 => AliasTargetType::Queue,
                _ => AliasTargetType::Topic,
            };
        }
        "PUT" => alias.put_inhibited = enabled_choice(token, value)?,
        "GET" => alias.get_inhibited = enabled_choice(token, value)?,
        "DEFPSIST" => alias.default_persistent = persistence(token, value)?,
        "DEFPRTY" => alias.default_priority = number(token, value, 9)? as u8,
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// Apply one keyword's value to a remote queue's definition.
fn apply_remote(
    remote: &mut RemoteDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "DESCR" => remote.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "RNAME" => remote.remote_name = name_or_blank(token, value)?,
        "RQMNAME" => remote.remote_queue_manager = name_or_blank(token, value)?,
        "XMITQ" => remote.transmission_queue = name_or_blank(token, value)?,
        "PUT" => remote.put_inhibited = enabled_choice(token, value)?,
        "DEFPSIST" => remote.default_persistent = persistence(token, value)?,
        "DEFPRTY" => remote.default_priority = number(token, value, 9)? as u8,
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// Apply one keyword's value to a channel's definition: CHLTYPE must be the channel's own
/// type, and every other keyword an attribute of that type.
fn apply_channel(
    channel: &mut ChannelDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    let keyword = token.keyword.as_str();
    if keyword == "CHLTYPE" {
        let named = channel_type(token, value)?;
        if named != channel.channel_type {
            return Err(value_error(
                token,
                value,
                &format!("the channel is CHLTYPE({})", channel.channel_type.keyword()),
            ));
        }
        return Ok(());
    }
    if !channel.channel_type.has_attribute(keyword) {
        return Err(value_error(
            token,
            value,
            &format!(
                "{keyword} is not an attribute of CHLTYPE({}) channels",
                channel.channel_type.keyword()
            ),
        ));
    }
    if apply_message_channel(&mut channel.message, token, value)? {
        return Ok(());
    }
    match keyword {
        "TRPTYPE" => {
            choice(token, value, &["TCP"])?;
        }
        "DESCR" => channel.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "MAXMSGL" => channel.max_message_length = number(token, value, 104_857_600)? as u32,
        "HBINT" => channel.heartbeat_interval = interval(token, value)?,
        "KAINT" => {
            channel.keepalive_interval = if value.text == "AUTO" {
                KEEPALIVE_AUTO
            } else {
                interval(token, value).map_err(|_| {
                    value_error(token, value, "AUTO or a number from 0 to 999999 is needed")
                })? as i32
            }
        }
        "SHARECNV" => channel.sharing_conversations = number(token, value, 999_999_999)? as u32,
        "MAXINST" => channel.max_instances = number(token, value, 999_999_999)? as u32,
        "MAXINSTC" => channel.max_instances_per_client = number(token, value, 999_999_999)? as u32,
        "DISCINT" => channel.disconnect_interval = interval(token, value)?,
        "MONCHL" => {
            let choices = ["QMGR", "OFF", "LOW", "MEDIUM", "HIGH"];
            channel.monitoring = choices[choice(token, value, &choices)?].to_string();
        }
        "SSLCIPH" => channel.ssl_cipher_spec = cipher_spec(token, value)?,
        "SSLCAUTH" => {
            channel.ssl_client_auth_required = choice(token, value, &["REQUIRED", "OPTIONAL"])? == 0
        }
        "SSLPEER" => channel.ssl_peer = text(token, value, SSL_PEER_LENGTH_MAX)?,
        "MCAUSER" => channel.mca_user = text(token, value, MCA_USER_LENGTH_MAX)?,
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// The attribute a channel of its type cannot be without, if it is: CONNAME for SDR and RQSTR,
/// XMITQ for SDR and SVR.
pub(crate) fn missing_channel_attribute(channel: &ChannelDefinition) -> Option<&'static str> {
    let message = &channel.message;
    match channel.channel_type {
        ChannelType::Sender | ChannelType::Requester if message.connection_names.is_empty() => {
            Some("CONNAME")
        }
        ChannelType::Sender | ChannelType::Server if message.transmission_queue.is_empty() => {
            Some("XMITQ")
        }
        _ => None,
    }
}

/// The channel type a CHLTYPE value names (MQ's types Ferrite does not define are refused).
pub(crate) fn channel_type(token: &Token, value: &Value) -> Result<ChannelType, SyntaxError> {
    let types = [
        "SVRCONN", "SDR", "SVR", "RCVR", "RQSTR", "CLNTCONN", "CLUSSDR", "CLUSRCVR", "AMQP",
    ];
    choice(token, value, &types)?;
    ChannelType::from_keyword(&value.text).ok_or_else(|| {
        value_error(
            token,
            value,
            "SVRCONN, SDR, SVR, RCVR and RQSTR channels are supported",
        )
    })
}

/// Apply a message channel's own attribute; `Ok(false)` for any other keyword.
fn apply_message_channel(
    message: &mut MessageChannelAttributes,
    token: &Token,
    value: &Value,
) -> Result<bool, SyntaxError> {
    let count = |limit: u32| number(token, value, limit.into()).map(|n| n as u32);
    match token.keyword.as_str() {
        "CONNAME" => {
            let names = split_connection_names(&value.text);
            if let Some(bad) = names.iter().find(|n| parse_connection_name(n).is_none()) {
                return Err(value_error(
                    token,
                    value,
                    &format!("'{bad}' is not host(port) or host"),
                ));
            }
            text(token, value, CONNECTION_NAME_LENGTH_MAX)?;
            message.connection_names = names;
        }
        "XMITQ" => message.transmission_queue = name_or_blank(token, value)?,
        "BATCHSZ" => {
            message.batch_size = count(BATCH_SIZE_MAX)?;
            if message.batch_size == 0 {
                return Err(value_error(
                    token,
                    value,
                    "a number from 1 to 9999 is needed",
                ));
            }
        }
        "BATCHINT" => message.batch_interval_ms = count(BATCH_INTERVAL_MS_MAX)?,
        "BATCHLIM" => message.batch_data_limit_kib = count(BATCH_DATA_LIMIT_KIB_MAX)?,
        "BATCHHB" => message.batch_heartbeat_ms = count(BATCH_HEARTBEAT_MS_MAX)?,
        "NPMSPEED" => {
            message.non_persistent_message_speed = match choice(token, value, &["FAST", "NORMAL"])?
            {
                0 => NonPersistentMessageSpeed::Fast,
                _ => NonPersistentMessageSpeed::Normal,
            }
        }
        "SHORTRTY" => message.short_retry_count = count(RETRY_COUNT_MAX)?,
        "SHORTTMR" => message.short_retry_interval_seconds = count(RETRY_INTERVAL_SECONDS_MAX)?,
        "LONGRTY" => message.long_retry_count = count(RETRY_COUNT_MAX)?,
        "LONGTMR" => message.long_retry_interval_seconds = count(RETRY_INTERVAL_SECONDS_MAX)?,
        "SEQWRAP" => {
            message.sequence_number_wrap = count(SEQUENCE_WRAP_MAX)?;
            if message.sequence_number_wrap < SEQUENCE_WRAP_MIN {
                return Err(value_error(
                    token,
                    value,
                    "a number from 100 to 999999999 is needed",
                ));
            }
        }
        "PUTAUT" => {
            message.put_authority = match choice(token, value, &["DEF", "CTX"])? {
                0 => PutAuthority::Default,
                _ => PutAuthority::Context,
            }
        }
        "STATCHL" => {
            message.statistics = CHANNEL_STATISTICS_VALUES
                [choice(token, value, &CHANNEL_STATISTICS_VALUES)?]
            .to_string()
        }
        "COMPHDR" | "COMPMSG" => {
            let (keywords, max, list) = if token.keyword == "COMPHDR" {
                (
                    HEADER_COMPRESSION_KEYWORDS,
                    HEADER_COMPRESSION_LIST_MAX,
                    &mut message.header_compression,
                )
            } else {
                (
                    MESSAGE_COMPRESSION_KEYWORDS,
                    MESSAGE_COMPRESSION_LIST_MAX,
                    &mut message.message_compression,
                )
            };
            let parsed = parse_compression_list(keywords, &value.text)
                .map_err(|why| value_error(token, value, &why))?;
            if parsed.is_empty() || parsed.len() > max {
                return Err(value_error(
                    token,
                    value,
                    &format!("1 to {max} techniques are needed"),
                ));
            }
            *list = parsed;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Apply one keyword's value to a process's definition.
fn apply_process(
    process: &mut ProcessDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "DESCR" => process.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "APPLICID" => process.application_id = text(token, value, 256)?,
        "APPLTYPE" => {
            let keywords = [
                "CICS",
                "IMS",
                "MVS",
                "UNIX",
                "WINDOWS",
                "WINDOWSNT",
                "DEF",
                "OS400",
                "ZOS",
            ];
            let valid = keywords.contains(&value.text.as_str())
                || value
                    .text
                    .parse::<u32>()
                    .is_ok_and(|number| number <= 999_999_999);
            if !valid {
                return Err(value_error(
                    token,
                    value,
                    &format!("one of {} or a number is needed", keywords.join(", ")),
                ));
            }
            process.application_type = value.text.clone();
        }
        "USERDATA" => process.user_data = text(token, value, 128)?,
        "ENVRDATA" => process.environment_data = text(token, value, 128)?,
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// Apply one keyword's value to a namelist's definition.
fn apply_namelist(
    namelist: &mut NamelistDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "DESCR" => namelist.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "NLTYPE" => {
            choice(token, value, &["NONE", "QUEUE", "Q", "CLUSTER", "AUTHINFO"])?;
        }
        "NAMES" => {
            let names: Vec<String> = words(&value.raw, value.position)?
                .into_iter()
                .map(|(name, _, _)| name)
                .collect();
            if names.len() > NAMELIST_NAMES_MAX {
                return Err(value_error(
                    token,
                    value,
                    &format!("at most {NAMELIST_NAMES_MAX} names"),
                ));
            }
            for (name, _, position) in words(&value.raw, value.position)? {
                let valid = name.len() <= 48
                    && !name.is_empty()
                    && name
                        .chars()
                        .all(ferrite_storage::config::is_object_name_char);
                if !valid {
                    return Err(SyntaxError::new(
                        format!("CSQ9004E 'NAMES' value '{name}' is not a valid name"),
                        position,
                    ));
                }
            }
            namelist.names = names;
        }
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// Apply one keyword's value to a storage class's definition.
fn apply_storage_class(
    context: &Context,
    class: &mut StorageClassDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "DESCR" => class.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "PSID" => {
            let page_set = number(token, value, 99)? as u8;
            let configured = context.queue_manager.page_set_defined(page_set);
            if !configured {
                return Err(value_error(
                    token,
                    value,
                    &format!("page set {page_set:02} is not defined"),
                ));
            }
            class.page_set = PageSetId(page_set);
        }
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// Apply one keyword's value to an authentication information object's definition.
fn apply_auth_info(
    auth_info: &mut AuthInfoDefinition,
    token: &Token,
    value: &Value,
) -> Result<(), SyntaxError> {
    match token.keyword.as_str() {
        "AUTHTYPE" => {
            if choice(token, value, &AUTH_TYPES)? != 0 {
                return Err(value_error(
                    token,
                    value,
                    "only AUTHTYPE(IDPWOS) is supported (user IDs and passwords checked against the queue manager's user registry)",
                ));
            }
        }
        "DESCR" => auth_info.description = text(token, value, DESCRIPTION_LENGTH_MAX)?,
        "CHCKCLNT" => {
            auth_info.check_client =
                AUTH_INFO_CHECK_VALUES[choice(token, value, &AUTH_INFO_CHECK_VALUES)?].to_string()
        }
        "CHCKLOCL" => {
            auth_info.check_local =
                AUTH_INFO_CHECK_VALUES[choice(token, value, &AUTH_INFO_CHECK_VALUES)?].to_string()
        }
        "ADOPTCTX" => auth_info.adopt_context = choice(token, value, &["NO", "YES"])? == 1,
        "FAILDLAY" => {
            auth_info.fail_delay_seconds =
                number(token, value, FAIL_DELAY_SECONDS_MAX.into())? as u32
        }
        _ => unreachable!("keywords checked against settable()"),
    }
    Ok(())
}

/// ENABLED or DISABLED (PUT, GET): whether it is inhibited.
fn enabled_choice(token: &Token, value: &Value) -> Result<bool, SyntaxError> {
    Ok(choice(token, value, &["ENABLED", "DISABLED"])? == 1)
}

/// DEFPSIST: NO or YES.
fn persistence(token: &Token, value: &Value) -> Result<bool, SyntaxError> {
    Ok(choice(token, value, &["NO", "YES"])? == 1)
}

fn already_exists(context: &Context, object_type: ObjectType, name: &str) -> Failure {
    Failure(vec![
        format!(
            "CSQM095I {} CSQMMSGP {}({name}) QSGDISP(QMGR) ALREADY EXISTS",
            context.name,
            object_type.keyword()
        ),
        format!(
            "CSQM090E {} CSQMMSGP FAILURE REASON CODE X'00D44003'",
            context.name
        ),
    ])
}

/// DEFINE or ALTER of any object type.
pub(crate) fn define_or_alter(
    context: &Context,
    alter: bool,
    object_type: ObjectType,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let queue_manager = context.queue_manager;
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    check_name_length(object_type, object, &name).map_err(|e| context.syntax(e))?;
    let mut allowed = settable(object_type);
    if alter && object_type == ObjectType::Topic {
        // A topic object's node does not move (MQ: TOPICSTR is not an ALTER TOPIC keyword).
        allowed.retain(|(keyword, _)| *keyword != "TOPICSTR");
    }
    if !alter {
        allowed.extend([
            ("LIKE", Takes::Value),
            ("REPLACE", Takes::Nothing),
            ("NOREPLACE", Takes::Nothing),
        ]);
    }
    let found: Found = keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
    exclusive(&found, "REPLACE", "NOREPLACE").map_err(|e| context.syntax(e))?;
    exclusive(&found, "TARGET", "TARGQ").map_err(|e| context.syntax(e))?;
    let replace = found.iter().any(|(token, _)| token.keyword == "REPLACE");
    let required = match object_type {
        ObjectType::Channel => Some("CHLTYPE"),
        ObjectType::AuthInfo => Some("AUTHTYPE"),
        ObjectType::Topic => Some("TOPICSTR"),
        _ => None,
    };
    if let Some(required) = required.filter(|_| !alter) {
        if !found.iter().any(|(token, _)| token.keyword == required) {
            return Err(context.syntax(SyntaxError::new(
                format!("CSQ9010E Required parameter '{required}' is missing"),
                object.position + object.keyword.chars().count(),
            )));
        }
    }
    let existing = queue_manager.object(object_type, &name);
    let mut definition = if alter {
        existing.ok_or_else(|| context.not_found("CSQMMSGP", object_type.keyword(), &name))?
    } else {
        if existing.is_some() && !replace {
            return Err(already_exists(context, object_type, &name));
        }
        let like = found
            .iter()
            .find(|(token, _)| token.keyword == "LIKE")
            .and_then(|(_, value)| *value);
        match like {
            Some(like) => {
                let mut source =
                    queue_manager
                        .object(object_type, &like.text)
                        .ok_or_else(|| {
                            context.not_found("CSQMMSGP", object_type.keyword(), &like.text)
                        })?;
                rename(&mut source, &name);
                if let ObjectDefinition::Local(queue) = &mut source {
                    // A queue defined like a dynamic queue is a predefined queue.
                    queue.definition_type = DefinitionType::Predefined;
                }
                source
            }
            None => match found.iter().find(|(token, _)| token.keyword == "CHLTYPE") {
                // A channel starts from its type's defaults.
                Some((token, Some(value))) => {
                    ObjectDefinition::Channel(ChannelDefinition::of_type(
                        &name,
                        channel_type(token, value).map_err(|e| context.syntax(e))?,
                    ))
                }
                _ => default_definition(object_type, &name),
            },
        }
    };
    for (yes, no) in QLOCAL_EXCLUSIVE_FLAGS {
        exclusive(&found, yes, no).map_err(|e| context.syntax(e))?;
    }
    apply_all(context, &mut definition, &found).map_err(|e| context.syntax(e))?;
    if let ObjectDefinition::Channel(channel) = &definition {
        if let Some(missing) = missing_channel_attribute(channel) {
            return Err(context.syntax(SyntaxError::new(
                format!(
                    "CSQ9010E Required parameter '{missing}' is missing (CHLTYPE({}))",
                    channel.channel_type.keyword()
                ),
                object.position + object.keyword.chars().count(),
            )));
        }
    }
    definition
        .validate()
        .map_err(|error| context.storage("CSQMMSGP", error))?;
    // Everything is checked: now the one change.
    let result = match (definition, alter) {
        (ObjectDefinition::Local(_), true) => {
            let queue = queue_manager
                .queue(&name)
                .ok_or_else(|| context.not_found("CSQMMSGP", object_type.keyword(), &name))?;
            // Only the attributes named change, applied again to the definition current under
            // the object lock: the queue manager may have switched an event or trigger
            // control since the read above, and that switch must not be undone.
            let mut changed = None;
            let mut refused = None;
            let result = queue_manager.update_queue_definition(&queue, |current| {
                let mut altered = ObjectDefinition::Local(current.clone());
                if let Err(error) = apply_all(context, &mut altered, &found) {
                    refused = Some(error);
                    return Err(ferrite_storage::StorageError::mq(
                        ferrite_constants::reason::MQRC_UNEXPECTED_ERROR,
                        "the ALTER no longer applies",
                    ));
                }
                let ObjectDefinition::Local(altered) = altered else {
                    unreachable!("a local queue stays a local queue");
                };
                changed = Some(current.clone());
                *current = altered;
                Ok(true)
            });
            if let Some(error) = refused {
                return Err(context.syntax(error));
            }
            result.map(|_| {
                // Trigger hook: ALTER switching triggering on (or GET enabled) checks the queue.
                if let Some(before) = changed {
                    ferrite_mqi::triggering::definition_changed(queue_manager, &before, &queue);
                }
            })
        }
        (ObjectDefinition::Local(queue), false) => {
            queue_manager.define_queue(queue, replace).map(|_| ())
        }
        (other, true) => queue_manager.alter_object(other),
        (other, false) => queue_manager.define_object(other, replace),
    };
    result.map_err(|error| context.storage("CSQMMSGP", error))?;
    Ok(Output::default())
}

/// Apply every keyword of a DEFINE or ALTER (but LIKE) to `definition`.
pub(crate) fn apply_all(
    context: &Context,
    definition: &mut ObjectDefinition,
    found: &[(&Token, Option<&Value>)],
) -> Result<(), SyntaxError> {
    for (token, value) in found {
        if token.keyword == "LIKE" {
            continue;
        }
        match (value, &mut *definition) {
            (Some(value), definition) => apply(context, definition, token, value)?,
            // TRIGGER/NOTRIGGER and the other flags of a queue.
            (None, ObjectDefinition::Local(queue) | ObjectDefinition::Model(queue)) => {
                apply_attributes(context, queue, &[(token, None)])?
            }
            (None, _) => {}
        }
    }
    Ok(())
}

/// DELETE of an object that is not a local queue.
pub(crate) fn delete(
    context: &Context,
    object_type: ObjectType,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let name = object_name(object, false).map_err(|e| context.syntax(e))?;
    let mut allowed = vec![("QSGDISP", Takes::Value)];
    if object_type == ObjectType::Channel {
        allowed.push(("CHLTYPE", Takes::Value));
    }
    let found = keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
    for (token, value) in &found {
        let value = value.expect("checked");
        if token.keyword == "CHLTYPE" {
            let named = channel_type(token, value).map_err(|e| context.syntax(e))?;
            let defined = match context.queue_manager.object(object_type, &name) {
                Some(ObjectDefinition::Channel(channel)) => Some(channel.channel_type),
                _ => None,
            };
            if defined.is_some_and(|defined| defined != named) {
                return Err(context.syntax(value_error(
                    token,
                    value,
                    "the channel is of another CHLTYPE",
                )));
            }
        } else {
            choice(token, value, &["QMGR"]).map_err(|e| context.syntax(e))?;
        }
    }
    if context.queue_manager.object(object_type, &name).is_none() {
        return Err(context.not_found("CSQMUQLC", object_type.keyword(), &name));
    }
    context
        .queue_manager
        .delete_object(object_type, &name)
        .map_err(|error| context.storage("CSQMUQLC", error))?;
    Ok(Output::default())
}

fn keyword_of(value: &str, choices: &[&'static str]) -> AttributeValue {
    choices
        .iter()
        .find(|choice| **choice == value)
        .map(|choice| AttributeValue::Keyword(choice))
        .unwrap_or_else(|| AttributeValue::Text(value.to_string()))
}

/// A stored object's attributes for DISPLAY, in display order; the first are always shown
/// (the name, TYPE or CHLTYPE, QSGDISP).
pub(crate) fn attributes(definition: &ObjectDefinition) -> Vec<(&'static str, AttributeValue)> {
    let mut attributes = definition_attributes(definition);
    match definition {
        // A model's come with the queue attributes; the queue manager's with DISPLAY QMGR's.
        ObjectDefinition::Model(_) | ObjectDefinition::QueueManager(_) => {}
        _ => attributes.extend(crate::attributes::time_attributes(false)),
    }
    attributes
}

/// [`attributes`] but the times.
fn definition_attributes(definition: &ObjectDefinition) -> Vec<(&'static str, AttributeValue)> {
    let text = |value: &str| AttributeValue::Text(value.to_string());
    let integer = |value: u32| AttributeValue::Integer(value.into());
    let qmgr = ("QSGDISP", AttributeValue::Keyword("QMGR"));
    match definition {
        ObjectDefinition::Local(_) => {
            unreachable!("local queues are displayed with their status")
        }
        ObjectDefinition::ChannelAuthentication(_)
        | ObjectDefinition::AuthorityRecord(_)
        | ObjectDefinition::Subscription(_) => {
            unreachable!("DISPLAY CHLAUTH and DISPLAY AUTHREC have their own commands; SUB is not displayed here")
        }
        ObjectDefinition::Model(d) => queue_definition_attributes(d, "QMODEL"),
        ObjectDefinition::Alias(d) => vec![
            ("QUEUE", text(&d.name)),
            ("TYPE", AttributeValue::Keyword("QALIAS")),
            qmgr,
            ("DESCR", text(&d.description)),
            ("PUT", enabled(d.put_inhibited)),
            ("DEFPRTY", integer(d.default_priority.into())),
            ("DEFPSIST", yes_no(d.default_persistent)),
            ("GET", enabled(d.get_inhibited)),
            ("TARGET", text(&d.target)),
            ("TARGTYPE", AttributeValue::Keyword(d.target_type.keyword())),
        ],
        ObjectDefinition::Remote(d) => vec![
            ("QUEUE", text(&d.name)),
            ("TYPE", AttributeValue::Keyword("QREMOTE")),
            qmgr,
            ("DESCR", text(&d.description)),
            ("PUT", enabled(d.put_inhibited)),
            ("DEFPRTY", integer(d.default_priority.into())),
            ("DEFPSIST", yes_no(d.default_persistent)),
            ("RNAME", text(&d.remote_name)),
            ("RQMNAME", text(&d.remote_queue_manager)),
            ("XMITQ", text(&d.transmission_queue)),
        ],
        ObjectDefinition::Channel(d) => channel_attributes(d),
        ObjectDefinition::Process(d) => vec![
            ("PROCESS", text(&d.name)),
            qmgr,
            ("DESCR", text(&d.description)),
            ("APPLICID", text(&d.application_id)),
            ("APPLTYPE", text(&d.application_type)),
            ("USERDATA", text(&d.user_data)),
            ("ENVRDATA", text(&d.environment_data)),
        ],
        ObjectDefinition::Namelist(d) => vec![
            ("NAMELIST", text(&d.name)),
            qmgr,
            ("DESCR", text(&d.description)),
            ("NLTYPE", AttributeValue::Keyword("NONE")),
            ("NAMCOUNT", integer(d.names.len() as u32)),
            ("NAMES", text(&d.names.join(","))),
        ],
        ObjectDefinition::StorageClass(d) => vec![
            ("STGCLASS", text(&d.name)),
            qmgr,
            ("PSID", integer(d.page_set.0.into())),
            ("DESCR", text(&d.description)),
        ],
        ObjectDefinition::QueueManager(d) => crate::qmgr_commands::stored_attributes(d),
        ObjectDefinition::Topic(d) => crate::topic_commands::topic_attributes(d),
        ObjectDefinition::AuthInfo(d) => vec![
            ("AUTHINFO", text(&d.name)),
            ("AUTHTYPE", AttributeValue::Keyword("IDPWOS")),
            qmgr,
            ("DESCR", text(&d.description)),
            (
                "CHCKCLNT",
                keyword_of(&d.check_client, &AUTH_INFO_CHECK_VALUES),
            ),
            (
                "CHCKLOCL",
                keyword_of(&d.check_local, &AUTH_INFO_CHECK_VALUES),
            ),
            ("ADOPTCTX", yes_no(d.adopt_context)),
            ("FAILDLAY", integer(d.fail_delay_seconds)),
        ],
    }
}

/// A channel's attributes for DISPLAY: those of its type only, as MQ shows them.
fn channel_attributes(d: &ChannelDefinition) -> Vec<(&'static str, AttributeValue)> {
    let text = |value: &str| AttributeValue::Text(value.to_string());
    let integer = |value: u32| AttributeValue::Integer(value.into());
    let qmgr = ("QSGDISP", AttributeValue::Keyword("QMGR"));
    let m = &d.message;
    let all = vec![
        ("CHANNEL", text(&d.name)),
        ("CHLTYPE", AttributeValue::Keyword(d.channel_type.keyword())),
        qmgr,
        ("TRPTYPE", AttributeValue::Keyword("TCP")),
        ("DESCR", text(&d.description)),
        ("MAXMSGL", integer(d.max_message_length)),
        ("HBINT", integer(d.heartbeat_interval)),
        (
            "KAINT",
            if d.keepalive_interval == KEEPALIVE_AUTO {
                text("AUTO")
            } else {
                text(&d.keepalive_interval.to_string())
            },
        ),
        ("SHARECNV", integer(d.sharing_conversations)),
        ("MAXINST", integer(d.max_instances)),
        ("MAXINSTC", integer(d.max_instances_per_client)),
        ("DISCINT", integer(d.disconnect_interval)),
        (
            "MONCHL",
            keyword_of(&d.monitoring, &["QMGR", "OFF", "LOW", "MEDIUM", "HIGH"]),
        ),
        ("SSLCIPH", text(&d.ssl_cipher_spec)),
        (
            "SSLCAUTH",
            AttributeValue::Keyword(if d.ssl_client_auth_required {
                "REQUIRED"
            } else {
                "OPTIONAL"
            }),
        ),
        ("SSLPEER", text(&d.ssl_peer)),
        ("MCAUSER", text(&d.mca_user)),
        ("CONNAME", text(&connection_name_text(&m.connection_names))),
        ("XMITQ", text(&m.transmission_queue)),
        ("BATCHSZ", integer(m.batch_size)),
        ("BATCHINT", integer(m.batch_interval_ms)),
        ("BATCHLIM", integer(m.batch_data_limit_kib)),
        ("BATCHHB", integer(m.batch_heartbeat_ms)),
        (
            "NPMSPEED",
            AttributeValue::Keyword(match m.non_persistent_message_speed {
                NonPersistentMessageSpeed::Fast => "FAST",
                NonPersistentMessageSpeed::Normal => "NORMAL",
            }),
        ),
        ("SHORTRTY", integer(m.short_retry_count)),
        ("SHORTTMR", integer(m.short_retry_interval_seconds)),
        ("LONGRTY", integer(m.long_retry_count)),
        ("LONGTMR", integer(m.long_retry_interval_seconds)),
        ("SEQWRAP", integer(m.sequence_number_wrap)),
        (
            "PUTAUT",
            AttributeValue::Keyword(match m.put_authority {
                PutAuthority::Default => "DEF",
                PutAuthority::Context => "CTX",
            }),
        ),
        (
            "STATCHL",
            keyword_of(&m.statistics, &CHANNEL_STATISTICS_VALUES),
        ),
        (
            "COMPHDR",
            text(&compression_list_text(
                HEADER_COMPRESSION_KEYWORDS,
                &m.header_compression,
            )),
        ),
        (
            "COMPMSG",
            text(&compression_list_text(
                MESSAGE_COMPRESSION_KEYWORDS,
                &m.message_compression,
            )),
        ),
    ];
    all.into_iter()
        .filter(|(keyword, _)| *keyword == "CHANNEL" || d.channel_type.has_attribute(keyword))
        .collect()
}

/// Every attribute a channel of any type displays, once each (for WHERE and attribute names).
fn channel_sample() -> Vec<(&'static str, AttributeValue)> {
    let mut sample = Vec::new();
    for channel_type in ferrite_queue_manager::objects::message_channel::CHANNEL_TYPES {
        for (name, value) in channel_attributes(&ChannelDefinition::of_type("", channel_type)) {
            if !sample.iter().any(|(known, _)| *known == name) {
                sample.push((name, value));
            }
        }
    }
    sample.extend(crate::attributes::time_attributes(false));
    sample
}

/// Attributes shown whatever is asked: the name, the type, QSGDISP.
fn always_shown(object_type: ObjectType) -> usize {
    match object_type {
        ObjectType::Process | ObjectType::Namelist | ObjectType::Topic => 2,
        _ => 3,
    }
}

fn message_id(object_type: ObjectType) -> &'static str {
    match object_type {
        ObjectType::Channel => "CSQM406I",
        ObjectType::Namelist => "CSQM407I",
        ObjectType::Process => "CSQM408I",
        ObjectType::StorageClass => "CSQM410I",
        ObjectType::AuthInfo => "AMQ8566I",
        ObjectType::Topic => "AMQ8633I",
        _ => "CSQM401I",
    }
}

/// The displayable attributes of a queue type (for WHERE and attribute names).
pub(crate) fn queue_sample(object_type: ObjectType) -> Vec<(&'static str, AttributeValue)> {
    match object_type {
        ObjectType::LocalQueue => queue_attributes(None),
        other => attributes(&default_definition(other, "")),
    }
}

/// Every attribute any queue type displays, once each (DISPLAY QUEUE without a TYPE).
pub(crate) fn every_queue_sample() -> Vec<(&'static str, AttributeValue)> {
    let mut sample = queue_attributes(None);
    for object_type in [ObjectType::AliasQueue, ObjectType::RemoteQueue] {
        for (name, value) in queue_sample(object_type) {
            if !sample.iter().any(|(known, _)| *known == name) {
                sample.push((name, value));
            }
        }
    }
    sample
}

/// DISPLAY CHANNEL / PROCESS / NAMELIST / STGCLASS.
pub(crate) fn display(
    context: &Context,
    object_type: ObjectType,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let pattern = object_name(object, true).map_err(|e| context.syntax(e))?;
    let sample = match object_type {
        ObjectType::Channel => channel_sample(),
        _ => attributes(&default_definition(object_type, "")),
    };
    // DISPLAY CHANNEL(*) CHLTYPE(type) selects channels by type.
    // DISPLAY AUTHINFO(*) AUTHTYPE(type) likewise (all are IDPWOS here).
    let extra: &[(&str, Takes)] = match object_type {
        ObjectType::Channel => &[("CHLTYPE", Takes::Value)],
        ObjectType::AuthInfo => &[("AUTHTYPE", Takes::Value)],
        ObjectType::Topic => &[("TYPE", Takes::Value)],
        _ => &[],
    };
    let (selection, extras) =
        Selection::parse(rest, &sample, extra).map_err(|e| context.syntax(e))?;
    let mut type_wanted = true;
    let mut channel_type_wanted = None;
    for (token, value) in extras {
        if token.keyword == "TYPE" {
            let types = ["LOCAL", "CLUSTER", "ALL"];
            let chosen =
                choice(token, value.expect("checked"), &types).map_err(|e| context.syntax(e))?;
            type_wanted = types[chosen] != "CLUSTER";
            continue;
        }
        if token.keyword == "AUTHTYPE" {
            let types = ["IDPWOS", "IDPWLDAP", "CRLLDAP", "OCSP", "ALL"];
            let chosen =
                choice(token, value.expect("checked"), &types).map_err(|e| context.syntax(e))?;
            type_wanted = matches!(types[chosen], "IDPWOS" | "ALL");
            continue;
        }
        let types = [
            "SVRCONN", "SDR", "SVR", "RCVR", "RQSTR", "CLNTCONN", "CLUSSDR", "CLUSRCVR", "AMQP",
            "ALL",
        ];
        let chosen =
            choice(token, value.expect("checked"), &types).map_err(|e| context.syntax(e))?;
        channel_type_wanted = ChannelType::from_keyword(types[chosen]);
        type_wanted = types[chosen] == "ALL" || channel_type_wanted.is_some();
    }
    let mut output = Output::default();
    let mut count = 0;
    for definition in context
        .queue_manager
        .objects(object_type)
        .into_iter()
        .filter(|_| type_wanted)
    {
        if !generic_match(&pattern, definition.name()) {
            continue;
        }
        if let (Some(wanted), ObjectDefinition::Channel(channel)) =
            (channel_type_wanted, &definition)
        {
            if channel.channel_type != wanted {
                continue;
            }
        }
        let mut attributes = attributes(&definition);
        crate::context::fill_object_times(context, object_type, definition.name(), &mut attributes);
        if !selection.passes(&attributes) {
            continue;
        }
        count += 1;
        output.attributes(
            format!("{} {}", message_id(object_type), context.name),
            selection.render(&attributes, always_shown(object_type)),
            None,
        );
    }
    if count == 0 {
        if !is_generic(&pattern) && selection.filter.is_none() && type_wanted {
            return Err(context.not_found("CSQMDRTS", object_type.keyword(), &pattern));
        }
        output.line(format!(
            "CSQM297I {} CSQMDRTS NO {} FOUND MATCHING REQUEST CRITERIA",
            context.name,
            object_type.keyword()
        ));
    }
    Ok(output)
}
