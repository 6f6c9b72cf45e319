"""An action that goes through a set of coins or cards while a trigger changes that set goes through
a snapshot (issue 17 §2): "every action that iterates over a set of coins or cards … iterates a
snapshot taken at the start and skips members that have left the set (a coin no longer held or
already replaced, a card no longer where it was)". The issue's example: Hrungnir's `transform each
coin by 2` held with a card that transforms a coin on each betterment (`ValueError: 38 is not in
list` before).

For each action that goes through a set and fires an event on each member, a card is written whose
trigger takes a later member out of the set while the first is handled; the game must go on, keep
every card and coin in one place, and leave the member that left alone.
"""
from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from checking import write
from harness import give, new_engine, pull, run, set_coins, values
from nidavellir.compiler.dsl import parse_effect
from nidavellir.compiler.emit import CardEmitter
from nidavellir.rulesets import load_rules
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.invariants import violations
from test_dsl_patterns import PATTERNS

ROOT = Path(__file__).resolve().parent.parent
EVENTS = "game:\n  events: {coin-bettered: a coin is bettered, discarded: a card is about to be discarded}\n"


@dataclass
class Case:
    cards: str                                  # the variant's cards: the acting card and the one that disturbs
    run: Callable[[Engine], Any]                # sets the scene, runs the action; returns what `check` reads
    check: Callable[[Engine, Any], None]        # the member that left was left alone
    boxes: tuple[str, ...] = ()


def _each_coin(e: Engine) -> Any:
    """Hrungnir's `transform each coin by 2` (in board order); Skaa transforms the lowest coin by 1
    on each betterment, so the second coin is replaced before its turn."""
    giant, = give(e, 0, "hrungnir", column=None)
    give(e, 0, "skaa", column=None)
    set_coins(e, 0, hand=[3, 2, 4, 0])
    start = list(e.s.players[0].hand)
    by_giant: list[int] = []
    transform = e.transform

    def spied(p: int, coin: int, amount: int) -> Any:
        if e.cause() == "hrungnir":
            by_giant.append(coin)
        return (yield from transform(p, coin, amount))

    e.transform = spied  # type: ignore[method-assign]
    e.journal = []  # (the engine keeps the causes of what happens while journalling)
    run(e.emit(0, "captured", giant))
    return start, by_giant


def _each_coin_checked(e: Engine, got: Any) -> None:
    start, by_giant = got
    assert by_giant[0] == start[0] and start[1] not in by_giant  # the 2 was bettered by Skaa first: skipped
    assert set(by_giant) <= set(start[:3])                    # (the trading 0 never transforms)
    assert all(v is not None and v > 0 for v in values(e, e.s.players[0].hand)[:3])


def _chosen_cards(e: Engine) -> Any:
    """`discard chosen 2 last dwarf of other columns` picks the warrior and the hunter on top; the
    warrior, about to be discarded, discards the hunter instead of itself."""
    hero, = give(e, 0, "skaa", column=None)
    warrior, hunter = give(e, 0, "warrior:3", "hunter")
    run(e.emit(0, "recruited", hero), "warrior:3@warrior")  # (the hunter, the one left, is taken without asking)
    return warrior, hunter


def _chosen_cards_checked(e: Engine, got: Any) -> None:
    warrior, hunter = got
    assert e.column_of(warrior) == "warrior"  # its replacement kept it
    assert e.s.discard.count(hunter) == 1      # discarded once, by the replacement; the discard skipped it


def _listeners(e: Engine) -> Any:
    """`whenever taken` of the owner's cards, in order: Skaa (command zone) discards the hunter,
    whose own `whenever taken` comes next."""
    give(e, 0, "skaa", column=None)
    hunter, = give(e, 0, "hunter")
    taken = pull(e, "warrior:3")
    run(e.take_card(0, taken))
    return hunter


def _left_alone(e: Engine, hunter: Any) -> None:
    assert e.s.discard.count(hunter) == 1 and e.tokens(hunter) == 0  # it left before its turn: no token


def _window(e: Engine) -> Any:
    give(e, 0, "skaa", column=None)
    hunter, = give(e, 0, "hunter")
    run(e.window("age-end"))
    return hunter


CASES = {
    "each coin": Case('  - {id: skaa, effects: ["whenever coin-bettered: transform lowest coin by 1"]}\n',
                      _each_coin, _each_coin_checked, ("idavoll",)),
    "chosen cards": Case('  - {id: skaa, effects: ["when recruited: discard chosen 2 last dwarf of other columns"]}\n'
                         '  - {id: warrior:3, effects: ["instead of discarded: discard chosen 1 last dwarf of '
                         'column hunter"]}\n', _chosen_cards, _chosen_cards_checked),
    "owner's listeners": Case('  - {id: skaa, effects: ["whenever taken: discard chosen 1 non-hero in column hunter"]}\n'
                              '  - {id: hunter, effects: ["whenever taken: add 1 token"]}\n', _listeners, _left_alone),
    "window listeners": Case('  - {id: skaa, effects: ["when age-end: discard chosen 1 non-hero in column hunter"]}\n'
                             '  - {id: hunter, effects: ["when age-end: add 1 token"]}\n', _window, _left_alone),
}


@pytest.mark.sources
@pytest.mark.parametrize("name", list(CASES))
def test_a_trigger_that_changes_the_set_mid_iteration(name, tmp_path):
    case = CASES[name]
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + EVENTS + "cards:\n" + case.cards)
    e = new_engine(3, rules=load_rules(case.boxes, (str(v),)))
    got = case.run(e)
    assert violations(e) == []
    case.check(e, got)


def _loops(source: str) -> list[ast.For]:
    return [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.For)]


SNAPSHOTS = {"each_coin", "each_card", "other_players"}  # (players never leave a game)


def test_every_loop_of_compiled_effects_goes_through_a_snapshot():
    """The class, in the code the compiler writes: every `for` of a handler goes through the
    engine's snapshot of the set (`each_coin`, `each_card`), or the other players — for the shipped
    rules and every effect pattern of the DSL. And each kind of snapshot has a case above."""
    sources = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "generated").glob("rules_*.py"))]
    for i, text in enumerate(PATTERNS.values()):
        emitter = CardEmitter("card")
        emitter.effect(i, parse_effect(text), "f:1:1", text, lambda pos: "f:1:1")
        sources.append("\n".join(emitter.w.lines))
    used: set[str] = set()
    for source in sources:
        for loop in _loops(source):
            call = loop.iter
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "g" \
                and call.func.attr in SNAPSHOTS, ast.unparse(loop.iter)
            used.add(call.func.attr)
    assert used == SNAPSHOTS
