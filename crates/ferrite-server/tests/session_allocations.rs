//! Heap allocations on a client conversation's hot path, counted by a global allocator: an
//! MQPUT, an MQGET with a large BufferLength (IBM's JMS client asks for megabytes) and an MQCMIT
//! through `MqiSession::call`, and an ASYNC_MESSAGE pushed to a consumer with a large
//! MaxMsgLen. A 1,000-byte message must cost no allocation anywhere near the buffer length the
//! client asked for (glibc maps blocks of 128 KiB and more, one mmap/munmap pair each).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

use ferrite_constants::{get_options::*, open_options::*, put_options::*};
use ferrite_mqi::{Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_protocol::api::{ApiBody, ApiFlow, ApiHeader, MqConn, MqGet, MqOpen, MqPut};
use ferrite_protocol::control::RequestMsgs;
use ferrite_protocol::segment::{HeaderKind, Segment, SegmentHeader, SegmentType};
use ferrite_protocol::wire::{self, chars};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::QueueManager;
use ferrite_server::async_consume::Consumers;
use ferrite_server::session::MqiSession;

/// Counts the allocations of the thread that asks ([`counted`]), not the queue manager's own
/// threads.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        LARGEST.with(|largest| largest.set(largest.get().max(size)));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What `work` allocated on this thread: (allocations and reallocations, largest block).
fn counted<T>(work: impl FnOnce() -> T) -> (T, usize, usize) {
    ALLOCATIONS.with(|count| count.set(0));
    LARGEST.with(|largest| largest.set(0));
    COUNTING.with(|counting| counting.set(true));
    let result = work();
    COUNTING.with(|counting| counting.set(false));
    (result, ALLOCATIONS.with(Cell::get), LARGEST.with(Cell::get))
}

const ORDER: ByteOrder = ByteOrder::Little;
/// The BufferLength of the gets and the MaxMsgLen of the consumer: IBM's JMS client's size.
const BUFFER_LENGTH: i32 = 4 * 1024 * 1024;
const MESSAGE: [u8; 1000] = [b'm'; 1000];
/// glibc's default mmap threshold: a block this large is mapped and unmapped on its own.
const MMAP_THRESHOLD: usize = 128 * 1024;

fn flow(segment_type: SegmentType, hobj: i32, body: ApiBody) -> Segment {
    let header = ApiHeader {
        hobj,
        ..ApiHeader::default()
    };
    let payload = ApiFlow { header, body }.encode(ORDER).unwrap();
    let kind = HeaderKind::Tshm {
        conversation_id: 1,
        request_id: 1,
    };
    Segment::new(SegmentHeader::new(kind, segment_type, ORDER), payload)
}

/// The reply's CompCode and Reason, and the allocations and largest block of the call
/// (the reply's decoding here not counted).
fn counted_call(session: &mut MqiSession, flow: &Segment) -> ((i32, i32), usize, usize) {
    let (reply, allocations, largest) = counted(|| session.call(flow, 36, &mut || false, true));
    let (_, payload) = reply.unwrap().unwrap();
    let reply = ApiFlow::decode(flow.header.segment_type.reply().unwrap(), ORDER, &payload);
    let header = reply.unwrap().header;
    ((header.comp_code, header.reason), allocations, largest)
}

/// The reply's CompCode and Reason.
fn call(session: &mut MqiSession, flow: &Segment) -> (i32, i32) {
    counted_call(session, flow).0
}

fn connected(queue_manager: &Arc<QueueManager>) -> (MqiSession, i32) {
    let mut session = MqiSession::new(queue_manager.clone(), 100 * 1024 * 1024);
    let conn = MqConn {
        qmgr_name: chars("QM1"),
        appl_name: chars("allocations"),
        appl_type: 28,
        accounting_token: [0; 32],
        options: 1,
        x_options: 0,
        fcno: None,
        trailing: Vec::new(),
    };
    assert_eq!(
        call(
            &mut session,
            &flow(SegmentType::MqConn, 0, ApiBody::Conn(conn))
        ),
        (0, 0)
    );
    let open = MqOpen {
        od: wire::od_to_wire(&Mqod::queue("Q1")),
        options: MQOO_OUTPUT | MQOO_INPUT_SHARED,
        fopa: None,
        fcmi: None,
        trailing: Vec::new(),
    };
    let (_, payload) = session
        .call(
            &flow(SegmentType::MqOpen, 0, ApiBody::Open(open)),
            36,
            &mut || false,
            true,
        )
        .unwrap()
        .unwrap();
    let reply = ApiFlow::decode(SegmentType::MqOpenReply, ORDER, &payload).unwrap();
    assert_eq!(reply.header.reason, 0);
    (session, reply.header.hobj)
}

fn put_flow(hobj: i32) -> Segment {
    let put = MqPut {
        md: wire::md_to_wire(&Mqmd::default()),
        pmo: wire::pmo_to_wire(&Mqpmo::with_options(MQPMO_SYNCPOINT)),
        data_length: MESSAGE.len() as i32,
        data: MESSAGE.to_vec(),
    };
    flow(SegmentType::MqPut, hobj, ApiBody::Put(put))
}

fn get_flow(hobj: i32) -> Segment {
    let get = MqGet {
        md: wire::md_to_wire(&Mqmd::default()),
        gmo: wire::gmo_to_wire(&Mqgmo::with_options(MQGMO_SYNCPOINT)),
        length: BUFFER_LENGTH,
        data: Vec::new(),
    };
    flow(SegmentType::MqGet, hobj, ApiBody::Get(get))
}

fn queue_manager() -> (tempfile::TempDir, Arc<QueueManager>) {
    let directory = tempfile::tempdir().unwrap();
    ferrite_test_kit::create(directory.path(), "QM1");
    let queue_manager = ferrite_test_kit::open(directory.path());
    ferrite_test_kit::define_locals(&queue_manager, &["Q1"]);
    (directory, queue_manager)
}

#[test]
fn put_get_commit_of_a_small_message_allocate_no_large_blocks() {
    let (_directory, queue_manager) = queue_manager();
    let (mut session, hobj) = connected(&queue_manager);
    let (put, get, commit) = (
        put_flow(hobj),
        get_flow(hobj),
        flow(SegmentType::MqCmit, 0, ApiBody::Empty(Vec::new())),
    );
    // The first round warms the session's buffers.
    for round in 0..3 {
        let (reply, put_allocations, put_largest) = counted_call(&mut session, &put);
        assert_eq!(reply, (0, 0));
        let (reply, commit_allocations, commit_largest) = counted_call(&mut session, &commit);
        assert_eq!(reply, (0, 0));
        let (reply, get_allocations, get_largest) = counted_call(&mut session, &get);
        assert_eq!(reply, (0, 0));
        assert_eq!(call(&mut session, &commit), (0, 0));
        println!(
            "round {round}: MQPUT {put_allocations} allocations (largest {put_largest} B), \
             MQCMIT {commit_allocations} ({commit_largest} B), MQGET {get_allocations} \
             ({get_largest} B)"
        );
        if round > 0 {
            assert!(
                get_largest < MMAP_THRESHOLD,
                "MQGET allocated {get_largest} B"
            );
            assert!(
                put_largest < MMAP_THRESHOLD,
                "MQPUT allocated {put_largest} B"
            );
        }
    }
}

#[test]
fn an_async_message_of_a_small_message_allocates_no_large_block() {
    let (_directory, queue_manager) = queue_manager();
    let (mut session, hobj) = connected(&queue_manager);
    let mut consumers = Consumers::default();
    let request = RequestMsgs {
        hobj,
        rqst_bytes: u32::MAX / 2,
        max_msg_length: BUFFER_LENGTH as u32,
        gmo_options: MQGMO_NO_SYNCPOINT,
        ..RequestMsgs::default()
    };
    let header = SegmentHeader::new(
        HeaderKind::Tshm {
            conversation_id: 1,
            request_id: 2,
        },
        SegmentType::RequestMsgs,
        ORDER,
    );
    consumers.request(&header, request).unwrap();
    let put = put_flow(hobj);
    let commit = flow(SegmentType::MqCmit, 0, ApiBody::Empty(Vec::new()));
    for round in 0..3 {
        assert_eq!(call(&mut session, &put), (0, 0));
        assert_eq!(call(&mut session, &commit), (0, 0));
        let (outgoing, allocations, largest) = counted(|| consumers.deliver(&mut session));
        let outgoing = outgoing.expect("an ASYNC_MESSAGE");
        assert_eq!(outgoing.header.segment_type, SegmentType::AsyncMessage);
        assert!(outgoing.payload.ends_with(&MESSAGE));
        println!("round {round}: ASYNC_MESSAGE {allocations} allocations (largest {largest} B)");
        if round > 0 {
            assert!(
                largest < MMAP_THRESHOLD,
                "ASYNC_MESSAGE allocated {largest} B"
            );
        }
    }
}
