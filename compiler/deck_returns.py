"""Effects that put cards back in an age's deck (issue 17 §2): an age ends in the turn its deck runs
out, so a card that goes back under that deck keeps the age going, and if cards come back as fast as
the turns draw them the age never ends. `check` warns at each such action (it cannot tell how fast
the players will bring cards back); in play, an age past MAX_TURNS_PER_AGE turns stops with an error
that names the effects that put cards back and how often (runtime/flow.py). A look at a deck that
puts back the cards it drew, cards put under a zone's own deck, a card named from the supply (taken
from it, so at most its copies a game), or an effect used once per game (Frigg: at most one card a
game for each copy) never keeps an age going.
"""
from __future__ import annotations

from collections.abc import Callable

from nidavellir.interface.events import MAX_TURNS_PER_AGE

from . import ir
from .diagnostics import Diagnostics, Location
from .places import CardFacts


def check_deck_returns(cards: dict[str, CardFacts], diags: Diagnostics,
                       locate: Callable[[str, int, int], Location]) -> None:
    """A warning at each action that puts a card under an age's deck (`locate`: where an offset of a
    card's effect is written)."""
    for cid, card in cards.items():
        for index, effect in card.effects:
            if isinstance(effect, (ir.Triggered, ir.Replacement)) and effect.once:
                continue
            for node in ir.walk(effect):
                under = node.under() if isinstance(node, ir.Act) else None
                if under is None or under[1].zone is not None or under[0].card is not None:
                    continue
                age = under[1].age
                deck = "the current age's deck" if age is None else f"the Age {age} deck"
                diags.warning(locate(cid, index, node.pos),
                              f"`{cid}` puts a card back under {deck}, and an age ends only in the turn its deck "
                              "runs out: if cards come back as fast as the turns draw them, the age never ends "
                              f"(play stops after {MAX_TURNS_PER_AGE} turns of one age)",
                              "make sure fewer cards come back than a turn draws, or put them under another deck")
