//! MQCMD_INQUIRE_USAGE (Inquire Usage, z/OS): page sets and buffer pools, the PCF form of
//! DISPLAY USAGE.
//!
//! IBM MQ for z/OS documents one PCF command for page sets and buffer pools, Inquire Usage.
//! cmqcfc.h also defines MQCMD_CREATE/CHANGE/DELETE_BUFFER_POOL and _PAGE_SET (106, 107,
//! 157-160), but IBM's PCF reference documents no such commands or their parameters (DEFINE,
//! ALTER and DELETE of BUFFPOOL and PSID are MQSC only), so Ferrite answers them as any other
//! command it does not know: MQRCCF_CFH_COMMAND_ERROR.
//!
//! Request: PageSetId (MQIA_PAGESET_ID, 0-99; absent: every page set) and UsageType
//! (MQIACF_USAGE_TYPE: MQIACF_USAGE_PAGESET, MQIACF_USAGE_DATA_SET or MQIACF_ALL, the
//! default; MQIACF_USAGE_SMDS is refused with MQRCCF_PARM_VALUE_ERROR, as TYPE(SMDS) is by
//! DISPLAY USAGE: no queue sharing group). PageSetId with MQIACF_USAGE_DATA_SET is
//! MQRCCF_PARM_CONFLICT (DISPLAY USAGE's CSQI003I). CommandScope is accepted and ignored.
//!
//! Responses, one per page set, then one per buffer pool serving them, then (DATA_SET or ALL)
//! the log data sets, each starting with ResponseType (MQIACF_USAGE_TYPE):
//!
//! | ResponseType             | parameters                                                  |
//! |--------------------------|-------------------------------------------------------------|
//! | MQIACF_USAGE_PAGESET     | MQIA_PAGESET_ID, MQIACF_BUFFER_POOL_ID, MQIACF_USAGE_TOTAL_PAGES, MQIACF_USAGE_UNUSED_PAGES, MQIACF_USAGE_PERSIST_PAGES (1161), MQIACF_USAGE_NONPERSIST_PAGES (1162) (data pages by class; the rows are `crate::usage::page_set_usage`'s, which DISPLAY USAGE formats too), MQIACF_USAGE_EXPAND_TYPE (MQUSAGE_EXPAND_*), MQIACF_USAGE_EXPAND_COUNT (expansions since restart), MQIACF_PAGESET_STATUS (MQUSAGE_PS_*) |
//! | MQIACF_USAGE_BUFFER_POOL | MQIACF_BUFFER_POOL_ID, MQIACF_USAGE_TOTAL_BUFFERS, MQIACF_USAGE_FREE_BUFF (stealable buffers), MQIACF_USAGE_FREE_BUFF_PERC, MQIACF_BUFFER_POOL_LOCATION (MQBPLOCATION_ABOVE), MQIACF_PAGECLAS (MQPAGECLAS_4KB, or MQPAGECLAS_FIXED4KB for a pool locked in memory) |
//! | MQIACF_USAGE_DATA_SET    | MQIACF_USAGE_DATA_SET_TYPE (MQUSAGE_DS_OLDEST_PS_RECOVERY: the log data set holding the lowest page set recovery RBA), MQCACF_DATA_SET_NAME (the file, first copy; blank when no log holds it any longer), MQCACF_USAGE_LOG_RBA (16 hex digits, MQ_RBA_LENGTH) |
//!
//! A page set deleted by DELETE PSID but attached until restart has status
//! MQUSAGE_PS_NOT_DEFINED; a PageSetId that names no page set answers that id and
//! MQUSAGE_PS_NOT_DEFINED alone, as MQ reports an undefined page set. MQ's other
//! DataSetType values do not apply: MQUSAGE_DS_OLDEST_ACTIVE_UOW (Ferrite keeps no log RBA
//! of a unit of work's start apart from its records) and MQUSAGE_DS_OLDEST_CF_RECOVERY
//! (coupling facility structures).

use ferrite_constants::{misc::*, pcf_reason::*, pcf_selector::*, selector::MQIA_PAGESET_ID};
use ferrite_storage::config::{Expand, PageClass};
use ferrite_storage::StorageError;

use super::{ignorable, Context, Parameter, PcfFailure, Request, Responses};

/// The greatest page set identifier (PSID 00-99).
const PAGE_SET_ID_MAX: i32 = ferrite_storage::PageSetId::MAX as i32;

/// A storage error reading the page sets or the log, as the command's failure.
fn storage_failure(error: StorageError) -> PcfFailure {
    PcfFailure {
        reason: error.reason_code(),
        parameters: Vec::new(),
    }
}

