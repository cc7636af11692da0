#!/usr/bin/env python3
"""Synced writes striped over several files on one device, against one file.

docs/performance-notes.md, "The log's write cycle": MQ for z/OS raises its log rate for messages of
64 KB and more by striping the active logs over several volumes (MP16: "up to 50% higher"). Whether
this device has parallelism to give: each round writes KIB KiB and makes it durable, either as one
write + fdatasync, or split into STRIPES equal parts written + fdatasync'd by STRIPES threads at
once (one file each, as a striped active log would), alternating the two ways ROUNDS times:

    striped-synced-writes.py DIR KIB ROUNDS STRIPES[,STRIPES...]   # e.g. DIR 4096 100 1,2,4

The files (1 GiB each, pre-written once) are left in DIR for the next run; delete them after.
"""

import os
import sys
import threading
import time

import prewritten

FILE_BYTES = 1 << 30


def open_prewritten(directory, index):
    path = os.path.join(directory, f"striped-{index}.dat")
    prewritten.ensure(path, FILE_BYTES)
    return os.open(path, os.O_RDWR)


def run(files, block, stripes, rounds, start):
    """MB/s of `rounds` rounds of `block` made durable over `stripes` files."""
    part = len(block) // stripes
    pieces = [block[i * part:(i + 1) * part] for i in range(stripes)]
    offset = start
    began = time.perf_counter()
    for _ in range(rounds):
        at = offset % (FILE_BYTES - part)
        if stripes == 1:
            os.pwrite(files[0], block, at)
            os.fdatasync(files[0])
        else:
            def write(index):
                os.pwrite(files[index], pieces[index], at)
                os.fdatasync(files[index])
            threads = [threading.Thread(target=write, args=(i,)) for i in range(stripes)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        offset += part
    return rounds * part * stripes / (time.perf_counter() - began) / 1e6


def main():
    directory, kib, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    counts = [int(count) for count in sys.argv[4].split(",")]
    files = [open_prewritten(directory, index) for index in range(max(counts))]
    block = os.urandom(kib * 1024)
    start = 0
    for alternation in range(3):
        figures = [f"{count} stripes {run(files, block, count, rounds, start):.0f} MB/s"
                   for count in counts]
        start += rounds * len(block)
        print(f"{kib} KiB per round, alternation {alternation + 1}: " + ", ".join(figures))


if __name__ == "__main__":
    main()
