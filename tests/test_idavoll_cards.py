"""Scenario tests: every Idavoll card — the 5 animals and Gullinbursti, the 5 gods, the 5 giants and the
5 valkyries (001 "List of Mythological Animals", "List of Norse Gods", "List of Giants", "List of
Valkyries"), with the interplay 001 names (Thor against Dagda, Bonfur, Brísingamens and Höfud; Loki
before Freya; Surt with the warrior majority; ...).

Each test quotes the sentence of 001_b589e44fbbff9743.txt (the only source for Idavoll) it checks, or
DESIGN §9 where 001 is unclear. Boards are built by hand; the engine's own steps are run with strict
scripted answers (an unscripted decision or an answer that is not an option fails the test).
"""
from __future__ import annotations

import pytest
from harness import fill_tavern, give, ids, pull, run, run_log, set_coins, shown, values
from idavoll_helpers import (
    both,
    box,
    checked,
    column,
    command,
    deck,
    discard,
    engine,
    ids_of,
    kinds,
    mine,
    mythology,
    one_line_but,
    run_checked,
    stack_pile,
    steps,
    tavern,
)
from nidavellir.runtime.flow import resolve_taverns, run_steps
from nidavellir.runtime.position import position_of
from nidavellir.runtime.scoring import player_score
from thingvellir_helpers import camp, enlist, resolve_tavern


def take(e, p, cid, *answers):
    """p takes card `cid` (from wherever it waits) as from a tavern; strict answers, invariants checked."""
    return run_checked(e, e.take_card(p, pull(e, cid)), *answers)


def breakdown(e, p):
    return player_score(e, p)["breakdown"]


def bids(e, *slots_and_pouches):
    """Set each player's bids: (slots, pouch) per player, in seat order."""
    for p, (slots, pouch) in enumerate(slots_and_pouches):
        set_coins(e, p, slots=list(slots), pouch=list(pouch))


def resolve_taverns_one(e, t):
    """The tavern steps of the flow for tavern t alone (bids as they lie on the boards)."""
    e.s.tavern, e.s.revealed = t, None
    return run_steps(e, e.rules.ruleset.tavern)


def window(e, name, *answers):
    """The flow step `name` of the turn alone (a window or a step), strict answers, invariants checked."""
    return run_checked(e, run_steps(e, steps(e, name)), *answers)


# == Animals =======================================================================================

def test_durathor_is_one_hunter_rank_in_the_hunter_column():
    """001 "Mythological animals": "As soon as you recruit a Mythical Animal, place it in your army in the
    matching class." 001 "Durathor": "Has 1 Hunter rank." """
    e = engine(3)
    give(e, 0, "hunter")
    assert take(e, 0, "durathor") == []
    assert column(e, 0, "hunter") == ["hunter", "durathor"]
    assert command(e, 0) == []
    assert e.ranks(0, "hunter") == 2 and e.points(0, "hunter") == 0
    assert breakdown(e, 0)["hunter"] == 2 * 2
    assert breakdown(e, 0)["mythology"] == 0


def test_durathor_makes_dagda_discard_one_card_instead_of_two():
    """001 "Durathor": "Reduces the discard effect of Dagda by one card. (Note: in other words, if you own
    Durathor, Dagda will only discard 1 card instead of 2 when she arrives in your army)" — so one dwarf
    card of another column is enough to recruit her. """
    e = engine(3)
    give(e, 0, "durathor", "warrior:3")                     # a single other column holds a dwarf
    log = run_checked(e, e.recruit_hero(0), "dagda")
    assert kinds(log) == [(0, "hero")]                      # the one discard needs no choice
    assert "dagda" in ids(log[0])
    assert column(e, 0, "hunter") == ["durathor", "dagda"]
    assert column(e, 0, "warrior") == [] and discard(e) == ["warrior:3"]
    assert e.ranks(0, "hunter") == 1 + 3
    # with two columns to choose from she still discards a single card
    e = engine(3)
    give(e, 0, "durathor", "warrior:3", "miner:1", "explorer:5")
    log = run_checked(e, e.recruit_hero(0), "dagda", "miner:1@miner")
    assert kinds(log) == [(0, "hero"), (0, "card")]
    assert sorted(shown(log[1])) == ["explorer:5@explorer", "miner:1@miner", "warrior:3@warrior"]
    assert column(e, 0, "warrior") == ["warrior:3"] and column(e, 0, "explorer") == ["explorer:5"]
    assert discard(e) == ["miner:1"]


def test_without_durathor_dagda_discards_two():
    """003 "Dagda" (the base rule Durathor changes): she discards two dwarf cards of two other columns;
    Durathor in another player's army changes nothing (001: "if you own Durathor"). """
    e = engine(3)
    give(e, 1, "durathor")
    give(e, 0, "warrior:3", "miner:1", "explorer:5")
    log = run_checked(e, e.recruit_hero(0), "dagda", "miner:1@miner", "warrior:3@warrior")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "card")]
    assert sorted(discard(e)) == ["miner:1", "warrior:3"]


def test_garm_is_explorer_ranks_9_and_0_plus_1_per_explorer_rank_his_own_included():
    """001 "Garm": "Has 2 Explorer ranks. Adds 9 and 0 points to your Explorer Bravery Value + 1 point per
    rank present in the Explorer column, including his own." """
    e = engine(3)
    assert take(e, 0, "garm") == []
    assert column(e, 0, "explorer") == ["garm"]
    assert e.ranks(0, "explorer") == 2
    assert breakdown(e, 0)["explorer"] == 9 + 0 + 2
    take(e, 0, "explorer:5")
    take(e, 0, "explorer:11")
    assert e.ranks(0, "explorer") == 4
    assert breakdown(e, 0)["explorer"] == 5 + 11 + 9 + 0 + 4
    assert breakdown(e, 0)["mythology"] == 0


def test_garm_makes_the_explorer_distinction_draw_6_cards_of_the_age_2_deck():
    """001 "Garm": "If you win the Explorer Distinction: draw 6 cards from the Age 2 deck (instead of 3)
    and keep 1." """
    e = engine(3)
    give(e, 0, "garm")
    stack_pile(e, e.s.decks[2], "explorer:7", "warrior:3", "hunter", "miner:1", "blacksmith", "explorer:10")
    left = deck(e, 2)[:-6]
    log = run_checked(e, run_steps(e, steps(e, "troop-evaluation", part="age_end")), "explorer:10@draw")
    assert kinds(log) == [(0, "card")]
    assert shown(log[0]) == ["explorer:7@draw", "warrior:3@draw", "hunter@draw", "miner:1@draw", "blacksmith@draw",
                             "explorer:10@draw"]
    assert column(e, 0, "explorer") == ["garm", "explorer:10"]
    assert command(e, 0) == ["distinction:explorer"]
    assert sorted(deck(e, 2)) == sorted(left + ["explorer:7", "warrior:3", "hunter", "miner:1", "blacksmith"])


def test_without_garm_the_explorer_distinction_draws_3():
    """003 "Pioneer of the Kingdom" (the draw Garm changes): 3 cards of the Age 2 deck, keep 1. """
    e = engine(3)
    give(e, 0, "explorer:5", "explorer:6", "explorer:8")
    give(e, 1, "garm")                                      # Garm in another player's army
    stack_pile(e, e.s.decks[2], "explorer:7", "warrior:3", "hunter", "miner:1")
    log = run_checked(e, run_steps(e, steps(e, "troop-evaluation", part="age_end")), "explorer:7@draw")
    assert shown(log[0]) == ["explorer:7@draw", "warrior:3@draw", "hunter@draw"]


def test_hreasvelg_is_a_blacksmith_rank_and_places_gullinbursti_in_the_column_of_your_choice():
    """001 "Hreasvelg": "Has 1 Blacksmith rank. Take the special card Gullinbursti and place it in the
    column of your choice." The two placements complete a line: a hero is recruited once Hreasvelg's
    entry is done (DESIGN §9). """
    e = engine(3)
    one_line_but(e, 0, "miner", "blacksmith")
    log = take(e, 0, "hreasvelg", "miner", "skaa")
    assert kinds(log) == [(0, "column"), (0, "hero")]
    assert shown(log[0]) == ["warrior", "hunter", "miner", "blacksmith", "explorer"]
    assert column(e, 0, "blacksmith") == ["hreasvelg"]
    assert column(e, 0, "miner") == ["gullinbursti"]
    assert command(e, 0) == ["skaa"]
    assert e.ranks(0, "blacksmith") == 1 and e.ranks(0, "miner") == 1
    assert not any(e.s.cards[c] == "gullinbursti" for c in e.s.supply)
    b = breakdown(e, 0)
    assert b["blacksmith"] == 3 and b["miner"] == 0


