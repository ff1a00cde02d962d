"""A credential in an e-mail's quoted reply, or a Markdown block quote: a mark opening each line
("> ", nested "> > " or ">>") breaks a key file's base64 lines, a YAML block's indentation and a
table's rows, and the scan reads the text again without the marks (issue 29). The hit is placed
in the text as written, and what shows the text withholds every line of it."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets, redact, scan_text
from tests.test_secrets import pem


def quoted(text: str, mark: str = "> ") -> str:
    return "\n".join(mark + line for line in text.split("\n"))


@pytest.mark.parametrize("mark", ["> ", ">", "> > ", ">> ", ">>> "])
def test_a_key_file_quoted_in_a_reply_is_found_and_withheld_line_by_line(mark: str) -> None:
    key = pem("RSA ")
    text = f"Rotating it now.\nOn Mon, ops@example.com wrote:\n{quoted(key, mark)}\n{mark}\nBye"
    (span,) = scan_text(text)
    found = text[span[0] : span[1]]
    assert found.startswith("-----BEGIN") and found.endswith("-----")
    assert found.replace("\n" + mark, "\n") == key  # (every line of it, its marks between)
    shown = redact(text)
    assert shown.startswith("Rotating it now.\nOn Mon") and shown.endswith(f"\n{mark}\nBye")
    assert not any(line.strip("> ") in shown for line in key.split("\n")[1:-1])


@pytest.mark.parametrize(
    ("structure", "value"),
    [
        ("db:\n  password: |\n    Qw7vDwfnK41J1i\n  host: db", "Qw7vDwfnK41J1i"),
        ("| name | value |\n|---|---|\n| DB_PASSWORD | Qw79EhnLiWuPIR |", "Qw79EhnLiWuPIR"),
        (
            "machine api.example.com\n  login deploy\n  password flApuarG2PhrrEAG",
            "flApuarG2PhrrEAG",
        ),
        ("name,password\napp,Qw7MEa8WlWcd54", "Qw7MEa8WlWcd54"),
    ],
)
def test_a_structure_of_several_lines_quoted_is_read_through_its_marks(
    structure: str, value: str
) -> None:
    text = "see below\n" + quoted(structure)
    assert [text[a:b] for a, b, _ in scan_text(text)] == [value]


def test_in_a_document_the_hit_is_placed_in_the_excerpt_as_written() -> None:
    from tests.test_secrets_recall import _document

    doc = _document()
    structure = "db:\n  password: |\n    Qw7vDwfnK41J1i\n  host: db"
    doc["resources"][0]["excerpt"] = "On Mon, ops wrote:\n" + quoted(structure)
    (hit,) = find_secrets(doc)
    assert hit.path == "/resources/0/excerpt" and hit.text is not None
    assert hit.text[hit.start : hit.end] == "Qw7vDwfnK41J1i"


@pytest.mark.parametrize(
    "text",
    [
        "> the deploy key was rotated yesterday\n> token refresh is at 09:00\n> thanks",
        "> password: see the vault\n> > api_key: ${API_KEY}\n>",
        "Quoting the docs:\n> Set `DB_PASSWORD` in your environment.\n> Never commit it.",
        "> -----BEGIN PUBLIC KEY-----\n> MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n"
        "> -----END PUBLIC KEY-----",
    ],
)
def test_an_ordinary_quote_holds_no_credential(text: str) -> None:
    assert scan_text(text) == []
