"""Invariants of a game in progress (DESIGN §10): every card and coin in exactly one place."""
from __future__ import annotations

from collections import Counter

from .engine import Engine
from .position import box_counts


def card_zones(e: Engine) -> dict[str, list[int]]:
    s = e.s
    zones: dict[str, list[int]] = {f"deck:{age}": deck for age, deck in s.decks.items()}
    zones.update({f"tavern:{t}": tavern for t, tavern in enumerate(s.taverns)})
    zones.update(discard=s.discard, heroes=s.heroes, distinctions=s.distinctions, supply=s.supply, box=s.box,
                 resolving=s.resolving)
    zones.update({f"zone:{z}": cards for z, cards in s.zones.items()})
    for card, marks in s.marks.items():
        if marks.get("captured"):
            zones[f"captured:{card}"] = marks["captured"]
    for i, pl in enumerate(s.players):
        zones[f"p{i}:command"] = pl.command
        for cls, column in pl.army.items():
            zones[f"p{i}:army:{cls}"] = column
    return zones


def coin_zones(e: Engine) -> dict[str, list[int]]:
    s = e.s
    zones = {f"treasure:{v}": cs for v, cs in s.treasure.items()}
    zones["box"] = s.coin_box
    zones["special"] = list(s.special_coins.values())
    for i, pl in enumerate(s.players):
        zones[f"p{i}:hand"] = pl.hand
        zones[f"p{i}:slots"] = [c for c in pl.slots if c is not None]
        zones[f"p{i}:pouch"] = pl.pouch
    return zones


def violations(e: Engine) -> list[str]:
    """Everything wrong with the state; empty when every invariant holds."""
    problems = []
    for kind, zones, total in (("card", card_zones(e), len(e.s.cards)), ("coin", coin_zones(e), len(e.s.coins))):
        seen: dict[int, str] = {}
        for name, items in zones.items():
            for x in items:
                if x in seen:
                    problems.append(f"{kind} {x} is in both {seen[x]} and {name}")
                seen[x] = name
        missing = set(range(total)) - set(seen)
        if missing:
            problems.append(f"{kind}s nowhere: {sorted(missing)[:10]}")
    expected = box_counts(e.rules, e.n)
    actual = Counter(e.s.cards)
    for cid, count in actual.items():
        if count > expected[cid]:
            problems.append(f"{count} copies of {cid}, the game holds {expected[cid]}")
    for i, pl in enumerate(e.s.players):
        for card in pl.command:
            if e.where.get(card) != (i, None):
                problems.append(f"card {card} in p{i}'s command zone is tracked at {e.where.get(card)}")
        for cls, column in pl.army.items():
            for card in column:
                if e.where.get(card) != (i, cls):
                    problems.append(f"card {card} in p{i}'s {cls} column is tracked at {e.where.get(card)}")
    problems.extend(e.index_problems())
    gems = [pl.gem for pl in e.s.players] + [g for pl in e.s.players for g in pl.covered_gems] + e.s.special_gems
    if len(gems) != len(set(gems)):
        problems.append(f"a gem is held twice: {sorted(gems)}")
    return problems
