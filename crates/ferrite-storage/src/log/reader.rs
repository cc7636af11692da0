//! Reading the log forward, online (restart, media recovery) and offline (the print-log utility,
//! the CSQ1LOGP analogue).
//!
//! A record at RBA `r` is looked for, in order, in the active log whose current use covers `r`
//! (copy 1, then copy 2) and in the archive covering `r` (copy 1, then copy 2). The first copy
//! where the record verifies wins. Records are self-checking and their checksum covers their
//! RBA, so a read that races with the reuse of an active log simply fails verification there and
//! is satisfied from the archive, which is always recorded before an active log becomes
//! reusable. End-of-file markers are skipped: readers see only the callers' records.
//!
//! ## Reading active logs in chunks
//!
//! Active logs are read the way MQ reads a log forward: sequentially, in large pieces. A reader
//! keeps one window of [`READ_CHUNK_BYTES`] (1 MiB, allocated once and reused) of copy 1 of the
//! active log it is in, and decodes records from it: no system call, no lock and (with
//! [`LogReader::next_ref`]) no allocation per record. The window is refilled starting at the
//! record that does not fit in it, so a record straddling the end of a window is read again
//! whole; a record larger than the window grows it. Bytes beyond the reader's limit (the durable
//! RBA, loaded before the read) are never kept for later records: they may still be written.
//! The window is trusted only as far as each record verifies (its checksum covers its RBA), so
//! a window read before its active log was reused still yields only valid records. A record
//! that does not verify from the window is looked up the slow way described above (copy 1,
//! copy 2, archives), which is also how archives are read.

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
use super::current_page::{overlay, CurrentPages, PageImage};
use super::record::{self, LOG_RECORD_HEADER_BYTES, RECORD_KIND_SEGMENT};
use super::restart;
use super::statistics::{bump, LogCounters};
use super::{archive_directory, LogRecord, RingEntry};
use crate::vfs::StorageFile;

/// Bytes read at a time from an active log by readers and by the end-of-log scan.
pub const READ_CHUNK_BYTES: usize = 1024 * 1024;

/// One record read back from the log, borrowed from the reader's buffer
/// ([`LogReader::next_ref`]): valid until the reader moves on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LogRecordRef<'a> {
    pub rba: Rba,
    /// RBA just past this record.
    pub end_rba: Rba,
    pub kind: u8,
    pub payload: &'a [u8],
}

impl LogRecordRef<'_> {
    pub fn to_owned_record(&self) -> LogRecord {
        LogRecord {
            rba: self.rba,
            end_rba: self.end_rba,
            kind: self.kind,
            payload: self.payload.to_vec(),
        }
    }
}

/// A window of one active log copy held in memory (see the module documentation).
pub(crate) struct ActiveChunk {
    buffer: Vec<u8>,
    /// (file number, copy, start RBA of the file's use) the window was read from.
    source: Option<(usize, usize, u64)>,
    /// RBA of `buffer[0]`.
    rba: u64,
    /// Bytes of `buffer` that may be used.
    valid: usize,
    chunk_bytes: usize,
}

impl ActiveChunk {
    pub fn new(chunk_bytes: usize) -> ActiveChunk {
        ActiveChunk {
            buffer: Vec::new(),
            source: None,
            rba: 0,
            valid: 0,
            chunk_bytes,
        }
    }

    /// Forget the window (its file was written).
    pub fn invalidate(&mut self) {
        self.source = None;
        self.valid = 0;
    }

    /// The log bytes from `rba` to the end of the window, at least `need` of them (with the
    /// partial-page `images` of the copy laid over what is read in place), read from
    /// `file` (the copy `source` names: file number, copy, start RBA of its use) if the window
    /// does not hold them. Bytes at or beyond `keep_below` are returned for this call (when
    /// `need` reaches them) but not kept for later ones. The caller checks that
    /// `[rba, rba + need)` lies inside the file's data area.
    pub fn window(
        &mut self,
        (file, images): (&dyn StorageFile, &[PageImage]),
        source: (usize, usize, u64),
        data_bytes: u64,
        rba: u64,
        need: usize,
        keep_below: u64,
    ) -> Result<&[u8], String> {
        let start = source.2;
        let file_end = start + data_bytes;
        debug_assert!(rba >= start && rba + need as u64 <= file_end);
        if self.source == Some(source)
            && rba >= self.rba
            && rba + need as u64 <= self.rba + self.valid as u64
        {
            let from = (rba - self.rba) as usize;
            return Ok(&self.buffer[from..self.valid]);
        }
        let trusted = keep_below.saturating_sub(rba).min(file_end - rba);
        let want = (need as u64).max(trusted.min(self.chunk_bytes as u64)) as usize;
        if self.buffer.len() < want {
            self.buffer.resize(want.max(self.chunk_bytes), 0);
        }
        self.source = None;
        file.read_at(
            &mut self.buffer[..want],
            ACTIVE_LOG_HEADER_BYTES + (rba - start),
        )
        .map_err(|error| format!("cannot read: {error}"))?;
        overlay(images, source.1, rba, &mut self.buffer[..want]);
        self.source = Some(source);
        self.rba = rba;
        self.valid = want;
        Ok(&self.buffer[..want])
    }
}

