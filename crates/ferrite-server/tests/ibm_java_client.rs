//! IBM's own MQ client against Ferrite, unmodified: the Java programs under `tests/java` (built
//! with Maven against `com.ibm.mq:com.ibm.mq.allclient`, downloaded at test time and never
//! committed) run against a queue manager whose channel initiator listens on 127.0.0.1.
//!
//! Needs a JDK (17 or later) and Maven on the PATH; `scripts/test` installs both when missing.
//! Each Java program prints one PASS or FAIL line per check and exits with the number of
//! failures; the test fails on any failure and prints the program's output.

mod support;

use std::path::Path;
use std::process::Command;

use ferrite_queue_manager::QueueDefinition;
use ferrite_server::ServerConfig;
use ferrite_storage::PageSetId;

use support::java::{channel_arguments, run_java};

use support::{listen, Listener};

fn start_listener() -> Listener {
    // Active logs larger than the biggest message the checks put (1 MiB, persistent), so the
    // checks do not measure log switches.
    let mut config = support::small_config("QM1");
    config.log.active_log_size_mib = 8;
    let fixture = support::start_configured(&["FERRITE.TEST.Q1"], ServerConfig::default(), config);
    let mut indexed = QueueDefinition::local("FERRITE.TEST.INDEXED", PageSetId(1));
    indexed.index_type = "CORRELID".to_string();
    fixture.queue_manager.define_queue(indexed, false).unwrap();
    listen(fixture)
}

/// Every queue of `queues` is empty: the checks consumed what they put.
fn assert_left_empty(listener: &Listener, queues: &[&str]) {
    for queue in queues {
        let depth = listener
            .fixture
            .queue_manager
            .queue(queue)
            .unwrap()
            .status()
            .current_depth;
        assert_eq!(depth, 0, "{queue} left empty by the checks");
    }
}

/// No channel ended in error (CSQX208E) while the checks ran.
fn assert_no_channel_errors(listener: &Listener) {
    let errors: Vec<String> = listener
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|line| line.contains("CSQX208E"))
        .cloned()
        .collect();
    assert!(errors.is_empty(), "no channel ended in error: {errors:?}");
}

#[test]
fn ibm_mq_classes_for_java() {
    let listener = start_listener();
    let output = run_java(
        "MqClassesConformance",
        &channel_arguments(&listener, &["FERRITE.TEST.Q1", "FERRITE.TEST.INDEXED"]),
    );
    assert!(output.contains("10 passed, 0 failed"), "every check ran");
    assert_left_empty(&listener, &["FERRITE.TEST.Q1", "FERRITE.TEST.INDEXED"]);
    assert_no_channel_errors(&listener);
}

#[test]
fn ibm_mq_classes_for_jms() {
    let listener = start_listener();
    let output = run_java(
        "JmsConformance",
        &channel_arguments(&listener, &["FERRITE.TEST.Q1"]),
    );
    assert!(
        output.contains("10 passed, 0 failed") && !output.contains("SKIP"),
        "every check ran and passed"
    );
    assert_left_empty(&listener, &["FERRITE.TEST.Q1"]);
    assert_no_channel_errors(&listener);
}

/// FERRITE.TEST.READAHEAD, with DEFREADA(YES).
fn define_read_ahead_queue(listener: &Listener) {
    let mut queue = QueueDefinition::local("FERRITE.TEST.READAHEAD", PageSetId(1));
    queue.default_read_ahead = "YES".to_string();
    listener
        .fixture
        .queue_manager
        .define_queue(queue, false)
        .unwrap();
}

/// Read-ahead (DEFREADA(YES)): IBM's client streams non-persistent messages ahead of its MQGETs
/// through REQUEST_MSGS and ASYNC_MESSAGE; the class prints the receive rate with and without.
#[test]
fn ibm_mq_classes_for_java_read_ahead() {
    let listener = start_listener();
    define_read_ahead_queue(&listener);
    let mut arguments = channel_arguments(&listener, &["FERRITE.TEST.READAHEAD"]);
    arguments.push("2000".to_string());
    let output = run_java("ReadAhead", &arguments);
    assert!(output.contains("3 passed, 0 failed"), "every check ran");
    assert_no_channel_errors(&listener);
}

