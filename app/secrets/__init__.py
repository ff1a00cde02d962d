"""Apparent credentials anywhere in a checkpoint (§9.1, §10.5).

A checkpoint is untrusted input that travels between systems, gets logged and is shown to
models, so the linter warns about anything in it that looks like a secret, and the viewer
redacts it. Every string value and every member name is scanned, at every depth.

Each detector is built from what a credential format *is*: a vendor's fixed prefix and length, a
structure (PEM armour, a JWT's JSON header, a URI's userinfo, a signed URL's parameters), a
service's name beside a value of its keys' shape, or a member or parameter name that says it
holds a credential. None is tuned to sample documents, and each is checked against ordinary
content: ids, digests, commit hashes, idempotency keys, ordinary URLs and query strings, e-mail
addresses, and prose that merely mentions a token or a password.

The formats known by their shape are rules (app/secrets/rules.py); the structures that need more
than a pattern are detectors here (PEM and PuTTY keys, URIs' userinfo, .netrc entries, names
in text, command lines, prose, and the decoding of percent escapes and base64). Speed: the
document scan joins all strings once and hands them to app/secrets/engine.py, which finds the
keywords they hold (one RE2 pass on a large input), runs only the rules and anchors whose
keyword occurred, and maps each match back to its string; a detector runs only on the strings
its anchor matched.
"""

from __future__ import annotations

import operator
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache, partial, reduce
from itertools import accumulate, chain, compress, count, islice, repeat
from operator import itemgetter

from app.findings import Finding
from app.json_values import CONTAINERS
from app.pointer import escape_token
from app.secrets.engine import (
    ANYWHERE,
    ARROWS,
    CURLY_DOUBLE_QUOTES,
    DASHES,
    IN_RUNS,
    NO_BREAK_SPACES,
    Engine,
    Hay,
    _ascii_of,
    _syntax,
    _top_level_bar,
)
from app.secrets.rules import AWS_SECRET, AZURE_ACCOUNT_KEY, RULES, _uuid
from app.secrets.shapes import (
    _WHITESPACE,
    KEY_IS_WORDS,
    KEY_LABEL_NAME,
    KEY_LABELS,
    KEY_NAMES_TOLD_PAST_ENGLISH,
    KEY_PHRASES,
    KEY_WORD_LABEL_NAME,
    KEY_WORDS,
    PASSWORD_FOR_WORDS,
    PASSWORD_IS_WORDS,
    PASSWORD_LABELS,
    PASSWORD_NAMES,
    TOKEN_LABEL_NAME,
    TWO_CHARACTER_LABEL_NAME,
    _both_cases,
    _both_cases_and_digits,
    _generated_run,
    _in_order,
    _is_placeholder,
    _lazy,
    _not_a_credential_shape,
    _plausible_token,
    _prose_password,
    _random_looking,
    _symbols_run,
    _words,
)

Span = tuple[int, int, str]  # start, end, kind


# (typing is imported for the type checker only: importing it costs `ocp lint` 2 ms, issue 28)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

    _Found = TypeVar("_Found")  # what a detector finds: a span, or a value and its kind

    from app.secrets.detectors import BatchDecoding, Decoding

    # (a decoding of one text, and its form for many short texts at once)
    _Decoder = tuple[Callable[[str], Decoding | None], BatchDecoding]

    class SecretHit(NamedTuple):
        path: str  # JSON Pointer of the value (for a key: the pointer of that member)
        kind: str  # human name, e.g. "an AWS access key id", "a PEM private key"
        start: int
        end: int  # the span within the string value (or the key) that looks secret
        in_key: bool
        # the pointer's tokens and the string the span is in (the value, or the member's
        # name): what a redaction withholds, known without parsing the pointer again
        tokens: tuple[str, ...] | None = None
        text: str | None = None

    class SecretScan(NamedTuple):
        hits: list[SecretHit]  # in document order
        # False when the scan stopped past its limit of flagged places: there are more
        complete: bool

else:
    # Tuples, not dataclasses: a document may hold tens of thousands of hits, and a frozen
    # dataclass's __init__ costs several times a tuple's. Written out rather than made by
    # collections' namedtuple, which compiles its class from source text (0.13 ms of `ocp
    # lint`'s start-up for the two, issue 28); the type checker reads the classes above, and
    # these behave as they do: fields by name and by place, compared and hashed as tuples.
    from operator import itemgetter

    class SecretHit(tuple):  # type: ignore[no-redef]
        __slots__ = ()
        _fields = ("path", "kind", "start", "end", "in_key", "tokens", "text")

        def __new__(
            cls,
            path: str,
            kind: str,
            start: int,
            end: int,
            in_key: bool,
            tokens: tuple[str, ...] | None = None,
            text: str | None = None,
        ) -> SecretHit:
            return tuple.__new__(cls, (path, kind, start, end, in_key, tokens, text))

        def __getnewargs__(self) -> tuple[object, ...]:
            return tuple(self)

        def __repr__(self) -> str:
            fields = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self, strict=True))
            return f"SecretHit({fields})"

        path = property(itemgetter(0))
        kind = property(itemgetter(1))
        start = property(itemgetter(2))
        end = property(itemgetter(3))
        in_key = property(itemgetter(4))
        tokens = property(itemgetter(5))
        text = property(itemgetter(6))

    class SecretScan(tuple):  # type: ignore[no-redef]
        __slots__ = ()
        _fields = ("hits", "complete")

        def __new__(cls, hits: list[SecretHit], complete: bool) -> SecretScan:
            return tuple.__new__(cls, (hits, complete))

        def __getnewargs__(self) -> tuple[object, ...]:
            return tuple(self)

        def __repr__(self) -> str:
            return f"SecretScan(hits={self[0]!r}, complete={self[1]!r})"

        hits = property(itemgetter(0))
        complete = property(itemgetter(1))


# --- kinds: fixed phrases, so a message can never echo document content -------------------------
# (the kinds of the formats known by their shape are app/secrets/rules.py's, and read here too:
# `__getattr__` below)


def __getattr__(name: str) -> str:
    """`app.secrets.GITHUB` and the other kinds of the formats known by their shape, as before
    they moved to app/secrets/rules.py (65 import statements cost the start-up 0.3 ms)."""
    if name.isupper() and not name.startswith("_"):
        from app.secrets import rules as secret_rules

        kind = getattr(secret_rules, name, None)
        if isinstance(kind, str):
            return kind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PEM_KEY = "a PEM private key"
PUTTY_KEY = "a PuTTY private key"
AZURE_SAS = "an Azure shared access signature"
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
RECOVERY_PHRASE = "a wallet's recovery phrase"

# Kinds that only say "the member's name suggests a credential": a finding prefers the more
# specific kind of a format detector when both fire on one value.
_NAMED_KINDS = frozenset(
    {PASSWORD, SECRET, API_KEY, ACCESS_TOKEN, PRIVATE_KEY, AUTHORIZATION, COOKIE, CREDENTIAL}
)


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
# names too common to say more than "a key is here": a value is one only in the shape Azure
# gives its keys (`_KEY_SHAPE`)
_C_STORAGE_KEY = "storage_key"
_C_SHAPED_KEY = "shaped_key"
# a bare "pass" or "pwd": a test's count and the working directory as often as a password; a
# value is one only when it looks random, as a token's must (user=admin pass=Qw7rT9zLp2Xv)
_C_BARE_PASSWORD = "bare_password"
# a cryptocurrency wallet's recovery phrase (BIP 39's mnemonic): its words, judged as such
_C_RECOVERY_PHRASE = "recovery_phrase"
# a key a name gives to what may be a service none of the rules knows ("censys_key",
# CLARIFAI_KEY, chartmogulKey): as data's value only, when it holds a generated run
# (`_credential_value`), judged then as an API key (gitleaks' generic-api-key reads every
# "…_key")
_C_SOME_KEY = "some_key"

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
    _C_STORAGE_KEY: AZURE_ACCOUNT_KEY,
    _C_SHAPED_KEY: API_KEY,
    _C_BARE_PASSWORD: PASSWORD,
    _C_RECOVERY_PHRASE: RECOVERY_PHRASE,
    _C_SOME_KEY: API_KEY,
}

