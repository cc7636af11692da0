//! Results: one row per measured figure, printed as a table and appended to a file as JSON
//! lines (one object per row, every row of a run carrying the same `run` id).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// What a figure is compared with.
#[derive(Clone, Debug)]
pub struct Reference {
    /// e.g. "MQ V9 local (MP16 L703-758)" or "raw 4K write+fdatasync (this run)".
    pub label: String,
    pub value: f64,
}

/// One measured figure.
#[derive(Clone, Debug)]
pub struct Row {
    pub bench: &'static str,
    pub metric: String,
    pub value: f64,
    pub unit: &'static str,
    pub reference: Option<Reference>,
    /// `value / reference` (or the inverse where stated in `ratio_note`).
    pub ratio: Option<f64>,
    pub goal: Option<String>,
    pub met: Option<bool>,
    /// The workload's parameters as numbers (size, requesters, ...), written to the JSON line
    /// beside the other fields so plots can be drawn against them.
    pub fields: Vec<(&'static str, f64)>,
    /// The system measured, when it is not Ferrite in-process (e.g. "ferrite-client").
    pub system: Option<String>,
    /// The workload's parameters as text (e.g. `("cell", "rr-np-8")`), written to the JSON line.
    pub labels: Vec<(&'static str, String)>,
}

impl Row {
    pub fn new(
        bench: &'static str,
        metric: impl Into<String>,
        value: f64,
        unit: &'static str,
    ) -> Row {
        Row {
            bench,
            metric: metric.into(),
            value,
            unit,
            reference: None,
            ratio: None,
            goal: None,
            met: None,
            fields: Vec::new(),
            system: None,
            labels: Vec::new(),
        }
    }

    /// The system measured (default "ferrite (in-process)").
    pub fn system(mut self, system: impl Into<String>) -> Row {
        self.system = Some(system.into());
        self
    }

    /// A named workload parameter as text, written to the JSON line.
    pub fn label(mut self, name: &'static str, value: impl Into<String>) -> Row {
        self.labels.push((name, value.into()));
        self
    }

    /// A named workload parameter (e.g. `("requesters", 16.0)`), written to the JSON line.
    pub fn field(mut self, name: &'static str, value: f64) -> Row {
        self.fields.push((name, value));
        self
    }

    /// Compare with `reference`: ratio = value / reference.
    pub fn against(mut self, label: impl Into<String>, reference: f64) -> Row {
        self.ratio = (reference != 0.0).then(|| self.value / reference);
        self.reference = Some(Reference {
            label: label.into(),
            value: reference,
        });
        self
    }

    /// A goal on the ratio (or on the value, as the text says) and whether it was met.
    pub fn goal(mut self, text: impl Into<String>, met: bool) -> Row {
        self.goal = Some(text.into());
        self.met = Some(met);
        self
    }
}

#[derive(Default)]
pub struct Report {
    pub rows: Vec<Row>,
}

impl Report {
    pub fn push(&mut self, row: Row) {
        println!("  -> {}", format_row_inline(&row));
        self.rows.push(row);
    }

    pub fn print_table(&self) {
        let header = [
            "bench",
            "metric",
            "ours",
            "unit",
            "compared with",
            "their value",
            "ratio",
            "goal",
            "met",
        ];
        let cells: Vec<[String; 9]> = self
            .rows
            .iter()
            .map(|row| {
                [
                    row.bench.to_string(),
                    row.metric.clone(),
                    number(row.value),
                    row.unit.to_string(),
                    row.reference
                        .as_ref()
                        .map_or(String::new(), |r| r.label.clone()),
                    row.reference
                        .as_ref()
                        .map_or(String::new(), |r| number(r.value)),
                    row.ratio.map_or(String::new(), |r| format!("{r:.3}")),
                    row.goal.clone().unwrap_or_default(),
                    match row.met {
                        Some(true) => "yes".to_string(),
                        Some(false) => "NO".to_string(),
                        None => String::new(),
                    },
                ]
            })
            .collect();
        let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
        for row in &cells {
            for (width, cell) in widths.iter_mut().zip(row.iter()) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut text = String::from("|");
            for (cell, width) in cells.iter().zip(&widths) {
                let _ = write!(text, " {cell:<width$} |");
            }
            text
        };
        println!();
        println!(
            "{}",
            line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>())
        );
        println!(
            "{}",
            line(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>())
        );
        for row in &cells {
            println!("{}", line(row));
        }
        println!();
    }

    /// Append every row as one JSON object per line.
    pub fn append_json_lines(&self, path: &Path, run: &str, mode: &str) -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        let mut text = String::new();
        for row in &self.rows {
            let _ = write!(
                text,
                "{{\"run\":{},\"mode\":{},\"bench\":{},\"metric\":{},\"value\":{},\"unit\":{}",
                json_string(run),
                json_string(mode),
                json_string(row.bench),
                json_string(&row.metric),
                json_number(row.value),
                json_string(row.unit)
            );
            if let Some(reference) = &row.reference {
                let _ = write!(
                    text,
                    ",\"reference\":{},\"reference_value\":{}",
                    json_string(&reference.label),
                    json_number(reference.value)
                );
            }
            if let Some(ratio) = row.ratio {
                let _ = write!(text, ",\"ratio\":{}", json_number(ratio));
            }
            if let Some(goal) = &row.goal {
                let _ = write!(text, ",\"goal\":{}", json_string(goal));
            }
            if let Some(met) = row.met {
                let _ = write!(text, ",\"met\":{met}");
            }
            // Ferrite's, measured in-process, unless the row says otherwise.
            let system = row.system.as_deref().unwrap_or("ferrite (in-process)");
            let _ = write!(text, ",\"system\":{}", json_string(system));
            for (name, value) in &row.labels {
                let _ = write!(text, ",{}:{}", json_string(name), json_string(value));
            }
            for (name, value) in &row.fields {
                let _ = write!(text, ",{}:{}", json_string(name), json_number(*value));
            }
            text.push_str("}\n");
        }
        file.write_all(text.as_bytes())
    }
}

