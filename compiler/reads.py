"""Which army columns a class formula or a card's score reads, from what compiler/names.py says each
built-in name reads: so that a consumer (the simulation's marginal points) knows which formulas and
scores a card's leaving a column cannot change. One that uses anything else reads anything (None)."""
from __future__ import annotations

from collections.abc import Collection

from . import ir
from .names import ANYTHING, ARG_COLUMN, FUNCTIONS, NO_CARD, OWN_CARD, SCORED_COLUMN, VARIABLES, Builtin
from .util import assert_never


def formula_reads(column: str, expr: ir.Expr, classes: Collection[str]) -> tuple[str, ...] | None:
    """The columns (class ids, sorted) the formula scoring `column` reads, of any player; None: it
    may read anything (a name promising nothing, a class its text does not name, a card set)."""
    found: set[str] = set()
    return tuple(sorted(found)) if _reads(expr, column, classes, found) else None


def score_reads(expr: ir.Expr, classes: Collection[str]) -> tuple[str, ...] | None:
    """The columns (class ids, sorted) a card's score reads, of any player, besides the card itself
    (its place and marks, and how many copies of it its owner holds: a reader must count a copy's
    coming or going as a change); None: it may read anything."""
    found: set[str] = set()
    return tuple(sorted(found)) if _reads(expr, None, classes, found) else None


def _reads(node: ir.Expr, column: str | None, classes: Collection[str], found: set[str]) -> bool:
    """Add what `node` reads to `found` (`column`: the column a class formula scores; None: a card's
    score, which may read its own card); False if it may read anything."""
    match node:
        case ir.Num():
            return True
        case ir.Var(name=name):
            return _builtin(VARIABLES.get(name), column, None, found)
        case ir.Call(name=name, args=args):
            first = args[0] if args else None
            named = first.name if isinstance(first, ir.Var) and first.name in classes else None
            return (_builtin(FUNCTIONS.get(name), column, named, found)
                    and all(_reads(a, column, classes, found) for a in (args[1:] if named is not None else args)))
        case ir.BinOp(left=left, right=right) | ir.Compare(left=left, right=right) | ir.BoolOp(left=left, right=right):
            return _reads(left, column, classes, found) and _reads(right, column, classes, found)
        case ir.Not(operand=operand):
            return _reads(operand, column, classes, found)
        case ir.IfElse(then=then, cond=cond, otherwise=otherwise):
            return all(_reads(x, column, classes, found) for x in (then, cond, otherwise))
        case ir.Is(subject=subject):  # a class or kind: what its subject reads
            return _reads(subject, column, classes, found)
        case ir.CountSet():  # a set of cards
            return False
        case _:
            assert_never(node)


def _builtin(builtin: Builtin | None, column: str | None, named: str | None, found: set[str]) -> bool:
    """Add what a built-in name reads (`named`: the class its first argument names) to `found`."""
    if builtin is None or builtin.reads == ANYTHING or (builtin.reads == ARG_COLUMN and named is None):
        return False
    if builtin.reads == SCORED_COLUMN:
        if column is None:
            return False  # (a card's score scores no column)
        found.add(column)
    elif builtin.reads == ARG_COLUMN and named is not None:
        found.add(named)
    elif builtin.reads == OWN_CARD:
        return column is None  # (a class formula has no card of its own)
    return builtin.reads in (SCORED_COLUMN, ARG_COLUMN, NO_CARD)
