"""`ocp lint --format sarif` fed to its real consumer: Microsoft's SARIF multitool with GitHub's
ingestion rules (`validate --rule-kind "Sarif;Gh"`), for the ways CI authors name files."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE

# `make check` leaves this out: it runs Microsoft's SARIF multitool.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
FETCH = ROOT / "scripts" / "fetch-sarif-multitool.sh"
OCP = Path(sys.executable).parent / "ocp"
ODD = "a b#c%d,é.ocp.json"  # a space, '#', '%', ',' and a non-ASCII letter
# Nothing is tolerated: the driver's informationUri (SARIF2005) is a service's rule pages with
# a base URL, and the project's documentation (app/project.py) without one.
WITHOUT_BASE_URL: frozenset[str] = frozenset()


@pytest.fixture(scope="module")
def multitool() -> str:
    done = subprocess.run(["sh", str(FETCH)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def make_repository(folder: Path) -> Path:
    """A working folder holding checkpoints under ordinary and odd names."""
    (folder / "checkpoints").mkdir(parents=True)
    for name in ("handoff.ocp.json", ODD):
        shutil.copyfile(
            CONFORMANCE / "secret-aws-pem-github.ocp.json", folder / "checkpoints" / name
        )
    return folder


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    return make_repository(tmp_path)


@dataclass
class Linted:
    """One `ocp lint --format sarif` run, and what the multitool found in its log."""

    done: subprocess.CompletedProcess[bytes]
    log: Path
    problems: list[dict] = field(default_factory=list)  # level error or warning

    def ingested(self, *, tolerate: frozenset[str] = WITHOUT_BASE_URL) -> list[dict]:
        return [r for r in self.problems if r["ruleId"] not in tolerate]


def lint_sarif(repository: Path, *arguments: str, stdin: bytes | None = None) -> Linted:
    done = subprocess.run(
        [str(OCP), "lint", "--format", "sarif", *arguments],
        cwd=repository,
        input=stdin,
        capture_output=True,
        check=False,
    )
    log = repository / "ocp.sarif"
    log.write_bytes(done.stdout)
    return Linted(done, log)


NAMES = {
    "relative": ["checkpoints/handoff.ocp.json"],
    "dot-slash": ["./checkpoints/handoff.ocp.json", "checkpoints/../checkpoints/handoff.ocp.json"],
    "odd-name": [f"checkpoints/{ODD}"],
    "absolute-inside": ["{root}/checkpoints/handoff.ocp.json"],  # inside the working folder
    "absolute-outside": [str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")],
    "missing": ["checkpoints/handoff.ocp.json", "checkpoints/missing.ocp.json"],  # one unreadable
}
STDIN = {"stdin": [], "stdin-filename": ["--stdin-filename", "checkpoints/handoff.ocp.json"]}
BASE_URL = "https://ocp.example.test/viewer"


def with_accepted_finding(repository: Path) -> Linted:
    (repository / "ocp.toml").write_text(
        '[[accepted]]\ncode = "secret"\npath = "/statements/8/text"\n'
        'reason = "a revoked key kept as an example"\n'
    )
    return lint_sarif(repository, "checkpoints/handoff.ocp.json")


def from_stdin(repository: Path, named: list[str]) -> Linted:
    source = (repository / "checkpoints" / "handoff.ocp.json").read_bytes()
    return lint_sarif(repository, *named, "-", stdin=source)


def scenarios() -> dict[str, Callable[[Path], Linted]]:
    runs: dict[str, Callable[[Path], Linted]] = {}
    for name, names in NAMES.items():
        runs[name] = lambda r, names=names: lint_sarif(r, *(n.format(root=r) for n in names))
    for name, named in STDIN.items():
        runs[name] = lambda r, named=named: from_stdin(r, named)
    runs["base-url"] = lambda r: lint_sarif(
        r, "--base-url", BASE_URL, "checkpoints/handoff.ocp.json"
    )
    # credentials that fail the run (--fail-on secret): results at level error
    runs["failing"] = lambda r: lint_sarif(r, "--fail-on", "secret", "checkpoints")
    runs["failing-base-url"] = lambda r: lint_sarif(
        r, "--fail-on", "secret", "--base-url", BASE_URL, "checkpoints"
    )
    runs["usage-error"] = lambda r: lint_sarif(r, "--select", "nope", "checkpoints")
    runs["output-file"] = output_file
    runs["accepted"] = with_accepted_finding
    runs["broken"] = broken
    return runs


def output_file(repository: Path) -> Linted:
    """The log --output-format writes beside the text on standard output."""
    done = subprocess.run(
        [
            str(OCP),
            "lint",
            "--fail-on",
            "secret",
            "--output-format",
            "sarif=ocp.sarif",
            "checkpoints",
        ],
        cwd=repository,
        capture_output=True,
        check=False,
    )
    return Linted(done, repository / "ocp.sarif")


def broken(repository: Path) -> Linted:
    """A log GitHub refuses (a result without its message): the batch must find it wanting."""
    linted = lint_sarif(repository, "checkpoints/handoff.ocp.json")
    log = json.loads(linted.log.read_text())
    del log["runs"][0]["results"][0]["message"]
    linted.log.write_text(json.dumps(log))
    return linted


def validate_all(multitool: str, logs: list[Path]) -> dict[str, list[dict]]:
    """The multitool's findings on each of ``logs``, by the log's file URI: its results at
    level error or warning."""
    out = logs[0].parent.parent / "validation.sarif"
    out.unlink(missing_ok=True)  # the multitool refuses to overwrite one
    done = subprocess.run(
        [multitool, "validate", "--rule-kind", "Sarif;Gh", "-o", str(out), *map(str, logs)],
        env={**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1"},
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert out.exists(), done.stdout.decode(errors="replace")[-2000:]
    found: dict[str, list[dict]] = {}
    for result in json.loads(out.read_text(encoding="utf-8-sig"))["runs"][0]["results"]:
        if result.get("level", "warning") in ("error", "warning"):
            uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            found.setdefault(uri, []).append(result)
    return found


@pytest.fixture(scope="module")
def ingested(multitool: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Linted]:
    """Every scenario of this module run in a working folder of its own, and the multitool's
    findings on each log. One multitool run validates them all: its start-up (.NET) costs
    more than validating a log."""
    runs = {
        name: run(make_repository(tmp_path_factory.mktemp(name)))
        for name, run in scenarios().items()
    }
    by_log = validate_all(multitool, [linted.log for linted in runs.values()])
    for linted in runs.values():
        linted.problems = by_log.get(linted.log.resolve().as_uri(), [])
    return runs


def test_the_validation_finds_what_github_would_refuse(ingested):
    """The batch's own check: a log GitHub refuses is found wanting, beside logs it takes."""
    assert ingested["broken"].ingested(), "a result without a message was not found wanting"
    assert ingested["relative"].ingested() == []


