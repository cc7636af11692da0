//! 4 KiB pages as read from a page set: the input zero-padded or cut to 4096 bytes, checked
//! as it is and re-sealed with a good checksum and page header so that the data and
//! continuation page readers see it. Slots lie end to end inside the page; every length
//! stays inside it. Corpus: crates/ferrite-queue-manager/tests/corpus/page/.
#![no_main]

use ferrite_storage::page::{PageBytes, PAGE_SIZE};
use ferrite_test_kit::hostile::check_page;
use libfuzzer_sys::fuzz_target;

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
