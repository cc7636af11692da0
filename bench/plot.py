#!/usr/bin/env python3
"""Plots and a summary table from one benchmark run's JSON lines.

    python bench/plot.py RESULTS.jsonl OUTPUT_DIRECTORY

RESULTS.jsonl holds ferrite-bench's lines (system "ferrite (in-process)") and the JMS load
generator's (system "ferrite", "rabbitmq", "artemis"; bench "jms-stream", "jms-request-reply",
or "jms" with status "not available"). The network path's cells (bench "network", with "cell"
and "quantity": rate, cpu_us_per_op, ctxsw_per_op, ...) come from both: the brokers' JMS cells,
Ferrite's Rust client (system "ferrite-client") and the loopback echo (system "loopback").
Writes into OUTPUT_DIRECTORY:

- request-reply-throughput.png, request-reply-latency.png: transactions/s and round-trip
  latency against the number of requesters, non-persistent 1 KB and persistent 1 KB / 10 KB,
  one line per system (and Ferrite in-process where the local matrix has the same shape);
- stream-throughput.png, stream-latency.png: one-way streaming (4 putters + 4 getters, commit
  per message) msgs/s and put-to-get latency against message size, with MQ's published figures;
- local-request-reply-matrix.png: Ferrite in-process against MQ's published table;
- summary.md: every JMS cell side by side, with the ratios to this run's physical limits, and
  the network cells' broker CPU and context switches per operation.

Needs matplotlib (scripts/bench installs it in a venv). Only the standard library otherwise.
"""

import json
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

SYSTEMS = ["ferrite", "ferrite (in-process)", "ferrite-client", "rabbitmq", "artemis"]
BROKERS = ("ferrite", "rabbitmq", "artemis")
STYLE = {
    "ferrite-client": dict(color="#b7410e", marker="v", linestyle="-."),
    "ferrite": dict(color="#b7410e", marker="o"),
    "ferrite (in-process)": dict(color="#b7410e", marker="s", linestyle="--"),
    "rabbitmq": dict(color="#ff6600", marker="^"),
    "artemis": dict(color="#1f77b4", marker="D"),
    "MQ (published)": dict(color="#444444", marker="x", linestyle=":"),
}


def load(path):
    rows = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as error:
                sys.exit(f"{path}:{number}: not a JSON line ({error}); was the run interrupted?")
    return rows


def metric_is(row, suffix):
    return row.get("metric", "").endswith(suffix)


def is_jms(row, kind):
    """A JMS cell of workload kind "request-reply" or "stream": the older cells or the network ones."""
    if row.get("bench") == f"jms-{kind}":
        return True
    return (row.get("bench") == "network" and row.get("system") in BROKERS
            and str(row.get("workload", "")).startswith(kind))


def limits(rows):
    """This run's physical limits, by the metric names ferrite-bench writes."""
    found = {}
    for row in rows:
        if row.get("bench") != "physical":
            continue
        metric = row["metric"]
        if metric == "loopback TCP round trip p50 (1,000 B each way)":
            found["loopback_p50_us"] = row["value"]
        elif metric == "loopback TCP round trips (1,000 B each way, 1 client)":
            found["loopback_rate"] = row["value"]
        elif metric == "4K write+fdatasync rate (pre-written file)":
            found["sync_rate"] = row["value"]
        elif metric == "4K write+fdatasync p50 (pre-written file)":
            found["sync_p50_us"] = row["value"]
        elif metric == "synced sequential write 512K+fdatasync (pre-written file)":
            found["sequential_mb_s"] = row["value"]
    return found


def in_process(rows, cell):
    """Ferrite's in-process figure (ferrite-bench) for the same shape as a JMS cell, or None."""
    for row in rows:
        bench = row.get("bench")
        if cell["bench"] == "jms-request-reply" and row.get("unit") == "tx/s":
            same = (row.get("repliers") == cell.get("repliers") and row.get("requesters") == cell.get("requesters"))
            if cell.get("persistent") and bench == "request-reply-persistent" and same \
                    and row.get("size") == cell.get("size"):
                return row["value"]
            if not cell.get("persistent") and bench == "request-reply-matrix" and same and row.get("pairs") == 1:
                return row["value"]
        if (cell["bench"] == "jms-stream" and not cell.get("persistent") and bench == "single-queue"
                and row.get("unit") == "msgs/s" and row["metric"].startswith(f"{cell.get('size')} B ")):
            return row["value"]
    return None


