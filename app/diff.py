"""What changed from a parent checkpoint to a child: a semantic diff as plain data, and RFC 6902
JSON Patch.

`diff_checkpoints(parent, child)` takes two lint results and returns plain JSON-serializable
data (dicts, lists, str, int, float, bool, None; no HTML, no markup: the templates escape every
value, the JSON twin serializes it as is). Nothing here imports Starlette or Jinja2. It never
raises for any pair of lint results: a document that did not parse is compared as an empty
document (and a note says so), a schema-invalid one is compared as it is, whatever its shapes.

Sections. Each array of local objects (statements, resources, operations, progress steps and
next steps, success criteria, application context entries and their drafts, the continuation
arrays, the derivation omissions and transformations) is diffed object by object:

* objects are matched by local id (the k-th object with an id in the parent with the k-th object
  with that id in the child, so a duplicate id, OCP-S001, still pairs up);
* objects without an id, and array items that are not objects at all, are matched by position
  among the id-less items of the same array (drafts: of the same application context entry),
  and flagged ``"matched_by": "position"``;
* each section lists the objects added (with the child's pointer and value), removed (the
  parent's pointer and value), changed (field-level changes: the JSON Pointer inside the object,
  the operation, the value before and after), and counts the unchanged ones. Values are as they
  are in the documents; nested objects are compared member by member, arrays as whole values.

Fields. Everything else is compared as a field at its pointer: /opencheckpoint, /id,
/created_at, /parent, /source, /task/objective, /task/status, /task/outcome, /task/scope,
/progress/focus, /derivation/method, /derivation/inputs, each /extensions/<key>, every
``extensions`` of task, progress and continuation, and any member the schema does not know. A
section whose value is not an array (a schema-invalid document) is compared as a field too.

Lineage. Operation status transitions (and whether one leaves a terminal status: OCP-T001),
statements whose verification changed, statements whose kind or origin type changed, the
parent's preserved objects (§9.2) the child dropped, and the findings that exist only with both
documents: every registered lineage rule (OCP-T001, OCP-T002, digest, and the compaction rules of
app/rules/compaction.py), found once by the pair: only when the child passes level 1 and the
parent parsed.

New and fixed findings. The single-document findings of the two lint results are matched by
code plus the local id of the innermost local object whose pointer is a prefix of the
finding's path (so a finding follows its object when the object moves in its array), or by code
plus the path itself when the path is inside no local object (the header, task.status, the
derivation method, …). Matching is by count: when the parent has two OCP-S002 findings in next
step "n-1" and the child has three, the child's last one (in document order) is new. A finding
in the child with no counterpart is "new"; one in the parent with none is "fixed".

Secrets (§10.5). The diff compares the two analyses' redacted documents (app/redaction.py, as
the checkpoint page shows them), and their findings are redacted by the analysis: no value,
member name, pointer or message repeats a credential. The ``patch`` member is the exact JSON
Patch from the parent to the child; when either document holds an apparent credential there is
none (``patch_withheld`` says why), since a patch would repeat it, or, redacted, would not
produce the child.

Input: a `Pair` (app/analysis.py), whose lineage findings were found once, by the pair.
"""

from __future__ import annotations

import bisect
import copy
import difflib
import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from app import layout
from app.analysis import Analysis, LintResult, Pair
from app.checkpoint import TERMINAL_STATUSES, TYPE_NAMES, Checkpoint
from app.findings import Finding, in_document_order
from app.json_values import json_key
from app.pointer import Path, parse_pointer, resolve, to_pointer
from app.redaction import REDACTED
from app.rules import compaction
from app.rules.compaction import Raised

# A part of the render model or of the diff: plain JSON-like data (the JSON twin serializes it as
# is; templates read it by key).
Data = dict[str, Any]

MODEL = "ocp-viewer/diff"
MODEL_VERSION = 1

# key, title, where the array lives, object type: app/layout.py's arrays of local objects, in
# page order ("drafts" are gathered from every application context entry).
SECTIONS: tuple[tuple[str, str, Path, str], ...] = tuple(
    (a.key, a.title, a.pattern, a.type) for a in layout.OBJECT_ARRAYS
)
_SECTION_AT = {path: key for key, _, path, _ in SECTIONS if layout.EVERY not in path}
_CONTAINERS = layout.CONTAINERS
_ORDERED = frozenset(a.key for a in layout.OBJECT_ARRAYS if a.ordered)
_MISSING = object()


# --- strict JSON equality and JSON Patch (RFC 6902) --------------------------------------------


