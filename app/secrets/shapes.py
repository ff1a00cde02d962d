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


# A password's name in other languages than English, one word in ASCII as a support ticket
# writes it ("Passwort: …", "senha: …"); and a label past ASCII with the ASCII name of its
# length the scan reads it as (app/secrets `_labels_past_ascii`: a character for a character,
# so the offsets stay the text's). A form's translation of "password" is each of them too: no
# value of one (`_PLACEHOLDER_WORDS`).
PASSWORD_NAMES = (
    *("passwort", "kennwort"),  # German
    "senha",  # Portuguese
    "contrasena",  # Spanish
    "wachtwoord",  # Dutch
    "passord",  # Norwegian
    "adgangskode",  # Danish
    "losenord",  # Swedish
    "salasana",  # Finnish
    "heslo",  # Czech, Slovak
    "haslo",  # Polish
    "sifre",  # Turkish
    "jelszo",  # Hungarian
)
# What other languages join a password's name to what it is for by ("Passwort für die DB:",
# "contraseña de la base de datos:", "hasło do bazy:", "Пароль от БД:"), read before a colon as
# "for" and "of" are, and the word that says what it is ("Passwort ist …", "la contraseña es
# …", "hasło jest …"): app/secrets/detectors.py `_TOLD_IS`, and the anchor that sends a text
# holding them to it.
PASSWORD_FOR_WORDS = (
    *("für", "fuer", "von", "vom", "des", "der", "zur", "zum"),  # German
    *("de", "del", "della", "di", "du", "da", "do", "dos", "das", "pour", "para", "per"),
    *("voor", "van", "till", "för", "til", "af", "på"),  # Dutch, the Scandinavian languages
    *("dla", "na", "pro", "ke", "k"),  # Polish, Czech, Slovak
    *("от", "для", "к", "на"),  # Russian, Ukrainian
)
PASSWORD_IS_WORDS = ("ist", "war", "es", "era", "est", "é", "è", "är", "var", "er", "jest", "je")
# A key's and a token's names as other languages tell one in a sentence, "is" after them (theirs,
# `PASSWORD_IS_WORDS`, and German's "lautet"): "der Token ist …", "le jeton est …", "la clave de
# API es …". Each a key's or a token's own (Schlüssel, chave, clave alone open a door), as the
# scan reads them (`KEY_LABELS`, `KEY_PHRASES`: "clé API" as "key API", "clé d'API" as
# "api_key__", "API-Schlüssel" as "API-Schlussel").
KEY_NAMES_TOLD_PAST_ENGLISH = (
    *("token", "jeton"),  # (English's word, in German, Spanish, Portuguese, Italian, Polish…)
    *("api-schlussel", "api schlussel", "api-key", "zugangsschlussel"),  # German
    *("key api", "api_key__", "api_key_____"),  # French (clé API, clé d'API, clé de l'API)
    *("clave de api", "clave de la api", "clave api"),  # Spanish
    *("chave da api", "chave de api", "chave api"),  # Portuguese
    *("chiave api", "chiave dell'api", "chiave dell’api"),  # Italian
    *("klucz api", "api-sleutel", "api-nyckel", "api-nyckeln", "api-nogle", "api-nokkel"),
)
KEY_IS_WORDS = (*PASSWORD_IS_WORDS, "lautet")
# The name a label of two characters is read as: none of two names a password whatever its
# value ("pw" alone is bare, as a width or a power may be named: a value must look random to
# be one, and `密码：Welcome2024` was missed). No one writes "pW" for a label; app/secrets
# `_classify_name` reads it, alone or after a character past ASCII (数据库密码), as a password's.
TWO_CHARACTER_LABEL_NAME = "pW"
# ... and the names a key's and a token's labels of two characters are read as (密钥, 令牌), alone,
# after a character past ASCII or after "API" (APIキー, API密钥)
KEY_LABEL_NAME = "kY"
TOKEN_LABEL_NAME = "tK"
# ... and Japanese's word for any key (キー: a dictionary's too), which names a credential only
# after "API"
KEY_WORD_LABEL_NAME = "Ky"
PASSWORD_LABELS = (
    ("contraseña", "contrasena"),  # Spanish
    ("hasło", "haslo"),  # Polish
    ("lösenord", "losenord"),  # Swedish
    ("şifre", "sifre"),  # Turkish
    ("ŞİFRE", "SIFRE"),
    ("jelszó", "jelszo"),  # Hungarian
    ("пароль", "passwd"),  # Russian, Ukrainian
    ("парола", "passwd"),  # Bulgarian
    ("κωδικός", " passwd"),  # Greek
    ("mật khẩu", "password"),  # Vietnamese
    # (scripts with no cases: each before a colon or an equals sign only, as CJK's below)
    ("كلمة المرور", "   password"),  # Arabic
    ("كلمة السر", " password"),
    ("رمز عبور", "password"),  # Persian
    ("گذرواژه", " passwd"),
    ("סיסמה", " pswd"),  # Hebrew
    ("पासवर्ड", " passwd"),  # Hindi
    ("รหัสผ่าน", "password"),  # Thai
    # Chinese, simplified and traditional
    ("密码", TWO_CHARACTER_LABEL_NAME),
    ("密碼", TWO_CHARACTER_LABEL_NAME),
    ("パスワード", " pswd"),  # Japanese
    ("비밀번호", "pswd"),  # Korean
)
# A key's and a token's labels past ASCII, each read as an ASCII word of its length that
# `_classify_name` reads as "key" or "token" (`KEY_WORDS`, a key's name in ASCII in other
# languages): "API-Schlüssel:", "Datadog API-Schlüssel:", "clé API :", "API-ключ:", "токен:",
# "APIキー：", "API密钥：", "令牌：" name a key or a token as "API key:" and "token:" do.
KEY_LABELS = (
    ("schlüssel", "schlussel"),  # German
    ("nøgle", "nogle"),  # Danish
    ("nøkkel", "nokkel"),  # Norwegian
    ("klíč", "klic"),  # Czech
    ("clé", "key"),  # French ("clé API", "clés" as "key API", "keys")
    ("ключ", "keys"),  # Russian, Ukrainian (four letters a key's name ends with)
    ("токен", "token"),
    ("секрет", "secret"),
    # Chinese (simplified and traditional), Japanese, Korean
    *((label, KEY_LABEL_NAME) for label in ("密钥", "秘钥", "私钥", "密鑰", "金鑰")),
    ("キー", KEY_WORD_LABEL_NAME),
    ("令牌", TOKEN_LABEL_NAME),
    ("토큰", TOKEN_LABEL_NAME),
    ("トークン", TOKEN_LABEL_NAME + "__"),
)
# ... French's key of the API, in its spellings, read as "api_key" (a name in English's order),
# and Korean's API key
KEY_PHRASES = (
    *(
        (key + of + apostrophe + "API", "api_key".ljust(len(key + of + apostrophe + "API"), "_"))
        for key in ("clé", "Clé")
        for of in (" d", " de l")
        for apostrophe in ("'", "\u2019")
    ),
    ("API 키", "API" + KEY_LABEL_NAME),  # Korean's, a space between
)
# The words of a key's or a token's name in other languages, in ASCII (as people write them,
# and as the scan reads `KEY_LABELS`), and the English word each stands for: "clave de API",
# "chiave API", "klucz API", "API-nyckel", "API-sleutel", "jeton"
KEY_WORDS = {
    **dict.fromkeys(
        (
            *("clave", "chave", "chiave", "klucz", "nyckel", "sleutel", "schlussel"),
            *("schluessel", "nogle", "nokkel", "klic", "kulcs", "anahtar", "avain"),
        ),
        "key",
    ),
    "jeton": "token",
}
_PLACEHOLDER_WORDS = _words(
    """
    redacted removed hidden masked omitted elided withheld sanitized scrubbed filtered
    secret secrets password passwd pass pwd passphrase token tokens apikey api_key api-key key
    credential credentials changeme change_me changeit example sample dummy fake test testing
    inherit inherited auto autogenerate autogenerated generate generated random existing
    external managed
    placeholder todo tbd tba fixme unknown unset empty required optional default value string
    none null nil undefined n/a na tbc notset not_set not-set
    """
    # and as a form's translations say that it is required, optional or hidden ("Contraseña:
    # Requerida", "Пароль: Обязательно": the value as the scan reads it, app/secrets
    # `_labels_past_ascii`), and name a password (below)
    """
    requerido requerida obligatorio obligatoria opcional oculto oculta obrigatório obrigatória
    obrigatorio obrigatoria requis obligatoire facultatif masqué caché erforderlich
    pflichtfeld pflicht verborgen versteckt obbligatorio obbligatoria richiesto richiesta
    facoltativo nascosto verplicht vereist optioneel wymagane wymagany wymagana opcjonalne
    ukryte obligatoriskt obligatorisk krävs valfritt dolt påkrævet påkrevd valgfri valgfritt
    skjult pakollinen vaaditaan valinnainen piilotettu povinné povinný vyžadováno volitelné
    skryté gerekli gerekli\u0307 zorunlu gizli kötelező szükséges opcionális rejtett
    обязательно обязательное обязательный необязательно скрыто скрыт
    """
) | {*PASSWORD_NAMES, *[label for label, _ in PASSWORD_LABELS if label.islower()]}
_BOOLISH = _words("true false yes no on off y n t f enabled disabled")
# A word a placeholder is made of, standing alone: "9your7" inside a generated key is none.
_PLACEHOLDER_MARKERS = _lazy(
    r"(?i)(?:^|[^a-z0-9])(?:redacted|placeholder|changeme|change[_-]me|replace[_-]?me|your"
    r"|example|sample|dummy|fake|insert|obfuscated|masked)(?:[^a-z]|$)"
)
# ALL_CAPS_WITH_UNDERSCORES names an environment variable; $NAME, ${NAME}, %NAME% refer to one.
_VARIABLE = r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"
_ENV_REFERENCE = _lazy(rf"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|{_VARIABLE}|%[A-Za-z_][A-Za-z0-9_]*%")
# ... and a variable with a path after it: $BASE_URL/account/#/forgot_password
_VARIABLE_THEN_PATH = _lazy(rf"{_VARIABLE}/[^\s]*+")
# (an element's id or class, its words in lower case joined by "-" or "_": "#gets0m3" is a
# password's)
_SELECTOR = _lazy(r"[#.][a-z]++(?:[-_][a-z]++)++")
# A value that points at where a secret lives (a URL, a secret store, a file), not the secret.
_REFERENCE = _lazy(
    r"(?i)(?:[a-z][a-z0-9+.\-]*://"
    r"|(?:env|vault|secret|secrets|ssm|arn|op|kv|keyvault|kms|gcpsm|gsm|sm|awssm|azure|doppler"
    r"|infisical|file|k8s|kubernetes|urn|sops|ref|secretref|secretsmanager|bitwarden|keychain"
    # (a "+" only before a scheme, as vals writes its references: ref+vault://…; a base64
    # key may start sM+…)
    r"|sha(?:-?\d+)?|md5|blake2b?|blake3)(?::|\+[a-z][a-z0-9.\-]*://)"
    # Google's Secret Manager names a secret (and its version) by its path
    r"|projects/[a-z0-9][a-z0-9\-]{0,62}/secrets/"
    # a file path; base64 keys can start with "/" too, so a bare "/" is not enough
    r"|~/|\.{1,2}/|[a-z]:\\|/(?:home|users|root|etc|var|run|tmp|usr|opt|srv|mnt|app|data"
    r"|workspace|secrets|keys|certs|config|vault|private)(?:/|$))"
)
# A path of two names or more in lower case (/prod/db/password, a parameter store's name for a
# secret, or a file's): a key in base64 that starts with "/" mixes cases, its names are no words.
_WORD_PATH = _lazy(r"/[a-z][a-z0-9_\-]*+(?:/[a-z0-9_.@\-]++)++/?")
# A Rails route's controller and action, "cms/sites/passwords#edit" (a controller named for
# passwords, as a routes file's `as: 'edit_password'` is)
_ROUTE = _lazy(r"[a-z][a-z0-9_]*+(?:/[a-z][a-z0-9_]*+)++#[a-z_]++")
_FORMAT_VERB = _lazy(r"%[-+ #0]{0,3}\d{0,3}(?:\.\d{1,3})?[sdvqxXfgeiuc]")
_EMAIL = _lazy(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_MAPBOX_PUBLIC = _lazy(r"pk\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}")
# Code that names where a credential comes from rather than holding one (excerpts of source
# files): process.env.API_KEY, os.environ["..."], secrets.token_hex(32), Optional[str],
# client_secret_value, clientSecretValue, db-credentials. Random keys have digits.
# one word of an identifier: api, KEY, Auth, AuthTypes, HTTPClient, ed25519, UsageOID. Random
# text soon fails it: its capitals are not each followed by lower-case letters, and its digits
# sit inside words (as in a password's Wint3r) rather than ending them (as in ed25519).
_WORDISH = r"(?=[A-Za-z])[A-Z]*+(?:[A-Z][a-z]{2,}+|[a-z]++|[0-9]++(?![a-z]))*+[A-Z]*+"
# a class's name whose words follow an acronym or an algorithm's name and name what it types
# (SSHPrivateKeyTypes, Ed25519PrivateKey, MLKEM768X25519PrivateKey): what a type annotation
# gives a credential's name ("private_key: Ed25519PrivateKey"). (Random capitals, digits and
# small letters make two words after a head as often as 1 in 30: Qw72QpztyTmp.)
_CLASS_NAME = (
    r"(?:[A-Z][A-Z0-9]*?|[A-Z][a-z]?[0-9]++)(?:[A-Z][a-z]{2,}+)*?"
    r"(?:Key|Token|Secret|Password|Credential|Certificate)s?(?:[A-Z][a-z]{2,}+)*+"
)
_IDENTIFIER_LIKE = _lazy(
    rf"""[._\-]*+{_WORDISH}(?:[._\-]++{_WORDISH})++[._\-]*+  # snake_case, kebab-case, a.path
      |_++{_WORDISH}                                     # _Private
      |[a-z]{{2,}}+(?:[A-Z][a-z]{{2,}}+)++               # camelCase words
      |[A-Z][a-z]{{2,}}+(?:[A-Z][a-z]{{2,}}+)++          # PascalCase words
      |(?:{_WORDISH}[._])*+{_CLASS_NAME}                 # a class's name, or a module's
      |Convert(?:To|From)-{_WORDISH}                     # PowerShell's ConvertTo-SecureString""",
    re.S | re.X,
)
# A call or a subscript (hmac.new(key2, msg; os.getenv("DB"); cfg["db"]; b64decode(x)), as
# distinct from a password holding a bracket (Tr0ub4dor(3x9Q): see `_code_callee`.
_CALL = _lazy(r"([\w$.:]*+)[(\[].*", re.S)  # (PHP's Class::method(…) too)
_DIGIT_IN_WORD = _lazy(r"[0-9][a-z]")
_MEMBER_ACCESS = frozenset({"this.", "self."})
# type names in schemas and signatures: "password": "string?", api_key: str
_TYPE_NAME = _lazy(
    r"(?i)(?:string|str|text|varchar|bool|boolean|int|integer|number|float|object|array|any"
    r"|bytes|secretstr|secret_str|securestring|secretbytes"
    # (Python's typing and typeshed's, as a stub annotates an attribute: client_secret: Incomplete)
    r"|incomplete|optional|mapping|callable|sequence|iterable|iterator|literal|final|union"
    r"|tuple|list|dict|set|type|readablebuffer|strpath|pathlike|alias)(?:\?|\[\])?"
)
# A number in hexadecimal as code writes it (up to 64 bits), and a type's name a credential's
# word ends (OAuth2Token, _win32typing.PyCredHandle, models.ApiKey): what an annotation types
_HEX_LITERAL = _lazy(r"0[xX][0-9A-Fa-f]{1,16}[uUlL]{0,3}")
_CREDENTIAL_TYPE = _lazy(
    r"(?:[A-Za-z_][A-Za-z0-9_]{0,63}\.){0,4}[A-Z][A-Za-z0-9]{0,63}"
    r"(?:Token|Key|Secret|Password|Credentials?|CredHandle|Auth)"
    r"(?:\\{1,4}[nrt])*"  # (a line's end escaped once or twice after it, in a logged JSON)
)
# (a letter in lower case alone between capitals or digits: a type's name holds its words'
# letters in runs, OAuth2Token; a generated key that happens to end in "Key" holds several,
# RHsUI6i0vypOSnXSmK285wTBFFaxcKey)
_LONE_LOWER = _lazy(r"(?<=[A-Z0-9])[a-z](?=[A-Z0-9])")
# A cryptographic algorithm's or a curve's name, as a key's parameters name them (a JSON Web
# Signature's HS256, a curve's Ed25519, a digest's SHA-256, a cipher's AES-256-GCM)
_ALGORITHM = _lazy(
    r"(?i)(?:hs|rs|es|ps)(?:256|384|512)k?|eddsa|ed(?:25519|448)|x(?:25519|448)"
    r"|p-?(?:256|384|521)|secp(?:192|224|256|384|521)[rk]1|prime(?:192|256)v1"
    r"|sha-?(?:1|224|256|384|512)|sha3-(?:224|256|384|512)|md5|blake2[bs]"
    r"|aes-?(?:128|192|256)(?:-?(?:gcm|cbc|ctr|ecb|cfb|ofb))?|chacha20(?:-poly1305)?"
    r"|rsa-?(?:1024|2048|3072|4096)|hmac-?sha-?(?:1|256|384|512)"
)
_NUMBERISH = _lazy(r"[\d\s+\-.,:/_%]+")
# A semantic version, as a package manifest writes one (a range's operator before it, a
# pre-release's and a build's identifiers after it)
_VERSION = _lazy(
    r"(?:[~^=<>]{1,2}|v)?\d{1,6}\.\d{1,6}\.\d{1,6}"
    r"(?:-[0-9A-Za-z]{1,24}(?:\.[0-9A-Za-z]{1,24}){0,4})?(?:\+[0-9A-Za-z.\-]{1,64})?"
    # and as Debian writes a package's version (a package list: "passwd\t1:4.13+dfsg1-1+deb12u1")
    r"|(?:\d{1,4}:)?\d{1,6}(?:\.\d{1,6})++(?:[+~][0-9A-Za-z.+~]{1,48})?(?:-[0-9A-Za-z.+~]{1,32})?"
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
    if "example" in low:
        # a documentation's example, its word set against the rest (AWS's asdf34example,
        # EXAMPLEabcd12345…): a random key holds it by chance one time in some 10^10. (An AWS
        # key id's own rule reads its example as gitleaks does, …EXAMPLE at the end.)
        return True
    if not value.strip(_MASK_CHARS):  # ****, xxxx, ..., ----
        return True
    if len(value) >= 3 and value.count(value[0]) == len(value):
        return True  # YYYY, 0000: one character typed over and over
    if value[0] == "%" and _FORMAT_VERB.fullmatch(value):
        return True  # printf's %s: "%s://%s:%s@%s"
    if _PARTIAL_MASK.search(value):
        return True
    if value[0] in "<[{(" and value[-1] in ">]})":
        return True  # <redacted>, [REDACTED], {{token}}, (hidden)
    if value.startswith("&lt;") and value.endswith("&gt;"):
        return True  # <YOUR_PASSWORD> as HTML escapes it
    if value.startswith(("${", "$(", "{{", "%(", "#{")):
        return True  # (#{password}: Ruby's interpolation)
    if _ENV_REFERENCE.fullmatch(value) or _TYPE_NAME.fullmatch(value):
        return True
    if value[0] in "'\"" and value[-1] == value[0] and _ENV_REFERENCE.fullmatch(value[1:-1]):
        return True  # a shell's quotes around a variable it splices in: "'$DB_PASSWORD'"
    if value[0] == "$" and _VARIABLE_THEN_PATH.fullmatch(value):
        return True  # a variable, then a path after it: $BASE_URL/account/#/forgot_password
    if value[0] == "#" and _SELECTOR.fullmatch(value):
        return True  # a page's element, as a script selects it: "#add-password"
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
    if value[:1] == "/" and _WORD_PATH.fullmatch(value):
        # a store's name for it: SSM's /prod/db/password, a file's path; a page's path, a
        # redirect's target (/en/enterprise-server@3.0/auth)
        return True
    if "#" in value and _ROUTE.fullmatch(value):
        return True  # a route's controller and action
    if value[:5] in _MEMBER_ACCESS:
        return True  # an object's member, what code assigns: {token: this.tokenType}
    if _code_call(value):
        return True
    if value[:2] in ("0x", "0X") and _HEX_LITERAL.fullmatch(value):
        return True  # a number as code writes one: SEC_I_INCOMPLETE_CREDENTIALS = 0x00090320
    if "[" in value and _regex_class(value):
        return True  # a pattern a key must match, as a validator writes it: '^[a-z0-9]{32}$'
    if not (value[:1].isalpha() or value[:1] == "_"):
        return False
    if len(value) <= 17 and _ALGORITHM.fullmatch(value):
        return True  # an algorithm's name: jwt_secret_algorithm = "HS256", ("secret", "Ed25519")
    # a type's name, as an annotation gives one: token: OAuth2Token
    return _CREDENTIAL_TYPE.fullmatch(value) is not None and len(_LONE_LOWER.findall(value)) < 2


# a regular expression's class of characters, a range in it, and a count after it
_CLASS_COUNTED = _lazy(r"\[\^?(?P<members>[^\[\]]{3,64}+)\][{*+?]")
_CLASS_RANGE = _lazy(r"[A-Za-z0-9]-[A-Za-z0-9]")


def _regex_class(value: str) -> bool:
    """Whether ``value`` holds a regular expression's class with a range, counted ([a-z0-9]{32},
    [A-Fa-f0-9]+): what a key is checked against, which no key holds."""
    return any(
        _CLASS_RANGE.search(m.group("members")) is not None for m in _CLASS_COUNTED.finditer(value)
    )


def _code_call(value: str) -> bool:
    """Whether ``value`` is what code calls or indexes (`_code_callee`), to its first bracket:
    getenv("…"), auth[1], enforce_bytes(auth[1]."""
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


def _both_cases(value: str) -> bool:
    return _has_lower(value) and _has_upper(value)


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
    # (each test a loop in C: floods of short strings reach it a few times each)
    return len(value) >= 6 and any(map(str.isalpha, value)) and any(map(str.isdigit, value))


def _both_cases_and_digits(value: str) -> bool:
    """Letters of both cases and digits, six characters or more: what generated keys and most
    passwords hold, and lists of names and identifiers' words do not."""
    return _both_cases(value) and _prose_password(value)  # (the test most values fail first)


def _generated_run(value: str) -> bool:
    """Sixteen letters and digits or more in a row, with both, in a value with no space: a key
    generated in one case (Datadog's, Codecov's; SonarQube's after its "sqa_", Mapbox's between
    its dots), which no list of names holds (their words are short, and joined by "_" and ".")."""
    return _WHITESPACE.search(value) is None and any(
        _ANY_DIGIT.search(run) is not None and _ANY_LETTER.search(run) is not None
        for run in _ALNUM_RUN.findall(value)
    )


_ALNUM_RUN = _lazy(r"[A-Za-z0-9]{16,}")


def _symbols_run(value: str) -> bool:
    """A key generated in one case from letters, digits and symbols: Django's
    `get_random_secret_key` (50 characters of a-z, 0-9 and !@#$%^&*(-_=+)), which no word,
    identifier or path holds: 40 characters or more of those, four digits and four symbols
    among them at least ("-" and "_" join words, and count for none)."""
    return (
        len(value) >= 40
        and _SYMBOLS_KEY.fullmatch(value) is not None
        and len(_ANY_DIGIT.findall(value)) >= 4
        and len(_KEY_SYMBOL.findall(value)) >= 4
    )


_SYMBOLS_KEY = _lazy(r"[a-z0-9!@#$%^&*(\-_=+)]++")
_KEY_SYMBOL = _lazy(r"[!@#$%^&*(=+)]")


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
    """Whether a match starting at ``start`` has none of ``boundary`` before it, but a diff's
    mark: "+" or "-" opening a line (a patch's line added or removed) is no character of a
    token that follows it; nor is a "/" that ends a URL's or a file's path (`_ends_a_path`)."""
    if not start or text[start - 1] not in boundary:
        return True
    before = text[start - 1]
    if before == "/":
        return _ends_a_path(text, start - 1)
    return before in "+-" and (start == 1 or text[start - 2] in "\n\r")


def _right_ok(text: str, end: int, boundary: frozenset[str], start: int = 0) -> bool:
    """Whether a match ending at ``end`` has none of ``boundary`` after it, but a "/" after a
    token (from ``start``) that a path's "/" stands before: the next segment of its path
    (https://hooks.example.com/t/EAAA…/run)."""
    if end >= len(text) or text[end] not in boundary:
        return True
    return (
        text[end] == "/" and start > 0 and text[start - 1] == "/" and _ends_a_path(text, start - 1)
    )


# A token's format whose alphabet lacks "/" refuses a "/" beside it: there it is part of a
# base64 blob, whose bytes spell a token's prefix by chance (binary data's base64 holds
# EAAA, AQE…). A "/" that ends a URL's path (https://proxy.example.com/fwd/EAAC…) or a
# file's (/etc/secrets/EAAC…, ~/keys/…, $HOME/keys/…, C:/Users/alice/…) stands beside a
# token as a space would. What is written before it, from the last space, quote, bracket or
# colon (a scheme's, a port's, a drive's, a mount's), is read: a URL from its "//" and a host
# with a dot (base64 holds no dot), or a path of words (a small letter or a digit each
# character, but for a capital opening a word: base64's parts run capitals together), from
# "/", "~", "$HOME", "." or "..", or of two words or more, the first of three characters or
# more (a base64 line's "j/EAAA…" is no path). At most this far back.
_PATH_REACH = 512
_PATH_WORD = r"[A-Z]?[a-z0-9._\-]+(?:[A-Z][a-z0-9._\-]+)*"
_A_PATH = _lazy(
    r"//(?:[a-z0-9\-]+(?:\.[a-z0-9\-]+)+|localhost)(?:/[^/]*)*"
    rf"|(?:~[a-z0-9_\-]*|\$\{{?[A-Za-z_][A-Za-z0-9_]*\}}?|\.{{1,2}})?(?:/{_PATH_WORD})+"
    rf"|(?=[^/]{{3}}){_PATH_WORD}(?:/{_PATH_WORD})+"
)
# what a path's text starts after (read backwards from the "/", reversed)
_BEFORE_A_PATH = _lazy(r"[^\s\"'`(<\[,;=>|:]*")


def _ends_a_path(text: str, slash: int) -> bool:
    """Whether the "/" at ``slash`` ends a URL's or a file's path (see above)."""
    back = text[max(0, slash - _PATH_REACH) : slash][::-1]
    length = _BEFORE_A_PATH.match(back).end()  # type: ignore[union-attr]  # (it may be empty)
    if not length or (length == _PATH_REACH and slash > _PATH_REACH):
        return False  # nothing written before it, or no start within reach
    return _A_PATH.fullmatch(back[:length][::-1]) is not None


_TAIL_PLACEHOLDER = _lazy(
    r"(?i)(?:^|[^a-z0-9])(?:your|example|sample|dummy|fake|placeholder|redacted|token|secret"
    r"|key|here|xxx+)(?:[^a-z0-9]|$)"
)


_MASK_OR_ZERO = _MASK_CHARS + "0"


def _masked(tail: str) -> bool:
    # ghp_xxxx..., xoxb-your-token-here: a placeholder in a token's shape
    if not tail.strip(_MASK_OR_ZERO):
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
    if _few_characters(value):
        return True
    return 2 * max(value.count(value[0]), value.count(value[n // 2]), value.count(value[-1])) >= n


def _few_characters(value: str) -> bool:
    """Whether ``value`` is made of few distinct characters, a fifth of its length and 8 at
    most (`_low_diversity`'s first test, which a prefixed token's run is held to alone). A
    generated value shows more than eight in its first twelve characters, mostly: then it has
    too many, without a set of all of it."""
    return len(set(value[:12])) <= 8 and len(set(value)) <= min(len(value) // 5, 8)


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
    return any(map(low.__contains__, _SEQUENCE_BLOCKS)) and any(map(low.__contains__, _SEQUENCES))


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
