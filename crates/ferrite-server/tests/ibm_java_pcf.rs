//! IBM's PCF classes against Ferrite's command server: `tests/java`'s PcfAdministration
//! (com.ibm.mq.headers.pcf.PCFMessageAgent from IBM's allclient jar, downloaded by Maven at
//! test time and never committed) administers a queue manager through a SVRCONN channel:
//! INQUIRE_Q_MGR, CREATE_Q, INQUIRE_Q_NAMES, INQUIRE_Q with attributes, CHANGE_Q,
//! INQUIRE_Q_STATUS (queue and handle), DELETE_Q, and errors seen as PCFException.
//!
//! Needs a JDK (17 or later) and Maven on the PATH, as `ibm_java_client.rs` does.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use ferrite_server::ServerConfig;

/// Builds the Java programs (`mvn package`, which also copies IBM's client to target/lib) and
/// runs `class` with `arguments` in a scratch directory; returns its output, panics unless it
/// exits 0. (The same steps as `ibm_java_client.rs`; cargo runs test binaries one at a time.)
fn run_java(class: &str, arguments: &[String]) -> String {
    let project = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/java");
    let built = Command::new("mvn")
        .args(["-q", "-B", "package", "-DskipTests"])
        .current_dir(&project)
        .output()
        .expect("cannot run mvn: install a JDK 17+ and Maven (scripts/test does)");
    assert!(
        built.status.success(),
        "mvn package failed:\n{}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let target: PathBuf = project.join("target");
    let scratch = tempfile::tempdir().unwrap();
    let output = Command::new("java")
        .arg("-cp")
        .arg(format!(
            "{}:{}/*",
            target.join("classes").display(),
            target.join("lib").display()
        ))
        .arg(format!("dev.ferrite.conformance.{class}"))
        .args(arguments)
        .current_dir(scratch.path())
        .output()
        .expect("java runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    println!("{text}");
    assert!(
        output.status.success(),
        "{class} reported failures (exit {:?})",
        output.status.code()
    );
    text
}

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
