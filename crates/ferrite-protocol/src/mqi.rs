//! MQI structures in their wire form, in either byte order.
//!
//! Field order and sizes are IBM's documented ones (IBM MQ "MQMD", "MQOD", "MQPMO", "MQGMO",
//! "MQCNO", "MQCSP" reference pages). On the client wire the structures whose C form contains
//! pointers are sent with **4-byte pointer slots** (the 32-bit layout): Wireshark's
//! `dissect_mq_od`/`dissect_mq_pmo` size them `MQOD` 168/200/336/400 and `MQPMO` 128/152/176,
//! not the 64-bit 168/208/344/424 and 128/160/184 of `ferrite_constants::structs`. Pointer slots
//! are kept as opaque `u32`s (a receiver must not dereference them).
//!
//! Every decoder reads the `Version` field and decodes exactly that version's fields; fields of
//! later versions keep their default and are not encoded. `encode(decode(b)) == b` for every
//! valid `b` (unknown versions are rejected).
//!
//! [`Cno`] and [`Csp`] are never sent on the client wire (credentials travel in UID/CAUT,
//! connect options in MQCONN + FCNO); they are provided in their **native 64-bit Linux layout**
//! (matching `ferrite_constants::structs::MQCNO_LENGTH_*`/`MQCSP_LENGTH_*`) for the bindings
//! transport, where Ferrite defines its own framing.

use ferrite_constants::structs as s;

use crate::codec::{MqChars, ProtocolError, Reader, Result, Writer};

/// `MQOD` wire lengths (4-byte pointer slots) by version 1..=4.
pub const OD_WIRE_LENGTHS: [usize; 4] = [168, 200, 336, 400];
/// `MQPMO` wire lengths by version 1..=3.
pub const PMO_WIRE_LENGTHS: [usize; 3] = [128, 152, 176];
/// `MQGMO` lengths by version 1..=4 (no pointers: same everywhere).
pub const GMO_LENGTHS: [usize; 4] = [72, 80, 100, 112];
/// `MQMD` lengths by version 1..=2.
pub const MD_LENGTHS: [usize; 2] = [324, 364];

fn version_length(what: &'static str, version: i32, table: &[usize]) -> Result<usize> {
    usize::try_from(version)
        .ok()
        .and_then(|v| v.checked_sub(1))
        .and_then(|i| table.get(i).copied())
        .ok_or(ProtocolError::UnsupportedVersion { what, version })
}

/// Reads StrucId and Version, checks both; returns the version.
fn read_head(r: &mut Reader<'_>, id: &[u8; 4], what: &'static str, table: &[usize]) -> Result<i32> {
    r.set_what(what);
    r.expect_struct_id(id)?;
    let version = r.i32()?;
    let len = version_length(what, version, table)?;
    if r.remaining() + 8 < len {
        return Err(ProtocolError::Truncated {
            what,
            offset: r.position(),
            needed: len - 8,
            available: r.remaining(),
        });
    }
    Ok(version)
}

/// `MQMD`, message descriptor, version 1 (324 bytes) and 2 (364 bytes).
///
/// ```text
/// off len field               off len field
///   0   4 StrucId "MD  "      148  48 ReplyToQMgr
///   4   4 Version             196  12 UserIdentifier
///   8   4 Report              208  32 AccountingToken (bytes)
///  12   4 MsgType             240  32 ApplIdentityData
///  16   4 Expiry              272   4 PutApplType
///  20   4 Feedback            276  28 PutApplName
///  24   4 Encoding            304   8 PutDate
///  28   4 CodedCharSetId      312   8 PutTime
///  32   8 Format              320   4 ApplOriginData  -> 324 (v1)
///  40   4 Priority            324  24 GroupId (bytes)       v2
///  44   4 Persistence         348   4 MsgSeqNumber         v2
///  48  24 MsgId (bytes)       352   4 Offset               v2
///  72  24 CorrelId (bytes)    356   4 MsgFlags             v2
///  96   4 BackoutCount        360   4 OriginalLength  -> 364 (v2)
/// 100  48 ReplyToQ
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Md {
    pub version: i32,
    pub report: i32,
    pub msg_type: i32,
    pub expiry: i32,
    pub feedback: i32,
    pub encoding: i32,
    pub coded_char_set_id: i32,
    pub format: MqChars<8>,
    pub priority: i32,
    pub persistence: i32,
    pub msg_id: [u8; 24],
    pub correl_id: [u8; 24],
    pub backout_count: i32,
    pub reply_to_q: MqChars<48>,
    pub reply_to_q_mgr: MqChars<48>,
    pub user_identifier: MqChars<12>,
    pub accounting_token: [u8; 32],
    pub appl_identity_data: MqChars<32>,
    pub put_appl_type: i32,
    pub put_appl_name: MqChars<28>,
    pub put_date: MqChars<8>,
    pub put_time: MqChars<8>,
    pub appl_origin_data: MqChars<4>,
    pub group_id: [u8; 24],
    pub msg_seq_number: i32,
    pub offset: i32,
    pub msg_flags: i32,
    pub original_length: i32,
}

