//! Structure identifiers (`*_STRUC_ID`, the 4-byte eye-catcher at the start of each MQI
//! structure), versions (`*_VERSION_n`, `*_CURRENT_VERSION`) and lengths (`*_LENGTH_n`,
//! `*_CURRENT_LENGTH`, `*_STRUC_LENGTH*`).
//!
//! Lengths of structures that contain pointers (for example `MQCNO`, `MQOD`, `MQPMO`, `MQCD`) are
//! the 64-bit values. The PCF structures' lengths live in [`crate::pcf`].

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

// Structure identifiers.
/// Structure identifier of `MQACH` (API-crossing exit chain area header).
pub const MQACH_STRUC_ID: [u8; 4] = *b"ACH ";
/// Structure identifier of `MQAIR` (authentication information record).
pub const MQAIR_STRUC_ID: [u8; 4] = *b"AIR ";
/// Structure identifier of `MQAXC` (API exit context).
pub const MQAXC_STRUC_ID: [u8; 4] = *b"AXC ";
/// Structure identifier of `MQAXP` (API exit parameter).
pub const MQAXP_STRUC_ID: [u8; 4] = *b"AXP ";
/// Structure identifier of `MQBMHO` (buffer to message handle options).
pub const MQBMHO_STRUC_ID: [u8; 4] = *b"BMHO";
/// Structure identifier of `MQBNO` (balancing options).
pub const MQBNO_STRUC_ID: [u8; 4] = *b"BNO ";
/// Structure identifier of `MQBO` (begin options).
pub const MQBO_STRUC_ID: [u8; 4] = *b"BO  ";
/// Structure identifier of `MQCBC` (callback context).
pub const MQCBC_STRUC_ID: [u8; 4] = *b"CBC ";
/// Structure identifier of `MQCBD` (callback descriptor).
pub const MQCBD_STRUC_ID: [u8; 4] = *b"CBD ";
/// Structure identifier of `MQCIH` (CICS bridge header).
pub const MQCIH_STRUC_ID: [u8; 4] = *b"CIH ";
/// Structure identifier of `MQCMHO` (create message handle options).
pub const MQCMHO_STRUC_ID: [u8; 4] = *b"CMHO";
/// Structure identifier of `MQCNO` (connect options).
pub const MQCNO_STRUC_ID: [u8; 4] = *b"CNO ";
/// Structure identifier of `MQCSP` (security parameters).
pub const MQCSP_STRUC_ID: [u8; 4] = *b"CSP ";
/// Structure identifier of `MQCTLO` (control callback options).
pub const MQCTLO_STRUC_ID: [u8; 4] = *b"CTLO";
/// Structure identifier of `MQCXP` (channel exit parameter).
pub const MQCXP_STRUC_ID: [u8; 4] = *b"CXP ";
/// Structure identifier of `MQDH` (distribution header).
pub const MQDH_STRUC_ID: [u8; 4] = *b"DH  ";
/// Structure identifier of `MQDLH` (dead-letter header).
pub const MQDLH_STRUC_ID: [u8; 4] = *b"DLH ";
/// Structure identifier of `MQDMHO` (delete message handle options).
pub const MQDMHO_STRUC_ID: [u8; 4] = *b"DMHO";
/// Structure identifier of `MQDMPO` (delete message property options).
pub const MQDMPO_STRUC_ID: [u8; 4] = *b"DMPO";
/// Structure identifier of `MQDXP` (data-conversion exit parameter).
pub const MQDXP_STRUC_ID: [u8; 4] = *b"DXP ";
/// Structure identifier of `MQEPH` (embedded PCF header).
pub const MQEPH_STRUC_ID: [u8; 4] = *b"EPH ";
/// Structure identifier of `MQGMO` (get-message options).
pub const MQGMO_STRUC_ID: [u8; 4] = *b"GMO ";
/// Structure identifier of `MQIIH` (IMS bridge header).
pub const MQIIH_STRUC_ID: [u8; 4] = *b"IIH ";
/// Structure identifier of `MQIMPO` (inquire message property options).
pub const MQIMPO_STRUC_ID: [u8; 4] = *b"IMPO";
/// Structure identifier of `MQMD` (message descriptor).
pub const MQMD_STRUC_ID: [u8; 4] = *b"MD  ";
/// Structure identifier of `MQMDE` (message descriptor extension).
pub const MQMDE_STRUC_ID: [u8; 4] = *b"MDE ";
/// Structure identifier of `MQMHBO` (message handle to buffer options).
pub const MQMHBO_STRUC_ID: [u8; 4] = *b"MHBO";
/// Structure identifier of `MQNXP` (pre-connect exit parameter).
pub const MQNXP_STRUC_ID: [u8; 4] = *b"NXP ";
/// Structure identifier of `MQOD` (object descriptor).
pub const MQOD_STRUC_ID: [u8; 4] = *b"OD  ";
/// Structure identifier of `MQPBC` (publish exit publication context).
pub const MQPBC_STRUC_ID: [u8; 4] = *b"PBC ";
/// Structure identifier of `MQPD` (property descriptor).
pub const MQPD_STRUC_ID: [u8; 4] = *b"PD  ";
/// Structure identifier of `MQPMO` (put-message options).
pub const MQPMO_STRUC_ID: [u8; 4] = *b"PMO ";
/// Structure identifier of `MQPSXP` (publish exit parameter).
pub const MQPSXP_STRUC_ID: [u8; 4] = *b"PSXP";
/// Structure identifier of `MQRFH` (rules and formatting header (MQRFH and MQRFH2)).
pub const MQRFH_STRUC_ID: [u8; 4] = *b"RFH ";
/// Structure identifier of `MQRMH` (reference message header).
pub const MQRMH_STRUC_ID: [u8; 4] = *b"RMH ";
/// Structure identifier of `MQSBC` (publish exit subscription context).
pub const MQSBC_STRUC_ID: [u8; 4] = *b"SBC ";
/// Structure identifier of `MQSCO` (TLS configuration options).
pub const MQSCO_STRUC_ID: [u8; 4] = *b"SCO ";
/// Structure identifier of `MQSD` (subscription descriptor).
pub const MQSD_STRUC_ID: [u8; 4] = *b"SD  ";
/// Structure identifier of `MQSMPO` (set message property options).
pub const MQSMPO_STRUC_ID: [u8; 4] = *b"SMPO";
/// Structure identifier of `MQSRO` (subscription request options).
pub const MQSRO_STRUC_ID: [u8; 4] = *b"SRO ";
/// Structure identifier of `MQSTS` (status information (MQSTAT)).
pub const MQSTS_STRUC_ID: [u8; 4] = *b"STAT";
/// Structure identifier of `MQTM` (trigger message).
pub const MQTM_STRUC_ID: [u8; 4] = *b"TM  ";
/// Structure identifier of `MQTMC` (character trigger message (MQTMC2)).
pub const MQTMC_STRUC_ID: [u8; 4] = *b"TMC ";
/// Structure identifier of `MQWDR` (cluster workload destination record).
pub const MQWDR_STRUC_ID: [u8; 4] = *b"WDR ";
/// Structure identifier of `MQWIH` (work information header).
pub const MQWIH_STRUC_ID: [u8; 4] = *b"WIH ";
/// Structure identifier of `MQWQR` (cluster workload queue record).
pub const MQWQR_STRUC_ID: [u8; 4] = *b"WQR ";
/// Structure identifier of `MQWXP` (cluster workload exit parameter).
pub const MQWXP_STRUC_ID: [u8; 4] = *b"WXP ";
/// Structure identifier of `MQXEPO` (register entry point options).
pub const MQXEPO_STRUC_ID: [u8; 4] = *b"XEPO";
/// Structure identifier of `MQXQH` (transmission queue header).
pub const MQXQH_STRUC_ID: [u8; 4] = *b"XQH ";
/// Structure identifier of `MQIEP` (interface entry points).
pub const MQIEP_STRUC_ID: [u8; 4] = *b"IEP ";
/// Structure identifier of `MQRFH2` (same eye-catcher as `MQRFH`; told apart by `Version`).
pub const MQRFH2_STRUC_ID: [u8; 4] = MQRFH_STRUC_ID;
/// `MQTMC2.Version` for a version-1 character trigger message (a 4-character field).
pub const MQTMC_VERSION_1: [u8; 4] = *b"   1";
/// `MQTMC2.Version` for a version-2 character trigger message (a 4-character field).
pub const MQTMC_VERSION_2: [u8; 4] = *b"   2";
/// Current `MQTMC2.Version`.
pub const MQTMC_CURRENT_VERSION: [u8; 4] = MQTMC_VERSION_2;

