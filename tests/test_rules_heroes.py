"""Scenario tests: recruiting heroes and every hero's power (003 "Recruiting a Hero", "Heroes").

Each test quotes the rule sentence it checks from 003_87e0c83f3aec659f.txt (or an
`interpretations:` entry of rules/base/*.yaml / DESIGN §9).
"""
from __future__ import annotations

import pytest

from harness import fill_tavern, give, ids, new_engine, pull, run, run_log, set_coins, shown, values

from nidavellir.runtime.flow import bids, resolve_taverns, troop_evaluation
from nidavellir.runtime.scoring import player_score

ALL_HEROES = ["aegur", "aral", "astrid", "bonfur", "dagda", "dwerg", "grid", "hourya", "idunn", "kraal",
              "lokdur", "skaa", "tarah", "thrud", "uline", "ylud", "zoral"]


def set_gems(e, *gems):
    for pl, g in zip(e.s.players, gems):
        pl.gem = g


def column(e, p, cls):
    return [e.s.cards[c] for c in e.s.players[p].army.get(cls, [])]


def command(e, p):
    return [e.s.cards[c] for c in e.s.players[p].command]


def take(e, p, cid, *answers):
    """p takes card `cid` (as from a tavern); returns the decisions asked."""
    return run_log(e.take_card(p, pull(e, cid)), *answers)


def recruit(e, p, hero, *answers):
    """p recruits `hero` as if a line had just been completed."""
    e.s.players[p].heroes_counted -= 1
    log = run_log(e.check_heroes(p), hero, *answers)
    return log


def one_line_but(e, p, missing):
    """One dwarf of each class except `missing`."""
    cards = {"warrior": "warrior:3", "hunter": "hunter", "miner": "miner:1", "blacksmith": "blacksmith",
             "explorer": "explorer:5"}
    give(e, p, *[cid for cls, cid in cards.items() if cls != missing])


def score(e, p):
    return player_score(e, p)["breakdown"]


# -- recruiting ------------------------------------------------------------------------------

def test_a_complete_line_recruits_a_hero():
    """003 "Recruiting a Hero": "When placing a Dwarf card in your army creates a line consisting of
    one Rank of each of the 5 classes, you must immediately recruit an available Hero card". """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "skaa")
    assert [(d.player, d.kind) for d in log] == [(0, "hero")]
    assert sorted(ids(log[0])) == [h for h in ALL_HEROES if h != "hourya"]   # needs 5 explorers
    assert command(e, 0) == ["skaa"]
    assert all(e.s.cards[h] != "skaa" for h in e.s.heroes)
    assert e.s.players[0].heroes_counted == 1


def test_no_hero_without_a_complete_line():
    """003 "Recruiting a Hero": a hero comes only with "a line consisting of one Rank of each of the
    5 classes". """
    e = new_engine(3)
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:1", "blacksmith")
    assert take(e, 0, "blacksmith") == []
    assert e.s.players[0].command == []


def test_a_class_hero_goes_to_its_column_a_neutral_hero_to_the_command_zone():
    """003: "A class Hero (Warrior, Hunter, Miner, Blacksmith, or Explorer) is placed into the
    matching column of your army." and "A neutral Hero is placed in the Command Zone to the left of
    your board." """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    take(e, 0, "explorer:9", "tarah")
    assert column(e, 0, "warrior") == ["warrior:3", "tarah"]
    one_line_but(e, 1, "explorer")
    take(e, 1, "explorer:10", "astrid")
    assert command(e, 1) == ["astrid"]


def test_the_next_hero_needs_one_more_complete_line():
    """003 "Heroes": "to recruit a new Hero, the number of complete lines in your army must always
    equal your number of recruited Heroes +1." """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    take(e, 0, "explorer:9", "skaa")
    give(e, 0, "warrior:4", "hunter", "miner:2", "blacksmith")
    assert e.lines(0) == 1
    assert take(e, 0, "blacksmith") == []          # still one line: no hero
    log = take(e, 0, "explorer:10", "astrid")      # second line
    assert [d.kind for d in log] == ["hero"]
    assert sorted(command(e, 0)) == ["astrid", "skaa"]


