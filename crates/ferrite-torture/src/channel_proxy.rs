//! A TCP relay between a sender channel and its receiver that reads the flows it passes on and
//! SIGKILLs a queue manager at a chosen flow: the fault-injection point of the channel
//! torture, outside the product. The sender's CONNAME names the relay's port; the relay
//! connects each accepted connection to the receiver's listener and copies whole segments
//! (TSH headers, `ferrite_protocol::segment`) both ways, so it knows where batches and
//! confirmations are:
//!
//! - a MESSAGE_DATA segment with LAST ends one message of a batch; with CONFIRM_REQUEST it
//!   ends the batch;
//! - the first STATUS_DATA from the receiver after a batch's end is its confirmation, which
//!   the receiver sends after committing the batch and its sequence number.
//!
//! A [`KillPlan`] armed on the relay names the flow and the process: killed before a message
//! flow reaches the receiver (mid-batch), while the receiver's confirmation is held back (the
//! receiver has committed, the sender does not know: the window of assured delivery's
//! in-doubt resolution), or a chosen number of microseconds after the confirmation went to
//! the sender (the sender's own commit of it). The connection is then cut both ways, as the
//! kernel cuts a killed process's sockets.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use ferrite_protocol::segment::{
    ControlFlags1, SegmentHeader, SegmentType, SEGMENT_LENGTH_HARD_CAP, TSH_LENGTH,
};

/// Where, counting from the arming of the plan, the victim is killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KillPoint {
    /// When the `message`-th message flow (1-based) comes from the sender: before it reaches
    /// the receiver, or just after (`forwarded`).
    MidBatch { message: u64, forwarded: bool },
    /// When the `confirmation`-th confirmation comes from the receiver, held back: the
    /// receiver has committed the batch, the sender never hears so.
    HeldConfirmation { confirmation: u64 },
    /// `delay_us` microseconds after the `confirmation`-th confirmation went on to the sender.
    AfterConfirmation { confirmation: u64, delay_us: u64 },
}

impl KillPoint {
    pub fn describe(&self) -> String {
        match self {
            KillPoint::MidBatch {
                message,
                forwarded: false,
            } => format!("mid-batch, before message flow {message} reached the receiver"),
            KillPoint::MidBatch {
                message,
                forwarded: true,
            } => format!("mid-batch, just after message flow {message} went to the receiver"),
            KillPoint::HeldConfirmation { confirmation } => format!(
                "mid-confirm, confirmation {confirmation} committed by the receiver and held back from the sender"
            ),
            KillPoint::AfterConfirmation {
                confirmation,
                delay_us,
            } => format!("mid-confirm, {delay_us} µs after confirmation {confirmation} went to the sender"),
        }
    }
}

/// A kill to do: at `point`, SIGKILL `pid`.
#[derive(Clone, Copy, Debug)]
pub struct KillPlan {
    pub point: KillPoint,
    pub pid: u32,
}

#[derive(Default)]
struct Plan {
    armed: Option<KillPlan>,
    messages: u64,
    confirmations: u64,
    fired: Option<KillPlan>,
}

struct Shared {
    receiver_port: u16,
    plan: Mutex<Plan>,
    fired: Condvar,
    stop: AtomicBool,
    connections: AtomicU64,
}

/// The relay: its port, and the thread accepting on it.
pub struct ChannelProxy {
    port: u16,
    shared: Arc<Shared>,
    accepting: Option<std::thread::JoinHandle<()>>,
}

impl ChannelProxy {
    /// Listen on a free loopback port, relaying to the receiver's listener on `receiver_port`.
    pub fn start(receiver_port: u16) -> std::io::Result<ChannelProxy> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        listener.set_nonblocking(true)?;
        let shared = Arc::new(Shared {
            receiver_port,
            plan: Mutex::new(Plan::default()),
            fired: Condvar::new(),
            stop: AtomicBool::new(false),
            connections: AtomicU64::new(0),
        });
        let accepting_shared = shared.clone();
        let accepting = std::thread::Builder::new()
            .name("channel-proxy".into())
            .spawn(move || accept_loop(&accepting_shared, &listener))?;
        Ok(ChannelProxy {
            port,
            shared,
            accepting: Some(accepting),
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Connections relayed so far.
    pub fn connections(&self) -> u64 {
        self.shared.connections.load(Ordering::Relaxed)
    }

    /// Arm `plan`, its counts starting from now.
    pub fn arm(&self, plan: KillPlan) {
        let mut state = self.shared.plan.lock().expect("plan lock");
        *state = Plan {
            armed: Some(plan),
            ..Plan::default()
        };
    }

    /// Disarm; the plan that fired, if one did.
    pub fn disarm(&self) -> Option<KillPlan> {
        let mut state = self.shared.plan.lock().expect("plan lock");
        state.armed = None;
        state.fired.take()
    }

    /// Wait up to `limit` for the armed plan to fire: whether it did.
    pub fn wait_fired(&self, limit: Duration) -> bool {
        let state = self.shared.plan.lock().expect("plan lock");
        let (state, _) = self
            .shared
            .fired
            .wait_timeout_while(state, limit, |state| state.fired.is_none())
            .expect("plan lock");
        state.fired.is_some()
    }
}

impl Drop for ChannelProxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
    }
}

