//! Channel authentication records (CHLAUTH) applied to a client connection at MQCONN, before
//! connection authentication: the queue manager's records decide
//! (`ferrite_queue_manager::security::channel_authentication`), this module acts. A blocked
//! connection's MQCONN fails with MQRC_NOT_AUTHORIZED (2035) and the log says which record
//! blocked it (AMQ9776E BLOCKUSER, AMQ9777E USERSRC(NOACCESS), AMQ9782E BLOCKADDR); a record
//! with WARN(YES) only logs (AMQ9787W) and lets it go ahead; a USERSRC(MAP) record gives the
//! connection the record's MCAUSER in place of the channel's. With QMGR CHLEV(EXCEPTION) or
//! CHLEV(ENABLED), each refusal and each warning also puts MQ's Channel Blocked event on
//! SYSTEM.ADMIN.CHANNEL.EVENT.

use std::net::IpAddr;

use ferrite_constants::reason::MQRC_NOT_AUTHORIZED;
use ferrite_mqi::channel_events::{write_channel_blocked, ChannelBlocked};
use ferrite_queue_manager::objects::ChannelDefinition;
use ferrite_queue_manager::security::channel_authentication::{
    ChannelAuthenticationDecision, ConnectionToCheck, Refusal,
};
use ferrite_queue_manager::QueueManager;

/// Check a connection to `channel` from `address` asserting `client_user`. Returns the
/// channel definition the connection runs under (MCAUSER mapped), or the reason its MQCONN
/// fails. A refusal, and each WARN(YES) record that would have refused, also puts a Channel
/// Blocked event when CHLEV asks for one (`ferrite_mqi::channel_events`).
pub fn check(
    queue_manager: &QueueManager,
    channel: &ChannelDefinition,
    address: IpAddr,
    client_user: &str,
    log: &dyn Fn(&str),
) -> Result<ChannelDefinition, i32> {
    let decision = queue_manager.check_channel_authentication(&ConnectionToCheck {
        channel: &channel.name,
        address,
        client_user,
        channel_mca_user: &channel.mca_user,
    });
    let connection_name = address.to_string();
    let event = |refusal: &Refusal, warning: bool| {
        write_channel_blocked(
            queue_manager,
            &ChannelBlocked {
                refusal,
                warning,
                channel: &channel.name,
                connection_name: &connection_name,
            },
            log,
        );
    };
    match decision {
        ChannelAuthenticationDecision::Blocked {
            message,
            cause,
            user,
        } => {
            log(&format!(
                "{message}; the client's MQCONN fails with 2035 MQRC_NOT_AUTHORIZED (DISPLAY CHLAUTH('{}') MATCH(RUNCHECK) ADDRESS('{address}') CLNTUSER('{client_user}') shows the record; SET CHLAUTH changes it)",
                channel.name
            ));
            event(
                &Refusal {
                    message,
                    cause,
                    user,
                },
                false,
            );
            Err(MQRC_NOT_AUTHORIZED)
        }
        ChannelAuthenticationDecision::Allowed { mca_user, warnings } => {
            for warning in &warnings {
                log(&warning.message);
                event(warning, true);
            }
            let mut channel = channel.clone();
            if let Some(user) = mca_user {
                channel.mca_user = user;
            }
            Ok(channel)
        }
    }
}
