//! The command server: threads that get MQSC commands from SYSTEM.COMMAND.INPUT and
//! SYSTEM.ADMIN.COMMAND.QUEUE (one thread per queue), run each, and send the response to the
//! request's reply-to queue, as MQ for z/OS's command server does.
//!
//! To run it inside a queue manager process, once the queue manager is open:
//!
//! ```no_run
//! # use std::sync::Arc;
//! # fn demo(queue_manager: Arc<ferrite_queue_manager::QueueManager>) {
//! let command_server = ferrite_command::CommandServer::start(queue_manager.clone());
//! // ... the queue manager runs ...
//! command_server.stop(); // before queue_manager.shutdown(); dropping the handle also stops it
//! # }
//! ```
//!
//! ## Requests and replies
//! - A request is one message on SYSTEM.COMMAND.INPUT whose data is one MQSC command (text;
//!   trailing blanks and NULs ignored; continuation lines allowed). It is got in syncpoint, the
//!   command run, the replies put in the same unit of work, then committed.
//! - The replies go to the request's ReplyToQ (ReplyToQMgr blank or this queue manager; others
//!   are not reachable until channels exist, and the reply is discarded with a message). A
//!   request without a ReplyToQ is run and its reply discarded.
//! - As MQ's command server replies to a program: first `CSQN205I COUNT=n, RETURN=rrrrrrrr,
//!   REASON=ssssssss` (COUNT counts every reply, this one included; RETURN=00000000 and
//!   REASON=00000000 on success, 0000000C and 00000008 on failure), then one message per MQ user
//!   message of the response: each displayed object's attributes in one message
//!   (`CSQM401I QM1 QUEUE(A) TYPE(QLOCAL) ...`), a multi-line report (DISPLAY USAGE) in one
//!   message, and last `CSQ9022I`/`CSQ9023E`.
//! - Each reply: MsgType MQMT_REPLY, Format MQSTR, Persistence and Priority of the request;
//!   CorrelId = the request's MsgId (MQRO_COPY_MSG_ID_TO_CORREL_ID, the default) or its
//!   CorrelId with MQRO_PASS_CORREL_ID; a new MsgId, or the request's with MQRO_PASS_MSG_ID;
//!   Expiry unlimited, or the request's remaining expiry with MQRO_PASS_DISCARD_AND_EXPIRY.
//!
//! ## PCF requests
//! A request whose Format is MQADMIN (or MQPCF), or whose data starts like an MQCFH (Type
//! MQCFT_COMMAND or MQCFT_COMMAND_XR, StrucLength 36), is a PCF command: it is decoded in the
//! byte order its MQMD Encoding names (`pcf.rs`) and run (`pcf_commands.rs`), and each
//! response goes to the ReplyToQ as its own message (Format MQADMIN, MsgType MQMT_REPLY,
//! CorrelId and MsgId as above, Encoding of the request), MQCFC_LAST on the last. A request
//! that is not a valid PCF command is answered by one MQCFH with CompCode MQCC_FAILED and the
//! MQRCCF_* reason of its fault; one longer than [`REQUEST_BYTES_MAX`] with
//! MQRCCF_MSG_LENGTH_ERROR.
//!
//! The server waits for requests with MQGMO_WAIT and a short interval ([`WAIT_INTERVAL_MS`]),
//! so it notices [`CommandServerHandle::stop`] within that time without polling in between;
//! it also ends when the queue manager quiesces or stops.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use ferrite_constants::{
    encoding::MQENC_INTEGER_REVERSED,
    format::{MQFMT_ADMIN, MQFMT_PCF, MQFMT_STRING},
    get_options::*,
    message_type::MQMT_REPLY,
    open_options::*,
    pcf::{MQCFH_STRUC_LENGTH, MQCFT_COMMAND, MQCFT_COMMAND_XR},
    put_options::*,
    reason::*,
    report::*,
};
use ferrite_mqi::{Connection, Hobj, MqError, Mqgmo, Mqmd, Mqod, Mqpmo};
use ferrite_queue_manager::{MessageSink, QueueManager};

use crate::{CommandOrigin, CommandProcessor, CommandResponse};

/// The queue MQSC requests arrive on.
pub const COMMAND_QUEUE: &str = "SYSTEM.COMMAND.INPUT";

/// The queue MQSC and PCF requests from remote administration tools arrive on.
pub const ADMIN_COMMAND_QUEUE: &str = "SYSTEM.ADMIN.COMMAND.QUEUE";

