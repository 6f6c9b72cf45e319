"""The journal keeps the kinds of record a consumer asks for, through one mechanism.

Issue 19, §3: "The journal's 41 `if …journal is not None` guards become one mechanism; recording
only the record kinds a consumer asked for must be possible." Every record is kept by
`if Kind in engine.keeps: engine.note(Kind(…))` (runtime/core.py); `Game(…, journal=KINDS)` keeps
those kinds only. What is asserted: a game that keeps some kinds plays the same and keeps exactly
the records of those kinds that the whole journal holds, in the same order, over seeded games of
every box combination; a game without a journal keeps none.
"""
from __future__ import annotations

import random

import pytest

from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.journal import ALL_KINDS, KINDS, Happening, Took, TurnStarted, kinds_of

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]
RULES = {b: load_rules(b) for b in BOXES}


def played(boxes: tuple[str, ...], players: int, seed: int, journal: object) -> Game:
    game = Game(RULES[boxes], players, seed, journal=journal)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while game.pending is not None:
        game.answer(rng.choice(game.pending.options))
    return game


@pytest.mark.parametrize("boxes", BOXES, ids=lambda b: "+".join(b) or "base")
def test_a_journal_of_some_kinds_is_the_whole_journal_filtered(boxes):
    """For random sets of kinds, the records kept are those of the whole journal of those kinds,
    and the game is the same game (its log and scores)."""
    kinds_seen: set[type[Happening]] = set()
    for seed in range(1, 9):
        players = 2 + seed % 4
        whole = played(boxes, players, seed, True)
        assert whole.engine.journal
        kinds_seen |= {type(r) for r in whole.engine.journal}
        pick = random.Random(seed)
        for _ in range(3):
            kinds = frozenset(pick.sample(sorted(ALL_KINDS, key=lambda k: k.kind), pick.randint(1, 8)))
            some = played(boxes, players, seed, kinds)
            assert some.log == whole.log and some.scores() == whole.scores()
            assert some.engine.journal == [r for r in whole.engine.journal if type(r) in kinds]
    assert len(kinds_seen) >= 15


def test_every_kind_alone_is_kept_alone():
    """Each kind asked alone (by its name) keeps exactly that kind's records."""
    boxes = ("thingvellir", "idavoll")
    whole = played(boxes, 4, 3, True).engine.journal
    assert whole is not None
    for name, cls in KINDS.items():
        alone = played(boxes, 4, 3, [name]).engine.journal
        assert alone == [r for r in whole if type(r) is cls], name


def test_no_journal_keeps_nothing_and_a_copy_keeps_the_same_kinds():
    """Without a journal nothing is kept; a copy of a game keeps the kinds its game keeps."""
    game = Game(RULES[()], 3, 5)
    assert game.engine.journal is None and not game.engine.keeps
    some = Game(RULES[()], 3, 5, journal=[Took, "turn-started"])
    rng = random.Random(5)
    for _ in range(40):
        assert some.pending is not None
        some.answer(rng.choice(some.pending.options))
    copy = some.copy()
    assert copy.engine.keeps == {Took, TurnStarted} and copy.engine.journal == some.engine.journal
    assert some.copy(journal=False).engine.journal is None


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="'tooks' is no kind of journal record"):
        kinds_of(["tooks"])
