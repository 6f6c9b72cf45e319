"""The journal in words (nidavellir/narrate.py).

Issue 10: "what happened since the last one, in words (revealed bids per tavern, who chose what,
coin trades and transformations with old → new, gem exchanges, distinctions, heroes recruited,
giants' captures, valkyrie notches)"; "readable labels, no Python reprs or raw ids"; "`nidavellir
replay LOG --verbose` narrates a game turn by turn with the same words".
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from nidavellir.narrate import Narrator, heading
from nidavellir.rulesets import load_rules
from nidavellir.runtime import journal as j
from nidavellir.runtime.game import Game

BASE = load_rules()
BOXES = {"base": (), "thingvellir": ("thingvellir",), "idavoll": ("idavoll",), "both": ("thingvellir", "idavoll")}
NAMES = ["P1", "P2", "You"]
WORDS = Narrator(load_rules(("thingvellir", "idavoll")), NAMES)


def say(*records: j.Happening) -> list[str]:
    return WORDS.lines(list(records))


@pytest.mark.parametrize("record, text", [
    (j.BidsRevealed(1, 3, tavern="laughing-goblin", bids=(5, 3, 0), trading=(2,)),
     "Bids revealed — Laughing Goblin: P1 5, P2 3, You 0 (trading)"),
    (j.BidsRevealed(1, 3, tavern="shining-horse", bids=(5, None, 2)),
     "Bids revealed — Shining Horse: P1 5, P2 no coin, You 2"),
    (j.BidsPlaced(1, 3, player=2, seen_by=frozenset({2}), bids=(4, 0, 2), pouch=(3, 5), trading=(1,)),
     "You bid: Laughing Goblin 4, Dancing Dragon 0 (trading), Shining Horse 2; pouch 3 5"),
    (j.LateBid(1, 3, player=1, tavern="dancing-dragon", value=5),
     "P2 put coin 5 on the Dancing Dragon (bidding after the reveal)"),
    (j.CoinTraded(1, 3, player=0, coins=(0, 5), wanted=5, new=5, gone=5),
     "P1 traded coins 0 + 5 = 5: new coin 5; gave up the 5, kept the 0"),
    (j.CoinTraded(1, 3, player=0, coins=(4, 5), wanted=11, new=12, gone=5, cause="jarika"),
     "P1 traded coins 4 + 5 + 2 = 11: new coin 12, none of 11 left; gave up the 5, kept the 4 (Jarika the Rogue)"),
    (j.CoinTransformed(1, 3, player=0, old=4, amount=3, new=7, at="pouch", cause="royal-offering:3"),
     "P1 transformed 4 → 7 (+3, Royal Offering +3)"),
    (j.CoinTransformed(2, 1, player=2, old=5, amount=7, new=13, at="hand", cause="grid"),
     "You transformed 5 → 13 (+7, none of 12 left, Grid the Mercantile)"),
    (j.CoinExchanged(1, 5, player=1, old=0, new=3, special="hunter-3", cause="distinction:hunter"),
     "P2 exchanged coin 0 for the special coin 3 (Hunting Master)"),
    (j.CoinDiscarded(2, 2, player=0, value=0, at="shining-horse", cause="jarnglofi"),
     "P1 discarded coin 0 bid on the Shining Horse (Járnglófi)"),
    (j.GemsTraded(1, 2, tavern="dancing-dragon", swaps=((0, 4, 5), (2, 5, 4))),
     "Gems traded (tie at the Dancing Dragon): P1 4 → 5, You 5 → 4"),
    (j.GemGained(1, 5, player=1, old=2, new=6, cause="distinction:miner"),
     "P2 took gem 6, covering gem 2 (Crown Jeweler)"),
    (j.DistinctionWon(1, 5, player=2, card="distinction:warrior", cls="warrior", ranks=5),
     "You win The King's Hand (Warriors majority, 5 ranks)"),
    (j.DistinctionUnclaimed(1, 5, card="distinction:explorer", cls="explorer"),
     "No one wins Pioneer of the Kingdom (no strict Explorers majority)"),
    (j.Recruited(1, 4, player=1, card="kraal"), "P2 recruited Kraal the Venal"),
    (j.Recruited(2, 1, player=0, card="dwerg", by_line=False, counted=False, cause="odin"),
     "P1 recruited Dwerg the 5 Brothers (Odin)"),
    (j.HeroReturned(2, 1, player=0, card="grid", cause="odin"), "P1 put Grid the Mercantile back among the heroes (Odin)"),
    (j.Captured(1, 3, player=0, card="surt", subject="warrior:9"), "P1's Surt captured Warrior 9"),
    (j.Captured(1, 3, player=2, card="gymir", subject="explorer:8"), "Your Gymir captured Explorer 8"),
    (j.TrackMoved(1, 3, player=1, card="brynhildr", old=1, new=2, value=6),
     "Brynhildr's token moves to notch 2 (worth 6)"),
    (j.PowerUsed(1, 2, player=1, card="frigg"), "P2 used the power of Frigg"),
    (j.FaceDown(1, 2, player=1, card="skymir"), "P2's Skymir turns face down: its power is spent"),
    (j.ClassChosen(1, 2, player=1, card="olrun", cls="miner"), "P2 chose Miners for Ölrun"),
    (j.TokensChanged(2, 2, player=0, card="zolkur", tokens=1), "P1's Zolkur the Greedy now holds 1 token"),
    (j.Reserved(1, 2, player=0, card="hunter", tavern="shining-horse", cause="loki"),
     "P1 reserved Hunter in the Shining Horse for this turn (Loki)"),
    (j.Swapped(1, 2, player=0, first="warrior:3", first_at="dancing-dragon", second="hunter",
               second_at="shining-horse", cause="freya"),
     "P1 swapped Warrior 3 (the Dancing Dragon) with Hunter (the Shining Horse) (Freya)"),
    (j.Drew(1, 2, player=0, cards=("hunter", "miner:2"), deck="age:1", count=2, cause="frigg"),
     "P1 drew Hunter, Miner 2 from the Age 1 deck (Frigg)"),
    (j.Drew(1, 2, player=0, cards=(), deck="age:1", count=3, cause="frigg"),
     "P1 drew 3 cards from the Age 1 deck (Frigg)"),
    (j.PutUnder(1, 2, player=0, cards=(), deck="age:2", count=2, shuffled=True),
     "P1 shuffled 2 cards back into the Age 2 deck"),
    (j.Discarded(1, 4, player=1, card="warrior:3", at="warrior", into="discard", cause="dagda"),
     "P2 discarded Warrior 3 from the Warriors column (Dagda the Explosive)"),
    (j.Discarded(1, 5, card="hunter", at="age:2", into="discard", cause="distinction:explorer"),
     "Hunter, the top of the Age 2 deck, is discarded to the discard pile (Pioneer of the Kingdom)"),
    (j.Dealt(1, 1, at="dancing-dragon", cards=("frigg", "garm"), deck="mythology"),
     "The Dancing Dragon (from the mythology deck): Frigg, Garm"),
    (j.Cleared(1, 1, at="dancing-dragon", cards=("thor",), into="box"),
     "Left in the Dancing Dragon, to the box (out of the game): Thor"),
    (j.Placed(2, 4, player=0, card="thrud", column="command", origin="hunter"),
     "P1 moved Thrud the Headhunter from the Hunters column to the command zone"),
    (j.Placed(2, 4, player=0, card="mercenary:warrior6-explorer8", column="warrior", origin="command"),
     "P1 placed Mercenary Warrior 6 / Explorer 8 from the command zone in the Warriors column"),
    (j.Placed(1, 2, player=2, card="olwyn-double", column="hunter", cause="olwyn"),
     "Olwyn's Double goes to your Hunters column (Olwyn the Illusionist)"),
    (j.FinalScores(2, 4, totals=(183, 201, 201), winners=(1, 2)), "Final scores: P1 183, P2 201, You 201 — P2 and You share the win"),
    (j.TurnStarted(1, 3), "Age 1, turn 3"),
    (j.AgeEnded(1, 4), "End of Age 1"),
])
def test_words_for_each_kind(record, text):
    """Issue: bids per tavern, trades (the two coins, the coin received), transformations old → new,
    gems, distinctions, heroes, captures, notches — each in words, with the rules' names."""
    assert say(record) == [text]