def test_nidhogg_is_a_warrior_rank_of_5_plus_2_per_warrior_rank_his_own_included():
    """001 "Nidhogg": "Has 1 Warrior rank. Adds 5 points to your Warrior Bravery Value +2 points per rank
    present in the Warrior column, including his own." """
    e = engine(3)
    give(e, 1, "warrior:8", "warrior:9", "warrior:7", "warrior:6")   # P2 has the warrior majority
    assert take(e, 0, "nidhogg") == []
    assert column(e, 0, "warrior") == ["nidhogg"]
    assert breakdown(e, 0)["warrior"] == 5 + 2 * 1
    give(e, 0, "warrior:3", "warrior:4")
    assert e.ranks(0, "warrior") == 3
    assert breakdown(e, 0)["warrior"] == 3 + 4 + 5 + 2 * 3
    assert breakdown(e, 0)["mythology"] == 0


def test_nidhogg_counts_for_the_warrior_majority_and_is_no_dwarf_card_for_bonfur():
    """001 "Nidhogg": "Has 1 Warrior rank" (a rank for the majority); DESIGN §9: "For Dagda's, Bonfur's and
    Brísingamens' discards every army card that is neither a hero nor an animal counts as a dwarf card" —
    Bonfur takes the dwarf below Nidhogg, never Nidhogg. """
    e = engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    give(e, 0, "warrior:3", "nidhogg", "miner:1")
    give(e, 1, "warrior:9")
    assert breakdown(e, 0)["warrior"] == 3 + 5 + 2 * 2 + 5     # 2 ranks against 1: the highest coin
    log = run_checked(e, e.recruit_hero(0), "bonfur", "warrior:3@warrior")
    assert sorted(shown(log[1])) == ["miner:1@miner", "warrior:3@warrior"]
    assert column(e, 0, "warrior") == ["nidhogg"]


def test_hofud_may_take_nidhogg_who_leaves_the_game():
    """DESIGN §9: "Höfud takes "any card in the Warrior column except a Hero card" (002), animals
    included"; the animals' kind discards to the box (rules/idavoll/game.yaml `discards_to: box`): a
    mythology card never enters the explored discard pile. """
    e = both(3, age=2)
    give(e, 1, "warrior:3", "nidhogg", "tarah")
    camp(e, "hofud")
    log = take(e, 0, "hofud", "nidhogg@warrior")
    assert sorted(shown(log[0])) == ["nidhogg@warrior", "warrior:3@warrior"]   # not Tarah
    assert column(e, 1, "warrior") == ["warrior:3", "tarah"]
    assert box(e) == ["nidhogg"] and "nidhogg" not in discard(e)


def test_ratatosk_is_a_miner_rank_of_2_and_each_pair_of_0_point_ranks_adds_1_before_multiplying():
    """001 "Ratatosk": "Has 1 Miner rank. Adds 2 points to your Miner Bravery Value. When determining the
    Bravery Value for each class, each pair of 0 point rank adds 1 point to the Miner Bravery Value before
    the multiplication by the amount of ranks." """
    e = engine(3)
    give(e, 0, "miner:0", "miner:0", "miner:1")
    assert breakdown(e, 0)["miner"] == 1 * 3                # without Ratatosk the 0s add nothing
    assert take(e, 0, "ratatosk") == []
    assert column(e, 0, "miner") == ["miner:0", "miner:0", "miner:1", "ratatosk"]
    assert breakdown(e, 0)["miner"] == (0 + 0 + 1 + 2 + 1) * 4   # one pair of 0-point ranks
    give(e, 0, "miner:0")                                   # 3 zero ranks: still one pair
    assert breakdown(e, 0)["miner"] == (0 + 0 + 1 + 2 + 0 + 1) * 5
    give(e, 0, "zoral")                                     # Zoral's ranks 1, 0, 0: 5 zeros, two pairs
    assert breakdown(e, 0)["miner"] == (1 + 2 + 1 + 2) * 8
    assert breakdown(e, 0)["mythology"] == 0


def test_ratatosk_counts_gullinbursti_as_a_0_point_miner_rank():
    """001 "Ratatosk": "each pair of 0 point rank adds 1 point"; DESIGN §9: "Olwyn's doubles and
    Gullinbursti are one rank of 0 points". """
    e = engine(3)
    give(e, 0, "ratatosk", "miner:0")
    give(e, 0, "gullinbursti", column="miner")
    assert e.zero_ranks(0, "miner") == 2
    assert breakdown(e, 0)["miner"] == (2 + 1) * 3


# == Gullinbursti ==================================================================================

def test_gullinbursti_has_its_columns_class_and_is_a_dwarf_card_for_dagda():
    """DESIGN §9: "While a card stands in an army column it has that column's class (... Gullinbursti
    ...). Olwyn's doubles and Gullinbursti are one rank of 0 points"; "For Dagda's, Bonfur's and
    Brísingamens' discards every army card that is neither a hero nor an animal counts as a dwarf card:
    dwarves, mercenaries, the doubles, Gullinbursti, ...". """
    e = engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    give(e, 0, "hreasvelg")
    give(e, 0, "gullinbursti", column="warrior")
    g = e.s.players[0].army["warrior"][0]
    assert e.card_class(g) == "warrior" and e.is_kind(g, "dwarf")
    assert e.ranks(0, "warrior") == 1 and e.points(0, "warrior") == 0
    assert breakdown(e, 0)["warrior"] == 0 + 5              # a warrior rank: the majority's highest coin
    give(e, 0, "explorer:5")
    log = run_checked(e, e.recruit_hero(0), "dagda", "gullinbursti@warrior")   # the second: the one left
    assert kinds(log) == [(0, "hero"), (0, "card")]
    assert sorted(shown(log[1])) == ["explorer:5@explorer", "gullinbursti@warrior"]   # not Hreasvelg
    assert column(e, 0, "warrior") == [] and column(e, 0, "blacksmith") == ["hreasvelg"]
    assert "explorer:5" in discard(e)
    assert not any(e.s.cards[c] == "gullinbursti" for c in e.owned(0))


# == Gods ==========================================================================================

def test_frigg_on_a_dwarf_picked_in_the_tavern_draws_3_keeps_1_and_puts_2_under_the_deck():
    """001 "Frigg": "When you choose a Dwarf card or a Royal Offering in the Tavern being resolved, place 1
    of the cards below the deck to draw 3 cards from the current Age deck and keep 1. Put the 2 remaining
    cards under the deck in the order of your choice." Every card is in a zone at each question. """
    e = engine(3)
    frigg = mine(e, 0, "frigg")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    stack_pile(e, e.s.decks[1], "hunter", "blacksmith", "explorer:5")
    below = deck(e)[:-3]
    bids(e, ([5, 2, 3], [0, 4]), ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]))
    log = run_log(checked(resolve_taverns_one(e, 0), e),
                  "warrior:9", "yes", "blacksmith@draw", "explorer:5@draw", "explorer:11")
    assert kinds(log) == [(0, "pick"), (0, "use"), (0, "card"), (0, "card"), (1, "pick")]
    assert shown(log[2]) == ["hunter@draw", "blacksmith@draw", "explorer:5@draw"]
    assert shown(log[3]) == ["hunter@draw", "explorer:5@draw"]
    assert column(e, 0, "blacksmith") == ["blacksmith"]     # the card kept, taken as usual
    assert column(e, 0, "warrior") == []                    # the chosen card went under the deck
    assert deck(e) == ["hunter", "explorer:5", "warrior:9"] + below   # then the 2, in the order chosen
    assert column(e, 1, "explorer") == ["explorer:11"] and column(e, 2, "miner") == ["miner:2"]
    assert e.used(frigg)
    assert breakdown(e, 0)["mythology"] == 12


