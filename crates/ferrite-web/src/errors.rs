//! Errors in the REST API's JSON error format (IBM MQ's "REST API error handling"):
//!
//! ```text
//! {"error":[{"type":"rest","msgId":"MQWB0009E","message":"MQWB0009E: ...",
//!            "explanation":"...","action":"...","completionCode":2,"reasonCode":2085}]}
//! ```
//!
//! `type` is `rest` for errors of the HTTP layer (URI, method, headers, body, role) and `mq`
//! for a reason code from the queue manager; `completionCode` and `reasonCode` are MQ's
//! (MQCC_FAILED and the MQRC_* or MQRCCF_* reason) whenever one applies, 0 and 0 otherwise.
//! The message identifiers are those of IBM's MQWB messages for the same condition.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use ferrite_constants::completion::{MQCC_FAILED, MQCC_OK};
use ferrite_constants::pcf_reason::MQRCCF_COMMAND_FAILED;
use ferrite_constants::reason::*;
use serde_json::json;

/// One REST API error: its HTTP status and the fields of its JSON element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestError {
    pub status: StatusCode,
    pub kind: &'static str,
    pub message_id: &'static str,
    pub message: String,
    pub explanation: String,
    pub action: String,
    pub completion_code: i32,
    pub reason_code: i32,
}

/// A handler's result.
pub type RestResult<T> = Result<T, RestError>;

impl RestError {
    fn new(status: StatusCode, message_id: &'static str, message: String) -> RestError {
        RestError {
            status,
            kind: "rest",
            message_id,
            message: format!("{message_id}: {message}"),
            explanation: String::new(),
            action: String::new(),
            completion_code: MQCC_OK,
            reason_code: MQRC_NONE,
        }
    }

    fn explained(mut self, explanation: &str, action: &str) -> RestError {
        self.explanation = explanation.to_string();
        self.action = action.to_string();
        self
    }

    fn reason(mut self, reason_code: i32) -> RestError {
        self.completion_code = MQCC_FAILED;
        self.reason_code = reason_code;
        self
    }

    /// 401: no credentials, or credentials the queue manager's user registry refuses.
    pub fn not_authenticated() -> RestError {
        RestError::new(
            StatusCode::UNAUTHORIZED,
            "MQWB0103E",
            "Not authorized.".into(),
        )
        .explained(
            "The request has no valid credentials: give a user ID and password of the queue manager's user registry with HTTP basic authentication.",
            "Resubmit the request with the credentials of a user added with `ferrite user add`.",
        )
        .reason(MQRC_NOT_AUTHORIZED)
    }

    /// 403: the user's roles do not allow the request.
    pub fn not_authorized(what: &str) -> RestError {
        RestError::new(
            StatusCode::FORBIDDEN,
            "MQWB0103E",
            format!("Not authorized to {what}."),
        )
        .explained(
            "The user is not in a role (MQWebAdmin, MQWebAdminRO, MQWebUser) that allows this request, or the queue manager's authority records refuse it.",
            "Give the user the role it needs (`ferrite user add QM NAME --role ROLE --replace`) or the authority (SET AUTHREC).",
        )
        .reason(MQRC_NOT_AUTHORIZED)
    }

    /// 403: a POST, PATCH or DELETE without the `ibm-mq-rest-csrf-token` header.
    pub fn csrf_header_missing() -> RestError {
        RestError::new(
            StatusCode::FORBIDDEN,
            "MQWB0100E",
            "The CSRF header ibm-mq-rest-csrf-token was omitted from the request.".into(),
        )
        .explained(
            "The REST API request cannot be completed because the CSRF header was omitted.",
            "Resubmit the request with the ibm-mq-rest-csrf-token header (any value).",
        )
    }

