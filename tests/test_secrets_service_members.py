"""A member a service names alone ({"datadog": "…"}): its value is read as the document's text
reads it, '"datadog": "…"', where gitleaks' rules read a service's name beside its key. The
same key was found in a text, a YAML line or an environment file's, and missed as a member of
a parsed document; a model's name under "openai", an account's id under "stripe", a domain
under "okta" stay none, as they are in the text."""

from __future__ import annotations

import json

import pytest

from app.analysis import lint
from app.secrets import find_secrets, scan_text
from tests.test_secrets import rnd
from tests.test_secrets_recall import _document

HEX = "0123456789abcdef"
UUID = f"{rnd(8, HEX)}-{rnd(4, HEX)}-{rnd(4, HEX)}-{rnd(4, HEX)}-{rnd(12, HEX)}"


@pytest.mark.parametrize(
    ("name", "value", "kind"),
    [
        ("datadog", rnd(32, HEX), "a Datadog key"),
        ("heroku", UUID, "a Heroku API key"),
        ("Okta", "00" + rnd(40), "an Okta API token"),
        ("twilio", rnd(32, HEX), "a Twilio auth token"),
        ("fastly", rnd(32), "a service's API key or token"),
    ],
)
def test_a_member_a_service_names_alone_holds_its_key(name: str, value: str, kind: str) -> None:
    document = {"config": {"providers": [{"region": "eu"}, {name: value}]}}
    hits = find_secrets(document)
    assert [(h.path, h.kind, h.start, h.end) for h in hits] == [
        (f"/config/providers/1/{name}", kind, 0, len(value))
    ]
    # as the text of the document shows it flagged
    assert [json.dumps(document)[s:e] for s, e, _ in scan_text(json.dumps(document))] == [value]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("openai", "gpt-4o-mini-2024-07-18"),  # a model for each provider
        ("anthropic", "claude-3-5-sonnet-20241022"),
        ("stripe", "acct_1NXmPz2eZvKYlo2C"),  # an account's id
        ("okta", "dev-123456.okta.com"),  # a domain
        ("npm", ">=6.14.0"),
        ("github", "octocat/hello-world"),
        ("datadog", "datadoghq.eu"),
        ("account", UUID),  # a rule's word that names no service alone
        ("token", "expired"),
    ],
)
def test_what_a_service_names_that_is_no_key_holds_none(name: str, value: str) -> None:
    assert find_secrets({"providers": {name: value}}) == []


def test_a_key_flagged_on_its_own_is_flagged_once() -> None:
    key = "SG." + rnd(22) + "." + rnd(43)
    hits = find_secrets({"providers": {"sendgrid": key}})
    assert [(h.path, h.kind) for h in hits] == [("/providers/sendgrid", "a SendGrid API key")]


def test_the_lint_finds_it_from_the_text_it_read() -> None:
    key = rnd(32, HEX)
    document = _document()
    document["extensions"] = {"com.example.monitoring": {"datadog": key}}
    report = lint(json.dumps(document, indent=2).encode())
    flagged = [f for f in report.findings if str(f.path).endswith("/datadog")]
    assert flagged, [(f.code, str(f.path)) for f in report.findings]
    assert all(key not in f.message for f in report.findings)


def test_many_members_a_service_names_are_read_in_one_search() -> None:
    """20,000 values under "okta" and one key: the key is found at its place. (As in a text,
    a thousand decoys of the format's own shape refused, the rest of the text is not read for
    it: a key after them is missed.)"""
    items: list[dict[str, str]] = [{"okta": f"00{k:030d}"} for k in range(20_000)]
    key = "00" + rnd(40)
    items[12_345] = {"okta": key}
    hits = find_secrets({"items": items})
    assert [(h.path, h.start, h.end) for h in hits] == [("/items/12345/okta", 0, 42)]


def test_a_value_json_writes_with_an_escape_is_read_as_itself() -> None:
    value = 'ab"' + rnd(32, HEX)
    assert find_secrets({"providers": {"datadog": value}}) == find_secrets({"x": value})
