//! Buffer pools and page sets as objects: DEFINE, ALTER and DELETE BUFFPOOL and PSID while the
//! queue manager runs.
//!
//! ## Where the definitions are kept, and why not on page set 0
//! Restart needs every page set open, each in its buffer pool, *before* it reads the log:
//! forward recovery redoes changes into pages of any page set, and page set 0 itself is read
//! through a buffer pool. So the definitions cannot live only in page set 0. MQ for z/OS keeps
//! them outside too (the started task's CSQINP1 DEFINE BUFFPOOL/PSID and its page set DD
//! statements). Ferrite keeps them in one place, `qm.toml`'s `[[buffer_pools]]` and
//! `[[page_sets]]` (config.rs), which these commands rewrite: a new file is written and synced
//! beside it, then renamed over it and the directory synced, so a crash leaves the old or the
//! new definitions, never a mixture. That rename is each command's commit point; a second copy
//! on page set 0 would be a second truth to reconcile, so there is none.
//!
//! These commands own only those two arrays of tables. Each rewrite re-reads qm.toml under the
//! configuration lock and replaces just them (`ConfigurationFile`, with toml_edit), so an
//! operator's edit of another section since start (`[security]`, read again by REFRESH
//! SECURITY) and the file's comments and layout are kept. A qm.toml that no longer parses, or
//! that the next start would refuse, fails the command before anything changes (the pool keeps
//! its size, no page set file is formatted) and says to correct the file. An edit of the pools
//! or page sets themselves while the queue manager runs is replaced by the running ones.
//!
//! | command          | checked first                                     | at run time                          |
//! |------------------|---------------------------------------------------|--------------------------------------|
//! | DEFINE BUFFPOOL  | id 0-99 free, BUFFERS 100-999999                  | the pool is created and serves at once |
//! | ALTER BUFFPOOL   | pool defined, BUFFERS 100-999999                  | the running pool grows or shrinks, then qm.toml records the size (see below) |
//! | DELETE BUFFPOOL  | no page set (qm.toml) uses it                      | removed from qm.toml; its storage is freed at the next start |
//! | DEFINE PSID      | id free, pool serving, sizes valid                | formatted, attached, usable at once   |
//! | ALTER PSID       | page set defined                                  | EXPAND applies to the next expansion  |
//! | DELETE PSID      | not 0; no STGCLASS, no local or model queue names it; the log no longer needed for it | removed from qm.toml; its file is kept (as MQ keeps the data set) and detached at the next start |
//!
//! ALTER BUFFPOOL resizes the running pool, as MQ for z/OS does (`buffer_pool/resize.rs`:
//! growing adds frames; shrinking writes the changed pages of the buffers it gives up and
//! drops the unchanged ones, while puts and gets go on), and then records the new size in
//! qm.toml for restart. A shrink that cannot empty its buffers in time, or a qm.toml that
//! cannot be rewritten (the pool is then resized back), fails the command and changes nothing.
//! Resizes run one at a time in the order they were asked for, a request overtaken by a later
//! one for the same pool doing nothing (`buffer_pool_resizes.rs`).
//!
//! DELETE PSID takes checkpoints (at most [`DELETE_PAGE_SET_CHECKPOINTS_MAX`]) until every
//! other page set's recovery RBA is past the first of them, so that no restart ever redoes a
//! log record for the deleted page set (MQ asks for three checkpoints since the page set was
//! last used); otherwise it fails with MQRC_OBJECT_IN_USE and may be tried again.
//!
//! A page set id is attached once per run: a page set deleted in this run cannot be defined
//! again before a restart.

use std::path::Path;
use std::sync::Arc;

use ferrite_constants::reason;

use super::buffer_pool_resizes::{ResizeTicket, Resized};
use super::{page_set_path, LogForcer, QueueManager};
use crate::objects::{ObjectDefinition, ObjectType};
use ferrite_storage::buffer_pool::{BufferPool, ResizeOutcome, WriteAheadLog};
use ferrite_storage::config::{
    BufferPoolDefinition, Expand, PageClass, PageSetDefinition, QueueManagerConfig,
    CONFIG_FILE_NAME,
};
use ferrite_storage::data_manager::PageSetSpace;
use ferrite_storage::error::{StorageError, StorageResult};
use ferrite_storage::page_set::PageSet;
use ferrite_storage::types::{BufferPoolId, PageSetId};

