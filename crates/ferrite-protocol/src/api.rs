//! The API header and the MQI verb flows (segment types 0x81..=0x9F).
//!
//! # API header (16 bytes, after the segment header of every MQI request and reply)
//!
//! Source: Wireshark `packet-mq.c` (`dissect_mq_pdu`, API branch; `reassemble_mq`).
//!
//! ```text
//! off len field
//!   0   4 ReplyLength   big-endian always
//!   4   4 CompCode      segment byte order (MQCC_*)
//!   8   4 Reason        segment byte order (MQRC_*)
//!  12   4 ObjectHandle  segment byte order (Hobj; 0 or -1 when none)
//! ```
//! Meaning of ReplyLength is inferred, not confirmed: Wireshark's reassembly treats it as the
//! total length of the flow; in requests it is presumably the largest reply the client accepts.
//!
//! # Bodies (after the API header), from the dissector
//!
//! | Flow | Body |
//! |---|---|
//! | MQCONN / MQCONN_REPLY | [`MqConn`]: QMgrName(48) ApplName(28) ApplType(4) AccountingToken(32) Options(4) XOptions(4) = 120, then optional `FCNO` |
//! | MQDISC, MQCMIT, MQBACK (+ replies), MQSET_REPLY | nothing (any bytes kept) |
//! | MQOPEN / MQOPEN_REPLY | [`MqOpen`]: MQOD + Options(4) + optional `FOPA` + optional `FCMI` |
//! | MQCLOSE / MQCLOSE_REPLY | [`MqClose`]: optional MQOD + Options(4) (Hobj in the API header) |
//! | MQPUT / MQPUT_REPLY | [`MqPut`]: MQMD + MQPMO + DataLength(4) + data |
//! | MQPUT1 / MQPUT1_REPLY | [`MqPut1`]: MQOD + MQMD + MQPMO + DataLength(4) + data |
//! | MQGET / MQGET_REPLY | [`MqGet`]: MQMD + MQGMO + Length(4) (+ data in the reply) |
//! | MQINQ | [`MqInq`]: SelectorCount, IntAttrCount, CharAttrLength, Selectors[] |
//! | MQINQ_REPLY, MQSET | [`MqInq`] + IntAttrs (IntAttrCount of them) + CharAttrs (CharAttrLength bytes) |
//!
//! Known gaps: the exact content servers put in MQCONN_REPLY's FCNO (and its PCF parameters),
//! the meaning of FCMI and of FOPA beyond its four named fields, whether MQPUT replies echo the
//! data, distribution lists (rejected), and MQSTAT/MQSUB/MQSUBRQ/SPI/XA bodies (kept raw).

use crate::codec::{ByteOrder, MqChars, ProtocolError, Reader, Result, Writer};
use crate::mqi::{Gmo, Md, Od, Pmo};
use crate::segment::SegmentType;

/// Length of the API header.
pub const API_HEADER_LENGTH: usize = 16;

/// The 16-byte API header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ApiHeader {
    /// ReplyLength (big-endian on the wire).
    pub reply_length: u32,
    /// Completion code (`MQCC_*`).
    pub comp_code: i32,
    /// Reason code (`MQRC_*`).
    pub reason: i32,
    /// Object handle.
    pub hobj: i32,
}

impl ApiHeader {
    /// Decodes from `r`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Self> {
        r.set_what("API header");
        Ok(ApiHeader {
            reply_length: r.u32_be()?,
            comp_code: r.i32()?,
            reason: r.i32()?,
            hobj: r.i32()?,
        })
    }

    /// Appends to `w`.
    pub fn encode(&self, w: &mut Writer) {
        w.u32_be(self.reply_length);
        w.i32(self.comp_code);
        w.i32(self.reason);
        w.i32(self.hobj);
    }
}

/// `"FCNO"`.
pub const FCNO_STRUC_ID: [u8; 4] = *b"FCNO";
/// `"FOPA"`.
pub const FOPA_STRUC_ID: [u8; 4] = *b"FOPA";
/// `"FCMI"`.
pub const FCMI_STRUC_ID: [u8; 4] = *b"FCMI";

