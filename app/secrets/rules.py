"""The credential formats the secret scan knows by their shape, one rule each (§9.1, §10.5).

Each rule is written from what the format *is*, as its issuer documents it: a fixed prefix and
a length (`ghp_` and 36 letters and digits), a structure (a Twilio account SID followed by its
auth token), or a service's name beside a value of the shape its keys have (`DD_API_KEY=` and 32
hexadecimal digits: gitleaks calls these keyword rules). gitleaks' default rules
(config/gitleaks.toml) served as the checklist of which services exist; the patterns are this
project's own. docs/secrets.md lists every rule, and what none of them flags.

A rule is a `Pattern` (a regular expression, and the lower-case keywords one of which every
match contains: app/secrets/engine.py matches it only on a text that holds one) and a check of
each match: its length, the characters beside it, that it looks generated rather than like a
placeholder (`ghp_xxxx…`, `<your-token>`). The check returns the span to withhold, or None.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import takewhile

from app.secrets.engine import ANYWHERE, BESIDE_RUNS, IN_RUNS, TYPOGRAPHIC_SEPARATORS
from app.secrets.shapes import (
    _ANY_DIGIT,
    _ANY_LETTER,
    _IDENTIFIER_LIKE,
    _WORD,
    _WORD_DASH,
    _both_cases,
    _complex,
    _few_characters,
    _has_upper,
    _has_upper_or_unbroken,
    _hex_key,
    _in_order,
    _is_placeholder,
    _lazy,
    _left_ok,
    _masked,
    _plausible_token,
    _random_looking,
    _right_ok,
)

# --- kinds: fixed phrases, so a message can never echo document content -------------------------

AWS_KEY_ID = "an AWS access key id"
AWS_SECRET = "an AWS secret access key"
AWS_BEDROCK = "an Amazon Bedrock API key"
GOOGLE_API_KEY = "a Google API key"
GOOGLE_OAUTH = "a Google OAuth token"
GOOGLE_CLIENT_SECRET = "a Google OAuth client secret"
GOOGLE_REFRESH = "a Google OAuth refresh token"
AZURE_ACCOUNT_KEY = "an Azure storage account key"
AZURE_CLIENT_SECRET = "an Azure AD client secret"
AZURE_KEY = "an Azure access key"
GITHUB = "a GitHub token"
GITLAB = "a GitLab token"
GRAFANA = "a Grafana token"
SLACK = "a Slack token"
SLACK_WEBHOOK = "a Slack webhook URL"
WEBHOOK = "a webhook URL that embeds its secret"
STRIPE = "a Stripe secret key"
STRIPE_WEBHOOK = "a Stripe webhook signing secret"
SK_KEY = "an OpenAI or Anthropic style API key"
NPM = "an npm token"
NPMRC = "an npm registry credential"
PYPI = "a PyPI token"
HUGGING_FACE = "a Hugging Face token"
SENDGRID = "a SendGrid API key"
SHOPIFY = "a Shopify access token"
DIGITALOCEAN = "a DigitalOcean token"
VAULT = "a HashiCorp Vault token"
VAULT_UNSEAL = "a HashiCorp Vault unseal key"
KUBERNETES_BOOTSTRAP = "a Kubernetes bootstrap token"
AGE_KEY = "an age secret key"
POSTMAN = "a Postman API key"
LINEAR = "a Linear API key"
DATABRICKS = "a Databricks token"
SQUARE = "a Square access token"
ATLASSIAN = "an Atlassian API token"
DOCKER_HUB = "a Docker Hub access token"
TWILIO = "a Twilio API key"
TWILIO_AUTH = "a Twilio auth token"
MAILGUN = "a Mailgun API key"
MAILCHIMP = "a Mailchimp API key"
DISCORD = "a Discord bot token"
TELEGRAM = "a Telegram bot token"
NEW_RELIC = "a New Relic key"
AWS_SESSION = "an AWS session token"
ALIBABA = "an Alibaba Cloud access key id"
DOPPLER = "a Doppler token"
TERRAFORM = "a Terraform Cloud token"
PULUMI = "a Pulumi access token"
ARTIFACTORY = "a JFrog Artifactory token"
BRAINTREE = "a Braintree access token"
CLOUDFLARE_CA = "a Cloudflare origin CA key"
HEROKU = "a Heroku API key"
SENDINBLUE = "a Brevo (Sendinblue) API key"
PLANETSCALE = "a PlanetScale token"
RUBYGEMS = "a RubyGems API key"
SENTRY = "a Sentry token"
MAPBOX = "a Mapbox secret token"
FACEBOOK = "a Facebook access token"
TWITTER = "a Twitter (X) credential"
DATADOG = "a Datadog key"
OKTA = "an Okta API token"
JWT = "a JSON Web Token"
BEARER = "a bearer token"
BASIC = "HTTP Basic credentials"
SERVICE_KEY = "a service's API key or token"  # a keyword rule's service, named in docs/secrets.md
ONEPASSWORD = "a 1Password secret"
NUGET = "a NuGet feed password"
EXTENDED_PRIVATE_KEY = "a cryptocurrency wallet's private key"
OPENVPN = "an OpenVPN static key"
WIFI = "a Wi-Fi password"
SIGNING_KEY = "a minisign or signify secret key"
PREFIXED = "a service's API token"  # a prefixed token of a service in docs/secrets.md's table


# --- rules ---------------------------------------------------------------------------------------

Span = tuple[int, int]
Check = Callable[[str, int, int], "Span | None"]
_Parts = tuple[str, Check]


class Rule:
    """A format known by its shape: its pattern as app/secrets/engine.py reads it (`regex`,
    `keywords`, `runs`) and the check of each match.

    Importing this module only records each rule's arguments: its keywords are read the first
    time a document is scanned, its regex and its check are built the first time a text holds
    one of them. A document calls for a few rules, and importing the scanner is part of every
    `ocp lint`'s start-up (issue 28). (A plain class: a NamedTuple's costs a fifth of a
    millisecond.)"""

    __slots__ = (
        "_args",
        "_build",
        "_parts",
        "_words",
        "id",
        "kind",
        "min_run",
        "run_test",
        "scope",
    )

    def __init__(
        self,
        rule_id: str,
        kind: str,
        words: Sequence[str],
        scope: int,
        build: Callable[..., _Parts],
        args: tuple[object, ...],
        run_test: Callable[[str], bool] | None = None,
        min_run: int = 0,
    ) -> None:
        self.id = rule_id  # gitleaks' rule id where there is one (docs/secrets.md)
        self.kind = kind
        self.scope = scope  # where its keyword stands (app/secrets/engine.py)
        self.run_test = run_test  # (app/secrets/engine.py `Pattern`)
        # the shortest run of token characters a match fits in (a token's shortest prefix and
        # run, a pair's identifier; 0: none said)
        self.min_run = min_run
        self._words = words
        self._build = build
        self._args = args
        self._parts: _Parts | None = None

    @property
    def keywords(self) -> Sequence[str]:
        """One with a capital letter is looked for as written (SK, AKIA), others in any case."""
        return self._words

    def _built(self) -> _Parts:
        if self._parts is None:
            self._parts = self._build(*self._args)
        return self._parts

    @property
    def regex(self) -> str:
        return self._built()[0]

    @property
    def check(self) -> Check:
        """(text, start, end of a match) -> the span to withhold, or None."""
        return self._built()[1]


def _escape(literal: str) -> str:
    # Only what both engines need escaped (re.escape escapes more, e.g. "~" and " ").
    return literal.translate(_ESCAPES)


_ESCAPES = {ord(c): "\\" + c for c in r".^$*+?()[]{}|\-/"}


_Tail = Callable[[str], bool]


def _token(
    rule_id: str,
    kind: str,
    prefixes: Sequence[str],
    tail: str,
    length: tuple[int, int],
    *,
    boundary: frozenset[str] = _WORD,
    right: frozenset[str] | None = None,
    check: _Tail | None = None,
    strip: str = "",
) -> Rule:
    """A fixed prefix, then a run of the class ``tail`` (a character class's inside) of
    ``length`` (inclusive bounds): what most issuers' tokens are.

    The run is greedy (the whole run, then its length tested), so a longer run of the class is
    no token of this format. ``boundary``: the characters that may not come before the prefix
    (by default a letter or a digit: a dash or "_" may, as an id's or a file name's prefix
    writes one before it, op-ghp_…, token_ghp_…, as gitleaks' patterns of those formats let
    them, but before a prefix of four characters at least: a short one, sk- or hf_, stands in
    dashed and joined words by chance);
    ``right``: that may not follow the run; ``strip``: characters the run may hold but not end
    with (a sentence's full stop after a dotted token); ``check``: a test of the run."""
    args = (prefixes, tail, length, boundary, right, check, strip)
    shortest = min(map(len, prefixes)) + length[0]
    return Rule(rule_id, kind, prefixes, IN_RUNS, _token_parts, args, None, shortest)


# the shortest prefix a dash may stand before (`_token`)
_DASHED_FROM = 4


def _token_parts(
    prefixes: Sequence[str],
    tail: str,
    length: tuple[int, int],
    boundary: frozenset[str],
    right: frozenset[str] | None,
    check: _Tail | None,
    strip: str,
) -> _Parts:
    ordered = sorted(set(prefixes), key=len, reverse=True)
    low, high = length
    regex = "(?:" + "|".join(map(_escape, ordered)) + f")[{tail}]{{{low},}}"

    # prefixes of one length (ghp_, gho_, ghu_…): the match's start says which
    width = len(ordered[0]) if len({len(p) for p in ordered}) == 1 else 0
    # a dotted token the rule does not strip may still end a sentence: read without that full
    # stop when it is refused with it (Dynatrace's dt0c01.…, Airtable's pat….…)
    full_stop = not strip and "." in tail
    # a run of a format of both cases that is made of few characters (AIzaaaaa…, glc_1111…=,
    # GR1348941 then 123123…) or holds the alphabet in order (sk-ant-…-klmnopqrstuvwx-…) is
    # typed in a token's shape, not issued (`_few_characters`, `_in_order`), as gitleaks'
    # entropy floor for those formats says; one of a single case may be a key of zero bytes
    # (age's AGE-SECRET-KEY-1QQQ…, in gitleaks' own cases)
    lettered = "a-z" in tail and "A-Z" in tail
    short_boundary = boundary | {"-", "_"}

    def find(text: str, start: int, end: int) -> Span | None:
        prefix = (
            text[start : start + width]
            if width
            else next(p for p in ordered if text.startswith(p, start))
        )
        while strip and end > start + len(prefix) and text[end - 1] in strip:
            end -= 1
        span = judged(text, start, start + len(prefix), end)
        if span is None and full_stop and text[end - 1] == "." and end - 1 > start + len(prefix):
            span = judged(text, start, start + len(prefix), end - 1)
        return span

    def judged(text: str, start: int, run_start: int, end: int) -> Span | None:
        run = text[run_start:end]
        before = boundary if run_start - start >= _DASHED_FROM else short_boundary
        if not low <= len(run) <= high or not _left_ok(text, start, before):
            return None
        if right is not None and not _right_ok(text, end, right, start):
            return None
        if _masked(run) or (check is not None and not check(run)):
            return None
        if lettered and len(run) >= 16 and (_few_characters(run) or _in_order(run)):
            return None
        return start, end

    return regex, find


# What may stand between a service's name and its value: the rest of an identifier
# (DD_API_KEY), a few words (Datadog API key for staging is), quotes, brackets and an
# operator (=, :, =>, ||, a comma), ending with one of these separators (`_SEP`): the value
# starts after one. No newline: a value on the next line is not beside it.
# A separator past ASCII is a space to the engines (app/secrets/engine.py
# `TYPOGRAPHIC_SEPARATORS`: "Heroku API key → …", "Datadog キー：…"), and the value may start
# after one as after these.
_GLUE = r"[A-Za-z0-9_.\-\t :=>\"'`,()\[\]{}|/\\*]{0,64}?[\t :=>\"'`,(\[{|]"
_SEP = frozenset("\t :=>\"'`,([{|" + TYPOGRAPHIC_SEPARATORS)
_SEP_CLASS = "".join(map(re.escape, sorted(_SEP)))  # (in a regex's class)
# An identifier's secret may stand on the next line (a key id and its secret pasted as two
# lines, or a file's two columns): the glue of a pair takes one line end, as written or as a
# JSON string escapes it, after which the value starts.
_LINE_END_GLUE = r"[A-Za-z0-9_.\-\t :=>\"'`,()\[\]{}|/\\*]{0,64}?(?:\r?\n|\\r\\n|\\n)[\t ]*"
_PAIR_GLUE = rf"(?:{_GLUE}|{_LINE_END_GLUE})"
# ... or a label of its own on the next line before it (account: acme, then key: …, as YAML and a
# note set a pair's two lines)
_LABELLED_PAIR_GLUE = rf"(?:{_GLUE}|{_LINE_END_GLUE}(?:[A-Za-z0-9_.\-]{{1,32}}[\t ]*[:=][\t ]*)?)"
# An Azure storage account's key: the base64 of 64 bytes (its regex, its length)
_AZURE_ACCOUNT_KEY_SHAPE = ("[A-Za-z0-9+/]{86}==", (88, 88))
# Words that say a value is a credential, not an id: the glue of most keyword rules holds one.
_CREDENTIAL_WORD = _lazy(
    r"key|token|secret|passw|pwd|auth|credential|bearer|(?<![a-z])pat(?![a-z])"
    r"|(?<![a-z])sk(?![a-z])"
)
# What stands between a service's name and its value when the name is the value's whole label:
# an operator, quotes and spaces around it (HEROKU=…, "datadog": "…", okta => …)
# (a colon before a space or a quote: arn:aws:iam::aws:policy/… names none)
_LABEL_GLUE = _lazy(r"""[\t "'`]*(?:(?:=|=>|:=)[\t "'`]*|:[\t "'`]+)""")
# ... and what names an identifier: the value after "client_id", "app id:", "trace id" is one.
_ID_LAST = _lazy(r"(?:^|[^a-z])(?:id|ids|sid|uid|uuid|guid)[^a-z]*$")


def _keyword(
    rule_id: str,
    kind: str,
    names: Sequence[str],
    value: str,
    length: tuple[int, int],
    *,
    word: bool = True,
    check: _Tail | None = None,
    next_line: bool = False,
    labelled: bool = False,
    glue: str | None = None,
) -> Rule:
    """A service's name, then within a few words (`_GLUE`) a value of its keys' shape: a bare
    key is a credential when its service's name sits right beside it (``next_line``: or on
    the next line, as a pair's value may, for a shape no other value has; ``labelled``: and
    after a label of its own there).

    ``names``: lower-case literals matched in any case, anywhere (`MY_DATADOG_API_KEY`);
    ``value``: the shape, a pattern that ends with one greedy run; ``length``: its bounds.
    ``word``: the name or the text between name and value must hold a credential's word
    (`key`, `token`, `secret`…), so that "Datadog trace 4bf9…" (an id) is not one. ``glue``:
    what stands between the name and the value when its format says so (.npmrc's "=")."""
    if glue is None:
        glue = _LABELLED_PAIR_GLUE if labelled else _PAIR_GLUE if next_line else _GLUE
    args = (names, value, length, word, check, next_line, glue)
    # (a name on the line before its value's may stand on a line with no run: looked for
    # anywhere, not only on the lines that hold one)
    scope = ANYWHERE if next_line else BESIDE_RUNS
    return Rule(rule_id, kind, names, scope, _keyword_parts, args)


def _keyword_parts(
    names: Sequence[str],
    value: str,
    length: tuple[int, int],
    word: bool,
    check: _Tail | None,
    next_line: bool,
    glue: str,
) -> _Parts:
    ordered = sorted(set(names), key=len, reverse=True)
    low, high = length
    regex = "(?i:" + "|".join(map(_escape, ordered)) + ")" + glue + "(?:" + value + ")"
    tail = _value_tail(value, line_end=next_line)

    def find(text: str, start: int, end: int) -> Span | None:
        if start and text[start - 1].isalpha() and not _camel_boundary(text, start):
            return None  # inside a word: "rookTable" names no Okta
        head = text[start : start + len(ordered[0])].lower()
        name = next(n for n in ordered if head.startswith(n))
        glue_start = start + len(name)
        if name in _WHOLE_WORD_NAMES and text[glue_start : glue_start + 1].isalpha():
            return None  # (a longer word: "path", "pattern")
        at = _value_start(tail, text, glue_start, end)
        if at is None or not low <= end - at <= high:
            return None
        if not _right_ok(text, end, _WORD_DASH):
            return None
        glue = text[glue_start:at].lower()
        # (the service's name alone as the value's label, HEROKU=… or datadog: …, says what the
        # value is, as gitleaks reads one; MY_HEROKU=… too, but heroku_app=… names an app)
        labelled = _LABEL_GLUE.fullmatch(glue) is not None
        if word and not labelled and not _CREDENTIAL_WORD.search(name + " " + glue):
            return None
        if _ID_LAST.search(glue):
            return None
        found = text[at:end]
        if _masked(found) or _is_placeholder(found):
            return None
        return (at, end) if check is None or check(found) else None

    return regex, find


# Names that are words of their own: a letter after one makes another word ("PAT": "path")
_WHOLE_WORD_NAMES = frozenset({"pat"})


def _camel_boundary(text: str, at: int) -> bool:
    """Whether a word starts at ``at`` inside an identifier: a capital after a small letter
    (myOktaToken)."""
    return text[at - 1].islower() and text[at].isupper()


def _pair(
    rule_id: str,
    kind: str,
    head: str,
    head_length: int,
    keywords: tuple[str, ...],
    head_check: _Tail,
    value: str,
    length: tuple[int, int],
    check: _Tail,
) -> Rule:
    """An identifier (an account SID, an access key id) followed within a few words by the
    secret that goes with it: the secret is withheld, the identifier is no credential."""
    args = (head, head_length, head_check, value, length, check)
    return Rule(rule_id, kind, keywords, IN_RUNS, _pair_parts, args, None, head_length)


def _pair_parts(
    head: str,
    head_length: int,
    head_check: _Tail,
    value: str,
    length: tuple[int, int],
    check: _Tail,
) -> _Parts:
    low, high = length
    tail = _value_tail(value, line_end=True)

    def find(text: str, start: int, end: int) -> Span | None:
        head_end = start + head_length
        if not _left_ok(text, start, _WORD) or not head_check(text[start:head_end]):
            return None
        if not _right_ok(text, head_end, _WORD):
            return None
        at = _value_start(tail, text, head_end, end)
        if at is None or not low <= end - at <= high:
            return None
        if not _right_ok(text, end, _WORD_DASH):
            return None
        found = text[at:end]
        return (at, end) if not _masked(found) and check(found) else None

    return head + _PAIR_GLUE + "(?:" + value + ")", find


def _value_tail(value: str, line_end: bool) -> re.Pattern[str]:
    """What `_value_start` searches for: a separator (`_SEP`; ``line_end``: or a line end, as
    written or as JSON escapes it, as a pair's glue takes one), then the value's shape ``value``
    running to the end of the text searched."""
    separated = rf"(?<=[{_SEP_CLASS}])" + (r"|(?<=\n)|(?<=\\n)" if line_end else "")
    return _lazy(rf"(?:{separated})(?:{value})\Z")


def _value_start(tail: re.Pattern[str], text: str, glue_start: int, end: int) -> int | None:
    """Where the value of a keyword or pair rule's match begins: the first place after the
    name and a separator from which the value's shape runs to the match's end (``tail``,
    `_value_tail`: the glue is lazy, so this is where the matcher put it). One search in C,
    where a test of each place in Python cost a table of 1,700 strings 30 µs each (npmrc's
    `_password` reads 64 characters of a table's cells for a value)."""
    found = tail.search(text, glue_start + 1, end)
    return None if found is None else found.start()


def _rule(
    rule_id: str,
    kind: str,
    regex: str,
    keywords: tuple[str, ...],
    check: Check,
    *,
    scope: int = IN_RUNS,
    run_test: Callable[[str], bool] | None = None,
    min_run: int = 0,
) -> Rule:
    """A shape with no fixed prefix, or a check that needs the text around the match
    (``min_run``: the shortest run of token characters a match fits in, for a keyword that
    shorter runs hold by the thousand)."""
    args = (regex, check)
    return Rule(rule_id, kind, keywords, scope, _as_parts, args, run_test, min_run)


def _as_parts(regex: str, check: Check) -> _Parts:
    return regex, check


# --- checks of a token's run ---------------------------------------------------------------------


def _sk_tail(tail: str) -> bool:
    if tail.startswith("ant-"):
        # Anthropic's: ant-api03- or ant-admin01-, 93 characters, and AA
        return _ANTHROPIC_TAIL.fullmatch(tail) is not None and not _masked(tail[-95:])
    body = re.sub(r"^(?:proj|svcacct|admin|None)-", "", tail)
    return len(body) >= 20 and _has_upper_or_unbroken(body) and (len(body) >= 32 or _complex(body))


def _sentry_tail(tail: str) -> bool:
    """A user token's 64 hex digits (sntryu_), or an organization token's (sntrys_): base64 of
    its claims (eyJ…), _ and a signature of 43."""
    if len(tail) == 64 and _hex_key(tail):
        return True
    claims, _, signature = tail.rpartition("_")
    return claims.startswith("eyJ") and "-" not in claims and len(signature) == 43


def _sourcegraph_tail(tail: str) -> bool:
    """40 hex digits, after a 16-digit id or "local" and _ (sgp_…_…) or alone."""
    head, _, key = tail.rpartition("_")
    if not (len(key) == 40 and _hexish(key)):
        return False
    return not head or head == "local" or (len(head) == 16 and _HEX.issuperset(head))


def _slack_tail(tail: str) -> bool:
    """What follows xox?- or xapp- as Slack issues it (gitleaks' shapes): a user token's three
    numbers and its key, a legacy token's numbers and hex digits, a bot token's two numbers (or
    one and a key), a configuration or an app token's digit and key (xoxe.xoxp-1-…,
    xapp-1-A0…-123-…), a legacy workspace token's key. xoxb-12345-abcd234, xoxp-1234567890,
    xoxp-1234-1234-1234-… and xoxe.xoxp-1-RANDOMSTRINGHERE are none."""
    parts = tail.split("-")
    numbers = list(takewhile(str.isdigit, parts))
    key = "-".join(parts[len(numbers) :])
    counted = numbers[1:] if numbers and len(numbers[0]) == 1 else numbers  # (xoxa-2-…)
    if len(counted) >= 4 and not key:
        counted, key = counted[:-1], counted[-1]  # (hex digits that happen to be decimal)
    if len(counted) >= 3:
        return all(len(n) >= 8 for n in counted) and len(key) >= 8 and _mixed_or_hex(key)
    if len(numbers) == 2 and all(8 <= len(n) <= 14 for n in numbers):
        return not key or (len(key) >= 18 and _complex(key))  # a bot's (xoxb-)
    if len(numbers) == 1 and 8 <= len(numbers[0]) <= 14:
        return 18 <= len(key) <= 26 and _complex(key)  # a legacy bot's
    if len(numbers) == 1 and len(numbers[0]) == 1 and len(key) >= 40:
        # a configuration token's (xoxe.xoxp-1-… and 163 more, xoxe-1-… and 146), an app's
        return _has_upper(key) and _ANY_DIGIT.search(key) is not None
    if len(numbers) <= 1 and all(len(n) == 1 for n in numbers):
        # a legacy workspace's (xoxa-2-…), not words (SlackAppConfigurationAccessTokenHere)
        return 8 <= len(key) <= 48 and _complex(key) and not _IDENTIFIER_LIKE.fullmatch(key)
    return False


def _mixed_or_hex(key: str) -> bool:
    return _mixed(key) or _HEX.issuperset(key.replace("-", ""))


_ANTHROPIC_TAIL = _lazy("ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{93}(?:AA)?")


def _braintree_tail(tail: str) -> bool:
    merchant, dollar, key = tail.partition("$")
    return bool(dollar) and len(merchant) == 16 and len(key) == 32 and _hex_key(key)


def _parts(*lengths: int, test: _Tail | None = None, sep: str = "-") -> _Tail:
    """A run made of parts of these lengths joined by ``sep`` (each passing ``test``)."""

    def check(tail: str) -> bool:
        parts = tail.split(sep)
        return [len(p) for p in parts] == list(lengths) and (
            test is None or all(test(p) for p in parts)
        )

    return check


def _bootstrap_token(tail: str) -> bool:
    """A bootstrap token's secret holds letters and digits; the documentation's is no token."""
    return _letters_digits(tail[7:]) and tail != "abcdef.0123456789abcdef"


def _mixed(tail: str) -> bool:
    """A generated key: letters and digits, and both cases (a base64 or base62 run)."""
    return bool(_ANY_DIGIT.search(tail)) and _both_cases(tail)


def _letters_digits(tail: str) -> bool:
    return bool(_ANY_DIGIT.search(tail)) and bool(_ANY_LETTER.search(tail))


def _hexish(tail: str) -> bool:
    """Hexadecimal digits with at least one letter and one digit (any case)."""
    return _hex_key(tail.lower())


def _clickup_tail(tail: str) -> bool:
    number, _, key = tail.partition("_")
    return 7 <= len(number) <= 9 and number.isdigit() and len(key) == 32 and _letters_digits(key)


def _uuid(value: str) -> bool:
    parts = value.split("-")
    return [len(p) for p in parts] == [8, 4, 4, 4, 12] and all(_HEX.issuperset(p) for p in parts)


_HEX = frozenset("0123456789abcdefABCDEF")
# The Google API keys Google ships in its own code and documentation (gitleaks' allowlist):
# public by design
_GOOGLE_PUBLIC_KEYS = frozenset(
    [
        "Syabcdefghijklmnopqrstuvwxyz1234567",
        "SyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
        "SyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
        "SyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
        "SyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
        "yDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
        "SyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
        "SyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
        "SyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
        "SyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
        "SyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
        "SyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
        "SyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
        "SyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
        "SyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
        "SyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
    ]
)


def _uuid_v4(value: str) -> bool:
    """A random UUID (version 4, RFC 9562 §5.4) in lower case: a key's, not a name's."""
    return _uuid(value) and value[14] == "4" and value[19] in "89ab" and value == value.lower()


def _adyen_tail(tail: str) -> bool:
    """Two base64 parts of 40 or more, joined by "-" (a third, shorter, may follow)."""
    parts = tail.split("-")
    return (
        2 <= len(parts) <= 3
        and all(len(p) >= 40 for p in parts[:2])
        and _mixed(parts[0])
        and _mixed(parts[1])
    )


def _one_of_lengths(*lengths: int, test: _Tail = _letters_digits) -> _Tail:
    return lambda value: len(value) in lengths and test(value)


# --- rules written as functions of a match ------------------------------------------------------


def _aws_key_id(text: str, start: int, end: int) -> Span | None:
    if end - start != 20 or not _left_ok(text, start, _WORD):
        return None
    if not _right_ok(text, end, _WORD) or _masked(text[start + 4 : end]):
        return None
    return start, end


def _azure_ad_secret(text: str, start: int, end: int) -> Span | None:
    # three characters, a digit, "Q~", then 31 to 34 more, the run standing alone (but for the
    # full stop of a sentence it ends, which its class holds)
    if text[end - 1] == "." and not 31 <= end - start - 6 <= 34:
        end -= 1
    if not _left_ok(text, start, _AZURE_AD) or not 31 <= end - start - 6 <= 34:
        return None
    return None if _masked(text[start + 6 : end]) else (start, end)


def _azure_identifiable_key(text: str, start: int, end: int) -> Span | None:
    """The key from its signature on: the characters its kind puts before the signature (all
    of them of its alphabet), and the key standing alone (no base64 character, "_" or "-" on
    either side)."""
    before, alphabet = _AZURE_SIGNATURES[text[start : start + 4]]
    head = start - before
    if head < 0 or text[head:start].strip(alphabet) or not _left_ok(text, head, _IN_BASE64):
        return None
    if not _right_ok(text, end, _IN_BASE64_OR_PADDING, head):
        return None
    return None if _masked(text[head:end]) else (head, end)


_BASE64_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE62_CHARACTERS = _BASE64_CHARACTERS[:62]
# signature -> how many characters stand before it, and of what alphabet (Microsoft's
# security-utilities, IdentifiableMetadata): the base64 of 32 bytes (44 characters), of 64
# (88), a Function's key (56, base64url), a Search or a Container Registry key (52), a
# common annotated key (84 or 88, base62 before its JQQJ9 signature)
_AZURE_SIGNATURES: dict[str, tuple[int, str]] = {
    **dict.fromkeys(("+ARm", "+AEh", "+ASb", "AIoT", "AzCa", "AZEG"), (33, _BASE64_CHARACTERS)),
    **dict.fromkeys(("+ASt", "ACDb", "+ABa", "+AMC", "APIM"), (76, _BASE64_CHARACTERS)),
    "AzFu": (44, _BASE62_CHARACTERS + "_-"),
    "AzSe": (42, _BASE62_CHARACTERS),
    "+ACR": (42, _BASE64_CHARACTERS),
    "JQQJ": (52, _BASE62_CHARACTERS),
}


_AZURE_AD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~.-")


def _facebook_token(text: str, start: int, end: int) -> Span | None:
    """Facebook (Meta) access tokens: EAA, a capital, then a long run of letters and digits
    (user, page and system-user tokens alike; EAAA is also Square's prefix, for 64 characters)."""
    run = text[start + 4 : end]
    if not _left_ok(text, start, _IN_BASE64) or not _right_ok(text, end, _IN_BASE64, start):
        return None  # a run inside base64 data (+ and / beside it), as binary blobs hold
    if _masked(run) or not 90 <= len(run) <= 512:
        return None
    return (start, end) if _mixed(run) else None


# what stands beside a run of letters and digits inside base64 data (a token's alphabet has
# neither + nor /)
_IN_BASE64 = _WORD_DASH | {"+", "/"}
_IN_BASE64_OR_PADDING = _IN_BASE64 | {"="}


def _maxmind(text: str, start: int, end: int) -> Span | None:
    """MaxMind license keys: 6 characters, _, 29 more, _mmk."""
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD_DASH):
        return None
    return (start, end) if _letters_digits(text[start : end - 4]) else None


def _nuget_password(text: str, start: int, end: int) -> Span | None:
    """nuget.config's packageSourceCredentials: <add key="ClearTextPassword" value="..." />
    (a "Password" key holds the same password encrypted for one machine's user: as secret),
    its quotes as written or escaped (the file quoted in a JSON string, a log line, code)."""
    at = text.index("value=", start, end) + 6
    # (escaped when any of its quotes is: its key's may be where the value's opening is not)
    escaped = '\\"' in text[start : at + 2]
    at += 2 if text.startswith("\\", at) else 1
    close = end - 2 if escaped and text.startswith("\\", end - 2) else end - 1
    value = text[at:close]
    if len(value) < 8 or value.startswith(("%", "$")) or _is_placeholder(value):
        return None  # %FEED_PASSWORD%, $(Password): a reference to where it is kept
    return (at, close) if _ANY_LETTER.search(value) else None


def _flutterwave(tail: str) -> bool:
    return bool(_FLUTTERWAVE.fullmatch(tail)) and _letters_digits(tail)


# (gitleaks reads letters to "h" in either case; the issuer's keys are hexadecimal)
_FLUTTERWAVE = _lazy(r"[0-9a-hA-H]{32}-X|[0-9a-hA-H]{12}")


def _facebook_app_token(text: str, start: int, end: int) -> Span | None:
    """app id|app secret (or |token): 15 or 16 digits, a bar (or %7C), 27 to 40 more."""
    bar = text.find("|", start, end)
    cut = bar + 1 if bar != -1 else start + text[start:end].lower().find("%7c") + 3
    if not _left_ok(text, start, _WORD_DASH) or not 27 <= end - cut <= 40:
        return None
    return (start, end) if _letters_digits(text[cut:end]) and not _masked(text[cut:end]) else None


def _mailgun_key(text: str, start: int, end: int) -> Span | None:
    """Mailgun's private API keys since 2020: 32 hexadecimal digits, then two groups of 8."""
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD_DASH):
        return None
    return (start, end) if _hex_key(text[start : start + 32]) else None


