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
from nidavellir.interface.rules import CardDef, Modifier

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
        # Indexes of what players own, kept up to date by attach/detach (None: build from the state
        # when first needed, as after reading a position)
        self._ranks: list[dict[str, int]] | None = None            # player -> class -> ranks
        self._owned: list[list[int] | None] = [None] * self.n       # player -> owned cards, in order
        self._mods: list[dict[str, list[tuple[int, Modifier]]] | None] = [None] * self.n

    # -- setup -----------------------------------------------------------------------------
    def new_card(self, cid: str) -> int:
        self.s.cards.append(cid)
        self.defs.append(self.rules.cards[cid])
        return len(self.s.cards) - 1

    def new_coin(self, coin: Coin) -> int:
        self.s.coins.append(coin)
        return len(self.s.coins) - 1

    def setup(self) -> None:
        """Deal the game: gems, coins, the shuffled age decks, heroes, distinctions, the supply.
        What does not depend on the seed is built once per rule set and player count (SetupPlan)."""
        r, s, n = self.rules, self.s, self.n
        if not r.allows(n):
            raise SetupError(f"these rules play with {r.min_players} to {r.max_players} players, not {n}")
        plan = setup_plan(r, n)
        gems = list(plan.gems)
        self.rng.shuffle(gems)
        for i, name in enumerate(self.names):
            s.players.append(Player(name=name, gem=gems[i], slots=[None] * len(r.tavern_ids),
                                    hand=list(plan.hands[i])))
        s.coins = list(plan.coins)
        s.treasure = {value: list(coins) for value, coins in plan.treasure.items()}
        s.special_coins = dict(plan.special_coins)
        s.special_gems = sorted(r.special_gems)
        s.cards = list(plan.cards)
        self.defs = list(plan.defs)
        for age, cards in plan.decks.items():
            deck = list(cards)
            self.rng.shuffle(deck)
            s.decks[age] = deck
        s.heroes, s.distinctions, s.supply = list(plan.heroes), list(plan.distinctions), list(plan.supply)
        s.taverns = [[] for _ in r.tavern_ids]
        self.reindex()

    # -- what players own: the army, the command zone, and their indexes ----------------------
    def attach(self, p: int, card: int, dest: str | None) -> None:
        """Put `card` (held by no one) on top of p's column `dest`, or in the command zone (None)."""
        pl = self.s.players[p]
        if dest is None:
            pl.command.append(card)
        else:
            pl.army.setdefault(dest, []).append(card)
            if self._ranks is not None:
                ranks = self._ranks[p]
                ranks[dest] = ranks.get(dest, 0) + self.defs[card].nranks
        self.where[card] = (p, dest)
        self._owned[p] = None
        if self.defs[card].mods:
            self._mods[p] = None

    def detach(self, card: int) -> tuple[int, str | None] | None:
        """Take `card` out of its owner's army or command zone; where it was (None: not owned)."""
        loc = self.where.pop(card, None)
        if loc is None:
            return None
        p, col = loc
        pl = self.s.players[p]
        if col is None:
            pl.command.remove(card)
        else:
            pl.army[col].remove(card)
            if self._ranks is not None:
                self._ranks[p][col] -= self.defs[card].nranks
        self._owned[p] = None
        if self.defs[card].mods:
            self._mods[p] = None
        return loc

    def reindex(self) -> None:
        """Rebuild the ownership indexes from the state (after the state was set from outside)."""
        self._ranks = [{cls: sum(self.defs[c].nranks for c in pl.army.get(cls, ())) for cls in self.rules.classes}
                       for pl in self.s.players]
        self._owned = [None] * len(self.s.players)
        self._mods = [None] * len(self.s.players)

    def index_problems(self) -> list[str]:
        """Where the indexes disagree with the state (for the invariants checker)."""
        problems = []
        ranks = self._rank_index()
        for p, pl in enumerate(self.s.players):
            for cls in self.rules.classes:
                actual = sum(self.defs[c].nranks for c in pl.army.get(cls, ()))
                if ranks[p].get(cls, 0) != actual:
                    problems.append(f"p{p}'s {cls} rank index says {ranks[p].get(cls, 0)}, the column holds {actual}")
            fresh = list(pl.command) + [c for cls in self.rules.classes for c in pl.army.get(cls, ())]
            if self.owned(p) != fresh:
                problems.append(f"p{p}'s owned-cards index is stale")
        return problems

    def _rank_index(self) -> list[dict[str, int]]:
        if self._ranks is None:
            self.reindex()
            assert self._ranks is not None
        return self._ranks

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
        ranks = self._ranks if self._ranks is not None else self._rank_index()
        return ranks[p].get(cls, 0)

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
        """Complete lines: the ranks of p's smallest column (the index holds every class)."""
        return min((self._ranks if self._ranks is not None else self._rank_index())[p].values())

    def most_ranks(self, p: int, cls: str | None) -> bool:
        mine = self.ranks(p, cls)
        return mine > 0 and all(self.ranks(q, cls) <= mine for q in range(self.n))

    def strict_most_ranks(self, p: int, cls: str | None) -> bool:
        mine = self.ranks(p, cls)
        return mine > 0 and all(self.ranks(q, cls) < mine for q in range(self.n) if q != p)

    def owned(self, p: int) -> list[int]:
        """p's cards: the command zone, then the army columns in class order, bottom to top
        (the order effects run in). The list is the engine's: do not change it."""
        out = self._owned[p]
        if out is None:
            pl = self.s.players[p]
            out = list(pl.command)
            for cls in self.rules.classes:
                out.extend(pl.army.get(cls, ()))
            self._owned[p] = out
        return out

    def copies(self, p: int, card: int) -> int:
        cid = self.defs[card].id
        return sum(1 for c in self.owned(p) if self.defs[c].id == cid)

    def heroes(self, p: int) -> int:
        return sum(1 for c in self.owned(p) if self.defs[c].kind == "hero")

    def param(self, p: int, name: str) -> int:
        """A param's value for p: the rules' value, changed by the modifiers of p's cards in order."""
        value = self.rules.params.get(name, 0)
        if not self.rules.modifier_cards:
            return value
        mods = self._mods[p]
        if mods is None:
            mods = {}
            for c in self.owned(p):
                for mod in self.defs[c].mods:
                    mods.setdefault(mod.param, []).append((c, mod))
            self._mods[p] = mods
        for c, mod in mods.get(name, ()):
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
            deck = []
            for entry in rules.decks.get(age, ()):
                in_decks.add(entry.card)
                if n >= entry.min_players:
                    deck.extend(card(entry.card) for _ in range(entry.count))
            self.decks[age] = tuple(deck)
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


def _implements(engine: Engine) -> EngineAPI:
    return engine  # mypy checks here that Engine implements the interface generated code calls
