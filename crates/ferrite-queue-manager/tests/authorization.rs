//! Authority records (SET AUTHREC's store) and the checks made with them: generic profile
//! precedence, principals and groups, administrators, and the records' survival across a
//! restart and a crash.

use std::sync::Arc;

use ferrite_queue_manager::objects::authority_record::{
    AuthorityObjectType, Entity, MQZAO_BROWSE, MQZAO_CONNECT, MQZAO_DISPLAY, MQZAO_INPUT,
    MQZAO_INQUIRE, MQZAO_OUTPUT,
};
use ferrite_queue_manager::security::privileged_users::{GroupDatabase, GroupEntry};
use ferrite_queue_manager::{ConnectingUser, Principal, QueueManager};

const QUEUE: AuthorityObjectType = AuthorityObjectType::Queue;

/// A group database that knows only the groups it is given for each user.
struct Groups(Vec<(&'static str, Vec<&'static str>)>);

impl GroupDatabase for Groups {
    fn group(&self, _name: &str) -> Result<Option<GroupEntry>, String> {
        Ok(None)
    }

    fn user_groups(&self, _name: &str, _primary: u32) -> Vec<u32> {
        Vec::new()
    }

    fn user_group_names(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(user, _)| *user == name)
            .flat_map(|(_, groups)| groups.iter().map(|group| group.to_string()))
            .collect()
    }
}

/// A user the system does not know (no uid), with `groups`: never an administrator.
fn user(queue_manager: &QueueManager, name: &'static str, groups: &[&'static str]) -> Principal {
    let principal = queue_manager.principal_with(
        &ConnectingUser::asserted(name),
        &Groups(vec![(name, groups.to_vec())]),
    );
    assert!(!principal.administrator, "{name} is not privileged");
    principal
}

fn grant(
    queue_manager: &QueueManager,
    profile: &str,
    object_type: AuthorityObjectType,
    entity: Entity,
    authorities: u32,
) {
    queue_manager
        .set_authority_record(profile, object_type, entity, authorities, 0)
        .unwrap();
}

fn principal(name: &str) -> Entity {
    Entity::Principal(name.to_string())
}

fn group(name: &str) -> Entity {
    Entity::Group(name.to_string())
}

#[test]
fn a_new_queue_manager_grants_nothing_but_to_administrators() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&["APP.Q1"]);
    let app = user(&queue_manager, "app", &["apps"]);
    for object_type in AuthorityObjectType::ALL {
        assert_eq!(queue_manager.authority_of(&app, object_type, "APP.Q1"), 0);
    }
    let error = queue_manager
        .check_authority(&app, QUEUE, "APP.Q1", MQZAO_OUTPUT)
        .unwrap_err();
    assert_eq!(
        error.reason_code(),
        ferrite_constants::reason::MQRC_NOT_AUTHORIZED
    );
    // The user the queue manager runs as (this process's) administers it.
    let owner = queue_manager.principal(&ConnectingUser::this_process());
    assert!(owner.administrator);
    queue_manager
        .check_authority(&owner, QUEUE, "SYSTEM.ADMIN.COMMAND.QUEUE", MQZAO_OUTPUT)
        .unwrap();
}

#[test]
fn the_most_specific_profile_decides_for_each_entity() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    // MQ's documented example: AB.* gives put, AB.C* gives get; AB.CD has get only.
    grant(
        &queue_manager,
        "AB.*",
        QUEUE,
        principal("fred"),
        MQZAO_OUTPUT,
    );
    grant(
        &queue_manager,
        "AB.C*",
        QUEUE,
        principal("fred"),
        MQZAO_INPUT,
    );
    grant(
        &queue_manager,
        "**",
        QUEUE,
        principal("fred"),
        MQZAO_INQUIRE,
    );
    grant(
        &queue_manager,
        "AB.C?",
        QUEUE,
        principal("fred"),
        MQZAO_BROWSE,
    );
    let fred = user(&queue_manager, "fred", &[]);
    let authority = |name: &str| queue_manager.authority_of(&fred, QUEUE, name);
    assert_eq!(authority("AB.CDE"), MQZAO_INPUT);
    assert_eq!(authority("AB.CD"), MQZAO_BROWSE);
    assert_eq!(authority("AB.X"), MQZAO_OUTPUT);
    assert_eq!(authority("XY"), MQZAO_INQUIRE);
    // An exact profile beats every generic one.
    grant(
        &queue_manager,
        "AB.CD",
        QUEUE,
        principal("fred"),
        MQZAO_DISPLAY,
    );
    assert_eq!(authority("AB.CD"), MQZAO_DISPLAY);
    // Records are per object type.
    assert_eq!(
        queue_manager.authority_of(&fred, AuthorityObjectType::Process, "AB.CD"),
        0
    );
}

