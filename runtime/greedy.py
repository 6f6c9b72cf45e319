"""The greedy bot's heuristics: what a position is worth to a player, what a card, a bid or any
other answer adds to it, all measured on a world the player may know (`Observation.sample`).

The value of a position (`Valuer.position`) is its Final Bravery Value now (runtime/scoring.py:
every class formula, the command zone, the coins) plus what it promises and the score does not
show yet, each weighed by how much of the game is left:

- the next hero: 003 "Recruiting a Hero" recruits one for each line of the five classes, so
  each class still missing from the next line is a step towards a hero;
- the distinctions (003 "End of Age 1: Troop Evaluation": a strict majority of ranks in a class
  wins its distinction), each worth what winning it does to the score (its effect played out on
  a copy of the state), times the chance that the player's margin holds to the end of Age 1;
- the coins: they count at the end, and until then they win bids (003 "Bids"), so each coin
  point is worth a little more early.

A card is worth the change in that value when it is taken: played out on the sampled world
(placed in its column or command zone, its effects run, a hero recruited for a new line) and
undone. A bid is chosen by its expected worth: for each tavern, the chance of each place in its
pick order (the others' coins are known, where they lie is not: each is taken to be equally
likely on any tavern) and the best card the player can expect at that place; plus the coin
trade a trading coin on a tavern makes (003 "Trading Coins": the two pouch coins are added up,
the higher is discarded, so the player gains the lower one's value). Any other decision is
answered by playing each option out on a copy of the world and comparing the positions.

No card is named: cards are known by what the rules data says of them (kind, class, ranks,
effects), their worth by what the engine scores.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nidavellir.interface.decisions import CardChoice, CoinChoice, Decision, Option
from nidavellir.interface.engine import Gen

from .coins import treasure_value
from .core import COMMAND
from .scoring import player_score
from .setup import setup_plan

if TYPE_CHECKING:
    from .engine import Engine
    from .game import Game

HERO_VALUE = 15.0        # what a hero adds on average (its points, ranks or effect), for lines in progress
COIN_EARLY = 0.5         # a coin point at the start is worth 1.5 points (it wins bids), at the end 1
DRIVE_LIMIT = 64         # decisions a played-out effect may ask before it is abandoned
RANK_SPREAD = 0.35       # variance of the rank margin per card each player still takes (distinctions)
TIE = 1e-6               # values closer than this are equal


Policy = Callable[["Engine", Decision], Option]


def drive(e: Engine, run: Gen[Any], policy: Policy) -> bool:
    """Run an engine generator to its end, answering each decision it asks with `policy`; False if
    it asked more than DRIVE_LIMIT (it is then closed)."""
    try:
        d = next(run)
        for _ in range(DRIVE_LIMIT):
            d = run.send(policy(e, d))
    except StopIteration:
        return True
    run.close()
    return False


# -- cheap answers, for decisions asked while an effect is played out ----------------------------

def quick(e: Engine, d: Decision) -> Option:
    """A fast answer that needs no copy of the world: the best hero by its static worth, the
    column with the fewest ranks (towards a line), the highest coin or amount, yes to a power."""
    options = d.options
    if d.kind == "hero":
        return max(options, key=lambda o: static_card_value(e, d.player, available_hero(e, o)))
    if d.kind == "column":
        return min(options, key=lambda o: e.ranks(d.player, str(o)))
    if d.kind == "class":
        return max(options, key=lambda o: e.ranks(d.player, str(o)))
    if d.kind in ("coin", "amount", "place-bid"):
        return max(options, key=_number)
    if d.kind == "use":
        return True if True in options else options[0]
    return options[0]


def _number(o: Option) -> int:
    if isinstance(o, CoinChoice):
        return o.value
    return o if isinstance(o, int) else 0


def available_hero(e: Engine, o: Option) -> int:
    """The instance of an available hero an option names (-1 if none)."""
    if not isinstance(o, CardChoice):
        return -1
    return next((h for h in e.s.heroes if e.s.cards[h] == o.card), -1)


def static_card_value(e: Engine, p: int, card: int) -> float:
    """What a card adds to p's score and lines if it simply joins p's army or command zone (no
    effect is run): the quick estimate for a hero."""
    if card < 0 or card in e.where:
        return 0.0
    d = e.defs[card]
    before = player_score(e, p)["total"] + line_potential(e, p, 1.0)
    if d.enters == "command":
        dest: str | None = COMMAND
    elif d.enters == "column":
        dest = d.enters_column
    elif d.enters == "chosen":
        dest = min(d.enters_among or e.rules.classes, key=lambda c: e.ranks(p, c))
    else:
        dest = e.own_column(card)
    e.attach(p, card, dest)
    after = player_score(e, p)["total"] + line_potential(e, p, 1.0)
    e.detach(card)
    return after - before


# -- the worth of a position ---------------------------------------------------------------------

def line_potential(e: Engine, p: int, left: float, hero_value: float = HERO_VALUE) -> float:
    """The worth of p's progress towards the next line of the five classes (a hero): each class
    already in it counts for a fifth of a hero, while p still has cards to take to complete it."""
    if e.param(p, "recruit_by_lines") <= 0 or not e.s.heroes:
        return 0.0
    classes = e.rules.classes
    lines = e.lines(p)
    missing = sum(1 for c in classes if e.ranks(p, c) <= lines)
    if missing == 0:
        return 0.0
    reach = min(1.0, left / (2 * missing)) if left > 0 else 0.0
    return hero_value * (len(classes) - missing) / len(classes) * reach


@dataclass
class Progress:
    """How much of the game is left, in cards each player still takes."""
    age_left: float      # this age, each player
    game_left: float     # the rest of the game, each player
    fraction: float      # of the whole game


def progress(e: Engine) -> Progress:
    s = e.s
    n = max(1, e.n)
    in_taverns = sum(len(t) for t in s.taverns)
    age_cards = len(s.decks.get(s.age, ())) + in_taverns
    later = sum(len(deck) for age, deck in s.decks.items() if age > s.age)
    total = sum(len(deck) for deck in setup_plan(e.rules, e.n).decks.values())
    game_cards = age_cards + later
    return Progress(age_cards / n, game_cards / n, min(1.0, game_cards / total) if total else 0.0)


def hold_chance(margin: int, cards_left: float) -> float:
    """The chance that a lead of `margin` ranks over the best other player is a strict majority at
    the end of the age, when each player still takes `cards_left` cards."""
    spread = RANK_SPREAD * cards_left
    if spread <= 0:
        return 1.0 if margin > 0 else 0.0
    return 0.5 * (1.0 + math.erf((margin - 0.5) / math.sqrt(2.0 * spread)))


class Valuer:
    """Values on one world for one player: of the position, of a card taken, of the distinctions.

    Valuing a card or a hero plays it out on the world's engine and restores the engine's state
    (as new objects): the world itself is not answered afterwards (`answer_value` copies it)."""

    def __init__(self, world: Game, p: int, distinctions: dict[int, float] | None = None):
        self.world, self.e, self.p = world, world.engine, p
        self.progress = progress(self.e)
        self._distinctions = distinctions
        self.base = self.position()

    def distinction_values(self) -> dict[int, float]:
        """What winning each distinction still to be awarded would add to p's score (its effect
        played out on the world and undone), by the distinction's card instance."""
        if self._distinctions is None:
            e, p = self.e, self.p
            values: dict[int, float] = {}
            if e.s.distinctions:
                saved = e.snapshot()
                before = self.position(distinctions=False)
                for card in list(e.s.distinctions):
                    drive(e, _win(e, p, card), quick)
                    values[card] = max(0.0, self.position(distinctions=False) - before)
                    e.restore(saved)
            self._distinctions = values
        return self._distinctions

    def position(self, distinctions: bool = True) -> float:
        """The worth of p's position: the score now and what it promises (see the module's docstring)."""
        e, p, left = self.e, self.p, self.progress
        value = float(player_score(e, p)["total"])
        value += line_potential(e, p, left.game_left)
        value += COIN_EARLY * left.fraction * e.coins_total(p)
        if distinctions and e.s.distinctions:
            for card, worth in self.distinction_values().items():
                cls = e.defs[card].cls
                mine = e.ranks(p, cls)
                best = max((e.ranks(q, cls) for q in range(e.n) if q != p), default=0)
                value += worth * hold_chance(mine - best, left.age_left)
        return value

    def take_value(self, card: int) -> float:
        """What taking `card` (from wherever it lies) adds to the position: placed as the rules
        place it, its effects and any hero it brings played out, then undone."""
        e, p = self.e, self.p
        if _plain_entry(e, p, card):
            dest = e.own_column(card)
            lines = e.lines(p)
            e.attach(p, card, dest)
            if e.lines(p) == lines or not e.may_recruit(p):
                value = self.position() - self.base
                e.detach(card)
                return value
            e.detach(card)
        saved = e.snapshot()
        for zone in (*e.s.taverns, *e.s.zones.values(), e.s.discard):
            if card in zone:
                zone.remove(card)
                break
        value = self.position() - self.base if drive(e, e.take_card(p, card), quick) else 0.0
        e.restore(saved)
        return value

    def hero_value(self, hero: int) -> float:
        """What recruiting the available hero `hero` adds to the position: placed as it enters, its
        effects and any hero it brings played out, then undone."""
        e = self.e
        if hero < 0:
            return 0.0
        saved = e.snapshot()
        done = drive(e, e.recruit_chosen(self.p, hero), quick)
        value = self.position() - self.base if done else 0.0
        e.restore(saved)
        return value

    def answer_value(self, option: Option) -> float:
        """What answering the pending decision with `option` adds to the position: the world is
        copied, answered, and played on while p alone decides (quickly), until a pick, a bid or
        another player's decision."""
        copy = self.world.copy(journal=False)
        copy.answer(option)
        for _ in range(DRIVE_LIMIT):
            d = copy.pending
            if d is None or d.player != self.p or d.kind in ("pick", "bid"):
                break
            copy.answer(quick(copy.engine, d))
        return Valuer(copy, self.p, self._distinctions).base - self.base


