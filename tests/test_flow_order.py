"""Issue 17 §1: "Ages (and every other ordered list of the structure: steps, tavern steps, windows)
must be checked for what the runtime assumes of them, or the runtime must not assume it." One test
per assumption (compiler/flow_order.py lists them): refused with a located error, warned of, or
made unnecessary in the runtime — and the rules that pass play to an end that `score` agrees with."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from checking import ROOT, expect, expect_warning, failed, find, run_check, write
from harness import new_engine, run_log, set_coins, values
from nidavellir.cli import main
from nidavellir.rulesets import load_rules
from nidavellir.runtime.flow import bid_order, bids
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.position import score_position
from nidavellir.session import result_of
from test_games import play

GAME = "rules/base/game.yaml"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # (shipped files are shown as rules/…: their lines are read from here)


def variant(tmp_path: Path, body: str) -> Path:
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + body)


def plays_and_scores_agree(rules, seeds=range(3)) -> None:
    """Seeded random games end, keep the invariants, and `score` of the final position gives the
    reported players and winners (issue 17 §1)."""
    for n in range(rules.min_players, rules.max_players + 1):
        for seed in seeds:
            game = play(n, seed, rules=rules, check_every=25)
            assert game.finished and not violations(game.engine)
            result = json.loads(json.dumps(result_of(game, seed)))
            again = score_position(rules, result["final"])
            assert (again["players"], again["winners"]) == (result["players"], result["winners"]), (n, seed)


def at(path: Path | str, needle: str, offset: int = 0) -> tuple[int, int]:
    line, col = find(Path(path), needle)
    return line, col + offset


# -- ages ------------------------------------------------------------------------------------------

def test_ages_played_backwards_with_the_base_steps_are_refused(capsys, tmp_path):
    """The issue's reproduction: `game.ages: [2, 1]` was accepted and `play` scored after the first
    age played. The final scoring (`ages: [2]`) and the window before it would run before Age 1."""
    v = variant(tmp_path, "game: {ages: [2, 1]}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    ages = f"(ages: [2, 1], at {v}:2:14)"
    expect(err, GAME, *at(GAME, "final-scoring, ages: [2]", 21),
           f"`final-scoring` scores the game at the end of Age 2, before Age 1 is played: the game ends with "
           f"the last age {ages}", "give it `ages: [1]`: the game is scored once, at the end of the last age")
    expect(err, GAME, *at(GAME, "before_scoring: [game-end]", 17),
           "`before_scoring` names `game-end`, which does not open at the end of the last age (Age 1) before "
           f"the final scoring: `score` would apply a step the game does not take before it is scored {ages}",
           "name windows that do (here: `age-end`), or move `game-end` there")
    expect_warning(err, v, 2, 14, "the ages are played in the order listed: Age 2 before Age 1")


def test_ages_reordered_with_their_steps_play_to_the_real_end(capsys, tmp_path):
    """Ages play in the order listed (runtime/flow.py): with the steps moved with them, Age 2's deck is
    played first, the distinctions after it, and the game is scored at the end of Age 1, the last."""
    v = variant(tmp_path, """\
game:
  ages: [2, 1]
  flow:
    age_end:
      - {id: troop-evaluation, ages: [2]}
      - {id: game-end, ages: [1]}
      - {id: final-scoring, ages: [1]}
""")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, 3, 9, "the ages are played in the order listed: Age 2 before Age 1")
    rules = load_rules((), (str(v),))
    game = play(3, 1, rules=rules)
    assert all(not deck for deck in game.state.decks.values())  # both ages were played before the scoring
    plays_and_scores_agree(rules)


def test_a_step_that_runs_in_no_age_is_refused(capsys, tmp_path):
    """A step with `ages: []` would never run: a rule that compiles but cannot act."""
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: never, window: never, ages: []}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *at(v, "[]}"), "the step `never` runs in no age (`ages: []`)",
           "list the ages it runs in, or leave `ages` out for every age, or remove the step (`remove: true`)")


# -- the final scoring -----------------------------------------------------------------------------

def test_a_final_scoring_in_every_age_is_refused(capsys, tmp_path):
    """003 "End of Age 2": the Final Bravery Value is counted at the end of the last age; a
    `final-scoring` without `ages` would score the game after Age 1."""
    v = variant(tmp_path, """\
game:
  flow:
    age_end:
      - {id: final-scoring, remove: true}
      - {id: the-count, do: final-scoring}