impl Default for Md {
    /// IBM's `MQMD_DEFAULT` (version 1, datagram, unlimited expiry, CCSID of the queue manager,
    /// priority and persistence as queue default, original length undefined).
    fn default() -> Self {
        Md {
            version: s::MQMD_VERSION_1,
            report: 0,
            msg_type: ferrite_constants::message_type::MQMT_DATAGRAM,
            expiry: ferrite_constants::expiry::MQEI_UNLIMITED,
            feedback: 0,
            encoding: ferrite_constants::encoding::MQENC_NATIVE,
            coded_char_set_id: ferrite_constants::ccsid::MQCCSI_Q_MGR,
            format: MqChars::BLANK,
            priority: ferrite_constants::priority::MQPRI_PRIORITY_AS_Q_DEF,
            persistence: ferrite_constants::persistence::MQPER_PERSISTENCE_AS_Q_DEF,
            msg_id: [0; 24],
            correl_id: [0; 24],
            backout_count: 0,
            reply_to_q: MqChars::BLANK,
            reply_to_q_mgr: MqChars::BLANK,
            user_identifier: MqChars::BLANK,
            accounting_token: [0; 32],
            appl_identity_data: MqChars::BLANK,
            put_appl_type: 0,
            put_appl_name: MqChars::BLANK,
            put_date: MqChars::BLANK,
            put_time: MqChars::BLANK,
            appl_origin_data: MqChars::BLANK,
            group_id: [0; 24],
            msg_seq_number: 1,
            offset: 0,
            msg_flags: 0,
            original_length: -1,
        }
    }
}

impl Md {
    /// Encoded length for this version.
    pub fn length(&self) -> Result<usize> {
        version_length("MQMD", self.version, &MD_LENGTHS)
    }

    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let version = read_head(r, &s::MQMD_STRUC_ID, "MQMD", &MD_LENGTHS)?;
        let mut md = Md {
            version,
            report: r.i32()?,
            msg_type: r.i32()?,
            expiry: r.i32()?,
            feedback: r.i32()?,
            encoding: r.i32()?,
            coded_char_set_id: r.i32()?,
            format: r.chars()?,
            priority: r.i32()?,
            persistence: r.i32()?,
            msg_id: r.array()?,
            correl_id: r.array()?,
            backout_count: r.i32()?,
            reply_to_q: r.chars()?,
            reply_to_q_mgr: r.chars()?,
            user_identifier: r.chars()?,
            accounting_token: r.array()?,
            appl_identity_data: r.chars()?,
            put_appl_type: r.i32()?,
            put_appl_name: r.chars()?,
            put_date: r.chars()?,
            put_time: r.chars()?,
            appl_origin_data: r.chars()?,
            ..Md::default()
        };
        if version >= 2 {
            md.group_id = r.array()?;
            md.msg_seq_number = r.i32()?;
            md.offset = r.i32()?;
            md.msg_flags = r.i32()?;
            md.original_length = r.i32()?;
        }
        Ok(md)
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        self.length()?;
        w.bytes(&s::MQMD_STRUC_ID);
        w.i32(self.version);
        w.i32(self.report);
        w.i32(self.msg_type);
        w.i32(self.expiry);
        w.i32(self.feedback);
        w.i32(self.encoding);
        w.i32(self.coded_char_set_id);
        w.chars(&self.format);
        w.i32(self.priority);
        w.i32(self.persistence);
        w.bytes(&self.msg_id);
        w.bytes(&self.correl_id);
        w.i32(self.backout_count);
        w.chars(&self.reply_to_q);
        w.chars(&self.reply_to_q_mgr);
        w.chars(&self.user_identifier);
        w.bytes(&self.accounting_token);
        w.chars(&self.appl_identity_data);
        w.i32(self.put_appl_type);
        w.chars(&self.put_appl_name);
        w.chars(&self.put_date);
        w.chars(&self.put_time);
        w.chars(&self.appl_origin_data);
        if self.version >= 2 {
            w.bytes(&self.group_id);
            w.i32(self.msg_seq_number);
            w.i32(self.offset);
            w.i32(self.msg_flags);
            w.i32(self.original_length);
        }
        Ok(())
    }
}

/// `MQCHARV` in its 20-byte wire form: VSPtr (4-byte slot), VSOffset, VSBufSize, VSLength,
/// VSCCSID. The string bytes live elsewhere in the flow (at `VSOffset`); resolving them is the
/// caller's job (Wireshark reads them at `VSOffset` but the base is not confirmed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct CharV {
    pub vs_ptr: u32,
    pub vs_offset: i32,
    pub vs_buf_size: i32,
    pub vs_length: i32,
    pub vs_ccsid: i32,
}

