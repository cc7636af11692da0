//! `/metrics`: the queue manager's figures in Prometheus' text exposition format (version
//! 0.0.4), named as IBM's mq-metric-samples exporter names them where it has a name
//! (`ibmmq_queue_depth`, `ibmmq_queue_oldest_message_age`, `ibmmq_queue_input_handles`,
//! `ibmmq_queue_mqput_mqput1_count`, `ibmmq_channel_messages`, ...), with its `qmgr`,
//! `queue` and `channel` labels. The z/OS figures it has no name for (the buffer manager's
//! QPST and the log manager's QJST counters) are `ibmmq_bufferpool_*` and `ibmmq_log_*`, one
//! per MQ field, the field named in the HELP text.
//!
//! Read straight from the queue manager (no command runs, nothing is reset): a scrape costs a
//! lock per queue and one browse per non-empty queue (for the oldest message's age).

use std::fmt::Write;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use ferrite_queue_manager::queue_manager::MessageSelector;
use ferrite_queue_manager::QueueManager;

use crate::authentication::Caller;
use crate::errors::{RestError, RestResult};
use crate::roles::Role;
use crate::{blocking, Web};

/// The exposition format's media type.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A metric family being written: its samples follow one HELP and TYPE.
struct Family<'a> {
    text: &'a mut String,
}

impl Family<'_> {
    fn sample(&mut self, name: &str, labels: &[(&str, &str)], value: f64) {
        self.text.push_str(name);
        if !labels.is_empty() {
            self.text.push('{');
            for (index, (label, value)) in labels.iter().enumerate() {
                if index > 0 {
                    self.text.push(',');
                }
                let _ = write!(self.text, "{label}=\"{}\"", escape(value));
            }
            self.text.push('}');
        }
        let _ = writeln!(self.text, " {value}");
    }
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// The exposition being written.
#[derive(Default)]
pub struct Exposition {
    text: String,
}

impl Exposition {
    fn family(&mut self, name: &str, kind: &str, help: &str) -> Family<'_> {
        let _ = writeln!(self.text, "# HELP {name} {help}");
        let _ = writeln!(self.text, "# TYPE {name} {kind}");
        Family {
            text: &mut self.text,
        }
    }

    /// One family with one sample per item.
    fn each<T>(
        &mut self,
        name: &str,
        kind: &str,
        help: &str,
        items: &[T],
        sample: impl Fn(&T) -> (Vec<(&str, String)>, f64),
    ) {
        let mut family = self.family(name, kind, help);
        for item in items {
            let (labels, value) = sample(item);
            let labels: Vec<(&str, &str)> = labels.iter().map(|(k, v)| (*k, v.as_str())).collect();
            family.sample(name, &labels, value);
        }
    }

    pub fn text(self) -> String {
        self.text
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}

/// A metric of a table: its name, its help and how to read it from an item.
type Row<T, V> = (&'static str, &'static str, fn(&T) -> V);

/// One local queue's figures.
struct QueueFigures {
    name: String,
    usage: &'static str,
    depth: u64,
    max_depth: u32,
    input_handles: u64,
    output_handles: u64,
    uncommitted: u64,
    oldest_age_seconds: Option<u64>,
    messages_in: u64,
    messages_out: u64,
    high_depth: u64,
    since_put_seconds: Option<u64>,
    since_get_seconds: Option<u64>,
}

