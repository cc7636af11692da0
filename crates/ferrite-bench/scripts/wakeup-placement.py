#!/usr/bin/env python3
"""Where the scheduler puts a process's woken threads, and how long a CPU idles meanwhile.

docs/performance-notes.md, "The scheduler": on this virtual machine a CPU sits idle while committers
are runnable, queued on the other one. Record every CPU's switches and wake-ups for a moment of a
benchmark window, then read them here:

    perf record -a -e sched:sched_switch,sched:sched_wakeup -o sched.data -- sleep 0.3
    perf script -i sched.data -F comm,tid,cpu,time,event,trace > sched.txt
    wakeup-placement.py sched.txt [COMM_PREFIX]

(`ferrite-bench commit --quick --commit-sizes 1 --dir DIR` in the background, the recording
started 0.15 s after its second "window starts" line: the goal row's first segment.)
COMM_PREFIX (default `ferrite-bench`) picks the process's worker threads by name; the bench's
committers carry the binary's name.

Prints the share of the time with 0, 1, ... CPUs idle; the share with a CPU idle while at
least one worker is runnable (woken or preempted, not running); and, for the workers'
wake-ups, whether the CPU chosen was busy while another was idle.
"""

import collections
import re
import sys

LINE = re.compile(r"\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(sched:\S+):\s+(.*)")
SWITCH = re.compile(
    r"prev_comm=(.+?) prev_pid=(\d+) .*?prev_state=(\S+) ==> next_comm=(.+?) next_pid=(\d+)"
)
WAKEUP = re.compile(r"comm=(.+?) pid=(\d+) .*?target_cpu=(\d+)")


def main():
    path = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else "ferrite-bench"
    events = []
    with open(path) as lines:
        for line in lines:
            match = LINE.match(line)
            if match:
                events.append((float(match.group(4)), int(match.group(3)), match.group(5),
                               match.group(6)))
    if not events:
        sys.exit("no sched_switch / sched_wakeup events in " + path)
    cpus = sorted({cpu for _, cpu, _, _ in events})
    running = {}  # cpu -> pid on it (0: idle); unknown until its first switch
    runnable = set()  # worker pids woken or preempted, not yet running
    names = {}
    idle_time = collections.Counter()  # idle CPU count -> seconds
    idle_with_runnable = 0.0
    placement = collections.Counter()
    known_from = None
    last = events[0][0]
    for time, cpu, kind, rest in events:
        if known_from is not None:
            span = time - last
            idle = sum(1 for c in cpus if running.get(c) == 0)
            idle_time[idle] += span
            if idle and runnable:
                idle_with_runnable += span
        last = time
        if kind == "sched:sched_switch":
            match = SWITCH.search(rest)
            if not match:
                continue
            previous, state, following = int(match.group(2)), match.group(3), int(match.group(5))
            names[previous], names[following] = match.group(1), match.group(4)
            if names[previous].startswith(prefix) and state.startswith("R"):
                runnable.add(previous)
            runnable.discard(following)
            running[cpu] = following
            if known_from is None and all(c in running for c in cpus):
                known_from = time
        elif kind == "sched:sched_wakeup":
            match = WAKEUP.search(rest)
            if not match or not match.group(1).startswith(prefix):
                continue
            pid, target = int(match.group(2)), int(match.group(3))
            runnable.add(pid)
            if known_from is None:
                continue
            target_busy = running.get(target) != 0
            other_idle = any(running.get(c) == 0 for c in cpus if c != target)
            placement[(target_busy, other_idle)] += 1
    total = sum(idle_time.values())
    if not total:
        sys.exit("every CPU must switch at least once to know what runs where")
    print(f"{total:.3f} s with every CPU's state known, {len(cpus)} CPUs")
    for idle in sorted(idle_time):
        print(f"  {idle} idle: {100 * idle_time[idle] / total:5.1f}% of the time")
    print(f"  a CPU idle while a {prefix}* thread is runnable: "
          f"{100 * idle_with_runnable / total:5.1f}% of the time")
    wakeups = sum(placement.values())
    print(f"{wakeups} wake-ups of {prefix}* threads:")
    for (target_busy, other_idle), count in sorted(placement.items(), key=lambda x: -x[1]):
        where = "to a busy CPU" if target_busy else "to an idle CPU"
        other = "another idle" if other_idle else "no other idle"
        print(f"  {where}, {other}: {100 * count / wakeups:5.1f}%")


if __name__ == "__main__":
    main()
