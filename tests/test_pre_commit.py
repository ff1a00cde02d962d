"""The `ocp-lint` hook (.pre-commit-hooks.yaml) run by the real `pre-commit` in a throwaway git
repository that uses this checkout, at its current commit, as the hook's repository: a commit
with a valid checkpoint goes through, one with an invalid checkpoint or a credential is refused.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE

# `make check` leaves this out: it has pre-commit build the hook's environment.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def git(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=900
    )


# The README's local form: the project's own `ocp`, from the PATH, no environment to build.
LOCAL_HOOK = """repos:
  - repo: local
    hooks:
      - id: ocp-lint
        name: ocp lint
        entry: ocp lint --extend-fail-on secret --force-exclude
        language: system
        files: \\.ocp\\.json$
        require_serial: true
"""


def make_repository(home: Path, configuration: str, path: str) -> tuple[Path, dict[str, str]]:
    """A new git repository in ``home`` with this pre-commit configuration, installed."""
    repo = home / "project"
    repo.mkdir()
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home / "cache"),
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.com",
        "PATH": path,
    }
    (repo / ".pre-commit-config.yaml").write_text(configuration)
    assert git(repo, "init", "-q", env=env).returncode == 0
    done = subprocess.run(
        [str(PRE_COMMIT), "install", "--install-hooks"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    git(repo, "add", ".pre-commit-config.yaml", env=env)
    assert git(repo, "commit", "-q", "-m", "configuration", env=env).returncode == 0
    return repo, env


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A new git repository whose pre-commit configuration takes `ocp-lint` from this
    checkout's HEAD, with the hook installed (its environment built once, here)."""
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    configuration = f"repos:\n  - repo: {ROOT}\n    rev: {head}\n    hooks:\n      - id: ocp-lint\n"
    # the hook's own interpreter, not this test's virtualenv
    path = os.pathsep.join(
        p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != PRE_COMMIT.parent
    )
    return make_repository(tmp_path_factory.mktemp("pre-commit"), configuration, path)


@pytest.fixture(scope="module")
def local_repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The README's `repo: local` form, with this test's `ocp` first on the PATH."""
    path = os.pathsep.join([str(PRE_COMMIT.parent), os.environ["PATH"]])
    return make_repository(tmp_path_factory.mktemp("pre-commit-local"), LOCAL_HOOK, path)


def commit(repository: tuple[Path, dict[str, str]], source: str, name: str) -> tuple[int, str]:
    repo, env = repository
    shutil.copyfile(CONFORMANCE / source, repo / name)
    git(repo, "add", name, env=env)
    done = git(repo, "commit", "-q", "-m", f"add {name}", env=env)
    if done.returncode != 0:
        git(repo, "reset", "-q", "HEAD", name, env=env)  # unstage what was refused
        (repo / name).unlink()
    return done.returncode, done.stdout + done.stderr


def test_a_valid_checkpoint_is_committed(repository):
    status, output = commit(repository, "valid-support-handoff.ocp.json", "handoff.ocp.json")
    assert status == 0, output
    assert "ocp lint" in output and "Passed" in output


def test_an_invalid_checkpoint_is_refused(repository):
    status, output = commit(repository, "rule-S002-unresolved-blocked-by.ocp.json", "bad.ocp.json")
    assert status != 0
    assert "Failed" in output and "bad.ocp.json" in output and "OCP-S002" in output


def test_a_credential_is_refused_though_it_is_only_a_warning(repository):
    status, output = commit(repository, "secret-aws-pem-github.ocp.json", "leak.ocp.json")
    assert status != 0
    assert "Failed" in output and "warning secret" in output


def test_many_files_are_one_run_with_one_summary(repository):
    """More files than pre-commit gives one process when it runs a hook in parallel (it
    splits them over a process per core, at least two here): the hook is serial, so its
    output is one report, ending with one summary of every file."""
    repo, env = repository
    names = [f"many-{n}.ocp.json" for n in range(12)]
    # in parallel, pre-commit's own partition would give these to two processes
    from pre_commit.xargs import partition

    assert len(partition(("ocp", "lint"), [*names, "bad.ocp.json"], 2)) == 2
    for name in names:
        shutil.copyfile(CONFORMANCE / "valid-minimal.ocp.json", repo / name)
    shutil.copyfile(CONFORMANCE / "rule-S002-unresolved-blocked-by.ocp.json", repo / "bad.ocp.json")
    git(repo, "add", *names, "bad.ocp.json", env=env)
    done = git(repo, "commit", "-q", "-m", "many", env=env)
    git(repo, "reset", "-q", "HEAD", *names, "bad.ocp.json", env=env)
    for name in [*names, "bad.ocp.json"]:
        (repo / name).unlink()
    output = done.stdout + done.stderr
    assert done.returncode != 0 and "Failed" in output
    summaries = [line for line in output.splitlines() if re.match(r"^\d+ files: ", line)]
    assert summaries == ["13 files: 12 valid, 1 invalid; 1 error, 0 warnings"], output


def test_the_local_form_refuses_a_credential_and_commits_a_valid_checkpoint(local_repository):
    status, output = commit(local_repository, "secret-aws-pem-github.ocp.json", "leak.ocp.json")
    assert status != 0 and "Failed" in output and "warning secret" in output
    assert "failing by fail-on = secret" in output
    status, output = commit(local_repository, "valid-minimal.ocp.json", "ok.ocp.json")
    assert status == 0 and "Passed" in output, output


def test_a_file_the_configuration_excludes_is_left_out_and_its_fail_on_kept(local_repository):
    """pre-commit names each staged file, which the linter always lints unless
    --force-exclude; --extend-fail-on secret adds to the configuration's fail-on, where
    --fail-on would replace it."""
    repo, _env = local_repository
    (repo / "ocp.toml").write_text('exclude = ["drafts"]\nfail-on = ["OCP-W"]\n')
    (repo / "drafts").mkdir()
    try:
        status, output = commit(
            local_repository, "rule-S002-unresolved-blocked-by.ocp.json", "drafts/bad.ocp.json"
        )
        assert status == 0, output
        status, output = commit(
            local_repository, "rule-W003-awaiting-op-expired.ocp.json", "w.ocp.json"
        )
        assert status != 0 and "OCP-W003" in output, output
        assert "set in" in output and "--extend-fail-on" in output
    finally:
        (repo / "ocp.toml").unlink()


def test_other_files_are_not_the_hooks(repository):
    repo, env = repository
    (repo / "notes.json").write_text("{not json")
    git(repo, "add", "notes.json", env=env)
    done = git(repo, "commit", "-q", "-m", "notes", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