/// How long one MQGET waits before the server looks at its stop flag again.
pub const WAIT_INTERVAL_MS: i32 = 200;

/// The longest request accepted (MQ's limit for an MQSC command is 32,762 bytes).
pub const REQUEST_BYTES_MAX: usize = 32_762;

/// Starts command servers.
pub struct CommandServer;

/// A running command server; stops it when dropped.
pub struct CommandServerHandle {
    stop: Arc<StopSignal>,
    threads: Vec<JoinHandle<()>>,
    processed: Arc<std::sync::atomic::AtomicU64>,
}

struct StopSignal {
    stopped: AtomicBool,
    lock: Mutex<()>,
    wake: Condvar,
}

impl StopSignal {
    fn is_set(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    /// Sleep up to `duration`, returning early when stopped.
    fn sleep(&self, duration: Duration) {
        let guard = self.lock.lock().unwrap();
        if !self.is_set() {
            let _ = self.wake.wait_timeout(guard, duration).unwrap();
        }
    }

    fn set(&self) {
        let _guard = self.lock.lock().unwrap();
        self.stopped.store(true, Ordering::Release);
        self.wake.notify_all();
    }
}

impl CommandServer {
    /// Start the command server on SYSTEM.COMMAND.INPUT and SYSTEM.ADMIN.COMMAND.QUEUE of
    /// `queue_manager`; its operator messages (CSQN…) go to standard error.
    pub fn start(queue_manager: Arc<QueueManager>) -> CommandServerHandle {
        Self::start_processor(
            Arc::new(CommandProcessor::new(queue_manager)),
            &[COMMAND_QUEUE, ADMIN_COMMAND_QUEUE],
            Arc::new(|line: &str| eprintln!("{line}")),
        )
    }

    /// Start a command server on `queue` alone, with its operator messages to `messages`.
    pub fn start_with(
        queue_manager: Arc<QueueManager>,
        queue: &str,
        messages: MessageSink,
    ) -> CommandServerHandle {
        Self::start_processor(
            Arc::new(CommandProcessor::new(queue_manager)),
            &[queue],
            messages,
        )
    }

    /// Start a command server that runs the requests arriving on each of `queues` (one
    /// thread per queue) with `processor`, so the channel commands reach the channel
    /// initiator attached to it.
    pub fn start_processor(
        processor: Arc<CommandProcessor>,
        queues: &[&str],
        messages: MessageSink,
    ) -> CommandServerHandle {
        let stop = Arc::new(StopSignal {
            stopped: AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        });
        let processed = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let threads = queues
            .iter()
            .map(|queue| {
                let queue = queue.to_string();
                let stop = stop.clone();
                let processed = processed.clone();
                let processor = processor.clone();
                let messages = messages.clone();
                std::thread::Builder::new()
                    .name("command-server".to_string())
                    .spawn(move || serve(&processor, &queue, &stop, &processed, &messages))
                    .expect("spawn the command server thread")
            })
            .collect();
        CommandServerHandle {
            stop,
            threads,
            processed,
        }
    }
}

impl CommandServerHandle {
    /// Stop the server and wait for its thread (at most about one wait interval, or the time
    /// the command in progress takes).
    pub fn stop(mut self) {
        self.shutdown();
    }

    /// Whether the server thread is still running.
    pub fn is_running(&self) -> bool {
        self.threads.iter().any(|thread| !thread.is_finished())
    }

    /// Requests processed so far.
    pub fn requests_processed(&self) -> u64 {
        self.processed.load(Ordering::Relaxed)
    }

