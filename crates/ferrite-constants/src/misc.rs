//! Every other IBM MQ constant family (queue manager, object and event attribute values, exit
//! interface values, installable services, ...), grouped by prefix. These are the values used
//! by MQSC/PCF attributes that do not have a module of their own.

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

// MQ_*
pub const MQ_CERT_VAL_POLICY_ANY: i32 = 0;
pub const MQ_CERT_VAL_POLICY_DEFAULT: i32 = 0;
pub const MQ_HTTPSCERTREV_DEFAULT: i32 = 0;
pub const MQ_HTTPSCERTVAL_DEFAULT: i32 = 0;
pub const MQ_SUITE_B_NOT_AVAILABLE: i32 = 0;
pub const MQ_CERT_VAL_POLICY_RFC5280: i32 = 1;
pub const MQ_HTTPSCERTREV_REQUIRED: i32 = 1;
pub const MQ_HTTPSCERTVAL_ANY: i32 = 1;
pub const MQ_SUITE_B_NONE: i32 = 1;
pub const MQ_CERT_VAL_POLICY_NONE: i32 = 2;
pub const MQ_HTTPSCERTREV_DISABLED: i32 = 2;
pub const MQ_HTTPSCERTVAL_NONE: i32 = 2;
pub const MQ_SUITE_B_128_BIT: i32 = 2;
pub const MQ_HTTPSCERTREV_OPTIONAL: i32 = 3;
pub const MQ_HTTPSCERTVAL_HOSTNAMECN: i32 = 3;
pub const MQ_SUITE_B_192_BIT: i32 = 4;
pub const MQ_SUITE_B_SIZE: i32 = 4;
pub const MQ_MQTT_MAX_KEEP_ALIVE: i32 = 65536;

// MQACT_*
pub const MQACT_FORCE_REMOVE: i32 = 1;
pub const MQACT_ADVANCE_LOG: i32 = 2;
pub const MQACT_COLLECT_STATISTICS: i32 = 3;
pub const MQACT_PUBSUB: i32 = 4;
pub const MQACT_ADD: i32 = 5;
pub const MQACT_REPLACE: i32 = 6;
pub const MQACT_REMOVE: i32 = 7;
pub const MQACT_REMOVEALL: i32 = 8;
pub const MQACT_FAIL: i32 = 9;
pub const MQACT_REDUCE_LOG: i32 = 10;
pub const MQACT_ARCHIVE_LOG: i32 = 11;

// MQACTIVE_*
pub const MQACTIVE_NO: i32 = 0;
pub const MQACTIVE_YES: i32 = 1;

// MQACTP_*
pub const MQACTP_NEW: i32 = 0;
pub const MQACTP_FORWARD: i32 = 1;
pub const MQACTP_REPLY: i32 = 2;
pub const MQACTP_REPORT: i32 = 3;

// MQACTV_*
pub const MQACTV_DETAIL_LOW: i32 = 1;
pub const MQACTV_DETAIL_MEDIUM: i32 = 2;
pub const MQACTV_DETAIL_HIGH: i32 = 3;

// MQADOPT_*
pub const MQADOPT_CHECK_NONE: i32 = 0;
pub const MQADOPT_TYPE_NO: i32 = 0;
pub const MQADOPT_CHECK_ALL: i32 = 1;
pub const MQADOPT_TYPE_ALL: i32 = 1;
pub const MQADOPT_CHECK_Q_MGR_NAME: i32 = 2;
pub const MQADOPT_TYPE_SVR: i32 = 2;
pub const MQADOPT_CHECK_NET_ADDR: i32 = 4;
pub const MQADOPT_TYPE_SDR: i32 = 4;
pub const MQADOPT_CHECK_CHANNEL_NAME: i32 = 8;
pub const MQADOPT_TYPE_RCVR: i32 = 8;
pub const MQADOPT_TYPE_CLUSRCVR: i32 = 16;

// MQADPCTX_*
pub const MQADPCTX_NO: i32 = 0;
pub const MQADPCTX_YES: i32 = 1;

// MQAIT_*
pub const MQAIT_ALL: i32 = 0;
pub const MQAIT_CRL_LDAP: i32 = 1;
pub const MQAIT_OCSP: i32 = 2;
pub const MQAIT_IDPW_OS: i32 = 3;
pub const MQAIT_IDPW_LDAP: i32 = 4;

// MQAPPL_*
pub const MQAPPL_IMMOVABLE: i32 = 0;
pub const MQAPPL_MOVABLE: i32 = 1;

// MQAS_*
pub const MQAS_NONE: i32 = 0;
pub const MQAS_STARTED: i32 = 1;
pub const MQAS_START_WAIT: i32 = 2;
pub const MQAS_STOPPED: i32 = 3;
pub const MQAS_SUSPENDED: i32 = 4;
pub const MQAS_SUSPENDED_TEMPORARY: i32 = 5;
pub const MQAS_ACTIVE: i32 = 6;
pub const MQAS_INACTIVE: i32 = 7;

// MQAUSC_*
pub const MQAUSC_FAILURES: i32 = 0;
pub const MQAUSC_ALLCONNS: i32 = 1;
pub const MQAUSC_ALLCHECKS: i32 = 2;

// MQAUTH_*
pub const MQAUTH_ALL_MQI: i32 = -3;
pub const MQAUTH_ALL_ADMIN: i32 = -2;
pub const MQAUTH_ALL: i32 = -1;
pub const MQAUTH_NONE: i32 = 0;
pub const MQAUTH_ALT_USER_AUTHORITY: i32 = 1;
pub const MQAUTH_BROWSE: i32 = 2;
pub const MQAUTH_CHANGE: i32 = 3;
pub const MQAUTH_CLEAR: i32 = 4;
pub const MQAUTH_CONNECT: i32 = 5;
pub const MQAUTH_CREATE: i32 = 6;
pub const MQAUTH_DELETE: i32 = 7;
pub const MQAUTH_DISPLAY: i32 = 8;
pub const MQAUTH_INPUT: i32 = 9;
pub const MQAUTH_INQUIRE: i32 = 10;
pub const MQAUTH_OUTPUT: i32 = 11;
pub const MQAUTH_PASS_ALL_CONTEXT: i32 = 12;
pub const MQAUTH_PASS_IDENTITY_CONTEXT: i32 = 13;
pub const MQAUTH_SET: i32 = 14;
pub const MQAUTH_SET_ALL_CONTEXT: i32 = 15;
pub const MQAUTH_SET_IDENTITY_CONTEXT: i32 = 16;
pub const MQAUTH_CONTROL: i32 = 17;
pub const MQAUTH_CONTROL_EXTENDED: i32 = 18;
pub const MQAUTH_PUBLISH: i32 = 19;
pub const MQAUTH_SUBSCRIBE: i32 = 20;
pub const MQAUTH_RESUME: i32 = 21;
pub const MQAUTH_SYSTEM: i32 = 22;

// MQAUTHENTICATE_*
pub const MQAUTHENTICATE_OS: i32 = 0;
pub const MQAUTHENTICATE_PAM: i32 = 1;

// MQAUTHOPT_*
pub const MQAUTHOPT_ENTITY_EXPLICIT: i32 = 1;
pub const MQAUTHOPT_ENTITY_SET: i32 = 2;
pub const MQAUTHOPT_NAME_EXPLICIT: i32 = 16;
pub const MQAUTHOPT_NAME_ALL_MATCHING: i32 = 32;
pub const MQAUTHOPT_NAME_AS_WILDCARD: i32 = 64;
pub const MQAUTHOPT_CUMULATIVE: i32 = 256;
pub const MQAUTHOPT_EXCLUDE_TEMP: i32 = 512;

// MQAUTO_*
pub const MQAUTO_START_NO: i32 = 0;
pub const MQAUTO_START_YES: i32 = 1;

// MQAUTOCLUS_*
pub const MQAUTOCLUS_TYPE_NONE: i32 = 0;
pub const MQAUTOCLUS_TYPE_UNIFORM: i32 = 1;

// MQBA_*
pub const MQBA_FIRST: i32 = 6001;
pub const MQBA_LAST: i32 = 8000;

// MQBALANCED_*
pub const MQBALANCED_NO: i32 = 0;
pub const MQBALANCED_YES: i32 = 1;
pub const MQBALANCED_NOT_APPLICABLE: i32 = 2;
pub const MQBALANCED_UNKNOWN: i32 = 3;

// MQBALSTATE_*
pub const MQBALSTATE_NOT_APPLICABLE: i32 = 0;
pub const MQBALSTATE_LOW: i32 = 1;
pub const MQBALSTATE_OK: i32 = 2;
pub const MQBALSTATE_HIGH: i32 = 3;
pub const MQBALSTATE_UNKNOWN: i32 = 4;

// MQBL_*
pub const MQBL_NULL_TERMINATED: i32 = -1;

// MQBMHO_*
pub const MQBMHO_NONE: i32 = 0;
pub const MQBMHO_DELETE_PROPERTIES: i32 = 1;

// MQBND_*
pub const MQBND_BIND_ON_OPEN: i32 = 0;
pub const MQBND_BIND_NOT_FIXED: i32 = 1;
pub const MQBND_BIND_ON_GROUP: i32 = 2;

// MQBNO_*
pub const MQBNO_TIMEOUT_NEVER: i32 = -2;
pub const MQBNO_TIMEOUT_AS_DEFAULT: i32 = -1;
pub const MQBNO_BALTYPE_SIMPLE: i32 = 0;
pub const MQBNO_OPTIONS_NONE: i32 = 0;
pub const MQBNO_TIMEOUT_IMMEDIATE: i32 = 0;
pub const MQBNO_BALTYPE_REQREP: i32 = 1;
pub const MQBNO_OPTIONS_IGNORE_TRANS: i32 = 1;
pub const MQBNO_BALTYPE_RA_MANAGED: i32 = 65536;

// MQBO_*
pub const MQBO_NONE: i32 = 0;

// MQBPLOCATION_*
pub const MQBPLOCATION_BELOW: i32 = 0;
pub const MQBPLOCATION_ABOVE: i32 = 1;
pub const MQBPLOCATION_SWITCHING_ABOVE: i32 = 2;
pub const MQBPLOCATION_SWITCHING_BELOW: i32 = 3;

// MQBT_*
pub const MQBT_OTMA: i32 = 1;

// MQCADSD_*
pub const MQCADSD_NONE: i32 = 0;
pub const MQCADSD_SEND: i32 = 1;
pub const MQCADSD_RECV: i32 = 16;
pub const MQCADSD_MSGFORMAT: i32 = 256;

// MQCAP_*
pub const MQCAP_NOT_SUPPORTED: i32 = 0;
pub const MQCAP_SUPPORTED: i32 = 1;
pub const MQCAP_EXPIRED: i32 = 2;

// MQCAUT_*
pub const MQCAUT_ALL: i32 = 0;
pub const MQCAUT_BLOCKUSER: i32 = 1;
pub const MQCAUT_BLOCKADDR: i32 = 2;
pub const MQCAUT_SSLPEERMAP: i32 = 3;
pub const MQCAUT_ADDRESSMAP: i32 = 4;
pub const MQCAUT_USERMAP: i32 = 5;
pub const MQCAUT_QMGRMAP: i32 = 6;

// MQCBCF_*
pub const MQCBCF_NONE: i32 = 0;
pub const MQCBCF_READA_BUFFER_EMPTY: i32 = 1;

// MQCBCT_*
pub const MQCBCT_START_CALL: i32 = 1;
pub const MQCBCT_STOP_CALL: i32 = 2;
pub const MQCBCT_REGISTER_CALL: i32 = 3;
pub const MQCBCT_DEREGISTER_CALL: i32 = 4;
pub const MQCBCT_EVENT_CALL: i32 = 5;
pub const MQCBCT_MSG_REMOVED: i32 = 6;
pub const MQCBCT_MSG_NOT_REMOVED: i32 = 7;
pub const MQCBCT_MC_EVENT_CALL: i32 = 8;

