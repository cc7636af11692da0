#!/usr/bin/env python3
"""Where the committers' CPU goes in each window of a `commit` bench run under perf.

The profile shares of docs/performance-notes.md, "Group commit". Record and dump with:

    perf record -F 499 -g -o perf.data target/release/ferrite-bench commit --quick --dir DIR
    perf script -F comm,tid,time,ip,sym -i perf.data > perf.script

(symbols without offsets or DSOs: the frame names below are matched whole). Then:

    perf-windows.py perf.script            # list the windows
    perf-windows.py perf.script 2 6        # profile windows 2 and 6

A window is found from its committers: threads of the bench process (their comm is the
process's: --comm, default ferrite-bench; perf gives at most 15 characters of it) with a
LogManager::force or QueueManager::commit frame, grouped by when their samples start (one
group of committer threads per bench window, started together). In `commit --quick` the
windows are, in order: 1 committer, 64 committers, then per message size (1, 16, 64, 256 KiB)
the log alone and with switches; windows 2 (1 KiB) and 6 (64 KiB) are the log alone.

For each window asked for, every sample between the first and last committer sample counts
(so the logger and the other threads are in the shares too):
  - samples by thread (the committers together);
  - the leaf frames by thread;
  - by thread, system call (the __x64_sys_ frame, "user" if none) and first user frame;
  - the futex calls by thread, operation (wait, wake) and the caller of libc's `syscall`:
    e.g. "parking in force 24%, waking the next forcers 17%" of a 1 KiB window.
"""

import argparse
import collections
import re

# Committer threads starting within this of the previous one, and of the group's first, are
# one window's.
GROUP_GAP_SECONDS = 1.0
GROUP_SPAN_SECONDS = 2.0
COMMITTER_FRAMES = ("LogManager::force", "QueueManager::commit")
# Frames that count as a sample's first user frame although they look like kernel symbols.
USER_LOOKING_FRAMES = (
    "syscall",
    "fdatasync",
    "pwrite64",
    "malloc",
    "cfree@GLIBC_2.2.5",
    "_int_free",
    "_int_malloc",
)
KERNEL_LOOKING = re.compile(r"^[a-z_0-9.]+$")
HEADER = re.compile(r"(.*?)\s+(\d+)\s+([\d.]+):")


def read_samples(path):
    """The samples of a `perf script -F comm,tid,time,ip,sym` dump: (comm, tid, time, frames
    leaf first)."""
    samples = []
    current = None
    with open(path) as script:
        for number, line in enumerate(script, 1):
            if not line.strip():
                if current:
                    samples.append(current)
                current = None
            elif not line[0].isspace():
                header = HEADER.match(line)
                if not header:
                    raise SystemExit(f"{path}:{number}: not a sample header: {line!r}")
                current = (header.group(1), int(header.group(2)), float(header.group(3)), [])
            elif current:
                parts = line.strip().split(None, 1)
                current[3].append(parts[1] if len(parts) > 1 else parts[0])
    if current:
        samples.append(current)
    return samples


def find_windows(samples, comm):
    """Committer thread groups: [first sample time, last sample time, thread ids]."""
    lifetimes = {}
    for name, tid, time, _ in samples:
        if name.startswith(comm[:15]):
            life = lifetimes.setdefault(tid, [time, time])
            life[0], life[1] = min(life[0], time), max(life[1], time)
    committers = {
        tid
        for _, tid, _, frames in samples
        if any(marker in frame for frame in frames for marker in COMMITTER_FRAMES)
    }
    windows = []
    for start, end, tid in sorted((*lifetimes[tid], tid) for tid in committers if tid in lifetimes):
        if (
            windows
            and start - windows[-1][1] < GROUP_GAP_SECONDS
            and start - windows[-1][0] < GROUP_SPAN_SECONDS
        ):
            windows[-1][1] = max(windows[-1][1], end)
            windows[-1][2].append(tid)
        else:
            windows.append([start, end, [tid]])
    return windows


def show(counter, total, limit):
    for key, count in counter.most_common(limit):
        print(f"{100 * count / total:5.1f}% {key}")


def profile(samples, number, window):
    start, end, tids = window
    tids = set(tids)
    inside = [sample for sample in samples if start <= sample[2] <= end]
    total = len(inside)
    print(f"\n== window {number}: {total} samples, {end - start:.2f} s")
    if not total:
        return
    by_thread = collections.Counter()
    leaves = collections.Counter()
    calls = collections.Counter()
    futexes = collections.Counter()
    for name, tid, _, frames in inside:
        who = "committer" if tid in tids else name
        by_thread[who] += 1
        leaves[(who, frames[0] if frames else "?")] += 1
        user_frame = next(
            (f for f in frames if not KERNEL_LOOKING.match(f) or f in USER_LOOKING_FRAMES), "?"
        )
        system_call = next((f for f in frames if f.startswith("__x64_sys_")), "user")
        calls[(who, system_call, user_frame)] += 1
        if "__x64_sys_futex" in frames:
            if any(f in ("futex_wait", "__futex_wait") for f in frames):
                operation = "wait"
            elif any(f.startswith("futex_wake") for f in frames):
                operation = "wake"
            else:
                operation = "other"
            at = frames.index("syscall") if "syscall" in frames else None
            caller = frames[at + 1] if at is not None and at + 1 < len(frames) else "?"
            futexes[(who, operation, caller)] += 1
    print(by_thread.most_common(8))
    show(leaves, total, 40)
    print("-- by thread, system call and first user frame")
    show(calls, total, 40)
    print("-- futex calls by thread, operation and caller")
    show(futexes, total, 20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("script", help="perf script -F comm,tid,time,ip,sym output")
    parser.add_argument("windows", nargs="*", type=int, help="windows to profile (by number)")
    parser.add_argument("--comm", default="ferrite-bench", help="the bench process's name")
    arguments = parser.parse_args()
    samples = read_samples(arguments.script)
    windows = find_windows(samples, arguments.comm)
    if not windows:
        raise SystemExit(f"no committer threads of '{arguments.comm}' in {arguments.script}")
    print("window, first and last committer sample (s), span (s), committer threads")
    for number, (start, end, tids) in enumerate(windows):
        print(number, round(start, 2), round(end, 2), round(end - start, 2), len(tids))
    for number in arguments.windows:
        if not 0 <= number < len(windows):
            raise SystemExit(f"window {number}: only {len(windows)} windows found")
        profile(samples, number, windows[number])


if __name__ == "__main__":
    main()