fn queue_figures(queue_manager: &QueueManager) -> Vec<QueueFigures> {
    let now = now_ms();
    let since = |ms: u64| (ms != 0).then(|| now.saturating_sub(ms) / 1000);
    let mut figures: Vec<QueueFigures> = queue_manager
        .queues()
        .iter()
        .map(|queue| {
            let status = queue.status();
            let statistics = queue.statistics();
            let (max_depth, transmission) = queue.with_definition(|definition| {
                (definition.max_depth, definition.usage_transmission)
            });
            let oldest_age_seconds = queue.oldest_entry().and_then(|entry| {
                let selector = MessageSelector {
                    key: Some(entry.key),
                    ..MessageSelector::default()
                };
                let message = queue_manager.browse(queue, &selector, None).ok()??;
                Some(now.saturating_sub(message.descriptor.put_time_ms) / 1000)
            });
            QueueFigures {
                name: queue.name(),
                usage: if transmission { "XMITQ" } else { "NORMAL" },
                depth: status.current_depth,
                max_depth,
                input_handles: status.open_input_count,
                output_handles: status.open_output_count,
                uncommitted: status.uncommitted,
                oldest_age_seconds,
                messages_in: statistics.messages_in,
                messages_out: statistics.messages_out,
                high_depth: statistics.high_depth,
                since_put_seconds: since(status.last_put_ms),
                since_get_seconds: since(status.last_get_ms),
            }
        })
        .collect();
    figures.sort_by(|a, b| a.name.cmp(&b.name));
    figures
}

fn write_queues(exposition: &mut Exposition, qmgr: &str, queues: &[QueueFigures]) {
    let labels = |queue: &QueueFigures| {
        vec![
            ("qmgr", qmgr.to_string()),
            ("queue", queue.name.clone()),
            ("usage", queue.usage.to_string()),
        ]
    };
    let gauges: [Row<QueueFigures, f64>; 9] = [
        ("ibmmq_queue_depth", "Queue depth (CURDEPTH)", |q| {
            q.depth as f64
        }),
        (
            "ibmmq_queue_attribute_max_depth",
            "Queue Max Depth (MAXDEPTH)",
            |q| q.max_depth as f64,
        ),
        (
            "ibmmq_queue_input_handles",
            "Input Handles (IPPROCS)",
            |q| q.input_handles as f64,
        ),
        (
            "ibmmq_queue_output_handles",
            "Output Handles (OPPROCS)",
            |q| q.output_handles as f64,
        ),
        (
            "ibmmq_queue_uncommitted_messages",
            "Uncommitted Messages (Count)",
            |q| q.uncommitted as f64,
        ),
        (
            "ibmmq_queue_oldest_message_age",
            "Oldest Message (MSGAGE), seconds; -1 when the queue is empty",
            |q| q.oldest_age_seconds.map_or(-1.0, |age| age as f64),
        ),
        (
            "ibmmq_queue_hi_depth",
            "Highest Depth (HIQDEPTH) since the statistics were last reset",
            |q| q.high_depth as f64,
        ),
        (
            "ibmmq_queue_time_since_put",
            "Time Since Put, seconds; -1 before the first put",
            |q| q.since_put_seconds.map_or(-1.0, |age| age as f64),
        ),
        (
            "ibmmq_queue_time_since_get",
            "Time Since Get, seconds; -1 before the first get",
            |q| q.since_get_seconds.map_or(-1.0, |age| age as f64),
        ),
    ];
    for (name, help, value) in gauges {
        exposition.each(name, "gauge", help, queues, |queue| {
            (labels(queue), value(queue))
        });
    }
    exposition.each(
        "ibmmq_queue_mqput_mqput1_count",
        "counter",
        "Put/Put1 Count: messages made available on the queue (MSGSIN) since the statistics were last reset",
        queues,
        |queue| (labels(queue), queue.messages_in as f64),
    );
    exposition.each(
        "ibmmq_queue_mqget_count",
        "counter",
        "Get Count: messages got (MSGSOUT) since the statistics were last reset",
        queues,
        |queue| (labels(queue), queue.messages_out as f64),
    );
}

