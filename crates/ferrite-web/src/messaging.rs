//! The messaging REST API, `/ibmmq/rest/v3/messaging/qmgr/{qmgr}/queue/{queue}/message`:
//! POST puts the body as a message, DELETE gets one destructively (`wait`, `correlationId`,
//! `messageId`), GET browses the first one that matches; 204 when there is none.
//! `/messaging/qmgr/{qmgr}/queue/{queue}/messagelist`: GET browses a summary of each message
//! on the queue (its MQMD fields, no data), as IBM MQ's messagelist resource does.
//! `/messaging/qmgr/{qmgr}/topic/{topic string}/message`: POST publishes the body.
//!
//! Each request is an MQI connection of its own, made for the caller (MQWebUser only, as on
//! IBM MQ), so the caller's authority records decide what it may put, get and browse (2035 is
//! 403). Request headers set MQMD fields, and a got message's MQMD comes back in headers:
//!
//! | header | MQMD | values |
//! |---|---|---|
//! | ibm-mq-md-messageId | MsgId | `ID:` and 48 hexadecimal digits (response) |
//! | ibm-mq-md-correlationId | CorrelId | `ID:` and 48 hexadecimal digits, or an application-specific ID |
//! | ibm-mq-md-persistence | Persistence | `persistent`, `nonPersistent` (default: the queue's DEFPSIST) |
//! | ibm-mq-md-expiry | Expiry | `unlimited` or milliseconds (MQ keeps tenths of a second) |
//! | ibm-mq-md-replyTo | ReplyToQ, ReplyToQMgr | `queue` or `queue@qmgr` |
//! | ibm-mq-md-priority | Priority | 0-9 (default: the queue's DEFPRTY) |
//! | ibm-mq-usr | (message properties) | `name;value;type`, ... (see [`crate::user_properties`]) |
//!
//! A `text/plain` (or other text, JSON or XML) body is put with Format MQSTR and CCSID 1208,
//! `application/octet-stream` with Format MQFMT_NONE; a got message of Format MQSTR comes back
//! as `text/plain;charset=utf-8`, any other as `application/octet-stream`.
//!
//! Identifiers take REST API v3's form, in headers, query parameters and the messagelist
//! alike: `ID:` and the 24 bytes as 48 hexadecimal digits. A correlation ID without the
//! prefix is application-specific, as a JMSCorrelationID string is: its UTF-8 bytes, at most
//! 24, padded with nulls, are the CorrelId (IBM MQ's classes for JMS put the first 24 bytes
//! there too, and the whole string in an MQRFH2 `jms` folder, which Ferrite does not write,
//! so a longer one is refused with 2207 rather than cut). A CorrelId always comes back in the
//! `ID:` form.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use ferrite_constants::format::{MQFMT_NONE, MQFMT_STRING};
use ferrite_constants::get_options::*;
use ferrite_constants::misc::{
    MQCMHO_DEFAULT_VALIDATION, MQIMPO_INQ_FIRST, MQIMPO_INQ_NEXT, MQTYPE_AS_SET,
};
use ferrite_constants::open_options::*;
use ferrite_constants::persistence::*;
use ferrite_constants::put_options::*;
use ferrite_constants::reason::*;
use ferrite_mqi::message_handles::PropertyValue;
use ferrite_mqi::{Connection, Hmsg, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};

use crate::admin::check_queue_manager;
use crate::authentication::Caller;
use crate::errors::{RestError, RestResult};
use crate::roles::Role;
use crate::user_properties;
use crate::{blocking, Web};

/// The longest `wait` a get may ask for, milliseconds.
pub const WAIT_MS_MAX: u64 = 2_147_483_647;
/// The largest message a get returns (MQ's largest MAXMSGL, 100 MiB).
pub const MESSAGE_BYTES_MAX: usize = 104_857_600;
/// The UTF-8 CCSID text bodies are put with.
const CCSID_UTF8: i32 = 1208;
/// MQ's identifiers (MsgId, CorrelId) are 24 bytes.
const IDENTIFIER_BYTES: usize = 24;
/// REST API v3's prefix of an identifier given as hexadecimal digits.
pub const IDENTIFIER_PREFIX: &str = "ID:";
/// The header a message's user-defined properties come and go in.
pub const USER_PROPERTIES_HEADER: &str = "ibm-mq-usr";
/// MQ's highest message priority (MaxPriority).
const PRIORITY_MAX: i32 = 9;
/// The most messages one messagelist request returns (and its default `limit`).
pub const MESSAGE_LIST_LENGTH_MAX: usize = 1_000;
/// The bytes of each message a messagelist browses for its `dataPreview`.
pub const PREVIEW_BYTES_MAX: usize = 64;

