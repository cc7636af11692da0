#!/usr/bin/env python3
"""The device's synced sequential write rate over a long run, per 0.1 s.

The raw device figures of docs/performance-notes.md, "The device" (the virtual disk's rate moving
with what else writes). Writes KIB-sized blocks, each followed by fdatasync, through a file of MIB
megabytes that it first pre-writes (as active logs are), and prints the whole run's MB/s and each
0.1 s's:

    device-synced-writes.py DIR KIB MIB     # e.g. DIR 1860 1024: 1.8 MiB per sync, 1 GiB

With a fourth argument, that many processes copy memory (32 MiB buffers, over and over) or, with a
fifth argument `spin`, only spin, for the whole run, loading the machine as the committers do
(docs/performance-notes.md, "The device": on this virtual disk the synced writes lose 15-40% while
both vCPUs are busy, copying memory a little more than spinning).
With `switch`, that many pairs of processes hand a byte back and forth through two pipes instead:
each blocks and wakes the other, as 64 committers parking in MQCMIT do ("The device": 0.74-0.93 of
the unloaded rate at 24 KiB per sync). With a sixth argument `fifo`, the writing process runs at
SCHED_FIFO priority 10 (root, CAP_SYS_NICE or RLIMIT_RTPRIO), as a real-time logger would:

    device-synced-writes.py DIR 24 256 4 switch          # 4 switching pairs
    device-synced-writes.py DIR 24 256 4 switch fifo     # the same, the writer at SCHED_FIFO
    device-synced-writes.py DIR 24 256 0 none fifo       # no load, the writer at SCHED_FIFO
"""

import multiprocessing
import os
import sys
import time

import prewritten


def load(kind, stop):
    if kind == "switch":
        switch(stop)
        return
    if kind != "copy":
        while not stop.is_set():
            pass
        return
    source, target = bytearray(32 << 20), bytearray(32 << 20)
    while not stop.is_set():
        target[:] = source


def switch(stop):
    """Two processes handing one byte back and forth through a pipe each way, until `stop`."""
    to_child, from_parent = os.pipe()
    to_parent, from_child = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            while os.read(to_child, 1) == b"x":
                os.write(from_child, b"x")
        finally:
            os._exit(0)
    while not stop.is_set():
        os.write(from_parent, b"x")
        os.read(to_parent, 1)
    os.write(from_parent, b"q")
    os.waitpid(child, 0)


def main():
    directory, kib, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    loaders = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    kind = sys.argv[5] if len(sys.argv) > 5 else "copy"
    stop = multiprocessing.Event()
    workers = [multiprocessing.Process(target=load, args=(kind, stop)) for _ in range(loaders)]
    for worker in workers:
        worker.start()
    if len(sys.argv) > 6 and sys.argv[6] == "fifo":
        # After the loaders started: a forked loader would inherit the policy.
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    try:
        run(directory, kib, mib)
    finally:
        stop.set()
        for worker in workers:
            worker.join()


def run(directory, kib, mib):
    size, total = kib * 1024, mib << 20
    path = os.path.join(directory, "device-synced-writes.dat")
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        prewritten.prewrite(fd, total)
        block = os.urandom(size)
        offset, marks = 0, []
        started = last = time.perf_counter()
        last_offset = 0
        while offset + size <= total:
            os.pwrite(fd, block, offset)
            os.fdatasync(fd)
            offset += size
            now = time.perf_counter()
            if now - last >= 0.1:
                marks.append(round((offset - last_offset) / (now - last) / 1e6))
                last, last_offset = now, offset
        elapsed = time.perf_counter() - started
        print(f"{kib} KiB per sync, {mib} MiB: {offset / elapsed / 1e6:.0f} MB/s over "
              f"{elapsed:.2f} s; per 0.1 s: {marks}")
    finally:
        os.close(fd)
        os.remove(path)


if __name__ == "__main__":
    main()
