"""What a game's setup deals before shuffling, built once per rule set and player count."""
from __future__ import annotations

from collections.abc import Iterable

from nidavellir.interface.rules import DeckEntry

from .rules import Rules
from .state import BASIC, SPECIAL, TREASURE, Coin, deck_key


class SetupPlan:
    """What a game's setup deals before shuffling, for one rule set and player count: card and
    coin instances in the order setup makes them (coins are immutable, so games share them)."""

    def __init__(self, rules: Rules, n: int):
        rs = rules.ruleset
        self.gems = tuple(rs.gems[n])
        coins: list[Coin] = []

        def coin(c: Coin) -> int:
            coins.append(c)
            return len(coins) - 1

        self.hands = tuple(tuple(coin(Coin(c.value, BASIC, c.trading)) for c in rs.basic_coins) for _ in range(n))
        removed = rs.treasure_removed.get(n, {})
        self.treasure = {value: tuple(coin(Coin(value, TREASURE)) for _ in range(max(0, count - removed.get(value, 0))))
                         for value, count in rs.treasure.items()}
        self.special_coins = {sid: coin(Coin(c.value, SPECIAL, c.trading, sid)) for sid, c in rules.special_coins.items()}
        self.coins = tuple(coins)
        cards: list[str] = []

        def card(cid: str) -> int:
            cards.append(cid)
            return len(cards) - 1

        in_decks: set[str] = set()

        def deal(entries: Iterable[DeckEntry]) -> tuple[int, ...]:
            """The cards of deck entries (those with a player count above this one left out)."""
            deck: list[int] = []
            for entry in entries:
                in_decks.add(entry.card)
                if n >= entry.min_players:
                    deck.extend(card(entry.card) for _ in range(entry.count))
            return tuple(deck)

        self.decks: dict[int, tuple[int, ...]] = {age: deal(rules.decks.get(age, ())) for age in rules.ages}
        # The rules' zones: a zone's deck per age (shuffled apart), or one pile of all its entries
        self.zones: dict[str, tuple[int, ...]] = {}
        for zone in rules.ruleset.zones:
            decks = rules.ruleset.zone_decks.get(zone.id, {})
            if zone.per_age:
                for age in rules.ages:
                    self.zones[deck_key(zone.id, age)] = deal(decks.get(age, ()))
            else:
                self.zones[zone.id] = deal(e for entries in decks.values() for e in entries)
        zones: dict[str, list[int]] = {"hero": [], "distinction": [], "supply": []}
        for cid, d in rules.cards.items():
            if cid not in in_decks:
                zones.get(d.kind, zones["supply"]).extend(card(cid) for _ in range(d.copies))
        self.heroes, self.distinctions, self.supply = (tuple(zones[k]) for k in ("hero", "distinction", "supply"))
        self.cards = tuple(cards)
        self.defs = tuple(rules.cards[cid] for cid in cards)


def setup_plan(rules: Rules, n: int) -> SetupPlan:
    plan = rules.setup_plans.get(n)
    if plan is None:
        plan = rules.setup_plans[n] = SetupPlan(rules, n)
    return plan
