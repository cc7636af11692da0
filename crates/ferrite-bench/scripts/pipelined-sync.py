#!/usr/bin/env python3
"""Serial against pipelined write cycles on the device alone (docs/performance-notes.md,
"The log's write cycle").

Serial: each cycle writes KIB into the page cache (512 KiB writes) and fdatasyncs the file.
Pipelined: a second thread writes cycle N+1 while this one makes cycle N durable with
`sync_file_range(WAIT_BEFORE | WRITE | WAIT_AFTER)` over N's range only, then a device cache
flush through the fdatasync of another (clean) file on the same file system. Both over one
pre-written 1 GiB file in DIR, alternating three times; prints MB/s of each and their ratio.

    pipelined-sync.py DIR KIB ROUNDS    # e.g. DIR 4096 100, DIR 2048 150, DIR 384 400
"""

import ctypes
import os
import sys
import threading
import time

import prewritten

FILE_BYTES = 1 << 30
IO_BYTES_MAX = 512 * 1024
WAIT_BEFORE, WRITE, WAIT_AFTER = 1, 2, 4


def main():
    directory, kib, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
    path = os.path.join(directory, "pipelined-sync.dat")
    flush_path = os.path.join(directory, "pipelined-sync.flush")
    prewritten.ensure(path, FILE_BYTES)
    flush_fd = os.open(flush_path, os.O_CREAT | os.O_WRONLY, 0o644)
    os.write(flush_fd, b"x")
    os.fsync(flush_fd)
    per_sync = kib * 1024
    io_bytes = min(per_sync, IO_BYTES_MAX)
    data = b"\x33" * io_bytes

    def write_cycle(fd, offset):
        for index in range(per_sync // io_bytes):
            os.pwrite(fd, data, (offset + index * io_bytes) % FILE_BYTES)

    def serial():
        fd = os.open(path, os.O_WRONLY)
        started = time.perf_counter()
        for cycle in range(rounds):
            write_cycle(fd, cycle * per_sync)
            os.fdatasync(fd)
        elapsed = time.perf_counter() - started
        os.close(fd)
        return rounds * per_sync / elapsed / 1e6

    def pipelined():
        fd = os.open(path, os.O_WRONLY)
        written = [threading.Event() for _ in range(rounds)]

        def writer():
            for cycle in range(rounds):
                write_cycle(fd, cycle * per_sync)
                written[cycle].set()

        started = time.perf_counter()
        thread = threading.Thread(target=writer)
        thread.start()
        for cycle in range(rounds):
            written[cycle].wait()
            offset = (cycle * per_sync) % FILE_BYTES
            flags = WAIT_BEFORE | WRITE | WAIT_AFTER
            if libc.sync_file_range(fd, offset, per_sync, flags) != 0:
                raise OSError(ctypes.get_errno(), "sync_file_range")
            os.fdatasync(flush_fd)
        thread.join()
        elapsed = time.perf_counter() - started
        os.close(fd)
        return rounds * per_sync / elapsed / 1e6

    for _ in range(3):
        first, second = serial(), pipelined()
        print(
            f"{kib} KiB per sync: serial {first:.0f} MB/s, pipelined {second:.0f} MB/s, "
            f"ratio {second / first:.2f}",
            flush=True,
        )
    os.close(flush_fd)
    os.unlink(path)
    os.unlink(flush_path)


if __name__ == "__main__":
    main()
