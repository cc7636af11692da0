//! This machine's physical limits, measured on the benchmark file system with the same system
//! calls the queue manager uses (`pwrite` + `fdatasync`).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::stats::Latencies;

/// How the file written was prepared.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Preparation {
    /// Every block written with zeros and synced first (a pre-formatted log, CSQ4LFMT).
    Formatted,
    /// Blocks reserved with `posix_fallocate` only (what Ferrite does to new active logs and
    /// page sets): on ext4 the first write to each block also converts an unwritten extent.
    Fallocated,
}

impl Preparation {
    pub fn label(self) -> &'static str {
        match self {
            Preparation::Formatted => "pre-written file",
            Preparation::Fallocated => "fallocated file",
        }
    }
}

fn prepare(path: &Path, bytes: u64, preparation: Preparation) -> std::io::Result<File> {
    let _ = std::fs::remove_file(path);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)?;
    match preparation {
        Preparation::Formatted => {
            let chunk = vec![0u8; 1 << 20];
            let mut offset = 0;
            while offset < bytes {
                let length = chunk.len().min((bytes - offset) as usize);
                file.write_all_at(&chunk[..length], offset)?;
                offset += length as u64;
            }
            file.sync_all()?;
        }
        Preparation::Fallocated => {
            let result =
                unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, bytes as libc::off_t) };
            if result != 0 {
                return Err(std::io::Error::from_raw_os_error(result));
            }
            file.sync_all()?;
        }
    }
    Ok(file)
}

/// A pre-written file for short bursts of synced sequential writes between the segments of a
/// benchmark window (`benches::DeviceInterleave`): each burst writes on from where the previous
/// one ended, `write_bytes` per `pwrite` followed by `fdatasync`, as [`synced_writes`] does,
/// wrapping to the start at the file's end. Removed when dropped.
pub struct BurstFile {
    path: std::path::PathBuf,
    file: File,
    bytes: u64,
    offset: u64,
}

impl BurstFile {
    /// Create and pre-write (zeros, synced) a file of `bytes` in `directory`.
    pub fn create(directory: &Path, bytes: u64) -> std::io::Result<BurstFile> {
        assert!(bytes >= 4096, "a burst file holds at least one page");
        let path = directory.join("physical-burst.dat");
        let file = prepare(&path, bytes, Preparation::Formatted)?;
        Ok(BurstFile {
            path,
            file,
            bytes,
            offset: 0,
        })
    }

    /// Write at least `total` bytes (whole writes of `write_bytes`), each write followed by
    /// `fdatasync`. Returns the bytes written and the time the writes and syncs took (nothing
    /// else is timed).
    pub fn burst(
        &mut self,
        write_bytes: usize,
        total: u64,
    ) -> std::io::Result<(u64, std::time::Duration)> {
        let write_bytes = write_bytes.clamp(4096, self.bytes as usize);
        let count = total.div_ceil(write_bytes as u64).max(1);
        let buffer = pattern(write_bytes);
        let started = Instant::now();
        for _ in 0..count {
            if self.offset + write_bytes as u64 > self.bytes {
                self.offset = 0;
            }
            self.file.write_all_at(&buffer, self.offset)?;
            self.file.sync_data()?;
            self.offset += write_bytes as u64;
        }
        Ok((count * write_bytes as u64, started.elapsed()))
    }
}

impl Drop for BurstFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// `count` writes of `write_bytes` at consecutive offsets, each followed by `fdatasync`.
/// Returns the latency of each write+sync.
pub fn synced_writes(
    directory: &Path,
    write_bytes: usize,
    count: usize,
    preparation: Preparation,
) -> std::io::Result<Latencies> {
    let path = directory.join(format!("physical-{write_bytes}-{preparation:?}.dat"));
    let total = (write_bytes * count) as u64;
    let file = prepare(&path, total, preparation)?;
    let buffer = pattern(write_bytes);
    let mut latencies = Latencies::with_capacity(count);
    for index in 0..count {
        let started = Instant::now();
        file.write_all_at(&buffer, (index * write_bytes) as u64)?;
        file.sync_data()?;
        latencies.record(started.elapsed());
    }
    drop(file);
    std::fs::remove_file(&path)?;
    Ok(latencies)
}