fn accept_loop(shared: &Arc<Shared>, listener: &TcpListener) {
    while !shared.stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((sender, _)) => {
                let _ = sender.set_nonblocking(false);
                shared.connections.fetch_add(1, Ordering::Relaxed);
                let shared = shared.clone();
                let _ = std::thread::Builder::new()
                    .name("channel-proxy-relay".into())
                    .spawn(move || relay(&shared, sender));
            }
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// One connection: the receiver connected, then a thread per direction until either ends.
fn relay(shared: &Arc<Shared>, sender: TcpStream) {
    let Ok(receiver) = TcpStream::connect(("127.0.0.1", shared.receiver_port)) else {
        // The receiver is down: the sender sees its connection end, as with no relay.
        let _ = sender.shutdown(Shutdown::Both);
        return;
    };
    let _ = receiver.set_nodelay(true);
    let _ = sender.set_nodelay(true);
    let batch_ends = Arc::new(AtomicU64::new(0));
    let ends = [
        sender.try_clone().expect("clone"),
        receiver.try_clone().expect("clone"),
    ];
    let backward = {
        let shared = shared.clone();
        let (from, to) = (
            receiver.try_clone().expect("clone"),
            sender.try_clone().expect("clone"),
        );
        let batch_ends = batch_ends.clone();
        let ends = [
            sender.try_clone().expect("clone"),
            receiver.try_clone().expect("clone"),
        ];
        std::thread::spawn(move || {
            pump(&shared, from, to, Direction::ToSender, &batch_ends);
            cut(&ends);
        })
    };
    pump(shared, sender, receiver, Direction::ToReceiver, &batch_ends);
    cut(&ends);
    let _ = backward.join();
}

fn cut(ends: &[TcpStream; 2]) {
    for end in ends {
        let _ = end.shutdown(Shutdown::Both);
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    ToReceiver,
    ToSender,
}

/// Copy segments `from` → `to` until either ends or the plan fires on this connection.
fn pump(
    shared: &Shared,
    mut from: TcpStream,
    mut to: TcpStream,
    direction: Direction,
    batch_ends: &AtomicU64,
) {
    let mut segment = Vec::new();
    while read_segment(&mut from, &mut segment).is_ok() {
        let Ok(header) = SegmentHeader::decode(&segment) else {
            return;
        };
        let action = observe(shared, direction, &header, batch_ends);
        if let Action::KillBefore(plan) = action {
            fire(shared, plan);
            return;
        }
        if to.write_all(&segment).is_err() {
            return;
        }
        if let Action::KillAfter(plan, delay) = action {
            if !delay.is_zero() {
                std::thread::sleep(delay);
            }
            fire(shared, plan);
            return;
        }
    }
}

enum Action {
    Pass,
    KillBefore(KillPlan),
    KillAfter(KillPlan, Duration),
}

/// Count the flow and decide whether the plan fires on it.
fn observe(
    shared: &Shared,
    direction: Direction,
    header: &SegmentHeader,
    batch_ends: &AtomicU64,
) -> Action {
    let mut plan = shared.plan.lock().expect("plan lock");
    let Some(armed) = plan.armed else {
        return Action::Pass;
    };
    match (direction, header.segment_type) {
        (Direction::ToReceiver, SegmentType::MessageData) if header.flags1.last() => {
            if header.flags1.contains(ControlFlags1::CONFIRM_REQUEST) {
                batch_ends.fetch_add(1, Ordering::SeqCst);
            }
            plan.messages += 1;
            match armed.point {
                KillPoint::MidBatch { message, forwarded } if message == plan.messages => {
                    plan.armed = None;
                    if forwarded {
                        Action::KillAfter(armed, Duration::ZERO)
                    } else {
                        Action::KillBefore(armed)
                    }
                }
                _ => Action::Pass,
            }
        }
        (Direction::ToSender, SegmentType::StatusData)
            if batch_ends
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |ends| {
                    ends.checked_sub(1)
                })
                .is_ok() =>
        {
            plan.confirmations += 1;
            match armed.point {
                KillPoint::HeldConfirmation { confirmation }
                    if confirmation == plan.confirmations =>
                {
                    plan.armed = None;
                    Action::KillBefore(armed)
                }
                KillPoint::AfterConfirmation {
                    confirmation,
                    delay_us,
                } if confirmation == plan.confirmations => {
                    plan.armed = None;
                    Action::KillAfter(armed, Duration::from_micros(delay_us))
                }
                _ => Action::Pass,
            }
        }
        _ => Action::Pass,
    }
}

fn fire(shared: &Shared, plan: KillPlan) {
    // SAFETY: a signal to a queue manager process the harness started and has not waited for
    // (a zombie until then, so the pid cannot have been reused).
    unsafe { libc::kill(plan.pid as libc::pid_t, libc::SIGKILL) };
    let mut state = shared.plan.lock().expect("plan lock");
    state.fired = Some(plan);
    shared.fired.notify_all();
}

/// One whole segment (header and payload) into `segment`.
fn read_segment(from: &mut TcpStream, segment: &mut Vec<u8>) -> std::io::Result<()> {
    segment.resize(8, 0);
    from.read_exact(&mut segment[..8])?;
    let length = u32::from_be_bytes(segment[4..8].try_into().expect("4 bytes"));
    if (length as usize) < TSH_LENGTH || length > SEGMENT_LENGTH_HARD_CAP {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("segment length {length}"),
        ));
    }
    segment.resize(length as usize, 0);
    from.read_exact(&mut segment[8..])
}
