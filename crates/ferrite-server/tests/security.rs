//! Security of client channels with Ferrite's Rust client and raw, hostile peers: TLS
//! (SSLCIPH, SSLCAUTH, SSLPEER), connection authentication (CHCKCLNT, the user registry,
//! MCAUSER), every refusal with its reason code and log line, and other connections carrying
//! on through all of them.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use ferrite_client::connection::ClientSecurity;
use ferrite_client::ClientTls;
use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::{MqResult, Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::{ChannelDefinition, ObjectDefinition};
use ferrite_server::ServerConfig;

use support::{listen, Listener};

/// PEM files of a test PKI: the queue manager's self-signed pair, a CA that signs client
/// certificates, a client certificate from it (CN=app) and a rogue self-signed one.
struct Pki {
    server_certificate: String,
    ca_certificate: String,
    client: (String, String),
    other_client: (String, String),
    rogue: (String, String),
}

fn pki(repository: &Path) -> Pki {
    let server_certificate =
        ferrite_server::tls::create_self_signed(repository, "QM1").expect("server certificate");
    let server_certificate = std::fs::read_to_string(server_certificate).unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "Ferrite test CA");
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let client = |common_name: &str| {
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(rcgen::DnType::OrganizationName, "Ferrite");
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, common_name);
        let key = rcgen::KeyPair::generate().unwrap();
        let certificate = params.signed_by(&key, &ca, &ca_key).unwrap();
        (certificate.pem(), key.serialize_pem())
    };
    std::fs::write(repository.join("ca.crt"), ca.pem()).unwrap();
    Pki {
        server_certificate,
        ca_certificate: ca.pem(),
        client: client("app"),
        other_client: client("intruder"),
        rogue: ferrite_server::tls::self_signed_pem("app", &["localhost"]).unwrap(),
    }
}

fn channel(name: &str, change: impl FnOnce(&mut ChannelDefinition)) -> ObjectDefinition {
    let mut channel = ChannelDefinition::server_connection(name);
    change(&mut channel);
    ObjectDefinition::Channel(channel)
}

struct Secured {
    listener: Listener,
    pki: Pki,
}

fn start() -> Secured {
    let fixture = support::start_with(&["Q1"], ServerConfig::default());
    let repository = fixture.directory.path().join("tls");
    let pki = pki(&repository);
    let queue_manager = &fixture.queue_manager;
    for definition in [
        channel("TLS.SVRCONN", |c| {
            c.ssl_cipher_spec = "TLS_AES_128_GCM_SHA256".into();
            c.ssl_client_auth_required = false;
        }),
        channel("TLS12.SVRCONN", |c| {
            c.ssl_cipher_spec = "ECDHE_ECDSA_AES_128_GCM_SHA256".into();
            c.ssl_client_auth_required = false;
        }),
        channel("MTLS.SVRCONN", |c| {
            c.ssl_cipher_spec = "ANY_TLS12_OR_HIGHER".into();
            c.ssl_peer = "CN=app,O=Ferrite".into();
        }),
    ] {
        queue_manager.define_object(definition, false).unwrap();
    }
    Secured {
        listener: listen(fixture),
        pki,
    }
}

fn tls(pki: &Pki, cipher_spec: &str, identity: Option<&(String, String)>) -> ClientTls {
    ClientTls::from_pem(
        pki.server_certificate.as_bytes(),
        cipher_spec,
        identity.map(|(certificate, key)| (certificate.as_bytes(), key.as_bytes())),
    )
    .unwrap()
}

fn connect(
    listener: &Listener,
    channel: &str,
    tls: Option<ClientTls>,
    credentials: Option<(&str, &str)>,
) -> MqResult<Connection> {
    Connection::connect_client_secure(
        &listener.address(),
        channel,
        "QM1",
        &Mqcno::default(),
        &ClientOptions::default(),
        &ClientSecurity {
            tls,
            credentials: credentials.map(|(user, password)| (user.into(), password.into())),
        },
    )
}

fn reason(result: MqResult<Connection>) -> i32 {
    match result {
        Ok(_) => panic!("the connection was accepted"),
        Err(error) => error.reason,
    }
}

/// Puts and gets one message; returns the UserIdentifier the queue manager gave it.
fn round_trip(connection: &mut Connection) -> String {
    let hobj = connection
        .open(&mut Mqod::queue("Q1"), MQOO_OUTPUT | MQOO_INPUT_SHARED)
        .unwrap();
    let mut md = Mqmd::default();
    connection
        .put(
            hobj,
            &mut md,
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
            b"secure",
        )
        .unwrap();
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 64];
    let got = connection
        .get(
            hobj,
            &mut md,
            &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
            &mut buffer,
        )
        .unwrap();
    assert_eq!(&buffer[..got.returned_length], b"secure");
    connection.close(hobj, 0).unwrap();
    md.user_identifier.trim().to_string()
}

