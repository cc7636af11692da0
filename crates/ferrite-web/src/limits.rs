//! The access log and the rate limit: what every request leaves behind, and how many requests
//! one client address may make.
//!
//! ## Access log (`<queue manager directory>/web-access.log`)
//! One UTF-8 line per request, in the order they end:
//! ```text
//! <time, RFC 3339 UTC> <client address> <user or -> "<method> <path and query>" <status> <milliseconds>
//! ```
//! The file is renamed to `web-access.log.1` (replacing the previous one) when it passes
//! [`ACCESS_LOG_BYTES_MAX`], so the two files hold at most twice that.
//!
//! ## Rate limit
//! A token bucket per client address: [`RateLimit::requests`] tokens, refilled at that many
//! per [`RateLimit::period`]; a request without a token is answered 429 before it is
//! authenticated, so password guessing is limited too.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The access log's file name inside the queue manager's directory.
pub const ACCESS_LOG_FILE_NAME: &str = "web-access.log";
/// The access log's size at which it is rotated.
pub const ACCESS_LOG_BYTES_MAX: u64 = 16 * 1024 * 1024;
/// Client addresses whose buckets are kept at most.
pub const RATE_LIMIT_CLIENTS_MAX: usize = 10_000;

/// Requests per period for one client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    pub requests: u32,
    pub period: Duration,
}

impl Default for RateLimit {
    /// 60,000 a minute (1,000 a second on average, as a burst at most 60,000): a flood guard
    /// that an application using the messaging API at full speed from one address stays
    /// under.
    fn default() -> RateLimit {
        RateLimit {
            requests: 60_000,
            period: Duration::from_secs(60),
        }
    }
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

/// The buckets of every client address.
pub struct RateLimiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> RateLimiter {
        assert!(
            limit.requests > 0 && !limit.period.is_zero(),
            "a rate limit allows something"
        );
        RateLimiter {
            limit,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `client` may make a request now (taking a token if so).
    pub fn admit(&self, client: IpAddr) -> bool {
        self.admit_at(client, Instant::now())
    }

    /// Whether `client` may make a request at `now` (not earlier than any time before).
    fn admit_at(&self, client: IpAddr, now: Instant) -> bool {
        let capacity = f64::from(self.limit.requests);
        let per_second = capacity / self.limit.period.as_secs_f64();
        let mut buckets = self.buckets.lock().unwrap();
        if buckets.len() >= RATE_LIMIT_CLIENTS_MAX && !buckets.contains_key(&client) {
            // Forget the clients whose buckets are full again (they lose nothing).
            buckets.retain(|_, bucket| {
                bucket.tokens + now.duration_since(bucket.updated).as_secs_f64() * per_second
                    < capacity
            });
            if buckets.len() >= RATE_LIMIT_CLIENTS_MAX {
                return false;
            }
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: capacity,
            updated: now,
        });
        let refill = now.duration_since(bucket.updated).as_secs_f64() * per_second;
        bucket.tokens = (bucket.tokens + refill).min(capacity);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One request as the access log records it.
pub struct AccessRecord<'a> {
    pub client: IpAddr,
    pub user: Option<&'a str>,
    pub method: &'a str,
    pub target: &'a str,
    pub status: u16,
    pub elapsed: Duration,
}

/// The access log of one queue manager.
pub struct AccessLog {
    path: PathBuf,
    file: Mutex<Option<File>>,
    /// The size at which the file is rotated ([`ACCESS_LOG_BYTES_MAX`]).
    bytes_max: u64,
}

impl AccessLog {
    pub fn new(directory: &Path) -> AccessLog {
        AccessLog::rotated_at(directory, ACCESS_LOG_BYTES_MAX)
    }

