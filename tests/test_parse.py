"""Strict intake: JSONTestSuite verdicts, I-JSON rules, limits, and positions of errors."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.parse
from app.parse import Limits, _StrictParser, line_col, parse
from tests.conftest import CONFORMANCE, JSONTESTSUITE, manifest

SUITE = sorted(p.name for p in JSONTESTSUITE.iterdir())


def _plain_object_without_duplicates(data: bytes) -> bool:
    def unique(pairs: list) -> dict:
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError("duplicate")
        return dict(pairs)

    try:
        return isinstance(json.loads(data.decode("utf-8"), object_pairs_hook=unique), dict)
    except ValueError:
        return False


def json_errors(intake):
    return [f for f in intake.findings if f.code == "json" and f.severity == "error"]


@pytest.fixture(params=["hooks", "unhooked"])
def gear(request, monkeypatch):
    """Intake's fast path in each of its two gears: the standard library's decoder with hooks
    (small documents) and without, its members counted (from 64 KB on), here for any size."""
    if request.param == "unhooked":
        monkeypatch.setattr(app.parse, "_UNHOOKED_FROM", 0)
    return request.param


def test_the_suite_is_all_there():
    assert len(SUITE) == 318


@pytest.mark.parametrize("name", SUITE)
def test_jsontestsuite_verdict(name, gear):
    data = (JSONTESTSUITE / name).read_bytes()
    intake = parse(data)
    errors = json_errors(intake)
    if name.startswith(("n_", "i_")) or not _plain_object_without_duplicates(data):
        assert errors, f"{name} must be refused"
        assert intake.document is None
        for error in errors:
            assert error.line >= 1 and error.column >= 1
            assert error.message
    else:
        assert not errors, errors
        assert isinstance(intake.document, dict)


@pytest.mark.parametrize(
    "case", [c for c in manifest() if c["note"].startswith("json:")], ids=lambda c: c["file"]
)
def test_conformance_json_cases_point_at_the_problem(case):
    intake = parse((CONFORMANCE / case["file"]).read_bytes())
    errors = json_errors(intake)
    assert errors
    expected = case["errors"][0]["path"]
    assert any(e.path == expected for e in errors), [(e.path, e.message) for e in errors]


def test_duplicate_member_five_levels_deep_names_both_places():
    data = b'{\n "a": {"b": [{"c": {"sheet": 1,\n   "sheet": 2}}]}\n}'
    [error] = json_errors(parse(data))
    assert error.path == "/a/b/0/c/sheet"
    assert (error.line, error.column) == (3, 4)
    assert "first at line 2, column 21" in error.message


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        (r'{"k": "\ud800"}', "/k", "unpaired surrogate"),
        (r'{"\udc00": 1}', "", "unpaired surrogate"),
        (r'{"k": "x\uFDD0"}', "/k", "noncharacter U+FDD0"),
        ('{"k": "x\ufffe"}', "/k", "noncharacter U+FFFE"),
        (r'{"k": "\ud83f\udffe"}', "/k", "noncharacter U+1FFFE"),
        ('{"k": NaN}', "/k", "NaN is not JSON"),
        ('{"k": [Infinity]}', "/k/0", "Infinity is not JSON"),
        ('{"k": -1e999}', "/k", "overflows a double"),
        ('{"k": ' + "9" * 400 + "}", "/k", "overflows a double"),
        ('{"k": "tab\there"}', "/k", "control character"),
    ],
)
def test_i_json_violations(text, path, words):
    [error] = json_errors(parse(text.encode("utf-8")))
    assert error.path == path
    assert words in error.message


@pytest.mark.parametrize("size", ["small", "large"])
def test_every_noncharacter_written_as_itself_is_reported_among_prose_past_ascii(size):
    """Each of the 66 noncharacters, written raw (not escaped) in a document whose other text
    is past ASCII (a model's curly quotes and dashes), small or large (the hookless decoder's
    path): the pre-check that finds them in the bytes misses none."""
    from app.parse import _NONCHARACTERS

    prose = "The agent\u2019s note \u2014 \u201cdone\u201d. " * (2000 if size == "large" else 1)
    for character in _NONCHARACTERS:
        text = json.dumps({"note": prose, "k": f"x{character}y"}, ensure_ascii=False)
        [error] = json_errors(parse(text.encode("utf-8", "surrogatepass")))
        assert error.path == "/k", hex(ord(character))
        assert f"noncharacter U+{ord(character):04X}" in error.message


def test_noncharacter_in_a_key_and_escaped_backslash_is_not_an_escape():
    assert json_errors(parse(b'{"a\\uffff": 1}'))
    intake = parse(b'{"k": "\\\\ud800"}')  # a backslash, then the text ud800
    assert intake.document == {"k": "\\ud800"}


def test_big_integers_are_a_warning_with_a_path():
    intake = parse(
        b'{"a": {"n": 9007199254740992, "ok": 9007199254740991, "m": -9007199254740993}}'
    )
    assert intake.document is not None
    warnings = [(f.path, f.severity) for f in intake.findings]
    assert warnings == [("/a/n", "warning"), ("/a/m", "warning")]
    assert intake.document["a"]["n"] == 2**53


def test_top_level_must_be_an_object():
    for data in (b"[]", b'"x"', b"1", b"null"):
        [error] = json_errors(parse(data))
        assert "not an object" in error.message
        assert (error.line, error.column) == (1, 1)


def test_bom_and_utf16_are_refused():
    assert "byte-order mark" in json_errors(parse(b"\xef\xbb\xbf{}"))[0].message
    assert "UTF-16" in json_errors(parse('{"a":1}'.encode("utf-16")))[0].message


def test_invalid_utf8_in_the_middle_of_a_key():
    data = b'{\n  "task": {"obj\xc3\x28ective": "x"}\n}'
    [error] = json_errors(parse(data))
    assert "not valid UTF-8" in error.message
    assert error.path == "/task"
    assert (error.line, error.column) == (2, 16)


def test_size_limit_is_a_clear_error():
    intake = parse(b'{"a": "' + b"x" * 200 + b'"}', Limits(max_bytes=100))
    [error] = json_errors(intake)
    assert "limit of 100 bytes" in error.message


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_deep_nesting_is_refused_without_recursion_error(depth):
    data = b'{"a": ' + b"[" * depth + b"]" * depth + b"}"
    [error] = json_errors(parse(data))
    assert "nesting deeper than 64 levels" in error.message


def test_nesting_at_the_limit_is_fine():
    data = b'{"a": ' + b"[" * 63 + b"]" * 63 + b"}"
    assert parse(data).document is not None
    assert parse(data, Limits(max_depth=10)).document is None


def test_five_mebibytes_of_one_string():
    body = b"x" * (5 * 1024 * 1024 - 20)
    intake = parse(b'{"s": "' + body + b'"}')
    assert intake.document is not None and len(intake.document["s"]) == len(body)
    unterminated = parse(b'{"s": "' + body)
    assert "never closed" in json_errors(unterminated)[0].message


def test_fast_path_and_strict_parser_agree(gear):
    """The fast path must accept exactly what the strict parser accepts, with equal values."""
    samples = [p.read_bytes() for p in sorted(CONFORMANCE.glob("*.json"))]
    samples += [p.read_bytes() for p in sorted(JSONTESTSUITE.iterdir())]
    for data in samples:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        fast = parse(data)
        strict = _StrictParser(text, Limits()).run()
        if data.startswith(b"\xef\xbb\xbf"):
            continue
        assert (fast.document is None) == (strict.document is None), data[:80]
        assert fast.document == strict.document


def test_line_col_counts_code_points():
    text = 'ab\n"é€😀"x'
    assert line_col(text, 0) == (1, 1)
    assert line_col(text, 3) == (2, 1)
    assert line_col(text, text.index("x")) == (2, 6)


@pytest.mark.parametrize(
    ("value", "depth"),
    [
        ({"a": [[["[[[["]]]}, 4),
        ({"a\\": [[{"b": '"[[[[\\'}]]}, 4),
        ({"a": '\\\\"{{{{{{'}, 1),
        ({"a": "]]]]", "b": [[[1]]]}, 4),
        ({'"': ["\\", '"]', {'\\"': "}}}"}]}, 3),
    ],
)
def test_depth_precheck_ignores_brackets_inside_strings(value, depth):
    from app.parse import _deeper_than

    for indent in (None, 1):
        data = json.dumps(value, indent=indent).encode()
        assert _deeper_than(data, depth - 1) and not _deeper_than(data, depth)


@pytest.mark.parametrize("depth", [1, 2, 3, 7, 8, 9, 15, 16, 17, 18, 40, 65])
def test_depth_precheck_peels_or_counts_to_the_exact_depth(depth):
    """A shallow document is peeled (a pass takes one or two levels away), a deep one counted:
    each is judged deeper than a limit exactly when it is, at every limit around its depth,
    whatever its brackets, with strings holding brackets at every level."""
    value: object = "]}"
    for level in range(depth):
        empty = [[], {}] if level else []  # (one level below the list: never the deepest)
        value = {"k": value, "s": "[{"} if level % 3 else [value, "}", *empty]
    data = json.dumps(value).encode()
    for limit in range(max(1, depth - 20), depth + 20):
        assert _deeper(data, limit) == (depth > limit), limit


@pytest.mark.parametrize("seed", range(12))
def test_depth_precheck_counts_chains_with_siblings_as_a_walk_does(seed):
    """Chains nested near the limit, each level with siblings of its own (a short chain, an
    empty container, a string of brackets) or none: too few innermost pairs to peel, so the
    depth is counted run by run, and it is exactly the walk's."""
    rng = random.Random(seed)

    def chain(depth: int) -> object:
        value: object = rng.choice(["[{", 1, [], {}])
        for level in range(depth):
            siblings = rng.choice([[], [[]], [{}], ["]]"], [[[1]]], [{"a": {"b": []}}]])
            value = {"k": value, "s": siblings} if (level + seed) % 2 else [value, *siblings]
        return value

    def walked(value: object) -> int:
        if isinstance(value, dict):
            return 1 + max(map(walked, value.values()), default=0)
        if isinstance(value, list):
            return 1 + max(map(walked, value), default=0)
        return 0

    document = {"calls": [chain(rng.randrange(30, 70)) for _ in range(20)]}
    depth = walked(document)
    data = json.dumps(document, indent=rng.choice([None, 1])).encode()
    for limit in (depth - 2, depth - 1, depth, depth + 1):
        assert _deeper(data, limit) == (depth > limit), limit