/// The bytes every write here writes: `bytes` of a pattern no device can compress away.
fn pattern(bytes: usize) -> Vec<u8> {
    (0..bytes).map(|i| (i * 31 + 7) as u8).collect()
}

/// The two formatted files of a paired test, `physical-{name}1-{write_bytes}.dat` and
/// `...2-...`, each with room for `count` writes of `write_bytes`.
fn prepare_pair(
    directory: &Path,
    name: &str,
    write_bytes: usize,
    count: usize,
) -> std::io::Result<([PathBuf; 2], [File; 2])> {
    let total = (write_bytes * count) as u64;
    let paths = [
        directory.join(format!("physical-{name}1-{write_bytes}.dat")),
        directory.join(format!("physical-{name}2-{write_bytes}.dat")),
    ];
    let files = [
        prepare(&paths[0], total, Preparation::Formatted)?,
        prepare(&paths[1], total, Preparation::Formatted)?,
    ];
    Ok((paths, files))
}

/// Closes and removes a paired test's files.
fn remove_pair(paths: [PathBuf; 2], files: [File; 2]) -> std::io::Result<()> {
    drop(files);
    for path in &paths {
        std::fs::remove_file(path)?;
    }
    Ok(())
}

/// Dual logging's device pattern: `count` rounds in which two threads each write
/// `write_bytes` to their own pre-written file and `fdatasync` it at the same moment, as the
/// logger writes its two active log copies. Returns each round's latency (both synced).
pub fn paired_synced_writes(
    directory: &Path,
    write_bytes: usize,
    count: usize,
) -> std::io::Result<Latencies> {
    let (paths, files) = prepare_pair(directory, "pair", write_bytes, count)?;
    let buffer = pattern(write_bytes);
    let start = std::sync::Barrier::new(2);
    let done = std::sync::Barrier::new(2);
    let mut latencies = Latencies::with_capacity(count);
    std::thread::scope(|scope| -> std::io::Result<()> {
        let copy_2 = scope.spawn(|| -> std::io::Result<()> {
            for index in 0..count {
                start.wait();
                let result = files[1]
                    .write_all_at(&buffer, (index * write_bytes) as u64)
                    .and_then(|()| files[1].sync_data());
                done.wait();
                result?;
            }
            Ok(())
        });
        let mut outcome = Ok(());
        for index in 0..count {
            start.wait();
            let started = Instant::now();
            let result = files[0]
                .write_all_at(&buffer, (index * write_bytes) as u64)
                .and_then(|()| files[0].sync_data());
            done.wait();
            latencies.record(started.elapsed());
            if outcome.is_ok() {
                outcome = result;
            }
        }
        copy_2.join().expect("copy 2 writer")?;
        outcome
    })?;
    remove_pair(paths, files)?;
    Ok(latencies)
}

/// Two pre-written files on one device made durable by one device cache flush, as the logger
/// does with TWOACTV when both copies share a device: write each and start its writeback,
/// `sync_file_range` (write back and wait, no flush) the first, then fdatasync the second
/// (whose flush covers both).
pub fn paired_shared_flush_writes(
    directory: &Path,
    write_bytes: usize,
    count: usize,
) -> std::io::Result<Latencies> {
    let (paths, files) = prepare_pair(directory, "flush", write_bytes, count)?;
    let buffer = pattern(write_bytes);
    let mut latencies = Latencies::with_capacity(count);
    for index in 0..count {
        let offset = (index * write_bytes) as u64;
        let started = Instant::now();
        files[0].write_all_at(&buffer, offset)?;
        ferrite_storage::vfs::start_write_back(&files[0])?;
        files[1].write_all_at(&buffer, offset)?;
        ferrite_storage::vfs::start_write_back(&files[1])?;
        ferrite_storage::vfs::write_back(&files[0])?;
        files[1].sync_data()?;
        latencies.record(started.elapsed());
    }
    remove_pair(paths, files)?;
    Ok(latencies)
}

