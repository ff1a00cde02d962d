"""The generators of bench/worst.py make what they claim: valid JSON of the requested size (±5%),
a checkpoint the schema accepts unless the case is about schema errors, and each case's attack
present in the bytes. No timing here: bench/worst.py measures, this checks what it measures."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.analysis import analyze, lint
from bench import worst_cases as wc

ROOT = Path(__file__).resolve().parent.parent
SIZES = (100_000, 400_000)
SCHEMA_BREAKERS = {"schema-errors", "wide-extensions"}


def strings(node: Any) -> Iterator[str]:
    """Every string of a document, member names included."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from strings(value)
    elif isinstance(node, list):
        for item in node:
            yield from strings(item)
    elif isinstance(node, str):
        yield node


def depth(node: Any) -> int:
    if isinstance(node, dict):
        return 1 + max((depth(v) for v in node.values()), default=0)
    if isinstance(node, list):
        return 1 + max((depth(v) for v in node), default=0)
    return 0


@pytest.fixture(scope="module")
def grown() -> dict[tuple[str, int], tuple[int, bytes]]:
    cases = {**wc.BASELINES, **wc.CASES}
    return {
        (name, size): wc.grow(case.build, size) for name, case in cases.items() for size in SIZES
    }


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", [*wc.BASELINES, *wc.CASES])
def test_each_case_is_json_of_the_requested_size(grown, name, size):
    _n, data = grown[name, size]
    assert abs(len(data) - size) <= 0.05 * size, (name, len(data))
    assert isinstance(json.loads(data), dict)


@pytest.mark.parametrize("name", [*wc.BASELINES, *wc.CASES])
def test_each_case_is_a_checkpoint_every_stage_reads(grown, name):
    """Strict intake and the version gate pass, and the schema too (but for the case that is
    about schema errors), so the rules, the secret scan and the page all run."""
    n, data = grown[name, SIZES[0]]
    assert [f for f in analyze(data).intake.findings if f.code == "json"] == []
    case = wc.CASES.get(name) or wc.BASELINES[name]
    parent = case.parent(n) if case.parent is not None else None
    codes = {f.code for f in lint(data, parent=parent).findings}
    if name in SCHEMA_BREAKERS:
        assert "schema" in codes
    else:
        assert "schema" not in codes and "version" not in codes, codes


def test_the_benign_documents_have_no_findings(grown):
    n, data = grown["benign", 400_000]
    assert list(lint(data).findings) == []
    n, child = grown["benign-pair", 400_000]
    result = lint(child, parent=wc.lineage_parent(n))
    assert result.valid and list(result.findings) == [], [f.code for f in result.findings]
    document = json.loads(data)
    assert len(document["statements"]) > 100 and len(document["operations"]) > 100
    kinds = {s["kind"] for s in document["statements"]}
    assert {"instruction", "decision", "observation", "question"} <= kinds


@pytest.mark.parametrize(
    "name",
    [
        "printed-json",
        "diff-texts",
        "coloured-texts",
        "quoted-replies",
        "collected-logs",
        "commented-blocks",
        "html-texts",
        "listed-texts",
        "tabbed-texts",
        "numbered-texts",
        "grep-texts",
        "tool-results",
    ],
)
def test_a_benign_document_recorded_as_tools_output_has_no_findings(grown, name):
    """The benign document's texts as a tool's JSON output, diff hunks or coloured output:
    each text is read again by a decoder, and nothing in it is a credential."""
    _, data = grown[name, SIZES[0]]
    assert list(lint(data).findings) == []


def only_text(data: bytes) -> str:
    """The one long statement text of a single-string secrets case."""
    texts = [s["text"] for s in json.loads(data)["statements"] if s["id"] != "s-goal"]
    assert len(texts) == 1
    return str(texts[0])


def test_pem_cases_hold_unterminated_headers(grown):
    n, data = grown["pem-one-long", 400_000]
    text = only_text(data)
    assert text.startswith(wc.PEM_HEADER + "\n") and text.count("-----BEGIN") == 1
    assert "-----END" not in text and len(text) > 350_000
    assert re.fullmatch(r"[A-Za-z0-9+/\n]+", text.removeprefix(wc.PEM_HEADER))

    n, data = grown["pem-repeated", 400_000]
    text = only_text(data)
    assert text.count(wc.PEM_HEADER) == n > 1000 and "-----END" not in text

    n, data = grown["pem-many-strings", 400_000]
    texts = [s["text"] for s in json.loads(data)["statements"][1:]]
    assert len(texts) == n > 100
    assert all(t.startswith(wc.PEM_HEADER) and "-----END" not in t for t in texts)


