"""The secret scan's two engines (app/secrets/engine.py) give the same findings.

A large input is searched by RE2, a small one by Python's `re` (so that a small document's lint
never loads RE2: start-up, issue 28). Both read the same ASCII text with the same patterns, so
they must agree on every text: the recall and precision corpora, the rules' true and false
cases, hostile runs, non-ASCII text. Each pattern is held to the syntax both read alike.
"""

import random
import re
import string
from collections.abc import Callable

import pytest

import app.secrets.engine as engine_module
from app import secrets
from app.secrets import find_secrets, scan_text, scan_texts
from app.secrets.engine import IN_RUNS, RUN_CHARS, RUN_MIN, Engine, Hay
from app.secrets.rules import RULES
from tests.test_secrets import DETECTORS, ORDINARY, rnd
from tests.test_secrets_hostile import NOTHING_TO_FIND
from tests.test_secrets_ordinary import PLAUSIBLE
from tests.test_secrets_recall import FORMATS
from tests.test_secrets_rules import EXAMPLES

PATTERNS = [*RULES, *secrets._ANCHORS]


def _corpus() -> list[str]:
    texts = [make() for _, make in FORMATS]
    texts += [make() for make, _ in EXAMPLES.values()]
    texts += [near for _, near in EXAMPLES.values()]
    texts += [d[3] for d in DETECTORS]
    texts += PLAUSIBLE + ORDINARY
    texts += [text[:3000] for _, text in NOTHING_TO_FIND]
    # non-ASCII around and inside credentials: the engines read "?" for each such character
    texts += [f"clé: {t} — fin" for t in texts[:60]]
    texts += ["pässwörd: Wïnt3r-2026!", "token é" + rnd(30), "https://usér:pässw0rd@host/x"]
    return texts


CORPUS = _corpus()


def test_every_pattern_uses_the_syntax_both_engines_read_alike() -> None:
    forbidden = re.compile(
        r"\\[wWsSdDbBAZz]"  # classes and anchors that differ between the engines
        r"|\(\?[=!<]"  # look-arounds
        r"|[*+?}]\+"  # possessive repetitions
        r"|\\[1-9]"  # back-references
    )
    re2 = engine_module._re2_module()
    assert re2 is not None
    for pattern in PATTERNS:
        regex = pattern.regex
        assert forbidden.search(regex) is None, regex
        re.compile(regex, re.ASCII)
        re2.compile(regex.encode())
        for keyword in pattern.keywords:
            assert keyword, regex


@pytest.mark.parametrize("index", range(len(PATTERNS)))
def test_both_engines_find_the_same_matches(index: int) -> None:
    engine = Engine(PATTERNS)
    hay = Hay("\n" + "\n".join(CORPUS) + "\n")
    pos, python, by_re2 = 0, [], []
    while (m := engine.search(index, hay, False, pos)) is not None:
        python.append(m)
        pos = m[1]
    pos = 0
    while (m := engine.search(index, hay, True, pos)) is not None:
        by_re2.append(m)
        pos = m[1]
    assert python == by_re2, PATTERNS[index].regex


