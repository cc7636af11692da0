//! The images of partially filled log pages that readers lay over what they read in place.
//!
//! A log page is written in place only when it is final; until then its synced image lives in a
//! ping-pong slot of the active log (see `active.rs`, "Active log file layout"). So a reader of
//! an active log must take the bytes of the current page from the slot image, not from the data
//! area:
//!
//! - **While the log manager runs**, the logger publishes the image it last wrote and synced
//!   (one page, every copy) *before* it advances the durable RBA. A reader loads its limit (the
//!   durable RBA), then takes the images, then reads the file: so either the image covers its
//!   limit, or the page was final and written in place before the image moved on.
//! - **At restart and offline**, the images are the valid slots of the current file of each copy
//!   (up to two per copy: the older one may be the only good image of a page whose in-place write
//!   a crash tore). Every slot image is a prefix of the page's final content, so laying it over
//!   in-place bytes never changes a byte that is right.

use std::sync::{Arc, RwLock};

use super::LOG_PAGE_BYTES;

/// One image: log bytes `[page_rba, page_rba + bytes.len())`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PageImage {
    /// The copy this image belongs to (0-based), or `None` for every copy.
    pub copy: Option<usize>,
    pub page_rba: u64,
    pub bytes: Vec<u8>,
}

impl PageImage {
    pub fn end(&self) -> u64 {
        self.page_rba + self.bytes.len() as u64
    }
}

/// The images readers apply; replaced as a whole (readers hold an `Arc` snapshot).
#[derive(Default)]
pub(crate) struct CurrentPages {
    images: RwLock<Arc<Vec<PageImage>>>,
}

impl CurrentPages {
    pub fn snapshot(&self) -> Arc<Vec<PageImage>> {
        self.images.read().unwrap().clone()
    }

    pub fn replace(&self, images: Vec<PageImage>) {
        for image in &images {
            debug_assert!(
                image.page_rba.is_multiple_of(LOG_PAGE_BYTES as u64)
                    && image.bytes.len() < LOG_PAGE_BYTES
            );
        }
        *self.images.write().unwrap() = Arc::new(images);
    }
}

/// Lay the images of `copy` over `buffer`, which holds log bytes from `rba` as read in place.
pub(crate) fn overlay(images: &[PageImage], copy: usize, rba: u64, buffer: &mut [u8]) {
    let end = rba + buffer.len() as u64;
    for image in images {
        if image.copy.is_some_and(|only| only != copy) {
            continue;
        }
        let from = image.page_rba.max(rba);
        let to = image.end().min(end);
        if from < to {
            buffer[(from - rba) as usize..(to - rba) as usize].copy_from_slice(
                &image.bytes[(from - image.page_rba) as usize..(to - image.page_rba) as usize],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_cover_only_their_bytes_and_copy() {
        let images = vec![
            PageImage {
                copy: Some(1),
                page_rba: 4096,
                bytes: vec![7; 10],
            },
            PageImage {
                copy: None,
                page_rba: 8192,
                bytes: vec![9; 3],
            },
        ];
        let mut buffer = vec![0u8; 8];
        overlay(&images, 0, 4090, &mut buffer);
        assert_eq!(buffer, [0; 8]);
        overlay(&images, 1, 4090, &mut buffer);
        assert_eq!(buffer, [0, 0, 0, 0, 0, 0, 7, 7]);
        let mut buffer = vec![1u8; 6];
        overlay(&images, 0, 8190, &mut buffer);
        assert_eq!(buffer, [1, 1, 9, 9, 9, 1]);
    }
}
