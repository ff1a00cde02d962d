"""Generators of the worst cases of issue 11, each beside a benign checkpoint of the same size.

Every case is a function from a count ``n`` (of its repeated unit) to the document's bytes;
`grow` finds the ``n`` that brings a case to a target size (within ±5%). Each document is valid
JSON and, where the attack allows, a checkpoint that passes the schema, so every later stage
(rules, secret scan, redaction, the page) runs on it. Every credential here is fake: fixed
prefixes followed by filler that no service issued.

The benign document is what a real checkpoint grown large looks like: statements of every kind,
resources with digests and excerpts, operations with calls, progress steps, all references
resolving, ordinary prose.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Doc = dict[str, Any]
Builder = Callable[[int], bytes]

# A functools cache this large memoizes a document's own names and values (a name's class, a
# value's judgement, a string's schema check); smaller ones hold what every document shares (a
# route's headers, a pattern compiled on first use).
_MEMO_ENTRIES = 1024


def forget_documents() -> None:
    """Empty the app's memos of documents' names and values (`_MEMO_ENTRIES`), keeping what a
    process keeps for every document: a run then costs what a document the process has not
    seen costs, `ocp lint` run once or a server's next request. A document timed again and
    again in one process finds its values judged already: 4,000 distinct values, each judged
    once, cost a third less the second time, and a figure so taken hid that."""
    import sys

    for name, module in list(sys.modules.items()):
        if name != "app" and not name.startswith("app."):
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if callable(info) and (info().maxsize or 0) >= _MEMO_ENTRIES:
                value.cache_clear()


# The deepest nesting the intake accepts by default (OCP_MAX_DEPTH); the top object is level 1.
MAX_DEPTH = 64
PEM_HEADER = "-----BEGIN RSA PRIVATE KEY-----"
PUTTY_HEADER = "PuTTY-User-Key-File-2: "
PASSWORD_RUN = "password: a "
# The anchors the secret scan looks for, each with no valid tail after it.
TOKEN_PREFIXES = (
    "ghp_",
    "gho_",
    "github_pat_",
    "glpat-",
    "AKIA",
    "ASIA",
    "eyJ",
    "xoxb-",
    "xoxp-",
    "sk-",
    "sk_live_",
    "whsec_",
    "AIza",
    "ya29.",
    "npm_",
    "pypi-",
    "hf_",
    "SG.",
    "shpat_",
    "dop_v1_",
    "hvs.",
    "AGE-SECRET-KEY-",
    "PMAK-",
    "lin_api_",
    "dapi",
    "Bearer ",
    "Basic ",
    "https://a:",
    "https://hooks.slack.com/",
    "?sig=",
    "&X-Amz-Signature=",
)
BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
LONG_RUN = 20_000
# Astral characters, combining marks, right-to-left scripts and a right-to-left override.
UNICODE_TEXT = (
    "𝕮𝖍𝖊𝖈𝖐 😀🧾🏦 a\u0301e\u0301o\u0308\u0323\u0323 שלום עולם مرحبا بالعالم "
    "\u202eevil\u202c 𐍈𐌰𐌹 漢字かなカナ 👩‍👩‍👧‍👦 Z\u0351\u0362a\u0337\u0316l\u0334g\u0335o "
)


_FILLER = "".join(random.Random(11).choices(BASE64_ALPHABET, k=1 << 16))


def _pseudo_base64(seed: int, length: int) -> str:
    """Deterministic base64-alphabet filler: looks random, is not a key."""
    start = (seed * 7919) % len(_FILLER)
    text = _FILLER[start:] + _FILLER[:start]
    while len(text) < length:
        text += text
    return text[:length]


def _unbroken(seed: int, length: int) -> str:
    """One word of ``length`` letters and digits: no space anywhere to break a line at."""
    unit = f"Unbroken{seed:05d}runOfLettersAndDigitsWithoutAnySpace"
    return (unit * (length // len(unit) + 1))[:length]


def skeleton(producer: str, *, doc_id: int = 1) -> Doc:
    """The required members of a checkpoint, and one statement so the document has content."""
    return {
        "opencheckpoint": "0.1",
        "id": f"urn:uuid:019a8000-0000-7000-8000-{doc_id:012x}",
        "created_at": "2026-11-20T08:00:00Z",
        "source": {"producer": producer, "agent": "bench-agent", "model": "bench-model"},
        "task": {
            "objective": "Reconcile the quarterly ledger against the bank statements.",
            "status": "active",
        },
        "statements": [
            {
                "id": "s-goal",
                "kind": "instruction",
                "text": "Reconcile every account before the period closes.",
                "origin": {"type": "user", "name": "Controller"},
            }
        ],
    }


def dump(doc: Doc, *, indent: int | None = 2) -> bytes:
    """As a producer writes it: UTF-8, characters as themselves (not \\u escapes)."""
    if indent is None:
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    return json.dumps(doc, ensure_ascii=False, indent=indent).encode()


# --- the benign document ------------------------------------------------------------------------

_KINDS = ("instruction", "constraint", "decision", "observation", "hypothesis", "question")
_ORIGINS = {"instruction": "user", "constraint": "system"}


def benign_doc(n: int, *, doc_id: int = 1, wording: str = "") -> Doc:
    """``n`` units of a realistic checkpoint: a resource, a statement, an operation, a completed
    step and a next step each, every reference resolving. ``wording`` changes every
    statement's text (the lineage case's child)."""
    doc = skeleton("bench/worst.py", doc_id=doc_id)
    doc["task"]["success_criteria"] = [
        {"id": "crit-0", "description": "Every account reconciled.", "status": "unmet"}
    ]
    statements, resources, operations = doc["statements"], [], []
    completed, upcoming = [], []
    for i in range(n):
        account = 4000 + i
        rid, sid, oid = f"r-{i}", f"s-{i}", f"op-{i}"
        resources.append(
            {
                "id": rid,
                "kind": "record",
                "title": f"Ledger account {account} statement for October 2026",
                "uri": f"https://erp.example.com/ledger/accounts/{account}?period=2026-10",
                "revision": f"rev-{i:06d}",
                "digest": "sha-256:" + f"{i:064x}",
                "observed_at": "2026-11-20T07:00:00Z",
                "availability": "available",
                "excerpt": "Opening balance 1,204.35 EUR; 14 postings; closing 1,310.00 EUR.",
            }
        )
        kind = _KINDS[i % len(_KINDS)]
        statement: Doc = {
            "id": sid,
            "kind": kind,
            "text": f"Account {account}: the October postings match the bank statement except "
            f"for a 12.40 EUR fee booked on the 31st, which belongs to November.{wording}",
            "origin": {"type": _ORIGINS.get(kind, "agent"), "name": "reconciler"},
            "evidence": [rid],
            "recorded_at": "2026-11-20T07:30:00Z",
        }
        if kind == "decision":
            statement["rationale"] = "The bank books fees on the value date, not the posting date."
        if kind == "observation":
            statement["verification"] = {
                "state": "verified",
                "checked_at": "2026-11-20T07:31:00Z",
                "revalidate": "before_use",
            }
        statements.append(statement)
        operations.append(
            {
                "id": oid,
                "kind": "action",
                "status": "planned",
                "description": f"Post the correcting journal entry for account {account}.",
                "target": rid,
                "effect": "non_idempotent",
                "resume": "verify_first",
                "idempotency_key": f"je-{i:06d}",
                "call": {
                    "tool": "erp.post_journal_entry",
                    "arguments": {"account": account, "amount": "12.40", "currency": "EUR"},
                },
            }
        )
        completed.append(
            {
                "id": f"step-{i}",
                "description": f"Matched postings of account {account}.",
                "completed_at": "2026-11-20T07:45:00Z",
                "evidence": [rid],
            }
        )
        upcoming.append(
            {"id": f"next-{i}", "description": f"Confirm entry for {account}.", "blocked_by": [oid]}
        )
    doc["progress"] = {"completed": completed, "next": upcoming}
    doc["resources"] = resources
    doc["operations"] = operations
    return doc


def benign(n: int) -> bytes:
    return dump(benign_doc(n))


# --- secrets ------------------------------------------------------------------------------------


def _with_text(texts: list[str]) -> Doc:
    """A checkpoint whose statements hold ``texts`` (observations an agent recorded)."""
    doc = skeleton("bench/worst.py: secrets")
    doc["statements"].extend(
        {
            "id": f"s-{i}",
            "kind": "hypothesis",
            "text": text,
            "origin": {"type": "agent", "name": "scanner"},
        }
        for i, text in enumerate(texts)
    )
    return doc


def pem_one_long(n: int) -> bytes:
    """One unterminated PEM header, then ``n`` lines of base64 in the same string."""
    body = "\n".join(_pseudo_base64(i, 64) for i in range(n))
    return dump(_with_text([f"{PEM_HEADER}\n{body}"]))


def pem_repeated(n: int) -> bytes:
    """``n`` unterminated PEM headers in one string, each followed by a line of base64."""
    text = "".join(f"{PEM_HEADER}\n{_pseudo_base64(i, 64)}\n" for i in range(n))
    return dump(_with_text([text]))


def pem_many_strings(n: int) -> bytes:
    """``n`` strings, each an unterminated PEM header and four lines of base64."""
    texts = [
        PEM_HEADER + "\n" + "\n".join(_pseudo_base64(i * 4 + j, 64) for j in range(4))
        for i in range(n)
    ]
    return dump(_with_text(texts))


def putty_headers(n: int) -> bytes:
    """``n`` PuTTY key-file headers in one string, none with its Private-MAC line."""
    unit = f"{PUTTY_HEADER}ssh-rsa\nEncryption: none\nComment: imported-key\n"
    return dump(_with_text([unit * n]))


def password_runs(n: int) -> bytes:
    """``password: a `` repeated ``n`` times in one string."""
    return dump(_with_text([PASSWORD_RUN * n]))


def token_prefixes(n: int) -> bytes:
    """Every token prefix the scanner anchors on, ``n`` times over in one string, none followed
    by a valid tail."""
    unit = " ".join(TOKEN_PREFIXES) + " "
    return dump(_with_text([unit * n]))


ESCAPE_RUN = "%41 x%2F &quot;a&quot; a\\tb c\\\\d "


def escape_runs(n: int) -> bytes:
    """``n`` runs of escapes in one string, each decoder's: percent (%41), HTML (&quot;) and
    JSON's (a tab and a backslash escaped), every one a short run of its own: a decoder that
    takes a step of Python for each run or each escape pays it tens of thousands of times."""
    return dump(_with_text([ESCAPE_RUN * n]))


def escape_strings(n: int) -> bytes:
    """A call's arguments as a list of ``n`` short strings, each holding one decoder's escape
    (percent, HTML, JSON's, a pointer's, a base64 run of text), every one distinct: each is
    decoded and scanned again, a string at a time unless what they decode to is scanned at
    once."""
    forms = (
        "page%20{i}?q=a%2Fb",
        "a &amp; b &quot;{i}&quot;",
        "c:\\\\dir{i}\\tx",
        "/a~1b/{i}~0c",
        "{b64}",
    )
    items = [forms[i % 5].format(i=i, b64=_b64_text(i)) for i in range(n)]
    return dump(_with_arguments({"items": items}))


def _b64_text(i: int) -> str:
    import base64

    return base64.b64encode(f"log line {i} of the deploy".encode()).decode()


def base64_run(n: int) -> bytes:
    """One string of ``n`` × 1,000 base64-alphabet characters, no space."""
    return dump(_with_text(["".join(_pseudo_base64(i, 1000) for i in range(n))]))


def case_runs(n: int) -> bytes:
    """Runs built against the base64 anchor's two searches (app/secrets `_MIXED_RUN_RE2`), in
    one string: runs of both cases too short to keep (as camelCase names are, which RE2's
    narrow form stops at: 10 characters, 8 after the change of case), just more of them than
    the narrow form refuses before the plain run takes over (the most it pays), then
    single-case runs of 24 (digests, which the plain run stops at) to the string's end."""
    from app.secrets import _NARROW_REFUSAL_SPACING

    digests = n * 152
    # (each word is 11 characters with its space, each digest 25: words × spacing > length)
    words = 25 * digests // (_NARROW_REFUSAL_SPACING - 11) + 1
    names = " ".join(f"aB{j % 10**8:08d}" for j in range(words))
    return dump(_with_text([names + " " + " ".join(f"{j:024x}" for j in range(digests))]))


