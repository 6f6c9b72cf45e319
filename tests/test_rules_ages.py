"""Scenario tests: setup per player count, the length of an age, the Troop Evaluation and the
distinctions (003 "Setup", "Player Counts", "Structure of the Game", "End of Age 1: Troop
Evaluation", "End of Age 2 and End of the Game").

Each test quotes the rule sentence it checks from 003_87e0c83f3aec659f.txt (or an
`interpretations:` entry of rules/base/*.yaml / DESIGN §9).
"""
from __future__ import annotations

from collections import Counter

import pytest

from harness import BASE, give, ids, new_engine, run, run_log, set_coins, shown, values

from nidavellir.runtime.engine import Engine
from nidavellir.runtime.flow import play, troop_evaluation
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.scoring import player_score

FIVE_PLAYER_CARDS = Counter({"blacksmith": 2, "hunter": 2, "explorer:12": 1, "warrior:10": 1, "miner:0": 1,
                             "miner:1": 1})


def deck(e, age):
    return Counter(e.s.cards[c] for c in e.s.decks[age])


def column(e, p, cls):
    return [e.s.cards[c] for c in e.s.players[p].army.get(cls, [])]


def command(e, p):
    return [e.s.cards[c] for c in e.s.players[p].command]


def autoplay(e: Engine, gen=None):
    """Play a whole game answering every decision with its first option; returns the highest turn
    seen in each age (sampled at each bid) and the decisions asked."""
    gen = play(e) if gen is None else gen
    turns: dict[int, int] = {}
    asked = []
    try:
        d = next(gen)
        while True:
            asked.append(d)
            if d.kind == "bid":
                turns[e.s.age] = max(turns.get(e.s.age, 0), e.s.turn)
            d = gen.send(d.options[0])
    except StopIteration:
        pass
    return turns, asked


# -- setup per player count -------------------------------------------------------------------

@pytest.mark.parametrize("players,gems", [(2, [4, 5]), (3, [3, 4, 5]), (4, [2, 3, 4, 5]),
                                          (5, [1, 2, 3, 4, 5])])
def test_gems_per_player_count(players, gems):
    """003 Setup 2: "with 5 players use gems 1–5; with 4 use 2–5; with 3 use 3–5; with 2 use 4–5.
    Distribute one randomly to each player". """
    seen = set()
    for seed in range(12):
        e = new_engine(players, seed=seed)
        held = [pl.gem for pl in e.s.players]
        assert sorted(held) == gems
        seen.add(tuple(held))
    assert len(seen) > 1                       # randomly distributed


@pytest.mark.parametrize("players,total", [(2, 28), (3, 28), (4, 34), (5, 34)])
def test_royal_treasure_per_player_count(players, total):
    """003 "Player Counts", 2 and 3 Elvalands: "remove the two coins worth 7 and 9 (and 11) from the
    Royal Treasure and return them to the box."; interpretation treasure-two-three-players: "two coins
    each of value 7, 9 and 11 leave the Royal Treasure and one of each stays: 28 coins instead of
    34." """
    e = new_engine(players)
    t = {v: len(cs) for v, cs in e.s.treasure.items()}
    assert sum(t.values()) == total
    left = 1 if players <= 3 else 3
    assert t[7] == t[9] == t[11] == left
    assert t[5] == t[6] == t[8] == t[10] == t[12] == t[13] == t[14] == 2
    assert all(t[v] == 1 for v in range(15, 26))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_five_player_cards_stay_in_the_box_below_five(players):
    """003 Setup 7: "If fewer than 5 Elvalands are playing, leave the cards showing a "5" symbol in the
    bottom-right corner in the box." """
    e = new_engine(players)
    five = new_engine(5)
    assert deck(five, 1) - deck(e, 1) == FIVE_PLAYER_CARDS + Counter({"royal-offering:3": 1})
    assert deck(five, 2) - deck(e, 2) == FIVE_PLAYER_CARDS + Counter({"royal-offering:5": 1})
    assert deck(e, 1)["explorer:12"] == 0 and deck(e, 1)["warrior:10"] == 0