// MQCBD_*
pub const MQCBD_FULL_MSG_LENGTH: i32 = -1;

// MQCBDO_*
pub const MQCBDO_NONE: i32 = 0;
pub const MQCBDO_START_CALL: i32 = 1;
pub const MQCBDO_STOP_CALL: i32 = 4;
pub const MQCBDO_REGISTER_CALL: i32 = 256;
pub const MQCBDO_DEREGISTER_CALL: i32 = 512;
pub const MQCBDO_FAIL_IF_QUIESCING: i32 = 8192;
pub const MQCBDO_EVENT_CALL: i32 = 16384;
pub const MQCBDO_MC_EVENT_CALL: i32 = 32768;

// MQCBO_*
pub const MQCBO_DO_NOT_CHECK_SELECTORS: i32 = 0;
pub const MQCBO_DO_NOT_REORDER: i32 = 0;
pub const MQCBO_LIST_FORM_INHIBITED: i32 = 0;
pub const MQCBO_NONE: i32 = 0;
pub const MQCBO_USER_BAG: i32 = 0;
pub const MQCBO_ADMIN_BAG: i32 = 1;
pub const MQCBO_LIST_FORM_ALLOWED: i32 = 2;
pub const MQCBO_REORDER_AS_REQUIRED: i32 = 4;
pub const MQCBO_CHECK_SELECTORS: i32 = 8;
pub const MQCBO_COMMAND_BAG: i32 = 16;
pub const MQCBO_SYSTEM_BAG: i32 = 32;
pub const MQCBO_GROUP_BAG: i32 = 64;

// MQCBT_*
pub const MQCBT_MESSAGE_CONSUMER: i32 = 1;
pub const MQCBT_EVENT_HANDLER: i32 = 2;

// MQCCT_*
pub const MQCCT_NO: i32 = 0;
pub const MQCCT_YES: i32 = 1;

// MQCEX_*
pub const MQCEX_AS_PARENT: i32 = -2;
pub const MQCEX_NOLIMIT: i32 = -1;

// MQCF_*
pub const MQCF_NONE: i32 = 0;
pub const MQCF_DIST_LISTS: i32 = 1;

// MQCFACCESS_*
pub const MQCFACCESS_ENABLED: i32 = 0;
pub const MQCFACCESS_SUSPENDED: i32 = 1;
pub const MQCFACCESS_DISABLED: i32 = 2;

// MQCFCONLOS_*
pub const MQCFCONLOS_TERMINATE: i32 = 0;
pub const MQCFCONLOS_TOLERATE: i32 = 1;
pub const MQCFCONLOS_ASQMGR: i32 = 2;

// MQCFO_*
pub const MQCFO_REFRESH_REPOSITORY_NO: i32 = 0;
pub const MQCFO_REMOVE_QUEUES_NO: i32 = 0;
pub const MQCFO_REFRESH_REPOSITORY_YES: i32 = 1;
pub const MQCFO_REMOVE_QUEUES_YES: i32 = 1;

// MQCFOFFLD_*
pub const MQCFOFFLD_NONE: i32 = 0;
pub const MQCFOFFLD_SMDS: i32 = 1;
pub const MQCFOFFLD_DB2: i32 = 2;
pub const MQCFOFFLD_BOTH: i32 = 3;

// MQCFSTATUS_*
pub const MQCFSTATUS_NOT_FOUND: i32 = 0;
pub const MQCFSTATUS_ACTIVE: i32 = 1;
pub const MQCFSTATUS_IN_RECOVER: i32 = 2;
pub const MQCFSTATUS_IN_BACKUP: i32 = 3;
pub const MQCFSTATUS_FAILED: i32 = 4;
pub const MQCFSTATUS_NONE: i32 = 5;
pub const MQCFSTATUS_UNKNOWN: i32 = 6;
pub const MQCFSTATUS_RECOVERED: i32 = 7;
pub const MQCFSTATUS_EMPTY: i32 = 8;
pub const MQCFSTATUS_NEW: i32 = 9;
pub const MQCFSTATUS_ADMIN_INCOMPLETE: i32 = 20;
pub const MQCFSTATUS_NEVER_USED: i32 = 21;
pub const MQCFSTATUS_NO_BACKUP: i32 = 22;
pub const MQCFSTATUS_NOT_FAILED: i32 = 23;
pub const MQCFSTATUS_NOT_RECOVERABLE: i32 = 24;
pub const MQCFSTATUS_XES_ERROR: i32 = 25;

// MQCFTYPE_*
pub const MQCFTYPE_APPL: i32 = 0;
pub const MQCFTYPE_ADMIN: i32 = 1;

// MQCGWI_*
pub const MQCGWI_DEFAULT: i32 = -2;

// MQCHK_*
pub const MQCHK_OPTIONAL: i32 = 0;
pub const MQCHK_NONE: i32 = 1;
pub const MQCHK_REQUIRED_ADMIN: i32 = 2;
pub const MQCHK_REQUIRED: i32 = 3;
pub const MQCHK_AS_Q_MGR: i32 = 4;

// MQCIH_*
pub const MQCIH_NONE: i32 = 0;
pub const MQCIH_NO_SYNC_ON_RETURN: i32 = 0;
pub const MQCIH_REPLY_WITH_NULLS: i32 = 0;
pub const MQCIH_UNLIMITED_EXPIRATION: i32 = 0;
pub const MQCIH_PASS_EXPIRATION: i32 = 1;
pub const MQCIH_REPLY_WITHOUT_NULLS: i32 = 2;
pub const MQCIH_SYNC_ON_RETURN: i32 = 4;

// MQCIT_*
pub const MQCIT_MULTICAST: i32 = 1;

// MQCLCT_*
pub const MQCLCT_STATIC: i32 = 0;
pub const MQCLCT_DYNAMIC: i32 = 1;

// MQCLROUTE_*
pub const MQCLROUTE_DIRECT: i32 = 0;
pub const MQCLROUTE_TOPIC_HOST: i32 = 1;
pub const MQCLROUTE_NONE: i32 = 2;

// MQCLRS_*
pub const MQCLRS_LOCAL: i32 = 1;
pub const MQCLRS_GLOBAL: i32 = 2;

// MQCLRT_*
pub const MQCLRT_RETAINED: i32 = 1;

// MQCLST_*
pub const MQCLST_ACTIVE: i32 = 0;
pub const MQCLST_PENDING: i32 = 1;
pub const MQCLST_INVALID: i32 = 2;
pub const MQCLST_ERROR: i32 = 3;

// MQCLT_*
pub const MQCLT_PROGRAM: i32 = 1;
pub const MQCLT_TRANSACTION: i32 = 2;

// MQCLWL_*
pub const MQCLWL_USEQ_AS_Q_MGR: i32 = -3;
pub const MQCLWL_USEQ_LOCAL: i32 = 0;
pub const MQCLWL_USEQ_ANY: i32 = 1;

// MQCLXQ_*
pub const MQCLXQ_SCTQ: i32 = 0;
pub const MQCLXQ_CHANNEL: i32 = 1;

// MQCMHO_*
pub const MQCMHO_DEFAULT_VALIDATION: i32 = 0;
pub const MQCMHO_NONE: i32 = 0;
pub const MQCMHO_NO_VALIDATION: i32 = 1;
pub const MQCMHO_VALIDATE: i32 = 2;

// MQCODL_*
pub const MQCODL_AS_INPUT: i32 = -1;

// MQCOPY_*
pub const MQCOPY_NONE: i32 = 0;
pub const MQCOPY_ALL: i32 = 1;
pub const MQCOPY_FORWARD: i32 = 2;
pub const MQCOPY_PUBLISH: i32 = 4;
pub const MQCOPY_REPLY: i32 = 8;
pub const MQCOPY_REPORT: i32 = 16;
pub const MQCOPY_DEFAULT: i32 = 22;

// MQCQT_*
pub const MQCQT_LOCAL_Q: i32 = 1;
pub const MQCQT_ALIAS_Q: i32 = 2;
pub const MQCQT_REMOTE_Q: i32 = 3;
pub const MQCQT_Q_MGR_ALIAS: i32 = 4;

// MQCRC_*
pub const MQCRC_OK: i32 = 0;
pub const MQCRC_CICS_EXEC_ERROR: i32 = 1;
pub const MQCRC_MQ_API_ERROR: i32 = 2;
pub const MQCRC_BRIDGE_ERROR: i32 = 3;
pub const MQCRC_BRIDGE_ABEND: i32 = 4;
pub const MQCRC_APPLICATION_ABEND: i32 = 5;
pub const MQCRC_SECURITY_ERROR: i32 = 6;
pub const MQCRC_PROGRAM_NOT_AVAILABLE: i32 = 7;
pub const MQCRC_BRIDGE_TIMEOUT: i32 = 8;
pub const MQCRC_TRANSID_NOT_AVAILABLE: i32 = 9;

// MQCS_*
pub const MQCS_NONE: i32 = 0;
pub const MQCS_SUSPENDED_TEMPORARY: i32 = 1;
pub const MQCS_SUSPENDED_USER_ACTION: i32 = 2;
pub const MQCS_SUSPENDED: i32 = 3;
pub const MQCS_STOPPED: i32 = 4;

// MQCSRV_*
pub const MQCSRV_CONVERT_NO: i32 = 0;
pub const MQCSRV_DLQ_NO: i32 = 0;
pub const MQCSRV_CONVERT_YES: i32 = 1;
pub const MQCSRV_DLQ_YES: i32 = 1;

// MQCTES_*
pub const MQCTES_NOSYNC: i32 = 0;
pub const MQCTES_COMMIT: i32 = 256;
pub const MQCTES_BACKOUT: i32 = 4352;
pub const MQCTES_ENDTASK: i32 = 65536;

// MQCTLO_*
pub const MQCTLO_NONE: i32 = 0;
pub const MQCTLO_THREAD_AFFINITY: i32 = 1;
pub const MQCTLO_FAIL_IF_QUIESCING: i32 = 8192;

// MQCUOWC_*
pub const MQCUOWC_MIDDLE: i32 = 16;
pub const MQCUOWC_FIRST: i32 = 17;
pub const MQCUOWC_COMMIT: i32 = 256;
pub const MQCUOWC_LAST: i32 = 272;
pub const MQCUOWC_ONLY: i32 = 273;
pub const MQCUOWC_BACKOUT: i32 = 4352;
pub const MQCUOWC_CONTINUE: i32 = 65536;

// MQDC_*
pub const MQDC_MANAGED: i32 = 1;
pub const MQDC_PROVIDED: i32 = 2;

// MQDCC_*
pub const MQDCC_NONE: i32 = 0;
pub const MQDCC_SOURCE_ENC_UNDEFINED: i32 = 0;
pub const MQDCC_TARGET_ENC_UNDEFINED: i32 = 0;
pub const MQDCC_DEFAULT_CONVERSION: i32 = 1;
pub const MQDCC_FILL_TARGET_BUFFER: i32 = 2;
pub const MQDCC_INT_DEFAULT_CONVERSION: i32 = 4;
pub const MQDCC_SOURCE_ENC_FACTOR: i32 = 16;
pub const MQDCC_SOURCE_ENC_NORMAL: i32 = 16;
pub const MQDCC_SOURCE_ENC_NATIVE: i32 = 32;
pub const MQDCC_SOURCE_ENC_REVERSED: i32 = 32;
pub const MQDCC_SOURCE_ENC_MASK: i32 = 240;
pub const MQDCC_TARGET_ENC_FACTOR: i32 = 256;
pub const MQDCC_TARGET_ENC_NORMAL: i32 = 256;
pub const MQDCC_TARGET_ENC_NATIVE: i32 = 512;
pub const MQDCC_TARGET_ENC_REVERSED: i32 = 512;
pub const MQDCC_TARGET_ENC_MASK: i32 = 3840;

