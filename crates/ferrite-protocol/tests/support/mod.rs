//! Sample values with every field set to something non-default, for round-trip tests.
#![allow(dead_code)]

use ferrite_protocol::api::*;
use ferrite_protocol::initial_data::InitialData;
use ferrite_protocol::mqi::*;
use ferrite_protocol::{ByteOrder, MqChars};

pub const ORDERS: [ByteOrder; 2] = [ByteOrder::Big, ByteOrder::Little];

pub fn chars<const N: usize>(s: &str) -> MqChars<N> {
    MqChars::new(s).unwrap()
}

pub fn bytes<const N: usize>(seed: u8) -> [u8; N] {
    let mut b = [0u8; N];
    for (i, x) in b.iter_mut().enumerate() {
        *x = seed.wrapping_add(i as u8).wrapping_mul(7) | 1;
    }
    b
}

pub fn md(version: i32) -> Md {
    let mut md = Md {
        version,
        report: 0x0100,
        msg_type: 1,
        expiry: 600,
        feedback: 0,
        encoding: 546,
        coded_char_set_id: 1208,
        format: chars("MQSTR"),
        priority: 4,
        persistence: 1,
        msg_id: bytes(1),
        correl_id: bytes(2),
        backout_count: 3,
        reply_to_q: chars("REPLY.Q"),
        reply_to_q_mgr: chars("QM1"),
        user_identifier: chars("app"),
        accounting_token: bytes(3),
        appl_identity_data: chars("ident"),
        put_appl_type: 28,
        put_appl_name: chars("JMS app"),
        put_date: chars("20260101"),
        put_time: chars("12345678"),
        appl_origin_data: chars("orig"),
        ..Md::default()
    };
    if version >= 2 {
        md.group_id = bytes(4);
        md.msg_seq_number = 5;
        md.offset = 6;
        md.msg_flags = 8;
        md.original_length = 1000;
    }
    md
}

pub fn od(version: i32) -> Od {
    let mut od = Od {
        version,
        object_type: 1,
        object_name: chars("DEV.QUEUE.1"),
        object_q_mgr_name: chars("QM1"),
        dynamic_q_name: chars("AMQ.*"),
        alternate_user_id: chars("alt"),
        ..Od::default()
    };
    if version >= 2 {
        od.known_dest_count = 1;
        od.unknown_dest_count = 2;
        od.invalid_dest_count = 3;
        od.object_rec_offset = 0;
        od.response_rec_offset = 0;
        od.object_rec_ptr = 0xAABB_CCDD;
        od.response_rec_ptr = 0x1122_3344;
    }
    if version >= 3 {
        od.alternate_security_id = bytes(9);
        od.resolved_q_name = chars("RESOLVED.Q");
        od.resolved_q_mgr_name = chars("QM2");
    }
    if version >= 4 {
        od.object_string = CharV {
            vs_ptr: 1,
            vs_offset: 2,
            vs_buf_size: 3,
            vs_length: 4,
            vs_ccsid: 1208,
        };
        od.selection_string = CharV {
            vs_ptr: 5,
            vs_offset: 6,
            vs_buf_size: 7,
            vs_length: 8,
            vs_ccsid: 819,
        };
        od.res_object_string = CharV {
            vs_ptr: 9,
            vs_offset: 10,
            vs_buf_size: 11,
            vs_length: 12,
            vs_ccsid: 0,
        };
        od.resolved_type = 8;
    }
    od
}

pub fn pmo(version: i32) -> Pmo {
    let mut p = Pmo {
        version,
        options: 0x2044,
        timeout: 7,
        context: 0x55,
        known_dest_count: 1,
        unknown_dest_count: 2,
        invalid_dest_count: 3,
        resolved_q_name: chars("RQ"),
        resolved_q_mgr_name: chars("RQM"),
        ..Pmo::default()
    };
    if version >= 2 {
        p.put_msg_rec_fields = 0x1f;
        p.put_msg_rec_offset = 11;
        p.response_rec_offset = 12;
        p.put_msg_rec_ptr = 13;
        p.response_rec_ptr = 14;
    }
    if version >= 3 {
        p.original_msg_handle = -2;
        p.new_msg_handle = 0x0102_0304_0506_0708;
        p.action = 3;
        p.pub_level = 4;
    }
    p
}

