"""Apparent credentials anywhere in a checkpoint (§9.1, §10.5).

A checkpoint is untrusted input that travels between systems, gets logged and is shown to
models, so the linter warns about anything in it that looks like a secret, and the viewer
redacts it. Every string value and every member name is scanned, at every depth.

Each detector is built from what a credential format *is*: a vendor's fixed prefix and length, a
structure (PEM armour, a JWT's JSON header, a URI's userinfo, a signed URL's parameters), or a
member or parameter name that says it holds a credential. None is tuned to sample documents, and
each is checked against ordinary content: ids, digests, commit hashes, idempotency keys, ordinary
URLs and query strings, e-mail addresses, and prose that merely mentions a token or a password.

Speed: scanning every string with every detector would cost a dozen regex passes per string. The
document scan instead joins all strings once, finds the few literal anchors each detector needs
(a regex with a literal prefix is a fast substring search), maps each anchor back to its string,
and runs only the matching detectors on only those strings.
"""

import base64
import binascii
import json
import operator
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache, partial, reduce
from itertools import accumulate, chain, compress, count, islice
from typing import NamedTuple, cast
from urllib.parse import unquote

from app.findings import Finding
from app.json_values import CONTAINERS
from app.pointer import escape_token

Span = tuple[int, int, str]  # start, end, kind


