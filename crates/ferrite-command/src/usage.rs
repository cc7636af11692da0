//! What DISPLAY USAGE and PCF Inquire Usage report, gathered once for both: each page set's
//! pages by class, the log data sets restart needs, and the buffer pools.
//!
//! ## Persistent and non-persistent data pages
//! A data or continuation page carries the class of what it holds in its header
//! (`PAGE_FLAG_NONPERSISTENT`, `ferrite_storage::page`); a page is never shared by the two
//! classes (the data manager keeps one insertion page per class). The counts take the data
//! manager's exact in-memory allocation (`PageSetSpace::allocated_pages`; the on-disk space
//! map records persistent allocations only, and keeps freed pages marked until restart) and
//! read each allocated page's header through the page set's buffer pool. As MQ for z/OS reads
//! every space map page for DISPLAY USAGE TYPE(PAGESET), the cost grows with the used pages:
//! one pool lookup per used page, and a read for each one not in the pool. Non-persistent
//! messages held in memory (`data_manager/memory.rs`) occupy no page and are not counted.

//! ## Log data sets restart needs (TYPE(DATASET))
//! A page set's restart needs the log from its recovery RBA (page 0's, advanced at each
//! checkpoint once the pool has written its changed pages); the queue manager's restart RBA
//! is the begin RBA of the latest checkpoint at or below the lowest of them
//! (`QueueManager::archive_retention_floor`). Each RBA is located in the BSDS: the active log
//! whose range holds it, else the archive log.
//!
//! ## DISPLAY USAGE
//! ```text
//! DISPLAY USAGE [PSID(*|n)] [TYPE(PAGESET|DATASET|SMDS|ALL)]
//! ```
//! TYPE(PAGESET), the default, answers CSQI010I (per page set: buffer pool, total and unused
//! pages, persistent and non-persistent data pages, expansion type and count), CSQI065I (the
//! buffer pools serving them) and the pools' QPST statistics (CSQP054I); PSID(n) limits both to
//! page set n and its pool. TYPE(DATASET) answers CSQI024I (the restart RBA) and CSQI070I (the
//! log data set holding the oldest page set recovery RBA, then each page set's); TYPE(ALL)
//! both. As in MQ: a PSID out of 0-99 is CSQI002I; PSID(n) with TYPE(DATASET) is CSQI003I;
//! PSID(n) naming no page set is CSQI005I ("not defined to the queue manager with DEFINE
//! PSID"); TYPE(SMDS) needs a queue sharing group, which Ferrite has not (CSQ9032E).

use ferrite_queue_manager::QueueManager;
use ferrite_storage::config::{Expand, PageClass};
use ferrite_storage::data_manager::PageSetSpace;
use ferrite_storage::log::bsds::Bsds;
use ferrite_storage::page::{PageType, PAGE_FLAG_NONPERSISTENT};
use ferrite_storage::{PageNumber, PageSetId, Rba, StorageResult};

use crate::context::{
    choice, keywords, no_object_value, value_error, Context, Failure, Outcome, Output, Takes,
};
use crate::parser::Token;

/// Data pages of one page set by class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageClasses {
    pub persistent: u32,
    pub non_persistent: u32,
}

/// Count `space`'s allocated data and continuation pages by class (see the module docs).
pub fn page_classes(space: &PageSetSpace) -> StorageResult<PageClasses> {
    let page_set = space.id();
    let mut classes = PageClasses::default();
    for page in space.allocated_pages() {
        let (page_type, flags) = space
            .pool
            .get_page(page_set, PageNumber(page))?
            .read(|page| (page.page_type(), page.flags()));
        match page_type {
            Some(PageType::Data | PageType::Continuation)
                if flags & PAGE_FLAG_NONPERSISTENT != 0 =>
            {
                classes.non_persistent += 1
            }
            Some(PageType::Data | PageType::Continuation) => classes.persistent += 1,
            // Allocated, not yet written by its put.
            _ => {}
        }
    }
    Ok(classes)
}

/// One page set's line of the usage report (CSQI010I; PCF MQIACF_USAGE_PAGESET).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageSetUsageRow {
    pub id: u8,
    /// The buffer pool it is attached to in this run.
    pub buffer_pool: u8,
    pub total_pages: u32,
    pub unused_pages: u32,
    /// Data pages by class.
    pub classes: PageClasses,
    /// EXPAND as qm.toml defines it; `None` when DELETE PSID removed it this run (it stays
    /// attached until restart).
    pub expand: Option<Expand>,
    /// Expansions recorded in the page set's header (page 0), over its life.
    pub expansions_recorded: u32,
    /// Expansions since this restart.
    pub expansions_this_run: u64,
}

