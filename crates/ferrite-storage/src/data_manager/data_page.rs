//! Layout of data and continuation pages: how messages and object definitions sit in 4 KiB pages.
//!
//! ## Data page (page type 3), format version 1
//! Common 32-byte header (see `page.rs`), whose type-specific bytes hold:
//!
//! | Offset | Size | Field |
//! |---|---|---|
//! | 22 | 2 | `slot_area_end`: offset where the next slot may start (32 when empty) |
//! | 24 | 2 | `slot_count`: slots ever placed since the page was last formatted |
//!
//! Slots follow from offset 32, one after another, each a 28-byte slot header and then the
//! first `length_here` bytes of the record's image:
//!
//! | Offset | Size | Field |
//! |---|---|---|
//! | 0 | 1 | state: 0 free, 1 live |
//! | 1 | 1 | kind: 1 message, 2 object definition |
//! | 2 | 2 | backout count (messages) |
//! | 4 | 2 | `length_here`: image bytes stored in this page |
//! | 6 | 2 | reserved, 0 |
//! | 8 | 4 | `total_length`: image bytes in all |
//! | 12 | 4 | first continuation page (0 = none) |
//! | 16 | 4 | object id (the queue's id for a message; the object's own id for a definition) |
//! | 20 | 8 | sequence number (messages: put order in the queue manager; objects: 0) |
//!
//! Placement rule: a record whose slot fits entirely in the current insertion page is packed
//! there (so several small messages share a page, better than MQ's one-per-page); otherwise it
//! starts on a new page and, if longer than [`FIRST_PAGE_CAPACITY`], continues on continuation
//! pages. A page holds persistent or non-persistent records, never both. A freed slot's space is
//! reused when every slot in the page is free (the page then returns to the space map).
//!
//! ## Continuation page (page type 4)
//! | Offset | Size | Field |
//! |---|---|---|
//! | 22 | 4 | next continuation page (0 = last) |
//! | 26 | 2 | bytes of image in this page |
//! | 32 | ≤ 4064 | image bytes |
//!
//! ## Pages per message (image = compact descriptor + user data; see `message.rs`)
//! `pages(image) = 1` if `image ≤ 4036`, else `1 + ceil((image − 4036) / 4064)`.
//! MQ V7.0.1+: 1 page up to 3,635 bytes (user data + headers except MQMD), then 4,048 per page.

use crate::page::{PageBytes, PageType, PAGE_HEADER_SIZE, PAGE_SIZE};
use crate::types::{PageNumber, PageSetId};

pub const SLOT_HEADER_SIZE: usize = 28;
/// Image bytes a record can keep in the page where it starts, when that page is new.
pub const FIRST_PAGE_CAPACITY: usize = PAGE_SIZE - PAGE_HEADER_SIZE - SLOT_HEADER_SIZE;
/// Image bytes per continuation page.
pub const CONTINUATION_CAPACITY: usize = PAGE_SIZE - PAGE_HEADER_SIZE;

pub const SLOT_STATE_FREE: u8 = 0;
pub const SLOT_STATE_LIVE: u8 = 1;
pub const SLOT_KIND_MESSAGE: u8 = 1;
pub const SLOT_KIND_OBJECT: u8 = 2;

/// Number of pages a record of `image_length` bytes occupies when it starts on a new page.
pub fn pages_for_image(image_length: usize) -> usize {
    if image_length <= FIRST_PAGE_CAPACITY {
        1
    } else {
        1 + (image_length - FIRST_PAGE_CAPACITY).div_ceil(CONTINUATION_CAPACITY)
    }
}

/// The fixed part of a slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SlotHeader {
    pub state: u8,
    pub kind: u8,
    pub backout_count: u16,
    pub length_here: u16,
    pub total_length: u32,
    pub first_continuation: u32,
    pub object_id: u32,
    pub sequence: u64,
}

fn get_u16(page: &PageBytes, offset: usize) -> u16 {
    u16::from_le_bytes(page.0[offset..offset + 2].try_into().unwrap())
}

fn get_u32(page: &PageBytes, offset: usize) -> u32 {
    u32::from_le_bytes(page.0[offset..offset + 4].try_into().unwrap())
}

fn put_u16(page: &mut PageBytes, offset: usize, value: u16) {
    page.0[offset..offset + 2].copy_from_slice(&value.to_le_bytes());
}