class _LazyPattern:
    """A regular expression compiled when it is first used.

    The module holds some two hundred patterns, and compiling them all cost `ocp lint` a
    quarter of its start-up (issue 13), while a document needs only the anchors and the few
    detectors an anchor points to. On first use the compiled pattern's methods are set on the
    instance, so later calls cost what a compiled pattern's cost: an attribute and a call.
    """

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> object:
        # Called only for what the instance does not hold yet: the first use.
        compiled = re.compile(self.pattern, self.flags)
        for method in ("search", "match", "fullmatch", "finditer", "findall", "sub", "split"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def _lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile`, deferred to the pattern's first use (see `_LazyPattern`)."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))


class SecretHit(NamedTuple):
    # A named tuple, not a dataclass: a document may hold tens of thousands of hits, and a
    # frozen dataclass's __init__ costs several times a tuple's.
    path: str  # JSON Pointer of the value (for a key: the pointer of that member)
    kind: str  # human name, e.g. "an AWS access key id", "a PEM private key"
    start: int
    end: int  # the span within the string value (or the key) that looks secret
    in_key: bool
    # the pointer's tokens and the string the span is in (the value, or the member's name):
    # what a redaction withholds, known without parsing the pointer again or walking to it
    tokens: tuple[str, ...] | None = None
    text: str | None = None


# --- kinds: fixed phrases, so a message can never echo document content -------------------------

PEM_KEY = "a PEM private key"
PUTTY_KEY = "a PuTTY private key"
AWS_KEY_ID = "an AWS access key id"
AWS_SECRET = "an AWS secret access key"
GOOGLE_API_KEY = "a Google API key"
GOOGLE_OAUTH = "a Google OAuth token"
GOOGLE_CLIENT_SECRET = "a Google OAuth client secret"
AZURE_ACCOUNT_KEY = "an Azure storage account key"
AZURE_SAS = "an Azure shared access signature"
AZURE_CLIENT_SECRET = "an Azure AD client secret"
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
PYPI = "a PyPI token"
HUGGING_FACE = "a Hugging Face token"
SENDGRID = "a SendGrid API key"
SHOPIFY = "a Shopify access token"
DIGITALOCEAN = "a DigitalOcean token"
VAULT = "a HashiCorp Vault token"
AGE_KEY = "an age secret key"
POSTMAN = "a Postman API key"
LINEAR = "a Linear API key"
DATABRICKS = "a Databricks token"
SQUARE = "a Square access token"
ATLASSIAN = "an Atlassian API token"
DOCKER_HUB = "a Docker Hub access token"
TWILIO = "a Twilio API key"
MAILGUN = "a Mailgun API key"
MAILCHIMP = "a Mailchimp API key"
DISCORD = "a Discord bot token"
TELEGRAM = "a Telegram bot token"
NEW_RELIC = "a New Relic key"
ALIBABA = "an Alibaba Cloud access key id"
DOPPLER = "a Doppler token"
TERRAFORM = "a Terraform Cloud token"
PULUMI = "a Pulumi access token"
ARTIFACTORY = "a JFrog Artifactory token"
BRAINTREE = "a Braintree access token"
CLOUDFLARE_CA = "a Cloudflare origin CA key"
GOOGLE_REFRESH = "a Google OAuth refresh token"
HEROKU = "a Heroku API key"
SENDINBLUE = "a Brevo (Sendinblue) API key"
PLANETSCALE = "a PlanetScale token"
RUBYGEMS = "a RubyGems API key"
SENTRY = "a Sentry token"
MAPBOX = "a Mapbox secret token"
JWT = "a JSON Web Token"
BEARER = "a bearer token"
BASIC = "HTTP Basic credentials"
USERINFO = "a token as the user name of a URI"
URI_PASSWORD = "a password in a URI"
SIGNED_URL = "a signed URL"
PASSWORD = "a password"
SECRET = "a secret"
API_KEY = "an API key"
ACCESS_TOKEN = "an access token"
PRIVATE_KEY = "a private key"
AUTHORIZATION = "an Authorization header value"
COOKIE = "a cookie"
CREDENTIAL = "a credential"

# Kinds that only say "the member's name suggests a credential": a finding prefers the more
# specific kind of a format detector when both fire on one value.
_NAMED_KINDS = frozenset(
    {PASSWORD, SECRET, API_KEY, ACCESS_TOKEN, PRIVATE_KEY, AUTHORIZATION, COOKIE, CREDENTIAL}
)


# --- is a value a plausible credential, or a placeholder, a flag, a number, a reference? -------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLACEHOLDER_WORDS = _words(
    """
    redacted removed hidden masked omitted elided withheld sanitized scrubbed filtered
    secret secrets password passwd passphrase token tokens apikey api_key api-key key credential
    credentials changeme change_me changeit example sample dummy fake test testing placeholder
    todo tbd tba fixme unknown unset empty required optional default value string none null nil
    undefined n/a na tbc notset not_set not-set
    """
)
_BOOLISH = _words("true false yes no on off y n t f enabled disabled")
_PLACEHOLDER_MARKERS = _lazy(
    r"(?i)(?:^|[^a-z])(?:redacted|placeholder|changeme|change[_-]me|replace[_-]?me|your"
    r"|example|sample|dummy|fake|insert|obfuscated|masked)(?:[^a-z]|$)"
)
# ALL_CAPS_WITH_UNDERSCORES names an environment variable; $NAME, ${NAME}, %NAME% refer to one.
_ENV_REFERENCE = _lazy(
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%"
)
# A value that points at where a secret lives (a URL, a secret store, a file), not the secret.
_REFERENCE = _lazy(
    r"(?i)(?:[a-z][a-z0-9+.\-]*://"
    r"|(?:env|vault|secret|secrets|ssm|arn|op|kv|keyvault|kms|gcpsm|gsm|sm|awssm|azure|doppler"
    r"|infisical|file|k8s|kubernetes|urn|sops|ref|secretref|secretsmanager|bitwarden|keychain"
    r"|sha(?:-?\d+)?|md5|blake2b?|blake3)[:+]"
    # a file path; base64 keys can start with "/" too, so a bare "/" is not enough
    r"|~/|\.{1,2}/|[a-z]:\\|/(?:home|users|root|etc|var|run|tmp|usr|opt|srv|mnt|app|data"
    r"|workspace|secrets|keys|certs|config|vault|private)(?:/|$))"
)
_EMAIL = _lazy(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
# Code that names where a credential comes from rather than holding one (excerpts of source
# files): process.env.API_KEY, os.environ["..."], secrets.token_hex(32), Optional[str],
# client_secret_value, clientSecretValue, db-credentials. Random keys have digits.
# one word of an identifier: api, KEY, Auth, AuthTypes, HTTPClient, ed25519, UsageOID. Random
# text soon fails it: its capitals are not each followed by lower-case letters, and its digits
# sit inside words (as in a password's Wint3r) rather than ending them (as in ed25519).
_WORDISH = r"(?=[A-Za-z])[A-Z]*+(?:[A-Z][a-z]{2,}+|[a-z]++|[0-9]++(?![a-z]))*+[A-Z]*+"
_IDENTIFIER_LIKE = _lazy(
    rf"""[._\-]*+{_WORDISH}(?:[._\-]++{_WORDISH})++[._\-]*+  # snake_case, kebab-case, a.path
      |_++{_WORDISH}                                     # _Private
      |[a-z]{{2,}}+(?:[A-Z][a-z]{{2,}}+)++               # camelCase words
      |[A-Z][a-z]{{2,}}+(?:[A-Z][a-z]{{2,}}+)++          # PascalCase words
      |[\w$.]*+[(\[].*                                   # a call or a subscript""",
    re.S | re.X,
)
# type names in schemas and signatures: "password": "string?", api_key: str
_TYPE_NAME = _lazy(
    r"(?i)(?:string|str|text|varchar|bool|boolean|int|integer|number|float|object|array|any"
    r"|bytes|secretstr|secret_str)(?:\?|\[\])?"
)
_NUMBERISH = _lazy(r"[\d\s+\-.,:/_%]+")
_MASK_CHARS = "*xX#?._- \t\u2022\u00b7\u2026\u25cf"
# partly masked, e.g. sk-****abcd (one character repeated, not XxXX)
_PARTIAL_MASK = _lazy("\\*\\*\\*|xxxxx|XXXXX|\u2022\u2022|\u25cf\u25cf|\u2026")
_WHITESPACE = _lazy(r"\s")


def _is_placeholder(value: str) -> bool:
    low = value.lower()
    if low in _PLACEHOLDER_WORDS or low in _BOOLISH:
        return True
    if not value.strip(_MASK_CHARS):  # ****, xxxx, ..., ----
        return True
    if _PARTIAL_MASK.search(value):
        return True
    if value[0] in "<[{(" and value[-1] in ">]})":
        return True  # <redacted>, [REDACTED], {{token}}, (hidden)
    if value.startswith(("${", "$(", "{{", "%(")):
        return True
    if _ENV_REFERENCE.fullmatch(value) or _TYPE_NAME.fullmatch(value):
        return True
    return bool(_PLACEHOLDER_MARKERS.search(value))


def _not_a_credential(value: str) -> bool:
    """Placeholders, flags, numbers, dates, e-mail addresses, code, references to a store."""
    return _is_placeholder(value) or _not_a_credential_shape(value)


def _not_a_credential_shape(value: str) -> bool:
    """Numbers, dates, e-mail addresses, code, references to a store (not placeholders)."""
    if _NUMBERISH.fullmatch(value) and _ANY_DIGIT.search(value):
        return True
    return bool(
        _REFERENCE.match(value) or _EMAIL.fullmatch(value) or _IDENTIFIER_LIKE.fullmatch(value)
    )


# Character tests done by the regex engine and str methods rather than a Python loop over every
# character: a hostile document may hand thousands of long candidate values to these.
_ANY_DIGIT = _lazy(r"\d")
_ANY_LETTER = _lazy(r"[^\W\d_]")
_ANY_SYMBOL = _lazy(r"[^\w.\-]")  # neither a word character nor "." or "-"


def _has_lower(value: str) -> bool:
    return value != value.upper()


def _has_upper(value: str) -> bool:
    return value != value.lower()


def _complex(value: str) -> bool:
    """Random-looking enough for a token: a digit, an inner capital, or a symbol."""
    if _ANY_DIGIT.search(value) or _ANY_SYMBOL.search(value):
        return True
    return _has_lower(value) and _has_upper(value[1:])


def _random_looking(value: str) -> bool:
    """Generated keys mix letters and digits, or are long mixed-case or alphanumeric runs.

    Punctuation alone proves nothing: "--username=", "*(optional)*" and "ParseResults):" are
    what code and prose put after a credential's name.
    """
    if _ANY_DIGIT.search(value) and _ANY_LETTER.search(value):
        return True
    if len(value) >= 16 and _has_lower(value) and _has_upper(value[1:]):
        return True
    return len(value) >= 24 and value.isalnum()


def _prose_password(value: str) -> bool:
    """In running text, "password: reset" is prose; a word with letters and digits is not."""
    return len(value) >= 6 and any(c.isalpha() for c in value) and any(c.isdigit() for c in value)


# --- member and parameter names that say they hold a credential --------------------------------

_C_PASSWORD = "password"
_C_SECRET = "secret"
_C_AWS_SECRET = "aws_secret"
_C_API_KEY = "api_key"
_C_AZURE_KEY = "azure_key"
_C_AZURE_SAS = "azure_sas"
_C_PRIVATE_KEY = "private_key"
_C_TOKEN = "token"
_C_CREDENTIAL = "credential"
_C_HEADER = "authorization"
_C_COOKIE = "cookie"
_C_SIGNING = "signing"  # only as a URL query parameter

_CLASS_KIND = {
    _C_PASSWORD: PASSWORD,
    _C_SECRET: SECRET,
    _C_AWS_SECRET: AWS_SECRET,
    _C_API_KEY: API_KEY,
    _C_AZURE_KEY: AZURE_ACCOUNT_KEY,
    _C_AZURE_SAS: AZURE_SAS,
    _C_PRIVATE_KEY: PRIVATE_KEY,
    _C_TOKEN: ACCESS_TOKEN,
    _C_CREDENTIAL: CREDENTIAL,
    _C_HEADER: AUTHORIZATION,
    _C_COOKIE: COOKIE,
    _C_SIGNING: SIGNED_URL,
}

# Name endings (in normalized parts), longest first wins.
_NAME_HEADS: dict[tuple[str, ...], str] = {
    ("password",): _C_PASSWORD,
    ("passwd",): _C_PASSWORD,
    ("passphrase",): _C_PASSWORD,
    ("pass", "phrase"): _C_PASSWORD,
    ("secret",): _C_SECRET,
    ("secret", "key"): _C_SECRET,
    ("secret", "key", "base"): _C_SECRET,  # Rails' SECRET_KEY_BASE
    ("secretkey",): _C_SECRET,
    ("secret", "access", "key"): _C_AWS_SECRET,
    ("secretaccesskey",): _C_AWS_SECRET,
    ("api", "key"): _C_API_KEY,
    ("apikey",): _C_API_KEY,
    ("access", "key"): _C_API_KEY,
    ("accesskey",): _C_API_KEY,
    ("subscription", "key"): _C_API_KEY,
    ("functions", "key"): _C_API_KEY,
    ("master", "key"): _C_API_KEY,
    ("encryption", "key"): _C_PRIVATE_KEY,
    ("signing", "key"): _C_PRIVATE_KEY,
    ("private", "key"): _C_PRIVATE_KEY,
    ("privatekey",): _C_PRIVATE_KEY,
    ("account", "key"): _C_AZURE_KEY,
    ("accountkey",): _C_AZURE_KEY,
    ("shared", "access", "key"): _C_AZURE_KEY,
    ("sharedaccesskey",): _C_AZURE_KEY,
    ("shared", "access", "signature"): _C_AZURE_SAS,
    ("sharedaccesssignature",): _C_AZURE_SAS,
    ("sas", "token"): _C_AZURE_SAS,
    ("token",): _C_TOKEN,
    ("auth",): _C_TOKEN,
    ("jwt",): _C_TOKEN,
    ("bearer",): _C_TOKEN,
    ("credential",): _C_CREDENTIAL,
    ("creds",): _C_CREDENTIAL,
    ("authorization",): _C_HEADER,
    ("cookie",): _C_COOKIE,
}
_MAX_HEAD = max(len(h) for h in _NAME_HEADS)
# Names ending in "token" that count things or page through results rather than grant access,
# including a language model's tokens (max_tokens, eos_token...).
_NON_SECRET_TOKEN = _words(
    """
    page next prev previous continuation pagination sync cursor idempotency cancellation csrf
    xsrf max min num input output prompt completion total reasoning cached cache eos bos pad unk
    sep cls mask stop special start end delimiter split count vocab word sentence new used
    remaining limit budget context
    """
)
# Names a query string uses for the pieces of a signed URL (AWS, GCS, Azure SAS, CloudFront).
_SIGNING_PARAMS = frozenset(
    {
        "x_amz_signature",
        "x_amz_credential",
        "x_amz_security_token",
        "x_goog_signature",
        "x_goog_credential",
        "sig",
        "signature",
        "key_pair_id",
    }
)
# Query (and ;path) parameters that carry a password or a session under a name too short or
# too generic to mean one anywhere else: ?user=ops&pwd=..., /app;jsessionid=...
_QUERY_PARAMS = {
    "pass": _C_PASSWORD,
    "pwd": _C_PASSWORD,
    "pw": _C_PASSWORD,
    "jsessionid": _C_TOKEN,
    "phpsessid": _C_TOKEN,
    "aspsessionid": _C_TOKEN,
    "sessionid": _C_TOKEN,
    "session_id": _C_TOKEN,
}
# A short capital prefix and digits is a reference number (APR-0049121, INC0012345, JIRA-812),
# not a token, whatever name it is given.
_REFERENCE_NUMBER = _lazy(r"[A-Z]{1,6}[-_]?[0-9]{3,12}")
_CAMEL = _lazy(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_ALNUM = _lazy(r"[^a-z0-9]+")


def _name_parts(name: str) -> list[str]:
    return [p for p in _NON_ALNUM.split(_CAMEL.sub("_", name).lower()) if p]


@lru_cache(maxsize=4096)
def _classify_name(name: str) -> str | None:
    """The credential class a member or variable name announces, or None."""
    if len(name) > 128:
        return None
    parts = _name_parts(name)
    if not parts:
        return None
    found = _match_heads(parts)
    if found is None and parts[-1].endswith("s") and len(parts[-1]) > 3:
        found = _match_heads([*parts[:-1], parts[-1][:-1]])  # api_keys, passwords, cookies
    return found


def _match_heads(parts: list[str]) -> str | None:
    for size in range(min(_MAX_HEAD, len(parts)), 0, -1):
        cls = _NAME_HEADS.get(tuple(parts[-size:]))
        if cls is None:
            continue
        if cls == _C_TOKEN and len(parts) > 1 and parts[-2] in _NON_SECRET_TOKEN:
            return None
        return cls
    last = parts[-1]
    if last in ("pwd", "pass"):
        # a bare PWD is the working directory and a bare "pass" a test's count; DB_PWD and
        # SMTP_PASS are passwords
        return _C_PASSWORD if len(parts) > 1 else None
    # run-together names: accesstoken, clientsecret, mypassword
    for suffix, cls in (
        ("password", _C_PASSWORD),
        ("passwd", _C_PASSWORD),
        ("secret", _C_SECRET),
        ("apikey", _C_API_KEY),
        ("token", _C_TOKEN),
    ):
        if last.endswith(suffix) and len(last) > len(suffix):
            if cls == _C_TOKEN and last[: -len(suffix)] in _NON_SECRET_TOKEN:
                return None
            return cls
    return None


_AUTH_SCHEME = _lazy(r"([A-Za-z][A-Za-z0-9_\-]*)[ \t]+(\S.*)", re.S)
_AUTH_SCHEMES = _words(
    """
    bearer basic token digest negotiate ntlm hoba mutual apikey api-key key otp dpop mac hawk
    oauth sso-key aws4-hmac-sha256 goog4-hmac-sha256 hmac-sha256 signature
    """
)
_AUTH_PARAM = _lazy(
    r"(?i)(?:signature|response|credential|sig|oauth_signature|token)\s*=\s*\"?([^\",\s]+)"
)
_AWS_SECRET_VALUE = _lazy(r"[A-Za-z0-9/+=]{40}")


def _credential_value(cls: str, value: str, *, prose: bool = False) -> str | None:
    """The kind of credential `value` is, given the class its name announces, or None."""
    value = value.strip()
    if not value or len(value) > 16384:
        return None
    if cls == _C_HEADER:
        return AUTHORIZATION if _plausible_authorization(value) else None
    if cls == _C_COOKIE:
        return COOKIE if _plausible_cookie(value) else None
    if len(value) < (4 if cls in (_C_PASSWORD, _C_SECRET) else 8):
        return None  # shorter than any credential of its class: the cheapest test first
    if _WHITESPACE.search(value) or _is_placeholder(value):
        return None
    if cls == _C_AWS_SECRET and _AWS_SECRET_VALUE.fullmatch(value):
        return AWS_SECRET  # checked first: base64 may start with "/" and pass for a path
    if _not_a_credential_shape(value):  # (placeholders were ruled out above)
        return None
    if cls in (_C_TOKEN, _C_CREDENTIAL, _C_API_KEY) and _REFERENCE_NUMBER.fullmatch(value):
        return None
    if cls in (_C_PASSWORD, _C_SECRET):
        ok = _prose_password(value) if prose else len(value) >= 4
    elif cls == _C_SIGNING:
        ok = len(value) >= 8
    else:
        ok = len(value) >= 8 and _random_looking(value)
        if prose:
            ok = ok and (len(value) >= 12 or _prose_password(value))
    if not ok:
        return None
    if cls == _C_AWS_SECRET:
        return SECRET
    return _CLASS_KIND[cls]


def _plausible_token(value: str, min_len: int = 8) -> bool:
    value = value.strip().strip("\"'")
    if len(value) < min_len or _WHITESPACE.search(value) or _not_a_credential(value):
        return False
    return _random_looking(value)


def _plausible_authorization(value: str) -> bool:
    m = _AUTH_SCHEME.fullmatch(value)
    if m and m.group(1).lower() in _AUTH_SCHEMES:
        cred = m.group(2).strip()
        if _is_placeholder(cred):
            return False
        if _WHITESPACE.search(cred) or "," in cred:  # Digest / AWS4 parameters
            return any(_plausible_token(p) for p in _AUTH_PARAM.findall(cred))
        return _plausible_token(cred)
    # No scheme: a raw key is long; "authorization": "APR0049121" is an approval's number.
    return _plausible_token(value, min_len=24)


def _plausible_cookie(value: str) -> bool:
    if "=" not in value:
        return _plausible_token(value)
    for part in value.split(";"):
        _, eq, val = part.partition("=")
        if eq and _plausible_token(val, min_len=6):
            return True
    return False


# --- format detectors ---------------------------------------------------------------------------

Detector = Callable[[str], Iterator[Span]]
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_WORD_ = _WORD | {"_"}
_WORD_DASH = _WORD_ | {"-"}


def _left_ok(text: str, start: int, boundary: frozenset[str]) -> bool:
    return start == 0 or text[start - 1] not in boundary


_TAIL_PLACEHOLDER = _lazy(
    r"(?i)(?:^|[^a-z0-9])(?:your|example|sample|dummy|fake|placeholder|redacted|token|secret"
    r"|key|here|xxx+)(?:[^a-z0-9]|$)"
)


def _masked(tail: str) -> bool:
    # ghp_xxxx..., xoxb-your-token-here: a placeholder in a token's shape
    return not tail.strip(_MASK_CHARS + "0") or bool(_TAIL_PLACEHOLDER.search(tail))


# A tail that is one run of a character class, ending the pattern.
_TAIL_RUN = _lazy(r"\(\?P<tail>(\[(?:[^\]\\]|\\.)*\])\*\+\)$")


def _token_rule(
    pattern: str,
    kind: str,
    *,
    tail: tuple[int, int],
    boundary: frozenset[str] = _WORD_DASH,
    check: Callable[[str], bool] | None = None,
    flags: int = 0,
) -> Detector:
    """A fixed prefix followed by a possessive run captured as `tail`.

    Possessive runs never backtrack, and every match is validated here rather than by
    look-arounds, so the regex keeps its fast literal-prefix search and stays linear on
    hostile input such as "sk-sk-sk-..." repeated for a megabyte. One look-ahead is the
    exception: a tail that is one run of a class needs `low` of them, looked for by the regex
    (at most `low` characters a prefix), so a prefix with too short a tail, the rule in prose
    ("sk-learn", "a ghp_ token"), costs no step of Python.
    """
    low, high = tail
    rx = _lazy(_TAIL_RUN.sub(lambda m: f"(?={m[1]}{{{low}}}){m[0]}", pattern), flags)

    def find(text: str) -> Iterator[Span]:
        for m in rx.finditer(text):
            t = m.group("tail")
            if (
                low <= len(t) <= high
                and _left_ok(text, m.start(), boundary)
                and not _masked(t)
                and (check is None or check(t))
            ):
                yield m.start(), m.end(), kind

    return find


def _has_upper_or_unbroken(tail: str) -> bool:
    # Real keys are random: they have capitals, or at least are not hyphenated words
    # (sk-learn-compatibility-layer, pypi-publishing-workflow...).
    return any(c.isupper() for c in tail) or "-" not in tail


def _sk_tail(tail: str) -> bool:
    body = re.sub(r"^(?:proj|svcacct|admin|None|ant-(?:api|admin)\d\d)-", "", tail)
    return len(body) >= 20 and _has_upper_or_unbroken(body) and (len(body) >= 32 or _complex(body))


def _aws_key_id(text: str) -> Iterator[Span]:
    for m in _AWS_ID.finditer(text):
        s, e = m.span()
        if (
            e - s == 20
            and _left_ok(text, s, _WORD)
            and (e == len(text) or text[e] not in _WORD)
            and not _masked(text[s + 4 : e])
        ):
            yield s, e, AWS_KEY_ID


_AWS_ID = _lazy(r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]*+")

# The armour as written, and as it is mistyped or pasted: any case, and up to three spaces,
# tabs or no-break spaces where one belongs (a PEM parser refuses those; the key is as secret).
_PEM_SPACE = "[ \t\u00a0]"
_PEM_BEGIN = _lazy(
    rf"(?i)-----?{_PEM_SPACE}{{0,3}}BEGIN{_PEM_SPACE}{{1,3}}"
    rf"(?P<label>(?:[A-Z0-9]{{1,12}}{_PEM_SPACE}{{1,3}}){{0,4}}PRIVATE{_PEM_SPACE}{{1,3}}KEY"
    rf"(?:{_PEM_SPACE}{{1,3}}BLOCK)?){_PEM_SPACE}{{0,3}}-----?"
)
# After the armour line: optional headers (Proc-Type, DEK-Info, Version, Comment), then base64.
# Newlines may be real or JSON-escaped (the viewer scans raw source too).
_NL = r"(?:[ \t\r\n]|\\[rnt])"
_PEM_BODY = _lazy(
    rf"{_NL}*+(?:[A-Za-z][A-Za-z0-9\-]*:[^\r\n\\]*+(?:\r?\n|\\r|\\n)+)*+{_NL}*+[A-Za-z0-9+/=]{{16}}"
)
_PEM_RUN = _lazy(r"(?:[A-Za-z0-9+/=]|[ \t\r\n]|\\[rnt])*+")


# The largest private keys in PEM (16384-bit RSA, a PGP block with several subkeys) fit in this
# many characters after their BEGIN line: the END line is looked for no further, and never past
# the next BEGIN line, so a run of BEGIN lines with no END costs one pass, not one per line.
_PEM_WINDOW = 65536
_PEM_HEADERS_WINDOW = 4096


def _pem(text: str) -> Iterator[Span]:
    pos = 0
    while (m := _PEM_BEGIN.search(text, pos)) is not None:
        pos = m.end()
        body = _PEM_BODY.match(text, m.end(), min(len(text), m.end() + _PEM_HEADERS_WINDOW))
        if body is None:
            continue  # the armour line alone, e.g. prose about key files, holds no key
        limit = min(len(text), body.end() + _PEM_WINDOW)
        following = _PEM_BEGIN.search(text, body.end(), limit)
        if following is not None:
            limit = following.start()
        label = " ".join(m.group("label").upper().split())
        end_marker = _pem_end(label).search(text, body.end(), limit)
        run = _PEM_RUN.match(text, body.end(), limit)  # a truncated excerpt: the base64 run
        end = end_marker.end() if end_marker else run.end() if run else body.end()
        yield m.start(), end, PEM_KEY
        pos = end


@lru_cache(maxsize=64)
def _pem_end(label: str) -> re.Pattern[str]:
    """The END line of ``label`` (its words upper case, one space apart), spaced as above."""
    words = f"{_PEM_SPACE}{{1,3}}".join(map(re.escape, label.split(" ")))
    return re.compile(
        rf"(?i)-----?{_PEM_SPACE}{{0,3}}END{_PEM_SPACE}{{1,3}}{words}{_PEM_SPACE}{{0,3}}-----?"
    )


_PUTTY = _lazy(r"PuTTY-User-Key-File-\d+:")
_PUTTY_END = _lazy(r"Private-MAC:[ \t]*[0-9a-fA-F]+")


# A PuTTY key file (a 16384-bit RSA key included) fits in this many characters after its header;
# its parts are looked for no further, and never past the next header.
_PUTTY_WINDOW = 16384


def _putty(text: str) -> Iterator[Span]:
    for m in _PUTTY.finditer(text):
        limit = min(len(text), m.end() + _PUTTY_WINDOW)
        following = _PUTTY.search(text, m.end(), limit)
        if following is not None:
            limit = following.start()
        lines = text.find("Private-Lines:", m.end(), limit)
        if lines != -1:
            mac = _PUTTY_END.search(text, lines, limit)
            yield m.start(), mac.end() if mac else limit, PUTTY_KEY


_JWT = _lazy(r"eyJ[A-Za-z0-9_\-]*+(?:\.[A-Za-z0-9_\-]*+){0,4}")


def _b64url_json(segment: str) -> object:
    if len(segment) > 4096:
        return None
    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        return json.loads(raw)
    except (ValueError, binascii.Error, RecursionError):
        return None


def _jwt(text: str) -> Iterator[Span]:
    for m in _JWT.finditer(text):
        segments = m.group().split(".")
        # A detached JWS (empty payload) is a signature, not a bearer credential.
        if len(segments) < 3 or len(segments[1]) < 2 or not _left_ok(text, m.start(), _WORD_DASH):
            continue
        header = _b64url_json(segments[0])
        if isinstance(header, dict) and "alg" in header:
            yield m.start(), m.end(), JWT


_BEARER = _lazy(r"(?i)bearer[ \t]++(?P<tok>[A-Za-z0-9\-._~+/]++=*+)")
_BASIC = _lazy(r"(?i)basic[ \t]++(?P<tok>[A-Za-z0-9+/]++=*+)")


def _bearer(text: str) -> Iterator[Span]:
    for m in _BEARER.finditer(text):
        tok = m.group("tok")
        if _left_ok(text, m.start(), _WORD) and _plausible_token(tok):
            yield m.start("tok"), m.end("tok"), BEARER


def _basic(text: str) -> Iterator[Span]:
    for m in _BASIC.finditer(text):
        tok = m.group("tok")
        if not _left_ok(text, m.start(), _WORD) or len(tok) % 4 or len(tok) < 8:
            continue
        try:
            decoded = base64.b64decode(tok, validate=True).decode("utf-8")
        except (ValueError, binascii.Error):
            continue
        if ":" in decoded and decoded.isprintable() and len(decoded) >= 3:
            yield m.start("tok"), m.end("tok"), BASIC


# scheme://userinfo@host - the authority ends at the first / ? # (RFC 3986 §3.2); JSON source
# may escape the slashes.
_AUTHORITY = _lazy(r"(?:://|:\\/\\/)(?P<auth>[^\s/?#\"'<>\\]{1,1024}+)")
_SCHEME_TAIL = _lazy(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}\Z")


def _userinfo(text: str) -> Iterator[Span]:
    for m in _AUTHORITY.finditer(text):
        auth = m.group("auth")
        at = auth.rfind("@")
        if at <= 0 or at == len(auth) - 1:
            continue
        if _SCHEME_TAIL.search(text[max(0, m.start() - 32) : m.start()]) is None:
            continue
        kind = _userinfo_kind(auth[:at])
        if kind is not None:
            start = m.start("auth")
            yield start, start + at, kind


def _userinfo_kind(userinfo: str) -> str | None:
    """What a URI's userinfo holds, when it is a credential: a password, or a token standing
    as the user name (`https://<token>@git.example/…`). A user name alone (`ssh://git@host/…`,
    `https://fpa-analyst@sharepoint…`) names an account and grants nothing: OCP-S008 reports
    it on a resource URI, and elsewhere it is no secret."""
    user, colon, password = userinfo.partition(":")
    if colon and password:
        return URI_PASSWORD
    return USERINFO if _plausible_token(user, _TOKEN_USER) else None


# shorter random-looking user names are account names (user5, svc-01, deploy2026)
_TOKEN_USER = 20


_SLACK_HOOK = _lazy(
    r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<tail>[A-Za-z0-9_/\-]*+)"
)
_DISCORD_HOOK = _lazy(r"discord(?:app)?\.com/api/webhooks/[0-9]++/(?P<tail>[A-Za-z0-9_\-]*+)")
_TEAMS_HOOK = _lazy(r"\.webhook\.office\.com/webhookb2/(?P<tail>[^\s\"'<>\\]*+)")


def _webhooks(text: str) -> Iterator[Span]:
    for rx, kind, low in (
        (_SLACK_HOOK, SLACK_WEBHOOK, 16),
        (_DISCORD_HOOK, WEBHOOK, 20),
        (_TEAMS_HOOK, WEBHOOK, 20),
    ):
        for m in rx.finditer(text):
            if len(m.group("tail")) >= low:
                yield _url_start(text, m.start()), m.end(), kind


_URL_HEAD = _lazy(r"(?:[A-Za-z][A-Za-z0-9+.\-]{0,15}://)?[A-Za-z0-9.\-]{0,253}\Z")


def _url_start(text: str, start: int) -> int:
    """Back from a host name to the start of its URL, so redaction takes the whole URL."""
    head = _URL_HEAD.search(text[max(0, start - 270) : start])
    return start - len(head.group()) if head else start


_AZURE_AD_SECRET = _lazy(
    r"(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])"
)


def _azure_ad_secret(text: str) -> Iterator[Span]:
    for m in _AZURE_AD_SECRET.finditer(text):
        yield m.start(), m.end(), AZURE_CLIENT_SECRET


# Formats whose fixed part is in the middle or at the end: the literal is found first, and the
# few characters before it are checked in place, so each occurrence costs a bounded amount.
_HEX_LOWER = frozenset("0123456789abcdef")
_DIGITS = frozenset("0123456789")


def _run_before(text: str, end: int, alphabet: frozenset[str], longest: int) -> int:
    """Start of the run of `alphabet` characters ending at `end`, looking back at most
    `longest + 1` characters (a longer run is reported as `end - longest - 1`)."""
    start = end
    floor = max(0, end - longest - 1)
    while start > floor and text[start - 1] in alphabet:
        start -= 1
    return start


_DISCORD_BOT = _lazy(
    r"(?<![A-Za-z0-9_\-])(?P<id>[MNO][A-Za-z0-9_\-]{22,26})\.[A-Za-z0-9_\-]{6}\."
    r"[A-Za-z0-9_\-]{27,38}(?![A-Za-z0-9_\-])"
)


def _discord_bot(text: str) -> Iterator[Span]:
    """id.timestamp.hmac, the id being the bot's numeric user id in base64."""
    for m in _DISCORD_BOT.finditer(text):
        head = m.group("id")
        try:
            user_id = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))
        except (ValueError, binascii.Error):
            continue
        if user_id.isdigit() and len(user_id) >= 17:
            yield m.start(), m.end(), DISCORD


