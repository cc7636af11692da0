//! A queue manager on a temporary directory with the bindings listener on a temporary socket.
#![allow(dead_code)]

pub mod java;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use ferrite_mqi::{MqResult, Mqcno};
use ferrite_queue_manager::QueueManager;
use ferrite_server::{Server, ServerConfig};
use ferrite_storage::config::QueueManagerConfig;

pub struct Fixture {
    pub directory: tempfile::TempDir,
    pub queue_manager: Arc<QueueManager>,
    pub server: Option<Server>,
    pub socket: PathBuf,
    pub log: Arc<Mutex<Vec<String>>>,
}

pub fn small_config(name: &str) -> QueueManagerConfig {
    // The engine's small configuration with twice its buffers and pages.
    let mut config = QueueManagerConfig::small(name);
    for pool in &mut config.buffer_pools {
        pool.buffers = 400;
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 512;
        page_set.secondary_pages = 512;
    }
    // The tests' clients run as the user that runs the queue manager: not privileged here,
    // so that the default CHCKCLNT(REQDADM) lets them connect without a password.
    config.security.owner_privileged = false;
    config.security.privileged_group = String::new();
    config
}

/// QM1 with local queues `queues`, its listener started with `config`.
pub fn start_with(queues: &[&str], config: ServerConfig) -> Fixture {
    start_configured(queues, config, small_config("QM1"))
}

/// As [`start_with`], with the queue manager configured by `qm_config`.
pub fn start_configured(
    queues: &[&str],
    config: ServerConfig,
    qm_config: QueueManagerConfig,
) -> Fixture {
    start_on(ferrite_test_kit::fs(), queues, config, qm_config)
}

/// As [`start_configured`], the queue manager opened on `fs` (created on the real file system:
/// `fs` must reach the same files).
pub fn start_on(
    fs: Arc<dyn ferrite_storage::vfs::FileSystem>,
    queues: &[&str],
    config: ServerConfig,
    qm_config: QueueManagerConfig,
) -> Fixture {
    let directory = tempfile::tempdir().unwrap();
    ferrite_test_kit::create_with(directory.path(), &qm_config);
    let queue_manager =
        QueueManager::open(fs, directory.path(), Arc::new(|_line: &str| {})).unwrap();
    // MQ's default objects, the SVRCONN channels among them.
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    ferrite_test_kit::define_locals(&queue_manager, queues);
    // Not an administrator (above), yet the tests administer the queue manager from their
    // console and connect as it: granted every authority, as an administrator would, by its
    // name and by the name its clients assert ($USER).
    ferrite_test_kit::grant_all(&queue_manager, &ferrite_test_kit::this_user());
    if let Ok(asserted) = std::env::var("USER") {
        if !asserted.trim().is_empty() {
            ferrite_test_kit::grant_all(&queue_manager, asserted.trim());
        }
    }
    let socket = directory.path().join("qm.sock");
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let server = Server::start(
        queue_manager.clone(),
        &socket,
        config,
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .unwrap();
    Fixture {
        directory,
        queue_manager,
        server: Some(server),
        socket,
        log,
    }
}

pub fn start(queues: &[&str]) -> Fixture {
    start_with(queues, ServerConfig::default())
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
        let _ = self.queue_manager.shutdown();
    }
}

/// A fixture with the channel initiator listening on 127.0.0.1 (any free port); its messages
/// are kept in `log`. Dropping it stops the listener and its channels, then the queue manager.
pub struct Listener {
    pub fixture: Fixture,
    pub chinit: Arc<ferrite_server::channel_initiator::ChannelInitiator>,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Listener {
    /// `127.0.0.1:port`.
    pub fn address(&self) -> String {
        format!("127.0.0.1:{}", self.port())
    }

    pub fn port(&self) -> u16 {
        self.chinit.local_address().expect("listening").port()
    }

    /// Ferrite's Rust client to QM1 through `channel` (MQ's default MQCNO and options).
    pub fn connect_client(&self, channel: &str) -> MqResult<ferrite_client::Connection> {
        ferrite_client::Connection::connect_client(
            &self.address(),
            channel,
            "QM1",
            &Mqcno::default(),
            &ferrite_client::ClientOptions::default(),
        )
    }

    /// Ferrite's Rust client to QM1 through DEV.APP.SVRCONN, which must succeed.
    pub fn connect_app(&self) -> ferrite_client::Connection {
        self.connect_client("DEV.APP.SVRCONN").unwrap()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.chinit.stop();
    }
}

/// Starts the channel initiator of `fixture` on 127.0.0.1.
pub fn listen(fixture: Fixture) -> Listener {
    listen_with(
        fixture,
        ferrite_server::channel_initiator::ChannelInitiatorConfig::default(),
    )
}

/// Starts the channel initiator of `fixture` configured by `config`, but on 127.0.0.1 and
/// any free port whatever `config` says.
pub fn listen_with(
    fixture: Fixture,
    config: ferrite_server::channel_initiator::ChannelInitiatorConfig,
) -> Listener {
    use ferrite_server::channel_initiator::{ChannelInitiator, ChannelInitiatorConfig};
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let chinit = ChannelInitiator::start(
        fixture.queue_manager.clone(),
        ChannelInitiatorConfig {
            address: [127, 0, 0, 1].into(),
            port: 0,
            ..config
        },
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .unwrap();
    Listener {
        fixture,
        chinit,
        log,
    }
}
