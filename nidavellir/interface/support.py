"""Helpers the compiled handlers import: small functions, total except where the rules say why."""
from __future__ import annotations

from nidavellir.errors import RulesRuntimeError


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
