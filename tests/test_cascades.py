"""At run time a cascade past a fixed depth stops with a located, worded rules error (issue 17 §2):
"a cascade of triggers/modifiers past a fixed depth … stops with a located, worded error naming the
cards in the loop (and their YAML file:line), reported by play/score/replay/simulate like other
located rules errors: never a RecursionError, never Python exception text. Both param evaluation …
and event cascades."

The loops here are ones `check` lets through with a warning (a condition, a choice): the runtime is
what stops them when play does go round.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checking import find, write
from harness import give, new_engine, pull, run, set_coins
from nidavellir.cli import main
from nidavellir.errors import RulesRuntimeError
from nidavellir.rulesets import load_rules
from nidavellir.runtime.bots import RandomBot
from nidavellir.runtime.core import EngineCore
from nidavellir.runtime.game import Game
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.loops import MAX_CASCADE, CascadeError, the_loop
from nidavellir.runtime.observation import observe

ROOT = Path(__file__).resolve().parent.parent
HEROES = ROOT / "rules" / "base" / "heroes.yaml"


def value_loop(tmp_path: Path) -> Path:
    """Two modifiers that read each other's param, one under a condition that always holds in play
    (`check` warns: the condition may stop it); Skaa's score reads the param."""
    return write(tmp_path / "loop.yaml", """\
        layer: {id: loop, name: Loop}
        game: {params: {a: 0, b: 0}}
        cards:
          - id: skaa
            effects:
              - "modify a + (param(b) if copies > 0 else 0)"
              - "modify b + param(a)"
              - "score param(a)"
        """)


def _loop_text(path: Path) -> str:
    a, b = find(path, "\"modify a"), find(path, "\"modify b")  # (an effect is located at its string)
    return (f"{path}:{a[0]}:{a[1]}: effects feed each other without end: "
            f"`skaa`: `modify a + (param(b) if copies > 0 else 0)` ({path}:{a[0]}:{a[1]}) -> "
            f"`skaa`: `modify b + param(a)` ({path}:{b[0]}:{b[1]}) -> the first again; the game stopped after "
            f"{MAX_CASCADE} nested effects (no game of sound rules nests so deep)")


def test_modifiers_that_read_each_other_stop_with_the_loop_named(tmp_path):
    """Param evaluation: the error names both modifiers with their file:line:col, at the first."""
    v = value_loop(tmp_path)
    e = new_engine(2, rules=load_rules((), (str(v),)))
    give(e, 0, "skaa", column=None)
    with pytest.raises(CascadeError) as err:
        e.param(0, "a")
    assert str(err.value) == _loop_text(v)
    assert isinstance(err.value, RulesRuntimeError) and e.cascade == []  # (nothing is left running)
    assert e.param(1, "a") == 0  # the other player holds no such card: nothing loops


