//! Restart as the queue manager runs it: the engine recovers the log and the page sets
//! (`ferrite_storage::recovery::restart`: MQ's current status rebuild, forward and backward
//! recovery), then the queue manager rebuilds what it keeps only in memory, in these phases:
//!
//! 1. `register_in_doubt`: the units of recovery left in doubt stay registered, so
//!    checkpoints keep recording them.
//! 2. A checkpoint, after the pages redo allocated are hardened.
//! 3. `scan_page_sets`: every stored object and message, from the page sets.
//! 4. `write_restored_pages`: the pages the scan changed are written at once.
//! 5. `restore_objects`: the newest image of each object, older ones freed.
//! 6. `restore_messages`: the messages onto their queues, those of in-doubt units held for
//!    them, those of deleted queues freed.
//! 7. `hold_in_doubt_units`: the in-doubt units wait for their coordinator.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use ferrite_storage::config::IndexBuild;
use ferrite_storage::data_manager::message::{
    decode_descriptor, decode_index_fields, MessageDescriptor, NO_IDENTIFIER,
};
use ferrite_storage::data_manager::{ScannedRecord, SLOT_KIND_OBJECT};
use ferrite_storage::error::StorageResult;
use ferrite_storage::log_records::{GetRecord, MessageLocation, UrReference, UrSnapshot, UrState};
use ferrite_storage::recovery::restart::{self, RestartState};
use ferrite_storage::types::{Rba, Urid};

use super::{
    GroupMember, LocalQueue, MessageEntry, MessageKey, MessageStorage, PendingGet, PendingPut,
    QueueManager, UnitOfWork, UrRecord,
};
use crate::objects::ObjectDefinition;

/// Where each in-doubt unit's operations are: the unit, and whether the operation is a put.
type InDoubtLocations = HashMap<MessageLocation, (Urid, bool)>;

/// What the scan of the page sets found.
#[derive(Default)]
struct ScannedPageSets {
    /// The newest image of each object, by object id: where it is, its sequence, its image.
    objects: HashMap<u32, (MessageLocation, u64, Vec<u8>)>,
    /// Older images of objects, which a newer one replaces: where, object id, sequence.
    stale_objects: Vec<(MessageLocation, u32, u64)>,
    /// Every stored message, with the object id of its queue.
    messages: Vec<(u32, MessageEntry)>,
    /// Messages whose descriptor does not decode (not restored).
    damaged: u64,
    highest_sequence: u64,
    highest_object: u32,
}

/// The group member a message found by the restart scan is: its data length is the image's
/// length less the descriptor, which lies in the first page.
fn restored_group_member(
    descriptor: &MessageDescriptor,
    record: &ScannedRecord<'_>,
) -> Option<Box<GroupMember>> {
    if descriptor.group_id == NO_IDENTIFIER {
        return None;
    }
    let data_offset = decode_descriptor(record.first_page_bytes)
        .map(|(_, offset)| offset)
        .unwrap_or(0);
    GroupMember::of(
        descriptor,
        (record.header.total_length as usize).saturating_sub(data_offset),
    )
    .map(Box::new)
}

impl QueueManager {
    /// Restart from the log and the page sets ([`QueueManager::open`] runs it first thing):
    /// the engine's recovery, then the phases above, in order.
    pub(super) fn restart(self: &Arc<Self>) -> StorageResult<()> {
        let state = restart::recover(&self.data, &self.log, &self.name, &*self.messages)?;
        *self.checkpoint_sequence.lock().unwrap() = state.checkpoint_sequence;
        self.next_message_sequence
            .store(state.next_message_sequence.max(1), Ordering::SeqCst);
        self.next_object_id
            .store(state.next_object_id.max(1), Ordering::SeqCst);
        let in_doubt_locations = self.register_in_doubt(&state);
        // The pages redo allocated reach the on-disk space maps before any checkpoint moves
        // the recovery RBA past the records that allocated them.
        self.data.harden_allocations(self.log.end_rba())?;
        // A checkpoint now gives the space map corrections below an RBA to carry.
        let checkpoint = self.checkpoint()?;

        let scanned = self.scan_page_sets(checkpoint.begin_rba)?;
        self.write_restored_pages(checkpoint.begin_rba)?;
        if scanned.damaged > 0 {
            self.say(&format!(
                "CSQI010E {} {} STORED MESSAGES HAVE A DAMAGED DESCRIPTOR AND WERE NOT RESTORED",
                self.name, scanned.damaged
            ));
        }
        self.next_message_sequence
            .fetch_max(scanned.highest_sequence + 1, Ordering::SeqCst);
        self.next_object_id
            .fetch_max(scanned.highest_object + 1, Ordering::SeqCst);
        self.restore_objects(scanned.objects, scanned.stale_objects)?;
        let (restored, in_doubt_units) =
            self.restore_messages(scanned.messages, &in_doubt_locations)?;
        self.hold_in_doubt_units(in_doubt_units, &state.in_doubt);
        self.say(&format!(
            "CSQI006I {} {} PERSISTENT MESSAGES RESTORED ON {} QUEUES",
            self.name,
            restored,
            self.queues.read().unwrap().len()
        ));
        self.say(&format!("CSQR002I {} RESTART COMPLETED", self.name));
        Ok(())
    }

