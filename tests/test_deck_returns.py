"""Effects that put cards back under an age's deck (issue 17 audit item 3; README: "An age ends only
in the turn its deck runs out: `check` warns at each effect that puts a card back under an age's
deck (`place self under current deck`; not one used once per game, nor a look that puts back what
it drew), and a game whose cards keep an age from ending is stopped after 200 turns of it with an
error located at the effect that put the most cards back, naming each that did and how many (else
at the flow)"). Audit s2/endless-deck.yaml: every dwarf going back under the deck when taken passed
check without a warning, and play stopped with an error located at rules/base/game.yaml.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from checking import expect_warning, find, run_check, write
from nidavellir.interface.events import MAX_TURNS_PER_AGE
from nidavellir.rulesets import load_rules
from nidavellir.runtime.bots import RandomBot
from nidavellir.runtime.flow import TurnLimit
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe

HINT = "make sure fewer cards come back than a turn draws, or put them under another deck"


def warning(card: str, deck: str) -> str:
    return (f"`{card}` puts a card back under {deck}, and an age ends only in the turn its deck runs out: if cards "
            "come back as fast as the turns draw them, the age never ends (play stops after 200 turns of one age)")


@pytest.mark.parametrize("effect, needle, deck", [
    ("when taken: place self under current deck", "place self under", "the current age's deck"),
    ("when taken: transform chosen coin by 1; place self under age 2 deck", "place self under", "the Age 2 deck"),
    ("may when taken: place self under current deck", "place self under", "the current age's deck"),
    ("when taken if age > 1: place self under current deck", "place self under", "the current age's deck"),
])
def test_an_effect_putting_a_card_under_an_age_deck_is_warned_at_the_action(capsys, tmp_path, effect, needle, deck):
    """Located at the action in the card's effect (a `may` or a condition can still bring cards back)."""
    v = write(tmp_path / "v.yaml", f'layer: {{id: v, name: V}}\ncards:\n  - {{id: "warrior:3", effects: ["{effect}"]}}\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    expect_warning(err, v, *find(v, needle), warning("warrior:3", deck))
    assert f"  hint: {HINT}" in err and err.count("puts a card back") == 1


@pytest.mark.parametrize("effect", [
    "once per game when taken: place self under current deck",     # at most one card a game for each copy
    "when taken: look at 3 from current deck, take 1, rest under deck in chosen order",  # puts back what it drew
])
def test_effects_that_cannot_keep_an_age_going_are_not_warned(capsys, tmp_path, effect):
    v = write(tmp_path / "v.yaml", f'layer: {{id: v, name: V}}\ncards:\n  - {{id: "warrior:3", effects: ["{effect}"]}}\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and "puts a card back" not in err, err


def endless(tmp_path: Path) -> Path:
    """Every warrior and hunter card goes back under the deck when taken (audit s2/endless-deck.yaml,
    shortened); the explorers, miners and blacksmiths do not."""
    ids = ["hunter"] + [f"warrior:{n}" for n in range(3, 11)]
    cards = "".join(f'  - {{id: "{cid}", effects: ["when taken: place self under current deck"]}}\n' for cid in ids)
    return write(tmp_path / "endless.yaml", "layer: {id: endless, name: Endless}\ncards:\n" + cards)


def at(path: Path, cid: str, needle: str) -> tuple[int, int]:
    """Line and column of `needle` on the line of card `cid`."""
    line, _ = find(path, f'"{cid}"')
    text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    return line, text.index(needle) + 1


def test_the_audits_endless_deck_is_warned_at_each_card(capsys, tmp_path):
    v = endless(tmp_path)
    code, out, err = run_check(capsys, str(v))
    assert code == 0
    for cid in ["hunter"] + [f"warrior:{n}" for n in range(3, 11)]:
        line, col = at(v, cid, "place self under")
        expect_warning(err, v, line, col, warning(cid, "the current age's deck"))


@pytest.mark.parametrize("seed", range(3))
def test_an_age_that_never_ends_names_the_effects_that_put_cards_back(tmp_path, seed):
    """Seeded random games of the endless variant: an age that runs MAX_TURNS_PER_AGE turns stops
    with a TurnLimit located at the effect that put the most cards back, naming each effect that did
    (at most five, then how many more) with its file:line:col and count — each an effect of the
    variant, their counts adding up to at least the turns played beyond the deck's own cards."""
    v = endless(tmp_path)
    rules = load_rules((), (str(v),))
    game = Game(rules, 2, seed)
    bots = [RandomBot(seed * 10 + k) for k in range(2)]
    with pytest.raises(TurnLimit) as err:
        while game.pending is not None:
            game.answer(bots[game.pending.player].choose(observe(game)))
    text = str(err.value)
    head = re.match(rf"^({re.escape(str(v))}:\d+:\d+): Age (\d) has gone on for {MAX_TURNS_PER_AGE} turns and its "
                    r"deck still holds (?:1 card|\d+ cards), because effects keep putting cards back under it: (.*); the game "
                    r"stopped \(an age ends only in the turn its deck runs out\)$", text)
    assert head, text
    named = re.findall(r"`([^`]+)`: `when taken: place self under current deck` \(([^)]+)\), (\d+) (cards?)", head[3])
    assert named and len(named) <= 5
    assert named[0][1] == head[1]  # located at the first named: the one that put the most back
    assert all((noun == "card") == (n == "1") for _, _, n, noun in named)  # "1 card", "2 cards" (issue 18)
    counts = [int(n) for _, _, n, _ in named]
    assert counts == sorted(counts, reverse=True)
    for cid, where, _, _ in named:
        line, col = at(v, cid, '"when taken')  # (an effect is located at its string)
        assert where == f"{v}:{line}:{col}"
    more = re.search(r"; and (?:1 effect|\d+ effects) more, (?:1 card|\d+ cards)$", head[3])
    assert (more is not None) == (len(named) == 5 and len(head[3].split("; ")) > 5)
    assert "rules/base/game.yaml" not in text