// MQACH
pub const MQACH_CURRENT_LENGTH: i32 = 72;
pub const MQACH_CURRENT_VERSION: i32 = 1;
pub const MQACH_LENGTH_1: i32 = 72;
pub const MQACH_VERSION_1: i32 = 1;

// MQAIR
pub const MQAIR_CURRENT_LENGTH: i32 = 584;
pub const MQAIR_CURRENT_VERSION: i32 = 2;
pub const MQAIR_LENGTH_1: i32 = 328;
pub const MQAIR_LENGTH_2: i32 = 584;
pub const MQAIR_VERSION_1: i32 = 1;
pub const MQAIR_VERSION_2: i32 = 2;

// MQAXC
pub const MQAXC_CURRENT_LENGTH: i32 = 424;
pub const MQAXC_CURRENT_VERSION: i32 = 2;
pub const MQAXC_LENGTH_1: i32 = 392;
pub const MQAXC_LENGTH_2: i32 = 424;
pub const MQAXC_VERSION_1: i32 = 1;
pub const MQAXC_VERSION_2: i32 = 2;

// MQAXP
pub const MQAXP_CURRENT_LENGTH: i32 = 256;
pub const MQAXP_CURRENT_VERSION: i32 = 2;
pub const MQAXP_LENGTH_1: i32 = 256;
pub const MQAXP_VERSION_1: i32 = 1;
pub const MQAXP_VERSION_2: i32 = 2;