fn write_queue_manager(exposition: &mut Exposition, queue_manager: &QueueManager) {
    let qmgr = queue_manager.name().to_string();
    let connections = queue_manager.connections().all();
    let handles: u64 = connections
        .iter()
        .map(|c| u64::from(c.open_handles()))
        .sum();
    let rows = [
        (
            "ibmmq_qmgr_status",
            "Queue manager status (1: running)",
            1.0,
        ),
        (
            "ibmmq_qmgr_connection_count",
            "Connection Count",
            connections.len() as f64,
        ),
        (
            "ibmmq_qmgr_open_handles",
            "Object handles open by all connections",
            handles as f64,
        ),
    ];
    for (name, help, value) in rows {
        exposition
            .family(name, "gauge", help)
            .sample(name, &[("qmgr", &qmgr)], value);
    }
    let name = "ibmmq_qmgr_checkpoints_total";
    exposition
        .family(
            name,
            "counter",
            "Checkpoints taken since the queue manager started",
        )
        .sample(
            name,
            &[("qmgr", &qmgr)],
            queue_manager.checkpoints_taken() as f64,
        );
}

fn write_buffer_pools(exposition: &mut Exposition, queue_manager: &QueueManager) {
    let qmgr = queue_manager.name().to_string();
    let pools = queue_manager.buffer_pool_statistics();
    type Field = fn(&ferrite_storage::buffer_pool::BufferPoolStatistics) -> u64;
    let fields: [(&str, &str, &str, Field); 9] = [
        (
            "ibmmq_bufferpool_buffers_total",
            "gauge",
            "Buffers in the pool (QPSTNBUF)",
            |s| s.qpstnbuf,
        ),
        (
            "ibmmq_bufferpool_buffers_free",
            "gauge",
            "Stealable buffers now (QPSTCBS)",
            |s| s.qpstcbs,
        ),
        (
            "ibmmq_bufferpool_buffers_free_lowest",
            "gauge",
            "Lowest stealable buffers since the statistics were reset (QPSTCBSL)",
            |s| s.qpstcbsl,
        ),
        (
            "ibmmq_bufferpool_getpage_persistent_total",
            "counter",
            "Get page requests for pages wanted whole (QPSTGETP)",
            |s| s.qpstgetp,
        ),
        (
            "ibmmq_bufferpool_getpage_new_total",
            "counter",
            "Get page requests for new pages (QPSTGETN)",
            |s| s.qpstgetn,
        ),
        (
            "ibmmq_bufferpool_read_ios_total",
            "counter",
            "Synchronous page reads (QPSTRIO)",
            |s| s.qpstrio,
        ),
        (
            "ibmmq_bufferpool_write_ios_total",
            "counter",
            "Page write I/Os (QPSTWIO)",
            |s| s.qpstwio,
        ),
        (
            "ibmmq_bufferpool_pages_written_total",
            "counter",
            "Pages written (QPSTTPW)",
            |s| s.qpsttpw,
        ),
        (
            "ibmmq_bufferpool_short_on_storage_total",
            "counter",
            "Times the pool ran out of stealable buffers (QPSTSOS)",
            |s| s.qpstsos,
        ),
    ];
    for (name, kind, help, field) in fields {
        exposition.each(name, kind, help, &pools, |(id, statistics)| {
            (
                vec![("qmgr", qmgr.clone()), ("bufferpool", id.0.to_string())],
                field(statistics) as f64,
            )
        });
    }
}

