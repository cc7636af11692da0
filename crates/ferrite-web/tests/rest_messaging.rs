//! The messaging REST API over HTTP: put, destructive get and browse with MQ's headers,
//! selectors and status codes, publication on a topic string, and its errors.

mod support;

use support::start;

const MESSAGES: &str = "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.IN/message";

#[test]
fn a_text_message_is_put_browsed_and_got_with_its_descriptor() {
    let web = start(&["APP.IN"]);
    let correlation = "0102030405060708090a0b0c0d0e0f101112131415161718";
    let answer = web
        .call("POST", MESSAGES)
        .user("uma")
        .header("ibm-mq-md-persistence", "persistent")
        .header("ibm-mq-md-correlationId", correlation)
        .header("ibm-mq-md-replyTo", "APP.REPLY@QM1")
        .header("ibm-mq-md-expiry", "600000")
        .body("text/plain;charset=utf-8", "héllo".as_bytes());
    assert_eq!(answer.status, 201, "{}", answer.text());
    let message_id = answer.header("ibm-mq-md-messageId").unwrap().to_string();
    assert_eq!(message_id.len(), 48);
    assert_eq!(
        answer.header("ibm-mq-md-correlationId").unwrap(),
        correlation
    );
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        1
    );

    // Browse leaves it; its descriptor comes back in headers.
    let answer = web.call("GET", MESSAGES).user("uma").send();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.text(), "héllo");
    assert_eq!(
        answer.header("content-type").unwrap(),
        "text/plain;charset=utf-8"
    );
    assert_eq!(answer.header("ibm-mq-md-messageId").unwrap(), message_id);
    assert_eq!(
        answer.header("ibm-mq-md-persistence").unwrap(),
        "persistent"
    );
    assert_eq!(answer.header("ibm-mq-md-replyTo").unwrap(), "APP.REPLY@QM1");
    let expiry: u64 = answer.header("ibm-mq-md-expiry").unwrap().parse().unwrap();
    assert!(expiry > 0 && expiry <= 600_000, "{expiry}");
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        1
    );

    // A selector that matches nothing: 204; the right one gets it; then the queue is empty.
    let other = "ff".repeat(24);
    let answer = web
        .call("DELETE", &format!("{MESSAGES}?correlationId={other}"))
        .user("uma")
        .send();
    assert_eq!(answer.status, 204);
    let answer = web
        .call(
            "DELETE",
            &format!("{MESSAGES}?messageId={message_id}&correlationId={correlation}"),
        )
        .user("uma")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.text(), "héllo");
    let answer = web
        .call("DELETE", &format!("{MESSAGES}?wait=100"))
        .user("uma")
        .send();
    assert_eq!(answer.status, 204);
    assert!(answer.body.is_empty());
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        0
    );
}

const MESSAGE_LIST: &str = "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.IN/messagelist";