/// `FCNO`, the wire form of the connect options that follows the 120-byte MQCONN part.
///
/// ```text
/// off len field
///   0   4 StructId "FCNO"
///   4   4 Version
///   8   4 CapFlags / Options
///  12 128 ConnTag          (version >= 1)
/// 140 128 RetConnTag       (version >= 3)
///   .   . then, per Wireshark: ProductId(24) and MQMId(48) (not from Java clients),
///         then optional PCF parameters when Options != 0 -> kept in `rest`
/// ```
/// Observed MQCONN body sizes (dissector): 120 (FAP <= 6, no FCNO), 260 (FCNO v1), 332 (v2 +
/// ProductId + MQMId), 460 (v3 with RetConnTag).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fcno {
    /// Version.
    pub version: i32,
    /// Capability flags / options.
    pub cap_flags: i32,
    /// ConnTag (version >= 1).
    pub conn_tag: Option<[u8; 128]>,
    /// RetConnTag (version >= 3).
    pub ret_conn_tag: Option<[u8; 128]>,
    /// ProductId, MQMId, PCF parameters ... kept raw.
    pub rest: Vec<u8>,
}

impl Fcno {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        r.set_what("FCNO");
        r.expect_struct_id(&FCNO_STRUC_ID)?;
        let version = r.i32()?;
        let cap_flags = r.i32()?;
        let conn_tag = if version >= 1 { Some(r.array()?) } else { None };
        let ret_conn_tag = if version >= 3 { Some(r.array()?) } else { None };
        Ok(Fcno {
            version,
            cap_flags,
            conn_tag,
            ret_conn_tag,
            rest: r.rest().to_vec(),
        })
    }

    fn encode(&self, w: &mut Writer) {
        w.bytes(&FCNO_STRUC_ID);
        w.i32(self.version);
        w.i32(self.cap_flags);
        if let Some(t) = &self.conn_tag {
            w.bytes(t);
        }
        if let Some(t) = &self.ret_conn_tag {
            w.bytes(t);
        }
        w.bytes(&self.rest);
    }

    /// The 24-byte ProductId at the start of `rest`, if present (non-Java clients, replies).
    pub fn product_id(&self) -> Option<MqChars<24>> {
        let b: [u8; 24] = self.rest.get(..24)?.try_into().ok()?;
        Some(MqChars(b))
    }
}

/// MQCONN / MQCONN_REPLY body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqConn {
    /// Offset 0: queue manager name.
    pub qmgr_name: MqChars<48>,
    /// Offset 48: application name.
    pub appl_name: MqChars<28>,
    /// Offset 76: application type (`MQAT_*`; 28 = MQAT_JAVA).
    pub appl_type: i32,
    /// Offset 80: accounting token.
    pub accounting_token: [u8; 32],
    /// Offset 112: 1 = MQCONN, 3 = MQCONNX (Wireshark `mq_conn_options_vals`); not MQCNO.Options.
    pub options: i32,
    /// Offset 116: XOptions.
    pub x_options: i32,
    /// Offset 120: FCNO, if the next bytes start with `"FCNO"`.
    pub fcno: Option<Fcno>,
    /// Bytes after the 120-byte part that are not an FCNO (old FAP levels), kept raw.
    pub trailing: Vec<u8>,
}

impl MqConn {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        r.set_what("MQCONN");
        let mut c = MqConn {
            qmgr_name: r.chars()?,
            appl_name: r.chars()?,
            appl_type: r.i32()?,
            accounting_token: r.array()?,
            options: r.i32()?,
            x_options: r.i32()?,
            fcno: None,
            trailing: Vec::new(),
        };
        if r.peek(4) == Some(&FCNO_STRUC_ID[..]) {
            c.fcno = Some(Fcno::decode(r)?);
        } else {
            c.trailing = r.rest().to_vec();
        }
        Ok(c)
    }

    fn encode(&self, w: &mut Writer) {
        w.chars(&self.qmgr_name);
        w.chars(&self.appl_name);
        w.i32(self.appl_type);
        w.bytes(&self.accounting_token);
        w.i32(self.options);
        w.i32(self.x_options);
        if let Some(f) = &self.fcno {
            f.encode(w);
        }
        w.bytes(&self.trailing);
    }
}