impl CharV {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        Ok(CharV {
            vs_ptr: r.u32()?,
            vs_offset: r.i32()?,
            vs_buf_size: r.i32()?,
            vs_length: r.i32()?,
            vs_ccsid: r.i32()?,
        })
    }
    fn encode(&self, w: &mut Writer) {
        w.u32(self.vs_ptr);
        w.i32(self.vs_offset);
        w.i32(self.vs_buf_size);
        w.i32(self.vs_length);
        w.i32(self.vs_ccsid);
    }
}

/// `MQOD`, object descriptor, wire form (source: Wireshark `dissect_mq_od`).
///
/// ```text
/// off len field                       off len field
///   0   4 StrucId "OD  "              184   4 ObjectRecOffset          v2
///   4   4 Version                     188   4 ResponseRecOffset        v2
///   8   4 ObjectType                  192   4 ObjectRecPtr (slot)      v2
///  12  48 ObjectName                  196   4 ResponseRecPtr (slot) -> 200 (v2)
///  60  48 ObjectQMgrName              200  40 AlternateSecurityId      v3
/// 108  48 DynamicQName                240  48 ResolvedQName            v3
/// 156  12 AlternateUserId -> 168 (v1) 288  48 ResolvedQMgrName -> 336 (v3)
/// 168   4 RecsPresent            v2   336  20 ObjectString (MQCHARV)   v4
/// 172   4 KnownDestCount         v2   356  20 SelectionString          v4
/// 176   4 UnknownDestCount       v2   376  20 ResObjectString          v4
/// 180   4 InvalidDestCount       v2   396   4 ResolvedType -> 400 (v4)
/// ```
///
/// Distribution lists (RecsPresent > 0, MQOR/MQRR records after the OD) are not decoded: flow
/// decoders reject them with [`ProtocolError::Unsupported`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Od {
    pub version: i32,
    pub object_type: i32,
    pub object_name: MqChars<48>,
    pub object_q_mgr_name: MqChars<48>,
    pub dynamic_q_name: MqChars<48>,
    pub alternate_user_id: MqChars<12>,
    pub recs_present: i32,
    pub known_dest_count: i32,
    pub unknown_dest_count: i32,
    pub invalid_dest_count: i32,
    pub object_rec_offset: i32,
    pub response_rec_offset: i32,
    pub object_rec_ptr: u32,
    pub response_rec_ptr: u32,
    pub alternate_security_id: [u8; 40],
    pub resolved_q_name: MqChars<48>,
    pub resolved_q_mgr_name: MqChars<48>,
    pub object_string: CharV,
    pub selection_string: CharV,
    pub res_object_string: CharV,
    pub resolved_type: i32,
}

impl Default for Od {
    /// IBM's `MQOD_DEFAULT` (version 1, queue, dynamic name `AMQ.*`).
    fn default() -> Self {
        Od {
            version: s::MQOD_VERSION_1,
            object_type: ferrite_constants::object_type::MQOT_Q,
            object_name: MqChars::BLANK,
            object_q_mgr_name: MqChars::BLANK,
            dynamic_q_name: MqChars::new("AMQ.*").unwrap_or_default(),
            alternate_user_id: MqChars::BLANK,
            recs_present: 0,
            known_dest_count: 0,
            unknown_dest_count: 0,
            invalid_dest_count: 0,
            object_rec_offset: 0,
            response_rec_offset: 0,
            object_rec_ptr: 0,
            response_rec_ptr: 0,
            alternate_security_id: [0; 40],
            resolved_q_name: MqChars::BLANK,
            resolved_q_mgr_name: MqChars::BLANK,
            object_string: CharV::default(),
            selection_string: CharV::default(),
            res_object_string: CharV::default(),
            resolved_type: ferrite_constants::object_type::MQOT_NONE,
        }
    }
}

impl Od {
    /// Encoded (wire) length for this version.
    pub fn length(&self) -> Result<usize> {
        version_length("MQOD", self.version, &OD_WIRE_LENGTHS)
    }