#[test]
fn the_message_list_summarises_each_message_in_queue_order_without_taking_any() {
    let web = start(&["APP.IN"]);
    let empty = web.call("GET", MESSAGE_LIST).user("uma").send();
    assert_eq!(empty.status, 200, "{}", empty.text());
    assert_eq!(empty.json(), serde_json::json!({"messages": []}));

    let correlation = "0a".repeat(24);
    let long = "x".repeat(ferrite_web::messaging::PREVIEW_BYTES_MAX + 100);
    let bodies: [(&str, &[u8]); 3] = [
        ("text/plain", b"first"),
        ("application/octet-stream", &[0x00, 0x01, 0xfe]),
        ("text/plain", long.as_bytes()),
    ];
    let mut message_ids = Vec::new();
    for (index, (content_type, body)) in bodies.iter().enumerate() {
        let mut call = web.call("POST", MESSAGES).user("uma");
        if index == 1 {
            call = call
                .header("ibm-mq-md-persistence", "persistent")
                .header("ibm-mq-md-correlationId", &correlation);
        }
        let answer = call.body(content_type, body);
        assert_eq!(answer.status, 201, "{}", answer.text());
        message_ids.push(answer.header("ibm-mq-md-messageId").unwrap().to_string());
    }

    let answer = web.call("GET", MESSAGE_LIST).user("uma").send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    let list = answer.json();
    let messages = list["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{list}");
    for (message, message_id) in messages.iter().zip(&message_ids) {
        assert_eq!(&message["messageId"], message_id);
        let put = message["putDateTime"].as_str().unwrap();
        assert!(
            put.len() == 24 && put.ends_with('Z') && put.contains('T'),
            "{put}"
        );
        assert!(message["priority"].is_i64());
    }
    assert_eq!(messages[0]["format"], "MQSTR");
    assert_eq!(messages[0]["dataLength"], 5);
    assert_eq!(messages[0]["dataPreview"], "first");
    assert_eq!(messages[0]["persistence"], "nonPersistent");
    assert_eq!(messages[1]["format"], "");
    assert_eq!(messages[1]["dataPreview"], "0001fe");
    assert_eq!(messages[1]["persistence"], "persistent");
    assert_eq!(messages[1]["correlationId"], correlation);
    assert_eq!(messages[2]["dataLength"], long.len());
    assert_eq!(
        messages[2]["dataPreview"].as_str().unwrap().len(),
        ferrite_web::messaging::PREVIEW_BYTES_MAX
    );
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        3
    );

    // limit, messageId and correlationId select, as on the message resource.
    let answer = web
        .call("GET", &format!("{MESSAGE_LIST}?limit=2"))
        .user("uma")
        .send();
    assert_eq!(answer.json()["messages"].as_array().unwrap().len(), 2);
    for selector in [
        format!("messageId={}", message_ids[1]),
        format!("correlationId={correlation}"),
    ] {
        let answer = web
            .call("GET", &format!("{MESSAGE_LIST}?{selector}"))
            .user("uma")
            .send();
        let messages = answer.json()["messages"].as_array().unwrap().clone();
        assert_eq!(messages.len(), 1, "{selector}");
        assert_eq!(messages[0]["messageId"], message_ids[1].as_str());
    }
    // Opening one message from the list: the message resource browses it by its id.
    let answer = web
        .call("GET", &format!("{MESSAGES}?messageId={}", message_ids[2]))
        .user("uma")
        .send();
    assert_eq!(answer.status, 200);
    assert_eq!(answer.text(), long);

    // A get-inhibited queue lists nothing, as on IBM MQ.
    let response = web.processor.run("ALTER QLOCAL(APP.IN) GET(DISABLED)");
    assert!(response.success, "{}", response.text());
    let answer = web.call("GET", MESSAGE_LIST).user("uma").send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.json()["messages"], serde_json::json!([]));

    // Errors: MQ's JSON error with the reason.
    for (query, reason) in [
        ("limit=0", 0),
        ("limit=many", 0),
        ("wait=10", 0),
        ("messageId=12", 2206),
        ("correlationId=zz", 2207),
    ] {
        let answer = web
            .call("GET", &format!("{MESSAGE_LIST}?{query}"))
            .user("uma")
            .send();
        assert_eq!(answer.status, 400, "{query}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], reason, "{query}");
    }
    let answer = web
        .call(
            "GET",
            "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/NO.SUCH/messagelist",
        )
        .user("uma")
        .send();
    assert_eq!(answer.status, 404);
    assert_eq!(answer.error()["reasonCode"], 2085);
    let answer = web.call("GET", MESSAGE_LIST).user("alice").send();
    assert_eq!(answer.status, 403);
    assert_eq!(answer.error()["reasonCode"], 2035);
    let answer = web
        .call("POST", MESSAGE_LIST)
        .user("uma")
        .body("text/plain", b"x");
    assert_eq!(answer.status, 405);
    assert_eq!(answer.error()["msgId"], "MQWB0117E");
}

#[test]
fn binary_messages_keep_their_bytes_and_a_waiting_get_receives_a_later_put() {
    let web = start(&["APP.IN"]);
    let bytes: Vec<u8> = (0..=255).collect();
    let answer = web
        .call("POST", MESSAGES)
        .user("both")
        .header("ibm-mq-md-persistence", "nonPersistent")
        .body("application/octet-stream", &bytes);
    assert_eq!(answer.status, 201);
    let answer = web.call("DELETE", MESSAGES).user("both").send();
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("content-type").unwrap(),
        "application/octet-stream"
    );
    assert_eq!(
        answer.header("ibm-mq-md-persistence").unwrap(),
        "nonPersistent"
    );
    assert_eq!(answer.header("ibm-mq-md-expiry").unwrap(), "unlimited");
    assert_eq!(answer.body, bytes);

    std::thread::scope(|scope| {
        let getter = scope.spawn(|| {
            web.call("DELETE", &format!("{MESSAGES}?wait=60000"))
                .user("uma")
                .send()
        });
        // The put comes while the get waits (or before it starts: both must deliver it).
        std::thread::sleep(std::time::Duration::from_millis(200));
        let put = web
            .call("POST", MESSAGES)
            .user("uma")
            .body("text/plain", b"later");
        assert_eq!(put.status, 201);
        let got = getter.join().unwrap();
        assert_eq!(got.status, 200);
        assert_eq!(got.text(), "later");
    });
}