def test_frigg_on_a_royal_offering_puts_it_under_the_deck_unapplied():
    """001 "Frigg": "When you choose a Dwarf card or a Royal Offering in the Tavern being resolved, place 1
    of the cards below the deck to draw 3 cards ... and keep 1." """
    e = engine(3)
    mine(e, 0, "frigg")
    fill_tavern(e, 0, "royal-offering:3", "explorer:11", "miner:2")
    stack_pile(e, e.s.decks[1], "warrior:3", "warrior:4", "warrior:5")
    bids(e, ([5, 2, 3], [0, 4]), ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]))
    log = run_log(checked(resolve_taverns_one(e, 0), e),
                  "royal-offering:3", "yes", "warrior:5@draw", "warrior:3@draw", "explorer:11")
    assert kinds(log) == [(0, "pick"), (0, "use"), (0, "card"), (0, "card"), (1, "pick")]
    assert values(e, e.s.players[0].slots) == [5, 2, 3]      # no coin transformed
    assert column(e, 0, "warrior") == ["warrior:5"]
    assert deck(e)[:3] == ["warrior:4", "warrior:3", "royal-offering:3"]
    assert "royal-offering:3" not in discard(e)


def test_frigg_with_thingvellir_acts_on_a_dwarf_picked_in_the_tavern():
    """001 "Frigg": "When you choose a Dwarf card or a Royal Offering in the Tavern being resolved" — with
    the Camp open as a pick source too. """
    e = both(3)
    frigg = mine(e, 0, "frigg")
    camp(e, "draupnir")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    stack_pile(e, e.s.decks[1], "hunter", "blacksmith", "explorer:5")
    bids(e, ([5, 2, 3], [0, 4]), ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]))
    log = run_log(checked(resolve_taverns_one(e, 0), e),
                  "warrior:9", "yes", "blacksmith@draw", "explorer:5@draw", "explorer:11")
    assert kinds(log) == [(0, "pick"), (0, "use"), (0, "card"), (0, "card"), (1, "pick")]
    assert column(e, 0, "blacksmith") == ["blacksmith"] and e.used(frigg)


def test_frigg_does_not_act_on_a_mythology_card_picked_in_the_dancing_dragon():
    """DESIGN §9: "Frigg acts when her owner picks a dwarf or royal offering in a tavern (not a mythology
    or Camp card)"; 001: "When you choose a Dwarf card or a Royal Offering". """
    e = engine(3)
    frigg = mine(e, 0, "frigg")
    fill_tavern(e, 1, "nidhogg", "hildr", "garm")
    bids(e, ([2, 5, 3], [0, 4]), ([4, 2, 3], [0, 5]), ([3, 4, 2], [0, 5]))
    log = run_log(checked(resolve_taverns_one(e, 1), e), "nidhogg", "hildr")
    assert kinds(log) == [(0, "pick"), (2, "pick")]         # no power offered
    assert column(e, 0, "warrior") == ["nidhogg"]
    assert not e.used(frigg)


def test_frigg_does_not_act_on_a_camp_card():
    """DESIGN §9: "Frigg acts when her owner picks a dwarf or royal offering in a tavern (not a mythology
    or Camp card)". """
    e = both(3)
    frigg = mine(e, 0, "frigg")
    camp(e, "draupnir", "mercenary:hunter-miner1")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    bids(e, ([5, 2, 3], [0, 4]), ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]))
    log = run_log(checked(resolve_taverns_one(e, 0), e), "mercenary:hunter-miner1@camp", "warrior:9", "explorer:11")
    assert kinds(log) == [(0, "pick"), (1, "pick"), (2, "pick")]
    assert command(e, 0) == ["frigg", "mercenary:hunter-miner1"]
    assert not e.used(frigg)


def test_frigg_is_once_per_game_and_a_declined_power_stays_for_later():
    """001 "The power of the Norse Gods may be triggered once in the game: ... You may activate his or her
    ability once in a game by discarding the Power token". """
    e = engine(3)
    frigg = mine(e, 0, "frigg")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    fill_tavern(e, 1, "hunter", "blacksmith", "miner:1")
    fill_tavern(e, 2, "explorer:5", "warrior:3", "miner:0")
    stack_pile(e, e.s.decks[1], "warrior:4", "warrior:5", "warrior:6")
    bids(e, ([5, 4, 3], [0, 2]), ([4, 2, 5], [0, 3]), ([3, 5, 2], [0, 4]))
    log = run_log(checked(resolve_taverns(e), e),
                  "warrior:9", "no", "explorer:11",                      # Laughing Goblin: P1 declines
                  "hunter", "blacksmith", "yes", "warrior:4@draw", "warrior:5@draw",  # Dancing Dragon: used
                  "explorer:5", "warrior:3")                              # Shining Horse: not asked again
    assert kinds(log) == [(0, "pick"), (0, "use"), (1, "pick"),
                          (2, "pick"), (0, "pick"), (0, "use"), (0, "card"), (0, "card"),
                          (1, "pick"), (0, "pick")]
    assert column(e, 0, "warrior") == ["warrior:9", "warrior:4", "warrior:3"]
    assert column(e, 0, "blacksmith") == [] and column(e, 1, "miner") == ["miner:1"]
    assert e.used(frigg)


def test_frigg_does_not_act_on_a_card_drawn_for_the_explorer_distinction():
    """001 "Frigg": "When you choose a Dwarf card or a Royal Offering in the Tavern being resolved" — a
    card kept from the Pioneer's draw is not chosen in a tavern. """
    e = engine(3)
    frigg = mine(e, 0, "frigg")
    give(e, 0, "explorer:5")
    stack_pile(e, e.s.decks[2], "explorer:7", "warrior:3", "hunter")
    log = run_checked(e, run_steps(e, steps(e, "troop-evaluation", part="age_end")), "explorer:7@draw")
    assert kinds(log) == [(0, "card")]
    assert not e.used(frigg)


def test_thor_cancels_bonfurs_discard():
    """001 "Thor": "When a discard effect should trigger, you can cancel it. In the base game, this effect
    works on the discard effect of Bonfur". """
    e = engine(3)
    thor = mine(e, 0, "thor")
    give(e, 0, "warrior:3")
    log = run_checked(e, e.recruit_hero(0), "bonfur", "yes")
    assert kinds(log) == [(0, "hero"), (0, "use")]
    assert column(e, 0, "warrior") == ["warrior:3"]
    assert column(e, 0, "blacksmith") == ["bonfur"]
    assert discard(e) == [] and e.used(thor)
    assert breakdown(e, 0)["mythology"] == 8


def test_thor_cancels_one_of_dagdas_two_discards():
    """001 "Thor": "this effect works ... on 1 of the discard effects of Dagda"; DESIGN §9: "Thor cancels
    one discard effect that targets his owner (one of Dagda's two)". """
    e = engine(3)
    thor = mine(e, 0, "thor")
    give(e, 0, "warrior:3", "miner:1", "explorer:5")
    log = run_checked(e, e.recruit_hero(0), "dagda", "warrior:3@warrior", "miner:1@miner", "yes")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "card"), (0, "use")]   # the second: no more power
    assert column(e, 0, "warrior") == ["warrior:3"]
    assert column(e, 0, "miner") == [] and discard(e) == ["miner:1"]
    assert e.used(thor)
    # declining the first discard's cancel, the second may still be cancelled
    e = engine(3)
    mine(e, 0, "thor")
    give(e, 0, "warrior:3", "miner:1", "explorer:5")
    log = run_checked(e, e.recruit_hero(0), "dagda", "warrior:3@warrior", "miner:1@miner", "no", "yes")
    assert kinds(log) == [(0, "hero"), (0, "card"), (0, "card"), (0, "use"), (0, "use")]
    assert column(e, 0, "warrior") == [] and column(e, 0, "miner") == ["miner:1"]
    assert discard(e) == ["warrior:3"]


def test_thor_is_once_per_game():
    """001 "The power of the Norse Gods may be triggered once in the game". """
    e = engine(3)
    mine(e, 0, "thor")
    give(e, 0, "warrior:3", "warrior:4")
    run(e.recruit_hero(0), "bonfur", "yes")
    assert column(e, 0, "warrior") == ["warrior:3", "warrior:4"]
    e.s.players[0].heroes_counted = 0
    give(e, 0, "miner:1")
    log = run_checked(e, e.recruit_hero(0), "dagda", "warrior:4@warrior")   # two columns: both discarded
    assert kinds(log) == [(0, "hero"), (0, "card")]          # no power offered
    assert column(e, 0, "warrior") == ["warrior:3"] and column(e, 0, "miner") == []
    assert sorted(discard(e)) == ["miner:1", "warrior:4"]