/// Read-ahead as MQ documents it (tests/java ReadAheadRules): persistent messages are returned
/// only to real MQGETs, in their place, and MQCLOSE with MQCO_QUIESCE while messages read
/// ahead wait fails with MQRC_READ_AHEAD_MSGS and keeps the handle open.
#[test]
fn ibm_mq_classes_for_java_read_ahead_rules() {
    let listener = start_listener();
    define_read_ahead_queue(&listener);
    let output = run_java(
        "ReadAheadRules",
        &channel_arguments(&listener, &["FERRITE.TEST.READAHEAD"]),
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");
    assert_left_empty(&listener, &["FERRITE.TEST.READAHEAD"]);
}

/// JMS receives that find nothing on a read-ahead queue (tests/java ReadAheadReceive):
/// receive(timeout) and receiveNoWait return null, outside and inside a transaction, and the
/// consumer then receives what is sent after.
#[test]
fn ibm_mq_classes_for_jms_read_ahead_receives_that_find_nothing() {
    let listener = start_listener();
    define_read_ahead_queue(&listener);
    let output = run_java(
        "ReadAheadReceive",
        &channel_arguments(&listener, &["FERRITE.TEST.READAHEAD"]),
    );
    assert!(output.contains("4 passed, 0 failed"), "every check ran");
    assert_left_empty(&listener, &["FERRITE.TEST.READAHEAD"]);
    assert_no_channel_errors(&listener);
}

/// Asynchronous put through IBM's clients (tests/java AsyncPutConformance): MQPMO_ASYNC_RESPONSE
/// with MQSTAT from the MQ classes for Java, JMS non-persistent sends put asynchronously, and
/// their failures reported to the JMS exception listener instead of send().
#[test]
fn ibm_clients_asynchronous_put() {
    let listener = start_listener();
    let mut asynchronous = QueueDefinition::local("FERRITE.TEST.ASYNC", PageSetId(1));
    asynchronous.default_put_response = "ASYNC".to_string();
    listener
        .fixture
        .queue_manager
        .define_queue(asynchronous, false)
        .unwrap();
    let output = run_java(
        "AsyncPutConformance",
        &channel_arguments(&listener, &["FERRITE.TEST.Q1", "FERRITE.TEST.ASYNC"]),
    );
    assert!(
        output.contains("6 passed, 0 failed"),
        "every check ran and passed"
    );
    assert_left_empty(&listener, &["FERRITE.TEST.Q1", "FERRITE.TEST.ASYNC"]);
}

/// Data conversion for IBM's clients (tests/java DataConversionConformance): a UTF-8 string
/// message got as EBCDIC CCSID 37 with MQGMO_CONVERT by the MQ classes for Java and by JMS.
#[test]
fn ibm_clients_data_conversion() {
    let listener = start_listener();
    let output = run_java(
        "DataConversionConformance",
        &channel_arguments(&listener, &["FERRITE.TEST.Q1"]),
    );
    assert!(output.contains(" passed, 0 failed"), "every check passed");
}

/// Runs `keytool` with `arguments` in `directory`; panics with its output when it fails.
fn keytool(directory: &Path, arguments: &[&str]) {
    let output = Command::new("keytool")
        .args(arguments)
        .current_dir(directory)
        .output()
        .expect("keytool (the JDK's) runs");
    assert!(
        output.status.success(),
        "keytool {arguments:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// IBM's client against CHCKCLNT(REQUIRED) and TLS channels: JMS createConnection(user,
/// password) and MQCSP over TLS, every refusal's reason, mutual TLS with SSLPEER. The trust
/// store and the client's key store are made here with the JDK's keytool.
#[test]
fn ibm_client_connection_authentication_and_tls() {
    use ferrite_queue_manager::{ChannelDefinition, ObjectDefinition};
    let listener = start_listener();
    let queue_manager = &listener.fixture.queue_manager;
    let directory = listener.fixture.directory.path();
    let repository = directory.join("tls");
    let certificate = ferrite_server::tls::create_self_signed(&repository, "QM1").unwrap();
    let stores = tempfile::tempdir().unwrap();
    keytool(
        stores.path(),
        &[
            "-importcert",
            "-noprompt",
            "-alias",
            "qm1",
            "-file",
            certificate.to_str().unwrap(),
            "-keystore",
            "trust.p12",
            "-storetype",
            "PKCS12",
            "-storepass",
            "password",
        ],
    );
    // The client's certificate: self-signed by keytool, trusted by the queue manager as its
    // own anchor in ca.crt.
    keytool(
        stores.path(),
        &[
            "-genkeypair",
            "-alias",
            "app",
            "-keyalg",
            "EC",
            "-groupname",
            "secp256r1",
            "-dname",
            "CN=app,O=Ferrite",
            "-validity",
            "2",
            "-keystore",
            "client.p12",
            "-storetype",
            "PKCS12",
            "-storepass",
            "password",
            "-keypass",
            "password",
        ],
    );
    keytool(
        stores.path(),
        &[
            "-exportcert",
            "-rfc",
            "-alias",
            "app",
            "-file",
            "client.pem",
            "-keystore",
            "client.p12",
            "-storetype",
            "PKCS12",
            "-storepass",
            "password",
        ],
    );
    std::fs::copy(stores.path().join("client.pem"), repository.join("ca.crt")).unwrap();
    ferrite_queue_manager::security::users::UserRegistry::new(directory)
        .add("app", b"passw0rd", false)
        .unwrap();
    // An application's user: granted what it needs, as an administrator would.
    ferrite_test_kit::grant_all_mqi(queue_manager, "app");
    let mut attributes = queue_manager.queue_manager_attributes();
    attributes.check_client = "REQUIRED".into();
    queue_manager.alter_queue_manager(attributes).unwrap();
    let channel = |name: &str, spec: &str, required: bool, peer: &str| {
        let mut channel = ChannelDefinition::server_connection(name);
        channel.ssl_cipher_spec = spec.into();
        channel.ssl_client_auth_required = required;
        channel.ssl_peer = peer.into();
        queue_manager
            .define_object(ObjectDefinition::Channel(channel), true)
            .unwrap();
    };
    channel("TLS.SVRCONN", "TLS_AES_128_GCM_SHA256", false, "");
    channel("TLS12.SVRCONN", "ECDHE_ECDSA_AES_128_GCM_SHA256", false, "");
    channel(
        "MTLS.SVRCONN",
        "ANY_TLS12_OR_HIGHER",
        true,
        "CN=app,O=Ferrite",
    );
    channel(
        "PEER.SVRCONN",
        "ANY_TLS12_OR_HIGHER",
        true,
        "CN=someone.else",
    );
    let trust = stores.path().join("trust.p12");
    let client = stores.path().join("client.p12");
    let arguments = |key_store: &str| {
        vec![
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            trust.display().to_string(),
            "FERRITE.TEST.Q1".to_string(),
            key_store.to_string(),
        ]
    };
    let output = run_java("SecurityConformance", &arguments("none"));
    assert!(output.contains("12 passed, 0 failed"), "every check ran");
    let output = run_java(
        "SecurityConformance",
        &arguments(&client.display().to_string()),
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");
    let log = listener.log.lock().unwrap().join("\n");
    for expected in [
        "authentication failed: wrong password",
        "authentication failed: no such user",
        "CHCKCLNT(REQUIRED) needs them",
        "password protection algorithm 1, which Ferrite cannot check",
        "AMQ9631E channel TLS.SVRCONN",
        "AMQ9639E channel TLS.SVRCONN",
        "AMQ9639E channel DEV.APP.SVRCONN",
        "AMQ9637E channel MTLS.SVRCONN",
        "AMQ9636E channel PEER.SVRCONN",
    ] {
        assert!(log.contains(expected), "the log says '{expected}':\n{log}");
    }
    assert!(!log.contains("passw0rd"), "no password in the log");
}

// ----- Poison messages: BOTHRESH and BOQNAME, honoured by IBM's JMS client ------------------

/// IBM's JMS client inquires BOTHRESH and BOQNAME of the queue it consumes (and DEADQ of the
/// queue manager) and requeues a message whose backout count reached the threshold itself: to
/// BOQNAME, or with BOQNAME blank to the dead-letter queue behind an MQDLH (checked here).
#[test]
fn ibm_jms_backout_requeue() {
    use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod};
    // MQDLH version 1: StrucId "DLH ", Version, Reason at 8, DestQName at 12..60; 172 bytes.
    const DEAD_LETTER_HEADER_LENGTH: usize = 172;

    let listener = start_listener();
    let queue_manager = &listener.fixture.queue_manager;
    let mut with_requeue = QueueDefinition::local("FERRITE.BACKOUT.Q", PageSetId(1));
    with_requeue.backout_threshold = 2;
    with_requeue.backout_requeue_queue = "FERRITE.BACKOUT.REQ".to_string();
    queue_manager.define_queue(with_requeue, false).unwrap();
    queue_manager
        .define_queue(
            QueueDefinition::local("FERRITE.BACKOUT.REQ", PageSetId(1)),
            false,
        )
        .unwrap();
    let mut without_requeue = QueueDefinition::local("FERRITE.BACKOUT.NOBOQ", PageSetId(1));
    without_requeue.backout_threshold = 1;
    queue_manager.define_queue(without_requeue, false).unwrap();

    let output = run_java(
        "JmsBackoutRequeue",
        &channel_arguments(
            &listener,
            &[
                "FERRITE.BACKOUT.Q",
                "FERRITE.BACKOUT.REQ",
                "FERRITE.BACKOUT.NOBOQ",
            ],
        ),
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");

    // The dead-letter queue holds the message from the queue without BOQNAME, behind the
    // MQDLH IBM's client wrote.
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let dlq = connection
        .open(
            &mut Mqod::queue("SYSTEM.DEAD.LETTER.QUEUE"),
            ferrite_constants::open_options::MQOO_INPUT_SHARED,
        )
        .unwrap();
    let mut md = Mqmd::default();
    let mut buffer = vec![0u8; 64 * 1024];
    let got = connection
        .get(
            dlq,
            &mut md,
            &mut Mqgmo::with_options(ferrite_constants::get_options::MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .expect("a message on the dead-letter queue");
    assert_eq!(&md.format, b"MQDEAD  ");
    assert!(got.returned_length > DEAD_LETTER_HEADER_LENGTH);
    assert_eq!(&buffer[..4], b"DLH ");
    let reason_bytes: [u8; 4] = buffer[8..12].try_into().unwrap();
    let reason = if md.encoding & 0xf == 2 {
        i32::from_le_bytes(reason_bytes)
    } else {
        i32::from_be_bytes(reason_bytes)
    };
    let dest_q_name = String::from_utf8_lossy(&buffer[12..60])
        .trim_end()
        .to_string();
    println!("MQDLH written by IBM's JMS client: Reason {reason}, DestQName {dest_q_name}");
    assert_eq!(dest_q_name, "FERRITE.BACKOUT.NOBOQ");
    assert_eq!(
        reason,
        ferrite_constants::reason::MQRC_BACKOUT_THRESHOLD_REACHED
    );
    let body = &buffer[DEAD_LETTER_HEADER_LENGTH..got.returned_length];
    assert!(
        String::from_utf8_lossy(body).contains("poison without BOQNAME"),
        "the original message follows the MQDLH"
    );
    for queue in [
        "FERRITE.BACKOUT.Q",
        "FERRITE.BACKOUT.REQ",
        "FERRITE.BACKOUT.NOBOQ",
        "SYSTEM.DEAD.LETTER.QUEUE",
    ] {
        assert_eq!(
            queue_manager.queue(queue).unwrap().status().current_depth,
            0,
            "{queue} left empty"
        );
    }
}

/// Message groups and segmentation through IBM MQ classes for Java (GroupsConformance): a
/// 3-message group put with MQPMO_LOGICAL_ORDER and got with MQGMO_LOGICAL_ORDER |
/// MQGMO_ALL_MSGS_AVAILABLE, and a message longer than the queue's MAXMSGL segmented by the
/// queue manager and reassembled with MQGMO_COMPLETE_MSG.
#[test]
fn ibm_mq_classes_for_java_groups_and_segments() {
    let listener = start_listener();
    let mut small = QueueDefinition::local("FERRITE.TEST.SMALL", PageSetId(1));
    small.max_message_length = 4096;
    listener
        .fixture
        .queue_manager
        .define_queue(small, false)
        .unwrap();
    let output = run_java(
        "GroupsConformance",
        &channel_arguments(&listener, &["FERRITE.TEST.Q1", "FERRITE.TEST.SMALL"]),
    );
    assert!(output.contains("2 passed, 0 failed"), "every check ran");
    assert_left_empty(&listener, &["FERRITE.TEST.Q1", "FERRITE.TEST.SMALL"]);
}
