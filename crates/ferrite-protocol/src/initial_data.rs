//! The initial data (`ID  `) structure carried by INITIAL_DATA (0x01) segments: both sides
//! propose and negotiate the FAP level, capabilities and limits.
//!
//! # Layout
//!
//! Source: Wireshark `packet-mq.c` `dissect_mq_id` (offsets, field names, flag bits); confirmed
//! against the ID sent by IBM's Java client 9.4.5.0 (FAP 17, 240 bytes). Multi-byte integers
//! are in the segment's byte order; the four flag bytes are single bytes.
//!
//! ```text
//! off len field                    present from
//!   0   4 StructId "ID  "           all
//!   4   1 FapLevel                  all
//!   5   1 CapFlags1                 all   (bits: CAP1_*)
//!   6   1 ECapFlags1                all   ("E" = error/echo capability flags; meaning unconfirmed)
//!   7   1 IniErrFlags1              all   (bits: ERR1_*; set by a responder that wants renegotiation)
//!   8   2 Reserved                  all
//!  10   2 MaxMsgsPerBatch           all
//!  12   4 MaxTransmissionSize       all
//!  16   4 MaxMessageSize            all
//!  20   4 SequenceWrapValue         all
//!  24  20 ChannelName               all   -> 44 bytes for FAP < 4
//!  44   1 CapFlags2                 FAP 4+ (bits: CAP2_*)
//!  45   1 ECapFlags2                FAP 4+
//!  46   2 CCSID                     FAP 4+
//!  48  48 QMgrName                  FAP 4+
//!  96   4 HeartbeatInterval         FAP 4+ (seconds)
//! 100   2 EFLLength                 FAP 4+ -> 102 bytes for FAP 4..=8
//! 102   1 IniErrFlags2              FAP 9+ (bits: ERR2_*)
//! 103   1 Reserved1                 FAP 9+
//! 104   2 HdrCompList               FAP 9+ (header compression algorithms offered)
//! 106  16 MsgCompList               FAP 9+ (message compression algorithms offered)
//! 122   2 Reserved2                 FAP 9+
//! 124   4 SSLKeyReset               FAP 9+
//! 128   4 ConvPerSocket             FAP 9+ (SHARECNV)
//! 132   1 CapFlags3                 FAP 9+ (bits: CAP3_*)
//! 133   1 ECapFlags3                FAP 9+
//! 134   2 Reserved3                 FAP 9+
//! 136   4 ProcessId                 FAP 9+
//! 140   4 ThreadId                  FAP 9+
//! 144   4 TraceId                   FAP 9+
//! 148  12 ProductId                 FAP 9+ ("MQJB09040500" from the 9.4.5.0 Java client)
//! 160  48 QMgrId (MQMId)            FAP 9+ -> 208 bytes for FAP 9..=10
//! 208  20 "PAL"                     FAP 11+ (looks like a protection-algorithm list; unconfirmed)
//! 228  12 "R"                       FAP 11+ (looks like a nonce; differs between runs) -> 240
//! ```
//!
//! Version tiers (44/102/208/240 bytes by FAP level) are the dissector's. A peer may send fewer
//! or more bytes than its tier; this codec keeps the received length in
//! [`InitialData::wire_length`] and any bytes beyond 240 in [`InitialData::trailing`], and fields
//! that were not present decode as zero/blank. Encoding writes the full 240-byte layout
//! truncated to `wire_length` (plus `trailing`), so decode/encode is byte-identical.
//!
//! Not known publicly: the exact negotiation rules (which side lowers what), the meaning of the
//! ECapFlags bytes, the PAL/R contents and the password-protection algorithm they feed.

use crate::codec::{ByteOrder, MqChars, ProtocolError, Reader, Result, Writer};

/// `"ID  "`.
pub const ID_STRUC_ID: [u8; 4] = *b"ID  ";
/// Full length of the layout this codec knows (FAP 11 and later).
pub const ID_FULL_LENGTH: usize = 240;
/// Shortest ID accepted (the FAP < 4 layout).
pub const ID_MIN_LENGTH: usize = 44;
/// The FAP level IBM's 9.4.5.0 Java client proposes (IBM `rfpFAP_LEVEL`).
pub const FAP_LEVEL_JAVA_9_4: u8 = 17;

