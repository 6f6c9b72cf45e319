"""Behaviour unchanged: games, log replays and rendered references as the recorded revision made them.

Issue 19: "Do this as one redesign, behaviour unchanged (every seeded game, log and rendered
reference identical before and after, asserted)" and "Every seeded game, log replay and rendered
reference of every box combination is identical to those of the revision this issue starts from (a
test compares digests over ≥ 1,000 games)". tests/behaviour_digest.py says what is digested;
tests/data/behaviour_digests.json holds the recorded revision's digests. A change of behaviour that
is meant is recorded again with `python tests/behaviour_digest.py --write`, and said in its commit.
"""
from __future__ import annotations

import pytest
from behaviour_digest import (
    BOXES,
    GAMES_PER_GROUP,
    PLAYERS,
    game_digest,
    groups,
    recorded,
)

RECORDED = recorded()
GROUPS = dict(groups())


def test_the_recorded_digests_cover_every_group_and_at_least_1000_games():
    """The recorded file holds every group this revision digests, and ≥ 1,000 games."""
    assert sorted(RECORDED["groups"]) == sorted(GROUPS)
    games = sum(len(v) for k, v in RECORDED["groups"].items() if k.startswith("games/"))
    assert games >= 1000
    assert len(BOXES) * len(PLAYERS) * GAMES_PER_GROUP >= 1000


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_behaviour_is_as_recorded(name):
    """Each group's digests equal the recorded revision's; a game group names the first seed that
    differs."""
    now = GROUPS[name]()
    old = RECORDED["groups"].get(name)
    if name.startswith("games/") and old is not None and now != old:
        first = next(i for i, (a, b) in enumerate(zip(now, old)) if a != b) if len(now) == len(old) else None
        pytest.fail(f"{name}: seed {first + 1 if first is not None else '?'} plays differently from revision "
                    f"{RECORDED['revision']} (python tests/behaviour_digest.py shows every group that differs)")
    assert now == old, f"{name} differs from revision {RECORDED['revision']}"


def test_a_digest_tells_games_apart():
    """The digest is of the game played: another seed, another bot or the journal told gives another."""
    from nidavellir.rulesets import load_rules

    rules = load_rules()
    one = game_digest(rules, 3, 1, "random", False)
    assert one == game_digest(rules, 3, 1, "random", False)
    assert len({one, game_digest(rules, 3, 2, "random", False), game_digest(rules, 3, 1, "greedy", False),
                game_digest(rules, 3, 1, "random", True)}) == 4
