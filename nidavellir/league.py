"""A league: bots play every seating, G games each, and a win-rate table per bot.

Seatings: every distinct assignment of the listed bots to the N seats in which each bot sits at
least as often as it is listed, in the order `itertools.product` gives (the listing order). So
`--bots random,greedy` with 2 players plays (random, greedy) and (greedy, random); with 3
players the six seatings with one or two greedy seats; `--bots greedy,random,random` with 3
players the three seatings of one greedy seat against two randoms. The set is the same under any
permutation of the seats, so each bot sits in each seat equally often: no bot gains from the
seat order (the gem each seat is dealt, who bids first).

A game that stops with an error of the rules ends the league with that error, naming the game (its
seating, number, seed and seats) and the `play` command that plays it alone.

Each seating plays the same seeds S, S+1, …, S+G-1 (so every seating meets the same deals), each
game as `nidavellir play` plays it: seat i of game `seed` is the bot of that seat seeded
`bot_seed(seed, i)` (runtime/streams.py), so `play --bots <the seating> --seed <seed>` replays any
league game.

A bot's games are its seats: a bot in two seats of one game counts two games, each with its share
of the win (nidavellir/stats.py: a tie of k winners gives each 1/k). Its win rate is its wins over
its games, with a 95 % Wilson score interval.
"""
from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from nidavellir.errors import NidavellirError, game_failed

from .session import Session, play_game
from .stats import Z95, shares, wilson
from .table import WIDTH, columns


class LeagueError(NidavellirError):
    """A league that cannot be played as asked (more bots than seats)."""


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every distinct assignment of bots to `players` seats in which each listed bot sits at least
    as often as it is listed (see the module's docstring)."""
    if not bots:
        raise LeagueError("a league needs at least one bot")
    if len(bots) > players:
        raise LeagueError(f"{len(bots)} bots listed for {players} seats: list at most {players}")
    need = Counter(bots)
    names = list(dict.fromkeys(bots))
    out = []
    for seats in product(names, repeat=players):
        count = Counter(seats)
        if all(count[b] >= k for b, k in need.items()):
            out.append(seats)
    return out


@dataclass
class Record:
    """Games, shares of wins and the sum of scores, of one bot (or one bot in one seat)."""
    games: int = 0
    wins: float = 0.0
    score: int = 0

    def add(self, share: float, score: int) -> None:
        self.games += 1
        self.wins += share
        self.score += score

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"games": self.games, "wins": round(self.wins, 6), "win_rate": round(self.rate, 6),
                "low": round(low, 6), "high": round(high, 6), "mean_score": round(self.mean_score, 3)}


@dataclass
class BotResults:
    """One bot's record over the league, and in each seat."""
    bot: str
    total: Record
    seats: list[Record]


@dataclass
class League:
    """What a league played and what it says."""
    players: int
    bots: tuple[str, ...]                  # as listed
    seatings: list[tuple[str, ...]]
    games_per_seating: int
    seed: int
    about: str                             # the rules played (Session.describe)
    expansions: tuple[str, ...]
    variants: tuple[str, ...]
    results: dict[str, BotResults] = field(default_factory=dict)  # by bot, in listing order
    games: int = 0
    ties: int = 0                          # games won by more than one player

    def add(self, seating: Sequence[str], totals: Sequence[int]) -> None:
        """One game's totals, seat by seat, with the seating it was played in."""
        self.games += 1
        won = shares(totals)
        self.ties += sum(1 for s in won if s > 0) > 1
        for seat, (bot, share, total) in enumerate(zip(seating, won, totals)):
            entry = self.results[bot]
            entry.total.add(share, total)
            entry.seats[seat].add(share, total)

    def to_json(self) -> dict[str, Any]:
        """The table as one JSON object (see README, `nidavellir league`)."""
        return {
            "players": self.players, "bots": list(self.bots), "expansions": list(self.expansions),
            "variants": list(self.variants), "seed": self.seed, "games_per_seating": self.games_per_seating,
            "seatings": [list(s) for s in self.seatings], "games": self.games, "ties": self.ties,
            "interval": {"method": "wilson", "confidence": 0.95, "z": Z95},
            "table": [{"bot": r.bot, **r.total.to_json(),
                       "seats": [{"seat": i + 1, **seat.to_json()} for i, seat in enumerate(r.seats)]}
                      for r in self.results.values()],
        }

    def table(self) -> str:
        """The win-rate table, for a terminal."""
        last = self.seed + self.games_per_seating - 1
        n = len(self.seatings)
        title = (f"League: {n} seating{'s' * (n != 1)} × {self.games_per_seating} game"
                 f"{'s' * (self.games_per_seating != 1)} (seeds {self.seed} to {last}), "
                 f"{self.players} players, {self.about}")
        head = ["bot", "games", "wins", "win rate", "95% interval", "mean score",
                *(f"seat {i + 1}" for i in range(self.players))]
        rows = []
        for r in self.results.values():
            low, high = r.total.interval
            rows.append([r.bot, str(r.total.games), _wins(r.total.wins), _pct(r.total.rate),
                         f"{_pct(low)}–{_pct(high)}", f"{r.total.mean_score:.1f}",
                         *(_pct(seat.rate) if seat.games else "-" for seat in r.seats)])
        per_seat = {seat.games for r in self.results.values() for seat in r.seats if seat.games}
        each = f" ({per_seat.pop()} in each seat)" if len(per_seat) == 1 else ""
        notes = textwrap.wrap(
            f"games: a bot's seats in the {self.games} games{each}. wins: a tie of k winners gives each 1/k "
            f"({self.ties} game{'s' * (self.ties != 1)} tied); by chance a seat wins {_pct(1 / self.players)}. "
            "95% interval: Wilson score interval of the win rate. seat N: the bot's win rate in seat N.", 78)
        return "\n".join([*textwrap.wrap(title, WIDTH), *columns(head, rows), *notes]) + "\n"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _wins(x: float) -> str:
    return f"{x:.0f}" if abs(x - round(x)) < 1e-9 else f"{x:.2f}".rstrip("0")


def play_league(session: Session, bots: Sequence[str], players: int, games: int, seed: int,
                done: Callable[[int], None] | None = None) -> League:
    """Play G games of every seating (seeds seed … seed+G-1 each) and tally them; `done(k)` is
    told after each game how many have been played."""
    if games < 1:
        raise LeagueError("a league plays at least 1 game per seating")
    arrangement = seatings(bots, players)
    league = League(players, tuple(bots), arrangement, games, seed, session.describe(), session.expansions,
                    tuple(session.rules.variant_ids))
    for bot in dict.fromkeys(bots):
        league.results[bot] = BotResults(bot, Record(), [Record() for _ in range(players)])
    played = 0
    boxes = ("--expansions", ",".join(session.expansions)) if session.expansions else ()
    options = (*boxes, *(x for v in session.variants for x in ("--variant", v)))
    for k, seating in enumerate(arrangement, 1):
        for i in range(games):
            try:
                result = play_game(session, players, seed + i, list(seating), None, None)
            except NidavellirError as err:  # (a rules error in play: which game, and how to play it alone)
                raise game_failed(f"game {i + 1} of seating {k} ({','.join(seating)})", seed + i, seating, options,
                                  err) from None
            league.add(seating, [p["total"] for p in result["players"]])
            played += 1
            if done is not None:
                done(played)
    return league
