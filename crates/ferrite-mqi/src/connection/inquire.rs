//! MQINQ and MQSET on an object handle; the attribute values are [`crate::inquire`]'s.

use ferrite_constants::{
    misc::MQEVO_MQSET,
    open_options::*,
    persistence::{MQPER_NOT_PERSISTENT, MQPER_PERSISTENT},
    queue_type::MQQT_ALIAS,
    reason::*,
    selector::*,
};
use ferrite_queue_manager::statistics::MqiCounter;
use ferrite_queue_manager::{ConfigurationChange, ObjectDefinition, ObjectTimes, ObjectType};

use super::verb_accounting::Verb;
use super::{failed, Connection, Hobj, Inquired, Target};

use crate::descriptor;
use crate::error::MqResult;
use crate::inquire::AttributeValue;
use crate::triggering::{self, application_type_number};

/// One MQINQ selector of an alias, process or namelist definition.
fn definition_attribute(definition: &ObjectDefinition, selector: i32) -> MqResult<AttributeValue> {
    let text = |value: &str| Ok(AttributeValue::Text(value.to_string()));
    let integer = |value: i32| Ok(AttributeValue::Integer(value));
    match (definition, selector) {
        (ObjectDefinition::Alias(alias), _) => match selector {
            MQCA_Q_NAME => text(&alias.name),
            MQCA_Q_DESC => text(&alias.description),
            MQCA_BASE_Q_NAME => text(&alias.target),
            MQIA_Q_TYPE => integer(MQQT_ALIAS),
            MQIA_INHIBIT_PUT => integer(alias.put_inhibited as i32),
            MQIA_INHIBIT_GET => integer(alias.get_inhibited as i32),
            MQIA_DEF_PERSISTENCE => integer(if alias.default_persistent {
                MQPER_PERSISTENT
            } else {
                MQPER_NOT_PERSISTENT
            }),
            MQIA_DEF_PRIORITY => integer(alias.default_priority.into()),
            _ => failed(MQRC_SELECTOR_ERROR),
        },
        (ObjectDefinition::Process(process), _) => match selector {
            MQCA_PROCESS_NAME => text(&process.name),
            MQCA_PROCESS_DESC => text(&process.description),
            MQCA_APPL_ID => text(&process.application_id),
            MQIA_APPL_TYPE => integer(application_type_number(&process.application_type)),
            MQCA_USER_DATA => text(&process.user_data),
            MQCA_ENV_DATA => text(&process.environment_data),
            _ => failed(MQRC_SELECTOR_ERROR),
        },
        (ObjectDefinition::Namelist(namelist), _) => match selector {
            MQCA_NAMELIST_NAME => text(&namelist.name),
            MQCA_NAMELIST_DESC => text(&namelist.description),
            MQIA_NAME_COUNT => integer(namelist.names.len() as i32),
            MQCA_NAMES => text(
                namelist
                    .names
                    .iter()
                    .map(|name| format!("{name:<48}"))
                    .collect::<String>()
                    .trim_end(),
            ),
            _ => failed(MQRC_SELECTOR_ERROR),
        },
        _ => failed(MQRC_SELECTOR_ERROR),
    }
}

impl Connection {
    /// MQINQ: the values of `selectors`, in order. A selector the object does not have fails
    /// the call with MQRC_SELECTOR_ERROR (see [`QUEUE_SELECTORS`] and
    /// [`QUEUE_MANAGER_SELECTORS`]); on a queue, a selector of another queue type's attribute
    /// (an alias's BaseQName on a local queue, a local queue's CurrentQDepth on an alias)
    /// answers MQ's not-applicable value and the call completes with MQCC_WARNING and
    /// MQRC_SELECTOR_NOT_FOR_TYPE in [`Inquired::warning`].
    pub fn inquire(&mut self, hobj: Hobj, selectors: &[i32]) -> MqResult<Inquired> {
        let timing = self.verb_timing();
        let result = self.inquire_handle(hobj, selectors);
        self.count_call(MqiCounter::Inq, MqiCounter::InqFailed, &result);
        self.verb_timed(Verb::Inq, timing);
        result
    }

