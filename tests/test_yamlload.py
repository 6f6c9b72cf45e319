"""Tests for nidavellir.compiler.yamlload."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from nidavellir.compiler import yamlload
from nidavellir.compiler.diagnostics import Diagnostic, Location, RulesError, clear_sources
from nidavellir.compiler.yamlload import MAX_DEPTH, MAX_NODES, Loaded, load_yaml


@pytest.fixture(autouse=True)
def _fresh_sources():
    clear_sources()
    yield
    clear_sources()


@pytest.fixture(params=["libyaml", "python"])
def backend(request, monkeypatch):
    """Run a test with libyaml's parser and with PyYAML's pure-Python one."""
    if request.param == "python":
        monkeypatch.setattr(yamlload, "_ParserClass", yaml.SafeLoader)
        monkeypatch.setattr(yamlload, "_BYTE_OFFSETS", False)
    elif not hasattr(yaml, "CSafeLoader"):  # pragma: no cover
        pytest.skip("PyYAML built without libyaml")
    return request.param


def errors(text: str, path: str = "t.yaml") -> list[Diagnostic]:
    with pytest.raises(RulesError) as info:
        load_yaml(path, text)
    return info.value.diagnostics


def where(diags: list[Diagnostic]) -> list[tuple[int, int]]:
    return [(d.loc.line, d.loc.col) for d in diags if d.loc]


def formatted(text: str) -> str:
    with pytest.raises(RulesError) as info:
        load_yaml("t.yaml", text)
    return str(info.value)


# -- data -----------------------------------------------------------------------


def test_plain_data(backend):
    text = """\
id: thrud
name: "Thrud"
rank: 3
bravery: [1, 2, 3]
hero: yes
retired: off
note: ~
empty:
ratio: 1.5
hex: 0x1F
octal: 017
big: 1_000
quoted_number: "12"
date: 2001-12-14
nested:
  - {a: 1, b: [x, y]}
  - - deep
"""
    loaded = load_yaml("cards.yaml", text)
    assert isinstance(loaded, Loaded)
    assert loaded.path == "cards.yaml"
    assert loaded.data == {
        "id": "thrud",
        "name": "Thrud",
        "rank": 3,
        "bravery": [1, 2, 3],
        "hero": True,
        "retired": False,
        "note": None,
        "empty": None,
        "ratio": 1.5,
        "hex": 31,
        "octal": 15,
        "big": 1000,
        "quoted_number": "12",
        "date": "2001-12-14",  # timestamps stay strings
        "nested": [{"a": 1, "b": ["x", "y"]}, ["deep"]],
    }
    assert type(loaded.data["rank"]) is int and type(loaded.data["hero"]) is bool


def test_same_values_as_safe_load(backend):
    text = """\
a: [1, -2, +3, 0, 0b101, 0o7, 1:30, 190:20:30.15, 1.0e+3, 6.8523015e+5, 0x_1F, 1_000]
b: [true, False, on, NO, null, Null, ~, '', "x\\ty", 'it''s']
c: &anchor {k: v, list: [1, 2]}
d: *anchor
e: !!str 42
f: !!int "42"
g: |
  literal
   text
h: >
  folded
  text
i: plain
  multi line
"""
    data = load_yaml("t.yaml", text).data
    assert data == yaml.safe_load(text)
    assert data["a"][-2:] == [31, 1000]


def test_infinite_and_not_a_number_are_refused(backend):
    """Issue 17 §7: every number goes through one bounded parser; `.inf` and `.nan` are no number
    the rules can use, so they are refused where they are written."""
    diags = errors("a: [1, .inf, -.INF, .nan, 1.0e+400]\n")
    assert [(d.loc.col, d.message) for d in diags] == [
        (8, "`.inf` is not a finite number"), (14, "`-.INF` is not a finite number"),
        (21, "`.nan` is not a number"), (27, "`1.0e+400` is too large a number (at most 15 digits)")]


def test_aliases_are_copied_not_shared(backend):
    data = load_yaml("t.yaml", "a: &x {k: [1]}\nb: *x\n").data
    assert data["a"] == data["b"] and data["a"] is not data["b"]
    data["b"]["k"].append(2)
    assert data["a"] == {"k": [1]}


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n", "--- ~\n"])
def test_empty_document_is_none(backend, text):
    loaded = load_yaml("t.yaml", text)
    assert loaded.data is None
    if not text.startswith("---"):  # no node at all: the document is at 1:1
        assert loaded.locate(()) == Location("t.yaml", 1, 1)


def test_reads_file_as_utf8(tmp_path: Path, backend):
    f = tmp_path / "heroes.yaml"
    f.write_text("name: Ylud\nflavour: « naïve »\n", encoding="utf-8")
    loaded = load_yaml(f)
    assert loaded.path == str(f)
    assert loaded.data == {"name": "Ylud", "flavour": "« naïve »"}


def test_byte_order_mark_is_ignored(backend):
    loaded = load_yaml("t.yaml", "\ufeffa: 1\nb: x\n")
    assert loaded.data == {"a": 1, "b": "x"}
    assert loaded.locate(("b",)) == Location("t.yaml", 2, 4)


# -- locations --------------------------------------------------------------------

CARDS = """\
# a comment
cards:
  - id: blacksmith_1
    suit: "blacksmith"
    bravery: [0, 3]
    text: 'it''s'
  - {id: hunter_1, suit: hunter}
