"""What every number of the rules can be, worked out once before a game: an abstract evaluation of
the DSL's expressions over intervals, using what the rules data says can change (issue 17 §2, §7).

A param no card modifies is its value; the tokens of a card with no `add`/`remove … token` stay 0; a
track its card never advances stays at its first notch; counts are bounded by the cards the rules
hold, coins by the coins they have; a condition that cannot change (`1 > 0`, `param(z) > 0` with `z`
never modified) has one value. Three checks read it (compiler/value_checks.py: the magnitude of every
value against MAX_VALUE, divisors that are or can be 0, amounts that never act); the cycle checker
reads it to fold conditions (a read behind `if 1 > 0 …` always happens, one behind `if 0 > 1 …`
never does); the emitter reads it to guard, in play, exactly the operations it cannot bound.

A `Span` is an interval of integers. A side that is None is open: the rules data does not bound it
(tokens added again and again, a param read in a cycle), only the runtime's guard does. What the
runtime guards (params, the points of a column, tokens) is within ±MAX_VALUE whenever an expression
reads it, and so is every guarded operation: a read's or an operand's span is clamped to it.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from nidavellir.interface.mechanisms import ACTION_SPECS
from nidavellir.interface.numbers import key_int
from nidavellir.interface.support import MAX_VALUE

from . import ir
from .places import CardFacts, Places
from .structure import MAX_COIN


@dataclass(frozen=True, slots=True)
class Span:
    lo: int | None
    hi: int | None

    @property
    def const(self) -> int | None:
        return self.lo if self.lo is not None and self.lo == self.hi else None

    def has(self, value: int) -> bool:
        return (self.lo is None or self.lo <= value) and (self.hi is None or value <= self.hi)

    @property
    def within(self) -> bool:
        """Whether every value is within ±MAX_VALUE."""
        return self.lo is not None and self.hi is not None and -MAX_VALUE <= self.lo and self.hi <= MAX_VALUE

    @property
    def open(self) -> bool:
        return self.lo is None or self.hi is None


TOP = Span(None, None)
TRUE, FALSE, BOOL = Span(1, 1), Span(0, 0), Span(0, 1)
ZERO = Span(0, 0)

_Ext = int | float  # an int, or ±inf for an open side


def _lo(s: Span) -> _Ext:
    return -math.inf if s.lo is None else s.lo


def _hi(s: Span) -> _Ext:
    return math.inf if s.hi is None else s.hi


def _make(lo: _Ext, hi: _Ext) -> Span:
    return Span(None if math.isinf(lo) else int(lo), None if math.isinf(hi) else int(hi))


def hull(*spans: Span) -> Span:
    if not spans:
        return ZERO
    return _make(min(_lo(s) for s in spans), max(_hi(s) for s in spans))


def clamp(s: Span) -> Span:
    """What an expression can read of a guarded value: its span within ±MAX_VALUE."""
    def one(v: int | None) -> int | None:
        return None if v is None else max(-MAX_VALUE, min(MAX_VALUE, v))
    return Span(one(s.lo), one(s.hi))


def add(a: Span, b: Span) -> Span:
    return _make(_lo(a) + _lo(b), _hi(a) + _hi(b))


def sub(a: Span, b: Span) -> Span:
    return _make(_lo(a) - _hi(b), _hi(a) - _lo(b))


def _times(x: _Ext, y: _Ext) -> _Ext:
    return 0 if x == 0 or y == 0 else x * y


def mul(a: Span, b: Span) -> Span:
    if a.const == 0 or b.const == 0:
        return ZERO
    corners = [_times(x, y) for x in (_lo(a), _hi(a)) for y in (_lo(b), _hi(b))]
    return _make(min(corners), max(corners))


def _floordiv(x: _Ext, d: _Ext) -> _Ext:
    if math.isinf(d):
        if math.isinf(x):
            return x if d > 0 else -x
        return 0 if x == 0 or (x > 0) == (d > 0) else -1
    if math.isinf(x):
        return x if d > 0 else -x
    return int(x) // int(d)


def div(a: Span, b: Span) -> Span:
    """`a / b` rounded down, for the divisors of `b` other than 0 (TOP: `b` is always 0)."""
    parts = []
    if _lo(b) <= -1:
        parts.append((_lo(b), min(_hi(b), -1)))
    if _hi(b) >= 1:
        parts.append((max(_lo(b), 1), _hi(b)))
    if not parts:
        return TOP
    corners = [_floordiv(x, d) for lo, hi in parts for d in (lo, hi) for x in (_lo(a), _hi(a))]
    return _make(min(corners), max(corners))


def compare(op: str, a: Span, b: Span) -> Span:
    if op in (">", ">="):
        op, a, b = {">": "<", ">=": "<="}[op], b, a
    if op == "<":
        return TRUE if _hi(a) < _lo(b) else FALSE if _lo(a) >= _hi(b) else BOOL
    if op == "<=":
        return TRUE if _hi(a) <= _lo(b) else FALSE if _lo(a) > _hi(b) else BOOL
    same = a.const is not None and a.const == b.const
    apart = _hi(a) < _lo(b) or _hi(b) < _lo(a)
    if op == "==":
        return TRUE if same else FALSE if apart else BOOL
    return FALSE if same else TRUE if apart else BOOL  # !=


def truth(s: Span) -> bool | None:
    """A condition's value when it has one (a span of 0 and 1)."""
    return True if s == TRUE else False if s == FALSE else None


