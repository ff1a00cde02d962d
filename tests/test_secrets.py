"""Apparent credentials in a checkpoint (app/secrets, §9.1, §10.5).

Every fake credential here is assembled at run time from pieces, so that no real-looking secret
literal sits in the repository for a secret scanner (or a person) to trip over.
"""

import base64
import json
import random
import string
from collections.abc import Callable
from typing import Any

import pytest

from app.pointer import resolve
from app.secrets import GITHUB, SecretHit, find_secrets, redact, scan_text, secret_findings
from tests.conftest import BLNS, CONFORMANCE

_rng = random.Random(20261118)


ALNUM = string.ascii_letters + string.digits


def rnd(n: int, alphabet: str = ALNUM) -> str:
    """A random-looking run, different on every call (seeded, so runs are reproducible).

    From the default alphabet it always mixes lower case, upper case and digits, as generated
    keys do (tests/test_secrets_unknown_services.py draws keys as they come).
    """
    chars = [_rng.choice(alphabet) for _ in range(n)]
    if alphabet == ALNUM and n >= 3:
        pools = (string.ascii_lowercase, string.ascii_uppercase, string.digits)
        for i, pool in zip(_rng.sample(range(n), 3), pools, strict=True):
            chars[i] = _rng.choice(pool)
    return "".join(chars)


def found_in_text(text: str) -> list[str]:
    """What `scan_text` withholds in ``text``, each span as the text holds it."""
    return [text[start:end] for start, end, _ in scan_text(text)]


