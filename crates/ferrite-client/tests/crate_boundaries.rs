//! The crate boundaries of the wire, as `cargo tree` sees them: the client library compiles
//! without the queue manager (no storage engine, no in-process MQI, no command processor, no
//! listeners), and the listeners (`ferrite-server`) share the protocol with the client through
//! `ferrite-protocol`, not by depending on the client library. A new dependency that crosses
//! these lines fails here, naming the crate that pulled it in.

use std::process::Command;

/// The packages in `package`'s normal (not dev, not build) dependency tree, each once, with
/// the line that names it (`name vX.Y.Z (path)`).
fn normal_dependencies(package: &str) -> Vec<(String, String)> {
    let output = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "-p", package, "-e", "normal", "--prefix", "none"])
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree -p {package} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut packages: Vec<(String, String)> = String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| {
            let name = line.split_whitespace().next()?;
            Some((name.to_string(), line.to_string()))
        })
        .collect();
    packages.sort();
    packages.dedup_by(|a, b| a.0 == b.0);
    packages
}

/// Who depends on `name` in `package`'s normal tree (for the failure message).
fn inverted(package: &str, name: &str) -> String {
    let output = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "-p", package, "-e", "normal", "-i", name])
        .output()
        .expect("cargo tree runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_excludes(package: &str, expected: &[&str], forbidden: &[&str]) {
    let packages = normal_dependencies(package);
    let names: Vec<&str> = packages.iter().map(|(name, _)| name.as_str()).collect();
    // The tree was read: the package and what it must have are in it.
    for name in expected {
        assert!(
            names.contains(name),
            "{name} missing from {package}'s tree: {names:?}"
        );
    }
    for name in forbidden {
        assert!(
            !names.contains(name),
            "{package} depends on {name} again:\n{}",
            inverted(package, name)
        );
    }
}

#[test]
fn the_client_compiles_without_the_queue_manager() {
    assert_excludes(
        "ferrite-client",
        &["ferrite-client", "ferrite-protocol", "ferrite-mqi-types"],
        &[
            "ferrite-storage",
            "ferrite-mqi",
            "ferrite-command",
            "ferrite-server",
        ],
    );
}

#[test]
fn the_listeners_share_the_protocol_not_the_client_library() {
    assert_excludes(
        "ferrite-server",
        &["ferrite-server", "ferrite-protocol", "ferrite-mqi"],
        &["ferrite-client"],
    );
}
