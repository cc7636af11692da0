//! DEFINE, ALTER and DELETE of BUFFPOOL and PSID, as MQ for z/OS has them, on a running queue
//! manager. The storage engine keeps the definitions in qm.toml, written atomically, because
//! restart needs them before it can read page set 0
//! (`ferrite_queue_manager::queue_manager::storage_definitions` explains the design). DISPLAY USAGE
//! shows them.
//!
//! ```text
//! DEFINE BUFFPOOL(n) BUFFERS(100-999999) [LOCATION(ABOVE)] [PAGECLAS(4KB|FIXED4KB)]
//! ALTER  BUFFPOOL(n) [BUFFERS(100-999999)] [LOCATION(ABOVE)] [PAGECLAS(4KB|FIXED4KB)]
//!                                             PAGECLAS is applied before the answer (CSQP023I);
//!                                             BUFFERS answers CSQP024I at once and the running
//!                                             pool grows or shrinks in the background
//!                                             (CSQP023I/CSQP025I)
//! DELETE BUFFPOOL(n)                          refused while a page set uses it
//! DEFINE PSID(n) BUFFPOOL(m) [EXPAND(USER|SYSTEM|NONE)]
//!        [PRIMARY(pages)] [SECONDARY(pages)] [MAXIMUM(pages)]
//! ALTER  PSID(n) EXPAND(USER|SYSTEM|NONE)
//! DELETE PSID(n)                              refused for 00 and while classes or queues use it
//! ```
//!
//! LOCATION is a z/OS storage placement; a Ferrite pool is ordinary process memory, which is
//! what LOCATION(ABOVE) describes, so that value is accepted and the others refused.
//! PAGECLAS(4KB) buffers are pageable; PAGECLAS(FIXED4KB) buffers are locked in memory
//! (`mlock`), as z/OS fixes them in real storage (MP16: no page-fix per I/O, for pools whose
//! queues are deep enough to page): DEFINE and ALTER fail, changing nothing, when the
//! operating system will not lock them all (RLIMIT_MEMLOCK without CAP_IPC_LOCK), and a
//! FIXED4KB pool grown by ALTER BUFFERS adds as many buffers as it can lock, as MQ adds "as
//! many as possible". FIXED1MB (z/OS large frames) is refused. A page set's size comes on z/OS from its VSAM allocation;
//! Ferrite formats the file itself, so DEFINE PSID takes the sizes in 4 KiB pages as
//! PRIMARY, SECONDARY and MAXIMUM (Ferrite's keywords; the defaults are those of a new queue
//! manager's page sets). DSN is refused: the file is always `pagesets/PSIDnn.pageset`.
//!
//! ALTER BUFFPOOL returns as MQ for z/OS's does: once the request is checked (the pool is
//! defined and serving, BUFFERS in range), the response says CSQP024I "request initiated"
//! and a thread of its own ([`resize_in_background`]) resizes the pool (a shrink may write
//! changed pages and wait up to `SHRINK_WAIT_MAX` for buffers in use) and records the size in
//! qm.toml; its outcome goes to the queue manager's console log: CSQP023I with the new size,
//! or CSQP025I with the reason, the pool keeping its size (the storage engine gives a failed
//! shrink's buffers back, and records nothing). Resizes run one after another in the order
//! the commands were entered; a request overtaken by a later one for the same pool does
//! nothing and says CSQP025I "superseded", so the last ALTER's size is the one kept.
//! DEFINE BUFFPOOL(n) ... REPLACE of an existing pool resizes it before it answers.

use ferrite_constants::reason;
use ferrite_queue_manager::queue_manager::buffer_pool_resizes::Resized;
use ferrite_queue_manager::queue_manager::storage_definitions::{
    BUFFER_POOL_BUFFERS_MAX, BUFFER_POOL_BUFFERS_MIN,
};
use ferrite_storage::config::{Expand, PageClass, PageSetDefinition, PAGE_SET_PAGES_MAX};
use ferrite_storage::StorageError;