def b64url(obj: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def putty_key() -> str:
    """A whole PuTTY key file (version 3): header, public and private lines, the MAC."""
    return (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\n"
        + rnd(64)
        + "\nPrivate-Lines: 1\n"
        + rnd(44)
        + "\nPrivate-MAC: "
        + rnd(64, "0123456789abcdef")
    )


def pem(label: str, body: str | None = None) -> str:
    armour = "PRIVATE" + " KEY"
    body = (
        body
        if body is not None
        else "\n".join(rnd(64, string.ascii_letters + "+/") for _ in range(3))
    )
    return f"-----BEGIN {label}{armour}-----\n{body}\n-----END {label}{armour}-----"


def jwt(header: dict[str, object] | None = None) -> str:
    header = header if header is not None else {"alg": "HS256", "typ": "JWT"}
    return (
        f"{b64url(header)}.{b64url({'sub': 'support-bot'})}.{rnd(43, string.ascii_letters + '-_')}"
    )


def related(a: str, b: str) -> bool:
    """The conformance tool's relation: equal, or one inside the other at a '/' boundary."""
    a, b = a.rstrip("/"), b.rstrip("/")
    if a == "" or b == "":
        return a == b
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


# --- the conformance suite -----------------------------------------------------------------------


def _manifest() -> list[dict[str, Any]]:
    assert CONFORMANCE.is_dir(), f"the conformance suite is expected at {CONFORMANCE}"
    return json.loads((CONFORMANCE / "manifest.json").read_text())


def _load(name: str) -> dict[str, object] | None:
    """The parsed document, or None when json.load rejects it or it is not an object."""
    try:
        with open(CONFORMANCE / name, encoding="utf-8") as f:
            document = json.load(f)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def _allowed(case: dict[str, Any]) -> list[str]:
    """Paths where a secret finding is right: the case's secrets, and userinfo (OCP-S008)."""
    userinfo = [e["path"] for e in case.get("errors", []) if e["code"] == "OCP-S008"]
    return [*case.get("secrets", []), *userinfo]


# The json-level cases do not parse to an object, so there is nothing to scan.
CASES = [c for c in _manifest() if _load(str(c["file"])) is not None]


def test_the_cases_that_parse_are_all_scanned() -> None:
    assert len(CASES) >= len(_manifest()) - 8


@pytest.mark.parametrize("case", CASES, ids=[str(c["file"]) for c in CASES])
def test_conformance_secrets_are_flagged_and_nothing_else(case: dict[str, Any]) -> None:
    document = _load(str(case["file"]))
    assert document is not None
    flagged = [f.path for f in secret_findings(document)]
    for path in case.get("secrets", []):
        assert any(related(p, path) for p in flagged), f"{path} not flagged"
    allowed = _allowed(case)
    false_positives = [p for p in flagged if not any(related(p, a) for a in allowed)]
    assert false_positives == []


def test_every_conformance_document_is_covered() -> None:
    listed = {c["file"] for c in CASES}
    on_disk = {p.name for p in CONFORMANCE.glob("*.ocp.json")}
    # a document outside the manifest would have nothing to allow: it must not be flagged at all
    for name in sorted(on_disk - listed):
        document = _load(name)
        if document is not None:
            assert secret_findings(document) == [], name


def test_raw_source_scan_agrees_on_the_conformance_suite() -> None:
    """The viewer scans unparsed source too: the secret cases hit, the valid ones do not."""
    for case in CASES:
        raw = (CONFORMANCE / str(case["file"])).read_bytes().decode("utf-8", "replace")
        spans = scan_text(raw)
        if case.get("secrets"):
            assert spans, case["file"]
        elif not _allowed(case):
            assert spans == [], (case["file"], [raw[s:e][:40] for s, e, _ in spans])


# --- one positive and one negative for each detector ---------------------------------------------

# (id, make a text holding a credential -> (text, the credential), kind, a text that must not hit)
Positive = Callable[[], tuple[str, str]]


def _embed(secret: str, before: str = "seen in the log: ", after: str = " (rotated?)") -> Positive:
    return lambda: (before + secret + after, secret)


def _lazy(make: Callable[[], str], before: str = "value ", after: str = " end") -> Positive:
    def build() -> tuple[str, str]:
        secret = make()
        return before + secret + after, secret

    return build


# A few words of BIP 39's list, and Base58's alphabet (Bitcoin's keys)
BIP39_SAMPLE = [
    "abandon",
    "ability",
    "able",
    "about",
    "above",
    "absent",
    "absorb",
    "abstract",
    "absurd",
    "abuse",
    "access",
    "accident",
    "zebra",
    "zero",
    "zone",
    "zoo",
    "garden",
    "harbor",
    "jungle",
    "kitten",
    "lemon",
    "marble",
    "napkin",
    "oyster",
    "pencil",
]
BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


DETECTORS: list[tuple[str, Positive, str, str]] = [
    (
        "pem-rsa",
        _lazy(lambda: pem("RSA "), "excerpt:\n", "\n"),
        "a PEM private key",
        "-----BEGIN RSA " + "PRIVATE KEY----- files must never be committed",
    ),
    (
        "pem-openssh",
        _lazy(lambda: pem("OPENSSH ")),
        "a PEM private key",
        pem("PUBLIC ").replace("PRIVATE KEY", "KEY"),
    ),
    ("pem-ec", _lazy(lambda: pem("EC ")), "a PEM private key", "BEGIN EC PARAMETERS"),
    ("pem-dsa", _lazy(lambda: pem("DSA ")), "a PEM private key", "a DSA key pair was generated"),
    (
        "pem-encrypted",
        _lazy(lambda: pem("ENCRYPTED ")),
        "a PEM private key",
        "-----BEGIN CERTIFICATE-----\n" + rnd(64) + "\n-----END CERTIFICATE-----",
    ),
    (
        "pem-pkcs8",
        _lazy(lambda: pem("")),
        "a PEM private key",
        "-----BEGIN " + "PRIVATE KEY-----\n[excerpt truncated]",
    ),
    (
        "pem-legacy-encrypted",
        _lazy(
            lambda: pem(
                "RSA ",
                "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,"
                + rnd(32, "0123456789ABCDEF")
                + "\n\n"
                + rnd(64),
            )
        ),
        "a PEM private key",
        "Proc-Type: 4,ENCRYPTED",
    ),
    (
        "pgp",
        _lazy(
            lambda: (
                "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n"
                + rnd(64)
                + "\n=ab12\n-----END PGP PRIVATE KEY BLOCK-----"
            )
        ),
        "a PEM private key",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + rnd(64)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
    ),
    (
        "putty",
        _lazy(putty_key),
        "a PuTTY private key",
        "PuTTY-User-Key-File-3: ssh-ed25519 (public part only)",
    ),
    (
        "aws-access-key-id",
        _lazy(lambda: "AKIA" + rnd(16, string.ascii_uppercase + "234567"), "AWS_ACCESS_KEY_ID="),
        "an AWS access key id",
        "AKIA" + "X" * 16 + " and AKIA" + "Z7QX4N2L" + " (too short) and XAKIA" + "Z" * 16,
    ),
    (
        "aws-temporary-key-id",
        _lazy(lambda: "ASIA" + rnd(16, string.ascii_uppercase + "234567")),
        "an AWS access key id",
        "ASIAN markets and ASIA" + "PACIFIC" + "REGIONOFFICE2026",
    ),
    (
        "aws-secret-access-key",
        _lazy(
            lambda: rnd(40, string.ascii_letters + string.digits + "/+"), "aws_secret_access_key = "
        ),
        "an AWS secret access key",
        "aws_secret_access_key = <redacted>; the key " + rnd(40) + " alone proves nothing",
    ),
    (
        "google-api-key",
        _lazy(lambda: "AIza" + rnd(35, string.ascii_letters + string.digits + "-_")),
        "a Google API key",
        "AIza" + "short",
    ),
    (
        "google-oauth-token",
        _lazy(lambda: "ya29." + rnd(60, string.ascii_letters + string.digits + "-_")),
        "a Google OAuth token",
        "ya29.a",
    ),
    (
        "google-client-secret",
        _lazy(lambda: "GOCSPX-" + rnd(28)),
        "a Google OAuth client secret",
        "GOCSPX-",
    ),
    (
        "azure-account-key",
        _lazy(
            lambda: rnd(86, string.ascii_letters + string.digits + "+/") + "==",
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=",
            ";EndpointSuffix=core.windows.net",
        ),
        "an Azure storage account key",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=<key>;EndpointSuffix=x",
    ),
    (
        "azure-shared-access-key",
        _lazy(
            lambda: rnd(43, string.ascii_letters + string.digits + "+/") + "=",
            "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=",
        ),
        "an Azure storage account key",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey",
    ),
    (
        "azure-sas",
        _lazy(
            lambda: rnd(43, string.ascii_letters + string.digits) + "%3D",
            "https://acme.blob.core.windows.net/c/b.csv?sv=2022-11-02&sr=b&sp=r&sig=",
        ),
        "a signed URL",
        "https://acme.blob.core.windows.net/c/b.csv?sv=2022-11-02&sr=b&sp=r",
    ),
    (
        "azure-ad-client-secret",
        _lazy(lambda: rnd(3) + "8Q~" + rnd(34, string.ascii_letters + string.digits + "_-")),
        "an Azure AD client secret",
        "the Q~ ratio",
    ),
    ("github-pat", _lazy(lambda: "ghp_" + rnd(36)), "a GitHub token", "ghp_" + "x" * 36),
    ("github-oauth", _lazy(lambda: "gho_" + rnd(36)), "a GitHub token", "gho_short"),
    ("github-user-to-server", _lazy(lambda: "ghu_" + rnd(36)), "a GitHub token", "ghu_"),
    ("github-server-to-server", _lazy(lambda: "ghs_" + rnd(36)), "a GitHub token", "ghs_x"),
    ("github-refresh", _lazy(lambda: "ghr_" + rnd(36)), "a GitHub token", "ghr_1"),
    (
        "github-fine-grained",
        _lazy(lambda: "github_pat_" + rnd(22) + "_" + rnd(59)),
        "a GitHub token",
        "github_pat_",
    ),
    # the brief's own construction: a uniform run is still a token's shape
    # a token's format with a run typed over (one character, few, the alphabet in order) is a
    # placeholder, as gitleaks' entropy floor refuses it: ghp_AAAA…, AIzaaaaa…, glc_1111…=
    (
        "github-uniform",
        _lazy(lambda: "ghp_" + rnd(36)),
        "a GitHub token",
        "ghp_" + "A" * 36 + " ghp_" + "A" * 20 + ' apiKey: "AIza' + "a" * 35 + '" '
        "GR1348941"
        + "123" * 7
        + " glc_"
        + "1" * 42
        + "= sgp_5555555dAAAAA7777777CcccCFaaaaaaaaaaaaaa "
        "sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56AA",
    ),
    (
        "gitlab-pat",
        _lazy(lambda: "glpat-" + rnd(20, string.ascii_letters + string.digits + "-_")),
        "a GitLab token",
        "global-settings-for-the-whole-project",
    ),
    (
        "gitlab-deploy",
        _lazy(lambda: "gldt-" + rnd(20)),
        "a GitLab token",
        "glft-short",
    ),
    (
        "gitlab-runner",
        _lazy(lambda: "glrt-" + rnd(20)),
        "a GitLab token",
        "glrt-",
    ),
    (
        "slack-bot",
        _lazy(
            lambda: "xoxb-" + rnd(12, string.digits) + "-" + rnd(13, string.digits) + "-" + rnd(24)
        ),
        "a Slack token",
        "xoxb-your-token-here",
    ),
    (
        "slack-user",
        _lazy(lambda: "xoxp-" + rnd(40)),
        "a Slack token",
        "xoxo-and-hugs-to-all-of-you",
    ),
    ("slack-app-level", _lazy(lambda: "xoxa-2-" + rnd(40)), "a Slack token", "xoxa-"),
    ("slack-refresh", _lazy(lambda: "xoxr-" + rnd(40)), "a Slack token", "xoxr-1"),
    ("slack-legacy", _lazy(lambda: "xoxs-" + rnd(40)), "a Slack token", "xoxs"),
    (
        "slack-app-token",
        _lazy(lambda: "xapp-1-A" + rnd(10, string.ascii_uppercase + string.digits) + "-" + rnd(40)),
        "a Slack token",
        "xapp-",
    ),
    (
        "slack-webhook",
        _lazy(
            lambda: (
                "https://hooks.slack.com/services/T"
                + rnd(8, string.ascii_uppercase)
                + "/B"
                + rnd(8, string.ascii_uppercase)
                + "/"
                + rnd(24)
            )
        ),
        "a Slack webhook URL",
        "https://api.slack.com/messaging/webhooks and https://hooks.slack.com/services/",
    ),
    (
        "stripe-live",
        _lazy(lambda: "sk_live_" + rnd(24)),
        "a Stripe secret key",
        "pk_live_" + rnd(24),
    ),
    ("stripe-restricted", _lazy(lambda: "rk_live_" + rnd(24)), "a Stripe secret key", "ch_3QxL1a"),
    ("stripe-test", _lazy(lambda: "sk_test_" + rnd(24)), "a Stripe secret key", "sk_test_"),
    (
        "stripe-webhook",
        _lazy(lambda: "whsec_" + rnd(32)),
        "a Stripe webhook signing secret",
        "whsec_",
    ),
    (
        "openai",
        _lazy(lambda: "sk-" + rnd(48)),
        "an OpenAI or Anthropic style API key",
        "sk-learn-compatibility-layer-notes-v2",
    ),
    (
        "openai-project",
        _lazy(lambda: "sk-proj-" + rnd(120, string.ascii_letters + string.digits + "-_")),
        "an OpenAI or Anthropic style API key",
        "risk-assessment-for-q3-payments-and-refunds",
    ),
    (
        "anthropic",
        _lazy(lambda: "sk-ant-api03-" + rnd(93, string.ascii_letters + string.digits + "-_")),
        "an OpenAI or Anthropic style API key",
        "sk-ant-api03-",
    ),
    ("npm", _lazy(lambda: "npm_" + rnd(36)), "an npm token", "npm_config_cache=/tmp/npm"),
    (
        "pypi",
        _lazy(
            lambda: "pypi-AgEIcHlwaS5vcmc" + rnd(60, string.ascii_letters + string.digits + "-_")
        ),
        "a PyPI token",
        "pypi-publishing-workflow-for-the-ledger-service-v2",
    ),
    ("hugging-face", _lazy(lambda: "hf_" + rnd(34)), "a Hugging Face token", "hf_hub_download"),
    (
        "sendgrid",
        _lazy(lambda: "SG." + rnd(22) + "." + rnd(43)),
        "a SendGrid API key",
        "SG.v2 release notes",
    ),
    (
        "shopify",
        _lazy(lambda: "shpat_" + rnd(32, "0123456789abcdef")),
        "a Shopify access token",
        "shipping_address",
    ),
    (
        "digitalocean",
        _lazy(lambda: "dop_v1_" + rnd(64, "0123456789abcdef")),
        "a DigitalOcean token",
        "dop_v1_",
    ),
    ("vault", _lazy(lambda: "hvs." + rnd(90)), "a HashiCorp Vault token", "hvs.short"),
    (
        "age",
        _lazy(lambda: "AGE-SECRET-KEY-1" + rnd(58, string.ascii_uppercase + string.digits)),
        "an age secret key",
        "AGE-SECRET-KEY-1",
    ),
    (
        # a key of zero bytes (bech32's "q"), as gitleaks' own case for the format is: a run of
        # one case typed over is not refused as a token of both cases' is
        "age-zero-key",
        _lazy(lambda: "AGE-SECRET-KEY-1" + "Q" * 58),
        "an age secret key",
        "AGE-SECRET-KEY-1QQQQ",
    ),
    (
        "postman",
        _lazy(lambda: "PMAK-" + rnd(24, "0123456789abcdef") + "-" + rnd(34, "0123456789abcdef")),
        "a Postman API key",
        "PMAK-",
    ),
    ("linear", _lazy(lambda: "lin_api_" + rnd(40)), "a Linear API key", "lin_api_docs"),
    (
        "databricks",
        _lazy(lambda: "dapi" + rnd(32, "0123456789abcdef")),
        "a Databricks token",
        "dapi_reference",
    ),
    ("square", _lazy(lambda: "sq0atp-" + rnd(22)), "a Square access token", "sq0atp-"),
    (
        "atlassian",
        _lazy(lambda: "ATATT3" + rnd(180, string.ascii_letters + string.digits + "-_")),
        "an Atlassian API token",
        "ATATT3",
    ),
    (
        "jwt",
        _lazy(jwt, "id_token "),
        "a JSON Web Token",
        # a detached JWS (no payload) is a signature, and a header without "alg" is no JWT
        f"{b64url({'alg': 'ES256'})}..{rnd(40)} and {b64url({'typ': 'x'})}.{b64url({})}.{rnd(20)}",
    ),
    (
        "bearer",
        _lazy(lambda: rnd(32), "Authorization: Bearer "),
        "a bearer token",
        "Use bearer tokens, never Bearer <token> or Bearer ${TOKEN} in examples.",
    ),
    (
        "basic",
        _lazy(
            lambda: base64.b64encode(b"svc-erp:" + rnd(12).encode()).decode(),
            "Authorization: Basic ",
        ),
        "HTTP Basic credentials",
        "basic authentication is disabled; the Basic plan costs 5 EUR",
    ),
    (
        "userinfo-password",
        _lazy(lambda: "svc:" + rnd(12), "postgres://", "@db.example.com:5432/ledger"),
        "a password in a URI",
        "git@github.com:acme/ledger.git, mailto:ap@vendor.example and https://medium.com/@alice",
    ),
    (
        # a password written unencoded: RFC 3986 ends the authority at its "#" or "?", a
        # connection string does not
        "userinfo-unencoded-password",
        _lazy(
            lambda: "svc:" + rnd(5) + "#" + rnd(4) + "?" + rnd(5),
            "mongodb://",
            "@mongo.example.com:27017/ledger",
        ),
        "a password in a URI",
        "https://example.com:8080#section@x.example, https://docs.example/#user:x@y.example,"
        " http://host.example?a=b:c@d.example and https://user:<pa#ss>@host.example",
    ),
    (
        "userinfo-token-as-user",
        _lazy(lambda: rnd(40), "https://", "@git.example.com/acme/ledger.git"),
        "a token as the user name of a URI",
        # a user name names an account and grants nothing (OCP-S008 reports it on a resource)
        "https://fpa-analyst@sharepoint.example.com/sites/fpa, ssh://git@github.com/acme/l.git,"
        " https:deploy2026@host.example/x, controller-emea@northwind.example;"
        " mid:20260915.8812.ap@vendor.example.pt",
    ),
    (
        "aws-signed-url",
        _lazy(
            lambda: rnd(64, "0123456789abcdef"),
            "https://b.s3.amazonaws.com/k.log?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=",
        ),
        "a signed URL",
        "https://b.s3.amazonaws.com/k.log?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261112T130000Z",
    ),
    (
        "aws-security-token",
        _lazy(lambda: rnd(200), "https://b.s3.amazonaws.com/k?X-Amz-Security-Token="),
        "a signed URL",
        "https://b.s3.amazonaws.com/k?X-Amz-Expires=3600",
    ),
    (
        "gcs-signed-url",
        _lazy(
            lambda: rnd(64, "0123456789abcdef"),
            "https://storage.googleapis.com/b/o?X-Goog-Credential=svc%2F20260101&X-Goog-Signature=",
        ),
        "a signed URL",
        "https://storage.googleapis.com/b/o?alt=media",
    ),
    (
        "cloudfront-signed-url",
        _lazy(
            lambda: rnd(40, string.ascii_letters + string.digits + "~-_"),
            "https://d1.cloudfront.net/v.mp4?Expires=1700000000&Signature=",
            "&Key-Pair-Id=K" + rnd(13, string.ascii_uppercase + string.digits),
        ),
        "a signed URL",
        "https://d1.cloudfront.net/v.mp4?Expires=1700000000",
    ),
    (
        "query-access-token",
        _lazy(lambda: rnd(32), "https://api.example.com/v1/items?page=2&access_token="),
        "an access token",
        "https://github.com/acme/ledger-service/pulls?q=head%3Arefactor%2Fmoney-type",
    ),
    (
        "query-api-key",
        _lazy(lambda: rnd(32), "https://api.example.com/v1/rates?api_key="),
        "an API key",
        "https://erp.example.com/fiori#PurchaseOrder-manage?account=6300&period=2026-10",
    ),
    (
        "query-password",
        _lazy(lambda: "Wint3r-" + rnd(6), "https://legacy.example.com/login?user=svc&password="),
        "a password",
        "https://x.example/reset?password=&token=&auth=true",
    ),
    (
        "fragment-token",
        _lazy(lambda: rnd(40), "https://app.example.com/callback#state=xyz&access_token="),
        "an access token",
        "https://app.example.com/callback#section-token-lifetimes",
    ),
    (
        "env-assignment",
        _lazy(lambda: "hunter" + rnd(4, string.digits), "DB_HOST=db.internal\nDB_PASSWORD="),
        "a password",
        "DB_PASSWORD=${DB_PASSWORD}\nDB_PASSWORD_FILE=/run/secrets/db",
    ),
    (
        "yaml-assignment",
        _lazy(lambda: "s3cr3t-" + rnd(6), "database:\n  user: ledger\n  password: ", "\n"),
        "a password",
        "database:\n  password: changeme\n  api_key: <redacted>\n",
    ),
    # the operators of code: PHP's and Ruby's =>, Go's :=, a type between name and =, R's <-,
    # Make's ?=; each with what names a secret's source rather than holding one
    (
        "service-key-name",
        _lazy(lambda: rnd(40), '{"datadog_key": "', '"}'),
        "an API key",
        '{"sort_key": "created_at", "partition_key": "' + rnd(40) + '", "s3_key": "a/b.csv"} '
        "https://o1.ingest.sentry.io/api/2/envelope/?sentry_key="
        + rnd(32, "0123456789abcdef")
        + "&sentry_version=7",
    ),
    (
        "two-word-service-key-name",
        _lazy(lambda: rnd(40), 'PAGER_DUTY_KEY="', '"'),
        "an API key",
        '{"foo_bar_key": "created_at", "user_sort_key": "' + rnd(40) + '"}',
    ),
    (
        "bare-key-service-name",
        _lazy(lambda: rnd(32), 'MAILCHIMP_KEY = "', '"'),
        "an API key",
        '{"cache_key": "user:42:profile", "figma_key": "${FIGMA_KEY}", "zone_key": "'
        + rnd(32)
        + '"}',
    ),
    (
        "hmac-key-name",
        _lazy(lambda: rnd(40), '{"webhook": {"hmac_key": "', '"}}'),
        "a secret",
        '{"hmac_key": "${WEBHOOK_HMAC_KEY}", "hmac_key_id": "k1"}',
    ),
    (
        "cipher-key-names",
        _lazy(lambda: rnd(32), "AES_KEY=", "\n"),
        "a private key",
        'AES_KEY="${AES_KEY}"\nCACHE_KEY=v1-deps-8f2K9mQ7vX3pL8nR4tW6yZ1bC',
    ),
    (
        "jwt-key-yaml",
        _lazy(lambda: rnd(40), "auth:\n  jwt_key: ", "\n"),
        "a private key",
        "auth:\n  jwt_key: ${JWT_KEY}\n  site_key: 6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI\n",
    ),
    (
        "service-key-json",
        _lazy(lambda: rnd(32), '{"pagerduty": {"service_key": "', '"}}'),
        "an API key",
        '{"pagerduty": {"service_key": "<from the vault>", "anon_key": "' + "eyJhbGciOi" + '"}}',
    ),
    (
        "arrow-password-note",
        _lazy(lambda: "Qw7" + rnd(11), "DB password → ", " (rotated today)"),
        "a password",
        "Settings → Security → Password → Reset",
    ),
    (
        "html-table-header",
        _lazy(
            lambda: rnd(32),
            "<table><tr><th>Service</th><th>API key</th></tr><tr><td>ledger</td><td>",
            "</td></tr></table>",
        ),
        "an API key",
        "<table><tr><th>Service</th><th>API key</th></tr><tr><td>ledger</td>"
        "<td>in the vault</td></tr></table>",
    ),
    (
        "dockerfile-env-space",
        _lazy(lambda: "Pw9" + rnd(9), "FROM python:3.12\nENV DB_PASSWORD ", "\nRUN make\n"),
        "a password",
        "FROM python:3.12\nENV DB_PASSWORD ${DB_PASSWORD}\nENV PATH /usr/local/bin:$PATH\n",
    ),
    (
        "macos-keychain-add",
        _lazy(lambda: "Pw9" + rnd(9), "security add-generic-password -a svc -s ledger -w ", "\n"),
        "a password",
        "security find-generic-password -a svc -s ledger -w",
    ),
    (
        "go-mysql-dsn",
        _lazy(
            lambda: "Pw9" + rnd(9), 'db, err := sql.Open("mysql", "app:', '@tcp(db:3306)/ledger")'
        ),
        "a password",
        'sql.Open("mysql", "user:password@tcp(localhost:3306)/dbname")',
    ),
    # user:password@host:port with no scheme, as a note gives a database's address
    (
        "schemeless-userinfo",
        _lazy(lambda: "Pw9" + rnd(9), "connected as app:", "@db.internal:5432 (shop)"),
        "a password",
        "contact:bob@example.com; git@github.com:org/repo.git; admin:password@db:5432;\n"
        "admin:$PGPASSWORD@db:5432; ssh user@host:22; mailto:ops@example.com:25",
    ),
    (
        "jira-table-header",
        _lazy(lambda: "Pw9" + rnd(9), "\n||user||password||\n|admin|", "|\n"),
        "a password",
        "||Parameter||Type||\n|password|string|\n",
    ),
    (
        "org-table-separator",
        _lazy(
            lambda: "Pw9" + rnd(9),
            "\n| user | password |\n|------+----------|\n| admin | ",
            " |\n",
        ),
        "a password",
        "| a | b |\n|---+---|\n| password | required |\n",
    ),
    # ... whose it is between ("reset the password for alice to …")
    (
        "set-name-for-whom-to-value",
        _lazy(lambda: "Qw7" + rnd(11), "I reset the password for the admin account to ", "."),
        "a password",
        "reset the password for alice to expire in 30 days; set the token for the api user to"
        " 3600; changed the password of ops to ${NEW_PASSWORD}",
    ),
    (
        "set-name-to-value-in-prose",
        _lazy(lambda: "Qw7" + rnd(11), "I rotated it: set `DB_PASSWORD` to `", "` and redeployed."),
        "a password",
        "Set DB_PASSWORD to the value in the vault; set max_tokens to 4096; changed API_KEY to"
        " ${NEW_KEY}.",
    ),
    (
        "markdown-code-span-value",
        _lazy(lambda: "Qw7" + rnd(11), "- **DB password:** `", "` (rotate it after the demo)"),
        "a password",
        "- **DB password:** `********`\n- **API key:** `<your-api-key>`\n- password: `string`",
    ),
    # a name in a code span, or set in emphasis, as a note in Markdown writes it
    (
        "markdown-code-span-name",
        _lazy(lambda: "Qw7" + rnd(11), "- `DB_PASSWORD`: `", "` (rotate it after the demo)"),
        "a password",
        "- `password`: see the vault\n- `password`: `string`\n- `token`: `<your-token>`\n"
        "- `password`: `${DB_PASSWORD}`\nchar *password = get_pw();",
    ),
    (
        "markdown-emphasis-name",
        _lazy(lambda: rnd(32), "*API key*: ", "\n"),
        "an API key",
        "*Password*: ********\n*API key*: <your-api-key>\n*Token*: see the wiki",
    ),
    # ... the label's colon inside its marks, emphasis's or a code span's
    (
        "markdown-emphasis-label",
        _lazy(lambda: "Qw7" + rnd(11), "- *DB password:* ", "\n"),
        "a password",
        "- *Password:* ********\n- _Token:_ see the wiki\n- *Note:* the password is in the "
        "vault\n- `password:` string",
    ),
    (
        "markdown-underscore-label",
        _lazy(lambda: rnd(32), "_API key:_ ", "\n"),
        "an API key",
        "_API key:_ <your-api-key>\n_DB_PASSWORD:_ ${DB_PASSWORD}",
    ),
    (
        "markdown-code-span-label",
        _lazy(lambda: "Qw7" + rnd(11), "`DB_PASSWORD:` ", " (rotate it)"),
        "a password",
        "`DB_PASSWORD:` ${DB_PASSWORD}\n`password:` required",
    ),
    (
        "triple-quoted-value",
        _lazy(lambda: rnd(32), 'API_KEY = """', '"""\n'),
        "an API key",
        'API_KEY = """\n"""\nDOC = """the API key lives in the vault"""',
    ),
    (
        "php-array-assignment",
        _lazy(lambda: "Pw9" + rnd(9), "'database' => ['password' => '", "'],"),
        "a password",
        "'password' => env('DB_PASSWORD'), 'token' => $request->token, "
        "'password' => $request->input('password'),",
    ),
    (
        "go-short-declaration",
        _lazy(lambda: rnd(32), 'apiToken := "', '"'),
        "an access token",
        'apiToken := os.Getenv("API_TOKEN")',
    ),
    (
        "typed-declaration",
        _lazy(lambda: rnd(32), 'const apiKey: string = "', '";'),
        "an API key",
        'api_key: str = os.environ["API_KEY"]; password: str = Field(default=None)',
    ),
    (
        "go-typed-declaration",
        _lazy(lambda: rnd(32), 'var apiKey string = "', '"'),
        "an API key",
        "var apiKey string = cfg.APIKey",
    ),
    (
        "r-assignment",
        _lazy(lambda: "Pw9" + rnd(9), 'db_password <- "', '"'),
        "a password",
        'db_password <- Sys.getenv("DB_PASSWORD")',
    ),
    (
        "make-conditional-assignment",
        _lazy(lambda: rnd(32), "API_KEY ?= ", "\n"),
        "an API key",
        "API_KEY ?= $(shell cat .api-key)\nurl.password += encoded",
    ),
    # a command line's flag as the name (--db-password=…, the JVM's -D…), a subscript's key
    # (os.environ["API_KEY"] = …), PowerShell's $env:, two strings a call pairs; and "is:"
    (
        "flag-assignment",
        _lazy(lambda: "Pw9" + rnd(9), "deploy --db-password=", " --verbose"),
        "a password",
        "deploy --db-password=$DB_PASSWORD --password-file=/run/secrets/db -x - password; "
        "--secret=projects/my-project/secrets/my-secret/versions/1 "
        "--oauth-client-id='looker' --oauth-client-secret='looker' "
        "cargo dev new_lint --name=foo_functions --pass=early",
    ),
    (
        "jvm-system-property",
        _lazy(lambda: "Pw9" + rnd(9), "java -Dspring.datasource.password=", " -jar app.jar"),
        "a password",
        "java -Dspring.datasource.password=${DB_PASSWORD} -Dserver.port=8080 -jar app.jar",
    ),
    (
        "subscript-assignment",
        _lazy(lambda: rnd(32), 'os.environ["API_KEY"] = "', '"'),
        "an API key",
        'os.environ["API_KEY"] = os.environ["OLD_KEY"]; config["api_key"] = None',
    ),
    (
        "powershell-environment",
        _lazy(lambda: "Pw9" + rnd(9), '$env:DB_PASSWORD = "', '"'),
        "a password",
        '$env:DB_PASSWORD = $null; $env:PATH = "C:\\tools"',
    ),
    (
        "paired-strings",
        _lazy(lambda: "Pw9" + rnd(9), 'System.setProperty("db.password", "', '");'),
        "a password",
        "fields = ['username', 'password', 'email']; opts = ['KEYPASSWD', 'KRB4LEVEL']; "
        "classes = ['ASAuthorizationAppleIDButton', 'ASAuthorizationProvider']; "
        'methods: "trust", "reject", "md5", "password", "scram-sha-256"; '
        'put("token", token)',
    ),
    (
        "key-told-by-nothing-more",
        _lazy(lambda: "aB3" + rnd(24), "The new key is ", ", rotated this morning."),
        "an API key",
        "the sort key is createdAt; the public key is MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE; "
        "the key is SessionTokenProvider2Factory; the key is in the vault",
    ),
    (
        "token-told-in-german",
        _lazy(lambda: "aB3" + rnd(29), "Der Token ist ", " (gültig bis Freitag)"),
        "an access token",
        "Der Token ist abgelaufen und muss erneuert werden; le jeton est expiré",
    ),
    (
        "key-told-in-french",
        _lazy(lambda: "aB3" + rnd(29), "La clé API est ", " pour le compte de test."),
        "an API key",
        "La clé d'API est dans le coffre-fort; la clave de API es obligatoria",
    ),
    (
        "key-told-in-spanish",
        _lazy(lambda: "aB3" + rnd(29), "La clave de API es ", "."),
        "an API key",
        "La clave de API es obligatoria; o token é gerado no painel",
    ),
    (
        "pw-told",
        _lazy(lambda: "Pw9" + rnd(9), "wifi pw is ", " (guest network)"),
        "a password",
        "the pw is 100W; PW is 25 dBm at 2.4GHz",
    ),
    (
        "wallet-recovery-phrase",
        # (BIP 39's words: twelve drawn from a few of its list, each run distinct)
        _lazy(
            lambda: " ".join(random.Random(rnd(8)).choice(BIP39_SAMPLE) for _ in range(12)),
            'WALLET_MNEMONIC="',
            '"',
        ),
        "a wallet's recovery phrase",
        'WALLET_MNEMONIC="your twelve word recovery phrase goes here"; random_seed = 42',
    ),
    (
        "unknown-service-key",
        # (a service none of the rules knows: its key judged as data holds it)
        _lazy(lambda: "roLt" + rnd(28), "CENSYS_KEY=", "\nLOG_LEVEL=info"),
        "an API key",
        'CACHE_KEY=user:42:profile; sort_key = "Ab3' + rnd(20) + '"',
    ),
    (
        "csv-row",
        # (a name that opens a line, a comma, its value)
        _lazy(
            lambda: rnd(40, "abcdefghijklmnopqrstuvwxyz0123456789"), "name,value\nSVC_TOKEN,", "\n"
        ),
        "an access token",
        "token, err := jwt.Parse(raw)\nid,token_count,scope\n",
    ),
    (
        "label-line",
        # (a web page's fields copied: a label alone on its line, its value alone on the next)
        _lazy(lambda: rnd(32, "0123456789abcdef"), "Site\nus5\nDatadog API Key\n", "\nCreated\n"),
        "an API key",
        "Sort key\n6822a6b2-4735-af1c-a7a1-149075139237\nAPI Key\nYour API key signs requests.",
    ),
    (
        "wallet-recovery-phrase-label",
        # (unquoted after its label: the rest of the line)
        _lazy(
            lambda: " ".join(random.Random(rnd(8)).choice(BIP39_SAMPLE) for _ in range(12)),
            "Secret Recovery Phrase: ",
            "\nNetwork: mainnet",
        ),
        "a wallet's recovery phrase",
        "Recovery phrase: never share the words with anyone who asks for them here online now",
    ),
    (
        "wallet-wif-key",
        # (its shape only: the names and the command read it, not its checksum)
        _lazy(lambda: "5K" + rnd(49, BASE58_ALPHABET), "bitcoin-cli importprivkey ", ""),
        "a private key",
        'bitcoin-cli importprivkey "$WIF"; wifi: guest-network-5GHz',
    ),
    (
        "qualified-name",
        # (a credential's name, then which of its kind: an environment, a version, a side)
        _lazy(lambda: "Pw9" + rnd(11), "DB_PASSWORD_PROD=", "\nDB_HOST_PROD=db.internal"),
        "a password",
        "TOKEN_EXPIRY=3600\nPASSWORD_MIN_LENGTH=12\nAPI_KEY_ID=k-1842\nSORT_KEY_PROD=created",
    ),
    (
        "qualified-key-name",
        _lazy(lambda: "8f" + rnd(30, "0123456789abcdef"), "MJ_APIKEY_PRIVATE=", ""),
        "an API key",
        "MJ_APIKEY_PUBLIC=9a1c0e4f2b7d8e3a5c6b1f0e9d8c7b6a\nAPI_KEY_NAME_V2=billing",
    ),
    (
        "dotnet-user-secrets",
        _lazy(lambda: "sk9" + rnd(29), 'dotnet user-secrets set "Stripe:SecretKey" "', '"'),
        "a secret",
        'dotnet user-secrets set "Logging:LogLevel:Default" "Information"; '
        'dotnet user-secrets set "Stripe:SecretKey" "$STRIPE_SECRET_KEY"',
    ),
    (
        "paired-strings-key-in-one-case",
        # (a key generated in lower case and digits, as Datadog's and Codecov's are)
        _lazy(
            lambda: "4d" + rnd(38, string.ascii_lowercase + string.digits),
            'System.setProperty("DATADOG_API_KEY", "',
            '");',
        ),
        "an API key",
        "keys = ['api_key', 'api_key_v2_enabled_setting']; "
        "put('token', 'token_refresh_interval_seconds'); "
        'headers.put("X-Api-Key", "x-api-key-header-name-v2")',
    ),
    (
        "null-coalescing-assignment",
        _lazy(lambda: "k9" + rnd(30), "$config['stripe_api_key'] ??= '", "';"),
        "an API key",
        "$config['stripe_api_key'] ??= getenv('STRIPE_API_KEY');",
    ),
    (
        "or-assignment",
        _lazy(lambda: "t0" + rnd(30), 'ENV["GITLAB_TOKEN"] ||= "', '"'),
        "an access token",
        'ENV["GITLAB_TOKEN"] ||= fetch_token(); password || die "no password"',
    ),
    (
        "prose-name-then-key",
        # (every other letter a capital: a random draw of mostly small letters may read as an
        # identifier's words, SessionTokenProvider2Factory, 0.07% of them; led by both cases
        # and a digit, as a draw with no small letter on an even place is in capitals)
        _lazy(
            lambda: "aB3" + "".join(c.upper() if i % 2 else c for i, c in enumerate(rnd(29))),
            "the staging API token ",
            " was pasted in the ticket",
        ),
        "an access token",
        "the public key MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE, sort key created_at_timestamp, "
        "token 4f3c2a9b8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b, the access token expiresInSeconds3600, "
        "session token SessionTokenProvider2Factory",
    ),
    (
        "prose-name-then-key-in-brackets",
        _lazy(
            # (led by both cases and a digit: a draw whose small letters all fell on the odd
            # places, one in a few thousand, came out in capitals, a value of no key's shape)
            lambda: "aB3" + "".join(c.upper() if i % 2 else c for i, c in enumerate(rnd(29))),
            "The deploy token (",
            ") expires tomorrow.",
        ),
        "an access token",
        "the deploy token (see the vault) expires; the API token (rotated_every_thirty_days)",
    ),
    (
        "yaml-string-tag",
        _lazy(lambda: rnd(32), "service:\n  api_key: !!str ", "\n"),
        "an API key",
        "service:\n  api_key: !!str ${API_KEY}\n  port: !!str 8080\n  password: !!str\n",
    ),
    (
        "run-together-password-name",
        _lazy(lambda: "Pw9" + rnd(9), "dbpass=", "\n"),
        "a password",
        "bypass=true\ncompass: north\ntrespass=1\n",
    ),
    (
        "prose-colon-after-verb",
        _lazy(lambda: rnd(32), "the staging API key is: ", " (rotate monthly)"),
        "an API key",
        "the API key is: in the vault. The password was: reset yesterday.",
    ),
    # a user and a password a call takes: requests, aiohttp, smtplib, .NET, Apache, Java, JDBC
    (
        "basic-auth-call",
        _lazy(lambda: "Pw9" + rnd(9), 'requests.get(url, auth=HTTPBasicAuth("admin", "', '"))'),
        "a password",
        'HTTPBasicAuth("user", "pass"); smtp.login(user, password); ftp.login("anonymous", "")',
    ),
    (
        "login-call",
        _lazy(lambda: "Pw9" + rnd(9), 'server.login("reports@example.com", "', '")'),
        "a password",
        'client.login("admin", os.environ["PW"]); ftp.login("anonymous", "guest@example.com")',
    ),
    (
        "jdbc-connection",
        _lazy(lambda: "Pw9" + rnd(9), 'DriverManager.getConnection(url, "sa", "', '");'),
        "a password",
        'DriverManager.getConnection(url, props); getConnection(url, "sa", System.getenv("PW"))',
    ),
    (
        "jdbc-connection-url-literal",
        _lazy(
            lambda: "Pw9" + rnd(9),
            'DriverManager.getConnection("jdbc:postgresql://db:5432/shop", "ops", "',
            '");',
        ),
        "a password",
        'getConnection("jdbc:postgresql://db/shop", "ops", pw); getConnection("jdbc:h2:mem:")',
    ),
    # Oracle's user/password@database: JDBC's thin driver, SQL*Plus and Oracle's tools, CONNECT
    (
        "oracle-jdbc-thin",
        _lazy(lambda: "Pw9" + rnd(9), 'url = "jdbc:oracle:thin:shop/', '@db:1521/ORCLPDB1"'),
        "a password",
        'url = "jdbc:oracle:thin:@db:1521/ORCLPDB1"; jdbc:oracle:thin:shop/${DB_PASSWORD}@db',
    ),
    (
        "sqlplus-connect",
        _lazy(lambda: "Pw9" + rnd(9), "$ sqlplus -s shop/", "@ORCLPDB1 @nightly.sql"),
        "a password",
        "sqlplus / as sysdba\nsqlplus scott/tiger\nCONNECT shop/$SHOP_PASSWORD@ORCL\n"
        "connect the cable/adapter first; rman target /",
    ),
    (
        "oracle-tool-connect",
        _lazy(lambda: "Pw9" + rnd(9), "expdp system/", "@ORCLPDB1 schemas=shop dumpfile=shop.dmp"),
        "a password",
        'expdp system@ORCLPDB1 schemas=shop; impdp \\"/ as sysdba\\" full=y',
    ),
    # PHP's connections, and MySQLdb's: a host (PDO's DSN), the user, the password
    (
        "php-mysqli-connect",
        _lazy(lambda: "Pw9" + rnd(9), '$db = new mysqli("localhost", "shop", "', '", "shop");'),
        "a password",
        'mysqli_connect($host, $user, $pass); new mysqli("localhost", "root", "", "shop");\n'
        "mysql_connect('localhost', 'root', 'password');",
    ),
    (
        "php-pdo",
        _lazy(
            lambda: "Pw9" + rnd(9), '$pdo = new PDO("mysql:host=db;dbname=shop", "shop", "', '");'
        ),
        "a password",
        'new PDO($dsn, "shop", $password); new PDO("sqlite:/var/db/shop.sqlite");',
    ),
    (
        "mysqldb-connect",
        _lazy(lambda: "Pw9" + rnd(9), 'conn = MySQLdb.connect("db", "shop", "', '", "shop")'),
        "a password",
        'MySQLdb.connect(host, user, passwd, db); MySQLdb.connect("db", "shop", os.environ["PW"])',
    ),
    (
        "java-password-authentication",
        _lazy(
            lambda: "Pw9" + rnd(9),
            'return new PasswordAuthentication("proxy", "',
            '".toCharArray());',
        ),
        "a password",
        "return new PasswordAuthentication(user, pass.toCharArray());",
    ),
    # a command setting a credential's variable to the next word, and Redis's directives
    (
        "setx-variable",
        _lazy(lambda: rnd(32), 'setx API_KEY "', '"'),
        "an API key",
        'setx PATH "C:\\tools" & set -x PATH $PATH /opt/bin & set -euo pipefail',
    ),
    (
        "aws-configure-set",
        _lazy(lambda: rnd(40), "aws configure set aws_secret_access_key ", "\n"),
        "an AWS secret access key",
        "aws configure set region us-east-1 && aws configure set output json",
    ),
    (
        "git-config-token",
        _lazy(lambda: rnd(32), "git config --global github.token ", " && git push"),
        "an access token",
        'git config --global user.name "Jane Doe"; git config credential.helper store',
    ),
    (
        "gh-secret-set",
        _lazy(lambda: rnd(32), "gh secret set API_KEY --body ", "\n"),
        "an API key",
        'gh secret set API_KEY --body "$API_KEY"; gh secret set DEPLOY_KEY < key.pem',
    ),
    # a JSON Web Key's private part (RFC 7518 §6): an EC key's "d", as a JWKS file holds it
    (
        "jwk-private",
        _lazy(
            lambda: rnd(43, string.ascii_letters + string.digits + "-_"),
            '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvR'
            'VEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "d": "',
            '", "use": "sig"}]}',
        ),
        "a private key",
        '{"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvR'
        'VEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", "use": "sig"}]}',
    ),
    # a private key's body without its armour (an Ed25519 key's PKCS #8, as an environment
    # variable holds it)
    (
        "unarmoured-private-key",
        _lazy(
            lambda: base64.b64encode(
                bytes.fromhex("302e020100300506032b657004220420") + random.randbytes(32)
            ).decode(),
            "SIGNING_KEY_BODY=",
            "\n",
        ),
        "a private key",
        "MC4CAQAwBQYDK2VwBCIEI (the start of every Ed25519 key's PKCS #8)",
    ),
    # a long flag's value after a space, as an agent's transcript gives a tool its key
    (
        "credential-flag",
        _lazy(lambda: rnd(32), "$ mycli deploy --api-key ", " --region eu-west-1"),
        "an API key",
        "mycli deploy --api-key $API_KEY --token-file ./token.txt --key-vault-name prod",
    ),
    # a value told before its name
    (
        "value-before-name",
        _lazy(lambda: "Pw9" + rnd(13), "please use ", " as the password"),
        "a password",
        "use SHA256 as the password hash; it is known as the password manager",
    ),
    (
        "apache-setenv",
        _lazy(lambda: "Pw9" + rnd(12), "<VirtualHost *:80>\n    SetEnv DB_PASSWORD ", "\n"),
        "a password",
        "SetEnv APP_ENV production\nSetEnv DB_PASSWORD ${DB_PASSWORD}\nPassEnv DB_PASSWORD\n",
    ),
    (
        "nginx-fastcgi-param",
        _lazy(lambda: rnd(32), "location ~ \\.php$ {\n    fastcgi_param API_KEY ", ";\n}"),
        "an API key",
        "fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n"
        "fastcgi_param DB_PASSWORD $db_password;",
    ),
    (
        "redis-requirepass",
        _lazy(lambda: "Pw9" + rnd(12), "bind 127.0.0.1\nrequirepass ", "\n"),
        "a password",
        "# requirepass foobared\nrequirepass ${REDIS_PASSWORD}\nmasterauth <password>\n",
    ),
    # a password as a tool's flag: ssh-keygen -N, openssl enc -k, zip -P, 7z -p
    (
        "archive-password-flag",
        _lazy(lambda: "Pw9" + rnd(9), "zip -r -P ", " backup.zip data/"),
        "a password",
        'zip -P $ZIP_PASSWORD out.zip f; ssh-keygen -t ed25519 -N "" -f key; 7z a -p out.7z',
    ),
    (
        "ssh-keygen-passphrase",
        _lazy(lambda: "Pw9" + rnd(9), 'ssh-keygen -t ed25519 -N "', '" -f deploy_key'),
        "a password",
        "openssl enc -d -aes256 -k $KEY -in f; ssh-keygen -N '' -f key",
    ),
    (
        "gpg-passphrase-flag",
        _lazy(lambda: "Pw9" + rnd(9), "gpg --batch --yes --passphrase ", " -c backup.tar"),
        "a password",
        'gpg --batch --passphrase-file ./pp -c f; gpg --passphrase "$GPG_PASSPHRASE" -d f\n'
        "  --passphrase STRING   Use STRING as the passphrase.",
    ),
    # SQL Server's command-line tools: -P and the password (-p alone prints statistics)
    (
        "sqlcmd-password-flag",
        _lazy(lambda: "Pw9" + rnd(9), "sqlcmd -S db.example.com -U sa -P ", ' -Q "SELECT 1"'),
        "a password",
        "sqlcmd -S db -U sa -P $SA_PASSWORD -p; bcp dbo.t out t.dat -S db -U sa -P <password>",
    ),
    # SNMPv3's authentication and privacy passphrases (-A, -X), either first
    (
        "snmp-auth-passphrase",
        _lazy(lambda: "Au7" + rnd(11), "snmpwalk -v3 -u ops -a SHA -A ", " -x AES host"),
        "a password",
        "snmpwalk -v3 -u ops -l authPriv -a SHA -A $SNMP_AUTH -x AES -X <privacy> host\n"
        "snmpget -v2c -c public host sysUpTime.0\ntar -X exclude.txt -cf a.tar .",
    ),
    (
        "snmp-privacy-passphrase",
        _lazy(lambda: "Pr7" + rnd(11), "snmpget -v3 -u ops -A Au7xK2mQ9vL4pW -x AES -X ", " host"),
        "a password",
        "snmpget -v3 -u ops -A $AUTH -x AES -X ${PRIV} host",
    ),
    # an RDP client's password: FreeRDP's /p:, rdesktop's -p
    (
        "freerdp-password",
        _lazy(lambda: "Rd9" + rnd(11), "xfreerdp /v:host.example.com /u:ops /p:", " /cert:ignore"),
        "a password",
        "xfreerdp /v:host /u:admin /p:$RDP_PASSWORD\nxfreerdp /v:host /u:admin /p:<password>\n"
        "rdesktop -u admin -p - host",
    ),
    # NetworkManager's command line: a Wi-Fi network's password, a connection's pre-shared key
    (
        "nmcli-password",
        _lazy(lambda: "Wf7" + rnd(11), "nmcli dev wifi connect home-5G password ", " ifname wlan0"),
        "a password",
        "nmcli dev wifi connect home password $WIFI_PASSWORD\nnmcli --ask dev wifi connect home"
        " password\nnmcli con show --active",
    ),
    # a key named in a note with an ASCII dash between ("API key - …"), and by its service's
    # name in a sentence ("my OpenAI key is …"): a sort key, a primary key, a placeholder none
    (
        "api-key-after-dash",
        _lazy(lambda: rnd(32), "Staging API key - ", "\n"),
        "an API key",
        "API key - see the vault\nsort key - createdAtDescendingOrder2024Idx\nAPI key - ${API_KEY}",
    ),
    (
        "service-key-told",
        _lazy(lambda: rnd(40), "fyi my OpenAI key is ", " so rotate it"),
        "an API key",
        "the sort key is createdAtDescendingOrder2024Idx, the partition key is "
        "tenantIdAndRegion2024Index, my key is in the drawer",
    ),
    # an Azure DevOps personal access token after its name alone: "PAT: …", `--pat …`
    (
        "ado-pat-labelled",
        _lazy(lambda: "a7" + rnd(50, "abcdefghijklmnopqrstuvwxyz234567"), "PAT: ", "\n"),
        "a service's API key or token",
        "path: abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstu\n"
        "pattern abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrstu",
    ),
    # a cookie named in a sentence, its pair after it
    (
        "cookie-in-sentence",
        _lazy(lambda: "sessionid=" + rnd(32), "I copied the cookie ", " from the browser"),
        "a cookie",
        "the cookie SameSite=None is set; the cookie _ga=GA1.2.1234567890.1234567890 counts "
        "visits; the cookie path=/docs/api/v2/reference/index",
    ),
    # a user and a password after "credentials are"
    (
        "credentials-are-pair",
        _lazy(lambda: "Cr9" + rnd(8) + "!", "the credentials are admin/", " for now"),
        "a password",
        "credentials are stored in vault/secrets-prod; credentials are in ops/Config-v2a",
    ),
    # a package manager's or a tool's command given its credential, as its documentation
    # writes it: a token, or a password after its user
    (
        "ngrok-authtoken",
        _lazy(lambda: rnd(27) + "_" + rnd(21), "ngrok config add-authtoken ", "\n"),
        "an access token",
        "ngrok config add-authtoken $NGROK_AUTHTOKEN\nngrok config add-authtoken <token>",
    ),
    (
        "cargo-login",
        _lazy(lambda: rnd(32), "cargo login ", " && cargo publish"),
        "an access token",
        "cargo login\ncargo login --registry internal\ncargo login $CARGO_REGISTRY_TOKEN",
    ),
    (
        "nuget-api-key",
        _lazy(lambda: "oy2" + rnd(43), "dotnet nuget push pkg.nupkg -k ", " -s nuget.org"),
        "an access token",
        "dotnet nuget push pkg.nupkg -k $NUGET_KEY -s nuget.org\nnuget setapikey <key>",
    ),
    (
        "vsce-pat",
        _lazy(
            lambda: "a7" + rnd(50, "abcdefghijklmnopqrstuvwxyz234567"), "npx vsce publish -p ", "\n"
        ),
        "an access token",
        "npx vsce publish -p $VSCE_PAT\nnpx ovsx publish -p ${{ secrets.OVSX_PAT }}",
    ),
    (
        "composer-github-oauth",
        _lazy(lambda: rnd(40), "composer config -g github-oauth.github.com ", "\n"),
        "an access token",
        "composer config -g github-oauth.github.com $GITHUB_TOKEN\n"
        "composer config minimum-stability dev",
    ),
    (
        "poetry-http-basic",
        _lazy(lambda: "Pt7" + rnd(9) + "!", "poetry config http-basic.corp ci-bot ", "\n"),
        "a password",
        "poetry config http-basic.corp ci-bot $PASSWORD\npoetry config virtualenvs.in-project true",
    ),
    (
        "twine-password",
        _lazy(lambda: "Tw7" + rnd(9) + "!", "twine upload -u ci -p ", " dist/*"),
        "a password",
        "twine upload -u __token__ -p ${{ secrets.PYPI_TOKEN }} dist/*\ntwine upload dist/*",
    ),
    (
        "wpa-passphrase",
        _lazy(lambda: "Wp7" + rnd(9) + "!", "wpa_passphrase home-5G ", " >> wpa.conf"),
        "a password",
        "wpa_passphrase home-5G < passphrase.txt\nwpa_passphrase $SSID $PASSPHRASE",
    ),
    (
        "npm-config-set-token",
        _lazy(lambda: rnd(36), "npm config set //npm.corp.example/:_authToken ", "\n"),
        "an npm registry credential",
        "npm config set //npm.corp.example/:_authToken ${NPM_TOKEN}\nnpm config set fund false",
    ),
    # an Expect script's answer to a password's prompt
    (
        "expect-send-password",
        _lazy(
            lambda: "Ex7" + rnd(9) + "!", 'spawn ssh ops@db\nexpect "password:"\nsend "', '\\r"\n'
        ),
        "a password",
        'expect "password:"\nsend "$pw\\r"\nexpect "password:"\nsend "[exec cat pw]\\r"\n'
        'expect "login:"\nsend "admin\\r"',
    ),
    # a mail client's configuration: msmtp's "password …" opening its line, fetchmail's "user …
    # password …" ending it; a ticket's title is none
    (
        "msmtp-password",
        _lazy(
            lambda: "Ms7" + rnd(9) + "!", "account default\nhost smtp.example.com\npassword ", "\n"
        ),
        "a password",
        "password reset\nusername jdoe password reset\nthe password Xk9mQ2vL7p!a is old"
        "\npassword required",
    ),
    (
        "fetchmail-password",
        _lazy(
            lambda: "Fm7" + rnd(9) + "!",
            "poll mail.example.com protocol imap user bob password ",
            "\n",
        ),
        "a password",
        "user bob password reset\npoll mail.example.com user bob password $PW",
    ),
    # strongSwan's ipsec.secrets: a pre-shared key quoted after PSK
    (
        "ipsec-psk",
        _lazy(lambda: "Ps7" + rnd(9) + "!", '10.0.0.1 : PSK "', '"\n'),
        "a secret",
        '10.0.0.1 : PSK "%any"\nthe psk "changeme" is a default',
    ),
    # XML naming its credential in an attribute: Spring's, Ant's and PHPUnit's value attribute,
    # Hibernate's, Java's properties' and Android's element text, .NET's <value>
    (
        "xml-named-attribute",
        _lazy(lambda: "Pw9" + rnd(9), '<bean><property name="db.password" value="', '"/></bean>'),
        "a password",
        '<property name="db.password" value="${db.password}"/> <input name="password" '
        'type="password" value=""> <add key="ApiKeyHeader" value="X-Api-Key"/>',
    ),
    # an Apple property list's pair, the key's name in <key>, its value in the <string> after it
    (
        "plist-pair",
        _lazy(lambda: rnd(32), "<dict>\n\t<key>APIKey</key>\n\t<string>", "</string>\n</dict>"),
        "an API key",
        "<key>APIKey</key><string>$(API_KEY)</string> <key>CFBundleName</key>"
        "<string>Ledger2024ReconcileAppBundle9</string>",
    ),
    # ... and KeePass's export: <Key>Password</Key>, then <Value ProtectInMemory="True">
    (
        "keepass-xml-pair",
        _lazy(
            lambda: "Kp7" + rnd(9) + "!",
            '<Entry><String><Key>Password</Key><Value ProtectInMemory="True">',
            "</Value></String></Entry>",
        ),
        "a password",
        "<String><Key>Title</Key><Value>Ledger2024Reconcile!x</Value></String>"
        '<String><Key>Password</Key><Value ProtectInMemory="True"></Value></String>',
    ),
    (
        "xml-named-text",
        _lazy(lambda: rnd(32), '<resources>\n  <string name="api_key">', "</string>\n"),
        "an API key",
        '<string name="password_hint">Enter your password</string> <entry key="password">'
        '</entry> <setting name="Password"><value>${PASSWORD}</value></setting>',
    ),
    (
        "json-in-text",
        _lazy(lambda: rnd(32), '{"client_secret": "', '"}'),
        "a secret",
        '{"client_secret": "***", "client_id": "ledger-app"}',
    ),
    (
        "html-escaped-json",
        _lazy(lambda: rnd(32), "<pre>{&quot;client_secret&quot;: &quot;", "&quot;}</pre>"),
        "a secret",
        "{&quot;client_secret&quot;: &quot;***&quot;, &quot;client_id&quot;: &quot;ledger-app"
        "&quot;} Tom &amp; Jerry; &lt;b&gt;password&lt;/b&gt; is required",
    ),
    (
        "html-escaped-xml-element",
        _lazy(lambda: "Xk9#" + rnd(10), "&lt;password&gt;", "&lt;/password&gt;"),
        "a password",
        "&lt;password&gt;${DB_PASSWORD}&lt;/password&gt; &lt;password/&gt;",
    ),
    (
        "connection-string",
        _lazy(lambda: "P@ss" + rnd(8), "Server=db;Database=ledger;User Id=sa;Password=", ";"),
        "a password",
        "Server=db;Database=ledger;Integrated Security=true;",
    ),
    (
        "prose-password",
        _lazy(lambda: "Wint3r-2026!", "the service password: ", " (from the runbook)"),
        "a password",
        "The password: see the vault entry. The token expired; ask the user to reset the password.",
    ),
    # "pass" after what it opens, as a chat says it
    (
        "prose-qualified-pass",
        _lazy(lambda: "Db7" + rnd(11), "fyi the db pass is ", " btw"),
        "a password",
        "the db pass is valid until Friday; my boarding pass is A12B34C; the admin pass is 24h; "
        "the test pass is 98%; second pass is b2c3d4e5f6; the wifi pass is on the fridge",
    ),
    (
        "prose-password-relative-clause",
        _lazy(lambda: "Qw7" + rnd(9) + "!", "The password you need is ", " (rotate it after)"),
        "a password",
        "The password you entered is incorrect. The password they use is stored in vault2.",
    ),
    # ... how it came to be between: "the access token returned was …"
    (
        "prose-token-returned",
        _lazy(lambda: rnd(32), "The access token returned by the auth server was ", "."),
        "an access token",
        "The token returned was invalid; the key generated is stored in the vault.",
    ),
    (
        "prose-password-used",
        _lazy(lambda: "Qw7" + rnd(9) + "!", "the password used was ", " (rotate it)"),
        "a password",
        "the password used was too short; the password provided was incorrect",
    ),
    (
        "prose-password-to-log-in",
        _lazy(lambda: "Qw7" + rnd(9), "Use this password to log in: ", "\n"),
        "a password",
        "Use this password to log in: the one in the vault",
    ),
    (
        "prose-token-you-asked-for",
        _lazy(lambda: rnd(32), "Here's the token you asked for: ", " — it expires Friday."),
        "an access token",
        "the token you need is in the vault: see ticket OPS-1234",
    ),
    (
        "authorization-header-in-a-sentence",
        _lazy(lambda: "Splunk " + rnd(32), "We sent Authorization: ", " to the collector."),
        "an Authorization header value",
        "Send Authorization: Bearer tokens only over TLS; Authorization: Basic is disabled.",
    ),
    (
        "authorization-header-ending-a-sentence",
        _lazy(lambda: "ApiKey " + rnd(40), "The header was Authorization: ", "."),
        "an Authorization header value",
        "Authorization: Bearer <token> is what it takes, or Authorization: Bearer $TOKEN.",
    ),
    (
        "user-and-password-in-prose",
        _lazy(lambda: "Qw7" + rnd(9) + "!", "login: admin / ", " (rotate it after the demo)"),
        "a password",
        "login / logout buttons; login: admin / settings page; the user guide (docs / chapter12)",
    ),
    (
        "user-and-password-after-creds",
        _lazy(lambda: "Qw7" + rnd(9) + "!", "creds svc-deploy:", " (rotate it after the demo)"),
        "a password",
        "credentials for db.example.com:5432; creds at vault:secret/data/app; credentials "
        "(see host:port); login: admin:settings; creds: see 1Password:Engineering",
    ),
    (
        "password-after-with-in-prose",
        _lazy(lambda: "Qw7" + rnd(11), "Sign in as admin with password ", " and go on."),
        "a password",
        "Sign in with password reset links, and password policy2024 updates; log in via SSO / "
        "SAML2.0-Flow; account: ops/App-Config-v2; credentials (Tobias) [nodejs-private/pr#505]",
    ),
    (
        "password-after-use-in-prose",
        _lazy(lambda: "Qw7" + rnd(11), "For the staging box use password ", " to log in."),
        "a password",
        "Use password reset links; using password managers2024 is advised; use the password "
        "********; use password: ${DB_PASSWORD}",
    ),
    (
        "password-quoted-after-its-name",
        _lazy(
            lambda: "Xk9#" + rnd(10),
            "repositories { maven { credentials { username 'deployer'; password '",
            "' } } }",
        ),
        "a password",
        "Pass 'accept_downloads=True'; password \"${nexusPassword}\"; password 'Invalid'; "
        "Password 'Abc' is too short; password \"must be at least 12 characters\"",
    ),
    (
        "token-quoted-after-its-name",
        _lazy(lambda: rnd(32), "auth failed for token '", "' at 10:42"),
        "an access token",
        "SyntaxError: unexpected token 'identifier123'; secret \"aws-ebs-csi-driver-sa-token-"
        "2b9xq\" created; the key 'LastModifiedDate'; token 'YOUR_TOKEN_HERE'",
    ),
    (
        "api-key-in-prose",
        _lazy(lambda: rnd(32, "0123456789abcdef"), "The staging API key is ", "."),
        "an API key",
        "The idempotency key is 7f3a9c2e1b4d8f6a0c5e2d9b7a1f3c8d; the api key is in the vault.",
    ),
    (
        "header-name-then-key-in-prose",
        _lazy(lambda: rnd(32, "0123456789abcdef"), "We call it with X-API-Key ", " each time."),
        "an API key",
        "The X-API-Key header must be set; X-Idempotency-Key 7f3a9c2e1b4d8f6a0c5e2d9b7a1f3c8d",
    ),
    (
        "token-for-an-app-in-prose",
        _lazy(lambda: rnd(28), "the deploy token for the ledger app was ", ", as the log shows"),
        "an access token",
        "the token is valid until tomorrow; the token was redacted-in-logs-for-safety",
    ),
    (
        "markdown-table-row",
        _lazy(lambda: "Qw7" + rnd(11), "| name | value |\n|---|---|\n| DB_PASSWORD | ", " |"),
        "a password",
        "| Parameter | Type |\n|---|---|\n| password | string |\n| max_tokens | 4096 |",
    ),
    (
        "markdown-table-column",
        _lazy(lambda: rnd(32), "\n| service | api_key |\n| --- | --- |\n| ledger | `", "` |"),
        "an API key",
        "| user | password |\n| --- | --- |\n| app | (in the vault) |\n| ops | hunter |",
    ),
    (
        "setter-argument",
        _lazy(lambda: "Qw7" + rnd(11), 'ds.setPassword("', '");'),
        "a password",
        'keyring.get_password("ledger-admin"); ds.setPassword(password); ds.setUsername("admin")',
    ),
    (
        "builder-argument",
        _lazy(lambda: rnd(32), 'Client.builder().apiKey("', '").build()'),
        "an API key",
        'verify_password("hunter22"); resp.setHeader("X-Token", token); x.setKey("user_id")',
    ),
    (
        "yaml-block-scalar",
        _lazy(lambda: "Qw7" + rnd(11), "db:\n  password: |\n    ", "\n  host: db"),
        "a password",
        "notes: |\n  The password: |\n  is a pipe\npassword: |\n  line one\n  line two\n",
    ),
    (
        "sql-insert-column",
        _lazy(
            lambda: "Qw7" + rnd(11), "INSERT INTO users (name, password) VALUES ('app', '", "');"
        ),
        "a password",
        "INSERT INTO users (name, password) VALUES ('app', 'x'), ('ops', :pw); -- fixtures",
    ),
    (
        "terraform-variable-default",
        _lazy(lambda: "Qw7" + rnd(11), 'variable "db_password" {\n  default = "', '"\n}'),
        "a password",
        'variable "db_password" {\n  sensitive = true\n}\n'
        'variable "region" {\n  default = "eu1"\n}',
    ),
    # a YAML mapping named for a credential, its value one level down
    (
        "yaml-cloudformation-default",
        _lazy(
            lambda: "Qw7" + rnd(13),
            "Parameters:\n  DBPassword:\n    Type: String\n    NoEcho: true\n    Default: ",
            "\n  Region:\n    Type: String\n",
        ),
        "a password",
        "Parameters:\n  DBPassword:\n    Type: String\n    NoEcho: true\n"
        "  Region:\n    Type: String\n    Default: eu-west-1\n",
    ),
    (
        "yaml-wrapped-value",
        _lazy(lambda: "Qw7" + rnd(13), "parameters:\n  adminPassword:\n    value: '", "'\n"),
        "a password",
        "parameters:\n  adminPassword:\n    reference:\n      secretName: admin\n"
        "  vmSize:\n    value: Standard_B2s\n",
    ),
    # a network device's configuration
    (
        "ios-user-password",
        _lazy(
            lambda: "Qw7" + rnd(9),
            "hostname edge-1\nusername netops privilege 15 password 0 ",
            "\n!",
        ),
        "a password",
        "enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0\n"
        "username admin secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM\n"
        "The username field and password field are required.\n"
        "Log in with a username and password without a web browser.",
    ),
    (
        "ios-type-7",
        _lazy(
            lambda: rnd(12, "0123456789ABCDEF"), "line vty 0 4\nusername backup password 7 ", "\n"
        ),
        "a password",
        "username backup password 7 <type-7 string>\n",
    ),
    (
        "ios-snmp-community",
        _lazy(lambda: "Qw7" + rnd(9), "snmp-server community ", " RW\nsnmp-server location dc1"),
        "a password",
        "snmp-server community public RO\nsnmp-server community ${SNMP_COMMUNITY} RW",
    ),
    (
        "ios-server-key",
        _lazy(lambda: "Qw7" + rnd(9), "tacacs-server host 10.1.1.1 key ", "\n"),
        "a password",
        "radius-server host 10.1.1.2 auth-port 1812\ncrypto isakmp policy 10",
    ),
    # a command that stores a secret: its value is one, whatever its name
    (
        "az-keyvault-secret-set",
        _lazy(
            lambda: "Qw7" + rnd(13),
            "az keyvault secret set --vault-name kv-prod --name ledger-db --value ",
            " --output none",
        ),
        "a secret",
        'az keyvault secret set --vault-name kv-prod --name ledger-db --value "$DB_PASSWORD"\n'
        "az keyvault secret set --vault-name kv-prod --name ledger-db --file secret.txt",
    ),
    (
        "aws-ssm-secure-string",
        _lazy(
            lambda: "Qw7" + rnd(13),
            "aws ssm put-parameter --name /ledger/db --type SecureString --value '",
            "' --overwrite",
        ),
        "a secret",
        "aws ssm put-parameter --name /ledger/region --type String --value eu-west-1",
    ),
    (
        "aws-secretsmanager-secret-string",
        _lazy(
            lambda: "Qw7" + rnd(13),
            "aws secretsmanager create-secret --name ledger/api --secret-string ",
            "",
        ),
        "a secret",
        "aws secretsmanager create-secret --name ledger/api --secret-string file://secret.json",
    ),
    (
        "net-user-password",
        _lazy(lambda: "Qw7" + rnd(9), "net user svc-backup ", " /add /y"),
        "a password",
        "net user svc-backup * /add\nnet user admin /active:yes\nthe net user count is 500",
    ),
    (
        "lftp-user-password",
        _lazy(lambda: "Qw7" + rnd(9), "lftp -u deploy,", " sftp://files.example.com"),
        "a password",
        "lftp -u deploy sftp://files.example.com",
    ),
    # a JSON text holding what its text alone cannot pair: a tool's output captured whole
    (
        "json-parameter-store",
        _lazy(
            lambda: "Qw7" + rnd(11),
            '{\n    "Parameter": {\n        "Name": "/prod/ledger/db/password",\n'
            '        "Type": "SecureString",\n        "Value": "',
            '",\n        "Version": 3\n    }\n}',
        ),
        "a password",
        '{"Parameter": {"Name": "/prod/ledger/db/host", "Type": "String", '
        '"Value": "db.internal.example", "Version": 3}}',
    ),
    (
        "json-arm-parameters",
        _lazy(
            lambda: "Qw7" + rnd(11),
            '{"contentVersion": "1.0.0.0", "parameters": {"adminUsername": {"value": "azureuser"},'
            ' "adminPassword": {"value": "',
            '"}}}',
        ),
        "a password",
        '{"parameters": {"adminPassword": {"reference": {"keyVault": {"id": "/subscriptions/'
        'x/vaults/kv"}, "secretName": "adminPassword"}}, "sku": {"value": "Standard"}}}',
    ),
    (
        "json-password-manager-field",
        _lazy(
            lambda: "Qw7" + rnd(11),
            'op item get: {"fields": [{"id": "username", "label": "username", "value": "svc"}, '
            '{"id": "password", "type": "CONCEALED", "label": "password", "value": "',
            '"}]}',
        ),
        "a password",
        '{"options": [{"label": "Password", "value": "password"}, {"label": "API key", '
        '"value": "api_key"}], "default": "password"}',
    ),
    (
        "html-password-input",
        _lazy(lambda: "Qw7" + rnd(11), '<input type="password" name="pw" value="', '">'),
        "a password",
        '<input type="password" value=""> <input type="text" name="user" value="admin2024">',
    ),
    (
        "password-for-what-colon",
        _lazy(lambda: "Kx8" + rnd(10), "Temporary password for the portal: ", " (expires Friday)"),
        "a password",
        "Remember the password for the portal: see the vault. "
        "The password for the portal: MUST be 12 characters.",
    ),
    (
        "password-changed-to",
        _lazy(lambda: "Kx8" + rnd(10), "I changed the wifi password to ", " yesterday"),
        "a password",
        "Send the password to the customer by phone; the key to success is persistence.",
    ),
    (
        "password-dash-or-arrow",
        _lazy(lambda: "Kx8" + rnd(10), "Wi-Fi (guest)\nPassword -> ", "\nVPN: see the vault"),
        "a password",
        "Password - forgot it, ask IT\npassword -> see the vault\npassword - 12 characters minimum",
    ),
    (
        "passcode-label",
        _lazy(lambda: "Kx8" + rnd(10), "Door passcode: ", "\n"),
        "a password",
        "Your one-time passcode: 482913",
    ),
    (
        "password-reset-to",
        _lazy(lambda: "Kx8" + rnd(10), "Hi, the admin password was reset to ", " as you asked."),
        "a password",
        "the password was reset to the default; password set to expire in 90 days",
    ),
    (
        "key-rotated-to",
        _lazy(lambda: rnd(32), "the API key was rotated to ", " on Monday"),
        "an API key",
        "the API key was rotated to a new one last week; the key was reset to 12345678",
    ),
    (
        "pw-label",
        _lazy(lambda: "Kx8#" + rnd(10), "staging box\nuser: deploy\nroot pw: ", "\n"),
        "a password",
        "pw: 100\npw: 12px\npw = getpass()\npw: PathBuf",
    ),
    (
        "pre-shared-key",
        _lazy(lambda: rnd(24), "IPsec tunnel to the branch office\nPSK: ", "\n"),
        "a secret",
        "psk: 100; psk = read_psk(path); the PSK is in the vault",
    ),
    (
        "password-told-quoted",
        _lazy(lambda: "Kx8" + rnd(10), "2. Ensure the password for user 'postgres' is '", "'."),
        "a password",
        "the password is \"centipede\"; the password is 'rotated monthly'; the password is ''",
    ),
    (
        "powershell-password-parameter",
        _lazy(
            lambda: "Kx8#" + rnd(10),
            "Connect-VIServer vc01 -User admin@vsphere.local -Password '",
            "'",
        ),
        "a password",
        "New-LocalUser -Name svc -Password $secure; use the -Password parameter to pass it",
    ),
    (
        "psexec-password",
        _lazy(
            lambda: "Kx8" + rnd(11), "PsExec.exe \\\\10.0.0.5 -u CORP\\svc -p ", " cmd /c ipconfig"
        ),
        "a password",
        "psexec \\\\host -u admin -p %PASSWORD% cmd; psexec -s -i cmd",
    ),
    (
        "plink-password",
        _lazy(lambda: "Kx8" + rnd(11), "plink -ssh root@10.0.0.9 -pw ", " uptime"),
        "a password",
        "plink -ssh root@host -i key.ppk uptime; pscp -pw $PW file root@host:/tmp",
    ),
    (
        "php-property-assignment",
        _lazy(
            lambda: "un!" + rnd(10).lower(),
            "$mail->Username = 'ops@example.com';\n$mail->Password   = '",
            "';",
        ),
        "a password",
        "$mail->Password = $_ENV['SMTP_PASSWORD']; $mail->Password = getenv('X'); the password = x",
    ),
    (
        "wireguard-preshared-key",
        _lazy(lambda: rnd(43) + "=", "[Peer]\nPublicKey = " + rnd(43) + "=\nPresharedKey = ", "\n"),
        "a secret",
        "[Peer]\nPublicKey = " + rnd(43) + "=\nPresharedKey = [the shared key]\n",
    ),
    (
        "directory-entry-credentials",
        _lazy(
            lambda: "Kx8" + rnd(10),
            'var entry = new DirectoryEntry("LDAP://dc01.corp.example",'
            '\n    "CORP\\\\svc-ldap",\n    "',
            '");',
        ),
        "a password",
        'new DirectoryEntry("LDAP://dc01", user, pass); new DirectoryEntry("LDAP://dc01")',
    ),
    (
        "comparison-with-a-literal",
        _lazy(lambda: "Kx8" + rnd(10), 'if username == "admin" and password == "', '":'),
        "a password",
        'if token == "Bearer": ...; if key != "Enter": ...; if password == confirm_password:',
    ),
    (
        "token-after-what-is-done-with-it",
        # (a capital and a digit in its middle too: one draw in 20,000 of 24 random characters
        # has few capitals and vowel-rich runs, and reads as an identifier's words)
        _lazy(
            lambda: "Kx8" + rnd(10) + "4Rq" + rnd(8),
            "then call the ledger API with token ",
            " and retry",
        ),
        "an access token",
        "with token SessionTokenProvider2Factory; use token ids 12 to 40; sort with key "
        "itemgetter2; with the key RSA_PKCS1_PADDING2048",
    ),
    (
        "password-label-in-german-or-french",
        _lazy(
            lambda: "Kx8" + rnd(10),
            "Zugangsdaten des Kunden\nNeues Passwort: ",
            "\nmot de passe : x",
        ),
        "a password",
        "Passwort: ändern Sie es; mot de passe : oublié; passe: Kx8pQ2vL9zkR",
    ),
    # Indonesian's, two words ("Sandi:" alone names a person in a chat's transcript)
    (
        "password-label-in-indonesian",
        _lazy(lambda: "Kx8" + rnd(10), "Akun server\nkata sandi: ", "\nterima kasih"),
        "a password",
        "Sandi: thanks\nSandi: ok, see you\nkata sandi: ${DB_PASSWORD}",
    ),
    (
        "password-label-in-another-language",
        _lazy(
            lambda: "Kx8" + rnd(10),
            "Cliente 4411, acesso ao banco\nusuario: app\nsenha: ",
            "\nKennwort: ${DB_PASSWORD}",
        ),
        "a password",
        "senha: ********; contrasena: ${DB_PASS}; wachtwoord: <wachtwoord>; the passord field; "
        "Kennwort vergessen",
    ),
    (
        "key-named-as-a-label",
        _lazy(lambda: rnd(32), "Support ticket 4411\nAPI key: ", "\nPlan: business"),
        "an API key",
        "sort key: "
        + "Ab3" * 8
        + "\nPrimary key: user_id\nPublic key: "
        + "Ab3" * 8
        + "\nPublic API key: pk_"
        + "Ab3" * 8
        + "\nNEXT_PUBLIC_API_KEY="
        + "Ab3" * 8,
    ),
    (
        "private-key-as-a-label",
        _lazy(lambda: rnd(64, "0123456789abcdef"), "wallet export\nPrivate key: 0x", "\n"),
        "a private key",
        "Partition key: tenantId; the key: " + "Ab3" * 8 + "; Foreign key: orders.customer_id",
    ),
    (
        "azure-sas-signature-alone",
        _lazy(
            # (led by a letter past F: a draw led by two hex digits, "sig=3DLM…", reads as a
            # quoted-printable escape, =3D, one in a few thousand)
            lambda: ("Q" + rnd(19) + "+" + rnd(22) + "=").replace("+", "%2B").replace("=", "%3D"),
            "the SAS's signature was sig=",
            " (rotate the account key)",
        ),
        "a signed URL",
        "sig = sign(msg); sig=abc123; sig=" + "Ab3" * 14 + "x; signature=unsigned",
    ),
    (
        "tab-separated-listing",
        _lazy(lambda: "Ab3#" + rnd(12), "name\tvalue\nDB_PASSWORD\t", "\nDB_USER\tledger"),
        "a password",
        "password\tstring\trequired\nToken\t*oauth2.Token\napi_key\t****\ntoken\tchangeme",
    ),
    (
        "tab-separated-row-of-more-columns",
        _lazy(
            lambda: "Ab3#" + rnd(12),
            "environment\tname\tvalue\tupdated\nproduction\tDB_PASSWORD\t",
            "\t2024-06-01\nproduction\tDB_USER\tledger\t2024-06-01",
        ),
        "a password",
        "field\tpassword\tstring\trequired\nprod\tapi_key\t****\t2024-06-01\n"
        "staging\ttoken\tchangeme\tnever\nuser\tpassword\temail",
    ),
    (
        "vault-kv-get-table",
        _lazy(
            lambda: rnd(32),
            "====== Data ======\nKey              Value\n---              -----\napi_key          ",
            "\nusername         ledger",
        ),
        "an API key",
        "Key    Value\n---    -----\npassword    ${DB_PASSWORD}\ntoken    expires in an hour",
    ),
    # Java's properties set a value after one space too (a name with a dot or an underscore:
    # "Password reset" and "Token expired" are a line of prose)
    (
        "properties-space",
        _lazy(
            lambda: "Pw9" + rnd(12),
            "# mail\nmail.smtp.host smtp.example.com\nmail.smtp.password ",
            "\nmail.smtp.port 587",
        ),
        "a password",
        "mail.smtp.password ${SMTP_PASSWORD}\nPassword reset2\nToken Exchange2\n"
        "user_password VARCHAR(255),\n\tDB_Password string\ndb.password changeme",
    ),
    (
        "csv-credential-column",
        _lazy(lambda: "Qw7" + rnd(11), "\nname,password\napp,", "\n"),
        "a password",
        "id,password,notes\n1,hunter,none\nUse the password, then the token.\nIt is, of course.",
    ),
    # ... its names quoted, as an export writes them; or between semicolons (a spreadsheet's
    # export where the comma marks decimals), or tabs (a table pasted from one)
    (
        "csv-quoted-credential-column",
        _lazy(lambda: "Qw7" + rnd(11), '\n"id","name","password"\n"1","app","', '"\n'),
        "a password",
        '"id","password","notes"\n"1","hunter","none"\n"a";"password"\n"b";"reset"',
    ),
    (
        "semicolon-credential-column",
        _lazy(lambda: rnd(32), "\nservice;api_key;owner\nledger;", ";ops\n"),
        "an API key",
        "service;api_key;owner\nledger;${LEDGER_KEY};ops\na;password\nb;hunter",
    ),
    (
        "tab-credential-column",
        _lazy(lambda: "Tb7" + rnd(11), "\nuser\tpassword\tnotes\nbob\t", "\tnew hire\n"),
        "a password",
        "user\tpassword\tnotes\nbob\t<see vault>\tnone\nann\treset\tnone",
    ),
    (
        "cookie-header",
        _lazy(lambda: rnd(32), "Cookie: sessionid=", "; theme=dark"),
        "a cookie",
        "Cookie: theme=dark; lang=en",
    ),
    (
        "password-in-a-query",
        _lazy(lambda: "Wint3r" + rnd(6), "https://legacy.example/login.cgi?user=ops&pass="),
        "a password",
        "https://legacy.example/login.cgi?user=ops&pass=1&remember=true&pw=no",
    ),
    (
        "session-in-a-url",
        _lazy(lambda: rnd(32), "https://legacy.example/app;jsessionid=", "?step=2"),
        "an access token",
        "https://legacy.example/app?sessionid=abc&page=2",
    ),
    (
        "password-in-a-sentence",
        _lazy(lambda: "Wint3r-2026!", "Customer wrote: my password is ", " please fix it"),
        "a password",
        "The password is rotated monthly; the passcode was 12 digits long.",
    ),
    (
        "password-for-whom-in-a-sentence",
        _lazy(lambda: "Zx9" + rnd(9), "The password for the admin account is ", " today"),
        "a password",
        "The password for the admin account is rotated monthly; ask the controller.",
    ),
    (
        "env-style-pass",
        _lazy(lambda: rnd(14), "export DB_PASS=", "\n"),
        "a password",
        "tests: pass=157 fail=0; export DB_PASS=$VAULT_DB_PASS",
    ),
    (
        "rails-secret-key-base",
        _lazy(lambda: rnd(64, "0123456789abcdef"), "SECRET_KEY_BASE=", "\n"),
        "a secret",
        "SECRET_KEY_BASE=${SECRET_KEY_BASE}",
    ),
    (
        "curl-password-without-user",
        _lazy(lambda: "Pw9" + rnd(9), "curl -u ':", "' https://localhost:9200"),
        "a password",
        "curl -u : https://x; curl -u ':' https://y",
    ),
    (
        "windows-net-use",
        _lazy(
            lambda: "Pw9" + rnd(9),
            "net use Z: \\\\srv\\share /user:corp\\admin ",
            " /persistent:no",
        ),
        "a password",
        "net use Z: \\\\srv\\share /user:corp\\admin * (it asks); net user /add",
    ),
    (
        "curl-user-password",
        _lazy(lambda: rnd(12), "ran: curl -s -X POST -u 'admin:", "' https://api.example/v1"),
        "a password",
        "ran: curl -s -u $API_USER:$API_PASSWORD https://api.example/v1; curl -u ops: https://x",
    ),
    (
        "mysql-attached-password",
        _lazy(lambda: rnd(12) + "!", "mysql -h db -u root -p", " ledger < dump.sql"),
        "a password",
        "mysql -h db -u root -p ledger < dump.sql (it asks for the password)",
    ),
    (
        "password-flag",
        _lazy(lambda: rnd(12), "pg_dumpall --host db --password=", " > all.sql"),
        "a password",
        "Pass it with the --password flag or --password-stdin, never --password=$PW.",
    ),
    (
        "sshpass",
        _lazy(lambda: rnd(12), "sshpass -p '", "' ssh deploy@host"),
        "a password",
        'sshpass -p "$DEPLOY_PW" ssh deploy@host',
    ),
    (
        "registry-login",
        _lazy(lambda: rnd(16), "docker login -u ci -p ", " registry.example"),
        "a password",
        "docker login -u ci --password-stdin registry.example < token.txt",
    ),
    (
        "redis-cli-auth",
        _lazy(lambda: rnd(16), "redis-cli -h cache -a ", " PING"),
        "a password",
        "redis-cli -h cache -a $REDIS_PASSWORD PING",
    ),
    (
        "ldap-bind-password",
        _lazy(lambda: rnd(14), "ldapsearch -x -D cn=admin,dc=acme -w ", " -b dc=acme"),
        "a password",
        "ldapsearch -x -W -D cn=admin,dc=acme (it asks); grep -w word notes.txt",
    ),
    (
        "smbclient-user-percent-password",
        _lazy(lambda: rnd(14), "smbclient //files/share -U admin%", " -c ls"),
        "a password",
        "smbclient //files/share -U admin -c ls; 50%off",
    ),
    (
        "password-piped-to-stdin",
        _lazy(lambda: rnd(16), "echo '", "' | docker login -u ci --password-stdin ghcr.io"),
        "a password",
        "echo $GHCR_TOKEN | docker login -u ci --password-stdin ghcr.io; echo done | wc -l",
    ),
    (
        "az-login-password",
        _lazy(lambda: rnd(16), "az login --service-principal -u http://app -p ", " --tenant t"),
        "a password",
        "az login --service-principal -u http://app -p $AZ_SECRET --tenant t",
    ),
    (
        "password-piped-to-gh-with-token",
        _lazy(lambda: rnd(16), "echo ", " | gh auth login --with-token"),
        "a password",
        "echo $GH_TOKEN | gh auth login --with-token; echo 'yes' | sudo tee /etc/motd",
    ),
    (
        "token-in-a-here-string",
        _lazy(lambda: rnd(32), "gh auth login --with-token <<< ", ""),
        "a password",
        'gh auth login --with-token <<< "$GH_TOKEN"; docker login --password-stdin < pw.txt',
    ),
    (
        "password-piped-to-sudo-s",
        _lazy(lambda: rnd(16), "echo '", "' | sudo -S systemctl restart ledger"),
        "a password",
        "echo \"$SUDO_PW\" | sudo -S true; echo 'ok' | sudo -u app tee log",
    ),
    (
        "htpasswd-batch-password",
        _lazy(lambda: rnd(14), "htpasswd -b -c /etc/nginx/.htpasswd admin ", " && nginx -s reload"),
        "a password",
        "htpasswd -c /etc/nginx/.htpasswd admin (it asks); htpasswd -b users admin $PW",
    ),
    (
        "htpasswd-print-password",
        _lazy(lambda: rnd(14), "htpasswd -nbB admin '", "' > creds"),
        "a password",
        "htpasswd -n admin > creds; htpasswd -D users admin",
    ),
    (
        "rabbitmqctl-user-password",
        _lazy(lambda: rnd(14), "rabbitmqctl add_user deploy ", ""),
        "a password",
        "rabbitmqctl add_user deploy $RABBIT_PW; rabbitmqctl list_users deploy guest",
    ),
    (
        "openssl-pass-argument",
        _lazy(lambda: rnd(14), "openssl pkcs12 -export -passout pass:", " -out a.p12"),
        "a password",
        "openssl rsa -in k.pem -passin env:KEY_PASS -passout file:pw.txt",
    ),
    (
        "keytool-store-password",
        _lazy(lambda: rnd(14), "keytool -list -keystore ks.jks -storepass ", " -v"),
        "a password",
        "keytool -list -keystore ks.jks -storepass:env KS_PASS -keypass $KEY_PW",
    ),
    (
        "sql-identified-by",
        _lazy(lambda: rnd(14), "CREATE USER 'app'@'%' IDENTIFIED BY '", "';"),
        "a password",
        "CREATE USER app IDENTIFIED BY :pw; a library identified by 'libcrypto3'",
    ),
    (
        "sql-identified-by-clause-alone",
        _lazy(lambda: "Ab3#" + rnd(10), "the script runs IDENTIFIED BY '", "' then grants"),
        "a password",
        "a library IDENTIFIED BY 'projectname'; identified by 'Hx7#pQ2!vL9z' in a sentence",
    ),
    (
        "sql-identified-by-unquoted",
        _lazy(lambda: "Ab3" + rnd(9), "ALTER USER app IDENTIFIED BY ", ";"),
        "a password",
        "The fault was identified by INC0012345 in the queue.",
    ),
    (
        "sql-role-password",
        _lazy(
            lambda: rnd(14), "CREATE ROLE app WITH LOGIN PASSWORD '", "' VALID UNTIL 'infinity';"
        ),
        "a password",
        "ALTER ROLE app WITH PASSWORD NULL; sign in with password 'must be rotated'",
    ),
    (
        "sql-server-login-password",
        _lazy(lambda: rnd(14), "CREATE LOGIN app WITH PASSWORD = '", "';"),
        "a password",
        "CREATE LOGIN app WITH PASSWORD = @pw; CREATE LOGIN [CORP\\app] FROM WINDOWS;",
    ),
    (
        "powershell-secure-string",
        _lazy(lambda: rnd(14), "$pw = ConvertTo-SecureString '", "' -AsPlainText -Force"),
        "a password",
        "$s = ConvertTo-SecureString '76492d1116743f0423413b16050a5345MgB8AGc' -Key $key",
    ),
    (
        "pgpass-line",
        _lazy(lambda: rnd(14), "db.internal:5432:ledger:ledger_app:", ""),
        "a password",
        "db.internal:5432:*:ledger_app:* and 10:30:00:agenda:review",
    ),
    (
        "vault-login-legacy-token",
        _lazy(lambda: "s." + rnd(24), "vault login ", ""),
        "a HashiCorp Vault token",
        "vault login s.short; vault status",
    ),
    (
        "bare-pass-random-value",
        _lazy(lambda: "Qw7" + rnd(9), "user=admin pass=", ""),
        "a password",
        "tests: pass=412 fail=0 skip=3; pass: all_green; PWD=/home/runner/work",
    ),
    (
        "pem-armour-spaced-and-lower-case",
        _lazy(
            lambda: (
                "-----begin  rsa private\tkey-----\n"
                + rnd(64, string.ascii_letters + string.digits + "+/")
                + "\n-----end rsa private key-----"
            ),
            "key: ",
            "",
        ),
        "a PEM private key",
        "Store the private  key in the vault; -----begin public key----- is fine.",
    ),
]


def test_a_yaml_block_scalar_quoted_in_a_json_string_is_read() -> None:
    """Its line breaks escaped once, as YAML a JSON string holds has them."""
    password = "Qw7" + rnd(11)
    text = 'manifest: "db:\\n  password: |\\n    ' + password + '\\n  host: db"'
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]


