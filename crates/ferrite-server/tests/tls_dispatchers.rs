//! TLS on sockets the dispatchers own: the handshake and every record are driven from epoll
//! readiness, so a TLS peer that stalls mid-handshake holds back no one sharing its
//! dispatcher (and is ended by the handshake timeout), long messages cross in many records,
//! and a waiting MQGET woken on an adapter answers through the same TLS session.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use ferrite_client::connection::ClientSecurity;
use ferrite_client::ClientTls;
use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{get_options::*, open_options::*, put_options::*};
use ferrite_mqi::{Mqcno, Mqgmo, Mqod};
use ferrite_queue_manager::{ChannelDefinition, ObjectDefinition};
use ferrite_server::channel_initiator::ChannelInitiatorConfig;
use ferrite_server::ServerConfig;

use support::Listener;

/// How long a socket may take to negotiate in these tests.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(1);

/// QM1 with Q1, one dispatcher and one adapter (everyone shares them), a self-signed
/// certificate and channel TLS.SVRCONN with SSLCIPH(TLS_AES_128_GCM_SHA256). Returns the
/// listener and the queue manager's certificate (PEM).
fn start() -> (Listener, String) {
    let fixture = support::start_with(&["Q1"], ServerConfig::default());
    let repository = fixture.directory.path().join("tls");
    let certificate = ferrite_server::tls::create_self_signed(&repository, "QM1").unwrap();
    let certificate = std::fs::read_to_string(certificate).unwrap();
    let mut channel = ChannelDefinition::server_connection("TLS.SVRCONN");
    channel.ssl_cipher_spec = "TLS_AES_128_GCM_SHA256".into();
    channel.ssl_client_auth_required = false;
    fixture
        .queue_manager
        .define_object(ObjectDefinition::Channel(channel), false)
        .unwrap();
    let listener = support::listen_with(
        fixture,
        ChannelInitiatorConfig {
            dispatchers: 1,
            adapters: 1,
            handshake_timeout: HANDSHAKE_TIMEOUT,
            ..ChannelInitiatorConfig::default()
        },
    );
    (listener, certificate)
}

fn connect_tls(listener: &Listener, certificate: &str) -> Connection {
    let tls = ClientTls::from_pem(certificate.as_bytes(), "TLS_AES_128_GCM_SHA256", None).unwrap();
    Connection::connect_client_secure(
        &listener.address(),
        "TLS.SVRCONN",
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
        &ClientSecurity {
            tls: Some(tls),
            credentials: None,
        },
    )
    .unwrap()
}

fn put(connection: &mut Connection, hobj: ferrite_mqi::Hobj, body: &[u8]) {
    ferrite_test_kit::put(connection, hobj, MQPMO_NO_SYNCPOINT, body);
}

fn get(connection: &mut Connection, hobj: ferrite_mqi::Hobj, wait_ms: i32) -> Vec<u8> {
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_WAIT);
    gmo.wait_interval = wait_ms;
    ferrite_test_kit::get_with(connection, hobj, &mut gmo, 4 * 1024 * 1024)
        .unwrap()
        .1
}

/// Whether the server has closed `socket` (read returns end of file or an error).
fn closed_by_server(socket: &mut TcpStream, within: Duration) -> bool {
    socket.set_read_timeout(Some(within)).unwrap();
    let mut byte = [0u8; 256];
    loop {
        match socket.read(&mut byte) {
            Ok(0) => return true,
            // A TLS alert may come first.
            Ok(_) => continue,
            Err(error) => {
                return !matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            }
        }
    }
}