def _fake_aws_key_id(i: int) -> str:
    return f"AKIA{i:08d}EXAMPLE"[:20].ljust(20, "X")


def _fake_github_token(i: int) -> str:
    return "ghp_" + _pseudo_base64(i, 36).replace("+", "a").replace("/", "b")


def _with_arguments(arguments: Doc) -> Doc:
    doc = skeleton("bench/worst.py: credential-shaped member names")
    doc["operations"] = [
        {
            "id": "op-configure",
            "kind": "action",
            "status": "planned",
            "description": "Configure the deployment.",
            "effect": "idempotent",
            "call": {"tool": "deploy.configure", "arguments": arguments},
        }
    ]
    return doc


def aws_key_names(n: int) -> bytes:
    """One object with ``n`` members named like AWS access key ids, with fake token values."""
    return dump(_with_arguments({_fake_aws_key_id(i): _fake_github_token(i) for i in range(n)}))


def api_key_names(n: int) -> bytes:
    """One object with ``n`` members named ``api_key_N``, with fake token values."""
    return dump(_with_arguments({f"api_key_{i}": _fake_github_token(i) for i in range(n)}))


def service_members(n: int) -> bytes:
    """``n`` objects whose members a service names alone, each value of the shape of that
    service's key and refused (too plain: one digit repeated, hex with a letter past f): the
    document's text is read for the services' rules, a check of Python for each (a thousand
    refused, the rest of the text is not read for the rule)."""
    items = [
        {
            "datadog": f"{i:031x}g",
            "heroku": f"{i:08x}-0000-0000-0000-000000000000",
            "okta": "00" + str(i % 10) * 40,
            "twilio": f"{i:032d}",
        }
        for i in range(n)
    ]
    return dump(_with_arguments({"items": items}))