_TELEGRAM = _lazy(r":(?P<tail>A[A-Za-z0-9_\-]*+)")


def _telegram_bot(text: str) -> Iterator[Span]:
    """The bot's numeric id, a colon, then 35 characters starting with A."""
    for m in _TELEGRAM.finditer(text):
        if len(m.group("tail")) != 35 or not _complex(m.group("tail")):
            continue
        start = _run_before(text, m.start(), _DIGITS, 16)
        if 5 <= m.start() - start <= 16 and _left_ok(text, start, _WORD_DASH):
            yield start, m.end(), TELEGRAM


_MAILCHIMP = _lazy(r"-us[0-9]{1,2}+(?![A-Za-z0-9])")


def _mailchimp(text: str) -> Iterator[Span]:
    """32 hexadecimal digits, then the data centre: -us6."""
    for m in _MAILCHIMP.finditer(text):
        start = _run_before(text, m.start(), _HEX_LOWER, 32)
        if (
            m.start() - start == 32
            and _left_ok(text, start, _WORD_DASH)
            and _ANY_LETTER.search(text, start, m.start())
        ):
            yield start, m.end(), MAILCHIMP


_TERRAFORM = _lazy(r"\.atlasv1\.(?P<tail>[A-Za-z0-9_=\-]*+)")


