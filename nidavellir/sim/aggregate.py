"""A simulation's records turned into its summary (sim-formats: the summary), streamed.

`Aggregator(manifest)` takes the records one at a time, in any order (`add`), and gives the summary
(`summary`); `aggregate(manifest, records)` does both. Memory stays flat: every accumulator is a
sum, a count or an integer histogram (no list per game), and a game index waits only until its
records of rule sets 0 and 1 have both arrived, then enters the comparison (nidavellir/sim/paired.py)
and is forgotten. A game index seen under one rule set only (a leftover) counts in that rule set's
figures but not in the comparison. A second record of one game index and rule set is refused (a
bit per game index and rule set remembers what came: 25 kB for 200,000 games).

Definitions (per rule set, over all of its records):
- A seat's wins are the sum of its shares of the win; its win rate is wins / games with a 95 %
  Wilson interval (nidavellir/stats.py). A tie is a game with more than one winner.
- "scores" are every seat's total of every game; "winning_scores" the best total, once per game
  (tied winners share one total); "margin" the best total minus the best of the others' totals.
- sd is the sample standard deviation (n − 1); a mean or sd of no value is None (null), the sd of
  one value 0. Quantiles interpolate linearly between order statistics (position (n − 1) q, as
  numpy's default and R's type 7). The histogram lists every integer from min to max.
- "breakdown": per part, mean and sd over the seat-games whose breakdown has that part (a part no
  record of the rule set has is left out), and "low", "high": the mean's 95 % interval with the
  game as the unit (the mean is a ratio over games, Σ part / Σ seats having it: the delta method,
  stats.ratio_interval; the seats of one game are not independent); parts in the manifest's
  order, then any other sorted.
- A card's figures count every entry of the records' "cards" (every "how"); "taker_games" counts a
  (game, player) pair once however many copies the player acquired, "taker_wins" sums those
  players' shares. Its "name" is the manifest's (the id without one), "kind" and "class" the
  manifest's, else the values its facts give most often. "points_low", "points_high": the 95 %
  interval of its mean points per take, the game that took it as the unit (stats.ratio_interval).
- "variant_cards": the cards the rule set's variants add and change (the manifest's
  `variant_cards`), each figure with its interval against its peers' mean (sim/variant_cards.py).
- "classes": the facts' "class" values (facts with no class are in no class); "part_mean" is the
  breakdown mean of the part of that name (None without one).

Win shares are counted in units of 1/L (L = lcm(1, …, N) for N players), so every sum is an exact
integer and the summary does not depend on the order the records came in.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from operator import itemgetter
from typing import Any, TypeVar

from nidavellir.stats import mean_sd, ratio_interval, wilson

from .labels import shown
from .paired import Comparison, GameValues
from .variant_cards import section as variant_section

QUANTILES = (5, 25, 50, 75, 95)

# a fact's key for the per-rule-set card counts: (card, kind, class, player, age, how, turn)
_FactKey = tuple[str, Any, Any, int, int, str, int]
_fact_key: Callable[[Mapping[str, Any]], _FactKey] = itemgetter("card", "kind", "class", "player", "age",
                                                                "how", "turn")


def _hist_summary(hist: Mapping[int, int]) -> dict[str, Any]:
    """mean, sd, min, max, quantiles and the dense histogram of integer values counted in `hist`."""
    items = sorted((v, c) for v, c in hist.items() if c)
    if not items:
        return {"mean": None, "sd": None, "min": None, "max": None,
                "quantiles": {str(q): None for q in QUANTILES}, "histogram": []}
    n = sum(c for _, c in items)
    mean, sd = mean_sd(n, sum(v * c for v, c in items), sum(v * v * c for v, c in items))
    low, high = items[0][0], items[-1][0]
    return {"mean": mean, "sd": sd, "min": low, "max": high,
            "quantiles": {str(q): _quantile(items, n, Fraction(q, 100)) for q in QUANTILES},
            "histogram": [[v, hist.get(v, 0)] for v in range(low, high + 1)]}


def _quantile(items: list[tuple[int, int]], n: int, q: Fraction) -> float:
    """The q-quantile of n sorted values given as (value, count), linear between order statistics
    (in exact arithmetic: the 95 % of 50 and 60 at position 8.55 is 55.5, not 55.499…)."""
    h = (n - 1) * q
    i = math.floor(h)
    lo = _order_statistic(items, i)
    if h == i:
        return float(lo)
    return float(lo + (h - i) * (_order_statistic(items, i + 1) - lo))


def _order_statistic(items: list[tuple[int, int]], i: int) -> int:
    """The value at 0-based position i of the sorted values."""
    for v, c in items:
        if i < c:
            return v
        i -= c
    return items[-1][0]


_K = TypeVar("_K")


def _add_counts(counts: dict[_K, int], more: Mapping[_K, int]) -> None:
    for key, count in more.items():
        counts[key] = counts.get(key, 0) + count


def _most_common(counts: Mapping[Any, int]) -> Any:
    """The value counted most often (ties: a value before None, then the first in text order);
    None for no value."""
    if not counts:
        return None
    return min(counts, key=lambda v: (-counts[v], v is None, str(v)))


class _RuleSet:
    """The per-rule-set accumulators: sums, counts and integer histograms."""

    def __init__(self, players: int, unit: int):
        self.players = players
        self.unit = unit
        self.games = 0
        self.ties = 0
        self.wins = [0] * players                    # in units of 1/unit
        self.seat_sum = [0] * players
        self.seat_squares = [0] * players
        self.scores: dict[int, int] = {}
        self.winning: dict[int, int] = {}
        self.margin_sum = self.margin_squares = 0
        # part -> [seat-games, sum, sum of squares, then over games with a = the game's sum of the part,
        # b = its seats having it: Σa², Σab, Σb²]
        self.parts: dict[str, list[int]] = {}
        self.turns = [0, 0, 0]                       # sum, min, max
        self.decisions = [0, 0, 0]
        self.facts: dict[_FactKey, int] = {}         # how many facts of each key
        # card -> [games, points, taker games, taker wins, Σ points², Σ points × takes, Σ takes²] (sums over games)
        self.cards: dict[str, list[int]] = {}
        self.classes: dict[str, list[int]] = {}      # class -> [takes, points]

    def add(self, record: Mapping[str, Any]) -> GameValues:
        """Counts one record and returns its game's values for the comparison."""
        n = self.players
        totals = tuple(int(t) for t in record["totals"])
        scaled = [s * self.unit for s in record["shares"]]
        shares = tuple(round(s) for s in scaled)
        if (len(totals) != n or len(shares) != n or sum(shares) != self.unit
                or any(abs(s - r) > 1e-6 for s, r in zip(scaled, shares))):
            raise ValueError(f"record of game {record['game']} of rule set {record['set']}: "
                             f"{n} totals and win shares adding up to 1 expected")
        self.games += 1
        best, margin = self._count_scores(totals, shares)
        parts = self._count_parts(record["breakdown"])
        turns = int(record["turns"])
        for acc, v in ((self.turns, turns), (self.decisions, int(record["decisions"]))):
            acc[0] += v
            if self.games == 1 or v < acc[1]:
                acc[1] = v
            if self.games == 1 or v > acc[2]:
                acc[2] = v
        cards, classes = self._count_cards(record["cards"], shares)
        return GameValues(totals, shares, best, margin, turns, parts, cards, classes)

    def _count_scores(self, totals: tuple[int, ...], shares: tuple[int, ...]) -> tuple[int, int]:
        """Counts the totals and shares of a game; its best total and winning margin."""
        best = max(totals)
        if sum(1 for s in shares if s) > 1:
            self.ties += 1
        margin = best - sorted(totals)[-2] if len(totals) > 1 else 0
        scores = self.scores
        for k, t in enumerate(totals):
            self.wins[k] += shares[k]
            self.seat_sum[k] += t
            self.seat_squares[k] += t * t
            scores[t] = scores.get(t, 0) + 1
        self.winning[best] = self.winning.get(best, 0) + 1
        self.margin_sum += margin
        self.margin_squares += margin * margin
        return best, margin

    def _count_parts(self, breakdown: Iterable[Mapping[str, int]]) -> dict[str, tuple[int, int]]:
        """Counts a game's breakdowns; per part, its sum over the seats that have it and how many."""
        game_parts: dict[str, tuple[int, int]] = {}
        for seat in breakdown:
            for part, v in seat.items():
                acc = self.parts.get(part)
                if acc is None:
                    acc = self.parts[part] = [0, 0, 0, 0, 0, 0]
                acc[0] += 1
                acc[1] += v
                acc[2] += v * v
                part_sum, seats = game_parts.get(part, (0, 0))
                game_parts[part] = (part_sum + v, seats + 1)
        for part, (a, b) in game_parts.items():
            acc = self.parts[part]
            acc[3] += a * a
            acc[4] += a * b
            acc[5] += b * b
        return game_parts

    def _count_cards(self, facts: Iterable[Mapping[str, Any]], shares: tuple[int, ...]
                     ) -> tuple[dict[str, tuple[int, int, int, int]], dict[str, tuple[int, int]]]:
        """Counts a game's card facts; per card (takes, points, takers, takers' shares) and per
        class (takes, points) of the game."""
        n = self.players
        counts = self.facts
        game_cards: dict[str, list[int]] = {}        # card -> [takes, points, bit mask of takers]
        game_classes: dict[str, list[int]] = {}      # class -> [takes, points]
        for f in facts:
            key = _fact_key(f)
            card, _, cls, player = key[:4]
            if not 0 <= player < n:
                raise ValueError(f"a card fact of player {player!r}: players are 0..{n - 1}")
            counts[key] = counts.get(key, 0) + 1
            points = f["points"]
            e = game_cards.get(card)
            if e is None:
                game_cards[card] = [1, points, 1 << player]
            else:
                e[0] += 1
                e[1] += points
                e[2] |= 1 << player
            if cls is not None:
                x = game_classes.get(cls)
                if x is None:
                    game_classes[cls] = [1, points]
                else:
                    x[0] += 1
                    x[1] += points
        cards: dict[str, tuple[int, int, int, int]] = {}
        for card, (takes, points, mask) in game_cards.items():
            if mask & (mask - 1) == 0:               # one taker
                takers, won = 1, shares[mask.bit_length() - 1]
            else:
                takers = won = 0
                for k in range(n):
                    if mask >> k & 1:
                        takers += 1
                        won += shares[k]
            cards[card] = (takes, points, takers, won)
            acc = self.cards.get(card)
            if acc is None:
                self.cards[card] = [1, points, takers, won, points * points, points * takes, takes * takes]
            else:
                acc[0] += 1
                acc[1] += points
                acc[2] += takers
                acc[3] += won
                acc[4] += points * points
                acc[5] += points * takes
                acc[6] += takes * takes
        classes: dict[str, tuple[int, int]] = {}
        for cls, (takes, points) in game_classes.items():
            classes[cls] = (takes, points)
            acc = self.classes.get(cls)
            if acc is None:
                self.classes[cls] = [takes, points]
            else:
                acc[0] += takes
                acc[1] += points
        return cards, classes

    def merge(self, other: _RuleSet) -> None:
        """Adds what another accumulator (of other games of this rule set) counted."""
        for mine, theirs in ((self.turns, other.turns), (self.decisions, other.decisions)):
            if other.games:
                low = theirs[1] if not self.games else min(mine[1], theirs[1])
                high = theirs[2] if not self.games else max(mine[2], theirs[2])
                mine[:] = [mine[0] + theirs[0], low, high]
        self.games += other.games
        self.ties += other.ties
        self.margin_sum += other.margin_sum
        self.margin_squares += other.margin_squares
        for mine_list, theirs_list in ((self.wins, other.wins), (self.seat_sum, other.seat_sum),
                                       (self.seat_squares, other.seat_squares)):
            mine_list[:] = [a + b for a, b in zip(mine_list, theirs_list)]
        _add_counts(self.scores, other.scores)
        _add_counts(self.winning, other.winning)
        _add_counts(self.facts, other.facts)
        for sums, more in ((self.parts, other.parts), (self.cards, other.cards), (self.classes, other.classes)):
            for key, values in more.items():
                have = sums.get(key)
                sums[key] = list(values) if have is None else [a + b for a, b in zip(have, values)]

    def summary(self, about: Mapping[str, Any], bots: list[Any], parts: list[str],
                names: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """This rule set's part of the summary; `about` is its manifest entry."""
        g, unit = self.games, self.unit
        seats = []
        for k in range(self.players):
            wins = self.wins[k] / unit
            low, high = wilson(wins, g)
            mean, sd = mean_sd(g, self.seat_sum[k], self.seat_squares[k])
            seats.append({"seat": k + 1, "bot": bots[k] if k < len(bots) else None, "wins": wins,
                          "win_rate": wins / g if g else None, "low": low, "high": high,
                          "mean_score": mean, "sd_score": sd})
        margin_mean, margin_sd = mean_sd(g, self.margin_sum, self.margin_squares)
        known = set(parts)
        breakdown: list[dict[str, Any]] = []
        for part in [p for p in parts if p in self.parts] + sorted(set(self.parts) - known):
            count, total, squares, aa, ab, bb = self.parts[part]
            mean, sd = mean_sd(count, total, squares)
            part_low, part_high = ratio_interval(g, total, count, aa, ab, bb)
            breakdown.append({"part": part, "mean": mean, "sd": sd, "low": part_low, "high": part_high})
        part_means = {b["part"]: b["mean"] for b in breakdown}
        out = {"index": about.get("index"), "label": about.get("label"), "name": shown(about, about.get("index", 0)),
               "about": about.get("about"),
               "variants": list(about.get("variants", [])), "given": list(about.get("given", [])),
               "games": g, "ties": self.ties, "seats": seats,
               "scores": _hist_summary(self.scores), "winning_scores": _hist_summary(self.winning),
               "margin": {"mean": margin_mean, "sd": margin_sd},
               "breakdown": breakdown,
               "length": {"turns": self._length(self.turns), "decisions": self._length(self.decisions)},
               "cards": self._cards(names), "classes": self._classes(part_means)}
        out["variant_cards"] = variant_section(out, about, names)
        return out

    def _length(self, acc: list[int]) -> dict[str, Any]:
        """mean, min and max of a count per game (turns, decisions)."""
        total, low, high = acc
        if not self.games:
            return {"mean": None, "min": None, "max": None}
        return {"mean": total / self.games, "min": low, "max": high}

    def _cards(self, names: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
        per: dict[str, dict[str, Any]] = {}
        for (card, kind, cls, player, age, how, turn), count in self.facts.items():
            c = per.get(card)
            if c is None:
                c = per[card] = {"takes": 0, "by_seat": [0] * self.players, "by_age": {}, "turns": 0,
                                 "by_how": {}, "kinds": {}, "classes": {}}
            c["takes"] += count
            c["by_seat"][player] += count
            c["by_age"][age] = c["by_age"].get(age, 0) + count
            c["turns"] += turn * count
            c["by_how"][how] = c["by_how"].get(how, 0) + count
            c["kinds"][kind] = c["kinds"].get(kind, 0) + count
            c["classes"][cls] = c["classes"].get(cls, 0) + count
        out = []
        for card in sorted(per):
            c = per[card]
            games, points, taker_games, taker_wins, pp, pt, tt = self.cards[card]
            takes = c["takes"]
            wins = taker_wins / self.unit
            low, high = wilson(wins, taker_games)
            points_low, points_high = ratio_interval(games, points, takes, pp, pt, tt)
            entry = names.get(card, {})
            out.append({
                "card": card, "name": entry.get("name", card),
                "kind": entry["kind"] if "kind" in entry else _most_common(c["kinds"]),
                "class": entry["class"] if "class" in entry else _most_common(c["classes"]),
                "takes": takes, "games_taken": games, "take_rate": games / self.games,
                "per_game": takes / self.games, "by_seat": c["by_seat"],
                "by_age": {str(a): c["by_age"][a] for a in sorted(c["by_age"])},
                "mean_turn": c["turns"] / takes,
                "by_how": {h: c["by_how"][h] for h in sorted(c["by_how"])},
                "mean_points": points / takes, "points_low": points_low, "points_high": points_high,
                "taker_games": taker_games, "taker_wins": wins,
                "taker_win_rate": wins / taker_games, "low": low, "high": high})
        return out

    def _classes(self, part_means: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"class": cls, "takes": takes, "per_game": takes / self.games,
                 "mean_points": points / takes, "part_mean": part_means.get(cls)}
                for cls, (takes, points) in sorted(self.classes.items())]


class Aggregator:
    """The summary of a simulation, built from its records one at a time (module docstring)."""

    def __init__(self, manifest: Mapping[str, Any]):
        self.manifest = manifest
        self.players = int(manifest["players"])
        self.unit = math.lcm(*range(1, self.players + 1))
        self.parts = [str(p) for p in manifest.get("parts", [])]
        self.cards: Mapping[str, Mapping[str, Any]] = manifest.get("cards", {})
        self.games = manifest.get("games")
        self._sets = {int(rs["index"]): _RuleSet(self.players, self.unit) for rs in manifest["rule_sets"]}
        self._seen = {index: bytearray() for index in self._sets}    # a bit per game index
        paired = 0 in self._sets and 1 in self._sets
        self._comparison = Comparison(self.players, self.unit, self.parts) if paired else None
        self._pending: dict[int, tuple[int, GameValues]] = {}              # game index -> (set, its game)

    @property
    def pending(self) -> int:
        """How many game indexes wait for their other rule set's record."""
        return len(self._pending)

    def add(self, record: Mapping[str, Any]) -> None:
        """Counts one record (one game of one rule set). A record that breaks the format raises
        ValueError (or KeyError for a missing key) and is not counted, except that a card fact
        found wrong may leave the facts before it counted: the Aggregator is then not to be used."""
        s, g = record["set"], record["game"]
        rule_set = self._sets.get(s)
        if rule_set is None:
            raise ValueError(f"record of game {g}: rule set {s!r} is not in the manifest")
        if not isinstance(g, int) or g < 0 or (isinstance(self.games, int) and g >= self.games):
            raise ValueError(f"record of rule set {s}: {g!r} is not a game index of the simulation")
        seen = self._seen[s]
        byte, bit = divmod(g, 8)
        if byte >= len(seen):
            seen.extend(bytes(byte + 1 - len(seen)))
        if seen[byte] >> bit & 1:
            raise ValueError(f"a second record of game {g} of rule set {s}")
        game = rule_set.add(record)
        seen[byte] |= 1 << bit
        if self._comparison is None or s not in (0, 1):
            return
        other = self._pending.pop(g, None)
        if other is None:
            self._pending[g] = (s, game)
        elif s == 0:
            self._comparison.add(game, other[1])
        else:
            self._comparison.add(other[1], game)

    def merge(self, other: Aggregator) -> None:
        """Adds what another Aggregator of the same manifest counted (other records: a game
        index's records may be split between the two; a record in both is refused)."""
        for s, rule_set in self._sets.items():
            mine, theirs = self._seen[s], other._seen[s]
            if any(a & b for a, b in zip(mine, theirs)):
                raise ValueError(f"a game of rule set {s} counted twice")
            self._seen[s] = bytearray(a | b for a, b in zip(mine.ljust(len(theirs), b"\0"),
                                                             theirs.ljust(len(mine), b"\0")))
            rule_set.merge(other._sets[s])
        if self._comparison is not None and other._comparison is not None:
            self._comparison.merge(other._comparison)
        for g, (s, game) in other._pending.items():
            waiting = self._pending.pop(g, None)
            if waiting is None:
                self._pending[g] = (s, game)
            elif self._comparison is not None:
                g0, g1 = (game, waiting[1]) if s == 0 else (waiting[1], game)
                self._comparison.add(g0, g1)

    def summary(self) -> dict[str, Any]:
        """The summary of the records added so far (sim-formats: the summary)."""
        m = self.manifest
        bots = list(m.get("bots", []))
        names = {card: str(entry.get("name", card)) for card, entry in self.cards.items()}
        rule_sets = [self._sets[int(rs["index"])].summary(rs, bots, self.parts, self.cards)
                     for rs in m["rule_sets"]]
        comparisons = [] if self._comparison is None else [self._comparison.summary(0, 1, names)]
        return {"summary": 1, "players": self.players, "expansions": list(m.get("expansions", [])),
                "bots": bots, "seed": m.get("seed"), "rule_sets": rule_sets, "comparisons": comparisons}


def aggregate(manifest: Mapping[str, Any], records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The summary of a simulation from its manifest and its records (in any order)."""
    agg = Aggregator(manifest)
    for record in records:
        agg.add(record)
    return agg.summary()