    fn rotated_at(directory: &Path, bytes_max: u64) -> AccessLog {
        assert!(bytes_max > 0);
        AccessLog {
            path: directory.join(ACCESS_LOG_FILE_NAME),
            file: Mutex::new(None),
            bytes_max,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record`'s line; a log that cannot be written loses the line, never the request.
    pub fn record(&self, record: &AccessRecord) {
        let line = format!(
            "{} {} {} \"{} {}\" {} {}\n",
            rfc3339(SystemTime::now()),
            record.client,
            record.user.unwrap_or("-"),
            record.method,
            record.target.replace(['"', '\n', '\r'], "_"),
            record.status,
            record.elapsed.as_millis()
        );
        let mut file = self.file.lock().unwrap();
        if file.is_none() {
            *file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)
                .ok();
        }
        let Some(open) = file.as_mut() else {
            return;
        };
        let _ = open.write_all(line.as_bytes());
        let full = open
            .metadata()
            .is_ok_and(|metadata| metadata.len() >= self.bytes_max);
        if full {
            *file = None;
            let _ = std::fs::rename(&self.path, self.path.with_extension("log.1"));
        }
    }
}

/// `2026-01-31T12:34:56Z`.
fn rfc3339(time: SystemTime) -> String {
    let seconds = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_index + 2) / 5 + 1) as u32;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_its_requests_and_no_more() {
        let limiter = RateLimiter::new(RateLimit {
            requests: 3,
            period: Duration::from_secs(3600),
        });
        let one: IpAddr = "127.0.0.1".parse().unwrap();
        let two: IpAddr = "127.0.0.2".parse().unwrap();
        assert!((0..3).all(|_| limiter.admit(one)));
        assert!(!limiter.admit(one));
        assert!(limiter.admit(two));
    }

    #[test]
    fn a_bucket_refills_at_its_rate_up_to_its_capacity() {
        let limiter = RateLimiter::new(RateLimit {
            requests: 2,
            period: Duration::from_secs(1),
        });
        let client: IpAddr = "127.0.0.1".parse().unwrap();
        let start = Instant::now();
        assert!(limiter.admit_at(client, start));
        assert!(limiter.admit_at(client, start));
        assert!(!limiter.admit_at(client, start));
        // Half a period gives back one token of two.
        let half = start + Duration::from_millis(500);
        assert!(limiter.admit_at(client, half));
        assert!(!limiter.admit_at(client, half));
        // An hour idle fills the bucket, no further.
        let later = half + Duration::from_secs(3600);
        assert!(limiter.admit_at(client, later));
        assert!(limiter.admit_at(client, later));
        assert!(!limiter.admit_at(client, later));
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400 + 3_661)),
            "2000-02-29T01:01:01Z"
        );
    }

    #[test]
    fn the_access_log_records_a_line_per_request() {
        let directory = tempfile::tempdir().unwrap();
        let log = AccessLog::new(directory.path());
        log.record(&AccessRecord {
            client: "127.0.0.1".parse().unwrap(),
            user: Some("alice"),
            method: "GET",
            target: "/metrics?x=\"y\"",
            status: 200,
            elapsed: Duration::from_millis(3),
        });
        let text = std::fs::read_to_string(log.path()).unwrap();
        assert!(
            text.ends_with(" 127.0.0.1 alice \"GET /metrics?x=_y_\" 200 3\n"),
            "{text}"
        );
    }

    #[test]
    fn the_access_log_is_renamed_when_full_and_starts_again() {
        let directory = tempfile::tempdir().unwrap();
        let log = AccessLog::rotated_at(directory.path(), 250);
        let record = |status: u16| {
            log.record(&AccessRecord {
                client: "127.0.0.1".parse().unwrap(),
                user: None,
                method: "GET",
                target: "/ibmmq/rest/v3/admin/qmgr",
                status,
                elapsed: Duration::from_millis(1),
            })
        };
        // Each line is 71 bytes: the fourth passes 250 and the file is rotated.
        for status in [200, 201, 202, 203] {
            record(status);
        }
        let rotated = std::fs::read_to_string(log.path().with_extension("log.1")).unwrap();
        assert_eq!(rotated.lines().count(), 4, "{rotated}");
        assert!(!log.path().exists());
        record(204);
        let current = std::fs::read_to_string(log.path()).unwrap();
        assert_eq!(current.lines().count(), 1);
        assert!(current.contains("\" 204 "), "{current}");
    }
}