/// `FOPA`: open attributes returned with MQOPEN (source: Wireshark `dissect_mq_fopa`).
///
/// ```text
///  0 4 StructId "FOPA"   12 4 DefPersistence     20 4 DefReadAhead
///  4 4 Version           16 4 DefPutResponseType 24 4 PropertyControl
///  8 4 Length (whole structure, >= 28)           28 . unknown (version > 1), kept
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Fopa {
    pub version: i32,
    pub def_persistence: i32,
    pub def_put_response_type: i32,
    pub def_read_ahead: i32,
    pub property_control: i32,
    /// Bytes 28..Length.
    pub unknown: Vec<u8>,
}

impl Fopa {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        r.set_what("FOPA");
        r.expect_struct_id(&FOPA_STRUC_ID)?;
        let version = r.i32()?;
        let length = r.i32()?;
        let extra = usize::try_from(length)
            .ok()
            .and_then(|l| l.checked_sub(28))
            .ok_or(ProtocolError::InvalidLength {
                what: "FOPA length",
                value: length.into(),
            })?;
        Ok(Fopa {
            version,
            def_persistence: r.i32()?,
            def_put_response_type: r.i32()?,
            def_read_ahead: r.i32()?,
            property_control: r.i32()?,
            unknown: r.bytes(extra)?.to_vec(),
        })
    }

    fn encode(&self, w: &mut Writer) {
        w.bytes(&FOPA_STRUC_ID);
        w.i32(self.version);
        w.i32((28 + self.unknown.len()) as i32);
        w.i32(self.def_persistence);
        w.i32(self.def_put_response_type);
        w.i32(self.def_read_ahead);
        w.i32(self.property_control);
        w.bytes(&self.unknown);
    }
}

fn reject_distribution_list(recs_present: i32) -> Result<()> {
    if recs_present != 0 {
        return Err(ProtocolError::Unsupported(
            "distribution lists (RecsPresent != 0)",
        ));
    }
    Ok(())
}

/// MQOPEN / MQOPEN_REPLY body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqOpen {
    /// The object descriptor (echoed, with resolved names, in the reply).
    pub od: Od,
    /// MQOO_* options.
    pub options: i32,
    /// FOPA (replies from newer servers).
    pub fopa: Option<Fopa>,
    /// FCMI's single 4-byte value (meaning unknown).
    pub fcmi: Option<u32>,
    /// Remaining bytes (e.g. MQCHARV string data), kept raw.
    pub trailing: Vec<u8>,
}

impl MqOpen {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let od = Od::decode(r)?;
        reject_distribution_list(od.recs_present)?;
        r.set_what("MQOPEN options");
        let options = r.i32()?;
        let fopa = if r.peek(4) == Some(&FOPA_STRUC_ID[..]) {
            Some(Fopa::decode(r)?)
        } else {
            None
        };
        let fcmi = if r.peek(4) == Some(&FCMI_STRUC_ID[..]) {
            r.set_what("FCMI");
            r.bytes(4)?;
            Some(r.u32()?)
        } else {
            None
        };
        Ok(MqOpen {
            od,
            options,
            fopa,
            fcmi,
            trailing: r.rest().to_vec(),
        })
    }

    fn encode(&self, w: &mut Writer) -> Result<()> {
        self.od.encode(w)?;
        w.i32(self.options);
        if let Some(f) = &self.fopa {
            f.encode(w);
        }
        if let Some(v) = self.fcmi {
            w.bytes(&FCMI_STRUC_ID);
            w.u32(v);
        }
        w.bytes(&self.trailing);
        Ok(())
    }
}

/// MQCLOSE / MQCLOSE_REPLY body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqClose {
    /// An MQOD, if one precedes the options (Wireshark looks for one; not seen in practice).
    pub od: Option<Od>,
    /// MQCO_* options.
    pub options: i32,
    /// Remaining bytes, kept raw.
    pub trailing: Vec<u8>,
}

