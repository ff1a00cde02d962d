"""A clone is the whole project: nothing in it reads, writes or links a path outside it, and
every relative link of its documentation names a file it holds (.ci/run proves the rest by
running the suite in a clone alone in an empty folder)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.conftest import ROOT

# A path that climbs out of the repository to a folder beside it, however it is spelt. (The
# folder's name is written in parts here, so this file does not name the folder itself.)
_BESIDE = "sha" + "red"
OUTSIDE = re.compile(
    rf"\.\./{_BESIDE}|parents?\[?\d?\]?\)?\s*/\s*[\"']{_BESIDE}[\"']|OCP_{_BESIDE.upper()}_DIR"
)
MARKDOWN_LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")


def tracked() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    return [ROOT / name.decode() for name in listed if name]


def text_of(path: Path) -> str | None:
    if path.is_relative_to(ROOT / "tests" / "data") or not path.is_file():
        return None  # third-party data, read as data
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def test_nothing_names_a_folder_beside_the_repository():
    hits = []
    for path in tracked():
        text = text_of(path)
        if text is None or path == Path(__file__):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_pattern_sees_what_it_is_for():
    spellings = (f'ROOT.parent / "{_BESIDE}"', f"../{_BESIDE}/spec", f"parents[2] / '{_BESIDE}'")
    for spelt in (*spellings, f"OCP_{_BESIDE.upper()}_DIR"):
        assert OUTSIDE.search(spelt), spelt


def test_every_relative_link_of_the_documentation_names_a_file_of_the_repository():
    dead = []
    for path in tracked():
        if path.suffix != ".md":
            continue
        text = text_of(path)
        if text is None:
            continue
        for target in MARKDOWN_LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # an absolute address (https:, mailto:)
            resolved = (path.parent / target).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                dead.append(f"{path.relative_to(ROOT)}: ({target})")
    assert not dead, "\n".join(dead)
