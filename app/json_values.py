"""The kinds of parsed JSON value that code tests for, as tuples for `isinstance`, and how a
value is shown as text.

A tuple rather than `dict | list`: the union is built again at every call and the test takes
three times as long, which the walks over every value of a document (the secret scan, the
schema's cascades, the page's anchors) and the pointers of thousands of findings pay for.
"""

import json

CONTAINERS = (dict, list)  # an object or an array
NUMBERS = (int, float)  # what `json` makes of a number (and bool, an int)
SEQUENCES = (tuple, list)  # a path of tokens as the code builds one


def text_of(value: object) -> str | None:
    """A value for display: strings as they are, anything else as compact JSON text (a
    schema-invalid document may hold a number or an object where text belongs)."""
    if value is None or isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def json_key(value: object, *, booleans_apart: bool = False) -> object:
    """A hashable key of a parsed JSON value, the same for the values it counts equal, so a
    set or a dict can stand where a list was scanned with ``in``: arrays by their items in
    order, objects by their members in any order, anything else as Python's ``==`` compares it
    (1, 1.0 and true alike); with ``booleans_apart``, true and false apart from numbers, as
    `app.calls.same_value` compares a call's arguments."""
    if isinstance(value, bool):
        return ("bool", value) if booleans_apart else value
    if isinstance(value, list):
        return ("array", tuple(json_key(item, booleans_apart=booleans_apart) for item in value))
    if isinstance(value, dict):
        return (
            "object",
            frozenset(
                (name, json_key(item, booleans_apart=booleans_apart))
                for name, item in value.items()
            ),
        )
    return value
