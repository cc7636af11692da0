//! # ferrite-server
//!
//! The bindings listener of a Ferrite queue manager: connections from other processes on the
//! same machine over a Unix domain socket (`<queue manager directory>/qm.sock`), speaking IBM
//! MQ's client protocol (TSH segments and the MQI flows). Each conversation is served by an
//! in-process `ferrite_mqi::Connection`, so MQI semantics, options and reason codes are the
//! in-process MQI's. The client side is `ferrite-client`, whose crate documentation describes
//! the flows, the FAP level and what is negotiated; both sides share `ferrite_protocol::wire`.
//!
//! - [`Server`]: the listener thread. It accepts up to [`ServerConfig::max_connections`]
//!   connections (beyond that a connection gets a STATUS_DATA refusal carrying
//!   MQRC_MAX_CONNS_LIMIT_REACHED, 2025, and is closed), each served by a thread of its own, so a
//!   waiting MQGET blocks only its connection.
//! - [`conversation`]: one connection's conversation: INITIAL_DATA negotiation (with a
//!   renegotiation request for unacceptable proposals), USERID_DATA, MQCONN(X), the MQI verbs,
//!   MQDISC.
//!
//! - [`message_channel`]: the batch logic of message channel agents between queue managers
//!   (sending from a transmission queue, receiving to the destination queues, the records on
//!   SYSTEM.CHANNEL.SYNCQ that keep each batch exactly once across restarts).
//!
//! A peer that breaks the protocol (bytes that are not segments, a segment longer than the
//! negotiated MaxTransmissionSize or the codec's hard cap, a flow longer than MaxMessageSize,
//! malformed structures, unknown or out-of-place segment types) has its connection closed; one
//! that never completes the handshake is closed after [`ServerConfig::handshake_timeout`]. When
//! a connection ends without MQDISC, its MQI connection is dropped, which backs out its unit of
//! work and closes its handles; the queue manager and the other connections carry on.

mod adapter;
pub mod async_consume;
pub mod authentication;
pub mod channel;
pub mod channel_authentication;
mod channel_conversation;
pub mod channel_initiator;
pub mod conversation;
mod dispatcher;
mod flows;
mod local_work;
pub mod message_channel;
pub mod session;
pub mod tls;
pub mod trace;

use std::collections::HashMap;
use std::io;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use ferrite_queue_manager::QueueManager;

/// The most connections a queue manager serves at once, unless configured otherwise.
pub const MAX_CONNECTIONS: usize = 512;

/// Where the server's messages go (the queue manager's log, stdout, nowhere).
pub type MessageSink = Arc<dyn Fn(&str) + Send + Sync>;

/// The listener's limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Connections served at once; more are refused with MQRC_MAX_CONNS_LIMIT_REACHED.
    pub max_connections: usize,
    /// The largest MaxTransmissionSize agreed to.
    pub max_transmission_size: u32,
    /// The largest MaxMessageSize agreed to.
    pub max_message_size: u32,
    /// How long a connection may take from accept to the end of MQCONN.
    pub handshake_timeout: Duration,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            max_connections: MAX_CONNECTIONS,
            max_transmission_size: ferrite_protocol::wire::MAX_TRANSMISSION_SIZE,
            max_message_size: ferrite_protocol::wire::MAX_MESSAGE_SIZE,
            handshake_timeout: Duration::from_secs(30),
        }
    }
}

/// State the listener and the connection threads share.
pub(crate) struct Shared {
    pub(crate) queue_manager: Arc<QueueManager>,
    pub(crate) config: ServerConfig,
    pub(crate) stopping: AtomicBool,
    pub(crate) log: MessageSink,
    active: AtomicUsize,
    next_id: AtomicU64,
    /// A second handle on each live connection's socket, to shut it down at stop.
    sockets: Mutex<HashMap<u64, UnixStream>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// The bindings listener. Stop it with [`Server::stop`] (or by dropping it) before the queue
/// manager shuts down: connections are closed (their units of work backed out) and the socket
/// file is removed.
pub struct Server {
    shared: Arc<Shared>,
    path: PathBuf,
    accept_thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Listens on `path` (which must not exist: a caller that knows no other queue manager
    /// uses it removes a stale file first) and serves connections to `queue_manager`.
    pub fn start(
        queue_manager: Arc<QueueManager>,
        path: &Path,
        config: ServerConfig,
        log: MessageSink,
    ) -> io::Result<Server> {
        let listener = UnixListener::bind(path)?;
        let shared = Arc::new(Shared {
            queue_manager,
            config,
            stopping: AtomicBool::new(false),
            log,
            active: AtomicUsize::new(0),
            next_id: AtomicU64::new(1),
            sockets: Mutex::new(HashMap::new()),
            threads: Mutex::new(Vec::new()),
        });
        let accept_shared = shared.clone();
        let accept_thread = std::thread::Builder::new()
            .name("ferrite-bindings-listener".into())
            .spawn(move || accept_loop(&accept_shared, listener))?;
        Ok(Server {
            shared,
            path: path.to_path_buf(),
            accept_thread: Some(accept_thread),
        })
    }

    /// The socket's path.
    pub fn socket_path(&self) -> &Path {
        &self.path
    }

    /// Connections being served.
    pub fn connection_count(&self) -> usize {
        self.shared.active.load(Ordering::Acquire)
    }

    /// Stops accepting, closes every connection (their MQI connections are dropped: units of
    /// work backed out), waits for the connection threads and removes the socket file.
    pub fn stop(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        let Some(accept_thread) = self.accept_thread.take() else {
            return;
        };
        self.shared.stopping.store(true, Ordering::Release);
        // Wake the accept call.
        drop(UnixStream::connect(&self.path));
        let _ = accept_thread.join();
        for socket in self.shared.sockets.lock().unwrap().values() {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
        let threads = std::mem::take(&mut *self.shared.threads.lock().unwrap());
        for thread in threads {
            let _ = thread.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_now();
    }
}

fn accept_loop(shared: &Arc<Shared>, listener: UnixListener) {
    for stream in listener.incoming() {
        if shared.stopping.load(Ordering::Acquire) {
            break;
        }
        let stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                (shared.log)(&format!("ferrite bindings: accept failed: {error}"));
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        shared
            .threads
            .lock()
            .unwrap()
            .retain(|thread| !thread.is_finished());
        if shared.active.load(Ordering::Acquire) >= shared.config.max_connections {
            (shared.log)(&format!(
                "ferrite bindings: connection refused, {} connections already (reason 2025 MQRC_MAX_CONNS_LIMIT_REACHED)",
                shared.config.max_connections
            ));
            conversation::refuse(
                stream,
                ferrite_constants::reason::MQRC_MAX_CONNS_LIMIT_REACHED,
            );
            continue;
        }
        let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
        let Ok(registered) = stream.try_clone() else {
            continue;
        };
        shared.active.fetch_add(1, Ordering::AcqRel);
        shared.sockets.lock().unwrap().insert(id, registered);
        let thread_shared = shared.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("ferrite-bindings-{id}"))
            .spawn(move || {
                conversation::serve(&thread_shared, stream);
                thread_shared.sockets.lock().unwrap().remove(&id);
                thread_shared.active.fetch_sub(1, Ordering::AcqRel);
            });
        match spawned {
            Ok(thread) => shared.threads.lock().unwrap().push(thread),
            Err(error) => {
                (shared.log)(&format!(
                    "ferrite bindings: cannot start a connection thread: {error}"
                ));
                shared.sockets.lock().unwrap().remove(&id);
                shared.active.fetch_sub(1, Ordering::AcqRel);
            }
        }
    }
}
