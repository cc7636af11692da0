//! The administrative REST API's publish/subscribe resources: subscriptions
//! (`/admin/qmgr/{qmgr}/subscription`, as IBM MQ's) and topic objects
//! (`/admin/qmgr/{qmgr}/topic`, the same shape), both read-only: a DISPLAY SUB or DISPLAY
//! TOPIC run for the caller, its keywords turned into JSON groups. Changes go through the MQSC
//! action, as on IBM MQ.
//!
//! A subscription always carries `name`, `id` and `topicString`; `attributes=` adds the groups
//! `destination`, `general`, `selector` and `user` (or `group.name`, or `*`). A topic always
//! carries `name`, `type` and `topicString`; `attributes=` adds `general` and
//! `applicationDefaults`. Values MQ shows as ASPARENT are the string `asParent`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::{Extension, Json};
use serde_json::{json, Map, Value};

use crate::admin::{displayed, listing, selection};
use crate::authentication::Caller;
use crate::commands::quote;
use crate::errors::RestResult;
use crate::queue_attributes::{add_attributes_of, attribute, unquote, Attribute, Kind};
use crate::Web;

type Parameters = Query<HashMap<String, String>>;

const AS_PARENT: (&str, &str) = ("asParent", "ASPARENT");

/// The subscription attributes, grouped as IBM MQ's REST API groups them.
pub const SUBSCRIPTION_ATTRIBUTES: &[Attribute] = &[
    attribute("destination", "name", "DEST", Kind::Text),
    attribute("destination", "queueManager", "DESTQMGR", Kind::Text),
    attribute(
        "destination",
        "managed",
        "DESTCLAS",
        Kind::Choice("MANAGED", "PROVIDED"),
    ),
    attribute("destination", "correlationId", "DESTCORL", Kind::Text),
    attribute("general", "topicObject", "TOPICOBJ", Kind::Text),
    attribute("general", "durable", "DURABLE", Kind::Choice("YES", "NO")),
    attribute(
        "general",
        "type",
        "SUBTYPE",
        Kind::Names(&[("api", "API"), ("admin", "ADMIN"), ("proxy", "PROXY")]),
    ),
    attribute(
        "general",
        "publishedOnRequestOnly",
        "REQONLY",
        Kind::Choice("YES", "NO"),
    ),
    attribute(
        "general",
        "wildcardSchema",
        "WSCHEMA",
        Kind::Names(&[("character", "CHAR"), ("topic", "TOPIC")]),
    ),
    attribute("general", "priority", "PUBPRTY", Kind::Text),
    attribute("general", "expiry", "EXPIRY", Kind::Text),
    attribute("selector", "value", "SELECTOR", Kind::Text),
    attribute("user", "data", "USERDATA", Kind::Text),
    attribute("user", "userId", "SUBUSER", Kind::Text),
    attribute(
        "user",
        "variableUser",
        "VARUSER",
        Kind::Names(&[("any", "ANY"), ("fixed", "FIXED")]),
    ),
];

/// The topic object attributes, grouped as the queue resource groups the same ones.
pub const TOPIC_ATTRIBUTES: &[Attribute] = &[
    attribute("general", "description", "DESCR", Kind::Text),
    attribute(
        "general",
        "inhibitPublish",
        "PUB",
        Kind::Names(&[("true", "DISABLED"), ("false", "ENABLED"), AS_PARENT]),
    ),
    attribute(
        "general",
        "inhibitSubscribe",
        "SUB",
        Kind::Names(&[("true", "DISABLED"), ("false", "ENABLED"), AS_PARENT]),
    ),
    attribute(
        "general",
        "durableSubscriptions",
        "DURSUB",
        Kind::Names(&[("true", "YES"), ("false", "NO"), AS_PARENT]),
    ),
    attribute(
        "general",
        "wildcardOperation",
        "WILDCARD",
        Kind::Names(&[("block", "BLOCK"), ("passThrough", "PASSTHRU")]),
    ),
    attribute(
        "applicationDefaults",
        "persistence",
        "DEFPSIST",
        Kind::Names(&[("persistent", "YES"), ("nonPersistent", "NO"), AS_PARENT]),
    ),
    attribute("applicationDefaults", "priority", "DEFPRTY", Kind::Number),
    attribute(
        "applicationDefaults",
        "putResponse",
        "DEFPRESP",
        Kind::Names(&[
            ("synchronous", "SYNC"),
            ("asynchronous", "ASYNC"),
            AS_PARENT,
        ]),
    ),
    attribute(
        "applicationDefaults",
        "durableModelQueue",
        "MDURMDL",
        Kind::Text,
    ),
    attribute(
        "applicationDefaults",
        "nonDurableModelQueue",
        "MNDURMDL",
        Kind::Text,
    ),
];