def test_putty_password_and_prefix_runs_repeat_in_one_string(grown):
    n, data = grown["putty-headers", 400_000]
    text = only_text(data)
    assert text.count(wc.PUTTY_HEADER) == n > 1000 and "Private-MAC" not in text

    n, data = grown["password-runs", 400_000]
    assert only_text(data) == wc.PASSWORD_RUN * n

    n, data = grown["token-prefixes", 400_000]
    text = only_text(data)
    for prefix in wc.TOKEN_PREFIXES:
        assert text.count(prefix + " ") >= n > 100, prefix

    n, data = grown["base64-run", 400_000]
    text = only_text(data)
    assert len(text) > 380_000 and set(text) <= set(wc.BASE64_ALPHABET)


def test_escape_runs_hold_each_decoders_escapes_and_no_credential(grown):
    n, data = grown["escape-runs", 400_000]
    text = only_text(data)
    assert text == wc.ESCAPE_RUN * n and n > 10_000
    for escape in ("%41", "%2F", "&quot;", "\\t", "\\\\"):
        assert text.count(escape) >= n, escape
    assert lint(data).valid and not [f for f in lint(data).findings if f.code == "secret"]


def test_env_entries_are_read_and_refused(grown):
    """Thousands of two-line entries named for credentials, each holding a placeholder: each is
    read by `_name_then_value`, none is a credential; one real value among them is found."""
    from app.secrets import scan_text

    n, data = grown["env-entries", 400_000]
    text = only_text(data)
    assert text.count("- name: DB_PASSWORD\n  value: ") == n > 1000
    assert scan_text(text) == []
    real = "Zq9" + "hunter-2026x"
    spans = scan_text(text + f"- name: DB_PASSWORD\n  value: {real}\n")
    assert [(text + f"- name: DB_PASSWORD\n  value: {real}\n")[s:e] for s, e, _ in spans] == [real]


def test_assignment_runs_are_read_and_refused(grown):
    """Runs of assignments to credentials' names (YAML, a query, PowerShell, a flag, a
    subscript), each value refused: none is a credential; one real value after them is found."""
    from app.secrets import scan_text

    n, data = grown["assignment-runs", 400_000]
    text = only_text(data)
    assert text.count(wc.ASSIGNMENT_RUN) == n > 1000
    assert scan_text(text) == []
    real = "Zq9" + "hunter-2026x"
    spans = scan_text(text + f"--db-password={real} ")
    assert [(text + f"--db-password={real} ")[s:e] for s, e, _ in spans] == [real]


REFUSED_FLOODS = {
    "help-metavariables": "  --password=PASS",
    "table-rows": "_password | ******** |",
    "userinfo-placeholders": ":${PASS_",
    "label-prose": "密码：请联系管理员",
    "label-prose-strings": "密码：请联系管理员",
    "xml-elements": "<password>${DB_PASS_",
    "name-decoys": "api_key=abcdefgh",
    "base64-json": "eyJwYXNzd29yZCI6ICIke1BBU1Nf",
    "string-lists": '["password:", "see vault',
    "arrows": "_password → ********",
    "html-tables": "<td>********</td>",
    "told-names": "password to the default of svc",
    "told-keys": "x-api-key short, the api key is",
    "url-pages": "https://user:****@host",
    "arrow-strings": "_password → ********",
}


@pytest.mark.parametrize("name", sorted(REFUSED_FLOODS))
def test_refused_floods_hold_their_form_by_the_thousand_and_no_credential(grown, name):
    """Each flood of a detector's refused form holds it thousands of times (in one text, or a
    statement each), and the document lints with no secret found."""
    n, data = grown[name, 400_000]
    texts = [s["text"] for s in json.loads(data)["statements"]]
    assert sum(t.count(REFUSED_FLOODS[name]) for t in texts) >= n > 1000
    assert (len(texts) > 1000) == name.endswith("-strings")
    assert [f for f in lint(data).findings if f.code == "secret"] == []