fn format_row_inline(row: &Row) -> String {
    let mut text = format!(
        "{} {}: {} {}",
        row.bench,
        row.metric,
        number(row.value),
        row.unit
    );
    if let (Some(reference), Some(ratio)) = (&row.reference, row.ratio) {
        let _ = write!(
            text,
            " vs {} {} (ratio {ratio:.3})",
            reference.label,
            number(reference.value)
        );
    }
    if let (Some(goal), Some(met)) = (&row.goal, row.met) {
        let _ = write!(
            text,
            " goal {goal}: {}",
            if met { "met" } else { "NOT met" }
        );
    }
    text
}

/// A number printed with sensible precision.
pub fn number(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude == 0.0 {
        "0".to_string()
    } else if magnitude >= 1000.0 {
        format!("{value:.0}")
    } else if magnitude >= 100.0 {
        format!("{value:.1}")
    } else if magnitude >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.4}")
    }
}

fn json_number(value: f64) -> String {
    if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_line_carries_the_system_and_the_workload_fields() {
        let mut report = Report::default();
        report.rows.push(
            Row::new(
                "request-reply-matrix",
                "1x1x1: transactions/s",
                35_000.5,
                "tx/s",
            )
            .against("MQ", 33_332.0)
            .field("pairs", 1.0)
            .field("requesters", 4.0),
        );
        let path = std::env::temp_dir().join(format!(
            "ferrite-bench-report-test-{}.jsonl",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        report
            .append_json_lines(&path, "run-1", "smoke")
            .expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::remove_file(&path).expect("remove");
        assert_eq!(text.lines().count(), 1);
        let line = text.lines().next().unwrap();
        assert!(
            line.starts_with("{\"run\":\"run-1\",\"mode\":\"smoke\""),
            "{line}"
        );
        assert!(
            line.contains("\"system\":\"ferrite (in-process)\""),
            "{line}"
        );
        assert!(line.contains("\"pairs\":1,\"requesters\":4}"), "{line}");
        assert!(line.contains("\"reference_value\":33332"), "{line}");
    }
}
