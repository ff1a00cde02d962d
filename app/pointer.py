"""JSON Pointers (RFC 6901): the one way every finding names a place in a document."""

from collections.abc import Iterable

from app.json_values import SEQUENCES

Path = tuple[str | int, ...]


def escape_token(token: str | int) -> str:
    text = str(token)
    if "~" in text or "/" in text:  # (rare: most tokens are returned as they are)
        return text.replace("~", "~0").replace("/", "~1")
    return text


def to_pointer(path: Iterable[str | int]) -> str:
    """``("statements", 3, "text")`` -> ``"/statements/3/text"``; the empty path is ``""``."""
    tokens = path if isinstance(path, SEQUENCES) else tuple(path)
    if not tokens:
        return ""
    joined = "/".join(map(str, tokens))
    if "~" in joined or joined.count("/") != len(tokens) - 1:
        # a token holds "~" or "/": escape each one (rare; the fast join above is the rule)
        return "".join(["/" + escape_token(token) for token in tokens])
    return "/" + joined


def parse_pointer(pointer: str) -> list[str]:
    """``"/a~1b/0"`` -> ``["a/b", "0"]``. Tokens stay strings: only the document knows
    whether a token indexes an array or names a member."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON Pointer starts with '/': {pointer!r}")
    tokens = pointer[1:].split("/")
    if "~" not in pointer:
        return tokens  # nothing escaped (the rule): no token to unescape
    return [t.replace("~1", "/").replace("~0", "~") for t in tokens]


def resolve(document: object, pointer: str) -> object:
    """The value at ``pointer``; raises ``LookupError`` when there is none."""
    node = document
    for token in parse_pointer(pointer):
        if isinstance(node, dict):
            if token not in node:
                raise LookupError(pointer)
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
                raise LookupError(pointer)
            index = int(token)
            if index >= len(node):
                raise LookupError(pointer)
            node = node[index]
        else:
            raise LookupError(pointer)
    return node