// MQDELO_*
pub const MQDELO_NONE: i32 = 0;
pub const MQDELO_LOCAL: i32 = 4;

// MQDHF_*
pub const MQDHF_NONE: i32 = 0;
pub const MQDHF_NEW_MSG_IDS: i32 = 1;

// MQDISCONNECT_*
pub const MQDISCONNECT_NORMAL: i32 = 0;
pub const MQDISCONNECT_IMPLICIT: i32 = 1;
pub const MQDISCONNECT_Q_MGR: i32 = 2;

// MQDL_*
pub const MQDL_NOT_SUPPORTED: i32 = 0;
pub const MQDL_SUPPORTED: i32 = 1;

// MQDLV_*
pub const MQDLV_AS_PARENT: i32 = 0;
pub const MQDLV_ALL: i32 = 1;
pub const MQDLV_ALL_DUR: i32 = 2;
pub const MQDLV_ALL_AVAIL: i32 = 3;

// MQDMHO_*
pub const MQDMHO_NONE: i32 = 0;

// MQDMPO_*
pub const MQDMPO_DEL_FIRST: i32 = 0;
pub const MQDMPO_NONE: i32 = 0;
pub const MQDMPO_DEL_PROP_UNDER_CURSOR: i32 = 1;

// MQDNSWLM_*
pub const MQDNSWLM_NO: i32 = 0;
pub const MQDNSWLM_YES: i32 = 1;

// MQDOPT_*
pub const MQDOPT_RESOLVED: i32 = 0;
pub const MQDOPT_DEFINED: i32 = 1;

// MQDSB_*
pub const MQDSB_DEFAULT: i32 = 0;
pub const MQDSB_8K: i32 = 1;
pub const MQDSB_16K: i32 = 2;
pub const MQDSB_32K: i32 = 3;
pub const MQDSB_64K: i32 = 4;
pub const MQDSB_128K: i32 = 5;
pub const MQDSB_256K: i32 = 6;
pub const MQDSB_512K: i32 = 7;
pub const MQDSB_1024K: i32 = 8;
pub const MQDSB_1M: i32 = 8;

// MQDSE_*
pub const MQDSE_DEFAULT: i32 = 0;
pub const MQDSE_YES: i32 = 1;
pub const MQDSE_NO: i32 = 2;

// MQEPH_*
pub const MQEPH_NONE: i32 = 0;
pub const MQEPH_CCSID_EMBEDDED: i32 = 1;

// MQERO_*
pub const MQERO_NONE: i32 = 0;

// MQET_*
pub const MQET_MQSC: i32 = 1;

// MQEVO_*
pub const MQEVO_OTHER: i32 = 0;
pub const MQEVO_CONSOLE: i32 = 1;
pub const MQEVO_INIT: i32 = 2;
pub const MQEVO_MSG: i32 = 3;
pub const MQEVO_MQSET: i32 = 4;
pub const MQEVO_INTERNAL: i32 = 5;
pub const MQEVO_MQSUB: i32 = 6;
pub const MQEVO_CTLMSG: i32 = 7;
pub const MQEVO_REST: i32 = 8;

// MQEVR_*
pub const MQEVR_DISABLED: i32 = 0;
pub const MQEVR_ENABLED: i32 = 1;
pub const MQEVR_EXCEPTION: i32 = 2;
pub const MQEVR_NO_DISPLAY: i32 = 3;
pub const MQEVR_API_ONLY: i32 = 4;
pub const MQEVR_ADMIN_ONLY: i32 = 5;
pub const MQEVR_USER_ONLY: i32 = 6;

// MQEXPI_*
pub const MQEXPI_OFF: i32 = 0;

// MQEXT_*
pub const MQEXT_ALL: i32 = 0;
pub const MQEXT_OBJECT: i32 = 1;
pub const MQEXT_AUTHORITY: i32 = 2;

// MQEXTATTRS_*
pub const MQEXTATTRS_ALL: i32 = 0;
pub const MQEXTATTRS_NONDEF: i32 = 1;

// MQFC_*
pub const MQFC_NO: i32 = 0;
pub const MQFC_YES: i32 = 1;

// MQFIELD_*
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_StrucId: i32 = 8000;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_Version: i32 = 8001;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_StrucLength: i32 = 8002;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_QFlags: i32 = 8003;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_QName: i32 = 8004;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_QMgrIdentifier: i32 = 8005;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_ClusterRecOffset: i32 = 8006;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_QType: i32 = 8007;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_QDesc: i32 = 8008;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_DefBind: i32 = 8009;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_DefPersistence: i32 = 8010;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_DefPriority: i32 = 8011;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_InhibitPut: i32 = 8012;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_CLWLQueuePriority: i32 = 8013;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_CLWLQueueRank: i32 = 8014;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_DefPutResponse: i32 = 8015;
#[allow(non_upper_case_globals)] // IBM spells this one in mixed case.
pub const MQFIELD_WQR_CapExpiry: i32 = 8016;

// MQFS_*
pub const MQFS_SHARED: i32 = -1;

// MQFSENC_*
pub const MQFSENC_NO: i32 = 0;
pub const MQFSENC_YES: i32 = 1;
pub const MQFSENC_UNKNOWN: i32 = 2;

// MQFUN_*
pub const MQFUN_TYPE_UNKNOWN: i32 = 0;
pub const MQFUN_TYPE_JVM: i32 = 1;
pub const MQFUN_TYPE_PROGRAM: i32 = 2;
pub const MQFUN_TYPE_PROCEDURE: i32 = 3;
pub const MQFUN_TYPE_USERDEF: i32 = 4;
pub const MQFUN_TYPE_COMMAND: i32 = 5;

// MQGA_*
pub const MQGA_FIRST: i32 = 8001;
pub const MQGA_LAST: i32 = 9000;

// MQGUR_*
pub const MQGUR_DISABLED: i32 = 0;
pub const MQGUR_ENABLED: i32 = 1;

// MQHA_*
pub const MQHA_BAG_HANDLE: i32 = 4001;
pub const MQHA_FIRST: i32 = 4001;
pub const MQHA_LAST_USED: i32 = 4001;
pub const MQHA_LAST: i32 = 6000;

// MQHB_*
pub const MQHB_NONE: i32 = -2;
pub const MQHB_UNUSABLE_HBAG: i32 = -1;

// MQHC_*
pub const MQHC_UNASSOCIATED_HCONN: i32 = -3;
pub const MQHC_UNUSABLE_HCONN: i32 = -1;
pub const MQHC_DEF_HCONN: i32 = 0;

// MQHM_*
pub const MQHM_UNUSABLE_HMSG: i32 = -1;
pub const MQHM_NONE: i32 = 0;

// MQHO_*
pub const MQHO_UNUSABLE_HOBJ: i32 = -1;
pub const MQHO_NONE: i32 = 0;

// MQHSTATE_*
pub const MQHSTATE_INACTIVE: i32 = 0;
pub const MQHSTATE_ACTIVE: i32 = 1;

// MQIDO_*
pub const MQIDO_COMMIT: i32 = 1;
pub const MQIDO_BACKOUT: i32 = 2;

// MQIEPF_*
pub const MQIEPF_CLIENT_LIBRARY: i32 = 0;
pub const MQIEPF_NONE: i32 = 0;
pub const MQIEPF_NON_THREADED_LIBRARY: i32 = 0;
pub const MQIEPF_THREADED_LIBRARY: i32 = 1;
pub const MQIEPF_LOCAL_LIBRARY: i32 = 2;

// MQIGQ_*
pub const MQIGQ_DISABLED: i32 = 0;
pub const MQIGQ_ENABLED: i32 = 1;

// MQIGQPA_*
pub const MQIGQPA_DEFAULT: i32 = 1;
pub const MQIGQPA_CONTEXT: i32 = 2;
pub const MQIGQPA_ONLY_IGQ: i32 = 3;
pub const MQIGQPA_ALTERNATE_OR_IGQ: i32 = 4;

// MQIIH_*
pub const MQIIH_NONE: i32 = 0;
pub const MQIIH_UNLIMITED_EXPIRATION: i32 = 0;
pub const MQIIH_PASS_EXPIRATION: i32 = 1;
pub const MQIIH_REPLY_FORMAT_NONE: i32 = 8;
pub const MQIIH_IGNORE_PURG: i32 = 16;
pub const MQIIH_CM0_REQUEST_RESPONSE: i32 = 32;

// MQIMGRCOV_*
pub const MQIMGRCOV_NO: i32 = 0;
pub const MQIMGRCOV_YES: i32 = 1;
pub const MQIMGRCOV_AS_Q_MGR: i32 = 2;

// MQIMMREASON_*
pub const MQIMMREASON_NONE: i32 = 0;
pub const MQIMMREASON_NOT_CLIENT: i32 = 1;
pub const MQIMMREASON_NOT_RECONNECTABLE: i32 = 2;
pub const MQIMMREASON_MOVING: i32 = 3;
pub const MQIMMREASON_APPLNAME_CHANGED: i32 = 4;
pub const MQIMMREASON_IN_TRANSACTION: i32 = 5;
pub const MQIMMREASON_AWAITS_REPLY: i32 = 6;
pub const MQIMMREASON_NO_REDIRECT: i32 = 7;

// MQIMPO_*
pub const MQIMPO_INQ_FIRST: i32 = 0;
pub const MQIMPO_NONE: i32 = 0;
pub const MQIMPO_CONVERT_TYPE: i32 = 2;
pub const MQIMPO_QUERY_LENGTH: i32 = 4;
pub const MQIMPO_INQ_NEXT: i32 = 8;
pub const MQIMPO_INQ_PROP_UNDER_CURSOR: i32 = 16;
pub const MQIMPO_CONVERT_VALUE: i32 = 32;

// MQINBD_*
pub const MQINBD_Q_MGR: i32 = 0;
pub const MQINBD_GROUP: i32 = 3;

// MQIND_*
pub const MQIND_ALL: i32 = -2;
pub const MQIND_NONE: i32 = -1;

// MQIPADDR_*
pub const MQIPADDR_IPV4: i32 = 0;
pub const MQIPADDR_IPV6: i32 = 1;

// MQIS_*
pub const MQIS_NO: i32 = 0;
pub const MQIS_YES: i32 = 1;

// MQITEM_*
pub const MQITEM_INTEGER: i32 = 1;
pub const MQITEM_STRING: i32 = 2;
pub const MQITEM_BAG: i32 = 3;
pub const MQITEM_BYTE_STRING: i32 = 4;
pub const MQITEM_INTEGER_FILTER: i32 = 5;
pub const MQITEM_STRING_FILTER: i32 = 6;
pub const MQITEM_INTEGER64: i32 = 7;
pub const MQITEM_BYTE_STRING_FILTER: i32 = 8;

// MQKEY_*
pub const MQKEY_REUSE_UNLIMITED: i32 = -1;
pub const MQKEY_REUSE_DISABLED: i32 = 0;

// MQLDAP_*
pub const MQLDAP_AUTHORMD_OS: i32 = 0;
pub const MQLDAP_NESTGRP_NO: i32 = 0;
pub const MQLDAP_AUTHORMD_SEARCHGRP: i32 = 1;
pub const MQLDAP_NESTGRP_YES: i32 = 1;
pub const MQLDAP_AUTHORMD_SEARCHUSR: i32 = 2;
pub const MQLDAP_AUTHORMD_SRCHGRPSN: i32 = 3;

