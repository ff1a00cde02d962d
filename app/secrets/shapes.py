"""What a credential looks like, and what only looks like one: the value tests every part of
the secret scan shares (app/secrets, app/secrets/rules.py).

A placeholder (`<redacted>`, `${TOKEN}`, `ghp_xxxx…`), a reference to where a secret lives
(`vault:…`, `env:NAME`, a path), an identifier, a number or a date is no credential whatever name
it is given; a generated key mixes letters and digits, or is a long run of mixed case.
"""

import re


class _LazyPattern:
    """A regular expression compiled when it is first used.

    The scanner's modules hold a hundred patterns of their own besides the rules' (which
    app/secrets/engine.py compiles), and compiling them all cost `ocp lint` a quarter of its
    start-up (issue 13), while a document needs only the few its text calls for. On first use
    the compiled pattern's methods are set on the instance, so later calls cost what a
    compiled pattern's cost: an attribute and a call.
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
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]  # (it acts as one)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PLACEHOLDER_WORDS = _words(
    """
    redacted removed hidden masked omitted elided withheld sanitized scrubbed filtered
    secret secrets password passwd pass pwd passphrase token tokens apikey api_key api-key key
    credential credentials changeme change_me changeit example sample dummy fake test testing
    placeholder todo tbd tba fixme unknown unset empty required optional default value string
    none null nil undefined n/a na tbc notset not_set not-set
    """
)
_BOOLISH = _words("true false yes no on off y n t f enabled disabled")
# A word a placeholder is made of, standing alone: "9your7" inside a generated key is none.
_PLACEHOLDER_MARKERS = _lazy(
    r"(?i)(?:^|[^a-z0-9])(?:redacted|placeholder|changeme|change[_-]me|replace[_-]?me|your"
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
    # Google's Secret Manager names a secret (and its version) by its path
    r"|projects/[a-z0-9][a-z0-9\-]{0,62}/secrets/"
    # a file path; base64 keys can start with "/" too, so a bare "/" is not enough
    r"|~/|\.{1,2}/|[a-z]:\\|/(?:home|users|root|etc|var|run|tmp|usr|opt|srv|mnt|app|data"
    r"|workspace|secrets|keys|certs|config|vault|private)(?:/|$))"
)
_EMAIL = _lazy(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_MAPBOX_PUBLIC = _lazy(r"pk\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}")
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
      |[A-Z][a-z]{{2,}}+(?:[A-Z][a-z]{{2,}}+)++          # PascalCase words""",
    re.S | re.X,
)
# A call or a subscript (hmac.new(key2, msg; os.getenv("DB"); cfg["db"]; b64decode(x)), as
# distinct from a password holding a bracket (Tr0ub4dor(3x9Q): see `_code_callee`.
_CALL = _lazy(r"([\w$.:]*+)[(\[].*", re.S)  # (PHP's Class::method(…) too)
_DIGIT_IN_WORD = _lazy(r"[0-9][a-z]")
# type names in schemas and signatures: "password": "string?", api_key: str
_TYPE_NAME = _lazy(
    r"(?i)(?:string|str|text|varchar|bool|boolean|int|integer|number|float|object|array|any"
    r"|bytes|secretstr|secret_str)(?:\?|\[\])?"
)
_NUMBERISH = _lazy(r"[\d\s+\-.,:/_%]+")
# A semantic version, as a package manifest writes one (a range's operator before it, a
# pre-release's and a build's identifiers after it)
_VERSION = _lazy(
    r"(?:[~^=<>]{1,2}|v)?\d{1,6}\.\d{1,6}\.\d{1,6}"
    r"(?:-[0-9A-Za-z]{1,24}(?:\.[0-9A-Za-z]{1,24}){0,4})?(?:\+[0-9A-Za-z.\-]{1,64})?"
)
_VERSION_STARTS = frozenset("0123456789~^=<>v")
_MASK_CHARS = "*xX#?._- \t\u2022\u00b7\u2026\u25cf"
# partly masked, e.g. sk-****abcd (one character repeated, not XxXX)
_PARTIAL_MASK = _lazy("\\*\\*\\*|xxxxx|XXXXX|\u2022\u2022|\u25cf\u25cf|\u2026")
_WHITESPACE = _lazy(r"\s")


def _aws_example(value: str) -> bool:
    """AWS's documentation examples (AKIAIOSFODNN7EXAMPLE, wJalrXUtnFEMI/…/bPxRfiCYEXAMPLEKEY),
    which gitleaks allows too: a key id's tail, a 40-character secret."""
    return value.endswith("EXAMPLE") or (len(value) == 40 and value.endswith("EXAMPLEKEY"))


def _is_placeholder(value: str) -> bool:
    if _aws_example(value) or _low_diversity(value):
        return True
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
    """Numbers, dates, versions, e-mail addresses, code, references to a store, public tokens
    (not placeholders)."""
    if _NUMBERISH.fullmatch(value) and _ANY_DIGIT.search(value):
        return True
    if value[:1] in _VERSION_STARTS and _VERSION.fullmatch(value):
        return True  # a package's version: "@postman/tough-cookie": "4.1.3-postman.1"
    if value.startswith("pk.eyJ") and _MAPBOX_PUBLIC.fullmatch(value):
        return True  # a Mapbox public token: made to be shipped in web pages (sk. is secret)
    if _REFERENCE.match(value) or _EMAIL.fullmatch(value) or _IDENTIFIER_LIKE.fullmatch(value):
        return True
    call = _CALL.fullmatch(value)
    return call is not None and _code_callee(call.group(1))


