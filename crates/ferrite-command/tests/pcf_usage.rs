//! MQCMD_INQUIRE_USAGE (Inquire Usage): page set and buffer pool responses with MQ's
//! parameter identifiers and values, PageSetId selection, an undefined page set, a page set
//! defined at run time, the refused UsageType values and PageSetId with DATA_SET, and the undocumented buffer pool and
//! page set commands answered as unknown.

mod support;

use std::sync::Arc;

use ferrite_command::pcf::{Parameter, PcfMessage};
use ferrite_command::{run_command, CommandProcessor};
use ferrite_constants::{
    completion::*, misc::*, pcf::*, pcf_reason::*, pcf_selector::*, selector::MQIA_PAGESET_ID,
};
use ferrite_storage::config::PageClass;

fn send(processor: &CommandProcessor, command: i32, parameters: Vec<Parameter>) -> Vec<PcfMessage> {
    support::send_pcf(processor, command, parameters)
}

fn integer(parameters: &[Parameter], id: i32) -> i32 {
    match parameters.iter().find(|p| p.id() == id) {
        Some(Parameter::Integer { value, .. }) => *value,
        other => panic!("integer parameter {id}: {other:?} in {parameters:?}"),
    }
}

fn of_type(responses: &[PcfMessage], usage_type: i32) -> Vec<&[Parameter]> {
    responses
        .iter()
        .map(|r| r.parameters.as_slice())
        .filter(|p| integer(p, MQIACF_USAGE_TYPE) == usage_type)
        .collect()
}

fn ok(processor: &CommandProcessor, parameters: Vec<Parameter>) -> Vec<PcfMessage> {
    let responses = send(processor, MQCMD_INQUIRE_USAGE, parameters);
    for response in &responses {
        assert_eq!(
            (response.header.comp_code, response.header.reason),
            (MQCC_OK, 0),
            "{response:?}"
        );
    }
    responses
}

#[test]
fn inquire_usage_answers_every_page_set_and_buffer_pool() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    // Pool 0 locked in memory (ALTER BUFFPOOL(0) PAGECLAS(FIXED4KB)), the others pageable.
    queue_manager
        .alter_buffer_pool_page_class(0, PageClass::Fixed)
        .unwrap();
    let config = queue_manager.storage_configuration();
    let responses = ok(&processor, vec![]);
    // MQIACF_ALL, the default: the page sets, the pools and the log data set.
    assert_eq!(
        responses.len(),
        config.page_sets.len() + config.buffer_pools.len() + 1
    );
    let page_sets = of_type(&responses, MQIACF_USAGE_PAGESET);
    assert_eq!(page_sets.len(), config.page_sets.len());
    // The page sets come first, then the pools.
    assert_eq!(
        integer(&responses[0].parameters, MQIACF_USAGE_TYPE),
        MQIACF_USAGE_PAGESET
    );
    for (parameters, definition) in page_sets.iter().zip(&config.page_sets) {
        assert_eq!(
            integer(parameters, MQIA_PAGESET_ID),
            i32::from(definition.id)
        );
        assert_eq!(
            integer(parameters, MQIACF_BUFFER_POOL_ID),
            i32::from(definition.buffer_pool)
        );
        let total = integer(parameters, MQIACF_USAGE_TOTAL_PAGES);
        let unused = integer(parameters, MQIACF_USAGE_UNUSED_PAGES);
        assert!(total >= definition.primary_pages as i32, "{parameters:?}");
        assert!((0..total).contains(&unused), "{parameters:?}");
        assert_eq!(
            integer(parameters, MQIACF_PAGESET_STATUS),
            MQUSAGE_PS_AVAILABLE
        );
        assert_eq!(integer(parameters, MQIACF_USAGE_EXPAND_COUNT), 0);
    }
    let pools = of_type(&responses, MQIACF_USAGE_BUFFER_POOL);
    assert_eq!(pools.len(), config.buffer_pools.len());
    for (parameters, definition) in pools.iter().zip(&config.buffer_pools) {
        assert_eq!(
            integer(parameters, MQIACF_BUFFER_POOL_ID),
            i32::from(definition.id)
        );
        assert_eq!(
            integer(parameters, MQIACF_USAGE_TOTAL_BUFFERS),
            definition.buffers as i32
        );
        let free = integer(parameters, MQIACF_USAGE_FREE_BUFF);
        assert!((0..=definition.buffers as i32).contains(&free));
        assert_eq!(
            integer(parameters, MQIACF_USAGE_FREE_BUFF_PERC),
            free * 100 / definition.buffers as i32
        );
        assert_eq!(
            integer(parameters, MQIACF_BUFFER_POOL_LOCATION),
            MQBPLOCATION_ABOVE
        );
        let class = if definition.id == 0 {
            assert_eq!(definition.page_class, PageClass::Fixed);
            MQPAGECLAS_FIXED4KB
        } else {
            MQPAGECLAS_4KB
        };
        assert_eq!(integer(parameters, MQIACF_PAGECLAS), class);
    }
    assert_eq!(of_type(&responses, MQIACF_USAGE_DATA_SET).len(), 1);
    // UsageType PAGESET is the same answer without the data set.
    let same = ok(
        &processor,
        vec![Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_PAGESET)],
    );
    assert_eq!(same.len(), responses.len() - 1);
}