fn put_u32(page: &mut PageBytes, offset: usize, value: u32) {
    page.0[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
}

pub fn slot_area_end(page: &PageBytes) -> usize {
    let end = get_u16(page, 22) as usize;
    if end < PAGE_HEADER_SIZE {
        PAGE_HEADER_SIZE
    } else {
        end
    }
}

pub fn slot_count(page: &PageBytes) -> u16 {
    get_u16(page, 24)
}

/// Free bytes after the last slot.
pub fn free_space(page: &PageBytes) -> usize {
    // Saturating: a damaged page may claim a slot area end beyond the page.
    PAGE_SIZE.saturating_sub(slot_area_end(page))
}

/// Read the slot header at `offset`, checking that it lies inside the page.
pub fn read_slot(page: &PageBytes, offset: usize) -> Option<SlotHeader> {
    if offset < PAGE_HEADER_SIZE || offset + SLOT_HEADER_SIZE > PAGE_SIZE {
        return None;
    }
    let header = SlotHeader {
        state: page.0[offset],
        kind: page.0[offset + 1],
        backout_count: get_u16(page, offset + 2),
        length_here: get_u16(page, offset + 4),
        total_length: get_u32(page, offset + 8),
        first_continuation: get_u32(page, offset + 12),
        object_id: get_u32(page, offset + 16),
        sequence: u64::from_le_bytes(page.0[offset + 20..offset + 28].try_into().unwrap()),
    };
    if offset + SLOT_HEADER_SIZE + header.length_here as usize > PAGE_SIZE
        || header.length_here as u32 > header.total_length
    {
        return None;
    }
    Some(header)
}

/// The image bytes stored in the page for the slot at `offset`.
pub fn slot_bytes<'a>(page: &'a PageBytes, offset: usize, header: &SlotHeader) -> &'a [u8] {
    let start = offset + SLOT_HEADER_SIZE;
    &page.0[start..start + header.length_here as usize]
}

/// Write a slot (header and bytes) at `offset`. Idempotent: writing the same slot twice leaves
/// the page as writing it once, so redo may repeat it.
pub fn write_slot(page: &mut PageBytes, offset: usize, header: &SlotHeader, bytes: &[u8]) {
    assert_eq!(bytes.len(), header.length_here as usize);
    write_slot_with(page, offset, header, |slot| slot.copy_from_slice(bytes));
}

/// [`write_slot`] with the slot's `header.length_here` bytes written by `fill` (a record whose
/// image is in two parts: `ImageParts::copy_to`).
pub fn write_slot_with(
    page: &mut PageBytes,
    offset: usize,
    header: &SlotHeader,
    fill: impl FnOnce(&mut [u8]),
) {
    let end = offset + SLOT_HEADER_SIZE + header.length_here as usize;
    assert!(
        offset >= PAGE_HEADER_SIZE && end <= PAGE_SIZE,
        "slot outside the page"
    );
    page.0[offset] = header.state;
    page.0[offset + 1] = header.kind;
    put_u16(page, offset + 2, header.backout_count);
    put_u16(page, offset + 4, header.length_here);
    put_u16(page, offset + 6, 0);
    put_u32(page, offset + 8, header.total_length);
    put_u32(page, offset + 12, header.first_continuation);
    put_u32(page, offset + 16, header.object_id);
    page.0[offset + 20..offset + 28].copy_from_slice(&header.sequence.to_le_bytes());
    fill(&mut page.0[offset + SLOT_HEADER_SIZE..end]);
    if slot_area_end(page) < end {
        put_u16(page, 22, end as u16);
        put_u16(page, 24, slot_count(page) + 1);
    }
}

pub fn set_slot_state(page: &mut PageBytes, offset: usize, state: u8) {
    page.0[offset] = state;
}

pub fn set_backout_count(page: &mut PageBytes, offset: usize, count: u16) {
    put_u16(page, offset + 2, count);
}

/// Offsets and headers of every slot in the page, in order. Stops at the first malformed slot.
pub fn slots(page: &PageBytes) -> Vec<(usize, SlotHeader)> {
    let mut result = Vec::new();
    let end = slot_area_end(page).min(PAGE_SIZE);
    let mut offset = PAGE_HEADER_SIZE;
    while offset + SLOT_HEADER_SIZE <= end {
        let Some(header) = read_slot(page, offset) else {
            break;
        };
        result.push((offset, header));
        offset += SLOT_HEADER_SIZE + header.length_here as usize;
    }
    result
}

/// True when no slot in the page is live.
pub fn is_empty(page: &PageBytes) -> bool {
    slots(page)
        .iter()
        .all(|(_, slot)| slot.state != SLOT_STATE_LIVE)
}