def json_equal(a: object, b: object) -> bool:
    """Equality of JSON values that Python's ``==`` blurs: true is not 1, 1 is not 1.0, and
    member order does not matter."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def json_patch(parent_doc: object, child_doc: object) -> list[Data]:
    """An RFC 6902 JSON Patch (add, remove and replace operations, RFC 6901 paths with ``~`` and
    ``/`` escaped) that turns ``parent_doc`` into ``child_doc`` when applied in order.

    Objects are patched member by member. Array elements are aligned on keys (an object's local
    id when it has one, else its canonical JSON; see `_align`), so a dropped statement is one
    remove and an edited one is patched in place; unaligned elements are patched by position.
    Indices are those of the array as it stands when each operation applies. Values are copies.
    """
    ops: list[Data] = []
    _patch(parent_doc, child_doc, (), ops)
    return ops


# Work budget of the alignment (elements examined); past it, what is left is patched by position.
_ALIGN_BUDGET = 2_000_000


def _patch(a: object, b: object, path: Path, ops: list[Data]) -> None:
    if json_equal(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in a:
            if key not in b:
                ops.append({"op": "remove", "path": to_pointer((*path, key))})
        for key, value in a.items():
            if key in b:
                _patch(value, b[key], (*path, key), ops)
        for key, value in b.items():
            if key not in a:
                ops.append({"op": "add", "path": to_pointer((*path, key)), "value": _copy(value)})
        return
    if isinstance(a, list) and isinstance(b, list):
        _patch_array(a, b, path, ops)
        return
    ops.append({"op": "replace", "path": to_pointer(path), "value": _copy(b)})


def _patch_array(a: list[Any], b: list[Any], path: Path, ops: list[Data]) -> None:
    """Matched elements (see `_align`) are patched in place; between two matches the old
    elements are patched position by position into the new ones, the surplus removed or the
    rest added. ``at`` is where the next old element sits in the array as patched so far."""
    pairs = _align(_align_keys(a), _align_keys(b)) if a and b else []
    at = i = j = 0
    for next_i, next_j in [*pairs, (len(a), len(b))]:
        common = min(next_i - i, next_j - j)
        for t in range(common):
            _patch(a[i + t], b[j + t], (*path, at), ops)
            at += 1
        for _ in range(next_i - i - common):
            ops.append({"op": "remove", "path": to_pointer((*path, at))})
        for t in range(j + common, next_j):
            ops.append({"op": "add", "path": to_pointer((*path, at)), "value": _copy(b[t])})
            at += 1
        if next_i < len(a):  # a matched pair
            _patch(a[next_i], b[next_j], (*path, at), ops)
            at += 1
        i, j = next_i + 1, next_j + 1


def _align(old: list[str], new: list[str]) -> list[tuple[int, int]]:
    """Pairs (i, j), increasing in both, of elements to keep: equal keys at the ends of each
    range, then, patience-diff style, the longest increasing run of keys that occur exactly
    once in both sides of the range, and the same again between those anchors. Elements left
    unpaired are patched by position. Runs in about n·log n for arrays of distinct keys (local
    ids); a work budget bounds the pathological cases."""
    pairs: list[tuple[int, int]] = []
    budget = _ALIGN_BUDGET
    stack = [(0, len(old), 0, len(new))]
    while stack:
        i1, i2, j1, j2 = stack.pop()
        while i1 < i2 and j1 < j2 and old[i1] == new[j1]:
            pairs.append((i1, j1))
            i1, j1 = i1 + 1, j1 + 1
        while i1 < i2 and j1 < j2 and old[i2 - 1] == new[j2 - 1]:
            pairs.append((i2 - 1, j2 - 1))
            i2, j2 = i2 - 1, j2 - 1
        if i1 >= i2 or j1 >= j2 or budget <= 0:
            continue
        budget -= (i2 - i1) + (j2 - j1)
        count_old = Counter(old[i1:i2])
        count_new = Counter(new[j1:j2])
        where = {new[j]: j for j in range(j1, j2) if count_new[new[j]] == 1}
        candidates = [
            (i, where[old[i]]) for i in range(i1, i2) if count_old[old[i]] == 1 and old[i] in where
        ]
        anchors = _increasing(candidates)
        previous_i, previous_j = i1, j1
        for i, j in anchors:
            pairs.append((i, j))
            stack.append((previous_i, i, previous_j, j))
            previous_i, previous_j = i + 1, j + 1
        if anchors:
            stack.append((previous_i, i2, previous_j, j2))
    pairs.sort()
    return pairs


def _increasing(candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``candidates`` (in order of i) whose j increases."""
    tails: list[int] = []  # tails[k]: index of the smallest j ending a run of length k + 1
    tail_js: list[int] = []
    previous: list[int] = []
    for index, (_, j) in enumerate(candidates):
        k = bisect.bisect_left(tail_js, j)
        previous.append(tails[k - 1] if k else -1)
        if k == len(tails):
            tails.append(index)
            tail_js.append(j)
        else:
            tails[k] = index
            tail_js[k] = j
    run: list[tuple[int, int]] = []
    index = tails[-1] if tails else -1
    while index >= 0:
        run.append(candidates[index])
        index = previous[index]
    return run[::-1]