use crate::context::{
    choice, exclusive, keywords, number, value_error, Context, Failure, Found, Outcome, Output,
    Takes,
};
use crate::parser::{SyntaxError, Token, Value};

/// PRIMARY when DEFINE PSID does not give it: a new queue manager's page sets' size.
pub const PAGE_SET_PRIMARY_PAGES_DEFAULT: u32 = 2048;
/// SECONDARY when DEFINE PSID does not give it.
pub const PAGE_SET_SECONDARY_PAGES_DEFAULT: u32 = 4096;
/// Fewest pages a page set is formatted with.
pub const PAGE_SET_PRIMARY_PAGES_MIN: u32 = 16;

/// The csect named in the responses.
const CSECT: &str = "CSQPCMDS";

/// The id in `BUFFPOOL(n)` or `PSID(n)`: 0-99.
fn object_id(context: &Context, object: &Token) -> Result<u8, Failure> {
    let Some(value) = &object.value else {
        return Err(context.syntax(SyntaxError::new(
            format!(
                "CSQ9010E Required parameter '{}(n)' is missing its number",
                object.keyword
            ),
            object.position + object.keyword.chars().count(),
        )));
    };
    number(object, value, 99)
        .map(|id| id as u8)
        .map_err(|e| context.syntax(e))
}

fn value_of<'t>(found: &Found<'t>, keyword: &str) -> Option<(&'t Token, &'t Value)> {
    found
        .iter()
        .find(|(token, _)| token.keyword == keyword)
        .and_then(|(token, value)| value.map(|value| (*token, value)))
}

fn buffers(token: &Token, value: &Value) -> Result<u32, SyntaxError> {
    let buffers = number(token, value, BUFFER_POOL_BUFFERS_MAX.into())? as u32;
    if buffers < BUFFER_POOL_BUFFERS_MIN {
        return Err(value_error(
            token,
            value,
            &format!(
                "a number from {BUFFER_POOL_BUFFERS_MIN} to {BUFFER_POOL_BUFFERS_MAX} is needed"
            ),
        ));
    }
    Ok(buffers)
}

fn expand(token: &Token, value: &Value) -> Result<Expand, SyntaxError> {
    Ok(match choice(token, value, &["USER", "SYSTEM", "NONE"])? {
        0 => Expand::User,
        1 => Expand::System,
        _ => Expand::None,
    })
}

fn required<'t>(
    context: &Context,
    found: &Found<'t>,
    object: &Token,
    keyword: &str,
) -> Result<(&'t Token, &'t Value), Failure> {
    value_of(found, keyword).ok_or_else(|| {
        context.syntax(SyntaxError::new(
            format!("CSQ9010E Required parameter '{keyword}' is missing"),
            object.position + object.keyword.chars().count(),
        ))
    })
}

