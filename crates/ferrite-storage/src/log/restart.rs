//! Log initialisation (restart phase 1): find the end of the log and repair dual copies.
//!
//! 1. Read every active log's header (either copy; a damaged or out-of-date copy header is
//!    rewritten). The file with the highest start RBA is current; every other used file's range
//!    ends where the next one (in RBA order, which must be ring order) begins.
//! 2. Scan forward from the last checkpoint's begin RBA (or the oldest RBA still in the active
//!    logs), verifying each record on every copy (each copy read 1 MiB at a time, records
//!    verified from memory). A record valid on one copy but not the other is
//!    copied to the bad copy. In the current file, the first position where no copy holds a valid
//!    record (zero length, bad length, bad checksum: a torn write, or a stale record of the file's
//!    previous use, whose checksum includes another RBA) is the end of the log. In a full file
//!    that is damage: restart fails naming the file and RBA.
//!    The current file's valid ping-pong slot images (per copy, see `active.rs`) are laid over
//!    what the scan reads in place: the partial last page was written only there.
//! 3. Write each copy's slot images in place (synced; the slots are untouched until then), then
//!    rewrite the current file's header and the last `LOG_UNSYNCED_PAGES_MAX` pages before the
//!    end's page (within the file) from each copy's own bytes, and sync: after a failed sync in
//!    this boot the kernel may have marked those pages clean without writing them, and the scan
//!    read them from the page cache, so records appended after them could otherwise sit behind
//!    a hole at the next power loss. The partial last page is rewritten with zeros after the
//!    end, and so are the next
//!    [`RESTART_ZERO_AHEAD_PAGES`] pages, on each copy in turn: a write cycle syncs once after
//!    all its I/Os (up to `LOG_UNSYNCED_PAGES_MAX` pages), so a failure can leave any subset
//!    of them on disk, a hole followed by later records with valid checksums and RBAs
//!    included; such a record could otherwise become valid again once new records reach
//!    exactly its RBA. Then (synced after that) slot 1 gets the image of the partial last page and slot 2
//!    is emptied, so the logger's first write of that page (a slot write to slot 2, or its final
//!    write in place) never overwrites its only durable image, and no slot holds bytes beyond
//!    the end that later records could contradict.
//! 4. Reconcile the active log inventory: full files not covered by an archive are queued for
//!    offload.

use crate::error::{StorageError, StorageResult};
use crate::types::Rba;
use crate::vfs::StorageFile;

use super::active::{
    ActiveLogFiles, ActiveLogHeader, PingPongSlot, ACTIVE_LOG_HEADER_BYTES, PING_PONG_SLOTS,
};
use super::bsds::{ActiveLogStatus, Bsds};
use super::current_page::{overlay, PageImage};
use super::reader::{verify_in_chunk, ActiveChunk, READ_CHUNK_BYTES};
use super::record::{RecordHeader, LOG_RECORD_HEADER_BYTES};
use super::statistics::{bump, LogCounters};
use super::{
    page_floor, OffloadJob, RingEntry, LOG_PAGE_BYTES, LOG_UNSYNCED_BYTES_MAX,
    RESTART_ZERO_AHEAD_PAGES,
};

/// Bytes read at a time when verifying or copying a record.
const SCAN_CHUNK_BYTES: usize = 512 * 1024;

/// What log initialisation found.
#[derive(Clone, Debug)]
pub(crate) struct RecoveredLog {
    pub ring: Vec<RingEntry>,
    pub current: usize,
    /// The end of the log: RBA of the next record.
    pub end_rba: u64,
    /// End of the current file's RBA range (its end-of-file marker's end if it has one).
    pub file_limit: u64,
    /// End of the real bytes in the current file.
    pub used_end: u64,
    /// Log bytes `[page_floor(end_rba), end_rba)` (the partial last page), when repairing.
    pub partial_page: Vec<u8>,
    /// Slot images readers must lay over the current file (none after a repair, which writes
    /// them in place).
    pub images: Vec<PageImage>,
    /// The ping-pong slot the logger writes first.
    pub next_slot: usize,
    pub offload_jobs: Vec<OffloadJob>,
    /// Where the scan started.
    pub scan_start: u64,
    /// Damage found (and repaired, when repairing).
    pub problems: Vec<String>,
}

fn io_error(
    file: &dyn StorageFile,
    operation: &'static str,
    error: std::io::Error,
) -> StorageError {
    StorageError::io(file.path(), operation, error)
}

