//! MQ distributed's statistics and accounting messages: at each statistics interval an MQI
//! statistics message (MQCFT_STATISTICS, MQCMD_STATISTICS_MQI) on
//! SYSTEM.ADMIN.STATISTICS.QUEUE when the queue manager's STATMQI is ON, a queue statistics
//! message (MQCMD_STATISTICS_Q) for the queues whose STATQ asked, a channel statistics
//! message (MQCMD_STATISTICS_CHANNEL) for the message channels whose STATCHL asked; when a connection
//! ends, an MQI accounting message (MQCFT_ACCOUNTING, MQCMD_ACCOUNTING_MQI) on
//! SYSTEM.ADMIN.ACCOUNTING.QUEUE, and its record in `accounting.jsonl`, when ACCTMQI is ON.
//! Their counts are the message manager's (ferrite-queue-manager's statistics/mqi.rs): the
//! interval's for statistics, the connection's life for accounting. Parameters are those of
//! MQ's "MQI statistics message data" and "MQI accounting message data"; a count MQ breaks
//! down by persistence is an MQCFIL (MQCFIL64 for bytes) of [non-persistent, persistent]; a
//! count MQ breaks down by object type is given as one MQCFIN total.

use std::sync::Arc;

use ferrite_constants::{
    completion::MQCC_OK, format::MQFMT_ADMIN, lengths::*, misc::MQDISCONNECT_NORMAL, pcf::*,
    pcf_selector::*, persistence::*, queue_type::MQQT_LOCAL, selector::*,
};
use ferrite_protocol::ByteOrder;
use ferrite_queue_manager::statistics::records::iso_time;
use ferrite_queue_manager::statistics::{
    ChannelIntervalRecord, IntervalRecords, MqiCounter, MqiStatistics,
};
use ferrite_queue_manager::{now_ms, ConnectionRecord, QueueManager};

use crate::connection::queue_accounting::QueueAccounting;
use crate::connection::verb_accounting::VerbAccounting;
use crate::event_writer::EventWriter;
use crate::queue_manager_put::{put_message, queue_manager_descriptor};

/// Where statistics messages go.
pub const STATISTICS_QUEUE: &str = "SYSTEM.ADMIN.STATISTICS.QUEUE";
/// Where accounting messages go.
pub const ACCOUNTING_QUEUE: &str = "SYSTEM.ADMIN.ACCOUNTING.QUEUE";

/// Put the statistics messages of each closed interval (idempotent; MQCONN calls it).
pub fn install(queue_manager: &QueueManager) {
    queue_manager.set_statistics_observer(Arc::new(
        |queue_manager: &QueueManager, records: &IntervalRecords| {
            if queue_manager.queue_manager_attributes().statistics_mqi == "ON" {
                let data = statistics_mqi(queue_manager.name(), records);
                put_admin(queue_manager, STATISTICS_QUEUE, &data);
            }
            if !records.queues.is_empty() {
                let data = statistics_q(queue_manager.name(), records);
                put_admin(queue_manager, STATISTICS_QUEUE, &data);
            }
            for data in statistics_channel(queue_manager.name(), records) {
                put_admin(queue_manager, STATISTICS_QUEUE, &data);
            }
        },
    ));
}

fn writer(cfh_type: i32, command: i32) -> EventWriter {
    let order = ByteOrder::from_mq_encoding(ferrite_constants::encoding::MQENC_NATIVE)
        .expect("native integer encoding");
    EventWriter::with_header(cfh_type, MQCFH_VERSION_3, command, MQCC_OK, 0, order)
}

/// MQ's date and time fields of `ms`: "yyyy-mm-dd" and "hh.mm.ss".
fn date_and_time(ms: u64) -> (String, String) {
    let iso = iso_time(ms);
    (iso[..10].to_string(), iso[11..19].replace(':', "."))
}