def _plain_entry(e: Engine, p: int, card: int) -> bool:
    """Whether taking `card` only puts it in its own column: it enters at once (the engine's own
    test) and has no effect of its own at all."""
    d = e.defs[card]
    return not (d.when or d.instead) and e.enters_at_once(p, card)


def _win(e: Engine, p: int, card: int) -> Gen[None]:
    """p wins the distinction `card` as the Troop Evaluation awards it (runtime/flow.py)."""
    yield from e.win_distinction(p, card)


# -- bids --------------------------------------------------------------------------------------

def expected_best(values: Sequence[float], keep: int) -> float:
    """The expected best of `values` left after all but `keep` of them are taken at random."""
    c = len(values)
    if keep <= 0 or c == 0:
        return 0.0
    if keep >= c:
        return max(values)
    ordered = sorted(values, reverse=True)
    total = math.comb(c, keep)
    # the best left is ordered[i] when it stays and the other keep-1 are among the c-1-i below it
    return sum(v * math.comb(c - 1 - i, keep - 1) for i, v in enumerate(ordered)) / total


def place_chances(beaten_by: Sequence[float]) -> list[float]:
    """The chances of having 0, 1, … players ahead, each ahead independently with its chance."""
    dist = [1.0]
    for q in beaten_by:
        nxt = [0.0] * (len(dist) + 1)
        for k, pk in enumerate(dist):
            nxt[k] += pk * (1 - q)
            nxt[k + 1] += pk * q
        dist = nxt
    return dist


