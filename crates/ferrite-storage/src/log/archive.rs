//! Archive logs: copies of full active logs, made by the offload thread so the active log can be
//! reused (MQ's archive log data sets). One file per archive copy (two with TWOARCH):
//! `<archive directory>/A<start RBA, 16 hex digits>.<copy>.log`, or `.log.z` when compressed.
//!
//! ## Archive file format (little-endian)
//!
//! A 64-byte header ([`ARCHIVE_HEADER_LAYOUT`], magic [`ARCHIVE_MAGIC`], version
//! [`ARCHIVE_FORMAT_VERSION`]: flags (bit 0: raw deflate, RFC 1951), the archived RBA range, the
//! log bytes stored and their CRC-32C, the bytes after the header, the copy number and a CRC-32C
//! of the header's first 56 bytes), then the content: log bytes `[start, start + content
//! bytes)` as in the active log, compressed or not. The padding of an end-of-file marker is not
//! stored, so content bytes ≤ end − start. Described field by field in `docs/formats.md`
//! ("Archive log file").
//!
//! An archive is written to `<name>.tmp`, synced, renamed and its directory synced before the
//! BSDS records it, and only then is the active log marked reusable. A crash at any point leaves
//! either no archive in the BSDS (the offload is redone at restart) or a complete one.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;

use crate::error::{StorageError, StorageResult};
use crate::layout::{layout_bytes, Field};
use crate::vfs::{FileSystem, OpenMode, StorageFile};

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::active::ACTIVE_LOG_HEADER_BYTES;
use super::bsds::{ActiveLogStatus, ArchiveEntry};
use super::statistics::bump;
use super::{LogShared, OffloadJob, OFFLOAD_RETRY_MS};

pub const ARCHIVE_MAGIC: [u8; 8] = *b"FERARCH1";
pub const ARCHIVE_FORMAT_VERSION: u32 = 1;
pub const ARCHIVE_HEADER_BYTES: u64 = layout_bytes(&ARCHIVE_HEADER_LAYOUT) as u64;
/// Bit of the flags field: the content is deflate-compressed.
pub const ARCHIVE_FLAG_COMPRESSED: u32 = 1;

/// Fields of the archive header (see `docs/formats.md`).
pub mod header {
    use crate::layout::{Encoding, Field};

    /// [`super::ARCHIVE_MAGIC`].
    pub const MAGIC: Field = Field::new("magic", 0, 8, Encoding::Bytes);
    /// [`super::ARCHIVE_FORMAT_VERSION`].
    pub const FORMAT_VERSION: Field = Field::new("format version", 8, 4, Encoding::U32Le);
    /// Bit 0: [`super::ARCHIVE_FLAG_COMPRESSED`].
    pub const FLAGS: Field = Field::new("flags", 12, 4, Encoding::U32Le);
    /// First log byte archived.
    pub const START_RBA: Field = Field::new("start RBA", 16, 8, Encoding::U64Le);
    /// RBA just past the archived range.
    pub const END_RBA: Field = Field::new("end RBA", 24, 8, Encoding::U64Le);
    /// Log bytes stored (uncompressed).
    pub const CONTENT_BYTES: Field = Field::new("content bytes", 32, 8, Encoding::U64Le);
    /// Bytes after the header.
    pub const STORED_BYTES: Field = Field::new("stored bytes", 40, 8, Encoding::U64Le);
    /// CRC-32C of the uncompressed content.
    pub const CONTENT_CHECKSUM: Field = Field::new("content checksum", 48, 4, Encoding::U32Le);
    /// 1 or 2.
    pub const COPY_NUMBER: Field = Field::new("copy number", 52, 4, Encoding::U32Le);
    /// CRC-32C of bytes 0..56.
    pub const HEADER_CHECKSUM: Field = Field::new("header checksum", 56, 4, Encoding::U32Le);
    pub const ZERO: Field = Field::new("zero", 60, 4, Encoding::Bytes);
}

