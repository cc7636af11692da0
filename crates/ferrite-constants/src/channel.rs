//! Channel definition values: channel types (`MQCHT_*`), transport types (`MQXPT_*`), channel
//! status (`MQCHS_*`), substates (`MQCHSSTATE_*`), stop/shutdown requests (`MQCHSR_*`,
//! `MQCHSH_*`), disposition (`MQCHLD_*`), auto-definition (`MQCHAD_*`), in-doubt status
//! (`MQCHIDS_*`), compression (`MQCOMPRESS_*`), nonpersistent message speed (`MQNPMS_*`), MCA
//! type/status (`MQMCAT_*`, `MQMCAS_*`), sender data conversion (`MQCDC_*`), TLS client
//! authentication (`MQSCA_*`), put authority (`MQPA_*`), keepalive (`MQKAI_*`) and related values.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

// MQCHT_*
pub const MQCHT_SENDER: i32 = 1;
pub const MQCHT_SERVER: i32 = 2;
pub const MQCHT_RECEIVER: i32 = 3;
pub const MQCHT_REQUESTER: i32 = 4;
pub const MQCHT_ALL: i32 = 5;
pub const MQCHT_CLNTCONN: i32 = 6;
pub const MQCHT_SVRCONN: i32 = 7;
pub const MQCHT_CLUSRCVR: i32 = 8;
pub const MQCHT_CLUSSDR: i32 = 9;
pub const MQCHT_MQTT: i32 = 10;
pub const MQCHT_AMQP: i32 = 11;

// MQXPT_*
pub const MQXPT_ALL: i32 = -1;
pub const MQXPT_LOCAL: i32 = 0;
pub const MQXPT_LU62: i32 = 1;
pub const MQXPT_TCP: i32 = 2;
pub const MQXPT_NETBIOS: i32 = 3;
pub const MQXPT_SPX: i32 = 4;
pub const MQXPT_DECNET: i32 = 5;
pub const MQXPT_UDP: i32 = 6;

// MQCHS_*
pub const MQCHS_INACTIVE: i32 = 0;
pub const MQCHS_BINDING: i32 = 1;
pub const MQCHS_STARTING: i32 = 2;
pub const MQCHS_RUNNING: i32 = 3;
pub const MQCHS_STOPPING: i32 = 4;
pub const MQCHS_RETRYING: i32 = 5;
pub const MQCHS_STOPPED: i32 = 6;
pub const MQCHS_REQUESTING: i32 = 7;
pub const MQCHS_PAUSED: i32 = 8;
pub const MQCHS_DISCONNECTED: i32 = 9;
pub const MQCHS_INITIALIZING: i32 = 13;
pub const MQCHS_SWITCHING: i32 = 14;

// MQCHSSTATE_*
pub const MQCHSSTATE_OTHER: i32 = 0;
pub const MQCHSSTATE_END_OF_BATCH: i32 = 100;
pub const MQCHSSTATE_SENDING: i32 = 200;
pub const MQCHSSTATE_RECEIVING: i32 = 300;
pub const MQCHSSTATE_SERIALIZING: i32 = 400;
pub const MQCHSSTATE_RESYNCHING: i32 = 500;
pub const MQCHSSTATE_HEARTBEATING: i32 = 600;
pub const MQCHSSTATE_IN_SCYEXIT: i32 = 700;
pub const MQCHSSTATE_IN_RCVEXIT: i32 = 800;
pub const MQCHSSTATE_IN_SENDEXIT: i32 = 900;
pub const MQCHSSTATE_IN_MSGEXIT: i32 = 1000;
pub const MQCHSSTATE_IN_MREXIT: i32 = 1100;
pub const MQCHSSTATE_IN_CHADEXIT: i32 = 1200;
pub const MQCHSSTATE_NET_CONNECTING: i32 = 1250;
pub const MQCHSSTATE_SSL_HANDSHAKING: i32 = 1300;
pub const MQCHSSTATE_NAME_SERVER: i32 = 1400;
pub const MQCHSSTATE_IN_MQPUT: i32 = 1500;
pub const MQCHSSTATE_IN_MQGET: i32 = 1600;
pub const MQCHSSTATE_IN_MQI_CALL: i32 = 1700;
pub const MQCHSSTATE_COMPRESSING: i32 = 1800;

