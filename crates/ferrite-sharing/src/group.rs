//! A member's connection to its queue sharing group: the coupling facility and the shared
//! repository, both connected at start ([`join`]), and the membership changes `ferrite create
//! --qsg` makes ([`add_member`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use ferrite_constants::reason::MQRC_CF_STRUC_FAILED;
use ferrite_queue_manager::{
    BrowseCursor, CfStructure, CouplingFacilityStatus, MemberRecovery, QueueSharingGroup,
    RetrievedSharedMessage, SharedMessage, SharedQueueDefinition, SharedSelection, SharingError,
    SharingGroupMember, StructureBackup, StructureRecoveryStatus, StructureSnapshot,
    StructureState,
};
use ferrite_storage::config::QueueSharingGroupParameters;

use crate::arrivals::Arrivals;
use crate::coupling_facility::CouplingFacility;
use crate::list_structure::{
    arrivals_channel, decisions_key, is_not_allocated, prepared_key, ListStructure, SharedUnit,
};
use crate::peer_recovery::PeerWatch;
use crate::repository::Repository;

/// The Ferrite version a member records in the repository.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A running member's connection to its group.
pub struct Group {
    name: String,
    queue_manager: String,
    member_number: u32,
    repository: Mutex<Repository>,
    coupling_facility: Mutex<CouplingFacility>,
    /// The coupling facility's URL, for the structures' own connections.
    coupling_facility_url: String,
    /// The list structures this member has used, each over its own connection.
    structures: Mutex<HashMap<String, ListStructure>>,
    /// The listener that wakes this member's waiting getters.
    arrivals: Arc<Arrivals>,
    /// The thread that renews this member's lease and recovers failed peers.
    peer_watch: OnceLock<PeerWatch>,
    /// Units of work this member backed out for failed peers.
    peer_units_backed_out: AtomicU64,
}

/// Add `queue_manager` to the group `parameters` name, creating the repository's tables and
/// the group on first use (CSQ5PQSG ADD QSG, ADD QMGR); its number in the group. Both
/// servers are checked first, so a member is never added to a group whose coupling facility
/// it cannot reach.
pub fn add_member(
    queue_manager: &str,
    parameters: &QueueSharingGroupParameters,
) -> Result<u32, SharingError> {
    CouplingFacility::connect(&parameters.coupling_facility)?;
    let mut repository = Repository::connect(&parameters.repository)?;
    repository.add_member(&parameters.name, queue_manager, VERSION)
}

/// Remove an inactive member (undoing [`add_member`] when the queue manager's own creation
/// fails after it).
pub fn remove_member(
    queue_manager: &str,
    parameters: &QueueSharingGroupParameters,
) -> Result<(), SharingError> {
    Repository::connect(&parameters.repository)?.remove_member(&parameters.name, queue_manager)
}

/// Connect member `queue_manager` to its group at start: the coupling facility first (MQ
/// connects to the CF structures before it serves), then the repository, where it is
/// recorded active.
pub fn join(
    queue_manager: &str,
    parameters: &QueueSharingGroupParameters,
) -> Result<Arc<Group>, SharingError> {
    let coupling_facility = CouplingFacility::connect(&parameters.coupling_facility)?;
    let mut repository = Repository::connect(&parameters.repository)?;
    let member_number = repository.start_member(&parameters.name, queue_manager, VERSION)?;
    let arrivals = Arrivals::start(
        &parameters.coupling_facility,
        &arrivals_channel(&parameters.name),
    );
    let group = Arc::new(Group {
        name: parameters.name.clone(),
        queue_manager: queue_manager.to_string(),
        member_number,
        repository: Mutex::new(repository),
        coupling_facility: Mutex::new(coupling_facility),
        coupling_facility_url: parameters.coupling_facility.clone(),
        structures: Mutex::new(HashMap::new()),
        arrivals,
        peer_watch: OnceLock::new(),
        peer_units_backed_out: AtomicU64::new(0),
    });
    // Leased before anything else: peers see a running member from now on.
    group.renew_lease()?;
    let watch = PeerWatch::start(Arc::downgrade(&group));
    assert!(group.peer_watch.set(watch).is_ok(), "one watch per member");
    Ok(group)
}

impl Group {
    /// Run `operation` on the list structure `name`, connecting to it on first use. A
    /// structure the coupling facility does not hold is allocated when it was never used (or
    /// is RECOVER(NO): allocated anew, empty, as MQ does) and `operation` runs again; a
    /// RECOVER(YES) structure that was in use is lost with its messages: it is recorded
    /// FAILED and the call fails with MQRC_CF_STRUC_FAILED until RECOVER CFSTRUCT.
    fn with_structure<T>(
        &self,
        name: &str,
        mut operation: impl FnMut(&mut ListStructure) -> Result<T, SharingError>,
    ) -> Result<T, SharingError> {
        match self.on_structure(name, &mut operation) {
            Err(error) if is_not_allocated(&error) => {
                self.allocate_or_fail(name)?;
                self.on_structure(name, &mut operation)
            }
            other => other,
        }
    }