def _terraform(text: str) -> Iterator[Span]:
    """14 characters, ".atlasv1.", then 60 to 70 more."""
    for m in _TERRAFORM.finditer(text):
        if not 60 <= len(m.group("tail")) <= 70:
            continue
        start = _run_before(text, m.start(), _WORD, 14)
        if m.start() - start == 14 and _left_ok(text, start, _WORD_DASH):
            yield start, m.end(), TERRAFORM


# .netrc: "machine HOST login USER password PASSWORD" (also "default ..."), on one line or
# several. A file's tokens, newlines real or JSON-escaped; the entry is read no further than
# this many characters, and a password is a value with letters and digits, because the same
# words make sentences ("the machine learning login page password reset").
_NETRC_WINDOW = 1024
_NETRC_ENTRY = _lazy(
    r"(?:(?<![A-Za-z0-9_\-])|(?<=\\[rnt]))(?:machine|default)(?=[ \t\r\n]|\\[rnt])"
)
_NETRC_TOKEN = _lazy(r"(?:[^\s\\\"']|\\[^rnt\s])++")
_NETRC_KEYWORDS = frozenset({"login", "password", "account", "port"})


def _netrc(text: str) -> Iterator[Span]:
    pos = 0
    while (m := _NETRC_ENTRY.search(text, pos)) is not None:
        pos = m.end()
        tokens = _NETRC_TOKEN.finditer(text, m.end(), min(len(text), m.end() + _NETRC_WINDOW))
        if m.group() == "machine" and next(tokens, None) is None:
            continue  # machine needs its host name
        seen_login = False
        for keyword in tokens:
            word = keyword.group()
            value = next(tokens, None)
            if word not in _NETRC_KEYWORDS or value is None:
                break
            pos = value.end()  # an entry's tokens are read once
            if word == "login":
                seen_login = True
            elif word == "password" and seen_login:
                if _credential_value(_C_PASSWORD, value.group(), prose=True):
                    yield value.start(), value.end(), PASSWORD
                break


# https:user:pass@host - a special scheme (RFC 3986 says nothing of it; the WHATWG URL parser,
# what browsers run, reads any run of slashes or backslashes after it, none included, as the
# start of an authority). "://" itself is _userinfo's.
_SPECIAL_AUTHORITY = _lazy(
    r"(?i)(?<![A-Za-z0-9+.\-])(?:https?|wss?|ftp):(?P<slashes>[/\\]{0,16}+)"
    r"(?P<auth>[^\s/\\?#\"'<>]{1,1024}+)"
)


def _special_userinfo(text: str) -> Iterator[Span]:
    for m in _SPECIAL_AUTHORITY.finditer(text):
        if m.group("slashes") in ("//", "\\/\\/"):
            continue
        auth = m.group("auth")
        at = auth.rfind("@")
        if at <= 0 or at == len(auth) - 1:
            continue
        kind = _userinfo_kind(auth[:at])
        if kind is not None:
            start = m.start("auth")
            yield start, start + at, kind


# --- names in text: PASSWORD=..., "api_key": "...", ?access_token=..., AccountKey=... ------------

_NAME_OP = _lazy(
    r"""(?<![A-Za-z0-9_.\-])(?P<name>_{0,8}+[A-Za-z][A-Za-z0-9_.\-]{0,127}+)(?P<q>\\?["']?)
        (?P<sp1>[ \t]*)(?P<op>[:=])(?P<sp2>[ \t]*)""",
    re.X,
)
_VALUE = _lazy(
    r"""\\?"(?P<dq>(?:[^"\\\r\n]|\\[^"]){1,1024}+)\\?"|'(?P<sq>[^'\r\n]{1,1024}+)'
        |(?P<bare>[^\s"'`,;&<>]{1,256}+)""",
    re.X,
)
_LINE_REST = _lazy(r"[^\r\n\"']{0,1024}+")
# _NAME_OP where the value after it is long enough to be a credential (4 characters as
# `_assignment_hit` counts them): past _REREAD_LIMIT rejected values in one text, the regex
# steps over "password: a" runs by itself instead of handing each to Python. A header line
# ("Cookie: a=1; b=2") whose first word is shorter is then missed in that text: a producer's
# text does not hold a hundred short assignments before it.
_NAME_OP_VALUED = _lazy(
    _NAME_OP.pattern + r"""(?=\\?"(?:[^"\\\r\n]|\\[^"]){4}|'[^'\r\n]{4}|[^\s"'`,;&<>]{4})""",
    re.X,
)
_NAME_HEAD_ANCHOR = _lazy(r"pass|pwd|pw|secret|token|key|auth|cookie|cred|sig|jwt|bearer|sess")


# A large text is read around the words of credential names, block by block (characters).
_HEAD_BLOCK = 1200
# How many rejected values are read again for names inside them, per text.
_REREAD_LIMIT = 100


def _named_in_text(text: str) -> Iterator[Span]:
    if ":" not in text and "=" not in text:
        return
    if len(text) <= 4096:
        windows = [(0, len(text))]
    else:  # large raw text: only look around the words a credential's name contains
        # Block by block, one search each: a text of "password: a" runs holds a word every
        # dozen characters, and a window per word would cost a step of Python per word.
        low = _folded(text)
        windows = []
        for b in range(0, len(text), _HEAD_BLOCK):
            if _NAME_HEAD_ANCHOR.search(low, b, b + _HEAD_BLOCK + 6) is None:  # 6: "cookie"
                continue
            lo, hi = max(0, b - 130), min(len(text), b + _HEAD_BLOCK + 6 + 1200)
            if windows and lo <= windows[-1][1]:
                windows[-1] = (windows[-1][0], hi)
            else:
                windows.append((lo, hi))
    rejected = 0
    name_op = _NAME_OP
    for lo, hi in windows:
        pos = lo
        while (m := name_op.search(text, pos, hi)) is not None:
            # Only a credential's name gets its value read, so a URL's "https:" never swallows
            # its query string. A rejected value is read again for names inside it
            # (password=https://host/?access_token=...), but only so often: hostile text such
            # as "password:" a hundred thousand times then moves on past each value instead.
            pos = m.end()
            if not _may_name_credential(m.group("name")):
                continue  # (one lookup: "https:" or "note:" a thousand times is no name)
            span = _assignment_hit(text, m)
            if span is None:
                continue
            if span[2]:
                yield span[:3]
                pos = max(pos, span[3])
            else:
                rejected += 1
                if rejected > _REREAD_LIMIT:
                    pos = max(pos, span[3])
                    name_op = _NAME_OP_VALUED


@lru_cache(maxsize=4096)
def _may_name_credential(name: str) -> bool:
    """False when ``name`` holds none of the words every credential's name (`_classify_name`)
    and every credential-carrying query parameter holds: its value is not read."""
    return _NAME_HEAD_ANCHOR.search(name.lower()) is not None


@lru_cache(maxsize=4096)
def _query_name(name: str) -> str:
    return "_".join(_name_parts(name))


def _assignment_hit(text: str, m: re.Match[str]) -> tuple[int, int, str, int] | None:
    """(start, end, kind, end of the value) when a credential's name is assigned a value.

    None when the name is not a credential's; kind "" when its value is not a credential.
    """
    name, op = m.group("name"), m.group("op")
    before = text[m.start() - 1] if m.start() else ""
    query = op == "=" and before != "" and before in "?&#;"
    cls = _classify_name(name)
    if query:
        joined = _query_name(name)
        if joined in _SIGNING_PARAMS:
            cls = _C_SIGNING  # X-Amz-Credential in a query is part of a signed URL
        elif cls is None:
            cls = _QUERY_PARAMS.get(joined)
    if cls is None:
        return None
    v = _VALUE.match(text, m.end())
    if v is None:
        return None
    group = "dq" if v.group("dq") is not None else "sq" if v.group("sq") is not None else "bare"
    start, end = v.span(group)
    resume = v.end()
    header_line = cls in (_C_HEADER, _C_COOKIE) and group == "bare" and op == ":"
    if end - start < 4 and not header_line:
        return start, end, "", resume  # shorter than any credential
    value = v.group(group)
    while group == "bare" and value[-1] in ",;:.)]}":
        # f(api_key=self.api_key), password=None): punctuation and a call's closing bracket
        # belong to the code around the value
        if value[-1] in ")]}" and "([{"[")]}".index(value[-1])] in value:
            break
        value = value[:-1]
        end -= 1
        if not value:
            return None
    if header_line:
        # header syntax, "Authorization: Token abc" or "Cookie: a=1; b=2": the value is the line
        line = _LINE_REST.match(text, start)
        end = line.end() if line else end
        value = text[start:end].rstrip().rstrip(",;")
        end = start + len(value)
        resume = max(resume, end)
    if query and group == "bare" and ("?" in value or "#" in value):
        # a ;path parameter ends where the query or the fragment starts: ;jsessionid=X?a=1
        cut = min((i for i in (value.find("?"), value.find("#")) if i > 0), default=0)
        if cut:
            value, end = value[:cut], start + cut
    if query and "%" in value:
        value = unquote(value)
    if len(value.strip()) < 4:
        return start, end, "", resume  # shorter than any credential
    structured = _structured(text, m, query, quoted=group != "bare", value_end=v.end())
    kind = _credential_value(cls, value, prose=not structured)
    return start, end, kind or "", resume


_LEAD_WINDOW = 256


def _structured(text: str, m: re.Match[str], query: bool, *, quoted: bool, value_end: int) -> bool:
    """Is this name/value pair data (JSON, YAML, .env, a query) rather than running prose?"""
    if query or m.group("q") or (m.group("op") == "=" and not m.group("sp1") + m.group("sp2")):
        return True
    # Only the last characters before the name tell prose from data, and looking no further
    # back keeps a megabyte-long line of "password: a " linear.
    window = max(0, m.start() - _LEAD_WINDOW)
    newline = max(text.rfind("\n", window, m.start()), text.rfind("\r", window, m.start()))
    lead = text[newline + 1 if newline >= 0 else window : m.start()]
    if lead.strip(" \t-*") and not lead.endswith("\\n"):
        return False  # mid-sentence: "the password: see the vault"
    if quoted:
        return True
    rest = text[value_end : value_end + 200].split("\n", 1)[0].strip()
    return not rest or rest.startswith(("#", "\\n", "//", '"', "'", ",", ";"))


