"""Compiler units: DSL positions, the checker, merging layers, the emitter's safety, schema details."""
from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from nidavellir.compiler import ir
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.compiler.check import Names, check_effect
from nidavellir.interface.events import EVENTS
from nidavellir.compiler.diagnostics import (
    Diagnostic, Diagnostics, Location, RulesError, clear_sources, in_file_order, source_line, split_lines,
)
from nidavellir.compiler.dsl import MAX_NESTING, DslSyntaxError, parse_effect, parse_expr
from nidavellir.compiler.emit import escaped, slug
from nidavellir.compiler.schema import load_schema, validate
from nidavellir.compiler.sources import source_hash
from nidavellir.compiler.yamlload import load_yaml

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "rules" / "base"


@pytest.fixture(autouse=True)
def _fresh_sources():
    clear_sources()
    yield
    clear_sources()


def variant(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def compile_errors(path: Path) -> list[Diagnostic]:
    with pytest.raises(RulesError) as info:
        compile_specs(layer_specs((), (str(path),)))
    return info.value.diagnostics


def where(diags: list[Diagnostic]) -> list[tuple[int, int, str]]:
    return [(d.loc.line, d.loc.col, d.message) for d in diags]


# -- DSL positions --------------------------------------------------------------------------

@pytest.mark.parametrize("text, node, name", [
    ("when won: place self in column miner", ir.Place, "miner"),
    ("score 3 if column is explorer else 0", ir.Is, "explorer"),
    ("when age-end in age 2: recruit hero", ir.Triggered, "2"),
])
def test_nodes_keep_the_position_of_the_name_they_resolve(text, node, name):
    found = [n for n in ir.walk(parse_effect(text)) if isinstance(n, node)]
    assert len(found) == 1
    assert found[0].arg_pos == text.index(name)


@pytest.mark.parametrize("text, operand, name", [
    ("when won: gain gem 6", "value", "6"),
    ("when won: exchange trading coin for coin hunter-3", "new", "hunter-3"),
    ("when won: take chosen 1 card from discard", "zone", "discard"),
    ("when won: look at 3 from camp deck, take 1, rest shuffled", "deck", "camp"),
])
def test_an_actions_operands_keep_their_positions(text, operand, name):
    """An action spec's operand (a gem's number, a zone's name, a deck) is located where it is
    written, for the diagnostics about it."""
    act = next(n for n in ir.walk(parse_effect(text)) if isinstance(n, ir.Act))
    assert act.arg(operand).pos == text.index(name)


def test_names_and_calls_keep_their_positions():
    text = "requires ranks(explorer) >= param(hourya_need)"
    effect = parse_effect(text)
    calls = [n for n in ir.walk(effect) if isinstance(n, ir.Call)]
    assert [c.pos for c in calls] == [text.index("ranks"), text.index("param")]
    assert [a.pos for c in calls for a in c.args] == [text.index("explorer"), text.index("hourya_need")]


def test_parse_expr_positions_are_those_of_the_formula():
    expr = parse_expr("ranks is warrior")
    assert (expr.pos, expr.arg_pos, expr.subject.pos) == (0, 9, 0)
    with pytest.raises(DslSyntaxError) as info:
        parse_expr("ranks *")
    assert info.value.offset == 7


@pytest.mark.parametrize("text, offset, message", [
    ("when recruited transform chosen coin by 7", 15, "missing `:` after the trigger"),
    ("when recruited: transform coin by 7", 26, "say which coin"),
    ("score (2 * ranks(explorer)", 26, "unbalanced parentheses"),
    ("score 2 $ 3", 8, "unexpected character `$` in effect"),
    ("score 2 \x07 3", 8, "unexpected character U+0007 in effect"),
    ("score 2\n+ 3", 7, "unexpected line break in effect"),
])
def test_syntax_errors_have_an_offset_and_a_message(text, offset, message):
    with pytest.raises(DslSyntaxError) as info:
        parse_effect(text)
    assert info.value.offset == offset
    assert message in info.value.message


def test_nesting_is_bounded_and_what_is_allowed_compiles(tmp_path):
    deep = "score " + "(1 + " * 60 + "1" + ")" * 60
    with pytest.raises(DslSyntaxError) as info:
        parse_effect(deep)
    assert "nested too deeply" in info.value.message

    depth = MAX_NESTING - 4  # effect, score and the innermost call's own levels
    text = "score " + "max(1, " * depth + "1" + ")" * depth
    parse_effect(text)
    v = variant(tmp_path, f"""
        layer: {{id: v, name: V}}
        cards:
          - {{id: astrid, effects: ["{text}"]}}
    """)
    compile(compile_specs(layer_specs((), (str(v),))).source, "rules", "exec")


# -- the checker ----------------------------------------------------------------------------

NAMES = Names(classes={"warrior", "hunter", "miner", "blacksmith", "explorer"},
              events={e: EVENTS[e] for e in ("recruited", "won")},
              params={"bid_from_hand"}, coins={"hunter-3"}, gems={6}, cards={"grid", "special-blacksmith"},
              ages={1, 2})


@pytest.mark.parametrize("text, context, problems", [
    ("score ranks(explorr)", "card", [(12, "`explorr` is not a class", "did you mean `explorer`?")]),
    ("when recruted: gain gem 6", "trigger", [(5, "unknown event `recruted`", "did you mean `recruited`?")]),
    ("requires 5", "trigger", [(9, "expected a condition here, got a number", None)]),
    ("score ranks(explorer) >= 5", "card", [(6, "expected a number here, got a condition", None)]),
    ("score ranks", "card", [(6, "`ranks` cannot be used in a card's score: it needs the column a class "
                                 "formula scores", "it exists in a class formula")]),
    ("score lookup(1)", "card", [(6, "`lookup` takes at least 2 arguments, got 1", None)]),
    ("modify bid_from_hnd + 1", "trigger", [(7, "unknown param `bid_from_hnd`", "did you mean `bid_from_hand`?")]),
    ("when won in age 3: gain gem 5", "trigger", [(16, "there is no age 3", "ages: 1, 2"),
                                                   (28, "there is no special gem 5", "special gems: 6")]),
])
def test_checker_problems_point_at_the_problem(text, context, problems):
    found = check_effect(parse_effect(text), NAMES)
    assert [(p.pos, p.message, p.hint) for p in found] == problems


# -- merging layers -------------------------------------------------------------------------

def test_merge_errors_and_dsl_errors_are_reported_together(tmp_path):
    v = variant(tmp_path, """
        layer: {id: v, name: V}
        cards:
          - {id: grid, effects: ["when recruted: gain gem 6"]}
        remove: [ulin]
        game:
          flow:
            turn:
              - {id: toast, window: toast, before: bidz}
    """)
    assert where(compile_errors(v)) == [
        (3, 32, "unknown event `recruted`"),
        (4, 10, "cannot remove `ulin`: no earlier layer defines it"),
        (8, 44, "no flow step `bidz` to insert `toast` before"),
    ]


def test_a_variant_may_replace_a_list_of_names_in_the_flow(tmp_path):
    v = variant(tmp_path, """
        layer: {id: v, name: V}
        game:
          flow:
            before_scoring: [game-end, age-end]
    """)
    assert compile_specs(layer_specs((), (str(v),))).merged.game["flow"]["before_scoring"] == ["game-end", "age-end"]


def test_an_inserted_step_is_located_in_its_own_file(tmp_path):
    v = variant(tmp_path, """
        layer: {id: v, name: V}
        game:
          flow:
            turn:
              - {id: extra, do: no-such-step, after: enter-dwarves}
    """)
    assert where(compile_errors(v)) == [(5, 25, "unknown flow step `no-such-step`")]


def test_class_formulas_of_the_first_layer_are_located():
    """The base's class formulas map to their own lines (errors and SOURCE_MAP alike)."""
    compiled = compile_specs(layer_specs())
    lines = split_lines((BASE / "game.yaml").read_text(encoding="utf-8"))
    for cls in compiled.merged.game["classes"]:
        origin = compiled.merged.game_origin[("classes", cls["id"], "score")]
        line = origin.loc.line
        assert lines[line - 1].strip() == f"score: {cls['score']}"
        assert f"'rules/base/game.yaml:{line}:{lines[line - 1].index(cls['score']) + 1}'" in compiled.source


def test_deck_of_an_age_the_game_does_not_have(tmp_path):
    v = variant(tmp_path, """
        layer: {id: v, name: V}
        decks:
          - age: 3
            cards: [{card: skaa, count: 1}]
    """)
    assert where(compile_errors(v)) == [(3, 10, "there is no age 3")]


# -- schema details ---------------------------------------------------------------------------

def _schema_errors(text: str) -> list[tuple[int, int, str]]:
    diags = Diagnostics()
    validate(load_yaml("t.yaml", text), load_schema("layer"), diags)
    return [(d.loc.line, d.loc.col, d.message) for d in diags]


def test_schema_pattern_end_is_the_end_of_the_text():
    assert _schema_errors('remove: ["grid\\n"]\n') == [
        (1, 10, "`grid\\n` does not match the expected form: an id: lowercase ASCII words joined by `-` "
                "(dwarves: `class:points`)")]
    assert _schema_errors("remove: [grid]\n") == []


def test_schema_integer_is_not_a_float():
    assert _schema_errors("cards:\n  - {id: skaa, points: 17.0}\n") == [
        (2, 24, "expected integer, got number `17.0`")]


# -- the emitter is safe --------------------------------------------------------------------

@pytest.mark.parametrize("text", ['a"""b', "x\nimport os", "it's", "back\\", "é \u2028 \x00", "\r\n#", '"'])
def test_escaped_text_fits_a_comment_and_a_docstring(text):
    inside = escaped(text)
    assert not any(ch in inside for ch in "\r\n\x00\u2028")
    assert eval('"""' + inside + '"""') == text  # noqa: S307 - a literal we built


@pytest.mark.parametrize("ids", [("a-b", "a:b"), ("a-b-c", "a:b-c", "a-b:c", "a:b:c"), ("x-1", "x:1")])
def test_emitted_names_are_identifiers_one_to_one(ids):
    """Handler names come from card ids (DESIGN §6: "names are validated identifiers"); two ids never
    share a name."""
    names = [slug(i) for i in ids]
    assert all(f"_{n}_0".isidentifier() and n.isascii() for n in names)
    assert len(set(names)) == len(names)


# -- robustness --------------------------------------------------------------------------------

def test_diagnostics_in_file_order():
    def d(path, line, col):
        return Diagnostic(Location(path, line, col), "m")

    items = [d("b", 3, 1), d("a", 9, 1), None, d("b", 1, 5), d("a", 2, 2)]
    items[2] = Diagnostic(None, "unlocated")
    ordered = in_file_order(items, ["a"])
    assert [(x.loc.path, x.loc.line) if x.loc else None for x in ordered] == [
        None, ("a", 2), ("a", 9), ("b", 1), ("b", 3)]


def test_load_yaml_shows_the_given_name(tmp_path):
    with pytest.raises(RulesError) as info:
        load_yaml(tmp_path / "missing.yaml", name="rules/x.yaml")
    (diag,) = info.value.diagnostics
    assert diag.message == "cannot read rules/x.yaml: no such file or folder" and diag.file == "rules/x.yaml"


def test_yaml_error_at_the_end_of_the_file_shows_the_last_line():
    with pytest.raises(RulesError) as info:
        load_yaml("t.yaml", "a: 1\nb: [\n\n\n")
    (diag,) = info.value.diagnostics
    assert (diag.loc.line, diag.loc.col) == (2, 5)
    assert diag.format().splitlines()[1:3] == ["    b: [", "        ^"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_never_read(tmp_path):
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    assert source_line(str(pipe), 1) is None
    assert source_hash(layer_specs((), (str(pipe),))) is None
    (diag,) = compile_errors(pipe)
    assert diag.loc is None  # not read: no line
    assert diag.message == f"cannot read {pipe}: not a regular file (a pipe, a socket or a device): it is not read"


def test_unreadable_paths_do_not_break_the_hash(tmp_path):
    assert source_hash(layer_specs((), (str(tmp_path / ("x" * 400)),))) is None
    assert source_hash(layer_specs((), (str(tmp_path / "missing.yaml"),))) is None