def arguments(data: bytes) -> dict[str, str]:
    (operation,) = json.loads(data)["operations"]
    return dict(operation["call"]["arguments"])


def test_credential_flags_name_credentials_and_hold_none(grown):
    """Every flag and every pair's first item names a credential (each read for the item after
    it), every string is distinct, and none is a credential; a real value in place of one is
    found."""
    from app.secrets import _classify_name, find_secrets

    n, data = grown["credential-flags", 400_000]
    document = json.loads(data)
    argv, pairs = arguments(data)["argv"], arguments(data)["pairs"]
    assert len(argv) == 2 * n and len(pairs) == n > 1000
    flags, names = argv[::2], [pair[0] for pair in pairs]
    assert all(_classify_name(name.lstrip("-")) is not None for name in flags + names)
    assert len(set(argv + [item for pair in pairs for item in pair])) == 4 * n
    assert find_secrets(document) == []
    argv[1] = "Zq9" + "hunter-2026x"
    found = find_secrets({"argv": argv})
    assert [h.path for h in found] == ["/argv/1"]


def test_credential_shaped_member_names(grown):
    n, data = grown["aws-key-names", 400_000]
    members = arguments(data)
    assert len(members) == n > 4000  # 40,000 and more at 4 MB
    assert all(re.fullmatch(r"AKIA[0-9A-Z]{16}", name) for name in members)
    assert all(re.fullmatch(r"ghp_[A-Za-z0-9]{36}", value) for value in members.values())

    n, data = grown["api-key-names", 400_000]
    members = arguments(data)
    assert list(members) == [f"api_key_{i}" for i in range(n)] and n > 4000
    assert all(value.startswith("ghp_") for value in members.values())


def test_unresolved_references_one_line_and_many_newlines(grown):
    for name in ("unresolved-one-line", "unresolved-newlines"):
        n, data = grown[name, 400_000]
        document = json.loads(data)
        ids = {s["id"] for s in document["statements"]}
        refs = [r for s in document["statements"] for r in s.get("evidence", [])]
        assert len(refs) == n and not ids & set(refs)
        if name == "unresolved-one-line":
            assert b"\n" not in data and n > 40_000  # 480,000 at 4.8 MB
        else:
            assert data.count(b"\n") >= 40 * (n - len(ids))


def test_many_codes_each_present_many_times(grown):
    _n, data = grown["many-codes", 400_000]
    counts: dict[str, int] = {}
    for finding in lint(data).findings:
        counts[finding.code] = counts.get(finding.code, 0) + 1
    expected = {"OCP-S001", "OCP-S002", "OCP-S003", "OCP-S005", "OCP-S008", "OCP-W002", "secret"}
    assert expected <= set(counts), counts
    assert all(counts[code] >= 400 for code in expected), counts


def test_deep_nesting_reaches_the_depth_limit_and_no_further(grown):
    n, data = grown["deep-nesting", 400_000]
    document = json.loads(data)
    assert depth(document) == wc.MAX_DEPTH
    assert all(depth(op) == wc.MAX_DEPTH - 2 for op in document["operations"])
    assert len(document["operations"]) == n > 900
    deeper = data.replace(b'"bottom"', b'["bottom"]', 1)
    assert [f.code for f in analyze(deeper).intake.findings] == ["json"]


def test_long_strings_are_unbroken_runs_in_every_field(grown):
    _n, data = grown["long-strings", 400_000]
    document = json.loads(data)
    texts = [s for s in strings(document) if len(s) > 1000]
    assert sum(len(t) for t in texts) > 380_000
    assert sum(1 for t in texts if len(t) >= wc.LONG_RUN) >= 18
    assert not any(re.search(r"\s", t) for t in texts)
    assert len(document["task"]["objective"]) == wc.LONG_RUN
    fields = {"title", "uri", "text", "name"}
    seen = {key for obj in [*document["resources"], *document["statements"]] for key in obj}
    assert fields <= seen | {"name"}
    assert any(len(s["origin"].get("name", "")) == wc.LONG_RUN for s in document["statements"])


