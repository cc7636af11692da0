#!/usr/bin/env python3
"""What a write cycle's second region costs the device (docs/performance-notes.md,
"The log's write cycle").

A logger write cycle writes its full pages in place and its partial last page to a ping-pong
slot past the end of the active log's data, then makes both durable with one fdatasync. This
times four patterns per fdatasync, interleaved round by round so the disk's drift hits all of
them alike, on one pre-written file in DIR:

  contiguous   KIB + 4 KiB in one write (the same bytes, one region)
  far slot     KIB in place, then 4 KiB at the end of the file (the log's pattern)
  near gap     KIB in place, then 4 KiB one page past its end (a second region close by)
  slot first   the far slot written and its writeback started (sync_file_range), then KIB

    log-write-pattern.py DIR KIB ROUNDS     # e.g. DIR 20 2000: the 1 KiB committers' cycle
"""

import ctypes
import os
import sys
import time

import prewritten

SYNC_FILE_RANGE_WRITE = 2


def main():
    directory, kib, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sync_file_range.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_uint]
    in_place = kib * 1024
    patterns = ["contiguous", "far slot", "near gap", "slot first"]
    # Each pattern writes through its own quarter of the data area; the slots follow it.
    quarter = (rounds * (in_place + 8192) + 4095) // 4096 * 4096
    data = 4 * quarter
    slots = data + (1 << 20)
    path = os.path.join(directory, "log-write-pattern.dat")
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        prewritten.prewrite(fd, slots + (4 << 20))
        block = os.urandom(in_place + 4096)
        page = block[:4096]
        times = {name: [] for name in patterns}
        for index in range(rounds):
            slot = slots + (index % 2) * 8192
            for number, name in enumerate(patterns):
                base = number * quarter + index * in_place
                started = time.perf_counter()
                if name == "contiguous":
                    os.pwrite(fd, block, base)
                elif name == "far slot":
                    os.pwrite(fd, block[:in_place], base)
                    os.pwrite(fd, page, slot)
                elif name == "near gap":
                    os.pwrite(fd, block[:in_place], base)
                    os.pwrite(fd, page, base + in_place + 4096)
                else:
                    os.pwrite(fd, page, slot)
                    if libc.sync_file_range(fd, slot, 4096, SYNC_FILE_RANGE_WRITE) != 0:
                        raise OSError(ctypes.get_errno(), "sync_file_range")
                    os.pwrite(fd, block[:in_place], base)
                os.fdatasync(fd)
                times[name].append(time.perf_counter() - started)
        for name in patterns:
            values = sorted(times[name])
            print(f"{kib} KiB + 4 KiB, {name:>10}: p50 {values[len(values) // 2] * 1e6:7.1f} us, "
                  f"mean {sum(values) / len(values) * 1e6:7.1f} us")
    finally:
        os.close(fd)
        os.remove(path)


if __name__ == "__main__":
    main()