// MQBMHO
pub const MQBMHO_CURRENT_LENGTH: i32 = 12;
pub const MQBMHO_CURRENT_VERSION: i32 = 1;
pub const MQBMHO_LENGTH_1: i32 = 12;
pub const MQBMHO_VERSION_1: i32 = 1;

// MQBNO
pub const MQBNO_CURRENT_LENGTH: i32 = 20;
pub const MQBNO_CURRENT_VERSION: i32 = 1;
pub const MQBNO_LENGTH_1: i32 = 20;
pub const MQBNO_VERSION_1: i32 = 1;

// MQBO
pub const MQBO_CURRENT_LENGTH: i32 = 12;
pub const MQBO_CURRENT_VERSION: i32 = 1;
pub const MQBO_LENGTH_1: i32 = 12;
pub const MQBO_VERSION_1: i32 = 1;

// MQCBC
pub const MQCBC_CURRENT_LENGTH: i32 = 64;
pub const MQCBC_CURRENT_VERSION: i32 = 2;
pub const MQCBC_LENGTH_1: i32 = 56;
pub const MQCBC_LENGTH_2: i32 = 64;
pub const MQCBC_VERSION_1: i32 = 1;
pub const MQCBC_VERSION_2: i32 = 2;

// MQCBD
pub const MQCBD_CURRENT_LENGTH: i32 = 168;
pub const MQCBD_CURRENT_VERSION: i32 = 1;
pub const MQCBD_LENGTH_1: i32 = 168;
pub const MQCBD_VERSION_1: i32 = 1;

// MQCD
pub const MQCD_CURRENT_LENGTH: i32 = 1992;
pub const MQCD_CURRENT_VERSION: i32 = 12;
pub const MQCD_LENGTH_1: i32 = 984;
pub const MQCD_LENGTH_2: i32 = 1312;
pub const MQCD_LENGTH_3: i32 = 1480;
pub const MQCD_LENGTH_4: i32 = 1568;
pub const MQCD_LENGTH_5: i32 = 1584;
pub const MQCD_LENGTH_6: i32 = 1688;
pub const MQCD_LENGTH_7: i32 = 1792;
pub const MQCD_LENGTH_8: i32 = 1888;
pub const MQCD_LENGTH_9: i32 = 1912;
pub const MQCD_LENGTH_10: i32 = 1920;
pub const MQCD_LENGTH_11: i32 = 1984;
pub const MQCD_LENGTH_12: i32 = 1992;
pub const MQCD_VERSION_1: i32 = 1;
pub const MQCD_VERSION_2: i32 = 2;
pub const MQCD_VERSION_3: i32 = 3;
pub const MQCD_VERSION_4: i32 = 4;
pub const MQCD_VERSION_5: i32 = 5;
pub const MQCD_VERSION_6: i32 = 6;
pub const MQCD_VERSION_7: i32 = 7;
pub const MQCD_VERSION_8: i32 = 8;
pub const MQCD_VERSION_9: i32 = 9;
pub const MQCD_VERSION_10: i32 = 10;
pub const MQCD_VERSION_11: i32 = 11;
pub const MQCD_VERSION_12: i32 = 12;

// MQCDC
pub const MQCDC_CURRENT_LENGTH: i32 = 1992;
pub const MQCDC_CURRENT_VERSION: i32 = 12;
pub const MQCDC_LENGTH_1: i32 = 984;
pub const MQCDC_LENGTH_2: i32 = 1312;
pub const MQCDC_LENGTH_3: i32 = 1480;
pub const MQCDC_LENGTH_4: i32 = 1568;
pub const MQCDC_LENGTH_5: i32 = 1584;
pub const MQCDC_LENGTH_6: i32 = 1688;
pub const MQCDC_LENGTH_7: i32 = 1792;
pub const MQCDC_LENGTH_8: i32 = 1888;
pub const MQCDC_LENGTH_9: i32 = 1912;
pub const MQCDC_LENGTH_10: i32 = 1920;
pub const MQCDC_LENGTH_11: i32 = 1984;
pub const MQCDC_LENGTH_12: i32 = 1992;
pub const MQCDC_VERSION_1: i32 = 1;
pub const MQCDC_VERSION_2: i32 = 2;
pub const MQCDC_VERSION_3: i32 = 3;
pub const MQCDC_VERSION_4: i32 = 4;
pub const MQCDC_VERSION_5: i32 = 5;
pub const MQCDC_VERSION_6: i32 = 6;
pub const MQCDC_VERSION_7: i32 = 7;
pub const MQCDC_VERSION_8: i32 = 8;
pub const MQCDC_VERSION_9: i32 = 9;
pub const MQCDC_VERSION_10: i32 = 10;
pub const MQCDC_VERSION_11: i32 = 11;
pub const MQCDC_VERSION_12: i32 = 12;