# Name endings (in normalized parts), longest first wins.
_NAME_HEADS: dict[tuple[str, ...], str] = {
    ("password",): _C_PASSWORD,
    ("passwd",): _C_PASSWORD,
    ("passphrase",): _C_PASSWORD,
    ("passcode",): _C_PASSWORD,  # (a number alone, a one-time code, is refused as any number)
    ("mot", "de", "passe"): _C_PASSWORD,  # French's ("mot de passe : …")
    ("kata", "sandi"): _C_PASSWORD,  # Indonesian's ("kata sandi: …"; "Sandi:" names a person)
    # and as tickets in other languages write it, in ASCII ("Passwort: …", "senha: …"), and the
    # name a label past ASCII is read as ("パスワード：": shapes `PASSWORD_LABELS`)
    **dict.fromkeys([(name,) for name in (*PASSWORD_NAMES, "pswd")], _C_PASSWORD),
    ("pass", "phrase"): _C_PASSWORD,
    ("secret",): _C_SECRET,
    ("secret", "string"): _C_SECRET,  # AWS Secrets Manager's SecretString, the secret itself
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
    ("admin", "key"): _C_API_KEY,  # Algolia's
    ("app", "key"): _C_API_KEY,  # Datadog's DD_APP_KEY
    ("write", "key"): _C_API_KEY,  # Segment's SEGMENT_WRITE_KEY
    ("ingest", "key"): _C_API_KEY,  # New Relic's, Honeycomb's
    ("license", "key"): _C_API_KEY,  # MaxMind's, New Relic's
    ("server", "key"): _C_API_KEY,  # Firebase Cloud Messaging's
    ("application", "key"): _C_API_KEY,
    ("auth", "key"): _C_API_KEY,  # Cloudflare's X-Auth-Key header
    ("integration", "key"): _C_API_KEY,  # PagerDuty's
    ("adafruit", "io", "key"): _C_API_KEY,  # Adafruit IO's ADAFRUIT_IO_KEY
    ("aio", "key"): _C_API_KEY,  # and its AIO_KEY
    ("hmac", "key"): _C_SECRET,  # what signs a webhook's or a request's HMAC
    ("mac", "key"): _C_SECRET,
    ("session", "key"): _C_SECRET,  # a session's key (Django's session_key: its cookie's value)
    ("recovery", "key"): _C_SECRET,  # what unlocks an account or a disk without its password
    ("otp", "key"): _C_SECRET,  # a one-time password generator's seed
    ("totp", "key"): _C_SECRET,
    ("hmackey",): _C_SECRET,
    ("encryption", "key"): _C_PRIVATE_KEY,
    ("signing", "key"): _C_PRIVATE_KEY,
    # what a name calls a key that encrypts, decrypts or signs (AES_KEY, ENCRYPT_KEY, CIPHER_KEY,
    # JWT_KEY, SIGN_KEY): a key generated, as gitleaks' generic rule reads any name with "key"
    **dict.fromkeys(
        [
            (word, "key")
            for word in (
                *("aes", "encrypt", "enc", "crypto", "cipher", "decryption", "decrypt"),
                *("jwt", "sign", "signature"),
            )
        ],
        _C_PRIVATE_KEY,
    ),
    # ... and one a service issues to call it: a webhook's, PagerDuty's service key, Supabase's
    # service role key, a live stream's key (an anonymous or a site key is public by design)
    ("webhook", "key"): _C_API_KEY,
    ("deploy", "key"): _C_API_KEY,  # a forge's deploy key (a repository's SSH key or token)
    ("service", "key"): _C_API_KEY,
    ("service", "role", "key"): _C_API_KEY,
    ("stream", "key"): _C_API_KEY,
    ("private", "key"): _C_PRIVATE_KEY,
    ("privatekey",): _C_PRIVATE_KEY,
    # a cryptocurrency wallet's: its key as Bitcoin Core writes it (dumpprivkey's WIF), and its
    # recovery phrase (BIP 39's mnemonic, MetaMask's "Secret Recovery Phrase", a seed phrase)
    ("priv", "key"): _C_PRIVATE_KEY,
    ("privkey",): _C_PRIVATE_KEY,
    ("wif",): _C_PRIVATE_KEY,
    ("mnemonic",): _C_RECOVERY_PHRASE,
    ("seed", "phrase"): _C_RECOVERY_PHRASE,
    ("seedphrase",): _C_RECOVERY_PHRASE,
    ("recovery", "phrase"): _C_RECOVERY_PHRASE,
    ("account", "key"): _C_AZURE_KEY,
    ("accountkey",): _C_AZURE_KEY,
    ("storage", "key"): _C_STORAGE_KEY,  # AZURE_STORAGE_KEY, the Azure CLI's
    ("storagekey",): _C_STORAGE_KEY,
    # the Azure portal's "Primary key" and "Secondary key" (storage, Cosmos DB, Service Bus);
    # a table's primary key names a column, an object store's storage key a path
    ("primary", "key"): _C_SHAPED_KEY,
    ("secondary", "key"): _C_SHAPED_KEY,
    # a VPN's or Wi-Fi's pre-shared key (PSK), Azure's SharedKey
    ("shared", "key"): _C_SECRET,
    ("sharedkey",): _C_SECRET,
    ("preshared", "key"): _C_SECRET,  # WireGuard's PresharedKey
    ("presharedkey",): _C_SECRET,
    ("psk",): _C_SECRET,
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
_PUBLIC = frozenset({"public", "publishable"})
# Names ending in "token" that count things or page through results rather than grant access,
# including a language model's tokens (max_tokens, eos_token...), and those an API's requests
# carry to be made once or to guard a change (AWS's ClientToken, ClientRequestToken, Route 53's
# ChangeToken, a lifecycle hook's LifecycleActionToken, WAF's LockToken), to page
# (nextForwardToken, --starting-token), to move a key (KMS's ImportToken, ExportToken), or that
# a domain publishes (SES's VerificationToken and DkimTokens, in its DNS).
_NON_SECRET_TOKEN = _words(
    """
    page next prev previous continuation pagination sync cursor idempotency cancellation csrf
    xsrf max min num input output prompt completion total reasoning cached cache eos bos pad unk
    sep cls mask stop special start end delimiter split count vocab word sentence new used
    remaining limit budget context authenticity public publishable
    client request change action update purchase verification dkim lock forward backward
    starting export import product
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
# What a key's, a token's or a secret's name may be given that is no credential: an artifact
# and its version (io.jsonwebtoken:jjwt-jackson-0.11.2), a resource's name ending in its
# number (keyVaultToStoreSecrets: cmp2-qat-1208358310)
_ARTIFACT_VERSION = _lazy(r"[a-z][a-z0-9]*+(?:[-_.][a-z][a-z0-9]*+)*+-v?[0-9]++(?:\.[0-9]++)++")
_NUMBERED_NAME = _lazy(r"[a-z]{1,8}+[0-9]?(?:-[a-z]{1,8}+[0-9]?)*+-[0-9]{6,}+")
_CAMEL = _lazy(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_ALNUM = _lazy(r"[^a-z0-9]+")


_LABEL_NAMES = {
    TWO_CHARACTER_LABEL_NAME: _C_PASSWORD,
    KEY_LABEL_NAME: _C_SECRET,
    TOKEN_LABEL_NAME: _C_TOKEN,
    KEY_WORD_LABEL_NAME: _C_API_KEY,  # (after "API" only)
}
_KEY_WORDS_PAST_ENGLISH = frozenset(KEY_WORDS)
# English's words a key of the API is named by before "API" (a key's in other languages, read as
# English's: "clé API" as "key API", "ключ API" as "keys API")
_KEY_HEADS = ("key", "keys", "token")
# The words between a key and what it is of, in the languages of `KEY_WORDS` ("clave de API",
# "chave da API", "chiave dell'API")
_OF_WORDS = frozenset(("de", "di", "da", "do", "del", "della", "dell", "des", "du", "la", "l", "d"))


def _in_english(parts: list[str]) -> list[str]:
    """A name's words with a key's or a token's in another language as English's, and in
    English's order when they name a key of the API ("clave de API" as "api key")."""
    english = [KEY_WORDS.get(part, part) for part in parts]
    if (
        len(english) > 1
        and english[0] in _KEY_HEADS
        and english[-1] == "api"
        and _OF_WORDS.issuperset(english[1:-1])
    ):
        return ["api", english[0]]
    return english


def _name_parts(name: str) -> list[str]:
    return [p for p in _NON_ALNUM.split(_CAMEL.sub("_", name).lower()) if p]


# A note in brackets at a name's end, a space before it, and the words it may hold: which of
# its kind the credential is (`_NAME_QUALIFIERS`), and where (a region's code)
_TRAILING_NOTE = _lazy(r"[ \t]+(?:\(([^()\n]{1,32})\)|\[([^\[\]\n]{1,32})\])$")
# A CloudFormation resource's type: a vendor, a service and a resource, each a capitalized word
_RESOURCE_TYPE = _lazy(r"[A-Z][A-Za-z0-9]{1,63}(?:::[A-Z][A-Za-z0-9]{0,63}){2,3}")


@lru_cache(maxsize=4096)
def _classify_name(name: str) -> str | None:
    """The credential class a member or variable name announces, or None."""
    if len(name) > 128:
        return None
    label = name.rstrip("_")  # (a label and its particle, 密码为：, read as "pW_:")
    cls = _LABEL_NAMES.get(label[-2:])
    if cls is not None:
        # (密码, 数据库密码, 密钥, APIキー as the scan reads them: shapes' comment)
        head = label[:-2]
        if (not head or not head[-1].isascii()) and cls != _C_API_KEY:
            return cls
        if cls != _C_PASSWORD and head.lower() == "api":
            return _C_API_KEY
    if "::" in name and _RESOURCE_TYPE.fullmatch(name):
        return None  # (CloudFormation's type, AWS::SecretsManager::Secret, names a kind of thing)
    if name.endswith((")", "]")):
        # a label's note after it that says which of its kind it is: "Datadog API key (EU)",
        # "API key [staging]", "Password (old)"; a note that says what else it is, "(hash)",
        # "(expires)", keeps it none (a subscript's quoted key, ["password"], is read by the
        # name's search)
        note = _TRAILING_NOTE.search(name)
        if note is None or not set(_name_parts(note.group(1) or note.group(2))) <= _NOTE_QUALIFIERS:
            return None
        return _classify_name(name[: note.start()]) if note.start() else None
    parts = _name_parts(name)
    if not parts or parts[0] == "existing":
        return None  # (a chart's existingSecret: the name of a Secret the cluster holds)
    if parts[-1] == "api" or not _KEY_WORDS_PAST_ENGLISH.isdisjoint(parts):
        parts = _in_english(parts)
    found = _match_heads(parts)
    if found is None and len(parts) > 1 and parts[-1] in _NAME_QUALIFIERS:
        # a credential's name, then which of its kind it is: DB_PASSWORD_PROD, API_KEY_V2,
        # STRIPE_KEY_LIVE, Mailjet's MJ_APIKEY_PRIVATE (up to two such words: API_KEY_PROD_2)
        # (an API_KEY_ID, a PASSWORD_FILE or a TOKEN_EXPIRY names something else: no qualifier)
        bare = parts[:-2] if len(parts) > 2 and parts[-2] in _NAME_QUALIFIERS else parts[:-1]
        return _classify_name("_".join(bare))
    if found is None and parts[-1].endswith("s") and len(parts[-1]) > 3:
        found = _match_heads([*parts[:-1], parts[-1][:-1]])  # api_keys, passwords, cookies
    if found is None and parts[-1] == "key" and len(parts) > 1:
        # a service's key ("datadog_key", "trelloKey", its name in two words "new_relic_key",
        # "DigitalOceanKey"): a "sort_key" is none
        services = _services()
        if parts[-2] in services or (len(parts) > 2 and parts[-3] + parts[-2] in services):
            found = _C_API_KEY
        elif parts[-2] == "search" and "azure" in parts:
            # Azure AI Search's admin key (AZURE_SEARCH_KEY, as Microsoft's samples name it),
            # where Algolia's and Typesense's search keys are public
            found = _C_API_KEY
        elif (
            parts[-2] not in _NO_KEY_OWNERS
            and not parts[-2].isdigit()
            and (parts[-2], "key") not in _NAME_HEADS  # (a head refused: PUBLIC_API_KEY)
            and _PUBLIC.isdisjoint(parts)
        ):
            found = _C_SOME_KEY  # ("censys_key": a service's, perhaps; judged as such)
    if (
        found is None
        and parts[-1] == "pat"
        and (
            not _pat_issuers().isdisjoint(parts[:-1])
            or (len(parts) > 2 and parts[-3] + parts[-2] in _pat_issuers())
        )
    ):
        # a service's personal access token ("AZURE_DEVOPS_PAT", "GH_PAT", "JIRA_PAT", the
        # Azure CLI's AZURE_DEVOPS_EXT_PAT; "CircleCI_PAT", "GitHubPAT" as camel case splits
        # them): a "glob_pat" or a "token_pat" is a pattern
        found = _C_TOKEN
    return found


# The words before "key" that say what kind of key it is when that is no credential (an index's,
# a cache's, a table's, a map's, a keyboard's, a public one, a key's id), and the words of a
# sentence ("the key", "this key", "next key"): "<word>_key" of any other word may be a service's
# (`_C_SOME_KEY`)
_NO_KEY_OWNERS = _words(
    """
    sort partition primary secondary foreign composite unique natural surrogate candidate
    compound row range hash shard cluster index idx lookup cache cached memo dedup dedupe
    deduplication idempotency idempotence request correlation trace tracking object obj s3 blob
    file files path bucket map dict hot short shortcut keyboard translation i18n l10n locale
    lang message msg label tag group react list item items entity record table column col field
    schema sequence seq config setting settings option env header query param cursor page next
    prev previous continuation resume public pub publishable site anon host known id name type
    kind value order rank position event job task queue topic channel room node edge component
    widget form route state store context meta shift ctrl alt cmd issue project ticket
    part lock mutex asset image upload download media entry attr prop property data
    gpg pgp gnupg fingerprint thumbprint checksum digest sha md5 content etag version revision
    build commit release layer manifest package vapid push maps browser sentry algolia vault
    linear xray recaptcha captcha turnstile hcaptcha sitekey the a an this that these those my
    your our their its his her any each every some other same first last one two new old
    current default main right left up down enter escape space tab return back home end
    result results response output input limit consumer zone region kms cmk hsm search
    frontend embed analytics tenant instance org organization workspace team
    """
)


# Words after a credential's name that say which of its kind it is, not what else it names: an
# environment, a version or an ordinal, its holder's side, its form (its type in code too:
# tokenString, api_key_str, SECRET_TEXT), what it may do (API_TOKEN_READONLY, API_KEY_ADMIN)
_NAME_QUALIFIERS = frozenset(
    {"prod", "production", "dev", "development", "staging", "stage", "test", "testing"}
    | {"live", "sandbox", "qa", "uat", "local", "old", "new", "current", "next", "previous"}
    | {"primary", "secondary", "backup", "main", "default", "private", "value", "plain"}
    | {"plaintext", "raw", "b64", "base64", "v1", "v2", "v3", "v4", "1", "2", "3", "4"}
    | {"str", "string", "text", "hex", "bytes", "read", "write", "readonly", "readwrite"}
    | {"ro", "rw", "admin"}
)


_NOTE_QUALIFIERS = _NAME_QUALIFIERS | {"eu", "us", "uk", "apac", "emea", "na", "ap", "global"}


# The services that issue personal access tokens, as a variable names them: forges by their
# short names, and every service a rule names (`_services`) but the words that are no service.
_PAT_ISSUERS = frozenset(
    {"gh", "github", "gitlab", "gl", "ado", "devops", "azure", "bitbucket", "gitea", "hf"}
    | {"forgejo", "codeberg", "srht", "sourcehut", "docker", "quay", "harbor", "dbx", "tfc"}
)
_NO_ISSUERS = frozenset({"token", "unseal", "bootstrap", "npmauthident", "npmauthtoken"})


@lru_cache(maxsize=1)
def _pat_issuers() -> frozenset[str]:
    return _PAT_ISSUERS | (_services() - _NO_ISSUERS)


@lru_cache(maxsize=1)
def _services() -> frozenset[str]:
    """The services whose key a name "<service>_key" holds: those the keyword rules name, and
    the issuers of prefixed tokens (read once, from app/secrets/rules.py)."""
    named = {
        keyword
        for rule in RULES
        if rule.scope != IN_RUNS
        for keyword in rule.keywords
        if keyword.isalpha() and keyword.islower() and len(keyword) >= 3
    }
    return frozenset(named - _NOT_SERVICES | _TOKEN_ISSUERS)


# (words a keyword rule reads beside a value that name no service, and services whose
# "key" is public by design: Sentry's DSN key, Algolia's search key; issuers of prefixed tokens)
_NOT_SERVICES = _words(
    """
    accountkey accountname basic bearer storageaccount linear vault xray sentry algolia
    """
)
_TOKEN_ISSUERS = _words(
    """
    github gitlab slack stripe openai anthropic sendgrid shopify digitalocean doppler pulumi
    huggingface npm pypi mapbox trello grafana sonar postman pagerduty
    """
)
# ... and services whose API keys are bare (no prefix of theirs), as a name holds one:
# adobe_key, MAILCHIMP_KEY, groqKey
_TOKEN_ISSUERS |= (
    _words(
        """
    adobe mailchimp mandrill brevo sendinblue postmark mailjet sparkpost vercel figma notion
    telegram linode vultr hetzner shippo easypost typeform circleci buildkite dockerhub firebase
    supabase planetscale clickup mixpanel amplitude auth0 pinecone replicate groq mistral
    elevenlabs openrouter gemini deepseek perplexity
    """
    )
    - _NOT_SERVICES
)


def _match_heads(parts: list[str]) -> str | None:
    for size in range(min(_MAX_HEAD, len(parts)), 0, -1):
        cls = _NAME_HEADS.get(tuple(parts[-size:]))
        if cls is None:
            continue
        if len(parts) > size and parts[-size - 1] in _PUBLIC:
            return None  # a key public by design: PUBLIC_API_KEY, NEXT_PUBLIC_API_KEY
        if cls == _C_TOKEN and len(parts) > 1 and parts[-2] in _NON_SECRET_TOKEN:
            return None
        if cls == _C_TOKEN and not _PUBLIC.isdisjoint(parts):
            return None  # .NET's publicKeyToken: of a public key, which an assembly names
        return cls
    last = parts[-1]
    if last in ("pwd", "pass", "pw"):
        # a bare PWD is the working directory and a bare "pass" a test's count (and "pw" a
        # width or a power), unless its value looks random; DB_PWD, SMTP_PASS and root_pw are
        # passwords
        return _C_PASSWORD if len(parts) > 1 else _C_BARE_PASSWORD
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
    # ... and pass, pwd, pw run together with what the password is for (dbpass, rootpw,
    # adminpwd, keytool's storepass): only after such a word, as bypass, compass and trespass
    # hold none
    for suffix in ("pass", "pwd", "pw"):
        if last.endswith(suffix) and last[: -len(suffix)] in _PASSWORD_OF:
            return _C_PASSWORD
    return None


# What a password run together with its name is for (dbpass, rootpw, mysqlpass, storepass;
# not userpass, which code names a "user:pass" pair with, userpass = username)
_PASSWORD_OF = _words(
    """
    db admin root my old new mysql pg postgres sql sa mongo redis ldap smtp mail email imap
    pop ftp sftp proxy vpn wifi web site app api service svc login auth master default bind
    key store keystore truststore rabbit rabbitmq kafka elastic es jenkins nexus registry
    docker vault git repo oracle mssql ssh smb cifs sudo
    """
)


_AUTH_SCHEME = _lazy(r"([A-Za-z][A-Za-z0-9_\-]*)[ \t]+(\S.*)", re.S)
_AUTH_SCHEMES = _words(
    """
    bearer basic token digest negotiate ntlm hoba mutual apikey api-key key otp dpop mac hawk
    oauth sso-key aws4-hmac-sha256 goog4-hmac-sha256 hmac-sha256 signature ssws splunk geniekey
    klaviyo-api-key deepl-auth-key zoho-oauthtoken api-token
    """
)
_AUTH_PARAM = _lazy(  # (read in the header's value in lower case, `_as_folded`)
    r"(?:signature|response|credential|sig|oauth_signature|token)\s*=\s*\"?([^\",\s]+)"
)
_AWS_SECRET_VALUE = _lazy(r"[A-Za-z0-9/+=]{40}")
# The names of ways to sign in and to sign, which a label gives as its value
_SCHEME_NAMES = _words(
    """
    oauth oauth1 oauth2 oauth1.0 oauth1.0a oauth2.0 oauth2.1 bearer basic digest ntlm ntlmv2
    negotiate kerberos kerberos5 hawk saml saml2 saml2.0 oidc openid jwt mtls
    sha256withrsa sha1withrsa sha384withrsa sha512withrsa sha256withecdsa sha384withecdsa
    """
)
# YAML tags that call a function for a value: CloudFormation's intrinsic functions, Ansible's
# vault
_YAML_FUNCTION_TAGS = _words(
    """
    !Sub !Ref !GetAtt !Join !ImportValue !FindInMap !Select !Split !If !Base64 !Cidr !GetAZs
    !Transform !Equals !Not !And !Or !Condition !vault
    """
)
# An account's key or a shared access key as its name announces it: base64, both cases
_AZURE_KEY_LIKE = _lazy(r"[A-Za-z0-9+/]{40,}={0,2}")
# The base64 of 32 or 64 random bytes, as Azure writes its keys (a storage account's and Cosmos
# DB's 88 characters, a Service Bus or Event Hubs key's 44): the last character before the
# padding holds the last bits of the key, the rest of it zeros.
_KEY_SHAPE = _lazy(r"[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=|[A-Za-z0-9+/]{85}[AQgw]==")


# The characters of the scripts written without spaces between words: CJK's ideographs, kana,
# Hangul (the first of them: what a text's largest character is tested against first)
_CJK_RANGES = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_CJK_FIRST = _CJK_RANGES[0]
_CJK = _lazy(f"[{_CJK_RANGES}]")
_TWO_CJK = _lazy(f"[{_CJK_RANGES}][^{_CJK_RANGES}]*[{_CJK_RANGES}]")
_ASCII_LETTER = _lazy("[A-Za-z]")


def _may_hold_cjk(value: str) -> bool:
    """Whether ``value`` may hold a character of those scripts (a test in C: most values are
    ASCII, and most past it hold none)."""
    return not value.isascii() and max(value) >= _CJK_FIRST


def _cjk_words(value: str) -> bool:
    """Whether ``value`` is words of a script written without spaces ("请联系管理员获取",
    "8文字以上", "8~16자", "见1Password"): it starts with one of its characters, holds two, or
    holds one and no ASCII letter. A sentence, where the spaces that tell English prose from a
    password are not written: a password of such characters is rare."""
    first = _CJK.search(value)
    if first is None:
        return False
    return (
        first.start() == 0
        or _TWO_CJK.search(value, first.start()) is not None
        or _ASCII_LETTER.search(value) is None
    )


@lru_cache(maxsize=8192)  # a text repeats its values (ids, placeholders, the same key)
def _credential_value(cls: str, value: str, *, prose: bool = False) -> str | None:
    """The kind of credential `value` is, given the class its name announces, or None."""
    value = value.strip()
    if not value or len(value) > 16384:
        return None
    if cls == _C_HEADER:
        return AUTHORIZATION if _plausible_authorization(value) else None
    if cls == _C_COOKIE:
        return COOKIE if _plausible_cookie(value) else None
    if cls == _C_RECOVERY_PHRASE:
        return RECOVERY_PHRASE if _recovery_phrase(value) else None
    if cls == _C_SOME_KEY:
        # a key of a service the name may be, as data holds it: a run of 16 letters and digits
        # with both, or of 20 letters of both cases, as keys are generated ("cache_key":
        # "user:42:profile" and a UUID, an object's id, hold none), no identifier's words,
        # then judged as an API key; a sentence's "the Censys key is …" is not read so
        if prose or _camel_words(value):
            return None
        if _RESOURCE_ID.fullmatch(value):
            return None  # (a cloud's resource's id: i-0abcd1234ef567890, vol-…, sg-…)
        # (a run base64url's "-" or "_" breaks, of both cases: SEeNW8bM_Rref-UFdiBKio; words
        # joined so, cache-key-v2-user-12345, are in one case)
        joined = value.replace("-", "").replace("_", "")
        if not (
            _generated_run(value)
            or any(map(_both_cases, _LETTER_RUN.findall(value)))
            or (joined != value and _both_cases(joined) and _generated_run(joined))
        ):
            return None
        cls = _C_API_KEY
    if len(value) < (4 if cls in (_C_PASSWORD, _C_SECRET) else 8):
        return None  # shorter than any credential of its class: the cheapest test first
    if value.isdigit():
        return None  # a number (the shape tests below say so too, after five regexes)
    if value[0] in ",;)" or value.lower() in _SCHEME_NAMES or value in _YAML_FUNCTION_TAGS:
        # what an expression leaves after a quote closed (an ARM template's
        # ';AccountKey=',listKeys(…), ';Password=',parameters(…)); the name of a way to sign
        # in ("Auth: OAuth2.0", "signature: SHA256withRSA"); a tag calling a function
        # (CloudFormation's MasterUserPassword: !Sub '{{resolve:secretsmanager:…}}')
        return None
    if _WHITESPACE.search(value) or _is_placeholder(value):
        return None
    if _may_hold_cjk(value) and _cjk_words(value):
        return None
    if cls != _C_PASSWORD and (
        value[0] == "("  # (an expression's: no issuer's key starts so)
        or _in_order(value)
        or _ARTIFACT_VERSION.fullmatch(value.rstrip("\\"))  # (before a quote escaped twice)
        or _NUMBERED_NAME.fullmatch(value)
    ):
        return None  # (a person's password may run its digits in order; no issuer's key does)
    if cls == _C_AWS_SECRET and _AWS_SECRET_VALUE.fullmatch(value):
        return AWS_SECRET  # checked first: base64 may start with "/" and pass for a path
    if cls in (_C_STORAGE_KEY, _C_SHAPED_KEY):
        shaped = _KEY_SHAPE.fullmatch(value) is not None and _random_looking(value)
        return _CLASS_KIND[cls] if shaped else None
    if cls == _C_AZURE_KEY and not (_AZURE_KEY_LIKE.fullmatch(value) and _both_cases(value)):
        # an account's or a shared access key is base64 (of 64 bytes, or 32): a path
        # ("serviceAccountKey": "/gcp-secrets/key.json"), a word ("base64encodedaccountkey")
        # is no key
        return None
    if _not_a_credential_shape(value):  # (placeholders were ruled out above)
        return None
    if cls in (_C_TOKEN, _C_CREDENTIAL, _C_API_KEY) and _REFERENCE_NUMBER.fullmatch(value):
        return None
    if cls in (_C_PASSWORD, _C_SECRET):
        ok = _prose_password(value) if prose else len(value) >= 4
    elif cls == _C_SIGNING:
        ok = len(value) >= 8
    else:
        # (a key or a token of 8 or 9 letters and digits is typed: SUMO_ACCESS_KEY: AbCeFG123;
        # one holding a symbol is a password given a key's name)
        ok = len(value) >= 8 and _random_looking(value)
        ok = ok and (len(value) >= 10 or not value.isalnum())
        if prose:
            ok = ok and (len(value) >= 12 or _prose_password(value))
    if not ok:
        return None
    if cls == _C_AWS_SECRET:
        return SECRET
    return _CLASS_KIND[cls]


# A capitalized word in a value, as an identifier's words are (a paginator's "result_key":
# "Ipv6CidrAssociations"; a generated key holds few, and short), and camelCase's first word
_CAPITALIZED_WORD = _lazy(r"^[a-z]{2,}|[A-Z][a-z]{2,}")
# (a key of letters alone, which base64 of 32 bytes is once in a thousand; a cloud's resource's
# id, a word and a hex run)
_LETTER_RUN = _lazy(r"[A-Za-z]{20,}")
_RESOURCE_ID = _lazy(r"[a-z]{1,12}-[0-9a-f]{8,32}")


def _camel_words(value: str) -> bool:
    """Whether three quarters of ``value`` or more are capitalized words: an identifier's
    name (S3AccessPointAttachments, terminateBlueInstancesOnDeploymentSuccess), not a
    generated key. A word holds a vowel and no four consonants in a row, or is an abbreviation
    identifiers write without one (Http, Sql): a generated key's capital and the small letters
    after it are one once in a few, and 32 letters and digits drawn at random were read as
    words once in 950 ("roLtm…JunEKA7Umjtfis2WltSeqKvw"), once in 37,000 now."""
    words = [
        word
        for word in _CAPITALIZED_WORD.findall(value)
        if (not _VOWELS.isdisjoint(word) and _CONSONANTS_RUN.search(word) is None)
        or word.lower() in _VOWELLESS_WORDS
    ]
    return sum(map(len, words)) * 4 >= len(value) * 3


_VOWELS = frozenset("aeiouyAEIOU")  # (a capital Y starts a word as a consonant: Year, Yzxq)
_CONSONANTS_RUN = _lazy(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{4}")
# (abbreviations an identifier writes as a word: a name's "HttpsProxyUrl", "SqlXmlRpcHandler")
_VOWELLESS_WORDS = frozenset(
    (
        "http", "https", "html", "xml", "sql", "rpc", "grpc", "tls", "ssl", "ssh", "dns", "jwt",
        "kms", "psk", "crl", "cfn", "src", "dst", "cmd", "ctx", "cfg", "msg", "pwd", "str", "txt",
        "svc", "smtp", "ftp", "sftp", "tcp", "nfs", "pgp", "gpg", "pkcs", "csv", "pdf", "png",
        "jpg", "rgb", "sdk", "cdn", "vpn", "ttl", "crm", "cms", "mgmt", "ptr", "cnt", "pkg", "yml",
    )
)  # fmt: skip


def _recovery_phrase(value: str) -> bool:
    """BIP 39's mnemonic: 12, 15, 18, 21 or 24 words of its list, each of 3 to 8 small
    letters ("word1 word2 …", a sentence about the phrase, are none: English's words that
    bind a sentence are not on the list)."""
    words = value.split()
    return (
        len(words) in (12, 15, 18, 21, 24)
        and all(
            3 <= len(word) <= 8 and word.isascii() and word.isalpha() and word.islower()
            for word in words
        )
        and _SENTENCE_WORDS.isdisjoint(words)
    )


# (words of 3 to 8 small letters a space apart, and where they end: `_recovery_phrase` counts them)
_PHRASE_WORDS = _lazy(r"[a-z]{3,8}+(?:[ \t]++[a-z]{3,8}+(?![A-Za-z0-9_]))*+")
_SENTENCE_WORDS = frozenset(
    ("the", "and", "your", "you", "with", "from", "that", "this", "are", "was", "have", "them")
)


def _plausible_authorization(value: str) -> bool:
    m = _AUTH_SCHEME.fullmatch(value)
    if m and m.group(1).lower() in _AUTH_SCHEMES:
        cred = m.group(2).strip()
        if _WHITESPACE.search(cred) or "," in cred:  # Digest / AWS4 parameters
            # (none without an "=": a header's line run on into prose, 1 KB, is not read
            # for a placeholder's marks or for parameters, 130 µs each in a text of them)
            if "=" not in cred or _is_placeholder(cred):
                return False
            # (found in it in lower case: `re` reads a case-insensitive alternation at each
            # character, 74 ns, and a header of parameters holds a kilobyte)
            low = _as_folded(_folded(cred))
            values = [cred[p.start(1) : p.end(1)] for p in _AUTH_PARAM.finditer(low)]
            return any(map(_plausible_token, values))
        if _is_placeholder(cred):
            return False
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


def _later(name: str) -> Detector:
    """A detector of app/secrets/detectors.py, imported the first time a text calls for one of
    them: importing the scanner, part of every `ocp lint`'s start-up (issue 28), then costs
    nothing for the structures most documents never hold."""

    found: list[Detector] = []  # (looked up once: an import statement a call costs a microsecond)

    def detector(text: str) -> Iterator[Span]:
        if not found:
            from app.secrets import detectors as secret_detectors

            found.append(getattr(secret_detectors, name))
        return found[0](text)

    detector.__name__ = detector.__qualname__ = name
    return detector


_pem = _later("pem")
_private_jwk = _later("private_jwk")
_unarmoured_key = _later("unarmoured_key")
_putty = _later("putty")
_userinfo = _later("userinfo")
_special_userinfo = _later("special_userinfo")
_netrc = _later("netrc")
_command_line_password = _later("command_line_password")
_credential_flag = _later("credential_flag")
_command_variable = _later("command_variable")
_set_name_to = _later("set_name_to")
_secret_store_command = _later("secret_store_command")
_device_password = _later("device_password")
_credential_call = _later("credential_call")
_password_in_prose = _later("password_in_prose")
_stdin_password = _later("stdin_password")
_expect_send = _later("expect_send")
_password_statement = _later("password_statement")
_pgpass_line = _later("pgpass_line")
_driver_dsn = _later("driver_dsn")
_oracle_connect = _later("oracle_connect")
_schemeless_userinfo = _later("schemeless_userinfo")
_table_cells = _later("table_cells")
_setter_argument = _later("setter_argument")
_user_and_password = _later("user_and_password")
_password_after_with = _later("password_after_with")
_key_in_prose = _later("key_in_prose")
_value_before_name = _later("value_before_name")
_sql_insert = _later("sql_insert")
_terraform_variable = _later("terraform_variable")
_html_input = _later("html_input")
_json_structures = _later("json_structures")
_yaml_wrapped_value = _later("yaml_wrapped_value")
_csv_column = _later("csv_column")
_listed_value = _later("listed_value")
_quoted_after_name = _later("quoted_after_name")
_percent_encoded = _later("percent_encoded")
_base64_wrapped = _later("base64_wrapped")
_pointer_escaped = _later("pointer_escaped")
_html_escaped = _later("html_escaped")
_json_escaped = _later("json_escaped")
_diff_marked = _later("diff_marked")
_terminal_escaped = _later("terminal_escaped")
_quoted_printable = _later("quoted_printable")
_csv_quoted = _later("csv_quoted")
_quote_marked = _later("quote_marked")
_log_prefixed = _later("log_prefixed")
_comment_marked = _later("comment_marked")
_html_lines = _later("html_lines")
_listed_lines = _later("listed_lines")
_tab_indented = _later("tab_indented")
_numbered_lines = _later("numbered_lines")
_label_line_value = _later("label_line_value")


# --- names in text: PASSWORD=..., "api_key": "...", ?access_token=..., AccountKey=... ------------

# The operator: = and : of data and most code, := (Go, Make), => (PHP's and Ruby's hashes), ?=
# and += (Make, shells), ??= (PHP's and JavaScript's null coalescing), ||= (Ruby's and
# JavaScript's "unless set": ENV["API_KEY"] ||= "…"), <- (R); a type between the name and =
# (api_key: str = …, apiKey: string = …, Go's apiKey string = …), with a space before the =
# that a value's own = has not; a comma
# between a quoted name and a quoted value, as a call or a list pairs them
# (System.setProperty("db.password", "…"), put('api_key', '…')), or between a name that opens a
# line and a value with no space, a CSV's row (GITHUB_TOKEN,…: `_assignment_hit` reads it at a
# line's start only, where code's "token, err :=" is none). The name may be a command
# line's flag (--db-password=…, -Dpassword=… for the JVM: "flag") and a subscript's key
# (os.environ["API_KEY"] = …, config['api_key'] = …: "]" after its quote).
# A CSV row's value as `_assignment_hit` keeps the second of two paired strings (letters of both
# cases and digits, or a generated run of 16), looked ahead at in C from its comma (each test
# linear in the value): a row whose value is refused costs no step of Python
_CSV_CHARACTER = r"[^\s,\"'`]"
_CSV_VALUE = (
    rf"(?:(?={_CSV_CHARACTER}{{0,256}}?[A-Z])(?={_CSV_CHARACTER}{{0,256}}?[0-9])"
    rf"|(?={_CSV_CHARACTER}{{0,256}}?[A-Za-z0-9]{{16}}))"
)
_NAME_OP = _lazy(
    r"""(?<![A-Za-z0-9_.\-])(?P<flag>-D(?=[A-Za-z_])|--?)?
        (?P<name>(?:_{0,8}+|(?<!\[)[0-9]{1,8}+)[A-Za-z][A-Za-z0-9_.\-]{0,127}+)
        (?P<q>\\?["'`*]?(?:(?<=["'])\])?)
        (?P<sp1>[ \t]*)(?P<op>={2,3}|!={1,2}|:=|=>|[?+]=|\?\?=|\|\|=|<-|=
          |:(?:[ \t]*+[A-Za-z_][A-Za-z0-9_.]{0,39}+(?:\[[^\]\r\n=]{0,40}+\])?\??[ \t]++=(?!=))?
          |(?<=[ \t])string[ \t]++=(?!=)
          |(?<=["']),(?=[ \t]*\\?["'])
          |(?<=["']),[ \t]*+default[ \t]*+=(?=[ \t]*+["'])"""
    # a CSV's row: a bare comma, then a value in a credential's shape (`_CSV_VALUE`)
    + rf"""|(?<=[A-Za-z0-9_.\-]),(?=["']?{_CSV_VALUE})"""
    # code's fallback when a variable is unset, a literal after it (gitleaks reads "||"):
    # process.env.API_KEY || "…", ?? in JavaScript and C#
    + r"""|(?<=[ \t])(?:\|\||\?\?)(?=[ \t]*+["'`])"""
    # ... and after a lookup's call that names it: getenv("API_KEY") ?: "…" (PHP's),
    # Environment.GetEnvironmentVariable("API_KEY") ?? "…" (C#'s), Ruby's block of a default,
    # ENV.fetch("API_KEY") { "…" }
    + r"""|(?<=["'])\)[ \t]*+(?:\|\||\?\?|\?:|\{)(?=[ \t]*+["'`])"""
    # an arrow or a dash past ASCII with a space on either side, as a note points a name at
    # its value ("DB_PASSWORD → …", "API key -> …", "Stripe key — …"): judged as prose judges
    # one (`_structured`)
    + rf"|(?<=[ \t])(?:->|[{ARROWS}{DASHES}])(?=[ \t])"
    + r""")(?P<sp2>[ \t]*)""",
    re.X,
)
# (Python's and TOML's triple quotes first: """…""" read as its double quotes would be; and
# Markdown's code span, `…`, as a note sets a value after its label: "password: `…`"; a
# string literal's quotes inside a string, as Gradle's buildConfigField writes a value:
# "\"…\"")
_VALUE = _lazy(
    r"""(?:\"\"\"|\'\'\')(?P<tq>[^"'\r\n]{1,1024}+)(?:\"\"\"|\'\'\')
        |\\?"(?:\\")?(?P<dq>(?:[^"\\\r\n]|\\[^"]){1,1024}+)(?:\\")?\\?"|'(?P<sq>[^'\r\n]{1,1024}+)'
        |`(?P<bq>[^`\r\n]{1,1024}+)`
        |(?P<bare>[^\s"'`,;&<>]{1,256}+)""",
    re.X,
)
# (a header's line ends where an HTML tag starts: a ticket's page sets it in <div>…</div>)
_LINE_REST = _lazy(r"(?:[^\r\n\"'<]|<(?![/A-Za-z])){0,1024}+")
# A block scalar of one line: its indicator, the line indented (group "block"), and no line
# indented as far after it (a block of several lines, a certificate, is a text, not a value).
# (Its line breaks as written, or escaped: the YAML quoted in a JSON string.)
_BLOCK_SCALAR = _lazy(
    r"[|>][+-]?[ \t]*(?:\r?\n|(?:\\r)?\\n)(?P<indent>[ \t]{1,64}+)"
    r"(?P<block>[^\s\\][^\r\n]{0,1023}?)[ \t]*"
    r"(?:(?:\r?\n|(?:\\r)?\\n)(?!(?P=indent))|\r?$)"
)
_SCHEME_AND_TOKEN = _lazy(r"[A-Za-z][A-Za-z0-9_\-]*[ \t]+[^\s,;]+")
# _NAME_OP where the value after it may be a credential even in a hostile text: 8 characters
# at least (as `_assignment_hit` counts them), not starting as a variable, a placeholder or a
# mask does ($, %, {, *, [, (). Past _REREAD_LIMIT rejected values in one text, the regex
# steps over "api_key: abcd", "token=${X}&" and "password: ****" runs by itself instead of
# handing each to Python (2 to 3 µs each). A password of 4 to 7 characters, or a header line
# whose first word is shorter ("Cookie: a=1; b=2"), is then missed in that text: a producer's
# text does not hold a hundred refused assignments before it.
_NAME_OP_VALUED = _lazy(
    _NAME_OP.pattern
    + r"""(?=\\?"(?![$%{*[(])(?:[^"\\\r\n]|\\[^"]){8}|'(?![$%{*[(])[^'\r\n]{8}"""
    + r"""|(?:\"\"\"|\'\'\'|`)(?![$%{*[(])[^"'`\r\n]{8}"""  # (triple quotes, a code span)
    + r"""|(?![$%{*[(])[^\s"'`,;&<>]{8})""",
    re.X,
)
# A password's name in other languages than English (passwort, passord and "mot de passe" hold
# "pass"): a word of a credential's name each
_PASSWORD_WORDS = (*[name for name in PASSWORD_NAMES if "pass" not in name], "pswd", "sandi")
# ... and of a key or a token in other languages (shapes `KEY_WORDS`), and the names a label of
# two characters is read as (kY, tK: "ky" and "tk" in the text in lower case)
_PASSWORD_WORDS += (*KEY_WORDS, KEY_LABEL_NAME.lower(), TOKEN_LABEL_NAME.lower())
_NAME_HEAD_ANCHOR = _lazy(
    r"pass|pwd|pw|secret|token|key|auth|cookie|cred|sig|jwt|bearer|sess|psk|_pat|-pat"
    r"|mnemonic|phrase|wif"  # (a wallet's recovery phrase and its key: `_NAME_HEADS`)
    rf"|{'|'.join(_PASSWORD_WORDS)}"
)


# A large text is read around the words of credential names, block by block (characters).
_HEAD_BLOCK = 1200
# How many rejected values are read again for names inside them, per text.
_REREAD_LIMIT = 100


# How many candidates a detector reading each of its forms in a step of Python (5 µs) may
# refuse in one text (a rule, in one string) before the rest of it goes unread by that
# detector, where its forms are common enough in benign text that the hundred of `_bounded`
# would miss a credential after them (runs that decode to no text: code holds long identifiers
# by the thousand; "the password is ..." in prose; "Bearer" and a word): a text of ten
# thousand such decoys costs ten times a benign one's scan, and a credential after a thousand
# of its own form in one text is missed.
_MANY_REFUSED = 1000


# How many candidates of one detector a text may hold that it refuses, before the rest of
# the text goes unread by it (the commands setting a variable, XML elements naming a
# credential, key names with no key after them): each costs a step of Python, and a text of
# thousands (setx API_KEY %KEY% repeated) would cost ten times what a benign document of its
# size does. A checkpoint's text quotes a few; a real value after a hundred refused is missed.
_REFUSED_PER_TEXT = 100


def _bounded(
    candidates: Iterable[_Found | None], most: int = _REFUSED_PER_TEXT
) -> Iterator[_Found]:
    """The spans (or what else a detector finds) among one text's judged candidates (None: one
    refused), until more than ``most`` are refused (`_REFUSED_PER_TEXT`, or `_MANY_REFUSED`
    for a form common in benign text)."""
    refused = 0
    for span in candidates:
        if span is not None:
            yield span
            continue
        refused += 1
        if refused > most:
            return


# What points a name at its value in a note, a space on either side (`_NAME_OP`)
_POINTERS = ("->", *ARROWS, *DASHES)
# (what every operator holds: a comma; an arrow; a fallback's || or ??)
_OPERATOR_CHARACTERS = (":", "=", "<-", ",", "||", "??", *_POINTERS)


def _named_in_text(text: str) -> Iterator[Span]:
    if not any(map(text.__contains__, _OPERATOR_CHARACTERS)):
        return
    names: _Names | None = _NamesByRe2.of(text) if len(text) > _SMALL_TEXT else None
    if names is None:
        names = _Windows(text)
    rejected = refused = 0
    valued = False
    pos = 0
    while (m := names.find(pos, valued)) is not None:
        # Only a credential's name gets its value read, so a URL's "https:" never swallows
        # its query string. A rejected value is read again for names inside it
        # (password=https://host/?access_token=...), but only so often: hostile text such
        # as "password:" a hundred thousand times then moves on past each value instead.
        pos = m.end()
        if not _may_name_credential(m.group("name")) and not _key_of_api(text, m):
            # (one lookup: "https:" or "note:" a thousand times is no name). What was read as
            # a type after it may be a name: PowerShell's $env:DB_PASSWORD = … ("env", then
            # the type DB_PASSWORD and "="): read again from past the colon.
            if len(m.group("op")) > 2 and m.group("op")[0] == ":":
                pos = m.start("op") + 1
            continue
        span = _assignment_hit(text, m)
        if span is not None and span[2]:
            yield span[:3]
            pos = max(pos, span[3])
            continue
        listed = _listed_values(text, m)
        if listed[0]:
            yield from listed[0]
            pos = max(pos, listed[1])
            continue
        # a name judged and no credential found after it, each a step of Python (some 8 µs):
        # past `_MANY_REFUSED` in one text, the rest of it is not read for names (a log of
        # 9,000 lines "密码：请联系管理员获取" cost nine times a benign document's lint)
        refused += 1
        if refused > _MANY_REFUSED:
            return
        if span is not None:
            rejected += 1
            if rejected > _REREAD_LIMIT:
                pos = max(pos, span[3])
                valued = True


# A name/value entry written on two lines, as Kubernetes lists a container's environment (and
# ECS, Compose and HAR files their variables and headers) in YAML:
#     - name: DD_API_KEY
#       value: "0fcb2e24…"
# or on one ({"name": "DD_API_KEY", "value": "…"} in a text). What follows "value:" is read as a
# value after a name is (_VALUE's groups), in the same match.
_NAME_THEN_VALUE = _lazy(
    r"""\\?["']?name\\?["']?[ \t]*:[ \t]*\\?["']?(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,127}+)
        \\?["']?[ \t]*(?:,[ \t]*(?:\r?\n|\\r(?:\\n)?|\\n)?|\r?\n|\\r(?:\\n)?|\\n)[ \t]*
        (?:-[ \t]*)?\\?["']?value\\?["']?[ \t]*:[ \t]*(?:"""
    + _VALUE.pattern
    + ")",
    re.X,
)


def _name_then_value(text: str) -> Iterator[Span]:
    """The values of name/value entries whose name is a credential's."""
    at = text.find("name")
    while at != -1:
        m = _NAME_THEN_VALUE.match(text, at)
        if m is None or (at and text[at - 1] in _NAME_CHARACTERS):
            at = text.find("name", at + 4)
            continue
        name, dq, sq, bare = m.group("name", "dq", "sq", "bare")
        if bare is not None:
            # (whether a quote follows a backslash it ends with: all of the text around it
            # that its trimming reads)
            quoted = bare[-1] == "\\" and text[m.end("bare") : m.end("bare") + 1] in _QUOTES
            kind, length = _bare_entry(name, bare, quoted)
            if kind is not None:
                yield m.start("bare"), m.start("bare") + length, kind
        else:
            group = "dq" if dq is not None else "sq"
            value = dq if dq is not None else sq
            kind = _entry_kind(name, value) if value else None
            if kind is not None:
                yield m.start(group), m.end(group), kind
        at = text.find("name", m.end())


_QUOTES = ('"', "'")


# An XML element named for a credential, as configuration files write one (Maven's
# settings.xml <password>, an <apiKey> or a <ClientSecret>): the name as it opens and closes the
# element (a namespace prefix allowed), attributes, and the text between, each bounded.
_XML_ELEMENT = _lazy(
    r"<(?P<name>[A-Za-z_][A-Za-z0-9_.:\-]{0,127}+)(?:[ \t][^<>]{0,256}+)?>"
    r"(?P<value>[^<]{1,1024}+)</(?P=name)[ \t]*>"
)


def _xml_element(text: str) -> Iterator[Span]:
    """The text of XML elements whose name is a credential's, judged as a name/value entry's
    value is (`_bounded`, as `_xml_named_entry`: a text of thousands of
    <password>${DB_PASS}</password> is read for a hundred)."""
    if "</" not in text:
        return iter(())
    return _bounded(_xml_elements(text))


# ... and a pair of a key's element and a value's: an Apple property list's (<key>APIKey</key>
# then <string>…</string>) and KeePass's export (<Key>Password</Key> then <Value
# ProtectInMemory="True">…</Value>)
_KEYED_VALUE = _lazy(
    r"[ \t\r\n]{0,64}+<(?P<tag>string|Value)(?:[ \t][^<>]{0,256}+)?>"
    r"(?P<value>[^<]{1,1024}+)</(?P=tag)>"
)
_KEY_ELEMENTS = frozenset({"key", "Key"})


def _xml_elements(text: str) -> Iterator[Span | None]:
    for m in _XML_ELEMENT.finditer(text):
        name, value = m.group("name", "value")
        if name in _KEY_ELEMENTS and (pair := _KEYED_VALUE.match(text, m.end())) is not None:
            m, name, value = pair, value.strip(), pair.group("value")
        stripped = value.strip()
        if not stripped:
            continue
        kind = _entry_kind(name.rpartition(":")[2], stripped)
        if kind is None:
            yield None
            continue
        start = m.start("value") + len(value) - len(value.lstrip())
        yield start, start + len(stripped), kind


# An XML element that names its credential in an attribute (name or key), as Spring's, Ant's
# and Hibernate's configuration, Java's properties in XML, .NET's settings, PHPUnit's and
# Android's resources do: the value in its value attribute (<property name="db.password"
# value="…"/>, <add key="ApiKey" value="…"/>, <env name="API_KEY" value="…"/>) or as its text
# (<entry key="password">…</entry>, <string name="api_key">…</string>, <setting
# name="Password"><value>…</value></setting>). The start tag's attributes are read whole,
# each bounded, and an attribute's value holds no "<": a match ends before the next tag, so
# each character is read by one match at most.
_XML_NAMED = _lazy(
    r"<(?P<tag>[A-Za-z_][A-Za-z0-9_.:\-]{0,63}+)"
    r"(?P<attrs>(?:[ \t\r\n]++[A-Za-z_][A-Za-z0-9_.:\-]{0,63}+[ \t]*+=[ \t]*+"
    r"""(?:"[^"<>\r\n]{0,1024}+"|'[^'<>\r\n]{0,1024}+')){1,16}+)"""
    r"[ \t\r\n]*+(?P<end>/?)>"
)
_XML_ATTRIBUTE = _lazy(r"""([A-Za-z_][A-Za-z0-9_.:\-]*)[ \t]*=[ \t]*(?:"([^"]*)"|'([^']*)')""")
# the element's text after its start tag, or a <value> element's inside it
_XML_TEXT = _lazy(r"(?:[ \t\r\n]*+<value>)?(?P<text>[^<]{1,1024}+)<")


def _xml_named_entry(text: str) -> Iterator[Span]:
    """The value of XML elements whose name or key attribute is a credential's name, judged as
    a name/value entry's value is (`_bounded`: a text of thousands of <property
    name="password" value="${…}"/> is read for a hundred)."""
    return _bounded(_xml_named_values(text))


def _xml_named_values(text: str) -> Iterator[Span | None]:
    for m in _XML_NAMED.finditer(text):
        attributes: dict[str, tuple[str, int]] = {}  # (lower-case) name -> value, its start
        base = m.start("attrs")
        for a in _XML_ATTRIBUTE.finditer(m.group("attrs")):
            group = 2 if a.group(2) is not None else 3
            attributes.setdefault(a.group(1).lower(), (a.group(group), base + a.start(group)))
        named = attributes.get("name") or attributes.get("key")
        if named is None or not _may_name_credential(named[0]):
            continue
        value, start = attributes.get("value", ("", 0))
        if not value and not m.group("end"):
            inner = _XML_TEXT.match(text, m.end())
            if inner is not None:
                value, start = inner.group("text"), inner.start("text")
        stripped = value.strip()
        kind = _entry_kind(named[0], stripped) if stripped else None
        if kind is None:
            yield None
            continue
        start += len(value) - len(value.lstrip())
        yield start, start + len(stripped), kind


@lru_cache(maxsize=4096)  # a manifest repeats its entries (every container's DB_PASSWORD)
def _entry_kind(name: str, value: str) -> str | None:
    """The credential a name/value entry holds, when its name is a credential's."""
    cls = _named_class(name)
    return None if cls is None else _member_credential(cls, value)


def _named_class(name: str) -> str | None:
    """The credential class a name found in a text announces: only a name holding a word of
    a credential's name (`_may_name_credential`) is classified."""
    return _classify_name(name) if _may_name_credential(name) else None


@lru_cache(maxsize=4096)
def _bare_entry(name: str, bare: str, quote_after: bool) -> tuple[str | None, int]:
    """`_entry_kind` of an unquoted value, trimmed as an assignment's is (`_trimmed_bare`;
    ``quote_after``: it ends with a backslash a quote follows), and the trimmed value's
    length."""
    value = _trimmed_bare(bare, quote_after)
    return (_entry_kind(name, value) if value else None), len(value)


_NAME_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


if TYPE_CHECKING:

    class _Names(Protocol):
        """Where `_named_in_text` finds the names of one text."""

        def find(self, pos: int, valued: bool) -> re.Match[str] | None:
            """The next match of _NAME_OP (with ``valued``, of _NAME_OP_VALUED) at or after
            ``pos``: a match any other name may be, which `_named_in_text` passes over."""
            ...


class _Windows:
    """The names of a text as `re` finds them: the whole of a small text; a large one (with
    no RE2 installed) only around the words a credential's name contains."""

    __slots__ = ("_entered", "_text", "_windows")

    def __init__(self, text: str) -> None:
        self._text = text
        self._entered = -1  # the window the search is in
        if len(text) <= _SMALL_TEXT:
            self._windows = [(0, len(text))]
            return
        # Block by block, one search each: a text of "password: a" runs holds a word every
        # dozen characters, and a window per word would cost a step of Python per word.
        low = _folded(text)
        windows: list[tuple[int, int]] = []
        for b in range(0, len(text), _HEAD_BLOCK):
            if _NAME_HEAD_ANCHOR.search(low, b, b + _HEAD_BLOCK + 6) is None:  # 6: "cookie"
                continue
            lo, hi = max(0, b - 130), min(len(text), b + _HEAD_BLOCK + 6 + 1200)
            if windows and lo <= windows[-1][1]:
                windows[-1] = (windows[-1][0], hi)
            else:
                windows.append((lo, hi))
        self._windows = windows

    def find(self, pos: int, valued: bool) -> re.Match[str] | None:
        name_op = _NAME_OP_VALUED if valued else _NAME_OP
        windows = self._windows
        if self._entered < 0:
            if not windows:
                return None
            self._entered, pos = 0, windows[0][0]
        while self._entered < len(windows):
            m = name_op.search(self._text, pos, windows[self._entered][1])
            if m is not None:
                return m
            self._entered += 1  # the next window is read from its start
            if self._entered < len(windows):
                pos = windows[self._entered][0]
        return None


# A name RE2 finds within this many characters makes `re` search the next `_RE_STRETCH`. A
# call of the binding costs about 1.5 µs, what `re` takes to read sixty characters; but `re`
# hands Python every name it finds, a credential's or not, and RE2 only a credential's.
# Measured on 400 KB of PuTTY keys' headers (a credential's name every 70 characters, two
# others between): 19.8 ms at 32, 24.0 at 64; "password: a" runs, environment entries and a
# credential's name every 40 characters cost the same at either.
_RE2_SPACING = 32
_RE_STRETCH = 4096


# A text longer than this has the places of its names found by RE2 (when it is installed), a
# shorter one is searched by `re`'s _NAME_OP.
_SMALL_TEXT = 4096
# Where _NAME_OP may match, for RE2, which reads bytes and has no look-arounds or possessive
# repetitions: the character before the name is matched (or the text's start), not looked
# behind at, and the name's bounds are left to _NAME_OP, which reads it from where it starts
# (the match's second character, or its first at the text's start). Only a name that holds a
# word of a credential's name (`_NAME_HEAD_WORDS`): RE2 hands Python those, not the "https:"
# and "note:" a page of prose has by the hundred. No group is captured: RE2 then finds the
# match with its automata alone (asked for a group's place, it ran its slower matcher over
# each match, 3.4 µs a call).
_NAME_CHARS = r"[A-Za-z0-9_.\-]"
_NAME_RE2 = (
    rf"[_0-9]*(?:[A-Za-z]{_NAME_CHARS}*)?"
    rf"(?i:{_NAME_HEAD_ANCHOR.pattern})"  # (the words `_may_name_credential` tests)
    rf"{_NAME_CHARS}*"
)
_NAME_OP_RE2 = (
    rf"(?:(?:^|[^A-Za-z0-9_.\-])(?:-D|--?)?(?:{_NAME_RE2})"
    # (a "]" after a quote only, as `_NAME_OP` reads one: ["password"] = …, not [password]: …)
    r"(?:\\?[\"'],|\\?[\"']\)[ \t]*(?:\|\||\?[?:]|\{)|\\?(?:[\"'`*]\]?)?[ \t]*"
    # (an arrow past ASCII is read as "?")
    r"(?:===?|!==?|[:=?+]=?|\?\?=|\|\|=?|=>|<-|->|string[ \t]*=))[ \t]*"
    # (a CSV's row: a name that opens a line, set in or not, then a comma)
    rf"|(?:^|[\n \t]){_NAME_RE2},)"
)
# Python's \s on a str, written out (inside a class) for the ASCII RE2 reads, where a space
# past ASCII reads as a space and any other character past it as "?"
_RE2_SPACES = r"\t\n\x0b\x0c\r\x1c-\x1f "
# and _NAME_OP_VALUED's: the first eight characters of the value matched, not looked ahead at
_NAME_OP_VALUED_RE2 = _NAME_OP_RE2 + (
    r"""(?:\\?"(?:[^$%{*[("\\\r\n]|\\[^"])(?:[^"\\\r\n]|\\[^"]){7}"""
    r"""|'[^$%{*[('\r\n][^'\r\n]{7}"""
    r"""|(?:\"\"\"|\'\'\'|`)[^$%{*[("'`\r\n][^"'`\r\n]{7}"""
    rf"""|[^$%{{*[({_RE2_SPACES}\"'`,;&<>][^{_RE2_SPACES}\"'`,;&<>]{{7}})"""
)


_NAME_START = frozenset(
    bytes([c]) for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-0123456789"
)  # (and a flag's dash; a name may start with digits, 8x8_secret)


# The spaces beyond ASCII, as `re`'s \s reads them (`str.isspace`): 19 characters up to U+3000.
_UNICODE_SPACES = "".join(
    [chr(c) for c in (0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F)]
    + [chr(0x205F), chr(0x3000)]
)


class _NamesByRe2:
    """The names of one large text: RE2 finds where a credential's name may start, and `re`'s
    _NAME_OP reads it there.

    A call of RE2 costs what `re` takes to read some sixty characters: where RE2 finds a name
    that close, names come thick, and `re` searches the next `_RE_STRETCH` characters itself,
    as it searches a small text, before RE2 is asked again (or sooner, once `re` finds none
    there: RE2 goes on from where `re` stood, so a name whose operator lies past the stretch
    is still found). Both find the same names (`re` passes over those of no credential).
    (Unlike `_Windows` when RE2 is not installed, neither stops at a window's end: an
    operator or a value past a thousand spaces is read too, as in a small text.)"""

    __slots__ = ("_end", "_raw", "_re2_until", "_re_until", "_text", "_valued")

    _PATTERNS: ClassVar[list[tuple[Any, Any, Any]]] = []  # (plain, valued, anchor), compiled once

    def __init__(self, text: str, raw: bytes) -> None:
        self._text = text
        self._raw = raw
        self._end = len(raw)
        self._valued = False  # past _REREAD_LIMIT rejected values: only names with a value
        self._re_until = 0  # `re` searches up to here
        self._re2_until = 0  # and RE2 alone up to here: a stretch where `re` found no name

    def find(self, pos: int, valued: bool) -> re.Match[str] | None:
        if valued and not self._valued:
            # RE2 now passes over every name without a value long enough: the names it finds
            # may be thin again
            self._valued, self._re_until = True, 0
        name_op = _NAME_OP_VALUED if valued else _NAME_OP
        text = self._text
        while True:
            if pos < self._re_until:
                # (a match within the stretch: none that runs past its end starts before it)
                m = name_op.search(text, pos, self._re_until)
                if m is None:
                    # RE2 goes on from here, alone to the stretch's end: each character is
                    # read by `re` once at most (names RE2 finds and `re` refuses, such as a
                    # value a space of Unicode starts, come thick and never make a match)
                    self._re2_until, self._re_until = self._re_until, pos
                    continue
                if m.end() == self._re_until:
                    # the spaces after the operator may go on past the stretch: read again
                    m = name_op.match(text, m.start())
                    assert m is not None  # (what matched to the stretch's end matches past it)
                return m
            at = self._search(pos)
            if at is None:
                return None
            if at - pos < _RE2_SPACING and at >= self._re2_until:
                self._re_until = at + _RE_STRETCH
            m = name_op.match(text, at)
            if m is not None:
                return m
            # Too long a name, too many underscores, or a value whose first four characters
            # hold a space of Unicode: no match of _NAME_OP starts inside the name either
            pos = at + 1

    @classmethod
    def of(cls, text: str) -> _NamesByRe2 | None:
        if not cls._PATTERNS:
            from app.secrets.engine import _re2_compile, _re2_module

            re2 = _re2_module()
            if re2 is None:
                return None
            compiled = [_re2_compile(p) for p in (_NAME_OP_RE2, _NAME_OP_VALUED_RE2)]
            cls._PATTERNS.append((*compiled, re2._Anchor.UNANCHORED))
        if text.isascii():
            return cls(text, text.encode())
        # Beyond ASCII, a space (which `re`'s \s reads as one) as a space, anything else as
        # "?": RE2 then passes over the values a space of Unicode shortens, as `re` does.
        # (One `str.replace` for each such space the text holds, in C: a table for
        # str.translate is looked up in Python's dict for every character.)
        spaced = text
        for space in _UNICODE_SPACES:
            if space in spaced:
                spaced = spaced.replace(space, " ")
        return cls(text, spaced.encode("ascii", "replace"))

    def _search(self, pos: int) -> int | None:
        """Where the next name may start at or after ``pos``, by RE2."""
        plain, valued, anchor = self._PATTERNS[0]
        pattern = valued if self._valued else plain
        # from the character before ``pos``: the one before a name is part of the match
        at = self._name_at(pattern.Match(anchor, self._raw, max(pos - 1, 0), self._end)[0])
        if at is not None and at < pos:
            # a name at the text's start (read from it: pos is 1), passed over: none can
            # start inside it, so the search goes on from past its first character
            at = self._name_at(pattern.Match(anchor, self._raw, pos, self._end)[0])
        return at

    def _name_at(self, span: tuple[int, int]) -> int | None:
        """Where the name of a match starts: past the character before it, or at the text's
        start when the match starts there with the name (its first character a letter or
        an underscore, which no character before a name is)."""
        start = span[0]
        if start < 0:
            return None
        if start == 0 and self._raw[:1] in _NAME_START:
            return 0
        return start + 1


@lru_cache(maxsize=4096)
def _may_name_credential(name: str) -> bool:
    """False when ``name`` holds none of the words every credential's name (`_classify_name`)
    and every credential-carrying query parameter holds: its value is not read."""
    return _holds_name_word(name)


def _holds_name_word(text: str) -> bool:
    """Whether ``text`` holds one of the words of a credential's name (`_NAME_HEAD_WORDS`).
    (Each word tested with `in`, mapped in C: no regular expression to compile, 0.3 ms of a
    small document's lint, and half the time of a generator's loop.)"""
    return any(map(text.lower().__contains__, _NAME_HEAD_WORDS))


# (the words of _NAME_HEAD_ANCHOR)
_NAME_HEAD_WORDS = tuple(_NAME_HEAD_ANCHOR.pattern.split("|"))


@lru_cache(maxsize=4096)
def _query_name(name: str) -> str:
    return "_".join(_name_parts(name))


# The line a YAML mapping or a TOML or INI section opens with ("datadog:", "[datadog]",
# "[services.datadog]": its last part), and how far above a name it is looked for
_SECTION_LINE = _lazy(
    r"(?P<indent>[ \t]*)"
    r"(?:\[(?:[A-Za-z0-9_\-]{1,63}\.){0,4}(?P<section>[A-Za-z][A-Za-z0-9_\-]{0,63})\]"
    r"|(?P<mapping>[A-Za-z][A-Za-z0-9_\-]{0,63}):)[ \t]*\r?"
)
_SECTION_LINES = 4
_SECTION_REACH = 256
_SECTION_END = _lazy(r"[:\]]\r?\n")


def _enclosing_section(text: str, at: int) -> str | None:
    """The name of the YAML mapping or the TOML section the name at ``at`` (a line's first
    word) stands in: the nearest of the four lines above it that opens one, a mapping at a
    smaller indentation, past its siblings (lines at its own); None where another line
    stands between, or the name is not its line's first word."""
    lowest = max(0, at - _SECTION_REACH)
    line_start = text.rfind("\n", lowest, at) + 1
    indent = at - line_start
    if text[line_start:at].strip(" \t"):
        return None
    # (no line above ends as one that opens a mapping or a section: none looked at, in C; a
    # text of 25,000 "key: …" lines holds none, and one "key: …" in 2 MB reads 256 characters)
    if _SECTION_END.search(text, lowest, line_start) is None:
        return None
    end = line_start - 1  # (the "\n" before the name's line)
    for _ in range(_SECTION_LINES):
        if end <= lowest:
            return None
        start = text.rfind("\n", lowest, end) + 1
        line = text[start:end]
        opening = _SECTION_LINE.fullmatch(line)
        if opening is not None:
            if opening.group("section") is not None:
                return opening.group("section")
            return opening.group("mapping") if len(opening.group("indent")) < indent else None
        spaces = len(line) - len(line.lstrip(" \t"))
        if line.strip() and spaces != indent:
            return None  # (a line of another level between: the name is not the section's)
        end = start - 1
    return None


# A credential's name assigned a list of values in a text: in brackets on its line (TOML's and
# Python's api_keys = ["…", "…"], YAML's flow sequence passwords: [a, b]), or as YAML's block
# sequence, an item a line ("api_keys:\n  - …\n  - …"). Each item is judged as an item of a
# JSON array under that name is (`_named_member`), at most this many, and flagged when half of
# them at least are credentials (a text's list of words is no JSON array a checkpoint holds).
_LISTED_MOST = 16
_LIST_OPENS = _lazy(r"[ \t]*+(?:\[|\r?\n(?P<indent>[ \t]{0,64}+)-[ \t]++)")
_LIST_ITEM = _lazy(
    r"""[ \t]*+(?:"(?P<dq>[^"\\\r\n]{1,256}+)"|'(?P<sq>[^'\\\r\n]{1,256}+)'"""
    r"""|(?P<bare>[^\s"',\[\]#]{1,256}+))[ \t]*+"""
)


def _listed_values(text: str, m: re.Match[str]) -> tuple[list[Span], int]:
    """The credentials a credential's name (``m``, `_NAME_OP`'s) is assigned as a list (see
    above), and where the list's items read end; none when it is assigned no list."""
    opens = _LIST_OPENS.match(text, m.end()) if m.group("op") in ("=", ":") else None
    if opens is None:
        return [], m.end()
    cls = _classify_name(m.group("name"))
    if cls is None:
        return [], m.end()
    indent = opens.group("indent")
    # (the next item of a block sequence: its line indented as the first's, and its dash)
    next_item = None if indent is None else _lazy_next_item(indent)
    spans: list[Span] = []
    pos, items = opens.end(), 0
    for _ in range(_LISTED_MOST):
        item = _LIST_ITEM.match(text, pos)
        if item is None:
            break
        items += 1
        group = item.lastgroup or "bare"
        kind = _member_credential(cls, item.group(group), prose=True)
        if kind is not None:
            spans.append((item.start(group), item.end(group), kind))
        elif items - len(spans) >= 2 and items > 2 * len(spans):
            # mostly words so far: no list of credentials, and the rest is not judged (a
            # hostile text of lists of 16 decoys each would cost 16 judgments a name)
            return [], pos
        pos = item.end()
        if next_item is not None:
            dash = next_item.match(text, pos)
            if dash is None:
                break
            pos = dash.end()
        elif text.startswith(",", pos):
            pos += 1
        else:
            # a list in brackets ends with its "]", and then its line, a separator or a quote
            # (a regular expression's class is no list: secret:[a-zA-Z0-9/_+=,.@-]+)
            closed = text.startswith("]", pos) and text[pos + 1 : pos + 2] in _AFTER_A_LIST
            return (_mostly(spans, items), pos + 1) if closed else ([], m.end())
    return _mostly(spans, items), pos


def _mostly(spans: list[Span], items: int) -> list[Span]:
    """The credentials of a list when they are half its items at least: a list of words a
    credential's name holds, a lexer's `tokens = ["foo", " ", "19June2000"]`, is none."""
    return spans if 2 * len(spans) >= items else []


_AFTER_A_LIST = frozenset(("", " ", "\t", "\r", "\n", ",", ";", "}", ")", '"', "'", "\\"))


@lru_cache(maxsize=64)
def _lazy_next_item(indent: str) -> re.Pattern[str]:
    return re.compile(r"\r?\n" + re.escape(indent) + r"-[ \t]++")


def _assignment_hit(text: str, m: re.Match[str]) -> tuple[int, int, str, int] | None:
    """(start, end, kind, end of the value) when a credential's name is assigned a value.

    None when the name is not a credential's; kind "" when its value is not a credential.
    """
    name, op = m.group("name", "op")
    if op in _ARROW_OPS and _HEADER_NAMES.search(name):
        return None  # (a header's line is written with its colon: Set-Cookie → a=1 is prose)
    at = m.start("name")
    if at > 1 and text[at - 1] == ":" and _named_in_a_path(text, at, op):
        # arn:aws:secretsmanager:…:123456789012:secret:db-AbC123, a resource's type in an ARN;
        # "AWS::SecretsManager::Secret": …, CloudFormation's name of a type
        return None
    appended = op == "+="  # (code adding to a value: only a literal it adds is one)
    # (two strings side by side: a call's arguments, a list's items; an environment's lookup
    # and its default, env("SECRET_KEY", default="…"), as django-environ and decouple take it)
    paired = op[0] == ","
    if paired and not m.group("q") and text[text.rfind("\n", 0, at) + 1 : at].strip(" \t"):
        return None  # (a bare comma pairs a name with its value in a CSV's row only)
    if op not in ("=", ":"):
        op = "="  # (an assignment of code, a type's or an operator's: its value is data)
    before = text[m.start() - 1] if m.start() else ""
    query = op == "=" and before != "" and before in "?&#;"
    if not query and op == "=" and name in _SAS_SIGNATURE_NAMES:
        # an Azure SAS token quoted from its start, or its signature alone ("sig=…%3D", no
        # "?" or "&" before it): a query's parameter when its value is what Azure signs
        # with, the base64 of 32 bytes, percent-encoded or not
        query = _SAS_SIGNATURE.match(text, m.end()) is not None
    cls = _classify_name(name)
    if cls is None and not query and before == " ":
        # a credential's name as a label writes it, its words a space apart ("API key:",
        # "Secret key =", "Stripe key:"): the word before it joined to it, as an identifier
        # would hold them ("the key:" and "sort key:" name none)
        cls = _classify_name(_words_before(text, m.start() - 1) + "_" + name)
    if query:
        joined = _query_name(name)
        if joined in _SIGNING_PARAMS:
            cls = _C_SIGNING  # X-Amz-Credential in a query is part of a signed URL
        elif cls is None:
            cls = _QUERY_PARAMS.get(joined)
    # a bare key in a service's YAML mapping or TOML section ("datadog:\n  key: …",
    # "[datadog]\nkey = …"), as a configuration nests each service's settings
    if cls is None and name in _BARE_KEYS and op in ("=", ":") and not query:
        section = _enclosing_section(text, m.start("name"))
        cls = None if section is None else _service_key_class(section)
    if cls is None:
        return None
    if cls in (_C_TOKEN, _C_CREDENTIAL) and text.startswith("(", m.end()):
        # auth=("admin", "…"): a user and a password, as Python's HTTP clients take them
        pair = _AUTH_PAIR.match(text, m.end())
        if pair is not None:
            start, end = pair.span("password")
            kind = _credential_value(_C_PASSWORD, pair.group("password"))
            return start, end, kind or "", pair.end()
    # YAML's block scalar (password: |, then the value indented on the next line): its one
    # line is the value
    next_line = False
    after = m.end()
    # (both the block scalar and its indicator start with one of these: a test in C first)
    indicated = op == ":" and text[after : after + 1] in ("|", ">")
    v = _BLOCK_SCALAR.match(text, after) if indicated else None
    if v is not None:
        group = "block"
    else:
        lead = _BLOCK_INDICATOR.match(text, after) if indicated else None
        v = _VALUE.match(text, after if lead is None else lead.end())
        if v is not None and op == ":" and v.group("bare") in _YAML_LEADS:
            v = _past_yaml_lead(text, v)
        if v is None and op == ":":
            # the label alone on its line, the value alone on the next (a form's fields copied,
            # "Username: admin\nPassword:\nQw7…"; YAML's plain scalar on the next line)
            v = _NEXT_LINE_VALUE.match(text, m.end())
            next_line = v is not None
        if v is None:
            return None
        group = v.lastgroup or "bare"  # (the one of dq, sq and bare that matched)
    start, end = v.span(group)
    if next_line:
        return start, end, _told_on_next_line(cls, v.group(group)) or "", v.end()
    resume = v.end()
    if cls == _C_RECOVERY_PHRASE and group == "bare":
        # a recovery phrase's words after its label unquoted ("Recovery phrase: ripple shadow
        # …"): the words of its line that may be one, when as many as a phrase holds
        phrase = _PHRASE_WORDS.match(text, start)
        if phrase is not None and _recovery_phrase(phrase.group()):
            return start, phrase.end(), RECOVERY_PHRASE, phrase.end()
    if appended and group == "bare":
        return start, end, "", resume  # url.password += encoded
    if group == "bq" and ("${" in v.group("bq") or "$(" in v.group("bq")):
        return start, end, "", resume  # a template literal that interpolates: `secret${i}`
    if group == "bare" and text.startswith("$", start) and text.startswith("->", end - 1):
        return start, end, "", resume  # PHP's $request->input('password'): code
    if group == "bare" and text.startswith("+", start) and "%" in text[start:end]:
        # a space as a URL encodes it, then more escapes: encoded text (a playground link's
        # code, ?code=fn+f(tokens:+%26mut+TokenStream)), which the scan reads decoded
        return start, end, "", resume
    header_line = cls in (_C_HEADER, _C_COOKIE) and group == "bare" and op == ":"
    if end - start < 4 and not header_line:
        return start, end, "", resume  # shorter than any credential
    value = v.group(group)
    if group in ("sq", "dq") and len(value) > 2 and value[0] in _QUOTES and value[-1] == value[0]:
        # a string literal's quotes inside the value, as Gradle's buildConfigField writes one
        # ('API_KEY', '"…"'), or a shell's, splicing a variable in: "'$DB_PASSWORD'"
        value, start, end = value[1:-1], start + 1, end - 1
    if group == "bare" and _may_hold_cjk(value):
        # CJK text runs on after a value with no space between ("密码：Zq9…请尽快更换"): the
        # value ends at its first such character, when four or more stand before it and a
        # letter among them (a count's "8~16자" is words: `_cjk_words`)
        cjk = _CJK.search(value)
        if cjk is not None and cjk.start() >= 4 and _ASCII_LETTER.search(value, 0, cjk.start()):
            value, end = value[: cjk.start()], start + cjk.start()
    if group == "bare" and value[-1] in _TRIMMED_ENDS:  # (else nothing to trim)
        trimmed = _trimmed_bare(value, text[end : end + 1] in _QUOTES)
        if not trimmed:
            return None
        if any(map(value[len(trimmed) :].__contains__, _ELLIPSES)):
            # shown cut short, as documentation shows a token ("TOKEN=ops_eyJzaWdu…..", one
            # of gitleaks' false cases): an example, whatever its start (a sentence's stop is
            # one full stop)
            return start, end, "", resume
        value, end = trimmed, end - (len(value) - len(trimmed))
    if header_line:
        # header syntax, "Authorization: Token abc" or "Cookie: a=1; b=2": the value is the line
        line = _LINE_REST.match(text, start)
        end = line.end() if line else end
        value = text[start:end].rstrip().rstrip(",;.")  # (a sentence's stop is no token's)
        if cls == _C_HEADER and not _plausible_authorization(value):
            # quoted in a sentence ("we sent Authorization: Splunk 7ed5… to the collector"):
            # the scheme and the token after it, when more words follow
            head = _SCHEME_AND_TOKEN.match(value)
            if head is not None and head.end() < len(value):
                value = head.group().rstrip(".)")
        end = start + len(value)
        resume = max(resume, end)
    # A ;path parameter ends where the query or the fragment starts (;jsessionid=X?a=1); a
    # password after a ";" is a connection string's (Server=…;Password=Ab3#Gh5;), which holds
    # what it likes.
    path_parameter = before != ";" or cls != _C_PASSWORD
    if query and path_parameter and group == "bare" and ("?" in value or "#" in value):
        cut = min((i for i in (value.find("?"), value.find("#")) if i > 0), default=0)
        if cut:
            value, end = value[:cut], start + cut
    if query and "%" in value:
        # imported by the text that needs it: with ipaddress, a tenth of `ocp lint`'s start-up
        from urllib.parse import unquote

        value = unquote(value)
    if value.casefold() == name.casefold():
        return start, end, "", resume  # code passing a variable on: passwords=passwords
    if len(value.strip()) < 4 or (
        paired
        and not (_both_cases_and_digits(value) or _generated_run(value) or _symbols_run(value))
    ):
        # shorter than any credential; or the second of two strings side by side that is not
        # in a credential's shape: a call's arguments pair them (put("api_key", "…"),
        # System.setProperty("DD_API_KEY", "…") with a key in one case), but so do lists of
        # names ('KEYPASSWD', 'KRB4LEVEL'; a lexer's Cocoa classes; pg_hba.conf's "md5",
        # "password", "scram-sha-256")
        return start, end, "", resume
    # Data takes more than prose does: a value refused even as data needs no look at the
    # line around it (a hostile text of 10,000 `api_key = 0000…` is refused at this step).
    if _credential_value(cls, value) is None:
        return start, end, "", resume
    structured = _structured(text, m, query, quoted=group != "bare", value_end=v.end())
    kind = _credential_value(cls, value, prose=not structured)
    return start, end, kind or "", resume


# What stands before a YAML value on its name's line and is no value: a string's tag (api_key:
# !!str 0123…, a value that would read as a number otherwise), and, in YAML whose lines were
# joined by spaces (a log or a page that collapsed its whitespace), a block scalar's indicator
# (password: | Qw7…) and the mapping a value is wrapped in (adminPassword: value: 'Qw7…';
# CloudFormation's DBPassword: Type: String NoEcho: true Default: Qw7…). A block scalar's
# indicator at its line's end, a block of several lines, stays a value of none.
_BLOCK_INDICATOR = _lazy(r"[|>][+-]?[ \t]++")
_YAML_LEADS = frozenset(("!!str", "value:", "Value:", "default:", "Default:", "Type:"))
# (CloudFormation's parameter: its Type and other one-word properties before its Default)
_WRAPPED_DEFAULT = _lazy(
    r"Type:[ \t]++[A-Za-z][\w:.<>]{0,64}+[ \t]++"
    r"(?:(?:NoEcho|MinLength|MaxLength|AllowedPattern):[ \t]++[^\s]{1,64}+[ \t]++){0,4}?Default:"
)


def _told_on_next_line(cls: str, value: str) -> str | None:
    """The kind of credential ``value`` is, alone on the line after a label that names ``cls``
    ("Password:", a form's field copied; "Datadog API Key", a web page's): a key's or a token's
    generated in one case too (Datadog's 32 hex digits, Heroku's UUID), a password's with both
    cases and a digit, as prose judges one (a word under "Password:" is the form's text)."""
    told = _both_cases_and_digits(value) or (
        cls != _C_PASSWORD and (_generated_run(value) or _uuid(value))
    )
    return _credential_value(cls, value, prose=True) if told else None


# the last word of a label alone on its line (`_told_on_next_line`, detectors `label_line_value`)
_LABEL_ENDS = ("key", "token", "secret", "password")
# the symbols a value under its label may hold, in a character class (no quote, no space)
_LABEL_SYMBOLS = r"!#$%&()+*,./:;=?@^_{|}~\-"  # ("*+" would read as possessive)
# (a line of one word, of 4 characters or more, no quote, no closing colon: a YAML key, a list's
# item, a block's name are none; judged as prose judges a password, letters of both cases and
# digits at least)
_NEXT_LINE_VALUE = _lazy(
    r"[ \t]*+\r?\n[ \t]*+(?P<bare>[^\s\"'`:<>\[\]{}-][^\s\"'`<>]{3,127}+)(?<!:)[ \t]*+(?=\r?\n|\Z)"
)


# An Amazon Resource Name up to its resource's type: partition, service, region, account (12
# digits, or "aws" for a policy AWS manages), the colons between (RFC-like, no spaces or quotes)
_ARN_HEAD = _lazy(
    r"arn:aws[a-z\-]{0,16}:[A-Za-z0-9\-]{1,64}:[A-Za-z0-9\-]{0,32}:(?:[0-9]{12}|aws)?:\Z"
)


def _named_in_a_path(text: str, at: int, op: str) -> bool:
    """Whether the name at ``at``, after a colon (its caller looks, in a step of its own), is
    the last part of a type's path (AWS::SecretsManager::Secret, whose colons stand before it)
    or an ARN's resource type (…:123456789012:secret:…, which a colon follows as a label's
    does)."""
    if text[at - 2] == ":":
        return True
    return op == ":" and _ARN_HEAD.search(text, max(0, at - 160), at) is not None


def _past_yaml_lead(text: str, v: re.Match[str]) -> re.Match[str] | None:
    """The value after the lead ``v`` found (one of `_YAML_LEADS`, its caller has seen), on its
    line; ``v`` itself when it is none (CloudFormation's "Type:" with no Default after it);
    None when no value follows the lead on its line."""
    at = v.end()
    if v.group("bare") == "Type:":
        wrapped = _WRAPPED_DEFAULT.match(text, v.start())
        if wrapped is None:
            return v
        at = wrapped.end()
    gap = text[at : at + 64]
    return _VALUE.match(text, at + len(gap) - len(gap.lstrip(" \t")))


def _key_of_api(text: str, m: re.Match[str]) -> bool:
    """Whether the name ``m`` found is "API" after a key's word and a space ("clave de API",
    `_KEY_OF_API`), which names a key as "API key" does."""
    if m.group("name").lower() != "api" or not text.startswith(" ", m.start() - 1):
        return False
    words = _words_before(text, m.start() - 1).lower().split("_")
    return words[0] in _KEY_OF_API_WORDS


_KEY_OF_API_WORDS = frozenset((*_KEY_HEADS, *KEY_WORDS))


def _words_before(text: str, end: int) -> str:
    """The word of letters (up to 24) that ends at ``end``, with the one a space before it
    ("Public API", as a label's "Public API key" holds them), joined by "_"; or ""."""
    head = text[max(0, end - 50) : end]
    last = head[len(head.rstrip(_LETTERS)) :]
    if not last or len(last) > 24:
        return ""
    rest = head[: len(head) - len(last)]
    if not rest.endswith(" "):
        return last
    before = rest[:-1]
    word = before[len(before.rstrip(_LETTERS)) :]
    return f"{word}_{last}" if word and len(word) <= 24 else last


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


_SAS_SIGNATURE_NAMES = ("sig", "Sig", "SIG")
# the base64 of a SHA-256 HMAC, its "+", "/" and "=" percent-encoded or not
_SAS_SIGNATURE = _lazy(r"(?:[A-Za-z0-9+/]|%2[BbFf]){43}(?:=|%3[Dd])(?![A-Za-z0-9+/=%])")


# A user and a password in a tuple of two string literals: ("admin", "…") or ('admin', '…')
_AUTH_PAIR = _lazy(
    r"""\([ \t]*(?P<q>\\?["'])[^"'\\\r\n]{1,256}+(?P=q)[ \t]*,[ \t]*"""
    r"""(?P<q2>\\?["'])(?P<password>[^"'\\\r\n]{1,1024}+)(?P=q2)[ \t]*\)"""
)


_ELLIPSES = ("..", "\u2026")


# The last characters of a bare value `_trimmed_bare` may take away.
_TRIMMED_ENDS = frozenset(",;:.)]}\\")


def _trimmed_bare(value: str, quote_after: bool) -> str:
    """An unquoted value without what belongs to the text around it: the backslash of an
    escaped quote after it (``quote_after``: a quote follows the value; a value in JSON a text
    quotes, {\\"key\\": \\"…\\"}), and trailing punctuation and a call's closing bracket
    (f(api_key=self.api_key), password=None), but for a bracket whose opener it holds ("" when
    nothing is left). It keeps the value's start: the end moves back by what it drops."""
    if quote_after and value.endswith("\\"):
        value = value[:-1]
    while value and value[-1] in ",;:.)]}":
        if value[-1] in ")]}" and "([{"[")]}".index(value[-1])] in value:
            break
        value = value[:-1]
    return value


_LEAD_WINDOW = 256


def _structured(text: str, m: re.Match[str], query: bool, *, quoted: bool, value_end: int) -> bool:
    """Is this name/value pair data (JSON, YAML, .env, a query) rather than running prose?"""
    op, flag, quote, space_before, space_after = m.group("op", "flag", "q", "sp1", "sp2")
    if op == ",":
        # two strings side by side: a call's arguments or a list's items, the second judged as
        # prose judges a value (["username", "password", "email"] lists fields)
        return False
    if op in _COMPARISONS or op in _ARROW_OPS:
        # code comparing a credential with a literal (if password == "…"): judged as prose
        # judges a value (token == "Bearer", key != "Enter" are none)
        return False
    if flag:
        # a command line's flag: judged as prose judges a value, as a command line told in a
        # page is (gcloud's --oauth-client-secret='looker'; clippy's --pass=early names a pass)
        return False
    # (a name in a code span or set in emphasis, `password`: … or *Password*: …, is a note's)
    quote = quote if quote[-1:] not in ("`", "*") else ""
    if query or quote or (op == "=" and not space_before + space_after):
        return True
    # Only the last characters before the name tell prose from data, and looking no further
    # back keeps a megabyte-long line of "password: a " linear.
    window = max(0, m.start() - _LEAD_WINDOW)
    newline = max(text.rfind("\n", window, m.start()), text.rfind("\r", window, m.start()))
    lead = text[newline + 1 if newline >= 0 else window : m.start()]
    if lead.strip(" \t-*") and not lead.endswith("\\n") and not _CODE_LEAD.fullmatch(lead):
        return False  # mid-sentence: "the password: see the vault"
    if quoted:
        return True
    rest = text[value_end : value_end + 200].split("\n", 1)[0].strip()
    return not rest or rest.startswith(("#", "\\n", "//", '"', "'", ",", ";"))


_COMPARISONS = ("==", "===", "!=", "!==")
_ARROW_OPS = frozenset(_POINTERS)
_HEADER_NAMES = _lazy(r"(?i)cookie|authorization")


# What code writes before a name it assigns to: a variable's sigil ($password, @password), an
# object's or a class's accessor ($mail->Password, $this->config->password, Config::$password)
_CODE_LEAD = _lazy(r"[ \t]*(?:[$@&*]{0,2}[A-Za-z_][A-Za-z0-9_]{0,63}(?:\??->|::|\.)){0,8}[$@]{0,2}")


# --- which detectors a string needs: the engine's patterns ---------------------------------------

# One or two asterisks before a value's first character (Markdown's bold), which is no mask
_BOLD_OPENING = rf"\*{{1,2}}[^*{_RE2_SPACES}]"
# What follows an operator when the value after it is no mask (********): spaces, then a
# character that is no asterisk or one or two asterisks before one
_NOT_A_MASK = rf"[ \t]*(?:[^*{_RE2_SPACES}]|{_BOLD_OPENING})"
# (a comma, or a line break as written, Windows' too, or as JSON writes it: a name/value entry,
# `_name_then_value`; a space and a quote: password 'Xk9#…', `_quoted_after_name`. The keywords
# `re` finds mark a string whatever follows them: RE2 reads this, and must end a name where
# `re`'s detectors do, "- name: DD_API_KEY\r\n  value: …" too; and an arrow)
_NAME_END = (
    # (after ":" or "=", no value that opens with "<", a placeholder's or a tag's, which no name's
    # detector reads as a value, nor a mask: "password: <your-password>", "token=********")
    rf"(?:s?\\?[\"'`*]?\]?[ \t]*(?:[:=][ \t]*(?:[^<* \t]|{_BOLD_OPENING})"
    r"|[\r\n,+<?]|\|\|=|\\[rn]|string[ \t])| [\"']"
    # (an arrow or a dash: `_NAME_OP`'s, as the engines read them; its value no mask of three
    # asterisks or more, "svc_password -> ********", which no detector reports, and a note
    # of redacted settings writes line after line: two, Markdown's bold, may open one)
    rf"|[ \t]-?>?[ \t]{_NOT_A_MASK})"
)


# A key of the API in the languages that name it so, after the key ("clave de API", "klucz
# API", "clé API" read as "key API", shapes `KEY_LABELS`): its name is "API", which
# `_named_in_text` reads with the words before it
_KEY_OF_API = (
    rf"(?:{'|'.join(sorted(_KEY_OF_API_WORDS))})(?:[ \t]+(?:{'|'.join(sorted(_OF_WORDS))}))?"
    r"[ \t]+api"
)


# the words of the name anchor below: one of them is in every name it finds
_NAME_ANCHOR_WORDS: tuple[str, ...] = (
    "pass",
    "pw",
    "phrase",
    "pair",
    "sess",
    "secret",
    "sig",
    "token",
    "key",
)
_NAME_ANCHOR_WORDS += ("auth", "cookie", "cred", "jwt", "bearer", "psk", *_PASSWORD_WORDS)
_NAME_ANCHOR_WORDS += ("mnemonic", "wif")
# A listing's name, ending in its word (db_password, API_KEY, client_secret)
_LISTED_NAME_ENDS = (
    *("word", "wd", "phrase", "pass", "pw", "secret", "token", "key", "auth", "creds?"),
    *("credentials", "cookie", "jwt"),
)
_LISTED_NAME = rf"[A-Za-z0-9_.\-]{{0,127}}(?i:{'|'.join(_LISTED_NAME_ENDS)})"
# ... and such a name with a dot or an underscore in it and one space after it, where Java's
# properties (db.password Qw7…) and a note of settings set a value: the keywords, its end
# and the space ("creds?": "cred " and "creds ")
_PROPERTY_NAME_KEYWORDS = tuple(
    word + " "
    for end in _LISTED_NAME_ENDS
    for word in ((end[:-2], end[:-1]) if end.endswith("?") else (end,))
)
# How the names end that a quoted value follows with no operator (password 'Xk9#…'; strongSwan's
# ipsec.secrets, : PSK "…")
_QUOTED_NAME_ENDS = ("word", "wd", "phrase", "pass", "pw", "secret", "token", "key", "psk")


def _as_the_engines_read(word: str) -> str:
    """A regex of ``word`` as the engines read it where a text holds it (app/secrets/engine.py
    `_ascii_of`: a character past ASCII as "?")."""
    return re.escape(_ascii_of(word))


class _Anchor:
    """A pattern (as app/secrets/engine.py reads it) that sends the strings holding it to its
    detectors."""

    __slots__ = (
        "_searches",
        "detectors",
        "each",
        "keywords",
        "lead",
        "mixed_case",
        "narrow",
        "regex",
        "run_test",
        "word_gate",
    )
    scope = ANYWHERE  # an anchor's keyword may stand anywhere
    min_run = 0

    def __init__(
        self,
        pattern: tuple[str, tuple[str, ...]],
        detectors: tuple[Detector, ...],
        *,
        mixed_case: bool = False,
        narrow: str | None = None,
        run_test: Callable[[str], bool] | None = None,
        word_gate: bool = False,
        each: tuple[str, ...] = (),
    ) -> None:
        self.regex, self.keywords = pattern  # (the engine reads both)
        self.detectors = detectors
        # the literal character every match starts with ("" when none does), which `re`
        # skips to at C speed
        self.lead = _lead(self.regex)
        # what `re` searches a string alone for, where the anchor's marks come thick
        # (`_mark_each`): a string holds a match of the last exactly when the anchor marks it,
        # and of each before it then too (a cheaper test, to pass over most strings at C
        # speed). Its regex itself, when that starts with a literal and never matches a
        # newline (a string's matches are then the same searched alone as in the text of all
        # strings, one a line); () for the others but those given theirs: searched through
        # all strings, a mark at a time.
        if each:
            self.each: tuple[str, ...] = each
        else:
            self.each = (self.regex,) if self.lead and _never_a_newline(self.regex) else ()
        self._searches: list[Callable[[str, int, int], object]] = []
        # only a run of both cases can be the detector's: base64 of text mixes them,
        # hexadecimal digests, ids and paths do not (a benign document is full of those)
        self.mixed_case = mixed_case
        # what RE2 searches instead of `regex` (see _MIXED_RUN_RE2), until it has found too
        # many runs `_candidates` refuses
        self.narrow = narrow
        self.run_test = run_test  # (app/secrets/engine.py `Pattern`)
        # When `re` scans (a small input), the strings holding one of the keywords go to the
        # detectors, found by `str.find`: compiling the regex would cost more than the
        # detector costs on the few strings more it then reads (RE2, on a large input, runs
        # the regex: its compiling costs little, and it keeps the strings to the fewest).
        self.word_gate = word_gate

    def searches(self) -> list[Callable[[str, int, int], object]]:
        """`re`'s search of each of `each`, compiled on first use."""
        if not self._searches:
            self._searches.extend(re.compile(regex, re.ASCII).search for regex in self.each)
        return self._searches


def _lead(regex: str) -> str:
    """The literal character every match of ``regex`` starts with, its first (or one
    punctuation character escaped, "\\\\"), when no alternation stands outside a group
    (" / |cred…" starts with either): `re` then finds it at C speed before it tries the rest.
    "" when there is none."""
    lead = regex[:1]
    if lead == "\\":  # (an escaped letter or digit is a class or a reference)
        lead = regex[1:2]
        if not lead or not lead.isascii() or lead.isalnum():
            return ""
    elif lead in ("", *"()[]{}.^$|?*+"):
        return ""
    return "" if _top_level_bar(regex) else lead


def _never_a_newline(regex: str) -> bool:
    """Whether ``regex`` matches no newline, told from its text alone (and cautiously: no
    escape that may stand for one, no negated class, no dot)."""
    for at, kind, char in _syntax(regex):
        if kind == "escaped" and char in "nrsSWDx0123456789":
            return False
        if kind == "open" and regex[at + 1 : at + 2] == "^":
            return False
        if kind == "plain" and char == ".":
            return False
    return True


# The base64 anchor's run: these characters, at least this many, both cases among them.
_B64, _MIXED_RUN = r"A-Za-z0-9+/_\-", 24
_B64_OTHER = r"0-9+/_\-"  # (its characters but the letters)
# What RE2 looks for in its place: a run of the same characters holding both cases, and long
# enough that one of the three parts around its first change of case is 8 characters long
# (the part before the letter, the other characters between it and the letter of the other
# case, and the part after). A run of 24 has 22 characters in those parts, so one of them
# holds 8: every run the anchor keeps is found, and with it the mixed runs from 10 to 23
# characters long, which `_candidates` refuses. Single-case runs (hexadecimal digests, ids,
# paths: hundreds in a benign document, each a call of RE2 and a step of Python to refuse)
# are passed over inside RE2. (An exact "24 or more with both cases" couples a count with
# where the cases change: its program is 25,000 instructions and 12 ms to compile.) Each
# match is a whole run (each part may reach further back, and each ends greedily): the
# search goes on from a run's end, where the plain run may take over. A text of short mixed
# runs (camelCase names) makes this one refuse runs the plain run never stops at (one every
# 11 characters at most, against one every 25): past one refused run for every
# `_NARROW_REFUSAL_SPACING` characters of a text, the plain run is searched for instead. So a
# text pays at most that many refusals more than with the plain run alone (some 0.8 ms in
# 400 KB of camelCase code, a tenth of a benign document's lint), and one of digests a
# single call of RE2 where it paid one for each.


def _switch(between: str) -> str:
    """A change of case: a letter, ``between`` (a repetition) of the other characters, a
    letter of the other case."""
    other = f"[{_B64_OTHER}]{between}"
    return f"(?:[a-z]{other}[A-Z]|[A-Z]{other}[a-z])"


_MIXED_RUN_RE2 = "|".join(
    [
        f"[{_B64}]{{8,}}{_switch('*')}[{_B64}]*",
        f"[{_B64}]*{_switch('{8,}')}[{_B64}]*",
        f"[{_B64}]*{_switch('*')}[{_B64}]{{8,}}",
    ]
)
_NARROW_REFUSAL_SPACING = 500
# And what `re` searches one string for (`_Anchor.each`): the start of a run at least 24 long,
# read from there up to its first letter of each case (possessively, once: linear), as
# app/secrets/detectors.py `_BASE64_RUN` reads a run
_MIXED_RUN_ALONE = (
    rf"(?<![{_B64}])(?=[{_B64}]{{{_MIXED_RUN}}})"
    rf"(?:[A-Z{_B64_OTHER}]*+[a-z][a-z{_B64_OTHER}]*+[A-Z]"
    rf"|[a-z{_B64_OTHER}]*+[A-Z][A-Z{_B64_OTHER}]*+[a-z])"
)


def _base64_run(run: str) -> bool:
    # a run of token characters that can hold base64 of text: 24 characters, both cases
    return len(run) >= _MIXED_RUN and run != run.lower() and run != run.upper()


# Every detector's match contains one of its anchors, and a detector runs only on the strings
# that hold one. An anchor need only lie inside its detector's match, and may find more than
# the detector takes (a non-ASCII character reads as "?" to the engine, so the classes that
# may meet one allow "?"). Each ends at a string's end at the latest: the document scan puts a
# newline after every string, which a name's anchor may take as its last character.
_VERBS = ("is", "was", "for", "of", "to", "you", "we", "they")  # (and who: "the token you …")
# ... and how it came to be, after its name ("the access token returned was …"; detectors
# `_PARTICIPLE`)
PARTICIPLES: tuple[str, ...] = ("returned", "generated", "issued", "created", "provided")
PARTICIPLES += ("assigned", "received", "used")
# (the words a key's anchor reads after its name but "is" and "was", which it reads with the
# value right after them)
_KEY_TOLD_VERBS = tuple(verb for verb in (*_VERBS, *PARTICIPLES) if verb not in ("is", "was"))
# What a sentence says was done to a credential before its new value ("was reset to …",
# detectors.py `_TOLD_VERB`)
DONE_TO_IT = ("reset", "changed", "set", "updated", "rotated")
# ... and "is" or "was" after a credential's name, with what was done to it, as the anchors of
# a told password and a told key read them before the value; a value's character (no space, no
# quote, no tag's mark)
_TOLD_IS_WAS = rf"(?i:is|was)[ \t:][ \t]*(?:(?i:{'|'.join(DONE_TO_IT)})[ \t]+(?i:to|from)[ \t]+)?"
_TOLD_CHARACTER = rf"[^{_RE2_SPACES}\"'`<>]"
# what a key's name says it is for, when no verb stands between it and its value (detectors.py
# `_NAME_THEN_KEY` reads the same words)
_KEY_PURPOSES = (
    "api",
    "access",
    "secret",
    "client",
    "auth",
    "bearer",
    "deploy",
    "refresh",
    "session",
)
_SETTER_WORDS = (
    *("pass(", "password(", "passwd(", "pwd(", "secret(", "token(", "key("),
    *("credential(", "credentials("),
)
_STATEMENT_WORDS = (
    *("identified ", "convertto-securestring"),
    *(f"password{op}{quote}" for op in (" ", "=", " = ") for quote in "'\""),
)
# The members that hold a value wrapped in an object of its own (`_wrapped_values`), and the
# keys of a YAML mapping that does (`detectors.yaml_wrapped_value`)
_WRAPPED_VALUES = ("value", "Value", "defaultValue", "default", "Default")
# A password's names in other languages as the scan reads them (shapes `PASSWORD_NAMES`; "passwd"
# for пароль, "mot de passe"), and their words for "for" and "is" as the engines read them
# (detectors `_PASSWORD_IS_PAST_ENGLISH` reads the text they mark)
_PASSWORD_NAMES_PAST_ENGLISH = (*PASSWORD_NAMES, "passwd", "mot de passe")
# ... and English's, as prose tells one ("the password is …", "the pwd for the db: …"; "pass"
# after what it opens, "the db pass is …", "the wifi pass was …": a pass alone is a ticket's, a
# compiler's, a test run's)
_PASS_OF_IN_PROSE = (
    *("db", "database", "root", "admin", "wifi", "vpn", "ssh", "sudo", "mysql", "postgres"),
    *("redis", "ftp", "smtp", "email", "mail", "ldap", "router", "server", "app", "account"),
)
# (a password's name in a sentence: Unix's "passwd" and a note's "pw" too, "the pw is …")
_PASSWORD_IN_PROSE = (
    rf"pass(?:word|phrase|code|wd)|pwd?|(?:{'|'.join(_PASS_OF_IN_PROSE)})[ \t]+pass"
)
_WORDS_PAST_ENGLISH = "|".join(map(_as_the_engines_read, (*PASSWORD_FOR_WORDS, *PASSWORD_IS_WORDS)))
# A log collector's prefix of a line (app/secrets/detectors.py `log_decoding`): an RFC 3339 or a
# logger's time, its level and fields in brackets; the journal's; `docker compose logs`'.
_LOG_TIME = r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}"
LOG_PREFIX = (
    rf"(?:{_LOG_TIME}(?:[.,][0-9]{{1,9}})?(?:Z|[+-][0-9]{{2}}:?[0-9]{{2}})?"
    r"(?:[ \t]+(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL):?)?"
    r"(?:[ \t]+\[[^\]\n]{0,64}\])*"
    r"|[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [A-Za-z0-9_.\-]{1,64} "
    r"[A-Za-z0-9_.\-/@]{1,64}(?:\[[0-9]{1,10}\])?:"
    r"|[A-Za-z0-9_.\-]{1,64}[-_][0-9]{1,4} +\|)[ \t]"  # (compose's service-1, service_1)
)
# grep's prefix of a line it prints: the file's path, and the line's number between colons (a
# line that matched) or hyphens (a line of context around it)
GREP_PREFIX = r"[A-Za-z0-9_.~/\-]{1,256}?\.[A-Za-z0-9]{1,10}[:\-][0-9]{1,7}[:\-]"
# The marks that comment a line out, as regexes: a shell's, YAML's and an INI file's "#", C's
# and its kin's "//" and a block comment's " * ", SQL's and Lua's "-- " (a space after it: a
# command's help opens its lines with "--password=PASSWORD", a flag's), an INI file's ";".
_COMMENT_MARKS = ("#", "//", "--[ \t]", ";", r"\*")
# ... and as `re` reads one opening a line, the spaces before it and one after it
# (detectors `comment_decoding`, and `numbered_decoding` after a line's number)
COMMENT_MARK = r"[ \t]*(?:#|//|--(?=[ \t])|;|\*)[ \t]?"
# What a quoted-printable text holds: "=" escaped, a character past ASCII as its UTF-8 bytes
# escaped (a lead byte's, then a continuation's: "=C3=A9"), a soft break after 69 characters
# with no escape; in capitals, as RFC 2045 has encoders write them (`KEY=3dffc47b…`, a value
# in hex, is none; "=3D" once before a hex digit may start a value, and such a text is read
# both as written and as it decodes: detectors `quoted_printable_reading`)
QUOTED_PRINTABLE = r"=3D|=[C-F][0-9A-F]=[89AB][0-9A-F]|[^\n=]{69}=\r?\n"
# Whose a credential set to a value is, between its name and "to" ("reset the password for
# alice to …", "of the admin account"): the anchor's and the detector's (detectors `_SET_NAME_TO`)
SET_TO_WHOSE = (
    r"(?:[ \t]+(?i:for|of)[ \t]+(?:(?i:the)[ \t]+)?[A-Za-z0-9_.@\-]{1,64}"
    r"(?:[ \t]+(?i:user|account))?)?"
)
# The words a long flag named for a credential ends with (detectors `credential_flag`)
_CREDENTIAL_FLAG_WORDS = ("key", "token", "secret", "credential", "pat")
# The literal each start of a private key's body without its armour holds (detectors
# `unarmoured_key`, `_DER_KEY_STARTS`), and how far into the start it stands.
DER_KEY_WORDS = (
    ("IBADANBgkqhkiG9w0BAQEFAASC", 6),
    ("IBAAK", 6),
    ("GByqGSM49AgEG", 11),
    ("MHcCAQEEI", 0),
    ("MIGkAgEBBD", 0),
    ("MIHcAgEBBE", 0),
    ("CAQAwBQYDK2V", 3),
    ("b3BlbnNzaC1rZXktdjE", 0),
)
# The words of a value told before its name (detectors `value_before_name`, whose regex and
# anchor are written from them): a verb a person uses a credential with, before the value
# after "as"; the words between "as" (or "is", "was") and the name; the names.
TOLD_BEFORE_VERBS = (
    "use|using|used|enter|entered|try|tried|type|typed|set|choose|chose|pick|picked|with"
)
TOLD_BEFORE_DETERMINERS = "the|your|a|my|our"
TOLD_BEFORE_QUALIFIERS = "new|temporary|temp|initial|admin|root|default|current"
TOLD_BEFORE_NAMES = "password|passphrase|passcode|api key|access token|token|secret"
# Its anchor: after "as", a verb before the value and a digit in it; after "is" or "was", its
# last characters ({value}): "known as the password", "x is the password" mark no string.
_TOLD_BEFORE_ANCHOR = (
    rf"(?:(?i:{TOLD_BEFORE_VERBS}) "
    r"[\"'`]?[^ \t\n\"'`0-9]{{0,127}}[0-9][^ \t\n\"'`]{{0,127}}[\"'`]? (?i:as)"
    rf"|{{value}}[\"'`]? (?i:is|was)) (?i:(?:{TOLD_BEFORE_DETERMINERS}) )?"
    rf"(?i:(?:{TOLD_BEFORE_QUALIFIERS}) )?(?i:{TOLD_BEFORE_NAMES})"
)
_TOLD_BEFORE_WORDS = ("password", "passphrase", "passcode", "api key", "token", "secret")
# A word holding a digit, a capital and a small letter, in any order (for RE2: no look-ahead)
_VALUE_CHARACTER = r"[^ \t\n\"'`]*"
_THREE_CLASSES = (
    f"{_VALUE_CHARACTER}(?:"
    + "|".join(
        f"{a}{_VALUE_CHARACTER}{b}{_VALUE_CHARACTER}{c}"
        for a, b, c in (
            ("[0-9]", "[A-Z]", "[a-z]"),
            ("[0-9]", "[a-z]", "[A-Z]"),
            ("[A-Z]", "[0-9]", "[a-z]"),
            ("[A-Z]", "[a-z]", "[0-9]"),
            ("[a-z]", "[0-9]", "[A-Z]"),
            ("[a-z]", "[A-Z]", "[0-9]"),
        )
    )
    + f"){_VALUE_CHARACTER}"
)


# Oracle's tools that take user/password@database as an argument (app/secrets/detectors.py
# `oracle_connect`, and its anchor)
ORACLE_TOOLS = ("sqlplus", "rman", "expdp", "impdp", "sqlldr", "dgmgrl")


_ANCHORS: tuple[_Anchor, ...] = (
    _Anchor((r"(?i:private[^A-Za-z0-9\n]{1,3}key)", ("private",)), (_pem,)),
    # a JSON Web Key's type, in the object that holds its private part (detectors `private_jwk`)
    _Anchor(('"kty"', ('"kty"',)), (_private_jwk,)),
    # a private key's body without its armour (detectors `unarmoured_key`: its starts' words)
    _Anchor(
        ("|".join([word for word, _ in DER_KEY_WORDS]), tuple([w for w, _ in DER_KEY_WORDS])),
        (_unarmoured_key,),
    ),
    _Anchor(("PuTTY-User-Key-File-", ("putty-user-key-file-",)), (_putty,)),
    # (a "#" in the authority too: a password written unencoded, detectors `_UNESCAPED_AUTHORITY`)
    _Anchor((r":(?://|\\/\\/)[^ \t\r\n/@]*@", ("@",)), (_userinfo,)),
    _Anchor(("@", ("@",)), (_special_userinfo,)),
    _Anchor((r"(?i:machine|default)(?:[ \t\r\n]|\\[rnt])", ("machine", "default")), (_netrc,)),
    _Anchor(("%[0-7][0-9A-Fa-f]", ("%",)), (_percent_encoded,)),
    _Anchor(("~[01]", ("~0", "~1")), (_pointer_escaped,)),
    # (its keyword "&": a text holding none pays one `in` test, one holding some a search of
    # the regex from each "&", a literal `re` finds at C speed)
    _Anchor(
        (r"&(?:quot|apos|amp|lt|gt|#34|#39|#38|#60|#62|#x2[267]|#x3[ceCE]);", ("&",)),
        (_html_escaped,),
    ),
    # JSON quoted in a text, escaped twice (a backslash escaped), or a tab, a slash or a
    # character by its code escaped (detectors `JSON_DECODED`; its backslash first, where `re`
    # skips to it)
    _Anchor(
        (r"\\(?:\\|[tnr/\"]|u[0-9A-Fa-f]{4})", ("\\\\", "\\t", "\\n", "\\r", "\\/", '\\"', "\\u")),
        (_json_escaped,),
    ),
    # a unified diff's hunk (its header's start: where `re` skips to it)
    _Anchor(("@@ -[0-9]", ("@@ -",)), (_diff_marked,)),
    # a terminal's escape sequence (a colour, a link)
    _Anchor((r"\x1b", ("\x1b",)), (_terminal_escaped,)),
    # a CSV's quoted cell, its quotes doubled (detectors `csv_quoted_decoding`)
    _Anchor(('""', ('""',)), (_csv_quoted,)),
    # an e-mail's quoted-printable body (`QUOTED_PRINTABLE`): "=" written "=3D", a character
    # past ASCII as its UTF-8 bytes, or a long line broken by "=" at its end, at the width an
    # encoder breaks at (`KEY=` ending a line is no such break)
    _Anchor(
        (QUOTED_PRINTABLE, ("=3d", "=c", "=d", "=e", "=f", "=\n", "=\r\n")),
        (_quoted_printable,),
    ),
    # a quoted line of an e-mail's reply, or of Markdown's block quote (its mark after a line
    # break: a literal pair RE2 skips to)
    _Anchor(("\n>|\n&gt;", ("\n>", "\n&gt;")), (_quote_marked,)),
    # two lines in a row a log's collector prefixed (detectors `LOG_PREFIX`): the first with
    # more than its prefix (a time alone in a value, and one in the next, make no log). Its
    # keyword the colon every prefix holds
    _Anchor((rf"\n{LOG_PREFIX}[^\n]*\n{LOG_PREFIX}", (":", "|")), (_log_prefixed,)),
    # a list of two strings or more, a text's lines (detectors `listed_lines`)
    _Anchor(
        (
            r"\[[ \t\r\n]*(?:\"(?:[^\"\\\n]|\\[^\n])*\"|'(?:[^'\\\n]|\\[^\n])*')[ \t\r\n]*,"
            r"[ \t\r\n]*[\"']",
            ("[",),
        ),
        (_listed_lines,),
    ),
    # two lines in a row a line's number opens, or a line grep prefixed with its file and
    # number (detectors `numbered_lines`; an arrow read as a space, as the engine reads one)
    _Anchor(
        (
            r"\n[ \t]*[0-9]{1,7}(?:\t|[ \t]*\||:| )[^\n]*\n[ \t]*[0-9]{1,7}(?:\t|[ \t]*\||:| )"
            rf"|(?:^|\n){GREP_PREFIX}",
            ("\n", ":", "-"),
        ),
        (_numbered_lines,),
    ),
    # two lines in a row indented by tabs (detectors `tab_indented`)
    _Anchor(("\n\t[^\n]*\n\t", ("\n\t",)), (_tab_indented,)),
    # HTML's line break (detectors `html_lines`)
    _Anchor(
        (r"(?i:<br[ \t]*/?>|</(?:div|p|li)>)", ("<br", "</div", "</p", "</li")), (_html_lines,)
    ),
    # two lines in a row a comment's mark opens, the same mark (detectors `comment_marked`)
    _Anchor(
        (
            "|".join(rf"\n[ \t]*{mark}[^\n]*\n[ \t]*{mark}" for mark in _COMMENT_MARKS),
            ("#", "//", "--", ";", "*"),
        ),
        (_comment_marked,),
    ),
    _Anchor(
        (rf"[{_B64}]{{{_MIXED_RUN},}}", ()),
        (_base64_wrapped,),
        mixed_case=True,
        narrow=_MIXED_RUN_RE2,
        run_test=_base64_run,
        each=(rf"[{_B64}]{{{_MIXED_RUN}}}", _MIXED_RUN_ALONE),
    ),
    # How a credential's name ends (see _NAME_HEADS), where a name ends: before ":" or "=", or
    # at the end of the string.
    _Anchor(
        (
            r"(?i:(?:p(?:ass(?:word|wd|phrase|wort|e|ord|code)?|wd?|hrase|air[-_]?id)"
            rf"|{'|'.join(_PASSWORD_WORDS)}"
            r"|s(?:ess(?:ion)?[-_]?id|ecret(?:[-_]?key[-_]?base)?|ig(?:nature)?)"
            rf"|token|key|auth(?:orization)?|c(?:ookie|red(?:ential)?)|jwt|bearer|psk"
            rf"|mnemonic|wif|[_\-]pat|{_KEY_OF_API})"
            # (which of its kind, after it: DB_PASSWORD_PROD, apiKeyV2, `_NAME_QUALIFIERS`)
            rf"(?:[_.\-]?(?i:{'|'.join(sorted(_NAME_QUALIFIERS))})){{0,2}}{_NAME_END})",
            (*_NAME_ANCHOR_WORDS, "_pat", "-pat"),
        ),
        (_named_in_text, _name_then_value, _quoted_after_name),
        word_gate=True,
    ),
    # a credential's label alone on its line, its value alone on the next, no colon between (a
    # web page's fields copied: "Datadog API Key" over the key; detectors `label_line_value`)
    _Anchor(
        (
            # (the label's last word after another word, or alone on its line: a member's name
            # ending so, svc_password, is the engine's line before the next name; then a value
            # that may be one, as `_told_on_next_line` judges it: a capital and a digit, in
            # either order, or a run of 16 letters and digits, or a UUID's start. A string of a
            # label over a word, "Client secret\nabcdefgh7", calls for no step of Python)
            rf"(?:[A-Za-z][ \t]|\n)(?i:{'|'.join(_LABEL_ENDS)})\r?\n[ \t]*"
            rf"(?:[a-z0-9{_LABEL_SYMBOLS}]{{0,64}}[A-Z][A-Za-z{_LABEL_SYMBOLS}]{{0,64}}[0-9]"
            rf"|[a-z{_LABEL_SYMBOLS}]{{0,64}}[0-9][a-z0-9{_LABEL_SYMBOLS}]{{0,64}}[A-Z]"
            r"|[A-Za-z0-9]{16}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-)",
            tuple(f"{word}{end}" for word in _LABEL_ENDS for end in ("\n", "\r\n")),
        ),
        (_label_line_value,),
    ),
    # an XML element (its closing tag: a literal, found at memchr's speed, where a credential's
    # word before ">" cost a pass of the automaton over every text holding a word such as "key")
    _Anchor(("</", ("</",)), (_xml_element,), word_gate=True),
    # an XML element naming its credential in an attribute: <property name="password" …>
    _Anchor(
        (r"(?i:name|key)=[\"']", ('name="', "name='", 'key="', "key='")),
        (_xml_named_entry,),
        word_gate=True,
    ),
    _Anchor(
        (
            rf"(?i:{_PASSWORD_IN_PROSE})[ \t]+"
            rf"(?:(?i:for|of|to|has|had|{'|'.join(DONE_TO_IT)}"
            rf"|you|we|i|they|he|she|{'|'.join(PARTICIPLES)}|"
            + _WORDS_PAST_ENGLISH
            # (">": an arrow, as the engines read it; a mask after it is no password)
            + rf")[ \t:]|(?:-{{1,2}}>?|>)[ \t]{_NOT_A_MASK}"
            # ("is" and "was", and what was done to it, then the value, which holds a digit,
            # or a character past ASCII the engines read as "?", in its first 128 characters,
            # as every password told so does: "the password is rotated monthly" tells none)
            rf"|{_TOLD_IS_WAS}:?[ \t]*[\"'`]?{_TOLD_CHARACTER}{{0,127}}[0-9?])",
            ("pass", "pw"),
        ),
        (_password_in_prose,),
    ),
    # ... and as other languages tell one: their words for "for" and "is" after English's name
    # (above: "password del database:") or one of theirs as the scan reads them ("Passwort für
    # die DB:", "hasło do bazy:", "Пароль от БД:", "la contraseña es …"), each word as the
    # engines read it (a character past ASCII as "?": "f?r", "??"). Its keywords their names
    # alone: a text holding "pass" is not searched for them (a case-insensitive alternation is
    # tried at every character by `re`, 85 ns each)
    _Anchor(
        (
            rf"(?i:{'|'.join(_PASSWORD_NAMES_PAST_ENGLISH)})[ \t]+(?i:{_WORDS_PAST_ENGLISH})[ \t:]",
            _PASSWORD_NAMES_PAST_ENGLISH,
        ),
        (_password_in_prose,),
    ),
    # a password given with its user, or after "with": "login: admin / …", "creds admin/…",
    # "username admin password …", "sign in with password …"
    _Anchor(
        (r" / |(?i:creds?|credentials)[^\n]{0,48}[/:]", (" / ", "cred")),
        (_user_and_password,),
    ),
    _Anchor(
        (
            r"(?i:with|and|use|using)(?: (?i:the))? (?i:pass(?:word|phrase))"
            r"|(?i:username)[ \t][^\n]{0,80}(?i:pass(?:word|phrase))",
            (
                *("with password", "and password", "with the password", "and the password"),
                *("use password", "using password", "use the password", "using the password"),
                *("with passphrase", "and passphrase", "username"),
            ),
        ),
        (_password_after_with,),
    ),
    # (its words with one space: keywords that common words alone would not let through, "key"
    # or "token" in a text costing a pass of the automaton over it)
    _Anchor(
        (
            rf"(?i:key|token|secret) (?:(?i:{'|'.join(_KEY_TOLD_VERBS)})[ :]"
            # ("is" and "was", and what was done to it, or an ASCII dash, as a note lists one,
            # "API key - …", "token -- …", then a value of 16 characters at least, as every key
            # told so is: "the key is in the vault", "token - see below" tell none; an arrow,
            # and a dash past ASCII, are `_NAME_OP`'s, which reads code's "token -> x" apart)
            rf"|(?:{_TOLD_IS_WAS}|-{{1,2}}[ \t]+):?[ \t]*[\"'`]?{_TOLD_CHARACTER}{{16}})",
            # ("key is" also begins "key issue": the regex, not the keyword, reads what follows;
            # one keyword for "key is " and "key is:", each an `in` test of a small text)
            tuple(
                f"{name} {verb}"
                for name in ("key", "token", "secret")
                for verb in (*_VERBS, *PARTICIPLES, "-")
            ),
        ),
        (_key_in_prose,),
    ),
    # a value told before its name: "use `Qw7…` as the password", "Qw7… is the new password"
    # (detectors `value_before_name`)
    _Anchor(
        (_TOLD_BEFORE_ANCHOR.format(value=r"[^ \t\n\"'`]{6}"), _TOLD_BEFORE_WORDS),
        (_value_before_name,),
        # (RE2, as the detector, takes a value after "is" or "was" only of both cases and a
        # digit: of 10,000 short strings "abcdefg1 is the password", none marked)
        narrow=_TOLD_BEFORE_ANCHOR.format(value=_THREE_CLASSES),
    ),
    # a key's name with no verb, then its value: "the API token 9f3B…" (a run of 20 after it);
    # its keywords the names with what they are for ("the token budget" runs no pass)
    _Anchor(
        (
            rf"(?i:(?:{'|'.join(_KEY_PURPOSES)}) (?:key|token|secret))"
            r"[ \t]+\(?[A-Za-z0-9_\-.~+/=]{20}",
            # (the words as prose writes them, a space apart: api_key and apiKey are code's
            # names, which the name search reads; each keyword costs a small text's scan an
            # `in` test)
            tuple(f"{p} {head}" for p in _KEY_PURPOSES for head in ("key", "token", "secret")),
        ),
        (_key_in_prose,),
    ),
    # ... or as other languages tell one, "is" after its name (shapes
    # `KEY_NAMES_TOLD_PAST_ENGLISH`: "der Token ist …", "le jeton est …", "la clave de API es
    # …"), then a value of 16 characters at least; its keywords the names, and "token" with
    # each "is" (English's "token" alone is in every other text about an API)
    _Anchor(
        (
            rf"(?i:{'|'.join(map(_as_the_engines_read, KEY_NAMES_TOLD_PAST_ENGLISH))})[ \t]+"
            rf"(?i:{'|'.join(map(_as_the_engines_read, KEY_IS_WORDS))})[ \t]*:?[ \t]*[\"'`]?"
            rf"{_TOLD_CHARACTER}{{16}}",
            tuple(
                sorted(
                    {_ascii_of(name) for name in KEY_NAMES_TOLD_PAST_ENGLISH if name != "token"}
                    | {f"token {_ascii_of(verb)}" for verb in KEY_IS_WORDS}
                )
            ),
        ),
        (_key_in_prose,),
    ),
    # ... or what is done with it: "call the API with token 9f3B…", "using the key …"
    _Anchor(
        (
            r"(?i:(?:with|using|use|used|via) (?:the )?(?:key|token|secret))"
            r"[ \t]+[A-Za-z0-9_\-.~+/=]{20}",
            tuple(
                f"{verb} {the}{head}"
                for verb in ("with", "using", "use", "used", "via")
                for the in ("", "the ")
                for head in ("key", "token", "secret")
            ),
        ),
        (_key_in_prose,),
    ),
    # a cookie named in a sentence, its pair after it: "the cookie sessionid=9f3b…"
    _Anchor(
        (r"(?i:cookies?)(?:[ \t]+(?i:is|was))?[ \t]*:?[ \t]+[A-Za-z0-9_.\-]{1,64}=", ("cookie",)),
        (_key_in_prose,),
    ),
    # a header's name without its colon, then its value: "with X-API-Key 9f3b…"
    _Anchor(
        (r"(?i:x-[a-z0-9\-]{0,32}(?:key|token|secret)|api-key)[ \t]", ("x-", "api-key")),
        (_key_in_prose,),
    ),
    # a password on a command line: its flag after a space (or tab) (curl -u, --user,
    # --password, mysql -p..., sshpass -p, docker login -p, redis-cli -a, ldapsearch -w,
    # smbclient -U user%…, az login -p, openssl -passout pass:… and enc -k, keytool -storepass,
    # ssh-keygen -N, zip -P, sqlcmd -P, 7z -p…, gpg --passphrase, snmpwalk -A and -X,
    # --with-token <<< …), or --password starting a string, or the command whose password is
    # an argument
    _Anchor(
        (
            r"[ \t]-(?:-pass(?:word|wd|phrase)?[= \t]|-user[= \t]|[upawUNkPAX]"
            r"|(?:src|dest)?(?:store|key)pass[ \t]|-password-stdin[ \t]*<|-with-token[ \t]*<)",
            (" -", "\t-"),
        ),
        (_command_line_password,),
    ),
    _Anchor((r"\n--pass(?:word|wd|phrase)?[= \t]", ("--pass",)), (_command_line_password,)),
    _Anchor(
        (
            # (net use's flag after a space: a URL's "//user:" is none; FreeRDP's /p:)
            r"(?:htpasswd|rabbitmqctl|nmcli)[ \t]|(?i:[ \t]/user:)|(?i:net)[ \t]+(?i:user)[ \t]"
            r"|[ \t]/p:",
            (
                *("htpasswd", "rabbitmqctl", "nmcli", " /user:", "\t/user:", "net user"),
                *(" /p:", "\t/p:"),
            ),
        ),
        (_command_line_password,),
    ),
    # a network device's configuration: a user's or the enable password, an SNMP community,
    # a server's key, a pre-shared key, a key chain's key
    _Anchor(
        (
            r"username[ \t][^\n]{0,80}(?:password|secret)[ \t]|enable[ \t]+(?:password|secret)"
            r"|snmp-server[ \t]+community[ \t]|-server[ \t][^\n]{0,80}key[ \t]"
            r"|isakmp[ \t]+key[ \t]|key-string[ \t]"
            # (and a mail client's: fetchmail's "user bob password …", msmtp's "password …"
            # opening its line)
            r"|user[ \t][^\n]{0,80}password[ \t]|\n[ \t]*passw(?:or)?d[ \t]",
            (
                *("username", "enable", "snmp-server", "-server", "isakmp", "key-string"),
                *("password ", "password\t", "passwd ", "passwd\t"),
            ),
        ),
        (_device_password,),
    ),
    # a command that stores a secret (Key Vault, Secrets Manager, Parameter Store)
    _Anchor(
        (
            r"(?i:keyvault)[ \t]+secret[ \t]+set|secretsmanager[ \t]|ssm[ \t]+put-parameter",
            ("keyvault", "secretsmanager", "put-parameter"),
        ),
        (_secret_store_command,),
    ),
    # a call taking a user and a password: HTTPBasicAuth("admin", "…"), smtp.login("me", "…"),
    # new mysqli("localhost", "shop", "…")
    _Anchor(
        (
            r"(?i:httpbasicauth|httpdigestauth|basicauth|networkcredential|passwordcredentials"
            r"|passwordauthentication|credentials\.basic|basicawscredentials|login|getconnection"
            r"|directoryentry|mysqli_connect|mysql_p?connect|mysqli|pdo"
            r"|mysqldb\.connect)[ \t]*\(",
            (
                *("httpbasicauth", "httpdigestauth", "basicauth", "networkcredential"),
                *("passwordcredentials", "passwordauthentication", "credentials.basic"),
                *("basicawscredentials", "login", "getconnection", "directoryentry"),
                *("mysqli", "mysql_connect", "mysql_pconnect", "pdo", "mysqldb.connect"),
            ),
        ),
        (_credential_call,),
    ),
    # a long flag named for a key, a token or a secret, then its value after a space
    # (detectors `credential_flag`): the value's first twelve characters a token's
    _Anchor(
        (
            # (a name that ends with its word: "--token-file …", "--auth-type …" mark none)
            r"--[A-Za-z0-9_.\-]{0,64}(?i:key|token|secret|credentials?|pat)"
            r"[ \t]+[\"']?[A-Za-z0-9_/+=.~\-]{12}",
            _CREDENTIAL_FLAG_WORDS,
        ),
        (_credential_flag,),
    ),
    # a command setting a variable (setx, set -x, aws configure set, git config, gh secret set,
    # dotnet user-secrets set, a Dockerfile's ENV, Apache's SetEnv, nginx's fastcgi_param) or
    # Redis's password (requirepass, masterauth) to the next word
    _Anchor(
        (
            r"setx[ \t]|set[ \t]+-|configure[ \t]+set[ \t]|config[ \t]|secrets?[ \t]+set[ \t]"
            r"|requirepass[ \t]|masterauth[ \t]|ENV[ \t]|SetEnv[ \t]|_param[ \t]"
            # (a tool given its credential: ngrok's config is "config" above)
            r"|(?:cargo[ \t]+login|nuget(?:\.exe)?|vsce|ovsx|twine|wpa_passphrase|authtoken"
            r"|importprivkey)[ \t]",
            (
                *("setx", "set ", "set\t", "config", "requirepass", "masterauth", "ENV"),
                *("SetEnv", "_param", "cargo", "nuget", "vsce", "ovsx", "twine", "wpa_passphrase"),
                *("authtoken", "importprivkey"),
            ),
        ),
        (_command_variable,),
    ),
    # ... and as a sentence tells it: "Set DB_PASSWORD to …", "changed `API_KEY` to …"
    _Anchor(
        (
            r"(?i:set|changed|updated|rotated|reset)[ \t]+(?:(?i:the)[ \t]+)?`?"
            rf"[A-Za-z_][A-Za-z0-9_.\-]{{0,127}}`?{SET_TO_WHOSE}[ \t]+(?i:to)[ \t]",
            ("set ", "set\t", "changed ", "updated ", "rotated ", "reset "),
        ),
        (_set_name_to,),
    ),
    # an Expect script's answer to a password's prompt
    _Anchor((r"expect[ \t][^\n]{0,256}(?i:passw|passph|assword)", ("expect",)), (_expect_send,)),
    # a literal piped to what reads a password (or a token) from its standard input
    _Anchor(
        (
            r"--password-stdin|--with-token|(?i:sudo)[ \t]",
            ("--password-stdin", "--with-token", "sudo"),
        ),
        (_stdin_password,),
    ),
    # a password a statement sets (SQL's IDENTIFIED BY and PASSWORD '…', PowerShell's
    # ConvertTo-SecureString), and a .pgpass line
    _Anchor(
        (
            r"(?i:identified) |(?i:password)(?: |=| = )['\"]|(?i:convertto-securestring)",
            _STATEMENT_WORDS,
        ),
        (_password_statement,),
    ),
    _Anchor((r":(?:5432|5433|6432|\*):", (":5432:", ":5433:", ":6432:", ":*:")), (_pgpass_line,)),
    # Go's MySQL driver's data source name: user:password@tcp(host:3306)/db
    _Anchor((r"@(?:tcp6?|unix|udp)\(", ("@tcp", "@unix", "@udp")), (_driver_dsn,)),
    # user:password@host:port with no scheme (a port after the host: an e-mail address has none)
    _Anchor((r"@[A-Za-z0-9][A-Za-z0-9.\-]{0,252}:[0-9]{2,5}", ("@",)), (_schemeless_userinfo,)),
    # Oracle's user/password@database: JDBC's URL, SQL*Plus's and the tools' command line,
    # SQL*Plus's CONNECT
    _Anchor(
        (
            rf"jdbc:oracle:(?:thin|oci8?):|(?:{'|'.join(ORACLE_TOOLS)})[ \t]"
            r"|(?i:conn(?:ect)?)[ \t]",
            ("jdbc:oracle:", *ORACLE_TOOLS, "conn"),
        ),
        (_oracle_connect,),
    ),
    # a setter's or a builder's literal argument: setPassword("…"), withApiKey("…"), .token("…")
    _Anchor(
        (
            r"(?i:pass(?:word|wd)?|pwd|secret|token|key|credentials?)\(\\?[\"']",
            _SETTER_WORDS,
        ),
        (_setter_argument,),
    ),
    # values a structure names: SQL's INSERT INTO t (…, password) VALUES (…), Terraform's
    # variable "db_password" { default = … }, HTML's <input type="password" value=…>, a CSV
    # header's column (name,password)
    _Anchor((r"(?i:insert)[ \t]+(?i:into)[ \t]", ("insert",)), (_sql_insert,)),
    _Anchor((r"variable[ \t]+\"", ("variable",)), (_terraform_variable,)),
    _Anchor((r"(?i:<input)[ \t\r\n]", ("<input",)), (_html_input,)),
    # a YAML mapping named for a credential, its value one level down (CloudFormation's
    # Default:, a parameters file's value:)
    _Anchor(
        (
            rf"\n[ \t]+(?:{'|'.join(_WRAPPED_VALUES)}):",
            ("default:", "value:"),
        ),
        (_yaml_wrapped_value,),
    ),
    # a JSON text holding a name/value pair's value or a value wrapped in its own object
    _Anchor(
        (
            r'"(?i:(?:parameter|default)?value|default)"',
            ('"value"', '"parametervalue"', '"defaultvalue"', '"default"'),
        ),
        (_json_structures,),
    ),
    # (a line that starts with a name, a comma and another name: the newline a literal the
    # automaton skips to; a member name alone, "Key_1" and the newline after it, sends
    # nothing. Its keyword the comma: a pattern with none is searched in every text, a call
    # more for each of the thousands of short texts a page shows, 1 µs each)
    _Anchor(
        (
            r'\n[ \t]*"?[A-Za-z_][A-Za-z0-9_.\-]{0,127}"?[,;\t][ \t]*"?[A-Za-z_]',
            (",", ";", "\t"),
        ),
        (_csv_column,),
    ),
    # a line of a credential's name, a tab or two spaces or more, and its value (a listing of
    # names and values: Vault's table, a tab-separated export): the name ending in its word
    # (db_password, API_KEY, client_secret; the tab or the two spaces its keyword); and a
    # tab-separated row's name in any column (its own anchor: a pattern starting at a newline
    # is found at memchr's speed, one starting at a newline or a tab at the automaton's, 0.56
    # ms for 400 KB of an environment file's entries, against 0.10)
    _Anchor((rf"\n[ \t]*{_LISTED_NAME}(?:\t| {{2}})", ("\t", "  ")), (_listed_value,)),
    _Anchor((rf"\t{_LISTED_NAME}\t", ("\t",)), (_listed_value,)),
    # ... and one space after a name with a dot or an underscore (db.password Qw7…, Java's
    # properties; the part before the first, bounded apart: no two repetitions overlap)
    _Anchor(
        (
            # (one word after it to the line's end, a string's in the text of all: a note's
            # "svc_password -> ****" sends nothing)
            rf"\n[ \t]*[A-Za-z0-9\-]{{1,63}}[._]{_LISTED_NAME} [^ \t\r\n]{{4,256}}[ \t]*\r?\n",
            _PROPERTY_NAME_KEYWORDS,
        ),
        (_listed_value,),
    ),
    # a Markdown table's cell holding a credential's name (a row's first, or a column's header):
    # the next cell no mask (| svc_password | ******** |, a note's table of redacted settings);
    # a header's line may end after it
    _Anchor(
        (
            r"(?i:pass|pw|secret|token|key|auth|cred)[A-Za-z0-9_.\-]{0,64}[`*]{0,2}[ \t]*\|"
            rf"[ \t]*(?:[^* \t]|{_BOLD_OPENING})",
            ("|",),
        ),
        (_table_cells,),
    ),
)
_DETECTORS: list[Detector] = list(dict.fromkeys(d for a in _ANCHORS for d in a.detectors))
_BIT = {d: 1 << i for i, d in enumerate(_DETECTORS)}
_BY_BIT = {bit: d for d, bit in _BIT.items()}


def _bits(detectors: Iterable[Detector]) -> int:
    """The bits of ``detectors``, together."""
    return reduce(operator.or_, map(_BIT.__getitem__, detectors))


_ANCHOR_BITS = [_bits(a.detectors) for a in _ANCHORS]
_NAMED_BIT = _BIT[_named_in_text]
# what the name anchor calls for: each reads a value after a credential's name, past an
# operator, "name:" or a quote after a space
_NAME_DETECTOR_BITS = _BIT[_named_in_text] | _BIT[_name_then_value] | _BIT[_quoted_after_name]
_NAME_ONLY = _NAME_DETECTOR_BITS  # (a string only the name's anchor marked: `_hits` sorts them)
# one of which each of them finds in a text before it reads on (an operator, `_OPERATOR_CHARACTERS`;
# "name:"; a quote after a space; an arrow), or a CSV's row (`_CSV_ROW_NAME`)
_NAMED_VALUE_MARKS = (":", "=", "<-", '"', "'", *_POINTERS)
_NAMED_VALUE_MARK = _lazy(f"[:=\"'{ARROWS}{DASHES}]|<-|->")
# A line that opens with a credential's name, a comma and a value, as a CSV's row pairs them: a
# comma with no space after it, where prose's and lists' commas have one
# (a line's start searched for as its line break, a literal `re` skips to at C speed: "^|\n"
# tested each character, 9 ms for 400 KB; the text's first line is matched at its start)
_CSV_ROW = _lazy(rf"[ \t]*+(?P<name>[A-Za-z0-9_.\-]{{1,128}}+),[\"']?{_CSV_VALUE}")
_CSV_ROW_AFTER_BREAK = _lazy("\n" + _CSV_ROW.pattern)
_CSV_ROW_NAME = _lazy(
    r"\n[ \t]*+[A-Za-z0-9_.\-]{0,64}?"
    rf"(?i:{_NAME_HEAD_ANCHOR.pattern})[A-Za-z0-9_.\-]*+,[\"']?{_CSV_VALUE}"
)
# ... the same for RE2, which has no look-ahead: the value holding a capital and a digit, in
# either order, or a run of 16
_CSV_ROW_RE2 = (
    rf"\n[ \t]*{_NAME_RE2},[\"']?[^\s,\"'`]*?"
    r"(?:[A-Z][^\s,\"'`]*?[0-9]|[0-9][^\s,\"'`]*?[A-Z]|[A-Za-z0-9]{16})"
)


def _named_before_a_mark(text: str) -> bool:
    """Whether a credential's name may stand before one of `_NAMED_VALUE_MARKS` in ``text``,
    or open a CSV's row: each of the name's detectors reads a value only after both (a
    reference that names one after its scheme, "env:SVC_TOKEN", "file:/etc/svc/token", holds
    no value)."""
    # (one search in C says whether any mark is there: most strings a flood of names holds
    # have none, and finding each mark's last place is a dozen calls)
    last = (
        -1 if _NAMED_VALUE_MARK.search(text) is None else max(map(text.rfind, _NAMED_VALUE_MARKS))
    )
    if last > 0:
        if len(text) < _FOLDED_KEPT_FROM:
            if _holds_name_word(text[:last]):
                return True
        else:
            low = _folded(text)  # (a long text in lower case once, for the detectors after)
            if any(low.find(word, 0, last) >= 0 for word in _NAME_HEAD_WORDS):
                return True
    if "," not in text:
        return False
    # (a row of any name found first, the name's words then looked for in it: a search for the
    # words at each line's start cost a short text 10 µs)
    if len(text) >= RE2_RUNS_FROM:
        # (a long text in one pass of RE2, where `re` tried each line's start: 5 ms for 400 KB)
        from app.secrets.engine import re2_searcher

        search = re2_searcher(_CSV_ROW_RE2, ("\n" + text).encode("ascii", "replace"))
        if search is not None:
            return search(0) >= 0
    row = _CSV_ROW.match(text)  # (a string's one line first)
    if row is None and "\n" in text:
        row = _CSV_ROW_AFTER_BREAK.search(text)
    if row is None:
        return False
    return _holds_name_word(row.group("name")) or _CSV_ROW_NAME.search(text, row.end()) is not None


# what "@" calls for: a scheme and its colon before it (https:user:pass@host)
_SCHEME_USERINFO_BIT = _BIT[_special_userinfo]
# what a CSV's header calls for: its rows, on the lines after it
_CSV_COLUMN_BIT = _BIT[_csv_column]
# The decoder of a text's transport, an e-mail's quoted-printable: what it decodes is the text
# as written before it, read by every other decoder (`decoded_exclusion`); a text so encoded
# is read by no other decoder as written (`_decodings`): its escapes would be read as what
# they spell ("password=3DNone" as "3DNone")
_QP_BIT = _BIT[_quoted_printable]
_CSV_QUOTED_BIT = _BIT[_csv_quoted]
# Detectors that decode a text's own escapes (JSON's, HTML's, a terminal's, a CSV cell's
# doubled quotes): what they decode
# is a text whose lines may be read again (`decoded_exclusion`)
_TEXT_ESCAPES = (_json_escaped, _html_escaped, _terminal_escaped, _csv_quoted)
_TEXT_ESCAPE_BITS = _bits(_TEXT_ESCAPES)
# Detectors that read a text's lines without what opens or joins them, the forms whose marks say
# most surely what the text is first (a list of lines, numbered lines, a diff's hunk, a log's
# times) and those a text holds by chance last (a line opening with ">", "#" or a tab)
_LINE_DECODERS = (
    *(_listed_lines, _numbered_lines, _diff_marked, _log_prefixed, _html_lines),
    *(_comment_marked, _quote_marked, _tab_indented),
)
_LINE_BITS = _bits(_LINE_DECODERS)
# Detectors that decode and scan again: never run on what they decoded (decode once), but
# for the lines' (`_LINE_BITS`) on what a text's escapes' decoder decoded (the numbered lines
# of a file an agent read, in the JSON of its tool's result: two readings at most).
_DECODING_BITS = (
    _bits((_percent_encoded, _base64_wrapped, _pointer_escaped))
    | _QP_BIT
    | _TEXT_ESCAPE_BITS
    | _LINE_BITS
)
# Decoders that read a text whole (each a scan of it again), where the others read its runs
# of an encoding or the windows around its escapes: a text is read by two at most, and what
# one of them decoded by one more at most (`_decodings`), the escapes first (what they decode
# is read for its lines), then the lines' in their order. A text holding every form each
# reads (an escape of each kind, a line of each kind) was read 56 times: 1.3 s for 680 KB.
_WHOLE_TEXT_ORDER = (_QP_BIT, *map(_BIT.__getitem__, (*_TEXT_ESCAPES, *_LINE_DECODERS)))
_WHOLE_TEXT_BITS = _QP_BIT | _TEXT_ESCAPE_BITS | _LINE_BITS
_WHOLE_READINGS = 2


def _decodings(text: str, needs: int, decoded: bool = False) -> int:
    """The decoders of ``needs`` that read ``text``: those of its runs and windows, and the
    first `_WHOLE_READINGS` of those that read it whole (one in a text ``decoded`` already), in
    `_WHOLE_TEXT_ORDER`; quoted-printable's alone in a text so encoded (its anchor also finds a
    long line's "=" at a string's end, which the scan's line break between strings follows).
    A CSV cell's decoder counts only where the text holds such a cell: its anchor, a doubled
    quote, stands in code's and JSON's empty strings, where it would take a line decoder's
    place and decode nothing."""
    bits = needs & _DECODING_BITS
    if bits & (_QP_BIT | _CSV_QUOTED_BIT):
        from app.secrets import detectors

        if bits & _QP_BIT:
            reading = detectors.quoted_printable_reading(text)
            if reading == detectors.QP_SURELY:
                return _QP_BIT  # (read as it decodes, by every other decoder there)
            if reading == detectors.QP_NOT:
                bits &= ~_QP_BIT
        if bits & _CSV_QUOTED_BIT and not detectors.holds_a_quoted_cell(text):
            bits &= ~_CSV_QUOTED_BIT
    whole = bits & _WHOLE_TEXT_BITS
    if not whole:
        return bits
    left = 1 if decoded else _WHOLE_READINGS
    for bit in _WHOLE_TEXT_ORDER:
        if whole & bit:
            if left:
                left -= 1
            else:
                bits &= ~bit
    return bits


# What a decoded text is not read for, by whether a text's own escapes decoded it: every
# decoder, but the lines' in what those decoded; a run's (percent-encoding, base64, a pointer's
# escapes) holds no text's lines to read again (and a text of every escape was read for its
# lines once more by each of them)
DECODED_BY = {True: _DECODING_BITS & ~_LINE_BITS, False: _DECODING_BITS}


def decoded_exclusion(bit: int) -> int:
    """The detectors a text decoded by the decoder ``bit`` is not read by."""
    return _DECODED_EXCLUSION[bit]


# (each decoder's, looked up: `_scan_decoded` maps it over thousands of decoded texts)
_DECODED_EXCLUSION = {
    bit: _QP_BIT if bit == _QP_BIT else DECODED_BY[bool(bit & _TEXT_ESCAPE_BITS)]
    for bit in _BY_BIT
    if bit & _DECODING_BITS
}


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _folded(text: str) -> str:
    """Lower-cased text with the same length, so offsets found in it hold in `text`. (The last
    long text's is kept: the detectors a long text is sent to whole each read it in lower case,
    1.2 ms for 400 KB past ASCII each time.)"""
    kept = _FOLDED_KEPT[0]
    if kept[0] is text:
        return kept[1]
    low = text.lower()
    if len(low) != len(text):
        low = text.translate(_ASCII_LOWER)
    if len(text) >= _FOLDED_KEPT_FROM:
        _FOLDED_KEPT[0] = (text, low)  # (one assignment: a thread reads the pair whole)
    return low


_FOLDED_KEPT = [("", "")]
_FOLDED_KEPT_FROM = 4096  # characters


# The letters past ASCII that `re` matches as ASCII's in a case-insensitive pattern ("İ", "ı",
# "ſ", and the Kelvin sign, its documentation says): RE2 reads each as that letter where it finds
# where such a pattern may start, and finds every place `re` would match.
_FOLDED_AS_ASCII = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))


