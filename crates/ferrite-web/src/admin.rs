//! The administrative REST API (`/ibmmq/rest/v3/admin/...`): the queue manager, its queues
//! (GET, POST, PATCH, DELETE) and channels (GET, with each instance's status). Subscriptions
//! and topics are in pubsub_resources.rs. Every request is an MQSC command run for the
//! caller through the command processor (commands.rs), so it is checked and answered exactly
//! as the same command typed in `ferrite mqsc` would be.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{json, Map, Value};

use crate::authentication::Caller;
use crate::commands::{self, displayed_objects, quote};
use crate::errors::{RestError, RestResult};
use crate::queue_attributes::{self, QUEUE_TYPES};
use crate::{blocking, Web};

type Parameters = Query<HashMap<String, String>>;

/// 404 unless `name` is this server's queue manager.
pub fn check_queue_manager(web: &Web, name: &str) -> RestResult<()> {
    if name == web.queue_manager().name() {
        Ok(())
    } else {
        Err(RestError::unknown_queue_manager(name))
    }
}

fn queue_manager_object(web: &Web, parameters: &HashMap<String, String>) -> Value {
    let queue_manager = web.queue_manager();
    let mut object = json!({"name": queue_manager.name(), "state": "running"});
    if parameters.contains_key("status") {
        object["status"] = json!({
            "state": "running",
            "connectionCount": queue_manager.connections().all().len(),
        });
    }
    object
}

/// GET /admin/qmgr: the queue managers this server serves (its one).
pub async fn queue_managers(
    State(web): State<Arc<Web>>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    Ok(Json(
        json!({"qmgr": [queue_manager_object(&web, &parameters)]}),
    ))
}

/// GET /admin/qmgr/{qmgr}.
pub async fn queue_manager(
    State(web): State<Arc<Web>>,
    Path(name): Path<String>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    check_queue_manager(&web, &name)?;
    Ok(Json(
        json!({"qmgr": [queue_manager_object(&web, &parameters)]}),
    ))
}

