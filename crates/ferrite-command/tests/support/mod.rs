//! What only the command tests share: a channel initiator double and PCF requests. The
//! queue manager and MQI helpers are ferrite_test_kit's.
#![allow(dead_code)]

/// A channel initiator double for the channel commands: two instances of APP.SVRCONN, a TCP
/// listener running on `port`; stopping a channel removes its instances, the listener can be
/// stopped and started again (starting it while it runs fails, as a port in use would).
pub struct FakeInitiator {
    state: std::sync::Mutex<(Vec<ChannelInstanceStatus>, ListenerStatus)>,
}

use ferrite_command::{ChannelInitiator, ChannelInstanceStatus, ListenerStatus};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

impl FakeInitiator {
    pub fn new(port: u16) -> FakeInitiator {
        let started = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let instance = |connection_name: &str, messages: u64| ChannelInstanceStatus {
            channel: "APP.SVRCONN".to_string(),
            connection_name: connection_name.to_string(),
            status: "RUNNING".to_string(),
            current_conversations: 2,
            messages,
            bytes_sent: messages * 1000,
            bytes_received: messages * 900,
            started,
            last_message: (messages > 0).then(|| started + Duration::from_secs(60)),
            heartbeat_interval: 300,
            max_message_length: 4_194_304,
            max_shared_conversations: 10,
        };
        FakeInitiator {
            state: std::sync::Mutex::new((
                vec![
                    instance("192.0.2.7(51234)", 42),
                    instance("192.0.2.8(40000)", 0),
                ],
                ListenerStatus {
                    port,
                    ip_address: String::new(),
                    running: true,
                    started: Some(started),
                },
            )),
        }
    }
}

impl ChannelInitiator for FakeInitiator {
    fn channel_statuses(&self) -> Vec<ChannelInstanceStatus> {
        self.state.lock().unwrap().0.clone()
    }

    fn stop_channel(&self, name: &str) -> Result<usize, String> {
        let mut state = self.state.lock().unwrap();
        let before = state.0.len();
        state.0.retain(|instance| instance.channel != name);
        Ok(before - state.0.len())
    }

    fn start_listener(&self, port: Option<u16>) -> Result<ListenerStatus, String> {
        let mut state = self.state.lock().unwrap();
        if state.1.running {
            return Err(format!(
                "the listener is already running on port {}",
                state.1.port
            ));
        }
        state.1 = ListenerStatus {
            port: port.unwrap_or(state.1.port),
            ip_address: String::new(),
            running: true,
            started: Some(SystemTime::now()),
        };
        Ok(state.1.clone())
    }

    fn stop_listener(&self) -> Result<(), String> {
        let mut state = self.state.lock().unwrap();
        if !state.1.running {
            return Err("the listener is not running".to_string());
        }
        state.1.running = false;
        state.1.started = None;
        Ok(())
    }

    fn listener_status(&self) -> ListenerStatus {
        self.state.lock().unwrap().1.clone()
    }
}

/// A PCF command message (MQCFT_COMMAND, the only message of its request).
pub fn pcf_request(
    command: i32,
    parameters: Vec<ferrite_command::pcf::Parameter>,
) -> ferrite_command::pcf::PcfMessage {
    use ferrite_constants::pcf::*;
    ferrite_command::pcf::PcfMessage {
        header: ferrite_command::pcf::PcfHeader {
            kind: MQCFT_COMMAND,
            version: MQCFH_VERSION_1,
            command,
            msg_seq_number: 1,
            control: MQCFC_LAST,
            comp_code: 0,
            reason: 0,
            parameter_count: parameters.len() as i32,
        },
        parameters,
    }
}

/// Run PCF `command` with `parameters` through the command server's PCF path, as bytes in
/// MQENC_INTEGER_NORMAL, and decode every response.
pub fn send_pcf(
    processor: &ferrite_command::CommandProcessor,
    command: i32,
    parameters: Vec<ferrite_command::pcf::Parameter>,
) -> Vec<ferrite_command::pcf::PcfMessage> {
    use ferrite_command::pcf::{decode_response, encode, ByteOrder};
    ferrite_command::pcf_commands::execute(
        processor,
        ferrite_constants::encoding::MQENC_INTEGER_NORMAL,
        &encode(&pcf_request(command, parameters), ByteOrder::Normal),
    )
    .iter()
    .map(|data| decode_response(data, ByteOrder::Normal).expect("a valid response"))
    .collect()
}

/// Run MQSC `command` and expect success: the response's text.
pub fn mqsc_ok(
    queue_manager: &std::sync::Arc<ferrite_queue_manager::QueueManager>,
    command: &str,
) -> String {
    let response = ferrite_command::run_command(queue_manager, command);
    assert!(response.success, "{command}\n{}", response.text());
    response.text()
}

/// Run MQSC `command` and expect it to fail: the response's text.
pub fn mqsc_fails(
    queue_manager: &std::sync::Arc<ferrite_queue_manager::QueueManager>,
    command: &str,
) -> String {
    let response = ferrite_command::run_command(queue_manager, command);
    assert!(
        !response.success,
        "{command} should fail\n{}",
        response.text()
    );
    response.text()
}

/// Open the queue manager in `directory` again (after a shutdown, or a crash: a drop without
/// one).
pub fn reopen(directory: &std::path::Path) -> std::sync::Arc<ferrite_queue_manager::QueueManager> {
    ferrite_queue_manager::QueueManager::open(
        std::sync::Arc::new(ferrite_storage::vfs::RealFileSystem),
        directory,
        std::sync::Arc::new(|_: &str| {}),
    )
    .unwrap()
}