    /// True if the next bytes of `r` start with `"OD  "`.
    pub fn is_next(r: &Reader<'_>) -> bool {
        r.peek(4) == Some(&s::MQOD_STRUC_ID[..])
    }

    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let version = read_head(r, &s::MQOD_STRUC_ID, "MQOD", &OD_WIRE_LENGTHS)?;
        let mut od = Od {
            version,
            object_type: r.i32()?,
            object_name: r.chars()?,
            object_q_mgr_name: r.chars()?,
            dynamic_q_name: r.chars()?,
            alternate_user_id: r.chars()?,
            ..Od::default()
        };
        if version >= 2 {
            od.recs_present = r.i32()?;
            od.known_dest_count = r.i32()?;
            od.unknown_dest_count = r.i32()?;
            od.invalid_dest_count = r.i32()?;
            od.object_rec_offset = r.i32()?;
            od.response_rec_offset = r.i32()?;
            od.object_rec_ptr = r.u32()?;
            od.response_rec_ptr = r.u32()?;
        }
        if version >= 3 {
            od.alternate_security_id = r.array()?;
            od.resolved_q_name = r.chars()?;
            od.resolved_q_mgr_name = r.chars()?;
        }
        if version >= 4 {
            od.object_string = CharV::decode(r)?;
            od.selection_string = CharV::decode(r)?;
            od.res_object_string = CharV::decode(r)?;
            od.resolved_type = r.i32()?;
        }
        Ok(od)
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        self.length()?;
        w.bytes(&s::MQOD_STRUC_ID);
        w.i32(self.version);
        w.i32(self.object_type);
        w.chars(&self.object_name);
        w.chars(&self.object_q_mgr_name);
        w.chars(&self.dynamic_q_name);
        w.chars(&self.alternate_user_id);
        if self.version >= 2 {
            w.i32(self.recs_present);
            w.i32(self.known_dest_count);
            w.i32(self.unknown_dest_count);
            w.i32(self.invalid_dest_count);
            w.i32(self.object_rec_offset);
            w.i32(self.response_rec_offset);
            w.u32(self.object_rec_ptr);
            w.u32(self.response_rec_ptr);
        }
        if self.version >= 3 {
            w.bytes(&self.alternate_security_id);
            w.chars(&self.resolved_q_name);
            w.chars(&self.resolved_q_mgr_name);
        }
        if self.version >= 4 {
            self.object_string.encode(w);
            self.selection_string.encode(w);
            self.res_object_string.encode(w);
            w.i32(self.resolved_type);
        }
        Ok(())
    }
}

/// `MQSD` lengths by version (1) on the wire: 4-byte VSPtr slots in its MQCHARVs.
pub const SD_WIRE_LENGTHS: [usize; 1] = [312];

/// `MQSD`, subscription descriptor, wire form (IBM's Java client's SPI SUBSCRIBE; MQ's
/// documented field order, with the MQCHARVs' VSPtr as 4-byte slots). The strings' text follows
/// the MQSD in the flow, at each MQCHARV's VSOffset from the MQSD's start.
///
/// ```text
/// off len field                       off len field
///   0   4 StrucId "SD  "              176  24 SubCorrelId
///   4   4 Version                     200   4 PubPriority
///   8   4 Options                     204  32 PubAccountingToken
///  12  48 ObjectName                  236  32 PubApplIdentityData
///  60  12 AlternateUserId             268  20 SelectionString (MQCHARV)
///  72  40 AlternateSecurityId         288   4 SubLevel
/// 112   4 SubExpiry                   292  20 ResObjectString (MQCHARV) -> 312
/// 116  20 ObjectString (MQCHARV)
/// 136  20 SubName (MQCHARV)
/// 156  20 SubUserData (MQCHARV)
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Sd {
    pub version: i32,
    pub options: i32,
    pub object_name: MqChars<48>,
    pub alternate_user_id: MqChars<12>,
    pub alternate_security_id: [u8; 40],
    pub sub_expiry: i32,
    pub object_string: CharV,
    pub sub_name: CharV,
    pub sub_user_data: CharV,
    pub sub_correl_id: [u8; 24],
    pub pub_priority: i32,
    pub pub_accounting_token: [u8; 32],
    pub pub_appl_identity_data: MqChars<32>,
    pub selection_string: CharV,
    pub sub_level: i32,
    pub res_object_string: CharV,
}

impl Sd {
    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let version = read_head(r, &s::MQSD_STRUC_ID, "MQSD", &SD_WIRE_LENGTHS)?;
        Ok(Sd {
            version,
            options: r.i32()?,
            object_name: r.chars()?,
            alternate_user_id: r.chars()?,
            alternate_security_id: r.array()?,
            sub_expiry: r.i32()?,
            object_string: CharV::decode(r)?,
            sub_name: CharV::decode(r)?,
            sub_user_data: CharV::decode(r)?,
            sub_correl_id: r.array()?,
            pub_priority: r.i32()?,
            pub_accounting_token: r.array()?,
            pub_appl_identity_data: r.chars()?,
            selection_string: CharV::decode(r)?,
            sub_level: r.i32()?,
            res_object_string: CharV::decode(r)?,
        })
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        version_length("MQSD", self.version, &SD_WIRE_LENGTHS)?;
        w.bytes(&s::MQSD_STRUC_ID);
        w.i32(self.version);
        w.i32(self.options);
        w.chars(&self.object_name);
        w.chars(&self.alternate_user_id);
        w.bytes(&self.alternate_security_id);
        w.i32(self.sub_expiry);
        self.object_string.encode(w);
        self.sub_name.encode(w);
        self.sub_user_data.encode(w);
        w.bytes(&self.sub_correl_id);
        w.i32(self.pub_priority);
        w.bytes(&self.pub_accounting_token);
        w.chars(&self.pub_appl_identity_data);
        self.selection_string.encode(w);
        w.i32(self.sub_level);
        self.res_object_string.encode(w);
        Ok(())
    }
}