/// One buffer pool's line (CSQI065I; PCF MQIACF_USAGE_BUFFER_POOL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferPoolUsageRow {
    pub id: u8,
    /// Buffers now (QPSTNBUF).
    pub buffers: u64,
    /// Stealable buffers (QPSTCBS).
    pub stealable: u64,
    /// Stealable buffers as a percentage of all, rounded down.
    pub stealable_percentage: u64,
    /// BUFFERS in qm.toml, which the next start uses; `None` when DELETE BUFFPOOL removed it
    /// this run.
    pub buffers_at_restart: Option<u32>,
    /// PAGECLAS now (FIXED4KB: the buffers are locked in memory).
    pub page_class: PageClass,
}

/// DISPLAY USAGE TYPE(PAGESET) and Inquire Usage's page set and buffer pool responses, read
/// once for both: every page set (or `only` one) in id order, then the pools serving them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageSetUsage {
    pub page_sets: Vec<PageSetUsageRow>,
    pub buffer_pools: Vec<BufferPoolUsageRow>,
}

/// The page set and buffer pool rows (see [`PageSetUsage`]); with `only`, the pool list is
/// that page set's pool (none when `only` names no page set attached).
pub fn page_set_usage(
    queue_manager: &QueueManager,
    only: Option<u8>,
) -> StorageResult<PageSetUsage> {
    let configuration = queue_manager.storage_configuration();
    let mut usage = PageSetUsage::default();
    for space in queue_manager.data_manager().spaces() {
        let id = space.id().0;
        if only.is_some_and(|only| only != id) {
            continue;
        }
        let (total_pages, unused_pages) = space.usage();
        usage.page_sets.push(PageSetUsageRow {
            id,
            buffer_pool: space.pool.id().0,
            total_pages,
            unused_pages,
            classes: page_classes(space)?,
            expand: configuration
                .page_sets
                .iter()
                .find(|definition| definition.id == id)
                .map(|definition| definition.expand),
            expansions_recorded: space.page_set.header().expansion_count,
            expansions_this_run: space.expansions_this_run(),
        });
    }
    usage.page_sets.sort_by_key(|row| row.id);
    for pool in queue_manager.pools() {
        let id = pool.id().0;
        if only.is_some() && !usage.page_sets.iter().any(|row| row.buffer_pool == id) {
            continue;
        }
        let statistics = pool.statistics();
        usage.buffer_pools.push(BufferPoolUsageRow {
            id,
            buffers: statistics.qpstnbuf,
            stealable: statistics.qpstcbs,
            stealable_percentage: (statistics.qpstcbs * 100)
                .checked_div(statistics.qpstnbuf)
                .unwrap_or(0),
            buffers_at_restart: configuration
                .buffer_pools
                .iter()
                .find(|definition| definition.id == id)
                .map(|definition| definition.buffers),
            page_class: pool.page_class(),
        });
    }
    Ok(usage)
}

/// Where an RBA of the log is: the data set (active or archive log, first copy) that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLocation {
    pub rba: Rba,
    /// The file, relative to the queue manager's directory (active logs) or the archive
    /// directory (archives); `None` when no log in the BSDS holds it any longer.
    pub data_set: Option<String>,
    /// An active log (else an archive).
    pub active: bool,
}

/// The data set of `bsds` that holds `rba`.
pub fn locate(bsds: &Bsds, rba: Rba) -> LogLocation {
    for log in &bsds.active_logs {
        let Some(start) = log.start_rba else { continue };
        if rba.0 >= start && log.end_rba.is_none_or(|end| rba.0 < end) {
            return LogLocation {
                rba,
                data_set: log.copies.first().cloned(),
                active: true,
            };
        }
    }
    for archive in &bsds.archives {
        if rba.0 >= archive.start_rba && rba.0 < archive.end_rba {
            return LogLocation {
                rba,
                data_set: archive.copies.first().cloned(),
                active: false,
            };
        }
    }
    LogLocation {
        rba,
        data_set: None,
        active: false,
    }
}

/// TYPE(DATASET): the queue manager's restart RBA and each page set's recovery RBA, located.
pub struct DataSetUsage {
    /// Where restart starts reading (the checkpoint at or below every page set's RBA).
    pub restart: LogLocation,
    /// The lowest page set recovery RBA: MQ's "oldest for page set recovery".
    pub oldest_page_set_recovery: LogLocation,
    /// (page set, its recovery RBA located), in page set order.
    pub page_sets: Vec<(u8, LogLocation)>,
}

