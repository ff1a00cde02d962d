"""What a diff shows of its documents' data (app/redaction.py `Redaction.data`): every text
withheld as `Redaction.text` withholds it alone, the scanner reading all of them at once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import app.redaction as redaction_module
from app.redaction import REDACTED, Redaction
from app.secrets import scan_document
from tests.test_secrets import rnd

_TOKEN = "ghp_" + rnd(36)
_PASSWORD = "Tr0ub4dor&3xQ9"
_DOCUMENT = {
    "statements": [{"id": "s-1", "text": f"deploy with {_TOKEN}"}],
    "resources": [{"id": "r-1", "uri": f"https://deploy:{_PASSWORD}@db.example.com/ledger"}],
    "extensions": {_TOKEN: 1},
}
# Texts a diff's data holds: the credentials, texts quoting them, ordinary ones, pointers
# through flagged members, and texts only the scanner flags.
_TEXTS = (
    _TOKEN,
    f"the token {_TOKEN} again",
    _PASSWORD,
    f"password was {_PASSWORD}",
    "an ordinary sentence",
    "/statements/0/text",
    f"/extensions/{_TOKEN}",
    "aws_secret_access_key = " + rnd(40),
    "",
    "s-1",
)
_data = st.recursive(
    st.sampled_from(_TEXTS) | st.integers() | st.none(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(("path", "pointer", "before", "after", *_TEXTS)), inner)
    ),
    max_leaves=20,
)


def _redaction() -> Redaction:
    scan = scan_document(_DOCUMENT)
    return Redaction.of(_DOCUMENT, scan.hits, complete=scan.complete)


@settings(max_examples=60, deadline=None)
@given(value=_data)
def test_the_data_shown_is_each_text_withheld_as_alone(value: object) -> None:
    redaction = _redaction()
    assert redaction.data(value) == redaction._data(value, None, redaction.text)


def test_a_diffs_texts_are_scanned_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thousand changed texts are read by one scan, not a thousand."""
    redaction = _redaction()
    scans: list[int] = []
    scan_texts = redaction_module.scan_texts

    def counting(texts):  # type: ignore[no-untyped-def]
        scans.append(len(texts))
        return scan_texts(texts)

    monkeypatch.setattr(redaction_module, "scan_texts", counting)
    monkeypatch.setattr(redaction_module, "scan_text", None)  # (never one by one)
    changes = [
        {"path": f"/statements/{i}/text", "before": f"line {i}", "after": f"line {i} {_TOKEN}"}
        for i in range(1000)
    ]
    shown = redaction.data({"changes": changes})
    assert len(scans) == 1
    assert shown["changes"][7]["after"] == f"line 7 {REDACTED}"  # type: ignore[index]
    assert _TOKEN not in repr(shown)


_SECOND = "Zq7" + rnd(12)
_QUOTING = st.recursive(
    st.sampled_from(
        (
            "plain",
            f"again {_PASSWORD}",
            f'a "quoted" {_PASSWORD}',
            "back\\slash",
            "line\nbreak",
            "\ud800 lone",
            _PASSWORD[:6],
        )
    )
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(("a", f"k {_PASSWORD}", 'q"', "b")), inner)
    ),
    max_leaves=16,
)


@settings(max_examples=80, deadline=None)
@given(extra=_QUOTING, quoted=st.sampled_from(("", 'x"', "back\\slash", "tab\there")))
def test_a_document_shown_withholds_its_known_texts_wherever_they_stand(
    extra: object, quoted: str
) -> None:
    """The known credential texts are withheld wherever they stand in the document shown; the
    walk over its strings is skipped only when the document written as JSON holds none (a
    known text JSON would escape is always walked for)."""
    document = {**_DOCUMENT, "notes": {"extra": extra}}
    if quoted:
        document["resources"] = [
            *_DOCUMENT["resources"],  # type: ignore[list-item]
            {"id": "r-2", "uri": "https://db.example.com/x", "password": quoted + _SECOND},
            {"id": "r-3", "title": f"as before: {quoted}{_SECOND}"},
        ]
    scan = scan_document(document)
    redaction = Redaction.of(document, scan.hits, complete=scan.complete)
    shown = redaction.document(document)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(redaction_module, "_may_quote", lambda *arguments: True)
        assert shown == Redaction.of(document, scan.hits, complete=scan.complete).document(document)
    assert _PASSWORD not in repr(shown)
    if "/resources/1/password" in {hit.path for hit in scan.hits}:  # (a value the scan took)
        assert _SECOND not in repr(shown)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.sampled_from(_TEXTS), max_size=12),
    pointers=st.lists(
        st.sampled_from(("", "/statements/0/text", f"/extensions/{_TOKEN}", "/a~1b", "no/")),
        max_size=8,
    ),
)
def test_texts_and_pointers_shown_together_are_each_shown_as_alone(
    texts: list[str], pointers: list[str]
) -> None:
    """A pair's losses (ids, details, pointers) shown together read as each alone would."""
    redaction = _redaction()
    assert redaction.shown(texts, pointers) == (
        [redaction.text(text) for text in texts],
        [redaction.pointer(pointer) for pointer in pointers],
    )