/// `MQPMO`, put-message options, wire form (source: Wireshark `dissect_mq_pmo`).
///
/// ```text
/// off len field                          off len field
///   0   4 StrucId "PMO "                 128   4 RecsPresent            v2
///   4   4 Version                        132   4 PutMsgRecFields        v2
///   8   4 Options                        136   4 PutMsgRecOffset        v2
///  12   4 Timeout                        140   4 ResponseRecOffset      v2
///  16   4 Context (object handle)        144   4 PutMsgRecPtr (slot)    v2
///  20   4 KnownDestCount                 148   4 ResponseRecPtr (slot) -> 152 (v2)
///  24   4 UnknownDestCount               152   8 OriginalMsgHandle      v3
///  28   4 InvalidDestCount               160   8 NewMsgHandle           v3
///  32  48 ResolvedQName                  168   4 Action                 v3
///  80  48 ResolvedQMgrName -> 128 (v1)   172   4 PubLevel -> 176 (v3)
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Pmo {
    pub version: i32,
    pub options: i32,
    pub timeout: i32,
    pub context: i32,
    pub known_dest_count: i32,
    pub unknown_dest_count: i32,
    pub invalid_dest_count: i32,
    pub resolved_q_name: MqChars<48>,
    pub resolved_q_mgr_name: MqChars<48>,
    pub recs_present: i32,
    pub put_msg_rec_fields: i32,
    pub put_msg_rec_offset: i32,
    pub response_rec_offset: i32,
    pub put_msg_rec_ptr: u32,
    pub response_rec_ptr: u32,
    pub original_msg_handle: i64,
    pub new_msg_handle: i64,
    pub action: i32,
    pub pub_level: i32,
}

impl Default for Pmo {
    /// IBM's `MQPMO_DEFAULT` (version 1, no options, timeout -1, action MQACTP_NEW, PubLevel 9).
    fn default() -> Self {
        Pmo {
            version: s::MQPMO_VERSION_1,
            options: 0,
            timeout: -1,
            context: 0,
            known_dest_count: 0,
            unknown_dest_count: 0,
            invalid_dest_count: 0,
            resolved_q_name: MqChars::BLANK,
            resolved_q_mgr_name: MqChars::BLANK,
            recs_present: 0,
            put_msg_rec_fields: 0,
            put_msg_rec_offset: 0,
            response_rec_offset: 0,
            put_msg_rec_ptr: 0,
            response_rec_ptr: 0,
            original_msg_handle: 0,
            new_msg_handle: 0,
            action: 0,
            pub_level: 9,
        }
    }
}

impl Pmo {
    /// Encoded (wire) length for this version.
    pub fn length(&self) -> Result<usize> {
        version_length("MQPMO", self.version, &PMO_WIRE_LENGTHS)
    }

    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let version = read_head(r, &s::MQPMO_STRUC_ID, "MQPMO", &PMO_WIRE_LENGTHS)?;
        let mut pmo = Pmo {
            version,
            options: r.i32()?,
            timeout: r.i32()?,
            context: r.i32()?,
            known_dest_count: r.i32()?,
            unknown_dest_count: r.i32()?,
            invalid_dest_count: r.i32()?,
            resolved_q_name: r.chars()?,
            resolved_q_mgr_name: r.chars()?,
            ..Pmo::default()
        };
        if version >= 2 {
            pmo.recs_present = r.i32()?;
            pmo.put_msg_rec_fields = r.i32()?;
            pmo.put_msg_rec_offset = r.i32()?;
            pmo.response_rec_offset = r.i32()?;
            pmo.put_msg_rec_ptr = r.u32()?;
            pmo.response_rec_ptr = r.u32()?;
        }
        if version >= 3 {
            pmo.original_msg_handle = r.i64()?;
            pmo.new_msg_handle = r.i64()?;
            pmo.action = r.i32()?;
            pmo.pub_level = r.i32()?;
        }
        Ok(pmo)
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        self.length()?;
        w.bytes(&s::MQPMO_STRUC_ID);
        w.i32(self.version);
        w.i32(self.options);
        w.i32(self.timeout);
        w.i32(self.context);
        w.i32(self.known_dest_count);
        w.i32(self.unknown_dest_count);
        w.i32(self.invalid_dest_count);
        w.chars(&self.resolved_q_name);
        w.chars(&self.resolved_q_mgr_name);
        if self.version >= 2 {
            w.i32(self.recs_present);
            w.i32(self.put_msg_rec_fields);
            w.i32(self.put_msg_rec_offset);
            w.i32(self.response_rec_offset);
            w.u32(self.put_msg_rec_ptr);
            w.u32(self.response_rec_ptr);
        }
        if self.version >= 3 {
            w.i64(self.original_msg_handle);
            w.i64(self.new_msg_handle);
            w.i32(self.action);
            w.i32(self.pub_level);
        }
        Ok(())
    }
}

