"""The flow: ages, turns and the named steps the flow data orders (`do:`), run by the engine."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations

from nidavellir.errors import NidavellirError
from nidavellir.interface.decisions import CoinChoice, Decision, Option
from nidavellir.interface.engine import Gen
from nidavellir.interface.events import MAX_TURNS_PER_AGE, STEPS
from nidavellir.interface.rules import Step

from .card_actions import Entry
from .core import NOBODY
from .coins import gem_swaps
from .engine import Engine
from .scoring import final_scores


class TurnLimit(NidavellirError):
    """The rules played an age for more turns than any game has: stopped, located at the flow."""


def enter_dwarves(e: Engine) -> Gen[None]:
    """003 "Enter the Dwarves": X current-age cards face up in each tavern."""
    yield from ()
    s = e.s
    deck = s.decks[s.age]
    per = e.rules.ruleset.cards_per_tavern[e.n]
    for tavern in s.taverns:
        for _ in range(min(per, len(deck))):
            tavern.append(deck.pop())


def bids(e: Engine) -> Gen[None]:
    """003 "Bids": each player secretly puts one coin on each tavern and the rest in the pouch."""
    s = e.s
    coins = s.coins
    ntav = len(s.taverns)
    prompt = "bid: one coin per tavern, " + ", ".join(e.rules.tavern_ids)
    for p, pl in enumerate(s.players):
        if e.param(p, "bid_from_hand") > 0:
            continue  # bids each tavern from hand once the others are revealed
        values = sorted([coins[c].value for c in pl.hand])
        options = bid_options(tuple(values), ntav)
        answer = (yield Decision(p, "bid", options, prompt)) if len(options) > 1 else options[0]
        assert isinstance(answer, tuple)
        hand = [c for c in pl.hand if not coins[c].trading] + [c for c in pl.hand if coins[c].trading]
        # (trading coins go last ...)
        for t, value in enumerate(answer):
            coin = next(c for c in hand if coins[c].value == value)
            hand.remove(coin)
            pl.slots[t] = coin
        pl.pouch = hand
        pl.hand = []
        if len(set(values)) == len(values):
            continue  # no two coins of one value: nothing to tell apart
        # ... unless the player puts a trading coin elsewhere among the coins of its value
        for coin in [c for c in (*pl.slots, *pl.pouch) if c is not None and coins[c].trading]:
            places = [e.rules.tavern_ids[t] for t, c in enumerate(pl.slots)
                      if c is not None and coins[c].value == coins[coin].value]
            if any(coins[c].value == coins[coin].value for c in pl.pouch):
                places.append("pouch")
            yield from _place_trading_coin(e, p, coin, places, pl.pouch)


_BID_OPTIONS: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}


def bid_options(values: tuple[int, ...], taverns: int) -> tuple[tuple[int, ...], ...]:
    """Every bid of these coin values on that many taverns, in order (the same hands recur: cached)."""
    key = (values, taverns)
    options = _BID_OPTIONS.get(key)
    if options is None:
        if len(_BID_OPTIONS) > 4096:
            _BID_OPTIONS.clear()
        options = _BID_OPTIONS[key] = tuple(sorted(set(permutations(values, taverns))))
    return options


def _place_trading_coin(e: Engine, p: int, coin: int, places: list[str], rest: list[int]) -> Gen[None]:
    """003 "Bids": "place one coin of your choosing": a trading coin and another coin of the same
    value are told apart: the player says where among `places` (tavern ids or the zone `rest`
    stands for) the trading coin goes; it swaps with the other coin there."""
    if len(places) < 2:
        return
    coins = e.s.coins
    value = coins[coin].value
    pl = e.s.players[p]
    options: list[Option] = [CoinChoice(value, place) for place in places]
    answer = yield from e.ask(p, "trade-coin", options, f"where does your trading coin {value} go?")
    assert isinstance(answer, CoinChoice)
    on_tavern = answer.at in e.rules.tavern_ids
    other: int | None
    if on_tavern:
        i = e.rules.tavern_ids.index(answer.at)
        other = pl.slots[i]
    else:
        if coin in rest:
            return
        i = next(j for j, c in enumerate(rest) if coins[c].value == value)
        other = rest[i]
    if other is None or other == coin:
        return
    if coin in pl.slots:  # the trading coin swaps places with the other coin
        pl.slots[pl.slots.index(coin)] = other
    elif coin in rest:
        rest[rest.index(coin)] = other
    if on_tavern:
        pl.slots[i] = coin
    else:
        rest[i] = coin


def resolve_taverns(e: Engine) -> Gen[None]:
    """003 "Taverns Resolution": reveal, each player in bid order takes a card, then gem trades."""
    s = e.s
    coins = s.coins
    picked_replaced = e.replaceable("picked")
    bid_won = e.reacts("bid-won")
    for t, tavern in enumerate(s.taverns):
        tid, tname = e.rules.tavern_ids[t], e.rules.tavern_names[t]
        for p, pl in enumerate(s.players):
            if pl.slots[t] is None and pl.hand and e.param(p, "bid_from_hand") > 0:
                options: dict[int, int] = {}
                for c in sorted(pl.hand):
                    options.setdefault(coins[c].value, c)
                shown = {q: coins[placed].value for q in range(e.n) if (placed := s.players[q].slots[t]) is not None}
                value = yield from e.ask(p, "place-bid", sorted(options),
                                         f"place a coin on {e.rules.tavern_ids[t]} (revealed: {shown})")
                assert isinstance(value, int)
                coin = min((c for c in pl.hand if coins[c].value == value), key=lambda c: coins[c].trading)
                pl.hand.remove(coin)
                pl.slots[t] = coin
                trading = next((c for c in pl.hand if coins[c].trading and coins[c].value == value), None)
                if trading is not None:
                    yield from _place_trading_coin(e, p, trading, [e.rules.tavern_ids[t], "hand"], pl.hand)
        bid = [-1 if (slot := pl.slots[t]) is None else coins[slot].value for pl in s.players]
        order = sorted(range(e.n), key=lambda q: (-bid[q], -s.players[q].gem))
        groups: dict[int, list[int]] = {}
        for q in order:
            if bid[q] >= 0:
                groups.setdefault(bid[q], []).append(q)
        first = True
        for p in order:
            if bid[p] < 0:
                continue
            if tavern:
                if first and bid_won:  # the bid's winner chooses first
                    yield from e.emit(p, "bid-won")
                card = yield from e.choose_card(p, tavern, "pick", f"choose a card in {tname}", tid)
                assert card is not None
                tavern.remove(card)
                s.resolving.append(card)
                if not (picked_replaced and (yield from e.replace(p, "picked", card))):
                    yield from e.take_card(p, card)
                elif card in s.resolving:
                    s.resolving.remove(card)
                    s.discard.append(card)
            first = False
            bid_coin = s.players[p].slots[t]
            if bid_coin is not None and coins[bid_coin].trading:
                yield from e.coin_trade(p, bid_coin)
        for tied in groups.values():
            if len(tied) > 1:
                trade_gems(e, tied)
        s.discard.extend(tavern)
        tavern.clear()
    for pl in s.players:
        pl.hand.extend(c for c in pl.slots if c is not None)
        pl.hand.extend(pl.pouch)
        pl.slots = [None] * len(s.taverns)
        pl.pouch = []


def trade_gems(e: Engine, tied: list[int]) -> None:
    """003 "Trading Gems": tied players trade; a gem that is not tradable sits out."""
    players = e.s.players
    special = e.rules.special_gems
    traders = [q for q in tied if players[q].gem not in special or special[players[q].gem].tradable]
    owner = {players[q].gem: q for q in traders}
    for low, high in gem_swaps([players[q].gem for q in traders]):
        players[owner[low]].gem, players[owner[high]].gem = high, low


def troop_evaluation(e: Engine) -> Gen[None]:
    """003 "Troop Evaluation": a strict majority of ranks wins each distinction, in class order.

    The majorities are counted once, before any distinction is awarded (interpretation
    troop-evaluation-once): an award's effect does not change who wins a later one."""
    s = e.s
    winner: dict[str, int | None] = {}
    for cls in e.rules.classes:
        ranks = [e.ranks(q, cls) for q in range(e.n)]
        best = max(ranks)
        leaders = [q for q in range(e.n) if ranks[q] == best]
        winner[cls] = leaders[0] if best > 0 and len(leaders) == 1 else None
    for cls in e.rules.classes:
        card = next((c for c in s.distinctions if e.defs[c].cls == cls), None)
        if card is None:
            continue
        p = winner[cls]
        if p is not None:
            s.distinctions.remove(card)
            with Entry(e):
                yield from e.place(p, card, None, check=False)
                yield from e.emit(p, "won", card)
            if e.may_recruit(p):
                yield from e.check_heroes(p)
        else:
            yield from e.emit(NOBODY, "unclaimed", card)