impl MqClose {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let od = if Od::is_next(r) {
            Some(Od::decode(r)?)
        } else {
            None
        };
        r.set_what("MQCLOSE options");
        Ok(MqClose {
            od,
            options: r.i32()?,
            trailing: r.rest().to_vec(),
        })
    }

    fn encode(&self, w: &mut Writer) -> Result<()> {
        if let Some(od) = &self.od {
            od.encode(w)?;
        }
        w.i32(self.options);
        w.bytes(&self.trailing);
        Ok(())
    }
}

/// Whether decoding an MQPUT or MQPUT1 copies its message data into the body or leaves it in
/// the payload for the caller.
#[derive(Clone, Copy)]
enum PutData {
    Copied,
    Borrowed,
}

/// MQPUT / MQPUT_REPLY body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqPut {
    /// Message descriptor (MsgId etc. filled in by the server in the reply).
    pub md: Md,
    /// Put-message options.
    pub pmo: Pmo,
    /// DataLength field.
    pub data_length: i32,
    /// All bytes after DataLength (normally `data_length` bytes of message data in requests).
    pub data: Vec<u8>,
}

fn read_length_and_data<'a>(r: &mut Reader<'a>, what: &'static str) -> Result<(i32, &'a [u8])> {
    r.set_what(what);
    let len = r.i32()?;
    if len < 0 {
        return Err(ProtocolError::InvalidLength {
            what,
            value: len.into(),
        });
    }
    Ok((len, r.rest()))
}

impl MqPut {
    fn decode<'a>(r: &mut Reader<'a>, data: PutData) -> Result<(Self, &'a [u8])> {
        Self::decode_after_od(r, "MQPUT data length", data)
    }

    /// MQMD + MQPMO + DataLength + data: all of MQPUT's body, and MQPUT1's after its MQOD.
    /// The data is copied into the body, or, with [`PutData::Borrowed`], returned beside it.
    fn decode_after_od<'a>(
        r: &mut Reader<'a>,
        what: &'static str,
        data: PutData,
    ) -> Result<(Self, &'a [u8])> {
        let md = Md::decode(r)?;
        let pmo = Pmo::decode(r)?;
        reject_distribution_list(pmo.recs_present)?;
        let (data_length, bytes) = read_length_and_data(r, what)?;
        let (copied, borrowed) = match data {
            PutData::Copied => (bytes.to_vec(), &[][..]),
            PutData::Borrowed => (Vec::new(), bytes),
        };
        let put = MqPut {
            md,
            pmo,
            data_length,
            data: copied,
        };
        Ok((put, borrowed))
    }

    fn encode(&self, w: &mut Writer) -> Result<()> {
        encode_put_after_od(w, &self.md, &self.pmo, self.data_length, &self.data)
    }
}

/// The encoding side of [`MqPut::decode_after_od`], shared by MQPUT and MQPUT1.
fn encode_put_after_od(
    w: &mut Writer,
    md: &Md,
    pmo: &Pmo,
    data_length: i32,
    data: &[u8],
) -> Result<()> {
    md.encode(w)?;
    pmo.encode(w)?;
    w.i32(data_length);
    w.bytes(data);
    Ok(())
}

/// MQPUT1 / MQPUT1_REPLY body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqPut1 {
    /// Object descriptor.
    pub od: Od,
    /// Message descriptor.
    pub md: Md,
    /// Put-message options.
    pub pmo: Pmo,
    /// DataLength field.
    pub data_length: i32,
    /// All bytes after DataLength.
    pub data: Vec<u8>,
}

impl MqPut1 {
    fn decode<'a>(r: &mut Reader<'a>, data: PutData) -> Result<(Self, &'a [u8])> {
        let od = Od::decode(r)?;
        reject_distribution_list(od.recs_present)?;
        let (
            MqPut {
                md,
                pmo,
                data_length,
                data,
            },
            borrowed,
        ) = MqPut::decode_after_od(r, "MQPUT1 data length", data)?;
        let put1 = MqPut1 {
            od,
            md,
            pmo,
            data_length,
            data,
        };
        Ok((put1, borrowed))
    }

    fn encode(&self, w: &mut Writer) -> Result<()> {
        self.od.encode(w)?;
        encode_put_after_od(w, &self.md, &self.pmo, self.data_length, &self.data)
    }
}

