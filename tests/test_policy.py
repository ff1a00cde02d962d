"""A project's policy for `ocp lint` (app/policy.py): what is reported, what was accepted and
why, what fails the run; from the command line, ocp.toml or [tool.ocp] in pyproject.toml. The
verdict stays the specification's whatever the policy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli import main
from app.policy import may_hold_tool_ocp
from tests.conftest import CONFORMANCE, assert_report

INVALID = CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json"
SECRETS = CONFORMANCE / "secret-aws-pem-github.ocp.json"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "cases").mkdir()
    shutil.copyfile(INVALID, tmp_path / "cases" / "bad.ocp.json")
    shutil.copyfile(SECRETS, tmp_path / "cases" / "leak.ocp.json")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lint(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    status = main(["lint", "--format", "json", *argv])
    out, err = capsys.readouterr()
    return status, assert_report(out) if out.strip() else {}, err


def codes(result: dict) -> list[str]:
    return [f["code"] for f in result["findings"]]


def test_select_and_ignore_choose_what_is_reported_and_what_fails(capsys, project):
    status, report, _ = lint(capsys, "--ignore", "OCP-S002", "cases/bad.ocp.json")
    [result] = report["results"]
    # its only error is not listed, and the file fails all the same: the report contract's
    # exit status is 1 when any file is invalid, which no policy turns into a pass
    assert status == 1
    assert result["valid"] is False and result["counts"]["errors"] == 1  # the verdict stays
    assert codes(result) == [] and result["ignored"] == 1
    assert "left out of the list" in report["failure"]
    status, report, _ = lint(capsys, "--select", "OCP-W", "cases/leak.ocp.json")
    assert status == 0 and codes(report["results"][0]) == []
    status, report, _ = lint(capsys, "--select", "secret", "--fail-on", "secret", "cases")
    assert status == 1
    assert {c for r in report["results"] for c in codes(r)} == {"secret"}


def test_accepted_findings_are_reported_as_suppressed_with_their_reason(capsys, project):
    (project / "ocp.toml").write_text(
        "[[accepted]]\n"
        'code = "OCP-S002"\n'
        'path = "/progress/next/0/blocked_by/0"\n'
        'file = "cases/*.ocp.json"\n'
        'reason = "the step it names is tracked in ticket OPS-12"\n'
    )
    status, report, _ = lint(capsys, "cases/bad.ocp.json")
    [result] = report["results"]
    assert status == 1  # accepted, still invalid: the contract's exit status
    assert codes(result) == []
    [suppressed] = result["suppressed"]
    assert suppressed["code"] == "OCP-S002"
    assert suppressed["reason"] == "the step it names is tracked in ticket OPS-12"
    assert result["valid"] is False  # accepted, not fixed
    main(["lint", "--format", "sarif", "cases/bad.ocp.json"])
    log = json.loads(capsys.readouterr().out)
    [sarif_result] = log["runs"][0]["results"]
    assert sarif_result["suppressions"] == [
        {"kind": "external", "justification": "the step it names is tracked in ticket OPS-12"}
    ]
    main(["lint", "cases/bad.ocp.json"])
    text = capsys.readouterr().out
    assert "1 finding accepted in the configuration, not listed" in text
    assert "OCP-S002" not in text


def test_an_accepted_finding_holds_only_for_its_code_place_and_files(capsys, project):
    (project / "ocp.toml").write_text(
        "[[accepted]]\n"
        'code = "OCP-S002"\n'
        'path = "/progress/next/0/blocked_by/0"\n'
        'file = "other/*.ocp.json"\n'
        'reason = "elsewhere"\n'
    )
    status, report, _ = lint(capsys, "cases/bad.ocp.json")
    assert status == 1 and codes(report["results"][0]) == ["OCP-S002"]


def test_pyproject_tool_ocp_is_found_from_a_folder_below(capsys, project, monkeypatch):
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.ocp]\nfail-on = ["secret"]\n'
        '[tool.ocp.per-file-ignores]\n"*/bad.ocp.json" = ["OCP-S002"]\n'
    )
    monkeypatch.chdir(project / "cases")
    status, report, _ = lint(capsys, "bad.ocp.json", "leak.ocp.json")
    assert status == 1  # the credential, by fail-on
    bad, leak = report["results"]
    assert codes(bad) == [] and bad["ignored"] == 1
    assert "secret" in codes(leak)


# Every way TOML spells a [tool.ocp] table, each one found (fail-on secret fails the run)
TOOL_OCP_FORMS = [
    '[tool.ocp]\nfail-on = ["secret"]\n',
    '[ tool . ocp ]\nfail-on = ["secret"]\n',
    '["tool".\'ocp\']\nfail-on = ["secret"]\n',
    '[tool]\nocp = { fail-on = ["secret"] }\n',
    '[tool]\nblack = {}\nocp.fail-on = ["secret"]\n',
    'tool.ocp.fail-on = ["secret"]\n[project]\nname = "x"\n',
    'tool = { ocp = { fail-on = ["secret"] } }\n',
    '"tool" . "ocp" = { fail-on = ["secret"] }\n',
    '[tool.ocp.per-file-ignores]\n"x" = ["OCP-S002"]\n[tool.ocp]\nfail-on = ["secret"]\n',
    '["t\\u006fol".ocp]\nfail-on = ["secret"]\n',
]


@pytest.mark.parametrize("pyproject", TOOL_OCP_FORMS)
def test_every_spelling_of_a_tool_ocp_table_is_read(capsys, project, pyproject):
    assert may_hold_tool_ocp(pyproject.encode())
    (project / "pyproject.toml").write_text(pyproject)
    status, _, _ = lint(capsys, "cases/leak.ocp.json")
    assert status == 1  # the credential, by the table's fail-on


@pytest.mark.parametrize(
    "pyproject",
    [
        '[project]\nname = "ocp-viewer"\n[project.scripts]\nocp = "app.cli:main"\n',
        '[project]\ndependencies = ["ocp-viewer>=0.1"]\n[tool.ruff]\nline-length = 100\n',
        '[tool.ocpx]\nfail-on = ["secret"]\n[tool.black.ocp]\nx = 1\n',
    ],
)
def test_a_pyproject_that_only_mentions_ocp_is_not_parsed(capsys, project, pyproject):
    """Parsing TOML costs a small file's lint a quarter of its time: a pyproject.toml that
    cannot hold [tool.ocp] is never parsed, and the default policy holds."""
    assert not may_hold_tool_ocp(pyproject.encode())
    (project / "pyproject.toml").write_text(pyproject)
    status, _, _ = lint(capsys, "cases/leak.ocp.json")
    assert status == 0


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ('[[accepted]]\ncode = "OCP-S002"\npath = "/x"\n', "accepted[0]: reason is required"),
        ('[[accepted]]\ncode = "OCP-S002"\npath = "x"\nreason = "r"\n', "must be a JSON Pointer"),
        ('selec = ["OCP-S"]\n', "unknown setting selec"),
        ("select = 3\n", "select must be a list of codes"),
        ("select = [\n", "not valid TOML"),
    ],
)
def test_a_bad_configuration_is_a_usage_error_that_says_where_and_what(
    capsys, project, config, said
):
    (project / "ocp.toml").write_text(config)
    status = main(["lint", "cases/bad.ocp.json"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert "ocp.toml" in err and said in err
    assert "Traceback" not in err


def test_a_named_configuration_file_that_is_missing_is_a_usage_error(capsys, project):
    status = main(["lint", "--config", "nope.toml", "cases/bad.ocp.json"])
    assert status == 2
    assert "nope.toml: no such file" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--fail-on", "secrets"], "'secrets'"),
        (["--select", "OCP-X"], "'OCP-X'"),
        (["--ignore", "W004"], "'W004'"),
    ],
)
def test_a_code_that_begins_no_code_is_a_usage_error(capsys, project, argv, named):
    """A typo would turn a gate off unseen: --fail-on secrets failed nothing."""
    status, report, err = lint(capsys, *argv, "cases/leak.ocp.json")
    # the contract's report of a failed run: no result, the error (issue 28)
    assert status == 2 and report["results"] == [] and named in report["errors"][0]
    assert named in err and "OCP-S001" in err and "secret" in err


def test_a_code_in_the_configuration_that_begins_no_code_is_an_error(capsys, project):
    (project / "ocp.toml").write_text('fail-on = ["secrets"]\n')
    status, _, err = lint(capsys, "cases/leak.ocp.json")
    assert status == 2 and "fail-on: 'secrets' is not a code" in err


def test_codes_match_whatever_their_case(capsys, project):
    status, report, _ = lint(capsys, "--select", "ocp-s002", "cases/bad.ocp.json")
    assert status == 1 and codes(report["results"][0]) == ["OCP-S002"]
    status, _, _ = lint(capsys, "--fail-on", "SECRET", "cases/leak.ocp.json")
    assert status == 1


def test_a_file_failing_by_fail_on_says_so_beside_its_valid_verdict(capsys, project):
    status = main(["lint", "--fail-on", "secret", "cases/leak.ocp.json", "cases/bad.ocp.json"])
    out = capsys.readouterr().out
    assert status == 1
    assert (
        "cases/leak.ocp.json: fails the run: it holds secret warnings, which fail-on names" in out
    )
    assert out.rstrip().endswith("; 1 valid failing the run by fail-on")


def test_a_tool_ocp_table_in_ocp_toml_is_told_where_its_settings_go(capsys, project):
    (project / "ocp.toml").write_text('[tool.ocp]\nfail-on = ["secret"]\n')
    status, _, err = lint(capsys, "cases/leak.ocp.json")
    assert status == 2 and "ocp.toml holds them at its top level, with no [tool.ocp]" in err


def test_a_file_that_cannot_be_read_fails_whatever_the_selection(capsys, project):
    """A `json` or `version` error stops the checks of its file (the report contract), the
    secret scan's report among them: a selection that left it out would pass a file holding
    credentials nothing read (`--select secret --fail-on secret` of a file that is not JSON)."""
    leak = (project / "cases" / "leak.ocp.json").read_text()
    (project / "cases" / "broken.ocp.json").write_text(leak.rstrip().rstrip("}") + ",}")
    (project / "cases" / "future.ocp.json").write_text(
        leak.replace('"opencheckpoint": "0.1"', '"opencheckpoint": "9.0"', 1)
    )
    for name in ("broken", "future"):
        path = f"cases/{name}.ocp.json"
        for argv in (
            ("--select", "secret", "--fail-on", "secret"),
            ("--ignore", "json,version"),
        ):
            status, report, _ = lint(capsys, *argv, path)
            assert status == 1, (name, argv)
            [result] = report["results"]
            assert codes(result) == ["json" if name == "broken" else "version"]


def test_list_options_given_twice_add_up(capsys, project):
    """--fail-on, --select and --ignore repeated add to each other, as --exclude does: a
    pre-commit hook's own --fail-on secret stays when its args repeat the option."""
    status, report, _ = lint(
        capsys, "--fail-on", "secret", "--fail-on", "OCP-W", "cases/leak.ocp.json"
    )
    assert status == 1 and "secret" in codes(report["results"][0])
    status, report, _ = lint(
        capsys, "--select", "OCP-S", "--select", "secret", "cases/leak.ocp.json"
    )
    assert "secret" in codes(report["results"][0])
    status, report, _ = lint(
        capsys, "--ignore", "OCP-S002", "--ignore", "OCP-W", "cases/bad.ocp.json"
    )
    assert status == 1 and codes(report["results"][0]) == []  # (invalid: it fails all the same)
    assert report["results"][0]["ignored"] == 1


