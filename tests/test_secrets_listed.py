"""Credentials a text assigns as a list, and tokens written after an id's dash: found where
they stand (app/secrets `_listed_values`; app/secrets/rules.py `_token`'s boundary)."""

import pytest

from app.secrets import find_secrets, redact, scan_text

HEX = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
HEX2 = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
PASSWORD = "Zq8vR2mK9p!x"
GITHUB = "ghp_" + "Zk9xQ2vLm8pR4tW7yB3nH5jK0aS6dF1gC9eT"
STRIPE = "sk_live_" + "Zk9xQ2vLm8pR4tW7yB3nH5jK"
GITLAB = "glpat-" + "Zk9xQ2vLm8pR4tW7yB3n"


def found(text: str) -> list[str]:
    return [text[start:end] for start, end, _ in scan_text(text)]


@pytest.mark.parametrize(
    "text",
    [
        f'api_keys = ["{HEX}", "{HEX2}"]',  # TOML, Python
        f"api_keys = ['{HEX}', '{HEX2}']",
        f"api_keys: [{HEX}, {HEX2}]",  # YAML's flow sequence
        f'"api_keys": ["{HEX}", "{HEX2}"],',  # JSON in a note
        f"api_keys:\n  - {HEX}\n  - {HEX2}\n",  # YAML's block sequence
        f"datadog:\n  api_keys:\n    - '{HEX}'\n    - \"{HEX2}\"\nother: 1",
    ],
)
def test_every_key_of_a_list_under_a_key_s_name_is_found(text: str) -> None:
    assert found(text) == [HEX, HEX2]


def test_a_password_in_a_list_is_judged_as_a_json_array_s_item_is() -> None:
    text = f"passwords:\n  - {PASSWORD}\n  - Get\n"
    assert found(text) == [PASSWORD]
    assert [hit.text for hit in find_secrets({"passwords": [PASSWORD, "Get", "List"]})] == [
        PASSWORD
    ]


@pytest.mark.parametrize(
    "text",
    [
        "secrets: [Get, List, Delete]",  # what a key vault's policy may do to secrets
        "tokens:\n  - read\n  - write\n",
        "password: [REDACTED]",
        'api_keys = ["${API_KEY}", "changeme"]',
        # a regular expression's class after a name, no list: an ARN's pattern
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:[a-zA-Z0-9/_+=,.@-]+",
        f"notes: [{HEX}]",  # a list under a name no credential's
        # a list of words under a credential's name: a lexer's tokens (python-dateutil's)
        'tokens = ["foo", " ", "bar", " ", "19June2000", "baz"]',
        f"passwords:\n  - {PASSWORD}\n  - Get\n  - List\n",
    ],
)
def test_a_list_of_no_credential_is_no_finding(text: str) -> None:
    assert scan_text(text) == []


def test_a_long_list_is_read_to_its_sixteenth_item() -> None:
    items = [f"{i:02d}" + HEX[2:] for i in range(20)]
    text = "api_keys = [" + ", ".join(f'"{item}"' for item in items) + "]"
    assert found(text) == items[:16]


@pytest.mark.parametrize("token", [GITHUB, STRIPE, GITLAB])
@pytest.mark.parametrize("lead", ["op-", "deploy-", "r-", "rotate op-", "token_", "x_"])
def test_a_token_after_an_id_s_dash_is_found(lead: str, token: str) -> None:
    assert found(f"{lead}{token} was revoked") == [token]


@pytest.mark.parametrize("token", [GITHUB, STRIPE, GITLAB])
@pytest.mark.parametrize("lead", ["a", "Z", "7"])
def test_a_token_s_prefix_inside_a_word_is_no_token(lead: str, token: str) -> None:
    assert scan_text(f"{lead}{token}") == []


@pytest.mark.parametrize("lead", ["x-", "x_"])
def test_a_short_prefix_after_a_dash_or_an_underscore_is_no_token(lead: str) -> None:
    assert scan_text(f"{lead}sk-{'Zk9xQ2vLm8pR4tW7yB3nH5jK' * 2}") == []


def test_a_short_prefix_after_a_dash_is_no_token() -> None:
    # sk- and hf_ stand in dashed words by chance (bench/worst_cases.py "token-prefixes")
    assert scan_text("xoxb-sk-npm_hf_AIzaAKIAdckr_pat_pul-dp.pt.NRAK-LTAI") == []


def test_a_token_after_a_dash_in_an_id_is_found_in_a_document_and_withheld() -> None:
    document = {"id": "op-" + GITHUB, "note": "deploy-" + GITHUB}
    assert {hit.path for hit in find_secrets(document)} == {"/id", "/note"}
    assert redact("deploy-" + GITHUB) == "deploy-[redacted: looks like a credential]"


@pytest.mark.parametrize("lead", ["token-", "token_", ""])
def test_an_uploaded_file_named_for_a_token_is_shown_withheld(lead: str) -> None:
    """The page's breadcrumb, its live panel's sentence and its Share form show the file name
    the browser sent: a token in it is withheld there too."""
    from starlette.testclient import TestClient

    from app.config import Settings
    from app.web import create_app
    from tests.conftest import CONFORMANCE

    name = f"{lead}{GITHUB}.ocp.json"
    data = (CONFORMANCE / "valid-minimal.ocp.json").read_bytes()
    with TestClient(create_app(Settings())) as client:
        for route in ("/view", "/view.json"):
            response = client.post(route, files={"checkpoint_file": (name, data)})
            assert response.status_code == 200
            assert GITHUB[4:20] not in response.text
            assert "redacted" in response.text
