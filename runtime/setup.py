"""What a game's setup deals before shuffling, built once per rule set and player count."""
from __future__ import annotations

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
        self.decks: dict[int, tuple[int, ...]] = {}
        for age in rules.ages:
            deck: list[int] = []
            for entry in rules.decks.get(age, ()):
                in_decks.add(entry.card)
                if n >= entry.min_players:
                    deck.extend(card(entry.card) for _ in range(entry.count))
            self.decks[age] = tuple(deck)
        self.zones: dict[str, tuple[int, ...]] = {}  # the rules' zones, with a zone's deck per age (shuffled apart)
        for zone in rules.ruleset.zones:
            if not zone.per_age:  # a pile: every `decks:` entry naming it, whatever the age
                pile: list[int] = []
                for entries in rules.ruleset.zone_decks.get(zone.id, {}).values():
                    for entry in entries:
                        in_decks.add(entry.card)
                        if n >= entry.min_players:
                            pile.extend(card(entry.card) for _ in range(entry.count))
                self.zones[zone.id] = tuple(pile)
                continue
            for age in rules.ages:
                deck = []
                for entry in rules.ruleset.zone_decks.get(zone.id, {}).get(age, ()):
                    in_decks.add(entry.card)
                    if n >= entry.min_players:
                        deck.extend(card(entry.card) for _ in range(entry.count))
                self.zones[deck_key(zone.id, age)] = tuple(deck)
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
