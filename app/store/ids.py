"""Storage ids and deletion tokens: random, URL-safe, never derived from content.

A storage id is the capability to read a stored checkpoint (links are unlisted, not private),
so it must not be guessable: 30 characters drawn from the OS CSPRNG out of 31 (148 bits).
People copy them by eye from a screen or a printout, so the alphabet has no look-alikes: no
0, 1, i, l or o, and one case (an id typed in capitals reads the same). Ids handed out before
(24 characters of base64url, 144 bits, case-sensitive) keep working. A deletion token
is a separate, stronger capability (32 bytes, 256 bits); only its SHA-256 is kept, so a copy
of the database cannot delete anything. SHA-256 without salt or stretching is enough here
because the token is high-entropy random, not a password.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

# Digits and lower-case letters without 0, 1, i, l and o: nothing to mistake for another.
STORAGE_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
STORAGE_ID_LENGTH = 30  # 30 × log2(31) = 148 bits
# The ids handed out before: token_urlsafe(18), 24 base64url characters (144 bits).
LEGACY_STORAGE_ID_LENGTH = 24
DELETION_TOKEN_BYTES = 32
# token_urlsafe encodes n bytes as ceil(4n/3) base64url characters without padding.
DELETION_TOKEN_LENGTH = 43

_LEGACY_STORAGE_ID = re.compile(rf"[A-Za-z0-9_-]{{{LEGACY_STORAGE_ID_LENGTH}}}")
_STORAGE_ID = re.compile(rf"[{STORAGE_ID_ALPHABET}]{{{STORAGE_ID_LENGTH}}}", re.IGNORECASE)
# The shape of either kind, as the OpenAPI description states it.
STORAGE_ID_PATTERN = (
    f"^(?:[{STORAGE_ID_ALPHABET}{STORAGE_ID_ALPHABET.upper()}]{{{STORAGE_ID_LENGTH}}}"
    f"|[A-Za-z0-9_-]{{{LEGACY_STORAGE_ID_LENGTH}}})$"
)


def new_storage_id() -> str:
    return "".join(secrets.choice(STORAGE_ID_ALPHABET) for _ in range(STORAGE_ID_LENGTH))


def canonical_storage_id(value: object) -> str | None:
    """The id as the store keeps it: a new one in lower case however it was typed, an old one
    exactly as written; None when ``value`` has the shape of neither."""
    if not isinstance(value, str):
        return None
    if _STORAGE_ID.fullmatch(value) is not None:
        return value.lower()
    return value if _LEGACY_STORAGE_ID.fullmatch(value) is not None else None


def new_deletion_token() -> str:
    return secrets.token_urlsafe(DELETION_TOKEN_BYTES)


def is_storage_id(value: object) -> bool:
    """Whether ``value`` has the shape of an id this store hands out (checked before any query,
    so a malformed id costs no database round trip and behaves like an unknown one)."""
    return canonical_storage_id(value) is not None


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def token_matches(token: object, stored_hash: bytes) -> bool:
    """Constant-time comparison of a presented token with the stored hash.

    A malformed token is hashed all the same, so its rejection takes as long as a wrong one's.
    """
    presented = token_hash(token if isinstance(token, str) else "")
    return hmac.compare_digest(presented, bytes(stored_hash)) and isinstance(token, str)
