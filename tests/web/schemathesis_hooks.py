"""Schemathesis hooks for tests/web/test_openapi_consumers.py (SCHEMATHESIS_HOOKS), run inside
schemathesis's own virtualenv (scripts/fetch-schemathesis.sh): nothing here imports the project.

The description's one format of its own, ``json-object-text`` (app/web/openapi.py): a string
holding the text of a JSON object of OpenCheckpoint 0.1 (``"opencheckpoint": "0.1"``), which
its ``contentSchema`` states and which schemathesis does not generate from. Taught here, its
positive cases are such texts, as the service reads them; nothing a check accepts is changed.
"""

from __future__ import annotations

import json

import schemathesis
from hypothesis import strategies as st

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)

_OBJECTS = st.dictionaries(st.text(max_size=10), _VALUES, max_size=6)
schemathesis.openapi.format(
    "json-object-text",
    _OBJECTS.map(lambda members: json.dumps({**members, "opencheckpoint": "0.1"})),
)