def _mailgun_run(run: str) -> bool:
    # a run of token characters that can hold one: a part of 32 or more between its dashes,
    # one of 8, one of 8 or more (a URN's UUID, 8-4-4-4-12, has none: no compile for it)
    if len(run) < 50 or run.count("-") < 2:
        return False
    parts = run.split("-")
    return any(
        len(parts[i]) >= 32 and len(parts[i + 1]) == 8 and len(parts[i + 2]) >= 8
        for i in range(len(parts) - 2)
    )


# Base58's alphabet (Bitcoin's): no 0, O, I or l
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_VALUES = {c: i for i, c in enumerate(_BASE58)}


def _base58check(encoded: str, size: int) -> bytes | None:
    """The payload of ``encoded``, Base58Check's (the payload, then the first four bytes of its
    double SHA-256), when it decodes to ``size`` bytes and its checksum holds; else None."""
    import hashlib  # (a key's shape matched: rare, and hashlib a module to load)

    number = 0
    for c in encoded:
        number = number * 58 + _BASE58_VALUES[c]
    if number.bit_length() > size * 8:
        return None
    raw = number.to_bytes(size, "big")
    payload, checksum = raw[:-4], raw[-4:]
    digest = hashlib.sha256(hashlib.sha256(payload).digest()).digest()
    return payload if digest[:4] == checksum else None


