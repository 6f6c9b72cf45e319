"""One engine state, with snapshot and restore.

Issue 19, §3: "Put every mutable field in `State`, derive indexes from it, give the engine
`snapshot()`/`restore()`, make `Game.copy()` a state copy rather than a replay … A test must fail when
a new mutable field escapes the snapshot." What is asserted, over seeded random games of every box
combination with 2 to 5 players:

- an engine holds nothing but its state and the fields it declares fixed, derived from the state,
  running effects' frames or records kept for consumers (a new attribute fails here);
- `restore` gives back everything a game changes: the state, and indexes equal to those built anew;
- a state copy shares no mutable object with the original (its copy is written from the declared types);
- a copy at a decision the flow asks (a bid, a pick) replays nothing, and it and the game it was
  copied from, answered alike, play the same game to the same end.
"""
from __future__ import annotations

import copy
import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from nidavellir.rulesets import load_rules
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.game import Game
from nidavellir.runtime.state import State

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]
RULES = {b: load_rules(b) for b in BOXES}
IDS = ["base", "thingvellir", "idavoll", "both"]
DECLARED = {"s", *Engine.CONFIGURATION, *Engine.DERIVED, *Engine.RUNNING, *Engine.KEPT}


def _play(game: Game, rng: random.Random, answers: int | None = None) -> None:
    while game.pending is not None and (answers is None or answers > 0):
        game.answer(rng.choice(game.pending.options))
        answers = None if answers is None else answers - 1


def _attributes(e: Engine) -> set[str]:
    """The attributes an engine holds: its instance dict, or, compiled (runtime/native.py), the
    attributes its classes lay out (every attribute any method sets: mypyc declares each one)."""
    if hasattr(e, "__dict__"):
        return set(vars(e))
    return {a for cls in type(e).__mro__ for a in getattr(cls, "__mypyc_attrs__", ())}


def _indexes(e: Engine) -> tuple[Any, ...]:
    """The engine's derived indexes, built (their lazy parts) for every player."""
    return (dict(e.where), [d.id for d in e.defs], [list(e.owned(p)) for p in range(e.n)],
            [{cls: e.ranks(p, cls) for cls in e.rules.classes} for p in range(e.n)],
            [e._listen_index(p, store=False) for p in range(e.n)])


@pytest.mark.parametrize("boxes", BOXES, ids=IDS)
def test_an_engine_holds_only_declared_fields(boxes):
    """Every attribute of an engine, new or at the end of a game with a journal, is its state or one it
    declares (fixed, derived, running, kept): a mutable field added anywhere else fails here."""
    for seed in (1, 2):
        game = Game(RULES[boxes], 2 + seed, seed, journal=True)
        assert _attributes(game.engine) == DECLARED
        _play(game, random.Random(seed))
        assert _attributes(game.engine) == DECLARED


@pytest.mark.parametrize("boxes", BOXES, ids=IDS)
def test_restore_gives_back_everything_a_game_changes(boxes):
    """A snapshot taken at a decision, the game played on to its end, restored: the state is as it
    was and the indexes are those the state gives (so nothing a game changes lives elsewhere)."""
    for seed in range(1, 5):
        players = 2 + seed % 4
        for stop in (3, 25, 60):
            game = Game(RULES[boxes], players, seed)
            rng = random.Random(seed)
            _play(game, rng, stop)
            e = game.engine
            before, indexes = copy.deepcopy(e.s), _indexes(e)
            saved = e.snapshot()
            _play(game, rng)
            assert e.s != before
            e.restore(saved)
            assert e.s == before
            assert _indexes(e) == indexes
            assert e.index_problems() == []
            e.restore(saved)  # (a snapshot may be restored again)
            assert e.s == before