// MQCHSR_*
pub const MQCHSR_STOP_NOT_REQUESTED: i32 = 0;
pub const MQCHSR_STOP_REQUESTED: i32 = 1;

// MQCHSH_*
pub const MQCHSH_RESTART_NO: i32 = 0;
pub const MQCHSH_RESTART_YES: i32 = 1;

// MQCHLD_*
pub const MQCHLD_ALL: i32 = -1;
pub const MQCHLD_DEFAULT: i32 = 1;
pub const MQCHLD_SHARED: i32 = 2;
pub const MQCHLD_PRIVATE: i32 = 4;
pub const MQCHLD_FIXSHARED: i32 = 5;

// MQCHAD_*
pub const MQCHAD_DISABLED: i32 = 0;
pub const MQCHAD_ENABLED: i32 = 1;

// MQCHIDS_*
pub const MQCHIDS_NOT_INDOUBT: i32 = 0;
pub const MQCHIDS_INDOUBT: i32 = 1;

// MQCHRR_*
pub const MQCHRR_RESET_NOT_REQUESTED: i32 = 0;

// MQCHLA_*
pub const MQCHLA_DISABLED: i32 = 0;
pub const MQCHLA_ENABLED: i32 = 1;

// MQCHTAB_*
pub const MQCHTAB_Q_MGR: i32 = 1;
pub const MQCHTAB_CLNTCONN: i32 = 2;

// MQNPMS_*
pub const MQNPMS_NORMAL: i32 = 1;
pub const MQNPMS_FAST: i32 = 2;

// MQCOMPRESS_*
pub const MQCOMPRESS_NOT_AVAILABLE: i32 = -1;
pub const MQCOMPRESS_NONE: i32 = 0;
pub const MQCOMPRESS_RLE: i32 = 1;
pub const MQCOMPRESS_ZLIBFAST: i32 = 2;
pub const MQCOMPRESS_ZLIBHIGH: i32 = 4;
pub const MQCOMPRESS_SYSTEM: i32 = 8;
pub const MQCOMPRESS_LZ4FAST: i32 = 16;
pub const MQCOMPRESS_LZ4HIGH: i32 = 32;
pub const MQCOMPRESS_ANY: i32 = 268435455;

// MQMCAT_*
pub const MQMCAT_PROCESS: i32 = 1;
pub const MQMCAT_THREAD: i32 = 2;

// MQMCAS_*
pub const MQMCAS_STOPPED: i32 = 0;
pub const MQMCAS_RUNNING: i32 = 3;

// MQCDC_*
pub const MQCDC_NO_SENDER_CONVERSION: i32 = 0;
pub const MQCDC_SENDER_CONVERSION: i32 = 1;

// MQSCA_*
pub const MQSCA_REQUIRED: i32 = 0;
pub const MQSCA_OPTIONAL: i32 = 1;
pub const MQSCA_NEVER_REQUIRED: i32 = 2;

// MQKAI_*
pub const MQKAI_AUTO: i32 = -1;

// MQPA_*
pub const MQPA_DEFAULT: i32 = 1;
pub const MQPA_CONTEXT: i32 = 2;
pub const MQPA_ONLY_MCA: i32 = 3;
pub const MQPA_ALTERNATE_OR_MCA: i32 = 4;

// MQCAFTY_*
pub const MQCAFTY_NONE: i32 = 0;
pub const MQCAFTY_PREFERRED: i32 = 1;

// MQRCVTIME_*
pub const MQRCVTIME_MULTIPLY: i32 = 0;
pub const MQRCVTIME_ADD: i32 = 1;
pub const MQRCVTIME_EQUAL: i32 = 2;

// MQUSEDLQ_*
pub const MQUSEDLQ_AS_PARENT: i32 = 0;
pub const MQUSEDLQ_NO: i32 = 1;
pub const MQUSEDLQ_YES: i32 = 2;
