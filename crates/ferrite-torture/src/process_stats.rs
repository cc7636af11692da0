//! What a process holds, from /proc: resident memory (VmRSS), threads, and open file
//! descriptors (the entries of /proc/<pid>/fd).

#[derive(Copy, Clone, Debug, Default)]
pub struct ProcessStats {
    pub rss_kib: u64,
    pub threads: u64,
    pub open_fds: u64,
}

pub fn sample(pid: u32) -> Result<ProcessStats, String> {
    let status_path = format!("/proc/{pid}/status");
    let status = std::fs::read_to_string(&status_path)
        .map_err(|error| format!("cannot read {status_path}: {error}"))?;
    let field = |name: &str| -> Result<u64, String> {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|value| value.parse().ok())
            .ok_or_else(|| format!("{status_path} has no {name}"))
    };
    let fd_path = format!("/proc/{pid}/fd");
    let open_fds = std::fs::read_dir(&fd_path)
        .map_err(|error| format!("cannot list {fd_path}: {error}"))?
        .count() as u64;
    Ok(ProcessStats {
        rss_kib: field("VmRSS:")?,
        threads: field("Threads:")?,
        open_fds,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn samples_this_process() {
        let stats = super::sample(std::process::id()).unwrap();
        assert!(stats.rss_kib > 0);
        assert!(stats.threads >= 1);
        assert!(stats.open_fds >= 3, "stdin, stdout, stderr at least");
    }
}