/// What every statistics and accounting message starts with: the queue manager, the
/// interval's start and end, and the command level.
fn interval_header(message: &mut EventWriter, queue_manager: &str, start_ms: u64, end_ms: u64) {
    message.string(MQCA_Q_MGR_NAME, queue_manager, MQ_Q_MGR_NAME_LENGTH);
    dates(message, (MQCAMO_START_DATE, MQCAMO_START_TIME), start_ms);
    dates(message, (MQCAMO_END_DATE, MQCAMO_END_TIME), end_ms);
    message.integer(MQIA_COMMAND_LEVEL, MQCMDL_CURRENT_LEVEL);
}

fn dates(message: &mut EventWriter, (date, time): (i32, i32), ms: u64) {
    let (day, clock) = date_and_time(ms);
    message
        .string(date, &day, MQ_DATE_LENGTH)
        .string(time, &clock, MQ_TIME_LENGTH);
}

/// A count as an MQLONG (saturating: MQ's counts are 32-bit).
fn long(value: u64) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

fn long64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// The counts both messages carry, from `mqi`.
fn mqi_counts(message: &mut EventWriter, mqi: &MqiStatistics) {
    let c = |counter| mqi.get(counter);
    let pair = |non_persistent: MqiCounter, persistent: MqiCounter| {
        [long(c(non_persistent)), long(c(persistent))]
    };
    message
        .integer(MQIAMO_OPENS, long(c(MqiCounter::Open)))
        .integer(MQIAMO_OPENS_FAILED, long(c(MqiCounter::OpenFailed)))
        .integer(MQIAMO_CLOSES, long(c(MqiCounter::Close)))
        .integer(MQIAMO_CLOSES_FAILED, long(c(MqiCounter::CloseFailed)))
        .integer(MQIAMO_INQS, long(c(MqiCounter::Inq)))
        .integer(MQIAMO_INQS_FAILED, long(c(MqiCounter::InqFailed)))
        .integer(MQIAMO_SETS, long(c(MqiCounter::Set)))
        .integer(MQIAMO_SETS_FAILED, long(c(MqiCounter::SetFailed)))
        .integer_list(
            MQIAMO_PUTS,
            &[
                long(
                    c(MqiCounter::NonPersistentPuts)
                        .saturating_sub(c(MqiCounter::Put1NonPersistent)),
                ),
                long(c(MqiCounter::PersistentPuts).saturating_sub(c(MqiCounter::Put1Persistent))),
            ],
        )
        .integer(MQIAMO_PUTS_FAILED, long(c(MqiCounter::PutFailed)))
        .integer_list(
            MQIAMO_PUT1S,
            &pair(MqiCounter::Put1NonPersistent, MqiCounter::Put1Persistent),
        )
        .integer(MQIAMO_PUT1S_FAILED, long(c(MqiCounter::Put1Failed)))
        .integer64_list(
            MQIAMO64_PUT_BYTES,
            &[
                long64(c(MqiCounter::NonPersistentPutBytes)),
                long64(c(MqiCounter::PersistentPutBytes)),
            ],
        )
        .integer_list(
            MQIAMO_GETS,
            &pair(MqiCounter::NonPersistentGets, MqiCounter::PersistentGets),
        )
        .integer(MQIAMO_GETS_FAILED, long(c(MqiCounter::GetFailed)))
        .integer64_list(
            MQIAMO64_GET_BYTES,
            &[
                long64(c(MqiCounter::NonPersistentGetBytes)),
                long64(c(MqiCounter::PersistentGetBytes)),
            ],
        )
        .integer_list(
            MQIAMO_BROWSES,
            &pair(
                MqiCounter::NonPersistentBrowses,
                MqiCounter::PersistentBrowses,
            ),
        )
        .integer64_list(
            MQIAMO64_BROWSE_BYTES,
            &[
                long64(c(MqiCounter::NonPersistentBrowseBytes)),
                long64(c(MqiCounter::PersistentBrowseBytes)),
            ],
        )
        .integer(MQIAMO_COMMITS, long(c(MqiCounter::Commit)))
        .integer(MQIAMO_COMMITS_FAILED, long(c(MqiCounter::CommitFailed)))
        .integer(MQIAMO_BACKOUTS, long(c(MqiCounter::Backout)))
        .integer(MQIAMO_STATS, long(c(MqiCounter::Status)))
        .integer_list(
            MQIAMO_SUBS_DUR,
            &[
                long(c(MqiCounter::SubscribeDurableCreate)),
                long(c(MqiCounter::SubscribeDurableAlter)),
                long(c(MqiCounter::SubscribeDurableResume)),
            ],
        )
        .integer_list(
            MQIAMO_SUBS_NDUR,
            &[
                long(c(MqiCounter::SubscribeNonDurableCreate)),
                long(c(MqiCounter::SubscribeNonDurableAlter)),
                long(c(MqiCounter::SubscribeNonDurableResume)),
            ],
        )
        .integer(MQIAMO_SUBS_FAILED, long(c(MqiCounter::SubscribeFailed)))
        .integer(MQIAMO_UNSUBS_DUR, long(c(MqiCounter::UnsubscribeDurable)))
        .integer(
            MQIAMO_UNSUBS_NDUR,
            long(c(MqiCounter::UnsubscribeNonDurable)),
        )
        .integer_list(
            MQIAMO_TOPIC_PUTS,
            &pair(
                MqiCounter::NonPersistentTopicPuts,
                MqiCounter::PersistentTopicPuts,
            ),
        )
        .integer(
            MQIAMO_TOPIC_PUTS_FAILED,
            long(c(MqiCounter::TopicPutFailed)),
        )
        .integer_list(
            MQIAMO_PUBLISH_MSG_COUNT,
            &pair(
                MqiCounter::NonPersistentPublished,
                MqiCounter::PersistentPublished,
            ),
        );
}

