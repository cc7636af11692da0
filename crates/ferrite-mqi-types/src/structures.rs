//! The MQI's structures: MQMD (version 2), MQOD, MQPMO, MQGMO, MQCNO, MQCSP and MQSTS, with MQ's
//! field names
//! (in Rust case) and MQ's default values (`MQMD_DEFAULT`, `MQOD_DEFAULT`, ... as `Default`).
//!
//! Character fields (`MQCHAR`) are Rust strings: MQ pads them with blanks to their fixed length,
//! Ferrite keeps them without the trailing blanks (a blank field is the empty string). The
//! MQMD's are [`MqChar`]s, fixed-length fields held inline (`mq_char.rs`), so that an MQPUT
//! and an MQGET allocate nothing for the descriptor; the other structures' are `String`s. Binary
//! fields (`MQBYTE24`, `MQBYTE32`) and the 8-character `Format` keep MQ's fixed-size arrays, so
//! the constants of `ferrite_constants` (`MQMI_NONE`, `MQFMT_STRING`, ...) apply directly.
//! StrucId and the structure lengths are implied by the type.

use crate::calls::Hmsg;
use crate::mq_char::MqChar;
use ferrite_constants::{
    appl_type::MQAT_NO_CONTEXT,
    ccsid::MQCCSI_Q_MGR,
    completion::MQCC_OK,
    encoding::MQENC_NATIVE,
    expiry::MQEI_UNLIMITED,
    feedback::MQFB_NONE,
    format::MQFMT_NONE,
    get_options::{MQGMO_NO_WAIT, MQGS_NOT_IN_GROUP, MQSEG_INHIBITED, MQSS_NOT_A_SEGMENT},
    ids::{MQACT_NONE, MQCI_NONE, MQGI_NONE, MQMI_NONE, MQMTOK_NONE},
    match_options::{MQMO_MATCH_CORREL_ID, MQMO_MATCH_MSG_ID},
    message_flags::MQMF_NONE,
    message_type::MQMT_DATAGRAM,
    misc::MQOL_UNDEFINED,
    object_type::MQOT_Q,
    persistence::MQPER_PERSISTENCE_AS_Q_DEF,
    priority::MQPRI_PRIORITY_AS_Q_DEF,
    put_options::MQPMO_NONE,
    reason::MQRC_NONE,
    report::MQRO_NONE,
    structs::{MQCNO_VERSION_1, MQGMO_VERSION_1, MQMD_VERSION_2, MQOD_VERSION_1, MQPMO_VERSION_1},
    wait::MQWI_UNLIMITED,
};

/// MQMD, the message descriptor, version 2 (every field). `Default` is `MQMD_DEFAULT` except
/// `Version`, which is 2 (MQMD_DEFAULT has 1; every field here is present either way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqmd {
    /// Version: MQMD_VERSION_1 or MQMD_VERSION_2 (the version 2 fields are kept either way).
    pub version: i32,
    /// Report: MQRO_* report options (MQRO_NONE).
    pub report: i32,
    /// MsgType: MQMT_* (MQMT_DATAGRAM).
    pub msg_type: i32,
    /// Expiry: lifetime in tenths of a second, or MQEI_UNLIMITED (-1). On MQGET, what is left of it.
    pub expiry: i32,
    /// Feedback: MQFB_* (MQFB_NONE).
    pub feedback: i32,
    /// Encoding of numeric data in the message (MQENC_NATIVE).
    pub encoding: i32,
    /// CodedCharSetId of character data (MQCCSI_Q_MGR: the queue manager's, filled in at put).
    pub coded_char_set_id: i32,
    /// Format name, 8 characters blank padded (MQFMT_NONE).
    pub format: [u8; 8],
    /// Priority 0–9, or MQPRI_PRIORITY_AS_Q_DEF (-1: DEFPRTY of the queue).
    pub priority: i32,
    /// Persistence: MQPER_NOT_PERSISTENT, MQPER_PERSISTENT or MQPER_PERSISTENCE_AS_Q_DEF.
    pub persistence: i32,
    /// MsgId (MQMI_NONE: the queue manager generates one at put; matches any at get).
    pub msg_id: [u8; 24],
    /// CorrelId (MQCI_NONE).
    pub correl_id: [u8; 24],
    /// BackoutCount: times the message was got in a unit of work that was backed out (output).
    pub backout_count: i32,
    /// ReplyToQ (≤ 48 characters).
    pub reply_to_q: MqChar<48>,
    /// ReplyToQMgr (≤ 48 characters; blank with a ReplyToQ means this queue manager).
    pub reply_to_q_mgr: MqChar<48>,
    /// UserIdentifier, identity context (≤ 12 characters).
    pub user_identifier: MqChar<12>,
    /// AccountingToken, identity context (MQACT_NONE).
    pub accounting_token: [u8; 32],
    /// ApplIdentityData, identity context (≤ 32 characters).
    pub appl_identity_data: MqChar<32>,
    /// PutApplType, origin context: MQAT_* (MQAT_NO_CONTEXT).
    pub put_appl_type: i32,
    /// PutApplName, origin context (≤ 28 characters).
    pub put_appl_name: MqChar<28>,
    /// PutDate, origin context: YYYYMMDD (GMT).
    pub put_date: MqChar<8>,
    /// PutTime, origin context: HHMMSSTH (GMT, hundredths of a second).
    pub put_time: MqChar<8>,
    /// ApplOriginData, origin context (≤ 4 characters).
    pub appl_origin_data: MqChar<4>,
    /// GroupId (version 2; MQGI_NONE).
    pub group_id: [u8; 24],
    /// MsgSeqNumber: position in the group (version 2; 1).
    pub msg_seq_number: i32,
    /// Offset of a segment's data in the logical message (version 2; 0).
    pub offset: i32,
    /// MsgFlags: MQMF_* (version 2; MQMF_NONE).
    pub msg_flags: i32,
    /// OriginalLength of a segmented message (version 2; MQOL_UNDEFINED).
    pub original_length: i32,
}