    /// Allocate the structure `name` that the coupling facility does not hold, or record it
    /// failed (see [`Group::with_structure`]).
    fn allocate_or_fail(&self, name: &str) -> Result<(), SharingError> {
        let (status, recoverable) = self
            .repository
            .lock()
            .unwrap()
            .structure_recovery_status(&self.name, name)?;
        let lost = status.state != StructureState::NeverUsed;
        if lost && (recoverable || status.state == StructureState::Failed) {
            if status.state != StructureState::Failed {
                eprintln!(
                    "CSQE035E {} Structure {name} in failed state, recovery needed",
                    self.queue_manager
                );
                self.repository.lock().unwrap().set_structure_state(
                    &self.name,
                    name,
                    StructureState::Failed,
                )?;
            }
            return Err(SharingError::new(
                MQRC_CF_STRUC_FAILED,
                format!("CF structure {name} has failed: its messages are lost from the coupling facility; RECOVER CFSTRUCT({name}) rebuilds it"),
            ));
        }
        self.on_structure(name, &mut |list| list.allocate(0))?;
        if status.state == StructureState::NeverUsed {
            self.repository.lock().unwrap().set_structure_state(
                &self.name,
                name,
                StructureState::Active,
            )?;
        } else {
            eprintln!(
                "CSQE040I {} Structure {name} allocated again empty: RECOVER(NO), its messages are lost",
                self.queue_manager
            );
        }
        Ok(())
    }

    fn on_structure<T>(
        &self,
        name: &str,
        operation: &mut impl FnMut(&mut ListStructure) -> Result<T, SharingError>,
    ) -> Result<T, SharingError> {
        let mut structures = self.structures.lock().unwrap();
        if !structures.contains_key(name) {
            let facility = CouplingFacility::connect(&self.coupling_facility_url)?;
            structures.insert(
                name.to_string(),
                ListStructure::new(facility, &self.name, name),
            );
        }
        operation(structures.get_mut(name).expect("connected above"))
    }

    /// The group's name.
    pub(crate) fn group_name(&self) -> &str {
        &self.name
    }

    /// This member's queue manager name.
    pub(crate) fn member_name(&self) -> &str {
        &self.queue_manager
    }

    /// Count units backed out for a failed peer.
    pub(crate) fn note_peer_recovery(&self, units: usize) {
        self.peer_units_backed_out
            .fetch_add(units as u64, Ordering::Relaxed);
    }

    /// Units of work this member has backed out for failed peers since it joined.
    pub fn peer_units_backed_out(&self) -> u64 {
        self.peer_units_backed_out.load(Ordering::Relaxed)
    }

    /// Stop this member's threads in the group (lease renewal, peer watch, arrivals) as a
    /// crash would, without leaving: its lease expires and its peers recover it. Fault
    /// injection for tests and failure drills; a member that halted serves no more shared
    /// work correctly.
    pub fn halt(&self) {
        if let Some(watch) = self.peer_watch.get() {
            watch.stop();
        }
        self.arrivals.stop();
    }

