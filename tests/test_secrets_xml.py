"""A credential in an XML element named for it, as configuration files hold one (Maven's
settings.xml, an app.config, a SOAP header): the element's text is judged as a name/value
entry's value is, so placeholders, references and prose stay unflagged."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets, scan_text

PASSWORD = "C3J27X!DCG2Lm"
KEY = "Zq9kLm2Wx7Tp4Rv8Yb3N"


def withheld(text: str) -> list[str]:
    return [text[start:end] for start, end, _ in scan_text(text)]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (f"<password>{PASSWORD}</password>", PASSWORD),
        (
            "<servers><server><id>nexus</id><username>deploy</username>"
            f"<password>{PASSWORD}</password></server></servers>",
            PASSWORD,
        ),
        (f'<ns:ClientSecret xmlns:ns="urn:x">{KEY}</ns:ClientSecret>', KEY),
        (f"<apiKey>\n  {KEY}\n</apiKey>", KEY),
        (f"<AccessToken>{KEY}</AccessToken >", KEY),
    ],
)
def test_an_element_named_for_a_credential_has_its_text_withheld(text: str, secret: str) -> None:
    assert withheld(text) == [secret]
    assert [hit.path for hit in find_secrets({"config": text})] == ["/config"]


@pytest.mark.parametrize(
    "text",
    [
        "<password>${env.DEPLOY_PASSWORD}</password>",
        "<password>changeme</password>",
        "<token>{{ token }}</token>",
        "<key>value</key>",
        "<label>Password</label><input type=password>",
        "<PasswordPolicy>requires 12 characters</PasswordPolicy>",
        "<keyName>main-signing-key</keyName>",
        f"<password>{PASSWORD}</passwd>",  # (no element: its tags differ)
    ],
)
def test_placeholders_prose_and_other_elements_are_not(text: str) -> None:
    assert scan_text(text) == []