def _deeper(data, limit):
    from app.parse import _deeper_than

    return _deeper_than(data, limit)


@pytest.mark.parametrize(
    "data",
    [b'{"k\xff": 1, "k\xff": 2}', b'{"\\ud800": 1, "\\ud800": 2}', b'{"a\xff": [1,]}'],
)
def test_findings_about_broken_member_names_encode_as_utf8(data):
    for finding in parse(data).findings:
        finding.path.encode("utf-8")
        finding.message.encode("utf-8")


@pytest.mark.parametrize(
    ("data", "byte"), [(b"\x80{}", "0x80"), (b"\xfe", "0xFE"), (b'{"a": \xc3}', "0xC3")]
)
def test_a_byte_that_is_not_utf8_outside_a_string_is_named_as_the_byte(data, byte):
    """Not as the lone surrogate the decoding keeps it as ("found U+DC80"), a character that
    is not in the file."""
    [finding] = parse(data).findings
    assert f"byte {byte}, which is not valid UTF-8" in finding.message
    assert "U+DC" not in finding.message


_NAMES = st.text(alphabet='":\\ab', max_size=3)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(alphabet='":\\ab{}[],\n\u00e9'),
        lambda inner: st.lists(inner, max_size=4) | st.lists(st.tuples(_NAMES, inner), max_size=4),
        max_leaves=30,
    ),
    st.sampled_from(["compact", "spaced", "colons escaped"]),
)
def test_both_decoders_read_a_document_alike(value, written):
    """The hookless gear (duplicate members found by counting colons) and the hooks' (a hook
    for each object) take and refuse the same documents, repeated members included
    (a list of pairs is written as an object, names drawn from few so that they repeat),
    with the same values and findings."""

    def string(v):
        quoted = json.dumps(v)
        return quoted.replace(":", "\\u003a") if written == "colons escaped" else quoted

    def write(v):
        sep = ":" if written == "compact" else ": "
        if isinstance(v, list) and v and all(isinstance(p, tuple) for p in v):
            return "{" + ", ".join(string(k) + sep + write(x) for k, x in v) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(map(write, v)) + "]"
        return string(v) if isinstance(v, str) else json.dumps(v)

    text = '{"v": ' + write(value) + "}"
    data = text.encode()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(app.parse, "_UNHOOKED_FROM", 10**9)
        small = parse(data)
        patch.setattr(app.parse, "_UNHOOKED_FROM", 0)
        large = parse(data)
    assert large.document == small.document
    assert [(f.path, f.message) for f in large.findings] == [
        (f.path, f.message) for f in small.findings
    ]


