//! The server itself: HTTPS with the queue manager's certificate, plain HTTP refused off
//! loopback, the access log and the rate limit.

mod support;

use std::sync::Arc;
use std::time::Duration;

use ferrite_web::limits::RateLimit;
use ferrite_web::{WebOptions, WebServer};
use rustls_pki_types::pem::PemObject;
use support::{start, start_with};

/// One HTTPS GET with basic credentials over rustls trusting `certificate`: the response's
/// status line and body.
fn https_get(address: &str, certificate: &std::path::Path, path: &str) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls_pki_types::CertificateDer::from_pem_file(certificate).unwrap())
        .unwrap();
    let client = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let name = rustls_pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let connection = rustls::ClientConnection::new(Arc::new(client), name).unwrap();
    let socket = std::net::TcpStream::connect(address)?;
    let mut stream = rustls::StreamOwned::new(connection, socket);
    // alice:s3cret-Pass
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Basic YWxpY2U6czNjcmV0LVBhc3M=\r\nConnection: close\r\n\r\n"
    )?;
    let mut response = String::new();
    match stream.read_to_string(&mut response) {
        Ok(_) => Ok(response),
        // The server may close without close_notify after its response.
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof && !response.is_empty() => {
            Ok(response)
        }
        Err(error) => Err(error),
    }
}

#[test]
fn https_is_served_with_the_queue_managers_certificate() {
    let mut certificate = std::path::PathBuf::new();
    let web = start_with(&[], |directory| {
        let repository = directory.join("tls");
        certificate = ferrite_server::tls::create_self_signed(&repository, "QM1").unwrap();
        let options = WebOptions {
            tls: Some(ferrite_server::tls::server_config(&repository).unwrap()),
            ..WebOptions::http("127.0.0.1:0".parse().unwrap())
        };
        (options, ureq::Agent::new())
    });
    let address = web
        .base
        .strip_prefix("https://")
        .expect("an https URL")
        .to_string();
    let response = https_get(&address, &certificate, "/ibmmq/rest/v3/admin/qmgr").unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.contains(r#"{"qmgr":[{"name":"QM1","state":"running"}]}"#),
        "{response}"
    );
    // Plain HTTP to the HTTPS port gets no REST answer.
    let plain = ureq::get(&format!("http://{address}/ibmmq/rest/v3/admin/qmgr")).call();
    assert!(matches!(plain, Err(ureq::Error::Transport(_))), "{plain:?}");
}

#[test]
fn plain_http_is_refused_on_an_address_other_than_loopback() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager::queue_manager(&[]);
    let processor = Arc::new(ferrite_command::CommandProcessor::new(
        queue_manager.clone(),
    ));
    let refused = WebServer::start(processor, WebOptions::http("0.0.0.0:0".parse().unwrap()));
    let error = refused
        .err()
        .expect("plain HTTP on every interface was refused");
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    assert!(error.to_string().contains("HTTPS"), "{error}");
    queue_manager.shutdown().unwrap();
}

#[test]
fn every_request_is_in_the_access_log() {
    let web = start(&["APP.LOG"]);
    web.call("GET", "/ibmmq/rest/v3/admin/qmgr/QM1/queue?name=APP.*")
        .user("alice")
        .send();
    web.call("GET", "/ibmmq/rest/v3/admin/qmgr").send();
    let log =
        std::fs::read_to_string(web.queue_manager.directory().join("web-access.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(
        lines[0].contains(
            " 127.0.0.1 alice \"GET /ibmmq/rest/v3/admin/qmgr/QM1/queue?name=APP.*\" 200 "
        ),
        "{log}"
    );
    assert!(
        lines[1].contains(" 127.0.0.1 - \"GET /ibmmq/rest/v3/admin/qmgr\" 401 "),
        "{log}"
    );
}

#[test]
fn a_client_past_its_rate_limit_is_answered_429_before_authentication() {
    const ALLOWED: u32 = 4;
    let web = start_with(&[], |_| {
        let options = WebOptions {
            rate_limit: RateLimit {
                requests: ALLOWED,
                period: Duration::from_secs(3600),
            },
            ..WebOptions::http("127.0.0.1:0".parse().unwrap())
        };
        (options, ureq::Agent::new())
    });
    for _ in 0..ALLOWED {
        let answer = web
            .call("GET", "/ibmmq/rest/v3/admin/qmgr")
            .credentials("alice", "guess")
            .send();
        assert_eq!(answer.status, 401);
    }
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr")
        .user("alice")
        .send();
    assert_eq!(answer.status, 429);
    assert_eq!(answer.error()["msgId"], "FRWB0001E");
    // The refused request is in the access log too, without a user (it was not authenticated).
    let log =
        std::fs::read_to_string(web.queue_manager.directory().join("web-access.log")).unwrap();
    let last = log.lines().last().unwrap();
    assert!(
        last.contains(" 127.0.0.1 - \"GET /ibmmq/rest/v3/admin/qmgr\" 429 "),
        "{log}"
    );
}

#[test]
fn a_path_the_http_layer_cannot_read_is_answered_with_an_mq_error() {
    let web = start(&["APP.IN"]);
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP%FF/message",
        )
        .user("uma")
        .send();
    assert_eq!(answer.status, 400, "{}", answer.text());
    let error = answer.error();
    assert_eq!(error["msgId"], "MQWB0007E");
}

#[test]
fn requests_to_a_stopping_queue_manager_are_answered_503_with_mq_reasons() {
    let web = start(&["APP.IN"]);
    web.queue_manager.shutdown().unwrap();
    let answer = web
        .call(
            "POST",
            "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.IN/message",
        )
        .user("uma")
        .body("text/plain", b"late");
    assert_eq!(answer.status, 503, "{}", answer.text());
    let reason = answer.error()["reasonCode"].as_i64().unwrap();
    assert!([2059, 2161, 2162].contains(&reason), "{reason}");
}