def test_thor_cancels_hofud_for_his_owner():
    """001 "Thor": "In Thingvellir, it works on the Brisingamen and on Hofud." 002 "Höfud": "each other
    Elvaland chooses and discards a Warrior card from their army". """
    e = both(3, age=2)
    thor = mine(e, 1, "thor")
    give(e, 1, "warrior:3", "warrior:7")
    give(e, 2, "warrior:5")
    camp(e, "hofud")
    log = take(e, 0, "hofud", "warrior:7@warrior", "yes")
    assert kinds(log) == [(1, "card"), (1, "use")]          # P3's only warrior goes without a question
    assert column(e, 1, "warrior") == ["warrior:3", "warrior:7"]
    assert column(e, 2, "warrior") == []
    assert discard(e) == ["warrior:5"] and e.used(thor)


def test_thor_cancels_brisingamens_end_of_game_discard():
    """001 "Thor": "In Thingvellir, it works on the Brisingamen"; 002 "Brísingamens": "At the end of Age 2,
    before counting points, discard a Dwarf card of your choice from your army." """
    e = both(3, age=2)
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    give(e, 0, "brisingamens", column=None)
    thor = mine(e, 0, "thor")
    give(e, 0, "warrior:9", "explorer:11")
    log = run_log(checked(run_steps(e, e.rules.ruleset.age_end), e), "explorer:11@explorer", "yes")
    assert kinds(log) == [(0, "card"), (0, "use")]
    assert column(e, 0, "explorer") == ["explorer:11"] and e.used(thor)
    assert e.scores["players"][0]["breakdown"]["explorer"] == 11
    assert e.scores["players"][0]["breakdown"]["mythology"] == 8


def test_freya_swaps_a_card_of_one_tavern_with_a_card_of_another_before_the_bids():
    """001 "Freya": "At the end of THE ENTRANCE OF THE DWARVES and before the biddings, you may swap one card
    in a tavern with a card in another tavern." "Adds 15 points to your final Bravery Value." """
    e = engine(3)
    freya = mine(e, 1, "freya")
    e.s.turn = 4
    stack_pile(e, e.s.decks[1], "warrior:9", "explorer:11", "miner:2", "hunter", "blacksmith", "miner:1",
               "explorer:5", "warrior:3", "miner:0")
    order = [s.id for s in e.rules.ruleset.turn]
    assert order.index("enter-dwarves") < order.index("dwarves-entered") < order.index("bids")
    log = window(e, "enter-dwarves")
    log += window(e, "dwarves-entered", "yes", "miner:0@shining-horse", "warrior:9@laughing-goblin")
    assert kinds(log) == [(1, "use"), (1, "card"), (1, "card")]
    assert shown(log[2]) == ["warrior:9@laughing-goblin", "explorer:11@laughing-goblin", "miner:2@laughing-goblin",
                             "hunter@dancing-dragon", "blacksmith@dancing-dragon", "miner:1@dancing-dragon"]
    assert [tavern(e, t) for t in range(3)] == [["miner:0", "explorer:11", "miner:2"],
                                                ["hunter", "blacksmith", "miner:1"],
                                                ["explorer:5", "warrior:3", "warrior:9"]]
    assert e.used(freya)
    assert window(e, "dwarves-entered") == []               # once per game: not asked again
    assert breakdown(e, 1)["mythology"] == 15


def test_loki_reserves_a_card_before_freya_swaps_whatever_the_gems():
    """001 "Freya": "Loki has priority on the ability of Freya." DESIGN §9: "Freya and Loki act at the end
    of the dwarves' entry, Loki first." P1 (highest gem) holds Freya, P3 (lowest) Loki: Loki still goes
    first. """
    e = engine(3)
    mine(e, 0, "freya")
    loki = mine(e, 2, "loki")
    e.s.turn = 4
    stack_pile(e, e.s.decks[1], "warrior:9", "explorer:11", "miner:2", "hunter", "blacksmith", "miner:1",
               "explorer:5", "warrior:3", "miner:0")
    order = [s.id for s in e.rules.ruleset.turn]
    assert order.index("enter-dwarves") < order.index("reservations") < order.index("dwarves-entered")
    log = run_checked(e, run_steps(e, steps(e, "enter-dwarves", "reservations", "dwarves-entered")),
                      "yes", "warrior:9@laughing-goblin",                       # Loki
                      "yes", "hunter@dancing-dragon", "explorer:5@shining-horse")   # then Freya
    assert kinds(log) == [(2, "use"), (2, "card"), (0, "use"), (0, "card"), (0, "card")]
    assert {e.s.cards[c]: p for c, p in e.s.reserved.items()} == {"warrior:9": 2}
    assert e.used(loki)
    assert breakdown(e, 2)["mythology"] == 8


def test_lokis_reserved_card_can_be_taken_only_by_his_owner():
    """001 "Loki": "you ca place the Power token of Loki on 1 card of your choice to reserve that card. No
    one but you can recruit this card." """
    e = engine(3)
    mine(e, 2, "loki")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    window(e, "reservations", "yes", "warrior:9@laughing-goblin")
    bids(e, ([5, 2, 3], [0, 4]), ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]))
    log = resolve_tavern(e, 0, "explorer:11")
    assert kinds(log) == [(0, "pick")]                      # P2 has one card left to take; P3 the reserved
    assert shown(log[0]) == ["explorer:11@laughing-goblin", "miner:2@laughing-goblin"]
    assert column(e, 0, "explorer") == ["explorer:11"]
    assert column(e, 1, "miner") == ["miner:2"]
    assert column(e, 2, "warrior") == ["warrior:9"]


def test_a_player_who_finds_only_reserved_cards_takes_nothing_and_the_card_left_is_discarded():
    """DESIGN §9: "Loki reserves one tavern card for the turn: only his owner may take it; a player who
    finds only reserved cards takes nothing, and a reserved card left at the end of its tavern is
    discarded." 001 "Loki": "if you recruited another card in the Tavern than the chosen card, discard the
    Power token of Loki". """
    e = engine(3)
    mine(e, 2, "loki")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    window(e, "reservations", "yes", "warrior:9@laughing-goblin")
    bids(e, ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]), ([5, 2, 3], [0, 4]))   # P3 bids highest
    log = resolve_tavern(e, 0, "explorer:11")
    assert kinds(log) == [(2, "pick")]
    assert shown(log[0]) == ["warrior:9@laughing-goblin", "explorer:11@laughing-goblin", "miner:2@laughing-goblin"]
    assert column(e, 2, "explorer") == ["explorer:11"]
    assert column(e, 0, "miner") == ["miner:2"]
    assert e.s.players[1].army == {}                        # P2 found only the reserved card
    assert discard(e) == ["warrior:9"] and e.s.taverns[0] == []


def test_a_reserved_mythology_card_left_in_the_dancing_dragon_leaves_the_game():
    """DESIGN §9: "a reserved card left at the end of its tavern is discarded"; "untaken mythology cards
    leave the game". """
    e = engine(3)
    mine(e, 2, "loki")
    fill_tavern(e, 1, "nidhogg", "hildr", "garm")
    window(e, "reservations", "yes", "hildr@dancing-dragon")
    bids(e, ([2, 4, 3], [0, 5]), ([4, 3, 2], [0, 5]), ([3, 5, 2], [0, 4]))
    log = resolve_tavern(e, 1, "nidhogg")
    assert kinds(log) == [(2, "pick")]
    assert column(e, 2, "warrior") == ["nidhogg"] and column(e, 0, "explorer") == ["garm"]
    assert box(e) == ["hildr"] and "hildr" not in discard(e)


def test_odin_returns_a_neutral_hero_at_the_end_of_the_turn_and_recruits_another_whose_effect_applies():
    """001 "Odin": "At the end of your turn, you may put one of your Neutral Heroes back in the reserve and
    recruit another Neutral Hero instead. Then, possibly apply the effect of the newly recruited Hero. Adds
    0 points to your final Bravery Value." """
    e = engine(3)
    odin = mine(e, 0, "odin")
    give(e, 0, "skaa", column=None)
    give(e, 0, "tarah")                                     # a class hero: not offered
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    log = window(e, "turn-end", "yes", "grid", "5@hand")
    assert kinds(log) == [(0, "use"), (0, "hero"), (0, "coin")]
    offered = ids(log[1])
    assert "grid" in offered and "skaa" not in offered      # another hero than the one put back
    assert all(e.rules.cards[h].cls == "neutral" for h in offered)
    assert command(e, 0) == ["odin", "grid"]
    assert "skaa" in ids_of(e, e.s.heroes)
    assert sorted(values(e, e.s.players[0].hand)) == [0, 2, 3, 4, 12]     # Grid's +7
    assert e.used(odin)
    b = breakdown(e, 0)
    assert b["mythology"] == 0 and b["heroes"] == 7
    assert window(e, "turn-end") == []                      # once per game


