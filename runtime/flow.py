"""The flow: ages, turns and the named steps the flow data orders (`do:`), run by the engine."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

from nidavellir.errors import NidavellirError, count_of
from nidavellir.interface.decisions import CardChoice, CoinChoice, Decision, Option
from nidavellir.interface.engine import Gen
from nidavellir.interface.events import MAX_TURNS_PER_AGE
from nidavellir.interface.mechanisms import STEP_SPECS, TAVERN
from nidavellir.interface.rules import PickSource, Step

from .card_actions import card_choice
from .coins import gem_swaps
from .core import NOBODY
from .engine import Engine
from .journal import (
    AgeEnded,
    AgeStarted,
    BidsPlaced,
    BidsRevealed,
    Cleared,
    Dealt,
    Discarded,
    DistinctionUnclaimed,
    DistinctionWon,
    FinalScores,
    GemsTraded,
    LateBid,
    Took,
    TurnStarted,
    deck_place,
)
from .scoring import Scores, final_scores
from .state import FlowPoint


class TurnLimit(NidavellirError):
    """The rules played an age for more turns than any game has: stopped, located at the flow."""


def turn_limit(e: Engine, age: int) -> TurnLimit:
    """The error for an age past MAX_TURNS_PER_AGE turns: located at the effect that put the most cards
    back under its deck, naming each that did and how often (else at the flow)."""
    held = f"Age {age} has gone on for {MAX_TURNS_PER_AGE} turns and its deck still holds {count_of(len(e.s.decks[age]), 'card')}"
    back = sorted(e.s.put_back.get(age, {}).items(), key=lambda kv: -kv[1])
    if not back:
        return TurnLimit(f"{e.rules.ruleset.flow_source or 'the flow'}: {held}: the rules never end this age "
                         "(nothing put cards back in its deck: does a turn draw from it?)")
    first = back[0][0]
    where = first[first.rindex("(") + 1:-1]
    named = "; ".join(f"{effect}, {count_of(n, 'card')}" for effect, n in back[:5])
    if len(back) > 5:
        named += f"; and {count_of(len(back) - 5, 'effect')} more, {count_of(sum(n for _, n in back[5:]), 'card')}"
    return TurnLimit(f"{where}: {held}, because effects keep putting cards back under it: {named}; the game "
                     "stopped (an age ends only in the turn its deck runs out)")


def enter_dwarves(e: Engine) -> Gen[None]:
    """003 "Enter the Dwarves": X current-age cards face up in each tavern — or, in the turns a
    tavern's `draws` name, cards of that zone's deck."""
    yield from ()
    s = e.s
    age_deck = s.decks[s.age]
    per = e.rules.ruleset.cards_per_tavern[e.n]
    for t, tavern in enumerate(s.taverns):
        deck = age_deck
        source: str | None = None
        for draw in e.rules.ruleset.taverns[t].draws:
            if s.turn in draw.turns and (draw.ages is None or s.age in draw.ages):
                deck, source = e.deck(draw.zone), draw.zone
        for _ in range(min(per, len(deck))):
            tavern.append(deck.pop())
        if Dealt in e.keeps:
            e.note(Dealt(e.s.age, e.s.turn, at=e.rules.tavern_ids[t], cards=tuple(s.cards[c] for c in tavern),
                         deck=deck_place(source, s.age)))


def bids(e: Engine) -> Gen[None]:
    """003 "Bids": each player secretly puts one coin on each tavern and the rest in the pouch. A
    player left with fewer coins than taverns (by effects that discard coins) puts one on each of the
    first taverns, as many as they have; the later taverns get no bid from them (they take no card
    there, as after a card's effect discarded a coin)."""
    s = e.s
    coins = s.coins
    ntav = len(s.taverns)
    prompt = "bid: one coin per tavern, " + ", ".join(e.rules.tavern_ids)
    first = max(s.asking, 0)  # (resumed at that player's bid: see `resume_point`)
    for p in range(first, len(s.players)):
        pl = s.players[p]
        if e.param(p, "bid_from_hand") > 0:
            continue  # bids each tavern from hand once the others are revealed
        values = sorted([coins[c].value for c in pl.hand])
        options = bid_options(tuple(values), ntav)
        if len(options) > 1:
            s.asking = p
            answer = yield Decision(p, "bid", options, prompt)
            s.asking = -1
        else:
            answer = options[0]
        assert isinstance(answer, tuple)
        hand = [c for c in pl.hand if not coins[c].trading] + [c for c in pl.hand if coins[c].trading]
        # (trading coins go last ...)
        for t, value in enumerate(answer):
            for coin in hand:  # (the first coin of that value)
                if coins[coin].value == value:
                    break
            else:
                raise AssertionError(f"a bid of {value} from a hand without it")
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
    if BidsPlaced in e.keeps:  # each player's own bids, secret until the reveals
        for p, pl in enumerate(s.players):
            if e.param(p, "bid_from_hand") <= 0:
                e.note(BidsPlaced(
          e.s.age, e.s.turn, player=p, seen_by=frozenset((p,)),
          bids=tuple(None if c is None else coins[c].value for c in pl.slots),
          pouch=tuple(sorted(coins[c].value for c in pl.pouch)),
          trading=tuple(t for t, c in enumerate(pl.slots) if c is not None and coins[c].trading)))


_BID_OPTIONS: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], ...]] = {}


