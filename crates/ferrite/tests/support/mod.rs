//! What the `ferrite` command's tests share.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A queue manager a test started with `ferrite start --background`: stopped (`ferrite stop`)
/// when the guard drops, so a test that fails half-way leaves no queue manager running. A stop
/// of one already stopped fails harmlessly.
pub struct StopOnDrop {
    home: PathBuf,
    name: &'static str,
}

impl StopOnDrop {
    pub fn new(home: &Path, name: &'static str) -> StopOnDrop {
        StopOnDrop {
            home: home.to_path_buf(),
            name,
        }
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let _ = Command::new(env!("CARGO_BIN_EXE_ferrite"))
            .env("FERRITE_HOME", &self.home)
            .args(["stop", self.name])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
