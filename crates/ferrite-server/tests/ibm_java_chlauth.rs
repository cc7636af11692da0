//! IBM's PCF classes and client against Ferrite's channel authentication: `tests/java`'s
//! PcfChannelAuthentication (IBM's allclient jar, downloaded by Maven at test time and never
//! committed) sets and inquires CHLAUTH records with PCFMessageAgent, turns channel events on
//! with CHANGE_Q_MGR, is refused on the channel its record blocks, and parses the Channel
//! Blocked event Ferrite put with IBM's PCFMessage.
//!
//! Needs a JDK (17 or later) and Maven on the PATH, as `ibm_java_client.rs` does.

mod support;

use ferrite_server::ServerConfig;

use support::java::run_java;

#[test]
fn ibm_pcf_channel_authentication_and_channel_blocked_event() {
    let fixture =
        support::start_configured(&[], ServerConfig::default(), support::small_config("QM1"));
    let listener = support::listen(fixture);
    let queue_manager = listener.fixture.queue_manager.clone();
    let processor = ferrite_command::CommandProcessor::new(queue_manager.clone());
    let response = processor.run("DEFINE CHANNEL(BLOCKED.SVRCONN) CHLTYPE(SVRCONN)");
    assert!(response.success, "{}", response.text());
    let command_server = ferrite_command::CommandServer::start(queue_manager.clone());
    let output = run_java(
        "PcfChannelAuthentication",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
            "BLOCKED.SVRCONN".to_string(),
        ],
    );
    assert!(output.contains("7 passed, 0 failed"), "every check ran");
    // REMOVEALL removed the channel's record; MQ's default records stay.
    let profiles: Vec<String> = queue_manager
        .channel_authentication_records()
        .into_iter()
        .map(|record| record.profile)
        .collect();
    assert!(
        !profiles.iter().any(|profile| profile == "BLOCKED.SVRCONN"),
        "REMOVEALL removed the record: {profiles:?}"
    );
    assert_eq!(profiles.len(), 3, "MQ's default records: {profiles:?}");
    command_server.stop();
}
