"""Storage ids and deletion tokens: random, URL-safe, never derived from content.

A storage id is the capability to read a stored checkpoint (links are unlisted, not private),
so it must not be guessable: 18 random bytes (144 bits) from the OS CSPRNG. A deletion token
is a separate, stronger capability (32 bytes, 256 bits); only its SHA-256 is kept, so a copy
of the database cannot delete anything. SHA-256 without salt or stretching is enough here
because the token is high-entropy random, not a password.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

STORAGE_ID_BYTES = 18
DELETION_TOKEN_BYTES = 32
# token_urlsafe encodes n bytes as ceil(4n/3) base64url characters without padding.
STORAGE_ID_LENGTH = 24
DELETION_TOKEN_LENGTH = 43

_STORAGE_ID = re.compile(rf"[A-Za-z0-9_-]{{{STORAGE_ID_LENGTH}}}")


def new_storage_id() -> str:
    return secrets.token_urlsafe(STORAGE_ID_BYTES)


def new_deletion_token() -> str:
    return secrets.token_urlsafe(DELETION_TOKEN_BYTES)


def is_storage_id(value: object) -> bool:
    """Whether ``value`` has the shape of an id this store hands out (checked before any query,
    so a malformed id costs no database round trip and behaves like an unknown one)."""
    return isinstance(value, str) and _STORAGE_ID.fullmatch(value) is not None


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def token_matches(token: object, stored_hash: bytes) -> bool:
    """Constant-time comparison of a presented token with the stored hash.

    A malformed token is hashed all the same, so its rejection takes as long as a wrong one's.
    """
    presented = token_hash(token if isinstance(token, str) else "")
    return hmac.compare_digest(presented, bytes(stored_hash)) and isinstance(token, str)