# BIP 32's extended private keys and their versions' prefixes: mainnet's xprv, testnet's tprv,
# BIP 49's and 84's yprv, zprv (and their testnets' uprv, vprv), multisig's Yprv, Zprv, Uprv, Vprv
_EXTENDED_PRIVATE_PREFIXES = (
    *("xprv", "tprv", "yprv", "zprv", "uprv", "vprv"),
    *("Yprv", "Zprv", "Uprv", "Vprv"),
)


def _extended_private_key(text: str, start: int, end: int) -> Span | None:
    """A BIP 32 extended private key: 78 bytes and their checksum in Base58 (111 characters),
    the key's data a zero byte and 32 bytes of key. The checksum holds for a key and for one
    in a thousand million other strings of its shape."""
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD_DASH):
        return None
    payload = _base58check(text[start:end], 82)
    return (start, end) if payload is not None and payload[45] == 0 else None


_HEX_LINE = _lazy("[0-9a-fA-F]{32}")
# A key's line break: as written or as JSON escapes it, the next line indented or not; or a
# space, the key's lines joined onto one
_KEY_LINE_BREAK = "(?:[ \\t]*(?:\\r?\\n|\\\\r?\\\\n)[ \\t]*|[ \\t]+)"


def _openvpn_static_key(text: str, start: int, end: int) -> Span | None:
    """The key's hex digits hold letters and digits (a documentation's "0000…" lines none)."""
    digits = "".join(_HEX_LINE.findall(text, start, end)).lower()
    return (start, end) if _hex_key(digits) else None


# A field's value in a Wi-Fi network's QR code (ZXing's WIFI: URI): any character but ";",
# a backslash escaping ";", ",", ":", '"' or itself
_WIFI_VALUE = r"(?:[^;\\\r\n]|\\[^\r\n])"
_WIFI_PASSWORD = _lazy(r"(?:^|;)P:(" + _WIFI_VALUE + r"{5,64})(?:;|$)")


def _wifi_password(text: str, start: int, end: int) -> Span | None:
    """The network's password, its P: field: 5 characters at least (WEP's shortest key; WPA
    takes 8 to 63), no placeholder ("P:password", "P:<your-password>", "P:********")."""
    fields = text[start + len("WIFI:") : end]  # (the match: some 600 characters at most)
    m = _WIFI_PASSWORD.search(fields)
    if m is None:
        return None
    value = m.group(1)
    if _is_placeholder(value) or _masked(value) or value.startswith(("<", "{", "$")):
        return None
    at = start + len("WIFI:")
    return at + m.start(1), at + m.end(1)


# minisign's and OpenBSD signify's secret key file: a comment line, then the key in base64 on
# the next (its line break as written or JSON-escaped); a public key's and a signature's files
# look alike, shorter. (Its padding, "=", is left out of the span: a line ending with one, then
# a line break, reads as quoted-printable's soft break, which joins the next line to the key.)
_SECRET_KEY_LINE = _lazy(r"RW[A-Za-z0-9+/]{130,220}")
# the length of each one's base64, unpadded, and what its bytes hold: minisign's 158, "Ed" (the
# signature's algorithm) then "B2" after the KDF's two; signify's 104, "Ed" then "BK"
_SECRET_KEY_LAYOUTS = ((211, 158, 4, b"B2"), (139, 104, 2, b"BK"))


def _signing_secret_key(text: str, start: int, end: int) -> Span | None:
    """The key's line, when it decodes to a secret key's layout."""
    line = _SECRET_KEY_LINE.search(text, start, end)
    if line is None:
        return None
    for length, size, at, mark in _SECRET_KEY_LAYOUTS:
        raw = _b64decode(line.group()[:length], text=False)
        if not isinstance(raw, bytes):
            continue
        if len(raw) == size and raw[:2] == b"Ed" and raw[at : at + 2] == mark:
            return line.start(), line.start() + length
    return None


def _mailchimp(text: str, start: int, end: int) -> Span | None:
    """32 hexadecimal digits, then the data centre: -us6, -us21."""
    if not _left_ok(text, start, _WORD_DASH) or end - start > 37:
        return None
    if not _right_ok(text, end, _WORD):
        return None
    return (start, end) if _ANY_LETTER.search(text, start, start + 32) else None