/// Most buffers in one pool (MQ for z/OS: 999,999 below the bar).
pub const BUFFER_POOL_BUFFERS_MAX: u32 = ferrite_storage::buffer_pool::BUFFERS_MAX;
/// Fewest buffers in one pool (MQ: 100).
pub const BUFFER_POOL_BUFFERS_MIN: u32 = 100;
/// Checkpoints DELETE PSID takes at most while waiting for the log to be no longer needed for
/// the page set (MQ's rule: three since the page set was last used).
pub const DELETE_PAGE_SET_CHECKPOINTS_MAX: usize = 3;

/// The file written beside qm.toml and renamed over it.
const CONFIG_NEW_FILE_NAME: &str = "qm.toml.new";

fn in_use(detail: String) -> StorageError {
    StorageError::mq(reason::MQRC_OBJECT_IN_USE, detail)
}

fn unknown(detail: String) -> StorageError {
    StorageError::mq(reason::MQRC_UNKNOWN_OBJECT_NAME, detail)
}

impl QueueManager {
    /// The buffer pools serving now.
    pub fn pools(&self) -> Vec<Arc<BufferPool>> {
        self.pools.read().unwrap().clone()
    }

    /// qm.toml as it is now (the startup configuration with the changes made since).
    pub fn storage_configuration(&self) -> QueueManagerConfig {
        self.configuration.lock().unwrap().clone()
    }

    /// Whether page set `id` is defined now (qm.toml).
    pub fn page_set_defined(&self, id: u8) -> bool {
        self.configuration
            .lock()
            .unwrap()
            .page_sets
            .iter()
            .any(|definition| definition.id == id)
    }

    /// Whether buffer pool `id` is defined now (qm.toml).
    pub fn buffer_pool_defined(&self, id: u8) -> bool {
        self.configuration
            .lock()
            .unwrap()
            .buffer_pools
            .iter()
            .any(|definition| definition.id == id)
    }

    /// Apply `change` to a copy of the running definitions, check the result, write it into
    /// qm.toml (the commit point), then keep it. Holding the configuration lock serialises
    /// these commands. qm.toml is re-read first and only its `[[buffer_pools]]` and
    /// `[[page_sets]]` are replaced, so an operator's edit of another section since start
    /// (read by REFRESH SECURITY, or at the next start) is kept; a file that no longer parses
    /// fails the command before anything changes.
    fn change_configuration(
        &self,
        configuration: &mut QueueManagerConfig,
        change: impl FnOnce(&mut QueueManagerConfig) -> StorageResult<()>,
    ) -> StorageResult<()> {
        let on_disk = self.read_configuration_file()?;
        let mut changed = configuration.clone();
        change(&mut changed)?;
        changed.validate()?;
        self.write_configuration(on_disk, &changed)?;
        *configuration = changed;
        Ok(())
    }

    /// qm.toml as it is on disk now, checked as the next start would check it.
    fn read_configuration_file(&self) -> StorageResult<ConfigurationFile> {
        let path = self.directory.join(CONFIG_FILE_NAME);
        let text = super::read_small_file(self.fs.as_ref(), &path)?;
        let text = String::from_utf8(text)
            .map_err(|_| unreadable_configuration(&path, "it is not UTF-8".to_string()))?;
        ConfigurationFile::parse(&text).map_err(|detail| unreadable_configuration(&path, detail))
    }