pub(crate) fn selection(parameters: &HashMap<String, String>, key: &str) -> Vec<String> {
    parameters
        .get(key)
        .map(|text| {
            text.split(',')
                .map(|item| item.trim().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn mqsc_type(rest: &str) -> RestResult<&'static str> {
    if rest == "all" {
        return Ok("ALL");
    }
    QUEUE_TYPES
        .iter()
        .find(|(name, _)| *name == rest)
        .map(|(_, keyword)| *keyword)
        .ok_or_else(|| {
            RestError::bad_request(
                "MQWB0005E",
                format!("The value '{rest}' of the type parameter is not valid (local, alias, remote, model or all)."),
                ferrite_constants::pcf_reason::MQRCCF_PARM_SYNTAX_ERROR,
            )
        })
}

/// A failed DISPLAY of `kind` objects named `name`: no objects for a generic name that
/// matched none, 404 for a single name that does not exist, the command's error otherwise.
pub(crate) fn display_failure(
    web: &Web,
    response: &ferrite_command::CommandResponse,
    kind: &str,
    name: &str,
) -> RestResult<Vec<Value>> {
    match commands::reason(response) {
        ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME if name.contains('*') => Ok(Vec::new()),
        ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME => Err(RestError::unknown_object(
            kind,
            name,
            web.queue_manager().name(),
        )),
        reason => Err(RestError::command_failed(reason, &response.lines)),
    }
}

/// What DISPLAY `command` of `kind` objects named `name` shows: one attribute list per
/// object, none when a generic name matched none.
pub(crate) fn displayed(
    web: &Web,
    caller: &Caller,
    command: &str,
    kind: &str,
    name: &str,
) -> RestResult<Vec<Vec<(String, String)>>> {
    let response = commands::run(web.processor(), caller, command)?;
    if !response.success {
        return display_failure(web, &response, kind, name).map(|_| Vec::new());
    }
    Ok(displayed_objects(&response))
}

/// The queues matching `name` (generic with `*`) as REST objects.
fn list_queues(
    web: &Web,
    caller: &Caller,
    name: &str,
    parameters: &HashMap<String, String>,
) -> RestResult<Vec<Value>> {
    let queue_type = mqsc_type(parameters.get("type").map_or("all", String::as_str))?;
    let command = format!("DISPLAY QUEUE({}) TYPE({queue_type}) ALL", quote(name));
    let shown = displayed(web, caller, &command, "queue", name)?;
    let attributes = selection(parameters, "attributes");
    let status = selection(parameters, "status");
    let mut queues = Vec::new();
    for displayed in shown {
        let Some((_, queue_name)) = displayed.iter().find(|(key, _)| key == "QUEUE") else {
            continue;
        };
        let queue_type = displayed
            .iter()
            .find(|(key, _)| key == "TYPE")
            .map_or("", |(_, value)| value.as_str());
        let mut object = Map::new();
        object.insert("name".into(), json!(queue_name));
        object.insert(
            "type".into(),
            json!(queue_attributes::rest_type(queue_type)),
        );
        queue_attributes::add_attributes(&mut object, &displayed, &attributes);
        if !status.is_empty() && queue_type == "QLOCAL" {
            add_queue_status(web, caller, queue_name, &mut object, &status)?;
        }
        queues.push(Value::Object(object));
    }
    Ok(queues)
}

fn add_queue_status(
    web: &Web,
    caller: &Caller,
    name: &str,
    object: &mut Map<String, Value>,
    status: &[String],
) -> RestResult<()> {
    let command = format!(
        "DISPLAY QSTATUS({}) TYPE(QUEUE) CURDEPTH IPPROCS OPPROCS UNCOM MSGAGE",
        quote(name)
    );
    let response = commands::run_checked(web.processor(), caller, &command)?;
    if let Some(displayed) = displayed_objects(&response).first() {
        queue_attributes::add_status(object, displayed, status);
    }
    Ok(())
}

/// Lists the objects of one resource for the caller, as a GET of it answers.
pub(crate) type Lister =
    fn(&Web, &Caller, &str, &HashMap<String, String>) -> RestResult<Vec<Value>>;

/// Answers a GET of resource `key`: the objects `lister` finds named `name` (a path's name, or
/// `name=` of the collection, default every one), run on the blocking threads for the caller.
pub(crate) async fn listing(
    web: Arc<Web>,
    caller: Caller,
    queue_manager: &str,
    name: Option<String>,
    parameters: HashMap<String, String>,
    key: &'static str,
    lister: Lister,
) -> RestResult<Json<Value>> {
    check_queue_manager(&web, queue_manager)?;
    let name = name
        .or_else(|| parameters.get("name").cloned())
        .unwrap_or_else(|| "*".into());
    let found = blocking(&web, move |web| lister(web, &caller, &name, &parameters)).await?;
    Ok(Json(json!({ key: found })))
}

/// GET /admin/qmgr/{qmgr}/queue (`name=`, `type=`, `attributes=`, `status=`).
pub async fn queues(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path(queue_manager): Path<String>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    listing(
        web,
        caller,
        &queue_manager,
        None,
        parameters,
        "queue",
        list_queues,
    )
    .await
}

/// GET /admin/qmgr/{qmgr}/queue/{queue}.
pub async fn queue(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, name)): Path<(String, String)>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    let name = Some(name);
    listing(
        web,
        caller,
        &queue_manager,
        name,
        parameters,
        "queue",
        list_queues,
    )
    .await
}

fn body_object(body: &[u8]) -> RestResult<Map<String, Value>> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(RestError::body_not_parsed("the body is not a JSON object")),
        Err(error) => Err(RestError::body_not_parsed(&error.to_string())),
    }
}

