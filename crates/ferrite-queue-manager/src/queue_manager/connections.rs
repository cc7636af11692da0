//! The connections of a queue manager (MQ's connection handles, as DISPLAY CONN shows them):
//! who is connected, from where, and whether each has a unit of work in progress. The MQI
//! registers a connection at MQCONN and removes it when the connection ends; the listeners
//! fill in the channel and the partner's address. Kept apart from the data path: an MQI call
//! updates two atomics of its own record, nothing shared.
//!
//! Each record also lists its connection's open object handles ([`HandleRecord`]: what DISPLAY
//! QSTATUS TYPE(HANDLE), DISPLAY CONN TYPE(HANDLE) and PCF INQUIRE_Q_STATUS show). MQOPEN and
//! MQCLOSE update that list under the record's own mutex, which only the connection's thread
//! and an occasional DISPLAY ever take: no lock shared between connections on that path.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::statistics::{MqiCounters, MqiStatistics};

/// Connections registered at once, at most (MQ's MAXCONN is of this order on z/OS).
pub const CONNECTIONS_MAX: usize = 65_536;

/// One open object handle of a connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandleRecord {
    /// The handle (Hobj) within its connection.
    pub hobj: i32,
    /// OBJNAME: the name MQOPEN was given (an alias or model name as given; a dynamic queue's
    /// generated name).
    pub object_name: String,
    /// OBJTYPE: MQOT_* of the object opened.
    pub object_type: i32,
    /// The local queue the handle reaches (QSTATUS TYPE(HANDLE) lists the handle under it);
    /// blank for the queue manager, a process or a namelist.
    pub queue: String,
    /// OPENOPTS: the MQOO_* options of the MQOPEN.
    pub open_options: i32,
    /// TID: the number of the thread that opened it ([`thread_number`]).
    pub thread: u64,
}

/// A small number for the calling thread, unique in this process (1, 2, ...): DISPLAY's TID.
pub fn thread_number() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local! {
        static NUMBER: u64 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    NUMBER.with(|number| *number)
}

/// Open handles one connection lists, at most (MQ's MAXHANDS defaults to 256; Ferrite does not
/// limit handles, so this only bounds what one record keeps for display).
pub const HANDLES_LISTED_MAX: usize = 65_536;

/// One connection, as DISPLAY CONN reports it.
#[derive(Debug)]
pub struct ConnectionRecord {
    /// CONN: the connection's identifier, unique for the life of the queue manager process.
    pub id: u64,
    /// APPLTAG: the application's name (PutApplName).
    pub appl_tag: String,
    /// APPLTYPE (MQAT_*).
    pub appl_type: i32,
    /// When the connection was made (ms since the epoch).
    pub started_ms: u64,
    user: Mutex<String>,
    channel: Mutex<String>,
    connection_name: Mutex<String>,
    open_handles: AtomicU32,
    unit_of_work_active: AtomicBool,
    handles: Mutex<Vec<HandleRecord>>,
    /// The connection's MQI calls (the message manager's statistics, statistics/mqi.rs).
    pub mqi: MqiCounters,
}

impl ConnectionRecord {
    /// USERID.
    pub fn user(&self) -> String {
        self.user.lock().unwrap().clone()
    }

    /// CHANNEL (blank for a bindings or in-process connection).
    pub fn channel(&self) -> String {
        self.channel.lock().unwrap().clone()
    }

    /// CONNAME (blank for a bindings or in-process connection).
    pub fn connection_name(&self) -> String {
        self.connection_name.lock().unwrap().clone()
    }

    /// Object handles open.
    pub fn open_handles(&self) -> u32 {
        self.open_handles.load(Ordering::Relaxed)
    }

    /// UOWSTATE(ACTIVE) when true.
    pub fn unit_of_work_active(&self) -> bool {
        self.unit_of_work_active.load(Ordering::Relaxed)
    }

    pub fn set_user(&self, user: &str) {
        *self.user.lock().unwrap() = user.to_string();
    }

    /// The channel and partner address a client connection came through.
    pub fn set_channel(&self, channel: &str, connection_name: &str) {
        *self.channel.lock().unwrap() = channel.to_string();
        *self.connection_name.lock().unwrap() = connection_name.to_string();
    }

    pub fn set_open_handles(&self, count: u32) {
        self.open_handles.store(count, Ordering::Relaxed);
    }

    pub fn set_unit_of_work_active(&self, active: bool) {
        self.unit_of_work_active.store(active, Ordering::Relaxed);
    }