def _align_keys(items: list[Any]) -> list[str]:
    """What makes two elements "the same" for alignment: the local id of an object that has
    one (its content may have changed), else the element's canonical JSON."""
    keys = []
    for item in items:
        object_id = item.get("id") if isinstance(item, dict) else None
        if isinstance(object_id, str):
            keys.append("id\x00" + object_id)
        else:
            keys.append("json\x00" + json.dumps(item, sort_keys=True, ensure_ascii=False))
    return keys


def _copy(value: object) -> object:
    return copy.deepcopy(value)


def apply_patch(doc: object, patch: Iterable[Data]) -> object:
    """Apply an RFC 6902 patch of add, remove and replace operations to a copy of ``doc`` and
    return it; ``doc`` is not changed. Raises ValueError for an operation that does not apply
    (a missing member, an index out of range, another operation)."""
    result = copy.deepcopy(doc)
    for op in patch:
        kind, path = op.get("op"), op.get("path")
        if kind not in ("add", "remove", "replace") or not isinstance(path, str):
            raise ValueError(f"unsupported operation: {op!r}")
        tokens = parse_pointer(path)
        value = copy.deepcopy(op.get("value")) if kind != "remove" else None
        if kind != "remove" and "value" not in op:
            raise ValueError(f"{kind} without a value: {op!r}")
        if not tokens:
            if kind == "remove":
                raise ValueError("cannot remove the whole document")
            result = value
            continue
        try:
            target = resolve(result, to_pointer(tokens[:-1]))
        except LookupError as exc:
            raise ValueError(f"no such location: {path!r}") from exc
        last = tokens[-1]
        if isinstance(target, dict):
            if kind != "add" and last not in target:
                raise ValueError(f"no member at {path!r}")
            if kind == "remove":
                del target[last]
            else:
                target[last] = value
        elif isinstance(target, list):
            limit = len(target) + (1 if kind == "add" else 0)
            index = len(target) if (kind == "add" and last == "-") else _index(last, limit, path)
            if kind == "add":
                target.insert(index, value)
            elif kind == "remove":
                del target[index]
            else:
                target[index] = value
        else:
            raise ValueError(f"{path!r} is inside a scalar")
    return result


def _index(token: str, limit: int, path: str) -> int:
    if not token.isdigit() or (len(token) > 1 and token[0] == "0") or int(token) >= limit:
        raise ValueError(f"bad array index in {path!r}")
    return int(token)


# --- reading documents of any shape ----------------------------------------------------------


def _get(document: object, path: Path) -> object:
    node = document
    for key in path:
        if isinstance(node, dict) and isinstance(key, str):
            node = node.get(key, _MISSING)
        else:
            return _MISSING
        if node is _MISSING:
            return _MISSING
    return node


def _keys(*values: object) -> list[str]:
    """Member names of every value that is an object, first value's order first."""
    out: dict[str, None] = {}
    for value in values:
        if isinstance(value, dict):
            out.update(dict.fromkeys(value))
    return list(out)


def _list_or_missing(value: object) -> bool:
    return value is _MISSING or isinstance(value, list)


def _dict_or_missing(value: object) -> bool:
    return value is _MISSING or isinstance(value, dict)


def _plain(value: object) -> object:
    return None if value is _MISSING else value


# --- field-level changes -----------------------------------------------------------------------


def _changes(before: object, after: object, path: Path = ()) -> list[Data]:
    """Field-level changes from ``before`` to ``after``: objects member by member (in the
    parent's member order, then the child's new members), anything else as a whole value."""
    if json_equal(before, after):
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[Data] = []
        for key in _keys(before, after):
            if key not in after:
                out.append(
                    {"pointer": to_pointer((*path, key)), "op": "remove", "before": before[key]}
                )
            elif key not in before:
                out.append({"pointer": to_pointer((*path, key)), "op": "add", "after": after[key]})
            else:
                out.extend(_changes(before[key], after[key], (*path, key)))
        return out
    return [{"pointer": to_pointer(path), "op": "replace", "before": before, "after": after}]


# Past this many words on either side, a string's change is shown whole: matching words is
# quadratic in the worst case, and a long text rewritten is read whole anyway.
WORDS_COMPARED = 600
_WORDS = re.compile(r"\s+|[^\s]+")


def changed_words(before: str, after: str) -> list[Data] | None:
    """A rewritten string as runs of words kept, removed and added (``{"op": "equal" |
    "delete" | "insert", "text": …}``), so a reader sees "EUR 500" become "EUR 5000" inside a
    sentence; None past ``WORDS_COMPARED`` words on a side."""
    old, new = _WORDS.findall(before), _WORDS.findall(after)
    if len(old) > WORDS_COMPARED or len(new) > WORDS_COMPARED:
        return None
    runs: list[Data] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if runs and runs[-1]["op"] == op:
            runs[-1]["text"] += text
        else:
            runs.append({"op": op, "text": text})

    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            add("equal", "".join(old[i1:i2]))
            continue
        add("delete", "".join(old[i1:i2]))
        add("insert", "".join(new[j1:j2]))
    return runs