pub fn gmo(version: i32) -> Gmo {
    let mut g = Gmo {
        version,
        options: 0x2003,
        wait_interval: 5000,
        signal1: 1,
        signal2: 2,
        resolved_q_name: chars("GQ"),
        ..Gmo::default()
    };
    if version >= 2 {
        g.match_options = 0x21;
        g.group_status = b'G';
        g.segment_status = b'S';
        g.segmentation = b'A';
        g.reserved1 = b'x';
    }
    if version >= 3 {
        g.msg_token = bytes(5);
        g.returned_length = 77;
    }
    if version >= 4 {
        g.reserved2 = 9;
        g.msg_handle = -77;
    }
    g
}

pub fn cno(version: i32) -> Cno {
    let mut c = Cno {
        version,
        options: 0x0100_0000,
        ..Cno::default()
    };
    if version >= 2 {
        c.client_conn_offset = 1;
        c.client_conn_ptr = 0xDEAD_BEEF_0000_0001;
    }
    if version >= 3 {
        c.conn_tag = bytes(6);
    }
    if version >= 4 {
        c.ssl_config_ptr = 2;
        c.ssl_config_offset = 3;
    }
    if version >= 5 {
        c.connection_id = bytes(7);
        c.security_parms_offset = 4;
        c.security_parms_ptr = 5;
    }
    if version >= 6 {
        c.ccdt_url_ptr = 6;
        c.ccdt_url_offset = 7;
        c.ccdt_url_length = 8;
        c.reserved = bytes(8);
    }
    if version >= 7 {
        c.appl_name = chars("ferrite test");
        c.reserved2 = bytes(10);
    }
    if version >= 8 {
        c.balance_parms_ptr = 9;
        c.balance_parms_offset = 10;
        c.reserved3 = bytes(11);
    }
    c
}

pub fn csp(version: i32) -> Csp {
    let mut c = Csp {
        version,
        authentication_type: 1,
        reserved1: bytes(1),
        user_id_ptr: 1,
        user_id_offset: 2,
        user_id_length: 3,
        reserved2: bytes(2),
        password_ptr: 4,
        password_offset: 5,
        password_length: 6,
        ..Csp::default()
    };
    if version >= 2 {
        c.reserved3 = bytes(3);
        c.initial_key_ptr = 7;
        c.initial_key_offset = 8;
        c.initial_key_length = 9;
    }
    if version >= 3 {
        c.reserved4 = bytes(4);
        c.token_ptr = 10;
        c.token_offset = 11;
        c.token_length = 12;
    }
    c
}

/// The ID the IBM Java client 9.4.5.0 proposed on loopback, with made-up PAL/R bytes.
pub fn java_client_id() -> InitialData {
    let mut id = InitialData::new(17);
    id.cap_flags1 = 0x26;
    id.max_transmission_size = 32748;
    id.max_message_size = 104_857_600;
    id.channel_name = chars("DEV.APP.SVRCONN");
    id.cap_flags2 = 0x51;
    id.ccsid = 819;
    id.qmgr_name = chars("QM1");
    id.heartbeat_interval = 1;
    id.efl_length = 138;
    id.conv_per_socket = 10;
    id.cap_flags3 = 0x28;
    id.process_id = 4242;
    id.thread_id = 7;
    id.product_id = chars("MQJB09040500");
    id.pal = bytes(12);
    id.r = bytes(13);
    id
}

/// A segment type and a flow of that type.
pub type SampleFlow = (ferrite_protocol::segment::SegmentType, ApiFlow);

/// One flow of each kind, every field set; all with the same header.
pub fn all_flows() -> Vec<SampleFlow> {
    let h = ApiHeader {
        reply_length: 400,
        comp_code: 0,
        reason: 0,
        hobj: 0x21,
    };
    let mut flows = connection_flows(h);
    flows.extend(open_and_close_flows(h));
    flows.extend(message_flows(h));
    flows.extend(inquire_set_and_spi_flows(h));
    flows
}

/// MQCONN and its reply, MQDISC, the MQCMIT reply and MQBACK.
fn connection_flows(h: ApiHeader) -> Vec<SampleFlow> {
    use ferrite_protocol::segment::SegmentType as T;
    let conn = MqConn {
        qmgr_name: chars("QM1"),
        appl_name: chars("java app"),
        appl_type: 28,
        accounting_token: bytes(1),
        options: 3,
        x_options: 0x41,
        fcno: Some(Fcno {
            version: 3,
            cap_flags: 0,
            conn_tag: Some(bytes(2)),
            ret_conn_tag: Some(bytes(3)),
            rest: b"product id and more".to_vec(),
        }),
        trailing: vec![],
    };
    vec![
        (
            T::MqConn,
            ApiFlow {
                header: h,
                body: ApiBody::Conn(conn.clone()),
            },
        ),
        (
            T::MqConnReply,
            ApiFlow {
                header: h,
                body: ApiBody::Conn(MqConn {
                    fcno: None,
                    trailing: vec![1, 2, 3],
                    ..conn
                }),
            },
        ),
        (
            T::MqDisc,
            ApiFlow {
                header: h,
                body: ApiBody::Empty(vec![]),
            },
        ),
        (
            T::MqCmitReply,
            ApiFlow {
                header: h,
                body: ApiBody::Empty(vec![]),
            },
        ),
        (
            T::MqBack,
            ApiFlow {
                header: h,
                body: ApiBody::Empty(vec![]),
            },
        ),
    ]
}

