//! DISPLAY USAGE in full, as MQ for z/OS documents it: persistent and non-persistent data
//! pages per page set (and the same counts in PCF Inquire Usage), PSID(n) for one page set
//! and its pool, the errors for a PSID out of range (CSQI002I), with TYPE(DATASET)
//! (CSQI003I) and naming no page set (CSQI005I), TYPE(DATASET)'s restart RBA (CSQI024I) and
//! the log data sets page set recovery needs (CSQI070I), TYPE(ALL), and TYPE(SMDS) refused.

mod support;

use ferrite_command::pcf::{Parameter, PcfMessage};
use ferrite_command::{run_command, CommandProcessor};
use ferrite_constants::{misc::*, pcf::*, pcf_selector::*, selector::MQIA_PAGESET_ID};
use ferrite_queue_manager::QueueManager;
use ferrite_test_kit::put_messages_with;
use std::sync::Arc;

fn ok(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(response.success, "{command}: {}", response.text());
    response.text()
}

fn fails(queue_manager: &Arc<QueueManager>, command: &str) -> String {
    let response = run_command(queue_manager, command);
    assert!(!response.success, "{command}: {}", response.text());
    response.text()
}

/// Put `count` messages of 3,000 bytes (one a page) to `queue`.
fn put(queue_manager: &Arc<QueueManager>, queue: &str, count: usize, persistent: bool) {
    put_messages_with(queue_manager, queue, count, persistent, |_| {
        vec![b'x'; 3000]
    });
}

/// The row of page set `id` in CSQI010I's table, split into its columns: `_`, id, pool,
/// total, unused, persistent, non-persistent, expansion type, expansion count.
fn row(usage: &str, id: u8) -> Vec<String> {
    let prefix = format!("_  {id:02} ");
    let line = usage
        .lines()
        .find(|line| line.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no row for page set {id}: {usage}"));
    line.split_whitespace().map(str::to_string).collect()
}

fn inquire_usage(processor: &CommandProcessor, parameters: Vec<Parameter>) -> Vec<PcfMessage> {
    support::send_pcf(processor, MQCMD_INQUIRE_USAGE, parameters)
}

fn value(parameters: &[Parameter], id: i32) -> Parameter {
    parameters
        .iter()
        .find(|p| p.id() == id)
        .unwrap_or_else(|| panic!("parameter {id} in {parameters:?}"))
        .clone()
}

#[test]
fn page_classes_one_page_set_and_the_log_data_sets() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    // A page set of its own on a small pool, so that non-persistent messages overflow the
    // pool's in-memory share (half its bytes) onto pages.
    ok(&queue_manager, "DEFINE BUFFPOOL(6) BUFFERS(100)");
    ok(
        &queue_manager,
        "DEFINE PSID(6) BUFFPOOL(6) PRIMARY(512) SECONDARY(256)",
    );
    ok(&queue_manager, "DEFINE STGCLASS(SIX) PSID(06)");
    ok(
        &queue_manager,
        "DEFINE QLOCAL(Q6) STGCLASS(SIX) MAXDEPTH(5000)",
    );
    let before = ok(&queue_manager, "DISPLAY USAGE PSID(6)");
    assert_eq!(row(&before, 6)[5..7], ["0", "0"], "{before}");
    put(&queue_manager, "Q6", 20, true);
    put(&queue_manager, "Q6", 150, false);
    let usage = ok(&queue_manager, "DISPLAY USAGE PSID(6)");
    let columns = row(&usage, 6);
    let (total, unused): (u32, u32) = (columns[3].parse().unwrap(), columns[4].parse().unwrap());
    let persistent: u32 = columns[5].parse().unwrap();
    let non_persistent: u32 = columns[6].parse().unwrap();
    assert_eq!(persistent, 20, "one 3,000-byte message a page: {usage}");
    assert!(
        non_persistent > 0 && non_persistent < 150,
        "some in memory, the rest on pages: {usage}"
    );
    // Every used data page is of one class; total also counts page 0 and the space map page.
    assert_eq!(persistent + non_persistent, total - 2 - unused, "{usage}");
    // PSID(6): only page set 6 and its pool.
    assert!(!usage.contains("_  00 "), "{usage}");
    let pools: Vec<&str> = usage
        .lines()
        .skip_while(|line| !line.starts_with("CSQI065I"))
        .filter(|line| line.starts_with("_ "))
        .collect();
    assert_eq!(pools.len(), 1, "{usage}");
    assert!(pools[0].starts_with("_    6        100"), "{usage}");
    assert!(usage.contains("4KB    ABOVE"), "{usage}");

    // Inquire Usage returns the same counts.
    let processor = CommandProcessor::new(queue_manager.clone());
    let responses = inquire_usage(&processor, vec![Parameter::integer(MQIA_PAGESET_ID, 6)]);
    let page_set = &responses[0].parameters;
    assert_eq!(
        value(page_set, MQIACF_USAGE_PERSIST_PAGES),
        Parameter::integer(MQIACF_USAGE_PERSIST_PAGES, persistent as i32)
    );
    assert_eq!(
        value(page_set, MQIACF_USAGE_NONPERSIST_PAGES),
        Parameter::integer(MQIACF_USAGE_NONPERSIST_PAGES, non_persistent as i32)
    );

    // TYPE(DATASET): the restart RBA, and the active log that holds each page set's
    // recovery RBA (nothing has been archived yet).
    let data_sets = ok(&queue_manager, "DISPLAY USAGE TYPE(DATASET)");
    assert!(
        data_sets.contains("CSQI024I QM1 CSQIDUSE Restart RBA for system as configured="),
        "{data_sets}"
    );
    assert!(
        data_sets.contains("CSQI070I QM1 CSQIDUSE Data set usage"),
        "{data_sets}"
    );
    assert!(data_sets.contains(" Page set 06 recovery:"), "{data_sets}");
    assert!(
        data_sets.contains("active/LOGCOPY1.DS01 (active log)"),
        "{data_sets}"
    );
    assert!(!data_sets.contains("CSQI010I"), "{data_sets}");
    let responses = inquire_usage(
        &processor,
        vec![Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_DATA_SET)],
    );
    assert_eq!(responses.len(), 1);
    let data_set = &responses[0].parameters;
    assert_eq!(
        value(data_set, MQIACF_USAGE_DATA_SET_TYPE),
        Parameter::integer(MQIACF_USAGE_DATA_SET_TYPE, MQUSAGE_DS_OLDEST_PS_RECOVERY)
    );
    assert_eq!(
        value(data_set, MQCACF_DATA_SET_NAME),
        Parameter::string(MQCACF_DATA_SET_NAME, "active/LOGCOPY1.DS01")
    );
    match value(data_set, MQCACF_USAGE_LOG_RBA) {
        Parameter::String { value, .. } => {
            assert_eq!(value.len(), 16, "MQ_RBA_LENGTH");
            assert!(data_sets.contains(&value), "{value} in {data_sets}");
        }
        other => panic!("{other:?}"),
    }

    // TYPE(ALL): both reports.
    let all = ok(&queue_manager, "DISPLAY USAGE TYPE(ALL)");
    assert!(
        all.contains("CSQI010I") && all.contains("CSQI024I"),
        "{all}"
    );
}