# --- sections ----------------------------------------------------------------------------------


class _Item:
    __slots__ = ("id", "index", "key", "path", "value")

    def __init__(self, key: tuple[Any, ...], path: Path, value: object, index: int) -> None:
        self.key = key  # ("id", id, occurrence) or ("position", scope, ordinal)
        self.path = path
        self.value = value
        self.index = index
        self.id = key[1] if key[0] == "id" else None

    @property
    def matched_by(self) -> str:
        return "id" if self.key[0] == "id" else "position"


def _items(array: object, path: Path, scope: object = None) -> list[_Item]:
    """Every item of an array, keyed for matching: by id (and occurrence), or by ordinal among
    the id-less items (within ``scope``, the entry a draft belongs to)."""
    if not isinstance(array, list):
        return []
    seen: dict[str, int] = {}
    idless = 0
    out = []
    for i, item in enumerate(array):
        object_id = item.get("id") if isinstance(item, dict) else None
        if isinstance(object_id, str):
            occurrence = seen.get(object_id, 0)
            seen[object_id] = occurrence + 1
            key: tuple[Any, ...] = ("id", object_id, occurrence)
        else:
            key = ("position", scope, idless)
            idless += 1
        out.append(_Item(key, (*path, i), item, i))
    return out


def _drafts(document: object) -> list[_Item]:
    """The drafts of every application context entry, each keyed within its entry (id-less
    drafts by position within the entry, and the entry by its id or position)."""
    entries = _items(_get(document, ("application_context",)), ("application_context",))
    out: list[_Item] = []
    draft_ids: dict[str, int] = {}
    for entry in entries:
        if not isinstance(entry.value, dict):
            continue
        for item in _items(entry.value.get("drafts"), (*entry.path, "drafts"), entry.key):
            if item.key[0] == "id":  # ids are unique per document, not per entry
                occurrence = draft_ids.get(item.key[1], 0)
                draft_ids[item.key[1]] = occurrence + 1
                item.key = ("id", item.key[1], occurrence)
            out.append(item)
    return out


def _comparable(section: str, value: object) -> object:
    """What is compared of an object: an application context entry without its drafts (they
    are a section of their own) when they are an array."""
    drafts_apart = isinstance(value, dict) and isinstance(value.get("drafts"), list)
    if section == "application_context" and drafts_apart:
        assert isinstance(value, dict)
        return {k: v for k, v in value.items() if k != "drafts"}
    return value


def _diff_section(
    key: str, title: str, path: Path, type_: str, parent_doc: object, child_doc: object
) -> tuple[Data, list[tuple[_Item, _Item]]]:
    if key == "drafts":
        as_objects = _list_or_missing(
            _get(parent_doc, ("application_context",))
        ) and _list_or_missing(_get(child_doc, ("application_context",)))
        before = _drafts(parent_doc) if as_objects else []
        after = _drafts(child_doc) if as_objects else []
        pointer: str | None = None  # drafts live in each entry's own array
    else:
        p_value, c_value = _get(parent_doc, path), _get(child_doc, path)
        as_objects = _list_or_missing(p_value) and _list_or_missing(c_value)
        before = _items(p_value, path) if as_objects else []
        after = _items(c_value, path) if as_objects else []
        pointer = to_pointer(path)
    by_key = {item.key: item for item in after}
    matched_keys = set()
    added, removed, changed, pairs = [], [], [], []
    unchanged = 0
    for old in before:
        new = by_key.get(old.key)
        if new is None:
            removed.append(_listed(old, old.path))
            continue
        matched_keys.add(old.key)
        pairs.append((old, new))
        changes = _changes(_comparable(key, old.value), _comparable(key, new.value))
        if changes:
            entry = _identity(old)
            entry["parent_pointer"] = to_pointer(old.path)
            entry["child_pointer"] = to_pointer(new.path)
            entry["changes"] = changes
            changed.append(entry)
        else:
            unchanged += 1
    for new in after:
        if new.key not in matched_keys:
            added.append(_listed(new, new.path))
    ordered = key in _ORDERED
    moved = _moved(pairs) if ordered else []
    section = {
        "key": key,
        "title": title,
        "type": type_,
        "type_name": TYPE_NAMES.get(type_, type_),
        "pointer": pointer,
        "compared_as_objects": as_objects,
        "added": added,
        "removed": removed,
        "changed": changed,
        "unchanged": unchanged,
        # an ordered list (layout.ObjectArray.ordered): the objects that changed place
        "ordered": ordered,
        "moved": moved,
        "counts": {
            "added": len(added),
            "removed": len(removed),
            "changed": len(changed),
            "unchanged": unchanged,
            "moved": len(moved),
        },
    }
    return section, pairs