/// The MQCMD_STATISTICS_MQI message of an interval.
pub fn statistics_mqi(queue_manager: &str, records: &IntervalRecords) -> Vec<u8> {
    let mqi = &records.message_manager;
    let mut message = writer(MQCFT_STATISTICS, MQCMD_STATISTICS_MQI);
    interval_header(
        &mut message,
        queue_manager,
        records.start_ms,
        records.end_ms,
    );
    message
        .integer(MQIAMO_CONNS, long(mqi.get(MqiCounter::Conn)))
        .integer(MQIAMO_CONNS_FAILED, long(mqi.get(MqiCounter::ConnFailed)))
        .integer_list(MQIAMO_DISCS, &[long(mqi.get(MqiCounter::Disc)), 0, 0]);
    mqi_counts(&mut message, mqi);
    message.finish()
}

/// The MQCMD_STATISTICS_Q message of an interval: one MQGACF_Q_STATISTICS_DATA group for
/// each queue whose STATQ asked (MQ's "Queue statistics message data").
pub fn statistics_q(queue_manager: &str, records: &IntervalRecords) -> Vec<u8> {
    let mut message = writer(MQCFT_STATISTICS, MQCMD_STATISTICS_Q);
    interval_header(
        &mut message,
        queue_manager,
        records.start_ms,
        records.end_ms,
    );
    message.integer(MQIAMO_OBJECT_COUNT, long(records.queues.len() as u64));
    for queue in &records.queues {
        let s = &queue.statistics;
        let pair = |values: [u64; 2]| [long(values[0]), long(values[1])];
        let pair64 = |values: [u64; 2]| [long64(values[0]), long64(values[1])];
        message.group(MQGACF_Q_STATISTICS_DATA, |group| {
            group
                .string(MQCA_Q_NAME, &queue.queue, MQ_Q_NAME_LENGTH)
                .integer(MQIA_Q_TYPE, MQQT_LOCAL)
                .integer(MQIAMO_Q_MIN_DEPTH, long(s.depth_min))
                .integer(MQIAMO_Q_MAX_DEPTH, long(s.depth_max))
                .integer64_list(MQIAMO64_AVG_Q_TIME, &pair64(s.average_time_on_queue_us()))
                .integer_list(MQIAMO_PUTS, &pair(s.puts))
                .integer_list(MQIAMO_GETS, &pair(s.gets))
                .integer(MQIAMO_PUTS_FAILED, long(s.puts_failed))
                .integer64_list(MQIAMO64_PUT_BYTES, &pair64(s.put_bytes))
                .integer(MQIAMO_GETS_FAILED, long(s.gets_failed))
                .integer64_list(MQIAMO64_GET_BYTES, &pair64(s.get_bytes))
                .integer_list(MQIAMO_BROWSES, &pair(s.browses))
                .integer(MQIAMO_BROWSES_FAILED, long(s.browses_failed))
                .integer64_list(MQIAMO64_BROWSE_BYTES, &pair64(s.browse_bytes))
                .integer(MQIAMO_MSGS_EXPIRED, long(s.expired))
                .integer(MQIAMO_MSGS_PURGED, long(s.purged));
        });
    }
    message.finish()
}

