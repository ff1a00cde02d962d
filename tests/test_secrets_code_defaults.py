"""A credential written into code as the value a variable falls back to when the environment
leaves it unset: JavaScript's `process.env.API_KEY || "…"` and `?? "…"` (gitleaks reads "||" as
an operator), C#'s `GetEnvironmentVariable("API_KEY") ?? "…"`, PHP's `getenv("API_KEY") ?: "…"`,
Ruby's `ENV.fetch("API_KEY") { "…" }`, an environment lookup's default
(`os.environ.get("DJANGO_SECRET_KEY", "…")`, django-environ's and decouple's
`env("SECRET_KEY", default="…")`), and Gradle's `buildConfigField "String", "API_KEY",
"\\"…\\""`, whose value holds a string literal's quotes. Django's secret key is generated in
one case, from letters, digits and symbols: as the second of two strings it is judged by that
shape. What code leaves there that is no credential (an empty string, another variable, a
placeholder, a URL, a validator's pattern) stays none."""

from __future__ import annotations

import pytest

from app.secrets import find_secrets
from tests.test_secrets import found_in_text, rnd

HEX_KEY = "9e" + rnd(30, "0123456789abcdef")
TOKEN = "Qv7" + rnd(17)
# (as Django's get_random_secret_key draws one: 50 of a-z, 0-9 and !@#$%^&*(-_=+))
DJANGO_KEY = "bp1=h#ah+@mmvafi8b6f!58m0ezm%+f(@jl#_cdr9*#j=r=!ch"
# a large text: RE2 reads it, where `re` reads a small one
PADDING = "// settings\n" * 3000


def _found_by_both_engines(line: str) -> list[list[str]]:
    """What is found in ``line`` alone (`re` reads it) and at the end of a large text (RE2)."""
    return [found_in_text(padding + line + "\n") for padding in ("", PADDING)]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (f'const apiKey = process.env.API_KEY || "{HEX_KEY}";', HEX_KEY),
        (f'const apiKey = process.env.API_KEY ?? "{HEX_KEY}";', HEX_KEY),
        (f"const token = process.env.GITHUB_TOKEN || '{TOKEN}';", TOKEN),
        (f'  apiKey: process.env.STRIPE_SECRET || "{TOKEN}",', TOKEN),
        # the lookup's call naming the variable: C#'s, PHP's
        (f'var key = Environment.GetEnvironmentVariable("API_KEY") ?? "{HEX_KEY}";', HEX_KEY),
        (f'$apiKey = getenv("API_KEY") ?: "{HEX_KEY}";', HEX_KEY),
        (f"api_key = ENV.fetch('API_KEY') {{ '{HEX_KEY}' }}", HEX_KEY),  # (Ruby's block)
    ],
)
def test_a_literal_a_variable_falls_back_to_is_found(line: str, value: str) -> None:
    assert _found_by_both_engines(line) == [[value]] * 2


@pytest.mark.parametrize(
    "line",
    [
        f"SECRET_KEY = os.environ.get('DJANGO_SECRET_KEY', '{DJANGO_KEY}')",
        f"SECRET_KEY = os.getenv('SECRET_KEY', '{DJANGO_KEY}')",
        f"SECRET_KEY = env('SECRET_KEY', default='{DJANGO_KEY}')",
        f'SECRET_KEY = config("SECRET_KEY", default="{DJANGO_KEY}")',
        f"define('AUTH_KEY', '{DJANGO_KEY}');",
    ],
)
def test_a_django_key_as_a_lookups_default_is_found(line: str) -> None:
    assert _found_by_both_engines(line) == [[DJANGO_KEY]] * 2


def test_a_default_in_a_documents_string_is_found_at_its_place() -> None:
    line = f"SECRET_KEY = env('SECRET_KEY', default='{DJANGO_KEY}')"
    (hit,) = find_secrets({"files": [{"path": "settings.py", "content": line}]})
    assert hit.path == "/files/0/content"
    assert line[hit.start : hit.end] == DJANGO_KEY


@pytest.mark.parametrize(
    "line",
    [
        f'buildConfigField "String", "API_KEY", "\\"{HEX_KEY}\\""',
        f'buildConfigField("String", "API_KEY", "\\"{HEX_KEY}\\"")',
        f"buildConfigField 'String', 'API_KEY', '\"{HEX_KEY}\"'",
    ],
)
def test_a_gradle_build_config_field_is_found(line: str) -> None:
    assert _found_by_both_engines(line) == [[HEX_KEY]] * 2


@pytest.mark.parametrize(
    "line",
    [
        'const apiKey = process.env.API_KEY || "";',
        "const apiKey = process.env.API_KEY || DEFAULT_API_KEY;",
        'const token = process.env.TOKEN || "changeme";',
        'const secret = process.env.SECRET ?? "please-set-a-secret";',
        "if (token || refreshToken) { return; }",
        'if (getenv("PASSWORD") ?: "") { exit(1); }',
        "token = ENV.fetch('TOKEN') { |name| raise KeyError, name }",
        "password = ENV.fetch('DB_PASSWORD') { '' }",
        "SECRET_KEY = os.environ.get('SECRET_KEY', 'dev')",
        "SECRET_KEY = os.environ.get('SECRET_KEY', 'please-set-a-secret-key-in-production')",
        "SECRET_KEY = env('SECRET_KEY', default='django-insecure-change-me')",
        "API_KEY = os.environ.get('API_KEY', 'your-api-key-here')",
        "token_url = os.environ.get('TOKEN_URL', 'https://auth.example.com/oauth/token')",
        "key = os.environ.get('CACHE_KEY', 'user-profile-cache')",
        # a regular expression, a format: symbols, but no key's draw
        "validators = {'api_key': '^[a-z0-9]{32}$', 'token': '%(user)s-%(time)d'}",
        # a word list in one case joined by symbols, fewer than four digits
        "PASSWORD_HINT = os.getenv('PASSWORD_HINT', 'use-at-least-twelve-characters+one-digit')",
        'buildConfigField "String", "API_HOST", "\\"https://api.example.com\\""',
        'buildConfigField "String", "API_KEY", "\\"\\""',
    ],
)
def test_what_code_falls_back_to_that_is_no_credential_is_none(line: str) -> None:
    assert _found_by_both_engines(line) == [[]] * 2