/// `MQGMO`, get-message options (source: Wireshark `dissect_mq_gmo`; IBM docs).
///
/// ```text
/// off len field                        off len field
///   0   4 StrucId "GMO "                76   1 GroupStatus      v2
///   4   4 Version                       77   1 SegmentStatus    v2
///   8   4 Options                       78   1 Segmentation     v2
///  12   4 WaitInterval                  79   1 Reserved1 -> 80 (v2)
///  16   4 Signal1                       80  16 MsgToken         v3
///  20   4 Signal2                       96   4 ReturnedLength -> 100 (v3)
///  24  48 ResolvedQName -> 72 (v1)     100   4 Reserved2        v4
///  72   4 MatchOptions           v2    104   8 MsgHandle -> 112 (v4)
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Gmo {
    pub version: i32,
    pub options: i32,
    pub wait_interval: i32,
    pub signal1: i32,
    pub signal2: i32,
    pub resolved_q_name: MqChars<48>,
    pub match_options: i32,
    pub group_status: u8,
    pub segment_status: u8,
    pub segmentation: u8,
    pub reserved1: u8,
    pub msg_token: [u8; 16],
    pub returned_length: i32,
    pub reserved2: i32,
    pub msg_handle: i64,
}

impl Default for Gmo {
    /// IBM's `MQGMO_DEFAULT` (version 1, no wait, match on MsgId and CorrelId, blanks for the
    /// status characters, ReturnedLength undefined).
    fn default() -> Self {
        Gmo {
            version: s::MQGMO_VERSION_1,
            options: 0,
            wait_interval: 0,
            signal1: 0,
            signal2: 0,
            resolved_q_name: MqChars::BLANK,
            match_options: 0x3,
            group_status: b' ',
            segment_status: b' ',
            segmentation: b' ',
            reserved1: b' ',
            msg_token: [0; 16],
            returned_length: -1,
            reserved2: 0,
            msg_handle: 0,
        }
    }
}

impl Gmo {
    /// Encoded length for this version.
    pub fn length(&self) -> Result<usize> {
        version_length("MQGMO", self.version, &GMO_LENGTHS)
    }

    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let version = read_head(r, &s::MQGMO_STRUC_ID, "MQGMO", &GMO_LENGTHS)?;
        let mut gmo = Gmo {
            version,
            options: r.i32()?,
            wait_interval: r.i32()?,
            signal1: r.i32()?,
            signal2: r.i32()?,
            resolved_q_name: r.chars()?,
            ..Gmo::default()
        };
        if version >= 2 {
            gmo.match_options = r.i32()?;
            gmo.group_status = r.u8()?;
            gmo.segment_status = r.u8()?;
            gmo.segmentation = r.u8()?;
            gmo.reserved1 = r.u8()?;
        }
        if version >= 3 {
            gmo.msg_token = r.array()?;
            gmo.returned_length = r.i32()?;
        }
        if version >= 4 {
            gmo.reserved2 = r.i32()?;
            gmo.msg_handle = r.i64()?;
        }
        Ok(gmo)
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        self.length()?;
        w.bytes(&s::MQGMO_STRUC_ID);
        w.i32(self.version);
        w.i32(self.options);
        w.i32(self.wait_interval);
        w.i32(self.signal1);
        w.i32(self.signal2);
        w.chars(&self.resolved_q_name);
        if self.version >= 2 {
            w.i32(self.match_options);
            w.u8(self.group_status);
            w.u8(self.segment_status);
            w.u8(self.segmentation);
            w.u8(self.reserved1);
        }
        if self.version >= 3 {
            w.bytes(&self.msg_token);
            w.i32(self.returned_length);
        }
        if self.version >= 4 {
            w.i32(self.reserved2);
            w.i64(self.msg_handle);
        }
        Ok(())
    }
}

/// `MQCNO` lengths (native 64-bit) by version 1..=8, as `ferrite_constants`.
pub const CNO_LENGTHS: [usize; 8] = [12, 24, 152, 168, 200, 224, 256, 272];