def request_reply_series(rows, persistent, size, unit_suffix):
    """{system: [(requesters, value)]} for JMS request/reply with 4 repliers."""
    series = defaultdict(list)
    for row in rows:
        if not is_jms(row, "request-reply") or row.get("value") is None:
            continue
        sizes = (size, 1024) if size == 1000 else (size,)  # the network cells are 1 KiB
        if row.get("persistent") != persistent or row.get("size") not in sizes or row.get("repliers") != 4:
            continue
        if metric_is(row, unit_suffix):
            series[row["system"]].append((row["requesters"], row["value"]))
    if not persistent and size == 1000 and unit_suffix == "transactions/s":
        for row in rows:  # Ferrite's Rust client, the network cells' shapes
            if (row.get("bench") == "network" and row.get("system") == "ferrite-client"
                    and row.get("quantity") == "rate" and row.get("repliers") == 4):
                series["ferrite-client"].append((row["requesters"], row["value"]))
    if persistent:
        for row in rows:  # Ferrite in-process, the same shapes
            if (row.get("bench") == "request-reply-persistent" and row.get("repliers") == 4
                    and row.get("size") == size and metric_is(row, unit_suffix)):
                series["ferrite (in-process)"].append((row["requesters"], row["value"]))
    if not persistent and size == 1000:
        for row in rows:  # Ferrite in-process, MP16's 1 pair x 4 repliers shapes
            if row.get("bench") != "request-reply-matrix" or row.get("pairs") != 1 or row.get("repliers") != 4:
                continue
            if metric_is(row, unit_suffix):
                series["ferrite (in-process)"].append((row["requesters"], row["value"]))
            if unit_suffix == "transactions/s" and metric_is(row, "transactions/s") and row.get("reference_value"):
                series["MQ (published)"].append((row["requesters"], row["reference_value"]))
    return {name: sorted(points) for name, points in series.items()}


def stream_series(rows, persistent, suffix):
    series = defaultdict(list)
    for row in rows:
        if is_jms(row, "stream") and row.get("persistent") == persistent and metric_is(row, suffix):
            if row.get("value") is not None:
                series[row["system"]].append((row["size"], row["value"]))
            if suffix == "msgs/s" and row.get("reference_value") and row["system"] != "ferrite":
                series["MQ (published)"].append((row["size"], row["reference_value"]))
        if (not persistent and suffix == "msgs/s" and row.get("bench") == "single-queue"
                and row.get("unit") == "msgs/s"):
            size = int(row["metric"].split(" ")[0])
            series["ferrite (in-process)"].append((size, row["value"]))
    return {name: sorted(set(points)) for name, points in series.items()}


def draw(axis, series, title, xlabel, ylabel, log_x=0, log_y=True):
    """One panel: a line per system; log_x is the x axis' log base (0: linear)."""
    for name in SYSTEMS + ["MQ (published)"]:
        points = series.get(name)
        if not points:
            continue
        xs, ys = zip(*points)
        axis.plot(xs, ys, label=name, **STYLE[name])
    axis.set_title(title, fontsize=10)
    axis.set_xlabel(xlabel)
    axis.set_ylabel(ylabel)
    if log_x:
        axis.set_xscale("log", base=log_x)
        axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:,.0f}"))
        axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    if not axis.lines:
        axis.text(0.5, 0.5, "no figures in this run", ha="center", va="center", transform=axis.transAxes)
    elif log_y:
        axis.set_yscale("log")
        axis.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:,.0f}"))
        axis.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.grid(True, which="both", alpha=0.3)
    if axis.get_legend_handles_labels()[0]:
        axis.legend(fontsize=8)