def test_odin_does_nothing_without_a_neutral_hero():
    """DESIGN §9: "Odin, at the end of his owner's turn, returns one neutral hero the owner has ...; with no
    neutral hero to return nothing happens." A class hero is no neutral hero; nor is Thrud standing in a
    column (DESIGN §9: "While a card stands in an army column it has that column's class"). """
    e = engine(3)
    odin = mine(e, 0, "odin")
    give(e, 0, "tarah", "aral")
    give(e, 0, "thrud", column="warrior")
    assert window(e, "turn-end") == []
    assert not e.used(odin)


def test_odin_offers_nothing_when_no_other_neutral_hero_can_be_recruited():
    """001 "Odin": "put one of your Neutral Heroes back in the reserve and recruit another Neutral Hero
    instead" — the hero goes back only in exchange for another; with no other neutral hero left, nothing
    happens (as DESIGN §9: "with no neutral hero to return nothing happens"). """
    e = engine(3)
    odin = mine(e, 0, "odin")
    give(e, 0, "skaa", column=None)
    for h in list(e.s.heroes):                              # every other neutral hero is taken
        if e.defs[h].cls == "neutral":
            e.s.heroes.remove(h)
            e.attach(1, h, None)
    assert window(e, "turn-end") == []
    assert command(e, 0) == ["odin", "skaa"] and not e.used(odin)


# == Giants ========================================================================================

def test_skymir_captures_a_hunter_draws_5_set_aside_keeps_2_and_puts_3_under_in_the_chosen_order():
    """001 "Skymir": "Capture the next Hunter card you recruit to draw 5 Mythology cards from the cards next
    to the Royal Treasure and keep 2. Put the 3 remaining cards under the Mythology card deck next to the
    Royal Treasure." DESIGN §9: "keeps 2 (taken as usual)". Every card is in a zone at each question. """
    e = engine(3)
    skymir = mine(e, 0, "skymir")
    stack_pile(e, e.s.zones["mythology"], "nidhogg", "loki", "hildr", "garm", "thor")
    under = mythology(e)[:-5]
    log = take(e, 0, "hunter", "yes", "nidhogg@draw", "loki@draw", "garm@draw", "thor@draw")
    assert kinds(log) == [(0, "use"), (0, "card"), (0, "card"), (0, "card"), (0, "card")]
    assert shown(log[1]) == ["nidhogg@draw", "loki@draw", "hildr@draw", "garm@draw", "thor@draw"]
    assert column(e, 0, "warrior") == ["nidhogg"]           # an animal into its column
    assert command(e, 0) == ["skymir", "loki"]              # a god into the command zone
    assert mythology(e) == ["hildr", "thor", "garm"] + under  # under the pile: garm first, then thor, hildr
    assert e.s.players[0].army.get("hunter", []) == []      # the captured hunter is no rank
    assert e.ranks(0, "hunter") == 0
    assert ids_of(e, e.mark(skymir, "captured")) == ["hunter"] and e.used(skymir)
    assert {"card": "skymir", "captured": "hunter"} in position_of(e)["players"][0]["command_zone"]
    assert breakdown(e, 0)["mythology"] == 8                # Loki's 8; Skymir scores nothing


def test_skymir_draws_fewer_when_fewer_cards_are_set_aside():
    """DESIGN §9: "Skymir draws up to 5 of the cards set aside, keeps 2 (taken as usual), and puts the rest
    under that pile." """
    e = engine(3)
    mine(e, 0, "skymir")
    pile = e.s.zones["mythology"]
    left = [pull(e, cid) for cid in ("gymir", "svafa", "brynhildr")]
    e.s.box.extend(pile)                                    # only these 3 are still set aside
    pile[:] = left
    log = take(e, 0, "hunter", "yes", "brynhildr@draw", "gymir@draw")
    assert kinds(log) == [(0, "use"), (0, "card"), (0, "card")]   # the last one goes under unasked
    assert command(e, 0) == ["skymir", "brynhildr", "gymir"]
    assert mythology(e) == ["svafa"]


def test_surt_captures_a_warrior_and_adds_the_highest_coin():
    """001 "Surt": "Capture the next Warrior card you recruit. This will allow you, at the end of the game,
    to add to your final Bravery Value the value of your highest coin." """
    e = engine(3)
    surt = mine(e, 0, "surt")
    set_coins(e, 0, hand=[0, 2, 3, 14, 5])
    give(e, 1, "warrior:3", "warrior:4")                    # P2 has the warrior majority
    log = take(e, 0, "warrior:9", "yes")
    assert kinds(log) == [(0, "use")]
    assert e.ranks(0, "warrior") == 0 and ids_of(e, e.mark(surt, "captured")) == ["warrior:9"]
    b = breakdown(e, 0)
    assert b["mythology"] == 14 and b["warrior"] == 0


def test_surt_with_the_warrior_majority_adds_the_highest_coin_twice():
    """001 "Surt": "Note: if you own the majority of Warriors at the end of the game and that you have
    activated Surt, you will add twice the value of your highest coin to your final Bravery Value". """
    e = engine(3)
    mine(e, 0, "surt")
    set_coins(e, 0, hand=[0, 2, 3, 14, 5])
    give(e, 0, "warrior:3")
    give(e, 1, "warrior:4")
    take(e, 0, "warrior:9", "yes")
    assert e.ranks(0, "warrior") == 1
    give(e, 0, "warrior:5")                                 # 2 warrior ranks against 1
    b = breakdown(e, 0)
    assert b["warrior"] == 3 + 5 + 14
    assert b["mythology"] == 14
    assert player_score(e, 0)["total"] == 3 + 5 + 14 + 14 + (0 + 2 + 3 + 14 + 5)


def test_gymir_earns_three_times_the_captured_explorers_points():
    """001 "Gymir": "Capture the next Explorer card you recruit to earn 3 times its Bravery Value when
    counting the final Bravery Value." """
    e = engine(3)
    gymir = mine(e, 0, "gymir")
    give(e, 0, "explorer:5")
    log = take(e, 0, "explorer:11", "yes")
    assert kinds(log) == [(0, "use")]
    assert column(e, 0, "explorer") == ["explorer:5"] and ids_of(e, e.mark(gymir, "captured")) == ["explorer:11"]
    b = breakdown(e, 0)
    assert b["mythology"] == 3 * 11 and b["explorer"] == 5


def test_hrungnir_adds_2_to_each_coin_in_board_order_except_the_trading_coin_with_a_short_treasure():
    """001 "Hrungnir": "Capture the next Miner card you recruit to transform immediately each of your coins
    with +2. This effect does not apply to the trading coins (0 or Special 3). Apply the transformations in
    the order of your board, starting with the coin for the Laughing Goblin to the coins in your pouch,
    first the one on the left, then the one on the right. All the basic rules for coin transformation are
    to be applied as usual." The treasure holds no 5 and one 6: in board order the Laughing Goblin's 7
    becomes the 9 and gives its 7 back, which the Dancing Dragon's 5 then takes; the Shining Horse's 2
    takes the last 6 (no 4 nor 5); the pouch's 3 finds no 5, 6 nor 7 and takes an 8; the 0 stays. """
    e = engine(3)
    hrungnir = mine(e, 0, "hrungnir")
    bids(e, ([7, 5, 2], [3, 0]), ([4, 2, 3], [0, 5]), ([3, 4, 2], [0, 5]))
    t = e.s.treasure
    e.s.coin_box.extend(t.pop(5))
    e.s.coin_box.append(t[6].pop())
    assert (len(t.get(5, [])), len(t[6]), len(t[7]), len(t[8]), len(t[9])) == (0, 1, 0, 2, 1)
    fill_tavern(e, 0, "miner:2", "explorer:11", "warrior:9")
    log = run_log(checked(resolve_taverns_one(e, 0), e), "miner:2", "yes", "explorer:11")
    assert kinds(log) == [(0, "pick"), (0, "use"), (1, "pick")]
    pl = e.s.players[0]
    assert values(e, pl.slots) == [9, 7, 6]
    assert values(e, pl.pouch) == [8, 0]
    assert ids_of(e, e.mark(hrungnir, "captured")) == ["miner:2"] and e.ranks(0, "miner") == 0