// MQCIH
pub const MQCIH_CURRENT_LENGTH: i32 = 180;
pub const MQCIH_CURRENT_VERSION: i32 = 2;
pub const MQCIH_LENGTH_1: i32 = 164;
pub const MQCIH_LENGTH_2: i32 = 180;
pub const MQCIH_VERSION_1: i32 = 1;
pub const MQCIH_VERSION_2: i32 = 2;

// MQCMHO
pub const MQCMHO_CURRENT_LENGTH: i32 = 12;
pub const MQCMHO_CURRENT_VERSION: i32 = 1;
pub const MQCMHO_LENGTH_1: i32 = 12;
pub const MQCMHO_VERSION_1: i32 = 1;

// MQCNO
pub const MQCNO_CURRENT_LENGTH: i32 = 272;
pub const MQCNO_CURRENT_VERSION: i32 = 8;
pub const MQCNO_LENGTH_1: i32 = 12;
pub const MQCNO_LENGTH_2: i32 = 24;
pub const MQCNO_LENGTH_3: i32 = 152;
pub const MQCNO_LENGTH_4: i32 = 168;
pub const MQCNO_LENGTH_5: i32 = 200;
pub const MQCNO_LENGTH_6: i32 = 224;
pub const MQCNO_LENGTH_7: i32 = 256;
pub const MQCNO_LENGTH_8: i32 = 272;
pub const MQCNO_VERSION_1: i32 = 1;
pub const MQCNO_VERSION_2: i32 = 2;
pub const MQCNO_VERSION_3: i32 = 3;
pub const MQCNO_VERSION_4: i32 = 4;
pub const MQCNO_VERSION_5: i32 = 5;
pub const MQCNO_VERSION_6: i32 = 6;
pub const MQCNO_VERSION_7: i32 = 7;
pub const MQCNO_VERSION_8: i32 = 8;

// MQCSP
pub const MQCSP_CURRENT_LENGTH: i32 = 104;
pub const MQCSP_CURRENT_VERSION: i32 = 3;
pub const MQCSP_LENGTH_1: i32 = 56;
pub const MQCSP_LENGTH_2: i32 = 80;
pub const MQCSP_LENGTH_3: i32 = 104;
pub const MQCSP_VERSION_1: i32 = 1;
pub const MQCSP_VERSION_2: i32 = 2;
pub const MQCSP_VERSION_3: i32 = 3;

// MQCTLO
pub const MQCTLO_CURRENT_LENGTH: i32 = 24;
pub const MQCTLO_CURRENT_VERSION: i32 = 1;
pub const MQCTLO_LENGTH_1: i32 = 24;
pub const MQCTLO_VERSION_1: i32 = 1;

// MQCXP
pub const MQCXP_CURRENT_LENGTH: i32 = 240;
pub const MQCXP_CURRENT_VERSION: i32 = 9;
pub const MQCXP_LENGTH_3: i32 = 156;
pub const MQCXP_LENGTH_4: i32 = 156;
pub const MQCXP_LENGTH_5: i32 = 160;
pub const MQCXP_LENGTH_6: i32 = 200;
pub const MQCXP_LENGTH_7: i32 = 208;
pub const MQCXP_LENGTH_8: i32 = 224;
pub const MQCXP_LENGTH_9: i32 = 240;
pub const MQCXP_VERSION_1: i32 = 1;
pub const MQCXP_VERSION_2: i32 = 2;
pub const MQCXP_VERSION_3: i32 = 3;
pub const MQCXP_VERSION_4: i32 = 4;
pub const MQCXP_VERSION_5: i32 = 5;
pub const MQCXP_VERSION_6: i32 = 6;
pub const MQCXP_VERSION_7: i32 = 7;
pub const MQCXP_VERSION_8: i32 = 8;
pub const MQCXP_VERSION_9: i32 = 9;

// MQDH
pub const MQDH_CURRENT_LENGTH: i32 = 48;
pub const MQDH_CURRENT_VERSION: i32 = 1;
pub const MQDH_LENGTH_1: i32 = 48;
pub const MQDH_VERSION_1: i32 = 1;

