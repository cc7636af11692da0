//! Crash injection at every I/O step of a mixed persistent workload (simulated file system):
//! before, during (torn) and after each log write, page write, BSDS update, checkpoint and
//! archive. After each crash the queue manager restarts and must hold every acknowledged
//! committed message exactly once and nothing that was never committed.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use ferrite_queue_manager::{MessageSelector, QueueDefinition, QueueManager, UnitOfWork};
use ferrite_storage::config::QueueManagerConfig;
use ferrite_storage::data_manager::message::MessageDescriptor;
use ferrite_storage::vfs::simulated::{
    CrashEffect, CrashMode, CrashPoint, OpClass, PathFilter, SimulatedFileSystem,
};
use ferrite_storage::vfs::FileSystem;
use ferrite_storage::PageSetId;

const DIRECTORY: &str = "/qm/CRASHQM";

#[derive(Copy, Clone, Debug)]
enum Variant {
    /// Single logging, default-sized buffer pools.
    Single,
    /// Dual logging (TWOACTV): crashes land between and during the two copies' writes.
    Dual,
    /// The smallest buffer pools, so the deferred write process and synchronous writes run.
    SmallPools,
}

fn config(variant: Variant) -> QueueManagerConfig {
    let mut config = QueueManagerConfig::with_defaults("CRASHQM");
    config.log.active_log_size_mib = 1;
    config.log.active_log_count = 3;
    config.log.outbuff_kib = 64;
    config.log.wrthrsh = 4;
    config.log.twoactv = matches!(variant, Variant::Dual);
    config.system.logload = 200;
    for pool in &mut config.buffer_pools {
        pool.buffers = if matches!(variant, Variant::SmallPools) {
            100
        } else {
            400
        };
    }
    for page_set in &mut config.page_sets {
        page_set.primary_pages = 256;
        page_set.secondary_pages = 128;
    }
    config
}

fn descriptor(tag: u32) -> MessageDescriptor {
    support::tagged_descriptor(tag, true)
}

fn payload(tag: u32) -> Vec<u8> {
    let length = match tag % 7 {
        0 => 9000,
        1 => 0,
        _ => 100 + (tag as usize * 37) % 1500,
    };
    (0..length).map(|i| (i as u32 ^ tag) as u8).collect()
}

/// What the application knows: messages whose put committed and whose get did not, and the
/// messages whose fate is unknown because the crash interrupted their commit.
#[derive(Default)]
struct Model {
    present: BTreeSet<u32>,
    uncertain: BTreeSet<u32>,
}

struct SmallRandom(u64);

