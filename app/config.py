"""Settings, read once from the environment (the table is in the README)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from app import TYPE_CHECKING
from app.parse import DEFAULT_LIMITS, MIB, Limits
from app.record import Record

if TYPE_CHECKING:
    from datetime import timedelta
    from typing import Final

DEFAULT_DATABASE_URL = "ocp-viewer.sqlite3"
# Stored checkpoints live 30 days at most (runtime-checkpoints-background.txt): a deployment
# may shorten the window, never lengthen it.
MAX_RETENTION_HOURS = 30 * 24
# Writes each client may make per minute, and bytes it may store per minute (0: no per-client
# limit), and the bytes of checkpoints the store keeps at most (app/store/limits.py).
DEFAULT_WRITE_RATE = 60
DEFAULT_WRITE_RATE_BYTES = 32 * MIB
DEFAULT_MAX_STORE_BYTES = 1024 * MIB


class ConfigError(ValueError):
    """A setting has a value the service cannot start with."""


class Settings(Record):
    __slots__ = (
        "body_timeout",
        "cors_origins",
        "database_url",
        "header_timeout",
        "keep_alive_timeout",
        "limits",
        "max_connections",
        "max_store_bytes",
        "public_url",
        "purge_interval",
        "retention_hours",
        "send_timeout",
        "store_pool_size",
        "store_timeout",
        "upload_tokens",
        "write_rate",
        "write_rate_bytes",
    )

    limits: Final[Limits]
    # Absolute URL the service is reachable at, for the links it hands out (permalinks, Open
    # Graph tags) and, in the CLI, SARIF helpUri and rule links in `ocp render`. None: the
    # service takes each request's own scheme, host and port; the CLI links nowhere.
    public_url: Final[str | None]
    # A file path or sqlite://PATH (the embedded default), or postgresql://… for several
    # instances sharing one database.
    database_url: Final[str]
    retention_hours: Final[int]  # how long a stored checkpoint is kept: `retention`
    store_timeout: Final[float]  # seconds to wait for the database before answering 503
    store_pool_size: Final[int]  # PostgreSQL connections per instance
    purge_interval: Final[float]  # seconds between sweeps of expired checkpoints
    body_timeout: Final[float]  # seconds a request body may take to arrive (408 after)
    # Seconds a client may take to send a request's line and headers, from when its connection
    # opens or from the request's first byte on a kept-alive one; a slower one is closed (a
    # slowloris holds nothing).
    header_timeout: Final[float]
    keep_alive_timeout: Final[int]  # seconds an idle kept-alive connection stays open
    # Seconds a client may leave its answer unread (the send buffer full) before it is cut off.
    send_timeout: Final[float]
    # Connections served at once; None: 1,000, or fewer when the file-descriptor limit leaves
    # room for fewer (app/web/server.py works it out when the service starts).
    max_connections: Final[int | None]
    # Bearer tokens that may store checkpoints; empty: anyone may (a public deployment).
    upload_tokens: Final[frozenset[str]]
    write_rate: Final[int]  # documents stored per client per minute; 0: no limit
    write_rate_bytes: Final[int]  # bytes per client per minute; 0: no limit
    max_store_bytes: Final[int]  # the store's quota: 507 once it is used
    # Origins whose browser scripts may read the read-only and lint endpoints (CORS,
    # app/web/cors.py), each scheme://host[:port], or "*" for any; empty: no CORS at all.
    cors_origins: Final[frozenset[str]]

    def __init__(
        self,
        limits: Limits = DEFAULT_LIMITS,
        public_url: str | None = None,
        database_url: str = DEFAULT_DATABASE_URL,
        retention_hours: int = MAX_RETENTION_HOURS,
        store_timeout: float = 5.0,
        store_pool_size: int = 10,
        purge_interval: float = 600.0,
        body_timeout: float = 30.0,
        header_timeout: float = 10.0,
        keep_alive_timeout: int = 5,
        send_timeout: float = 30.0,
        max_connections: int | None = None,
        upload_tokens: frozenset[str] = frozenset(),
        write_rate: int = DEFAULT_WRITE_RATE,
        write_rate_bytes: int = DEFAULT_WRITE_RATE_BYTES,
        max_store_bytes: int = DEFAULT_MAX_STORE_BYTES,
        cors_origins: frozenset[str] = frozenset(),
    ) -> None:
        self.limits = limits
        self.public_url = public_url
        self.database_url = database_url
        self.retention_hours = retention_hours
        self.store_timeout = store_timeout
        self.store_pool_size = store_pool_size
        self.purge_interval = purge_interval
        self.body_timeout = body_timeout
        self.header_timeout = header_timeout
        self.keep_alive_timeout = keep_alive_timeout
        self.send_timeout = send_timeout
        self.max_connections = max_connections
        self.upload_tokens = upload_tokens
        self.write_rate = write_rate
        self.write_rate_bytes = write_rate_bytes
        self.max_store_bytes = max_store_bytes
        self.cors_origins = cors_origins

    @property
    def retention(self) -> timedelta:
        """How long a stored checkpoint is kept (datetime imported by the store that asks:
        a linter's run never does)."""
        from datetime import timedelta

        return timedelta(hours=self.retention_hours)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        try:
            limits = Limits(
                max_bytes=_int(env, "OCP_MAX_BYTES", 5 * MIB),
                max_depth=_int(env, "OCP_MAX_DEPTH", 64),
            )
        except ValueError as exc:
            # the variables a user set, not the fields they fill
            named = str(exc).replace("max_bytes", "OCP_MAX_BYTES")
            raise ConfigError(named.replace("max_depth", "OCP_MAX_DEPTH")) from exc
        hours = _int(env, "OCP_RETENTION_HOURS", MAX_RETENTION_HOURS)
        if not 1 <= hours <= MAX_RETENTION_HOURS:
            raise ConfigError(
                f"OCP_RETENTION_HOURS is {hours}; it must be 1 to {MAX_RETENTION_HOURS}: a "
                "deployment may shorten the 30-day retention, never lengthen it"
            )
        timeout = _float(env, "OCP_STORE_TIMEOUT_SECONDS", 5.0)
        pool = _int(env, "OCP_DB_POOL_SIZE", 10)
        interval = _float(env, "OCP_PURGE_INTERVAL_SECONDS", 600.0)
        body_timeout = _float(env, "OCP_BODY_TIMEOUT_SECONDS", 30.0)
        if timeout <= 0 or pool < 1 or interval <= 0 or body_timeout <= 0:
            raise ConfigError(
                "OCP_STORE_TIMEOUT_SECONDS, OCP_DB_POOL_SIZE, OCP_PURGE_INTERVAL_SECONDS and "
                "OCP_BODY_TIMEOUT_SECONDS must be positive"
            )
        header_timeout = _float(env, "OCP_HEADER_TIMEOUT_SECONDS", 10.0)
        keep_alive = _int(env, "OCP_KEEP_ALIVE_SECONDS", 5)
        send_timeout = _float(env, "OCP_SEND_TIMEOUT_SECONDS", 30.0)
        max_connections = (
            _int(env, "OCP_MAX_CONNECTIONS", 0) if env.get("OCP_MAX_CONNECTIONS") else None
        )
        if (
            not 0 < header_timeout <= 3600
            or not 0 < send_timeout <= 3600
            or not 1 <= keep_alive <= 3600
        ):
            raise ConfigError(
                "OCP_HEADER_TIMEOUT_SECONDS and OCP_SEND_TIMEOUT_SECONDS must be more than 0 and "
                "OCP_KEEP_ALIVE_SECONDS at least 1, all at most 3600"
            )
        if max_connections is not None and max_connections < 1:
            raise ConfigError("OCP_MAX_CONNECTIONS must be positive (unset: worked out)")
        tokens = frozenset(
            t.strip() for t in env.get("OCP_UPLOAD_TOKENS", "").split(",") if t.strip()
        )
        write_rate = _int(env, "OCP_WRITE_RATE", DEFAULT_WRITE_RATE)
        # (unset, each grows with OCP_MAX_BYTES: raising the document limit alone must not make
        # every command, `ocp lint` among them, refuse to start over a service setting)
        write_rate_bytes = _int(
            env, "OCP_WRITE_RATE_BYTES", max(DEFAULT_WRITE_RATE_BYTES, limits.max_bytes)
        )
        max_store_bytes = _int(
            env, "OCP_MAX_STORE_BYTES", max(DEFAULT_MAX_STORE_BYTES, limits.max_bytes)
        )
        if write_rate < 0 or not (write_rate_bytes == 0 or write_rate_bytes >= limits.max_bytes):
            raise ConfigError(
                "OCP_WRITE_RATE must be 0 (no limit) or positive, and OCP_WRITE_RATE_BYTES 0 "
                f"or at least OCP_MAX_BYTES ({limits.max_bytes}): a client must be able to "
                "store one document of the largest size"
            )
        if max_store_bytes < limits.max_bytes:
            raise ConfigError(
                f"OCP_MAX_STORE_BYTES must be at least OCP_MAX_BYTES ({limits.max_bytes})"
            )
        return cls(
            limits=limits,
            public_url=parse_base_url(env.get("OCP_PUBLIC_URL")),
            database_url=env.get("OCP_DATABASE_URL") or DEFAULT_DATABASE_URL,
            retention_hours=hours,
            store_timeout=timeout,
            store_pool_size=pool,
            purge_interval=interval,
            upload_tokens=tokens,
            body_timeout=body_timeout,
            write_rate=write_rate,
            write_rate_bytes=write_rate_bytes,
            max_store_bytes=max_store_bytes,
            header_timeout=header_timeout,
            keep_alive_timeout=keep_alive,
            send_timeout=send_timeout,
            max_connections=max_connections,
            cors_origins=parse_cors_origins(env.get("OCP_CORS_ORIGINS")),
        )


def parse_base_url(raw: str | None, name: str = "OCP_PUBLIC_URL") -> str | None:
    """A service's base URL (OCP_PUBLIC_URL, --base-url): absolute http(s), no query, fragment
    or user, no trailing slash. None when not given."""
    if raw is None or not raw.strip():
        return None
    from urllib.parse import urlsplit  # only with a URL given: a linter's run has none

    url = raw.strip().rstrip("/")
    parts = urlsplit(url)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise ConfigError(
            f"{name} must be the service's absolute http(s) base URL, such as "
            f"https://ocp.example.org, not {raw!r}"
        )
    return url


_DEFAULT_PORTS = {"http": 80, "https": 443}
# A host name or IPv4 address, or an IPv6 address (urlsplit gives it without its brackets).
_ORIGIN_HOST = r"[a-z0-9._~-]+|[0-9a-f:.]*:[0-9a-f:.]*"  # compiled on first use, by re's cache


def parse_cors_origins(raw: str | None) -> frozenset[str]:
    """OCP_CORS_ORIGINS: comma-separated origins, each http(s)://host[:port] as a browser
    sends it in Origin (lowercase, no default port, no path), or "*" for any origin."""
    if not raw or not raw.strip():
        return frozenset()  # the usual setting, and every linter's: no URL module to load
    from urllib.parse import urlsplit

    origins = set()
    for item in (raw or "").split(","):
        entry = item.strip()
        if not entry:
            continue
        if entry == "*":
            origins.add(entry)
            continue
        parts = urlsplit(entry)
        try:
            port = parts.port
        except ValueError:
            port = -1  # not a port number: refused below
        if (
            parts.scheme.lower() not in _DEFAULT_PORTS
            or not parts.hostname
            or parts.path
            or parts.query
            or parts.fragment
            or "@" in parts.netloc
            or not re.fullmatch(_ORIGIN_HOST, parts.hostname)
            or port == -1
            or entry.endswith(":")
        ):
            raise ConfigError(
                "OCP_CORS_ORIGINS must be a comma-separated list of origins, each "
                "scheme://host[:port] with http or https and nothing after it (such as "
                f"https://app.example.org or http://localhost:3000), or *; not {entry!r}"
            )
        scheme = parts.scheme.lower()
        host = parts.hostname  # lowercased; an IPv6 address without its brackets
        if ":" in host:
            host = f"[{host}]"
        # Browsers leave out the scheme's default port, so https://x:443 is sent as https://x.
        shown_port = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
        origins.add(f"{scheme}://{host}{shown_port}")
    return frozenset(origins)


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {raw!r}") from None


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {raw!r}") from None
