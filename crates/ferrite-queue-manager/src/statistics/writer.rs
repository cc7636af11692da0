//! The statistics file: JSON lines appended to `statistics.jsonl` in the queue manager's
//! directory, rotated by size. When appending would take the file past
//! [`STATISTICS_FILE_BYTES_MAX`], it is renamed `statistics.jsonl.1` (the older ones moving
//! to `.2` ... `.`[`STATISTICS_FILES_KEPT`], the oldest deleted) and a new file begins. An
//! interval's records are appended with one write, so a reader sees whole lines.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The current file's name in the queue manager's directory.
pub const STATISTICS_FILE: &str = "statistics.jsonl";
/// The size at which the file is rotated.
pub const STATISTICS_FILE_BYTES_MAX: u64 = 16 * 1024 * 1024;
/// Rotated files kept besides the current one.
pub const STATISTICS_FILES_KEPT: u32 = 4;

/// Appends records to one queue manager's statistics file.
pub struct StatisticsWriter {
    path: PathBuf,
    bytes_max: u64,
}

impl StatisticsWriter {
    pub fn new(directory: &Path) -> StatisticsWriter {
        StatisticsWriter::named(directory, STATISTICS_FILE)
    }

    /// A writer of the file `name` in `directory`.
    pub fn named(directory: &Path, name: &str) -> StatisticsWriter {
        let mut writer = StatisticsWriter::with_limit(directory, STATISTICS_FILE_BYTES_MAX);
        writer.path = directory.join(name);
        writer
    }

    /// A writer rotating at `bytes_max` (tests use small limits).
    pub fn with_limit(directory: &Path, bytes_max: u64) -> StatisticsWriter {
        assert!(bytes_max > 0);
        StatisticsWriter {
            path: directory.join(STATISTICS_FILE),
            bytes_max,
        }
    }

    /// Rotated file `generation` (1 = the newest).
    pub fn rotated_path(&self, generation: u32) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(format!(".{generation}"));
        PathBuf::from(name)
    }

    /// Append `lines` (whole JSON lines), rotating first if they would not fit.
    pub fn append(&mut self, lines: &str) -> std::io::Result<()> {
        let size = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        if size > 0 && size + lines.len() as u64 > self.bytes_max {
            self.rotate()?;
        }
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        file.write_all(lines.as_bytes())
    }

    fn rotate(&self) -> std::io::Result<()> {
        let oldest = self.rotated_path(STATISTICS_FILES_KEPT);
        if oldest.exists() {
            std::fs::remove_file(&oldest)?;
        }
        for generation in (1..STATISTICS_FILES_KEPT).rev() {
            let from = self.rotated_path(generation);
            if from.exists() {
                std::fs::rename(&from, self.rotated_path(generation + 1))?;
            }
        }
        std::fs::rename(&self.path, self.rotated_path(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_rotates_by_size_and_keeps_whole_lines() {
        let directory = tempfile::tempdir().unwrap();
        let mut writer = StatisticsWriter::with_limit(directory.path(), 100);
        let line = format!("{{\"n\":\"{}\"}}\n", "x".repeat(40));
        for _ in 0..(2 + STATISTICS_FILES_KEPT as usize) * 2 {
            writer.append(&line).unwrap();
        }
        let current = std::fs::read_to_string(directory.path().join(STATISTICS_FILE)).unwrap();
        assert_eq!(current.len(), line.len() * 2);
        for generation in 1..=STATISTICS_FILES_KEPT {
            let rotated = std::fs::read_to_string(writer.rotated_path(generation)).unwrap();
            assert_eq!(rotated, line.repeat(2), "generation {generation}");
        }
        assert!(!writer.rotated_path(STATISTICS_FILES_KEPT + 1).exists());
    }
}