def rule_near_misses(full: bool) -> list[str]:
    """For every rule of app/secrets/rules.py, texts that almost match it: each keyword with a
    run one character too short (``full`` False), or with a masked run of the full length (True:
    the regex matches and the check refuses the placeholder, a step of Python each); a
    service's name with an operator and a masked value (or too short a one). None is a
    credential: tests/test_worst_cases.py holds the scan to finding none."""
    from app.secrets.engine import BESIDE_RUNS
    from app.secrets.rules import RULES

    texts: list[str] = []
    for rule in RULES:
        for word in rule.keywords:
            if rule.scope == BESIDE_RUNS:
                texts.append(f"{word}_api_key = {'0' * 40 if full else 'ab12'}")
            elif rule.min_run:
                length = max(rule.min_run - len(word), 1)
                texts.append(word + ("0" * length if full else "a1b2c3d4e5"[: length - 1]))
            else:
                texts.append(f"{word} ")
    return texts


def near_miss_text(n: int) -> bytes:
    """``n`` near misses of the rules in one string, every rule's in turn, one short and masked."""
    misses = rule_near_misses(False) + rule_near_misses(True)
    return dump(_with_text([" ".join(misses[i % len(misses)] for i in range(n))]))


def near_miss_members(n: int) -> bytes:
    """One object of ``n`` members, each name a near miss of a rule (each distinct), each value
    the near misses of three others: member names and values that almost match every rule."""
    misses = rule_near_misses(False) + rule_near_misses(True)
    arguments = {
        f"{misses[i % len(misses)]} {i}": " ".join(
            misses[(i * 7 + k) % len(misses)] for k in range(3)
        )
        for i in range(n)
    }
    return dump(_with_arguments(arguments))


# Flags and names of credentials as an array's items, and what follows them that is none: a
# word, a reference to where it is kept, another flag, a variable.
CREDENTIAL_FLAGS = ("password", "api-key", "token", "client-secret", "auth-token")
CREDENTIAL_ITEM_NAMES = ("password", "DB_PASSWORD", "api_key", "access_token", "secret")
NOT_CREDENTIALS = (
    "${{SVC{i}_PASSWORD}}",
    "$SVC{i}_API_KEY",
    "env:SVC{i}_TOKEN",
    "--svc{i}-verbose",
    "file:/etc/svc{i}/token",
    "<svc{i}-password>",
)


def credential_flags(n: int) -> bytes:
    """A call's arguments as lists: ``n`` flags naming credentials in one list, each followed by
    an item that is no credential, and ``n`` pairs of two, a credential's name and such an
    item: every flag and name is looked at for a value after it. Every string distinct (a
    string repeated may be read once)."""
    flags = [f"--svc{i}-{CREDENTIAL_FLAGS[i % 5]}" for i in range(n)]
    words = [NOT_CREDENTIALS[i % 6].format(i=i) for i in range(n)]
    argv = [item for pair in zip(flags, words, strict=True) for item in pair]
    pairs = [
        [f"svc{i}_{CREDENTIAL_ITEM_NAMES[i % 5]}", NOT_CREDENTIALS[(i + 1) % 6].format(i=i)]
        for i in range(n)
    ]
    return dump(_with_arguments({"argv": argv, "pairs": pairs}))


ASSIGNMENT_RUN = (
    "api_key: abcd token=wxyz& $env:DB_PASSWORD = ${X} --db-password=$P "
    'os.environ["API_KEY"] = key; '
)


def assignment_runs(n: int) -> bytes:
    """``n`` runs of assignments to credentials' names in one string, a dozen characters
    apart, each value refused (too short, a placeholder, a variable, code): every one read."""
    return dump(_with_text([ASSIGNMENT_RUN * n]))


def env_entries(n: int) -> bytes:
    """``n`` two-line environment entries in one string, as Kubernetes lists them in YAML, each
    named for a credential and holding a placeholder: each is read, and refused."""
    unit = "- name: DB_PASSWORD\n  value: ${DB_PASSWORD}\n- name: API_TOKEN\n  value: changeme\n"
    return dump(_with_text([unit * n]))


# Forms a detector reads a step of Python each, every one refused: a log's or a page's lines
# naming credentials with nothing secret after them (issue 29: each detector reads a thousand
# refused in one text, and the rest of it no more).
def _lines(n: int, line: Callable[[int], str], separator: str = "\n") -> bytes:
    """``n`` distinct lines of ``line`` in one string (``separator``: or pieces a space apart,
    one line of prose)."""
    return dump(_with_text([separator.join(line(i) for i in range(n))]))


def help_metavariables(n: int) -> bytes:
    """``n`` lines of a command's help naming what a flag takes in capitals, each named again
    after it (each distinct: a count of each in the whole text read it once for each)."""
    return _lines(n, lambda i: f"  --password=PASS{_letters(i)} use PASS{_letters(i)} to sign in")


def _letters(i: int) -> str:
    """``i`` written in capital letters (a metavariable's word holds no digit)."""
    out = ""
    while True:
        i, digit = divmod(i, 26)
        out += chr(65 + digit)
        if not i:
            return out


def table_rows(n: int) -> bytes:
    """A Markdown table of ``n`` rows naming credentials (or a row's name holding one's words),
    each value masked or a placeholder."""
    return _lines(n, lambda i: f"| svc{i}_password | ******** |\n| db_password_{i} | <in vault> |")


def csv_rows(n: int) -> bytes:
    """A CSV export of ``n`` rows that name no credential, in one text (each row once looked at
    as a header, its names classified: 180 ms for 560 KB)."""
    return _lines(n, lambda i: f"acct{i},ledger{i},closed,region_{i % 28}")


def pipeless_rows(n: int) -> bytes:
    """`table_rows` as GitHub's Markdown writes a table without its outer pipes."""
    rows = "\n".join(f"svc{i}_password | ********\ndb_password_{i} | <in vault>" for i in range(n))
    return dump(_with_text([f"name | value\n--- | ---\n{rows}"]))


def joined_tables(n: int) -> bytes:
    """A Markdown table of ``n`` rows naming credentials, masked, on one line (its line breaks
    collapsed into spaces: each row read as a line again, up to a thousand a text)."""
    rows = " ".join(f"| svc{i}_password | ******** |" for i in range(n))
    return dump(_with_text([f"| name | value | |---|---| {rows}"]))


def joined_table_strings(n: int) -> bytes:
    """``n`` statements, each a table of two rows on one line, one naming a credential."""
    return dump(
        _with_text(
            [
                f"| name | value | |---|---| | svc{i}_password | ******** | | db_user | ledger{i} |"
                for i in range(n)
            ]
        )
    )


def indented_listings(n: int) -> bytes:
    """``n`` listings and CSVs set in by spaces, naming credentials, masked or a reference."""
    return _lines(
        n, lambda i: f"    svc{i}_password    ********\n    name,db_password\n    app{i},<in vault>"
    )


def userinfo_placeholders(n: int) -> bytes:
    """``n`` URIs whose userinfo's password is a variable."""
    return _lines(n, lambda i: f"https://svc{i}:${{PASS_{i}}}@db{i}.example.com/x")


LABEL_PROSE = "密码：请联系管理员{i}获取，パスワードは変更されませんでした。contraseña: requerida"


def label_prose(n: int) -> bytes:
    """``n`` lines of passwords' labels past ASCII with prose or a form's word after them."""
    return _lines(n, lambda i: LABEL_PROSE.format(i=i))


def label_prose_strings(n: int) -> bytes:
    """The lines of `label_prose`, each a statement of its own: no text holds a thousand."""
    return dump(_with_text([LABEL_PROSE.format(i=i) for i in range(n)]))