def test_five_players_add_the_5_cards_to_both_ages():
    """003 "Player Counts", 5 Elvalands: "add the Dwarf cards showing a "5" symbol at their
    bottom-right into the corresponding Age 1 and Age 2 decks." """
    e = new_engine(5)
    for age in (1, 2):
        d = deck(e, age)
        assert d["explorer:12"] == 1 and d["warrior:10"] == 1
        assert d["blacksmith"] == 10 and d["hunter"] == 8


@pytest.mark.parametrize("players,age1,age2", [(2, 36, 37), (3, 36, 37), (4, 36, 37), (5, 45, 46)])
def test_deck_sizes(players, age1, age2):
    """Interpretation same-dwarves-both-ages: "Age 1 and Age 2 hold the same dwarves; only the royal
    offerings differ (Age 1: one +3, Age 2: two +5; a 5-player game adds one more of each). Age 2's
    extra card is the one the Explorer distinction takes (or discards when nobody wins it)." """
    e = new_engine(players)
    assert len(e.s.decks[1]) == age1 and len(e.s.decks[2]) == age2
    d1, d2 = deck(e, 1), deck(e, 2)
    assert d1["royal-offering:3"] == (2 if players == 5 else 1)
    assert d2["royal-offering:5"] == (3 if players == 5 else 2)
    dwarves = lambda d: Counter({c: n for c, n in d.items() if not c.startswith("royal-offering")})
    assert dwarves(d1) == dwarves(d2)


# -- the length of an age ----------------------------------------------------------------------

@pytest.mark.parametrize("players,turns", [(2, 4), (3, 4), (4, 3), (5, 3)])
def test_an_age_lasts_4_turns_with_2_3_players_and_3_with_4_5(players, turns):
    """003 "Structure of the Game": "With 2–3 Elvalands each Age is 4 turns long; with 4–5 Elvalands
    each Age is 3 turns long." """
    for seed in (1, 2):
        e = Engine(BASE, [f"P{i + 1}" for i in range(players)], seed)
        seen, _ = autoplay(e)
        assert seen == {1: turns, 2: turns}
        assert e.s.decks[1] == [] and e.s.decks[2] == []
        assert e.scores is not None and e.s.finished
        assert violations(e) == []


class ShortDeckEngine(Engine):
    """The Age 1 deck holds only 10 cards: a turn and one card."""

    def setup(self):
        super().setup()
        while len(self.s.decks[1]) > 10:
            self.s.box.append(self.s.decks[1].pop(0))


@pytest.mark.sources
def test_an_age_ends_with_the_turn_in_which_its_deck_runs_out():
    """003 "End of Age 1": "At the end of the turn in which the Age 1 deck is exhausted, the King
    performs a Troop Evaluation."; interpretation age-end-by-deck: "An age ends at the end of the turn
    in which its deck runs out; turns are not counted." """
    e = ShortDeckEngine(BASE, ["P1", "P2", "P3"], 3)
    seen, _ = autoplay(e)
    assert seen[1] == 2                         # 9 cards, then the last card: 2 turns
    assert seen[2] == 4


def test_troop_evaluation_happens_once_at_the_end_of_age_1():
    """003 "End of Age 1": "At the end of the turn in which the Age 1 deck is exhausted, the King
    performs a Troop Evaluation." and "Then shuffle the Age 2 cards together and begin a new turn,
    following the same rules as Age 1." """
    e = Engine(BASE, ["P1", "P2", "P3"], 11)
    autoplay(e)
    handed = sum(1 for pl in e.s.players for c in pl.command if e.s.cards[c].startswith("distinction:"))
    assert handed + len(e.s.distinctions) == 5


# -- troop evaluation -------------------------------------------------------------------------

def test_a_strict_majority_of_ranks_wins_the_distinction():
    """003 "Troop Evaluation": "The Elvaland with the strict majority of ranks in each class wins the
    corresponding Distinction." and "Place the card in your Command Zone." """
    e = new_engine(3)
    give(e, 0, "hunter", "hunter")
    give(e, 1, "hunter")
    run(troop_evaluation(e))
    assert command(e, 0) == ["distinction:hunter"]
    assert command(e, 1) == [] and command(e, 2) == []