fn displayed_value(displayed: &[(String, String)], keyword: &str) -> String {
    displayed
        .iter()
        .find(|(name, _)| name == keyword)
        .map(|(_, value)| unquote(value.trim()))
        .unwrap_or_default()
}

/// The subscriptions named `name` (generic with `*`) as REST objects.
fn list_subscriptions(
    web: &Web,
    caller: &Caller,
    name: &str,
    parameters: &HashMap<String, String>,
) -> RestResult<Vec<Value>> {
    let command = format!("DISPLAY SUB({}) ALL", quote(name));
    let shown = displayed(web, caller, &command, "subscription", name)?;
    let attributes = selection(parameters, "attributes");
    let wanted_id = parameters.get("id").map(|id| id.to_ascii_uppercase());
    let mut found = Vec::new();
    for displayed in shown {
        let id = displayed_value(&displayed, "SUBID");
        if wanted_id.as_ref().is_some_and(|wanted| *wanted != id) {
            continue;
        }
        let mut object = Map::new();
        object.insert("name".into(), json!(displayed_value(&displayed, "SUB")));
        object.insert("id".into(), json!(id));
        object.insert(
            "topicString".into(),
            json!(displayed_value(&displayed, "TOPICSTR")),
        );
        add_attributes_of(
            SUBSCRIPTION_ATTRIBUTES,
            &mut object,
            &displayed,
            &attributes,
        );
        found.push(Value::Object(object));
    }
    Ok(found)
}

/// GET /admin/qmgr/{qmgr}/subscription (`name=`, `id=`, `attributes=`).
pub async fn subscriptions(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path(queue_manager): Path<String>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    let key = "subscription";
    listing(
        web,
        caller,
        &queue_manager,
        None,
        parameters,
        key,
        list_subscriptions,
    )
    .await
}

/// GET /admin/qmgr/{qmgr}/subscription/{name}.
pub async fn subscription(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path((queue_manager, name)): Path<(String, String)>,
    Query(parameters): Parameters,
) -> RestResult<Json<Value>> {
    let (key, name) = ("subscription", Some(name));
    listing(
        web,
        caller,
        &queue_manager,
        name,
        parameters,
        key,
        list_subscriptions,
    )
    .await
}

/// The topic objects named `name` (generic with `*`) as REST objects.
fn list_topics(
    web: &Web,
    caller: &Caller,
    name: &str,
    parameters: &HashMap<String, String>,
) -> RestResult<Vec<Value>> {
    let command = format!("DISPLAY TOPIC({}) ALL", quote(name));
    let shown = displayed(web, caller, &command, "topic", name)?;
    let attributes = selection(parameters, "attributes");
    Ok(shown
        .into_iter()
        .map(|displayed| {
            let mut object = Map::new();
            object.insert("name".into(), json!(displayed_value(&displayed, "TOPIC")));
            object.insert(
                "type".into(),
                json!(displayed_value(&displayed, "TYPE").to_ascii_lowercase()),
            );
            object.insert(
                "topicString".into(),
                json!(displayed_value(&displayed, "TOPICSTR")),
            );
            add_attributes_of(TOPIC_ATTRIBUTES, &mut object, &displayed, &attributes);
            Value::Object(object)
        })
        .collect())
}

/// GET /admin/qmgr/{qmgr}/topic (`name=`, `attributes=`).
pub async fn topics(
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
        "topic",
        list_topics,
    )
    .await
}

/// GET /admin/qmgr/{qmgr}/topic/{name}.
pub async fn topic(
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
        "topic",
        list_topics,
    )
    .await
}