    /// Write qm.toml atomically with `configuration`'s definitions in place of the file's:
    /// a new file, synced, renamed over the old one, directory synced.
    fn write_configuration(
        &self,
        mut file: ConfigurationFile,
        configuration: &QueueManagerConfig,
    ) -> StorageResult<()> {
        let fs = self.fs.as_ref();
        let directory: &Path = &self.directory;
        let new_path = directory.join(CONFIG_NEW_FILE_NAME);
        let path = directory.join(CONFIG_FILE_NAME);
        let text = file
            .replace_definitions(configuration)
            .map_err(|detail| unreadable_configuration(&path, detail))?;
        if fs.exists(&new_path) {
            fs.remove_file(&new_path)
                .map_err(|e| StorageError::io(&new_path, "remove", e))?;
        }
        super::write_small_file(fs, &new_path, text.as_bytes())?;
        fs.rename(&new_path, &path)
            .map_err(|e| StorageError::io(&path, "replace", e))?;
        fs.sync_directory(directory)
            .map_err(|e| StorageError::io(directory, "sync directory", e))
    }

    /// DEFINE BUFFPOOL(id) BUFFERS(buffers) PAGECLAS(page_class): create the pool; it serves
    /// at once. A FIXED4KB pool whose buffers cannot all be locked in memory is not defined.
    pub fn define_buffer_pool(
        &self,
        id: u8,
        buffers: u32,
        page_class: PageClass,
    ) -> StorageResult<()> {
        self.check_running()?;
        check_buffers(id, buffers)?;
        let mut configuration = self.configuration.lock().unwrap();
        if configuration.buffer_pools.iter().any(|pool| pool.id == id) {
            return Err(StorageError::mq(
                reason::MQRC_OBJECT_ALREADY_EXISTS,
                format!("buffer pool {id} is already defined (ALTER BUFFPOOL changes its size)"),
            ));
        }
        if self.pools().iter().any(|pool| pool.id().0 == id) {
            return Err(in_use(format!(
                "buffer pool {id} was deleted in this run and still exists until the next restart; define it again after the restart"
            )));
        }
        let forcer: Arc<dyn WriteAheadLog> = Arc::new(LogForcer(self.log.clone()));
        let pool = BufferPool::new(BufferPoolId(id), buffers, forcer);
        let defined = pool.set_page_class(page_class).and_then(|()| {
            self.change_configuration(&mut configuration, |changed| {
                changed.buffer_pools.push(BufferPoolDefinition {
                    id,
                    buffers,
                    page_class,
                });
                changed.buffer_pools.sort_by_key(|pool| pool.id);
                Ok(())
            })
        });
        if let Err(error) = defined {
            pool.shutdown();
            return Err(error);
        }
        let reporter = self.page_set_errors.clone();
        pool.set_write_error_observer(Arc::new(move |pool, error| reporter.report(pool, error)));
        self.pools.write().unwrap().push(pool);
        Ok(())
    }

    /// The running pool `id` (MQRC_UNKNOWN_OBJECT_NAME if none serves).
    fn serving_pool(&self, id: u8) -> StorageResult<Arc<BufferPool>> {
        self.pools()
            .into_iter()
            .find(|pool| pool.id().0 == id)
            .ok_or_else(|| unknown(format!("buffer pool {id} is not serving")))
    }

    /// ALTER BUFFPOOL(id) PAGECLAS(page_class): lock or unlock the running pool's buffers
    /// (see [`BufferPool::set_page_class`]) and record the class in qm.toml for restart. A pool
    /// whose buffers cannot all be locked keeps its class, and the command fails.
    pub fn alter_buffer_pool_page_class(&self, id: u8, page_class: PageClass) -> StorageResult<()> {
        self.check_running()?;
        let mut configuration = self.configuration.lock().unwrap();
        let Some(before) = configuration
            .buffer_pools
            .iter()
            .find(|pool| pool.id == id)
            .map(|pool| pool.page_class)
        else {
            return Err(unknown(format!("buffer pool {id} is not defined")));
        };
        let pool = self.serving_pool(id)?;
        pool.set_page_class(page_class)?;
        let recorded = self.change_configuration(&mut configuration, |changed| {
            for definition in changed.buffer_pools.iter_mut().filter(|pool| pool.id == id) {
                definition.page_class = page_class;
            }
            Ok(())
        });
        if let Err(error) = recorded {
            // Keep the running class and the class restart uses the same.
            let _ = pool.set_page_class(before);
            return Err(error);
        }
        Ok(())
    }