fn messaging_caller(caller: &Caller) -> RestResult<()> {
    if caller.has(Role::MqWebUser) {
        Ok(())
    } else {
        Err(RestError::not_authorized(
            "use the messaging REST API (it needs the MQWebUser role)",
        ))
    }
}

fn connect(web: &Web, caller: &Caller) -> RestResult<Connection> {
    Connection::connect_as(
        web.queue_manager().clone(),
        "",
        &Mqcno::default(),
        &caller.user,
    )
    .map_err(|error| RestError::mq(error.reason, "MQCONN"))
}

fn open(
    connection: &mut Connection,
    queue: &str,
    options: i32,
) -> RestResult<ferrite_mqi::connection::Hobj> {
    let mut od = Mqod {
        object_name: queue.to_string(),
        ..Mqod::default()
    };
    connection
        .open(&mut od, options | MQOO_FAIL_IF_QUIESCING)
        .map_err(|error| open_error(error.reason, queue, connection))
}

fn open_error(reason: i32, queue: &str, connection: &Connection) -> RestError {
    if reason == MQRC_UNKNOWN_OBJECT_NAME {
        let mut error =
            RestError::unknown_object("queue", queue, connection.queue_manager().name());
        error.kind = "mq";
        error
    } else {
        RestError::mq(reason, &format!("MQOPEN of queue {queue}"))
    }
}

/// POST: put the body on the queue; 201 with the message's identifiers.
pub async fn put(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, queue)): Path<(String, String)>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> RestResult<Response> {
    check_queue_manager(&web, &queue_manager)?;
    messaging_caller(&caller)?;
    let md = descriptor_from_headers(&headers)?;
    let properties = user_properties_from_headers(&headers)?;
    let md = blocking(&web, move |web| {
        let mut connection = connect(web, &caller)?;
        let hobj = open(&mut connection, &queue, MQOO_OUTPUT)?;
        let message = Message {
            md,
            properties: &properties,
            body: &body,
        };
        put_out_of_syncpoint(&mut connection, hobj, message, &format!("queue {queue}"))
    })
    .await?;
    Ok(created(&md))
}

/// A message a put request describes: its MQMD, its user properties (`ibm-mq-usr`) and body.
struct Message<'a> {
    md: Mqmd,
    properties: &'a [(String, PropertyValue)],
    body: &'a [u8],
}

/// MQPUT of the message outside syncpoint with a new MsgId, its user properties set with
/// MQSETMP on a message handle the put names (OriginalMsgHandle); the descriptor as put.
fn put_out_of_syncpoint(
    connection: &mut Connection,
    hobj: ferrite_mqi::connection::Hobj,
    message: Message<'_>,
    target: &str,
) -> RestResult<Mqmd> {
    let Message {
        mut md,
        properties,
        body,
    } = message;
    let mut pmo = Mqpmo {
        options: MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID | MQPMO_FAIL_IF_QUIESCING,
        ..Mqpmo::default()
    };
    if !properties.is_empty() {
        pmo.original_msg_handle = Some(properties_handle(connection, properties)?);
    }
    connection
        .put(hobj, &mut md, &mut pmo, body)
        .map_err(|error| RestError::mq(error.reason, &format!("MQPUT to {target}")))?;
    Ok(md)
}

/// MQCRTMH and an MQSETMP for each property.
fn properties_handle(
    connection: &mut Connection,
    properties: &[(String, PropertyValue)],
) -> RestResult<Hmsg> {
    let hmsg = connection
        .create_message_handle(MQCMHO_DEFAULT_VALIDATION)
        .map_err(|error| RestError::mq(error.reason, "MQCRTMH"))?;
    for (name, value) in properties {
        connection
            .set_message_property(hmsg, name, value.clone())
            .map_err(|error| {
                RestError::invalid_header(USER_PROPERTIES_HEADER, name, error.reason)
            })?;
    }
    Ok(hmsg)
}

