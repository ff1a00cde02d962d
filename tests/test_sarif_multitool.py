"""`ocp lint --format sarif` fed to its real consumer: Microsoft's SARIF multitool with GitHub's
ingestion rules (`validate --rule-kind "Sarif;Gh"`), for the ways CI authors name files."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE

ROOT = Path(__file__).resolve().parents[1]
FETCH = ROOT / "scripts" / "fetch-sarif-multitool.sh"
OCP = Path(sys.executable).parent / "ocp"
ODD = "a b#c%d,é.ocp.json"  # a space, '#', '%', ',' and a non-ASCII letter
# The driver's informationUri (SARIF2005, a warning) is the rule pages of a service, so only a
# run told the service's address (--base-url or OCP_PUBLIC_URL) has one: this project has no
# public address to name instead, and a guessed one would be a link that lies.
WITHOUT_BASE_URL = {"SARIF2005"}


@pytest.fixture(scope="module")
def multitool() -> str:
    done = subprocess.run(["sh", str(FETCH)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A working folder holding checkpoints under ordinary and odd names."""
    (tmp_path / "checkpoints").mkdir()
    for name in ("handoff.ocp.json", ODD):
        shutil.copyfile(
            CONFORMANCE / "secret-aws-pem-github.ocp.json", tmp_path / "checkpoints" / name
        )
    return tmp_path


