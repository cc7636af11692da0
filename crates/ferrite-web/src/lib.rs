//! # ferrite-web
//!
//! The HTTP server of a Ferrite queue manager, IBM MQ's mqweb server in the queue manager's
//! own process:
//!
//! - the administrative REST API (`/ibmmq/rest/v3/admin/...`: [`admin`] for the queue
//!   manager, queues and channels, [`mqsc_action`] for the MQSC action), each request an MQSC
//!   command run through `ferrite-command` for the caller ([`commands`]);
//! - the messaging REST API (`/ibmmq/rest/v3/messaging/...`, [`messaging`]), each request an
//!   MQI connection of `ferrite-mqi` made for the caller;
//! - `/metrics` in Prometheus' text format ([`metrics`]);
//! - the web console at `/ibmmq/console/` ([`console`]), a page that uses the REST API.
//!
//! Every request is authenticated with HTTP basic authentication against the queue manager's
//! user registry and given mqweb's roles ([`authentication`], [`roles`]); POST, PATCH and
//! DELETE need the `ibm-mq-rest-csrf-token` header; errors are MQ's JSON errors ([`errors`]).
//!
//! Each request is written to the access log and counted against its client address's rate
//! limit ([`limits`]).
//!
//! The server runs on a Tokio runtime of one thread of its own ([`WebServer::start`]); what
//! may block (a password hash, a command, an MQI call, a get that waits) runs on at most
//! [`BLOCKING_THREADS_MAX`] blocking threads (gets that wait on [`WAITING_GETS_MAX`] more, so
//! that they can never hold up authentication and commands), started on demand and ended
//! when idle, so an
//! idle server costs the message path nothing but one parked thread. Plain HTTP is served on
//! a loopback address only; any other address needs the queue manager's TLS certificate
//! (HTTPS).

pub mod admin;
pub mod authentication;
pub mod commands;
pub mod console;
pub mod errors;
pub mod limits;
pub mod messaging;
pub mod metrics;
pub mod mqsc_action;
pub mod pubsub_resources;
pub mod queue_attributes;
pub mod roles;
pub mod user_properties;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use ferrite_command::CommandProcessor;
use ferrite_queue_manager::QueueManager;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

use crate::authentication::Authenticator;
use crate::errors::{RestError, RestResult};
use crate::limits::{AccessLog, AccessRecord, RateLimit, RateLimiter};

/// Threads that run blocking work (password hashes, commands, MQI calls) at most.
pub const BLOCKING_THREADS_MAX: usize = 16;
/// Messaging gets that wait (`wait=`) at once, on threads of their own; more queue for one.
pub const WAITING_GETS_MAX: usize = 16;
/// Connections served at once; more wait in the listen backlog.
pub const CONNECTIONS_MAX: usize = 256;
/// Largest request body, bytes (a message of the messaging API; MQ's default MAXMSGL).
pub const REQUEST_BODY_BYTES_MAX: usize = 4 * 1024 * 1024;
/// How long a client may take to send a request's headers.
pub const HEADER_READ_TIMEOUT_SECONDS: u64 = 30;
/// How long stop waits for requests in progress.
pub const STOP_WAIT_SECONDS: u64 = 5;

/// What a request handler shares: the queue manager's command processor and the users.
pub struct Web {
    processor: Arc<CommandProcessor>,
    authenticator: Authenticator,
    blocking: Semaphore,
    waiting: Semaphore,
    access_log: AccessLog,
    rate_limiter: RateLimiter,
}

/// The client address of a request (its connection's peer).
#[derive(Clone, Copy, Debug)]
struct ClientAddress(SocketAddr);

impl Web {
    pub fn processor(&self) -> &CommandProcessor {
        &self.processor
    }

    pub fn queue_manager(&self) -> &Arc<QueueManager> {
        self.processor.queue_manager()
    }
}

/// Run `work` on a blocking thread (at most [`BLOCKING_THREADS_MAX`] at once).
pub(crate) async fn blocking<T: Send + 'static>(
    web: &Arc<Web>,
    work: impl FnOnce(&Web) -> RestResult<T> + Send + 'static,
) -> RestResult<T> {
    run_blocking(web, &web.blocking, work).await
}