    /// The units of recovery the log left in doubt stay registered, so checkpoints keep
    /// recording them; returns where their operations are.
    fn register_in_doubt(&self, state: &RestartState) -> InDoubtLocations {
        let mut in_doubt_locations = InDoubtLocations::new();
        for snapshot in &state.in_doubt {
            self.units_of_recovery.lock().unwrap().insert(
                snapshot.urid,
                Arc::new(Mutex::new(UrRecord {
                    state: UrState::InDoubt,
                    operations: snapshot.operations.clone(),
                })),
            );
            for operation in &snapshot.operations {
                in_doubt_locations.insert(operation.location, (snapshot.urid, operation.is_put));
            }
        }
        in_doubt_locations
    }

    /// Every object image and message stored on the page sets, as the data manager's scan
    /// (which also rebuilds the space maps, from the restart checkpoint) finds them.
    fn scan_page_sets(&self, checkpoint_rba: Rba) -> StorageResult<ScannedPageSets> {
        let mut scanned = ScannedPageSets::default();
        let ScannedPageSets {
            objects,
            stale_objects,
            messages,
            damaged,
            highest_sequence,
            highest_object,
        } = &mut scanned;
        self.data.scan_and_rebuild(checkpoint_rba, &mut |record| {
            *highest_sequence = (*highest_sequence).max(record.header.sequence);
            if record.header.kind == SLOT_KIND_OBJECT {
                *highest_object = (*highest_object).max(record.header.object_id);
                match objects.get(&record.header.object_id) {
                    Some((_, sequence, _)) if *sequence > record.header.sequence => {
                        stale_objects.push((
                            record.location,
                            record.header.object_id,
                            record.header.sequence,
                        ));
                    }
                    _ => {
                        if let Some((location, sequence, _)) = objects.insert(
                            record.header.object_id,
                            (
                                record.location,
                                record.header.sequence,
                                record.first_page_bytes.to_vec(),
                            ),
                        ) {
                            stale_objects.push((location, record.header.object_id, sequence));
                        }
                    }
                }
                return;
            }
            match decode_index_fields(record.first_page_bytes) {
                Ok(descriptor) => messages.push((
                    record.header.object_id,
                    MessageEntry {
                        group: restored_group_member(&descriptor, &record),
                        key: MessageKey::new(descriptor.priority, record.header.sequence),
                        storage: MessageStorage::Pages(record.location),
                        persistent: true,
                        message_id: descriptor.message_id,
                        correlation_id: descriptor.correlation_id,
                        expires_at_ms: descriptor.expires_at_ms(),
                        backout_count: record.header.backout_count,
                    },
                )),
                Err(_) => *damaged += 1,
            }
        })?;
        Ok(scanned)
    }

    /// The space map corrections of the scan carry the restart checkpoint's RBA, which does
    /// not describe the allocations they record: write every changed page now, so no later
    /// restart needs them (MQ writes restored pages at the first checkpoint after restart).
    fn write_restored_pages(&self, checkpoint_rba: Rba) -> StorageResult<()> {
        for pool in &self.pools() {
            pool.flush_for_shutdown()?;
        }
        for space in self.data.spaces() {
            let rba = space
                .pool
                .recovery_rba(space.id())
                .unwrap_or(checkpoint_rba)
                .min(checkpoint_rba);
            space.page_set.set_recovery_rba(rba)?;
        }
        Ok(())
    }

    /// Free the images that newer ones replaced, and take each object's newest: a local
    /// queue (empty until its messages are restored) or another definition.
    fn restore_objects(
        &self,
        objects: HashMap<u32, (MessageLocation, u64, Vec<u8>)>,
        stale_objects: Vec<(MessageLocation, u32, u64)>,
    ) -> StorageResult<()> {
        for (location, object_id, sequence) in stale_objects {
            let record = GetRecord {
                ur: UrReference::None,
                location,
                object_id,
                sequence,
            };
            self.data.get_and_free(&record, true)?;
        }
        for (object_id, (location, sequence, image)) in objects {
            // Objects are at most a few KiB, so the whole image is in the first page.
            let (definition, times) = ObjectDefinition::decode_with_times(&image)?;
            self.object_times.lock().unwrap().insert(object_id, times);
            match definition {
                ObjectDefinition::Local(definition) => {
                    let queue = Arc::new(LocalQueue::new(object_id, definition.clone()));
                    self.queues
                        .write()
                        .unwrap()
                        .insert(definition.name.clone(), queue.clone());
                    self.queues_by_id.write().unwrap().insert(object_id, queue);
                }
                other => {
                    self.note_queue_manager_attributes(&other);
                    self.definitions.write().unwrap().insert(
                        (other.object_type(), other.name().to_string()),
                        (object_id, other),
                    );
                }
            }
            self.object_locations
                .lock()
                .unwrap()
                .insert(object_id, (location, sequence));
        }
        Ok(())
    }

