"""The head of the statements section: a table of counts by kind and origin type, each count
a link to those statements, and the form that filters them (app/render/statements.py builds
their model).

Written in Python rather than as template loops for the reason of app/web/cards.py: the table
has a cell for every kind and origin type, and the form an option for each, whatever the
document holds; as a template they cost more than all the statement cards of a short
checkpoint. Every value goes through `escape`, as there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from app.web.fragments import escape, html

Model = Mapping[str, Any]


def matrix(table: Model, nav: str | None) -> Markup:
    """The table: a row per kind, a column per origin type, and their totals. A count links
    to its statements where the page lists them; on a stored page (``nav`` "link") a count
    the page's query leaves out links to the same page listing them; otherwise it is text."""
    columns = table["columns"]
    head = "".join([f'<th scope="col">{escape(c["origin_type"])}</th>' for c in columns])
    rows = "".join([_row(row, nav) for row in table["rows"]])
    totals = "".join([f'<td class="num total">{escape(c["total"])}</td>' for c in columns])
    return html(
        '<div class="table-wrap">\n'
        '  <table class="matrix">\n'
        "    <caption>Statements by kind (rows) and origin type (columns); each count links "
        "to those statements</caption>\n"
        f'    <thead>\n      <tr><th scope="col">Kind</th>{head}<th scope="col">Total</th></tr>\n'
        f"    </thead>\n    <tbody>\n{rows}    </tbody>\n"
        f'    <tfoot>\n      <tr><th scope="row">Total</th>{totals}'
        f'<td class="num total">{escape(table["total"])}</td></tr>\n    </tfoot>\n'
        "  </table>\n  </div>"
    )


def _row(row: Model, nav: str | None) -> str:
    kind = escape(row["kind"])
    cells = "".join([_cell(kind, cell, nav) for cell in row["cells"]])
    return (
        f'      <tr><th scope="row"><a href="#{escape(row["anchor"])}">{kind}</a></th>{cells}'
        f'<td class="num total">{escape(row["total"])}</td></tr>\n'
    )


def _cell(kind: str, cell: Model, nav: str | None) -> str:
    count = cell["count"]
    if not count:
        return f'<td class="num zero">{escape(count)}</td>'
    anchor = escape(cell["anchor"])
    if cell["listed"]:
        return f'<td class="num"><a href="#{anchor}">{escape(count)}</a></td>'
    if nav == "link":
        origin = escape(cell["origin_type"])
        return (
            f'<td class="num"><a href="?kind={kind}&amp;origin={origin}#{anchor}">'
            f"{escape(count)}</a></td>"
        )
    return f'<td class="num">{escape(count)}</td>'


# The filter form's menus: the query's parameter, its label, and the query's member holding
# what it asks for.
_MENUS = (
    ("kind", "Kind", "kinds"),
    ("origin", "Origin type", "origins"),
    ("status", "Status", "statuses"),
)


def filters(query: Model, nav: str) -> Markup:
    """The form that lists statements by kind, origin type and status: a stored page asks for
    its own address with the query (``nav`` "link"); an unsaved page sends its Share form,
    which carries the document, back to /view ("form")."""
    carried = ' form="carry"' if nav == "form" else ""
    menus = "".join(
        [_menu(query, name, label, query[member], carried) for name, label, member in _MENUS]
    )
    button = (
        '<button type="submit" form="carry" formaction="/view#statements">Show</button>'
        if nav == "form"
        else '<button type="submit">Show</button>'
    )
    return html(
        '<form class="filters" method="get" action="#statements" aria-labelledby="filters-h">\n'
        '    <h3 id="filters-h" class="filters-h">Show statements</h3>\n'
        f"{menus}    {button}\n"
        '    <p class="filter-status js-only" role="status"></p>\n'
        "  </form>"
    )


def _menu(query: Model, name: str, label: str, chosen: list[str], carried: str) -> str:
    only = chosen[0] if len(chosen) == 1 else None
    options = "".join(
        [
            f'<option value="{escape(value)}"{" selected" if value == only else ""}>'
            f"{escape(value)}</option>"
            for value in query["choices"][name]
        ]
    )
    return (
        f'    <label>{escape(label)} <select name="{escape(name)}"{carried} '
        f'data-filter="{escape(name)}">\n      <option value="">any</option>\n'
        f"{options}    </select></label>\n"
    )