def _as_folded(low: str) -> str:
    """``low`` (a text in lower case) with each letter `re` folds to an ASCII one as that
    letter: what a pattern in lower case reads where its form in any case would match."""
    if not low.isascii():
        for letter, ascii_letter in _FOLDED_AS_ASCII:
            if letter in low:
                low = low.replace(letter, ascii_letter)
    return low


_ENGINE: list[Engine] = []


def _engine() -> Engine:
    """The rules' and the anchors' patterns, in one engine (built on first use: an import of
    this module compiles nothing)."""
    if not _ENGINE:
        _ENGINE.append(Engine([*RULES, *_ANCHORS]))
    return _ENGINE[0]


def _spans(text: str, bits: int, most: int | None = None) -> list[Span]:
    """The spans of the detectors ``bits`` names (at most ``most`` from each), unmerged."""
    spans: list[Span] = []
    low: str | None = None
    raw: bytes | None = None
    while bits:
        bit = bits & -bits  # lowest set bit: visit only the detectors asked for
        detector = _BY_BIT[bit]
        reach = _REACH.get(detector) if len(text) > _WINDOWED_TEXT else None
        if reach is None:
            spans.extend(islice(detector(text), most))
        else:
            if low is None:
                low = _folded(text)
                raw = low.encode("ascii", "replace")  # (as the engines read it: offsets kept)
            assert raw is not None
            spans.extend(islice(_windowed(detector, text, low, raw, *reach), most))
        bits ^= bit
    return spans


