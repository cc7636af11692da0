//! ALTER BUFFPOOL returns at once, as MQ for z/OS's does: the response says CSQP024I (request
//! initiated) and the resize completes in the background, reported on the console log with
//! CSQP023I (completed, the new size) or CSQP025I (failed, the pool keeps its size and qm.toml
//! is unchanged); a request the command can check (an undefined pool) still fails at once.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_command::run_command;
use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::QueueManagerConfig;

/// QM1 with its console log captured.
fn queue_manager() -> (
    tempfile::TempDir,
    Arc<QueueManager>,
    Arc<Mutex<Vec<String>>>,
) {
    let directory = tempfile::tempdir().unwrap();
    ferrite_test_kit::create(directory.path(), "QM1");
    let (queue_manager, console) = ferrite_test_kit::open_recording(directory.path());
    (directory, queue_manager, console)
}

/// The first console line containing `text`, waiting up to 30 s for it.
fn console_line(console: &Mutex<Vec<String>>, text: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(line) = console.lock().unwrap().iter().find(|l| l.contains(text)) {
            return line.clone();
        }
        assert!(Instant::now() < deadline, "no console line with {text}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn buffers_in_qm_toml(directory: &tempfile::TempDir, pool: u8) -> u32 {
    let text = std::fs::read_to_string(directory.path().join("qm.toml")).unwrap();
    let config = QueueManagerConfig::from_toml(&text).unwrap();
    config
        .buffer_pools
        .iter()
        .find(|p| p.id == pool)
        .unwrap()
        .buffers
}

fn pool_buffers(queue_manager: &QueueManager, pool: u8) -> u64 {
    queue_manager
        .buffer_pool_statistics()
        .into_iter()
        .find(|(id, _)| id.0 == pool)
        .unwrap()
        .1
        .qpstnbuf
}

#[test]
fn alter_buffpool_answers_at_once_and_reports_completion_on_the_console() {
    let (directory, queue_manager, console) = queue_manager();
    let response = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(400)");
    assert!(response.success, "{}", response.text());
    let text = response.text();
    assert!(
        text.contains("CSQP024I QM1 CSQPCMDS Request initiated for buffer pool 1"),
        "{text}"
    );
    assert!(
        !text.contains("CSQP023I"),
        "completion goes to the console: {text}"
    );
    let done = console_line(&console, "CSQP023I");
    assert_eq!(
        done,
        "CSQP023I QM1 CSQPCMDS Request completed for buffer pool 1, now has 400 buffers"
    );
    assert_eq!(pool_buffers(&queue_manager, 1), 400);
    assert_eq!(buffers_in_qm_toml(&directory, 1), 400);

    // Checked before anything starts: an undefined pool fails in the response.
    let undefined = run_command(&queue_manager, "ALTER BUFFPOOL(9) BUFFERS(300)");
    assert!(!undefined.success);
    assert!(undefined.text().contains("buffer pool 9 is not defined"));
    // The size the pool has: nothing to do, nothing initiated.
    let same = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(400)");
    assert!(
        same.success && !same.text().contains("CSQP024I"),
        "{}",
        same.text()
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_failed_background_resize_reports_csqp025i_and_changes_nothing() {
    let (directory, queue_manager, console) = queue_manager();
    // qm.toml cannot be rewritten: its replacement's name is taken by a directory.
    std::fs::create_dir(directory.path().join("qm.toml.new")).unwrap();
    let response = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(300)");
    assert!(response.success, "{}", response.text());
    assert!(response.text().contains("CSQP024I"), "{}", response.text());
    let failed = console_line(&console, "CSQP025I");
    assert!(
        failed
            .starts_with("CSQP025I QM1 CSQPCMDS Request failed for buffer pool 1, BUFFERS(300): "),
        "{failed}"
    );
    assert!(failed.contains("the pool keeps its size"), "{failed}");
    assert_eq!(pool_buffers(&queue_manager, 1), 200);
    assert_eq!(buffers_in_qm_toml(&directory, 1), 200);
    std::fs::remove_dir(directory.path().join("qm.toml.new")).unwrap();
    queue_manager.shutdown().unwrap();
}

/// Console lines about buffer pool `pool`'s resizes ending (completed, failed or superseded).
fn resize_endings(console: &Mutex<Vec<String>>, pool: u8) -> Vec<String> {
    let about = format!("for buffer pool {pool}");
    console
        .lock()
        .unwrap()
        .iter()
        .filter(|line| {
            (line.starts_with("CSQP023I") || line.starts_with("CSQP025I")) && line.contains(&about)
        })
        .cloned()
        .collect()
}

#[test]
fn many_alters_in_quick_succession_end_at_the_last_size() {
    let (directory, queue_manager, console) = queue_manager();
    // Every size differs from the one before, so every ALTER starts a resize of its own.
    let sizes: Vec<u32> = (0..40)
        .map(|i| if i % 2 == 0 { 400 + i } else { 120 + i })
        .collect();
    for size in &sizes {
        let response = run_command(
            &queue_manager,
            &format!("ALTER BUFFPOOL(1) BUFFERS({size})"),
        );
        assert!(response.success, "{}", response.text());
        assert!(response.text().contains("CSQP024I"), "{}", response.text());
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while resize_endings(&console, 1).len() < sizes.len() {
        assert!(
            Instant::now() < deadline,
            "not every resize ended: {:?}",
            resize_endings(&console, 1)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let endings = resize_endings(&console, 1);
    let last = *sizes.last().unwrap();
    for line in &endings {
        assert!(
            line.starts_with("CSQP023I") || line.contains("Request superseded"),
            "{line}"
        );
    }
    assert!(
        endings
            .iter()
            .any(|line| line.ends_with(&format!("now has {last} buffers"))),
        "{endings:?}"
    );
    assert_eq!(pool_buffers(&queue_manager, 1), u64::from(last));
    assert_eq!(buffers_in_qm_toml(&directory, 1), last);
    queue_manager.shutdown().unwrap();
}

/// Pages of page set 1 read and kept in use: more than `target` of them, so that a shrink of
/// pool 1 to `target` buffers is held up until they are released (at least one is in a buffer
/// the shrink gives up).
fn hold_pages(
    queue_manager: &QueueManager,
    target: u32,
) -> Vec<ferrite_storage::buffer_pool::PageGuard> {
    let pool = queue_manager
        .pools()
        .into_iter()
        .find(|pool| pool.id().0 == 1)
        .unwrap();
    (1..=target + 20)
        .map(|page| {
            pool.get_page(
                ferrite_storage::PageSetId(1),
                ferrite_storage::PageNumber(page),
            )
            .unwrap()
        })
        .collect()
}

/// Wait until pool 1's shrink to `target` has begun (its size moves first).
fn shrink_begun(queue_manager: &QueueManager, target: u32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while pool_buffers(queue_manager, 1) != u64::from(target) {
        assert!(Instant::now() < deadline, "the shrink did not begin");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn other_commands_answer_while_a_shrink_waits_for_buffers_in_use() {
    let (directory, queue_manager, console) = queue_manager();
    let held = hold_pages(&queue_manager, 100);
    let response = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(100)");
    assert!(response.text().contains("CSQP024I"), "{}", response.text());
    shrink_begun(&queue_manager, 100);
    for command in [
        "DISPLAY USAGE",
        "DEFINE STGCLASS(HELDUP) PSID(01)",
        "ALTER PSID(01) EXPAND(SYSTEM)",
    ] {
        let started = Instant::now();
        let answer = run_command(&queue_manager, command);
        assert!(answer.success, "{command}: {}", answer.text());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{command} waited {:?} for the shrink",
            started.elapsed()
        );
    }
    assert!(
        resize_endings(&console, 1).is_empty(),
        "the shrink is still held up: {:?}",
        resize_endings(&console, 1)
    );
    drop(held);
    let done = console_line(&console, "CSQP023I");
    assert!(done.ends_with("now has 100 buffers"), "{done}");
    assert_eq!(buffers_in_qm_toml(&directory, 1), 100);
    queue_manager.shutdown().unwrap();
}

#[test]
fn shutdown_waits_for_a_running_resize_and_refuses_the_ones_not_begun() {
    let (directory, queue_manager, console) = queue_manager();
    let held = hold_pages(&queue_manager, 100);
    let response = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(100)");
    assert!(response.text().contains("CSQP024I"), "{}", response.text());
    shrink_begun(&queue_manager, 100);
    // Asked for before shutdown, its turn comes after the shrink: too late to run.
    let later = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(150)");
    assert!(later.text().contains("CSQP024I"), "{}", later.text());

    let stopping = queue_manager.clone();
    let shutdown = std::thread::spawn(move || stopping.shutdown());
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        !shutdown.is_finished(),
        "shutdown returned while the shrink was running"
    );
    drop(held);
    shutdown.join().unwrap().unwrap();

    let lines = console.lock().unwrap().clone();
    let position = |text: &str| {
        lines
            .iter()
            .position(|line| line.contains(text))
            .unwrap_or_else(|| panic!("no console line with {text}: {lines:?}"))
    };
    assert!(
        position("now has 100 buffers") < position("CSQ9022I"),
        "the shrink ended after shutdown: {lines:?}"
    );
    let refused = console_line(&console, "BUFFERS(150)");
    assert!(refused.starts_with("CSQP025I"), "{refused}");
    assert_eq!(buffers_in_qm_toml(&directory, 1), 100);
}

#[test]
fn an_operators_edit_of_another_section_survives_alter_buffpool() {
    let (directory, queue_manager, console) = queue_manager();
    let path = directory.path().join("qm.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace(
        "privileged_users = []",
        "# alice administers QM1\nprivileged_users = [\"alice\"]",
    );
    assert_ne!(edited, text);
    std::fs::write(&path, &edited).unwrap();

    let response = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(300)");
    assert!(response.success, "{}", response.text());
    console_line(&console, "CSQP023I");
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(
        after.contains("# alice administers QM1\nprivileged_users = [\"alice\"]"),
        "{after}"
    );
    assert_eq!(buffers_in_qm_toml(&directory, 1), 300);
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_qm_toml_that_no_longer_parses_refuses_the_alter_and_the_pool_keeps_its_size() {
    let (directory, queue_manager, console) = queue_manager();
    let path = directory.path().join("qm.toml");
    let broken = std::fs::read_to_string(&path)
        .unwrap()
        .replace("[security]", "[security\n");
    std::fs::write(&path, &broken).unwrap();

    let response = run_command(&queue_manager, "ALTER BUFFPOOL(1) BUFFERS(300)");
    assert!(response.success, "{}", response.text());
    let failed = console_line(&console, "CSQP025I");
    assert!(failed.contains("qm.toml cannot be rewritten"), "{failed}");
    assert!(failed.contains("correct the file"), "{failed}");
    assert_eq!(pool_buffers(&queue_manager, 1), 200);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        broken,
        "the file is left as it is"
    );

    // The other commands that rewrite qm.toml refuse it too, at once.
    let define = run_command(&queue_manager, "DEFINE BUFFPOOL(9) BUFFERS(100)");
    assert!(!define.success, "{}", define.text());
    assert!(
        define.text().contains("cannot be rewritten"),
        "{}",
        define.text()
    );
    let psid = run_command(&queue_manager, "DEFINE PSID(9) BUFFPOOL(1)");
    assert!(!psid.success, "{}", psid.text());
    assert!(
        !directory
            .path()
            .join("pagesets")
            .read_dir()
            .unwrap()
            .any(|entry| entry.unwrap().file_name().to_string_lossy().contains("09")),
        "no page set file formatted"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
    queue_manager.shutdown().unwrap();
}
