//! Message groups and segmentation through the MQI: MQPMO_LOGICAL_ORDER, the MQMD group
//! fields, MQGMO_LOGICAL_ORDER, ALL_MSGS_AVAILABLE, ALL_SEGMENTS_AVAILABLE, COMPLETE_MSG, the
//! match options, queue-manager segmentation, restart, concurrency and the cost of a group
//! lookup at depth, with MQ's reason codes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_constants::{
    completion::*, get_options::*, ids::MQGI_NONE, match_options::*, message_flags::*,
    open_options::*, persistence::*, put_options::*, reason::*, structs::MQGMO_VERSION_2,
};
use ferrite_mqi::*;
use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;
use ferrite_test_kit::*;

const IO: i32 = MQOO_INPUT_SHARED | MQOO_OUTPUT | MQOO_BROWSE;
const NSP: i32 = MQPMO_NO_SYNCPOINT;
const GROUP: i32 = MQMF_MSG_IN_GROUP;
const LAST: i32 = MQMF_LAST_MSG_IN_GROUP;

fn warning_of<T: std::fmt::Debug>(result: MqResult<T>) -> i32 {
    let error = result.expect_err("the call should warn");
    assert_eq!(error.completion_code, MQCC_WARNING, "{error}");
    error.reason
}

/// Put `data` with MsgFlags `flags` and put options `options`; the MQMD as MQPUT left it.
fn put_flags(
    connection: &mut Connection,
    hobj: Hobj,
    options: i32,
    md: Mqmd,
    data: &[u8],
) -> MqResult<(Mqmd, Option<MqError>)> {
    let mut md = md;
    let warning = put_md(connection, hobj, &mut md, options, data)?;
    Ok((md, warning))
}

fn flagged(flags: i32) -> Mqmd {
    Mqmd {
        msg_flags: flags,
        ..Mqmd::default()
    }
}

/// A member of group `group_id` at `sequence`, put without logical order.
fn member(group_id: [u8; 24], sequence: i32, flags: i32) -> Mqmd {
    Mqmd {
        group_id,
        msg_seq_number: sequence,
        msg_flags: flags,
        ..Mqmd::default()
    }
}

#[derive(Debug)]
struct Got {
    md: Mqmd,
    data: Vec<u8>,
    group_status: u8,
    segment_status: u8,
    warning: Option<MqError>,
}

fn get_with(
    connection: &mut Connection,
    hobj: Hobj,
    options: i32,
    match_options: i32,
    md: Mqmd,
    buffer_size: usize,
) -> MqResult<Got> {
    let mut md = md;
    let mut gmo = Mqgmo::matching(options, match_options);
    let mut buffer = vec![0u8; buffer_size];
    let result = connection.get(hobj, &mut md, &mut gmo, &mut buffer)?;
    buffer.truncate(result.returned_length);
    Ok(Got {
        md,
        data: buffer,
        group_status: gmo.group_status,
        segment_status: gmo.segment_status,
        warning: result.warning,
    })
}

fn get(connection: &mut Connection, hobj: Hobj, options: i32) -> MqResult<Got> {
    get_with(connection, hobj, options, 0, Mqmd::default(), 4096)
}

fn setup(queue: QueueDefinition) -> (tempfile::TempDir, Arc<ferrite_queue_manager::QueueManager>) {
    let (directory, qm) = queue_manager(&[]);
    define(&qm, queue);
    (directory, qm)
}

fn local(name: &str) -> QueueDefinition {
    QueueDefinition::local(name, PageSetId(1))
}

#[test]
fn logical_order_put_assigns_group_id_sequence_and_offset() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm, "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let lo = NSP | MQPMO_LOGICAL_ORDER;
    let (first, _) = put_flags(&mut c, h, lo, flagged(GROUP), b"a").unwrap();
    let (second, _) = put_flags(&mut c, h, lo, flagged(GROUP), b"b").unwrap();
    let (third, _) = put_flags(&mut c, h, lo, flagged(LAST), b"c").unwrap();
    assert_ne!(first.group_id, MQGI_NONE);
    assert_eq!(first.group_id, second.group_id);
    assert_eq!(first.group_id, third.group_id);
    assert_eq!(
        [
            first.msg_seq_number,
            second.msg_seq_number,
            third.msg_seq_number
        ],
        [1, 2, 3]
    );
    // The next group gets a new GroupId; a message in no group gets none.
    let (next, _) = put_flags(&mut c, h, lo, flagged(LAST), b"d").unwrap();
    assert_ne!(next.group_id, first.group_id);
    assert_eq!(next.msg_seq_number, 1);
    let (plain, _) = put_flags(&mut c, h, lo, Mqmd::default(), b"e").unwrap();
    assert_eq!(plain.group_id, MQGI_NONE);
    // Segments of a logical message: offsets follow the data.
    let seg = MQMF_SEGMENT;
    let (s1, _) = put_flags(&mut c, h, lo, flagged(seg), b"0123").unwrap();
    let (s2, _) = put_flags(&mut c, h, lo, flagged(seg), b"45").unwrap();
    let (s3, _) = put_flags(&mut c, h, lo, flagged(MQMF_LAST_SEGMENT), b"6789").unwrap();
    assert_eq!([s1.offset, s2.offset, s3.offset], [0, 4, 6]);
    assert_eq!(s1.group_id, s3.group_id);
    assert_eq!(s3.msg_seq_number, 1);
    // Retrieved, the stored fields come back with the statuses.
    let got = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT,
        MQMO_MATCH_MSG_SEQ_NUMBER,
        member(MQGI_NONE, 2, 0),
        10,
    )
    .unwrap();
    assert_eq!(got.data, b"b");
    assert_eq!(got.md.group_id, first.group_id);
    assert_eq!(got.md.msg_flags, GROUP);
    assert_eq!(got.group_status, MQGS_MSG_IN_GROUP);
    let got = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT,
        MQMO_MATCH_OFFSET,
        Mqmd {
            offset: 6,
            ..Mqmd::default()
        },
        10,
    )
    .unwrap();
    assert_eq!(got.data, b"6789");
    assert_eq!(got.md.msg_flags, MQMF_SEGMENT | MQMF_LAST_SEGMENT);
    assert_eq!(got.segment_status, MQSS_LAST_SEGMENT);
    assert_eq!(got.md.offset, 6);
}

