//! Whether a file's written-back data is made durable by the device cache flush of another
//! file's fdatasync (see [`super::StorageFile::shared_flush_device`]).
//!
//! Three conditions, each checked on the open file:
//! 1. The file system is ext4 or xfs (`fstatfs`). Both end an fdatasync that has no metadata to
//!    commit with a cache flush of the whole block device (ext4: `blkdev_issue_flush` when the
//!    journal commit does not send one; xfs: the log force's flush or `blkdev_issue_flush`),
//!    and device mapper and md pass a flush on to every device beneath them. Other file
//!    systems (btrfs, network and FUSE file systems, tmpfs) are not assumed to.
//! 2. The device (`st_dev`) is a real block device (major number not 0, which is how Linux
//!    numbers anonymous devices).
//! 3. Every byte of the file is allocated and written (`FS_IOC_FIEMAP`): extents cover it from
//!    0 to its length without a gap, and none is unwritten, delayed, inline, encoded or shared.
//!    Overwriting such a file changes no metadata that a later read needs (a write into an
//!    unwritten extent converts it in a journal transaction only that file's own fdatasync
//!    commits; a hole allocates; a shared extent is copied on write).
//!
//! 4. The file's data is not journalled (ext4 `data=journal` in the mount's options, or the
//!    inode's `FS_JOURNAL_DATA_FL`, `chattr +j`): written-back journalled data sits in a journal
//!    transaction that another file's fdatasync need not commit.
//!
//! Any failure to tell (an unsupported ioctl, an unexpected answer) gives `None`: the caller then
//! syncs every file itself, which is always correct.

use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd;

/// `EXT4_SUPER_MAGIC` (also ext2/ext3, which share it and the same fsync path in ext4).
const EXT4_SUPER_MAGIC: i64 = 0xEF53;
/// `XFS_SUPER_MAGIC` ("XFSB").
const XFS_SUPER_MAGIC: i64 = 0x5846_5342;

/// `FS_IOC_FIEMAP` = `_IOWR('f', 11, struct fiemap)` (32-byte header).
const FS_IOC_FIEMAP: libc::c_ulong = 0xC020_660B;
/// Write dirty pages back before mapping, so delayed allocations are resolved.
const FIEMAP_FLAG_SYNC: u32 = 0x1;
/// Extent flags that are harmless for an overwrite: the last extent, and merged reporting.
const FIEMAP_EXTENT_LAST: u32 = 0x1;
const FIEMAP_EXTENT_MERGED: u32 = 0x1000;
/// `FS_IOC_GETFLAGS` = `_IOR('f', 1, long)`, and the flag of an inode whose data is journalled.
const FS_IOC_GETFLAGS: libc::c_ulong = 0x8008_6601;
const FS_JOURNAL_DATA_FL: libc::c_long = 0x0000_4000;
/// Extents asked for per ioctl call.
const FIEMAP_EXTENTS_PER_CALL: usize = 64;

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct FiemapExtent {
    logical: u64,
    physical: u64,
    length: u64,
    reserved64: [u64; 2],
    flags: u32,
    reserved: [u32; 3],
}

#[repr(C)]
struct Fiemap {
    start: u64,
    length: u64,
    flags: u32,
    mapped_extents: u32,
    extent_count: u32,
    reserved: u32,
    extents: [FiemapExtent; FIEMAP_EXTENTS_PER_CALL],
}

/// The device whose cache flush makes `file`'s written-back data durable, if the three
/// conditions of the module hold.
pub(super) fn device_of(file: &File) -> io::Result<Option<u64>> {
    let descriptor = file.as_raw_fd();
    // SAFETY: a valid descriptor and a zeroed out-parameter of the right type.
    let mut statfs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatfs(descriptor, &mut statfs) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let kind = statfs.f_type as i64;
    if kind != EXT4_SUPER_MAGIC && kind != XFS_SUPER_MAGIC {
        return Ok(None);
    }
    let metadata = file.metadata()?;
    use std::os::unix::fs::MetadataExt;
    let device = metadata.dev();
    if libc::major(device) == 0 {
        return Ok(None);
    }
    if kind == EXT4_SUPER_MAGIC && journals_data(file, device) {
        return Ok(None);
    }
    Ok(fully_written(file, metadata.len())?.then_some(device))
}

