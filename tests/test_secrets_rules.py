"""One credential and one near miss for every rule of app/secrets/rules.py (issue 29).

gitleaks' default rules are the checklist of services; each rule here is this project's own,
written from the format, and each gets a true case (what the service issues, in the context its
documentation shows: an environment variable, a config line, a header) and a false one as close
to it as an ordinary document comes (the same service's ids, a value one character short, a
placeholder). Every fake credential is assembled at run time from pieces, so no real-looking
secret sits in the repository. The true cases join the recall corpus (every placement), the
false ones the precision corpus (every placement).
"""

import base64
import json
import re
import string
from collections.abc import Callable

import pytest

from app.secrets import find_secrets, first_secret, scan_text, secret_findings
from app.secrets.rules import RULES, Rule
from tests.test_secrets import rnd
from tests.test_secrets_recall import NOT_READ, PLACEMENTS, _document

HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits
LOWER_DIGITS = string.ascii_lowercase + string.digits
B64 = string.ascii_letters + string.digits + "+/"
B64URL = string.ascii_letters + string.digits + "-_"
Make = Callable[[], str]


def H(n: int) -> str:
    """Hexadecimal digits with a letter and a digit, as a random key has."""
    while True:
        value = rnd(n, HEX)
        if any(c.isdigit() for c in value) and any(c.isalpha() for c in value):
            return value


def D(n: int) -> str:
    return rnd(1, "123456789") + rnd(n - 1, string.digits)


