"""The game as an API: decisions with every legal option, illegal answers refused (DESIGN §7)."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from nidavellir.rulesets import load_rules
from nidavellir.interface.decisions import CardChoice, CoinChoice, find_option, to_json
from nidavellir.runtime.decisions import GameOver, IllegalAnswer
from nidavellir.runtime.game import Game

RULES = load_rules()
RUNTIME = Path(__file__).resolve().parent.parent / "runtime"


def test_first_decision_is_a_bid_with_every_legal_option():
    """003 "Bids": "From your 5 coins, place one coin of your choosing face down on each of the
    three Tavern locations": 5 × 4 × 3 = 60 ordered choices of distinct coins."""
    game = Game(RULES, 3, seed=1)
    d = game.pending
    assert d.kind == "bid" and d.player == 0
    assert len(d.options) == 60
    assert all(len(set(o)) == 3 and set(o) <= {0, 2, 3, 4, 5} for o in d.options)


@pytest.mark.parametrize("bad", [[9, 9, 9], [0, 0, 2], "warrior:3", None, 7, [0, 2]])
def test_illegal_answer_is_refused_and_changes_nothing(bad):
    """DESIGN §7: "An illegal answer is refused with a clear error and changes nothing"."""
    game = Game(RULES, 3, seed=5)
    for _ in range(4):  # into the game: bids done, a tavern choice pending
        game.answer(game.pending.options[0])
    before_state = copy.deepcopy(game.state)
    before_pending = game.pending
    before_log = list(game.log)
    with pytest.raises(IllegalAnswer) as err:
        game.answer(bad)
    assert "not a legal answer" in str(err.value) and game.pending.kind in str(err.value)
    assert game.state == before_state
    assert game.pending is before_pending
    assert game.log == before_log
    game.answer(game.pending.options[0])  # the game goes on


def test_answer_after_the_end_is_refused():
    game = Game(RULES, 2, seed=3)
    while game.pending is not None:
        game.answer(game.pending.options[-1])
    with pytest.raises(GameOver):
        game.answer(0)
    assert game.scores()["winners"]


def test_tuple_answers_match_list_options():
    game = Game(RULES, 2, seed=3)
    game.answer(tuple(game.pending.options[0]))
    assert isinstance(game.log[0]["answer"], list)


def test_runtime_names_no_card():
    """DESIGN §7: "No card id or card name of any box appears in runtime/ code"."""
    words = set()
    for cid, card in RULES.cards.items():
        words.add(cid)
        if card.kind == "hero":
            words.add(card.name.split()[0].lower())  # "Thrud the Headhunter" -> thrud
    words -= set(RULES.classes)  # class names are data the runtime reads (dwarf ids `hunter`, …)
    hits = []
    for path in RUNTIME.rglob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        for word in words:
            if re.search(rf"(?<![a-z_-]){re.escape(word)}(?![a-z_-])", text):
                hits.append(f"{path.name}: {word}")
    assert not hits, hits


def test_public_api_plays_a_game():
    """DESIGN §3: a small front package holds the public API."""
    import nidavellir

    game = nidavellir.Game(nidavellir.load_rules(), 4, seed=2)
    while game.pending is not None:
        assert isinstance(game.pending, nidavellir.Decision)
        game.answer(game.pending.options[-1])
    assert len(game.scores()["players"]) == 4
    with pytest.raises(AttributeError):
        nidavellir.no_such_thing  # noqa: B018


# -- answers, the log, copies ----------------------------------------------------------------------

def _to_a_power_or_bid(game: Game) -> None:
    while game.pending is not None and game.pending.kind != "bid":
        game.answer(game.pending.options[0])


@pytest.mark.parametrize("bad", [[0.0, 2, 3], [False, 2, 3], [True, 2, 3], ["0", "2", "3"], {"bid": [0, 2, 3]},
                                 [0, 2, 3, 4]])