/// POST /admin/qmgr/{qmgr}/queue: DEFINE; 201 with the new queue's Location.
pub async fn create_queue(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path(queue_manager): Path<String>,
    body: axum::body::Bytes,
) -> RestResult<Response> {
    check_queue_manager(&web, &queue_manager)?;
    let body = body_object(&body)?;
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| RestError::body_not_parsed("the body has no string 'name'"))?
        .to_string();
    let queue_type = mqsc_type(body.get("type").and_then(Value::as_str).unwrap_or("local"))?;
    if queue_type == "ALL" {
        return Err(RestError::body_not_parsed(
            "'type' must be local, alias, remote or model",
        ));
    }
    let keywords = queue_attributes::keywords(&body)?;
    let command = format!(
        "DEFINE {queue_type}({}) {}",
        quote(&name),
        keywords.join(" ")
    );
    blocking(&web, move |web| {
        commands::run_checked(web.processor(), &caller, &command)
    })
    .await?;
    let location = format!(
        "/ibmmq/rest/v3/admin/qmgr/{queue_manager}/queue/{}",
        crate::percent_encode(&name)
    );
    Ok((StatusCode::CREATED, [(header::LOCATION, location)]).into_response())
}

/// The MQSC type of an existing queue (404 when there is none).
fn existing_queue_type(web: &Web, caller: &Caller, name: &str) -> RestResult<String> {
    let found = list_queues(web, caller, name, &HashMap::new())?;
    let rest = found
        .first()
        .and_then(|queue| queue["type"].as_str())
        .ok_or_else(|| RestError::unknown_object("queue", name, web.queue_manager().name()))?;
    Ok(mqsc_type(rest)?.to_string())
}

