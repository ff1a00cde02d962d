"""Short strings only a decoder may flag are decoded together (app/secrets `_decoded_spans`,
app/secrets/detectors.py `BatchDecoding`): each decoder's form for many texts must give each
text what its own call gives, and a document of such strings must be flagged where each string
alone is, at the same places."""

from __future__ import annotations

import base64
import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from app.secrets import detectors, find_secrets, scan_text

# Escapes of every decoder, their near misses, newlines (raw, escaped, encoded), long runs
PIECES = ["~0", "~1", "~", "/", "%20", "%2F", "%3D", "%41", "%7e", "%0A", "%1F", "%25", "%"]
PIECES += ["&amp;", "&quot;", "&#34;", "&#x27;", "&lt;", "&", "&amp;quot;", "\n", "\\n", " "]
PIECES += ["a", "Z9", "é", "x" * 300, "password", "=", ":", "ghp_", "\x00", "\\\\", "\\t"]
PIECES += ["\\", '\\"', "\\/", "\\u0041", "\\r", "\\\\t", "\\\\\\\\"]
TEXTS = st.lists(st.lists(st.sampled_from(PIECES), max_size=10).map("".join), max_size=12)
BATCHES = [
    (detectors.pointer_texts, detectors.pointer_decoding),
    (detectors.html_texts, detectors.html_decoding),
    (detectors.percent_texts, detectors.percent_decoding),
    (detectors.base64_texts, detectors.base64_decoding),
    (detectors.json_texts, detectors.json_decoding),
]
# and base64 runs: of text, of bytes that are no text, of both cases and of one
PIECES += ["bG9nIGxpbmUgMTIg", "b2YgdGhlIGRlcGxveQ==", "/w+/AAAAAAAAAAAA", "QUJD", "="]


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_each_text_decoded_with_others_is_decoded_as_alone(texts: list[str]) -> None:
    for together, alone in BATCHES:
        for text, decoded in zip(texts, together(texts), strict=True):
            if decoded == "":  # (nothing to scan)
                assert alone(text) is None, (together.__name__, text)
            elif decoded is not None:
                own = alone(text)
                assert own is not None and own[0] == [decoded], (together.__name__, text)


def _secret(rng: random.Random) -> str:
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def test_credentials_among_thousands_of_escaped_strings_are_found_in_their_own() -> None:
    """Strings each holding one decoder's escape or two decoders', a few hiding a credential
    behind one: each is flagged at its own place, where its own scan flags it, the others not
    at all."""
    rng = random.Random(29)
    forms = [
        lambda i: base64.b64encode(f"log line {i} of the deploy".encode()).decode(),
        lambda i: f"page%20{i}?q=a%2Fb",
        lambda i: f"a &amp; b &quot;{i}&quot;",
        lambda i: f"/a~1b/{i}~0c",
        lambda i: f"a &amp; b%20{i}",
        lambda i: f"/a~1b/{i} c:\\\\dir",
    ]
    # each visible only decoded: a token in base64, a token's "_" percent-encoded, an XML
    # element's brackets escaped for HTML, a Slack webhook's slashes escaped as a pointer's
    # token escapes them
    hiding = [
        lambda s: base64.b64encode(f"export GITHUB_TOKEN={s}".encode()).decode(),
        lambda s: "ghp%5F" + s[4:],
        lambda s: "&lt;password&gt;" + s[4:20] + "&lt;/password&gt;",
        lambda s: (
            "https:~1~1hooks.slack.com~1services~1T0"
            + s[4:11].upper()
            + "~1B0"
            + s[11:19].upper()
            + "~1"
            + s[19:43]
        ),
    ]
    # and each beside another decoder's escape
    hiding += [
        lambda s: "&amp; ghp%5F" + s[4:],
        lambda s: "c:\\\\dir &lt;password&gt;" + s[4:20] + "&lt;/password&gt;",
    ]
    items = [forms[i % len(forms)](i) for i in range(4000)]
    planted = {}
    for at in rng.sample(range(len(items)), 40):
        items[at] = hiding[at % len(hiding)](_secret(rng))
        planted[at] = [(start, end) for start, end, _kind in scan_text(items[at])]
        assert planted[at], items[at]
    hits = find_secrets({"items": items})
    found: dict[int, list[tuple[int, int]]] = {}
    for hit in hits:
        found.setdefault(int(hit.path.rsplit("/", 1)[1]), []).append((hit.start, hit.end))
    # (the same places: a string the scan flags before decoding it is not decoded, so its
    # kind may be the name's, "a secret", where scan_text merges in the format's)
    assert found == planted
