//! IBM's PCF classes and client against Ferrite's command and configuration events:
//! `tests/java`'s PcfEvents (IBM's allclient jar, downloaded by Maven at test time and never
//! committed) switches CMDEV and CONFIGEV on with CHANGE_Q_MGR, creates a queue with CREATE_Q
//! and parses every event Ferrite put on SYSTEM.ADMIN.COMMAND.EVENT and
//! SYSTEM.ADMIN.CONFIG.EVENT with IBM's PCFMessage (the command event's MQCFGR groups included),
//! then reads the local event its own open of an unknown queue raised (ChannelName, ConnName).
//!
//! Needs a JDK (17 or later) and Maven on the PATH, as `ibm_java_client.rs` does.

mod support;

use ferrite_server::ServerConfig;

use support::java::run_java;

#[test]
fn ibm_pcf_reads_command_and_configuration_events() {
    let fixture =
        support::start_configured(&[], ServerConfig::default(), support::small_config("QM1"));
    let listener = support::listen(fixture);
    let queue_manager = listener.fixture.queue_manager.clone();
    let command_server = ferrite_command::CommandServer::start(queue_manager.clone());
    let output = run_java(
        "PcfEvents",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
        ],
    );
    assert!(output.contains("6 passed, 0 failed"), "every check ran");
    assert!(
        queue_manager.queue("JAVA.EVENTS.Q").is_none(),
        "DELETE_Q removed the queue"
    );
    command_server.stop();
}
