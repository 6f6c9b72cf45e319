"""The `search` bot: determinized Monte Carlo search over the options of the decision it faces.

The method is flat determinized UCB, the root of information-set MCTS (Cowling, Powley and
Whitehouse 2012) without the tree below it:

- each iteration draws a world consistent with the observation (`Observation.sample`: the other
  players' unrevealed bids and the decks' order drawn anew), answers the decision in it with one
  of the root's options, and plays the game out to its end with a fast playout policy;
- the option tried is chosen by UCB1 (Auer et al. 2002) over the rewards seen so far, each option
  tried once first; the answer is the option of the highest mean reward (ties: more playouts).

A tree below the root is not worth its cost here: at a few hundred playouts per decision and with
60 bids, 2–8 cards and up to 23 heroes at each level, the nodes below the root would hold a
playout or two each.

- **Reward**, in [0, 1], from the final scores of the played-out game: 0.7 × the win (1, ½ for
  a tie for the first place, 0 otherwise) + 0.3 × (½ + ½ tanh(margin / 30)), where the margin is
  the player's Final Bravery Value less the best other player's. The win is what counts; the margin
  tells apart options that win (or lose) either way.
- **Playouts**: every player answers at random, except that a card to take (`pick`) is, four
  times out of five, the one that most raises the class score of the player's army (its class
  formula on the column with the card on top: rules data only), plus a bonus when it completes a
  line (a hero to recruit); a card that joins no column is worth its points and a little more.
  A base-game playout costs about 1.3 ms, 10 % more than a random one, and makes the search much
  stronger: it beat the same search with random playouts in 30 of 40 two-player games. Heroes
  stay random in playouts: against a reference search (these playouts, UCB1 over all options),
  this bot won 27.5 of 40 two-player games, and 15 of 40 when its playouts chose heroes by the
  same measure.
- **Many options**: a bid has up to 60 (the coins over the taverns, with the rest in the pouch).
  Above MAX_ARMS options, the first third of the budget is spent trying options in turn (a
  shuffled order, each once at least) while learning what each coin value is worth on each
  tavern (the mean reward of the playouts that bid it there); then the MAX_ARMS options best by
  that estimate (blended with their own mean) are kept, and UCB1 spends the rest on them. Against
  the reference search, the same bot without the shortlist (with playouts choosing heroes) won
  10 of 40 games, with it 15 of 40.
- **Budget**: `playouts` per decision, or `seconds` per decision. At the default, DEFAULT_PLAYOUTS,
  it makes 4.6 decisions a second on one core in two-player base games, and at least 1.9 in every
  box combination with 2–5 players (the slowest single decision, 1.1 s, the first of a
  five-player game); it won 149 of 150 two-player games against `greedy`
  (bench/search_strength.py). With a playout budget the bot is deterministic: its seed and the
  observations fix every draw. A time budget is not: how many playouts fit depends on the machine
  and its load. A decision with one option costs nothing.

The bot reads nothing but the observation: its decision, and the worlds `sample` draws from
what the player may know (a playout reads its own world's state, which is drawn, not the truth).
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from nidavellir.interface.decisions import CardChoice, Decision, Option, find_option

from .engine import Engine
from .game import Game
from .observation import NoWorld, Observation

DEFAULT_PLAYOUTS = 200
MAX_PLAYOUTS = 10 ** 6   # a budget's bounds (per decision): a typo of some zeros is an error, not a day's search
MAX_SECONDS = 3600.0
EXPLORATION = 0.7        # UCB1's constant, for rewards in [0, 1]
WIN_WEIGHT = 0.7         # the reward: the win's share; the margin has the rest
MARGIN_SCALE = 30.0      # the margin (Bravery Value points) at which tanh reaches 0.76
GREEDY_SHARE = 0.8       # playouts take the best card this often, else any
CARD_KINDS = ("pick",)   # the decisions where playouts take the best card (heroes: at random, see above)
LINE_BONUS = 8.0         # what completing a line (a hero to recruit) adds to a card in a playout
OTHER_CARD = 3.0         # what a card that joins no column adds in a playout, besides its points
MAX_ARMS = 16            # above this many options, a shortlist (see the module's docstring)
SCREEN_SHARE = 1 / 3     # the share of the budget spent before the shortlist
PRIOR_WEIGHT = 2.0       # how many playouts the tavern-by-coin estimate counts for, in the shortlist
MAX_FAILURES = 8         # worlds that could not be drawn, in a row, before the bot stops searching


class SearchBudgetError(ValueError):
    """A search budget that is neither a number of playouts nor a time (`200`, `2s`, `500ms`)."""


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """`200` -> (200 playouts, None); `2s`, `1.5s`, `500ms` -> (None, seconds); within the bounds."""
    t, shown = text.strip().lower(), text.strip()[:40]
    not_one = SearchBudgetError(f"a search budget is a number of playouts (`200`) or a time per decision "
                                f"(`2s`, `500ms`), not `{shown}`")
    if t.endswith("s"):
        try:
            seconds = float(t[:-2]) / 1000 if t.endswith("ms") else float(t[:-1])
        except ValueError:
            raise not_one from None
        if not 0 < seconds <= MAX_SECONDS:  # (also refuses nan and inf)
            raise SearchBudgetError(f"a search budget in time is more than 0 s and at most {MAX_SECONDS:g} s per "
                                    f"decision, not `{shown}`")
        return None, seconds
    if not (t.isascii() and t.isdigit()) or not t.strip("0"):
        raise not_one
    if len(t.lstrip("0")) > 7 or int(t) > MAX_PLAYOUTS:
        raise SearchBudgetError(f"a search budget is at most {MAX_PLAYOUTS:,} playouts per decision, not `{shown}`")
    return int(t), None


class SearchBot:
    """Determinized flat UCB over the decision's options (see the module's docstring)."""

    def __init__(self, seed: int, playouts: int = DEFAULT_PLAYOUTS, seconds: float | None = None):
        if playouts < 1:
            raise ValueError("a search needs at least one playout per decision")
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.seconds = seconds       # a time budget per decision replaces the playout budget
        self.spent = 0               # playouts played, over all decisions (for benchmarks)

    @classmethod
    def from_budget(cls, seed: int, budget: str) -> SearchBot:
        """The bot a budget text gives (`200`, `2s`, `500ms`: see parse_budget)."""
        playouts, seconds = parse_budget(budget)
        return cls(seed, playouts if playouts is not None else DEFAULT_PLAYOUTS, seconds)

    def choose(self, obs: Observation) -> Option:
        d = obs.decision
        options = d.options
        if len(options) == 1:
            return options[0]
        search = Search(self, obs)
        best = search.run()
        self.spent += search.done
        return options[best]


class Search:
    """One decision's search: the statistics of each option (by its index in the decision)."""

    def __init__(self, bot: SearchBot, obs: Observation):
        self.bot, self.obs = bot, obs
        self.rng = bot.rng
        self.decision: Decision = obs.decision
        n = len(self.decision.options)
        self.visits = [0] * n
        self.total = [0.0] * n
        self.done = 0                # playouts played
        self.failures = 0            # worlds not drawn, in a row
        self.start = time.perf_counter()
        # what each coin value bid on each tavern was worth (bids with many options only)
        self.by_coin: dict[tuple[int, int], list[float]] = {}

    def more(self, share: float = 1.0) -> bool:
        """Whether this share of the budget allows another playout."""
        if self.failures >= MAX_FAILURES:
            return False
        seconds = self.bot.seconds
        if seconds is not None:
            return self.done == 0 or time.perf_counter() - self.start < seconds * share
        return self.done < self.bot.playouts * share

    def run(self) -> int:
        """The index of the option to answer."""
        arms = list(range(len(self.decision.options)))
        if len(arms) > MAX_ARMS:
            order = arms[:]
            self.rng.shuffle(order)
            k = 0
            while self.more(SCREEN_SHARE) or (k < len(order) and self.more()):  # each option once, budget allowing
                self.trial(order[k % len(order)])
                k += 1
            arms = self.shortlist(arms)
        counted = sum(self.visits[a] for a in arms)
        while self.more():
            untried = [a for a in arms if self.visits[a] == 0]
            if untried:
                arm = untried[0]
            else:
                log_n = math.log(counted)
                arm = max(arms, key=lambda a: self.total[a] / self.visits[a]
                          + EXPLORATION * math.sqrt(log_n / self.visits[a]))
            if self.trial(arm):
                counted += 1
        tried = [a for a in arms if self.visits[a] > 0]
        if not tried:
            return 0
        return max(tried, key=lambda a: (self.total[a] / self.visits[a], self.visits[a]))

    def shortlist(self, arms: list[int]) -> list[int]:
        """The MAX_ARMS options best by the tavern-by-coin estimate blended with their own mean."""
        options = self.decision.options

        def estimate(a: int) -> float:
            option = options[a]
            prior = 0.5
            if isinstance(option, tuple) and option:
                parts = [self.by_coin.get((t, v)) for t, v in enumerate(option)]
                prior = sum(p[0] / p[1] if p else 0.5 for p in parts) / len(parts)
            n = self.visits[a]
            return (self.total[a] + PRIOR_WEIGHT * prior) / (n + PRIOR_WEIGHT)

        return sorted(arms, key=lambda a: -estimate(a))[:MAX_ARMS]

    def trial(self, arm: int) -> bool:
        """Draw a world, answer `arm` there, play out, record the reward; False if no world was drawn."""
        try:
            world = self.obs.sample(self.rng)
        except NoWorld:
            self.failures += 1
            return False
        d = world.pending
        option = self.decision.options[arm]
        index = None if d is None else find_option(d.options, option)
        if d is None or index is None:  # (a world that drifted from the decision: drawn again)
            self.failures += 1
            return False
        self.failures = 0
        self.done += 1
        world.forget_turns()
        world.answer(d.options[index])
        playout(world, self.rng)
        reward = reward_of(world, self.decision.player)
        self.visits[arm] += 1
        self.total[arm] += reward
        if isinstance(option, tuple) and len(self.decision.options) > MAX_ARMS:
            for t, v in enumerate(option):
                stat = self.by_coin.setdefault((t, v), [0.0, 0])
                stat[0] += reward
                stat[1] += 1
        return True


