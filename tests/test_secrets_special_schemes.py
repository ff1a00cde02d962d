"""The special schemes a text's userinfo is read after (https:user:pass@host, app/secrets
`special_userinfo`): each found but those an authority's "//" follows (`_userinfo`'s), in a
short text by `re` and in a long one by `re` near and RE2 further on (`_scheme_finder`)."""

import random
import re

from app.secrets import RE2_RUNS_FROM, scan_text
from app.secrets.detectors import _scheme_finder

PIECES = [
    *("https:", "http:", "ws:", "wss:", "ftp:", "HTTPS:", "Ftp:", "xhttp:", "https"),
    *("/", "\\", "//", "\\/\\/", "///", "\\/\\/\\", "/\\", "\\\\", "/////"),
    *("@", "user:pw", "a", " ", "\n", ":", "s:"),
]
SLASHES = re.compile(r"[/\\]{0,16}")


def _expected(low: str) -> list[int]:
    """Each scheme's place, but where "//" (or "\\/\\/") alone follows it."""
    places = []
    for at in range(len(low)):
        scheme = re.compile(r"(?:https?|wss?|ftp):").match(low, at)
        if scheme is not None:
            slashes = SLASHES.match(low, scheme.end())
            assert slashes is not None
            if slashes.group() not in ("//", "\\/\\/"):
                places.append(at)
    return places


def _found(low: str) -> list[int]:
    find, places, pos = _scheme_finder(low), [], 0
    while (at := find(pos)) >= 0:
        places.append(at)
        pos = at + 1
    return places


def test_the_schemes_found_are_those_no_authority_follows_in_short_and_long_texts() -> None:
    rng = random.Random(7)
    for _ in range(400):
        pieces = rng.choices(PIECES, k=rng.randint(1, 30))
        short = "".join(pieces).lower()
        assert _found(short) == _expected(short), short
        # the same pieces far apart and close, in a text RE2 reads
        gaps = [" " * rng.choice([0, 1, 5, 50, 58, 60, 62, 64, 66, 70, 200]) for _ in pieces]
        long = "".join(g + p for g, p in zip(gaps, pieces, strict=True)).lower()
        long = long + " " * max(0, RE2_RUNS_FROM - len(long))
        assert _found(long) == _expected(long), long.strip()


def test_a_special_userinfo_among_a_page_of_urls_is_found() -> None:
    urls = "see https://user:****@host.example.com/x and " * 2000
    password = "Qw7-mP2q9LxZ"
    text = urls + f"then https:admin:{password}@db.example.com/ " + urls
    assert [text[a:b] for a, b, _ in scan_text(text)] == [f"admin:{password}"]