    /// Put each message back on its queue, in its queue's delivery order, except the puts
    /// and gets of in-doubt units, which their units hold; free the messages of deleted
    /// queues. Returns how many messages were restored, and the in-doubt units by URID.
    fn restore_messages(
        &self,
        mut messages: Vec<(u32, MessageEntry)>,
        in_doubt_locations: &InDoubtLocations,
    ) -> StorageResult<(u64, HashMap<Urid, UnitOfWork>)> {
        let mut in_doubt_units: HashMap<Urid, UnitOfWork> = HashMap::new();
        // QINDXBLD(NOWAIT): the indexes are built after the queue manager is available.
        let build_indexes = self.config.system.qindxbld == IndexBuild::Wait;
        let mut restored = 0u64;
        let mut orphans = 0u64;
        let queues_by_id = self.queues_by_id.read().unwrap().clone();
        // MSGDLVSQ(FIFO) queues order by put sequence alone.
        let fifo_queues: HashSet<u32> = queues_by_id
            .values()
            .filter(|queue| queue.with_definition(|d| d.message_delivery_fifo))
            .map(|queue| queue.object_id)
            .collect();
        if !fifo_queues.is_empty() {
            for (object_id, entry) in messages.iter_mut() {
                if fifo_queues.contains(object_id) {
                    entry.key = MessageKey::new(0, entry.key.sequence);
                }
            }
        }
        messages.sort_unstable_by_key(|(object_id, entry)| (*object_id, entry.key));
        let mut batch: Vec<MessageEntry> = Vec::new();
        let mut batch_queue: Option<Arc<LocalQueue>> = None;
        for (object_id, entry) in messages {
            if batch_queue
                .as_ref()
                .is_some_and(|queue| queue.object_id != object_id)
            {
                let queue = batch_queue.take().expect("checked above");
                queue.insert_restored(std::mem::take(&mut batch), build_indexes);
            }
            let queue = queues_by_id.get(&object_id).cloned();
            let location = entry
                .location()
                .expect("restart restores messages from pages");
            let Some(queue) = queue else {
                orphans += 1;
                let record = GetRecord {
                    ur: UrReference::None,
                    location,
                    object_id,
                    sequence: entry.key.sequence,
                };
                self.data.get_and_free(&record, true)?;
                continue;
            };
            match in_doubt_locations.get(&location) {
                Some((urid, true)) => {
                    let unit = in_doubt_units
                        .entry(*urid)
                        .or_insert_with(|| UnitOfWork::in_doubt(*urid));
                    queue.reserve_put(u32::MAX);
                    unit.puts.push(PendingPut {
                        queue,
                        entry,
                        put_time_ms: 0,
                    });
                }
                Some((urid, false)) => {
                    let unit = in_doubt_units
                        .entry(*urid)
                        .or_insert_with(|| UnitOfWork::in_doubt(*urid));
                    queue.hold_for_in_doubt_get();
                    unit.gets.push(PendingGet {
                        queue,
                        entry,
                        skip_backout: false,
                    });
                }
                None => {
                    batch.push(entry);
                    batch_queue = Some(queue);
                    restored += 1;
                }
            }
        }
        if let Some(queue) = batch_queue {
            queue.insert_restored(batch, build_indexes);
        }
        if orphans > 0 {
            self.say(&format!(
                "CSQI011I {} {orphans} MESSAGES OF DELETED QUEUES WERE REMOVED",
                self.name
            ));
        }
        Ok((restored, in_doubt_units))
    }

    /// The in-doubt units wait for their coordinator ([`QueueManager::resolve_in_doubt`]):
    /// those holding restored messages, and those whose messages are all gone.
    fn hold_in_doubt_units(
        &self,
        in_doubt_units: HashMap<Urid, UnitOfWork>,
        in_doubt: &[UrSnapshot],
    ) {
        for (urid, unit) in in_doubt_units {
            self.in_doubt.lock().unwrap().insert(urid, unit);
        }
        for snapshot in in_doubt {
            self.in_doubt
                .lock()
                .unwrap()
                .entry(snapshot.urid)
                .or_insert_with(|| UnitOfWork::in_doubt(snapshot.urid));
        }
    }
}