    /// ALTER BUFFPOOL(id) BUFFERS(buffers) now: [`Self::buffer_pool_resize_requested`] then
    /// [`Self::alter_buffer_pool_in_turn`]. When a later request supersedes it meanwhile,
    /// nothing is done and the outcome shows the pool's size unchanged.
    pub fn alter_buffer_pool(&self, id: u8, buffers: u32) -> StorageResult<ResizeOutcome> {
        let ticket = self.buffer_pool_resize_requested(id);
        match self.alter_buffer_pool_in_turn(ticket, buffers)? {
            Resized::Done(outcome) => Ok(outcome),
            Resized::Superseded => {
                let current = self
                    .pools()
                    .into_iter()
                    .find(|pool| pool.id().0 == id)
                    .map_or(buffers, |pool| pool.buffers());
                Ok(ResizeOutcome {
                    buffers_before: current,
                    buffers: current,
                    pages_written: 0,
                })
            }
        }
    }

    /// ALTER BUFFPOOL BUFFERS(buffers) for `ticket`'s pool, once every earlier request has run:
    /// resize the running pool, then record the size in qm.toml for restart (see the module
    /// docs); [`Resized::Superseded`] without doing anything when the pool has a later request.
    pub fn alter_buffer_pool_in_turn(
        &self,
        ticket: ResizeTicket,
        buffers: u32,
    ) -> StorageResult<Resized> {
        let id = ticket.pool;
        self.check_running()?;
        check_buffers(id, buffers)?;
        let Some(_running) = self.buffer_pool_resizes.begin(ticket, &self.stopping)? else {
            return Ok(Resized::Superseded);
        };
        // The configuration lock is not held across the resize: a shrink may wait up to
        // SHRINK_WAIT_MAX for buffers in use, and other commands must not wait with it.
        if !self.buffer_pool_defined(id) {
            return Err(unknown(format!("buffer pool {id} is not defined")));
        }
        let pool = self.serving_pool(id)?;
        // A qm.toml that could not be rewritten fails the command before the pool changes
        // (it is read again, and may still fail, when the new size is recorded).
        self.read_configuration_file()?;
        let outcome = pool.resize(buffers)?;
        // A FIXED4KB pool may have grown by fewer buffers than asked (as many as it could lock).
        let buffers = outcome.buffers;
        self.follow_pool_size(id, buffers);
        let recorded = {
            let mut configuration = self.configuration.lock().unwrap();
            self.change_configuration(&mut configuration, |changed| {
                let definition = changed
                    .buffer_pools
                    .iter_mut()
                    .find(|pool| pool.id == id)
                    .ok_or_else(|| {
                        unknown(format!(
                            "buffer pool {id} was deleted while it was being resized"
                        ))
                    })?;
                definition.buffers = buffers;
                Ok(())
            })
        };
        if let Err(error) = recorded {
            // Keep the running size and the size restart uses the same.
            let _ = pool.resize(outcome.buffers_before);
            self.follow_pool_size(id, outcome.buffers_before);
            return Err(error);
        }
        Ok(Resized::Done(outcome))
    }

    /// The in-memory limit of the non-persistent images of pool `id`'s page sets follows a
    /// resize (they share one account, so setting it on each is idempotent).
    fn follow_pool_size(&self, id: u8, buffers: u32) {
        for space in self.data.spaces() {
            if space.pool.id().0 == id {
                space.memory().set_pool_buffers(buffers as u64);
            }
        }
    }

    /// DELETE BUFFPOOL(id): refused while a page set uses it.
    pub fn delete_buffer_pool(&self, id: u8) -> StorageResult<()> {
        self.check_running()?;
        let mut configuration = self.configuration.lock().unwrap();
        if !configuration.buffer_pools.iter().any(|pool| pool.id == id) {
            return Err(unknown(format!("buffer pool {id} is not defined")));
        }
        let users: Vec<String> = configuration
            .page_sets
            .iter()
            .filter(|page_set| page_set.buffer_pool == id)
            .map(|page_set| format!("{:02}", page_set.id))
            .collect();
        if !users.is_empty() {
            return Err(in_use(format!(
                "buffer pool {id} is used by page set(s) {}; delete or redefine them first",
                users.join(", ")
            )));
        }
        self.change_configuration(&mut configuration, |changed| {
            changed.buffer_pools.retain(|pool| pool.id != id);
            Ok(())
        })
    }

