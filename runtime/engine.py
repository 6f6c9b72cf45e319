"""The generic game engine: state, setup, and the queries compiled expressions read.

Primitive actions come from CoinActions and CardActions; the flow (runtime/flow.py) runs the
steps. The game runs as a generator that yields a Decision whenever a player must choose; `Game`
(runtime/game.py) drives it from outside. No card is known here: cards act only through their
compiled handlers, modifiers and data. The engine implements `nidavellir.interface.engine.EngineAPI`,
the interface compiled handlers call.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from nidavellir.errors import NidavellirError
from nidavellir.interface.decisions import Decision, Option
from nidavellir.interface.engine import EngineAPI, Gen
from nidavellir.interface.rules import CardDef

from .card_actions import COMMAND, CardActions
from .coin_actions import CoinActions
from .rules import Rules
from .scoring import Scores
from .state import BASIC, SPECIAL, TREASURE, Coin, Player, State


class SetupError(NidavellirError):
    """A game the rules cannot set up (a player count they do not allow)."""


class Engine(CoinActions, CardActions):
    """State, setup and the queries compiled expressions read; primitives come from the mixins."""

    def __init__(self, rules: Rules, names: Sequence[str], seed: int):
        self.rules = rules
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = len(names)
        self.s = State()
        self.defs: list[CardDef] = []      # instance id -> definition (parallel to s.cards)
        self.where: dict[int, tuple[int, str | None]] = {}  # owned card -> (player, column or None)
        self.scores: Scores | None = None  # final scores, once the game is over
        self.names = list(names)
        self.entering = 0                  # >0 while a card's entry runs: hero checks wait for its end

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
        rs = r.ruleset
        if not r.allows(n):
            raise SetupError(f"these rules play with {r.min_players} to {r.max_players} players, not {n}")
        gems = list(rs.gems[n])
        self.rng.shuffle(gems)
        for i, name in enumerate(self.names):
            p = Player(name=name, gem=gems[i], slots=[None] * len(r.tavern_ids))
            for c in rs.basic_coins:
                p.hand.append(self.new_coin(Coin(c.value, BASIC, c.trading)))
            s.players.append(p)
        removed = rs.treasure_removed.get(n, {})
        for value, count in rs.treasure.items():
            count -= removed.get(value, 0)
            s.treasure[value] = [self.new_coin(Coin(value, TREASURE)) for _ in range(max(0, count))]
        for sid, c in r.special_coins.items():
            s.special_coins[sid] = self.new_coin(Coin(c.value, SPECIAL, c.trading, sid))
        s.special_gems = sorted(r.special_gems)
        in_decks = set()
        for age in r.ages:
            deck = []
            for entry in r.decks.get(age, ()):
                in_decks.add(entry.card)
                if n >= entry.min_players:
                    deck.extend(self.new_card(entry.card) for _ in range(entry.count))
            self.rng.shuffle(deck)
            s.decks[age] = deck
        for cid, d in r.cards.items():
            if cid in in_decks:
                continue
            zone = {"hero": s.heroes, "distinction": s.distinctions}.get(d.kind, s.supply)
            zone.extend(self.new_card(cid) for _ in range(d.copies))
        s.taverns = [[] for _ in r.tavern_ids]

    # -- questions ------------------------------------------------------------------------
    def ask(self, p: int, kind: str, options: Sequence[Option], prompt: str,
            labels: Sequence[str] | None = None) -> Gen[Option]:
        """Ask player p; a single option is taken without asking."""
        if len(options) == 1:
            return options[0]
        answer: Option = yield Decision(p, kind, tuple(options), prompt, None if labels is None else tuple(labels))
        return answer

    # -- reading the state (the API of compiled expressions) -----------------------------
    @property
    def age(self) -> int:
        return self.s.age

    def card_def(self, card: int | str) -> CardDef:
        return self.rules.cards[card] if isinstance(card, str) else self.defs[card]

    def card_class(self, card: int) -> str:
        return self.defs[card].cls

    def column_of(self, card: int) -> str | None:
        loc = self.where.get(card)
        return loc[1] if loc else None

    def own_column(self, card: int) -> str | None:
        cls = self.defs[card].cls
        return cls if cls in self.rules.class_score else COMMAND

    def ranks(self, p: int, cls: str | None) -> int:
        if cls is None:
            return 0
        defs = self.defs
        return sum(defs[c].nranks for c in self.s.players[p].army.get(cls, ()))

    def points(self, p: int, cls: str | None) -> int:
        if cls is None:
            return 0
        total = 0
        defs = self.defs
        for c in self.s.players[p].army.get(cls, ()):
            d = defs[c]
            total += d.rank_points
            if d.score is not None and not d.score_once:
                total += d.score(self, p, c)
        return total

    def lines(self, p: int) -> int:
        return min(self.ranks(p, cls) for cls in self.rules.classes)

    def most_ranks(self, p: int, cls: str | None) -> bool:
        mine = self.ranks(p, cls)
        return mine > 0 and all(self.ranks(q, cls) <= mine for q in range(self.n))

    def strict_most_ranks(self, p: int, cls: str | None) -> bool:
        mine = self.ranks(p, cls)
        return mine > 0 and all(self.ranks(q, cls) < mine for q in range(self.n) if q != p)

    def owned(self, p: int) -> list[int]:
        pl = self.s.players[p]
        out = list(pl.command)
        for cls in self.rules.classes:
            out.extend(pl.army.get(cls, ()))
        return out

    def copies(self, p: int, card: int) -> int:
        cid = self.defs[card].id
        return sum(1 for c in self.owned(p) if self.defs[c].id == cid)

    def heroes(self, p: int) -> int:
        return sum(1 for c in self.owned(p) if self.defs[c].kind == "hero")

    def param(self, p: int, name: str) -> int:
        value = self.rules.params.get(name, 0)
        if not self.rules.modifier_cards:
            return value
        for c in self.owned(p):
            d = self.defs[c]
            for mod in d.mods:
                if mod.param == name:
                    amount = mod.amount(self, p, c)
                    value = amount if mod.op == "=" else value + amount if mod.op == "+" else value - amount
        return value

    def cards_of_kind(self, p: int, kind: str) -> int:
        return sum(1 for c in self.owned(p) if self.defs[c].kind == kind)

    def zero_ranks(self, p: int, cls: str | None) -> int:
        """Ranks worth 0 points in a column."""
        if cls is None:
            return 0
        return sum(self.defs[c].zero_ranks for c in self.s.players[p].army.get(cls, ()))

    def ranks_of(self, card: int, cls: str | None) -> int:
        """The ranks a card brings to class `cls` (0 for another class or no card)."""
        return self.defs[card].nranks if card >= 0 and self.defs[card].cls == cls else 0

    def last_cards(self, p: int, card: int, kind: str, other: bool, only: str | None = None) -> list[int]:
        """The topmost card of `kind` in each army column (`other`: not the card's own column;
        `only`: that column alone)."""
        own = self.defs[card].cls
        out = []
        for cls in self.rules.classes:
            if (other and cls == own) or (only is not None and cls != only):
                continue
            for c in reversed(self.s.players[p].army.get(cls, ())):
                if kind == "card" or self.defs[c].kind == kind:
                    out.append(c)
                    break
        return out


def _implements(engine: Engine) -> EngineAPI:
    return engine  # mypy checks here that Engine implements the interface generated code calls
