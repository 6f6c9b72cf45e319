"""Resolve names and check types in effect IR against the merged rules data."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ir
from .diagnostics import suggest

INT, BOOL, CLASS = "number", "condition", "class"

# Functions an expression may call: name -> (argument types, result type). `...` repeats the last.
FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "ranks": ((CLASS,), INT),
    "points": ((CLASS,), INT),
    "most_ranks": ((CLASS,), BOOL),
    "strict_most_ranks": ((CLASS,), BOOL),
    "param": (("param",), INT),
    "lookup": ((INT, INT, "..."), INT),
    "max": ((INT, INT, "..."), INT),
    "min": ((INT, INT, "..."), INT),
    "coins_at_least": ((INT,), INT),
    "cards": (("kind",), INT),
    "zero_ranks": ((CLASS,), INT),
    "subject_ranks": ((CLASS,), INT),
}
# Functions and variables that read the event a handler reacts to.
EVENT_ONLY = frozenset({"subject_ranks", "amount", "subject_class"})

# Variables: name -> (type, contexts where it exists). Contexts: card, column, trigger.
VARIABLES: dict[str, tuple[str, frozenset[str]]] = {
    "ranks": (INT, frozenset({"column"})),
    "points": (INT, frozenset({"column"})),
    "highest_coin": (INT, frozenset({"card", "column", "trigger"})),
    "lowest_coin": (INT, frozenset({"card", "column", "trigger"})),
    "coins_total": (INT, frozenset({"card", "column", "trigger"})),
    "copies": (INT, frozenset({"card", "trigger"})),
    "heroes": (INT, frozenset({"card", "column", "trigger"})),
    "age": (INT, frozenset({"card", "column", "trigger"})),
    "column": (CLASS, frozenset({"card", "trigger"})),
    "zero_ranks": (INT, frozenset({"column"})),
    "tokens": (INT, frozenset({"card", "trigger"})),
    "track": (INT, frozenset({"card", "trigger"})),
    "chosen_class": (CLASS, frozenset({"card", "trigger"})),
    "trading_in_pouch": (BOOL, frozenset({"card", "trigger"})),
    "amount": (INT, frozenset({"trigger"})),
    "subject_class": (CLASS, frozenset({"trigger"})),
}


@dataclass
class Names:
    classes: set[str]
    events: set[str]
    params: set[str]
    coins: set[str]
    gems: set[int]
    cards: set[str]
    ages: set[int]
    kinds: set[str] = field(default_factory=set)


@dataclass
class Problem:
    pos: int  # offset in the DSL string
    message: str
    hint: str | None = None


@dataclass
class Checker:
    names: Names
    context: str  # card | column | trigger
    problems: list[Problem] = field(default_factory=list)

    def fail(self, node: ir.Node, message: str, hint: str | None = None, at_arg: bool = False) -> None:
        """Report a problem at `node` (with `at_arg`: at the name or number it resolves)."""
        self.problems.append(Problem(getattr(node, "arg_pos", node.pos) if at_arg else node.pos, message, hint))

    # -- expressions --------------------------------------------------------------------
    def expr(self, node: ir.Expr, want: str | None = None) -> str | None:
        got = self._expr(node)
        if want and got and got != want:
            self.fail(node, f"expected a {want} here, got a {got}")
        return got

    def _expr(self, node: ir.Expr) -> str | None:
        if isinstance(node, ir.Num):
            return INT
        if isinstance(node, ir.Var):
            return self.var(node)
        if isinstance(node, ir.Call):
            return self.call(node)
        if isinstance(node, ir.BinOp):
            self.expr(node.left, INT)
            self.expr(node.right, INT)
            return INT
        if isinstance(node, ir.Compare):
            self.expr(node.left, INT)
            self.expr(node.right, INT)
            return BOOL
        if isinstance(node, ir.Is):
            self.expr(node.subject, CLASS)
            if node.name not in self.names.classes | {"none"}:
                self.fail(node, f"unknown class `{node.name}`", suggest(node.name, self.names.classes), True)
            return BOOL
        if isinstance(node, ir.Not):
            self.expr(node.operand, BOOL)
            return BOOL
        if isinstance(node, ir.BoolOp):
            self.expr(node.left, BOOL)
            self.expr(node.right, BOOL)
            return BOOL
        if isinstance(node, ir.IfElse):
            self.expr(node.cond, BOOL)
            then = self.expr(node.then)
            self.expr(node.otherwise, then)
            return then
        if isinstance(node, ir.CountSet):
            if self.context != "trigger" and self.context != "card":
                self.fail(node, "`count(...)` of cards needs a card: use it in a card's effect")
            return INT
        raise AssertionError(node)  # pragma: no cover

    def var(self, node: ir.Var) -> str | None:
        if node.name in self.names.classes:
            return CLASS
        spec = VARIABLES.get(node.name)
        if spec is None:
            self.fail(node, f"unknown name `{node.name}`",
                      suggest(node.name, list(VARIABLES) + sorted(self.names.classes)))
            return None
        kind, contexts = spec
        if self.context not in contexts:
            where = {"column": "a class formula", "card": "a card's score", "trigger": "a card's effect"}
            self.fail(node, f"`{node.name}` cannot be used in {where[self.context]}",
                      f"`{node.name}` exists in: " + ", ".join(sorted(where[c] for c in contexts)))
        return kind

    def call(self, node: ir.Call) -> str | None:
        spec = FUNCTIONS.get(node.name)
        if spec is None:
            self.fail(node, f"unknown function `{node.name}`", suggest(node.name, FUNCTIONS))
            for a in node.args:
                self._expr(a)
            return None
        params, result = spec
        variadic = params[-1] == "..."
        fixed = params[:-1] if variadic else params
        if len(node.args) < len(fixed) or (not variadic and len(node.args) > len(fixed)):
            n = f"at least {len(fixed)}" if variadic else str(len(fixed))
            self.fail(node, f"`{node.name}` takes {n} argument(s), got {len(node.args)}")
            return result
        if node.name in EVENT_ONLY and self.context != "trigger":
            self.fail(node, f"`{node.name}(...)` reads the event: use it in a `when`, `whenever` or `instead of` effect")
        for i, arg in enumerate(node.args):
            kind = fixed[min(i, len(fixed) - 1)]
            if kind == "kind":
                if not isinstance(arg, ir.Var) or arg.name not in self.names.kinds:
                    name = arg.name if isinstance(arg, ir.Var) else "this"
                    self.fail(arg, f"`{name}` is not a kind of card", suggest(name, self.names.kinds))
            elif kind == "param":
                if not isinstance(arg, ir.Var):
                    self.fail(arg, "`param(...)` takes the name of a param")
                elif arg.name not in self.names.params:
                    self.fail(arg, f"unknown param `{arg.name}`", suggest(arg.name, self.names.params))
            elif kind == CLASS:
                if isinstance(arg, ir.Var) and VARIABLES.get(arg.name, (None,))[0] == CLASS:
                    self.var(arg)  # a class-valued variable such as `chosen_class`
                elif not isinstance(arg, ir.Var) or arg.name not in self.names.classes:
                    name = arg.name if isinstance(arg, ir.Var) else "this"
                    self.fail(arg, f"`{name}` is not a class", suggest(name, self.names.classes))
            else:
                self.expr(arg, kind)
        return result

    # -- effects and actions ---------------------------------------------------------
    def effect(self, effect: ir.Effect) -> None:
        if isinstance(effect, ir.Triggered):
            self.event(effect, effect.event)
            if effect.age is not None and effect.age not in self.names.ages:
                self.fail(effect, f"there is no age {effect.age}",
                          "ages: " + ", ".join(map(str, sorted(self.names.ages))), True)
            if effect.cond is not None:
                self.expr(effect.cond, BOOL)
            self.actions(effect.actions)
        elif isinstance(effect, ir.Replacement):
            self.event(effect, effect.event)
            if effect.cond is not None:
                self.expr(effect.cond, BOOL)
            self.actions(effect.actions, replacement=True)
        elif isinstance(effect, ir.Modifier):
            if effect.param not in self.names.params:
                self.fail(effect, f"unknown param `{effect.param}`", suggest(effect.param, self.names.params))
            self.expr(effect.amount, INT)
        elif isinstance(effect, ir.Requirement):
            self.expr(effect.cond, BOOL)
        elif isinstance(effect, ir.Score):
            self.expr(effect.expr, INT)
        elif isinstance(effect, ir.Enters):
            self.place(effect.place)

    def event(self, node: ir.Node, name: str) -> None:
        if name not in self.names.events:
            self.fail(node, f"unknown event `{name}`", suggest(name, self.names.events))

    def place(self, place: ir.Place) -> None:
        for column in ((place.column,) if place.mode == "column" else place.among):
            if column not in self.names.classes:
                self.fail(place, f"unknown column `{column}`", suggest(column or "", self.names.classes), True)

    def deck(self, deck: ir.Deck) -> None:
        if deck.age is not None and deck.age not in self.names.ages:
            self.fail(deck, f"there is no age {deck.age} deck")

    def actions(self, actions: tuple[ir.Action, ...], replacement: bool = False) -> None:
        for a in actions:
            self.action(a, replacement)

    def action(self, a: ir.Action, replacement: bool) -> None:
        if isinstance(a, ir.Transform):
            self.expr(a.amount, INT)
        elif isinstance(a, ir.Exchange):
            if a.coin not in self.names.coins:
                self.fail(a, f"unknown coin `{a.coin}`", suggest(a.coin, self.names.coins), True)
        elif isinstance(a, ir.GainGem):
            if a.value not in self.names.gems:
                self.fail(a, f"there is no special gem {a.value}",
                          "special gems: " + ", ".join(map(str, sorted(self.names.gems))), True)
        elif isinstance(a, (ir.PlaceCard, ir.PlaceUnder)):
            if a.card.card is not None and a.card.card not in self.names.cards:
                self.fail(a.card, f"unknown card `{a.card.card}`", suggest(a.card.card, self.names.cards))
            if isinstance(a, ir.PlaceCard):
                self.place(a.place)
            else:
                self.deck(a.deck)
        elif isinstance(a, ir.Discard):
            self.expr(a.count, INT)
            if a.cards.only is not None and a.cards.only not in self.names.classes:
                self.fail(a.cards, f"unknown column `{a.cards.only}`", suggest(a.cards.only, self.names.classes))
        elif isinstance(a, (ir.DiscardTop, ir.Look)):
            self.deck(a.deck)
            if isinstance(a, ir.Look):
                self.expr(a.count, INT)
                self.expr(a.take, INT)
        elif isinstance(a, ir.TakeFrom):
            self.expr(a.count, INT)
        elif isinstance(a, ir.ReturnHero):
            if a.cls not in self.names.classes | {"neutral"}:
                self.fail(a, f"unknown class `{a.cls}`", suggest(a.cls, self.names.classes | {"neutral"}), True)
        elif isinstance(a, ir.AdvanceTrack):
            if a.steps is not None:
                self.expr(a.steps, INT)
        elif isinstance(a, ir.Tokens):
            self.expr(a.amount, INT)
        elif isinstance(a, ir.Simple):
            if a.name in ("cancel", "capture") and not replacement:
                self.fail(a, f"`{a.name}` only makes sense in an `instead of` effect")
        elif isinstance(a, ir.EachOther):
            self.action(a.action, replacement)
