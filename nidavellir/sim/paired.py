"""Rule set 0 against rule set 1 over the same seeds: paired differences, streamed in flat memory.

Game index i is played with the same seed under both rule sets, so the two games of index i form a
pair. Every compared figure is a ratio over the n pairs, R_s = Σ_i a_s,i / Σ_i b_s,i (s = 0 the
tested set, 1 the reference); a plain mean has b_s,i = 1. The difference D = R0 − R1 is tested
with the delta method (linearization of a ratio): with b̄_s = Σ_i b_s,i / n,

    u_s,i = (a_s,i − R_s b_s,i) / b̄_s,    w_i = u0,i − u1,i,    Var(D) ≈ Σ_i w_i² / (n (n − 1)),

z = D / SE, two-sided p = erfc(|z| / √2) and the 95 % interval D ± 1.959964 SE. For a plain mean
w_i is the pair's difference minus D, and this is the paired z-test. Σ w_i² expands into the sums
Σa_s, Σb_s, Σa_s², Σb_s², Σa_s b_s and the cross sums Σa0 a1, Σa0 b1, Σb0 a1, Σb0 b1, so a figure
keeps 14 numbers however many games are played. Every a and b below is an integer (a win share
counts in units of 1/L, L = lcm(1, …, N) for N seats: 60 for 5 players), the sums are exact
Python integers and Σ w_i² is evaluated in exact rational arithmetic: no cancellation, and SE is
0 exactly when every w_i is 0. Then p = 1 if D = 0, else p = 0 (every pair moved by the same
amount) and z is None (null in JSON). A figure is left out when Σb = 0 on either side (a mean of
nothing) or when there are fewer than 2 pairs. A figure's "value" and "against_value" are R0 and R1
over the paired games only; figures of win shares are given back in wins (divided by L).

The per-game a and b of each figure, for one game of one rule set with N seats (seat k = player
index k − 1); "takes" are the entries of the record's "cards" (every acquisition, any "how"):

| scope | subject | measure        | a                                                   | b                 |
|-------|---------|----------------|-----------------------------------------------------|-------------------|
| rules | all     | mean_score     | the sum of the N seats' totals                      | N                 |
| rules | all     | winning_score  | the best total                                      | 1                 |
| rules | all     | margin         | the best total − the best of the others' totals     | 1                 |
|       |         |                | (0 when winners tie)                                |                   |
| rules | all     | turns          | the record's "turns"                                | 1                 |
| rules | all     | part:P         | the sum of breakdown[P] over the seats that have P  | those seats       |
| seat  | k       | win_rate       | seat k's share of the win                           | 1                 |
| seat  | k       | mean_score     | seat k's total                                      | 1                 |
| card  | c       | take_rate      | 1 if any copy of c was taken, else 0                | 1                 |
| card  | c       | per_game       | the takes of c                                      | 1                 |
| card  | c       | mean_points    | the sum of "points" over the takes of c             | the takes of c    |
| card  | c       | taker_win_rate | the sum of the win shares of the players who took c | those players     |
|       |         |                | (a player counted once however many copies)         |                   |
| class | x       | per_game       | the takes of cards whose fact has class x           | 1                 |
| class | x       | mean_points    | the sum of "points" over those takes                | those takes       |
| class | x       | part_mean      | as part:x (the breakdown part named x)              | as part:x         |

A card or a class enters the comparison when it was taken in at least one paired game of either
rule set (its plain means are then defined on both sides, 0 where never taken); a part when some
paired game of either side has it (its ratio is then compared if both sides have it).

Holm–Bonferroni runs over every figure of the comparison (family-wise α = 0.05): "p_adjusted" is
Holm's adjusted p and a figure is significant when p_adjusted < α.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from nidavellir.stats import Z95, holm, normal_p

TEST = "paired z-test on per-seed differences (delta method for ratios)"
CORRECTION = "Holm–Bonferroni"
ALPHA = 0.05


@dataclass(frozen=True)
class GameValues:
    """One game of one rule set, reduced to the integers its figures need (see the table above)."""
    totals: tuple[int, ...]                      # by seat
    shares: tuple[int, ...]                      # by seat, in units of 1/L
    best: int
    margin: int
    turns: int
    parts: dict[str, tuple[int, int]]            # part -> (sum over the seats that have it, those seats)
    cards: dict[str, tuple[int, int, int, int]]  # card -> (takes, points, takers, takers' shares)
    classes: dict[str, tuple[int, int]]          # class -> (takes, points)


class Sums(NamedTuple):
    """The 14 sums of a ratio figure over the pairs."""
    a0: int
    b0: int
    aa0: int
    bb0: int
    ab0: int
    a1: int
    b1: int
    aa1: int
    bb1: int
    ab1: int
    a0a1: int
    a0b1: int
    b0a1: int
    b0b1: int


class Ratio:
    """A ratio figure's sums, one pair (a0, b0, a1, b1) at a time."""
    __slots__ = (
        "a0",
        "a0a1",
        "a0b1",
        "a1",
        "aa0",
        "aa1",
        "ab0",
        "ab1",
        "b0",
        "b0a1",
        "b0b1",
        "b1",
        "bb0",
        "bb1",
    )

    def __init__(self) -> None:
        self.a0 = self.b0 = self.aa0 = self.bb0 = self.ab0 = 0
        self.a1 = self.b1 = self.aa1 = self.bb1 = self.ab1 = 0
        self.a0a1 = self.a0b1 = self.b0a1 = self.b0b1 = 0

    def add(self, a0: int, b0: int, a1: int, b1: int) -> None:
        if b0 or a0:
            self.a0 += a0
            self.b0 += b0
            self.aa0 += a0 * a0
            self.bb0 += b0 * b0
            self.ab0 += a0 * b0
        if b1 or a1:
            self.a1 += a1
            self.b1 += b1
            self.aa1 += a1 * a1
            self.bb1 += b1 * b1
            self.ab1 += a1 * b1
            if b0 or a0:
                self.a0a1 += a0 * a1
                self.a0b1 += a0 * b1
                self.b0a1 += b0 * a1
                self.b0b1 += b0 * b1

    def sums(self, n: int) -> Sums:
        """The sums over the n pairs (n is not needed here: every b was added)."""
        return Sums(self.a0, self.b0, self.aa0, self.bb0, self.ab0, self.a1, self.b1, self.aa1,
                    self.bb1, self.ab1, self.a0a1, self.a0b1, self.b0a1, self.b0b1)


