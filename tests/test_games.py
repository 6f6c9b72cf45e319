"""Seeded random games: invariants, re-scoring, determinism and replay (DESIGN §7, §10)."""
from __future__ import annotations

import copy
import json

import pytest

from nidavellir.rulesets import load_rules
from nidavellir.runtime.bots import GreedyBot, RandomBot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.position import score_position
from nidavellir.runtime.streams import bot_seed
from nidavellir.session import result_of

RULES = load_rules()
GAMES_PER_COUNT = 200


def play(n: int, seed: int, bots=("random",), rules=RULES, check_every: int = 1) -> Game:
    kinds = {"random": RandomBot, "greedy": GreedyBot}
    seats = [kinds[bots[i % len(bots)]](bot_seed(seed, i)) for i in range(n)]
    game = Game(rules, n, seed)
    step = 0
    while game.pending is not None:
        d = game.pending
        game.answer(seats[d.player].choose(observe(game)))
        step += 1
        if check_every and step % check_every == 0:
            problems = violations(game.engine)
            assert not problems, f"seed {seed}, {n} players, decision {step}: {problems}"
    return game


def rescore(rules, final: dict) -> dict:
    """What `score` gives for a position (the command's own path)."""
    return score_position(rules, final)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_keep_invariants_and_rescore(n):
    """DESIGN §10: random games never crash, every card and coin is in exactly one place, counts
    match the rules data, and the final position re-scores to the reported totals."""
    for seed in range(GAMES_PER_COUNT):
        game = play(n, seed, check_every=7)
        assert not violations(game.engine)
        result = result_of(game, seed)
        again = rescore(RULES, result["final"])
        assert again["players"] == result["players"], f"seed {seed}"
        assert again["winners"] == result["winners"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_greedy_games_keep_invariants(n):
    """The greedy bot plays whole legal games too (mixed with random seats)."""
    for seed in range(10):
        game = play(n, seed, bots=("greedy", "random"))
        assert game.finished


def test_every_age_deck_is_used_up():
    """003: "At the end of the turn in which the Age 2 deck is exhausted, count your Final Bravery Value"."""
    for n in (2, 3, 4, 5):
        game = play(n, 11, check_every=0)
        assert all(not deck for deck in game.state.decks.values())
        assert all(not t for t in game.state.taverns)


def test_same_seed_and_decisions_give_same_log_and_scores():
    """DESIGN §7: a game is its seed plus its decisions."""
    a, b = play(3, 42), play(3, 42)
    assert a.log == b.log
    assert a.scores() == b.scores()
    c = play(3, 43)
    assert c.log != a.log


def test_replay_of_log_reaches_identical_state():
    """DESIGN §7: the decision log replays to the identical final state."""
    original = play(4, 9)
    replay = Game(RULES, 4, 9)
    for entry in json.loads(json.dumps(original.log)):
        replay.answer(entry["answer"])
    assert replay.finished
    assert replay.state == original.state
    assert replay.scores() == original.scores()


def test_final_position_is_json_and_scores_equal():
    """DESIGN §8: `play --json` adds the final position, which `score` scores to the same totals."""
    game = play(5, 3)
    result = json.loads(json.dumps(result_of(game, 3)))
    assert rescore(RULES, copy.deepcopy(result["final"]))["players"] == result["players"]