/// MQGET (request: BufferLength, no data) / MQGET_REPLY (message length + data) body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqGet {
    /// Message descriptor (selection criteria in; the message's descriptor out).
    pub md: Md,
    /// Get-message options.
    pub gmo: Gmo,
    /// Request: the application's buffer length. Reply: the data length.
    pub length: i32,
    /// Reply: the message data; request: normally empty.
    pub data: Vec<u8>,
}

impl MqGet {
    fn decode(r: &mut Reader<'_>) -> Result<Self> {
        let md = Md::decode(r)?;
        let gmo = Gmo::decode(r)?;
        let (length, data) = read_length_and_data(r, "MQGET length")?;
        Ok(MqGet {
            md,
            gmo,
            length,
            data: data.to_vec(),
        })
    }

    fn encode(&self, w: &mut Writer) -> Result<()> {
        self.encode_without_data(w)?;
        w.bytes(&self.data);
        Ok(())
    }

    /// MQMD, MQGMO and Length: the body up to its data.
    fn encode_without_data(&self, w: &mut Writer) -> Result<()> {
        self.md.encode(w)?;
        self.gmo.encode(w)?;
        w.i32(self.length);
        Ok(())
    }

    /// Appends to `out` the flow [`ApiFlow::encode`] makes of `header` and this body, without
    /// the message data: the API header, MQMD, MQGMO and Length. An MQGET_REPLY's data follows
    /// them, so a server can append the message straight after (`self.data` is not written).
    /// On an error `out` is as it was.
    pub fn encode_reply_head(
        &self,
        header: &ApiHeader,
        order: ByteOrder,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let before = out.len();
        let mut w = Writer::with_buffer(std::mem::take(out), order);
        header.encode(&mut w);
        let encoded = self.encode_without_data(&mut w);
        *out = w.into_bytes();
        if encoded.is_err() {
            out.truncate(before);
        }
        encoded
    }
}

/// MQINQ request, MQINQ_REPLY and MQSET request body.
///
/// `int_attrs`/`char_attrs` are present only when `with_values` (MQINQ_REPLY, MQSET); then the
/// decoder guarantees `int_attrs.len() == int_attr_count` and
/// `char_attrs.len() == char_attr_length`, and the encoder writes the counts as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MqInq {
    /// MQIA_*/MQCA_* selectors.
    pub selectors: Vec<i32>,
    /// IntAttrCount.
    pub int_attr_count: u32,
    /// CharAttrLength.
    pub char_attr_length: u32,
    /// Whether values follow the selectors.
    pub with_values: bool,
    /// Integer attribute values.
    pub int_attrs: Vec<i32>,
    /// Character attribute data.
    pub char_attrs: Vec<u8>,
    /// Bytes after the structure, kept raw.
    pub trailing: Vec<u8>,
}

fn count(r: &mut Reader<'_>, what: &'static str, unit: usize) -> Result<usize> {
    let v = r.i32()?;
    let n = usize::try_from(v).map_err(|_| ProtocolError::InvalidLength {
        what,
        value: v.into(),
    })?;
    // A count can never exceed what the rest of the payload could hold: refuse before allocating.
    if n.checked_mul(unit)
        .is_none_or(|bytes| bytes > r.remaining())
    {
        return Err(ProtocolError::InvalidLength {
            what,
            value: v.into(),
        });
    }
    Ok(n)
}

