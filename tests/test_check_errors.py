"""`nidavellir check`: every kind of rules error is located (path:line:col, source line, caret),
all errors of a run are reported, exit code 1, never a traceback (DESIGN §6, §8)."""
from __future__ import annotations

import json
import subprocess
import sys
import tokenize
from io import StringIO
from pathlib import Path

import pytest

from nidavellir.cli import main
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.rulesets import module_from_source
from nidavellir.compiler.diagnostics import RulesError

from checking import BASE, ROOT, base_copy, expect, failed, find, replace_in, run_check, write

VARIANTS = sorted((ROOT / "rules" / "variants").glob("*.yaml"))


# -- success ------------------------------------------------------------------------------

def test_shipped_rules_pass(capsys):
    """DESIGN §8: `check` with no PATH checks "the shipped rules, each box combination" (and each
    shipped variant)."""
    code, out, err = run_check(capsys)
    assert code == 0, err
    lines = [ln.split(" (")[0] for ln in out.splitlines()]
    assert lines[:4] == ["ok: rules/base", "ok: rules/base + rules/thingvellir", "ok: rules/base + rules/idavoll",
                         "ok: rules/base + rules/thingvellir + rules/idavoll"]
    assert lines[4:] == [f"ok: rules/variants/{v.name}" for v in VARIANTS]


def test_check_of_one_box_combination(capsys):
    """DESIGN §8: `nidavellir check [PATH…] [--expansions E,…]`."""
    code, out, err = run_check(capsys, "--expansions", "thingvellir")
    assert code == 0, err
    assert out.startswith("ok: rules/base + rules/thingvellir (")
    code, out, err = run_check(capsys, "--expansions", "thingvelir")
    assert code == 2 and "unknown expansion `thingvelir`" in err  # issue 9: a bad option value is usage, 2


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.stem)
def test_each_shipped_variant_compiles(capsys, variant):
    compiled = compile_specs(layer_specs((), (str(variant),)))
    assert compiled.ruleset.layers[-1].variant is True
    compile(compiled.source, str(variant), "exec")
    code, out, _ = run_check(capsys, str(variant))
    assert code == 0 and out.startswith(f"ok: {variant} (")


def test_variants_change_what_they_say():
    def rules(v: str):
        return compile_specs(layer_specs((), (str(ROOT / "rules" / "variants" / v),)))

    assert not {"thrud", "ylud", "uline"} & set(rules("first-game.yaml").ruleset.cards)
    assert "transform chosen coin by 9" in rules("generous-offerings.yaml").source
    warrior = next(c for c in rules("strict-warrior-majority.yaml").ruleset.classes if c.id == "warrior")
    assert "strict_most_ranks(warrior)" in warrior.formula


def test_variant_option_on_check(capsys, tmp_path):
    first = str(ROOT / "rules" / "variants" / "first-game.yaml")
    code, out, _ = run_check(capsys, "--variant", first)
    assert code == 0
    assert out.startswith(f"ok: rules/base + {first} (")
    assert len(out.splitlines()) == 1

    bad = write(tmp_path / "bad.yaml", """
        layer: {id: bad, name: Bad}
        remove: [grdi]
    """)
    code, out, err = run_check(capsys, str(BASE), "--variant", str(bad))
    failed(code, out, err, 1)
    expect(err, bad, 2, 10, "cannot remove `grdi`: no earlier layer defines it", "did you mean `grid`?")


def test_build_check_passes_on_the_repo(capsys):
    assert main(["build", "--check"]) == 0
    assert capsys.readouterr().out.strip() == "generated/ is fresh"


def test_a_base_folder_is_checked_alone(capsys, tmp_path):
    base = base_copy(tmp_path)
    code, out, _ = run_check(capsys, str(base))
    assert code == 0 and out.startswith(f"ok: {base} (")


# -- the DSL ------------------------------------------------------------------------------

def grid_variant(tmp_path: Path, *effects: str) -> Path:
    lines = "\n".join(f"      - {e}" for e in effects)
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\ncards:\n  - id: grid\n    effects:\n" + lines + "\n")