pub fn data_set_usage(queue_manager: &QueueManager) -> StorageResult<DataSetUsage> {
    let bsds = queue_manager.log().bsds();
    let (_, restart, _) = queue_manager.archive_retention_floor()?;
    let mut page_sets: Vec<(u8, LogLocation)> = queue_manager
        .data_manager()
        .spaces()
        .map(|space| {
            let rba = space.page_set.header().recovery_rba;
            (space.id().0, locate(&bsds, rba))
        })
        .collect();
    page_sets.sort_by_key(|(id, _)| *id);
    let oldest = page_sets
        .iter()
        .map(|(_, location)| location.rba)
        .min()
        .unwrap_or(restart);
    Ok(DataSetUsage {
        restart: locate(&bsds, restart),
        oldest_page_set_recovery: locate(&bsds, oldest),
        page_sets,
    })
}

/// The csect DISPLAY USAGE's messages name (MQ's data manager's).
const CSECT: &str = "CSQIDUSE";

/// DISPLAY USAGE's TYPE values, in MQ's order.
const USAGE_TYPES: [&str; 4] = ["PAGESET", "DATASET", "SMDS", "ALL"];

pub(crate) fn display_usage(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(rest, &[("PSID", Takes::Value), ("TYPE", Takes::Value)])
        .map_err(|e| context.syntax(e))?;
    let mut page_set: Option<u8> = None;
    let mut usage_type = 0; // PAGESET
    for (token, value) in &found {
        let value = value.expect("PSID and TYPE take values");
        match token.keyword.as_str() {
            "PSID" if value.text == "*" => page_set = None,
            "PSID" => {
                let id = value.text.parse::<u64>().map_err(|_| {
                    context.syntax(value_error(
                        token,
                        value,
                        "a page set number 0-99 or * is needed",
                    ))
                })?;
                if id > u64::from(PageSetId::MAX) {
                    return Err(Failure(vec![format!(
                        "CSQI002I {} {CSECT} Page set {id} value out of range (0-{})",
                        context.name,
                        PageSetId::MAX
                    )]));
                }
                page_set = Some(id as u8);
            }
            _ => usage_type = choice(token, value, &USAGE_TYPES).map_err(|e| context.syntax(e))?,
        }
    }
    let (pages, data_sets) = match USAGE_TYPES[usage_type] {
        "PAGESET" => (true, false),
        "DATASET" => (false, true),
        "ALL" => (true, true),
        _ => {
            return Err(Failure(vec![format!(
                "CSQ9032E {} {CSECT} Requested function is not available: TYPE(SMDS) (shared message data sets belong to a queue sharing group, which Ferrite has not)",
                context.name
            )]))
        }
    };
    if let (Some(id), false) = (page_set, pages) {
        return Err(Failure(vec![format!(
            "CSQI003I {} {CSECT} 'PSID' not allowed with TYPE(DATASET): PSID({id:02}) asks for one page set, the log data sets serve them all",
            context.name
        )]));
    }
    let queue_manager = context.queue_manager;
    if let Some(id) = page_set {
        if queue_manager.data_manager().space(PageSetId(id)).is_err() {
            return Err(Failure(vec![format!(
                "CSQI005I {} {CSECT} PAGE SET {id:02} OFFLINE. RECOVERY RBA = NONE: page set {id:02} is not defined to the queue manager (DEFINE PSID({id:02}) BUFFPOOL(n) defines it; DISPLAY USAGE lists those defined)",
                context.name
            )]));
        }
    }
    let mut output = Output::default();
    if pages {
        let report =
            page_set_report(context, page_set).map_err(|error| context.storage(CSECT, error))?;
        output.report(&report);
    }
    if data_sets {
        let report = data_set_report(context).map_err(|error| context.storage(CSECT, error))?;
        output.report(&report);
    }
    Ok(output)
}