/// CapFlags1 0x01: message sequence numbers.
pub const CAP1_MSG_SEQ: u8 = 0x01;
/// CapFlags1 0x02: conversion capable.
pub const CAP1_CONVERSION_CAPABLE: u8 = 0x02;
/// CapFlags1 0x04: split messages (segmentation across TSHs).
pub const CAP1_SPLIT_MESSAGES: u8 = 0x04;
/// CapFlags1 0x08: request initiation.
pub const CAP1_REQUEST_INITIATION: u8 = 0x08;
/// CapFlags1 0x10: request security.
pub const CAP1_REQUEST_SECURITY: u8 = 0x10;
/// CapFlags1 0x20: MQ request (client MQI flows).
pub const CAP1_MQREQUEST: u8 = 0x20;
/// CapFlags1 0x40: server-connection security.
pub const CAP1_SVRCONN_SECURITY: u8 = 0x40;
/// CapFlags1 0x80: runtime application.
pub const CAP1_RUNTIME_APP: u8 = 0x80;

/// CapFlags2 0x01: distribution lists.
pub const CAP2_DIST_LIST: u8 = 0x01;
/// CapFlags2 0x02: fast messages required.
pub const CAP2_FAST_MESSAGES_REQUIRED: u8 = 0x02;
/// CapFlags2 0x04: responder conversion.
pub const CAP2_RESPONDER_CONVERSION: u8 = 0x04;
/// CapFlags2 0x08: dual unit of work.
pub const CAP2_DUAL_UOW: u8 = 0x08;
/// CapFlags2 0x10: XA request.
pub const CAP2_XAREQUEST: u8 = 0x10;
/// CapFlags2 0x20: XA runtime application.
pub const CAP2_XARUNTIME_APP: u8 = 0x20;
/// CapFlags2 0x40: SPI request (used by the Java/JMS client).
pub const CAP2_SPIREQUEST: u8 = 0x40;
/// CapFlags2 0x80: trace route capable.
pub const CAP2_TRACE_ROUTE: u8 = 0x80;

/// CapFlags3 0x01: message properties capable.
pub const CAP3_MSG_PROP: u8 = 0x01;
/// CapFlags3 0x02: multicast capable (bit inferred from the dissector's field order).
pub const CAP3_MULTICAST: u8 = 0x02;
/// CapFlags3 0x04: message property integers separate (bit inferred from field order).
pub const CAP3_MSG_PROP_INT_SEPARATE: u8 = 0x04;
/// CapFlags3 0x08: multiplexed synchronous get (offered by the 9.4.5.0 Java client).
pub const CAP3_MULTIPLEX_SYNCGET: u8 = 0x08;
/// CapFlags3 0x10: protection algorithms.
pub const CAP3_PROT_ALGORITHMS: u8 = 0x10;
/// CapFlags3 0x20: generate/return connection tag capable.
pub const CAP3_GEN_CONNTAG: u8 = 0x20;

/// IniErrFlags1 0x01: CCSID not supported.
pub const ERR1_CCSID: u8 = 0x01;
/// IniErrFlags1 0x02: encoding invalid.
pub const ERR1_ENCODING: u8 = 0x02;
/// IniErrFlags1 0x04: MaxTransmissionSize not acceptable.
pub const ERR1_MAX_TRANSMISSION_SIZE: u8 = 0x04;
/// IniErrFlags1 0x08: FAP level not acceptable.
pub const ERR1_FAP_LEVEL: u8 = 0x08;
/// IniErrFlags1 0x10: MaxMessageSize not acceptable.
pub const ERR1_MAX_MSG_SIZE: u8 = 0x10;
/// IniErrFlags1 0x20: MaxMsgsPerBatch not acceptable.
pub const ERR1_MAX_MSG_PER_BATCH: u8 = 0x20;
/// IniErrFlags1 0x40: SequenceWrapValue not acceptable.
pub const ERR1_SEQ_WRAP: u8 = 0x40;
/// IniErrFlags1 0x80: HeartbeatInterval not acceptable.
pub const ERR1_HB_INTERVAL: u8 = 0x80;

/// IniErrFlags2 0x01: header compression list.
pub const ERR2_HDRCOMPLIST: u8 = 0x01;
/// IniErrFlags2 0x02: message compression list.
pub const ERR2_MSGCOMPLIST: u8 = 0x02;
/// IniErrFlags2 0x04: SSL key reset.
pub const ERR2_SSL_RESET: u8 = 0x04;

