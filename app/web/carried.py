"""The document as the Share form carries it: the exact bytes, gzipped when that is smaller,
then base64 (a textarea would turn its line breaks into CRLF).

An unsaved page must carry the bytes for sharing to work without JavaScript; JSON gzips to a
fifth or less, so the copy weighs a fraction of the document instead of a third more. Reading
one back never inflates past the document limit: a small field cannot expand into gigabytes.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import zlib
from collections.abc import Mapping

# (field name suffix, coding): each role's field is ``<role>_gz64`` or ``<role>_b64``
GZIPPED = "gz64"
PLAIN = "b64"


class CarriedError(ValueError):
    """The field is damaged, or holds more than the document limit once inflated."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


def carry(role: str, data: bytes) -> tuple[str, str]:
    """The form field (name, value) that carries ``data`` for ``role`` ("checkpoint" or
    "parent")."""
    # level 1: a 4 MB checkpoint in 14 ms to 4.3% of its size, where level 6 took 30 ms for
    # 3.5%; every unsaved page pays it
    packed = gzip.compress(data, compresslevel=1, mtime=0)
    if len(packed) < len(data):
        return f"{role}_{GZIPPED}", base64.b64encode(packed).decode()
    return f"{role}_{PLAIN}", base64.b64encode(data).decode()


def carried(form: Mapping[str, object], role: str, limit: int) -> bytes:
    """The bytes a form carries for ``role`` (b"" when it carries none)."""
    packed, plain = form.get(f"{role}_{GZIPPED}"), form.get(f"{role}_{PLAIN}")
    if isinstance(packed, str) and packed:
        return _inflate(_unbase64(packed), limit)
    if isinstance(plain, str) and plain:
        return _unbase64(plain)
    return b""


def _unbase64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise CarriedError("the shared document was damaged on the way; share it again") from None


def _inflate(packed: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)  # gzip framing
    try:
        data = inflater.decompress(packed, limit + 1)
    except zlib.error:
        raise CarriedError("the shared document was damaged on the way; share it again") from None
    if len(data) > limit or inflater.unconsumed_tail:
        raise CarriedError(
            f"the shared document is larger than the limit of {limit:,} bytes", too_large=True
        )
    if not inflater.eof or inflater.unused_data:
        raise CarriedError("the shared document was damaged on the way; share it again")
    return data
