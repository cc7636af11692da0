//! The workspace's shared test support, one name for what several crates' tests use:
//!
//! - [`queue_manager`]: a small queue manager on a temporary directory, with local queues.
//! - [`mqi`]: MQPUT, MQGET and browse over a [`ferrite_mqi::Connection`], and the reason of a
//!   call that must fail.
//! - [`mqsc`]: MQSC commands that must succeed or must fail.
//! - [`corpus`]: the seed corpus files a crate's corpus tests replay.
//! - [`hostile`]: the checks of the product's decoders on hostile input that the fuzz targets
//!   and the crates' property tests share.
//! - [`process`]: running a program (the `ferrite` command) and checking its output, watching
//!   a long-running child, stopping it by its process id, and free ports on 127.0.0.1.
//! - [`gated_log`]: the real file system with a gate on the active logs' syncs (hold the log's
//!   force, see that it is held, make it fail).
//! - [`servers`]: Redis and a throw-away PostgreSQL cluster for queue sharing groups' tests.
//! - [`channel_pair`]: the MQSC of a sender channel between two queue manager processes.
//!
//! A test crate's own helpers, used by no other crate, stay in its `tests/support` module.

pub mod channel_pair;
pub mod corpus;
pub mod gated_log;
pub mod hostile;
pub mod mqi;
pub mod mqsc;
pub mod process;
pub mod queue_manager;
pub mod servers;

pub use mqi::*;
pub use mqsc::*;
pub use queue_manager::*;

/// Poll `condition` (every 2 ms) until it holds or `timeout` passes: a wait on a condition
/// with a generous bound, never a sleep standing in for one. Returns whether it held.
pub fn wait_until(timeout: std::time::Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if condition() {
            return true;
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}
