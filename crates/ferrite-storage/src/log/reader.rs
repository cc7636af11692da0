//! Reading the log forward, online (restart, media recovery) and offline (the print-log utility,
//! the CSQ1LOGP analogue).
//!
//! A record at RBA `r` is looked for, in order, in the active log whose current use covers `r`
//! (copy 1, then copy 2) and in the archive covering `r` (copy 1, then copy 2). The first copy
//! where the record verifies wins. Records are self-checking and their checksum covers their
//! RBA, so a read that races with the reuse of an active log simply fails verification there and
//! is satisfied from the archive, which is always recorded before an active log becomes
//! reusable. End-of-file markers are skipped: readers see only the callers' records.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::config::ArchiveParameters;
use crate::error::{StorageError, StorageResult};
use crate::types::Rba;
use crate::vfs::{FileSystem, OpenMode};

use super::active::{ActiveLogFiles, ACTIVE_LOG_HEADER_BYTES};
use super::archive::ArchiveFile;
use super::bsds::{ArchiveEntry, Bsds};
use super::record::{self, LOG_RECORD_HEADER_BYTES};
use super::restart;
use super::statistics::{bump, LogCounters};
use super::{archive_directory, LogRecord, RingEntry};

/// Where log bytes can be read from: the active logs and the archives.
pub(crate) struct LogSources {
    pub fs: Arc<dyn FileSystem>,
    pub archive_directory: PathBuf,
    pub files: ActiveLogFiles,
    pub ring: Mutex<Vec<RingEntry>>,
    pub archives: RwLock<Vec<ArchiveEntry>>,
    pub counters: LogCounters,
}

/// How far a reader may read.
pub(crate) enum ReadLimit {
    /// Up to the log manager's durable RBA, as it moves.
    Moving(Arc<AtomicU64>),
    /// Up to a fixed RBA (offline).
    Fixed(u64),
}

enum Found {
    Record(LogRecord),
    /// An end-of-file marker: continue at this RBA.
    Skip(u64),
}

/// Iterator over log records from a record boundary to the end of the written log.
pub struct LogReader {
    sources: Arc<LogSources>,
    limit: ReadLimit,
    position: u64,
    /// Archive copies kept open: (start RBA, copy, file).
    open_archives: Vec<(u64, usize, ArchiveFile)>,
    peeked: Option<LogRecord>,
    failed: bool,
}

/// Archive files kept open by one reader.
const OPEN_ARCHIVES_MAX: usize = 4;

impl LogReader {
    pub(crate) fn start(
        sources: Arc<LogSources>,
        limit: ReadLimit,
        from: Rba,
    ) -> StorageResult<LogReader> {
        let mut reader = LogReader {
            sources,
            limit,
            position: from.0,
            open_archives: Vec::new(),
            peeked: None,
            failed: false,
        };
        // The first record must be valid: `from` must be a record boundary.
        match reader.read_next() {
            Ok(record) => reader.peeked = record,
            Err(error) => {
                return Err(StorageError::invalid(format!(
                    "RBA {from} is not the start of a readable log record: {error}"
                )))
            }
        }
        Ok(reader)
    }

    /// RBA of the next record to be returned.
    pub fn position(&self) -> Rba {
        match &self.peeked {
            Some(record) => record.rba,
            None => Rba(self.position),
        }
    }

    fn limit(&self) -> u64 {
        match &self.limit {
            ReadLimit::Moving(durable) => durable.load(Ordering::Acquire),
            ReadLimit::Fixed(end) => *end,
        }
    }

    fn read_next(&mut self) -> StorageResult<Option<LogRecord>> {
        loop {
            if self.position >= self.limit() {
                return Ok(None);
            }
            match self.read_at(self.position)? {
                Found::Record(record) => {
                    self.position = record.end_rba.0;
                    return Ok(Some(record));
                }
                Found::Skip(next) => self.position = next,
            }
        }
    }