def test_private_key_armour_with_a_no_break_space_is_found() -> None:
    """As pasted from a rich-text editor (percent-encoded, a no-break space is no ASCII escape:
    that text is read as written)."""
    body = rnd(64, string.ascii_letters + string.digits + "+/")
    text = f"-----BEGIN\u00a0RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE\u00a0KEY-----"
    [(start, end, kind)] = scan_text(text)
    assert (start, end, kind) == (0, len(text), "a PEM private key")


@pytest.mark.parametrize(
    ("make", "kind"), [(d[1], d[2]) for d in DETECTORS], ids=[d[0] for d in DETECTORS]
)
def test_detector_positive(make: Positive, kind: str) -> None:
    text, secret = make()
    spans = scan_text(text)
    assert spans, text
    start = text.index(secret)
    covering = [s for s in spans if s[0] <= start and start + len(secret) <= s[1]]
    assert covering, (text, spans)
    assert kind in {k for _, _, k in spans}
    # and inside a document, as a value and as a member name
    hits = find_secrets({"notes": [{"text": text}]})
    assert {h.path for h in hits} == {"/notes/0/text"}
    key_hits = find_secrets({"extensions": {"org.example": {text: True}}})
    key_path = "/extensions/org.example/" + text.replace("~", "~0").replace("/", "~1")
    assert key_hits and all(h.in_key and h.path == key_path for h in key_hits)