impl Default for Mqmd {
    fn default() -> Mqmd {
        Mqmd {
            version: MQMD_VERSION_2,
            report: MQRO_NONE,
            msg_type: MQMT_DATAGRAM,
            expiry: MQEI_UNLIMITED,
            feedback: MQFB_NONE,
            encoding: MQENC_NATIVE,
            coded_char_set_id: MQCCSI_Q_MGR,
            format: MQFMT_NONE,
            priority: MQPRI_PRIORITY_AS_Q_DEF,
            persistence: MQPER_PERSISTENCE_AS_Q_DEF,
            msg_id: MQMI_NONE,
            correl_id: MQCI_NONE,
            backout_count: 0,
            reply_to_q: MqChar::EMPTY,
            reply_to_q_mgr: MqChar::EMPTY,
            user_identifier: MqChar::EMPTY,
            accounting_token: MQACT_NONE,
            appl_identity_data: MqChar::EMPTY,
            put_appl_type: MQAT_NO_CONTEXT,
            put_appl_name: MqChar::EMPTY,
            put_date: MqChar::EMPTY,
            put_time: MqChar::EMPTY,
            appl_origin_data: MqChar::EMPTY,
            group_id: MQGI_NONE,
            msg_seq_number: 1,
            offset: 0,
            msg_flags: MQMF_NONE,
            original_length: MQOL_UNDEFINED,
        }
    }
}

impl Mqmd {
    /// Whether a text field holds a longer text the application gave, cut to fit
    /// ([`MqChar::is_cut`]): MQPUT and MQPUT1 refuse it with MQRC_MD_ERROR.
    pub fn has_cut_text(&self) -> bool {
        self.reply_to_q.is_cut()
            || self.reply_to_q_mgr.is_cut()
            || self.user_identifier.is_cut()
            || self.appl_identity_data.is_cut()
            || self.put_appl_name.is_cut()
            || self.put_date.is_cut()
            || self.put_time.is_cut()
            || self.appl_origin_data.is_cut()
    }
}

/// MQOD, the object descriptor (the fields that apply to local queues and the queue manager).
/// `Default` is `MQOD_DEFAULT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqod {
    /// Version (MQOD_VERSION_1).
    pub version: i32,
    /// ObjectType: MQOT_Q, MQOT_Q_MGR, MQOT_PROCESS or MQOT_NAMELIST (MQOT_Q).
    pub object_type: i32,
    /// ObjectName (≤ 48 characters; blank for MQOT_Q_MGR).
    pub object_name: String,
    /// ObjectQMgrName: blank or this queue manager's name.
    pub object_q_mgr_name: String,
    /// DynamicQName, used when ObjectName names a model queue ("AMQ.*").
    pub dynamic_q_name: String,
    /// AlternateUserId (used with MQOO_ALTERNATE_USER_AUTHORITY).
    pub alternate_user_id: String,
    /// ResolvedQName (output, version 3): the local queue opened (an alias's target, the
    /// dynamic queue created from a model).
    pub resolved_q_name: String,
    /// ResolvedQMgrName (output, version 3).
    pub resolved_q_mgr_name: String,
    /// SelectionString (version 4): a message selector; the handle's gets return only the
    /// messages it selects. Empty: no selection.
    pub selection_string: String,
    /// ObjectString (version 4): with MQOT_TOPIC, the topic string (after the TOPIC object
    /// ObjectName names, if any, and a `/`).
    pub object_string: String,
}