/// The archive header, field by field in offset order; the content follows it.
pub const ARCHIVE_HEADER_LAYOUT: [Field; 11] = [
    header::MAGIC,
    header::FORMAT_VERSION,
    header::FLAGS,
    header::START_RBA,
    header::END_RBA,
    header::CONTENT_BYTES,
    header::STORED_BYTES,
    header::CONTENT_CHECKSUM,
    header::COPY_NUMBER,
    header::HEADER_CHECKSUM,
    header::ZERO,
];
/// Bytes read from the active log per offload step (128 log pages, the logger's maximum I/O).
pub const OFFLOAD_CHUNK_BYTES: usize = 128 * 4096;

pub fn archive_file_name(start_rba: u64, copy: usize, compressed: bool) -> String {
    format!(
        "A{start_rba:016X}.{}.log{}",
        copy + 1,
        if compressed { ".z" } else { "" }
    )
}

/// The decoded archive header.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArchiveHeader {
    pub compressed: bool,
    pub start_rba: u64,
    pub end_rba: u64,
    pub content_bytes: u64,
    pub stored_bytes: u64,
    pub content_checksum: u32,
    pub copy_number: u32,
}

impl ArchiveHeader {
    pub fn encode(&self) -> [u8; ARCHIVE_HEADER_BYTES as usize] {
        let mut bytes = [0u8; ARCHIVE_HEADER_BYTES as usize];
        bytes[header::MAGIC.range()].copy_from_slice(&ARCHIVE_MAGIC);
        header::FORMAT_VERSION.put(&mut bytes, u64::from(ARCHIVE_FORMAT_VERSION));
        let flags = if self.compressed {
            ARCHIVE_FLAG_COMPRESSED
        } else {
            0
        };
        header::FLAGS.put(&mut bytes, u64::from(flags));
        header::START_RBA.put(&mut bytes, self.start_rba);
        header::END_RBA.put(&mut bytes, self.end_rba);
        header::CONTENT_BYTES.put(&mut bytes, self.content_bytes);
        header::STORED_BYTES.put(&mut bytes, self.stored_bytes);
        header::CONTENT_CHECKSUM.put(&mut bytes, u64::from(self.content_checksum));
        header::COPY_NUMBER.put(&mut bytes, u64::from(self.copy_number));
        let checksum = crc32c::crc32c(&bytes[..header::HEADER_CHECKSUM.offset]);
        header::HEADER_CHECKSUM.put(&mut bytes, u64::from(checksum));
        bytes
    }

    pub fn decode(bytes: &[u8]) -> Result<ArchiveHeader, String> {
        if bytes.len() < ARCHIVE_HEADER_BYTES as usize
            || bytes[header::MAGIC.range()] != ARCHIVE_MAGIC
        {
            return Err("not an archive log (bad magic)".to_string());
        }
        let get = |field: Field| field.get(bytes);
        if u64::from(crc32c::crc32c(&bytes[..header::HEADER_CHECKSUM.offset]))
            != get(header::HEADER_CHECKSUM)
        {
            return Err("archive header checksum mismatch".to_string());
        }
        let version = get(header::FORMAT_VERSION);
        if version != u64::from(ARCHIVE_FORMAT_VERSION) {
            return Err(format!("archive format version {version} is not supported"));
        }
        let decoded = ArchiveHeader {
            compressed: get(header::FLAGS) & u64::from(ARCHIVE_FLAG_COMPRESSED) != 0,
            start_rba: get(header::START_RBA),
            end_rba: get(header::END_RBA),
            content_bytes: get(header::CONTENT_BYTES),
            stored_bytes: get(header::STORED_BYTES),
            content_checksum: get(header::CONTENT_CHECKSUM) as u32,
            copy_number: get(header::COPY_NUMBER) as u32,
        };
        if decoded.end_rba < decoded.start_rba
            || decoded.content_bytes > decoded.end_rba - decoded.start_rba
        {
            return Err("archive header has an impossible RBA range".to_string());
        }
        Ok(decoded)
    }
}

