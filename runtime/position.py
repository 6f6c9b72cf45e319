"""Positions (DESIGN §8): what each player holds; read into an engine, written from one."""
from __future__ import annotations

from collections import Counter
from typing import Any

from nidavellir.errors import NidavellirError, suggest
from nidavellir.interface.engine import Event

from .engine import Engine
from .rules import Rules
from .state import BASIC, TREASURE, Coin, Player


class PositionError(NidavellirError):
    """A position that breaks the rules data; `path` is the JSON path of the offending value."""

    def __init__(self, message: str, path: tuple, hint: str | None = None):
        super().__init__(message)
        self.message, self.path, self.hint = message, path, hint


def box_counts(rules: Rules, players: int) -> Counter[str]:
    """How many copies of each card the game holds with this many players."""
    counts: Counter[str] = Counter()
    for entries in rules.decks.values():
        for entry in entries:
            if players >= entry.min_players:
                counts[entry.card] += entry.count
    in_decks = set(counts)
    for cid, d in rules.cards.items():
        if cid not in in_decks:
            counts[cid] += d.copies
    return counts


def engine_from_position(rules: Rules, data: dict[str, Any]) -> Engine:
    """An engine holding exactly the position's cards, coins and gems (no decks or taverns)."""
    players = data["players"]
    e = Engine(rules, [pl.get("name", f"P{i + 1}") for i, pl in enumerate(players)], seed=0)
    box = box_counts(rules, max(len(players), rules.min_players))
    used: Counter = Counter()
    basic_values = {c.value: c.trading for c in rules.ruleset.basic_coins}
    for i, pdata in enumerate(players):
        pl = Player(name=e.names[i], gem=pdata.get("gem", 0), slots=[None] * len(rules.tavern_ids))
        e.s.players.append(pl)
        for value in pdata.get("coins", []):
            if value in basic_values:
                pl.hand.append(e.new_coin(Coin(value, BASIC, basic_values[value])))
            else:
                pl.hand.append(e.new_coin(Coin(value, TREASURE)))
        for cls, cards in (pdata.get("army") or {}).items():
            if cls not in rules.classes:
                raise PositionError(f"unknown army column `{cls}`", ("players", i, "army", cls),
                                    "columns: " + ", ".join(rules.classes))
            for j, cid in enumerate(cards):
                card = _card(e, rules, cid, ("players", i, "army", cls, j), used, box)
                pl.army.setdefault(cls, []).append(card)
                e.where[card] = (i, cls)
        for j, cid in enumerate(pdata.get("command_zone") or []):
            card = _card(e, rules, cid, ("players", i, "command_zone", j), used, box)
            pl.command.append(card)
            e.where[card] = (i, None)
    return e


def _card(e: Engine, rules: Rules, cid: str, path: tuple, used: Counter, box: Counter) -> int:
    if cid not in rules.cards:
        raise PositionError(f"unknown card `{cid}`", path, suggest(cid, rules.cards))
    used[cid] += 1
    if used[cid] > box[cid]:
        raise PositionError(f"more copies of `{cid}` than the game holds ({box[cid]})", path)
    return e.new_card(cid)


def run_without_choices(e: Engine, window: str) -> None:
    """Apply a window's effects that need no decision; an effect that asks is skipped."""
    for p in e.player_order():
        for card in list(e.owned(p)):
            for handler in e.defs[card].when.get(window, ()):
                gen = handler(e, p, card, Event(window))
                try:
                    next(gen)
                except StopIteration:
                    continue
                gen.close()


def position_of(e: Engine) -> dict[str, Any]:
    """The position format of an engine's players (DESIGN §8)."""
    s = e.s
    out = []
    for pl in s.players:
        out.append({
            "name": pl.name,
            "gem": pl.gem,
            "coins": sorted(s.coins[c].value for c in pl.coin_ids()),
            "army": {cls: [s.cards[c] for c in pl.army[cls]] for cls in e.rules.classes if pl.army.get(cls)},
            "command_zone": [s.cards[c] for c in pl.command],
        })
    return {"expansions": [], "players": out}
