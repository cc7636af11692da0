//! CF structures: DEFINE, ALTER, DELETE and DISPLAY CFSTRUCT, and DISPLAY CFSTATUS, on a
//! member of a queue sharing group. A CFSTRUCT is a group object: its definition is kept in
//! the group's shared repository (ferrite-sharing), so every member sees the same one. The
//! administration structure CSQ_ADMIN is always there (the group's coupling facility itself).
//!
//! Attributes, MQ's names and defaults: DESCR, CFLEVEL(1-5, 5), RECOVER(NO|YES), OFFLOAD(DB2|
//! SMDS), OFFLD1TH/OFFLD1SZ (70, 32K), OFFLD2TH/OFFLD2SZ (80, 4K), OFFLD3TH/OFFLD3SZ (90, 0K)
//! with thresholds 70-100 percent and sizes 0K-64K, DSGROUP, DSBLOCK(8K-1M, a power of two,
//! 256K), DSBUFS(1-9999, 100), DSEXPAND(YES|NO), CFCONLOS(TERMINATE|TOLERATE|ASQMGR),
//! RECAUTO(YES|NO). As MQ: RECOVER(YES) needs CFLEVEL(3) or more, OFFLOAD(SMDS) CFLEVEL(5).
//! On a queue manager outside a group every one of these fails with CSQ5112E.
//!
//! BACKUP CFSTRUCT(name) writes the structure's persistent messages to this member's log and
//! records the backup in the repository (refused, as MQ, for a RECOVER(NO) structure or one
//! below CFLEVEL(3)); RECOVER CFSTRUCT(name) [TYPE(NORMAL|PURGE)] rebuilds a FAILED structure
//! from its last backup and every member's log, or empty with TYPE(PURGE)
//! (ferrite-queue-manager's `cf_structure_recovery`).

use std::sync::Arc;

use ferrite_queue_manager::{
    CfStructure, ConnectivityLoss, OffloadTarget, QueueSharingGroup, SharingError,
    StructureRecoveryStatus, StructureState, ADMIN_STRUCTURE_NAME, CF_STRUCTURE_NAME_LENGTH_MAX,
};

use crate::attributes::{date_time, generic_match, AttributeValue};
use crate::context::{
    choice, exclusive, keywords, number, object_name, value_error, yes_no, Context, Failure, Found,
    Outcome, Output, Selection, Takes,
};
use crate::parser::{SyntaxError, Token, Value};

/// The attributes DEFINE and ALTER CFSTRUCT take.
const SETTABLE: &[&str] = &[
    "DESCR", "CFLEVEL", "RECOVER", "OFFLOAD", "OFFLD1TH", "OFFLD1SZ", "OFFLD2TH", "OFFLD2SZ",
    "OFFLD3TH", "OFFLD3SZ", "DSGROUP", "DSBLOCK", "DSBUFS", "DSEXPAND", "CFCONLOS", "RECAUTO",
];

/// The group, or CSQ5112E for a queue manager outside one.
pub(crate) fn group<'c>(
    context: &'c Context,
    verb: &str,
) -> Result<&'c Arc<dyn QueueSharingGroup>, Failure> {
    context.queue_manager.queue_sharing_group().ok_or_else(|| {
        Failure(vec![format!(
            "CSQ5112E {} CSQMMSGP {verb}: queue manager is not in a queue sharing group",
            context.name
        )])
    })
}

/// A failure of the group's servers, or an object that exists or does not.
pub(crate) fn group_failure(context: &Context, error: SharingError) -> Failure {
    Failure(vec![format!("CSQM090E {} CSQMMSGP {error}", context.name)])
}

