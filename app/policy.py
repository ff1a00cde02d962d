"""What a project asks of `ocp lint` beyond the report: which findings to report, which it has
accepted (each with its reason), and which make the run fail.

Read from ``[tool.ocp]`` in the nearest pyproject.toml, or from ocp.toml (which wins), then
overridden by the command line. The report's verdict (`valid`) is the specification's and
never changes: a policy decides only what is listed and the exit status.

    [tool.ocp]
    select = ["OCP-S", "secret"]        # codes or prefixes reported (default: every code)
    ignore = ["OCP-W004"]               # codes or prefixes never reported
    fail-on = ["secret"]                # also fail on these ("warning": on any warning);
                                        # the default, [], fails on errors only
    exclude = ["drafts"]                # left out of the files found in folders

    [tool.ocp.per-file-ignores]
    "examples/*.ocp.json" = ["secret"]

    [[tool.ocp.accepted]]               # reported as suppressed, with the reason
    code = "OCP-W002"
    path = "/statements/3"              # the finding's JSON Pointer
    file = "cases/*.ocp.json"           # optional: the files it holds for (a glob)
    reason = "observed by a person in the customer's screenshot"
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Sequence

from app import TYPE_CHECKING
from app.findings import Finding, Omitted
from app.record import Record

if TYPE_CHECKING:
    from pathlib import (
        PurePath,  # a folder walk's (app/walk.py); ocp lint of a file never loads pathlib
    )
    from typing import Any, Final


class PolicyError(Exception):
    """A configuration that cannot be used: what is wrong, in which file, and what to do."""


class Accepted(Record):
    """A finding a project has looked at and accepted, and why."""

    __slots__ = ("code", "file", "path", "reason")

    code: Final[str]
    path: Final[str]
    reason: Final[str]
    file: Final[str | None]  # a glob of the files it holds for; None: every file

    def __init__(self, code: str, path: str, reason: str, file: str | None = None) -> None:
        self.code = code
        self.path = path
        self.reason = reason
        self.file = file


class Suppressed(Record):
    __slots__ = ("finding", "reason")

    finding: Final[Finding]
    reason: Final[str]

    def __init__(self, finding: Finding, reason: str) -> None:
        self.finding = finding
        self.reason = reason


class Outcome(Record):
    """One file's findings under a policy."""

    __slots__ = (
        "failing",
        "fails",
        "ignored",
        "lineage",
        "lineage_failing",
        "reported",
        "suppressed",
    )

    reported: Final[tuple[Finding, ...]]
    suppressed: Final[tuple[Suppressed, ...]]
    ignored: Final[int]  # findings not reported (select, ignore, per-file ignores), counted
    fails: Final[bool]  # whether this file makes the run exit 1
    # the codes of the warnings that make it fail (fail-on), which a report names: the verdict
    # of such a file reads "valid"
    failing: Final[tuple[str, ...]]
    # the project's lineage findings it reports (lineage-*: never part of the verdict), and
    # those of their codes fail-on names, which alone make them fail the run
    lineage: Final[tuple[Finding, ...]]
    lineage_failing: Final[tuple[str, ...]]

    def __init__(
        self,
        reported: tuple[Finding, ...],
        suppressed: tuple[Suppressed, ...],
        ignored: int,
        fails: bool,
        failing: tuple[str, ...] = (),
        lineage: tuple[Finding, ...] = (),
        lineage_failing: tuple[str, ...] = (),
    ) -> None:
        self.reported = reported
        self.suppressed = suppressed
        self.ignored = ignored
        self.fails = fails
        self.failing = failing
        self.lineage = lineage
        self.lineage_failing = lineage_failing


# What fails a run besides errors when nothing says otherwise: nothing. The report contract
# fixes the exit status ("0 when every file is valid (warnings allowed), 1 when any file is
# invalid"), and an apparent credential is a warning of a valid document. The pre-commit
# hook and the README's CI examples fail on credentials (--fail-on secret, fail-on =
# ["secret"]), as the service refuses to store them (§9.1, §10.5).
DEFAULT_FAIL_ON: tuple[str, ...] = ()


