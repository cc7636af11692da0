//! A small queue manager on a temporary directory, as the storage engine's tests use.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::PageSetId;

pub fn small_config(name: &str) -> QueueManagerConfig {
    QueueManagerConfig::small(name)
}

pub fn fs() -> Arc<dyn FileSystem> {
    Arc::new(RealFileSystem)
}

pub fn create(directory: &Path, name: &str) {
    QueueManager::create(fs(), directory, &small_config(name), &mut |_, _, _| {}).unwrap();
}

pub fn open(directory: &Path) -> Arc<QueueManager> {
    QueueManager::open(fs(), directory, Arc::new(|_line: &str| {})).unwrap()
}

/// A fresh queue manager QM1 with local queues `queues` (MQ's defaults).
pub fn queue_manager(queues: &[&str]) -> (tempfile::TempDir, Arc<QueueManager>) {
    let directory = tempfile::tempdir().unwrap();
    create(directory.path(), "QM1");
    let queue_manager = open(directory.path());
    for name in queues {
        define(&queue_manager, QueueDefinition::local(name, PageSetId(1)));
    }
    (directory, queue_manager)
}

pub fn define(queue_manager: &QueueManager, definition: QueueDefinition) {
    queue_manager.define_queue(definition, false).unwrap();
}