""")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *at(v, "the-count"), "`the-count` scores the game at the end of every age, before Age 2 is "
                                        f"played: the game ends with the last age (ages: [1, 2], at {GAME}:20:9)",
           "give it `ages: [2]`: the game is scored once, at the end of the last age")


def test_scoring_twice_and_steps_after_the_scoring_are_refused(capsys, tmp_path):
    """The game is scored once, and nothing that may change what a player holds comes after it (it
    would not be counted, and `score` of the final position would disagree with the reported one)."""
    v = variant(tmp_path, """\
game:
  flow:
    age_end:
      - {id: again, do: final-scoring, ages: [2]}
      - {id: too-late, window: too-late}
      - {id: evaluation-too, do: troop-evaluation}
""")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 3)
    first = f"{GAME}:{at(GAME, 'do: final-scoring')[0]}:{at(GAME, 'do: final-scoring', 4)[1]}"
    expect(err, v, *at(v, "final-scoring"), f"the game is scored twice at the end of Age 2 (first by "
                                            f"`final-scoring`, at {first})", "keep one `final-scoring` step")
    for step in ("too-late", "evaluation-too"):
        expect(err, v, *at(v, step), f"`{step}` runs after the final scoring (`final-scoring`) at the end of "
                                     "Age 2: what it does would not be counted",
               "place it before the scoring: `before: final-scoring`")


def test_steps_that_only_move_shared_cards_may_follow_the_scoring(capsys, tmp_path):
    """A `clear` of shared zones (events.py SHARED_ZONE_STEPS) changes no player's score."""
    v = variant(tmp_path, "game:\n  flow:\n    age_end:\n      - {id: tidy, do: clear, zone: discard, into: box}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    plays_and_scores_agree(load_rules((), (str(v),)), seeds=[4])


def test_without_a_final_scoring_step_the_game_is_scored_at_its_end(tmp_path):
    """The runtime does not need the step: with none, the scores are counted when the flow ends."""
    v = variant(tmp_path, "game:\n  flow:\n    age_end:\n      - {id: final-scoring, remove: true}\n")
    rules = load_rules((), (str(v),))
    assert "final-scoring" not in [s.do for s in rules.ruleset.age_end]
    plays_and_scores_agree(rules, seeds=[2])


# -- where steps belong ----------------------------------------------------------------------------

def test_turn_steps_and_the_final_scoring_stay_in_their_part(capsys, tmp_path):
    """Cards enter, bids and their resolution make a turn; the final scoring ends an age (events.py
    STEP_PARTS): elsewhere they would run on an empty deck, leave coins on the taverns, or score
    the game in its first turn."""
    v = variant(tmp_path, """\
game:
  flow:
    turn:
      - {id: scored-early, do: final-scoring, after: bids}
    age_end:
      - {id: bid-at-the-end, do: bids, before: age-end}
""")
    code, out, err = run_check(capsys, str(v))
    assert code == 1 and "Traceback" not in err
    expect(err, v, *at(v, "final-scoring,"), "`final-scoring` is a step of an age's end (`flow.age_end`), not of "
                                             "a turn (`flow.turn`)", "move it to `flow.age_end`")
    expect(err, v, *at(v, "bids, before"), "`bids` is a step of a turn (`flow.turn`), not of an age's end "
                                           "(`flow.age_end`)", "move it to `flow.turn`")


# -- the bid cycle ---------------------------------------------------------------------------------

def test_bids_again_before_the_taverns_are_resolved_is_refused_where_the_layer_wrote_it(capsys, tmp_path):
    """003 "Bids": each player puts one coin on each tavern, and gets the coins back once the taverns
    are resolved; a second `bids` before that finds no coin in hand (it was an IndexError in play)."""
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: bids-again, do: bids, after: taverns}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    theirs = f"{GAME}:{at(GAME, 'do: bids}')[0]}:{at(GAME, 'do: bids}', 4)[1]}"
    expect(err, v, *at(v, "taverns}"), f"`bids` (at {theirs}) runs while the coins `bids-again` (at "
                                       f"{v}:{at(v, 'bids,')[0]}:{at(v, 'bids,')[1]}) placed are still on the "
                                       "taverns (Age 1): no `resolve-taverns` returns them to the hands in "
                                       "between, so no player has a coin to bid",
           "resolve the taverns between two bids: a turn runs `bids`, then `resolve-taverns`")