#[test]
fn display_usage_errors_name_what_is_wrong() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let out_of_range = fails(&queue_manager, "DISPLAY USAGE PSID(100)");
    assert!(
        out_of_range.contains("CSQI002I QM1 CSQIDUSE Page set 100 value out of range"),
        "{out_of_range}"
    );
    let not_defined = fails(&queue_manager, "DISPLAY USAGE PSID(42)");
    assert!(
        not_defined.contains("CSQI005I QM1 CSQIDUSE PAGE SET 42 OFFLINE")
            && not_defined.contains("page set 42 is not defined"),
        "{not_defined}"
    );
    let conflict = fails(&queue_manager, "DISPLAY USAGE PSID(1) TYPE(DATASET)");
    assert!(
        conflict.contains("CSQI003I QM1 CSQIDUSE 'PSID' not allowed with TYPE(DATASET)"),
        "{conflict}"
    );
    let smds = fails(&queue_manager, "DISPLAY USAGE TYPE(SMDS)");
    assert!(smds.contains("CSQ9032E"), "{smds}");
    let syntax = fails(&queue_manager, "DISPLAY USAGE TYPE(PAGES)");
    assert!(syntax.contains("'TYPE' value 'PAGES'"), "{syntax}");
    let syntax = fails(&queue_manager, "DISPLAY USAGE PSID(ONE)");
    assert!(syntax.contains("'PSID' value 'ONE'"), "{syntax}");
    // PSID(*) is every page set.
    let every = ok(&queue_manager, "DISPLAY USAGE PSID(*)");
    assert!(
        every.contains("_  00 ") && every.contains("_  01 "),
        "{every}"
    );
}