class Policy(Record):
    __slots__ = (
        "accepted",
        "exclude",
        "fail_on",
        "fail_on_origin",
        "ignore",
        "per_file_ignores",
        "root",
        "select",
        "source",
    )

    select: Final[tuple[str, ...]]
    ignore: Final[tuple[str, ...]]
    fail_on: Final[tuple[str, ...]]
    # where fail_on comes from, for the sentence that says why a run failed: "default",
    # "--fail-on", or the configuration file's name
    fail_on_origin: Final[str]
    exclude: Final[tuple[str, ...]]
    per_file_ignores: Final[tuple[tuple[str, tuple[str, ...]], ...]]
    accepted: Final[tuple[Accepted, ...]]
    source: Final[str | None]  # the configuration file it was read from
    root: Final[str | None]  # its folder: the globs of files are relative to it

    def __init__(
        self,
        select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        fail_on: tuple[str, ...] = DEFAULT_FAIL_ON,
        fail_on_origin: str = "default",
        exclude: tuple[str, ...] = (),
        per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = (),
        accepted: tuple[Accepted, ...] = (),
        source: str | None = None,
        root: str | None = None,
    ) -> None:
        self.select = select
        self.ignore = ignore
        self.fail_on = fail_on
        self.fail_on_origin = fail_on_origin
        self.exclude = exclude
        self.per_file_ignores = per_file_ignores
        self.accepted = accepted
        self.source = source
        self.root = root

    def with_options(self, **options: Sequence[str] | None) -> Policy:
        """This policy with the command line's options in place of the file's, where given;
        their codes as `canonical_codes` reads them."""
        given: dict[str, object] = {
            k: tuple(v) if k == "exclude" else canonical_codes(v, _FLAGS[k], levels=k == "fail_on")
            for k, v in options.items()
            if v is not None
        }
        if "fail_on" in given:
            given["fail_on_origin"] = "--fail-on"
        return self.replace(**given)

    def with_more_fail_on(self, codes: Sequence[str] | None) -> Policy:
        """This policy failing on ``codes`` too (--extend-fail-on: a hook's own "credentials
        fail the commit" beside what the project's configuration fails on, which --fail-on
        would replace)."""
        if not codes:
            return self
        more = canonical_codes(codes, "--extend-fail-on", levels=True)
        origin = self.fail_on_origin
        return self.replace(
            fail_on=tuple(dict.fromkeys([*self.fail_on, *more])),
            fail_on_origin="--extend-fail-on"
            if origin == "default"
            else f"{origin} and --extend-fail-on",
        )

    def fail_on_entry(self, code: str, severity: str) -> str | None:
        """The fail-on entry that makes a finding of ``code`` fail the run ("warning", or the
        code or prefix named), None when none does: the report names it."""
        if severity == "warning" and "warning" in self.fail_on:
            return "warning"
        return next(
            (c for c in self.fail_on if c not in _LEVELS and code.startswith(c)),
            None,
        )

    def excludes(self, relative: PurePath) -> bool:
        """Whether a file found in a folder is left out: ``exclude`` matches its path below
        the folder, or the path of a folder on the way (``cases/drafts``), or the name of
        one (``drafts``), or its own name."""
        parts = relative.parts
        paths = ["/".join(parts[: n + 1]) for n in range(len(parts))]
        return any(
            fnmatch.fnmatchcase(text, pattern)
            for pattern in self.exclude
            for text in (*paths, *parts)
        )

    def reports(self, code: str, name: str) -> bool:
        if self.select and not _any_prefix(code, self.select):
            return False
        if _any_prefix(code, self.ignore):
            return False
        return not any(
            _matches(name, pattern) and _any_prefix(code, codes)
            for pattern, codes in self.per_file_ignores
        )

    def apply(
        self,
        name: str,
        findings: Sequence[Finding],
        omitted: Sequence[Omitted] = (),
        *,
        valid: bool = True,
        lineage: Sequence[Finding] = (),
        lineage_omitted: Sequence[Omitted] = (),
    ) -> Outcome:
        """``name``'s findings sorted into reported, suppressed (accepted) and ignored; the
        file fails when it is invalid (listed or not), or on a reported finding ``fail_on``
        names."""
        name = relative_name(name, self.root)
        # what a code gets is decided once a code (a report lists thousands of findings of a
        # few codes)
        shown = {code: self.reports(code, name) for code in {f.code for f in findings}}
        # the reasons of the findings accepted in this file, by code and pointer (the first
        # entry for a place holds)
        accepted: dict[tuple[str, str], str] = {}
        for entry in self.accepted:
            if entry.file is None or _matches(name, entry.file):
                accepted.setdefault((entry.code, entry.path), entry.reason)
        if all(shown.values()) and not accepted:
            reported = tuple(findings)  # the usual case: every finding, as found
            suppressed: list[Suppressed] = []
        else:
            kept: list[Finding] = []
            suppressed = []
            for finding in findings:
                if not shown[finding.code] and not (
                    finding.code in UNREAD and finding.severity == "error"
                ):
                    continue
                reason = accepted.get((finding.code, finding.path))
                if reason is not None:
                    suppressed.append(Suppressed(finding, reason))
                else:
                    kept.append(finding)
            reported = tuple(kept)
        ignored = len(findings) - len(reported) - len(suppressed)
        severities = {(f.code, f.severity) for f in reported}
        severities.update((o.code, o.severity) for o in omitted if self.reports(o.code, name))
        failing = sorted({code for code, severity in severities if self._fails_on(code, severity)})
        # An invalid file fails the run whatever is listed: the report contract's exit status
        # ("1 when any file is invalid"), which a policy may not turn into a pass; what it
        # leaves out of the list is counted (`ignored`, `suppressed`), never the verdict's.
        fails = bool(failing) or not valid
        warned = [c for c in failing if (c, "error") not in severities]
        # The project's lineage codes fail the run only when fail-on names them ("lineage",
        # "lineage-dropped"), whatever their severity: they are not levels 1–2 (§8.1).
        kept_lineage = tuple(f for f in lineage if self.reports(f.code, name))
        lineage_codes = {f.code for f in kept_lineage}
        lineage_codes.update(o.code for o in lineage_omitted if self.reports(o.code, name))
        named = [c for c in self.fail_on if c not in _LEVELS]
        lineage_failing = tuple(sorted(c for c in lineage_codes if _any_prefix(c, named)))
        return Outcome(
            reported,
            tuple(suppressed),
            ignored,
            fails or bool(lineage_failing),
            tuple(warned),
            kept_lineage,
            lineage_failing,
        )

    def _fails_on(self, code: str, severity: str) -> bool:
        if severity == "error":
            return True
        if severity == "warning" and "warning" in self.fail_on:
            return True
        codes = [c for c in self.fail_on if c not in ("error", "warning")]
        return severity != "note" and _any_prefix(code, codes)