def test_a_tie_gives_the_distinction_to_no_one_gems_do_not_break_it():
    """003 "Troop Evaluation": "On a tie, no one takes that Distinction (gems do NOT break ties
    here)."; interpretation distinction-ties. """
    e = new_engine(3)
    e.s.players[0].gem = 5
    give(e, 0, "miner:2", "miner:1")
    give(e, 1, "miner:0", "miner:0")
    give(e, 2, "miner:1")
    run(troop_evaluation(e))
    assert all(pl.command == [] for pl in e.s.players)
    assert "distinction:miner" in [e.s.cards[c] for c in e.s.distinctions]
    assert e.s.special_gems == [6]


def test_majorities_count_ranks_not_points_or_cards():
    """003 "Troop Evaluation": "Majorities count ranks, not the sum of Bravery Points or the number of
    cards." """
    e = new_engine(2)
    give(e, 0, "miner:0", "miner:0")             # 2 ranks, 0 points
    give(e, 1, "miner:2")                        # 1 rank, 2 points
    give(e, 0, "dagda")                          # 1 card, 3 ranks
    give(e, 1, "hunter", "hunter")               # 2 cards, 2 ranks
    run(troop_evaluation(e))
    assert sorted(command(e, 0)) == ["distinction:hunter", "distinction:miner"]


def test_no_one_without_ranks_wins():
    """003 "Troop Evaluation": "The Elvaland with the strict majority of ranks in each class wins". """
    e = new_engine(2)
    run(troop_evaluation(e))
    assert all(pl.command == [] for pl in e.s.players)
    assert len(e.s.distinctions) == 5


def test_distinctions_are_awarded_in_class_order():
    """003 "Troop Evaluation": "Award the Distinctions in this order: The King's Hand — Majority of
    Warriors ... Hunting Master ... Crown Jeweler ... King's Great Armorer ... Pioneer of the
    Kingdom". """
    e = new_engine(2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:0", "miner:1", "blacksmith",
         "explorer:5", "explorer:6")
    e.s.players[0].heroes_counted = 1           # the first line has recruited its hero
    top3 = [e.s.cards[c] for c in e.s.decks[2][-3:]][::-1]
    keep = top3[0]
    log = run_log(troop_evaluation(e), "5@hand", "skaa", keep,
                  *(["2@hand"] if keep.startswith("royal-offering") else []))
    # the King's Hand first (a coin), then the Armorer's card completes a second line (a hero),
    # then the Pioneer's draw (a card)
    assert [d.kind for d in log][:3] == ["coin", "hero", "card"]
    assert command(e, 0)[:5] == ["distinction:warrior", "distinction:hunter", "distinction:miner",
                                 "distinction:blacksmith", "skaa"]
    assert command(e, 0)[5] == "distinction:explorer"


def test_majorities_are_counted_once_before_the_awards():
    """003 "End of Age 1": "the King performs a Troop Evaluation. The Elvaland with the strict majority
    of ranks in each class wins the corresponding Distinction."; interpretation troop-evaluation-once:
    "A hero recruited through the King's Great Armorer ... does not change who wins a later
    distinction." P2 leads the explorers 3 to 2; P1's Idunn, recruited through the Armorer, does not
    take the Pioneer away from P2. """
    e = new_engine(2)
    give(e, 0, "warrior:3", "warrior:4", "hunter", "hunter", "miner:0", "miner:1", "explorer:5",
         "explorer:6", "blacksmith")
    e.s.players[0].heroes_counted = 1
    give(e, 1, "warrior:5", "warrior:6", "hunter", "hunter", "miner:0", "miner:1", "explorer:7",
         "explorer:8", "explorer:9")
    top = e.s.cards[e.s.decks[2][-1]]
    log = run_log(troop_evaluation(e), "idunn", top, *(["2@hand"] if top.startswith("royal") else []))
    assert [(d.player, d.kind) for d in log][:2] == [(0, "hero"), (1, "card")]
    assert column(e, 0, "explorer") == ["explorer:5", "explorer:6", "idunn"]     # 3 ranks each now
    assert command(e, 0) == ["distinction:blacksmith"]
    assert "distinction:explorer" in command(e, 1)


