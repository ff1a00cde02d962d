"""The call an action operation stands for, and when another call repeats it (§6.6).

"A call to the same tool whose arguments include every recorded argument with an equal value
is a repeat of the operation." Equal as JSON values are equal: numbers by value (1 and 1.0
are one number), strings exactly, true and false only as themselves (true is not 1), arrays
element by element in order, objects member by member in any order. Extra arguments in the
new call do not make it a different call: the recorded ones identify it.

One definition for the lineage check of a repeated completed call, the page's advice and the
call guard.
"""

from __future__ import annotations

from app import TYPE_CHECKING
from app.json_values import NUMBERS
from app.record import Record

if TYPE_CHECKING:
    from typing import Any, Final


class Call(Record):
    __slots__ = ("arguments", "tool")

    tool: Final[str]
    arguments: Final[dict[str, Any]]

    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        self.tool = tool
        self.arguments = arguments

    @classmethod
    def of(cls, value: object) -> Call | None:
        """The call an operation records (its ``call`` member), or None when there is none a
        consumer could compare: no tool, or arguments that are not an object."""
        if not isinstance(value, dict):
            return None
        tool = value.get("tool")
        arguments = value.get("arguments", {})
        if not isinstance(tool, str) or not tool or not isinstance(arguments, dict):
            return None
        return cls(tool, arguments)


def same_value(a: object, b: object) -> bool:
    """JSON equality: numbers by value, booleans only as booleans, objects unordered."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a is b
    if isinstance(a, NUMBERS) and isinstance(b, NUMBERS):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return a is None and b is None


def declared_name(tool: str) -> str:
    """The tool's name as its server declares it, which is how §6.6 records it ("for MCP, the
    tool name the server declares, without a client's prefix"): a client that namespaces the
    tools of several servers calls ``create_refund`` of server ``payments`` by a longer name,
    ``mcp__payments__create_refund`` (the ``mcp__SERVER__TOOL`` form) or ``payments__create_refund``
    (``SERVER__TOOL``). Any other name is taken as written."""
    server_and_tool = tool[len("mcp__") :] if tool.startswith("mcp__") else tool
    head, separator, name = server_and_tool.partition("__")
    return name if separator and head and name else tool


def same_arguments(proposed: Call, recorded: Call) -> bool:
    """Every argument of ``recorded`` present in ``proposed`` with an equal value."""
    return all(
        name in proposed.arguments and same_value(proposed.arguments[name], value)
        for name, value in recorded.arguments.items()
    )


def repeats(proposed: Call, recorded: Call) -> bool:
    """Whether ``proposed`` is a repeat of the operation that recorded ``recorded`` (§6.6):
    the same tool, and every recorded argument present with an equal value."""
    return proposed.tool == recorded.tool and same_arguments(proposed, recorded)