/// PATCH /admin/qmgr/{qmgr}/queue/{queue}: ALTER; 204.
pub async fn alter_queue(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, name)): Path<(String, String)>,
    body: axum::body::Bytes,
) -> RestResult<StatusCode> {
    check_queue_manager(&web, &queue_manager)?;
    let body = body_object(&body)?;
    let keywords = queue_attributes::keywords(&body)?;
    blocking(&web, move |web| {
        let queue_type = existing_queue_type(web, &caller, &name)?;
        let command = format!(
            "ALTER {queue_type}({}) {}",
            quote(&name),
            keywords.join(" ")
        );
        commands::run_checked(web.processor(), &caller, &command)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// DELETE /admin/qmgr/{qmgr}/queue/{queue} (`keepQueueContents=true`: NOPURGE); 204.
pub async fn delete_queue(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, name)): Path<(String, String)>,
    Query(parameters): Parameters,
) -> RestResult<StatusCode> {
    check_queue_manager(&web, &queue_manager)?;
    let keep = parameters
        .get("keepQueueContents")
        .is_some_and(|value| value == "true");
    blocking(&web, move |web| {
        let queue_type = existing_queue_type(web, &caller, &name)?;
        let purge = match (queue_type.as_str(), keep) {
            ("QLOCAL", false) => " PURGE",
            ("QLOCAL", true) => " NOPURGE",
            _ => "",
        };
        let command = format!("DELETE {queue_type}({}){purge}", quote(&name));
        commands::run_checked(web.processor(), &caller, &command)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// MQSC channel types and the REST API's names for them.
const CHANNEL_TYPES: &[(&str, &str)] = &[
    ("SVRCONN", "serverConnection"),
    ("CLNTCONN", "clientConnection"),
    ("SDR", "sender"),
    ("RCVR", "receiver"),
    ("SVR", "server"),
    ("RQSTR", "requester"),
    ("CLUSSDR", "clusterSender"),
    ("CLUSRCVR", "clusterReceiver"),
];

/// The channel status figures `status=` may ask for (`status=*`, `status=status.NAME`), one
/// set per channel instance, from DISPLAY CHSTATUS.
pub const CHANNEL_STATUS: &[queue_attributes::Attribute] = &[
    queue_attributes::attribute(
        "status",
        "state",
        "STATUS",
        queue_attributes::Kind::Names(&[
            ("running", "RUNNING"),
            ("binding", "BINDING"),
            ("starting", "STARTING"),
            ("retrying", "RETRYING"),
            ("stopping", "STOPPING"),
            ("stopped", "STOPPED"),
            ("inactive", "INACTIVE"),
        ]),
    ),
    queue_attributes::attribute(
        "status",
        "connectionName",
        "CONNAME",
        queue_attributes::Kind::Text,
    ),
    queue_attributes::attribute(
        "status",
        "transmissionQueue",
        "XMITQ",
        queue_attributes::Kind::Text,
    ),
    queue_attributes::attribute("status", "messages", "MSGS", queue_attributes::Kind::Number),
    queue_attributes::attribute(
        "status",
        "batches",
        "BATCHES",
        queue_attributes::Kind::Number,
    ),
    queue_attributes::attribute(
        "status",
        "bytesSent",
        "BYTSSENT",
        queue_attributes::Kind::Number,
    ),
    queue_attributes::attribute(
        "status",
        "bytesReceived",
        "BYTSRCVD",
        queue_attributes::Kind::Number,
    ),
    queue_attributes::attribute(
        "status",
        "currentSequenceNumber",
        "CURSEQNO",
        queue_attributes::Kind::Number,
    ),
    queue_attributes::attribute(
        "status",
        "lastSequenceNumber",
        "LSTSEQNO",
        queue_attributes::Kind::Number,
    ),
    queue_attributes::attribute(
        "status",
        "inDoubt",
        "INDOUBT",
        queue_attributes::Kind::Choice("YES", "NO"),
    ),
];

/// The status of every instance of channel `name` (an empty list when it has none: inactive).
fn channel_status(
    web: &Web,
    caller: &Caller,
    name: &str,
    status: &[String],
) -> RestResult<Vec<Value>> {
    let command = format!("DISPLAY CHSTATUS({}) ALL", quote(name));
    let response = commands::run(web.processor(), caller, &command)?;
    if !response.success {
        return match commands::reason(&response) {
            // No instance: an inactive channel.
            ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME => Ok(Vec::new()),
            ferrite_constants::pcf_reason::MQRCCF_CHL_STATUS_NOT_FOUND => Ok(Vec::new()),
            reason => Err(RestError::command_failed(reason, &response.lines)),
        };
    }
    Ok(displayed_objects(&response)
        .into_iter()
        .map(|displayed| {
            let mut object = Map::new();
            queue_attributes::add_attributes_of(CHANNEL_STATUS, &mut object, &displayed, status);
            object.remove("status").unwrap_or(Value::Object(Map::new()))
        })
        .collect())
}

fn list_channels(
    web: &Web,
    caller: &Caller,
    name: &str,
    parameters: &HashMap<String, String>,
) -> RestResult<Vec<Value>> {
    let command = format!("DISPLAY CHANNEL({}) ALL", quote(name));
    let mut channels = displayed(web, caller, &command, "channel", name)?
        .into_iter()
        .filter_map(|displayed| {
            let value = |key: &str| {
                displayed
                    .iter()
                    .find(|(name, _)| name == key)
                    .map(|(_, value)| value.clone())
            };
            let channel_type = value("CHLTYPE")?;
            let rest_type = CHANNEL_TYPES
                .iter()
                .find(|(mqsc, _)| *mqsc == channel_type)
                .map_or(channel_type.as_str(), |(_, rest)| rest);
            Some(json!({
                "name": value("CHANNEL")?,
                "type": rest_type,
                "general": {"description": value("DESCR").unwrap_or_default()},
            }))
        })
        .collect::<Vec<Value>>();
    let status = selection(parameters, "status");
    if !status.is_empty() {
        for channel in &mut channels {
            let name = channel["name"].as_str().unwrap_or_default().to_string();
            channel["status"] = Value::Array(channel_status(web, caller, &name, &status)?);
        }
    }
    Ok(channels)
}

/// GET /admin/qmgr/{qmgr}/channel (`name=`, `status=`: each instance's status).
pub async fn channels(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path(queue_manager): Path<String>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    listing(
        web,
        caller,
        &queue_manager,
        None,
        parameters,
        "channel",
        list_channels,
    )
    .await
}

/// GET /admin/qmgr/{qmgr}/channel/{channel} (`status=`).
pub async fn channel(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, name)): Path<(String, String)>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    let name = Some(name);
    listing(
        web,
        caller,
        &queue_manager,
        name,
        parameters,
        "channel",
        list_channels,
    )
    .await
}