def test_answers_are_type_strict(bad):
    """Issue: "Answers: type-strict (`False` is not `0`, `2.0` is not `2`)"; a refused answer leaves
    state and log unchanged."""
    game = Game(RULES, 3, seed=7)
    assert game.pending.kind == "bid" and (0, 2, 3) in game.pending.options
    before_state, before_log = copy.deepcopy(game.state), game.log
    with pytest.raises(IllegalAnswer):
        game.answer(bad)
    assert game.state == before_state and game.log == before_log
    game.answer([0, 2, 3])              # the JSON form of the option (0, 2, 3) is accepted
    assert game.log[-1]["answer"] == [0, 2, 3]


def test_a_caller_cannot_change_the_pending_decision():
    """Issue: "the engine validates against its own copy of the options, so a caller mutating
    `pending` cannot corrupt the game"."""
    game = Game(RULES, 3, seed=7)
    d = game.pending
    with pytest.raises(AttributeError):
        d.options = ((9, 9, 9),)  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        d.options[0] = (9, 9, 9)  # type: ignore[index]
    with pytest.raises(IllegalAnswer):
        game.answer([9, 9, 9])


def test_each_log_line_carries_the_age_and_turn_it_was_made_in():
    """Issue: "Each decision line of the log carries the age and turn it was made in"."""
    game = Game(RULES, 2, seed=11)
    seen = []
    while game.pending is not None:
        seen.append((game.state.age, game.state.turn))
        game.answer(game.pending.options[-1])
    log = game.log
    assert [(entry["age"], entry["turn"]) for entry in log] == seen
    assert {entry["age"] for entry in log} == {1, 2} and max(entry["turn"] for entry in log) >= 4


def _finish(game: Game, pick: int = 0) -> dict:
    while game.pending is not None:
        game.answer(game.pending.options[pick % len(game.pending.options)])
        pick += 7
    return dict(game.scores())


def test_a_copy_is_independent_and_plays_on_identically():
    """Issue: "`Game.copy()` (cheap, independent) so bots can look ahead without mutating the engine":
    the copy answers differently without touching the original; answering both alike ends alike."""
    game = Game(RULES, 3, seed=5)
    for _ in range(40):
        game.answer(game.pending.options[0])
    state, log = copy.deepcopy(game.state), game.log
    look = game.copy()
    assert look.pending == game.pending and look.log == log
    _finish(look, pick=3)                           # look ahead on the copy, differently
    assert game.state == state and game.log == log  # the original is untouched
    same = game.copy()
    assert _finish(same) == _finish(game)


def test_copies_of_copies_and_copies_at_every_point_replay_the_same_game():
    reference = Game(RULES, 4, seed=9)
    final = _finish(reference)
    game = Game(RULES, 4, seed=9)
    pick = 0
    while game.pending is not None:
        if pick % 13 == 0:
            assert _finish(game.copy().copy(), pick) == final
        game.answer(game.pending.options[pick % len(game.pending.options)])
        pick += 7
    assert dict(game.scores()) == final
    assert game.copy().pending is None and dict(game.copy().scores()) == final


OPTION_TYPES = {"bid": tuple, "pick": CardChoice, "hero": CardChoice, "card": CardChoice, "coin": CoinChoice,
                "trade-coin": CoinChoice, "column": str, "class": str, "use": bool, "place-bid": int}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_decision_options_are_typed_values(players):
    """Issue: "Decision options are typed values (no "5@hand" strings parsed back with split("@"))":
    each kind of decision offers one type of immutable value, and its JSON form names it back."""
    seen = set()
    for seed in range(1, 16):
        game = Game(RULES, players, seed)
        pick = seed
        while game.pending is not None:
            d = game.pending
            assert isinstance(d.options, tuple) and d.kind in OPTION_TYPES, d.kind
            for option in d.options:
                assert type(option) is OPTION_TYPES[d.kind], (d.kind, option)
                assert find_option(d.options, to_json(option)) == d.options.index(option)
            seen.add(d.kind)
            game.answer(d.options[pick % len(d.options)])
            pick += 3
    assert {"bid", "pick", "hero", "coin", "column"} <= seen


def test_no_option_is_parsed_back_from_a_string():
    for folder in (RUNTIME, RUNTIME.parent / "nidavellir"):
        for path in folder.rglob("*.py"):
            assert 'split("@")' not in path.read_text(encoding="utf-8"), path