@pytest.fixture(params=["re", "re2"])
def engine_choice(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    choice = str(request.param)
    monkeypatch.setattr(Engine, "uses_re2", lambda self, hay: choice == "re2")
    return choice


def test_the_findings_are_the_same_whichever_engine(
    engine_choice: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = scan_texts(CORPUS)
    singly = [scan_text(text) for text in CORPUS[:200]]
    monkeypatch.setattr(Engine, "uses_re2", lambda self, hay: engine_choice != "re2")
    assert scan_texts(CORPUS) == found
    assert [scan_text(text) for text in CORPUS[:200]] == singly
    document = {"statements": [{"text": t} for t in CORPUS[:400]], "x": dict.fromkeys(CORPUS, 1)}
    assert find_secrets(document) == find_secrets(document)


def test_the_findings_are_the_same_on_a_large_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """A document past RE2_FROM is searched by RE2 unless told otherwise: the same hits."""
    document = {"statements": [{"text": t} for t in CORPUS], "x": dict.fromkeys(CORPUS[:500], 1)}
    by_size = find_secrets(document)
    assert by_size
    monkeypatch.setattr(Engine, "uses_re2", lambda self, hay: False)
    assert find_secrets(document) == by_size


def test_without_the_binding_the_scan_still_finds_everything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An install whose RE2 cannot be imported scans large inputs with `re`: same findings."""
    text = "\n".join(CORPUS)
    assert len(text) > engine_module.RE2_FROM
    expected = scan_text(text)
    monkeypatch.setattr(engine_module, "_RE2", [None])
    fresh = Engine(PATTERNS)
    monkeypatch.setattr(secrets, "_ENGINE", [fresh])
    assert not fresh.uses_re2(Hay(text))
    assert scan_text(text) == expected


def test_a_token_rule_s_keyword_stands_in_a_run_of_token_characters() -> None:
    """`runs` rules are looked for only in the runs of token characters a small text holds:
    each rule's credential holds its keyword inside such a run."""
    run = re.compile(f"[{RUN_CHARS}]{{{RUN_MIN},}}")
    for rule in RULES:
        if rule.scope != IN_RUNS or not rule.keywords:  # (none: run on every text)
            continue
        make, _ = EXAMPLES[rule.id]
        text = make()
        runs = " ".join(run.findall(text))
        assert any((k in runs) if k != k.lower() else (k in runs.lower()) for k in rule.keywords), (
            rule.id
        )


def test_a_small_text_never_loads_re2(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start-up path (issue 28): a small document is scanned without importing RE2."""
    fresh = Engine(PATTERNS)
    monkeypatch.setattr(secrets, "_ENGINE", [fresh])

    def refuse() -> None:
        raise AssertionError("RE2 imported for a small input")

    monkeypatch.setattr(engine_module, "_re2_module", refuse)
    text = "deploy with ghp_" + rnd(36, string.ascii_letters + string.digits)
    assert scan_text(text) != []
    assert find_secrets({"statements": [{"text": t} for t in CORPUS[:40]]}) is not None


def test_small_documents_load_re2_once_they_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A service lints small documents one after another: once `re` has read as many characters
    as one large input, RE2 is loaded and reads the rest (its keyword set costs milliseconds
    once; `re`'s keyword tests cost that again every few documents). The findings are the same
    either way."""
    fresh = Engine(PATTERNS)
    monkeypatch.setattr(secrets, "_ENGINE", [fresh])
    token = "deploy with ghp_" + rnd(36, string.ascii_letters + string.digits)
    small = {"statements": [{"text": t} for t in [*CORPUS[:30], token]]}
    size = len("\n".join(CORPUS[:30]))
    assert size < engine_module.RE2_FROM // 3
    expected = find_secrets(small)
    assert expected
    assert fresh._set is None  # one small document: `re` alone
    for _ in range(engine_module.RE2_FROM // size + 1):
        assert find_secrets(small) == expected
    assert fresh._set is not None  # as many characters as a large input: RE2 loaded
    assert fresh.uses_re2(Hay("a short text"))
    assert find_secrets(small) == expected


def test_a_text_that_is_one_run_is_found_as_re_finds_it() -> None:
    """A short text wholly of base64 characters is taken as one run without the regex: on
    texts of those characters and padding (a few equal signs, some inside), each as long as a
    run or about, the runs are exactly those `re` finds."""
    from app.secrets import detectors

    rng = random.Random(31)
    alphabet = string.ascii_letters + string.digits + "+/_-="
    whole = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(18, 40)))
        if rng.random() < 0.5:
            text = text.replace("=", "") + "=" * rng.randint(0, 3)
        expected = [m.span() for m in detectors._BASE64_RUN.finditer(text)]
        assert list(detectors._base64_runs(text)) == expected, text
        whole += expected == [(0, len(text))]
    assert whole > 5_000  # (many texts are one run: the shortcut is what is compared)


def test_a_long_text_s_base64_runs_are_those_re_finds() -> None:
    """The base64 detector finds a long text's runs of both cases by RE2 and a short one's by
    `re`: on texts of such runs and of runs of one case, padding, non-ASCII and runs a
    character short, RE2 finds exactly the runs `re` finds."""
    from app.secrets import detectors

    rng = random.Random(29)
    pieces = [
        "aZ0-=",
        "a0/ ",
        "Z0_ \n",
        "aaaaaaaaZ ",
        "ZZZZZZZZZa0 ",
        "aZ==",
        "aZ0+/_-=?é",
        "x" * 23,
    ]
    found = 0
    for _ in range(60):
        alphabet = rng.choice(pieces)
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(4096, 6000)))
        text += " " + rnd(23) + " " + rnd(24) + "== " + "ab" * 12
        expected = [m.span() for m in detectors._BASE64_RUN.finditer(text)]
        assert list(detectors._base64_runs(text)) == expected
        found += len(expected)
    assert found > 100  # (the texts hold such runs: the comparison is not of two empty lists)


SPLIT = [i for i, p in enumerate(PATTERNS) if engine_module._split_lead(p.regex, p.keywords)]
# the patterns searched otherwise than whole: split, or led by literals in any case (`_folded`)
LED = sorted(set(SPLIT) | {i for i, p in enumerate(PATTERNS) if engine_module._folded(p.regex)})


