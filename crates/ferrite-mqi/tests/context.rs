//! MQOO_SAVE_ALL_CONTEXT and MQPMO_PASS_IDENTITY_CONTEXT / MQPMO_PASS_ALL_CONTEXT (IBM's JMS
//! client passes all context when it requeues a poison message).

use ferrite_constants::{get_options::*, open_options::*, put_options::*, reason::*};
use ferrite_mqi::*;
use ferrite_test_kit::*;

#[test]
fn pass_context_from_a_saving_handle() {
    let (_dir, qm) = queue_manager(&["IN", "OUT"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let original = put_two_with_all_context(&mut c);

    let input = c
        .open(
            &mut Mqod::queue("IN"),
            MQOO_INPUT_SHARED | MQOO_SAVE_ALL_CONTEXT | MQOO_BROWSE,
        )
        .unwrap();
    let not_saving = c.open(&mut Mqod::queue("IN"), MQOO_INPUT_SHARED).unwrap();
    let mut buffer = [0u8; 16];
    c.get(
        input,
        &mut Mqmd::default(),
        &mut Mqgmo::with_options(MQGMO_SYNCPOINT),
        &mut buffer,
    )
    .unwrap();

    let pass_all = c
        .open(&mut Mqod::queue("OUT"), MQOO_OUTPUT | MQOO_PASS_ALL_CONTEXT)
        .unwrap();
    let pass_identity = c
        .open(
            &mut Mqod::queue("OUT"),
            MQOO_OUTPUT | MQOO_PASS_IDENTITY_CONTEXT,
        )
        .unwrap();
    let plain = c.open(&mut Mqod::queue("OUT"), MQOO_OUTPUT).unwrap();
    refuse_passing_without_the_matching_open_option(
        &mut c,
        Handles {
            plain,
            pass_identity,
            pass_all,
            input,
            not_saving,
        },
    );

    let mut md = Mqmd::default();
    c.put(
        pass_all,
        &mut md,
        &mut pmo(MQPMO_PASS_ALL_CONTEXT, input),
        b"all",
    )
    .unwrap();
    assert_eq!(md.user_identifier, "alice");
    assert_eq!(md.accounting_token, original.accounting_token);
    assert_eq!(md.appl_identity_data, "identity");
    assert_eq!(md.put_appl_name, "original.app");
    assert_eq!(md.put_appl_type, 6);
    assert_eq!(md.put_date, "20200102");
    assert_eq!(md.put_time, "03040506");
    assert_eq!(md.appl_origin_data, "ORIG");

    let mut md = Mqmd::default();
    c.put(
        pass_identity,
        &mut md,
        &mut pmo(MQPMO_PASS_IDENTITY_CONTEXT, input),
        b"identity",
    )
    .unwrap();
    assert_eq!(md.user_identifier, "alice");
    assert_eq!(md.appl_identity_data, "identity");
    assert_ne!(
        md.put_appl_name, "original.app",
        "origin context is this application's"
    );
    assert_ne!(md.put_date, "20200102");
    c.commit().unwrap();

    // What was stored is what MQPUT reported.
    let out = c.open(&mut Mqod::queue("OUT"), MQOO_INPUT_SHARED).unwrap();
    let mut got = Mqmd::default();
    c.get(
        out,
        &mut got,
        &mut Mqgmo::with_options(MQGMO_NO_SYNCPOINT),
        &mut buffer,
    )
    .unwrap();
    assert_eq!(
        (
            got.user_identifier.as_str(),
            got.put_appl_name.as_str(),
            got.put_time.as_str()
        ),
        ("alice", "original.app", "03040506")
    );

    // MQPUT1 opens with the pass option itself.
    let mut md = Mqmd::default();
    c.put1(
        &mut Mqod::queue("OUT"),
        &mut md,
        &mut pmo(MQPMO_PASS_ALL_CONTEXT, input),
        b"put1",
    )
    .unwrap();
    assert_eq!(md.put_appl_name, "original.app");
}

/// Puts two messages to IN with all context set to known values, and returns that context.
fn put_two_with_all_context(c: &mut Connection) -> Mqmd {
    let setter = c
        .open(&mut Mqod::queue("IN"), MQOO_OUTPUT | MQOO_SET_ALL_CONTEXT)
        .unwrap();
    let mut original = Mqmd {
        user_identifier: "alice".into(),
        appl_identity_data: "identity".into(),
        put_appl_name: "original.app".into(),
        put_appl_type: 6,
        put_date: "20200102".into(),
        put_time: "03040506".into(),
        appl_origin_data: "ORIG".into(),
        ..Mqmd::default()
    };
    original.accounting_token[0] = 9;
    for _ in 0..2 {
        c.put(
            setter,
            &mut original.clone(),
            &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT | MQPMO_SET_ALL_CONTEXT),
            b"m",
        )
        .unwrap();
    }
    original
}

/// A put under syncpoint that passes context from `context` with `options`.
fn pmo(options: i32, context: Hobj) -> Mqpmo {
    Mqpmo {
        context: context.0,
        ..Mqpmo::with_options(MQPMO_SYNCPOINT | options)
    }
}

struct Handles {
    plain: Hobj,
    pass_identity: Hobj,
    pass_all: Hobj,
    input: Hobj,
    not_saving: Hobj,
}

/// Passing context needs the matching pass option on the output handle and a context handle
/// opened with MQOO_SAVE_ALL_CONTEXT.
fn refuse_passing_without_the_matching_open_option(c: &mut Connection, handles: Handles) {
    let Handles {
        plain,
        pass_identity,
        pass_all,
        input,
        not_saving,
    } = handles;
    assert_eq!(
        reason(c.put(
            plain,
            &mut Mqmd::default(),
            &mut pmo(MQPMO_PASS_ALL_CONTEXT, input),
            b"x"
        )),
        MQRC_NOT_OPEN_FOR_PASS_ALL
    );
    assert_eq!(
        reason(c.put(
            pass_identity,
            &mut Mqmd::default(),
            &mut pmo(MQPMO_PASS_ALL_CONTEXT, input),
            b"x"
        )),
        MQRC_NOT_OPEN_FOR_PASS_ALL
    );
    assert_eq!(
        reason(c.put(
            plain,
            &mut Mqmd::default(),
            &mut pmo(MQPMO_PASS_IDENTITY_CONTEXT, input),
            b"x"
        )),
        MQRC_NOT_OPEN_FOR_PASS_IDENT
    );
    assert_eq!(
        reason(c.put(
            pass_all,
            &mut Mqmd::default(),
            &mut pmo(MQPMO_PASS_ALL_CONTEXT, not_saving),
            b"x"
        )),
        MQRC_CONTEXT_HANDLE_ERROR
    );
}