#[test]
fn inquire_usage_of_one_page_set_defined_at_run_time() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(queue_manager.clone());
    for command in [
        "DEFINE BUFFPOOL(7) BUFFERS(150)",
        "DEFINE PSID(7) BUFFPOOL(7) PRIMARY(64) SECONDARY(64) EXPAND(SYSTEM)",
    ] {
        let response = run_command(&queue_manager, command);
        assert!(response.success, "{}", response.text());
    }
    let responses = ok(&processor, vec![Parameter::integer(MQIA_PAGESET_ID, 7)]);
    assert_eq!(
        responses.len(),
        2,
        "the page set and its pool: {responses:?}"
    );
    let page_set = &responses[0].parameters;
    assert_eq!(integer(page_set, MQIA_PAGESET_ID), 7);
    assert_eq!(integer(page_set, MQIACF_BUFFER_POOL_ID), 7);
    assert_eq!(integer(page_set, MQIACF_USAGE_TOTAL_PAGES), 64);
    assert_eq!(
        integer(page_set, MQIACF_USAGE_EXPAND_TYPE),
        MQUSAGE_EXPAND_SYSTEM
    );
    let pool = &responses[1].parameters;
    assert_eq!(integer(pool, MQIACF_USAGE_TYPE), MQIACF_USAGE_BUFFER_POOL);
    assert_eq!(integer(pool, MQIACF_BUFFER_POOL_ID), 7);
    assert_eq!(integer(pool, MQIACF_USAGE_TOTAL_BUFFERS), 150);

    // Deleted: attached until restart, no longer defined.
    let response = run_command(&queue_manager, "DELETE PSID(7)");
    assert!(response.success, "{}", response.text());
    let responses = ok(&processor, vec![Parameter::integer(MQIA_PAGESET_ID, 7)]);
    assert_eq!(
        integer(&responses[0].parameters, MQIACF_PAGESET_STATUS),
        MQUSAGE_PS_NOT_DEFINED
    );

    // Never defined: the id and MQUSAGE_PS_NOT_DEFINED alone.
    let responses = ok(&processor, vec![Parameter::integer(MQIA_PAGESET_ID, 42)]);
    assert_eq!(responses.len(), 1);
    assert_eq!(
        responses[0].parameters,
        vec![
            Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_PAGESET),
            Parameter::integer(MQIA_PAGESET_ID, 42),
            Parameter::integer(MQIACF_PAGESET_STATUS, MQUSAGE_PS_NOT_DEFINED),
        ]
    );
}

#[test]
fn inquire_usage_refuses_what_it_cannot_answer() {
    let (_directory, queue_manager) = ferrite_test_kit::queue_manager(&[]);
    let processor = CommandProcessor::new(Arc::clone(&queue_manager));
    let failed = |parameters: Vec<Parameter>| {
        let responses = send(&processor, MQCMD_INQUIRE_USAGE, parameters);
        assert_eq!(responses.len(), 1);
        assert_eq!(responses[0].header.comp_code, MQCC_FAILED);
        (
            responses[0].header.reason,
            integer(&responses[0].parameters, MQIACF_PARAMETER_ID),
        )
    };
    assert_eq!(
        failed(vec![Parameter::integer(
            MQIACF_USAGE_TYPE,
            MQIACF_USAGE_SMDS
        )]),
        (MQRCCF_PARM_VALUE_ERROR, MQIACF_USAGE_TYPE)
    );
    // DISPLAY USAGE's CSQI003I: one page set, and the log data sets that serve them all.
    assert_eq!(
        failed(vec![
            Parameter::integer(MQIA_PAGESET_ID, 1),
            Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_DATA_SET),
        ]),
        (MQRCCF_PARM_CONFLICT, MQIA_PAGESET_ID)
    );
    assert_eq!(
        failed(vec![Parameter::integer(MQIA_PAGESET_ID, 100)]),
        (MQRCCF_PARM_VALUE_ERROR, MQIA_PAGESET_ID)
    );
    // cmqcfc.h has these, IBM's PCF reference documents none of them.
    for command in [
        MQCMD_CREATE_BUFFER_POOL,
        MQCMD_CHANGE_BUFFER_POOL,
        MQCMD_DELETE_BUFFER_POOL,
        MQCMD_CREATE_PAGE_SET,
        MQCMD_CHANGE_PAGE_SET,
        MQCMD_DELETE_PAGE_SET,
    ] {
        let responses = send(&processor, command, vec![]);
        assert_eq!(
            (responses[0].header.comp_code, responses[0].header.reason),
            (MQCC_FAILED, MQRCCF_CFH_COMMAND_ERROR)
        );
    }
}