def test_score_reports_the_loop_of_a_position_as_its_error(tmp_path, capsys):
    """`score` reports it like other rules errors: on stderr, and with --json as the file's error line."""
    v = value_loop(tmp_path)
    pos = write(tmp_path / "pos.yaml", """\
        players:
          - {name: Ana, gem: 5, coins: [0, 2, 3, 4, 5], command_zone: [skaa]}
          - {name: Bo, gem: 4, coins: [0, 2, 3, 4, 5]}
        """)
    code = main(["score", str(pos), "--variant", str(v), "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "RecursionError" not in err + out
    assert json.loads(out) == {"file": str(pos), "errors": [{"line": None, "col": None, "message": _loop_text(v)}]}
    assert _loop_text(v) in err


def _two_thruds(tmp_path: Path) -> Any:
    return load_rules((), (str(write(tmp_path / "thruds.yaml", "layer: {id: thruds, name: Thruds}\n"
                                                                 "cards:\n  - {id: thrud, copies: 2}\n")),))


def test_copies_that_step_aside_onto_each_other_stop_in_play(tmp_path):
    """An event cascade: two Thruds (a variant: copies 2), each covered in turn, each stepping aside
    onto the other's column as its owner chooses, never end; the game stops with the loop named."""
    rules = _two_thruds(tmp_path)
    game = Game(rules, 2, seed=0)
    e = game.engine
    give(e, 0, "thrud", column="warrior")
    give(e, 0, "thrud", column="hunter")
    dwarf = pull(e, "warrior:3")
    e.s.resolving.append(dwarf)
    game.begin(e.place(0, dwarf, "warrior"))
    answers = 0
    with pytest.raises(CascadeError) as err:
        while game.pending is not None:
            game.answer("hunter")  # each Thrud steps onto the hunter column, where the other stands
            answers += 1
    line, col = find(HEROES, "\"instead of covered")
    here = f"rules/base/heroes.yaml:{line}:{col}"
    step = col + len('"instead of covered: ')  # (where check warned of it: tests/test_cycles.py)
    warned = f"rules/base/heroes.yaml:{line}:{step}"
    assert str(err.value) == (f"{here}: effects went deeper than {MAX_CASCADE} nested effects: `thrud`: `instead of "
                              f"covered: place self in chosen column` ({here}) -> itself again; check warned at "
                              f"{warned} that this loop stops only when a column is chosen whose top card does not "
                              "step aside, and it had not stopped yet, so the game stopped there")
    assert answers == MAX_CASCADE - 1  # one level per Thrud stepping aside


def test_the_cli_reports_a_loop_of_play_located(tmp_path, capsys, monkeypatch):
    """`play` prints it as it prints other located rules errors: no traceback, exit 1."""
    v = value_loop(tmp_path)
    rules = load_rules((), (str(v),))
    original = Game.__init__

    def dealt_skaa(self: Game, *args: Any, **kwargs: Any) -> None:  # P1 holds Skaa from the start
        original(self, *args, **kwargs)
        give(self.engine, 0, "skaa", column=None)

    monkeypatch.setattr(Game, "__init__", dealt_skaa)
    assert rules.cards["skaa"].mods  # (the variant compiled: its loop is a warning, not an error)
    code = main(["play", "--players", "2", "--seed", "3", "--variant", str(v)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err and "RecursionError" not in err
    assert _loop_text(v) in err


@pytest.mark.sources
@pytest.mark.parametrize("boxes", [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")])
def test_no_game_of_the_shipped_rules_comes_near_the_limit(boxes, monkeypatch):
    """"pick it so no real game comes near": seeded random games of each box combination, 2 to 5
    players, never nest more than MAX_CASCADE / 8 effects."""
    deepest = [0]
    enter, caused = EngineCore._enter, EngineCore._caused

    def measured(self: EngineCore, card: int, fn: Any) -> None:  # a value's level
        enter(self, card, fn)
        deepest[0] = max(deepest[0], len(self.cascade))

    def measured_run(self: EngineCore, card: int, handler: Any, ev: Any, p: int) -> Any:  # a handler's level
        deepest[0] = max(deepest[0], len(self.cascade) + 1)
        return (yield from caused(self, card, handler, ev, p))

    monkeypatch.setattr(EngineCore, "_enter", measured)
    monkeypatch.setattr(EngineCore, "_caused", measured_run)
    rules = load_rules(boxes)
    for seed in range(24):
        n = 2 + seed % 4
        game = Game(rules, n, seed)
        bots = [RandomBot(seed * 10 + k) for k in range(n)]
        while game.pending is not None:
            game.answer(bots[game.pending.player].choose(observe(game)))
        assert not violations(game.engine)
    assert 2 <= deepest[0] <= MAX_CASCADE // 8


def _treasure(top: int) -> str:
    """A Royal Treasure of one coin of each value from 6 to `top` (three of 7, 9 and 11: the base game
    removes two of each with 2 or 3 players)."""
    return "{" + ", ".join(f"{v}: {3 if v in (7, 9, 11) else 1}" for v in range(6, top + 1)) + "}"


def better_loop(tmp_path: Path, top: int, modifier: str = "") -> Path:
    """Greedy gold: each betterment betters the highest coin by 1 again (`check` warns: "stops only
    when the treasure has no better coin"), through a treasure of every value up to `top`."""
    return write(tmp_path / "loop.yaml", f"""\
        layer: {{id: loop, name: Loop}}
        game: {{coins: {{treasure: {_treasure(top)}}}}}
        cards:
          - id: skaa
            effects:
              - "whenever coin-bettered: transform highest coin by 1"
        """ + (f'      - "{modifier}"\n' if modifier else ""))


def _bettered(rules: Any, players: int = 2) -> tuple[Any, list[int]]:
    """P1 holds Skaa, coins 0 2 3 4 5; its 2 is transformed by 1 (the first betterment). Returns the
    engine and the deepest cascade reached (a list, filled as it runs)."""
    e = new_engine(players, rules=rules)
    give(e, 0, "skaa", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    deepest = [0]
    caused = e._caused

    def measured(card: int, handler: Any, ev: Any, p: int) -> Any:
        deepest[0] = max(deepest[0], len(e.cascade) + 1)
        return (yield from caused(card, handler, ev, p))

    e._caused = measured  # type: ignore[method-assign]
    return e, deepest


@pytest.mark.sources
def test_a_warned_loop_that_ends_deeper_than_64_ends(tmp_path):
    """Audit item 4: "A warned loop that ends was reported 'without end' at depth 64" — the
    words must be true; MAX_CASCADE is 256. Through a treasure of every value up to 150 the highest
    coin climbs one value a level, nests about 145 levels, and ends."""
    rules = load_rules(("idavoll",), (str(better_loop(tmp_path, 150)),))
    e, deepest = _bettered(rules)
    p = e.s.players[0]
    run(e.transform(0, p.hand[1], 1))
    assert 64 < deepest[0] < MAX_CASCADE
    # (the last step asks for 151: "if no higher values remain, take the first available lower
    # value", 149, a worse coin, and nothing is bettered: the loop ends)
    assert max(e.s.coins[c].value for c in p.hand) == 149 and e.cascade == []


@pytest.mark.sources
def test_a_warned_loop_past_the_limit_says_what_check_warned(tmp_path):
    """"a cascade past MAX_CASCADE that check warned may stop says so and where check warned": a
    treasure of values up to 400 outlasts 256 levels; the error names the loop (the effect on Skaa,
    itself again) and quotes check's warning and its place — not "without end"."""
    v = better_loop(tmp_path, 400)
    rules = load_rules(("idavoll",), (str(v),))
    assert len(rules.ruleset.loops) == 1
    e, _ = _bettered(rules)
    with pytest.raises(CascadeError) as err:
        run(e.transform(0, e.s.players[0].hand[1], 1))
    at, warned = find(v, "\"whenever"), find(v, "transform highest")
    here = f"{v}:{at[0]}:{at[1]}"
    assert str(err.value) == (f"{here}: effects went deeper than {MAX_CASCADE} nested effects: `skaa`: `whenever "
                              f"coin-bettered: transform highest coin by 1` ({here}) -> itself again; check warned at "
                              f"{v}:{warned[0]}:{warned[1]} that this loop stops only when the treasure has no better "
                              "coin, and it had not stopped yet, so the game stopped there")
    assert "without end" not in str(err.value)


@pytest.mark.sources
def test_a_value_read_on_the_way_is_not_named_a_member_of_the_loop(tmp_path):
    """"stops with a located, worded error naming the cards in the loop": a coin bettered over and
    over reads `transform_bonus` at each transformation, whose modifier runs nested inside the last
    level when the limit is reached. The error names the loop — the effect on Skaa, itself again —
    not that modifier (found by tests/test_effects_property.py: the loop named a modifier no cycle
    runs through)."""
    v = better_loop(tmp_path, 400, "modify transform_bonus + tokens")
    e, _ = _bettered(load_rules(("idavoll",), (str(v),)))
    with pytest.raises(CascadeError) as err:
        run(e.transform(0, e.s.players[0].hand[1], 1))
    at = find(v, "\"whenever")
    assert str(err.value).startswith(f"{v}:{at[0]}:{at[1]}: effects went deeper than {MAX_CASCADE} nested effects: "
                                     f"`skaa`: `whenever coin-bettered: transform highest coin by 1` "
                                     f"({v}:{at[0]}:{at[1]}) -> itself again; check warned at")
    assert "transform_bonus" not in str(err.value)


def test_a_loop_check_did_not_warn_of_says_only_that_it_went_too_deep():
    """"any other loop of effects went deeper than sound rules ever do: the game stops, but the
    error does not claim it would never have ended" (runtime/loops.py)."""
    def handler() -> Any:
        yield
    handler.__doc__ = "marker"
    from nidavellir.runtime.loops import cascade_error

    text = str(cascade_error([("skaa", handler)] * 3, ()))
    assert f"went deeper than {MAX_CASCADE} nested effects" in text and "sound rules never nest so deep" in text
    assert "without end" not in text and "check warned" not in text


def test_the_loop_is_the_part_that_repeats_innermost():
    """What the error names (runtime/loops.the_loop): the innermost stretch that repeats — entered
    through other effects (outside it), with a value read once inside its last level (after it) —
    and without a repeat, every effect once."""
    def fn(name: str) -> Any:
        def f() -> None: ...
        f.__name__ = name
        return f
    a, b, c, m = fn("a"), fn("b"), fn("c"), fn("m")
    running = [("x", a), ("y", b), ("z", c), ("y", b), ("z", c), ("y", b), ("z", c), ("w", m)]
    assert the_loop(running) == [("y", b), ("z", c)]
    assert the_loop([("x", a), ("w", m)]) == [("x", a), ("w", m)]
