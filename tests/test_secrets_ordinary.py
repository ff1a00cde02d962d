"""Precision of the secret scan: plausible non-secrets are never flagged, wherever they are.

The kinds of ordinary content an attacker's corpus used against the scanner (issue 11): UUIDs,
git SHAs, digests, base64 of ordinary text and of binary digests, ticket ids, URLs without
credentials (percent-encoded ones included), prose about passwords and tokens, file paths,
version strings, idempotency keys, dates, hostnames, e-mail addresses, and the words a
credential's name holds used for something else. Each is checked alone, in every placement the
recall corpus uses (tests/test_secrets_recall.py), percent-encoded and base64-wrapped.
"""

import base64
import hashlib
import random
import uuid

import pytest

from app.secrets import find_secrets, first_secret, scan_text
from tests.test_secrets import ORDINARY
from tests.test_secrets_recall import PLACEMENTS, _document

_rng = random.Random(20261201)


def _hex(n: int) -> str:
    return "".join(_rng.choice("0123456789abcdef") for _ in range(n))


def _uuid4() -> str:
    return str(uuid.UUID(int=_rng.getrandbits(128), version=4))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


NOTES = [
    "The quarterly ledger is reconciled; see the notes in the ticket.",
    "Reset the password through the self-service portal, never by e-mail.",
    "Rotate the API key after the migration and update the runbook.",
    "The token expired at 09:00; the user signed in again.",
    "Deploy to staging first, then to production after the approval.",
    '{"account": 6300, "period": "2026-10", "status": "reconciled"}',
    "machine learning models need a login page and a password reset flow",
]