/// `io::Write` over a `StorageFile`, appending at a running offset.
struct FileWriter {
    file: Arc<dyn StorageFile>,
    offset: u64,
    /// Bytes written since write-back of the file was last started.
    unstarted: u64,
}

/// The offload starts write-back of an archive every this many bytes
/// ([`StorageFile::start_write_back`], a hint), so that its final sync does not hand the
/// device a whole active log at once while the logger's syncs wait behind it.
const OFFLOAD_WRITE_BACK_BYTES: u64 = 8 << 20;

impl Write for FileWriter {
    fn write(&mut self, buffer: &[u8]) -> io::Result<usize> {
        self.file.write_at(buffer, self.offset)?;
        self.offset += buffer.len() as u64;
        self.unstarted += buffer.len() as u64;
        if self.unstarted >= OFFLOAD_WRITE_BACK_BYTES {
            self.unstarted = 0;
            // A hint: the final sync reports any write error.
            let _ = self.file.start_write_back();
        }
        Ok(buffer.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `io::Read` over a `StorageFile` from a running offset to a limit.
struct FileReader {
    file: Arc<dyn StorageFile>,
    offset: u64,
    limit: u64,
}

impl Read for FileReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let count = (buffer.len() as u64).min(self.limit - self.offset) as usize;
        if count == 0 {
            return Ok(0);
        }
        self.file.read_at(&mut buffer[..count], self.offset)?;
        self.offset += count as u64;
        Ok(count)
    }
}

enum CopySink {
    Plain(FileWriter),
    Compressed(DeflateEncoder<FileWriter>),
}

/// Write the archive copies of log range `[start_rba, end_rba)`, of which the first
/// `content_bytes` are read through `read_content(offset_in_range, buffer)`.
/// Returns the BSDS entry. Every copy is durable (file and directory synced) on return.
#[allow(clippy::too_many_arguments)]
pub fn write_archive(
    fs: &dyn FileSystem,
    archive_directory: &Path,
    start_rba: u64,
    end_rba: u64,
    content_bytes: u64,
    compressed: bool,
    copies: usize,
    read_content: &mut dyn FnMut(u64, &mut [u8]) -> StorageResult<()>,
) -> StorageResult<ArchiveEntry> {
    let mut names = Vec::with_capacity(copies);
    let mut temporaries = Vec::with_capacity(copies);
    let mut sinks = Vec::with_capacity(copies);
    for copy in 0..copies {
        let name = archive_file_name(start_rba, copy, compressed);
        let temporary = archive_directory.join(format!("{name}.tmp"));
        if fs.exists(&temporary) {
            fs.remove_file(&temporary).map_err(|error| {
                StorageError::io(&temporary, "remove stale archive temp", error)
            })?;
        }
        let file = fs
            .open(&temporary, OpenMode::CreateNew)
            .map_err(|error| StorageError::io(&temporary, "create archive", error))?;
        let writer = FileWriter {
            file,
            offset: ARCHIVE_HEADER_BYTES,
            unstarted: 0,
        };
        sinks.push(if compressed {
            CopySink::Compressed(DeflateEncoder::new(writer, Compression::fast()))
        } else {
            CopySink::Plain(writer)
        });
        names.push(name);
        temporaries.push(temporary);
    }
    let mut chunk = vec![0u8; OFFLOAD_CHUNK_BYTES];
    let mut checksum = 0u32;
    let mut done = 0u64;
    while done < content_bytes {
        let length = (content_bytes - done).min(OFFLOAD_CHUNK_BYTES as u64) as usize;
        read_content(done, &mut chunk[..length])?;
        checksum = crc32c::crc32c_append(checksum, &chunk[..length]);
        for (copy, sink) in sinks.iter_mut().enumerate() {
            let result = match sink {
                CopySink::Plain(writer) => writer.write_all(&chunk[..length]),
                CopySink::Compressed(encoder) => encoder.write_all(&chunk[..length]),
            };
            result.map_err(|error| StorageError::io(&temporaries[copy], "write archive", error))?;
        }
        done += length as u64;
    }
    for (copy, sink) in sinks.into_iter().enumerate() {
        let temporary = &temporaries[copy];
        let writer = match sink {
            CopySink::Plain(writer) => writer,
            CopySink::Compressed(encoder) => encoder
                .finish()
                .map_err(|error| StorageError::io(temporary, "write archive", error))?,
        };
        let header = ArchiveHeader {
            compressed,
            start_rba,
            end_rba,
            content_bytes,
            stored_bytes: writer.offset - ARCHIVE_HEADER_BYTES,
            content_checksum: checksum,
            copy_number: copy as u32 + 1,
        };
        let file = writer.file;
        file.write_at(&header.encode(), 0)
            .map_err(|error| StorageError::io(temporary, "write archive header", error))?;
        file.sync_data()
            .map_err(|error| StorageError::io(temporary, "sync archive", error))?;
        drop(file);
        let final_path = archive_directory.join(&names[copy]);
        fs.rename(temporary, &final_path)
            .map_err(|error| StorageError::io(&final_path, "rename archive", error))?;
    }
    fs.sync_directory(archive_directory)
        .map_err(|error| StorageError::io(archive_directory, "sync archive directory", error))?;
    Ok(ArchiveEntry {
        start_rba,
        end_rba,
        content_bytes,
        compressed,
        copies: names,
        created_unix_seconds: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_secs()),
    })
}