def test_a_class_hero_that_completes_another_line_recruits_another_hero():
    """003: "If completing a new line with its pose immediately recruits another Hero, several lines
    can be completed by one placement." Idunn in the explorer column completes a second line. """
    e = new_engine(3)
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:1", "miner:2", "blacksmith",
         "blacksmith")
    log = take(e, 0, "explorer:9", "idunn", "skaa")
    assert [d.kind for d in log] == ["hero", "hero"]
    assert column(e, 0, "explorer") == ["explorer:9", "idunn"]
    assert command(e, 0) == ["skaa"]
    assert e.s.players[0].heroes_counted == 2


def test_one_card_completing_two_lines_recruits_two_heroes():
    """003: "If placing one card (or a Distinction card) completes several lines at once, you recruit
    that many Heroes one after another." The special Blacksmith (2 ranks) completes two lines. """
    e = new_engine(3)
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:1", "miner:2", "explorer:5",
         "explorer:6")
    card = pull(e, "distinction:blacksmith")
    run(e.place(0, card, None, check=False))
    log = run_log(e.emit(0, "won", card), "skaa", "astrid")
    assert [d.kind for d in log] == ["hero", "hero"]
    assert column(e, 0, "blacksmith") == ["special-blacksmith"]
    assert sorted(command(e, 0)) == ["astrid", "distinction:blacksmith", "skaa"]


def test_a_line_without_an_available_hero_stays_open():
    """Interpretation hero-available: "A completed line recruits a hero only if one can be taken:
    still available and its requirement met. Otherwise the line stays open and a later placement may
    use it." """
    e = new_engine(3)
    for h in [h for h in e.s.heroes if e.s.cards[h] != "hourya"]:
        e.s.heroes.remove(h)
        e.s.box.append(h)
    one_line_but(e, 0, "explorer")
    give(e, 0, "explorer:5", "explorer:6", "explorer:7")
    assert take(e, 0, "explorer:8") == []          # a line, 4 explorer ranks: Hourya not yet
    assert e.s.players[0].heroes_counted == 0
    take(e, 0, "explorer:9")                       # 5 explorer ranks: the open line recruits her
    assert column(e, 0, "explorer")[-1] == "hourya"
    assert e.s.players[0].heroes_counted == 1


def test_a_recruited_hero_is_no_longer_available():
    """003 "Recruiting a Hero": "you must immediately recruit an available Hero card". """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    take(e, 0, "explorer:9", "skaa")
    one_line_but(e, 1, "explorer")
    log = take(e, 1, "explorer:10", "astrid")
    assert "skaa" not in ids(log[0])


# -- neutral heroes ---------------------------------------------------------------------------

@pytest.mark.parametrize("brothers,points", [(1, 13), (2, 40), (3, 81), (4, 108), (5, 135)])
def test_dwerg_scores_by_the_number_of_brothers(brothers, points):
    """003 "Dwerg the 5 Brothers": "add X to your Final Bravery Value, where X depends on the number
    of recruited brothers — 1→13, 2→40, 3→81, 4→108, 5→135." """
    e = new_engine(3)
    give(e, 0, *["dwerg"] * brothers, column=None)
    assert score(e, 0)["heroes"] == points


def test_several_players_can_pursue_dwerg():
    """003 "Dwerg the 5 Brothers": "Several players can pursue this strategy." """
    e = new_engine(3)
    give(e, 0, "dwerg", column=None)
    give(e, 1, "dwerg", "dwerg", "dwerg", column=None)
    assert score(e, 0)["heroes"] == 13 and score(e, 1)["heroes"] == 81
    one_line_but(e, 2, "explorer")
    log = take(e, 2, "explorer:9", "dwerg")       # the fifth brother is still available
    assert "dwerg" in ids(log[0])
    assert score(e, 2)["heroes"] == 13


def test_skaa_adds_17():
    """003 "Skaa the Unfathomable": "add 17 points to your Final Bravery Value." """
    e = new_engine(3)
    give(e, 0, "skaa", column=None)
    assert score(e, 0)["heroes"] == 17


def test_astrid_adds_the_value_of_the_largest_coin():
    """003 "Astrid the Wealthy": "add X points, where X is the value of the largest coin you own (e.g.
    coin 25 → 25 points)." """
    e = new_engine(3)
    give(e, 0, "astrid", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 25])
    assert score(e, 0)["heroes"] == 25
    set_coins(e, 0, slots=[0, 2, 11], pouch=[4, 3])
    assert score(e, 0)["heroes"] == 11