meta:
  version: 2
"""


def test_locate_values(backend):
    loaded = load_yaml("cards.yaml", CARDS)
    at = lambda line, col: Location("cards.yaml", line, col)  # noqa: E731
    assert loaded.locate(()) == at(2, 1)
    assert loaded.locate(("cards",)) == at(3, 3)
    assert loaded.locate(("cards", 0)) == at(3, 5)
    assert loaded.locate(("cards", 0, "id")) == at(3, 9)
    assert loaded.locate(("cards", 0, "suit")) == at(4, 11)  # the opening quote
    assert loaded.locate(("cards", 0, "bravery")) == at(5, 14)
    assert loaded.locate(("cards", 0, "bravery", 1)) == at(5, 18)
    assert loaded.locate(("cards", 1)) == at(7, 5)
    assert loaded.locate(("cards", 1, "suit")) == at(7, 26)
    assert loaded.locate(("meta", "version")) == at(9, 12)
    assert loaded.locate(["meta", "version"]) == at(9, 12)  # any sequence works


def test_locate_keys(backend):
    loaded = load_yaml("cards.yaml", CARDS)
    at = lambda line, col: Location("cards.yaml", line, col)  # noqa: E731
    assert loaded.locate_key(("cards",)) == at(2, 1)
    assert loaded.locate_key(("cards", 0, "suit")) == at(4, 5)
    assert loaded.locate_key(("cards", 1, "suit")) == at(7, 20)
    assert loaded.locate_key(("meta", "version")) == at(9, 3)
    # not a key: a list index, the document, or a missing key -> same as locate
    assert loaded.locate_key(("cards", 1)) == loaded.locate(("cards", 1))
    assert loaded.locate_key(()) == loaded.locate(())
    assert loaded.locate_key(("meta", "nope")) == loaded.locate(("meta",))


def test_unknown_paths_fall_back_to_the_nearest_ancestor(backend):
    loaded = load_yaml("cards.yaml", CARDS)
    assert loaded.locate(("cards", 0, "missing")) == loaded.locate(("cards", 0))
    assert loaded.locate(("cards", 9, "id")) == loaded.locate(("cards",))
    assert loaded.locate(("cards", "0")) == loaded.locate(("cards",))
    assert loaded.locate(("cards", True)) == loaded.locate(("cards",))
    assert loaded.locate(("cards", -1)) == loaded.locate(("cards",))
    assert loaded.locate(("cards", 0, "id", "deeper")) == loaded.locate(("cards", 0, "id"))
    assert loaded.locate(("nope",)) == loaded.locate(())


def test_locate_through_aliases(backend):
    loaded = load_yaml("t.yaml", "base: &b\n  cost: 3\nother: *b\n")
    assert loaded.locate(("other",)) == Location("t.yaml", 3, 8)  # the alias itself
    assert loaded.locate(("other", "cost")) == Location("t.yaml", 2, 9)  # inside the anchor


def _char_at(text: str, loc: Location) -> str:
    lines = text.splitlines()
    return lines[loc.line - 1][loc.col - 1 :][:1]


@pytest.mark.parametrize(
    ("text", "path", "offset", "expected"),
    [
        # plain single line: exact
        ("effect: gain 3 coins\n", ("effect",), 5, (1, 14)),
        ("effect: gain 3 coins\n", ("effect",), 0, (1, 9)),
        # double quoted: the opening quote is skipped, escapes are accounted for
        ('effect: "gain 3 coins"\n', ("effect",), 5, (1, 15)),
        ('e: "a\\"b c"\n', ("e",), 3, (1, 9)),
        ('e: "\\u00e9t\\u00e9 x"\n', ("e",), 4, (1, 19)),
        # single quoted, with a doubled quote
        ("e: 'it''s here'\n", ("e",), 5, (1, 11)),
        # properties before the value
        ("e: &a !!str  tagged value\n", ("e",), 7, (1, 21)),
        ('e: !!str "quoted"\n', ("e",), 2, (1, 13)),
        # flow collections
        ("e: [one, 'two x', {k: three y}]\n", ("e", 1), 4, (1, 15)),
        ("e: [one, 'two x', {k: three y}]\n", ("e", 2, "k"), 6, (1, 29)),
        # literal block scalars: right line and column
        ("e: |\n  gain 3\n  lose 1\n", ("e",), 0, (2, 3)),
        ("e: |\n  gain 3\n  lose 1\n", ("e",), 12, (3, 8)),
        ("e: |-\n  gain 3\n\n  lose 1\n", ("e",), 9, (4, 4)),
        ("e: |\n  when:\n    gain 3\n", ("e",), 10, (3, 7)),
        ("a:\n  - k: |\n      deep\n      text\n", ("a", 0, "k"), 6, (4, 8)),
        ("- |2\n    two extra\n  base\n", (0,), 14, (3, 5)),
        ("e: |\r\n  crlf\r\n  lines\r\n", ("e",), 6, (3, 4)),
        # folded block and multi-line flow scalars are mapped through the folding too
        ("e: >\n  one\n  two\n", ("e",), 5, (3, 4)),
        ("e: plain\n  continued\n", ("e",), 7, (2, 4)),
        ('e: "quoted\n  continued"\n', ("e",), 8, (2, 4)),
    ],
)
def test_locate_in_string(backend, text, path, offset, expected):
    loaded = load_yaml("t.yaml", text)
    loc = loaded.locate_in_string(path, offset)
    assert (loc.line, loc.col) == expected
    value = loaded.data
    for part in path:
        value = value[part]
    if value[offset] not in "\\\n":
        assert _char_at(text, loc) == value[offset] or value[offset] in "é\""


def test_locate_in_string_every_character(backend):
    """Every character of every string maps back to itself in the source."""
    text = (
        "a: plain text here\n"
        "b: \"double \\\"quoted\\\" text\"\n"
        "c: 'single ''quoted'' text'\n"
        "d: |\n  literal line\n    more indented\n\n  after a blank\n"
        "e: >-\n  folded line\n  next line\n\n  new paragraph\n"
        "f: plain\n  on two lines\n"
        "g: [in flow, 'and quoted']\n"
    )
    loaded = load_yaml("t.yaml", text)
    checked = 0
    for key, value in loaded.data.items():
        values = value if isinstance(value, list) else [value]
        for i, item in enumerate(values):
            path = (key, i) if isinstance(value, list) else (key,)
            for offset, ch in enumerate(item):
                loc = loaded.locate_in_string(path, offset)
                found = _char_at(text, loc)
                if ch == " " and found in ("", "\\"):
                    continue  # a folded line break
                if ch == "\n":
                    continue
                assert found == ch or (ch in "\"'" and found in "\\'"), (key, offset, loc)
                checked += 1
    assert checked > 150


def test_locate_in_string_edges(backend):
    loaded = load_yaml("t.yaml", 'e: "abc"\nn: 3\nm: {k: v}\n')
    assert loaded.locate_in_string(("e",), 3) == Location("t.yaml", 1, 8)  # end of the value
    assert loaded.locate_in_string(("e",), -5) == Location("t.yaml", 1, 5)
    assert loaded.locate_in_string(("m",), 2) == loaded.locate(("m",))  # not a scalar
    assert loaded.locate_in_string(("zz",), 2) == loaded.locate(())  # unknown path
    assert loaded.locate_in_string(("n",), 0) == Location("t.yaml", 2, 4)


# -- errors ---------------------------------------------------------------------------


def test_duplicate_keys_all_reported(backend):
    text = "id: a\nsuit: miner\nid: b\nnested:\n  x: 1\n  y: 2\n  x: 3\nsuit: hunter\n"
    diags = errors(text)
    assert [d.message for d in diags] == [
        "duplicate key `id` (first defined at line 1)",
        "duplicate key `x` (first defined at line 5)",
        "duplicate key `suit` (first defined at line 2)",
    ]
    assert where(diags) == [(3, 1), (7, 3), (8, 1)]


def test_duplicate_key_full_format(backend):
    assert formatted("cards:\n  - id: a\n    id: b\n") == (
        "t.yaml:3:5: error: duplicate key `id` (first defined at line 2)\n"
        "        id: b\n"
        "        ^"
    )


def test_duplicate_keys_in_flow_mappings(backend):
    diags = errors("a: {x: 1, y: 2, x: 3}\n")
    assert where(diags) == [(1, 17)]


@pytest.mark.parametrize(
    ("text", "col", "hint"),
    [
        ("null: foo\n", 1, 'quote the key if it is meant as text: `"null"`'),
        ("a: 1\non: foo\n", 1, 'quote the key if it is meant as text: `"on"`'),
        ("a: 1\n~: foo\n", 1, 'quote the key if it is meant as text: `"~"`'),
        ("a: {3.5: x}\n", 5, 'quote the key if it is meant as text: `"3.5"`'),
        ("? [a, b]\n: 1\n", 3, None),
    ],
)
def test_non_string_keys(backend, text, col, hint):
    (diag,) = errors(text)
    assert diag.message == "mapping keys must be strings"
    assert diag.loc is not None and diag.loc.col == col
    assert diag.hint == hint


def test_integer_keys_become_text(backend, tmp_path):
    """Tables keyed by player count (`{2: 3}`) load with text keys, as JSON Schema expects."""
    path = tmp_path / "t.yaml"
    path.write_text("cards_per_tavern: {2: 3, 5: 5}\n")
    assert load_yaml(path).data == {"cards_per_tavern": {"2": 3, "5": 5}}


def test_integer_looking_values_are_fine(backend):
    assert load_yaml("t.yaml", "'1': 1\n\"2\": [3]\n").data == {"1": 1, "2": [3]}


def test_merge_keys_are_refused(backend):
    (diag,) = errors("base: &b {a: 1}\nthing:\n  <<: *b\n  c: 2\n")
    assert diag.message == "YAML merge keys (`<<`) are not supported"
    assert where([diag]) == [(3, 3)]


def test_quoted_merge_key_is_an_ordinary_key(backend):
    assert load_yaml("t.yaml", "'<<': x\n").data == {"<<": "x"}


def test_all_errors_of_a_file_are_reported(backend):
    text = (
        "a: 1\n"
        "a: 2\n"  # duplicate
        "null: x\n"  # non-string key
        "b: !!python/object:os.system ls\n"  # unsafe tag
        "c:\n"
        "  <<: {}\n"  # merge key
        "d: *nowhere\n"  # unknown alias
        "e: !!int twelve\n"  # bad explicit int
    )
    diags = errors(text)
    assert where(diags) == [(2, 1), (3, 1), (4, 4), (6, 3), (7, 4), (8, 4)]


def test_bad_indentation(backend):
    (diag,) = errors("card:\n  id: a\n suit: miner\n")
    assert where([diag]) == [(3, 2)]
    assert "line 1" in diag.message
    assert diag.hint == "check the indentation of this line"
    assert formatted("card:\n  id: a\n suit: miner\n").splitlines()[1:3] == [
        "     suit: miner",
        "     ^",
    ]


def test_unclosed_quote_points_at_the_opening_quote(backend):
    (diag,) = errors('a: 1\nb: "hello\nc: 3\n')
    assert where([diag]) == [(2, 4)]
    assert diag.message == 'unclosed quoted string: no closing " before the end of the file'


def test_tab_indentation(backend):
    (diag,) = errors("a:\n\tb: 1\n")
    assert where([diag]) == [(2, 1)]
    assert "tab" in diag.message and diag.hint == "replace the tab with spaces"


def test_unclosed_flow_sequence(backend):
    (diag,) = errors("a: [1, 2\nb: 3\n")
    assert where([diag]) == [(2, 2)]
    assert diag.hint == "check that every `[` is closed by a `]`"


def test_colon_in_plain_value(backend):
    (diag,) = errors("text: gain: 3\n")
    assert where([diag]) == [(1, 11)]
    assert "quote" in (diag.hint or "")


def test_syntax_error_keeps_earlier_errors(backend):
    diags = errors("a: 1\na: 2\nb: [\n")
    assert [d.message.split(" (")[0] for d in diags][0] == "duplicate key `a`"
    assert len(diags) == 2


def test_multiple_documents(backend):
    (diag,) = errors("a: 1\n---\nb: 2\n")
    assert where([diag]) == [(2, 1)]
    assert "single YAML document" in diag.message
    (diag,) = errors("--- \na: 1\n--- \nb: 2\n")
    assert where([diag]) == [(3, 1)]


def test_control_characters(backend):
    (diag,) = errors("a: 1\nb: x\x07y\n")
    assert where([diag]) == [(2, 5)]
    assert "U+0007" in diag.message


def test_control_character_after_non_ascii_text(backend):
    (diag,) = errors("név: é\nb: \"ü\x07\"\n")
    assert where([diag]) == [(2, 6)]


def test_unsafe_tags_are_errors_and_never_executed(tmp_path: Path, backend):
    marker = tmp_path / "pwned"
    text = (
        f"a: !!python/object/apply:os.system ['touch {marker}']\n"
        "b: !!python/object:builtins.dict {x: 1}\n"
        "c: !!python/name:os.system\n"
        "d: !custom 3\n"
        "e: !!set {x}\n"
        "f: !!binary aGVsbG8=\n"  # harmless: kept as a string
    )
    diags = errors(text)
    assert not marker.exists()
    assert where(diags) == [(1, 4), (2, 4), (3, 4), (4, 4), (5, 4)]
    assert diags[0].message == "unsupported YAML tag `!!python/object/apply:os.system`"
    assert diags[3].message == "unsupported YAML tag `!custom`"


def test_bad_explicit_scalars(backend):
    diags = errors("a: !!int abc\nb: !!float x\nc: !!bool maybe\n")
    assert [d.message for d in diags] == [
        "`abc` is not a valid integer",
        "`x` is not a valid number",
        "`maybe` is not a valid boolean",
    ]


def test_huge_integers_are_refused(backend):
    """Issue 17 §7: a number beyond the bound (its text, then its value) is refused at the number,
    before anything converts it (Python's 4300-digit limit is never reached)."""
    diags = errors("a: " + "9" * 5000 + "\nb: " + "9" * 16 + "\nc: 999999999999999\nd: -0x" + "f" * 14 + "\n")
    assert [(d.loc.line, d.loc.col, d.message) for d in diags] == [
        (1, 4, "`" + "9" * 40 + "...` is too long a number (5000 characters; at most 40)"),
        (2, 4, "`" + "9" * 16 + "` is too large a number (at most 15 digits)"),
        (4, 4, "`-0x" + "f" * 14 + "` is too large a number (at most 15 digits)")]


@pytest.mark.parametrize("key", ["9" * 5000, '"' + "9" * 5000 + '"', "'" + "9" * 16 + "'", "9" * 16])
def test_huge_number_keys_are_refused_at_the_key(backend, key):
    """Issue 17 §7: a numeric mapping key, plain or written as text (`{"123…": 2}`: a per-player
    table's key), goes through the same bounded parser, and is refused at the key."""
    diags = errors("t:\n  x: 1\n  ? " + key + "\n  : 2\n")
    assert where(diags) == [(3, 5)] and "too" in diags[0].message and "number" in diags[0].message
    assert load_yaml("t.yaml", "t: {'007': 1, 15: 2, '999999999999999': 3}\n").data == \
        {"t": {"007": 1, "15": 2, "999999999999999": 3}}


def test_anchor_and_alias_errors(backend):
    diags = errors("a: &x 1\nb: &x 2\nc: *y\nd: &r [*r]\n")
    assert [d.message for d in diags] == [
        "duplicate anchor `&x`",
        "unknown alias `*y`",
        "alias `*r` is used inside its own anchor (recursive data)",
    ]
    assert where(diags) == [(2, 4), (3, 4), (4, 8)]
    assert errors("first: &thing 1\nb: *thng\n")[0].hint == "did you mean `*thing`?"


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_is_refused(backend):
    (diag,) = errors(BILLION_LAUGHS)
    assert diag.message.startswith("too many nodes (alias expansion?)")
    assert diag.loc is not None and diag.loc.line == 6  # where the expansion crosses the limit


def test_many_nodes_without_aliases():
    text = "[" + "1," * MAX_NODES + "1]\n"
    (diag,) = errors(text)
    assert diag.message.startswith("too many nodes")


def test_node_limit_allows_normal_files(backend):
    text = "".join(f"k{i}: [{i}, {i + 1}]\n" for i in range(5000))
    assert len(load_yaml("t.yaml", text).data) == 5000


def test_deep_nesting(backend):
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    load_yaml("t.yaml", ok)
    (diag,) = errors("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert diag.message == "document too deeply nested (more than 64 levels)"
    assert where([diag]) == [(1, MAX_DEPTH + 1)]
    block = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5)) + "  " * 70 + "x\n"
    (diag,) = errors(block)
    assert where([diag]) == [(MAX_DEPTH + 1, 2 * MAX_DEPTH + 1)]


