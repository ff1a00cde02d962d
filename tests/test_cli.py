"""`ocp lint`: exit codes, standard input, many files, and the four formats."""

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from app.cli import main
from app.project import DOCUMENTATION_URL
from tests.conftest import CONFORMANCE, assert_report
from tests.conftest import SARIF_SCHEMA as SARIF_SCHEMA_FILE

VALID = str(CONFORMANCE / "valid-coding-refactor.ocp.json")
CHILD = str(CONFORMANCE / "valid-coding-refactor-child.ocp.json")
INVALID = str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")
WARNED = str(CONFORMANCE / "rule-W003-awaiting-op-expired.ocp.json")
NOT_JSON = str(CONFORMANCE / "json-nan.ocp.json")
SECRETS = str(CONFORMANCE / "secret-signed-url-bearer.ocp.json")
SARIF_SCHEMA = json.loads(SARIF_SCHEMA_FILE.read_text())
GNU_LINE = re.compile(
    r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning) (?P<code>\S+) .+$"
)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    if _format(argv) == "json" and out.strip():
        assert_report(out)  # every JSON report the suite prints is the documented shape
    return status, out, err


def _format(argv: tuple[str, ...]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--format" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--format="):
            return arg.split("=", 1)[1]
    return None


def test_valid_file_exits_0(capsys):
    status, out, _ = run(capsys, "lint", VALID)
    assert status == 0
    assert out.strip().endswith("valid (levels 1–2): 0 errors, 0 warnings")


def test_warnings_alone_still_exit_0(capsys):
    status, out, _ = run(capsys, "lint", WARNED)
    assert status == 0
    assert "warning OCP-W003" in out


def test_invalid_file_exits_1_with_gnu_style_lines(capsys):
    status, out, _ = run(capsys, "lint", INVALID)
    assert status == 1
    finding_lines = [line for line in out.splitlines() if GNU_LINE.match(line)]
    assert len(finding_lines) == 1
    match = GNU_LINE.match(finding_lines[0])
    assert match["code"] == "OCP-S002" and match["sev"] == "error"
    assert match["file"] == INVALID
    # the line and column point at the dangling reference in the file
    text = Path(INVALID).read_text().splitlines()
    line = text[int(match["line"]) - 1]
    assert line[int(match["col"]) - 1] == '"'


def test_missing_file_is_exit_2_not_a_pass(capsys):
    status, _, err = run(capsys, "lint", "/no/such/file.ocp.json")
    assert status == 2
    assert "no such file" in err


def test_missing_file_among_others_still_reports_the_others(capsys):
    status, out, err = run(capsys, "lint", "--format", "json", VALID, "/nope.json", INVALID)
    assert status == 2
    report = json.loads(out)
    assert [r["file"] for r in report["results"]] == [VALID, "/nope.json", INVALID]
    assert [r["valid"] for r in report["results"]] == [True, False, False]
    assert report["results"][1]["error"] == "no such file"
    assert "/nope.json" in err


def test_directory_and_bad_option_are_usage_errors(capsys, tmp_path):
    assert run(capsys, "lint", str(tmp_path))[0] == 2
    with pytest.raises(SystemExit) as exc:
        main(["lint", "--format", "xml", VALID])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["lint"])
    assert exc.value.code == 2


def test_many_files_one_process_and_the_worst_status_wins(capsys):
    status, out, _ = run(capsys, "lint", "--format", "json", VALID, INVALID, NOT_JSON)
    assert status == 1
    report = json.loads(out)
    assert [r["valid"] for r in report["results"]] == [True, False, False]
    assert report["results"][2]["levels"] == {"syntax": "fail", "semantics": "not_run"}


def test_json_report_matches_the_contract(capsys):
    _, out, _ = run(capsys, "lint", "--format", "json", INVALID)
    report = json.loads(out)
    assert set(report["tool"]) == {"name", "version", "spec_version"}
    assert report["tool"]["spec_version"] == "0.1"
    [result] = report["results"]
    assert result["digest"].startswith("sha-256:") and len(result["digest"]) == 8 + 64
    assert result["levels"] == {"syntax": "pass", "semantics": "fail"}
    [finding] = result["findings"]
    assert {"code", "severity", "path", "line", "column", "message", "help_url"} <= set(finding)
    assert finding["help_url"] == "/rules/OCP-S002"
    assert finding["path"] == "/progress/next/0/blocked_by/0"


