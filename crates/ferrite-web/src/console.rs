//! The web console at `/ibmmq/console/`: a page, its script and its style sheet, built into
//! the binary. It uses only the REST API and `/metrics` (overview; queues with depths and put
//! and get rates; creating a queue; putting, browsing and getting messages; a message browser
//! per queue on the messagelist resource; the MQSC action; channels and connections; live
//! plots of depths, rates, the log's MB/s and buffer pool use), with the credentials given at
//! its login form, so it can do no more than the user's roles allow. The files themselves hold
//! nothing secret and are served without credentials.

use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};

/// Where the console is.
pub const CONSOLE_PATH: &str = "/ibmmq/console/";

const INDEX_HTML: &str = include_str!("console/index.html");
const CONSOLE_JS: &str = include_str!("console/console.js");
const CONSOLE_CSS: &str = include_str!("console/console.css");

/// The page's own scripts and styles only, and never inside another site's frame.
const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Whether `path` is one of the console's files (served without credentials).
pub fn is_console(path: &str) -> bool {
    path == "/ibmmq/console" || path.starts_with(CONSOLE_PATH)
}

pub async fn redirect() -> Redirect {
    Redirect::permanent(CONSOLE_PATH)
}

pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

pub async fn script() -> Response {
    asset("text/javascript; charset=utf-8", CONSOLE_JS)
}

pub async fn style() -> Response {
    asset("text/css; charset=utf-8", CONSOLE_CSS)
}
