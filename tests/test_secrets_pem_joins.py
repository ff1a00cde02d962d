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
