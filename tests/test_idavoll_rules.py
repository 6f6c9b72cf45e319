"""Scenario tests: the rules of Idavoll — the mythology deck in the Dancing Dragon for the first three
turns of Age 1 (the age one turn longer), the cards set aside for Skymir, untaken mythology cards leaving
the game, where each kind of mythology card goes, the gods' once-per-game powers and points, the
`mythology` part of the score, and `score` of positions with mythology cards (001 "Idavoll Expansion";
DESIGN §8, §9).

Each test quotes the sentence of 001_b589e44fbbff9743.txt (the only source for Idavoll) it checks, or
DESIGN §8/§9. Boards are built by hand and the engine's steps run with strict scripted answers; the
tests of whole ages run the real flow with a fixed policy and fail on any decision of an unexpected
kind.
"""
from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from harness import BASE, fill_tavern, give, pull, run_log, set_coins, shown
from idavoll_helpers import (
    ANIMALS,
    BOTH,
    GIANTS,
    GODS,
    IDAVOLL,
    MYTHOLOGY,
    VALKYRIES,
    both,
    box,
    column,
    command,
    deck,
    discard,
    drive,
    engine,
    first_option,
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
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.flow import enter_dwarves, play, run_steps
from nidavellir.runtime.position import engine_from_position
from nidavellir.runtime.scoring import player_score
from thingvellir_helpers import camp, resolve_tavern

from nidavellir.cli import main

ANY_KIND = {"bid", "pick", "use", "card", "column", "class", "coin", "hero", "trade-coin", "order", "amount"}


def breakdown(e, p):
    return player_score(e, p)["breakdown"]


def take(e, p, cid, *answers):
    return run_checked(e, e.take_card(p, pull(e, cid)), *answers)


# == Setup =========================================================================================

def test_the_mythology_deck_holds_the_20_cards_shuffled_apart_from_the_age_decks():
    """001 "Idavoll adds a deck of powerful mythology cards (Animals, Gods, Valkyries & Giants)"; DESIGN §9:
    "the mythology deck (20 cards, shuffled ...)". Gullinbursti waits in the supply for Hreasvelg. """
    orders = set()
    for seed in range(3):
        e = engine(3, seed=seed)
        assert sorted(mythology(e)) == sorted(MYTHOLOGY) and len(MYTHOLOGY) == 20
        assert not set(deck(e, 1)) & set(MYTHOLOGY) and not set(deck(e, 2)) & set(MYTHOLOGY)
        assert ids_of(e, e.s.supply).count("gullinbursti") == 1
        orders.add(tuple(mythology(e)))
    assert len(orders) > 1


# == The Dancing Dragon in turns 1-3 of Age 1 ======================================================

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_dancing_dragon_is_filled_from_the_mythology_deck_in_turns_1_to_3_of_age_1(n):
    """001 "During the 3 first rounds of Age 1, the second tavern contains the new mythology cards";
    DESIGN §9: "the Dancing Dragon is filled from the mythology deck (20 cards, shuffled, `cards per
    tavern` each turn)". The other taverns, turn 4 and Age 2 draw from the age deck. """
    e = engine(n)
    per = {2: 3, 3: 3, 4: 4, 5: 5}[n]
    for age, turn, from_mythology in ((1, 1, True), (1, 2, True), (1, 3, True), (1, 4, False),
                                      (2, 1, False), (2, 2, False)):
        e.s.age, e.s.turn = age, turn
        pile, age_deck = mythology(e), deck(e, age)
        run_log(enter_dwarves(e))
        assert [len(tavern(e, t)) for t in range(3)] == [per] * 3
        if from_mythology:
            assert tavern(e, 1) == list(reversed(pile[-per:]))   # the top cards of the pile
            assert mythology(e) == pile[:-per]
            assert len(deck(e, age)) == len(age_deck) - 2 * per
        else:
            assert mythology(e) == pile
            assert len(deck(e, age)) == len(age_deck) - 3 * per
        assert not (set(tavern(e, 0)) | set(tavern(e, 2))) & set(MYTHOLOGY)
        e.s.box.extend(c for t in e.s.taverns for c in t)      # (out of the way)
        e.s.taverns = [[], [], []]


def age_1_turns(rules, n: int, seed: int = 7) -> dict[tuple[int, int], dict[str, Any]]:
    """Play Age 1 by the real flow (a fixed policy), stopping at Age 2's first decision: for each (age,
    turn), what the taverns, the mythology pile and the Age 1 deck held at its first decision."""
    e = Engine(rules, [f"P{i + 1}" for i in range(n)], seed)
    seen: dict[tuple[int, int], dict[str, Any]] = {}

    def record() -> None:
        key = (e.s.age, e.s.turn)
        if key not in seen:
            seen[key] = {"taverns": [tavern(e, t) for t in range(3)],
                         "pile": ids_of(e, e.s.zones.get("mythology", [])),
                         "deck": len(e.s.decks[1])}

    def stop() -> bool:
        if e.s.age == 2:
            record()
            return True
        return False

    drive(play(e), first_option, ANY_KIND, on=lambda d: record(), stop=stop)
    return seen


@pytest.mark.parametrize("boxes", ["idavoll", "thingvellir+idavoll"])
@pytest.mark.parametrize("n,turns", [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_age_1_lasts_5_turns_with_2_or_3_players_and_4_with_4_or_5(boxes, n, turns):
    """001 "Age 1 therefore has an additional round with this expansion: 5 rounds at 2-3 players and 4
    rounds with 4-5 players". DESIGN §9: "so the age deck lasts one turn longer". Whole turns of the real
    flow: the Dancing Dragon holds mythology cards in turns 1-3 only; the Age 1 deck runs out in the last
    turn. """
    seen = age_1_turns(IDAVOLL if boxes == "idavoll" else BOTH, n)
    age1 = sorted(turn for age, turn in seen if age == 1)
    assert age1 == list(range(1, turns + 1))
    assert (2, 1) in seen
    for turn in age1:
        dragon = seen[(1, turn)]["taverns"][1]
        if turn <= 3:
            assert set(dragon) <= set(MYTHOLOGY), (turn, dragon)
        else:
            assert not set(dragon) & set(MYTHOLOGY), (turn, dragon)
        others = seen[(1, turn)]["taverns"][0] + seen[(1, turn)]["taverns"][2]
        assert not set(others) & set(MYTHOLOGY)
    assert seen[(1, turns)]["deck"] == 0                     # the last turn took the deck's last cards


@pytest.mark.parametrize("n,turns", [(2, 4), (3, 4), (4, 3), (5, 3)])
def test_without_idavoll_age_1_is_one_turn_shorter(n, turns):
    """001 "Age 1 therefore has an additional round with this expansion" — the base game's Age 1 for
    comparison (003: an age ends with the turn in which its deck runs out). """
    seen = age_1_turns(BASE, n)
    assert sorted(turn for age, turn in seen if age == 1) == list(range(1, turns + 1))


@pytest.mark.parametrize("n,aside", [(2, 11), (3, 11), (4, 8), (5, 5)])
def test_the_mythology_cards_not_dealt_stay_aside_face_down_through_the_game(n, aside):
    """DESIGN §9: "The mythology cards not dealt stay aside, face down, for Skymir"; 001 "Skymir": "draw 5
    Mythology cards from the cards next to the Royal Treasure". After turn 3 the pile neither grows nor
    shrinks, nor changes its order, until Age 2 begins. """
    seen = age_1_turns(IDAVOLL, n)
    after_3 = seen[(1, 4)]["pile"]
    assert len(after_3) == aside == 20 - 3 * {2: 3, 3: 3, 4: 4, 5: 5}[n]
    for key in seen:
        if key >= (1, 4):
            assert seen[key]["pile"] == after_3, key


def test_skymir_in_age_2_draws_from_the_cards_set_aside():
    """001 "Skymir": "draw 5 Mythology cards from the cards next to the Royal Treasure and keep 2"; DESIGN
    §9: "The mythology cards not dealt stay aside, face down, for Skymir". """
    e = engine(3, age=2)
    mine(e, 0, "skymir")
    pile = e.s.zones["mythology"]
    e.s.box.extend(pile[-9:])                                # the 9 dealt in turns 1-3
    del pile[-9:]
    top = list(reversed(mythology(e)[-5:]))
    aside = len(pile)
    log = run_checked(e, e.take_card(0, pull(e, "hunter")), "yes", f"{top[0]}@draw", f"{top[1]}@draw",
                      f"{top[2]}@draw", f"{top[3]}@draw")
    assert [o.card for o in log[1].options] == top
    assert len(mythology(e)) == aside - 2
    assert mythology(e)[:3] == [top[4], top[3], top[2]]


# == Untaken mythology cards leave the game ========================================================

def test_a_whole_turn_with_two_players_the_mythology_card_left_leaves_the_game():
    """DESIGN §9: "untaken mythology cards leave the game"; 001 "At the end of each tavern resolvation,
    discard any dwarves left". Turn 1 of Age 1 by the real flow with 2 players: the dwarf left in the
    Laughing Goblin and the Shining Horse is discarded; the mythology card left in the Dancing Dragon goes
    to the box. """
    e = engine(2)
    stack_pile(e, e.s.decks[1], "warrior:3", "hunter", "miner:1", "explorer:5", "explorer:6", "miner:0")
    stack_pile(e, e.s.zones["mythology"], "nidhogg", "hildr", "garm")
    e.s.turn = 1
    log = run_checked(e, _turn(e),
                      (5, 4, 2), (4, 5, 3),                 # bids: P1 wins the Goblin, P2 the others
                      "warrior:3", "hunter",                # Laughing Goblin
                      "garm", "nidhogg",                    # Dancing Dragon
                      "explorer:6", "explorer:5")           # Shining Horse
    assert kinds(log) == [(0, "bid"), (1, "bid"), (0, "pick"), (1, "pick"), (1, "pick"), (0, "pick"),
                          (1, "pick"), (0, "pick")]
    assert shown(log[4]) == ["nidhogg@dancing-dragon", "hildr@dancing-dragon", "garm@dancing-dragon"]
    assert column(e, 1, "explorer") == ["garm", "explorer:6"]
    assert column(e, 0, "warrior") == ["warrior:3", "nidhogg"]
    assert box(e) == ["hildr"]
    assert sorted(discard(e)) == ["miner:0", "miner:1"]


def _turn(e):
    return run_steps(e, e.rules.ruleset.turn)


def test_two_players_a_mythology_card_discarded_by_the_camp_rule_leaves_the_game():
    """DESIGN §9: "untaken mythology cards leave the game"; "With 2 players a top bidder who goes to the
    Camp also discards one tavern card of their choice at once". A mythology card so discarded must not
    enter the discard pile (which Andumia and Brísingamens explore). """
    e = both(2)
    camp(e, "draupnir", "svalinn")
    fill_tavern(e, 1, "nidhogg", "loki", "hildr")
    set_coins(e, 0, slots=[2, 5, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[5, 4, 2], pouch=[0, 3])
    log = resolve_tavern(e, 1, "draupnir@camp", "loki@dancing-dragon", "nidhogg")
    assert kinds(log) == [(0, "pick"), (0, "card"), (1, "pick")]
    assert command(e, 0) == ["draupnir"] and column(e, 1, "warrior") == ["nidhogg"]
    assert "loki" not in discard(e)
    assert sorted(box(e)) == ["hildr", "loki"]


# == Where mythology cards go ======================================================================

ANSWERS = {"olrun": ("miner",), "hreasvelg": ("hunter",)}


@pytest.mark.parametrize("cid", MYTHOLOGY)
def test_an_animal_goes_into_its_column_and_the_others_to_the_command_zone(cid):
    """001 "As soon as you recruit a Mythical Animal, place it in your army in the matching class"; "As
    soon as you recruit one of the gods, put the card in your Command Zone"; "As soon as you have
    recruited a Giant, put it in the Command Zone"; "As soon as you recruit a Valkyrie, put her in your
    Command Zone". """
    e = engine(3)
    take(e, 0, cid, *ANSWERS.get(cid, ()))
    cls = e.rules.cards[cid].cls
    if cid in ANIMALS:
        assert command(e, 0) == [] and column(e, 0, cls)[0] == cid
    else:
        assert command(e, 0) == [cid] and all(not col for col in e.s.players[0].army.values())


def test_an_animal_taken_in_the_dancing_dragon_may_complete_a_line():
    """DESIGN §9: "Taking an animal places it in its class's column (it may complete a line)"; 003
    "Recruiting a Hero": a complete line recruits a hero. """
    e = engine(3)
    one_line_but(e, 0, "warrior")
    fill_tavern(e, 1, "nidhogg", "hildr", "garm")
    set_coins(e, 0, slots=[2, 5, 3], pouch=[0, 4])
    set_coins(e, 1, slots=[4, 2, 3], pouch=[0, 5])
    set_coins(e, 2, slots=[3, 4, 2], pouch=[0, 5])
    log = resolve_tavern(e, 1, "nidhogg", "skaa", "garm")
    assert kinds(log) == [(0, "pick"), (0, "hero"), (2, "pick")]
    assert column(e, 0, "warrior") == ["nidhogg"] and command(e, 0) == ["skaa"]
    assert command(e, 1) == ["hildr"]


def test_gods_giants_and_valkyries_complete_no_line():
    """001: gods, giants and valkyries go to "your Command Zone" — not into a column, so no line. """
    e = engine(3)
    one_line_but(e, 0, "warrior")
    for cid in ("thor", "surt", "brynhildr"):
        assert take(e, 0, cid) == []
    assert command(e, 0) == ["thor", "surt", "brynhildr"] and e.lines(0) == 0


# == Gods: once per game, points used or not =======================================================

GOD_POINTS = {"frigg": 12, "thor": 8, "freya": 15, "loki": 8, "odin": 0}


@pytest.mark.parametrize("god", GODS)
def test_a_gods_points_count_whether_the_power_was_used_or_not(god):
    """001 "Frigg": "Adds 12 points"; "Thor": "Adds 8 points"; "Freya": "Adds 15 points"; "Loki": "Adds 8
    points"; "Odin": "Adds 0 points to your final Bravery Value". DESIGN §9: "Gods' powers are once per
    game; their points count whether used or not." """
    e = engine(3)
    card = mine(e, 0, god)
    assert not e.used(card)
    unused = breakdown(e, 0)["mythology"]
    e.use(card)
    assert unused == breakdown(e, 0)["mythology"] == GOD_POINTS[god]
    assert breakdown(e, 0)["heroes"] == 0


def test_a_gods_power_is_offered_once_in_the_game():
    """001 "The power of the Norse Gods may be triggered once in the game: ... You may activate his or her
    ability once in a game by discarding the Power token of the matching God card." Loki and Freya are
    offered at each turn until used, then never. """
    e = engine(3)
    loki, freya = mine(e, 0, "loki"), mine(e, 1, "freya")
    e.s.turn = 4
    run_checked(e, _steps(e, "enter-dwarves"))
    assert kinds(run_checked(e, _steps(e, "reservations", "dwarves-entered"), "no", "no")) == [(0, "use"), (1, "use")]
    first = tavern(e, 0)[0]
    log = run_checked(e, _steps(e, "reservations", "dwarves-entered"), "yes", f"{first}@laughing-goblin", "yes",
                      f"{tavern(e, 1)[0]}@dancing-dragon", f"{tavern(e, 2)[0]}@shining-horse")
    assert kinds(log) == [(0, "use"), (0, "card"), (1, "use"), (1, "card"), (1, "card")]
    assert e.used(loki) and e.used(freya)
    assert run_checked(e, _steps(e, "reservations", "dwarves-entered")) == []


def _steps(e, *names):
    return run_steps(e, steps(e, *names))


# == The `mythology` part of the score =============================================================

def test_the_mythology_part_holds_gods_valkyries_surt_and_gymir():
    """DESIGN §8: "with Idavoll `mythology` (gods, valkyries, Surt, Gymir)"; "Class values include every
    rank in that column (... animals ...) with the bonuses that add to that class's Bravery Value
    (warrior-majority coin, Nidhogg, Garm, Ratatosk, Idunn); `heroes` is what heroes score from the command
    zone". """
    e = engine(3)
    set_coins(e, 0, hand=[0, 2, 3, 4, 20])
    give(e, 0, "skaa", column=None)
    give(e, 0, "nidhogg", "garm", "ratatosk", "miner:0", "miner:0")
    for cid in ("frigg", "thor", "freya", "loki", "odin"):
        mine(e, 0, cid)
    for cid, notch in (("brynhildr", 4), ("hildr", 2), ("olrun", 3), ("sigrdrifa", 3), ("svafa", 1)):
        e.set_mark(mine(e, 0, cid), "notch", notch)
    surt, gymir, skymir = mine(e, 0, "surt"), mine(e, 0, "gymir"), mine(e, 0, "skymir")
    e.set_mark(surt, "captured", [pull(e, "warrior:9")])
    e.set_mark(gymir, "captured", [pull(e, "explorer:11")])
    e.set_mark(skymir, "captured", [pull(e, "hunter")])
    give(e, 1, "warrior:3", "warrior:4")
    b = breakdown(e, 0)
    assert b["mythology"] == (12 + 8 + 15 + 8 + 0) + (16 + 16 + 10 + 16 + 4) + 20 + 3 * 11 + 0
    assert b["heroes"] == 17
    assert b["warrior"] == 5 + 2 * 1                        # Nidhogg; P2 has the majority
    assert b["explorer"] == 9 + 0 + 2                       # Garm
    assert b["miner"] == (2 + 1) * 3                        # Ratatosk and a pair of 0s
    assert b["coins"] == 29
    assert set(b) == {"warrior", "hunter", "miner", "blacksmith", "explorer", "heroes", "mythology", "coins"}
    assert player_score(e, 0)["total"] == sum(b.values())


def test_with_both_expansions_the_breakdown_has_artifacts_and_mythology():
    """DESIGN §8: "With Thingvellir in play the breakdown also has `artifacts` ..., with Idavoll
    `mythology`". """
    e = both(3)
    give(e, 0, "megingjord", column=None)
    mine(e, 0, "freya")
    b = breakdown(e, 0)
    assert b["artifacts"] == 28 and b["mythology"] == 15
    assert set(b) == {"warrior", "hunter", "miner", "blacksmith", "explorer", "heroes", "artifacts", "mythology",
                      "coins"}


# == `score` of positions with mythology cards (DESIGN §8) =========================================

def score_json(capsys, tmp_path: Path, text: str, name: str = "pos.yaml") -> dict[str, Any]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code = main(["score", str(path), "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


POSITION = """\
expansions: [idavoll]
players:
  - name: Ana
    gem: 5
    coins: [0, 2, 3, 4, 14]
    army:
      warrior: [warrior:3, nidhogg]
      hunter: [hunter, durathor]
      miner: [miner:0, miner:0, ratatosk, gullinbursti]
      blacksmith: [blacksmith, hreasvelg]
      explorer: [explorer:5, garm]
    command_zone:
      - {card: brynhildr, notch: 2}
      - {card: surt, captured: warrior:9}
      - {card: skymir, face_down: true}
      - {card: frigg, used: true}
      - hildr
      - {card: olrun, notch: 1, class: miner}
      - {card: gymir, captured: explorer:11}
      - thor
  - name: Bo
    gem: 4
    coins: [0, 2, 3, 4, 5]
    army:
      warrior: [warrior:4]
"""


def test_score_a_position_with_mythology_cards(capsys, tmp_path):
    """DESIGN §8 position format: "{card: brynhildr, notch: 2}  # strength token's notch, 0 = where it
    starts"; "{card: olrun, notch: 1, class: miner}"; "{card: surt, captured: warrior:9}  # the dwarf a
    giant captured"; "{card: skymir, face_down: true}  # a giant that can no longer capture"; "{card:
    frigg, used: true}  # a god whose power token is spent"; "A valkyrie given by id alone stands at notch
    0." Class values include the animals with Nidhogg's, Garm's and Ratatosk's bonuses. """
    result = score_json(capsys, tmp_path, POSITION)
    ana, bo = result["players"]
    b = ana["breakdown"]
    assert b["warrior"] == 3 + 5 + 2 * 2 + 14               # Nidhogg; 2 ranks against 1: the highest coin
    assert b["hunter"] == 2 * 2                             # Durathor's rank
    assert b["miner"] == (0 + 0 + 2 + 0 + 1) * 4            # Gullinbursti is a third 0: one pair
    assert b["blacksmith"] == 2 * 7 // 2
    assert b["explorer"] == 5 + 9 + 0 + 3                   # Garm
    assert b["heroes"] == 0
    assert b["mythology"] == 6 + 14 + 0 + 12 + 0 + 3 + 3 * 11 + 8   # Hildr by id alone: notch 0
    assert b["coins"] == 23
    assert ana["total"] == sum(b.values()) == 26 + 4 + 12 + 7 + 17 + 76 + 23
    assert bo["breakdown"]["warrior"] == 4 and bo["total"] == 4 + 14
    assert result["winners"] == ["Ana"]


def test_score_a_giant_without_a_capture_scores_nothing(capsys, tmp_path):
    """001 "Surt": "Capture the next Warrior card you recruit. This will allow you, at the end of the game,
    to add ... the value of your highest coin"; DESIGN §8: `{card: skymir, face_down: true}`. """
    text = POSITION.replace("{card: surt, captured: warrior:9}", "surt").replace(
        "{card: gymir, captured: explorer:11}", "{card: gymir, face_down: true}")
    b = score_json(capsys, tmp_path, text)["players"][0]["breakdown"]
    assert b["mythology"] == 6 + 0 + 0 + 12 + 0 + 3 + 0 + 8


VALKYRIE_TRACKS = {"brynhildr": [0, 3, 6, 10, 16], "hildr": [0, 8, 16, 0], "olrun": [0, 3, 6, 10, 16],
                   "sigrdrifa": [0, 0, 8, 16], "svafa": [0, 4, 8, 16]}


@pytest.mark.parametrize("valkyrie", VALKYRIES)
def test_a_valkyrie_scores_the_value_of_her_notch_and_by_id_alone_stands_at_notch_0(valkyrie):
    """001: "(Strength track : 0 - 3 - 6 - 10 - 16)" (Brynhildr, Ölrun), "(0 - 8 - 16 - 0)" (Hildr),
    "(0 - 0 - 8 - 16)" (Sigrdrífa), "(0 - 4 - 8 - 16)" (Svafa); DESIGN §8: "A valkyrie given by id alone
    stands at notch 0." """
    def score(entry):
        data = {"expansions": ["idavoll"],
                "players": [{"name": "Ana", "coins": [0], "command_zone": [entry]}, {"name": "Bo", "coins": [0]}]}
        return player_score(engine_from_position(IDAVOLL, data), 0)["breakdown"]["mythology"]
    assert score(valkyrie) == 0
    assert [score({"card": valkyrie, "notch": i}) for i in range(len(VALKYRIE_TRACKS[valkyrie]))] == \
        VALKYRIE_TRACKS[valkyrie]


def test_score_refuses_a_notch_off_the_track(capsys, tmp_path):
    """DESIGN §8: "A position that breaks the rules data ... is refused with a located error". Hildr's
    track has 4 notches (0 to 3). """
    path = tmp_path / "pos.yaml"
    path.write_text("expansions: [idavoll]\nplayers:\n  - name: Ana\n    coins: [0]\n    command_zone:\n"
                    "      - {card: hildr, notch: 4}\n  - name: Bo\n    coins: [0]\n", encoding="utf-8")
    code = main(["score", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "pos.yaml:6:" in err and "notch" in err


def test_play_json_final_positions_write_mythology_state_that_score_reads_back(capsys, tmp_path):
    """DESIGN §8: "`play --json` adds ... `"final"`: the final position in the position format, which
    `score` scores to the same totals"; the position writes a card's state: `notch`, `captured`,
    `face_down`, `used`. Seeded 3-player Idavoll games until one shows all four. """
    for seed in range(40):
        buf = io.StringIO()
        with redirect_stdout(buf):
            assert main(["play", "--players", "3", "--expansions", "idavoll", "--seed", str(seed), "--json"]) == 0
        result = json.loads(buf.getvalue())
        states = [item for pl in result["final"]["players"]
                  for item in pl["command_zone"] + [c for col in pl["army"].values() for c in col]
                  if isinstance(item, dict) and item["card"] in MYTHOLOGY]
        keys = {k for item in states for k in item if k != "card"}
        if {"notch", "captured", "face_down", "used"} <= keys:
            break
    else:
        pytest.fail("no game in 40 seeds wrote notch, captured, face_down and used")
    assert all(item["card"] in VALKYRIES for item in states if "notch" in item)
    assert all(item["card"] in GIANTS for item in states if "captured" in item or "face_down" in item)
    assert all(item["card"] in GODS for item in states if "used" in item)
    again = score_json(capsys, tmp_path, json.dumps(result["final"]), "final.json")
    assert again["players"] == result["players"]
    assert again["winners"] == result["winners"]
    assert all("mythology" in pl["breakdown"] for pl in again["players"])
