//! PAGECLAS(FIXED4KB): a pool's buffers locked in memory, seen in the process's own locked
//! memory (`VmLck` in /proc/self/status), through a page class change, growth and shrinking;
//! and the refusals when the operating system will not lock them (a real RLIMIT_MEMLOCK, with
//! CAP_IPC_LOCK dropped from the testing thread when it runs as root).
//!
//! Then the queue manager's side under the same limit: a FIXED4KB DEFINE that cannot lock is
//! refused and changes nothing, and a start whose qm.toml has a FIXED4KB pool it can no longer
//! lock serves the pool as 4KB with CSQP072W.
//!
//! One test in its own binary: `VmLck` counts the whole process.

use std::sync::Arc;

use ferrite_queue_manager::QueueManager;
use ferrite_storage::buffer_pool::{BufferPool, WriteAheadLog};
use ferrite_storage::config::{PageClass, QueueManagerConfig};
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::BufferPoolId;

const KIB_PER_BUFFER: u64 = 4;

/// The pools here are never written: a log that has nothing to force.
#[derive(Default)]
struct NoLog;

impl WriteAheadLog for NoLog {
    fn force_through(&self, _rba: ferrite_storage::Rba) -> ferrite_storage::StorageResult<()> {
        Ok(())
    }
}

/// The process's locked memory, in KiB.
fn locked_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    let line = status
        .lines()
        .find(|line| line.starts_with("VmLck:"))
        .expect("a VmLck line");
    line.split_whitespace()
        .nth(1)
        .and_then(|kib| kib.parse().ok())
        .expect("VmLck in kB")
}

/// Drop CAP_IPC_LOCK from this thread's effective capabilities (capabilities are per thread
/// on Linux), so that RLIMIT_MEMLOCK applies to it even when the tests run as root.
fn drop_ipc_lock_capability() {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    const CAP_IPC_LOCK: u32 = 14;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let mut data = [Data::default(); 2];
    // SAFETY: capget fills the two data structs of version 3 for this thread.
    let got = unsafe { libc::syscall(libc::SYS_capget, &mut header, data.as_mut_ptr()) };
    assert_eq!(got, 0, "capget: {}", std::io::Error::last_os_error());
    data[0].effective &= !(1 << CAP_IPC_LOCK);
    // SAFETY: capset with the structs capget filled, one bit cleared: lowering this thread's
    // effective set is always allowed.
    let set = unsafe { libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()) };
    assert_eq!(set, 0, "capset: {}", std::io::Error::last_os_error());
}

/// Lower this process's RLIMIT_MEMLOCK to `kib` (the hard limit stays).
fn set_locked_memory_limit(kib: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_MEMLOCK, &mut limit), 0);
        limit.rlim_cur = (kib * 1024).min(limit.rlim_max);
        assert_eq!(libc::setrlimit(libc::RLIMIT_MEMLOCK, &limit), 0);
    }
}

