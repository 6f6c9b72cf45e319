"""The generic game engine: state, setup, and the queries compiled expressions read.

Primitive actions come from CoinActions and CardActions; the flow (runtime/flow.py) runs the
steps. The game runs as a generator that yields a Decision whenever a player must choose; `Game`
(runtime/game.py) drives it from outside. No card is known here: cards act only through their
compiled handlers, modifiers and data.
"""
from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from .card_actions import COMMAND, CardActions
from .coin_actions import CoinActions
from .decisions import Decision
from .rules import CardDef, Rules
from .state import BASIC, SPECIAL, TREASURE, Coin, Player, State

Gen = Generator[Decision, Any, Any]


class Engine(CoinActions, CardActions):
    """State, setup and the queries compiled expressions read; primitives come from the mixins."""

    def __init__(self, rules: Rules, names: list[str], seed: int):
        self.rules = rules
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = len(names)
        self.s = State()
        self.defs: list[CardDef] = []      # instance id -> definition (parallel to s.cards)
        self.where: dict[int, tuple[int, str | None]] = {}  # owned card -> (player, column or None)
        self.scores: dict | None = None    # final scores, once the game is over
        self.names = names

    # -- setup -----------------------------------------------------------------------------
    def new_card(self, cid: str) -> int:
        self.s.cards.append(cid)
        self.defs.append(self.rules.cards[cid])
        return len(self.s.cards) - 1

    def new_coin(self, coin: Coin) -> int:
        self.s.coins.append(coin)
        return len(self.s.coins) - 1

    def setup(self) -> None:
        r, s, n = self.rules, self.s, self.n
        game = r.game
        lo, hi = game["players"].get("min", 2), game["players"].get("max", 5)
        if not lo <= n <= hi:
            raise ValueError(f"these rules play with {lo} to {hi} players, not {n}")
        gems = list(r.per_players(game["gems"]["by_players"], n))
        self.rng.shuffle(gems)
        for i, name in enumerate(self.names):
            p = Player(name=name, gem=gems[i], slots=[None] * len(r.tavern_ids))
            for c in game["coins"]["basic"]:
                p.hand.append(self.new_coin(Coin(c["value"], BASIC, c.get("trading", False))))
            s.players.append(p)
        removed = r.per_players(game["coins"].get("treasure_removed", {}), n, {})
        for value, count in sorted((int(k), v) for k, v in game["coins"]["treasure"].items()):
            count -= int(removed.get(value, removed.get(str(value), 0)))
            s.treasure[value] = [self.new_coin(Coin(value, TREASURE)) for _ in range(max(0, count))]
        for sid, c in r.special_coins.items():
            s.special_coins[sid] = self.new_coin(Coin(c["value"], SPECIAL, c.get("trading", False), sid))
        s.special_gems = sorted(r.special_gems)
        in_decks = set()
        for age in r.ages:
            deck = []
            for cid, count, min_players in r.decks[age]:
                in_decks.add(cid)
                if n >= min_players:
                    deck.extend(self.new_card(cid) for _ in range(count))
            self.rng.shuffle(deck)
            s.decks[age] = deck
        for cid, d in r.cards.items():
            if cid in in_decks:
                continue
            zone = {"hero": s.heroes, "distinction": s.distinctions}.get(d.kind, s.supply)
            zone.extend(self.new_card(cid) for _ in range(d.copies))
        s.taverns = [[] for _ in r.tavern_ids]

    # -- questions ------------------------------------------------------------------------
    def ask(self, p: int, kind: str, options: list, prompt: str, labels: list[str] | None = None) -> Gen:
        """Ask player p; a single option is taken without asking."""
        if len(options) == 1:
            return options[0]
        answer = yield Decision(p, kind, options, prompt, labels)
        return answer

    # -- reading the state (the API of compiled expressions) -----------------------------
    @property
    def age(self) -> int:
        return self.s.age

    def card_def(self, card: int | str) -> CardDef:
        return self.rules.cards[card] if isinstance(card, str) else self.defs[card]

    def card_class(self, card: int | str) -> str:
        return self.card_def(card).cls

    def column_of(self, card: int) -> str | None:
        loc = self.where.get(card)
        return loc[1] if loc else None

    def own_column(self, card: int) -> str | None:
        cls = self.card_class(card)
        return cls if cls in self.rules.classes else COMMAND

    def ranks(self, p: int, cls: str) -> int:
        defs = self.defs
        return sum(defs[c].nranks for c in self.s.players[p].army.get(cls, ()))

    def points(self, p: int, cls: str) -> int:
        total = 0
        defs = self.defs
        for c in self.s.players[p].army.get(cls, ()):
            d = defs[c]
            total += d.rank_points
            if d.score is not None and not d.once:
                total += d.score(self, p, c)
        return total

    def lines(self, p: int) -> int:
        return min(self.ranks(p, cls) for cls in self.rules.classes)

    def most_ranks(self, p: int, cls: str) -> bool:
        mine = self.ranks(p, cls)
        return mine > 0 and all(self.ranks(q, cls) <= mine for q in range(self.n))

    def strict_most_ranks(self, p: int, cls: str) -> bool:
        mine = self.ranks(p, cls)
        return mine > 0 and all(self.ranks(q, cls) < mine for q in range(self.n) if q != p)

    def owned(self, p: int) -> list[int]:
        pl = self.s.players[p]
        out = list(pl.command)
        for cls in self.rules.classes:
            out.extend(pl.army.get(cls, ()))
        return out

    def copies(self, p: int, card: int | str) -> int:
        cid = self.card_def(card).id
        return sum(1 for c in self.owned(p) if self.defs[c].id == cid)

    def heroes(self, p: int) -> int:
        return sum(1 for c in self.owned(p) if self.defs[c].kind == "hero")

    def param(self, p: int, name: str) -> int:
        value = self.rules.params.get(name, 0)
        if not self.rules.modifier_cards:
            return value
        for c in self.owned(p):
            d = self.defs[c]
            for pname, op, fn in d.mods:
                if pname == name:
                    amount = fn(self, p, c)
                    value = amount if op == "=" else value + amount if op == "+" else value - amount
        return value

    def cards_of_kind(self, p: int, kind: str) -> int:
        return sum(1 for c in self.owned(p) if self.defs[c].kind == kind)

    def zero_ranks(self, p: int, cls: str) -> int:
        """Ranks worth 0 points in a column."""
        return sum(d.ranks.count(0) for d in (self.defs[c] for c in self.s.players[p].army.get(cls, ())))

    def ranks_of(self, card: int | None, cls: str | None) -> int:
        """The ranks a card brings to class `cls` (0 for another class or no card)."""
        return self.defs[card].nranks if card is not None and self.defs[card].cls == cls else 0

    def last_cards(self, p: int, card: int | str, kind: str, other: bool, only: str | None = None) -> list[int]:
        """The topmost card of `kind` in each army column (`other`: not the card's own column;
        `only`: that column alone)."""
        own = self.card_class(card)
        out = []
        for cls in self.rules.classes:
            if (other and cls == own) or (only is not None and cls != only):
                continue
            for c in reversed(self.s.players[p].army.get(cls, ())):
                if kind == "card" or self.defs[c].kind == kind:
                    out.append(c)
                    break
        return out