# A long text is read by the detectors below only around their words (the text folded to lower
# case): each of those detectors' matches holds one of its words, and starts at most `before`
# characters before it and ends at most `after` characters after it. Python's `re` scans a text
# at some 25 ns a character for a regex with no literal to start on: these four would each cost
# 10 ms on 400 KB of text holding their word once. A window of text is cut out of it: a match
# near its edge cannot differ from the whole text's, as every match lies `_MARGIN` inside.
# (A value after a run of more spaces or tabs than the reach allows is then missed.)
_WINDOWED_TEXT = 1 << 14
_MARGIN = 64
_REACH: dict[Detector, tuple[tuple[str, ...], int, int]] = {
    # a private key's body without its armour: its start 16 characters before its word at
    # most, and a 16384-bit RSA key's base64, wrapped, after it
    _unarmoured_key: (tuple([word.lower() for word, _ in DER_KEY_WORDS]), 16, 16_800),
    # https:user:pass@host: the scheme, up to 16 slashes and an authority of 1,024
    _special_userinfo: (("@",), 1100, 1100),
    # machine HOST login USER password PASSWORD: read 1,024 characters past the keyword
    _netrc: (("machine", "default"), 16, 1100),
    # the command, 256 characters, the flag, a value of 256 (quoted); or the command, 256
    # characters, a user of 128 and a value of 256 (rabbitmqctl add_user, and htpasswd -b,
    # whose flags are words too)
    # --api-key …: the flag's name of 64 before its word, of 32 and a value of 256 after it
    _credential_flag: (_CREDENTIAL_FLAG_WORDS, 72, 300),
    _command_line_password: (
        (
            *(" -", "\t-", "--pass", "htpasswd", "rabbitmqctl", " /user:", "\t/user:"),
            *("net user", " /p:", "\t/p:", "nmcli"),
        ),
        320,
        320,
    ),
    # az keyvault secret set …: the command, up to 512 characters of its arguments, a value of
    # 256 (quoted)
    _secret_store_command: (("keyvault", "secretsmanager", "put-parameter"), 16, 800),
    # HTTPBasicAuth(…): the call's name around its word (32 characters before it at most), JDBC's
    # URL of 256, a user of 256 and a password of 256 after it
    _credential_call: (
        (
            *("basicauth", "digestauth", "credential", "passwordauthentication", "login"),
            *("connection", "directoryentry", "mysqli", "mysql_", "pdo", "mysqldb"),
        ),
        32,
        860,
    ),
    # "aws configure set": the command 14 characters before its word at most; its name of 128,
    # flags and a value of 256 (quoted) after it
    _command_variable: (
        (
            *("setx", "set", "config", "requirepass", "masterauth", "env", "_param", "cargo"),
            *("nuget", "vsce", "ovsx", "twine", "wpa_passphrase", "authtoken", "importprivkey"),
        ),
        16,
        480,
    ),
    # "set the DB_PASSWORD to …": the verb 16 characters before its word at most, a name of 128
    # and a value of 256 after it
    _set_name_to: (("set", "changed", "updated", "rotated", "reset"), 16, 480),
    # "the password for the admin account is ...": four words, a value of 128
    _password_in_prose: (("pass", "pwd", *_PASSWORD_NAMES_PAST_ENGLISH), 16, 1024),
    # "username admin password …": a user of 64 before "password", a value of 128 after it
    _password_after_with: (("pass",), 96, 256),
    # "the deploy token was ...": its name's first word within 16 characters before "token",
    # four words, a value of 256; "X-API-Key …": its name within 40 characters before "key"
    # (a cookie's name; and a key's in other languages, "api" of "la clé API", "le jeton")
    _key_in_prose: (("key", "token", "secret", "cookie", "jeton", "api", "zugangs"), 48, 1024),
    # "use … as the password": a value of 128 and the verb before it, the phrase of 48 after
    _value_before_name: (("password", "passphrase", "passcode", "key", "token", "secret"), 200, 64),
    # "login: admin / …": a word of signing in and 48 characters, a user of 64 before the
    # slash, a value of 128 and 48 characters and a word of signing in after it
    _user_and_password: ((" / ", "cred"), 160, 256),
    # CREATE ROLE app WITH LOGIN PASSWORD '…': a word and a name of 128 before "password", a
    # value of 256 (quoted) after; IDENTIFIED BY reads 128 characters back for "user"
    # (the words of its anchor: a text holding "password" thousands of times and one such
    # form is read around that form, not around every "password")
    _password_statement: (_STATEMENT_WORDS, 160, 400),
    # echo … | docker login --password-stdin: the echo, a value of 256, 256 characters to the
    # pipe's reader and what it takes (sudo's flags)
    _stdin_password: (("echo", "printf"), 0, 400),
    # expect "…password…" then send "…" within three lines
    _expect_send: (("expect",), 0, 1200),
    # host:5432:database:user:password: a host of 253 before the port, three fields after
    _pgpass_line: ((":5432:", ":5433:", ":6432:", ":*:"), 256, 400),
    # user:password@tcp(: a user of 64 and a password of 128 before its "@"
    _driver_dsn: (("@tcp", "@unix", "@udp"), 200, 16),
    # user:…@host:port: a user of 64 and a password of 128 before its "@", a host of 253 and a
    # port after it
    _schemeless_userinfo: (("@",), 200, 264),
    # jdbc:oracle:thin:, sqlplus, CONNECT: flags of 64, a user of 128 and a password of 128
    _oracle_connect: (("jdbc:oracle:", *ORACLE_TOOLS, "conn"), 0, 400),
    # setPassword("…"): "set" or "with" and a name of 64 before the word and its bracket, a
    # value of 256 after
    _setter_argument: (_SETTER_WORDS, 80, 300),
    # INSERT INTO t (…) VALUES (…), (…): its rows within 16 KB of "insert" (in a long text:
    # the rows of a longer INSERT past them are not read there)
    _sql_insert: (("insert",), 0, 8192),
}