def test_a_turn_without_a_resolution_bids_once_only(capsys, tmp_path):
    """Without `resolve-taverns`, the second turn's `bids` would find the first turn's coins placed."""
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: taverns, remove: true}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, GAME, *at(GAME, "do: bids}", 4), "`bids` runs again while the coins it placed are still on the "
                                                 "taverns (Age 1): no `resolve-taverns` returns them to the hands "
                                                 "in between, so no player has a coin to bid",
           "resolve the taverns between two bids: a turn runs `bids`, then `resolve-taverns`")


def test_resolving_before_the_bids_and_the_deal_is_legal_but_warned_of(capsys, tmp_path):
    """Legal but likely wrong: the taverns resolved with the last turn's bids, on cards dealt the turn
    before. Located at the steps the variant moved; such a game still plays to an end `score` agrees
    with."""
    v = variant(tmp_path, """\
game:
  flow:
    turn:
      - {id: bids, after: taverns}
      - {id: enter-dwarves, after: bids}
""")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *at(v, "taverns}"), "the taverns are resolved before the turn's bids: with the "
                                                   "bids of the turn before (none in the first turn)")
    expect_warning(err, v, *at(v, "bids}"), "the taverns are resolved before any card enters them in the "
                                                "turn: the cards wait for the next turn, and the last turn's are "
                                                "never taken")
    plays_and_scores_agree(load_rules((), (str(v),)), seeds=[1])


def test_no_bids_or_no_resolution_is_warned_of(capsys, tmp_path):
    """A turn that never bids (or never resolves) takes no card: legal, likely wrong."""
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: bids, remove: true}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, GAME, *at(GAME, "do: resolve-taverns", 4),
                   "no step of a turn places bids in Age 1: the taverns are resolved with no bid, and no card is "
                   "taken")
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: bids, remove: true}\n"
                          "      - {id: taverns, remove: true}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    assert "warning: no step of a turn resolves the taverns in Age 1: no card is ever taken" in err


# -- a tavern's resolution -------------------------------------------------------------------------

def test_tavern_steps_out_of_order_are_warned_of(capsys, tmp_path):
    """003 "Taverns Resolution": the bids (Uline's from hand too) come before the picks, and the cards
    left are discarded after them."""
    v = variant(tmp_path, """\
game:
  flow:
    tavern:
      - {id: late-bids, after: picks}
      - {id: swept, do: clear, zone: tavern, into: discard, before: picks}
""")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *at(v, "picks}"), "`late-bids` comes after `picks`: a player who bids from hand "
                                                 "places the coin once the cards are taken, and takes none")
    expect_warning(err, v, *at(v, "tavern,"), "`swept` clears the tavern before its cards are picked: nothing is "
                                              "left to take")


def test_no_late_bids_while_a_card_bids_from_hand_is_warned_of(capsys, tmp_path):
    """Uline "modify bid_from_hand + 1" keeps her owner's coins in hand for `late-bids`; without that
    step the owner never bids."""
    v = variant(tmp_path, "game:\n  flow:\n    tavern:\n      - {id: late-bids, remove: true}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    assert ("warning: no `late-bids` step, but a player may bid from hand (`bid_from_hand`): that player never "
            "places a coin") in err


# -- before scoring and windows --------------------------------------------------------------------

def test_before_scoring_names_the_windows_at_the_end_before_the_scoring(capsys, tmp_path):
    """DESIGN §8: `score` applies "steps that the rules take before scoring": a window of the turns is
    not one. (A window named twice is refused with every repeated item of the structure's lists:
    tests/test_structure_lists.py.)"""
    v = variant(tmp_path, "game:\n  flow:\n    before_scoring: [game-end, turn-end]\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *at(v, "turn-end"), "`before_scoring` names `turn-end`, which does not open at the end of the "
                                       "last age (Age 2) before the final scoring: `score` would apply a step the "
                                       f"game does not take before it is scored (ages: [1, 2], at {GAME}:20:9)",
           "name windows that do (here: `age-end`, `game-end`), or move `turn-end` there")


def test_before_scoring_is_applied_in_the_flows_order(tmp_path):
    """The runtime does not need `before_scoring` in order: the windows are applied as the flow opens
    them (002 "End of Each Age": Thrud's return before the points are counted)."""
    v = variant(tmp_path, "game:\n  flow:\n    before_scoring: [counting, game-end]\n")
    rules = load_rules(("thingvellir",), (str(v),))
    assert rules.ruleset.before_scoring == ("game-end", "counting")


