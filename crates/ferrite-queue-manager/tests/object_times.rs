//! Objects' CRDATE/CRTIME and ALTDATE/ALTTIME (`ObjectTimes`): recorded when an object is
//! defined, the creation kept and the alteration moved by every stored change, carried in the
//! object's image across a restart, and forgotten with the object.

use std::sync::Arc;

use ferrite_storage::config::QueueManagerConfig;

use ferrite_queue_manager::{
    now_ms, DefinitionType, ObjectDefinition, ObjectTimes, ObjectType, ProcessDefinition,
    QueueDefinition, QueueManager,
};
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::PageSetId;

fn open(directory: &std::path::Path) -> Arc<QueueManager> {
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    QueueManager::open(fs, directory, Arc::new(|_: &str| {})).unwrap()
}

/// Sleep until the clock has moved past `ms` (times are in milliseconds).
fn after(ms: u64) {
    while now_ms() <= ms {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[test]
fn times_are_recorded_kept_and_restarted() {
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    QueueManager::create(
        fs,
        directory.path(),
        &QueueManagerConfig::small("QM1"),
        &mut |_, _, _| {},
    )
    .unwrap();
    let queue_manager = open(directory.path());

    let before_define = now_ms();
    queue_manager
        .define_queue(QueueDefinition::local("APP.Q", PageSetId(1)), false)
        .unwrap();
    let mut process = ProcessDefinition::new("APP.PROCESS");
    queue_manager
        .define_object(ObjectDefinition::Process(process.clone()), false)
        .unwrap();
    let defined = queue_manager
        .object_times(ObjectType::LocalQueue, "APP.Q")
        .unwrap();
    assert!(defined.created_ms >= before_define && defined.created_ms <= now_ms());
    assert_eq!(
        defined.altered_ms, defined.created_ms,
        "a new object: ALTDATE = CRDATE"
    );
    let process_defined = queue_manager
        .object_times(ObjectType::Process, "APP.PROCESS")
        .unwrap();
    assert!(process_defined.created_ms >= before_define);

    // ALTER (here DEFINE REPLACE and alter_object) keeps the creation, moves the alteration.
    after(defined.altered_ms.max(process_defined.altered_ms));
    let mut altered = QueueDefinition::local("APP.Q", PageSetId(1));
    altered.max_depth = 10;
    queue_manager.alter_queue(altered).unwrap();
    process.user_data = "changed".to_string();
    queue_manager
        .alter_object(ObjectDefinition::Process(process))
        .unwrap();
    let queue_times = queue_manager
        .object_times(ObjectType::LocalQueue, "APP.Q")
        .unwrap();
    assert_eq!(queue_times.created_ms, defined.created_ms);
    assert!(queue_times.altered_ms > defined.altered_ms);
    let process_times = queue_manager
        .object_times(ObjectType::Process, "APP.PROCESS")
        .unwrap();
    assert_eq!(process_times.created_ms, process_defined.created_ms);
    assert!(process_times.altered_ms > process_defined.altered_ms);

    // A temporary dynamic queue is not stored but has its times while it lives.
    let temporary = QueueDefinition {
        definition_type: DefinitionType::TemporaryDynamic,
        ..QueueDefinition::local("TEMP.Q", PageSetId(1))
    };
    let temporary = queue_manager.define_queue(temporary, false).unwrap();
    assert_ne!(
        queue_manager.object_times(ObjectType::LocalQueue, "TEMP.Q"),
        Some(ObjectTimes::default())
    );
    queue_manager.delete_temporary_queue(&temporary).unwrap();
    assert_eq!(
        queue_manager.object_times(ObjectType::LocalQueue, "TEMP.Q"),
        None
    );

    // Deleted: no times; defined again: new ones.
    queue_manager
        .define_queue(QueueDefinition::local("GONE.Q", PageSetId(1)), false)
        .unwrap();
    let first = queue_manager
        .object_times(ObjectType::LocalQueue, "GONE.Q")
        .unwrap();
    queue_manager.delete_queue("GONE.Q", false).unwrap();
    assert_eq!(
        queue_manager.object_times(ObjectType::LocalQueue, "GONE.Q"),
        None
    );
    after(first.altered_ms);
    queue_manager
        .define_queue(QueueDefinition::local("GONE.Q", PageSetId(1)), false)
        .unwrap();
    let second = queue_manager
        .object_times(ObjectType::LocalQueue, "GONE.Q")
        .unwrap();
    assert!(
        second.created_ms > first.created_ms,
        "a new object, a new CRDATE"
    );

    // Restart: the images carry the times.
    queue_manager.shutdown().unwrap();
    drop(queue_manager);
    let queue_manager = open(directory.path());
    assert_eq!(
        queue_manager.object_times(ObjectType::LocalQueue, "APP.Q"),
        Some(queue_times)
    );
    assert_eq!(
        queue_manager.object_times(ObjectType::Process, "APP.PROCESS"),
        Some(process_times)
    );
    assert_eq!(
        queue_manager.object_times(ObjectType::LocalQueue, "TEMP.Q"),
        None
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn an_image_without_times_reads_as_unrecorded_and_bad_times_are_refused() {
    let old = b"FERRITE-OBJECT 1 PROCESS\nPROCESS=OLD\nDESCR=\nAPPLICID=\nAPPLTYPE=UNIX\nUSERDATA=\nENVRDATA=\n";
    let (definition, times) = ObjectDefinition::decode_with_times(old).unwrap();
    assert_eq!(definition.name(), "OLD");
    assert_eq!(times, ObjectTimes::default());

    let mut image = ObjectDefinition::Process(ProcessDefinition::new("NEW")).encode();
    let stamped = ObjectTimes {
        created_ms: 1_700_000_000_000,
        altered_ms: 1_700_000_123_456,
    };
    stamped.stamp(&mut image);
    let (definition, times) = ObjectDefinition::decode_with_times(&image).unwrap();
    assert_eq!(
        definition,
        ObjectDefinition::Process(ProcessDefinition::new("NEW"))
    );
    assert_eq!(times, stamped);

    let mut bad = ObjectDefinition::Process(ProcessDefinition::new("BAD")).encode();
    bad.extend_from_slice(b"ALTERED=yesterday\n");
    let error = ObjectDefinition::decode_with_times(&bad).unwrap_err();
    assert!(error.to_string().contains("ALTERED=yesterday"), "{error}");
}