/// The user properties the `ibm-mq-usr` request headers name.
fn user_properties_from_headers(headers: &HeaderMap) -> RestResult<Vec<(String, PropertyValue)>> {
    let values: Vec<&str> = headers
        .get_all(USER_PROPERTIES_HEADER)
        .iter()
        .map(|value| std::str::from_utf8(value.as_bytes()))
        .collect::<Result<_, _>>()
        .map_err(|_| {
            RestError::invalid_header(
                USER_PROPERTIES_HEADER,
                "(not UTF-8)",
                MQRC_PROPERTY_TYPE_ERROR,
            )
        })?;
    user_properties::parse(&values).map_err(|error| {
        RestError::bad_request(
            "MQWB0302E",
            format!(
                "The {USER_PROPERTIES_HEADER} request header cannot be set: {}.",
                error.problem
            ),
            error.reason,
        )
    })
}

/// The user properties in a got message's handle, as `ibm-mq-usr` gives them back: the JMS
/// user properties (MQ's `usr` folder), those whose names have no `.`.
fn user_properties_text(connection: &mut Connection, hmsg: Hmsg) -> RestResult<Option<String>> {
    let mut texts = Vec::new();
    let mut options = MQIMPO_INQ_FIRST;
    loop {
        match connection.inquire_message_property(hmsg, "%", options, MQTYPE_AS_SET) {
            Ok((name, value)) => {
                if !name.contains('.') {
                    texts.extend(user_properties::format_property(&name, &value));
                }
            }
            Err(error) if error.reason == MQRC_PROPERTY_NOT_AVAILABLE => break,
            Err(error) => return Err(RestError::mq(error.reason, "MQINQMP")),
        }
        options = MQIMPO_INQ_NEXT;
    }
    Ok((!texts.is_empty()).then(|| texts.join(",")))
}

/// 201 with the identifiers of the message put.
fn created(md: &Mqmd) -> Response {
    let mut response = StatusCode::CREATED.into_response();
    let headers = response.headers_mut();
    headers.insert("ibm-mq-md-messageId", identifier_header(&md.msg_id));
    headers.insert("ibm-mq-md-correlationId", identifier_header(&md.correl_id));
    response
}

/// POST .../topic/{topic string}/message: publish the body on the topic string (the rest of
/// the path before `/message`, percent-decoded; it may contain `/`); 201 with the message's
/// identifiers. The caller needs pub authority on the topic.
pub async fn publish(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, path)): Path<(String, String)>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> RestResult<Response> {
    check_queue_manager(&web, &queue_manager)?;
    let Some(topic) = path
        .strip_suffix("/message")
        .filter(|topic| !topic.is_empty())
    else {
        return Err(RestError::no_such_resource(&format!(
            "/ibmmq/rest/v3/messaging/qmgr/{queue_manager}/topic/{path}"
        )));
    };
    let topic = topic.to_string();
    messaging_caller(&caller)?;
    let md = descriptor_from_headers(&headers)?;
    let properties = user_properties_from_headers(&headers)?;
    let md = blocking(&web, move |web| {
        let mut connection = connect(web, &caller)?;
        let mut od = Mqod {
            object_type: ferrite_constants::object_type::MQOT_TOPIC,
            object_string: topic.clone(),
            ..Mqod::default()
        };
        let hobj = connection
            .open(&mut od, MQOO_OUTPUT | MQOO_FAIL_IF_QUIESCING)
            .map_err(|error| RestError::mq(error.reason, &format!("MQOPEN of topic {topic}")))?;
        let message = Message {
            md,
            properties: &properties,
            body: &body,
        };
        put_out_of_syncpoint(&mut connection, hobj, message, &format!("topic {topic}"))
    })
    .await?;
    Ok(created(&md))
}