    fn inquire_handle(&mut self, hobj: Hobj, selectors: &[i32]) -> MqResult<Inquired> {
        self.check_running()?;
        let handle = self.handle(hobj)?;
        if handle.options & MQOO_INQUIRE == 0 {
            return failed(MQRC_NOT_OPEN_FOR_INQUIRE);
        }
        if selectors.len() > 256 {
            return failed(MQRC_SELECTOR_COUNT_ERROR);
        }
        let mut values = Vec::with_capacity(selectors.len());
        let mut warning = None;
        match &handle.target {
            Target::QueueManager => {
                for &selector in selectors {
                    let name = self.queue_manager.name();
                    if let Some(answer) =
                        self.time_attribute(ObjectType::QueueManager, name, selector)
                    {
                        values.push(answer?);
                        continue;
                    }
                    values.push(crate::inquire::queue_manager_attribute(
                        &self.queue_manager,
                        || crate::queue_manager_identifier(&self.queue_manager),
                        selector,
                    )?);
                }
            }
            Target::Definition(object_type, name) => {
                let Some(definition) = self.queue_manager.object(*object_type, name) else {
                    return failed(MQRC_OBJECT_CHANGED);
                };
                for &selector in selectors {
                    let answer = match self.time_attribute(*object_type, name, selector) {
                        Some(answer) => answer,
                        None => definition_attribute(&definition, selector),
                    };
                    values.push(answer?);
                }
            }
            Target::Queue(_) if handle.alias.is_some() => {
                let Some(alias) = self.alias_of(handle) else {
                    return failed(MQRC_OBJECT_CHANGED);
                };
                let definition = ObjectDefinition::Alias(alias);
                for &selector in selectors {
                    let answer = self
                        .time_attribute(ObjectType::AliasQueue, definition.name(), selector)
                        .unwrap_or_else(|| definition_attribute(&definition, selector));
                    values.push(crate::inquire::queue_answer(
                        selector,
                        answer,
                        &mut warning,
                    )?);
                }
            }
            Target::Queue(_) => {
                let queue = self.queue_of(handle)?;
                let definition = queue.definition();
                let status = queue.status();
                for &selector in selectors {
                    let answer = self
                        .time_attribute(ObjectType::LocalQueue, &definition.name, selector)
                        .unwrap_or_else(|| {
                            crate::inquire::local_queue_attribute(&definition, &status, selector)
                        });
                    values.push(crate::inquire::queue_answer(
                        selector,
                        answer,
                        &mut warning,
                    )?);
                }
            }
            // As `queue_of`: only the call the queue is lent to runs on the handle meanwhile.
            Target::Lent => return failed(MQRC_UNEXPECTED_ERROR),
            // Topic and subscription handles are not opened for MQINQ here.
            Target::Topic(_) | Target::Subscription(_) | Target::Shared(_) => {
                return failed(MQRC_NOT_OPEN_FOR_INQUIRE)
            }
        }
        Ok(Inquired { values, warning })
    }

    /// MQCA_CREATION_DATE and MQCA_CREATION_TIME (local queues: MQRC_SELECTOR_ERROR for
    /// other objects) and MQCA_ALTERATION_DATE and MQCA_ALTERATION_TIME (every object) of
    /// `object_type` called `name`, as MQ gives them (`2024-01-31`, `12.34.56`; blank when
    /// never recorded); `None` for any other selector.
    fn time_attribute(
        &self,
        object_type: ObjectType,
        name: &str,
        selector: i32,
    ) -> Option<MqResult<AttributeValue>> {
        let (created, clock) = match selector {
            MQCA_CREATION_DATE => (true, false),
            MQCA_CREATION_TIME => (true, true),
            MQCA_ALTERATION_DATE => (false, false),
            MQCA_ALTERATION_TIME => (false, true),
            _ => return None,
        };
        if created && object_type != ObjectType::LocalQueue {
            return Some(failed(MQRC_SELECTOR_ERROR));
        }
        let times = self
            .queue_manager
            .object_times(object_type, name)
            .unwrap_or_default();
        let ms = if created {
            times.created_ms
        } else {
            times.altered_ms
        };
        let text = match ms {
            0 => String::new(),
            ms => {
                let (date, time) = descriptor::display_date_time(ms);
                if clock {
                    time
                } else {
                    date
                }
            }
        };
        Some(Ok(AttributeValue::Text(text)))
    }