impl Default for Mqod {
    fn default() -> Mqod {
        Mqod {
            version: MQOD_VERSION_1,
            object_type: MQOT_Q,
            object_name: String::new(),
            object_q_mgr_name: String::new(),
            dynamic_q_name: "AMQ.*".to_string(),
            alternate_user_id: String::new(),
            resolved_q_name: String::new(),
            resolved_q_mgr_name: String::new(),
            selection_string: String::new(),
            object_string: String::new(),
        }
    }
}

impl Mqod {
    /// An MQOD for the local queue `name`.
    pub fn queue(name: &str) -> Mqod {
        Mqod {
            object_name: name.to_string(),
            ..Mqod::default()
        }
    }
}

/// MQSD, the subscription descriptor of MQSUB (the fields Ferrite's publish/subscribe uses).
/// `Default` is `MQSD_DEFAULT`: a non-durable subscription, MQSO_NONE, SubLevel 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqsd {
    /// Options: MQSO_* (CREATE, RESUME, ALTER, DURABLE, MANAGED, WILDCARD_CHAR, ...).
    pub options: i32,
    /// ObjectName: a TOPIC object whose TOPICSTR starts the topic string (blank: none).
    pub object_name: String,
    /// ObjectString: the topic string, after the object's TOPICSTR and a `/`.
    pub object_string: String,
    /// AlternateUserId (with MQSO_ALTERNATE_USER_AUTHORITY).
    pub alternate_user_id: String,
    /// SubName: names a durable subscription (required with MQSO_DURABLE).
    pub sub_name: String,
    /// SubUserData: delivered with each publication as the MQSubUserData property.
    pub sub_user_data: String,
    /// SubCorrelId: the CorrelId of the publications delivered (input with MQSO_SET_CORREL_ID,
    /// otherwise output, generated).
    pub sub_correl_id: [u8; 24],
    /// SelectionString: an SQL92 selector the publications must pass.
    pub selection_string: String,
    /// ResObjectString (output): the full topic string subscribed to.
    pub res_object_string: String,
    /// SubLevel (0-9, initially 1): the subscription's level; with MQSO_RESUME, output.
    pub sub_level: i32,
}

impl Default for Mqsd {
    fn default() -> Mqsd {
        Mqsd {
            options: 0,
            object_name: String::new(),
            object_string: String::new(),
            alternate_user_id: String::new(),
            sub_name: String::new(),
            sub_user_data: String::new(),
            sub_correl_id: [0; 24],
            selection_string: String::new(),
            res_object_string: String::new(),
            sub_level: 1,
        }
    }
}

/// MQPMO, put-message options. `Default` is `MQPMO_DEFAULT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqpmo {
    /// Version (MQPMO_VERSION_1).
    pub version: i32,
    /// Options: MQPMO_* (MQPMO_NONE: in a unit of work, as on z/OS; default context).
    pub options: i32,
    /// Context: the object handle whose saved context MQPMO_PASS_*_CONTEXT passes.
    pub context: i32,
    /// ResolvedQName (output).
    pub resolved_q_name: String,
    /// ResolvedQMgrName (output).
    pub resolved_q_mgr_name: String,
    /// OriginalMsgHandle (version 3): properties the message carries.
    pub original_msg_handle: Option<Hmsg>,
    /// NewMsgHandle (version 3): properties that add to or replace OriginalMsgHandle's.
    pub new_msg_handle: Option<Hmsg>,
}

impl Default for Mqpmo {
    fn default() -> Mqpmo {
        Mqpmo {
            version: MQPMO_VERSION_1,
            options: MQPMO_NONE,
            context: 0,
            resolved_q_name: String::new(),
            resolved_q_mgr_name: String::new(),
            original_msg_handle: None,
            new_msg_handle: None,
        }
    }
}

impl Mqpmo {
    /// MQPMO_DEFAULT with `options`.
    pub fn with_options(options: i32) -> Mqpmo {
        Mqpmo {
            options,
            ..Mqpmo::default()
        }
    }
}

/// MQGMO, get-message options. `Default` is `MQGMO_DEFAULT` (version 1: matching on MsgId and
/// CorrelId of the MQMD whenever they are not none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqgmo {
    /// Version (MQGMO_VERSION_1). MatchOptions is used from version 2.
    pub version: i32,
    /// Options: MQGMO_* (MQGMO_NO_WAIT; in a unit of work, as on z/OS).
    pub options: i32,
    /// WaitInterval in milliseconds with MQGMO_WAIT, or MQWI_UNLIMITED.
    pub wait_interval: i32,
    /// ResolvedQName (output).
    pub resolved_q_name: String,
    /// MatchOptions (version 2): MQMO_* (MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID).
    pub match_options: i32,
    /// GroupStatus (output, version 2): MQGS_*.
    pub group_status: u8,
    /// SegmentStatus (output, version 2): MQSS_*.
    pub segment_status: u8,
    /// Segmentation (output, version 2): MQSEG_*.
    pub segmentation: u8,
    /// MsgToken (version 3).
    pub msg_token: [u8; 16],
    /// ReturnedLength (output, version 3): bytes of message data placed in the buffer.
    pub returned_length: i32,
    /// MsgHandle (version 4): the handle that receives the message's properties.
    pub msg_handle: Option<Hmsg>,
}

