//! Concurrency: many threads getting, updating and releasing pages of a pool much smaller than
//! the working set, while checkpoints, read-ahead and the deferred write process run. After a
//! shutdown flush, a fresh pool reads every page back from disk and checks its contents.
//! Also a micro-benchmark of get-page hits (ignored by default).

mod support;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrite_storage::buffer_pool::{BufferPool, PageChange};
use ferrite_storage::{BufferPoolId, PageNumber, PageSetId, Rba};
use support::buffer_pool::*;

const PAGE_SET: PageSetId = PageSetId(3);

/// xorshift64*: a small deterministic generator per thread.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

#[test]
fn concurrent_get_update_release_with_checkpoints_keeps_every_change() {
    const THREADS: u64 = 6;
    const OPERATIONS_PER_THREAD: u64 = 4000;
    const PAGES: u32 = 600;
    const BUFFERS: u32 = 120;

    let directory = tempfile::tempdir().unwrap();
    let log = Arc::new(FakeLog::default());
    let fs = RecordingFileSystem::new(Some(Arc::clone(&log)));
    let page_set = create_page_set(fs.as_ref(), directory.path(), PAGE_SET.0, PAGES + 1);
    let pool = BufferPool::new(BufferPoolId(3), BUFFERS, log.clone());
    pool.attach(page_set);

    // The data manager serialises logged changes to one page (its queue and page locks), so
    // page RBAs only grow. Model that with one mutex per page around "log, then update".
    let page_locks: Arc<Vec<Mutex<()>>> = Arc::new((0..=PAGES).map(|_| Mutex::new(())).collect());
    let expected: Arc<Vec<AtomicU64>> = Arc::new((0..=PAGES).map(|_| AtomicU64::new(0)).collect());
    let next_rba = Arc::new(AtomicU64::new(1));

    for page in 1..=PAGES {
        let guard = pool.get_new_page(PAGE_SET, PageNumber(page)).unwrap();
        let rba = Rba(next_rba.fetch_add(1, Ordering::SeqCst));
        guard.update(PageChange::Logged(rba), |bytes| {
            format_data_page(bytes, PAGE_SET, PageNumber(page), 0)
        });
    }

    let stop = Arc::new(AtomicBool::new(false));
    let checkpointer = {
        let (pool, stop) = (Arc::clone(&pool), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut sequence = 0;
            while !stop.load(Ordering::SeqCst) {
                sequence += 1;
                pool.checkpoint(sequence).unwrap();
                let _ = pool.recovery_rba(PAGE_SET);
                std::thread::sleep(Duration::from_millis(5));
            }
            sequence
        })
    };

    let workers: Vec<_> = (0..THREADS)
        .map(|thread| {
            let pool = Arc::clone(&pool);
            let (page_locks, expected, next_rba) = (
                Arc::clone(&page_locks),
                Arc::clone(&expected),
                Arc::clone(&next_rba),
            );
            std::thread::spawn(move || {
                let mut random = Random(0x9E37_79B9_7F4A_7C15 ^ ((thread + 1) * 0x1234_5678));
                for _ in 0..OPERATIONS_PER_THREAD {
                    let page = random.below(u64::from(PAGES)) as u32 + 1;
                    match random.below(10) {
                        0..=4 => {
                            let _locked = page_locks[page as usize].lock().unwrap();
                            let guard = pool.get_page(PAGE_SET, PageNumber(page)).unwrap();
                            let rba = Rba(next_rba.fetch_add(1, Ordering::SeqCst));
                            guard.update(PageChange::Logged(rba), |bytes| {
                                assert_eq!(bytes.page_number(), PageNumber(page));
                                set_payload(bytes, payload(bytes) + 1);
                            });
                            expected[page as usize].fetch_add(1, Ordering::SeqCst);
                        }
                        5..=6 => {
                            // Two pages pinned at once, locked in page order.
                            let other = random.below(u64::from(PAGES)) as u32 + 1;
                            if other == page {
                                continue;
                            }
                            let (low, high) = (page.min(other), page.max(other));
                            let _low_lock = page_locks[low as usize].lock().unwrap();
                            let _high_lock = page_locks[high as usize].lock().unwrap();
                            let first = pool.get_page(PAGE_SET, PageNumber(low)).unwrap();
                            let second = pool.get_page(PAGE_SET, PageNumber(high)).unwrap();
                            for (guard, number) in [(&first, low), (&second, high)] {
                                let rba = Rba(next_rba.fetch_add(1, Ordering::SeqCst));
                                guard.update(PageChange::Logged(rba), |bytes| {
                                    set_payload(bytes, payload(bytes) + 1)
                                });
                                expected[number as usize].fetch_add(1, Ordering::SeqCst);
                            }
                        }
                        7..=8 => {
                            let guard = pool.get_page(PAGE_SET, PageNumber(page)).unwrap();
                            guard.read(|bytes| assert_eq!(bytes.page_number(), PageNumber(page)));
                        }
                        _ => {
                            let ahead: Vec<PageNumber> =
                                (page + 1..=(page + 4).min(PAGES)).map(PageNumber).collect();
                            pool.read_ahead(PAGE_SET, &ahead);
                        }
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    stop.store(true, Ordering::SeqCst);
    let checkpoints = checkpointer.join().unwrap();
    pool.flush_for_shutdown().unwrap();
    assert_eq!(pool.recovery_rba(PAGE_SET), None);
    let statistics = pool.statistics();
    pool.shutdown();
    assert_eq!(
        fs.faults.write_ahead_violations.load(Ordering::SeqCst),
        0,
        "write-ahead rule broken"
    );
    assert!(statistics.qpststl > u64::from(PAGES), "{statistics:?}");
    assert!(
        statistics.qpstrio > 0 && statistics.qpsttpw > 0,
        "{statistics:?}"
    );
    println!("{checkpoints} checkpoints; {statistics:?}");

    let fresh = BufferPool::new(BufferPoolId(4), 50, Arc::new(FakeLog::default()));
    fresh.attach(open_page_set(fs.as_ref(), directory.path(), PAGE_SET.0));
    let mut total = 0;
    for page in 1..=PAGES {
        let value = fresh
            .get_page(PAGE_SET, PageNumber(page))
            .unwrap()
            .read(payload);
        assert_eq!(
            value,
            expected[page as usize].load(Ordering::SeqCst),
            "page {page}"
        );
        total += value;
    }
    assert!(total > THREADS * OPERATIONS_PER_THREAD / 2, "{total}");
}

/// Run with `cargo test --release -p ferrite-storage --test buffer_pool_stress -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn micro_benchmark_get_page_hit_latency_and_batch_write_rate() {
    const BUFFERS: u32 = 2000;
    const HOT_PAGES: u32 = 1000;
    const GETS: u64 = 2_000_000;
    let directory = tempfile::tempdir().unwrap();
    let log = Arc::new(FakeLog::default());
    let page_set = create_page_set(
        &ferrite_storage::vfs::RealFileSystem,
        directory.path(),
        PAGE_SET.0,
        4097,
    );
    let pool = BufferPool::new(BufferPoolId(5), BUFFERS, log);
    pool.attach(page_set);
    for page in 1..=HOT_PAGES {
        let guard = pool.get_new_page(PAGE_SET, PageNumber(page)).unwrap();
        guard.update(PageChange::Logged(Rba(u64::from(page))), |bytes| {
            format_data_page(bytes, PAGE_SET, PageNumber(page), 1)
        });
    }

    let started = Instant::now();
    for i in 0..GETS {
        let guard = pool
            .get_page(PAGE_SET, PageNumber((i % u64::from(HOT_PAGES)) as u32 + 1))
            .unwrap();
        drop(guard);
    }
    let single = started.elapsed();
    println!(
        "get_page hit + release, 1 thread: {:.0} ns/op",
        single.as_nanos() as f64 / GETS as f64
    );

    for threads in [2u64, 4, 8] {
        let started = Instant::now();
        std::thread::scope(|scope| {
            for thread in 0..threads {
                let pool = &pool;
                scope.spawn(move || {
                    for i in 0..GETS / threads {
                        let page = ((i * 7 + thread * 131) % u64::from(HOT_PAGES)) as u32 + 1;
                        drop(pool.get_page(PAGE_SET, PageNumber(page)).unwrap());
                    }
                });
            }
        });
        let elapsed = started.elapsed();
        println!(
            "get_page hit + release, {threads} threads: {:.0} ns/op per thread, {:.1} M ops/s total",
            elapsed.as_nanos() as f64 * threads as f64 / GETS as f64,
            GETS as f64 / elapsed.as_secs_f64() / 1e6
        );
    }

    let started = Instant::now();
    let written = pool.flush_for_shutdown().unwrap();
    let elapsed = started.elapsed();
    let statistics = pool.statistics();
    println!(
        "shutdown flush: {written} pages in {} I/Os, {:.1} ms, {:.0} MiB/s (page cache, fdatasync)",
        statistics.qpstwio,
        elapsed.as_secs_f64() * 1e3,
        written as f64 * 4096.0 / 1048576.0 / elapsed.as_secs_f64()
    );
}