def test_hrungnir_never_transforms_the_special_hunter_3():
    """001 "Hrungnir": "This effect does not apply to the trading coins (0 or Special 3)." """
    e = engine(3)
    mine(e, 0, "hrungnir")
    hunter3 = e.s.special_coins.pop("hunter-3")
    set_coins(e, 0, hand=[2, 4, 5, 9])
    e.s.players[0].hand.append(hunter3)
    take(e, 0, "miner:1", "yes")
    assert sorted(values(e, e.s.players[0].hand)) == [3, 5, 6, 7, 11]   # 2 + 2: no 4 in the treasure
    assert hunter3 in e.s.players[0].hand


def test_thrivaldi_captures_a_blacksmith_to_recruit_a_hero_not_counted_against_lines():
    """001 "Thrivaldi": "Capture the next Blacksmith card you recruit to immediately recruit a Hero card.
    This card does not count in the number of Hero cards you own according to the number of completed
    lines you have". """
    e = engine(3)
    thrivaldi = mine(e, 0, "thrivaldi")
    one_line_but(e, 0, "blacksmith")
    log = take(e, 0, "blacksmith", "yes", "skaa")
    assert kinds(log) == [(0, "use"), (0, "hero")]          # the captured blacksmith completes no line
    assert command(e, 0) == ["thrivaldi", "skaa"]
    assert e.lines(0) == 0 and e.s.players[0].heroes_counted == 0
    assert ids_of(e, e.mark(thrivaldi, "captured")) == ["blacksmith"]
    log = take(e, 0, "blacksmith", "astrid")                # the first line still recruits a hero
    assert kinds(log) == [(0, "hero")]
    assert command(e, 0) == ["thrivaldi", "skaa", "astrid"]
    assert e.s.players[0].heroes_counted == 1


def test_thrivaldi_recruits_a_hero_even_with_megingjord():
    """DESIGN §9 (Thingvellir): "Megingjord: no hero from lines for the rest of the game; Gjallarhorn still
    recruits one (counted), Thrivaldi's is not counted." 001 "Thrivaldi": "immediately recruit a Hero
    card". """
    e = both(3)
    give(e, 0, "megingjord", column=None)
    mine(e, 0, "thrivaldi")
    log = take(e, 0, "blacksmith", "yes", "skaa")
    assert kinds(log) == [(0, "use"), (0, "hero")]
    assert command(e, 0) == ["megingjord", "thrivaldi", "skaa"] and e.s.players[0].heroes_counted == 0


GIANT_CLASS = {"skymir": ("hunter", "hunter"), "surt": ("warrior", "warrior:9"),
               "gymir": ("explorer", "explorer:11"), "hrungnir": ("miner", "miner:2"),
               "thrivaldi": ("blacksmith", "blacksmith")}


@pytest.mark.parametrize("giant", sorted(GIANT_CLASS))
def test_a_giant_that_does_not_capture_turns_face_down_for_good(giant):
    """001 "Giants capture Dwarves": "During an upcoming recruitment, if you recruit a Dwarf of this class,
    you can choose between capturing the Dwarf card or placing it in your Army. ... If you place the Dwarf
    card in your Army, turn the Giant card face down ... They will no longer have any effect throughout
    the game." """
    cls, dwarf = GIANT_CLASS[giant]
    e = engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 14])
    card = mine(e, 0, giant)
    assert take(e, 0, "warrior:3" if cls != "warrior" else "miner:1") == []   # another class: no question
    log = take(e, 0, dwarf, "no")
    assert kinds(log) == [(0, "use")]
    assert ids_of(e, e.s.players[0].army[cls])[-1] == dwarf   # placed in the army
    assert e.mark(card, "face_down") and e.used(card) and not e.mark(card, "captured")
    assert take(e, 0, dwarf) == []                          # face down for good: no question
    assert e.ranks(0, cls) == 2
    assert breakdown(e, 0)["mythology"] == 0
    assert {"card": giant, "face_down": True} in position_of(e)["players"][0]["command_zone"]


@pytest.mark.parametrize("giant", sorted(GIANT_CLASS))
def test_a_giant_captures_once(giant):
    """001 "Giants capture Dwarves": "Each Giant card requires you to capture one Dwarf of a specific class.
    ... If you capture the Dwarf card, the effect of the Giant triggers immediately and discard the
    matching Capture token." The next dwarf of the class is placed without a question. """
    cls, dwarf = GIANT_CLASS[giant]
    e = engine(3)
    card = mine(e, 0, giant)
    answers = {"skymir": ("nidhogg@draw", "loki@draw", "hildr@draw", "garm@draw"), "thrivaldi": ("skaa",)}
    if giant == "skymir":
        stack_pile(e, e.s.zones["mythology"], "nidhogg", "loki", "hildr", "garm", "thor")
    take(e, 0, dwarf, "yes", *answers.get(giant, ()))
    assert e.captures(card) == 1 and not e.mark(card, "face_down")
    before = e.ranks(0, cls)
    assert take(e, 0, dwarf) == []
    assert e.ranks(0, cls) == before + 1 and e.captures(card) == 1


def test_a_giant_never_captures_an_animal_a_hero_or_gullinbursti():
    """DESIGN §9: "A giant captures only a dwarf card (kind dwarf) that its owner would place in the army
    from outside it"; 001 "if you recruit a Dwarf of this class". Nidhogg (an animal), Kraal (a hero) and
    Gullinbursti (the special card, placed by Hreasvelg in the hunter column) are not captured, and the
    giants stay ready. """
    e = engine(3)
    surt = mine(e, 0, "surt")
    skymir = mine(e, 0, "skymir")
    assert take(e, 0, "nidhogg") == []
    assert kinds(run_checked(e, e.recruit_hero(0), "kraal")) == [(0, "hero")]
    assert column(e, 0, "warrior") == ["nidhogg", "kraal"]
    assert kinds(take(e, 0, "hreasvelg", "hunter")) == [(0, "column")]
    assert column(e, 0, "hunter") == ["gullinbursti"]
    assert not e.used(surt) and not e.used(skymir)
    assert not e.mark(surt, "face_down") and not e.mark(skymir, "face_down")


def test_hreasvelg_places_gullinbursti_without_a_giants_question():
    """DESIGN §9: "A giant captures only a dwarf card (kind dwarf) that its owner would place in the army
    from outside it: from a tavern, a draw ..., or the discard pile". """
    e = engine(3)
    skymir = mine(e, 0, "skymir")
    log = take(e, 0, "hreasvelg", "hunter")
    assert kinds(log) == [(0, "column")]
    assert column(e, 0, "hunter") == ["gullinbursti"] and not e.used(skymir)


def test_a_giant_never_captures_the_special_blacksmith():
    """DESIGN §9: "A giant captures only a dwarf card ... from a tavern, a draw (the Explorer distinction),
    or the discard pile"; 003 "King's Great Armorer": the special Blacksmith card is placed in the
    blacksmith column — Thrivaldi does not capture it. """
    e = engine(3)
    thrivaldi = mine(e, 0, "thrivaldi")
    give(e, 0, "blacksmith")
    log = run_checked(e, run_steps(e, steps(e, "troop-evaluation", part="age_end")))
    assert log == []
    assert column(e, 0, "blacksmith") == ["blacksmith", "special-blacksmith"]
    assert not e.used(thrivaldi) and not e.mark(thrivaldi, "face_down")


def test_a_giant_never_captures_an_enlisted_mercenary():
    """DESIGN §9: "A giant captures only a dwarf card (kind dwarf) that its owner would place in the army
    from outside it"; a mercenary is enlisted from the command zone (002 "Mercenary cards"). """
    e = both(3)
    surt = mine(e, 0, "surt")
    give(e, 0, "mercenary:warrior6-explorer8", column=None)
    log = enlist(e, "warrior")
    assert kinds(log) == [(0, "column")]
    assert column(e, 0, "warrior") == ["mercenary:warrior6-explorer8"]
    assert not e.used(surt) and not e.mark(surt, "face_down")