#[test]
fn a_stalled_tls_handshake_holds_back_no_one_and_times_out() {
    let (listener, certificate) = start();
    // Three peers stall on the only dispatcher: a ClientHello cut short, a lone record-type
    // byte, and a TCP connection that says nothing.
    let mut stalled: Vec<TcpStream> = [
        vec![
            0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03,
        ],
        vec![0x16],
        Vec::new(),
    ]
    .iter()
    .map(|bytes| {
        let mut socket = TcpStream::connect(listener.address()).unwrap();
        socket.write_all(bytes).unwrap();
        socket
    })
    .collect();
    // Meanwhile a TLS client is served at once, every call a round trip through the
    // dispatcher and the adapter.
    let started = Instant::now();
    let mut client = connect_tls(&listener, &certificate);
    let hobj = client
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    for round in 0..20u32 {
        put(&mut client, hobj, &round.to_be_bytes());
        assert_eq!(get(&mut client, hobj, 1_000), round.to_be_bytes());
    }
    assert!(
        started.elapsed() < HANDSHAKE_TIMEOUT,
        "served while others stalled: {:?}",
        started.elapsed()
    );
    // The stalled peers are ended by the handshake timeout; the client carries on.
    for socket in &mut stalled {
        assert!(closed_by_server(socket, HANDSHAKE_TIMEOUT * 5));
    }
    put(&mut client, hobj, b"still here");
    assert_eq!(get(&mut client, hobj, 1_000), b"still here");
    let log = listener.log.lock().unwrap().join("\n");
    assert!(log.contains("no INITIAL_DATA negotiated"), "{log}");
}

#[test]
fn long_messages_and_woken_gets_cross_a_tls_session() {
    let (listener, certificate) = start();
    let mut client = connect_tls(&listener, &certificate);
    let hobj = client
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    // 3 MiB each way: many segments, and many TLS records per segment.
    let long: Vec<u8> = (0..3 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    put(&mut client, hobj, &long);
    assert_eq!(get(&mut client, hobj, 0), long);
    // A waiting MQGET is parked; a put by another TLS client wakes it on the adapter, which
    // answers through the waiting client's TLS session.
    let waiter = std::thread::spawn({
        let mut waiting = connect_tls(&listener, &certificate);
        move || {
            let hobj = waiting
                .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
                .unwrap();
            get(&mut waiting, hobj, 10_000)
        }
    });
    std::thread::sleep(Duration::from_millis(200));
    put(&mut client, hobj, b"wake up");
    assert_eq!(waiter.join().unwrap(), b"wake up");
}

/// FAILDLAY delays the answer to a wrong password on the timer, not on an adapter: with one
/// adapter, three refused connections wait out their delay while an authenticated client is
/// served at once.
#[test]
fn faildlay_holds_no_adapter() {
    use ferrite_constants::reason::MQRC_NOT_AUTHORIZED;
    // Long enough that the served connection finishes first even on a loaded machine: the
    // test checks the order of events, not a duration.
    const FAIL_DELAY: Duration = Duration::from_secs(20);
    let (listener, certificate) = start();
    let queue_manager = &listener.fixture.queue_manager;
    ferrite_command::define_default_objects(queue_manager).unwrap();
    ferrite_queue_manager::security::users::UserRegistry::new(queue_manager.directory())
        .add("app", b"passw0rd", false)
        .unwrap();
    // An application's user: granted what it needs, as an administrator would.
    ferrite_test_kit::grant_all_mqi(queue_manager, "app");
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    for command in [
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(REQUIRED) FAILDLAY(20)",
        "REFRESH SECURITY TYPE(CONNAUTH)",
    ] {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    }
    let connect = |password: &str| {
        let tls =
            ClientTls::from_pem(certificate.as_bytes(), "TLS_AES_128_GCM_SHA256", None).unwrap();
        Connection::connect_client_secure(
            &listener.address(),
            "TLS.SVRCONN",
            "QM1",
            &Mqcno::default(),
            &ClientOptions::default(),
            &ClientSecurity {
                tls: Some(tls),
                credentials: Some(("app".into(), password.into())),
            },
        )
    };
    let started = Instant::now();
    let refusals_answered = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let refused: Vec<_> = (0..3)
            .map(|_| {
                scope.spawn(|| {
                    let reason = connect("wrong").err().map(|error| error.reason);
                    refusals_answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    (reason, started.elapsed())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        let mut client = connect("passw0rd").unwrap();
        let hobj = client
            .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
            .unwrap();
        put(&mut client, hobj, b"served");
        assert_eq!(get(&mut client, hobj, 0), b"served");
        assert_eq!(
            refusals_answered.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "served while the refusals waited out FAILDLAY"
        );
        for handle in refused {
            let (reason, elapsed) = handle.join().unwrap();
            assert_eq!(reason, Some(MQRC_NOT_AUTHORIZED));
            assert!(elapsed >= FAIL_DELAY, "{elapsed:?}");
        }
    });
}
