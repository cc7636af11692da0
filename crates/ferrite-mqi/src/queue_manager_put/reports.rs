//! Report messages the queue manager generates from a message's MQMD.Report, as IBM MQ
//! documents them:
//!
//! | Report option | When | Feedback |
//! |---|---|---|
//! | MQRO_COA (_WITH_DATA, _WITH_FULL_DATA) | the message is put on its queue (for a put in a unit of work: the report is in the same unit, so it appears at commit and vanishes at backout) | MQFB_COA |
//! | MQRO_COD (...) | the message is got destructively (in a unit of work: in the same unit); never for a browse | MQFB_COD |
//! | MQRO_EXPIRATION (...) | an expired message is discarded, at MQGET or by the expiry scan (EXPRYINT, REFRESH QMGR TYPE(EXPIRY)); outside any unit of work | MQFB_EXPIRATION |
//! | MQRO_EXCEPTION (...) | the queue manager cannot deliver the message ([`super::undeliverable`]) | the reason (MQRC_*) |
//!
//! MQRO_PAN and MQRO_NAN are for the receiving application; the queue manager ignores them.
//!
//! ## The report message
//! - MsgType MQMT_REPORT, Feedback as above; Encoding, CodedCharSetId, Format, Priority,
//!   Persistence, the identity context and the group fields of the original.
//! - MsgId: new, or the original's with MQRO_PASS_MSG_ID. CorrelId: the original MsgId, or the
//!   original CorrelId with MQRO_PASS_CORREL_ID.
//! - Report MQRO_NONE and Expiry unlimited, unless the original has
//!   MQRO_PASS_DISCARD_AND_EXPIRY: then its MQRO_DISCARD_MSG and its remaining Expiry pass on
//!   (an expiration report never inherits the spent expiry).
//! - ReplyToQ blank, ReplyToQMgr this queue manager; PutApplType MQAT_QMGR, PutApplName the
//!   queue manager's name, PutDate/PutTime of the report.
//! - Data: none; with _WITH_DATA the first [`REPORT_DATA_PREFIX_BYTES`] bytes of the original's
//!   data; with _WITH_FULL_DATA all of it.
//!
//! It goes to the original's ReplyToQ at ReplyToQMgr (blank or this queue manager; a local
//! queue or an alias of one). A report that cannot be put there (no such queue, another queue
//! manager, PUT(DISABLED), MAXDEPTH, MAXMSGL) goes to the dead-letter queue with an MQDLH
//! whose Reason says why, unless it carries MQRO_DISCARD_MSG; without a usable dead-letter
//! queue it is discarded and the queue manager logs why.

use ferrite_constants::{
    appl_type::MQAT_QMGR,
    expiry::MQEI_UNLIMITED,
    feedback::{MQFB_COA, MQFB_COD, MQFB_EXPIRATION},
    message_type::MQMT_REPORT,
    reason::{MQRC_UNKNOWN_OBJECT_NAME, MQRC_UNKNOWN_REMOTE_Q_MGR},
    report::*,
};
use ferrite_queue_manager::{now_ms, QueueManager};

use super::{
    put_message, put_to_dead_letter_queue, queue_manager_appl_name, resolve_local_queue, InUnit,
};
use crate::descriptor::{self, trim};
use crate::structures::Mqmd;

/// How much of the original's data a report _WITH_DATA carries.
pub const REPORT_DATA_PREFIX_BYTES: usize = 100;

/// The report options the queue manager accepts: MQ's defined bits. Any bit of
/// MQRO_REJECT_UNSUP_MASK outside them is refused at MQPUT (MQRC_REPORT_OPTIONS_ERROR).
const KNOWN_REPORT_OPTIONS: i32 = MQRO_PAN
    | MQRO_NAN
    | MQRO_ACTIVITY
    | MQRO_PASS_CORREL_ID
    | MQRO_PASS_MSG_ID
    | MQRO_COA_WITH_FULL_DATA
    | MQRO_COD_WITH_FULL_DATA
    | MQRO_PASS_DISCARD_AND_EXPIRY
    | MQRO_EXPIRATION_WITH_FULL_DATA
    | MQRO_EXCEPTION_WITH_FULL_DATA
    | MQRO_DISCARD_MSG;

