"""A JSON Web Key's private parts (RFC 7517; RFC 7518 §6), in a text and as a document's members.

A JWK is a private key as JSON: an EC or OKP key's "d", an RSA key's "d" with the primes and
exponents it is computed from ("p", "q", "dp", "dq", "qi": any of them gives the key away), a
symmetric key's "k". Each is withheld; a public key ("kty", "n", "e"; "x", "y") holds none.
"""

import base64
import json
import random

import pytest

from app.secrets import find_secrets, scan_text

RANDOM = random.Random(7517)


def b64url(size: int) -> str:
    return base64.urlsafe_b64encode(RANDOM.randbytes(size)).decode().rstrip("=")


def ec_key() -> dict[str, str]:
    return {"kty": "EC", "crv": "P-256", "x": b64url(32), "y": b64url(32), "d": b64url(32)}


def okp_key() -> dict[str, str]:
    return {"kty": "OKP", "crv": "Ed25519", "x": b64url(32), "d": b64url(32)}


def oct_key() -> dict[str, str]:
    return {"kty": "oct", "k": b64url(32), "alg": "HS256"}


def rsa_key() -> dict[str, str]:
    key = {"kty": "RSA", "n": b64url(256), "e": "AQAB", "d": b64url(256)}
    key.update({member: b64url(128) for member in ("p", "q", "dp", "dq", "qi")})
    return key


PRIVATE = {"EC": ["d"], "OKP": ["d"], "oct": ["k"], "RSA": ["d", "p", "q", "dp", "dq", "qi"]}
KEYS = [ec_key, okp_key, oct_key, rsa_key]
# as a file or a tool writes a key: compact, its members sorted ("d" before "kty"), a JWKS
# pretty-printed, in an environment variable
WRITTEN = {
    "compact": json.dumps,
    "sorted": lambda key: json.dumps(key, sort_keys=True, separators=(",", ":")),
    "jwks": lambda key: json.dumps({"keys": [key]}, indent=2),
    "variable": lambda key: f"JWT_SIGNING_KEY='{json.dumps(key)}'",
}


@pytest.mark.parametrize("written", list(WRITTEN))
@pytest.mark.parametrize("make", KEYS, ids=lambda make: make.__name__)
def test_each_private_part_of_a_key_written_in_a_text_is_withheld(make, written) -> None:  # type: ignore[no-untyped-def]
    key = make()
    text = WRITTEN[written](key)
    found = [text[start:end] for start, end, _ in scan_text(text)]
    assert sorted(found) == sorted(key[member] for member in PRIVATE[key["kty"]])
    assert {kind for _, _, kind in scan_text(text)} == {"a private key"}


@pytest.mark.parametrize("make", KEYS, ids=lambda make: make.__name__)
def test_each_private_member_of_a_key_a_document_holds_is_found(make) -> None:  # type: ignore[no-untyped-def]
    key = make()
    hits = find_secrets({"extensions": {"dev.example/auth": {"jwks": {"keys": [key]}}}})
    prefix = "/extensions/dev.example~1auth/jwks/keys/0/"
    assert [hit.path for hit in hits] == [prefix + m for m in PRIVATE[key["kty"]]]
    assert {hit.kind for hit in hits} == {"a private key"}


def test_a_key_json_escaped_in_a_string_is_found() -> None:
    key = ec_key()
    (hit,) = find_secrets({"statements": [{"text": "body: " + json.dumps(json.dumps(key))}]})
    assert hit.text[hit.start : hit.end] == key["d"]


@pytest.mark.parametrize(
    "key",
    [
        # a public key: no private part
        {"kty": "RSA", "n": b64url(256), "e": "AQAB", "kid": "2026-12"},
        {"kty": "EC", "crv": "P-256", "x": b64url(32), "y": b64url(32)},
        # a placeholder, a masked value, one too short for any key
        {"kty": "EC", "crv": "P-256", "x": b64url(32), "d": "<your-private-key-here>"},
        {"kty": "EC", "crv": "P-256", "x": b64url(32), "d": "x" * 43},
        {"kty": "oct", "k": "c2VjcmV0"},
        # a "d" of no key's type, a "k" of an RSA key
        {"kty": "XYZ", "d": b64url(32)},
        {"kty": "RSA", "n": b64url(256), "e": "AQAB", "k": b64url(32)},
    ],
    ids=["rsa-public", "ec-public", "placeholder", "masked", "short", "no-type", "rsa-k"],
)
def test_no_private_part_is_none(key: dict[str, str]) -> None:
    assert scan_text(json.dumps(key)) == []
    assert find_secrets({"jwks": {"keys": [key]}}) == []


def test_a_d_outside_the_key_s_object_is_not_its() -> None:
    """The private part is read in the object that names the key's type: a "d" of another
    object beside a public key is none of its."""
    public = {"kty": "EC", "crv": "P-256", "x": b64url(32), "y": b64url(32)}
    text = json.dumps([public, {"d": b64url(32)}])
    assert scan_text(text) == []
