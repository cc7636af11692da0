//! Authority records as IBM's MQ classes for Java and JMS see them (tests/java
//! AuthorizationConformance): 2035 at MQCONN and MQOPEN for what was not granted, and what was
//! granted works. Needs a JDK and Maven, as ibm_java_client.rs.

mod support;

use ferrite_server::ServerConfig;
use support::java::run_java;
use support::{listen, start_with};

#[test]
fn ibm_clients_see_not_authorized_for_what_was_not_granted() {
    let listener = listen(start_with(
        &["APP.GRANTED", "APP.SECRET"],
        ServerConfig::default(),
    ));
    let queue_manager = listener.fixture.queue_manager.clone();
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    for command in [
        // Each channel runs its connections as one user (MCAUSER), whatever the client asserts.
        "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('javaapp')",
        "DEFINE CHANNEL(NOBODY.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('javanobody')",
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('javaapp') AUTHADD(CONNECT,INQ)",
        "SET AUTHREC PROFILE('APP.GRANTED') OBJTYPE(QUEUE) PRINCIPAL('javaapp') AUTHADD(PUT,INQ)",
    ] {
        let response = processor.run(command);
        assert!(response.success, "{command}: {}", response.text());
    }
    let output = run_java(
        "AuthorizationConformance",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "APP.SVRCONN".to_string(),
            "NOBODY.SVRCONN".to_string(),
            "APP.GRANTED".to_string(),
            "APP.SECRET".to_string(),
        ],
    );
    assert!(output.contains("6 passed, 0 failed"), "every check ran");
    // The two granted puts arrived; nothing reached the refused queue.
    assert_eq!(queue_manager.queue("APP.GRANTED").unwrap().depth(), 2);
    assert_eq!(queue_manager.queue("APP.SECRET").unwrap().depth(), 0);
}