def final_scoring(e: Engine) -> Gen[None]:
    yield from ()
    e.scores = final_scores(e)


STEP_FUNCTIONS: dict[str, Callable[[Engine], Gen[None]]] = {
    "enter-dwarves": enter_dwarves,
    "bids": bids,
    "resolve-taverns": resolve_taverns,
    "troop-evaluation": troop_evaluation,
    "final-scoring": final_scoring,
}
assert set(STEP_FUNCTIONS) == set(STEPS), "runtime steps and their declarations differ"


def run_steps(e: Engine, steps: Sequence[Step]) -> Gen[None]:
    for step in steps:
        if step.ages is not None and e.s.age not in step.ages:
            continue
        if step.do is not None:
            yield from STEP_FUNCTIONS[step.do](e)
        elif step.window is not None:
            yield from e.window(step.window)


@dataclass(frozen=True)
class FlowPoint:
    """A point between steps where the flow can resume: the start of a turn, or of an age's end."""
    age_index: int
    turn: int          # turns already played in that age
    age_end: bool = False


def play(e: Engine, start: FlowPoint | None = None) -> Gen[None]:
    """The whole game: setup, then each age's turns until its deck runs out, then its end steps.

    With `start`, resume there on an engine whose state is that point's (see Game.copy); while
    `e.saving`, the state at each point the flow passes is kept in `e.saved`."""
    rs = e.rules.ruleset
    if start is None:
        e.setup()
        start = FlowPoint(0, 0)
    for index in range(start.age_index, len(rs.ages)):
        age = rs.ages[index]
        resuming = index == start.age_index
        e.s.age = age
        if not (resuming and start.age_end):
            e.s.turn = start.turn if resuming else 0
            while e.s.decks[age]:
                if e.saving:
                    e.saved = Snapshot(FlowPoint(index, e.s.turn), e)
                e.s.turn += 1
                if e.s.turn > MAX_TURNS_PER_AGE:
                    raise TurnLimit(f"{rs.flow_source or 'the flow'}: Age {age} has gone on for "
                                    f"{MAX_TURNS_PER_AGE} turns and its deck still holds {len(e.s.decks[age])} "
                                    "cards: the rules never end this age (does a card keep refilling the deck?)")
                yield from run_steps(e, rs.turn)
        if e.saving:
            e.saved = Snapshot(FlowPoint(index, e.s.turn, age_end=True), e)
        yield from run_steps(e, rs.age_end)
    if e.scores is None:
        e.scores = final_scores(e)
    e.s.finished = True


class Snapshot:
    """The state at a point of the flow, to resume from (Game.copy)."""

    def __init__(self, point: FlowPoint, engine: Engine):
        self.point = point
        self.state = engine.s.copy()
        self.where = dict(engine.where)
        self.rng = engine.rng.getstate()

    def restore(self, engine: Engine) -> None:
        engine.s, engine.where = self.state.copy(), dict(self.where)
        engine.defs = [engine.rules.cards[cid] for cid in engine.s.cards]
        engine.reindex()
        engine.rng.setstate(self.rng)