/// A CF structure name: 1-12 characters A-Z 0-9, starting with a letter.
pub(crate) fn structure_name(object: &Token, generic: bool) -> Result<String, SyntaxError> {
    let name = object_name(object, generic)?;
    let body = name.strip_suffix('*').filter(|_| generic).unwrap_or(&name);
    let valid = name.chars().count() <= CF_STRUCTURE_NAME_LENGTH_MAX
        && (body.is_empty() || body.starts_with(|c: char| c.is_ascii_uppercase()))
        && body
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !valid {
        let value = object.value.as_ref().expect("object_name found a name");
        return Err(value_error(
            object,
            value,
            "a CF structure name is 1-12 characters A-Z 0-9, starting with a letter",
        ));
    }
    Ok(name)
}

pub(crate) fn define_or_alter(
    context: &Context,
    alter: bool,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let name = structure_name(object, false).map_err(|e| context.syntax(e))?;
    let mut allowed: Vec<(&str, Takes)> = SETTABLE.iter().map(|k| (*k, Takes::Value)).collect();
    if !alter {
        allowed.extend([
            ("LIKE", Takes::Value),
            ("REPLACE", Takes::Nothing),
            ("NOREPLACE", Takes::Nothing),
        ]);
    }
    let found = keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
    exclusive(&found, "REPLACE", "NOREPLACE").map_err(|e| context.syntax(e))?;
    let verb = if alter {
        "ALTER CFSTRUCT"
    } else {
        "DEFINE CFSTRUCT"
    };
    let group = group(context, verb)?;
    let existing = group
        .structures()
        .map_err(|error| group_failure(context, error))?;
    let mut structure = starting_point(context, alter, &name, &found, &existing)?;
    for (token, value) in &found {
        if SETTABLE.contains(&token.keyword.as_str()) {
            apply(&mut structure, token, value.expect("checked")).map_err(|e| context.syntax(e))?;
        }
    }
    check_level(&structure)
        .map_err(|why| Failure(vec![format!("CSQM090E {} CSQMMSGP {why}", context.name)]))?;
    let replace = found.iter().any(|(token, _)| token.keyword == "REPLACE");
    let stored = match alter {
        true => group.alter_structure(&structure),
        false => group.define_structure(&structure, replace),
    };
    stored.map_err(|error| group_failure(context, error))?;
    Ok(Output::default())
}

/// What DEFINE starts from (MQ's defaults or LIKE's structure) or ALTER changes.
fn starting_point(
    context: &Context,
    alter: bool,
    name: &str,
    found: &Found,
    existing: &[CfStructure],
) -> Result<CfStructure, Failure> {
    let find = |wanted: &str| existing.iter().find(|s| s.name == wanted).cloned();
    let not_found = |missing: &str| {
        Failure(vec![format!(
            "CSQM125I {} CSQMMSGP CFSTRUCT({missing}) QSGDISP(GROUP) WAS NOT FOUND",
            context.name
        )])
    };
    if alter {
        return find(name).ok_or_else(|| not_found(name));
    }
    let like = found.iter().find(|(token, _)| token.keyword == "LIKE");
    match like {
        None => Ok(CfStructure::new(name)),
        Some((_, value)) => {
            let source = value.expect("checked").text.clone();
            let mut structure = find(&source).ok_or_else(|| not_found(&source))?;
            structure.name = name.to_string();
            Ok(structure)
        }
    }
}

/// MQ's rules between CFLEVEL and the functions it allows.
fn check_level(structure: &CfStructure) -> Result<(), String> {
    if structure.recover && structure.level < 3 {
        return Err(format!(
            "CFSTRUCT({}) RECOVER(YES) needs CFLEVEL(3) or more",
            structure.name
        ));
    }
    if structure.offload == OffloadTarget::Smds && structure.level < 5 {
        return Err(format!(
            "CFSTRUCT({}) OFFLOAD(SMDS) needs CFLEVEL(5)",
            structure.name
        ));
    }
    Ok(())
}