/// The most ChlStatisticsData groups in one message (MQ's 100; more channels take more
/// messages, in sequence, the last with MQCFC_LAST).
pub const CHANNEL_GROUPS_PER_MESSAGE_MAX: usize = 100;

/// The MQCMD_STATISTICS_CHANNEL messages of an interval (none without channels): one
/// MQGACF_CHL_STATISTICS_DATA group for each message channel instance whose STATCHL asked
/// (MQ's "Channel statistics message data"), at most [`CHANNEL_GROUPS_PER_MESSAGE_MAX`] a
/// message.
pub fn statistics_channel(queue_manager: &str, records: &IntervalRecords) -> Vec<Vec<u8>> {
    let chunks: Vec<_> = records
        .channels
        .chunks(CHANNEL_GROUPS_PER_MESSAGE_MAX)
        .collect();
    let last = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(index, channels)| {
            let mut message = writer(MQCFT_STATISTICS, MQCMD_STATISTICS_CHANNEL);
            message.sequence(index as i32 + 1, index + 1 == last);
            interval_header(
                &mut message,
                queue_manager,
                records.start_ms,
                records.end_ms,
            );
            message.integer(MQIAMO_OBJECT_COUNT, long(channels.len() as u64));
            for channel in channels {
                message.group(MQGACF_CHL_STATISTICS_DATA, |group| {
                    channel_group(group, channel)
                });
            }
            message.finish()
        })
        .collect()
}

/// One channel instance's ChlStatisticsData parameters.
fn channel_group(group: &mut EventWriter, channel: &ChannelIntervalRecord) {
    group
        .string(
            MQCACH_CHANNEL_NAME,
            &channel.channel,
            MQ_CHANNEL_NAME_LENGTH,
        )
        .integer(MQIACH_CHANNEL_TYPE, channel.channel_type)
        .string(
            MQCA_REMOTE_Q_MGR_NAME,
            &channel.remote_queue_manager,
            MQ_Q_MGR_NAME_LENGTH,
        )
        .string(
            MQCACH_CONNECTION_NAME,
            &channel.connection_name,
            MQ_CONN_NAME_LENGTH,
        )
        .integer(MQIAMO_MSGS, long(channel.messages))
        .integer64(MQIAMO64_BYTES, long64(channel.bytes))
        .integer(MQIAMO_FULL_BATCHES, long(channel.full_batches))
        .integer(MQIAMO_INCOMPLETE_BATCHES, long(channel.incomplete_batches))
        .integer(MQIAMO_AVG_BATCH_SIZE, long(channel.average_batch_size()))
        .integer(MQIAMO_PUT_RETRIES, long(channel.put_retries));
    if let Some((min, average, max)) = channel.net_time_us {
        group
            .integer(MQIAMO_NET_TIME_MIN, long(min))
            .integer(MQIAMO_NET_TIME_AVG, long(average))
            .integer(MQIAMO_NET_TIME_MAX, long(max));
    }
}

/// The parameters every accounting message starts with: the queue manager, the
/// connection's life as the interval, and who the connection was.
fn accounting_header(
    command: i32,
    queue_manager: &str,
    record: &ConnectionRecord,
    ended_ms: u64,
) -> EventWriter {
    let mut message = writer(MQCFT_ACCOUNTING, command);
    interval_header(&mut message, queue_manager, record.started_ms, ended_ms);
    message
        .integer(MQIACF_SEQUENCE_NUMBER, 0)
        .string(MQCACF_APPL_NAME, &record.appl_tag, MQ_APPL_NAME_LENGTH)
        .integer(MQIACF_PROCESS_ID, long(u64::from(record.process_id())))
        .string(MQCACF_USER_IDENTIFIER, &record.user(), MQ_USER_ID_LENGTH);
    message
}