def test_very_deep_nesting_is_refused(backend):
    """Whatever libyaml's own depth limit, the designer sees the project's message."""
    for text in ("[" * 200_000, "{a: " * 100_000, "- " * 100_000 + "x\n"):
        (diag,) = errors(text)
        assert diag.message.startswith("document too deeply nested")


def test_alias_expansion_counts_towards_depth(backend):
    inner = "[" * 40 + "]" * 40
    (diag,) = errors(f"a: &a {inner}\nb: {'[' * 30}*a{']' * 30}\n")
    assert diag.message.startswith("document too deeply nested")
    assert where([diag]) == [(2, 34)]


# -- files ------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path):
    path = tmp_path / "missing.yaml"
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    (diag,) = info.value.diagnostics
    assert diag.loc is None and diag.file == str(path)  # not read: no line, no column
    assert diag.message == f"cannot read {path}: no such file or folder"
    assert str(info.value) == f"error: cannot read {path}: no such file or folder"


def test_directory_instead_of_file(tmp_path: Path):
    with pytest.raises(RulesError) as info:
        load_yaml(tmp_path)
    assert info.value.diagnostics[0].loc is None
    assert info.value.diagnostics[0].message == f"cannot read {tmp_path}: expected a file, found a folder"


def test_unreadable_file(tmp_path: Path, monkeypatch):
    path = tmp_path / "locked.yaml"
    path.write_text("a: 1\n")
    real_open = os.open

    def refuse(name, *args, **kw):
        if os.fspath(name) == str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(name, *args, **kw)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    (diag,) = info.value.diagnostics
    assert diag.loc is None
    assert diag.message == f"cannot read {path}: permission denied"


