"""The checkpoints a folder given to `ocp lint` holds: every ``*.ocp.json`` below it, less what
a project never means to lint: hidden folders (``.git``, ``.venv``, ``.tox``), virtualenvs (a
folder holding ``pyvenv.cfg``, whatever its name), ``node_modules``, ``__pycache__``, and what
its ``.gitignore`` files ignore, with git's semantics (the deepest file that matches decides,
the last matching line of a file wins, ``!`` re-includes, nothing below an ignored folder is
looked at). The folder given is walked whatever its name: a path named is never skipped.

One pass over the tree: each folder is listed once, each entry looked at once, and a
``.gitignore`` read once, when the walk enters its folder (the ones above the folder given, up
to the repository's root, before it starts). `pathspec` (git's wildmatch) is imported only
when a walk meets a ``.gitignore``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

CHECKPOINT_SUFFIX = ".ocp.json"
# Folders no project keeps checkpoints in, by name: what installs and caches fill.
SKIPPED_NAMES = {
    "node_modules": "node_modules (installed packages)",
    "__pycache__": "__pycache__ (Python's bytecode cache)",
}


@dataclass(frozen=True, slots=True)
class Skipped:
    """A folder, or a checkpoint file, the walk left out, and why (``--verbose`` says it)."""

    path: str  # as the walk names it: the folder given, then the path below it
    reason: str
    folder: bool


@dataclass(frozen=True, slots=True)
class _Ignore:
    """One .gitignore: its patterns, and the folder its paths are relative to, as the path
    from the walk's root (``""``: the root; ``None``: a folder above it, whose ``prefix`` is
    the root's path below that folder)."""

    spec: GitIgnoreSpec
    source: str  # the file, for --verbose
    lines: dict[str, int]  # a pattern's line (the last line holding it: the last match wins)
    below: str | None  # the folder inside the walk, "a/b/", or None for one above it
    prefix: str = ""  # for one above: the walk's root as a path below its folder, "sub/"
    # for one above: the patterns that ignore the folder given or a folder on the way to it,
    # which hold nothing against what lies below it (a folder named is walked)
    named: frozenset[int] = frozenset()

    def check(self, relative: str) -> tuple[bool | None, str]:
        """Whether the entry at ``relative`` (from the walk's root; folders end in "/") is
        ignored (True), re-included (False) or not matched (None), and by which line."""
        if self.below is None:
            path = self.prefix + relative
        elif relative.startswith(self.below):
            path = relative[len(self.below) :]
        else:
            return None, ""
        result = self.spec.check_file(path)
        if result.include is None or result.index is None or result.index in self.named:
            return None, ""
        pattern = self.spec.patterns[result.index]
        text = str(getattr(pattern, "pattern", ""))
        return result.include, f"{self.source}:{self.lines.get(text, 0)}: {text}"


def checkpoints_below(
    folder: Path, excluded: Callable[[Path], bool]
) -> tuple[list[Path], list[Skipped]]:
    """The ``*.ocp.json`` files below ``folder`` in name order, less those ``excluded``
    (the policy's exclude globs, given the path below the folder) and what is skipped."""
    found: list[Path] = []
    skipped: list[Skipped] = []
    ignores = _ignores_above(folder)
    # (folder on disk, its path from the root ending in "/", the ignores in force there)
    stack: list[tuple[Path, str, list[_Ignore]]] = [(folder, "", ignores)]
    while stack:
        here, relative, in_force = stack.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError:
            continue  # unreadable: as rglob did, nothing from it
        names = {entry.name for entry in entries}
        if relative and "pyvenv.cfg" in names:
            skipped.append(
                Skipped(_shown(folder, relative), "a virtualenv (holds pyvenv.cfg)", True)
            )
            continue
        if ".gitignore" in names:
            own = _read_ignore(here / ".gitignore", _shown(folder, relative) + ".gitignore")
            if own is not None:
                in_force = [*in_force, _Ignore(own[0], own[1], own[2], relative)]
        below: list[tuple[Path, str, list[_Ignore]]] = []
        for entry in entries:
            name = entry.name
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_folder:
                path = f"{relative}{name}/"
                why = _folder_skipped(name) or _ignored(in_force, path)
                if why:
                    skipped.append(Skipped(_shown(folder, path), why, True))
                else:
                    below.append((here / name, path, in_force))
                continue
            if not name.endswith(CHECKPOINT_SUFFIX) or not _is_file(entry):
                continue
            path = f"{relative}{name}"
            why = _ignored(in_force, path)
            if not why and excluded(Path(path)):
                why = "excluded (--exclude, or exclude in the configuration)"
            if why:
                skipped.append(Skipped(_shown(folder, path), why, False))
            else:
                found.append(here / name)
        stack.extend(reversed(below))
    found.sort()
    return found, skipped


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _folder_skipped(name: str) -> str | None:
    if name.startswith("."):
        return "a hidden folder"
    return SKIPPED_NAMES.get(name)


def _ignored(in_force: list[_Ignore], path: str) -> str | None:
    """Why ``path`` is ignored by the .gitignore files in force, deepest first (a deeper
    file's match, ignoring or re-including, decides over a shallower one's)."""
    for ignore in reversed(in_force):
        include, line = ignore.check(path)
        if include is not None:
            return f"ignored by {line}" if include else None
    return None


def _shown(folder: Path, relative: str) -> str:
    return os.path.join(str(folder), relative) if relative else str(folder).rstrip("/") + "/"


def _ignores_above(folder: Path) -> list[_Ignore]:
    """The .gitignore files of the folders above ``folder`` inside its git repository (its
    root's ``.git/info/exclude`` first, the weakest), which hold for what lies below it."""
    start = folder.resolve()
    chain: list[Path] = []
    for candidate in (start, *start.parents):
        chain.append(candidate)
        if (candidate / ".git").exists():
            break
    else:
        return []  # not in a repository: only the .gitignore files of the walk count
    root = chain[-1]
    out: list[_Ignore] = []
    sources = [(root, root / ".git" / "info" / "exclude")]
    sources += [(above, above / ".gitignore") for above in reversed(chain[1:])]
    for above, source in sources:
        own = _read_ignore(source, str(source))
        if own is not None:
            prefix = start.relative_to(above).as_posix() + "/" if above != start else ""
            out.append(_Ignore(own[0], own[1], own[2], None, prefix, _naming(own[0], prefix)))
    return out


def _naming(spec: GitIgnoreSpec, prefix: str) -> frozenset[int]:
    """The patterns of ``spec`` that ignore a folder on the way from its folder to the walk's
    root (``prefix``, "a/b/": "a/", then "a/b/")."""
    parts = prefix.split("/")[:-1]
    out = set()
    for n in range(1, len(parts) + 1):
        result = spec.check_file("/".join(parts[:n]) + "/")
        if result.include and result.index is not None:
            out.add(result.index)
    return frozenset(out)


def _read_ignore(path: Path, shown: str) -> tuple[GitIgnoreSpec, str, dict[str, int]] | None:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    lines = text.splitlines()
    if not any(line.strip() and not line.startswith("#") for line in lines):
        return None
    from pathspec import GitIgnoreSpec  # only a walk that meets a .gitignore pays for it

    numbered = {line: n for n, line in enumerate(lines, 1)}  # the last line holding a text
    return GitIgnoreSpec.from_lines(lines), shown, numbered


def walk_lines(skipped: list[Skipped]) -> Iterator[str]:
    """--verbose's lines: what was skipped, and why."""
    for s in skipped:
        yield f"skipped {s.path}: {s.reason}"
