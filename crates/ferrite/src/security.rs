//! `ferrite user` and `ferrite tls`: the queue manager's user registry (connection
//! authentication, CHCKCLNT) and its TLS key repository (SSLKEYR, the certificate SVRCONN
//! channels with SSLCIPH present). Both work whether the queue manager runs or not: the
//! running queue manager reads the registry at each authentication and the key repository
//! at each TLS connection. `--role` gives a user the web server's REST API roles
//! (ferrite-web's `web-roles`), read at each request.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use clap::Subcommand;
use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::QueueManager;
use ferrite_storage::vfs::RealFileSystem;
use ferrite_web::roles::{Role, RoleRegistry};

use crate::process;

/// `ferrite user ...`
#[derive(Subcommand)]
pub enum UserCommand {
    /// Add a user (the password is read from standard input, never from the command line).
    Add {
        queue_manager: String,
        user: String,
        /// Change the password of an existing user.
        #[arg(long)]
        replace: bool,
        /// A role of the web server's REST API: MQWebAdmin, MQWebAdminRO or MQWebUser
        /// (repeatable). With --replace and no --role the user keeps its roles.
        #[arg(long = "role")]
        roles: Vec<String>,
    },
    /// Delete a user.
    Delete { queue_manager: String, user: String },
    /// List the users.
    List { queue_manager: String },
}

/// `ferrite tls ...`
#[derive(Subcommand)]
pub enum TlsCommand {
    /// Make a self-signed certificate and key for the queue manager (tests and development):
    /// qm.crt and qm.key in its key repository (channel_initiator.ssl_key_repository).
    CreateCert { queue_manager: String },
}

fn existing_directory(name: &str) -> Result<std::path::PathBuf, String> {
    let directory = process::queue_manager_directory(name)?;
    if !QueueManager::exists(&RealFileSystem, &directory) {
        return Err(format!(
            "ferrite: queue manager {name} does not exist (create it with `ferrite create {name}`) [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    Ok(directory)
}

/// Reads a password from standard input: without echo on a terminal, else its first line.
pub(crate) fn read_password(prompt: &str) -> Result<String, String> {
    let stdin = std::io::stdin();
    let terminal = stdin.is_terminal();
    let mut saved: Option<libc::termios> = None;
    if terminal {
        eprint!("{prompt}");
        let _ = std::io::stderr().flush();
        // SAFETY: termios calls on standard input with a zeroed struct they fill in.
        unsafe {
            let mut attributes: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(0, &mut attributes) == 0 {
                saved = Some(attributes);
                attributes.c_lflag &= !libc::ECHO;
                libc::tcsetattr(0, libc::TCSANOW, &attributes);
            }
        }
    }
    let mut line = String::new();
    let read = stdin.lock().read_line(&mut line);
    if let Some(attributes) = saved {
        // SAFETY: restores the attributes read above.
        unsafe { libc::tcsetattr(0, libc::TCSANOW, &attributes) };
        eprintln!();
    }
    read.map_err(|error| format!("ferrite: cannot read the password: {error}"))?;
    let password = line.trim_end_matches(['\n', '\r']).to_string();
    if password.is_empty() {
        return Err("ferrite: no password given (type it, or pipe it on standard input)".into());
    }
    Ok(password)
}

pub fn user_command(command: UserCommand) -> Result<(), String> {
    let storage = |error: ferrite_storage::StorageError| format!("ferrite: {error}");
    match command {
        UserCommand::Add {
            queue_manager,
            user,
            replace,
            roles,
        } => {
            let directory = existing_directory(&queue_manager)?;
            ferrite_queue_manager::security::users::check_user_name(&user).map_err(storage)?;
            let roles = roles
                .iter()
                .map(|role| Role::parse(role))
                .collect::<Result<Vec<Role>, String>>()
                .map_err(|error| format!("ferrite: {error}"))?;
            let password = read_password(&format!("Password for {user}: "))?;
            UserRegistry::new(&directory)
                .add(&user, password.as_bytes(), replace)
                .map_err(storage)?;
            if !roles.is_empty() || !replace {
                RoleRegistry::new(&directory)
                    .set(&user, &roles)
                    .map_err(|error| format!("ferrite: {error}"))?;
            }
            println!(
                "User {user} {} in queue manager {queue_manager}{}.",
                if replace { "set" } else { "added" },
                role_list(&roles, " with roles ")
            );
            Ok(())
        }
        UserCommand::Delete {
            queue_manager,
            user,
        } => {
            let directory = existing_directory(&queue_manager)?;
            if UserRegistry::new(&directory)
                .delete(&user)
                .map_err(storage)?
            {
                RoleRegistry::new(&directory)
                    .set(&user, &[])
                    .map_err(|error| format!("ferrite: {error}"))?;
                println!("User {user} deleted from queue manager {queue_manager}.");
                Ok(())
            } else {
                Err(format!(
                    "ferrite: queue manager {queue_manager} has no user {user} (see `ferrite user list {queue_manager}`)"
                ))
            }
        }
        UserCommand::List { queue_manager } => {
            let directory = existing_directory(&queue_manager)?;
            let roles = RoleRegistry::new(&directory)
                .list()
                .map_err(|error| format!("ferrite: {error}"))?;
            for user in UserRegistry::new(&directory).list().map_err(storage)? {
                let given = roles
                    .iter()
                    .find(|(name, _)| *name == user)
                    .map(|(_, given)| given.as_slice())
                    .unwrap_or_default();
                println!("{user}{}", role_list(given, " "));
            }
            Ok(())
        }
    }
}

/// `prefix` and the roles' names, or nothing for no role.
fn role_list(roles: &[Role], prefix: &str) -> String {
    if roles.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = roles.iter().map(|role| role.name()).collect();
    format!("{prefix}{}", names.join(","))
}

pub fn tls_command(command: TlsCommand) -> Result<(), String> {
    match command {
        TlsCommand::CreateCert { queue_manager } => {
            let directory = existing_directory(&queue_manager)?;
            let config = QueueManager::read_config(&RealFileSystem, &directory)
                .map_err(|error| format!("ferrite: {error}"))?;
            let repository = ferrite_server::tls::key_repository(
                Path::new(&directory),
                &config.channel_initiator.ssl_key_repository,
            );
            let certificate = ferrite_server::tls::create_self_signed(&repository, &queue_manager)
                .map_err(|error| format!("ferrite: {error}"))?;
            println!(
                "Self-signed certificate for {queue_manager} written to {} (key beside it). Clients trust it by importing it, e.g. keytool -importcert -file {} -keystore trust.p12",
                certificate.display(),
                certificate.display()
            );
            Ok(())
        }
    }
}