/// The MQMD a put's request headers and Content-Type describe.
fn descriptor_from_headers(headers: &HeaderMap) -> RestResult<Mqmd> {
    let mut md = Mqmd::default();
    let content_type = header(headers, "content-type").unwrap_or_default();
    let media_type = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    md.format = if media_type == "application/octet-stream" {
        MQFMT_NONE
    } else if media_type.starts_with("text/")
        || media_type == "application/json"
        || media_type == "application/xml"
    {
        md.coded_char_set_id = CCSID_UTF8;
        MQFMT_STRING
    } else {
        return Err(RestError::unsupported_media_type(&content_type));
    };
    if let Some(value) = header(headers, "ibm-mq-md-persistence") {
        md.persistence = match value.as_str() {
            "persistent" => MQPER_PERSISTENT,
            "nonPersistent" => MQPER_NOT_PERSISTENT,
            _ => {
                return Err(RestError::invalid_header(
                    "ibm-mq-md-persistence",
                    &value,
                    MQRC_PERSISTENCE_ERROR,
                ))
            }
        };
    }
    if let Some(value) = header(headers, "ibm-mq-md-expiry") {
        md.expiry = expiry_tenths(&value).ok_or_else(|| {
            RestError::invalid_header("ibm-mq-md-expiry", &value, MQRC_EXPIRY_ERROR)
        })?;
    }
    if let Some(value) = header(headers, "ibm-mq-md-correlationId") {
        md.correl_id = correlation_identifier(&value).ok_or_else(|| {
            RestError::invalid_header("ibm-mq-md-correlationId", &value, MQRC_CORREL_ID_ERROR)
        })?;
    }
    if let Some(value) = header(headers, "ibm-mq-md-priority") {
        md.priority = priority(&value).ok_or_else(|| {
            RestError::invalid_header("ibm-mq-md-priority", &value, MQRC_PRIORITY_ERROR)
        })?;
    }
    if let Some(value) = header(headers, "ibm-mq-md-replyTo") {
        let (queue, queue_manager) = value.split_once('@').unwrap_or((value.as_str(), ""));
        let invalid =
            || RestError::invalid_header("ibm-mq-md-replyTo", &value, MQRC_MISSING_REPLY_TO_Q);
        md.reply_to_q = ferrite_mqi::MqChar::new(queue).map_err(|_| invalid())?;
        md.reply_to_q_mgr = ferrite_mqi::MqChar::new(queue_manager).map_err(|_| invalid())?;
        if queue.is_empty() {
            return Err(invalid());
        }
    }
    Ok(md)
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).trim().to_string())
}

/// `unlimited`, or milliseconds: MQMD Expiry in tenths of a second (at least 1).
fn expiry_tenths(value: &str) -> Option<i32> {
    if value == "unlimited" {
        return Some(ferrite_constants::expiry::MQEI_UNLIMITED);
    }
    let milliseconds: u64 = value.parse().ok()?;
    let tenths = milliseconds.div_ceil(100).max(1);
    i32::try_from(tenths).ok()
}

/// 48 hexadecimal digits as an identifier.
fn identifier(text: &str) -> Option<[u8; IDENTIFIER_BYTES]> {
    if text.len() != IDENTIFIER_BYTES * 2 {
        return None;
    }
    let mut bytes = [0u8; IDENTIFIER_BYTES];
    for (index, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(index * 2..index * 2 + 2)?, 16).ok()?;
    }
    Some(bytes)
}

/// `ID:` and 48 hexadecimal digits (either case) as an identifier.
fn encoded_identifier(text: &str) -> Option<[u8; IDENTIFIER_BYTES]> {
    identifier(text.strip_prefix(IDENTIFIER_PREFIX)?)
}

/// A correlation ID: `ID:` and 48 hexadecimal digits, or an application-specific ID of 1 to
/// 24 bytes of UTF-8, padded with nulls.
fn correlation_identifier(text: &str) -> Option<[u8; IDENTIFIER_BYTES]> {
    if text.starts_with(IDENTIFIER_PREFIX) {
        return encoded_identifier(text);
    }
    if text.is_empty() || text.len() > IDENTIFIER_BYTES {
        return None;
    }
    let mut bytes = [0u8; IDENTIFIER_BYTES];
    bytes[..text.len()].copy_from_slice(text.as_bytes());
    Some(bytes)
}

