"""PuTTY key files: found from each Private-Lines back to its header (app/secrets/detectors.py
`putty`), and the same keys as reading every header forward finds.

The forward reading below is what the detector did before: each header, then the first
Private-Lines after it within the window and before the next header, then its MAC. It is the
plain statement of which keys there are; the detector reads the other way round so that a text
of headers with no key after them costs one search for the word.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.secrets import PUTTY_KEY, detectors, scan_text
from tests.test_secrets import putty_key

Span = tuple[int, int, str]


def forward(text: str, window: int) -> Iterator[Span]:
    """Every header in turn, as the specification of a key file reads."""
    for header in detectors._PUTTY.finditer(text):
        limit = min(len(text), header.end() + window)
        following = detectors._PUTTY.search(text, header.end(), limit)
        if following is not None:
            limit = following.start()
        lines = text.find("Private-Lines:", header.end(), limit)
        if lines != -1:
            mac = detectors._PUTTY_END.search(text, lines, limit)
            yield header.start(), mac.end() if mac else limit, PUTTY_KEY


PIECES = [
    "PuTTY-User-Key-File-2:",
    "PuTTY-User-Key-File-3: ssh-ed25519\n",
    "PuTTY-User-Key-File-",  # no version: no header
    "PuTTY-User-Key-File-x:",
    "PuTTY-User-Key-File-12345678901234567890:",  # a long version
    "Private-Lines:",
    "Private-Lines: 14\n",
    "Private-MAC: 0f1e2d\n",
    "Private-MAC:zz",
    "Encryption: none\nComment: k\n",
    "AAAAB3NzaC1yc2EAAAADAQABAAABAQ\n",
    "P",
    "2:",
    "x" * 40,
]


@settings(max_examples=3000, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(PIECES), max_size=14),
    window=st.sampled_from([20, 45, 80, 200, detectors._PUTTY_WINDOW]),
)
def test_the_keys_are_those_each_header_read_forward_finds(pieces: list[str], window: int) -> None:
    text = "".join(pieces)
    with pytest.MonkeyPatch.context() as patched:  # (a window short enough for a few pieces)
        patched.setattr(detectors, "_PUTTY_WINDOW", window)
        assert list(detectors.putty(text)) == list(forward(text, window))


def test_headers_with_no_key_after_them_are_no_key() -> None:
    text = "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: imported-key\n" * 20_000
    assert list(detectors.putty(text)) == []


def test_a_key_after_thousands_of_headers_is_the_last_header_s() -> None:
    key = putty_key()
    text = "PuTTY-User-Key-File-2: ssh-rsa\n" * 20_000 + key
    (span,) = detectors.putty(text)
    assert text[span[0] : span[1]] == key


def test_a_private_lines_out_of_its_header_s_reach_is_no_key() -> None:
    header = "PuTTY-User-Key-File-2: ssh-rsa\n"
    near = header + "x" * 100 + "Private-Lines: 14\nAAAA\nPrivate-MAC: 0f1e\n"
    far = header + "x" * detectors._PUTTY_WINDOW + "Private-Lines: 14\nAAAA\nPrivate-MAC: 0f1e\n"
    assert [text[s:e] for text in [near] for s, e, _ in detectors.putty(text)] == [near.rstrip()]
    assert list(detectors.putty(far)) == []


def test_each_key_of_several_is_found_once() -> None:
    keys = [putty_key() for _ in range(3)]
    text = "\n".join(keys)
    spans = scan_text(text)
    assert [text[s:e] for s, e, _ in spans] == keys