def test_not_utf8(tmp_path: Path):
    """Issue 17 §7: "A byte that is not UTF-8 inside a rules file is reported at `1:1` although the
    message knows its line and column: report it there": each bad byte (a run of them once) at its
    line and column (characters before it on its line, as every column counts), the source line
    shown with the byte escaped and the caret under it."""
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"a: 1\nname: Dvalinn\nflavour: caf\xc3\xa9 \xe9t\xe9\n")  # (valid é, then two latin-1 ones)
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    diags = info.value.diagnostics
    assert [(d.loc.line, d.loc.col, d.message) for d in diags if d.loc] == [
        (3, 15, "byte 0xe9 is not valid UTF-8: the file must be UTF-8 text"),
        (3, 17, "byte 0xe9 is not valid UTF-8: the file must be UTF-8 text")]
    assert str(info.value).splitlines()[:4] == [
        f"{path}:3:15: error: byte 0xe9 is not valid UTF-8: the file must be UTF-8 text",
        "    flavour: café \\xe9t\\xe9",
        "                  ^",
        "  hint: save the file with UTF-8 encoding"]
    assert str(info.value).splitlines()[6] == "    " + " " * len("flavour: café \\xe9t") + "^"  # under the escape


def test_errors_in_a_file_show_its_lines(tmp_path: Path):
    path = tmp_path / "cards.yaml"
    path.write_text("id: a\nid: b\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    assert str(info.value) == (
        f"{path}:2:1: error: duplicate key `id` (first defined at line 1)\n    id: b\n    ^"
    )


