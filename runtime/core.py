"""The engine's core: state, setup, what players own (with its indexes), questions to players,
events, and the queries compiled expressions read. No card is known here: cards act only through
their compiled handlers, modifiers and data."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from nidavellir.errors import NidavellirError
from nidavellir.interface.decisions import Decision, Option
from nidavellir.interface.engine import EngineAPI, Event, Gen
from nidavellir.interface.rules import CardDef, Modifier
from nidavellir.interface.support import MAX_VALUE, beyond

from .journal import ALL_KINDS, GameStarted, Happening, kinds_of
from .loops import MAX_CASCADE, Running, cascade_error, ensure_stack, origin
from .rules import Rules
from .scoring import Scores
from .setup import setup_plan
from .state import Coin, Player, State
from .streams import AGE_DECK, GEMS, RESHUFFLE, ZONE_DECK, stream

if TYPE_CHECKING:
    from .flow import Snapshot

COMMAND = None  # destination: the command zone
_NONE: list[int] = []  # (no listener: shared, never changed)
NOBODY = -1     # the player of an event that belongs to no one
T = TypeVar("T")
Names = tuple[str, ...]


class SetupError(NidavellirError):
    """A game the rules cannot set up (a player count they do not allow)."""


class EngineCore:
    """State, setup, the ownership indexes, questions, events and the queries compiled expressions
    read; the actions on coins and cards (coin_actions, card_actions) build on it."""

    @property
    def api(self) -> EngineAPI:
        """The whole engine, as compiled handlers see it (Engine gives itself)."""
        raise NotImplementedError

    # What an engine holds besides its state (tests/test_engine_state.py checks that nothing else is
    # there, and that `restore` gives back everything a game changes):
    CONFIGURATION: ClassVar[Names] = ("rules", "seed", "n", "names")  # fixed for the game
    DERIVED: ClassVar[Names] = ("defs", "where", "_ranks", "_owned", "_mods", "_listeners", "_hero_kinds")  # from `s`
    RUNNING: ClassVar[Names] = ("causes", "cascade")  # the effects running now (empty between decisions of the flow)
    KEPT: ClassVar[Names] = ("_journal", "keeps", "saving", "saved")  # records and saved points, kept for consumers

    def __init__(self, rules: Rules, names: Sequence[str], seed: int):
        ensure_stack()
        self.rules = rules
        self.seed = seed
        self.n = len(names)
        self.names = list(names)
        self.s = State(chance=seed)
        self.defs: list[CardDef] = []      # instance id -> definition (parallel to s.cards)
        self.where: dict[int, tuple[int, str | None]] = {}  # owned card -> (player, column or None)
        self._hero_kinds: dict[tuple[int, ...], tuple[int, ...]] = {}  # available heroes -> one of each kind
        self.causes: list[int] = []        # the cards whose effects run, innermost last
        self.cascade: list[Running] = []   # the handlers and values running, innermost last (runtime/loops.py)
        self._journal: list[Happening] | None = None  # what happens, kept only when asked (runtime/journal.py)
        self.keeps: frozenset[type[Happening]] = frozenset()  # the kinds of record the journal keeps
        self.saving = False                # keep the state at each point the flow can resume from (Game.copy)
        self.saved: Snapshot | None = None  # the last such point's snapshot
        # Indexes of what players own, kept up to date by attach/detach (None: build from the state
        # when first needed, as after reading a position)
        self._ranks: list[dict[str, int]] | None = None            # player -> class -> ranks
        self._owned: list[list[int] | None] = [None] * self.n       # player -> owned cards, in order
        self._mods: list[dict[str, list[tuple[int, Modifier]]] | None] = [None] * self.n
        self._listeners: list[dict[tuple[str, str], list[int]] | None] = [None] * self.n

    @property
    def scores(self) -> Scores | None:
        """The final scores, once the game is over."""
        return self.s.scores

    @property
    def chance(self) -> int:
        """The root of the game's random streams."""
        return self.s.chance

    # -- the state as a whole: snapshot and restore -------------------------------------------
    def snapshot(self) -> State:
        """A copy of everything the game has changed (the state: the engine's other fields are
        derived from it or fixed)."""
        return self.s.copy()

    def restore(self, saved: State) -> None:
        """Come back to a snapshot (of this game, or of another of the same rules: a copy); the
        indexes are rebuilt from it. The snapshot stays as it was: it may be restored again."""
        self.s = s = saved.copy()
        defs = self.defs
        if len(defs) >= len(s.cards) and all(defs[i].id == cid for i, cid in enumerate(s.cards)):
            del defs[len(s.cards):]
        else:
            self.defs = [self.rules.cards[cid] for cid in s.cards]
        self.where = {c: (q, None) for q, pl in enumerate(s.players) for c in pl.command}
        self.where.update((c, (q, cls)) for q, pl in enumerate(s.players) for cls, col in pl.army.items()
                          for c in col)
        self.reindex()

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
        What does not depend on the seed is built once per rule set and player count (SetupPlan);
        the gems and each deck are shuffled by their own stream (runtime/streams.py)."""
        r, s, n = self.rules, self.s, self.n
        if not r.allows(n):
            raise SetupError(f"these rules play with {r.min_players} to {r.max_players} players, not {n}")
        plan = setup_plan(r, n)
        gems = list(plan.gems)
        stream(self.s.chance, GEMS).shuffle(gems)
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
            stream(self.s.chance, AGE_DECK, str(age)).shuffle(deck)
            s.decks[age] = deck
        for zone, cards in plan.zones.items():
            pile = list(cards)
            stream(self.s.chance, ZONE_DECK, zone).shuffle(pile)
            s.zones[zone] = pile
        s.heroes, s.distinctions, s.supply = list(plan.heroes), list(plan.distinctions), list(plan.supply)
        s.taverns = [[] for _ in r.tavern_ids]
        self.reindex()
        if GameStarted in self.keeps:
            self.note(GameStarted(0, 0, gems=tuple(pl.gem for pl in s.players)))

    def reshuffle(self, pile: list[int], deck: str) -> None:
        """Shuffle a deck in play (cards shuffled back into it) with a stream of its own, by the deck
        and how many times it was reshuffled before (counted in the state: copies go on alike)."""
        done = self.s.reshuffles.get(deck, 0)
        self.s.reshuffles[deck] = done + 1
        stream(self.s.chance, RESHUFFLE, f"{deck}#{done}").shuffle(pile)

    # -- the journal: when, who, and who caused what ------------------------------------------
    # Every record is kept by one rule: `if Kind in engine.keeps: engine.note(Kind(s.age, s.turn, ...))`
    # (`keeps` is empty when there is no journal, so a game without one computes no record).
    @property
    def journal(self) -> list[Happening] | None:
        """The records kept (None: no journal)."""
        return self._journal

    @journal.setter
    def journal(self, records: list[Happening] | None) -> None:
        """Keep records in `records` (every kind, or the kinds kept so far), or none (None)."""
        self._journal = records
        self.keeps = frozenset() if records is None else self.keeps or ALL_KINDS

    def note(self, record: Happening) -> None:
        """Keep a record (the caller asked `type(record) in self.keeps`)."""
        assert self._journal is not None and type(record) in self.keeps, type(record).kind
        self._journal.append(record)

    def keep_journal(self, kinds: Iterable[str | type[Happening]] | None = None,
                     records: list[Happening] | None = None) -> None:
        """From now on, keep the records of `kinds` (None: every kind) in `records` (default: a new list)."""
        self._journal = [] if records is None else records
        self.keeps = ALL_KINDS if kinds is None else kinds_of(kinds)

    def owner(self, card: int) -> int:
        """The player whose army or command zone holds `card` (NOBODY: none)."""
        loc = self.where.get(card)
        return NOBODY if loc is None else loc[0]

    def actor(self) -> int:
        """The owner of the card whose effect is running (NOBODY: none)."""
        return self.owner(self.causes[-1]) if self.causes else NOBODY

    def cause(self) -> str | None:
        """The card whose effect is running (innermost)."""
        return self.s.cards[self.causes[-1]] if self.causes else None

    def _enter(self, card: int, fn: Callable[..., Any]) -> None:
        """One level deeper in the cascade: past MAX_CASCADE, the loop's located error."""
        if len(self.cascade) >= MAX_CASCADE:
            raise cascade_error([*self.cascade, (self.s.cards[card], fn)], self.rules.ruleset.loops)
        self.cascade.append((self.s.cards[card], fn))

    def _caused(self, card: int, handler: Callable[..., Gen[T]], ev: Event, p: int) -> Gen[T]:
        """Run a card's handler: the card is the cause of what it does (while journalling), the
        handler a level of the cascade while it runs."""
        cascade = self.cascade
        if len(cascade) >= MAX_CASCADE:
            raise cascade_error([*cascade, (self.s.cards[card], handler)], self.rules.ruleset.loops)
        cascade.append((self.s.cards[card], handler))
        if not self.keeps:  # (the causes are only for the records)
            try:
                return (yield from handler(self.api, p, card, ev))
            finally:
                cascade.pop()
        self.causes.append(card)
        try:
            return (yield from handler(self.api, p, card, ev))
        finally:
            self.causes.pop()
            cascade.pop()

    def value(self, fn: Callable[[EngineAPI, int, int], T], p: int, card: int) -> T:
        """A card's compiled value (a modifier's amount, a score, a requirement) for p: a level of the
        cascade while it is worked out."""
        self._enter(card, fn)
        try:
            return fn(self.api, p, card)
        finally:
            self.cascade.pop()

    def card_score(self, p: int, card: int) -> int:
        """What a card's own score expression gives (0 without one)."""
        score = self.defs[card].score
        return 0 if score is None else self.value(score, p, card)

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
                d = self.defs[card]
                ranks[dest] = ranks.get(dest, 0) + (len(d.ranks_in(dest)) if d.column_ranks else d.nranks)
        self.where[card] = (p, dest)
        self.s.clock += 1
        self.s.arrived[card] = self.s.clock
        self._owned[p] = None
        d = self.defs[card]
        if d.mods:
            self._mods[p] = None
        if d.id in self.rules.listening:
            self._listeners[p] = None

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
                d = self.defs[card]
                self._ranks[p][col] -= len(d.ranks_in(col)) if d.column_ranks else d.nranks
        self._owned[p] = None
        d = self.defs[card]
        if d.mods:
            self._mods[p] = None
        if d.id in self.rules.listening:
            self._listeners[p] = None
        return loc

    def reindex(self) -> None:
        """Rebuild the ownership indexes from the state (after the state was set from outside)."""
        self._ranks = [{cls: sum(len(self.defs[c].ranks_in(cls)) for c in pl.army.get(cls, ()))
                        for cls in self.rules.classes} for pl in self.s.players]
        self._owned = [None] * len(self.s.players)
        self._mods = [None] * len(self.s.players)
        self._listeners = [None] * len(self.s.players)

    def index_problems(self) -> list[str]:
        """Where the indexes disagree with the state (for the invariants checker)."""
        problems = []
        ranks = self._rank_index()
        for p, pl in enumerate(self.s.players):
            for cls in self.rules.classes:
                actual = sum(len(self.defs[c].ranks_in(cls)) for c in pl.army.get(cls, ()))
                if ranks[p].get(cls, 0) != actual:
                    problems.append(f"p{p}'s {cls} rank index says {ranks[p].get(cls, 0)}, the column holds {actual}")
            fresh = list(pl.command) + [c for cls in self.rules.classes for c in pl.army.get(cls, ())]
            if self.owned(p) != fresh:
                problems.append(f"p{p}'s owned-cards index is stale")
            listening = self._listeners[p]
            if listening is not None and listening != self._listen_index(p, store=False):
                problems.append(f"p{p}'s index of cards with effects is stale")
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

    def card_kind(self, card: int) -> str:
        return self.defs[card].kind

    def card_points(self, card: int) -> int:
        """A card's Bravery Points: its ranks' points in its column, or its printed ranks' points."""
        d = self.defs[card]
        return sum(d.ranks_in(self.column_of(card))) if d.column_ranks else d.rank_points

    def card_class(self, card: int) -> str:
        """A card's class: its column while it stands in an army (DESIGN §9), else its printed class."""
        loc = self.where.get(card)
        if loc is not None and loc[1] is not None:
            return loc[1]
        return self.defs[card].cls

    def column_of(self, card: int) -> str | None:
        loc = self.where.get(card)
        return loc[1] if loc else None

    def own_column(self, card: int) -> str | None:
        return self.rules.own_columns[self.defs[card].id]  # (placement.own_column, inlined: a hot path)

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
            total += sum(d.ranks_in(cls)) if d.column_ranks else d.rank_points
            if d.score is not None and not d.score_once:
                total += self.value(d.score, p, c)
                if not -MAX_VALUE <= total <= MAX_VALUE:  # (ranks' points alone stay far below it)
                    raise beyond(total, origin(d.score)[0], f"with `{d.id}`'s score, the points of the `{cls}` "
                                                            f"column of {self.names[p]} are {{}}")
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
            amount = self.value(mod.amount, p, c)
            value = amount if mod.op == "=" else value + amount if mod.op == "+" else value - amount
            if not -MAX_VALUE <= value <= MAX_VALUE:
                where, text = origin(mod.amount)
                raise beyond(value, where, f"`{self.s.cards[c]}`'s `{text}` makes param `{name}` {{}}")
        return value

    def cards_of_kind(self, p: int, kind: str) -> int:
        return sum(1 for c in self.owned(p) if self.defs[c].kind == kind)

    def zero_ranks(self, p: int, cls: str | None) -> int:
        """Ranks worth 0 points in a column."""
        if cls is None:
            return 0
        total = 0
        for c in self.s.players[p].army.get(cls, ()):
            d = self.defs[c]
            total += d.ranks_in(cls).count(0) if d.column_ranks else d.zero_ranks
        return total

    def ranks_of(self, card: int, cls: str | None) -> int:
        """The ranks a card brings to class `cls` (0 for another class or no card): in an army, the
        ranks it has in its column; elsewhere those of its printed class."""
        if card < 0 or cls is None or self.card_class(card) != cls:
            return 0
        d = self.defs[card]
        return len(d.ranks_in(cls)) if d.column_ranks else d.nranks

    def is_kind(self, card: int, kind: str) -> bool:
        """Whether a card is of a card set's kind: `card` any, `non-hero` any but a hero, `dwarf` a
        dwarf card (a kind the rules mark `dwarf_card`: DESIGN §9)."""
        if kind == "card":
            return True
        if kind == "non-hero":
            return self.defs[card].kind != "hero"
        return self.defs[card].kind in self.rules.dwarf_kinds

    def _set_columns(self, card: int, other: bool, only: str | None) -> list[str]:
        own = self.column_of(card) or self.defs[card].cls
        return [cls for cls in self.rules.classes if not ((other and cls == own) or (only is not None and cls != only))]

    def last_cards(self, p: int, card: int, kind: str, other: bool, only: str | None = None) -> list[int]:
        """The topmost card of `kind` in each army column (`other`: not the card's own column;
        `only`: that column alone)."""
        out = []
        for cls in self._set_columns(card, other, only):
            for c in reversed(self.s.players[p].army.get(cls, ())):
                if self.is_kind(c, kind):
                    out.append(c)
                    break
        return out

    def army_cards(self, p: int, card: int, kind: str, other: bool, only: str | None = None) -> list[int]:
        """Every card of `kind` in the army columns (as `last_cards` chooses the columns), bottom to top."""
        return [c for cls in self._set_columns(card, other, only)
                for c in self.s.players[p].army.get(cls, ()) if self.is_kind(c, kind)]

    # -- iterating a set that effects may change ---------------------------------------------
    # Every action that goes through a set of cards or coins one by one goes through the set as it is
    # when the action starts, and skips a member that an effect of an earlier member took out of it.
    def each_member(self, members: Iterable[T], still: Callable[[T], bool]) -> Iterator[T]:
        """Each of `members` (a snapshot taken now), skipping one for which `still` is false by its turn."""
        for member in list(members):
            if still(member):
                yield member

    def still_owned(self, p: int, cards: Iterable[int]) -> Iterator[int]:
        """Each of `cards`, skipping one p no longer owns by its turn (`each_member`, written out: it
        runs on every event)."""
        where = self.where
        for c in list(cards):
            loc = where.get(c)
            if loc is not None and loc[0] == p:
                yield c

    def each_card(self, cards: list[int]) -> Iterator[int]:
        """Each of `cards`, skipping one that is no longer where it was (an army column, a command zone,
        or none: the cards being resolved)."""
        start = {c: self.where.get(c) for c in cards}
        resolving = {c for c in cards if c in self.s.resolving}
        return self.each_member(cards, lambda c: self.where.get(c) == start[c]
                                and (c not in resolving or c in self.s.resolving))

    # -- events ------------------------------------------------------------------------------
    def listeners(self, p: int, role: str, event: str) -> list[int]:
        """p's cards, in `owned` order, with effects on `event` in a role: `whenever`, `instead`
        (`instead of any`) or `window` (`when` or `whenever` of a flow window). Kept per player until
        a card with effects comes or goes; the list is the engine's: do not change it."""
        return self._index(p).get((role, event), _NONE)

    def _index(self, p: int) -> dict[tuple[str, str], list[int]]:
        index = self._listeners[p]
        return self._listen_index(p) if index is None else index

    def _listen_index(self, p: int, store: bool = True) -> dict[tuple[str, str], list[int]]:
        index: dict[tuple[str, str], list[int]] = {}
        windows = self.rules.windows
        for card in self.owned(p):
            d = self.defs[card]
            for name in d.whenever:
                index.setdefault(("whenever", name), []).append(card)
                index.setdefault(("window", name), []).append(card)
            for name in d.instead_any:
                index.setdefault(("instead", name), []).append(card)
            for name in d.when:
                if name not in d.whenever and name in windows:
                    index.setdefault(("window", name), []).append(card)
        if store:
            self._listeners[p] = index
        return index

    def listens(self, card: int, start: int) -> bool:
        """Whether `card` hears an event that began at tick `start`: only if it reached its owner
        before (DESIGN §9 "Where the powers meet": a card counts only what happens after it reaches
        its owner). An event begins when the runtime fires it: a card placed just before its own
        `joined` or `recruited` fires has arrived; one that an effect of the event brings has not."""
        return self.s.arrived.get(card, 0) < start

    def emit(self, p: int, event: str, subject: int = -1, amount: int = 0) -> Gen[None]:
        """Fire `event`: the subject's own `when` effects, then the `whenever` effects of p's cards
        that p held when the event began (`listens`).

        Effects of one player's cards run in command-zone order, then army columns in class
        order, bottom to top."""
        ev = Event(event, subject, amount)
        self.s.clock += 1
        start = self.s.clock
        if subject >= 0:
            for handler in self.defs[subject].when.get(event, ()):
                yield from self._caused(subject, handler, ev, p)
        if p >= 0 and event in self.rules.owner_events:
            listening = self._index(p).get(("whenever", event))
            if listening:
                for card in self.still_owned(p, listening):
                    if not self.listens(card, start):
                        continue
                    for handler in self.defs[card].whenever.get(event, ()):
                        yield from self._caused(card, handler, ev, p)

    def replace(self, p: int, event: str, subject: int) -> Gen[bool]:
        """Offer `event` on `subject` to replacement effects: the subject's own `instead of`, then
        `instead of any` on p's cards. The first that applies replaces it: True."""
        ev = Event(event, subject)
        for handler in self.defs[subject].instead.get(event, ()):
            if (yield from self._caused(subject, handler, ev, p)):
                return True
        if p >= 0 and event in self.rules.owner_replacements:
            for card in self.still_owned(p, self._index(p).get(("instead", event), _NONE)):
                for handler in self.defs[card].instead_any.get(event, ()):
                    if (yield from self._caused(card, handler, ev, p)):
                        return True
        return False

    def reacts(self, event: str, subject: int = -1, p: int = -1) -> bool:
        """Whether `emit` of this event could run any effect (else it need not be called); with `p`,
        for that player's event only."""
        if subject >= 0 and event in self.defs[subject].when:
            return True
        if event not in self.rules.owner_events:
            return False
        if p < 0:
            return True
        index = self._index(p)
        return ("whenever", event) in index

    def replaceable(self, event: str, subject: int = -1, p: int = -1) -> bool:
        """Whether any card of the rules replaces `event` (else `replace` need not be asked); with
        `subject` and `p`, whether that card or one of p's cards might."""
        if p < 0:
            return event in self.rules.owner_replacements or event in self.rules.own_replacements
        if subject >= 0 and event in self.defs[subject].instead:
            return True
        if event not in self.rules.owner_replacements:
            return False
        index = self._index(p)
        return ("instead", event) in index

    def window(self, name: str, order: list[int] | None = None) -> Gen[None]:
        """A timing window of the flow: every player's cards that wait for it, players by gem (or in
        the step's `order`); a card that reaches a player while the window runs does not act in it
        (`listens`)."""
        if name not in self.rules.reacting:
            return
        self.s.clock += 1
        start = self.s.clock
        for p in self.player_order() if order is None else order:
            waiting = self.listeners(p, "window", name)
            if not waiting:
                continue
            for card in self.still_owned(p, waiting):
                if not self.listens(card, start):
                    continue
                d = self.defs[card]
                for handler in d.when.get(name, ()) + d.whenever.get(name, ()):
                    if self.where.get(card, (None,))[0] == p:
                        yield from self._caused(card, handler, Event(name), p)

    def player_order(self) -> list[int]:
        """Players by gem, highest first: the order simultaneous effects run in (a new list)."""
        players = self.s.players
        return sorted(range(self.n), key=lambda q: -players[q].gem)

    def other_players(self, p: int) -> list[int]:
        return [q for q in self.player_order() if q != p]
