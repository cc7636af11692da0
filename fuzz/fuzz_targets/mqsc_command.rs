//! MQSC commands run by `ferrite_command::run_command` on one queue manager (on the
//! simulated file system, kept across inputs): attribute values, WHERE filters, every verb.
//! A response to one command ends in CSQ9022I or CSQ9023E and says whether it succeeded;
//! syntax errors name a position inside the command. Commands that stop the queue manager
//! are skipped. Corpus: crates/ferrite-command/tests/corpus/mqsc/.
#![no_main]

use std::path::Path;
use std::sync::{Arc, OnceLock};

use ferrite_command::run_command;
use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::vfs::simulated::SimulatedFileSystem;
use ferrite_storage::vfs::FileSystem;
use ferrite_test_kit::hostile::check_mqsc_command;
use libfuzzer_sys::fuzz_target;

fn queue_manager() -> &'static Arc<QueueManager> {
    static QUEUE_MANAGER: OnceLock<Arc<QueueManager>> = OnceLock::new();
    QUEUE_MANAGER.get_or_init(|| {
        let fs: Arc<dyn FileSystem> = Arc::new(SimulatedFileSystem::new(1));
        let directory = Path::new("/qm");
        let mut config = QueueManagerConfig::with_defaults("FUZZ");
        config.log.active_log_size_mib = 4;
        config.log.active_log_count = 3;
        for page_set in &mut config.page_sets {
            page_set.primary_pages = 256;
        }
        QueueManager::create(fs.clone(), directory, &config, &mut |_, _, _| {}).unwrap();
        let queue_manager = QueueManager::open(fs, directory, Arc::new(|_: &str| {})).unwrap();
        run_command(&queue_manager, "DEFINE QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)");
        run_command(&queue_manager, "DEFINE QLOCAL(FUZZ.Q) DESCR('target') MAXDEPTH(10)");
        queue_manager
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if text.to_uppercase().contains("STOP") {
        return;
    }
    check_mqsc_command(queue_manager(), &text);
});
