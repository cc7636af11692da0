//! The administrative REST API over HTTP: authentication, roles, the CSRF rule, the queue
//! manager, queue, channel, subscription and topic resources, the MQSC action, and MQ's JSON
//! errors.

mod support;

use std::sync::Arc;

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

#[test]
fn channel_status_is_shown_when_asked_for() {
    use ferrite_server::channel_initiator::{ChannelInitiator, ChannelInitiatorConfig};
    let web = start(&[]);
    let status_of = |name: &str| {
        let answer = web
            .call(
                "GET",
                &format!("/ibmmq/rest/v3/admin/qmgr/QM1/channel?name={name}&status=*"),
            )
            .user("rita")
            .send();
        assert_eq!(answer.status, 200, "{}", answer.text());
        answer.json()["channel"][0]["status"].clone()
    };
    // Without a channel initiator the status cannot be known: the command's error.
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/channel?name=SYSTEM.DEF.SVRCONN&status=*",
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 400, "{}", answer.text());
    assert_eq!(answer.error()["reasonCode"], 3008);

    let chinit = ChannelInitiator::start(
        web.queue_manager.clone(),
        ChannelInitiatorConfig {
            address: [127, 0, 0, 1].into(),
            port: 0,
            ..ChannelInitiatorConfig::default()
        },
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    web.processor.set_channel_initiator(Some(chinit.clone()));
    // No instance of the channel runs: an empty status list.
    assert_eq!(status_of("SYSTEM.DEF.SVRCONN"), serde_json::json!([]));
    // A sender whose partner is not there: one instance, binding or retrying.
    for command in [
        "DEFINE QLOCAL(TO.NOWHERE.XMITQ) USAGE(XMITQ)",
        "DEFINE CHANNEL(TO.NOWHERE) CHLTYPE(SDR) CONNAME('127.0.0.1(1)') XMITQ(TO.NOWHERE.XMITQ)",
        "START CHANNEL(TO.NOWHERE)",
    ] {
        let response = web.processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    }
    let status = status_of("TO.NOWHERE");
    assert_eq!(status.as_array().unwrap().len(), 1, "{status}");
    let instance = &status[0];
    assert!(
        ["starting", "binding", "retrying", "stopped"]
            .contains(&instance["state"].as_str().unwrap()),
        "{instance}"
    );
    assert_eq!(instance["transmissionQueue"], "TO.NOWHERE.XMITQ");
    assert_eq!(instance["messages"], 0);
    assert_eq!(instance["inDoubt"], false);
    // Only what is asked for.
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/channel/TO.NOWHERE?status=status.transmissionQueue",
        )
        .user("rita")
        .send();
    let instance = &answer.json()["channel"][0]["status"][0];
    assert_eq!(instance.as_object().unwrap().len(), 1, "{instance}");
    let response = web.processor.run("STOP CHANNEL(TO.NOWHERE)");
    assert!(response.success, "{}", response.text());
    chinit.stop();
}

#[test]
fn subscriptions_and_topics_are_listed_with_their_attributes() {
    let web = start(&["APP.PRICES"]);
    let processor = ferrite_command::CommandProcessor::new(web.queue_manager.clone());
    for command in [
        "DEFINE TOPIC(APP.PRICES) TOPICSTR('prices/fruit') DESCR('fruit prices') DEFPSIST(YES)",
        "DEFINE SUB(APP.PRICES.SUB) TOPICOBJ(APP.PRICES) TOPICSTR('apples') DEST(APP.PRICES) USERDATA('mine')",
    ] {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    }
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/subscription?name=APP.*&attributes=*",
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    let subscription = &answer.json()["subscription"][0];
    assert_eq!(subscription["name"], "APP.PRICES.SUB");
    assert_eq!(subscription["topicString"], "prices/fruit/apples");
    assert_eq!(subscription["id"].as_str().unwrap().len(), 48);
    assert_eq!(subscription["destination"]["name"], "APP.PRICES");
    assert_eq!(subscription["destination"]["managed"], false);
    assert_eq!(subscription["general"]["durable"], true);
    assert_eq!(subscription["general"]["type"], "admin");
    assert_eq!(subscription["user"]["data"], "mine");
    // By id; without attributes= only the identifying fields.
    let id = subscription["id"].as_str().unwrap().to_string();
    let answer = web
        .call(
            "GET",
            &format!("/ibmmq/rest/v3/admin/qmgr/QM1/subscription?id={id}"),
        )
        .user("rita")
        .send();
    let listed = answer.json()["subscription"].as_array().unwrap().clone();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].get("destination").is_none());
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/subscription/NO.SUCH.SUB",
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 404, "{}", answer.text());

    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/admin/qmgr/QM1/topic/APP.PRICES?attributes=general,applicationDefaults",
        )
        .user("rita")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    let topic = &answer.json()["topic"][0];
    assert_eq!(topic["topicString"], "prices/fruit");
    assert_eq!(topic["type"], "local");
    assert_eq!(topic["general"]["description"], "fruit prices");
    assert_eq!(topic["applicationDefaults"]["persistence"], "persistent");
    assert_eq!(topic["applicationDefaults"]["priority"], "asParent");
    assert_eq!(topic["general"]["inhibitPublish"], "asParent");
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr/QM1/topic?name=NOPE*")
        .user("rita")
        .send();
    assert_eq!(answer.json()["topic"], serde_json::json!([]));
    // A user without an administrative role sees nothing.
    let answer = web
        .call("GET", "/ibmmq/rest/v3/admin/qmgr/QM1/topic")
        .user("nora")
        .send();
    assert_eq!(answer.status, 403, "{}", answer.text());
}