def beat_chance(value: int, gem: int, coins: Sequence[int], other_gem: int) -> float:
    """The chance that another player's bid, any of their coins with equal chance, comes before a
    bid of `value` (003 "Solving Ties": a tie goes to the higher gem)."""
    if not coins:
        return 0.0
    ahead = sum(1 for c in coins if c > value or (c == value and other_gem > gem))
    return ahead / len(coins)


@dataclass(frozen=True)
class TavernOutlook:
    """What one tavern offers p: the worth of each card there, and of the cards only its top bidder
    may take instead (the Camp)."""
    values: tuple[float, ...]
    top_only: float


def bid_worth(bid: tuple[int, ...], worth_at: Callable[[int, int], float],
              trade: Callable[[tuple[int, ...]], float]) -> float:
    """The expected worth of a bid: what each coin is expected to bring on its tavern
    (`worth_at(tavern, value)`), plus the coin trade it makes."""
    return sum(worth_at(t, value) for t, value in enumerate(bid)) + trade(bid)


def tavern_worth(look: TavernOutlook, chances: Sequence[float]) -> float:
    """The expected worth of a tavern's pick to a bidder with these chances of each place: the best
    card left at each place (the Camp too for the top bidder)."""
    worth = 0.0
    for ahead, chance in enumerate(chances):
        if chance > 0:
            best = expected_best(look.values, len(look.values) - ahead)
            if ahead == 0:
                best = max(best, look.top_only)
            worth += chance * best
    return worth


def pairs_after(coins: Sequence[int], bid: tuple[int, ...]) -> list[int]:
    """The coin values left in the pouch after bidding `bid` from `coins` (values)."""
    left = list(coins)
    for v in bid:
        left.remove(v)
    return left