/// Copy the `length` log bytes at `rba` (file offset `offset`) from copy `from` (with its slot
/// images laid over) to another copy, in place, and sync the target.
#[allow(clippy::too_many_arguments)]
fn copy_bytes(
    from: &dyn StorageFile,
    (from_copy, images): (usize, &[PageImage]),
    to: &dyn StorageFile,
    rba: u64,
    offset: u64,
    length: u64,
    scratch: &mut [u8],
) -> StorageResult<()> {
    let mut done = 0u64;
    while done < length {
        let count = (length - done).min(scratch.len() as u64) as usize;
        from.read_at(&mut scratch[..count], offset + done)
            .map_err(|error| io_error(from, "read active log", error))?;
        overlay(images, from_copy, rba + done, &mut scratch[..count]);
        to.write_at(&scratch[..count], offset + done)
            .map_err(|error| io_error(to, "repair active log", error))?;
        done += count as u64;
    }
    to.sync_data()
        .map_err(|error| io_error(to, "sync active log", error))
}

/// Find the end of the log. With `repair`, damaged copies are rewritten from good ones and the
/// region after the end is cleared; without, nothing is written (offline utilities).
pub(crate) fn recover(
    files: &ActiveLogFiles,
    bsds: &Bsds,
    repair: bool,
    counters: &LogCounters,
) -> StorageResult<RecoveredLog> {
    let mut problems = Vec::new();

    // 1. Validate the active logs: their headers, then their order round the ring.
    let starts = validate_active_log_headers(files, bsds, repair, counters, &mut problems)?;
    let used = order_active_logs(files, bsds, &starts, &mut problems)?;
    let (current_start, current) = used.current();

    // 2. Find the end of the log, with the current file's valid slot images laid over each copy.
    let mut images = read_slot_images(files, &used);
    let scan_start = choose_scan_start(bsds, &used);
    let end = find_end_of_log(
        files,
        &used,
        &images,
        scan_start,
        repair,
        counters,
        &mut problems,
    )?;
    debug_assert!(scan_start <= end.end_rba && current_start <= end.used_end);

    // 3. Repair the torn tail: slot images in place, the last unsynced window rewritten, zeros
    // after the end, the partial last page kept in slot 1.
    let mut partial_page = Vec::new();
    let mut next_slot = 0;
    if repair {
        partial_page = repair_torn_tail(files, bsds, &used, &images, &end, counters)?;
        next_slot = 1;
        images.clear();
    }

    // 4. Reconcile the active log inventory.
    let (ring, offload_jobs) = active_log_inventory(bsds, &used, files.count());
    debug_assert_eq!(ring[current].status, ActiveLogStatus::Current);
    Ok(RecoveredLog {
        ring,
        current,
        end_rba: end.end_rba,
        file_limit: end.file_limit,
        used_end: end.used_end,
        partial_page,
        images,
        next_slot,
        offload_jobs,
        scan_start,
        problems,
    })
}

/// The active logs in use, oldest first, each as (start RBA, file number). They follow one
/// another round the ring, and each one's RBA range ends where the next one's begins; the
/// last is the current log.
struct UsedLogs {
    logs: Vec<(u64, usize)>,
    data_bytes: u64,
}

impl UsedLogs {
    /// The index of the current log.
    fn last(&self) -> usize {
        self.logs.len() - 1
    }

    /// The current log: (start RBA, file number).
    fn current(&self) -> (u64, usize) {
        self.logs[self.last()]
    }

    /// End of the RBA range of the log at `index`.
    fn range_end(&self, index: usize) -> u64 {
        if index + 1 < self.logs.len() {
            self.logs[index + 1].0
        } else {
            self.logs[index].0 + self.data_bytes
        }
    }
}

/// Where the log ends.
struct LogEnd {
    /// RBA of the next record.
    end_rba: u64,
    /// End of the current file's RBA range (its end-of-file marker's end if it has one).
    file_limit: u64,
    /// End of the real bytes in the current file.
    used_end: u64,
}