// MQDLH
pub const MQDLH_CURRENT_LENGTH: i32 = 172;
pub const MQDLH_CURRENT_VERSION: i32 = 1;
pub const MQDLH_LENGTH_1: i32 = 172;
pub const MQDLH_VERSION_1: i32 = 1;

// MQDMHO
pub const MQDMHO_CURRENT_LENGTH: i32 = 12;
pub const MQDMHO_CURRENT_VERSION: i32 = 1;
pub const MQDMHO_LENGTH_1: i32 = 12;
pub const MQDMHO_VERSION_1: i32 = 1;

// MQDMPO
pub const MQDMPO_CURRENT_LENGTH: i32 = 12;
pub const MQDMPO_CURRENT_VERSION: i32 = 1;
pub const MQDMPO_LENGTH_1: i32 = 12;
pub const MQDMPO_VERSION_1: i32 = 1;

// MQDXP
pub const MQDXP_CURRENT_LENGTH: i32 = 56;
pub const MQDXP_CURRENT_VERSION: i32 = 2;
pub const MQDXP_LENGTH_1: i32 = 44;
pub const MQDXP_LENGTH_2: i32 = 56;
pub const MQDXP_VERSION_1: i32 = 1;
pub const MQDXP_VERSION_2: i32 = 2;

// MQEPH
pub const MQEPH_CURRENT_LENGTH: i32 = 68;
pub const MQEPH_CURRENT_VERSION: i32 = 1;
pub const MQEPH_LENGTH_1: i32 = 68;
pub const MQEPH_STRUC_LENGTH_FIXED: i32 = 68;
pub const MQEPH_VERSION_1: i32 = 1;

// MQGMO
pub const MQGMO_CURRENT_LENGTH: i32 = 112;
pub const MQGMO_CURRENT_VERSION: i32 = 4;
pub const MQGMO_LENGTH_1: i32 = 72;
pub const MQGMO_LENGTH_2: i32 = 80;
pub const MQGMO_LENGTH_3: i32 = 100;
pub const MQGMO_LENGTH_4: i32 = 112;
pub const MQGMO_VERSION_1: i32 = 1;
pub const MQGMO_VERSION_2: i32 = 2;
pub const MQGMO_VERSION_3: i32 = 3;
pub const MQGMO_VERSION_4: i32 = 4;

// MQIEP
pub const MQIEP_CURRENT_LENGTH: i32 = 264;
pub const MQIEP_CURRENT_VERSION: i32 = 1;
pub const MQIEP_LENGTH_1: i32 = 264;
pub const MQIEP_VERSION_1: i32 = 1;

// MQIIH
pub const MQIIH_CURRENT_LENGTH: i32 = 84;
pub const MQIIH_CURRENT_VERSION: i32 = 1;
pub const MQIIH_LENGTH_1: i32 = 84;
pub const MQIIH_VERSION_1: i32 = 1;

// MQIMPO
pub const MQIMPO_CURRENT_LENGTH: i32 = 64;
pub const MQIMPO_CURRENT_VERSION: i32 = 1;
pub const MQIMPO_LENGTH_1: i32 = 64;
pub const MQIMPO_VERSION_1: i32 = 1;

// MQMD
pub const MQMD_CURRENT_LENGTH: i32 = 364;
pub const MQMD_CURRENT_VERSION: i32 = 2;
pub const MQMD_LENGTH_1: i32 = 324;
pub const MQMD_LENGTH_2: i32 = 364;
pub const MQMD_VERSION_1: i32 = 1;
pub const MQMD_VERSION_2: i32 = 2;

// MQMD1
pub const MQMD1_CURRENT_LENGTH: i32 = 324;
pub const MQMD1_LENGTH_1: i32 = 324;

// MQMD2
pub const MQMD2_CURRENT_LENGTH: i32 = 364;
pub const MQMD2_LENGTH_1: i32 = 324;
pub const MQMD2_LENGTH_2: i32 = 364;

// MQMDE
pub const MQMDE_CURRENT_LENGTH: i32 = 72;
pub const MQMDE_CURRENT_VERSION: i32 = 2;
pub const MQMDE_LENGTH_2: i32 = 72;
pub const MQMDE_VERSION_2: i32 = 2;

// MQMHBO
pub const MQMHBO_CURRENT_LENGTH: i32 = 12;
pub const MQMHBO_CURRENT_VERSION: i32 = 1;
pub const MQMHBO_LENGTH_1: i32 = 12;
pub const MQMHBO_VERSION_1: i32 = 1;

// MQNXP
pub const MQNXP_CURRENT_LENGTH: i32 = 72;
pub const MQNXP_CURRENT_VERSION: i32 = 2;
pub const MQNXP_LENGTH_1: i32 = 64;
pub const MQNXP_LENGTH_2: i32 = 72;
pub const MQNXP_VERSION_1: i32 = 1;
pub const MQNXP_VERSION_2: i32 = 2;

