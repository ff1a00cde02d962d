"""A credential in an e-mail's body as its source holds it: quoted-printable.

A support case's raw message, or a mail tool's output an agent recorded, holds the body as its
Content-Transfer-Encoding wrote it: "=" as "=3D", a character past ASCII as its UTF-8 bytes,
a line longer than 76 characters broken by "=" at its end. The text is read decoded, by every
other detector and decoder (app/secrets/detectors.py `qp_decoding`), and not as written, where
"password=3DNone" would read as the password "3DNone".
"""

import json
import quopri

from app.secrets.detectors import maybe_quoted_printable, quoted_printable_text
from tests.test_secrets import found_in_text

TOKEN = "dop_v1_acef3c05608b7cdc1c11ff6ca5bcc1258166210894b36f9c7085ab28feaff66f"
PASSWORD = "Kx8nfcDzdBr1d"


def _encoded(body: str) -> str:
    encoded = quopri.encodestring(body.encode()).decode()
    return f"Content-Transfer-Encoding: quoted-printable\n\n{encoded}"


def test_a_token_a_soft_break_splits_is_found_and_withheld_whole() -> None:
    text = _encoded(f"Hello, the token our integration uses in production is {TOKEN} thanks")
    assert "=\n" in text and TOKEN not in text  # (the encoder broke the line inside it)
    [found] = found_in_text(text)
    assert found.replace("=\n", "") == TOKEN  # the span covers both pieces as written


def test_an_assignment_s_escaped_equals_sign_is_read_decoded() -> None:
    assert found_in_text(_encoded(f"DB_PASSWORD={PASSWORD}\n")) == [PASSWORD]
    assert found_in_text(_encoded(f"Passwort für die DB: {PASSWORD} (Zürich)\n")) == [PASSWORD]
    # ... and what the escape spells is no value: "=3DNone" is "=None"
    assert found_in_text(_encoded("conn = connect(host, password=None, sslmode='require')\n")) == []
    assert found_in_text(_encoded('C["fig"] = "newton"\nSet-Cookie: fig=newton\r\n')) == []


def test_what_it_decodes_to_is_read_by_the_other_decoders() -> None:
    # an agent's tool's result as JSON, a file read with its lines numbered, in an e-mail
    lines = "\n".join(
        f"{i + 1:6d}\t{line}"
        for i, line in enumerate(
            ["machine api.example.com", "  login deploy", f"  password {PASSWORD}"]
        )
    )
    body = "tool_result " + json.dumps({"output": lines, "ok": True})
    assert found_in_text(_encoded(body)) == [PASSWORD]


def test_a_text_that_only_looks_encoded_is_read_as_written() -> None:
    # a line ending with "=" (an empty variable, base64's padding) is no soft break: only one
    # of 69 characters or more with no "=" before it, as an encoder breaks lines, is
    assert not quoted_printable_text("API_TOKEN=\nOTHER=1\n")
    assert not quoted_printable_text("Y29uZmln" * 12 + "=")
    assert quoted_printable_text("a" * 75 + "=\nb")
    long_base64 = "Y29uZmlnOgpPRGt4TXpVeU16azJNRFF6TlRFMk56VTMuYXExa2dOLmx1YUlRWEJhZXo2RnF3eHhE="
    assert not quoted_printable_text(long_base64)


def test_the_escapes_of_a_text_are_read_up_to_ten_thousand() -> None:
    # each escape a step of Python: past 10,000 in a text the rest are read as written
    filler = "ab=20" * 10_000
    late = _encoded(filler + f"\nDB_PASSWORD={PASSWORD}\n")
    assert "=3D" + PASSWORD in late
    assert found_in_text(late) == []
    early = _encoded(f"DB_PASSWORD={PASSWORD}\n" + filler)
    assert found_in_text(early) == [PASSWORD]


def test_a_value_in_hex_that_starts_with_3d_is_no_escape() -> None:
    # a value's "=3d…" in lower case, as hex runs are written, is no encoder's; "=3D" once
    # before a hex digit starts a value; twice, or before what no hex run holds, it is one
    assert not quoted_printable_text("SNYK_TOKEN=3dffc47b-bc70-37bc-d06f-d44fdbf89475")
    assert not quoted_printable_text("API_KEY=3D9F0C4B7E2A1D5C8B3E6F9A0D2C4B7E1A3D5C8B")
    # (... which may yet be encoded: read both as written and as it decodes)
    assert maybe_quoted_printable("API_KEY=3D9F0C4B7E2A1D5C8B3E6F9A0D2C4B7E1A3D5C8B")
    assert found_in_text(_encoded("AWS_ACCESS_KEY_ID=AKIA2AE2P564ZLFZZYSV end")) == [
        "AKIA2AE2P564ZLFZZYSV"
    ]
    assert quoted_printable_text("password=3DNone")
    assert quoted_printable_text("a=3D1\nb=3D2")
    token = "SENTRY_AUTH_TOKEN=3d5ef3f18cb3d9855e076f8296e27178f9127a03c2849f65815add7af2c5f4d2"
    assert found_in_text(token) == [token.split("=", 1)[1]]
