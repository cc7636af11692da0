//! The MQSTAT flow (segment type 0x8D, reply 0x9D): StatusType and the MQSTS structure.
//!
//! ```text
//! After the 16-byte API header, request and reply alike (observed from the 9.4.5 Java client,
//! which sends MQSTS version 1 with every output field zero):
//!   0 4 StatusType  (MQSTAT_TYPE_ASYNC_ERROR 0, _RECONNECTION 1, _RECONNECTION_ERROR 2)
//!   4 . MQSTS:
//!       0 4 StrucId "STAT"   4 4 Version   8 4 CompCode   12 4 Reason
//!      16 4 PutSuccessCount  20 4 PutWarningCount  24 4 PutFailureCount  28 4 ObjectType
//!      32 48 ObjectName  80 48 ObjectQMgrName  128 48 ResolvedObjectName
//!     176 48 ResolvedQMgrName                             (version 1: 224 bytes)
//!     224 . version 2 fields (ObjectString, SubName, OpenOptions, SubOptions: 56 bytes more)
//! ```
//!
//! The reply echoes the request's MQSTS with the version 1 output fields filled in; bytes
//! beyond version 1 are returned as they came.

use crate::codec::{ByteOrder, MqChars, ProtocolError, Reader, Result, Writer};

/// Length of MQSTS version 1.
pub const MQSTS_VERSION_1_LENGTH: usize = 224;
/// The longest MQSTS a flow may carry (version 2 is 280 bytes; room for a later version).
pub const MQSTS_LENGTH_MAX: usize = 1024;

/// The version 1 output fields of MQSTS.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sts {
    /// CompCode.
    pub comp_code: i32,
    /// Reason.
    pub reason: i32,
    /// PutSuccessCount.
    pub put_success_count: i32,
    /// PutWarningCount.
    pub put_warning_count: i32,
    /// PutFailureCount.
    pub put_failure_count: i32,
    /// ObjectType.
    pub object_type: i32,
    /// ObjectName.
    pub object_name: MqChars<48>,
    /// ObjectQMgrName.
    pub object_q_mgr_name: MqChars<48>,
    /// ResolvedObjectName.
    pub resolved_object_name: MqChars<48>,
    /// ResolvedQMgrName.
    pub resolved_q_mgr_name: MqChars<48>,
}

/// An MQSTAT request or reply body (after the API header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MqStat {
    /// StatusType.
    pub status_type: i32,
    /// MQSTS Version.
    pub version: i32,
    /// The version 1 fields.
    pub sts: Sts,
    /// Bytes of a later MQSTS version, kept as they came.
    pub extension: Vec<u8>,
}

impl MqStat {
    /// A request for `status_type` with an MQSTS version 1.
    pub fn request(status_type: i32) -> MqStat {
        MqStat {
            status_type,
            version: 1,
            sts: Sts::default(),
            extension: Vec::new(),
        }
    }

    /// Decodes the body.
    pub fn decode(body: &[u8], order: ByteOrder) -> Result<MqStat> {
        if body.len() > 4 + MQSTS_LENGTH_MAX {
            return Err(ProtocolError::InvalidLength {
                what: "MQSTS",
                value: body.len() as i64,
            });
        }
        let mut reader = Reader::new(body, order, "MQSTAT");
        let status_type = reader.i32()?;
        reader.set_what("MQSTS");
        reader.expect_struct_id(b"STAT")?;
        let version = reader.i32()?;
        let sts = Sts {
            comp_code: reader.i32()?,
            reason: reader.i32()?,
            put_success_count: reader.i32()?,
            put_warning_count: reader.i32()?,
            put_failure_count: reader.i32()?,
            object_type: reader.i32()?,
            object_name: reader.chars()?,
            object_q_mgr_name: reader.chars()?,
            resolved_object_name: reader.chars()?,
            resolved_q_mgr_name: reader.chars()?,
        };
        Ok(MqStat {
            status_type,
            version,
            sts,
            extension: reader.rest().to_vec(),
        })
    }

    /// Encodes the body.
    pub fn encode(&self, order: ByteOrder) -> Vec<u8> {
        let mut writer = Writer::new(order);
        writer.i32(self.status_type);
        writer.bytes(b"STAT");
        writer.i32(self.version);
        let sts = &self.sts;
        for value in [
            sts.comp_code,
            sts.reason,
            sts.put_success_count,
            sts.put_warning_count,
            sts.put_failure_count,
            sts.object_type,
        ] {
            writer.i32(value);
        }
        writer.chars(&sts.object_name);
        writer.chars(&sts.object_q_mgr_name);
        writer.chars(&sts.resolved_object_name);
        writer.chars(&sts.resolved_q_mgr_name);
        writer.bytes(&self.extension);
        writer.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_java_clients_request_round_trips_in_both_byte_orders() {
        for order in [ByteOrder::Big, ByteOrder::Little] {
            let request = MqStat::request(0);
            let bytes = request.encode(order);
            assert_eq!(bytes.len(), 4 + MQSTS_VERSION_1_LENGTH);
            assert_eq!(MqStat::decode(&bytes, order).unwrap(), request);
        }
        let mut reply = MqStat::request(0);
        reply.sts.put_failure_count = 3;
        reply.sts.object_name = MqChars::padded("Q1");
        reply.extension = vec![7; 56];
        let bytes = reply.encode(ByteOrder::Little);
        assert_eq!(&bytes[28..32], &3i32.to_le_bytes());
        assert_eq!(MqStat::decode(&bytes, ByteOrder::Little).unwrap(), reply);
    }

    #[test]
    fn short_wrong_and_huge_bodies_are_refused() {
        let bytes = MqStat::request(0).encode(ByteOrder::Big);
        assert!(MqStat::decode(&bytes[..100], ByteOrder::Big).is_err());
        let mut wrong = bytes.clone();
        wrong[4] = b'X';
        assert!(MqStat::decode(&wrong, ByteOrder::Big).is_err());
        let mut huge = bytes;
        huge.resize(4 + MQSTS_LENGTH_MAX + 1, 0);
        assert!(MqStat::decode(&huge, ByteOrder::Big).is_err());
    }
}