#[test]
fn logical_order_put_reason_codes() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm, "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let lo = NSP | MQPMO_LOGICAL_ORDER;
    put_flags(&mut c, h, lo, flagged(GROUP), b"a").unwrap();
    // A message in no group while a group is in progress.
    assert_eq!(
        reason(put_flags(&mut c, h, lo, Mqmd::default(), b"x")),
        MQRC_INCOMPLETE_GROUP
    );
    // Another syncpoint option, another persistence.
    assert_eq!(
        reason(put_flags(
            &mut c,
            h,
            MQPMO_SYNCPOINT | MQPMO_LOGICAL_ORDER,
            flagged(GROUP),
            b"x"
        )),
        MQRC_INCONSISTENT_UOW
    );
    let persistent = Mqmd {
        persistence: MQPER_PERSISTENT,
        ..flagged(GROUP)
    };
    assert_eq!(
        reason(put_flags(&mut c, h, lo, persistent, b"x")),
        MQRC_INCONSISTENT_PERSISTENCE
    );
    // A segment begun inside the group must be finished before anything else.
    put_flags(&mut c, h, lo, flagged(GROUP | MQMF_SEGMENT), b"seg").unwrap();
    assert_eq!(
        reason(put_flags(&mut c, h, lo, flagged(GROUP), b"x")),
        MQRC_INCOMPLETE_MSG
    );
    assert_eq!(
        reason(put_flags(&mut c, h, lo, flagged(LAST | MQMF_SEGMENT), b"x")),
        MQRC_INCOMPLETE_MSG
    );
    assert_eq!(
        reason(put_flags(&mut c, h, lo, flagged(GROUP | MQMF_SEGMENT), b"")),
        MQRC_SEGMENT_LENGTH_ZERO
    );
    // MQCLOSE with the logical message unfinished: closed, with a warning.
    assert_eq!(warning_of(c.close(h, 0)), MQRC_INCOMPLETE_MSG);
    assert_eq!(reason(c.close(h, 0)), MQRC_HOBJ_ERROR);
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    put_flags(&mut c, h, lo, flagged(GROUP), b"a").unwrap();
    assert_eq!(warning_of(c.close(h, 0)), MQRC_INCOMPLETE_GROUP);
    // Leaving logical order mid-group: the put is done, with a warning.
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let (first, _) = put_flags(&mut c, h, lo, flagged(GROUP), b"a").unwrap();
    let (_, warning) = put_flags(&mut c, h, NSP, member(first.group_id, 2, LAST), b"b").unwrap();
    assert_eq!(warning.map(|w| w.reason), Some(MQRC_INCOMPLETE_GROUP));
    c.close(h, 0).unwrap();
}

#[test]
fn application_supplied_group_fields_are_checked() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let id = [7u8; 24];
    assert_eq!(
        reason(put_flags(&mut c, h, NSP, flagged(0x20), b"x")),
        MQRC_MSG_FLAGS_ERROR
    );
    assert_eq!(
        reason(put_flags(&mut c, h, NSP, member(id, 0, GROUP), b"x")),
        MQRC_MSG_SEQ_NUMBER_ERROR
    );
    let offset_without_segment = Mqmd {
        offset: 5,
        ..member(id, 1, GROUP)
    };
    assert_eq!(
        reason(put_flags(&mut c, h, NSP, offset_without_segment, b"x")),
        MQRC_OFFSET_ERROR
    );
    let negative = Mqmd {
        offset: -1,
        ..member(id, 1, MQMF_SEGMENT)
    };
    assert_eq!(
        reason(put_flags(&mut c, h, NSP, negative, b"x")),
        MQRC_OFFSET_ERROR
    );
    assert_eq!(
        reason(put_flags(&mut c, h, NSP, member(id, 1, MQMF_SEGMENT), b"")),
        MQRC_SEGMENT_LENGTH_ZERO
    );
    // Flags outside the reject mask are accepted and kept; LAST implies IN_GROUP.
    let (md, _) = put_flags(&mut c, h, NSP, member(id, 1, LAST | 0x0010_0000), b"x").unwrap();
    assert_eq!(md.group_id, id);
    let got = get(&mut c, h, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(got.md.msg_flags, LAST | GROUP | 0x0010_0000);
    assert_eq!(got.group_status, MQGS_LAST_MSG_IN_GROUP);
    // A group member with GroupId none is given a new one.
    let (md, _) = put_flags(&mut c, h, NSP, member(MQGI_NONE, 1, GROUP), b"x").unwrap();
    assert_ne!(md.group_id, MQGI_NONE);
    // Matching on a MsgSeqNumber or Offset no message has.
    let bad = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT,
        MQMO_MATCH_MSG_SEQ_NUMBER,
        member(id, 0, 0),
        10,
    );
    assert_eq!(reason(bad), MQRC_MSG_SEQ_NUMBER_ERROR);
    let bad = Mqmd {
        offset: -3,
        ..Mqmd::default()
    };
    assert_eq!(
        reason(get_with(
            &mut c,
            h,
            MQGMO_NO_SYNCPOINT,
            MQMO_MATCH_OFFSET,
            bad,
            10
        )),
        MQRC_OFFSET_ERROR
    );
    // MsgSeqNumber matching does not combine with logical order.
    let bad = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT | MQGMO_LOGICAL_ORDER,
        MQMO_MATCH_MSG_SEQ_NUMBER,
        member(id, 1, 0),
        10,
    );
    assert_eq!(reason(bad), MQRC_MATCH_OPTIONS_ERROR);
}

