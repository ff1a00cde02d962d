"""A few megabytes of disk held back beside the SQLite file, so a full disk can be emptied.

Deleting from SQLite in WAL mode appends the changed pages to the write-ahead log: on a disk
with no byte left, a DELETE fails like any other write, and nobody can free space through the
service. The store therefore keeps a reserve file of allocated (not sparse) blocks next to the
database. When a delete or the sweep finds the disk full, the store releases the reserve,
retries, gives the freed pages back to the file system (app/store/sqlite.py ``reclaim``), and
allocates the reserve again as soon as there is room. Uploads never release it.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os

log = logging.getLogger(__name__)

DEFAULT_RESERVE_BYTES = 2 * 1024 * 1024
_CHUNK = 64 * 1024


class DiskReserve:
    """The reserve file at ``path`` of ``size`` bytes (0: none kept)."""

    def __init__(self, path: str, size: int = DEFAULT_RESERVE_BYTES) -> None:
        if size < 0:
            raise ValueError("a disk reserve cannot be negative")
        self.path = path
        self.size = size

    @property
    def held(self) -> bool:
        """Whether the whole reserve is allocated (False also when none is kept)."""
        try:
            return self.size > 0 and os.path.getsize(self.path) >= self.size
        except OSError:
            return False

    @property
    def missing(self) -> bool:
        """A reserve is kept but not wholly allocated: the disk had no room for it."""
        return self.size > 0 and not self.held

    def ensure(self) -> bool:
        """Allocate the reserve if it is not held; False when the disk has no room for it
        (a full disk: the store reports itself full until it has)."""
        if self.size == 0 or self.held:
            return True
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                _allocate(fd, self.size)
            finally:
                os.close(fd)
            return True
        except OSError as exc:
            log.warning("no room for the store's disk reserve (%s): the disk is full", exc)
            self.release()
            return False

    def release(self) -> bool:
        """Give the reserve's blocks back to the file system; False when none were held."""
        had = os.path.exists(self.path)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        return had


def _allocate(fd: int, size: int) -> None:
    # posix_fallocate reserves real blocks (a sparse file would free nothing when deleted);
    # where the file system cannot, zeros are written.
    try:
        os.posix_fallocate(fd, 0, size)
        return
    except (AttributeError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno not in (None, errno.EOPNOTSUPP):
            raise
    os.lseek(fd, 0, os.SEEK_SET)
    zeros = bytes(_CHUNK)
    written = 0
    while written < size:
        written += os.write(fd, zeros[: min(_CHUNK, size - written)])
    os.fsync(fd)
