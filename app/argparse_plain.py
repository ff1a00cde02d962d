"""argparse, loaded with its messages as written.

argparse looks each of its messages up in gettext's catalogues (``_("usage: ")``), and gettext
compiles a regex as it loads, then imports locale and searches the locale folders at the first
lookup, and the folders again at each: some 1.5 ms of `ocp lint`'s start-up (issue 28: within 3×
a bare interpreter), for messages no catalogue translates (CPython ships none for argparse's,
and this program none of its own). So argparse is imported here beside a stand-in for gettext
whose lookups return the message as written, and the stand-in is withdrawn at once: the only
names bound to it are argparse's two, and any code that imports gettext later in the process,
or imported it before, gets the real module (then argparse is imported as it is).
"""

from __future__ import annotations

import sys
from types import ModuleType


def _as_written(message: str) -> str:
    return message


def _as_written_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


if "argparse" in sys.modules or "gettext" in sys.modules:
    import argparse
else:
    _stand_in = ModuleType("gettext", "argparse's messages, as written (app/argparse_plain.py)")
    _stand_in.gettext = _as_written  # type: ignore[attr-defined]  # what argparse imports
    _stand_in.ngettext = _as_written_plural  # type: ignore[attr-defined]
    sys.modules["gettext"] = _stand_in
    try:
        import argparse
    finally:
        del sys.modules["gettext"]

__all__ = ["argparse"]
