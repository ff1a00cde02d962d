"""Names too common to announce a credential by themselves: a storage key, a primary or
secondary key. Azure names its keys so (the Azure CLI's AZURE_STORAGE_KEY; a storage account's,
Cosmos DB's and Service Bus's "Primary key" and "Secondary key" in the portal), and writes each
as the base64 of 32 or 64 random bytes; a table's primary key names a column, an object store's
storage key a path. So a value under these names is a key only in that shape."""

from __future__ import annotations

import base64
import hashlib
import json
import os

import pytest

from app.secrets import AZURE_ACCOUNT_KEY, find_secrets, scan_text


def key(size: int) -> str:
    return base64.b64encode(os.urandom(size)).decode()


@pytest.mark.parametrize("size", [32, 64])
@pytest.mark.parametrize(
    "name", ["storage_key", "StorageKey", "AZURE_STORAGE_KEY", "primaryKey", "secondary_key"]
)
def test_a_key_in_azure_s_shape_under_these_names_is_found(name: str, size: int) -> None:
    value = key(size)
    (hit,) = find_secrets({"config": {name: value}})
    assert hit.path == f"/config/{name}" and not hit.in_key
    # and as a line of an environment file in a text
    text = f"AZURE_STORAGE_ACCOUNT=ledgerstore\n{name}={value}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [value]


def test_a_storage_key_is_said_to_be_an_azure_account_key() -> None:
    (hit,) = find_secrets({"storage_key": key(64)})
    assert hit.kind == AZURE_ACCOUNT_KEY


@pytest.mark.parametrize(
    "value",
    [
        "id",
        "customerId",
        "order_id",
        "pk_orders_2026",
        "a1b2c3d4",
        "3fa85f64-5717-4562-b3fc-2c963f66afa6",  # an idempotency key, a row's id
        "avatars/123.png",
        "uploads/2026/12/invoice-4411.pdf",
        "checkpoints/019a8000-0000-7000-8000-000000000011.json",
        "s3://bucket/path/to/file",
        "ledger-2026-11-reports",
        "A" * 86 + "==",  # the shape, but no random bytes
        "x" * 43 + "=",  # no base64 of 32 bytes ends so
        # the base64 of 48 bytes (a SHA-384 digest): no key Azure writes
        base64.b64encode(hashlib.sha384(b"not a key").digest()).decode(),
    ],
)
@pytest.mark.parametrize("name", ["storage_key", "primary_key", "secondaryKey"])
def test_other_values_under_these_names_are_not_keys(name: str, value: str) -> None:
    assert find_secrets({name: value}) == []
    assert scan_text(f"{name}: {value}") == []


# A service's personal access token and a qualified key, named by the variable CI sets
# (Azure DevOps' AZURE_DEVOPS_PAT, a workflow's GH_PAT, Adafruit IO's ADAFRUIT_IO_KEY): the
# names a pipeline's environment and a tool's arguments hold them under.
SERVICE_CREDENTIAL_NAMES = [
    "AZURE_DEVOPS_PAT",
    "GH_PAT",
    "gitlab_pat",
    "ADO_PAT",
    "JIRA_PAT",  # (a service a rule names: Atlassian's)
    "FIGMA_PAT",
    "DOCKER_PAT",
    "codeberg_pat",
    "ADAFRUIT_IO_KEY",
    "CircleCI_PAT",  # (camel case splits the service's name: circle, ci)
    "GitHub_PAT",
]
TOKEN = "Zk3mQ9xR2vT8wL5nP1cY7hJ4bF6dS0aG3eK9uM2q"


@pytest.mark.parametrize("name", SERVICE_CREDENTIAL_NAMES)
def test_a_value_under_a_service_s_token_name_is_found(name: str) -> None:
    (hit,) = find_secrets({"env": {name: TOKEN}})
    assert hit.path == f"/env/{name}"
    text = f"export {name}={TOKEN}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [TOKEN]


@pytest.mark.parametrize(
    "name",
    [
        "glob_pat",
        "url_pat",
        "token_pat",
        "file_path",
        "search-pattern",
        "PAT",
        "FilePat",
        "RegexPat",
    ],
)
def test_a_pattern_s_or_a_path_s_name_is_no_token_s(name: str) -> None:
    """A "pat" after a word that names no service is a pattern (glob_pat), and a path's name
    holds the letters: neither makes a value a token."""
    assert find_secrets({"env": {name: TOKEN}}) == []
    assert scan_text(f"{name}={TOKEN}") == []


def test_aws_secrets_manager_s_secret_string_is_the_secret() -> None:
    """`aws secretsmanager get-secret-value` prints the secret as "SecretString": the value
    itself, or JSON holding it (read as JSON in a string is)."""
    secret = "Tr7vKq2mXw9p" + "Lz4nQ8"
    plain = {"Name": "prod/db", "SecretString": secret, "VersionId": "v1"}
    nested = {
        "Name": "prod/db",
        "SecretString": json.dumps({"username": "app", "password": secret}),
    }
    for output in (plain, nested):
        text = json.dumps(output, indent=4)
        assert [text[s:e] for s, e, _ in scan_text(text)] == [secret]
    assert [hit.path for hit in find_secrets({"result": plain})] == ["/result/SecretString"]
    template = {"SecretString": "{{resolve:secretsmanager:prod/db:SecretString:password}}"}
    assert find_secrets({"result": template}) == []


@pytest.mark.parametrize("value", ["RHsUI6i0vypOSnXSmK285wTBFFaxcKey", "q7TbX2mWn4Kz8RvL0pYsToken"])
def test_a_generated_key_ending_in_a_types_word_is_found(value: str) -> None:
    """A key drawn at random may end in "Key" or "Token" (one in some 240,000 does): its letters
    alone between capitals and digits say it is no type's name (OAuth2Token, SigningKey)."""
    text = f"API key: {value}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [value]


@pytest.mark.parametrize("value", ["OAuth2Token", "GoogleOAuth2Credentials", "JWTToken", "X509Key"])
def test_a_types_name_as_a_keys_value_is_none(value: str) -> None:
    assert scan_text(f"api_key: {value}\n") == []