fn log_has(listener: &Listener, needle: &str) -> bool {
    // The refusal is logged by the channel's thread, possibly just after the client saw it.
    for _ in 0..50 {
        if listener
            .log
            .lock()
            .unwrap()
            .iter()
            .any(|line| line.contains(needle))
        {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn tls_channels_cipher_specs_and_client_certificates() {
    let secured = start();
    let listener = &secured.listener;
    let pki = &secured.pki;
    // A plaintext connection that must carry on through every refusal below.
    let mut bystander = connect(listener, "DEV.APP.SVRCONN", None, None).unwrap();

    let mut tls13 = connect(
        listener,
        "TLS.SVRCONN",
        Some(tls(pki, "TLS_AES_128_GCM_SHA256", None)),
        None,
    )
    .unwrap();
    round_trip(&mut tls13);
    let mut tls12 = connect(
        listener,
        "TLS12.SVRCONN",
        Some(tls(pki, "ECDHE_ECDSA_AES_128_GCM_SHA256", None)),
        None,
    )
    .unwrap();
    round_trip(&mut tls12);

    // Another CipherSpec than the channel's.
    let wrong = connect(
        listener,
        "TLS.SVRCONN",
        Some(tls(pki, "TLS_AES_256_GCM_SHA384", None)),
        None,
    );
    assert_eq!(reason(wrong), MQRC_SSL_INITIALIZATION_ERROR);
    assert!(log_has(listener, "AMQ9631E channel TLS.SVRCONN"));
    // A plaintext client on a TLS channel, a TLS client on a plaintext channel.
    assert_eq!(
        reason(connect(listener, "TLS.SVRCONN", None, None)),
        MQRC_SSL_INITIALIZATION_ERROR
    );
    assert!(log_has(listener, "AMQ9639E channel TLS.SVRCONN: SSLCIPH"));
    assert_eq!(
        reason(connect(
            listener,
            "DEV.APP.SVRCONN",
            Some(tls(pki, "ANY_TLS12_OR_HIGHER", None)),
            None
        )),
        MQRC_SSL_INITIALIZATION_ERROR
    );
    assert!(log_has(
        listener,
        "AMQ9639E channel DEV.APP.SVRCONN: the client uses TLS"
    ));
    // A client that does not trust the queue manager's certificate.
    let untrusting =
        ClientTls::from_pem(pki.ca_certificate.as_bytes(), "ANY_TLS12_OR_HIGHER", None).unwrap();
    assert_eq!(
        reason(connect(listener, "TLS.SVRCONN", Some(untrusting), None)),
        MQRC_SSL_INITIALIZATION_ERROR
    );

    // SSLCAUTH(REQUIRED) and SSLPEER.
    assert_eq!(
        reason(connect(
            listener,
            "MTLS.SVRCONN",
            Some(tls(pki, "ANY_TLS12_OR_HIGHER", None)),
            None
        )),
        MQRC_SSL_PEER_NAME_ERROR
    );
    assert!(log_has(
        listener,
        "AMQ9637E channel MTLS.SVRCONN: SSLCAUTH(REQUIRED)"
    ));
    let mut mutual = connect(
        listener,
        "MTLS.SVRCONN",
        Some(tls(pki, "ANY_TLS12_OR_HIGHER", Some(&pki.client))),
        None,
    )
    .unwrap();
    round_trip(&mut mutual);
    assert_eq!(
        reason(connect(
            listener,
            "MTLS.SVRCONN",
            Some(tls(pki, "ANY_TLS12_OR_HIGHER", Some(&pki.other_client))),
            None
        )),
        MQRC_SSL_PEER_NAME_MISMATCH
    );
    assert!(
        log_has(listener, "'CN=intruder,O=Ferrite' does not match SSLPEER"),
        "{:?}",
        listener.log.lock().unwrap()
    );
    // A certificate no trusted CA signed: the handshake fails.
    let rogue = connect(
        listener,
        "MTLS.SVRCONN",
        Some(tls(pki, "ANY_TLS12_OR_HIGHER", Some(&pki.rogue))),
        None,
    );
    assert!(rogue.is_err(), "a rogue client certificate is refused");
    assert!(log_has(listener, "TLS handshake failed"));

    // Everyone else carried on.
    round_trip(&mut bystander);
    round_trip(&mut tls13);
    round_trip(&mut mutual);
    for connection in [bystander, tls13, tls12, mutual] {
        connection.disconnect().unwrap();
    }
}

#[test]
fn connection_authentication_chckclnt_and_mcauser() {
    let secured = start();
    let listener = &secured.listener;
    let pki = &secured.pki;
    let queue_manager = &listener.fixture.queue_manager;
    UserRegistry::new(queue_manager.directory())
        .add("app", b"passw0rd", false)
        .unwrap();
    // An application's user: granted what it needs, as an administrator would.
    ferrite_test_kit::grant_all_mqi(queue_manager, "app");
    ferrite_test_kit::grant_all_mqi(queue_manager, "mqapp");
    // This test drives the QMGR object's own CHCKCLNT, which applies when it is stricter than
    // the AUTHINFO's: start from an AUTHINFO that checks nothing (the default is MQ's REQDADM).
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    for command in [
        "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(NONE)",
        "REFRESH SECURITY TYPE(CONNAUTH)",
    ] {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    }
    let set_check = |value: &str| {
        let mut attributes = queue_manager.queue_manager_attributes();
        attributes.check_client = value.to_string();
        queue_manager.alter_queue_manager(attributes).unwrap();
    };
    let over_tls = || Some(tls(pki, "TLS_AES_128_GCM_SHA256", None));
    let mut bystander = connect(listener, "DEV.APP.SVRCONN", None, None).unwrap();

    set_check("REQUIRED");
    let mut app = connect(
        listener,
        "TLS.SVRCONN",
        over_tls(),
        Some(("app", "passw0rd")),
    )
    .unwrap();
    assert_eq!(
        round_trip(&mut app),
        "app",
        "the authenticated user is the context"
    );
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    let shown = processor
        .run("DISPLAY CONN(*) USERID WHERE(CHANNEL EQ TLS.SVRCONN)")
        .text();
    assert!(shown.contains("USERID(app)"), "{shown}");
    for (user, password, why) in [
        ("app", "wrong", "wrong password"),
        ("nobody", "passw0rd", "no such user"),
    ] {
        assert_eq!(
            reason(connect(
                listener,
                "TLS.SVRCONN",
                over_tls(),
                Some((user, password))
            )),
            MQRC_NOT_AUTHORIZED
        );
        assert!(log_has(
            listener,
            &format!("user ID '{user}' authentication failed: {why}")
        ));
    }
    assert!(log_has(listener, "AMQ5541E"));
    // No user ID and password at all.
    assert_eq!(
        reason(connect(listener, "DEV.APP.SVRCONN", None, None)),
        MQRC_NOT_AUTHORIZED
    );
    assert!(log_has(listener, "CHCKCLNT(REQUIRED) needs them"));
    // The Rust client never sends a password in clear over plaintext TCP.
    assert_eq!(
        reason(connect(
            listener,
            "DEV.APP.SVRCONN",
            None,
            Some(("app", "passw0rd"))
        )),
        MQRC_PASSWORD_PROTECTION_ERROR
    );
    // No password in any log line.
    assert!(!listener
        .log
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.contains("passw0rd")));

    set_check("OPTIONAL");
    let mut anonymous = connect(listener, "DEV.APP.SVRCONN", None, None).unwrap();
    let asserted = round_trip(&mut anonymous);
    assert_ne!(asserted, "app");
    assert_eq!(
        reason(connect(
            listener,
            "TLS.SVRCONN",
            over_tls(),
            Some(("app", "bad"))
        )),
        MQRC_NOT_AUTHORIZED
    );
    // MCAUSER: the channel's user for connections that did not authenticate.
    let mut definition = queue_manager.channel("TLS.SVRCONN").unwrap();
    definition.mca_user = "mqapp".into();
    queue_manager
        .define_object(ObjectDefinition::Channel(definition), true)
        .unwrap();
    let mut mapped = connect(listener, "TLS.SVRCONN", over_tls(), None).unwrap();
    assert_eq!(round_trip(&mut mapped), "mqapp");
    let mut authenticated = connect(
        listener,
        "TLS.SVRCONN",
        over_tls(),
        Some(("app", "passw0rd")),
    )
    .unwrap();
    assert_eq!(round_trip(&mut authenticated), "app");

    set_check("NONE");
    let mut unchecked = connect(
        listener,
        "TLS.SVRCONN",
        over_tls(),
        Some(("app", "not checked")),
    )
    .unwrap();
    assert_eq!(round_trip(&mut unchecked), "mqapp");

    // The connections made before the refusals still work.
    assert_eq!(round_trip(&mut app), "app");
    round_trip(&mut bystander);
    for connection in [app, bystander, anonymous, mapped, authenticated, unchecked] {
        connection.disconnect().unwrap();
    }
}

/// Connection authentication configured as in MQ: the AUTHINFO the queue manager's CONNAUTH
/// names, put in force by REFRESH SECURITY TYPE(CONNAUTH); its ADOPTCTX decides the
/// connection's user and its FAILDLAY delays the answer to a wrong password.
#[test]
fn connection_authentication_from_the_connauth_authinfo() {
    let secured = start();
    let listener = &secured.listener;
    let pki = &secured.pki;
    let queue_manager = &listener.fixture.queue_manager;
    ferrite_command::define_default_objects(queue_manager).unwrap();
    UserRegistry::new(queue_manager.directory())
        .add("app", b"passw0rd", false)
        .unwrap();
    // An application's user: granted what it needs, as an administrator would.
    ferrite_test_kit::grant_all_mqi(queue_manager, "app");
    ferrite_test_kit::grant_all_mqi(queue_manager, "mqapp");
    let mut definition = queue_manager.channel("TLS.SVRCONN").unwrap();
    definition.mca_user = "mqapp".into();
    queue_manager
        .define_object(ObjectDefinition::Channel(definition), true)
        .unwrap();
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    let run = |command: &str| {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    };
    let over_tls = || Some(tls(pki, "TLS_AES_128_GCM_SHA256", None));

    run("ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(REQUIRED) ADOPTCTX(NO) FAILDLAY(1)");
    // Not in force before the refresh.
    let mut before = connect(listener, "DEV.APP.SVRCONN", None, None).unwrap();
    round_trip(&mut before);
    run("REFRESH SECURITY TYPE(CONNAUTH)");
    assert_eq!(
        reason(connect(listener, "DEV.APP.SVRCONN", None, None)),
        MQRC_NOT_AUTHORIZED
    );
    assert!(log_has(
        listener,
        "CHCKCLNT(REQUIRED) of AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS)"
    ));
    // ADOPTCTX(NO): authenticated, running as the channel's MCAUSER.
    let mut not_adopted = connect(
        listener,
        "TLS.SVRCONN",
        over_tls(),
        Some(("app", "passw0rd")),
    )
    .unwrap();
    assert_eq!(round_trip(&mut not_adopted), "mqapp");
    // FAILDLAY(1): a wrong password is answered after a second.
    let started = std::time::Instant::now();
    assert_eq!(
        reason(connect(
            listener,
            "TLS.SVRCONN",
            over_tls(),
            Some(("app", "wrong"))
        )),
        MQRC_NOT_AUTHORIZED
    );
    assert!(started.elapsed() >= Duration::from_secs(1));

    run("ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) ADOPTCTX(YES)");
    run("REFRESH SECURITY TYPE(CONNAUTH)");
    let mut adopted = connect(
        listener,
        "TLS.SVRCONN",
        over_tls(),
        Some(("app", "passw0rd")),
    )
    .unwrap();
    assert_eq!(round_trip(&mut adopted), "app");
    // Back to no checking: a blank CONNAUTH.
    run("ALTER QMGR CONNAUTH(' ')");
    run("REFRESH SECURITY TYPE(CONNAUTH)");
    let mut open = connect(listener, "DEV.APP.SVRCONN", None, None).unwrap();
    round_trip(&mut open);
    for connection in [before, not_adopted, adopted, open] {
        connection.disconnect().unwrap();
    }
}

/// Raw sockets that break the TLS handshake: each is closed, logged, and costs nobody else.
#[test]
fn hostile_handshakes() {
    let secured = start();
    let listener = &secured.listener;
    let pki = &secured.pki;
    let mut bystander = connect(
        listener,
        "TLS.SVRCONN",
        Some(tls(pki, "TLS_AES_128_GCM_SHA256", None)),
        None,
    )
    .unwrap();
    let attacks: Vec<Vec<u8>> = vec![
        // A TLS record header claiming a handshake, then garbage.
        [&[0x16, 0x03, 0x01, 0x00, 0x40][..], &[0xAB; 64]].concat(),
        // A record longer than TLS allows.
        vec![0x16, 0x03, 0x03, 0xFF, 0xFF, 0x01, 0x02],
        // One byte, then nothing: the handshake times out or the close ends it.
        vec![0x16],
        // A ClientHello cut short.
        vec![
            0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03,
        ],
    ];
    for attack in &attacks {
        let mut socket = TcpStream::connect(listener.address()).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        socket.write_all(attack).unwrap();
        let _ = socket.shutdown(std::net::Shutdown::Write);
        let mut answer = Vec::new();
        let _ = socket.read_to_end(&mut answer);
        // Whatever the server answered (a TLS alert at most), it was not a TSH flow.
        assert!(!answer.starts_with(b"TSH"), "{attack:02x?}");
    }
    assert!(log_has(listener, "TLS handshake failed"));
    // A TLS session that then sends bytes that are not segments.
    let config = tls(pki, "TLS_AES_128_GCM_SHA256", None);
    let socket = TcpStream::connect(listener.address()).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut session = config.connect(socket, "127.0.0.1").unwrap();
    session.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    let mut answer = [0u8; 16];
    assert!(matches!(session.read(&mut answer), Ok(0) | Err(_)));
    // The bystander's conversation is untouched.
    round_trip(&mut bystander);
    bystander.disconnect().unwrap();
}
