"""A piece of a document or a request quoted in a message, unless it may be a credential.

An error that names what it refused repeats it to whoever reads the message: a log, a CI run, a
model. A short text the secret scanner does not flag is quoted (as JSON, its unsafe characters
escaped: app/visible.py); a longer one, or one the scanner flags, is described instead."""

from __future__ import annotations

from app.visible import visible_json

# The longest text quoted: a version ("0.1.0"), a member name misspelt ("argumnets"); past it a
# text may hold a token whose shape the scanner does not know.
QUOTED_UP_TO = 24


def quotable(text: str) -> bool:
    """Whether ``text`` may be quoted: short, and not flagged by the secret scanner."""
    if len(text) > QUOTED_UP_TO:
        return False
    from app.secrets import scan_text  # (only for an answer that refuses: a rare one)

    return not scan_text(text)


def quoted(text: str) -> str:
    """``text`` as JSON when `quotable`, else what it is without it."""
    if quotable(text):
        return visible_json(text)
    return f"(a string of {len(text)} characters, not quoted here)"
