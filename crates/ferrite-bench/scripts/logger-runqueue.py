#!/usr/bin/env python3
"""The log writer threads' CPU time and run-queue wait, from logger-schedstat.sh's samples.

Usage: logger-runqueue.py OUT [OUT...]
    reads OUT.sched (and OUT.txt, the bench's output, when present)

One line per logger thread (one per queue manager, so one per benchmark window), from its first to
its last sample: how long it ran on a CPU and how long it waited on the run queue, runnable but not
running (docs/performance-notes.md, "The scheduler": 0.62-0.78 s of a 2.5 s window at the default
priority, 0.002-0.021 s at SCHED_RR 1), its time slices and its context switches.

With OUT.txt, each thread is named by its window (the "log: forces=" line the bench printed
after it: see logger-schedstat.sh) and, where the bench printed the window's per write cycle
breakdown, the wait is also given per write cycle and as a share of the mean cycle (writes +
sync + between cycles), e.g. "65 us per cycle at 1 KiB (25% of a 263 us cycle)". The wait
is the thread's whole life's (queue manager start and stop included) over the window's
cycles, so the per cycle figure is a slight overestimate.
"""

import os
import re
import sys
from collections import OrderedDict

LOG_LINE = re.compile(r"^\s*(.*?)\s*log: forces=\d+ .*?write cycles=(\d+)")
CYCLE_LINE = re.compile(
    r"per write cycle \(\d+ cycles, [\d.]+ KiB\): writes ([\d.]+) us, sync ([\d.]+) us, "
    r"between cycles ([\d.]+) us"
)
# A logger thread ending less than this after it started ran no window worth reporting.
SPAN_SECONDS_MIN = 1.0


def windows(output_path):
    """The bench's windows in print order: (name, write cycles, mean cycle us or None)."""
    found = []
    heading = ""
    with open(output_path) as output:
        for line in output:
            log = LOG_LINE.match(line)
            if log:
                name = log.group(1).rstrip(",:") or heading
                found.append([name, int(log.group(2)), None])
                continue
            cycle = CYCLE_LINE.search(line)
            if cycle and found and found[-1][2] is None:
                found[-1][2] = sum(float(part) for part in cycle.groups())
            elif line.startswith("  ") and not line.startswith("   ") and not line.startswith("  ->"):
                heading = line.strip().rstrip(" .")
    return found


def threads(samples_path):
    """Per logger thread id, in order of first appearance: (first sample, last sample, the
    MARK count at its last sample). A sample is (time s, run ns, wait ns, slices, voluntary,
    involuntary)."""
    rows = OrderedDict()
    mark = None
    with open(samples_path) as samples:
        for number, line in enumerate(samples, 1):
            fields = line.split()
            if len(fields) >= 2 and fields[1] == "MARK":
                # Samples from before the MARK count (it had two counts then) are not named.
                mark = int(fields[2]) if len(fields) == 3 else None
                continue
            if len(fields) != 7:
                sys.exit(f"{samples_path}:{number}: expected 7 fields, found {len(fields)}: {line!r}")
            sample = (float(fields[0]),) + tuple(int(field) for field in fields[2:])
            first = rows[fields[1]][0] if fields[1] in rows else sample
            rows[fields[1]] = (first, sample, mark)
    return rows


def report(out):
    samples_path = out + ".sched"
    output_path = out + ".txt"
    found = windows(output_path) if os.path.exists(output_path) else []
    print(f"== {samples_path}")
    for tid, (first, last, mark) in threads(samples_path).items():
        span = last[0] - first[0]
        if span < SPAN_SECONDS_MIN:
            continue
        run, wait = (last[1] - first[1]) / 1e9, (last[2] - first[2]) / 1e9
        slices, voluntary, involuntary = (last[i] - first[i] for i in (3, 4, 5))
        line = (
            f"{tid}: span {span:.2f} s, ran {run:.3f} s, run-queue wait {wait:.3f} s, "
            f"{slices} slices, switches {voluntary} voluntary / {involuntary} involuntary"
        )
        if mark is not None and mark < len(found):
            name, cycles, cycle_us = found[mark]
            line += f"; window '{name}'"
            if cycles:
                per_cycle = wait * 1e6 / cycles
                line += f": {per_cycle:.0f} us wait per write cycle ({cycles} cycles)"
                if cycle_us:
                    line += f", {100 * per_cycle / cycle_us:.0f}% of a {cycle_us:.0f} us cycle"
        print(line)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(f"usage: {sys.argv[0]} OUT [OUT...]  (reads OUT.sched and OUT.txt)")
    for out in sys.argv[1:]:
        report(out.removesuffix(".sched"))