@pytest.mark.parametrize(
    "body, path",
    [
        ('"a": 1, "b": {"c": 1, "c": 2}', "/b/c"),
        ('"a": [{"k": "v:\\\\", "k": "w"}]', "/a/0/k"),
        ('"a": {"x:\\"": 1, "x:\\"": 1}', '/a/x:"'),
        # a colon written as an escape, which the document written back holds as one, as
        # many as the repeated member took away
        ('"a": {"k": 1, "k": 2}, "b": "\\u003a"', "/a/k"),
        # the same name written as an escape once: one member decoded, two in the text
        ('"a": {"k": 1, "\\u006b": 2}', "/a/k"),
    ],
)
def test_a_repeated_member_in_a_large_document_is_found(body, path):
    """From 64 KB on the decoder with no hooks keeps one of a repeated member: the count of
    members tells, and the strict parser names the place."""
    data = ('{"pad": "' + "x" * 70_000 + '", ' + body + "}").encode()
    errors = json_errors(parse(data))
    assert [e.path for e in errors] == [path]
    assert "duplicate" in errors[0].message


def _watch_unhooked(monkeypatch) -> list[int]:
    """A list that gets an item each time a large document is decoded with no hooks."""
    import app.parse

    decoded: list[int] = []
    real = app.parse._unhooked
    monkeypatch.setattr(app.parse, "_unhooked", lambda text: decoded.append(1) or real(text))
    return decoded