    /// 429: the client address has used its requests for now (Ferrite's own message: mqweb
    /// has no rate limit).
    pub fn too_many_requests() -> RestError {
        RestError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "FRWB0001E",
            "Too many requests from this client address.".into(),
        )
        .explained(
            "The web server limits the requests each client address may make in a period.",
            "Wait, then resubmit the request.",
        )
    }

    /// 404: no REST resource at this URI.
    pub fn no_such_resource(path: &str) -> RestError {
        RestError::new(
            StatusCode::NOT_FOUND,
            "MQWB0116E",
            format!("The URI {path} cannot be invoked as it does not correspond to an existing REST interface."),
        )
        .explained(
            "There is no corresponding REST interface on the provided URI.",
            "Resubmit the request using a valid URI.",
        )
    }

    /// 405: a resource that does not support this method.
    pub fn method_not_allowed(method: &str, path: &str) -> RestError {
        RestError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "MQWB0117E",
            format!("The {method} HTTP method is not allowed for the {path} resource."),
        )
        .explained(
            "A recognized resource was requested with a method it does not support.",
            "Resubmit the request with a method the resource supports.",
        )
    }

    /// 404: a queue manager other than this one.
    pub fn unknown_queue_manager(name: &str) -> RestError {
        RestError::new(
            StatusCode::NOT_FOUND,
            "MQWB0009E",
            format!("Could not find the queue manager '{name}'."),
        )
        .explained(
            "The REST API request cannot be completed because the queue manager does not exist on this server.",
            "Resubmit the request with the name of this server's queue manager.",
        )
        .reason(MQRC_Q_MGR_NAME_ERROR)
    }

    /// 404: an object (queue, channel) that does not exist.
    pub fn unknown_object(kind: &str, name: &str, queue_manager: &str) -> RestError {
        RestError::new(
            StatusCode::NOT_FOUND,
            "MQWB0009E",
            format!("Could not find the {kind} '{name}' - queue manager '{queue_manager}'."),
        )
        .explained(
            "The REST API request cannot be completed because the object does not exist.",
            "Resubmit the request with the name of an existing object.",
        )
        .reason(MQRC_UNKNOWN_OBJECT_NAME)
    }

    /// 400: a request the API cannot accept (a parameter, header or body in error).
    pub fn bad_request(message_id: &'static str, message: String, reason_code: i32) -> RestError {
        let error = RestError::new(StatusCode::BAD_REQUEST, message_id, message).explained(
            "The REST API request cannot be completed because it is not valid.",
            "Correct the request and resubmit it.",
        );
        if reason_code == MQRC_NONE {
            error
        } else {
            error.reason(reason_code)
        }
    }

    /// 400: a body that is not the JSON the resource expects.
    pub fn body_not_parsed(detail: &str) -> RestError {
        RestError::bad_request(
            "MQWB0007E",
            format!("The request body could not be parsed: {detail}."),
            MQRC_NONE,
        )
    }

    /// 415: a media type the resource does not take.
    pub fn unsupported_media_type(media_type: &str) -> RestError {
        RestError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "MQWB0306E",
            format!("The media type {media_type} is unsupported for this type of request."),
        )
        .explained(
            "The request attempted to use an unsupported media type.",
            "Resubmit the request with Content-Type text/plain or application/octet-stream.",
        )
    }

    /// 400: an `ibm-mq-md-*` request header with a value it cannot have.
    pub fn invalid_header(name: &str, value: &str, reason_code: i32) -> RestError {
        RestError::bad_request(
            "MQWB0302E",
            format!("The {name} request header cannot be set as {value} is not a valid request header value."),
            reason_code,
        )
    }

    /// 413: a request body larger than the server takes (Ferrite's own message: mqweb's
    /// limit is its Liberty configuration's).
    pub fn body_too_large(bytes_max: usize) -> RestError {
        RestError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "FRWB0002E",
            format!("The request body is larger than {bytes_max} bytes."),
        )
        .explained(
            "The web server takes request bodies (a message of the messaging API, a JSON body) up to this size.",
            "Send a smaller body; put larger messages with an MQI client.",
        )
    }

    /// A request the HTTP layer refused before any handler ran (a path that is not UTF-8
    /// once percent-decoded, a query that cannot be read), with the layer's own `detail`.
    pub fn request_refused(status: StatusCode, detail: &str) -> RestError {
        RestError::new(
            status,
            "MQWB0007E",
            format!("The request could not be read: {detail}."),
        )
        .explained(
            "The REST API request cannot be completed because part of it is not valid.",
            "Correct the request and resubmit it.",
        )
    }

    /// An MQI call that failed with `reason_code`: its HTTP status from the reason.
    pub fn mq(reason_code: i32, what: &str) -> RestError {
        let status = match reason_code {
            MQRC_UNKNOWN_OBJECT_NAME => StatusCode::NOT_FOUND,
            MQRC_NOT_AUTHORIZED => StatusCode::FORBIDDEN,
            MQRC_Q_MGR_NOT_AVAILABLE | MQRC_Q_MGR_QUIESCING | MQRC_Q_MGR_STOPPING => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            MQRC_UNEXPECTED_ERROR => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        };
        let name = ferrite_constants::reason_name(reason_code).unwrap_or("an unknown reason");
        let mut error = RestError::new(
            status,
            "MQWB0303E",
            format!("{what} failed with reason code {reason_code} ({name})."),
        )
        .explained(
            "The queue manager completed the request's MQI call with this reason code.",
            "See the reason code's description in the IBM MQ documentation, correct the request and resubmit it.",
        )
        .reason(reason_code);
        error.kind = "mq";
        error
    }

    /// An MQSC command behind a REST request that failed; `lines` are its response.
    pub fn command_failed(reason_code: i32, lines: &[String]) -> RestError {
        let status = match reason_code {
            MQRC_UNKNOWN_OBJECT_NAME => StatusCode::NOT_FOUND,
            MQRC_NOT_AUTHORIZED => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        };
        let mut error = RestError::new(status, "MQWB0037E", lines.join(" "))
            .explained(
                "The command the request stands for failed; the message holds the command's response.",
                "Correct the request from the command's response and resubmit it.",
            )
            .reason(if reason_code == MQRC_NONE {
                MQRCCF_COMMAND_FAILED
            } else {
                reason_code
            });
        error.kind = "pcf";
        error
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        json!({"error": [{
            "type": self.kind,
            "msgId": self.message_id,
            "message": self.message,
            "explanation": self.explanation,
            "action": self.action,
            "completionCode": self.completion_code,
            "reasonCode": self.reason_code,
        }]})
    }
}

impl IntoResponse for RestError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body())).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"ferrite\""),
            );
        }
        response
    }
}