/// Run `work` on a blocking thread once one of `permits` is free: `web.blocking`, or
/// `web.waiting` for a get that may wait (at most [`WAITING_GETS_MAX`] at once).
pub(crate) async fn run_blocking<T: Send + 'static>(
    web: &Arc<Web>,
    permits: &Semaphore,
    work: impl FnOnce(&Web) -> RestResult<T> + Send + 'static,
) -> RestResult<T> {
    let _permit = permits
        .acquire()
        .await
        .expect("the semaphore is never closed");
    let web = web.clone();
    tokio::task::spawn_blocking(move || work(&web))
        .await
        .unwrap_or_else(|error| {
            Err(RestError::mq(
                ferrite_constants::reason::MQRC_UNEXPECTED_ERROR,
                &format!("The request's work ({error})"),
            ))
        })
}

/// A path segment with the characters a URI may not hold raw percent-encoded.
pub(crate) fn percent_encode(segment: &str) -> String {
    segment
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// Every request: the rate limit, authentication, the CSRF rule (the caller goes to the
/// handler as an extension), then its line in the access log.
async fn admit(State(web): State<Arc<Web>>, mut request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let client = request
        .extensions()
        .get::<ClientAddress>()
        .map_or(std::net::Ipv4Addr::UNSPECIFIED.into(), |address| {
            address.0.ip()
        });
    let method = request.method().to_string();
    let target = request.uri().path_and_query().map_or_else(
        || request.uri().path().to_string(),
        |target| target.to_string(),
    );
    let mut user = None;
    let response = if !web.rate_limiter.admit(client) {
        RestError::too_many_requests().into_response()
    } else if request.method() == axum::http::Method::GET
        && console::is_console(request.uri().path())
    {
        next.run(request).await
    } else {
        let headers = request.headers().clone();
        let from_script = headers.contains_key("x-requested-with");
        match blocking(&web, move |web| web.authenticator.authenticate(&headers)).await {
            Err(error) => {
                let mut response = error.into_response();
                if from_script {
                    // A page's script (the console) handles 401 itself: without the challenge
                    // the browser does not open its own password dialog.
                    response
                        .headers_mut()
                        .remove(axum::http::header::WWW_AUTHENTICATE);
                }
                response
            }
            Ok(caller) => {
                user = Some(caller.user.clone());
                match authentication::check_csrf(request.method(), request.headers()) {
                    Err(error) => error.into_response(),
                    Ok(()) => {
                        request.extensions_mut().insert(caller);
                        next.run(request).await
                    }
                }
            }
        }
    };
    let response = as_mq_error(response).await;
    web.access_log.record(&AccessRecord {
        client,
        user: user.as_deref(),
        method: &method,
        target: &target,
        status: response.status().as_u16(),
        elapsed: started.elapsed(),
    });
    response
}

/// The longest text of a refusal of the HTTP layer kept in its MQ error.
const REFUSAL_DETAIL_BYTES_MAX: usize = 512;

/// An error answer that is not yet MQ's JSON error (an extractor's refusal: a body over
/// [`REQUEST_BODY_BYTES_MAX`], a path that is not UTF-8) made one, so every error of the REST
/// API has MQ's format; every other answer as it is.
async fn as_mq_error(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|value| value.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    if status == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
        return RestError::body_too_large(REQUEST_BODY_BYTES_MAX).into_response();
    }
    let body = axum::body::to_bytes(response.into_body(), REFUSAL_DETAIL_BYTES_MAX)
        .await
        .unwrap_or_default();
    let detail = String::from_utf8_lossy(&body);
    let detail = detail.trim().trim_end_matches('.');
    RestError::request_refused(status, if detail.is_empty() { "refused" } else { detail })
        .into_response()
}

async fn no_such_resource(request: Request) -> RestError {
    RestError::no_such_resource(request.uri().path())
}

async fn method_not_allowed(request: Request) -> RestError {
    RestError::method_not_allowed(request.method().as_str(), request.uri().path())
}

fn resource(methods: MethodRouter<Arc<Web>>) -> MethodRouter<Arc<Web>> {
    methods.fallback(method_not_allowed)
}

