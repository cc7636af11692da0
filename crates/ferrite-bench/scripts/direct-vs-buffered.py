#!/usr/bin/env python3
"""O_DIRECT against buffered writes at a log write cycle's size (docs/performance-notes.md,
"The log's write cycle").

A write cycle of the logger writes KIB of log in I/Os of at most 512 KiB (MQ's 128 pages),
then makes them durable with one fdatasync. This times that pattern on one pre-written 1 GiB
file in DIR, buffered (write into the page cache, the fdatasync writes back and flushes) and
with O_DIRECT (each write returns when the device has it, the fdatasync only flushes),
alternating three times, and prints MB/s of each and their ratio.

    direct-vs-buffered.py DIR KIB ROUNDS    # e.g. DIR 24 2000 (1 KiB committers), DIR 4096 100
"""

import mmap
import os
import sys
import time

import prewritten

FILE_BYTES = 1 << 30
IO_BYTES_MAX = 512 * 1024


def run(path, buffer, per_sync, rounds, direct):
    fd = os.open(path, os.O_WRONLY | (os.O_DIRECT if direct else 0))
    offset = 0
    started = time.perf_counter()
    for _ in range(rounds):
        done = 0
        while done < per_sync:
            count = min(IO_BYTES_MAX, per_sync - done)
            os.pwrite(fd, memoryview(buffer)[:count], offset)
            offset = (offset + count) % FILE_BYTES
            done += count
        os.fdatasync(fd)
    elapsed = time.perf_counter() - started
    os.close(fd)
    return rounds * per_sync / elapsed / 1e6


def main():
    directory, kib, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    path = os.path.join(directory, "direct-vs-buffered.dat")
    prewritten.ensure(path, FILE_BYTES)
    per_sync = kib * 1024
    # An anonymous mapping is page aligned, as O_DIRECT needs.
    buffer = mmap.mmap(-1, min(per_sync, IO_BYTES_MAX))
    buffer.write(b"\x33" * len(buffer))
    for _ in range(3):
        buffered = run(path, buffer, per_sync, rounds, False)
        direct = run(path, buffer, per_sync, rounds, True)
        print(
            f"{kib} KiB per sync: buffered {buffered:.0f} MB/s, direct {direct:.0f} MB/s, "
            f"direct/buffered {direct / buffered:.2f}",
            flush=True,
        )
    os.unlink(path)


if __name__ == "__main__":
    main()
