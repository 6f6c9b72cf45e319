"""Which copies of each card a rule set holds, and the pile (deck) each copy belongs to: what a
playtest deck prints.

Every copy the box holds: each age deck's entries at their count, the 5-player entries
included (the box holds them; their copies carry the least player count that uses them); each
zone deck's entries (the Camp decks of each age, the mythology deck); and a card in no deck
(heroes, distinctions, the special Blacksmith, Olwyn's doubles, Gullinbursti) at its `copies`.
This is how the reference counts the components (compiler/docs/model_setup.py `components`).

    for copy in box_copies(compiled): print(copy.card, copy.pile, copy.min_players)
"""
from __future__ import annotations

from dataclasses import dataclass


from nidavellir.interface.rules import RuleSet

from ..compile import Compiled


@dataclass(frozen=True, order=True)
class Pile:
    """Where a copy lives before play, named on its back: an age deck (`zone` ""), a zone's deck of
    an age (the Camp deck of Age 1), a zone's deck for the whole game (`age` 0: the mythology deck),
    or, for a card in no deck, the cards of its kind (`kind`: the heroes, the distinctions)."""
    zone: str = ""
    age: int = 0
    kind: str = ""


@dataclass(frozen=True)
class Copy:
    card: str
    pile: Pile
    min_players: int = 0  # the least player count whose game uses this copy; 0 for every game


def _least(min_players: int, rules: RuleSet) -> int:
    """The 5-player mark: the least player count, where it is more than the game's minimum."""
    return min_players if min_players > rules.players[0] else 0


def box_copies(compiled: Compiled) -> list[Copy]:
    """Every copy the rule set holds, pile by pile: the age decks in age order, the zone decks in
    the order the zones are declared, then the cards in no deck by kind; within a pile, each card's
    copies in the rules data's order, the copies for more players after those of every game."""
    rules, cards = compiled.ruleset, compiled.cards()
    out: list[Copy] = []
    in_deck: set[str] = set()
    for age in rules.ages:
        pile = Pile(age=age)
        entries = [(e.card, e.count, _least(e.min_players, rules)) for e in rules.decks.get(age, ())]
        out += [Copy(cid, pile, least) for cid, count, least in sorted(entries, key=lambda e: e[2] > 0)
                for _ in range(count)]
        in_deck |= {cid for cid, _, _ in entries}
    per_age = {z.id: z.per_age for z in rules.zones}
    for zone, decks in rules.zone_decks.items():
        for age in sorted(decks):
            pile = Pile(zone=zone, age=age if per_age.get(zone) else 0)
            entries = [(e.card, e.count, _least(e.min_players, rules)) for e in decks[age]]
            out += [Copy(cid, pile, least) for cid, count, least in sorted(entries, key=lambda e: e[2] > 0)
                    for _ in range(count)]
            in_deck |= {cid for cid, _, _ in entries}
    for kind in rules.kinds:
        pile = Pile(kind=kind)
        out += [Copy(cid, pile) for cid, card in cards.items()
                if card.kind == kind and cid not in in_deck for _ in range(card.copies)]
    return [c for c in out if c.card in cards]


def copy_counts(copies: list[Copy]) -> dict[str, int]:
    """Card id -> how many copies of it there are."""
    out: dict[str, int] = {}
    for c in copies:
        out[c.card] = out.get(c.card, 0) + 1
    return out


def piles_of(copies: list[Copy]) -> dict[str, list[tuple[Pile, int]]]:
    """Card id -> the piles that hold its copies, with how many there are, in deck order."""
    out: dict[str, dict[Pile, int]] = {}
    for c in copies:
        piles = out.setdefault(c.card, {})
        piles[c.pile] = piles.get(c.pile, 0) + 1
    return {cid: list(piles.items()) for cid, piles in out.items()}
