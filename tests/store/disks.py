"""A small, real file system that fills up: a tmpfs mounted for one test.

Full-disk tests need the disk itself to say ENOSPC (SQLite's write-ahead log must fail as it
does in production), which a page-count limit would not show. Mounting takes root, which the
project's test environment has (make test installs packages with apt-get); elsewhere the tests
fail with what to do, never skip.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def small_disk(mountpoint: Path, size: str = "8m") -> Iterator[Path]:
    mountpoint.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(mountpoint)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if mounted.returncode != 0:
        pytest.fail(
            "the full-disk tests mount a small tmpfs and need root (or CAP_SYS_ADMIN): "
            f"run them as root. mount said: {mounted.stderr.strip()}",
            pytrace=False,
        )
    try:
        yield mountpoint
    finally:
        subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True, timeout=30)


def fill(folder: Path) -> Path:
    """Write a filler file until the file system has no byte left; return it."""
    filler = folder / "filler"
    block = b"\0" * 4096
    with contextlib.suppress(OSError), filler.open("wb", buffering=0) as out:
        while True:
            out.write(block)
    with contextlib.suppress(OSError), filler.open("ab", buffering=0) as out:
        for _ in range(4096):  # the last partial block
            out.write(b"\0")
    return filler


def free_bytes(folder: Path) -> int:
    stat = os.statvfs(folder)
    return stat.f_bavail * stat.f_frsize