# The codes of the errors after which nothing of a file is checked (the report contract: nothing
# runs after a `json` or `version` error): such an error is always reported, whatever the
# selection, as ruff reports a syntax error (a `json` warning, an integer past 2^53 - 1, may be
# left out as any warning). Hidden, they would pass a file nothing was checked in: `--select
# secret --fail-on secret` passed a file that is not JSON, its credentials unread.
UNREAD = frozenset(("json", "version"))

_FLAGS = {"select": "--select", "ignore": "--ignore", "fail_on": "--fail-on"}
_LEVELS = ("error", "warning")


def canonical_codes(items: Sequence[str], where: str, *, levels: bool = False) -> tuple[str, ...]:
    """Each code or code prefix as the rules spell it, whatever its case ("ocp-s002" is
    OCP-S002); ``levels``: "error" and "warning" too (fail-on). One that begins no code is an
    error naming it and every code: a typo ("secrets") would otherwise turn a gate off unseen."""
    from app.rules import RULES  # the one registry of codes

    codes = sorted(RULES)
    out = []
    for item in items:
        low = item.lower()
        if levels and low in _LEVELS:
            out.append(low)
            continue
        match = next((code for code in codes if code.lower().startswith(low)), None)
        if match is None:
            also = f", or {' or '.join(_LEVELS)}" if levels else ""
            raise PolicyError(
                f"{where}: {item!r} is not a code and begins none; give codes or prefixes of "
                f"{', '.join(codes)}{also}"
            )
        out.append(match[: len(item)])
    return tuple(out)


