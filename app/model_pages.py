"""A checkpoint's reading cut into pages within a token budget (issue 28).

A client caps a tool answer near 25,000 tokens, and a 2 MB checkpoint read whole is 2.1 million
characters. So the document goes to the model as parts, each a JSON Pointer and its value, and
the parts go onto pages of at most ``max_tokens`` each (the reading's own lines included):

* first the parts a model must read before anything else, each whole and in this order: what
  identifies the document and its task, the stop conditions (§6.8), the open operations (§6.6:
  not completed, cancelled or rejected); then everything else in document order;
* a part is a member of the document, or one item of a list at the top level or one level
  below (``/statements/12``, ``/progress/completed/3``), never cut inside, except one too large
  for a page on its own: its long strings are clipped, saying how much, or, should that not
  do, it is named with its size and left to the stored resource or the linter;
* pages are numbered from 1 and the same document and budget always cut the same way, so
  ``page=N`` is a cursor that needs no state on the server.

Tokens are estimated, not counted (no tokenizer is the model's): four ASCII characters to a
token, as English text and JSON average in the common tokenizers, and one token for every
other character (accented letters, CJK, emoji take one or more each): an estimate that errs
towards pages shorter than the budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app.layout import TERMINAL_STATUSES
from app.visible import visible_json

ASCII_CHARACTERS_PER_TOKEN = 4
# A reading's budget: a client caps a tool answer near 25,000 tokens.
DEFAULT_MAX_TOKENS = 20_000
MIN_MAX_TOKENS = 4_000
MAX_MAX_TOKENS = 200_000
# Members read before the rest: what the document is and what task it records.
_IDENTITY = ("opencheckpoint", "id", "created_at", "parent", "source", "task")
# The longest a string of a part too large for a page is kept, when it must be clipped.
CLIPPED_STRING = 2_000


def estimate_tokens(text: str) -> int:
    """Four ASCII characters a token, and a token for each other character."""
    ascii_count = len(text.encode("ascii", "ignore"))
    other = len(text) - ascii_count
    return -(-ascii_count // ASCII_CHARACTERS_PER_TOKEN) + other


@dataclass(frozen=True)
class Part:
    pointer: str
    value: object
    section: str  # the top-level member it belongs to, for the counts of what is left out
    first: bool  # one of the parts read before the rest
    clipped: bool = False
    extra: int = 0  # tokens of the reading's lines about it (a statement with no authority)

    @property
    def line(self) -> str:
        """How the part is written in the data block: its pointer and value, one line."""
        return f"{visible_json(self.pointer)}: {visible_json(self.value)}"

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.line) + 1 + self.extra  # its line end


def parts_of(document: object) -> list[Part]:
    """The document's parts, the ones read first first, each group in document order."""
    if not isinstance(document, dict):
        return [Part("", document, "", True)]
    first: list[Part] = []
    rest: list[Part] = []
    for name, value in document.items():
        for part in _split(name, value):
            (first if part.first else rest).append(part)
    stops = [p for p in rest if p.pointer.startswith("/continuation/stop_conditions/")]
    open_ops = [p for p in rest if p.section == "operations" and _is_open(p.value)]
    chosen = {id(p) for p in (*stops, *open_ops)}
    ahead = [Part(p.pointer, p.value, p.section, True) for p in (*stops, *open_ops)]
    return first + ahead + [p for p in rest if id(p) not in chosen]


def _split(name: str, value: object) -> Iterator[Part]:
    pointer = "/" + name.replace("~", "~0").replace("/", "~1")
    first = name in _IDENTITY
    if isinstance(value, list) and not first:
        for i, item in enumerate(value):
            yield Part(f"{pointer}/{i}", item, name, False)
        if not value:
            yield Part(pointer, value, name, False)
    elif isinstance(value, dict) and not first:
        for key, member in value.items():
            inner = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
            if isinstance(member, list) and member:
                for i, item in enumerate(member):
                    yield Part(f"{inner}/{i}", item, name, False)
            else:
                yield Part(inner, member, name, False)
        if not value:
            yield Part(pointer, value, name, False)
    else:
        yield Part(pointer, value, name, first)


def _is_open(operation: object) -> bool:
    status = operation.get("status") if isinstance(operation, dict) else None
    return not (isinstance(status, str) and status in TERMINAL_STATUSES)


def paginate(parts: list[Part], first_room: int, room: int) -> list[list[Part]]:
    """The parts on pages: ``first_room`` tokens for the parts of page 1 (its reading's lines
    take the rest), ``room`` for each later page. In order, never reordered; a part too large
    for any page is clipped to fit one."""
    pages: list[list[Part]] = [[]]
    left = first_room
    for part in parts:
        # a later page, or page 1 with less room than a later page has: the part moves on
        if part.tokens > left and (pages[-1] or left < room):
            pages.append([])
            left = room
        if part.tokens > left:
            part = _fitted(part, left)
        pages[-1].append(part)
        left -= part.tokens
    return pages


def _fitted(part: Part, room: int) -> Part:
    """A part too large for a page: its long strings clipped; failing that, its name only."""
    clipped = Part(part.pointer, _clip(part.value), part.section, part.first, True, part.extra)
    if clipped.tokens <= room:
        return clipped
    size = len(visible_json(part.value))
    note = (
        f"[left out: this part alone is {size:,} characters, more than a page holds; read the "
        "document whole through the stored resource or lint_checkpoint]"
    )
    return Part(part.pointer, note, part.section, part.first, True, part.extra)


def _clip(value: object) -> object:
    if isinstance(value, str) and len(value) > CLIPPED_STRING:
        rest = len(value) - CLIPPED_STRING
        return f"{value[:CLIPPED_STRING]}[… {rest:,} more characters left out]"
    if isinstance(value, dict):
        return {k: _clip(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clip(v) for v in value]
    return value


def left_out(parts: list[Part], page: list[Part]) -> dict[str, int]:
    """How many parts of each section are not on ``page`` (or are on it clipped)."""
    shown = {p.pointer for p in page if not p.clipped}
    counts: dict[str, int] = {}
    for part in parts:
        if part.pointer not in shown:
            counts[part.section] = counts.get(part.section, 0) + 1
    return counts


def section_sizes(parts: list[Part]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for part in parts:
        counts[part.section] = counts.get(part.section, 0) + 1
    return counts
