"""Logs that keep capabilities out: a storage id is the read capability of a stored
checkpoint, and deletion and upload tokens travel in headers and forms, so neither is
written to the access log or to our own messages."""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

# /c/{id}…, /api/v1/checkpoints/{id}, and every query string (?from=ID&to=ID names two).
_CAPABILITY_PATH = re.compile(r"^(/c/|/api/v1/checkpoints/)[^/?#.]+")


def loggable_path(path: str) -> str:
    """``path`` with its storage id and its query replaced by "…"."""
    path, query_mark, _ = path.partition("?")
    path = _CAPABILITY_PATH.sub(r"\1…", path)
    return path + ("?…" if query_mark else "")


class CapabilityFilter(logging.Filter):
    """Rewrites the path of uvicorn's access-log records: (client, method, path, http, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], loggable_path(args[2]), args[3], args[4])
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration, with the access log passed through CapabilityFilter."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["capabilities"] = {"()": CapabilityFilter}
    config["handlers"]["access"].setdefault("filters", []).append("capabilities")
    return config