# --- a password on a command line: curl -u ops:..., mysql -p..., docker login -p ... ------------

# the flags that give one, after the space (or tab) before them: the detector's anchor
_COMMAND_FLAG = r"(?:-pass(?:word|wd)?[= \t]|-user[= \t]|[upa])"

# Each form reads at most 256 characters of its command line between the command and the flag.
_COMMAND_LINE_PASSWORD = _lazy(
    r"""
    (?<![\w-])
    (?:
        --(?:password|passwd|pass)(?P<op>=|[ \t]+)          # any command's --password
      | (?:curl|wget)[ \t][^\n|;&]{0,256}?(?<=[ \t])(?:-u|--user)(?:=|[ \t]*)
        ["']?[^\s:"'`]{1,128}:                              # curl -u user:..., the user first
      | (?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb)[ \t][^\n|;&]{0,256}?(?<=[ \t])-p
        (?=[^\s\-])                                        # -p... with no space: -p alone asks
      | sshpass[ \t]+-p[ \t]*
      | (?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login[ \t]
        [^\n|;&]{0,256}?(?<=[ \t])-p(?:=|[ \t]+)
      | redis-cli[ \t][^\n|;&]{0,256}?(?<=[ \t])-a[ \t]+
    )
    (?:"(?P<dq>[^"\n]{1,256})"|'(?P<sq>[^'\n]{1,256})'|(?P<bare>[^\s"'`|;&<>]{1,256}))
    """,
    re.X,
)


def _command_line_password(text: str) -> Iterator[Span]:
    """A password given on a command line. "--password flag" in a sentence is prose: a value
    after a space counts when it has letters and digits, as a password told in prose."""
    for m in _COMMAND_LINE_PASSWORD.finditer(text):
        group = "dq" if m.group("dq") is not None else "sq" if m.group("sq") is not None else "bare"
        value = m.group(group)
        if value.startswith(("-", "$", "%")) or _is_placeholder(value):
            continue  # the next flag, a variable, a placeholder
        spaced = m.group("op") is not None and m.group("op") != "="
        if _credential_value(_C_PASSWORD, value, prose=spaced) is None and not (
            group != "bare" and _passphrase(value)
        ):
            continue
        yield m.start(group), m.end(group), PASSWORD


# --- a password told in a sentence: "my password is Wint3r-2026!" -------------------------------

_PASSWORD_IS = _lazy(
    r"(?<![A-Za-z0-9_])(?:pass(?:word|phrase|code)|pwd)"
    # "the password for the admin account is ...": at most four words name whose it is
    r"(?:[ \t]+(?:for|of|to)(?:[ \t]+[\w.@\-]{1,64}+){1,4}?)?[ \t]+(?:is|was)[ \t]*:?[ \t]*"
    r"(?P<value>[^\s\"'`<>]{1,128}+)",
    re.IGNORECASE,
)


def _password_in_prose(text: str) -> Iterator[Span]:
    """Only a value with letters and digits counts: "the password is rotated monthly" and
    "the password was 12 characters" are prose about a password, not one."""
    for m in _PASSWORD_IS.finditer(text):
        value = m.group("value").rstrip(".,;:)]}")
        if _prose_password(value) and not _is_placeholder(value):
            start = m.start("value")
            yield start, start + len(value), PASSWORD


# --- credentials inside an encoding: percent-encoded, base64-wrapped -----------------------------

# A run of URL characters holding percent escapes, e.g. a query ?key=%41%4B%49%41... or
# ?token=ghp%5F...: decoded once (ASCII escapes only: credentials are ASCII), scanned by every
# other detector, and each hit mapped back to the characters it came from. The run takes the
# query's "?", "&" and "#" so that a parameter's name stays beside its decoded value.
_PERCENT_RUN = _lazy(r"(?:[A-Za-z0-9._~+\-/=:!$*,;@?&#]|%[0-9A-Fa-f]{2})++")
_PERCENT_SPLIT = _lazy(r"%([0-7][0-9A-Fa-f])")


def _percent_encoded(text: str) -> Iterator[Span]:
    # Every run of a text is decoded into one text, a line each, and scanned once. The hex
    # digits of all escapes are decoded at once (bytes.fromhex); a decoded offset maps back by
    # counting the escapes before it (each is two characters longer in `text`).
    pieces: list[str] = []
    runs: list[tuple[int, int, list[int]]] = []  # decoded start, start in text, escapes' places
    length = 0
    for run in _PERCENT_RUN.finditer(text):
        if "%" not in run.group():
            continue
        parts = _PERCENT_SPLIT.split(run.group())
        if len(parts) == 1:
            continue
        literals = parts[0::2]
        chars = bytes.fromhex("".join(parts[1::2])).decode("ascii")
        places = list(map(operator.add, accumulate(map(len, literals[:-1])), count()))
        pieces.extend(chain.from_iterable(zip(literals, chars, strict=False)))
        pieces.append(literals[-1] + "\n")
        runs.append((length, run.start(), places))
        length += len(run.group()) - 2 * len(chars) + 1
    if not runs:
        return
    plain = "".join(pieces)
    starts = [r[0] for r in runs]

    def back(offset: int) -> tuple[int, int]:
        """Where decoded character `offset` starts in `text`, and its width there."""
        decoded_start, text_start, places = runs[bisect_right(starts, offset) - 1]
        inside = offset - decoded_start
        before = bisect_left(places, inside)
        escaped = before < len(places) and places[before] == inside
        return text_start + inside + 2 * before, 3 if escaped else 1

    for start, end, kind in _scan(plain, _anchor_bits(plain) & ~_DECODING_BITS):
        last, width = back(end - 1)
        yield back(start)[0], last + width, kind