/// Apply one attribute (checked against MQ's range).
fn apply(structure: &mut CfStructure, token: &Token, value: &Value) -> Result<(), SyntaxError> {
    let yes = |token: &Token, value: &Value| {
        Ok::<bool, SyntaxError>(choice(token, value, &["NO", "YES"])? == 1)
    };
    match token.keyword.as_str() {
        "DESCR" => {
            if value.text.chars().count() > 64 {
                return Err(value_error(token, value, "at most 64 characters"));
            }
            structure.description = value.text.clone();
        }
        "CFLEVEL" => structure.level = ranged(token, value, 1, 5)? as u8,
        "RECOVER" => structure.recover = yes(token, value)?,
        "OFFLOAD" => {
            structure.offload = match choice(token, value, &["DB2", "SMDS"])? {
                0 => OffloadTarget::Db2,
                _ => OffloadTarget::Smds,
            }
        }
        "OFFLD1TH" | "OFFLD2TH" | "OFFLD3TH" => {
            structure.offload_rules[rule_index(token)].0 = ranged(token, value, 70, 100)? as u8
        }
        "OFFLD1SZ" | "OFFLD2SZ" | "OFFLD3SZ" => {
            structure.offload_rules[rule_index(token)].1 = offload_size(token, value)?
        }
        "DSGROUP" => {
            if value.text.chars().count() > 44 {
                return Err(value_error(token, value, "at most 44 characters"));
            }
            structure.data_set_group = value.text.trim().to_string();
        }
        "DSBLOCK" => structure.data_set_block_kib = block_size(token, value)?,
        "DSBUFS" => structure.data_set_buffers = ranged(token, value, 1, 9999)? as u32,
        "DSEXPAND" => {
            structure.data_set_expand = choice(token, value, &["YES", "NO", "DEFAULT"])? != 1
        }
        "CFCONLOS" => {
            structure.connectivity_loss =
                match choice(token, value, &["TERMINATE", "TOLERATE", "ASQMGR"])? {
                    0 => ConnectivityLoss::Terminate,
                    1 => ConnectivityLoss::Tolerate,
                    _ => ConnectivityLoss::AsQueueManager,
                }
        }
        "RECAUTO" => structure.recover_automatically = yes(token, value)?,
        _ => unreachable!("keywords checked against SETTABLE"),
    }
    Ok(())
}

/// OFFLD1xx -> 0, OFFLD2xx -> 1, OFFLD3xx -> 2.
fn rule_index(token: &Token) -> usize {
    match token.keyword.as_bytes()[5] {
        b'1' => 0,
        b'2' => 1,
        _ => 2,
    }
}

fn ranged(token: &Token, value: &Value, low: u64, high: u64) -> Result<u64, SyntaxError> {
    let found = number(token, value, high)?;
    if found < low {
        return Err(value_error(
            token,
            value,
            &format!("{low} to {high} is needed"),
        ));
    }
    Ok(found)
}

/// OFFLDnSZ: 0K to 64K (64K: this rule offloads nothing).
fn offload_size(token: &Token, value: &Value) -> Result<u32, SyntaxError> {
    value
        .text
        .strip_suffix('K')
        .and_then(|digits| digits.parse::<u32>().ok())
        .filter(|kib| *kib <= 64)
        .ok_or_else(|| value_error(token, value, "0K to 64K is needed"))
}

/// DSBLOCK: 8K, 16K, ... 512K or 1M.
fn block_size(token: &Token, value: &Value) -> Result<u32, SyntaxError> {
    let kib = match value.text.as_str() {
        "1M" => Some(1024),
        text => text
            .strip_suffix('K')
            .and_then(|digits| digits.parse::<u32>().ok()),
    };
    kib.filter(|kib| (8..=1024).contains(kib) && kib.is_power_of_two())
        .ok_or_else(|| {
            value_error(
                token,
                value,
                "8K, 16K, 32K, 64K, 128K, 256K, 512K or 1M is needed",
            )
        })
}