def test_every_kind_has_words():
    """No record falls back to its kind's id."""
    for kind in j.KINDS:
        assert hasattr(Narrator, "_" + kind.replace("-", "_")), kind


def test_one_story_one_sentence():
    """A card taken and where it went, a hero and its column, a distinction and the command zone it
    goes to, a power used to capture: each told once."""
    took = j.Took(1, 1, player=1, card="hunter", at="dancing-dragon")
    placed = j.Placed(1, 1, player=1, card="hunter", column="hunter")
    assert say(took, placed) == ["P2 took Hunter from the Dancing Dragon (Hunters column)"]
    hero = j.Recruited(1, 3, player=2, card="kraal")
    assert say(hero, j.Placed(1, 3, player=2, card="kraal", column="warrior")) == [
        "You recruited Kraal the Venal (Warriors column)"]
    won = j.DistinctionWon(1, 5, player=0, card="distinction:miner", cls="miner", ranks=4)
    assert say(won, j.Placed(1, 5, player=0, card="distinction:miner", column="command")) == [
        "P1 wins Crown Jeweler (Miners majority, 4 ranks)"]
    used = j.PowerUsed(1, 3, player=0, card="surt")
    assert say(used, j.Captured(1, 3, player=0, card="surt", subject="warrior:9")) == ["P1's Surt captured Warrior 9"]
    brought = j.Took(2, 4, player=0, card="explorer:9", at="discard", cause="brisingamens")
    assert say(brought, j.Placed(2, 4, player=0, card="explorer:9", column="explorer", cause="brisingamens")) == [
        "P1 took Explorer 9 from the discard pile (Explorers column; Brísingamens)"]
    assert heading(2, 3) == "Age 2, turn 3"


