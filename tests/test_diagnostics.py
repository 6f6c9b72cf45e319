"""Tests for nidavellir.compiler.diagnostics."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from nidavellir.compiler.diagnostics import (
    Diagnostic,
    Diagnostics,
    Location,
    RulesError,
    clear_sources,
    register_source,
    source_line,
    suggest,
)


@pytest.fixture(autouse=True)
def _fresh_sources():
    clear_sources()
    yield
    clear_sources()


def test_location_str_is_path_line_col():
    assert str(Location("rules/base/cards.yaml", 12, 9)) == "rules/base/cards.yaml:12:9"


def test_format_with_registered_source_and_hint():
    register_source("mem.yaml", "cards:\n  - suit: explorr\n")
    diag = Diagnostic(Location("mem.yaml", 2, 11), "`explorr` is not a suit", "did you mean `explorer`?")
    assert diag.format() == (
        "mem.yaml:2:11: error: `explorr` is not a suit\n"
        "      - suit: explorr\n"
        "              ^\n"
        "  hint: did you mean `explorer`?"
    )
    assert str(diag) == diag.format()


def test_caret_sits_under_the_column():
    register_source("m.yaml", "abcdefgh\n")
    for col in range(1, 10):
        text = Diagnostic(Location("m.yaml", 1, col), "x").format()
        source, caret = text.splitlines()[1:3]
        assert caret.index("^") == source.index("abcdefgh") + col - 1


def test_format_reads_the_line_from_disk(tmp_path: Path):
    f = tmp_path / "cards.yaml"
    f.write_text("a: 1\nbb: 2\n", encoding="utf-8")
    diag = Diagnostic(Location(str(f), 2, 2), "bad")
    assert diag.format() == f"{f}:2:2: error: bad\n    bb: 2\n     ^"


def test_file_contents_are_cached(tmp_path: Path):
    f = tmp_path / "cards.yaml"
    f.write_text("first\n", encoding="utf-8")
    assert source_line(str(f), 1) == "first"
    f.write_text("changed\n", encoding="utf-8")
    assert source_line(str(f), 1) == "first"
    register_source(str(f), "registered\n")  # registering replaces the cache
    assert source_line(str(f), 1) == "registered"


def test_unreadable_line_prints_only_the_first_line_and_hint(tmp_path: Path):
    missing = Diagnostic(Location(str(tmp_path / "nope.yaml"), 3, 1), "gone", "check the path")
    assert missing.format() == f"{tmp_path / 'nope.yaml'}:3:1: error: gone\n  hint: check the path"
    register_source("short.yaml", "one line\n")
    assert Diagnostic(Location("short.yaml", 7, 1), "past the end").format() == (
        "short.yaml:7:1: error: past the end"
    )
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    assert Diagnostic(Location(str(binary), 1, 1), "bad").format() == f"{binary}:1:1: error: bad"


def test_format_without_location():
    assert Diagnostic(None, "something is wrong", "try again").format() == (
        "error: something is wrong\n  hint: try again"
    )


def test_caret_mirrors_tabs_so_it_lines_up():
    register_source("t.yaml", "\tkey:\tvalue\n")
    lines = Diagnostic(Location("t.yaml", 1, 7), "x").format().splitlines()
    assert lines[1] == "    \tkey:\tvalue"
    assert lines[2] == "    \t    \t^"


def test_caret_after_the_end_of_the_line():
    register_source("e.yaml", "ab\n")
    assert Diagnostic(Location("e.yaml", 1, 3), "x").format().splitlines()[2] == "      ^"


def test_crlf_and_unicode_line_breaks_are_counted_like_yaml():
    register_source("w.yaml", "a: 1\r\nb: 2\rc: 3\u2028d: 4\n")
    assert [source_line("w.yaml", n) for n in range(1, 5)] == ["a: 1", "b: 2", "c: 3", "d: 4"]


def test_rules_error_formats_all_diagnostics():
    register_source("r.yaml", "a: 1\nb: 2\n")
    diags = [
        Diagnostic(Location("r.yaml", 1, 4), "first"),
        Diagnostic(Location("r.yaml", 2, 1), "second", "a hint"),
    ]
    err = RulesError(diags)
    assert err.diagnostics == diags
    assert str(err) == (
        "r.yaml:1:4: error: first\n    a: 1\n       ^\n"
        "r.yaml:2:1: error: second\n    b: 2\n    ^\n  hint: a hint"
    )
    assert pickle.loads(pickle.dumps(err)).diagnostics == diags


def test_collector():
    diags = Diagnostics()
    assert not diags and len(diags) == 0
    diags.raise_if_any()  # nothing to raise
    first = diags.error(Location("a.yaml", 1, 1), "one")
    assert first == Diagnostic(Location("a.yaml", 1, 1), "one")
    other = Diagnostics()
    other.error(None, "two", "hint")
    diags.extend(other)
    diags.extend([Diagnostic(None, "three")])
    diags.add(Diagnostic(None, "four"))
    assert diags and len(diags) == 4
    assert [d.message for d in diags.items] == ["one", "two", "three", "four"]
    assert [d.message for d in diags] == ["one", "two", "three", "four"]
    assert diags.format_all() == (
        "a.yaml:1:1: error: one\nerror: two\n  hint: hint\nerror: three\nerror: four"
    )
    with pytest.raises(RulesError) as info:
        diags.raise_if_any()
    assert info.value.diagnostics == diags.items
    assert str(info.value) == diags.format_all()


def test_diagnostics_are_frozen():
    with pytest.raises(AttributeError):
        Location("a", 1, 1).line = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Diagnostic(None, "x").message = "y"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "candidates", "expected"),
    [
        ("explorr", ["blacksmith", "hunter", "explorer", "miner", "warrior"], "did you mean `explorer`?"),
        ("Explorer", ["explorer", "miner"], "did you mean `explorer`?"),
        ("warior", iter(["warrior", "miner"]), "did you mean `warrior`?"),
        ("dragon", ["blacksmith", "hunter", "explorer"], None),
        ("miner", ["miner"], None),  # never suggest the very same name
        ("x", [], None),
    ],
)
def test_suggest(name, candidates, expected):
    assert suggest(name, candidates) == expected
