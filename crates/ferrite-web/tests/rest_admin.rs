//! The administrative REST API over HTTP: authentication, roles, the CSRF rule, the queue
//! manager, queue and channel resources, the MQSC action, and MQ's JSON errors.

mod support;

use serde_json::json;
use support::start;

const QUEUES: &str = "/ibmmq/rest/v3/admin/qmgr/QM1/queue";
const MQSC: &str = "/ibmmq/rest/v3/admin/action/qmgr/QM1/mqsc";

#[test]
fn authentication_roles_and_csrf_are_enforced_with_mq_errors() {
    let web = start(&["APP.ONE"]);
    // No credentials, a wrong password, an unknown user: 401 with a Basic challenge.
    for answer in [
        web.call("GET", "/ibmmq/rest/v3/admin/qmgr").send(),
        web.call("GET", "/ibmmq/rest/v3/admin/qmgr")
            .credentials("alice", "wrong")
            .send(),
        web.call("GET", "/ibmmq/rest/v3/admin/qmgr")
            .credentials("mallory", "x")
            .send(),
    ] {
        assert_eq!(answer.status, 401);
        assert!(answer
            .header("www-authenticate")
            .unwrap()
            .starts_with("Basic"));
        let error = answer.error();
        assert_eq!(error["msgId"], "MQWB0103E");
        assert_eq!(error["reasonCode"], 2035);
    }
    // A page's script gets the 401 without the challenge (no browser password dialog).
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr")
        .credentials("alice", "wrong")
        .header("X-Requested-With", "ferrite-console")
        .send();
    assert_eq!(answer.status, 401);
    assert!(answer.header("www-authenticate").is_none());
    // A user without a role: 403.
    let answer = web.call("GET", QUEUES).user("nora").send();
    assert_eq!(answer.status, 403, "{}", answer.text());
    assert_eq!(answer.error()["reasonCode"], 2035);
    // A change without the CSRF header: 403 MQWB0100E, and nothing created.
    let answer = web
        .call("POST", QUEUES)
        .user("alice")
        .without_csrf()
        .json(json!({"name": "APP.CSRF"}));
    assert_eq!(answer.status, 403);
    assert_eq!(answer.error()["msgId"], "MQWB0100E");
    assert!(web.queue_manager.queue("APP.CSRF").is_none());
    // An unknown URI and a method a resource does not have.
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/nothing")
        .user("alice")
        .send();
    assert_eq!(answer.status, 404);
    assert_eq!(answer.error()["msgId"], "MQWB0116E");
    let answer = web.call("PUT", QUEUES).user("alice").json(json!({}));
    assert_eq!(answer.status, 405);
    assert_eq!(answer.error()["type"], "rest");
}

#[test]
fn the_queue_manager_resource_names_this_queue_manager_only() {
    let web = start(&[]);
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr")
        .user("rita")
        .send();
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.json(),
        json!({"qmgr": [{"name": "QM1", "state": "running"}]})
    );
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr/QM1?status=*")
        .user("alice")
        .send();
    assert_eq!(answer.json()["qmgr"][0]["status"]["state"], "running");
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr/QM2")
        .user("alice")
        .send();
    assert_eq!(answer.status, 404);
    let error = answer.error();
    assert_eq!(error["msgId"], "MQWB0009E");
    assert_eq!(error["reasonCode"], 2058);
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr/QM2/queue")
        .user("alice")
        .send();
    assert_eq!(answer.status, 404);
}

