"""One text of a detector's trigger repeated to 400 KB, beside a benign checkpoint of that size.

    .venv/bin/python bench/floods.py [--size 400KB] [--top 25] [--units 'a,b']

Each flood is a checkpoint whose first statement is one short unit (what sends a text to a
detector of the secret scan, or to a stage: a name and an operator, a command's flag, an
armour line, a header, an escape) repeated to the size, and nothing it holds is a
credential. Its analysis (`app.analysis.analyze`: intake, schema, rules, secrets, positions,
redaction; the median of three runs after two) is timed beside the benign document's: a flood
the scan reads in a step of Python per unit, with no bound, or with a regex tried at every
character, shows as a ratio over 3. bench/worst.py times the floods it names through `ocp
lint` and `POST /view`; this one looks wide, for the next one to name. A benchmark, never a
test: it asserts nothing; ratios over 3 are marked.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from app.analysis import analyze  # noqa: E402
from bench.worst_cases import (  # noqa: E402
    BASELINES,
    _with_text,
    dump,
    forget_documents,
    grow,
)

TARGET = 3.0

# What sends a text to each detector (or reads as a form of one), none a credential.
UNITS = (
    *(" -p x", "curl -u a:b ", "mysql -px ", "htpasswd -b f u ", "sshpass -p ", "-storepass "),
    *("docker login -u a -p ", "echo x | docker login --password-stdin ", "net user a "),
    *("password: ", 'password="" ', "[password]: x ", "password:: x ", "PASSWORD x "),
    *("password -> x ", "Password → ", "密码：", "contraseña: ", "Passwort: ", "пароль: "),
    *("with password 'xyz' ", "username admin password ", "the password for the db is x. "),
    *("x-api-key short ", "the api key is short. ", "using the key abc ", "set token to x. "),
    *("token=x ", "&sig=x ", "?token= ", "pwd= ", "auth=(a, ", "api_key => '***' "),
    *("secret_key = ${X} ", '"token": "", ', 'client_secret": "x", ', "api_key: !!str x "),
    *("Authorization: Basic x ", "Authorization: Digest response=x ", "Bearer abc "),
    *("Cookie: a=b; c=d; ", "Set-Cookie: a=b ", "X-Api-Key: ", "AccountKey=abc; "),
    *("https://user:****@host/ ", "see https://user:****@h.example.com/x and ", "u:p@tcp( "),
    *("mongodb+srv://a:b@ ", "postgres://a:@h ", "jdbc:mysql://h;password=x "),
    *("Server=x;Password=y; ", "h:5432:d:u:p ", "login: a / b ", "cred "),
    *("CREATE USER a IDENTIFIED BY ", "ALTER ROLE a WITH PASSWORD ", "unidentified by x "),
    *("INSERT INTO users VALUES ('a', 'b'), ", "<password>x</password> ", "ENV PASSWORD x "),
    *("-----BEGIN PGP PRIVATE KEY BLOCK----- ", "-----BEGIN RSA PRIVATE KEY-----\nxx\n"),
    *("PuTTY-User-Key-File-2: ", "ssh-rsa AAAA ", "AKIAabc ", "eyJhbGci ", "ghp_abc ", "xoxb- "),
    *("%3D%3D ", "%22password%22%3A%22x%22 ", "\\u0070assword ", "&#112;assword: x "),
    *('\\"password\\": \\"x\\", ', "cGFzc3dvcmQ6IHg= ", "\x1b[0m password ", 'a,b,"x""y",c '),
    *("| password | x | ", "<td>password</td><td>x</td> ", "`password`: `x` "),
    *("**Password:** x ", "> password: x\n", "# password: x\n", "1\tpassword: x\n"),
    *('setPassword("x") ', 'HTTPBasicAuth("u", "p") ', '<input type="password" value="x"> '),
    *("INSERT INTO users (name, password) VALUES ('a', 'b'); ", "set DB_PASSWORD to x "),
    *('variable "db_password" { default = "x" } ', '<entry key="password">x</entry> '),
)


def _median_seconds(data: bytes, runs: int = 3) -> float:
    for _ in range(2):
        analyze(data)
    return statistics.median(_cold(data) for _ in range(runs))


def _cold(data: bytes) -> float:
    """The analysis of ``data`` in seconds, its memos emptied first (`forget_documents`)."""
    forget_documents()
    return sum(analyze(data).timings.values())


def _size(text: str) -> int:
    units = {"KB": 1_000, "MB": 1_000_000}
    for suffix, factor in units.items():
        if text.upper().endswith(suffix):
            return int(float(text[: -len(suffix)]) * factor)
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="400KB")
    parser.add_argument("--top", type=int, default=25, help="show the costliest so many")
    parser.add_argument("--units", help="units to repeat, comma-separated (default: all)")
    args = parser.parse_args(argv)
    size = _size(args.size)
    units = args.units.split(",") if args.units else list(UNITS)
    _, benign = grow(BASELINES["benign"].build, size)
    floor = _median_seconds(benign)
    print(f"bench/floods.py: {len(units)} floods of {args.size}; benign {floor * 1e3:.1f} ms")
    ratios = []
    for unit in units:
        data = dump(_with_text([unit * max(1, size // len(unit.encode()))]))
        seconds = _median_seconds(data)
        ratios.append((seconds / floor, seconds, unit))
    ratios.sort(reverse=True)
    for ratio, seconds, unit in ratios[: args.top]:
        mark = " OVER" if ratio > TARGET else ""
        print(f"{ratio:5.1f}×{mark:5s} {seconds * 1e3:7.1f} ms  {unit!r}")
    over = sum(ratio > TARGET for ratio, _, _ in ratios)
    print(f"over {TARGET:g}×: {over} of {len(ratios)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