def request_reply_plots(rows, output, run_label):
    panels = [(False, 1000, "non-persistent 1 KB"), (True, 1000, "persistent 1 KB, commit/put+get"),
              (True, 10000, "persistent 10 KB, commit/put+get")]
    for suffix, ylabel, name in [("transactions/s", "transactions/s", "request-reply-throughput.png"),
                                 ("round trip p50", "round trip p50 (µs)", "request-reply-latency.png")]:
        figure, axes = plt.subplots(1, 3, figsize=(15, 4.5))
        for axis, (persistent, size, title) in zip(axes, panels):
            draw(axis, request_reply_series(rows, persistent, size, suffix),
                 f"{title}, 4 repliers", "requesters", ylabel, log_x=2)
        figure.suptitle(f"Request/reply through JMS on 127.0.0.1, common server queue ({run_label})", fontsize=11)
        figure.tight_layout()
        figure.savefig(output / name, dpi=110)
        plt.close(figure)


def stream_plots(rows, output, run_label):
    for suffix, ylabel, name in [("msgs/s", "messages/s", "stream-throughput.png"),
                                 ("put-to-get latency p50", "put-to-get p50 (µs)", "stream-latency.png")]:
        figure, axes = plt.subplots(1, 2, figsize=(11, 4.5))
        for axis, persistent in zip(axes, [False, True]):
            draw(axis, stream_series(rows, persistent, suffix),
                 f"4 putters + 4 getters, commit/msg, {'persistent' if persistent else 'non-persistent'}",
                 "message size (bytes)", ylabel, log_x=10)
        figure.suptitle(f"One-way streaming through JMS on 127.0.0.1 ({run_label})", fontsize=11)
        figure.tight_layout()
        figure.savefig(output / name, dpi=110)
        plt.close(figure)


def matrix_plot(rows, output, run_label):
    shapes = [row for row in rows if row.get("bench") == "request-reply-matrix" and row.get("unit") == "tx/s"]
    if not shapes:
        return
    labels = [f"{int(r['pairs'])}x{int(r['repliers'])}x{int(r['requesters'])}" for r in shapes]
    ours = [r["value"] for r in shapes]
    theirs = [r.get("reference_value") or 0 for r in shapes]
    figure, axis = plt.subplots(figsize=(10, 4.5))
    positions = range(len(shapes))
    axis.bar([p - 0.2 for p in positions], ours, width=0.4, label="Ferrite in-process (this machine, 2 vCPUs)",
             color=STYLE["ferrite"]["color"])
    axis.bar([p + 0.2 for p in positions], theirs, width=0.4, label="MQ 9.3 z/OS (MP16 L7846-7862)", color="#888888")
    axis.set_xticks(list(positions))
    axis.set_xticklabels(labels)
    axis.set_xlabel("queue pairs x repliers/pair x requesters/pair")
    axis.set_ylabel("transactions/s")
    axis.set_title(f"MP16 local request/reply, 1,000 B non-persistent ({run_label})", fontsize=10)
    axis.legend(fontsize=8)
    axis.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(output / "local-request-reply-matrix.png", dpi=110)
    plt.close(figure)


def fmt(value):
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:.1f}"
    return f"{value:.3f}"