def test_tiny_statements_are_many_and_small(grown):
    n, data = grown["tiny-statements", 400_000]
    statements = json.loads(data)["statements"]
    assert len(statements) == n + 1 > 5000
    assert all(len(json.dumps(s)) < 80 for s in statements[1:])


def test_unicode_heavy_text_as_utf8(grown):
    _n, data = grown["unicode-heavy", 400_000]
    assert b"\\u" not in data  # the characters themselves, not escapes
    text = data.decode("utf-8")
    assert any(ord(c) > 0xFFFF for c in text)
    assert any(unicodedata.combining(c) for c in text)
    assert any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)
    assert "\u202e" in text
    assert all(s["text"].startswith(wc.UNICODE_TEXT) for s in json.loads(data)["statements"][1:])


def test_the_lineage_child_changed_every_statement_of_its_parent(grown):
    n, child = grown["lineage-all-changed", 400_000]
    parent = wc.lineage_parent(n)
    child_doc, parent_doc = json.loads(child), json.loads(parent)
    assert child_doc["parent"] == {
        "id": parent_doc["id"],
        "digest": "sha-256:" + hashlib.sha256(parent).hexdigest(),
    }
    before = {s["id"]: s["text"] for s in parent_doc["statements"]}
    after = {s["id"]: s["text"] for s in child_doc["statements"]}
    assert before.keys() == after.keys() and len(before) > 100
    assert all(before[i] != after[i] for i in before if i != "s-goal")
    assert "digest" not in {f.code for f in lint(child, parent=parent).findings}


def test_the_benchmark_measures_a_lint_in_a_subprocess(tmp_path):
    """The harness itself: one measurement of `ocp lint` prints its figures as JSON."""
    path = tmp_path / "refs.ocp.json"
    path.write_bytes(wc.unresolved_one_line(50))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "worst.py"), "--measure", "lint", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["exit"] == 1  # the unresolved references make it invalid
    assert figures["report_lines"] >= 50
    assert figures["runs"] >= 3 and figures["wall"] > 0 and figures["cpu"] > 0


def test_near_misses_of_every_rule_hold_no_credential(grown):
    """The rules' worst cases almost match every rule (app/secrets/rules.py) and match none:
    a benchmark that flagged them would time the withholding, not the scan."""
    from app.secrets import find_secrets, scan_text
    from app.secrets.rules import RULES

    for full in (False, True):
        misses = wc.rule_near_misses(full)
        assert len(misses) >= len(RULES)
        assert scan_text(" ".join(misses)) == []
    for name in ("near-miss-text", "near-miss-members"):
        n, data = grown[name, 400_000]
        assert find_secrets(json.loads(data)) == [], name
    n, data = grown["near-miss-members", 400_000]
    members = arguments(data)
    assert len(members) == n > 2000 and len({m.split(" ")[0] for m in members}) > 300


def test_told_strings_each_reach_a_detector_and_hold_no_credential(grown):
    """Each short string names a credential and tells a value the scan refuses: every one is
    read, none flagged (a flagged one would stop the scan at its limit of places)."""
    from app.secrets import find_secrets

    n, data = grown["told-strings", 400_000]
    items = arguments(data)["items"]
    assert len(items) == n > 8000 and len(set(items)) == n
    assert find_secrets(json.loads(data)) == []


def test_token_names_flag_each_name_and_nothing_else(grown):
    from app.secrets import find_secrets

    n, data = grown["token-names", 400_000]
    hits = find_secrets(json.loads(data))
    assert len(hits) == min(n, 900) > 100
    assert all(h.in_key and h.path.startswith("/extensions/") for h in hits)


def test_forgetting_documents_empties_their_memos_and_keeps_the_process_s() -> None:
    """The benches time a document as a process that has not seen it does: the memos of
    names and values are emptied before each run; what every document shares is kept."""
    from app.secrets import _classify_name, _credential_value, _pat_issuers
    from bench.worst_cases import forget_documents

    _classify_name("DB_PASSWORD")
    _credential_value("password", "Tr7vKq2mXw9pLz4n")
    _pat_issuers()
    assert _classify_name.cache_info().currsize and _credential_value.cache_info().currsize
    forget_documents()
    assert _classify_name.cache_info().currsize == 0
    assert _credential_value.cache_info().currsize == 0
    assert _pat_issuers.cache_info().currsize == 1  # (every document's: kept)