/// The routes of the REST API and `/metrics`.
pub fn router(web: Arc<Web>) -> Router {
    const ADMIN: &str = "/ibmmq/rest/v3/admin";
    const MESSAGING: &str = "/ibmmq/rest/v3/messaging";
    Router::new()
        .route(
            &format!("{ADMIN}/qmgr"),
            resource(get(admin::queue_managers)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr"),
            resource(get(admin::queue_manager)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/queue"),
            resource(get(admin::queues).post(admin::create_queue)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/queue/:queue"),
            resource(
                get(admin::queue)
                    .patch(admin::alter_queue)
                    .delete(admin::delete_queue),
            ),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/channel"),
            resource(get(admin::channels)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/channel/:channel"),
            resource(get(admin::channel)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/subscription"),
            resource(get(pubsub_resources::subscriptions)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/subscription/:subscription"),
            resource(get(pubsub_resources::subscription)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/topic"),
            resource(get(pubsub_resources::topics)),
        )
        .route(
            &format!("{ADMIN}/qmgr/:qmgr/topic/:topic"),
            resource(get(pubsub_resources::topic)),
        )
        .route(
            &format!("{ADMIN}/action/qmgr/:qmgr/mqsc"),
            resource(post(mqsc_action::run)),
        )
        .route(
            &format!("{MESSAGING}/qmgr/:qmgr/queue/:queue/message"),
            resource(
                post(messaging::put)
                    .delete(messaging::get)
                    .get(messaging::browse),
            ),
        )
        .route(
            &format!("{MESSAGING}/qmgr/:qmgr/queue/:queue/messagelist"),
            resource(get(messaging::message_list)),
        )
        .route(
            &format!("{MESSAGING}/qmgr/:qmgr/topic/*topic"),
            resource(post(messaging::publish)),
        )
        .route("/metrics", resource(get(metrics::metrics)))
        .route("/ibmmq/console", get(console::redirect))
        .route(console::CONSOLE_PATH, resource(get(console::index)))
        .route("/ibmmq/console/index.html", resource(get(console::index)))
        .route("/ibmmq/console/console.js", resource(get(console::script)))
        .route("/ibmmq/console/console.css", resource(get(console::style)))
        .fallback(no_such_resource)
        .layer(axum::middleware::from_fn_with_state(web.clone(), admit))
        .layer(axum::extract::DefaultBodyLimit::max(REQUEST_BODY_BYTES_MAX))
        .with_state(web)
}

/// Where and how the server listens.
#[derive(Clone)]
pub struct WebOptions {
    pub address: SocketAddr,
    /// The TLS configuration (the queue manager's certificate): HTTPS. Required unless the
    /// address is a loopback address.
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Requests one client address may make.
    pub rate_limit: RateLimit,
}

impl WebOptions {
    /// HTTP on `address` (a loopback address) with the default rate limit.
    pub fn http(address: SocketAddr) -> WebOptions {
        WebOptions {
            address,
            tls: None,
            rate_limit: RateLimit::default(),
        }
    }
}

/// A running HTTP server; [`WebServer::stop`] ends it.
pub struct WebServer {
    address: SocketAddr,
    https: bool,
    stop: watch::Sender<bool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl WebServer {
    /// Listen on `options.address` and serve the REST API for `processor`'s queue manager.
    pub fn start(
        processor: Arc<CommandProcessor>,
        options: WebOptions,
    ) -> std::io::Result<WebServer> {
        if options.tls.is_none() && !options.address.ip().is_loopback() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{} is not a loopback address: the web server serves it with HTTPS only, and the queue manager has no certificate (make one with `ferrite tls create-cert QM`)",
                    options.address
                ),
            ));
        }
        let listener = std::net::TcpListener::bind(options.address)?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .max_blocking_threads(BLOCKING_THREADS_MAX + WAITING_GETS_MAX)
            .thread_name("ferrite-web")
            .build()?;
        let directory = processor.queue_manager().directory().to_path_buf();
        let web = Arc::new(Web {
            authenticator: Authenticator::new(&directory),
            processor,
            blocking: Semaphore::new(BLOCKING_THREADS_MAX),
            waiting: Semaphore::new(WAITING_GETS_MAX),
            access_log: AccessLog::new(&directory),
            rate_limiter: RateLimiter::new(options.rate_limit),
        });
        let app = router(web);
        let tls = options.tls.map(|config| {
            let mut config = (*config).clone();
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            tokio_rustls::TlsAcceptor::from(Arc::new(config))
        });
        let https = tls.is_some();
        let (stop, stopped) = watch::channel(false);
        let thread = std::thread::Builder::new()
            .name("ferrite-web".into())
            .spawn(move || {
                runtime.block_on(async move {
                    match TcpListener::from_std(listener) {
                        Ok(listener) => serve(listener, tls, app, stopped).await,
                        Err(error) => eprintln!("ferrite-web: cannot listen: {error}"),
                    }
                });
                runtime.shutdown_timeout(Duration::from_secs(STOP_WAIT_SECONDS));
            })?;
        Ok(WebServer {
            address,
            https,
            stop,
            thread: Some(thread),
        })
    }

    /// The address it listens on (the port chosen when 0 was asked for).
    pub fn local_address(&self) -> SocketAddr {
        self.address
    }

    /// The server's URL, e.g. `http://127.0.0.1:9443/`.
    pub fn url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}/", self.address)
    }

    /// Stop accepting, end the connections and wait (at most [`STOP_WAIT_SECONDS`] for work
    /// in progress).
    pub fn stop(mut self) {
        self.end();
    }

    fn end(&mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        self.end();
    }
}

/// Accept connections until `stopped` says so.
async fn serve(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    app: Router,
    mut stopped: watch::Receiver<bool>,
) {
    let connections = Arc::new(Semaphore::new(CONNECTIONS_MAX));
    loop {
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => permit.expect("never closed"),
            _ = stopped.changed() => return,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped.changed() => return,
        };
        let Ok((stream, peer)) = accepted else {
            // A failed accept (out of descriptors): pause rather than spin.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let app = app.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let _permit = permit;
            match tls {
                None => serve_connection(stream, peer, app).await,
                Some(acceptor) => {
                    if let Ok(Ok(stream)) = tokio::time::timeout(
                        Duration::from_secs(HEADER_READ_TIMEOUT_SECONDS),
                        acceptor.accept(stream),
                    )
                    .await
                    {
                        serve_connection(stream, peer, app).await;
                    }
                }
            }
        });
    }
}

