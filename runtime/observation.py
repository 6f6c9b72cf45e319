"""What one player may know at a decision (DESIGN §7), and worlds consistent with it.

A player knows their own coins and bids, the bids revealed so far, every board and command zone,
the taverns and every face-up zone, the public piles, and what happened in the open. They do not
know another player's bids before the reveal (which coin lies on which tavern, which in the
pouch), nor the order of a face-down deck. Bots and the terminal seat get an `Observation` and
nothing else:

    obs = observe(game)                        # the pending decision's player
    obs.view                                   # the state as that player may know it
    world = obs.sample(random.Random(7))       # a Game at the same decision, the hidden parts drawn anew

What may be known is also what can be deduced: every coin a player owns is public (coins are
dealt, traded and transformed in the open), as is what each deck still holds (the cards of its
age for the player count, less those seen); what is hidden is where the coins lie and the decks'
order. In the view, another player's coins whose place is hidden are in their hand, and each
face-down deck lists its cards in a fixed order (by instance id) that says nothing of the shuffle.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nidavellir.interface.decisions import CardChoice, CoinChoice, Decision, Option, find_option

from .state import State

if TYPE_CHECKING:
    from .engine import Engine
    from .game import Game
    from .rules import Rules

SAMPLE_TRIES = 20  # worlds drawn before giving up on one that reaches the same decision


class NoWorld(RuntimeError):
    """No world consistent with the observation reached the same decision (`sample`)."""


def face_down(e: Engine) -> list[str]:
    """The state's zone keys that are face-down decks: every per-age deck of a zone (`camp@1`) and
    the pile of a zone dealt from a deck for the whole game."""
    rs = e.rules.ruleset
    per_age = {z.id for z in rs.zones if z.per_age}
    return [k for k in e.s.zones if "@" in k or (k in rs.zone_decks and k not in per_age)]


def hidden_coins(e: Engine, q: int) -> list[int]:
    """Player q's coins whose place others may not know: on the taverns whose bids are not yet
    revealed this turn, and in the pouch unless a coin trade showed it."""
    pl = e.s.players[q]
    shown = e.s.bids_revealed
    pouch = [] if q in e.s.pouch_shown else list(pl.pouch)
    return [c for t, c in enumerate(pl.slots) if c is not None and t >= shown] + pouch


def view_of(e: Engine, p: int) -> State:
    """A copy of the state with what player p may not know hidden (see the module's docstring)."""
    s = e.s.copy()
    s.chance = 0  # (the root of the random streams, which draw what no one knows yet)
    shown = e.s.bids_revealed
    for q, pl in enumerate(s.players):
        if q == p:
            continue
        secret = hidden_coins(e, q)
        if secret:
            pl.slots = [c if t < shown else None for t, c in enumerate(pl.slots)]
            if q not in e.s.pouch_shown:
                pl.pouch = []
            pl.hand = pl.hand + secret
    for pl in s.players:  # (the order of coins in a hand, the box or the treasure tells nothing)
        pl.hand.sort()
    s.coin_box.sort()
    for coins in s.treasure.values():
        coins.sort()
    for age in s.decks:
        s.decks[age].sort()
    for key in face_down(e):
        s.zones[key].sort()
    return s


class Observation:
    """What `player` may know at `decision`, the decision they face (made for every decision of a
    game: light to make; the view is built on first use)."""

    __slots__ = ("player", "decision", "rules", "names", "happened", "_game", "_view")

    def __init__(self, decision: Decision, rules: Rules, names: Sequence[str], happened: tuple[Any, ...],
                 game: Game):
        self.player = decision.player
        self.decision = decision
        self.rules = rules
        self.names = names
        self.happened = happened     # what happened in the open since this player's last decision
        self._game = game            # read only through the methods below
        self._view: State | None = None

    @property
    def view(self) -> State:
        """The state as this player may know it."""
        if self._view is None:
            self._view = view_of(self._game.engine, self.player)
        return self._view

    def sample(self, rng: random.Random) -> Game:
        """A game at this decision whose hidden parts (the decks' order, the other players' unrevealed
        bids) are drawn with `rng` from what this player may know; the true hidden parts play no
        part in it. Raises NoWorld if no draw reaches the same decision."""
        for _ in range(SAMPLE_TRIES):
            world = _world(self._game, self.player, rng)
            if world is not None:
                return world
        raise NoWorld(f"no world consistent with {self.names[self.player]}'s observation reached "
                      f"their {self.decision.kind!r} decision")


def observe(game: Game, happened: tuple[Any, ...] = ()) -> Observation:
    """The observation of the player whose decision is pending."""
    d = game.pending
    if d is None:
        raise ValueError("the game is over: no one is deciding")
    return Observation(d, game.rules, game.engine.names, happened, game)


class Observer:
    """The observations of one game's seats, each with what happened since that player's last
    decision, as they may know it (from the game's journal, when it keeps one; else nothing)."""

    def __init__(self, game: Game):
        self.game = game
        self.seen: dict[int, int] = {}  # player -> the journal's records told by their last observation

    def observe(self) -> Observation:
        d = self.game.pending
        if d is None:
            raise ValueError("the game is over: no one is deciding")
        return observe(self.game, self.since(d.player))

    def since(self, p: int) -> tuple[Any, ...]:
        """What player p may know of what happened since their last observation (and marks it told)."""
        from .journal import journal_since

        journal = self.game.engine.journal
        if journal is None:
            return ()
        start, self.seen[p] = self.seen.get(p, 0), len(journal)
        return tuple(journal_since(self.game, start, p))


# -- worlds -------------------------------------------------------------------------------------

def _world(game: Game, p: int, rng: random.Random) -> Game | None:
    """One draw of a world for player p: the state saved at the start of this turn with its
    face-down decks shuffled anew (the cards drawn since stay where they were, so the same cards
    come out), replayed with the answers given since, where another player's bid keeps what has
    been revealed of it and draws the rest, and a coin another player chose where p cannot see it is
    any unseen coin of its value; None if it does not come back to p's decision."""
    from .flow import Snapshot, play
    from .game import Game as GameType

    checkpoint = game.checkpoint()
    saved, given = checkpoint
    e = game.engine
    world = GameType.__new__(GameType)
    world.start_from(saved, given, game)
    we = world.engine
    now_decks = {**{f"age {a}": d for a, d in e.s.decks.items()}, **{k: e.s.zones[k] for k in face_down(e)}}
    then = we.s
    for key, deck in [*((f"age {a}", d) for a, d in then.decks.items()),
                      *((k, then.zones[k]) for k in face_down(we) if k in then.zones)]:
        _reshuffle(deck, now_decks.get(key, []), rng)
    we.s.chance = rng.getrandbits(64)  # its own streams: reshuffles unlike the true game's
    world.checkpoint_here(Snapshot(saved.point, we), given)  # its copies resume from this world
    world.begin(play(we, saved.point))
    shown = e.s.bids_revealed
    for player, kind, answer, age, turn in game.records()[given:]:
        d = world.pending
        if d is None or d.player != player or d.kind != kind:
            return None
        choice: Option | None = answer
        if player != p and kind == "bid" and isinstance(answer, tuple):
            # what is known of the bid: the revealed taverns' coins; with the pouch shown, which
            # coins lie on the others
            rest = sorted(answer[shown:]) if player in e.s.pouch_shown else None
            fits = [o for o in d.options if isinstance(o, tuple) and o[:shown] == answer[:shown]
                    and (rest is None or sorted(o[shown:]) == rest)]
            choice = fits[rng.randrange(len(fits))] if fits else None
        elif player != p and kind == "trade-coin":
            # where a trading coin lies among coins of its value: seen on a revealed tavern only
            seen = set(e.rules.tavern_ids[:shown])
            if isinstance(answer, CoinChoice) and answer.at in seen and find_option(d.options, answer) is not None:
                choice = answer
            else:
                unseen = [o for o in d.options if isinstance(o, CoinChoice) and o.at not in seen]
                choice = unseen[rng.randrange(len(unseen))] if unseen else None
        elif player != p and isinstance(answer, CoinChoice) and _unseen(e, player, answer.at):
            # a coin chosen where p cannot see it (a hidden bid, the pouch, the hand): any coin of its
            # value lying unseen, drawn whether or not the world put it where the truth has it (so
            # neither the choice nor the draws tell the truth)
            same = [o for o in d.options if isinstance(o, CoinChoice) and o.value == answer.value
                    and _unseen(e, player, o.at)]
            choice = same[rng.randrange(len(same))] if same else None
        elif find_option(d.options, answer) is None:
            choice = _alike(d.options, answer, rng)
        if choice is None:
            choice = d.options[rng.randrange(len(d.options))]
        world.answer(choice)
    d, real = world.pending, game.pending
    if d is None or real is None or d.player != p or d.kind != real.kind:
        return None
    return world


def _unseen(e: Engine, q: int, at: str) -> bool:
    """Whether a coin of player q lying at `at` lies where the others cannot see it (as `view_of`
    hides it: on a tavern whose bids are not revealed, in a pouch no trade has shown, in the hand)."""
    taverns = e.rules.tavern_ids
    if at in taverns:
        return taverns.index(at) >= e.s.bids_revealed
    return at == "hand" or (at == "pouch" and q not in e.s.pouch_shown)


def _alike(options: tuple[Option, ...], answer: Option, rng: random.Random) -> Option | None:
    """An option like `answer` where the world put things elsewhere: a coin of the same value or a
    card of the same id, wherever it lies (what was seen of the answer is its value, not its place)."""
    same: list[Option]
    if isinstance(answer, CoinChoice):
        same = [o for o in options if isinstance(o, CoinChoice) and o.value == answer.value]
    elif isinstance(answer, CardChoice):
        same = [o for o in options if isinstance(o, CardChoice) and o.card == answer.card]
    else:
        return None
    return same[rng.randrange(len(same))] if same else None


def _reshuffle(then: list[int], now: list[int], rng: random.Random) -> None:
    """Shuffle, in place, the part of a deck as saved (`then`) that no one has drawn since: the cards
    drawn this turn came from its top and keep their places (they were seen), the cards put under
    it since are not in it. That part is what still sits, untouched, on top of the deck `now`."""
    m = min(len(then), len(now))
    while m > 0 and now[len(now) - m:] != then[:m]:
        m -= 1
    part = sorted(then[:m])
    rng.shuffle(part)
    then[:m] = part