def bid_options(values: tuple[int, ...], taverns: int) -> tuple[tuple[int, ...], ...]:
    """Every bid of these coin values on that many taverns, in order (the same hands recur: cached);
    with fewer coins than taverns, on the first taverns, one coin each."""
    key = (values, taverns)
    options = _BID_OPTIONS.get(key)
    if options is None:
        if len(_BID_OPTIONS) > 4096:
            _BID_OPTIONS.clear()
        every = permutations(values, min(taverns, len(values)))
        # (of values in strictly increasing order, `permutations` gives each bid once and in order)
        ordered = all(a < b for a, b in zip(values, values[1:]))
        options = _BID_OPTIONS[key] = tuple(every) if ordered else tuple(sorted(set(every)))
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
    """003 "Taverns Resolution": each tavern in order, by the steps of `flow.tavern`; then every
    player's coins go back to the hand."""
    s = e.s
    plan = _tavern_plan(e)
    resuming = s.asking >= 0  # (resumed at a pick of the tavern being resolved: see `resume_point`)
    for t in range(s.tavern if resuming else 0, len(s.taverns)):
        if not resuming:
            s.tavern, s.revealed, s.bids_revealed = t, None, t + 1
            if BidsRevealed in e.keeps:
                _record_reveal(e, t)
        for j in range(s.tavern_step if resuming else 0, len(plan)):
            run, step = plan[j]
            s.tavern_step = j
            resuming = False
            running = run(e, step)
            if running is not None:
                yield from running
    s.tavern_step = -1
    e.s.revealed, e.s.bids_revealed = None, 0
    e.s.pouch_shown.clear()
    for pl in s.players:
        pl.hand.extend([c for c in pl.slots if c is not None])
        pl.hand.extend(pl.pouch)
        pl.slots = [None] * len(s.taverns)
        pl.pouch = []


def _record_reveal(e: Engine, t: int) -> None:
    """The journal's record of tavern t's bids turned face up."""
    assert e.journal is not None
    coins = e.s.coins
    slots = [pl.slots[t] for pl in e.s.players]
    e.note(BidsRevealed(e.s.age, e.s.turn, tavern=e.rules.tavern_ids[t],
                        bids=tuple(None if c is None else coins[c].value for c in slots),
                        trading=tuple(q for q, c in enumerate(slots) if c is not None and coins[c].trading)))


def _tavern_plan(e: Engine) -> list[tuple[StepFunction, Step]]:
    """The tavern steps of the current age with their functions (the same for every tavern; kept
    with the rules)."""
    plans: dict[int, list[tuple[StepFunction, Step]]] = e.rules.step_plans
    plan = plans.get(e.s.age)
    if plan is None:
        plan = plans[e.s.age] = [(TAVERN_STEP_FUNCTIONS[step.do] if step.do is not None else window_step, step)
                                 for step in e.rules.ruleset.tavern if step.ages is None or e.s.age in step.ages]
    return plan


def late_bids(e: Engine, step: Step) -> Gen[None] | None:
    """A player who bids from hand (param `bid_from_hand`) places a coin on the tavern once the
    others' bids are revealed (None: no one does)."""
    t = e.s.tavern
    for pl in e.s.players:
        if pl.slots[t] is None and pl.hand:
            return _late_bids(e)
    return None