// MQLDAPC_*
pub const MQLDAPC_INACTIVE: i32 = 0;
pub const MQLDAPC_CONNECTED: i32 = 1;
pub const MQLDAPC_ERROR: i32 = 2;

// MQLOGTYPE_*
pub const MQLOGTYPE_CIRCULAR: i32 = 0;
pub const MQLOGTYPE_LINEAR: i32 = 1;
pub const MQLOGTYPE_REPLICATED: i32 = 2;

// MQLR_*
pub const MQLR_MAX: i32 = -2;
pub const MQLR_AUTO: i32 = -1;
pub const MQLR_ONE: i32 = 1;

// MQMASTER_*
pub const MQMASTER_NO: i32 = 0;
pub const MQMASTER_YES: i32 = 1;

// MQMATCH_*
pub const MQMATCH_GENERIC: i32 = 0;
pub const MQMATCH_RUNCHECK: i32 = 1;
pub const MQMATCH_EXACT: i32 = 2;
pub const MQMATCH_ALL: i32 = 3;

// MQMC_*
pub const MQMC_AS_PARENT: i32 = 0;
pub const MQMC_ENABLED: i32 = 1;
pub const MQMC_DISABLED: i32 = 2;
pub const MQMC_ONLY: i32 = 3;

// MQMCB_*
pub const MQMCB_DISABLED: i32 = 0;
pub const MQMCB_ENABLED: i32 = 1;

// MQMCEV_*
pub const MQMCEV_PACKET_LOSS: i32 = 1;
pub const MQMCEV_HEARTBEAT_TIMEOUT: i32 = 2;
pub const MQMCEV_VERSION_CONFLICT: i32 = 3;
pub const MQMCEV_RELIABILITY: i32 = 4;
pub const MQMCEV_CLOSED_TRANS: i32 = 5;
pub const MQMCEV_STREAM_ERROR: i32 = 6;
pub const MQMCEV_NEW_SOURCE: i32 = 10;
pub const MQMCEV_RECEIVE_QUEUE_TRIMMED: i32 = 11;
pub const MQMCEV_PACKET_LOSS_NACK_EXPIRE: i32 = 12;
pub const MQMCEV_ACK_RETRIES_EXCEEDED: i32 = 13;
pub const MQMCEV_STREAM_SUSPEND_NACK: i32 = 14;
pub const MQMCEV_STREAM_RESUME_NACK: i32 = 15;
pub const MQMCEV_STREAM_EXPELLED: i32 = 16;
pub const MQMCEV_FIRST_MESSAGE: i32 = 20;
pub const MQMCEV_LATE_JOIN_FAILURE: i32 = 21;
pub const MQMCEV_MESSAGE_LOSS: i32 = 22;
pub const MQMCEV_SEND_PACKET_FAILURE: i32 = 23;
pub const MQMCEV_REPAIR_DELAY: i32 = 24;
pub const MQMCEV_MEMORY_ALERT_ON: i32 = 25;
pub const MQMCEV_MEMORY_ALERT_OFF: i32 = 26;
pub const MQMCEV_NACK_ALERT_ON: i32 = 27;
pub const MQMCEV_NACK_ALERT_OFF: i32 = 28;
pub const MQMCEV_REPAIR_ALERT_ON: i32 = 29;
pub const MQMCEV_REPAIR_ALERT_OFF: i32 = 30;
pub const MQMCEV_RELIABILITY_CHANGED: i32 = 31;
pub const MQMCEV_SHM_DEST_UNUSABLE: i32 = 80;
pub const MQMCEV_SHM_PORT_UNUSABLE: i32 = 81;
pub const MQMCEV_CCT_GETTIME_FAILED: i32 = 110;
pub const MQMCEV_DEST_INTERFACE_FAILURE: i32 = 120;
pub const MQMCEV_DEST_INTERFACE_FAILOVER: i32 = 121;
pub const MQMCEV_PORT_INTERFACE_FAILURE: i32 = 122;
pub const MQMCEV_PORT_INTERFACE_FAILOVER: i32 = 123;

// MQMCP_*
pub const MQMCP_COMPAT: i32 = -2;
pub const MQMCP_ALL: i32 = -1;
pub const MQMCP_NONE: i32 = 0;
pub const MQMCP_USER: i32 = 1;
pub const MQMCP_REPLY: i32 = 2;

// MQMDEF_*
pub const MQMDEF_NONE: i32 = 0;

// MQMEDIMGINTVL_*
pub const MQMEDIMGINTVL_OFF: i32 = 0;

// MQMEDIMGLOGLN_*
pub const MQMEDIMGLOGLN_OFF: i32 = 0;

// MQMEDIMGSCHED_*
pub const MQMEDIMGSCHED_MANUAL: i32 = 0;
pub const MQMEDIMGSCHED_AUTO: i32 = 1;

// MQMHBO_*
pub const MQMHBO_NONE: i32 = 0;
pub const MQMHBO_PROPERTIES_IN_MQRFH2: i32 = 1;
pub const MQMHBO_DELETE_PROPERTIES: i32 = 2;

// MQMLP_*
pub const MQMLP_ENCRYPTION_ALG_NONE: i32 = 0;
pub const MQMLP_SIGN_ALG_NONE: i32 = 0;
pub const MQMLP_TOLERATE_UNPROTECTED_NO: i32 = 0;
pub const MQMLP_ENCRYPTION_ALG_RC2: i32 = 1;
pub const MQMLP_SIGN_ALG_MD5: i32 = 1;
pub const MQMLP_TOLERATE_UNPROTECTED_YES: i32 = 1;
pub const MQMLP_ENCRYPTION_ALG_DES: i32 = 2;
pub const MQMLP_SIGN_ALG_SHA1: i32 = 2;
pub const MQMLP_ENCRYPTION_ALG_3DES: i32 = 3;
pub const MQMLP_SIGN_ALG_SHA224: i32 = 3;
pub const MQMLP_ENCRYPTION_ALG_AES128: i32 = 4;
pub const MQMLP_SIGN_ALG_SHA256: i32 = 4;
pub const MQMLP_ENCRYPTION_ALG_AES256: i32 = 5;
pub const MQMLP_SIGN_ALG_SHA384: i32 = 5;
pub const MQMLP_SIGN_ALG_SHA512: i32 = 6;

// MQMMBI_*
pub const MQMMBI_UNLIMITED: i32 = -1;

// MQMODE_*
pub const MQMODE_FORCE: i32 = 0;
pub const MQMODE_QUIESCE: i32 = 1;
pub const MQMODE_TERMINATE: i32 = 2;

// MQMON_*
pub const MQMON_Q_MGR: i32 = -3;
pub const MQMON_NONE: i32 = -1;
pub const MQMON_NOT_AVAILABLE: i32 = -1;
pub const MQMON_DISABLED: i32 = 0;
pub const MQMON_OFF: i32 = 0;
pub const MQMON_ENABLED: i32 = 1;
pub const MQMON_ON: i32 = 1;
pub const MQMON_LOW: i32 = 17;
pub const MQMON_MEDIUM: i32 = 33;
pub const MQMON_HIGH: i32 = 65;

// MQMULC_*
pub const MQMULC_STANDARD: i32 = 0;
pub const MQMULC_REFINED: i32 = 1;

// MQNC_*
pub const MQNC_MAX_NAMELIST_NAME_COUNT: i32 = 256;

// MQNHABACKLOG_*
pub const MQNHABACKLOG_UNKNOWN: i32 = -1;

// MQNHACONNACTV_*
pub const MQNHACONNACTV_NO: i32 = 0;
pub const MQNHACONNACTV_YES: i32 = 1;

// MQNHACONNGRP_*
pub const MQNHACONNGRP_NO: i32 = 0;
pub const MQNHACONNGRP_YES: i32 = 1;
pub const MQNHACONNGRP_SUSPENDED: i32 = 2;

// MQNHAGRPROLE_*
pub const MQNHAGRPROLE_UNKNOWN: i32 = 0;
pub const MQNHAGRPROLE_NOT_CONFIGURED: i32 = 1;
pub const MQNHAGRPROLE_LIVE: i32 = 2;
pub const MQNHAGRPROLE_RECOVERY: i32 = 3;
pub const MQNHAGRPROLE_PENDING_LIVE: i32 = 4;
pub const MQNHAGRPROLE_PENDING_RECOVERY: i32 = 5;

// MQNHAINSYNC_*
pub const MQNHAINSYNC_NO: i32 = 0;
pub const MQNHAINSYNC_YES: i32 = 1;

// MQNHAROLE_*
pub const MQNHAROLE_UNKNOWN: i32 = 0;
pub const MQNHAROLE_ACTIVE: i32 = 1;
pub const MQNHAROLE_REPLICA: i32 = 2;
pub const MQNHAROLE_LEADER: i32 = 3;

// MQNHASTATUS_*
pub const MQNHASTATUS_UNKNOWN: i32 = 0;
pub const MQNHASTATUS_NORMAL: i32 = 1;
pub const MQNHASTATUS_CHECKING: i32 = 2;
pub const MQNHASTATUS_SYNCHRONIZING: i32 = 3;
pub const MQNHASTATUS_REBASING: i32 = 4;
pub const MQNHASTATUS_DISK_FULL: i32 = 5;
pub const MQNHASTATUS_DISCONNECTED: i32 = 6;
pub const MQNHASTATUS_PARTITIONED: i32 = 7;

// MQNHATYPE_*
pub const MQNHATYPE_ALL: i32 = -1;
pub const MQNHATYPE_INSTANCE: i32 = 0;
pub const MQNHATYPE_GROUP: i32 = 1;

// MQNPM_*
pub const MQNPM_CLASS_NORMAL: i32 = 0;
pub const MQNPM_CLASS_HIGH: i32 = 10;

// MQNSH_*
pub const MQNSH_ALL: i32 = -1;
pub const MQNSH_NONE: i32 = 0;

// MQNT_*
pub const MQNT_NONE: i32 = 0;
pub const MQNT_Q: i32 = 1;
pub const MQNT_CLUSTER: i32 = 2;
pub const MQNT_AUTH_INFO: i32 = 4;
pub const MQNT_ALL: i32 = 1001;

// MQOA_*
pub const MQOA_FIRST: i32 = 1;
pub const MQOA_LAST: i32 = 9000;

// MQOL_*
pub const MQOL_UNDEFINED: i32 = -1;

// MQOM_*
pub const MQOM_NO: i32 = 0;
pub const MQOM_YES: i32 = 1;

// MQOP_*
pub const MQOP_START: i32 = 1;
pub const MQOP_START_WAIT: i32 = 2;
pub const MQOP_STOP: i32 = 4;
pub const MQOP_REGISTER: i32 = 256;
pub const MQOP_DEREGISTER: i32 = 512;
pub const MQOP_SUSPEND: i32 = 65536;
pub const MQOP_RESUME: i32 = 131072;

// MQOPER_*
pub const MQOPER_SYSTEM_FIRST: i32 = 0;
pub const MQOPER_UNKNOWN: i32 = 0;
pub const MQOPER_BROWSE: i32 = 1;
pub const MQOPER_DISCARD: i32 = 2;
pub const MQOPER_GET: i32 = 3;
pub const MQOPER_PUT: i32 = 4;
pub const MQOPER_PUT_REPLY: i32 = 5;
pub const MQOPER_PUT_REPORT: i32 = 6;
pub const MQOPER_RECEIVE: i32 = 7;
pub const MQOPER_SEND: i32 = 8;
pub const MQOPER_TRANSFORM: i32 = 9;
pub const MQOPER_PUBLISH: i32 = 10;
pub const MQOPER_EXCLUDED_PUBLISH: i32 = 11;
pub const MQOPER_DISCARDED_PUBLISH: i32 = 12;
pub const MQOPER_SYSTEM_LAST: i32 = 65535;
pub const MQOPER_APPL_FIRST: i32 = 65536;
pub const MQOPER_APPL_LAST: i32 = 999999999;

