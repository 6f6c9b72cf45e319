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
    ("score 10 / (ranks(explorer) - 1)", "ranks(explorer) - 1"),
    ("score (10 / ranks(explorer)) if ranks(warrior) > 0 else 0", "ranks(explorer)"),  # (guards another value)
])
def test_a_divisor_that_can_be_zero_is_a_warning(capsys, tmp_path, effect, needle):
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, needle), CAN_BE_ZERO)


def test_a_param_divisor_a_modifier_can_make_zero_is_a_warning(capsys, tmp_path):
    """A param is worth what its modifiers can make it (compiler/values.py): a modifier that can
    take `explorer_draw` to 0 makes a division by it one that can fail."""
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ncards:\n  - id: astrid\n    effects:\n'
                                   '      - "score 10 / param(explorer_draw)"\n'
                                   '      - "modify explorer_draw = ranks(explorer)"\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, "param("), CAN_BE_ZERO)


@pytest.mark.parametrize("effect", [
    "score 10 / 3",
    "score 10 / max(1, ranks(explorer))",
    "score 10 / (ranks(explorer) + 1)",
    "score 10 / ranks(explorer) if ranks(explorer) > 0 else 0",
    "score 0 if ranks(explorer) == 0 else 10 / ranks(explorer)",
    "score 10 / ranks(explorer) if heroes > 1 and ranks(explorer) >= 1 else 0",
    "score 10 / age",
    "score 10 / param(explorer_draw)",  # 3, and no card of the base game modifies it
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