def test_a_large_document_is_read_as_the_small_one_is(monkeypatch):
    """The hookless decoder's values are the hooks': numbers, escapes, non-ASCII text; a run
    past 2^53 - 1 sends the document to the hooks."""
    decoded = _watch_unhooked(monkeypatch)
    item = ['é\u00e9"\\\n', True, None, 1e300, -0.0, 2.5e-5]
    members = {f"m{i}": [i, -i, i / 8, *item] for i in range(4000)}
    text = json.dumps(members)
    assert len(text) > 64 * 1024
    large = parse(text.encode())
    assert large.ok and large.verbatim and decoded == [1]
    assert large.document == json.loads(text)
    wide = parse(text.replace('"m0"', '"m0": 9007199254740993, "n0"').encode())
    assert wide.ok and wide.document["m0"] == 9007199254740993
    assert [f.path for f in wide.findings] == ["/m0"]


@pytest.mark.parametrize(
    "number", ["9007199254740993", "-9007199254740993", "18446744073709551617", "1234567890123456"]
)
@pytest.mark.parametrize(
    "around", ['"n": {}, ', '"a": [{}], ', '"a": [1,{}\n], ', '"a": {{"b":\t{}}}, ']
)
def test_a_long_integer_anywhere_a_number_stands_is_read_as_a_small_document_s(number, around):
    """An integer of 16 digits or more wherever JSON puts a number (after a colon, a bracket,
    a comma, a space; before a comma, a bracket, a brace, a space) in a large document: one
    past 2^53 - 1, which the document written back with orjson's strict integers refuses, is
    read by the standard library's hooks, which send it to the strict parser for its
    warning's place, as in a small document."""
    body = around.format(number)
    for pad in (0, 70_000):
        data = ('{"pad": "' + "x" * pad + '", ' + body + '"end": 1}').encode()
        intake = parse(data)
        assert intake.ok
        warned = [f.path for f in intake.findings if "2^53" in f.message or "53" in f.message]
        assert bool(warned) is (abs(int(number)) > 2**53 - 1), body