/// The log's commit pattern at low concurrency: the same 4 KiB page rewritten and synced
/// until it fills, then the next page.
pub fn rewrite_same_page(
    directory: &Path,
    rewrites_per_page: usize,
    count: usize,
) -> std::io::Result<Latencies> {
    let path = directory.join("physical-rewrite.dat");
    let pages = count.div_ceil(rewrites_per_page) as u64 + 1;
    let file = prepare(&path, pages * 4096, Preparation::Formatted)?;
    let buffer = vec![0xA5u8; 4096];
    let mut latencies = Latencies::with_capacity(count);
    for index in 0..count {
        let page = (index / rewrites_per_page) as u64;
        let started = Instant::now();
        file.write_all_at(&buffer, page * 4096)?;
        file.sync_data()?;
        latencies.record(started.elapsed());
    }
    drop(file);
    std::fs::remove_file(&path)?;
    Ok(latencies)
}

/// The active log's write pattern on the raw device, in log bytes/s: `total` bytes written
/// in place in consecutive writes of `in_place_bytes`, each followed by a write of
/// `slot_bytes` to one of two ping-pong slots past the end of the data (alternately, as
/// `log/active.rs` lays them out), then one `fdatasync` (a write cycle of the logger: its full
/// pages in place, its partial page to a slot). Counts only the in-place bytes (the log's RBA
/// advance): the slot repeats a page the next cycle writes in place. On this virtual disk the far
/// second region costs about 40 µs per sync, about half that one page past the data
/// (docs/performance-notes.md, "The log's write cycle"): the price of keeping the partial page's
/// durable image away from its own place (torn-write protection).
pub fn log_pattern_synced_bandwidth(
    directory: &Path,
    in_place_bytes: usize,
    slot_bytes: usize,
    total: u64,
) -> std::io::Result<f64> {
    assert!(in_place_bytes > 0 && slot_bytes <= 2 * 4096);
    let count = (total / in_place_bytes as u64).max(1);
    let data_bytes = count * in_place_bytes as u64;
    let slots = [data_bytes, data_bytes + 2 * 4096];
    let path = directory.join(format!("physical-log-pattern-{in_place_bytes}.dat"));
    let file = prepare(&path, slots[1] + 2 * 4096, Preparation::Formatted)?;
    let buffer = pattern(in_place_bytes.max(slot_bytes));
    let started = Instant::now();
    for index in 0..count {
        file.write_all_at(&buffer[..in_place_bytes], index * in_place_bytes as u64)?;
        if slot_bytes > 0 {
            file.write_all_at(&buffer[..slot_bytes], slots[(index % 2) as usize])?;
        }
        file.sync_data()?;
    }
    let elapsed = started.elapsed();
    drop(file);
    std::fs::remove_file(&path)?;
    Ok(data_bytes as f64 / elapsed.as_secs_f64())
}

/// Synced sequential write bandwidth in bytes/s: `total` bytes in writes of `write_bytes`,
/// each followed by `fdatasync`.
pub fn synced_bandwidth(
    directory: &Path,
    write_bytes: usize,
    total: u64,
    preparation: Preparation,
) -> std::io::Result<f64> {
    let count = (total / write_bytes as u64).max(1) as usize;
    let latencies = synced_writes(directory, write_bytes, count, preparation)?;
    Ok((count * write_bytes) as f64 / latencies.total().as_secs_f64())
}

