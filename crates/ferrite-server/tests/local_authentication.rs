//! CHCKLOCL: connection authentication of bindings connections (the Unix socket, where the
//! kernel names the peer's user) and in-process connections, as MQ documents NONE, OPTIONAL,
//! REQUIRED and REQDADM, after REFRESH SECURITY TYPE(CONNAUTH), with ADOPTCTX and FAILDLAY;
//! and REQDADM's privileged users (qm.toml `[security]`) for CHCKCLNT on client channels.

mod support;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::{MqResult, Mqcno, Mqcsp, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::{QueueDefinition, QueueManager};
use ferrite_server::{Server, ServerConfig};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::PageSetId;

struct Fixture {
    _directory: tempfile::TempDir,
    queue_manager: Arc<QueueManager>,
    server: Option<Server>,
    socket: PathBuf,
    /// The queue manager's operator messages (AMQ5534E, AMQ5541E).
    messages: Arc<Mutex<Vec<String>>>,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
        let _ = self.queue_manager.shutdown();
    }
}

/// QM1 with queue Q, the default objects, user `app` (password `passw0rd`) in its registry,
/// and the bindings listener; `security` adjusts qm.toml's `[security]`.
fn start(security: impl FnOnce(&mut QueueManagerConfig)) -> Fixture {
    let directory = tempfile::tempdir().unwrap();
    let mut config = support::small_config("QM1");
    security(&mut config);
    ferrite_test_kit::create_with(directory.path(), &config);
    let (queue_manager, messages) = ferrite_test_kit::open_recording(directory.path());
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    queue_manager
        .define_queue(QueueDefinition::local("Q", PageSetId(1)), false)
        .unwrap();
    UserRegistry::new(directory.path())
        .add("app", b"passw0rd", false)
        .unwrap();
    // Not administrators (support::small_config): granted what they need, as an
    // administrator would.
    ferrite_test_kit::grant_all_mqi(&queue_manager, "app");
    ferrite_test_kit::grant_all(&queue_manager, &ferrite_test_kit::this_user());
    let socket = directory.path().join("qm.sock");
    let server = Server::start(
        queue_manager.clone(),
        &socket,
        ServerConfig::default(),
        Arc::new(|_: &str| {}),
    )
    .unwrap();
    Fixture {
        _directory: directory,
        queue_manager,
        server: Some(server),
        socket,
        messages,
    }
}