def _moved(pairs: list[tuple[_Item, _Item]]) -> list[Data]:
    """The objects of an ordered list that changed place: those outside the longest run that
    keeps the parent's order (so one object moved to the front is one move, not a shift of
    all the others). Each with its position in the parent's and the child's array."""
    in_child_order = sorted(pairs, key=lambda pair: pair[1].index)
    kept = _longest_increasing([old.index for old, _ in in_child_order])
    return [
        {**_identity(old), "parent_position": old.index, "child_position": new.index}
        for n, (old, new) in enumerate(in_child_order)
        if n not in kept
    ]


def _longest_increasing(values: list[int]) -> set[int]:
    """The positions (in ``values``) of a longest strictly increasing subsequence: n·log n."""
    tails: list[int] = []  # tails[k]: position of the smallest value ending a run of k + 1
    tail_values: list[int] = []
    previous: list[int] = []
    for position, value in enumerate(values):
        k = bisect.bisect_left(tail_values, value)
        previous.append(tails[k - 1] if k else -1)
        if k == len(tails):
            tails.append(position)
            tail_values.append(value)
        else:
            tails[k] = position
            tail_values[k] = value
    out: set[int] = set()
    position = tails[-1] if tails else -1
    while position >= 0:
        out.add(position)
        position = previous[position]
    return out


def _identity(item: _Item) -> Data:
    out: Data = {"id": item.id, "matched_by": item.matched_by}
    if item.key[0] == "position":
        out["position"] = item.key[2]
    return out


def _listed(item: _Item, path: Path) -> Data:
    entry = _identity(item)
    entry["pointer"] = to_pointer(path)
    entry["value"] = item.value
    return entry


# --- fields ------------------------------------------------------------------------------------


def _field_paths(parent_doc: object, child_doc: object) -> list[Path]:
    """Every pointer compared as a field: what is not an array of local objects."""
    paths: list[Path] = []
    for key in _keys(parent_doc, child_doc):
        p_value, c_value = _get(parent_doc, (key,)), _get(child_doc, (key,))
        if (key,) in _SECTION_AT:
            if not (_list_or_missing(p_value) and _list_or_missing(c_value)):
                paths.append((key,))
        elif key in _CONTAINERS and _dict_or_missing(p_value) and _dict_or_missing(c_value):
            for sub in _keys(p_value, c_value):
                if (key, sub) in _SECTION_AT:
                    p_sub, c_sub = _get(p_value, (sub,)), _get(c_value, (sub,))
                    if not (_list_or_missing(p_sub) and _list_or_missing(c_sub)):
                        paths.append((key, sub))
                else:
                    paths.append((key, sub))
        elif key == "extensions" and _dict_or_missing(p_value) and _dict_or_missing(c_value):
            paths.extend(("extensions", sub) for sub in _keys(p_value, c_value))
        else:
            paths.append((key,))
    return paths


def _diff_fields(parent_doc: object, child_doc: object) -> Data:
    changed = []
    unchanged = 0
    for path in _field_paths(parent_doc, child_doc):
        before, after = _get(parent_doc, path), _get(child_doc, path)
        if before is not _MISSING and after is not _MISSING and json_equal(before, after):
            unchanged += 1
            continue
        change = "added" if before is _MISSING else "removed" if after is _MISSING else "changed"
        entry: Data = {
            "pointer": to_pointer(path),
            "change": change,
            "before": _plain(before),
            "after": _plain(after),
        }
        if change == "changed":
            entry["changes"] = _changes(before, after, path)
        changed.append(entry)
    return {"changed": changed, "unchanged": unchanged}


# --- lineage views -----------------------------------------------------------------------------


def _transitions(pairs: list[tuple[_Item, _Item]]) -> list[Data]:
    out = []
    for old, new in pairs:
        if not (isinstance(old.value, dict) and isinstance(new.value, dict)):
            continue
        was, now = old.value.get("status", _MISSING), new.value.get("status", _MISSING)
        if json_equal(was, now):
            continue
        leaves = isinstance(was, str) and was in TERMINAL_STATUSES
        out.append(
            {
                **_identity(old),
                "parent_pointer": to_pointer(old.path),
                "child_pointer": to_pointer(new.path),
                "from": _plain(was),
                "to": _plain(now),
                "leaves_terminal": leaves,
                "rule": "OCP-T001" if leaves else None,
            }
        )
    return out


def _verification(statement: Data) -> Data | None:
    verification = statement.get("verification")
    if not isinstance(verification, dict):
        return None if verification is None else {"state": None, "checked_at": None}
    return {"state": verification.get("state"), "checked_at": verification.get("checked_at")}


def _evidence(statement: Data) -> list[Any]:
    evidence = statement.get("evidence")
    return evidence if isinstance(evidence, list) else []


def _missing_from(items: list[Any], other: list[Any]) -> list[Any]:
    """The items of ``items`` that ``other`` does not hold (``in``), through a set of their
    keys: a scan of ``other`` for each item cost the product of two long evidence lists."""
    held = {json_key(x) for x in other}
    return [x for x in items if json_key(x) not in held]