#[test]
fn groups_add_their_authorities_to_the_principals() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    grant(&queue_manager, "APP.**", QUEUE, group("apps"), MQZAO_OUTPUT);
    grant(
        &queue_manager,
        "APP.IN",
        QUEUE,
        group("readers"),
        MQZAO_INPUT,
    );
    grant(
        &queue_manager,
        "APP.IN",
        QUEUE,
        principal("alice"),
        MQZAO_BROWSE,
    );
    let alice = user(&queue_manager, "alice", &["apps", "readers"]);
    let bob = user(&queue_manager, "bob", &["apps"]);
    let carol = user(&queue_manager, "carol", &[]);
    assert_eq!(
        queue_manager.authority_of(&alice, QUEUE, "APP.IN"),
        MQZAO_OUTPUT | MQZAO_INPUT | MQZAO_BROWSE
    );
    assert_eq!(
        queue_manager.authority_of(&bob, QUEUE, "APP.IN"),
        MQZAO_OUTPUT
    );
    assert_eq!(queue_manager.authority_of(&carol, QUEUE, "APP.IN"), 0);
    // A group's record for a user's name grants nothing to that user.
    grant(&queue_manager, "APP.IN", QUEUE, group("carol"), MQZAO_INPUT);
    assert_eq!(queue_manager.authority_of(&carol, QUEUE, "APP.IN"), 0);
}

#[test]
fn authorities_are_added_removed_and_deleted() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let record = queue_manager
        .set_authority_record(
            "APP.*",
            QUEUE,
            principal("app"),
            MQZAO_OUTPUT | MQZAO_INPUT,
            0,
        )
        .unwrap();
    assert_eq!(record.authorities, MQZAO_OUTPUT | MQZAO_INPUT);
    let record = queue_manager
        .set_authority_record("APP.*", QUEUE, principal("app"), MQZAO_BROWSE, MQZAO_INPUT)
        .unwrap();
    assert_eq!(record.authorities, MQZAO_OUTPUT | MQZAO_BROWSE);
    let app = user(&queue_manager, "app", &[]);
    assert_eq!(
        queue_manager.authority_of(&app, QUEUE, "APP.Q"),
        MQZAO_OUTPUT | MQZAO_BROWSE
    );
    queue_manager
        .delete_authority_record("APP.*", QUEUE, &principal("app"))
        .unwrap();
    assert_eq!(queue_manager.authority_of(&app, QUEUE, "APP.Q"), 0);
    let error = queue_manager
        .delete_authority_record("APP.*", QUEUE, &principal("app"))
        .unwrap_err();
    assert_eq!(
        error.reason_code(),
        ferrite_constants::reason::MQRC_UNKNOWN_OBJECT_NAME
    );
    for (profile, entity) in [("A**", principal("app")), ("APP", principal("a b"))] {
        assert!(queue_manager
            .set_authority_record(profile, QUEUE, entity, MQZAO_OUTPUT, 0)
            .is_err());
    }
    assert!(queue_manager.authority_records().records().is_empty());
}

fn records(queue_manager: &Arc<QueueManager>) -> Vec<String> {
    queue_manager
        .authority_records()
        .records()
        .iter()
        .map(|record| format!("{} {:#x}", record.key, record.authorities))
        .collect()
}

#[test]
fn records_survive_a_restart_and_a_crash() {
    let directory = tempfile::tempdir().unwrap();
    ferrite_test_kit::create(directory.path(), "QM1");
    let queue_manager = ferrite_test_kit::open(directory.path());
    grant(
        &queue_manager,
        "QM1",
        AuthorityObjectType::QueueManager,
        group("apps"),
        MQZAO_CONNECT | MQZAO_INQUIRE,
    );
    grant(
        &queue_manager,
        "APP.**",
        QUEUE,
        principal("app"),
        MQZAO_OUTPUT,
    );
    grant(
        &queue_manager,
        "GONE",
        QUEUE,
        principal("app"),
        MQZAO_OUTPUT,
    );
    queue_manager
        .delete_authority_record("GONE", QUEUE, &principal("app"))
        .unwrap();
    let before = records(&queue_manager);
    assert_eq!(before.len(), 2, "{before:?}");
    queue_manager.shutdown().unwrap();
    drop(queue_manager);

    let queue_manager = ferrite_test_kit::open(directory.path());
    assert_eq!(records(&queue_manager), before);
    // A change after the restart, then a crash (no shutdown): the log recovers it.
    grant(
        &queue_manager,
        "APP.**",
        QUEUE,
        principal("app"),
        MQZAO_INPUT,
    );
    let changed = records(&queue_manager);
    drop(queue_manager);

    let queue_manager = ferrite_test_kit::open(directory.path());
    assert_eq!(records(&queue_manager), changed);
    let app = user(&queue_manager, "app", &["apps"]);
    assert_eq!(
        queue_manager.authority_of(&app, QUEUE, "APP.X.Y"),
        MQZAO_OUTPUT | MQZAO_INPUT
    );
    assert_eq!(
        queue_manager.authority_of(&app, AuthorityObjectType::QueueManager, "QM1"),
        MQZAO_CONNECT | MQZAO_INQUIRE
    );
    queue_manager.shutdown().unwrap();
}

#[test]
fn a_system_user_has_its_groups_from_the_group_database() {
    // The user the tests run as: its primary group is among its groups.
    let me = ConnectingUser::this_process();
    if me.name.is_empty() {
        return;
    }
    let groups = ferrite_queue_manager::security::privileged_users::SystemGroupDatabase
        .user_group_names(&me.name);
    // SAFETY: getgrgid returns a pointer into static storage or null.
    let primary = unsafe { libc::getgrgid(me.gid.unwrap()) };
    assert!(!primary.is_null());
    let primary = unsafe { std::ffi::CStr::from_ptr((*primary).gr_name) }
        .to_string_lossy()
        .into_owned();
    assert!(groups.contains(&primary), "{groups:?} lacks {primary}");
}
