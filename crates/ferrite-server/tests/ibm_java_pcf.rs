//! IBM's PCF classes against Ferrite's command server: `tests/java`'s PcfAdministration
//! (com.ibm.mq.headers.pcf.PCFMessageAgent from IBM's allclient jar, downloaded by Maven at
//! test time and never committed) administers a queue manager through a SVRCONN channel:
//! INQUIRE_Q_MGR, CREATE_Q, INQUIRE_Q_NAMES, INQUIRE_Q with attributes, CHANGE_Q,
//! INQUIRE_Q_STATUS (queue and handle), DELETE_Q, and errors seen as PCFException.
//!
//! Needs a JDK (17 or later) and Maven on the PATH, as `ibm_java_client.rs` does.

mod support;

use ferrite_server::ServerConfig;

use support::java::run_java;

#[test]
fn ibm_pcf_message_agent() {
    let fixture =
        support::start_configured(&[], ServerConfig::default(), support::small_config("QM1"));
    let listener = support::listen(fixture);
    let command_server =
        ferrite_command::CommandServer::start(listener.fixture.queue_manager.clone());
    let output = run_java(
        "PcfAdministration",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
            "FERRITE.PCF.QUEUE".to_string(),
        ],
    );
    assert!(output.contains("10 passed, 0 failed"), "every check ran");
    let queue_manager = &listener.fixture.queue_manager;
    assert!(
        queue_manager.queue("FERRITE.PCF.QUEUE").is_none(),
        "DELETE_Q deleted the queue"
    );
    command_server.stop();
}