class Mean:
    """A plain mean's sums (b = 1 in every game): the b sums follow from the number of pairs n,
    so a pair in which both a are 0 changes nothing and need not be added."""
    __slots__ = ("a0", "a0a1", "a1", "aa0", "aa1")

    def __init__(self) -> None:
        self.a0 = self.aa0 = self.a1 = self.aa1 = self.a0a1 = 0

    def add(self, a0: int, a1: int) -> None:
        self.a0 += a0
        self.aa0 += a0 * a0
        self.a1 += a1
        self.aa1 += a1 * a1
        self.a0a1 += a0 * a1

    def sums(self, n: int) -> Sums:
        """The sums over the n pairs: Σb = Σb² = Σb0 b1 = n, Σa b = Σa, Σa0 b1 = Σa0, Σb0 a1 = Σa1."""
        return Sums(self.a0, n, self.aa0, n, self.a0, self.a1, n, self.aa1, n, self.a1,
                    self.a0a1, self.a0, self.a1, n)


class CardSums:
    """A card's four figures' sums at once (the hot loop of a comparison). In a game the card has
    x = 1 if taken, k takes, q points over them, m takers and h their shares of the win:
    take_rate is the mean of x, per_game of k, mean_points the ratio q / k, taker_win_rate h / m.
    x² = x, so Σx also stands for Σx²; sums of a side the card is absent from are unchanged."""
    __slots__ = (
        "h0",
        "h0h1",
        "h0m1",
        "h1",
        "hh0",
        "hh1",
        "hm0",
        "hm1",
        "k0",
        "k0k1",
        "k0q1",
        "k1",
        "kk0",
        "kk1",
        "m0",
        "m0h1",
        "m0m1",
        "m1",
        "mm0",
        "mm1",
        "q0",
        "q0k1",
        "q0q1",
        "q1",
        "qk0",
        "qk1",
        "qq0",
        "qq1",
        "x0",
        "x0x1",
        "x1",
    )

    def __init__(self) -> None:
        self.x0 = self.k0 = self.kk0 = self.q0 = self.qq0 = self.qk0 = 0
        self.h0 = self.hh0 = self.m0 = self.mm0 = self.hm0 = 0
        self.x1 = self.k1 = self.kk1 = self.q1 = self.qq1 = self.qk1 = 0
        self.h1 = self.hh1 = self.m1 = self.mm1 = self.hm1 = 0
        self.x0x1 = self.k0k1 = self.q0q1 = self.q0k1 = self.k0q1 = 0
        self.h0h1 = self.h0m1 = self.m0h1 = self.m0m1 = 0

    def add0(self, v: tuple[int, int, int, int]) -> None:
        """A pair in which only set 0's game has the card: v = (k, q, m, h) of that game."""
        k, q, m, h = v
        self.x0 += 1
        self.k0 += k
        self.kk0 += k * k
        self.q0 += q
        self.qq0 += q * q
        self.qk0 += q * k
        self.h0 += h
        self.hh0 += h * h
        self.m0 += m
        self.mm0 += m * m
        self.hm0 += h * m

    def add1(self, v: tuple[int, int, int, int]) -> None:
        """A pair in which only set 1's game has the card: v = (k, q, m, h) of that game."""
        k, q, m, h = v
        self.x1 += 1
        self.k1 += k
        self.kk1 += k * k
        self.q1 += q
        self.qq1 += q * q
        self.qk1 += q * k
        self.h1 += h
        self.hh1 += h * h
        self.m1 += m
        self.mm1 += m * m
        self.hm1 += h * m

    def add01(self, v0: tuple[int, int, int, int], v1: tuple[int, int, int, int]) -> None:
        """A pair in which both games have the card (add0 and add1, written out: the hot path)."""
        k0, q0, m0, h0 = v0
        k1, q1, m1, h1 = v1
        self.x0 += 1
        self.k0 += k0
        self.kk0 += k0 * k0
        self.q0 += q0
        self.qq0 += q0 * q0
        self.qk0 += q0 * k0
        self.h0 += h0
        self.hh0 += h0 * h0
        self.m0 += m0
        self.mm0 += m0 * m0
        self.hm0 += h0 * m0
        self.x1 += 1
        self.k1 += k1
        self.kk1 += k1 * k1
        self.q1 += q1
        self.qq1 += q1 * q1
        self.qk1 += q1 * k1
        self.h1 += h1
        self.hh1 += h1 * h1
        self.m1 += m1
        self.mm1 += m1 * m1
        self.hm1 += h1 * m1
        self.x0x1 += 1
        self.k0k1 += k0 * k1
        self.q0q1 += q0 * q1
        self.q0k1 += q0 * k1
        self.k0q1 += k0 * q1
        self.h0h1 += h0 * h1
        self.h0m1 += h0 * m1
        self.m0h1 += m0 * h1
        self.m0m1 += m0 * m1

    def sums(self, n: int) -> tuple[Sums, Sums, Sums, Sums]:
        """The sums of take_rate, per_game, mean_points and taker_win_rate over n pairs."""
        x0, x1, k0, k1 = self.x0, self.x1, self.k0, self.k1
        return (Sums(x0, n, x0, n, x0, x1, n, x1, n, x1, self.x0x1, x0, x1, n),
                Sums(k0, n, self.kk0, n, k0, k1, n, self.kk1, n, k1, self.k0k1, k0, k1, n),
                Sums(self.q0, k0, self.qq0, self.kk0, self.qk0, self.q1, k1, self.qq1, self.kk1, self.qk1,
                     self.q0q1, self.q0k1, self.k0q1, self.k0k1),
                Sums(self.h0, self.m0, self.hh0, self.mm0, self.hm0, self.h1, self.m1, self.hh1,
                     self.mm1, self.hm1, self.h0h1, self.h0m1, self.m0h1, self.m0m1))