def _negate(s: Span) -> Span:
    t = truth(s)
    return BOOL if t is None else FALSE if t else TRUE


def _scaled(s: Span, copies: int) -> Span:
    """What 0 to `copies` cards each worth `s` add up to."""
    return _make(min(0, copies * _lo(s)), max(0, copies * _hi(s)))


@dataclass
class Values:
    """The spans of the rules' values: params, scores, reads, and each expression of an effect (read
    as the effect's card reads it, or in a class formula with `card` None and `column` its class)."""
    cards: dict[str, CardFacts]
    places: Places
    params: dict[str, int]
    game: dict[str, Any]
    _param_spans: dict[str, Span] = field(default_factory=dict)
    _score_spans: dict[str, Span] = field(default_factory=dict)
    _column_spans: dict[tuple[str, str], Span] = field(default_factory=dict)
    _memo: dict[tuple[str | None, str | None, int], tuple[ir.Expr, Span]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        g = self.game
        self.classes = tuple(c["id"] for c in g.get("classes", []))
        coins = g.get("coins", {})
        basic = [c["value"] for c in coins.get("basic", [])]
        special = [c["value"] for c in coins.get("special", [])]
        treasure = [key_int(v) for v in coins.get("treasure", {})]
        values = [min(v, MAX_COIN) for v in basic + special + treasure] or [0]  # (a greater one is refused)
        self.coin_lo, self.coin_hi = min(values), max(values)
        self.coins_held = max(1, len(basic))  # (a trade, a transformation, an exchange keeps the count)
        ages = list(g.get("ages", [])) or [1]
        self.ages = Span(min(ages), max(ages))
        self.mods: dict[str, list[tuple[str, ir.Modifier]]] = {}
        self.scores: dict[str, ir.Score] = {}
        self.over: dict[int, tuple[str, Span, ir.Modifier]] = {}  # a modifier -> its param, past the bound with it
        self.token_cards: set[str] = set()
        self.advancing: set[str] = set()
        for cid, c in self.cards.items():
            for _, effect in c.effects:
                if isinstance(effect, ir.Modifier):
                    self.mods.setdefault(effect.param, []).append((cid, effect))
                elif isinstance(effect, ir.Score) and not effect.once:
                    self.scores[cid] = effect
                for node in ir.walk(effect):
                    marks = ACTION_SPECS[node.name].marks if isinstance(node, ir.Act) else ()
                    if "tokens" in marks:
                        self.token_cards.add(cid)
                    if "notch" in marks:
                        self.advancing.add(cid)
        dwarfs = [c for c in self.cards.values() if c.kind in self.places.dwarf_kinds]
        self.dwarf_copies = sum(c.copies for c in dwarfs)
        self.dwarf_points = hull(ZERO, *(_scaled(Span(sum(c.ranks), sum(c.ranks)), c.copies) for c in dwarfs))
        card_points = [sum(r) for c in self.cards.values() for r in (c.ranks, *c.by_column.values())] or [0]
        self.subject_points = Span(min(0, *card_points), max(0, *card_points))
        self._prepare()

    # -- the values the rules data knows --------------------------------------------------------
    def _prepare(self) -> None:
        """Work out every modified param and every score once, each after what it reads (so no
        computation nests in another: a chain of a thousand params is as shallow as one). A member of
        a cycle reads the others as open (the cycle checker reports the cycle)."""
        keys: list[tuple[str, str]] = [("param", name) for name in self.mods] + [("score", cid) for cid in self.scores]
        deps = {key: self._reads(key) for key in keys}
        seen: set[tuple[str, str]] = set()
        order: list[tuple[str, str]] = []
        for root in keys:  # (depth first, after what each reads, without recursion)
            if root in seen:
                continue
            seen.add(root)
            stack = [(root, iter(deps[root]))]
            while stack:
                key, todo = stack[-1]
                for dep in todo:
                    if dep not in seen and dep in deps:
                        seen.add(dep)
                        stack.append((dep, iter(deps[dep])))
                        break
                else:
                    stack.pop()
                    order.append(key)
        for what, name in order:
            if what == "param":
                self._param_spans[name] = self._param_now(name)
            else:
                self._score_spans[name] = self._score_now(name)
            self._column_spans.clear()  # (a column's points read the scores known so far)
        self._memo.clear()

    def _reads(self, key: tuple[str, str]) -> list[tuple[str, str]]:
        """The modified params and the scores a param's modifiers or a card's score read."""
        what, name = key
        exprs = [m.amount for _, m in self.mods.get(name, [])] if what == "param" else \
            [self.scores[name].expr] if name in self.scores else []
        out: list[tuple[str, str]] = []
        for e in exprs:
            for node in ir.walk(e):
                if not isinstance(node, ir.Call) or not node.args:
                    continue
                if node.name == "param" and isinstance(node.args[0], ir.Var):
                    out.append(("param", node.args[0].name))
                elif node.name == "points":
                    column = self._class_arg(node.args[0])
                    out.extend(("score", cid) for cid in self.scores
                               if self.places.may_stand_in(cid, column))
        return out

    def param(self, name: str) -> Span:
        """A param: its value, changed by every modifier a player's cards may hold, in any order."""
        if name in self._param_spans:
            return self._param_spans[name]
        if name in self.mods:
            return TOP  # (while the params are worked out: one read in a cycle)
        value = self.params.get(name, 0)
        return Span(value, value)

    def _param_now(self, name: str) -> Span:
        base = Span(self.params.get(name, 0), self.params.get(name, 0))
        sets = [self.span(m.amount, cid) for cid, m in self.mods.get(name, []) if m.op == "="]
        value = hull(base, *map(clamp, sets))
        for cid, m in self.mods.get(name, []):
            if m.op != "=":
                amount = _scaled(clamp(self.span(m.amount, cid)), self.cards[cid].copies)
                value = add(value, amount) if m.op == "+" else sub(value, amount)
                if not value.within and not value.open and not any(k[0] == name for k in self.over.values()):
                    self.over[id(m)] = (name, value, m)  # (the modifier with which the sum can pass the bound)
        return clamp(value)

    def score(self, cid: str) -> Span:
        """What a card's own score (one `points(CLASS)` counts) can be."""
        if cid in self._score_spans:
            return self._score_spans[cid]
        return TOP if cid in self.scores else ZERO

    def _score_now(self, cid: str) -> Span:
        return clamp(self.span(self.scores[cid].expr, cid))

    def column(self, what: str, column: str | None) -> Span:
        """`ranks`, `points` or `zero_ranks` of a column (None: any column) of one player's army."""
        if column is None or column not in self.classes:
            return hull(*(self.column(what, c) for c in self.classes))
        if (what, column) in self._column_spans:
            return self._column_spans[(what, column)]
        total = ZERO
        for cid, c in self.cards.items():
            if not self.places.may_stand_in(cid, column):
                continue
            ranks = c.ranks_in(column)
            if what == "ranks":
                one = Span(len(ranks), len(ranks))
            elif what == "zero_ranks":
                one = Span(ranks.count(0), ranks.count(0))
            else:
                one = add(Span(sum(ranks), sum(ranks)), self.score(cid))
            total = add(total, _scaled(one, c.copies))
        out = clamp(total) if what == "points" else total  # (the runtime guards a column's points)
        self._column_spans[(what, column)] = out
        return out

    def _copies_of(self, match: Iterable[CardFacts]) -> Span:
        return Span(0, sum(c.copies for c in match))

    def _class_arg(self, arg: ir.Expr) -> str | None:
        return arg.name if isinstance(arg, ir.Var) and arg.name in self.classes else None

    def var(self, name: str, card: str | None, column: str | None = None) -> Span:
        c = self.cards.get(card) if card is not None else None
        if name in ("ranks", "points", "zero_ranks"):  # (in a class formula: its column's)
            return self.column(name, column)
        if name in ("highest_coin", "lowest_coin"):
            return Span(min(0, self.coin_lo), self.coin_hi)
        if name == "coins_total":
            return Span(0, self.coins_held * max(0, self.coin_hi))
        if name == "heroes":
            return self._copies_of(x for x in self.cards.values() if x.kind == "hero")
        if name == "age":
            return self.ages
        if name == "copies":
            return Span(0, c.copies if c is not None else 1)
        if name == "tokens":
            return Span(0, None) if card in self.token_cards else ZERO
        if name == "track":
            track = c.track if c is not None else ()
            if not track:
                return ZERO
            return hull(*(Span(v, v) for v in track)) if card in self.advancing else Span(track[0], track[0])
        if name == "amount":  # the points a coin was bettered by
            return Span(1, max(1, self.coin_hi - self.coin_lo))
        if name == "subject_points":
            return self.subject_points
        if name == "captures":
            return Span(0, self.dwarf_copies)
        if name == "captured_points":
            return self.dwarf_points
        if name in ("trading_in_pouch", "used"):
            return BOOL
        return TOP  # a class or a kind, not a number

    def call(self, e: ir.Call, card: str | None, column: str | None = None) -> Span:
        args = e.args
        match e.name:
            case "ranks" | "points" | "zero_ranks":
                return self.column(e.name, self._class_arg(args[0]) if args else None)
            case "most_ranks" | "strict_most_ranks":
                return BOOL
            case "coins_at_least":
                least = self.span(args[0], card, column)
                return ZERO if _lo(least) > self.coin_hi else Span(0, self.coins_held)
            case "cards":
                kind = args[0].name if args and isinstance(args[0], ir.Var) else None
                return self._copies_of(x for x in self.cards.values() if x.kind == kind)
            case "param":
                return self.param(args[0].name) if args and isinstance(args[0], ir.Var) else TOP
            case "subject_ranks":
                column = self._class_arg(args[0]) if args else None
                most = [len(c.ranks_in(col)) for c in self.cards.values()
                        for col in ([column] if column else self.classes)]
                return Span(0, max(most, default=0))
            case "lookup":
                index = clamp(self.span(args[0], card, column))
                table = [self.span(a, card, column) for a in args[1:]]
                if not table:
                    return ZERO
                end = len(table) - 1  # (an index past the table's ends reads its first or last value)
                first = 0 if index.lo is None else max(0, min(end, index.lo))
                last = end if index.hi is None else max(0, min(end, index.hi))
                return hull(*table[first:last + 1])
            case "max" | "min":
                spans = [clamp(self.span(a, card, column)) for a in args]
                pick = max if e.name == "max" else min
                return _make(pick(_lo(s) for s in spans), pick(_hi(s) for s in spans))
            case _:
                return TOP

    # -- expressions ---------------------------------------------------------------------------
    def span(self, e: ir.Expr, card: str | None, column: str | None = None) -> Span:
        """What `e` can be, read by `card`'s effect (None: in a class formula), before any guard:
        an operation's span may pass MAX_VALUE (then play guards it), its operands' spans do not."""
        key = (card, column, id(e))
        hit = self._memo.get(key)
        if hit is not None and hit[0] is e:
            return hit[1]
        out = self._span(e, card, column)
        self._memo[key] = (e, out)
        return out

    def _span(self, e: ir.Expr, card: str | None, column: str | None) -> Span:
        match e:
            case ir.Num():
                return Span(e.value, e.value)
            case ir.Var():
                return self.var(e.name, card, column)
            case ir.Call():
                return self.call(e, card, column)
            case ir.BinOp():
                a, b = clamp(self.span(e.left, card, column)), clamp(self.span(e.right, card, column))
                if e.op == "/":
                    return div(a, b)
                return {"+": add, "-": sub, "*": mul}[e.op](a, b)
            case ir.Compare():
                return compare(e.op, self.span(e.left, card, column), self.span(e.right, card, column))
            case ir.Is():
                return BOOL
            case ir.Not():
                return _negate(self.span(e.operand, card, column))
            case ir.BoolOp():
                left = truth(self.span(e.left, card, column))
                right = truth(self.span(e.right, card, column))
                if e.op == "and":
                    return FALSE if left is False or right is False else TRUE if left and right else BOOL
                return TRUE if left is True or right is True else FALSE if left is False and right is False else BOOL
            case ir.IfElse():
                cond = truth(self.span(e.cond, card, column))
                if cond is not None:
                    return self.span(e.then if cond else e.otherwise, card, column)
                return hull(self.span(e.then, card, column), self.span(e.otherwise, card, column))
            case ir.CountSet():
                if e.cards.mode == "last":
                    return Span(0, len(self.classes))
                return self._copies_of(x for cid, x in self.cards.items() if self.places.may_stand_in(cid, None))
            case _:
                return TOP

    def truth(self, cond: ir.Expr, card: str | None, column: str | None = None) -> bool | None:
        """A condition's value when the rules data decides it (None: play does)."""
        return truth(self.span(cond, card, column))

    def guarded(self, e: ir.Expr, card: str | None, column: str | None = None) -> bool:
        """Whether play must guard operation `e` (`+`, `-`, `*`): its value can pass MAX_VALUE."""
        return isinstance(e, ir.BinOp) and e.op != "/" and not self.span(e, card, column).within


__all__ = ["Span", "Values", "TOP", "TRUE", "FALSE", "BOOL", "ZERO", "truth", "clamp"]
