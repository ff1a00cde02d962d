import pytest


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path, monkeypatch):
    """The service's default SQLite file is relative to the working directory: keep the
    tests' copies out of the repository."""
    monkeypatch.chdir(tmp_path)