/// The decoded ID structure (all FAP levels; see the module docs for which fields exist at which
/// level).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialData {
    /// Offset 4: FAP level.
    pub fap_level: u8,
    /// Offset 5: CapFlags1.
    pub cap_flags1: u8,
    /// Offset 6: ECapFlags1.
    pub ecap_flags1: u8,
    /// Offset 7: IniErrFlags1.
    pub ini_err_flags1: u8,
    /// Offset 8: reserved (2 bytes, kept in the segment byte order).
    pub reserved: u16,
    /// Offset 10: MaxMsgsPerBatch.
    pub max_msgs_per_batch: u16,
    /// Offset 12: MaxTransmissionSize (the largest segment, header included).
    pub max_transmission_size: u32,
    /// Offset 16: MaxMessageSize.
    pub max_message_size: u32,
    /// Offset 20: SequenceWrapValue.
    pub sequence_wrap_value: u32,
    /// Offset 24: channel name (20 bytes).
    pub channel_name: MqChars<20>,
    /// Offset 44: CapFlags2 (FAP 4+).
    pub cap_flags2: u8,
    /// Offset 45: ECapFlags2.
    pub ecap_flags2: u8,
    /// Offset 46: CCSID.
    pub ccsid: u16,
    /// Offset 48: queue manager name (48 bytes).
    pub qmgr_name: MqChars<48>,
    /// Offset 96: heartbeat interval in seconds.
    pub heartbeat_interval: u32,
    /// Offset 100: EFLLength (meaning unconfirmed; 138 from the Java client).
    pub efl_length: u16,
    /// Offset 102: IniErrFlags2 (FAP 9+).
    pub ini_err_flags2: u8,
    /// Offset 103: reserved.
    pub reserved1: u8,
    /// Offset 104: header compression list.
    pub hdr_comp_list: [u8; 2],
    /// Offset 106: message compression list.
    pub msg_comp_list: [u8; 16],
    /// Offset 122: reserved.
    pub reserved2: u16,
    /// Offset 124: SSL key reset count.
    pub ssl_key_reset: u32,
    /// Offset 128: conversations per socket (SHARECNV); FT_INT32 in the dissector.
    pub conv_per_socket: i32,
    /// Offset 132: CapFlags3.
    pub cap_flags3: u8,
    /// Offset 133: ECapFlags3.
    pub ecap_flags3: u8,
    /// Offset 134: reserved.
    pub reserved3: u16,
    /// Offset 136: process id of the sender.
    pub process_id: u32,
    /// Offset 140: thread id of the sender.
    pub thread_id: u32,
    /// Offset 144: trace id.
    pub trace_id: u32,
    /// Offset 148: product id (12 bytes).
    pub product_id: MqChars<12>,
    /// Offset 160: queue manager identifier (48 bytes).
    pub qmgr_id: MqChars<48>,
    /// Offset 208: "PAL" (20 opaque bytes, FAP 11+).
    pub pal: [u8; 20],
    /// Offset 228: "R" (12 opaque bytes, FAP 11+).
    pub r: [u8; 12],
    /// Number of bytes of the 240-byte layout present on the wire (44..=240).
    pub wire_length: usize,
    /// Bytes received beyond offset 240 (none seen so far), preserved.
    pub trailing: Vec<u8>,
}

impl InitialData {
    /// The ID length the dissector associates with a FAP level: 44 (< 4), 102 (4..=8),
    /// 208 (9..=10), 240 (11+).
    pub fn length_for_fap_level(fap_level: u8) -> usize {
        match fap_level {
            0..=3 => 44,
            4..=8 => 102,
            9..=10 => 208,
            _ => 240,
        }
    }

    /// A blank ID for `fap_level`, with `wire_length` set to that level's length.
    pub fn new(fap_level: u8) -> Self {
        InitialData {
            fap_level,
            cap_flags1: 0,
            ecap_flags1: 0,
            ini_err_flags1: 0,
            reserved: 0,
            max_msgs_per_batch: 0,
            max_transmission_size: 0,
            max_message_size: 0,
            sequence_wrap_value: 0,
            channel_name: MqChars::BLANK,
            cap_flags2: 0,
            ecap_flags2: 0,
            ccsid: 0,
            qmgr_name: MqChars::BLANK,
            heartbeat_interval: 0,
            efl_length: 0,
            ini_err_flags2: 0,
            reserved1: 0,
            hdr_comp_list: [0; 2],
            msg_comp_list: [0; 16],
            reserved2: 0,
            ssl_key_reset: 0,
            conv_per_socket: 0,
            cap_flags3: 0,
            ecap_flags3: 0,
            reserved3: 0,
            process_id: 0,
            thread_id: 0,
            trace_id: 0,
            product_id: MqChars::BLANK,
            qmgr_id: MqChars::BLANK,
            pal: [0; 20],
            r: [0; 12],
            wire_length: Self::length_for_fap_level(fap_level),
            trailing: Vec::new(),
        }
    }

