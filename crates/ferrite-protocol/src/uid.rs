//! User identification flows: USERID_DATA (0x08, `UID `) and CONAUTH_INFO (0x0A, `CAUT`).
//!
//! # UID (source: Wireshark `packet-mq.c`, UID branch of `dissect_mq_pdu` and `dissect_mq_sid`;
//! the 132-byte form confirmed by the 9.4.5.0 Java client: a 168-byte TSHM segment)
//!
//! ```text
//! off len field
//!   0   4 StructId "UID "
//!   4  12 UserId (blank padded)
//!  16  12 Password (blank padded; old clients only, normally blank)   -> 28 bytes (old form)
//!  28  64 LongUserId (blank padded)
//!  92  40 SecurityId: byte 0 = length of the valid data, byte 1 = type (MQSIDT_*:
//!         0 none, 1 NT security id, 2 WAS security id), then the id     -> 132 bytes
//! ```
//!
//! The dissector accepts exactly 28 or 132 bytes (it infers the form from the segment length);
//! so does this codec. What the *server* sends back to complete the UID exchange is not public
//! (observed on loopback: echoing the UID lets the Java client continue).
//!
//! # CAUT (source: Wireshark, CONAUTH_INFO branch)
//!
//! ```text
//! off len field
//!   0   4 StructId "CAUT"
//!   4   4 AuthType (1 = user id and password, as MQCSP_AUTH_USER_ID_AND_PWD)
//!   8   4 UsrMaxLen
//!  12   4 PwdMaxLen
//!  16   4 UsrLength
//!  20   4 PwdLength
//!  24   n user id (UsrLength bytes), then password (PwdLength bytes)
//! ```
//!
//! Observed: the 9.4.5.0 Java client does not send the password in clear when it sees no
//! password-protection negotiation it recognises; the algorithm is not public. Bytes after the
//! password (the Java client's 80-byte segment has some) are kept in [`Caut::trailing`].

use crate::codec::{ByteOrder, MqChars, ProtocolError, Reader, Result, Writer};

/// `"UID "`.
pub const UID_STRUC_ID: [u8; 4] = *b"UID ";
/// `"CAUT"`.
pub const CAUT_STRUC_ID: [u8; 4] = *b"CAUT";
/// Old UID length.
pub const UID_SHORT_LENGTH: usize = 28;
/// Current UID length.
pub const UID_LONG_LENGTH: usize = 132;

/// The extension present in the 132-byte form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UidExtension {
    /// Offset 28: long user id.
    pub long_user_id: MqChars<64>,
    /// Offset 92: security id (length byte, type byte, id).
    pub security_id: [u8; 40],
}

/// USERID_DATA payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uid {
    /// Offset 4: user id.
    pub user_id: MqChars<12>,
    /// Offset 16: password.
    pub password: MqChars<12>,
    /// Offsets 28..132, absent in the 28-byte form.
    pub extension: Option<UidExtension>,
}

impl Uid {
    /// Decodes a whole USERID_DATA payload (28 or 132 bytes).
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        if payload.len() != UID_SHORT_LENGTH && payload.len() != UID_LONG_LENGTH {
            if payload.len() < UID_SHORT_LENGTH {
                return Err(ProtocolError::Truncated {
                    what: "user id data (UID)",
                    offset: payload.len(),
                    needed: UID_SHORT_LENGTH - payload.len(),
                    available: 0,
                });
            }
            return Err(ProtocolError::InvalidLength {
                what: "user id data (UID) length (expected 28 or 132)",
                value: payload.len() as i64,
            });
        }
        let mut r = Reader::new(payload, order, "user id data (UID)");
        r.expect_struct_id(&UID_STRUC_ID)?;
        let user_id = r.chars()?;
        let password = r.chars()?;
        let extension = if payload.len() == UID_LONG_LENGTH {
            Some(UidExtension {
                long_user_id: r.chars()?,
                security_id: r.array()?,
            })
        } else {
            None
        };
        Ok(Uid {
            user_id,
            password,
            extension,
        })
    }

    /// Encodes (28 or 132 bytes).
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.bytes(&UID_STRUC_ID);
        w.chars(&self.user_id);
        w.chars(&self.password);
        if let Some(ext) = &self.extension {
            w.chars(&ext.long_user_id);
            w.bytes(&ext.security_id);
        }
        w.into_bytes()
    }
}

/// CONAUTH_INFO payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caut {
    /// AuthType.
    pub auth_type: i32,
    /// UsrMaxLen.
    pub user_max_length: i32,
    /// PwdMaxLen.
    pub password_max_length: i32,
    /// User id bytes (UsrLength of them).
    pub user: Vec<u8>,
    /// Password bytes (PwdLength of them; possibly protected, see module docs).
    pub password: Vec<u8>,
    /// Bytes after the password, preserved.
    pub trailing: Vec<u8>,
}

impl Caut {
    /// Decodes a whole CONAUTH_INFO payload.
    pub fn decode(payload: &[u8], order: ByteOrder) -> Result<Self> {
        let mut r = Reader::new(payload, order, "connection authentication (CAUT)");
        r.expect_struct_id(&CAUT_STRUC_ID)?;
        let auth_type = r.i32()?;
        let user_max_length = r.i32()?;
        let password_max_length = r.i32()?;
        let user_length = r.i32()?;
        let password_length = r.i32()?;
        let user_len = usize::try_from(user_length).map_err(|_| ProtocolError::InvalidLength {
            what: "CAUT user id length",
            value: user_length.into(),
        })?;
        let password_len =
            usize::try_from(password_length).map_err(|_| ProtocolError::InvalidLength {
                what: "CAUT password length",
                value: password_length.into(),
            })?;
        let user = r.bytes(user_len)?.to_vec();
        let password = r.bytes(password_len)?.to_vec();
        Ok(Caut {
            auth_type,
            user_max_length,
            password_max_length,
            user,
            password,
            trailing: r.rest().to_vec(),
        })
    }

    /// Encodes; the length fields are taken from the vectors.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut w = Writer::new(order);
        w.bytes(&CAUT_STRUC_ID);
        w.i32(self.auth_type);
        w.i32(self.user_max_length);
        w.i32(self.password_max_length);
        w.i32(self.user.len() as i32);
        w.i32(self.password.len() as i32);
        w.bytes(&self.user);
        w.bytes(&self.password);
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}