def test_in_memory_text_shows_its_lines():
    text = "a: 1\nb: !!python/object:x y\n"
    assert formatted(text) == (
        "t.yaml:2:4: error: unsupported YAML tag `!!python/object:x`\n"
        "    b: !!python/object:x y\n"
        "       ^\n"
        "  hint: rules files use plain values only; remove the tag"
    )


def test_crlf_files(backend):
    text = "a: 1\r\nb: 2\r\nb: 3\r\n"
    (diag,) = errors(text)
    assert where([diag]) == [(3, 1)]
    loaded = load_yaml("t.yaml", "a: 1\r\nb: 'x y'\r\n")
    assert loaded.locate_in_string(("b",), 2) == Location("t.yaml", 2, 7)


# -- text that is not plain UTF-8 (issue 17 §7: "Also a BOM, NUL bytes, lone surrogates in \u
# escapes, CR line endings: decide and test") ------------------------------------------------------

ODD_TEXT = {  # case -> (file bytes, expected (line, col, message start) of each diagnostic)
    "bad byte after CR line ends": (b"a: 1\rb: 2\rc: x\xffy\r", [(3, 5, "byte 0xff is not valid UTF-8")]),
    "bad byte after NEL line ends": (b"a: 1\xc2\x85b: x\xfe\n", [(2, 5, "byte 0xfe is not valid UTF-8")]),
    "bad bytes on two lines": (b"a: \xff\nb: ok\nc: ab\xe9\xe9\n",
                               [(1, 4, "byte 0xff"), (3, 6, "byte 0xe9 is not valid UTF-8")]),
    "a truncated character at the end": (b"a: caf\xc3", [(1, 7, "byte 0xc3 is not valid UTF-8")]),
    "bad byte after a BOM": (b"\xef\xbb\xbfa: \xff\n", [(1, 4, "byte 0xff")]),
    "NUL byte": (b"a: 1\nb: x\x00y\n", [(2, 5, "invalid character U+0000")]),
    "lone surrogate escape": (b'a: 1\nb: "x\\ud800y"\n', [(2, 6, "this escape is a lone surrogate")]),
    "lone surrogate escape in a key": (b'"\\uDFFF": 1\n', [(1, 2, "this escape is a lone surrogate")]),
    "lone long surrogate escape": (b'a: "\\U0000d801"\n', [(1, 5, "this escape is a lone surrogate")]),
}