def test_a_giant_captures_a_dwarf_kept_from_the_explorer_distinctions_draw():
    """DESIGN §9: "A giant captures only a dwarf card ... from a tavern, a draw (the Explorer distinction),
    or the discard pile (Andumia, Brísingamens)." """
    e = engine(3)
    gymir = mine(e, 0, "gymir")
    give(e, 0, "explorer:5")
    stack_pile(e, e.s.decks[2], "explorer:10", "warrior:3", "hunter")
    log = run_checked(e, run_steps(e, steps(e, "troop-evaluation", part="age_end")), "explorer:10@draw", "yes")
    assert kinds(log) == [(0, "card"), (0, "use")]
    assert ids_of(e, e.mark(gymir, "captured")) == ["explorer:10"]
    assert breakdown(e, 0)["mythology"] == 30


def test_a_giant_captures_a_dwarf_taken_from_the_discard_pile_by_andumia():
    """DESIGN §9: "A giant captures only a dwarf card ... from ... the discard pile (Andumia,
    Brísingamens)." """
    e = both(3)
    surt = mine(e, 0, "surt")
    set_coins(e, 0, hand=[0, 2, 3, 4, 13])
    e.s.discard.append(pull(e, "warrior:9"))
    log = run_checked(e, e.recruit_hero(0), "andumia", "yes")
    assert kinds(log) == [(0, "hero"), (0, "use")]
    assert ids_of(e, e.mark(surt, "captured")) == ["warrior:9"] and e.s.discard == []
    assert breakdown(e, 0)["mythology"] == 13


# == Valkyries =====================================================================================

def test_brynhildr_moves_one_notch_per_tavern_whose_bid_her_owner_wins():
    """001 "Brynhildr": "Each time you win a bid and that you can choose first during the resolution of a
    Tavern, move down one notch the Strength token on this Valkyrie. (Strength track : 0 - 3 - 6 - 10 -
    16)"; 001 "place 1 Strength token on the highest notch of the card" — DESIGN §9: "the token starts at
    notch 0". """
    e = engine(3)
    bryn = pull(e, "brynhildr")
    assert run_checked(e, e.take_card(0, bryn)) == []
    assert command(e, 0) == ["brynhildr"] and e.mark(bryn, "notch") == 0
    assert breakdown(e, 0)["mythology"] == 0
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    fill_tavern(e, 1, "hunter", "blacksmith", "miner:1")
    fill_tavern(e, 2, "explorer:5", "warrior:3", "miner:0")
    bids(e, ([5, 4, 2], [0, 3]), ([4, 2, 5], [0, 3]), ([2, 3, 4], [0, 5]))
    log = run_log(checked(resolve_taverns(e), e),
                  "warrior:9", "explorer:11",              # P1 wins the Laughing Goblin
                  "hunter", "blacksmith",                  # and the Dancing Dragon
                  "explorer:5", "warrior:3")               # P2 wins the Shining Horse
    assert [p for p, k in kinds(log)] == [0, 1, 0, 2, 1, 2]
    assert e.mark(bryn, "notch") == 2
    assert breakdown(e, 0)["mythology"] == 6


def test_brynhildrs_token_stops_at_the_last_notch():
    """DESIGN §9: "the token starts at notch 0 and moves one notch per trigger, stopping at the last". """
    e = engine(3)
    bryn = mine(e, 0, "brynhildr")
    e.set_mark(bryn, "notch", 4)
    assert breakdown(e, 0)["mythology"] == 16
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    bids(e, ([5, 4, 2], [0, 3]), ([4, 2, 5], [0, 3]), ([2, 3, 4], [0, 5]))
    resolve_tavern(e, 0, "warrior:9", "explorer:11")
    assert e.mark(bryn, "notch") == 4 and breakdown(e, 0)["mythology"] == 16


def test_brynhildr_counts_a_won_bid_whose_winner_goes_to_the_camp():
    """001 "Brynhildr": "Each time you win a bid and that you can choose first during the resolution of a
    Tavern"; 002: the top bidder may take a Camp card "instead of taking a card from the tavern". """
    e = both(3)
    bryn = mine(e, 0, "brynhildr")
    camp(e, "draupnir", "svalinn")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    bids(e, ([5, 4, 2], [0, 3]), ([4, 2, 5], [0, 3]), ([2, 3, 4], [0, 5]))
    resolve_tavern(e, 0, "draupnir@camp", "warrior:9", "explorer:11")
    assert command(e, 0) == ["brynhildr", "draupnir"]
    assert e.mark(bryn, "notch") == 1


def test_brynhildr_does_not_move_for_a_top_bidder_who_finds_only_reserved_cards():
    """001 "Brynhildr": "Each time you win a bid and that you can choose first" — a top bidder who can take
    nothing (DESIGN §9: "a player who finds only reserved cards takes nothing") does not choose. """
    e = engine(3)
    bryn = mine(e, 0, "brynhildr")
    mine(e, 2, "loki")
    fill_tavern(e, 0, "warrior:9")
    window(e, "reservations", "yes")
    bids(e, ([5, 4, 2], [0, 3]), ([4, 2, 5], [0, 3]), ([2, 3, 4], [0, 5]))
    assert resolve_tavern(e, 0) == []
    assert column(e, 2, "warrior") == ["warrior:9"]
    assert e.mark(bryn, "notch") == 0


def test_hildr_moves_one_notch_per_distinction_won_and_her_track_ends_on_0():
    """001 "Hildr": "During Troop Evaluation, for each Distinction you are awarded, move down one notch the
    Strength token on this Valkyrie. (Strength track : 0 - 8 - 16 - 0)"; DESIGN §9: "Hildr's track really
    ends on 0". """
    for won, notch, points in ((["hunter"], 1, 8), (["hunter", "miner"], 2, 16),
                               (["hunter", "miner", "blacksmith"], 3, 0)):
        e = engine(3)
        hildr = mine(e, 0, "hildr")
        give(e, 0, *[{"hunter": "hunter", "miner": "miner:1", "blacksmith": "blacksmith"}[cls] for cls in won])
        assert run_checked(e, run_steps(e, steps(e, "troop-evaluation", part="age_end"))) == []
        assert sorted(c for c in command(e, 0) if c.startswith("distinction:")) == \
            sorted(f"distinction:{w}" for w in won)
        assert e.mark(hildr, "notch") == notch
        assert breakdown(e, 0)["mythology"] == points


def test_hildr_does_not_move_for_another_players_distinction():
    """001 "Hildr": "for each Distinction you are awarded". """
    e = engine(3)
    hildr = mine(e, 0, "hildr")
    give(e, 1, "miner:1")
    run(run_steps(e, steps(e, "troop-evaluation", part="age_end")))
    assert command(e, 1) == ["distinction:miner"]
    assert e.mark(hildr, "notch") == 0


def test_olrun_takes_a_class_token_and_moves_per_card_joining_that_column():
    """001 "Ölrun": "As soon as you place Ölrun in your Command Zone, place 1 Class token on her. Each time
    you recruit a card with at least a rank of the chosen class in your Army, move down one notch the
    Strength token on this Valkyrie. (Strength track : 0 - 3 - 6 - 10 - 16)"; DESIGN §9: "each card that
    joins her owner's army in the chosen class's column (taken, recruited, enlisted, or placed by an effect
    such as Olwyn's doubles or Gullinbursti)". """
    e = both(3)
    olrun = pull(e, "olrun")
    log = run_checked(e, e.take_card(0, olrun), "explorer")
    assert kinds(log) == [(0, "class")]
    assert shown(log[0]) == ["warrior", "hunter", "miner", "blacksmith", "explorer"]
    assert command(e, 0) == ["olrun"] and e.chosen_class(olrun) == "explorer"
    notch = lambda: e.mark(olrun, "notch")
    take(e, 0, "explorer:5")                                # a dwarf taken
    assert notch() == 1
    take(e, 0, "warrior:3")                                 # another class
    assert notch() == 1
    take(e, 0, "garm")                                      # an animal of two ranks: one card, one notch
    assert notch() == 2
    run_checked(e, e.recruit_hero(0), "idunn")              # a hero recruited into the column
    assert notch() == 3
    assert breakdown(e, 0)["mythology"] == 10
    take(e, 0, "explorer:6")                                # the token stops at the last notch
    take(e, 0, "explorer:7")
    assert notch() == 4 and breakdown(e, 0)["mythology"] == 16
    assert {"card": "olrun", "notch": 4, "class": "explorer"} in position_of(e)["players"][0]["command_zone"]