/// The fields every accounting record starts with.
fn connection_fields(
    kind: &str,
    queue_manager: &str,
    record: &ConnectionRecord,
) -> serde_json::Value {
    serde_json::json!({
        "Record": kind,
        "Version": 1,
        "QMgr": queue_manager,
        "Conn": record.id,
        "ApplName": record.appl_tag,
        "User": record.user(),
        "Channel": record.channel(),
        "ConnName": record.connection_name(),
    })
}

/// The MQCMD_ACCOUNTING_MQI message of a connection that ends, and its JSON record.
pub fn accounting_mqi(
    queue_manager: &str,
    record: &ConnectionRecord,
    ended_ms: u64,
) -> (Vec<u8>, serde_json::Value) {
    let mqi = record.mqi.snapshot();
    let mut message = accounting_header(MQCMD_ACCOUNTING_MQI, queue_manager, record, ended_ms);
    dates(
        &mut message,
        (MQCAMO_CONN_DATE, MQCAMO_CONN_TIME),
        record.started_ms,
    );
    let channel = record.channel();
    if !channel.is_empty() {
        message
            .string(MQCACH_CHANNEL_NAME, &channel, MQ_CHANNEL_NAME_LENGTH)
            .string(
                MQCACH_CONNECTION_NAME,
                &record.connection_name(),
                MQ_CONN_NAME_LENGTH,
            );
    }
    dates(&mut message, (MQCAMO_DISC_DATE, MQCAMO_DISC_TIME), ended_ms);
    message.integer(MQIAMO_DISC_TYPE, MQDISCONNECT_NORMAL);
    mqi_counts(&mut message, &mqi);
    let mut json = connection_fields("ACCOUNTING_MQI", queue_manager, record);
    let fields = json.as_object_mut().expect("an object");
    fields.insert("Conn_Time".into(), iso_time(record.started_ms).into());
    fields.insert("Disc_Time".into(), iso_time(ended_ms).into());
    fields.insert("Conn_Time_ms".into(), record.started_ms.into());
    fields.insert("Disc_Time_ms".into(), ended_ms.into());
    for (name, value) in mqi.named() {
        fields.insert(name.to_string(), serde_json::json!(value));
    }
    (message.finish(), json)
}

/// A connection ended: its accounting message and record, when ACCTMQI is ON. The
/// connection's record is complete (every call it made counted).
pub fn connection_ended(
    queue_manager: &QueueManager,
    record: &ConnectionRecord,
    verbs: Option<&VerbAccounting>,
) {
    if queue_manager.queue_manager_attributes().accounting_mqi != "ON" {
        return;
    }
    let (data, mut json) = accounting_mqi(queue_manager.name(), record, now_ms());
    if let Some(verbs) = verbs {
        add_verb_times(&mut json, verbs);
    }
    put_admin(queue_manager, ACCOUNTING_QUEUE, &data);
    if let Err(error) = queue_manager.append_accounting_record(&json) {
        queue_manager.say(&format!(
            "CSQW133E {} ACCOUNTING RECORD NOT WRITTEN: {error}",
            queue_manager.name()
        ));
    }
}

/// Class 1 accounting's fields (verb_accounting.rs): each verb's calls, elapsed and CPU µs
/// (sampled, scaled to all calls) and its longest sampled call, as `MQPUT_Calls`,
/// `MQPUT_Elapsed_us`, `MQPUT_CPU_us`, `MQPUT_Max_Elapsed_us`.
fn add_verb_times(json: &mut serde_json::Value, verbs: &VerbAccounting) {
    let fields = json.as_object_mut().expect("an object");
    for (verb, times) in verbs.verbs() {
        for (name, value) in [
            ("Calls", times.calls),
            ("Elapsed_us", times.elapsed_us()),
            ("CPU_us", times.cpu_us()),
            ("Max_Elapsed_us", times.elapsed_max_us()),
        ] {
            fields.insert(format!("{verb}_{name}"), serde_json::json!(value));
        }
    }
}