def test_standard_input(capsys, monkeypatch):
    import io

    data = Path(INVALID).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, _ = run(capsys, "lint", "--format", "json", "-")
    assert status == 1
    assert json.loads(out)["results"][0]["file"] == "-"


def test_standard_input_through_the_installed_script():
    ocp = Path(sys.executable).parent / "ocp"
    run_ = subprocess.run(
        [str(ocp), "lint", "--format", "text", "-"],
        input=Path(VALID).read_bytes(),
        capture_output=True,
        timeout=60,
    )
    assert run_.returncode == 0
    assert run_.stdout.decode().startswith("-: valid")


def test_the_installed_script_exits_with_each_status_and_its_output_whole(tmp_path):
    """`ocp` leaves a one-shot command's process at once (app.cli.entry): the status is
    main()'s and what it printed arrives whole, on a terminal's pipe or in a file."""
    ocp = str(Path(sys.executable).parent / "ocp")
    invalid = str(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json")
    for args, status in (([VALID], 0), ([invalid], 1), ([str(tmp_path / "none.ocp.json")], 2)):
        done = subprocess.run([ocp, "lint", *args], capture_output=True, timeout=60)
        assert done.returncode == status, done.stderr
    report = tmp_path / "report.json"
    many = []
    for n in range(200):  # (400 files: a file named twice is linted once)
        for source, name in ((VALID, f"ok-{n}.ocp.json"), (invalid, f"bad-{n}.ocp.json")):
            (tmp_path / name).write_bytes(Path(source).read_bytes())
            many.append(str(tmp_path / name))
    with report.open("wb") as out:
        done = subprocess.run([ocp, "lint", "--format", "json", *many], stdout=out, timeout=60)
    assert done.returncode == 1
    assert len(json.loads(report.read_bytes())["results"]) == 400


def test_a_reader_that_goes_away_is_exit_2_without_a_traceback():
    ocp = str(Path(sys.executable).parent / "ocp")
    with subprocess.Popen(
        [ocp, "lint", "--format", "json", *[VALID] * 200],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # before the linter writes a byte
        err = process.stderr.read()
        assert process.wait(timeout=60) == 2
    assert b"Traceback" not in err and b"Exception ignored" not in err


def test_parent_enables_lineage_rules(capsys):
    t001 = str(CONFORMANCE / "rule-T001-cancelled-op-reopened.ocp.json")
    status, out, _ = run(capsys, "lint", "--format", "json", "--parent", VALID, t001)
    assert status == 1
    codes = [f["code"] for f in json.loads(out)["results"][0]["findings"]]
    assert codes == ["OCP-T001"]
    assert run(capsys, "lint", "--parent", VALID, CHILD)[0] == 0


def test_unusable_parent_is_a_usage_error(capsys):
    status, _, err = run(capsys, "lint", "--parent", NOT_JSON, CHILD)
    assert status == 2
    assert "parent is not a JSON checkpoint" in err
    assert run(capsys, "lint", "--parent", "/nope", CHILD)[0] == 2


def test_sarif_is_valid_sarif_2_1_0_with_described_rules(capsys):
    status, out, _ = run(
        capsys, "lint", "--format", "sarif", "--base-url", "https://ocp.example", INVALID, SECRETS
    )
    assert status == 1
    log = json.loads(out)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    [run_] = log["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {"OCP-S002", "schema", "secret", "json"}
    for rule in rules:
        assert rule["helpUri"] == f"https://ocp.example/rules/{rule['id']}"
        assert rule["fullDescription"]["text"]
    results = run_["results"]
    assert {r["ruleId"] for r in results} == {"OCP-S002", "secret"}
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["partialFingerprints"]["ocpFinding/v1"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    fingerprints = [r["partialFingerprints"]["ocpFinding/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)


def test_sarif_fingerprints_are_stable_across_runs(capsys):
    first = json.loads(run(capsys, "lint", "--format", "sarif", INVALID)[1])
    second = json.loads(run(capsys, "lint", "--format", "sarif", INVALID)[1])
    assert first == second


def test_github_annotations_escape_their_data(capsys):
    status, out, _ = run(capsys, "lint", "--format", "github", INVALID, WARNED)
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"::error file={INVALID},line=")
    assert ",title=OCP-S002::" in lines[0]
    assert any(line.startswith("::warning ") and "title=OCP-W003" in line for line in lines)
    from app.report import _gh_data, _gh_property

    # a newline in a message is shown as \n, never decoded back into a line break
    assert _gh_data("50%\nnext") == "50%25\\nnext"
    assert _gh_property("a:b,c") == "a%3Ab%2Cc"


def test_no_traceback_on_hostile_bytes(tmp_path, capsys):
    for i, data in enumerate(
        [b"\xff\xfe\x00", b"{" * 10_000, b'{"a":' + b"1" * 100_000 + b"}", b""]
    ):
        path = tmp_path / f"{i}.json"
        path.write_bytes(data)
        status, out, err = run(capsys, "lint", "--format", "json", str(path))
        assert status == 1
        assert json.loads(out)["results"][0]["findings"][0]["code"] == "json"
        assert "Traceback" not in err


# --- output that cannot be forged (documents are written by people who read this code) ---

HOSTILE_NAMES = [
    "x\n::add-mask::secret",
    "x\r\n/tmp/forged.ocp.json: valid (levels 1–2): 0 errors, 0 warnings",
    "x\x1b[2J\x1b[H",
    "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
    "a\u2028b\u2029c",
    "abc\u202egnp.exe",
    "\x9b31mred",
]


def hostile_document(tmp_path: Path) -> Path:
    """A checkpoint whose unknown members (schema findings quote their names) and dangling
    reference (OCP-S002 quotes its value) hold every hostile string."""
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    for i, name in enumerate(HOSTILE_NAMES):
        doc["task"][name] = i
    path = tmp_path / "hostile.ocp.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def referencing_document(tmp_path: Path) -> Path:
    doc = json.loads((CONFORMANCE / "valid-minimal.ocp.json").read_text())
    doc["progress"] = {"next": [{"description": "d", "blocked_by": HOSTILE_NAMES[:1]}]}
    path = tmp_path / "refs.ocp.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_hostile_member_names_forge_no_line(capsys, tmp_path, fmt):
    files = [str(hostile_document(tmp_path)), str(referencing_document(tmp_path))]
    status, out, _ = run(capsys, "lint", "--format", fmt, *files)
    assert status == 1
    assert not RAW_CONTROL.search(out), "a raw control character reached the output"
    lines = out.splitlines()
    if fmt == "text":
        assert lines[-1] == "2 files: 0 valid, 2 invalid; " + lines[-1].split("; ")[1]
        assert lines[-2] == "ocp lint fails: 2 files are invalid"
        lines = lines[:-2]  # why and the summary line: the files' counts, no document text
        findings = [line for line in lines if not line.endswith(("warnings", "warning"))]
        # every finding line starts with one of the files given, then its position
        for line in findings:
            assert line.startswith(tuple(f"{f}:" for f in files)), line
        # a verdict line is a file's name, then the verdict: none here is valid, and no
        # document can write one
        assert not [line for line in lines if re.match(r"^[^:]*: valid", line)]
        assert len([line for line in lines if line.endswith(("warnings", "warning"))]) == 2
    else:
        for line in lines:
            assert re.match(r"^::(error|warning) file=", line), line
        assert not any(line.startswith("::add-mask::") for line in lines)


def test_hostile_file_names_forge_no_line(capsys, tmp_path):
    path = tmp_path / "evil\x1b[2J\nname.ocp.json"
    path.write_bytes((CONFORMANCE / "valid-minimal.ocp.json").read_bytes())
    status, out, _ = run(capsys, "lint", str(path), str(tmp_path / "gone\n::error::x"))
    assert status == 2
    assert not RAW_CONTROL.search(out)
    verdict_line, why, summary = out.splitlines()
    assert verdict_line.startswith(f"{tmp_path}/evil\\e[2J\\nname.ocp.json: valid")
    assert why == "ocp lint fails: 1 file cannot be read"
    assert summary == "2 files: 1 valid, 0 invalid, 1 unreadable; 0 errors, 0 warnings"


def test_diff_text_escapes_what_the_documents_hold(capsys, tmp_path):
    parent = json.loads(Path(VALID).read_text())
    child = json.loads(Path(CHILD).read_text())
    child["operations"][0]["id"] = "op\x1b[2J\nforged: valid"
    (tmp_path / "p.json").write_text(json.dumps(parent))
    (tmp_path / "c.json").write_text(json.dumps(child))
    _, out, _ = run(capsys, "diff", str(tmp_path / "p.json"), str(tmp_path / "c.json"))
    assert not RAW_CONTROL.search(out)
    assert "op\\e[2J\\nforged: valid" in out


def test_diff_text_names_the_document_s_changed_fields(capsys, tmp_path):
    """The objective is the change a reader looks for first: the text names it, as the JSON
    lists it, beside the objects that changed."""
    parent = json.loads(Path(VALID).read_text())
    child = copy.deepcopy(parent)
    child["task"]["objective"] = "A new objective."
    (tmp_path / "p.json").write_text(json.dumps(parent))
    (tmp_path / "c.json").write_text(json.dumps(child))
    _, out, _ = run(capsys, "diff", str(tmp_path / "p.json"), str(tmp_path / "c.json"))
    assert "; 1 fields changed\n  ~ field /task/objective: changed\n" in out


# --- unreadable inputs stay in machine output ---------------------------------------------


def test_missing_file_stays_in_the_json_report(capsys):
    status, out, err = run(capsys, "lint", "--format", "json", VALID, "/no/such/file.ocp.json")
    assert status == 2
    results = json.loads(out)["results"]
    assert [r["file"] for r in results] == [VALID, "/no/such/file.ocp.json"]
    missing = results[1]
    assert missing["valid"] is False and missing["error"] == "no such file"
    assert missing["levels"] == {"syntax": "not_run", "semantics": "not_run"}
    assert "no such file" in err


def test_missing_file_is_a_failed_invocation_in_sarif(capsys):
    status, out, _ = run(capsys, "lint", "--format", "sarif", VALID, "/no/such/file.ocp.json")
    assert status == 2
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SCHEMA)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and "no such file" in note["message"]["text"]
    where = note["locations"][0]["physicalLocation"]["artifactLocation"]
    assert where == {"uri": "file:///no/such/file.ocp.json"}  # outside the working directory


def test_missing_file_is_an_annotation_in_github_format(capsys):
    status, out, _ = run(capsys, "lint", "--format", "github", "/no/such/file.ocp.json")
    assert status == 2
    assert out.startswith("::error file=/no/such/file.ocp.json,title=unreadable::")


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_unusable_parent_still_writes_a_whole_document(capsys, fmt):
    status, out, err = run(capsys, "lint", "--format", fmt, "--parent", NOT_JSON, CHILD)
    assert status == 2
    assert "parent is not a JSON checkpoint" in err
    if fmt == "json":
        assert "parent is not a JSON checkpoint" in json.loads(out)["errors"][0]
    elif fmt == "sarif":
        log = json.loads(out)
        jsonschema.validate(log, SARIF_SCHEMA)
        assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    else:
        assert out.startswith("::error title=ocp::")


def test_diff_with_a_parent_that_does_not_parse_is_a_usage_error(capsys):
    status, out, err = run(capsys, "diff", NOT_JSON, CHILD)
    assert status == 2
    assert out == ""
    assert "the parent is not a JSON document" in err


def test_sarif_without_a_base_url_has_no_help_uri_but_carries_the_help(capsys, monkeypatch):
    monkeypatch.delenv("OCP_PUBLIC_URL", raising=False)
    _, out, _ = run(capsys, "lint", "--format", "sarif", INVALID)
    driver = json.loads(out)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == DOCUMENTATION_URL  # the project's, never a guess
    for rule in driver["rules"]:
        assert "helpUri" not in rule
        assert rule["help"]["text"]
    s002 = next(r for r in driver["rules"] if r["id"] == "OCP-S002")
    assert "## What it checks" in s002["help"]["markdown"]


def test_sarif_help_uri_from_the_base_url(capsys):
    _, out, _ = run(
        capsys, "lint", "--format", "sarif", "--base-url", "https://ocp.example.org/", INVALID
    )
    driver = json.loads(out)["runs"][0]["tool"]["driver"]
    s002 = next(r for r in driver["rules"] if r["id"] == "OCP-S002")
    assert s002["helpUri"] == "https://ocp.example.org/rules/OCP-S002"


def test_a_base_url_that_is_not_one_is_a_usage_error(capsys):
    status, _, err = run(capsys, "lint", "--base-url", "javascript:alert(1)", VALID)
    assert status == 2
    assert "--base-url must be" in err


def test_a_folder_is_every_checkpoint_below_it_less_the_excluded(capsys, tmp_path):
    (tmp_path / "a" / "drafts").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    for name in ("a/one.ocp.json", "a/drafts/wip.ocp.json", "b/two.ocp.json", "b/old-x.ocp.json"):
        (tmp_path / name).write_bytes(Path(VALID).read_bytes())
    (tmp_path / "b" / "notes.json").write_text("{not a checkpoint")  # not *.ocp.json
    (tmp_path / "b" / "bad.ocp.json").write_bytes(Path(INVALID).read_bytes())
    status, out, _ = run(
        capsys,
        "lint",
        "--format",
        "json",
        "--exclude",
        "drafts",
        "--exclude",
        "old-*",
        str(tmp_path),
    )
    assert status == 1
    files = [r["file"] for r in json.loads(out)["results"]]
    assert files == [
        str(tmp_path / n) for n in ("a/one.ocp.json", "b/bad.ocp.json", "b/two.ocp.json")
    ]


def test_a_folder_with_no_checkpoint_fails_rather_than_passing(capsys, tmp_path):
    (tmp_path / "x.json").write_text("{}")
    status, _, err = run(capsys, "lint", str(tmp_path))
    assert status == 2
    assert "no *.ocp.json file below it" in err


def test_standard_input_under_the_name_it_came_from(capsys, monkeypatch, tmp_path):
    import io

    monkeypatch.chdir(tmp_path)
    for fmt in ("json", "sarif", "text"):
        data = Path(INVALID).read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        status, out, _ = run(
            capsys, "lint", "--format", fmt, "--stdin-filename", "cases/c.ocp.json", "-"
        )
        assert status == 1
        if fmt == "json":
            assert json.loads(out)["results"][0]["file"] == "cases/c.ocp.json"
        elif fmt == "sarif":
            [artifact] = json.loads(out)["runs"][0]["artifacts"]
            assert artifact["location"] == {"uri": "cases/c.ocp.json", "uriBaseId": "%SRCROOT%"}
        else:
            assert out.startswith("cases/c.ocp.json:")


def test_quiet_prints_the_findings_only_and_several_files_end_with_a_summary(capsys):
    status, out, _ = run(capsys, "lint", "--quiet", VALID, INVALID)
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 1 and GNU_LINE.match(lines[0])
    _, out, _ = run(capsys, "lint", VALID, INVALID, WARNED)
    assert out.splitlines()[-1] == "3 files: 2 valid, 1 invalid; 1 error, 1 warning"


def test_fail_on_turns_chosen_warnings_into_a_failing_exit(capsys):
    assert run(capsys, "lint", "--fail-on", "none", SECRETS)[0] == 0  # warnings: valid
    assert run(capsys, "lint", "--fail-on", "secret", SECRETS)[0] == 1
    assert run(capsys, "lint", "--fail-on", "OCP-W", SECRETS)[0] == 0  # no OCP-W there
    assert run(capsys, "lint", "--fail-on", "warning", WARNED)[0] == 1
    assert run(capsys, "lint", "--fail-on", "OCP-W", WARNED)[0] == 1  # a prefix
    assert run(capsys, "lint", "--fail-on", "OCP-W001", WARNED)[0] == 0  # another code
    assert run(capsys, "lint", "--fail-on", "error", WARNED)[0] == 0
    assert run(capsys, "lint", "--fail-on", "secret", VALID)[0] == 0
    # the verdict is the specification's either way: only the exit status follows policy
    _, out, _ = run(capsys, "lint", "--format", "json", "--fail-on", "secret", SECRETS)
    assert json.loads(out)["results"][0]["valid"] is True
    with pytest.raises(SystemExit) as exc:
        main(["lint", "--fail-on", ",", VALID])
    assert exc.value.code == 2


def test_colour_on_request_and_never_with_no_color(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run(capsys, "lint", INVALID, WARNED)
    assert "\x1b[1;31merror\x1b[0m OCP-S002" in out
    assert "\x1b[33mwarning\x1b[0m OCP-W003" in out
    # a document's own escape characters stay visible escapes: the only ones are the colours
    path = tmp_path / "esc.ocp.json"
    doc = json.loads(Path(INVALID).read_text())
    doc["progress"]["next"][0]["blocked_by"][0] = "\x1b[2Jgone"
    path.write_text(json.dumps(doc))
    _, out, _ = run(capsys, "lint", str(path))
    assert out.count("\x1b[") == 2 and "\\x1b[2Jgone" in out
    _, out, _ = run(capsys, "lint", "--format", "json", INVALID)
    assert "\x1b" not in out
    monkeypatch.setenv("NO_COLOR", "1")
    _, out, _ = run(capsys, "lint", INVALID)
    assert "\x1b" not in out
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.delenv("FORCE_COLOR")
    _, out, _ = run(capsys, "lint", INVALID)  # not a terminal
    assert "\x1b" not in out


def test_the_lint_path_imports_no_web_framework_nor_the_reference_validator():
    """`ocp lint` starts with the domain core only (issue 13's start-up): no Starlette, Jinja2,
    uvicorn, anyio or multipart parser, no Python `jsonschema` (jsonschema-rs does level 1), and
    no URL parser for a document whose URIs hold no '@'."""
    probe = (
        "import io, sys, contextlib\n"
        "from app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['lint', {VALID!r}])\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('app.'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    top, ours = done.stdout.splitlines()
    loaded = set(top.split())
    assert "app" in loaded  # the lint ran (a valid file may now skip jsonschema_rs)
    heavy = {"starlette", "jinja2", "uvicorn", "anyio", "multipart", "jsonschema", "ada_url"}
    assert loaded & heavy == set()
    # nor what only defining records or reading docstrings needs: dataclasses (each class
    # costs about a millisecond to define on CPython 3.11) and inspect (5 ms to import)
    assert loaded & {"dataclasses", "inspect"} == set()
    # nor what only a parent, or a finding to place, needs: the lineage rules, the digests,
    # the position locator
    lineage = {"app.rules.compaction", "app.rules.lineage", "app.digests", "app.positions"}
    assert set(ours.split()) & lineage == set()
    # nor the schema's JSON: the screen is written code, the layout's enumerations are read
    # when a page first asks for them
    assert "app.schemas" not in ours.split()


def test_the_lint_path_loads_no_message_catalogues_and_gettext_stays_whole():
    """argparse is loaded with its messages as written (app/argparse_plain.py): `ocp lint`
    imports neither gettext nor locale, nor contextlib, and says its usage errors in argparse's
    words; code that imports gettext afterwards gets the real module, catalogues and all."""
    probe = (
        "import sys\n"
        "before = set(sys.modules)  # (an editable install's finder loads contextlib itself)\n"
        "from app.cli import main\n"
        f"status = main(['lint', {VALID!r}])\n"
        "print(status, ' '.join(sorted(set(sys.modules) - before)), file=sys.stderr)\n"
        "import gettext\n"
        "print(callable(gettext.translation), gettext.gettext('usage: '), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    ran, after = done.stderr.splitlines()[-2:]
    status, *loaded = ran.split()
    assert status == "0"
    assert {"gettext", "locale", "contextlib"} & set(loaded) == set()
    assert after == "True usage: "
    refused = subprocess.run(
        [sys.executable, "-m", "app.cli", "lint", "--bogus", VALID],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 2
    assert "usage: ocp lint" in refused.stderr
    assert "ocp lint: error: unrecognized arguments: --bogus" in refused.stderr