/// True when ext4 may journal this file's data (or when that cannot be told).
fn journals_data(file: &File, device: u64) -> bool {
    let mut flags: libc::c_long = 0;
    // SAFETY: a valid descriptor and a `long` out-parameter, as FS_IOC_GETFLAGS expects.
    if unsafe { libc::ioctl(file.as_raw_fd(), FS_IOC_GETFLAGS, &mut flags) } != 0 {
        return true;
    }
    if flags & FS_JOURNAL_DATA_FL != 0 {
        return true;
    }
    let Ok(mountinfo) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return true;
    };
    let wanted = format!("{}:{}", libc::major(device), libc::minor(device));
    // "id parent major:minor root mount-point options ... - type source super-options"
    let mut found = false;
    for line in mountinfo.lines() {
        if line.split(' ').nth(2) != Some(wanted.as_str()) {
            continue;
        }
        found = true;
        let super_options = line.rsplit(' ').next().unwrap_or("");
        if super_options
            .split(',')
            .any(|option| option == "data=journal")
        {
            return true;
        }
    }
    !found
}

/// True when extents cover `[0, length)` without a gap and every one is plainly written.
fn fully_written(file: &File, length: u64) -> io::Result<bool> {
    let mut covered = 0u64;
    let mut flags = FIEMAP_FLAG_SYNC;
    while covered < length {
        let mut map = Fiemap {
            start: covered,
            length: length - covered,
            flags,
            mapped_extents: 0,
            extent_count: FIEMAP_EXTENTS_PER_CALL as u32,
            reserved: 0,
            extents: [FiemapExtent::default(); FIEMAP_EXTENTS_PER_CALL],
        };
        flags = 0;
        // SAFETY: `map` is a `struct fiemap` with room for `extent_count` extents.
        if unsafe { libc::ioctl(file.as_raw_fd(), FS_IOC_FIEMAP, &mut map) } != 0 {
            return Ok(false);
        }
        let mapped = (map.mapped_extents as usize).min(FIEMAP_EXTENTS_PER_CALL);
        if mapped == 0 {
            return Ok(false);
        }
        for extent in &map.extents[..mapped] {
            if extent.logical > covered
                || extent.flags & !(FIEMAP_EXTENT_LAST | FIEMAP_EXTENT_MERGED) != 0
            {
                return Ok(false);
            }
            covered = covered.max(extent.logical + extent.length);
            if extent.flags & FIEMAP_EXTENT_LAST != 0 {
                return Ok(covered >= length);
            }
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileExt;

    fn scratch(name: &str) -> (std::path::PathBuf, File) {
        let directory = std::env::temp_dir().join(format!(
            "ferrite-shared-flush-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&directory);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&directory)
            .unwrap();
        (directory, file)
    }

    /// Written files qualify and fallocated or sparse ones do not, where the temporary
    /// directory is ext4 or xfs (elsewhere every answer is `None`, which is also checked).
    #[test]
    fn written_files_qualify_and_unwritten_or_sparse_ones_do_not() {
        let (written_path, written) = scratch("written");
        written.write_all_at(&vec![0u8; 256 * 1024], 0).unwrap();
        written.sync_all().unwrap();
        let (sparse_path, sparse) = scratch("sparse");
        sparse.set_len(256 * 1024).unwrap();
        let (fallocated_path, fallocated) = scratch("fallocated");
        // SAFETY: a valid descriptor.
        let reserved = unsafe { libc::posix_fallocate(fallocated.as_raw_fd(), 0, 256 * 1024) };
        let answers = (
            device_of(&written).unwrap(),
            device_of(&sparse).unwrap(),
            device_of(&fallocated).unwrap(),
        );
        for path in [&written_path, &sparse_path, &fallocated_path] {
            let _ = std::fs::remove_file(path);
        }
        assert_eq!(answers.1, None, "a sparse file never qualifies");
        if reserved == 0 {
            assert_eq!(
                answers.2, None,
                "a fallocated (unwritten) file never qualifies"
            );
        }
        if let Some(device) = answers.0 {
            let expected = std::fs::metadata(std::env::temp_dir()).unwrap();
            use std::os::unix::fs::MetadataExt;
            assert_eq!(device, expected.dev(), "the device is the file system's");
        }
    }
}