    /// DEFINE PSID: format the page set file, record it in qm.toml, attach it to its pool.
    pub fn define_page_set(&self, definition: PageSetDefinition) -> StorageResult<()> {
        self.check_running()?;
        let id = definition.id;
        let mut configuration = self.configuration.lock().unwrap();
        if configuration
            .page_sets
            .iter()
            .any(|page_set| page_set.id == id)
        {
            return Err(StorageError::mq(
                reason::MQRC_OBJECT_ALREADY_EXISTS,
                format!("page set {id:02} is already defined"),
            ));
        }
        if self.data.space(PageSetId(id)).is_ok() {
            return Err(in_use(format!(
                "page set {id:02} was deleted in this run and stays attached until the next restart; define it again after the restart"
            )));
        }
        let Some(pool) = self
            .pools()
            .into_iter()
            .find(|pool| pool.id().0 == definition.buffer_pool)
            .filter(|_| {
                configuration
                    .buffer_pools
                    .iter()
                    .any(|pool| pool.id == definition.buffer_pool)
            })
        else {
            return Err(unknown(format!(
                "buffer pool {} is not defined (DEFINE BUFFPOOL first)",
                definition.buffer_pool
            )));
        };
        // Everything the configuration checks, before any file is made.
        let mut changed = configuration.clone();
        changed.page_sets.push(definition.clone());
        changed.page_sets.sort_by_key(|page_set| page_set.id);
        changed.validate()?;
        // A qm.toml that could not be rewritten fails the command before a file is formatted.
        self.read_configuration_file()?;
        let path = page_set_path(&self.directory, id);
        // A file left by a deleted page set, or by a DEFINE a crash cut short, is not part of
        // the queue manager (qm.toml does not name it): format it anew.
        for stale in [
            path.clone(),
            ferrite_storage::page_set::double_write_path(&path),
        ] {
            if self.fs.exists(&stale) {
                self.fs
                    .remove_file(&stale)
                    .map_err(|e| StorageError::io(&stale, "remove", e))?;
            }
        }
        PageSet::format(
            self.fs.as_ref(),
            &path,
            PageSetId(id),
            definition.primary_pages,
            self.identity,
            &mut |_, _| {},
        )?;
        let page_set = PageSet::open(
            self.fs.as_ref(),
            &path,
            PageSetId(id),
            definition.expand,
            definition.secondary_pages,
            definition.maximum_pages,
        )?;
        self.change_configuration(&mut configuration, |new| {
            *new = changed;
            Ok(())
        })?;
        pool.attach(page_set.clone());
        self.data.attach_space(PageSetSpace::new(page_set, pool))?;
        self.say(&format!(
            "{} page set {id:02} defined: buffer pool {}, {} pages, EXPAND({:?})",
            self.name, definition.buffer_pool, definition.primary_pages, definition.expand
        ));
        Ok(())
    }

    /// ALTER PSID(id) EXPAND(...): the next expansion follows the new policy.
    pub fn alter_page_set(&self, id: u8, expand: Expand) -> StorageResult<()> {
        self.check_running()?;
        let mut configuration = self.configuration.lock().unwrap();
        if !configuration
            .page_sets
            .iter()
            .any(|page_set| page_set.id == id)
        {
            return Err(unknown(format!("page set {id:02} is not defined")));
        }
        self.change_configuration(&mut configuration, |changed| {
            for page_set in &mut changed.page_sets {
                if page_set.id == id {
                    page_set.expand = expand;
                }
            }
            Ok(())
        })?;
        if let Ok(space) = self.data.space(PageSetId(id)) {
            space.page_set.set_expand_policy(expand);
        }
        Ok(())
    }

