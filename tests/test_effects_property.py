"""Issue 17, as a property over generated effects: "Any rule set that `check` accepts plays every
seeded game (2–5 players, every box combination it names) to an end whose reported scores equal
`score` of the final position", for layers whose cards' effects span the whole effect DSL
(tests/effect_gen.py: every form, action, coin, place, deck, expression and condition, `may`,
`once per game`, `then`, `each other player`, modifiers of the params the runtime reads, scores,
class formulas, division, `requires`, `enters`, `capture next`), effects that feed themselves among
them, on every box combination.

For each generated layer and each box combination it is played on:

- `check` never crashes: it accepts, or refuses with diagnostics each located (DESIGN §6:
  "`path:line:col: error: message`, followed by the source line and a caret"), never a traceback;
  its warnings are located the same way.
- A rule set it accepts plays seeded games (random answers; 2–5 players within the rules' bounds) to
  an end: the invariants (runtime/invariants.py) hold throughout; the final position is one the rules
  accept; `score` of it (runtime.position.score_position) gives the reported players and winners.
- What alone may stop such a game before its end, each only where `check` said it could:
  - a CascadeError (runtime/loops.py), only where `check` warned of a cycle that may repeat (issue 17
    §2: "warns about one that may repeat ... at run time a cascade past a fixed depth stops with a
    located, worded error naming the cards"), and naming only effects of the warned cycles: each
    member the error names is an effect a cycle warning is located at;
  - a division by zero (interface/support.py), only at a divisor `check` warned "can be 0" (issue
    17 §2: "Division by zero in the DSL: a located error (or warning where the divisor can be 0)"),
    the error located at that divisor;
  - a TurnLimit (an age that never ends, runtime/flow.py), only where `check` warned that a deck
    lasts too many turns or that the age's deck may never run out (README "Read an error": "a game
    whose cards keep it from ending is stopped after 200 turns of one age with an error located at
    the flow").
  Nothing else: any other exception (a RulesRuntimeError wrapping a Python error from a compiled
  handler among them) is a bug. A game must also end within DECISIONS answers.

Derandomized (the same cases every run); to hunt for bugs locally, NIDAVELLIR_PROPERTY_EXAMPLES runs
more of them and NIDAVELLIR_PROPERTY_SEED (not 0) draws other cases, from that seed.
"""
from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings

from effect_gen import COMBOS, cases
from property_case import Case, rule_sets
from nidavellir.compiler.diagnostics import Diagnostic, RulesError
from nidavellir.errors import RulesRuntimeError
from nidavellir.rulesets import load_rules, module_from_source, rules_of
from nidavellir.narrate import narrate
from nidavellir.runtime.flow import TurnLimit
from nidavellir.runtime.game import Game
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.loops import CascadeError
from nidavellir.runtime.position import score_position
from nidavellir.runtime.position_check import check_position
from nidavellir.session import result_of
from nidavellir.sim.facts import record_of
from test_structure_property import flow_changes

SHIPPED = {combo: load_rules(combo).ruleset for combo in COMBOS}
EXAMPLES = int(os.environ.get("NIDAVELLIR_PROPERTY_EXAMPLES", "170"))
SHIFT = int(os.environ.get("NIDAVELLIR_PROPERTY_SEED", "0"))
DECISIONS = 50_000
GAMES_PER_RULES = 2
STATS: Counter[str] = Counter()

CYCLE_WARNINGS = ("this can repeat", "where a condition lets these reads happen")
TURN_WARNINGS = ("turns with", "the age never ends")
MEMBER = re.compile(r"`([^`]+)`: `([^`]*)` \(([^()]*):(\d+):\d+\)")  # a member: its card, effect and place


def located(diagnostics: list[Diagnostic], variant: Path) -> None:
    """Each diagnostic names a place in the variant or in a shipped rules file, shows its line and a
    caret, and none is a traceback."""
    for d in diagnostics:
        text = d.format()
        assert "Traceback" not in text, text
        assert d.loc is not None and d.loc.line >= 1 and d.loc.col >= 1, text
        assert d.loc.path == str(variant) or d.loc.path.startswith("rules/"), text
        assert text.splitlines()[2].strip() == "^", text


class Warned:
    """What `check` warned a rule set's games may meet, and the effects of its cards (card id -> their
    DSL texts)."""

    def __init__(self, warnings: list[Diagnostic], effects: dict[str, list[str]]):
        self.effects = effects
        self.cycles = {(d.loc.path, d.loc.line) for d in warnings if any(w in d.message for w in CYCLE_WARNINGS)}
        self.divisors = {str(d.loc) for d in warnings if "divisor can be 0" in d.message}
        self.turns = any(w in d.message for d in warnings for w in TURN_WARNINGS)


class Stopped(Exception):
    """A game stopped the way its rules' warnings allow."""