/// A priority, 0 to [`PRIORITY_MAX`].
fn priority(text: &str) -> Option<i32> {
    text.parse::<i32>()
        .ok()
        .filter(|priority| (0..=PRIORITY_MAX).contains(priority))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// An identifier in REST API v3's form: `ID:` and 48 hexadecimal digits.
fn identifier_text(bytes: &[u8; IDENTIFIER_BYTES]) -> String {
    let text = format!("{IDENTIFIER_PREFIX}{}", hex(bytes));
    debug_assert_eq!(encoded_identifier(&text).as_ref(), Some(bytes));
    text
}

fn identifier_header(bytes: &[u8; IDENTIFIER_BYTES]) -> HeaderValue {
    HeaderValue::from_str(&identifier_text(bytes))
        .expect("ID: and hexadecimal digits are a valid header value")
}

/// What a get or browse selects: `wait`, `messageId`, `correlationId`.
struct Selection {
    wait_ms: u64,
    message_id: [u8; IDENTIFIER_BYTES],
    correlation_id: [u8; IDENTIFIER_BYTES],
}

fn selection(parameters: &HashMap<String, String>) -> RestResult<Selection> {
    let wait_ms = match parameters.get("wait") {
        None => 0,
        Some(text) => text
            .parse::<u64>()
            .ok()
            .filter(|wait| *wait <= WAIT_MS_MAX)
            .ok_or_else(|| {
                RestError::bad_request(
                    "MQWB0203E",
                    format!("The wait parameter '{text}' is not a number of milliseconds 0-{WAIT_MS_MAX}."),
                    MQRC_WAIT_INTERVAL_ERROR,
                )
            })?,
    };
    let id = |key: &str,
              read: fn(&str) -> Option<[u8; IDENTIFIER_BYTES]>,
              form: &str,
              reason: i32|
     -> RestResult<[u8; IDENTIFIER_BYTES]> {
        match parameters.get(key) {
            None => Ok([0u8; IDENTIFIER_BYTES]),
            Some(text) => read(text).ok_or_else(|| {
                RestError::bad_request(
                    "MQWB0203E",
                    format!("The {key} parameter '{text}' is not {form}."),
                    reason,
                )
            }),
        }
    };
    let encoded = "ID: and 48 hexadecimal digits";
    let application =
        "ID: and 48 hexadecimal digits, or an application-specific ID of 1 to 24 bytes";
    Ok(Selection {
        wait_ms,
        message_id: id("messageId", encoded_identifier, encoded, MQRC_MSG_ID_ERROR)?,
        correlation_id: id(
            "correlationId",
            correlation_identifier,
            application,
            MQRC_CORREL_ID_ERROR,
        )?,
    })
}

/// DELETE: get a message destructively.
pub async fn get(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, queue)): Path<(String, String)>,
    Query(parameters): Query<HashMap<String, String>>,
) -> RestResult<Response> {
    receive(web, caller, queue_manager, queue, parameters, false).await
}

/// GET: browse the first message that matches.
pub async fn browse(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, queue)): Path<(String, String)>,
    Query(parameters): Query<HashMap<String, String>>,
) -> RestResult<Response> {
    receive(web, caller, queue_manager, queue, parameters, true).await
}

async fn receive(
    web: Arc<Web>,
    caller: Caller,
    queue_manager: String,
    queue: String,
    parameters: HashMap<String, String>,
    browse: bool,
) -> RestResult<Response> {
    check_queue_manager(&web, &queue_manager)?;
    messaging_caller(&caller)?;
    let selection = selection(&parameters)?;
    let permits = if selection.wait_ms > 0 {
        &web.waiting
    } else {
        &web.blocking
    };
    let got = crate::run_blocking(&web, permits, move |web| {
        let mut connection = connect(web, &caller)?;
        let open_options = if browse {
            MQOO_BROWSE
        } else {
            MQOO_INPUT_AS_Q_DEF
        };
        let hobj = open(&mut connection, &queue, open_options)?;
        let mut md = Mqmd {
            msg_id: selection.message_id,
            correl_id: selection.correlation_id,
            ..Mqmd::default()
        };
        let hmsg = connection
            .create_message_handle(MQCMHO_DEFAULT_VALIDATION)
            .map_err(|error| RestError::mq(error.reason, "MQCRTMH"))?;
        let mut gmo = Mqgmo {
            options: MQGMO_NO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING | MQGMO_PROPERTIES_IN_HANDLE,
            msg_handle: Some(hmsg),
            ..Mqgmo::default()
        };
        gmo.options |= if browse { MQGMO_BROWSE_FIRST } else { 0 };
        if selection.wait_ms > 0 {
            gmo.options |= MQGMO_WAIT;
            gmo.wait_interval = i32::try_from(selection.wait_ms).unwrap_or(i32::MAX);
        }
        let mut data = Vec::new();
        match connection.get_appending(hobj, &mut md, &mut gmo, &mut data, MESSAGE_BYTES_MAX) {
            Ok(_) => {
                let properties = user_properties_text(&mut connection, hmsg)?;
                Ok(Some((md, data, properties)))
            }
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => Ok(None),
            Err(error) => Err(RestError::mq(
                error.reason,
                &format!("MQGET from queue {queue}"),
            )),
        }
    })
    .await?;
    Ok(match got {
        None => StatusCode::NO_CONTENT.into_response(),
        Some((md, data, properties)) => message_response(&md, data, properties),
    })
}

