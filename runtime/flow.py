"""The flow: ages, turns and the named steps the flow data orders (`do:`), run by the engine."""
from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from .coins import gem_swaps
from .engine import Engine, Gen
from .scoring import final_scores


def enter_dwarves(e: Engine) -> Gen:
    """003 "Enter the Dwarves": X current-age cards face up in each tavern."""
    yield from ()
    s = e.s
    deck = s.decks[s.age]
    per = e.rules.per_players(e.rules.game["cards_per_tavern"], e.n)
    for tavern in s.taverns:
        for _ in range(min(per, len(deck))):
            tavern.append(deck.pop())


def bids(e: Engine) -> Gen:
    """003 "Bids": each player secretly puts one coin on each tavern and the rest in the pouch."""
    s = e.s
    coins = s.coins
    ntav = len(s.taverns)
    for p, pl in enumerate(s.players):
        if e.param(p, "bid_from_hand") > 0:
            continue  # bids each tavern from hand once the others are revealed
        values = sorted(coins[c].value for c in pl.hand)
        options = sorted({tuple(v) for v in permutations(values, ntav)})
        answer = yield from e.ask(p, "bid", [list(o) for o in options],
                                  "bid: one coin per tavern, " + ", ".join(e.rules.tavern_ids))
        hand = sorted(pl.hand, key=lambda c: coins[c].trading)  # trading coins go last ...
        for t, value in enumerate(answer):
            coin = next(c for c in hand if coins[c].value == value)
            hand.remove(coin)
            pl.slots[t] = coin
        pl.pouch = hand
        pl.hand = []
        # ... unless the player puts a trading coin elsewhere among the coins of its value
        for coin in [c for c in pl.slots + pl.pouch if coins[c].trading]:
            places = [e.rules.tavern_ids[t] for t, c in enumerate(pl.slots) if coins[c].value == coins[coin].value]
            if any(coins[c].value == coins[coin].value for c in pl.pouch):
                places.append("pouch")
            yield from _place_trading_coin(e, p, coin, places, pl.pouch)


def _place_trading_coin(e: Engine, p: int, coin: int, places: list[str], rest: list[int]) -> Gen:
    """003 "Bids": "place one coin of your choosing": a trading coin and another coin of the same
    value are told apart: the player says where among `places` (tavern ids or the zone `rest`
    stands for) the trading coin goes; it swaps with the other coin there."""
    if len(places) < 2:
        return
    coins = e.s.coins
    value = coins[coin].value
    pl = e.s.players[p]
    answer = yield from e.ask(p, "trade-coin", [f"{value}@{place}" for place in places],
                              f"where does your trading coin {value} go?")
    dest = answer.split("@", 1)[1]
    if dest in e.rules.tavern_ids:
        zone, i = pl.slots, e.rules.tavern_ids.index(dest)
    else:
        zone = rest
        if coin in rest:
            return
        i = next(j for j, c in enumerate(rest) if coins[c].value == value)
    other = zone[i]
    if other == coin:
        return
    for z in (pl.slots, rest):
        if coin in z:
            z[z.index(coin)] = other
            break
    zone[i] = coin


def resolve_taverns(e: Engine) -> Gen:
    """003 "Taverns Resolution": reveal, each player in bid order takes a card, then gem trades."""
    s = e.s
    coins = s.coins
    for t, tavern in enumerate(s.taverns):
        for p, pl in enumerate(s.players):
            if pl.slots[t] is None and pl.hand and e.param(p, "bid_from_hand") > 0:
                options = {}
                for c in sorted(pl.hand):
                    options.setdefault(coins[c].value, c)
                shown = {q: coins[s.players[q].slots[t]].value for q in range(e.n)
                         if s.players[q].slots[t] is not None}
                value = yield from e.ask(p, "place-bid", sorted(options),
                                         f"place a coin on {e.rules.tavern_ids[t]} (revealed: {shown})")
                coin = min((c for c in pl.hand if coins[c].value == value), key=lambda c: coins[c].trading)
                pl.hand.remove(coin)
                pl.slots[t] = coin
                trading = next((c for c in pl.hand if coins[c].trading and coins[c].value == value), None)
                if trading is not None:
                    yield from _place_trading_coin(e, p, trading, [e.rules.tavern_ids[t], "hand"], pl.hand)
        bid = [coins[pl.slots[t]].value if pl.slots[t] is not None else -1 for pl in s.players]
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
                if first:  # the bid's winner chooses first
                    yield from e.emit(p, "bid-won")
                card = yield from e.choose_card(p, tavern, "pick", f"choose a card in {e.rules.tavern_ids[t]}")
                tavern.remove(card)
                s.resolving.append(card)
                if not (e.rules.owner_replacements and (yield from e.replace(p, "picked", card))):
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
    traders = [q for q in tied if special.get(players[q].gem, {}).get("tradable", True)]
    owner = {players[q].gem: q for q in traders}
    for low, high in gem_swaps([players[q].gem for q in traders]):
        players[owner[low]].gem, players[owner[high]].gem = high, low


def troop_evaluation(e: Engine) -> Gen:
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
        if winner[cls] is not None:
            p = winner[cls]
            s.distinctions.remove(card)
            yield from e.place(p, card, None, check=False)
            yield from e.emit(p, "won", card)
            yield from e.check_heroes(p)
        else:
            yield from e.emit(-1, "unclaimed", card)


def final_scoring(e: Engine) -> Gen:
    yield from ()
    e.scores = final_scores(e)


STEPS: dict[str, Callable[[Engine], Gen]] = {
    "enter-dwarves": enter_dwarves,
    "bids": bids,
    "resolve-taverns": resolve_taverns,
    "troop-evaluation": troop_evaluation,
    "final-scoring": final_scoring,
}


def run_steps(e: Engine, steps: list[dict]) -> Gen:
    for step in steps:
        if "ages" in step and e.s.age not in step["ages"]:
            continue
        if "do" in step:
            yield from STEPS[step["do"]](e)
        else:
            yield from e.window(step["window"])


def play(e: Engine) -> Gen:
    """The whole game: setup, then each age's turns until its deck runs out, then its end steps."""
    e.setup()
    flow = e.rules.game["flow"]
    for age in e.rules.ages:
        e.s.age = age
        e.s.turn = 0
        while e.s.decks[age]:
            e.s.turn += 1
            yield from run_steps(e, flow["turn"])
        yield from run_steps(e, flow["age_end"])
    if e.scores is None:
        e.scores = final_scores(e)
    e.s.finished = True