/// `MQCNO`, connect options, **native 64-bit layout** (IBM docs field order; pointers are
/// 8-byte slots aligned to 8). Not sent on the client wire (see module docs).
///
/// ```text
/// off len field                       off len field
///   0   4 StrucId "CNO "              164  24 ConnectionId (bytes)      v5
///   4   4 Version                     188   4 SecurityParmsOffset       v5
///   8   4 Options -> 12 (v1)          192   8 SecurityParmsPtr -> 200   v5
///  12   4 ClientConnOffset      v2    200   8 CCDTUrlPtr                v6
///  16   8 ClientConnPtr -> 24   v2    208   4 CCDTUrlOffset             v6
///  24 128 ConnTag (bytes) -> 152 v3   212   4 CCDTUrlLength             v6
/// 152   8 SSLConfigPtr          v4    216   8 Reserved -> 224           v6
/// 160   4 SSLConfigOffset       v4    224  28 ApplName                  v7
/// 164   4 (padding) -> 168 (v4 only)  252   4 Reserved2 -> 256          v7
///                                     256   8 BalanceParmsPtr           v8
///                                     264   4 BalanceParmsOffset        v8
///                                     268   4 Reserved3 -> 272          v8
/// ```
/// The v4 padding is written as zeros and ignored on input.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Cno {
    pub version: i32,
    pub options: i32,
    pub client_conn_offset: i32,
    pub client_conn_ptr: u64,
    pub conn_tag: [u8; 128],
    pub ssl_config_ptr: u64,
    pub ssl_config_offset: i32,
    pub connection_id: [u8; 24],
    pub security_parms_offset: i32,
    pub security_parms_ptr: u64,
    pub ccdt_url_ptr: u64,
    pub ccdt_url_offset: i32,
    pub ccdt_url_length: i32,
    pub reserved: [u8; 8],
    pub appl_name: MqChars<28>,
    pub reserved2: [u8; 4],
    pub balance_parms_ptr: u64,
    pub balance_parms_offset: i32,
    pub reserved3: [u8; 4],
}

impl Default for Cno {
    fn default() -> Self {
        Cno {
            version: s::MQCNO_VERSION_1,
            options: 0,
            client_conn_offset: 0,
            client_conn_ptr: 0,
            conn_tag: [0; 128],
            ssl_config_ptr: 0,
            ssl_config_offset: 0,
            connection_id: [0; 24],
            security_parms_offset: 0,
            security_parms_ptr: 0,
            ccdt_url_ptr: 0,
            ccdt_url_offset: 0,
            ccdt_url_length: 0,
            reserved: [0; 8],
            appl_name: MqChars::BLANK,
            reserved2: [0; 4],
            balance_parms_ptr: 0,
            balance_parms_offset: 0,
            reserved3: [0; 4],
        }
    }
}

fn u64_slot(r: &mut Reader<'_>) -> Result<u64> {
    Ok(r.i64()? as u64)
}

impl Cno {
    /// Length for this version.
    pub fn length(&self) -> Result<usize> {
        version_length("MQCNO", self.version, &CNO_LENGTHS)
    }

    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let v = read_head(r, &s::MQCNO_STRUC_ID, "MQCNO", &CNO_LENGTHS)?;
        let mut c = Cno {
            version: v,
            options: r.i32()?,
            ..Cno::default()
        };
        if v >= 2 {
            c.client_conn_offset = r.i32()?;
            c.client_conn_ptr = u64_slot(r)?;
        }
        if v >= 3 {
            c.conn_tag = r.array()?;
        }
        if v >= 4 {
            c.ssl_config_ptr = u64_slot(r)?;
            c.ssl_config_offset = r.i32()?;
        }
        if v == 4 {
            r.bytes(4)?;
        }
        if v >= 5 {
            c.connection_id = r.array()?;
            c.security_parms_offset = r.i32()?;
            c.security_parms_ptr = u64_slot(r)?;
        }
        if v >= 6 {
            c.ccdt_url_ptr = u64_slot(r)?;
            c.ccdt_url_offset = r.i32()?;
            c.ccdt_url_length = r.i32()?;
            c.reserved = r.array()?;
        }
        if v >= 7 {
            c.appl_name = r.chars()?;
            c.reserved2 = r.array()?;
        }
        if v >= 8 {
            c.balance_parms_ptr = u64_slot(r)?;
            c.balance_parms_offset = r.i32()?;
            c.reserved3 = r.array()?;
        }
        Ok(c)
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        let v = self.version;
        self.length()?;
        w.bytes(&s::MQCNO_STRUC_ID);
        w.i32(v);
        w.i32(self.options);
        if v >= 2 {
            w.i32(self.client_conn_offset);
            w.i64(self.client_conn_ptr as i64);
        }
        if v >= 3 {
            w.bytes(&self.conn_tag);
        }
        if v >= 4 {
            w.i64(self.ssl_config_ptr as i64);
            w.i32(self.ssl_config_offset);
        }
        if v == 4 {
            w.zeros(4);
        }
        if v >= 5 {
            w.bytes(&self.connection_id);
            w.i32(self.security_parms_offset);
            w.i64(self.security_parms_ptr as i64);
        }
        if v >= 6 {
            w.i64(self.ccdt_url_ptr as i64);
            w.i32(self.ccdt_url_offset);
            w.i32(self.ccdt_url_length);
            w.bytes(&self.reserved);
        }
        if v >= 7 {
            w.chars(&self.appl_name);
            w.bytes(&self.reserved2);
        }
        if v >= 8 {
            w.i64(self.balance_parms_ptr as i64);
            w.i32(self.balance_parms_offset);
            w.bytes(&self.reserved3);
        }
        Ok(())
    }
}

