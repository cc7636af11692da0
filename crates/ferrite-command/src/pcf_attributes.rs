//! The PCF form of displayed attributes: for each object type a table (`Mapping`) from the
//! MQSC keyword DISPLAY shows to its PCF parameter (MQCA_*/MQIA_*/MQIACF_*/MQCACH_* with MQ's
//! constant for each keyword value). PCF inquiries answer through it, PCF creates and changes
//! read their parameters back through it, and configuration events report objects with it.

use ferrite_constants::{
    appl_type::*, channel::*, definition_type::*, index_type::*, message_delivery_sequence::*,
    misc::*, object_type::*, open_options::*, pcf_selector::*, persistence::*, platform::*,
    priority::*, queue_type::*, selector::*, shareability::*, syncpoint::*, trigger_type::*,
};
use ferrite_queue_manager::objects::message_channel::{
    HEADER_COMPRESSION_KEYWORDS, MESSAGE_COMPRESSION_KEYWORDS,
};
use ferrite_queue_manager::{ObjectDefinition, ObjectTimes, ObjectType};

use crate::attributes::AttributeValue;
use crate::object_commands;
use crate::pcf::Parameter;
use crate::qmgr_commands;

/// How a displayed attribute's value becomes a PCF parameter.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// MQCFST.
    Text,
    /// MQCFIN: keyword values as MQ's constants (numbers pass as they are).
    Integer(&'static [(&'static str, i32)]),
    /// MQCFSL from a comma-separated list (NAMES).
    TextList,
    /// MQCFIL of two values, -1 each when blank (QTIME).
    Pair,
    /// MQCFBS: a connection identifier shown as 16 hexadecimal digits.
    ConnectionId,
    /// MQCFBS: a 24-byte identifier shown as 48 hexadecimal digits (SUBID, DESTCORL).
    Identifier,
    /// MQCFIN from a keyword shown alone (SHARE or NOSHARE): the values are the keywords.
    Flag(&'static [(&'static str, i32)]),
    /// MQCFIL from keywords separated by commas (COMPHDR, COMPMSG): the values are the
    /// keywords' constants.
    KeywordList(&'static [(&'static str, i32)]),
}

/// One attribute: its MQSC keyword, its PCF parameter identifier, how its value maps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mapping {
    pub(crate) keyword: &'static str,
    pub(crate) selector: i32,
    pub(crate) kind: Kind,
}

const fn text(keyword: &'static str, selector: i32) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::Text,
    }
}

const fn integer(keyword: &'static str, selector: i32) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::Integer(&[]),
    }
}

const fn flag(
    keyword: &'static str,
    selector: i32,
    values: &'static [(&'static str, i32)],
) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::Flag(values),
    }
}

const fn pair(keyword: &'static str, selector: i32) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::Pair,
    }
}

const fn keyword_list(
    keyword: &'static str,
    selector: i32,
    values: &'static [(&'static str, i32)],
) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::KeywordList(values),
    }
}

const fn choice(
    keyword: &'static str,
    selector: i32,
    values: &'static [(&'static str, i32)],
) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::Integer(values),
    }
}

const QSGDISP: &[(&str, i32)] = &[("QMGR", MQQSGD_Q_MGR)];
const QUEUE_TYPES: &[(&str, i32)] = &[
    ("QLOCAL", MQQT_LOCAL),
    ("QMODEL", MQQT_MODEL),
    ("QALIAS", MQQT_ALIAS),
    ("QREMOTE", MQQT_REMOTE),
];
const ENABLED_EVENT: &[(&str, i32)] = &[("DISABLED", MQEVR_DISABLED), ("ENABLED", MQEVR_ENABLED)];
const MONITORING: &[(&str, i32)] = &[
    ("QMGR", MQMON_Q_MGR),
    ("OFF", MQMON_OFF),
    ("ON", MQMON_ON),
    ("LOW", MQMON_LOW),
    ("MEDIUM", MQMON_MEDIUM),
    ("HIGH", MQMON_HIGH),
];
const APPLICATION_TYPES: &[(&str, i32)] = &[
    ("CICS", MQAT_CICS),
    ("IMS", MQAT_IMS),
    ("MVS", MQAT_MVS),
    ("ZOS", MQAT_ZOS),
    ("UNIX", MQAT_UNIX),
    ("WINDOWS", MQAT_WINDOWS),
    ("WINDOWSNT", MQAT_WINDOWS_NT),
    ("OS400", MQAT_OS400),
    ("DEF", MQAT_DEFAULT),
    ("JAVA", MQAT_JAVA),
];
const CHANNEL_TYPES: &[(&str, i32)] = &[
    ("SDR", MQCHT_SENDER),
    ("SVR", MQCHT_SERVER),
    ("RCVR", MQCHT_RECEIVER),
    ("RQSTR", MQCHT_REQUESTER),
    ("CLNTCONN", MQCHT_CLNTCONN),
    ("SVRCONN", MQCHT_SVRCONN),
    ("CLUSSDR", MQCHT_CLUSSDR),
    ("CLUSRCVR", MQCHT_CLUSRCVR),
    ("AMQP", MQCHT_AMQP),
];