def xml_elements(n: int) -> bytes:
    """``n`` XML elements named for a credential, each holding a variable."""
    return _lines(n, lambda i: f"<password>${{DB_PASS_{i}}}</password>")


def string_lists(n: int) -> bytes:
    """``n`` lists of two strings naming a password in one text, each read as lines."""
    return _lines(n, lambda i: f'["password:", "see vault {i}"]', " ")


# A line of each form a decoder reads, an escape of each kind in them: each decoder reads the
# text whole, and what an escape's decoder decoded is read for its lines again
EVERY_FORM = (
    "# %41 &amp; \\n ~1 \x1b[0m x\n> %42 &lt; \\t ~0 y\n\t%43 &gt; \\r z\n     1\tw %44\n"
    '     2\tv &quot;\na.py:3:u\na<br>b<div>c</div>\n["p", "q"]\n'
    "2026-12-07T09:14:00.000000001Z s\n2026-12-07T09:14:00.000000002Z t\n@@ -1 +1 @@\n+r\n"
)


def every_form(n: int) -> bytes:
    """``n`` runs of `EVERY_FORM` in one string."""
    return dump(_with_text([EVERY_FORM * n]))


def name_decoys(n: int) -> bytes:
    """A query string of ``n`` API keys too short to be one (issue 11's decoys)."""
    return dump(_with_text(["&".join(f"api_key=abcdefgh&n={i}" for i in range(n))]))


def base64_json(n: int) -> bytes:
    """``n`` base64 blobs each wrapping JSON that names a password and holds a variable: each
    is decoded, and its text read."""
    import base64

    return _lines(
        n, lambda i: base64.b64encode(f'{{"password": "${{PASS_{i}}}"}}'.encode()).decode()
    )


def token_names(n: int) -> bytes:
    """A benign document whose extensions object has up to 900 members named like GitHub tokens
    (each flagged, under the 1,000 places a scan lists), the rest of its size ordinary: the
    page withholds each name wherever it appears."""
    doc = benign_doc(n)
    doc["extensions"] = {
        "dev.example.agent/trace": {_fake_github_token(i): "ok" for i in range(min(n, 900))}
    }
    return dump(doc)


# --- positions and findings ---------------------------------------------------------------------