def _mutables(value: Any, out: dict[int, str], path: str) -> None:
    if isinstance(value, (list, dict, set)) or (is_dataclass(value) and not getattr(value, "__hash__", None)):
        out[id(value)] = path
    if isinstance(value, (list, tuple, set)):
        for i, v in enumerate(value):
            _mutables(v, out, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            _mutables(v, out, f"{path}[{k!r}]")
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            _mutables(getattr(value, f.name), out, f"{path}.{f.name}")


@pytest.mark.parametrize("boxes", BOXES, ids=IDS)
def test_a_state_copy_shares_nothing_mutable(boxes):
    """`State.copy()` is equal to the state and holds no list, dict, set or player of it (at
    decisions all through a game, with marks, reservations and revealed bids in it)."""
    game = Game(RULES[boxes], 4, 3)
    rng = random.Random(3)
    every_field_seen: set[str] = set()
    while game.pending is not None:
        s = game.engine.s
        twin = s.copy()
        assert twin == s
        mine: dict[int, str] = {}
        theirs: dict[int, str] = {}
        _mutables(s, mine, "s")
        _mutables(twin, theirs, "s")
        shared = set(mine) & set(theirs)
        assert not shared, f"shared by the copy: {sorted(mine[i] for i in shared)[:5]}"
        every_field_seen.update(f.name for f in fields(State) if getattr(s, f.name))
        _play(game, rng, 7)
    assert {"marks", "players", "revealed", "pouch_shown", "arrived"} <= every_field_seen


@pytest.mark.parametrize("boxes", BOXES, ids=IDS)
def test_a_copy_at_the_flows_own_decision_replays_nothing(boxes, monkeypatch):
    """At a bid or a pick the copy is the state's copy resumed where the flow stands (no answer is
    replayed); the copy and the game, answered alike, play the same game: the same log, journal,
    scores and final state."""
    copies = 0
    for seed in range(1, 7):
        players = 2 + seed % 4
        game = Game(RULES[boxes], players, seed, journal=True)
        rng = random.Random(seed)
        twins: list[Game] = []
        while game.pending is not None:
            if game.pending.kind in ("bid", "pick") and rng.random() < 0.1:
                advanced = []
                real = Game._advance
                monkeypatch.setattr(Game, "_advance", lambda g, *a, **k: advanced.append(1) or real(g, *a, **k))
                twin = game.copy()
                monkeypatch.setattr(Game, "_advance", real)
                assert len(advanced) == 1, "a copy at the flow's own decision replayed answers"
                assert twin.pending == game.pending and twin.engine.s == game.engine.s
                twins.append(twin)
            answer = rng.choice(game.pending.options)
            for twin in twins:
                if twin.pending is not None:
                    twin.answer(answer)
            game.answer(answer)
        for twin in twins:
            copies += 1
            assert twin.pending is None
            assert twin.log == game.log and twin.scores() == game.scores()
            assert twin.engine.journal == game.engine.journal
            assert twin.engine.s == game.engine.s
    assert copies >= 10


@pytest.mark.parametrize("boxes", BOXES, ids=IDS)
def test_a_game_that_forgets_its_turns_still_copies_true(boxes):
    """A world played out and dropped keeps no state at its turns' starts (`forget_turns`, as the
    search bot's playouts do); if it is copied all the same, at any decision, the copy is the same
    game: answered alike, the same log, scores and final state."""
    for seed in range(1, 4):
        game = Game(RULES[boxes], 3, seed)
        rng = random.Random(seed)
        _play(game, rng, 40)
        game.forget_turns()
        assert game.engine.saving is False and game.engine.saved is None
        _play(game, rng, 25)
        assert game.engine.saved is None, "a game that forgot its turns saved one"
        twin = game.copy()
        assert twin.pending == game.pending and twin.engine.s == game.engine.s
        while game.pending is not None:
            answer = rng.choice(game.pending.options)
            twin.answer(answer)
            game.answer(answer)
        assert twin.pending is None and twin.log == game.log and twin.scores() == game.scores()
        assert twin.engine.s == game.engine.s