impl MqInq {
    fn decode(r: &mut Reader<'_>, with_values: bool) -> Result<Self> {
        r.set_what("MQINQ/MQSET");
        let n_sel = count(r, "MQINQ selector count", 4)?;
        let int_attr_count = r.u32()?;
        let char_attr_length = r.u32()?;
        let mut selectors = Vec::with_capacity(n_sel);
        for _ in 0..n_sel {
            selectors.push(r.i32()?);
        }
        let mut inq = MqInq {
            selectors,
            int_attr_count,
            char_attr_length,
            with_values,
            int_attrs: Vec::new(),
            char_attrs: Vec::new(),
            trailing: Vec::new(),
        };
        if with_values {
            let n_int = int_attr_count as usize;
            if n_int.checked_mul(4).is_none_or(|b| b > r.remaining()) {
                return Err(ProtocolError::InvalidLength {
                    what: "MQINQ integer attribute count",
                    value: int_attr_count.into(),
                });
            }
            for _ in 0..n_int {
                inq.int_attrs.push(r.i32()?);
            }
            inq.char_attrs = r.bytes(char_attr_length as usize)?.to_vec();
        }
        inq.trailing = r.rest().to_vec();
        Ok(inq)
    }

    fn encode(&self, w: &mut Writer) {
        w.i32(self.selectors.len() as i32);
        w.u32(self.int_attr_count);
        w.u32(self.char_attr_length);
        for s in &self.selectors {
            w.i32(*s);
        }
        if self.with_values {
            for v in &self.int_attrs {
                w.i32(*v);
            }
            w.bytes(&self.char_attrs);
        }
        w.bytes(&self.trailing);
    }
}

/// The body of an MQI flow, by segment type.
// One flow is decoded at a time, so the size difference between variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiBody {
    /// MQCONN, MQCONN_REPLY.
    Conn(MqConn),
    /// MQOPEN, MQOPEN_REPLY.
    Open(MqOpen),
    /// MQCLOSE, MQCLOSE_REPLY.
    Close(MqClose),
    /// MQPUT, MQPUT_REPLY.
    Put(MqPut),
    /// MQPUT1, MQPUT1_REPLY.
    Put1(MqPut1),
    /// MQGET, MQGET_REPLY.
    Get(MqGet),
    /// MQINQ, MQINQ_REPLY, MQSET.
    Inq(MqInq),
    /// MQDISC, MQCMIT, MQBACK and their replies, MQSET_REPLY: no defined body; bytes kept.
    Empty(Vec<u8>),
    /// SPI, MQSTAT, MQSUB, MQSUBRQ (+ replies) and anything else: not decoded; bytes kept.
    Raw(Vec<u8>),
}

/// A whole MQI flow: API header + body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiFlow {
    /// The API header.
    pub header: ApiHeader,
    /// The body.
    pub body: ApiBody,
}

impl ApiFlow {
    /// Decodes the payload of a (reassembled) segment of type `segment_type`.
    pub fn decode(segment_type: SegmentType, order: ByteOrder, payload: &[u8]) -> Result<Self> {
        Ok(Self::decode_with(segment_type, order, payload, PutData::Copied)?.0)
    }

    /// As [`ApiFlow::decode`], except that the message data of an MQPUT or MQPUT1 (request or
    /// reply: everything after DataLength) is not copied into the body, whose `data` is left
    /// empty, but returned beside the flow as a slice of `payload`. The slice is empty for
    /// other flows.
    pub fn decode_borrowing_put_data(
        segment_type: SegmentType,
        order: ByteOrder,
        payload: &[u8],
    ) -> Result<(Self, &[u8])> {
        Self::decode_with(segment_type, order, payload, PutData::Borrowed)
    }