fn write_log(exposition: &mut Exposition, queue_manager: &QueueManager) {
    let qmgr = queue_manager.name().to_string();
    let log = queue_manager.log_statistics();
    let rows = [
        (
            "ibmmq_log_write_waits_total",
            "Log appends that waited (QJSTWRW)",
            log.qjstwrw,
        ),
        (
            "ibmmq_log_write_nowaits_total",
            "Log appends that did not wait (QJSTWRNW)",
            log.qjstwrnw,
        ),
        (
            "ibmmq_log_force_requests_total",
            "Log force requests (QJSTWRF)",
            log.qjstwrf,
        ),
        (
            "ibmmq_log_buffer_waits_total",
            "Waits for a free log buffer (QJSTWTB)",
            log.qjstwtb,
        ),
        (
            "ibmmq_log_pages_created_total",
            "Log pages (CIs) created (QJSTBFFL)",
            log.qjstbffl,
        ),
        (
            "ibmmq_log_writer_calls_total",
            "Calls to the log writer (QJSTBFWR)",
            log.qjstbfwr,
        ),
        (
            "ibmmq_log_suspends_total",
            "Forces that found their RBA not yet durable (QJSTLSUS)",
            log.qjstlsus,
        ),
        (
            "ibmmq_log_bytes_written_total",
            "Bytes written to active log copy 1",
            log.bytes_written[0],
        ),
        (
            "ibmmq_log_write_syncs_total",
            "Log write syncs",
            log.write_syncs,
        ),
    ];
    for (name, help, value) in rows {
        exposition
            .family(name, "counter", help)
            .sample(name, &[("qmgr", &qmgr)], value as f64);
    }
}

fn write_channels(exposition: &mut Exposition, qmgr: &str, web: &Web) {
    let Some(initiator) = web.processor().channel_initiator() else {
        return;
    };
    let channels = initiator.channel_statuses();
    let labels = |status: &ferrite_command::ChannelInstanceStatus| {
        vec![
            ("qmgr", qmgr.to_string()),
            ("channel", status.channel.clone()),
            ("connname", status.connection_name.clone()),
        ]
    };
    exposition.each(
        "ibmmq_channel_status",
        "gauge",
        "Channel Status (MQCHS_*: 3 running)",
        &channels,
        |status| (labels(status), channel_state(&status.status) as f64),
    );
    let counters: [Row<ferrite_command::ChannelInstanceStatus, u64>; 3] = [
        (
            "ibmmq_channel_messages",
            "Messages (MSGS) since the channel instance started",
            |s| s.messages,
        ),
        ("ibmmq_channel_bytes_sent", "Bytes sent (BYTSSENT)", |s| {
            s.bytes_sent
        }),
        (
            "ibmmq_channel_bytes_rcvd",
            "Bytes received (BYTSRCVD)",
            |s| s.bytes_received,
        ),
    ];
    for (name, help, value) in counters {
        exposition.each(name, "counter", help, &channels, |status| {
            (labels(status), value(status) as f64)
        });
    }
}

/// MQCHS_* of a DISPLAY CHSTATUS STATUS value.
fn channel_state(status: &str) -> i32 {
    match status {
        "BINDING" => 1,
        "STARTING" => 2,
        "RUNNING" => 3,
        "STOPPING" => 4,
        "RETRYING" => 5,
        "STOPPED" => 6,
        "REQUESTING" => 7,
        "PAUSED" => 8,
        "DISCONNECTED" => 9,
        "INITIALIZING" => 13,
        "SWITCHING" => 14,
        _ => 0,
    }
}

/// The whole exposition.
pub fn expose(web: &Web) -> String {
    let queue_manager = web.queue_manager();
    let mut exposition = Exposition::default();
    write_queue_manager(&mut exposition, queue_manager);
    write_queues(
        &mut exposition,
        queue_manager.name(),
        &queue_figures(queue_manager),
    );
    write_channels(&mut exposition, queue_manager.name(), web);
    write_buffer_pools(&mut exposition, queue_manager);
    write_log(&mut exposition, queue_manager);
    exposition.text()
}

/// GET /metrics (MQWebAdmin or MQWebAdminRO: the figures of every queue).
pub async fn metrics(
    State(web): State<Arc<Web>>,
    Extension(caller): Extension<Caller>,
) -> RestResult<Response> {
    if !caller.has(Role::MqWebAdmin) && !caller.has(Role::MqWebAdminRo) {
        return Err(RestError::not_authorized(
            "read the metrics (they need MQWebAdmin or MQWebAdminRO)",
        ));
    }
    let text = blocking(&web, |web| Ok(expose(web))).await?;
    Ok(([(header::CONTENT_TYPE, CONTENT_TYPE)], text).into_response())
}