#[test]
fn queues_are_created_displayed_altered_and_deleted() {
    let web = start(&["APP.EXISTING"]);
    let answer = web.call("POST", QUEUES).user("alice").json(json!({
        "name": "APP.NEW", "type": "local",
        "storage": {"maximumDepth": 10},
        "general": {"description": "made over REST", "inhibitPut": false}
    }));
    assert_eq!(answer.status, 201, "{}", answer.text());
    assert_eq!(
        answer.header("location").unwrap(),
        format!("{QUEUES}/APP.NEW")
    );
    let queue = web
        .queue_manager
        .queue("APP.NEW")
        .expect("the queue exists");
    assert_eq!(queue.definition().max_depth, 10);

    let answer = web
        .call(
            "GET",
            &format!("{QUEUES}/APP.NEW?attributes=storage.maximumDepth,general.description"),
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(
        answer.json(),
        json!({"queue": [{"name": "APP.NEW", "type": "local",
            "general": {"description": "made over REST"},
            "storage": {"maximumDepth": 10}}]})
    );

    let answer = web
        .call("PATCH", &format!("{QUEUES}/APP.NEW"))
        .user("alice")
        .json(json!({"storage": {"maximumDepth": 20}, "general": {"inhibitGet": true}}));
    assert_eq!(answer.status, 204, "{}", answer.text());
    let definition = web.queue_manager.queue("APP.NEW").unwrap().definition();
    assert_eq!(definition.max_depth, 20);

    // A list with a generic name, its status, and a type filter.
    let answer = web
        .call(
            "GET",
            &format!("{QUEUES}?name=APP.*&status=status.currentDepth&type=local"),
        )
        .user("alice")
        .send();
    let names: Vec<String> = answer.json()["queue"]
        .as_array()
        .unwrap()
        .iter()
        .map(|queue| {
            assert_eq!(queue["status"]["currentDepth"], 0, "{queue}");
            queue["name"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(names, vec!["APP.EXISTING", "APP.NEW"]);
    let answer = web
        .call("GET", &format!("{QUEUES}?name=NONE.*"))
        .user("alice")
        .send();
    assert_eq!(answer.json(), json!({"queue": []}));

    let answer = web
        .call("DELETE", &format!("{QUEUES}/APP.NEW"))
        .user("alice")
        .send();
    assert_eq!(answer.status, 204, "{}", answer.text());
    assert!(web.queue_manager.queue("APP.NEW").is_none());
    let answer = web
        .call("GET", &format!("{QUEUES}/APP.NEW"))
        .user("alice")
        .send();
    assert_eq!(answer.status, 404);
    let error = answer.error();
    assert_eq!(error["msgId"], "MQWB0009E");
    assert_eq!(error["reasonCode"], 2085);
    let answer = web
        .call("DELETE", &format!("{QUEUES}/APP.NEW"))
        .user("alice")
        .send();
    assert_eq!(answer.status, 404);
}

#[test]
fn bad_queue_requests_are_refused_and_change_nothing() {
    let web = start(&["APP.EXISTING"]);
    let cases = [
        (json!({"name": "APP.EXISTING"}), 400, 4001),
        (
            json!({"name": "APP.BAD", "storage": {"maximumDepthh": 1}}),
            400,
            3097,
        ),
        (
            json!({"name": "APP.BAD", "storage": {"maximumDepth": "deep"}}),
            400,
            3097,
        ),
        (json!({"name": "APP.BAD", "type": "sideways"}), 400, 3097),
        (json!({"type": "local"}), 400, 0),
    ];
    for (body, status, reason) in cases {
        let answer = web.call("POST", QUEUES).user("alice").json(body.clone());
        assert_eq!(answer.status, status, "{body}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], reason, "{body}");
    }
    let answer = web
        .call("POST", QUEUES)
        .user("alice")
        .body("application/json", b"{not json");
    assert_eq!(answer.status, 400);
    assert!(web.queue_manager.queue("APP.BAD").is_none());
}

#[test]
fn roles_decide_what_a_user_may_change_and_as_whom_commands_run() {
    let web = start(&["APP.ONE"]);
    // MQWebAdminRO reads, and may not change.
    assert_eq!(web.call("GET", QUEUES).user("rita").send().status, 200);
    let answer = web
        .call("POST", QUEUES)
        .user("rita")
        .json(json!({"name": "APP.RO"}));
    assert_eq!(answer.status, 403);
    assert_eq!(answer.error()["msgId"], "MQWB0103E");
    let answer = web
        .call("DELETE", &format!("{QUEUES}/APP.ONE"))
        .user("rita")
        .send();
    assert_eq!(answer.status, 403);
    assert!(web.queue_manager.queue("APP.ONE").is_some());
    // MQWebUser runs commands as itself: uma has MQI authority but not dsp or crt.
    let answer = web
        .call("GET", &format!("{QUEUES}/APP.ONE"))
        .user("uma")
        .send();
    assert_eq!(answer.status, 403, "{}", answer.text());
    assert_eq!(answer.error()["reasonCode"], 2035);
    let answer = web
        .call("POST", QUEUES)
        .user("uma")
        .json(json!({"name": "APP.UMA"}));
    assert_eq!(answer.status, 403);
    assert!(web.queue_manager.queue("APP.UMA").is_none());
    // Given dsp (DISPLAY QUEUE checks it on the queue manager), the same request succeeds.
    let answer = web
        .call("POST", MQSC)
        .user("alice")
        .json(json!({"type": "runCommand", "parameters": {"command": "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('uma') AUTHADD(DSP)"}}));
    assert_eq!(
        answer.json()["overallCompletionCode"],
        0,
        "{}",
        answer.text()
    );
    let answer = web
        .call("GET", &format!("{QUEUES}/APP.ONE"))
        .user("uma")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
}

#[test]
fn channels_are_listed() {
    let web = start(&[]);
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/channel?name=SYSTEM.DEF.SVRCONN",
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    let channel = &answer.json()["channel"][0];
    assert_eq!(channel["name"], "SYSTEM.DEF.SVRCONN");
    assert_eq!(channel["type"], "serverConnection");
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/channel/NO.SUCH.CHANNEL",
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 404);
    assert_eq!(answer.error()["reasonCode"], 2085);
}

#[test]
fn the_mqsc_action_runs_commands_as_text_and_as_json() {
    let web = start(&["APP.ONE", "APP.TWO"]);
    let answer = web.call("POST", MQSC).user("alice").json(
        json!({"type": "runCommand", "parameters": {"command": "DISPLAY QLOCAL(APP.*) CURDEPTH"}}),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    let json = answer.json();
    assert_eq!(json["overallCompletionCode"], 0);
    assert_eq!(json["overallReasonCode"], 0);
    let text: Vec<String> = json["commandResponse"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|item| item["text"].as_array().unwrap().clone())
        .map(|line| line.as_str().unwrap().to_string())
        .collect();
    assert!(
        text.iter().any(|line| line.contains("QUEUE(APP.ONE)")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|line| line.contains("QUEUE(APP.TWO)")),
        "{text:?}"
    );

    // A failing command: 200 with MQRCCF_COMMAND_FAILED, as mqweb answers.
    let answer = web.call("POST", MQSC).user("alice").json(
        json!({"type": "runCommand", "parameters": {"command": "DELETE QLOCAL(NO.SUCH.QUEUE)"}}),
    );
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json()["overallCompletionCode"], 2);
    assert_eq!(answer.json()["overallReasonCode"], 3008);

    // runCommandJSON: define, then display as parameters.
    let answer = web.call("POST", MQSC).user("alice").json(json!({
        "type": "runCommandJSON", "command": "define", "qualifier": "qlocal",
        "name": "APP.JSON", "parameters": {"maxdepth": 7, "descr": "by json"}
    }));
    assert_eq!(
        answer.json()["overallCompletionCode"],
        0,
        "{}",
        answer.text()
    );
    let answer = web.call("POST", MQSC).user("rita").json(json!({
        "type": "runCommandJSON", "command": "display", "qualifier": "qlocal",
        "name": "APP.JSON", "responseParameters": ["maxdepth", "descr"]
    }));
    let json = answer.json();
    let parameters = &json["commandResponse"][0]["parameters"];
    assert_eq!(parameters["queue"], "APP.JSON", "{json}");
    assert_eq!(parameters["maxdepth"], "7");

    // MQWebAdminRO may display only; a body that is not an action is refused.
    let answer = web
        .call("POST", MQSC)
        .user("rita")
        .json(json!({"type": "runCommand", "parameters": {"command": "DEFINE QLOCAL(APP.RO)"}}));
    assert_eq!(answer.status, 403);
    assert!(web.queue_manager.queue("APP.RO").is_none());
    let answer = web
        .call("POST", MQSC)
        .user("alice")
        .json(json!({"type": "runSomething"}));
    assert_eq!(answer.status, 400);
}