/// Puts group `id` of `count` messages in the order `order` (1-based sequence numbers),
/// outside syncpoint, without logical order.
fn put_group(c: &mut Connection, h: Hobj, id: [u8; 24], count: i32, order: &[i32], options: i32) {
    for &sequence in order {
        let flags = if sequence == count { LAST } else { GROUP };
        let data = format!("{}-{sequence}", id[0]);
        put_flags(c, h, options, member(id, sequence, flags), data.as_bytes()).unwrap();
    }
}

#[test]
fn logical_order_get_returns_a_group_in_sequence() {
    let (_dir, qm) = setup(QueueDefinition {
        index_type: "GROUPID".into(),
        ..local("Q")
    });
    let mut c = Connection::connect(qm, "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    put_flags(&mut c, h, NSP, Mqmd::default(), b"plain").unwrap();
    put_group(&mut c, h, [1; 24], 3, &[3, 1, 2], NSP);
    put_group(&mut c, h, [2; 24], 2, &[2, 1], NSP);
    let lo = MQGMO_NO_SYNCPOINT | MQGMO_LOGICAL_ORDER;
    let mut seen = Vec::new();
    while let Ok(got) = get(&mut c, h, lo) {
        seen.push((String::from_utf8(got.data).unwrap(), got.group_status));
    }
    let expected = [
        ("plain", MQGS_NOT_IN_GROUP),
        ("1-1", MQGS_MSG_IN_GROUP),
        ("1-2", MQGS_MSG_IN_GROUP),
        ("1-3", MQGS_LAST_MSG_IN_GROUP),
        ("2-1", MQGS_MSG_IN_GROUP),
        ("2-2", MQGS_LAST_MSG_IN_GROUP),
    ];
    let expected: Vec<_> = expected.iter().map(|(d, s)| (d.to_string(), *s)).collect();
    assert_eq!(seen, expected);

    // Mid-group: another syncpoint option fails; leaving logical order warns.
    put_group(&mut c, h, [3; 24], 3, &[1, 2, 3], NSP);
    get(&mut c, h, lo).unwrap();
    assert_eq!(
        reason(get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_LOGICAL_ORDER)),
        MQRC_INCONSISTENT_UOW
    );
    let got = get(&mut c, h, MQGMO_NO_SYNCPOINT).unwrap();
    assert_eq!(got.warning.map(|w| w.reason), Some(MQRC_INCOMPLETE_GROUP));
    // MATCH_GROUP_ID picks the group's first message in delivery order.
    let got = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT,
        MQMO_MATCH_GROUP_ID,
        member([3; 24], 1, 0),
        10,
    )
    .unwrap();
    assert_eq!(got.data, b"3-3");
    assert_eq!(
        reason(get(&mut c, h, MQGMO_NO_SYNCPOINT)),
        MQRC_NO_MSG_AVAILABLE
    );
}

#[test]
fn browse_in_logical_order_and_inconsistent_browse() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm, "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    put_group(&mut c, h, [1; 24], 3, &[2, 3, 1], NSP);
    put_flags(&mut c, h, NSP, Mqmd::default(), b"plain").unwrap();
    put_group(&mut c, h, [2; 24], 2, &[2, 1], NSP);
    let first = MQGMO_BROWSE_FIRST | MQGMO_LOGICAL_ORDER;
    let next = MQGMO_BROWSE_NEXT | MQGMO_LOGICAL_ORDER;
    let mut seen = vec![String::from_utf8(get(&mut c, h, first).unwrap().data).unwrap()];
    while let Ok(got) = get(&mut c, h, next) {
        seen.push(String::from_utf8(got.data).unwrap());
    }
    assert_eq!(seen, ["1-1", "1-2", "1-3", "plain", "2-1", "2-2"]);
    assert_eq!(
        reason(get(&mut c, h, MQGMO_BROWSE_NEXT)),
        MQRC_INCONSISTENT_BROWSE
    );
    // Physical order again from the start.
    assert_eq!(get(&mut c, h, MQGMO_BROWSE_FIRST).unwrap().data, b"1-2");
    assert_eq!(reason(get(&mut c, h, next)), MQRC_INCONSISTENT_BROWSE);
    assert_eq!(qm_depth(&c, "Q"), 6);
}