// MQOPMODE_*
pub const MQOPMODE_COMPAT: i32 = 0;
pub const MQOPMODE_NEW_FUNCTION: i32 = 1;

// MQOTEL_*
pub const MQOTEL_PCTL_QMGR: i32 = 0;
pub const MQOTEL_TRACE_QMGR: i32 = 0;
pub const MQOTEL_PCTL_MANUAL: i32 = 1;
pub const MQOTEL_TRACE_OFF: i32 = 1;
pub const MQOTEL_PCTL_AUTO: i32 = 2;
pub const MQOTEL_TRACE_ON: i32 = 2;
pub const MQOTEL_PCTL_AS_PARENT: i32 = 3;
pub const MQOTEL_TRACE_NONE: i32 = 3;
pub const MQOTEL_TRACE_AS_PARENT: i32 = 4;

// MQPAGECLAS_*
pub const MQPAGECLAS_4KB: i32 = 0;
pub const MQPAGECLAS_FIXED4KB: i32 = 1;

// MQPD_*
pub const MQPD_REJECT_UNSUP_MASK: i32 = -1048576;
pub const MQPD_NONE: i32 = 0;
pub const MQPD_NO_CONTEXT: i32 = 0;
pub const MQPD_SUPPORT_OPTIONAL: i32 = 1;
pub const MQPD_USER_CONTEXT: i32 = 1;
pub const MQPD_ACCEPT_UNSUP_MASK: i32 = 1023;
pub const MQPD_SUPPORT_REQUIRED_IF_LOCAL: i32 = 1024;
pub const MQPD_ACCEPT_UNSUP_IF_XMIT_MASK: i32 = 1047552;
pub const MQPD_SUPPORT_REQUIRED: i32 = 1048576;

// MQPO_*
pub const MQPO_NO: i32 = 0;
pub const MQPO_YES: i32 = 1;

// MQPROP_*
pub const MQPROP_UNRESTRICTED_LENGTH: i32 = -1;
pub const MQPROP_COMPATIBILITY: i32 = 0;
pub const MQPROP_NONE: i32 = 1;
pub const MQPROP_ALL: i32 = 2;
pub const MQPROP_FORCE_MQRFH2: i32 = 3;
pub const MQPROP_V6COMPAT: i32 = 4;

// MQPROTO_*
pub const MQPROTO_MQTTV3: i32 = 1;
pub const MQPROTO_HTTP: i32 = 2;
pub const MQPROTO_AMQP: i32 = 3;
pub const MQPROTO_MQTTV311: i32 = 4;

// MQPRT_*
pub const MQPRT_RESPONSE_AS_PARENT: i32 = 0;
pub const MQPRT_SYNC_RESPONSE: i32 = 1;
pub const MQPRT_ASYNC_RESPONSE: i32 = 2;

// MQPS_*
pub const MQPS_STATUS_INACTIVE: i32 = 0;
pub const MQPS_STATUS_STARTING: i32 = 1;
pub const MQPS_STATUS_STOPPING: i32 = 2;
pub const MQPS_STATUS_ACTIVE: i32 = 3;
pub const MQPS_STATUS_COMPAT: i32 = 4;
pub const MQPS_STATUS_ERROR: i32 = 5;
pub const MQPS_STATUS_REFUSED: i32 = 6;

// MQPSCLUS_*
pub const MQPSCLUS_DISABLED: i32 = 0;
pub const MQPSCLUS_ENABLED: i32 = 1;

// MQPSCT_*
pub const MQPSCT_NONE: i32 = -1;

// MQPSM_*
pub const MQPSM_DISABLED: i32 = 0;
pub const MQPSM_COMPAT: i32 = 1;
pub const MQPSM_ENABLED: i32 = 2;

// MQPSPROP_*
pub const MQPSPROP_NONE: i32 = 0;
pub const MQPSPROP_COMPAT: i32 = 1;
pub const MQPSPROP_RFH2: i32 = 2;
pub const MQPSPROP_MSGPROP: i32 = 3;

// MQPSST_*
pub const MQPSST_ALL: i32 = 0;
pub const MQPSST_LOCAL: i32 = 1;
pub const MQPSST_PARENT: i32 = 2;
pub const MQPSST_CHILD: i32 = 3;

// MQPUBO_*
pub const MQPUBO_NONE: i32 = 0;
pub const MQPUBO_CORREL_ID_AS_IDENTITY: i32 = 1;
pub const MQPUBO_RETAIN_PUBLICATION: i32 = 2;
pub const MQPUBO_OTHER_SUBSCRIBERS_ONLY: i32 = 4;
pub const MQPUBO_NO_REGISTRATION: i32 = 8;
pub const MQPUBO_IS_RETAINED_PUBLICATION: i32 = 16;

// MQQF_*
pub const MQQF_LOCAL_Q: i32 = 1;
pub const MQQF_CLWL_USEQ_ANY: i32 = 64;
pub const MQQF_CLWL_USEQ_LOCAL: i32 = 128;

// MQQFS_*
pub const MQQFS_DEFAULT: i32 = -1;

// MQQMDT_*
pub const MQQMDT_EXPLICIT_CLUSTER_SENDER: i32 = 1;
pub const MQQMDT_AUTO_CLUSTER_SENDER: i32 = 2;
pub const MQQMDT_CLUSTER_RECEIVER: i32 = 3;
pub const MQQMDT_AUTO_EXP_CLUSTER_SENDER: i32 = 4;

// MQQMF_*
pub const MQQMF_REPOSITORY_Q_MGR: i32 = 2;
pub const MQQMF_CLUSSDR_USER_DEFINED: i32 = 8;
pub const MQQMF_CLUSSDR_AUTO_DEFINED: i32 = 16;
pub const MQQMF_AVAILABLE: i32 = 32;

// MQQMFAC_*
pub const MQQMFAC_IMS_BRIDGE: i32 = 1;
pub const MQQMFAC_DB2: i32 = 2;

// MQQMOPT_*
pub const MQQMOPT_DISABLED: i32 = 0;
pub const MQQMOPT_ENABLED: i32 = 1;
pub const MQQMOPT_REPLY: i32 = 2;

// MQQMSTA_*
pub const MQQMSTA_STARTING: i32 = 1;
pub const MQQMSTA_RUNNING: i32 = 2;
pub const MQQMSTA_QUIESCING: i32 = 3;
pub const MQQMSTA_STANDBY: i32 = 4;

// MQQMT_*
pub const MQQMT_NORMAL: i32 = 0;
pub const MQQMT_REPOSITORY: i32 = 1;

// MQQO_*
pub const MQQO_NO: i32 = 0;
pub const MQQO_YES: i32 = 1;

// MQQSGD_*
pub const MQQSGD_ALL: i32 = -1;
pub const MQQSGD_Q_MGR: i32 = 0;
pub const MQQSGD_COPY: i32 = 1;
pub const MQQSGD_SHARED: i32 = 2;
pub const MQQSGD_GROUP: i32 = 3;
pub const MQQSGD_PRIVATE: i32 = 4;
pub const MQQSGD_LIVE: i32 = 6;

// MQQSGS_*
pub const MQQSGS_UNKNOWN: i32 = 0;
pub const MQQSGS_CREATED: i32 = 1;
pub const MQQSGS_ACTIVE: i32 = 2;
pub const MQQSGS_INACTIVE: i32 = 3;
pub const MQQSGS_FAILED: i32 = 4;
pub const MQQSGS_PENDING: i32 = 5;

// MQQSIE_*
pub const MQQSIE_NONE: i32 = 0;
pub const MQQSIE_HIGH: i32 = 1;
pub const MQQSIE_OK: i32 = 2;

// MQQSO_*
pub const MQQSO_NO: i32 = 0;
pub const MQQSO_SHARED: i32 = 1;
pub const MQQSO_YES: i32 = 1;
pub const MQQSO_EXCLUSIVE: i32 = 2;

// MQQSOT_*
pub const MQQSOT_ALL: i32 = 1;
pub const MQQSOT_INPUT: i32 = 2;
pub const MQQSOT_OUTPUT: i32 = 3;

// MQQSUM_*
pub const MQQSUM_NO: i32 = 0;
pub const MQQSUM_YES: i32 = 1;

// MQRAR_*
pub const MQRAR_NO: i32 = 0;
pub const MQRAR_YES: i32 = 1;

// MQRCN_*
pub const MQRCN_NO: i32 = 0;
pub const MQRCN_YES: i32 = 1;
pub const MQRCN_Q_MGR: i32 = 2;
pub const MQRCN_DISABLED: i32 = 3;

// MQRD_*
pub const MQRD_NO_RECONNECT: i32 = -1;
pub const MQRD_NO_DELAY: i32 = 0;

// MQRDNS_*
pub const MQRDNS_ENABLED: i32 = 0;
pub const MQRDNS_DISABLED: i32 = 1;

// MQREADA_*
pub const MQREADA_NO: i32 = 0;
pub const MQREADA_YES: i32 = 1;
pub const MQREADA_DISABLED: i32 = 2;
pub const MQREADA_INHIBITED: i32 = 3;
pub const MQREADA_BACKLOG: i32 = 4;

// MQRECAUTO_*
pub const MQRECAUTO_NO: i32 = 0;
pub const MQRECAUTO_YES: i32 = 1;

// MQRECORDING_*
pub const MQRECORDING_DISABLED: i32 = 0;
pub const MQRECORDING_Q: i32 = 1;
pub const MQRECORDING_MSG: i32 = 2;

// MQREGO_*
pub const MQREGO_NONE: i32 = 0;
pub const MQREGO_CORREL_ID_AS_IDENTITY: i32 = 1;
pub const MQREGO_ANONYMOUS: i32 = 2;
pub const MQREGO_LOCAL: i32 = 4;
pub const MQREGO_DIRECT_REQUESTS: i32 = 8;
pub const MQREGO_NEW_PUBLICATIONS_ONLY: i32 = 16;
pub const MQREGO_PUBLISH_ON_REQUEST_ONLY: i32 = 32;
pub const MQREGO_DEREGISTER_ALL: i32 = 64;
pub const MQREGO_INCLUDE_STREAM_NAME: i32 = 128;
pub const MQREGO_INFORM_IF_RETAINED: i32 = 256;
pub const MQREGO_DUPLICATES_OK: i32 = 512;
pub const MQREGO_NON_PERSISTENT: i32 = 1024;
pub const MQREGO_PERSISTENT: i32 = 2048;
pub const MQREGO_PERSISTENT_AS_PUBLISH: i32 = 4096;
pub const MQREGO_PERSISTENT_AS_Q: i32 = 8192;
pub const MQREGO_ADD_NAME: i32 = 16384;
pub const MQREGO_NO_ALTERATION: i32 = 32768;
pub const MQREGO_FULL_RESPONSE: i32 = 65536;
pub const MQREGO_JOIN_SHARED: i32 = 131072;
pub const MQREGO_JOIN_EXCLUSIVE: i32 = 262144;
pub const MQREGO_LEAVE_ONLY: i32 = 524288;
pub const MQREGO_VARIABLE_USER_ID: i32 = 1048576;
pub const MQREGO_LOCKED: i32 = 2097152;

// MQREORG_*
pub const MQREORG_DISABLED: i32 = 0;
pub const MQREORG_ENABLED: i32 = 1;

