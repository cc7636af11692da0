//! What tests of a whole queue manager share: a configuration small enough to create in
//! milliseconds (1 MiB active logs, 200 buffers, 256-page page sets).

use ferrite_storage::config::QueueManagerConfig;

/// MQ's defaults for `name`, shrunk for tests.
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