@pytest.mark.parametrize("text", [d[3] for d in DETECTORS], ids=[d[0] for d in DETECTORS])
def test_detector_negative(text: str) -> None:
    assert scan_text(text) == []
    assert find_secrets({"text": text, text: "value"}) == []


# --- members whose name says they hold a credential ----------------------------------------------

NAMED_POSITIVE: list[tuple[str, object, str]] = [
    ("password", "hunter" + "22", "a password"),
    ("db_password", "letmein!", "a password"),
    ("passwd", rnd(12), "a password"),
    ("DB_PWD", rnd(10), "a password"),
    ("secret", rnd(16), "a secret"),
    ("client_secret", rnd(32), "a secret"),
    ("clientSecret", rnd(32), "a secret"),
    ("api_key", rnd(32), "an API key"),
    ("apiKey", rnd(32), "an API key"),
    ("x-api-key", rnd(32), "an API key"),
    ("X-API-Key", rnd(32), "an API key"),
    ("access_token", rnd(40), "an access token"),
    ("refresh_token", rnd(40), "an access token"),
    ("auth_token", rnd(40), "an access token"),
    ("accessToken", rnd(40), "an access token"),
    ("private_key", rnd(64), "a private key"),
    (
        "aws_secret_access_key",
        rnd(40, string.ascii_letters + string.digits + "/+"),
        "an AWS secret access key",
    ),
    ("authorization", "Token " + rnd(40), "an Authorization header value"),
    (
        "Authorization",
        'Digest username="u", response="' + rnd(32, "0123456789abcdef") + '"',
        "an Authorization header value",
    ),
    ("cookie", "sessionid=" + rnd(32) + "; theme=dark", "a cookie"),
    ("Set-Cookie", "__Host-session=" + rnd(32) + "; Path=/; Secure", "a cookie"),
    ("credentials", rnd(24), "a credential"),
    ("github_token", rnd(40), "an access token"),
    ("password", "correct horse battery staple", "a password"),
    ("passphrase", "purple-monkey dishwasher lantern 42", "a password"),
    ("smtp_pass", rnd(12), "a password"),
]


