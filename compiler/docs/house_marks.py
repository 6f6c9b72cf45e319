"""Which house rules added a card and which changed it: the one place the reference and the card
sheets learn it from.

A card's `layers` lists every layer that wrote an entry for its id, in order (compiler/layers.py
`card_layers`). The first defines the card: a house rule there *added* it. Each later one
redefines some of its fields: a house rule there *changed* it.
"""
from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple


class CardMarks(NamedTuple):
    added: list[str]    # the house rule that added the card (none, or one), by layer id
    changed: list[str]  # the house rules that changed its fields, by layer id, each once


def card_marks(layers: list[str], variants: Collection[str]) -> CardMarks:
    """The house rules (`variants`: the ids of the rule set's variant layers) that added and that
    changed a card whose entries the layers `layers` wrote, in order."""
    added = layers[:1] if layers and layers[0] in variants else []
    changed = [lid for lid in dict.fromkeys(layers[1:]) if lid in variants and lid not in added]
    return CardMarks(added, changed)
