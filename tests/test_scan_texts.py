"""scan_texts reads many texts at once (a report's messages): it finds what scan_text finds in
each, for every format the recall corpus holds and for the ordinary texts it must not flag."""

from app.secrets import scan_text, scan_texts
from tests.test_secrets_ordinary import ORDINARY, PLAUSIBLE
from tests.test_secrets_recall import FORMATS


def test_each_text_gets_what_scan_text_finds_in_it() -> None:
    secrets = [make() for _, make in FORMATS]
    texts = [
        *secrets,
        *(f"the value {s} was quoted" for s in secrets),
        *(f"token: {s}" for s in secrets),
        *PLAUSIBLE,
        *ORDINARY,
        "",
        "line one\nkey\n",
    ]
    assert scan_texts(texts) == [scan_text(t) for t in texts]
    assert sum(bool(spans) for spans in scan_texts(secrets)) == len(secrets)