// MQRFH_*
pub const MQRFH_FLAGS_RESTRICTED_MASK: i32 = -65536;
pub const MQRFH_NONE: i32 = 0;
pub const MQRFH_NO_FLAGS: i32 = 0;

// MQRL_*
pub const MQRL_UNDEFINED: i32 = -1;

// MQRMHF_*
pub const MQRMHF_NOT_LAST: i32 = 0;
pub const MQRMHF_LAST: i32 = 1;

// MQROUTE_*
pub const MQROUTE_DELIVER_REJ_UNSUP_MASK: i32 = -65536;
pub const MQROUTE_FORWARD_REJ_UNSUP_MASK: i32 = -65536;
pub const MQROUTE_UNLIMITED_ACTIVITIES: i32 = 0;
pub const MQROUTE_DETAIL_LOW: i32 = 2;
pub const MQROUTE_DETAIL_MEDIUM: i32 = 8;
pub const MQROUTE_DETAIL_HIGH: i32 = 32;
pub const MQROUTE_FORWARD_ALL: i32 = 256;
pub const MQROUTE_FORWARD_IF_SUPPORTED: i32 = 512;
pub const MQROUTE_DELIVER_YES: i32 = 4096;
pub const MQROUTE_DELIVER_NO: i32 = 8192;
pub const MQROUTE_ACCUMULATE_NONE: i32 = 65539;
pub const MQROUTE_ACCUMULATE_IN_MSG: i32 = 65540;
pub const MQROUTE_ACCUMULATE_AND_REPLY: i32 = 65541;

// MQRP_*
pub const MQRP_NO: i32 = 0;
pub const MQRP_YES: i32 = 1;

// MQRQ_*
pub const MQRQ_CONN_NOT_AUTHORIZED: i32 = 1;
pub const MQRQ_OPEN_NOT_AUTHORIZED: i32 = 2;
pub const MQRQ_CLOSE_NOT_AUTHORIZED: i32 = 3;
pub const MQRQ_CMD_NOT_AUTHORIZED: i32 = 4;
pub const MQRQ_Q_MGR_STOPPING: i32 = 5;
pub const MQRQ_Q_MGR_QUIESCING: i32 = 6;
pub const MQRQ_CHANNEL_STOPPED_OK: i32 = 7;
pub const MQRQ_CHANNEL_STOPPED_ERROR: i32 = 8;
pub const MQRQ_CHANNEL_STOPPED_RETRY: i32 = 9;
pub const MQRQ_CHANNEL_STOPPED_DISABLED: i32 = 10;
pub const MQRQ_BRIDGE_STOPPED_OK: i32 = 11;
pub const MQRQ_BRIDGE_STOPPED_ERROR: i32 = 12;
pub const MQRQ_SSL_HANDSHAKE_ERROR: i32 = 13;
pub const MQRQ_SSL_CIPHER_SPEC_ERROR: i32 = 14;
pub const MQRQ_SSL_CLIENT_AUTH_ERROR: i32 = 15;
pub const MQRQ_SSL_PEER_NAME_ERROR: i32 = 16;
pub const MQRQ_SUB_NOT_AUTHORIZED: i32 = 17;
pub const MQRQ_SUB_DEST_NOT_AUTHORIZED: i32 = 18;
pub const MQRQ_SSL_UNKNOWN_REVOCATION: i32 = 19;
pub const MQRQ_SYS_CONN_NOT_AUTHORIZED: i32 = 20;
pub const MQRQ_CHANNEL_BLOCKED_ADDRESS: i32 = 21;
pub const MQRQ_CHANNEL_BLOCKED_USERID: i32 = 22;
pub const MQRQ_CHANNEL_BLOCKED_NOACCESS: i32 = 23;
pub const MQRQ_MAX_ACTIVE_CHANNELS: i32 = 24;
pub const MQRQ_MAX_CHANNELS: i32 = 25;
pub const MQRQ_SVRCONN_INST_LIMIT: i32 = 26;
pub const MQRQ_CLIENT_INST_LIMIT: i32 = 27;
pub const MQRQ_CAF_NOT_INSTALLED: i32 = 28;
pub const MQRQ_CSP_NOT_AUTHORIZED: i32 = 29;
pub const MQRQ_FAILOVER_PERMITTED: i32 = 30;
pub const MQRQ_FAILOVER_NOT_PERMITTED: i32 = 31;
pub const MQRQ_STANDBY_ACTIVATED: i32 = 32;
pub const MQRQ_REPLICA_ACTIVATED: i32 = 33;
pub const MQRQ_CONN_AUTHORIZED: i32 = 65;
pub const MQRQ_OPEN_AUTHORIZED: i32 = 66;
pub const MQRQ_SUB_AUTHORIZED: i32 = 67;
pub const MQRQ_SUB_DEST_AUTHORIZED: i32 = 68;

// MQRT_*
pub const MQRT_CONFIGURATION: i32 = 1;
pub const MQRT_EXPIRY: i32 = 2;
pub const MQRT_NSPROC: i32 = 3;
pub const MQRT_PROXYSUB: i32 = 4;
pub const MQRT_SUB_CONFIGURATION: i32 = 5;

// MQRU_*
pub const MQRU_PUBLISH_ON_REQUEST: i32 = 1;
pub const MQRU_PUBLISH_ALL: i32 = 2;

// MQS_*
pub const MQS_AVAIL_NORMAL: i32 = 0;
pub const MQS_EXPANDST_NORMAL: i32 = 0;
pub const MQS_OPENMODE_NONE: i32 = 0;
pub const MQS_STATUS_CLOSED: i32 = 0;
pub const MQS_AVAIL_ERROR: i32 = 1;
pub const MQS_EXPANDST_FAILED: i32 = 1;
pub const MQS_OPENMODE_READONLY: i32 = 1;
pub const MQS_STATUS_CLOSING: i32 = 1;
pub const MQS_AVAIL_STOPPED: i32 = 2;
pub const MQS_EXPANDST_MAXIMUM: i32 = 2;
pub const MQS_OPENMODE_UPDATE: i32 = 2;
pub const MQS_STATUS_OPENING: i32 = 2;
pub const MQS_OPENMODE_RECOVERY: i32 = 3;
pub const MQS_STATUS_OPEN: i32 = 3;
pub const MQS_STATUS_NOTENABLED: i32 = 4;
pub const MQS_STATUS_ALLOCFAIL: i32 = 5;
pub const MQS_STATUS_OPENFAIL: i32 = 6;
pub const MQS_STATUS_STGFAIL: i32 = 7;
pub const MQS_STATUS_DATAFAIL: i32 = 8;

// MQSCO_*
pub const MQSCO_RESET_COUNT_DEFAULT: i32 = 0;
pub const MQSCO_Q_MGR: i32 = 1;
pub const MQSCO_CELL: i32 = 2;

// MQSCOPE_*
pub const MQSCOPE_ALL: i32 = 0;
pub const MQSCOPE_AS_PARENT: i32 = 1;
pub const MQSCOPE_QMGR: i32 = 4;

// MQSCYC_*
pub const MQSCYC_UPPER: i32 = 0;
pub const MQSCYC_MIXED: i32 = 1;

// MQSECCOMM_*
pub const MQSECCOMM_NO: i32 = 0;
pub const MQSECCOMM_YES: i32 = 1;
pub const MQSECCOMM_ANON: i32 = 2;

// MQSECITEM_*
pub const MQSECITEM_ALL: i32 = 0;
pub const MQSECITEM_MQADMIN: i32 = 1;
pub const MQSECITEM_MQNLIST: i32 = 2;
pub const MQSECITEM_MQPROC: i32 = 3;
pub const MQSECITEM_MQQUEUE: i32 = 4;
pub const MQSECITEM_MQCONN: i32 = 5;
pub const MQSECITEM_MQCMDS: i32 = 6;
pub const MQSECITEM_MXADMIN: i32 = 7;
pub const MQSECITEM_MXNLIST: i32 = 8;
pub const MQSECITEM_MXPROC: i32 = 9;
pub const MQSECITEM_MXQUEUE: i32 = 10;
pub const MQSECITEM_MXTOPIC: i32 = 11;

// MQSECPROT_*
pub const MQSECPROT_NONE: i32 = 0;
pub const MQSECPROT_SSLV30: i32 = 1;
pub const MQSECPROT_TLSV10: i32 = 2;
pub const MQSECPROT_TLSV12: i32 = 4;
pub const MQSECPROT_TLSV13: i32 = 8;

// MQSECSW_*
pub const MQSECSW_PROCESS: i32 = 1;
pub const MQSECSW_NAMELIST: i32 = 2;
pub const MQSECSW_Q: i32 = 3;
pub const MQSECSW_TOPIC: i32 = 4;
pub const MQSECSW_CONTEXT: i32 = 6;
pub const MQSECSW_ALTERNATE_USER: i32 = 7;
pub const MQSECSW_COMMAND: i32 = 8;
pub const MQSECSW_CONNECTION: i32 = 9;
pub const MQSECSW_SUBSYSTEM: i32 = 10;
pub const MQSECSW_COMMAND_RESOURCES: i32 = 11;
pub const MQSECSW_Q_MGR: i32 = 15;
pub const MQSECSW_QSG: i32 = 16;
pub const MQSECSW_OFF_FOUND: i32 = 21;
pub const MQSECSW_ON_FOUND: i32 = 22;
pub const MQSECSW_OFF_NOT_FOUND: i32 = 23;
pub const MQSECSW_ON_NOT_FOUND: i32 = 24;
pub const MQSECSW_OFF_ERROR: i32 = 25;
pub const MQSECSW_ON_OVERRIDDEN: i32 = 26;

// MQSECTYPE_*
pub const MQSECTYPE_AUTHSERV: i32 = 1;
pub const MQSECTYPE_SSL: i32 = 2;
pub const MQSECTYPE_CLASSES: i32 = 3;
pub const MQSECTYPE_CONNAUTH: i32 = 4;

// MQSEL_*
pub const MQSEL_ALL_SYSTEM_SELECTORS: i32 = -30003;
pub const MQSEL_ANY_SYSTEM_SELECTOR: i32 = -30003;
pub const MQSEL_ALL_USER_SELECTORS: i32 = -30002;
pub const MQSEL_ANY_USER_SELECTOR: i32 = -30002;
pub const MQSEL_ALL_SELECTORS: i32 = -30001;
pub const MQSEL_ANY_SELECTOR: i32 = -30001;

// MQSELTYPE_*
pub const MQSELTYPE_NONE: i32 = 0;
pub const MQSELTYPE_STANDARD: i32 = 1;
pub const MQSELTYPE_EXTENDED: i32 = 2;

// MQSMPO_*
pub const MQSMPO_NONE: i32 = 0;
pub const MQSMPO_SET_FIRST: i32 = 0;
pub const MQSMPO_SET_PROP_UNDER_CURSOR: i32 = 1;
pub const MQSMPO_SET_PROP_AFTER_CURSOR: i32 = 2;
pub const MQSMPO_APPEND_PROPERTY: i32 = 4;
pub const MQSMPO_SET_PROP_BEFORE_CURSOR: i32 = 8;

