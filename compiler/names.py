"""The one registry of the DSL's built-in names: variables and functions of expressions.

Each entry says its type, what the place it is used in must provide (`needs`), the Python the
emitter writes for it (`emit`, a template) and the message key the rule text uses. The checker,
the emitter and the rule-text renderer all read this table, so adding a name is one entry here
and one message in each catalog (a test fails when a message is missing).

Templates name the scope's Python names in braces: `{p}` the acting player, `{card}` the
effect's card, `{ev}` the event, `{col}` the column a class formula scores; `{0}`, `{1}`, …
are the arguments, `{rest}` the arguments after the first, `{args}` all of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .sources import grammar_text

INT, BOOL, CLASS = "number", "condition", "class"
KIND, PARAM = "kind", "param"   # argument types: a kind of card, a param name
VARIADIC = "..."                # repeats the argument type before it

# What a place of use provides. A class formula has a player and a column; a card's score,
# requirement and modifier a player and a card; an effect on an event what the event gives.
PLAYER, CARD, COLUMN, SUBJECT, AMOUNT = "player", "card", "column", "subject", "amount"
PROVIDES = {PLAYER: "a player", CARD: "a card", COLUMN: "the column a class formula scores",
            SUBJECT: "the card of an event", AMOUNT: "the amount of an event"}

# What a name's value reads of the players' cards (compiler/reads.py: what a class formula or a
# card's score reads): the column the formula scores, the column its first argument names, no card at
# all (coins, the age, its arguments alone), the card it is about itself (its place, its marks, how many
# copies of it its owner holds: what only that card, or one of its copies, coming or going changes),
# or anything (the default: nothing is promised).
SCORED_COLUMN, ARG_COLUMN, NO_CARD, OWN_CARD, ANYTHING = (
    "scored column", "argument's column", "no card", "own card", "anything")


@dataclass(frozen=True)
class Builtin:
    name: str
    type: str                        # the result type
    needs: frozenset[str]
    emit: str
    message: str                          # its catalog key ("": phrased as its value, as `param(x)` is)
    args: tuple[str, ...] | None = None   # None: a variable; else a function's argument types
    reads: str = ANYTHING                 # what its value reads of the cards (above)


def _var(name: str, type_: str, needs: set[str], emit: str, reads: str = ANYTHING) -> Builtin:
    return Builtin(name, type_, frozenset(needs), emit, f"var.{name}", reads=reads)


def _fn(name: str, args: tuple[str, ...], type_: str, needs: set[str], emit: str,
        message: str | None = None, reads: str = ANYTHING) -> Builtin:
    return Builtin(name, type_, frozenset(needs), emit, f"call.{name}" if message is None else message, args, reads)


VARIABLES: dict[str, Builtin] = {b.name: b for b in (
    _var("ranks", INT, {PLAYER, COLUMN}, "g.ranks({p}, {col})", SCORED_COLUMN),
    _var("points", INT, {PLAYER, COLUMN}, "g.points({p}, {col})", SCORED_COLUMN),
    _var("zero_ranks", INT, {PLAYER, COLUMN}, "g.zero_ranks({p}, {col})", SCORED_COLUMN),
    _var("highest_coin", INT, {PLAYER}, "g.highest_coin({p})", NO_CARD),
    _var("lowest_coin", INT, {PLAYER}, "g.lowest_coin({p})", NO_CARD),
    _var("coins_total", INT, {PLAYER}, "g.coins_total({p})", NO_CARD),
    _var("heroes", INT, {PLAYER}, "g.heroes({p})"),
    _var("trading_in_pouch", BOOL, {PLAYER}, "g.trading_in_pouch({p})", NO_CARD),
    _var("age", INT, set(), "g.age", NO_CARD),
    _var("copies", INT, {PLAYER, CARD}, "g.copies({p}, {card})", OWN_CARD),
    _var("column", CLASS, {CARD}, "g.column_of({card})", OWN_CARD),
    _var("tokens", INT, {CARD}, "g.tokens({card})", OWN_CARD),
    _var("track", INT, {CARD}, "g.track_value({card})", OWN_CARD),
    _var("chosen_class", CLASS, {CARD}, "g.chosen_class({card})", OWN_CARD),
    _var("amount", INT, {AMOUNT}, "{ev}.amount"),
    _var("subject_class", CLASS, {SUBJECT}, "g.card_class({ev}.subject)"),
    _var("subject_kind", KIND, {SUBJECT}, "g.card_kind({ev}.subject)"),
    _var("subject_points", INT, {SUBJECT}, "g.card_points({ev}.subject)"),
    _var("captures", INT, {CARD}, "g.captures({card})", OWN_CARD),
    _var("captured_points", INT, {CARD}, "g.captured_points({card})", OWN_CARD),
    _var("used", BOOL, {CARD}, "g.used({card})", OWN_CARD),
)}

FUNCTIONS: dict[str, Builtin] = {b.name: b for b in (
    _fn("ranks", (CLASS,), INT, {PLAYER}, "g.ranks({p}, {0})", reads=ARG_COLUMN),
    _fn("points", (CLASS,), INT, {PLAYER}, "g.points({p}, {0})", reads=ARG_COLUMN),
    _fn("zero_ranks", (CLASS,), INT, {PLAYER}, "g.zero_ranks({p}, {0})", reads=ARG_COLUMN),
    _fn("most_ranks", (CLASS,), BOOL, {PLAYER}, "g.most_ranks({p}, {0})", reads=ARG_COLUMN),
    _fn("strict_most_ranks", (CLASS,), BOOL, {PLAYER}, "g.strict_most_ranks({p}, {0})", reads=ARG_COLUMN),
    _fn("coins_at_least", (INT,), INT, {PLAYER}, "g.coins_at_least({p}, {0})", reads=NO_CARD),
    _fn("cards", (KIND,), INT, {PLAYER}, "g.cards_of_kind({p}, {0})"),
    _fn("param", (PARAM,), INT, {PLAYER}, "g.param({p}, {0})", message=""),  # the text shows its value
    _fn("subject_ranks", (CLASS,), INT, {SUBJECT}, "g.ranks_of({ev}.subject, {0})"),
    _fn("lookup", (INT, INT, VARIADIC), INT, set(), "_lookup({0}, ({rest},))", message="lookup", reads=NO_CARD),
    _fn("max", (INT, INT, VARIADIC), INT, set(), "max({args})", reads=NO_CARD),
    _fn("min", (INT, INT, VARIADIC), INT, set(), "min({args})", reads=NO_CARD),
)}

# Names a class may never have (besides the keywords): what a column holds when it holds none.
CLASS_RESERVED = frozenset({"neutral", "none"})


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Every word the grammar spells out (`when`, `if`, `count`, `dwarf`, …)."""
    return frozenset(re.findall(r'"([a-z][a-z_]*)"', grammar_text()))


def reserved_words() -> frozenset[str]:
    """The words an id of the rules data may not be: DSL variables, functions and keywords."""
    return frozenset(VARIABLES) | frozenset(FUNCTIONS) | keywords()


def what_it_is(word: str) -> str:
    """How the DSL already uses `word` (for the error that refuses it as an id)."""
    uses = []
    if word in VARIABLES:
        uses.append("a variable")
    if word in FUNCTIONS:
        uses.append("a function")
    if word in keywords():
        uses.append("a keyword")
    if word in CLASS_RESERVED:
        uses.append("the class of a card that has none" if word == "neutral" else "the lack of a class")
    return " and ".join(uses) or "a name"


def expand(template: str, scope: dict[str, str], args: list[str] | None = None) -> str:
    """A template with the scope's names and the arguments' Python filled in."""
    args = args or []
    values = dict(scope, rest=", ".join(args[1:]), args=", ".join(args))
    return template.format(*args, **values)