def _any_prefix(code: str, prefixes: Sequence[str]) -> bool:
    return any(code.startswith(prefix) for prefix in prefixes)


def _matches(name: str, pattern: str) -> bool:
    """A file's path (relative to the configuration's folder) against a glob: the whole path,
    or its last parts (``*.ocp.json`` matches ``cases/a.ocp.json``)."""
    from pathlib import PurePosixPath  # a configuration's globs only: most runs have none

    return fnmatch.fnmatchcase(name, pattern) or PurePosixPath(name).match(pattern)


def relative_name(name: str, root: str | None) -> str:
    """``name`` as the user gave it, as a path relative to ``root`` (the configuration's
    folder) when it lies inside it, normalised; otherwise as given."""
    if root is None or name == "-":
        return name
    return located(name, root)[1] or name


def located(name: str, root: str) -> tuple[str, str | None]:
    """A file argument as the shell meant it, from the working directory: its absolute path,
    normalised (no symbolic link resolved), and that path relative to the folder ``root``
    (absolute, normalised) in POSIX form when it lies inside it; None outside it. The one
    reading of a name for the configuration's globs and for SARIF's ``%SRCROOT%``."""
    path = os.path.normpath(os.path.join(os.getcwd(), name))
    if path == root or os.path.commonpath([root, path]) != root:
        return path, None
    return path, os.path.relpath(path, root).replace(os.sep, "/")


# --- reading the configuration --------------------------------------------------------------------


def load_nearest(start: str) -> Policy:
    """The policy of ocp.toml, or of a pyproject.toml with a [tool.ocp] table, in ``start``
    or the nearest folder above it; the default policy when there is none. Each file is
    read once, and a pyproject.toml parsed only when its text may hold that table (most
    never do: importing the TOML parser and parsing cost a small file's lint a quarter of
    its time)."""
    folder, above = os.path.abspath(start), ""
    while folder != above:  # up to the root, whose parent is itself
        candidate = os.path.join(folder, "ocp.toml")
        if os.path.isfile(candidate):
            return _policy(candidate, _read(candidate))
        pyproject = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(pyproject):
            data = _bytes(pyproject)
            if may_hold_tool_ocp(data):
                parsed = _parse(pyproject, data)
                if "ocp" in parsed.get("tool", {}):
                    return _policy(pyproject, parsed)
        folder, above = os.path.dirname(folder), folder
    return Policy()


# Every way TOML can give the table tool a member ocp, each on a line of its own: a header
# [tool.ocp], [tool.ocp.x] or [[tool.ocp.x]]; a header [tool], under which `ocp = …` or
# `ocp.x = …` may follow; a key at the top, `tool.ocp… = …` or `tool = {…}`. Keys may be
# quoted and spaced ("tool" . 'ocp'). A key spelled with escapes (\u0074ool) is not looked
# for here: a file holding an escape is parsed whole.
_KEY_TOOL = rb"""["']?tool["']?[ \t]*"""
_DOT_OCP = rb"""\.[ \t]*["']?ocp["']?[ \t]*"""
_TOOL_OCP = (  # compiled on first use, by re's cache: a run without a pyproject.toml never is
    rb"(?m)^[ \t]*(?:\[\[?[ \t]*" + _KEY_TOOL + rb"(?:\]|" + _DOT_OCP + rb"[.\]])"
    rb"|" + _KEY_TOOL + rb"(?:=|" + _DOT_OCP + rb"[.=]))"
)


def may_hold_tool_ocp(data: bytes) -> bool:
    """Whether a pyproject.toml's bytes may define [tool.ocp]: False is certain."""
    return re.search(_TOOL_OCP, data) is not None or b"\\u" in data or b"\\U" in data


def load(path: str) -> Policy:
    """The policy of the configuration file ``path`` (``--config``)."""
    if os.path.isdir(path):
        raise PolicyError(
            f"{path}: is a folder; name the configuration file in it (ocp.toml, or a "
            "pyproject.toml with [tool.ocp])"
        )
    if not os.path.isfile(path):
        raise PolicyError(f"{path}: no such file")
    return _policy(path, _read(path))