def _twitter_bearer(text: str, start: int, end: int) -> Span | None:
    """Twitter (X) app-only bearer tokens: a run of 20 or more "A", then letters, digits and
    percent escapes (the token is URL-encoded: %3D, %2B, %2F), about 110 characters."""
    if not _left_ok(text, start, _B64_PCT) or not 90 <= end - start <= 180:
        return None
    run = text[start:end].lstrip("A")
    has_escape = any(e in run for e in ("%3D", "%2B", "%2F", "%3d", "%2b", "%2f"))
    return (start, end) if has_escape and _letters_digits(run) else None


_B64_PCT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-%")


def _discord_bot(text: str, start: int, end: int) -> Span | None:
    """id.timestamp.hmac, the id being the bot's numeric user id in base64."""
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD_DASH):
        return None
    head, _, rest = text[start:end].partition(".")
    if not 27 <= len(rest) - 7 <= 38:
        return None
    user_id = _b64decode(head, urlsafe=True)
    return (
        (start, end) if user_id is not None and user_id.isdigit() and len(user_id) >= 17 else None
    )


def _telegram_bot(text: str, start: int, end: int) -> Span | None:
    """The bot's numeric id (5 to 16 digits), a colon, then 35 characters starting with A."""
    colon = text.index(":", start, end)
    # (in the Bot API's URL the id follows "/bot": https://api.telegram.org/bot<token>/getMe;
    # and a note writes the token so too, bot<token>, as the URL takes it)
    left = _left_ok(text, start, _WORD_DASH) or (
        text.endswith("bot", 0, start) and _left_ok(text, start - 3, _WORD_DASH)
    )
    if not left or end - colon - 1 != 35:
        return None
    return (start, end) if _complex(text[colon + 1 : end]) else None


def _doppler_service(text: str, start: int, end: int) -> Span | None:
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD):
        return None
    key = text[text.rindex(".", start, end) + 1 : end]
    return (start, end) if _letters_digits(key) and not _masked(key) else None


def _okta_ssws(text: str, start: int, end: int) -> Span | None:
    """The token after the scheme: 00, then 40 characters (the scheme itself withheld too)."""
    token = text[start + 4 : end].lstrip(" \t")
    if len(token) != 42 or not _left_ok(text, start, _WORD_DASH) or not _letters_digits(token):
        return None
    return start, end


def _new_relic_license(text: str, start: int, end: int) -> Span | None:
    """A New Relic license (ingest) key: 36 characters, then "NRAL", standing alone."""
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD):
        return None
    key = text[start : end - 4]
    return (start, end) if _letters_digits(key) and not _masked(key) else None


def _salesforce_token(text: str, start: int, end: int) -> Span | None:
    """A Salesforce session or access token: the organization's id (00D and 12 or 15
    characters), "!", and the token, standing alone."""
    if not _left_ok(text, start, _WORD_DASH):
        return None
    token = text[text.index("!", start) + 1 : end]
    return (start, end) if _mixed(token) and not _masked(token) else None


def _fcm_server_key(text: str, start: int, end: int) -> Span | None:
    """A Firebase Cloud Messaging server key (the legacy API's): AAAA and 7 characters, a
    colon, APA91b and 134 characters, standing alone."""
    if not _left_ok(text, start, _WORD_DASH) or not _right_ok(text, end, _WORD_DASH):
        return None
    return (start, end) if _mixed(text[start + 18 : end]) else None


def _underscored_mixed(tail: str) -> bool:
    """A key id, an underscore and a generated key (Pinecone's pcsk_<id>_<key>)."""
    return "_" in tail.strip("_") and _mixed(tail)


def _terraform(text: str, start: int, end: int) -> Span | None:
    """14 characters, ".atlasv1.", then 60 to 70 more."""
    if not _left_ok(text, start, _WORD_DASH) or not 60 <= end - start - 23 <= 70:
        return None
    if _masked(text[start : start + 14]) or _masked(text[start + 23 : end]):
        return None  # xxxxxxxxxxxxxx.atlasv1.xxxx…
    return start, end


def _webhook(text: str, start: int, end: int) -> Span | None:
    # the pattern holds the hook's path and its secret part; the whole URL is withheld
    return _url_start(text, start), end


def _bitwarden_token(text: str, start: int, end: int) -> Span | None:
    secret = text[start + 39 : start + 69]
    if not _left_ok(text, start, _WORD_DASH | {"."}) or not _mixed(secret):
        return None
    return start, end


def _function_key(text: str, start: int, end: int) -> Span | None:
    # the key is what follows the last code= (base64, its padding as written or %3D)
    key = text[start:end].rpartition("code=")[2]
    key = key.replace("%3D", "").replace("%3d", "").rstrip("=")
    if len(key) < 20 or not _letters_digits(key) or _masked(key) or _is_placeholder(key):
        return None
    return _webhook(text, start, end)


_URL_HEAD = _lazy(r"(?:[A-Za-z][A-Za-z0-9+.\-]{0,15}://)?[A-Za-z0-9.\-]{0,253}\Z")


def _url_start(text: str, start: int) -> int:
    """Back from a host name to the start of its URL, so redaction takes the whole URL."""
    head = _URL_HEAD.search(text[max(0, start - 270) : start])
    return start - len(head.group()) if head else start


def _jwt(text: str, start: int, end: int) -> Span | None:
    segments = text[start:end].split(".")
    # A detached JWS (empty payload) is a signature, not a bearer credential.
    if len(segments) < 3 or len(segments[1]) < 2 or not _left_ok(text, start, _WORD_DASH):
        return None
    header = _b64url_json(segments[0])
    if not isinstance(header, dict) or "alg" not in header:
        return None
    if header["alg"] == "none" and (len(segments) == 3 and not segments[2]):
        return None  # an Unsecured JWT (RFC 7519 §6): no signature, so anyone can make one
    return start, end


def _b64url_json(segment: str) -> object:
    if len(segment) > 4096:
        return None
    raw = _b64decode(segment, urlsafe=True, text=False)
    if raw is None:
        return None
    import json  # only for a text that holds a JWT's shape

    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


