//! What the storage engine's tests share, used by no other crate's tests (which use
//! `ferrite_test_kit`): buffer pool fixtures and log fixtures. Each test file uses one.
#![allow(dead_code)]

pub mod buffer_pool;
pub mod log;
