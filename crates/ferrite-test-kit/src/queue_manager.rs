//! A small queue manager on a temporary directory, as the tests above the storage engine use.

use std::path::Path;
use std::sync::{Arc, Mutex};

use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::PageSetId;

/// The storage engine's small configuration for queue manager `name`.
pub fn small_config(name: &str) -> QueueManagerConfig {
    QueueManagerConfig::small(name)
}

/// The real file system, as the queue manager takes it.
pub fn fs() -> Arc<dyn FileSystem> {
    Arc::new(RealFileSystem)
}

/// Create queue manager `name` (the small configuration) in `directory`.
pub fn create(directory: &Path, name: &str) {
    create_with(directory, &small_config(name));
}

/// Create a queue manager configured by `config` in `directory`.
pub fn create_with(directory: &Path, config: &QueueManagerConfig) {
    QueueManager::create(fs(), directory, config, &mut |_, _, _| {}).unwrap();
}

/// Open (restart) the queue manager in `directory`, its messages discarded.
pub fn open(directory: &Path) -> Arc<QueueManager> {
    QueueManager::open(fs(), directory, Arc::new(|_line: &str| {})).unwrap()
}

/// Open (restart) the queue manager in `directory`, its console messages kept, as they come,
/// in the list returned beside it.
pub fn open_recording(directory: &Path) -> (Arc<QueueManager>, Arc<Mutex<Vec<String>>>) {
    let console = Arc::new(Mutex::new(Vec::new()));
    let sink = console.clone();
    let queue_manager = QueueManager::open(
        fs(),
        directory,
        Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
    )
    .unwrap();
    (queue_manager, console)
}

/// A fresh queue manager QM1 with local queues `queues` (MQ's defaults).
pub fn queue_manager(queues: &[&str]) -> (tempfile::TempDir, Arc<QueueManager>) {
    let directory = tempfile::tempdir().unwrap();
    create(directory.path(), "QM1");
    let queue_manager = open(directory.path());
    define_locals(&queue_manager, queues);
    (directory, queue_manager)
}

/// Define local queues `queues` (MQ's defaults, page set 1).
pub fn define_locals(queue_manager: &QueueManager, queues: &[&str]) {
    for name in queues {
        define(queue_manager, QueueDefinition::local(name, PageSetId(1)));
    }
}

/// Define `definition` (not replacing one of the same name).
pub fn define(queue_manager: &QueueManager, definition: QueueDefinition) {
    queue_manager.define_queue(definition, false).unwrap();
}

/// Grant `principal` what an MQ administrator grants an application's user that may use
/// every object (`setmqaut -t qmgr +allmqi`, `-n '**' -t queue +allmqi`, and the same for
/// processes and namelists): for tests whose connections run as a user that is not an
/// administrator on purpose.
pub fn grant_all_mqi(queue_manager: &QueueManager, principal: &str) {
    use ferrite_queue_manager::objects::authority_record::{
        AuthorityObjectType, Entity, MQZAO_ALL_MQI,
    };
    let entity = Entity::Principal(principal.to_string());
    for (profile, object_type) in [
        (queue_manager.name(), AuthorityObjectType::QueueManager),
        ("**", AuthorityObjectType::Queue),
        ("**", AuthorityObjectType::Process),
        ("**", AuthorityObjectType::Namelist),
    ] {
        queue_manager
            .set_authority_record(profile, object_type, entity.clone(), MQZAO_ALL_MQI, 0)
            .unwrap();
    }
}

/// Grant `principal` every authority on every object (`setmqaut -t qmgr +all`, `-n '**' -t
/// queue +all`, and the same for processes, namelists, channels, authentication
/// information objects and topics): for tests whose own process's user is not an administrator on
/// purpose (to test REQDADM) and yet administers the queue manager from its console.
pub fn grant_all(queue_manager: &QueueManager, principal: &str) {
    use ferrite_queue_manager::objects::authority_record::{
        AuthorityObjectType, Entity, MQZAO_ALL,
    };
    let entity = Entity::Principal(principal.to_string());
    for (profile, object_type) in [
        (queue_manager.name(), AuthorityObjectType::QueueManager),
        ("**", AuthorityObjectType::Queue),
        ("**", AuthorityObjectType::Process),
        ("**", AuthorityObjectType::Namelist),
        ("**", AuthorityObjectType::Channel),
        ("**", AuthorityObjectType::AuthInfo),
        ("**", AuthorityObjectType::Topic),
    ] {
        let all = MQZAO_ALL & object_type.valid_authorities();
        queue_manager
            .set_authority_record(profile, object_type, entity.clone(), all, 0)
            .unwrap();
    }
}

/// The name of the user this process runs as (who the tests' connections run as).
pub fn this_user() -> String {
    ferrite_queue_manager::ConnectingUser::this_process().name
}

/// A fresh queue manager QM1 with MQ's default objects (the command processor's, as `ferrite
/// create` defines them: SYSTEM.BASE.TOPIC, the managed subscriptions' model queues, ...) and
/// local queues `queues`.
pub fn queue_manager_with_defaults(queues: &[&str]) -> (tempfile::TempDir, Arc<QueueManager>) {
    let (directory, queue_manager) = queue_manager(queues);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    (directory, queue_manager)
}