def validate(multitool: str, log: Path) -> list[dict]:
    """The multitool's findings on ``log``: its results at level error or warning."""
    out = log.with_suffix(".validation.sarif")
    subprocess.run(
        [multitool, "validate", "--rule-kind", "Sarif;Gh", "-o", str(out), str(log)],
        env={**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1"},
        capture_output=True,
        check=False,
        timeout=120,
    )
    results = json.loads(out.read_text(encoding="utf-8-sig"))["runs"][0]["results"]
    return [r for r in results if r.get("level", "warning") in ("error", "warning")]


@pytest.mark.parametrize(
    "names",
    [
        ["checkpoints/handoff.ocp.json"],
        ["./checkpoints/handoff.ocp.json", "checkpoints/../checkpoints/handoff.ocp.json"],
        [f"checkpoints/{ODD}"],
        ["{root}/checkpoints/handoff.ocp.json"],  # absolute, inside the working folder
        [str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")],  # outside it
        ["checkpoints/handoff.ocp.json", "checkpoints/missing.ocp.json"],  # one unreadable
    ],
    ids=["relative", "dot-slash", "odd-name", "absolute-inside", "absolute-outside", "missing"],
)
def test_github_ingests_the_sarif_log(multitool, repository, names):
    arguments = [name.format(root=repository) for name in names]
    done = subprocess.run(
        [str(OCP), "lint", "--format", "sarif", *arguments],
        cwd=repository,
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1, 2) and b"Traceback" not in done.stderr, done.stderr
    log = repository / "ocp.sarif"
    log.write_bytes(done.stdout)
    problems = [r for r in validate(multitool, log) if r["ruleId"] not in WITHOUT_BASE_URL]
    assert problems == []


@pytest.mark.parametrize(
    "named",
    [[], ["--stdin-filename", "checkpoints/handoff.ocp.json"]],
    ids=["stdin", "stdin-filename"],
)
def test_github_ingests_the_sarif_log_of_standard_input(multitool, repository, named):
    source = (repository / "checkpoints" / "handoff.ocp.json").read_bytes()
    done = subprocess.run(
        [str(OCP), "lint", "--format", "sarif", *named, "-"],
        cwd=repository,
        input=source,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    log = repository / "ocp.sarif"
    log.write_bytes(done.stdout)
    assert [r for r in validate(multitool, log) if r["ruleId"] not in WITHOUT_BASE_URL] == []
    (run,) = json.loads(done.stdout)["runs"]
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    assert uris == ({"checkpoints/handoff.ocp.json"} if named else {"stdin"})


def test_a_run_told_the_service_address_names_the_rule_pages(multitool, repository):
    done = subprocess.run(
        [
            str(OCP),
            "lint",
            "--format",
            "sarif",
            "--base-url",
            "https://ocp.example.test/viewer",
            "checkpoints/handoff.ocp.json",
        ],
        cwd=repository,
        capture_output=True,
        check=False,
    )
    log = repository / "ocp.sarif"
    log.write_bytes(done.stdout)
    assert validate(multitool, log) == []  # SARIF2005 included
    driver = json.loads(done.stdout)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://ocp.example.test/viewer/rules"
    assert all(
        r["helpUri"].startswith("https://ocp.example.test/viewer/rules/") for r in driver["rules"]
    )


def test_files_are_named_relative_to_srcroot_and_percent_encoded(repository):
    done = subprocess.run(
        [
            str(OCP),
            "lint",
            "--format",
            "sarif",
            f"./checkpoints/{ODD}",
            f"{repository}/checkpoints/{ODD}",
        ],
        cwd=repository,
        capture_output=True,
        check=False,
    )
    [run] = json.loads(done.stdout)["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repository.as_uri() + "/"
    # the same file named two ways is one artifact
    [artifact] = run["artifacts"]
    encoded = "checkpoints/a%20b%23c%25d%2C%C3%A9.ocp.json"
    assert artifact["location"] == {"uri": encoded, "uriBaseId": "%SRCROOT%"}
    for result in run["results"]:
        where = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert where == {"uri": encoded, "uriBaseId": "%SRCROOT%", "index": 0}


def test_sarif_root_names_files_from_another_folder(repository):
    done = subprocess.run(
        [
            str(OCP),
            "lint",
            "--format",
            "sarif",
            "--sarif-root",
            str(repository.parent),
            "handoff.ocp.json",
        ],
        cwd=repository / "checkpoints",
        capture_output=True,
        check=False,
    )
    [run] = json.loads(done.stdout)["runs"]
    uri = run["artifacts"][0]["location"]["uri"]
    assert uri == f"{repository.name}/checkpoints/handoff.ocp.json"


def sarif_of(tmp_path: Path, document: dict | str, *extra: str) -> dict:
    path = tmp_path / "c.ocp.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document, indent=2))
    done = subprocess.run(
        [str(OCP), "lint", "--format", "sarif", *extra, path.name],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    return json.loads(done.stdout)["runs"][0]


def minimal() -> dict:
    return json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())


def test_columns_are_counted_in_utf16_code_units_as_stated(tmp_path):
    """A character beyond U+FFFF is one code point and two UTF-16 code units: a finding after
    two of them on its line is two columns further right in SARIF than in the text report."""
    document = minimal()
    document["statements"] = [{"id": "s-1", "text": "x", "origin": {"type": "user"}}]
    text = json.dumps(document, indent=2, ensure_ascii=False)
    # an unknown kind (a schema finding at /statements/0/kind) after two emoji on its line
    text = text.replace('"text": "x"', '"text": "😀😀", "kind": "rumour"')
    run = sarif_of(tmp_path, text)
    assert run["columnKind"] == "utf16CodeUnits"
    done = subprocess.run(
        [str(OCP), "lint", "c.ocp.json"], cwd=tmp_path, capture_output=True, text=True
    )
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in run["results"]]
    text_lines = [(int(m[1]), int(m[2])) for m in re.finditer(r":(\d+):(\d+): ", done.stdout)]
    assert text_lines and len(regions) == len(text_lines)
    line_with_emoji = next(n for n, t in enumerate(text.split("\n"), 1) if "😀" in t)
    assert any(line == line_with_emoji for line, _ in text_lines)  # the unknown kind
    for (line, column), region in zip(text_lines, regions, strict=True):
        assert region["startLine"] == line
        if line == line_with_emoji and column > text.split("\n")[line - 1].index("😀"):
            assert region["startColumn"] == column + 2
        else:
            assert region["startColumn"] == column


def test_each_finding_has_its_own_line_hash_which_survives_lines_moving(tmp_path):
    document = minimal()
    # two different findings at the same place: an unknown kind and a missing origin
    document["statements"] = [{"id": "s-1", "kind": "rumour", "text": "Heard it."}]
    first = sarif_of(tmp_path, document)
    hashes = [r["partialFingerprints"]["primaryLocationLineHash"] for r in first["results"]]
    assert len(hashes) >= 2 and len(set(hashes)) == len(hashes)
    # the same findings after blank lines are added above them
    moved = json.dumps(document, indent=2).replace("{\n", "{\n\n\n\n", 1)
    second = sarif_of(tmp_path, moved)
    lines = [
        r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in second["results"]
    ]
    assert lines != [
        r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in first["results"]
    ]
    assert [
        r["partialFingerprints"]["primaryLocationLineHash"] for r in second["results"]
    ] == hashes


def test_credential_rules_are_security_rules_and_descriptions_fit_github(tmp_path):
    run = sarif_of(tmp_path, minimal())
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    for code in ("secret", "OCP-S008"):
        properties = rules[code]["properties"]
        assert properties["tags"] == ["security"]
        assert 0 < float(properties["security-severity"]) <= 10
    assert "tags" not in rules["OCP-S002"]["properties"]
    for rule in rules.values():
        assert len(rule["fullDescription"]["text"]) <= 1024, rule["id"]
        assert rule["fullDescription"]["text"] != rule["shortDescription"]["text"], rule["id"]
        assert rule["name"].lower() != rule["id"].lower()


def test_github_ingests_accepted_findings_as_suppressions(multitool, repository):
    (repository / "ocp.toml").write_text(
        '[[accepted]]\ncode = "secret"\npath = "/statements/8/text"\n'
        'reason = "a revoked key kept as an example"\n'
    )
    done = subprocess.run(
        [str(OCP), "lint", "--format", "sarif", "checkpoints/handoff.ocp.json"],
        cwd=repository,
        capture_output=True,
        check=False,
    )
    log = repository / "accepted.sarif"
    log.write_bytes(done.stdout)
    results = json.loads(done.stdout)["runs"][0]["results"]
    assert [r["suppressions"][0]["justification"] for r in results if "suppressions" in r] == [
        "a revoked key kept as an example"
    ]
    assert [r for r in validate(multitool, log) if r["ruleId"] not in WITHOUT_BASE_URL] == []


def test_plain_text_fields_carry_no_markdown(tmp_path):
    """A SARIF text is shown as written: the rules' code spans are plain there, and kept in
    the Markdown beside them."""
    rules = {r["id"]: r for r in sarif_of(tmp_path, minimal())["tool"]["driver"]["rules"]}
    for rule in rules.values():
        for part in ("shortDescription", "fullDescription", "help"):
            assert "`" not in rule[part]["text"], (rule["id"], part)
    assert rules["OCP-S004"]["shortDescription"] == {
        "text": "parent.id differs from id.",
        "markdown": "`parent.id` differs from `id`.",
    }


def test_a_region_ends_where_the_value_s_token_ends(tmp_path):
    """A finding at a scalar covers the whole scalar, in UTF-16 code units."""
    document = minimal()
    document["progress"] = {"next": [{"description": "d", "blocked_by": ["no-such-😀-step"]}]}
    text = json.dumps(document, indent=2, ensure_ascii=False)
    run = sarif_of(tmp_path, text)
    by_code = {}
    for result in run["results"]:
        by_code.setdefault(result["ruleId"], result["locations"][0]["physicalLocation"]["region"])
    s002 = by_code["OCP-S002"]
    # '"no-such-😀-step"': 16 code points, the emoji two UTF-16 code units
    assert s002["endLine"] == s002["startLine"]
    assert s002["endColumn"] - s002["startColumn"] == len('"no-such-😀-step"') + 1
    line = text.split("\n")[s002["startLine"] - 1]
    assert line[s002["startColumn"] - 1] == '"'
    for region in by_code.values():
        assert region["endColumn"] > region["startColumn"]