def summary(rows, found):
    """Markdown: every JMS cell, each system's figure, and ratios within this run."""
    lines = []
    unavailable = [r for r in rows if r.get("status") == "not available"]
    for row in unavailable:
        lines.append(f"- **{row['system']}: not available** ({row.get('reason', '')[:160]}…)")
    if found:
        lines.append("- Limits measured in this run: " + ", ".join(f"{k} = {fmt(v)}" for k, v in sorted(found.items())))
    lines.append("")
    cells = defaultdict(dict)
    references = {}
    order = []
    for row in rows:
        if not (is_jms(row, "stream") or is_jms(row, "request-reply")) or row.get("unit") not in ("msgs/s", "tx/s"):
            continue
        key = row["metric"]
        if key not in cells:
            order.append(key)
        cells[key][row["system"]] = row["value"]
        latency_key = key.replace(": msgs/s", ": put-to-get latency p50").replace(": transactions/s", ": round trip p50")
        for other in rows:
            if other.get("metric") == latency_key and other.get("system") == row["system"]:
                cells[key][row["system"] + " p50"] = other["value"]
        cells[key]["persistent"] = row.get("persistent")
        cells[key]["bench"] = "jms-request-reply" if is_jms(row, "request-reply") else "jms-stream"
        cells[key]["in-process"] = in_process(rows, row)
        if row.get("reference_value"):
            references[key] = row["reference_value"]
    lines.append("| Workload (JMS, 127.0.0.1) | Ferrite | RabbitMQ | Artemis | Ferrite/RabbitMQ | Ferrite/Artemis "
                 "| best / limit | MQ published | best / MQ | Ferrite in-process (same shape) | in-process / best peer |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for key in order:
        cell = cells[key]
        ferrite, rabbit, artemis = cell.get("ferrite"), cell.get("rabbitmq"), cell.get("artemis")
        best = max([v for v in (ferrite, rabbit, artemis) if v is not None], default=None)
        peer = max([v for v in (rabbit, artemis) if v is not None], default=None)
        limit_text = "—"
        if best is not None:
            if cell["persistent"] and found.get("sync_rate"):
                limit_text = f"{best / found['sync_rate']:.3f} of 4K syncs/s"
            elif cell["bench"] == "jms-request-reply" and found.get("loopback_rate"):
                limit_text = f"{best / found['loopback_rate']:.3f} of loopback RTs/s"
        def with_latency(system):
            value = cell.get(system)
            if value is None:
                return "—"
            p50 = cell.get(system + " p50")
            return f"{fmt(value)} (p50 {fmt(p50)} µs)" if p50 is not None else fmt(value)
        mq = references.get(key)
        lines.append(
            f"| {key} | {with_latency('ferrite')} | {with_latency('rabbitmq')} | {with_latency('artemis')} "
            f"| {fmt(ferrite / rabbit) if ferrite and rabbit else '—'} | {fmt(ferrite / artemis) if ferrite and artemis else '—'} "
            f"| {limit_text} | {fmt(mq)} | {fmt(best / mq) if best and mq else '—'} "
            f"| {fmt(cell['in-process'])} | {fmt(cell['in-process'] / peer) if cell['in-process'] and peer else '—'} |")
    lines.extend(network_usage(rows))
    return "\n".join(lines) + "\n"


def network_usage(rows):
    """Markdown: the network cells' throughput, broker CPU and context switches per operation."""
    figures = defaultdict(dict)
    order = []
    for row in rows:
        if row.get("bench") != "network" or row.get("cell") is None or row.get("value") is None:
            continue
        if row.get("quantity") not in ("rate", "cpu_us_per_op", "ctxsw_per_op"):
            continue
        if row["cell"] not in order:
            order.append(row["cell"])
        figures[row["cell"]][(row["system"], row["quantity"])] = row["value"]
    if not order:
        return []
    systems = ["ferrite", "rabbitmq", "artemis", "ferrite-client", "loopback"]
    lines = ["", "Network path: throughput / broker (queue manager) CPU µs per op / context switches per op", "",
             "| Cell | " + " | ".join(systems) + " |", "|---|" + "---|" * len(systems)]
    for cell in order:
        def triple(system):
            values = [figures[cell].get((system, q)) for q in ("rate", "cpu_us_per_op", "ctxsw_per_op")]
            return "—" if values[0] is None else " / ".join(fmt(v) for v in values)
        lines.append(f"| {cell} | " + " | ".join(triple(system) for system in systems) + " |")
    return lines


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py RESULTS.jsonl OUTPUT_DIRECTORY")
    rows = load(sys.argv[1])
    if not rows:
        sys.exit(f"{sys.argv[1]}: no result lines")
    output = Path(sys.argv[2])
    output.mkdir(parents=True, exist_ok=True)
    runs = sorted({row.get("run", "?") for row in rows})
    modes = sorted({row.get("mode", "?") for row in rows})
    run_label = f"run {', '.join(runs)}, {'/'.join(modes)}"
    found = limits(rows)
    request_reply_plots(rows, output, run_label)
    stream_plots(rows, output, run_label)
    matrix_plot(rows, output, run_label)
    text = f"# Benchmark summary ({run_label})\n\n" + summary(rows, found)
    (output / "summary.md").write_text(text, encoding="utf-8")
    print(text)
    print(f"plots and summary.md written to {output}/")


if __name__ == "__main__":
    main()