def test_grid_transforms_a_coin_by_7_when_recruited_and_adds_7():
    """003 "Grid the Mercantile": "add 7 points to your Final Bravery Value. When you recruit her,
    immediately add +7 to one of your coins (see Transforming a Coin)." """
    e = new_engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "grid", "5@hand")
    assert [d.kind for d in log] == ["hero", "coin"]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 12]
    assert score(e, 0)["heroes"] == 7


def test_uline_adds_9():
    """003 "Uline the Seer": "add 9 points to your Final Bravery Value." """
    e = new_engine(3)
    give(e, 0, "uline", column=None)
    assert score(e, 0)["heroes"] == 9


def test_uline_keeps_her_coins_in_hand_and_bids_after_the_others_reveal():
    """003 "Uline the Seer": "Each turn, during bidding you do NOT place coins on your board — keep
    them in hand. At Taverns Resolution, wait for the other Elvalands to reveal, then place yours on
    the corresponding Tavern location face up; resolution proceeds normally." """
    e = new_engine(3, seed=3)
    set_gems(e, 3, 4, 5)
    give(e, 0, "uline", column=None)
    log = run_log(bids(e), [5, 4, 3], [4, 3, 5])
    assert [d.player for d in log] == [1, 2]       # Uline's player does not bid
    assert e.s.players[0].slots == [None, None, None]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 5]
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    fill_tavern(e, 1, "hunter", "blacksmith", "miner:0")
    fill_tavern(e, 2, "explorer:5", "warrior:3", "miner:1")
    log = run_log(resolve_taverns(e),
                  5, "warrior:9", "explorer:11",         # she sees 5 and 4, places her 5: tie, gem 4 wins
                  2, "hunter", "blacksmith",             # she sees 4 and 3, places 2: last
                  4, "explorer:5", "warrior:3")          # she sees 3 and 5, places 4
    kinds = [(d.player, d.kind) for d in log]
    assert kinds == [(0, "place-bid"), (1, "pick"), (0, "pick"),
                     (0, "place-bid"), (1, "pick"), (2, "pick"),
                     (0, "place-bid"), (2, "pick"), (0, "pick")]
    # she decides after the others' coins are on their tavern locations
    assert "5" in log[0].prompt and "4" in log[0].prompt
    assert shown(log[0]) == [0, 2, 3, 4, 5]
    assert shown(log[3]) == [0, 2, 3, 4]
    assert shown(log[6]) == [0, 3, 4]
    assert column(e, 0, "explorer") == ["explorer:11"]
    assert column(e, 0, "miner") == ["miner:0"]
    assert column(e, 0, "warrior") == ["warrior:3"]
    # at the end of the turn her coins return to her hand
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 5]


def test_uline_coin_trade_adds_two_coins_from_her_hand():
    """003 "Uline the Seer": "During a coin trade you choose at the end of your turn which coins from
    your hand you add up; you immediately take the newly acquired coin into your pouch (no coin placed
    on a resolving tavern is used)." """
    e = new_engine(2, seed=4)
    set_gems(e, 4, 5)
    give(e, 0, "uline", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    set_coins(e, 1, slots=[5, 4, 3], pouch=[0, 2])
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    gen = resolve_taverns(e)
    log = run_log(gen,
                  0, "warrior:9", "explorer:11",          # she places her 0 and plays last
                  "2@hand", "5@hand",                      # trade: 2 + 5 = 7, the 5 is discarded
                  3,                                       # Dancing Dragon: the 7 is in the pouch
                  2)                                       # Shining Horse
    trade = [d for d in log if d.kind == "coin"]
    assert [d.player for d in trade] == [0, 0]
    assert sorted(shown(trade[0])) == ["2@hand", "3@hand", "4@hand", "5@hand"]
    assert [d.kind for d in log] == ["place-bid", "pick", "pick", "coin", "coin", "place-bid", "place-bid"]
    assert shown(log[5]) == [2, 3, 4]                     # the new 7 cannot be bid this turn
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 7]


