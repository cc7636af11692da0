//! Cost of page writes on the real file system (ignored by default): shutdown flush of
//! contiguous and scattered pages, deferred write process under pressure, and synchronous
//! one-page writes. Used to measure the cost of the double-write protocol.
//!
//! Run with `cargo test --release -p ferrite-storage --test torn_page_benchmark -- --ignored
//! --nocapture --test-threads 1`.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrite_storage::buffer_pool::{BufferPool, PageChange};
use ferrite_storage::page::PageBytes;
use ferrite_storage::vfs::RealFileSystem;
use ferrite_storage::{BufferPoolId, PageNumber, PageSetId, Rba};
use support::buffer_pool::*;

const PAGE_SET: PageSetId = PageSetId(7);
const ROUNDS: usize = 5;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn mib_per_second(pages: u64, elapsed: Duration) -> f64 {
    pages as f64 * 4096.0 / 1048576.0 / elapsed.as_secs_f64()
}

/// Change `pages` (every `stride`-th page) in a pool twice their size (so the deferred write
/// process stays asleep), then time the shutdown flush.
fn shutdown_flush(pages: u32, stride: u32) -> (u64, Duration, u64) {
    let directory = tempfile::tempdir().unwrap();
    let page_set = create_page_set(
        &RealFileSystem,
        directory.path(),
        PAGE_SET.0,
        pages * stride + 1,
    );
    let pool = BufferPool::new(BufferPoolId(1), pages * 2, Arc::new(FakeLog::default()));
    pool.attach(page_set);
    for index in 0..pages {
        let page = PageNumber(1 + index * stride);
        let guard = pool.get_new_page(PAGE_SET, page).unwrap();
        guard.update(PageChange::Logged(Rba(u64::from(index) + 1)), |bytes| {
            format_data_page(bytes, PAGE_SET, page, u64::from(index))
        });
    }
    let started = Instant::now();
    let written = pool.flush_for_shutdown().unwrap();
    let elapsed = started.elapsed();
    let ios = pool.statistics().qpstwio;
    pool.shutdown();
    (written, elapsed, ios)
}

#[test]
#[ignore]
fn benchmark_shutdown_flush() {
    for (label, pages, stride) in [("contiguous", 16384, 1), ("every other page", 8192, 2)] {
        let mut samples = Vec::new();
        let mut shape = (0, 0);
        for _ in 0..ROUNDS {
            let (written, elapsed, ios) = shutdown_flush(pages, stride);
            shape = (written, ios);
            samples.push(elapsed);
        }
        let elapsed = median(samples);
        println!(
            "shutdown flush, {label}: {} pages in {} write I/Os, median {:.1} ms, {:.0} MiB/s",
            shape.0,
            shape.1,
            elapsed.as_secs_f64() * 1e3,
            mib_per_second(shape.0, elapsed)
        );
    }
}

#[test]
#[ignore]
fn benchmark_deferred_write_under_pressure() {
    const BUFFERS: u32 = 2048;
    const PAGES: u32 = 32768;
    let mut samples = Vec::new();
    let mut shape = (0, 0, 0, 0);
    for _ in 0..ROUNDS {
        let directory = tempfile::tempdir().unwrap();
        let page_set = create_page_set(&RealFileSystem, directory.path(), PAGE_SET.0, PAGES + 1);
        let pool = BufferPool::new(BufferPoolId(1), BUFFERS, Arc::new(FakeLog::default()));
        pool.attach(page_set);
        let started = Instant::now();
        for index in 0..PAGES {
            let page = PageNumber(index + 1);
            let guard = pool.get_new_page(PAGE_SET, page).unwrap();
            guard.update(PageChange::Logged(Rba(u64::from(index) + 1)), |bytes| {
                format_data_page(bytes, PAGE_SET, page, u64::from(index))
            });
        }
        pool.flush_for_shutdown().unwrap();
        samples.push(started.elapsed());
        let statistics = pool.statistics();
        shape = (
            statistics.qpsttpw,
            statistics.qpstdwt,
            statistics.qpstimw,
            statistics.qpstsos,
        );
        pool.shutdown();
    }
    let elapsed = median(samples);
    println!(
        "deferred write under pressure: {PAGES} new pages through {BUFFERS} buffers, {} \
         pages written (DWP starts {}, synchronous writes {}, short on storage {}), median \
         {:.1} ms, {:.0} MiB/s",
        shape.0,
        shape.1,
        shape.2,
        shape.3,
        elapsed.as_secs_f64() * 1e3,
        mib_per_second(u64::from(PAGES), elapsed)
    );
}

#[test]
#[ignore]
fn benchmark_synchronous_single_page_writes() {
    const WRITES: u32 = 500;
    let mut samples = Vec::new();
    for _ in 0..ROUNDS {
        let directory = tempfile::tempdir().unwrap();
        let page_set = create_page_set(&RealFileSystem, directory.path(), PAGE_SET.0, WRITES + 1);
        let mut page = PageBytes::zeroed();
        let started = Instant::now();
        for index in 0..WRITES {
            let number = PageNumber(index + 1);
            format_data_page(&mut page, PAGE_SET, number, u64::from(index));
            page_set.write_pages(number, &[&page]).unwrap();
            page_set.sync().unwrap();
        }
        samples.push(started.elapsed());
    }
    let elapsed = median(samples);
    println!(
        "synchronous one-page write + sync: {:.1} us each",
        elapsed.as_secs_f64() * 1e6 / f64::from(WRITES)
    );
}