// MQSO_*
pub const MQSO_NONE: i32 = 0;
pub const MQSO_NON_DURABLE: i32 = 0;
pub const MQSO_READ_AHEAD_AS_Q_DEF: i32 = 0;
pub const MQSO_ALTER: i32 = 1;
pub const MQSO_CREATE: i32 = 2;
pub const MQSO_RESUME: i32 = 4;
pub const MQSO_DURABLE: i32 = 8;
pub const MQSO_GROUP_SUB: i32 = 16;
pub const MQSO_MANAGED: i32 = 32;
pub const MQSO_SET_IDENTITY_CONTEXT: i32 = 64;
pub const MQSO_NO_MULTICAST: i32 = 128;
pub const MQSO_FIXED_USERID: i32 = 256;
pub const MQSO_ANY_USERID: i32 = 512;
pub const MQSO_PUBLICATIONS_ON_REQUEST: i32 = 2048;
pub const MQSO_NEW_PUBLICATIONS_ONLY: i32 = 4096;
pub const MQSO_FAIL_IF_QUIESCING: i32 = 8192;
pub const MQSO_ALTERNATE_USER_AUTHORITY: i32 = 262144;
pub const MQSO_WILDCARD_CHAR: i32 = 1048576;
pub const MQSO_WILDCARD_TOPIC: i32 = 2097152;
pub const MQSO_SET_CORREL_ID: i32 = 4194304;
pub const MQSO_SCOPE_QMGR: i32 = 67108864;
pub const MQSO_NO_READ_AHEAD: i32 = 134217728;
pub const MQSO_READ_AHEAD: i32 = 268435456;

// MQSPL_*
pub const MQSPL_PASSTHRU: i32 = 0;
pub const MQSPL_REMOVE: i32 = 1;
pub const MQSPL_AS_POLICY: i32 = 2;

// MQSQQM_*
pub const MQSQQM_USE: i32 = 0;
pub const MQSQQM_IGNORE: i32 = 1;

// MQSR_*
pub const MQSR_ACTION_PUBLICATION: i32 = 1;

// MQSRO_*
pub const MQSRO_NONE: i32 = 0;
pub const MQSRO_FAIL_IF_QUIESCING: i32 = 8192;

// MQSSL_*
pub const MQSSL_FIPS_NO: i32 = 0;
pub const MQSSL_FIPS_YES: i32 = 1;

// MQST_*
pub const MQST_BEST_EFFORT: i32 = 0;
pub const MQST_MUST_DUP: i32 = 1;

// MQSTDBY_*
pub const MQSTDBY_NOT_PERMITTED: i32 = 0;
pub const MQSTDBY_PERMITTED: i32 = 1;

// MQSUB_*
pub const MQSUB_DURABLE_ALL: i32 = -1;
pub const MQSUB_DURABLE_AS_PARENT: i32 = 0;
pub const MQSUB_DURABLE_ALLOWED: i32 = 1;
pub const MQSUB_DURABLE_YES: i32 = 1;
pub const MQSUB_DURABLE_INHIBITED: i32 = 2;
pub const MQSUB_DURABLE_NO: i32 = 2;

// MQSUBTYPE_*
pub const MQSUBTYPE_USER: i32 = -2;
pub const MQSUBTYPE_ALL: i32 = -1;
pub const MQSUBTYPE_API: i32 = 1;
pub const MQSUBTYPE_ADMIN: i32 = 2;
pub const MQSUBTYPE_PROXY: i32 = 3;

// MQSUS_*
pub const MQSUS_NO: i32 = 0;
pub const MQSUS_YES: i32 = 1;

// MQSVC_*
pub const MQSVC_CONTROL_Q_MGR: i32 = 0;
pub const MQSVC_STATUS_STOPPED: i32 = 0;
pub const MQSVC_TYPE_COMMAND: i32 = 0;
pub const MQSVC_CONTROL_Q_MGR_START: i32 = 1;
pub const MQSVC_STATUS_STARTING: i32 = 1;
pub const MQSVC_TYPE_SERVER: i32 = 1;
pub const MQSVC_CONTROL_MANUAL: i32 = 2;
pub const MQSVC_STATUS_RUNNING: i32 = 2;
pub const MQSVC_STATUS_STOPPING: i32 = 3;
pub const MQSVC_STATUS_RETRYING: i32 = 4;

// MQSYNCPOINT_*
pub const MQSYNCPOINT_YES: i32 = 0;
pub const MQSYNCPOINT_IFPER: i32 = 1;

// MQSYSOBJ_*
pub const MQSYSOBJ_YES: i32 = 0;
pub const MQSYSOBJ_NO: i32 = 1;

// MQSYSP_*
pub const MQSYSP_NO: i32 = 0;
pub const MQSYSP_YES: i32 = 1;
pub const MQSYSP_EXTENDED: i32 = 2;
pub const MQSYSP_TYPE_INITIAL: i32 = 10;
pub const MQSYSP_TYPE_SET: i32 = 11;
pub const MQSYSP_TYPE_LOG_COPY: i32 = 12;
pub const MQSYSP_TYPE_LOG_STATUS: i32 = 13;
pub const MQSYSP_TYPE_ARCHIVE_TAPE: i32 = 14;
pub const MQSYSP_ALLOC_BLK: i32 = 20;
pub const MQSYSP_ALLOC_TRK: i32 = 21;
pub const MQSYSP_ALLOC_CYL: i32 = 22;
pub const MQSYSP_STATUS_BUSY: i32 = 30;
pub const MQSYSP_STATUS_PREMOUNT: i32 = 31;
pub const MQSYSP_STATUS_AVAILABLE: i32 = 32;
pub const MQSYSP_STATUS_UNKNOWN: i32 = 33;
pub const MQSYSP_STATUS_ALLOC_ARCHIVE: i32 = 34;
pub const MQSYSP_STATUS_COPYING_BSDS: i32 = 35;
pub const MQSYSP_STATUS_COPYING_LOG: i32 = 36;

// MQTA_*
pub const MQTA_PUB_AS_PARENT: i32 = 0;
pub const MQTA_SUB_AS_PARENT: i32 = 0;
pub const MQTA_BLOCK: i32 = 1;
pub const MQTA_PROXY_SUB_FORCE: i32 = 1;
pub const MQTA_PUB_INHIBITED: i32 = 1;
pub const MQTA_SUB_INHIBITED: i32 = 1;
pub const MQTA_PASSTHRU: i32 = 2;
pub const MQTA_PROXY_SUB_FIRSTUSE: i32 = 2;
pub const MQTA_PUB_ALLOWED: i32 = 2;
pub const MQTA_SUB_ALLOWED: i32 = 2;

// MQTCPKEEP_*
pub const MQTCPKEEP_NO: i32 = 0;
pub const MQTCPKEEP_YES: i32 = 1;

// MQTCPSTACK_*
pub const MQTCPSTACK_SINGLE: i32 = 0;
pub const MQTCPSTACK_MULTIPLE: i32 = 1;

// MQTIME_*
pub const MQTIME_UNIT_MINS: i32 = 0;
pub const MQTIME_UNIT_SECS: i32 = 1;

// MQTOPT_*
pub const MQTOPT_LOCAL: i32 = 0;
pub const MQTOPT_CLUSTER: i32 = 1;
pub const MQTOPT_ALL: i32 = 2;

// MQTRAXSTR_*
pub const MQTRAXSTR_NO: i32 = 0;
pub const MQTRAXSTR_YES: i32 = 1;

// MQTRIGGER_*
pub const MQTRIGGER_RESTART_NO: i32 = 0;
pub const MQTRIGGER_RESTART_YES: i32 = 1;

// MQTSCOPE_*
pub const MQTSCOPE_QMGR: i32 = 1;
pub const MQTSCOPE_ALL: i32 = 2;

// MQTYPE_*
pub const MQTYPE_AS_SET: i32 = 0;
pub const MQTYPE_NULL: i32 = 2;
pub const MQTYPE_BOOLEAN: i32 = 4;
pub const MQTYPE_BYTE_STRING: i32 = 8;
pub const MQTYPE_INT8: i32 = 16;
pub const MQTYPE_INT16: i32 = 32;
pub const MQTYPE_INT32: i32 = 64;
pub const MQTYPE_LONG: i32 = 64;
pub const MQTYPE_INT64: i32 = 128;
pub const MQTYPE_FLOAT32: i32 = 256;
pub const MQTYPE_FLOAT64: i32 = 512;
pub const MQTYPE_STRING: i32 = 1024;

// MQUA_*
pub const MQUA_FIRST: i32 = 65536;
pub const MQUA_LAST: i32 = 999999999;

// MQUCI_*
pub const MQUCI_NO: i32 = 0;
pub const MQUCI_YES: i32 = 1;

// MQUIDSUPP_*
pub const MQUIDSUPP_NO: i32 = 0;
pub const MQUIDSUPP_YES: i32 = 1;

// MQUNDELIVERED_*
pub const MQUNDELIVERED_NORMAL: i32 = 0;
pub const MQUNDELIVERED_SAFE: i32 = 1;
pub const MQUNDELIVERED_DISCARD: i32 = 2;
pub const MQUNDELIVERED_KEEP: i32 = 3;

// MQUOWST_*
pub const MQUOWST_NONE: i32 = 0;
pub const MQUOWST_ACTIVE: i32 = 1;
pub const MQUOWST_PREPARED: i32 = 2;
pub const MQUOWST_UNRESOLVED: i32 = 3;

// MQUOWT_*
pub const MQUOWT_Q_MGR: i32 = 0;
pub const MQUOWT_CICS: i32 = 1;
pub const MQUOWT_RRS: i32 = 2;
pub const MQUOWT_IMS: i32 = 3;
pub const MQUOWT_XA: i32 = 4;

// MQUS_*
pub const MQUS_NORMAL: i32 = 0;
pub const MQUS_TRANSMISSION: i32 = 1;

// MQUSAGE_*
pub const MQUSAGE_PS_AVAILABLE: i32 = 0;
pub const MQUSAGE_SMDS_AVAILABLE: i32 = 0;
pub const MQUSAGE_EXPAND_USER: i32 = 1;
pub const MQUSAGE_PS_DEFINED: i32 = 1;
pub const MQUSAGE_SMDS_NO_DATA: i32 = 1;
pub const MQUSAGE_EXPAND_SYSTEM: i32 = 2;
pub const MQUSAGE_PS_OFFLINE: i32 = 2;
pub const MQUSAGE_EXPAND_NONE: i32 = 3;
pub const MQUSAGE_PS_NOT_DEFINED: i32 = 3;
pub const MQUSAGE_PS_SUSPENDED: i32 = 4;
pub const MQUSAGE_DS_OLDEST_ACTIVE_UOW: i32 = 10;
pub const MQUSAGE_DS_OLDEST_PS_RECOVERY: i32 = 11;
pub const MQUSAGE_DS_OLDEST_CF_RECOVERY: i32 = 12;

// MQUSRC_*
pub const MQUSRC_MAP: i32 = 0;
pub const MQUSRC_NOACCESS: i32 = 1;
pub const MQUSRC_CHANNEL: i32 = 2;

// MQVL_*
pub const MQVL_NULL_TERMINATED: i32 = -1;
pub const MQVL_EMPTY_STRING: i32 = 0;

// MQVS_*
pub const MQVS_NULL_TERMINATED: i32 = -1;

// MQVU_*
pub const MQVU_FIXED_USER: i32 = 1;
pub const MQVU_ANY_USER: i32 = 2;

// MQWARN_*
pub const MQWARN_NO: i32 = 0;
pub const MQWARN_YES: i32 = 1;

// MQWIH_*
pub const MQWIH_NONE: i32 = 0;

// MQWS_*
pub const MQWS_DEFAULT: i32 = 0;
pub const MQWS_CHAR: i32 = 1;
pub const MQWS_TOPIC: i32 = 2;

// MQWXP_*
pub const MQWXP_PUT_BY_CLUSTER_CHL: i32 = 2;

// MQXACT_*
pub const MQXACT_EXTERNAL: i32 = 1;
pub const MQXACT_INTERNAL: i32 = 2;

