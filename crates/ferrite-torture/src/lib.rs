//! # ferrite-torture
//!
//! Crash torture and soak of real queue manager processes. The harness creates a queue
//! manager in a FERRITE_HOME of its own with a configuration that makes checkpoints, log
//! switches, archiving and page set expansion frequent ([`queue_manager::torture_config`]),
//! runs the real `ferrite` binary, drives a mixed persistent workload at it from several
//! client connections over its bindings socket ([`workload`]), and checks everything the
//! queue manager shows against a model of what was acknowledged ([`model`]).
//!
//! - [`torture`]: SIGKILL at seeded random moments, restart, verify; thousands of times.
//! - [`pubsub`]: the same for publish/subscribe: durable subscriptions and publications under
//!   syncpoint, no publication lost or doubled for any subscriber.
//! - [`channel_torture`]: two queue managers and a message channel between them, the sender
//!   or the receiver SIGKILLed at seeded flows of the channel ([`channel_proxy`]), every
//!   arrival checked against [`channel_model`].
//! - [`soak`]: one queue manager under load for a long time, its memory, threads and file
//!   descriptors sampled and bounded.
//!
//! The modules: [`random`] (the seeded generator), [`message`] (what a message carries so
//! that it can be checked alone), [`model`], [`workload`], [`queue_manager`] (the process),
//! [`process_stats`] (/proc sampling).

pub mod channel_model;
pub mod channel_proxy;
pub mod channel_torture;
pub mod message;
pub mod model;
pub mod process_stats;
pub mod pubsub;
pub mod queue_manager;
pub mod random;
pub mod soak;
pub mod torture;
pub mod workload;