def _late_bids(e: Engine) -> Gen[None]:
    s, t = e.s, e.s.tavern
    coins = s.coins
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
            if LateBid in e.keeps:
                placed = pl.slots[t]
                assert placed is not None
                e.note(LateBid(e.s.age, e.s.turn, player=p, tavern=e.rules.tavern_ids[t], value=value,
                               trading=coins[placed].trading))


def _bids(e: Engine) -> list[int]:
    """The value each player bid on the tavern being resolved (-1: no bid), as revealed: a coin
    transformed on it later does not change them (003 "Ties and Coin Transformation on a Resolving
    Tavern")."""
    if e.s.revealed is None:
        coins = e.s.coins
        e.s.revealed = [-1 if (slot := pl.slots[e.s.tavern]) is None else coins[slot].value for pl in e.s.players]
    return e.s.revealed


def bid_order(e: Engine) -> list[int]:
    """The bidders of the tavern being resolved, highest bid first (ties: higher gem)."""
    bid = _bids(e)
    players = e.s.players
    # (sorted as (-bid, -gem, player): a tie of both keeps the players' order, as a stable sort would)
    return [q for _, _, q in sorted([(-bid[q], -players[q].gem, q) for q in range(e.n) if bid[q] >= 0])]


def picks(e: Engine, step: Step) -> Gen[None]:
    """003 "Taverns Resolution": each bidder in bid order takes a card from a pick source they may
    use (the tavern; a source of the top bidder, or of others by a param, when the top bidder did not
    use it), then trades a trading coin bid here."""
    s, t = e.s, e.s.tavern
    coins = s.coins
    tavern = s.taverns[t]
    tid, tname = e.rules.tavern_ids[t], e.rules.tavern_names[t]
    sources = e.rules.ruleset.pick_sources
    plain = e.rules.tavern_only
    picked_replaced = e.replaceable("picked")
    bid_won = e.reacts("bid-won")
    top_used = s.top_used
    resuming = s.asking >= 0  # (resumed at a bidder's pick: see `resume_point`)
    if not resuming:
        top_used.clear()

    def usable(p: int, top: bool) -> tuple[PickSource, ...]:
        if plain:  # (the base game's one source, the tavern, open to every bidder: no list to build)
            return sources if tavern and (not s.reserved or _offered(e, p, sources[0])) else ()
        return tuple(src for src in sources if _may_use(e, src, p, top, top_used) and _offered(e, p, src))

    order = bid_order(e)
    for i in range(s.asking if resuming else 0, len(order)):
        p = order[i]
        top = i == 0
        here = usable(p, top)
        if not resuming and here and top and bid_won and e.reacts("bid-won", p=p):  # the winner chooses first
            yield from e.emit(p, "bid-won")
            here = usable(p, top)  # (as the sources are now: an effect on `bid-won` may have emptied one)
        resuming = False
        if here:
            s.asking = i
            if len(here) == 1 and here[0].zone == "tavern":  # the tavern alone, as for most bidders
                src = here[0]
                offered = tavern if not s.reserved else _offered(e, p, src)
                picked = yield from e.choose_card(p, offered, "pick", f"choose a card in {tname}", tid)
                assert picked is not None
                card = picked
            else:
                src, card = yield from _choose_pick(e, p, here, tid, tname)
            s.asking = -1
            if top:
                top_used.add(src.id)
            e.zone(src.zone).remove(card)
            s.resolving.append(card)
            if Took in e.keeps:
                e.note(Took(e.s.age, e.s.turn, player=p, card=s.cards[card], at=tid if src.zone == "tavern" else src.zone))
            replaced = picked_replaced and src.zone == "tavern" and e.replaceable("picked", card, p)
            yield from (_replace_pick(e, p, card) if replaced else e.take_card(p, card))
            if top and src.discard and (not src.discard_players or e.n in src.discard_players):
                free = [c for c in tavern if not e.bound(c)]  # (a reserved card stays where it lies)
                for gone in (yield from e.choose_cards(p, free, src.discard, f"discard from {tname}", tid)):
                    tavern.remove(gone)
                    if Discarded in e.keeps:
                        e.note(Discarded(e.s.age, e.s.turn, player=p, card=s.cards[gone], at=tid, into=e.discard_into(gone)))
                    e.discard_pile(gone).append(gone)
        bid_coin = s.players[p].slots[t]
        if bid_coin is not None and coins[bid_coin].trading:
            yield from e.coin_trade(p, bid_coin)