@pytest.mark.parametrize("case", sorted(ODD_TEXT))
def test_odd_text_is_located_where_it_is(tmp_path: Path, backend, case):
    """Each problem at its own line and column (YAML's line breaks: LF, CRLF, CR, NEL; columns count
    characters after a BOM), the source line shown with the odd character escaped and the caret under
    it; never `1:1` for a problem that has a place."""
    raw, expected = ODD_TEXT[case]
    path = tmp_path / "odd.yaml"
    path.write_bytes(raw)
    with pytest.raises(RulesError) as info:
        load_yaml(path)
    diags = info.value.diagnostics
    assert [(d.loc.line, d.loc.col) for d in diags if d.loc] == [(line, col) for line, col, _ in expected]
    for d, (_, _, message) in zip(diags, expected):
        assert d.message.startswith(message), d.message
        shown = d.format().splitlines()
        assert shown[2].strip() == "^" and shown[1][shown[2].index("^")] == "\\", shown  # under the escape
    str(info.value).encode("utf-8")  # printable as it is


def test_a_bom_starts_a_file_and_is_a_character_elsewhere(backend):
    """Decided: a byte-order mark at the start is not part of the text (columns of line 1 do not count
    it); elsewhere it is the character U+FEFF, kept (and shown escaped in messages)."""
    loaded = load_yaml("t.yaml", "\ufeffa: 1\nb: 'x\ufeffy'\n")
    assert loaded.data == {"a": 1, "b": "x\ufeffy"} and loaded.locate(("a",)) == Location("t.yaml", 1, 4)


def test_a_lone_surrogate_in_an_editor_buffer_is_located(backend):
    """Text given directly (a language server's unsaved buffer) may hold a lone surrogate: located,
    not `text is not valid Unicode` at 1:1."""
    (diag,) = errors("a: 1\nb: x\ud800\n")
    assert where([diag]) == [(2, 5)] and diag.message == "U+D800 is a lone surrogate, not a character"


def test_cr_line_ends_count_lines_as_yaml_does(backend):
    """Decided: CR alone ends a line, as in YAML (and as every located message counts lines)."""
    (diag,) = errors("a: 1\rb: 2\rb: 3\r")
    assert where([diag]) == [(3, 1)] and diag.format().splitlines()[1] == "    b: 3"