def _b64decode(data: str, *, urlsafe: bool = False, text: bool = True) -> str | bytes | None:
    """``data`` decoded from base64 (padding optional), as text when ``text``; None when it
    is not base64 (or not UTF-8 text)."""
    import binascii  # only for a text that holds something to decode

    blob = data.encode("ascii", "replace")
    if urlsafe:
        blob = blob.translate(_URLSAFE)
    try:
        raw = binascii.a2b_base64(blob + b"=" * (-len(blob) % 4), strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    if not text:
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


_URLSAFE = bytes.maketrans(b"-_", b"+/")


def _bearer(text: str, start: int, end: int) -> Span | None:
    token_start = start + 6
    while text[token_start] in " \t":
        token_start += 1
    if _left_ok(text, start, _WORD) and _plausible_token(text[token_start:end]):
        return token_start, end
    return None


def _basic(text: str, start: int, end: int) -> Span | None:
    token_start = start + 5
    while text[token_start] in " \t":
        token_start += 1
    token = text[token_start:end]
    if not _left_ok(text, start, _WORD) or len(token) % 4 or len(token) < 8:
        return None
    decoded = _b64decode(token)
    if isinstance(decoded, str) and ":" in decoded and decoded.isprintable() and len(decoded) >= 3:
        return token_start, end
    return None


def _npm_auth(value: str) -> bool:
    """.npmrc's _auth: base64 of user:password."""
    decoded = _b64decode(value)
    return isinstance(decoded, str) and ":" in decoded.strip(":") and decoded.isprintable()


def _npm_token(value: str) -> bool:
    """.npmrc's _authToken: a legacy UUID, an npm_ token, or another registry's random token."""
    return _uuid(value) or (len(value) >= 20 and _random_looking(value))


def _base64_secret(value: str) -> bool:
    """A password or a key as base64 (.npmrc's _password): decodes, looks generated."""
    return _b64decode(value) is not None and _random_looking(value)


# --- the rules --------------------------------------------------------------------------------

_A = "A-Za-z0-9"  # the classes of most tokens
_AU = "A-Za-z0-9_\\-"  # ... base64url
_B64 = "A-Za-z0-9+/="
_HX = "a-f0-9"
_UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

RULES: tuple[Rule, ...] = (
    # --- cloud providers
    _rule(
        "aws-access-token",
        AWS_KEY_ID,
        "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16,}",
        ("A3T", "AKIA", "ASIA", "ABIA", "ACCA"),
        _aws_key_id,
    ),
    _pair(
        "aws-secret-beside-key-id",
        AWS_SECRET,
        "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",
        20,
        ("A3T", "AKIA", "ASIA", "ABIA", "ACCA"),
        lambda head: not _masked(head[4:]),
        "[A-Za-z0-9/+]{40,}",
        (40, 40),
        _mixed,
    ),
    _keyword(
        "aws-secret-access-key", AWS_SECRET, ["aws"], "[A-Za-z0-9/+]{40,}", (40, 40), check=_mixed
    ),
    # an STS session token's base64 starts with the same bytes (the newer "IQoJb3JpZ2luX2Vj",
    # the older "FwoGZXIvYXdz"), then runs for hundreds of characters
    _token(
        "aws-session-token",
        AWS_SESSION,
        ["IQoJb3JpZ2luX2Vj", "FwoGZXIvYXdz"],
        _B64 + "=",
        (100, 4096),
        check=_mixed,
    ),
    _token("aws-amazon-bedrock-api-key-long-lived", AWS_BEDROCK, ["ABSK"], _B64, (100, 300)),
    _token(
        "aws-amazon-bedrock-api-key-short-lived",
        AWS_BEDROCK,
        ["bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"],
        _B64 + "%&_\\-",
        (20, 4096),
    ),
    # (a Google API key is 39 characters; the public ones Google ships in its own code and
    # documentation, which gitleaks allows, are none)
    _token(
        "gcp-api-key",
        GOOGLE_API_KEY,
        ["AIza"],
        _AU,
        (35, 35),
        check=lambda t: t not in _GOOGLE_PUBLIC_KEYS,
    ),
    _token("google-oauth-token", GOOGLE_OAUTH, ["ya29."], _AU, (20, 4096)),
    _token("google-client-secret", GOOGLE_CLIENT_SECRET, ["GOCSPX-"], _AU, (20, 64)),
    _token(
        "google-refresh-token",
        GOOGLE_REFRESH,
        ["1//0"],
        _AU,
        (38, 512),
        boundary=_WORD_DASH | {"/"},
        check=_complex,
    ),
    _rule(
        "azure-ad-client-secret",
        AZURE_CLIENT_SECRET,
        "[A-Za-z0-9_~.\\-]{3}[0-9]Q~[A-Za-z0-9_~.\\-]{31,}",
        ("Q~",),
        _azure_ad_secret,
    ),
    # Azure's identifiable keys, as Microsoft's security-utilities documents them: the base64
    # of 32 or 64 random bytes with a service's signature at a fixed place (Service Bus,
    # Event Hubs, Relay, IoT, Cache for Redis, Event Grid; Storage, Cosmos DB, Batch, Machine
    # Learning, API Management), a Function's key (AzFu), a Search key (AzSe), a Container
    # Registry's (+ACR), and the common annotated keys of Azure AI services, Azure OpenAI,
    # Maps and Azure DevOps's PATs (JQQJ9 at the 53rd character, 84 or 88 in all)
    _rule(
        "azure-identifiable-key",
        AZURE_KEY,
        # (from the signature on: the characters before it are read by the check, as `re`
        # would try the whole pattern at every character of a long run)
        "(?:\\+ARm|\\+AEh|\\+ASb|AIoT|AzCa|AZEG)[A-P][A-Za-z0-9+/]{5}="
        "|(?:\\+ASt|ACDb|\\+ABa|\\+AMC|APIM)[A-Za-z0-9+/]{5}[AQgw]=="
        "|AzFu[A-Za-z0-9_\\-]{5}[AQgw]=="
        "|(?:AzSe|\\+ACR)[A-D][A-Za-z0-9+/]{5}"
        "|JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?",
        tuple(_AZURE_SIGNATURES),
        _azure_identifiable_key,
    ),
    _keyword(
        "azure-storage-account-key",
        AZURE_ACCOUNT_KEY,
        [
            "azure",
            "accountkey",
            "account_key",
            "account-key",
            "account key",
            "accountname",
            "account_name",
            "account-name",
            "account name",
            "storage account",
            "storage_account",
            "storageaccount",
            "key1",
            "key2",
            "primary key",
            "secondary key",
        ],
        *_AZURE_ACCOUNT_KEY_SHAPE,
        word=False,
        check=_mixed,
        next_line=True,  # AccountName=acme, the key on the line after: 88 characters, "=="
    ),
    # ... beside the account's name or its endpoint, a key's word between (account: acme, then
    # key: … on the next line; https://acme.blob.core.windows.net key=…)
    _keyword(
        "azure-storage-account-key-beside-account",
        AZURE_ACCOUNT_KEY,
        ["account", "core.windows.net"],
        *_AZURE_ACCOUNT_KEY_SHAPE,
        check=_mixed,
        next_line=True,
        labelled=True,
    ),
    _token("alibaba-access-key-id", ALIBABA, ["LTAI"], _A, (12, 30), check=_random_looking),
    _keyword("alibaba-secret-key", SERVICE_KEY, ["alibaba"], "[A-Za-z0-9]{30,}", (30, 30)),
    # (hexadecimal in either case, as gitleaks reads these issuers' tokens: a value that went
    # through something that changed its case is the same credential)
    _token(
        "digitalocean-token",
        DIGITALOCEAN,
        ["dop_v1_", "doo_v1_", "dor_v1_"],
        _HX + "A-F",
        (64, 64),
        check=_hexish,
    ),
    _token("heroku-api-key-v2", HEROKU, ["HRKU-AA"], _AU, (58, 58)),
    _keyword("heroku-api-key", HEROKU, ["heroku"], _UUID, (36, 36), check=_uuid),
    _token("flyio-access-token", PREFIXED, ["fo1_"], _AU, (43, 43)),
    _token("flyio-macaroon", PREFIXED, ["fm1a_", "fm1r_", "fm2_"], _B64, (100, 4096)),
    _keyword(
        "cloudflare-api-key",
        SERVICE_KEY,
        ["cloudflare", "cf_api"],
        "[A-Za-z0-9_\\-]{37,}",
        (37, 40),
    ),
    _token(
        "cloudflare-origin-ca-key",
        CLOUDFLARE_CA,
        ["v1.0-"],
        "0-9a-f\\-",
        (171, 171),
        check=_parts(24, 146),
    ),
    _token("scalingo-api-token", PREFIXED, ["tk-us-"], _AU, (48, 48)),
    _keyword("yandex-api-key", SERVICE_KEY, ["yandex"], "AQVN[A-Za-z0-9_\\-]{35,}", (39, 42)),
    _keyword(
        "yandex-aws-access-token", SERVICE_KEY, ["yandex"], "YC[A-Za-z0-9_\\-]{38,}", (40, 40)
    ),
    _keyword(
        "yandex-access-token",
        SERVICE_KEY,
        ["yandex"],
        "t1\\.[A-Za-z0-9_\\-.]{90,}={0,2}",
        (93, 300),
    ),
    # --- source hosting, CI, registries
    _token("github-token", GITHUB, ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], _A, (30, 255)),
    _token("github-fine-grained-pat", GITHUB, ["github_pat_"], _A + "_", (22, 255)),
    _token(
        "gitlab-token",
        GITLAB,
        [
            f"gl{p}-"
            for p in [
                "pat",
                "dt",
                "rtr",
                "rt",
                "cbt",
                "ptt",
                "ft",
                "imt",
                "agent",
                "oas",
                "soat",
                "ffct",
                "wt",
            ]
        ],
        _AU + ".",
        (20, 300),
        strip=".",
    ),
    _token("gitlab-runner-registration-token", GITLAB, ["GR1348941"], _AU, (20, 255)),
    _token(
        "gitlab-session-cookie",
        GITLAB,
        ["_gitlab_session="],
        "0-9a-z",
        (32, 32),
        boundary=frozenset(),
        check=_letters_digits,
    ),
    _token("bitbucket-app-password", ATLASSIAN, ["ATBB"], _A, (28, 64), check=_mixed),
    _keyword(
        "bitbucket-client-secret",
        SERVICE_KEY,
        ["bitbucket"],
        "[A-Za-z0-9_\\-]{62,}={0,2}",
        (64, 64),
    ),
    _token("atlassian-api-token", ATLASSIAN, ["ATATT3", "ATCTT3"], _AU + "=", (100, 512)),
    _keyword(
        "atlassian-api-token-legacy",
        ATLASSIAN,
        ["atlassian", "confluence", "jira"],
        "[A-Za-z0-9]{24,}",
        (24, 24),
        check=_mixed,
    ),
    _token("npm-access-token", NPM, ["npm_"], _A, (30, 64)),
    _keyword(
        "npmrc-auth",
        NPMRC,
        ["_auth", "npmauthident"],
        "[A-Za-z0-9+/]{8,}={0,2}",
        (8, 1024),
        word=False,
        check=_npm_auth,
    ),
    _keyword(
        "npmrc-auth-token",
        NPMRC,
        ["_authtoken", "npmauthtoken", "node_auth_token", "npm_token"],
        "[A-Za-z0-9_\\-.]{20,}={0,2}",
        (20, 4096),
        word=False,
        check=_npm_token,
    ),
    _keyword(
        "npmrc-password",
        NPMRC,
        ["_password"],
        "[A-Za-z0-9+/]{8,}={0,2}",
        (8, 1024),
        word=False,
        check=_base64_secret,
        # (an .npmrc's setting: "=" after it, where a CSV's row or a list pairs it with its
        # next word, each a check in Python)
        glue=r"[\t ]*=[\t ]*[\"']?",
    ),
    _token("pypi-upload-token", PYPI, ["pypi-"], _AU, (40, 1024), check=_has_upper_or_unbroken),
    _token("rubygems-api-token", RUBYGEMS, ["rubygems_"], "0-9a-z", (48, 48), check=_hex_key),
    _token("clojars-api-token", PREFIXED, ["CLOJARS_"], _A, (60, 60), check=_letters_digits),
    _token("nuget-api-key", PREFIXED, ["oy2"], "a-z0-9", (43, 43), check=_letters_digits),
    _token(
        "docker-hub-token", DOCKER_HUB, ["dckr_pat_", "dckr_oat_"], _AU, (24, 64), check=_complex
    ),
    _token("jfrog-api-key", ARTIFACTORY, ["AKCp"], _A, (60, 80), check=_random_looking),
    _token("jfrog-reference-token", ARTIFACTORY, ["cmVmd"], _A, (59, 59), check=_random_looking),
    _keyword(
        "jfrog-identity-token",
        ARTIFACTORY,
        ["jfrog", "artifactory", "bintray", "xray"],
        "[A-Za-z0-9]{64,}",
        (64, 73),
        check=_one_of_lengths(64, 73),
    ),
    _keyword("droneci-access-token", SERVICE_KEY, ["drone"], "[A-Za-z0-9]{32,}", (32, 32)),
    _keyword("travisci-access-token", SERVICE_KEY, ["travis"], "[A-Za-z0-9]{22,}", (22, 22)),
    _keyword("codecov-access-token", SERVICE_KEY, ["codecov"], "[a-f0-9\\-]{32,}", (32, 36)),
    _token(
        "sonar-api-token", PREFIXED, ["squ_", "sqp_", "sqa_"], "a-f0-9", (40, 40), check=_hex_key
    ),
    # SonarQube's token before it was prefixed (40 hex digits), as its scanner takes it:
    # sonar.login (or sonar.token) as a property, -Dsonar.login=…, sonarLogin in a build script
    _keyword(
        "sonar-login-token",
        SERVICE_KEY,
        [
            "sonar.login",
            "sonar.token",
            "-dsonar.login",
            "-dsonar.token",
            "sonarlogin",
            "sonar_login",
        ],
        "[a-f0-9]{40,}",
        (40, 40),
        word=False,
        check=_hex_key,
    ),
    _token(
        "sourcegraph-access-token",
        PREFIXED,
        ["sgp_"],
        "A-Za-z0-9_",
        (40, 62),
        check=_sourcegraph_tail,
    ),
    # (its legacy token beside its name: 40 hex digits of both cases, as no git SHA is)
    _keyword(
        "sourcegraph-access-token-legacy",
        SERVICE_KEY,
        ["sourcegraph"],
        "[a-fA-F0-9]{40,}",
        (40, 40),
        word=False,
        check=lambda v: _hexish(v) and _both_cases(v),
    ),
    _keyword("snyk-api-token", SERVICE_KEY, ["snyk"], _UUID, (36, 36), check=_uuid),
    _token("octopus-deploy-api-key", PREFIXED, ["API-"], "A-Z0-9", (26, 26), check=_letters_digits),
    _token(
        "harness-api-key",
        PREFIXED,
        ["pat.", "sat."],
        _AU + ".",
        (66, 80),
        check=_parts(22, 24, 20, sep="."),
    ),
    _token("infracost-api-token", PREFIXED, ["ico-"], _A, (32, 32), check=_mixed),
    _token("prefect-api-token", PREFIXED, ["pnu_"], _A, (36, 36), check=_letters_digits),
    _token("readme-api-token", PREFIXED, ["rdme_"], _A, (70, 70), check=_letters_digits),
    _token("pulumi-api-token", PULUMI, ["pul-"], _A, (40, 40), check=_hex_key),
    _token("hashicorp-vault-token", VAULT, ["hvs.", "hvb."], _AU, (24, 512)),
    # (no credential's word needed: "vault login s.…" is how the token is given, and the "s."
    # of 24 mixed characters beside "vault" is no id)
    # a Vault unseal key (a share of its root key: 44 base64 characters), as `vault operator
    # init` prints it ("Unseal Key 1: …") and `vault operator unseal` takes it
    _keyword(
        "vault-unseal-key",
        VAULT_UNSEAL,
        ["unseal"],
        "[A-Za-z0-9+/]{44,}",
        (44, 44),
        word=False,
        check=_mixed,
    ),
    # a Kubernetes bootstrap token (kubeadm join … --token, a BOOTSTRAP_TOKEN): its id, a dot,
    # its secret, lower-case letters and digits (but the documentation's abcdef.0123456789abcdef)
    _keyword(
        "kubernetes-bootstrap-token",
        KUBERNETES_BOOTSTRAP,
        ["token", "bootstrap"],
        "[a-z0-9]{6}\\.[a-z0-9]{16,}",
        (23, 23),
        word=False,
        check=_bootstrap_token,
    ),
    _keyword(
        "vault-legacy-token",
        VAULT,
        ["vault"],
        "s\\.[A-Za-z0-9]{24,}",
        (26, 26),
        word=False,
        check=_mixed,
    ),
    # ... and alone, as gitleaks' vault-service-token reads one: "s." and 24 letters and digits
    # of both cases, a word's start before it and no token's character after it but a
    # sentence's stop or a query's separator (a dotted name's "o.s.DefaultListableBeanFactory",
    # a member's "s.getElementsByTagName": none)
    _token(
        "vault-service-token-legacy",
        VAULT,
        ["s."],
        "A-Za-z0-9",
        (24, 24),
        boundary=_WORD_DASH | {"."},
        right=_WORD_DASH | frozenset("/+=:@%~$*\\"),
        check=_mixed,
    ),
    _rule(
        "hashicorp-tf-api-token",
        TERRAFORM,
        "[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=\\-]{60,}",
        ("atlasv1",),
        _terraform,
    ),
    _token(
        "doppler-api-token",
        DOPPLER,
        [f"dp.{k}." for k in ("pt", "st", "ct", "sa", "scim", "audit")],
        _A,
        (40, 64),
    ),
    # a service token names its environment or config: dp.st.prd.<40 or more>
    _rule(
        "doppler-service-token",
        DOPPLER,
        "dp\\.st\\.[a-z0-9_\\-]{1,64}\\.[A-Za-z0-9]{40,64}",
        ("dp.st.",),
        _doppler_service,
    ),
    _token("1password-service-account-token", ONEPASSWORD, ["ops_eyJ"], _B64, (250, 8192)),
    _token(
        "1password-secret-key",
        ONEPASSWORD,
        ["A3-"],
        "A-Z0-9\\-",
        (36, 37),
        check=lambda t: (
            [len(p) for p in t.split("-")] in ([6, 11, 5, 5, 5], [6, 6, 5, 5, 5, 5])
            and _letters_digits(t)
        ),
    ),
    _token("age-secret-key", AGE_KEY, ["AGE-SECRET-KEY-1"], "0-9A-Z", (50, 70)),
    _token(
        "defined-networking-api-token",
        PREFIXED,
        ["dnkey-"],
        _AU,
        (79, 79),
        check=lambda t: t[26] == "-",
    ),
    # --- collaboration, messaging
    _token(
        "slack-token",
        SLACK,
        # (a configuration token's xoxe. is part of it)
        [f"xox{c}-" for c in "abprse"] + ["xapp-", "xoxe.xoxp-", "xoxe.xoxb-"],
        "A-Za-z0-9\\-",
        (10, 255),
        check=_slack_tail,
    ),
    _token(
        "slack-legacy-token",
        SLACK,
        ["xoxo-"],
        "0-9a-fA-F\\-",
        (20, 255),
        check=lambda t: len(t.split("-")) >= 4 and all(p.isdigit() for p in t.split("-")[:3]),
    ),
    _rule(
        "slack-webhook-url",
        SLACK_WEBHOOK,
        "hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\\-]{16,}",
        ("hooks.slack.com",),
        _webhook,
    ),
    _rule(
        "discord-webhook-url",
        WEBHOOK,
        "discord(?:app)?\\.com/api/webhooks/[0-9]+/[A-Za-z0-9_\\-]{20,}",
        ("discord",),
        _webhook,
    ),
    _rule(
        "microsoft-teams-webhook",
        WEBHOOK,
        # (and Office 365's older address of the same connectors, outlook.office.com/webhook/)
        "(?:\\.webhook\\.office\\.com/webhookb2/|outlook\\.office\\.com/webhook/)"
        "[^ \\t\\r\\n\"'<>\\\\]{20,}",
        ("webhook.office.com", "outlook.office.com/webhook/"),
        _webhook,
    ),
    _rule(
        "discord-bot-token",
        DISCORD,
        "[MNO][A-Za-z0-9_\\-]{22,26}\\.[A-Za-z0-9_\\-]{6}\\.[A-Za-z0-9_\\-]{27,}",
        # base64 of the id's digits starts with one of these twelve pairs (0x30-0x39 >> 2 is
        # M, N or O; then D, T, j or z)
        tuple(a + b for a in "MNO" for b in "DTjz"),
        _discord_bot,
    ),
    _keyword(
        "discord-client-secret",
        SERVICE_KEY,
        ["discord"],
        "[A-Za-z0-9_\\-]{32,}={0,2}",
        (32, 64),
        check=_one_of_lengths(32, 64),
    ),
    _rule(
        "telegram-bot-api-token",
        TELEGRAM,
        "[0-9]{5,16}:A[A-Za-z0-9_\\-]{34,}",
        (":A",),
        _telegram_bot,
    ),
    _token("twilio-api-key", TWILIO, ["SK"], _A, (32, 32), check=_hexish),
    _pair(
        "twilio-account-sid-and-auth-token",
        TWILIO_AUTH,
        "AC[0-9a-f]{32}",
        34,
        ("AC",),
        lambda head: _hex_key(head[2:]),
        "[0-9a-f]{32,}",
        (32, 32),
        _hex_key,
    ),
    _keyword(
        "twilio-auth-token", TWILIO_AUTH, ["twilio"], "[0-9a-f]{32,}", (32, 32), check=_hex_key
    ),
    _token(
        "sendgrid-api-token",
        SENDGRID,
        ["SG."],
        _AU + ".",
        (33, 128),
        strip=".",
        # its two parts (22 and 43), or 66 characters in one as gitleaks reads it
        check=lambda t: (
            [len(p) >= 16 for p in t.split(".")] == [True, True] or (len(t) == 66 and _mixed(t))
        ),
    ),
    _token(
        "sendinblue-api-token",
        SENDINBLUE,
        ["xkeysib-"],
        _A + "\\-",
        (81, 81),
        check=lambda t: len(t.partition("-")[0]) == 64 and _hexish(t.partition("-")[0]),
    ),
    _token("mailgun-private-api-token", MAILGUN, ["key-"], _A, (32, 32), check=_hex_key),
    _rule(
        "mailgun-api-key",
        MAILGUN,
        "[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}",
        (),
        _mailgun_key,
        run_test=_mailgun_run,
    ),
    _keyword(
        "mailgun-signing-key", MAILGUN, ["mailgun"], "[0-9a-f]{32,}", (32, 32), check=_hex_key
    ),
    _rule("mailchimp-api-key", MAILCHIMP, "[0-9a-f]{32}-us[0-9]{1,2}", ("-us",), _mailchimp),
    # OpenVPN's static key (tls-auth, tls-crypt, --secret): 2048 bits as 16 lines of 32 hex
    # digits between its armour, its line breaks as written or as JSON escapes them
    _rule(
        "openvpn-static-key",
        OPENVPN,
        "-----BEGIN OpenVPN Static key V1-----"
        f"(?:{_KEY_LINE_BREAK}[0-9a-fA-F]{{32}}){{2,16}}"
        f"(?:{_KEY_LINE_BREAK}-----END OpenVPN Static key V1-----)?",
        ("-----BEGIN OpenVPN Static key",),
        _openvpn_static_key,
        scope=ANYWHERE,
    ),
    # minisign's and signify's secret key file: its comment line, then the key
    _rule(
        "minisign-signify-secret-key",
        SIGNING_KEY,
        "untrusted comment: [^\\r\\n]{0,128}(?:\\r?\\n|\\\\r?\\\\n)[ \\t]*RW[A-Za-z0-9+/]{130,220}",
        ("untrusted comment:",),
        _signing_secret_key,
        scope=ANYWHERE,
    ),
    # a Wi-Fi network's QR code (ZXing's WIFI: URI, which phones read and print): its fields in
    # any order, T: the security, S: the network's name, P: its password, H: hidden
    _rule(
        "wifi-qr-code-password",
        WIFI,
        f"WIFI:(?:[A-Za-z]{{1,3}}:{_WIFI_VALUE}{{0,64}};){{0,8}}P:{_WIFI_VALUE}{{5,64}}",
        ("WIFI:",),
        _wifi_password,
        scope=ANYWHERE,
    ),
    # a wallet's key: BIP 32's extended private key, its Base58Check checksum verified
    _rule(
        "bip32-extended-private-key",
        EXTENDED_PRIVATE_KEY,
        f"(?:{'|'.join(_EXTENDED_PRIVATE_PREFIXES)})[{_BASE58}]{{107}}",
        _EXTENDED_PRIVATE_PREFIXES,
        _extended_private_key,
    ),
    # Mailchimp Transactional (Mandrill): md- and 22 base64url characters
    _token("mailchimp-transactional-api-key", MAILCHIMP, ["md-"], _AU, (22, 22), check=_mixed),
    _keyword("mattermost-access-token", SERVICE_KEY, ["mattermost"], "[A-Za-z0-9]{26,}", (26, 26)),
    _keyword(
        "messagebird-api-token",
        SERVICE_KEY,
        ["messagebird", "message_bird", "message-bird"],
        "[A-Za-z0-9]{25,}",
        (25, 25),
    ),
    _keyword("gitter-access-token", SERVICE_KEY, ["gitter"], "[A-Za-z0-9_\\-]{40,}", (40, 40)),
    _keyword("intercom-api-key", SERVICE_KEY, ["intercom"], "[A-Za-z0-9_\\-]{58,}={0,2}", (59, 60)),
    _keyword(
        "sendbird-access-token",
        SERVICE_KEY,
        ["sendbird"],
        "[a-f0-9]{40,}",
        (40, 40),
        check=_hex_key,
    ),
    _keyword("zendesk-secret-key", SERVICE_KEY, ["zendesk"], "[A-Za-z0-9]{40,}", (40, 40)),
    _keyword("freshbooks-access-token", SERVICE_KEY, ["freshbooks"], "[A-Za-z0-9]{64,}", (64, 64)),
    _keyword("asana-client-secret", SERVICE_KEY, ["asana"], "[A-Za-z0-9]{32,}", (32, 32)),
    _token(
        "asana-personal-access-token",
        PREFIXED,
        ["1/", "2/"],
        "0-9a-f:/",
        (40, 80),
        boundary=_WORD_DASH | {"/"},
        check=lambda t: (
            ":" in t and _hexish(t.rpartition(":")[2]) and len(t.rpartition(":")[2]) == 32
        ),
    ),
    _token("linear-api-key", LINEAR, ["lin_api_"], _A, (32, 64)),
    _keyword("linear-client-secret", LINEAR, ["linear"], "[a-f0-9]{32,}", (32, 32), check=_hex_key),
    _token("notion-api-token", PREFIXED, ["ntn_"], _A, (46, 46), check=_letters_digits),
    _token("notion-integration-secret", PREFIXED, ["secret_"], _A, (43, 43), check=_mixed),
    _token("typeform-api-token", PREFIXED, ["tfp_"], _AU + ".=", (59, 59), check=_letters_digits),
    _token("contentful-personal-access-token", PREFIXED, ["CFPAT-"], _AU, (43, 43)),
    _keyword(
        "contentful-delivery-api-token",
        SERVICE_KEY,
        ["contentful"],
        "[A-Za-z0-9_\\-]{42,}={0,1}",
        (43, 43),
    ),
    _token("postman-api-token", POSTMAN, ["PMAK-"], "a-fA-F0-9\\-", (59, 59), check=_parts(24, 34)),
    _token(
        "airtable-personal-access-token",
        PREFIXED,
        ["pat"],
        _A + ".",
        (79, 79),
        check=lambda t: _parts(14, 64, sep=".")(t) and _hexish(t[15:]),
    ),
    _keyword("airtable-api-key", SERVICE_KEY, ["airtable"], "key[A-Za-z0-9]{14,}", (17, 17)),
    _token(
        "figma-personal-access-token", PREFIXED, ["figd_"], _AU, (40, 64), check=_letters_digits
    ),
    _token("frameio-api-token", PREFIXED, ["fio-u-"], _AU + "=", (64, 64)),
    _keyword("adafruit-api-key", SERVICE_KEY, ["adafruit"], "[A-Za-z0-9_\\-]{32,}", (32, 32)),
    _token("adafruit-io-key", PREFIXED, ["aio_"], _A, (28, 28), check=_mixed),
    _token("adobe-client-secret", PREFIXED, ["p8e-"], _A, (32, 32), check=_letters_digits),
    _keyword(
        "dropbox-api-token",
        SERVICE_KEY,
        ["dropbox"],
        "sl\\.[A-Za-z0-9_\\-]{130,}={0,2}",
        (133, 1400),
    ),
    # ... and with no name beside it: Dropbox's short-lived token is distinct enough alone
    # ("sl." or "sl.u." and 130 characters or more of base64url, as the API's OAuth flow and its
    # App Console hand it out)
    _token(
        "dropbox-short-lived-token",
        PREFIXED,
        ["sl.u.", "sl."],
        _AU,
        (130, 1400),
        check=_mixed,
    ),
    _keyword(
        "dropbox-long-lived-api-token",
        SERVICE_KEY,
        ["dropbox"],
        "[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_\\-]{42,}={0,1}",
        (64, 64),
    ),
    _keyword(
        "linkedin-client-secret",
        SERVICE_KEY,
        ["linkedin", "linked_in", "linked-in"],
        "[A-Za-z0-9]{16,}",
        (16, 16),
        check=_mixed,
    ),
    _keyword("looker-client-secret", SERVICE_KEY, ["looker"], "[A-Za-z0-9]{24,}", (24, 24)),
    _keyword(
        "nytimes-access-token",
        SERVICE_KEY,
        ["nytimes", "new-york-times", "newyorktimes"],
        "[A-Za-z0-9_\\-]{31,}={0,1}",
        (32, 32),
    ),
    _keyword("twitch-api-token", SERVICE_KEY, ["twitch"], "[A-Za-z0-9]{30,}", (30, 30)),
    _keyword("etsy-access-token", SERVICE_KEY, ["etsy"], "[A-Za-z0-9]{24,}", (24, 24)),
    _keyword("flickr-access-token", SERVICE_KEY, ["flickr"], "[A-Za-z0-9]{32,}", (32, 32)),
    _keyword("beamer-api-token", SERVICE_KEY, ["beamer"], "b_[A-Za-z0-9_\\-]{43,}={0,1}", (46, 46)),
    _keyword(
        "squarespace-access-token", SERVICE_KEY, ["squarespace"], _UUID, (36, 36), check=_uuid
    ),
    _keyword("hubspot-api-key", SERVICE_KEY, ["hubspot"], _UUID, (36, 36), check=_uuid),
    _token(
        "hubspot-private-app-token",
        PREFIXED,
        ["pat-na1-", "pat-eu1-"],
        "a-f0-9\\-",
        (36, 36),
        check=_uuid,
    ),
    _keyword(
        "launchdarkly-access-token", SERVICE_KEY, ["launchdarkly"], "(?:api|sdk)-" + _UUID, (40, 40)
    ),
    _keyword(
        "plaid-api-token",
        SERVICE_KEY,
        ["plaid"],
        "access-(?:sandbox|development|production)-" + _UUID,
        (43, 60),
    ),
    _keyword("plaid-secret-key", SERVICE_KEY, ["plaid"], "[A-Za-z0-9]{30,}", (30, 30)),
    _keyword(
        "okta-access-token",
        OKTA,
        ["okta"],
        "00[A-Za-z0-9_\\-]{40,}",
        (42, 42),
        word=False,
        check=_letters_digits,
    ),
    # the scheme Okta's API takes its tokens in: Authorization: SSWS 00…
    _rule(
        "okta-ssws-token",
        OKTA,
        "SSWS[ \\t]+00[A-Za-z0-9_\\-]{40,}",
        ("SSWS",),
        _okta_ssws,
        scope=ANYWHERE,
    ),
    _keyword("sumologic-access-token", SERVICE_KEY, ["sumo"], "[A-Za-z0-9]{64,}", (64, 64)),
    _keyword(
        "privateai-api-token",
        SERVICE_KEY,
        ["privateai", "private_ai", "private-ai"],
        "[A-Za-z0-9]{32,}",
        (32, 32),
    ),
    _keyword("rapidapi-access-token", SERVICE_KEY, ["rapidapi"], "[A-Za-z0-9_\\-]{50,}", (50, 50)),
    _keyword(
        "cohere-api-token",
        SERVICE_KEY,
        ["cohere", "co_api_key"],
        "[A-Za-z0-9]{40,}",
        (40, 40),
        check=_mixed,
    ),
    _keyword("algolia-api-key", SERVICE_KEY, ["algolia"], "[A-Za-z0-9]{32,}", (32, 32)),
    _keyword("fastly-api-token", SERVICE_KEY, ["fastly"], "[A-Za-z0-9_\\-]{31,}={0,1}", (32, 32)),
    _keyword("meraki-api-key", SERVICE_KEY, ["meraki"], "[0-9a-f]{40,}", (40, 40), check=_hex_key),
    _keyword(
        "netlify-access-token", SERVICE_KEY, ["netlify"], "[A-Za-z0-9_\\-]{40,}={0,2}", (40, 46)
    ),
    _token(
        "netlify-personal-access-token", PREFIXED, ["nfp_"], _A, (36, 40), check=_letters_digits
    ),
    _keyword(
        "datadog-access-token",
        DATADOG,
        [
            "datadog",
            "dd_api_key",
            "dd-api-key",
            "dd_app_key",
            "dd_application_key",
            "dd-application-key",
        ],
        "[0-9a-f]{32,}",
        (32, 40),
        check=_one_of_lengths(32, 40, test=_hex_key),
    ),
    _keyword("sentry-access-token", SENTRY, ["sentry"], "[0-9a-f]{64,}", (64, 64), check=_hex_key),
    _keyword(
        "new-relic-api-key",
        NEW_RELIC,
        ["newrelic", "new_relic", "new-relic", "new relic"],
        "[A-Za-z0-9]{32,}",
        (32, 40),
    ),
    _keyword("kucoin-secret-key", SERVICE_KEY, ["kucoin"], _UUID, (36, 36), check=_uuid),
    _keyword(
        "kraken-access-token", SERVICE_KEY, ["kraken"], "[A-Za-z0-9/_+\\-]{78,}={0,2}", (80, 90)
    ),
    _keyword("bittrex-access-key", SERVICE_KEY, ["bittrex"], "[A-Za-z0-9]{32,}", (32, 32)),
    _keyword("coinbase-access-token", SERVICE_KEY, ["coinbase"], "[A-Za-z0-9_\\-]{64,}", (64, 64)),
    _keyword("finicity-client-secret", SERVICE_KEY, ["finicity"], "[A-Za-z0-9]{20,}", (20, 32)),
    _keyword("finnhub-access-token", SERVICE_KEY, ["finnhub"], "[A-Za-z0-9]{20,}", (20, 20)),
    _keyword(
        "gocardless-api-token",
        SERVICE_KEY,
        ["gocardless"],
        "(?:live|sandbox)_[A-Za-z0-9_\\-]{40,}={0,2}",
        (45, 48),
    ),
    _keyword("lob-api-key", SERVICE_KEY, ["lob"], "(?:live|test)_[a-f0-9]{35,}", (40, 40)),
    _keyword(
        "sidekiq-secret",
        SERVICE_KEY,
        ["bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com"],
        "[a-f0-9]{8}:[a-f0-9]{8}",
        (17, 17),
        word=False,
    ),
    _keyword("confluent-secret-key", SERVICE_KEY, ["confluent"], "[A-Za-z0-9+/]{64,}", (64, 64)),
    _keyword(
        "facebook-secret",
        FACEBOOK,
        ["facebook", "fb_app_secret", "fb_secret", "fb-secret"],
        "[0-9a-f]{32,}",
        (32, 32),
        check=_hex_key,
    ),
    _keyword(
        "twitter-api-credential",
        TWITTER,
        ["twitter", "twttr"],
        "[A-Za-z0-9]{25,}",
        (25, 50),
        check=_one_of_lengths(25, 45, 50, test=_mixed),
    ),
    _keyword(
        "twitter-access-token",
        TWITTER,
        ["twitter", "twttr"],
        "[0-9]{15,25}-[A-Za-z0-9]{20,}",
        (36, 66),
        check=lambda v: 20 <= len(v.partition("-")[2]) <= 40 and _mixed(v.partition("-")[2]),
    ),
    _rule(
        "twitter-bearer-token",
        TWITTER,
        "AAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{60,}",
        ("AAAAAAAAAAAAAAAAAAAA",),
        _twitter_bearer,
    ),
    _rule("facebook-access-token", FACEBOOK, "EAA[A-Z][A-Za-z0-9]{90,}", ("EAA",), _facebook_token),
    _token(
        "square-access-token",
        SQUARE,
        ["EAAA"],
        _AU,
        (22, 96),
        boundary=_IN_BASE64,
        right=frozenset("+/"),
        check=_random_looking,
    ),
    _rule(
        "facebook-app-access-token",
        FACEBOOK,
        "[0-9]{15,16}(?:\\||%7[Cc])[A-Za-z0-9_\\-]{27,}",
        ("|", "%7c"),
        _facebook_app_token,
    ),
    # (a sandbox's: sandbox-sq0atb-, sandbox-sq0csb-)
    _token(
        "square-oauth",
        SQUARE,
        ["sq0atp-", "sq0csp-", "sandbox-sq0atb-", "sandbox-sq0csb-"],
        _AU,
        (22, 128),
    ),
    _token(
        "shopify-token", SHOPIFY, ["shpat_", "shpca_", "shppa_", "shpss_"], "a-fA-F0-9", (32, 32)
    ),
    _token(
        "stripe-access-token",
        STRIPE,
        [f"{a}k_{b}_" for a in "sr" for b in ("live", "test", "prod")],
        _A,
        (10, 255),
    ),
    _token("stripe-webhook-secret", STRIPE_WEBHOOK, ["whsec_"], _B64, (20, 255)),
    _token(
        "braintree-access-token",
        BRAINTREE,
        ["access_token$production$", "access_token$sandbox$"],
        "0-9a-z$",
        (49, 49),
        check=_braintree_tail,
    ),
    _token(
        "shippo-api-token",
        PREFIXED,
        ["shippo_live_", "shippo_test_"],
        "a-fA-F0-9",
        (40, 40),
        check=_hexish,
    ),
    _token(
        "duffel-api-token",
        PREFIXED,
        ["duffel_live_", "duffel_test_"],
        _AU + "=",
        (43, 43),
        check=_letters_digits,
    ),
    _token("easypost-api-token", PREFIXED, ["EZAK", "EZTK"], _A, (54, 54), check=_letters_digits),
    _token(
        "flutterwave-secret-key",
        PREFIXED,
        ["FLWSECK_TEST-", "FLWSECK-"],
        _A + "\\-",
        (12, 34),
        check=_flutterwave,
    ),
    # --- AI, data, observability
    _token("openai-or-anthropic-api-key", SK_KEY, ["sk-"], _AU, (20, 512), check=_sk_tail),
    # (34 characters of both cases: hf_requiredCharacteristicTypes… is an identifier)
    _token(
        "huggingface-access-token",
        HUGGING_FACE,
        ["hf_", "api_org_"],
        _A,
        (34, 34),
        check=_both_cases,
    ),
    _token("perplexity-api-key", PREFIXED, ["pplx-"], _A, (48, 48), check=_letters_digits),
    _token("groq-api-key", PREFIXED, ["gsk_"], _A, (52, 52), check=_mixed),
    _token("replicate-api-token", PREFIXED, ["r8_"], _A, (37, 37), check=_mixed),
    _token("xai-api-key", PREFIXED, ["xai-"], _A + "_", (80, 80), check=_mixed),
    # Beyond gitleaks' list: the prefixed keys of services an agent's task often holds (model
    # routers, tracing, vector stores, hosting, CI), each as its issuer documents it.
    _token("openrouter-api-key", PREFIXED, ["sk-or-v1-"], _HX, (64, 64), check=_hex_key),
    _token(
        "langsmith-api-key",
        PREFIXED,
        ["lsv2_pt_", "lsv2_sk_"],
        _HX + "_",
        (43, 43),
        check=_parts(32, 10, test=_hex_key, sep="_"),
    ),
    _token("pinecone-api-key", PREFIXED, ["pcsk_"], _A + "_", (40, 128), check=_underscored_mixed),
    _token("supabase-access-token", PREFIXED, ["sbp_"], _HX, (40, 40), check=_hex_key),
    _token("supabase-secret-key", PREFIXED, ["sb_secret_"], _AU, (20, 128), check=_mixed),
    _token(
        "resend-api-key",
        PREFIXED,
        ["re_"],
        _A + "_",
        (33, 33),
        check=lambda t: _parts(8, 24, sep="_")(t) and _mixed(t),
    ),
    _token("render-api-key", PREFIXED, ["rnd_"], _A, (32, 32), check=_mixed),
    _token("fireworks-api-key", PREFIXED, ["fw_"], _A, (24, 24), check=_mixed),
    _token("voyage-api-key", PREFIXED, ["pa-"], _AU, (43, 43), check=_mixed),
    _token("elevenlabs-api-key", PREFIXED, ["sk_"], _HX, (48, 48), check=_hex_key),
    _token("woocommerce-api-key", PREFIXED, ["ck_", "cs_"], _HX, (40, 40), check=_hex_key),
    # Langfuse's secret key: sk-lf- and a UUID (its public key, pk-lf-, is none)
    _token("langfuse-secret-key", PREFIXED, ["sk-lf-"], _HX + "\\-", (36, 36), check=_uuid),
    # ClickUp's personal token: pk_, the user's number (7 to 9 digits), _, 32 capitals and digits
    _token(
        "clickup-personal-token",
        PREFIXED,
        ["pk_"],
        "0-9A-Z_",
        (40, 42),
        check=_clickup_tail,
    ),
    # Adyen's API key: AQE, then two base64 parts joined by "-" (each ending its padding)
    _token(
        "adyen-api-key",
        PREFIXED,
        ["AQE"],
        _B64 + "\\-",
        (80, 320),
        boundary=_IN_BASE64,
        check=_adyen_tail,
    ),
    # Mollie's API keys: live_ or test_, then 30 characters of base62
    _token("mollie-api-key", PREFIXED, ["live_", "test_"], _A, (30, 30), check=_mixed),
    # Bitwarden Secrets Manager's access token: 0., the machine account's UUID, its secret, and
    # after a colon the key that decrypts it (base64)
    _rule(
        "bitwarden-access-token",
        PREFIXED,
        "0\\." + _UUID + "\\.[A-Za-z0-9]{30}:[A-Za-z0-9+/]{22}==",
        ("0.",),
        _bitwarden_token,
        min_run=94,  # ("0." is in every version number)
    ),
    # Telnyx's API key (v2): KEY and 55 characters of base64url
    _token("telnyx-api-key", PREFIXED, ["KEY"], _AU, (55, 55), check=_mixed),
    # Modal's token pair: the id ak- and the secret as-, 22 characters of base62 each
    _token("modal-token", PREFIXED, ["ak-", "as-"], _A, (22, 22), check=_mixed),
    # LaunchDarkly's keys name no service: api- (an access token), sdk- (a server-side SDK
    # key), mob- (a mobile key), each with a random (version 4) UUID
    _token(
        "launchdarkly-key",
        PREFIXED,
        ["api-", "sdk-", "mob-"],
        _HX + "\\-",
        (36, 36),
        check=_uuid_v4,
    ),
    # Prefixed keys of more services, as their issuers document them (and trufflehog finds
    # them, with no name beside them)
    _token("apify-api-token", PREFIXED, ["apify_api_"], _A, (36, 36), check=_mixed),
    # the search, crawling and embedding services an agent calls for the web: Tavily's key
    # (tvly- and 32 of base62; its development keys tvly-dev-), Jina's (jina_ and 60),
    # Firecrawl's (fc- and 32 hex digits)
    _token(
        "tavily-api-key", PREFIXED, ["tvly-dev-", "tvly-prod-", "tvly-"], _A, (32, 32), check=_mixed
    ),
    _token("jina-api-key", PREFIXED, ["jina_"], _A, (60, 60), check=_mixed),
    _token("firecrawl-api-key", PREFIXED, ["fc-"], _HX, (32, 32), check=_hex_key),
    # E2B's (the sandboxes an agent runs code in): e2b_ and hex digits, 40 as it issues them
    # (its SDK's own check: e2b_ then hexadecimal)
    _token("e2b-api-key", PREFIXED, ["e2b_"], _HX, (32, 80), check=_hex_key),
    # Dependency-Track's API key (odt_ and 32 or more of base62), crates.io's API token (cio and
    # 32 of base62, crates.io's src/util/token.rs)
    _token("dependency-track-api-key", PREFIXED, ["odt_"], _A, (32, 255), check=_mixed),
    _token("crates-io-api-token", PREFIXED, ["cio"], _A, (32, 32), check=_mixed),
    _token("bannerbear-api-key", PREFIXED, ["bb_pr_", "bb_ma_"], _HX, (30, 30), check=_hex_key),
    # Cloudflare's user and account API tokens and its global API key since 2025: 40 of
    # base62, then a checksum of 8 hex digits
    _token(
        "cloudflare-api-token",
        PREFIXED,
        ["cfut_", "cfat_", "cfk_"],
        _A,
        (48, 48),
        check=lambda t: _mixed(t[:40]) and _HEX.issuperset(t[40:]),
    ),
    _token("deno-deploy-token", PREFIXED, ["ddp_", "ddw_"], _A, (36, 36), check=_mixed),
    _token("nvidia-api-key", PREFIXED, ["nvapi-"], _AU, (64, 64), check=_mixed),
    _token("posthog-personal-api-key", PREFIXED, ["phx_"], _A + "_", (43, 48), check=_mixed),
    _token("rootly-api-key", PREFIXED, ["rootly_"], _HX, (64, 64), check=_hex_key),
    _token("sourcegraph-cody-key", PREFIXED, ["slk_"], _HX, (64, 64), check=_hex_key),
    # Zoho's OAuth tokens: 1000., then two parts of 32 hex digits
    _token(
        "zoho-oauth-token",
        PREFIXED,
        ["1000."],
        _HX + ".",
        (65, 65),
        boundary=_WORD_DASH | {"."},
        check=_parts(32, 32, test=_hex_key, sep="."),
    ),
    # Klaviyo's private key: pk_ and 34 hex digits (or a name of 6 and _ before them)
    _token(
        "klaviyo-private-key",
        PREFIXED,
        ["pk_"],
        _A + "_",
        (34, 41),
        check=lambda t: _hex_key(t[-34:]) and (len(t) == 34 or (len(t) == 41 and t[6] == "_")),
    ),
    # Lob's keys with no name beside them: live_ or test_ and 35 hex digits
    _token("lob-key", PREFIXED, ["live_", "test_"], _HX, (35, 35), check=_hex_key),
    # GoCardless's access token with no name beside it: live_ and 40 of base64url
    _token("gocardless-live-token", PREFIXED, ["live_"], _AU + "=", (40, 40), check=_mixed),
    _token("nightfall-api-key", PREFIXED, ["NF-"], _A, (32, 32), check=_mixed),
    # FullStory's API key: its region (na1. in North America, eu1. in Europe) and 100 of base64
    _token(
        "fullstory-api-key", PREFIXED, ["na1.", "eu1."], "A-Za-z0-9+/", (100, 100), check=_mixed
    ),
    _token("pagarme-api-key", PREFIXED, ["ak_live_", "ak_test_"], _A, (30, 30), check=_mixed),
    _token("ramp-client-secret", PREFIXED, ["ramp_sec_"], _A, (48, 48), check=_mixed),
    _token("ubidots-token", PREFIXED, ["BBFF-"], _A, (30, 30), check=_mixed),
    _token(
        "voiceflow-api-key",
        PREFIXED,
        ["VF.DM.", "VF.WS."],
        _A + ".",
        (41, 41),
        check=_parts(24, 16, test=_letters_digits, sep="."),
    ),
    _token("flexport-api-key", PREFIXED, ["shltm_"], _AU, (40, 40), check=_mixed),
    _token("fleetbase-api-key", PREFIXED, ["flb_live_"], _A, (20, 20), check=_mixed),
    # Close's API key: api_, then two parts of base62 joined by a full stop
    _token(
        "close-api-key",
        PREFIXED,
        ["api_"],
        _A + ".",
        (45, 45),
        check=lambda t: t.count(".") == 1 and all(len(p) >= 8 and _mixed(p) for p in t.split(".")),
    ),
    # Bitbucket Data Center's HTTP access token
    _token(
        "bitbucket-data-center-token", PREFIXED, ["BBDC-"], _B64 + "@_\\-", (40, 50), check=_mixed
    ),
    # Salesforce's refresh token: 5Aep861 and 80 or more
    _token(
        "salesforce-refresh-token",
        PREFIXED,
        ["5Aep861", "5AEP861"],
        _A + "._=",
        (80, 512),
        check=_mixed,
    ),
    _rule(
        "salesforce-access-token",
        PREFIXED,
        "00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,}",
        ("00D",),
        _salesforce_token,
    ),
    _rule(
        "zapier-webhook-url",
        WEBHOOK,
        "hooks\\.zapier\\.com/hooks/catch/[0-9]+/[A-Za-z0-9]{6,}",
        ("hooks.zapier.com",),
        _webhook,
    ),
    # An Azure Function's URL with its key in the query (?code=…): the key alone calls it
    _rule(
        "azure-function-key",
        WEBHOOK,
        "azurewebsites\\.net/api/[A-Za-z0-9_.\\-/]{1,256}\\?"
        "(?:[A-Za-z0-9_.\\-%=&]{0,512}&)?code=[A-Za-z0-9_\\-/+%=]{20,}",
        ("azurewebsites.net",),
        _function_key,
    ),
    _rule(
        "ifttt-webhook-url",
        WEBHOOK,
        "maker\\.ifttt\\.com/(?:trigger/[A-Za-z0-9_\\-]+/(?:json/)?with/)?key/[A-Za-z0-9_\\-]{20,}",
        ("maker.ifttt.com",),
        _webhook,
    ),
    _keyword(
        # a personal access token: 52 characters of base32, or (since 2024) 84 holding AZDO;
        # its name alone, "PAT", beside one too ("PAT: …", `az devops login --pat …`): no
        # other token has either shape (inside a word, "path" or "compat", it names none)
        "azure-devops-personal-access-token",
        SERVICE_KEY,
        [
            *("azure_devops", "azure-devops", "azuredevops", "azure devops"),
            *("ado_pat", "ado-pat", "pat"),
        ],
        "[a-z2-7]{52}|[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}",
        (52, 84),
        check=lambda v: len(v) == 84 or _letters_digits(v),
    ),
    _token("buildkite-api-token", PREFIXED, ["bkua_"], _HX, (40, 40), check=_hex_key),
    _token(
        "circleci-api-token",
        PREFIXED,
        ["CCIPAT_", "CCIPRJ_"],
        _A + "_",
        (63, 63),
        check=lambda t: _parts(22, 40, sep="_")(t) and _hex_key(t[23:]),
    ),
    _token(
        "tailscale-api-key",
        PREFIXED,
        ["tskey-auth-", "tskey-api-", "tskey-client-", "tskey-scim-", "tskey-webhook-"],
        _A + "\\-",
        (30, 128),
        check=lambda t: t.count("-") == 1 and _mixed(t.split("-")[1]),
    ),
    _rule(
        "firebase-cloud-messaging-server-key",
        PREFIXED,
        "AAAA[A-Za-z0-9_\\-]{7}:APA91b[A-Za-z0-9_\\-]{134}",
        ("APA91b",),
        _fcm_server_key,
    ),
    _token("databricks-api-token", DATABRICKS, ["dapi"], _HX, (32, 32)),
    _token("clickhouse-cloud-api-secret-key", PREFIXED, ["4b1d"], _A, (38, 38), check=_mixed),
    # (an access token, dt0c01; a platform token, dt0s16; an OAuth client's secret, dt0s02:
    # the format's kind and version, then its public part and its secret, in capitals)
    _token(
        "dynatrace-api-token",
        PREFIXED,
        ["dt0c01.", "dt0s01.", "dt0s02.", "dt0s08.", "dt0s16."],
        _A + ".",
        (89, 89),
        check=_parts(24, 64, sep="."),
    ),
    # MongoDB Atlas' service account's secret (its id is mdb_sa_id_…, no secret)
    _token(
        "mongodb-atlas-service-account-secret",
        PREFIXED,
        ["mdb_sa_sk_"],
        _AU,
        (40, 40),
        check=lambda t: _mixed(t[6:]) and t[6:].isalnum(),
    ),
    # Segment's Public API token (Sourcegraph's sgp_ is 40 to 62 long, of other parts)
    _token("segment-public-api-token", PREFIXED, ["sgp_"], _A, (64, 64), check=_mixed),
    _token(
        "new-relic-key",
        NEW_RELIC,
        ["NRAK-", "NRJS-", "NRII-", "NRAA-", "NRIQ-", "NRRA-"],
        _A + "\\-",
        (19, 64),
        # a browser key's 19, a user or an admin key's 27, an insert or a query key's 32
        check=lambda t: len(t) in (19, 27, 32) and _complex(t),
    ),
    _rule("new-relic-license-key", NEW_RELIC, "[A-Za-z0-9]{36}NRAL", ("NRAL",), _new_relic_license),
    _token("grafana-service-account-token", GRAFANA, ["glsa_"], _A + "_", (32, 64)),
    _token("grafana-cloud-api-token", GRAFANA, ["glc_"], _B64, (32, 1024)),
    _token("grafana-api-key", GRAFANA, ["eyJrIjoi"], _A, (70, 400), check=_letters_digits),
    _token(
        "sentry-token", SENTRY, ["sntrys_", "sntryu_"], _B64 + "_\\-", (40, 512), check=_sentry_tail
    ),
    _token(
        "planetscale-token",
        PLANETSCALE,
        ["pscale_tkn_", "pscale_oauth_", "pscale_pw_"],
        _AU + ".=",
        (32, 64),
        check=_complex,
    ),
    _token(
        "settlemint-access-token",
        PREFIXED,
        ["sm_aat_", "sm_pat_", "sm_sat_"],
        _A,
        (16, 16),
        # (16 random characters hold no digit once in 16 draws: both cases then)
        check=lambda t: _letters_digits(t) or _both_cases(t),
    ),
    _rule(
        "nuget-config-password",
        NUGET,
        '<add key=\\\\?"(?:ClearText)?Password\\\\?"[ \t]+value=\\\\?"[^"\r\n]{8,256}"',
        ('Password"', 'Password\\"'),
        _nuget_password,
        scope=ANYWHERE,
    ),
    _rule(
        "maxmind-license-key", PREFIXED, "[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk", ("_mmk",), _maxmind
    ),
    _token("openshift-user-token", PREFIXED, ["sha256~"], _AU, (43, 43), check=_letters_digits),
    _token(
        "intra42-client-secret",
        PREFIXED,
        ["s-s4t2ud-", "s-s4t2af-"],
        "a-fA-F0-9",
        (64, 64),
        check=_hexish,
    ),
    _token(
        "authress-service-client-access-key",
        PREFIXED,
        ["sc_", "ext_", "scauth_", "authress_"],
        _AU + ".+/=",
        (60, 200),
        check=lambda t: ".acc_" in t or ".acc-" in t,
    ),
    _token(
        "mapbox-secret-token",
        MAPBOX,
        ["sk.eyJ"],
        _AU + ".",
        (60, 512),
        strip=".",
        check=lambda t: "." in t,
    ),
    # --- tokens of general formats
    _rule(
        "jwt",
        JWT,
        "eyJ[A-Za-z0-9_\\-]*\\.[A-Za-z0-9_\\-]*(?:\\.[A-Za-z0-9_\\-]*){0,3}",
        ("eyJ",),
        _jwt,
    ),
    _rule(
        "bearer-token",
        BEARER,
        "(?i:bearer)[ \\t]+[A-Za-z0-9\\-._~+/]+=*",
        ("bearer",),
        _bearer,
        scope=ANYWHERE,
    ),
    _rule(
        "basic-auth", BASIC, "(?i:basic)[ \\t]+[A-Za-z0-9+/]+=*", ("basic",), _basic, scope=ANYWHERE
    ),
)
