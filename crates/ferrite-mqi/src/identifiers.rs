//! Message and correlation identifiers the queue manager generates (MQPMO_NEW_MSG_ID,
//! report messages, trigger and event messages) and the ranges it reserves for clients that
//! number their own.

use std::sync::atomic::{AtomicU64, Ordering};

use ferrite_storage::data_manager::message::Identifier;

/// Generator of unique message and correlation ids: "CSQ " + the first four characters of the
/// queue manager name + the process id (twice, 8 bytes) + 8 bytes of a counter seeded from the
/// clock in nanoseconds (so ids stay unique across restarts).
pub(crate) fn new_identifier(queue_manager: &str) -> Identifier {
    identifier_with(queue_manager, next_identifier_counter(1))
}

/// The identifier counter: the next value [`new_identifier`] uses.
static IDENTIFIER_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Take `block` consecutive values of the identifier counter, the first a multiple of
/// `block` (a power of two), and return it.
fn next_identifier_counter(block: u64) -> u64 {
    debug_assert!(block.is_power_of_two());
    if IDENTIFIER_COUNTER.load(Ordering::Relaxed) == 0 {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        let _ = IDENTIFIER_COUNTER.compare_exchange(0, seed, Ordering::Relaxed, Ordering::Relaxed);
    }
    if block == 1 {
        return IDENTIFIER_COUNTER.fetch_add(1, Ordering::Relaxed);
    }
    let mut current = IDENTIFIER_COUNTER.load(Ordering::Relaxed);
    loop {
        let first = current.next_multiple_of(block);
        match IDENTIFIER_COUNTER.compare_exchange_weak(
            current,
            first + block,
            Ordering::Relaxed,
            Ordering::Relaxed,
        ) {
            Ok(_) => return first,
            Err(actual) => current = actual,
        }
    }
}

/// Reserve `count` (1 to 2^24) message identifiers for a client that generates them itself
/// (IBM's client, SPI RESERVE). Returns the first and how many of its last bytes count: the
/// others are the first with that big-endian counter (0 in the first) raised by 1 to
/// `count - 1`. No other identifier this process issues is in the range.
pub fn reserve_identifiers(queue_manager: &str, count: u32) -> (Identifier, usize) {
    assert!(
        (1..=1 << 24).contains(&count),
        "reserve 1 to 2^24 identifiers"
    );
    let counter_bytes = (u32::BITS - (count - 1).leading_zeros()).div_ceil(8).max(1) as usize;
    let first = next_identifier_counter(1 << (8 * counter_bytes));
    let id = identifier_with(queue_manager, first);
    debug_assert!(id[24 - counter_bytes..].iter().all(|byte| *byte == 0));
    (id, counter_bytes)
}

/// The first of 2^`bits` consecutive identifiers no other call hands out (for a client's
/// asynchronous puts, `async_status::reserve_message_ids`): its low `bits` bits are zero.
pub(crate) fn reserve_identifier_range(queue_manager: &str, bits: u32) -> Identifier {
    assert!((1..=32).contains(&bits), "identifier range of {bits} bits");
    identifier_with(queue_manager, next_identifier_counter(1u64 << bits))
}

/// The identifier with counter value `value`.
fn identifier_with(queue_manager: &str, value: u64) -> Identifier {
    static PROCESS_ID: std::sync::OnceLock<[u8; 4]> = std::sync::OnceLock::new();
    let mut id = [b' '; 24];
    id[..4].copy_from_slice(b"CSQ ");
    for (slot, byte) in id[4..8].iter_mut().zip(queue_manager.bytes()) {
        *slot = byte;
    }
    let process_id = PROCESS_ID.get_or_init(|| std::process::id().to_be_bytes());
    id[8..12].copy_from_slice(process_id);
    id[12..16].copy_from_slice(process_id);
    id[16..24].copy_from_slice(&value.to_be_bytes());
    id
}