def _verification_changes(
    pairs: list[tuple[_Item, _Item]], raised: dict[str, Raised]
) -> list[Data]:
    out = []
    for old, new in pairs:
        if not (isinstance(old.value, dict) and isinstance(new.value, dict)):
            continue
        if json_equal(old.value.get("verification"), new.value.get("verification")):
            continue
        before_evidence, after_evidence = _evidence(old.value), _evidence(new.value)
        up = raised.get(new.id) if new.id is not None and old.key[0] == "id" else None
        out.append(
            {
                **_identity(old),
                "parent_pointer": to_pointer(old.path),
                "child_pointer": to_pointer(new.path),
                "before": _verification(old.value),
                "after": _verification(new.value),
                "raised": up is not None,
                "new_evidence": up.new_evidence if up is not None else None,
                "checked_after_parent": up.checked_after_parent if up is not None else None,
                "evidence_changed": not json_equal(before_evidence, after_evidence),
                "evidence_added": _missing_from(after_evidence, before_evidence),
                "evidence_removed": _missing_from(before_evidence, after_evidence),
            }
        )
    return out


def _origin_type(statement: Data) -> object:
    origin = statement.get("origin", _MISSING)
    return origin.get("type", _MISSING) if isinstance(origin, dict) else origin


def _identity_changes(pairs: list[tuple[_Item, _Item]]) -> list[Data]:
    out = []
    for old, new in pairs:
        if not (isinstance(old.value, dict) and isinstance(new.value, dict)):
            continue
        kind_before, kind_after = old.value.get("kind", _MISSING), new.value.get("kind", _MISSING)
        origin_before, origin_after = _origin_type(old.value), _origin_type(new.value)
        kind_changed = not json_equal(kind_before, kind_after)
        origin_changed = not json_equal(origin_before, origin_after)
        if not (kind_changed or origin_changed):
            continue
        out.append(
            {
                **_identity(old),
                "parent_pointer": to_pointer(old.path),
                "child_pointer": to_pointer(new.path),
                "kind": {"before": _plain(kind_before), "after": _plain(kind_after)}
                if kind_changed
                else None,
                "origin_type": {"before": _plain(origin_before), "after": _plain(origin_after)}
                if origin_changed
                else None,
            }
        )
    return out


def _compaction(child: Checkpoint, parent: Checkpoint) -> Data:
    method = compaction.derivation_method(child)
    omissions = compaction.omissions_recorded(child)
    dropped = compaction.dropped_protected(child, parent)
    reported = method in compaction.DERIVED_METHODS and not omissions
    if not dropped:
        note = None
    elif reported:
        note = "Each dropped object is reported as lineage-dropped: the child records no omission."
    else:
        note = (
            "The child records omissions, whose descriptions cannot be matched to ids: check "
            "that they account for every object listed here."
        )
    return {
        "method": method,
        "omissions_recorded": omissions,
        "transformations_recorded": compaction.transformations_recorded(child),
        "dropped": [
            {
                "id": obj.id,
                "type": obj.type,
                "type_name": TYPE_NAMES.get(obj.type, obj.type),
                "what": obj.what,
                "parent_pointer": obj.pointer,
            }
            for obj in dropped
        ],
        "dropped_reported": reported and bool(dropped),
        "note": note,
    }


def _parent_link(child: Checkpoint, parent: Checkpoint, compared: Pair) -> Data:
    named = child.get("parent", "id")
    return {
        "child_names_parent": named == parent.get("id") and named is not None,
        "digest": compared.digest.state,
        "digest_matched": compared.digest.matched,
    }


# --- findings ----------------------------------------------------------------------------------


def _owner_index(index: Checkpoint) -> dict[str, str]:
    """pointer -> id of every local object."""
    return {obj.pointer: obj.id for obj in index.local_objects}


def _owner(path: str, owners: dict[str, str]) -> str | None:
    """The id of the innermost local object whose pointer is ``path`` or a prefix of it."""
    try:
        tokens = parse_pointer(path)
    except ValueError:
        return None
    for end in range(len(tokens), 0, -1):
        owner = owners.get(to_pointer(tokens[:end]))
        if owner is not None:
            return owner
    return None


def _keyed(
    findings: Iterable[Finding], index: Checkpoint
) -> list[tuple[tuple[Any, ...], Finding, str | None]]:
    owners = _owner_index(index)
    out = []
    for f in findings:
        owner = _owner(f.path, owners)
        key = (f.code, "id", owner) if owner is not None else (f.code, "path", f.path)
        out.append((key, f, owner))
    return out


