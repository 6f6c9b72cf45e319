"""Division by zero in the DSL (issue 17 §2): "a located error (or warning where the divisor can be 0),
not a silent 0". `/` divides and rounds down (README, the effect DSL); a divisor that is always 0 is
refused by `check`, one that can be 0 is a warning, and dividing by 0 in play is a rules error located
at the divisor — never a silent value."""
from __future__ import annotations

import json

import pytest

from checking import expect, expect_warning, failed, find, run_check, write
from nidavellir.cli import main
from nidavellir.errors import RulesRuntimeError
from nidavellir.interface.support import div

CAN_BE_ZERO = "this divisor can be 0, and dividing by 0 stops the game with an error"


def variant(tmp_path, effect: str):
    return write(tmp_path / "v.yaml", f'layer: {{id: v, name: V}}\ncards:\n  - id: astrid\n    effects:\n'
                                      f'      - "{effect}"\n')


@pytest.mark.parametrize("effect, divisor", [("score 10 / 0", "0"), ("score 10 / (2 - 2)", "2 - 2"),
                                             ("score 10 / (0 * ranks(explorer))", "0 * ranks"),
                                             ("score 10 / (heroes - heroes)", "heroes - heroes")])
def test_a_divisor_that_is_always_zero_is_refused(capsys, tmp_path, effect, divisor):
    """Located at the divisor (an operation is located at its first operand)."""
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(v, divisor if divisor != "0" else "/ 0")
    expect(err, v, line, col + (2 if divisor == "0" else 0), "division by zero: this divisor is always 0",
           "`/` divides and rounds down; it has no value for a divisor of 0")


@pytest.mark.parametrize("effect, needle", [
    ("score 10 / ranks(explorer)", "ranks(explorer)"),
    ("score 10 / heroes", "heroes"),  # (not `param(explorer_draw)`: no card of the base game modifies it, it is 3)
    ("score 10 / (ranks(explorer) - 1)", "ranks(explorer) - 1"),
    ("score (10 / ranks(explorer)) if ranks(warrior) > 0 else 0", "ranks(explorer)"),  # (guards another value)
])
def test_a_divisor_that_can_be_zero_is_a_warning(capsys, tmp_path, effect, needle):
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, needle), CAN_BE_ZERO)


@pytest.mark.parametrize("effect", [
    "score 10 / 3",
    "score 10 / max(1, ranks(explorer))",
    "score 10 / (ranks(explorer) + 1)",
    "score 10 / ranks(explorer) if ranks(explorer) > 0 else 0",
    "score 0 if ranks(explorer) == 0 else 10 / ranks(explorer)",
    "score 10 / ranks(explorer) if heroes > 1 and ranks(explorer) >= 1 else 0",
    "score 10 / age",
])
def test_a_divisor_that_cannot_be_zero_passes(capsys, tmp_path, effect):
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and "divisor" not in err, err