def _policy(path: str, data: dict[str, Any]) -> Policy:
    in_pyproject = os.path.basename(path) == "pyproject.toml"
    table = data.get("tool", {}).get("ocp", {}) if in_pyproject else data
    where = f"{path}" + (" [tool.ocp]" if in_pyproject else "")
    if not isinstance(table, dict):
        raise PolicyError(f"{where}: must be a table")
    known = {"select", "ignore", "fail-on", "exclude", "per-file-ignores", "accepted"}
    unknown = sorted(set(table) - known)
    if unknown:
        hint = (
            " (ocp.toml holds them at its top level, with no [tool.ocp] table; that table is "
            "pyproject.toml's)"
            if unknown == ["tool"] and not in_pyproject
            else ""
        )
        raise PolicyError(
            f"{where}: unknown setting {', '.join(unknown)}; the settings are "
            f"{', '.join(sorted(known))}{hint}"
        )
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise PolicyError(f"{where}: per-file-ignores must be a table of globs to code lists")
    # fail-on replaces the default when the configuration has it, [] included (errors only)
    fail_on = (
        canonical_codes(_codes(table, "fail-on", where), f"{where} fail-on", levels=True)
        if "fail-on" in table
        else DEFAULT_FAIL_ON
    )
    return Policy(
        select=canonical_codes(_codes(table, "select", where), f"{where} select"),
        ignore=canonical_codes(_codes(table, "ignore", where), f"{where} ignore"),
        fail_on=fail_on,
        fail_on_origin=str(path) if "fail-on" in table else "default",
        exclude=_codes(table, "exclude", where),
        per_file_ignores=tuple(
            (
                str(glob),
                canonical_codes(
                    _codes(per_file, glob, f"{where} per-file-ignores"),
                    f"{where} per-file-ignores {glob!r}",
                ),
            )
            for glob in per_file
        ),
        accepted=tuple(_accepted(entry, n, where) for n, entry in _entries(table, where)),
        source=str(path),
        root=os.path.dirname(os.path.abspath(path)),
    )


def _read(path: str) -> dict[str, Any]:
    return _parse(path, _bytes(path))


def _bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError as exc:
        raise PolicyError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _parse(path: str, data: bytes) -> dict[str, Any]:
    import tomllib  # only a run that has a configuration reads one

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise PolicyError(f"{path}: not UTF-8 text, as TOML must be") from None
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{path}: not valid TOML: {exc}") from None


def _codes(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        what = (
            'globs of files or folders, such as ["drafts", "cases/old-*.ocp.json"]'
            if key == "exclude"
            else 'codes or prefixes, such as ["secret"]'
        )
        raise PolicyError(f"{where}: {key} must be a list of {what}")
    return tuple(value)


def _entries(table: dict[str, Any], where: str) -> list[tuple[int, dict[str, Any]]]:
    entries = table.get("accepted", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PolicyError(f"{where}: accepted must be an array of tables ([[tool.ocp.accepted]])")
    return list(enumerate(entries))


def _accepted(entry: dict[str, Any], n: int, where: str) -> Accepted:
    place = f"{where} accepted[{n}]"
    for key in ("code", "path", "reason"):
        if not isinstance(entry.get(key), str) or (key != "path" and not entry[key].strip()):
            what = {
                "code": 'the finding\'s code, such as "OCP-W002"',
                "path": 'its JSON Pointer, such as "/statements/3" ("" for the whole document)',
                "reason": "why the finding is accepted: a person will read it in the report",
            }[key]
            raise PolicyError(f"{place}: {key} is required: {what}")
    unknown = sorted(set(entry) - {"code", "path", "reason", "file"})
    if unknown:
        raise PolicyError(f"{place}: unknown key {', '.join(unknown)}")
    path = entry["path"]
    if path and not path.startswith("/"):
        raise PolicyError(f'{place}: path must be a JSON Pointer ("/statements/3"), not {path!r}')
    file = entry.get("file")
    if file is not None and not isinstance(file, str):
        raise PolicyError(f'{place}: file must be a glob, such as "cases/*.ocp.json"')
    return Accepted(entry["code"], path, entry["reason"].strip(), file)
