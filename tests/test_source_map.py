"""SourceMap counts lines between the offsets asked for (no table of line starts): the same
lines and columns as a plain reading, in any order, with CRLF, astral characters and millions
of lines."""

import random

from app.analysis import SourceMap, analyze


def _plain(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def test_line_and_column_match_a_plain_reading_in_any_order() -> None:
    text = 'ab\r\n"😀"\n\n  x\n' * 40 + "last"
    source = SourceMap(text)
    offsets = list(range(len(text)))
    random.Random(7).shuffle(offsets)
    for offset in offsets[:200]:
        assert source.line_col(offset) == _plain(text, offset)
    assert source.line_count == text.count("\n") + 1


def test_findings_far_down_a_document_of_many_lines_are_placed() -> None:
    blank = "\n" * 200_000
    data = ('{"opencheckpoint": "0.1",' + blank + '"id": 7}').encode()
    analysis = analyze(data)
    schema = [f for f in analysis.findings if f.path == "/id"]
    assert schema, [f.path for f in analysis.findings]
    assert (schema[0].line, schema[0].column) == (200_001, 7)
    assert analysis.source.line_count == 200_001