PLAUSIBLE: list[str] = [
    # identifiers
    *(_uuid4() for _ in range(6)),
    "urn:uuid:019a8000-0000-7000-8000-000000000011",
    "019a7c33-1e16-7b52-84d8-1f9a2b3c4d04",
    *(str(uuid.UUID(int=_rng.getrandbits(128))).replace("-", "") for _ in range(3)),
    # git SHAs and digests
    *(_hex(40) for _ in range(5)),
    "3f9e1c2",
    "a1b2c3d4e5f6",
    *(_sha256(note) for note in NOTES[:4]),
    *("sha256:" + _sha256(note) for note in NOTES[4:]),
    "sha-256:" + _sha256("ledger"),
    "sha512-" + base64.b64encode(hashlib.sha512(b"pkg").digest()).decode(),
    "sha256-" + base64.b64encode(hashlib.sha256(b"script").digest()).decode(),
    base64.b64encode(hashlib.sha256(b"a file").digest()).decode(),
    base64.urlsafe_b64encode(hashlib.sha256(b"another file").digest()).decode().rstrip("="),
    "md5:" + hashlib.md5(b"x", usedforsecurity=False).hexdigest(),
    "docker.io/library/postgres@sha256:" + _sha256("postgres"),
    # base64 of ordinary text
    *(_b64(note) for note in NOTES),
    base64.urlsafe_b64encode(NOTES[0].encode()).decode().rstrip("="),
    "data:text/plain;base64," + _b64("hello, world, nothing to see here"),
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    # tickets, ids, keys that are not credentials
    "INC0012345",
    "CHG0034567",
    "JIRA-812",
    "LEDGER-4411",
    "APR-0049121",
    "PO-2026-10-0042",
    "je-draft-6300-2026-10-porto",
    "idem-2026-11-20-refund-4411",
    "op-refund-4411-retry-2",
    "req_01HZX3Q9K8M2N4P6R8T0V2W4Y6",
    "evt-318",
    "asp-session-5d2c",
    "run-20261120-0841",
    "order_2026_11_20_000123",
    "cus_NffrFeUfNV2Hib",
    "pi_3QxL1aFz2eZvKYlo0abcDEF1",
    "ch_3QxL1a",
    "txn-7d1f9b2c",
    "batch-000123-of-000456",
    # URLs and URIs without credentials
    "https://github.com/acme/ledger-service/pull/412",
    "https://github.com/acme/ledger-service/pulls?q=head%3Arefactor%2Fmoney-type",
    "https://www.google.com/search?q=how%20to%20rotate%20an%20api%20key",
    "https://docs.example.com/auth/tokens?version=2#refresh-token",
    "https://erp.example.com/fiori#PurchaseOrder-manage?account=6300&period=2026-10",
    "https://example.com/login?next=%2Fdashboard%3Ftab%3Dsettings",
    "https://example.com/search?q=password%20reset%20policy&page=2",
    "https://example.com/a%20b/c%2Fd?x=%E2%9C%93",
    "https://maps.example.com/@37.7749,-122.4194,15z",
    "https://medium.com/@alice/why-tokens-expire-3f9e1c2a7b4d",
    "https:example.com/docs",
    "http:/relative/path/only",
    "s3://acme-ledger-archive/2026/10/ledger.csv",
    "gs://acme-exports/ledger/2026-10.parquet",
    "arn:aws:iam::123456789012:role/ledger-reader",
    "arn:aws:s3:::acme-ledger-archive",
    "git@github.com:acme/ledger-service.git",
    "mailto:ap@vendor.example.pt",
    "mid:20260915.8812.ap@vendor.example.pt",
    "file:///workspace/ledger-service/README.md",
    "postgres://db.example.com:5432/ledger",
    "redis://cache.internal:6379/0",
    # prose about credentials
    "The token expired; ask the user to reset the password before retrying.",
    "Rotate the API key and the client secret after the migration.",
    "password: see the ops vault entry",
    "Secret: the vendor contract is confidential",
    "The password is rotated monthly; the passcode was 12 digits long.",
    "Bearer tokens are accepted; Basic authentication is disabled.",
    "Never paste a private key into a ticket.",
    "The secret key lives in the KMS, not in the repository.",
    "login with SSO, then open the password manager",
    "the default machine image has no password set",
    "auth: oauth2 with PKCE; token lifetime 1h",
    "api_key=${API_KEY} and password=<redacted> in the template",
    "DB_PASSWORD_FILE=/run/secrets/db",
    # a parameter store's name for a secret, not the secret; YAML set on one line naming none
    "password: /prod/ledger/db/password",
    "DBPassword: Type: AWS::SSM::Parameter::Value<String> Default: /prod/ledger/db/password",
    "db: password: | see the vault host: db",
    "adminPassword: value: to be set by the pipeline",
    "| setting | password | |---|---| | rotation | every 90 days |",
    "max_tokens=4096, temperature=0.2",
    "Tokens: 1204 input, 311 output.",
    "-----BEGIN PUBLIC KEY----- blocks are fine to share",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGbM2rY7cWq0p6z1Gr0b6mWJk7M9m1rVtX2n3r4s5t6u ci@build",
    # paths, versions, dates, hosts, addresses
    "/workspace/ledger-service/ledger/money.py",
    "/home/svc/.ssh/id_ed25519.pub",
    "C:\\Users\\svc\\AppData\\Local\\ledger\\config.json",
    "~/.config/gh/hosts.yml",
    "./node_modules/.bin/eslint",
    "ledger/tests/test_invoice_totals_with_mixed_currencies.py",
    "v2.14.3-rc.1",
    "1.0.0+build.20261120",
    "3.11.7",
    "0.1",
    "2026.11.1",
    "v1.0-beta",
    "2026-11-20T08:00:00Z",
    "2026-11-20",
    "20261120T083000Z",
    "Thu, 20 Nov 2026 08:00:00 GMT",
    "1700000000",
    "1700000000123",
    "db.internal",
    "ledger-api.prod.eu-west-1.example.com",
    "10.0.12.4",
    "fe80::1ff:fe23:4567:890a",
    "controller-emea@northwind.example",
    "ap@vendor.example.pt",
    # code that names credentials
    "password = os.environ['DB_PASSWORD']",
    "const apiKey = process.env.API_KEY;",
    "token = request.headers.get('Authorization')",
    "secret = secrets.token_hex(32)",
    "def verify_password(plain: str, hashed: str) -> bool:",
    "SECRET_KEY = env('DJANGO_SECRET_KEY')",
    # near-misses of the new formats
    "key-value store",
    "key-" + "rotation-schedule-2026",
    "machine api.example.com login deploy",
    "1//comment in a config",
    "v1.0-" + "release-notes",
    "dp.pt." + "short",
    "NRAK-" + "short",
    "LTAI" + "short",
    "EAAA" + "short",
    "abc.atlasv1." + "short",
    "12345:A" + "short",
    "cafe-us1",
    "SK" + "U-20261120",
    "pul-" + "request-template",
    "dckr_pat_" + "short",
    "access_token$" + "sandbox",
    "the Discord server and the Telegram channel",
    "%41%42%43 percent escapes of ordinary letters",
    "user%40example.com",
    "kubernetes.io/service-account-token is the type, not the token",
    "npm_config_cache=/tmp/npm",
    "Set-Cookie: theme=dark; Path=/",
    "x-request-id: 7d1f9b2c-4e5a-4b6c-8d7e-9f0a1b2c3d4e",
    'ETag: W/"' + _hex(32) + '"',
    "Content-MD5: "
    + base64.b64encode(hashlib.md5(b"body", usedforsecurity=False).digest()).decode(),
    # where a URI's password comes from, not the password (issue 29's review)
    "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/orders",
    "psql postgres://app:$DB_PASSWORD@db:5432/orders",
    'DSN = "postgresql://app:%(DB_PASSWORD)s@db/orders"',
    # Mapbox public tokens, made to ship in web pages, under Mapbox's own names
    "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJjcGpwNThyemsxbzJjeW9pbWphNWdzcmN0In0"
    ".Saba46IuMhH8_beFBc75Ju';",
    "MAPBOX_ACCESS_TOKEN=pk.eyJ1IjoiYWNtZSIsImEiOiJrdG56cnJ5OGNxMzJ1M2NlcjM4MnA1dWEyIn0"
    ".myH_m6eKq2cfM2juwkp7fG",
    # RFC 7519 §6.1's Unsecured JWT: no signature, anyone can make one
    "eyJhbGciOiJub25lIn0.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxl"
    "LmNvbS9pc19yb290Ijp0cnVlfQ.",
    # AWS's documentation examples, as gitleaks allows them
    "aws_access_key_id = AKIA" + "IOSFODNN7EXAMPLE\naws_secret_access_key = "
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLE" + "KEY",
    # values made up in a credential's shape, as documentation and tests write them (the kinds
    # gitleaks lists as false positives of its rules): few distinct characters, the alphabet
    # in order, a mask of x's after a real prefix, a shape one character off
    'const searchToken = "' + "b" * 32 + '";',
    "ledgerKey = " + "0" * 34 + "QRSTUV",
    "REPORT_TOKEN=rpt" + "123456789012345678" + "a9bc01234defg5",
    "client_secret=kT42Q~" + "x" * 34,
    'token = "' + "x" * 14 + ".atlas" + "v1." + "x" * 67 + '"',
    "slack: xo" + "xb-" + "12345-abcd234, xo" + "xp-" + "1234567890, xo" + "xb-" + "abcdef-abcdef",
    "xoxe.xo" + "xp-1-" + "RANDOMSTRINGHERE",
    "xoxe.xo" + "xp-1-" + "SlackAppConfigurationAccessTokenHere",
    "xo" + "xp-1234-1234-1234-4ddbc191d40ee098cbaae6f3523ada2d",
    "the symbol hf_" + "requiredCharacteristicTypesForDisplayMetadata is exported",
    "decoder field &hf_" + "servingcellpriorityparametersdescription_h_prio",
    "sk-ant-" + "api03-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA",
    "https://acme.notion.site/API-" + "BD80F56CDC1441E6BF6011AB6D852875",
    "rookTable = 0023452Lllk2KqjLBvaxANWEgTd7bqjsxjo8aZj0wd",
    "AIza" + "TesbXTscfcni8vIpWZqNCXFDFslJtVSvFDqabcd123",
    "sgp_" + "78Ad84a5B6e8A2fE5B_4085FB0ccaDDd29DB66Fd7FE9bA2C1cdCE8400CD",
    "curl http://127.0.0.1:5000/file --user user:pass --digest",
    # names that hold a token but no credential: anti-forgery and public tokens, an artifact
    # and its version, a resource's numbered name, a typed key
    '<input type="hidden" name="authenticity_token" value="7SWa-Fo1_hsC6oovfBsJFLGPUl2EhkSW">',
    'publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
    'notes = "Maven - io.jsonwebtoken:jjwt-jackson-0.11.2"',
    "keyVaultToStoreSecrets: cmp2-qat-1208358310",
    "SUMO_ACCESS_KEY: AbCeFG123",
    # code, not credentials: a static call, a prompt's label, base64 data around a run that
    # starts as a Facebook or a Square token would
    "$token = AppIdentityService::getAccessToken($scopes);",
    "const confirmedpassword = await readUserInfo.password('       Again:     ')",
    "data:application/octet-stream;base64,kT9+EAAN" + "vUCfwAPA3gawT9AdLydbRvsY2J" * 4 + "+/Aw==",
    "blob = 'QUJD/EAAA" + "kDsCD1IwABsCEGiQABsCEHUAABM" + "+x9'",
    # code a link encodes (a playground's), a compiler's pass named on its command line
    "https://play.rust-lang.org/?code=fn+to_tokens(%26self,+tokens:+%26mut+TokenStream)+%7B%0A",
    "https://play.rust-lang.org/?code=struct+CookieJar+%7B+cookies:+u32+%7D%0A",
    "cargo dev new_lint --name=foo_functions --pass=late --category=pedantic",
    # a type annotation and a module's attribute named for a key; a package list's version
    "def load(private_key: SSHPrivateKeyTypes, password: bytes | None) -> None:",
    "private_key: Ed25519PrivateKey | Ed448PrivateKey",
    "MLKEM768X25519PrivateKey = rust_openssl.hpke.MLKEM768X25519PrivateKey",
    "apt\tpasswd\t1:4.13+dfsg1-1+deb12u1\napt\tpatch\t2.7.6-7",
    # a bundle's minified code: an object's member named for a token
    "toJSON(){return{token:this.tokenType}}toString(){return this.tokenType}",
    # a secret's ARN (its resource type "secret", then the secret's name) and a managed
    # policy's; CloudFormation's type named as a member; a stub's attributes typed as typeshed
    # and typing write them
    "arn:aws:secretsmanager:us-west-2:123456789012:secret:MyTestDatabaseSecret-a1b2c3",
    '"SecretArn": "arn:aws:secretsmanager:us-west-2:123456789123:secret:proxysecret1-Abcd1e",',
    "arn:aws:iam::aws:policy/EC2InstanceProfileForImageBuilder",
    '"AWS::SecretsManager::Secret": "c85175a4ebcce361",',
    "    client_secret: Incomplete\n    token_secret: Incomplete\n    password: Optional[str]",
    "    api_key: Callable[[str], str]\n    token: Final[str]",
    # code passing a variable on under its own name; an algorithm's or a curve's name where a
    # key's parameters name it; a stub's descriptor type
    "    engine=engine,\n    passwords=passwords,\n",
    'key = OKPKey.derive_key("secret", "Ed25519")\njwt_secret_algorithm = "HS256"\nsecret: HS512',
    "    workbook_password: Alias\n    revision_password: Alias",
    # tokens an API's requests carry to be made once, and those a domain publishes in its DNS
    '"ChangeToken": "abcd12f2-46da-4fdb-b8d5-fbd4c466928f",',
    '"ClientRequestToken": "a8ca07e4-61ec-4399-99f4-19853801bcd5",',
    '"LifecycleActionToken": "bcd2f1b8-9a78-44d3-8a7a-4dd07d7cf635",',
    '{"VerificationToken": "QTKknzFg2J4ygwa+XvHAxUl1hyHoY0gVfZdfjIedHZ0="}',
    '"DkimTokens": ["jcs5xoyqytjsotsijas7236gr3l2dz5u", "q76owjnks3lnluwg65scbemvw8a2pyfk"]',
    '<assemblyIdentity name="Microsoft.VC90.CRT" publicKeyToken="1fc8b3b9a1e18e3b"/>',
    '"LockToken": "e3db7e2c-d58b-4ee6-8346-6aec5511c6fb", "ImportToken": "import-token-qgmafpaa"',
    '"nextForwardToken": "f/31961209122447488583055879464742346735121166569214640130",',
    "aws ... --max-items 10 --starting-token eyJOZXh0VG9rZW4iOiBudWxsLCAiYm90b190cnVuY2F0ZV9hbW91",
    # an FTP server's anonymous login, an e-mail address for its password
    'ftp.login("anonymous", "guest@example.com"); $ftp->login("anonymous",\'-anonymous@\')',
    # a type's name a credential's word ends, as a stub annotates; a number in hexadecimal
    "    token: OAuth2Token\n    Credential: _win32typing.PyCredHandle,\n"
    "    api_key: models.ApiKey",
    "SEC_I_INCOMPLETE_CREDENTIALS: Final = 0x00090320",
    # a documentation's examples, the word set against the rest (AWS's CLI's)
    'authKey=asdf34example; "ApplicationKey": "examplekey1"',
    "--attributes PlatformCredential=EXAMPLEabcd12345jklm67890stuv12345bcdef",
    # a service's app and its id beside its name, no key's word
    "heroku_app_id: 8a439d13-51d5-435a-8c18-ad322ed5f443",
    "heroku app: 8a439d13-51d5-435a-8c18-ad322ed5f443",
]


