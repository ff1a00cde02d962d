"""Times in the reader's local time, with the UTC value beside them and their age (issue 12);
the value as the document recorded it stays at hand, and is what a page without JavaScript
shows."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import conformance, submit_file

pytestmark = pytest.mark.browser


def _document() -> bytes:
    document = json.loads(conformance("valid-minimal.ocp.json"))
    document["created_at"] = "2026-11-12T14:20:00+01:00"
    document["progress"] = {
        "completed": [
            {
                "id": "step-1",
                "description": "Read the ticket.",
                "completed_at": "2026-11-12T12:05:00Z",
            }
        ]
    }
    return json.dumps(document, indent=2).encode()


def test_a_time_is_shown_in_local_time_with_utc_and_its_age(make_context, open_page) -> None:
    page = open_page(make_context(timezone_id="America/New_York", locale="en-US"))
    submit_file(page, _document())
    step = page.locator("#progress time.when").first
    # 12:05 UTC is 07:05 in New York in November (EST)
    expect(step).to_contain_text("07:05")
    expect(step).to_contain_text("EST")
    expect(step).to_contain_text("(2026-11-12 12:05 UTC)")
    expect(step).to_have_text(re.compile(r"ago|yesterday|in \d|tomorrow"))
    assert step.get_attribute("title") == "as recorded: 2026-11-12T12:05:00Z"
    created = page.locator("#header time.when").first
    expect(created).to_contain_text("08:20")  # 14:20+01:00 = 13:20 UTC = 08:20 EST
    expect(created).to_contain_text("(2026-11-12 13:20 UTC)")
    # the page states the creation's age itself: not twice
    expect(created).not_to_have_text(re.compile("ago"))
    assert created.get_attribute("title") == "as recorded: 2026-11-12T14:20:00+01:00"


def test_without_javascript_a_time_is_shown_as_recorded(make_context) -> None:
    page = make_context(java_script_enabled=False, timezone_id="Asia/Tokyo").new_page()
    submit_file(page, _document())
    step = page.locator("#progress time.when").first
    expect(step).to_have_text("2026-11-12T12:05:00Z")
    assert step.get_attribute("datetime") == "2026-11-12T12:05:00Z"
    created = page.locator("#header time.when").first
    assert created.get_attribute("datetime") == "2026-11-12T13:20:00Z"