/// DEFINE, ALTER or DELETE BUFFPOOL.
pub(crate) fn buffer_pool(
    context: &Context,
    verb: &str,
    object: &Token,
    rest: &[Token],
) -> Outcome {
    let id = object_id(context, object)?;
    let queue_manager = context.queue_manager;
    let storage = |error| context.storage(CSECT, error);
    match verb {
        "DEFINE" => {
            let allowed = [
                BUFFER_POOL_ATTRIBUTES.as_slice(),
                &[("REPLACE", Takes::Nothing), ("NOREPLACE", Takes::Nothing)],
            ]
            .concat();
            let found = keywords(rest, &allowed).map_err(|e| context.syntax(e))?;
            exclusive(&found, "REPLACE", "NOREPLACE").map_err(|e| context.syntax(e))?;
            let (token, value) = required(context, &found, object, "BUFFERS")?;
            let buffers = buffers(token, value).map_err(|e| context.syntax(e))?;
            location(&found).map_err(|e| context.syntax(e))?;
            let class = page_class(&found).map_err(|e| context.syntax(e))?;
            let replace = found.iter().any(|(token, _)| token.keyword == "REPLACE");
            let exists = queue_manager.buffer_pool_defined(id);
            let mut output = Output::default();
            if exists && replace {
                // DEFINE ... REPLACE of an existing pool is ALTER's page class and resize.
                queue_manager
                    .alter_buffer_pool_page_class(id, class.unwrap_or_default())
                    .map_err(storage)?;
                let outcome = queue_manager
                    .alter_buffer_pool(id, buffers)
                    .map_err(storage)?;
                resized(&mut output, context, id, outcome);
            } else {
                queue_manager
                    .define_buffer_pool(id, buffers, class.unwrap_or_default())
                    .map_err(storage)?;
            }
            Ok(output)
        }
        "ALTER" => {
            let found = keywords(rest, &BUFFER_POOL_ATTRIBUTES).map_err(|e| context.syntax(e))?;
            location(&found).map_err(|e| context.syntax(e))?;
            let class = page_class(&found).map_err(|e| context.syntax(e))?;
            let mut output = Output::default();
            let located = ["LOCATION", "LOC"]
                .iter()
                .any(|keyword| value_of(&found, keyword).is_some());
            if located && class.is_none() && value_of(&found, "BUFFERS").is_none() {
                // LOCATION(ABOVE) alone: every Ferrite pool is there already.
                if !queue_manager.buffer_pool_defined(id) {
                    return Err(storage(StorageError::mq(
                        reason::MQRC_UNKNOWN_OBJECT_NAME,
                        format!("buffer pool {id} is not defined"),
                    )));
                }
                return Ok(output);
            }
            if let Some(class) = class {
                // Applied before the command answers (locking a pool's buffers takes as long
                // as faulting them in); a resize in the same command follows in the
                // background, and a FIXED4KB pool's new buffers are locked as they are added.
                queue_manager
                    .alter_buffer_pool_page_class(id, class)
                    .map_err(storage)?;
                output.report(&format!(
                    "CSQP023I {} {CSECT} Request completed for buffer pool {id}, PAGECLAS({})",
                    context.name,
                    class.keyword()
                ));
                if value_of(&found, "BUFFERS").is_none() {
                    return Ok(output);
                }
            }
            let (token, value) = required(context, &found, object, "BUFFERS")?;
            let buffers = buffers(token, value).map_err(|e| context.syntax(e))?;
            let defined = queue_manager.buffer_pool_defined(id);
            let serving = queue_manager
                .pools()
                .into_iter()
                .find(|pool| pool.id().0 == id);
            let Some(pool) = serving.filter(|_| defined) else {
                // The storage engine's refusal, with its reason, before anything starts (or,
                // defined by a concurrent DEFINE meanwhile, the resize before the answer).
                let outcome = queue_manager
                    .alter_buffer_pool(id, buffers)
                    .map_err(storage)?;
                resized(&mut output, context, id, outcome);
                return Ok(output);
            };
            if pool.statistics().qpstnbuf == u64::from(buffers) {
                // Nothing to resize: record the size (it may differ in qm.toml) and answer.
                let outcome = queue_manager
                    .alter_buffer_pool(id, buffers)
                    .map_err(storage)?;
                resized(&mut output, context, id, outcome);
                return Ok(output);
            }
            output.report(&format!(
                "CSQP024I {} {CSECT} Request initiated for buffer pool {id}",
                context.name
            ));
            resize_in_background(queue_manager, id, buffers).map_err(|error| {
                Failure(vec![format!(
                    "CSQM090E {} {CSECT} FAILURE: the resize of buffer pool {id} could not be started: {error}; the pool is unchanged",
                    context.name
                )])
            })?;
            Ok(output)
        }
        _ => {
            keywords(rest, &[]).map_err(|e| context.syntax(e))?;
            queue_manager.delete_buffer_pool(id).map_err(storage)?;
            Ok(Output::default())
        }
    }
}

