"""Helpers the compiled handlers import: small functions, total except where the rules say why.

MAX_VALUE bounds every number the rules compute (issue 17 §7): a score, a param, a count, an amount,
the tokens a card holds, each result of `+`, `-` and `*`. The checker refuses an expression that is
beyond it in every state and warns of one that can be (compiler/values.py); in play, the operations
it cannot bound are guarded here, one step at a time, so no value grows past the bound before it is
stopped (and Python never builds a huge integer), and the runtime guards the values it sums itself
(a param's modifiers, the points of a column, a card's tokens). Totals of scores are sums of at most
a few thousand such values: they stay far within a 64-bit integer.
"""
from __future__ import annotations

from nidavellir.errors import RulesRuntimeError

MAX_VALUE = 10 ** 9


def beyond(value: int, where: str, what: str) -> RulesRuntimeError:
    """The error for a computed value past MAX_VALUE: located at `where` (`file:line:col`); `what`
    says what it is, with `{}` where the value goes."""
    shown = f"{value:,}" if abs(value) < 10 ** 40 else f"{'-' if value < 0 else ''}more than 10^40"
    return RulesRuntimeError(f"{where}: {what.format(shown)}, beyond ±{MAX_VALUE:,}, the bound on every number "
                             "the rules compute; the game stopped there (bound it, e.g. with `min(..., N)`)")


def bound(value: int, where: str, who: str) -> int:
    """`value`, if it is within MAX_VALUE; else the located error (`who`: whose expression it is)."""
    if -MAX_VALUE <= value <= MAX_VALUE:
        return value
    raise beyond(value, where, f"this value of {who} is {{}} here")


def product(factors: tuple[int, ...], where: str, who: str) -> int:
    """The product of `factors`, checked as it is multiplied: it stops at the first partial product
    past MAX_VALUE (so it never grows beyond MAX_VALUE squared)."""
    out = 1
    for factor in factors:
        out *= factor
        if not -MAX_VALUE <= out <= MAX_VALUE:
            raise beyond(out, where, f"this value of {who} is {{}} here")
    return out


def lookup(index: int, table: tuple[int, ...]) -> int:
    """`table[index]`, clamped to the table's ends."""
    if not table:
        return 0
    return table[max(0, min(index, len(table) - 1))]


def div(a: int, b: int, where: str) -> int:
    """Integer division rounding down. A divisor of 0 is a rules error located at `where` (the
    divisor's `file:line:col`), never a silent value: `x / 0` has none."""
    if b == 0:
        raise RulesRuntimeError(f"{where}: division by zero: this divisor is 0 here ({a} / 0), "
                                "and `/` has no value for it; guard it (`... if D > 0 else ...`) "
                                "or divide by `max(1, D)`")
    return a // b
