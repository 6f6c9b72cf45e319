"""The checks that read what each value can be (compiler/values.py), on every expression of every
effect and class formula, each problem located at its node:

- **magnitude** (issue 17 §7): an operation whose value is beyond ±MAX_VALUE in every state (a
  product of constants) is an error; one that can pass it (a product of reads whose bounds multiply
  past it) is a warning — play guards it and stops there with a located error. Only the innermost
  such operation is reported; an open sum (tokens plus one) is guarded in play and not reported.
- **divisors** (issue 17 §2): a divisor that is always 0 as the rules data stands (a param no card
  modifies, tokens no effect adds, a track never advanced, a constant condition) is an error; one
  that can be 0 is a warning unless a condition around it proves it is not (`… if D > 0 else …`).
  A literal 0 (`/ 0`, `/ (2 - 2)`) the name checker refuses already.
- **amounts** (README, the effect DSL): an action's amount of 0 or less does nothing; one that is
  always so (`transform … by 0 - 7`, `advance track by 0`) is refused: that action could never act.
- **conditions**: an effect's condition that is always false is a warning: the effect never acts.

A branch a constant condition never takes is not checked (it never runs): `10 / D if D > 0 else 0`
with D always 0 is sound.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from nidavellir.interface.support import MAX_VALUE

from . import ir
from .bounds import constant, nonzero_when
from .diagnostics import Diagnostics, Location
from .values import Span, Values

CAN_BE_ZERO = "this divisor can be 0, and dividing by 0 stops the game with an error"
ZERO_HINT = "`/` divides and rounds down; it has no value for a divisor of 0"
BOUND_HINT = (f"every number the rules compute (a score, a param, an amount) stays within ±{MAX_VALUE:,}: "
              "bound it with `min(..., N)`, or multiply fewer values")
AMOUNT_HINT = "an amount of 0 or less does nothing (README, the effect DSL: amounts)"


@dataclass(frozen=True)
class Item:
    """An effect of a card (or a class formula, with `card` None) and where its DSL text is."""
    card: str | None
    node: ir.Effect | ir.Expr
    locate: Callable[[int], Location]
    column: str | None = None  # a class formula's class: its `ranks`, `points`, `zero_ranks` are that column's


def check_values(values: Values, items: Iterable[Item], diags: Diagnostics) -> None:
    for item in items:
        walk = _Walk(values, item, diags)
        if isinstance(item.node, (ir.Triggered, ir.Replacement, ir.Modifier, ir.Requirement, ir.Score,
                                  ir.Enters, ir.CaptureNext)):
            walk.effect(item.node)
        else:
            walk.expr(item.node)


def _fmt(v: int) -> str:
    return f"{v:,}"


# What each action's amount counts, the least that acts, and what a smaller one means.
_AMOUNTS = {
    "transform": ("the amount", 1, "a coin is transformed only by 1 or more, so this never transforms one"),
    "advance": ("the number of notches", 1, "a token advances only by 1 notch or more, so this never moves it"),
    "add": ("the number of tokens", 1, "only 1 token or more is added, so this never adds one"),
    "remove": ("the number of tokens", 1, "only 1 token or more is removed, so this never removes one"),
    "discard": ("the number of cards", 1, "only 1 card or more is discarded, so this never discards one"),
    "look": ("the number of cards", 1, "only 1 card or more is looked at, so this never looks at one"),
    "keep": ("the number of cards kept", 0, "it keeps 0 cards or more"),
    "take": ("the number of cards", 1, "only 1 card or more is taken, so this never takes one"),
}


@dataclass
class _Walk:
    values: Values
    item: Item
    diags: Diagnostics
    nonzero: frozenset[ir.Expr] = field(default_factory=frozenset)

    @property
    def card(self) -> str | None:
        return self.item.card

    def span(self, e: ir.Expr) -> Span:
        return self.values.span(e, self.card, self.item.column)

    def error(self, node: ir.Node, message: str, hint: str | None = None) -> None:
        self.diags.error(self.item.locate(node.pos), message, hint)

    def warning(self, node: ir.Node, message: str, hint: str | None = None) -> None:
        self.diags.warning(self.item.locate(node.pos), message, hint)

    @contextmanager
    def guarded(self, cond: ir.Expr, truth: bool) -> Iterator[None]:
        outer = self.nonzero
        self.nonzero = outer | nonzero_when(cond, truth)
        try:
            yield
        finally:
            self.nonzero = outer

    # -- expressions ----------------------------------------------------------------------------
    def expr(self, e: ir.Expr) -> bool:
        """Check `e` where it runs; True when a problem of magnitude was reported in it (its
        enclosing operations then say nothing more)."""
        match e:
            case ir.BinOp():
                bad = self.expr(e.left) | self.expr(e.right)
                if e.op == "/":
                    self.divisor(e.right)
                    return bad
                return bad or self.magnitude(e)
            case ir.Compare():
                return self.expr(e.left) | self.expr(e.right)
            case ir.Call():
                return any([self.expr(a) for a in e.args])
            case ir.Not():
                return self.expr(e.operand)
            case ir.Is():
                return self.expr(e.subject)
            case ir.BoolOp():
                bad = self.expr(e.left)
                left = self.values.truth(e.left, self.card, self.item.column)
                if left is (e.op == "or"):  # decided by the left side: the right one never runs
                    return bad
                with self.guarded(e.left, e.op == "and"):
                    return self.expr(e.right) or bad
            case ir.IfElse():
                bad = self.expr(e.cond)
                cond = self.values.truth(e.cond, self.card, self.item.column)
                if cond is not False:
                    with self.guarded(e.cond, True):
                        bad = self.expr(e.then) or bad
                if cond is not True:
                    with self.guarded(e.cond, False):
                        bad = self.expr(e.otherwise) or bad
                return bad
            case _:
                return False

    def magnitude(self, e: ir.BinOp) -> bool:
        s = self.span(e)
        if s.within:
            return False
        if (s.lo is not None and s.lo > MAX_VALUE) or (s.hi is not None and s.hi < -MAX_VALUE):
            at = f"{_fmt(s.lo)} or more" if s.lo is not None and s.lo > MAX_VALUE else f"{_fmt(s.hi or 0)} or less"
            if s.const is not None:
                at = _fmt(s.const)
            self.error(e, f"this value is always {at}, beyond ±{MAX_VALUE:,}: the rules compute no number "
                          "beyond that bound", BOUND_HINT)
        elif s.hi is not None and s.hi > MAX_VALUE or s.lo is not None and s.lo < -MAX_VALUE:
            reach = _fmt(s.hi) if s.hi is not None and s.hi > MAX_VALUE else _fmt(s.lo or 0)
            self.warning(e, f"this value can reach {reach}, beyond ±{MAX_VALUE:,}, the bound on every number the "
                            "rules compute: where it does, play stops with an error", BOUND_HINT)
        elif e.op == "*" and self.span(e.left).const is None and self.span(e.right).const is None:
            self.warning(e, "this product of values the rules data does not bound can grow beyond "
                            f"±{MAX_VALUE:,}, the bound on every number the rules compute: where it does, play "
                            "stops with an error", BOUND_HINT)
        else:
            return False  # (an open sum: guarded in play)
        return True

    def param_sum(self, e: ir.Modifier, name: str, s: Span) -> None:
        """A param whose modifiers add up past the bound (the runtime adds them: core.param)."""
        if (s.lo is not None and s.lo > MAX_VALUE) or (s.hi is not None and s.hi < -MAX_VALUE):
            self.error(e, f"with this modifier, param `{name}` is always beyond ±{MAX_VALUE:,}: the rules compute "
                          "no number beyond that bound", BOUND_HINT)
            return
        reach = _fmt(s.hi) if s.hi is not None and s.hi > MAX_VALUE else _fmt(s.lo or 0)
        self.warning(e, f"with this modifier, param `{name}` can reach {reach} (its value and what every modifier a "
                        f"player's cards may hold adds), beyond ±{MAX_VALUE:,}, the bound on every number the rules "
                        "compute: where it does, play stops with an error", BOUND_HINT)

    def divisor(self, d: ir.Expr) -> None:
        if constant(d) == 0:
            return  # (the name checker refused it)
        s = self.span(d)
        if s.const == 0:
            why = "; ".join(self.zero_reasons(d))
            self.error(d, "division by zero: this divisor is always 0" + (f" ({why})" if why else ""), ZERO_HINT)
        elif s.has(0) and d not in self.nonzero:
            self.warning(d, CAN_BE_ZERO, "divide by `max(1, ...)`, or guard it: `... / D if D > 0 else ...`")

    def zero_reasons(self, e: ir.Expr) -> list[str]:
        """Why the reads in `e` have the values they have, in words (for a divisor always 0)."""
        out: list[str] = []
        for node in ir.walk(e):
            if isinstance(node, ir.Call) and node.name == "param" and node.args and isinstance(node.args[0], ir.Var):
                name = node.args[0].name
                value = self.values.param(name).const
                if value is not None:
                    mods = self.values.mods.get(name)
                    out.append(f"param `{name}` is always {value}: " +
                               ("its modifiers keep it there" if mods else "no card modifies it"))
            elif isinstance(node, ir.Var) and node.name == "tokens" and self.span(node).const == 0:
                out.append(f"`{self.card}` never holds a token: no effect of it adds one")
            elif isinstance(node, ir.Var) and node.name == "track" and self.span(node).const is not None:
                out.append(f"`{self.card}`'s track never leaves its first notch, "
                           f"worth {self.span(node).const}: no effect of it advances it")
            elif isinstance(node, ir.IfElse) and self.values.truth(node.cond, self.card, self.item.column) is not None:
                out.append("a condition in it is always " + str(self.values.truth(node.cond, self.card, self.item.column)).lower())
        return list(dict.fromkeys(out))

    def amount(self, e: ir.Expr, what: str) -> None:
        self.expr(e)
        subject, least, why = _AMOUNTS[what]
        s = self.span(e)
        if s.hi is not None and s.hi < least:
            shown = _fmt(s.const) if s.const is not None else f"{_fmt(s.hi)} or less"
            self.error(e, f"{subject} is always {shown}: {why}", AMOUNT_HINT)

    # -- effects and actions ------------------------------------------------------------------
    def effect(self, e: ir.Effect) -> None:
        match e:
            case ir.Triggered() | ir.Replacement():
                if e.cond is None:
                    self.actions(e.actions)
                    return
                self.expr(e.cond)
                if self.values.truth(e.cond, self.card, self.item.column) is False:
                    self.warning(e.cond, "this condition is always false as the rules data stands, so the "
                                         "effect never acts", "remove the effect, or what makes its condition "
                                                              "false")
                    return
                with self.guarded(e.cond, True):
                    self.actions(e.actions)
            case ir.Modifier():
                over = self.values.over.get(id(e))
                if not self.expr(e.amount) and over is not None and over[2] is e:
                    self.param_sum(e, over[0], over[1])
            case ir.Requirement():
                self.expr(e.cond)
            case ir.Score():
                self.expr(e.expr)
            case ir.Enters() | ir.CaptureNext():
                pass

    def actions(self, actions: tuple[ir.Action, ...]) -> None:
        for a in actions:
            self.action(a)

    def action(self, a: ir.Action) -> None:
        match a:
            case ir.Act():
                for operand, arg in a.operands():
                    if operand.verb is not None:
                        for amount in ir.amounts(arg):
                            self.amount(amount, operand.verb)
            case ir.Then():
                self.action(a.first)
                self.action(a.rest)
            case ir.EachOther():
                self.action(a.action)
            case _:
                pass


__all__ = ["Item", "check_values", "CAN_BE_ZERO"]
