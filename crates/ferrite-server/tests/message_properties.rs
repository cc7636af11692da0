//! Message handles through the Rust client: properties set on a client-side handle reach a
//! getter in another process's handle (the client builds and takes apart the MQRFH2, as MQ's
//! client libraries do), over the bindings socket and over TCP.

mod support;

use ferrite_client::{ClientOptions, Connection};
use ferrite_constants::{
    format::{MQFMT_RF_HEADER_2, MQFMT_STRING},
    get_options::*,
    misc::*,
    open_options::*,
    put_options::*,
};
use ferrite_mqi::message_handles::PropertyValue;
use ferrite_mqi::{Mqcno, Mqgmo, Mqmd, Mqod, Mqpmo};
use support::*;

fn round_trip(sender: &mut Connection, receiver: &mut Connection) {
    let output = sender.open(&mut Mqod::queue("Q1"), MQOO_OUTPUT).unwrap();
    let input = receiver
        .open(&mut Mqod::queue("Q1"), MQOO_INPUT_SHARED)
        .unwrap();
    let put_handle = sender.create_message_handle(0).unwrap();
    sender
        .set_message_property(put_handle, "region", PropertyValue::String("EMEA".into()))
        .unwrap();
    sender
        .set_message_property(put_handle, "amount", PropertyValue::Int64(1_000_000))
        .unwrap();
    for _ in 0..2 {
        let mut md = Mqmd {
            format: MQFMT_STRING,
            ..Mqmd::default()
        };
        let mut pmo = Mqpmo {
            original_msg_handle: Some(put_handle),
            ..Mqpmo::with_options(MQPMO_NO_SYNCPOINT)
        };
        sender.put(output, &mut md, &mut pmo, b"order").unwrap();
    }

    // Into a handle: the body alone, the properties in the handle.
    let get_handle = receiver.create_message_handle(0).unwrap();
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo {
        msg_handle: Some(get_handle),
        ..Mqgmo::with_options(MQGMO_NO_SYNCPOINT | MQGMO_PROPERTIES_IN_HANDLE)
    };
    let mut buffer = [0u8; 1024];
    let result = receiver.get(input, &mut md, &mut gmo, &mut buffer).unwrap();
    assert_eq!(&buffer[..result.returned_length], b"order");
    assert_eq!(result.data_length, 5);
    assert_eq!(md.format, MQFMT_STRING);
    assert_eq!(
        receiver
            .inquire_message_property(get_handle, "amount", 0, MQTYPE_AS_SET)
            .unwrap()
            .1,
        PropertyValue::Int64(1_000_000)
    );
    assert_eq!(
        receiver
            .inquire_message_property(get_handle, "region", 0, MQTYPE_AS_SET)
            .unwrap()
            .1,
        PropertyValue::String("EMEA".into())
    );

    // Without a handle on a PROPCTL(COMPAT) queue: usr properties come as an MQRFH2.
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
    let result = receiver.get(input, &mut md, &mut gmo, &mut buffer).unwrap();
    assert_eq!(md.format, MQFMT_RF_HEADER_2);
    assert!(buffer[..result.returned_length].starts_with(b"RFH "));
    assert!(buffer[..result.returned_length].ends_with(b"order"));
}

#[test]
fn properties_cross_the_bindings_socket_in_client_side_handles() {
    let fixture = start(&["Q1"]);
    let mut sender = Connection::connect(&fixture.socket, "QM1").unwrap();
    let mut receiver = Connection::connect(&fixture.socket, "QM1").unwrap();
    round_trip(&mut sender, &mut receiver);
}

#[test]
fn properties_cross_a_client_channel_in_client_side_handles() {
    let listener = listen(start(&["Q1"]));
    let address = listener.address();
    let connect = || {
        Connection::connect_client(
            &address,
            "DEV.APP.SVRCONN",
            "QM1",
            &Mqcno::default(),
            &ClientOptions::default(),
        )
        .unwrap()
    };
    let mut sender = connect();
    let mut receiver = connect();
    round_trip(&mut sender, &mut receiver);
}