def test_uline_recruited_mid_turn_trades_the_coins_already_on_her_board():
    """003 "Uline the Seer": "Her power activates as soon as you take her card. ... coins placed on
    your board stay there until the end of the current turn." Recruited with the 0 on the tavern, the
    usual trade follows: "Reveal the two coins in your pouch. Add up those two coins." """
    e = new_engine(2, seed=5)
    set_gems(e, 5, 4)
    give(e, 0, "warrior:3", "hunter", "miner:1", "blacksmith")
    fill_tavern(e, 0, "explorer:5", "warrior:4", "warrior:5")
    set_coins(e, 0, slots=[0, 2, 4], pouch=[3, 5])
    set_coins(e, 1, slots=[3, 5, 2], pouch=[0, 4])
    log = run_log(resolve_taverns(e), "warrior:5", "explorer:5", "uline")
    assert [(d.player, d.kind) for d in log] == [(1, "pick"), (0, "pick"), (0, "hero")]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 8]


def test_ylud_goes_to_the_command_zone_when_recruited():
    """003 "Ylud the Unpredictable": "place her in your Command Zone." """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "ylud")
    assert [d.kind for d in log] == ["hero"]
    assert command(e, 0) == ["ylud"]


def test_ylud_is_placed_in_a_column_before_the_age_1_troop_evaluation():
    """003 "Ylud": "If recruited in Age 1, just after the last tavern of Age 1 but before Troop
    Evaluation, place Ylud in the column of your choice in your army; her rank counts as a card of
    that class for Distinctions". """
    e = new_engine(2, age=1)
    give(e, 0, "ylud", column=None)
    give(e, 0, "hunter")
    give(e, 1, "hunter")
    log = run_log(e.window("age-end"), "hunter")
    assert [(d.player, d.kind) for d in log] == [(0, "column")]
    assert column(e, 0, "hunter") == ["hunter", "ylud"]
    assert command(e, 0) == []
    run(troop_evaluation(e))                              # 2 hunter ranks against 1
    assert "distinction:hunter" in command(e, 0)


def test_ylud_may_stay_or_move_at_the_end_of_age_2():
    """003 "Ylud": "Just after the last tavern of Age 2 but before counting Bravery Values: ... if she
    is in your army you may leave her or move her to another column." """
    e = new_engine(2, age=2)
    give(e, 0, "ylud", column="warrior")
    give(e, 0, "warrior:9")
    give(e, 0, "thrud", column="warrior")
    run_log(e.window("age-end"), "warrior")                # she stays: Thrud is not covered
    assert column(e, 0, "warrior") == ["ylud", "warrior:9", "thrud"]
    run_log(e.window("age-end"), "explorer")
    assert column(e, 0, "warrior") == ["warrior:9", "thrud"]
    assert column(e, 0, "explorer") == ["ylud"]


def test_ylud_recruited_in_age_2_is_placed_before_scoring():
    """003 "Ylud": "If recruited in Age 2, place her in your Command Zone. Just after the last tavern
    of Age 2 but before counting Bravery Values: if she is in your Command Zone, place her in a column
    of your choice". """
    e = new_engine(2, age=2)
    give(e, 0, "explorer:5")
    give(e, 0, "ylud", column=None)
    run(e.window("age-end"), "explorer")
    assert column(e, 0, "explorer") == ["explorer:5", "ylud"]
    assert score(e, 0)["explorer"] == 5 + 11


@pytest.mark.parametrize("cls,points", [("explorer", 11), ("warrior", 7), ("miner", 1), ("hunter", 0),
                                        ("blacksmith", 0)])
def test_ylud_takes_the_value_of_her_column(cls, points):
    """003 "Ylud": "Consider Ylud a dwarf of the column she ends in, taking that column's value
    (Blacksmith/Hunter by placement level; Explorer 11, Warrior 7, Miner 1)". """
    e = new_engine(2, age=2)
    give(e, 1, "warrior:3")                                # keeps the warrior majority off P1
    give(e, 1, "warrior:4")
    give(e, 0, "ylud", column=cls)
    sc = score(e, 0)
    expected = {"explorer": 11, "warrior": 7, "miner": 1 * 1, "hunter": 1, "blacksmith": 3}[cls]
    assert sc[cls] == expected
    assert e.ranks(0, cls) == 1
    assert sc["heroes"] == 0


