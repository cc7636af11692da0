//! The web console in a real browser: Debian's chromium, headless, driven over WebDriver by
//! chromedriver (packages chromium and chromium-driver, which scripts/test installs). It logs
//! in, lists the queues with their depths and rates, creates one, puts, browses and gets a
//! message, lists a queue's messages in the message browser and opens one, runs an MQSC
//! command, draws the depth, rate, log and buffer pool plots and lists channels and
//! connections, all through the REST API and /metrics.

mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{start, PASSWORD};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
/// How long a page may take to show what a step waits for (never asserted as a timing).
const WAIT_SECONDS: u64 = 120;
/// WebDriver's key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver on a free port, stopped by its process id when the test ends.
struct Driver {
    child: Child,
    base: String,
    session: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = ureq::delete(&format!("{}/session/{}", self.base, self.session)).call();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn call(method: &str, url: &str, body: Option<Value>) -> Value {
    let request = ureq::request(method, url);
    let result = match body {
        Some(body) => request
            .set("Content-Type", "application/json")
            .send_string(&body.to_string()),
        None => request.call(),
    };
    let response = match result {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("WebDriver {method} {url}: {error}"),
    };
    let answer: Value = serde_json::from_reader(response.into_reader()).unwrap();
    if let Some(error) = answer["value"]["error"].as_str() {
        panic!(
            "WebDriver {method} {url}: {error}: {}",
            answer["value"]["message"]
        );
    }
    answer["value"].clone()
}

impl Driver {
    fn start() -> Driver {
        for program in [CHROMEDRIVER, CHROMIUM] {
            assert!(
                std::path::Path::new(program).exists(),
                "{program} is missing: install the Debian packages chromium and chromium-driver (scripts/test does)"
            );
        }
        let port = ferrite_test_kit::process::free_port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let mut driver = Driver {
            child,
            base,
            session: String::new(),
        };
        wait_for("chromedriver to be ready", || {
            ureq::get(&format!("{}/status", driver.base))
                .call()
                .ok()
                .and_then(|response| {
                    serde_json::from_reader::<_, Value>(response.into_reader()).ok()
                })
                .is_some_and(|status| status["value"]["ready"] == true)
        });
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1600"]
            }
        }}});
        let session = call(
            "POST",
            &format!("{}/session", driver.base),
            Some(capabilities),
        );
        driver.session = session["sessionId"].as_str().unwrap().to_string();
        driver
    }

    fn url(&self, path: &str) -> String {
        format!("{}/session/{}{path}", self.base, self.session)
    }

    fn open(&self, url: &str) {
        call("POST", &self.url("/url"), Some(json!({"url": url})));
    }

    fn element(&self, css: &str) -> String {
        let found = call(
            "POST",
            &self.url("/element"),
            Some(json!({"using": "css selector", "value": css})),
        );
        found[ELEMENT].as_str().unwrap().to_string()
    }

    fn type_into(&self, css: &str, text: &str) {
        let element = self.element(css);
        call(
            "POST",
            &self.url(&format!("/element/{element}/clear")),
            Some(json!({})),
        );
        call(
            "POST",
            &self.url(&format!("/element/{element}/value")),
            Some(json!({"text": text})),
        );
    }

    fn click(&self, css: &str) {
        let element = self.element(css);
        call(
            "POST",
            &self.url(&format!("/element/{element}/click")),
            Some(json!({})),
        );
    }

    fn script(&self, script: &str) -> Value {
        call(
            "POST",
            &self.url("/execute/sync"),
            Some(json!({"script": script, "args": []})),
        )
    }

    fn text(&self, id: &str) -> String {
        self.script(&format!(
            "return document.getElementById('{id}').textContent;"
        ))
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// Waits until element `id`'s text contains `expected`.
    fn wait_for_text(&self, id: &str, expected: &str) {
        wait_for(&format!("#{id} to show '{expected}'"), || {
            self.text(id).contains(expected)
        });
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(WAIT_SECONDS);
    while !done() {
        assert!(
            Instant::now() < deadline,
            "waited {WAIT_SECONDS} s for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_console_manages_queues_and_messages_in_a_real_browser() {
    let web = start(&["APP.ONE"]);
    // The files carry a policy that keeps the page's scripts its own.
    let page = web.call("GET", "/ibmmq/console/").send();
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-security-policy")
        .unwrap()
        .contains("default-src 'self'"));

    let driver = Driver::start();
    driver.open(&format!("{}/ibmmq/console/", web.base));
    assert_eq!(driver.script("return document.title;"), "Ferrite console");

    // A wrong password is refused with MQ's error; the right one opens the console.
    driver.type_into("#login-user", "both");
    driver.type_into("#login-password", "wrong");
    driver.click("#login-button");
    driver.wait_for_text("login-error", "MQWB0103E");
    driver.type_into("#login-password", PASSWORD);
    driver.click("#login-button");
    driver.wait_for_text("overview-name", "QM1");
    driver.wait_for_text("overview-state", "running");
    let connections = driver.text("overview-connections");
    assert!(connections.parse::<u64>().is_ok(), "{connections}");
    driver.wait_for_text("queue-rows", "APP.ONE");

    // Create a queue.
    driver.type_into("#create-name", "APP.NEW");
    driver.type_into("#create-maxdepth", "5");
    driver.click("#create-button");
    driver.wait_for_text("create-result", "Queue APP.NEW created.");
    assert_eq!(
        web.queue_manager
            .queue("APP.NEW")
            .unwrap()
            .definition()
            .max_depth,
        5
    );
    driver.wait_for_text("queue-rows", "APP.NEW");

    // Put, browse and get a message on APP.ONE.
    driver.script("document.getElementById('message-queue').value = 'APP.ONE';");
    driver.type_into("#put-text", "from the browser");
    driver.click("#put-button");
    driver.wait_for_text("message-output", "Put message");
    let first_message_id = put_message_id(&driver.text("message-output"));
    assert_eq!(
        web.queue_manager
            .queue("APP.ONE")
            .unwrap()
            .status()
            .current_depth,
        1
    );
    driver.click("#browse-button");
    driver.wait_for_text("message-output", "from the browser");
    assert_eq!(
        web.queue_manager
            .queue("APP.ONE")
            .unwrap()
            .status()
            .current_depth,
        1
    );

    // MQSC sees the message too.
    driver.type_into("#mqsc-command", "DISPLAY QLOCAL(APP.ONE) CURDEPTH");
    driver.click("#mqsc-button");
    driver.wait_for_text("mqsc-output", "CURDEPTH(1)");

    // Two more messages, then the message browser: the queue's name in the queue table lists
    // its messages in queue order with their descriptors, and "Open" shows one.
    let mut message_ids = vec![first_message_id];
    for text in ["the second message", "the third message"] {
        driver.type_into("#put-text", text);
        driver.script("document.getElementById('message-output').textContent = '';");
        driver.click("#put-button");
        driver.wait_for_text("message-output", "Put message");
        message_ids.push(put_message_id(&driver.text("message-output")));
    }
    assert_eq!(
        web.queue_manager
            .queue("APP.ONE")
            .unwrap()
            .status()
            .current_depth,
        3
    );
    driver.script(
        "document.querySelector(\"#queue-rows button.queue-link[data-queue='APP.ONE']\").click();",
    );
    driver.wait_for_text("message-list-summary", "Queue APP.ONE: 3 message(s)");
    let rows = driver.script(
        "return [...document.querySelectorAll('#message-rows tr')].map((row) =>
             [...row.querySelectorAll('td')].map((cell) => cell.textContent));",
    );
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    let texts = [
        "from the browser",
        "the second message",
        "the third message",
    ];
    for ((row, message_id), text) in rows.iter().zip(&message_ids).zip(texts) {
        let cells: Vec<&str> = row
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell.as_str().unwrap())
            .collect();
        // Message ID, correlation ID, put time, persistence, priority, format, length, preview.
        assert_eq!(cells[0], message_id, "{cells:?}");
        assert_eq!(cells[1], format!("ID:{}", "00".repeat(24)), "{cells:?}");
        assert!(
            cells[2].starts_with("20") && cells[2].len() == 23,
            "{cells:?}"
        );
        assert_eq!(cells[3], "nonPersistent", "{cells:?}");
        assert_eq!(cells[4], "0", "{cells:?}");
        assert_eq!(cells[5], "MQSTR", "{cells:?}");
        assert_eq!(cells[6], text.len().to_string(), "{cells:?}");
        assert_eq!(cells[7], text, "{cells:?}");
    }
    driver.script("document.getElementById('message-output').textContent = '';");
    driver.click("#message-rows tr:nth-child(2) button.open-message");
    driver.wait_for_text("message-output", "the second message");
    assert!(driver
        .text("message-output")
        .contains(&format!("messageId: {}", message_ids[1])));
    assert_eq!(
        web.queue_manager
            .queue("APP.ONE")
            .unwrap()
            .status()
            .current_depth,
        3,
        "opening a message browses it"
    );

    // The queue table's put rate of APP.ONE, from /metrics.
    wait_for("APP.ONE's put rate in the queue table", || {
        let rate = driver.script(
            "const row = document.querySelector(\"#queue-rows tr[data-queue='APP.ONE']\");
             return row ? row.querySelector('.put-rate').textContent : '';",
        );
        rate.as_str()
            .is_some_and(|rate| rate.parse::<f64>().is_ok())
    });

    // The plot has drawn points of both application queues.
    wait_for("the plot to have two points of two queues", || {
        let drawn = driver.script(&format!(
            "{PAINTED} const c = document.getElementById('plot');
             return [Number(c.dataset.points || 0), Number(c.dataset.series || 0), painted('plot')];"
        ));
        drawn[0].as_u64().unwrap() >= 2 && drawn[1] == 2 && drawn[2].as_u64().unwrap() > 0
    });

    // The rates, log and buffer pool plots from /metrics, the channels and the connections.
    wait_for("the rate, log and buffer pool plots to have points", || {
        let drawn = driver.script(
            "return ['plot-rates', 'plot-log', 'plot-pools'].map((id) => {
                 const c = document.getElementById(id);
                 return [Number(c.dataset.points || 0), Number(c.dataset.series || 0)];
             });",
        );
        let points = |index: usize| drawn[index][0].as_u64().unwrap();
        let series = |index: usize| drawn[index][1].as_u64().unwrap();
        points(0) >= 2 && series(0) == 2 && series(1) == 1 && series(2) >= 1
    });
    // Their lines are on the canvases (right of the axis labels).
    let painted = driver.script(&format!(
        "{PAINTED} return ['plot-rates', 'plot-log', 'plot-pools'].map(painted);"
    ));
    for (index, id) in ["plot-rates", "plot-log", "plot-pools"].iter().enumerate() {
        assert!(painted[index].as_u64().unwrap() > 0, "{id} has no line");
    }
    assert!(driver.text("plot-rates-legend").contains("put/s"));
    assert!(driver.text("plot-pools-legend").contains("pool 0 used %"));
    driver.wait_for_text("channel-rows", "SYSTEM.DEF.SVRCONN");
    driver.wait_for_text("connections-output", "DISPLAY CONN");

    driver.script("document.getElementById('message-output').textContent = '';");
    driver.click("#get-button");
    driver.wait_for_text("message-output", "from the browser");
    assert_eq!(
        web.queue_manager
            .queue("APP.ONE")
            .unwrap()
            .status()
            .current_depth,
        2
    );
    // The list follows the get.
    driver.wait_for_text("message-list-summary", "Queue APP.ONE: 2 message(s)");
}

/// A script function `painted(id)`: the pixels painted in canvas `id`'s plot area, right of
/// the axis labels (where only the lines are drawn).
const PAINTED: &str = "const painted = (id) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(40, 0, c.width - 40, c.height).data;
    let count = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) count++;
    return count;
};";

/// The message id in the console's "Put message ID" line.
fn put_message_id(output: &str) -> String {
    let id = output
        .strip_prefix("Put message ")
        .unwrap_or_else(|| panic!("not a put's output: {output}"));
    // REST API v3's form: `ID:` and 48 hexadecimal digits.
    let digits = id.strip_prefix("ID:").unwrap_or_else(|| panic!("{output}"));
    assert_eq!(digits.len(), 48, "{output}");
    id.to_string()
}