def _windowed(
    detector: Detector,
    text: str,
    low: str,
    raw: bytes,
    words: tuple[str, ...],
    before: int,
    after: int,
) -> Iterator[Span]:
    """``detector``'s spans in ``text``, read only around ``words`` (found in ``low``, or in
    ``raw``, the same as the engines read it)."""
    # Where a word is found, the next search starts some characters on (`after`, or `before`
    # when that is more) and the window takes them (a match around a word within them lies
    # inside it): a text holding the word at every place costs a search per so many characters
    # (a reach of 16 after its word, a search every 17 characters, cost 10 ms on 400 KB). The
    # words are looked for all at once by RE2, where it is installed: a word's `find` reads the
    # whole of a text that lacks it (twenty words, 3 ms for 400 KB past ASCII).
    skip = max(after, before)
    windows: list[tuple[int, int]] = []
    search = _words_searcher(words, raw)
    finds = [search] if search is not None else [partial(low.find, word) for word in words]
    for find in finds:
        pos = find(0)
        while pos >= 0:
            windows.append((max(0, pos - before - _MARGIN), pos + skip + after + _MARGIN))
            pos = find(pos + skip + 1)
    windows.sort()
    for lo, hi in merged_windows(windows):
        for start, end, kind in detector(text[lo:hi]):
            yield start + lo, end + lo, kind


