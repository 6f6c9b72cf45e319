"""Hostile rules input (DESIGN §6, §10 "Security"; issue 6: "every input a designer or player can
hand the program must get a clear answer"): each variant below either compiles — and then plays
whole games for every player count it allows, keeping the invariants — or is refused with located
errors. Never a traceback, never a hang."""
from __future__ import annotations

import random

import pytest

from checking import run_check, write
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.invariants import violations

HEAD = "layer: {id: v, name: V}\n"

HOSTILE: dict[str, str] = {
    "huge number in an effect": 'cards:\n  - {id: grid, effects: ["when recruited: transform chosen coin by 99999999999999999999"]}\n',
    "huge number in a formula": "game:\n  classes:\n    - {id: warrior, score: ranks * 12345678901234567890}\n",
    "deeply nested formula": "game:\n  classes:\n    - {id: warrior, score: " + "(" * 60 + "ranks" + ")" * 60 + "}\n",
    "long effect": 'cards:\n  - {id: grid, effects: ["when recruited: ' + "; ".join(["gain gem 6"] * 400) + '"]}\n',
    "control characters": 'cards:\n  - {id: grid, effects: ["when recruited:\\u0007 gain gem 6\\u0000"]}\n',
    "non-ASCII name": 'cards:\n  - {id: grid, effects: ["when recruited: transform chosen cöin by 7"]}\n',
    "emoji": 'cards:\n  - {id: grid, name: "🐉\\u202e", effects: ["when recruited: gain gem 6 🐉"]}\n',
    "no classes": "game:\n  classes: []\n",
    "ages listed twice": "game:\n  ages: [1, 1, 2]\n",
    "one age": "game:\n  ages: [1]\n",
    "no turn steps": "game:\n  flow:\n    turn: []\n",
    "players out of range": "game:\n  players: {min: 1, max: 12}\n",
    "cards per tavern 0": "game:\n  cards_per_tavern: {2: 0, 3: 3, 4: 4, 5: 5}\n",
    "negative gems": "game:\n  gems:\n    by_players: {2: [-1, 5]}\n",
    "huge param": "game:\n  params:\n    transform_bonus: 100000000000\n",
    "empty treasure": "game:\n  coins:\n    treasure: {}\n",
    "all coins trading": "game:\n  coins:\n    basic: [{value: 0, trading: true}, {value: 0, trading: true}, {value: 0, trading: true},"
                         " {value: 0, trading: true}, {value: 0, trading: true}]\n",
    "more coins than the taverns and the pouch": "game:\n  coins:\n    basic: [{value: 0, trading: true}, {value: 1},"
                                                  " {value: 2}, {value: 3}, {value: 4}, {value: 5}, {value: 6}]\n",
    "one tavern": "game:\n  taverns: [{id: laughing-goblin, name: the Laughing Goblin}]\n",
    "special gem dealt": "game:\n  gems:\n    special: [{value: 5, points: 3, tradable: false}]\n",
    "every tavern renamed": "game:\n  taverns: [{id: a}, {id: b}, {id: a}]\n",
    "kind unknown": "cards:\n  - {id: new-card, kind: ghost}\n",
    "class of a card unknown": "cards:\n  - {id: new-card, kind: hero, class: ghosts}\n",
    "many copies": "cards:\n  - {id: dwerg, copies: 20}\n",
    "a hero in the deck": "decks:\n  - age: 1\n    cards: [{card: skaa, count: 5}]\n",
    "negative points": "cards:\n  - {id: skaa, points: -1000}\n",
    "an effect on a removed card": "remove: [uline]\ncards:\n  - {id: grid, effects: [\"when recruited: place card uline in command zone\"]}\n",
    "removing a class": "game:\n  classes:\n    - {id: warrior, remove: true}\n",
    "recruit hero chain": 'cards:\n  - {id: grid, effects: ["when recruited: recruit hero uncounted; recruit hero uncounted"]}\n',
    "look at a huge draw": 'cards:\n  - {id: grid, effects: ["when recruited: look at 1000 from current deck, take 1000, rest shuffled"]}\n',
    "discard more than there is": 'cards:\n  - {id: grid, effects: ["when recruited: discard chosen 50 last dwarf of any columns"]}\n',
    "tokens below zero": 'cards:\n  - {id: grid, effects: ["when recruited: remove 5 tokens; add 1000000 tokens"]}\n',
    "division by zero": "game:\n  classes:\n    - {id: hunter, score: ranks / (ranks - ranks)}\n",
    "YAML alias bomb": "x: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\ny: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "z: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nw: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
    "python tags": "cards:\n  - !!python/object/apply:os.system [\"touch MARK\"]\n",
    "a window named like a card event": "game:\n  flow:\n    turn:\n      - {id: x, window: recruited, after: bids}\n",
    "a step that draws twice": "game:\n  flow:\n    turn:\n      - {id: again, do: enter-dwarves, after: bids}\n",
    "scoring twice": "game:\n  flow:\n    age_end:\n      - {id: again, do: final-scoring}\n",
    # issue 17 §7
    "a treasure key of 5,000 digits": "game:\n  coins:\n    treasure:\n      ? " + "1" * 5000 + "\n      : 2\n",
    "a treasure key of 5,000 digits as text": "game:\n  coins:\n    treasure:\n      ? \"" + "1" * 5000 + "\"\n      : 2\n",
    "a per-player key of 16 digits as text": "game:\n  cards_per_tavern: {'1111111111111111': 3}\n",
    "a flat sum of 60 terms": "game:\n  classes:\n    - {id: warrior, score: " + " + ".join(["ranks"] * 60) + "}\n",
    "a DSL number of 5,000 digits": 'cards:\n  - {id: grid, effects: ["when recruited: transform chosen coin by '
                                    + "9" * 5000 + '"]}\n',
    "an infinite value": "game:\n  players: {min: .inf}\n",
    "a lone surrogate escape": 'cards:\n  - {id: grid, name: "\\ud800"}\n',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_rules_are_refused_located_or_play(capsys, tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    v = write(tmp_path / "v.yaml", HEAD + HOSTILE[name])
    code, out, err = run_check(capsys, str(v))
    assert "Traceback" not in err + out
    assert not (tmp_path / "MARK").exists()
    if code != 0:
        heads = [line for line in err.splitlines() if ": error: " in line]
        assert heads, err
        for head in heads:
            assert head.startswith(f"{v}:") or head.startswith("rules/base/"), head
        return
    rules = load_rules((), (str(v),))
    for players in range(rules.min_players, rules.max_players + 1):
        game = Game(rules, players, seed=players)
        rng = random.Random(players)
        steps = 0
        while game.pending is not None:
            game.answer(game.pending.options[rng.randrange(len(game.pending.options))])
            steps += 1
            assert steps < 20_000
        assert not violations(game.engine), name
        assert game.scores()["winners"]


def test_the_hostile_corpus_is_large():
    """The closing note reports how many hostile inputs were tried; keep the corpus honest."""
    assert len(HOSTILE) >= 35
