//! What one publication costs the publishing thread in heap allocations, per delivered copy,
//! at 100 subscribers (the fan-out benchmark's shape: provided destinations, no selectors,
//! non-persistent 2 KiB publications outside syncpoint). Counted on the publishing thread
//! only (the queue manager's own threads allocate on their own schedule), so the count is
//! exact and repeatable; the bound keeps the fan-out from sliding back to per-subscriber
//! copies of every subscription.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ferrite_constants::{
    misc::*, object_type::MQOT_TOPIC, open_options::*, persistence::*, put_options::*,
};
use ferrite_mqi::{Hobj, Mqmd, Mqod, Mqpmo, Mqsd};
use ferrite_queue_manager::QueueDefinition;
use ferrite_storage::PageSetId;
use ferrite_test_kit::{connect, queue_manager_with_defaults};

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed to the system allocator unchanged; the count is a
// thread-local cell that allocates nothing.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        unsafe { System.realloc(pointer, layout, size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

const SUBSCRIBERS: usize = 100;
const PUBLICATIONS: u64 = 20;
/// The most heap allocations one delivered copy may cost the publisher (7.7 now, about what
/// an MQPUT of the message to a queue costs; 11.7 when each publish copied every subscription).
const ALLOCATIONS_PER_DELIVERY_MAX: u64 = 9;

#[test]
fn a_publication_to_100_subscribers_allocates_little_per_copy() {
    let (_directory, queue_manager) = queue_manager_with_defaults(&[]);
    let mut connection = connect(&queue_manager);
    for index in 0..SUBSCRIBERS {
        let name = format!("FANOUT.SUB.{index:03}");
        let mut definition = QueueDefinition::local(&name, PageSetId(1));
        definition.max_depth = 100_000;
        queue_manager.define_queue(definition, false).unwrap();
        let mut hobj = connection
            .open(&mut Mqod::queue(&name), MQOO_OUTPUT | MQOO_INPUT_SHARED)
            .unwrap();
        let mut sd = Mqsd {
            options: MQSO_CREATE,
            object_string: "Bench/FanOut".to_string(),
            ..Mqsd::default()
        };
        connection.subscribe(&mut sd, &mut hobj).unwrap();
    }
    let mut od = Mqod {
        object_type: MQOT_TOPIC,
        object_string: "Bench/FanOut".to_string(),
        ..Mqod::default()
    };
    let topic: Hobj = connection.open(&mut od, MQOO_OUTPUT).unwrap();
    let data = vec![b'x'; 2048];
    let publish = |connection: &mut ferrite_mqi::Connection| {
        let mut md = Mqmd {
            persistence: MQPER_NOT_PERSISTENT,
            ..Mqmd::default()
        };
        connection
            .put(
                topic,
                &mut md,
                &mut Mqpmo::with_options(MQPMO_NO_SYNCPOINT),
                &data,
            )
            .unwrap();
    };
    // Warm: the first publication builds what later ones reuse.
    publish(&mut connection);
    let before = allocations();
    for _ in 0..PUBLICATIONS {
        publish(&mut connection);
    }
    let counted = allocations() - before;
    let deliveries = PUBLICATIONS * SUBSCRIBERS as u64;
    let per_delivery = counted as f64 / deliveries as f64;
    eprintln!("{counted} allocations for {deliveries} deliveries: {per_delivery:.2} per delivery");
    // For comparison: an MQPUT of the same message to one of the queues.
    let queue = connection
        .open(&mut Mqod::queue("FANOUT.SUB.000"), MQOO_OUTPUT)
        .unwrap();
    let put = |connection: &mut ferrite_mqi::Connection| {
        let mut md = Mqmd::default();
        let mut pmo = Mqpmo::with_options(MQPMO_NO_SYNCPOINT);
        connection.put(queue, &mut md, &mut pmo, &data).unwrap();
    };
    put(&mut connection);
    let before = allocations();
    for _ in 0..PUBLICATIONS {
        put(&mut connection);
    }
    let per_put = (allocations() - before) as f64 / PUBLICATIONS as f64;
    eprintln!("an MQPUT of the same message to a queue: {per_put:.2} allocations");
    assert!(
        counted <= ALLOCATIONS_PER_DELIVERY_MAX * deliveries,
        "{per_delivery:.2} allocations per delivery"
    );
}