def test_ylud_counts_in_the_warrior_majority():
    """003 "Ylud": "her rank counts in the Warrior majority if placed there." """
    e = new_engine(2, age=2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    set_coins(e, 1, hand=[0, 2, 3, 4, 5])
    give(e, 0, "warrior:3")
    give(e, 1, "warrior:3", "warrior:4")
    give(e, 0, "ylud", column=None)
    run(e.window("age-end"), "warrior")
    assert score(e, 0)["warrior"] == 3 + 7 + 5            # tied on 2 ranks: both add their highest coin
    assert score(e, 1)["warrior"] == 3 + 4 + 5


def test_placing_ylud_may_recruit_a_hero():
    """003 "Ylud": "Placing Ylud may trigger a Hero recruitment." """
    e = new_engine(2, age=1)
    one_line_but(e, 0, "miner")
    give(e, 0, "ylud", column=None)
    log = run_log(e.window("age-end"), "miner", "skaa")
    assert [d.kind for d in log] == ["column", "hero"]
    assert "skaa" in command(e, 0)


def test_thrud_is_placed_in_a_column_of_your_choice():
    """003 "Thrud the Headhunter": "place her in the column of your choice in your army." """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    log = take(e, 0, "explorer:9", "thrud", "miner")
    assert [d.kind for d in log] == ["hero", "column"]
    assert column(e, 0, "miner") == ["miner:1", "thrud"]


def test_thrud_is_never_covered():
    """003 "Thrud": "Thrud must never be covered — if a Dwarf or Hero would be placed on Thrud, take
    Thrud in hand, place the incoming card, and replace Thrud in a column of your choice". """
    e = new_engine(3)
    give(e, 0, "warrior:3")
    give(e, 0, "thrud", column="warrior")
    log = take(e, 0, "warrior:9", "hunter")
    assert [(d.player, d.kind) for d in log] == [(0, "column")]
    assert column(e, 0, "warrior") == ["warrior:3", "warrior:9"]
    assert column(e, 0, "hunter") == ["thrud"]
    take(e, 0, "hunter", "hunter")                          # back on top of the same column
    assert column(e, 0, "hunter") == ["hunter", "thrud"]


def test_thrud_is_not_covered_by_a_hero_either():
    """003 "Thrud": "if a Dwarf or Hero would be placed on Thrud, take Thrud in hand, place the
    incoming card, and replace Thrud in a column of your choice". """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    give(e, 0, "thrud", column="warrior")
    take(e, 0, "explorer:9", "kraal", "explorer")
    assert column(e, 0, "warrior") == ["warrior:3", "kraal"]
    assert column(e, 0, "explorer") == ["explorer:9", "thrud"]


def test_thrud_moving_may_recruit_a_hero():
    """003 "Thrud": "replace Thrud in a column of your choice (which may trigger a Hero
    recruitment)." """
    e = new_engine(3)
    one_line_but(e, 0, "explorer")
    give(e, 0, "thrud", column="warrior")
    log = take(e, 0, "warrior:9", "explorer", "skaa")
    assert [d.kind for d in log] == ["column", "hero"]
    assert column(e, 0, "explorer") == ["thrud"]
    assert command(e, 0) == ["skaa"]


def test_thrud_counts_for_the_age_1_distinctions_where_she_is():
    """003 "Thrud": "Her rank counts for Age 1 Distinctions in the column where she is." """
    e = new_engine(2)
    give(e, 0, "miner:0")
    give(e, 0, "thrud", column="miner")
    give(e, 1, "miner:2")
    run(troop_evaluation(e))
    assert "distinction:miner" in command(e, 0)


def test_thrud_goes_to_the_command_zone_before_final_scoring_and_adds_13():
    """003 "Thrud": "After the last Age 2 tavern and before counting your Final Bravery Value, she is
    placed in the Command Zone. She adds 13 points to your Final Bravery Value." """
    e = new_engine(2, age=2)
    give(e, 0, "hunter")
    give(e, 0, "thrud", column="hunter")
    assert score(e, 0)["hunter"] == 4
    run(e.window("game-end"))
    assert column(e, 0, "hunter") == ["hunter"]
    assert command(e, 0) == ["thrud"]
    sc = score(e, 0)
    assert sc["hunter"] == 1 and sc["heroes"] == 13


def test_ylud_is_placed_before_thrud_leaves_the_army():
    """003 "Timing note": "after the last tavern of Age 2, Ylud is placed/moved in the army of the
    Elvaland who recruited her (which may trigger a Hero recruitment); Thrud is then removed from the
    army to the Command Zone." Ylud placed on Thrud moves her; then Thrud leaves. """
    from nidavellir.runtime.flow import run_steps
    e = new_engine(2, age=2)
    give(e, 0, "warrior:3")
    give(e, 0, "thrud", column="warrior")
    give(e, 0, "ylud", column=None)
    log = run_log(run_steps(e, e.rules.ruleset.age_end), "warrior", "hunter")
    assert [d.kind for d in log] == ["column", "column"]
    assert column(e, 0, "warrior") == ["warrior:3", "ylud"]
    assert column(e, 0, "hunter") == []
    assert "thrud" in command(e, 0)
    assert e.scores is not None


# -- class heroes ------------------------------------------------------------------------------

def test_kraal_two_ranks_7_and_0():
    """003 "Kraal the Venal": "has 2 ranks; add 7 and 0 points to your Warrior Bravery Value." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "kraal")
    give(e, 1, "warrior:3", "warrior:4", "warrior:5", "warrior:6")    # P2 has the majority
    assert e.ranks(0, "warrior") == 3
    assert score(e, 0)["warrior"] == 3 + 7 + 0


def test_tarah_one_rank_of_14():
    """003 "Tarah Lethal Strike": "has 1 rank; add 14 points to your Warrior Bravery Value." """
    e = new_engine(2)
    give(e, 0, "tarah")
    give(e, 1, "warrior:3", "warrior:4")
    assert e.ranks(0, "warrior") == 1
    assert score(e, 0)["warrior"] == 14


def test_aral_two_hunter_ranks():
    """003 "Aral Eagle Claws": "has 2 ranks." (Hunters: "the number of Hunters squared") """
    e = new_engine(2)
    give(e, 0, "hunter", "aral")
    assert e.ranks(0, "hunter") == 3
    assert score(e, 0)["hunter"] == 9


def test_aegur_two_blacksmith_ranks():
    """003 "Aëgur Fist of Steel": "has 2 ranks." (Blacksmiths: "+3, +4, +5, +6, …") """
    e = new_engine(2)
    give(e, 0, "blacksmith", "aegur")
    assert e.ranks(0, "blacksmith") == 3
    assert score(e, 0)["blacksmith"] == 3 + 4 + 5


def test_zoral_three_ranks_adding_1_to_the_miners_sum():
    """003 "Zoral the Foreman": "has 3 ranks. Adds 1, 0, and 0 Bravery Points to the sum of Miners
    (i.e. raises the Miners' Bravery Value by 1 and the multiplicative factor by 3 ranks)." """
    e = new_engine(2)
    give(e, 0, "miner:2", "miner:1", "zoral")
    assert e.ranks(0, "miner") == 5
    assert score(e, 0)["miner"] == (2 + 1 + 1) * 5


def test_lokdur_one_rank_adding_3_to_the_miners_sum():
    """003 "Lokdur Greedy Heart": "has 1 rank; add 3 Bravery Points to the sum of Miners (raises the
    Miners' sum by 3 and the factor by 1 rank)." """
    e = new_engine(2)
    give(e, 0, "miner:2", "miner:0", "lokdur")
    assert score(e, 0)["miner"] == (2 + 0 + 3) * 3


def test_hourya_needs_5_explorer_ranks():
    """003 "Hourya the Elusive": "has 1 rank; add 20 points to your Explorers Bravery Value. You must
    have 5 ranks in the Explorer column to recruit her." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "hunter", "miner:1", "blacksmith", "explorer:5", "explorer:6", "explorer:7")
    log = take(e, 0, "explorer:8", "skaa")
    assert "hourya" not in ids(log[0])
    give(e, 1, "warrior:3", "hunter", "miner:1", "blacksmith", "explorer:5", "explorer:6", "explorer:7",
         "explorer:8")
    log = take(e, 1, "explorer:9", "hourya")
    assert "hourya" in ids(log[0])
    assert column(e, 1, "explorer")[-1] == "hourya"
    assert score(e, 1)["explorer"] == 5 + 6 + 7 + 8 + 9 + 20


def test_thrud_and_ylud_count_for_hourya_in_the_explorer_column():
    """003 "Hourya": "(The ranks of Thrud and Ylud count for her recruitment if placed in the Explorer
    column.)" """
    e = new_engine(2)
    give(e, 0, "warrior:3", "hunter", "miner:1", "blacksmith", "explorer:5", "explorer:6")
    give(e, 0, "ylud", column="explorer")
    give(e, 0, "thrud", column="explorer")
    # Thrud moves back onto the explorers (5 ranks with Ylud and her), then again off Hourya
    log = take(e, 0, "explorer:7", "explorer", "hourya", "explorer")
    assert [d.kind for d in log] == ["column", "hero", "column"]
    assert "hourya" in ids(log[1])
    assert column(e, 0, "explorer") == ["explorer:5", "explorer:6", "ylud", "explorer:7", "hourya", "thrud"]


def test_idunn_adds_7_plus_2_per_explorer_rank_including_her_own():
    """003 "Idunn the Furtive": "has 1 rank; add 7 points to your Explorer Bravery Value plus 2 points
    per rank present in the column, including her own." """
    e = new_engine(2)
    give(e, 0, "explorer:5", "explorer:6", "idunn")
    assert score(e, 0)["explorer"] == 5 + 6 + 7 + 2 * 3


# -- Dagda and Bonfur ---------------------------------------------------------------------------

def test_dagda_discards_the_last_dwarf_of_two_other_columns():
    """003 "Dagda the Explosive": "has 3 ranks. Immediately place Dagda in your Hunter column, then
    discard the last Dwarf card of your choosing from two other (different) columns in your army." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "warrior:9", "hunter", "miner:1", "blacksmith")
    log = take(e, 0, "explorer:5", "dagda", "warrior:9@warrior", "miner:1@miner")
    assert [d.kind for d in log] == ["hero", "card", "card"]
    assert sorted(shown(log[1])) == ["blacksmith@blacksmith", "explorer:5@explorer", "miner:1@miner",
                                      "warrior:9@warrior"]
    assert "warrior:9@warrior" not in shown(log[2])     # two different columns
    assert column(e, 0, "hunter") == ["hunter", "dagda"]
    assert column(e, 0, "warrior") == ["warrior:3"]
    assert column(e, 0, "miner") == []
    assert e.ranks(0, "hunter") == 4
    assert [e.s.cards[c] for c in e.s.discard[-2:]] == ["warrior:9", "miner:1"]


def test_bonfur_discards_the_last_dwarf_of_another_column():
    """003 "Bonfur the Tyrannical": "has 3 ranks. Immediately place Bonfur in your Blacksmith column,
    then discard the last Dwarf card of your choosing from another of your columns." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "hunter", "miner:1", "miner:2", "blacksmith")
    log = take(e, 0, "explorer:5", "bonfur", "miner:2@miner")
    assert [d.kind for d in log] == ["hero", "card"]
    assert sorted(shown(log[1])) == ["explorer:5@explorer", "hunter@hunter", "miner:2@miner",
                                      "warrior:3@warrior"]
    assert column(e, 0, "blacksmith") == ["blacksmith", "bonfur"]
    assert column(e, 0, "miner") == ["miner:1"]
    assert score(e, 0)["blacksmith"] == 3 + 4 + 5 + 6


def test_dagda_and_bonfur_never_discard_a_hero():
    """003 "Bonfur and Dagda": "You can never discard a Hero card with their power — only Dwarf
    cards."; interpretation last-dwarf: "discard, from each chosen column, its topmost dwarf card;
    heroes above it stay. A column whose cards are all heroes offers nothing." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "kraal", "hunter", "aral", "zoral", "blacksmith")
    log = take(e, 0, "explorer:7", "bonfur", "warrior:3@warrior")
    assert sorted(shown(log[1])) == ["explorer:7@explorer", "hunter@hunter", "warrior:3@warrior"]
    assert column(e, 0, "warrior") == ["kraal"]
    assert column(e, 0, "miner") == ["zoral"]


def test_dagda_and_bonfur_are_offered_only_when_their_discards_are_possible():
    """003 "Bonfur and Dagda": "If that is impossible, you cannot choose Dagda or Bonfur." """
    e = new_engine(2)
    # every column but the blacksmiths holds only heroes: no dwarf to discard for either
    give(e, 0, "kraal", "aral", "zoral", "idunn")
    log = take(e, 0, "blacksmith", "skaa")
    assert "bonfur" not in ids(log[0]) and "dagda" not in ids(log[0])
    # one dwarf outside the hunters (in the blacksmiths): Bonfur can't use it, Dagda needs two
    e = new_engine(2)
    give(e, 0, "tarah", "hunter", "lokdur", "blacksmith", "hourya")
    e.s.heroes[:] = [h for h in e.s.heroes if e.s.cards[h] not in ("tarah", "lokdur", "hourya")]
    log = take(e, 0, "hunter", "skaa")
    assert "dagda" not in ids(log[0]) and "bonfur" in ids(log[0])


def test_no_hero_after_dagdas_discards_until_a_new_line():
    """003 "Bonfur and Dagda": "You cannot recruit a new Hero until you replace the discarded cards and
    make a new complete line of 5 different classes." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "hunter", "miner:1", "blacksmith")
    take(e, 0, "explorer:5", "dagda", "warrior:3@warrior", "miner:1@miner")
    assert e.lines(0) == 0 and e.s.players[0].heroes_counted == 1
    assert take(e, 0, "warrior:4") == []
    assert take(e, 0, "miner:2") == []                    # one line again: it is Dagda's
    give(e, 0, "warrior:5", "hunter", "blacksmith", "explorer:6")
    log = take(e, 0, "miner:0", "skaa")                   # a new, second line
    assert [d.kind for d in log] == ["hero"]


def test_thrud_stepping_aside_under_dagda_recruits_nothing_before_her_discards():
    """003 "Bonfur and Dagda": "You cannot recruit a new Hero until you replace the discarded cards and
    make a new complete line". DESIGN §9: "Hero recruitment is checked only once the entering card's
    own effects are done: a card that steps aside (Thrud) while Dagda or Bonfur enters recruits nothing
    before their discards." Here Dagda covers Thrud; Thrud's move would make a second line, but
    Dagda's two discards come first and undo it: no second hero."""
    e = new_engine(2)
    give(e, 0, "warrior:3", "warrior:4", "hunter", "miner:1", "miner:2", "blacksmith", "blacksmith",
         "explorer:6")
    give(e, 0, "thrud", column="hunter")
    log = take(e, 0, "explorer:5", "dagda", "warrior", "miner:2@miner", "blacksmith@blacksmith")
    assert [d.kind for d in log] == ["hero", "column", "card", "card"]
    assert column(e, 0, "hunter") == ["hunter", "dagda"] and column(e, 0, "warrior")[-1] == "thrud"
    assert e.lines(0) == 1 and e.s.players[0].heroes_counted == 1


def test_bonfur_over_thrud_waits_for_his_discard_too():
    """003 "Bonfur and Dagda" (the same rule for Bonfur, who discards one card)."""
    e = new_engine(2)
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:1", "miner:2", "blacksmith",
         "explorer:6")
    give(e, 0, "thrud", column="blacksmith")
    log = take(e, 0, "explorer:5", "bonfur", "blacksmith", "miner:2@miner")
    assert [d.kind for d in log] == ["hero", "column", "card"]
    assert e.s.players[0].heroes_counted == 1 and e.lines(0) == 1


def test_the_special_blacksmith_is_a_dwarf_card_dagda_may_discard():
    """003 components: "87 Dwarf cards in 5 classes: 18 Warrior, 16 Hunter, 16 Miner, 20 Blacksmith,
    16 Explorer, plus 1 Special Blacksmith card" — the special Blacksmith is one of the Dwarf cards
    (and "only Dwarf cards" may be discarded)."""
    e = new_engine(2)
    give(e, 0, "warrior:3", "hunter", "miner:1", "special-blacksmith")
    log = take(e, 0, "explorer:5", "dagda", "special-blacksmith@blacksmith", "warrior:3@warrior")
    assert "special-blacksmith@blacksmith" in shown(log[1])
    assert column(e, 0, "blacksmith") == []
