"""The generic game engine: flow steps, primitive actions and the API compiled handlers call.

The game runs as a generator that yields a Decision whenever a player must choose; `Game`
(runtime/game.py) drives it from outside. No card is known here: cards act only through
their compiled handlers, modifiers and data.
"""
from __future__ import annotations

import random
from collections.abc import Generator, Iterable
from typing import Any

from .coins import treasure_value
from .decisions import Decision
from .rules import CardDef, Rules
from .state import BASIC, SPECIAL, TREASURE, Coin, Player, State

Gen = Generator[Decision, Any, Any]
COMMAND = None  # destination: the command zone


class Engine:
    """State plus the primitives; subclasses add nothing card-specific."""

    def __init__(self, rules: Rules, names: list[str], seed: int):
        self.rules = rules
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = len(names)
        self.s = State()
        self.defs: list[CardDef] = []      # instance id -> definition (parallel to s.cards)
        self.where: dict[int, tuple[int, str | None]] = {}  # owned card -> (player, column or None)
        self.bids: list[int | None] = []   # bid value revealed at the tavern being resolved
        self.scores: list[dict] | None = None
        self._names = names

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
        for i, name in enumerate(self._names):
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

    def coin_values(self, p: int) -> list[int]:
        coins = self.s.coins
        return [coins[c].value for c in self.s.players[p].coin_ids()]

    def highest_coin(self, p: int) -> int:
        return max(self.coin_values(p), default=0)

    def lowest_coin(self, p: int) -> int:
        return min(self.coin_values(p), default=0)

    def coins_total(self, p: int) -> int:
        return sum(self.coin_values(p))

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

    def last_cards(self, p: int, card: int | str, kind: str, other: bool) -> list[int]:
        """The topmost card of `kind` in each army column (`other`: not the card's own column)."""
        own = self.card_class(card)
        out = []
        for cls in self.rules.classes:
            if other and cls == own:
                continue
            for c in reversed(self.s.players[p].army.get(cls, ())):
                if kind == "card" or self.defs[c].kind == kind:
                    out.append(c)
                    break
        return out

    # -- coins ------------------------------------------------------------------------------
    def coin_place(self, p: int, coin: int) -> str:
        pl = self.s.players[p]
        if coin in pl.slots:
            return self.rules.tavern_ids[pl.slots.index(coin)]
        return "pouch" if coin in pl.pouch else "hand"

    def coin_label(self, p: int, coin: int) -> str:
        return f"{self.s.coins[coin].value}@{self.coin_place(p, coin)}"

    def transformable_coins(self, p: int) -> list[int]:
        """Transformable coins in board order: taverns, then pouch, then hand."""
        pl = self.s.players[p]
        coins = self.s.coins
        order = [c for c in pl.slots if c is not None] + pl.pouch + pl.hand
        return [c for c in order if coins[c].transformable]

    def lowest_transformable(self, p: int) -> int | None:
        coins = self.transformable_coins(p)
        return min(coins, key=lambda c: self.s.coins[c].value, default=None)

    def highest_transformable(self, p: int) -> int | None:
        coins = self.transformable_coins(p)
        return max(coins, key=lambda c: self.s.coins[c].value, default=None)

    def trading_coin(self, p: int) -> int | None:
        return next((c for c in self.s.players[p].coin_ids() if self.s.coins[c].trading), None)

    def choose_coin(self, p: int, coins: list[int], purpose: str) -> Gen:
        if not coins:
            return None
        labels: dict[str, int] = {}
        for c in coins:
            labels.setdefault(self.coin_label(p, c), c)
        answer = yield from self.ask(p, "coin", list(labels), f"choose a coin to {purpose}")
        return labels[answer]

    def _replace_coin(self, p: int, old: int, new: int) -> None:
        pl = self.s.players[p]
        for zone in (pl.hand, pl.pouch):
            if old in zone:
                zone[zone.index(old)] = new
                return
        pl.slots[pl.slots.index(old)] = new

    def _discard_coin(self, coin: int) -> None:
        c = self.s.coins[coin]
        if c.origin == TREASURE:
            self.s.treasure.setdefault(c.value, []).append(coin)
        else:
            self.s.coin_box.append(coin)

    def take_from_treasure(self, wanted: int) -> int | None:
        t = self.s.treasure
        value = treasure_value([v for v, cs in t.items() if cs], wanted)
        return None if value is None else t[value].pop()

    def transform(self, p: int, coin: int, amount: int) -> Gen:
        """003 "Transforming a Coin": add X, take the treasure's answer, discard the old coin."""
        yield from ()
        old = self.s.coins[coin]
        if not old.transformable:
            return
        new = self.take_from_treasure(old.value + amount + self.param(p, "transform_bonus"))
        if new is None:
            return
        self._replace_coin(p, coin, new)
        self._discard_coin(coin)

    def exchange_coin(self, p: int, coin: int, special_id: str) -> None:
        new = self.s.special_coins.pop(special_id, None)
        if new is None:
            return
        self._replace_coin(p, coin, new)
        self.s.coin_box.append(coin)

    def coin_trade(self, p: int, trading: int) -> Gen:
        """003 "Trading Coins": add the two pouch coins, discard the higher, take the sum."""
        pl = self.s.players[p]
        coins = self.s.coins
        # Bidding from hand, the two coins come from the hand; coins already on the board (the
        # turn the power is gained) stay there until the end of the turn: the pouch trades.
        if self.param(p, "bid_from_hand") > 0 and len(pl.hand) >= 2:
            pair = []
            for i in range(2):
                options = [c for c in pl.hand if c not in pair]
                if not options:
                    return
                pick = yield from self.choose_coin(p, options, f"add up in the coin trade ({i + 1} of 2)")
                pair.append(pick)
            source = pl.hand
        else:
            pair = list(pl.pouch)
            source = pl.pouch
        if len(pair) < 2:
            return
        a, b = sorted(pair, key=lambda c: coins[c].value)
        new = self.take_from_treasure(coins[a].value + coins[b].value + self.param(p, "transform_bonus"))
        if new is None:
            return
        gone = a if self.param(p, "trade_lower") > 0 else b
        source.remove(gone)
        self._discard_coin(gone)
        pl.pouch.append(new)

    def gain_gem(self, p: int, value: int) -> None:
        if value in self.s.special_gems:
            self.s.special_gems.remove(value)
            pl = self.s.players[p]
            pl.covered_gems.append(pl.gem)
            pl.gem = value

    # -- cards ------------------------------------------------------------------------------
    def supply_card(self, cid: str) -> int | None:
        """Take a card of the supply (None when none is left)."""
        card = next((c for c in self.s.supply if self.s.cards[c] == cid), None)
        if card is not None:
            self.s.supply.remove(card)
            self.s.resolving.append(card)
        return card

    def _lift(self, card: int) -> None:
        """Take an owned card out of its army column or command zone."""
        loc = self.where.pop(card, None)
        if loc is None:
            if card in self.s.resolving:
                self.s.resolving.remove(card)
            return
        p, col = loc
        pl = self.s.players[p]
        (pl.command if col is None else pl.army[col]).remove(card)

    def place(self, p: int, card: int, dest: str | None, check: bool = True) -> Gen:
        """Put a card in an army column (or the command zone); then recruit heroes for new lines.

        A card placed where it already is stays where it is: it is not moved to the top and covers
        nothing."""
        if self.where.get(card) == (p, dest):
            if check:
                yield from self.check_heroes(p)
            return
        self._lift(card)
        pl = self.s.players[p]
        if dest is COMMAND:
            pl.command.append(card)
            self.where[card] = (p, None)
            return
        column = pl.army.setdefault(dest, [])
        covered = column[-1] if column else None
        replaced = self.defs[covered].instead.get("covered") if covered is not None else None
        if replaced:
            self._lift(covered)
            self.s.resolving.append(covered)
        column.append(card)
        self.where[card] = (p, dest)
        if replaced:
            for handler in replaced:
                yield from handler(self, p, covered)
        if check:
            yield from self.check_heroes(p)

    def choose_column(self, p: int, card: int) -> Gen:
        classes = self.rules.classes
        return (yield from self.ask(p, "column", list(classes), f"choose a column for {self.card_def(card).name}"))

    def choose_cards(self, p: int, cards: list[int], count: int, purpose: str) -> Gen:
        chosen: list[int] = []
        for i in range(min(count, len(cards))):
            options = {f"{self.s.cards[c]}@{self.column_of(c)}": c for c in cards if c not in chosen}
            answer = yield from self.ask(p, "card", list(options), f"choose a card to {purpose} ({i + 1} of {count})")
            chosen.append(options[answer])
        return chosen

    def discard_card(self, p: int, card: int, source: int | None = None) -> Gen:
        yield from ()
        self._lift(card)
        self.s.discard.append(card)

    def discard_top(self, age: int | None) -> None:
        deck = self.s.decks.get(self.s.age if age is None else age)
        if deck:
            self.s.discard.append(deck.pop())

    def fire(self, p: int, card: int, event: str) -> Gen:
        for handler in self.defs[card].on.get(event, ()):
            yield from handler(self, p, card)

    def take_card(self, p: int, card: int) -> Gen:
        """A card taken from a tavern or a draw enters as its kind says, then `taken` fires."""
        d = self.defs[card]
        mode, column = d.enters
        if card not in self.s.resolving:
            self.s.resolving.append(card)
        if mode == "discard":
            yield from self.fire(p, card, "taken")
            self.s.resolving.remove(card)
            self.s.discard.append(card)
            return
        dest = yield from self._destination(p, card, mode, column)
        yield from self.place(p, card, dest, check=False)
        yield from self.fire(p, card, "taken")
        yield from self.check_heroes(p)

    def _destination(self, p: int, card: int, mode: str, column: str | None) -> Gen:
        if mode == "chosen":
            return (yield from self.choose_column(p, card))
        if mode == "column":
            return column
        if mode == "command":
            return COMMAND
        return self.own_column(card)

    def look(self, p: int, age: int | None, count: int, take: int, rest: str) -> Gen:
        deck = self.s.decks[self.s.age if age is None else age]
        drawn = [deck.pop() for _ in range(min(count, len(deck)))]
        self.s.resolving.extend(drawn)
        kept = []
        for i in range(min(take, len(drawn))):
            options = {self.s.cards[c]: c for c in drawn if c not in kept}
            answer = yield from self.ask(p, "card", list(options), f"choose a card to keep ({i + 1} of {take})")
            kept.append(options[answer])
        left = [c for c in drawn if c not in kept]
        for c in left:
            self.s.resolving.remove(c)
        if rest == "shuffled":
            deck.extend(left)
            self.rng.shuffle(deck)
        else:
            while left:
                options = {self.s.cards[c]: c for c in left}
                answer = yield from self.ask(p, "card", list(options), "choose the next card to put under the deck")
                deck.insert(0, options[answer])
                left.remove(options[answer])
        for c in kept:
            yield from self.take_card(p, c)

    # -- heroes -----------------------------------------------------------------------------
    def recruitable(self, p: int) -> list[int]:
        seen: dict[str, int] = {}
        for h in self.s.heroes:
            d = self.defs[h]
            if d.id not in seen and all(req(self, p, d.id) for req in d.requires):
                seen[d.id] = h
        return list(seen.values())

    def check_heroes(self, p: int) -> Gen:
        """003 "Recruiting a Hero": each complete line not yet used recruits a hero."""
        pl = self.s.players[p]
        while self.param(p, "recruit_by_lines") > 0 and self.lines(p) > pl.heroes_counted:
            if not (yield from self.recruit_hero(p, counted=True)):
                return

    def recruit_hero(self, p: int, counted: bool = True) -> Gen:
        options = {self.s.cards[h]: h for h in self.recruitable(p)}
        if not options:
            return False
        labels = [self.rules.cards[cid].name for cid in options]
        answer = yield from self.ask(p, "hero", list(options), "recruit a hero", labels)
        hero = options[answer]
        self.s.heroes.remove(hero)
        if counted:
            self.s.players[p].heroes_counted += 1
        mode, column = self.defs[hero].enters
        self.s.resolving.append(hero)
        dest = yield from self._destination(p, hero, mode, column)
        yield from self.place(p, hero, dest, check=False)
        yield from self.fire(p, hero, "recruited")
        yield from self.check_heroes(p)
        return True

    # -- windows ---------------------------------------------------------------------------
    def player_order(self) -> list[int]:
        """Players by gem, highest first: the order simultaneous effects run in."""
        return sorted(range(self.n), key=lambda q: -self.s.players[q].gem)

    def window(self, name: str, skip_choices: bool = False) -> Gen:
        for p in self.player_order():
            for card in self.owned(p):
                if card in self.where and self.where[card][0] == p:
                    for handler in self.defs[card].on.get(name, ()):
                        yield from handler(self, p, card)
