//! What this crate's tests share: a member of group QSG1 started in-process and MQSC run on it.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::QueueSharingGroupParameters;
use ferrite_test_kit::servers::Server;

/// Member `name` of group QSG1, created in `directory`, started and joined.
pub fn member(
    directory: &Path,
    name: &str,
    redis: &Server,
    postgres: &Server,
) -> Arc<QueueManager> {
    member_and_group(directory, name, redis, postgres).0
}

/// [`member`], with its connection to the group.
pub fn member_and_group(
    directory: &Path,
    name: &str,
    redis: &Server,
    postgres: &Server,
) -> (Arc<QueueManager>, Arc<ferrite_sharing::Group>) {
    let parameters = QueueSharingGroupParameters {
        name: "QSG1".to_string(),
        coupling_facility: redis.url(),
        repository: postgres.url(),
    };
    let mut config = ferrite_test_kit::small_config(name);
    config.queue_sharing_group = Some(parameters.clone());
    ferrite_sharing::add_member(name, &parameters).unwrap();
    ferrite_test_kit::create_with(directory, &config);
    let queue_manager = ferrite_test_kit::open(directory);
    let group = ferrite_sharing::join(name, &parameters).unwrap();
    assert!(queue_manager.attach_queue_sharing_group(group.clone()));
    (queue_manager, group)
}

/// Open `name` again in `directory` (after a shutdown) and attach it to its group, which
/// recovers its shared work.
pub fn rejoin(
    directory: &Path,
    name: &str,
    redis: &Server,
    postgres: &Server,
) -> Arc<QueueManager> {
    let parameters = QueueSharingGroupParameters {
        name: "QSG1".to_string(),
        coupling_facility: redis.url(),
        repository: postgres.url(),
    };
    let queue_manager = ferrite_test_kit::open(directory);
    let group = ferrite_sharing::join(name, &parameters).unwrap();
    assert!(queue_manager.attach_queue_sharing_group(group));
    queue_manager
}

/// Run `command`, which must succeed; its output.
pub fn ok(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = ferrite_command::run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

/// Run `command`, which must fail; its output.
pub fn fails(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = ferrite_command::run_command(queue_manager, command);
    assert!(
        !response.success,
        "{command} succeeded: {}",
        response.text()
    );
    response.text()
}