def _new_and_fixed(
    parent: Analysis, child: Analysis, parent_index: Checkpoint, child_index: Checkpoint
) -> Data:
    """Each document's own findings (an analysis has no lineage findings), matched."""
    before = _keyed(parent.findings, parent_index)
    after = _keyed(child.findings, child_index)
    count_before: dict[tuple[Any, ...], int] = {}
    count_after: dict[tuple[Any, ...], int] = {}
    for key, _, _ in before:
        count_before[key] = count_before.get(key, 0) + 1
    for key, _, _ in after:
        count_after[key] = count_after.get(key, 0) + 1
    new, fixed = [], []
    seen: dict[tuple[Any, ...], int] = {}
    for key, finding, owner in after:
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > count_before.get(key, 0):
            new.append(_finding(finding, owner))
    seen = {}
    for key, finding, owner in before:
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > count_after.get(key, 0):
            fixed.append(_finding(finding, owner))
    return {
        "new": new,
        "fixed": fixed,
        "persisting": len(after) - len(new),
        "matched_by": "code and the id of the innermost local object, else code and path",
    }


def _finding(finding: Finding, owner: str | None = None) -> Data:
    out = finding.to_dict()
    out["object_id"] = owner
    return out


# --- the diff ----------------------------------------------------------------------------------


def _side(result: Analysis, compared: Pair | None = None) -> Data:
    """One document's header; the child's verdict and counts take the pair's findings in."""
    checked = LintResult(result, compared)
    document = result.document
    doc = document if isinstance(document, dict) else {}
    derivation = doc.get("derivation")
    task = doc.get("task")
    return {
        "parsed": document is not None,
        "digest": result.digest,
        "id": doc.get("id"),
        "created_at": doc.get("created_at"),
        "valid": checked.valid,
        "levels": checked.levels(),
        "errors": checked.errors,
        "warnings": checked.warnings,
        "derivation_method": derivation.get("method") if isinstance(derivation, dict) else None,
        "task_status": task.get("status") if isinstance(task, dict) else None,
    }


def diff_checkpoints(compared: Pair) -> Data:
    """The semantic diff from ``compared.parent`` to ``compared.child`` as plain data (see the
    module docstring).

    Shape::

        {"model", "model_version", "redacted",
         "comparable": both documents parsed, "notes": [str],
         "parent": side, "child": side,      # parsed, digest, id, created_at, valid, levels,
                                             # errors, warnings, derivation_method, task_status
         "parent_link": {"child_names_parent", "digest": match|mismatch|not_recorded|unsupported}
                        or None,
         "summary": {"added", "removed", "changed", "unchanged", "fields_changed"},
         "fields": {"changed": [{"pointer", "change": added|removed|changed, "before", "after",
                                 "changes"?: [change]}], "unchanged": n},
         "sections": [{"key", "title", "type", "type_name",
                       "pointer": the array (None for drafts, which live in each entry),
                       "compared_as_objects",
                       "added": [{"id", "matched_by", "position"?, "pointer", "value"}],
                       "removed": [same, with the parent's pointer],
                       "changed": [{"id", "matched_by", "position"?, "parent_pointer",
                                    "child_pointer", "changes": [change]}],
                       "unchanged": n, "counts": {...}}],
         "operation_transitions": [{"id", "matched_by", "parent_pointer", "child_pointer",
                                    "from", "to", "leaves_terminal", "rule"}],
         "verification_changes": [{"id", …, "before": {"state", "checked_at"} | None,
                                   "after": …, "raised", "new_evidence", "checked_after_parent",
                                   "evidence_changed", "evidence_added", "evidence_removed"}],
         "statement_identity_changes": [{"id", …, "kind": {"before", "after"} | None,
                                         "origin_type": {"before", "after"} | None}],
         "compaction": {"method", "omissions_recorded", "transformations_recorded",
                        "dropped": [{"id", "type", "type_name", "what", "parent_pointer"}],
                        "dropped_reported", "note"},
         "lineage_findings": [finding],      # OCP-T001, OCP-T002, digest, lineage-*
         "lineage_notes": [finding],         # the lineage checks' notes
         "findings": {"new": [finding], "fixed": [finding], "persisting": n, "matched_by"},
         "patch": [RFC 6902 operation] or None,
         "patch_withheld": why there is no patch, or None}

    where a change is ``{"pointer", "op": add|remove|replace, "before"?, "after"?}`` (the
    pointer inside the object for a section's objects, the document pointer for a field) and a
    finding is the report's finding object plus ``object_id``. Never raises."""
    try:
        return _diff(compared)
    except Exception:  # the last line of defence: a diff must not take the page down
        return _failed(compared.parent, compared.child)


