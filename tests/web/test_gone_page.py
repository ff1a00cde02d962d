"""A permalink that expired or was deleted (410) says when in words a person reads, in a
<time>; its problem document keeps an RFC 3339 moment without microseconds (issue 27)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.web import create_app
from tests.backends import FakeClock
from tests.conftest import CONFORMANCE

VALID = (CONFORMANCE / "valid-coding-refactor.ocp.json").read_bytes()
JSON_TYPE = {"content-type": "application/json"}


@pytest.fixture
def clock() -> FakeClock:
    # microseconds in every moment the store records, as a real clock has them
    return FakeClock(datetime(2026, 12, 3, 14, 24, 5, 123456, tzinfo=UTC))


@pytest.fixture
def client(tmp_path, clock):
    settings = Settings(database_url=str(tmp_path / "db.sqlite3"))
    with TestClient(create_app(settings, clock=clock)) as c:
        yield c


# --- 2: the 410 page -----------------------------------------------------------------------


def test_410_shows_a_readable_utc_time_and_json_keeps_rfc3339_without_microseconds(client, clock):
    stored = client.post("/api/v1/checkpoints?lifetime=1h", content=VALID, headers=JSON_TYPE).json()
    assert ".123456" in stored["expires_at"]  # the store's moments have microseconds
    clock.advance(timedelta(hours=2))
    page = client.get(f"/c/{stored['storage_id']}")
    assert page.status_code == 410
    shown = re.search(r'<time class="when" datetime="([^"]+)">([^<]+)</time>', page.text)
    assert shown, "the moment it went is not in a <time>"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", shown.group(1))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", shown.group(2))
    assert "This checkpoint expired on" in page.text
    assert ".123456" not in page.text and "+00:00" not in page.text
    problem = client.get(f"/c/{stored['storage_id']}.json").json()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", problem["gone_at"])
    assert ".123456" not in problem["detail"]