#[test]
fn messaging_errors_have_mq_reasons_and_statuses() {
    let web = start(&["APP.IN"]);
    let unknown = "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/NO.SUCH.QUEUE/message";
    for method in ["POST", "DELETE", "GET"] {
        let answer = web
            .call(method, unknown)
            .user("uma")
            .body("text/plain", b"x");
        assert_eq!(answer.status, 404, "{method}: {}", answer.text());
        let error = answer.error();
        assert_eq!(error["reasonCode"], 2085);
        assert_eq!(error["completionCode"], 2);
    }
    // The messaging API needs MQWebUser: an administrator alone is refused.
    let answer = web
        .call("POST", MESSAGES)
        .user("alice")
        .body("text/plain", b"x");
    assert_eq!(answer.status, 403);
    assert_eq!(answer.error()["msgId"], "MQWB0103E");
    // Bad headers, parameters and media types: 400/415, nothing put.
    let cases: [(&str, &str, &str, u16, i32); 4] = [
        (
            "ibm-mq-md-persistence",
            "sometimes",
            "text/plain",
            400,
            2047,
        ),
        ("ibm-mq-md-expiry", "soon", "text/plain", 400, 2013),
        ("ibm-mq-md-correlationId", "abc", "text/plain", 400, 2207),
        ("ibm-mq-md-replyTo", "x", "image/png", 415, 0),
    ];
    for (header, value, content_type, status, reason) in cases {
        let answer = web
            .call("POST", MESSAGES)
            .user("uma")
            .header(header, value)
            .body(content_type, b"x");
        assert_eq!(answer.status, status, "{header}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], reason, "{header}");
    }
    for query in ["wait=soon", "messageId=xyz", "correlationId=12"] {
        let answer = web
            .call("DELETE", &format!("{MESSAGES}?{query}"))
            .user("uma")
            .send();
        assert_eq!(answer.status, 400, "{query}");
    }
    // Without the CSRF header a get is refused too (it changes the queue).
    let answer = web
        .call("DELETE", MESSAGES)
        .user("uma")
        .without_csrf()
        .send();
    assert_eq!(answer.status, 403);
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        0
    );
    // A user with MQWebUser but no authority on the queue: 403 with 2035.
    let answer = web
        .call("POST", MQSC_DELETE_AUTHREC)
        .user("alice")
        .json(serde_json::json!({"type": "runCommand", "parameters": {"command": "DELETE AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('uma')"}}));
    assert_eq!(
        answer.json()["overallCompletionCode"],
        0,
        "{}",
        answer.text()
    );
    let answer = web
        .call("POST", MESSAGES)
        .user("uma")
        .body("text/plain", b"x");
    assert_eq!(answer.status, 403, "{}", answer.text());
    assert_eq!(answer.error()["reasonCode"], 2035);
}

const MQSC_DELETE_AUTHREC: &str = "/ibmmq/rest/v3/admin/action/qmgr/QM1/mqsc";

#[test]
fn waiting_gets_never_hold_up_other_requests() {
    let web = start(&["APP.IN"]);
    let waiters = ferrite_web::WAITING_GETS_MAX + 2;
    std::thread::scope(|scope| {
        let getters: Vec<_> = (0..waiters)
            .map(|_| {
                scope.spawn(|| {
                    web.call("DELETE", &format!("{MESSAGES}?wait=600000"))
                        .user("uma")
                        .send()
                })
            })
            .collect();
        // With every waiting-get thread busy, administration and puts are still answered.
        let answer = web
            .call("GET", "/ibmmq/rest/v3/admin/qmgr")
            .user("alice")
            .send();
        assert_eq!(answer.status, 200);
        for number in 0..waiters {
            let put = web
                .call("POST", MESSAGES)
                .user("uma")
                .body("text/plain", format!("m{number}").as_bytes());
            assert_eq!(put.status, 201);
        }
        for getter in getters {
            assert_eq!(getter.join().unwrap().status, 200);
        }
    });
}

#[test]
fn a_publication_posted_to_a_topic_reaches_its_subscriber() {
    let web = start(&["APP.FEED"]);
    let processor = ferrite_command::CommandProcessor::new(web.queue_manager.clone());
    for command in [
        "DEFINE SUB(FEED.SUB) TOPICSTR('news/sport') DEST(APP.FEED)",
        "SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('uma') AUTHADD(PUB)",
    ] {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    }
    let topic = "/ibmmq/rest/v3/messaging/qmgr/QM1/topic/news/sport/message";
    let answer = web
        .call("POST", topic)
        .user("uma")
        .body("text/plain", b"goal");
    assert_eq!(answer.status, 201, "{}", answer.text());
    assert_eq!(answer.header("ibm-mq-md-messageId").unwrap().len(), 48);
    let answer = web
        .call(
            "DELETE",
            "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.FEED/message",
        )
        .user("uma")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.text(), "goal");
    // Without pub authority: 403 with MQ's reason.
    let answer = web
        .call("POST", topic)
        .user("both")
        .body("text/plain", b"offside");
    assert_eq!(answer.status, 403, "{}", answer.text());
    assert_eq!(answer.error()["reasonCode"], 2035);
    // An administrator without MQWebUser may not publish; a path without /message is unknown.
    let answer = web
        .call("POST", topic)
        .user("alice")
        .body("text/plain", b"x");
    assert_eq!(answer.status, 403, "{}", answer.text());
    let answer = web
        .call("POST", "/ibmmq/rest/v3/messaging/qmgr/QM1/topic/news/sport")
        .user("uma")
        .body("text/plain", b"x");
    assert_eq!(answer.status, 404, "{}", answer.text());
}
