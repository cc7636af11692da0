//! BUFFPOOL and PSID as objects through MQSC on a running queue manager: a page set defined at
//! run time takes persistent messages at once and keeps them across a restart without a
//! shutdown; what is in use cannot be deleted; ALTER BUFFPOOL resizes the running pool and
//! ALTER PSID applies at once; a deleted page set is detached at the next restart and can then be defined again.

use std::sync::Arc;

use ferrite_command::run_command;
use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::Expand;
use ferrite_storage::vfs::RealFileSystem;
use ferrite_storage::PageSetId;

fn ok(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

fn fails(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(
        !response.success,
        "{command} should fail: {}",
        response.text()
    );
    response.text()
}

fn reopen(directory: &tempfile::TempDir) -> Arc<QueueManager> {
    QueueManager::open(
        Arc::new(RealFileSystem),
        directory.path(),
        Arc::new(|_: &str| {}),
    )
    .unwrap()
}

fn buffers(queue_manager: &QueueManager, pool: u8) -> Option<u64> {
    queue_manager
        .buffer_pool_statistics()
        .into_iter()
        .find(|(id, _)| id.0 == pool)
        .map(|(_, statistics)| statistics.qpstnbuf)
}

fn depth(queue_manager: &QueueManager, queue: &str) -> u64 {
    queue_manager.queue(queue).unwrap().status().current_depth
}

#[test]
fn buffer_pools_and_page_sets_defined_altered_and_deleted_at_run_time() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    // Checked before anything changes.
    let missing = fails(&queue_manager, "DEFINE BUFFPOOL(5)");
    assert!(
        missing.contains("CSQ9010E") && missing.contains("BUFFERS"),
        "{missing}"
    );
    fails(&queue_manager, "DEFINE BUFFPOOL(5) BUFFERS(99)");
    fails(&queue_manager, "DEFINE BUFFPOOL(100) BUFFERS(200)");
    let below = fails(
        &queue_manager,
        "DEFINE BUFFPOOL(5) BUFFERS(200) LOCATION(BELOW)",
    );
    assert!(below.contains("LOCATION(ABOVE)"), "{below}");
    let unknown_pool = fails(&queue_manager, "DEFINE PSID(5) BUFFPOOL(5)");
    assert!(unknown_pool.contains("2085"), "{unknown_pool}");
    let exists = fails(&queue_manager, "DEFINE BUFFPOOL(1) BUFFERS(200)");
    assert!(exists.contains("already defined"), "{exists}");
    assert!(buffers(&queue_manager, 5).is_none());

    ok(
        &queue_manager,
        "DEFINE BUFFPOOL(5) BUFFERS(150) LOCATION(ABOVE) PAGECLAS(4KB)",
    );
    assert_eq!(buffers(&queue_manager, 5), Some(150));
    fails(
        &queue_manager,
        "DEFINE PSID(5) BUFFPOOL(5) DSN('MQ.PSID05')",
    );
    let small = fails(&queue_manager, "DEFINE PSID(5) BUFFPOOL(5) PRIMARY(8)");
    assert!(small.contains("PRIMARY"), "{small}");
    ok(
        &queue_manager,
        "DEFINE PSID(5) BUFFPOOL(5) PRIMARY(64) SECONDARY(64) EXPAND(USER)",
    );
    fails(&queue_manager, "DEFINE PSID(5) BUFFPOOL(5)");
    let usage = ok(&queue_manager, "DISPLAY USAGE");
    assert!(usage.contains("_  05        5        64"), "{usage}");
    // Usable at once: a storage class, a queue, persistent messages that force it to expand.
    ok(&queue_manager, "DEFINE STGCLASS(FIVE) PSID(05)");
    ok(&queue_manager, "DEFINE QLOCAL(Q5) STGCLASS(FIVE)");
    ferrite_test_kit::put_messages(&queue_manager, "Q5", 300, true);
    assert_eq!(depth(&queue_manager, "Q5"), 300);

    // In use: refused, and nothing changed.
    let pool_in_use = fails(&queue_manager, "DELETE BUFFPOOL(5)");
    assert!(pool_in_use.contains("page set(s) 05"), "{pool_in_use}");
    let page_set_in_use = fails(&queue_manager, "DELETE PSID(5)");
    assert!(
        page_set_in_use.contains("STGCLASS(FIVE)"),
        "{page_set_in_use}"
    );
    let zero = fails(&queue_manager, "DELETE PSID(0)");
    assert!(zero.contains("object definitions"), "{zero}");

    // ALTER PSID applies now; so does ALTER BUFFPOOL.
    ok(&queue_manager, "ALTER PSID(5) EXPAND(NONE)");
    assert_eq!(
        queue_manager
            .data_manager()
            .space(PageSetId(5))
            .unwrap()
            .page_set
            .expand_policy(),
        Expand::None
    );
    let altered = ok(&queue_manager, "ALTER BUFFPOOL(5) BUFFERS(250)");
    assert!(
        altered.contains("CSQP024I QM1 CSQPCMDS Request initiated for buffer pool 5"),
        "{altered}"
    );
    // The resize completes in the background (alter_buffpool_background.rs tests its messages).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while buffers(&queue_manager, 5) != Some(250)
        || queue_manager
            .storage_configuration()
            .buffer_pools
            .iter()
            .any(|pool| pool.id == 5 && pool.buffers != 250)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "resize of pool 5 not done"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!ok(&queue_manager, "DISPLAY USAGE").contains("at restart"));

    // A restart without a shutdown: the page set is opened from qm.toml before the log is
    // read, its messages are recovered, the pool has its new size.
    drop(queue_manager);
    let queue_manager = reopen(&directory);
    assert_eq!(depth(&queue_manager, "Q5"), 300);
    assert_eq!(buffers(&queue_manager, 5), Some(250));
    let usage = ok(&queue_manager, "DISPLAY USAGE");
    assert!(usage.contains("   None 0"), "{usage}");

    // Emptied and unused, the page set can go; it stays attached until the restart.
    ferrite_test_kit::get_messages(&queue_manager, "Q5", 300);
    ok(&queue_manager, "DELETE QLOCAL(Q5)");
    ok(&queue_manager, "DELETE STGCLASS(FIVE)");
    ok(&queue_manager, "DELETE PSID(5)");
    assert!(ok(&queue_manager, "DISPLAY USAGE").contains("DELETED (detached at restart)"));
    let again = fails(&queue_manager, "DEFINE PSID(5) BUFFPOOL(5)");
    assert!(again.contains("after the restart"), "{again}");
    fails(&queue_manager, "DEFINE STGCLASS(FIVE) PSID(05)");
    ok(&queue_manager, "DELETE BUFFPOOL(5)");
    fails(&queue_manager, "DELETE BUFFPOOL(5)");
    assert!(ok(&queue_manager, "DISPLAY USAGE").contains("DELETED (freed at restart)"));

    drop(queue_manager);
    let queue_manager = reopen(&directory);
    assert!(queue_manager.data_manager().space(PageSetId(5)).is_err());
    assert!(buffers(&queue_manager, 5).is_none());
    // Defined anew after the restart, on a freshly formatted file.
    ok(&queue_manager, "DEFINE BUFFPOOL(5) BUFFERS(100)");
    ok(&queue_manager, "DEFINE PSID(5) BUFFPOOL(5) PRIMARY(32)");
    ok(&queue_manager, "DEFINE STGCLASS(FIVE) PSID(05)");
    ok(&queue_manager, "DEFINE QLOCAL(Q5) STGCLASS(FIVE)");
    ferrite_test_kit::put_messages(&queue_manager, "Q5", 3, true);
    drop(queue_manager);
    let queue_manager = reopen(&directory);
    assert_eq!(depth(&queue_manager, "Q5"), 3);
}