pub(crate) fn delete(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = structure_name(object, false).map_err(|e| context.syntax(e))?;
    keywords(rest, &[]).map_err(|e| context.syntax(e))?;
    group(context, "DELETE CFSTRUCT")?
        .delete_structure(&name)
        .map_err(|error| group_failure(context, error))?;
    Ok(Output::default())
}

/// A size in KiB as MQ shows it: `32K`, `1M`.
fn size(kib: u32) -> String {
    match kib {
        1024 => "1M".to_string(),
        kib => format!("{kib}K"),
    }
}

fn attributes(structure: &CfStructure) -> Vec<(&'static str, AttributeValue)> {
    let (date, time) = date_time(structure.altered_ms);
    let rule = |index: usize| structure.offload_rules[index];
    vec![
        ("CFSTRUCT", AttributeValue::Text(structure.name.clone())),
        ("DESCR", AttributeValue::Text(structure.description.clone())),
        (
            "CFLEVEL",
            AttributeValue::Integer(i64::from(structure.level)),
        ),
        ("RECOVER", yes_no(structure.recover)),
        (
            "OFFLOAD",
            AttributeValue::Keyword(match structure.offload {
                OffloadTarget::Db2 => "DB2",
                OffloadTarget::Smds => "SMDS",
            }),
        ),
        ("OFFLD1TH", AttributeValue::Integer(i64::from(rule(0).0))),
        ("OFFLD1SZ", AttributeValue::Text(size(rule(0).1))),
        ("OFFLD2TH", AttributeValue::Integer(i64::from(rule(1).0))),
        ("OFFLD2SZ", AttributeValue::Text(size(rule(1).1))),
        ("OFFLD3TH", AttributeValue::Integer(i64::from(rule(2).0))),
        ("OFFLD3SZ", AttributeValue::Text(size(rule(2).1))),
        (
            "DSGROUP",
            AttributeValue::Text(structure.data_set_group.clone()),
        ),
        (
            "DSBLOCK",
            AttributeValue::Text(size(structure.data_set_block_kib)),
        ),
        (
            "DSBUFS",
            AttributeValue::Integer(i64::from(structure.data_set_buffers)),
        ),
        ("DSEXPAND", yes_no(structure.data_set_expand)),
        (
            "CFCONLOS",
            AttributeValue::Keyword(match structure.connectivity_loss {
                ConnectivityLoss::Terminate => "TERMINATE",
                ConnectivityLoss::Tolerate => "TOLERATE",
                ConnectivityLoss::AsQueueManager => "ASQMGR",
            }),
        ),
        ("RECAUTO", yes_no(structure.recover_automatically)),
        ("ALTDATE", AttributeValue::Text(date)),
        ("ALTTIME", AttributeValue::Text(time)),
    ]
}

pub(crate) fn display(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = structure_name(object, true).map_err(|e| context.syntax(e))?;
    let sample = attributes(&CfStructure::new(""));
    let (selection, _) = Selection::parse(rest, &sample, &[]).map_err(|e| context.syntax(e))?;
    let structures = group(context, "DISPLAY CFSTRUCT")?
        .structures()
        .map_err(|error| group_failure(context, error))?;
    let details: Vec<Vec<String>> = structures
        .iter()
        .filter(|structure| generic_match(&pattern, &structure.name))
        .map(attributes)
        .filter(|attributes| selection.passes(attributes))
        .map(|attributes| selection.render(&attributes, 1))
        .collect();
    Ok(Output::found_each(
        &context.name,
        "CSQMDRTC",
        "CFSTRUCT",
        details,
    ))
}