def _replace_pick(e: Engine, p: int, card: int) -> Gen[None]:
    """A card picked in the tavern is offered to `picked` replacements; if none takes it over it is
    taken (one left where it was is discarded)."""
    s = e.s
    if (yield from e.replace(p, "picked", card)):
        if card in s.resolving:
            s.resolving.remove(card)
            e.discard_pile(card).append(card)
    else:
        yield from e.take_card(p, card)


def _offered(e: Engine, p: int, src: PickSource) -> list[int]:
    """The cards of a source p may take: those no other player reserved this turn (`bound`)."""
    return e.takable(p, e.zone(src.zone))


def _may_use(e: Engine, src: PickSource, p: int, top: bool, top_used: set[str]) -> bool:
    if src.who == "any" or top:
        return True
    return src.also is not None and src.id not in top_used and e.param(p, src.also) > 0


def _choose_pick(e: Engine, p: int, usable: Sequence[PickSource], tid: str, tname: str) -> Gen[tuple[PickSource, int]]:
    """Ask p for a card of any source they may use (copies of one card at one place are one option)."""
    ids = e.s.cards
    first: dict[tuple[str, str], tuple[PickSource, int]] = {}
    for src in usable:
        at = tid if src.zone == "tavern" else src.zone
        for c in _offered(e, p, src):
            key = (ids[c], at)
            if key not in first:
                first[key] = (src, c)
    if len(first) == 1:
        return next(iter(first.values()))
    options = [card_choice(cid, at) for cid, at in first]
    names = ", ".join(tname if src.zone == "tavern" else (src.name or src.zone) for src in usable)
    answer = yield Decision(p, "pick", tuple(options), f"choose a card ({names})")
    assert isinstance(answer, CardChoice)
    return first[(answer.card, answer.at)]


def gem_trades(e: Engine, step: Step) -> None:
    """003 "Trading Gems": players tied on a bid of the tavern trade gems."""
    bid = _bids(e)
    placed = [b for b in bid if b >= 0]
    if len(set(placed)) == len(placed):
        return  # no tie
    groups: dict[int, list[int]] = {}
    for q in bid_order(e):
        groups.setdefault(bid[q], []).append(q)
    for tied in groups.values():
        if len(tied) > 1:
            if GemsTraded not in e.keeps:
                trade_gems(e, tied)
                continue
            before = [pl.gem for pl in e.s.players]
            trade_gems(e, tied)
            swaps = tuple((q, before[q], e.s.players[q].gem) for q in tied if e.s.players[q].gem != before[q])
            if swaps:
                e.note(GemsTraded(e.s.age, e.s.turn, tavern=e.rules.tavern_ids[e.s.tavern], swaps=swaps))


def clear(e: Engine, step: Step) -> None:
    """Every card of `zone` goes to `into` (cards left in a tavern, a face-up zone at an age's end); cleared
    into the discard pile, a card goes where its kind's discards go (`discards_to`)."""
    assert step.zone is not None and step.into is not None
    zone = e.zone(step.zone)
    if Cleared in e.keeps and zone:
        _record_cleared(e, step, zone)
    if step.into == "discard" and e.rules.ruleset.discards_to:
        for card in zone:
            e.discard_pile(card).append(card)
    else:
        e.zone(step.into).extend(zone)
    zone.clear()


def _record_cleared(e: Engine, step: Step, zone: list[int]) -> None:
    """The journal's records of a zone cleared: one per pile its cards go to."""
    assert e.journal is not None and step.zone is not None and step.into is not None
    at = e.rules.tavern_ids[e.s.tavern] if step.zone == "tavern" else step.zone
    into: dict[str, list[str]] = {}
    for card in zone:
        pile = e.discard_into(card) if step.into == "discard" else step.into
        into.setdefault(pile, []).append(e.s.cards[card])
    for pile, cards in into.items():
        e.note(Cleared(e.s.age, e.s.turn, at=at, cards=tuple(cards), into=pile))