// MQXC_*
pub const MQXC_MQOPEN: i32 = 1;
pub const MQXC_MQCLOSE: i32 = 2;
pub const MQXC_MQGET: i32 = 3;
pub const MQXC_MQPUT: i32 = 4;
pub const MQXC_MQPUT1: i32 = 5;
pub const MQXC_MQINQ: i32 = 6;
pub const MQXC_MQSET: i32 = 8;
pub const MQXC_MQBACK: i32 = 9;
pub const MQXC_MQCMIT: i32 = 10;
pub const MQXC_MQSUB: i32 = 42;
pub const MQXC_MQSUBRQ: i32 = 43;
pub const MQXC_MQCB: i32 = 44;
pub const MQXC_MQCTL: i32 = 45;
pub const MQXC_MQSTAT: i32 = 46;
pub const MQXC_CALLBACK: i32 = 48;

// MQXCC_*
pub const MQXCC_FAILED: i32 = -8;
pub const MQXCC_REQUEST_ACK: i32 = -7;
pub const MQXCC_CLOSE_CHANNEL: i32 = -6;
pub const MQXCC_SUPPRESS_EXIT: i32 = -5;
pub const MQXCC_SEND_SEC_MSG: i32 = -4;
pub const MQXCC_SEND_AND_REQUEST_SEC_MSG: i32 = -3;
pub const MQXCC_SKIP_FUNCTION: i32 = -2;
pub const MQXCC_SUPPRESS_FUNCTION: i32 = -1;
pub const MQXCC_OK: i32 = 0;

// MQXDR_*
pub const MQXDR_OK: i32 = 0;
pub const MQXDR_CONVERSION_FAILED: i32 = 1;

// MQXE_*
pub const MQXE_OTHER: i32 = 0;
pub const MQXE_MCA: i32 = 1;
pub const MQXE_MCA_SVRCONN: i32 = 2;
pub const MQXE_COMMAND_SERVER: i32 = 3;
pub const MQXE_MQSC: i32 = 4;
pub const MQXE_MCA_CLNTCONN: i32 = 5;

// MQXEPO_*
pub const MQXEPO_NONE: i32 = 0;

// MQXF_*
pub const MQXF_INIT: i32 = 1;
pub const MQXF_TERM: i32 = 2;
pub const MQXF_CONN: i32 = 3;
pub const MQXF_CONNX: i32 = 4;
pub const MQXF_DISC: i32 = 5;
pub const MQXF_OPEN: i32 = 6;
pub const MQXF_CLOSE: i32 = 7;
pub const MQXF_PUT1: i32 = 8;
pub const MQXF_PUT: i32 = 9;
pub const MQXF_GET: i32 = 10;
pub const MQXF_DATA_CONV_ON_GET: i32 = 11;
pub const MQXF_INQ: i32 = 12;
pub const MQXF_SET: i32 = 13;
pub const MQXF_BEGIN: i32 = 14;
pub const MQXF_CMIT: i32 = 15;
pub const MQXF_BACK: i32 = 16;
pub const MQXF_STAT: i32 = 18;
pub const MQXF_CB: i32 = 19;
pub const MQXF_CTL: i32 = 20;
pub const MQXF_CALLBACK: i32 = 21;
pub const MQXF_SUB: i32 = 22;
pub const MQXF_SUBRQ: i32 = 23;
pub const MQXF_XACLOSE: i32 = 24;
pub const MQXF_XACOMMIT: i32 = 25;
pub const MQXF_XACOMPLETE: i32 = 26;
pub const MQXF_XAEND: i32 = 27;
pub const MQXF_XAFORGET: i32 = 28;
pub const MQXF_XAOPEN: i32 = 29;
pub const MQXF_XAPREPARE: i32 = 30;
pub const MQXF_XARECOVER: i32 = 31;
pub const MQXF_XAROLLBACK: i32 = 32;
pub const MQXF_XASTART: i32 = 33;
pub const MQXF_AXREG: i32 = 34;
pub const MQXF_AXUNREG: i32 = 35;

// MQXR_*
pub const MQXR_BEFORE: i32 = 1;
pub const MQXR_AFTER: i32 = 2;
pub const MQXR_CONNECTION: i32 = 3;
pub const MQXR_BEFORE_CONVERT: i32 = 4;
pub const MQXR_INIT: i32 = 11;
pub const MQXR_TERM: i32 = 12;
pub const MQXR_MSG: i32 = 13;
pub const MQXR_XMIT: i32 = 14;
pub const MQXR_SEC_MSG: i32 = 15;
pub const MQXR_INIT_SEC: i32 = 16;
pub const MQXR_RETRY: i32 = 17;
pub const MQXR_AUTO_CLUSSDR: i32 = 18;
pub const MQXR_AUTO_RECEIVER: i32 = 19;
pub const MQXR_CLWL_OPEN: i32 = 20;
pub const MQXR_CLWL_PUT: i32 = 21;
pub const MQXR_CLWL_MOVE: i32 = 22;
pub const MQXR_CLWL_REPOS: i32 = 23;
pub const MQXR_CLWL_REPOS_MOVE: i32 = 24;
pub const MQXR_END_BATCH: i32 = 25;
pub const MQXR_ACK_RECEIVED: i32 = 26;
pub const MQXR_AUTO_SVRCONN: i32 = 27;
pub const MQXR_AUTO_CLUSRCVR: i32 = 28;
pub const MQXR_SEC_PARMS: i32 = 29;
pub const MQXR_PUBLICATION: i32 = 30;
pub const MQXR_PRECONNECT: i32 = 31;

// MQXR2_*
pub const MQXR2_DEFAULT_CONTINUATION: i32 = 0;
pub const MQXR2_PUT_WITH_DEF_ACTION: i32 = 0;
pub const MQXR2_STATIC_CACHE: i32 = 0;
pub const MQXR2_USE_AGENT_BUFFER: i32 = 0;
pub const MQXR2_PUT_WITH_DEF_USERID: i32 = 1;
pub const MQXR2_PUT_WITH_MSG_USERID: i32 = 2;
pub const MQXR2_USE_EXIT_BUFFER: i32 = 4;
pub const MQXR2_CONTINUE_CHAIN: i32 = 8;
pub const MQXR2_SUPPRESS_CHAIN: i32 = 16;
pub const MQXR2_DYNAMIC_CACHE: i32 = 32;

// MQXT_*
pub const MQXT_API_CROSSING_EXIT: i32 = 1;
pub const MQXT_API_EXIT: i32 = 2;
pub const MQXT_CHANNEL_SEC_EXIT: i32 = 11;
pub const MQXT_CHANNEL_MSG_EXIT: i32 = 12;
pub const MQXT_CHANNEL_SEND_EXIT: i32 = 13;
pub const MQXT_CHANNEL_RCV_EXIT: i32 = 14;
pub const MQXT_CHANNEL_MSG_RETRY_EXIT: i32 = 15;
pub const MQXT_CHANNEL_AUTO_DEF_EXIT: i32 = 16;
pub const MQXT_CLUSTER_WORKLOAD_EXIT: i32 = 20;
pub const MQXT_PUBSUB_ROUTING_EXIT: i32 = 21;
pub const MQXT_PUBLISH_EXIT: i32 = 22;
pub const MQXT_PRECONNECT_EXIT: i32 = 23;

// MQZAET_*
pub const MQZAET_NONE: i32 = 0;
pub const MQZAET_PRINCIPAL: i32 = 1;
pub const MQZAET_GROUP: i32 = 2;
pub const MQZAET_UNKNOWN: i32 = 3;

// MQZAO_*
pub const MQZAO_NONE: i32 = 0;
pub const MQZAO_CONNECT: i32 = 1;
pub const MQZAO_BROWSE: i32 = 2;
pub const MQZAO_INPUT: i32 = 4;
pub const MQZAO_OUTPUT: i32 = 8;
pub const MQZAO_INQUIRE: i32 = 16;
pub const MQZAO_SET: i32 = 32;
pub const MQZAO_PASS_IDENTITY_CONTEXT: i32 = 64;
pub const MQZAO_PASS_ALL_CONTEXT: i32 = 128;
pub const MQZAO_SET_IDENTITY_CONTEXT: i32 = 256;
pub const MQZAO_SET_ALL_CONTEXT: i32 = 512;
pub const MQZAO_ALTERNATE_USER_AUTHORITY: i32 = 1024;
pub const MQZAO_PUBLISH: i32 = 2048;
pub const MQZAO_SUBSCRIBE: i32 = 4096;
pub const MQZAO_RESUME: i32 = 8192;
pub const MQZAO_ALL_MQI: i32 = 16383;
pub const MQZAO_CREATE: i32 = 65536;
pub const MQZAO_DELETE: i32 = 131072;
pub const MQZAO_DISPLAY: i32 = 262144;
pub const MQZAO_CHANGE: i32 = 524288;
pub const MQZAO_CLEAR: i32 = 1048576;
pub const MQZAO_CONTROL: i32 = 2097152;
pub const MQZAO_CONTROL_EXTENDED: i32 = 4194304;
pub const MQZAO_AUTHORIZE: i32 = 8388608;
pub const MQZAO_ALL_ADMIN: i32 = 16646144;
pub const MQZAO_REMOVE: i32 = 16777216;
pub const MQZAO_SYSTEM: i32 = 33554432;
pub const MQZAO_ALL: i32 = 50216959;
pub const MQZAO_CREATE_ONLY: i32 = 67108864;

// MQZAT_*
pub const MQZAT_INITIAL_CONTEXT: i32 = 0;
pub const MQZAT_CHANGE_CONTEXT: i32 = 1;

// MQZCI_*
pub const MQZCI_CONTINUE: i32 = 0;
pub const MQZCI_DEFAULT: i32 = 0;
pub const MQZCI_STOP: i32 = 1;

// MQZID_*
pub const MQZID_INIT: i32 = 0;
pub const MQZID_INIT_AUTHORITY: i32 = 0;
pub const MQZID_INIT_NAME: i32 = 0;
pub const MQZID_INIT_USERID: i32 = 0;
pub const MQZID_TERM: i32 = 1;
pub const MQZID_TERM_AUTHORITY: i32 = 1;
pub const MQZID_TERM_NAME: i32 = 1;
pub const MQZID_TERM_USERID: i32 = 1;
pub const MQZID_CHECK_AUTHORITY: i32 = 2;
pub const MQZID_FIND_USERID: i32 = 2;
pub const MQZID_LOOKUP_NAME: i32 = 2;
pub const MQZID_COPY_ALL_AUTHORITY: i32 = 3;
pub const MQZID_INSERT_NAME: i32 = 3;
pub const MQZID_DELETE_AUTHORITY: i32 = 4;
pub const MQZID_DELETE_NAME: i32 = 4;
pub const MQZID_SET_AUTHORITY: i32 = 5;
pub const MQZID_GET_AUTHORITY: i32 = 6;
pub const MQZID_GET_EXPLICIT_AUTHORITY: i32 = 7;
pub const MQZID_REFRESH_CACHE: i32 = 8;
pub const MQZID_ENUMERATE_AUTHORITY_DATA: i32 = 9;
pub const MQZID_AUTHENTICATE_USER: i32 = 10;
pub const MQZID_FREE_USER: i32 = 11;
pub const MQZID_INQUIRE: i32 = 12;
pub const MQZID_CHECK_PRIVILEGED: i32 = 13;

// MQZIO_*
pub const MQZIO_PRIMARY: i32 = 0;
pub const MQZIO_SECONDARY: i32 = 1;

// MQZSE_*
pub const MQZSE_CONTINUE: i32 = 0;
pub const MQZSE_START: i32 = 1;

// MQZSL_*
pub const MQZSL_NOT_RETURNED: i32 = 0;
pub const MQZSL_RETURNED: i32 = 1;

// MQZTO_*
pub const MQZTO_PRIMARY: i32 = 0;
pub const MQZTO_SECONDARY: i32 = 1;