/// `MQCSP` lengths (native 64-bit) by version 1..=3.
pub const CSP_LENGTHS: [usize; 3] = [56, 80, 104];

/// `MQCSP`, security parameters, **native 64-bit layout**. Not sent on the client wire.
///
/// ```text
/// off len field                       off len field
///   0   4 StrucId "CSP "               56   8 Reserved3            v2
///   4   4 Version                      64   8 InitialKeyPtr        v2
///   8   4 AuthenticationType           72   4 InitialKeyOffset     v2
///  12   4 Reserved1                    76   4 InitialKeyLength -> 80 (v2)
///  16   8 CSPUserIdPtr                 80   8 Reserved4            v3
///  24   4 CSPUserIdOffset              88   8 TokenPtr             v3
///  28   4 CSPUserIdLength              96   4 TokenOffset          v3
///  32   8 Reserved2                   100   4 TokenLength -> 104 (v3)
///  40   8 CSPPasswordPtr
///  48   4 CSPPasswordOffset
///  52   4 CSPPasswordLength -> 56 (v1)
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Csp {
    pub version: i32,
    pub authentication_type: i32,
    pub reserved1: [u8; 4],
    pub user_id_ptr: u64,
    pub user_id_offset: i32,
    pub user_id_length: i32,
    pub reserved2: [u8; 8],
    pub password_ptr: u64,
    pub password_offset: i32,
    pub password_length: i32,
    pub reserved3: [u8; 8],
    pub initial_key_ptr: u64,
    pub initial_key_offset: i32,
    pub initial_key_length: i32,
    pub reserved4: [u8; 8],
    pub token_ptr: u64,
    pub token_offset: i32,
    pub token_length: i32,
}

impl Default for Csp {
    fn default() -> Self {
        Csp {
            version: s::MQCSP_VERSION_1,
            authentication_type: 0,
            reserved1: [0; 4],
            user_id_ptr: 0,
            user_id_offset: 0,
            user_id_length: 0,
            reserved2: [0; 8],
            password_ptr: 0,
            password_offset: 0,
            password_length: 0,
            reserved3: [0; 8],
            initial_key_ptr: 0,
            initial_key_offset: 0,
            initial_key_length: 0,
            reserved4: [0; 8],
            token_ptr: 0,
            token_offset: 0,
            token_length: 0,
        }
    }
}

impl Csp {
    /// Length for this version.
    pub fn length(&self) -> Result<usize> {
        version_length("MQCSP", self.version, &CSP_LENGTHS)
    }

    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let v = read_head(r, &s::MQCSP_STRUC_ID, "MQCSP", &CSP_LENGTHS)?;
        let mut c = Csp {
            version: v,
            authentication_type: r.i32()?,
            reserved1: r.array()?,
            user_id_ptr: u64_slot(r)?,
            user_id_offset: r.i32()?,
            user_id_length: r.i32()?,
            reserved2: r.array()?,
            password_ptr: u64_slot(r)?,
            password_offset: r.i32()?,
            password_length: r.i32()?,
            ..Csp::default()
        };
        if v >= 2 {
            c.reserved3 = r.array()?;
            c.initial_key_ptr = u64_slot(r)?;
            c.initial_key_offset = r.i32()?;
            c.initial_key_length = r.i32()?;
        }
        if v >= 3 {
            c.reserved4 = r.array()?;
            c.token_ptr = u64_slot(r)?;
            c.token_offset = r.i32()?;
            c.token_length = r.i32()?;
        }
        Ok(c)
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) -> Result<()> {
        self.length()?;
        w.bytes(&s::MQCSP_STRUC_ID);
        w.i32(self.version);
        w.i32(self.authentication_type);
        w.bytes(&self.reserved1);
        w.i64(self.user_id_ptr as i64);
        w.i32(self.user_id_offset);
        w.i32(self.user_id_length);
        w.bytes(&self.reserved2);
        w.i64(self.password_ptr as i64);
        w.i32(self.password_offset);
        w.i32(self.password_length);
        if self.version >= 2 {
            w.bytes(&self.reserved3);
            w.i64(self.initial_key_ptr as i64);
            w.i32(self.initial_key_offset);
            w.i32(self.initial_key_length);
        }
        if self.version >= 3 {
            w.bytes(&self.reserved4);
            w.i64(self.token_ptr as i64);
            w.i32(self.token_offset);
            w.i32(self.token_length);
        }
        Ok(())
    }
}