def test_the_corpus_is_large_enough() -> None:
    assert len(PLAUSIBLE) >= 150
    assert len(set(PLAUSIBLE)) == len(PLAUSIBLE)


@pytest.mark.parametrize("text", PLAUSIBLE + ORDINARY)
def test_a_plausible_non_secret_is_never_flagged(text: str) -> None:
    assert scan_text(text) == [], [text[s:e] for s, e, _ in scan_text(text)]
    for placement, place in PLACEMENTS.items():
        doc = _document()
        place(doc, text)
        assert find_secrets(doc) == [], placement
        assert first_secret(doc) is None


def test_all_of_them_in_one_document() -> None:
    doc = _document()
    doc["statements"] = [
        {"id": f"s-{i}", "kind": "observation", "text": t, "origin": {"type": "agent"}}
        for i, t in enumerate(PLAUSIBLE)
    ]
    doc["extensions"]["dev.example.agent/trace"] = dict.fromkeys(PLAUSIBLE, "")
    assert find_secrets(doc) == []


def test_a_password_shaped_like_a_class_s_name_is_still_one() -> None:
    """A class's name after an acronym is code only when its words name what it types (Key,
    Token, Secret…): random capitals, digits and small letters make two words after a head
    as often as 1 in 30 ("Qw72QpztyTmp"), and each is a password."""
    for password in ("Qw72QpztyTmp", "Zk9XvbnqWert", "AB12CdefGhij", "Ed25519QwertyUiop"):
        line = f"tacacs-server host 10.1.1.1 key {password}"
        assert [line[a:b] for a, b, _ in scan_text(line)] == [password]


def test_a_base64_key_that_starts_like_a_reference_is_still_one() -> None:
    """A reference to a secret store names it with a colon (sm:prod/db) or a "+" before a
    scheme (ref+vault://…): a key whose base64 starts "sM+" or "op+" is a key."""
    for key in (
        "sM+nGRpXNi1AeXZUfKc8o3kJS6U2IrFbl2uXGYx7pP8=",
        "oP+kQ2vX9mZr4LtYwNc7uHb3sEfJd6aGi1pKoT5xV0w=",
    ):
        line = f"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={key}"
        assert [line[a:b] for a, b, _ in scan_text(line)] == [key]
    assert scan_text("SharedAccessKey=ref+vault://secret/bus#key") == []