def played(rules, players, seed) -> Game:
    game = Game(rules, players, seed, journal=True)
    rng = random.Random(seed)
    while game.pending is not None:
        game.answer(game.pending.options[rng.randrange(len(game.pending.options))])
    return game


@pytest.mark.parametrize("box", list(BOXES))
def test_no_raw_id_or_repr_in_a_whole_game(box):
    """Issue: "readable labels, no Python reprs or raw ids": every sentence of whole seeded games of
    each box combination (2 to 5 players) names cards, taverns, zones and classes by their names."""
    rules = load_rules(BOXES[box])
    ids = {cid for cid in rules.cards if not re.fullmatch(r"[a-z]+", cid)}  # (`hunter` is a word too)
    ids |= set(rules.tavern_ids) | {z.id for z in rules.ruleset.zones} | set(rules.special_coins)
    words = Counter()
    for players in (2, 3, 4, 5):
        game = played(rules, players, 20 + players)
        text = "\n".join(Narrator(rules, game.engine.names).lines(game.engine.journal))
        words.update(h.kind for h in game.engine.journal)
        bare = text
        for zone in rules.ruleset.zones:  # (a zone's name may hold its id: "the mythology deck")
            bare = bare.replace(zone.name, "")
        for raw in ids:
            assert not re.search(rf"(?<![\w-]){re.escape(raw)}(?![\w-])", bare), raw
        for cls in rules.classes:
            assert not re.search(rf"\b{cls}\b", text), cls
        for repr_mark in ("None", "frozenset", "Happening", "(age=", "[", "]", "{", "}", "'", "age:"):
            assert repr_mark not in text.replace("King's", "").replace("Olwyn's", "").replace("'s ", ""), repr_mark
        assert "Final scores:" in text and heading(1, 1) in text
    assert {"took", "placed", "bids-revealed", "coin-traded", "gems-traded", "recruited"} <= set(words)
