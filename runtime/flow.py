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
        by_value: dict[int, int] = {}
        for c in sorted(pl.hand):
            by_value.setdefault(coins[c].value, c)
        values = sorted(coins[c].value for c in pl.hand)
        options = sorted({tuple(v) for v in permutations(values, ntav)})
        answer = yield from e.ask(p, "bid", [list(o) for o in options],
                                  "bid: one coin per tavern, " + ", ".join(e.rules.tavern_ids))
        hand = list(pl.hand)
        for t, value in enumerate(answer):
            coin = next(c for c in hand if coins[c].value == value)
            hand.remove(coin)
            pl.slots[t] = coin
        pl.pouch = hand
        pl.hand = []


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
                pl.hand.remove(options[value])
                pl.slots[t] = options[value]
        bid = [coins[pl.slots[t]].value if pl.slots[t] is not None else -1 for pl in s.players]
        e.bids = bid
        order = sorted(range(e.n), key=lambda q: (-bid[q], -s.players[q].gem))
        groups: dict[int, list[int]] = {}
        for q in order:
            if bid[q] >= 0:
                groups.setdefault(bid[q], []).append(q)
        for p in order:
            if bid[p] < 0:
                continue
            if tavern:
                options = {}
                for c in tavern:
                    options.setdefault(s.cards[c], c)
                cid = yield from e.ask(p, "pick", list(options), f"choose a card in {e.rules.tavern_ids[t]}")
                card = options[cid]
                tavern.remove(card)
                yield from e.take_card(p, card)
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
    """003 "Troop Evaluation": a strict majority of ranks wins each distinction, in class order."""
    s = e.s
    for cls in e.rules.classes:
        card = next((c for c in s.distinctions if e.defs[c].cls == cls), None)
        if card is None:
            continue
        ranks = [e.ranks(q, cls) for q in range(e.n)]
        best = max(ranks)
        winners = [q for q in range(e.n) if ranks[q] == best]
        if best > 0 and len(winners) == 1:
            p = winners[0]
            s.distinctions.remove(card)
            yield from e.place(p, card, None, check=False)
            yield from e.fire(p, card, "won")
            yield from e.check_heroes(p)
        else:
            yield from e.fire(-1, card, "unclaimed")


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
