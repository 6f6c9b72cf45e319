"""Resolve names and check types in effect IR against the merged rules data and what the runtime
fires (nidavellir.interface.events): an effect that passes can act."""
from __future__ import annotations

from dataclasses import dataclass, field

from nidavellir.errors import count_of, suggest
from nidavellir.interface.events import (
    FORMS,
    INSTEAD,
    INSTEAD_ANY,
    WHEN,
    WHENEVER,
    EventSpec,
)
from nidavellir.interface.mechanisms import ACTION_SPECS, COIN, FROM_ZONE, GEM, HERO_CLASS

from . import ir
from .bounds import constant
from .box_cards import card_hint
from .names import (
    AMOUNT,
    BOOL,
    CARD,
    CLASS,
    COLUMN,
    FUNCTIONS,
    INT,
    KIND,
    PARAM,
    PLAYER,
    PROVIDES,
    SUBJECT,
    VARIABLES,
    VARIADIC,
)
from .util import assert_never


@dataclass
class Names:
    """What the rules define, for resolving names."""
    classes: set[str]
    events: dict[str, EventSpec]   # the events effects may name: declared and listed, and the windows
    params: set[str]
    coins: set[str]
    gems: set[int]
    cards: set[str]
    ages: set[int]
    kinds: set[str] = field(default_factory=set)
    undeclared: set[str] = field(default_factory=set)  # runtime events the rules do not list
    zones: dict[str, bool] = field(default_factory=dict)  # declared face-up zones -> whether effects explore them
    decks: set[str] = field(default_factory=set)  # zones that hold face-down decks


@dataclass(frozen=True)
class Scope:
    """Where an expression or action is used: what that place provides, in words for messages."""
    where: str
    provides: frozenset[str]
    replacement: bool = False
    event: str | None = None


MAX_NUMBER = 1_000_000  # a number in an effect beyond this is a typo, and could only make play slow

CLASS_FORMULA = Scope("a class formula", frozenset({PLAYER, COLUMN}))
CARD_VALUE = Scope("a card's score", frozenset({PLAYER, CARD}))


def event_scope(spec: EventSpec, replacement: bool) -> Scope:
    provides = {CARD}
    if spec.player:
        provides.add(PLAYER)
    if spec.subject:
        provides.add(SUBJECT)
    if spec.amount:
        provides.add(AMOUNT)
    return Scope(f"an effect on `{spec.name}`", frozenset(provides), replacement, spec.name)


@dataclass
class Problem:
    pos: int  # offset in the DSL string
    message: str
    hint: str | None = None
    warning: bool = False  # legal but likely wrong (the effect still compiles)


def form_text(form: str, event: str) -> str:
    return {WHEN: f"when {event}", WHENEVER: f"whenever {event}", INSTEAD: f"instead of {event}",
            INSTEAD_ANY: f"instead of any {event}"}[form]


def check_effect(effect: ir.Effect, names: Names) -> list[Problem]:
    checker = Checker(names, CARD_VALUE)
    checker.effect(effect)
    return checker.problems


def check_formula(expr: ir.Expr, names: Names) -> list[Problem]:
    checker = Checker(names, CLASS_FORMULA)
    checker.expr(expr, INT)
    return checker.problems