def test_a_window_opened_at_two_steps_is_warned_of(capsys, tmp_path):
    """A window is an event by name: opened at two steps, its cards act at both."""
    v = variant(tmp_path, "game:\n  flow:\n    age_end:\n      - {id: again, window: age-end, before: game-end}\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    where = f"{GAME}:{at(GAME, 'window: age-end')[0]}:{at(GAME, 'window: age-end', 8)[1]}"
    expect_warning(err, v, *at(v, "age-end,"), f"the window `age-end` opens at two steps (`age-end`, at {where}, "
                                               "and `again`): the cards that wait for it act at each")


# -- moving a step of an earlier layer -------------------------------------------------------------

def test_a_step_of_an_earlier_layer_moves_to_its_new_place(capsys, tmp_path):
    """README "Rules are composed from ordered layers": a later layer "may insert flow steps with
    `before:`/`after:`"; given for a step that exists, it moves the step (it was silently ignored)."""
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: turn-end, before: bids}\n")
    rules = load_rules((), (str(v),))
    assert [s.id for s in rules.ruleset.turn] == ["enter-dwarves", "dwarves-entered", "turn-end", "bids", "taverns"]
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: turn-end, after: turn-end}\n"
                          "      - {id: bids, after: bidz}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    expect(err, v, *at(v, "after: turn-end", 7), "flow step `turn-end` cannot go after itself",
           "name the step it goes before or after")
    expect(err, v, *at(v, "after: bidz", 7), "no flow step `bidz` to move `bids` after", "did you mean `bids`?")


# -- what `score` applies to the final position of a game that ended -------------------------------

TOKENS = """\
cards:
  - id: skaa
    effects:
      - "when game-end: add 5 tokens"
      - "score tokens"
"""


def test_a_final_position_is_not_taken_through_the_end_steps_again(tmp_path, capsys):
    """DESIGN §8: `play --json`'s final position is one "which `score` scores to the same totals".
    A before-scoring window whose effect is not idempotent (tokens added at the game's end) was
    applied a second time by `score`; the final position now says the game ended (`ended: true`),
    and `score` applies the steps before scoring only to a position that did not end."""
    v = variant(tmp_path, TOKENS)
    rules = load_rules((), (str(v),))
    held = 0
    for seed in range(12):
        game = play(3, seed, rules=rules)
        final = json.loads(json.dumps(result_of(game, seed)))["final"]
        assert final["ended"] is True
        assert score_position(rules, final)["players"] == game.scores()["players"]
        owner = [p for p, pl in enumerate(final["players"]) if {"card": "skaa", "tokens": 5} in pl["command_zone"]]
        if owner:  # as if the game ended now: a position that did not end takes the window
            held += 1
            fresh = {k: v for k, v in final.items() if k != "ended"}
            again = score_position(rules, fresh)["players"][owner[0]]["total"]
            assert again == game.scores()["players"][owner[0]]["total"] + 5
    assert held  # (the property was tried on a game where Skaa was recruited)
    path = tmp_path / "final.json"
    path.write_text(json.dumps({"ended": 1, "players": [{"name": "A", "coins": [0]}, {"name": "B", "coins": [0]}]}))
    assert main(["score", str(path)]) == 1
    assert f"{path}:1:11: error: expected boolean" in capsys.readouterr().err


# -- a player with fewer coins than taverns --------------------------------------------------------

def test_a_player_with_fewer_coins_than_taverns_bids_on_the_first_taverns():
    """003 "Bids": "each player secretly puts one coin on each tavern". A player whose coins were
    discarded below the number of taverns puts one on each of the first taverns (the later get no
    bid from them, as a tavern after Járnglófi's discard, DESIGN §9); it was an IndexError."""
    e = new_engine(3)
    set_coins(e, 0, hand=[2, 5])
    asked = run_log(bids(e), [5, 2], [5, 4, 3], [5, 4, 3])
    assert set(asked[0].options) == {(2, 5), (5, 2)}
    assert values(e, e.s.players[0].slots) == [5, 2, None] and e.s.players[0].pouch == []
    e.s.tavern, e.s.revealed = 2, None
    assert 0 not in bid_order(e)  # no card for them in the third tavern


def test_games_with_effects_that_discard_coins_play_to_an_end(tmp_path):
    """The same, in whole seeded games: a dwarf that discards two of its taker's coins."""
    v = variant(tmp_path, "cards:\n  - id: hunter\n"
                          '    effects: ["when taken: discard lowest coin; discard lowest coin"]\n')
    plays_and_scores_agree(load_rules((), (str(v),)), seeds=[1, 2])
