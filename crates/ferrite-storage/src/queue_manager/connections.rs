//! The connections of a queue manager (MQ's connection handles, as DISPLAY CONN shows them):
//! who is connected, from where, and whether each has a unit of work in progress. The MQI
//! registers a connection at MQCONN and removes it when the connection ends; the listeners
//! fill in the channel and the partner's address. Kept apart from the data path: an MQI call
//! updates two atomics of its own record, nothing shared.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Connections registered at once, at most (MQ's MAXCONN is of this order on z/OS).
pub const CONNECTIONS_MAX: usize = 65_536;

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
}

/// The registry.
#[derive(Debug, Default)]
pub struct Connections {
    by_id: Mutex<BTreeMap<u64, Arc<ConnectionRecord>>>,
    next_id: AtomicU64,
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
        self.by_id.lock().unwrap().remove(&id);
    }

    /// Every connection, oldest first.
    pub fn all(&self) -> Vec<Arc<ConnectionRecord>> {
        self.by_id.lock().unwrap().values().cloned().collect()
    }
}