    fn shutdown(&mut self) {
        self.stop.set();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

impl Drop for CommandServerHandle {
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn ends_server(error: &MqError) -> bool {
    matches!(
        error.reason,
        MQRC_Q_MGR_STOPPING | MQRC_Q_MGR_QUIESCING | MQRC_Q_MGR_NOT_AVAILABLE
    )
}

fn serve(
    processor: &CommandProcessor,
    queue: &str,
    stop: &StopSignal,
    processed: &std::sync::atomic::AtomicU64,
    say: &MessageSink,
) {
    let queue_manager = processor.queue_manager();
    let name = queue_manager.name().to_string();
    // The command server is part of the queue manager: CHCKLOCL does not apply to it.
    let mut connection = match Connection::connect_authenticated(
        queue_manager.clone(),
        "",
        &ferrite_mqi::Mqcno::default(),
    ) {
        Ok(connection) => connection,
        Err(error) => {
            say(&format!(
                "CSQN203I {name} COMMAND SERVER CANNOT CONNECT: {} ({})",
                error.reason_name(),
                error.reason
            ));
            return;
        }
    };
    say(&format!("CSQN001I {name} COMMAND SERVER STARTED"));
    let mut input: Option<Hobj> = None;
    let mut reported_open_failure = false;
    let mut buffer = vec![0u8; REQUEST_BYTES_MAX + 1];
    while !stop.is_set() {
        let hobj = match input {
            Some(hobj) => hobj,
            None => match connection.open(
                &mut Mqod::queue(queue),
                MQOO_INPUT_SHARED | MQOO_FAIL_IF_QUIESCING,
            ) {
                Ok(hobj) => {
                    input = Some(hobj);
                    hobj
                }
                Err(error) if ends_server(&error) => break,
                Err(error) => {
                    // Not defined yet, perhaps: try again after a while.
                    if !reported_open_failure {
                        say(&format!(
                            "CSQN202I {name} COMMAND SERVER CANNOT OPEN {queue}: {} ({})",
                            error.reason_name(),
                            error.reason
                        ));
                        reported_open_failure = true;
                    }
                    stop.sleep(Duration::from_millis(WAIT_INTERVAL_MS as u64 * 5));
                    continue;
                }
            },
        };
        let mut request = Mqmd::default();
        let mut gmo = Mqgmo::with_options(
            MQGMO_WAIT | MQGMO_SYNCPOINT | MQGMO_FAIL_IF_QUIESCING | MQGMO_ACCEPT_TRUNCATED_MSG,
        );
        gmo.wait_interval = WAIT_INTERVAL_MS;
        let got = match connection.get(hobj, &mut request, &mut gmo, &mut buffer) {
            Ok(got) => got,
            Err(error) if error.reason == MQRC_NO_MSG_AVAILABLE => continue,
            Err(error) if ends_server(&error) => break,
            Err(error) => {
                say(&format!(
                    "CSQN204I {name} COMMAND SERVER GET FROM {queue} FAILED: {} ({})",
                    error.reason_name(),
                    error.reason
                ));
                let _ = connection.close(hobj, 0);
                input = None;
                stop.sleep(Duration::from_millis(WAIT_INTERVAL_MS as u64));
                continue;
            }
        };
        let returned = &buffer[..got.returned_length];
        let result = if is_pcf(&request, returned) {
            // A PCF command (pcf_commands.rs); a truncated one is answered as too long.
            let data = if got.data_length > returned.len() {
                &returned[..returned.len().min(MQCFH_STRUC_LENGTH as usize)]
            } else {
                returned
            };
            let responses = crate::pcf_commands::execute_from(
                processor,
                &CommandOrigin::message(&request),
                request.encoding,
                data,
            );
            reply(&mut connection, &name, &request, MQFMT_ADMIN, &responses)
        } else {
            let response = if got.data_length > REQUEST_BYTES_MAX {
                too_long(&name, got.data_length)
            } else {
                let text = String::from_utf8_lossy(returned);
                processor.run_from(
                    &CommandOrigin::message(&request),
                    text.trim_end_matches(|c: char| c == '\0' || c.is_whitespace()),
                )
            };
            let messages: Vec<Vec<u8>> = reply_messages(&response)
                .into_iter()
                .map(String::into_bytes)
                .collect();
            reply(&mut connection, &name, &request, MQFMT_STRING, &messages)
        };
        if let Err(error) = result {
            say(&format!(
                "CSQN206I {name} COMMAND SERVER REPLY TO {} FAILED, REPLY DISCARDED: {} ({})",
                request.reply_to_q.trim(),
                error.reason_name(),
                error.reason
            ));
            // The replies already put are backed out with the get; the request is consumed
            // (MQ would send the replies to the dead-letter queue).
            let _ = connection.backout();
            let mut again = Mqmd {
                msg_id: request.msg_id,
                ..Mqmd::default()
            };
            let mut gmo = Mqgmo::matching(
                MQGMO_NO_SYNCPOINT | MQGMO_ACCEPT_TRUNCATED_MSG,
                ferrite_constants::match_options::MQMO_MATCH_MSG_ID,
            );
            let _ = connection.get(hobj, &mut again, &mut gmo, &mut buffer);
        } else if let Err(error) = connection.commit() {
            say(&format!(
                "CSQN207I {name} COMMAND SERVER COMMIT FAILED: {} ({})",
                error.reason_name(),
                error.reason
            ));
        }
        processed.fetch_add(1, Ordering::Relaxed);
    }
    if let Some(hobj) = input {
        let _ = connection.close(hobj, 0);
    }
    let _ = connection.disconnect();
    say(&format!("CSQN005I {name} COMMAND SERVER STOPPED"));
}

fn too_long(name: &str, length: usize) -> CommandResponse {
    let failure = [
        format!(
            "CSQN208E {name} COMMAND REQUEST OF {length} BYTES IS LONGER THAN {REQUEST_BYTES_MAX}"
        ),
        format!("CSQ9023E {name} CSQ9SCND ' ' ABNORMAL COMPLETION"),
    ];
    CommandResponse {
        lines: failure.to_vec(),
        messages: failure.to_vec(),
        success: false,
    }
}

/// The reply messages for `response`: CSQN205I, then each message of the response.
pub fn reply_messages(response: &CommandResponse) -> Vec<String> {
    let (return_code, reason) = if response.success {
        (0, 0)
    } else {
        (0x0C, 0x08)
    };
    let mut messages = vec![format!(
        "CSQN205I    COUNT={:>8}, RETURN={return_code:08X}, REASON={reason:08X}",
        response.messages.len() + 1
    )];
    messages.extend(response.messages.iter().cloned());
    messages
}

/// Whether a request is a PCF command: by its Format, or by data that starts like an MQCFH.
fn is_pcf(request: &Mqmd, data: &[u8]) -> bool {
    if request.format == MQFMT_ADMIN || request.format == MQFMT_PCF {
        return true;
    }
    let header = PcfHeader::read(request, data);
    data.len() >= MQCFH_STRUC_LENGTH as usize
        && matches!(header.kind, MQCFT_COMMAND | MQCFT_COMMAND_XR)
        && header.length == MQCFH_STRUC_LENGTH
}

/// The first fields of an MQCFH, read in the request's integer encoding.
struct PcfHeader {
    kind: i32,
    length: i32,
}

impl PcfHeader {
    fn read(request: &Mqmd, data: &[u8]) -> PcfHeader {
        let field = |index: usize| -> i32 {
            let Some(bytes) = data.get(index * 4..index * 4 + 4) else {
                return 0;
            };
            let bytes: [u8; 4] = bytes.try_into().expect("four bytes");
            if big_endian(request) {
                i32::from_be_bytes(bytes)
            } else {
                i32::from_le_bytes(bytes)
            }
        };
        PcfHeader {
            kind: field(0),
            length: field(1),
        }
    }
}

/// MQENC_INTEGER_NORMAL (big-endian) unless the Encoding says reversed.
fn big_endian(request: &Mqmd) -> bool {
    request.encoding & MQENC_INTEGER_REVERSED == 0
}

fn reply(
    connection: &mut Connection,
    queue_manager: &str,
    request: &Mqmd,
    format: [u8; 8],
    messages: &[Vec<u8>],
) -> Result<(), MqError> {
    let reply_to = request.reply_to_q.trim();
    if reply_to.is_empty() {
        return Ok(());
    }
    let reply_to_q_mgr = request.reply_to_q_mgr.trim();
    if !reply_to_q_mgr.is_empty() && reply_to_q_mgr != queue_manager {
        // Remote queue managers are reached through channels, which do not exist yet.
        return Err(MqError::failed(MQRC_UNKNOWN_REMOTE_Q_MGR));
    }
    let hobj = connection.open(&mut Mqod::queue(reply_to), MQOO_OUTPUT)?;
    let result = (|| {
        for data in messages {
            let mut md = Mqmd {
                msg_type: MQMT_REPLY,
                format,
                encoding: request.encoding,
                persistence: request.persistence,
                priority: request.priority,
                ..Mqmd::default()
            };
            md.correl_id = if request.report & MQRO_PASS_CORREL_ID != 0 {
                request.correl_id
            } else {
                request.msg_id
            };
            let mut options = MQPMO_SYNCPOINT;
            if request.report & MQRO_PASS_MSG_ID != 0 {
                md.msg_id = request.msg_id;
            } else {
                options |= MQPMO_NEW_MSG_ID;
            }
            if request.report & MQRO_PASS_DISCARD_AND_EXPIRY != 0 {
                md.expiry = request.expiry;
            }
            connection.put(hobj, &mut md, &mut Mqpmo::with_options(options), data)?;
        }
        Ok(())
    })();
    let _ = connection.close(hobj, 0);
    result
}