/// Queues of every type (DISPLAY QUEUE's keywords).
pub(crate) const QUEUE_MAP: &[Mapping] = &[
    text("QUEUE", MQCA_Q_NAME),
    choice("TYPE", MQIA_Q_TYPE, QUEUE_TYPES),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    text("STGCLASS", MQCA_STORAGE_CLASS),
    text("DESCR", MQCA_Q_DESC),
    choice(
        "PUT",
        MQIA_INHIBIT_PUT,
        &[
            ("ENABLED", MQQA_PUT_ALLOWED),
            ("DISABLED", MQQA_PUT_INHIBITED),
        ],
    ),
    choice(
        "GET",
        MQIA_INHIBIT_GET,
        &[
            ("ENABLED", MQQA_GET_ALLOWED),
            ("DISABLED", MQQA_GET_INHIBITED),
        ],
    ),
    integer("DEFPRTY", MQIA_DEF_PRIORITY),
    choice(
        "DEFPSIST",
        MQIA_DEF_PERSISTENCE,
        &[("NO", MQPER_NOT_PERSISTENT), ("YES", MQPER_PERSISTENT)],
    ),
    integer("MAXDEPTH", MQIA_MAX_Q_DEPTH),
    integer("MAXMSGL", MQIA_MAX_MSG_LENGTH),
    choice(
        "DEFSOPT",
        MQIA_DEF_INPUT_OPEN_OPTION,
        &[
            ("SHARED", MQOO_INPUT_SHARED),
            ("EXCL", MQOO_INPUT_EXCLUSIVE),
        ],
    ),
    choice(
        "MSGDLVSQ",
        MQIA_MSG_DELIVERY_SEQUENCE,
        &[("PRIORITY", MQMDS_PRIORITY), ("FIFO", MQMDS_FIFO)],
    ),
    choice(
        "USAGE",
        MQIA_USAGE,
        &[("NORMAL", MQUS_NORMAL), ("XMITQ", MQUS_TRANSMISSION)],
    ),
    choice(
        "DEFTYPE",
        MQIA_DEFINITION_TYPE,
        &[
            ("PREDEFINED", MQQDT_PREDEFINED),
            ("PERMDYN", MQQDT_PERMANENT_DYNAMIC),
            ("TEMPDYN", MQQDT_TEMPORARY_DYNAMIC),
            ("SHAREDYN", MQQDT_SHARED_DYNAMIC),
        ],
    ),
    choice(
        "INDXTYPE",
        MQIA_INDEX_TYPE,
        &[
            ("NONE", MQIT_NONE),
            ("MSGID", MQIT_MSG_ID),
            ("CORRELID", MQIT_CORREL_ID),
            ("GROUPID", MQIT_GROUP_ID),
            ("MSGTOKEN", MQIT_MSG_TOKEN),
        ],
    ),
    integer("CURDEPTH", MQIA_CURRENT_Q_DEPTH),
    integer("IPPROCS", MQIA_OPEN_INPUT_COUNT),
    integer("OPPROCS", MQIA_OPEN_OUTPUT_COUNT),
    // QALIAS
    text("TARGET", MQCA_BASE_OBJECT_NAME),
    choice(
        "TARGTYPE",
        MQIA_BASE_TYPE,
        &[("QUEUE", MQOT_Q), ("TOPIC", MQOT_TOPIC)],
    ),
    // QREMOTE
    text("RNAME", MQCA_REMOTE_Q_NAME),
    text("RQMNAME", MQCA_REMOTE_Q_MGR_NAME),
    text("XMITQ", MQCA_XMIT_Q_NAME),
    // Backout, sharing, retention, read ahead, put response, properties.
    integer("BOTHRESH", MQIA_BACKOUT_THRESHOLD),
    text("BOQNAME", MQCA_BACKOUT_REQ_Q_NAME),
    flag(
        "HARDENBO",
        MQIA_HARDEN_GET_BACKOUT,
        &[
            ("NOHARDENBO", MQQA_BACKOUT_NOT_HARDENED),
            ("HARDENBO", MQQA_BACKOUT_HARDENED),
        ],
    ),
    flag(
        "SHARE",
        MQIA_SHAREABILITY,
        &[("NOSHARE", MQQA_NOT_SHAREABLE), ("SHARE", MQQA_SHAREABLE)],
    ),
    integer("RETINTVL", MQIA_RETENTION_INTERVAL),
    choice(
        "DEFREADA",
        MQIA_DEF_READ_AHEAD,
        &[
            ("NO", MQREADA_NO),
            ("YES", MQREADA_YES),
            ("DISABLED", MQREADA_DISABLED),
        ],
    ),
    choice(
        "DEFPRESP",
        MQIA_DEF_PUT_RESPONSE_TYPE,
        &[
            ("SYNC", MQPRT_SYNC_RESPONSE),
            ("ASYNC", MQPRT_ASYNC_RESPONSE),
        ],
    ),
    choice(
        "PROPCTL",
        MQIA_PROPERTY_CONTROL,
        &[
            ("COMPAT", MQPROP_COMPATIBILITY),
            ("NONE", MQPROP_NONE),
            ("ALL", MQPROP_ALL),
            ("FORCE", MQPROP_FORCE_MQRFH2),
            ("V6COMPAT", MQPROP_V6COMPAT),
        ],
    ),
    choice("ACCTQ", MQIA_ACCOUNTING_Q, MONITORING),
    choice("MONQ", MQIA_MONITORING_Q, MONITORING),
    choice("STATQ", MQIA_STATISTICS_Q, MONITORING),
    // Triggering.
    flag(
        "TRIGGER",
        MQIA_TRIGGER_CONTROL,
        &[("NOTRIGGER", MQTC_OFF), ("TRIGGER", MQTC_ON)],
    ),
    choice(
        "TRIGTYPE",
        MQIA_TRIGGER_TYPE,
        &[
            ("NONE", MQTT_NONE),
            ("FIRST", MQTT_FIRST),
            ("EVERY", MQTT_EVERY),
            ("DEPTH", MQTT_DEPTH),
        ],
    ),
    integer("TRIGDPTH", MQIA_TRIGGER_DEPTH),
    integer("TRIGMPRI", MQIA_TRIGGER_MSG_PRIORITY),
    text("INITQ", MQCA_INITIATION_Q_NAME),
    text("PROCESS", MQCA_PROCESS_NAME),
    text("TRIGDATA", MQCA_TRIGGER_DATA),
    // Depth and service interval events.
    choice("QDPHIEV", MQIA_Q_DEPTH_HIGH_EVENT, ENABLED_EVENT),
    integer("QDEPTHHI", MQIA_Q_DEPTH_HIGH_LIMIT),
    choice("QDPLOEV", MQIA_Q_DEPTH_LOW_EVENT, ENABLED_EVENT),
    integer("QDEPTHLO", MQIA_Q_DEPTH_LOW_LIMIT),
    choice("QDPMAXEV", MQIA_Q_DEPTH_MAX_EVENT, ENABLED_EVENT),
    choice(
        "QSVCIEV",
        MQIA_Q_SERVICE_INTERVAL_EVENT,
        &[
            ("NONE", MQQSIE_NONE),
            ("HIGH", MQQSIE_HIGH),
            ("OK", MQQSIE_OK),
        ],
    ),
    integer("QSVCINT", MQIA_Q_SERVICE_INTERVAL),
    text("CRDATE", MQCA_CREATION_DATE),
    text("CRTIME", MQCA_CREATION_TIME),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

/// DISPLAY QSTATUS TYPE(QUEUE).
pub(crate) const QUEUE_STATUS_MAP: &[Mapping] = &[
    text("QSTATUS", MQCA_Q_NAME),
    choice(
        "TYPE",
        MQIACF_Q_STATUS_TYPE,
        &[("QUEUE", MQIACF_Q_STATUS), ("HANDLE", MQIACF_Q_HANDLE)],
    ),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    integer("CURDEPTH", MQIA_CURRENT_Q_DEPTH),
    integer("IPPROCS", MQIA_OPEN_INPUT_COUNT),
    integer("OPPROCS", MQIA_OPEN_OUTPUT_COUNT),
    choice(
        "UNCOM",
        MQIACF_UNCOMMITTED_MSGS,
        &[("NO", MQQSUM_NO), ("YES", MQQSUM_YES)],
    ),
    integer("MSGAGE", MQIACF_OLDEST_MSG_AGE),
    Mapping {
        keyword: "QTIME",
        selector: MQIACF_Q_TIME_INDICATOR,
        kind: Kind::Pair,
    },
    text("LPUTDATE", MQCACF_LAST_PUT_DATE),
    text("LPUTTIME", MQCACF_LAST_PUT_TIME),
    text("LGETDATE", MQCACF_LAST_GET_DATE),
    text("LGETTIME", MQCACF_LAST_GET_TIME),
];

const OPEN_YES_NO: &[(&str, i32)] = &[("NO", MQQSO_NO), ("YES", MQQSO_YES)];
const UOW_STATE: &[(&str, i32)] = &[("NONE", MQUOWST_NONE), ("ACTIVE", MQUOWST_ACTIVE)];

/// DISPLAY QSTATUS TYPE(HANDLE).
pub(crate) const QUEUE_HANDLE_MAP: &[Mapping] = &[
    text("QSTATUS", MQCA_Q_NAME),
    choice(
        "TYPE",
        MQIACF_Q_STATUS_TYPE,
        &[("QUEUE", MQIACF_Q_STATUS), ("HANDLE", MQIACF_Q_HANDLE)],
    ),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    text("APPLTAG", MQCACF_APPL_TAG),
    choice("APPLTYPE", MQIA_APPL_TYPE, APPLICATION_TYPES),
    choice("ASTATE", MQIACF_ASYNC_STATE, &[("NONE", MQAS_NONE)]),
    choice("BROWSE", MQIACF_OPEN_BROWSE, OPEN_YES_NO),
    text("CHANNEL", MQCACH_CHANNEL_NAME),
    Mapping {
        keyword: "CONN",
        selector: MQBACF_CONNECTION_ID,
        kind: Kind::ConnectionId,
    },
    text("CONNAME", MQCACH_CONNECTION_NAME),
    choice(
        "INPUT",
        MQIACF_OPEN_INPUT_TYPE,
        &[
            ("NO", MQQSO_NO),
            ("SHARED", MQQSO_SHARED),
            ("EXCL", MQQSO_EXCLUSIVE),
        ],
    ),
    choice("INQUIRE", MQIACF_OPEN_INQUIRE, OPEN_YES_NO),
    choice("OUTPUT", MQIACF_OPEN_OUTPUT, OPEN_YES_NO),
    integer("PID", MQIACF_PROCESS_ID),
    choice("SET", MQIACF_OPEN_SET, OPEN_YES_NO),
    integer("TID", MQIACF_THREAD_ID),
    choice("UOWSTATE", MQIACF_UOW_STATE, UOW_STATE),
    choice("URTYPE", MQIACF_UOW_TYPE, &[("QMGR", MQUOWT_Q_MGR)]),
    text("USERID", MQCACF_USER_IDENTIFIER),
];

/// DISPLAY CONN TYPE(CONN).
pub(crate) const CONNECTION_MAP: &[Mapping] = &[
    Mapping {
        keyword: "CONN",
        selector: MQBACF_CONNECTION_ID,
        kind: Kind::ConnectionId,
    },
    choice(
        "TYPE",
        MQIACF_CONN_INFO_TYPE,
        &[
            ("CONN", MQIACF_CONN_INFO_CONN),
            ("HANDLE", MQIACF_CONN_INFO_HANDLE),
        ],
    ),
    text("APPLTAG", MQCACF_APPL_TAG),
    choice("APPLTYPE", MQIA_APPL_TYPE, APPLICATION_TYPES),
    text("USERID", MQCACF_USER_IDENTIFIER),
    text("CHANNEL", MQCACH_CHANNEL_NAME),
    text("CONNAME", MQCACH_CONNECTION_NAME),
    choice("UOWSTATE", MQIACF_UOW_STATE, UOW_STATE),
];

/// Connection attributes DISPLAY shows that PCF has no parameter for.
#[cfg(test)]
pub(crate) const CONNECTION_DISPLAY_ONLY: &[&str] = &["NOPENS", "CONNDATE", "CONNTIME"];

pub(crate) const CHANNEL_MAP: &[Mapping] = &[
    text("CHANNEL", MQCACH_CHANNEL_NAME),
    choice("CHLTYPE", MQIACH_CHANNEL_TYPE, CHANNEL_TYPES),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    choice("TRPTYPE", MQIACH_XMIT_PROTOCOL_TYPE, &[("TCP", MQXPT_TCP)]),
    text("DESCR", MQCACH_DESC),
    integer("MAXMSGL", MQIACH_MAX_MSG_LENGTH),
    integer("HBINT", MQIACH_HB_INTERVAL),
    choice("KAINT", MQIACH_KEEP_ALIVE_INTERVAL, &[("AUTO", MQKAI_AUTO)]),
    integer("SHARECNV", MQIACH_SHARING_CONVERSATIONS),
    integer("MAXINST", MQIACH_MAX_INSTANCES),
    integer("MAXINSTC", MQIACH_MAX_INSTS_PER_CLIENT),
    integer("DISCINT", MQIACH_DISC_INTERVAL),
    choice("MONCHL", MQIA_MONITORING_CHANNEL, MONITORING),
    text("SSLCIPH", MQCACH_SSL_CIPHER_SPEC),
    choice(
        "SSLCAUTH",
        MQIACH_SSL_CLIENT_AUTH,
        &[("REQUIRED", MQSCA_REQUIRED), ("OPTIONAL", MQSCA_OPTIONAL)],
    ),
    text("SSLPEER", MQCACH_SSL_PEER_NAME),
    text("MCAUSER", MQCACH_MCA_USER_ID),
    // Message channels (objects/message_channel.rs).
    text("CONNAME", MQCACH_CONNECTION_NAME),
    text("XMITQ", MQCACH_XMIT_Q_NAME),
    integer("BATCHSZ", MQIACH_BATCH_SIZE),
    integer("BATCHINT", MQIACH_BATCH_INTERVAL),
    integer("BATCHLIM", MQIACH_BATCH_DATA_LIMIT),
    integer("BATCHHB", MQIACH_BATCH_HB),
    choice(
        "NPMSPEED",
        MQIACH_NPM_SPEED,
        &[("FAST", MQNPMS_FAST), ("NORMAL", MQNPMS_NORMAL)],
    ),
    integer("SHORTRTY", MQIACH_SHORT_RETRY),
    integer("SHORTTMR", MQIACH_SHORT_TIMER),
    integer("LONGRTY", MQIACH_LONG_RETRY),
    integer("LONGTMR", MQIACH_LONG_TIMER),
    integer("SEQWRAP", MQIACH_SEQUENCE_NUMBER_WRAP),
    choice(
        "PUTAUT",
        MQIACH_PUT_AUTHORITY,
        &[("DEF", MQPA_DEFAULT), ("CTX", MQPA_CONTEXT)],
    ),
    choice("STATCHL", MQIA_STATISTICS_CHANNEL, MONITORING),
    keyword_list(
        "COMPHDR",
        MQIACH_HDR_COMPRESSION,
        HEADER_COMPRESSION_KEYWORDS,
    ),
    keyword_list(
        "COMPMSG",
        MQIACH_MSG_COMPRESSION,
        MESSAGE_COMPRESSION_KEYWORDS,
    ),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

pub(crate) const CHANNEL_STATUS_MAP: &[Mapping] = &[
    text("CHSTATUS", MQCACH_CHANNEL_NAME),
    choice("CHLTYPE", MQIACH_CHANNEL_TYPE, CHANNEL_TYPES),
    text("CONNAME", MQCACH_CONNECTION_NAME),
    choice(
        "STATUS",
        MQIACH_CHANNEL_STATUS,
        &[
            ("RUNNING", MQCHS_RUNNING),
            ("STOPPING", MQCHS_STOPPING),
            ("STARTING", MQCHS_STARTING),
            ("BINDING", MQCHS_BINDING),
            ("RETRYING", MQCHS_RETRYING),
            ("STOPPED", MQCHS_STOPPED),
            ("INACTIVE", MQCHS_INACTIVE),
        ],
    ),
    text("XMITQ", MQCACH_XMIT_Q_NAME),
    integer("MSGS", MQIACH_MSGS),
    integer("BATCHES", MQIACH_BATCHES),
    integer("CURSEQNO", MQIACH_CURRENT_SEQ_NUMBER),
    integer("LSTSEQNO", MQIACH_LAST_SEQ_NUMBER),
    choice(
        "INDOUBT",
        MQIACH_INDOUBT_STATUS,
        &[("NO", MQCHIDS_NOT_INDOUBT), ("YES", MQCHIDS_INDOUBT)],
    ),
    integer("BYTSSENT", MQIACH_BYTES_SENT),
    integer("BYTSRCVD", MQIACH_BYTES_RECEIVED),
    text("CHSTADA", MQCACH_CHANNEL_START_DATE),
    text("CHSTATI", MQCACH_CHANNEL_START_TIME),
    text("LSTMSGDA", MQCACH_LAST_MSG_DATE),
    text("LSTMSGTI", MQCACH_LAST_MSG_TIME),
    integer("HBINT", MQIACH_HB_INTERVAL),
    integer("MAXMSGL", MQIACH_MAX_MSG_LENGTH),
    integer("MAXSHCNV", MQIACH_MAX_SHARING_CONVS),
    integer("CURSHCNV", MQIACH_CURRENT_SHARING_CONVS),
    keyword_list(
        "COMPHDR",
        MQIACH_HDR_COMPRESSION,
        HEADER_COMPRESSION_KEYWORDS,
    ),
    keyword_list(
        "COMPMSG",
        MQIACH_MSG_COMPRESSION,
        MESSAGE_COMPRESSION_KEYWORDS,
    ),
    pair("COMPRATE", MQIACH_COMPRESSION_RATE),
    pair("COMPTIME", MQIACH_COMPRESSION_TIME),
    pair("XQTIME", MQIACH_XMITQ_TIME_INDICATOR),
    pair("NETTIME", MQIACH_NETWORK_TIME_INDICATOR),
];

/// Channel status attributes DISPLAY shows that PCF expresses otherwise (CURRENT is the
/// instance type, always MQOT_CURRENT_CHANNEL here).
#[cfg(test)]
pub(crate) const CHANNEL_STATUS_DISPLAY_ONLY: &[&str] = &["CURRENT"];

pub(crate) const PROCESS_MAP: &[Mapping] = &[
    text("PROCESS", MQCA_PROCESS_NAME),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    text("DESCR", MQCA_PROCESS_DESC),
    text("APPLICID", MQCA_APPL_ID),
    choice("APPLTYPE", MQIA_APPL_TYPE, APPLICATION_TYPES),
    text("USERDATA", MQCA_USER_DATA),
    text("ENVRDATA", MQCA_ENV_DATA),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

/// AUTHTYPE: MQ's types (Ferrite defines IDPWOS only).
const AUTH_INFO_TYPES: &[(&str, i32)] = &[
    ("IDPWOS", MQAIT_IDPW_OS),
    ("IDPWLDAP", MQAIT_IDPW_LDAP),
    ("CRLLDAP", MQAIT_CRL_LDAP),
    ("OCSP", MQAIT_OCSP),
];

/// CHCKCLNT and CHCKLOCL.
const CHECK_VALUES: &[(&str, i32)] = &[
    ("NONE", MQCHK_NONE),
    ("OPTIONAL", MQCHK_OPTIONAL),
    ("REQUIRED", MQCHK_REQUIRED),
    ("REQDADM", MQCHK_REQUIRED_ADMIN),
];

pub(crate) const AUTH_INFO_MAP: &[Mapping] = &[
    text("AUTHINFO", MQCA_AUTH_INFO_NAME),
    choice("AUTHTYPE", MQIA_AUTH_INFO_TYPE, AUTH_INFO_TYPES),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    text("DESCR", MQCA_AUTH_INFO_DESC),
    choice("CHCKCLNT", MQIA_CHECK_CLIENT_BINDING, CHECK_VALUES),
    choice("CHCKLOCL", MQIA_CHECK_LOCAL_BINDING, CHECK_VALUES),
    choice(
        "ADOPTCTX",
        MQIA_ADOPT_CONTEXT,
        &[("NO", MQADPCTX_NO), ("YES", MQADPCTX_YES)],
    ),
    integer("FAILDLAY", MQIA_AUTHENTICATION_FAIL_DELAY),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

const AS_PARENT_YES_NO: &[(&str, i32)] = &[
    ("ASPARENT", MQPER_PERSISTENCE_AS_PARENT),
    ("NO", MQPER_NOT_PERSISTENT),
    ("YES", MQPER_PERSISTENT),
];
const DELIVERY: &[(&str, i32)] = &[
    ("ASPARENT", MQDLV_AS_PARENT),
    ("ALL", MQDLV_ALL),
    ("ALLDUR", MQDLV_ALL_DUR),
    ("ALLAVAIL", MQDLV_ALL_AVAIL),
];
const DURABLE_SUBSCRIPTIONS: &[(&str, i32)] = &[
    ("ASPARENT", MQSUB_DURABLE_AS_PARENT),
    ("YES", MQSUB_DURABLE_ALLOWED),
    ("NO", MQSUB_DURABLE_INHIBITED),
];
const PUBLISH: &[(&str, i32)] = &[
    ("ASPARENT", MQTA_PUB_AS_PARENT),
    ("DISABLED", MQTA_PUB_INHIBITED),
    ("ENABLED", MQTA_PUB_ALLOWED),
];
const SUBSCRIBE: &[(&str, i32)] = &[
    ("ASPARENT", MQTA_SUB_AS_PARENT),
    ("DISABLED", MQTA_SUB_INHIBITED),
    ("ENABLED", MQTA_SUB_ALLOWED),
];
const PUT_RESPONSE: &[(&str, i32)] = &[
    ("ASPARENT", MQPRT_RESPONSE_AS_PARENT),
    ("SYNC", MQPRT_SYNC_RESPONSE),
    ("ASYNC", MQPRT_ASYNC_RESPONSE),
];
const USE_DEAD_LETTER_QUEUE: &[(&str, i32)] = &[
    ("ASPARENT", MQUSEDLQ_AS_PARENT),
    ("NO", MQUSEDLQ_NO),
    ("YES", MQUSEDLQ_YES),
];
const SCOPE: &[(&str, i32)] = &[
    ("ASPARENT", MQSCOPE_AS_PARENT),
    ("QMGR", MQSCOPE_QMGR),
    ("ALL", MQSCOPE_ALL),
];

const fn identifier(keyword: &'static str, selector: i32) -> Mapping {
    Mapping {
        keyword,
        selector,
        kind: Kind::Identifier,
    }
}

const SUBSCRIPTION_TYPES: &[(&str, i32)] = &[
    ("API", MQSUBTYPE_API),
    ("ADMIN", MQSUBTYPE_ADMIN),
    ("PROXY", MQSUBTYPE_PROXY),
];
const SUBSCRIPTION_DURABLE: &[(&str, i32)] =
    &[("YES", MQSUB_DURABLE_YES), ("NO", MQSUB_DURABLE_NO)];

/// DISPLAY SUB (pubsub_commands.rs).
pub(crate) const SUBSCRIPTION_MAP: &[Mapping] = &[
    text("SUB", MQCACF_SUB_NAME),
    identifier("SUBID", MQBACF_SUB_ID),
    text("TOPICSTR", MQCA_TOPIC_STRING),
    text("TOPICOBJ", MQCA_TOPIC_NAME),
    text("DEST", MQCACF_DESTINATION),
    text("DESTQMGR", MQCACF_DESTINATION_Q_MGR),
    choice(
        "DESTCLAS",
        MQIACF_DESTINATION_CLASS,
        &[("MANAGED", MQDC_MANAGED), ("PROVIDED", MQDC_PROVIDED)],
    ),
    identifier("DESTCORL", MQBACF_DESTINATION_CORREL_ID),
    text("USERDATA", MQCACF_SUB_USER_DATA),
    text("SELECTOR", MQCACF_SUB_SELECTOR),
    choice(
        "PUBPRTY",
        MQIACF_PUB_PRIORITY,
        &[
            ("ASPUB", MQPRI_PRIORITY_AS_PUBLISHED),
            ("ASQDEF", MQPRI_PRIORITY_AS_Q_DEF),
        ],
    ),
    choice(
        "WSCHEMA",
        MQIACF_WILDCARD_SCHEMA,
        &[("CHAR", MQWS_CHAR), ("TOPIC", MQWS_TOPIC)],
    ),
    choice("SUBTYPE", MQIACF_SUB_TYPE, SUBSCRIPTION_TYPES),
    choice("DURABLE", MQIACF_DURABLE_SUBSCRIPTION, SUBSCRIPTION_DURABLE),
    choice(
        "PSPROP",
        MQIACF_PUBSUB_PROPERTIES,
        &[
            ("NONE", MQPSPROP_NONE),
            ("COMPAT", MQPSPROP_COMPAT),
            ("RFH2", MQPSPROP_RFH2),
            ("MSGPROP", MQPSPROP_MSGPROP),
        ],
    ),
    choice(
        "REQONLY",
        MQIACF_REQUEST_ONLY,
        &[("NO", MQRU_PUBLISH_ALL), ("YES", MQRU_PUBLISH_ON_REQUEST)],
    ),
    choice("EXPIRY", MQIACF_EXPIRY, &[("UNLIMITED", -1)]),
    identifier("PUBACCT", MQBACF_ACCOUNTING_TOKEN),
    text("PUBAPPID", MQCACF_APPL_IDENTITY_DATA),
    text("SUBUSER", MQCACF_SUB_USER_ID),
    choice(
        "VARUSER",
        MQIACF_VARIABLE_USER_ID,
        &[("ANY", MQVU_ANY_USER), ("FIXED", MQVU_FIXED_USER)],
    ),
    choice(
        "SUBSCOPE",
        MQIACF_SUBSCRIPTION_SCOPE,
        &[("ALL", MQTSCOPE_ALL), ("QMGR", MQTSCOPE_QMGR)],
    ),
    integer("SUBLEVEL", MQIACF_SUB_LEVEL),
];

/// DISPLAY SBSTATUS (ACTIVE and DESTDPTH are Ferrite's, shown in MQSC only).
pub(crate) const SUBSCRIPTION_STATUS_MAP: &[Mapping] = &[
    text("SUB", MQCACF_SUB_NAME),
    identifier("SUBID", MQBACF_SUB_ID),
    choice("DURABLE", MQIACF_DURABLE_SUBSCRIPTION, SUBSCRIPTION_DURABLE),
    choice("SUBTYPE", MQIACF_SUB_TYPE, SUBSCRIPTION_TYPES),
];

/// DISPLAY TPSTATUS, TYPE(TOPIC) and TYPE(SUB).
pub(crate) const TOPIC_STATUS_MAP: &[Mapping] = &[
    text("TOPICSTR", MQCA_TOPIC_STRING),
    text("ADMIN", MQCA_ADMIN_TOPIC_NAME),
    choice("DURSUB", MQIA_DURABLE_SUB, DURABLE_SUBSCRIPTIONS),
    choice("PUB", MQIA_INHIBIT_PUB, PUBLISH),
    choice("SUB", MQIA_INHIBIT_SUB, SUBSCRIBE),
    choice("DEFPSIST", MQIA_TOPIC_DEF_PERSISTENCE, AS_PARENT_YES_NO),
    integer("DEFPRTY", MQIA_DEF_PRIORITY),
    choice("DEFPRESP", MQIA_DEF_PUT_RESPONSE_TYPE, PUT_RESPONSE),
    text("MDURMDL", MQCA_MODEL_DURABLE_Q),
    text("MNDURMDL", MQCA_MODEL_NON_DURABLE_Q),
    choice("PMSGDLV", MQIA_PM_DELIVERY, DELIVERY),
    choice("NPMSGDLV", MQIA_NPM_DELIVERY, DELIVERY),
    choice("USEDLQ", MQIA_USE_DEAD_LETTER_Q, USE_DEAD_LETTER_QUEUE),
    integer("SUBCOUNT", MQIA_SUB_COUNT),
    choice(
        "RETAINED",
        MQIACF_RETAINED_PUBLICATION,
        &[("NO", MQQSO_NO), ("YES", MQQSO_YES)],
    ),
    identifier("SUBID", MQBACF_SUB_ID),
    choice("DURABLE", MQIACF_DURABLE_SUBSCRIPTION, SUBSCRIPTION_DURABLE),
    choice("SUBTYPE", MQIACF_SUB_TYPE, SUBSCRIPTION_TYPES),
];

/// DISPLAY TOPIC (topic_commands.rs).
pub(crate) const TOPIC_MAP: &[Mapping] = &[
    text("TOPIC", MQCA_TOPIC_NAME),
    choice("TYPE", MQIA_TOPIC_TYPE, &[("LOCAL", MQTOPT_LOCAL)]),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    text("TOPICSTR", MQCA_TOPIC_STRING),
    text("DESCR", MQCA_TOPIC_DESC),
    choice("DURSUB", MQIA_DURABLE_SUB, DURABLE_SUBSCRIPTIONS),
    choice("DEFPSIST", MQIA_TOPIC_DEF_PERSISTENCE, AS_PARENT_YES_NO),
    choice(
        "DEFPRTY",
        MQIA_DEF_PRIORITY,
        &[("ASPARENT", MQPRI_PRIORITY_AS_PARENT)],
    ),
    choice("DEFPRESP", MQIA_DEF_PUT_RESPONSE_TYPE, PUT_RESPONSE),
    choice("PUB", MQIA_INHIBIT_PUB, PUBLISH),
    choice("SUB", MQIA_INHIBIT_SUB, SUBSCRIBE),
    choice(
        "WILDCARD",
        MQIA_WILDCARD_OPERATION,
        &[("BLOCK", MQTA_BLOCK), ("PASSTHRU", MQTA_PASSTHRU)],
    ),
    text("MDURMDL", MQCA_MODEL_DURABLE_Q),
    text("MNDURMDL", MQCA_MODEL_NON_DURABLE_Q),
    choice("PMSGDLV", MQIA_PM_DELIVERY, DELIVERY),
    choice("NPMSGDLV", MQIA_NPM_DELIVERY, DELIVERY),
    choice("USEDLQ", MQIA_USE_DEAD_LETTER_Q, USE_DEAD_LETTER_QUEUE),
    choice(
        "PROXYSUB",
        MQIA_PROXY_SUB,
        &[
            ("FORCE", MQTA_PROXY_SUB_FORCE),
            ("FIRSTUSE", MQTA_PROXY_SUB_FIRSTUSE),
        ],
    ),
    choice("PUBSCOPE", MQIA_PUB_SCOPE, SCOPE),
    choice("SUBSCOPE", MQIA_SUB_SCOPE, SCOPE),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

pub(crate) const NAMELIST_MAP: &[Mapping] = &[
    text("NAMELIST", MQCA_NAMELIST_NAME),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    text("DESCR", MQCA_NAMELIST_DESC),
    choice(
        "NLTYPE",
        MQIA_NAMELIST_TYPE,
        &[
            ("NONE", MQNT_NONE),
            ("QUEUE", MQNT_Q),
            ("CLUSTER", MQNT_CLUSTER),
            ("AUTHINFO", MQNT_AUTH_INFO),
        ],
    ),
    integer("NAMCOUNT", MQIA_NAME_COUNT),
    Mapping {
        keyword: "NAMES",
        selector: MQCA_NAMES,
        kind: Kind::TextList,
    },
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

/// Storage classes (configuration events only: Ferrite has no PCF storage class commands).
pub(crate) const STORAGE_CLASS_MAP: &[Mapping] = &[
    text("STGCLASS", MQCA_STORAGE_CLASS),
    choice("QSGDISP", MQIA_QSG_DISP, QSGDISP),
    integer("PSID", MQIA_PAGESET_ID),
    text("DESCR", MQCA_STORAGE_CLASS_DESC),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
];

pub(crate) const LISTENER_STATUS_MAP: &[Mapping] = &[
    text("LISTENER", MQCACH_LISTENER_NAME),
    choice(
        "STATUS",
        MQIACH_LISTENER_STATUS,
        &[
            ("RUNNING", MQSVC_STATUS_RUNNING),
            ("STOPPED", MQSVC_STATUS_STOPPED),
        ],
    ),
    choice("TRPTYPE", MQIACH_XMIT_PROTOCOL_TYPE, &[("TCP", MQXPT_TCP)]),
    integer("PORT", MQIACH_PORT),
    text("IPADDR", MQCACH_IP_ADDRESS),
    text("STARTDA", MQCACH_LISTENER_START_DATE),
    text("STARTTI", MQCACH_LISTENER_START_TIME),
];

/// The 24-byte MQ connection identifier of a connection: the queue manager's name (first 16
/// characters, blank padded), then the connection's number (8 bytes, big-endian), whose 16
/// hexadecimal digits are what DISPLAY CONN shows.
pub(crate) fn connection_id(queue_manager: &str, id: u64) -> Vec<u8> {
    let mut bytes = vec![b' '; 16];
    for (slot, byte) in bytes.iter_mut().zip(queue_manager.bytes()) {
        *slot = byte;
    }
    bytes.extend_from_slice(&id.to_be_bytes());
    bytes
}

/// The PCF parameter for one displayed value, `None` when the value cannot be expressed
/// (a keyword the mapping does not know).
pub(crate) fn to_parameter(
    queue_manager: &str,
    mapping: &Mapping,
    value: &AttributeValue,
) -> Option<Parameter> {
    let parameter = mapping.selector;
    Some(match (mapping.kind, value) {
        (Kind::Text, AttributeValue::Text(text)) => Parameter::string(parameter, text.clone()),
        (Kind::Text, AttributeValue::Keyword(keyword)) => Parameter::string(parameter, *keyword),
        (Kind::Text, AttributeValue::Integer(number)) => {
            Parameter::string(parameter, number.to_string())
        }
        (Kind::Text, AttributeValue::Blank) => Parameter::string(parameter, ""),
        (Kind::Integer(_), AttributeValue::Integer(number)) => Parameter::integer(
            parameter,
            (*number).clamp(i32::MIN.into(), i32::MAX.into()) as i32,
        ),
        (Kind::Integer(values), AttributeValue::Keyword(word)) => {
            let (_, value) = values.iter().find(|(keyword, _)| keyword == word)?;
            Parameter::integer(parameter, *value)
        }
        (Kind::Integer(values), AttributeValue::Text(word)) => {
            let value = values
                .iter()
                .find(|(keyword, _)| keyword == word)
                .map(|(_, value)| *value)
                .or_else(|| word.parse().ok())?;
            Parameter::integer(parameter, value)
        }
        (Kind::Integer(_), AttributeValue::Blank) => Parameter::integer(parameter, -1),
        (Kind::Flag(values), AttributeValue::Flag(word)) => {
            let (_, value) = values.iter().find(|(keyword, _)| keyword == word)?;
            Parameter::integer(parameter, *value)
        }
        (Kind::TextList, AttributeValue::Text(list)) => Parameter::StringList {
            parameter,
            values: list
                .split(',')
                .filter(|name| !name.is_empty())
                .map(str::to_string)
                .collect(),
        },
        (Kind::KeywordList(values), AttributeValue::Text(list)) => Parameter::IntegerList {
            parameter,
            values: list
                .split(',')
                .map(str::trim)
                .filter(|word| !word.is_empty())
                .map(|word| {
                    values
                        .iter()
                        .find(|(keyword, _)| *keyword == word)
                        .map(|(_, value)| *value)
                })
                .collect::<Option<Vec<i32>>>()?,
        },
        (Kind::Pair, AttributeValue::Pair(pair)) => {
            let (a, b) = pair.map_or((-1, -1), |(a, b)| {
                (a.min(i32::MAX as u64) as i32, b.min(i32::MAX as u64) as i32)
            });
            Parameter::IntegerList {
                parameter,
                values: vec![a, b],
            }
        }
        (Kind::ConnectionId, AttributeValue::Text(hex)) => Parameter::ByteString {
            parameter,
            value: connection_id(queue_manager, u64::from_str_radix(hex, 16).ok()?),
        },
        (Kind::Identifier, AttributeValue::Text(hex)) => Parameter::ByteString {
            parameter,
            value: identifier_bytes(hex)?,
        },
        _ => return None,
    })
}

/// The bytes of a 24-byte identifier (48 hexadecimal digits) or of a 32-byte accounting token
/// (64).
fn identifier_bytes(hex: &str) -> Option<Vec<u8>> {
    use ferrite_queue_manager::objects::subscription::{from_hex, from_hex32};
    match hex.len() {
        64 => from_hex32(hex).map(|bytes| bytes.to_vec()),
        _ => from_hex(hex).map(|bytes| bytes.to_vec()),
    }
}

/// Every attribute of `attributes` that `map` knows, as PCF parameters, in display order.
pub(crate) fn to_parameters(
    queue_manager: &str,
    map: &[Mapping],
    attributes: &[(&'static str, AttributeValue)],
) -> Vec<Parameter> {
    attributes
        .iter()
        .filter_map(|(keyword, value)| {
            let mapping = map.iter().find(|mapping| mapping.keyword == *keyword)?;
            to_parameter(queue_manager, mapping, value)
        })
        .collect()
}

/// DISPLAY QMGR.
pub(crate) const QUEUE_MANAGER_MAP: &[Mapping] = &[
    text("QMNAME", MQCA_Q_MGR_NAME),
    text("DESCR", MQCA_Q_MGR_DESC),
    text("DEADQ", MQCA_DEAD_LETTER_Q_NAME),
    text("ALTDATE", MQCA_ALTERATION_DATE),
    text("ALTTIME", MQCA_ALTERATION_TIME),
    integer("MAXMSGL", MQIA_MAX_MSG_LENGTH),
    integer("MAXUMSGS", MQIA_MAX_UNCOMMITTED_MSGS),
    choice("EXPRYINT", MQIA_EXPIRY_INTERVAL, &[("OFF", 0)]),
    integer("TRIGINT", MQIA_TRIGGER_INTERVAL),
    choice("PERFMEV", MQIA_PERFORMANCE_EVENT, ENABLED_EVENT),
    choice("INHIBTEV", MQIA_INHIBIT_EVENT, ENABLED_EVENT),
    choice("LOCALEV", MQIA_LOCAL_EVENT, ENABLED_EVENT),
    choice("AUTHOREV", MQIA_AUTHORITY_EVENT, ENABLED_EVENT),
    choice(
        "CMDEV",
        MQIA_COMMAND_EVENT,
        &[
            ("DISABLED", MQEVR_DISABLED),
            ("ENABLED", MQEVR_ENABLED),
            ("NODISPLAY", MQEVR_NO_DISPLAY),
        ],
    ),
    choice("CONFIGEV", MQIA_CONFIGURATION_EVENT, ENABLED_EVENT),
    choice("STRSTPEV", MQIA_START_STOP_EVENT, ENABLED_EVENT),
    choice(
        "CHLEV",
        MQIA_CHANNEL_EVENT,
        &[
            ("DISABLED", MQEVR_DISABLED),
            ("ENABLED", MQEVR_ENABLED),
            ("EXCEPTION", MQEVR_EXCEPTION),
        ],
    ),
    choice("ACCTQ", MQIA_ACCOUNTING_Q, QUEUE_MANAGER_MONITORING),
    choice("MONQ", MQIA_MONITORING_Q, QUEUE_MANAGER_MONITORING),
    choice("STATQ", MQIA_STATISTICS_Q, QUEUE_MANAGER_MONITORING),
    choice("STATMQI", MQIA_STATISTICS_MQI, QUEUE_MANAGER_MONITORING),
    choice("STATCHL", MQIA_STATISTICS_CHANNEL, QUEUE_MANAGER_MONITORING),
    choice("ACCTMQI", MQIA_ACCOUNTING_MQI, QUEUE_MANAGER_MONITORING),
    choice("PLATFORM", MQIA_PLATFORM, &[("UNIX", MQPL_UNIX)]),
    integer("CMDLEVEL", MQIA_COMMAND_LEVEL),
    integer("CCSID", MQIA_CODED_CHAR_SET_ID),
    text("QMID", MQCA_Q_MGR_IDENTIFIER),
    text("COMMANDQ", MQCA_COMMAND_INPUT_Q_NAME),
    text("CONNAUTH", MQCA_CONN_AUTH),
    text("DEFXMITQ", MQCA_DEF_XMIT_Q_NAME),
    integer("ACTCHL", MQIA_ACTIVE_CHANNELS),
    choice(
        "PSMODE",
        MQIA_PUBSUB_MODE,
        &[
            ("ENABLED", MQPSM_ENABLED),
            ("COMPAT", MQPSM_COMPAT),
            ("DISABLED", MQPSM_DISABLED),
        ],
    ),
    integer("MAXPRTY", MQIA_MAX_PRIORITY),
    flag("SYNCPT", MQIA_SYNCPOINT, &[("SYNCPT", MQSP_AVAILABLE)]),
];

/// ACCTQ, MONQ and STATQ of the queue manager.
const QUEUE_MANAGER_MONITORING: &[(&str, i32)] = &[
    ("NONE", MQMON_NONE),
    ("OFF", MQMON_OFF),
    ("ON", MQMON_ON),
    ("LOW", MQMON_LOW),
    ("MEDIUM", MQMON_MEDIUM),
    ("HIGH", MQMON_HIGH),
];

/// ObjectType, ObjectName, Disposition and the attributes of `definition`, as a configuration
/// event reports them (events.rs): the attributes with the identifiers and values of an
/// Inquire response, the name not repeated.
pub(crate) fn object_event_parameters(
    queue_manager: &str,
    definition: &ObjectDefinition,
    times: ObjectTimes,
) -> Vec<Parameter> {
    let object_type = definition.object_type();
    let (mq_object_type, name_parameter, map) = match object_type {
        ObjectType::StorageClass => (MQOT_STORAGE_CLASS, MQCA_STORAGE_CLASS, STORAGE_CLASS_MAP),
        ObjectType::Channel => (MQOT_CHANNEL, MQCACH_CHANNEL_NAME, CHANNEL_MAP),
        ObjectType::Process => (MQOT_PROCESS, MQCA_PROCESS_NAME, PROCESS_MAP),
        ObjectType::Namelist => (MQOT_NAMELIST, MQCA_NAMELIST_NAME, NAMELIST_MAP),
        ObjectType::AuthInfo => (MQOT_AUTH_INFO, MQCA_AUTH_INFO_NAME, AUTH_INFO_MAP),
        ObjectType::Topic => (MQOT_TOPIC, MQCA_TOPIC_NAME, TOPIC_MAP),
        _ => (MQOT_Q, MQCA_Q_NAME, QUEUE_MAP),
    };
    let mut attributes = match definition {
        ObjectDefinition::Local(queue) => {
            crate::queue_attributes::queue_definition_attributes(queue, "QLOCAL")
        }
        other => object_commands::attributes(other),
    };
    crate::attributes::fill_times(&mut attributes, times);
    let mut parameters = vec![
        Parameter::integer(MQIACF_OBJECT_TYPE, mq_object_type),
        Parameter::string(name_parameter, definition.name()),
        Parameter::integer(MQIA_QSG_DISP, MQQSGD_Q_MGR),
    ];
    parameters.extend(
        to_parameters(queue_manager, map, &attributes)
            .into_iter()
            .filter(|parameter| ![name_parameter, MQIA_QSG_DISP].contains(&parameter.id())),
    );
    parameters
}

/// ObjectType, ObjectName and the attributes of the queue manager object, as a configuration
/// event reports them (no Disposition: MQ gives none for the queue manager).
pub(crate) fn queue_manager_event_parameters(
    queue_manager: &str,
    attributes: &ferrite_queue_manager::QueueManagerAttributes,
) -> Vec<Parameter> {
    let mut parameters = vec![
        Parameter::integer(MQIACF_OBJECT_TYPE, MQOT_Q_MGR),
        Parameter::string(MQCA_Q_MGR_NAME, queue_manager),
    ];
    parameters.extend(
        to_parameters(
            queue_manager,
            QUEUE_MANAGER_MAP,
            &qmgr_commands::stored_attributes(attributes),
        )
        .into_iter()
        .filter(|parameter| parameter.id() != MQCA_Q_MGR_NAME),
    );
    parameters
}