    /// Read the record at `rba` from the first source where it verifies.
    fn read_at(&mut self, rba: u64) -> StorageResult<Found> {
        let mut defects: Vec<String> = Vec::new();
        let active = {
            let ring = self.sources.ring.lock().unwrap();
            ring.iter()
                .enumerate()
                .find_map(|(number, entry)| match (entry.start, entry.end) {
                    (Some(start), end) if start <= rba && end.is_none_or_past(rba) => {
                        Some((number, start))
                    }
                    _ => None,
                })
        };
        if let Some((number, start)) = active {
            for copy in 0..self.sources.files.copies() {
                match self.read_active(number, copy, start, rba) {
                    Ok(found) => {
                        bump(&self.sources.counters.qjstract, 1);
                        return Ok(found);
                    }
                    Err(defect) => defects.push(format!(
                        "{}: {defect}",
                        self.sources.files.path(number, copy).display()
                    )),
                }
            }
        }
        let archive = {
            let archives = self.sources.archives.read().unwrap();
            archives
                .iter()
                .find(|entry| entry.start_rba <= rba && rba < entry.start_rba + entry.content_bytes)
                .cloned()
        };
        if let Some(entry) = archive {
            for copy in 0..entry.copies.len() {
                match self.read_archive(&entry, copy, rba) {
                    Ok(found) => return Ok(found),
                    Err(defect) => defects.push(format!(
                        "{}: {defect}",
                        self.sources
                            .archive_directory
                            .join(&entry.copies[copy])
                            .display()
                    )),
                }
            }
        }
        if defects.is_empty() {
            defects.push("no active log or archive holds this RBA".to_string());
        }
        Err(StorageError::CorruptLog {
            path: self.sources.archive_directory.clone(),
            rba: Rba(rba),
            detail: defects.join("; "),
        })
    }

    fn read_active(
        &self,
        number: usize,
        copy: usize,
        start: u64,
        rba: u64,
    ) -> Result<Found, String> {
        let file = &self.sources.files.files[number][copy];
        let available = start + self.sources.files.data_bytes - rba;
        if available < LOG_RECORD_HEADER_BYTES as u64 {
            return Err("past the end of the file".to_string());
        }
        let offset = ACTIVE_LOG_HEADER_BYTES + (rba - start);
        let mut header_bytes = [0u8; LOG_RECORD_HEADER_BYTES];
        file.read_at(&mut header_bytes, offset)
            .map_err(|error| format!("cannot read: {error}"))?;
        let header =
            record::decode_header(&header_bytes, available).map_err(|defect| defect.to_string())?;
        finish_record(rba, header, |payload| {
            file.read_at(payload, offset + LOG_RECORD_HEADER_BYTES as u64)
                .map_err(|error| format!("cannot read: {error}"))
        })
    }

    fn read_archive(
        &mut self,
        entry: &ArchiveEntry,
        copy: usize,
        rba: u64,
    ) -> Result<Found, String> {
        let slot = match self
            .open_archives
            .iter()
            .position(|(start, c, _)| *start == entry.start_rba && *c == copy)
        {
            Some(slot) => slot,
            None => {
                let path = self.sources.archive_directory.join(&entry.copies[copy]);
                let file = ArchiveFile::open(&*self.sources.fs, &path)?;
                if file.header.start_rba != entry.start_rba
                    || file.header.content_bytes != entry.content_bytes
                {
                    return Err("archive header does not match the BSDS inventory".to_string());
                }
                bump(&self.sources.counters.qjstalr, 1);
                if self.open_archives.len() >= OPEN_ARCHIVES_MAX {
                    self.open_archives.remove(0);
                }
                self.open_archives.push((entry.start_rba, copy, file));
                self.open_archives.len() - 1
            }
        };
        let archive = &mut self.open_archives[slot].2;
        let available = entry.start_rba + entry.content_bytes - rba;
        let mut header_bytes = [0u8; LOG_RECORD_HEADER_BYTES];
        if available < LOG_RECORD_HEADER_BYTES as u64 {
            return Err("past the end of the archived content".to_string());
        }
        archive.read(rba, &mut header_bytes)?;
        // A marker's padding is not archived: allow its length to reach the archive's end RBA.
        let header = record::decode_header(&header_bytes, entry.end_rba - rba)
            .map_err(|defect| defect.to_string())?;
        if !header.is_end_of_file() && u64::from(header.length) > available {
            return Err(format!(
                "record length {} runs past the archived content",
                header.length
            ));
        }
        finish_record(rba, header, |payload| {
            archive.read(rba + LOG_RECORD_HEADER_BYTES as u64, payload)
        })
    }
}

