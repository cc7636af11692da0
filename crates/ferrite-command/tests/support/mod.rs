//! A small queue manager on a temporary directory, and the MQI helpers the tests use.
#![allow(dead_code)]

use std::sync::Arc;

use ferrite_constants::{get_options::*, open_options::*, persistence::*, put_options::*};
use ferrite_mqi::{Connection, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::queue_manager::QueueManager;
use ferrite_storage::vfs::RealFileSystem;

pub fn small_config(name: &str) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::with_defaults(name);
    config.log.active_log_size_mib = 1;
    config.log.active_log_count = 3;
    config.log.outbuff_kib = 256;
    for pool in &mut config.buffer_pools {
        pool.buffers = 200;
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 256;
        page_set.secondary_pages = 256;
    }
    config
}

/// A fresh queue manager QM1 (no objects defined).
pub fn queue_manager() -> (tempfile::TempDir, Arc<QueueManager>) {
    let directory = tempfile::tempdir().unwrap();
    QueueManager::create(
        Arc::new(RealFileSystem),
        directory.path(),
        &small_config("QM1"),
        &mut |_, _, _| {},
    )
    .unwrap();
    let queue_manager = QueueManager::open(
        Arc::new(RealFileSystem),
        directory.path(),
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    (directory, queue_manager)
}

/// Put `count` messages ("message N") to `queue`, outside syncpoint.
pub fn put(queue_manager: &Arc<QueueManager>, queue: &str, count: usize, persistent: bool) {
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_OUTPUT)
        .unwrap();
    for index in 0..count {
        let mut md = Mqmd {
            persistence: if persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            },
            ..Mqmd::default()
        };
        connection
            .put(
                hobj,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                format!("message {index}").as_bytes(),
            )
            .unwrap();
    }
    connection.disconnect().unwrap();
}

/// Get `count` messages from `queue`, outside syncpoint.
pub fn get(queue_manager: &Arc<QueueManager>, queue: &str, count: usize) {
    let mut connection = Connection::connect(queue_manager.clone(), "").unwrap();
    let hobj = connection
        .open(&mut Mqod::queue(queue), MQOO_INPUT_SHARED)
        .unwrap();
    let mut buffer = [0u8; 1024];
    for _ in 0..count {
        connection
            .get(
                hobj,
                &mut Mqmd::default(),
                &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
                &mut buffer,
            )
            .unwrap();
    }
    connection.disconnect().unwrap();
}