// MQOD
pub const MQOD_CURRENT_LENGTH: i32 = 424;
pub const MQOD_CURRENT_VERSION: i32 = 4;
pub const MQOD_LENGTH_1: i32 = 168;
pub const MQOD_LENGTH_2: i32 = 208;
pub const MQOD_LENGTH_3: i32 = 344;
pub const MQOD_LENGTH_4: i32 = 424;
pub const MQOD_VERSION_1: i32 = 1;
pub const MQOD_VERSION_2: i32 = 2;
pub const MQOD_VERSION_3: i32 = 3;
pub const MQOD_VERSION_4: i32 = 4;

// MQPBC
pub const MQPBC_CURRENT_LENGTH: i32 = 40;
pub const MQPBC_CURRENT_VERSION: i32 = 2;
pub const MQPBC_LENGTH_1: i32 = 32;
pub const MQPBC_LENGTH_2: i32 = 40;
pub const MQPBC_VERSION_1: i32 = 1;
pub const MQPBC_VERSION_2: i32 = 2;

// MQPD
pub const MQPD_CURRENT_LENGTH: i32 = 24;
pub const MQPD_CURRENT_VERSION: i32 = 1;
pub const MQPD_LENGTH_1: i32 = 24;
pub const MQPD_VERSION_1: i32 = 1;

// MQPMO
pub const MQPMO_CURRENT_LENGTH: i32 = 184;
pub const MQPMO_CURRENT_VERSION: i32 = 3;
pub const MQPMO_LENGTH_1: i32 = 128;
pub const MQPMO_LENGTH_2: i32 = 160;
pub const MQPMO_LENGTH_3: i32 = 184;
pub const MQPMO_VERSION_1: i32 = 1;
pub const MQPMO_VERSION_2: i32 = 2;
pub const MQPMO_VERSION_3: i32 = 3;

// MQPSXP
pub const MQPSXP_CURRENT_LENGTH: i32 = 184;
pub const MQPSXP_CURRENT_VERSION: i32 = 2;
pub const MQPSXP_LENGTH_1: i32 = 176;
pub const MQPSXP_LENGTH_2: i32 = 184;
pub const MQPSXP_VERSION_1: i32 = 1;
pub const MQPSXP_VERSION_2: i32 = 2;

// MQRFH
pub const MQRFH_CURRENT_LENGTH: i32 = 32;
pub const MQRFH_LENGTH_1: i32 = 32;
pub const MQRFH_STRUC_LENGTH_FIXED: i32 = 32;
pub const MQRFH_STRUC_LENGTH_FIXED_2: i32 = 36;
pub const MQRFH_VERSION_1: i32 = 1;
pub const MQRFH_VERSION_2: i32 = 2;

// MQRFH2
pub const MQRFH2_CURRENT_LENGTH: i32 = 36;
pub const MQRFH2_LENGTH_2: i32 = 36;

// MQRMH
pub const MQRMH_CURRENT_LENGTH: i32 = 108;
pub const MQRMH_CURRENT_VERSION: i32 = 1;
pub const MQRMH_LENGTH_1: i32 = 108;
pub const MQRMH_VERSION_1: i32 = 1;

// MQSBC
pub const MQSBC_CURRENT_LENGTH: i32 = 288;
pub const MQSBC_CURRENT_VERSION: i32 = 1;
pub const MQSBC_LENGTH_1: i32 = 288;
pub const MQSBC_VERSION_1: i32 = 1;

// MQSCO
pub const MQSCO_CURRENT_LENGTH: i32 = 672;
pub const MQSCO_CURRENT_VERSION: i32 = 7;
pub const MQSCO_LENGTH_1: i32 = 536;
pub const MQSCO_LENGTH_2: i32 = 544;
pub const MQSCO_LENGTH_3: i32 = 560;
pub const MQSCO_LENGTH_4: i32 = 568;
pub const MQSCO_LENGTH_5: i32 = 632;
pub const MQSCO_LENGTH_6: i32 = 648;
pub const MQSCO_LENGTH_7: i32 = 672;
pub const MQSCO_VERSION_1: i32 = 1;
pub const MQSCO_VERSION_2: i32 = 2;
pub const MQSCO_VERSION_3: i32 = 3;
pub const MQSCO_VERSION_4: i32 = 4;
pub const MQSCO_VERSION_5: i32 = 5;
pub const MQSCO_VERSION_6: i32 = 6;
pub const MQSCO_VERSION_7: i32 = 7;

// MQSD
pub const MQSD_CURRENT_LENGTH: i32 = 344;
pub const MQSD_CURRENT_VERSION: i32 = 1;
pub const MQSD_LENGTH_1: i32 = 344;
pub const MQSD_VERSION_1: i32 = 1;