# A base64 blob (standard or URL-safe alphabet) may wrap a credential: a PEM key in a
# Kubernetes secret, a token in a config blob. Runs long enough to hold one are decoded once, in
# chunks of bounded size, and kept only when they decode to text; a hit anywhere in the text
# flags the whole run. Base64 of base64 is not unwrapped again.
_BASE64_RUN = _lazy(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{24,}+={0,2}")
_BASE64_CHUNK = 65536  # characters, a multiple of 4
_URLSAFE = bytes.maketrans(b"-_", b"+/")
_TEXT_CONTROLS = _lazy(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]")


def _base64_wrapped(text: str) -> Iterator[Span]:
    # As for percent escapes: every run's text decoded into one text, a line each, scanned once.
    decoded: list[str] = []
    ends: list[int] = []  # where each run's decoded lines end in the decoded text
    runs: list[tuple[int, int]] = []
    length = 0
    for run in _BASE64_RUN.finditer(text):
        blob = run.group().rstrip("=")
        if not (_has_lower(blob) and _has_upper(blob)):
            continue  # base64 of text always mixes cases; hex, words and paths do not
        for offset in range(0, len(blob), _BASE64_CHUNK):
            plain = _decoded_text(blob[offset : offset + _BASE64_CHUNK])
            if plain is None:
                break
            decoded.append(plain + "\n")
            length += len(plain) + 1
            ends.append(length)
            runs.append(run.span())
    if not decoded:
        return
    plain = "".join(decoded)
    flagged: set[int] = set()
    for start, _end, kind in _scan(plain, _anchor_bits(plain) & ~_DECODING_BITS):
        i = bisect_right(ends, start)
        if runs[i][0] not in flagged:
            flagged.add(runs[i][0])
            yield runs[i][0], runs[i][1], kind


def _decoded_text(blob: str) -> str | None:
    # The run is ASCII (its regex says so): bytes.translate maps through a 256-byte table, where
    # str.translate looks every character up in a dict.
    data = blob.encode("ascii").translate(_URLSAFE)
    data = data[: len(data) - len(data) % 4] if len(data) % 4 == 1 else data
    try:
        raw = binascii.a2b_base64(data + b"=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        return None
    plain = raw.decode("utf-8", "replace")
    return None if _TEXT_CONTROLS.search(plain) else plain


# --- which detectors a string needs: literal anchors -------------------------------------------

_GOOGLE_KEY = _token_rule(r"AIza(?P<tail>[0-9A-Za-z_\-]*+)", GOOGLE_API_KEY, tail=(30, 45))
_GOOGLE_OAUTH = _token_rule(r"ya29\.(?P<tail>[0-9A-Za-z_\-]*+)", GOOGLE_OAUTH, tail=(20, 4096))
_GOOGLE_SECRET = _token_rule(
    r"GOCSPX-(?P<tail>[0-9A-Za-z_\-]*+)", GOOGLE_CLIENT_SECRET, tail=(20, 64)
)
_GITHUB = _token_rule(r"gh[pousr]_(?P<tail>[A-Za-z0-9]*+)", GITHUB, tail=(30, 255))
_GITHUB_PAT = _token_rule(r"github_pat_(?P<tail>[A-Za-z0-9_]*+)", GITHUB, tail=(22, 255))
_GITLAB = _token_rule(
    r"gl(?:pat|dt|rtr|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct|wt)-(?P<tail>[A-Za-z0-9_\-]*+)",
    GITLAB,
    tail=(20, 255),
)
_GITLAB_RUNNER = _token_rule(r"GR1348941(?P<tail>[A-Za-z0-9_\-]*+)", GITLAB, tail=(20, 255))
_GRAFANA_SA = _token_rule(r"glsa_(?P<tail>[A-Za-z0-9_]*+)", GRAFANA, tail=(32, 64))
_GRAFANA_CLOUD = _token_rule(r"glc_(?P<tail>[A-Za-z0-9+/=]*+)", GRAFANA, tail=(32, 1024))
_SLACK = _token_rule(r"xox[abprse]-(?P<tail>[A-Za-z0-9\-]*+)", SLACK, tail=(10, 255))
_SLACK_APP = _token_rule(r"xapp-(?P<tail>[A-Za-z0-9\-]*+)", SLACK, tail=(10, 255))
_STRIPE = _token_rule(r"[sr]k_(?:live|test)_(?P<tail>[A-Za-z0-9]*+)", STRIPE, tail=(10, 255))
_STRIPE_WEBHOOK = _token_rule(r"whsec_(?P<tail>[A-Za-z0-9+/=]*+)", STRIPE_WEBHOOK, tail=(20, 255))
_SK = _token_rule(r"sk-(?P<tail>[A-Za-z0-9_\-]*+)", SK_KEY, tail=(20, 512), check=_sk_tail)
_NPM = _token_rule(r"npm_(?P<tail>[A-Za-z0-9]*+)", NPM, tail=(30, 64))
_PYPI = _token_rule(
    r"pypi-(?P<tail>[A-Za-z0-9_\-]*+)", PYPI, tail=(40, 1024), check=_has_upper_or_unbroken
)
_HUGGING_FACE = _token_rule(r"hf_(?P<tail>[A-Za-z0-9]*+)", HUGGING_FACE, tail=(30, 64))
_SENDGRID = _token_rule(
    r"SG\.(?P<tail>[A-Za-z0-9_\-]{16,}+\.[A-Za-z0-9_\-]{16,}+)", SENDGRID, tail=(33, 128)
)
_SHOPIFY = _token_rule(r"shp(?:at|ca|pa|ss)_(?P<tail>[a-fA-F0-9]*+)", SHOPIFY, tail=(32, 32))
_DIGITALOCEAN = _token_rule(r"do[por]_v1_(?P<tail>[a-f0-9]*+)", DIGITALOCEAN, tail=(64, 64))
_VAULT = _token_rule(r"hv[sb]\.(?P<tail>[A-Za-z0-9_\-]*+)", VAULT, tail=(24, 512))
_AGE = _token_rule(r"AGE-SECRET-KEY-1(?P<tail>[0-9A-Z]*+)", AGE_KEY, tail=(50, 70))
_POSTMAN = _token_rule(r"PMAK-(?P<tail>[a-f0-9]{24}-[a-f0-9]{34})", POSTMAN, tail=(59, 59))
_LINEAR = _token_rule(r"lin_api_(?P<tail>[A-Za-z0-9]*+)", LINEAR, tail=(32, 64))
_DATABRICKS = _token_rule(r"dapi(?P<tail>[a-f0-9]*+)", DATABRICKS, tail=(32, 32))
_SQUARE = _token_rule(r"sq0(?:atp|csp)-(?P<tail>[A-Za-z0-9_\-]*+)", SQUARE, tail=(22, 128))
_ATLASSIAN = _token_rule(r"ATATT3(?P<tail>[A-Za-z0-9_\-=]*+)", ATLASSIAN, tail=(100, 512))
_DOCKER_HUB = _token_rule(
    r"dckr_(?:pat|oat)_(?P<tail>[A-Za-z0-9_\-]*+)", DOCKER_HUB, tail=(24, 64), check=_complex
)


def _hex_key(tail: str) -> bool:
    """Random hexadecimal: digits and letters, all of one case."""
    return (
        all(c in _HEX_LOWER for c in tail.lower())
        and (tail.islower() or tail.isupper())
        and bool(_ANY_DIGIT.search(tail))
        and bool(_ANY_LETTER.search(tail))
    )


def _braintree_tail(tail: str) -> bool:
    merchant, dollar, key = tail.partition("$")
    return bool(dollar) and len(merchant) == 16 and len(key) == 32 and _hex_key(key)


_TWILIO = _token_rule(r"SK(?P<tail>[0-9A-Za-z]*+)", TWILIO, tail=(32, 32), check=_hex_key)
_MAILGUN = _token_rule(r"key-(?P<tail>[0-9A-Za-z]*+)", MAILGUN, tail=(32, 32), check=_hex_key)
_SQUARE_TOKEN = _token_rule(
    r"EAAA(?P<tail>[A-Za-z0-9_\-]*+)", SQUARE, tail=(22, 96), check=_random_looking
)
_NEW_RELIC = _token_rule(
    r"NR(?:AK|JS|II|AA|IQ|RA)-(?P<tail>[A-Za-z0-9\-]*+)", NEW_RELIC, tail=(19, 64), check=_complex
)
_ALIBABA = _token_rule(
    r"LTAI(?P<tail>[A-Za-z0-9]*+)", ALIBABA, tail=(12, 30), check=_random_looking
)
_DOPPLER = _token_rule(
    r"dp\.(?:pt|st|ct|sa|scim|audit)\.(?P<tail>[A-Za-z0-9]*+)", DOPPLER, tail=(40, 64)
)
_PULUMI = _token_rule(r"pul-(?P<tail>[0-9A-Za-z]*+)", PULUMI, tail=(40, 40), check=_hex_key)
_ARTIFACTORY = _token_rule(
    r"AKCp(?P<tail>[A-Za-z0-9]*+)", ARTIFACTORY, tail=(60, 80), check=_random_looking
)
_ARTIFACTORY_REFERENCE = _token_rule(
    r"cmVmd(?P<tail>[A-Za-z0-9]*+)", ARTIFACTORY, tail=(59, 59), check=_random_looking
)
_BRAINTREE = _token_rule(
    r"access_token\$(?:production|sandbox)\$(?P<tail>[0-9a-z$]*+)",
    BRAINTREE,
    tail=(49, 49),
    check=_braintree_tail,
)
_CLOUDFLARE_CA = _token_rule(
    r"v1\.0-(?P<tail>[0-9a-f]{24}-[0-9a-f]*+)", CLOUDFLARE_CA, tail=(171, 171)
)
_GOOGLE_REFRESH = _token_rule(
    r"1//0(?P<tail>[0-9A-Za-z_\-]*+)",
    GOOGLE_REFRESH,
    tail=(38, 512),
    boundary=_WORD_DASH | {"/"},
    check=_complex,
)
_HEROKU = _token_rule(r"HRKU-AA(?P<tail>[0-9A-Za-z_\-]*+)", HEROKU, tail=(58, 58))
_SENDINBLUE = _token_rule(
    r"xkeysib-(?P<tail>[a-f0-9]{64}-[A-Za-z0-9]*+)", SENDINBLUE, tail=(81, 81)
)
_PLANETSCALE = _token_rule(
    r"pscale_(?:tkn|oauth|pw)_(?P<tail>[A-Za-z0-9_.=\-]*+)",
    PLANETSCALE,
    tail=(32, 64),
    check=_complex,
)
_RUBYGEMS = _token_rule(r"rubygems_(?P<tail>[0-9a-z]*+)", RUBYGEMS, tail=(48, 48), check=_hex_key)
_SENTRY = _token_rule(
    r"sntry[su]_(?P<tail>[A-Za-z0-9+/=_\-]*+)", SENTRY, tail=(40, 512), check=_complex
)
_MAPBOX = _token_rule(
    r"sk\.eyJ(?P<tail>[A-Za-z0-9_\-.]*+)", MAPBOX, tail=(60, 512), check=lambda t: "." in t
)

_NAME_END = r"s?\\?[\"']?[ \t]*[:=\n]"

# (literal prefix, match it in the lower-cased text?, [(the rest of an anchor, the detectors
# it calls for)]). Every detector's match contains one of its anchors, and a detector runs only
# on strings that hold one. Each anchor starts with a literal character, so finding it is a fast
# substring search; anchors are grouped by that first character because one pass per group
# costs what one pass per literal does, and the alternative that matched (a named group) says
# which detectors a string needs: "sk-" calls for the OpenAI style rule alone, not for every
# rule whose prefix starts with "s".
_Alternatives = list[tuple[str, tuple[Detector, ...]]]
_BASE64_ANCHOR = r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{24}"
_ANCHOR_TABLE: list[tuple[str, bool, _Alternatives]] = [
    (
        "A",
        False,
        [
            ("KIA|SIA|3T|BIA|CCA", (_aws_key_id,)),
            ("Iza", (_GOOGLE_KEY,)),
            ("GE-SECRET-KEY-1", (_AGE,)),
            ("TATT3", (_ATLASSIAN,)),
            ("KCp", (_ARTIFACTORY,)),
        ],
    ),
    (
        "P",
        False,
        [("RIVATE KEY", (_pem,)), ("uTTY-User-Key-File-", (_putty,)), ("MAK-", (_POSTMAN,))],
    ),
    # the armour in another case or spacing (the folded text is lower case)
    ("private", True, [("[ \t\u00a0]{1,3}key", (_pem,))]),
    ("G", False, [("OCSPX-", (_GOOGLE_SECRET,)), ("R1348941", (_GITLAB_RUNNER,))]),
    ("S", False, [(r"G\.", (_SENDGRID,)), ("K[0-9a-fA-F]{32}", (_TWILIO,))]),
    ("EAAA", False, [("", (_SQUARE_TOKEN,))]),
    ("NR", False, [("(?:AK|JS|II|AA|IQ|RA)-", (_NEW_RELIC,))]),
    ("LTAI", False, [("", (_ALIBABA,))]),
    ("HRKU-AA", False, [("", (_HEROKU,))]),
    ("key-", False, [("[0-9a-fA-F]{32}", (_MAILGUN,))]),
    ("p", False, [("ul-", (_PULUMI,)), ("scale_", (_PLANETSCALE,)), ("ypi-", (_PYPI,))]),
    ("Vmd", False, [("", (_ARTIFACTORY_REFERENCE,))]),
    (r"\$", False, [(r"(?:production|sandbox)\$", (_BRAINTREE,))]),
    ("1", False, [(r"\.0-", (_CLOUDFLARE_CA,)), ("//0", (_GOOGLE_REFRESH,))]),
    ("r", False, [("ubygems_", (_RUBYGEMS,)), ("k_", (_STRIPE,))]),
    (
        r"\.",
        False,
        [
            (r"[A-Za-z0-9_\-]{6}\.", (_discord_bot,)),
            (r"atlasv1\.", (_terraform,)),
            (r"webhook\.office\.com/", (_webhooks,)),
        ],
    ),
    (
        ":",
        False,
        [
            (r"A[A-Za-z0-9_\-]{34}", (_telegram_bot,)),
            (r"//[^\s/?#@]*@|\\/\\/[^\s/?#@]*@", (_userinfo,)),
        ],
    ),
    ("-us", False, [("[0-9]", (_mailchimp,))]),
    ("machine", False, [(r"(?:[ \t\r\n]|\\[rnt])", (_netrc,))]),
    # an anchor need only lie inside its detector's match: a rare character is a cheap pass
    ("@", False, [("", (_special_userinfo,))]),
    ("%", False, [("[0-7][0-9A-Fa-f]", (_percent_encoded,))]),
    ("", False, [(_BASE64_ANCHOR, (_base64_wrapped,))]),
    (
        "g",
        False,
        [
            ("h[pousr]_", (_GITHUB,)),
            ("ithub_pat_", (_GITHUB_PAT,)),
            ("ls[a]_", (_GRAFANA_SA, _GITLAB)),
            ("lc_", (_GRAFANA_CLOUD,)),
            ("l[a-z]{1,6}[-_]", (_GITLAB,)),
        ],
    ),
    (
        "x",
        False,
        [("ox[abprse]-", (_SLACK,)), ("app-", (_SLACK_APP,)), ("keysib-", (_SENDINBLUE,))],
    ),
    (
        "h",
        False,
        [(r"ooks\.slack\.com/", (_webhooks,)), ("f_", (_HUGGING_FACE,)), (r"v[sb]\.", (_VAULT,))],
    ),
    (
        "s",
        False,
        [
            ("k_", (_STRIPE,)),
            ("k-", (_SK,)),
            (r"k\.eyJ", (_MAPBOX,)),
            ("hp", (_SHOPIFY,)),
            ("q0", (_SQUARE,)),
            ("ntry[su]_", (_SENTRY,)),
        ],
    ),
    (
        "d",
        False,
        [
            ("api", (_DATABRICKS,)),
            ("iscord", (_webhooks,)),
            ("ckr_", (_DOCKER_HUB,)),
            (r"p\.(?:pt|st|ct|sa|scim|audit)\.", (_DOPPLER,)),
            (r"efault(?:[ \t\r\n]|\\[rnt])", (_netrc,)),
        ],
    ),
    ("whsec_", False, [("", (_STRIPE_WEBHOOK,))]),
    ("npm_", False, [("", (_NPM,))]),
    (r"ya29\.", False, [("", (_GOOGLE_OAUTH,))]),
    ("_v1_", False, [("", (_DIGITALOCEAN,))]),
    ("lin_api_", False, [("", (_LINEAR,))]),
    ("Q~", False, [("", (_azure_ad_secret,))]),
    ("eyJ", False, [("", (_jwt,))]),
    ("b", True, [("earer", (_bearer, _named_in_text)), ("asic", (_basic, _named_in_text))]),
    # How a credential's name ends (see _NAME_HEADS), where a name ends: before ":" or "=", or
    # at the end of the string (the document scan puts a newline after every string).
    (
        "p",
        True,
        [
            (rf"(?:ass(?:word|wd|phrase)?|wd?|hrase|air[-_]?id){_NAME_END}", (_named_in_text,)),
            (
                r"(?:ass(?:word|phrase|code)|wd)[ \t]+(?:is|was|for|of|to)[ \t]",
                (_password_in_prose,),
            ),
        ],
    ),
    (
        "s",
        True,
        [
            (
                rf"(?:ess(?:ion)?[-_]?id|ecret(?:[-_]?key[-_]?base)?|ig(?:nature)?){_NAME_END}",
                (_named_in_text,),
            )
        ],
    ),
    # a password on a command line: its flag after a space (curl -u, --user, --password, mysql
    # -p..., sshpass -p, docker login -p, redis-cli -a), or --password starting a string; a
    # literal prefix, which the search skips to (an anchor that may start at any letter made
    # the scan of a 200 KB document 2.8 ms slower)
    (" -", False, [(_COMMAND_FLAG, (_command_line_password,))]),
    ("\t-", False, [(_COMMAND_FLAG, (_command_line_password,))]),
    ("\n--pass", False, [(r"(?:word|wd)?[= \t]", (_command_line_password,))]),
    ("", True, [(rf"token{_NAME_END}", (_named_in_text,))]),
    ("", True, [(rf"key{_NAME_END}", (_named_in_text,))]),
    ("", True, [(rf"auth(?:orization)?{_NAME_END}", (_named_in_text,))]),
    ("", True, [(rf"c(?:ookie|red(?:ential)?){_NAME_END}", (_named_in_text,))]),
    ("", True, [(rf"jwt{_NAME_END}", (_named_in_text,))]),
]
_DETECTORS: list[Detector] = list(
    dict.fromkeys(d for _, _, alternatives in _ANCHOR_TABLE for _, ds in alternatives for d in ds)
)
_BIT = {d: 1 << i for i, d in enumerate(_DETECTORS)}
_NAMED_BIT = _BIT[_named_in_text]
# Detectors that decode and scan again: never run on what they decoded (decode once).
_DECODING_BITS = _BIT[_percent_encoded] | _BIT[_base64_wrapped]


def _compile_anchor(
    prefix: str, folded: bool, alternatives: _Alternatives
) -> tuple[re.Pattern[str], bool, int, dict[str, int] | None]:
    """The anchor's regex, whether it runs on folded text, the bits of all its detectors, and
    the bits of each alternative by the name of its group (None when it has one)."""
    bits = [reduce(operator.or_, (_BIT[d] for d in ds)) for _, ds in alternatives]
    if len(alternatives) == 1:
        return _lazy(prefix + alternatives[0][0]), folded, bits[0], None
    groups = "|".join(f"(?P<a{n}>{rest})" for n, (rest, _) in enumerate(alternatives))
    by_group = {f"a{n}": bit for n, bit in enumerate(bits)}
    return _lazy(f"{prefix}(?:{groups})"), folded, reduce(operator.or_, bits), by_group


_ANCHORS = [_compile_anchor(*entry) for entry in _ANCHOR_TABLE]
# An anchor's regex -> its prefix and its alternatives' patterns (for `_some_of`).
_ANCHOR_PARTS = {
    rx.pattern: (prefix, [rest for rest, _ in alternatives])
    for (rx, _, _, _), (prefix, _, alternatives) in zip(_ANCHORS, _ANCHOR_TABLE, strict=True)
}
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _folded(text: str) -> str:
    """Lower-cased text with the same length, so offsets found in it hold in `text`."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def _anchor_bits(text: str) -> int:
    low = _folded(text)
    bits = 0
    for rx, folded, bit, _by_group in _ANCHORS:
        if (bits & bit) != bit and rx.search(low if folded else text):
            bits |= bit
    return bits


_BY_BIT = {bit: d for d, bit in _BIT.items()}


def _scan(text: str, bits: int) -> list[Span]:
    return _merge(_spans(text, bits))


def _spans(text: str, bits: int, most: int | None = None) -> list[Span]:
    """The spans of the detectors ``bits`` names (at most ``most`` from each), unmerged."""
    spans: list[Span] = []
    while bits:
        bit = bits & -bits  # lowest set bit: visit only the detectors asked for
        spans.extend(islice(_BY_BIT[bit](text), most))
        bits ^= bit
    return spans


# A string value with a credential in it is withheld whole (app/redaction.py), so a document
# scan needs few of its spans: their kinds for the message, their texts to withhold where
# they are quoted again. Each detector gives at most this many per string value: a string of
# 6,000 unterminated PEM headers costs 8 hits, not 6,000 (scan_text, which redacts span by
# span, still finds all).
_SPANS_PER_VALUE = 8


def _scan_value(text: str, bits: int) -> list[Span]:
    """The spans of one string value the document scan records (see _SPANS_PER_VALUE). The
    decoding detectors run only when no other detector flagged the string: what they would
    add to a string already withheld is one more kind in its message."""
    spans = _spans(text, bits & ~_DECODING_BITS, _SPANS_PER_VALUE)
    if not spans:
        spans = _spans(text, bits & _DECODING_BITS, _SPANS_PER_VALUE)
    return _merge(spans)


def _merge(spans: list[Span]) -> list[Span]:
    if len(spans) < 2:
        return spans
    spans.sort(key=lambda s: (s[0], -s[1]))
    out = [spans[0]]
    for s, e, kind in spans[1:]:
        ps, pe, pkind = out[-1]
        if s < pe:
            # keep the format's name ("a bearer token") over the member name's ("a password")
            better = kind if pkind in _NAMED_KINDS and kind not in _NAMED_KINDS else pkind
            out[-1] = (ps, max(pe, e), better)
        else:
            out.append((s, e, kind))
    return out


def scan_text(text: str) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of apparent credentials in any text, sorted, not overlapping.

    Works on a string value, a member name, or raw unparsed source (JSON escapes included).
    """
    if not isinstance(text, str) or not text:
        return []
    return _scan(text, _anchor_bits(text))


def scan_texts(texts: Sequence[str]) -> list[list[Span]]:
    """`scan_text` of each of ``texts``, with the anchors looked for in all of them at once: a
    report's thousand messages cost one search of each anchor, not a thousand. (An anchor that
    ends at a string's end may send a text to more detectors than `scan_text` would: only more
    is looked for.)"""
    found: list[list[Span]] = [[] for _ in texts]
    for i, bits in _candidates(list(texts)).items():
        if texts[i]:
            found[i] = _scan(texts[i], bits)
    return found


def redact(text: str, replacement: str = "[redacted: looks like a credential]") -> str:
    """`text` with every span `scan_text` reports replaced by `replacement`."""
    return redact_spans(text, scan_text(text), replacement)


def redact_spans(text: str, spans: Iterable[Span], replacement: str) -> str:
    """`text` with each of ``spans`` (sorted, not overlapping) replaced by `replacement`."""
    parts: list[str] = []
    pos = 0
    for start, end, _kind in spans:
        parts.append(text[pos:start])
        parts.append(replacement)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


# --- the document scan --------------------------------------------------------------------------

_NAME_MEMBERS = ("name", "key", "header", "field", "variable", "param", "parameter")


class _Layout:
    """Every string value of a document in one list, and the way back to its place.

    Each container contributes one contiguous segment of its values (an object's in member
    order, an array's items; non-strings as ""). Member names are collected as a set instead:
    documents repeat a few dozen names thousands of times, and each distinct one is scanned once.
    Pointers are built only for the few places that hit.
    """

    def __init__(self, document: dict[object, object] | list[object]) -> None:
        conts: list[object] = [document]
        parents = [-1]
        flat: list[str] = []
        seg_start: list[int] = []
        names: set[object] = set()
        append = flat.append
        # Breadth first, with `conts` as its own queue: no recursion limit, and container k
        # owns segment k. One explicit loop per value measured faster than comprehensions.
        c = 0
        while c < len(conts):
            obj = conts[c]
            seg_start.append(len(flat))
            if isinstance(obj, dict):
                names.update(obj)
                values: Iterable[object] = obj.values()
            else:
                values = obj  # type: ignore[assignment]  # a list: see the isinstance above
            for v in values:
                t = v.__class__
                if t is str:  # (mypy cannot narrow on a class identity test)
                    append(v)  # type: ignore[arg-type]
                elif t is dict or t is list or isinstance(v, CONTAINERS):
                    append("")
                    conts.append(v)
                    parents.append(c)
                else:  # a number, a boolean, null, or a str subclass such as a StrEnum
                    append(str.__str__(v) if isinstance(v, str) else "")
            c += 1
        self.conts = conts
        self.parents = parents
        self.flat = flat
        self.seg_start = seg_start
        self.names = names
        self._keys: dict[int, list[object]] = {}
        self._pointers: dict[int, tuple[str, tuple[int, ...], tuple[str, ...]]] = {0: ("", (), ())}
        self._child_index: dict[int, dict[int, tuple[object, int]]] = {}

    def locate(self, i: int) -> tuple[int, object, int]:
        """String value `i` -> (container, token, ordinal in the container)."""
        c = bisect_right(self.seg_start, i) - 1
        ordinal = i - self.seg_start[c]
        obj = self.conts[c]
        if isinstance(obj, dict):
            keys = self._keys.get(c)
            if keys is None:  # listed once: many hits in one object must not walk it each time
                keys = self._keys[c] = list(obj)
            return c, keys[ordinal], ordinal
        return c, ordinal, ordinal

    def pointer(self, c: int) -> tuple[str, tuple[int, ...], tuple[str, ...]]:
        """JSON Pointer of container `c`, its ordinals (which sort in document order) and its
        tokens."""
        cached = self._pointers.get(c)
        if cached is None:
            # Walk up rather than cache every ancestor's pointer: on a very deep document
            # that cache would grow with the square of the depth.
            tokens: list[str] = []
            order: list[int] = []
            child = c
            while child:
                parent = self.parents[child]
                token, ordinal = self._token_in_parent(parent, child)
                tokens.append(str(token))
                order.append(ordinal)
                child = parent
            tokens.reverse()
            pointer = "".join(["/" + escape_token(t) for t in tokens])
            cached = (pointer, tuple(reversed(order)), tuple(tokens))
            self._pointers[c] = cached
        return cached

    def _token_in_parent(self, parent: int, child: int) -> tuple[object, int]:
        index = self._child_index.get(parent)
        if index is None:
            pobj = self.conts[parent]
            pairs: Iterable[tuple[object, object]] = (
                pobj.items() if isinstance(pobj, dict) else enumerate(pobj)  # type: ignore[arg-type]
            )
            index = {}
            for ordinal, (token, value) in enumerate(pairs):
                index.setdefault(id(value), (token, ordinal))
            self._child_index[parent] = index
        return index[id(self.conts[child])]


# The base64 anchor as the document scan runs it: a run starts after a boundary character (the
# scan puts a newline before every string), a cheaper search than the look-behind.
_CANDIDATE_ANCHORS = [
    (
        _lazy(r"[^A-Za-z0-9+/_\-][A-Za-z0-9+/_\-]{24}") if rx.pattern == _BASE64_ANCHOR else rx,
        folded,
        bit,
        by_group,
    )
    for rx, folded, bit, by_group in _ANCHORS
]


def _candidates(strings: list[str]) -> dict[int, int]:
    """Index of each string that holds an anchor -> the bits of the detectors it needs.

    The strings are searched as one text, each between newlines: a newline after a string lets
    a name anchor see where a member name ends, and one before it starts the base64 anchor.
    """
    hay = "\n" + "\n".join(strings) + "\n"
    ends = list(map(operator.add, accumulate(map(len, strings)), count(1)))  # each one's "\n"
    low = _folded(hay)
    found: dict[int, int] = {}
    where = partial(bisect_right, ends)
    for rx, folded, bit, by_group in _CANDIDATE_ANCHORS:
        # No anchor contains a newline except as its last character (or, for base64, its
        # first), so none reaches from one string into the next.
        if by_group is None:
            # One hit tells all this anchor can about a string: the search goes on from the
            # string's end, so a string holding the anchor 30,000 times costs one step.
            text = low if folded else hay
            pos = 0
            while (m := rx.search(text, pos)) is not None:
                i = where(m.start())
                found[i] = found.get(i, 0) | bit
                pos = ends[i] if i < len(ends) else len(text)
        else:
            # The same for an anchor of several alternatives, once the string's other
            # alternatives are looked for: what is left of them, searched in the string alone.
            text = low if folded else hay
            others = _OTHERS[rx.pattern]
            pos = 0
            while (m := rx.search(text, pos)) is not None:
                i = where(m.start())
                end = ends[i] if i < len(ends) else len(text)
                group = m.lastgroup or ""
                bits = found.get(i, 0) | by_group[group]
                n = others[group].search(text, m.end(), end)
                if n is not None:  # rare: two alternatives of one anchor in one string
                    rest = frozenset(by_group) - {group}
                    while n is not None:
                        bits |= by_group[n.lastgroup or ""]
                        rest -= {n.lastgroup or ""}
                        n = _some_of(rx, rest).search(text, n.end(), end) if rest else None
                found[i] = bits
                pos = end
    return found


@lru_cache(maxsize=256)
def _some_of(rx: re.Pattern[str], groups: frozenset[str]) -> re.Pattern[str]:
    """An anchor of alternatives (see `_compile_anchor`) with only the named ones left."""
    prefix, alternatives = _ANCHOR_PARTS[rx.pattern]
    kept = "|".join(f"(?P<a{n}>{rest})" for n, rest in enumerate(alternatives) if f"a{n}" in groups)
    return _lazy(f"{prefix}(?:{kept})", rx.flags)


# For each anchor of alternatives, by the name of each alternative: the anchor with the others.
_OTHERS = {
    rx.pattern: {group: _some_of(rx, frozenset(by_group) - {group}) for group in by_group}
    for rx, _, _, by_group in _CANDIDATE_ANCHORS
    if by_group is not None
}


Record = Callable[[int, tuple[object, ...], tuple[int, ...], Span, bool, str], None]


def find_secrets(document: object) -> list[SecretHit]:
    """Every apparent credential in a parsed checkpoint (any JSON value), in document order."""
    return scan_document(document).hits


class SecretScan(NamedTuple):
    hits: list[SecretHit]  # in document order
    # False when the scan stopped past its limit of flagged places: there are more, unknown
    complete: bool


def scan_document(document: object, limit: int | None = None) -> SecretScan:
    """The apparent credentials of a parsed checkpoint, in document order; with ``limit``,
    the scan stops once it has found more than ``limit`` flagged places (the first found,
    not the first in document order).

    A report lists 1,000 findings of a code: past that many, a document is a dump of
    credentials, not a checkpoint that holds one by accident, and finding, placing and
    withholding every one of 10,000 would cost several times what a benign document of its
    size costs. What stops early says so (`complete`), and what shows the document then
    withholds all of it (app/redaction.py)."""
    found: list[tuple[_SortKey, SecretHit]] = []
    places: set[str] = set()
    complete = True
    for entry in _hits(document):
        found.append(entry)
        if limit is not None:
            places.add(entry[1].path)
            if len(places) > limit:
                complete = False
                break
    found.sort(key=lambda entry: entry[0])
    return SecretScan([hit for _, hit in found], complete)


def first_secret(document: object) -> SecretHit | None:
    """An apparent credential in `document` (the first one found, not necessarily the first in
    document order), or None when it holds none.

    For a caller that refuses a document as soon as one credential is certain (the share
    route): the scan stops at the first hit, so a document with a key near its start is
    refused without reading the rest.
    """
    for _, hit in _hits(document):
        return hit
    return None


_SortKey = tuple[tuple[int, ...], int, int]
# String values are scanned in batches of about this many characters: the anchors are looked
# for in one batch at a time, so first_secret stops after the batch of its first hit.
_BATCH_CHARS = 1 << 18


def _batches(strings: list[str]) -> Iterator[tuple[int, int]]:
    ends = list(accumulate(map(len, strings)))
    start = 0
    while start < len(strings):
        floor = ends[start - 1] if start else 0
        stop = min(len(strings), bisect_left(ends, floor + _BATCH_CHARS, start) + 1)
        yield start, stop
        start = stop


def _hits(document: object) -> Iterator[tuple[_SortKey, SecretHit]]:
    """Every hit with its place in document order, values first, then member names."""
    if isinstance(document, str):
        for s, e, k in scan_text(document):
            yield ((), 1, s), SecretHit("", k, s, e, False, (), document)
        return
    if not isinstance(document, CONTAINERS):
        return
    layout = _Layout(document)
    pending: list[tuple[_SortKey, SecretHit]] = []
    # (container, tail) -> pointer, tokens, ordinals: built once per place, not per hit (a
    # member's name and its value share one)
    places: dict[tuple[int, tuple[object, ...]], tuple[str, tuple[str, ...], tuple[int, ...]]]
    places = {}

    def record(
        c: int,
        tail: tuple[object, ...],
        order: tuple[int, ...],
        span: Span,
        in_key: bool,
        text: str,
    ) -> None:
        place = places.get((c, tail))
        if place is None:
            ptr, corder, ctokens = layout.pointer(c)
            tokens = tuple(map(str, tail))
            path = ptr + "".join(["/" + escape_token(t) for t in tokens])
            place = places[(c, tail)] = (path, ctokens + tokens, (*corder, *order))
        path, tokens, ordinals = place
        hit = SecretHit(path, span[2], span[0], span[1], in_key, tokens, text)
        # document order: by place (a member before anything inside its value), then a member's
        # name before its value, then by position in the string
        pending.append(((ordinals, 0 if in_key else 1, span[0]), hit))

    # Only the non-empty values are searched (selected at C speed): a document of many small
    # containers has a "" in `flat` for each, and their bookkeeping would cost more than the
    # search.
    strings = list(compress(layout.flat, layout.flat))
    index = list(compress(count(), layout.flat))
    for first, last in _batches(strings):
        for i, bits in _candidates(strings[first:last]).items():
            text = strings[first + i]
            spans = _scan_value(text, bits)
            if spans:
                c, token, ordinal = layout.locate(index[first + i])
                for span in spans:
                    record(c, (token,), (ordinal,), span, False, text)
                yield from pending
                pending.clear()

    # Member names: scan each distinct name once, then find where the few that matter occur.
    names = list(layout.names)
    texts = [n if isinstance(n, str) else str(n) for n in names]
    name_spans: dict[object, list[Span]] = {}
    credential_names: dict[object, str] = {}
    for i, bits in _candidates(texts).items():
        spans = _scan_value(texts[i], bits)
        if spans:
            name_spans[names[i]] = spans
        if bits & _NAMED_BIT:
            cls = _classify_name(texts[i])
            if cls is not None:
                credential_names[names[i]] = cls
    if name_spans or credential_names or "value" in layout.names:
        _scan_members(layout, record, name_spans, credential_names)
    yield from pending


def _scan_members(
    layout: _Layout,
    record: Record,
    name_spans: dict[object, list[Span]],
    credential_names: dict[object, str],
) -> None:
    wanted = list(dict.fromkeys([*name_spans, *credential_names]))
    pairs = "value" in layout.names
    for c, obj in enumerate(layout.conts):
        if not isinstance(obj, dict):
            continue
        present = [n for n in wanted if n in obj] if len(wanted) < 16 else None
        if present is None:
            present = [n for n in obj if n in name_spans or n in credential_names]
        if present:
            position = {k: j for j, k in enumerate(obj)}
            for name in present:
                ordinal = position[name]
                for span in name_spans.get(name, ()):
                    record(c, (name,), (ordinal,), span, True, str(name))
                cls = credential_names.get(name)
                if cls is not None:
                    _named_member(record, c, name, ordinal, cls, obj[name])
        if pairs and "value" in obj:
            _name_value_pair(record, c, obj)


# Words that make a password member's value with spaces a sentence about a password ("stored in
# the vault, ask the controller") rather than a passphrase ("correct horse battery staple").
_NOT_A_PASSPHRASE = _words(
    """
    the a an in on at of to for from with by via see use set is are was be not no none ask
    stored kept vault env environment variable file manager keychain secret secrets password
    passphrase same as above below provided required redacted removed hidden omitted rotated
    reset prompt prompted login sso unknown tbd pending given sent shared user users account
    """
)


def _passphrase(value: str) -> bool:
    """Three to ten words none of which a sentence about a password holds: what password
    managers and diceware make, given as a password member's value (data, not prose)."""
    words = value.split()
    return (
        3 <= len(words) <= 10
        and len(value) >= 12
        and all(len(w) <= 32 for w in words)
        and sum(len(w) >= 3 for w in words) >= 3
        and not any(w.strip(".,;:!?\"'()").lower() in _NOT_A_PASSPHRASE for w in words)
        and not _is_placeholder(value)
    )


def _member_credential(cls: str, value: str) -> str | None:
    """The kind of credential a member (or a name/value pair) named for ``cls`` holds."""
    kind = _credential_value(cls, value)
    if kind is None and cls == _C_PASSWORD and _passphrase(value.strip()):
        return PASSWORD
    return kind


def _named_member(
    record: Record, c: int, name: object, ordinal: int, cls: str, value: object
) -> None:
    if isinstance(value, str):
        kind = _member_credential(cls, value)
        if kind is not None:
            record(c, (name,), (ordinal,), _whole(value, kind), False, value)
    elif isinstance(value, list):  # "api_keys": ["...", "..."]
        for j, item in enumerate(value):
            if isinstance(item, str):
                kind = _member_credential(cls, item)
                if kind is not None:
                    record(c, (name, j), (ordinal, j), _whole(item, kind), False, item)


def _name_value_pair(record: Record, c: int, obj: dict[object, object]) -> None:
    """{"name": "DB_PASSWORD", "value": "..."}: HAR headers, Kubernetes env, form fields."""
    value = obj["value"]
    if not isinstance(value, str):
        return
    for field in _NAME_MEMBERS:
        name = obj.get(field)
        if isinstance(name, str) and len(name) <= 128:
            cls = _classify_name(name)
            if cls is None:
                continue
            kind = _member_credential(cls, value)
            if kind is not None:
                ordinal = list(obj).index("value")
                record(c, ("value",), (ordinal,), _whole(value, kind), False, value)
            return


def _whole(value: str, kind: str) -> Span:
    start = len(value) - len(value.lstrip())
    return start, len(value.rstrip()), kind


def secret_findings(document: object) -> list[Finding]:
    """One `secret` warning per flagged value or member, in document order (§9.1, §10.5)."""
    return findings_of(find_secrets(document))


def findings_of(hits: Iterable[SecretHit]) -> list[Finding]:
    """The `secret` findings of the scan's hits: one per flagged value or member."""
    by_path: dict[str, tuple[list[str], list[str]]] = {}
    for hit in hits:
        key_kinds, value_kinds = by_path.setdefault(hit.path, ([], []))
        kinds = key_kinds if hit.in_key else value_kinds
        if hit.kind not in kinds:
            kinds.append(hit.kind)
    return [
        Finding("secret", "warning", path, _message(tuple(key_kinds), tuple(value_kinds)))
        for path, (key_kinds, value_kinds) in by_path.items()
    ]


@lru_cache(maxsize=1024)  # a few combinations of kinds, over thousands of places
def _message(key_kinds: tuple[str, ...], value_kinds: tuple[str, ...]) -> str:
    advice = (
        "; remove the credential from the checkpoint (never store secrets in it, §9.1)"
        " and rotate it if it is real"
    )
    if key_kinds and value_kinds:
        return (
            f"this member's name looks like {_kinds(key_kinds)} and its value looks like "
            f"{_kinds(value_kinds)}{advice}"
        )
    if key_kinds:
        return f"this member name looks like {_kinds(key_kinds)}{advice}"
    return f"this value looks like {_kinds(value_kinds)}{advice}"


def _kinds(kinds: Sequence[str]) -> str:
    specific = [k for k in kinds if k not in _NAMED_KINDS]
    kinds = specific or kinds
    if len(kinds) == 1:
        return kinds[0]
    return ", ".join(kinds[:-1]) + " and " + kinds[-1]