def _unresolved(n: int) -> Doc:
    """``n`` references to ids that no object holds, in evidence lists of 1,000."""
    doc = skeleton("bench/worst.py: unresolved references")
    doc["statements"].extend(
        {
            "id": f"s-{block}",
            "kind": "question",
            "text": "Which postings are missing?",
            "origin": {"type": "user"},
            "evidence": [f"m{i}" for i in range(block * 1000, min(n, (block + 1) * 1000))],
        }
        for block in range((n + 999) // 1000)
    )
    return doc


def unresolved_one_line(n: int) -> bytes:
    """``n`` unresolved references (OCP-S002), the whole document on one line."""
    return dump(_unresolved(n), indent=None)


def unresolved_many_newlines(n: int) -> bytes:
    """``n`` unresolved references, each after 40 blank lines: line numbers in the millions."""
    compact = dump(_unresolved(n), indent=None)
    return compact.replace(b',"m', b"," + b"\n" * 40 + b'"m')


def _actions(n: int) -> list[Doc]:
    return [
        {"id": f"op-{i}", "kind": "action", "status": "planned", "description": "Post entry."}
        for i in range(n)
    ]


def unnamed_stops(n: int) -> bytes:
    """``n`` planned actions and ``n`` stop conditions that name no operation: each may forbid
    every action (§6.8), and spelt out on each action's card they cost ``n`` × ``n``."""
    doc = skeleton("bench/worst.py: stop conditions naming no operation")
    doc["operations"] = _actions(n)
    doc["continuation"] = {
        "stop_conditions": [
            {"id": f"stop-{i}", "description": "Hold while the audit runs."} for i in range(n)
        ]
    }
    return dump(doc)


def long_until(n: int) -> bytes:
    """``n`` planned actions and one stop condition forbidding them all until every one of
    them is completed: what lifts it, spelt out on each action, costs ``n`` × ``n``."""
    doc = skeleton("bench/worst.py: one stop condition with a long until")
    doc["operations"] = _actions(n)
    ids = [f"op-{i}" for i in range(n)]
    doc["continuation"] = {
        "stop_conditions": [
            {
                "id": "stop-all",
                "description": "Hold every entry until all are posted.",
                "applies_to": ids,
                "until": [{"operation": i, "status": "completed"} for i in ids],
            }
        ]
    }
    return dump(doc)


def wide_extensions(n: int) -> bytes:
    """One extensions object of ``n`` members whose names are not namespaced: jsonschema-rs
    quotes the whole object in the error of each name."""
    doc = skeleton("bench/worst.py: one wide extensions object")
    doc["extensions"] = {f"Key_{i}": i for i in range(n)}
    return dump(doc)


def many_codes(n: int) -> bytes:
    """``n`` units, each breaking several rules: a duplicate id (OCP-S001), an unresolved
    reference (S002), evidence naming an operation (S003), a step completed after the
    checkpoint was created (S005), a password in a resource URI (S008 and a `secret`), an agent
    observation without evidence (W002)."""
    doc = benign_doc(0)
    doc["resources"], doc["operations"] = [], []
    doc["progress"] = {"completed": []}
    for i in range(n):
        doc["resources"].append(
            {"id": f"r-{i}", "kind": "file", "uri": f"https://user:pw-{i}@files.example.com/{i}"}
        )
        doc["resources"].append({"id": f"r-{i}", "kind": "file", "uri": f"file:///tmp/{i}"})
        doc["operations"].append(
            {
                "id": f"op-{i}",
                "kind": "action",
                "status": "planned",
                "description": "Read it.",
                "effect": "none",
            }
        )
        doc["statements"].append(
            {
                "id": f"s-{i}",
                "kind": "observation",
                "text": f"Account {4000 + i} looks reconciled.",
                "origin": {"type": "agent"},
            }
        )
        doc["statements"].append(
            {
                "id": f"s-ev-{i}",
                "kind": "hypothesis",
                "text": "The fee belongs to November.",
                "origin": {"type": "agent"},
                "evidence": [f"op-{i}", f"missing-{i}"],
            }
        )
        doc["progress"]["completed"].append(
            {
                "id": f"step-{i}",
                "description": "Matched the postings.",
                "completed_at": "2026-11-21T09:00:00Z",
            }
        )
    return dump(doc)


def schema_errors(n: int) -> bytes:
    """``n`` statements each failing the schema twice (an unknown kind, no origin)."""
    doc = skeleton("bench/worst.py: schema errors")
    doc["statements"].extend(
        {"id": f"s-{i}", "kind": "rumour", "text": "Heard in the hallway."} for i in range(n)
    )
    return dump(doc)


# --- shapes -------------------------------------------------------------------------------------


def deep_nesting(n: int) -> bytes:
    """``n`` call arguments nested to the depth limit: root 1, operations 2, the operation 3,
    call 4, arguments 5, then alternating objects and arrays down to level 64."""
    chain: Any = "bottom"
    for level in range(MAX_DEPTH, 5, -1):
        chain = {"k": chain} if level % 2 else [chain]
    doc = skeleton("bench/worst.py: deep nesting")
    doc["operations"] = [
        {
            "id": f"op-{i}",
            "kind": "action",
            "status": "planned",
            "description": "Read the nested configuration.",
            "effect": "none",
            "call": {"tool": "config.read", "arguments": {"tree": chain}},
        }
        for i in range(n)
    ]
    return dump(doc, indent=None)


def long_strings(n: int) -> bytes:
    """``n`` × 1,000 characters of text in 20,000-character unbroken runs, one run per free-text
    field (the objective, resource titles and URIs, statement texts, origin names); the last
    run is shorter."""
    runs = [LONG_RUN] * (n * 1000 // LONG_RUN) + ([n * 1000 % LONG_RUN] if n % 20 else [])
    texts = iter(_unbroken(i, length) for i, length in enumerate(runs))
    doc = skeleton("bench/worst.py: long strings")
    doc["task"]["objective"] = next(texts, "Read the long fields.")
    doc["resources"] = []
    for i, text in enumerate(texts):
        if i % 4 == 0:
            doc["resources"].append(
                {"id": f"r-{i}", "kind": "file", "title": text, "uri": "https://example.com/"}
            )
        elif i % 4 == 1:
            doc["resources"].append(
                {"id": f"r-{i}", "kind": "file", "uri": "https://files.example.com/" + text}
            )
        else:
            name = text if i % 4 == 3 else "reader"
            doc["statements"].append(
                {
                    "id": f"s-{i}",
                    "kind": "question",
                    "text": text if i % 4 == 2 else "Which file holds the answer?",
                    "origin": {"type": "user", "name": name},
                }
            )
    if not doc["resources"]:
        del doc["resources"]
    return dump(doc)


def tiny_statements(n: int) -> bytes:
    """``n`` statements as small as the schema allows."""
    doc = skeleton("bench/worst.py: tiny statements")
    doc["statements"].extend(
        {"id": f"s{i}", "kind": "question", "text": "?", "origin": {"type": "user"}}
        for i in range(n)
    )
    return dump(doc, indent=None)


def unicode_heavy(n: int) -> bytes:
    """The benign document with astral characters, combining marks and right-to-left text
    (with an override) in every statement, resource title and step."""
    doc = benign_doc(n)
    for statement in doc["statements"]:
        statement["text"] = UNICODE_TEXT * 3 + statement["text"]
    for resource in doc["resources"]:
        resource["title"] = UNICODE_TEXT + resource["title"]
    for step in doc["progress"]["completed"]:
        step["description"] = UNICODE_TEXT + step["description"]
    return dump(doc)


# --- lineage ------------------------------------------------------------------------------------


def lineage_parent(n: int) -> bytes:
    return dump(benign_doc(n, doc_id=2))


def _child_of(parent: bytes, doc: Doc) -> bytes:
    parent_id = json.loads(parent)["id"]
    doc["parent"] = {"id": parent_id, "digest": "sha-256:" + hashlib.sha256(parent).hexdigest()}
    doc["created_at"] = "2026-11-20T09:00:00Z"
    return dump(doc)


def lineage_all_changed(n: int) -> bytes:
    """The child of `lineage_parent` (n): every statement's text changed."""
    return _child_of(lineage_parent(n), benign_doc(n, doc_id=3, wording=" Rechecked today."))


def lineage_unchanged(n: int) -> bytes:
    """The benign pair: the child of `lineage_parent` (n) with nothing changed but its id."""
    return _child_of(lineage_parent(n), benign_doc(n, doc_id=3))


def omitted_parent(n: int) -> bytes:
    """A parent of ``n`` active instructions, for `omissions_unnamed`."""
    doc = skeleton("bench/worst.py: a parent of many instructions", doc_id=4)
    doc["statements"].extend(
        {
            "id": f"s-i{i}",
            "kind": "instruction",
            "text": f"Keep account {i} open.",
            "origin": {"type": "user", "name": "Controller"},
        }
        for i in range(n)
    )
    return dump(doc)


def omissions_unnamed(n: int) -> bytes:
    """A compacted child of `omitted_parent` (n) that drops every instruction and records
    ``n`` omissions, none naming them: each dropped object is read against each omission."""
    doc = skeleton("bench/worst.py: omissions that name nothing dropped", doc_id=5)
    doc["derivation"] = {
        "method": "compacted",
        "omissions": [
            {"id": f"om-{j}", "description": f"editor state {j}", "reason": "irrelevant"}
            for j in range(n)
        ],
        "transformations": [{"id": "tr-0", "description": "Condensed.", "affected": ["s-goal"]}],
    }
    return _child_of(omitted_parent(n), doc)


def wordy_parent(n: int) -> bytes:
    """A parent of ``n`` active constraints that share their words, for `omissions_wordy`."""
    doc = skeleton("bench/worst.py: a parent of constraints in the same words", doc_id=8)
    doc["statements"].extend(
        {
            "id": f"s-c{i}",
            "kind": "constraint",
            "text": f"Review account ledger {i} before posting.",
            "origin": {"type": "user", "name": "Controller"},
        }
        for i in range(n)
    )
    return dump(doc)


def omissions_wordy(n: int) -> bytes:
    """A compacted child of `wordy_parent` (n) that drops every constraint and records ``n``
    omissions in nearly their words, none enough to name one: every omission is a candidate
    for every dropped constraint (the matcher looks at a bounded few)."""
    doc = skeleton("bench/worst.py: omissions in nearly the words of what was dropped", doc_id=9)
    doc["derivation"] = {
        "method": "compacted",
        "omissions": [
            {"id": f"om-{j}", "description": f"review account {j}", "reason": "irrelevant"}
            for j in range(n)
        ],
        "transformations": [{"id": "tr-0", "description": "Condensed.", "affected": ["s-goal"]}],
    }
    return _child_of(wordy_parent(n), doc)


# The texts a parent's scan flags that a child is read for (app/echoes.py looks for the longest
# 64: app/redaction.py MAX_QUOTED).
_ECHOED = [f"Zq{i:02d}-{_pseudo_base64(i, 12)}" for i in range(64)]


def flagged_parent(n: int) -> bytes:
    """A parent whose operations pass 64 passwords by name, and ``n`` benign units, for
    `child_echoes`."""
    doc = benign_doc(n, doc_id=10)
    doc["operations"].extend(
        {
            "id": f"op-pw-{i}",
            "kind": "action",
            "status": "planned",
            "description": "Connect to the ledger database.",
            "call": {"tool": "db.connect", "arguments": {"db_password": password}},
        }
        for i, password in enumerate(_ECHOED)
    )
    return dump(doc)


def child_echoes(n: int) -> bytes:
    """A child of `flagged_parent` (n) whose every statement repeats one of its passwords in a
    sentence, which the child's own scan reads as plain text: each place is found beside the
    parent, withheld and reported (1,000 listed, the rest counted)."""
    doc = benign_doc(n, doc_id=11)
    for i, statement in enumerate(doc["statements"]):
        statement["text"] += f" The deploy used {_ECHOED[i % len(_ECHOED)]} for the database."
    return _child_of(flagged_parent(n), doc)


def completed_calls(n: int) -> bytes:
    """A parent of ``n`` completed calls to one tool, for `calls_again`."""
    doc = skeleton("bench/worst.py: a parent of many completed calls", doc_id=6)
    doc["operations"] = [
        {
            "id": f"op-{i}",
            "kind": "action",
            "status": "completed",
            "description": "Post entry.",
            "call": {"tool": "erp.post", "arguments": {"entry": i}},
        }
        for i in range(n)
    ]
    return dump(doc)


def calls_again(n: int) -> bytes:
    """The child of `completed_calls` (n) planning ``n`` calls to the same tool, none a repeat:
    each is compared with the completed calls it could repeat."""
    doc = skeleton("bench/worst.py: many planned calls to a tool the parent called", doc_id=7)
    doc["derivation"] = {"method": "forked"}
    doc["operations"] = [
        {
            "id": f"op-new-{i}",
            "kind": "action",
            "status": "planned",
            "description": "Post entry.",
            "call": {"tool": "erp.post", "arguments": {"entry": -1 - i}},
        }
        for i in range(n)
    ]
    return _child_of(completed_calls(n), doc)


# --- the registry -------------------------------------------------------------------------------


def _recorded_output(n: int, record: Callable[[str], str]) -> bytes:
    """The benign document with each statement's text and each resource's excerpt recorded
    as a tool's output (``record``): what the secret scan reads through before any rule."""
    doc = benign_doc(n)
    for statement in doc["statements"]:
        statement["text"] = record(statement["text"])
    for resource in doc.get("resources", []):
        resource["excerpt"] = record(resource["excerpt"])
    return dump(doc)


def printed_json(n: int) -> bytes:
    """Every text a tool's JSON output: its line breaks and quotes escaped (a decoder reads
    each text again, unescaped)."""
    return _recorded_output(
        n,
        lambda text: (
            "The tool printed "
            + json.dumps({"stdout": f'{text[:30]}\n"{text[30:60]}"\n{text[60:]}', "exit_code": 0})
        ),
    )


def qp_texts(n: int) -> bytes:
    """Every text an e-mail's body in quoted-printable: "=" as "=3D", past ASCII as its bytes,
    lines past 76 characters broken (a decoder reads each again, decoded)."""
    import quopri

    return _recorded_output(
        n,
        lambda text: quopri.encodestring(f"Stand=C3=A9: {text} (Zürich)".encode()).decode(),
    )


def marked_up_texts(n: int) -> bytes:
    """Every text set in markup: a table's row, a term and its description, a label in strong
    emphasis (each read as the plain text it stands for)."""
    return _recorded_output(
        n,
        lambda text: (
            f'<table><tr class="r"><td>Note</td><td><b>{text[:40]}</b></td></tr></table>'
            f"<dl><dt>Detail</dt><dd>{text[40:]}</dd></dl> **Status:** __done__"
        ),
    )


def markup_tags(n: int) -> bytes:
    """One text of ``n`` rows of tags, attributes on every other (the first thousand of those
    read, each a step of Python)."""
    return _lines(
        n // 4,
        lambda i: (
            f'<tr><td class="k">key_{i}</td><td><b>**v{i}**</b></td></tr><tr><td>{i}</td></tr>'
        ),
    )


def told_names(n: int) -> bytes:
    """One text of ``n`` sentences telling what a password and a token are to be, none a
    credential: each name read for a value told after it ("to …"), and refused."""
    return _lines(
        n, lambda i: f"reset the password to the default of svc{i} and set token to expire.", " "
    )


def told_keys(n: int) -> bytes:
    """One text of ``n`` names of keys each form of a key told in prose reads (a header's, a
    purpose's, after "with", before "is"), and no value long enough after any: each name
    looked at once at most (before, each was a search and a refusal, 100,000 of them)."""
    return _lines(
        n,
        lambda i: f"x-api-key short, the api key is {i} and with token {i}, session token {i}.",
        " ",
    )


def url_pages(n: int) -> bytes:
    """One text of ``n`` URLs with a user and a masked password: each read by the userinfo's
    detector (the first thousand), none by the special scheme's nor the command line's."""
    return _lines(n, lambda i: f"see https://user:****@host{i}.example.com/x and", " ")


def html_tables(n: int) -> bytes:
    """One text of an HTML table whose header names a password's column, set out a cell to a
    line, and ``n`` rows under it, each masked (the first thousand refused looked at)."""
    head = "<table>\n  <thead>\n    <tr>\n      <th>User</th>\n      <th>Password</th>\n    </tr>"
    rows = "\n".join(
        f"    <tr>\n      <td>svc{i}</td>\n      <td>********</td>\n    </tr>" for i in range(n)
    )
    return dump(_with_text([f"{head}\n  </thead>\n  <tbody>\n{rows}\n  </tbody>\n</table>"]))


def asides(n: int) -> bytes:
    """One text of ``n`` lines of code's brackets before a colon, and a password's name with an
    aside before its colon, masked (the first thousand of a text looked at)."""
    return _lines(n, lambda i: f"if (svc_{i}): password (old {i}): ********")


ARROW_NOTE = "svc{i}_password → ******** (see the vault) — token -> token.trim{i}()"


def arrows(n: int) -> bytes:
    """One text of ``n`` lines of a note's arrows and dashes after a credential's name, the value
    masked, and code's arrows: each name read and refused."""
    return _lines(n, lambda i: ARROW_NOTE.format(i=i))


def arrow_strings(n: int) -> bytes:
    """The lines of `arrows`, each a statement of its own."""
    return dump(_with_text([ARROW_NOTE.format(i=i) for i in range(n)]))


# Short strings each telling a credential's name and a value the scan refuses (too plain a
# word, no case or digit a password's has): every string reaches a detector that reads it,
# a step of Python for each, where a long string of them is one.
# ({i} a number, {w} letters: each string distinct)
TOLD_STRINGS = (
    "api key is abcdefghij{i}",
    "password: <abcdefg{w}>",
    "the password is abcdef{w}",
    "abcdefg{i} is the password",
    "use abcdefg{w} as the password",
)


def told_strings(n: int) -> bytes:
    """A call's ``n`` arguments, each a short string of `TOLD_STRINGS` in turn, each distinct."""
    items = [
        TOLD_STRINGS[i % len(TOLD_STRINGS)].format(i=i, w=_letters(i).lower()) for i in range(n)
    ]
    return dump(_with_arguments({"items": items}))


def csv_row_strings(n: int) -> bytes:
    """A call's ``n`` arguments, each a CSV's row naming a credential and a value in one case
    the scan refuses (``svc7_password,abcdefgh7``): each string reaches the name's detectors, a
    keyword rule's check (.npmrc's ``_password``) and the CSV header's reading."""
    items = [f"svc{i}_password,abcdefgh{i}" for i in range(n)]
    return dump(_with_arguments({"items": items}))


def label_line_strings(n: int) -> bytes:
    """A call's ``n`` arguments, each a credential's label alone on its line and a value the
    scan refuses on the next (``Client secret\nabcdefgh7``, a web page's fields copied): each
    string reaches the label's detector."""
    items = [f"Client secret\nabcdefgh{i}" for i in range(n)]
    return dump(_with_arguments({"items": items}))


def label_lines(n: int) -> bytes:
    """``n`` lines of a credential's label, each over a value the scan refuses, in one string."""
    return _lines(n, lambda i: f"Secret key\nabcdefgh{i}")


def arrow_items(n: int) -> bytes:
    """A call's ``n`` arguments, each a short line of a note's arrow after a credential's name,
    the value masked: the shortest strings that each reach the name's detectors."""
    return dump(_with_arguments({"items": [f"svc{i}_password -> ********" for i in range(n)]}))


def csv_cells(n: int) -> bytes:
    """Every text a CSV export's quoted cell, quotes doubled (a decoder reads each again)."""
    return _recorded_output(
        n, lambda text: f'id,message\n1,"{text} ""quoted"" {text[:20]}"\n2,"ok"\n'
    )


def doubled_quotes(n: int) -> bytes:
    """One text of ``n`` quoted cells with a doubled quote each (the first 1,000 read so)."""
    return _lines(n, lambda i: f'{i},"say ""hi"" {i}","x ""{i}"""')


def qp_every_form(n: int) -> bytes:
    """`every_form`'s text, quoted-printable: read as it decodes, by every other decoder."""
    import quopri

    return dump(_with_text([quopri.encodestring((EVERY_FORM * n).encode()).decode()]))


def qp_escapes(n: int) -> bytes:
    """One text of ``n`` escapes of quoted-printable, the lines a soft break each: each escape
    a step of Python, the first 10,000 of a text read so."""
    return _lines(n // 8, lambda i: "".join(f"ab=3D{i:x}=C3=A9cd=20" for _ in range(8)) + "=")


def diff_texts(n: int) -> bytes:
    """Every text a hunk of a unified diff: a header, a line kept, one removed, one added (a
    decoder reads each again without its marks)."""

    def hunk(text: str) -> str:
        words = text.split(" ")
        return (
            f"@@ -1,2 +1,2 @@\n {' '.join(words[:4])}\n-{' '.join(words[4:8])}\n"
            f"+{' '.join(words[8:])}\n"
        )

    return _recorded_output(n, hunk)


def quoted_replies(n: int) -> bytes:
    """Every text an e-mail's reply quoting the message it answers, a mark on each line, a
    quote nested in it (a decoder reads each again without its marks)."""

    def reply(text: str) -> str:
        words = text.split(" ")
        return (
            f"Thanks, done.\nOn Mon, ops@example.com wrote:\n> {' '.join(words[:6])}\n"
            f"> {' '.join(words[6:12])}\n>> {' '.join(words[12:])}\n"
        )

    return _recorded_output(n, reply)


def _short_lines(text: str) -> list[str]:
    """``text``'s words as lines of six, as a tool's output or a file holds a text."""
    words = text.split(" ")
    return [" ".join(words[i : i + 6]) for i in range(0, len(words), 6)]


def collected_logs(n: int) -> bytes:
    """Every text a container's log as a collector prints it, a time before each line (a
    decoder reads each again without them)."""

    def log(text: str) -> str:
        return "".join(
            f"2026-12-07T09:14:{i:02d}.{i:09d}Z {line}\n"
            for i, line in enumerate(_short_lines(text))
        )

    return _recorded_output(n, log)


def commented_blocks(n: int) -> bytes:
    """Every text a block commented out, a mark on each line, as a script keeps its old
    configuration (a decoder reads each again without them)."""

    def commented(text: str) -> str:
        lines = _short_lines(text)
        return "Kept for reference:\n" + "".join(
            f"# {'  ' * (i % 2)}{line}\n" for i, line in enumerate(lines)
        )

    return _recorded_output(n, commented)


def html_texts(n: int) -> bytes:
    """Every text a web page's export, its lines broken by <br> (a decoder reads each again
    with them as line breaks)."""
    return _recorded_output(n, lambda text: "<p>" + "<br>\n".join(_short_lines(text)) + "</p>")


def listed_texts(n: int) -> bytes:
    """Every text a tool's JSON list of its lines (a decoder reads each again as lines)."""
    return _recorded_output(
        n, lambda text: "read_file returned " + json.dumps({"lines": _short_lines(text)})
    )


def tabbed_texts(n: int) -> bytes:
    """Every text set in by tabs, each line (a decoder reads each again without them)."""
    return _recorded_output(
        n, lambda text: "Pasted:\n" + "".join(f"\t{line}\n" for line in _short_lines(text))
    )


def _numbered(text: str) -> str:
    """``text``'s lines as `cat -n` prints them."""
    return "".join(f"{i + 1:6d}\t{line}\n" for i, line in enumerate(_short_lines(text)))


def numbered_texts(n: int) -> bytes:
    """Every text a file read with its lines numbered, as `cat -n` prints them (a decoder reads
    each again without the numbers)."""
    return _recorded_output(n, _numbered)


def grep_texts(n: int) -> bytes:
    """Every text what grep printed, each line its file and number (a decoder reads each
    again without them)."""
    return _recorded_output(
        n,
        lambda text: "".join(
            f"notes/case.md:{i + 1}:{line}\n" for i, line in enumerate(_short_lines(text))
        ),
    )


def tool_results(n: int) -> bytes:
    """Every text a tool's result as JSON, its output a file's lines numbered (a decoder reads
    each again unescaped, and another that without the numbers)."""
    return _recorded_output(
        n, lambda text: "tool_result " + json.dumps({"output": _numbered(text), "ok": True})
    )


def coloured_texts(n: int) -> bytes:
    """Every text a terminal's coloured output with a link (a decoder reads each again without
    its escape sequences)."""

    def coloured(text: str) -> str:
        words = text.split(" ")
        return (
            f"\x1b[1;32m{' '.join(words[:4])}\x1b[0m {' '.join(words[4:9])} "
            f"\x1b]8;;https://erp.example.com/runs/7\x1b\\run\x1b]8;;\x1b\\ "
            f"\x1b[33m{' '.join(words[9:])}\x1b[0m"
        )

    return _recorded_output(n, coloured)


@dataclass(frozen=True)
class Case:
    name: str
    build: Builder
    attack: str  # what the document holds that a scanner or a locator could choke on
    parent: Builder | None = None  # for `ocp lint --parent`: built from the same n
    baseline: str = "benign"  # the benign case it is compared with


CASES: dict[str, Case] = {
    case.name: case
    for case in (
        Case("pem-one-long", pem_one_long, "one unterminated PEM header, then base64 lines"),
        Case("pem-repeated", pem_repeated, "unterminated PEM headers repeated in one string"),
        Case("pem-many-strings", pem_many_strings, "an unterminated PEM header in every string"),
        Case("putty-headers", putty_headers, "PuTTY key headers with no MAC, in one string"),
        Case("password-runs", password_runs, "'password: a ' repeated in one string"),
        Case("token-prefixes", token_prefixes, "every token prefix, no valid tail"),
        Case("base64-run", base64_run, "one unbroken run of the base64 alphabet"),
        Case("escape-runs", escape_runs, "short runs of percent, HTML and JSON escapes"),
        Case("escape-strings", escape_strings, "short strings, each with one decoder's escape"),
        Case("case-runs", case_runs, "short runs of both cases, then single-case runs of 24"),
        Case("aws-key-names", aws_key_names, "member names like AWS key ids, token values"),
        Case("api-key-names", api_key_names, "member names api_key_N, token values"),
        Case("service-members", service_members, "members a service names alone, decoy values"),
        Case("near-miss-text", near_miss_text, "every rule's near misses in one string"),
        Case(
            "near-miss-members",
            near_miss_members,
            "member names and values that almost match every rule",
        ),
        Case(
            "env-entries", env_entries, "two-line env entries named for credentials, placeholders"
        ),
        Case("assignment-runs", assignment_runs, "credentials' names assigned refused values"),
        Case(
            "credential-flags",
            credential_flags,
            "credentials' flags and names as array items, no credential after them",
        ),
        Case("token-names", token_names, "up to 900 member names like tokens, the rest benign"),
        Case("help-metavariables", help_metavariables, "a flag's value in capitals, named again"),
        Case("table-rows", table_rows, "Markdown table rows naming credentials, masked"),
        Case("csv-rows", csv_rows, "a CSV export's rows, no credential named"),
        Case("pipeless-rows", pipeless_rows, "table-rows without the tables' outer pipes"),
        Case("joined-tables", joined_tables, "table-rows on one line, its breaks collapsed"),
        Case("joined-table-strings", joined_table_strings, "a table on one line, every string"),
        Case("indented-listings", indented_listings, "listings and CSVs set in by spaces"),
        Case("userinfo-placeholders", userinfo_placeholders, "URIs with ${PASS} for a password"),
        Case("label-prose", label_prose, "passwords' labels past ASCII before prose, one text"),
        Case(
            "label-prose-strings",
            label_prose_strings,
            "passwords' labels past ASCII before prose, a statement each",
        ),
        Case("xml-elements", xml_elements, "XML elements named for a credential, a variable each"),
        Case("name-decoys", name_decoys, "a query string of API keys too short to be one"),
        Case("string-lists", string_lists, "lists of strings naming a password, in one text"),
        Case("every-form", every_form, "a line of each form a decoder reads, escapes in each"),
        Case("base64-json", base64_json, "base64 of JSON naming a password, a variable each"),
        Case("unresolved-one-line", unresolved_one_line, "unresolved references on one line"),
        Case(
            "unresolved-newlines",
            unresolved_many_newlines,
            "unresolved references, 40 newlines apart",
        ),
        Case("unnamed-stops", unnamed_stops, "stop conditions naming no operation, and actions"),
        Case("long-until", long_until, "one stop condition on every action, until all are done"),
        Case("wide-extensions", wide_extensions, "one extensions object, every name bad"),
        Case("many-codes", many_codes, "findings of many codes (S001-S008, W002, secret)"),
        Case("schema-errors", schema_errors, "two schema findings per statement"),
        Case("deep-nesting", deep_nesting, "arguments nested to the depth limit, repeated"),
        Case("long-strings", long_strings, "20,000-character unbroken runs in every field"),
        Case("tiny-statements", tiny_statements, "the smallest statements, many of them"),
        Case("unicode-heavy", unicode_heavy, "astral, combining, right-to-left text"),
        Case("printed-json", printed_json, "every text a tool's JSON output, escaped"),
        Case("diff-texts", diff_texts, "every text a hunk of a unified diff"),
        Case("coloured-texts", coloured_texts, "every text a terminal's coloured output"),
        Case("quoted-replies", quoted_replies, "every text an e-mail's reply quoting another"),
        Case("collected-logs", collected_logs, "every text a log, a time before each line"),
        Case("commented-blocks", commented_blocks, "every text a block commented out"),
        Case("html-texts", html_texts, "every text a web page's, lines broken by <br>"),
        Case("listed-texts", listed_texts, "every text a JSON list of its lines"),
        Case("tabbed-texts", tabbed_texts, "every text set in by tabs"),
        Case("numbered-texts", numbered_texts, "every text a file's lines, numbered"),
        Case("grep-texts", grep_texts, "every text grep's lines, each its file and number"),
        Case("qp-texts", qp_texts, "every text an e-mail's quoted-printable body"),
        Case("marked-up-texts", marked_up_texts, "every text set in HTML and Markdown markup"),
        Case("markup-tags", markup_tags, "a text of table rows' tags, attributes on some"),
        Case("told-names", told_names, "sentences telling a password and a token, none"),
        Case("told-keys", told_keys, "names of keys in prose, no value long enough after any"),
        Case("url-pages", url_pages, "URLs with a user and a masked password"),
        Case("html-tables", html_tables, "an HTML table's rows under a password's column"),
        Case("asides", asides, "brackets before a colon, after a password's name or not"),
        Case("arrows", arrows, "a note's arrows after credentials' names, masked; code's"),
        Case("arrow-strings", arrow_strings, "the lines of arrows, a statement each"),
        Case("told-strings", told_strings, "short strings, each a name told a refused value"),
        Case("arrow-items", arrow_items, "short strings, each a name's arrow to a masked value"),
        Case("csv-row-strings", csv_row_strings, "short strings, each a CSV row, a refused value"),
        Case("label-line-strings", label_line_strings, "short strings, each a label over a value"),
        Case("label-lines", label_lines, "a text of labels, each over a refused value"),
        Case("csv-cells", csv_cells, "every text a CSV's quoted cell, quotes doubled"),
        Case("doubled-quotes", doubled_quotes, "a text of quoted cells, a doubled quote each"),
        Case("qp-every-form", qp_every_form, "every-form's text, quoted-printable"),
        Case("qp-escapes", qp_escapes, "a text of quoted-printable escapes and soft breaks"),
        Case("tool-results", tool_results, "every text a tool's JSON result of numbered lines"),
        Case(
            "omissions-unnamed",
            omissions_unnamed,
            "a compacted child dropping everything, its omissions naming none of it",
            parent=omitted_parent,
            baseline="benign-pair",
        ),
        Case(
            "omissions-wordy",
            omissions_wordy,
            "a compacted child dropping everything, its omissions in nearly its words",
            parent=wordy_parent,
            baseline="benign-pair",
        ),
        Case(
            "calls-again",
            calls_again,
            "many planned calls to the tool of many completed ones, none a repeat",
            parent=completed_calls,
            baseline="benign-pair",
        ),
        Case(
            "child-echoes",
            child_echoes,
            "a child whose every statement repeats one of its parent's 64 passwords",
            parent=flagged_parent,
            baseline="benign-pair",
        ),
        Case(
            "lineage-all-changed",
            lineage_all_changed,
            "a parent whose every statement the child changed",
            parent=lineage_parent,
            baseline="benign-pair",
        ),
    )
}
BASELINES: dict[str, Case] = {
    "benign": Case("benign", benign, "a realistic checkpoint"),
    "benign-pair": Case(
        "benign-pair",
        lineage_unchanged,
        "a realistic checkpoint and its unchanged parent",
        parent=lineage_parent,
    ),
}


def grow(build: Builder, target: int, tolerance: float = 0.05) -> tuple[int, bytes]:
    """The count ``n`` and the document of ``build`` nearest ``target`` bytes (within
    ``tolerance``): every case grows about linearly in ``n``, so a secant converges fast."""
    low_n, low = 1, len(build(1))
    high_n = 16
    high = len(build(high_n))
    n = high_n
    data = build(n)
    for _ in range(12):
        per = max((high - low) / (high_n - low_n), 1.0)
        n = max(1, round(high_n + (target - high) / per))
        data = build(n)
        if abs(len(data) - target) <= tolerance * target / 2 or n == high_n:
            break
        low_n, low, high_n, high = high_n, high, n, len(data)
    return n, data