@pytest.mark.parametrize(
    ("name", "value", "kind"), NAMED_POSITIVE, ids=[n[0] for n in NAMED_POSITIVE]
)
def test_named_member_positive(name: str, value: str, kind: str) -> None:
    document = {"operations": [{"call": {"arguments": {"headers": {name: value}}}}]}
    hits = find_secrets(document)
    path = "/operations/0/call/arguments/headers/" + name
    assert [h.path for h in hits] == [path]
    assert hits[0].kind == kind and not hits[0].in_key
    assert (hits[0].start, hits[0].end) == (0, len(value))  # the whole value is the credential


NAMED_NEGATIVE: list[tuple[str, object]] = [
    ("password", ""),
    ("password", "<redacted>"),
    ("password", "***"),
    ("password", "********"),
    ("password", "REDACTED"),
    ("password", "[REDACTED]"),
    ("password", "${DB_PASSWORD}"),
    ("password", "$DB_PASSWORD"),
    ("password", "{{ vault_db_password }}"),
    ("password", "#{db_password}"),  # Ruby's interpolation
    ("password", "&lt;YOUR_PASSWORD&gt;"),  # a placeholder as HTML escapes it
    ("password", "'$DB_PASSWORD'"),  # a shell's quotes around a variable it splices in
    ("forgot_password", "$BASE_URL/account/#/forgot_password"),  # a variable, then a path
    ("addPassword", "#add-password"),  # an element a script selects
    ("forgot_password", "/en/enterprise-server@3.0/auth"),  # a page's path
    ("edit_password", "cms/sites/passwords#edit"),  # a route's controller and action
    ("api_key", "^[a-z0-9]{32}$"),  # the pattern a key must match
    ("token", "[A-Fa-f0-9]+"),
    ("password", "changeme"),
    ("password", "true"),
    ("password", "false"),
    ("password", "12345"),
    ("password", "2026-11-18"),
    ("password", "stored in the ops vault, ask the controller"),
    ("password", "rotated every quarter"),
    ("password", "see runbook"),
    ("pass", "157 of 160"),
    ("password", None),
    ("password", 1234),
    ("password", False),
    ("password_reset_required", "yes"),
    ("password_policy", "min 12 characters"),
    ("secret", "false"),
    ("secret_ref", "vault:secret/data/ledger#db"),
    ("client_secret", "env:LEDGER_CLIENT_SECRET"),
    ("api_key", "OPENAI_API_KEY"),
    ("api_key", "your-api-key"),
    ("api_key_env", "LEDGER_API_KEY"),
    ("private_key", "/home/svc/.ssh/id_ed25519"),
    ("private_key_path", "~/.ssh/id_rsa"),
    ("token", "<|endoftext|>"),
    ("eos_token", "</s>"),
    ("max_tokens", "4096"),
    ("input_tokens", 1200),
    ("next_page_token", rnd(24)),
    ("idempotency_key", "je-draft-6300-2026-10-porto"),
    ("key", "rg-20261118-0841"),
    ("PWD", "/workspace/ledger-service"),
    ("auth", "oauth2"),
    ("auth_method", "sso"),
    ("authorization", "approved"),
    ("authorization", "APR0049121"),
    ("authorization", "Bearer <token>"),
    ("credentials", "svc-erp@northwind.example"),
    ("credential_id", rnd(24)),
    ("access_key_id_hint", "starts with AK"),
    ("cookie", "theme=dark; lang=en"),
    ("signature", "J. Smith, controller"),
    # a package manifest's dependencies, named for what they handle: versions
    ("@postman/tough-cookie", "4.1.3-postman.1"),
    ("session-token", "~1.2.3-alpha.4"),
    ("jsonwebtoken", "^9.0.0"),
    # a key vault's access policy: what may be done to its secrets and keys
    ("secrets", ["Get", "List", "Set", "Delete", "Recover", "Backup", "Restore"]),
    ("keys", ["Encrypt", "Decrypt", "WrapKey", "UnwrapKey"]),
    ("auth", "OAuth2.0"),
    ("signature_algorithm", "SHA256withRSA"),
    # a chart's references and settings (Bitnami's, GitHub Actions')
    ("existingSecret", "passwords"),
    ("secrets", "inherit"),
    ("serviceAccountKey", "/gcp-secrets/serviceAccountKey.json"),
    ("accountkey", "base64encodedaccountkey"),
    ("password", "YYYY"),
]


