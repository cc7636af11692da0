//! The Java programs under `tests/java` (IBM's MQ classes for Java, JMS and PCF classes, from
//! Maven at test time, never committed): built once per test process, run one at a time.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

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
pub fn run_java(class: &str, arguments: &[String]) -> String {
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

/// The arguments every conformance program starts with: queue manager, host, port and channel
/// of `listener`, then `queues` (or any further arguments).
pub fn channel_arguments(listener: &super::Listener, queues: &[&str]) -> Vec<String> {
    let mut arguments = vec![
        "QM1".to_string(),
        "127.0.0.1".to_string(),
        listener.port().to_string(),
        "DEV.APP.SVRCONN".to_string(),
    ];
    arguments.extend(queues.iter().map(|queue| queue.to_string()));
    arguments
}
