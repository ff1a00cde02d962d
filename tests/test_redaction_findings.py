"""A finding's message quotes values of the document: each one loses the credential texts the
scan found anywhere in it, whether or not the finding sits near the flagged place, and however
many findings share a message."""

import json
from typing import Any

from app.analysis import analyze
from tests.conftest import CONFORMANCE

PASSWORD = "Vx7Tq2Lm9Rz4Wk8Np3"  # fake, of the shape a URI's password takes


def _minimal() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    return document


def _with_password_quoted_far_away() -> bytes:
    document = _minimal()
    document["resources"] = [
        {"id": "r-db", "kind": "record", "uri": f"postgres://admin:{PASSWORD}@db.example.com/x"}
    ]
    document["statements"] = [
        {
            "id": "s-1",
            "kind": "observation",
            "text": "The ledger balances.",
            "origin": {"type": "agent"},
            # an unresolved reference: OCP-S002 quotes the id it names
            "evidence": [PASSWORD],
        }
    ]
    return json.dumps(document, indent=2).encode()


def test_a_message_far_from_the_flagged_place_loses_the_credential_text() -> None:
    analysis = analyze(_with_password_quoted_far_away())
    unresolved = [f for f in analysis.findings if f.code == "OCP-S002"]
    assert [f.path for f in unresolved] == ["/statements/0/evidence/0"]
    assert "[redacted" in unresolved[0].message
    for finding in analysis.findings:
        assert PASSWORD not in finding.message
        assert PASSWORD not in finding.path
        assert all(PASSWORD not in text for text in finding.related)


def test_many_findings_with_one_message_are_each_shown_whole() -> None:
    document = _minimal()
    document["resources"] = [
        {"id": f"r-{i}", "kind": "file", "uri": f"https://user{i}@files.example.com/{i}"}
        for i in range(50)
    ]
    analysis = analyze(json.dumps(document).encode())
    userinfo = [f for f in analysis.findings if f.code == "OCP-S008"]
    assert [f.path for f in userinfo] == [f"/resources/{i}/uri" for i in range(50)]
    # the rule's fixed message, read once by the scanner and kept for every one
    assert len({f.message for f in userinfo}) == 1
    assert "userinfo" in userinfo[0].message
    assert all(f"user{i}@" not in f.message for i, f in enumerate(userinfo))


def test_documents_refused_for_a_bad_escape_keep_their_messages_and_their_text() -> None:
    """A "\\u" without four hexadecimal digits (a Windows path, a regular expression) is the
    error a document is refused for, never a credential: its message (which names "\\uXXXX")
    and its source listing are shown, where both were withheld whole."""
    from app.redaction import REDACTED
    from tests.conftest import JSONTESTSUITE

    windows = b'{"opencheckpoint":"0.1","task":{"objective":"C:\\Users\\me"}}'
    [finding] = analyze(windows).findings
    assert finding.code == "json" and finding.message.startswith("an invalid escape in a string")
    assert "\\uXXXX" in finding.message
    withheld = []
    for path in sorted(JSONTESTSUITE.glob("n_*escape*.json")) + sorted(
        JSONTESTSUITE.glob("n_*surrogate*.json")
    ):
        analysis = analyze(path.read_bytes())
        shown = [f.message for f in analysis.findings] + [analysis.shown_text]
        if any(REDACTED in text for text in shown):
            withheld.append(path.name)
    assert withheld == []