def refill(e: Engine, step: Step) -> None:
    """`zone` is refilled to `count` face-up cards from the current
    age's deck of `deck` (as many as it still holds)."""
    assert step.zone is not None and step.deck is not None
    zone, deck = e.zone(step.zone), e.deck(step.deck)
    had = len(zone)
    while len(zone) < step.count and deck:
        zone.append(deck.pop())
    if Dealt in e.keeps and len(zone) > had:
        e.note(Dealt(e.s.age, e.s.turn, at=step.zone, cards=tuple(e.s.cards[c] for c in zone[had:]),
                     deck=deck_place(step.deck, e.s.age)))


def deal(e: Engine, step: Step) -> None:
    """`count` cards of the current age's deck of `deck` are put face up in `zone` (as many as it holds)."""
    assert step.zone is not None and step.deck is not None
    zone, deck = e.zone(step.zone), e.deck(step.deck)
    had = len(zone)
    for _ in range(min(step.count, len(deck))):
        zone.append(deck.pop())
    if Dealt in e.keeps and len(zone) > had:
        e.note(Dealt(e.s.age, e.s.turn, at=step.zone, cards=tuple(e.s.cards[c] for c in zone[had:]),
                     deck=deck_place(step.deck, e.s.age)))


def place_held(e: Engine, step: Step) -> Gen[None]:
    """In the step's order, each player places every card of `kind` from their
    command zone into one of its columns, choosing the order; a hero a placement recruits is recruited
    before the next. For the rest of the age's end a card of that kind enters the army at once."""
    assert step.kind is not None
    kind = step.kind
    if kind not in e.s.at_once:
        e.s.at_once.append(kind)
    for p in (yield from step_order(e, step)):
        while True:
            held = [c for c in e.s.players[p].command if e.defs[c].kind == kind]
            if not held:
                break
            card = yield from e.choose_card(p, held, "card", f"choose the next {kind} to place", "command")
            assert card is not None
            dest = yield from e.choose_column(p, card)
            yield from e.place(p, card, dest)


def step_order(e: Engine, step: Step) -> Gen[list[int]]:
    """The players of a step in its order (`Order`): by gem, by bid (the tavern being resolved), or
    most cards of a kind in the command zone first (ties: higher gem), the first of them choosing to go
    first or last."""
    order = step.order
    if order.by == "gem":
        return e.player_order()
    if order.by == "bid":
        return bid_order(e)
    players = e.s.players
    held = [sum(1 for c in players[q].command if e.defs[c].kind == order.kind) for q in range(e.n)]
    ranked = sorted((q for q in range(e.n) if held[q] > 0), key=lambda q: (-held[q], -players[q].gem))
    if order.leader_chooses and len(ranked) > 1:
        leader = ranked[0]
        answer = yield from e.ask(leader, "order", ["first", "last"], f"place your {order.kind} cards first or last?")
        if answer == "last":
            ranked = ranked[1:] + [leader]
    return ranked


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
        if (DistinctionUnclaimed if p is None else DistinctionWon) in e.keeps:
            e.note(DistinctionUnclaimed(e.s.age, e.s.turn, card=s.cards[card], cls=cls) if p is None else
                   DistinctionWon(e.s.age, e.s.turn, player=p, card=s.cards[card], cls=cls, ranks=e.ranks(p, cls)))
        if p is not None:
            yield from e.win_distinction(p, card)
        else:
            yield from e.emit(NOBODY, "unclaimed", card)


def final_scoring(e: Engine) -> Gen[None]:
    yield from ()
    e.s.scores = final_scores(e)
    _record_scores(e, e.s.scores)


def _record_scores(e: Engine, scores: Scores) -> None:
    if FinalScores in e.keeps:
        names = [pl["name"] for pl in scores["players"]]
        e.note(FinalScores(e.s.age, e.s.turn, totals=tuple(pl["total"] for pl in scores["players"]),
                           winners=tuple(names.index(w) for w in scores["winners"])))


# A step either runs at once (returns None) or returns the generator that runs it (it may ask).
StepFunction = Callable[[Engine, Step], "Gen[None] | None"]


def _plain(f: Callable[[Engine], Gen[None]]) -> StepFunction:
    def run(e: Engine, step: Step) -> Gen[None]:
        return f(e)
    run.__doc__ = f.__doc__
    return run