/// Resize buffer pool `id` to `buffers` on a thread of its own, and say how it ended on the
/// queue manager's console log (see the module docs). Fails only when the thread cannot start.
fn resize_in_background(
    queue_manager: &std::sync::Arc<ferrite_queue_manager::QueueManager>,
    id: u8,
    buffers: u32,
) -> std::io::Result<()> {
    // The request's place in the pool's order is taken here, in the order commands arrive;
    // the threads may start in any order.
    let ticket = queue_manager.buffer_pool_resize_requested(id);
    let queue_manager = queue_manager.clone();
    std::thread::Builder::new()
        .name(format!("ferrite-alter-buffpool-{id}"))
        .spawn(move || {
            let name = queue_manager.name().to_string();
            match queue_manager.alter_buffer_pool_in_turn(ticket, buffers) {
                Ok(Resized::Done(outcome)) => queue_manager.say(&completed(&name, id, &outcome)),
                Ok(Resized::Superseded) => queue_manager.say(&format!(
                    "CSQP025I {name} {CSECT} Request superseded for buffer pool {id}, BUFFERS({buffers}): a later ALTER BUFFPOOL({id}) sets its size"
                )),
                Err(error) => queue_manager.say(&format!(
                    "CSQP025I {name} {CSECT} Request failed for buffer pool {id}, BUFFERS({buffers}): {error} [reason {}]; the pool keeps its size",
                    error.reason_code()
                )),
            }
        })
        .map(|_| ())
}

/// CSQP023I for a resize that ended with `outcome`.
/// The attributes DEFINE and ALTER BUFFPOOL both take.
const BUFFER_POOL_ATTRIBUTES: [(&str, Takes); 4] = [
    ("BUFFERS", Takes::Value),
    ("LOCATION", Takes::Value),
    ("LOC", Takes::Value),
    ("PAGECLAS", Takes::Value),
];

/// LOCATION (or LOC, not both), if given: only ABOVE, which is what a Ferrite pool is
/// (ordinary process memory); BELOW and SWITCHING are z/OS placements with no counterpart.
fn location(found: &Vec<(&Token, Option<&Value>)>) -> Result<(), SyntaxError> {
    exclusive(found, "LOCATION", "LOC")?;
    for keyword in ["LOCATION", "LOC"] {
        if let Some((token, value)) = value_of(found, keyword) {
            if choice(token, value, &["ABOVE", "BELOW", "SWITCHING"])? != 0 {
                return Err(value_error(
                    token,
                    value,
                    "Ferrite's buffers are ordinary process memory: only LOCATION(ABOVE)",
                ));
            }
        }
    }
    Ok(())
}

/// PAGECLAS, if given: 4KB (pageable) or FIXED4KB (locked in memory). FIXED1MB, z/OS's
/// large frames, has no counterpart and is refused.
fn page_class(found: &Vec<(&Token, Option<&Value>)>) -> Result<Option<PageClass>, SyntaxError> {
    let Some((token, value)) = value_of(found, "PAGECLAS") else {
        return Ok(None);
    };
    match choice(token, value, &["4KB", "FIXED4KB", "FIXED1MB"])? {
        0 => Ok(Some(PageClass::Pageable)),
        1 => Ok(Some(PageClass::Fixed)),
        _ => Err(value_error(
            token,
            value,
            "Ferrite has no 1 MB frames: PAGECLAS(4KB) or PAGECLAS(FIXED4KB) (buffers locked in memory)",
        )),
    }
}

fn completed(name: &str, id: u8, outcome: &ferrite_storage::buffer_pool::ResizeOutcome) -> String {
    let written = if outcome.pages_written > 0 {
        format!(" ({} changed pages written)", outcome.pages_written)
    } else {
        String::new()
    };
    format!(
        "CSQP023I {name} {CSECT} Request completed for buffer pool {id}, now has {} buffers{written}",
        outcome.buffers
    )
}

/// MQ's messages for a resize done before the command answers (DEFINE ... REPLACE, or an
/// ALTER to the size the pool has): CSQP024I when it starts, CSQP023I when the pool has its
/// new size; nothing when the size did not change.
fn resized(
    output: &mut Output,
    context: &Context,
    id: u8,
    outcome: ferrite_storage::buffer_pool::ResizeOutcome,
) {
    if outcome.buffers == outcome.buffers_before {
        return;
    }
    output.report(&format!(
        "CSQP024I {} {CSECT} Request initiated for buffer pool {id}",
        context.name
    ));
    output.report(&completed(&context.name, id, &outcome));
}

