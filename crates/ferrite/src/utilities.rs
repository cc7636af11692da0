//! Storage utilities, the analogues of CSQUTIL (FORMAT, COPYPAGE, RESETPAGE) and CSQ1LOGP:
//! format, verify, back up, restore and reset page sets; print and verify the log.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};

use ferrite_queue_manager::{page_set_path, QueueManager};
use ferrite_storage::config::{PageSetDefinition, QueueManagerConfig};
use ferrite_storage::log::LogManager;
use ferrite_storage::log_records::RecoveryRecord;
use ferrite_storage::page::{PageBytes, PAGE_SIZE};
use ferrite_storage::page_set::PageSet;
use ferrite_storage::vfs::{FileSystem, RealFileSystem};
use ferrite_storage::{PageNumber, PageSetId, Rba, StorageError};

use crate::process::{
    not_available, queue_manager_directory, queue_manager_status, QueueManagerLock,
    QueueManagerState, QueueManagerStatus,
};

#[derive(Subcommand)]
pub enum PageSetCommand {
    /// FORMAT: create a new, empty page set file for a page set defined in qm.toml.
    Format {
        queue_manager: String,
        psid: u8,
        /// Size in 4 KiB pages (default: the primary size in qm.toml).
        #[arg(long)]
        pages: Option<u32>,
    },
    /// Verify every page's checksum and identity (queue manager stopped).
    Verify {
        queue_manager: String,
        /// Only this page set (default: all).
        #[arg(long)]
        psid: Option<u8>,
    },
    /// COPYPAGE: back up a page set, also while the queue manager runs (a fuzzy copy; restore
    /// and restart recover it from the log starting at the RBA in its header).
    Backup {
        queue_manager: String,
        psid: u8,
        file: PathBuf,
    },
    /// Restore a page set from a backup (queue manager stopped); the next start recovers it
    /// from the log.
    Restore {
        queue_manager: String,
        psid: u8,
        file: PathBuf,
    },
    /// RESETPAGE FORCE: accept the page set's contents as they are; no earlier log record will be
    /// applied to it (queue manager stopped).
    Reset { queue_manager: String, psid: u8 },
}

#[derive(Subcommand)]
pub enum LogCommand {
    /// CSQ1LOGP: print log records from an RBA (default: the oldest available).
    Print {
        queue_manager: String,
        /// Start RBA in hex.
        #[arg(long)]
        from: Option<String>,
        /// Print at most this many records.
        #[arg(long)]
        limit: Option<u64>,
    },
    /// Read every available log record and check it decodes.
    Verify { queue_manager: String },
}

/// One progress bar at a time, replaced when the label changes.
pub struct ProgressBars {
    current: RefCell<Option<(String, ProgressBar)>>,
}

impl ProgressBars {
    pub fn new() -> ProgressBars {
        ProgressBars {
            current: RefCell::new(None),
        }
    }