/// CSQI010I, CSQI065I and the pools' statistics, for every page set or `only` one.
fn page_set_report(context: &Context, only: Option<u8>) -> StorageResult<String> {
    let usage = page_set_usage(context.queue_manager, only)?;
    let name = &context.name;
    let mut text = format!("CSQI010I {name} Page set usage ...\n");
    text.push_str(" Page   Buffer     Total     Unused  Persistent  NonPersist   Expansion\n  set     pool     pages      pages  data pages  data pages       count\n");
    for row in &usage.page_sets {
        let state = match row.expand {
            Some(expand) => format!("{expand:?}"),
            None => "DELETED (detached at restart)".to_string(),
        };
        text.push_str(&format!(
            "_  {:02} {:>8} {:>9} {:>10} {:>11} {:>11}   {state} {}\n",
            row.id,
            row.buffer_pool,
            row.total_pages,
            row.unused_pages,
            row.classes.persistent,
            row.classes.non_persistent,
            row.expansions_recorded
        ));
    }
    text.push_str(" End of page set report\n");
    text.push_str(&format!("CSQI065I {name} Buffer pool attributes ...\n"));
    text.push_str(" Buffer  Available     Stealable    Stealable  Page   Location\n   pool    buffers       buffers   percentage  class\n");
    for row in &usage.buffer_pools {
        let pending = match row.buffers_at_restart {
            Some(buffers) if u64::from(buffers) != row.buffers => {
                format!("   BUFFERS({buffers}) at restart")
            }
            Some(_) => String::new(),
            None => "   DELETED (freed at restart)".to_string(),
        };
        text.push_str(&format!(
            "_  {:>3} {:>10} {:>13} {:>12}  {:<6} ABOVE{pending}\n",
            row.id,
            row.buffers,
            row.stealable,
            row.stealable_percentage,
            row.page_class.keyword(),
        ));
    }
    text.push_str(" End of buffer pool attributes\n");
    if only.is_none() {
        text.push_str(&context.queue_manager.display_buffer_pool_statistics());
    }
    Ok(text)
}

/// CSQI024I and CSQI070I.
fn data_set_report(context: &Context) -> StorageResult<String> {
    let usage = data_set_usage(context.queue_manager)?;
    let name = &context.name;
    let located = |location: &LogLocation| match &location.data_set {
        Some(data_set) if location.active => format!("{}  {data_set} (active log)", location.rba),
        Some(data_set) => format!("{}  {data_set} (archive log)", location.rba),
        None => format!("{}  no longer in any log data set", location.rba),
    };
    let mut text = format!(
        "CSQI024I {name} {CSECT} Restart RBA for system as configured={}\n",
        usage.restart.rba
    );
    text.push_str(&format!("CSQI070I {name} {CSECT} Data set usage ...\n"));
    text.push_str(" Data set            RBA               DSName\n");
    text.push_str(" Log, restart (checkpoint):\n");
    text.push_str(&format!(
        "                     {}\n",
        located(&usage.restart)
    ));
    text.push_str(" Log, oldest for page set recovery:\n");
    text.push_str(&format!(
        "                     {}\n",
        located(&usage.oldest_page_set_recovery)
    ));
    for (id, location) in &usage.page_sets {
        text.push_str(&format!(" Page set {id:02} recovery:\n"));
        text.push_str(&format!("                     {}\n", located(location)));
    }
    text.push_str(" End of data set report\n");
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrite_storage::log::bsds::{ActiveLogEntry, ActiveLogStatus, ArchiveEntry};

    #[test]
    fn an_rba_is_found_in_the_active_or_archive_log_that_holds_it() {
        let mut bsds = Bsds::new(2, 1, false);
        bsds.archives.push(ArchiveEntry {
            start_rba: 0,
            end_rba: 1000,
            content_bytes: 1000,
            compressed: false,
            copies: vec!["A0000001.arc".to_string()],
            created_unix_seconds: 0,
        });
        bsds.active_logs = vec![
            ActiveLogEntry {
                data_set_number: 1,
                copies: vec!["active/LOGCOPY1.DS01".to_string()],
                status: ActiveLogStatus::Reusable,
                start_rba: Some(1000),
                end_rba: Some(2000),
            },
            ActiveLogEntry {
                data_set_number: 2,
                copies: vec!["active/LOGCOPY1.DS02".to_string()],
                status: ActiveLogStatus::Reusable,
                start_rba: Some(2000),
                end_rba: None,
            },
        ];
        let at = |rba| locate(&bsds, Rba(rba));
        assert_eq!(at(10).data_set.as_deref(), Some("A0000001.arc"));
        assert!(!at(10).active);
        assert_eq!(at(1000).data_set.as_deref(), Some("active/LOGCOPY1.DS01"));
        assert!(at(1999).active);
        assert_eq!(at(5000).data_set.as_deref(), Some("active/LOGCOPY1.DS02"));
        bsds.archives.clear();
        assert_eq!(locate(&bsds, Rba(10)).data_set, None, "deleted archive");
    }
}
