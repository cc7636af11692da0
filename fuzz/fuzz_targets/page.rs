//! 4 KiB pages as read from a page set: the input zero-padded or cut to 4096 bytes, checked
//! as it is and re-sealed with a good checksum and page header so that the data and
//! continuation page readers see it. Slots lie end to end inside the page; every length
//! stays inside it. Corpus: crates/ferrite-queue-manager/tests/corpus/page/.
#![no_main]

use ferrite_storage::data_manager::data_page::{self, CONTINUATION_CAPACITY};
use ferrite_storage::page::{PageBytes, PAGE_HEADER_SIZE, PAGE_SIZE};
use ferrite_storage::{PageNumber, PageSetId};
use libfuzzer_sys::fuzz_target;

fn check_page(page: &PageBytes) {
    let _ = page.verify(PageSetId(1), PageNumber(9));
    let own_number = PageNumber(u32::from_le_bytes(page.0[16..20].try_into().unwrap()));
    let own_set = PageSetId(page.0[20]);
    let _ = page.verify(own_set, own_number);
    let _ = page.page_type();
    let end = data_page::slot_area_end(page);
    assert!(end >= PAGE_HEADER_SIZE);
    let free = data_page::free_space(page);
    assert!(free <= PAGE_SIZE - PAGE_HEADER_SIZE);
    let _ = data_page::slot_count(page);
    let _ = data_page::is_empty(page);
    let mut previous_end = PAGE_HEADER_SIZE;
    for (offset, header) in data_page::slots(page) {
        assert_eq!(offset, previous_end, "slots are laid end to end");
        let bytes = data_page::slot_bytes(page, offset, &header);
        assert_eq!(bytes.len(), header.length_here as usize);
        assert!(header.length_here as u32 <= header.total_length);
        previous_end = offset + data_page::SLOT_HEADER_SIZE + bytes.len();
        assert!(previous_end <= PAGE_SIZE);
    }
    for offset in [0, 31, 32, 33, 100, 4067, 4068, 4069, 4095, 4096, usize::MAX / 2] {
        if let Some(header) = data_page::read_slot(page, offset) {
            assert!(offset + data_page::SLOT_HEADER_SIZE + header.length_here as usize <= PAGE_SIZE);
            let _ = data_page::slot_bytes(page, offset, &header);
        }
    }
    let _ = data_page::continuation_next(page);
    assert!(data_page::continuation_bytes(page).len() <= CONTINUATION_CAPACITY);
}

fuzz_target!(|data: &[u8]| {
    let mut page = PageBytes::zeroed();
    let n = data.len().min(PAGE_SIZE);
    page.0[..n].copy_from_slice(&data[..n]);
    check_page(&page);
    let mut sealed = page.clone();
    sealed.0[4..6].copy_from_slice(b"FP");
    sealed.0[7] = 1;
    sealed.seal();
    check_page(&sealed);
});