/// 200 with the message's data, its MQMD in headers and its user properties in
/// `ibm-mq-usr`.
fn message_response(md: &Mqmd, data: Vec<u8>, properties: Option<String>) -> Response {
    let content_type = if md.format == MQFMT_STRING {
        "text/plain;charset=utf-8"
    } else {
        "application/octet-stream"
    };
    let mut response = (StatusCode::OK, data).into_response();
    let headers = response.headers_mut();
    headers.insert("content-type", HeaderValue::from_static(content_type));
    headers.insert("ibm-mq-md-messageId", identifier_header(&md.msg_id));
    headers.insert("ibm-mq-md-correlationId", identifier_header(&md.correl_id));
    headers.insert(
        "ibm-mq-md-persistence",
        HeaderValue::from_static(persistence_text(md.persistence)),
    );
    headers.insert(
        "ibm-mq-md-expiry",
        HeaderValue::from_str(&expiry_text(md.expiry)).expect("digits"),
    );
    headers.insert("ibm-mq-md-priority", HeaderValue::from(md.priority));
    if let Some(value) = reply_to_text(md).and_then(|text| HeaderValue::from_str(&text).ok()) {
        headers.insert("ibm-mq-md-replyTo", value);
    }
    // UTF-8 as it is: HTTP lets a header value hold bytes over 0x7f.
    if let Some(value) = properties.and_then(|text| HeaderValue::from_bytes(text.as_bytes()).ok()) {
        headers.insert(USER_PROPERTIES_HEADER, value);
    }
    response
}

fn persistence_text(persistence: i32) -> &'static str {
    if persistence == MQPER_PERSISTENT {
        "persistent"
    } else {
        "nonPersistent"
    }
}

/// `unlimited`, or what is left of the message's life in milliseconds.
fn expiry_text(expiry: i32) -> String {
    if expiry == ferrite_constants::expiry::MQEI_UNLIMITED {
        "unlimited".to_string()
    } else {
        (i64::from(expiry) * 100).to_string()
    }
}

/// `queue@qmgr`, or nothing when the message names no reply-to queue.
fn reply_to_text(md: &Mqmd) -> Option<String> {
    let queue = md.reply_to_q.as_str().trim();
    (!queue.is_empty()).then(|| format!("{queue}@{}", md.reply_to_q_mgr.as_str().trim()))
}

/// PutDate (YYYYMMDD) and PutTime (HHMMSSTH), both GMT, as ISO 8601 UTC with milliseconds
/// (`2026-11-29T09:45:36.120Z`); empty when the descriptor has none.
fn put_date_time(md: &Mqmd) -> String {
    let date = md.put_date.as_str().trim();
    let time = md.put_time.as_str().trim();
    let digits = |text: &str| text.len() == 8 && text.bytes().all(|byte| byte.is_ascii_digit());
    if !digits(date) || !digits(time) {
        return String::new();
    }
    format!(
        "{}-{}-{}T{}:{}:{}.{}0Z",
        &date[..4],
        &date[4..6],
        &date[6..],
        &time[..2],
        &time[2..4],
        &time[4..6],
        &time[6..]
    )
}

/// The Format field without its blank padding.
fn format_text(md: &Mqmd) -> String {
    String::from_utf8_lossy(&md.format).trim_end().to_string()
}

/// The first bytes of a message's data: text for Format MQSTR (cut at a character boundary),
/// hexadecimal digits for any other format.
fn preview_text(md: &Mqmd, data: &[u8]) -> String {
    if md.format != MQFMT_STRING {
        return hex(data);
    }
    match std::str::from_utf8(data) {
        Ok(text) => text.to_string(),
        // A character cut by the preview's length: up to the last whole one.
        Err(error) if error.error_len().is_none() => {
            String::from_utf8_lossy(&data[..error.valid_up_to()]).to_string()
        }
        Err(_) => String::from_utf8_lossy(data).to_string(),
    }
}

/// One element of a messagelist: the message's MQMD fields by the REST API's names, with
/// Ferrite's `dataLength` (MQGET's DataLength) and `dataPreview` (its first bytes).
fn summary(md: &Mqmd, data_length: usize, preview: &[u8]) -> serde_json::Value {
    let mut summary = serde_json::json!({
        "messageId": identifier_text(&md.msg_id),
        "correlationId": identifier_text(&md.correl_id),
        "format": format_text(md),
        "persistence": persistence_text(md.persistence),
        "priority": md.priority,
        "expiry": expiry_text(md.expiry),
        "putDateTime": put_date_time(md),
        "dataLength": data_length,
        "dataPreview": preview_text(md, preview),
    });
    if let Some(reply_to) = reply_to_text(md) {
        summary["replyTo"] = serde_json::Value::String(reply_to);
    }
    summary
}

