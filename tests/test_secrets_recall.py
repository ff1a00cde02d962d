"""Recall of the secret scan: every credential format in every place a checkpoint can hold it.

Formats × placements (issue 11): each format is a generated fake credential of the right shape
(assembled at run time from pieces, never a real one), in the text around it that its format
needs (a netrc entry, an .npmrc line), and each is placed where a checkpoint holds text: a
string value, a member name, a resource excerpt, an operation's arguments, an extension member,
a percent-encoded query value inside a URL, and base64-wrapped. Every one must be found at the
place it was put, and the finding must not repeat it.
"""

import base64
import html
import json
import quopri
import string
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest

from app.pointer import escape_token, resolve
from app.secrets import find_secrets, first_secret, redact, secret_findings
from tests.test_secrets import DETECTORS, rnd

HEX = "0123456789abcdef"
B64URL = string.ascii_letters + string.digits + "-_"
Make = Callable[[], str]


def _discord() -> str:
    user_id = base64.urlsafe_b64encode(rnd(18, string.digits).encode()).decode().rstrip("=")
    return f"{user_id}.{rnd(6, B64URL)}.{rnd(27, B64URL)}"


def _netrc_file() -> str:
    return f"machine api.example.com\n  login deploy\n  password {rnd(16)}\n"


def _netrc_line() -> str:
    return f"machine git.example.com login ci password {rnd(20)}"