def test_a_lead_with_no_first_character_in_common_is_split() -> None:
    """An alternation of literals sharing no first character (RE2 then reads every byte) is
    searched as parts, one per group of literals sharing a prefix; one RE2 skips through
    already, or that is no alternation of literals, is searched whole."""
    split = engine_module._split_lead
    parts = split("(?:test_|live_)[A-Za-z0-9]{30,}", ["test_", "live_"])
    assert parts == [
        ("(?:test_)[A-Za-z0-9]{30,}", frozenset({"test_"})),
        ("(?:live_)[A-Za-z0-9]{30,}", frozenset({"live_"})),
    ]
    three = split(r"(?i:sk\-a|sk\-b|rk\-a|xy\-)[0-9]{8}", ["sk-a", "sk-b", "rk-a", "xy-"])
    assert three is not None and [sorted(words) for _, words in three] == [
        ["sk-a", "sk-b"],
        ["rk-a"],
        ["xy-"],
    ]
    assert split("(?:ghp_|gho_)[a-z]{36}", ["ghp_", "gho_"]) is None  # (one lead: "gh")
    assert split("(?:ab|cd)x|y", ["ab", "cd"]) is None  # (the alternation outside binds)
    assert split("(?:ab1|cd1)?x", ["ab1", "cd1"]) is None
    assert split(r"(?:\d1|cd1)x", ["cd1"]) is None
    assert split("(?:ab1|cd1)x", ["zz"]) is None  # (a literal holding no keyword)
    assert split("(?i:ab|cd)x", ["ab", "cd"]) is None  # (two letters: each "ab" a pass)
    assert split("(?:a1|a|b1)x", ["a1", "a", "b1"]) is None  # ("a" starts where "a1" does)
    # (a literal's escapes read as the characters they stand for, an escaped backslash too)
    assert engine_module._literal_lead(r"(?:a\\b1|c\-d1)x") == (
        "(?:",
        [r"a\\b1", r"c\-d1"],
        ["a\\b1", "c-d1"],
        "x",
    )
    assert len(SPLIT) >= 10  # (the rules' keyword alternations: stripe's, mollie's, …)


def _compared(index: int) -> int:
    """How many matches pattern ``index`` has on texts holding its literals in turn, in any
    case, run into each other and followed by what its rules read (runs of every class,
    separators, quotes), once its parts (those whose keywords the text holds), or its folded
    form, are shown to find the very matches of the pattern searched whole, and of `re`."""
    pattern = PATTERNS[index]
    engine = Engine(PATTERNS)
    rng = random.Random(index)
    regex = pattern.regex
    lead = engine_module._literal_lead(regex)
    assert lead is not None
    literals = lead[2]
    runs = [rnd(40, string.ascii_letters + string.digits), rnd(70, "0123456789abcdef"), "0" * 120]
    runs += [rnd(32, "0123456789ABCDEF"), rnd(260, string.ascii_letters + string.digits + "+/")]
    runs += [rnd(24, string.ascii_uppercase + string.digits), "_API_KEY", "_key", "Secret"]
    glue = [" = ", ": '", '="', "\n", " ", "-", "", ".", "\t", " is ", " for "]
    matched = 0
    for size in (0, 1, 3, 40):
        chosen = literals[: 1 + size % len(literals)] if size < 40 else literals
        pieces = []
        for _ in range(max(size, 1) * 8):
            literal = rng.choice(chosen)
            if regex.startswith("(?i:") and rng.random() < 0.5:
                literal = rng.choice([literal.upper(), literal.title(), literal.swapcase()])
            pieces.append(literal)
            for _ in range(rng.randint(1, 3)):
                pieces.append(rng.choice(glue) + rng.choice(runs))
            pieces.append(rng.choice(["", " ", "-", "\n", " | "]))
        hay = Hay("".join(pieces))
        engine.present(hay, True)
        search = engine.searcher(index, hay, True)
        whole = engine_module._re2_compile(regex)
        python = re.compile(regex, re.ASCII)
        pos, parts, by_whole, by_re = 0, [], [], []
        while (m := search(pos)) is not None:
            parts.append(m)
            pos = m[1] if m[1] > m[0] else m[1] + 1
        pos = 0
        unanchored = engine_module._UNANCHORED[0]
        while (span := whole.Match(unanchored, hay.raw, pos, len(hay))[0])[0] >= 0:
            by_whole.append(span)
            pos = span[1] if span[1] > span[0] else span[1] + 1
        pos = 0
        while (found := python.search(hay.ascii, pos)) is not None:
            by_re.append(found.span())
            pos = found.end() if found.end() > found.start() else found.end() + 1
        assert parts == by_whole == by_re, regex
        matched += len(parts)
        # the parts searched: those whose keywords the text holds, no more
        held = {w.lower() for w in pattern.keywords if w.lower() in hay.ascii.lower()}
        split = engine_module._split_lead(regex, pattern.keywords)
        needed = [words for _, words in split if words & held] if split else [()]
        assert len(engine._re2_matchers(index, hay)) == max(len(needed), 1)
    return matched


