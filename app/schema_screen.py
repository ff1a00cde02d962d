"""Whether a document conforms to the schema, answered in pure Python: the schema stage's screen.

Importing jsonschema-rs costs a bare Python start-up and more again (the extension and the
standard modules it loads: `email.utils`, `socket`, `decimal`), about as much as everything
else `ocp lint` of one small file does (issue 28). Most documents a linter sees conform, and
for those the stage has nothing to say. So the stage first asks this screen; only a document
it does not pass goes to jsonschema-rs (app/schema.py), which finds and words the errors.

The screen is app/schema_checks.py: the schema written out as Python functions, one per
subschema, each answering "does this value conform", by app/schema_codegen.py (which refuses a
schema holding a keyword it does not implement, so none can be silently ignored). Written out
rather than built from the schema as each process starts, it is loaded prepared, from its .pyc
(building it cost `ocp lint` a tenth of a small file's run). A document it passes is one both
validators pass; the tests hold the three to the same answer on every document of the suite
and on generated ones, and the shipped module to what the writer writes from the schema.
"""

from __future__ import annotations

import sys

# The screen walks in Python, some fifteen times slower than jsonschema-rs checks (0.8 ms for
# a 17 KB document): it pays only while jsonschema-rs is not loaded yet, and for a document
# small enough that the walk costs less than that import (about 20 ms).
SCREEN_MAX_BYTES = 64 * 1024


def conforms(document: object) -> bool:
    """True when ``document`` conforms to the schema, as jsonschema-rs would say."""
    from app.schema_checks import conforms as screen  # written from the schema, loaded prepared

    return screen(document)


def screen_pays(size: int) -> bool:
    """Whether screening a document of ``size`` bytes saves time: in a process that has not
    loaded the validator (a linter's run; a service loads it as it starts), and small."""
    return size <= SCREEN_MAX_BYTES and "jsonschema_rs" not in sys.modules