/// DEFINE, ALTER or DELETE PSID.
pub(crate) fn page_set(context: &Context, verb: &str, object: &Token, rest: &[Token]) -> Outcome {
    let id = object_id(context, object)?;
    let queue_manager = context.queue_manager;
    let storage = |error| context.storage(CSECT, error);
    match verb {
        "DEFINE" => {
            let found = keywords(
                rest,
                &[
                    ("BUFFPOOL", Takes::Value),
                    ("EXPAND", Takes::Value),
                    ("PRIMARY", Takes::Value),
                    ("SECONDARY", Takes::Value),
                    ("MAXIMUM", Takes::Value),
                    ("DSN", Takes::Value),
                ],
            )
            .map_err(|e| context.syntax(e))?;
            if let Some((token, value)) = value_of(&found, "DSN") {
                return Err(context.syntax(value_error(
                    token,
                    value,
                    "Ferrite formats the page set itself as pagesets/PSIDnn.pageset: omit DSN (sizes are PRIMARY, SECONDARY, MAXIMUM in pages)",
                )));
            }
            let (token, value) = required(context, &found, object, "BUFFPOOL")?;
            let buffer_pool = number(token, value, 99).map_err(|e| context.syntax(e))? as u8;
            let mut definition = PageSetDefinition {
                id,
                buffer_pool,
                primary_pages: PAGE_SET_PRIMARY_PAGES_DEFAULT,
                secondary_pages: PAGE_SET_SECONDARY_PAGES_DEFAULT,
                expand: Expand::User,
                maximum_pages: PAGE_SET_PAGES_MAX,
            };
            if let Some((token, value)) = value_of(&found, "EXPAND") {
                definition.expand = expand(token, value).map_err(|e| context.syntax(e))?;
            }
            let pages = |keyword: &str| -> Result<Option<u32>, Failure> {
                value_of(&found, keyword)
                    .map(|(token, value)| {
                        number(token, value, PAGE_SET_PAGES_MAX.into())
                            .map(|pages| pages as u32)
                            .map_err(|e| context.syntax(e))
                    })
                    .transpose()
            };
            if let Some(primary) = pages("PRIMARY")? {
                definition.primary_pages = primary;
            }
            if let Some(secondary) = pages("SECONDARY")? {
                definition.secondary_pages = secondary;
            }
            if let Some(maximum) = pages("MAXIMUM")? {
                definition.maximum_pages = maximum;
            }
            if definition.primary_pages < PAGE_SET_PRIMARY_PAGES_MIN
                || definition.primary_pages > definition.maximum_pages
            {
                let (token, value) = value_of(&found, "PRIMARY")
                    .or_else(|| value_of(&found, "MAXIMUM"))
                    .expect("the defaults are valid");
                return Err(context.syntax(value_error(
                    token,
                    value,
                    &format!(
                        "PRIMARY must be {PAGE_SET_PRIMARY_PAGES_MIN} pages to MAXIMUM ({} pages)",
                        definition.maximum_pages
                    ),
                )));
            }
            queue_manager.define_page_set(definition).map_err(storage)?;
            Ok(Output::default())
        }
        "ALTER" => {
            let found =
                keywords(rest, &[("EXPAND", Takes::Value)]).map_err(|e| context.syntax(e))?;
            let (token, value) = required(context, &found, object, "EXPAND")?;
            let expand = expand(token, value).map_err(|e| context.syntax(e))?;
            queue_manager.alter_page_set(id, expand).map_err(storage)?;
            Ok(Output::default())
        }
        _ => {
            keywords(rest, &[]).map_err(|e| context.syntax(e))?;
            queue_manager.delete_page_set(id).map_err(storage)?;
            Ok(Output::default())
        }
    }
}
