//! `-u USER` (runmqsc -u) and MQSAMP_USER_ID (amqsputc): the password from standard input's
//! first line, judged by CHCKLOCL(REQUIRED) for the bindings socket of a running queue manager
//! and for a stopped one the command opens in-process; a wrong or missing password fails with
//! MQRC_NOT_AUTHORIZED (2035) in the message and a non-zero exit status.

mod support;

use std::path::Path;
use std::process::Output;

use ferrite_test_kit::process::{in_home, run_with_stdin, succeeded, text};
use support::{stop_on_drop, FERRITE};

fn ferrite(home: &Path, arguments: &[&str], environment: &[(&str, &str)], stdin: &str) -> Output {
    let mut command = in_home(FERRITE, home);
    command.env_remove("MQSERVER").env_remove("MQSAMP_USER_ID");
    for (name, value) in environment {
        command.env(name, value);
    }
    command.args(arguments);
    run_with_stdin(command, stdin)
}

fn ok(home: &Path, arguments: &[&str], environment: &[(&str, &str)], stdin: &str) -> String {
    succeeded(arguments, &ferrite(home, arguments, environment, stdin))
}

/// The command fails with 2035 and a message that names the reason and `hint`.
fn refused(home: &Path, arguments: &[&str], environment: &[(&str, &str)], stdin: &str, hint: &str) {
    let output = ferrite(home, arguments, environment, stdin);
    let said = text(&output);
    assert!(!output.status.success(), "ferrite {arguments:?}: {said}");
    assert!(
        said.contains("[reason 2035 MQRC_NOT_AUTHORIZED]"),
        "ferrite {arguments:?}: {said}"
    );
    assert!(said.contains(hint), "ferrite {arguments:?}: {said}");
}

const Q: &str = "SYSTEM.DEFAULT.LOCAL.QUEUE";
const WRONG: &str = "user ID 'app' and its password were not accepted";

#[test]
fn user_and_password_with_chcklocl_required() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(home, &["start", "UQM", "--background"], &[], "");
    let _running = stop_on_drop(home, "UQM");
    ok(home, &["user", "add", "UQM", "app"], &[], "passw0rd\n");
    ok(
        home,
        &["mqsc", "UQM"],
        &[],
        // ADOPTCTX(YES): the commands run as app, granted what they use as an administrator
        // would.
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT,INQ,DSP)\n\
         SET AUTHREC PROFILE('SYSTEM.COMMAND.INPUT') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)\n\
         SET AUTHREC PROFILE('SYSTEM.MQSC.REPLY.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(GET,BROWSE,INQ)\n\
         SET AUTHREC PROFILE('SYSTEM.DEFAULT.LOCAL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT,GET,BROWSE,INQ)\n\
         ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKLOCL(REQUIRED) FAILDLAY(0)\n\
         REFRESH SECURITY TYPE(CONNAUTH)\n",
    );

    // MQSC: the first line of stdin is the password, the rest the commands.
    let console = ok(
        home,
        &["mqsc", "UQM", "-u", "app"],
        &[],
        "passw0rd\nDISPLAY QMGR QMNAME\n",
    );
    assert!(console.contains("QMNAME(UQM)"), "{console}");
    assert!(!console.contains("passw0rd"), "the password is not echoed");
    refused(
        home,
        &["mqsc", "UQM", "-u", "app"],
        &[],
        "wrong\nDISPLAY QMGR\n",
        WRONG,
    );
    refused(home, &["mqsc", "UQM"], &[], "DISPLAY QMGR\n", "-u USER");

    // The samples: -u, or MQSAMP_USER_ID as amqsputc reads it.
    ok(
        home,
        &["put", "UQM", Q, "-u", "app"],
        &[],
        "passw0rd\none\ntwo\n",
    );
    refused(
        home,
        &["put", "UQM", Q, "-u", "app"],
        &[],
        "wrong\nthree\n",
        WRONG,
    );
    let sample_user = [("MQSAMP_USER_ID", "app")];
    let browsed = ok(home, &["browse", "UQM", Q], &sample_user, "passw0rd\n");
    assert_eq!(browsed.matches("Message ").count(), 2, "{browsed}");
    refused(home, &["browse", "UQM", Q], &sample_user, "wrong\n", WRONG);
    assert_eq!(
        ok(home, &["get", "UQM", Q], &sample_user, "passw0rd\n"),
        "one\ntwo\n"
    );
    refused(home, &["get", "UQM", Q], &[], "", "-u USER");
    refused(
        home,
        &["trigmon", "UQM", "-u", "app"],
        &[],
        "wrong\n",
        WRONG,
    );
    // No password at all: a clear error before any connection.
    let output = ferrite(home, &["get", "UQM", Q, "-u", "app"], &[], "");
    assert!(!output.status.success());
    assert!(
        text(&output).contains("no password given"),
        "{}",
        text(&output)
    );

    // A stopped queue manager, opened in-process by the command: the same check.
    ok(home, &["stop", "UQM"], &[], "");
    refused(
        home,
        &["mqsc", "UQM", "-u", "app"],
        &[],
        "wrong\nDISPLAY QMGR QMNAME\n",
        WRONG,
    );
    let console = ok(
        home,
        &["mqsc", "UQM", "-u", "app"],
        &[],
        "passw0rd\nDISPLAY QMGR QMNAME\n",
    );
    assert!(console.contains("QMNAME(UQM)"), "{console}");
}