/// Step 1, headers: every active log's start RBA (`None` for an unused one), from the best of
/// its copies' headers. A copy whose header is damaged or out of date is rewritten (with
/// `repair`). A file no copy of which has a usable header is an error unless its content is
/// archived.
fn validate_active_log_headers(
    files: &ActiveLogFiles,
    bsds: &Bsds,
    repair: bool,
    counters: &LogCounters,
    problems: &mut Vec<String>,
) -> StorageResult<Vec<Option<u64>>> {
    let copies = files.copies();
    let mut starts: Vec<Option<u64>> = vec![None; files.count()];
    for (number, start_slot) in starts.iter_mut().enumerate() {
        let headers: Vec<Result<ActiveLogHeader, String>> = (0..copies)
            .map(|copy| {
                files.read_header(number, copy).and_then(|header| {
                    if header.created_unix_seconds == bsds.created_unix_seconds {
                        Ok(header)
                    } else {
                        Err(format!(
                            "belongs to another log (created {}, the BSDS says {})",
                            header.created_unix_seconds, bsds.created_unix_seconds
                        ))
                    }
                })
            })
            .collect();
        let best = headers
            .iter()
            .filter_map(|header| header.as_ref().ok())
            .map(|header| header.start_rba)
            .max();
        let start = match best {
            Some(start) => start,
            None => {
                let reasons: Vec<String> = headers
                    .iter()
                    .enumerate()
                    .map(|(copy, h)| {
                        format!(
                            "{}: {}",
                            files.path(number, copy).display(),
                            h.as_ref().unwrap_err()
                        )
                    })
                    .collect();
                if bsds.active_logs[number].status != ActiveLogStatus::Reusable {
                    return Err(StorageError::CorruptLog {
                        path: files.path(number, 0).to_path_buf(),
                        rba: Rba(bsds.active_logs[number].start_rba.unwrap_or(0)),
                        detail: format!(
                            "the header of every copy is unusable ({})",
                            reasons.join("; ")
                        ),
                    });
                }
                // Archived (or never used): its content is not needed; treat it as unused.
                problems.push(format!(
                    "active log {} header unusable, treated as unused: {}",
                    number + 1,
                    reasons.join("; ")
                ));
                None
            }
        };
        *start_slot = start;
        for (copy, header) in headers.iter().enumerate() {
            let needs = match header {
                Ok(header) => header.start_rba != start,
                Err(_) => true,
            };
            if needs {
                problems.push(format!(
                    "{}: header repaired",
                    files.path(number, copy).display()
                ));
                if repair {
                    let header = ActiveLogHeader {
                        copy_number: copy as u32 + 1,
                        data_set_number: number as u32 + 1,
                        data_bytes: files.data_bytes,
                        start_rba: start,
                        created_unix_seconds: bsds.created_unix_seconds,
                    };
                    files.write_header(number, copy, &header)?;
                    files.sync(number, copy)?;
                    bump(&counters.write_ios[copy], 1);
                }
            }
        }
    }
    Ok(starts)
}

/// Step 1, ranges: the used active logs in RBA order, which must be ring order. A break is
/// tolerated only where everything before it is archived (a reusable file whose headers were
/// unusable): those older files are then simply not read from the active logs.
fn order_active_logs(
    files: &ActiveLogFiles,
    bsds: &Bsds,
    starts: &[Option<u64>],
    problems: &mut Vec<String>,
) -> StorageResult<UsedLogs> {
    let count = files.count();
    let data_bytes = files.data_bytes;
    let mut used: Vec<(u64, usize)> = starts
        .iter()
        .enumerate()
        .filter_map(|(n, s)| s.map(|s| (s, n)))
        .collect();
    used.sort();
    if used.is_empty() {
        return Err(StorageError::CorruptLog {
            path: files.path(0, 0).to_path_buf(),
            rba: Rba::ZERO,
            detail: "no active log has ever been used (every header says unused)".to_string(),
        });
    }
    if let Some(gap) = used
        .windows(2)
        .rposition(|pair| pair[1].1 != (pair[0].1 + 1) % count)
    {
        let dropped: Vec<(u64, usize)> = used.drain(..=gap).collect();
        for (start, number) in dropped {
            if bsds.active_logs[number].status != ActiveLogStatus::Reusable {
                return Err(StorageError::CorruptLog {
                    path: files.path(number, 0).to_path_buf(),
                    rba: Rba(start),
                    detail:
                        "active log headers are not in ring order, and this log is not archived"
                            .to_string(),
                });
            }
            problems.push(format!("active log {} is not in ring order after an unusable header; ignored (it is archived)", number + 1));
        }
    }
    for pair in used.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if b.0 > a.0 + data_bytes || b.0 <= a.0 {
            return Err(StorageError::CorruptLog {
                path: files.path(b.1, 0).to_path_buf(),
                rba: Rba(b.0),
                detail: format!(
                    "active log headers are inconsistent: log {} starts at {:016X} after log {} at {:016X}",
                    b.1 + 1,
                    b.0,
                    a.1 + 1,
                    a.0
                ),
            });
        }
    }
    debug_assert!(used
        .windows(2)
        .all(|pair| pair[0].0 < pair[1].0 && pair[1].1 == (pair[0].1 + 1) % count));
    Ok(UsedLogs {
        logs: used,
        data_bytes,
    })
}

