"""A private key's body written without its PEM armour: the base64 of its DER or of an OpenSSH key.

An environment variable or a secret store often holds a key as one line of base64, its BEGIN and
END lines left out (`PRIVATE_KEY=MIIEvQIBADAN…`). The structures are built here from random bytes
with the DER a key has (PKCS #8, RFC 5208; PKCS #1, RFC 8017; SEC 1, RFC 5915; OpenSSH's
"openssh-key-v1"): their base64 starts as a real key's does, and no key sits in the repository.
A public key, a certificate, a key's start cut short or typed out holds none.
"""

import base64
import json
import os
import struct
from collections.abc import Callable

import pytest

from app.secrets import find_secrets, scan_text


def der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def sequence(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def integer(value: bytes) -> bytes:
    return der(0x02, b"\x00" + value if value[0] & 0x80 else value)


def octets(value: bytes) -> bytes:
    return der(0x04, value)


def oid(encoded: str) -> bytes:
    return der(0x06, bytes.fromhex(encoded))


RSA_ENCRYPTION = oid("2a864886f70d010101")
EC_PUBLIC_KEY = oid("2a8648ce3d0201")
PRIME256V1 = oid("2a8648ce3d030107")
SECP384R1 = oid("2b81040022")
NULL = b"\x05\x00"


def rsa_pkcs1(bits: int = 2048) -> bytes:
    half = bits // 16
    parts = [os.urandom(bits // 8), b"\x01\x00\x01", os.urandom(bits // 8)]
    parts += [os.urandom(half) for _ in range(5)]
    return sequence(integer(b"\x00"), *map(integer, parts))


def rsa_pkcs8(bits: int = 2048) -> bytes:
    algorithm = sequence(RSA_ENCRYPTION, NULL)
    return sequence(integer(b"\x00"), algorithm, octets(rsa_pkcs1(bits)))


def ec_sec1(curve: bytes = PRIME256V1, size: int = 32) -> bytes:
    public = der(0x03, b"\x00\x04" + os.urandom(2 * size))
    return sequence(integer(b"\x01"), octets(os.urandom(size)), der(0xA0, curve), der(0xA1, public))


def ec_pkcs8() -> bytes:
    algorithm = sequence(EC_PUBLIC_KEY, PRIME256V1)
    public = der(0xA1, der(0x03, b"\x00\x04" + os.urandom(64)))
    inner = sequence(integer(b"\x01"), octets(os.urandom(32)), public)
    return sequence(integer(b"\x00"), algorithm, octets(inner))


def ed25519_pkcs8() -> bytes:
    return sequence(integer(b"\x00"), sequence(oid("2b6570")), octets(octets(os.urandom(32))))


def openssh() -> bytes:
    def string(value: bytes) -> bytes:
        return struct.pack(">I", len(value)) + value

    public = string(b"ssh-ed25519") + string(os.urandom(32))
    check = os.urandom(4)
    private = check + check + public + string(os.urandom(64)) + string(b"ops@example") + b"\x01\x02"
    return (
        b"openssh-key-v1\x00"
        + string(b"none")
        + string(b"none")
        + string(b"")
        + struct.pack(">I", 1)
        + string(public)
        + string(private)
    )


def rsa_public() -> bytes:
    public = sequence(integer(os.urandom(256)), integer(b"\x01\x00\x01"))
    return sequence(sequence(RSA_ENCRYPTION, NULL), der(0x03, b"\x00" + public))


KEYS: dict[str, Callable[[], bytes]] = {
    "rsa-pkcs8": rsa_pkcs8,
    "rsa-pkcs8-1024": lambda: rsa_pkcs8(1024),
    "rsa-pkcs8-4096": lambda: rsa_pkcs8(4096),
    "rsa-pkcs1": rsa_pkcs1,
    "rsa-pkcs1-1024": lambda: rsa_pkcs1(1024),
    "ec-pkcs8": ec_pkcs8,
    "ec-sec1": ec_sec1,
    "ec-sec1-p384": lambda: ec_sec1(SECP384R1, 48),
    "ed25519-pkcs8": ed25519_pkcs8,
    "openssh": openssh,
}


def body(make: Callable[[], bytes]) -> str:
    return base64.b64encode(make()).decode()


def wrapped(text: str, joint: str = "\n") -> str:
    return joint.join(text[i : i + 64] for i in range(0, len(text), 64))


@pytest.mark.parametrize("name", list(KEYS))
def test_a_key_s_body_on_a_line_of_its_own_is_withheld_whole(name: str) -> None:
    key = body(KEYS[name])
    for text in (key, f"PRIVATE_KEY={key}", f"signing key: {key} (rotate in May)"):
        assert [text[s:e] for s, e, _ in scan_text(text)] == [key]
        assert {kind for _, _, kind in scan_text(text)} == {"a private key"}


@pytest.mark.parametrize("joint", ["\n", "\r\n", "\\n"], ids=["lf", "crlf", "json-escaped"])
@pytest.mark.parametrize("name", ["rsa-pkcs8", "ec-sec1", "openssh"])
def test_a_key_s_body_wrapped_as_pem_wraps_it_is_withheld_whole(name: str, joint: str) -> None:
    key = wrapped(body(KEYS[name]), joint)
    text = f"{key}{joint}Thanks, ops"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [key]


def test_a_key_s_body_a_document_holds_is_found_where_it_stands() -> None:
    key = body(rsa_pkcs8)
    document = {"extensions": {"dev.example/env": {"SIGNING": key}}, "notes": [json.dumps([key])]}
    paths = [hit.path for hit in find_secrets(document)]
    assert paths == ["/extensions/dev.example~1env/SIGNING", "/notes/0"]


@pytest.mark.parametrize(
    "text",
    [
        body(rsa_public),  # a public key: another start
        "MIIDdzCCAl+gAwIBAgIUJ" + body(lambda: os.urandom(600)),  # a certificate's start
        body(rsa_pkcs8)[:60],  # a key's start cut short
        body(ec_sec1)[:100] + "...",
        body(rsa_pkcs8)[:40] + "A" * 900,  # a key's start, the rest typed
        body(openssh)[:32] + "x" * 400,
        "MIIEowIBAAKC " * 50,  # the start alone, again and again
        "x" + body(rsa_pkcs8),  # inside a run of base64: no key's start
    ],
    ids=[
        "public",
        "certificate",
        "cut",
        "cut-ellipsis",
        "typed",
        "typed-openssh",
        "starts",
        "inside",
    ],
)
def test_no_private_key_s_body_is_none(text: str) -> None:
    assert scan_text(text) == []


def test_a_key_after_a_flood_of_key_starts_in_another_string_is_found() -> None:
    key = body(ec_pkcs8)
    hits = find_secrets({"a": "MIIEowIBAAKC " * 5_000, "b": key})
    assert [hit.path for hit in hits] == ["/b"]