async fn serve_connection<S>(stream: S, peer: SocketAddr, app: Router)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service =
        hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
            let app = app.clone();
            let mut request = request.map(axum::body::Body::new);
            request.extensions_mut().insert(ClientAddress(peer));
            async move {
                use tower::ServiceExt;
                app.oneshot(request).await
            }
        });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(HEADER_READ_TIMEOUT_SECONDS))
        .serve_connection(TokioIo::new(stream), service)
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn mq_error_of(status: StatusCode, content_type: &str, body: &'static str) -> Response {
        let response = (
            status,
            [(axum::http::header::CONTENT_TYPE, content_type)],
            body,
        )
            .into_response();
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(as_mq_error(response))
    }

    fn json_of(response: Response) -> serde_json::Value {
        let body = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(axum::body::to_bytes(response.into_body(), 65_536))
            .unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    #[test]
    fn refusals_of_the_http_layer_become_mq_errors() {
        let too_large = mq_error_of(
            StatusCode::PAYLOAD_TOO_LARGE,
            "text/plain",
            "Failed to buffer the request body: length limit exceeded",
        );
        assert_eq!(too_large.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let error = &json_of(too_large)["error"][0];
        assert_eq!(error["msgId"], "FRWB0002E");
        assert!(error["message"]
            .as_str()
            .unwrap()
            .contains(&REQUEST_BODY_BYTES_MAX.to_string()));

        let refused = mq_error_of(
            StatusCode::BAD_REQUEST,
            "text/plain; charset=utf-8",
            "Invalid URL: Cannot parse `%FF` to a UTF-8 string",
        );
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
        let error = &json_of(refused)["error"][0];
        assert_eq!(error["msgId"], "MQWB0007E");
        assert_eq!(error["completionCode"], 0);
        assert!(
            error["message"].as_str().unwrap().contains("%FF"),
            "{error}"
        );

        // MQ's errors and every answer that is not an error pass as they are.
        let mq = RestError::no_such_resource("/x").into_response();
        let mq = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(as_mq_error(mq));
        assert_eq!(json_of(mq)["error"][0]["msgId"], "MQWB0116E");
        let page = mq_error_of(StatusCode::OK, "text/html", "<html></html>");
        assert_eq!(page.status(), StatusCode::OK);
    }
}