def _diff(compared: Pair) -> Data:
    parent, child = compared.parent, compared.child
    notes: list[str] = []
    for name, result in (("parent", parent), ("child", child)):
        if result.document is None:
            notes.append(
                f"The {name} is not a JSON object this viewer can read (see its json "
                "findings): it is compared as an empty document."
            )
        elif result.syntax != "pass":
            notes.append(
                f"The {name} does not pass level 1 (version or schema): its objects are "
                "compared as they are."
            )
    # The documents are compared as submitted (a changed credential is a change), and what the
    # diff shows is then redacted with both documents' credentials (app/redaction.py): no value
    # it lists, no member name and no pointer repeats one, even where the other document
    # quotes it.
    parent_doc: Data = parent.document if isinstance(parent.document, dict) else {}
    child_doc: Data = child.document if isinstance(child.document, dict) else {}
    parent_cp = parent.checkpoint or Checkpoint(parent_doc)
    child_cp = child.checkpoint or Checkpoint(child_doc)

    sections = []
    pairs_of: dict[str, list[tuple[_Item, _Item]]] = {}
    for key, title, path, type_ in SECTIONS:
        section, pairs = _diff_section(key, title, path, type_, parent_doc, child_doc)
        if not section["compared_as_objects"]:
            notes.append(
                f"{title}: not an array in both documents; compared as a whole value under fields."
            )
        sections.append(section)
        pairs_of[key] = pairs
    fields = _diff_fields(parent_doc, child_doc)

    raised = {r.id: r for r in compaction.raised_verifications(child_cp, parent_cp)}
    if compared.skipped is not None:
        notes.append(f"The lineage rules did not run: {compared.skipped}.")
    comparable = parent.document is not None and child.document is not None
    child_owners = _owner_index(child_cp)
    patch, withheld = None, None
    if not comparable:
        withheld = "both documents must parse"
    elif parent.secrets or child.secrets:
        # A patch with redaction markers would not produce the child; one without them would
        # repeat a credential. Neither is given.
        withheld = (
            "a document holds an apparent credential: a patch would repeat it, or, redacted, "
            "would not produce the child"
        )
    else:
        patch = json_patch(parent_doc, child_doc)
    if withheld is not None:
        notes.append(f"No JSON Patch: {withheld}.")
    out = {
        "model": MODEL,
        "model_version": MODEL_VERSION,
        "redacted": REDACTED,
        "comparable": comparable,
        "notes": notes,
        "parent": _side(parent),
        "child": _side(child, compared),
        "parent_link": _parent_link(child_cp, parent_cp, compared) if comparable else None,
        "summary": {
            "added": sum(sec["counts"]["added"] for sec in sections),
            "removed": sum(sec["counts"]["removed"] for sec in sections),
            "changed": sum(sec["counts"]["changed"] for sec in sections),
            "unchanged": sum(sec["counts"]["unchanged"] for sec in sections),
            "moved": sum(sec["counts"]["moved"] for sec in sections),
            "fields_changed": len(fields["changed"]),
        },
        "fields": fields,
        "sections": sections,
        "operation_transitions": _transitions(pairs_of["operations"]),
        "verification_changes": _verification_changes(pairs_of["statements"], raised),
        "statement_identity_changes": _identity_changes(pairs_of["statements"]),
        "compaction": _compaction(child_cp, parent_cp),
        "lineage_findings": [
            _finding(f, _owner(f.path, child_owners))
            for f in in_document_order(
                [*compared.findings, *(f for f in compared.lineage if f.severity != "note")]
            )
        ],
        # advice of the lineage checks, beside the findings and never counted (app/findings.py)
        "lineage_notes": [_finding(f, _owner(f.path, child_owners)) for f in compared.notes],
        "findings": _new_and_fixed(parent, child, parent_cp, child_cp),
        "patch": patch,
        "patch_withheld": withheld,
    }
    shown = child.redaction.joined(parent.redaction).data(out)
    assert isinstance(shown, dict)
    _mark_words(shown)
    return shown


def _mark_words(diff: Data) -> None:
    """Each string rewritten in place gets its runs of words kept, removed and added: read
    from the values as shown, after the redaction, so no run can hold what it withheld."""
    for section in diff.get("sections", []):
        for entry in section.get("changed", []):
            for change in entry.get("changes", []):
                before, after = change.get("before"), change.get("after")
                if (
                    change.get("op") == "replace"
                    and isinstance(before, str)
                    and isinstance(after, str)
                ):
                    words = changed_words(before, after)
                    if words is not None and before != after:
                        change["words"] = words


def _failed(parent: Analysis, child: Analysis) -> Data:
    """What is left when the diff itself failed: the two sides' headers, nothing of the text."""
    sides: dict[str, Data | None] = {}
    for name, result in (("parent", parent), ("child", child)):
        try:
            sides[name] = {
                "parsed": result.document is not None,
                "digest": result.digest,
                "valid": result.valid,
            }
        except Exception:
            sides[name] = None
    return {
        "model": MODEL,
        "model_version": MODEL_VERSION,
        "redacted": REDACTED,
        "comparable": False,
        "notes": ["These documents could not be compared."],
        **sides,
        "parent_link": None,
        "summary": None,
        "fields": {"changed": [], "unchanged": 0},
        "sections": [],
        "operation_transitions": [],
        "verification_changes": [],
        "statement_identity_changes": [],
        "compaction": None,
        "lineage_findings": [],
        "lineage_notes": [],
        "findings": {"new": [], "fixed": [], "persisting": 0, "matched_by": None},
        "patch": None,
        "patch_withheld": "these documents could not be compared",
    }