#[test]
fn fixed_pools_lock_their_buffers_add_what_they_can_lock_and_refuse_cleanly() {
    // Locking, growing, shrinking and unlocking.
    let baseline = locked_kib();
    let pool = BufferPool::new(BufferPoolId(4), 300, Arc::new(NoLog));
    assert_eq!(pool.page_class(), PageClass::Pageable);
    assert_eq!(locked_kib(), baseline, "a 4KB pool locks nothing");
    pool.set_page_class(PageClass::Fixed)
        .expect("lock 300 buffers");
    assert_eq!(pool.page_class(), PageClass::Fixed);
    assert_eq!(locked_kib(), baseline + 300 * KIB_PER_BUFFER);
    assert_eq!(pool.resize(600).expect("grow").buffers, 600);
    assert_eq!(
        locked_kib(),
        baseline + 600 * KIB_PER_BUFFER,
        "new buffers are locked"
    );
    assert_eq!(pool.resize(200).expect("shrink").buffers, 200);
    assert_eq!(
        locked_kib(),
        baseline + 200 * KIB_PER_BUFFER,
        "buffers given up are unlocked"
    );
    pool.set_page_class(PageClass::Pageable).expect("unlock");
    assert_eq!(pool.page_class(), PageClass::Pageable);
    assert_eq!(locked_kib(), baseline);
    pool.set_page_class(PageClass::Fixed).expect("lock again");
    assert_eq!(locked_kib(), baseline + 200 * KIB_PER_BUFFER);

    // Refusals, on a thread that RLIMIT_MEMLOCK binds (an OS limit, not a simulation).
    std::thread::spawn(move || {
        drop_ipc_lock_capability();
        let locked = locked_kib();
        // Room for one 256-buffer step (1 MiB) and a little more, not for two.
        set_locked_memory_limit(locked + 256 * KIB_PER_BUFFER + 64);

        let pageable = BufferPool::new(BufferPoolId(5), 1000, Arc::new(NoLog));
        let refused = pageable.set_page_class(PageClass::Fixed);
        let message = refused
            .expect_err("1,000 buffers do not fit the limit")
            .to_string();
        assert!(message.contains("RLIMIT_MEMLOCK"), "{message}");
        assert_eq!(pageable.page_class(), PageClass::Pageable, "{message}");
        assert_eq!(locked_kib(), locked, "a refused lock leaves nothing locked");

        // The fixed pool grows by as many buffers as it can lock.
        let grown = pool.resize(200 + 1024).expect("grow by what can be locked");
        assert_eq!(grown.buffers_before, 200);
        assert_eq!(grown.buffers, 200 + 256, "one step of 256 buffers fits");
        assert_eq!(pool.buffers(), 200 + 256);
        assert_eq!(locked_kib(), locked + 256 * KIB_PER_BUFFER);
        // And fails, unchanged, when not even one step fits.
        let message = pool
            .resize(2000)
            .expect_err("no room for another step")
            .to_string();
        assert!(message.contains("was not grown"), "{message}");
        assert_eq!(pool.buffers(), 200 + 256);
        assert_eq!(locked_kib(), locked + 256 * KIB_PER_BUFFER);
        pageable.shutdown();
        pool.shutdown();
    })
    .join()
    .expect("the refusals hold");

    // The queue manager's side, on a thread RLIMIT_MEMLOCK binds, with 64 KiB of room:
    // a FIXED4KB DEFINE that cannot lock is refused and changes nothing; a queue manager whose
    // qm.toml has a FIXED4KB pool it can no longer lock starts, serving it as 4KB (CSQP072W).
    let directory = tempfile::tempdir().unwrap();
    let fs: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let mut config = QueueManagerConfig::small("QMFIX");
    config.buffer_pools[0].page_class = PageClass::Fixed;
    QueueManager::create(fs.clone(), directory.path(), &config, &mut |_, _, _| {}).unwrap();
    let path = directory.path().to_path_buf();
    std::thread::spawn(move || {
        drop_ipc_lock_capability();
        set_locked_memory_limit(locked_kib() + 64);
        let lines = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let sink = lines.clone();
        let queue_manager = QueueManager::open(
            fs,
            &path,
            Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string())),
        )
        .expect("a pool that cannot be locked does not stop the start");
        let warned = lines.lock().unwrap().join("\n");
        assert!(warned.contains("CSQP072W QMFIX buffer pool 0"), "{warned}");
        let pool0 = queue_manager
            .pools()
            .into_iter()
            .find(|pool| pool.id().0 == 0);
        assert_eq!(pool0.unwrap().page_class(), PageClass::Pageable);
        let toml = std::fs::read_to_string(path.join("qm.toml")).unwrap();
        assert!(toml.contains("FIXED4KB"), "qm.toml keeps the class: {toml}");

        let refused = queue_manager.define_buffer_pool(9, 1000, PageClass::Fixed);
        let message = refused
            .expect_err("1,000 buffers cannot be locked")
            .to_string();
        assert!(message.contains("RLIMIT_MEMLOCK"), "{message}");
        assert!(!queue_manager.buffer_pool_defined(9), "{message}");
        assert!(queue_manager.pools().iter().all(|pool| pool.id().0 != 9));
        let toml = std::fs::read_to_string(path.join("qm.toml")).unwrap();
        assert!(!toml.contains("id = 9"), "{toml}");
        queue_manager.shutdown().unwrap();
    })
    .join()
    .expect("the queue manager's refusals hold");
}