# The formats issue 11 found never caught, then every detector's own positive (test_secrets).
NEW_FORMATS: list[tuple[str, Make]] = [
    ("twilio", lambda: "S" + "K" + rnd(32, HEX)),
    ("mailgun", lambda: "key" + "-" + rnd(32, HEX)),
    ("mailchimp", lambda: rnd(32, HEX) + "-us" + rnd(1, "123456789")),
    ("docker-hub-pat", lambda: "dckr" + "_pat_" + rnd(27, B64URL)),
    ("docker-hub-oat", lambda: "dckr" + "_oat_" + rnd(32, B64URL)),
    ("discord-bot", _discord),
    ("telegram-bot", lambda: rnd(10, string.digits) + ":AA" + rnd(33, B64URL)),
    ("square-access-token", lambda: "EAAA" + rnd(60, B64URL)),
    ("square-oauth-secret", lambda: "sq0" + "csp-" + rnd(43, B64URL)),
    ("new-relic-user-key", lambda: "NRAK" + "-" + rnd(27, string.ascii_uppercase + string.digits)),
    (
        "new-relic-insert-key",
        lambda: "NRII" + "-" + rnd(32, string.ascii_letters + string.digits + "-"),
    ),
    ("new-relic-browser-key", lambda: "NRJS" + "-" + rnd(19, HEX)),
    ("alibaba-access-key-id", lambda: "LTAI" + rnd(20)),
    ("doppler-personal", lambda: "dp.pt." + rnd(43)),
    ("doppler-service", lambda: "dp.st." + rnd(43)),
    ("terraform-cloud", lambda: rnd(14) + ".atlasv1." + rnd(67, B64URL)),
    ("pulumi", lambda: "pul" + "-" + rnd(40, HEX)),
    ("artifactory-api-key", lambda: "AKCp" + rnd(69)),
    ("artifactory-reference", lambda: "cmVmd" + rnd(59)),
    (
        "braintree",
        lambda: (
            "access_token$production$"
            + rnd(16, string.ascii_lowercase + string.digits)
            + "$"
            + rnd(32, HEX)
        ),
    ),
    ("cloudflare-origin-ca", lambda: "v1.0-" + rnd(24, HEX) + "-" + rnd(146, HEX)),
    ("google-refresh-token", lambda: "1//0" + rnd(1, "49g") + rnd(98, B64URL)),
    ("heroku-v2", lambda: "HRKU" + "-AA" + rnd(58, B64URL)),
    ("brevo", lambda: "xkeysib" + "-" + rnd(64, HEX) + "-" + rnd(16)),
    ("planetscale", lambda: "pscale" + "_tkn_" + rnd(43)),
    ("rubygems", lambda: "rubygems" + "_" + rnd(48, HEX)),
    # Slack's tokens as gitleaks' cases write them: a user's three numbers, a legacy token's
    # numbers and hex digits, a bot's one number and a key, a configuration token's digit and key
    (
        "slack-user-numbers",
        lambda: (
            "xo" + "xp-" + "-".join(rnd(n, "123456789") for n in (11, 10, 11)) + "-" + rnd(32, HEX)
        ),
    ),
    (
        "slack-legacy-numbers",
        lambda: (
            "xo" + "xs-" + "-".join(rnd(n, "123456789") for n in (12, 9, 10)) + "-" + rnd(10, HEX)
        ),
    ),
    ("slack-legacy-bot", lambda: "xo" + "xb-" + rnd(12, "123456789") + "-" + rnd(24)),
    (
        "slack-config",
        lambda: "xoxe.xo" + "xp-1-" + rnd(163, string.ascii_uppercase + string.digits),
    ),
    ("slack-workspace", lambda: "xo" + "xa-2-" + rnd(12)),
    ("sentry-user", lambda: "sntryu" + "_" + rnd(64, HEX)),
    (
        # an organization's: its claims in base64, _, a signature of 43
        "sentry-org",
        lambda: (
            "sntrys"
            + "_"
            + base64.b64encode(
                json.dumps(
                    {"iat": 1764900000.5, "url": "https://sentry.io", "org": rnd(8)}
                ).encode()
            )
            .decode()
            .rstrip("=")
            + "_"
            + rnd(43, string.ascii_letters + string.digits + "+/")
        ),
    ),
    ("npmrc-auth-token", lambda: "//registry.npmjs.org/:_authToken=" + rnd(36)),
    (
        "npmrc-auth-token-uuid",
        lambda: "//npm.example.com/:_authToken=" + "-".join(rnd(n, HEX) for n in (8, 4, 4, 4, 12)),
    ),
    (
        "npmrc-auth",
        lambda: "_auth=" + base64.b64encode(f"ci:{rnd(16)}".encode()).decode(),
    ),
    ("npmrc-password", lambda: "//npm.example.com/:_password=" + rnd(20)),
    ("netrc-file", _netrc_file),
    ("netrc-line", _netrc_line),
    ("https-userinfo-no-slashes", lambda: f"https:svc:{rnd(14)}@db.example.com/ledger"),
    ("https-userinfo-one-slash", lambda: f"https:/svc:{rnd(14)}@db.example.com/ledger"),
    ("https-userinfo-backslashes", lambda: f"https:\\\\svc:{rnd(14)}@db.example.com/ledger"),
    # issue 29's review, probing the scan as its held-out set does
    ("k8s-env-yaml", lambda: f'env:\n- name: DD_API_KEY\n  value: "{rnd(32, HEX)}"\n'),
    ("ecs-env-json-line", lambda: f'{{"name": "TWILIO_AUTH_TOKEN", "value": "{rnd(32, HEX)}"}}'),
    ("datadog-app-key-member", lambda: f"DD_APP_KEY: {rnd(40, HEX)}"),
    ("cloudflare-auth-key-header", lambda: f"X-Auth-Key: {rnd(37, HEX)}"),
    ("okta-ssws-header", lambda: "Authorization: SSWS 00" + rnd(40)),
    (
        "telegram-bot-url",
        lambda: f"https://api.telegram.org/bot{rnd(10, string.digits)}:AA{rnd(33)}/getMe",
    ),
    # (as the URL takes it, bot<token>, in a note)
    ("telegram-bot-prefixed", lambda: f"bot{rnd(10, string.digits)}:AA{rnd(33)}"),
    ("mailchimp-two-digit-dc", lambda: rnd(32, HEX) + "-us17"),
    (
        "aws-session-token",
        lambda: "IQoJb3JpZ2luX2Vj" + rnd(380, string.ascii_letters + "0123456789+/"),
    ),
    ("doppler-service-token-config", lambda: "dp.st.prd." + rnd(40)),
    ("new-relic-license-key", lambda: "eu01xx" + rnd(30, HEX) + "NRAL"),
    (
        "aws-key-pair-two-lines",
        lambda: (
            "AKIA"
            + rnd(16, string.ascii_uppercase + "234567")
            + "\n"
            + rnd(40, string.ascii_letters + "0123456789+/")
        ),
    ),
]
FORMATS: list[tuple[str, Make]] = [
    *NEW_FORMATS,
    *((name, lambda make=make: make()[0]) for name, make, _kind, _negative in DETECTORS),
]


