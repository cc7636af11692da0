//! The MQSC action, `POST /ibmmq/rest/v3/admin/action/qmgr/{qmgr}/mqsc`:
//!
//! - `{"type":"runCommand","parameters":{"command":"DISPLAY QLOCAL(*)"}}` runs the command
//!   and answers each of its response messages as text;
//! - `{"type":"runCommandJSON","command":"display","qualifier":"qlocal","name":"A*",
//!   "responseParameters":["curdepth"],"parameters":{...}}` builds the command from its parts
//!   and answers each displayed object as lower-case attribute names and their values.
//!
//! Both answer 200 with `commandResponse`, `overallCompletionCode` and `overallReasonCode`
//! (MQRCCF_COMMAND_FAILED, 3008, when the command failed), as mqweb does.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Extension, Json};
use ferrite_command::CommandResponse;
use ferrite_constants::completion::{MQCC_FAILED, MQCC_OK};
use ferrite_constants::pcf_reason::MQRCCF_COMMAND_FAILED;
use serde_json::{json, Map, Value};

use crate::admin::check_queue_manager;
use crate::authentication::Caller;
use crate::commands::{self, quote};
use crate::errors::{RestError, RestResult};
use crate::{blocking, Web};

/// POST /admin/action/qmgr/{qmgr}/mqsc.
pub async fn run(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
    Path(queue_manager): Path<String>,
    body: axum::body::Bytes,
) -> RestResult<Json<Value>> {
    check_queue_manager(&web, &queue_manager)?;
    let body: Value = serde_json::from_slice(&body)
        .map_err(|error| RestError::body_not_parsed(&error.to_string()))?;
    let request_type = body["type"].as_str().unwrap_or("");
    let (command, as_json) = match request_type {
        "runCommand" => (text_command(&body)?, false),
        "runCommandJSON" => (json_command(&body)?, true),
        _ => {
            return Err(RestError::body_not_parsed(
                "'type' must be runCommand or runCommandJSON",
            ))
        }
    };
    let response = blocking(&web, move |web| {
        commands::run(web.processor(), &caller, &command)
    })
    .await?;
    Ok(Json(answer(&response, as_json)))
}

fn text_command(body: &Value) -> RestResult<String> {
    body["parameters"]["command"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| RestError::body_not_parsed("runCommand needs parameters.command"))
}

/// The MQSC command of a runCommandJSON request.
fn json_command(body: &Value) -> RestResult<String> {
    let part = |key: &str| body[key].as_str().map(str::trim).unwrap_or("");
    let (verb, qualifier) = (part("command"), part("qualifier"));
    if verb.is_empty() || qualifier.is_empty() || !is_word(verb) || !is_word(qualifier) {
        return Err(RestError::body_not_parsed(
            "runCommandJSON needs 'command' and 'qualifier' words",
        ));
    }
    let mut command = format!("{} {}", verb.to_uppercase(), qualifier.to_uppercase());
    if !part("name").is_empty() {
        command.push_str(&format!("({})", quote(part("name"))));
    }
    if let Some(parameters) = body.get("parameters") {
        let parameters = parameters
            .as_object()
            .ok_or_else(|| RestError::body_not_parsed("'parameters' must be an object"))?;
        for (keyword, value) in parameters {
            command.push(' ');
            command.push_str(&parameter(keyword, value)?);
        }
    }
    if let Some(wanted) = body.get("responseParameters") {
        let wanted = wanted
            .as_array()
            .ok_or_else(|| RestError::body_not_parsed("'responseParameters' must be an array"))?;
        for name in wanted {
            let name = name.as_str().filter(|name| is_word(name)).ok_or_else(|| {
                RestError::body_not_parsed("'responseParameters' must hold attribute names")
            })?;
            command.push(' ');
            command.push_str(&name.to_uppercase());
        }
    }
    Ok(command)
}

fn is_word(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric())
}

/// One MQSC keyword of runCommandJSON's `parameters`: a string is quoted, a number as it is,
/// an array is a list, and a blank string or `null` is a keyword without value.
fn parameter(keyword: &str, value: &Value) -> RestResult<String> {
    if !is_word(keyword) {
        return Err(RestError::body_not_parsed(&format!(
            "'{keyword}' is not an attribute name"
        )));
    }
    let keyword = keyword.to_uppercase();
    Ok(match value {
        Value::Null => keyword,
        Value::String(text) if text.is_empty() => keyword,
        Value::String(text) => format!("{keyword}({})", quote(text)),
        Value::Number(number) => format!("{keyword}({number})"),
        Value::Array(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| match item {
                    Value::String(text) => quote(text),
                    other => other.to_string(),
                })
                .collect();
            format!("{keyword}({})", items.join(","))
        }
        _ => {
            return Err(RestError::body_not_parsed(&format!(
                "the value of '{keyword}' must be a string, number or array"
            )))
        }
    })
}

/// The action's answer to a command's response.
fn answer(response: &CommandResponse, as_json: bool) -> Value {
    let (completion, reason) = if response.success {
        (MQCC_OK, 0)
    } else {
        (MQCC_FAILED, MQRCCF_COMMAND_FAILED)
    };
    let items: Vec<Value> = if as_json && response.success {
        commands::displayed_objects(response)
            .into_iter()
            .map(|displayed| {
                let parameters: Map<String, Value> = displayed
                    .into_iter()
                    .map(|(key, value)| (key.to_lowercase(), Value::String(value)))
                    .collect();
                json!({"completionCode": MQCC_OK, "reasonCode": 0, "parameters": parameters})
            })
            .collect()
    } else {
        response
            .messages
            .iter()
            .map(|message| {
                json!({
                    "completionCode": completion,
                    "reasonCode": reason,
                    "text": message.lines().map(str::to_string).collect::<Vec<String>>(),
                })
            })
            .collect()
    };
    json!({
        "commandResponse": items,
        "overallCompletionCode": completion,
        "overallReasonCode": reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_command_json_builds_the_mqsc_command() {
        let body = json!({"type": "runCommandJSON", "command": "define", "qualifier": "qlocal",
            "name": "APP.ONE", "parameters": {"maxdepth": 10, "descr": "it's", "noshare": ""}});
        assert_eq!(
            json_command(&body).unwrap(),
            // The parameters in the body's order (serde_json keeps it: `preserve_order`).
            "DEFINE QLOCAL('APP.ONE') MAXDEPTH(10) DESCR('it''s') NOSHARE"
        );
        let display = json!({"command": "display", "qualifier": "qlocal", "name": "A*", "responseParameters": ["curdepth"]});
        assert_eq!(
            json_command(&display).unwrap(),
            "DISPLAY QLOCAL('A*') CURDEPTH"
        );
        let hostile = json!({"command": "display qlocal(*) ;", "qualifier": "x"});
        assert!(json_command(&hostile).is_err());
    }
}