@pytest.mark.parametrize("scenario", list(NAMES))
def test_github_ingests_the_sarif_log(ingested, scenario):
    linted = ingested[scenario]
    assert linted.done.returncode in (0, 1, 2), linted.done.stderr
    assert b"Traceback" not in linted.done.stderr, linted.done.stderr
    assert linted.ingested() == []


@pytest.mark.parametrize("scenario", list(STDIN))
def test_github_ingests_the_sarif_log_of_standard_input(ingested, scenario):
    linted = ingested[scenario]
    assert linted.done.returncode == 0 and b"Traceback" not in linted.done.stderr
    assert linted.ingested() == []
    (run,) = json.loads(linted.done.stdout)["runs"]
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    assert uris == ({"checkpoints/handoff.ocp.json"} if STDIN[scenario] else {"stdin"})


@pytest.mark.parametrize("scenario", ["failing", "failing-base-url", "output-file"])
def test_github_ingests_a_failing_run_whose_credentials_are_errors(ingested, scenario):
    linted = ingested[scenario]
    assert linted.done.returncode == 1, linted.done.stderr
    (run,) = json.loads(linted.log.read_text())["runs"]
    assert run["results"] and {r["level"] for r in run["results"]} == {"error"}
    assert linted.ingested() == []


def test_github_ingests_the_log_of_a_usage_error(ingested):
    linted = ingested["usage-error"]
    assert linted.done.returncode == 2
    (run,) = json.loads(linted.done.stdout)["runs"]
    assert run["invocations"][0]["executionSuccessful"] is False
    assert linted.ingested() == []


def test_a_run_told_the_service_address_names_the_rule_pages(ingested):
    linted = ingested["base-url"]
    assert linted.ingested(tolerate=frozenset()) == []  # SARIF2005 included
    driver = json.loads(linted.done.stdout)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == f"{BASE_URL}/rules"
    assert all(r["helpUri"].startswith(f"{BASE_URL}/rules/") for r in driver["rules"])


def test_github_ingests_accepted_findings_as_suppressions(ingested):
    linted = ingested["accepted"]
    results = json.loads(linted.done.stdout)["runs"][0]["results"]
    assert [r["suppressions"][0]["justification"] for r in results if "suppressions" in r] == [
        "a revoked key kept as an example"
    ]
    assert linted.ingested() == []


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