/// The current file's valid ping-pong slot images, on every copy, in page order.
fn read_slot_images(files: &ActiveLogFiles, used: &UsedLogs) -> Vec<PageImage> {
    let (current_start, current) = used.current();
    let mut images: Vec<PageImage> = Vec::new();
    for copy in 0..files.copies() {
        for slot in files
            .read_slots(current, copy)
            .into_iter()
            .flatten()
            .flatten()
        {
            let PingPongSlot { page_rba, image } = slot;
            if page_rba >= current_start && page_rba < current_start + files.data_bytes {
                images.push(PageImage {
                    copy: Some(copy),
                    page_rba,
                    bytes: image,
                });
            }
        }
    }
    images.sort_by_key(|image| (image.page_rba, image.bytes.len()));
    images
}

/// Where the scan for the end of the log starts: the last checkpoint's begin RBA if the active
/// logs still hold it, else the oldest RBA they hold.
fn choose_scan_start(bsds: &Bsds, used: &UsedLogs) -> u64 {
    let oldest = used.logs[0].0;
    match bsds.last_checkpoint() {
        Some(checkpoint)
            if checkpoint.begin_rba.0 >= oldest
                && checkpoint.begin_rba.0 < used.range_end(used.last()) =>
        {
            checkpoint.begin_rba.0
        }
        _ => oldest,
    }
}

/// Step 2: read forward from `scan_start`, verifying each record on every copy; a copy that
/// does not hold a record another copy holds is reported (and, with `repair`, mended from
/// it). In the current file the first position where no copy holds a valid record is the end
/// of the log; in a full file it is damage, and restart fails.
fn find_end_of_log(
    files: &ActiveLogFiles,
    used: &UsedLogs,
    images: &[PageImage],
    scan_start: u64,
    repair: bool,
    counters: &LogCounters,
    problems: &mut Vec<String>,
) -> StorageResult<LogEnd> {
    let data_bytes = files.data_bytes;
    let last = used.last();
    let mut index = used
        .logs
        .iter()
        .rposition(|(start, _)| *start <= scan_start)
        .unwrap();
    let mut position = scan_start;
    let mut scratch = vec![0u8; SCAN_CHUNK_BYTES];
    // One window per copy: records are verified from memory, read 1 MiB at a time.
    let mut chunks: Vec<ActiveChunk> = (0..files.copies())
        .map(|_| ActiveChunk::new(READ_CHUNK_BYTES))
        .collect();
    loop {
        let (start, number) = used.logs[index];
        let file_end = used.range_end(index);
        let is_current = index == last;
        if position >= file_end {
            if is_current {
                return Ok(LogEnd {
                    end_rba: position,
                    file_limit: position,
                    used_end: position,
                });
            }
            index += 1;
            continue;
        }
        let mut good: Option<(usize, RecordHeader)> = None;
        let mut bad = Vec::new();
        for (copy, chunk) in chunks.iter_mut().enumerate() {
            match verify_in_chunk(
                chunk,
                &*files.files[number][copy],
                images,
                (number, copy, start),
                data_bytes,
                position,
                u64::MAX,
            ) {
                Ok(header) if good.is_none() => good = Some((copy, header)),
                Ok(_) => {}
                Err(reason) => bad.push((copy, reason)),
            }
        }
        let Some((good_copy, header)) = good else {
            if is_current {
                return Ok(LogEnd {
                    end_rba: position,
                    file_limit: start + data_bytes,
                    used_end: position,
                });
            }
            return Err(StorageError::CorruptLog {
                path: files.path(number, 0).to_path_buf(),
                rba: Rba(position),
                detail: format!(
                    "the record is damaged on every copy of a full active log ({}); the log after it cannot be read",
                    bad.iter().map(|(_, reason)| reason.as_str()).collect::<Vec<_>>().join("; ")
                ),
            });
        };
        let stored = if header.is_end_of_file() {
            LOG_RECORD_HEADER_BYTES as u64
        } else {
            u64::from(header.length)
        };
        for (copy, reason) in &bad {
            problems.push(format!(
                "{} RBA {:016X}: {reason}; {} from copy {}",
                files.path(number, *copy).display(),
                position,
                if repair { "repaired" } else { "valid" },
                good_copy + 1
            ));
            if repair {
                let offset = ACTIVE_LOG_HEADER_BYTES + (position - start);
                copy_bytes(
                    &*files.files[number][good_copy],
                    (good_copy, images),
                    &*files.files[number][*copy],
                    position,
                    offset,
                    stored,
                    &mut scratch,
                )?;
                chunks[*copy].invalidate();
                bump(&counters.write_ios[*copy], 1);
            }
        }
        let next = position + u64::from(header.length);
        if header.is_end_of_file() {
            if is_current {
                // The file was ended but the switch to the next did not complete.
                return Ok(LogEnd {
                    end_rba: next,
                    file_limit: next,
                    used_end: position + LOG_RECORD_HEADER_BYTES as u64,
                });
            }
            if next != file_end {
                return Err(StorageError::CorruptLog {
                    path: files.path(number, 0).to_path_buf(),
                    rba: Rba(position),
                    detail: format!("end-of-file marker reaches {next:016X}, but the next active log starts at {file_end:016X}"),
                });
            }
        }
        position = next;
    }
}

