//! DISPLAY GROUP: the queue sharing group this queue manager is a member of and its members,
//! as the shared repository records them (ferrite-queue-manager's `QueueSharingGroup`,
//! implemented by ferrite-sharing).
//!
//! MQ for z/OS answers with a report: `CSQ5100I ... DISPLAY GROUP report follows`, the
//! members under `CSQ5102I ... Queue managers in group NAME` (name, number, status, version,
//! joined), `CSQ5103I ... End of queue managers report`, then where the group's coupling
//! facility and shared repository are (`CSQ5104I`). A queue manager outside a group fails
//! with `CSQ5112E`.

use ferrite_queue_manager::SharingGroupMember;

use crate::attributes::date_time;
use crate::context::{keywords, no_object_value, Context, Failure, Outcome, Output};
use crate::parser::Token;

pub(crate) fn display_group(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    keywords(rest, &[]).map_err(|error| context.syntax(error))?;
    let name = &context.name;
    let Some(group) = context.queue_manager.queue_sharing_group() else {
        return Err(Failure(vec![format!(
            "CSQ5112E {name} CSQ5DQSG DISPLAY GROUP: queue manager is not in a queue sharing group"
        )]));
    };
    let failed = |error: ferrite_queue_manager::SharingError| {
        Failure(vec![format!(
            "CSQ5113E {name} CSQ5DQSG DISPLAY GROUP: {error}"
        )])
    };
    let members = group.members().map_err(failed)?;
    let facility = group.coupling_facility_status().map_err(failed)?;
    let settings = context.queue_manager.config().queue_sharing_group.as_ref();
    let mut lines = vec![
        format!("CSQ5100I {name} CSQ5DQSG DISPLAY GROUP report follows -"),
        format!(
            "CSQ5102I {name} CSQ5DQSG Queue managers in group {}",
            group.name()
        ),
    ];
    lines.extend(member_table(&members));
    lines.push(format!(
        "CSQ5103I {name} CSQ5DQSG End of queue managers report"
    ));
    lines.push(format!(
        "CSQ5104I {name} CSQ5DQSG Queue sharing group {} coupling facility {} ({}) shared repository {}",
        group.name(),
        settings.map_or("", |settings| settings.coupling_facility.as_str()),
        facility.server,
        settings.map_or("", |settings| settings.repository.as_str()),
    ));
    let mut output = Output::default();
    output.messages.push(crate::context::Message::Text(lines));
    Ok(output)
}

/// The members' table: a ruled header, one line per member, a closing rule.
fn member_table(members: &[SharingGroupMember]) -> Vec<String> {
    let rule = "-".repeat(72);
    let mut lines = vec![
        rule.clone(),
        format!(
            "{:<48} {:>3} {:<8} {:<8} {:<10} {}",
            "Name", "Num", "Status", "Ver", "Joined", "Time"
        ),
    ];
    for member in members {
        let (date, time) = date_time(member.joined_ms);
        lines.push(format!(
            "{:<48} {:>3} {:<8} {:<8} {date:<10} {time}",
            member.name,
            member.number,
            if member.active { "ACTIVE" } else { "INACTIVE" },
            member.version,
        ));
    }
    lines.push(rule);
    lines
}
