"""Amounts of 0 or less (README, the effect DSL: "**Amounts** count what an action does ... A
transformation only betters: by 0 or less ... nothing happens, and likewise for every amount — 0 or
less notches do not move the token (a track only advances), tokens are not added or removed (a card
never holds fewer than 0), no card is discarded, looked at or taken, and a look keeps none. `check`
refuses an amount that is always 0 or less as the rules data stands (always below 0 for `take`:
keeping none is a way to reorder a deck), since that action could never act; `may` and
once-per-game powers are not offered while an amount is 0 or less.")

Issue 17 audit item 6: `transform chosen coin by 0 - 7` turned a 3 into a 5 (the treasure's next
higher coin answered a negative X).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from checking import expect, failed, find, run_check, write
from harness import give, new_engine, run, set_coins, values
from nidavellir.rulesets import load_rules

AMOUNT_HINT = "an amount of 0 or less does nothing (README, the effect DSL: amounts)"


def variant(tmp_path: Path, *effects: str, card: str = "skaa", game: str = "") -> Path:
    listed = "".join(f'      - "{e}"\n' for e in effects)
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + game + f"cards:\n  - id: {card}\n"
                                      f"    effects:\n{listed}")


@pytest.mark.parametrize("effect, needle, message", [
    ("when recruited: transform chosen coin by 0 - 7", "0 - 7",
     "the amount is always -7: a coin is transformed only by 1 or more, so this never transforms one"),
    ("when recruited: transform lowest coin by 0", "0\"",
     "the amount is always 0: a coin is transformed only by 1 or more, so this never transforms one"),
    ("when recruited: transform chosen coin by ranks(warrior) - 100", "ranks(warrior) - 100",
     "the amount is always -87 or less: a coin is transformed only by 1 or more, so this never transforms one"),
    ("when recruited: transform chosen coin by param(z)", "param(z)",
     "the amount is always 0: a coin is transformed only by 1 or more, so this never transforms one"),
    ("when recruited: advance track by 0 - 5", "0 - 5",
     "the number of notches is always -5: a token advances only by 1 notch or more, so this never moves it"),
    ("when recruited: add 0 - 1 token", "0 - 1",
     "the number of tokens is always -1: only 1 token or more is added, so this never adds one"),
    ("when recruited: remove 0 token", "0 token",
     "the number of tokens is always 0: only 1 token or more is removed, so this never removes one"),
    ("when recruited: discard chosen 0 dwarf in army", "0 dwarf",
     "the number of cards is always 0: only 1 card or more is discarded, so this never discards one"),
    ("when recruited: take chosen tokens card from discard", "tokens card",
     "the number of cards is always 0: only 1 card or more is taken, so this never takes one"),
    ("when recruited: look at 0 - 2 from current deck, take 1, rest shuffled", "0 - 2",
     "the number of cards is always -2: only 1 card or more is looked at, so this never looks at one"),
    ("when recruited: look at 3 from current deck, take 0 - 1, rest shuffled", "0 - 1",
     "the number of cards kept is always -1: it keeps 0 cards or more"),
])
def test_an_amount_always_zero_or_less_is_refused(capsys, tmp_path, effect, needle, message):
    """"`check` refuses an amount that is always 0 or less as the rules data stands": a constant, a
    count that cannot reach 1, a param no card modifies, tokens no effect adds; located at it."""
    v = variant(tmp_path, effect, game="game: {params: {z: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *find(v, needle), message, AMOUNT_HINT)


@pytest.mark.parametrize("effect", [
    "when recruited: transform chosen coin by ranks(warrior) - 3",
    "when recruited: look at 3 from current deck, take 0, rest under deck in chosen order",  # reorders the deck
    "when recruited: remove 5 tokens",  # (down to 0: nothing left to remove is no error)
])
def test_an_amount_that_can_act_passes(capsys, tmp_path, effect):
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and "amount" not in err and "number of" not in err, err


# -- in play: an amount of 0 or less does nothing ---------------------------------------------------------

def _engine(tmp_path: Path, *effects: str, card: str = "skaa") -> tuple[object, int]:
    v = variant(tmp_path, *effects, card=card)
    e = new_engine(2, rules=load_rules((), (str(v),)))
    c = give(e, 0, "skaa", column=None)[0]
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    return e, c


@pytest.mark.parametrize("head", ["when recruited", "may when recruited", "once per game when recruited"])
def test_a_transformation_by_zero_or_less_changes_no_coin_and_asks_nothing(tmp_path, head):
    """Audit item 6 (a 3 became a 5): `by ranks(warrior) - 3` with no warrior is -3: no coin changes,
    no coin is asked for, and a `may` or once-per-game power is not offered; with four warrior ranks
    it transforms by 1 (the 3 becomes the treasure's next coin, a 5)."""
    e, skaa = _engine(tmp_path, f"{head}: transform chosen coin by ranks(warrior) - 3")
    p = e.s.players[0]
    run(e.emit(0, "recruited", skaa))  # (strict: any decision asked fails)
    assert sorted(values(e, p.hand)) == [0, 2, 3, 4, 5]
    give(e, 0, "warrior:3", "warrior:4", "warrior:5", "warrior:6")
    answers = (["yes"] if head.startswith("may") else []) + ["3@hand"]
    run(e.emit(0, "recruited", skaa), *answers)
    assert sorted(values(e, p.hand)) == [0, 2, 4, 5, 5]  # (no treasure coin 4: the next higher, 5)


def test_a_transform_bonus_bringing_the_amount_to_zero_does_nothing(tmp_path):
    """"a transformation's `by` (the points added, `transform_bonus` included)": by 2 with a bonus of
    -2 is by 0."""
    v = variant(tmp_path, "modify transform_bonus - 2")
    e = new_engine(2, rules=load_rules((), (str(v),)))
    give(e, 0, "skaa", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    p = e.s.players[0]
    coin = p.hand[1]
    assert run(e.transform(0, coin, 2)) == coin and sorted(values(e, p.hand)) == [0, 2, 3, 4, 5]
    assert values(e, [run(e.transform(0, coin, 3))]) == [5]  # (by 1: 3, no such treasure coin: 5)


def test_tokens_by_zero_or_less_are_neither_added_nor_removed(tmp_path):
    """"tokens are not added or removed (a card never holds fewer than 0)": removing a negative
    number adds none, adding one removes none."""
    e, skaa = _engine(tmp_path, "when recruited: add ranks(warrior) - 2 token",
                      "when recruited: remove ranks(warrior) - 2 token")
    run(e.emit(0, "recruited", skaa))
    assert e.tokens(skaa) == 0
    give(e, 0, "warrior:3", "warrior:4", "warrior:5")
    run(e.emit(0, "recruited", skaa))  # adds 1, removes 1
    assert e.tokens(skaa) == 0
    e.add_tokens(skaa, 4)
    e.remove_tokens(skaa, -3)
    e.add_tokens(skaa, -3)
    assert e.tokens(skaa) == 4
    e.remove_tokens(skaa, 9)
    assert e.tokens(skaa) == 0


def test_a_track_advanced_by_zero_or_less_does_not_move(tmp_path):
    """"0 or less notches do not move the token (a track only advances)"."""
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ncards:\n  - id: skaa\n    track: [0, 5, 9]\n'
                                   '    effects: ["when recruited: advance track by ranks(warrior) - 1", "score track"]\n')
    e = new_engine(2, rules=load_rules((), (str(v),)))
    skaa = give(e, 0, "skaa", column=None)[0]
    run(e.emit(0, "recruited", skaa))
    assert e.card_score(0, skaa) == 0
    e.advance_track(skaa, 2)
    e.advance_track(skaa, -1)
    assert e.card_score(0, skaa) == 9


def test_a_discard_or_a_look_of_zero_cards_does_nothing(tmp_path):
    """"no card is discarded, looked at or taken": counts that are 0 here act on nothing and ask
    nothing."""
    e, skaa = _engine(tmp_path, "when recruited: discard chosen ranks(hunter) dwarf in army",
                      "when recruited: look at ranks(hunter) from current deck, take 1, rest shuffled")
    give(e, 0, "warrior:3")
    deck = list(e.s.decks[e.s.age])
    run(e.emit(0, "recruited", skaa))
    assert [e.s.cards[c] for c in e.s.players[0].army["warrior"]] == ["warrior:3"]
    assert e.s.decks[e.s.age] == deck
