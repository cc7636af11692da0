//! `ferrite stats QM1 --svg FILE`: a day of statistics intervals as an SVG chart (written by
//! hand: no plotting library), one panel per figure MP16 tunes with, each a line over the
//! intervals' end times: MQI messages put and got per second (QMST), log MB/s written to
//! copy 1 and the logger's I/O busy % (QJST), buffer pool 0's hit ratio and its stealable
//! low as a % of its buffers (QPST), and page set I/Os per second (QPST RIO + WIO).
//!
//! An interval without the record a panel needs leaves a gap in that panel's line.

use std::fmt::Write;

use crate::statistics::{buffer_pool_figures, count, log_figures, Interval};

/// The chart's size in pixels: each panel's, and the margins around its plot.
const PANEL_WIDTH: f64 = 900.0;
const PANEL_HEIGHT: f64 = 150.0;
const MARGIN_LEFT: f64 = 70.0;
const MARGIN_RIGHT: f64 = 20.0;
const MARGIN_TOP: f64 = 24.0;
const MARGIN_BOTTOM: f64 = 26.0;
/// Intervals drawn at most (a day of one-minute intervals, and some).
pub const PLOT_INTERVALS_MAX: usize = 2_000;

/// One panel: its title and each interval's value (None: not in that interval).
struct Series {
    title: &'static str,
    values: Vec<Option<f64>>,
}

/// The figures plotted, one value per interval each.
fn series(intervals: &[Interval]) -> Vec<Series> {
    let mut put = Vec::new();
    let mut got = Vec::new();
    let mut log_rate = Vec::new();
    let mut log_busy = Vec::new();
    let mut hit_ratio = Vec::new();
    let mut stealable_low = Vec::new();
    let mut page_set_ios = Vec::new();
    for interval in intervals {
        let seconds = interval.seconds();
        let qmst = interval.record("QMST");
        let per_second = |names: [&str; 2]| {
            qmst.map(|qmst| {
                names.iter().map(|name| count(qmst, name)).sum::<u64>() as f64 / seconds
            })
        };
        put.push(per_second(["PersPuts", "NonPersPuts"]));
        got.push(per_second(["PersGets", "NonPersGets"]));
        let log = interval
            .record("QJST")
            .map(|qjst| log_figures(qjst, seconds));
        log_rate.push(log.as_ref().and_then(|log| log.megabytes_per_second[0]));
        log_busy.push(log.as_ref().map(|log| log.io_busy_percent));
        let pool = interval
            .records("QPST")
            .find(|qpst| count(qpst, "POOL") == 0)
            .map(|qpst| buffer_pool_figures(qpst, seconds));
        hit_ratio.push(
            pool.as_ref()
                .and_then(|pool| pool.hit_ratio.map(|r| r * 100.0)),
        );
        stealable_low.push(pool.as_ref().and_then(|pool| pool.stealable_low_percent));
        page_set_ios.push(pool.as_ref().map(|pool| pool.page_set_ios_per_second));
    }
    vec![
        Series {
            title: "messages put / s (QMST)",
            values: put,
        },
        Series {
            title: "messages got / s (QMST)",
            values: got,
        },
        Series {
            title: "log MB/s, copy 1 (QJST)",
            values: log_rate,
        },
        Series {
            title: "logger I/O busy % (QJST)",
            values: log_busy,
        },
        Series {
            title: "buffer pool 0 hit ratio % (QPST)",
            values: hit_ratio,
        },
        Series {
            title: "buffer pool 0 stealable low % (QPST CBSL/NBUF)",
            values: stealable_low,
        },
        Series {
            title: "page set I/Os / s, pool 0 (QPST RIO+WIO)",
            values: page_set_ios,
        },
    ]
}

