"""A private key whose lines were joined by something other than a line break where it was
pasted (issue 29): a comment's mark opening each line (a key commented out in a configuration
file or a script), HTML's line break (a ticket exported as HTML), the quotes and comma between
the items of a list of its lines. The key is found from its armour to its END line, and what
shows the text withholds every line of it."""

from __future__ import annotations

import json

import pytest

from app.secrets import find_secrets, redact, scan_text
from tests.test_secrets import pem

JOINS = {
    "hash comment": lambda lines: "\n".join("# " + line for line in lines),
    "slash comment": lambda lines: "\n".join("// " + line for line in lines),
    "block comment": lambda lines: "/*\n" + "\n".join(" * " + line for line in lines) + "\n */",
    "SQL comment": lambda lines: "\n".join("-- " + line for line in lines),
    "ini comment": lambda lines: "\n".join("; " + line for line in lines),
    "HTML line breaks": lambda lines: "<p>" + "<br>".join(lines) + "</p>",
    "XHTML line breaks": lambda lines: "<br />\n".join(lines),
    "a JSON list": lambda lines: json.dumps(lines),
    "a JSON list, indented": lambda lines: json.dumps(lines, indent=2),
    "a Python list": lambda lines: repr(lines),
}


@pytest.mark.parametrize("label", ["RSA ", "EC ", "OPENSSH ", ""])
@pytest.mark.parametrize("join", sorted(JOINS))
def test_a_key_whose_lines_were_joined_so_is_found_whole(join: str, label: str) -> None:
    key = pem(label)
    lines = key.split("\n")
    text = "kept for reference:\n" + JOINS[join](lines) + "\nend"
    (span,) = scan_text(text)
    found = text[span[0] : span[1]]
    assert found.startswith("-----BEGIN") and found.endswith("KEY-----"), join
    shown = redact(text)
    assert not any(line in shown for line in lines[1:-1]), join
    (hit,) = find_secrets({"excerpt": text})
    assert (hit.start, hit.end) == span[:2]


@pytest.mark.parametrize(
    "text",
    [
        "# -----BEGIN RSA PRIVATE KEY-----\n# paste your key here\n# -----END RSA PRIVATE KEY-----",
        '["-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----"]',
        "-----BEGIN RSA PRIVATE KEY-----<br>(the key was removed)<br>-----END RSA PRIVATE KEY-----",
        "/*\n * -----BEGIN PUBLIC KEY-----\n * MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n */",
    ],
)
def test_an_armour_with_no_key_after_its_join_is_none(text: str) -> None:
    assert scan_text(text) == []


def test_an_encrypted_key_indented_in_a_yaml_block_is_found_with_its_headers() -> None:
    body = pem("RSA ").split("\n")
    lines = [
        body[0],
        "Proc-Type: 4,ENCRYPTED",
        "DEK-Info: AES-128-CBC,0552EEB38DBAB888",
        "",
        *body[1:],
    ]
    text = "tls.key: |\n" + "\n".join("    " + line for line in lines) + "\nnext: 1"
    (span,) = scan_text(text)
    assert text[span[0] : span[1]] == "\n".join(lines).replace("\n", "\n    ")


def _with_headers(kind: str) -> list[str]:
    """A key's lines with the headers PEM's legacy encryption or OpenPGP writes."""
    body = pem("RSA " if kind == "encrypted" else "PGP ").split("\n")
    if kind == "encrypted":
        headers = ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,0552EEB38DBAB888"]
    else:
        body = [line.replace("KEY-----", "KEY BLOCK-----") for line in body]
        headers = ["Version: GnuPG v2", "Comment: exported 2026-12-06"]
    return [body[0], *headers, "", *body[1:]]


@pytest.mark.parametrize("kind", ["encrypted", "openpgp"])
@pytest.mark.parametrize("space", [" ", "  ", "\t"])
def test_a_key_with_headers_flattened_onto_one_line_is_found_whole(kind: str, space: str) -> None:
    """A key pasted where line breaks become spaces (a chat, a form's field): its headers are
    read up to the next header or the base64, and the key is found from its armour on."""
    lines = _with_headers(kind)
    text = "the customer pasted: " + space.join(lines) + " thanks"
    (span,) = scan_text(text)
    found = text[span[0] : span[1]]
    assert found.startswith("-----BEGIN") and found.endswith("-----"), found[-40:]
    assert not any(line in redact(text) for line in lines[4:-1])


@pytest.mark.parametrize(
    "text",
    [
        "-----BEGIN RSA PRIVATE KEY----- Proc-Type: 4,ENCRYPTED is the header of an old key",
        "-----BEGIN PGP PRIVATE KEY BLOCK----- Version: GnuPG v2 then the armoured data",
    ],
)
def test_an_armour_and_headers_with_no_key_after_them_is_none(text: str) -> None:
    assert scan_text(text) == []