/// Decode and verify the record at `rba` in a window of its active log copy. Returns the header
/// and the offset of the record in the window's buffer.
pub(crate) fn verify_in_chunk(
    chunk: &mut ActiveChunk,
    file: &dyn StorageFile,
    images: &[PageImage],
    source: (usize, usize, u64),
    data_bytes: u64,
    rba: u64,
    keep_below: u64,
) -> Result<record::RecordHeader, String> {
    let available = source.2 + data_bytes - rba;
    if available < LOG_RECORD_HEADER_BYTES as u64 {
        return Err(format!("only {available} bytes left in the file"));
    }
    let window = chunk.window(
        (file, images),
        source,
        data_bytes,
        rba,
        LOG_RECORD_HEADER_BYTES,
        keep_below,
    )?;
    let header = record::decode_header(
        window[..LOG_RECORD_HEADER_BYTES].try_into().unwrap(),
        available,
    )
    .map_err(|defect| defect.to_string())?;
    let length = if header.is_end_of_file() {
        LOG_RECORD_HEADER_BYTES
    } else {
        header.length as usize
    };
    let window = if window.len() >= length {
        window
    } else {
        chunk.window((file, images), source, data_bytes, rba, length, keep_below)?
    };
    record::verify_payload(Rba(rba), &header, &window[LOG_RECORD_HEADER_BYTES..length])
        .map_err(|defect| defect.to_string())?;
    Ok(header)
}

/// Where log bytes can be read from: the active logs and the archives.
pub(crate) struct LogSources {
    pub fs: Arc<dyn FileSystem>,
    pub archive_directory: PathBuf,
    pub files: ActiveLogFiles,
    pub ring: Mutex<Vec<RingEntry>>,
    pub archives: RwLock<Vec<ArchiveEntry>>,
    pub counters: LogCounters,
    /// Images of partial pages, laid over every read of an active log (`current_page.rs`).
    pub current_pages: CurrentPages,
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
    /// A record verified in the reader's window: (rba, header). Its bytes start at `rba` in the
    /// window.
    InChunk(u64, record::RecordHeader),
    /// An end-of-file marker: continue at this RBA.
    Skip(u64),
}

/// What the reader returns next, before the caller chooses owned or borrowed.
enum Next {
    Owned(LogRecord),
    InChunk(u64, record::RecordHeader),
}