# One function per step spec (nidavellir/interface/mechanisms.py), `flow.tavern`'s among them.
STEP_FUNCTIONS: dict[str, StepFunction] = {
    "enter-dwarves": _plain(enter_dwarves),
    "bids": _plain(bids),
    "resolve-taverns": _plain(resolve_taverns),
    "troop-evaluation": _plain(troop_evaluation),
    "final-scoring": _plain(final_scoring),
    "refill": refill,
    "deal": deal,
    "clear": clear,
    "place-held": place_held,
    "late-bids": late_bids,
    "picks": picks,
    "gem-trades": gem_trades,
}
assert set(STEP_FUNCTIONS) == set(STEP_SPECS), "runtime steps and their specs differ"
TAVERN_STEP_FUNCTIONS = {name: f for name, f in STEP_FUNCTIONS.items() if TAVERN in STEP_SPECS[name].parts}


def run_steps(e: Engine, steps: Sequence[Step], turn: bool = False) -> Gen[None]:
    """The steps of a part of the flow in order (`turn`: the turn's, whose running step the state
    keeps; resumed at the step asking, when the state says the flow is asking)."""
    s = e.s
    for i in range(s.step if turn and s.asking >= 0 else 0, len(steps)):
        step = steps[i]
        if step.ages is not None and s.age not in step.ages:
            continue
        if turn:
            s.step = i
        if step.do is not None:
            running = STEP_FUNCTIONS[step.do](e, step)
            if running is not None:
                yield from running
        elif step.window is not None:
            yield from window_step(e, step)
    s.step = -1


def resume_point(e: Engine) -> FlowPoint | None:
    """Where a copy of the state resumes, when the flow itself asks the pending decision (a bid, a
    pick: the state keeps the turn's step, the tavern and its step, and the bidder asked); None when
    an effect asks it (its generator's place is not in the state)."""
    s = e.s
    if s.asking < 0:
        return None
    return FlowPoint(e.rules.ruleset.ages.index(s.age), s.turn, asking=True)


def window_step(e: Engine, step: Step) -> Gen[None]:
    """A timing window of the flow, in the step's player order."""
    assert step.window is not None
    order = None if step.order.by == "gem" else (yield from step_order(e, step))
    yield from e.window(step.window, order)


def play(e: Engine, start: FlowPoint | None = None) -> Gen[None]:
    """The whole game: setup, then each age's turns until its deck runs out, then its end steps.

    With `start`, resume there on an engine whose state is that point's (see Game.copy): between
    turns, or at a decision the flow itself asks (`resume_point`); while `e.saving`, the
    state at the start of each turn and age end is kept in `e.saved`."""
    rs = e.rules.ruleset
    if start is None:
        e.setup()
        start = FlowPoint(0, 0)
    for index in range(start.age_index, len(rs.ages)):
        age = rs.ages[index]
        resuming = index == start.age_index
        e.s.age = age
        if not (resuming and start.age_end):
            if resuming and start.asking:  # in the middle of a turn: it goes on
                assert e.s.asking >= 0, "a flow resumed at a decision its state does not ask"
                yield from run_steps(e, rs.turn, turn=True)
            else:
                e.s.turn = start.turn if resuming else 0
                if AgeStarted in e.keeps and e.s.turn == 0:
                    e.note(AgeStarted(e.s.age, e.s.turn))
            while e.s.decks[age]:
                if e.saving:
                    e.saved = Snapshot(FlowPoint(index, e.s.turn), e)
                e.s.turn += 1
                e.s.reserved.clear()  # a reservation lasts the turn
                if TurnStarted in e.keeps:
                    e.note(TurnStarted(e.s.age, e.s.turn))
                if e.s.turn > MAX_TURNS_PER_AGE:
                    raise turn_limit(e, age)
                yield from run_steps(e, rs.turn, turn=True)
        if e.saving:
            e.saved = Snapshot(FlowPoint(index, e.s.turn, age_end=True), e)
        if AgeEnded in e.keeps:
            e.note(AgeEnded(e.s.age, e.s.turn))
        yield from run_steps(e, rs.age_end)
        e.s.at_once.clear()
    if e.s.scores is None:
        e.s.scores = final_scores(e)
        _record_scores(e, e.s.scores)
    e.s.finished = True


class Snapshot:
    """The state at a point of the flow, to resume from (Game.copy)."""

    def __init__(self, point: FlowPoint, engine: Engine):
        self.point = point
        self.state = engine.snapshot()

    def restore(self, engine: Engine) -> None:
        engine.restore(self.state)