fn qm_depth(c: &Connection, queue: &str) -> u64 {
    c.queue_manager().queue(queue).unwrap().depth()
}

#[test]
fn all_msgs_available_takes_only_complete_committed_groups() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    // Group 1 lacks its last message; group 2 is complete but uncommitted; then a plain one.
    put_group(&mut c, h, [1; 24], 3, &[1, 2], NSP);
    put_group(&mut c, h, [2; 24], 2, &[1, 2], MQPMO_SYNCPOINT);
    put_flags(&mut c, h, NSP, Mqmd::default(), b"plain").unwrap();
    let all = MQGMO_NO_SYNCPOINT | MQGMO_ALL_MSGS_AVAILABLE | MQGMO_LOGICAL_ORDER;
    let mut other = Connection::connect(qm.clone(), "").unwrap();
    let ho = other.open(&mut Mqod::queue("Q"), IO).unwrap();
    assert_eq!(get(&mut other, ho, all).unwrap().data, b"plain");
    assert_eq!(reason(get(&mut other, ho, all)), MQRC_NO_MSG_AVAILABLE);
    c.commit().unwrap();
    assert_eq!(get(&mut other, ho, all).unwrap().data, b"2-1");
    assert_eq!(get(&mut other, ho, all).unwrap().data, b"2-2");
    assert_eq!(reason(get(&mut other, ho, all)), MQRC_NO_MSG_AVAILABLE);
    // Without logical order too: only members of complete groups.
    let all_physical = MQGMO_NO_SYNCPOINT | MQGMO_ALL_MSGS_AVAILABLE;
    assert_eq!(
        reason(get(&mut other, ho, all_physical)),
        MQRC_NO_MSG_AVAILABLE
    );
    put_group(&mut c, h, [1; 24], 3, &[3], NSP);
    assert_eq!(get(&mut other, ho, all_physical).unwrap().data, b"1-1");
    // The group is now incomplete for everyone else.
    assert_eq!(reason(get(&mut c, h, all)), MQRC_NO_MSG_AVAILABLE);
    let rest = get_with(
        &mut other,
        ho,
        MQGMO_NO_SYNCPOINT,
        MQMO_MATCH_GROUP_ID,
        member([1; 24], 1, 0),
        10,
    );
    assert_eq!(rest.unwrap().data, b"1-2");
}

#[test]
fn a_waiting_all_msgs_available_get_is_woken_by_the_completing_put() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    put_group(&mut c, h, [1; 24], 2, &[1], NSP);
    let waiter = std::thread::spawn({
        let qm = qm.clone();
        move || {
            let mut c = Connection::connect(qm, "").unwrap();
            let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
            let mut md = Mqmd::default();
            let mut gmo = Mqgmo::matching(
                MQGMO_WAIT | MQGMO_NO_SYNCPOINT | MQGMO_ALL_MSGS_AVAILABLE | MQGMO_LOGICAL_ORDER,
                0,
            );
            gmo.wait_interval = 30_000;
            let mut buffer = [0u8; 16];
            let started = Instant::now();
            let got = c.get(h, &mut md, &mut gmo, &mut buffer).unwrap();
            (buffer[..got.returned_length].to_vec(), started.elapsed())
        }
    });
    std::thread::sleep(Duration::from_millis(200));
    // No timing: the waiter must simply not have returned while the group was incomplete.
    assert!(
        !waiter.is_finished(),
        "a get with ALL_MSGS_AVAILABLE waits for the whole group"
    );
    let put_at = Instant::now();
    put_group(&mut c, h, [1; 24], 2, &[2], NSP);
    let (data, _waited) = waiter.join().unwrap();
    assert_eq!(data, b"1-1");
    assert!(
        put_at.elapsed() < Duration::from_secs(5),
        "woken by the put, not a timeout"
    );
}