    /// DELETE PSID(id): refused for page set 0, while storage classes or queues name it, and
    /// while restart could still need the log for it (see the module docs).
    pub fn delete_page_set(&self, id: u8) -> StorageResult<()> {
        self.check_running()?;
        if id == 0 {
            return Err(in_use(
                "page set 00 holds the object definitions and cannot be deleted".to_string(),
            ));
        }
        let mut configuration = self.configuration.lock().unwrap();
        if !configuration
            .page_sets
            .iter()
            .any(|page_set| page_set.id == id)
        {
            return Err(unknown(format!("page set {id:02} is not defined")));
        }
        let mut users: Vec<String> = Vec::new();
        for definition in self.objects(ObjectType::StorageClass) {
            if let ObjectDefinition::StorageClass(class) = definition {
                if class.page_set.0 == id {
                    users.push(format!("STGCLASS({})", class.name));
                }
            }
        }
        for queue in self.queues() {
            if queue.with_definition(|d| d.page_set.0 == id) {
                users.push(format!("QLOCAL({})", queue.name()));
            }
        }
        for definition in self.objects(ObjectType::ModelQueue) {
            if let ObjectDefinition::Model(model) = definition {
                if model.page_set.0 == id {
                    users.push(format!("QMODEL({})", model.name));
                }
            }
        }
        if !users.is_empty() {
            return Err(in_use(format!(
                "page set {id:02} is used by {} object(s) (first {}); delete or move them first",
                users.len(),
                users[0]
            )));
        }
        // No restart may redo a record for this page set: every other page set's recovery RBA
        // must pass a checkpoint taken now.
        let first = self.checkpoint()?;
        let mut released = false;
        for _ in 1..=DELETE_PAGE_SET_CHECKPOINTS_MAX {
            let lowest = self
                .data
                .spaces()
                .filter(|space| space.id().0 != id)
                .map(|space| space.page_set.header().recovery_rba)
                .min();
            if lowest.is_some_and(|rba| rba >= first.begin_rba) {
                released = true;
                break;
            }
            self.checkpoint()?;
        }
        if !released {
            return Err(in_use(format!(
                "page set {id:02}: restart could still need the log for it after {DELETE_PAGE_SET_CHECKPOINTS_MAX} checkpoints; try again"
            )));
        }
        self.change_configuration(&mut configuration, |changed| {
            changed.page_sets.retain(|page_set| page_set.id != id);
            Ok(())
        })?;
        self.say(&format!(
            "{} page set {id:02} deleted: its file is kept and detached at the next restart",
            self.name
        ));
        Ok(())
    }
}

fn check_buffers(id: u8, buffers: u32) -> StorageResult<()> {
    if id > PageSetId::MAX {
        return Err(StorageError::invalid(format!(
            "buffer pool {id} is outside 0-99"
        )));
    }
    if !(BUFFER_POOL_BUFFERS_MIN..=BUFFER_POOL_BUFFERS_MAX).contains(&buffers) {
        return Err(StorageError::invalid(format!(
            "BUFFERS({buffers}) is outside {BUFFER_POOL_BUFFERS_MIN}-{BUFFER_POOL_BUFFERS_MAX}"
        )));
    }
    Ok(())
}

fn unreadable_configuration(path: &Path, detail: String) -> StorageError {
    StorageError::invalid(format!(
        "{} cannot be rewritten: {detail}; correct the file (the queue manager runs with the definitions it read) and issue the command again",
        path.display()
    ))
}

/// qm.toml as its text, so that a rewrite replaces the sections these commands own and keeps
/// everything else (other sections, comments, layout) as the operator wrote it.
struct ConfigurationFile {
    document: toml_edit::DocumentMut,
}

/// The arrays of tables the storage definition commands own.
const OWNED_SECTIONS: [&str; 2] = ["buffer_pools", "page_sets"];

impl ConfigurationFile {
    /// Parse `text`; it must be a configuration the next start would accept.
    fn parse(text: &str) -> Result<ConfigurationFile, String> {
        QueueManagerConfig::from_toml(text).map_err(|error| error.to_string())?;
        let document = text
            .parse::<toml_edit::DocumentMut>()
            .map_err(|error| format!("configuration: {error}"))?;
        Ok(ConfigurationFile { document })
    }

