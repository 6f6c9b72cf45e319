"""Helpers the compiled handlers import: small, total functions."""
from __future__ import annotations


def lookup(index: int, table: tuple[int, ...]) -> int:
    """`table[index]`, clamped to the table's ends."""
    if not table:
        return 0
    return table[max(0, min(index, len(table) - 1))]


def div(a: int, b: int) -> int:
    """Integer division rounding down; dividing by 0 gives 0."""
    return a // b if b else 0