def test_a_lead_in_any_case_is_folded_where_the_rest_matches_its_lower_case() -> None:
    """The folded form: the literals in lower case as written, the rest in any case, which
    matches the text in lower case wherever the rest matched the text; not for a rest holding
    a negated class of letters ([^A-Z] in any case leaves out a-z: "Q" matched, "q" would not)."""
    folded = engine_module._folded
    assert folded("(?i:Ab|cD)[A-Z0-9]{8}") == "(?:ab|cd)(?i:[A-Z0-9]{8})"
    assert folded('(?i:key)[^"\r\n]{8}') == '(?:key)(?i:[^"\r\n]{8})'
    assert folded("(?:ab|cd)[A-Z]{8}") is None  # (as written: nothing to fold)
    assert folded("(?i:ab)[^a-z]{8}") is None
    assert folded("(?i:ab)(?:x|[^A-Fa-f]{2})") is None
    assert folded("(?i:ab)[^!-~]x") is None  # (a range: letters of one case left out)
    assert folded("(?i:ab)[^\\[-z]x") is None
    # (why: the pattern matches "ABQRST", a naive folded form not "abqrst")
    assert engine_module._re2_module() is not None
    unanchored = engine_module._UNANCHORED[0]
    whole = engine_module._re2_compile("(?i:ab)[^a-z]{4}")
    naive = engine_module._re2_compile("(?:ab)(?i:[^a-z]{4})")
    assert whole.Match(unanchored, b"ABQRST", 0, 6)[0] == (0, 6)
    assert naive.Match(unanchored, b"abqrst", 0, 6)[0][0] == -1


@pytest.mark.parametrize("index", LED)
def test_a_pattern_searched_in_parts_or_folded_finds_what_it_finds_whole(index: int) -> None:
    _compared(index)


def test_the_patterns_searched_in_parts_or_folded_are_compared_on_their_matches() -> None:
    """(The comparison above is of matches, not of empty lists, for most of them.)"""
    matched = [index for index in LED if _compared(index)]
    assert len(matched) >= 0.6 * len(LED), [PATTERNS[i].regex[:40] for i in LED if i not in matched]


@pytest.mark.parametrize(("spacing", "switched"), [(100, True), (10_000, False)])
def test_a_pattern_searched_in_parts_is_searched_whole_where_its_matches_come_thick(
    spacing: int, switched: bool
) -> None:
    """Parts and folded forms cost more for each match, less for each character: past 16
    matches coming more than one in 4 KB, the pattern whole takes over (the same matches)."""
    calls = {"led": 0, "whole": 0}

    def searching(name: str) -> Callable[[int], tuple[int, int] | None]:
        def search(pos: int) -> tuple[int, int] | None:
            calls[name] += 1
            start = (pos // spacing + 1) * spacing
            return (start, start + 10)

        return search

    search = engine_module._thinned(searching("led"), searching("whole"))
    pos, found = 0, []
    for _ in range(60):
        span = search(pos)
        assert span is not None
        found.append(span)
        pos = span[1]
    assert found == [((k + 1) * spacing, (k + 1) * spacing + 10) for k in range(60)]
    if switched:
        assert calls == {
            "led": engine_module._THICK_AFTER - 1,
            "whole": 61 - engine_module._THICK_AFTER,
        }
    else:
        assert calls == {"led": 60, "whole": 0}


def test_matches_turning_thick_further_on_hand_over_to_the_pattern_whole() -> None:
    """Thin matches, then thick ones: looked at again each 16, the whole takes over there."""
    calls = {"led": 0, "whole": 0}

    def searching(name: str) -> Callable[[int], tuple[int, int] | None]:
        def search(pos: int) -> tuple[int, int] | None:
            calls[name] += 1
            spacing = 10_000 if pos < 300_000 else 100
            start = pos + spacing
            return (start, start + 10)

        return search

    search = engine_module._thinned(searching("led"), searching("whole"))
    pos = 0
    for _ in range(200):
        span = search(pos)
        assert span is not None
        pos = span[1]
    assert 30 <= calls["led"] <= 64 and calls["whole"] == 200 - calls["led"]


def test_a_keyword_set_that_runs_out_of_memory_lets_every_keyword_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No match at all is the answer of an RE2 set whose automaton ran out of memory (the
    regex it adds, the text's start, matches in every text): then every pattern is searched,
    not none."""
    engine = Engine(PATTERNS)
    text = "nothing here but words " * 2000
    assert engine.present(Hay(text), True) == sorted(engine._ungated)

    class OutOfMemory:
        def Match(self, text: bytes) -> None:
            return None

    monkeypatch.setattr(engine, "_set", OutOfMemory())
    hay = Hay(text)
    assert len(engine.present(hay, True)) > len(PATTERNS) // 2
    assert hay.found == set(range(len(engine._entries)))
