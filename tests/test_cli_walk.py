"""A folder walk of `ocp lint`: hidden folders, virtualenvs, node_modules and __pycache__ are
skipped, .gitignore files are honoured as git reads them (nested ones too), a path named on
the command line is never skipped, and --verbose says what was skipped and why."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app import walk
from app.cli import main
from tests.conftest import CONFORMANCE

VALID = CONFORMANCE / "valid-minimal.ocp.json"
INVALID = CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json"


def put(root: Path, *names: str, source: Path = VALID) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, root / name)


def linted(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    """The status, the files the text report gives a verdict for, and stderr."""
    status = main(["lint", *argv])
    out, err = capsys.readouterr()
    files = [line.split(": ")[0] for line in out.splitlines() if ": valid" in line]
    files += [line.split(": ")[0] for line in out.splitlines() if ": invalid" in line]
    return status, sorted(files), err


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with checkpoints where a project keeps them and where it does not."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    put(
        tmp_path,
        "cases/a.ocp.json",
        "cases/.drafts/hidden.ocp.json",
        ".venv/lib/site.ocp.json",
        "env/lib/site.ocp.json",  # a virtualenv under another name
        "web/node_modules/pkg/fixture.ocp.json",
        "cases/__pycache__/x.ocp.json",
        "build/out.ocp.json",
        "cases/generated/g.ocp.json",
        "cases/generated/kept.ocp.json",
        "cases/tmp-1.ocp.json",
    )
    (tmp_path / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / ".gitignore").write_text("# outputs\n/build/\ntmp-*.ocp.json\n")
    # a nested .gitignore: its paths are its folder's, and its ! re-includes
    (tmp_path / "cases" / "generated" / ".gitignore").write_text("*.ocp.json\n!kept.ocp.json\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_walk_skips_what_a_project_never_lints(capsys, repository):
    status, files, err = linted(capsys, ".")
    assert status == 0
    assert files == ["cases/a.ocp.json", "cases/generated/kept.ocp.json"]
    assert err == ""  # without --verbose, nothing said


def test_verbose_says_what_was_skipped_and_why(capsys, repository):
    _, _, err = linted(capsys, "--verbose", ".")
    said = set(err.splitlines())
    for line in (
        "ocp: skipped ./.venv/: a hidden folder",
        "ocp: skipped ./cases/.drafts/: a hidden folder",
        "ocp: skipped ./env/: a virtualenv (holds pyvenv.cfg)",
        "ocp: skipped ./web/node_modules/: node_modules (installed packages)",
        "ocp: skipped ./cases/__pycache__/: __pycache__ (Python's bytecode cache)",
        "ocp: skipped ./build/: ignored by ./.gitignore:2: /build/",
        "ocp: skipped ./cases/tmp-1.ocp.json: ignored by ./.gitignore:3: tmp-*.ocp.json",
        "ocp: skipped ./cases/generated/g.ocp.json: ignored by "
        "./cases/generated/.gitignore:1: *.ocp.json",
    ):
        assert line in said, (line, err)
    assert not any("kept.ocp.json" in line for line in said)


def test_a_gitignore_above_the_folder_walked_still_holds(capsys, repository):
    os.chdir(repository / "cases")
    _, files, err = linted(capsys, "--verbose", ".")
    assert files == ["a.ocp.json", "generated/kept.ocp.json"]
    assert f"ignored by {repository / '.gitignore'}:3: tmp-*.ocp.json" in err


def test_a_path_named_is_never_skipped(capsys, repository):
    status, files, _ = linted(
        capsys, ".venv", "build/out.ocp.json", "cases/generated/g.ocp.json", "env"
    )
    assert status == 0
    assert files == [
        ".venv/lib/site.ocp.json",
        "build/out.ocp.json",
        "cases/generated/g.ocp.json",
        "env/lib/site.ocp.json",
    ]


def test_a_folder_named_is_walked_though_a_gitignore_above_ignores_it(capsys, repository):
    put(repository, "build/deep/more.ocp.json", "build/tmp-2.ocp.json")
    status, files, _ = linted(capsys, "build")
    assert status == 0
    # what the .gitignore says of the folder holds nothing below it; its other lines hold
    assert files == ["build/deep/more.ocp.json", "build/out.ocp.json"]
    os.chdir(repository / "build")
    assert linted(capsys, ".")[1] == ["deep/more.ocp.json", "out.ocp.json"]


def test_a_folder_whose_checkpoints_are_all_skipped_is_an_input_error(capsys, tmp_path):
    put(tmp_path, "node_modules/x.ocp.json")
    status, _, err = linted(capsys, str(tmp_path))
    assert status == 2 and "no *.ocp.json file below it" in err


def test_errors_below_a_skipped_folder_fail_nothing(capsys, repository):
    put(repository, "web/node_modules/pkg/broken.ocp.json", source=INVALID)
    assert linted(capsys, ".")[0] == 0


def test_each_folder_is_listed_once_and_only_checkpoints_are_matched(repository, monkeypatch):
    """One pass: a folder is listed once, and .gitignore patterns are tried on folders and on
    *.ocp.json files only, never on the other files of a tree (linear in its size)."""
    for n in range(200):
        (repository / "cases" / f"note-{n}.txt").write_text("x")
    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path):  # type: ignore[no-untyped-def]
        listed.append(os.path.normpath(str(path)))
        return real_scandir(path)

    checked: list[str] = []
    real_check = walk._Ignore.check

    def check(self, relative):  # type: ignore[no-untyped-def]
        checked.append(relative)
        return real_check(self, relative)

    monkeypatch.setattr(walk.os, "scandir", counting)
    monkeypatch.setattr(walk._Ignore, "check", check)
    found, _ = walk.checkpoints_below(Path("."), lambda _: False)
    assert [str(p) for p in found] == ["cases/a.ocp.json", "cases/generated/kept.ocp.json"]
    assert len(listed) == len(set(listed))
    assert not any(path.endswith(".txt") for path in checked)


def test_a_walk_without_a_gitignore_imports_no_pattern_library(tmp_path):
    put(tmp_path, "a/one.ocp.json")
    probe = (
        "import io, sys, contextlib\n"
        "from app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['lint', {str(tmp_path)!r}])\n"
        "print('pathspec' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "False"


def test_a_file_named_twice_is_linted_once(tmp_path, monkeypatch, capsys):
    """``a``, ``./a`` and a folder holding it name one file: one result, one count."""
    import json as json_module
    import shutil as shutil_module

    from app.cli import main
    from tests.conftest import CONFORMANCE

    (tmp_path / "cases").mkdir()
    shutil_module.copyfile(
        CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json",
        tmp_path / "cases" / "bad.ocp.json",
    )
    monkeypatch.chdir(tmp_path)
    status = main(
        ["lint", "--format", "json", "cases/bad.ocp.json", "./cases/bad.ocp.json", "cases"]
    )
    report = json_module.loads(capsys.readouterr().out)
    assert status == 1
    assert [r["file"] for r in report["results"]] == ["cases/bad.ocp.json"]
