//! The channel initiator's dispatchers (CHIDISPS): threads that own the client sockets, as
//! MQ's dispatcher TCBs do (MP16 ch. 3: a channel is bound to one dispatcher from start to
//! stop). Each dispatcher waits on its sockets with epoll (level-triggered): it reads what
//! arrives, decodes segments and reassembles flows, answers heartbeats, negotiates, starts and
//! ends conversations itself ([`crate::channel::Channel`]) and hands every other flow to its
//! conversation, which it then runs itself ([`crate::local_work`]): an MQI call that will not
//! wait is made on the dispatcher; one that may (MQCONN, MQOPEN, a persistent put outside
//! syncpoint, which forces the log) goes to an adapter. An MQCMIT (or an MQDISC's implicit
//! commit) is logged on the dispatcher, which goes on without waiting for the log: the log's
//! writer hands the conversation back ([`Completions`]) once the commit is durable, and the
//! dispatcher answers it. It writes what a slow reader left waiting when the
//! socket becomes writable, and every [`DISPATCHER_TICK`] looks at each socket's timers
//! (handshake timeout, heartbeats, DISCINT, write timeout, STOP CHANNEL).
//!
//! No thread belongs to a socket or a conversation, so an idle client connection costs only its
//! buffers and its MQI connection.

use std::collections::HashMap;
use std::net::TcpStream;
use std::os::unix::io::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ferrite_queue_manager::statistics::tasks::TaskKind;

use crate::channel::{Channel, ChannelSocket, READ_INTEREST};
use crate::channel_conversation::Conversation;
use crate::channel_initiator::{ChannelInstance, ChinitShared, CONVERSATION_STACK_BYTES};
use crate::flows::End;
use crate::local_work::{self, Place, LOCAL_RUNS_PER_TURN_MAX};

/// How often a dispatcher looks at its sockets' timers.
pub const DISPATCHER_TICK: Duration = Duration::from_millis(100);
/// Events one epoll_wait returns at most.
const EVENTS_PER_WAIT: usize = 256;
/// Bytes a dispatcher reads at a time (one buffer per dispatcher, not per socket).
pub const DISPATCHER_READ_BUFFER_BYTES: usize = 64 * 1024;
/// The epoll token of the dispatcher's own wake-up eventfd (socket tokens are instance ids,
/// which start at 1).
const WAKE_TOKEN: u64 = 0;

/// A dispatcher's wake-up eventfd, and the conversations other threads hand it to run: those
/// whose commit the log made durable ([`Completions::hand`]), learnt by the log's writer. The
/// conversation's sockets and its notices hold it, so the eventfd outlives the dispatcher.
pub(crate) struct Completions {
    wake: RawFd,
    queue: Mutex<CompletionQueue>,
}

#[derive(Default)]
struct CompletionQueue {
    conversations: Vec<Arc<Conversation>>,
    /// The dispatcher has stopped: it runs nothing more.
    stopped: bool,
}

impl Completions {
    /// Hands `conversation` (already marked scheduled) to the dispatcher, waking it if nothing
    /// else was handed since its last look (one wake-up for a whole group commit); gives it
    /// back once the dispatcher has stopped.
    pub(crate) fn hand(&self, conversation: Arc<Conversation>) -> Result<(), Arc<Conversation>> {
        let mut queue = self.queue.lock().unwrap();
        if queue.stopped {
            return Err(conversation);
        }
        let first = queue.conversations.is_empty();
        queue.conversations.push(conversation);
        drop(queue);
        if first {
            self.notify();
        }
        Ok(())
    }

    fn notify(&self) {
        let one: u64 = 1;
        // SAFETY: writing 8 bytes to our eventfd.
        unsafe {
            libc::write(
                self.wake,
                &one as *const u64 as *const libc::c_void,
                std::mem::size_of::<u64>(),
            );
        }
    }

    /// The conversations handed since the last look, swapped into `into` (empty: its
    /// capacity is reused by the next ones).
    fn take(&self, into: &mut Vec<Arc<Conversation>>) {
        debug_assert!(into.is_empty());
        std::mem::swap(&mut self.queue.lock().unwrap().conversations, into);
    }

    /// The dispatcher stops: nothing more is handed to it; what was, it gives back.
    fn stop(&self) -> Vec<Arc<Conversation>> {
        let mut queue = self.queue.lock().unwrap();
        queue.stopped = true;
        std::mem::take(&mut queue.conversations)
    }
}

impl Drop for Completions {
    fn drop(&mut self) {
        // SAFETY: closing the eventfd this structure owns; nothing can write to it any more.
        unsafe { libc::close(self.wake) };
    }
}

/// A dispatcher: its epoll instance, the sockets handed to it and its thread.
pub(crate) struct Dispatcher {
    epoll: RawFd,
    wake: RawFd,
    completions: Arc<Completions>,
    incoming: Mutex<Vec<(TcpStream, Arc<ChannelInstance>)>>,
    stopping: AtomicBool,
    channels: AtomicUsize,
    thread: Mutex<Option<JoinHandle<()>>>,
}