    /// MQSET: MQIA_INHIBIT_PUT and MQIA_INHIBIT_GET (MQQA_*_ALLOWED or MQQA_*_INHIBITED) and
    /// the trigger attributes (TriggerControl, TriggerType, TriggerDepth, TriggerMsgPriority,
    /// TriggerData) of a local queue; through an alias only the inhibits. The new definition is stored (it survives restart). Nothing is changed
    /// unless every selector and value is valid.
    pub fn set(&mut self, hobj: Hobj, attributes: &[(i32, AttributeValue)]) -> MqResult<()> {
        let timing = self.verb_timing();
        let result = self.set_attributes(hobj, attributes);
        self.count_call(MqiCounter::Set, MqiCounter::SetFailed, &result);
        self.verb_timed(Verb::Set, timing);
        result
    }

    fn set_attributes(&mut self, hobj: Hobj, attributes: &[(i32, AttributeValue)]) -> MqResult<()> {
        self.check_running()?;
        let handle = self.handle(hobj)?;
        if handle.options & MQOO_SET == 0 {
            return failed(MQRC_NOT_OPEN_FOR_SET);
        }
        if attributes.len() > 256 {
            return failed(MQRC_SELECTOR_COUNT_ERROR);
        }
        let queue = self.queue_of(handle)?;
        let alias = self.alias_of(handle);
        let mut definition = queue.definition();
        if let Some(alias) = &alias {
            definition.put_inhibited = alias.put_inhibited;
            definition.get_inhibited = alias.get_inhibited;
        }
        for (selector, value) in attributes {
            if alias.is_some() && ![MQIA_INHIBIT_PUT, MQIA_INHIBIT_GET].contains(selector) {
                return failed(MQRC_SELECTOR_ERROR);
            }
            crate::inquire::set_local_queue_attribute(&mut definition, *selector, value)?;
        }
        if let Some(mut alias) = alias {
            // Through an alias, MQSET changes the alias (as MQ does).
            let before = self.times_of(ObjectDefinition::Alias(alias.clone()));
            alias.put_inhibited = definition.put_inhibited;
            alias.get_inhibited = definition.get_inhibited;
            let after = ObjectDefinition::Alias(alias);
            self.queue_manager.alter_object(after.clone())?;
            self.configuration_changed(before, Some(after), MQEVO_MQSET);
            return Ok(());
        }
        // The attributes (checked above) applied again to the definition current under the
        // object lock: a switch the queue manager made since the read above (an event or
        // trigger control) is not undone.
        drop(definition);
        let before_times = self
            .queue_manager
            .object_times(ObjectType::LocalQueue, queue.name_str())
            .unwrap_or_default();
        let mut before = None;
        self.queue_manager
            .update_queue_definition(&queue, |current| {
                before = Some(current.clone());
                for (selector, value) in attributes {
                    crate::inquire::set_local_queue_attribute(current, *selector, value).map_err(
                        |error| ferrite_storage::StorageError::mq(error.reason, "MQSET"),
                    )?;
                }
                Ok(true)
            })?;
        // Trigger hook: triggering switched on, or GET enabled, by MQSET.
        if let Some(before) = before {
            triggering::definition_changed(&self.queue_manager, &before, &queue);
            self.configuration_changed(
                (ObjectDefinition::Local(before), before_times),
                Some(ObjectDefinition::Local(queue.definition())),
                MQEVO_MQSET,
            );
        }
        Ok(())
    }

    /// A definition with its times as the queue manager has them now.
    pub(super) fn times_of(&self, definition: ObjectDefinition) -> (ObjectDefinition, ObjectTimes) {
        let times = self
            .queue_manager
            .object_times(definition.object_type(), definition.name())
            .unwrap_or_default();
        (definition, times)
    }

    /// Tell the configuration observer (the command layer's configuration events) of a change
    /// this connection's MQSET or MQCLOSE made.
    pub(super) fn configuration_changed(
        &self,
        (before, before_times): (ObjectDefinition, ObjectTimes),
        after: Option<ObjectDefinition>,
        origin: i32,
    ) {
        if let Some(observer) = self.queue_manager.configuration_observer() {
            let change = ConfigurationChange {
                before,
                before_times,
                after,
                origin,
                user_id: self.user_identifier.to_string(),
            };
            observer(&self.queue_manager, &change);
        }
    }
}