def _words_searcher(words: tuple[str, ...], raw: bytes) -> Callable[[int], int] | None:
    """pos -> where the first of ``words`` (ASCII) stands in ``raw`` at or after pos (-1: none),
    by RE2; None when it is not installed."""
    from app.secrets.engine import re2_searcher

    # (each character but a letter or a digit by its code: RE2 reads it as Python's `re` does)
    escaped = ["".join([c if c.isalnum() else f"\\x{ord(c):02x}" for c in w]) for w in words]
    return re2_searcher("|".join(escaped), raw)


def merged_windows(windows: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``windows`` (in order of their starts) with those that overlap joined."""
    merged: list[tuple[int, int]] = []
    for lo, hi in windows:
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


# A string value with a credential in it is withheld whole (app/redaction.py), so a document
# scan needs few of its spans: their kinds for the message, their texts to withhold where
# they are quoted again. Each rule and each detector gives at most this many per string value:
# a string of 6,000 unterminated PEM headers costs 8 hits, not 6,000 (scan_text, which
# redacts span by span, still finds all).
_SPANS_PER_VALUE = 8


def _as_read(strings: list[str], blank: bool = False, names: bool = False) -> list[str]:
    """``strings`` as the scan reads them: each holding a password's label past ASCII with it
    read as its ASCII name (`_LABELS_PAST_ASCII`, `_PARTICLE_LABELS`; with ``names``, member
    names ending with a CJK label too) and a typographic mark as the ASCII one it stands for
    (`_TYPOGRAPHIC`), and with ``blank`` (a decoded text's reading, its offsets its runs')
    each holding a terminal's escape sequence with them read as spaces of their length; and
    each holding markup around a label or a value as the plain text it stands for
    (`_markup_read`); a character for a character, so the offsets are the strings' own. One C
    pass over all of them tells whether any holds one."""
    joined = "".join(strings)
    if _may_hold_markup(joined):
        strings = _markup_strings(strings)
    if _ASIDE_MARK.search(joined) is not None:
        aside = _ASIDE_MARK.search
        strings = [_aside_read(s) if aside(s) is not None else s for s in strings]
    if not joined.isascii():
        # (the labels read before the marks, some of which they hold: "パスワード\u3000：")
        marks = _present(_LABELS_PAST_ASCII, joined)
        marks += [(mark, _TYPOGRAPHIC[mark]) for mark in _TYPOGRAPHIC if mark in joined]
        if marks:
            strings = [s if s.isascii() else _in_ascii(s, marks) for s in strings]
        particles = [label for label, _ in _present(_PARTICLE_BASES, joined)]
        if particles:
            strings = [
                _particles_read(s) if any(map(s.__contains__, particles)) else s for s in strings
            ]
        if names:  # (member names: each ending with a CJK label read with it as its name)
            endings = [(label, name) for label, name in _CJK_NAME_ENDINGS if label in joined]
            if endings:
                strings = [s if s.isascii() else _name_as_read(s, endings) for s in strings]
    if blank and "\x1b" in joined:
        from app.secrets.detectors import terminal_sequences

        def spaces(sequence: re.Match[str]) -> str:
            return " " * (sequence.end() - sequence.start())

        strings = [terminal_sequences(s).sub(spaces, s) if "\x1b" in s else s for s in strings]
    return strings


# Markup a page or a note sets a label or a value in, read as the plain text it stands for, a
# character for a character: Markdown's strong emphasis around a label (**Password:** …,
# __API key__: …) and HTML's inline tags (<b>Password:</b> …, <strong>API key</strong>: …,
# <code>…</code>) as spaces; a definition list's term and description (<dt>Password</dt>
# <dd>…</dd>) as a label, a colon and its value; a table's rows and cells (<tr><td>DB_PASSWORD
# </td><td>…</td></tr>, its header's <th>) as Markdown's (`table_cells` reads them): a row's
# start a line break, a cell's a "|". (A run of asterisks, a mask, is none: "**" is emphasis
# only beside a letter; a tag with attributes is read so up to a thousand in a text, each a
# step of Python.)
# The tags read, and what their opening and closing tags stand for (each padded with spaces to
# the tag's length): inline ones nothing; a table's row a line break and its end a "|", a cell's
# start a "|"; a term's end a colon. The table's and the definition list's are read with their
# attributes too.
_BLOCK_TAGS = {"tr": ("\n", "|"), "td": ("|", ""), "th": ("|", ""), "dt": ("", ":"), "dd": ("", "")}
_INLINE_TAGS = ("b", "i", "u", "s", "strong", "em", "code", "kbd", "span", "tt", "mark", "samp")
_MARKUP_TAGS = {**dict.fromkeys(_INLINE_TAGS, ("", "")), **_BLOCK_TAGS}
# (a tag's mark: its name in any case, a word's end after it)
_TAG_MARK = rf"</?(?i:{'|'.join(_MARKUP_TAGS)})\b"
# (each branch led by a literal, which `re` skips to at C speed: a class of letters first is tried
# at every letter, 11 ms for 400 KB; a mask's asterisks are none)
# (and a label's closing mark, `_LABEL_CLOSING`)
_MARKUP_MARKS = _lazy(
    _TAG_MARK + r"|(?:\*\*|__)(?:[A-Za-z]|(?<=[A-Za-z0-9:.)`]..))|:[*_`](?![^ \t\r\n])"
)
_PLAIN_TAG = _lazy(r"</?[A-Za-z]{1,6}>")
_LITERAL_MARKUP: dict[str, str] = dict(
    (written, standing)
    for tag, (opening, closing) in _MARKUP_TAGS.items()
    for case in (tag, tag.upper())
    for written, standing in (
        (f"<{case}>", opening.ljust(len(case) + 2)),
        (f"</{case}>", closing.ljust(len(case) + 3)),
    )
)
# a table's or a definition's tag with attributes (<td class="key">, <tr style="…">)
_MARKUP_WITH_ATTRIBUTES = _lazy(
    rf"<(?P<tag>{'|'.join(_BLOCK_TAGS)})[ \t][^<>\n]{{0,256}}+>", re.IGNORECASE
)
_MARKUP_TAGS_PER_TEXT = 1000
# A text this long is searched by RE2 where `re` would try a pattern at every character (or at
# each of a literal's many places): a long text's runs, marks, names (here and in detectors)
RE2_RUNS_FROM = 4096  # characters
# Strong emphasis is a pair of marks around a few words on one line: opening after a space, a
# line's start or an opening mark, before a letter, and closing before a space, a line's end or
# punctuation (a name's own "__", BUNDLE_GEMS__CONTRIBSYS__COM, and a token's, glpat-l-__f5dd…
# or …L6A__; are none). Both marks read as spaces (the template keeps what they hold). The
# mark first, what stands before it looked at from there: `re` skips to a literal at C speed,
# where a look-behind first is tried at every character (15 ms for 400 KB).
_STRONG_EMPHASIS = _lazy(
    r"""(?P<mark>\*\*|__)(?<![^\s(\[|>"']..)(?=[A-Za-z])"""
    r"""(?P<held>(?:(?!(?P=mark))[^\n]){0,63}?[^\s*_])(?P=mark)(?=[\s:.,;)\]|<"']|\Z)"""
)


def _may_hold_markup(text: str) -> bool:
    """Whether ``text`` holds a tag's "<", a pair of asterisks or underscores, or a label's
    closing mark (`_LABEL_CLOSING`): a character first, found at memchr's speed, then the
    pairs only where it stands (a test of two characters reads 2 MB in 0.7 ms; "_" is in most
    documents, and both of its pairs are found in one pass of `re`, which skips to it)."""
    if "<" in text:
        return True
    if "*" in text and ("**" in text or ":*" in text):
        return True
    if "`" in text and ":`" in text:
        return True
    return "_" in text and _UNDERSCORE_PAIR.search(text) is not None


_UNDERSCORE_PAIR = _lazy(r"_(?<=[_:]_)")


def _emphasis_paired(text: str) -> bool:
    """Whether ``text`` holds a pair of asterisks or of underscores, each pair looked for only
    where its character stands (`_may_hold_markup`)."""
    return ("*" in text and "**" in text) or ("_" in text and "__" in text)


def _literal_tags(text: str) -> set[str]:
    """The tags of `_LITERAL_MARKUP` ``text`` holds. A long text is searched for a tag none of
    those found so far (`_new_tag`): a pass over it in all, a step of Python for each distinct
    tag, where listing every tag cost a step of C each (a table of 30,000 tags in 400 KB: 11
    ms)."""
    if len(text) < RE2_RUNS_FROM:
        return set(_PLAIN_TAG.findall(text)) & _LITERAL_MARKUP.keys()
    found: set[str] = set()
    pos = 0
    while (m := _new_tag(frozenset(found)).search(text, pos)) is not None:
        found.add(m.group())
        pos = m.end()
    return found


@lru_cache(maxsize=64)  # (a document's long texts hold a few sets of tags)
def _new_tag(found: frozenset[str]) -> re.Pattern[str]:
    """A tag of `_LITERAL_MARKUP` none of ``found`` (led by its "<", which `re` skips to)."""
    tags = "|".join(re.escape(tag[1:-1]) for tag in _LITERAL_MARKUP)
    if not found:
        return re.compile(f"<(?:{tags})>")
    known = "|".join(re.escape(tag[1:-1]) for tag in found)
    return re.compile(f"<(?!(?:{known})>)(?:{tags})>")


def _markup_read(text: str) -> str:
    """``text`` with its markup read as plain text (`_MARKUP_MARKS`)."""
    if "<" in text:
        if "</t" in text or "</T" in text:
            text = _TABLE_JOINS.sub(_table_join_read, text, _MARKUP_TAGS_PER_TEXT)
        # (the tags it holds found in one pass, each replaced in another: no pass for each of
        # the forty it might hold)
        for written in _literal_tags(text):
            text = text.replace(written, _LITERAL_MARKUP[written])
        if _MARKUP_WITH_ATTRIBUTES.search(text) is not None:
            text = _MARKUP_WITH_ATTRIBUTES.sub(_tag_read, text, _MARKUP_TAGS_PER_TEXT)
    if _emphasis_paired(text):
        text = _emphasis_read(text)
    if _LABEL_CLOSING.search(text) is not None:
        text = _marked_labels_read(text)
    return text


# A label set in emphasis or a code span with its colon inside (*Password:* …, _API key:_ …,
# `DB_PASSWORD:` …): its marks read as spaces, the label and its colon as written. The
# closing mark is found first, a colon before it and a space or the line's end after it, then
# the opening one on its line, before a letter and after no word's character (a space, a
# bracket, a query's "=": a note in a URL), the label between holding no mark of its kind
# (each a step of C; a mark first would be tried at every "_" of a text). The first
# `_MARKUP_TAGS_PER_TEXT` are read.
_LABEL_CLOSING = _lazy(r":[*_`]")  # (led by the colon, which `re` skips to)
_LABEL_REACH = 64
_IN_A_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_*`")


def _marked_labels_read(text: str) -> str:
    chars: list[str] | None = None
    for closing in islice(_LABEL_CLOSING.finditer(text), _MARKUP_TAGS_PER_TEXT):
        at, after = closing.start(), closing.end()
        mark = text[at + 1]
        line = text.rfind("\n", max(0, at - _LABEL_REACH), at) + 1
        opening = text.rfind(mark, max(line, at - _LABEL_REACH), at)
        if (
            (after == len(text) or text[after] in " \t\r\n")
            and opening != -1
            and (opening == 0 or text[opening - 1] not in _IN_A_WORD)
            and text[opening + 1 : opening + 2].isalpha()
        ):
            if chars is None:
                chars = list(text)
            chars[opening] = chars[at + 1] = " "
    return text if chars is None else "".join(chars)


# Where a table's cells and rows meet: a cell's closing tag and the spaces and line breaks before
# the next cell, read as spaces (a table set out a cell to a line reads as a row to a line); a
# row's last cell's closing tag, the row's, and what stands before the next row (spaces and line
# breaks, the tags that group rows: <thead>, <tbody>) with the next row's start when it has no
# attributes, read as one line's end, the next row on the line after it (rows one after another,
# as Markdown's). After a row of header cells (<th>), a separator row, as a Markdown table's
# header has: its columns name what the rows below hold.
_ROW_GAP = r"(?:[ \t\r\n]|</?(?:thead|tbody|tfoot)>)*+"
_TABLE_JOINS = _lazy(
    r"</(t[hd])>(?:(?P<cells>[ \t\r\n]++(?=<t[hd][ \t>]))"
    rf"|{_ROW_GAP}</tr>{_ROW_GAP}(?P<next><tr>[ \t\r\n]*+)?)",
    re.IGNORECASE,
)
# (the cell's end a space, a value's end, then the row's "|")
_ROW_END = " |"
_HEADER_END = " |\n|---|---|"


def _table_join_read(join: re.Match[str]) -> str:
    length = join.end() - join.start()
    if join.group("cells") is not None:
        return " " * length
    if join.group("next") is None:
        return _ROW_END.ljust(length)  # (the table's last row)
    closing = _HEADER_END if join.group(1).lower() == "th" else _ROW_END
    return closing.ljust(length - 1) + "\n"


# (a label's closing mark: `_LABEL_CLOSING`, a space or the end after it; the strings are
# joined a line each)
_LABEL_MARK_RE2 = r":[*_`](?:[ \t\r\n]|$)"
# (a long text's marks found by RE2, which reads each character once: `re` tries a pattern at
# each asterisk of a mask, 7 ms for 400 KB of "********", the look-arounds written here as
# the characters around the mark)
_MARKUP_RE2 = _TAG_MARK + r"|(?:\*\*|__)[A-Za-z]|[A-Za-z0-9:.)`](?:\*\*|__)|" + _LABEL_MARK_RE2
# (what stands around a pair is looked at in Python, RE2 having no look-around)
_EMPHASIS_RE2 = r"\*\*[A-Za-z][^\n*]{0,63}?\*\*|__[A-Za-z][^\n]{0,63}?__"
_BEFORE_EMPHASIS = frozenset(" \t\r\n([|>\"'")
_AFTER_EMPHASIS = frozenset(" \t\r\n:.,;)]|<\"'")


# A few words in brackets between a credential's name and its colon or another operator
# ("Password (temporary): …", "API key (prod): …"), read as spaces: the name stands before its
# colon as a label's does. Each ")" before a colon is a step of Python (code's "if (a):" too):
# the first `_ASIDES_PER_TEXT` of a text are looked at.
_ASIDE_END = _lazy(rf"\)[ \t]*(?::|=(?!=)|->|[{ARROWS}{DASHES}])")
# (what follows an aside's bracket: a colon, an equals sign, an arrow, a dash past ASCII, as
# `_NAME_OP` reads them after a name: "Password (prod) → …", "API key (old) = …")
_ASIDE_MARKS = ("):", ") :", ")=", ") =", ") -", *(f") {c}" for c in ARROWS + DASHES))
# (the marks in one regex, led by the bracket `re` skips to: an `in` test of each of 14 marks
# read the whole of a text lacking it, 6 ms for 400 KB past ASCII)
_ASIDE_MARK = _lazy(r"\)(?:" + "|".join(re.escape(mark[1:]) for mark in _ASIDE_MARKS) + ")")
_ASIDE_REACH = 32
_ASIDES_PER_TEXT = 1000


def _aside_read(text: str) -> str:
    """``text`` with each aside in brackets after a credential's name read as spaces."""
    pieces: list[str] = []
    at = 0
    for end in islice(_ASIDE_END.finditer(text), _ASIDES_PER_TEXT):
        close = end.start()
        start = text.rfind("(", max(at, close - _ASIDE_REACH), close)
        if start <= 0 or "\n" in text[start:close] or text[start - 1] not in " \t":
            continue
        words = text[max(0, start - 64) : start].split()[-2:]  # ("API key": its two words)
        if not words or not _may_name_credential(words[-1]):
            continue
        if _classify_name(words[-1]) is None and _classify_name("_".join(words)) is None:
            continue
        pieces += (text[at:start], " " * (close + 1 - start))
        at = close + 1
    if not pieces:
        return text
    pieces.append(text[at:])
    return "".join(pieces)


def _markup_strings(strings: list[str]) -> list[str]:
    """``strings`` each holding markup `_markup_read` reads read so: the marks searched in all
    of them at once, the search going on past each string found (a document of 20,000 strings
    holding "<" in a variable's name, `<svc-password>`, made no step of Python for each). They
    are joined a line each: no mark spans two of them (joined with nothing between, a string
    ending "********" and the next starting with a letter made a pair's mark, "**s", and
    13,800 such strings were each read for markup they did not hold, 2 µs each)."""
    search = _markup_searcher("\n".join(strings))
    ends: list[int] = []
    pos = 0
    while (at := search(pos)) >= 0:
        if not ends:
            from bisect import bisect_right

            # (where each string's line ends, its newline counted)
            ends = list(map(operator.add, accumulate(map(len, strings)), count(1)))
            strings = list(strings)
        i = bisect_right(ends, at)
        if i >= len(strings):
            break
        strings[i] = _markup_read(strings[i])
        pos = ends[i]
    return strings


def _markup_searcher(text: str) -> Callable[[int], int]:
    """pos -> where the first mark of markup (`_MARKUP_MARKS`) at or after it starts in
    ``text``, or -1: by RE2 in a long text."""
    if len(text) >= RE2_RUNS_FROM:
        from app.secrets.engine import re2_searcher

        # (a text holding no pair of asterisks or underscores holds a tag's mark alone, which
        # RE2 skips to at its "<": the pair's mark, led by the character before it, is read at
        # every character, 0.7 ms for 400 KB; so is a label's closing mark, which `re` skips to
        # at its colon, 0.1 ms)
        if _emphasis_paired(text):
            marks = _MARKUP_RE2
        elif _LABEL_CLOSING.search(text) is not None:
            marks = _TAG_MARK + "|" + _LABEL_MARK_RE2
        else:
            marks = _TAG_MARK
        search = re2_searcher(marks, text.encode("ascii", "replace"))
        if search is not None:
            return search
    find = _MARKUP_MARKS.search

    def by_re(pos: int) -> int:
        m = find(text, pos)
        return -1 if m is None else m.start()

    return by_re


def _emphasis_read(text: str) -> str:
    """``text`` with its strong emphasis's marks as spaces (`_STRONG_EMPHASIS`), the first
    `_MARKUP_TAGS_PER_TEXT`."""
    if len(text) >= RE2_RUNS_FROM:
        from app.secrets.engine import re2_spans

        spans = re2_spans(_EMPHASIS_RE2, text.encode("ascii", "replace"))
        if spans is not None:
            pieces: list[str] = []
            at = 0
            for start, end in islice(spans, _MARKUP_TAGS_PER_TEXT):
                before = text[start - 1] if start else " "
                after = text[end] if end < len(text) else " "
                if before not in _BEFORE_EMPHASIS or after not in _AFTER_EMPHASIS:
                    continue
                if text[end - 3] in " \t*_":
                    continue  # (a pair closes after what it holds, no space before it)
                pieces += (text[at:start], "  ", text[start + 2 : end - 2], "  ")
                at = end
            pieces.append(text[at:])
            return "".join(pieces)
    return _STRONG_EMPHASIS.sub(r"  \g<held>  ", text, _MARKUP_TAGS_PER_TEXT)


def _tag_read(tag: re.Match[str]) -> str:
    opening = _BLOCK_TAGS[tag.group("tag").lower()][0]
    return opening.ljust(tag.end() - tag.start())


# Marks a person or a model writes where a configuration writes ASCII: a space that does not
# break ("password\u00a0= …") and curly double quotes ("password: “…”"); and CJK's punctuation,
# which no credential holds, read as a space that ends a value ("密码：Zq9…，请尽快更换。": the
# password, then the sentence's comma); and the fullwidth colon, CJK text's own, as ASCII's
# ("password：…", "API key：…": before CJK prose as often as before a value, "token：用户登录凭证",
# which is refused as words, `_cjk_words`; 24,099 strings of CJK translations holding a colon,
# none flagged). (A curly single quote is an apostrophe: the keyword rules read it as a
# separator, app/secrets/engine.py `TYPOGRAPHIC_SEPARATORS`; the detectors do not.)
# CJK's quotes (「…」, 『…』) and the guillemets of French, Russian and German (« … », »…«) are
# their languages' double quotes: "パスワード：「Zq9…」", "mot de passe : « Zq9… »".
_QUOTES_PAST_ASCII = "\u300c\u300d\u300e\u300f\u00ab\u00bb"
_CJK_PUNCTUATION = "\u3001\u3002\uff01\uff08\uff09\uff0c\uff1b\uff1f"
_TYPOGRAPHIC = {
    **dict.fromkeys(NO_BREAK_SPACES + _CJK_PUNCTUATION, " "),
    **dict.fromkeys(CURLY_DOUBLE_QUOTES + _QUOTES_PAST_ASCII, '"'),
    "\uff1a": ":",
}


def _labels_past_ascii(
    words: Sequence[tuple[str, str]], phrases: Sequence[tuple[str, str]] = ()
) -> dict[str, list[tuple[str, str]]]:
    """Each of ``words`` ("contraseña", "hasło", "пароль", "密码："), a credential's label past
    ASCII, read as its ASCII name (a character for a character, so the offsets stay the
    text's), in its cases, and each of ``phrases`` as written ("clé d'API"). By the first
    character of each past ASCII, which is looked for first."""
    variants: dict[str, str] = {}
    for label, name in words:
        if label.lower() != label.upper():
            for case in (str.lower, str.capitalize, str.upper):
                variants.setdefault(case(label), case(name))
        else:
            # a script with no cases, CJK's: the label before a colon (the fullwidth one those
            # scripts write, or ASCII's) or an equals sign, a space or not between, and nowhere
            # else, as words run together with no space between them ("パスワードを忘れた", a
            # value read as written)
            for space in ("", " ", "\u3000"):
                for operator_ in ("\uff1a", ":", "=", "\uff1d"):
                    read = ":" if operator_ in "\uff1a:" else "="
                    variants[label + space + operator_] = name + " " * len(space) + read
    variants.update(phrases)
    return _by_character(
        (label, name) for label, name in variants.items() if len(label) == len(name)
    )


_Labels = dict[str, list[tuple[str, str]]]


def _by_character(labels: Iterable[tuple[str, str]]) -> _Labels:
    """``labels`` (each past ASCII, and what it is read as) by the first character of each past
    ASCII, the longer first ("密码：" before "密码")."""
    by_character: _Labels = {}
    for label, name in labels:
        first = next(c for c in label if not c.isascii())
        by_character.setdefault(first, []).append((label, name))
    for pairs in by_character.values():
        pairs.sort(key=lambda pair: -len(pair[0]))
    return by_character


def _present(labels: _Labels, joined: str) -> list[tuple[str, str]]:
    """The ``labels`` that ``joined`` holds, each label's first character looked for first (one
    `in` test of a character costs a tenth of a word's)."""
    return [
        pair
        for character, pairs in labels.items()
        if character in joined
        for pair in pairs
        if pair[0] in joined
    ]


_LABELS_PAST_ASCII = _labels_past_ascii((*PASSWORD_LABELS, *KEY_LABELS), KEY_PHRASES)
# A CJK label before the particle that says what it is ("密码是…", "数据库的密码为：…", "パスワード
# は…です", "비밀번호는 …"), read as its name and "=" (or "_" before a colon), but where it
# follows an operator: there it is a value's words, another label's ("passwd: パスワードは変更
# されませんでした", a translation's message).
_LABEL_PARTICLES = {"密码": "是为為", "密碼": "是為为", "パスワード": "は", "비밀번호": "는"}
_PARTICLE_LABELS = {
    f"{label}{particle}{colon}": name + ("_:" if colon else "=")
    for label, name in PASSWORD_LABELS
    for particle in _LABEL_PARTICLES.get(label, "")
    for colon in ("", "\uff1a", ":")
}
# (each label and its particle, looked for as the labels above are)
_PARTICLE_BASES = _by_character(
    (label, name) for label, name in _PARTICLE_LABELS.items() if label[-1] not in "\uff1a:"
)
# (the look-behinds after each label, not before the alternation: `re` skips to a label's first
# character at C speed, where a look-behind first is tried at every character, 12 ms for 400 KB)
_PARTICLE_LABEL = _lazy(
    "|".join(
        rf"{label}(?<![:=\uff1a\uff1d]{label})(?<![:=\uff1a\uff1d] {label})"
        for label in sorted(map(re.escape, _PARTICLE_LABELS), key=len, reverse=True)
    )
)


def _particles_read(text: str) -> str:
    """``text`` with each CJK label before its particle read as its name (see above)."""
    return _PARTICLE_LABEL.sub(lambda m: _PARTICLE_LABELS[m.group()], text)


# A member's name that ends with a CJK label ("密码", "数据库密码", "パスワード"): the name is the
# label, with no colon after it.
_CJK_NAME_ENDINGS = tuple(
    (label, name)
    for label, name in (*PASSWORD_LABELS, *KEY_LABELS)
    if label.isalpha() and label.lower() == label.upper()
)


def _name_as_read(name: str, endings: list[tuple[str, str]]) -> str:
    for label, ascii in endings:
        if name.endswith(label):
            return name[: -len(label)] + ascii
    return name


def _in_ascii(text: str, marks: list[tuple[str, str]]) -> str:
    for mark, ascii in marks:
        if mark in text:
            text = text.replace(mark, ascii)
    return text


def _scan_value(text: str, bits: int, found: list[Span]) -> tuple[list[Span], bool]:
    """The spans of one string value the document scan records (see _SPANS_PER_VALUE): the
    rules' (``found``), and its detectors' but the decoding ones; and whether one was left to
    the decoders (`_read_as_written`). Those run only when nothing else flagged the string
    (what they would add to a string already withheld is one more kind in its message), or
    one was left to them, on all such strings at once (`_decoded_spans`)."""
    spans, left = _read_as_written(text, bits, found, _SPANS_PER_VALUE)
    return _merge(spans), left


def _read_as_written(
    text: str, bits: int, found: Sequence[Span], most: int | None = None
) -> tuple[list[Span], bool]:
    """The rules' spans (``found``) and the detectors' but the decoding ones, in ``text`` as
    written, and whether any was left out: in a text JSON's decoder reads (``bits`` calls for
    it), those that read one of its escapes (`_reads_an_escape`); in a terminal's output,
    those near one of its escape sequences; and in a diff, those that start on its mark: what
    the escape stands for, the text without the sequences, or the line without its mark, is
    the decoded text's to judge."""
    spans = [*found, *_spans(text, bits & ~_DECODING_BITS, most)]
    read = len(spans)
    if spans and bits & _JSON_BIT:
        spans = [span for span in spans if not _reads_an_escape(text, span[0], span[1])]
    if spans and bits & _TERMINAL_BIT:
        # (a sequence's last letter stood against what follows it, \x1b[32mghp_…, or split a
        # name, public\x1b[1mToken: the text without the sequences judges what stands near one)
        spans = [
            span for span in spans if text.find("\x1b", max(0, span[0] - _NAME_REACH), span[1]) < 0
        ]
    if spans and bits & _QP_BIT:
        # (an escape read as written, "password=3DNone" as "3DNone", or a break in a run: the
        # decoded text judges what holds one, when the text is read decoded)
        from app.secrets.detectors import quoted_printable_text, reads_a_qp_escape

        if quoted_printable_text(text):
            spans = [span for span in spans if not reads_a_qp_escape(text, span[0], span[1])]
    if spans and bits & _DIFF_BIT:
        # (a run that starts on a diff's mark, "+" opening a line past the first hunk's
        # header, took the mark for its own: the decoder reads the line without it)
        from app.secrets.detectors import first_hunk

        first = first_hunk(text)
        if first is not None:
            spans = [span for span in spans if not _on_a_mark(text, span[0], first)]
    return spans, len(spans) < read


def _on_a_mark(text: str, start: int, first: int) -> bool:
    """Whether ``start`` is a diff's mark ("+" or "-" opening a line) past ``first``."""
    return start > first and text[start] in "+-" and text[start - 1] == "\n"


_JSON_BIT = _BIT[_json_escaped]
_DIFF_BIT = _BIT[_diff_marked]
_TERMINAL_BIT = _BIT[_terminal_escaped]
# A name and what stands between it and its value (app/secrets/rules.py `_GLUE`: 64 at most).
_NAME_REACH = 64
# A decoded window reaches this far past an escape (detectors `_POINTER_REACH`), less a margin
_DECODED_REACH = 512 - 64
# An escape a value read as written may run through but the decoded text ends it at: a line
# break (auth: JIRA-812.\nstep read as "JIRA-812.\nstep") or a character by its code
# (\u003Credacted\u003E). (A tab is left: DB_PASSWORD=Kq8\tVt3… may be a password's own.)
_ESCAPE_INSIDE = _lazy(r"(?<!\\)\\(?:[nr]|u[0-9A-Fa-f]{4})")
_CODE_DIGITS = _lazy(r"[0-9A-Fa-f]{4}")
# A name that starts on the letter of an escaped line break or tab (\npublicToken = "…" read
# as "npublicToken"), its operator and an opening quote (escaped or not): what stands between
# the letter and a value its detector read.
_NAME_ON_ESCAPE = _lazy(r"[A-Za-z0-9_.\-]*[ \t]*(?:=>?|:)[ \t]*(?:\\?[\"'`])?")


def _reads_an_escape(text: str, start: int, end: int) -> bool:
    r"""Whether a span read in ``text`` as written took one of JSON's escapes for what it
    is not: it starts on an escape's letter (\nAKIA… with the "n" in the key's run), its name
    does (\npublicToken = … read as "npublicToken"), or it holds a character escaped by its
    code or a line break (password=\u003Credacted\u003E, auth: JIRA-812.\nnext). Such a span
    is left to the decoded text when that holds all of it (its windows reach
    `_DECODED_REACH` past an escape: a longer span is judged as written). Other escapes are
    left as written: a user CORP\tom, a password holding a tab's escape, read as the text
    writes them."""
    if start >= 2 and _on_escape(text, start):
        return True
    inside = _ESCAPE_INSIDE.search(text, start, end)
    if inside is not None:
        return end <= inside.start() + _DECODED_REACH
    at = text.find("\\", max(0, start - _NAME_REACH), start)
    while at >= 0:
        if (
            text[at + 1] in "nrt"
            and _on_escape(text, at + 1)
            and _NAME_ON_ESCAPE.fullmatch(text, at + 1, start) is not None
        ):
            return True
        at = text.find("\\", at + 1, start)
    return False


def _on_escape(text: str, at: int) -> bool:
    """Whether the character at ``at`` is the letter of a JSON escape the decoder reads as a
    line break, a tab, a slash or a character by its code (its backslash not itself
    escaped)."""
    letter = text[at : at + 1]
    if not letter or letter not in "nrt/u" or text[at - 1] != "\\":
        return False
    if letter == "u" and _CODE_DIGITS.fullmatch(text, at + 1, at + 5) is None:
        return False
    return at < 2 or text[at - 2] != "\\"


def _decoded_spans(texts: list[str], bits: list[int]) -> dict[int, list[Span]]:
    """The decoding detectors' spans of each of ``texts`` they flag (``bits``: of those each
    calls for), by its index: each text decoded by them, what all of them decode to scanned
    at once, each hit placed back in its own text (at most `_SPANS_PER_VALUE` a detector, as
    `_spans` keeps). A scan of each decoded text alone cost each string some 5 µs of the
    engine's (7,000 URLs with an escape each: 112 ms of a lint). The texts are read in batches of
    `_DECODED_BATCH` characters: what a batch decodes to is scanned and let go (130,000
    strings' decodings held at once grew a 4 MB lint's memory by 138 MB)."""
    spans: dict[int, list[Span]] = {}
    if not texts:
        return spans
    # (one batch, the rule, is not looked for an end: bisect's import, for a large input only)
    one = sum(map(len, texts)) <= _DECODED_BATCH
    first = 0
    while first < len(texts):
        last = len(texts) if one else _batch_end(texts, first, _DECODED_BATCH)[0]
        _decode_and_scan(texts, bits, range(first, last), spans)
        first = last
    return {k: _merge(found) for k, found in spans.items() if found}


def _decode_and_scan(
    texts: list[str], bits: list[int], batch: range, spans: dict[int, list[Span]]
) -> None:
    """`_decoded_spans` of the texts in ``batch``, added to ``spans``. Each decoder's form for
    many short texts (`detectors.BatchDecoding`) reads the texts it is called for, all at once;
    the texts it cannot read so are decoded one by one. Nothing but a text holding a hit costs
    a step of Python, but the one that sorts the texts out by the decoders they call for (a
    map of each decoder's bit over all of them cost twice as much, five times over)."""
    decoders = _decoders()
    by_bits: defaultdict[int, list[int]] = defaultdict(list)
    for k, needs in zip(batch, bits[batch.start : batch.stop], strict=True):
        by_bits[needs].append(k)
    decoded: list[str] = []
    # the text each of `decoded` was read from by a batch form, and the bit of its decoder,
    # whose own call decodes it again for its hits' places
    read: list[int] = []
    read_by: list[int] = []
    # the texts decoded alone, their decodings, and what each decoding is not read for
    alone: list[tuple[int, Decoding]] = []
    alone_by: list[int] = []
    for bit, (decode, batch_form) in decoders.items():
        groups = [group for needs, group in by_bits.items() if needs & bit]
        if not groups:
            continue
        called = groups[0] if len(groups) == 1 else sorted(chain.from_iterable(groups))
        together = batch_form(list(map(texts.__getitem__, called)))
        # ("" for a text that decodes to nothing to scan; None for one read alone)
        read.extend(compress(called, together))
        read_by.extend(repeat(bit, len(read) - len(read_by)))
        decoded.extend(filter(None, together))
        for k in compress(called, map(operator.is_, together, repeat(None))):
            decoding = decode(texts[k])
            if decoding is not None and decoding[0]:
                alone.append((k, decoding))
                alone_by.extend(repeat(bit, len(decoding[0])))
    read_together = len(decoded)
    for _, (own, _place) in alone:
        decoded.extend(own)
    if not decoded:
        return
    hits = _scan_decoded(decoded, [*read_by, *alone_by])
    for at in compress(range(read_together), hits):
        k = read[at]
        again = decoders[read_by[at]][0](texts[k])
        if again is not None:  # (none: it decoded this text with the others)
            spans.setdefault(k, []).extend(islice(again[1]([hits[at]]), _SPANS_PER_VALUE))
    at = read_together
    for k, (own, place) in alone:
        found = hits[at : at + len(own)]
        at += len(own)
        if any(found):
            spans.setdefault(k, []).extend(islice(place(found), _SPANS_PER_VALUE))


def _scan_decoded(decoded: list[str], by: list[int]) -> list[list[Span]]:
    """`_scan_strings` of texts each decoder ``by`` decoded, each read for what its decoding
    may be (`decoded_exclusion`): all at once, or in a scan for each kind there."""
    exclusions = list(map(_DECODED_EXCLUSION.__getitem__, by))
    kinds = set(exclusions)
    if len(kinds) == 1:
        return _scan_strings(decoded, exclusions[0])
    hits: list[list[Span]] = [[] for _ in decoded]
    for exclusion in kinds:
        picked = [i for i, kind in enumerate(exclusions) if kind == exclusion]
        found = _scan_strings([decoded[i] for i in picked], exclusion)
        for i, spans in zip(picked, found, strict=True):
            hits[i] = spans
    return hits


_DECODED_BATCH = 1 << 16  # characters of the texts decoded, scanned together


_DECODERS: list[dict[int, _Decoder]] = []


def _decoders() -> dict[int, _Decoder]:
    """Each decoding detector's bit -> its decoding of one text and of many short ones
    (app/secrets/detectors.py), imported when a document first has a string to decode."""
    if not _DECODERS:
        from app.secrets import detectors

        _DECODERS.append(
            {
                _BIT[_percent_encoded]: (detectors.percent_decoding, detectors.percent_texts),
                _BIT[_base64_wrapped]: (detectors.base64_decoding, detectors.base64_texts),
                _BIT[_pointer_escaped]: (detectors.pointer_decoding, detectors.pointer_texts),
                _BIT[_html_escaped]: (detectors.html_decoding, detectors.html_texts),
                _BIT[_json_escaped]: (detectors.json_decoding, detectors.json_texts),
                _BIT[_diff_marked]: (detectors.diff_decoding, detectors.decoded_alone),
                _BIT[_terminal_escaped]: (detectors.terminal_decoding, detectors.terminal_texts),
                _BIT[_quoted_printable]: (detectors.qp_decoding, detectors.decoded_alone),
                _BIT[_csv_quoted]: (detectors.csv_quoted_decoding, detectors.decoded_alone),
                _BIT[_quote_marked]: (detectors.quote_decoding, detectors.decoded_alone),
                _BIT[_log_prefixed]: (detectors.log_decoding, detectors.decoded_alone),
                _BIT[_comment_marked]: (detectors.comment_decoding, detectors.decoded_alone),
                _BIT[_html_lines]: (detectors.html_lines_decoding, detectors.decoded_alone),
                _BIT[_listed_lines]: (detectors.listed_lines_decoding, detectors.decoded_alone),
                _BIT[_tab_indented]: (detectors.tab_decoding, detectors.decoded_alone),
                _BIT[_numbered_lines]: (detectors.numbered_decoding, detectors.decoded_alone),
            }
        )
    return _DECODERS[0]


def _scan_strings(strings: Sequence[str], exclude: int = 0) -> list[list[Span]]:
    """`scan_text` of each of ``strings``, every pattern searched in all of them at once."""
    # (a decoded text is not decoded again: a terminal's colours that JSON escaped, \u001b[32m,
    # are read there as spaces of their length, its runs kept)
    strings = _as_read(list(strings), blank=bool(exclude & _TERMINAL_BIT))
    bits, found = _candidates(strings, exclude=exclude)
    spans: list[list[Span]] = [[] for _ in strings]
    for i in bits.keys() | found.keys():
        needs = bits.get(i, 0)
        text = strings[i]
        as_written = _read_as_written(text, needs, found.get(i, ()))[0]
        spans[i] = _merge(as_written + _spans(text, _decodings(text, needs, bool(exclude))))
    return spans


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
    return _scan_strings([text])[0]


def scan_texts(texts: Sequence[str]) -> list[list[Span]]:
    """`scan_text` of each of ``texts``, every pattern searched in all of them at once: a
    report's thousand messages cost one search of each pattern, not a thousand."""
    return _scan_strings(list(texts))


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
                elif t is int:  # (before the containers' test: an object of 17,000
                    append("")  # numbers cost 2.7 ms with two isinstance calls each, 1.1 now)
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
        self._bisect: Callable[[list[int], int], int] | None = None
        self._pointers: dict[int, tuple[str, tuple[int, ...], tuple[str, ...]]] = {0: ("", (), ())}
        self._child_index: dict[int, dict[int, tuple[object, int]]] = {}

    def locate(self, i: int) -> tuple[int, object, int]:
        """String value `i` -> (container, token, ordinal in the container)."""
        if self._bisect is None:
            # bisect is a shared library to load (see _candidates): a document's first hit
            # loads it, a document with none never does
            from bisect import bisect_right

            self._bisect = bisect_right
        c = self._bisect(self.seg_start, i) - 1
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
            # The parent's is kept too: the hits of a long array's items (a statement's text,
            # each) are then a token apart. No further ancestor is kept: on a very deep document
            # a pointer for each one would grow with the square of the depth, where the parent's
            # and the container's are two for each place that hits, each its length.
            parent = self.parents[c]
            above = self._pointers.get(parent)
            if above is None:
                above = self._pointers[parent] = self._walk_up(parent)
            token, ordinal = self._token_in_parent(parent, c)
            text = str(token)
            cached = (above[0] + "/" + escape_token(text), (*above[1], ordinal), (*above[2], text))
            self._pointers[c] = cached
        return cached

    def _walk_up(self, c: int) -> tuple[str, tuple[int, ...], tuple[str, ...]]:
        """`pointer` of `c`, from its ancestors' tokens (none of theirs is kept)."""
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
        return pointer, tuple(reversed(order)), tuple(tokens)

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


class _TextOrderLayout(_Layout):
    """A `_Layout` whose string values (`values`, no "" for other values) come in the order
    the text holds them, the order `_source_strings` reads them in: what places a hit found
    in strings read from the text.

    A depth-first walk, with an explicit stack (no recursion limit): container k is the k-th
    to open, and its values are read in order. It costs half as much again as the
    breadth-first walk, which the scan of a walked document keeps.
    """

    def __init__(self, document: dict[object, object] | list[object]) -> None:
        conts: list[object] = [document]
        parents = [-1]
        values: list[str] = []
        owners: list[int] = []  # the container of each string value
        ordinals: list[int] = []  # and its place in it
        names: set[object] = set()
        top: Iterable[object]
        if isinstance(document, dict):
            names.update(document)
            top = document.values()
        else:
            top = document
        stack = [(0, enumerate(top))]
        while stack:
            c, items = stack[-1]
            for ordinal, v in items:
                t = v.__class__
                if t is str:  # (mypy cannot narrow on a class identity test)
                    values.append(v)  # type: ignore[arg-type]
                    owners.append(c)
                    ordinals.append(ordinal)
                elif t is int:
                    continue  # (as in `_Layout`)
                elif t is dict or t is list or isinstance(v, CONTAINERS):
                    child = len(conts)
                    conts.append(v)
                    parents.append(c)
                    inner: Iterable[object]
                    if isinstance(v, dict):
                        names.update(v)
                        inner = v.values()
                    else:
                        inner = v  # type: ignore[assignment]  # a list: see the test above
                    stack.append((child, enumerate(inner)))
                    break  # into the child; this container's items go on after it
                elif isinstance(v, str):  # a str subclass such as a StrEnum
                    values.append(str.__str__(v))
                    owners.append(c)
                    ordinals.append(ordinal)
            else:
                stack.pop()
        self.conts = conts
        self.parents = parents
        self.values = values
        self.owners = owners
        self.ordinals = ordinals
        self.names = names
        self._keys = {}
        self._pointers = {0: ("", (), ())}
        self._child_index = {}

    def locate(self, i: int) -> tuple[int, object, int]:
        """String value `i` -> (container, token, ordinal in the container)."""
        c = self.owners[i]
        ordinal = self.ordinals[i]
        obj = self.conts[c]
        if isinstance(obj, dict):
            keys = self._keys.get(c)
            if keys is None:  # listed once: many hits in one object must not walk it each time
                keys = self._keys[c] = list(obj)
            return c, keys[ordinal], ordinal
        return c, ordinal, ordinal


_RE_UP_TO = 256
_C_BISECT_FROM = 1 << 14


def _bisect_right(a: list[int], x: int) -> int:
    """bisect.bisect_right, in Python."""
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _candidates(
    strings: Sequence[str], *, exclude: int = 0, most: int | None = None
) -> tuple[dict[int, int], dict[int, list[Span]]]:
    """What each string needs: (index -> the bits of the detectors its anchors call for, index
    -> the spans of the rules' matches in it), for the strings that hold either.

    The strings are searched as one text, each between newlines (a newline after a string
    lets a name's anchor see where a member name ends), by the engine: only the patterns whose
    keywords the text holds, each once over the whole text. No pattern matches a newline but
    as an anchor's last character (or first, "\n--pass"), so none reaches from one string
    into the next. ``exclude``: detectors not to call for; ``most``: a rule's matches kept in
    one string (the document scan's `_SPANS_PER_VALUE`), past which its search skips to the
    string's end."""
    engine = _engine()
    text = "\n" + "\n".join(strings) + "\n"
    # bisect is a shared library to load (some 0.3 ms of a small file's lint, issue 28): a
    # small text's few matches are placed by a binary search in Python
    if len(text) < _C_BISECT_FROM:
        bisect_right = _bisect_right
    else:
        from bisect import bisect_right
    # Where each string ends (its "\n"), listed when a first match is to be placed: a text
    # whose matches all fail their checks (most of a benign document's) never lists them.
    listed: list[int] = []

    def ends() -> list[int]:
        if not listed:
            listed.extend(map(operator.add, accumulate(map(len, strings)), count(1)))
        return listed

    # and where each starts, listed when a first anchor's marks come thick (`_mark_each`)
    starts: list[int] = []

    def begins() -> list[int]:
        if not starts:
            starts.extend(map(operator.sub, ends(), map(len, strings)))
        return starts

    hay = Hay(text)
    re2 = engine.uses_re2(hay)
    # A short text's patterns are run by `re` even once RE2 is loaded: the binding's call costs
    # about 3 microseconds, `re`'s a tenth of that, and on a text this short `re` reads no more
    # than RE2 does (a finding's path tokens, read one by one when a scan stopped early).
    short = len(text) <= _RE_UP_TO
    present = engine.present(hay, re2, fits=short)
    re2 = re2 and not short
    bits: dict[int, int] = {}
    found: dict[int, list[Span]] = {}
    rules = len(RULES)
    for index in present:
        pos = 0
        if index < rules:
            check, kind = RULES[index].check, RULES[index].kind
            kept: dict[int, int] = {}
            search = engine.searcher(index, hay, re2)
            refused_in, refused, refusals = -1, 0, 0  # the string of the last refusal, its
            # count there, and the rule's in all (each string's counted past a thousand in all)
            while (m := search(pos)) is not None:
                pos = m[1]
                span = check(text, m[0], m[1])
                if span is None:
                    # a thousand refused in one string, and the rest of it is not read for
                    # the rule (400 KB of "Bearer a " cost 52 ms of checks, for none; a
                    # credential after as many decoys of its own format is missed)
                    refusals += 1
                    if refusals <= _MANY_REFUSED:
                        continue
                    at = ends()
                    i = bisect_right(at, m[0])
                    refused = refused + 1 if i == refused_in else 1
                    refused_in = i
                    if refused > _MANY_REFUSED and i < len(at):
                        pos = max(pos, at[i])
                    continue
                at = ends()
                i = bisect_right(at, span[0])
                start = at[i] - len(strings[i])
                found.setdefault(i, []).append((span[0] - start, span[1] - start, kind))
                if most is not None:
                    kept[i] = kept.get(i, 0) + 1
                    if kept[i] >= most:
                        pos = max(pos, at[i])
            continue
        anchor = _ANCHORS[index - rules]
        bit = _ANCHOR_BITS[index - rules] & ~exclude
        if not bit:
            continue
        if anchor.word_gate and not re2:
            places = engine.positions(index, hay)
            at = ends() if places else []
            for place in places:
                i = bisect_right(at, place)
                if i < len(strings):
                    bits[i] = bits.get(i, 0) | bit
            continue
        # One hit tells all this anchor can about a string: the search goes on from the
        # string's end, so a string holding the anchor 30,000 times costs one step.
        narrow = anchor.narrow if re2 else None
        search = engine.searcher(index, hay, re2, narrow)
        refused, most_refused = 0, len(text) // _NARROW_REFUSAL_SPACING
        # (where an anchor that starts with a literal marks string after string, `re` takes over
        # from RE2: both find the same, and `re` skips to the literal at C speed for a third of
        # the binding's call, 0.8 µs, which 40,000 short strings with an escape each paid)
        marked, dense, each = 0, bool(anchor.lead), bool(anchor.each)
        while (m := search(pos)) is not None:
            # the anchor is the whole run: a single-case one (a digest, a path) is passed over,
            # the next one looked at, as is a shorter one RE2's narrow form finds
            if anchor.mixed_case and not _base64_run(text[m[0] : m[1]]):
                pos = m[1]
                if narrow is not None:
                    refused += 1
                    if refused > most_refused:
                        narrow = None  # short mixed runs come thick here: the plain run
                        search = engine.searcher(index, hay, re2)
                continue
            at = ends()
            i = bisect_right(at, m[0])
            if i == len(strings):
                break
            bits[i] = bits.get(i, 0) | bit
            pos = at[i]
            if dense or each:
                marked += 1
                if marked == _MARKS_SEEN and each and i < _MARKS_SEEN * _STRINGS_A_MARK:
                    # one string in a few marked: each string left is searched alone, all in
                    # loops of C, where each mark cost a step of Python (10,000 short strings
                    # with an escape each, marked by five anchors)
                    _mark_each(
                        anchor.searches(),
                        anchor.lead,
                        strings,
                        hay.ascii,
                        begins(),
                        at,
                        i + 1,
                        bits,
                        bit,
                    )
                    break
                if dense and marked == _DENSE_MARKS:
                    dense = False
                    if re2 and pos < _DENSE_MARKS * _DENSE_SPACING:
                        search = engine.searcher(index, hay, False)
    return bits, found


# An anchor that starts with a literal and has marked this many strings, within this many
# characters of text each on average, is searched by `re` from then on (`_candidates`).
_DENSE_MARKS = 256
_DENSE_SPACING = 256
# ... and one that never matches a newline, once it has marked this many strings within this
# many strings each, searches each string left alone: some 0.15 µs a string, where a mark
# costs 1 µs (the strings of a benign document hardly ever come so thick with one)
_MARKS_SEEN = 32
_STRINGS_A_MARK = 8


def _mark_each(
    searches: list[Callable[[str, int, int], object]],
    lead: str,
    strings: Sequence[str],
    text: str,
    starts: list[int],
    ends: list[int],
    first: int,
    bits: dict[int, int],
    bit: int,
) -> None:
    """Mark with ``bit`` each of ``strings`` from the ``first`` on that holds a match of every
    one of ``searches`` (compiled patterns', that never match a newline; each reads only the
    strings the one before kept), each searched in place in ``text``, where the strings stand
    a line each from ``starts`` to ``ends``. ``lead``: the character every match of them
    starts with, if any (an ASCII one: a string and its place in ``text`` hold it alike),
    looked for first (a test that makes no `re.Match`, a third of a search's cost)."""
    kept: list[int] | range = range(first, len(ends))
    if lead:
        kept = list(compress(kept, map(operator.contains, strings[first:], repeat(lead))))
    for search in searches:
        places = map(starts.__getitem__, kept), map(ends.__getitem__, kept)
        kept = list(compress(kept, list(map(search, repeat(text), *places))))
    marks = map(operator.or_, map(bits.get, kept, repeat(0)), repeat(bit))
    bits.update(zip(kept, marks, strict=True))


Record = Callable[[int, tuple[object, ...], tuple[int, ...], Span, bool, str], None]


def find_secrets(document: object) -> list[SecretHit]:
    """Every apparent credential in a parsed checkpoint (any JSON value), in document order."""
    return scan_document(document).hits


def scan_document(
    document: object, limit: int | None = None, *, source: str | None = None
) -> SecretScan:
    """The apparent credentials of a parsed checkpoint, in document order; with ``limit``,
    the scan stops once it has found more than ``limit`` flagged places (the first found,
    not the first in document order).

    A report lists 1,000 findings of a code: past that many, a document is a dump of
    credentials, not a checkpoint that holds one by accident, and finding, placing and
    withholding every one of 10,000 would cost several times what a benign document of its
    size costs. What stops early says so (`complete`), and what shows the document then
    withholds all of it (app/redaction.py). ``source``: the text intake read whole into
    ``document`` (`app.parse.Intake.verbatim`; see `_hits`)."""
    found: list[tuple[_SortKey, SecretHit]] = []
    places: set[str] = set()
    complete = True
    for entry in _hits(document, source, limit):
        found.append(entry)
        if limit is not None:
            places.add(entry[1].path)
            if len(places) > limit:
                complete = False
                break
    found.sort(key=lambda entry: entry[0])
    return SecretScan([hit for _, hit in found], complete)


def first_secret(document: object, *, source: str | None = None) -> SecretHit | None:
    """An apparent credential in `document` (the first one found, not necessarily the first in
    document order), or None when it holds none.

    For a caller that refuses a document as soon as one credential is certain (the share
    route): the scan stops at the first hit, so a document with a key near its start is
    refused without reading the rest. ``source``: as `scan_document`'s.
    """
    for _, hit in _hits(document, source):
        return hit
    return None


_SortKey = tuple[tuple[int, ...], int, int]
# String values are scanned in batches: the patterns are looked for in one batch at a time, and
# every match of a batch is checked before any is recorded, so a scan that stops (first_secret
# at its first hit, scan_document past its limit of places) stops after the batch that got it
# there. The first batch is small and each doubles, up to the largest: a document of 5,000
# tokens is stopped after 1,000 checked, and a large benign one costs a handful of passes more.
_FIRST_BATCH_CHARS = 1 << 14
_SMALLEST_BATCH_CHARS = 1 << 10
_BATCH_CHARS = 1 << 18


def _batches(
    strings: list[str], limit: int | None = None, flagged: Callable[[], int] | None = None
) -> Iterator[tuple[int, int]]:
    """The batches' (first string, past the last). With ``limit``, the places the scan stops
    past, and ``flagged``, how many it has flagged so far: a batch is made no larger than the
    places left need at the rate found so far, and a sixteenth more (the whole of a batch is
    checked before any of it is recorded: a document of 5,000 tokens checked 1,220 of them to
    record 1,001)."""
    size = _FIRST_BATCH_CHARS
    start = read = 0
    while start < len(strings):
        found = flagged() if flagged is not None else 0
        if found and limit is not None:
            need = (limit + 1 - found) * read // found
            size = max(min(size, need + need // 16), _SMALLEST_BATCH_CHARS)
        stop, characters = _batch_end(strings, start, size)
        yield start, stop
        read += characters
        start = stop
        size = min(2 * size, _BATCH_CHARS)


_CHUNK = 256  # strings whose lengths are summed at once, looking for a batch's end


def _batch_end(strings: list[str], start: int, size: int) -> tuple[int, int]:
    """The end of the batch from ``start``: past the string whose characters bring it to
    ``size`` (or the last one), and the batch's characters. The lengths are summed a chunk at
    a time, in C, and added up one by one only in the chunk that gets there: no running total
    of every string's end."""
    from bisect import bisect_left

    total = 0
    for low in range(start, len(strings), _CHUNK):
        chunk = strings[low : low + _CHUNK]
        reached = total + sum(map(len, chunk))
        if reached >= size:
            running = list(accumulate(map(len, chunk), initial=total))[1:]
            at = bisect_left(running, size)
            return low + at + 1, running[at]
        total = reached
    return len(strings), total


def _source_strings(text: str) -> tuple[list[str], set[str]] | None:
    """The string values of the document intake's fast path read whole from ``text``, in
    document order, and its member names; None when the text cannot be read so.

    Read from the text in a few passes of C, never a step of Python for each string or each
    container: a document of many small containers (a call's arguments nested 60 deep) costs
    what its bytes cost, not what its walk would. Split at its quotes, the text alternates
    between what is outside strings and their contents, once the escaped backslashes and
    quotes are set aside (as two control characters, which a text the decoder read holds
    nowhere: it refuses them raw inside a string, and outside one only whitespace may stand).
    A string is a member's name when what follows it starts with a colon. The contents are
    decoded by the standard library's decoder, all in one array (as intake's decoder made
    them)."""
    if "\x00" in text or "\x01" in text:
        return None
    escaped = "\\" in text
    marked = text.replace("\\\\", "\x00").replace('\\"', "\x01") if escaped else text
    pieces = marked.split('"')
    if not len(pieces) % 2:
        return None  # an odd number of quotes: no JSON text
    strings: list[str] = pieces[1::2]
    if escaped:
        import json  # (loaded already: intake decoded the text with it)

        body = '","'.join(strings).replace("\x00", "\\\\").replace("\x01", '\\"')
        strings = json.loads('["' + body + '"]')
    after = pieces[2::2]  # what follows each string
    # (whitespace before a colon, legal and rare, is looked for once: a quote, then it)
    if _SPACED_COLON.search(marked) is not None:
        after = list(map(str.lstrip, after))
    named = list(map(str.startswith, after, repeat(":")))
    return list(compress(strings, map(operator.not_, named))), set(compress(strings, named))


_SPACED_COLON = _lazy(r'"[ \t\r\n]+:')


def _walk_costs_more(text: str) -> bool:
    """Whether walking the document read from ``text`` would cost more than reading its
    strings from the text (`_source_strings`): a step of Python for each container and each
    value, against a few C passes that cost about twice a value's step for each string. Most
    checkpoints hold several strings for each container (a benign one about seven), and the
    walk is the cheaper; a document of many small containers (arguments nested to the depth
    limit: more containers than strings) is read from the text. Estimated from the text's
    first `_SAMPLE` characters, brackets and quotes within strings counted too: an estimate
    is all a choice between two linear paths needs (a document whose start misleads it costs
    what the other path costs), and counting all of a large text would cost a tenth of its
    walk."""
    containers = text.count("{", 0, _SAMPLE) + text.count("[", 0, _SAMPLE)
    return 2 * containers > text.count('"', 0, _SAMPLE) // 2


_SAMPLE = 1 << 15


# The shortest string value the scan can flag: a credential's name, an operator and a value
# of four ("pw=…" is no name; "auth=", "token:" and "passwd=" are, and a password's value is
# four characters at least, a token's eight); every format, URI, key file and command line
# takes more. A shorter value is not searched (member names are, apart).
_SHORTEST_FLAGGED = 7
_SAMPLED = 256


def _mostly_short(values: list[str]) -> bool:
    """Whether most of `_SAMPLED` values spread over the list (the list's own order puts a
    document's ids and statuses first) are strings too short to be flagged."""
    sample = values[:: len(values) // _SAMPLED + 1]
    short: int = sum(map(operator.gt, repeat(_SHORTEST_FLAGGED), map(len, sample)))
    return 2 * (short - sample.count("")) > len(sample)  # ("": a value that is no string)


def _hits(
    document: object, source: str | None = None, limit: int | None = None
) -> Iterator[tuple[_SortKey, SecretHit]]:
    """Every hit with its place in document order, values first, then member names.
    ``source``: the text intake's fast path read whole into ``document`` (`Intake.verbatim`),
    whose strings are then read from it (`_source_strings`) and the document walked only to
    place a hit. ``limit``: as `scan_document`'s, which sizes the batches (`_batches`)."""
    if isinstance(document, str):
        for s, e, k in scan_text(document):
            yield ((), 1, s), SecretHit("", k, s, e, False, (), document)
        return
    if not isinstance(document, CONTAINERS):
        return
    read = None if source is None or not _walk_costs_more(source) else _source_strings(source)
    walked: list[_Layout] = []

    def walk() -> _Layout:
        if not walked:
            walked.append(_Layout(document) if read is None else _TextOrderLayout(document))
        return walked[0]

    values: list[str]  # (a walk's holds "" for each value that is no string)
    distinct_names: set[object] | set[str]
    if read is None:
        values, distinct_names = walk().flat, walk().names
    else:
        values, distinct_names = read
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
            ptr, corder, ctokens = walk().pointer(c)
            tokens = tuple(map(str, tail))
            path = ptr + "".join(["/" + escape_token(t) for t in tokens])
            place = places[(c, tail)] = (path, ctokens + tokens, (*corder, *order))
        path, tokens, ordinals = place
        hit = SecretHit(path, span[2], span[0], span[1], in_key, tokens, text)
        # document order: by place (a member before anything inside its value), then a member's
        # name before its value, then by position in the string
        pending.append(((ordinals, 0 if in_key else 1, span[0]), hit))

    # Only the non-empty values are searched (selected at C speed), and in a document mostly
    # of values too short to hold a credential (45,000 references "m123" on one line) only
    # those long enough: their bookkeeping would cost it several times its scan. (Selecting by
    # length costs a benign document more than it saves: a quarter of its values are short
    # ids and statuses. A sample of its values says which document this is.)
    searched: list[object] = values  # type: ignore[assignment]  # (truthy: non-empty)
    if _mostly_short(values):
        searched = list(map(operator.le, repeat(_SHORTEST_FLAGGED), map(len, values)))
    # (as the scan reads them, `_as_read`; a hit records the string as written, whose offsets
    # are the same: what a redaction withholds elsewhere is the credential as written)
    written = list(compress(values, searched))
    strings = _as_read(written)
    # where each of them is among the values: listed when a first hit is to be placed (a
    # document whose strings hold none never lists them)
    indices: list[int] = []

    def value_index(i: int) -> int:
        if not indices:
            indices.extend(compress(count(), searched))
        return indices[i]

    names = list(distinct_names)
    texts = _as_read([n if isinstance(n, str) else str(n) for n in names], names=True)
    # A document of one small batch has its member names searched with its values, in one
    # text: one search of each keyword and pattern, not two (start-up, issue 28).
    # (each value searched holds a character at least: past as many strings, none is summed;
    # a member name may be empty, and then searching the names apart finds the same)
    together = len(strings) + len(texts) <= _FIRST_BATCH_CHARS and (
        sum(map(len, strings)) + sum(map(len, texts)) <= _FIRST_BATCH_CHARS
    )
    named_items: list[int] = []  # the strings that may name the next item of their array
    undecoded: list[int] = []  # the strings only decoding detectors may flag,
    undecoded_bits: list[int] = []  # and the bits of those each calls for
    held: dict[int, list[Span]] = {}  # the spans of those that hold others too

    def values_in(found: set[int]) -> list[int]:
        """The strings of a batch in ``found``, in order, but the member names searched with
        the values (`together`: theirs are read apart, below)."""
        ordered = sorted(found)
        return [i for i in ordered if i < len(strings)] if together else ordered

    batches = _batches(strings, limit, places.__len__)
    for first, last in [(0, len(strings))] if together else batches:
        batch = strings[first:last]
        bits, found = _candidates(batch + texts if together else batch, most=_SPANS_PER_VALUE)
        # The strings only decoders are called for, and no rule matched, go to them with no
        # step of Python each (10,000 short strings with an escape each: 5 ms of steps).
        # (a batch's strings call for a few distinct sets of detectors: each set is tested once)
        called_for = set(bits.values())
        decoders_only = {needs for needs in called_for if not needs & ~_DECODING_BITS}
        only_decoded = set(compress(bits, map(decoders_only.__contains__, bits.values())))
        only_decoded.difference_update(found)
        if only_decoded:
            ordered = values_in(only_decoded)
            undecoded.extend(map(operator.add, ordered, repeat(first)))
            undecoded_bits.extend(map(bits.__getitem__, ordered))
        # The strings only the name's anchor marked, no rule matched (a flag or a name alone,
        # "--db-password", "api_key"; a variable, "${DB_PASSWORD}"), sorted out with no step of
        # Python each: a name alone may name the next item of its array, and only a string
        # whose name stands before a mark goes on to the name's detectors (10,000 flags and
        # names in a call's arguments: 7 ms of steps).
        named = (
            set(compress(bits, map(_NAME_ONLY.__eq__, bits.values())))
            if _NAME_ONLY in called_for
            else set()
        )
        named.difference_update(found, only_decoded)
        if named:
            ordered = values_in(named)
            named_texts = list(map(batch.__getitem__, ordered))
            names_alone = list(map(_ITEM_NAME.fullmatch, named_texts))  # (`_name_alone`'s)
            named_items.extend(compress(map(operator.add, ordered, repeat(first)), names_alone))
            # (those not alone, whose name stands before a mark, are read as any other)
            not_alone = list(map(operator.not_, names_alone))
            named.difference_update(
                compress(
                    compress(ordered, not_alone),
                    map(_named_before_a_mark, compress(named_texts, not_alone)),
                )
            )
        # (none left, the rule where strings come thick: no sets of them all made to know it)
        left = found or len(bits) > len(only_decoded) + len(named)
        for i in sorted((bits.keys() | found.keys()) - only_decoded - named) if left else ():
            if i >= len(batch):
                break  # (the member names searched with the values, after them)
            text = batch[i]
            needs = bits.get(i, 0)
            if needs & _NAMED_BIT:
                alone = _name_alone(text)
                if alone:
                    # a flag or a name alone: its value may be the next item of an array
                    named_items.append(first + i)
                if alone or not _named_before_a_mark(text):
                    # what the name's detectors each look for first, none of it here: a name
                    # alone, a variable ("${DB_PASSWORD}"), holds no value after it (an array of
                    # 30,000 such strings cost 4 µs each, called for)
                    needs &= ~_NAME_DETECTOR_BITS
            if needs & _SCHEME_USERINFO_BIT and ":" not in text:
                needs &= ~_SCHEME_USERINFO_BIT  # (an e-mail address: no scheme before its "@")
            if needs & _CSV_COLUMN_BIT and "\n" not in text:
                needs &= ~_CSV_COLUMN_BIT  # (a header with no row after it: a string of a line)
            if not needs and i not in found:
                continue
            # (a string only a decoder is called for, the rule where escapes come thick, goes
            # straight to them)
            spans, left = (
                _scan_value(text, needs, found.get(i, []))
                if needs & ~_DECODING_BITS or (i in found)
                else ([], False)
            )
            if (left or not spans) and needs & _DECODING_BITS:
                # (what was left to the decoders is found with what the string holds else:
                # its spans are recorded with theirs)
                undecoded.append(first + i)
                undecoded_bits.append(_decodings(text, needs))
                if spans:
                    held[first + i] = spans
            elif spans:
                c, token, ordinal = walk().locate(value_index(first + i))
                for span in spans:
                    record(c, (token,), (ordinal,), span, False, written[first + i])
                yield from pending
                pending.clear()
    # the strings only a decoding detector may flag, decoded, and scanned all at once
    decoded = _decoded_spans(list(map(strings.__getitem__, undecoded)), undecoded_bits)
    merged = [
        (undecoded[at], _merge(held.pop(undecoded[at], []) + spans))
        for at, spans in decoded.items()
    ]
    for item, spans in [*merged, *held.items()]:
        c, token, ordinal = walk().locate(value_index(item))
        for span in spans:
            record(c, (token,), (ordinal,), span, False, written[item])
    yield from pending
    pending.clear()

    refused = 0
    named_items.sort()  # (each batch's, sorted out apart and in its loop: in document order)
    for item in named_items:
        if not _listed_pair(walk(), record, value_index(item), strings[item]):
            # (past a thousand names with no credential after them, the rest are not read:
            # each is a step of Python)
            refused += 1
            if refused > _MANY_REFUSED:
                break
    yield from pending
    pending.clear()

    # Member names: scan each distinct name once, then find where the few that matter occur.
    name_spans: dict[object, list[Span]] = {}
    credential_names: dict[object, str] = {}
    if together:  # found with the values, after them
        shift = len(strings)
        bits = {i - shift: b for i, b in bits.items() if i >= shift}
        found = {i - shift: f for i, f in found.items() if i >= shift}
    else:
        bits, found = _candidates(texts, most=_SPANS_PER_VALUE)
    undecoded.clear()
    undecoded_bits.clear()
    for i in bits.keys() | found.keys():
        needs = bits.get(i, 0)
        spans, left = _scan_value(texts[i], needs, found.get(i, []))
        if (left or not spans) and needs & _DECODING_BITS:
            undecoded.append(i)
            undecoded_bits.append(_decodings(texts[i], needs))
        if spans:
            name_spans[names[i]] = spans
        if needs & _NAMED_BIT:
            cls = _classify_name(texts[i])
            if cls is not None:
                credential_names[names[i]] = cls
    decoded = _decoded_spans(list(map(texts.__getitem__, undecoded)), undecoded_bits)
    for at, spans in decoded.items():
        name = names[undecoded[at]]
        name_spans[name] = _merge(name_spans.get(name, []) + spans)
    # a bare "key" in an object a service names ({"datadog": {"key": "…"}}): as datadog_key
    service_keys = not _BARE_KEYS.isdisjoint(distinct_names) and _names_a_service(distinct_names)
    # a member a service names alone ({"datadog": "…"}): its value as the document's text
    # reads it, '"datadog": "…"', where gitleaks' rules read a service's name beside its key
    flagged = _service_flagged(distinct_names, document, source)
    if (
        name_spans
        or credential_names
        or service_keys
        or flagged
        or not _PAIRED_VALUES.isdisjoint(distinct_names)
        or "kty" in distinct_names
    ):
        recorded = places.__contains__
        _scan_members(walk(), record, name_spans, credential_names, service_keys, flagged, recorded)
    yield from pending


_BARE_KEYS = frozenset({"key", "Key", "KEY"})


def _service_key_class(service: str) -> str | None:
    """The class of a bare "key" that ``service``'s object, mapping or section holds
    ({"datadog": {"key": …}}, "[datadog]" then "key = …"): "datadog_key"'s, when it names a
    service (`_services`); None for a "sort" object's key."""
    return _classify_name(f"{service}_key") if service.lower() in _services() else None


def _names_a_service(names: Iterable[object]) -> bool:
    """Whether one of a document's member names is a service's (`_services`: "datadog")."""
    services = _services()
    return any(isinstance(name, str) and name.lower() in services for name in names)


def _service_flagged(
    names: Iterable[object], document: object, source: str | None
) -> dict[str, dict[str, str]]:
    """The service each member name of a document names alone ("datadog", "Okta": a keyword
    of the rules that read a service's name beside its key), in lower case -> what those rules
    flag in the document's text (the text intake read, or the document written as JSON), and
    its kind: the values to look for under such a member. One search of each such rule over
    the text, no step of Python for each member: a document of 20,000 {"okta": "…"} objects
    holding no key costs a search, and only a text holding a flagged value has its members
    looked at."""
    by_service = _service_rules()
    services = {name.lower() for name in names if isinstance(name, str)}.intersection(by_service)
    if not services:
        return {}
    if source is None:
        import json  # (loaded already: intake decoded the document with it)

        try:
            source = json.dumps(document, ensure_ascii=False)
        except (TypeError, ValueError):  # (no JSON value: nothing a text would show)
            return {}
    engine = _engine()
    hay = Hay(source)
    re2 = engine.uses_re2(hay)
    if re2:
        engine.present(hay, re2)  # (the keywords its searchers choose their parts by)
    flagged: dict[str, dict[str, str]] = {}
    for service in sorted(services):
        for index in by_service[service]:
            rule, refused, pos = RULES[index], 0, 0
            search = engine.searcher(index, hay, re2)
            while (m := search(pos)) is not None:
                pos = m[1]
                span = rule.check(source, m[0], m[1])
                if span is not None:
                    found = source[span[0] : span[1]]
                    flagged.setdefault(service, {}).setdefault(found, rule.kind)
                else:
                    refused += 1
                    if refused > _SERVICE_REFUSALS:
                        break  # (a text of decoys of its format: the rest is not read)
    return flagged


# What the rules of a service named alone refuse in a document's text before the rest of it is
# not read for them: a check is a step of Python (5 µs), and a text's decoys of a key's format
# under a service's name, refused, come by the hundred only in a hostile one (bench/worst.py
# `service-members`: 1,420 objects of four such members, 27 ms of checks for a thousand each)
_SERVICE_REFUSALS = 100


@lru_cache(maxsize=1)
def _service_rules() -> dict[str, list[int]]:
    """A service's name (in lower case, one of `_services`) -> the rules that read it beside a
    key (their keyword). Not a word such a rule reads that names no service alone: "account"
    (Azure's storage account's), "token", "pat", "bootstrap", "unseal" (Vault's), which a
    checkpoint's members hold for other things."""
    services = _services() - _NOT_SERVICE_ALONE
    by_service: dict[str, list[int]] = {}
    for index, rule in enumerate(RULES):
        if rule.scope != IN_RUNS:
            for keyword in rule.keywords:
                if keyword in services:
                    by_service.setdefault(keyword, []).append(index)
    return by_service


_NOT_SERVICE_ALONE = frozenset(("account", "token", "pat", "bootstrap", "unseal"))


def _scan_members(
    layout: _Layout,
    record: Record,
    name_spans: dict[object, list[Span]],
    credential_names: dict[object, str],
    service_keys: bool = False,
    flagged: dict[str, dict[str, str]] | None = None,
    recorded: Callable[[tuple[int, tuple[object, ...]]], bool] | None = None,
) -> None:
    """Record the credentials member names say their values are, and the names' own.
    ``flagged``: what the text of the document shows flagged after a service's name alone
    (`_service_flagged`), recorded in a string member of that name that holds it, unless
    ``recorded`` says its place is already (a Stripe key's, flagged on its own)."""
    wanted = list(dict.fromkeys([*name_spans, *credential_names]))
    paired = [member for member in _PAIRED_VALUES if member in layout.names]
    jwk = "kty" in layout.names
    # (the names as written of the services flagged: an object holding none is passed over in C)
    named_services = (
        frozenset([n for n in layout.names if isinstance(n, str) and n.lower() in flagged])
        if flagged
        else frozenset()
    )
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
        for member in paired:
            if member in obj:
                _name_value_pair(record, c, obj, member)
        if service_keys and c and not _BARE_KEYS.isdisjoint(obj):
            _service_key(layout, record, c, obj)
        if jwk and isinstance(obj.get("kty"), str):
            _jwk_members(record, c, obj)
        if flagged and not named_services.isdisjoint(obj):
            _service_members(record, recorded, c, obj, flagged)


def _service_members(
    record: Record,
    recorded: Callable[[tuple[int, tuple[object, ...]]], bool] | None,
    c: int,
    obj: dict[object, object],
    flagged: dict[str, dict[str, str]],
) -> None:
    """Record each string member of object ``c`` that a service names alone and that holds
    what the document's text shows flagged after that service's name."""
    for ordinal, (name, value) in enumerate(obj.items()):
        if not isinstance(name, str) or not isinstance(value, str):
            continue
        values = flagged.get(name.lower())
        if not values or (recorded is not None and recorded((c, (name,)))):
            continue
        for found, kind in values.items():
            at = value.find(found)
            if at != -1:
                record(c, (name,), (ordinal,), (at, at + len(found), kind), False, value)
                break


def _service_key(layout: _Layout, record: Record, c: int, obj: dict[object, object]) -> None:
    """Record the value of object ``c``'s bare "key" when the member holding the object is a
    service's name ({"datadog": {"key": "…"}}, as a configuration nests each service's
    settings), judged as "datadog_key"'s would be; a "sort" object's key is none."""
    token = layout._token_in_parent(layout.parents[c], c)[0]
    cls = _service_key_class(token) if isinstance(token, str) else None
    if cls is None:
        return
    for ordinal, name in enumerate(obj):
        if name in _BARE_KEYS:
            _named_member(record, c, name, ordinal, cls, obj[name])


def _jwk_members(record: Record, c: int, key: dict[object, object]) -> None:
    """Record the private members of ``key``, object ``c``, a JSON Web Key."""
    kty = key["kty"]
    assert isinstance(kty, str)
    for member in _JWK_PRIVATE.get(kty, ()):
        value = key.get(member)
        if _jwk_private_member(kty, member, value):
            assert isinstance(value, str)
            ordinal = list(key).index(member)
            record(c, (member,), (ordinal,), _whole(value, PRIVATE_KEY), False, value)


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


def _member_credential(cls: str, value: str, *, prose: bool = False) -> str | None:
    """The kind of credential a member (or a name/value pair) named for ``cls`` holds: a
    password may be a passphrase. ``prose``: judged as prose judges a value."""
    kind = _credential_value(cls, value, prose=prose)
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
                # (judged as prose judges a value: a list under a credential's plural name
                # often lists what may be done to them, a key vault's "secrets": ["Get",
                # "List", "Delete"])
                kind = _member_credential(cls, item, prose=True)
                if kind is not None:
                    record(c, (name, j), (ordinal, j), _whole(item, kind), False, item)
    elif isinstance(value, dict):
        for member, inner, kind in _wrapped_values(cls, value):
            j = list(value).index(member)
            record(c, (name, member), (ordinal, j), _whole(inner, kind), False, inner)


def _wrapped_values(cls: str, wrapper: dict[object, object]) -> Iterator[tuple[str, str, str]]:
    """(member, value, kind) of each credential a member named for ``cls`` holds wrapped in an
    object of its own: an ARM template's parameters file ("adminPassword": {"value": "…"}), a
    parameter's default (ARM's defaultValue, CloudFormation's Default, a Terraform variable's
    default in JSON)."""
    for member in _WRAPPED_VALUES:
        inner = wrapper.get(member)
        if isinstance(inner, str):
            kind = _member_credential(cls, inner)
            if kind is not None:
                yield member, inner, kind


def _name_value_pair(record: Record, c: int, obj: dict[object, object], member: str) -> None:
    kind = _pair_kind(obj, member)
    if kind is not None:
        value = obj[member]
        assert isinstance(value, str)  # (a pair's kind is a string value's)
        ordinal = list(obj).index(member)
        record(c, (member,), (ordinal,), _whole(value, kind), False, value)


def _pair_kind(obj: dict[object, object], member: str) -> str | None:
    """The kind of credential ``obj[member]`` holds as a name/value pair's value: {"name":
    "DB_PASSWORD", "value": "..."} (HAR headers, Kubernetes env, form fields); AWS's {"Name":
    "/prod/db/password", "Value": "…"} (Parameter Store, whose names are paths: the last part
    names it) and {"OptionName": …, "Value": …} (Elastic Beanstalk), CloudFormation's
    {"ParameterKey": …, "ParameterValue": …}, a password manager's field ({"label":
    "password", "value": "…"}, 1Password's), and Azure's keys as `az … keys list` prints
    them ({"keyName": "key1", "value": "…"}: whatever the key's name, a key of a key's shape)."""
    value = obj[member]
    if not isinstance(value, str):
        return None
    for field in _NAME_MEMBERS:
        name = obj.get(field)
        if isinstance(name, str) and len(name) <= 128:
            cls = _classify_name(_last_part(name) if " " not in name else name)
            if cls is None and field in _KEY_NAME_MEMBERS:
                cls = _C_SHAPED_KEY
            if cls is not None:
                return _member_credential(cls, value)
    return None


def _last_part(name: str) -> str:
    """The last part of a name that is a path ("/prod/db/password": "password"), as AWS's
    Parameter Store names its parameters; the name itself when it is none."""
    return name.rstrip("/").rpartition("/")[2]


# the members that hold a pair's value, and those that name it
_PAIRED_VALUES = frozenset({"value", "Value", "ParameterValue"})
# A JSON Web Key's private members by its type (RFC 7518 §6): an EC or OKP key's "d", an RSA
# key's "d" and the primes and exponents it is computed from (either gives the key away), a
# symmetric key's "k". The shortest is a 128-bit symmetric key's, 22 characters of base64url.
_JWK_PRIVATE: dict[str, tuple[str, ...]] = {
    "RSA": ("d", "p", "q", "dp", "dq", "qi"),
    "EC": ("d",),
    "OKP": ("d",),
    "oct": ("k",),
}
_JWK_SHORTEST = 22


def _jwk_private_member(kty: str, member: object, value: object) -> bool:
    """Whether ``member`` of a JSON Web Key of type ``kty`` is a private part, and ``value``
    one (base64url of a key's length, no placeholder)."""
    return (
        member in _JWK_PRIVATE.get(kty, ())
        and isinstance(value, str)
        and len(value) >= _JWK_SHORTEST
        and _BASE64URL.fullmatch(value) is not None
        and _plausible_token(value, min_len=_JWK_SHORTEST)
    )


_BASE64URL = _lazy(r"[A-Za-z0-9_-]+")
_NAME_MEMBERS = (
    *("name", "Name", "key", "Key", "label", "Label", "header", "field", "variable", "param"),
    *("parameter", "ParameterKey", "OptionName", "keyName", "KeyName"),
)
# ... those that name a key (the Azure CLI's and PowerShell's listings of an account's keys)
_KEY_NAME_MEMBERS = frozenset({"keyName", "KeyName"})


# A string that is wholly a flag or a name (as the name anchor found it): in an array, it may
# name the item after it.
_ITEM_NAME_LONGEST = 64
_FILE_REFERENCES = ("@/", "@./", "@../", "@~/")
_ITEM_NAME = _lazy(r"-{0,2}[A-Za-z][A-Za-z0-9_.\-]{0,61}")


def _name_alone(text: str) -> bool:
    """Whether ``text`` is wholly a flag or a name ("--api-key", "DB_PASSWORD"). (The length
    is tested first, a step cheaper than the pattern's, which bounds it the same.)"""
    return len(text) <= _ITEM_NAME_LONGEST and _ITEM_NAME.fullmatch(text) is not None


def _listed_pair(layout: _Layout, record: Record, index: int, name: str) -> bool:
    """A credential given as an array's item after its name: a command's arguments as a list
    (["psql", "--password", "…"], ["datadog-agent", "--api-key", "…"]), or a pair of two
    (["password", "…"], a header as ["Authorization", "Bearer …"]). A flag's value is the next
    item unless it is another flag; a name's only in an array of two (["password",
    "publickey"] lists two ways to sign in, ["md5", "password", "scram-sha-256"] three). The
    value is judged as prose judges one, as a command line's after a space: a reference
    ("@secrets.txt", "env:DB_PASS") or a word ("prompt") is none. Whether one was found."""
    c, _, ordinal = layout.locate(index)
    items = layout.conts[c]
    if not isinstance(items, list):
        return False
    kind = _item_after_kind(items, ordinal, name)
    if kind is None:
        return False
    j = ordinal + 1
    value = items[j]
    assert isinstance(value, str)  # (an item's kind is a string's)
    record(c, (j,), (j,), _whole(value, kind), False, value)
    return True


def _item_after_kind(items: list[object], ordinal: int, name: str) -> str | None:
    """The kind of credential the item after ``name`` (``items[ordinal]``) is (`_listed_pair`)."""
    if ordinal + 1 >= len(items):
        return None
    value = items[ordinal + 1]
    flag = name.startswith("-")
    if not isinstance(value, str) or (flag and value.startswith("-")):
        return None
    if value.startswith(_FILE_REFERENCES):
        return None  # a file the credential is read from: ["--password", "@/run/secrets/db"]
    if not flag and len(items) != 2:
        return None
    cls = _classify_name(name.lstrip("-"))
    return None if cls is None else _member_credential(cls, value, prose=True)


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