/// Step 3: make the current file's tail durable as the scan read it, and return the partial
/// last page (kept in slot 1).
fn repair_torn_tail(
    files: &ActiveLogFiles,
    bsds: &Bsds,
    used: &UsedLogs,
    images: &[PageImage],
    end: &LogEnd,
    counters: &LogCounters,
) -> StorageResult<Vec<u8>> {
    write_slot_images_in_place(files, used, images, end.used_end, counters)?;
    let partial_page = rewrite_tail(files, bsds, used, end, counters)?;
    reset_slots(files, used, end.end_rba, &partial_page, counters)?;
    Ok(partial_page)
}

/// Write each copy's slot images (up to `used_end`) in place, and sync that copy.
fn write_slot_images_in_place(
    files: &ActiveLogFiles,
    used: &UsedLogs,
    images: &[PageImage],
    used_end: u64,
    counters: &LogCounters,
) -> StorageResult<()> {
    let (current_start, current) = used.current();
    for copy in 0..files.copies() {
        let file = &files.files[current][copy];
        let mut wrote = false;
        for image in images.iter().filter(|image| image.copy == Some(copy)) {
            let through = image.end().min(used_end);
            if through <= image.page_rba {
                continue;
            }
            let bytes = &image.bytes[..(through - image.page_rba) as usize];
            let offset = ACTIVE_LOG_HEADER_BYTES + (image.page_rba - current_start);
            file.write_at(bytes, offset)
                .map_err(|error| io_error(&**file, "write slot image in place", error))?;
            bump(&counters.write_ios[copy], 1);
            wrote = true;
        }
        if wrote {
            file.sync_data()
                .map_err(|error| io_error(&**file, "sync active log", error))?;
        }
    }
    Ok(())
}