/// Continuation page accessors.
pub fn continuation_next(page: &PageBytes) -> u32 {
    get_u32(page, 22)
}

pub fn continuation_bytes(page: &PageBytes) -> &[u8] {
    let length = (get_u16(page, 26) as usize).min(CONTINUATION_CAPACITY);
    &page.0[PAGE_HEADER_SIZE..PAGE_HEADER_SIZE + length]
}

pub fn write_continuation(page: &mut PageBytes, next: u32, bytes: &[u8]) {
    assert!(bytes.len() <= CONTINUATION_CAPACITY);
    put_u32(page, 22, next);
    put_u16(page, 26, bytes.len() as u16);
    page.0[PAGE_HEADER_SIZE..PAGE_HEADER_SIZE + bytes.len()].copy_from_slice(bytes);
}

/// Format `page` as continuation page `page_number` of `page_set` holding `length` bytes,
/// written by `fill`, the next page of the chain being `next`: the same bytes as
/// `PageBytes::format` followed by [`write_continuation`], but each byte written once (the
/// data is not copied over a body zeroed just before; only the tail after it is zeroed).
/// Page RBA 0, flags 0.
pub fn format_continuation(
    page: &mut PageBytes,
    page_set: PageSetId,
    page_number: PageNumber,
    next: u32,
    length: usize,
    fill: impl FnOnce(&mut [u8]),
) {
    assert!(length <= CONTINUATION_CAPACITY);
    page.format_header(PageType::Continuation, page_set, page_number);
    put_u32(page, 22, next);
    put_u16(page, 26, length as u16);
    fill(&mut page.0[PAGE_HEADER_SIZE..PAGE_HEADER_SIZE + length]);
    page.0[PAGE_HEADER_SIZE + length..].fill(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::PageType;
    use crate::types::{PageNumber, PageSetId};

    #[test]
    fn a_continuation_page_is_formatted_as_format_then_write_would() {
        for length in [0, 1, 1000, CONTINUATION_CAPACITY - 1, CONTINUATION_CAPACITY] {
            let bytes: Vec<u8> = (0..length).map(|i| (i * 7 + 3) as u8).collect();
            let mut expected = PageBytes::zeroed();
            expected.0.fill(0xAB);
            expected.format(PageType::Continuation, PageSetId(3), PageNumber(77));
            write_continuation(&mut expected, 78, &bytes);
            // A reused frame still holds another page's bytes.
            let mut page = PageBytes::zeroed();
            page.0.fill(0xAB);
            format_continuation(
                &mut page,
                PageSetId(3),
                PageNumber(77),
                78,
                length,
                |body| body.copy_from_slice(&bytes),
            );
            assert!(page.0 == expected.0, "length {length}");
        }
    }

    #[test]
    fn slots_pack_and_read_back() {
        let mut page = PageBytes::zeroed();
        page.format(PageType::Data, PageSetId(1), PageNumber(9));
        let mut offset = slot_area_end(&page);
        for i in 0..10u64 {
            let bytes = vec![i as u8; 100];
            let header = SlotHeader {
                state: SLOT_STATE_LIVE,
                kind: SLOT_KIND_MESSAGE,
                backout_count: 0,
                length_here: 100,
                total_length: 100,
                first_continuation: 0,
                object_id: 7,
                sequence: i,
            };
            write_slot(&mut page, offset, &header, &bytes);
            write_slot(&mut page, offset, &header, &bytes); // idempotent
            offset = slot_area_end(&page);
        }
        let all = slots(&page);
        assert_eq!(all.len(), 10);
        assert_eq!(slot_count(&page), 10);
        assert_eq!(slot_bytes(&page, all[3].0, &all[3].1), &[3u8; 100][..]);
        for (offset, _) in &all {
            assert!(!is_empty(&page));
            set_slot_state(&mut page, *offset, SLOT_STATE_FREE);
        }
        assert!(is_empty(&page));
    }

    #[test]
    fn pages_per_image() {
        assert_eq!(pages_for_image(0), 1);
        assert_eq!(pages_for_image(FIRST_PAGE_CAPACITY), 1);
        assert_eq!(pages_for_image(FIRST_PAGE_CAPACITY + 1), 2);
        assert_eq!(
            pages_for_image(FIRST_PAGE_CAPACITY + CONTINUATION_CAPACITY),
            2
        );
        assert_eq!(
            pages_for_image(FIRST_PAGE_CAPACITY + CONTINUATION_CAPACITY + 1),
            3
        );
    }
}