def R(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    """A generated key: a digit and every case its alphabet has, as a random key has. Not led
    by "3D": after a name's "=" (NAME=3DGen…) that is quoted-printable's escape of "=", and the
    text is read both ways (one draw in 3,844 cut the key's first two characters off)."""
    tests = [str.isdigit] + [
        test for test in (str.islower, str.isupper) if any(test(c) for c in alphabet)
    ]
    while True:
        value = rnd(n, alphabet)
        if all(any(test(c) for c in value) for test in tests) and value[:2] != "3D":
            return value


BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58check(payload: bytes) -> str:
    """``payload`` and its checksum (the first 4 bytes of its double SHA-256) in Base58, as
    Bitcoin writes its keys (one "1" for each leading zero byte)."""
    import hashlib

    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, encoded = int.from_bytes(raw, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        encoded = BASE58[digit] + encoded
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + encoded


def extended_private_key(version: str = "0488ade4") -> str:
    """A BIP 32 extended private key (mainnet's xprv by default): its version, depth 0, no
    parent, child 0, a chain code and the key (a zero byte, then 32 bytes)."""
    chain, key = bytes.fromhex(H(64)), bytes.fromhex(H(64))
    return base58check(bytes.fromhex(version) + bytes(9) + chain + b"\0" + key)


def uuid() -> str:
    return "-".join(H(n) if n > 4 else rnd(n, HEX) for n in (8, 4, 4, 4, 12))


def uuid4() -> str:
    """A random UUID as Python makes one (version 4), in lower case."""
    import uuid as uuids

    return str(uuids.uuid4())


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def aws_id() -> str:
    return "AK" + "IA" + rnd(16, string.ascii_uppercase + "234567")


# rule id -> (a text holding the credential, a near miss that holds none)
EXAMPLES: dict[str, tuple[Make, str]] = {
    "aws-access-token": (aws_id, "AKIA" + "Z7QX4N2L" + "ABCDEF2"),
    "aws-secret-beside-key-id": (
        lambda: f"{aws_id()},{R(40, B64)}",
        "AKIA" + "X" * 16 + " " + H(40),
    ),
    "aws-secret-access-key": (
        lambda: f"AWS secret: {R(40, B64)}",
        f"aws s3 object {R(40, B64)}",
    ),
    "aws-session-token": (
        lambda: "IQoJb3JpZ2luX2Vj" + R(300, B64),
        "IQoJb3JpZ2luX2Vj" + "short",
    ),
    "aws-amazon-bedrock-api-key-long-lived": (
        lambda: "AB" + "SK" + R(132, B64),
        "AB" + "SK" + R(40),
    ),
    "aws-amazon-bedrock-api-key-short-lived": (
        lambda: "bedrock-api-key-" + "YmVkcm9jay5hbWF6b25hd3MuY29t" + R(200, B64 + "%&"),
        "bedrock-api-key-" + "YmVkcm9jay5hbWF6b25hd3MuY29t",
    ),
    "gcp-api-key": (lambda: "AI" + "za" + R(35, B64URL), "AIza" + "short"),
    "google-oauth-token": (lambda: "ya" + "29." + R(80, B64URL), "ya29.a"),
    "google-client-secret": (lambda: "GOCSPX" + "-" + R(28), "GOCSPX-"),
    "google-refresh-token": (lambda: "1//" + "0g" + R(98, B64URL), "1//comment in a config"),
    "azure-ad-client-secret": (
        lambda: rnd(3) + "8Q" + "~" + R(34, B64URL),
        "the Q~ ratio",
    ),
    "azure-identifiable-key": (
        lambda: R(76, B64) + "+AS" + "t" + R(5, B64) + "Q==",
        # a signature with one character too few before it, and Service Bus's with the wrong
        # letter after its signature
        R(75, B64) + "+ASt" + R(5, B64) + "Q== " + R(33, B64) + "+ASb" + "Z" + R(5, B64) + "=",
    ),
    "azure-storage-account-key": (
        lambda: f"storage account acmeprod, key {R(86, B64)}==",
        f"storage account acmeprod, key {R(86, B64)}=",
    ),
    "azure-storage-account-key-beside-account": (
        lambda: f"storage:\n  account: acmeprod\n  key: {R(86, B64)}==",
        f"account: acmeprod\ndigest: {R(86, B64)}==",
    ),
    "alibaba-access-key-id": (lambda: "LT" + "AI" + R(20), "LTAI" + "short"),
    "alibaba-secret-key": (
        lambda: f"ALIBABA_CLOUD_ACCESS_KEY_SECRET={R(30)}",
        f"alibaba region cn-hangzhou {R(30)}",
    ),
    "digitalocean-token": (lambda: "dop" + "_v1_" + H(64), "dop_v1_"),
    "heroku-api-key-v2": (lambda: "HRKU" + "-AA" + R(58, B64URL), "HRKU-AA" + "short"),
    "heroku-api-key": (lambda: f"HEROKU_API_KEY={uuid()}", f"heroku app id {uuid()}"),
    "flyio-access-token": (lambda: "fo1" + "_" + R(43, B64URL), "fo1_" + "short"),
    "flyio-macaroon": (lambda: "fm2" + "_" + R(120, B64), "fm2_" + R(20)),
    "cloudflare-api-key": (
        lambda: f"CLOUDFLARE_API_TOKEN={R(40, B64URL)}",
        f"cloudflare zone id {H(32)}",
    ),
    "cloudflare-origin-ca-key": (
        lambda: "v1" + ".0-" + H(24) + "-" + H(146),
        "v1.0-" + "release-notes",
    ),
    "scalingo-api-token": (lambda: "tk-" + "us-" + R(48, B64URL), "tk-us-east"),
    "yandex-api-key": (
        lambda: "yandex api key: AQ" + "VN" + R(36, B64URL),
        "yandex api key AQVN" + R(10),
    ),
    "yandex-aws-access-token": (
        lambda: "YANDEX_ACCESS_KEY=Y" + "C" + R(38, B64URL),
        f"yandex folder YC{R(38)}",
    ),
    "yandex-access-token": (
        lambda: "yandex oauth token t1" + "." + R(100, B64URL),
        f"yandex oauth token t1.{R(20)}",
    ),
    "github-token": (lambda: "gh" + "p_" + R(36), "ghp_" + "x" * 36),
    "github-fine-grained-pat": (lambda: "github" + "_pat_" + R(22) + "_" + R(59), "github_pat_"),
    "gitlab-token": (
        lambda: "gl" + "pat-" + R(20, B64URL),
        "global-settings-for-the-whole-project",
    ),
    "gitlab-runner-registration-token": (lambda: "GR" + "1348941" + R(20), "GR1348941"),
    "gitlab-session-cookie": (
        lambda: "Cookie: _gitlab" + "_session=" + R(32, LOWER_DIGITS).lower(),
        "_gitlab_session=" + "deleted",
    ),
    "bitbucket-app-password": (lambda: "AT" + "BB" + R(32), "ATBB-meeting notes"),
    "bitbucket-client-secret": (
        lambda: f"BITBUCKET_CLIENT_SECRET={R(64, B64URL)}",
        f"bitbucket client id {R(32)}",
    ),
    "atlassian-api-token": (lambda: "ATA" + "TT3" + R(180, B64URL), "ATATT3"),
    "atlassian-api-token-legacy": (lambda: f"JIRA_API_TOKEN={R(24)}", f"jira issue {R(24)}"),
    "npm-access-token": (lambda: "np" + "m_" + R(36), "npm_config_cache=/tmp/npm"),
    "npmrc-auth": (lambda: "_auth=" + b64(f"ci:{R(16)}"), "_auth=${NPM_AUTH}"),
    "npmrc-auth-token": (
        lambda: "//registry.npmjs.org/:_auth" + "Token=" + uuid(),
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    ),
    "npmrc-password": (
        lambda: "//npm.example.com/:_pass" + "word=" + b64(R(16)),
        "//npm.example.com/:_password=changeme",
    ),
    "pypi-upload-token": (
        lambda: "pypi" + "-AgEIcHlwaS5vcmc" + R(60, B64URL),
        "pypi-publishing-workflow-for-the-ledger-service-v2",
    ),
    "rubygems-api-token": (lambda: "rubygems" + "_" + H(48), "rubygems_org"),
    "clojars-api-token": (
        lambda: "CLOJARS" + "_" + R(60, LOWER_DIGITS).lower(),
        "CLOJARS_USERNAME",
    ),
    "nuget-api-key": (lambda: "oy" + "2" + R(43, LOWER_DIGITS).lower(), "oy2" + "short"),
    "docker-hub-token": (lambda: "dckr" + "_pat_" + R(27, B64URL), "dckr_pat_" + "short"),
    "jfrog-api-key": (lambda: "AK" + "Cp" + R(69), "AKCp" + "short"),
    "jfrog-reference-token": (lambda: "cmV" + "md" + R(59), "cmVmd" + "short"),
    "jfrog-identity-token": (
        lambda: f"ARTIFACTORY_ACCESS_TOKEN={R(64)}",
        f"artifactory build {H(64)}",
    ),
    "droneci-access-token": (lambda: f"DRONE_TOKEN={R(32)}", f"drone build {R(32)}"),
    "travisci-access-token": (lambda: f"TRAVIS_API_TOKEN={R(22)}", f"travis build {R(22)}"),
    "codecov-access-token": (lambda: f"CODECOV_TOKEN={uuid()}", f"codecov report {uuid()}"),
    "sonar-api-token": (lambda: "sq" + "u_" + H(40), "squ_" + "short"),
    "sourcegraph-access-token": (lambda: "sg" + "p_" + H(16) + "_" + H(40), "sgp_local"),
    "sourcegraph-access-token-legacy": (
        lambda: "source" + "graph: " + H(38).upper() + "ab",
        f"sourcegraph commit {H(40)}",
    ),
    "snyk-api-token": (lambda: f"SNYK_TOKEN={uuid()}", f"snyk org id {uuid()}"),
    "octopus-deploy-api-key": (
        lambda: "API" + "-" + R(26, UPPER_DIGITS).upper(),
        "API-GATEWAY-V2",
    ),
    "harness-api-key": (
        lambda: "pat" + "." + R(22, B64URL) + "." + R(24) + "." + R(20),
        "pat.example.com",
    ),
    "infracost-api-token": (lambda: "ico" + "-" + R(32), "ico-" + "short"),
    "prefect-api-token": (lambda: "pnu" + "_" + R(36), "pnu_" + "short"),
    "readme-api-token": (lambda: "rdme" + "_" + R(70, LOWER_DIGITS).lower(), "rdme_" + "short"),
    "pulumi-api-token": (lambda: "pul" + "-" + H(40), "pul-" + "request-template"),
    "hashicorp-vault-token": (lambda: "hv" + "s." + R(90), "hvs.short"),
    "vault-legacy-token": (lambda: f"VAULT_TOKEN=s.{R(24)}", "vault kv s.short"),
    "vault-service-token-legacy": (lambda: "s." + R(24), "s.AcceptanceTimeoutSeconds"),
    "hashicorp-tf-api-token": (
        lambda: R(14) + ".atlas" + "v1." + R(67, B64URL),
        "abc.atlasv1." + "short",
    ),
    "doppler-api-token": (lambda: "dp." + "pt." + R(43), "dp.pt." + "short"),
    "doppler-service-token": (lambda: "dp." + "st.prd." + R(40), "dp.st.prd." + "short"),
    "1password-service-account-token": (lambda: "ops" + "_eyJ" + R(260, B64), "ops_eyJ" + "short"),
    "1password-secret-key": (
        lambda: "A3" + "-" + "-".join(R(n, UPPER_DIGITS).upper() for n in (6, 11, 5, 5, 5)),
        "A3-PAPER-SIZE",
    ),
    "age-secret-key": (
        lambda: "AGE-SECRET" + "-KEY-1" + R(58, UPPER_DIGITS).upper(),
        "AGE-SECRET-KEY-1",
    ),
    "defined-networking-api-token": (
        lambda: "dn" + "key-" + R(26, B64URL) + "-" + R(52, B64URL),
        "dnkey-" + "short",
    ),
    "slack-token": (
        lambda: "xo" + "xb-" + D(12) + "-" + D(13) + "-" + R(24),
        "xoxb-your-token-here",
    ),
    "slack-legacy-token": (
        lambda: "xo" + "xo-" + D(10) + "-" + D(10) + "-" + D(12) + "-" + H(32),
        "xoxo-and-hugs-to-all-of-you",
    ),
    "slack-webhook-url": (
        lambda: (
            "https://hooks.slack.com/services/T"
            + rnd(8, string.ascii_uppercase)
            + "/B"
            + rnd(8, string.ascii_uppercase)
            + "/"
            + R(24)
        ),
        "https://api.slack.com/messaging/webhooks and https://hooks.slack.com/services/",
    ),
    "discord-webhook-url": (
        lambda: f"https://discord.com/api/webhooks/{D(18)}/{R(68, B64URL)}",
        "https://discord.com/api/webhooks/",
    ),
    "microsoft-teams-webhook": (
        lambda: (
            f"https://acme.webhook.office.com/webhookb2/{uuid()}@{uuid()}"
            f"/IncomingWebhook/{H(32)}/{uuid()}"
        ),
        "https://acme.webhook.office.com/webhookb2/short",
    ),
    "discord-bot-token": (
        lambda: (
            base64.urlsafe_b64encode(D(18).encode()).decode().rstrip("=")
            + "."
            + R(6, B64URL)
            + "."
            + R(27, B64URL)
        ),
        "MTIzNDU2Nzg5MDEyMzQ1Njc4.abcdef.short",
    ),
    "discord-client-secret": (
        lambda: f"DISCORD_CLIENT_SECRET={R(32, B64URL)}",
        f"discord channel id {D(18)}",
    ),
    "telegram-bot-api-token": (lambda: D(10) + ":A" + "A" + R(33, B64URL), "12345:A" + "short"),
    "twilio-api-key": (lambda: "S" + "K" + H(32), "SK" + "U-20261120"),
    "twilio-account-sid-and-auth-token": (
        lambda: "A" + f"C{H(32)}:{H(32)}",
        f"the account AC{H(32)} is the sender",
    ),
    "twilio-auth-token": (
        lambda: f"twilio auth token: {H(32)}",
        f"twilio request id {H(32)}",
    ),
    "sendgrid-api-token": (lambda: "S" + "G." + R(22) + "." + R(43), "SG.v2 release notes"),
    "sendinblue-api-token": (lambda: "xkeysib" + "-" + H(64) + "-" + R(16), "xkeysib-short"),
    "mailgun-private-api-token": (lambda: "key" + "-" + H(32), "key-value store"),
    "mailgun-api-key": (lambda: H(32) + "-" + H(8) + "-" + H(8), f"{H(32)}-{H(8)}"),
    "mailgun-signing-key": (
        lambda: f"MAILGUN_WEBHOOK_SIGNING_KEY={H(32)}",
        f"mailgun message id {H(32)}",
    ),
    "mailchimp-api-key": (lambda: H(32) + "-us" + rnd(1, "123456789"), "cafe-us1"),
    "openvpn-static-key": (
        lambda: (
            "-----BEGIN OpenVPN Static key V1-----\n"
            + "\n".join(H(32) for _ in range(16))
            + "\n-----END OpenVPN Static key V1-----"
        ),
        "-----BEGIN OpenVPN Static key V1-----\n" + "\n".join("0" * 32 for _ in range(16)),
    ),
    # (false: a public key's file and a signature's, whose comment names the secret key)
    "minisign-signify-secret-key": (
        lambda: (
            "untrusted comment: minisign encrypted secret key\n"
            + base64.b64encode(b"EdScB2" + rnd(152).encode()).decode()
        ),
        "untrusted comment: minisign public key 5A8B3C\n"
        + base64.b64encode(b"Ed" + b"k" * 40).decode()
        + "\nuntrusted comment: signature from minisign secret key\n"
        + base64.b64encode(b"ED" + b"s" * 72).decode(),
    ),
    # (false: a guest network's code, no password, and one with a placeholder)
    "wifi-qr-code-password": (
        lambda: f"WIFI:T:WPA;S:Office-{R(4)};P:{R(12)}!;H:false;;",
        "WIFI:T:nopass;S:Guest;; and WIFI:T:WPA;S:Home;P:<your-password>;;",
    ),
    # (false: the shape, its checksum broken, as one in 2^32 random strings of it holds)
    "bip32-extended-private-key": (
        extended_private_key,
        "xprv"
        + "9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6Ln"
        + "F5kejMRNNU3TGtRBeJgk33yuGBxrMPHj",
    ),
    "mailchimp-transactional-api-key": (
        lambda: "md" + "-" + R(22, B64URL),
        "md-button-primary-large",
    ),
    "mattermost-access-token": (lambda: f"MATTERMOST_TOKEN={R(26)}", f"mattermost team {R(26)}"),
    "messagebird-api-token": (
        lambda: f"MESSAGEBIRD_API_KEY={R(25)}",
        f"messagebird number {D(25)}",
    ),
    "gitter-access-token": (lambda: f"GITTER_TOKEN={R(40, B64URL)}", f"gitter room {R(40)}"),
    "intercom-api-key": (
        lambda: f"INTERCOM_ACCESS_TOKEN={R(60, B64URL)}",
        f"intercom app {R(60)}",
    ),
    "sendbird-access-token": (
        lambda: f"SENDBIRD_API_TOKEN={H(40)}",
        f"sendbird app id {uuid()}",
    ),
    "zendesk-secret-key": (lambda: f"ZENDESK_API_TOKEN={R(40)}", f"zendesk ticket {D(8)}"),
    "freshbooks-access-token": (
        lambda: f"FRESHBOOKS_TOKEN={R(64)}",
        f"freshbooks invoice {H(64)}",
    ),
    "asana-client-secret": (lambda: f"ASANA_CLIENT_SECRET={R(32)}", f"asana task {D(16)}"),
    "asana-personal-access-token": (lambda: "1" + f"/{D(16)}:{H(32)}", "1/2 of the team"),
    "linear-api-key": (lambda: "lin" + "_api_" + R(40), "lin_api_docs"),
    "linear-client-secret": (
        lambda: f"LINEAR_CLIENT_SECRET={H(32)}",
        f"linear regression over {H(32)}",
    ),
    "notion-api-token": (lambda: "ntn" + "_" + D(11) + R(35), "ntn_" + "short"),
    "notion-integration-secret": (lambda: "secret" + "_" + R(43), "secret_key_base"),
    "typeform-api-token": (lambda: "tfp" + "_" + R(59, B64URL), "tfp_" + "short"),
    "contentful-personal-access-token": (
        lambda: "CFPAT" + "-" + R(43, B64URL),
        "CFPAT-" + "short",
    ),
    "contentful-delivery-api-token": (
        lambda: f"CONTENTFUL_ACCESS_TOKEN={R(43, B64URL)}",
        f"contentful space id {R(12)}",
    ),
    "postman-api-token": (lambda: "PM" + "AK-" + H(24) + "-" + H(34), "PMAK-"),
    "airtable-personal-access-token": (
        lambda: "pa" + "t" + R(14) + "." + H(64),
        "path.to/the/file",
    ),
    "airtable-api-key": (
        lambda: f"AIRTABLE_API_KEY=key{R(14)}",
        f"airtable base id app{R(14)}",
    ),
    "figma-personal-access-token": (lambda: "fig" + "d_" + R(40, B64URL), "figd_" + "short"),
    "frameio-api-token": (lambda: "fio" + "-u-" + R(64, B64URL), "fio-u-" + "short"),
    "adafruit-api-key": (
        lambda: f"ADAFRUIT_IO_KEY={R(32, B64URL)}",
        f"adafruit feed {R(32, B64URL)}",
    ),
    "adafruit-io-key": (lambda: "aio" + "_" + R(28), "aio_" + "short"),
    "adobe-client-secret": (lambda: "p8" + "e-" + R(32), "p8e-" + "short"),
    "dropbox-api-token": (
        lambda: f"dropbox access token sl.{R(135, B64URL)}",
        "dropbox sl.short",
    ),
    "dropbox-short-lived-token": (lambda: "sl" + ".u." + "Qz7" + R(140, B64URL), "sl." + R(40)),
    "dropbox-long-lived-api-token": (
        lambda: f"DROPBOX_TOKEN={R(11)}" + "A" * 10 + R(43, B64URL),
        f"dropbox folder {R(11)}",
    ),
    "linkedin-client-secret": (
        lambda: f"LINKEDIN_CLIENT_SECRET={R(16)}",
        f"linkedin profile id {R(16)}",
    ),
    "looker-client-secret": (
        lambda: f"LOOKER_CLIENT_SECRET={R(24)}",
        f"looker dashboard {D(24)}",
    ),
    "nytimes-access-token": (
        lambda: f"NYTIMES_API_KEY={R(32, B64URL)}",
        f"nytimes article {R(32)}",
    ),
    "twitch-api-token": (lambda: f"TWITCH_CLIENT_SECRET={R(30)}", f"twitch channel {R(30)}"),
    "etsy-access-token": (lambda: f"ETSY_API_KEY={R(24)}", f"etsy listing {D(12)}"),
    "flickr-access-token": (lambda: f"FLICKR_SECRET={R(32)}", f"flickr photo {R(32)}"),
    "beamer-api-token": (lambda: f"BEAMER_API_KEY=b_{R(44, B64URL)}", "beamer api key b_short"),
    "squarespace-access-token": (
        lambda: f"SQUARESPACE_API_KEY={uuid()}",
        f"squarespace site id {uuid()}",
    ),
    "hubspot-api-key": (lambda: f"HUBSPOT_API_KEY={uuid().upper()}", f"hubspot portal {uuid()}"),
    "hubspot-private-app-token": (lambda: "pat" + "-na1-" + uuid(), "pat-na1-" + "short"),
    "launchdarkly-access-token": (
        lambda: f"LAUNCHDARKLY_ACCESS_TOKEN=api-{uuid()}",
        f"launchdarkly flag {uuid()}",
    ),
    "plaid-api-token": (
        lambda: f"PLAID_ACCESS_TOKEN=access-sandbox-{uuid()}",
        f"plaid item id {uuid()}",
    ),
    "plaid-secret-key": (lambda: f"PLAID_SECRET={R(30)}", f"plaid institution {R(30)}"),
    "okta-access-token": (
        lambda: "okta token 0" + "0" + R(40, B64URL),
        f"okta org id 00o{R(17)}",
    ),
    "okta-ssws-token": (lambda: "Authorization: SS" + "WS 0" + "0" + R(40, B64URL), "SSWS 00short"),
    "sumologic-access-token": (lambda: f"SUMO_ACCESS_KEY={R(64)}", f"sumo collector {R(64)}"),
    "privateai-api-token": (
        lambda: f"PRIVATE_AI_API_KEY={R(32)}",
        f"private-ai entity {R(32)}",
    ),
    "rapidapi-access-token": (
        lambda: f"X-RapidAPI-Key: {R(50, B64URL)}",
        f"rapidapi host {R(50, B64URL)}",
    ),
    "cohere-api-token": (lambda: f"COHERE_API_KEY={R(40)}", f"cohere model {R(40)}"),
    "algolia-api-key": (lambda: f"ALGOLIA_ADMIN_API_KEY={R(32)}", f"algolia index {R(32)}"),
    "fastly-api-token": (lambda: f"FASTLY_API_TOKEN={R(32, B64URL)}", f"fastly service {R(32)}"),
    "meraki-api-key": (lambda: f"MERAKI_API_KEY={H(40)}", f"meraki network {H(40)}"),
    "netlify-access-token": (
        lambda: f"NETLIFY_AUTH_TOKEN={R(43, B64URL)}",
        f"netlify site id {uuid()}",
    ),
    "netlify-personal-access-token": (lambda: "nf" + "p_" + R(36), "nfp_" + "short"),
    "datadog-access-token": (lambda: f"datadog_api_key = {H(32)}", f"datadog trace id {H(32)}"),
    "sentry-access-token": (lambda: f"SENTRY_AUTH_TOKEN={H(64)}", f"sentry event id {H(32)}"),
    "new-relic-api-key": (
        lambda: f"NEW_RELIC_LICENSE_KEY={R(40)}",
        f"new relic account id {D(7)}",
    ),
    "kucoin-secret-key": (lambda: f"KUCOIN_API_SECRET={uuid()}", f"kucoin order id {uuid()}"),
    "kraken-access-token": (lambda: f"KRAKEN_API_SECRET={R(88, B64)}", f"kraken pair {R(40)}"),
    "bittrex-access-key": (lambda: f"BITTREX_API_KEY={R(32)}", f"bittrex market {R(32)}"),
    "coinbase-access-token": (
        lambda: f"COINBASE_API_SECRET={R(64, B64URL)}",
        f"coinbase account {uuid()}",
    ),
    "finicity-client-secret": (
        lambda: f"FINICITY_APP_KEY={R(32)}",
        f"finicity customer {D(10)}",
    ),
    "finnhub-access-token": (lambda: f"FINNHUB_API_KEY={R(20)}", f"finnhub symbol {R(20)}"),
    "gocardless-api-token": (
        lambda: f"GOCARDLESS_ACCESS_TOKEN=live_{R(40, B64URL)}",
        "gocardless access token live_short",
    ),
    "lob-api-key": (lambda: f"LOB_API_KEY=live_{H(35)}", f"lob api key live_{H(20)}"),
    "sidekiq-secret": (
        lambda: f"BUNDLE_GEMS__CONTRIBSYS__COM={H(8)}:{H(8)}",
        "BUNDLE_GEMS__CONTRIBSYS__COM=${SIDEKIQ_CREDENTIALS}",
    ),
    "confluent-secret-key": (
        lambda: f"CONFLUENT_API_SECRET={R(64, B64[:-1])}",
        f"confluent cluster {R(16)}",
    ),
    "facebook-secret": (lambda: f"FACEBOOK_APP_SECRET={H(32)}", f"facebook page id {D(15)}"),
    "twitter-api-credential": (lambda: f"TWITTER_API_KEY={R(25)}", f"twitter handle {R(25)}"),
    "twitter-access-token": (
        lambda: f"TWITTER_ACCESS_TOKEN={D(19)}-{R(40)}",
        f"twitter status {D(19)}",
    ),
    "twitter-bearer-token": (
        lambda: "A" * 22 + R(20) + "%" + "2B" + R(15) + "%3D" + R(50),
        "A" * 22 + R(90),
    ),
    "facebook-access-token": (lambda: "EA" + "AC" + R(180), "EAAC" + R(40)),
    "square-access-token": (lambda: "EA" + "AA" + R(60, B64URL), "EAAA" + "short"),
    "facebook-app-access-token": (lambda: D(15) + "|" + R(27, B64URL), D(15) + "|short"),
    "square-oauth": (lambda: "sq0" + "csp-" + R(43, B64URL), "sq0atp-"),
    "shopify-token": (lambda: "shp" + "at_" + H(32), "shipping_address"),
    "stripe-access-token": (lambda: "sk" + "_live_" + R(24), "pk_live_" + R(24)),
    "stripe-webhook-secret": (lambda: "wh" + "sec_" + R(32), "whsec_"),
    "braintree-access-token": (
        lambda: "access_token$production$" + rnd(16, LOWER_DIGITS) + "$" + H(32),
        "access_token$" + "sandbox",
    ),
    "shippo-api-token": (lambda: "shippo" + "_live_" + H(40), "shippo_live_" + "short"),
    "duffel-api-token": (lambda: "duffel" + "_test_" + R(43, B64URL), "duffel_test_" + "short"),
    "easypost-api-token": (lambda: "EZ" + "AK" + R(54), "EZAK" + "short"),
    "flutterwave-secret-key": (
        lambda: "FLWSECK" + "_TEST-" + H(32) + "-X",
        "FLWSECK_TEST-" + "short",
    ),
    "openai-or-anthropic-api-key": (
        lambda: "sk" + "-proj-" + R(120, B64URL),
        "sk-learn-compatibility-layer-notes-v2",
    ),
    "huggingface-access-token": (lambda: "api" + "_org_" + R(34), "hf_hub_download"),
    "perplexity-api-key": (lambda: "pp" + "lx-" + R(48), "pplx-" + "short"),
    "sonar-login-token": (
        lambda: "mvn sonar:sonar -Dsonar.login=" + H(40),
        "sonar.login=admin; sonar.login " + H(39) + "; sonar.projectKey=" + H(40),
    ),
    "tavily-api-key": (lambda: "tvly" + "-" + R(32), "tvly-" + R(31)),
    "jina-api-key": (lambda: "jina" + "_" + R(60), "jina_" + R(40)),
    "firecrawl-api-key": (lambda: "fc" + "-" + H(32), "fc-" + H(31) + " fc-" + "0" * 32),
    "e2b-api-key": (lambda: "e2" + "b_" + H(40), "e2b_" + H(20) + " e2b_" + "0" * 40),
    "dependency-track-api-key": (lambda: "odt" + "_" + R(32), "odt_" + R(20)),
    "crates-io-api-token": (lambda: "ci" + "o" + R(32), "cio" + R(31) + " social ciao"),
    "vault-unseal-key": (
        lambda: "Unseal Key 1: " + R(40, B64) + "Ab3/",
        "unseal the vault with three of the five keys",
    ),
    "kubernetes-bootstrap-token": (
        lambda: (
            "kubeadm join 10.0.0.4:6443 --token "
            + R(6, "abcdefghijklmnopqrstuvwxyz0123456789")
            + ".a1"
            + R(14, "abcdefghijklmnopqrstuvwxyz0123456789")
        ),
        "kubeadm join 10.0.0.4:6443 --token abcdef.0123456789abcdef",
    ),
    "groq-api-key": (lambda: "gs" + "k_" + R(52), "gsk_" + "short"),
    "replicate-api-token": (lambda: "r8" + "_" + R(37), "r8_" + "short"),
    "xai-api-key": (lambda: "xa" + "i-" + R(80), "xai-" + "short"),
    "openrouter-api-key": (lambda: "sk-" + "or-v1-" + H(64), "sk-or-v1-" + H(40)),
    "langsmith-api-key": (
        lambda: "lsv2" + "_pt_" + H(32) + "_" + H(10),
        "lsv2_pt_" + H(42),
    ),
    "pinecone-api-key": (lambda: "pc" + "sk_" + R(6) + "_" + R(64), "pcsk_" + R(70)),
    "supabase-access-token": (lambda: "sb" + "p_" + H(40), "sbp_" + "short"),
    "supabase-secret-key": (lambda: "sb_" + "secret_" + R(31, B64URL), "sb_publishable_" + R(31)),
    "resend-api-key": (
        lambda: "re" + "_" + R(8) + "_" + R(24),
        "re_compile_pattern_for_the_ledger_lines",
    ),
    "render-api-key": (lambda: "rn" + "d_" + R(32), "rnd_" + "x" * 32),
    "langfuse-secret-key": (
        lambda: "sk" + "-lf-" + "-".join(H(n) for n in (8, 4, 4, 4, 12)),
        "pk-lf-" + "-".join(H(n) for n in (8, 4, 4, 4, 12)),
    ),
    "clickup-personal-token": (
        lambda: "pk" + "_" + D(8) + "_" + R(32, UPPER_DIGITS),
        "pk_live_" + R(24),
    ),
    "adyen-api-key": (
        lambda: "AQ" + "E" + R(77, B64) + "=-" + R(43, B64) + "=",
        "AQE" + R(30) + "-" + R(44, B64),
    ),
    "mollie-api-key": (lambda: "li" + "ve_" + R(30), "test_parse_the_ledger_lines_fast"),
    "bitwarden-access-token": (
        lambda: "0" + "." + uuid4() + "." + R(30) + ":" + R(22, B64) + "==",
        "10." + uuid4() + "." + R(30) + ":" + R(22, B64) + "==",
    ),
    "telnyx-api-key": (lambda: "KE" + "Y" + R(55, B64URL), "KEY_" + "_".join(["VAULT"] * 9)),
    "modal-token": (lambda: "as" + "-" + R(22), "ak-production-eu-west-1"),
    "launchdarkly-key": (lambda: "sd" + "k-" + uuid4(), "api-" + uuid4()[:14] + "1" + uuid4()[15:]),
    "apify-api-token": (lambda: "apify" + "_api_" + R(36), "apify_api_" + "short"),
    "bannerbear-api-key": (lambda: "bb" + "_pr_" + H(30), "bb_pr_" + R(30)),
    "cloudflare-api-token": (lambda: "cf" + "ut_" + R(40) + H(8), "cfut_" + R(40) + "XYZWXYZW"),
    "deno-deploy-token": (lambda: "dd" + "p_" + R(36), "ddp_" + "a" * 36),
    "nvidia-api-key": (lambda: "nv" + "api-" + R(64, B64URL), "nvapi-" + R(32, B64URL)),
    "posthog-personal-api-key": (lambda: "ph" + "x_" + R(43), "phc_" + R(43)),
    "rootly-api-key": (lambda: "root" + "ly_" + H(64), "rootly_" + R(64)),
    "sourcegraph-cody-key": (lambda: "sl" + "k_" + H(64), "slk_" + H(32)),
    "zoho-oauth-token": (lambda: "10" + "00." + H(32) + "." + H(32), "1000." + H(32) + "." + R(32)),
    "klaviyo-private-key": (lambda: "p" + "k_" + H(34), "pk_live_" + R(26)),
    "lob-key": (lambda: "te" + "st_" + H(35), "test_" + H(34)),
    "gocardless-live-token": (
        lambda: "li" + "ve_" + R(40, B64URL),
        "live_streaming_session_of_the_week_one_two",
    ),
    "nightfall-api-key": (lambda: "N" + "F-" + R(32), "NF-" + "A" * 32),
    "fullstory-api-key": (lambda: "na" + "1." + R(50) + "+/" + R(48), "na1." + R(99)),
    "pagarme-api-key": (lambda: "ak" + "_live_" + R(30), "ak_live_" + "short"),
    "ramp-client-secret": (lambda: "ramp" + "_sec_" + R(48), "ramp_id_" + R(40)),
    "ubidots-token": (lambda: "BB" + "FF-" + R(30), "BBFF-" + R(12)),
    "voiceflow-api-key": (lambda: "VF" + ".DM." + H(24) + "." + R(16), "VF.DM." + H(24)),
    "flexport-api-key": (lambda: "shl" + "tm_" + R(40, B64URL), "shltm_" + R(20)),
    "fleetbase-api-key": (lambda: "flb" + "_live_" + R(20), "flb_live_" + "x" * 20),
    "close-api-key": (
        lambda: "ap" + "i_" + R(22) + "." + R(22),
        "api_" + "get_the_ledger_lines_of_the_account_1234567",
    ),
    "bitbucket-data-center-token": (lambda: "BB" + "DC-" + R(44, B64), "BBDC-" + "short"),
    "salesforce-refresh-token": (lambda: "5Aep" + "861" + R(80) + ".", "5Aep861" + R(40)),
    "fireworks-api-key": (lambda: "fw" + "_" + R(24), "fw_version_2_1_stable_build"),
    "voyage-api-key": (lambda: "pa" + "-" + R(43, B64URL), "pa-" + "short"),
    "elevenlabs-api-key": (lambda: "sk" + "_" + H(48), "sk_" + H(32)),
    "woocommerce-api-key": (lambda: "ck" + "_" + H(40), "ck_" + "x" * 40),
    "salesforce-access-token": (
        lambda: "00D" + R(12) + "!" + R(96, string.ascii_letters + string.digits + "._"),
        "00D" + R(12) + "!" + "short",
    ),
    "azure-function-key": (
        lambda: f"https://orders-fn.azurewebsites.net/api/Charge?code={R(54, B64URL)}==",
        "https://orders-fn.azurewebsites.net/api/Charge?code=<your-function-key>",
    ),
    "zapier-webhook-url": (
        lambda: (
            "https://hooks.zapier.com/hooks/" + "catch/" + D(7) + "/" + R(6, LOWER_DIGITS) + "/"
        ),
        "https://hooks.zapier.com/hooks/catch/",
    ),
    "ifttt-webhook-url": (
        lambda: "https://maker.ifttt.com/trigger/deploy/with/" + "key/" + R(43, B64URL),
        "https://maker.ifttt.com/trigger/deploy/with/key/",
    ),
    "azure-devops-personal-access-token": (
        lambda: "AZURE_DEVOPS_PAT=" + R(52, "abcdefghijklmnopqrstuvwxyz234567"),
        "azure devops project " + "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz",
    ),
    "buildkite-api-token": (lambda: "bk" + "ua_" + H(40), "bkua_" + "short"),
    "circleci-api-token": (
        lambda: "CCI" + "PAT_" + R(22) + "_" + H(40),
        "CCIPAT_" + R(22) + "_" + "short",
    ),
    "tailscale-api-key": (
        lambda: "tskey" + "-auth-k" + R(10) + "CNTRL-" + R(33),
        "tskey-auth-" + "your-key-here-from-the-admin-console",
    ),
    "firebase-cloud-messaging-server-key": (
        lambda: "AAAA" + R(7, B64URL) + ":" + "APA91b" + R(134, B64URL),
        "AAAA" + R(7, B64URL) + ":APA91b" + R(40, B64URL),
    ),
    "databricks-api-token": (lambda: "da" + "pi" + H(32), "dapi_reference"),
    "clickhouse-cloud-api-secret-key": (lambda: "4b" + "1d" + R(38), "4b1d" + H(38)),
    "dynatrace-api-token": (
        lambda: "dt0" + "c01." + R(24, UPPER_DIGITS) + "." + R(64, UPPER_DIGITS),
        "dt0c01." + "short",
    ),
    "mongodb-atlas-service-account-secret": (
        lambda: "mdb_sa" + "_sk_" + R(6, B64URL) + "Qz7" + R(31),
        "mdb_sa_sk_" + "a" * 40,
    ),
    "segment-public-api-token": (lambda: "sg" + "p_" + "Qz7" + R(61), "sgp_" + H(64)),
    "new-relic-key": (lambda: "NR" + "AK-" + R(27, UPPER_DIGITS), "NRAK-" + "short"),
    "new-relic-license-key": (lambda: "eu01xx" + H(30) + "NR" + "AL", "LICENSE_NRAL"),
    "grafana-service-account-token": (
        lambda: "gl" + "sa_" + R(32) + "_" + H(8),
        "glsa_" + "short",
    ),
    "grafana-cloud-api-token": (lambda: "gl" + "c_" + R(100, B64), "glc_" + "short"),
    "grafana-api-key": (lambda: "eyJr" + "Ijoi" + R(80), "eyJrIjoi" + "short"),
    "sentry-token": (lambda: "sntry" + "u_" + H(64), "sntryu_" + "short"),
    "planetscale-token": (lambda: "pscale" + "_tkn_" + R(43), "pscale_tkn_" + "short"),
    "settlemint-access-token": (lambda: "sm" + "_pat_" + R(16), "sm_pat_" + "short"),
    "nuget-config-password": (
        lambda: '<add key="ClearText' + 'Password" value="' + R(14) + '" />',
        '<add key="ClearTextPassword" value="%FEED_PASSWORD%" />',
    ),
    "maxmind-license-key": (lambda: R(6) + "_" + R(29) + "_m" + "mk", "license_mmk"),
    "openshift-user-token": (lambda: "sha256" + "~" + R(43, B64URL), "sha256~" + "short"),
    "intra42-client-secret": (lambda: "s-s4t2" + "ud-" + H(64), "s-s4t2ud-" + "short"),
    "authress-service-client-access-key": (
        lambda: "sc" + "_" + R(10) + "." + R(5) + ".acc_" + R(20) + "." + R(40, B64URL),
        "sc_" + "short",
    ),
    "mapbox-secret-token": (
        lambda: "sk" + ".eyJ" + R(60, B64URL) + "." + R(22, B64URL),
        "sk.eyJ" + "short",
    ),
    "jwt": (
        lambda: (
            base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
            + "."
            + base64.urlsafe_b64encode(b'{"sub":"support-bot"}').decode().rstrip("=")
            + "."
            + R(43, B64URL)
        ),
        base64.urlsafe_b64encode(b'{"alg":"ES256"}').decode().rstrip("=") + ".." + R(40),
    ),
    "bearer-token": (
        lambda: "Authorization: Bearer " + R(32),
        "Use bearer tokens, never Bearer <token> or Bearer ${TOKEN} in examples.",
    ),
    "basic-auth": (
        lambda: "Authorization: Basic " + b64(f"svc-erp:{R(12)}"),
        "basic authentication is disabled; the Basic plan costs 5 EUR",
    ),
}

RULE_IDS = [rule.id for rule in RULES]


def test_every_rule_has_a_true_and_a_false_case() -> None:
    assert len(RULE_IDS) == len(set(RULE_IDS))
    assert sorted(EXAMPLES) == sorted(RULE_IDS)


def _rule_spans(rule: Rule, text: str) -> list[tuple[int, int]]:
    """What ``rule`` alone finds in ``text``: its own pattern and check."""
    found = []
    for m in re.finditer(rule.regex, text, re.ASCII):
        span = rule.check(text, m.start(), m.end())
        if span is not None:
            found.append(span)
    return found


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
def test_the_rule_finds_its_true_case(rule: Rule) -> None:
    make, _ = EXAMPLES[rule.id]
    text = make()
    assert _rule_spans(rule, text), (rule.id, text)
    spans = scan_text(text)
    assert rule.kind in {kind for _, _, kind in spans}, (rule.id, text, spans)


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
def test_the_true_case_ending_a_sentence_is_found(rule: Rule) -> None:
    """A credential at the end of a sentence, its full stop after it, is found (a dotted
    token's class holds the stop too: read with it, it may be too long)."""
    make, _ = EXAMPLES[rule.id]
    text = f"The value was {make()}."
    assert rule.kind in {kind for _, _, kind in scan_text(text)}, (rule.id, text)


# How prose, code and markup put a value down: after it a comma, a semicolon, a question mark,
# around it brackets, quotes, backticks, tags, a code block, line ends of either kind.
WRAPPINGS = {
    "comma": "first {}, then the rest",
    "parentheses": "the key (value {}) was used",
    "backticks": "run with `{}` today",
    "single quotes": "set it to '{}' now",
    "double quotes": 'set it to "{}" now',
    "semicolon": "{}; next",
    "angle brackets": "<{}>",
    "square brackets": "[{}]",
    "code block": "```\n{}\n```",
    "exclamation": "here it is {}!",
    "question": "is it {}?",
    "own line": "line one\n{}\nline three",
    "CRLF": "a\r\n{}\r\nb",
    "tabs": "key\t{}\tend",
    "JSON quoted in a string": '{{\\"v\\": \\"{}\\"}}',
    "HTML": "<code>{}</code>",
    "URL fragment": "https://example.com/#token={}",
}


@pytest.mark.parametrize("wrapping", list(WRAPPINGS))
def test_every_true_case_is_found_however_the_text_wraps_it(wrapping: str) -> None:
    missed = []
    for rule_id, (make, _) in EXAMPLES.items():
        credential = make()
        text = WRAPPINGS[wrapping].format(credential)
        start = text.find(credential)
        end = start + len(credential)
        if not any(a < end and b > start for a, b, _ in scan_text(text)):
            missed.append((rule_id, text))
    assert missed == []


@pytest.mark.parametrize(
    "quoting",
    [
        "config = {}",  # a config quoted in a text
        "client = Client({})",  # code
        "2026-12-06T03:00:00Z INFO body={} status=200",  # a log line
        "name,value\nprod,{}",  # a CSV field
    ],
)
def test_every_true_case_written_as_a_json_string_is_found(quoting: str) -> None:
    """Each true case quoted as JSON writes a string, its own quotes and backslashes escaped
    (nuget.config's <add key=\\"ClearTextPassword\\" value=\\"…\\"/>), is found there."""
    missed = []
    for rule_id, (make, _) in EXAMPLES.items():
        quoted = json.dumps(make())
        text = quoting.format(quoted)
        start = text.find(quoted)
        end = start + len(quoted)
        if not any(a < end and b > start for a, b, _ in scan_text(text)):
            missed.append((rule_id, text))
    assert missed == []


# A separator past ASCII and the ASCII one it stands for (what a person or a model writes
# between a service's name and its key: "Heroku API key → …", "Datadog キー：…")
TYPOGRAPHIC = {
    " → ": " -> ",
    " — ": " - ",
    "：": ":",
    "\u00a0": " ",
    " “": ' "',
}
_OPERATOR = re.compile(r"[ \t]*[=:][ \t]*")


@pytest.mark.parametrize("typographic", list(TYPOGRAPHIC))
def test_a_typographic_separator_reads_as_its_ascii_one(typographic: str) -> None:
    """Each true case whose name and value an operator separates, written with the ASCII
    separator in its place and with the typographic one: found with the one, found with the
    other (the keyword rules' glue read "→" as no separator: 80 formats missed)."""
    compared = differ = 0
    for rule_id, (make, _) in EXAMPLES.items():
        credential = make()
        operator = _OPERATOR.search(credential)
        if operator is None or "\n" in credential or "//" in credential[: operator.end() + 2]:
            continue
        name, value = credential[: operator.start()], credential[operator.end() :]
        closing = "\u201d" if typographic == " “" else ""
        plain = name + TYPOGRAPHIC[typographic] + value + ('"' if closing else "")
        fancy = name + typographic + value + closing
        compared += 1
        if bool(scan_text(plain)) != bool(scan_text(fancy)):
            differ += 1
            print(rule_id, repr(fancy))
    assert compared > 60
    assert differ == 0


def test_a_nuget_password_quoted_in_json_is_withheld_alone() -> None:
    """The password of an escaped <add key=\\"ClearTextPassword\\" …/> is what is withheld,
    without the backslash before its closing quote; a reference to where it is kept is none."""
    password = "Wq8" + R(12)
    line = json.dumps(f'<add key="ClearTextPassword" value="{password}" />')
    assert [line[s:e] for s, e, _ in scan_text(line)] == [password]
    mixed = f'<add key=\\"ClearTextPassword" value="{password}\\" />'  # (its key's quotes)
    assert [mixed[s:e] for s, e, _ in scan_text(mixed)] == [password]
    reference = json.dumps('<add key="ClearTextPassword" value="%FEED_PASSWORD%" />')
    assert scan_text(reference) == []
    assert scan_text(json.dumps('<add key="Password" value="$(FeedPassword)" />')) == []


@pytest.mark.parametrize("rule", RULES, ids=RULE_IDS)
def test_the_rule_finds_nothing_in_its_near_miss(rule: Rule) -> None:
    _, near_miss = EXAMPLES[rule.id]
    assert _rule_spans(rule, near_miss) == []
    assert scan_text(near_miss) == [], [near_miss[s:e] for s, e, _ in scan_text(near_miss)]


@pytest.mark.parametrize("placement", list(PLACEMENTS))
def test_no_near_miss_is_flagged_in_any_placement(placement: str) -> None:
    for rule_id, (_, near_miss) in EXAMPLES.items():
        doc = _document()
        PLACEMENTS[placement](doc, near_miss)
        assert find_secrets(doc) == [], (rule_id, placement)
        assert first_secret(doc) is None


def test_every_keyword_rule_needs_its_service_beside_the_value() -> None:
    """The value of a keyword rule alone, or after another service's name, is no credential
    of that kind: a bare 32-digit hexadecimal string is a digest as often as a key."""
    assert scan_text(H(32)) == []
    assert scan_text(f"commit {H(40)} by the deploy bot") == []
    assert scan_text(f"request {uuid()} took 12 ms") == []
    okta = "00" + R(40, B64URL)
    assert scan_text(f"okta token {okta}") != []
    assert scan_text(f"object token {okta}") == []


@pytest.mark.parametrize("placement", list(PLACEMENTS))
def test_every_true_case_is_found_in_every_placement(placement: str) -> None:
    """As the recall corpus does (tests/test_secrets_recall.py): each rule's credential, as a
    value, a member name, in an excerpt, the arguments, an extension, percent-encoded and
    base64-wrapped, is found where it was put and nowhere else, and no message repeats it."""
    missed = []
    for rule_id, (make, _) in EXAMPLES.items():
        if (rule_id, placement) in NOT_READ:
            continue
        secret = make()
        doc = _document()
        path, in_key = PLACEMENTS[placement](doc, secret)
        hits = find_secrets(doc)
        first = first_secret(doc)
        if {h.path for h in hits} != {path} or first is None or first.path != path:
            missed.append((rule_id, secret, [(h.path, h.kind) for h in hits]))
            continue
        assert any(h.in_key == in_key for h in hits), rule_id
        credentials = [secret[s:e] for s, e, _ in scan_text(secret)]
        for finding in secret_findings(doc):
            for credential in credentials:
                for piece in (credential, credential[-12:], credential[:12]):
                    assert piece not in finding.message, rule_id
    assert missed == [], placement


def test_docs_list_every_rule() -> None:
    """docs/secrets.md has a row for every rule, by its id, and none for a rule that is gone."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "secrets.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9\-]+)` \| (?:prefix|keyword|pair|shape) \|", doc, re.M)
    assert rows == [rule.id for rule in RULES]


@pytest.mark.parametrize("padding", [0, 30_000])  # `re` on a small text, RE2 on a large one
@pytest.mark.parametrize(
    ("head", "make"),
    [
        ("AccountName=acmestore\n", lambda: b64(R(64))[:86] + "=="),
        ("storage account: acme\n  ", lambda: b64(R(64))[:86] + "=="),
        ("AccountName=acmestore\\n", lambda: b64(R(64))[:86] + "=="),  # a JSON string's source
        (aws_id() + "\n", lambda: R(40, B64)),
        (aws_id() + ",\\n", lambda: R(40, B64)),
    ],
)
def test_a_key_on_the_line_after_its_account_s_name_is_found(
    head: str, make: Make, padding: int
) -> None:
    """An Azure storage key on the line after its account's name, an AWS secret on the line
    after its key id: a pair pasted as two lines. A blank line apart, they are not a pair."""
    key = make()
    text = "x" * padding + "\n" + head + key
    assert key in [text[s:e] for s, e, _ in scan_text(text)]
    apart = "x" * padding + "\n" + head.rstrip(" ") + "\n" + key
    if "\\" not in head:  # (the glue holds backslashes: an escaped line end is read past)
        assert key not in [apart[s:e] for s, e, _ in scan_text(apart)]


def test_a_connection_string_s_password_holds_what_it_likes() -> None:
    """After a ";", a password is a connection string's (ADO.NET, ODBC): a "#" or a "?" in it is
    part of it, where a ;path parameter of a URL ends at them (;jsessionid=X?a=1)."""
    password = "Ab3dEf" + "#Gh5jKl9?x"
    text = f"Server=tcp:acme,1433;User ID=app;Password={password};Encrypt=True;"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [password]
    url = "https://shop.example/cart;jsessionid=" + "ABC123def456GHI" + "?a=1#top"
    assert [url[s:e] for s, e, _ in scan_text(url)] == ["ABC123def456GHI"]


MIXED_HEX = "0123456789abcdefABCDEF"


@pytest.mark.parametrize(
    "make",
    [
        lambda: "dop_v1_" + rnd(64, MIXED_HEX),
        lambda: "dor_v1_" + rnd(64, MIXED_HEX.upper()),
        lambda: "SK" + rnd(32, MIXED_HEX),
        lambda: "PMAK-" + rnd(24, MIXED_HEX) + "-" + rnd(34, MIXED_HEX),
        lambda: "xkeysib-" + rnd(64, MIXED_HEX) + "-" + R(16),
        lambda: "s-s4t2ud-" + rnd(64, MIXED_HEX),
        lambda: "FLWSECK_TEST-" + rnd(32, "0123456789abcdefgh") + "-X",
        lambda: "FLWSECK_TEST-" + rnd(12, "0123456789ABCDEFGH"),
    ],
    ids=["digitalocean", "do-upper", "twilio", "postman", "brevo", "intra42", "fw", "fw12"],
)
def test_an_issuer_s_hexadecimal_token_is_found_in_either_case(make: Make) -> None:
    """gitleaks reads these issuers' hexadecimal in either case (Flutterwave's to "h"): a
    token whose case something changed is the same credential."""
    token = make()
    while not any(c.isdigit() for c in token[-12:]):
        token = make()
    text = f"token: {token}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [token]


# A service's name alone as its value's label, as gitleaks reads one (an operator between, its
# quotes and spaces): the name says what the value is, no key's word needed
LABELLED_BY_SERVICE = [
    ("heroku: {}", lambda: f"{R(8, HEX)}-{R(4, HEX)}-{R(4, HEX)}-{R(4, HEX)}-{R(12, HEX)}"),
    ("HEROKU={}", lambda: f"{R(8, HEX)}-{R(4, HEX)}-{R(4, HEX)}-{R(4, HEX)}-{R(12, HEX)}"),
    ("DATADOG={}", lambda: R(40, HEX)),
    ('"datadog": "{}"', lambda: R(32, HEX)),
    ("snyk => {}", lambda: f"{R(8, HEX)}-{R(4, HEX)}-{R(4, HEX)}-{R(4, HEX)}-{R(12, HEX)}"),
]


@pytest.mark.parametrize(("form", "make"), LABELLED_BY_SERVICE, ids=lambda v: str(v)[:12])
def test_a_service_s_name_alone_labels_its_key(form: str, make: Callable[[], str]) -> None:
    value = make()
    text = form.format(value)
    assert [text[s:e] for s, e, _ in scan_text(text)] == [value]
    # (its name with another word is no label: an app's, an id's; nor a colon within a path)
    for other in ("heroku_app: {}", "heroku app id: {}", "arn:aws:heroku:{}"):
        assert scan_text(other.format(value)) == [], other


@pytest.mark.parametrize("kind", ["dt0c01", "dt0s02", "dt0s16"])
def test_each_kind_of_dynatrace_token_is_found(kind: str) -> None:
    """An access token (dt0c01), an OAuth client's secret (dt0s02), a platform token (dt0s16):
    one format, its kind before the first dot."""
    token = f"{kind}.{R(24, UPPER_DIGITS)}.{R(64, UPPER_DIGITS)}"
    text = f"export DT_TOKEN={token}\n"
    assert [text[s:e] for s, e, _ in scan_text(text)] == [token]
    assert scan_text(f"dt0s16.{R(24, UPPER_DIGITS)}") == []