def test_extend_fail_on_adds_to_the_configuration_s_fail_on(capsys, project):
    """A hook's --extend-fail-on secret keeps what the configuration fails on; --fail-on
    replaces it."""
    shutil.copyfile(CONFORMANCE / "rule-W003-awaiting-op-expired.ocp.json", "cases/w.ocp.json")
    (project / "ocp.toml").write_text('fail-on = ["OCP-W003"]\n')
    status, report, _ = lint(capsys, "--extend-fail-on", "secret", "cases/w.ocp.json")
    assert status == 1 and "--extend-fail-on" in report["failure"]
    status, report, _ = lint(capsys, "--extend-fail-on", "secret", "cases/leak.ocp.json")
    assert status == 1 and "apparent credential" in report["failure"]
    status, _, _ = lint(capsys, "--fail-on", "secret", "cases/w.ocp.json")
    assert status == 0  # replaced: the configuration's OCP-W003 no longer fails
    status, _, err = lint(capsys, "--extend-fail-on", "secrets", "cases/w.ocp.json")
    assert status == 2 and "'secrets' is not a code" in err


@pytest.mark.parametrize("exclude", ["cases", "cases/bad*", "bad.ocp.json", "*.ocp.json"])
def test_force_exclude_leaves_out_a_file_named_that_exclude_matches(capsys, project, exclude):
    (project / "ocp.toml").write_text(f"exclude = [{exclude!r}]\n")
    status, report, _ = lint(capsys, "cases/bad.ocp.json")
    assert status == 1 and len(report["results"]) == 1  # named: linted
    status, report, err = lint(capsys, "--force-exclude", "cases/bad.ocp.json")
    assert status == 0 and report["results"] == []
    assert "every file named is excluded" in err