    /// Run `call` on the coupling facility's own connection (not a structure's).
    pub(crate) fn on_facility<T>(
        &self,
        call: impl FnOnce(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, SharingError> {
        self.coupling_facility.lock().unwrap().run(call)
    }

    /// Back out the units `member` left staged on every structure of the group (for a peer:
    /// listed as aborted, see [`ListStructure::backout_for_peer`]).
    pub(crate) fn back_out_units_of(
        &self,
        member: &str,
        for_peer: bool,
    ) -> Result<usize, SharingError> {
        let mut backed_out = 0;
        for structure in self.structures()? {
            backed_out += self.with_structure(&structure.name, |list| {
                let units = list.units_of(member)?;
                for unit in &units {
                    match for_peer {
                        true => list.backout_for_peer(unit)?,
                        false => list.backout(unit)?,
                    }
                }
                Ok(units.len())
            })?;
        }
        Ok(backed_out)
    }

    /// This member's unit of work `unit` as the structure names it.
    fn unit(&self, unit: &str) -> SharedUnit {
        SharedUnit {
            member: self.queue_manager.clone(),
            unit: unit.to_string(),
        }
    }
}

impl QueueSharingGroup for Group {
    fn name(&self) -> &str {
        &self.name
    }

    fn member_number(&self) -> u32 {
        self.member_number
    }

    fn members(&self) -> Result<Vec<SharingGroupMember>, SharingError> {
        self.repository.lock().unwrap().members(&self.name)
    }

    fn coupling_facility_status(&self) -> Result<CouplingFacilityStatus, SharingError> {
        self.coupling_facility.lock().unwrap().status()
    }

    fn define_structure(&self, structure: &CfStructure, replace: bool) -> Result<(), SharingError> {
        self.repository
            .lock()
            .unwrap()
            .define_structure(&self.name, structure, replace)
    }

    fn alter_structure(&self, structure: &CfStructure) -> Result<(), SharingError> {
        self.repository
            .lock()
            .unwrap()
            .alter_structure(&self.name, structure)
    }

    fn delete_structure(&self, name: &str) -> Result<(), SharingError> {
        self.repository
            .lock()
            .unwrap()
            .delete_structure(&self.name, name)
    }

    fn structures(&self) -> Result<Vec<CfStructure>, SharingError> {
        self.repository.lock().unwrap().structures(&self.name)
    }

    fn define_shared_queue(
        &self,
        definition: &SharedQueueDefinition,
        replace: bool,
    ) -> Result<(), SharingError> {
        self.repository
            .lock()
            .unwrap()
            .define_shared_queue(&self.name, definition, replace)
    }

    fn delete_shared_queue(&self, name: &str) -> Result<(), SharingError> {
        self.repository
            .lock()
            .unwrap()
            .delete_shared_queue(&self.name, name)
    }

    fn shared_queues(&self) -> Result<Vec<SharedQueueDefinition>, SharingError> {
        self.repository.lock().unwrap().shared_queues(&self.name)
    }

    fn put_shared(
        &self,
        structure: &str,
        queue: &str,
        message: &SharedMessage,
    ) -> Result<u64, SharingError> {
        self.with_structure(structure, |list| list.put(queue, message))
    }

    fn get_shared(
        &self,
        structure: &str,
        queue: &str,
        selection: SharedSelection,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        self.with_structure(structure, |list| list.get(queue, selection))
    }

    fn browse_shared(
        &self,
        structure: &str,
        queue: &str,
        selection: SharedSelection,
        after: BrowseCursor,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        self.with_structure(structure, |list| list.browse(queue, selection, after))
    }

    fn shared_queue_depth(&self, structure: &str, queue: &str) -> Result<u64, SharingError> {
        self.with_structure(structure, |list| list.depth(queue))
    }

    fn put_shared_in_unit(
        &self,
        structure: &str,
        unit: &str,
        queue: &str,
        message: &SharedMessage,
    ) -> Result<u64, SharingError> {
        let unit = self.unit(unit);
        self.with_structure(structure, |list| list.put_in_unit(&unit, queue, message))
    }

    fn get_shared_in_unit(
        &self,
        structure: &str,
        unit: &str,
        queue: &str,
        selection: SharedSelection,
    ) -> Result<Option<RetrievedSharedMessage>, SharingError> {
        let unit = self.unit(unit);
        self.with_structure(structure, |list| list.get_in_unit(&unit, queue, selection))
    }

    fn commit_shared(&self, structure: &str, unit: &str) -> Result<(), SharingError> {
        let unit = self.unit(unit);
        self.with_structure(structure, |list| list.commit(&unit))
    }

    fn backout_shared(&self, structure: &str, unit: &str) -> Result<(), SharingError> {
        let unit = self.unit(unit);
        self.with_structure(structure, |list| list.backout(&unit))
    }

    fn prepare_mixed(&self, urid: &str, unit: &str) -> Result<(), SharingError> {
        let key = prepared_key(&self.name, &self.queue_manager);
        self.on_facility(|connection| {
            redis::cmd("HSET")
                .arg(&key)
                .arg(urid)
                .arg(unit)
                .query(connection)
        })
    }

    fn commit_shared_deciding(
        &self,
        structure: &str,
        unit: &str,
        urid: &str,
    ) -> Result<(), SharingError> {
        let unit = self.unit(unit);
        self.with_structure(structure, |list| list.commit_deciding(&unit, urid))
    }

    fn mixed_decided(&self, urid: &str) -> Result<bool, SharingError> {
        let key = decisions_key(&self.name, &self.queue_manager);
        self.on_facility(|connection| redis::cmd("HEXISTS").arg(&key).arg(urid).query(connection))
    }

    fn forget_mixed(&self, urid: &str) -> Result<(), SharingError> {
        let keys = [
            prepared_key(&self.name, &self.queue_manager),
            decisions_key(&self.name, &self.queue_manager),
        ];
        self.on_facility(|connection| {
            redis::pipe()
                .cmd("HDEL")
                .arg(&keys[0])
                .arg(urid)
                .ignore()
                .cmd("HDEL")
                .arg(&keys[1])
                .arg(urid)
                .ignore()
                .query(connection)
        })
    }

    fn recover_member(&self, in_doubt: &[String]) -> Result<MemberRecovery, SharingError> {
        let units_backed_out = self.back_out_units_of(&self.queue_manager, false)?;
        let prepared_key = prepared_key(&self.name, &self.queue_manager);
        let decisions_key = decisions_key(&self.name, &self.queue_manager);
        let (prepared, decided): (Vec<String>, Vec<String>) = self.on_facility(|connection| {
            let prepared = redis::cmd("HKEYS").arg(&prepared_key).query(connection)?;
            let decided = redis::cmd("HKEYS").arg(&decisions_key).query(connection)?;
            Ok((prepared, decided))
        })?;
        let recovery = mixed_recovery(units_backed_out, in_doubt, &prepared, &decided);
        for stale in prepared.iter().chain(&decided) {
            if !in_doubt.contains(stale) {
                self.forget_mixed(stale)?;
            }
        }
        Ok(recovery)
    }

    fn arrivals_seen(&self, queue: &str) -> u64 {
        self.arrivals.seen(queue)
    }

    fn wait_for_arrival(&self, queue: &str, seen: u64, timeout: std::time::Duration) -> bool {
        self.arrivals.wait(queue, seen, timeout)
    }

    fn leave(&self) -> Result<(), SharingError> {
        self.halt();
        self.drop_lease()?;
        self.repository
            .lock()
            .unwrap()
            .stop_member(&self.name, &self.queue_manager)
    }

    fn record_member_directory(&self, directory: &std::path::Path) -> Result<(), SharingError> {
        let directory = directory.canonicalize().unwrap_or(directory.to_path_buf());
        self.repository.lock().unwrap().record_member_directory(
            &self.name,
            &self.queue_manager,
            &directory.to_string_lossy(),
        )
    }

    fn member_directories(&self) -> Result<Vec<(String, std::path::PathBuf)>, SharingError> {
        self.repository
            .lock()
            .unwrap()
            .member_directories(&self.name)
    }

    fn structure_recovery_status(
        &self,
        structure: &str,
    ) -> Result<StructureRecoveryStatus, SharingError> {
        let (status, _) = self
            .repository
            .lock()
            .unwrap()
            .structure_recovery_status(&self.name, structure)?;
        Ok(status)
    }

    fn snapshot_structure(&self, structure: &str) -> Result<StructureSnapshot, SharingError> {
        // A lost structure fails here as any other use of it does (allocate_or_fail).
        self.with_structure(structure, |list| list.depth("").map(|_| ()))?;
        self.with_structure(structure, |list| list.snapshot())
    }

    fn record_backup(&self, structure: &str, backup: &StructureBackup) -> Result<(), SharingError> {
        self.repository
            .lock()
            .unwrap()
            .record_backup(&self.name, structure, backup)
    }

    fn restore_structure(
        &self,
        structure: &str,
        snapshot: &StructureSnapshot,
    ) -> Result<(), SharingError> {
        // Messages first, the state key last: no member uses the structure before it is whole.
        self.on_structure(structure, &mut |list| list.restore(&snapshot.messages))?;
        self.on_structure(structure, &mut |list| list.allocate(snapshot.entries))?;
        self.repository.lock().unwrap().set_structure_state(
            &self.name,
            structure,
            StructureState::Recovered,
        )
    }
}

/// Which way each in-doubt unit of recovery goes: committed where the group recorded the
/// decision (the shared half committed), backed out where only its prepared mark is left;
/// an in-doubt unit with neither is not a mixed unit of work (a channel's) and is left alone.
fn mixed_recovery(
    units_backed_out: usize,
    in_doubt: &[String],
    prepared: &[String],
    decided: &[String],
) -> MemberRecovery {
    let mut recovery = MemberRecovery {
        units_backed_out,
        ..MemberRecovery::default()
    };
    for urid in in_doubt {
        if decided.contains(urid) {
            recovery.commit.push(urid.clone());
        } else if prepared.contains(urid) {
            recovery.backout.push(urid.clone());
        }
    }
    recovery
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_doubt_units_follow_the_recorded_decision() {
        let text = |items: &[&str]| {
            items
                .iter()
                .map(|item| item.to_string())
                .collect::<Vec<_>>()
        };
        let recovery = mixed_recovery(
            2,
            &text(&["A", "B", "C"]),
            &text(&["B", "D"]),
            &text(&["A", "E"]),
        );
        assert_eq!(recovery.units_backed_out, 2);
        assert_eq!(recovery.commit, text(&["A"]));
        // C has no mark: a channel's in-doubt unit, not the group's to decide.
        assert_eq!(recovery.backout, text(&["B"]));
    }
}