    /// The file's text with `configuration`'s buffer pools and page sets in place of its own,
    /// checked again as a whole (an operator's edit elsewhere must still fit them).
    fn replace_definitions(
        &mut self,
        configuration: &QueueManagerConfig,
    ) -> Result<String, String> {
        #[derive(serde::Serialize)]
        struct Definitions<'a> {
            buffer_pools: &'a [BufferPoolDefinition],
            page_sets: &'a [PageSetDefinition],
        }
        let definitions = toml::to_string_pretty(&Definitions {
            buffer_pools: &configuration.buffer_pools,
            page_sets: &configuration.page_sets,
        })
        .expect("definitions serialise");
        let definitions = definitions
            .parse::<toml_edit::DocumentMut>()
            .expect("serialised definitions parse");
        for section in OWNED_SECTIONS {
            // The new tables take the place of the file's first one (or go last), so the
            // file keeps its order of sections.
            let position = self
                .document
                .get(section)
                .and_then(|item| item.as_array_of_tables())
                .and_then(|tables| tables.iter().next())
                .and_then(|table| table.position())
                .unwrap_or(usize::MAX);
            let mut tables = definitions
                .get(section)
                .and_then(|item| item.as_array_of_tables())
                .cloned()
                .unwrap_or_default();
            for table in tables.iter_mut() {
                table.set_position(position);
            }
            self.document
                .insert(section, toml_edit::Item::ArrayOfTables(tables));
        }
        let text = self.document.to_string();
        QueueManagerConfig::from_toml(&text).map_err(|error| error.to_string())?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_replaces_the_definitions_and_keeps_the_rest_of_the_file_as_written() {
        let mut configuration = QueueManagerConfig::with_defaults("QM1");
        let text = format!(
            "# the operator's note\n{}",
            configuration.to_toml().replace(
                "privileged_users = []",
                "# added by hand\nprivileged_users = [\"alice\"]"
            )
        );
        let mut file = ConfigurationFile::parse(&text).unwrap();
        configuration.buffer_pools[1].buffers = 4321;
        configuration.page_sets.pop();
        let rewritten = file.replace_definitions(&configuration).unwrap();
        assert!(
            rewritten.starts_with("# the operator's note\n"),
            "{rewritten}"
        );
        // The sections keep their order: the pools still come after [archive], before the
        // page sets and [security].
        let at = |header: &str| rewritten.find(header).unwrap();
        assert!(at("[archive]") < at("[[buffer_pools]]"), "{rewritten}");
        assert!(at("[[buffer_pools]]") < at("[[page_sets]]"), "{rewritten}");
        assert!(at("[[page_sets]]") < at("[security]"), "{rewritten}");
        assert_eq!(rewritten.matches("[[page_sets]]").count(), 3);
        assert!(
            rewritten.contains("# added by hand\nprivileged_users = [\"alice\"]"),
            "{rewritten}"
        );
        let parsed = QueueManagerConfig::from_toml(&rewritten).unwrap();
        assert_eq!(parsed.security.privileged_users, vec!["alice".to_string()]);
        assert_eq!(parsed.buffer_pools, configuration.buffer_pools);
        assert_eq!(parsed.page_sets, configuration.page_sets);
        // Whatever the running definitions were, the untouched sections come from the file.
        assert_eq!(parsed.channel_initiator, configuration.channel_initiator);
    }

    #[test]
    fn a_file_that_does_not_parse_or_no_longer_fits_is_refused() {
        assert!(ConfigurationFile::parse("name = [broken").is_err());
        let configuration = QueueManagerConfig::with_defaults("QM1");
        // Valid TOML, but no start would accept it: an unknown field.
        let text = configuration
            .to_toml()
            .replace("[security]", "[security]\nsurprise = 1");
        let error = ConfigurationFile::parse(&text).err().unwrap();
        assert!(error.contains("surprise"), "{error}");
    }
}