/// An open archive copy, read forward (compressed archives are decompressed as a stream; a
/// read behind the stream position restarts it).
pub struct ArchiveFile {
    file: Arc<dyn StorageFile>,
    pub header: ArchiveHeader,
    stream: Option<(DeflateDecoder<io::BufReader<FileReader>>, u64)>,
}

impl ArchiveFile {
    pub fn open(fs: &dyn FileSystem, path: &Path) -> Result<ArchiveFile, String> {
        let file = fs
            .open(path, OpenMode::ReadOnly)
            .map_err(|error| format!("cannot open: {error}"))?;
        let mut bytes = [0u8; ARCHIVE_HEADER_BYTES as usize];
        file.read_at(&mut bytes, 0)
            .map_err(|error| format!("cannot read header: {error}"))?;
        let header = ArchiveHeader::decode(&bytes)?;
        let length = file
            .len()
            .map_err(|error| format!("cannot size: {error}"))?;
        if length < ARCHIVE_HEADER_BYTES + header.stored_bytes {
            return Err(format!(
                "archive is {length} bytes, shorter than its header says ({})",
                ARCHIVE_HEADER_BYTES + header.stored_bytes
            ));
        }
        Ok(ArchiveFile {
            file,
            header,
            stream: None,
        })
    }

    pub fn path(&self) -> PathBuf {
        self.file.path().to_path_buf()
    }

    /// Read log bytes `[rba, rba + out.len())`, which must lie in the stored content.
    pub fn read(&mut self, rba: u64, out: &mut [u8]) -> Result<(), String> {
        let header = self.header;
        if rba < header.start_rba
            || rba + out.len() as u64 > header.start_rba + header.content_bytes
        {
            return Err(format!(
                "RBA range {rba:016X}+{} is outside the archived content {:016X}..{:016X}",
                out.len(),
                header.start_rba,
                header.start_rba + header.content_bytes
            ));
        }
        let position = rba - header.start_rba;
        if !header.compressed {
            return self
                .file
                .read_at(out, ARCHIVE_HEADER_BYTES + position)
                .map_err(|error| format!("cannot read: {error}"));
        }
        let restart = match &self.stream {
            Some((_, at)) => *at > position,
            None => true,
        };
        if restart {
            let reader = FileReader {
                file: self.file.clone(),
                offset: ARCHIVE_HEADER_BYTES,
                limit: ARCHIVE_HEADER_BYTES + header.stored_bytes,
            };
            self.stream = Some((
                DeflateDecoder::new(io::BufReader::with_capacity(
                    OFFLOAD_CHUNK_BYTES / 4,
                    reader,
                )),
                0,
            ));
        }
        let (decoder, at) = self.stream.as_mut().unwrap();
        let skip = position - *at;
        if skip > 0 {
            let skipped = io::copy(&mut decoder.by_ref().take(skip), &mut io::sink())
                .map_err(|error| format!("cannot decompress: {error}"))?;
            *at += skipped;
            if skipped != skip {
                self.stream = None;
                return Err("compressed content ends early".to_string());
            }
        }
        if let Err(error) = decoder.read_exact(out) {
            self.stream = None;
            return Err(format!("cannot decompress: {error}"));
        }
        *at += out.len() as u64;
        Ok(())
    }

