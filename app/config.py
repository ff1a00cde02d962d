"""Settings, read once from the environment (documented in the README)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from app.parse import MIB, Limits

DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"


class ConfigError(ValueError):
    """A setting has a value the service cannot start with."""


@dataclass(frozen=True, slots=True)
class Settings:
    limits: Limits = field(default_factory=Limits)
    # Absolute URL the service is reachable at; used where a format needs absolute links
    # (SARIF helpUri, Open Graph tags).
    public_url: str = DEFAULT_PUBLIC_URL

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        try:
            limits = Limits(
                max_bytes=_int(env, "OCP_MAX_BYTES", 5 * MIB),
                max_depth=_int(env, "OCP_MAX_DEPTH", 64),
            )
        except ValueError as exc:
            raise ConfigError(str(exc)) from exc
        return cls(limits=limits, public_url=env.get("OCP_PUBLIC_URL") or DEFAULT_PUBLIC_URL)


def _int(env: os._Environ[str] | dict[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, not {raw!r}") from None
