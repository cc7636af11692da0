//! The statistics commands: SET SYSTEM STATIME(n) (MQ for z/OS: the statistics interval in
//! minutes, 0-1440; 0 writes no records at intervals) and RESET QMGR TYPE(STATISTICS) (MQ
//! distributed: close the current statistics interval now and write its records). DISPLAY
//! SYSTEM shows STATIME (commands.rs).
//!
//! ```text
//! SET SYSTEM STATIME(minutes)
//! RESET QMGR TYPE(STATISTICS)
//! ```

use ferrite_queue_manager::statistics::{STATIME_MINUTES_MAX, STATISTICS_FILE};

use crate::context::{
    choice, keywords, no_object_value, number, Context, Failure, Outcome, Output, Takes,
};
use crate::parser::{SyntaxError, Token};

/// SET SYSTEM STATIME(n).
pub(crate) fn set_system(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(rest, &[("STATIME", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let Some((token, Some(value))) = found.first() else {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'STATIME' is missing",
            object.position + object.keyword.chars().count(),
        )));
    };
    let minutes =
        number(token, value, u64::from(STATIME_MINUTES_MAX)).map_err(|e| context.syntax(e))? as u32;
    context
        .queue_manager
        .set_statistics_interval_minutes(minutes)
        .map_err(|error| Failure(vec![error]))?;
    let mut output = Output::default();
    output.line(format!("CSQJ337I {} SYSTEM parameters set", context.name));
    Ok(output)
}

/// RESET QMGR TYPE(STATISTICS).
pub(crate) fn reset_qmgr(context: &Context, object: &Token, rest: &[Token]) -> Outcome {
    no_object_value(context, object)?;
    let found = keywords(rest, &[("TYPE", Takes::Value)]).map_err(|e| context.syntax(e))?;
    let Some((token, Some(value))) = found.first() else {
        return Err(context.syntax(SyntaxError::new(
            "CSQ9010E Required parameter 'TYPE' is missing",
            object.position + object.keyword.chars().count(),
        )));
    };
    let types = ["STATISTICS", "ADVANCELOG", "REDUCELOG", "PUBSUB"];
    if choice(token, value, &types).map_err(|e| context.syntax(e))? != 0 {
        return Err(Failure(vec![format!(
            "CSQ9032E {} CSQMRESE Requested function is not available: TYPE({})",
            context.name, value.text
        )]));
    }
    let records = context
        .queue_manager
        .close_statistics_interval()
        .map_err(|error| {
            Failure(vec![format!(
                "CSQW133E {} STATISTICS RECORDS NOT WRITTEN TO {STATISTICS_FILE}: {error}",
                context.name
            )])
        })?;
    let mut output = Output::default();
    output.line(format!(
        "CSQW132I {} STATISTICS INTERVAL CLOSED, {} RECORDS WRITTEN TO {STATISTICS_FILE} ({:.1} SECONDS)",
        context.name,
        records.json_records().len(),
        records.seconds()
    ));
    Ok(output)
}
