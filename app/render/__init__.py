"""The render model of the checkpoint page: a pure function from a lint result to plain data.

The page (Jinja2) and its JSON twin both show exactly this model, so it holds only dicts,
lists, str, int, bool and None: no HTML, no markup, no escaping (the templates escape every
value; the JSON twin serializes the model as is). Nothing here imports Starlette or Jinja2.

A checkpoint is untrusted input (spec §10). Every builder in this package therefore:

* tolerates any shape: a schema-invalid document may hold a number where an object belongs,
  so values are read through the helpers of `context`, which never raise, and enum-like
  values are compared only after checking that they are strings (an unhashable value in a
  set lookup would raise);
* shows document text as data, never as instructions (§4.3, §10.2), and keeps the viewer's
  own sentences (the advice, the notes) apart from it;
* never describes a document, an operation or an action as safe, allowed or authorized, and
  never as resumable: validity covers levels 1–2 only (§8.1); advice says what to verify, where;
* works on a copy of the document in which every value flagged by a `secret` finding is
  replaced by `REDACTED`, so no section can leak it, and redacts the submitted text shown in
  the source section as well (§10.5).

Local ids are untrusted text too. Anchors keep them as written ("obj-<id>", see `anchor`),
percent-encoding only what an HTML id or a URL fragment cannot hold: dropping characters could
make two ids collide; the template escapes them.

The modules, one per part of the page: `view` (the whole page, in order), `context` (what every
builder reads), `header`, `checklist` (§10.7), `statements`, `operations` (and stop
conditions), `sections` (the rest of the document) and `source`; `model` holds the types.
"""

from app.render.context import age_changes_at, age_in_words, hidden_key
from app.render.model import (
    MODEL_VERSION,
    CheckpointView,
    FindingItem,
    FindingsSection,
    Model,
    SectionRef,
    SourceLine,
    SourceSection,
    anchor,
)
from app.render.statements import cell_anchor
from app.render.view import build_view

__all__ = [
    "MODEL_VERSION",
    "CheckpointView",
    "FindingItem",
    "FindingsSection",
    "Model",
    "SectionRef",
    "SourceLine",
    "SourceSection",
    "age_changes_at",
    "age_in_words",
    "anchor",
    "build_view",
    "cell_anchor",
    "hidden_key",
]
