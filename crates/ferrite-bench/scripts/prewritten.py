"""Pre-written files for the device scripts beside this one.

Every block of a file is written and synced before anything is timed, as Ferrite formats its
active logs and page sets (and MQ's CSQ4LFMT its logs): a timed write then never allocates
blocks or converts unwritten extents. Imported by the scripts (their directory is on
`sys.path` when they run).
"""

import os

CHUNK_BYTES = 4 << 20


def prewrite(fd, size):
    """Write zeros over `fd`'s first `size` bytes (in whole chunks) and fsync it."""
    zeros = b"\0" * CHUNK_BYTES
    for offset in range(0, size, CHUNK_BYTES):
        os.pwrite(fd, zeros, offset)
    os.fsync(fd)


def ensure(path, size):
    """Create `path` pre-written to at least `size` bytes, unless it already is that long
    (the file is kept between runs)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if os.fstat(fd).st_size < size:
            prewrite(fd, size)
    finally:
        os.close(fd)