impl SmallRandom {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Run the workload until it ends or an operation fails (the crash point was reached).
fn workload(queue_manager: &QueueManager, model: &mut Model, seed: u64, steps: usize) {
    let queue = queue_manager.queue("TORTURE").unwrap();
    let mut random = SmallRandom(seed);
    let mut next_tag = 1u32;
    for _ in 0..steps {
        match random.next() % 6 {
            0 => {
                let tag = next_tag;
                next_tag += 1;
                model.uncertain.insert(tag);
                if queue_manager
                    .put(None, &queue, &descriptor(tag), &payload(tag))
                    .is_err()
                {
                    return;
                }
                model.uncertain.remove(&tag);
                model.present.insert(tag);
            }
            1 | 2 => {
                let mut unit = UnitOfWork::new();
                let count = 1 + random.next() % 3;
                let mut tags = Vec::new();
                for _ in 0..count {
                    let tag = next_tag;
                    next_tag += 1;
                    if queue_manager
                        .put(Some(&mut unit), &queue, &descriptor(tag), &payload(tag))
                        .is_err()
                    {
                        return;
                    }
                    tags.push(tag);
                }
                let commit = !random.next().is_multiple_of(4);
                if commit {
                    model.uncertain.extend(&tags);
                    if queue_manager.commit(&mut unit).is_err() {
                        return;
                    }
                    for tag in tags {
                        model.uncertain.remove(&tag);
                        model.present.insert(tag);
                    }
                } else if queue_manager.backout(&mut unit).is_err() {
                    return;
                }
            }
            3 | 4 => {
                let mut unit = UnitOfWork::new();
                let mut got = Vec::new();
                for _ in 0..1 + random.next() % 2 {
                    match queue_manager.get(
                        Some(&mut unit),
                        &queue,
                        &MessageSelector::default(),
                        None,
                    ) {
                        Ok(Some(message)) => {
                            let tag = u32::from_be_bytes(
                                message.descriptor.message_id[..4].try_into().unwrap(),
                            );
                            assert_eq!(message.data, payload(tag), "message {tag} damaged");
                            got.push(tag);
                        }
                        Ok(None) => break,
                        Err(_) => return,
                    }
                }
                if !random.next().is_multiple_of(3) {
                    for tag in &got {
                        model.present.remove(tag);
                        model.uncertain.insert(*tag);
                    }
                    if queue_manager.commit(&mut unit).is_err() {
                        return;
                    }
                    for tag in &got {
                        model.uncertain.remove(tag);
                    }
                } else if queue_manager.backout(&mut unit).is_err() {
                    return;
                }
            }
            _ => {
                if random.next().is_multiple_of(2) {
                    if queue_manager.checkpoint().is_err() {
                        return;
                    }
                } else if queue_manager.archive_log().is_err() {
                    return;
                }
            }
        }
    }
}

fn fresh(seed: u64, variant: Variant) -> (SimulatedFileSystem, Arc<QueueManager>) {
    let fs = SimulatedFileSystem::new(seed);
    let shared: Arc<dyn FileSystem> = Arc::new(fs.clone());
    QueueManager::create(
        shared.clone(),
        Path::new(DIRECTORY),
        &config(variant),
        &mut |_, _, _| {},
    )
    .unwrap();
    let queue_manager =
        QueueManager::open(shared, Path::new(DIRECTORY), Arc::new(|_: &str| {})).unwrap();
    queue_manager
        .define_queue(QueueDefinition::local("TORTURE", PageSetId(1)), false)
        .unwrap();
    (fs, queue_manager)
}

fn verify(after: SimulatedFileSystem, model: &Model, context: &str) {
    let queue_manager = QueueManager::open(
        Arc::new(after),
        Path::new(DIRECTORY),
        Arc::new(|_: &str| {}),
    )
    .unwrap_or_else(|error| panic!("{context}: restart failed: {error}"));
    let queue = queue_manager
        .queue("TORTURE")
        .unwrap_or_else(|| panic!("{context}: queue definition lost"));
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    while let Some(message) = queue_manager
        .get(None, &queue, &MessageSelector::default(), None)
        .unwrap()
    {
        let tag = u32::from_be_bytes(message.descriptor.message_id[..4].try_into().unwrap());
        assert_eq!(
            message.data,
            payload(tag),
            "{context}: message {tag} damaged"
        );
        *seen.entry(tag).or_default() += 1;
    }
    for (tag, count) in &seen {
        assert_eq!(*count, 1, "{context}: message {tag} duplicated");
        assert!(
            model.present.contains(tag) || model.uncertain.contains(tag),
            "{context}: message {tag} was never committed (or its get was) but is present"
        );
    }
    for tag in &model.present {
        assert!(
            seen.contains_key(tag),
            "{context}: committed message {tag} lost"
        );
    }
    queue_manager.shutdown().unwrap();
}

/// Crash at every mutating I/O step (or at most `crashes_max` steps spread evenly over them).
fn crash_at_every_step(
    seed: u64,
    steps: usize,
    mode: CrashMode,
    variant: Variant,
    crashes_max: u64,
) -> u64 {
    // Count the mutating I/O operations of the workload without crashing.
    let (fs, queue_manager) = fresh(seed, variant);
    let counter = fs.count_operations(OpClass::Mutating, PathFilter::Any);
    let mut model = Model::default();
    workload(&queue_manager, &mut model, seed, steps);
    queue_manager.shutdown().unwrap();
    let total = counter.get();
    assert!(total > 20, "workload did too little I/O ({total})");
    let stride = total.div_ceil(crashes_max).max(1);
    let mut crashes = 0;
    let mut step = 0;
    while step < total {
        let (fs, queue_manager) = fresh(seed, variant);
        let effect = match step % 3 {
            0 => CrashEffect::NotApplied,
            1 => CrashEffect::Torn,
            _ => CrashEffect::Applied,
        };
        fs.set_crash_point(CrashPoint {
            after: step,
            class: OpClass::Mutating,
            paths: PathFilter::Any,
            effect,
        });
        let mut model = Model::default();
        workload(&queue_manager, &mut model, seed, steps);
        let after = fs.crash_with(mode);
        drop(queue_manager);
        verify(
            after,
            &model,
            &format!("seed {seed} {variant:?} crash at mutating step {step}/{total} ({effect:?}, {mode:?})"),
        );
        crashes += 1;
        step += stride;
    }
    crashes
}

#[test]
fn crash_at_every_io_step_power_loss() {
    let crashes = crash_at_every_step(1, 40, CrashMode::LoseAllUnsynced, Variant::Single, u64::MAX);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_at_every_io_step_torn_and_reordered() {
    let crashes = crash_at_every_step(2, 40, CrashMode::Random, Variant::Single, u64::MAX);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_at_every_io_step_kill_nine() {
    let crashes = crash_at_every_step(3, 40, CrashMode::KeepAllUnsynced, Variant::Single, u64::MAX);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_during_dual_log_writes() {
    let crashes = crash_at_every_step(4, 40, CrashMode::Random, Variant::Dual, 400);
    eprintln!("{crashes} crashes survived");
}

#[test]
fn crash_during_deferred_writes_with_small_buffer_pools() {
    let crashes = crash_at_every_step(5, 160, CrashMode::Random, Variant::SmallPools, 400);
    eprintln!("{crashes} crashes survived");
}