# -- playouts ------------------------------------------------------------------------------------

def reward_of(world: Game, p: int) -> float:
    """Player p's reward at the end of a played-out game (see the module's docstring)."""
    totals = [pl["total"] for pl in world.scores()["players"]]
    mine = totals[p]
    best = max(t for q, t in enumerate(totals) if q != p)
    win = 1.0 if mine > best else 0.5 if mine == best else 0.0
    return WIN_WEIGHT * win + (1 - WIN_WEIGHT) * (0.5 + 0.5 * math.tanh((mine - best) / MARGIN_SCALE))


def playout(world: Game, rng: random.Random) -> None:
    """Play the world to its end with the playout policy (see the module's docstring)."""
    rand = rng.random
    while (d := world.pending) is not None:
        options = d.options
        if len(options) > 1 and d.kind in CARD_KINDS and rand() < GREEDY_SHARE:
            choice = best_card(world.engine, d, rand)
            if choice is not None:
                world.answer(choice)
                continue
        world.answer(options[int(rand() * len(options))])


def best_card(e: Engine, d: Decision, rand: Callable[[], float]) -> Option | None:
    """The card option that adds most to d.player's army now, ties broken at random (None if no
    option names a card the world shows where it says)."""
    best: Option | None = None
    best_value = -math.inf
    for option in d.options:
        if not isinstance(option, CardChoice):
            continue
        card = instance_at(e, option)
        if card < 0:
            continue
        value = card_gain(e, d.player, card) + rand()
        if value > best_value:
            best, best_value = option, value
    return best


