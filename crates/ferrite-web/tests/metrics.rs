//! `/metrics` parsed by a Prometheus text-format parser and checked against known work.

mod support;

use prometheus_parse::{Scrape, Value};
use support::start;

fn scrape(web: &support::Fixture, user: &str) -> Scrape {
    let answer = web.call("GET", "/metrics").user(user).send();
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(answer
        .header("content-type")
        .unwrap()
        .starts_with("text/plain; version=0.0.4"));
    let text = answer.text();
    Scrape::parse(text.lines().map(|line| Ok(line.to_string()))).expect("valid exposition format")
}

fn value(scrape: &Scrape, metric: &str, labels: &[(&str, &str)]) -> f64 {
    let sample = scrape
        .samples
        .iter()
        .find(|sample| {
            sample.metric == metric
                && labels
                    .iter()
                    .all(|(label, value)| sample.labels.get(label) == Some(*value))
        })
        .unwrap_or_else(|| panic!("no {metric} {labels:?}"));
    match sample.value {
        Value::Gauge(value) | Value::Counter(value) | Value::Untyped(value) => value,
        ref other => panic!("{metric} is {other:?}"),
    }
}

#[test]
fn queue_depths_and_counts_follow_the_work_done() {
    let web = start(&["APP.METRICS", "APP.IDLE"]);
    const PUTS: usize = 7;
    const GETS: usize = 3;
    let path = "/ibmmq/rest/v3/messaging/qmgr/QM1/queue/APP.METRICS/message";
    for number in 0..PUTS {
        let answer = web
            .call("POST", path)
            .user("both")
            .body("text/plain", format!("m{number}").as_bytes());
        assert_eq!(answer.status, 201);
    }
    for _ in 0..GETS {
        assert_eq!(web.call("DELETE", path).user("both").send().status, 200);
    }
    let scrape = scrape(&web, "alice");
    let queue = [("qmgr", "QM1"), ("queue", "APP.METRICS")];
    assert_eq!(
        value(&scrape, "ibmmq_queue_depth", &queue),
        (PUTS - GETS) as f64
    );
    assert_eq!(
        value(&scrape, "ibmmq_queue_mqput_mqput1_count", &queue),
        PUTS as f64
    );
    assert_eq!(
        value(&scrape, "ibmmq_queue_mqget_count", &queue),
        GETS as f64
    );
    assert_eq!(value(&scrape, "ibmmq_queue_hi_depth", &queue), PUTS as f64);
    assert!(value(&scrape, "ibmmq_queue_oldest_message_age", &queue) >= 0.0);
    assert_eq!(value(&scrape, "ibmmq_queue_input_handles", &queue), 0.0);
    let idle = [("queue", "APP.IDLE")];
    assert_eq!(value(&scrape, "ibmmq_queue_depth", &idle), 0.0);
    assert_eq!(
        value(&scrape, "ibmmq_queue_oldest_message_age", &idle),
        -1.0
    );
    assert_eq!(value(&scrape, "ibmmq_qmgr_status", &[("qmgr", "QM1")]), 1.0);
    assert!(
        value(
            &scrape,
            "ibmmq_bufferpool_buffers_total",
            &[("bufferpool", "0")]
        ) > 0.0
    );
    assert!(value(&scrape, "ibmmq_log_write_nowaits_total", &[]) > 0.0);
    // Every family has its HELP and TYPE.
    for family in [
        "ibmmq_queue_depth",
        "ibmmq_queue_mqget_count",
        "ibmmq_log_bytes_written_total",
    ] {
        assert!(scrape.docs.contains_key(family), "{family} has no HELP");
    }
}

#[test]
fn metrics_need_an_administrative_role() {
    let web = start(&[]);
    scrape(&web, "rita");
    let answer = web.call("GET", "/metrics").user("uma").send();
    assert_eq!(answer.status, 403);
    assert_eq!(web.call("GET", "/metrics").send().status, 401);
}
