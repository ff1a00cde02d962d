"""Values too short to hold a credential are not searched in a document made mostly of them
(app/secrets `_SHORTEST_FLAGGED`, `_mostly_short`): what rests on that is that the scan flags
no string that short, whatever it holds, and that a credential among them is still found at its
own place."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

import app.secrets as scanner
from app.secrets import find_secrets, scan_text

# What a short credential would be made of: names and operators, prefixes, a URI's pieces
PIECES = ["pw=", "pwd=", "key:", "auth=", "pass:", "jwt=", "sk-", "ghp_", "a:b@", "://", "AKIA"]
PIECES += ["eyJ", " -p", "-a ", "=", ":", "@", "Zq9", "x", "1", "aB", "\n", "\\n", "%41"]


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
    | st.text(string.printable, max_size=scanner._SHORTEST_FLAGGED)
)
def test_the_scan_flags_no_string_shorter_than_the_shortest_it_can(text: str) -> None:
    if len(text) < scanner._SHORTEST_FLAGGED:
        assert scan_text(text) == []


def test_a_credential_among_thousands_of_short_values_is_found_at_its_place() -> None:
    references = [f"m{i}" for i in range(5_000)]
    document = {"statements": [{"evidence": list(references), "text": "ok"} for _ in range(3)]}
    token = "gh" + "p_" + "aB3dE5fG7hJ9kLmN2pQrS4tUvW6xYz8C1234"
    document["statements"][2]["evidence"][4321] = f"see {token}"
    values = scanner._Layout(document).flat
    assert scanner._mostly_short(values)  # the short values are passed over here
    (hit,) = find_secrets(document)
    assert hit.path == "/statements/2/evidence/4321"
    assert hit.text == f"see {token}"


def test_a_document_of_the_usual_values_is_searched_whole() -> None:
    document = {
        "statements": [{"id": f"s-{i}", "text": "A sentence of some length."} for i in range(400)]
    }
    assert not scanner._mostly_short(scanner._Layout(document).flat)
