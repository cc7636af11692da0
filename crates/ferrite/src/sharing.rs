//! Queue sharing groups in the `ferrite` command: `ferrite create QM --qsg NAME --cf URL --db
//! URL` adds the new queue manager to the group (ferrite-sharing), and every start of a
//! member, in the foreground or embedded, connects it to its group before it serves.

use std::sync::Arc;

use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::QueueSharingGroupParameters;

/// `ferrite create`'s group options (clap makes sure all three or none are given).
pub fn parameters(
    qsg: Option<String>,
    coupling_facility: Option<String>,
    repository: Option<String>,
) -> Option<QueueSharingGroupParameters> {
    Some(QueueSharingGroupParameters {
        name: qsg?.to_uppercase(),
        coupling_facility: coupling_facility?,
        repository: repository?,
    })
}

/// Add `name` to its group before its directory is made (both servers are checked first).
pub fn add_member(name: &str, group: &QueueSharingGroupParameters) -> Result<u32, String> {
    ferrite_sharing::add_member(name, group).map_err(|error| {
        format!(
            "ferrite: cannot add {name} to queue sharing group {}: {error}",
            group.name
        )
    })
}

/// Undo [`add_member`] when the queue manager could not be made after it.
pub fn remove_member(name: &str, group: &QueueSharingGroupParameters) {
    if let Err(error) = ferrite_sharing::remove_member(name, group) {
        eprintln!(
            "ferrite: {name} is still recorded in queue sharing group {}: {error}",
            group.name
        );
    }
}

/// Connect a member that has just started to its group; a queue manager outside a group has
/// nothing to do. On failure the queue manager is shut down again: a member does not serve
/// without its coupling facility and repository.
pub fn join(queue_manager: &Arc<QueueManager>) -> Result<(), String> {
    let Some(parameters) = queue_manager.config().queue_sharing_group.clone() else {
        return Ok(());
    };
    match ferrite_sharing::join(queue_manager.name(), &parameters) {
        Ok(group) => {
            queue_manager.say(&format!(
                "CSQ5001I {} CSQ5CONN Connected to queue sharing group {} as member {} (coupling facility {}, shared repository {})",
                queue_manager.name(),
                parameters.name,
                ferrite_queue_manager::QueueSharingGroup::member_number(group.as_ref()),
                parameters.coupling_facility,
                parameters.repository,
            ));
            let attached = queue_manager.attach_queue_sharing_group(group);
            assert!(attached, "a queue manager joins its group once");
            Ok(())
        }
        Err(error) => {
            let _ = queue_manager.shutdown();
            Err(format!(
                "ferrite: queue manager {} cannot connect to queue sharing group {}: {error}",
                queue_manager.name(),
                parameters.name
            ))
        }
    }
}