def instance_at(e: Engine, option: CardChoice) -> int:
    """The card instance an option names at the place it names (-1 if not there)."""
    s = e.s
    at = option.at
    ids = e.rules.tavern_ids
    place: Sequence[int]
    if at in ids:
        place = s.taverns[ids.index(at)]
    elif at == "heroes":
        place = s.heroes
    elif at in s.zones:
        place = s.zones[at]
    elif at == "discard":
        place = s.discard
    else:
        return -1
    cards = s.cards
    for c in place:
        if cards[c] == option.card:
            return c
    return -1


def card_gain(e: Engine, p: int, card: int) -> float:
    """What `card` adds to p's army if it joins its own column now: the class formula's change,
    plus LINE_BONUS if it completes a line; a card that joins no column: its points."""
    d = e.defs[card]
    if card in e.where:
        return 0.0
    formulas = e.rules.class_score
    cls = d.cls
    if d.enters != "own" or cls not in formulas:
        return float(d.points + d.rank_points) + OTHER_CARD
    score = formulas[cls]
    before = score(e, p, cls)
    lines = e.lines(p)
    e.attach(p, card, cls)
    after = score(e, p, cls)
    more = e.lines(p) > lines
    e.detach(card)
    return float(after - before) + (LINE_BONUS if more else 0.0)