    pub fn update(&self, label: &str, done: u64, total: u64) {
        let mut current = self.current.borrow_mut();
        if current.as_ref().is_none_or(|(name, _)| name != label) {
            if let Some((_, bar)) = current.take() {
                bar.finish();
            }
            let bar = ProgressBar::new(total.max(1));
            bar.set_style(
                ProgressStyle::with_template("{msg:30} [{bar:40}] {pos}/{len} ({eta})")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar.set_message(label.to_string());
            *current = Some((label.to_string(), bar));
        }
        if let Some((_, bar)) = current.as_ref() {
            bar.set_length(total.max(1));
            bar.set_position(done);
        }
    }

    pub fn finish(&self) {
        if let Some((_, bar)) = self.current.borrow_mut().take() {
            bar.finish();
        }
    }
}

fn failure(error: StorageError) -> String {
    format!("ferrite: {error} [reason {}]", error.reason_code())
}

fn stopped(name: &str) -> Result<(PathBuf, QueueManagerLock), String> {
    let directory = queue_manager_directory(name)?;
    if !QueueManager::exists(&RealFileSystem, &directory) {
        return Err(format!(
            "ferrite: queue manager {name} does not exist [reason 2058 MQRC_Q_MGR_NAME_ERROR]"
        ));
    }
    let lock = QueueManagerLock::acquire(&directory).map_err(|_| held_by(name, &directory))?;
    Ok((directory, lock))
}

/// Why a utility cannot have `name` to itself: who holds it, as `ferrite status` says.
fn held_by(name: &str, directory: &Path) -> String {
    match queue_manager_status(directory) {
        Ok(QueueManagerStatus {
            state: QueueManagerState::InUseByCommand,
            ..
        }) => not_available(name, directory),
        Ok(QueueManagerStatus {
            state,
            pid: Some(pid),
        }) => format!(
            "ferrite: queue manager {name} is running: STATUS({}) PID({pid}); stop it first [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]",
            state.text()
        ),
        _ => format!(
            "ferrite: queue manager {name} is running; stop it first [reason 2059 MQRC_Q_MGR_NOT_AVAILABLE]"
        ),
    }
}

fn identity(directory: &Path) -> Result<u64, String> {
    let text = std::fs::read_to_string(directory.join("QMID"))
        .map_err(|error| format!("ferrite: QMID: {error}"))?;
    u64::from_str_radix(text.trim(), 16).map_err(|_| "ferrite: QMID is damaged".to_string())
}

pub fn page_set_command(command: PageSetCommand) -> Result<(), String> {
    match command {
        PageSetCommand::Format {
            queue_manager,
            psid,
            pages,
        } => format_page_set(&queue_manager, psid, pages),
        PageSetCommand::Verify {
            queue_manager,
            psid,
        } => verify_page_sets(&queue_manager, psid),
        PageSetCommand::Backup {
            queue_manager,
            psid,
            file,
        } => back_up_page_set(&queue_manager, psid, &file),
        PageSetCommand::Restore {
            queue_manager,
            psid,
            file,
        } => restore_page_set(&queue_manager, psid, &file),
        PageSetCommand::Reset {
            queue_manager,
            psid,
        } => reset_page_set(&queue_manager, psid),
    }
}

/// FORMAT: a new, empty page set file of `pages` (default: the primary size in qm.toml).
fn format_page_set(queue_manager: &str, psid: u8, pages: Option<u32>) -> Result<(), String> {
    let fs = RealFileSystem;
    let (directory, _lock) = stopped(queue_manager)?;
    let config = QueueManager::read_config(&fs, &directory).map_err(failure)?;
    let definition = defined_page_set(&config, psid)?;
    let progress = ProgressBars::new();
    let label = format!("formatting page set {psid:02}");
    PageSet::format(
        &fs,
        &page_set_path(&directory, psid),
        PageSetId(psid),
        pages.unwrap_or(definition.primary_pages),
        identity(&directory)?,
        &mut |done, total| progress.update(&label, done, total),
    )
    .map_err(failure)?;
    progress.finish();
    println!("CSQU012I Page set {psid:02} formatted");
    Ok(())
}

/// Page set `psid`'s definition in qm.toml.
fn defined_page_set(config: &QueueManagerConfig, psid: u8) -> Result<&PageSetDefinition, String> {
    config
        .page_sets
        .iter()
        .find(|definition| definition.id == psid)
        .ok_or_else(|| format!("ferrite: page set {psid:02} is not defined in qm.toml"))
}

/// Page set `definition` of the queue manager in `directory`, opened as qm.toml defines it.
fn open_page_set(
    fs: &RealFileSystem,
    directory: &Path,
    definition: &PageSetDefinition,
) -> Result<Arc<PageSet>, String> {
    PageSet::open(
        fs,
        &page_set_path(directory, definition.id),
        PageSetId(definition.id),
        definition.expand,
        definition.secondary_pages,
        definition.maximum_pages,
    )
    .map_err(failure)
}

/// Every page's checksum and identity, of one page set or all (queue manager stopped).
fn verify_page_sets(queue_manager: &str, psid: Option<u8>) -> Result<(), String> {
    let fs = RealFileSystem;
    let (directory, _lock) = stopped(queue_manager)?;
    let config = QueueManager::read_config(&fs, &directory).map_err(failure)?;
    let mut damaged = 0u64;
    for definition in config
        .page_sets
        .iter()
        .filter(|definition| psid.is_none_or(|id| id == definition.id))
    {
        let page_set = open_page_set(&fs, &directory, definition)?;
        let total = page_set.page_count();
        let progress = ProgressBars::new();
        let label = format!("verifying page set {:02}", definition.id);
        let mut page = PageBytes::zeroed();
        for number in 0..total {
            if let Err(error) = page_set.read_page(PageNumber(number), &mut page) {
                damaged += 1;
                eprintln!("{error}");
            }
            if number.is_multiple_of(1024) || number + 1 == total {
                progress.update(&label, number as u64 + 1, total as u64);
            }
        }
        progress.finish();
        println!(
            "Page set {:02}: {total} pages verified, recovery RBA {}",
            definition.id,
            page_set.header().recovery_rba
        );
    }
    if damaged > 0 {
        return Err(format!("ferrite: {damaged} damaged pages"));
    }
    Ok(())
}

/// COPYPAGE: a copy of the page set to `file`, registered for archive retention.
fn back_up_page_set(queue_manager: &str, psid: u8, file: &Path) -> Result<(), String> {
    let directory = queue_manager_directory(queue_manager)?;
    copy_pages(
        &page_set_path(&directory, psid),
        file,
        &format!("backing up page set {psid:02}"),
    )?;
    // Keep the archives this backup's media recovery needs (archive retention).
    let recovery_rba = ferrite_storage::log::retention::register_backup_file(
        &RealFileSystem,
        &directory,
        PageSetId(psid),
        file,
    )
    .map_err(failure)?;
    println!(
        "CSQU150I Page set {psid:02} copied to {} (media recovery from RBA {recovery_rba})",
        file.display()
    );
    Ok(())
}

/// A backup of page set `psid` copied back in place, once its header says it is one.
fn restore_page_set(queue_manager: &str, psid: u8, file: &Path) -> Result<(), String> {
    let fs = RealFileSystem;
    let (directory, _lock) = stopped(queue_manager)?;
    let mut header = PageBytes::zeroed();
    let source = fs
        .open(file, ferrite_storage::vfs::OpenMode::ReadOnly)
        .map_err(|error| format!("ferrite: {}: {error}", file.display()))?;
    source
        .read_at(&mut header.0, 0)
        .map_err(|error| format!("ferrite: {}: {error}", file.display()))?;
    header
        .verify(PageSetId(psid), PageNumber(0))
        .map_err(|defect| {
            format!(
                "ferrite: {} is not a backup of page set {psid:02}: {defect}",
                file.display()
            )
        })?;
    // The double-write file belongs to the page set being replaced: drop it, so no image
    // of it is ever applied to the restored copy (open creates a fresh one).
    let double_write =
        ferrite_storage::page_set::double_write_path(&page_set_path(&directory, psid));
    if double_write.exists() {
        std::fs::remove_file(&double_write)
            .map_err(|error| format!("ferrite: {}: {error}", double_write.display()))?;
    }
    copy_pages(
        file,
        &page_set_path(&directory, psid),
        &format!("restoring page set {psid:02}"),
    )?;
    println!("Page set {psid:02} restored; the next start recovers it from the log");
    Ok(())
}

/// RESETPAGE: every page's RBA cleared and the page set's recovery RBA set to the log's end.
fn reset_page_set(queue_manager: &str, psid: u8) -> Result<(), String> {
    let fs = RealFileSystem;
    let (directory, _lock) = stopped(queue_manager)?;
    let config = QueueManager::read_config(&fs, &directory).map_err(failure)?;
    let definition = defined_page_set(&config, psid)?;
    let shared: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let log =
        LogManager::open(shared, &directory, &config.log, &config.archive).map_err(failure)?;
    let end = log.end_rba();
    log.shutdown().map_err(failure)?;
    let page_set = open_page_set(&fs, &directory, definition)?;
    let total = page_set.page_count();
    let progress = ProgressBars::new();
    let label = format!("resetting page set {psid:02}");
    let mut page = PageBytes::zeroed();
    for number in 1..total {
        page_set
            .read_page(PageNumber(number), &mut page)
            .map_err(failure)?;
        if !page.is_all_zero() && page.page_rba() != Rba::ZERO {
            page.set_page_rba(Rba::ZERO);
            page_set
                .write_pages(PageNumber(number), &[&page])
                .map_err(failure)?;
        }
        if number.is_multiple_of(1024) || number + 1 == total {
            progress.update(&label, number as u64 + 1, total as u64);
        }
    }
    page_set.sync().map_err(failure)?;
    page_set.set_recovery_rba(end).map_err(failure)?;
    progress.finish();
    println!("CSQU160I Page set {psid:02} reset; recovery RBA is now {end}");
    Ok(())
}

fn copy_pages(from: &Path, to: &Path, label: &str) -> Result<(), String> {
    let fs = RealFileSystem;
    let source = fs
        .open(from, ferrite_storage::vfs::OpenMode::ReadOnly)
        .map_err(|error| format!("ferrite: {}: {error}", from.display()))?;
    let length = source
        .len()
        .map_err(|error| format!("ferrite: {}: {error}", from.display()))?;
    if length % PAGE_SIZE as u64 != 0 {
        return Err(format!(
            "ferrite: {} is not a whole number of 4 KiB pages",
            from.display()
        ));
    }
    let temporary = to.with_extension("copying");
    std::fs::remove_file(&temporary).ok();
    let target = fs
        .open(&temporary, ferrite_storage::vfs::OpenMode::CreateNew)
        .map_err(|error| format!("ferrite: {}: {error}", temporary.display()))?;
    let progress = ProgressBars::new();
    let chunk_pages = 256u64;
    let mut buffer = vec![0u8; chunk_pages as usize * PAGE_SIZE];
    let total_pages = length / PAGE_SIZE as u64;
    // Page 0 first: its recovery RBA is where log recovery of this (fuzzy) copy starts.
    let mut page = 0u64;
    while page < total_pages {
        let pages = chunk_pages.min(total_pages - page);
        let bytes = &mut buffer[..(pages as usize * PAGE_SIZE)];
        source
            .read_at(bytes, page * PAGE_SIZE as u64)
            .map_err(|error| format!("ferrite: read {}: {error}", from.display()))?;
        target
            .write_at(bytes, page * PAGE_SIZE as u64)
            .map_err(|error| format!("ferrite: write {}: {error}", temporary.display()))?;
        page += pages;
        progress.update(label, page, total_pages);
    }
    target
        .sync_data()
        .map_err(|error| format!("ferrite: sync {}: {error}", temporary.display()))?;
    std::fs::rename(&temporary, to)
        .map_err(|error| format!("ferrite: rename to {}: {error}", to.display()))?;
    progress.finish();
    Ok(())
}

/// `ferrite log print|verify` (CSQ1LOGP). The log is opened as restart opens it: active logs of
/// format 1 are converted to format 2, and the records of the partial last page, which format 2
/// keeps in a ping-pong slot until the page is final, are read from the slot (and written in
/// place) like every other record.
pub fn log_command(command: LogCommand) -> Result<(), String> {
    let (queue_manager, verify_only, from, limit) = match command {
        LogCommand::Print {
            queue_manager,
            from,
            limit,
        } => (queue_manager, false, from, limit),
        LogCommand::Verify { queue_manager } => (queue_manager, true, None, None),
    };
    let (directory, _lock) = stopped(&queue_manager)?;
    let config = QueueManager::read_config(&RealFileSystem, &directory).map_err(failure)?;
    let from = match from {
        Some(text) => Some(Rba(u64::from_str_radix(text.trim_start_matches("0x"), 16)
            .map_err(|_| format!("ferrite: '{text}' is not a hex RBA"))?)),
        None => None,
    };
    let shared: Arc<dyn FileSystem> = Arc::new(RealFileSystem);
    let log =
        LogManager::open(shared, &directory, &config.log, &config.archive).map_err(failure)?;
    // The oldest available record: the start of the oldest archive the BSDS still lists (it
    // forgets the oldest beyond MAXARCH), or RBA 0 while nothing has been archived.
    let from = from.unwrap_or_else(|| {
        log.archives()
            .first()
            .map_or(Rba::ZERO, |archive| Rba(archive.start_rba))
    });
    let end = log.end_rba();
    let progress = ProgressBars::new();
    let mut records = 0u64;
    let mut problems = 0u64;
    for record in log.read_forward(from).map_err(failure)? {
        let record = record.map_err(failure)?;
        records += 1;
        if record.kind >= 0xF0 {
            continue;
        }
        match RecoveryRecord::decode(record.kind, &record.payload) {
            Ok(decoded) if !verify_only => println!("{}", decoded.describe(record.rba)),
            Ok(_) => {}
            Err(error) => {
                problems += 1;
                eprintln!(
                    "{} record of kind {} does not decode: {error}",
                    record.rba, record.kind
                );
            }
        }
        if verify_only && records.is_multiple_of(4096) {
            progress.update(
                "verifying log",
                record.rba.0 - from.0,
                end.0.saturating_sub(from.0),
            );
        }
        if limit.is_some_and(|limit| records >= limit) {
            break;
        }
    }
    progress.finish();
    log.shutdown().map_err(failure)?;
    println!("CSQ1LOGP {records} records read from RBA {from} to {end}, {problems} damaged");
    if problems > 0 {
        return Err(format!("ferrite: {problems} log records are damaged"));
    }
    Ok(())
}