/// A connection that accounted queues (ACCTQ) ended: its MQCMD_ACCOUNTING_Q message (one
/// MQGACF_Q_ACCOUNTING_DATA group per queue) and an `ACCOUNTING_Q` record per queue.
pub(crate) fn queues_accounted(
    queue_manager: &QueueManager,
    record: &ConnectionRecord,
    queues: &[QueueAccounting],
) {
    if queues.is_empty() {
        return;
    }
    let ended_ms = now_ms();
    put_admin(
        queue_manager,
        ACCOUNTING_QUEUE,
        &accounting_q(queue_manager.name(), record, queues, ended_ms),
    );
    for queue in queues {
        let json = queue_accounting_record(queue_manager.name(), record, queue);
        if let Err(error) = queue_manager.append_accounting_record(&json) {
            queue_manager.say(&format!(
                "CSQW133E {} ACCOUNTING RECORD NOT WRITTEN: {error}",
                queue_manager.name()
            ));
            return;
        }
    }
}

/// The MQCMD_ACCOUNTING_Q message of a connection's queues.
pub(crate) fn accounting_q(
    queue_manager: &str,
    record: &ConnectionRecord,
    queues: &[QueueAccounting],
    ended_ms: u64,
) -> Vec<u8> {
    let mut message = accounting_header(MQCMD_ACCOUNTING_Q, queue_manager, record, ended_ms);
    message.integer(MQIAMO_OBJECT_COUNT, long(queues.len() as u64));
    for queue in queues {
        let pair = |values: [u64; 2]| [long(values[0]), long(values[1])];
        let pair64 = |values: [u64; 2]| [long64(values[0]), long64(values[1])];
        message.group(MQGACF_Q_ACCOUNTING_DATA, |group| {
            group.string(MQCA_Q_NAME, &queue.queue, MQ_Q_NAME_LENGTH);
            dates(
                group,
                (MQCAMO_OPEN_DATE, MQCAMO_OPEN_TIME),
                queue.first_opened_ms,
            );
            dates(
                group,
                (MQCAMO_CLOSE_DATE, MQCAMO_CLOSE_TIME),
                queue.last_closed_ms,
            );
            group
                .integer(MQIAMO_OPENS, long(queue.opens))
                .integer(MQIAMO_CLOSES, long(queue.closes))
                .integer_list(MQIAMO_PUTS, &pair(queue.puts))
                .integer(MQIAMO_PUTS_FAILED, long(queue.puts_failed))
                .integer64_list(MQIAMO64_PUT_BYTES, &pair64(queue.put_bytes))
                .integer_list(MQIAMO_GETS, &pair(queue.gets))
                .integer(MQIAMO_GETS_FAILED, long(queue.gets_failed))
                .integer64_list(MQIAMO64_GET_BYTES, &pair64(queue.get_bytes))
                .integer_list(MQIAMO_BROWSES, &pair(queue.browses))
                .integer(MQIAMO_BROWSES_FAILED, long(queue.browses_failed))
                .integer64_list(MQIAMO64_BROWSE_BYTES, &pair64(queue.browse_bytes));
        });
    }
    message.finish()
}

