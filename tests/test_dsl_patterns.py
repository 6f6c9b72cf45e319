"""Every effect pattern of the three boxes (DESIGN §5) is expressible in the DSL without
card-specific Python: each example parses and type-checks. The texts follow the cards' wording in
001_b589e44fbbff9743.txt (Thingvellir and Idavoll) and 003 (base)."""
from __future__ import annotations

import pytest

from nidavellir.compiler.check import Names, check_effect
from nidavellir.compiler.dsl import parse_effect
from nidavellir.interface.events import EVENTS, window_spec

WINDOWS = ("dwarves-entered", "reservations", "turn-end", "age-end", "game-end", "final-discards")
NAMES = Names(
    classes={"warrior", "hunter", "miner", "blacksmith", "explorer"},
    events={**EVENTS, **{w: window_spec(w) for w in WINDOWS}},
    params={"bid_from_hand", "transform_bonus", "trade_lower", "recruit_by_lines", "camp_access",
            "dagda_discards", "explorer_draw", "miner_zero_pairs"},
    coins={"hunter-3"},
    gems={6},
    cards={"special-blacksmith", "olwyn-double", "gullinbursti"},
    ages={1, 2},
    kinds={"dwarf", "hero", "royal-offering", "distinction", "artifact", "mercenary", "animal", "god", "giant",
           "valkyrie"},
    zones={"camp": True, "camp-discard": False, "mythology": False},
    decks={"mythology"},
)

PATTERNS = {
    # computed points
    "draupnir": "score 6 * coins_at_least(15)",
    "svalinn": "score 5 * heroes",
    "hrafnsmerki": "score 5 * cards(mercenary)",
    "nidhogg": "score 2 * ranks(warrior)",
    "garm score": "score ranks(explorer)",
    "ratatosk": "modify miner_zero_pairs + 1",
    # on-gain effects
    "khrad": "when recruited: transform lowest coin by 10",
    "vidofnir trading": "when taken if trading_in_pouch: transform each coin in pouch by 5",
    "vidofnir plain": "when taken if not trading_in_pouch: transform coins in pouch by 2, 3 in chosen order",
    "hrungnir": "when taken: transform each coin by 2",
    "jarnglofi": "when taken: discard trading coin",
    "hofud": "when taken: each other player discard chosen 1 non-hero in column warrior",
    # choices
    "andumia": "when recruited: take chosen 1 card from discard",
    "holda": "when recruited: take chosen 1 card from camp",
    "brisingamens": "when taken: take chosen 2 card from discard",
    "brisingamens end": "when final-discards: discard chosen 1 dwarf in army",
    "mjollnir choose": "when game-end: choose class",
    "mjollnir score": "score 2 * ranks(chosen_class)",
    "frigg": "may once per game instead of any picked if subject_kind is dwarf or subject_kind is royal-offering: "
             "place subject under current deck; look at 3 from current deck, take 1, rest under deck in chosen order",
    "skymir": "when captured: look at 5 from mythology deck, take 2, rest under deck in chosen order",
    # placement rules
    "olwyn": "when recruited: place card olwyn-double in chosen column; place card olwyn-double in another chosen column",
    "vegvisir": "enters column explorer",
    "mercenary": "enters chosen column of warrior, hunter",
    "hreasvelg": "when taken: place card gullinbursti in chosen column",
    # requirements
    "hourya": "requires ranks(explorer) >= 5",
    "dagda": "requires count(last dwarf of other columns) >= param(dagda_discards)",
    # triggers with timing windows
    "freya": "may once per game when dwarves-entered: swap chosen tavern cards",
    "odin": "may once per game when turn-end: return chosen neutral hero then recruit another neutral hero uncounted",
    "loki": "may once per game when reservations: reserve chosen tavern card",
    "brynhildr": "whenever bid-won: advance track",
    "hildr": "whenever won: advance track",
    "sigrdrifa": "whenever recruited: advance track",
    "svafa": "whenever coin-bettered: advance track by amount",
    "olrun choose": "when taken: choose class",
    "olrun": "whenever taken if subject_ranks(chosen_class) > 0: advance track",
    # replacements
    "thrud": "instead of covered: place self in chosen column",
    "thor": "may once per game instead of any discarded: cancel",
    "surt": "may once per game instead of any taken if subject_class is warrior: capture",
    "giant": "capture next warrior dwarf",
    "surt score": "score highest_coin if captures > 0 else 0",
    "gymir": "score 3 * captured_points",
    # continuous modifiers
    "jarika": "modify transform_bonus + 2",
    "zolkur": "modify trade_lower + tokens",
    "zolkur token": "when recruited: add 1 token",
    "zolkur spent": "whenever coin-traded if tokens > 0: remove 1 token",
    "megingjord": "modify recruit_by_lines = 0",
    "durathor": "modify dagda_discards - 1",
    "garm draw": "modify explorer_draw = 6",
    "fafnir baleygr": "modify camp_access + 1",
    # counters and tracks
    "valkyrie score": "score track",
    # extra recruitment
    "gjallarhorn": "when taken: recruit hero",
    "surt declined": "whenever taken if subject_class is warrior: turn face down",
    "thrivaldi": "when captured: recruit hero uncounted",
}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_pattern_parses_and_checks(name):
    problems = check_effect(parse_effect(PATTERNS[name]), NAMES)
    assert not problems, [p.message for p in problems]


@pytest.mark.parametrize("text, message", [
    ("score 2 * amount", "`amount` cannot be used in a card's score"),
    ("when coin-bettered: advance track by amount", "`when coin-bettered` can never act"),
    ("when taken: cancel", "`cancel` only makes sense in an `instead of` effect"),
    ("score 5 * cards(mercenarie)", "`mercenarie` is not a kind of card"),
    ("whenever taken: place card olwyn-double in chosen column of warrior, hunterz", "unknown column `hunterz`"),
    ("requires subject_ranks(warrior) > 0", "`subject_ranks(...)` cannot be used in a card's requirement"),
    ("when age-end if subject_class is warrior: advance track", "`subject_class` cannot be used in an effect on `age-end`"),
])
def test_misused_constructs_are_refused(text, message):
    problems = check_effect(parse_effect(text), NAMES)
    assert any(message in p.message for p in problems), [p.message for p in problems]