    /// Read the whole content and check its checksum.
    pub fn verify_content(&mut self) -> Result<(), String> {
        let mut chunk = vec![0u8; OFFLOAD_CHUNK_BYTES];
        let mut checksum = 0u32;
        let mut done = 0u64;
        while done < self.header.content_bytes {
            let length = (self.header.content_bytes - done).min(chunk.len() as u64) as usize;
            self.read(self.header.start_rba + done, &mut chunk[..length])?;
            checksum = crc32c::crc32c_append(checksum, &chunk[..length]);
            done += length as u64;
        }
        if checksum != self.header.content_checksum {
            return Err(format!(
                "content checksum mismatch (stored {:08X}, computed {checksum:08X})",
                self.header.content_checksum
            ));
        }
        Ok(())
    }
}

/// The offload thread: archives full active logs in RBA order, records them in the BSDS and
/// marks the active logs reusable. A failed offload is retried every second (the active log
/// stays unavailable meanwhile; appenders eventually report `ActiveLogsFull` naming it).
pub(crate) fn run_offload(shared: Arc<LogShared>) {
    loop {
        let job = {
            let mut queue = shared.offload.lock().unwrap();
            loop {
                let suspended = shared.offload_suspended.load(Ordering::SeqCst);
                if queue.shutdown && (queue.jobs.is_empty() || suspended) {
                    return;
                }
                if !suspended {
                    if let Some(job) = queue.jobs.front().copied() {
                        queue.busy = true;
                        break job;
                    }
                }
                queue = shared
                    .offload_work
                    .wait_timeout(queue, Duration::from_millis(100))
                    .unwrap()
                    .0;
            }
        };
        let result = offload_one(&shared, job);
        let mut queue = shared.offload.lock().unwrap();
        queue.busy = false;
        match result {
            Ok(()) => {
                queue.jobs.pop_front();
                queue.last_error = None;
            }
            Err(error) => {
                eprintln!(
                    "warning: offload of active log {} (RBA {:016X}-{:016X}) failed: {error}; retrying",
                    job.file + 1,
                    job.start,
                    job.end
                );
                queue.last_error = Some(error.to_string());
                if queue.shutdown {
                    shared.offload_work.notify_all();
                    return;
                }
                queue = shared
                    .offload_work
                    .wait_timeout(queue, Duration::from_millis(OFFLOAD_RETRY_MS))
                    .unwrap()
                    .0;
            }
        }
        drop(queue);
        shared.offload_work.notify_all();
    }
}

