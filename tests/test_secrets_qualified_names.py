"""A credential's name that says which of its kind it is: an environment, a version, a side, a type
after it (DB_PASSWORD_PROD, API_KEY_V2, Mailjet's MJ_APIKEY_PRIVATE), or a note in brackets
after a label ("Datadog API key (EU)"). The name is read as the name alone; what it names
something else by (an id, a length, an expiry, a sort order) keeps it none."""

from __future__ import annotations

import json

import pytest

from app.secrets import find_secrets, scan_document, scan_text
from tests.test_secrets import rnd

KEY = "aB3" + rnd(29)
PASSWORD = "Pw9" + rnd(11)


@pytest.mark.parametrize(
    "name",
    [
        "DB_PASSWORD_PROD",
        "API_KEY_V2",
        "SECRET_KEY_STAGING",
        "STRIPE_KEY_LIVE",
        "MJ_APIKEY_PRIVATE",
        "apiKeyProd",
        "api_token_value",
        "API_KEY_PROD_2",
        "tokenString",  # its type in code
        "api_key_str",
        "SECRET_TEXT",
        "API_TOKEN_READONLY",  # what it may do
        "API_KEY_ADMIN",
        "Datadog API key (EU)",
        "API key [staging]",
        "Password (old)",
    ],
)
def test_a_qualified_name_s_value_is_found(name: str) -> None:
    value = PASSWORD if "assword" in name.lower() else KEY
    (hit,) = find_secrets({"extensions": {"x": {name: value}}})
    assert hit.path == f"/extensions/x/{name}" and not hit.in_key
    if " " not in name:
        # and as an environment file's line, in a text large enough for RE2 to read it too
        for padding in ("", "# settings\n" * 3000):
            text = f"{padding}{name}={value}\nLOG_LEVEL=info\n"
            assert [text[s:e] for s, e, _ in scan_text(text)] == [value], (name, len(text))


@pytest.mark.parametrize(
    "name",
    [
        "API_KEY_ID",
        "API_KEY_NAME",
        "TOKEN_EXPIRY",
        "PASSWORD_MIN_LENGTH",
        "SORT_KEY_PROD",
        "MJ_APIKEY_PUBLIC",
        "sort key (asc)",
        "Partition key [v2]",
    ],
)
def test_a_name_qualified_as_something_else_holds_none(name: str) -> None:
    assert find_secrets({"extensions": {"x": {name: KEY}}}) == []


DATADOG_KEY = "9f" + rnd(30, "0123456789abcdef")


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({"datadog": {"key": DATADOG_KEY}}, "/datadog/key"),
        (
            {"services": [{"datadog": {"site": "datadoghq.eu", "KEY": DATADOG_KEY}}]},
            "/services/0/datadog/KEY",
        ),
        # (a document large enough for the scan to read its strings from its text)
        (
            {
                "items": [{"a": [i], "b": {"c": i}} for i in range(20_000)],
                "cfg": {"datadog": {"key": DATADOG_KEY}},
            },
            "/cfg/datadog/key",
        ),
    ],
)
def test_a_bare_key_in_an_object_a_service_names_is_its_key(document: object, path: str) -> None:
    """A configuration nests each service's settings under its name: {"datadog": {"key": …}}
    is datadog_key's value."""
    for source in (None, json.dumps(document)):
        assert [(h.path, h.kind) for h in scan_document(document, source=source).hits] == [
            (path, "an API key")
        ]


@pytest.mark.parametrize(
    "document",
    [
        {"sort": {"key": DATADOG_KEY}},
        {"datadog": {"key": "created_at"}},
        {"datadog": [{"key": DATADOG_KEY}]},
        {"key": DATADOG_KEY, "datadog": True},
    ],
)
def test_a_bare_key_elsewhere_holds_none(document: object) -> None:
    assert find_secrets(document) == []


@pytest.mark.parametrize(
    "text",
    [
        "datadog:\n  key: {key}\n",
        "datadog:\n  site: datadoghq.eu\n  key: {key}\n",
        '[datadog]\nkey = "{key}"\n',
        '[services.datadog]\nsite = "eu"\nkey = "{key}"\n',
        "x:\r\n  datadog:\r\n    key: {key}\r\n",
    ],
)
def test_a_bare_key_in_a_service_s_mapping_or_section_is_its_key(text: str) -> None:
    """The same nesting written as YAML or TOML in a text (a configuration file read into a
    note), by `re` and, in a text large enough, by RE2."""
    for padding in ("", "# settings\n" * 3000):
        written = padding + text.format(key=DATADOG_KEY)
        assert [written[s:e] for s, e, _ in scan_text(written)] == [DATADOG_KEY], len(written)


@pytest.mark.parametrize(
    "text",
    [
        "sort:\n  key: {key}\n",
        "datadog:\n  options:\n    key: {key}\n",
        "datadog: on\nkey: {key}\n",
        "[datadog]\nkey = created_at\n",
    ],
)
def test_a_bare_key_in_another_mapping_holds_none(text: str) -> None:
    assert scan_text(text.format(key=DATADOG_KEY)) == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("password (hash)", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("token (expires)", "2025-01-01T00:00:00Z"),
        ("API key (name)", KEY),
        ("(password)", KEY),
    ],
)
def test_a_note_that_says_what_else_a_name_holds_keeps_it_none(name: str, value: str) -> None:
    """A note in brackets reads as which of its kind a credential is only when its words say
    so (an environment, a version, a region); "(hash)" or "(expires)" says something else."""
    assert find_secrets({"extensions": {"x": {name: value}}}) == []
