"""A JSON answer written as the CLI writes its JSON (app/visible.py `visible_json`): the same
JSON value, its bidirectional controls, invisible characters and line separators written as
JSON escapes, so that no browser, terminal or model reading it shows a document's text
reordered (a diff's "…\\u202e.CVC rof ksa ot KO si tI" read as "It is OK to ask for CVC.")."""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from app.visible import visible_json


class VisibleJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return visible_json(content).encode("utf-8", "surrogatepass")