fn offload_one(shared: &LogShared, job: OffloadJob) -> StorageResult<()> {
    if let Some((new_file, new_start)) = job.new_current {
        let mut bsds = shared.bsds.lock().unwrap();
        let mut updated = bsds.clone();
        let old = &mut updated.active_logs[job.file];
        old.status = ActiveLogStatus::NotArchived;
        old.start_rba = Some(job.start);
        old.end_rba = Some(job.end);
        let new = &mut updated.active_logs[new_file];
        if !matches!(new.start_rba, Some(start) if start > new_start) {
            new.status = ActiveLogStatus::Current;
            new.start_rba = Some(new_start);
            new.end_rba = None;
        }
        shared.write_bsds(&mut updated)?;
        *bsds = updated;
    }
    let files = &shared.sources.files;
    let mut read_content = |offset: u64, buffer: &mut [u8]| -> StorageResult<()> {
        let position = ACTIVE_LOG_HEADER_BYTES + offset;
        let mut last_error = None;
        for copy in 0..files.copies() {
            match files.files[job.file][copy].read_at(buffer, position) {
                Ok(()) => return Ok(()),
                Err(error) => {
                    last_error = Some(StorageError::io(
                        files.path(job.file, copy),
                        "read active log for offload",
                        error,
                    ))
                }
            }
        }
        Err(last_error.unwrap())
    };
    let copies = if shared.archive.twoarch { 2 } else { 1 };
    let content_bytes = job.used_end - job.start;
    let entry = write_archive(
        &*shared.fs,
        &shared.archive_directory,
        job.start,
        job.end,
        content_bytes,
        shared.archive.compress,
        copies,
        &mut read_content,
    )?;
    bump(&shared.counters().qjstalw, copies as u64);
    bump(
        &shared.counters().qjstciof,
        content_bytes.div_ceil(super::LOG_PAGE_BYTES as u64),
    );
    {
        let mut bsds = shared.bsds.lock().unwrap();
        let mut updated = bsds.clone();
        updated.add_archive(entry.clone());
        let old = &mut updated.active_logs[job.file];
        old.status = ActiveLogStatus::Reusable;
        old.start_rba = Some(job.start);
        old.end_rba = Some(job.end);
        shared.write_bsds(&mut updated)?;
        // The archive is readable before the active log may be overwritten. Published under
        // the BSDS lock: archive retention publishes its list under it too, so a list without
        // the archives retention just deleted is never replaced by an older one.
        *shared.sources.archives.write().unwrap() = updated.archives.clone();
        *bsds = updated;
    }
    for (copy, name) in entry.copies.iter().enumerate() {
        shared.say(&format!(
            "CSQJ003I FULL ARCHIVE LOG VOLUME DSNAME={}, STARTRBA={} ENDRBA={}, COPY{}",
            shared.archive_directory.join(name).display(),
            crate::types::Rba(entry.start_rba),
            crate::types::Rba(entry.end_rba - 1),
            copy + 1
        ));
    }
    let mut ring = shared.sources.ring.lock().unwrap();
    let slot = &mut ring[job.file];
    assert_eq!(
        slot.start,
        Some(job.start),
        "an active log was reused before it was archived"
    );
    slot.status = ActiveLogStatus::Reusable;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vfs::RealFileSystem;

    #[test]
    fn archives_round_trip_plain_and_compressed() {
        let directory = tempfile::tempdir().unwrap();
        let content: Vec<u8> = (0..1_300_000u32)
            .map(|i| (i % 251) as u8 ^ (i >> 12) as u8)
            .collect();
        for compressed in [false, true] {
            let start = if compressed { 8 * 1024 * 1024 } else { 0 };
            let entry = write_archive(
                &RealFileSystem,
                directory.path(),
                start,
                start + 2 * 1024 * 1024,
                content.len() as u64,
                compressed,
                2,
                &mut |offset, buffer| {
                    buffer
                        .copy_from_slice(&content[offset as usize..offset as usize + buffer.len()]);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(entry.copies.len(), 2);
            for name in &entry.copies {
                let mut archive =
                    ArchiveFile::open(&RealFileSystem, &directory.path().join(name)).unwrap();
                archive.verify_content().unwrap();
                let mut out = vec![0u8; 5000];
                archive.read(start + 700_000, &mut out).unwrap();
                assert_eq!(out, content[700_000..705_000]);
                archive.read(start + 10, &mut out).unwrap(); // backwards: restarts the stream
                assert_eq!(out, content[10..5010]);
                assert!(archive
                    .read(start + content.len() as u64 - 10, &mut out)
                    .is_err());
            }
        }
        assert!(directory.path().join("A0000000000800000.2.log.z").exists());
    }
}
