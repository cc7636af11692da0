//! Who may connect, and as whom: MQ's channel authentication records (CHLAUTH), connection
//! authentication (CONNAUTH and its AUTHINFO), the privileged users REQDADM asks a password
//! of, and the queue manager's own registry of user IDs and passwords.

pub mod authorization;
pub mod channel_authentication;
pub mod connection_authentication;
pub mod privileged_users;
pub mod users;

pub use authorization::Principal;
pub use connection_authentication::{
    ConnectionAuthentication, CredentialCheck, LocalAuthentication,
};
pub use privileged_users::ConnectingUser;
