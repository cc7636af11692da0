//! REFRESH SECURITY: put a changed connection authentication configuration in force.
//!
//! As in MQ, ALTER AUTHINFO and ALTER QMGR CONNAUTH change the stored objects only;
//! `REFRESH SECURITY TYPE(CONNAUTH)` makes connection authentication use the AUTHINFO that
//! CONNAUTH names now (`QueueManager::refresh_connection_authentication`). Ferrite caches no
//! other security data (no authority service, and the TLS key repository is read per
//! connection) beyond the privileged users REQDADM asks (qm.toml `[security]` and the
//! privileged group's entry in the group database, re-read by the same refresh), so
//! TYPE(CONNAUTH) is the one type it refreshes; REFRESH SECURITY without TYPE
//! or with `(*)` refreshes it too. TYPE(AUTHSERV), the authorization service's refresh, puts
//! the stored authority records in force again (they are in force from the moment they are
//! set; a user's groups are read from the operating system at each connection) and says how
//! many there are. TYPE(SSL) answers CSQ9032E.

use crate::context::{
    choice, keywords, object_name, value_error, Context, Failure, Outcome, Output, Takes,
};

/// REFRESH SECURITY's TYPE values (MQ's), the first the one Ferrite refreshes.
const REFRESH_TYPES: [&str; 3] = ["CONNAUTH", "AUTHSERV", "SSL"];

pub(crate) fn refresh_security(
    context: &Context,
    object: &crate::parser::Token,
    rest: &[crate::parser::Token],
) -> Outcome {
    // REFRESH SECURITY(*): z/OS names the classes to refresh; every class means everything.
    if let Some(value) = &object.value {
        let classes = object_name(object, true).map_err(|e| context.syntax(e))?;
        if classes != "*" {
            return Err(context.syntax(value_error(
                object,
                value,
                "Ferrite keeps no security classes: only SECURITY(*) is supported",
            )));
        }
    }
    let found = keywords(rest, &[("TYPE", Takes::Value)]).map_err(|e| context.syntax(e))?;
    for (token, value) in &found {
        let value = value.expect("TYPE takes a value");
        let chosen = choice(token, value, &REFRESH_TYPES).map_err(|e| context.syntax(e))?;
        if chosen == 1 {
            context.queue_manager.reload_authority_records();
            let mut output = Output::default();
            output.report(&format!(
                "Authority records in force: {}; users' groups are read from the operating system at each connection",
                context.queue_manager.authority_records().records().len()
            ));
            return Ok(output);
        }
        if chosen != 0 {
            return Err(Failure(vec![format!(
                "CSQ9032E {} CSQHREFR Requested function is not available: TYPE({}) (Ferrite refreshes TYPE(CONNAUTH) and TYPE(AUTHSERV))",
                context.name, value.text
            )]));
        }
    }
    let in_force = context
        .queue_manager
        .refresh_connection_authentication()
        .map_err(|error| context.storage("CSQHREFR", error))?;
    let mut output = Output::default();
    output.report(&match in_force.definition {
        Some(definition) => format!(
            "CONNAUTH({}) in force: CHCKCLNT({}) CHCKLOCL({}) ADOPTCTX({}) FAILDLAY({})",
            definition.name,
            definition.check_client,
            definition.check_local,
            if definition.adopt_context {
                "YES"
            } else {
                "NO"
            },
            definition.fail_delay_seconds
        ),
        None => "CONNAUTH( ) in force: user IDs and passwords are not checked".to_string(),
    });
    output.report(&format!(
        "Privileged users in force: {}",
        in_force.privileged_users.describe()
    ));
    Ok(output)
}