def test_kings_hand_transforms_a_coin_by_5():
    """003 "The King's Hand — Majority of Warriors: immediately add +5 to one of your coins (see
    Transforming a Coin). Place the card in your Command Zone." """
    e = new_engine(2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    give(e, 0, "warrior:3")
    log = run_log(troop_evaluation(e), "4@hand")
    assert log[0].kind == "coin" and "0@hand" not in shown(log[0])
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 5, 9]
    assert command(e, 0) == ["distinction:warrior"]


def test_hunting_master_trades_the_0_coin_for_the_special_3():
    """003 "Hunting Master — Majority of Hunters: immediately trade your coin of value 0 for the
    special coin of value 3. This special coin keeps its trading properties and cannot be
    transformed." """
    e = new_engine(2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    zero = next(c for c in e.s.players[0].hand if e.s.coins[c].value == 0)
    special = e.s.special_coins["hunter-3"]
    give(e, 0, "hunter")
    assert run_log(troop_evaluation(e)) == []
    hand = e.s.players[0].hand
    assert special in hand and zero not in hand
    assert sorted(values(e, hand)) == [2, 3, 3, 4, 5]
    assert e.s.coins[special].trading and not e.s.coins[special].transformable
    assert zero in e.s.coin_box
    assert e.trading_coin(0) == special


def test_crown_jeweler_gives_gem_6():
    """003 "Crown Jeweler — Majority of Miners: place the special value gem 6 on your current gem. It
    adds 3 points to your Final Bravery Value, is never traded (even on a tie), and lets you win all
    future tavern-resolution ties." """
    e = new_engine(2)
    e.s.players[0].gem, e.s.players[1].gem = 4, 5
    give(e, 0, "miner:0")
    run(troop_evaluation(e))
    pl = e.s.players[0]
    assert pl.gem == 6 and pl.covered_gems == [4]
    assert e.s.special_gems == []
    before = e.coins_total(0)
    assert player_score(e, 0)["breakdown"]["coins"] == before + 3
    assert violations(e) == []


def test_kings_great_armorer_adds_the_special_blacksmith_worth_2_ranks():
    """003 "King's Great Armorer — Majority of Blacksmiths: immediately add the special Blacksmith
    card (worth 2 ranks) to your army." """
    e = new_engine(2)
    give(e, 0, "blacksmith")
    run(troop_evaluation(e))
    assert column(e, 0, "blacksmith") == ["blacksmith", "special-blacksmith"]
    assert e.ranks(0, "blacksmith") == 3
    assert player_score(e, 0)["breakdown"]["blacksmith"] == 3 + 4 + 5
    assert command(e, 0) == ["distinction:blacksmith"]
    assert e.s.supply == []


def test_kings_great_armorer_may_recruit_a_hero():
    """003 "King's Great Armorer": "This may trigger a Hero recruitment." """
    e = new_engine(2)
    give(e, 0, "warrior:3", "hunter", "miner:0", "explorer:5")
    give(e, 1, "warrior:4", "hunter", "miner:1", "explorer:6")
    give(e, 0, "blacksmith")
    log = run_log(troop_evaluation(e), "skaa")
    assert [(d.player, d.kind) for d in log] == [(0, "hero")]
    assert command(e, 0) == ["distinction:blacksmith", "skaa"]


def test_pioneer_draws_3_keeps_1_and_shuffles_the_rest_back():
    """003 "Pioneer of the Kingdom — Majority of Explorers: draw 3 cards from the Age 2 deck and keep
    1. If it is a Dwarf, place it in your army immediately ... Shuffle the two unkept cards back into
    the Age 2 deck." """
    e = new_engine(3)
    d2 = e.s.decks[2]
    while e.s.cards[d2[-1]].startswith("royal") or e.s.cards[d2[-2]].startswith("royal") \
            or e.s.cards[d2[-3]].startswith("royal") or len({e.s.cards[c] for c in d2[-3:]}) < 3:
        d2.insert(0, d2.pop())
    top3 = list(d2[-3:])
    keep = top3[-1]
    give(e, 0, "explorer:5")
    log = run_log(troop_evaluation(e), e.s.cards[keep])
    assert [d.kind for d in log] == ["card"]
    assert sorted(ids(log[0])) == sorted(e.s.cards[c] for c in top3)
    assert len(d2) == 37 - 1
    assert all(c in d2 for c in top3 if c != keep)
    owner = [p for p, pl in enumerate(e.s.players) for col in pl.army.values() if keep in col]
    assert owner == [0]
    assert command(e, 0) == ["distinction:explorer"]


def test_pioneer_keeping_a_royal_offering_transforms_a_coin():
    """003 "Pioneer of the Kingdom": "if it is a Royal Offering, transform one of your coins." """
    e = new_engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    d2 = e.s.decks[2]
    offering = next(c for c in d2 if e.s.cards[c] == "royal-offering:5")
    d2.remove(offering)
    d2.append(offering)
    give(e, 0, "explorer:5")
    log = run_log(troop_evaluation(e), "royal-offering:5", "5@hand")
    assert [d.kind for d in log] == ["card", "coin"]
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 10]
    assert offering in e.s.discard
    assert len(d2) == 36