def test_dsl_syntax_error_missing_colon(capsys, tmp_path):
    v = grid_variant(tmp_path, '"when recruited transform chosen coin by 7"')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 25, "unexpected `transform` in effect: missing `:` after the trigger "
                          "(write `when EVENT: ACTION`)")


def test_dsl_syntax_error_in_a_folded_block_points_into_the_block(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - id: idunn
            effects:
              - >-
                score 2 *
                * ranks(explorer)
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    assert f"{v}:7:9: error: unexpected `*` in effect" in err
    assert err.splitlines()[1:3] == ["            * ranks(explorer)", "            ^"]


def test_dsl_line_break_is_located(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - id: grid
            effects:
              - |
                when recruited: transform chosen coin
                  by 7
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 6, 46, "unexpected line break in effect",
           "write the effect on one line (a `>-` block folds its lines)")


def test_unknown_event(capsys, tmp_path):
    v = grid_variant(tmp_path, '"when recruted: transform chosen coin by 7"')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 15, "unknown event `recruted`", "did you mean `recruited`?")


def test_unknown_param(capsys, tmp_path):
    v = grid_variant(tmp_path, '"modify bid_from_hnd + 1"', '"requires param(dagda_discardz) > 0"')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    expect(err, v, 5, 17, "unknown param `bid_from_hnd`", "did you mean `bid_from_hand`?")
    expect(err, v, 6, 25, "unknown param `dagda_discardz`", "did you mean `dagda_discards`?")


def test_unknown_class_in_ranks_in_the_base_game(capsys, tmp_path):
    base = base_copy(tmp_path)
    heroes = base / "heroes.yaml"
    replace_in(heroes, '"requires ranks(explorer) >= 5"', '"requires ranks(explorr) >= 5"')
    line, col = find(heroes, "explorr")
    code, out, err = run_check(capsys, str(base))
    failed(code, out, err, 1)
    expect(err, heroes, line, col, "`explorr` is not a class", "did you mean `explorer`?")


def test_unknown_class_after_is_and_unknown_column(capsys, tmp_path):
    v = grid_variant(tmp_path, '"score 3 if column is explorr else 0"',
                     '"when recruited: place self in column minr"')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    expect(err, v, 5, 31, "unknown class `explorr`", "did you mean `explorer`?")
    expect(err, v, 6, 47, "unknown column `minr`", "did you mean `miner`?")


@pytest.mark.parametrize("effect, col, message", [
    ('"requires 5"', 19, "expected a condition here, got a number"),
    ('"score ranks(explorer) >= 5"', 16, "expected a number here, got a condition"),
    ('"when recruited: transform chosen coin by most_ranks(miner)"', 51, "expected a number here, got a condition"),
])
def test_wrong_type(capsys, tmp_path, effect, col, message):
    v = grid_variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, col, message)


def test_unknown_coin_gem_age_and_card_in_effects(capsys, tmp_path):
    v = grid_variant(tmp_path,
                     '"when recruited: exchange trading coin for coin huntr-3"',
                     '"when recruited: gain gem 7"',
                     '"when age-end in age 3: recruit hero"',
                     '"when recruited: place card special-blacksmth in column blacksmith"')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 4)
    expect(err, v, 5, 57, "unknown coin `huntr-3`", "did you mean `hunter-3`?")
    expect(err, v, 6, 35, "there is no special gem 7", "special gems: 6")
    expect(err, v, 7, 30, "there is no age 3", "ages: 1, 2")
    expect(err, v, 8, 37, "unknown card `special-blacksmth`", "did you mean `special-blacksmith`?")


def test_unknown_name_in_a_class_formula(capsys, tmp_path):
    base = base_copy(tmp_path)
    game = base / "game.yaml"
    replace_in(game, "score: ranks * ranks", "score: ranks * rank")
    line, col = find(game, "ranks * rank")
    col += len("ranks * ")
    code, out, err = run_check(capsys, str(base))
    failed(code, out, err, 1)
    expect(err, game, line, col, "unknown name `rank`", "did you mean `ranks`?")