    fn decode_with(
        segment_type: SegmentType,
        order: ByteOrder,
        payload: &[u8],
        put_data: PutData,
    ) -> Result<(Self, &[u8])> {
        use SegmentType as T;
        if !segment_type.has_api_header() {
            return Err(ProtocolError::Unsupported(
                "segment type without an API header",
            ));
        }
        let mut r = Reader::new(payload, order, "API header");
        let header = ApiHeader::decode(&mut r)?;
        let mut borrowed: &[u8] = &[];
        let body = match segment_type {
            T::MqConn | T::MqConnReply => ApiBody::Conn(MqConn::decode(&mut r)?),
            T::MqOpen | T::MqOpenReply => ApiBody::Open(MqOpen::decode(&mut r)?),
            T::MqClose | T::MqCloseReply => ApiBody::Close(MqClose::decode(&mut r)?),
            T::MqPut | T::MqPutReply => {
                let (put, data) = MqPut::decode(&mut r, put_data)?;
                borrowed = data;
                ApiBody::Put(put)
            }
            T::MqPut1 | T::MqPut1Reply => {
                let (put1, data) = MqPut1::decode(&mut r, put_data)?;
                borrowed = data;
                ApiBody::Put1(put1)
            }
            T::MqGet | T::MqGetReply => ApiBody::Get(MqGet::decode(&mut r)?),
            T::MqInq => ApiBody::Inq(MqInq::decode(&mut r, false)?),
            T::MqInqReply | T::MqSet => ApiBody::Inq(MqInq::decode(&mut r, true)?),
            T::MqDisc
            | T::MqDiscReply
            | T::MqCmit
            | T::MqCmitReply
            | T::MqBack
            | T::MqBackReply
            | T::MqSetReply => ApiBody::Empty(r.rest().to_vec()),
            _ => ApiBody::Raw(r.rest().to_vec()),
        };
        Ok((ApiFlow { header, body }, borrowed))
    }

    /// Encodes header and body (the payload of a segment; see `segment::split_into_segments`
    /// for flows larger than the transmission size).
    pub fn encode(&self, order: ByteOrder) -> Result<Vec<u8>> {
        self.encode_followed_by(order, &[])
    }

    /// As [`ApiFlow::encode`], with `data` after the body. For an MQPUT or MQPUT1 whose body
    /// holds no data (its DataLength set), `data` is its message data: the flow is the one
    /// `encode` makes of the body holding it, without copying the data into the body first.
    pub fn encode_followed_by(&self, order: ByteOrder, data: &[u8]) -> Result<Vec<u8>> {
        let capacity = self.encoded_length_hint() + data.len();
        let mut w = Writer::with_buffer(Vec::with_capacity(capacity), order);
        self.header.encode(&mut w);
        match &self.body {
            ApiBody::Conn(c) => c.encode(&mut w),
            ApiBody::Open(o) => o.encode(&mut w)?,
            ApiBody::Close(c) => c.encode(&mut w)?,
            ApiBody::Put(p) => p.encode(&mut w)?,
            ApiBody::Put1(p) => p.encode(&mut w)?,
            ApiBody::Get(g) => g.encode(&mut w)?,
            ApiBody::Inq(i) => i.encode(&mut w),
            ApiBody::Empty(b) | ApiBody::Raw(b) => w.bytes(b),
        }
        w.bytes(data);
        Ok(w.into_bytes())
    }

    /// The room [`ApiFlow::encode`] reserves: the encoded length for MQPUT, MQPUT1, MQGET,
    /// MQINQ and the bodies kept as bytes, near it for the others (the buffer grows if short).
    fn encoded_length_hint(&self) -> usize {
        let length = |structure: Result<usize>| structure.unwrap_or(0);
        API_HEADER_LENGTH
            + match &self.body {
                ApiBody::Conn(c) => 120 + c.fcno.as_ref().map_or(0, |f| 268 + f.rest.len()),
                ApiBody::Open(o) => length(o.od.length()) + 4 + 64 + o.trailing.len(),
                ApiBody::Close(c) => 4 + c.od.as_ref().map_or(0, |od| length(od.length())),
                ApiBody::Put(p) => {
                    length(p.md.length()) + length(p.pmo.length()) + 4 + p.data.len()
                }
                ApiBody::Put1(p) => {
                    length(p.od.length())
                        + length(p.md.length())
                        + length(p.pmo.length())
                        + 4
                        + p.data.len()
                }
                ApiBody::Get(g) => {
                    length(g.md.length()) + length(g.gmo.length()) + 4 + g.data.len()
                }
                ApiBody::Inq(i) => {
                    12 + 4 * (i.selectors.len() + i.int_attrs.len())
                        + i.char_attrs.len()
                        + i.trailing.len()
                }
                ApiBody::Empty(b) | ApiBody::Raw(b) => b.len(),
            }
    }
}