/// messagelist's `limit`: 1 to [`MESSAGE_LIST_LENGTH_MAX`], that by default.
fn list_limit(parameters: &HashMap<String, String>) -> RestResult<usize> {
    let Some(text) = parameters.get("limit") else {
        return Ok(MESSAGE_LIST_LENGTH_MAX);
    };
    text.parse::<usize>()
        .ok()
        .filter(|limit| (1..=MESSAGE_LIST_LENGTH_MAX).contains(limit))
        .ok_or_else(|| {
            RestError::bad_request(
                "MQWB0203E",
                format!(
                    "The limit parameter '{text}' is not a number of messages 1-{MESSAGE_LIST_LENGTH_MAX}."
                ),
                MQRC_NONE,
            )
        })
}

/// GET .../messagelist: a summary of each message on the queue that matches (`messageId`,
/// `correlationId`), in the order a get would take them, at most `limit`; browsed, so none
/// is taken. `{"messages": [...]}`, empty for an empty or get-inhibited queue.
pub async fn message_list(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, queue)): Path<(String, String)>,
    Query(parameters): Query<HashMap<String, String>>,
) -> RestResult<Response> {
    check_queue_manager(&web, &queue_manager)?;
    messaging_caller(&caller)?;
    if parameters.contains_key("wait") {
        return Err(RestError::bad_request(
            "MQWB0203E",
            "The messagelist resource has no wait parameter.".to_string(),
            MQRC_NONE,
        ));
    }
    let selection = selection(&parameters)?;
    let limit = list_limit(&parameters)?;
    let summaries = blocking(&web, move |web| {
        let mut connection = connect(web, &caller)?;
        let hobj = open(&mut connection, &queue, MQOO_BROWSE)?;
        browse_summaries(&mut connection, hobj, &selection, limit, &queue)
    })
    .await?;
    debug_assert!(summaries.len() <= limit);
    Ok(axum::Json(serde_json::json!({ "messages": summaries })).into_response())
}

