//! What the REST tests share: a queue manager with its web server on a free loopback port,
//! users in each role, and an HTTP client that returns every status as data.

#![allow(dead_code)]

use std::sync::Arc;

use ferrite_queue_manager::security::users::UserRegistry;
use ferrite_queue_manager::QueueManager;
use ferrite_web::roles::{Role, RoleRegistry};
use ferrite_web::{WebOptions, WebServer};

pub const PASSWORD: &str = "s3cret-Pass";

/// A running queue manager QM1 and its web server.
pub struct Fixture {
    pub queue_manager: Arc<QueueManager>,
    /// The command processor the web server runs its commands through.
    pub processor: Arc<ferrite_command::CommandProcessor>,
    pub agent: ureq::Agent,
    pub server: Option<WebServer>,
    pub base: String,
    _directory: tempfile::TempDir,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
        let _ = self.queue_manager.shutdown();
    }
}

/// Users and their roles: alice MQWebAdmin, rita MQWebAdminRO, uma MQWebUser, nora none,
/// both MQWebAdmin and MQWebUser. uma and both may use every MQI object (allmqi) but not
/// administer (no dsp, crt, chg, dlt).
pub fn start(queues: &[&str]) -> Fixture {
    start_with(queues, |_| {
        (
            WebOptions::http("127.0.0.1:0".parse().unwrap()),
            ureq::Agent::new(),
        )
    })
}

/// [`start`] with the server's options and the client's agent from `configure`, given the
/// queue manager's directory.
pub fn start_with(
    queues: &[&str],
    configure: impl FnOnce(&std::path::Path) -> (WebOptions, ureq::Agent),
) -> Fixture {
    let (directory, queue_manager) = ferrite_test_kit::queue_manager::queue_manager(queues);
    ferrite_command::define_default_objects(&queue_manager).unwrap();
    let users = UserRegistry::new(directory.path());
    let roles = RoleRegistry::new(directory.path());
    for (user, given) in [
        ("alice", vec![Role::MqWebAdmin]),
        ("rita", vec![Role::MqWebAdminRo]),
        ("uma", vec![Role::MqWebUser]),
        ("nora", vec![]),
        ("both", vec![Role::MqWebAdmin, Role::MqWebUser]),
    ] {
        users.add(user, PASSWORD.as_bytes(), false).unwrap();
        roles.set(user, &given).unwrap();
    }
    ferrite_test_kit::queue_manager::grant_all_mqi(&queue_manager, "uma");
    ferrite_test_kit::queue_manager::grant_all_mqi(&queue_manager, "both");
    let processor = Arc::new(ferrite_command::CommandProcessor::new(
        queue_manager.clone(),
    ));
    let (options, agent) = configure(directory.path());
    let server = WebServer::start(processor.clone(), options).unwrap();
    let base = server.url().trim_end_matches('/').to_string();
    Fixture {
        queue_manager,
        processor,
        agent,
        server: Some(server),
        base,
        _directory: directory,
    }
}

/// A response: status, headers (lower-case names) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| {
            panic!(
                "not JSON ({error}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }

    /// The first error element of an MQ JSON error, checked for every field MQ gives.
    pub fn error(&self) -> serde_json::Value {
        let json = self.json();
        let error = json["error"][0].clone();
        for field in ["type", "msgId", "message", "explanation", "action"] {
            assert!(error[field].is_string(), "{field} missing in {json}");
        }
        for field in ["completionCode", "reasonCode"] {
            assert!(error[field].is_i64(), "{field} missing in {json}");
        }
        error
    }
}

/// A request builder with the fixture's base URL.
pub struct Call<'a> {
    fixture: &'a Fixture,
    method: &'a str,
    path: String,
    user: Option<(&'a str, &'a str)>,
    csrf: bool,
    headers: Vec<(&'a str, String)>,
}

impl Fixture {
    pub fn call<'a>(&'a self, method: &'a str, path: &str) -> Call<'a> {
        Call {
            fixture: self,
            method,
            path: path.to_string(),
            user: None,
            csrf: method != "GET",
            headers: Vec::new(),
        }
    }
}

impl<'a> Call<'a> {
    pub fn user(mut self, user: &'a str) -> Call<'a> {
        self.user = Some((user, PASSWORD));
        self
    }

    pub fn credentials(mut self, user: &'a str, password: &'a str) -> Call<'a> {
        self.user = Some((user, password));
        self
    }

    pub fn without_csrf(mut self) -> Call<'a> {
        self.csrf = false;
        self
    }

    pub fn header(mut self, name: &'a str, value: &str) -> Call<'a> {
        self.headers.push((name, value.to_string()));
        self
    }

    fn request(&self) -> ureq::Request {
        let url = format!("{}{}", self.fixture.base, self.path);
        let mut request = self.fixture.agent.request(self.method, &url);
        if let Some((user, password)) = self.user {
            use base64::Engine;
            let token =
                base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
            request = request.set("Authorization", &format!("Basic {token}"));
        }
        if self.csrf {
            request = request.set("ibm-mq-rest-csrf-token", "x");
        }
        for (name, value) in &self.headers {
            request = request.set(name, value);
        }
        request
    }

    pub fn send(self) -> Answer {
        answer(self.request().call())
    }

    pub fn json(self, body: serde_json::Value) -> Answer {
        answer(
            self.request()
                .set("Content-Type", "application/json")
                .send_bytes(body.to_string().as_bytes()),
        )
    }

    pub fn body(self, content_type: &str, body: &[u8]) -> Answer {
        answer(
            self.request()
                .set("Content-Type", content_type)
                .send_bytes(body),
        )
    }
}

fn answer(result: Result<ureq::Response, ureq::Error>) -> Answer {
    let response = match result {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("HTTP transport error: {error}"),
    };
    let status = response.status();
    let headers = response
        .headers_names()
        .into_iter()
        .map(|name| {
            let value = response.header(&name).unwrap_or("").to_string();
            (name, value)
        })
        .collect();
    let mut body = Vec::new();
    std::io::Read::read_to_end(&mut response.into_reader(), &mut body).unwrap();
    let answer = Answer {
        status,
        headers,
        body,
    };
    if status >= 400 {
        // Every error of every test is checked for MQ's JSON error format.
        let _ = answer.error();
    }
    answer
}