// MQSMPO
pub const MQSMPO_CURRENT_LENGTH: i32 = 20;
pub const MQSMPO_CURRENT_VERSION: i32 = 1;
pub const MQSMPO_LENGTH_1: i32 = 20;
pub const MQSMPO_VERSION_1: i32 = 1;

// MQSRO
pub const MQSRO_CURRENT_LENGTH: i32 = 16;
pub const MQSRO_CURRENT_VERSION: i32 = 1;
pub const MQSRO_LENGTH_1: i32 = 16;
pub const MQSRO_VERSION_1: i32 = 1;

// MQSTS
pub const MQSTS_CURRENT_LENGTH: i32 = 280;
pub const MQSTS_CURRENT_VERSION: i32 = 2;
pub const MQSTS_LENGTH_1: i32 = 224;
pub const MQSTS_LENGTH_2: i32 = 280;
pub const MQSTS_VERSION_1: i32 = 1;
pub const MQSTS_VERSION_2: i32 = 2;

// MQTM
pub const MQTM_CURRENT_LENGTH: i32 = 684;
pub const MQTM_CURRENT_VERSION: i32 = 1;
pub const MQTM_LENGTH_1: i32 = 684;
pub const MQTM_VERSION_1: i32 = 1;

// MQTMC
pub const MQTMC_CURRENT_LENGTH: i32 = 684;
pub const MQTMC_LENGTH_1: i32 = 684;

// MQTMC2
pub const MQTMC2_CURRENT_LENGTH: i32 = 732;
pub const MQTMC2_LENGTH_1: i32 = 684;
pub const MQTMC2_LENGTH_2: i32 = 732;

// MQWDR
pub const MQWDR_CURRENT_LENGTH: i32 = 136;
pub const MQWDR_CURRENT_VERSION: i32 = 2;
pub const MQWDR_LENGTH_1: i32 = 124;
pub const MQWDR_LENGTH_2: i32 = 136;
pub const MQWDR_VERSION_1: i32 = 1;
pub const MQWDR_VERSION_2: i32 = 2;

// MQWDR1
pub const MQWDR1_CURRENT_LENGTH: i32 = 124;
pub const MQWDR1_LENGTH_1: i32 = 124;

// MQWDR2
pub const MQWDR2_CURRENT_LENGTH: i32 = 136;
pub const MQWDR2_LENGTH_1: i32 = 124;
pub const MQWDR2_LENGTH_2: i32 = 136;

// MQWIH
pub const MQWIH_CURRENT_LENGTH: i32 = 120;
pub const MQWIH_CURRENT_VERSION: i32 = 1;
pub const MQWIH_LENGTH_1: i32 = 120;
pub const MQWIH_VERSION_1: i32 = 1;

// MQWQR
pub const MQWQR_CURRENT_LENGTH: i32 = 216;
pub const MQWQR_CURRENT_VERSION: i32 = 4;
pub const MQWQR_LENGTH_1: i32 = 200;
pub const MQWQR_LENGTH_2: i32 = 208;
pub const MQWQR_LENGTH_3: i32 = 212;
pub const MQWQR_LENGTH_4: i32 = 216;
pub const MQWQR_VERSION_1: i32 = 1;
pub const MQWQR_VERSION_2: i32 = 2;
pub const MQWQR_VERSION_3: i32 = 3;
pub const MQWQR_VERSION_4: i32 = 4;

// MQWQR1
pub const MQWQR1_CURRENT_LENGTH: i32 = 200;
pub const MQWQR1_LENGTH_1: i32 = 200;

// MQWQR2
pub const MQWQR2_CURRENT_LENGTH: i32 = 208;
pub const MQWQR2_LENGTH_1: i32 = 200;
pub const MQWQR2_LENGTH_2: i32 = 208;

// MQWQR3
pub const MQWQR3_CURRENT_LENGTH: i32 = 212;
pub const MQWQR3_LENGTH_1: i32 = 200;
pub const MQWQR3_LENGTH_2: i32 = 208;
pub const MQWQR3_LENGTH_3: i32 = 212;

// MQWQR4
pub const MQWQR4_CURRENT_LENGTH: i32 = 216;
pub const MQWQR4_LENGTH_1: i32 = 200;
pub const MQWQR4_LENGTH_2: i32 = 208;
pub const MQWQR4_LENGTH_3: i32 = 212;
pub const MQWQR4_LENGTH_4: i32 = 216;

