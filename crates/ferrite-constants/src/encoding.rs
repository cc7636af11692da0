//! Numeric encodings (`MQENC_*`, the `MQMD.Encoding` bit mask). `MQENC_NATIVE` is the value for
//! little-endian x86-64/ARM64 Linux and Windows (546).

// Generated from IBM MQ 9.4 constant definitions (names and values only); see crate docs.

pub const MQENC_RESERVED_MASK: i32 = -4096;
pub const MQENC_AS_PUBLISHED: i32 = -1;
pub const MQENC_DECIMAL_UNDEFINED: i32 = 0x00000000;
pub const MQENC_FLOAT_UNDEFINED: i32 = 0x00000000;
pub const MQENC_INTEGER_UNDEFINED: i32 = 0x00000000;
pub const MQENC_INTEGER_NORMAL: i32 = 0x00000001;
pub const MQENC_INTEGER_REVERSED: i32 = 0x00000002;
pub const MQENC_INTEGER_MASK: i32 = 0x0000000F;
pub const MQENC_DECIMAL_NORMAL: i32 = 0x00000010;
pub const MQENC_DECIMAL_REVERSED: i32 = 0x00000020;
pub const MQENC_DECIMAL_MASK: i32 = 0x000000F0;
pub const MQENC_FLOAT_IEEE_NORMAL: i32 = 0x00000100;
pub const MQENC_NORMAL: i32 = 0x00000111;
pub const MQENC_FLOAT_IEEE_REVERSED: i32 = 0x00000200;
pub const MQENC_NATIVE: i32 = 0x00000222;
pub const MQENC_REVERSED: i32 = 0x00000222;
pub const MQENC_FLOAT_S390: i32 = 0x00000300;
pub const MQENC_S390: i32 = 0x00000311;
pub const MQENC_FLOAT_TNS: i32 = 0x00000400;
pub const MQENC_TNS: i32 = 0x00000411;
pub const MQENC_FLOAT_MASK: i32 = 0x00000F00;