/// The report options whose reports the queue manager sends to ReplyToQ (MQPUT needs a
/// ReplyToQ with any of them: MQRC_MISSING_REPLY_TO_Q).
pub const QUEUE_MANAGER_REPORTS: i32 = MQRO_COA | MQRO_COD | MQRO_EXPIRATION | MQRO_EXCEPTION;

/// Whether `report` has an option the queue manager must reject (MQRC_REPORT_OPTIONS_ERROR):
/// a bit of MQRO_REJECT_UNSUP_MASK that MQ does not define.
pub fn unsupported_report_options(report: i32) -> bool {
    report & MQRO_REJECT_UNSUP_MASK & !KNOWN_REPORT_OPTIONS != 0
}

/// How much of the original's data a report carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportData {
    /// No data (the plain option).
    None,
    /// The first [`REPORT_DATA_PREFIX_BYTES`] bytes (_WITH_DATA).
    Prefix,
    /// All of it (_WITH_FULL_DATA).
    Full,
}

/// The data option of a report kind in `report`: `base` is the plain option (MQRO_COA ...),
/// `with_data` and `full` its _WITH_DATA and _WITH_FULL_DATA values. `None` when the report
/// is not asked for.
fn requested(report: i32, base: i32, with_data: i32, full: i32) -> Option<ReportData> {
    if report & base == 0 {
        None
    } else if report & full == full {
        Some(ReportData::Full)
    } else if report & with_data == with_data {
        Some(ReportData::Prefix)
    } else {
        Some(ReportData::None)
    }
}

/// The report message for `original` (its resolved MQMD and its data) with `feedback`.
pub fn report_message(
    queue_manager: &QueueManager,
    original: &Mqmd,
    data: &[u8],
    feedback: i32,
    with_data: ReportData,
) -> (Mqmd, Vec<u8>) {
    let pass = original.report & MQRO_PASS_DISCARD_AND_EXPIRY != 0;
    let (put_date, put_time) = descriptor::put_date_time_fields(now_ms());
    let md = Mqmd {
        version: original.version,
        report: if pass {
            original.report & MQRO_DISCARD_MSG
        } else {
            MQRO_NONE
        },
        msg_type: MQMT_REPORT,
        expiry: if pass && feedback != MQFB_EXPIRATION {
            original.expiry
        } else {
            MQEI_UNLIMITED
        },
        feedback,
        encoding: original.encoding,
        coded_char_set_id: original.coded_char_set_id,
        format: original.format,
        priority: original.priority,
        persistence: original.persistence,
        msg_id: if original.report & MQRO_PASS_MSG_ID != 0 {
            original.msg_id
        } else {
            crate::identifiers::new_identifier(queue_manager.name())
        },
        correl_id: if original.report & MQRO_PASS_CORREL_ID != 0 {
            original.correl_id
        } else {
            original.msg_id
        },
        backout_count: 0,
        reply_to_q: Default::default(),
        reply_to_q_mgr: queue_manager.name().into(),
        user_identifier: original.user_identifier,
        accounting_token: original.accounting_token,
        appl_identity_data: original.appl_identity_data,
        put_appl_type: MQAT_QMGR,
        put_appl_name: queue_manager_appl_name(queue_manager).into(),
        put_date,
        put_time,
        appl_origin_data: Default::default(),
        group_id: original.group_id,
        msg_seq_number: original.msg_seq_number,
        offset: original.offset,
        msg_flags: original.msg_flags,
        original_length: original.original_length,
    };
    let data = match with_data {
        ReportData::None => Vec::new(),
        ReportData::Prefix => data[..data.len().min(REPORT_DATA_PREFIX_BYTES)].to_vec(),
        ReportData::Full => data.to_vec(),
    };
    (md, data)
}