/// Small helper: is `rba` before the end of an optional range end (`None` = open-ended).
trait OpenEnd {
    fn is_none_or_past(&self, rba: u64) -> bool;
}

impl OpenEnd for Option<u64> {
    fn is_none_or_past(&self, rba: u64) -> bool {
        match self {
            None => true,
            Some(end) => rba < *end,
        }
    }
}

/// Read the payload of a decoded header through `read_payload` and verify the record.
fn finish_record(
    rba: u64,
    header: record::RecordHeader,
    read_payload: impl FnOnce(&mut [u8]) -> Result<(), String>,
) -> Result<Found, String> {
    if header.is_end_of_file() {
        record::verify(Rba(rba), &header, 0).map_err(|defect| defect.to_string())?;
        return Ok(Found::Skip(rba + u64::from(header.length)));
    }
    let mut payload = vec![0u8; header.payload_len()];
    read_payload(&mut payload)?;
    record::verify(Rba(rba), &header, crc32c::crc32c(&payload))
        .map_err(|defect| defect.to_string())?;
    Ok(Found::Record(LogRecord {
        rba: Rba(rba),
        end_rba: Rba(rba + u64::from(header.length)),
        kind: header.kind,
        payload,
    }))
}

impl Iterator for LogReader {
    type Item = StorageResult<LogRecord>;
    fn next(&mut self) -> Option<Self::Item> {
        if let Some(record) = self.peeked.take() {
            return Some(Ok(record));
        }
        if self.failed {
            return None;
        }
        match self.read_next() {
            Ok(record) => record.map(Ok),
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

/// What [`OfflineLog::verify`] found.
#[derive(Clone, Debug)]
pub struct LogVerifyReport {
    pub bsds: Bsds,
    /// Lowest RBA still available (oldest archive or active log).
    pub first_rba: Rba,
    /// End of the log (RBA of the next record).
    pub end_rba: Rba,
    /// Where restart would begin scanning (the last checkpoint, if still in the active logs).
    pub restart_scan_rba: Rba,
    pub records: u64,
    pub payload_bytes: u64,
    pub records_by_kind: BTreeMap<u8, u64>,
    /// Damage and inconsistencies found (empty for a healthy log). Restart repairs what it can
    /// (a damaged dual copy, a damaged BSDS copy); the rest are listed here.
    pub problems: Vec<String>,
}

impl LogVerifyReport {
    pub fn is_healthy(&self) -> bool {
        self.problems.is_empty()
    }
}

/// A recovery log opened read-only, without a log manager (the print-log utility). Nothing is
/// written: damage that restart would repair is reported instead.
pub struct OfflineLog {
    sources: Arc<LogSources>,
    bsds: Bsds,
    bsds_problems: Vec<String>,
    end_rba: u64,
    scan_start: u64,
    recovery_problems: Vec<String>,
}

impl OfflineLog {
    pub fn open(
        fs: Arc<dyn FileSystem>,
        directory: &Path,
        archive: &ArchiveParameters,
    ) -> StorageResult<OfflineLog> {
        let outcome = Bsds::read_with_damage(&*fs, directory)?;
        let bsds = outcome.bsds;
        let bsds_problems = outcome
            .damaged
            .iter()
            .map(|(path, reason)| format!("BSDS copy {}: {reason}", path.display()))
            .collect();
        let copies = if bsds.twoactv { 2 } else { 1 };
        let data_bytes = u64::from(bsds.active_log_size_mib) * 1024 * 1024;
        let files = ActiveLogFiles::open(
            &*fs,
            directory,
            bsds.active_log_count as usize,
            copies,
            data_bytes,
            OpenMode::ReadOnly,
        )?;
        let counters = LogCounters::default();
        let recovered = restart::recover(&files, &bsds, false, &counters)?;
        let sources = Arc::new(LogSources {
            fs,
            archive_directory: archive_directory(directory, archive),
            files,
            ring: Mutex::new(recovered.ring.clone()),
            archives: RwLock::new(bsds.archives.clone()),
            counters,
        });
        Ok(OfflineLog {
            sources,
            bsds,
            bsds_problems,
            end_rba: recovered.end_rba,
            scan_start: recovered.scan_start,
            recovery_problems: recovered.problems,
        })
    }

    pub fn bsds(&self) -> &Bsds {
        &self.bsds
    }

    /// End of the log (RBA of the next record).
    pub fn end_rba(&self) -> Rba {
        Rba(self.end_rba)
    }

    /// Lowest RBA still available in an archive or an active log.
    pub fn first_rba(&self) -> Rba {
        let ring = self.sources.ring.lock().unwrap();
        let oldest_active = ring
            .iter()
            .filter_map(|entry| entry.start)
            .min()
            .unwrap_or(self.end_rba);
        let oldest_archive = self
            .bsds
            .archives
            .iter()
            .map(|entry| entry.start_rba)
            .min()
            .unwrap_or(u64::MAX);
        Rba(oldest_active.min(oldest_archive))
    }

    /// Read records from `from` (a record boundary) to the end of the log.
    pub fn read_forward(&self, from: Rba) -> StorageResult<LogReader> {
        LogReader::start(self.sources.clone(), ReadLimit::Fixed(self.end_rba), from)
    }

    /// Starts of the RBA ranges held by each archive and active log: every one is a record
    /// boundary, where reading can resume after damage.
    fn range_starts(&self) -> Vec<u64> {
        let mut starts: Vec<u64> = self
            .bsds
            .archives
            .iter()
            .map(|entry| entry.start_rba)
            .collect();
        starts.extend(
            self.sources
                .ring
                .lock()
                .unwrap()
                .iter()
                .filter_map(|entry| entry.start),
        );
        starts.sort_unstable();
        starts.dedup();
        starts
    }

    /// Check every record from the oldest available RBA to the end of the log, and every
    /// archive's content checksum.
    pub fn verify(&self) -> LogVerifyReport {
        let mut problems: Vec<String> = self.bsds_problems.clone();
        problems.extend(self.recovery_problems.iter().cloned());
        for entry in &self.bsds.archives {
            for name in &entry.copies {
                let path = self.sources.archive_directory.join(name);
                match ArchiveFile::open(&*self.sources.fs, &path) {
                    Ok(mut file) => {
                        if let Err(error) = file.verify_content() {
                            problems.push(format!("archive {}: {error}", path.display()));
                        }
                    }
                    Err(error) => problems.push(format!("archive {}: {error}", path.display())),
                }
            }
        }
        let mut report = LogVerifyReport {
            bsds: self.bsds.clone(),
            first_rba: self.first_rba(),
            end_rba: Rba(self.end_rba),
            restart_scan_rba: Rba(self.scan_start),
            records: 0,
            payload_bytes: 0,
            records_by_kind: BTreeMap::new(),
            problems: Vec::new(),
        };
        let starts = self.range_starts();
        let mut position = report.first_rba.0;
        while position < self.end_rba {
            let mut reader = LogReader {
                sources: self.sources.clone(),
                limit: ReadLimit::Fixed(self.end_rba),
                position,
                open_archives: Vec::new(),
                peeked: None,
                failed: false,
            };
            let mut failure = None;
            for record in reader.by_ref() {
                match record {
                    Ok(record) => {
                        report.records += 1;
                        report.payload_bytes += record.payload.len() as u64;
                        *report.records_by_kind.entry(record.kind).or_insert(0) += 1;
                    }
                    Err(error) => {
                        failure = Some(error);
                        break;
                    }
                }
            }
            match failure {
                None => break,
                Some(error) => {
                    let at = reader.position;
                    // Resume at the next range start (a known record boundary).
                    match starts.iter().find(|start| **start > at) {
                        Some(next) => {
                            problems.push(format!("unreadable record: {error}; log RBAs {at:016X}-{next:016X} skipped"));
                            position = *next;
                        }
                        None => {
                            problems.push(format!(
                                "unreadable record: {error}; the rest of the log is skipped"
                            ));
                            break;
                        }
                    }
                }
            }
        }
        report.problems = problems;
        report
    }
}