/// Browse up to `limit` messages that match `selection`, each with at most
/// [`PREVIEW_BYTES_MAX`] bytes of its data.
fn browse_summaries(
    connection: &mut Connection,
    hobj: ferrite_mqi::connection::Hobj,
    selection: &Selection,
    limit: usize,
    queue: &str,
) -> RestResult<Vec<serde_json::Value>> {
    let mut summaries = Vec::new();
    let mut preview = Vec::with_capacity(PREVIEW_BYTES_MAX);
    // Properties go into a handle, so the format and preview are the body's.
    let hmsg = connection
        .create_message_handle(MQCMHO_DEFAULT_VALIDATION)
        .map_err(|error| RestError::mq(error.reason, "MQCRTMH"))?;
    let mut cursor = MQGMO_BROWSE_FIRST;
    while summaries.len() < limit {
        let mut md = Mqmd {
            msg_id: selection.message_id,
            correl_id: selection.correlation_id,
            ..Mqmd::default()
        };
        let mut gmo = Mqgmo {
            options: cursor
                | MQGMO_NO_SYNCPOINT
                | MQGMO_ACCEPT_TRUNCATED_MSG
                | MQGMO_FAIL_IF_QUIESCING
                | MQGMO_PROPERTIES_IN_HANDLE,
            msg_handle: Some(hmsg),
            ..Mqgmo::default()
        };
        preview.clear();
        match connection.get_appending(hobj, &mut md, &mut gmo, &mut preview, PREVIEW_BYTES_MAX) {
            Ok(got) => summaries.push(summary(&md, got.data_length, &preview)),
            Err(error)
                if error.reason == MQRC_NO_MSG_AVAILABLE || error.reason == MQRC_GET_INHIBITED =>
            {
                break
            }
            Err(error) => {
                return Err(RestError::mq(
                    error.reason,
                    &format!("MQGET (browse) from queue {queue}"),
                ))
            }
        }
        cursor = MQGMO_BROWSE_NEXT;
    }
    Ok(summaries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_expiry_are_read_from_text() {
        let text = "414d5120514d31202020202020202020000102030405060708";
        assert_eq!(text.len(), 50);
        assert!(identifier(text).is_none());
        let id = identifier(&text[..48]).unwrap();
        assert_eq!(hex(&id), &text[..48]);
        assert!(identifier(&"zz".repeat(24)).is_none());
        // REST API v3's forms: `ID:` and the digits; an application-specific correlation ID.
        assert_eq!(encoded_identifier(&format!("ID:{}", &text[..48])), Some(id));
        assert_eq!(encoded_identifier(&text[..48]), None);
        assert_eq!(encoded_identifier("ID:12"), None);
        assert_eq!(identifier_text(&id), format!("ID:{}", &text[..48]));
        assert_eq!(
            correlation_identifier(&format!("ID:{}", &text[..48])),
            Some(id)
        );
        let application = correlation_identifier("order-42").unwrap();
        assert_eq!(&application[..8], b"order-42");
        assert_eq!(application[8..], [0u8; 16]);
        assert!(correlation_identifier(&"x".repeat(24)).is_some());
        assert!(correlation_identifier(&"x".repeat(25)).is_none());
        assert!(correlation_identifier("").is_none());
        assert!(correlation_identifier("ID:zz").is_none());
        assert_eq!(priority("0"), Some(0));
        assert_eq!(priority("9"), Some(9));
        assert_eq!(priority("10"), None);
        assert_eq!(priority("-1"), None);
        assert_eq!(priority("high"), None);
        assert_eq!(expiry_tenths("unlimited"), Some(-1));
        assert_eq!(expiry_tenths("1500"), Some(15));
        assert_eq!(expiry_tenths("1"), Some(1));
        assert_eq!(expiry_tenths("-5"), None);
    }

    #[test]
    fn user_properties_are_read_from_every_ibm_mq_usr_header_as_utf8() {
        let mut headers = HeaderMap::new();
        headers.append(
            USER_PROPERTIES_HEADER,
            HeaderValue::from_bytes(r#"region;"wést";string"#.as_bytes()).unwrap(),
        );
        headers.append(USER_PROPERTIES_HEADER, HeaderValue::from_static("n;1;int"));
        assert_eq!(
            user_properties_from_headers(&headers).unwrap(),
            vec![
                ("region".to_string(), PropertyValue::String("wést".into())),
                ("n".to_string(), PropertyValue::Int32(1)),
            ]
        );
        headers.append(
            USER_PROPERTIES_HEADER,
            HeaderValue::from_bytes(&[b'a', b';', 0xff]).unwrap(),
        );
        assert!(user_properties_from_headers(&headers).is_err());
    }

    #[test]
    fn user_properties_go_back_in_their_header_as_utf8() {
        let md = Mqmd {
            format: MQFMT_STRING,
            ..Mqmd::default()
        };
        let text = r#"colour;"bleu clair, é";string"#.to_string();
        let response = message_response(&md, b"x".to_vec(), Some(text.clone()));
        let value = response.headers().get(USER_PROPERTIES_HEADER).unwrap();
        assert_eq!(value.as_bytes(), text.as_bytes());
        let response = message_response(&md, b"x".to_vec(), None);
        assert!(response.headers().get(USER_PROPERTIES_HEADER).is_none());
        assert_eq!(
            response.headers().get("ibm-mq-md-messageId").unwrap(),
            &format!("ID:{}", "00".repeat(24))
        );
    }

    #[test]
    fn a_summary_names_the_descriptor_fields_and_previews_the_data() {
        let mut md = Mqmd {
            format: MQFMT_STRING,
            persistence: MQPER_PERSISTENT,
            priority: 7,
            expiry: 15,
            put_date: ferrite_mqi::MqChar::new("20261129").unwrap(),
            put_time: ferrite_mqi::MqChar::new("09453612").unwrap(),
            reply_to_q: ferrite_mqi::MqChar::new("APP.REPLY").unwrap(),
            ..Mqmd::default()
        };
        md.msg_id[0] = 0xab;
        let summary = summary(&md, 300, "héllo wörld".as_bytes());
        assert_eq!(summary["messageId"], format!("ID:ab{}", "00".repeat(23)));
        assert_eq!(summary["format"], "MQSTR");
        assert_eq!(summary["persistence"], "persistent");
        assert_eq!(summary["priority"], 7);
        assert_eq!(summary["expiry"], "1500");
        assert_eq!(summary["putDateTime"], "2026-11-29T09:45:36.120Z");
        assert_eq!(summary["dataLength"], 300);
        assert_eq!(summary["dataPreview"], "héllo wörld");
        assert_eq!(summary["replyTo"], "APP.REPLY@");
        // A preview that ends inside a character stops before it.
        assert_eq!(preview_text(&md, &"aé".as_bytes()[..2]), "a");
        md.format = MQFMT_NONE;
        assert_eq!(preview_text(&md, &[0x01, 0xff]), "01ff");
        md.put_date = ferrite_mqi::MqChar::new("").unwrap();
        assert_eq!(put_date_time(&md), "");
    }
}