/// VmLck of this process, in KiB (locked memory).
fn locked_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find(|line| line.starts_with("VmLck:"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|kib| kib.parse().ok())
        .unwrap()
}

#[test]
fn pageclas_fixed4kb_locks_a_pool_and_survives_a_restart() {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let large = fails(
        &queue_manager,
        "DEFINE BUFFPOOL(6) BUFFERS(200) PAGECLAS(FIXED1MB)",
    );
    assert!(large.contains("FIXED4KB"), "{large}");
    let before = locked_kib();
    ok(
        &queue_manager,
        "DEFINE BUFFPOOL(6) BUFFERS(200) PAGECLAS(FIXED4KB)",
    );
    assert!(locked_kib() >= before + 200 * 4, "200 buffers locked");
    let usage = ok(&queue_manager, "DISPLAY USAGE");
    assert!(usage.contains("FIXED4KB ABOVE"), "{usage}");
    let toml = std::fs::read_to_string(directory.path().join("qm.toml")).unwrap();
    assert!(toml.contains("page_class = \"FIXED4KB\""), "{toml}");

    // ALTER: the class alone, answered at once; a pageable pool locks nothing.
    let altered = ok(&queue_manager, "ALTER BUFFPOOL(6) PAGECLAS(4KB)");
    assert!(
        altered.contains("CSQP023I") && altered.contains("PAGECLAS(4KB)"),
        "{altered}"
    );
    assert!(ok(&queue_manager, "DISPLAY USAGE").contains("_    6        200"));
    assert!(!ok(&queue_manager, "DISPLAY USAGE").contains("FIXED4KB"));
    let toml = std::fs::read_to_string(directory.path().join("qm.toml")).unwrap();
    assert!(!toml.contains("FIXED4KB"), "{toml}");
    ok(&queue_manager, "ALTER BUFFPOOL(6) PAGECLAS(FIXED4KB)");
    let missing = fails(&queue_manager, "ALTER BUFFPOOL(7) PAGECLAS(FIXED4KB)");
    assert!(missing.contains("not defined"), "{missing}");
    fails(&queue_manager, "ALTER BUFFPOOL(6)");

    // The class is what the next start uses.
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = reopen(&directory);
    let usage = ok(&queue_manager, "DISPLAY USAGE");
    assert!(usage.contains("FIXED4KB ABOVE"), "{usage}");
    queue_manager.shutdown().unwrap();
}