/// Put `report` (a report message built by [`report_message`]) to `original`'s ReplyToQ, in
/// `unit` when given; failing that to the dead-letter queue (unless the report carries
/// MQRO_DISCARD_MSG); failing that it is discarded with a log line.
fn send(
    queue_manager: &QueueManager,
    mut unit: Option<InUnit<'_>>,
    original: &Mqmd,
    report: &Mqmd,
    data: &[u8],
) {
    let reply_to_q = trim(&original.reply_to_q);
    let reply_to_q_mgr = trim(&original.reply_to_q_mgr);
    if reply_to_q.is_empty() {
        // MQPUT refuses report options without a ReplyToQ; a message put with
        // MQPMO_SET_ALL_CONTEXT by an older level can still lack one: nowhere to send.
        queue_manager.say(&format!(
            "{} report (feedback {}) discarded: the message has no ReplyToQ",
            queue_manager.name(),
            report.feedback
        ));
        return;
    }
    let failure = if !reply_to_q_mgr.is_empty() && reply_to_q_mgr != queue_manager.name() {
        // Messages cannot leave this queue manager (no channels to others yet).
        MQRC_UNKNOWN_REMOTE_Q_MGR
    } else {
        match resolve_local_queue(queue_manager, reply_to_q) {
            None => MQRC_UNKNOWN_OBJECT_NAME,
            Some(queue) => {
                let engine = descriptor::to_engine(report, now_ms());
                match put_message(
                    queue_manager,
                    unit.as_mut().map(InUnit::reborrow),
                    &queue,
                    &engine,
                    data,
                ) {
                    Ok(_) => return,
                    Err(error) => error.reason_code(),
                }
            }
        }
    };
    if report.report & MQRO_DISCARD_MSG != 0 {
        return;
    }
    if let Err(error) = put_to_dead_letter_queue(
        queue_manager,
        unit,
        report,
        data,
        failure,
        reply_to_q,
        reply_to_q_mgr,
    ) {
        queue_manager.say(&format!(
            "{} report (feedback {}) for {reply_to_q} discarded: it could not be delivered ({}) and {error}",
            queue_manager.name(),
            report.feedback,
            ferrite_constants::reason_name(failure).unwrap_or("MQRC_UNKNOWN"),
        ));
    }
}

fn send_if_requested(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    original: &Mqmd,
    data: &[u8],
    feedback: i32,
    options: (i32, i32, i32),
) {
    let Some(choice) = requested(original.report, options.0, options.1, options.2) else {
        return;
    };
    let (report, report_data) = report_message(queue_manager, original, data, feedback, choice);
    send(queue_manager, unit, original, &report, &report_data);
}

/// After MQPUT or MQPUT1 put `original` (its resolved MQMD) on a queue: the COA report it
/// asks for, in `unit` when the put was.
pub fn on_put(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    original: &Mqmd,
    data: &[u8],
) {
    send_if_requested(
        queue_manager,
        unit,
        original,
        data,
        MQFB_COA,
        (MQRO_COA, MQRO_COA_WITH_DATA, MQRO_COA_WITH_FULL_DATA),
    );
}

/// After a destructive MQGET of `original`: the COD report it asks for, in `unit` when the
/// get was.
pub fn on_get(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    original: &Mqmd,
    data: &[u8],
) {
    send_if_requested(
        queue_manager,
        unit,
        original,
        data,
        MQFB_COD,
        (MQRO_COD, MQRO_COD_WITH_DATA, MQRO_COD_WITH_FULL_DATA),
    );
}

/// After the queue manager discarded the expired message `original`: the expiration report
/// it asks for (outside any unit of work).
pub fn on_expiry(queue_manager: &QueueManager, original: &Mqmd, data: &[u8]) {
    send_if_requested(
        queue_manager,
        None,
        original,
        data,
        MQFB_EXPIRATION,
        (
            MQRO_EXPIRATION,
            MQRO_EXPIRATION_WITH_DATA,
            MQRO_EXPIRATION_WITH_FULL_DATA,
        ),
    );
}

/// The exception report `original` asks for when the queue manager cannot deliver it, with
/// Feedback = `reason` (an MQRC_* or MQFB_*), in `unit` when given.
pub fn send_exception(
    queue_manager: &QueueManager,
    unit: Option<InUnit<'_>>,
    original: &Mqmd,
    data: &[u8],
    reason: i32,
) {
    send_if_requested(
        queue_manager,
        unit,
        original,
        data,
        reason,
        (
            MQRO_EXCEPTION,
            MQRO_EXCEPTION_WITH_DATA,
            MQRO_EXCEPTION_WITH_FULL_DATA,
        ),
    );
}