#[test]
fn segments_all_segments_available_and_complete_msg() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let lo = NSP | MQPMO_LOGICAL_ORDER;
    put_flags(&mut c, h, lo, flagged(MQMF_SEGMENT), b"hello ").unwrap();
    put_flags(&mut c, h, lo, flagged(MQMF_SEGMENT), b"segmented ").unwrap();
    // Not yet complete: ALL_SEGMENTS_AVAILABLE and COMPLETE_MSG see nothing.
    let segments = MQGMO_NO_SYNCPOINT | MQGMO_ALL_SEGMENTS_AVAILABLE;
    assert_eq!(
        reason(get(
            &mut c,
            h,
            MQGMO_BROWSE_FIRST | MQGMO_ALL_SEGMENTS_AVAILABLE
        )),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(
        reason(get(&mut c, h, MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG)),
        MQRC_NO_MSG_AVAILABLE
    );
    put_flags(&mut c, h, lo, flagged(MQMF_LAST_SEGMENT), b"world").unwrap();
    let got = get(&mut c, h, MQGMO_BROWSE_FIRST | MQGMO_ALL_SEGMENTS_AVAILABLE).unwrap();
    assert_eq!(
        (got.data.as_slice(), got.segment_status),
        (&b"hello "[..], MQSS_SEGMENT)
    );
    // Too small a buffer: nothing is got, DataLength is the whole message.
    let small = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG,
        0,
        Mqmd::default(),
        8,
    );
    let error = small.expect_err("truncated");
    assert_eq!(
        (error.reason, error.data_length),
        (MQRC_TRUNCATED_MSG_FAILED, Some(21))
    );
    assert_eq!(qm_depth(&c, "Q"), 3);
    let got = get(&mut c, h, MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG).unwrap();
    assert_eq!(got.data, b"hello segmented world");
    assert_eq!(got.md.offset, 0);
    assert_eq!(
        got.md.msg_flags & (MQMF_SEGMENT | MQMF_LAST_SEGMENT),
        MQMF_SEGMENT | MQMF_LAST_SEGMENT
    );
    assert_eq!(got.segment_status, MQSS_LAST_SEGMENT);
    assert_eq!(qm_depth(&c, "Q"), 0);
    // Segment by segment in logical order.
    put_flags(&mut c, h, lo, flagged(MQMF_SEGMENT), b"ab").unwrap();
    put_flags(&mut c, h, lo, flagged(MQMF_LAST_SEGMENT), b"cd").unwrap();
    let got = get(&mut c, h, segments | MQGMO_LOGICAL_ORDER).unwrap();
    assert_eq!((got.data.as_slice(), got.md.offset), (&b"ab"[..], 0));
    let got = get(&mut c, h, segments | MQGMO_LOGICAL_ORDER).unwrap();
    assert_eq!((got.data.as_slice(), got.md.offset), (&b"cd"[..], 2));
    assert_eq!(got.segment_status, MQSS_LAST_SEGMENT);
}

#[test]
fn the_queue_manager_segments_a_message_longer_than_maxmsgl() {
    let (_dir, qm) = setup(QueueDefinition {
        max_message_length: 100,
        ..local("Q")
    });
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let data: Vec<u8> = (0..250u32).map(|i| i as u8).collect();
    assert_eq!(
        reason(put_flags(&mut c, h, NSP, Mqmd::default(), &data)),
        MQRC_MSG_TOO_BIG_FOR_Q
    );
    let (md, _) = put_flags(&mut c, h, NSP, flagged(MQMF_SEGMENTATION_ALLOWED), &data).unwrap();
    assert_ne!(md.group_id, MQGI_NONE);
    assert_eq!(qm_depth(&c, "Q"), 3);
    let got = get(&mut c, h, MQGMO_BROWSE_FIRST).unwrap();
    assert_eq!(got.data.len(), 100);
    assert_eq!(got.md.original_length, 250);
    assert_eq!(got.md.msg_flags, MQMF_SEGMENTATION_ALLOWED | MQMF_SEGMENT);
    let got = get(&mut c, h, MQGMO_SYNCPOINT | MQGMO_COMPLETE_MSG).unwrap();
    assert_eq!(got.data, data);
    c.backout().unwrap();
    assert_eq!(
        qm_depth(&c, "Q"),
        3,
        "the segments were got in the unit of work"
    );
    let got = get(&mut c, h, MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG).unwrap();
    assert_eq!(got.data, data);
    // In syncpoint, the segments appear together at commit.
    put_flags(
        &mut c,
        h,
        MQPMO_SYNCPOINT,
        flagged(MQMF_SEGMENTATION_ALLOWED),
        &data,
    )
    .unwrap();
    assert_eq!(qm_depth(&c, "Q"), 0);
    c.commit().unwrap();
    assert_eq!(qm_depth(&c, "Q"), 3);
}

#[test]
fn groups_and_segments_survive_restart_and_logical_order_state_does_not() {
    let directory = tempfile::tempdir().unwrap();
    create(directory.path(), "QM1");
    let (group_id, segmented) = {
        let qm = open(directory.path());
        define(
            &qm,
            QueueDefinition {
                max_message_length: 64,
                default_persistent: true,
                ..local("Q")
            },
        );
        let mut c = Connection::connect(qm.clone(), "").unwrap();
        let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
        let lo = MQPMO_SYNCPOINT | MQPMO_LOGICAL_ORDER;
        let (first, _) = put_flags(&mut c, h, lo, flagged(GROUP), b"g1").unwrap();
        put_flags(&mut c, h, lo, flagged(GROUP), b"g2").unwrap();
        put_flags(&mut c, h, lo, flagged(LAST), b"g3").unwrap();
        let segmented: Vec<u8> = (0..200u32).map(|i| (i * 7) as u8).collect();
        put_flags(
            &mut c,
            h,
            lo,
            flagged(MQMF_SEGMENTATION_ALLOWED),
            &segmented,
        )
        .unwrap();
        // A group left unfinished by logical order, committed as far as it went.
        put_flags(&mut c, h, lo, flagged(GROUP), b"open").unwrap();
        c.commit().unwrap();
        drop(c);
        qm.shutdown().unwrap();
        (first.group_id, segmented)
    };
    let qm = open(directory.path());
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let queue = qm.queue("Q").unwrap();
    assert!(queue.group_complete(&group_id));
    let all = MQGMO_NO_SYNCPOINT | MQGMO_ALL_MSGS_AVAILABLE | MQGMO_LOGICAL_ORDER;
    let got: Vec<_> = (0..3).map(|_| get(&mut c, h, all).unwrap()).collect();
    assert_eq!(
        got.iter().map(|g| g.data.clone()).collect::<Vec<_>>(),
        [b"g1", b"g2", b"g3"]
    );
    assert_eq!(got[2].group_status, MQGS_LAST_MSG_IN_GROUP);
    let whole = get(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG | MQGMO_ALL_MSGS_AVAILABLE,
    )
    .unwrap();
    assert_eq!(whole.data, segmented);
    // The unfinished group stays incomplete; a new logical-order put starts a new group.
    assert_eq!(reason(get(&mut c, h, all)), MQRC_NO_MSG_AVAILABLE);
    let (md, _) = put_flags(&mut c, h, NSP | MQPMO_LOGICAL_ORDER, flagged(GROUP), b"new").unwrap();
    assert_eq!(md.msg_seq_number, 1);
    c.close(h, 0).expect_err("the new group is unfinished");
    drop(c);
    qm.shutdown().unwrap();
}

