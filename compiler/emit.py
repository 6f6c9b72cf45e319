"""Emit the Python module of a compiled rule set from the IR: handler functions and the typed
model (`nidavellir.interface.rules`) that holds them, one table per card.

Safe by construction: every value from the rules reaches the source through `repr` of a validated
value, and every Python name is made here (`Ref` names are checked identifiers).

Stable: handlers are named by card and effect (`_grid_0`, `_class_warrior`), and each card's
handlers and table are written together, so adding an effect to one card changes only that card's
lines. Locations: each handler's docstring is `@ file:line:col` and its DSL text, and each action
starts with a string statement `'@ file:line:col'` of that action in the DSL string (Python drops
such statements: they cost nothing); a failure inside a handler is located by the nearest marker
above the failing line. Paths and texts reach the source only inside these string literals.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from typing import Any

from nidavellir.interface.mechanisms import ACTION_SPECS, FLAG
from nidavellir.interface.rules import EMPTY, SOURCE_MARKER, Modifier

from . import ir
from .names import FUNCTIONS, VARIABLES, expand
from .util import assert_never

MARKER = SOURCE_MARKER
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def escaped(text: str) -> str:
    """`text` as the inside of a Python string literal: fit for a comment or a docstring."""
    return repr(text)[1:-1].replace('"', '\\"')


def slug(ident: str) -> str:
    """A rules id as part of a Python name, one to one: `-` becomes `_`, `:` becomes `__`
    (ids never hold `_` and never two separators in a row)."""
    out = ident.replace(":", "__").replace("-", "_")
    assert re.fullmatch(r"[a-z0-9_]+", out), ident
    return out


# -- Python literals ------------------------------------------------------------------------

@dataclass(frozen=True)
class Ref:
    """A function defined in the generated module (a handler), held where the model holds it: the
    writer writes its name. It stands in for the function only while the module is written."""
    name: str

    def __post_init__(self) -> None:
        assert _IDENT.match(self.name), self.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"`{self.name}` is a compiled handler's name: load the module to run it")


# Objects the module binds to a name (a card's table, the content hash), by `id`: written as the name.
Names = Mapping[int, str]


def _defaults(value: Any) -> dict[str, Any]:
    """The default of each init field of a dataclass that has one."""
    out: dict[str, Any] = {}
    for f in fields(value):
        if f.init and f.default is not MISSING:
            out[f.name] = f.default
        elif f.init and f.default_factory is not MISSING:
            out[f.name] = f.default_factory()
    return out


def _kwargs(value: Any) -> list[tuple[str, Any]]:
    """A model instance's init fields that differ from their defaults, in the class's order."""
    defaults = _defaults(value)
    return [(f.name, getattr(value, f.name)) for f in fields(value)
            if f.init and (f.name not in defaults or getattr(value, f.name) != defaults[f.name])]


def _item(value: Any, indent: int, names: Names) -> str:
    """A field of a multi-line table: a long tuple or dict one entry a line (so that changing one
    entry changes one line), anything else as `literal`."""
    text = literal(value, indent, names)
    if len(text) <= 100 or not isinstance(value, (tuple, Mapping)) or len(value) < 2:
        return text
    pad = "    " * (indent + 1)
    if isinstance(value, tuple):
        inner = "".join(f"{pad}{literal(v, indent + 1, names)},\n" for v in value)
        return f"(\n{inner}{'    ' * indent})"
    inner = "".join(f"{pad}{literal(k, indent + 1, names)}: {_item(v, indent + 1, names)},\n"
                    for k, v in value.items())
    return f"{{\n{inner}{'    ' * indent}}}"


def literal(value: Any, indent: int = 0, names: Names = EMPTY, multiline: bool = False) -> str:
    """Python source for a value built of primitives, tuples, mappings, `Ref`s and instances of the
    interface's model classes (`Class(field=value, ...)`, only the fields that differ from their
    defaults; with `multiline`, one field a line). A value `names` holds is written as its name."""
    pad = "    " * (indent + 1)
    if id(value) in names:
        return names[id(value)]
    if isinstance(value, Ref):
        return value.name
    if is_dataclass(value) and not isinstance(value, type):
        cls = type(value).__name__
        assert cls in MODEL_NAMES, cls
        if multiline:
            inner = "".join(f"{pad}{k}={_item(v, indent + 1, names)},\n" for k, v in _kwargs(value))
            return f"{cls}(\n{inner}{'    ' * indent})"
        return f"{cls}(" + ", ".join(f"{k}={literal(v, indent, names)}" for k, v in _kwargs(value)) + ")"
    if isinstance(value, tuple):
        items = [literal(v, indent, names) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{literal(k, indent, names)}: {literal(v, indent, names)}"
                               for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    raise TypeError(f"no literal for {value!r}")  # pragma: no cover


# -- writing lines ------------------------------------------------------------------------

@dataclass
class Writer:
    lines: list[str] = field(default_factory=list)
    indent: int = 0

    def line(self, text: str = "") -> None:
        self.lines.append("    " * self.indent + text if text else "")

    def marker(self, loc: str, text: str | None = None) -> None:
        """A location marker: a string statement (with `text`, the function's docstring)."""
        self.line(repr(MARKER + loc + ("" if text is None else "\n" + text)))


@dataclass
class PyScope:
    """The Python names the code at hand reads: acting player, the effect's card, the event,
    the scored column; `fresh` makes a temporary no other code of the handler uses."""
    p: str = "p"
    card: str = "card"
    ev: str = "ev"
    col: str = "col"
    counter: list[int] = field(default_factory=lambda: [0])
    locate: Callable[[int], str] = field(default=lambda pos: "<rules>")  # `file:line:col` of a DSL offset
    chosen_coins: str | None = None    # list of the coins the effect chose (for `other coin`)
    chosen_columns: str | None = None  # list of the columns it chose (for `another chosen column`)
    guard: Callable[[ir.Expr], bool] = field(default=lambda e: False)  # an operation play must bound
    who: str = "the rules"             # whose expression it is, for the message of a value past the bound

    def fresh(self, base: str) -> str:
        self.counter[0] += 1
        return f"{base}{self.counter[0]}"

    def names(self) -> dict[str, str]:
        return {"p": self.p, "card": self.card, "ev": self.ev, "col": self.col}

    def acting(self, player: str) -> "PyScope":
        """The same scope with another acting player (shares the temporaries' counter)."""
        return replace(self, p=player)


# -- expressions ----------------------------------------------------------------------------

def expr(node: ir.Expr, sc: PyScope) -> str:
    """Python expression text for an IR expression."""
    match node:
        case ir.Num():
            return repr(node.value)
        case ir.Var():
            spec = VARIABLES.get(node.name)
            return expand(spec.emit, sc.names()) if spec else repr(node.name)  # else a class name
        case ir.Call():
            fn = FUNCTIONS[node.name]
            assert fn.args is not None
            args = [_argument(a, fn.args[min(i, len(fn.args) - 1)], sc) for i, a in enumerate(node.args)]
            return expand(fn.emit, sc.names(), args)
        case ir.BinOp():
            if node.op == "/":
                if isinstance(node.right, ir.Num) and node.right.value != 0:  # (the checker refuses `/ 0`)
                    return f"({expr(node.left, sc)} // {node.right.value!r})"
                where = sc.locate(node.right.pos)
                return f"_div({expr(node.left, sc)}, {expr(node.right, sc)}, {where!r})"
            if any(sc.guard(link) for link in _links(node)):
                return _bounded(node, sc)
            return f"({_chained(node, sc)} {node.op} {expr(node.right, sc)})"
        case ir.Compare():
            return f"({expr(node.left, sc)} {node.op} {expr(node.right, sc)})"
        case ir.Is():
            name = None if node.name == "none" else node.name
            return f"({expr(node.subject, sc)} == {name!r})"
        case ir.Not():
            return f"(not {expr(node.operand, sc)})"
        case ir.BoolOp():
            return f"({_chained(node, sc)} {node.op} {expr(node.right, sc)})"
        case ir.IfElse():
            return f"({expr(node.then, sc)} if {expr(node.cond, sc)} else {expr(node.otherwise, sc)})"
        case ir.CountSet():
            return f"len({card_set(node.cards, sc)})"
        case _:
            assert_never(node)


_GROUP = {"+": "+", "-": "+", "*": "*", "and": "and", "or": "or"}  # operators Python chains left to right


def _links(node: ir.BinOp | ir.BoolOp) -> list[ir.BinOp | ir.BoolOp]:
    """The links of the chain `node` ends (itself and its left operands of the same group), last first."""
    links: list[ir.BinOp | ir.BoolOp] = [node]
    left = node.left
    while isinstance(left, (ir.BinOp, ir.BoolOp)) and _GROUP.get(left.op) == _GROUP.get(node.op, ""):
        links.append(left)
        left = left.left
    return links


def _bounded(node: ir.BinOp, sc: PyScope) -> str:
    """A chain of `+`/`-` or of `*` whose value can pass MAX_VALUE, guarded: a sum once (its terms are
    each within the bound, so it stays small), a product at each factor (support.product)."""
    where = sc.locate(node.pos)
    if node.op != "*":
        return f"_bound({_chained(node, sc)} {node.op} {expr(node.right, sc)}, {where!r}, {sc.who!r})"
    links = _links(node)
    factors = [expr(links[-1].left, sc)] + [expr(link.right, sc) for link in reversed(links)]
    return f"_product(({', '.join(factors)},), {where!r}, {sc.who!r})"


def _chained(node: ir.BinOp | ir.BoolOp, sc: PyScope) -> str:
    """The left operand of a left-associative chain, without its brackets where it continues the
    chain (`a + b - c`, not `((a + b) - c)`): a long flat sum nests no brackets, however long."""
    links: list[ir.Expr] = []
    left = node.left
    while isinstance(left, (ir.BinOp, ir.BoolOp)) and _GROUP.get(left.op) == _GROUP.get(node.op, ""):
        links.append(left)
        left = left.left
    text = expr(left, sc)
    for link in reversed(links):
        assert isinstance(link, (ir.BinOp, ir.BoolOp))
        text = f"{text} {link.op} {expr(link.right, sc)}"
    return text


def _argument(arg: ir.Expr, kind: str, sc: PyScope) -> str:
    if kind in ("kind", "param") and isinstance(arg, ir.Var):
        return repr(arg.name)
    return expr(arg, sc)


def card_set(s: ir.CardSet, sc: PyScope) -> str:
    only = f", {s.only!r}" if s.only else ""
    method = "last_cards" if s.mode == "last" else "army_cards"
    return f"g.{method}({sc.p}, {sc.card}, {s.kind!r}, {s.other!r}{only})"


# -- actions --------------------------------------------------------------------------------

def _coins(w: Writer, sel: ir.CoinSel, purpose: str, sc: PyScope) -> tuple[str, bool]:
    """Write the choice of the coin(s) `sel` names; return the Python naming it (a coin or None,
    or with `each`, a list of coins) and whether it is a list."""
    where = _where(sel)
    if sel.mode == "each":
        return f"g.each_coin({sc.p}, {where})", True
    coin = sc.fresh("coin")
    if sel.mode in ("chosen", "other"):
        exclude = f", tuple({sc.chosen_coins})" if sel.mode == "other" and sc.chosen_coins else ""
        w.line(f"{coin} = yield from g.choose_coin({sc.p}, g.transformable_coins({sc.p}, {where}{exclude}), "
               f"{purpose!r})")
    else:
        method = {"lowest": "lowest_transformable", "highest": "highest_transformable",
                  "trading": "trading_coin"}[sel.mode]
        w.line(f"{coin} = g.{method}({sc.p}, {where})")
    return coin, False


def _on_coins(w: Writer, sel: ir.CoinSel, purpose: str, sc: PyScope, body: Callable[[str], None]) -> None:
    """Write `body(coin)` for the coin(s) `sel` names (nothing when there is none)."""
    found, many = _coins(w, sel, purpose, sc)
    if many:
        coin = sc.fresh("coin")
        w.line(f"for {coin} in {found}:")
    else:
        coin = found
        w.line(f"if {coin} is not None:")
    w.indent += 1
    body(coin)
    w.indent -= 1


def _card(w: Writer, ref: ir.CardRef, sc: PyScope) -> str:
    """Python naming the card; for a card of the supply, a guarded block is opened (the caller
    restores the indent)."""
    if ref.subject or ref.card is None:
        return _ref(ref, sc)
    placed = sc.fresh("placed")
    w.line(f"{placed} = g.supply_card({ref.card!r}, {sc.card})")  # (the effect's card brought it)
    w.line(f"if {placed} is not None:")
    w.indent += 1
    return placed


def _ref(ref: ir.CardRef, sc: PyScope) -> str:
    """Python naming the card a reference names: the event's subject, the effect's card, or a card id."""
    return f"{sc.ev}.subject" if ref.subject else sc.card if ref.card is None else repr(ref.card)


def _destination(w: Writer, place: ir.Place, card: str, sc: PyScope) -> str:
    if place.mode in ("chosen", "another", "among"):
        dest = sc.fresh("dest")
        extra = ""
        if place.mode == "another" and sc.chosen_columns:
            extra = f", exclude=tuple({sc.chosen_columns})"
        elif place.mode == "among":
            extra = f", among={place.among!r}"
        w.line(f"{dest} = yield from g.choose_column({sc.p}, {card}{extra})")
        if sc.chosen_columns:
            w.line(f"{sc.chosen_columns}.append({dest})")
        return dest
    if place.mode == "column":
        return repr(place.column)
    if place.mode == "own":
        return f"g.own_column({card})"
    return "None"  # the command zone


def _deck(deck: ir.Deck) -> str:
    """A deck as the engine takes it: an age, None for the current age's, or a zone's id."""
    return repr(deck.zone) if deck.zone is not None else repr(deck.age)


def _then(a: ir.Act, rest: ir.Action | None, sc: PyScope) -> tuple[str, ir.Action | None]:
    """The `{then}` of a cost whose spec `leaves` an action something to act on, when `rest` (what
    follows its `then`) begins with that action: `, then=(<its operands>)`, and what of `rest` is
    left for its own test; else "" and `rest`."""
    leaves = ACTION_SPECS[a.name].leaves
    head = rest.first if isinstance(rest, ir.Then) else rest
    if leaves is None or not isinstance(head, ir.Act) or head.name != leaves[0]:
        return "", rest
    names = _act_names(head, sc)
    values = [names[operand] for operand in leaves[1]]
    left = rest.rest if isinstance(rest, ir.Then) else None
    return f", then=({', '.join(values)}{',' if len(values) == 1 else ''})", left


def _can_act(a: ir.Action, sc: PyScope, taken: list[ir.CoinSel] | None = None, then: str = "") -> str | None:
    """Python testing, before an effect begins, whether `a` finds something to act on — with the
    same test the action lists its options by (None: it always acts). A power is offered only when
    each of its actions passes (DESIGN §9 "Where the powers meet"): so a `may` is never asked, nor a
    once-per-game power spent, for an action that would do nothing. A pile is read as it is before
    the effect: cards the effect itself puts under it are not there to look at; `taken`: the coin
    selections of the effect's earlier actions by the same player (see `_coin_test`), to which
    `a`'s are added. (`then`: a cost's `{then}`, see `_then`.)"""
    p = sc.p
    taken = [] if taken is None else taken
    match a:
        case ir.Then():
            rest: ir.Action | None = a.rest
            first = None
            if isinstance(a.first, ir.Act):  # (the checker allows only a cost here)
                then, rest = _then(a.first, a.rest, sc)
                first = _can_act(a.first, sc, taken, then)
            more = None if rest is None else _can_act(rest, sc, taken)
            return first if more is None else more if first is None else f"({first} and {more})"
        case ir.Act():  # (an amount of 0 or less acts on nothing)
            spec = ACTION_SPECS[a.name]
            selections = [arg for arg in a.args if isinstance(arg, ir.CoinSel)]
            coins = [_coin_test(sel, sc, taken) for sel in selections]
            taken.extend(selections)
            supply = [f"g.in_supply({arg.card!r})" for arg in a.args  # (a card of the supply: one is left)
                      if isinstance(arg, ir.CardRef) and not arg.subject and arg.card is not None]
            return _all(_positives(a, sc), *coins, *supply,
                        None if spec.guard is None else expand(spec.guard, {**_act_names(a, sc), "then": then}))
        case ir.EachOther():  # (it acts when one of them can: each acts as they can)
            inner = _can_act(a.action, sc.acting("other"), [])  # (their own coins)
            return None if inner is None else f"any({inner} for other in g.other_players({p}))"
        case _:
            assert_never(a)


def _act(w: Writer, a: ir.Act, sc: PyScope) -> None:
    """An action spec's call (each of its lines), once per coin where it acts on coins."""
    spec = ACTION_SPECS[a.name]
    names = _act_names(a, sc)
    names.update((temp, sc.fresh(temp)) for temp in spec.temps)
    placed = a.placed()
    if placed is not None and placed[1].mode == "another" and sc.chosen_columns:  # (none left: nothing placed)
        w.line(f"if g.column_options({_ref(placed[0], sc)}, exclude=tuple({sc.chosen_columns})):")
        w.indent += 1
    moved = ""
    for o, arg in a.operands():  # (a card of the supply opens a block: `action` restores the indent)
        if isinstance(arg, ir.CardRef):
            names[o.name] = moved = _card(w, arg, sc)
        elif isinstance(arg, ir.Place):  # (where the card operand, named before it, goes)
            names[o.name] = _destination(w, arg, moved, sc)
    coins = [(o.name, arg) for o, arg in a.operands() if isinstance(arg, ir.CoinSel)]
    if not coins:
        _lines(w, expand(spec.call, names))
        return
    (name, sel), = coins
    positive = _positives(a, sc)
    if positive is not None:  # (an amount of 0 or less acts on nothing: no coin is chosen for it either)
        w.line(f"if {positive}:")
        w.indent += 1

    def each(coin: str) -> None:
        call = expand(spec.call, {**names, name: coin})
        _lines(w, f"{sc.chosen_coins}.append(({call}))" if spec.gives_coin and sc.chosen_coins else call)

    _on_coins(w, sel, _prompt(a), sc, each)


def _prompt(a: ir.Act) -> str:
    """What a player choosing a coin for the action is told: the spec's prompt with its words and
    its numbers as written; a bracketed part naming an operand known only in play is left out (a
    prompt is text, never Python)."""
    known = {o.name: str(arg.value) for o, arg in a.operands() if isinstance(arg, (ir.Word, ir.Num))}

    def part(found: re.Match[str]) -> str:
        names = re.findall(r"\{(\w+)\}", found.group(1))
        return found.group(1) if all(n in known for n in names) else ""

    return re.sub(r"\[([^\]]*)\]", part, ACTION_SPECS[a.name].prompt).format(**known)


def _lines(w: Writer, code: str) -> None:
    for line in code.split("\n"):
        w.line(line)


def _act_names(a: ir.Act, sc: PyScope) -> dict[str, str]:
    """The scope's names and the Python of an action spec's operands (but its coins), by their names."""
    names = sc.names()
    if ACTION_SPECS[a.name].leaves is not None:
        names["then"] = ""  # (a cost before no `then`: see `_then`)
    for operand, arg in a.operands():
        match arg:
            case ir.Deck():
                names[operand.name] = _deck(arg)
            case ir.Word() if operand.kind == FLAG:
                names[operand.name] = repr(operand.written)
            case ir.Omitted():
                names[operand.name] = repr(not operand.written) if operand.kind == FLAG else "None"
            case ir.Word():
                names[operand.name] = repr(arg.value)
            case ir.CardSet():
                names[operand.name] = card_set(arg, sc)
            case ir.Amounts():
                names[operand.name] = ", ".join(expr(x, sc) for x in ir.amounts(arg))
            case ir.CoinSel() | ir.CardRef() | ir.Place():
                pass  # (the call runs once per coin, after the card and its place are found: `_act`)
            case _:
                names[operand.name] = expr(arg, sc)
    return names


def _positives(a: ir.Act, sc: PyScope) -> str | None:
    """Python testing that each positive operand of the action is (None: each is a number that is)."""
    return _all(*(_positive(arg, sc) for o, arg in a.operands() if o.positive))


def _positive(amount: ir.Arg, sc: PyScope) -> str | None:
    """Python testing that an action's amount is at least 1, or one of several amounts is (None: a
    number that is)."""
    if isinstance(amount, ir.Amounts):
        if any(isinstance(x, ir.Num) and x.value > 0 for x in amount.items):
            return None
        return f"(max({', '.join(expr(x, sc) for x in amount.items)}, 0) > 0)"
    assert ir.is_amount(amount), "only an amount is positive"
    return None if isinstance(amount, ir.Num) and amount.value > 0 else f"({expr(amount, sc)} > 0)"


def _all(*tests: str | None) -> str | None:
    kept = [t for t in tests if t is not None]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else "(" + " and ".join(kept) + ")"


def _where(sel: ir.CoinSel) -> str:
    """The place a coin selection takes from, as the engine's coin methods take it."""
    return "'pouch'" if sel.pouch else "None"


def _coin_test(sel: ir.CoinSel, sc: PyScope, taken: list[ir.CoinSel]) -> str:
    """Python testing that `sel` finds a coin. For `other coin`, after the `taken` selections of the
    same player's earlier actions: each of those whose coins lie among its own (the same place, or
    the pouch when it is any coin) has taken one of them, which it does not choose again (a coin
    transformed or exchanged stays chosen, a discarded one is gone) — each of them (`each coin`) all
    of its place's; a lowest or highest coin only as the first of them (later it may be one already
    chosen: then it is not counted)."""
    where = _where(sel)
    if sel.mode == "trading":
        return f"(g.trading_coin({sc.p}, {where}) is not None)"
    among = [t for t in taken if t.mode != "trading" and (t.pouch or not sel.pouch)]
    if sel.mode != "other" or not among:
        return f"bool(g.transformable_coins({sc.p}, {where}))"
    single = sum(1 for i, t in enumerate(among) if t.mode in ("chosen", "other") or t.mode != "each" and i == 0)
    every = [f"len(g.transformable_coins({sc.p}, {_where(t)}))" for t in among if t.mode == "each"]
    counted = " + ".join([str(single)] * bool(single or not every) + every)
    return f"(len(g.transformable_coins({sc.p}, {where})) > {counted})"


def _can_act_all(actions: tuple[ir.Action, ...], sc: PyScope) -> str | None:
    taken: list[ir.CoinSel] = []  # (shared: a later `other coin` counts the coins the earlier took)
    tests = [t for a in actions if (t := _can_act(a, sc, taken)) is not None]
    return " and ".join(tests) if tests else None


def _cost(a: ir.Action, rest: ir.Action, sc: PyScope) -> str:
    """The call of a cost (its value says whether it was done), before `then` and `rest`."""
    assert isinstance(a, ir.Act) and ACTION_SPECS[a.name].cost, "the checker allows only a cost before `then`"
    call = expand(ACTION_SPECS[a.name].call, {**_act_names(a, sc), "then": _then(a, rest, sc)[0]})
    assert "\n" not in call, "a cost's call is one expression"
    return call


def action(w: Writer, a: ir.Action, sc: PyScope, locate: Callable[[int], str]) -> None:
    w.marker(locate(a.pos))
    depth = w.indent
    match a:
        case ir.Then():
            w.line(f"if ({_cost(a.first, a.rest, sc)}):")
            w.indent += 1
            action(w, a.rest, sc, locate)
        case ir.Act():
            _act(w, a, sc)
        case ir.EachOther():
            other = sc.fresh("player")
            w.line(f"for {other} in g.other_players({sc.p}):")
            w.indent += 1
            action(w, a.action, _own_choices(w, sc.acting(other)), locate)
        case _:
            assert_never(a)
    w.indent = depth


def _own_choices(w: Writer, sc: PyScope) -> PyScope:
    """The scope of one player of `each other player`: the coins and columns they choose are theirs
    (`other coin`, `another chosen column` exclude only their own earlier choices)."""
    coins = columns = None
    if sc.chosen_coins:
        coins = sc.fresh("chosen_coins")
        w.line(f"{coins}: list[int] = []")
    if sc.chosen_columns:
        columns = sc.fresh("chosen_columns")
        w.line(f"{columns}: list[str] = []")
    return replace(sc, chosen_coins=coins, chosen_columns=columns)


# -- effects, cards and the module ---------------------------------------------------------------

@dataclass
class CardCode:
    """What a card's table refers to: handler names by role."""
    when: dict[str, list[str]] = field(default_factory=dict)
    whenever: dict[str, list[str]] = field(default_factory=dict)
    instead: dict[str, list[str]] = field(default_factory=dict)
    instead_any: dict[str, list[str]] = field(default_factory=dict)
    score: str | None = None
    score_once: bool = False
    requires: list[str] = field(default_factory=list)
    mods: list[tuple[str, str, str]] = field(default_factory=list)


# Which operations play must bound (compiler/values.py: `Values.guarded`), for the expressions of a
# card's effects (by the card's id) or of a class formula (None); without it, none.
Guard = Callable[[ir.Expr, str | None], bool] | None


def _guard_for(guard: Guard, card: str | None) -> Callable[[ir.Expr], bool]:
    return (lambda e: False) if guard is None else (lambda e: guard(e, card))


HANDLER_ARGS = "g: EngineAPI, p: int, card: int, ev: Event"
VALUE_ARGS = "g: EngineAPI, p: int, card: int"


class CardEmitter:
    """The handlers of one card, written in the order of its effects."""

    def __init__(self, cid: str, guard: Guard = None):
        self.cid = cid
        self.w = Writer()
        self.code = CardCode()
        self.guard = guard

    def effect(self, index: int | str, effect: ir.Effect, loc: str, text: str, locate: Callable[[int], str]) -> None:
        name = f"_{slug(self.cid)}_{index}"
        w, code = self.w, self.code
        sc = PyScope(locate=locate, guard=_guard_for(self.guard, self.cid), who=f"`{self.cid}`")
        match effect:
            case ir.Triggered() | ir.Replacement():
                replacement = isinstance(effect, ir.Replacement)
                stop = "return False" if replacement else "return"
                w.line(f"def {name}({HANDLER_ARGS}) -> Gen[{'bool' if replacement else 'None'}]:")
                w.indent += 1
                self._head(loc, text)
                w.line("yield from ()")
                if isinstance(effect, ir.Triggered) and effect.age is not None:
                    w.line(f"if g.age != {effect.age!r}:")
                    w.line(f"    {stop}")
                if effect.cond is not None:
                    w.line(f"if not {expr(effect.cond, sc)}:")
                    w.line(f"    {stop}")
                if effect.once:
                    w.line("if g.used(card):")
                    w.line(f"    {stop}")
                test = _can_act_all(effect.actions, sc) if effect.may or effect.once else None
                if test is not None:  # a power that would do nothing: no question, nothing spent
                    w.line(f"if not ({test}):")
                    w.line(f"    {stop}")
                if effect.may:
                    w.line(f"if not (yield from g.may(p, card, {text!r})):")
                    w.line(f"    {stop}")
                if effect.once:
                    w.line("g.use(card)")
                nodes = list(ir.walk(effect))
                if any(isinstance(n, ir.CoinSel) and n.mode == "other" for n in nodes):
                    sc.chosen_coins = sc.fresh("chosen_coins")
                    w.line(f"{sc.chosen_coins}: list[int] = []")
                if any(isinstance(n, ir.Place) and n.mode == "another" for n in nodes):
                    sc.chosen_columns = sc.fresh("chosen_columns")
                    w.line(f"{sc.chosen_columns}: list[str] = []")
                for a in effect.actions:
                    action(w, a, sc, locate)
                if replacement:
                    w.line("return True")
                w.indent -= 1
                if replacement:
                    table = code.instead_any if effect.owner else code.instead
                else:
                    table = code.whenever if effect.owner else code.when
                table.setdefault(effect.event, []).append(name)
            case ir.Score():
                self._value(name, "int", loc, text, expr(effect.expr, sc))
                code.score, code.score_once = name, effect.once
            case ir.Requirement():
                self._value(name, "bool", loc, text, expr(effect.cond, sc))
                code.requires.append(name)
            case ir.Modifier():
                self._value(name, "int", loc, text, expr(effect.amount, sc))
                code.mods.append((effect.param, effect.op, name))
            case ir.Enters():
                return  # data: where the card goes (CardDef.enters)
            case ir.CaptureNext():
                capture, declined = ir.capture_effects(effect)
                self.effect(f"{index}_capture", capture, loc, text, locate)
                self.effect(f"{index}_declined", declined, loc, text, locate)
                return
            case _:
                assert_never(effect)
        w.line()

    def _head(self, loc: str, text: str) -> None:
        self.w.marker(loc, text)

    def _value(self, name: str, result: str, loc: str, text: str, body: str) -> None:
        self.w.line(f"def {name}({VALUE_ARGS}) -> {result}:")
        self.w.indent += 1
        self._head(loc, text)
        self.w.line(f"return {body}")
        self.w.indent -= 1

    def table(self) -> dict[str, Any]:
        """The handler fields of the card's `CardDef` (handlers as `Ref`s)."""
        c = self.code
        out: dict[str, Any] = {}
        for key in ("when", "whenever", "instead", "instead_any"):
            handlers: dict[str, list[str]] = getattr(c, key)
            if handlers:
                out[key] = {event: tuple(Ref(n) for n in names) for event, names in sorted(handlers.items())}
        if c.score:
            out["score"] = Ref(c.score)
            if c.score_once:
                out["score_once"] = True
        if c.requires:
            out["requires"] = tuple(Ref(n) for n in c.requires)
        if c.mods:
            out["mods"] = tuple(Modifier(m[0], m[1], Ref(m[2])) for m in c.mods)
        return out


def class_formula(cls: str, node: ir.Expr, loc: str, text: str,
                  locate: Callable[[int], str], guard: Guard = None) -> tuple[str, list[str]]:
    """The function of a class's scoring formula: its name and lines."""
    name = f"_class_{slug(cls)}"
    w = Writer()
    w.line(f"def {name}(g: EngineAPI, p: int, col: str) -> int:")
    w.indent += 1
    w.marker(loc, text)
    sc = PyScope(locate=locate, guard=_guard_for(guard, None), who=f"the `{cls}` formula")
    w.line(f"return {expr(node, sc)}")
    w.indent -= 1
    w.line()
    return name, w.lines


MODEL_NAMES = ("BasicCoin", "Capture", "CardDef", "CardText", "ClassDef", "DeckEntry", "Interpretation", "Layer", "LoopWarning",
               "Modifier", "Order", "PickSource", "Placing", "RuleSet", "SpecialCoin", "SpecialGem", "Step", "Tavern",
               "TavernDraw", "Zone")


def module(header: list[str], content_hash: str, blocks: list[list[str]], rules: str) -> str:
    """The whole module: header, imports, each block (a class formula, a card), then RULES (its
    literal)."""
    lines = ['"""' + header[0], *header[1:], '"""',
             "from __future__ import annotations",
             "",
             "from nidavellir.interface.engine import EngineAPI, Event, Gen",
             "from nidavellir.interface.rules import (",
             *[f"    {n}," for n in MODEL_NAMES],
             ")",
             "from nidavellir.interface.support import bound as _bound, div as _div, lookup as _lookup, "
             "product as _product",
             "",
             f"CONTENT_HASH = {content_hash!r}",
             "", ""]
    for block in blocks:
        lines.extend(block)
        lines.append("")
    lines.append(f"RULES = {rules}")
    lines.append("")
    return "\n".join(lines)


__all__ = ["MARKER", "escaped", "slug", "Ref", "literal", "CardEmitter", "class_formula", "module",
           "expr", "PyScope"]