/// A spanned record being reassembled from its segments.
struct Chain {
    record_rba: u64,
    kind: u8,
    total_bytes: u32,
    payload: Vec<u8>,
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
    /// The window of copy 1 of the active log being read.
    chunk: ActiveChunk,
    /// The active log the window is in: (file number, start RBA of its use). Looked up in the
    /// ring only when a record is outside it.
    active_hint: Option<(usize, u64)>,
    /// The last record returned by `next_ref` when it did not come from the window.
    owned: Option<LogRecord>,
    /// Spanned records cut by a failure (their chain of segments never completed) passed over.
    orphans: u64,
    /// Continuation segments without their first segment are passed over instead of failing
    /// the read (offline verification resuming at a file start after damage).
    resynchronising: bool,
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
            chunk: ActiveChunk::new(READ_CHUNK_BYTES),
            active_hint: None,
            owned: None,
            orphans: 0,
            resynchronising: false,
        };
        // An archive or active log may begin inside a chain of segments (its first segments in
        // the log before, perhaps deleted by archive retention): reading from such a start
        // passes over the chain's remaining segments.
        reader.resynchronising = reader
            .sources
            .archives
            .read()
            .unwrap()
            .iter()
            .any(|archive| archive.start_rba == from.0)
            || reader
                .sources
                .ring
                .lock()
                .unwrap()
                .iter()
                .any(|entry| entry.start == Some(from.0));
        // The first record must be valid: `from` must be a record boundary.
        match reader.read_next() {
            Ok(record) => reader.peeked = record.map(|next| reader.materialise(next)),
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

    /// Spanned records cut by a failure that this reader passed over (see "Spanned records"
    /// in [`record`]).
    pub fn orphaned_records(&self) -> u64 {
        self.orphans
    }

    /// The next logical record: physical records as they are, segments reassembled. Once a
    /// record is returned, a continuation without its start is damage, no longer a file start
    /// inside a chain.
    fn read_next(&mut self) -> StorageResult<Option<Next>> {
        let next = self.read_next_record();
        if matches!(next, Ok(Some(_))) {
            self.resynchronising = false;
        }
        next
    }

    fn read_next_record(&mut self) -> StorageResult<Option<Next>> {
        let mut chain: Option<Chain> = None;
        loop {
            let limit = self.limit();
            if self.position >= limit {
                if let Some(chain) = chain {
                    // Not complete (yet, or ever): the next read starts at its first segment.
                    self.position = chain.record_rba;
                }
                return Ok(None);
            }
            let found = self.read_at(self.position, limit)?;
            let end = match &found {
                Found::Skip(next) => {
                    self.position = *next;
                    continue;
                }
                Found::Record(record) if record.kind != RECORD_KIND_SEGMENT => record.end_rba.0,
                Found::InChunk(rba, header) if header.kind != RECORD_KIND_SEGMENT => {
                    rba + u64::from(header.length)
                }
                Found::Record(record) => {
                    let end = record.end_rba.0;
                    let (rba, payload) = (record.rba.0, &record.payload[..]);
                    if let Some(done) = self.add_segment(&mut chain, rba, end, payload)? {
                        return Ok(Some(Next::Owned(done)));
                    }
                    continue;
                }
                Found::InChunk(rba, header) => {
                    let (rba, header) = (*rba, *header);
                    let end = rba + u64::from(header.length);
                    let from = (rba - self.chunk.rba) as usize + LOG_RECORD_HEADER_BYTES;
                    let window = std::mem::take(&mut self.chunk.buffer);
                    let result = self.add_segment(
                        &mut chain,
                        rba,
                        end,
                        &window[from..from + header.payload_len()],
                    );
                    self.chunk.buffer = window;
                    if let Some(done) = result? {
                        return Ok(Some(Next::Owned(done)));
                    }
                    continue;
                }
            };
            if chain.take().is_some() {
                self.orphans += 1;
            }
            self.position = end;
            return Ok(Some(match found {
                Found::Record(record) => Next::Owned(record),
                Found::InChunk(rba, header) => Next::InChunk(rba, header),
                Found::Skip(_) => unreachable!("skips are handled above"),
            }));
        }
    }

    /// Add the segment `[rba, end)` to the chain being reassembled. Returns the logical record
    /// once its last segment is in.
    fn add_segment(
        &mut self,
        chain: &mut Option<Chain>,
        rba: u64,
        end: u64,
        payload: &[u8],
    ) -> StorageResult<Option<LogRecord>> {
        let corrupt = |detail: String| StorageError::CorruptLog {
            path: self.sources.archive_directory.clone(),
            rba: Rba(rba),
            detail,
        };
        let (segment, piece) = record::SegmentHeader::decode(payload).map_err(corrupt)?;
        let continues = chain.as_ref().is_some_and(|chain| {
            chain.record_rba == segment.record_rba
                && chain.kind == segment.kind
                && chain.total_bytes == segment.total_bytes
                && chain.payload.len() == segment.offset as usize
        });
        if !continues {
            if segment.offset != 0 || segment.record_rba != rba {
                if !self.resynchronising {
                    return Err(corrupt(format!(
                        "segment of the record at {} (bytes {}..) without the segments before it",
                        Rba(segment.record_rba),
                        segment.offset
                    )));
                }
                self.position = end;
                return Ok(None);
            }
            if chain.is_some() {
                self.orphans += 1;
            }
            *chain = Some(Chain {
                record_rba: rba,
                kind: segment.kind,
                total_bytes: segment.total_bytes,
                payload: Vec::with_capacity(segment.total_bytes as usize),
            });
        }
        let building = chain.as_mut().expect("chain started above");
        building.payload.extend_from_slice(piece);
        self.position = end;
        if building.payload.len() < building.total_bytes as usize {
            return Ok(None);
        }
        let done = chain.take().expect("chain present");
        Ok(Some(LogRecord {
            rba: Rba(done.record_rba),
            end_rba: Rba(end),
            kind: done.kind,
            payload: done.payload,
        }))
    }

    /// A record as an owned `LogRecord`.
    fn materialise(&self, next: Next) -> LogRecord {
        match next {
            Next::Owned(record) => record,
            Next::InChunk(rba, header) => self.view(rba, header).to_owned_record(),
        }
    }

    fn view(&self, rba: u64, header: record::RecordHeader) -> LogRecordRef<'_> {
        let from = (rba - self.chunk.rba) as usize + LOG_RECORD_HEADER_BYTES;
        let to = from + header.payload_len();
        LogRecordRef {
            rba: Rba(rba),
            end_rba: Rba(rba + u64::from(header.length)),
            kind: header.kind,
            payload: &self.chunk.buffer[from..to],
        }
    }

    /// The active log whose current use holds `rba`: (file number, start RBA).
    fn find_active(&self, rba: u64) -> Option<(usize, u64)> {
        let ring = self.sources.ring.lock().unwrap();
        ring.iter()
            .enumerate()
            .find_map(|(number, entry)| match (entry.start, entry.end) {
                (Some(start), end) if start <= rba && end.is_none_or_past(rba) => {
                    Some((number, start))
                }
                _ => None,
            })
    }

    /// The fast path: the record at `rba` from the window of copy 1 of its active log.
    fn read_chunked(&mut self, rba: u64, limit: u64) -> Option<Found> {
        let data_bytes = self.sources.files.data_bytes;
        let (number, start) = match self.active_hint {
            Some((number, start)) if start <= rba && rba < start + data_bytes => (number, start),
            _ => {
                let found = self.find_active(rba)?;
                self.active_hint = Some(found);
                found
            }
        };
        let file = &*self.sources.files.files[number][0];
        let images = self.sources.current_pages.snapshot();
        let header = verify_in_chunk(
            &mut self.chunk,
            file,
            &images,
            (number, 0, start),
            data_bytes,
            rba,
            limit,
        )
        .ok()?;
        bump(&self.sources.counters.qjstract, 1);
        Some(if header.is_end_of_file() {
            Found::Skip(rba + u64::from(header.length))
        } else {
            Found::InChunk(rba, header)
        })
    }

    /// Read the record at `rba` from the first source where it verifies.
    fn read_at(&mut self, rba: u64, limit: u64) -> StorageResult<Found> {
        if let Some(found) = self.read_chunked(rba, limit) {
            return Ok(found);
        }
        let mut defects: Vec<String> = Vec::new();
        let active = self.find_active(rba);
        self.active_hint = active;
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
        let images = self.sources.current_pages.snapshot();
        let mut header_bytes = [0u8; LOG_RECORD_HEADER_BYTES];
        file.read_at(&mut header_bytes, offset)
            .map_err(|error| format!("cannot read: {error}"))?;
        overlay(&images, copy, rba, &mut header_bytes);
        let header =
            record::decode_header(&header_bytes, available).map_err(|defect| defect.to_string())?;
        finish_record(rba, header, |payload| {
            file.read_at(payload, offset + LOG_RECORD_HEADER_BYTES as u64)
                .map_err(|error| format!("cannot read: {error}"))?;
            overlay(&images, copy, rba + LOG_RECORD_HEADER_BYTES as u64, payload);
            Ok(())
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
    record::verify_payload(Rba(rba), &header, &payload).map_err(|defect| defect.to_string())?;
    Ok(Found::Record(LogRecord {
        rba: Rba(rba),
        end_rba: Rba(rba + u64::from(header.length)),
        kind: header.kind,
        payload,
    }))
}

impl LogReader {
    fn next_located(&mut self) -> Option<StorageResult<Next>> {
        if let Some(record) = self.peeked.take() {
            return Some(Ok(Next::Owned(record)));
        }
        if self.failed {
            return None;
        }
        match self.read_next() {
            Ok(next) => next.map(Ok),
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }

    /// The next record, borrowed from the reader's buffer: like `next()` without copying the
    /// payload (restart reads every record this way).
    pub fn next_ref(&mut self) -> Option<StorageResult<LogRecordRef<'_>>> {
        match self.next_located()? {
            Err(error) => Some(Err(error)),
            Ok(Next::InChunk(rba, header)) => Some(Ok(self.view(rba, header))),
            Ok(Next::Owned(record)) => {
                let record = self.owned.insert(record);
                Some(Ok(LogRecordRef {
                    rba: record.rba,
                    end_rba: record.end_rba,
                    kind: record.kind,
                    payload: &record.payload,
                }))
            }
        }
    }
}

impl Iterator for LogReader {
    type Item = StorageResult<LogRecord>;
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_located()?.map(|next| self.materialise(next)))
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
    /// Records spanning active logs whose chain of segments a failure cut (never acknowledged;
    /// passed over, see "Spanned records" in [`record`]).
    pub orphaned_records: u64,
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
            current_pages: CurrentPages::default(),
        });
        sources.current_pages.replace(recovered.images.clone());
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
            orphaned_records: 0,
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
                chunk: ActiveChunk::new(READ_CHUNK_BYTES),
                active_hint: None,
                owned: None,
                orphans: 0,
                // Every position here is a file start, possibly inside a chain (after damage,
                // or an oldest archive whose predecessor retention deleted).
                resynchronising: true,
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
            report.orphaned_records += reader.orphans;
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