fn open_and_close_flows(h: ApiHeader) -> Vec<SampleFlow> {
    use ferrite_protocol::segment::SegmentType as T;
    vec![
        (
            T::MqOpen,
            ApiFlow {
                header: h,
                body: ApiBody::Open(MqOpen {
                    od: od(4),
                    options: 0x2010,
                    fopa: None,
                    fcmi: None,
                    trailing: b"objstr".to_vec(),
                }),
            },
        ),
        (
            T::MqOpenReply,
            ApiFlow {
                header: h,
                body: ApiBody::Open(MqOpen {
                    od: od(1),
                    options: 0x10,
                    fopa: Some(Fopa {
                        version: 2,
                        def_persistence: 1,
                        def_put_response_type: 1,
                        def_read_ahead: 0,
                        property_control: 0,
                        unknown: vec![0xEE; 8],
                    }),
                    fcmi: Some(7),
                    trailing: vec![],
                }),
            },
        ),
        (
            T::MqClose,
            ApiFlow {
                header: h,
                body: ApiBody::Close(MqClose {
                    od: None,
                    options: 0,
                    trailing: vec![],
                }),
            },
        ),
        (
            T::MqCloseReply,
            ApiFlow {
                header: h,
                body: ApiBody::Close(MqClose {
                    od: Some(od(1)),
                    options: 1,
                    trailing: vec![],
                }),
            },
        ),
    ]
}

/// MQPUT, MQPUT1, MQGET and its reply.
fn message_flows(h: ApiHeader) -> Vec<SampleFlow> {
    use ferrite_protocol::segment::SegmentType as T;
    vec![
        (
            T::MqPut,
            ApiFlow {
                header: h,
                body: ApiBody::Put(MqPut {
                    md: md(2),
                    pmo: pmo(3),
                    data_length: 5,
                    data: b"hello".to_vec(),
                }),
            },
        ),
        (
            T::MqPut1,
            ApiFlow {
                header: h,
                body: ApiBody::Put1(MqPut1 {
                    od: od(2),
                    md: md(1),
                    pmo: pmo(1),
                    data_length: 3,
                    data: b"abc".to_vec(),
                }),
            },
        ),
        (
            T::MqGet,
            ApiFlow {
                header: h,
                body: ApiBody::Get(MqGet {
                    md: md(1),
                    gmo: gmo(4),
                    length: 4096,
                    data: vec![],
                }),
            },
        ),
        (
            T::MqGetReply,
            ApiFlow {
                header: h,
                body: ApiBody::Get(MqGet {
                    md: md(2),
                    gmo: gmo(2),
                    length: 2,
                    data: b"hi".to_vec(),
                }),
            },
        ),
    ]
}

/// MQINQ and its reply, MQSET, and an SPI flow kept raw.
fn inquire_set_and_spi_flows(h: ApiHeader) -> Vec<SampleFlow> {
    use ferrite_protocol::segment::SegmentType as T;
    let inq = MqInq {
        selectors: vec![20, 2016],
        int_attr_count: 1,
        char_attr_length: 48,
        with_values: true,
        int_attrs: vec![5000],
        char_attrs: vec![b'Q'; 48],
        trailing: vec![],
    };
    vec![
        (
            T::MqInq,
            ApiFlow {
                header: h,
                body: ApiBody::Inq(MqInq {
                    with_values: false,
                    int_attrs: vec![],
                    char_attrs: vec![],
                    ..inq.clone()
                }),
            },
        ),
        (
            T::MqInqReply,
            ApiFlow {
                header: h,
                body: ApiBody::Inq(inq.clone()),
            },
        ),
        (
            T::MqSet,
            ApiFlow {
                header: h,
                body: ApiBody::Inq(inq),
            },
        ),
        (
            T::Spi,
            ApiFlow {
                header: h,
                body: ApiBody::Raw(vec![0, 0, 0, 1, 9, 9]),
            },
        ),
    ]
}