def stop_allowed(err: Exception, warned: Warned) -> str:
    """Why `err` may stop a game of these rules (else an AssertionError says why not)."""
    text = str(err)
    assert "Traceback" not in text and "RecursionError" not in text, text
    if isinstance(err, TurnLimit):
        assert warned.turns, f"a TurnLimit that check did not warn of: {text}"
        return "turn limit"
    if isinstance(err, CascadeError):
        assert warned.cycles, f"a cascade where check warned of no cycle: {text}"
        members = MEMBER.findall(text)
        assert members, text
        for card, effect, path, line in members:
            assert effect in warned.effects.get(card, ()), f"`{card}` has no effect `{effect}`: {text}"
            assert (path, int(line)) in warned.cycles, \
                f"the cascade names `{card}` at {path}:{line}, which no cycle warning is located at: {text}"
        return "cascade"
    assert isinstance(err, RulesRuntimeError), f"{type(err).__name__}: {text}"
    where, _, rest = text.partition(": ")
    assert rest.startswith("division by zero"), f"a rules error check gave no warning of: {text}"
    assert where in warned.divisors, f"a division by zero at {where}, where check warned of none: {text}"
    return "division by zero"


def play_out(rules: Any, players: int, seed: int, warned: Warned, journal: bool = False) -> Game | str:
    """A game with random choices seeded by `seed`; or why it stopped, where its rules allow it (a
    game stopped by an error is over, its state that of the action the error cut short: the
    invariants are checked on the way, not after the stop)."""
    rng = random.Random(seed)
    game = Game(rules, players, seed, journal=journal)
    answers = 0
    try:
        while game.pending is not None:
            options = game.pending.options
            game.answer(options[rng.randrange(len(options))])
            answers += 1
            assert answers < DECISIONS, "the game does not end"
            if answers % 50 == 0:
                problems = violations(game.engine)
                assert not problems, problems
    except (TurnLimit, RulesRuntimeError) as err:
        return stop_allowed(err, warned)
    return game


def told_and_replayed(game: Game, result: dict[str, Any]) -> None:
    """What else reads a finished game: `replay --verbose` tells its journal (nidavellir/narrate.py),
    `simulate` makes its record (nidavellir/sim/facts.py), and its decision log replays to the same
    end (DESIGN §7: "The decision log (JSON lines) replays to the identical final state")."""
    assert game.engine.journal is not None
    assert narrate(game.rules, game.engine.names, game.engine.journal)
    assert record_of(game, 0, 0, ["random"] * game.engine.n)["totals"] == [p["total"] for p in result["players"]]
    again = Game(game.rules, game.engine.n, game.seed)
    for entry in game.log:
        again.answer(entry["answer"])
    assert again.pending is None and again.scores() == game.scores()


def _refused(err: RulesError, variant: Path) -> None:
    assert err.diagnostics
    located(err.diagnostics, variant)


def check_case(case: Case) -> None:
    for combo, compiled, variant in rule_sets(case, STATS, _refused):
        located(compiled.warnings, variant)
        warned = Warned(compiled.warnings, {cid: [text for text, _ in effects]
                                            for cid, effects in compiled.effects.items()})
        STATS["warned of a cycle"] += bool(warned.cycles)
        rules = rules_of(module_from_source(compiled.source, compiled.content_hash))
        assert rules is not None
        for k, (players, deal) in enumerate(case.games):
            players = min(max(players, rules.min_players), rules.max_players)
            told = k == len(case.games) - 1  # (the last keeps a journal, is told, recorded and replayed)
            game = play_out(rules, players, deal, warned, journal=told)
            if isinstance(game, str):
                STATS[f"stopped: {game}"] += 1
                continue
            STATS["games"] += 1
            problems = violations(game.engine)
            assert not problems, problems
            result = json.loads(json.dumps(result_of(game, deal)))
            assert check_position(rules, result["final"]) == []
            again = score_position(rules, result["final"])
            assert again["players"] == result["players"], f"{combo} {players} players, seed {deal}"
            assert again["winners"] == result["winners"]
            if told:
                told_and_replayed(game, result)


@seed(SHIFT)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=SHIFT == 0, database=None, print_blob=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(cases(SHIPPED, flow_changes, GAMES_PER_RULES))
def _every_generated_layer(case: Case) -> None:
    check_case(case)


def test_generated_effects_play_to_an_end_that_score_agrees_with_or_are_refused_located(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 17: "Any rule set that `check` accepts plays every seeded game ... to an end whose
    reported scores equal `score` of the final position"; a refusal is located (DESIGN §6); a game
    stops early only as its rules' warnings said it may (the module's docstring lists how)."""
    STATS.clear()
    _every_generated_layer()
    with capsys.disabled():
        stopped = ", ".join(f"{v} {k}" for k, v in sorted(STATS.items()) if k.startswith("stopped")) or "none stopped"
        print(f"\neffects property: {STATS['layers']} generated layers, {STATS['rule sets']} rule sets "
              f"({STATS['accepted']} accepted, {STATS['refused']} refused, {STATS['warned of a cycle']} warned of a "
              f"cycle), {STATS['games']} games played to the end, {stopped}")
    # The property is not vacuous: both sides of it are exercised.
    assert STATS["accepted"] >= STATS["rule sets"] // 4 and STATS["refused"] >= STATS["rule sets"] // 10