    /// PID: the process serving the connection (the queue manager's, as MQ shows its agent's).
    pub fn process_id(&self) -> u32 {
        std::process::id()
    }

    /// MQOPEN made `handle`.
    pub fn handle_opened(&self, handle: HandleRecord) {
        let mut handles = self.handles.lock().unwrap();
        debug_assert!(
            handles.iter().all(|open| open.hobj != handle.hobj),
            "handle {} listed twice",
            handle.hobj
        );
        if handles.len() < HANDLES_LISTED_MAX {
            handles.push(handle);
        }
    }

    /// MQCLOSE (or the end of the connection) closed handle `hobj`.
    pub fn handle_closed(&self, hobj: i32) {
        let mut handles = self.handles.lock().unwrap();
        if let Some(index) = handles.iter().rposition(|open| open.hobj == hobj) {
            handles.swap_remove(index);
        }
    }

    /// Every handle was closed.
    pub fn handles_closed(&self) {
        self.handles.lock().unwrap().clear();
    }

    /// The open handles, in the order of their Hobj.
    pub fn handles(&self) -> Vec<HandleRecord> {
        let mut handles = self.handles.lock().unwrap().clone();
        handles.sort_by_key(|handle| handle.hobj);
        handles
    }
}

/// The registry.
#[derive(Debug, Default)]
pub struct Connections {
    by_id: Mutex<BTreeMap<u64, Arc<ConnectionRecord>>>,
    next_id: AtomicU64,
    /// The MQI counts of the connections that ended (added under `by_id`'s lock).
    ended: MqiCounters,
}

impl Connections {
    /// Registers a new connection; `None` when [`CONNECTIONS_MAX`] are registered already.
    pub fn register(
        &self,
        appl_tag: &str,
        appl_type: i32,
        user: &str,
        now_ms: u64,
    ) -> Option<Arc<ConnectionRecord>> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let record = Arc::new(ConnectionRecord {
            id,
            appl_tag: appl_tag.to_string(),
            appl_type,
            started_ms: now_ms,
            user: Mutex::new(user.to_string()),
            channel: Mutex::new(String::new()),
            connection_name: Mutex::new(String::new()),
            open_handles: AtomicU32::new(0),
            unit_of_work_active: AtomicBool::new(false),
            handles: Mutex::new(Vec::new()),
            mqi: MqiCounters::default(),
        });
        let mut by_id = self.by_id.lock().unwrap();
        if by_id.len() >= CONNECTIONS_MAX {
            return None;
        }
        by_id.insert(id, record.clone());
        Some(record)
    }

    /// Removes a connection that ended.
    pub fn deregister(&self, id: u64) {
        let mut by_id = self.by_id.lock().unwrap();
        if let Some(record) = by_id.remove(&id) {
            self.ended.absorb(&record.mqi.snapshot());
        }
    }

    /// The MQI counts of every connection made: those that ended and those live now.
    pub fn mqi_statistics(&self) -> MqiStatistics {
        let by_id = self.by_id.lock().unwrap();
        by_id.values().fold(self.ended.snapshot(), |total, record| {
            total.plus(&record.mqi.snapshot())
        })
    }

    /// Every connection, oldest first.
    pub fn all(&self) -> Vec<Arc<ConnectionRecord>> {
        self.by_id.lock().unwrap().values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handle(hobj: i32, queue: &str) -> HandleRecord {
        HandleRecord {
            hobj,
            object_name: queue.to_string(),
            object_type: 1,
            queue: queue.to_string(),
            open_options: 0x10,
            thread: thread_number(),
        }
    }

    #[test]
    fn handles_are_listed_while_open() {
        let connections = Connections::default();
        let record = connections.register("APP", 6, "user", 0).unwrap();
        record.handle_opened(handle(2, "B"));
        record.handle_opened(handle(1, "A"));
        record.handle_opened(handle(3, "C"));
        record.handle_closed(2);
        let listed: Vec<i32> = record.handles().iter().map(|h| h.hobj).collect();
        assert_eq!(listed, vec![1, 3]);
        record.handle_closed(99);
        assert_eq!(record.handles().len(), 2);
        record.handles_closed();
        assert!(record.handles().is_empty());
        assert_eq!(record.process_id(), std::process::id());
        let here = thread_number();
        assert_eq!(here, thread_number(), "stable within a thread");
        let there = std::thread::spawn(thread_number).join().unwrap();
        assert_ne!(here, there);
    }
}