impl Default for Mqgmo {
    fn default() -> Mqgmo {
        Mqgmo {
            version: MQGMO_VERSION_1,
            options: MQGMO_NO_WAIT,
            wait_interval: 0,
            resolved_q_name: String::new(),
            match_options: MQMO_MATCH_MSG_ID | MQMO_MATCH_CORREL_ID,
            group_status: MQGS_NOT_IN_GROUP,
            segment_status: MQSS_NOT_A_SEGMENT,
            segmentation: MQSEG_INHIBITED,
            msg_token: MQMTOK_NONE,
            returned_length: -1,
            msg_handle: None,
        }
    }
}

impl Mqgmo {
    /// MQGMO_DEFAULT with `options`.
    pub fn with_options(options: i32) -> Mqgmo {
        Mqgmo {
            options,
            ..Mqgmo::default()
        }
    }

    /// Version 2 options matching with `match_options` (MQMO_*).
    pub fn matching(options: i32, match_options: i32) -> Mqgmo {
        Mqgmo {
            version: ferrite_constants::structs::MQGMO_VERSION_2,
            options,
            match_options,
            ..Mqgmo::default()
        }
    }

    /// Whether WaitInterval is unlimited.
    pub fn waits_forever(&self) -> bool {
        self.wait_interval == MQWI_UNLIMITED
    }
}

/// MQCNO, connect options (MQCONNX). `Default` is `MQCNO_DEFAULT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqcno {
    /// Version (MQCNO_VERSION_1).
    pub version: i32,
    /// Options: MQCNO_* (MQCNO_NONE).
    pub options: i32,
    /// ApplName (version 7): overrides the PutApplName the connection's messages carry.
    pub appl_name: String,
    /// SecurityParmsPtr (version 5): the MQCSP whose user ID and password connection
    /// authentication checks (CHCKLOCL for in-process and bindings connections).
    pub security_parms: Option<Mqcsp>,
}

/// MQCSP, security parameters with AuthenticationType MQCSP_AUTH_USER_ID_AND_PWD: a user ID
/// and password. Its `Debug` does not show the password.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Mqcsp {
    /// CSPUserIdPtr.
    pub user_id: String,
    /// CSPPasswordPtr.
    pub password: String,
}

impl Mqcsp {
    /// A user ID and password.
    pub fn user_and_password(user_id: &str, password: &str) -> Mqcsp {
        Mqcsp {
            user_id: user_id.to_string(),
            password: password.to_string(),
        }
    }
}

impl std::fmt::Debug for Mqcsp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Mqcsp {{ user_id: {:?}, password: <hidden> }}",
            self.user_id
        )
    }
}

impl Default for Mqcno {
    fn default() -> Mqcno {
        Mqcno {
            version: MQCNO_VERSION_1,
            options: 0,
            appl_name: String::new(),
            security_parms: None,
        }
    }
}

/// MQSTS: the status MQSTAT returns (version 1 fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mqsts {
    /// CompCode of the first failure (or first warning); MQCC_OK when none.
    pub comp_code: i32,
    /// Reason of the first failure (or first warning); MQRC_NONE when none.
    pub reason: i32,
    /// Asynchronous puts that succeeded since the last MQSTAT.
    pub put_success_count: i32,
    /// Asynchronous puts that completed with a warning.
    pub put_warning_count: i32,
    /// Asynchronous puts that failed.
    pub put_failure_count: i32,
    /// ObjectType of the first problem's object (MQOT_Q), 0 when none.
    pub object_type: i32,
    /// The name the application opened (an alias's name when opened through one).
    pub object_name: String,
    /// Its queue manager name.
    pub object_q_mgr_name: String,
    /// The local queue the name resolved to.
    pub resolved_object_name: String,
    /// The queue manager owning it.
    pub resolved_q_mgr_name: String,
}

impl Default for Mqsts {
    fn default() -> Mqsts {
        Mqsts {
            comp_code: MQCC_OK,
            reason: MQRC_NONE,
            put_success_count: 0,
            put_warning_count: 0,
            put_failure_count: 0,
            object_type: 0,
            object_name: String::new(),
            object_q_mgr_name: String::new(),
            resolved_object_name: String::new(),
            resolved_q_mgr_name: String::new(),
        }
    }
}
