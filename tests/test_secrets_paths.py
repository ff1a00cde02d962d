"""A token whose format's alphabet lacks "/" refuses a "/" beside it, as part of a base64 blob
(binary data's base64 spells EAAA or AQE by chance), but a "/" that ends a URL's or a file's
path stands beside it as a space would: a proxy's route, a webhook's, a secret's file."""

from __future__ import annotations

import base64
import random

import pytest

from app.secrets import scan_text
from tests.test_secrets_rules import EXAMPLES

# the formats a "/" before them was refused for (base64's alphabet holds it, theirs does not)
FORMATS = (
    "facebook-access-token",
    "square-access-token",
    "adyen-api-key",
    "google-refresh-token",
    "twitter-bearer-token",
    "azure-identifiable-key",
)
PATHS = (
    "GET https://proxy.example.com/fwd/{}?trace=1",
    "POST https://hooks.example.com/t/{}/run -> 200",
    "saved to /etc/app/secrets/{}",
    "see ~/keys/{} and",
    "cat ./tokens/{}",
    'open("/Users/alice/.config/{}")',
    "config/keys/{}",
    "[the route](https://app.example.com/#/tokens/{})",
    "//cdn.example.com/fwd/{}",
    "C:/Users/alice/{}",
    "/etc/MyApp/secrets/{}",
    "$HOME/keys/{}",
    "${{HOME}}/keys/{}",
    "docker run -v /srv/keys:/run/secrets/{}",
    "https://proxy:8443/fwd/{}",
)


def _flags(text: str, credential: str) -> bool:
    start = text.index(credential)
    end = start + len(credential)
    return any(a < end and b > start for a, b, _ in scan_text(text))


@pytest.mark.parametrize("rule_id", FORMATS)
@pytest.mark.parametrize("path", PATHS)
def test_a_token_in_a_path_is_found(rule_id: str, path: str) -> None:
    make, _ = EXAMPLES[rule_id]
    for _ in range(3):
        credential = make()
        if "/" in credential and "/run" in path:
            continue  # (its own "/" then runs into the path's next segment)
        assert _flags(path.format(credential), credential), (rule_id, path, credential)


def _blob(rng: random.Random, size: int) -> str:
    return base64.b64encode(rng.randbytes(size)).decode()


@pytest.mark.parametrize("rule_id", FORMATS)
def test_a_token_s_shape_after_a_slash_inside_a_base64_blob_is_none(rule_id: str) -> None:
    """The same credentials written inside base64 data after one of its "/": what stands
    before the "/" is no path (base64 mixes cases in every part, holds "+", never "://"), so
    nothing is flagged from the token's prefix on (a part of it may be: another format's
    shape inside it)."""
    rng = random.Random(rule_id)
    make, _ = EXAMPLES[rule_id]
    differ = []
    for _ in range(40):
        credential = make()
        head = _blob(rng, rng.randrange(12, 300)).rstrip("=")
        tail = _blob(rng, rng.randrange(12, 300))
        for text in (
            f"{head}/{credential}+{tail}",  # a line of a PEM body, a blob in JSON
            f"data:image/png;base64,{head}/{credential}+{tail}",
            f"/9j/4AAQSkZJRgABAQ{head}/{credential}/{tail}",  # a JPEG's base64
            f'"thumbnail": "{head}/{credential}/{tail}"',
        ):
            start = text.index("/" + credential) + 1
            if any(span[0] == start for span in scan_text(text)):
                differ.append(text[:120])
    assert differ == []


def test_a_slash_after_a_token_is_a_path_s_only_after_one_before_it() -> None:
    """A "/" after the token is the next segment of its path only when a path's "/" stands
    before it: a URL or a path elsewhere on the line says nothing of a base64 blob."""
    token = "EAAACBZReEVbHmCpzfj6HWp6tcuav"
    for text in (
        f"see https://cdn.example.com/a.bin then {token}/QMs98TMfy",
        f"cache: /var/cache/app\nblob: {token}/QMs98TMfy",
    ):
        assert scan_text(text) == [], text


@pytest.mark.parametrize(
    "line",
    [
        # lines of binary files' base64 (a shared library's, a message catalog's)
        "j/EAAAAAAAC4NAEAAAAAAAgAAAAAAAAAn/EAAAAAAADANAEAAAAAAAgAAAAAAAAA",
        "d/EAAA0AAACA8QAACAAAAI7xAAALAAAAl/EAAAsAAACj8QAACQAAAK/xAAAJAAAA",
        "abc/EAAAc-YiuRnlufk8SOwUkaC9-wnS4q0wfxN2mEWtTv3thMiigxBfnvjITz9dFwS4",
    ],
)
def test_a_word_too_short_or_alone_before_a_slash_is_no_path(line: str) -> None:
    assert scan_text(line) == []


def test_a_path_too_long_to_read_back_or_with_nothing_before_is_none() -> None:
    make, _ = EXAMPLES["facebook-access-token"]
    token = make()
    # nothing but the "/" before it, and a path no space, quote or bracket starts within reach
    assert not _flags(f"a /{token}", token)
    assert not _flags("/seg" * 200 + f"/{token}", token)
    # within reach, it is read
    assert _flags("/seg" * 100 + f"/{token}", token)