@pytest.mark.parametrize(
    ("name", "value"), NAMED_NEGATIVE, ids=[f"{n}={v!r}" for n, v in NAMED_NEGATIVE]
)
def test_named_member_negative(name: str, value: object) -> None:
    assert find_secrets({"extensions": {"org.example": {name: value}}}) == []


def test_named_member_list_values_and_name_value_pairs() -> None:
    a, b = rnd(32), rnd(32)
    document = {
        "api_keys": ["<redacted>", a, b],
        "env": [
            {"name": "DB_PASSWORD", "value": "hunter" + "22"},
            {"name": "DB_HOST", "value": "db"},
        ],
        "har": {"headers": [{"name": "Authorization", "value": "Token " + rnd(40)}]},
    }
    assert [h.path for h in find_secrets(document)] == [
        "/api_keys/1",
        "/api_keys/2",
        "/env/0/value",
        "/har/headers/0/value",
    ]


# A credential beside its name in the shapes tools write: an array's next item, AWS's and
# 1Password's name/value objects, ARM's and CloudFormation's wrapped values. (Each is found in a
# small document, which `re` scans, and in one past 24,000 characters, which RE2 scans.)
PASSWORD_VALUE = "Zq7!mR2#vL9x"
DATADOG_VALUE = "a3f1c9e07b2d4e5f8a6b1c2d3e4f5a6b"
AZURE_STORAGE_KEY = base64.b64encode(random.Random(64).randbytes(64)).decode()
NAMED_SHAPES: list[tuple[str, object, str]] = [
    ("argv-flag", {"argv": ["psql", "-h", "db", "--password", PASSWORD_VALUE]}, "/argv/4"),
    ("argv-key-flag", {"argv": ["datadog-agent", "--api-key", DATADOG_VALUE]}, "/argv/2"),
    ("java-flag", {"argv": ["keytool", "-storepass", PASSWORD_VALUE, "-list"]}, "/argv/2"),
    ("pair-of-two", {"settings": [["password", PASSWORD_VALUE]]}, "/settings/0/1"),
    (
        "header-pair",
        {"headers": [["Authorization", "Token " + DATADOG_VALUE]]},
        "/headers/0/1",
    ),
    (
        "parameter-store",
        {"Parameter": {"Name": "/prod/db/password", "Type": "SecureString", "Value": "hunter22"}},
        "/Parameter/Value",
    ),
    (
        "cloudformation-parameters",
        {"Parameters": [{"ParameterKey": "DBPassword", "ParameterValue": PASSWORD_VALUE}]},
        "/Parameters/0/ParameterValue",
    ),
    (
        "beanstalk-option",
        {"OptionSettings": [{"OptionName": "DB_PASSWORD", "Value": PASSWORD_VALUE}]},
        "/OptionSettings/0/Value",
    ),
    (
        "password-manager-field",
        {
            "fields": [
                {"id": "password", "type": "CONCEALED", "label": "password", "value": "hunter22"}
            ]
        },
        "/fields/0/value",
    ),
    (
        "arm-parameter",
        {"parameters": {"adminPassword": {"value": PASSWORD_VALUE}}},
        "/parameters/adminPassword/value",
    ),
    (
        "arm-default",
        {"parameters": {"sqlPassword": {"type": "securestring", "defaultValue": PASSWORD_VALUE}}},
        "/parameters/sqlPassword/defaultValue",
    ),
    (
        "cloudformation-default",
        {
            "Parameters": {
                "DBPassword": {"Type": "String", "NoEcho": True, "Default": PASSWORD_VALUE}
            }
        },
        "/Parameters/DBPassword/Default",
    ),
    (
        "terraform-default",
        {"variable": {"datadog_api_key": {"default": DATADOG_VALUE}}},
        "/variable/datadog_api_key/default",
    ),
    # `az storage account keys list` (and PowerShell's Get-AzStorageAccountKey: KeyName, Value)
    (
        "azure-keys-list",
        {"keys": [{"keyName": "key1", "permissions": "FULL", "value": AZURE_STORAGE_KEY}]},
        "/keys/0/value",
    ),
    (
        "azure-keys-list-powershell",
        {"keys": [{"KeyName": "key2", "Value": AZURE_STORAGE_KEY}]},
        "/keys/0/Value",
    ),
]
# The same shapes holding no credential: ways to sign in listed, a flag without its value, a
# reference to where the credential is, a select's options, a schema's placeholders.
NAMED_SHAPES_NEGATIVE: list[object] = [
    {"auth_methods": ["password", "publickey"]},
    {"PreferredAuthentications": ["password", "keyboard-interactive"]},
    {"methods": ["md5", "password", "scram-sha-256"]},
    {"grant_types": ["password", "refresh_token"]},
    {"argv": ["mysql", "--password", "--host", "db.internal"]},
    {"argv": ["mysql", "-h", "db", "--password"]},
    {"argv": ["docker", "login", "--password-stdin"]},
    {"argv": ["app", "--password-file", "/run/secrets/db_password"]},
    {"argv": ["datadog-agent", "--api-key", "$DD_API_KEY"]},
    {"argv": ["gh", "auth", "login", "--with-token", "@token.txt"]},
    {"argv": ["app", "--token", "env:DEPLOY_TOKEN"]},
    {"argv": ["app", "--password", "@/run/secrets/db_password"]},
    {
        "options": [
            {"label": "Password", "value": "password"},
            {"label": "API key", "value": "api_key"},
        ]
    },
    {"Parameter": {"Name": "/prod/db/host", "Type": "String", "Value": "db.internal.example"}},
    {"tokens": [{"token": {"value": "the", "pos": "DET"}}]},
    {"properties": {"password": {"type": "string", "default": ""}}},
    {"properties": {"api_key": {"type": "string", "default": "YOUR_API_KEY"}}},
    {"properties": {"password": {"minLength": 12, "default": "changeme"}}},
    {"keys": [{"keyName": "key1", "permissions": "FULL", "value": "rotated on 2026-11-02"}]},
    {"keys": [{"keyName": "primary", "value": "${STORAGE_KEY}"}]},
]


