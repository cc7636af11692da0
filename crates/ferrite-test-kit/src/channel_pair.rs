//! The objects of a message channel from one queue manager to another, as MQSC, for the tests
//! and tools that start two `ferrite` queue manager processes: on the sending side a
//! transmission queue named after the receiving queue manager, a remote queue resolving to a
//! local queue there, and the SDR channel; on the receiving side the local queue and the RCVR
//! channel, with a CHLAUTH record of its own in place of the default one that blocks
//! privileged users (the MCA runs as the queue manager's user).

/// A SDR channel `channel` from one queue manager to `receiver`, whose local queue
/// `destination` the remote queue `remote_queue` names.
#[derive(Clone, Copy, Debug)]
pub struct ChannelPair<'a> {
    pub channel: &'a str,
    pub receiver: &'a str,
    pub remote_queue: &'a str,
    pub destination: &'a str,
}

impl ChannelPair<'_> {
    /// The sending queue manager's MQSC: its channel connects to 127.0.0.1(`port`), with
    /// `attributes` added to DEFINE CHANNEL (BATCHSZ, NPMSPEED, retries...).
    pub fn sender_definitions(&self, port: u16, attributes: &str) -> String {
        let ChannelPair {
            channel,
            receiver,
            remote_queue,
            destination,
        } = self;
        format!(
            "DEFINE QLOCAL({receiver}) USAGE(XMITQ) MAXDEPTH(999999999)\n\
             DEFINE QREMOTE({remote_queue}) RNAME({destination}) RQMNAME({receiver}) XMITQ({receiver})\n\
             DEFINE CHANNEL({channel}) CHLTYPE(SDR) CONNAME('127.0.0.1({port})') XMITQ({receiver}) {attributes}\n"
        )
    }

    /// The receiving queue manager's MQSC, with `attributes` added to DEFINE CHANNEL.
    pub fn receiver_definitions(&self, attributes: &str) -> String {
        let ChannelPair {
            channel,
            destination,
            ..
        } = self;
        format!(
            "DEFINE QLOCAL({destination}) MAXDEPTH(999999999)\n\
             DEFINE CHANNEL({channel}) CHLTYPE(RCVR) {attributes}\n\
             SET CHLAUTH('{channel}') TYPE(BLOCKUSER) USERLIST('nobody')\n"
        )
    }
}