@dataclass(frozen=True)
class Result:
    """One figure compared: set 0's value, set 1's, their difference with its 95 % interval."""
    value: float
    against_value: float
    difference: float
    low: float
    high: float
    z: float | None     # None when SE = 0 and D ≠ 0
    p: float


def delta_test(n: int, s: Sums, unit: int = 1) -> Result | None:
    """The paired delta-method test of R0 − R1 from a figure's sums over n pairs (module docstring);
    values are divided by `unit` (the a's unit). None when the figure is not compared."""
    if n < 2 or s.b0 == 0 or s.b1 == 0:
        return None
    r0 = Fraction(s.a0) / s.b0
    r1 = Fraction(s.a1) / s.b1
    m0 = Fraction(s.b0) / n
    m1 = Fraction(s.b1) / n
    uu0 = (s.aa0 - 2 * r0 * s.ab0 + r0 * r0 * s.bb0) / (m0 * m0)
    uu1 = (s.aa1 - 2 * r1 * s.ab1 + r1 * r1 * s.bb1) / (m1 * m1)
    u01 = (s.a0a1 - r1 * s.a0b1 - r0 * s.b0a1 + r0 * r1 * s.b0b1) / (m0 * m1)
    ww = uu0 + uu1 - 2 * u01          # Σ w_i², exact (>= 0)
    d = r0 - r1
    se = math.sqrt(float(ww / (n * (n - 1))))
    if se == 0.0:
        z: float | None = 0.0 if d == 0 else None
        p = 1.0 if d == 0 else 0.0
    else:
        z = float(d) / se
        p = normal_p(z)
    diff = float(d / unit)
    half = Z95 * se / unit
    return Result(float(r0 / unit), float(r1 / unit), diff, diff - half, diff + half, z, p)


