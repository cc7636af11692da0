//! The offload starts an archive's write-back as it writes it (`log/archive.rs`,
//! `OFFLOAD_WRITE_BACK_BYTES`): every 8 MiB of an archive copy, a `start_write_back` of that copy,
//! so that the archive's final sync does not hand the device a whole active log at once while the
//! logger's syncs wait behind it (docs/performance-notes.md, "Log switches and offload"). The hint
//! changes no byte: both copies still read back whole.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

use ferrite_storage::log::archive::{write_archive, ArchiveFile};
use ferrite_storage::vfs::{FileSystem, RealFileSystem, StorageFile};

mod support;
use support::log::{FileHooks, HookedFileSystem, WriteCall};

/// Per archive file: bytes written so far, and how far the writes had got at each
/// `start_write_back`.
#[derive(Default)]
struct Observed {
    written: HashMap<String, u64>,
    hints: HashMap<String, Vec<u64>>,
}

#[derive(Default)]
struct Counting {
    observed: Mutex<Observed>,
}

impl FileHooks for Counting {
    fn write_at(&self, call: WriteCall<'_>) -> io::Result<()> {
        *self
            .observed
            .lock()
            .unwrap()
            .written
            .entry(call.name.to_string())
            .or_default() += call.buffer.len() as u64;
        call.run()
    }
    fn start_write_back(&self, name: &str, inner: &dyn StorageFile) -> io::Result<()> {
        let mut observed = self.observed.lock().unwrap();
        let written = observed.written.get(name).copied().unwrap_or(0);
        observed
            .hints
            .entry(name.to_string())
            .or_default()
            .push(written);
        inner.start_write_back()
    }
    fn forwards_shared_flush(&self) -> bool {
        true
    }
}

#[test]
fn the_offload_starts_each_archive_copys_write_back_every_8_mib() {
    const MIB: u64 = 1024 * 1024;
    let directory = tempfile::tempdir().unwrap();
    let hooks = Arc::new(Counting::default());
    let fs: Arc<dyn FileSystem> = Arc::new(HookedFileSystem::new(
        Arc::new(RealFileSystem),
        hooks.clone(),
    ));
    let content: Vec<u8> = (0..20 * MIB as usize).map(|i| (i % 253) as u8).collect();
    let entry = write_archive(
        &*fs,
        directory.path(),
        0,
        content.len() as u64,
        content.len() as u64,
        false,
        2,
        &mut |offset, buffer| {
            buffer.copy_from_slice(&content[offset as usize..offset as usize + buffer.len()]);
            Ok(())
        },
    )
    .unwrap();
    let observed = hooks.observed.lock().unwrap();
    for name in &entry.copies {
        let hints = observed
            .hints
            .get(&format!("{name}.tmp"))
            .unwrap_or_else(|| panic!("no write-back started for {name}"));
        // 20 MiB of content: started once 8 and 16 MiB of it were written.
        assert_eq!(hints.len(), 2, "{name}: {hints:?}");
        for (index, at) in hints.iter().enumerate() {
            let due = (index as u64 + 1) * 8 * MIB;
            assert!(
                *at >= due && *at < due + MIB,
                "{name}: write-back {index} started after {at} bytes, due at {due}"
            );
        }
        let mut archive = ArchiveFile::open(&RealFileSystem, &directory.path().join(name)).unwrap();
        archive.verify_content().unwrap();
        let mut out = vec![0u8; 4096];
        archive.read(13 * MIB, &mut out).unwrap();
        assert_eq!(out, content[13 * MIB as usize..13 * MIB as usize + 4096]);
    }
}
