#!/usr/bin/env bash
# Run a ferrite-bench command and sample, every SAMPLE_SECONDS (default 0.25), the scheduler
# statistics of each log writer thread it starts (threads named ferrite-logger: one per queue
# manager, so one per benchmark window). docs/performance-notes.md, "The scheduler": the logger
# waits for a CPU.
#
# Usage: logger-schedstat.sh OUT COMMAND [ARGS...]
#   e.g. logger-schedstat.sh run1 target/release/ferrite-bench commit --quick --dir /tmp/bench
# Writes the command's output to OUT.txt and the samples to OUT.sched; read them with
# logger-runqueue.py OUT.
# POLICY, if set, is run once on each new logger thread id (POLICY="chrt -f -p 1": real-time
# priority; POLICY="renice -n -10 -p": nice), as in the priority experiments of
# docs/performance-notes.md, "Group commit".
#
# OUT.sched, one line per sample (times in ns, as /proc/<pid>/task/<tid>/schedstat gives them):
#   <unix time> <tid> <run ns> <run-queue wait ns> <time slices> <voluntary switches> <involuntary switches>
# and after each round of samples:
#   <unix time> MARK <lines of OUT.txt holding "log: forces=">
# A logger thread's window is the "log: forces=" line printed after it ends (the bench prints a
# window's log statistics once its queue manager has stopped), which the MARK count at the
# thread's last sample indexes from 0.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 OUT COMMAND [ARGS...]" >&2
    exit 2
fi
out=$1
shift
interval=${SAMPLE_SECONDS:-0.25}

"$@" >"$out.txt" 2>&1 &
pid=$!
declare -A seen
while kill -0 "$pid" 2>/dev/null; do
    now=$(date +%s.%N)
    for task in /proc/"$pid"/task/*; do
        [ "$(cat "$task/comm" 2>/dev/null)" = ferrite-logger ] || continue
        tid=$(basename "$task")
        if [ -n "${POLICY:-}" ] && [ -z "${seen[$tid]:-}" ]; then
            # shellcheck disable=SC2086 # POLICY is a command with its arguments.
            $POLICY "$tid" >/dev/null 2>&1 || echo "$0: '$POLICY $tid' failed" >&2
        fi
        seen[$tid]=1
        stat=$(cat "$task/schedstat" 2>/dev/null) || continue
        switches=$(awk '/ctxt_switches/ {printf "%s ", $2}' "$task/status" 2>/dev/null) || continue
        echo "$now $tid $stat $switches"
    done
    echo "$now MARK $(grep -c 'log: forces=' "$out.txt" || true)"
    sleep "$interval"
done >"$out.sched"
wait "$pid"