fn os_error(what: &str) -> std::io::Error {
    let error = std::io::Error::last_os_error();
    std::io::Error::new(error.kind(), format!("{what}: {error}"))
}

impl Dispatcher {
    /// A dispatcher without its thread (see [`Dispatcher::spawn`]).
    pub(crate) fn new() -> std::io::Result<Arc<Dispatcher>> {
        // SAFETY: creating kernel objects; the descriptors are checked and owned here.
        let epoll = unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) };
        if epoll < 0 {
            return Err(os_error("epoll_create1"));
        }
        // SAFETY: as above.
        let wake = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if wake < 0 {
            // SAFETY: closing the descriptor created above.
            unsafe { libc::close(epoll) };
            return Err(os_error("eventfd"));
        }
        let mut event = libc::epoll_event {
            events: libc::EPOLLIN as u32,
            u64: WAKE_TOKEN,
        };
        // SAFETY: registering our eventfd with our epoll instance.
        if unsafe { libc::epoll_ctl(epoll, libc::EPOLL_CTL_ADD, wake, &mut event) } < 0 {
            let error = os_error("epoll_ctl");
            // SAFETY: closing the descriptors created above.
            unsafe {
                libc::close(wake);
                libc::close(epoll);
            }
            return Err(error);
        }
        Ok(Arc::new(Dispatcher {
            epoll,
            wake,
            completions: Arc::new(Completions {
                wake,
                queue: Mutex::new(CompletionQueue::default()),
            }),
            incoming: Mutex::new(Vec::new()),
            stopping: AtomicBool::new(false),
            channels: AtomicUsize::new(0),
            thread: Mutex::new(None),
        }))
    }

    /// Starts the dispatcher's thread.
    pub(crate) fn spawn(
        self: &Arc<Self>,
        index: usize,
        chinit: Arc<ChinitShared>,
    ) -> std::io::Result<()> {
        let dispatcher = self.clone();
        let thread = std::thread::Builder::new()
            .name(format!("ferrite-dispatcher-{index}"))
            .stack_size(CONVERSATION_STACK_BYTES)
            .spawn(move || dispatcher.serve(&chinit, index))?;
        *self.thread.lock().unwrap() = Some(thread);
        Ok(())
    }

    /// Sockets this dispatcher serves (or is about to).
    pub(crate) fn channel_count(&self) -> usize {
        self.channels.load(Ordering::Relaxed)
    }

    /// Hands an accepted socket to the dispatcher.
    pub(crate) fn adopt(&self, stream: TcpStream, instance: Arc<ChannelInstance>) {
        self.channels.fetch_add(1, Ordering::Relaxed);
        self.incoming.lock().unwrap().push((stream, instance));
        self.notify();
    }

    fn notify(&self) {
        self.completions.notify();
    }

    /// Closes every socket (their conversations end) and ends the thread.
    pub(crate) fn stop(&self) {
        self.stopping.store(true, Ordering::Release);
        self.notify();
        if let Some(thread) = self.thread.lock().unwrap().take() {
            let _ = thread.join();
        }
    }

    fn serve(&self, chinit: &Arc<ChinitShared>, index: usize) {
        local_work::enter(Place::Dispatcher);
        // QCTDSP: each turn with events is timed; its requests are the events it served.
        let task = chinit
            .queue_manager
            .task_statistics(TaskKind::Dispatcher, index as u32);
        let mut channels: HashMap<u64, Channel> = HashMap::new();
        let mut events = vec![libc::epoll_event { events: 0, u64: 0 }; EVENTS_PER_WAIT];
        let mut buffer = vec![0u8; DISPATCHER_READ_BUFFER_BYTES];
        let mut completed: Vec<Arc<Conversation>> = Vec::new();
        let mut last_tick = Instant::now();
        loop {
            // Conversations still to run from the last turn: look at the sockets without
            // waiting, then run them.
            let timeout = if local_work::has_runs() {
                Duration::ZERO
            } else {
                DISPATCHER_TICK.saturating_sub(last_tick.elapsed())
            };
            // In whole milliseconds, rounded up: rounded down, the last millisecond before each
            // tick would be spent in epoll_wait calls that return at once (an idle dispatcher
            // then burnt ~1% of a processor).
            let timeout_ms = timeout.as_micros().div_ceil(1_000) as libc::c_int;
            // SAFETY: waiting on our epoll instance into a buffer of EVENTS_PER_WAIT events.
            let ready = unsafe {
                libc::epoll_wait(
                    self.epoll,
                    events.as_mut_ptr(),
                    EVENTS_PER_WAIT as libc::c_int,
                    timeout_ms,
                )
            };
            let turn_started = Instant::now();
            let ready = if ready < 0 {
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::Interrupted {
                    (chinit.log)(&format!("ferrite dispatcher: epoll_wait failed: {error}"));
                    std::thread::sleep(DISPATCHER_TICK);
                }
                0
            } else {
                ready as usize
            };
            for event in &events[..ready] {
                let (token, flags) = (event.u64, event.events);
                if token == WAKE_TOKEN {
                    let mut count = 0u64;
                    // SAFETY: reading 8 bytes from our eventfd.
                    unsafe {
                        libc::read(
                            self.wake,
                            &mut count as *mut u64 as *mut libc::c_void,
                            std::mem::size_of::<u64>(),
                        );
                    }
                    // Conversations whose commit is durable: run on this thread below.
                    self.completions.take(&mut completed);
                    for conversation in completed.drain(..) {
                        if let Err(conversation) = local_work::defer_run(conversation) {
                            chinit.adapters.schedule(conversation);
                        }
                    }
                    continue;
                }
                let Some(channel) = channels.get_mut(&token) else {
                    continue;
                };
                let mut outcome = Ok(());
                if flags & libc::EPOLLOUT as u32 != 0 {
                    outcome = channel.on_writable();
                }
                let readable =
                    (libc::EPOLLIN | libc::EPOLLRDHUP | libc::EPOLLHUP | libc::EPOLLERR) as u32;
                if outcome.is_ok() && flags & readable != 0 {
                    outcome = channel.on_readable(&mut buffer);
                }
                if let Err(end) = outcome {
                    self.close(chinit, &mut channels, token, end);
                }
            }
            // The conversations those flows (and what they did) made ready, on this thread;
            // then every socket they answered, written once.
            local_work::run(LOCAL_RUNS_PER_TURN_MAX);
            if self.stopping.load(Ordering::Acquire) {
                let tokens: Vec<u64> = channels.keys().copied().collect();
                for token in tokens {
                    self.close(chinit, &mut channels, token, End::Closed);
                }
                for (stream, instance) in std::mem::take(&mut *self.incoming.lock().unwrap()) {
                    let _ = stream.shutdown(std::net::Shutdown::Both);
                    chinit.forget_instance(instance.id);
                }
                // The ended conversations drop their sessions (backing out their work).
                while local_work::has_runs() {
                    local_work::run(LOCAL_RUNS_PER_TURN_MAX);
                }
                // A conversation whose commit the log has yet to answer ends on an adapter
                // once it does.
                for conversation in self.completions.stop() {
                    chinit.adapters.schedule(conversation);
                }
                return;
            }
            let adopted = std::mem::take(&mut *self.incoming.lock().unwrap());
            for (stream, instance) in adopted {
                self.register(chinit, &mut channels, stream, instance);
            }
            if last_tick.elapsed() >= DISPATCHER_TICK {
                last_tick = Instant::now();
                let ended: Vec<(u64, End)> = channels
                    .iter_mut()
                    .filter_map(|(&token, channel)| channel.tick().err().map(|end| (token, end)))
                    .collect();
                for (token, end) in ended {
                    self.close(chinit, &mut channels, token, end);
                }
            }
            // Heartbeats and refusals the timers sent.
            local_work::flush();
            if let Some(task) = task.as_deref() {
                if ready > 0 {
                    task.request(ready as u64, turn_started);
                }
            }
        }
    }

    fn register(
        &self,
        chinit: &Arc<ChinitShared>,
        channels: &mut HashMap<u64, Channel>,
        stream: TcpStream,
        instance: Arc<ChannelInstance>,
    ) {
        let token = instance.id;
        debug_assert_ne!(token, WAKE_TOKEN);
        if stream.set_nonblocking(true).is_err() {
            self.channels.fetch_sub(1, Ordering::Relaxed);
            chinit.forget_instance(token);
            return;
        }
        let fd = stream.as_raw_fd();
        let socket = Arc::new(ChannelSocket::new(
            instance,
            stream,
            self.epoll,
            token,
            self.completions.clone(),
        ));
        let mut event = libc::epoll_event {
            events: READ_INTEREST,
            u64: token,
        };
        // SAFETY: registering a socket we own with our epoll instance.
        if unsafe { libc::epoll_ctl(self.epoll, libc::EPOLL_CTL_ADD, fd, &mut event) } < 0 {
            (chinit.log)(&format!(
                "ferrite dispatcher: cannot watch a socket: {}",
                std::io::Error::last_os_error()
            ));
            let _ = socket.stream.shutdown(std::net::Shutdown::Both);
            self.channels.fetch_sub(1, Ordering::Relaxed);
            chinit.forget_instance(token);
            return;
        }
        channels.insert(token, Channel::new(chinit.clone(), socket));
    }

    fn close(
        &self,
        chinit: &ChinitShared,
        channels: &mut HashMap<u64, Channel>,
        token: u64,
        end: End,
    ) {
        if let Some(channel) = channels.remove(&token) {
            let handed_off = channel.close(end);
            self.channels.fetch_sub(1, Ordering::Relaxed);
            if !handed_off {
                chinit.forget_instance(token);
            }
        }
    }
}

impl Drop for Dispatcher {
    fn drop(&mut self) {
        // SAFETY: closing the epoll instance this dispatcher created; its thread has ended (it
        // holds a reference) and its sockets have left it. The eventfd is `Completions`'.
        unsafe {
            libc::close(self.epoll);
        }
    }
}