/// DISPLAY CFSTATUS(generic) [TYPE(SUMMARY|BACKUP)]: each structure's state, CSQ_ADMIN
/// first. TYPE(SUMMARY) shows the coupling facility's: sizes are the server's (one Redis
/// holds every structure of the group), SIZEMAX its memory limit in KiB (0: none), SIZEUSED
/// the percent of it used; STATUS is the structure's as the repository records it
/// (NEVERUSED, ACTIVE, FAILED with FAILDATE/FAILTIME, RECOVERED), or FAILED with REASON when
/// the coupling facility cannot be reached. TYPE(BACKUP) shows each application structure's
/// STATUS and last backup: QMNAME (the member whose log holds it), BKUPDATE, BKUPTIME,
/// BKUPSIZE (MB, as MQ), BKUPSRBA, BKUPERBA, and LOGS (the members whose logs recovery reads).
pub(crate) fn display_status(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let pattern = structure_name(object, true).map_err(|e| context.syntax(e))?;
    let found = keywords(rest, &[("TYPE", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let mut backup = false;
    for (token, value) in &found {
        backup = choice(token, value.expect("checked"), &["SUMMARY", "BACKUP"])
            .map_err(|e| context.syntax(e))?
            == 1;
    }
    let group = group(context, "DISPLAY CFSTATUS")?;
    let structures = group
        .structures()
        .map_err(|error| group_failure(context, error))?;
    let mut names = vec![(ADMIN_STRUCTURE_NAME.to_string(), "ADMIN")];
    if backup {
        names.clear();
    }
    names.extend(structures.iter().map(|s| (s.name.clone(), "APPL")));
    let names: Vec<(String, &str)> = names
        .into_iter()
        .filter(|(name, _)| generic_match(&pattern, name))
        .collect();
    let facility = group.coupling_facility_status();
    let mut details = Vec::with_capacity(names.len());
    for (name, kind) in names {
        let recovery = match kind {
            "APPL" => Some(
                match facility.is_ok() {
                    true => context.queue_manager.look_at_cf_structure(&name),
                    false => group.structure_recovery_status(&name),
                }
                .map_err(|error| group_failure(context, error))?,
            ),
            _ => None,
        };
        details.push(match (backup, recovery) {
            (true, Some(recovery)) => backup_attributes(group.as_ref(), &name, &recovery)
                .map_err(|error| group_failure(context, error))?,
            (_, recovery) => status_attributes(&name, kind, &facility, recovery.as_ref()),
        });
    }
    Ok(Output::found_each(
        &context.name,
        "CSQMDRTC",
        "CFSTATUS",
        details,
    ))
}

fn status_attributes(
    name: &str,
    kind: &str,
    facility: &Result<ferrite_queue_manager::CouplingFacilityStatus, SharingError>,
    recovery: Option<&StructureRecoveryStatus>,
) -> Vec<String> {
    let mut lines = vec![
        format!("CFSTATUS({name})"),
        "TYPE(SUMMARY)".to_string(),
        format!("CFTYPE({kind})"),
    ];
    match facility {
        Ok(status) => {
            let used_percent = (status.used_bytes * 100)
                .checked_div(status.limit_bytes)
                .unwrap_or(0);
            let state = recovery.map_or(StructureState::Active, |recovery| recovery.state);
            lines.push(format!("STATUS({})", state.name()));
            lines.extend(failure_time(recovery));
            lines.push(format!("SIZEMAX({})", status.limit_bytes / 1024));
            lines.push(format!("SIZEUSED({used_percent})"));
            lines.push(format!("CFSERVER({})", status.server));
        }
        Err(error) => {
            lines.push("STATUS(FAILED)".to_string());
            lines.push(format!("REASON({})", error.reason));
        }
    }
    lines
}

/// FAILDATE and FAILTIME of a structure that failed (blank otherwise).
fn failure_time(recovery: Option<&StructureRecoveryStatus>) -> Vec<String> {
    let (date, time) = match recovery.and_then(|recovery| recovery.failed_ms) {
        Some(ms) => date_time(ms),
        None => (" ".to_string(), " ".to_string()),
    };
    vec![format!("FAILDATE({date})"), format!("FAILTIME({time})")]
}

fn backup_attributes(
    group: &dyn QueueSharingGroup,
    name: &str,
    recovery: &StructureRecoveryStatus,
) -> Result<Vec<String>, SharingError> {
    let mut lines = vec![
        format!("CFSTATUS({name})"),
        "TYPE(BACKUP)".to_string(),
        format!("STATUS({})", recovery.state.name()),
    ];
    lines.extend(failure_time(Some(recovery)));
    let Some(backup) = &recovery.backup else {
        lines.extend(
            [
                "QMNAME", "BKUPDATE", "BKUPTIME", "BKUPSIZE", "BKUPSRBA", "BKUPERBA",
            ]
            .map(|keyword| format!("{keyword}( )")),
        );
        return Ok(lines);
    };
    let (date, time) = date_time(backup.taken_ms);
    lines.push(format!("QMNAME({})", backup.member));
    lines.push(format!("BKUPDATE({date})"));
    lines.push(format!("BKUPTIME({time})"));
    lines.push(format!("BKUPSIZE({})", backup.bytes.div_ceil(1024 * 1024)));
    lines.push(format!("BKUPSRBA({:016X})", backup.start_rba));
    lines.push(format!("BKUPERBA({:016X})", backup.end_rba));
    let logs: Vec<String> = group
        .member_directories()?
        .into_iter()
        .map(|(member, _)| member)
        .collect();
    lines.push(format!("LOGS({})", logs.join(",")));
    Ok(lines)
}

/// BACKUP CFSTRUCT(name): refused with CSQE151I, as MQ refuses it, unless the structure is RECOVER(YES) at
/// CFLEVEL(3) or more can be backed up); CSQE120I when the backup is written.
pub(crate) fn backup(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = structure_name(object, false).map_err(|e| context.syntax(e))?;
    keywords(rest, &[("EXCLINT", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let group = group(context, "BACKUP CFSTRUCT")?;
    let structure = group
        .structures()
        .map_err(|error| group_failure(context, error))?
        .into_iter()
        .find(|structure| structure.name == name)
        .ok_or_else(|| {
            Failure(vec![format!(
                "CSQM125I {} CSQMMSGP CFSTRUCT({name}) QSGDISP(GROUP) WAS NOT FOUND",
                context.name
            )])
        })?;
    if !structure.recover || structure.level < 3 {
        return Err(Failure(vec![format!(
            "CSQE151I {} CSQEBKUP Backup of structure {name} not allowed: it is RECOVER(NO) or below CFLEVEL(3)",
            context.name
        )]));
    }
    let backup = context
        .queue_manager
        .backup_cf_structure(&name)
        .map_err(|error| group_failure(context, error))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQE121I {} CSQEBKUP Backup of structure {name} completed at RBA={:016X}, size {} KiB, {} messages",
        context.name,
        backup.end_rba,
        backup.bytes.div_ceil(1024),
        backup.messages
    ));
    Ok(output)
}

/// RECOVER CFSTRUCT(name) [TYPE(NORMAL|PURGE)]: rebuild a FAILED structure.
pub(crate) fn recover(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    let name = structure_name(object, false).map_err(|e| context.syntax(e))?;
    let found = keywords(rest, &[("TYPE", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let mut purge = false;
    for (token, value) in &found {
        purge = choice(token, value.expect("checked"), &["NORMAL", "PURGE"])
            .map_err(|e| context.syntax(e))?
            == 1;
    }
    group(context, "RECOVER CFSTRUCT")?;
    let recovery = context
        .queue_manager
        .recover_cf_structure(&name, purge)
        .map_err(|error| group_failure(context, error))?;
    let mut output = Output::default();
    output.line(format!(
        "CSQE130I {} CSQERCVR Recovery of structure {name} started, using logs of {}",
        context.name,
        recovery.logs_read.join(",")
    ));
    output.line(format!(
        "CSQE132I {} CSQERCVR Structure recovery completed for {name}: {} messages from the backup, {} log records applied, {} messages now",
        context.name, recovery.from_backup, recovery.records_applied, recovery.messages
    ));
    Ok(output)
}