def _code_callee(callee: str) -> bool:
    """Whether what comes before a value's first bracket is what code calls or indexes: an
    attribute, a variable or a name with "_" (os.getenv, self._cfg, $env), a name in lower case
    (b64decode, getenv), or an identifier whose digits end a word (getS3Object, AesGcm256). A
    word of both cases with a digit inside a word (Tr0ub4dor, S3cure) is a password's."""
    if not callee or not callee.isalnum() or callee == callee.lower():
        return True
    return _DIGIT_IN_WORD.search(callee) is None


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


def _both_cases_and_digits(value: str) -> bool:
    """Letters of both cases and digits, six characters or more: what generated keys and most
    passwords hold, and lists of names and identifiers' words do not."""
    return _prose_password(value) and _has_lower(value) and _has_upper(value)


def _plausible_token(value: str, min_len: int = 8) -> bool:
    value = value.strip().strip("\"'")
    if len(value) < min_len or _WHITESPACE.search(value) or _not_a_credential(value):
        return False
    return _random_looking(value)


# --- characters around a match ---------------------------------------------------------------

_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_WORD_ = _WORD | {"_"}
_WORD_DASH = _WORD_ | {"-"}


def _left_ok(text: str, start: int, boundary: frozenset[str]) -> bool:
    """Whether a match starting at ``start`` has none of ``boundary`` before it."""
    return start == 0 or text[start - 1] not in boundary


def _right_ok(text: str, end: int, boundary: frozenset[str]) -> bool:
    """Whether a match ending at ``end`` has none of ``boundary`` after it."""
    return end >= len(text) or text[end] not in boundary


_TAIL_PLACEHOLDER = _lazy(
    r"(?i)(?:^|[^a-z0-9])(?:your|example|sample|dummy|fake|placeholder|redacted|token|secret"
    r"|key|here|xxx+)(?:[^a-z0-9]|$)"
)


def _masked(tail: str) -> bool:
    # ghp_xxxx..., xoxb-your-token-here: a placeholder in a token's shape
    if not tail.strip(_MASK_CHARS + "0"):
        return True
    if _aws_example(tail):
        return True
    if tail.isalnum():  # one word (most tokens): a placeholder only if it is one of them
        low = tail.lower()
        return low in _TAIL_WORDS or (len(low) >= 3 and not low.strip("x"))
    return bool(_TAIL_PLACEHOLDER.search(tail))


def _low_diversity(value: str) -> bool:
    """A value of 16 characters or more made of few distinct ones (a fifth of its length, 8 at
    most), or mostly of one (0000…0TUVWXYZ, glc_1111…1=, 1231231231…, aaaa…): typed, not
    generated. 40 random characters of base62 hold some 30 distinct ones, 40 hex digits 15,
    and 40 decimal ones fewer than 9 once in 150. (The character most of it is made of is
    looked for at its ends and its middle: a placeholder starts or ends with it.)"""
    n = len(value)
    if n < 16:
        return False
    if len(set(value)) <= min(n // 5, 8):
        return True
    return 2 * max(value.count(value[0]), value.count(value[n // 2]), value.count(value[-1])) >= n


# Eight letters of the alphabet or eight digits in order (abcdefghijklmnopqrstuvwxyz1234567,
# dapi123456789012345678…): a generated key holds them once in 10^13. Every such run holds one
# of the blocks of four, looked for first; then each run with `in`, in C (a regular expression
# of the 22 runs tries each at every character: a hostile value of 16,384 would cost it 5 ms).
_SEQUENCE_BLOCKS = ("abcd", "efgh", "ijkl", "mnop", "qrst", "uvwx", "0123", "4567")
_SEQUENCES = tuple(
    ["abcdefghijklmnopqrstuvwxyz"[i : i + 8] for i in range(19)]
    + ["0123456789"[i : i + 8] for i in range(3)]
)


def _in_order(value: str) -> bool:
    """A value of 16 characters or more holding a run of the alphabet or of the digits: made
    up in a key's shape, as no issuer generates one (`_is_placeholder` tests its diversity)."""
    if len(value) < 16:
        return False
    low = value.lower()
    return any(block in low for block in _SEQUENCE_BLOCKS) and any(run in low for run in _SEQUENCES)


# (the words of _TAIL_PLACEHOLDER; "xxx+" is tested apart)
_TAIL_WORDS = frozenset(
    ["your", "example", "sample", "dummy", "fake", "placeholder", "redacted", "token", "secret"]
)
_TAIL_WORDS |= {"key", "here"}


def _has_upper_or_unbroken(tail: str) -> bool:
    # Real keys are random: they have capitals, or at least are not hyphenated words
    # (sk-learn-compatibility-layer, pypi-publishing-workflow...).
    return any(c.isupper() for c in tail) or "-" not in tail


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


def _hex_key(tail: str) -> bool:
    """Random hexadecimal: digits and letters, all of one case."""
    return (
        all(c in _HEX_LOWER for c in tail.lower())
        and (tail.islower() or tail.isupper())
        and bool(_ANY_DIGIT.search(tail))
        and bool(_ANY_LETTER.search(tail))
    )