#[test]
fn two_getters_with_all_msgs_available_never_split_a_group() {
    const GROUPS: u8 = 60;
    const SIZE: i32 = 4;
    let (_dir, qm) = queue_manager(&["Q"]);
    let getters: Vec<_> = (0..2)
        .map(|_| {
            let qm = qm.clone();
            std::thread::spawn(move || {
                let mut c = Connection::connect(qm, "").unwrap();
                let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
                let options =
                    MQGMO_SYNCPOINT | MQGMO_WAIT | MQGMO_ALL_MSGS_AVAILABLE | MQGMO_LOGICAL_ORDER;
                let mut groups = Vec::new();
                loop {
                    let mut members = Vec::new();
                    loop {
                        let mut md = Mqmd::default();
                        let mut gmo = Mqgmo::matching(options, 0);
                        gmo.wait_interval = 1_000;
                        let mut buffer = [0u8; 16];
                        match c.get(h, &mut md, &mut gmo, &mut buffer) {
                            Ok(_) => {
                                members.push((md.group_id[0], md.msg_seq_number));
                                if gmo.group_status == MQGS_LAST_MSG_IN_GROUP {
                                    break;
                                }
                            }
                            Err(error) => {
                                assert_eq!(error.reason, MQRC_NO_MSG_AVAILABLE);
                                assert!(members.is_empty(), "a group was left half got");
                                return groups;
                            }
                        }
                    }
                    c.commit().unwrap();
                    groups.push(members);
                }
            })
        })
        .collect();
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    for group in 1..=GROUPS {
        // Interleaved and committed member by member, so getters see partial groups.
        for sequence in 1..=SIZE {
            let flags = if sequence == SIZE { LAST } else { GROUP };
            put_flags(
                &mut c,
                h,
                MQPMO_SYNCPOINT,
                member([group; 24], sequence, flags),
                b"m",
            )
            .unwrap();
            c.commit().unwrap();
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for getter in getters {
        for members in getter.join().unwrap() {
            let group = members[0].0;
            let expected: Vec<_> = (1..=SIZE).map(|s| (group, s)).collect();
            assert_eq!(
                members, expected,
                "one getter got the whole group, in order"
            );
            assert!(seen.insert(group));
        }
    }
    assert_eq!(seen.len(), GROUPS as usize);
}

/// The candidates the group searches look at for one get, at a given depth of other messages.
fn group_get_steps(depth: usize) -> (u64, u64) {
    let (_dir, qm) = setup(QueueDefinition {
        index_type: "GROUPID".into(),
        max_depth: 1_000_000,
        ..local("Q")
    });
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    // Ahead in delivery order: one big incomplete group, then messages in no group.
    for sequence in 1..=depth as i32 {
        put_flags(&mut c, h, NSP, member([9; 24], sequence, GROUP), b"i").unwrap();
    }
    let high = Mqmd {
        priority: 0,
        ..Mqmd::default()
    };
    for _ in 0..depth {
        put_flags(&mut c, h, NSP, high.clone(), b"n").unwrap();
    }
    put_group(&mut c, h, [1; 24], 3, &[1, 2, 3], NSP);
    let queue = qm.queue("Q").unwrap();
    // Start a complete group, skipping the incomplete one: whole-group lookup.
    let before = queue.group_search_steps();
    let all = MQGMO_BROWSE_FIRST | MQGMO_ALL_MSGS_AVAILABLE | MQGMO_LOGICAL_ORDER;
    let got = get_with(
        &mut c,
        h,
        all,
        MQMO_MATCH_GROUP_ID,
        member([1; 24], 1, 0),
        16,
    )
    .unwrap();
    assert_eq!(got.data, b"1-1");
    let whole_group = queue.group_search_steps() - before;
    // The next message of a group by position.
    let before = queue.group_search_steps();
    let got = get_with(
        &mut c,
        h,
        MQGMO_NO_SYNCPOINT,
        MQMO_MATCH_GROUP_ID | MQMO_MATCH_MSG_SEQ_NUMBER,
        member([1; 24], 3, 0),
        16,
    )
    .unwrap();
    assert_eq!(got.data, b"1-3");
    let by_position = queue.group_search_steps() - before;
    (whole_group, by_position)
}

#[test]
fn group_lookup_work_does_not_grow_with_depth() {
    let shallow = group_get_steps(10);
    let deep = group_get_steps(5_000);
    assert_eq!(shallow, deep, "steps at depth 21 and 10,003");
    assert!(
        (1..=4).contains(&deep.0) && (1..=4).contains(&deep.1),
        "{deep:?}"
    );
}

#[test]
fn all_msgs_available_without_a_group_id_skips_incomplete_groups_without_scanning() {
    let steps = |depth: i32| {
        let (_dir, qm) = queue_manager(&["Q"]);
        let mut c = Connection::connect(qm.clone(), "").unwrap();
        let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
        for sequence in 1..=depth {
            put_flags(&mut c, h, NSP, member([9; 24], sequence, GROUP), b"i").unwrap();
        }
        put_group(&mut c, h, [1; 24], 2, &[1, 2], NSP);
        let queue = qm.queue("Q").unwrap();
        let before = queue.group_search_steps();
        let all = MQGMO_NO_SYNCPOINT | MQGMO_ALL_MSGS_AVAILABLE;
        assert_eq!(get(&mut c, h, all).unwrap().data, b"1-1");
        let logical = MQGMO_NO_SYNCPOINT | MQGMO_ALL_MSGS_AVAILABLE | MQGMO_LOGICAL_ORDER;
        assert_eq!(reason(get(&mut c, h, logical)), MQRC_NO_MSG_AVAILABLE);
        queue.group_search_steps() - before
    };
    let shallow = steps(10);
    assert!(shallow > 0, "the search is counted");
    assert_eq!(shallow, steps(5_000));
}

#[test]
fn gmo_version_1_ignores_group_matching() {
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm, "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    put_group(&mut c, h, [1; 24], 1, &[1], NSP);
    let mut md = member([5; 24], 1, 0);
    let mut gmo = Mqgmo::with_options(MQGMO_NO_SYNCPOINT);
    assert_ne!(gmo.version, MQGMO_VERSION_2);
    gmo.match_options = MQMO_MATCH_GROUP_ID;
    let mut buffer = [0u8; 8];
    assert!(c.get(h, &mut md, &mut gmo, &mut buffer).is_ok());
}

/// A segment of the logical message `sequence` 1 of group `group_id` at `offset`, put
/// without logical order (as a channel or an application segmenting by itself puts them).
fn segment(group_id: [u8; 24], offset: i32, last: bool) -> Mqmd {
    Mqmd {
        group_id,
        msg_seq_number: 1,
        offset,
        msg_flags: if last {
            MQMF_LAST_SEGMENT
        } else {
            MQMF_SEGMENT
        },
        ..Mqmd::default()
    }
}

#[test]
fn complete_msg_without_logical_order_reassembles_whatever_the_physical_order() {
    // MQ: with MQGMO_COMPLETE_MSG "only a complete logical message can be returned"; without
    // MQGMO_LOGICAL_ORDER the logical messages come in physical order of their first segment,
    // and one with a segment missing is passed over.
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let (x, y) = ([1u8; 24], [2u8; 24]);
    put_flags(&mut c, h, NSP, Mqmd::default(), b"A").unwrap();
    put_flags(&mut c, h, NSP, segment(x, 6, true), b"world").unwrap();
    put_flags(&mut c, h, NSP, segment(y, 0, false), b"incomplete ").unwrap();
    put_flags(&mut c, h, NSP, segment(x, 0, false), b"hello ").unwrap();
    put_flags(&mut c, h, NSP, Mqmd::default(), b"B").unwrap();
    let complete = MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG;
    // Browsing first, without logical order.
    let browsed: Vec<Vec<u8>> = [MQGMO_BROWSE_FIRST, MQGMO_BROWSE_NEXT, MQGMO_BROWSE_NEXT]
        .into_iter()
        .map(|browse| get(&mut c, h, browse | MQGMO_COMPLETE_MSG).unwrap().data)
        .collect();
    assert_eq!(browsed, [&b"A"[..], b"hello world", b"B"]);
    assert_eq!(
        reason(get(&mut c, h, MQGMO_BROWSE_NEXT | MQGMO_COMPLETE_MSG)),
        MQRC_NO_MSG_AVAILABLE
    );
    assert_eq!(get(&mut c, h, complete).unwrap().data, b"A");
    let got = get(&mut c, h, complete).unwrap();
    assert_eq!(got.data, b"hello world");
    assert_eq!(got.md.group_id, x);
    assert_eq!(got.md.offset, 0);
    assert_eq!(got.segment_status, MQSS_LAST_SEGMENT);
    assert_eq!(get(&mut c, h, complete).unwrap().data, b"B");
    assert_eq!(reason(get(&mut c, h, complete)), MQRC_NO_MSG_AVAILABLE);
    assert_eq!(qm_depth(&c, "Q"), 1, "Y's first segment waits for the rest");
    put_flags(&mut c, h, NSP, segment(y, 11, true), b"now").unwrap();
    // Matching the group id finds Y's logical message too.
    let got = get_with(
        &mut c,
        h,
        complete,
        MQMO_MATCH_GROUP_ID,
        Mqmd {
            group_id: y,
            ..Mqmd::default()
        },
        64,
    )
    .unwrap();
    assert_eq!(got.data, b"incomplete now");
    assert_eq!(qm_depth(&c, "Q"), 0);
}

#[test]
fn all_segments_available_without_logical_order_gets_segments_of_complete_messages() {
    // Without MQGMO_LOGICAL_ORDER each MQGET returns one segment, in physical order, but only
    // of a logical message whose segments are all on the queue. Once one segment is taken the
    // rest no longer form a complete logical message: MQ ignores the option only for the
    // segments after the first *in logical order*, so without it they are not available.
    let (_dir, qm) = queue_manager(&["Q"]);
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let h = c.open(&mut Mqod::queue("Q"), IO).unwrap();
    let (x, y) = ([1u8; 24], [2u8; 24]);
    put_flags(&mut c, h, NSP, segment(y, 0, false), b"waiting").unwrap();
    put_flags(&mut c, h, NSP, segment(x, 3, true), b"def").unwrap();
    put_flags(&mut c, h, NSP, segment(x, 0, false), b"abc").unwrap();
    let segments = MQGMO_NO_SYNCPOINT | MQGMO_ALL_SEGMENTS_AVAILABLE;
    let browsed = get(&mut c, h, MQGMO_BROWSE_FIRST | MQGMO_ALL_SEGMENTS_AVAILABLE).unwrap();
    assert_eq!(browsed.data, b"def", "Y's segment is passed over");
    let got = get(&mut c, h, segments).unwrap();
    assert_eq!((got.data.as_slice(), got.md.offset), (&b"def"[..], 3));
    assert_eq!(got.segment_status, MQSS_LAST_SEGMENT);
    assert_eq!(reason(get(&mut c, h, segments)), MQRC_NO_MSG_AVAILABLE);
    // Without the option every segment is available, complete or not.
    assert_eq!(get(&mut c, h, NSP).unwrap().data, b"waiting");
    assert_eq!(get(&mut c, h, NSP).unwrap().data, b"abc");
}

#[test]
fn a_reassembled_message_goes_through_the_queues_propctl() {
    use ferrite_constants::format::{MQFMT_RF_HEADER_2, MQFMT_STRING};
    use ferrite_mqi::message_handles::PropertyValue;
    let (_dir, qm) = queue_manager(&[]);
    for (name, control) in [("Q.NONE", "NONE"), ("Q.COMPAT", "COMPAT")] {
        define(
            &qm,
            QueueDefinition {
                max_message_length: 100,
                property_control: control.into(),
                ..local(name)
            },
        );
    }
    let mut c = Connection::connect(qm.clone(), "").unwrap();
    let body: Vec<u8> = (0..250u32).map(|i| b'a' + (i % 26) as u8).collect();
    let put = |c: &mut Connection, h: Hobj| {
        let hmsg = c.create_message_handle(0).unwrap();
        c.set_message_property(hmsg, "colour", PropertyValue::String("blue".into()))
            .unwrap();
        let mut md = Mqmd {
            format: MQFMT_STRING,
            msg_flags: MQMF_SEGMENTATION_ALLOWED,
            ..Mqmd::default()
        };
        let mut pmo = Mqpmo {
            original_msg_handle: Some(hmsg),
            ..Mqpmo::with_options(NSP)
        };
        c.put(h, &mut md, &mut pmo, &body).unwrap();
        c.delete_message_handle(hmsg).unwrap();
    };
    let complete = MQGMO_NO_SYNCPOINT | MQGMO_COMPLETE_MSG;
    // PROPCTL(NONE): the properties are removed from the reassembled message.
    let none = c.open(&mut Mqod::queue("Q.NONE"), IO).unwrap();
    put(&mut c, none);
    assert!(qm_depth(&c, "Q.NONE") > 2, "segmented by the queue manager");
    let got = get(&mut c, none, complete).unwrap();
    assert_eq!(got.md.format, MQFMT_STRING);
    assert_eq!(got.data, body);
    // PROPCTL(COMPAT) without a handle: the MQRFH2 stays in front of the data...
    let compat = c.open(&mut Mqod::queue("Q.COMPAT"), IO).unwrap();
    put(&mut c, compat);
    let got = get(&mut c, compat, complete | MQGMO_BROWSE_FIRST).unwrap();
    assert_eq!(got.md.format, MQFMT_RF_HEADER_2);
    assert!(got.data.starts_with(b"RFH ") && got.data.ends_with(&body));
    // ... and with one the properties go into the handle, the data is the body alone.
    let hmsg = c.create_message_handle(0).unwrap();
    let mut md = Mqmd::default();
    let mut gmo = Mqgmo {
        msg_handle: Some(hmsg),
        ..Mqgmo::with_options(complete)
    };
    let mut buffer = vec![0u8; 4096];
    let result = c.get(compat, &mut md, &mut gmo, &mut buffer).unwrap();
    assert_eq!(md.format, MQFMT_STRING);
    assert_eq!(&buffer[..result.data_length], body.as_slice());
    assert_eq!(
        c.inquire_message_property(hmsg, "colour", 0, ferrite_constants::misc::MQTYPE_AS_SET)
            .unwrap()
            .1,
        PropertyValue::String("blue".into())
    );
    // A buffer too small for the body: DataLength is the delivered length, nothing taken.
    put(&mut c, none);
    let small = get_with(&mut c, none, complete, 0, Mqmd::default(), 10);
    assert_eq!(small.expect_err("truncated").data_length, Some(body.len()));
    assert!(qm_depth(&c, "Q.NONE") > 2);
}
