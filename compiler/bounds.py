"""What the checker can prove of a number without playing: a constant's value, a lower bound, and
the expressions a condition proves are not 0 (so that a divisor guarded by `if D > 0` is safe)."""
from __future__ import annotations

from . import ir

# Values that are never negative (counts, coins, ranks) and never below 1 (`amount`: a coin is
# bettered only when it gains at least 1).
_NONNEGATIVE_VARS = frozenset({"ranks", "zero_ranks", "highest_coin", "lowest_coin", "coins_total", "heroes",
                               "copies", "tokens", "captures", "captured_points", "subject_points"})
_NONNEGATIVE_CALLS = frozenset({"ranks", "zero_ranks", "coins_at_least", "cards", "subject_ranks"})
_LEAST_VARS = {"amount": 1}


def constant(e: ir.Expr) -> int | None:
    """The value of an expression that does not depend on the game: numbers only, 0 times anything,
    or anything minus itself (an expression has one value while it is worked out; None: it depends on
    the game)."""
    if isinstance(e, ir.Num):
        return e.value
    if isinstance(e, ir.BinOp):
        a, b = constant(e.left), constant(e.right)
        if (e.op == "*" and 0 in (a, b)) or (e.op == "-" and e.left == e.right):
            return 0
        if a is None or b is None:
            return None
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        return a // b if b else None
    return None


def least(e: ir.Expr, first_age: int = 1) -> int | None:
    """A value `e` is never below (None: none is known)."""
    value = constant(e)
    if value is not None:
        return value
    match e:
        case ir.Var():
            if e.name == "age":
                return first_age
            return 0 if e.name in _NONNEGATIVE_VARS else _LEAST_VARS.get(e.name)
        case ir.Call():
            if e.name in _NONNEGATIVE_CALLS:
                return 0
            bounds = [least(a, first_age) for a in e.args]
            known = [b for b in bounds if b is not None]
            if e.name == "max" and known:
                return max(known)
            if e.name in ("min", "lookup") and len(known) == len(bounds):
                return min(known[1:] if e.name == "lookup" else known)
            return None
        case ir.CountSet():
            return 0
        case ir.BinOp():
            a, b = least(e.left, first_age), least(e.right, first_age)
            if a is None or b is None:
                return None
            if e.op == "+":
                return a + b
            if e.op == "*" and a >= 0 and b >= 0:
                return a * b
            if e.op == "/" and a >= 0 and b >= 1:
                return 0
            return None
        case ir.IfElse():
            a, b = least(e.then, first_age), least(e.otherwise, first_age)
            return None if a is None or b is None else min(a, b)
        case _:
            return None


_FLIP = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}
_NEGATE = {">": "<=", "<": ">=", ">=": "<", "<=": ">", "==": "!=", "!=": "=="}


def nonzero_when(cond: ir.Expr, truth: bool = True) -> frozenset[ir.Expr]:
    """The expressions that are not 0 whenever `cond` is `truth` (`D > 0`, `D != 0`, `not D == 0`,
    `D >= 1 and …`; IR nodes compare without their positions)."""
    match cond:
        case ir.Not():
            return nonzero_when(cond.operand, not truth)
        case ir.BoolOp():
            left, right = nonzero_when(cond.left, truth), nonzero_when(cond.right, truth)
            both = (cond.op == "and") == truth  # `a and b` true, or `a or b` false: both sides hold
            return left | right if both else left & right
        case ir.Compare():
            op, subject, k = cond.op, cond.left, constant(cond.right)
            if k is None:
                op, subject, k = _FLIP[op], cond.right, constant(cond.left)
            if k is None or constant(subject) is not None:
                return frozenset()
            if not truth:
                op = _NEGATE[op]
            excludes_zero = {">": k >= 0, ">=": k >= 1, "<": k <= 0, "<=": k <= -1, "==": k != 0, "!=": k == 0}[op]
            return frozenset({subject}) if excludes_zero else frozenset()
        case _:
            return frozenset()