/// Run `measure` while one thread per CPU counts (no memory traffic, no system call), and return
/// its result with the number of counting threads: does the device slow down when the CPUs are busy
/// with threads of this process, as they are while 64 committers run? On this machine less than
/// when busy *processes* run beside it (docs/performance-notes.md, "The device").
pub fn with_every_cpu_busy<T>(measure: impl FnOnce() -> T) -> (T, usize) {
    /// Stops the counting threads however `measure` ends: the scope joins them before it
    /// returns or unwinds, so a panic in `measure` would otherwise wait forever.
    struct StopOnDrop<'a>(&'a std::sync::atomic::AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                // Not `spin_loop()`: a PAUSE loop lets a virtual machine's host deschedule
                // the vCPU (pause-loop exiting), which frees the very CPU this measures.
                let mut count = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    count = std::hint::black_box(count.wrapping_add(1));
                }
            });
        }
        let _stop = StopOnDrop(&stop);
        measure()
    });
    (result, threads)
}

/// Memory copy bandwidth in bytes/s (bytes copied per second, one thread).
pub fn memory_copy_bandwidth(bytes: usize, repeats: usize) -> f64 {
    let source: Vec<u8> = (0..bytes).map(|i| i as u8).collect();
    let mut target = vec![0u8; bytes];
    target.copy_from_slice(&source); // fault the pages in
    let started = Instant::now();
    for round in 0..repeats {
        target.copy_from_slice(&source);
        std::hint::black_box(&mut target[round % bytes]);
    }
    (bytes * repeats) as f64 / started.elapsed().as_secs_f64()
}

/// Bytes each way in one loopback round trip: a 1,000-byte request and its echo, the size of
/// MP16's request/reply messages.
pub const LOOPBACK_MESSAGE_BYTES: usize = 1_000;

/// Loopback TCP round trips (127.0.0.1, TCP_NODELAY): a client thread writes
/// [`LOOPBACK_MESSAGE_BYTES`] and waits for the same bytes echoed by a server thread, `count`
/// times. This is the floor under any request/reply over the network on this machine: two
/// thread hand-offs through the kernel's TCP stack and no queue manager at all.
pub fn loopback_round_trips(count: usize) -> std::io::Result<Latencies> {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let address = listener.local_addr()?;
    let server = std::thread::spawn(move || -> std::io::Result<()> {
        let (mut stream, _) = listener.accept()?;
        stream.set_nodelay(true)?;
        let mut buffer = vec![0u8; LOOPBACK_MESSAGE_BYTES];
        loop {
            match stream.read_exact(&mut buffer) {
                Ok(()) => stream.write_all(&buffer)?,
                Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
                Err(error) => return Err(error),
            }
        }
    });
    let mut client = TcpStream::connect(address)?;
    client.set_nodelay(true)?;
    let request = vec![0x5au8; LOOPBACK_MESSAGE_BYTES];
    let mut reply = vec![0u8; LOOPBACK_MESSAGE_BYTES];
    let mut latencies = Latencies::with_capacity(count);
    for _ in 0..count {
        let started = Instant::now();
        client.write_all(&request)?;
        client.read_exact(&mut reply)?;
        latencies.record(started.elapsed());
    }
    drop(client);
    server
        .join()
        .map_err(|_| std::io::Error::other("loopback echo thread panicked"))??;
    Ok(latencies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_round_trips_are_timed_one_by_one() {
        let mut latencies = loopback_round_trips(50).expect("loopback");
        assert_eq!(latencies.count(), 50);
        assert!(latencies.percentile_us(50.0) > 0.0);
        assert!(latencies.rate() > 0.0);
    }

    #[test]
    fn busy_threads_stop_however_the_measure_ends() {
        let (value, threads) = with_every_cpu_busy(|| 7);
        assert_eq!(value, 7);
        assert!(threads >= 1);
        // Without the stop on unwind, the scope would wait for the counting threads forever.
        let failed = std::panic::catch_unwind(|| with_every_cpu_busy(|| panic!("measure failed")));
        assert!(failed.is_err());
    }
}
