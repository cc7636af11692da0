//! QINDXBLD(NOWAIT): after a restart the MSGID/CORRELID indexes are built in the background;
//! gets by identifier wait for (or build) the index of their queue and find exactly the right
//! messages, other gets are served at once, and puts and gets made while an index is pending
//! are reflected in it once built.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_queue_manager::{MessageSelector, QueueDefinition, QueueManager, UnitOfWork};
use ferrite_storage::config::{IndexBuild, QueueManagerConfig};
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::simulated::SimulatedFileSystem;
use ferrite_storage::vfs::FileSystem;
use ferrite_storage::PageSetId;

const DEPTH: u32 = 6000;

fn identifier(kind: u8, tag: u32) -> [u8; 24] {
    let mut id = [0u8; 24];
    id[0] = kind;
    id[1..5].copy_from_slice(&tag.to_be_bytes());
    id
}

fn descriptor(tag: u32) -> MessageDescriptor {
    MessageDescriptor {
        persistent: true,
        message_id: identifier(b'M', tag),
        correlation_id: identifier(b'C', tag % 1000),
        ..MessageDescriptor::default()
    }
}

fn open(fs: &SimulatedFileSystem, lines: &Arc<Mutex<Vec<String>>>) -> Arc<QueueManager> {
    let sink = lines.clone();
    QueueManager::open(
        Arc::new(fs.clone()),
        Path::new("/qm/INDEXQM"),
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .unwrap()
}

#[test]
fn nowait_restart_serves_gets_by_identifier_correctly() {
    let fs = SimulatedFileSystem::new(5);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    let mut config = QueueManagerConfig::with_defaults("INDEXQM");
    config.log.active_log_size_mib = 8;
    config.log.active_log_count = 3;
    config.system.qindxbld = IndexBuild::Nowait;
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 2048;
    }
    QueueManager::create(shared, Path::new("/qm/INDEXQM"), &config, &mut |_, _, _| {}).unwrap();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let queue_manager = open(&fs, &lines);
    for name in ["DEEP", "SHALLOW"] {
        let mut definition = QueueDefinition::local(name, PageSetId(1));
        definition.index_type = "CORRELID".to_string();
        queue_manager.define_queue(definition, false).unwrap();
    }
    for (name, depth) in [("DEEP", DEPTH), ("SHALLOW", 50)] {
        let queue = queue_manager.queue(name).unwrap();
        let mut unit = UnitOfWork::new();
        for tag in 0..depth {
            queue_manager
                .put(
                    Some(&mut unit),
                    &queue,
                    &descriptor(tag),
                    &tag.to_be_bytes(),
                )
                .unwrap();
            if tag % 500 == 499 {
                queue_manager.commit(&mut unit).unwrap();
            }
        }
        queue_manager.commit(&mut unit).unwrap();
    }
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    let queue_manager = open(&fs, &lines);
    let deep = queue_manager.queue("DEEP").unwrap();
    let shallow = queue_manager.queue("SHALLOW").unwrap();
    // A get without an identifier is served at once, index or not.
    let first = queue_manager
        .get(None, &shallow, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(first.data, 0u32.to_be_bytes());
    // Puts and gets while the deep queue's index may still be pending.
    let queue_manager = &queue_manager;
    queue_manager
        .put(
            None,
            &deep,
            &descriptor(DEPTH + 1),
            &(DEPTH + 1).to_be_bytes(),
        )
        .unwrap();
    let got = queue_manager
        .get(None, &deep, &MessageSelector::default(), None)
        .unwrap()
        .unwrap();
    assert_eq!(got.data, 0u32.to_be_bytes(), "FIFO within priority");
    // Gets by MSGID: the message put after restart, the oldest (already got: none), and one in
    // the middle; by CORRELID: the first of its group still there.
    for (tag, expected) in [(DEPTH + 1, true), (0, false), (4321, true)] {
        let selector = MessageSelector {
            message_id: Some(identifier(b'M', tag)),
            ..MessageSelector::default()
        };
        let message = queue_manager.get(None, &deep, &selector, None).unwrap();
        assert_eq!(message.is_some(), expected, "MSGID of message {tag}");
        if let Some(message) = message {
            assert_eq!(message.data, tag.to_be_bytes());
        }
    }
    let by_correlation = MessageSelector {
        correlation_id: Some(identifier(b'C', 321)),
        ..MessageSelector::default()
    };
    let message = queue_manager
        .get(None, &deep, &by_correlation, None)
        .unwrap()
        .unwrap();
    assert_eq!(message.data, 321u32.to_be_bytes());
    let by_shallow_correlation = MessageSelector {
        correlation_id: Some(identifier(b'C', 7)),
        ..MessageSelector::default()
    };
    let message = queue_manager
        .get(None, &shallow, &by_shallow_correlation, None)
        .unwrap()
        .unwrap();
    assert_eq!(message.data, 7u32.to_be_bytes());
    // The background builders finish, and said so. The gets by identifier may have built the
    // indexes first; the builders still take each queue and report it when they are scheduled.
    let deadline = Instant::now() + Duration::from_secs(30);
    let completed = |said: &[String]| {
        said.iter()
            .filter(|line| {
                line.starts_with("CSQI006I INDEXQM COMPLETED IN-STORAGE INDEX FOR QUEUE")
            })
            .count()
    };
    while deep.index_pending() || shallow.index_pending() || completed(&lines.lock().unwrap()) < 2 {
        assert!(Instant::now() < deadline, "indexes never built");
        std::thread::sleep(Duration::from_millis(10));
    }
    let said = lines.lock().unwrap().clone();
    assert!(
        said.iter()
            .any(|line| line.starts_with("CSQI007I INDEXQM BUILDING IN-STORAGE INDEX FOR QUEUE")),
        "{said:?}"
    );
    // Every remaining message is found by its MSGID exactly once.
    let mut found = 0;
    for tag in 1..=DEPTH + 1 {
        let selector = MessageSelector {
            message_id: Some(identifier(b'M', tag)),
            ..MessageSelector::default()
        };
        if let Some(message) = queue_manager.get(None, &deep, &selector, None).unwrap() {
            assert_eq!(message.data, tag.to_be_bytes());
            found += 1;
        }
    }
    assert_eq!(
        found,
        DEPTH - 3,
        "the 6,000 and the one put after restart, less the four got"
    );
    assert_eq!(deep.status().current_depth, 0);
    queue_manager.shutdown().unwrap();
}
