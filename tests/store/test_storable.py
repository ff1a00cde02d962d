"""Only checkpoints are stored: a JSON object that is not one is refused, in the store itself
and by the cheap gates before any analysis, with words that say what is missing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.analysis import analyze
from app.parse import DEFAULT_LIMITS, Intake
from app.store import NotStorable, Store
from app.store.storable import Refusal, early_refusal, not_a_checkpoint
from tests.backends import Backend
from tests.conftest import CONFORMANCE

MINIMAL = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())


def encoded(document: Any) -> bytes:
    return json.dumps(document).encode()


def test_a_blob_is_refused_by_the_store_saying_what_is_missing(
    store: Store, backend: Backend
) -> None:
    data = encoded({"blob": "A" * 10_000})
    with pytest.raises(NotStorable) as refused:
        store.put(data, analyze(data))
    message = str(refused.value)
    assert 'no "opencheckpoint" member' in message
    assert "POST /api/v1/lint" in message  # what to do instead
    assert backend.count("checkpoints") == 0


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"opencheckpoint": "0.2"}, 'its "opencheckpoint" is not "0.1"'),
        ({"opencheckpoint": 0.1}, 'its "opencheckpoint" is not "0.1"'),
        ({"source": None}, None),  # present: a schema finding, still a checkpoint to review
    ],
)
def test_the_version_gate_decides(change: dict[str, Any], expected: str | None) -> None:
    why = not_a_checkpoint({**MINIMAL, **change})
    if expected is None:
        assert why is None
    else:
        assert why is not None and expected in why


def test_missing_required_members_are_named() -> None:
    document = {"opencheckpoint": "0.1", "id": "urn:x:1", "blob": "x"}
    why = not_a_checkpoint(document)
    assert why is not None
    assert '"created_at", "source" or "task" members' in why
    assert not_a_checkpoint({k: v for k, v in MINIMAL.items() if k != "task"}) is not None
    assert not_a_checkpoint(MINIMAL) is None


def test_a_refusal_never_repeats_the_documents_text() -> None:
    document = {**MINIMAL, "opencheckpoint": "ghp_" + "a1B2c3D4e5" * 4}
    why = not_a_checkpoint(document)
    assert why is not None and "ghp_" not in why


def test_an_invalid_checkpoint_is_still_stored(store: Store) -> None:
    data = encoded({**MINIMAL, "id": 42, "extra": True})
    result = analyze(data)
    assert not result.valid
    assert store.put(data, result).meta.valid is False


def test_early_refusal_order_json_then_version_then_credentials() -> None:
    not_json = early_refusal(b'{"a": 1,', DEFAULT_LIMITS)
    assert isinstance(not_json, Refusal) and not_json.findings and "not JSON" in not_json.message
    token = "ghp_" + "a1B2c3D4e5" * 4
    # A future version holding a credential: the version gate answers first.
    future = early_refusal(
        encoded({**MINIMAL, "opencheckpoint": "0.2", "note": token}), DEFAULT_LIMITS
    )
    assert isinstance(future, Refusal)
    assert "is not stored" in future.message and not future.secret_paths
    secret = early_refusal(
        encoded({**MINIMAL, "extensions": {"com.example/x": token}}), DEFAULT_LIMITS
    )
    assert isinstance(secret, Refusal) and "credentials" in secret.message
    assert secret.secret_paths == ("/extensions/com.example~1x",)
    assert isinstance(early_refusal(encoded(MINIMAL), DEFAULT_LIMITS), Intake)


@pytest.mark.parametrize(
    "name", ["valid-support-handoff.ocp.json", "schema-bad-task-status.ocp.json"]
)
def test_the_analysis_after_the_gates_is_the_analysis_of_the_bytes(name: str) -> None:
    """Storing parses and scans once: the gates' intake and their finding of no credential go
    into the analysis, which must come out as a fresh one would."""
    data = (CONFORMANCE / name).read_bytes()
    gate = early_refusal(data, DEFAULT_LIMITS)
    assert isinstance(gate, Intake)
    reused = analyze(data, DEFAULT_LIMITS, intake=gate, secret_free=True)
    fresh = analyze(data, DEFAULT_LIMITS)
    assert reused.findings == fresh.findings
    assert (reused.valid, reused.digest, reused.secrets) == (fresh.valid, fresh.digest, ())


def test_a_credential_used_as_a_member_name_is_withheld_from_the_refusal() -> None:
    token = "ghp_" + "a1B2c3D4e5" * 4
    refusal = early_refusal(encoded({**MINIMAL, "extensions": {token: 1}}), DEFAULT_LIMITS)
    assert isinstance(refusal, Refusal)
    assert refusal.secret_paths and all(token not in path for path in refusal.secret_paths)