def test_force_exclude_reads_exclude_given_on_the_command_line_from_the_working_folder(
    capsys, project
):
    status, report, _ = lint(
        capsys,
        "--force-exclude",
        "--exclude",
        "cases/bad*",
        "cases/bad.ocp.json",
        "cases/leak.ocp.json",
    )
    assert status == 0 and [r["file"] for r in report["results"]] == ["cases/leak.ocp.json"]


def test_a_path_glob_of_the_configuration_is_read_from_its_folder_whatever_folder_is_named(
    capsys, project, monkeypatch
):
    """exclude = ["cases/bad*"] leaves bad.ocp.json out of `ocp lint .`, of `ocp lint cases`
    and, from inside cases, of `ocp lint .`: a path of the configuration is its folder's."""
    (project / "ocp.toml").write_text('exclude = ["cases/bad*"]\n')
    for folder in (".", "cases"):
        _, report, _ = lint(capsys, folder)
        assert [Path(r["file"]).name for r in report["results"]] == ["leak.ocp.json"]
    monkeypatch.chdir(project / "cases")
    _status, report, _ = lint(capsys, ".")
    assert [Path(r["file"]).name for r in report["results"]] == ["leak.ocp.json"]


def test_a_folder_s_path_in_exclude_leaves_out_every_file_below_it(capsys, project):
    (project / "cases" / "drafts").mkdir()
    shutil.copyfile(INVALID, project / "cases" / "drafts" / "old.ocp.json")
    (project / "ocp.toml").write_text('exclude = ["cases/drafts"]\n')
    _status, report, _ = lint(capsys, ".")
    assert sorted(Path(r["file"]).name for r in report["results"]) == [
        "bad.ocp.json",
        "leak.ocp.json",
    ]


def test_a_bad_exclude_says_it_takes_globs(capsys, project):
    (project / "ocp.toml").write_text("exclude = [1]\n")
    status, _, err = lint(capsys, "cases/bad.ocp.json")
    assert status == 2 and "exclude must be a list of globs of files or folders" in err


def test_the_github_format_says_why_an_invalid_file_with_no_listed_error_fails(capsys, project):
    """Its errors left out of the list, no annotation of its own says why the job is red."""
    status = main(["lint", "--format", "github", "--ignore", "OCP-S002", "cases/bad.ocp.json"])
    out = capsys.readouterr().out
    assert status == 1
    assert out.startswith("::error title=ocp lint failed::ocp lint fails: 1 file is invalid")
    status = main(["lint", "--format", "github", "cases/bad.ocp.json"])
    out = capsys.readouterr().out
    # (its error's own ::error says it)
    assert status == 1 and "title=ocp lint failed" not in out and "title=OCP-S002" in out