    /// Decodes an ID from a whole INITIAL_DATA payload.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        if payload.len() < ID_MIN_LENGTH {
            return Err(ProtocolError::Truncated {
                what: "initial data (ID)",
                offset: payload.len(),
                needed: ID_MIN_LENGTH - payload.len(),
                available: 0,
            });
        }
        let wire_length = payload.len().min(ID_FULL_LENGTH);
        let mut full = [0u8; ID_FULL_LENGTH];
        full[..wire_length].copy_from_slice(&payload[..wire_length]);
        let mut r = Reader::new(&full, order, "initial data (ID)");
        r.expect_struct_id(&ID_STRUC_ID)?;
        Ok(InitialData {
            fap_level: r.u8()?,
            cap_flags1: r.u8()?,
            ecap_flags1: r.u8()?,
            ini_err_flags1: r.u8()?,
            reserved: r.u16()?,
            max_msgs_per_batch: r.u16()?,
            max_transmission_size: r.u32()?,
            max_message_size: r.u32()?,
            sequence_wrap_value: r.u32()?,
            channel_name: r.chars()?,
            cap_flags2: r.u8()?,
            ecap_flags2: r.u8()?,
            ccsid: r.u16()?,
            qmgr_name: r.chars()?,
            heartbeat_interval: r.u32()?,
            efl_length: r.u16()?,
            ini_err_flags2: r.u8()?,
            reserved1: r.u8()?,
            hdr_comp_list: r.array()?,
            msg_comp_list: r.array()?,
            reserved2: r.u16()?,
            ssl_key_reset: r.u32()?,
            conv_per_socket: r.i32()?,
            cap_flags3: r.u8()?,
            ecap_flags3: r.u8()?,
            reserved3: r.u16()?,
            process_id: r.u32()?,
            thread_id: r.u32()?,
            trace_id: r.u32()?,
            product_id: r.chars()?,
            qmgr_id: r.chars()?,
            pal: r.array()?,
            r: r.array()?,
            wire_length,
            trailing: payload[wire_length..].to_vec(),
        })
    }

    /// Encodes: the 240-byte layout truncated to `wire_length` (clamped to 44..=240), then
    /// `trailing`.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.bytes(&ID_STRUC_ID);
        w.u8(self.fap_level);
        w.u8(self.cap_flags1);
        w.u8(self.ecap_flags1);
        w.u8(self.ini_err_flags1);
        w.u16(self.reserved);
        w.u16(self.max_msgs_per_batch);
        w.u32(self.max_transmission_size);
        w.u32(self.max_message_size);
        w.u32(self.sequence_wrap_value);
        w.chars(&self.channel_name);
        w.u8(self.cap_flags2);
        w.u8(self.ecap_flags2);
        w.u16(self.ccsid);
        w.chars(&self.qmgr_name);
        w.u32(self.heartbeat_interval);
        w.u16(self.efl_length);
        w.u8(self.ini_err_flags2);
        w.u8(self.reserved1);
        w.bytes(&self.hdr_comp_list);
        w.bytes(&self.msg_comp_list);
        w.u16(self.reserved2);
        w.u32(self.ssl_key_reset);
        w.i32(self.conv_per_socket);
        w.u8(self.cap_flags3);
        w.u8(self.ecap_flags3);
        w.u16(self.reserved3);
        w.u32(self.process_id);
        w.u32(self.thread_id);
        w.u32(self.trace_id);
        w.chars(&self.product_id);
        w.chars(&self.qmgr_id);
        w.bytes(&self.pal);
        w.bytes(&self.r);
        let mut out = w.into_bytes();
        debug_assert_eq!(out.len(), ID_FULL_LENGTH);
        out.truncate(self.wire_length.clamp(ID_MIN_LENGTH, ID_FULL_LENGTH));
        out.extend_from_slice(&self.trailing);
        out
    }
}
