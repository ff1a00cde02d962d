"""Query parameters checked against what the OpenAPI description says they take (issue 28).

A value outside its documented schema is a 400 naming the parameter, what is wrong with the
value and what is accepted: never ignored, so a misspelt filter or a damaged link says so
rather than answering as if it had not been given. Each check reads the same constants the
description is built from (app/web/openapi.py), so the two cannot disagree.

An address for programs (/api/…, a JSON twin, a patch) refuses a parameter it does not take,
so a misspelt ``holding`` is a 400, not a listing without it; a page for people ignores one
(a link shared with a tracker's ``utm_source`` still opens). A page's own links and forms only
ever write values these checks accept.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from starlette.exceptions import HTTPException
from starlette.requests import Request

from app.render.query import KIND_KEYS, ORIGIN_KEYS, PAGED_LISTS, STATUS_KEYS
from app.store.ids import LEGACY_STORAGE_ID_LENGTH, STORAGE_ID_LENGTH, is_storage_id

# The largest `from` a page takes (nine digits: no list of a document within the limits is
# that long); the description's `maximum`.
MAX_START = 999_999_999
# What a checkpoint page and its twin take (app/render/query.py PARAMETERS).
PAGE_PARAMETERS = ("kind", "origin", "status", "list", "from", "q")
# The enumerated filters of a page: parameter → the values it takes.
FILTERS: dict[str, tuple[str, ...]] = {
    "kind": KIND_KEYS,
    "origin": ORIGIN_KEYS,
    "status": STATUS_KEYS,
}
STORAGE_ID_SHAPE = (
    f"a storage id: the {STORAGE_ID_LENGTH} letters and digits after /c/ in a permalink "
    f"(or an older one of {LEGACY_STORAGE_ID_LENGTH} letters, digits, - or _)"
)

Values = Callable[[str], Iterable[str]]


class BadParameter(HTTPException):
    """400: ``name`` has a value its schema does not take."""

    def __init__(self, name: str, problem: str, accepted: str) -> None:
        super().__init__(400, f"?{name}= {problem}; it takes {accepted}")
        self.name = name


def _shown(value: str) -> str:
    # A value is the client's: quoted, cut short, never a page's markup (the error page
    # escapes it too).
    return repr(value[:40] + ("…" if len(value) > 40 else ""))


def for_programs(path: str) -> bool:
    """Whether ``path`` is an address for programs, which refuses parameters it does not take."""
    return path.startswith("/api/") or path.endswith((".json", ".patch"))


def refuse_unknown(request: Request, taken: Collection[str]) -> None:
    """400 for a query parameter that an address for programs does not take."""
    if not for_programs(request.url.path):
        return
    for name in request.query_params:
        if name not in taken:
            from app.quoting import quotable  # (a refusal's: a rare answer)

            # (named only when it may not be a credential: the answer repeats it)
            shown = name if quotable(name) else f"(a name of {len(name)} characters)"
            raise BadParameter(
                shown,
                "is not a parameter of this address",
                _one_of(taken) if taken else "no parameter",
            )


def check_page_query(values: Values) -> None:
    """The parameters of a checkpoint page and its JSON twin (`PageQuery`): every kind, origin
    and status one the page knows (or empty, for any), `list` one of the lists that page,
    `from` a whole number from 0 to MAX_START. `q` is any text."""
    for name, known in FILTERS.items():
        for value in values(name):
            # empty is "any": what the page's filter form sends for a menu left at any
            if value and value not in known:
                raise BadParameter(
                    name, f"has {_shown(value)}, which is not a {name} a page lists", _one_of(known)
                )
    for value in values("list"):
        if value not in PAGED_LISTS:
            raise BadParameter(
                "list",
                f"has {_shown(value)}, which is not a list a page shows in pages",
                _one_of(PAGED_LISTS),
            )
    for value in values("from"):
        if not (value.isascii() and value.isdigit()) or int(value) > MAX_START:
            raise BadParameter(
                "from",
                f"has {_shown(value)}, which is not a whole number of at most {MAX_START:,}",
                "the position of the first item to list, from 0",
            )


def _once(name: str, values: Values) -> list[str]:
    """The values given as ``name``: none, or one (the same value repeated is that value). Two
    that differ are a 400: which one a client meant is not for the service to guess
    (?lifetime=1h&lifetime=30d kept the first)."""
    given = list(values(name))
    if len(set(given)) > 1:
        raise BadParameter(name, "is given more than once, with different values", "one value")
    return given[:1]


def enum_parameter(values: Values, name: str, known: Iterable[str]) -> str | None:
    """The value given as ``name``, one of ``known``, or None when the parameter is absent
    (given empty, it is a 400 like any other value it does not take)."""
    given = _once(name, values)
    if not given:
        return None
    if given[0] not in known:
        problem = "is empty" if not given[0] else f"has {_shown(given[0])}"
        raise BadParameter(name, problem, _one_of(known) + "; leave it out for the default")
    return given[0]


def storage_id_parameter(values: Values, name: str) -> str | None:
    """The storage id given as ``name``, or None when the parameter is absent. Given empty, or
    not in the shape of a storage id, it is a 400: an empty ?parent= is no parent."""
    given = _once(name, values)
    if not given:
        return None
    value = given[0]
    if not value:
        raise BadParameter(name, "is empty", f"{STORAGE_ID_SHAPE}; leave it out to give none")
    if not is_storage_id(value):
        raise BadParameter(name, f"has {_shown(value)}, which is not one", STORAGE_ID_SHAPE)
    return value


def _one_of(values: Iterable[str]) -> str:
    return "one of " + ", ".join(sorted(values))


__all__ = [
    "MAX_START",
    "PAGE_PARAMETERS",
    "BadParameter",
    "check_page_query",
    "enum_parameter",
    "for_programs",
    "refuse_unknown",
    "storage_id_parameter",
]