/// Rewrite the current file's header and the last unsynced window before the end on every
/// copy, from the copy's own bytes, with zeros after the end through the pages ahead, and sync:
/// after a failed sync in this boot the kernel may have marked those pages clean without their
/// reaching the disk, and the scan read them from the page cache (RELIABILITY.md, "A failed
/// log sync"). Returns the partial last page (copy 1's bytes), empty when the end is not
/// followed by zeros.
fn rewrite_tail(
    files: &ActiveLogFiles,
    bsds: &Bsds,
    used: &UsedLogs,
    end: &LogEnd,
    counters: &LogCounters,
) -> StorageResult<Vec<u8>> {
    let (current_start, current) = used.current();
    let data_bytes = files.data_bytes;
    let LogEnd {
        end_rba, used_end, ..
    } = *end;
    let mut partial_page = Vec::new();
    let rewrite_start =
        current_start.max(page_floor(used_end).saturating_sub(LOG_UNSYNCED_BYTES_MAX));
    let zeroes_after = end_rba < current_start + data_bytes && end_rba == used_end;
    let rewrite_end = if zeroes_after {
        (current_start + data_bytes)
            .min(page_floor(end_rba) + (RESTART_ZERO_AHEAD_PAGES * LOG_PAGE_BYTES) as u64)
    } else {
        used_end
    };
    let mut bytes = vec![0u8; (rewrite_end - rewrite_start) as usize];
    let kept = (used_end - rewrite_start) as usize;
    let offset = ACTIVE_LOG_HEADER_BYTES + (rewrite_start - current_start);
    for copy in 0..files.copies() {
        let header = ActiveLogHeader {
            copy_number: copy as u32 + 1,
            data_set_number: current as u32 + 1,
            data_bytes,
            start_rba: Some(current_start),
            created_unix_seconds: bsds.created_unix_seconds,
        };
        files.write_header(current, copy, &header)?;
        bump(&counters.write_ios[copy], 1);
        // Each copy's own bytes: the scan made the records of both agree from its start,
        // and bytes before that are not for this copy to take from the other.
        let file = &files.files[current][copy];
        file.read_at(&mut bytes[..kept], offset)
            .map_err(|error| io_error(&**file, "read active log", error))?;
        if copy == 0 && zeroes_after {
            let page_start = (page_floor(end_rba) - rewrite_start) as usize;
            partial_page = bytes[page_start..kept].to_vec();
        }
        if !bytes.is_empty() {
            file.write_at(&bytes, offset)
                .map_err(|error| io_error(&**file, "rewrite active log tail", error))?;
            bump(&counters.write_ios[copy], 1);
        }
        files.sync(current, copy)?;
    }
    Ok(partial_page)
}

/// Slot 1 gets the partial last page's image and slot 2 is emptied, on every copy (synced).
fn reset_slots(
    files: &ActiveLogFiles,
    used: &UsedLogs,
    end_rba: u64,
    partial_page: &[u8],
    counters: &LogCounters,
) -> StorageResult<()> {
    let (_, current) = used.current();
    let image = (!partial_page.is_empty()).then(|| PingPongSlot {
        page_rba: page_floor(end_rba),
        image: partial_page.to_vec(),
    });
    for copy in 0..files.copies() {
        for slot in 0..PING_PONG_SLOTS {
            files.write_slot(current, copy, slot, image.as_ref().filter(|_| slot == 0))?;
            bump(&counters.write_ios[copy], 1);
        }
        files.sync(current, copy)?;
    }
    Ok(())
}

/// Step 4: the ring as restart found it, and an offload job for every full file not covered by
/// an archive.
fn active_log_inventory(
    bsds: &Bsds,
    used: &UsedLogs,
    count: usize,
) -> (Vec<RingEntry>, Vec<OffloadJob>) {
    let mut ring = vec![
        RingEntry {
            status: ActiveLogStatus::Reusable,
            start: None,
            end: None
        };
        count
    ];
    let mut offload_jobs = Vec::new();
    let last = used.last();
    for (index, &(start, number)) in used.logs.iter().enumerate() {
        if index == last {
            ring[number] = RingEntry {
                status: ActiveLogStatus::Current,
                start: Some(start),
                end: None,
            };
            continue;
        }
        let end = used.range_end(index);
        let entry = &bsds.active_logs[number];
        let archived = bsds
            .archives
            .iter()
            .any(|archive| archive.start_rba == start && archive.end_rba == end)
            || (entry.status == ActiveLogStatus::Reusable
                && entry.start_rba == Some(start)
                && entry.end_rba == Some(end));
        let status = if archived {
            ActiveLogStatus::Reusable
        } else {
            ActiveLogStatus::NotArchived
        };
        ring[number] = RingEntry {
            status,
            start: Some(start),
            end: Some(end),
        };
        if !archived {
            offload_jobs.push(OffloadJob {
                file: number,
                start,
                end,
                used_end: end,
                new_current: None,
            });
        }
    }
    (ring, offload_jobs)
}

/// Bring the BSDS's active log inventory in line with what restart found.
pub(crate) fn reconcile_bsds(bsds: &mut Bsds, recovered: &RecoveredLog) {
    for (entry, state) in bsds.active_logs.iter_mut().zip(&recovered.ring) {
        entry.status = state.status;
        entry.start_rba = state.start;
        entry.end_rba = state.end;
    }
    bsds.highest_written_rba = recovered.end_rba;
}