pub(super) fn inquire_usage(context: &Context, request: &Request) -> Responses {
    request.check(|p| ignorable(p) || [MQIA_PAGESET_ID, MQIACF_USAGE_TYPE].contains(&p.id()))?;
    let (pages, data_sets) = match request.integer(MQIACF_USAGE_TYPE)? {
        None | Some(MQIACF_ALL) => (true, true),
        Some(MQIACF_USAGE_PAGESET) => (true, false),
        Some(MQIACF_USAGE_DATA_SET) => (false, true),
        Some(_) => {
            return Err(PcfFailure::parameter(
                MQRCCF_PARM_VALUE_ERROR,
                MQIACF_USAGE_TYPE,
            ))
        }
    };
    let wanted = request.integer(MQIA_PAGESET_ID)?;
    if wanted.is_some() && !pages {
        return Err(PcfFailure::parameter(MQRCCF_PARM_CONFLICT, MQIA_PAGESET_ID));
    }
    let mut responses = if pages {
        page_set_responses(context, wanted)?
    } else {
        Vec::new()
    };
    if data_sets && wanted.is_none() {
        let usage = crate::usage::data_set_usage(context.queue_manager).map_err(storage_failure)?;
        let location = usage.oldest_page_set_recovery;
        responses.push(vec![
            Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_DATA_SET),
            Parameter::integer(MQIACF_USAGE_DATA_SET_TYPE, MQUSAGE_DS_OLDEST_PS_RECOVERY),
            Parameter::string(MQCACF_DATA_SET_NAME, location.data_set.unwrap_or_default()),
            Parameter::string(MQCACF_USAGE_LOG_RBA, location.rba.to_string()),
        ]);
    }
    Ok(responses)
}

/// The MQIACF_USAGE_PAGESET and MQIACF_USAGE_BUFFER_POOL responses.
fn page_set_responses(context: &Context, wanted: Option<i32>) -> Responses {
    if wanted.is_some_and(|id| !(0..=PAGE_SET_ID_MAX).contains(&id)) {
        return Err(PcfFailure::parameter(
            MQRCCF_PARM_VALUE_ERROR,
            MQIA_PAGESET_ID,
        ));
    }
    let only = wanted.map(|id| id as u8); // in 0-99, checked above
    let usage =
        crate::usage::page_set_usage(context.queue_manager, only).map_err(storage_failure)?;
    if let (Some(id), true) = (wanted, usage.page_sets.is_empty()) {
        return Ok(vec![vec![
            Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_PAGESET),
            Parameter::integer(MQIA_PAGESET_ID, id),
            Parameter::integer(MQIACF_PAGESET_STATUS, MQUSAGE_PS_NOT_DEFINED),
        ]]);
    }
    let count = |value: u64| i32::try_from(value).unwrap_or(i32::MAX);
    let mut responses = Vec::new();
    for row in usage.page_sets {
        responses.push(vec![
            Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_PAGESET),
            Parameter::integer(MQIA_PAGESET_ID, i32::from(row.id)),
            Parameter::integer(MQIACF_BUFFER_POOL_ID, i32::from(row.buffer_pool)),
            Parameter::integer(MQIACF_USAGE_TOTAL_PAGES, count(row.total_pages.into())),
            Parameter::integer(MQIACF_USAGE_UNUSED_PAGES, count(row.unused_pages.into())),
            Parameter::integer(
                MQIACF_USAGE_PERSIST_PAGES,
                count(row.classes.persistent.into()),
            ),
            Parameter::integer(
                MQIACF_USAGE_NONPERSIST_PAGES,
                count(row.classes.non_persistent.into()),
            ),
            Parameter::integer(
                MQIACF_USAGE_EXPAND_TYPE,
                match row.expand {
                    Some(Expand::User) | None => MQUSAGE_EXPAND_USER,
                    Some(Expand::System) => MQUSAGE_EXPAND_SYSTEM,
                    Some(Expand::None) => MQUSAGE_EXPAND_NONE,
                },
            ),
            Parameter::integer(MQIACF_USAGE_EXPAND_COUNT, count(row.expansions_this_run)),
            Parameter::integer(
                MQIACF_PAGESET_STATUS,
                if row.expand.is_some() {
                    MQUSAGE_PS_AVAILABLE
                } else {
                    MQUSAGE_PS_NOT_DEFINED
                },
            ),
        ]);
    }
    for row in usage.buffer_pools {
        responses.push(vec![
            Parameter::integer(MQIACF_USAGE_TYPE, MQIACF_USAGE_BUFFER_POOL),
            Parameter::integer(MQIACF_BUFFER_POOL_ID, i32::from(row.id)),
            Parameter::integer(MQIACF_USAGE_TOTAL_BUFFERS, count(row.buffers)),
            Parameter::integer(MQIACF_USAGE_FREE_BUFF, count(row.stealable)),
            Parameter::integer(MQIACF_USAGE_FREE_BUFF_PERC, count(row.stealable_percentage)),
            // Ordinary process memory: what ABOVE describes on z/OS; FIXED4KB when locked.
            Parameter::integer(MQIACF_BUFFER_POOL_LOCATION, MQBPLOCATION_ABOVE),
            Parameter::integer(
                MQIACF_PAGECLAS,
                match row.page_class {
                    PageClass::Pageable => MQPAGECLAS_4KB,
                    PageClass::Fixed => MQPAGECLAS_FIXED4KB,
                },
            ),
        ]);
    }
    Ok(responses)
}
