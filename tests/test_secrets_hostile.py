"""The secret scan on hostile text: what it reports for each detector's worst case (issue 11).

Each input is a detector's anchor repeated with no valid tail, or a long run of its tail's
alphabet, at a size where rescanning the rest of the string from every match (what the scanner
once did: 21-32 s per MB for unterminated PEM armour) would take minutes; the scan is linear, so
each test takes a fraction of a second. Nothing here is timed (bench/secret_scan.py measures): the
tests assert what a user sees, the right findings, and the same ones at every size.
"""

import base64
import json
import string
from typing import Any

import pytest

import app.secrets as scanner
from app.secrets import find_secrets, first_secret, scan_text
from tests.test_secrets import pem, putty_key, rnd

SIZE = 400_000


def _repeat(unit: str, size: int = SIZE) -> str:
    return (unit * (size // len(unit) + 1))[:size]


BEGIN = "-----BEGIN RSA " + "PRIVATE KEY-----"

# (name, hostile text with no credential in it)
NOTHING_TO_FIND = [
    ("pem armour alone", _repeat(BEGIN)),
    ("pem END lines", _repeat(BEGIN.replace("BEGIN", "END") + "\n")),
    ("putty headers", _repeat("PuTTY-User-Key-File-2: ssh-rsa\n")),
    ("password: a", _repeat("password: a ")),
    ("password=a&", _repeat("password=a&")),
    ("api_key= with no value", _repeat("api_key=")),
    ("api_key=letters only", _repeat("api_key=abcdefgh&")),
    ("placeholders", _repeat("password=${ABC}&")),
    ("password is a", _repeat("password is a ")),
    ("password - a", _repeat("password - a password -> b ")),
    ("token prefixes", _repeat("ghp_glpat-xoxb-sk-npm_hf_AIzaAKIAdckr_pat_pul-dp.pt.NRAK-LTAI")),
    ("eyJ segments, a header without alg", _repeat("eyJ0eXAiOiJ4In0.eyJ.")),
    ("Bearer a", _repeat("Bearer a ")),
    ("userinfo anchors", _repeat("://a@")),
    ("special schemes", _repeat("https:")),
    ("Q~ near-misses", _repeat("abc1Q~")),
    ("lone percent signs", _repeat("%")),
    ("percent escapes of letters", "?q=" + _repeat("%41")),
    ("base64 of random bytes", base64.b64encode(bytes(range(256)) * (SIZE // 342)).decode()),
    ("netrc keywords", _repeat("machine a login b password ")),
    ("telegram near-misses", _repeat("12345:A")),
    ("mailchimp near-misses", _repeat("abc-us1 ")),
    ("discord near-misses", _repeat("MTIzNDU2Nzg5MDEyMzQ1Njc4.abcdef.")),
    ("terraform near-misses", _repeat("abc.atlasv1.")),
    ("alphanumeric run", rnd(SIZE)),
    ("setx placeholders", _repeat("setx API_KEY %API_KEY% ")),
    ("requirepass words", _repeat("requirepass foobared\n")),
    ("public JSON Web Keys", _repeat('{"kty":"EC","crv":"P-256","d":"short"}, ')),
    ("JSON Web Key types with no object", _repeat('"kty":"RSA",')),
    ("XML named placeholders", _repeat('<property name="db.password" value="${db.password}"/>')),
    ("XML start tags left open", _repeat("<a name='password' b='x' ")),
    ("flags with no value", _repeat("--db-password= -Dpassword= --x-token= ")),
    ("subscripts of code", _repeat('os.environ["API_KEY"] = key; ')),
    ("listed masked values", _repeat("api_key\t****\nDB_PASSWORD  ${DB_PASSWORD}\n")),
    ("listed types of code", _repeat("Token   *oauth2.Token\npassword\tstring\n")),
    ("keys after verbs, identifiers", _repeat("with token SessionTokenProvider2Factory ")),
    ("tab-separated masked values", _repeat("prod\tapi_key\t****\tDB_PASSWORD\t${DB_PASSWORD}\t")),
    ("quoted words after names", _repeat("password 'Invalid' token 'identifier123' ")),
    ("escaped quotes", _repeat("&quot;")),
    ("escaped names of placeholders", _repeat("&quot;password&quot;: &quot;${P}&quot;, ")),
    ("escaped XML of placeholders", _repeat("&lt;password&gt;${P}&lt;/password&gt;\n")),
    ("runs of one percent escape", _repeat("%41 ")),
    ("URLs with an escape each", _repeat("https://x.example.com/a?b=c%20d&e=f\n")),
    ("percent escapes encoded twice", _repeat("password%253D%2524%257BP%257D%2526")),
    ("escaped backslashes", _repeat("\\\\")),
    ("escaped tabs", _repeat("a\\tb\\t")),
    (
        "JSON of placeholders escaped twice",
        _repeat(json.dumps(json.dumps({"env": {"DB_PASSWORD": "${P}", "x": 'pw = "${P}"'}}))),
    ),
    # a tool's JSON output: name/value pairs and wrapped values named for credentials, each a
    # variable (one JSON text; and fragments that open one and never close it)
    (
        "JSON of named variables",
        json.dumps(
            [{"Name": f"/svc{i}/password", "Value": f"${{P{i}}}"} for i in range(SIZE // 60)]
            + [{f"svc{i}_password": {"value": f"${{P{i}}}"}} for i in range(SIZE // 60)]
        ),
    ),
    ("JSON openings", _repeat('{"value": [')),
    # YAML keys a mapping's value sits under, none of them a credential's
    ("YAML value lines", _repeat("\n  value: x")),
    ("YAML defaults of passwords", _repeat("DBPassword:\n  Type: String\n  Default: ''\n")),
    # a tool's JSON output, escaped once: lines, quotes and slashes escaped around placeholders
    ("printed JSON of placeholders", _repeat(json.dumps({"out": 'pw = "${P}"\nurl: https://x/'}))),
    ("escaped line breaks", _repeat("\\n")),
    # diffs: hunk headers, and lines added and removed naming placeholders
    ("hunk headers", _repeat("@@ -")),
    ("hunk headers at line starts", _repeat("\n@@ -1,2 +1,2 @@")),
    # a terminal's escape sequences: colours around placeholders, links left open
    ("terminal colours", _repeat("\x1b[1;32mpassword: ${P}\x1b[0m ")),
    ("terminal links left open", _repeat("\x1b]8;;https://x/")),
    (
        "a diff of placeholders",
        "@@ -1,9 +1,9 @@\n" + _repeat("-password: ${OLD}\n+password: ${P}\n"),
    ),
]


@pytest.mark.parametrize(("name", "text"), NOTHING_TO_FIND, ids=[n for n, _ in NOTHING_TO_FIND])
def test_a_worst_case_with_nothing_to_find(name: str, text: str) -> None:
    assert scan_text(text) == []
    assert find_secrets({"excerpt": text}) == []


def test_unterminated_armour_lines_are_each_a_key_ending_before_the_next() -> None:
    """A BEGIN line with a body and no END: each is a key, and none reaches past the next
    BEGIN line (the END is looked for no further)."""
    unit = BEGIN + "\nMIIEowIBAAKCAQEA\n"
    text = _repeat(unit, 2_000 * len(unit))
    spans = scan_text(text)
    assert len(spans) == 2_000
    assert all(text[s:e].strip() == unit.strip() for s, e, _ in spans)


def test_a_key_after_a_megabyte_of_hostile_armour_is_still_found() -> None:
    key = pem("OPENSSH ")
    text = _repeat(BEGIN, 1_000_000) + "\n" + key
    spans = scan_text(text)
    assert [text[s:e] for s, e, _ in spans] == [key]


def test_a_real_value_among_refused_commands_is_found() -> None:
    """Commands setting credentials' variables to placeholders, a real value among the first
    hundred of them: found (past a hundred refused in one text, the rest is not read)."""
    real = "Zq9" + rnd(29)
    text = _repeat("setx API_KEY %API_KEY%\n", 50 * 23) + f"setx API_KEY {real}\n"
    text += _repeat('<property name="db.password" value="${db.password}"/>\n', 5_000)
    text += _repeat("api_key\t****\n", 5_000)
    spans = scan_text(text)
    assert [text[s:e] for s, e, _ in spans] == [real]


@pytest.mark.parametrize("escapes", [3, 5_000], ids=["around-it", "a-text-of-many"])
def test_a_credential_in_text_escaped_for_html_is_found_where_it_stands(escapes: int) -> None:
    """A password in JSON escaped for HTML, after a few escapes (the text around them read) or
    thousands (the whole text unescaped): its span is the password's, in the escaped text."""
    password = "Xk9#" + rnd(10)
    before = "&quot;id&quot;: &quot;s-1&quot;, " * (escapes // 4) + "&lt;br&gt; &amp; "
    text = before + f"&quot;password&quot;: &quot;{password}&quot;}} &#39;end&#39;"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]
    assert password not in scanner.redact(text) and "&quot;password&quot;: &quot;[" in (
        scanner.redact(text)
    )


@pytest.mark.parametrize("entries", [1, 2_000], ids=["around-it", "a-text-of-many"])
def test_a_credential_in_json_escaped_twice_is_found_where_it_stands(entries: int) -> None:
    """A password in code, in JSON a log line quotes (escaped twice), after a few escapes (the
    text around them read) or thousands (the whole text unescaped, twice): its span is the
    password's, in the text as the log wrote it."""
    password = "Xk9#" + rnd(10)
    body = {f"k{i}": "a\tb" for i in range(entries)} | {"script": f'db_password = "{password}"'}
    text = "request body: " + json.dumps(json.dumps(body))[1:-1]
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]
    assert password not in scanner.redact(text)


@pytest.mark.parametrize("lines", [3, 20_000], ids=["a-hunk", "a-diff-of-many"])
def test_a_credential_added_in_a_diff_is_found_where_it_stands(lines: int) -> None:
    """A key file added by a patch, each of its lines marked "+", after a few lines of the diff
    or thousands: the key is found, its span in the text as the diff wrote it (its marks
    included), and a base64 key's run starting on a mark is the key's, not the mark's."""
    key = pem("RSA ")
    added = "\n".join("+" + line for line in key.split("\n"))
    context = "".join(f" line {i}\n" for i in range(lines))
    text = f"diff --git a/k b/k\n@@ -1,{lines} +1,{lines + 30} @@\n{context}{added}\n"
    spans = scan_text(text)
    assert len(spans) == 1
    start, end, _ = spans[0]
    assert text[start:end].startswith("-----BEGIN") and text[start:end].rstrip().endswith("-----")
    assert key.split("\n")[3] not in scanner.redact(text)


@pytest.mark.parametrize("lines", [3, 20_000], ids=["a-few-lines", "a-log-of-many"])
def test_a_credential_in_a_tool_s_printed_json_is_found_where_it_stands(lines: int) -> None:
    """A token on its own line of a tool's output, the output recorded as JSON (its line breaks
    escaped, \\n, the "n" beside the token): found whole, without the escape's letter."""
    token = "AKIA" + rnd(16, string.ascii_uppercase + string.digits)
    log = "".join(f"step {i}\n" for i in range(lines)) + token + "\ndone"
    text = "The tool printed " + json.dumps({"stdout": log})
    assert [text[s:e] for s, e, _ in scan_text(text)] == [token]


@pytest.mark.parametrize("urls", [3, 5_000], ids=["its-run", "a-text-of-many"])
def test_a_token_percent_encoded_once_or_twice_is_found_where_it_stands(urls: int) -> None:
    """A token percent-encoded in a URL, after a few URLs with escapes (their runs read) or
    thousands (the whole text decoded), and encoded twice in a URL nested in another's query:
    its span is the encoded token's, in the text as written."""
    token = "ghp_" + rnd(36)
    encoded = "".join(f"%{b:02X}" for b in token.encode())
    before = "https://x.example.com/a?b=c%20d&e=f\n" * urls
    for written in (encoded, encoded.replace("%", "%25")):
        text = before + f"https://login.example.com/?next=https%3A%2F%2Fapp%3Ftoken%3D{written}\n"
        assert [text[s:e] for s, e, _ in scan_text(text)] == [written]
        assert written not in scanner.redact(text)


@pytest.mark.parametrize("kind", ["percent", "json", "html"])
def test_a_long_text_of_sparse_escapes_is_read_around_them(kind: str) -> None:
    """A long text holding more escapes than the windows' floor (64), but fewer than one in
    2 KB, is unescaped around each (its decoding a fraction of it, where all of it was
    decoded and scanned again): a credential behind one of them, past the others, is found
    where it stands."""
    from app.secrets import detectors

    password = "Xk9#" + rnd(10)
    token = "ghp_" + rnd(36)
    filler = "the ledger was reconciled against the bank statement for the month. " * 90
    if kind == "percent":
        escaped = "https://x.example.com/a?b=c%20d\n"
        hidden = "?next=https%3A%2F%2Fapp%3Ftoken%3D" + "".join(f"%{b:02X}" for b in token.encode())
        secret, decoding = hidden[hidden.index("%3D") + 3 :], detectors.percent_decoding
    elif kind == "json":
        escaped = 'path: "c:\\\\temp"\n'
        hidden = 'log: "db_password = \\"' + password + '\\""'
        secret, decoding = password, detectors.json_decoding
    else:
        escaped = "&lt;br\n"
        hidden = f"&quot;password&quot;: &quot;{password}&quot;"
        secret, decoding = password, detectors.html_decoding
    text = (filler + escaped) * 150 + hidden + " " + filler
    assert len(text) > 150 * 2048  # (more than 64 escapes, fewer than one in 2 KB)
    assert [text[s:e] for s, e, _ in scan_text(text)] == [secret]
    decoded = decoding(text)
    assert decoded is not None and sum(map(len, decoded[0])) < len(text) // 4


@pytest.mark.parametrize("escapes", [3, 66])
@pytest.mark.parametrize("distance", [500, 511, 512, 513, 700])
def test_a_window_cut_just_before_a_name_in_prose_leaves_it_prose(
    escapes: int, distance: int
) -> None:
    """An escape's window starts 512 characters before it; a name in running prose just after
    that cut had nothing before it in the window, and its value read as data's ("password:
    'correcthorsebattery' ok" in a 160 KB line, an escape 511 characters on: flagged, where
    the same text without the escapes is not). The window reads the line before the cut too,
    and what it finds there is left to the text's own scan."""
    prose = "lorem ipsum dolor sit amet " * 6000
    name_at = 80_001
    pieces = [prose[:name_at], "password: 'correcthorsebattery' ok", prose[name_at:]]
    text = "".join(pieces)
    escaped = name_at + distance
    places = [escaped] + [escaped + 2048 * (k + 1) for k in range(escapes - 1)]
    for at in reversed(places):
        text = text[:at] + "\\\\" + text[at:]
    assert scan_text(text.replace("\\\\", "")) == []
    assert scan_text(text) == []


def test_a_putty_key_after_many_headers_is_found_and_bounded() -> None:
    key = putty_key()
    text = _repeat("PuTTY-User-Key-File-2: ssh-rsa\n", 300_000) + key + "\nafter"
    (span,) = scan_text(text)
    assert text[span[0] : span[1]] == key


def test_many_hits_in_one_object_are_all_reported_in_order() -> None:
    tokens = [f"ghp_{rnd(36)}" for _ in range(10_000)]
    document = {"x": {f"k{i}": t for i, t in enumerate(tokens)}}
    hits = find_secrets(document)
    assert [h.path for h in hits] == [f"/x/k{i}" for i in range(len(tokens))]


def test_many_credential_shaped_member_names() -> None:
    document = {"x": {f"ghp_{rnd(36)}": 1 for _ in range(10_000)}}
    hits = find_secrets(document)
    assert len(hits) == 10_000 and all(h.in_key for h in hits)


def test_a_value_after_hostile_decoys_is_found() -> None:
    """Names with a value refused are read up to a thousand in one text (each a step of
    Python: 30,000 cost thirteen times a benign document's lint): a password after 900 of
    them is found, and after 30,000 in another string; a token of a known format after 30,000
    in its own string too (the rules read on)."""
    password = "Wint3r-" + rnd(8, string.ascii_letters + string.digits)
    text = "api_key=abcdefgh&" * 900 + f"&password={password}"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]
    decoys = _repeat("api_key=abcdefgh&", 500_000)
    hits = find_secrets({"a": decoys, "b": f"&password={password}"})
    assert [(h.path, h.text[h.start : h.end]) for h in hits] == [("/b", password)]
    token = "ghp_" + rnd(36)
    text = decoys + f"&token={token}"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [token]


def test_a_rules_decoys_hide_nothing_in_another_string_nor_under_a_thousand() -> None:
    """A rule's matches its check refuses ("Bearer a") are read up to a thousand in one string
    (past that, the rest of the string is not read for that rule): a bearer token after 900 of
    them in its string is found, and after 20,000 in another string too."""
    token = "Zq9" + rnd(37)
    text = "Bearer a " * 900 + f"Authorization: Bearer {token}"
    assert [text[s:e] for s, e, _ in scan_text(text)][-1:] == [f"Bearer {token}"]
    hits = find_secrets({"a": "Bearer a " * 20_000, "b": f"sent Bearer {token} to the API"})
    assert [h.path for h in hits] == ["/b"]


def test_prose_and_netrc_decoys_hide_nothing_under_a_thousand() -> None:
    """The forms read a step of Python each and bounded at a thousand refused in a text (the
    password told in prose, netrc's entries) find a credential after 900 decoys."""
    password = "Wint3r-" + rnd(8)
    text = "the password is a, " * 900 + f"and the new password is {password} now"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]
    text = "machine a login b password c\n" * 900 + f"machine db login app password {password}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]


def test_a_yaml_default_after_a_manifest_s_entries_is_found() -> None:
    """A CloudFormation parameter's Default after 90 env entries, 900 parameters of other
    names and 90 defaults of passwords refused is read (a hundred list entries, a thousand
    other parameters and a hundred refused bound it)."""
    password = "Wint3r-" + rnd(8)
    text = "env:\n" + "".join(f"- name: VAR_{i}\n  value: v{i}\n" for i in range(90))
    text += "".join(f"Region{i}:\n  Type: String\n  Default: eu-{i}\n" for i in range(900))
    text += "".join(f"P{i}Password:\n  Type: String\n  Default: ''\n" for i in range(90))
    text += f"DBPassword:\n  Type: String\n  Default: {password}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]


def test_json_s_named_values_hide_nothing_under_a_hundred() -> None:
    """A JSON text's pairs and wrapped values are read until a hundred are refused: a password
    after 90 placeholders is found, where the JSON text writes it."""
    password = "Wint3r-" + rnd(8)
    items: list[object] = [{"Name": f"/svc{i}/password", "Value": f"${{P{i}}}"} for i in range(90)]
    items.append({"db_password": {"value": password}})  # (read 91st, in the text's order)
    items += [{"Name": f"/svc{i}/password", "Value": f"${{P{i}}}"} for i in range(200)]
    text = "aws ssm get-parameters: " + json.dumps(items, indent=2)
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]


def test_json_s_pairs_named_for_no_credential_hide_nothing() -> None:
    """A JSON text of thousands of metrics ({"label": "cpu_3", "value": …}) refuses none of
    them: a password's pair after them is read."""
    password = "Wint3r-" + rnd(8)
    items: list[object] = [{"label": f"cpu_{i}", "value": f"0.{i}"} for i in range(3000)]
    items.append({"label": "password", "value": password})
    text = json.dumps(items)
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]


def _credentials_after(strings: list[str]) -> list[str]:
    """``strings``, then a token percent-encoded, escaped for HTML and given as a URI's user."""
    from urllib.parse import quote

    token = "ghp_" + rnd(36)
    return [
        *strings,
        "?next=" + quote(f"https://x.example/?t={token}", safe=""),
        f"{{&quot;token&quot;: &quot;{token}&quot;}}",
        f"https://{token}@git.example.com/acme/app.git",
    ]


def _b64_text(i: int) -> str:
    return base64.b64encode(f"log line {i} of the deploy".encode()).decode()


@pytest.mark.parametrize(
    "escape",
    ["page%20{i}", "a &amp; b {i}", "/a~1b/{i}", "u{i}@host", "c:\\\\dir{i}\\tx", "{b64}"],
)
def test_a_credential_after_thousands_of_strings_an_anchor_marks_each_is_found(
    escape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past 32 strings marked within 256, an anchor that starts with a literal and never matches
    a newline (or the base64 run's, with its two tests) has each string left searched alone,
    by `re` in loops of C (app/secrets `_candidates`, `_mark_each`): the strings after still
    reach their detectors. Three tokens after 6,000 strings the same anchor marks are found
    where they stand."""
    scan_text("x" * 30_000)  # (RE2 loaded: every text is then searched by it)
    alone: list[int] = []
    mark_each = scanner._mark_each

    def recording(*arguments: Any) -> None:
        alone.append(len(arguments[3]))
        mark_each(*arguments)

    monkeypatch.setattr(scanner, "_mark_each", recording)
    strings = _credentials_after([escape.format(i=i, b64=_b64_text(i)) for i in range(6000)])
    hits = find_secrets({"items": strings})
    assert [h.path for h in hits] == ["/items/6000", "/items/6001", "/items/6002"]
    assert alone  # (each string searched alone where they came thick)
    alone.clear()
    # one string in twenty marked: the anchor's search goes on through the text
    sparse = [
        escape.format(i=i, b64=_b64_text(i)) if i % 20 == 0 else f"note {i}" for i in range(6000)
    ]
    hits = find_secrets({"items": _credentials_after(sparse)})
    assert [h.path for h in hits] == ["/items/6000", "/items/6001", "/items/6002"]
    assert not alone


def test_a_credential_after_thousands_of_strings_an_anchor_marks_close_together_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past 256 strings marked close together, an anchor that starts with a literal (and may
    match a newline, as far as its text tells: a negated class) is searched by `re` rather
    than RE2: the strings after still reach their detectors."""
    from app.secrets.engine import Engine

    scan_text("x" * 30_000)  # (RE2 loaded: every text is then searched by it)
    engines: list[bool] = []
    searcher = Engine.searcher

    def recording(self: Engine, index: int, hay: object, re2: bool, narrow: object = None):  # type: ignore[no-untyped-def]
        if len(hay) > 256:  # type: ignore[arg-type]  # (a short text is `re`'s anyway)
            engines.append(re2)
        return searcher(self, index, hay, re2, narrow)  # type: ignore[arg-type]

    monkeypatch.setattr(Engine, "searcher", recording)
    strings = _credentials_after([f"https://u{i}@h{i}.example/" for i in range(6000)])
    hits = find_secrets({"items": strings})
    assert [h.path for h in hits] == ["/items/6000", "/items/6001", "/items/6002"]
    assert True in engines and False in engines  # (RE2 first, then `re` where they came thick)


def test_a_token_after_a_log_of_masked_ones_is_found() -> None:
    """A support log of a thousand masked tokens and variables, then one left unmasked:
    past a hundred refused values the name search passes over the masked ones itself, and
    the unmasked one is found."""
    token = "Zq9" + rnd(29)
    text = _repeat("GET /v1/ledger?token=***&page=2 password: ${DB_PASSWORD}\n", 120_000)
    text += f"GET /v1/ledger?token={token}&page=3\n"
    spans = scan_text(text)
    assert [text[s:e] for s, e, _ in spans] == [token]


def test_first_secret_stops_at_its_first_hit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A document with a credential near its start is refused without reading the rest: the
    anchors are looked for in the first batch of strings only."""
    looked_at: list[int] = []
    candidates = scanner._candidates

    def counting(
        strings: list[str], **options: int | None
    ) -> tuple[dict[int, int], dict[int, list[tuple[int, int, str]]]]:
        looked_at.append(sum(map(len, strings)))
        return candidates(strings, **options)

    monkeypatch.setattr(scanner, "_candidates", counting)
    filler = ["The ledger is reconciled. " * 40] * 2_000  # about 2 MB of ordinary text
    token = f"ghp_{rnd(36)}"
    document = {"statements": [{"text": token}, *({"text": t} for t in filler)]}
    hit = first_secret(document)
    assert hit is not None and hit.path == "/statements/0/text"
    assert len(looked_at) == 1 and looked_at[0] < 400_000
    looked_at.clear()
    assert [h.path for h in find_secrets(document)] == ["/statements/0/text"]
    assert sum(looked_at) > 2_000_000  # find_secrets reads everything


def test_first_secret_finds_a_credential_only_in_a_member_name() -> None:
    token = f"ghp_{rnd(36)}"
    hit = first_secret({"statements": [{"text": "nothing"}], "x": {token: 1}})
    assert hit is not None and hit.in_key and hit.path == "/x/" + token
    assert first_secret({"statements": [{"text": "nothing"}]}) is None
    assert first_secret("plain") is None and first_secret(3) is None


def test_member_names_holding_a_credentials_word_call_only_the_name_detectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A document of 5,000 member names such as Key_17 and api_key_3 (the engine puts a newline
    after each) sends them to the detectors of names only: an anchor that took a name and its
    newline for a CSV header made each a call of its detector (9x a benign document's lint)."""
    asked: set[int] = set()
    spans = scanner._spans

    def recording(text: str, bits: int, most: int | None = None) -> list[tuple[int, int, str]]:
        asked.add(bits)
        return spans(text, bits, most)

    monkeypatch.setattr(scanner, "_spans", recording)
    names = [f"{word}_{i}" for i in range(1_000) for word in ("Key", "api_key", "token", "pwd")]
    names += [f"svc{i}_password" for i in range(1_000)]  # (these the name detectors read)
    find_secrets({"extensions": {name: i for i, name in enumerate(names)}})
    names_only = (
        scanner._BIT[scanner._named_in_text]
        | scanner._BIT[scanner._name_then_value]
        | scanner._BIT[scanner._quoted_after_name]
    )
    assert asked and all(bits & ~names_only == 0 for bits in asked)


def test_prose_naming_credentials_runs_no_pattern_of_a_structure() -> None:
    """Prose that names a password, a token and a key sends none of its words to the patterns
    of SQL statements, setters and keys told in prose: their keywords take their punctuation
    too ("password '", "token(", "key is "), so such words alone cost no pass of an automaton
    over the text (four such passes cost 2.3 ms on 400 KB)."""
    from app.secrets.engine import Hay
    from app.secrets.rules import RULES

    line = "The password policy, the token budget and the key decisions hold.\nDB_PASSWORD=${DB}\n"
    engine = scanner._engine()
    present = set(engine.present(Hay("\n" + line * 2_000), re2=True))
    structures = {scanner._password_statement, scanner._setter_argument, scanner._key_in_prose}
    checked: set[object] = set()
    for index, anchor in enumerate(scanner._ANCHORS):
        if structures & set(anchor.detectors):
            assert len(RULES) + index not in present, anchor.regex
            checked |= structures & set(anchor.detectors)
    assert checked == structures
    assert find_secrets({"statements": [{"text": line * 200}]}) == []


def test_only_two_patterns_are_searched_in_every_text() -> None:
    """A pattern without a keyword is searched in every text the scan reads: a call more for
    each of the thousands of short texts a page shows (a keyword-less CSV anchor made each
    scan_text 1 µs dearer, a page of 5,000 texts 6 ms). Only Mailgun's key (no literal in it)
    and the base64 run (no literal in a run) are so."""
    ungated = [p.regex for p in scanner._engine().patterns if not p.keywords]
    assert ungated == ["[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}", "[A-Za-z0-9+/_\\-]{24,}"]


# (a detector's refused form, how many of them one text is read for, and the same form holding
# a credential: issue 29 bounds each form a step of Python reads at a thousand refused in one
# text, XML elements at a hundred)
BOUNDED_FORMS = [
    ("table rows", "| svc_password | ******** |\n", 1000, "| svc_password | {} |\n"),
    (
        "URI userinfo",
        "https://svc:${PASS}@db.example.com/x\n",
        1000,
        "https://svc:{}@db.example.com/x\n",
    ),
    ("CJK label", "密码：请联系管理员获取\n", 1000, "密码：{}\n"),
    ("XML element", "<password>${DB_PASS}</password>\n", 100, "<password>{}</password>\n"),
    (
        "lists of lines",
        '["see", "vault"]\n',
        100,
        '["machine db.example.com", "  login ops", "  password {}"]\n',
    ),
    (
        "command line",
        "  --password=PASSWORD  the password to sign in with\n",
        1000,
        "mysqldump -u root -p{} shop\n",
    ),
    (
        "SQL statement",
        "CREATE USER app IDENTIFIED BY :pw;\n",
        1000,
        "CREATE USER app IDENTIFIED BY '{}';\n",
    ),
    (
        "standard input",
        "echo $PW | docker login --password-stdin\n",
        1000,
        "echo '{}' | docker login -u ops --password-stdin\n",
    ),
    ("setter", 'ds.setPassword("x");\n', 1000, 'ds.setPassword("{}");\n'),
    (
        "form field",
        '<input type="password" value="x">\n',
        1000,
        '<input type="password" value="{}">\n',
    ),
    (
        "SQL insert",
        "INSERT INTO users (name, password) VALUES ('a', 'b');\n",
        1000,
        "INSERT INTO users (name, password) VALUES ('ops', '{}');\n",
    ),
]


@pytest.mark.parametrize(
    ("form", "decoy", "read", "real"),
    BOUNDED_FORMS,
    ids=lambda v: v if isinstance(v, str) and " " in v else None,
)
def test_a_bounded_forms_decoys_hide_nothing_under_their_bound_nor_in_another_string(
    form: str, decoy: str, read: int, real: str
) -> None:
    """A credential after nine tenths of its form's bound of refused decoys in its text is
    found (a URI's span is its userinfo); after 20,000 decoys in another string, too."""
    password = "Wint3r-" + rnd(8, string.ascii_letters + string.digits)
    text = decoy * (read * 9 // 10) + real.format(password)
    (span,) = scan_text(text)
    assert text[span[0] : span[1]].endswith(password), form
    (hit,) = find_secrets({"a": decoy * 20_000, "b": real.format(password)})
    assert hit.path == "/b" and hit.text is not None, form
    assert hit.text[hit.start : hit.end].endswith(password), form


def test_a_base64_wrapped_credential_after_900_runs_of_text_is_found() -> None:
    """Runs of base64 that decode to text are decoded up to a thousand in one text (each a step
    of Python): a credential wrapped in the run after 900 of them is found (the span is its
    run), and after 20,000 in another string too."""
    password = "Wint3r-" + rnd(8, string.ascii_letters + string.digits)

    def wrapped(value: str) -> str:
        return base64.b64encode(json.dumps({"password": value}).encode()).decode() + "\n"

    real = wrapped(password).strip()
    text = wrapped("${PASS}") * 900 + real
    (span,) = scan_text(text)
    assert text[span[0] : span[1]] == real
    (hit,) = find_secrets({"a": wrapped("${PASS}") * 20_000, "b": real})
    assert hit.path == "/b"


# A long text is read by some detectors only where RE2 finds their form (`user_and_password`)
# or where `re` skips to a literal (`special_userinfo`'s scheme in the text in lower case):
# what they find in a short text they find at the same place in a long one, whatever its case.
LONG_PAD = "see the runbook / and the wiki, " * 400


@pytest.mark.parametrize(
    ("written", "found"),
    [
        ("login: admin / {}", "{}"),
        ("use admin / {} to sign in", "{}"),
        ("creds svc-deploy:{}", "{}"),
        ("HTTPS:admin:{}@db.example.com", "admin:{}"),
        ("Ftp:\\\\u:{}@files.example.com", "u:{}"),
    ],
)
def test_a_pair_or_a_special_userinfo_in_a_long_text_is_found_as_in_a_short_one(
    written: str, found: str
) -> None:
    password = "Qw7" + rnd(9, string.ascii_letters + string.digits) + "!"
    for text in (written.format(password), LONG_PAD + written.format(password) + " ok " + LONG_PAD):
        assert len(text) < 100 or len(text) > 20_000
        (span,) = scan_text(text)
        assert text[span[0] : span[1]] == found.format(password)


def test_a_scheme_inside_a_word_starts_no_authority() -> None:
    assert scan_text("xhttps:admin:Qw7seSV7qLcQ@db.example.com") == []
    assert scan_text(LONG_PAD + "xhttps:admin:Qw7seSV7qLcQ@db.example.com" + LONG_PAD) == []