// MQWXP
pub const MQWXP_CURRENT_LENGTH: i32 = 248;
pub const MQWXP_CURRENT_VERSION: i32 = 4;
pub const MQWXP_LENGTH_1: i32 = 224;
pub const MQWXP_LENGTH_2: i32 = 240;
pub const MQWXP_LENGTH_3: i32 = 240;
pub const MQWXP_LENGTH_4: i32 = 248;
pub const MQWXP_VERSION_1: i32 = 1;
pub const MQWXP_VERSION_2: i32 = 2;
pub const MQWXP_VERSION_3: i32 = 3;
pub const MQWXP_VERSION_4: i32 = 4;

// MQWXP1
pub const MQWXP1_CURRENT_LENGTH: i32 = 224;
pub const MQWXP1_LENGTH_1: i32 = 224;

// MQWXP2
pub const MQWXP2_CURRENT_LENGTH: i32 = 240;
pub const MQWXP2_LENGTH_1: i32 = 224;
pub const MQWXP2_LENGTH_2: i32 = 240;

// MQWXP3
pub const MQWXP3_CURRENT_LENGTH: i32 = 240;
pub const MQWXP3_LENGTH_1: i32 = 224;
pub const MQWXP3_LENGTH_2: i32 = 240;
pub const MQWXP3_LENGTH_3: i32 = 240;

// MQWXP4
pub const MQWXP4_CURRENT_LENGTH: i32 = 248;
pub const MQWXP4_LENGTH_1: i32 = 224;
pub const MQWXP4_LENGTH_2: i32 = 240;
pub const MQWXP4_LENGTH_3: i32 = 240;
pub const MQWXP4_LENGTH_4: i32 = 248;

// MQXEPO
pub const MQXEPO_CURRENT_LENGTH: i32 = 40;
pub const MQXEPO_CURRENT_VERSION: i32 = 1;
pub const MQXEPO_LENGTH_1: i32 = 40;
pub const MQXEPO_VERSION_1: i32 = 1;

// MQXP
pub const MQXP_CURRENT_LENGTH: i32 = 44;
pub const MQXP_LENGTH_1: i32 = 44;
pub const MQXP_VERSION_1: i32 = 1;

// MQXQH
pub const MQXQH_CURRENT_LENGTH: i32 = 428;
pub const MQXQH_CURRENT_VERSION: i32 = 1;
pub const MQXQH_LENGTH_1: i32 = 428;
pub const MQXQH_VERSION_1: i32 = 1;

// MQXWD
pub const MQXWD_CURRENT_LENGTH: i32 = 24;
pub const MQXWD_LENGTH_1: i32 = 24;
pub const MQXWD_VERSION_1: i32 = 1;

// MQZAC
pub const MQZAC_CURRENT_LENGTH: i32 = 84;
pub const MQZAC_CURRENT_VERSION: i32 = 1;
pub const MQZAC_LENGTH_1: i32 = 84;
pub const MQZAC_VERSION_1: i32 = 1;

// MQZAD
pub const MQZAD_CURRENT_LENGTH: i32 = 80;
pub const MQZAD_CURRENT_VERSION: i32 = 2;
pub const MQZAD_LENGTH_1: i32 = 80;
pub const MQZAD_LENGTH_2: i32 = 80;
pub const MQZAD_VERSION_1: i32 = 1;
pub const MQZAD_VERSION_2: i32 = 2;

// MQZAS
pub const MQZAS_VERSION_1: i32 = 1;
pub const MQZAS_VERSION_2: i32 = 2;
pub const MQZAS_VERSION_3: i32 = 3;
pub const MQZAS_VERSION_4: i32 = 4;
pub const MQZAS_VERSION_5: i32 = 5;
pub const MQZAS_VERSION_6: i32 = 6;

// MQZED
pub const MQZED_CURRENT_LENGTH: i32 = 72;
pub const MQZED_CURRENT_VERSION: i32 = 2;
pub const MQZED_LENGTH_1: i32 = 64;
pub const MQZED_LENGTH_2: i32 = 72;
pub const MQZED_VERSION_1: i32 = 1;
pub const MQZED_VERSION_2: i32 = 2;

// MQZFP
pub const MQZFP_CURRENT_LENGTH: i32 = 24;
pub const MQZFP_CURRENT_VERSION: i32 = 1;
pub const MQZFP_LENGTH_1: i32 = 24;
pub const MQZFP_VERSION_1: i32 = 1;

// MQZIC
pub const MQZIC_CURRENT_LENGTH: i32 = 1108;
pub const MQZIC_CURRENT_VERSION: i32 = 2;
pub const MQZIC_LENGTH_1: i32 = 84;
pub const MQZIC_LENGTH_2: i32 = 1108;
pub const MQZIC_VERSION_1: i32 = 1;
pub const MQZIC_VERSION_2: i32 = 2;

// MQZNS
pub const MQZNS_VERSION_1: i32 = 1;

// MQZUS
pub const MQZUS_VERSION_1: i32 = 1;