def test_olrun_counts_enlisted_mercenaries_olwyns_doubles_and_gullinbursti():
    """DESIGN §9 (Ölrun): "each card that joins her owner's army in the chosen class's column (taken,
    recruited, enlisted, or placed by an effect such as Olwyn's doubles or Gullinbursti)". """
    e = both(3)
    olrun = mine(e, 0, "olrun")
    e.set_mark(olrun, "class", "warrior")
    give(e, 0, "mercenary:warrior6-explorer8", column=None)
    enlist(e, "warrior")
    assert e.mark(olrun, "notch") == 1
    run_checked(e, e.recruit_hero(0), "olwyn", "warrior", "hunter")
    assert e.mark(olrun, "notch") == 2                      # the double in the warrior column; not Olwyn
    take(e, 0, "hreasvelg", "warrior")
    assert column(e, 0, "warrior") == ["mercenary:warrior6-explorer8", "olwyn-double", "gullinbursti"]
    assert e.mark(olrun, "notch") == 3


def test_olrun_counts_vegvisir_placed_in_the_explorer_column():
    """DESIGN §9 (Ölrun): "each card that joins her owner's army in the chosen class's column (taken,
    ...)"; 002 "Vegvisir": "Immediately place this Artifact in the Explorer column of your army". """
    e = both(3)
    olrun = mine(e, 0, "olrun")
    e.set_mark(olrun, "class", "explorer")
    camp(e, "vegvisir")
    take(e, 0, "vegvisir")
    assert column(e, 0, "explorer") == ["vegvisir"] and e.mark(olrun, "notch") == 1


def test_olrun_does_not_count_a_card_moving_within_the_army():
    """DESIGN §9 (Ölrun): "a card moving within the army (Thrud, Ylud) does not". Thrud recruited into
    the warrior column joins it; moved aside when covered, she does not join again. """
    e = engine(3)
    olrun = mine(e, 0, "olrun")
    e.set_mark(olrun, "class", "hunter")
    run_checked(e, e.recruit_hero(0), "thrud", "warrior")
    assert e.mark(olrun, "notch") == 0                      # into the warrior column: not hers
    take(e, 0, "warrior:3", "hunter")                       # Thrud steps aside into the hunter column
    assert column(e, 0, "hunter") == ["thrud"]
    assert e.mark(olrun, "notch") == 0


def test_olrun_does_not_count_ylud_moving_at_the_end_of_age_2():
    """DESIGN §9 (Ölrun): "a card moving within the army (Thrud, Ylud) does not". Ylud, in the army since
    Age 1, moves to the chosen class's column at the end of Age 2. """
    e = engine(3, age=2)
    olrun = mine(e, 0, "olrun")
    e.set_mark(olrun, "class", "explorer")
    give(e, 0, "ylud", column="warrior")
    run_checked(e, run_steps(e, steps(e, "age-end", part="age_end")), "explorer")
    assert column(e, 0, "explorer") == ["ylud"]
    assert e.mark(olrun, "notch") == 0


def test_olrun_counts_ylud_placed_from_the_command_zone_at_the_end_of_age_1():
    """DESIGN §9 (Ölrun): "each card that joins her owner's army in the chosen class's column"; 003 "Ylud":
    recruited into the command zone, she is placed in a column at the end of the age — she joins the army
    then (like an enlisted mercenary). """
    e = engine(3, age=1)
    olrun = mine(e, 0, "olrun")
    e.set_mark(olrun, "class", "explorer")
    give(e, 0, "ylud", column=None)
    run_checked(e, run_steps(e, steps(e, "age-end", part="age_end")), "explorer")
    assert column(e, 0, "explorer") == ["ylud"]
    assert e.mark(olrun, "notch") == 1


def test_olrun_does_not_count_a_captured_dwarf():
    """001 Giants: a captured dwarf is not placed in the army ("choose between capturing the Dwarf card or
    placing it in your Army"); DESIGN §9: "Captured cards are no ranks". """
    e = engine(3)
    olrun = mine(e, 0, "olrun")
    e.set_mark(olrun, "class", "warrior")
    mine(e, 0, "surt")
    take(e, 0, "warrior:9", "yes")
    assert e.mark(olrun, "notch") == 0


def test_sigrdrifa_moves_one_notch_per_hero_recruited_however():
    """001 "Sigrdrífa": "Each time you recruit a Hero card, regardless of how, move down one notch the
    Strength token on this Valkyrie. (Strength track : 0 - 0 - 8 - 16)". A line, Thrivaldi and Odin. """
    e = engine(3)
    sig = mine(e, 0, "sigrdrifa")
    mine(e, 0, "thrivaldi")
    mine(e, 0, "odin")
    one_line_but(e, 0, "explorer")
    take(e, 0, "explorer:5", "skaa")                        # a line
    assert e.mark(sig, "notch") == 1 and breakdown(e, 0)["mythology"] == 0
    take(e, 0, "blacksmith", "yes", "astrid")               # Thrivaldi
    assert e.mark(sig, "notch") == 2 and breakdown(e, 0)["mythology"] == 8
    window(e, "turn-end", "yes", "skaa@command", "uline")   # Odin
    assert e.mark(sig, "notch") == 3 and breakdown(e, 0)["mythology"] == 16
    assert command(e, 0) == ["sigrdrifa", "thrivaldi", "odin", "astrid", "uline"]


def test_sigrdrifa_counts_a_hero_recruited_by_gjallarhorn_and_stops_at_the_last_notch():
    """001 "Sigrdrífa": "Each time you recruit a Hero card, regardless of how"; DESIGN §9: "stopping at the
    last". """
    e = both(3, age=2)
    sig = mine(e, 0, "sigrdrifa")
    e.set_mark(sig, "notch", 2)
    camp(e, "gjallarhorn")
    take(e, 0, "gjallarhorn", "skaa")
    assert e.mark(sig, "notch") == 3
    run_checked(e, e.recruit_hero(0, counted=False), "astrid")
    assert e.mark(sig, "notch") == 3 and breakdown(e, 0)["mythology"] == 16


def test_svafa_moves_one_notch_per_point_by_which_a_coin_trade_betters_the_coin():
    """001 "Svafa": "Each time you realise a betterment while trading or transforming a coin, move down one
    notch the Strength token on this Valkyrie per point of betterment. (Strength track : 0 - 4 - 8 -
    16)". A trade of 2 + 3 discards the 3 and takes a 5: 2 points. """
    e = engine(3)
    svafa = mine(e, 0, "svafa")
    fill_tavern(e, 0, "warrior:9", "explorer:11", "miner:2")
    bids(e, ([0, 4, 5], [2, 3]), ([4, 2, 3], [0, 5]), ([3, 2, 4], [0, 5]))
    resolve_tavern(e, 0, "explorer:11", "warrior:9")
    assert sorted(values(e, e.s.players[0].pouch)) == [2, 5]
    assert e.mark(svafa, "notch") == 2 and breakdown(e, 0)["mythology"] == 8


def test_svafa_counts_the_betterment_of_the_coin_actually_taken():
    """001 "Svafa": "per point of betterment"; 003 "Transforming a Coin": with no coin of the wanted value
    "take the first higher value available". A +3 on a 2 with no 5 in the treasure takes a 6: 4 points,
    and the token stops at the last notch. """
    e = engine(3)
    svafa = mine(e, 0, "svafa")
    e.s.coin_box.extend(e.s.treasure.pop(5))
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    take(e, 0, "royal-offering:3", "2@hand")
    assert sorted(values(e, e.s.players[0].hand)) == [0, 3, 4, 5, 6]
    assert e.mark(svafa, "notch") == 3 and breakdown(e, 0)["mythology"] == 16


def test_svafa_counts_each_of_hrungnirs_transformations():
    """001 "Svafa": "Each time you realise a betterment while trading or transforming a coin"; 001
    "Hrungnir": "transform immediately each of your coins with +2". """
    e = engine(3)
    svafa = mine(e, 0, "svafa")
    mine(e, 0, "hrungnir")
    set_coins(e, 0, hand=[0, 5])
    take(e, 0, "miner:1", "yes")
    assert sorted(values(e, e.s.players[0].hand)) == [0, 7]
    assert e.mark(svafa, "notch") == 2 and breakdown(e, 0)["mythology"] == 8
