//! What only the queue manager's tests share (the workspace's shared test support is
//! `ferrite_test_kit`).
#![allow(dead_code)]

use ferrite_storage::data_manager::message::MessageDescriptor;

/// A descriptor whose MsgId starts with `tag` (big-endian), the rest of it zero.
pub fn tagged_descriptor(tag: u32, persistent: bool) -> MessageDescriptor {
    let mut message_id = [0u8; 24];
    message_id[..4].copy_from_slice(&tag.to_be_bytes());
    MessageDescriptor {
        persistent,
        message_id,
        ..MessageDescriptor::default()
    }
}