/// A queue's `ACCOUNTING_Q` record (docs/formats.md "Accounting records").
pub(crate) fn queue_accounting_record(
    queue_manager: &str,
    record: &ConnectionRecord,
    queue: &QueueAccounting,
) -> serde_json::Value {
    let mut json = connection_fields("ACCOUNTING_Q", queue_manager, record);
    let counts = serde_json::json!({
        "Queue": queue.queue,
        "Open_Time": iso_time(queue.first_opened_ms),
        "Close_Time": iso_time(queue.last_closed_ms),
        "Opens": queue.opens,
        "Closes": queue.closes,
        "NonPersPuts": queue.puts[0],
        "PersPuts": queue.puts[1],
        "NonPersPutBytes": queue.put_bytes[0],
        "PersPutBytes": queue.put_bytes[1],
        "Put_Failed": queue.puts_failed,
        "NonPersGets": queue.gets[0],
        "PersGets": queue.gets[1],
        "NonPersGetBytes": queue.get_bytes[0],
        "PersGetBytes": queue.get_bytes[1],
        "Get_Failed": queue.gets_failed,
        "NonPersBrowses": queue.browses[0],
        "PersBrowses": queue.browses[1],
        "NonPersBrowseBytes": queue.browse_bytes[0],
        "PersBrowseBytes": queue.browse_bytes[1],
        "Browse_Failed": queue.browses_failed,
        "Get_Specific": queue.get_specific,
        "Get_Next": queue.get_next,
        "Put_Elapsed_us": queue.elapsed_us(true),
        "Put_CPU_us": queue.cpu_us(true),
        "Put_Max_Elapsed_us": queue.elapsed_max_us(true),
        "Get_Elapsed_us": queue.elapsed_us(false),
        "Get_CPU_us": queue.cpu_us(false),
        "Get_Max_Elapsed_us": queue.elapsed_max_us(false),
    });
    let fields = json.as_object_mut().expect("an object");
    fields.extend(counts.as_object().expect("an object").clone());
    json
}

/// Put `data` (MQFMT_ADMIN) on `queue` as the queue manager, persistent as the queue's
/// DEFPSIST; a message on the console if it cannot be put.
fn put_admin(queue_manager: &QueueManager, queue: &str, data: &[u8]) {
    let Some(target) = queue_manager.queue(queue) else {
        queue_manager.say(&format!(
            "CSQW133E {} {queue} IS NOT DEFINED: STATISTICS OR ACCOUNTING DATA LOST",
            queue_manager.name()
        ));
        return;
    };
    let now = now_ms();
    let mut md = queue_manager_descriptor(queue_manager, &target, MQFMT_ADMIN, now);
    md.persistence = if target.with_definition(|definition| definition.default_persistent) {
        MQPER_PERSISTENT
    } else {
        MQPER_NOT_PERSISTENT
    };
    let engine = crate::descriptor::to_engine(&md, now);
    if let Err(error) = put_message(queue_manager, None, &target, &engine, data) {
        queue_manager.say(&format!(
            "CSQW133E {} {queue}: STATISTICS OR ACCOUNTING DATA LOST: {error}",
            queue_manager.name()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_queue_manager::Connections;

    /// Every field of the accounting record is named in docs/formats.md "Accounting records",
    /// or is one of the statistics records' QMST counts documented there.
    #[test]
    fn every_accounting_field_is_documented() {
        let document = include_str!("../../../docs/formats.md");
        let section = &document[document.find("## Statistics records").unwrap()..];
        let connections = Connections::default();
        let record = connections.register("APP", 6, "user", 1_000).unwrap();
        record.mqi.add(MqiCounter::Put, 3);
        let (data, mut json) = accounting_mqi("QM1", &record, 2_000);
        add_verb_times(&mut json, &VerbAccounting::default());
        assert_eq!(json["Put"], 3);
        assert_eq!(json["MQCMIT_Calls"], 0);
        assert_eq!(json["Disc_Time"], "1970-01-01T00:00:02.000Z");
        for field in json.as_object().unwrap().keys() {
            assert!(section.contains(&format!("`{field}`")), "{field}");
        }
        let word =
            |index: usize| i32::from_ne_bytes(data[index * 4..index * 4 + 4].try_into().unwrap());
        let queue = QueueAccounting::opened("Q1");
        for field in queue_accounting_record("QM1", &record, &queue)
            .as_object()
            .unwrap()
            .keys()
        {
            assert!(section.contains(&format!("`{field}`")), "{field}");
        }
        assert_eq!(word(0), MQCFT_ACCOUNTING);
        assert_eq!(word(3), MQCMD_ACCOUNTING_MQI);
        assert_eq!(
            date_and_time(1_798_761_599_999),
            ("2026-12-31".to_string(), "23.59.59".to_string())
        );
    }
}
