//! The messaging REST API over HTTP: put, destructive get and browse with MQ's headers,
//! selectors and status codes, publication on a topic string, and its errors.

mod support;

use support::start;

const MESSAGES: &str = "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.IN/message";

#[test]
fn a_text_message_is_put_browsed_and_got_with_its_descriptor() {
    let web = start(&["APP.IN"]);
    let correlation = "ID:0102030405060708090a0b0c0d0e0f101112131415161718";
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
    assert_v3_identifier(&message_id);
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
    let other = format!("ID:{}", "ff".repeat(24));
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

/// REST API v3's form of an identifier: `ID:` and 48 hexadecimal digits.
fn assert_v3_identifier(text: &str) {
    let digits = text
        .strip_prefix("ID:")
        .unwrap_or_else(|| panic!("no ID: prefix: {text}"));
    assert_eq!(digits.len(), 48, "{text}");
    assert!(
        digits.bytes().all(|byte| byte.is_ascii_hexdigit()),
        "{text}"
    );
}

const MESSAGE_LIST: &str = "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.IN/messagelist";

#[test]
fn the_message_list_summarises_each_message_in_queue_order_without_taking_any() {
    let web = start(&["APP.IN"]);
    let empty = web.call("GET", MESSAGE_LIST).user("uma").send();
    assert_eq!(empty.status, 200, "{}", empty.text());
    assert_eq!(empty.json(), serde_json::json!({"messages": []}));

    let correlation = format!("ID:{}", "0a".repeat(24));
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
        assert_v3_identifier(message_id);
        assert_eq!(&message["messageId"], message_id);
        assert_v3_identifier(message["correlationId"].as_str().unwrap());
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
        ("correlationId=ID:zz", 2207),
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
    let cases: [(&str, &str, &str, u16, i32); 5] = [
        (
            "ibm-mq-md-persistence",
            "sometimes",
            "text/plain",
            400,
            2047,
        ),
        ("ibm-mq-md-expiry", "soon", "text/plain", 400, 2013),
        ("ibm-mq-md-correlationId", "ID:abc", "text/plain", 400, 2207),
        ("ibm-mq-md-priority", "10", "text/plain", 400, 2050),
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
    for query in ["wait=soon", "messageId=xyz", "correlationId=ID:12"] {
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
    assert_v3_identifier(answer.header("ibm-mq-md-messageId").unwrap());
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

#[test]
fn priority_is_put_from_its_header_and_returned_and_orders_the_queue() {
    let web = start(&["APP.IN"]);
    let response = web
        .processor
        .run("ALTER QLOCAL(APP.IN) MSGDLVSQ(PRIORITY) DEFPRTY(2)");
    assert!(response.success, "{}", response.text());
    for (priority, body) in [(None, "default"), (Some("9"), "urgent"), (Some("0"), "low")] {
        let mut call = web.call("POST", MESSAGES).user("uma");
        if let Some(priority) = priority {
            call = call.header("ibm-mq-md-priority", priority);
        }
        let answer = call.body("text/plain", body.as_bytes());
        assert_eq!(answer.status, 201, "{}", answer.text());
    }
    // The messagelist shows each message's priority in the order a get takes them.
    let list = web.call("GET", MESSAGE_LIST).user("uma").send().json();
    let priorities: Vec<i64> = list["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|message| message["priority"].as_i64().unwrap())
        .collect();
    assert_eq!(priorities, [9, 2, 0], "{list}");
    // Browse and get give the priority in ibm-mq-md-priority.
    let answer = web.call("GET", MESSAGES).user("uma").send();
    assert_eq!(answer.header("ibm-mq-md-priority").unwrap(), "9");
    for (body, priority) in [("urgent", "9"), ("default", "2"), ("low", "0")] {
        let answer = web.call("DELETE", MESSAGES).user("uma").send();
        assert_eq!(answer.status, 200, "{}", answer.text());
        assert_eq!(answer.text(), body);
        assert_eq!(answer.header("ibm-mq-md-priority").unwrap(), priority);
    }
    // Out of 0-9 or not a number: MQRC_PRIORITY_ERROR, nothing put.
    for value in ["10", "-1", "high", "4.5", ""] {
        let answer = web
            .call("POST", MESSAGES)
            .user("uma")
            .header("ibm-mq-md-priority", value)
            .body("text/plain", b"x");
        assert_eq!(answer.status, 400, "{value:?}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], 2050, "{value:?}");
    }
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        0
    );
}

#[test]
fn an_application_specific_correlation_id_is_kept_in_the_correl_id_and_selects() {
    let web = start(&["APP.IN"]);
    for (correlation, body) in [("order-42", "first"), ("order-43", "second")] {
        let answer = web
            .call("POST", MESSAGES)
            .user("uma")
            .header("ibm-mq-md-correlationId", correlation)
            .body("text/plain", body.as_bytes());
        assert_eq!(answer.status, 201, "{}", answer.text());
        // Its UTF-8 bytes padded with nulls are the CorrelId, given back in the ID: form.
        let expected = format!(
            "ID:{}{}",
            correlation
                .bytes()
                .map(|byte| format!("{byte:02x}"))
                .collect::<String>(),
            "00".repeat(24 - correlation.len())
        );
        assert_eq!(answer.header("ibm-mq-md-correlationId").unwrap(), expected);
    }
    // The same ID selects, in the query of the messagelist, a browse and a get; so does its
    // ID: form.
    let answer = web
        .call("GET", &format!("{MESSAGE_LIST}?correlationId=order-43"))
        .user("uma")
        .send();
    let messages = answer.json()["messages"].as_array().unwrap().clone();
    assert_eq!(messages.len(), 1, "{}", answer.text());
    let encoded = messages[0]["correlationId"].as_str().unwrap().to_string();
    assert!(encoded.starts_with("ID:6f726465722d3433"), "{encoded}");
    let answer = web
        .call("GET", &format!("{MESSAGES}?correlationId={encoded}"))
        .user("uma")
        .send();
    assert_eq!(answer.text(), "second");
    let answer = web
        .call("DELETE", &format!("{MESSAGES}?correlationId=order-43"))
        .user("uma")
        .send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert_eq!(answer.text(), "second");
    let answer = web
        .call("DELETE", &format!("{MESSAGES}?correlationId=order-43"))
        .user("uma")
        .send();
    assert_eq!(answer.status, 204);

    // Longer than a CorrelId (so 48 digits without ID: too), or a malformed ID: form: 2207.
    let too_long = "x".repeat(25);
    let digits = "ab".repeat(24);
    for value in [too_long.as_str(), digits.as_str(), "ID:", "ID:0102"] {
        let answer = web
            .call("POST", MESSAGES)
            .user("uma")
            .header("ibm-mq-md-correlationId", value)
            .body("text/plain", b"x");
        assert_eq!(answer.status, 400, "{value}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], 2207, "{value}");
        let answer = web
            .call("DELETE", &format!("{MESSAGES}?correlationId={value}"))
            .user("uma")
            .send();
        assert_eq!(answer.status, 400, "{value}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], 2207, "{value}");
    }
    // A messageId is always the ID: form: 48 digits alone are refused with 2206.
    for value in [digits.clone(), format!("ID:{}", "zz".repeat(24))] {
        for resource in [MESSAGES, MESSAGE_LIST] {
            let answer = web
                .call("GET", &format!("{resource}?messageId={value}"))
                .user("uma")
                .send();
            assert_eq!(answer.status, 400, "{value}: {}", answer.text());
            assert_eq!(answer.error()["reasonCode"], 2206, "{value}");
        }
    }
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        1
    );
}

#[test]
fn user_properties_are_set_from_ibm_mq_usr_and_returned_on_browse_and_get() {
    let web = start(&["APP.IN"]);
    let answer = web
        .call("POST", MESSAGES)
        .user("uma")
        .header(
            "ibm-mq-usr",
            r#"region;"north, west";string, retries;3;int,urgent;true;boolean,ratio;0.25;double,big;9000000000;long"#,
        )
        .body("text/plain", b"with properties");
    assert_eq!(answer.status, 201, "{}", answer.text());
    let expected = r#"region;"north, west";string,retries;3;int,urgent;true;boolean,ratio;0.25;double,big;9000000000;long"#;

    // The messagelist shows the body, not the MQRFH2 the properties travel in.
    let list = web.call("GET", MESSAGE_LIST).user("uma").send().json();
    assert_eq!(list["messages"][0]["format"], "MQSTR", "{list}");
    assert_eq!(list["messages"][0]["dataPreview"], "with properties");
    for method in ["GET", "DELETE"] {
        let answer = web.call(method, MESSAGES).user("uma").send();
        assert_eq!(answer.status, 200, "{method}: {}", answer.text());
        assert_eq!(answer.text(), "with properties");
        assert_eq!(
            answer.header("content-type").unwrap(),
            "text/plain;charset=utf-8"
        );
        assert_eq!(answer.header("ibm-mq-usr").unwrap(), expected, "{method}");
    }
    // The other way round: a message put through the MQI with MQSETMP has its properties
    // in ibm-mq-usr.
    let mut connection = ferrite_mqi::Connection::connect_as(
        web.queue_manager.clone(),
        "",
        &ferrite_mqi::Mqcno::default(),
        "uma",
    )
    .unwrap();
    let hmsg = connection.create_message_handle(0).unwrap();
    connection
        .set_message_property(
            hmsg,
            "colour",
            ferrite_mqi::message_handles::PropertyValue::String("blue".into()),
        )
        .unwrap();
    let mut od = ferrite_mqi::Mqod {
        object_name: "APP.IN".into(),
        ..ferrite_mqi::Mqod::default()
    };
    let hobj = connection
        .open(&mut od, ferrite_constants::open_options::MQOO_OUTPUT)
        .unwrap();
    let mut md = ferrite_mqi::Mqmd {
        format: ferrite_constants::format::MQFMT_STRING,
        ..ferrite_mqi::Mqmd::default()
    };
    let mut pmo = ferrite_mqi::Mqpmo {
        options: ferrite_constants::put_options::MQPMO_NO_SYNCPOINT,
        original_msg_handle: Some(hmsg),
        ..ferrite_mqi::Mqpmo::default()
    };
    connection
        .put(hobj, &mut md, &mut pmo, b"from the MQI")
        .unwrap();
    let answer = web.call("DELETE", MESSAGES).user("uma").send();
    assert_eq!(answer.text(), "from the MQI");
    assert_eq!(
        answer.header("ibm-mq-usr").unwrap(),
        r#"colour;"blue";string"#
    );
    // A message without properties has no ibm-mq-usr header.
    let answer = web
        .call("POST", MESSAGES)
        .user("uma")
        .body("text/plain", b"plain");
    assert_eq!(answer.status, 201);
    let answer = web.call("DELETE", MESSAGES).user("uma").send();
    assert_eq!(answer.text(), "plain");
    assert_eq!(answer.header("ibm-mq-usr"), None);

    // Bad names: 2442; unknown types and values not of their type: 2473; nothing put.
    for (value, reason) in [
        (r#"JMSType;"x";string"#, 2442),
        (r#"a.b;"x";string"#, 2442),
        (r#"1st;"x";string"#, 2442),
        (r#"and;"x";string"#, 2442),
        ("count;3;integer", 2473),
        ("count;three;int", 2473),
        ("tiny;300;byte", 2473),
        ("flag;yes;boolean", 2473),
        ("text;unquoted;string", 2473),
    ] {
        let answer = web
            .call("POST", MESSAGES)
            .user("uma")
            .header("ibm-mq-usr", value)
            .body("text/plain", b"x");
        assert_eq!(answer.status, 400, "{value}: {}", answer.text());
        assert_eq!(answer.error()["reasonCode"], reason, "{value}");
    }
    assert_eq!(
        web.queue_manager
            .queue("APP.IN")
            .unwrap()
            .status()
            .current_depth,
        0
    );
}