def _document() -> dict[str, Any]:
    return {
        "opencheckpoint": "0.1",
        "id": "urn:uuid:019a8000-0000-7000-8000-000000000011",
        "created_at": "2026-11-20T08:00:00Z",
        "source": {"producer": "tests/test_secrets_recall.py"},
        "task": {"objective": "Rotate the ledger service's credentials.", "status": "active"},
        "statements": [
            {
                "id": "s-1",
                "kind": "observation",
                "text": "The deploy log was read.",
                "origin": {"type": "agent"},
            }
        ],
        "resources": [{"id": "r-log", "kind": "file", "locator": "deploy.log"}],
        "operations": [
            {
                "id": "op-1",
                "kind": "action",
                "status": "planned",
                "description": "Call the deploy tool.",
                "call": {"tool": "deploy.run", "arguments": {"target": "staging"}},
            }
        ],
        "extensions": {"dev.example.agent/trace": {"step": 3}},
    }


def _fully_percent_encoded(text: str) -> str:
    return "".join(f"%{b:02X}" for b in text.encode())


# placement -> (put the credential text into a document, the JSON Pointer it must be found at,
# whether the hit is on a member name)
Place = Callable[[dict[str, Any], str], tuple[str, bool]]


def _in_value(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    doc["statements"][0]["text"] = f"The deploy log showed {secret} before the retry."
    return "/statements/0/text", False


def _as_member_name(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    doc["extensions"]["dev.example.agent/trace"][secret] = True
    return "/extensions/dev.example.agent~1trace/" + escape_token(secret), True


def _in_excerpt(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    doc["resources"][0]["excerpt"] = f"08:01 deploy started\n{secret}\n08:02 deploy failed\n"
    return "/resources/0/excerpt", False


def _in_arguments(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    doc["operations"][0]["call"]["arguments"]["input"] = secret
    return "/operations/0/call/arguments/input", False


def _in_extension(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    doc["extensions"]["dev.example.agent/trace"]["x-debug"] = secret
    return "/extensions/dev.example.agent~1trace/x-debug", False


def _percent_encoded_in_query(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    url = f"https://app.example.com/callback?state=41&value={_fully_percent_encoded(secret)}&n=2"
    doc["resources"][0]["uri"] = url
    return "/resources/0/uri", False


def _partly_percent_encoded_in_query(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # what a URL encoder does: only the reserved characters escaped (_ and - kept or not)
    encoded = quote(secret, safe="").replace("_", "%5F").replace("-", "%2D")
    doc["resources"][0]["uri"] = f"https://app.example.com/callback?value={encoded}"
    return "/resources/0/uri", False


def _percent_encoded_twice(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a callback URL carried in another's query (a redirect's, an OAuth state's): encoded twice
    inner = f"https://app.example.com/callback?value={quote(secret, safe='')}"
    doc["resources"][0]["uri"] = f"https://login.example.com/?next={quote(inner, safe='')}"
    return "/resources/0/uri", False


def _base64_wrapped(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    blob = base64.b64encode(f"config:\n{secret}\n".encode()).decode()
    doc["operations"][0]["call"]["arguments"]["config_b64"] = blob
    return "/operations/0/call/arguments/config_b64", False


def _in_logged_json(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a log line quoting a request's JSON body: the credential escaped twice
    body = json.dumps({"env": {"VALUE": secret}})
    doc["resources"][0]["excerpt"] = "request body: " + json.dumps(body)[1:-1] + "\n"
    return "/resources/0/excerpt", False


def _html_escaped(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a page's text pasted, or a tool's output escaped for HTML: quotes, &, < and > as entities
    escaped = html.escape(secret)
    doc["resources"][0]["excerpt"] = f"<pre>08:01 deploy started\n{escaped}\n</pre>\n"
    return "/resources/0/excerpt", False


def _in_printed_json(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a tool's JSON output recorded as text: the credential's lines and quotes escaped once
    # (\n, \"), as every JSON encoder writes them
    printed = json.dumps({"stdout": f"step 1\n{secret}\nstep 2", "exit_code": 0})
    doc["statements"][0]["text"] = "The tool printed " + printed
    return "/statements/0/text", False


def _in_encoder_escaped_json(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # the same, by encoders that escape more: a slash as \/ (PHP's json_encode), + and ` as
    # \u002B and \u0060 (.NET's System.Text.Json), &, <, > and ' by code (Go's encoding/json,
    # PHP's JSON_HEX_*)
    printed = json.dumps({"body": secret}).translate(
        {
            ord("/"): "\\/",
            ord("+"): "\\u002B",
            ord("`"): "\\u0060",
            ord("&"): "\\u0026",
            ord("<"): "\\u003C",
            ord(">"): "\\u003E",
            ord("'"): "\\u0027",
        }
    )
    doc["resources"][0]["excerpt"] = "HTTP/1.1 200 OK\n\n" + printed + "\n"
    return "/resources/0/excerpt", False


def _in_a_diff(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a patch the agent made, recorded: each line of the credential's text added ("+")
    added = "\n".join("+" + line for line in secret.split("\n"))
    doc["statements"][0]["text"] = f"The patch:\n@@ -1,2 +1,2 @@\n-old value\n{added}\n"
    return "/statements/0/text", False


def _in_terminal_colours(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a terminal's output a tool captured: colours and a link as escape sequences around it
    link = "\x1b]8;;https://docs.example.com/deploy\x1b\\docs\x1b]8;;\x1b\\"
    doc["resources"][0]["excerpt"] = f"$ deploy --verbose\n\x1b[1;32m{secret}\x1b[0m\nsee {link}\n"
    return "/resources/0/excerpt", False


def _in_python_json(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a Python tool's JSON output (json.dumps escapes every character past ASCII by its code)
    # around it, in German and Chinese
    message = f"Schl\u00fcssel ge\u00e4ndert \u2014 \u5df2\u66f4\u65b0\n{secret}\nfertig"
    doc["statements"][0]["text"] = "The tool printed " + json.dumps({"message": message})
    return "/statements/0/text", False


def _in_a_url_path(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a request a tool logged, the credential the last segment of its URL's path (a proxy's
    # route, a webhook's), then a file's path holding it
    doc["resources"][0]["excerpt"] = (
        f"GET https://proxy.example.com/fwd/{secret}\nsaved to /etc/app/{secret}\n"
    )
    return "/resources/0/excerpt", False


def _in_a_quoted_reply(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a support case's thread: the customer's reply quoting the message that held it, a mark
    # on each line (nested once more on the quoted message's own quote)
    quoted = "\n".join("> " + line for line in secret.split("\n"))
    doc["resources"][0]["excerpt"] = (
        f"On Mon, 7 Dec 2026, ops@example.com wrote:\n{quoted}\n>\n> > earlier: see below\n"
        "Thanks, rotating it now."
    )
    return "/resources/0/excerpt", False


def _in_windows_lines(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a text pasted from Windows (a log, an e-mail): every line break a CR LF
    text = f"Exported from the server:\n{secret}\nEnd of export.\n"
    doc["resources"][0]["excerpt"] = text.replace("\n", "\r\n")
    return "/resources/0/excerpt", False


def _in_a_collected_log(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a container's log as `kubectl logs --timestamps` prints it: each line its time
    prefixed = "\n".join(
        f"2026-12-07T09:14:{i % 60:02d}.{i:09d}Z {line}"
        for i, line in enumerate(secret.split("\n"))
    )
    doc["resources"][0]["excerpt"] = (
        f"2026-12-07T09:13:59.000000001Z starting worker\n{prefixed}\n"
        "2026-12-07T09:15:00.000000002Z ready"
    )
    return "/resources/0/excerpt", False


def _in_a_commented_block(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a script's or a configuration's old block kept for reference, commented out: a shell's
    # "# " on each line
    hashed = "\n".join("# " + line for line in secret.split("\n"))
    doc["resources"][0]["excerpt"] = f"# old config, kept for reference\n{hashed}\nset -e\n"
    return "/resources/0/excerpt", False


def _in_a_block_comment(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a C comment's " * " on each line
    starred = "\n".join(" * " + line for line in secret.split("\n"))
    doc["statements"][0]["text"] = f"The header said:\n/*\n{starred}\n */\nint main(void);"
    return "/statements/0/text", False


def _in_html_lines(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a ticket's description a web page exported: each line break HTML's <br> (its text
    # escaped for HTML: a value holding "<", "&" or a quote is escaped too)
    lines = [html.escape(line, quote=False) for line in secret.split("\n")]
    doc["resources"][0]["excerpt"] = (
        "<p>Pasted by the customer:<br>" + "<br />\n".join(lines) + "</p>"
    )
    return "/resources/0/excerpt", False


def _in_listed_lines(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a file a tool read as a list of its lines and printed as JSON (its escapes)
    lines = json.dumps({"lines": secret.split("\n")}, indent=2)
    doc["resources"][0]["excerpt"] = f"read_file returned {lines}"
    return "/resources/0/excerpt", False


def _in_python_lines(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # ... and as Python prints a list of them (readlines(): each line's break kept)
    doc["statements"][0]["text"] = f">>> open('conf').readlines()\n{secret.splitlines(True)!r}"
    return "/statements/0/text", False


def _tab_indented(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # an e-mail's or a ticket's pasted text set in by tabs, each line
    indented = "\n".join("\t\t" + line for line in secret.split("\n"))
    doc["resources"][0]["excerpt"] = f"Here is what the server shows:\n{indented}\nRegards"
    return "/resources/0/excerpt", False


def _space_indented(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a pasted text set in by spaces: a YAML literal block's lines, a Markdown code block's
    indented = "\n".join("    " + line for line in secret.split("\n"))
    doc["resources"][0]["excerpt"] = f"support_attachment: |\n{indented}\nticket: 4410"
    return "/resources/0/excerpt", False


def _joined_lines(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a pasted text whose line breaks a page or a log collapsed into spaces: a YAML block, a
    # Markdown table on one line
    doc["statements"][0]["text"] = "The customer pasted: " + secret.replace("\n", " ")
    return "/statements/0/text", False


def _in_quoted_printable(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a customer's e-mail as its source holds it: its body quoted-printable ("=" as "=3D", a
    # line past 76 characters broken by "=")
    body = f"Hello,\nhere is what our server shows:\n{secret}\nThanks, the ledger team (Zürich)"
    encoded = quopri.encodestring(body.encode()).decode()
    doc["resources"][0]["excerpt"] = (
        "Content-Type: text/plain; charset=utf-8\n"
        f"Content-Transfer-Encoding: quoted-printable\n\n{encoded}"
    )
    return "/resources/0/excerpt", False


def _in_a_csv_cell(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a ticket export as CSV: the message a quoted cell, each quote in it doubled
    cell = secret.replace('"', '""')
    doc["resources"][0]["excerpt"] = f'id,status,message\n4410,open,"{cell}"\n4411,closed,"ok"\n'
    return "/resources/0/excerpt", False


def _numbered(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a file an agent read with its lines numbered, as `cat -n` prints them
    lines = "\n".join(f"{i + 1:6d}\t{line}" for i, line in enumerate(secret.split("\n")))
    doc["resources"][0]["excerpt"] = f"$ cat -n config\n{lines}\n"
    return "/resources/0/excerpt", False


def _arrow_numbered(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # ... as an agent's file-reading tool prints them, a number and an arrow
    lines = "\n".join(f"{i + 41:6d}\u2192{line}" for i, line in enumerate(secret.split("\n")))
    doc["statements"][0]["text"] = f"Read config (lines 41-):\n{lines}"
    return "/statements/0/text", False


def _grep_output(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # what grep printed of several files: each line's file and number, a colon after a line
    # that matched and a hyphen after one of context
    lines = "\n".join(
        f"deploy/app.env{':' if i % 2 else '-'}{i + 12}{':' if i % 2 else '-'}{line}"
        for i, line in enumerate(secret.split("\n"))
    )
    doc["resources"][0]["excerpt"] = f"$ grep -rn -C1 key deploy/\n{lines}\n--\n"
    return "/resources/0/excerpt", False


def _html_blocks(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a rich editor's text, each line a block of its own (and quoted in a chat's export, its
    # quote mark escaped for HTML, on the next)
    lines = "".join(f"<div>{html.escape(line, quote=False)}</div>" for line in secret.split("\n"))
    doc["resources"][0]["excerpt"] = f"<div>From the ticket:</div>{lines}<p>Thanks</p>"
    return "/resources/0/excerpt", False


def _escaped_quote(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    quoted = "\n".join("&gt; " + html.escape(line, quote=False) for line in secret.split("\n"))
    doc["statements"][0]["text"] = f"The customer wrote:\n{quoted}\nok"
    return "/statements/0/text", False


def _in_a_tool_result(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # an agent's tool's result as JSON, its output a file read with its lines numbered (two
    # readings: the JSON's escapes, then the lines' numbers)
    lines = "\n".join(f"{i + 1:6d}\t{line}" for i, line in enumerate(secret.split("\n")))
    doc["resources"][0]["excerpt"] = "tool_result " + json.dumps({"output": lines, "ok": True})
    return "/resources/0/excerpt", False


def _numbered_and_commented(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    # a file read with its lines numbered, the block in it commented out
    lines = "\n".join(f"{i + 7:6d}\t# {line}" for i, line in enumerate(secret.split("\n")))
    doc["statements"][0]["text"] = f"$ cat -n deploy.sh (old block)\n{lines}\n"
    return "/statements/0/text", False


# A long log before it: a text past 16 KB is read by some detectors only around their words
# (app/secrets `_REACH`), and a format whose words its detector's reach lacks was missed there
# (a cookie told in a sentence, "the cookie sessionid=…").
_LONG_LOG = "".join(
    f"08:{i % 60:02d}:{i % 7:02d} step {i} of the build passed\n" for i in range(600)
)


def _in_a_long_log(doc: dict[str, Any], secret: str) -> tuple[str, bool]:
    doc["resources"][0]["excerpt"] = f"{_LONG_LOG}{secret}\n08:59:59 build failed\n"
    return "/resources/0/excerpt", False


PLACEMENTS: dict[str, Place] = {
    "value": _in_value,
    "member-name": _as_member_name,
    "excerpt": _in_excerpt,
    "arguments": _in_arguments,
    "extension": _in_extension,
    "percent-encoded": _percent_encoded_in_query,
    "partly-percent-encoded": _partly_percent_encoded_in_query,
    "percent-encoded-twice": _percent_encoded_twice,
    "base64": _base64_wrapped,
    "logged-json": _in_logged_json,
    "html-escaped": _html_escaped,
    "printed-json": _in_printed_json,
    "encoder-escaped-json": _in_encoder_escaped_json,
    "diff": _in_a_diff,
    "terminal-colours": _in_terminal_colours,
    "python-json": _in_python_json,
    "url-path": _in_a_url_path,
    "quoted-reply": _in_a_quoted_reply,
    "collected-log": _in_a_collected_log,
    "windows-lines": _in_windows_lines,
    "commented-block": _in_a_commented_block,
    "block-comment": _in_a_block_comment,
    "html-lines": _in_html_lines,
    "listed-lines": _in_listed_lines,
    "python-lines": _in_python_lines,
    "tab-indented": _tab_indented,
    "space-indented": _space_indented,
    "joined-lines": _joined_lines,
    "quoted-printable": _in_quoted_printable,
    "csv-cell": _in_a_csv_cell,
    "numbered-lines": _numbered,
    "arrow-numbered": _arrow_numbered,
    "grep-output": _grep_output,
    "html-blocks": _html_blocks,
    "escaped-quote": _escaped_quote,
    "tool-result": _in_a_tool_result,
    "numbered-commented": _numbered_and_commented,
    "long-log": _in_a_long_log,
}


def test_the_corpus_covers_the_formats_issue_11_named() -> None:
    assert len(FORMATS) >= 92
    assert len(PLACEMENTS) >= 7
    assert len({name for name, _ in FORMATS}) == len(FORMATS)


def test_a_clean_document_has_no_finding() -> None:
    assert find_secrets(_document()) == []


# A credential that is itself a JSON text ({"client_secret": "…"}), or code, XML, a Markdown
# table, a YAML block, a listing, in a JSON body a log line quotes, has its quotes escaped
# twice or more (\\\"client_secret) and its line breaks and tabs escaped (\\n, \t): read by
# the JSON escapes' decoder (app/secrets/detectors.py `json_escaped`), which unescapes such a
# text once, and twice where it still escapes a backslash. Text escaped for HTML is unescaped
# once and not inside another encoding.
NOT_READ = {
    *(
        (name, placement)
        for name in ("html-escaped-json", "html-escaped-xml-element")
        for placement in (
            *("html-escaped", "percent-encoded", "partly-percent-encoded"),
            *("percent-encoded-twice", "base64", "encoder-escaped-json", "html-lines"),
            *("html-blocks", "escaped-quote"),
        )
    ),
    # an arrow percent-encoded (%E2%86%92), and French's "clé" (cl%C3%A9): the percent decoder
    # reads ASCII's escapes, one character each, and leaves a character past ASCII as its
    # bytes' escapes
    *(
        (name, placement)
        for name in ("arrow-password-note", "key-told-in-french")
        for placement in ("percent-encoded", "partly-percent-encoded", "percent-encoded-twice")
    ),
    # a listing of names and values, Java's properties, a CSV's rows, on one line: no mark says
    # where a row starts (a Markdown table's separator does, and a YAML value's name)
    *(
        (name, "joined-lines")
        for name in (
            *("tab-separated-listing", "vault-kv-get-table", "properties-space"),
            *("csv-credential-column", "csv-quoted-credential-column"),
            *("semicolon-credential-column", "tab-credential-column", "csv-row"),
        )
    ),
    # a key file of two lines (minisign's), in a tool's result whose JSON opens its first line:
    # a file read with its lines numbered is read so from two numbered lines in a row, and its
    # second line alone stands at a line's start
    ("minisign-signify-secret-key", "tool-result"),
    # ... nor a Jira table's header row, an Org table's separator (the joined Markdown table's
    # separator is its mark), a Dockerfile's ENV NAME VALUE and msmtp's password (each its
    # line's first word)
    *(
        (name, "joined-lines")
        for name in (
            *("jira-table-header", "org-table-separator", "dockerfile-env-space"),
            "msmtp-password",
        )
    ),
}


@pytest.mark.parametrize(
    ("name", "make", "placement"),
    [
        (name, make, placement)
        for name, make in FORMATS
        for placement in PLACEMENTS
        if (name, placement) not in NOT_READ
    ],
    ids=[
        f"{name}-{placement}"
        for name, _ in FORMATS
        for placement in PLACEMENTS
        if (name, placement) not in NOT_READ
    ],
)
def test_every_format_is_found_in_every_placement(name: str, make: Make, placement: str) -> None:
    secret = make()
    doc = _document()
    path, in_key = PLACEMENTS[placement](doc, secret)
    resolve(doc, path)  # the placement put it where it says
    hits = find_secrets(doc)
    assert [(h.path, h.in_key) for h in hits if h.path == path] != [], (name, placement, secret)
    assert {h.path for h in hits} == {path}, "found elsewhere too"
    assert any(h.in_key == in_key for h in hits)
    first = first_secret(doc)
    assert first is not None and first.path == path
    for finding in secret_findings(doc):
        for piece in (secret, secret[-12:], secret[:16]):
            if len(piece) >= 8 and piece.strip():
                assert piece not in finding.message


@pytest.mark.parametrize("placement", list(PLACEMENTS))
def test_every_format_is_found_in_every_placement_by_re2_too(
    placement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small document is searched by `re` until RE2's keyword set is compiled, and by RE2
    from then on in the same process (app/secrets/engine.py `uses_re2`): what finds a format
    must not depend on which ran first. (RE2's anchor for a credential's name ended a name at
    "\n" and not at "\r\n", which `re`'s keywords do not read: `- name: DD_API_KEY\r\n  value:
    …` was missed once a large document had been scanned.)"""
    from app.secrets.engine import Engine

    monkeypatch.setattr(Engine, "uses_re2", lambda self, hay: True)
    missed = []
    for name, make in FORMATS:
        if (name, placement) in NOT_READ:
            continue
        doc = _document()
        drawn = make()
        path, _ = PLACEMENTS[placement](doc, drawn)
        if path not in {h.path for h in find_secrets(doc)}:
            missed.append((name, drawn))  # (the draw: a rare one is found again from it)
    assert missed == [], placement


def test_a_windows_line_break_ends_a_name_for_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.secrets.engine import Engine

    key = "e3ba5f371d9533b991c9a1806aaf62fb"
    text = f'env:\r\n- name: DD_API_KEY\r\n  value: "{key}"\r\n'
    for engine in ("re", "re2"):
        monkeypatch.setattr(Engine, "uses_re2", lambda self, hay, e=engine: e == "re2")
        doc = _document()
        doc["resources"][0]["excerpt"] = "first line\r\n" + text + "\r\nlast\r\n"
        hits = find_secrets(doc)
        assert [(h.path, doc["resources"][0]["excerpt"][h.start : h.end]) for h in hits] == [
            ("/resources/0/excerpt", key)
        ], engine


def test_an_encoded_token_is_redacted_whole() -> None:
    """A token found percent-encoded or base64-wrapped is withheld whole, encoded as it was:
    nothing of it stays beside the redaction."""
    tokens = [(n, make) for n, make in NEW_FORMATS if not set(make()) & set(" \n=@:/")]
    assert len(tokens) >= 20
    for name, make in tokens:
        secret = make()
        for placement in ("percent-encoded", "partly-percent-encoded", "base64"):
            doc = _document()
            path, _ = PLACEMENTS[placement](doc, secret)
            value = resolve(doc, path)
            assert isinstance(value, str)
            out = redact(value)
            assert "[redacted: looks like a credential]" in out, (name, placement)
            if placement == "percent-encoded":
                assert _fully_percent_encoded(secret[-4:]) not in out, (name, out)
                assert _fully_percent_encoded(secret[:4]) not in out, (name, out)
            if placement == "base64":
                assert out.endswith("[redacted: looks like a credential]"), (name, out)