def test_pioneer_keeping_a_dwarf_may_recruit_a_hero():
    """003 "Pioneer of the Kingdom": "If it is a Dwarf, place it in your army immediately (may trigger
    a Hero recruitment)". """
    e = new_engine(2)
    d2 = e.s.decks[2]
    miner = next(c for c in d2 if e.s.cards[c] == "miner:2")
    d2.remove(miner)
    d2.append(miner)
    give(e, 0, "warrior:3", "hunter", "blacksmith", "explorer:5")
    give(e, 1, "warrior:4", "hunter", "blacksmith")   # ties: only the Pioneer is won
    log = run_log(troop_evaluation(e), "miner:2", "skaa")
    assert [d.kind for d in log] == ["card", "hero"]
    assert column(e, 0, "miner") == ["miner:2"]
    assert "skaa" in command(e, 0)


def test_no_pioneer_discards_the_top_age_2_card():
    """003 "Pioneer of the Kingdom": "If this Distinction is not won, discard the top card of the Age 2
    deck without effect." """
    e = new_engine(3)
    top = e.s.decks[2][-1]
    give(e, 0, "explorer:5")
    give(e, 1, "explorer:6")
    assert run_log(troop_evaluation(e)) == []
    assert e.s.discard[-1] == top
    assert len(e.s.decks[2]) == 36
    assert "distinction:explorer" in [e.s.cards[c] for c in e.s.distinctions]


def test_ylud_counts_for_the_distinctions_when_placed_before_the_evaluation():
    """003 "Ylud": "just after the last tavern of Age 1 but before Troop Evaluation, place Ylud in the
    column of your choice in your army; her rank counts as a card of that class for Distinctions". """
    from nidavellir.runtime.flow import run_steps
    e = new_engine(2)
    give(e, 0, "warrior:3")
    give(e, 1, "warrior:4")
    give(e, 0, "ylud", column=None)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    log = run_log(run_steps(e, e.rules.ruleset.age_end), "warrior", "5@hand")
    assert [d.kind for d in log] == ["column", "coin"]
    assert "distinction:warrior" in command(e, 0)


# -- the end of the game ----------------------------------------------------------------------

def test_final_scoring_happens_at_the_end_of_age_2():
    """003 "End of Age 2": "At the end of the turn in which the Age 2 deck is exhausted, count your
    Final Bravery Value". """
    e = Engine(BASE, ["P1", "P2", "P3", "P4"], 5)
    autoplay(e)
    assert e.scores is not None
    for p, pl in enumerate(e.scores["players"]):
        assert pl["total"] == sum(pl["breakdown"].values())
        assert pl == player_score(e, p)
