"""A finding's message as the JSON report gives it: the problem (``message``) and what to do
about it (``advice``), apart.

The checks write one sentence, ``problem; what to do`` (the text and github formats print it
so, on one line). The advice starts at the first ``"; "`` outside a quoted value: a value a
message quotes ('…' or "…") may hold one, and an apostrophe inside a word (the agent's) opens
no quote. A message with no such break has no advice of its own: all of it is the problem.
"""

from __future__ import annotations

_QUOTES = "'\""


def split_advice(message: str) -> tuple[str, str | None]:
    """(the problem, the advice or None)."""
    if "; " not in message:
        return message, None  # most messages of a long report: decided without a scan
    quote = ""
    last = len(message) - 1
    for i, char in enumerate(message):
        if char in _QUOTES:
            before = message[i - 1] if i else " "
            after = message[i + 1] if i < last else " "
            if not quote and (char == '"' or not before.isalnum()):
                quote = char
            elif char == quote and (char == '"' or not after.isalnum()):
                quote = ""
        elif char == ";" and not quote and message[i + 1 : i + 2] == " ":
            problem, advice = message[:i], message[i + 2 :]
            if problem and advice:
                return problem, advice
    return message, None
