//! `ferrite start --web-port` and `ferrite user add --role`: the queue manager's web server
//! started with it, its URL printed and its port in `web.port`, the REST API answering the
//! users given roles, and the server gone when the queue manager stops.

mod support;

use std::path::Path;

use base64::Engine;
use support::{ferrite_with_input, ok, stop_on_drop};

fn authorization(user: &str, password: &str) -> String {
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
    format!("Basic {token}")
}

fn web_port(home: &Path, name: &str) -> u16 {
    let path = home.join("qmgrs").join(name).join("web.port");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn the_web_server_starts_with_the_queue_manager_and_serves_users_with_roles() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(home, &["create", "WQM"], "");
    let added = ok(
        home,
        &[
            "user",
            "add",
            "WQM",
            "ops",
            "--role",
            "MQWebAdmin",
            "--role",
            "mqwebuser",
        ],
        "pw-ops\n",
    );
    assert!(added.contains("with roles MQWebAdmin,MQWebUser"), "{added}");
    let refused = ferrite_with_input(
        home,
        &["user", "add", "WQM", "bad", "--role", "Root"],
        "x\n",
    );
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("MQWebAdmin, MQWebAdminRO or MQWebUser")
    );
    assert!(ok(home, &["user", "list", "WQM"], "").contains("ops MQWebAdmin,MQWebUser"));

    let started = ok(
        home,
        &[
            "start",
            "WQM",
            "--background",
            "--port",
            "0",
            "--web-port",
            "0",
        ],
        "",
    );
    let _running = stop_on_drop(home, "WQM");
    let port = web_port(home, "WQM");
    let base = format!("http://127.0.0.1:{port}");
    assert!(
        started.contains(&format!("{base}/ibmmq/rest/v3/admin/qmgr")),
        "{started}"
    );

    let answer = ureq::get(&format!("{base}/ibmmq/rest/v3/admin/qmgr"))
        .set("Authorization", &authorization("ops", "pw-ops"))
        .call()
        .unwrap();
    let body: serde_json::Value = serde_json::from_reader(answer.into_reader()).unwrap();
    assert_eq!(body["qmgr"][0]["name"], "WQM");
    let messages =
        format!("{base}/ibmmq/rest/v3/messaging/qmgr/WQM/queue/SYSTEM.DEFAULT.LOCAL.QUEUE/message");
    let put = || {
        ureq::post(&messages)
            .set("Authorization", &authorization("ops", "pw-ops"))
            .set("ibm-mq-rest-csrf-token", "")
            .set("Content-Type", "text/plain")
            .send_string("over http")
            .map_err(Box::new)
    };
    // Messaging runs as the user: without authority on the queue, 403 with reason 2035.
    match put().map_err(|error| *error) {
        Err(ureq::Error::Status(403, response)) => {
            let body: serde_json::Value = serde_json::from_reader(response.into_reader()).unwrap();
            assert_eq!(body["error"][0]["reasonCode"], 2035);
        }
        other => panic!("a put without authority was not refused: {other:?}"),
    }
    ok(
        home,
        &["mqsc", "WQM"],
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('ops') AUTHADD(CONNECT)\n\
         SET AUTHREC PROFILE('SYSTEM.DEFAULT.LOCAL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('ops') AUTHADD(PUT)\n",
    );
    assert_eq!(put().unwrap().status(), 201);
    // The message is there for the queue manager's other interfaces too.
    let browsed = ok(home, &["browse", "WQM", "SYSTEM.DEFAULT.LOCAL.QUEUE"], "");
    assert!(browsed.contains("over http"), "{browsed}");
    match ureq::get(&format!("{base}/ibmmq/rest/v3/admin/qmgr"))
        .set("Authorization", &authorization("ops", "wrong"))
        .call()
    {
        Err(ureq::Error::Status(status, _)) => assert_eq!(status, 401),
        other => panic!("a wrong password was not refused: {other:?}"),
    }

    ok(home, &["stop", "WQM"], "");
    assert!(!home.join("qmgrs/WQM/web.port").exists());
    assert!(ureq::get(&format!("{base}/ibmmq/rest/v3/admin/qmgr"))
        .call()
        .is_err());
}

#[test]
fn a_queue_manager_whose_web_port_is_taken_runs_without_the_web_server() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let started = ok(
        home,
        &[
            "start",
            "BQM",
            "--background",
            "--port",
            "0",
            "--web-port",
            &port,
        ],
        "",
    );
    let _running = stop_on_drop(home, "BQM");
    assert!(
        started.contains("web server cannot listen on 127.0.0.1:"),
        "{started}"
    );
    assert!(!home.join("qmgrs/BQM/web.port").exists());
    // The queue manager itself serves.
    ok(home, &["mqsc", "BQM"], "DISPLAY QMGR\n");
    ok(home, &["stop", "BQM"], "");
}