@dataclass
class Checker:
    names: Names
    scope: Scope
    problems: list[Problem] = field(default_factory=list)

    def fail(self, node: ir.Node, message: str, hint: str | None = None, at_arg: bool = False) -> None:
        """Report a problem at `node` (with `at_arg`: at the name or number it resolves)."""
        self.problems.append(Problem(getattr(node, "arg_pos", node.pos) if at_arg else node.pos, message, hint))

    def need(self, node: ir.Node, needs: frozenset[str], what: str) -> None:
        """Refuse `what` where the scope lacks something it reads."""
        missing = sorted(needs - self.scope.provides)
        if missing:
            lacks = " and ".join(PROVIDES[m] for m in missing)
            self.fail(node, f"{what} cannot be used in {self.scope.where}: it needs {lacks}",
                      _where_hint(needs))

    # -- expressions --------------------------------------------------------------------
    def expr(self, node: ir.Expr, want: str | None = None) -> str | None:
        got = self._expr(node)
        if want and got and got != want:
            self.fail(node, f"expected a {want} here, got a {got}")
        return got

    def _expr(self, node: ir.Expr) -> str | None:
        match node:
            case ir.Num():
                if node.value > MAX_NUMBER:
                    self.fail(node, f"{node.value} is too large a number for the rules (at most {MAX_NUMBER})")
                return INT
            case ir.Var():
                return self.var(node)
            case ir.Call():
                return self.call(node)
            case ir.BinOp() | ir.Compare():  # numbers on both sides
                self.expr(node.left, INT)
                self.expr(node.right, INT)
                if isinstance(node, ir.BinOp) and node.op == "/":
                    self.divisor(node.right)
                return INT if isinstance(node, ir.BinOp) else BOOL
            case ir.Is():
                if self._expr(node.subject) == KIND:  # `subject_kind is dwarf`
                    if node.name not in self.names.kinds:
                        self.fail(node, f"unknown kind `{node.name}`", suggest(node.name, self.names.kinds), True)
                    return BOOL
                if node.name not in self.names.classes | {"none"}:
                    self.fail(node, f"unknown class `{node.name}`", suggest(node.name, self.names.classes), True)
                return BOOL
            case ir.Not():
                self.expr(node.operand, BOOL)
                return BOOL
            case ir.BoolOp():
                self.expr(node.left, BOOL)
                self.expr(node.right, BOOL)
                return BOOL
            case ir.IfElse():
                self.expr(node.cond, BOOL)
                then = self.expr(node.then)
                self.expr(node.otherwise, then)
                return then
            case ir.CountSet():
                self.need(node, frozenset({PLAYER, CARD}), "`count(...)` of cards")
                self.card_set(node.cards)
                return INT
            case _:
                assert_never(node)

    def divisor(self, node: ir.Expr) -> None:
        """`/` by 0 has no value: refuse a divisor that is 0 whatever the game (what the rules data
        makes 0, or can make 0, compiler/value_checks.py finds)."""
        if constant(node) == 0:
            self.fail(node, "division by zero: this divisor is always 0", "`/` divides and rounds down; "
                                                                          "it has no value for a divisor of 0")

    def var(self, node: ir.Var) -> str | None:
        if node.name in self.names.classes:
            return CLASS
        if node.name in self.names.kinds and node.name not in VARIABLES:
            self.fail(node, f"`{node.name}` is a kind of card, not a value", "compare a card's kind with "
                                                                           "`subject_kind is KIND`")
            return None
        spec = VARIABLES.get(node.name)
        if spec is None:
            self.fail(node, f"unknown name `{node.name}`",
                      suggest(node.name, list(VARIABLES) + sorted(self.names.classes)))
            return None
        self.need(node, spec.needs, f"`{node.name}`")
        return spec.type

    def call(self, node: ir.Call) -> str | None:
        spec = FUNCTIONS.get(node.name)
        if spec is None:
            self.fail(node, f"unknown function `{node.name}`", suggest(node.name, FUNCTIONS))
            for a in node.args:
                self._expr(a)
            return None
        assert spec.args is not None
        variadic = spec.args[-1] == VARIADIC
        fixed = spec.args[:-1] if variadic else spec.args
        if len(node.args) < len(fixed) or (not variadic and len(node.args) > len(fixed)):
            n = ("at least " if variadic else "") + count_of(len(fixed), "argument")
            self.fail(node, f"`{node.name}` takes {n}, got {len(node.args)}")
            return spec.type
        self.need(node, spec.needs, f"`{node.name}(...)`")
        for i, arg in enumerate(node.args):
            self.argument(arg, fixed[min(i, len(fixed) - 1)])
        return spec.type

    def argument(self, arg: ir.Expr, kind: str) -> None:
        name = arg.name if isinstance(arg, ir.Var) else "this"
        if kind == KIND:
            if not isinstance(arg, ir.Var) or arg.name not in self.names.kinds:
                self.fail(arg, f"`{name}` is not a kind of card", suggest(name, self.names.kinds))
        elif kind == PARAM:
            if not isinstance(arg, ir.Var):
                self.fail(arg, "`param(...)` takes the name of a param")
            elif arg.name not in self.names.params:
                self.fail(arg, f"unknown param `{arg.name}`", suggest(arg.name, self.names.params))
        elif kind == CLASS:
            if isinstance(arg, ir.Var) and arg.name in VARIABLES and VARIABLES[arg.name].type == CLASS:
                self.var(arg)  # a class-valued variable such as `chosen_class`
            elif not isinstance(arg, ir.Var) or arg.name not in self.names.classes:
                self.fail(arg, f"`{name}` is not a class", suggest(name, self.names.classes))
        else:
            self.expr(arg, kind)

    def card_set(self, cards: ir.CardSet) -> None:
        if cards.only is not None and cards.only not in self.names.classes:
            self.fail(cards, f"unknown column `{cards.only}`", suggest(cards.only, self.names.classes))

    # -- effects ------------------------------------------------------------------------
    def effect(self, effect: ir.Effect) -> None:
        match effect:
            case ir.Triggered():
                self.on_event(effect, WHENEVER if effect.owner else WHEN, False)
                if effect.age is not None and effect.age not in self.names.ages:
                    self.fail(effect, f"there is no age {effect.age}",
                              "ages: " + ", ".join(map(str, sorted(self.names.ages))), True)
                self.conditional_actions(effect.cond, effect.actions)
            case ir.Replacement():
                self.on_event(effect, INSTEAD_ANY if effect.owner else INSTEAD, True)
                self.conditional_actions(effect.cond, effect.actions)
            case ir.Modifier():
                self.scope = Scope("a card's modifier", CARD_VALUE.provides)
                if effect.param not in self.names.params:
                    self.fail(effect, f"unknown param `{effect.param}`", suggest(effect.param, self.names.params))
                self.expr(effect.amount, INT)
            case ir.Requirement():
                self.scope = Scope("a card's requirement", CARD_VALUE.provides)
                self.expr(effect.cond, BOOL)
            case ir.Score():
                self.expr(effect.expr, INT)
            case ir.CaptureNext():
                if effect.cls not in self.names.classes:
                    self.fail(effect, f"unknown class `{effect.cls}`", suggest(effect.cls, self.names.classes), True)
                else:
                    for part in ir.capture_effects(effect):  # (the event `taken` and the kind `dwarf`)
                        self.effect(part)
            case ir.Enters():
                if effect.place.mode == "another":
                    self.fail(effect.place, "a card enters one column: `another chosen column` needs a column "
                                            "chosen before it", "write `enters chosen column`")
                self.place(effect.place)
            case _:
                assert_never(effect)

    def conditional_actions(self, cond: ir.Expr | None, actions: tuple[ir.Action, ...]) -> None:
        """An effect's condition, then its actions (which run only where it holds)."""
        if cond is not None:
            self.expr(cond, BOOL)
        self.actions(actions)

    def on_event(self, effect: ir.Triggered | ir.Replacement, form: str, replacement: bool) -> None:
        """Resolve the effect's event and make the effect's scope what that event provides."""
        name = effect.event
        spec = self.names.events.get(name)
        if spec is None:
            if name in self.names.undeclared:
                self.fail(effect, f"event `{name}` is not listed in `game.events` of these rules",
                          f"the runtime fires it: add `{name}: <what happens>` under `game.events`")
            else:
                self.fail(effect, f"unknown event `{name}`", suggest(name, self.names.events))
            self.scope = Scope("an effect on an unknown event", frozenset({PLAYER, CARD, SUBJECT, AMOUNT}),
                               replacement)
            return
        if form not in spec.forms:
            forms = ", ".join(f"`{form_text(f, name)}`" for f in FORMS if f in spec.forms)
            self.fail(effect, f"`{form_text(form, name)}` can never act: the runtime does not fire "
                              f"`{name}` in that form", f"`{name}` can be used as {forms}")
        self.scope = event_scope(spec, replacement)

    def place(self, place: ir.Place) -> None:
        for column in ((place.column,) if place.mode == "column" else place.among):
            if column not in self.names.classes:
                self.fail(place, f"unknown column `{column}`", suggest(column or "", self.names.classes), True)

    def deck(self, deck: ir.Deck) -> None:
        if deck.age is not None and deck.age not in self.names.ages:
            self.fail(deck, f"there is no age {deck.age} deck")
        if deck.zone is not None and deck.zone not in self.names.decks:
            self.fail(deck, f"no deck `{deck.zone}`", suggest(deck.zone, self.names.decks) or
                      "a zone deck is a zone whose cards lie face down (`decks:` entries name it)")

    def card_ref(self, ref: ir.CardRef) -> None:
        if ref.subject:
            self.need(ref, frozenset({SUBJECT}), "`subject`")
        elif ref.card is not None and ref.card not in self.names.cards:
            self.fail(ref, f"unknown card `{ref.card}`", card_hint(ref.card, self.names.cards))

    def actions(self, actions: tuple[ir.Action, ...]) -> None:
        for a in actions:
            self.action(a)

    def action(self, a: ir.Action) -> None:
        player = frozenset({PLAYER})
        match a:
            case ir.Then():
                if not (isinstance(a.first, ir.Act) and ACTION_SPECS[a.first.name].cost):
                    each = isinstance(a.first, ir.EachOther)  # (`each other player A then B` is `(…A) then B`)
                    self.fail(a, f"only {_costs()} can come before `then`: nothing else can fail",
                              "`each other player` takes only the action right after it: `each other player A "
                              "then B` is `(each other player A) then B`" if each else
                              "write the actions with `;` between them")
                self.action(a.first)
                self.action(a.rest)
            case ir.Act():
                spec = ACTION_SPECS[a.name]
                if spec.instead_only and not self.scope.replacement:
                    self.fail(a, f"`{spec.phrase}` only makes sense in an `instead of` effect")
                if spec.needs:
                    self.need(a, spec.needs, f"`{spec.phrase}`")
                for operand, arg in a.operands():
                    self.operand(a, operand.kind, arg)
            case ir.EachOther():
                self.need(a, player, "`each other player`")
                self.action(a.action)
            case _:
                assert_never(a)

    def operand(self, a: ir.Act, kind: str, arg: ir.Arg) -> None:
        """Check one operand of an action spec's action, by what it is (a problem about a zone is
        reported at the action)."""
        match arg:
            case ir.Deck():
                self.deck(arg)
            case ir.CardRef():
                self.card_ref(arg)
            case ir.Place():
                self.place(arg)
            case ir.CardSet():
                self.card_set(arg)
            case ir.Amounts():
                for amount in ir.amounts(arg):
                    self.expr(amount, INT)
            case ir.Num() if kind == GEM:
                if arg.value not in self.names.gems:
                    self.fail(arg, f"there is no special gem {arg.value}",
                              "special gems: " + ", ".join(map(str, sorted(self.names.gems))))
            case ir.Word() if kind == FROM_ZONE:
                zone = arg.value
                if zone != "discard" and zone not in self.names.zones:
                    known = ["discard", *sorted(self.names.zones)]
                    self.fail(a, f"unknown zone `{zone}`", suggest(zone, known) or "zones: " + ", ".join(known))
                elif not self.names.zones.get(zone, True):
                    self.fail(a, f"no effect may look into `{zone}`: the rules declare it `explored: false`")
            case ir.Word() if kind == COIN:
                if arg.value not in self.names.coins:
                    self.fail(arg, f"unknown coin `{arg.value}`", suggest(arg.value, self.names.coins))
            case ir.Word() if kind == HERO_CLASS:
                if arg.value not in self.names.classes | {"neutral"}:
                    self.fail(arg, f"unknown class `{arg.value}`", suggest(arg.value, self.names.classes | {"neutral"}))
            case ir.Word() | ir.CoinSel() | ir.Omitted():
                pass  # (the grammar gives only its words and selections)
            case _:
                self.expr(arg, INT)


def _costs() -> str:
    """The actions that may come before `then` (the costs), as diagnostics quote them."""
    phrases = [f"`{s.phrase}`" for s in ACTION_SPECS.values() if s.cost]
    return ", ".join(phrases[:-1]) + " or " + phrases[-1] if len(phrases) > 1 else phrases[0]


def _where_hint(needs: frozenset[str]) -> str | None:
    if COLUMN in needs:
        return "it exists in a class formula"
    if SUBJECT in needs or AMOUNT in needs:
        return "it reads an event: use it in a `when`, `whenever` or `instead of` effect on an event that has it"
    if CARD in needs:
        return "it exists in a card's effects"
    return None


__all__ = ["Names", "Scope", "Problem", "Checker", "check_effect", "check_formula"]