def _grown(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with enough ordinary text beside it that RE2 scans it."""
    return {**document, "notes": ["The ledger was reconciled for the period. " * 40] * 16}


@pytest.mark.parametrize("grow", [False, True], ids=["re", "re2"])
@pytest.mark.parametrize(
    ("document", "path"),
    [(document, path) for _, document, path in NAMED_SHAPES],
    ids=[name for name, _, _ in NAMED_SHAPES],
)
def test_a_credential_beside_its_name_in_a_tool_s_shapes(
    document: dict[str, Any], path: str, grow: bool
) -> None:
    scanned = _grown(document) if grow else document
    assert len(json.dumps(scanned)) > 24_000 if grow else True
    # (found there alone; by more than one reading, an Azure key beside "key2" as a pair's and
    # as its rule's, it is one finding)
    assert sorted({h.path for h in find_secrets(scanned)}) == [path]


@pytest.mark.parametrize("grow", [False, True], ids=["re", "re2"])
@pytest.mark.parametrize("document", NAMED_SHAPES_NEGATIVE, ids=lambda d: json.dumps(d)[:48])
def test_the_same_shapes_without_a_credential(document: dict[str, Any], grow: bool) -> None:
    assert find_secrets(_grown(document) if grow else document) == []


# A mask after an arrow ("svc_password -> ********") or in a table's cell after a credential's
# name, a mask or a placeholder after its colon, and a value with no digit after "the password
# is", send their text to no detector (the anchors read it as RE2 and `re` both do): what else
# the text names is still read, and a value that Markdown sets in bold, or opens with one or
# two asterisks, is still one.
MASKED_VALUES = [
    ("svc_password -> ******** and api_key: {}", "{}"),
    ("DB password → ********; then the admin password → {}", "{}"),
    ("the db password -> **{}**", "{}"),
    ("password -> *{}", "*{}"),
    ("| svc_password | ******** |\n| db_password | {} |", "{}"),
    ("| name | value | |---|---| | svc_password | ******** | | api_token | {} |", "{}"),
    ("| user | password |\n|---|---|\n| bob | {} |", "{}"),
    ("| db_password | **{}** |", "{}"),
    # ... and after a colon or an equals sign: a placeholder or a tag opening with "<"
    ("password: <your-password>\napi_key: {}", "{}"),
    ("token=******** secret: {}", "{}"),
    ("password: <b>{}</b>", "{}"),
    ("password:<br>{}", "{}"),
    ("the password is rotated monthly; the new password is {}", "{}"),
    ("the wifi password was changed to {}.", "{}"),
    ("Password is: `{}`", "{}"),
    # (a key's value 16 characters at least)
    ("the API key is in the vault; the staging API key is {}", "{}"),
    ("token - see below\nAPI key - {}", "{}"),
    ("the deploy token was rotated to '{}'", "{}"),
]


@pytest.mark.parametrize(("written", "found"), MASKED_VALUES)
@pytest.mark.parametrize("padding", [0, 300], ids=["short", "long"])
def test_a_mask_after_a_name_hides_nothing_else(written: str, found: str, padding: int) -> None:
    value = "Kx8" + rnd(17)
    # (a long text is read by RE2 first, a short one by `re`)
    text = "Lorem ipsum dolor sit amet.\n" * padding + written.format(value)
    assert [text[a:b] for a, b, _ in scan_text(text)] == [found.format(value)]
    assert scan_text(text.replace(value, "*" * len(value))) == []


def test_a_yaml_plain_value_holding_a_hash_is_read_whole() -> None:
    # (only after a space does "#" start a comment: the password holds it)
    text = "Parameters:\n  DBPassword:\n    Type: String\n    Default: Hq4!tR8#wZ2m  # rotate\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == ["Hq4!tR8#wZ2m"]


def test_a_flag_s_value_after_many_flags_with_none_is_found() -> None:
    # (past a thousand, the rest are not read: 900 is within the bound)
    argv = ["--password", "$DB_PASSWORD"] * 900 + ["--password", PASSWORD_VALUE]
    assert [h.path for h in find_secrets({"argv": argv})] == ["/argv/1801"]


def test_a_flag_s_value_is_found_where_the_document_is_read_from_its_text() -> None:
    # a document of many small containers has its strings read from its text (not walked):
    # the flag's value is placed all the same
    nested: Any = {"k": "v"}
    for _ in range(30):
        nested = [{"k": nested}]
    document = {"calls": [nested] * 200, "argv": ["psql", "--password", PASSWORD_VALUE]}
    from app.parse import parse

    intake = parse(json.dumps(document).encode())
    from app.secrets import _walk_costs_more, scan_document

    assert intake.text is not None and _walk_costs_more(intake.text)
    scan = scan_document(intake.document, source=intake.text)
    assert [h.path for h in scan.hits] == ["/argv/2"]


# --- ordinary content is not a credential --------------------------------------------------------

ORDINARY = [
    # PowerShell turning a variable into a secure string: the cmdlet is no password
    "$pw = ConvertTo-SecureString $plain -AsPlainText -Force",
    # a JavaScript template literal that interpolates
    "const row = { user: `svc${i}`, password: `secret${i}` };",
    "$password = ConvertFrom-SecureString $secure",
    # a token shown cut short, as 1Password's documentation shows one (one of gitleaks' false
    # cases)
    "To start using this service account, run the following command:\n"
    "export OP_SERVICE_ACCOUNT_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6..",
    "API_TOKEN=Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB... (the rest in the vault)",
    # an ARM template's connection string, its key an expression
    "[concat('DefaultEndpointsProtocol=https;AccountName=', variables('storageAccountName'), "
    "';AccountKey=',listKeys(resourceId('Microsoft.Storage/storageAccounts', "
    "variables('storageAccountName')), '2019-04-01').keys[0].value)]",
    "[concat('Server=tcp:', variables('sqlServer'), ';User ID=', parameters('sqlLogin'), "
    "';Password=',parameters('sqlPassword'),';')]",
    "[draft] Auth: OAuth2.0",
    "      MasterUserPassword: !Sub '{{resolve:secretsmanager:${DBCredential}}}'\n"
    "      PubliclyAccessible: false\n",
    "      MasterUserPassword: !Ref DBPassword\n      StorageEncrypted: true\n",
    '{{- printf "%s://%s:%s@%s:%s/%s" (include "redis.scheme" $) (include "redis.user" $) -}}',
    'wait_for "redis://${REDIS_PASSWORD:-}@${REDIS_HOST}:${REDIS_PORT_NUMBER}"',
    "helm upgrade db bitnami/mariadb-galera --set galera.mariabackup.password=YYYY",
    "ch_3QxL1a",
    "pi_3QxL1aFz2eZvKYlo0abcDEF1",
    "urn:uuid:019a7c33-1e16-7b52-84d8-1f9a2b3c4d04",
    "sha-256:979531aeb4af4708e1b5ab4f0d046f77a0e7c92cfcce1e6c17b207dcc14a82c6",
    "sha-512:" + "9096a4042df5834b9bc29f05e0e5ccb810c59db95f875b96acaa190c4f076ba7" * 2,
    "3f9e1c2a7b4d5e6f708192a3b4c5d6e7f8091a2b",
    "je-draft-6300-2026-10-porto",
    "op-refund-4411-retry-2",
    "https://github.com/acme/ledger-service/pulls?q=head%3Arefactor%2Fmoney-type",
    "https://erp.example.com/fiori#PurchaseOrder-manage?account=6300&period=2026-10",
    "https://northwind.service-now.example.com/nav_to.do?uri=sysapproval_approver.do?sys_id=9f1c2e",
    "https://www.google.com/maps/@37.7749,-122.4194,15z",
    "https://docs.example.com/auth/tokens?version=2#refresh-token",
    "controller-emea@northwind.example",
    "mailto:ap@vendor.example.pt",
    "mid:20260915.8812.ap@vendor.example.pt",
    "git@github.com:acme/ledger-service.git",
    "The token expired; ask the user to reset the password before retrying.",
    "Rotate the API key and the client secret after the migration.",
    "Tokens: 1204 input, 311 output.",
    "password: see the ops vault entry",
    "Secret: the vendor contract is confidential",
    "max_tokens=4096, temperature=0.2",
    "Bearer tokens are accepted; Basic authentication is disabled.",
    "author: Maintainer (@acme/ledger-maintainers)",
    "sk-SK locale and risk-free tasks",
    "Use AKIA-prefixed ids only in the IAM console.",
    "digest: sha-256:82817b58908c453d68592a07891315e45ada17ad60aa7996dd08f562dea081e4",
    "Approved under authorization APR0049121 by the EMEA controller.",
    "The approval was logged under auth: APR-0049121 in the ticket system.",
    "Escalated, see INC0012345; auth: JIRA-812.",
]


def test_ordinary_content_is_not_flagged() -> None:
    document = {"statements": [{"text": t} for t in ORDINARY], "labels": {t: t for t in ORDINARY}}
    assert find_secrets(document) == []
    for text in ORDINARY:
        assert scan_text(text) == [], text


CODE = """
import os, secrets
from typing import Optional

class Settings:
    api_key: Optional[str] = None
    password: str

def connect(self) -> None:
    password = os.environ["DB_PASSWORD"]
    token = request.headers.get("Authorization")
    secret = secrets.token_hex(32)
    client = Client(client_secret=client_secret_value, api_key=self.api_key)
    auth = HTTPBasicAuth(user, pw)
    headers = {"Authorization": f"Bearer {token}"}
    secret_key = settings.SECRET_KEY

const apiKey = process.env.API_KEY;
env:
  DB_PASSWORD: ${{ secrets.DB_PASSWORD }}
"""


def test_code_that_only_names_a_credential_is_not_flagged() -> None:
    assert scan_text(CODE) == []
    assert find_secrets({"resources": [{"excerpt": CODE}]}) == []
    literal = "hunter" + rnd(4, string.digits)
    spans = scan_text(CODE + f'\n    password = "{literal}"\n')
    assert len(spans) == 1 and spans[0][2] == "a password"


# --- paths, order, keys ---------------------------------------------------------------------


def test_paths_are_json_pointers_in_document_order() -> None:
    g1, g2, g3 = ("ghp_" + rnd(36) for _ in range(3))
    document = {
        "z/first": {"a~b": g1},
        "resources": [{"excerpt": "nothing"}, {"excerpt": f"two: {g2} and {g3}"}],
        g1: "a token as a member name",
    }
    hits = find_secrets(document)
    assert [(h.path, h.in_key) for h in hits] == [
        ("/z~1first/a~0b", False),
        ("/resources/1/excerpt", False),
        ("/resources/1/excerpt", False),
        ("/" + g1, True),
    ]
    for hit in hits:
        resolve(document, hit.path)  # every path names a real place
    excerpt = document["resources"][1]["excerpt"]  # type: ignore[index]
    assert [excerpt[h.start : h.end] for h in hits[1:3]] == [g2, g3]
    assert all(isinstance(h, SecretHit) for h in hits)


def test_a_key_and_its_value_both_hit() -> None:
    g = "ghp_" + rnd(36)
    hits = find_secrets({"x": {g: "Bearer " + rnd(32)}})
    assert [(h.path, h.in_key) for h in hits] == [("/x/" + g, True), ("/x/" + g, False)]
    (finding,) = secret_findings({"x": {g: "Bearer " + rnd(32)}})
    assert "name" in finding.message and "value" in finding.message


def test_a_member_name_sorts_before_what_its_value_holds() -> None:
    g1, g2 = ("ghp_" + rnd(36) for _ in range(2))
    name = f"see {g1}"
    hits = find_secrets({name: [g2]})
    assert [(h.path, h.in_key) for h in hits] == [("/" + name, True), ("/" + name + "/0", False)]


def test_subclasses_of_json_types_are_scanned() -> None:
    from collections import OrderedDict
    from enum import StrEnum

    g = "ghp_" + rnd(36)
    Token = StrEnum("Token", {"LEAKED": g})
    document = OrderedDict(a=OrderedDict(b=Token.LEAKED))
    assert [h.path for h in find_secrets(document)] == ["/a/b"]


def test_any_json_value_and_deep_nesting() -> None:
    g = "ghp_" + rnd(36)
    values: list[object] = [None, True, 0, 1.5, "", [], {}, "plain"]
    for value in values:
        assert find_secrets(value) == []
        assert secret_findings(value) == []
    assert [h.path for h in find_secrets(g)] == [""]
    assert [h.path for h in find_secrets([1, None, [g]])] == ["/2/0"]
    deep: list[object] = []
    node = deep
    for _ in range(20_000):  # far past the recursion limit
        child: list[object] = []
        node.append(child)
        node = child
    node.append(g)
    (hit,) = find_secrets(deep)
    assert hit.path == "/0" * 20_000 + "/0"
    assert find_secrets({1: g, "ok": "x"})[0].path == "/1"  # a dict built in Python


# --- findings, messages, redaction ---------------------------------------------------------


def test_one_finding_per_path_and_messages_never_hold_the_secret() -> None:
    secrets = []
    for _, make, _, _ in DETECTORS:
        text, secret = make()
        secrets.append((text, secret))
    document = {
        "statements": [{"text": text} for text, _ in secrets],
        "extensions": {"org.example": {s: 1 for _, s in secrets if len(s) < 128}},
        "headers": {
            "Authorization": "Bearer " + (tok := rnd(40)),
            "password": (pw := "hunter" + "22"),
        },
    }
    findings = secret_findings(document)
    paths = [f.path for f in findings]
    assert len(paths) == len(set(paths))
    assert {f"/statements/{i}/text" for i in range(len(secrets))} <= set(paths)
    assert {"/headers/Authorization", "/headers/password"} <= set(paths)
    for f in findings:
        assert f.code == "secret" and f.severity == "warning"
        assert f.line is None and f.column is None
        assert "§9.1" in f.message and "rotate" in f.message
        for _, secret in [*secrets, ("", tok), ("", pw)]:
            for piece in (secret, secret[-12:], secret[:16]):
                if len(piece) >= 8 and piece.strip():
                    assert piece not in f.message


def test_several_hits_in_one_value_make_one_finding() -> None:
    text = f"AWS_ACCESS_KEY_ID=AKIA{rnd(16, string.ascii_uppercase)} and ghp_{rnd(36)}"
    (finding,) = secret_findings({"excerpt": text})
    assert "an AWS access key id" in finding.message and "a GitHub token" in finding.message


def test_redact_removes_the_secret_and_keeps_the_rest() -> None:
    g = "ghp_" + rnd(36)
    url = "https://svc:" + (pw := rnd(12)) + "@db.example.com/x"
    text = f"Token {g} was used for {url}; see ticket INC-2041."
    out = redact(text)
    assert g not in out and pw not in out
    assert out.startswith("Token [redacted: looks like a credential] was used for https://")
    assert out.endswith("@db.example.com/x; see ticket INC-2041.")
    assert redact(text, "***").count("***") == 2
    assert redact("nothing to hide here") == "nothing to hide here"
    key = pem("RSA ")
    assert redact(f"before\n{key}\nafter") == "before\n[redacted: looks like a credential]\nafter"


def test_redact_raw_json_source() -> None:
    """The viewer redacts unparsed source, where newlines in a key are JSON escapes."""
    key = pem("OPENSSH ")
    raw = json.dumps({"excerpt": key, "password": "hunter" + "22", "id": "r-1"}, indent=2)
    out = redact(raw)
    assert "BEGIN OPENSSH" not in out and "hunter22" not in out
    assert '"id": "r-1"' in out


# --- hostile strings ----------------------------------------------------------------------------


def test_big_list_of_naughty_strings_never_crashes() -> None:
    strings = json.loads(BLNS.read_text(encoding="utf-8"))
    assert len(strings) > 100
    for s in strings:
        for document in ({"v": s}, {s: "v"}, {s: s}, [s], s, {"password": s, s: {"api_key": s}}):
            for hit in find_secrets(document):
                assert isinstance(hit, SecretHit)
                resolve(document, hit.path)
            secret_findings(document)
        assert isinstance(redact(s), str)
        scan_text(s)
    joined = {"statements": [{"text": s} for s in strings], "keys": dict.fromkeys(strings, 1)}
    secret_findings(joined)
    scan_text(json.dumps(joined))


def test_every_name_the_scanner_knows_passes_its_cheap_filter() -> None:
    # Text is read for `NAME: value` only where NAME holds one of a few words (app/secrets
    # `_may_name_credential`, one cached lookup a name): that must let through every name
    # `_classify_name` gives a class, in every spelling, and every query parameter it reads.
    from app import secrets

    heads = ["_".join(parts) for parts in secrets._NAME_HEADS]
    spellings = [
        spelled
        for head in heads
        for spelled in (
            head,
            head.upper(),
            "DB_" + head.upper(),
            "my" + head.replace("_", "").title(),
            head + "s",
        )
    ]
    spellings += ["mypassword", "clientsecret", "stripeapikey", "accesstoken", "DB_PWD"]
    classified = [name for name in spellings if secrets._classify_name(name) is not None]
    assert len(classified) > len(heads)  # most spellings name a credential
    assert [n for n in classified if not secrets._may_name_credential(n)] == []
    parameters = [*secrets._QUERY_PARAMS, *secrets._SIGNING_PARAMS]
    assert [n for n in parameters if not secrets._may_name_credential(n)] == []
    assert not secrets._may_name_credential("https")
    assert not secrets._may_name_credential("note")


def test_a_prefix_with_a_short_tail_a_thousand_times_hides_no_token_after_it() -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    text = "see ghp_ and sk- and xoxb- here; " * 1000 + f"then {token} at last"
    assert [(text[s:e], kind) for s, e, kind in scan_text(text)] == [(token, GITHUB)]


# --- a child that quotes its parent ---------------------------------------------------------


def test_a_child_quoting_its_parent_s_pointers_repeats_no_credential_unseen() -> None:
    """A derived checkpoint names what it dropped of its parent by the parent's JSON Pointers
    (derivation.omissions, §6.9), and a pointer escapes "/" as "~1" and "~" as "~0". A parent's
    credential that was a member name is then repeated in that form: it is unescaped, found,
    and withheld whole."""
    password = "Wint3r" + rnd(8)
    aws_secret = rnd(12) + "/" + rnd(13) + "/" + rnd(13)
    azure_secret = rnd(3) + "8Q~" + rnd(34)
    parent = {
        "extensions": {
            "com.example/ci": {
                f"https://svc:{password}@db.example.com/ledger": True,
                f"aws_secret_access_key={aws_secret}": True,
                azure_secret: True,
            }
        }
    }
    assert len(find_secrets(parent)) == 3
    quoted = [
        "/extensions/com.example~1ci/" + name.replace("~", "~0").replace("/", "~1")
        for name in parent["extensions"]["com.example/ci"]
    ]
    child = {
        "parent": {"id": "urn:uuid:019a8000-0000-7000-8000-000000000001"},
        "derivation": {
            "method": "compacted",
            "omissions": [
                {"description": f"Dropped {pointer} (sensitive).", "reason": "sensitive"}
                for pointer in quoted
            ],
        },
    }
    hits = find_secrets(child)
    assert [h.path for h in hits] == [f"/derivation/omissions/{i}/description" for i in range(3)]
    for pointer, hit in zip(quoted, hits, strict=True):
        assert hit.text is not None
        shown = redact(hit.text)
        for secret in (password, aws_secret, azure_secret):
            for piece in (secret, secret.replace("/", "~1").replace("~", "~0")):
                assert piece[:10] not in shown and piece[-10:] not in shown, (pointer, shown)
    assert scan_text("Rewrote /extensions/dev.example~1trace/step and /a~0b/c~1d") == []


@pytest.mark.parametrize(
    "make",
    [
        lambda: ("curl -s -u ops:", "Zq" + rnd(10), " https://api.example.com/x"),
        lambda: ("machine db.example.com login ops password ", "Zq" + rnd(10), "\n"),
        lambda: ("the password for the admin account is ", "Zq" + rnd(10), " today. "),
        lambda: ("see https:ops:", "Zq" + rnd(10), "@db.example.com/ledger"),
        lambda: ("?access_token%3D", "ghp%5F" + rnd(36), "&page=2"),
        lambda: ("dropped /extensions/https:~1~1ops:", "Zq" + rnd(10), "@db.example.com"),
    ],
    ids=["command-line", "netrc", "prose", "special-userinfo", "percent", "pointer"],
)
@pytest.mark.parametrize("place", [0, 20_000, 60_000])
def test_a_long_text_is_read_around_its_detectors_words(make: Any, place: int) -> None:
    """A text longer than 16K characters is read by the detectors of command lines, .netrc,
    prose, special-scheme userinfo, percent escapes and pointer escapes only around their
    words: the credential is found wherever it stands, and the text around it stays free."""
    before, secret, after = make()
    filler = "Reconciled invoice batch 2026-11 against the ledger; no variance found. "
    head = (filler * (place // len(filler) + 1))[:place] + "\n"
    text = head + before + secret + after + filler * 300
    spans = scan_text(text)
    assert len(spans) == 1, spans
    start, end, _ = spans[0]
    # the span covers the credential (a decoded one is mapped back to its escaped characters)
    assert start >= len(head) and end <= len(head) + len(before) + len(secret) + len(after)
    assert secret[-6:] in text[start:end] or secret[-6:].replace("_", "%5F") in text[start:end]
    assert scan_text(head + before + after + filler * 300) == []
