//! Channel authentication records (CHLAUTH) applied to a client connection at MQCONN, before
//! connection authentication: the queue manager's records decide
//! (`ferrite_storage::queue_manager::channel_authentication`), this module acts. A blocked
//! connection's MQCONN fails with MQRC_NOT_AUTHORIZED (2035) and the log says which record
//! blocked it (AMQ9776E BLOCKUSER, AMQ9777E USERSRC(NOACCESS), AMQ9782E BLOCKADDR); a record
//! with WARN(YES) only logs (AMQ9787W) and lets it go ahead; a USERSRC(MAP) record gives the
//! connection the record's MCAUSER in place of the channel's.

use std::net::IpAddr;

use ferrite_constants::reason::MQRC_NOT_AUTHORIZED;
use ferrite_storage::queue_manager::channel_authentication::{
    ChannelAuthenticationDecision, ConnectionToCheck,
};
use ferrite_storage::queue_manager::objects::ChannelDefinition;
use ferrite_storage::queue_manager::QueueManager;

/// Check a connection to `channel` from `address` asserting `client_user`. Returns the
/// channel definition the connection runs under (MCAUSER mapped), or the reason its MQCONN
/// fails.
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
    match decision {
        ChannelAuthenticationDecision::Blocked { message } => {
            log(&format!(
                "{message}; the client's MQCONN fails with 2035 MQRC_NOT_AUTHORIZED (DISPLAY CHLAUTH('{}') MATCH(RUNCHECK) ADDRESS('{address}') CLNTUSER('{client_user}') shows the record; SET CHLAUTH changes it)",
                channel.name
            ));
            Err(MQRC_NOT_AUTHORIZED)
        }
        ChannelAuthenticationDecision::Allowed { mca_user, warnings } => {
            for warning in warnings {
                log(&warning);
            }
            let mut channel = channel.clone();
            if let Some(user) = mca_user {
                channel.mca_user = user;
            }
            Ok(channel)
        }
    }
}