def test_an_effect_guarded_by_its_condition_passes(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ncards:\n  - id: grid\n    effects:\n'
                                   '      - "when recruited if heroes > 0: transform chosen coin by 7 / heroes"\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and "divisor" not in err, err


def test_dividing_by_zero_in_play_is_a_located_rules_error(capsys, tmp_path):
    """A position without explorers: Astrid's `10 / ranks(explorer)` has no value; `score` names the
    divisor's file:line:col (and with two explorer ranks scores 5)."""
    v = variant(tmp_path, "score 10 / ranks(explorer)")
    line, col = find(v, "ranks(explorer)")
    pos = write(tmp_path / "pos.yaml", "players:\n  - {name: Ana, gem: 5, coins: [0, 2, 3, 4, 5], "
                                       "command_zone: [astrid]}\n  - {name: Bo, gem: 4, coins: [0, 2, 3, 4, 5]}\n")
    code = main(["score", str(pos), "--variant", str(v), "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "ZeroDivisionError" not in err
    message = json.loads(out)["errors"][0]["message"]
    assert message.startswith(f"{v}:{line}:{col}: division by zero: this divisor is 0 here (10 / 0)")
    good = write(tmp_path / "good.yaml", "players:\n  - {name: Ana, gem: 5, coins: [0, 2, 3, 4, 5], "
                                         "command_zone: [astrid], army: {explorer: [explorer:5, explorer:6]}}\n"
                                         "  - {name: Bo, gem: 4, coins: [0, 2, 3, 4, 5]}\n")
    assert main(["score", str(good), "--variant", str(v), "--json"]) == 0
    ana = json.loads(capsys.readouterr().out)["players"][0]
    assert ana["breakdown"]["heroes"] == 5


def test_the_division_helper_rounds_down_and_refuses_zero():
    assert div(7, 2, "f:1:1") == 3 and div(-7, 2, "f:1:1") == -4
    with pytest.raises(RulesRuntimeError, match=r"^f:1:1: division by zero"):
        div(1, 0, "f:1:1")


# -- divisors the rules data makes 0 (issue 17 audit item 5) ---------------------------------------------

def card_variant(tmp_path, *effects: str, game: str = "", card: str = "skaa"):
    listed = "".join(f'      - "{e}"\n' for e in effects)
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + game + f"cards:\n  - id: {card}\n"
                                      f"    effects:\n{listed}")


ZERO_HINT = "`/` divides and rounds down; it has no value for a divisor of 0"


@pytest.mark.parametrize("effects, game, divisor, why", [
    (["score 10 / (0 if 1 > 0 else 1)"], "", "(0 if", "a condition in it is always true"),
    (["score 10 / (1 if 0 > 1 else 0)"], "", "(1 if", "a condition in it is always false"),
    (["score 10 / lookup(0, 0, 1)"], "", "lookup(", None),
    (["score 10 / lookup(ranks(warrior), 0, 0)"], "", "lookup(", None),      # every entry 0
    (["score 10 / min(0, ranks(warrior))"], "", "min(", None),
    (["score 10 / max(0 - 1, 0)"], "", "max(", None),
    (["score 10 / param(z)"], "game: {params: {z: 0}}\n", "param(z)", "param `z` is always 0: no card modifies it"),
    (["score 10 / (param(z) * ranks(warrior))"], "game: {params: {z: 0}}\n", "(param(z)",
     "param `z` is always 0: no card modifies it"),
    (["score 10 / (param(z) - 3)"], "game: {params: {z: 3}}\n", "(param(z)", None),
    (["modify z = 0", "score 10 / param(z)"], "game: {params: {z: 0}}\n", "param(z)",
     "param `z` is always 0: its modifiers keep it there"),
    (["score 10 / tokens"], "", "tokens", "`skaa` never holds a token: no effect of it adds one"),
    (["when recruited: transform chosen coin by 12 / (tokens + tokens)"], "", "(tokens",
     "`skaa` never holds a token: no effect of it adds one"),
    (["score 10 / track"], "", "track", None),
    (["score 10 / (1 if param(z) > 0 else 0)"], "game: {params: {z: 0}}\n", "(1 if",
     "a condition in it is always false; param `z` is always 0: no card modifies it"),
])
def test_a_divisor_the_rules_data_makes_zero_is_refused(capsys, tmp_path, effects, game, divisor, why):
    """Audit item 5 ("always-zero divisors only warned ... refuse") and README: "`check` refuses a
    divisor that is always 0 as the rules data stands — `/ 0`, `/ param(z)` with `z: 0` that no card
    modifies, `/ tokens` on a card no effect gives tokens, `/ track` on a card whose track never
    advances from a notch of 0, `/ (0 if 1 > 0 else 1)`": located at the divisor, saying why."""
    v = card_variant(tmp_path, *effects, game=game)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(v, "/ " + divisor)
    col += 2 + divisor.startswith("(")  # (a bracketed divisor is located inside its brackets)
    message = "division by zero: this divisor is always 0" + (f" ({why})" if why else "")
    head = f"{v}:{line}:{col}: error: {message}"
    assert any(x == head or (why is None and x.startswith(head + " (")) for x in err.splitlines()), err
    assert f"  hint: {ZERO_HINT}" in err


def test_a_track_that_never_advances_from_zero_is_a_zero_divisor_and_one_that_advances_is_not(capsys, tmp_path):
    """`/ track` on a card whose track starts at 0: refused when nothing advances it, a warning when
    an effect does (it can still be at its first notch), nothing when it starts above 0."""
    still = card_variant(tmp_path, "score 10 / track", card="skaa\n    track: [0, 5, 9]")
    code, out, err = run_check(capsys, str(still))
    failed(code, out, err, 1)
    assert "(`skaa`'s track never leaves its first notch, worth 0: no effect of it advances it)" in err
    moving = card_variant(tmp_path, "when recruited: advance track", "score 10 / track", card="skaa\n    track: [0, 5, 9]")
    code, out, err = run_check(capsys, str(moving))
    assert code == 0 and CAN_BE_ZERO in err, err
    high = card_variant(tmp_path, "score 10 / track", card="skaa\n    track: [3, 0]")
    code, out, err = run_check(capsys, str(high))
    assert code == 0 and "divisor" not in err, err


@pytest.mark.parametrize("effects, game", [
    (["score 10 / param(z) if param(z) > 0 else 0"], "game: {params: {z: 0}}\n"),   # a branch never taken
    (["score 0 if 1 > 0 else 10 / param(z)"], "game: {params: {z: 0}}\n"),
    (["modify z + ranks(warrior)", "score 10 / param(z) if param(z) > 0 else 0"], "game: {params: {z: 0}}\n"),
    (["score 10 / param(z)"], "game: {params: {z: 2}}\n"),
    (["when recruited: add 1 token", "score 10 / tokens if tokens > 0 else 0"], ""),
])
def test_a_divisor_never_zero_where_it_runs_passes(capsys, tmp_path, effects, game):
    """"A branch a constant condition never takes is not checked (it never runs)": `10 / D if D > 0
    else 0` with D always 0 is sound; so is a guarded divisor the rules data can change."""
    v = card_variant(tmp_path, *effects, game=game)
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and "divisor" not in err and "division" not in err, err


def test_a_modified_param_that_can_be_zero_is_a_warning(capsys, tmp_path):
    """A param some card modifies is not always its value: only a warning."""
    v = card_variant(tmp_path, "modify z + ranks(warrior)", "score 10 / param(z)", game="game: {params: {z: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, "param(z)\""), CAN_BE_ZERO)


def test_a_zero_divisor_in_a_class_formula_is_refused(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ngame:\n  params: {z: 0}\n  classes:\n'
                                   '    - {id: hunter, score: "ranks / param(z)"}\n')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(v, "param(z)\"")
    expect(err, v, line, col, "division by zero: this divisor is always 0 (param `z` is always 0: no card modifies "
                              "it)", ZERO_HINT)