def test_unknown_card_in_a_deck(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        decks:
          - age: 1
            cards:
              - {card: "warrior:99", count: 1}
          - age: 4
            cards: []
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    expect(err, v, 5, 16, "unknown card `warrior:99` in the age 1 deck", "did you mean `warrior:9`?")
    expect(err, v, 6, 10, "there is no age 4", "ages: 1, 2")


def test_unknown_flow_step(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        game:
          flow:
            turn:
              - {id: count, do: resolve-tavern, after: bids}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 25, "unknown flow step `resolve-tavern`", "did you mean `resolve-taverns`?")


def test_dsl_nested_too_deeply(capsys, tmp_path):
    v = grid_variant(tmp_path, '"score ' + "max(1, " * 60 + "1" + ")" * 60 + '"')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    assert f"{v}:5:" in err and "effect nested too deeply" in err


# -- schema, YAML -------------------------------------------------------------------------

def test_schema_unknown_key_with_hint_and_wrong_type(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - id: grid
            efects: ["when recruited: transform chosen coin by 7"]
          - id: skaa
            points: seven
          - id: tarah
            ranks: 2.0
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 3)
    expect(err, v, 4, 5, "unknown key `efects`", "did you mean `effects`?")
    expect(err, v, 6, 13, "expected integer, got string `seven`")
    expect(err, v, 8, 12, "expected integer or list or mapping, got number `2.0`")


def test_schema_id_with_a_line_break_is_refused(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - {id: "grid\\n", name: Grid}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 3, 10, "`grid\\n` does not match the expected form: an id: lowercase ASCII words "
                          "joined by `-` (dwarves: `class:points`)")


def test_schema_enters_must_be_known(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        game:
          kinds:
            hero: {enters: own colum}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 4, 20, "`own colum` is not one of: own column, chosen column, command zone, discard",
           "did you mean `own column`?")


def test_yaml_syntax_error(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - id: grid
           name: Grid
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 4, 4, "did not find expected '-' indicator (while parsing a block collection that starts "
                         "at line 3)", "check the indentation of this line")


def test_yaml_file_ending_too_early(capsys, tmp_path):
    v = tmp_path / "v.yaml"
    v.write_text("layer: {id: v, name: V}\nremove: [grid,\n\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 2, 15, "did not find expected node content (while parsing a flow node)",
           "the file ends too early: check that every `[`, `{` and quote is closed")


def test_duplicate_key(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - id: grid
            points: 7
            points: 8
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 5, "duplicate key `points` (first defined at line 4)")


# -- conflicting layers -------------------------------------------------------------------

def test_same_card_twice_in_one_layer(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - {id: grid, points: 8}
          - {id: skaa, points: 18}
          - {id: grid, points: 9}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 10, f"card `grid` is defined twice in layer `v` (first at {v}:3:10)",
           "a layer defines each id once; a later layer may override it")


def test_same_card_twice_in_two_files_of_a_layer(capsys, tmp_path):
    layer = tmp_path / "extra"
    layer.mkdir()
    write(layer / "a.yaml", "layer: {id: extra, name: Extra}\ncards:\n  - {id: grid, points: 8}\n")
    b = write(layer / "b.yaml", "cards:\n  - {id: grid, points: 9}\n")
    code, out, err = run_check(capsys, str(layer))
    failed(code, out, err, 1)
    expect(err, b, 2, 10, f"card `grid` is defined twice in layer `extra` (first at {layer / 'a.yaml'}:3:10)",
           "a layer defines each id once; a later layer may override it")


def test_same_class_twice_in_one_list(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        game:
          classes:
            - {id: hunter, score: ranks}
            - {id: hunter, score: ranks * 2}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 12, f"`hunter` is defined twice in `game.classes` (first at {v}:4:12)",
           "a layer defines each id once; a later layer may override it")


def test_removing_an_id_no_layer_defines(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        remove:
          - thrud
          - ulin
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 4, 5, "cannot remove `ulin`: no earlier layer defines it", "did you mean `uline`?")


@pytest.mark.parametrize("key", ["before", "after"])
def test_inserting_a_flow_step_next_to_a_missing_step(capsys, tmp_path, key):
    v = write(tmp_path / "v.yaml", f"""
        layer: {{id: v, name: V}}
        game:
          flow:
            turn:
              - {{id: toast, window: toast, {key}: bidz}}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 38 + len(key), f"no flow step `bidz` to insert `toast` {key}", "did you mean `bids`?")


def test_removing_a_missing_flow_step(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        game:
          flow:
            age_end:
              - {id: troop-evaluaton, remove: true}
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, 5, 14, "cannot remove flow step `troop-evaluaton`: no such step",
           "did you mean `troop-evaluation`?")


def test_flow_insertions_and_overrides_that_work(tmp_path):
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        game:
          flow:
            turn:
              - {id: toast, window: toast, after: bids}
            age_end:
              - {id: troop-evaluation, remove: true}
            before_scoring: []
    """)
    compiled = compile_specs(layer_specs((), (str(v),)))
    flow = compiled.merged.game["flow"]
    assert [s["id"] for s in flow["turn"]][2:4] == ["bids", "toast"]
    assert "troop-evaluation" not in [s["id"] for s in flow["age_end"]]
    assert flow["before_scoring"] == []


def test_a_folder_of_variants_is_not_one_layer(capsys, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    write(folder / "a.yaml", "layer: {id: a, name: A}\n")
    b = write(folder / "b.yaml", "layer: {id: b, name: B}\n")
    code, out, err = run_check(capsys, str(folder))
    failed(code, out, err, 1)
    expect(err, b, 1, 1, f"a second `layer:` description in one rules folder (the first is in {folder / 'a.yaml'})",
           "describe the layer in one file only")


# -- all errors of a run ------------------------------------------------------------------

def test_errors_in_several_files_and_cards_are_all_reported(capsys, tmp_path):
    base = base_copy(tmp_path)
    heroes, distinctions, game = base / "heroes.yaml", base / "distinctions.yaml", base / "game.yaml"
    replace_in(heroes, '"requires ranks(explorer) >= 5"', '"requires ranks(explorr) >= 5"')
    replace_in(heroes, '"when recruited: transform chosen coin by 7"', '"when recruted: transform chosen coin by 7"')
    replace_in(distinctions, '"when won: gain gem 6"', '"when won gain gem 6"')
    replace_in(game, "score: ranks * ranks", "score: ranks ** ranks")
    layer = tmp_path / "extra"
    layer.mkdir()
    extra = write(layer / "extra.yaml", """
        layer: {id: extra, name: Extra}
        cards:
          - {id: hero-x, kind: hero, effects: ["score highest_con"]}
    """)
    variant = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        remove: [ylod]
    """)
    broken = write(tmp_path / "broken.yaml", "layer: {id: broken, name: Broken\n")

    code, out, err = run_check(capsys, str(base), str(layer), str(variant), str(broken))
    failed(code, out, err, 7)
    expect(err, heroes, *find(heroes, "recruted"), "unknown event `recruted`", "did you mean `recruited`?")
    expect(err, heroes, *find(heroes, "explorr"), "`explorr` is not a class", "did you mean `explorer`?")
    expect(err, distinctions, *find(distinctions, "gain gem 6"),
           "unexpected `gain` in effect: missing `:` after the trigger (write `when EVENT: ACTION`)")
    line, col = find(game, "ranks ** ranks")
    assert f"{game}:{line}:{col + 7}: error: unexpected `*` in effect" in err
    expect(err, extra, 3, 47, "unknown name `highest_con`", "did you mean `highest_coin`?")
    expect(err, variant, 2, 10, "cannot remove `ylod`: no earlier layer defines it", "did you mean `ylud`?")
    expect(err, broken, 1, 33, "did not find expected ',' or '}' (while parsing a flow mapping)",
           "check that every `{` is closed by a `}`")
    # in file order: the base's files as the layer lists them, each by line
    heads = [ln.split(": error:")[0] for ln in err.splitlines() if ": error: " in ln]
    mine = [h for h in heads if h.startswith(str(base))]
    files = [str(base / f) for f in ("distinctions.yaml", "game.yaml", "heroes.yaml")]
    assert mine == sorted(mine, key=lambda h: (files.index(h.rsplit(":", 2)[0]), int(h.rsplit(":", 2)[1])))


# -- odd input ----------------------------------------------------------------------------

def _alias_bomb() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    return "\n".join(lines) + "\n"


ODD = {
    "empty": (b"", "1:1: error: the variant file is empty"),
    "comments only": (b"# nothing yet\n", "1:1: error: the variant file is empty"),
    "a list": (b"- grid\n- skaa\n", "1:1: error: expected mapping, got a list"),
    "a string": (b"hello\n", "1:1: error: expected mapping, got string `hello`"),
    "binary junk": (bytes(range(256)) * 4, "3:115: error: byte 0x80 is not valid UTF-8"),
    "a control character": (b"layer: {id: v\x00, name: V}\n", "1:14: error: invalid character U+0000"),
    "deep nesting": (b"a: " + b"[" * 500 + b"]" * 500 + b"\n", "error: document too deeply nested"),
    "alias bomb": (_alias_bomb().encode(), "error: too many nodes (alias expansion?)"),
    "two documents": (b"layer: {id: v, name: V}\n---\nremove: [grid]\n", "2:1: error: a rules file must hold"),
    "unsafe tag": (b"layer: !!python/object/apply:os.system ['true']\n", "1:8: error: unsupported YAML tag"),
}


@pytest.mark.parametrize("name", ODD)
def test_odd_files_are_located_errors(capsys, tmp_path, name):
    content, message = ODD[name]
    f = tmp_path / "odd.yaml"
    f.write_bytes(content)
    code, out, err = run_check(capsys, str(f))
    assert code == 1 and "Traceback" not in err
    assert err.startswith(f"{f}:") and message in err.splitlines()[0], err


def test_odd_paths_are_located_errors(capsys, tmp_path):
    empty, folder = tmp_path / "empty", tmp_path / "folder"
    empty.mkdir()
    folder.mkdir()
    write(folder / "a.yaml", "layer: {id: a, name: A}\n")
    missing = tmp_path / "missing.yaml"
    code, out, err = run_check(capsys, str(missing), str(empty), "--variant", str(folder))
    assert code == 1 and "Traceback" not in err
    assert f"error: cannot read {missing}: no such file or folder" in err and f"{missing}:1:1" not in err
    assert f"{empty}:1:1: error: rules folder holds no .yaml file" in err
    assert f"error: cannot read {folder}: expected a file, found a folder" in err
    code, out, err = run_check(capsys, str(tmp_path / ("x" * 400)))
    assert code == 1 and f"error: cannot read {tmp_path / ('x' * 400)}: file name too long" in err


def test_subprocess_exit_code_and_no_traceback(tmp_path):
    v = grid_variant(tmp_path, '"when recruted: transform chosen coin by 7"')
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(b"\xff\xfe" + b"[" * 10_000)
    proc = subprocess.run([sys.executable, "-m", "nidavellir.cli", "check", str(v), str(junk),
                           str(tmp_path / "nowhere")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert f"{v}:5:15: error: unknown event `recruted`" in proc.stderr
    assert f"{junk}:1:1: error: byte 0xff is not valid UTF-8" in proc.stderr
    assert proc.stderr.rstrip().endswith("3 errors")


# -- generated code is safe ---------------------------------------------------------------

PAYLOAD = "__import__('os').system('touch MARK')"


def _outside_strings(source: str) -> str:
    """The source without its string literals."""
    return "".join(tok.string for tok in tokenize.generate_tokens(StringIO(source).readline)
                   if tok.type != tokenize.STRING)


@pytest.mark.parametrize("effect", [
    PAYLOAD,
    f"score 1 + {PAYLOAD}",
    f'when recruited: transform chosen coin by 7"); {PAYLOAD}; ("',
    f"when recruited: transform chosen coin by 7\n{PAYLOAD}",
    f"when recruited: exchange trading coin for coin x'); {PAYLOAD} #",
])
def test_python_in_an_effect_is_a_located_error(tmp_path, effect):
    v = grid_variant(tmp_path, json.dumps(effect))  # a JSON string is a YAML double-quoted one
    with pytest.raises(RulesError) as info:
        compile_specs(layer_specs((), (str(v),)))
    (diag,) = info.value.diagnostics
    assert diag.loc.path == str(v) and diag.loc.line == 5


def test_python_in_names_and_paths_only_reaches_string_literals(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / 'x"""; __import__("os").system("touch MARK"); """'
    folder.mkdir()
    v = folder / "v'''\\.yaml"
    q = json.dumps  # a JSON string is a YAML double-quoted one
    v.write_text("\n".join([
        "layer:",
        "  id: v",
        f"  name: {q('V' + chr(34) * 3 + chr(10) + PAYLOAD)}",
        f"  description: {q(chr(39) * 3 + ');' + PAYLOAD + ' #')}",
        f"  source: {q(chr(92))}",
        "cards:",
        "  - id: grid",
        f"    name: {q('Grid' + chr(10) + PAYLOAD + chr(10) + '#')}",
        '    effects: ["when recruited: transform chosen coin by 7"]',
        "  - id: new-hero",
        f"    name: {q(chr(39) + ');' + PAYLOAD + ';(' + chr(39))}",
        "    kind: hero",
        "interpretations:",
        f"  - {{id: x, text: {q(PAYLOAD)}, source: {q(chr(34) * 3)}}}",
    ]) + "\n", encoding="utf-8")
    source = compile_specs(layer_specs((), (str(v),))).source
    assert PAYLOAD in source
    assert "__import__" not in _outside_strings(source)
    module_from_source(source, "0" * 64)
    assert not (tmp_path / "MARK").exists()


def test_a_card_breaking_the_schema_does_not_hide_the_other_cards_errors(capsys, tmp_path):
    """DESIGN §6: "All errors of a run are reported, not only the first": a schema error in one card
    and DSL errors in another card of the same file come out together."""
    v = write(tmp_path / "v.yaml", """
        layer: {id: v, name: V}
        cards:
          - id: skaa
            effects:
              - "requires ranks(explorr) >= 5"
              - "when recruted: transform chosen coin by 7"
          - id: newhero
            kind: hero
            clas: neutral
    """)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 3)
    expect(err, v, 5, 25, "`explorr` is not a class", "did you mean `explorer`?")
    expect(err, v, 6, 15, "unknown event `recruted`", "did you mean `recruited`?")
    expect(err, v, 9, 5, "unknown key `clas`", "did you mean `class`?")


def test_control_characters_of_a_rules_file_are_printed_escaped(capsys, tmp_path):
    """DESIGN §10 "rules files are untrusted input": an error that quotes a line holding a terminal
    escape shows it as `\\x1b`, never the raw character (which would drive the terminal); the caret
    still stands under the column."""
    v = tmp_path / "v.yaml"
    v.write_bytes(b'layer: {id: v, name: V}\ncards:\n  - {id: grid, name: "\x1b[2J", effects: ["when recruted: gain gem 6"]}\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 1 and "\x1b" not in err
    lines = err.splitlines()
    head = next(i for i, line in enumerate(lines) if "invalid character U+001B" in line)
    assert lines[head].startswith(f"{v}:3:23: error:")
    assert lines[head + 1] == '      - {id: grid, name: "\\x1b[2J", effects: ["when recruted: gain gem 6"]}'
    assert lines[head + 2].index("^") == lines[head + 1].index("\\x1b")
