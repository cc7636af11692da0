//! IBM's own MQ client against Ferrite, unmodified: the Java programs under `tests/java` (built
//! with Maven against `com.ibm.mq:com.ibm.mq.allclient`, downloaded at test time and never
//! committed) run against a queue manager whose channel initiator listens on 127.0.0.1.
//!
//! Needs a JDK (17 or later) and Maven on the PATH; `scripts/test` installs both when missing.
//! Each Java program prints one PASS or FAIL line per check and exits with the number of
//! failures; the test fails on any failure and prints the program's output.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use ferrite_server::ServerConfig;
use ferrite_storage::queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;

fn java_project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/java")
}

/// Builds the Java programs once per test process: `mvn package` (which also copies IBM's
/// client and its dependencies to target/lib).
fn build_java_programs() -> &'static Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let project = java_project();
        let output = Command::new("mvn")
            .args(["-q", "-B", "package", "-DskipTests"])
            .current_dir(&project)
            .output()
            .map_err(|error| {
                format!("cannot run mvn ({error}): install a JDK 17+ and Maven (scripts/test does)")
            })?;
        if !output.status.success() {
            return Err(format!(
                "mvn package failed:\n{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Ok(project.join("target"))
    })
}

/// Runs `class` with `arguments` in a scratch directory (IBM's client writes its logs and FFDC
/// files into the working directory) and returns its output; panics unless it exits 0.
fn run_java(class: &str, arguments: &[String]) -> String {
    let target = build_java_programs().as_ref().expect("Java programs built");
    let scratch = tempfile::tempdir().unwrap();
    let classpath = format!(
        "{}:{}/*",
        target.join("classes").display(),
        target.join("lib").display()
    );
    let output = Command::new("java")
        .arg("-cp")
        .arg(classpath)
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

use support::{listen, Listener};

fn start_listener() -> Listener {
    // Active logs larger than the biggest message the checks put (1 MiB, persistent): a log
    // record does not span active logs yet.
    let mut config = support::small_config("QM1");
    config.log.active_log_size_mib = 8;
    let fixture = support::start_configured(&["FERRITE.TEST.Q1"], ServerConfig::default(), config);
    let mut indexed = QueueDefinition::local("FERRITE.TEST.INDEXED", PageSetId(1));
    indexed.index_type = "CORRELID".to_string();
    fixture.queue_manager.define_queue(indexed, false).unwrap();
    listen(fixture)
}

#[test]
fn ibm_mq_classes_for_java() {
    let listener = start_listener();
    let output = run_java(
        "MqClassesConformance",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
            "FERRITE.TEST.Q1".to_string(),
            "FERRITE.TEST.INDEXED".to_string(),
        ],
    );
    assert!(output.contains("10 passed, 0 failed"), "every check ran");
    for queue in ["FERRITE.TEST.Q1", "FERRITE.TEST.INDEXED"] {
        let depth = listener
            .fixture
            .queue_manager
            .queue(queue)
            .unwrap()
            .status()
            .current_depth;
        assert_eq!(depth, 0, "{queue} left empty by the checks");
    }
    let errors: Vec<String> = listener
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|line| line.contains("CSQX208E"))
        .cloned()
        .collect();
    assert!(errors.is_empty(), "no channel ended in error: {errors:?}");
}

#[test]
fn ibm_mq_classes_for_jms() {
    let listener = start_listener();
    let output = run_java(
        "JmsConformance",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
            "FERRITE.TEST.Q1".to_string(),
        ],
    );
    assert!(
        output.contains("10 passed, 0 failed") && !output.contains("SKIP"),
        "every check ran and passed"
    );
    let depth = listener
        .fixture
        .queue_manager
        .queue("FERRITE.TEST.Q1")
        .unwrap()
        .status()
        .current_depth;
    assert_eq!(depth, 0, "the queue is left empty");
    let errors: Vec<String> = listener
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|line| line.contains("CSQX208E"))
        .cloned()
        .collect();
    assert!(errors.is_empty(), "no channel ended in error: {errors:?}");
}

/// Read-ahead (DEFREADA(YES)): IBM's client streams non-persistent messages ahead of its MQGETs
/// through REQUEST_MSGS and ASYNC_MESSAGE; the class prints the receive rate with and without.
#[test]
fn ibm_mq_classes_for_java_read_ahead() {
    let listener = start_listener();
    let mut queue = QueueDefinition::local("FERRITE.TEST.READAHEAD", PageSetId(1));
    queue.default_read_ahead = "YES".to_string();
    listener
        .fixture
        .queue_manager
        .define_queue(queue, false)
        .unwrap();
    let output = run_java(
        "ReadAhead",
        &[
            "QM1".to_string(),
            "127.0.0.1".to_string(),
            listener.port().to_string(),
            "DEV.APP.SVRCONN".to_string(),
            "FERRITE.TEST.READAHEAD".to_string(),
            "2000".to_string(),
        ],
    );
    assert!(output.contains("3 passed, 0 failed"), "every check ran");
    let errors: Vec<String> = listener
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|line| line.contains("CSQX208E"))
        .cloned()
        .collect();
    assert!(errors.is_empty(), "no channel ended in error: {errors:?}");
}
