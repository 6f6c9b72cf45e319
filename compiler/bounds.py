"""What the checker can prove of a number from its text alone: a constant's value, and the
expressions a condition proves are not 0 (so that a divisor guarded by `if D > 0` is safe). What the
rules data makes of a value is compiler/values.py's."""
from __future__ import annotations

from . import ir


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
