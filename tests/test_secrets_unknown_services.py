"""A key named for a service none of the rules knows ("censys_key", CLARIFAI_KEY, chartmogulKey:
gitleaks' generic-api-key reads every name ending in "key"), and a name that starts with digits
(8x8_secret, 3scale_token: a YAML key, a JSON member, an environment file's line). The key's
value is one only as data holds it, with a run of letters and digits generated as keys are;
the names of keys that are no credential (a cache's, a sort's, a public one) and identifiers'
values (a paginator's "Ipv6CidrAssociations") stay none."""

from __future__ import annotations

import random

import pytest

from app.secrets import find_secrets, scan_text
from tests.test_secrets import ALNUM, found_in_text, rnd

KEY = "roLt" + rnd(24) + "7e4Q"
HEX_KEY = "e8" + rnd(30, "0123456789abcdef")
# (base64url of 32 bytes that happens to hold no digit, as one in a thousand does)
LETTERS_KEY = "PSIYbVgfkbEPQoqJfzHpACTtihONkQ_cKmOpNDPNiCU"


@pytest.mark.parametrize("name", ["censys_key", "CLARIFAI_KEY", "chartmogulKey", "clinchpad-key"])
@pytest.mark.parametrize(
    "value", [KEY, HEX_KEY, LETTERS_KEY, f"api_{KEY}", f"49|{KEY}", "SEeNW8bM_Rref-UFdiBKio"]
)
def test_a_key_named_for_an_unknown_service_is_found(name: str, value: str) -> None:
    (hit,) = find_secrets({"api": {name: value}})
    assert (hit.path, hit.kind) == (f"/api/{name}", "an API key")
    # and as a YAML mapping's line and an environment file's, in a text large enough for RE2
    # to read it too
    for padding in ("", "# settings\n" * 3000):
        for line in (f'api:\n  {name}: "{value}"\n', f"{name}={value}\nLOG_LEVEL=info\n"):
            assert found_in_text(padding + line) == [value], (name, len(padding))


def test_a_generated_key_is_not_taken_for_an_identifier_s_words() -> None:
    """A capital and the small letters after it in a generated key read as an identifier's
    word: 32 letters and digits drawn at random were words enough once in 950 draws
    ("roLtmSFVJunEKA7Umjtfis2WltSeqKvw", missed); a word holds a vowel now, as words do."""
    draws = random.Random(20261207)
    keys = ["".join(draws.choice(ALNUM) for _ in range(32)) for _ in range(3000)]
    keys = [key for key in keys if any(map(str.isdigit, key))]  # (one in 27,000 has none)
    keys.append("roLtmSFVJunEKA7Umjtfis2WltSeqKvw")
    hits = find_secrets({"api": [{"censys_key": key} for key in keys]})
    assert len(hits) == len(keys)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("cache_key", KEY),  # a cache's, a sort's, a table's, an index's keys
        ("sort_key", KEY),
        ("partitionKey", KEY),
        ("idempotency_key", KEY),
        ("zone_key", KEY),
        ("public_censys_key", KEY),  # public by design, as PUBLIC_API_KEY is
        ("NEXT_PUBLIC_CENSYS_KEY", KEY),
        ("gpg_key", HEX_KEY.upper()),  # a fingerprint
        ("kms_key", "3AA5C34371567BD2AB12"),  # a reference to a key no one sees
        ("typesense_search_key", KEY),  # a search-only key: made to be public
        ("tenant_key", "2ca1d211f64f6438"),  # an account's, a tenant's, a team's id
        ("oauth_consumer_key", "0685bd9184jfhq22"),  # OAuth 1's client identifier
        ("result_key", "Ipv6CidrAssociations"),  # an identifier's words
        ("censys_key", "S3AccessPointAttachments"),
        ("handler_key", "onClickOutsideHandlerFn"),
        ("censys_key", "getElementsByTagName"),
        ("censys_key", "SqlXmlHtmlRpcHandler"),  # abbreviations written as words
        ("censys_key", "XmlHttpRequestHandlerFactory"),
        ("terminate_key", "terminateBlueInstancesOnDeploymentSuccess"),
        ("censys_key", "cache-key-v2-user-12345-abc"),  # words joined in one case
        ("censys_key", "my-service-prod-us-east-1-bucket"),
        ("censys_key", "i-0abcd1234ef567890"),  # a cloud's resource's id
        ("censys_key", "a8f3c2d4-1b2c-4d5e-8f9a-0b1c2d3e4f5a"),  # a UUID: an object's id
        ("censys_key", "user:42:profile"),
        ("censys_key", "uploads/2024/report.png"),
        ("censys_key", "${CENSYS_KEY}"),
        ("censys_key", "F1A-NEI-HY4-PZK"),  # no run generated as keys are
    ],
)
def test_a_key_of_no_service_or_no_key_s_shape_holds_none(name: str, value: str) -> None:
    assert find_secrets({"api": {name: value}}) == []
    assert scan_text(f'api:\n  {name}: "{value}"\n') == []


@pytest.mark.parametrize(
    "text",
    [
        f"the censys key is {KEY}",  # told in a sentence: only a service the rules know
        f"| censys_key | {KEY} |",  # (a table's cell is judged as prose judges a value)
    ],
)
def test_an_unknown_service_s_key_is_not_read_from_prose(text: str) -> None:
    assert scan_text(text) == []


SECRET = "LiE1" + rnd(36) + "9fjeS"


@pytest.mark.parametrize("name", ["8x8_secret", "3scale_token", "2fa_secret", "42crunch_api_key"])
def test_a_name_that_starts_with_digits_is_read(name: str) -> None:
    assert [hit.path for hit in find_secrets({"api": {name: SECRET}})] == [f"/api/{name}"]
    for padding in ("", "# settings\n" * 3000):
        for line in (f'api:\n  {name}: "{SECRET}"\n', f"{name}={SECRET}\n"):
            assert found_in_text(padding + line) == [SECRET], (name, len(padding))


@pytest.mark.parametrize(
    "text",
    [
        "at 12:30 the job 2024: done; 3x = 4",  # numbers before an operator name nothing
        f"PUBLIC_\x1b[1mAPI_KEY\x1b[0m={SECRET}",  # a terminal's colour, then a public key's name
    ],
)
def test_digits_before_an_operator_name_nothing(text: str) -> None:
    assert scan_text(text) == []


@pytest.mark.parametrize("name", ["AZURE_SEARCH_KEY", "azureSearchKey", "AZURE_AI_SEARCH_KEY"])
def test_azure_ai_search_s_key_is_found(name: str) -> None:
    """Azure AI Search's admin key, as Microsoft's samples name it: a search key of Azure's is
    a secret, where Algolia's and Typesense's are made to be public (`typesense_search_key`)."""
    key = "qq1bOqykOYpSqL44C651" + "lMiKd5VwJhaDcS0NFR3PcbLAhAUHNCNK"
    assert [hit.path for hit in find_secrets({"env": {name: key}})] == [f"/env/{name}"]
    assert find_secrets({"env": {"ALGOLIA_SEARCH_KEY": key}}) == []