@pytest.mark.parametrize(
    ("number", "overflows"),
    [
        ("1e400", True),
        ("-1E+309", True),
        ("999999999999999e294", True),  # (15 digits: 16 take the hooks)
        ("1e0400", True),
        ("1e300", False),
        ("123456789012345e293", False),
        ("1.5e-400", False),
    ],
)
def test_a_large_document_s_float_past_the_largest_double_is_reported(number, overflows):
    """The decoder with no hooks reads a float past the largest double as an infinity: each
    number of an exponent that may make one is read first, and one that does sends the document
    to the strict parser, which reports it where a small document's hooks do."""
    for pad in (0, 70_000):  # (a small document, then a large one)
        data = ('{"pad": "' + "x" * pad + '", "n": ' + number + "}").encode()
        intake = parse(data)
        assert intake.ok is not overflows
        assert [f.path for f in json_errors(intake)] == (["/n"] if overflows else [])


def test_digits_inside_strings_leave_a_large_document_to_the_hookless_decoder(monkeypatch):
    """Sixteen digits and more inside strings (a placeholder digest of zeros, a hex id's run of
    digits, an id quoted) are no number: the decoder with no hooks reads the document, and its
    values are the hooks'. (Digits with a space on either side, in prose, may be a number:
    those take the hooks.)"""
    decoded = _watch_unhooked(monkeypatch)
    strings = {
        "digest": "sha-256:" + "0" * 64,
        "id": "a" + "1234567890" * 3 + "f",
        "quoted": "12345678901234567890",
    }
    # (three runs in 3.5 KB: past one in a kilobyte the hooks take a document, its runs each
    # a step to look at)
    members = {f"m{i}": dict(strings, n=i, text="words " * 580) for i in range(200)}
    text = json.dumps(members)
    assert len(text) > 64 * 1024
    intake = parse(text.encode())
    assert intake.ok and decoded == [1] and intake.document == json.loads(text)
    assert not intake.findings


# Another format's habit that JSON does not allow, and the end of the error's sentence that says
# so and what to do (a review as a new user found them all reported without it)
SYNTAX_HABITS = {
    "trailing-comma-object": ('{"a": 1,}', "JSON allows no comma after the last item"),
    "trailing-comma-array": ('{"a": [1, ]}', "JSON allows no comma after the last item"),
    "line-comment": ('{"a": 1 // why\n}', "JSON has no comments"),
    "block-comment": ('{/* why */ "a": 1}', "JSON has no comments"),
    "single-quotes": ("{'a': 1}", "double quotes"),
    "bare-name": ("{a: 1}", "in double quotes"),
    "python-literal": ('{"a": True}', "true, false and null are lower case"),
    "leading-zero": ('{"a": 01}', "does not start with 0"),
    "raw-tab": ('{"a": "x\ty"}', "write it as the escape \\t"),
    "utf-16": ('{"a":1}'.encode("utf-16-le").decode("latin-1"), "looks like UTF-16"),
}


@pytest.mark.parametrize("case", list(SYNTAX_HABITS))
def test_a_syntax_error_says_what_to_do_about_another_format_s_habit(case):
    text, advice = SYNTAX_HABITS[case]
    data = text.encode("latin-1") if case == "utf-16" else text.encode()
    intake = parse(data)
    assert intake.document is None
    [finding] = intake.findings
    assert advice in finding.message, finding.message


def test_every_syntax_error_has_advice_apart_from_its_problem():
    """The JSON report gives a finding's advice apart (app/finding_advice.py, at the first
    "; " outside a quote): a syntax error with no likelier mistake to name still says what to
    do, and a single quote found is named, not quoted (in quotes, it hid the advice)."""
    from app.finding_advice import split_advice

    for text in ('{"a": 1 "b": 2}', "{'a': 1}", '{"a": 1', '{"a" 1}', '{"a": [1,]}'):
        [finding] = parse(text.encode()).findings
        _, advice = split_advice(finding.message)
        assert advice, finding.message