/// `intervals` (in time order; the latest [`PLOT_INTERVALS_MAX`] are drawn) as an SVG document.
pub fn svg(intervals: &[Interval]) -> String {
    let intervals = &intervals[intervals.len().saturating_sub(PLOT_INTERVALS_MAX)..];
    let panels = series(intervals);
    let height = PANEL_HEIGHT * panels.len() as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{PANEL_WIDTH}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let times: Vec<f64> = intervals.iter().map(|i| i.end_ms as f64).collect();
    let first = times.first().copied().unwrap_or(0.0);
    let last = times.last().copied().unwrap_or(1.0).max(first + 1.0);
    let (start_text, end_text) = match (intervals.first(), intervals.last()) {
        (Some(a), Some(b)) => (
            ferrite_queue_manager::statistics::records::iso_time(a.end_ms),
            ferrite_queue_manager::statistics::records::iso_time(b.end_ms),
        ),
        _ => (String::new(), String::new()),
    };
    for (index, panel) in panels.iter().enumerate() {
        let top = PANEL_HEIGHT * index as f64;
        let plot_left = MARGIN_LEFT;
        let plot_right = PANEL_WIDTH - MARGIN_RIGHT;
        let plot_top = top + MARGIN_TOP;
        let plot_bottom = top + PANEL_HEIGHT - MARGIN_BOTTOM;
        let maximum = panel.values.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
        let scale_top = if maximum > 0.0 { maximum * 1.1 } else { 1.0 };
        let x = |time: f64| plot_left + (time - first) / (last - first) * (plot_right - plot_left);
        let y = |value: f64| plot_bottom - value / scale_top * (plot_bottom - plot_top);
        let _ = write!(
            out,
            "<text x=\"{plot_left}\" y=\"{}\" font-weight=\"bold\">{}</text>\n\
             <rect x=\"{plot_left}\" y=\"{plot_top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n\
             <text x=\"{}\" y=\"{plot_bottom}\" text-anchor=\"end\">0</text>\n\
             <text x=\"{plot_left}\" y=\"{}\">{start_text}</text>\n\
             <text x=\"{plot_right}\" y=\"{}\" text-anchor=\"end\">{end_text}</text>\n",
            top + 16.0,
            panel.title,
            plot_right - plot_left,
            plot_bottom - plot_top,
            plot_left - 4.0,
            plot_top + 10.0,
            format_value(scale_top),
            plot_left - 4.0,
            plot_bottom + 16.0,
            plot_bottom + 16.0,
        );
        // One polyline per run of intervals that have a value.
        let mut run: Vec<String> = Vec::new();
        let flush = |run: &mut Vec<String>, out: &mut String| {
            if !run.is_empty() {
                let _ = writeln!(
                    out,
                    "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\" points=\"{}\"/>",
                    run.join(" ")
                );
                run.clear();
            }
        };
        for (time, value) in times.iter().zip(&panel.values) {
            match value {
                Some(value) => run.push(format!("{:.1},{:.1}", x(*time), y(*value))),
                None => flush(&mut run, &mut out),
            }
        }
        flush(&mut run, &mut out);
    }
    out.push_str("</svg>\n");
    out
}

/// An axis label: whole numbers from 10 up, two significant decimals below.
fn format_value(value: f64) -> String {
    if value >= 10.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn interval(start_ms: u64, puts: u64, with_log: bool) -> Interval {
        let mut records = vec![json!({"Record": "QMST", "PersPuts": puts, "NonPersPuts": 0})];
        if with_log {
            records.push(json!({"Record": "QJST", "Log_Bytes_1": 60u64 << 20,
                "Log_Writes_1": 60, "Log_CI": 60 * 256, "IO_Busy_Time_us": 30_000_000u64}));
        }
        Interval {
            start_ms,
            end_ms: start_ms + 60_000,
            records,
        }
    }

    #[test]
    fn each_panel_draws_its_figure_with_gaps_where_a_record_is_missing() {
        // Three one-minute intervals: 60, 120 and 180 persistent puts; no QJST in the second.
        let intervals = vec![
            interval(0, 60, true),
            interval(60_000, 120, false),
            interval(120_000, 180, true),
        ];
        let svg = svg(&intervals);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let panels = svg.matches("font-weight=\"bold\"").count();
        assert_eq!(panels, 7);
        // Puts: one line through three points, the highest 3/s, scaled to 3.3 on the axis.
        let puts = svg
            .lines()
            .find(|line| line.starts_with("<polyline"))
            .expect("the puts' line");
        assert_eq!(puts.matches(',').count(), 3, "{puts}");
        assert!(svg.contains(">3.30<"), "{svg}");
        // Log MB/s: 1 MB/s in the first and third intervals, a gap between: two lines.
        let log_panel = &svg[svg.find("log MB/s").unwrap()..svg.find("logger I/O busy").unwrap()];
        assert_eq!(log_panel.matches("<polyline").count(), 2, "{log_panel}");
        assert!(log_panel.contains(">1.10<"), "{log_panel}");
        assert!(svg.contains("1970-01-01T00:01:00.000Z"));
    }
}