_ZERO2 = (0, 0)


def absorb(mine: Ratio | Mean | CardSums, theirs: Ratio | Mean | CardSums) -> None:
    """Adds another accumulator's sums (of other pairs) into one of the same kind."""
    for name in type(mine).__slots__:
        setattr(mine, name, getattr(mine, name) + getattr(theirs, name))


def _absorb_all(mine: dict[str, Any], theirs: Mapping[str, Any]) -> None:
    for key, value in theirs.items():
        if key not in mine:
            mine[key] = value
        elif isinstance(value, tuple):
            for a, b in zip(mine[key], value):
                absorb(a, b)
        else:
            absorb(mine[key], value)


class Comparison:
    """The figures of rule set 0 against rule set 1, accumulated one pair of games at a time."""

    def __init__(self, seats: int, unit: int, parts: Sequence[str] = ()):
        self.seats = seats
        self.unit = unit              # a win share's unit is 1/unit
        self.part_order = list(parts)
        self.pairs = 0
        self.score = Ratio()
        self.winning = Mean()
        self.margin = Mean()
        self.turns = Mean()
        self.parts: dict[str, Ratio] = {}
        self.seat_wins = [Mean() for _ in range(seats)]
        self.seat_scores = [Mean() for _ in range(seats)]
        self.cards: dict[str, CardSums] = {}
        self.classes: dict[str, tuple[Mean, Ratio]] = {}

    def add(self, g0: GameValues, g1: GameValues) -> None:
        """One pair: the game of an index under set 0 and under set 1."""
        self.pairs += 1
        self.score.add(sum(g0.totals), len(g0.totals), sum(g1.totals), len(g1.totals))
        self.winning.add(g0.best, g1.best)
        self.margin.add(g0.margin, g1.margin)
        self.turns.add(g0.turns, g1.turns)
        for part in g0.parts.keys() | g1.parts.keys():
            r = self.parts.get(part)
            if r is None:
                r = self.parts[part] = Ratio()
            p0 = g0.parts.get(part, _ZERO2)
            p1 = g1.parts.get(part, _ZERO2)
            r.add(p0[0], p0[1], p1[0], p1[1])
        for k in range(self.seats):
            self.seat_wins[k].add(g0.shares[k], g1.shares[k])
            self.seat_scores[k].add(g0.totals[k], g1.totals[k])
        cards, cards0, cards1 = self.cards, g0.cards, g1.cards
        for card, v0 in cards0.items():
            f = cards.get(card)
            if f is None:
                f = cards[card] = CardSums()
            v1 = cards1.get(card)
            if v1 is None:
                f.add0(v0)
            else:
                f.add01(v0, v1)
        for card, v1 in cards1.items():
            if card not in cards0:
                f = cards.get(card)
                if f is None:
                    f = cards[card] = CardSums()
                f.add1(v1)
        for cls in g0.classes.keys() | g1.classes.keys():
            c = self.classes.get(cls)
            if c is None:
                c = self.classes[cls] = (Mean(), Ratio())
            t0, s0 = g0.classes.get(cls, _ZERO2)
            t1, s1 = g1.classes.get(cls, _ZERO2)
            c[0].add(t0, t1)
            c[1].add(s0, t0, s1, t1)

    def merge(self, other: Comparison) -> None:
        """Adds the pairs another comparison (of other game indexes) counted: the sums are exact,
        so the figures are those of counting every pair here."""
        self.pairs += other.pairs
        pairs: list[tuple[Ratio | Mean, Ratio | Mean]] = [
            (self.score, other.score), (self.winning, other.winning), (self.margin, other.margin),
            (self.turns, other.turns), *zip(self.seat_wins, other.seat_wins), *zip(self.seat_scores, other.seat_scores)]
        for mine, theirs in pairs:
            absorb(mine, theirs)
        _absorb_all(self.parts, other.parts)
        _absorb_all(self.cards, other.cards)
        _absorb_all(self.classes, other.classes)

    def _candidates(self, names: Mapping[str, str]) -> list[tuple[str, str, str, str, Sums, int]]:
        """Every figure with its sums, in the summary's order: (scope, subject, measure, label)."""
        n = self.pairs
        out: list[tuple[str, str, str, str, Sums, int]] = [
            ("rules", "all", "mean_score", "mean score", self.score.sums(n), 1),
            ("rules", "all", "winning_score", "winning score", self.winning.sums(n), 1),
            ("rules", "all", "margin", "winning margin", self.margin.sums(n), 1),
            ("rules", "all", "turns", "turns per game", self.turns.sums(n), 1)]
        known = set(self.part_order)
        order = [p for p in self.part_order if p in self.parts]
        order += sorted(p for p in self.parts if p not in known)
        for part in order:
            out.append(("rules", "all", f"part:{part}", f"mean {part} points per seat",
                        self.parts[part].sums(n), 1))
        for k in range(self.seats):
            out.append(("seat", str(k + 1), "win_rate", f"seat {k + 1} win rate",
                        self.seat_wins[k].sums(n), self.unit))
            out.append(("seat", str(k + 1), "mean_score", f"seat {k + 1} mean score",
                        self.seat_scores[k].sums(n), 1))
        for card in sorted(self.cards):
            name = names.get(card, card)
            taken, takes, points, takers = self.cards[card].sums(n)
            out += [("card", card, "take_rate", f"{name}: share of games it is taken in", taken, 1),
                    ("card", card, "per_game", f"{name}: takes per game", takes, 1),
                    ("card", card, "mean_points", f"{name}: mean points per take", points, 1),
                    ("card", card, "taker_win_rate", f"{name}: win rate of its takers", takers,
                     self.unit)]
        for cls in sorted(self.classes):
            class_takes, class_points = self.classes[cls]
            out += [("class", cls, "per_game", f"{cls} cards: takes per game", class_takes.sums(n), 1),
                    ("class", cls, "mean_points", f"{cls} cards: mean points per take",
                     class_points.sums(n), 1)]
            if cls in self.parts:
                out.append(("class", cls, "part_mean", f"{cls} class: mean {cls} points per seat",
                            self.parts[cls].sums(n), 1))
        return out

    def summary(self, tested: int, against: int, names: Mapping[str, str],
                alpha: float = ALPHA) -> dict[str, Any]:
        """The comparison of the summary (sim-formats): every figure both sides define, Holm's
        adjustment over them, and the significant card and class figures ranked by |z|."""
        figures: list[dict[str, Any]] = []
        for scope, subject, measure, label, sums, unit in self._candidates(names):
            r = delta_test(self.pairs, sums, unit)
            if r is None:
                continue
            figures.append({"scope": scope, "subject": subject, "measure": measure, "label": label,
                            "value": r.value, "against_value": r.against_value,
                            "difference": r.difference, "low": r.low, "high": r.high,
                            "z": r.z, "p": r.p})
        for figure, adjusted in zip(figures, holm([f["p"] for f in figures])):
            figure["p_adjusted"] = adjusted
            figure["significant"] = adjusted < alpha
        ranked = [f for f in figures if f["significant"] and f["scope"] in ("card", "class")]
        ranked.sort(key=lambda f: -math.inf if f["z"] is None else -abs(f["z"]))
        return {"set": tested, "against": against, "pairs": self.pairs, "test": TEST,
                "correction": CORRECTION, "alpha": alpha, "figures": figures,
                "ranked": [dict(f) for f in ranked]}