fn mqsc(fixture: &Fixture, command: &str) -> String {
    let response = ferrite_command::run_command(&fixture.queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

/// Sets the default AUTHINFO's attributes; REFRESH SECURITY only when `refresh`.
fn auth_info(fixture: &Fixture, attributes: &str, refresh: bool) {
    mqsc(
        fixture,
        &format!("ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) {attributes}"),
    );
    if refresh {
        mqsc(fixture, "REFRESH SECURITY TYPE(CONNAUTH)");
    }
}

fn cno(credentials: Option<(&str, &str)>) -> Mqcno {
    Mqcno {
        security_parms: credentials
            .map(|(user, password)| Mqcsp::user_and_password(user, password)),
        ..Mqcno::default()
    }
}

fn reason<T>(result: MqResult<T>) -> i32 {
    match result {
        Ok(_) => MQRC_NONE,
        Err(error) => error.reason,
    }
}

/// The UserIdentifier of a message put through an in-process connection and got back.
fn in_process_user(fixture: &Fixture, credentials: Option<(&str, &str)>) -> MqResult<String> {
    let mut connection = ferrite_mqi::Connection::connect_with(
        fixture.queue_manager.clone(),
        "",
        &cno(credentials),
    )?;
    let hobj = connection.open(&mut Mqod::queue("Q"), MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF)?;
    let mut md = Mqmd::default();
    connection.put(
        hobj,
        &mut md,
        &mut Mqpmo {
            options: MQPMO_NO_SYNCPOINT,
            ..Mqpmo::default()
        },
        b"x",
    )?;
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 8];
    connection.get(
        hobj,
        &mut md,
        &mut Mqgmo {
            options: MQGMO_NO_SYNCPOINT,
            ..Mqgmo::default()
        },
        &mut buffer,
    )?;
    connection.disconnect()?;
    Ok(md.user_identifier.trim().to_string())
}

/// As [`in_process_user`] through the bindings socket.
fn bindings_user(fixture: &Fixture, credentials: Option<(&str, &str)>) -> MqResult<String> {
    let mut connection =
        ferrite_client::Connection::connect_with(&fixture.socket, "", &cno(credentials))?;
    let hobj = connection.open(&mut Mqod::queue("Q"), MQOO_OUTPUT | MQOO_INPUT_AS_Q_DEF)?;
    let mut md = Mqmd::default();
    connection.put(
        hobj,
        &mut md,
        &mut Mqpmo {
            options: MQPMO_NO_SYNCPOINT,
            ..Mqpmo::default()
        },
        b"x",
    )?;
    let mut md = Mqmd::default();
    let mut buffer = [0u8; 8];
    connection.get(
        hobj,
        &mut md,
        &mut Mqgmo {
            options: MQGMO_NO_SYNCPOINT,
            ..Mqgmo::default()
        },
        &mut buffer,
    )?;
    connection.disconnect()?;
    Ok(md.user_identifier.trim().to_string())
}

type Connect = fn(&Fixture, Option<(&str, &str)>) -> MqResult<String>;

const BOTH: [(&str, Connect); 2] = [
    ("in-process", in_process_user as Connect),
    ("bindings", bindings_user as Connect),
];

fn said(fixture: &Fixture, text: &str) -> bool {
    fixture
        .messages
        .lock()
        .unwrap()
        .iter()
        .any(|line| line.contains(text))
}

#[test]
fn chcklocl_optional_required_and_none_after_refresh() {
    // FAILDLAY(0) so that refusals answer at once; FAILDLAY has its own test.
    let fixture = start(|_| {});
    auth_info(&fixture, "FAILDLAY(0)", true);
    for (how, connect) in BOTH {
        // OPTIONAL, MQ's default: no password is fine; a valid pair is adopted
        // (ADOPTCTX(YES)); a wrong one is refused with 2035.
        assert!(connect(&fixture, None).is_ok(), "{how}");
        assert_eq!(
            connect(&fixture, Some(("app", "passw0rd"))).unwrap(),
            "app",
            "{how}"
        );
        assert_eq!(
            reason(connect(&fixture, Some(("app", "wrong")))),
            MQRC_NOT_AUTHORIZED,
            "{how}"
        );
        assert_eq!(
            reason(connect(&fixture, Some(("nobody", "passw0rd")))),
            MQRC_NOT_AUTHORIZED,
            "{how}"
        );
        assert!(said(&fixture, &format!("AMQ5534E QM1 {how} connection")));
        assert!(said(
            &fixture,
            "the failed authentication check was caused by CHCKLOCL(OPTIONAL) of AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS)"
        ));
    }
    // REQUIRED takes effect at REFRESH SECURITY TYPE(CONNAUTH), not at ALTER.
    auth_info(&fixture, "CHCKLOCL(REQUIRED)", false);
    for (how, connect) in BOTH {
        assert!(connect(&fixture, None).is_ok(), "{how}: before the refresh");
    }
    mqsc(&fixture, "REFRESH SECURITY TYPE(CONNAUTH)");
    for (how, connect) in BOTH {
        assert_eq!(
            reason(connect(&fixture, None)),
            MQRC_NOT_AUTHORIZED,
            "{how}"
        );
        assert_eq!(
            connect(&fixture, Some(("app", "passw0rd"))).unwrap(),
            "app",
            "{how}"
        );
        assert_eq!(
            reason(connect(&fixture, Some(("app", "wrong")))),
            MQRC_NOT_AUTHORIZED,
            "{how}"
        );
    }
    assert!(said(&fixture, "CHCKLOCL(REQUIRED)"));
    // ADOPTCTX(NO): authenticated, but the connection keeps its own user ID.
    auth_info(&fixture, "ADOPTCTX(NO)", true);
    for (how, connect) in BOTH {
        let user = connect(&fixture, Some(("app", "passw0rd"))).unwrap();
        assert_ne!(user, "app", "{how}");
    }
    // NONE: credentials are not even looked at.
    auth_info(&fixture, "CHCKLOCL(NONE) ADOPTCTX(YES)", true);
    for (how, connect) in BOTH {
        let user = connect(&fixture, Some(("app", "wrong"))).unwrap();
        assert_ne!(user, "app", "{how}");
        assert!(connect(&fixture, None).is_ok(), "{how}");
    }
    // CONNAUTH blank: nothing is checked.
    auth_info(&fixture, "CHCKLOCL(REQUIRED)", true);
    mqsc(&fixture, "ALTER QMGR CONNAUTH(' ')");
    mqsc(&fixture, "REFRESH SECURITY TYPE(CONNAUTH)");
    for (how, connect) in BOTH {
        assert!(connect(&fixture, None).is_ok(), "{how}");
    }
}

#[test]
fn a_refused_bindings_connection_ends() {
    let fixture = start(|_| {});
    auth_info(&fixture, "CHCKLOCL(REQUIRED) FAILDLAY(0)", true);
    // The refused connection is ended by the queue manager (as MQ does, so that a second
    // MQCONN on it cannot guess another password).
    let refused =
        ferrite_client::Connection::connect_with(&fixture.socket, "", &cno(Some(("app", "wrong"))));
    assert_eq!(reason(refused), MQRC_NOT_AUTHORIZED);
    // The listener serves others as before.
    assert!(bindings_user(&fixture, Some(("app", "passw0rd"))).is_ok());
}

#[test]
fn faildlay_delays_a_wrong_password_not_a_missing_one() {
    let fixture = start(|_| {});
    // A missing password is refused at once: with MQ's longest FAILDLAY (60 s) in force, an
    // answer well inside it cannot have been delayed (no tight timing: machines are noisy).
    auth_info(&fixture, "CHCKLOCL(REQUIRED) FAILDLAY(60)", true);
    for (how, connect) in BOTH {
        let started = Instant::now();
        assert_eq!(reason(connect(&fixture, None)), MQRC_NOT_AUTHORIZED);
        assert!(started.elapsed() < Duration::from_secs(30), "{how}");
    }
    // A wrong one waits at least FAILDLAY.
    auth_info(&fixture, "CHCKLOCL(REQUIRED) FAILDLAY(1)", true);
    for (how, connect) in BOTH {
        let started = Instant::now();
        assert_eq!(
            reason(connect(&fixture, Some(("app", "wrong")))),
            MQRC_NOT_AUTHORIZED
        );
        assert!(started.elapsed() >= Duration::from_secs(1), "{how}");
    }
}

#[test]
fn reqdadm_asks_privileged_users_only() {
    // The test runs as the user the queue manager runs as: privileged, as in MQ.
    let fixture = start(|config| {
        config.security = Default::default();
    });
    auth_info(&fixture, "CHCKLOCL(REQDADM) FAILDLAY(0)", true);
    for (how, connect) in BOTH {
        assert_eq!(
            reason(connect(&fixture, None)),
            MQRC_NOT_AUTHORIZED,
            "{how}"
        );
        assert_eq!(
            connect(&fixture, Some(("app", "passw0rd"))).unwrap(),
            "app",
            "{how}"
        );
    }
    assert!(said(&fixture, "CHCKLOCL(REQDADM)"));
    assert!(said(&fixture, "privileged user"));
    drop(fixture);
    // A queue manager whose owner is not privileged and with no privileged group: the same
    // user is now an ordinary one, checked as with OPTIONAL.
    let fixture = start(|config| {
        config.security.owner_privileged = false;
        config.security.privileged_group = String::new();
    });
    auth_info(&fixture, "CHCKLOCL(REQDADM) FAILDLAY(0)", true);
    for (how, connect) in BOTH {
        assert!(connect(&fixture, None).is_ok(), "{how}");
        assert_eq!(
            reason(connect(&fixture, Some(("app", "wrong")))),
            MQRC_NOT_AUTHORIZED,
            "{how}"
        );
    }
}

#[test]
fn chckclnt_reqdadm_judges_the_asserted_user() {
    // Over a client channel only the asserted user ID is known: a name the system does not
    // know is not privileged unless qm.toml lists it.
    let fixture = start(|config| {
        config.security = Default::default();
        config.security.privileged_users = vec!["mqadmin".to_string()];
    });
    auth_info(&fixture, "CHCKCLNT(REQDADM) FAILDLAY(0)", true);
    let queue_manager = fixture.queue_manager.clone();
    let policy = ferrite_server::authentication::policy(&queue_manager);
    assert_eq!(
        policy.check,
        ferrite_server::authentication::CheckClient::RequiredForPrivileged
    );
    for (user, privileged) in [("mqadmin", true), ("no-such-user-here", false), ("", false)] {
        assert_eq!(
            ferrite_server::authentication::asserted_user_is_privileged(
                &queue_manager,
                &policy,
                user
            ),
            privileged,
            "{user}"
        );
    }
    // The user this test runs as is the queue manager's owner.
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let me = ferrite_queue_manager::ConnectingUser::from_ids(uid, 0);
    if !me.name.is_empty() {
        assert!(ferrite_server::authentication::asserted_user_is_privileged(
            &queue_manager,
            &policy,
            &me.name
        ));
    }
}

#[test]
fn the_command_server_is_not_an_application() {
    // CHCKLOCL(REQUIRED) applies to applications, not to the queue manager's own command
    // server, which keeps answering an authenticated application's MQSC requests.
    let fixture = start(|_| {});
    auth_info(&fixture, "CHCKLOCL(REQUIRED) FAILDLAY(0)", true);
    let server = ferrite_command::server::CommandServer::start(fixture.queue_manager.clone());
    let mut connection = ferrite_mqi::Connection::connect_with(
        fixture.queue_manager.clone(),
        "",
        &cno(Some(("app", "passw0rd"))),
    )
    .unwrap();
    let mut md = Mqmd {
        msg_type: ferrite_constants::message_type::MQMT_REQUEST,
        reply_to_q: "Q".into(),
        ..Mqmd::default()
    };
    connection
        .put1(
            &mut Mqod::queue("SYSTEM.COMMAND.INPUT"),
            &mut md,
            &mut Mqpmo {
                options: MQPMO_NO_SYNCPOINT | MQPMO_NEW_MSG_ID,
                ..Mqpmo::default()
            },
            b"DISPLAY QMGR CHCKCLNT",
        )
        .unwrap();
    let hobj = connection
        .open(&mut Mqod::queue("Q"), MQOO_INPUT_AS_Q_DEF)
        .unwrap();
    let mut reply = Mqmd::default();
    let mut gmo = Mqgmo {
        options: MQGMO_WAIT | MQGMO_NO_SYNCPOINT,
        ..Mqgmo::default()
    };
    gmo.wait_interval = 10_000;
    let mut buffer = vec![0u8; 4096];
    let got = connection
        .get(hobj, &mut reply, &mut gmo, &mut buffer)
        .expect("the command server answers");
    let text = String::from_utf8_lossy(&buffer[..got.data_length]).to_string();
    assert!(text.starts_with("CSQN205I"), "{text}");
    connection.disconnect().unwrap();
    server.stop();
}

/// A group database that cannot be read (a directory service that is down).
struct UnreadableGroups;

impl ferrite_queue_manager::security::privileged_users::GroupDatabase for UnreadableGroups {
    fn group(
        &self,
        _name: &str,
    ) -> Result<Option<ferrite_queue_manager::security::privileged_users::GroupEntry>, String> {
        Err("Connection refused (os error 111)".to_string())
    }
}

/// Rewrites qm.toml's `[security]` while the queue manager runs, as an operator edits it.
fn edit_security(fixture: &Fixture, edit: impl FnOnce(&mut QueueManagerConfig)) {
    let path = fixture._directory.path().join("qm.toml");
    let mut config =
        QueueManagerConfig::from_toml(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut config);
    std::fs::write(&path, config.to_toml()).unwrap();
}

#[test]
fn refresh_security_rereads_the_privileged_users() {
    // The test runs as the queue manager's owner; at start it is not privileged.
    let fixture = start(|config| {
        config.security.owner_privileged = false;
        config.security.privileged_group = String::new();
    });
    auth_info(&fixture, "CHCKLOCL(REQDADM) FAILDLAY(0)", true);
    for (how, connect) in BOTH {
        assert!(connect(&fixture, None).is_ok(), "{how}");
    }
    // The operator lists the user in qm.toml: nothing changes until REFRESH SECURITY.
    // SAFETY: getuid and getgid cannot fail.
    let me = ferrite_queue_manager::ConnectingUser::from_ids(unsafe { libc::getuid() }, unsafe {
        libc::getgid()
    });
    assert!(!me.name.is_empty(), "the test user has a name");
    let name = me.name.clone();
    edit_security(&fixture, |config| {
        config.security.privileged_users = vec![name];
    });
    assert!(in_process_user(&fixture, None).is_ok(), "not yet refreshed");
    let answer = mqsc(&fixture, "REFRESH SECURITY TYPE(CONNAUTH)");
    assert!(
        answer.contains(&format!("Privileged users in force: users {}", me.name)),
        "{answer}"
    );
    for (how, connect) in BOTH {
        assert_eq!(
            reason(connect(&fixture, None)),
            MQRC_NOT_AUTHORIZED,
            "{how}: privileged since the refresh"
        );
        assert_eq!(connect(&fixture, Some(("app", "passw0rd"))).unwrap(), "app");
    }

    // A refresh that cannot read the group database keeps the set in force and says why.
    edit_security(&fixture, |config| {
        config.security.privileged_users = Vec::new();
        config.security.privileged_group = "mqm".to_string();
    });
    let error = fixture
        .queue_manager
        .refresh_connection_authentication_with(&UnreadableGroups)
        .unwrap_err()
        .to_string();
    assert!(error.contains("privileged_group \"mqm\""), "{error}");
    assert!(error.contains("Connection refused"), "{error}");
    assert!(
        error.contains(&format!("unchanged (users {})", me.name)),
        "{error}"
    );
    assert_eq!(
        reason(in_process_user(&fixture, None)),
        MQRC_NOT_AUTHORIZED,
        "the previous set is still in force"
    );

    // So does one that cannot read qm.toml: REFRESH SECURITY fails, naming the file.
    std::fs::write(fixture._directory.path().join("qm.toml"), "not = [toml").unwrap();
    let response =
        ferrite_command::run_command(&fixture.queue_manager, "REFRESH SECURITY TYPE(CONNAUTH)");
    assert!(!response.success);
    assert!(response.text().contains("qm.toml"), "{}", response.text());
    assert_eq!(reason(in_process_user(&fixture, None)), MQRC_NOT_AUTHORIZED);
}