def trade_gain(e: Engine, p: int, pouch: Sequence[int], future: float) -> float:
    """What a coin trade adds (003 "Trading Coins"): the sum of the two pouch coins (as the treasure
    answers it) replaces the higher, so the coins gain the new coin less the higher; worth more
    with more of the game left (the higher coin wins later bids). With more than two coins to
    trade from, the player adds the two highest."""
    if len(pouch) < 2:
        return 0.0
    a, b = sorted(pouch)[-2:]
    wanted = a + b + e.param(p, "transform_bonus")
    got = treasure_value([v for v, cs in e.s.treasure.items() if cs], wanted)
    if got is None:
        return 0.0
    gone = a if e.param(p, "trade_lower") > 0 else b
    return (got - gone) * (1.0 + COIN_EARLY * future)


def choose_bid(val: Valuer, options: Sequence[Option]) -> Option:
    """The bid of the highest expected worth (see bid_worth)."""
    e, p = val.e, val.p
    taverns = [list(t) for t in e.s.taverns]
    top_zones = [src.zone for src in e.rules.ruleset.pick_sources if src.who != "any"]
    top_cards = [c for zone in top_zones for c in e.zone(zone)]
    # (valuing a card plays it out on the world and restores it: read the state only afterwards)
    top_only = max((val.take_value(c) for c in top_cards), default=0.0)
    outlook = [TavernOutlook(tuple(val.take_value(c) for c in cards), top_only) for cards in taverns]
    s = e.s
    coins = s.coins
    mine = s.players[p]
    my_values = sorted(coins[c].value for c in mine.coin_ids())
    trading = {coins[c].value for c in mine.coin_ids() if coins[c].trading}
    others = [(e.coin_values(q), s.players[q].gem) for q in range(e.n) if q != p]
    table: dict[tuple[int, int], float] = {}

    def worth_at(t: int, value: int) -> float:
        key = (t, value)
        if key not in table:
            beaten = [beat_chance(value, mine.gem, cs, gem) for cs, gem in others]
            table[key] = tavern_worth(outlook[t], place_chances(beaten))
        return table[key]

    future = val.progress.fraction

    trades: dict[tuple[int, ...], float] = {}

    def trade(bid: tuple[int, ...]) -> float:
        if not trading or not any(v in trading for v in bid):
            return 0.0
        pouch = tuple(pairs_after(my_values, bid))
        if pouch not in trades:
            trades[pouch] = trade_gain(e, p, pouch, future)
        return trades[pouch]

    best, best_worth = options[0], -math.inf
    for option in options:
        if isinstance(option, tuple):
            worth = bid_worth(option, worth_at, trade)
            if worth > best_worth + TIE:
                best, best_worth = option, worth
    return best


def choose_place_bid(val: Valuer, options: Sequence[Option]) -> Option:
    """A coin to put on the tavern once the others' bids are shown: the place in the pick order it
    reaches, less what the coin would bring on a later tavern."""
    e, p = val.e, val.p
    t = e.s.tavern
    values = tuple(val.take_value(c) for c in list(e.s.taverns[t]))
    s = e.s
    shown = [(s.coins[c].value, s.players[q].gem) for q in range(e.n)
             if q != p and (c := s.players[q].slots[t]) is not None]
    gem = s.players[p].gem
    later = 1 - (t + 1) / max(1, len(s.taverns))

    def worth(o: Option) -> float:
        v = _number(o)
        ahead = sum(1 for b, g in shown if b > v or (b == v and g > gem))
        return expected_best(values, len(values) - ahead) - 0.5 * v * later

    return max(options, key=worth)


# -- the other decisions -----------------------------------------------------------------------

def choose_by_value(options: Sequence[Option], value: Callable[[Option], float]) -> Option:
    """The option of the highest value (the first of equal ones)."""
    best, best_value = options[0], -math.inf
    for option in options:
        v = value(option)
        if v > best_value + TIE:
            best, best_value = option, v
    return best


def card_instance(e: Engine, o: Option) -> int:
    """The instance of the card a CardChoice names, where it says it lies (-1 if not found)."""
    if not isinstance(o, CardChoice):
        return -1
    ids = e.s.cards
    at = o.at
    places: list[list[int]] = []
    if at in e.rules.tavern_ids:
        places.append(e.s.taverns[e.rules.tavern_ids.index(at)])
    elif at in e.s.zones:
        places.append(e.s.zones[at])
    elif at == "discard":
        places.append(e.s.discard)
    for place in places:
        for c in place:
            if ids[c] == o.card:
                return c
    return -1


def choose_pick(val: Valuer, options: Sequence[Option]) -> Option:
    """The card whose taking adds most to the position (an option whose card is not found on the
    world is played out instead)."""
    e = val.e

    def value(o: Option) -> float:
        card = card_instance(e, o)
        return val.answer_value(o) if card < 0 else val.take_value(card)

    return choose_by_value(options, value)
