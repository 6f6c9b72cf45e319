"""Parse effect DSL strings (Lark, LALR) into the typed IR."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal, TypeVar, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from nidavellir.interface.mechanisms import ACTION_SPECS, AMOUNTS, ActionSpec
from nidavellir.interface.numbers import MAX_TEXT, NumberError, parse_int

from . import ir
from .sources import grammar_text

# Deeper effects are refused: the IR, the checker and the emitted Python nest as deep as this.
MAX_NESTING = 48


class DslSyntaxError(Exception):
    """A DSL string that does not parse; `offset` is the character offset of the problem."""

    def __init__(self, message: str, offset: int, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


@lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _int(token: Token) -> int:
    """An integer literal, read by the bounded parser; refused at the number itself."""
    try:
        return parse_int(str(token))
    except NumberError as err:
        raise DslSyntaxError(err.message, _pos(token), err.hint) from None


def _pos(where: Token | Meta) -> int:
    if isinstance(where, Token):
        return where.start_pos or 0
    start: int | None = getattr(where, "start_pos", None)  # (an empty Meta has no positions)
    return start or 0


# What the grouping rules hand on to the effect rules.
_Usage = tuple[bool, bool]  # may, once per game
_AgeFilter = tuple[Literal["age"], int, int]  # age, offset of the age
_WhenCond = tuple[Literal["if"], ir.Expr]
# event, age, condition, offset of the event, offset of the age, `whenever`
_Trigger = tuple[str, int | None, ir.Expr | None, int, int, bool]
_Actions = tuple[ir.Action, ...]


def _bin(op: str) -> Callable[[_ToIR, Meta, ir.Expr, ir.Expr], ir.BinOp]:
    def f(self: _ToIR, meta: Meta, left: ir.Expr, right: ir.Expr) -> ir.BinOp:
        return ir.BinOp(op, left, right, pos=_pos(meta))
    return f


def _coin(mode: str) -> Callable[..., ir.CoinSel]:
    def f(self: _ToIR, meta: Meta, pouch: bool = False) -> ir.CoinSel:
        return ir.CoinSel(mode, pouch, pos=_pos(meta))
    return f


def _operand(token: Token) -> ir.Num | ir.Word:
    return ir.Num(_int(token), pos=_pos(token)) if token.type == "INT" else ir.Word(str(token), pos=_pos(token))


def _act(name: str) -> Callable[..., ir.Act]:
    """The callback of an action spec's grammar rule (interface/mechanisms.py ACTION_SPECS): its
    operands are the rule's children but for the nouns it keeps (`CARDS`, `TOKENS`): a number as
    written (INT) read as one, a name (NAME) as a word; several amounts that end them as one operand;
    an operand the phrase may leave out is the child of its terminal (`Operand.token`) if that comes
    next, else ir.Omitted."""
    spec = ACTION_SPECS[name]
    many = bool(spec.operands) and spec.operands[-1].kind == AMOUNTS
    optional = any(o.token is not None for o in spec.operands)

    def f(self: _ToIR, meta: Meta, *children: Token | ir.Arg) -> ir.Act:
        kept = [c for c in children if not isinstance(c, Token) or c.type in ("INT", "NAME", *_tokens(spec))]
        if optional:
            args: tuple[ir.Arg, ...] = tuple(_optional(spec, kept, _pos(meta)))
        else:
            args = tuple(_operand(c) if isinstance(c, Token) else c for c in kept)
        if many:
            first = len(spec.operands) - 1
            items = tuple(a for a in args[first:] if ir.is_amount(a))
            args = (*args[:first], ir.Amounts(items, pos=items[0].pos if items else _pos(meta)))
        return ir.Act(name, args, pos=_pos(meta))
    return f


def _tokens(spec: ActionSpec) -> tuple[str, ...]:
    """The terminals that write the spec's operands the phrase may leave out."""
    return tuple(o.token for o in spec.operands if o.token is not None)


def _optional(spec: ActionSpec, kept: list[Token | ir.Arg], at: int) -> list[ir.Arg]:
    """The operands of a phrase some of which it may leave out, matched in order: one with a
    terminal takes the next child only if that is the terminal's."""
    args: list[ir.Arg] = []
    i = 0
    for o in spec.operands:
        child = kept[i] if i < len(kept) else None
        if o.token is not None and not (isinstance(child, Token) and child.type == o.token):
            args.append(ir.Omitted(pos=at))
            continue
        assert child is not None, f"the grammar of `{spec.phrase}` gives its operand {o.name}"
        args.append(_operand(child) if isinstance(child, Token) else child)
        i += 1
    return args


@v_args(meta=True, inline=True)  # a callback takes the rule's meta, then its children in grammar order
class _ToIR(Transformer[Token, ir.Effect]):
    # expressions
    def num(self, meta: Meta, value: Token) -> ir.Num:
        return ir.Num(_int(value), pos=_pos(value))

    def var(self, meta: Meta, name: Token) -> ir.Var:
        return ir.Var(str(name), pos=_pos(name))

    def call(self, meta: Meta, name: Token, *args: ir.Expr) -> ir.Call:
        return ir.Call(str(name), args, pos=_pos(name))

    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")

    def compare(self, meta: Meta, left: ir.Expr, op: Token, right: ir.Expr) -> ir.Compare:
        return ir.Compare(str(op), left, right, pos=_pos(meta))

    def is_(self, meta: Meta, subject: ir.Expr, name: Token) -> ir.Is:
        return ir.Is(subject, str(name), pos=_pos(meta), arg_pos=_pos(name))

    def not_(self, meta: Meta, operand: ir.Expr) -> ir.Not:
        return ir.Not(operand, pos=_pos(meta))

    def and_(self, meta: Meta, left: ir.Expr, right: ir.Expr) -> ir.BoolOp:
        return ir.BoolOp("and", left, right, pos=_pos(meta))

    def or_(self, meta: Meta, left: ir.Expr, right: ir.Expr) -> ir.BoolOp:
        return ir.BoolOp("or", left, right, pos=_pos(meta))

    def ifelse(self, meta: Meta, then: ir.Expr, cond: ir.Expr, otherwise: ir.Expr) -> ir.IfElse:
        return ir.IfElse(then, cond, otherwise, pos=_pos(meta))

    def count_set(self, meta: Meta, cards: ir.CardSet) -> ir.CountSet:
        return ir.CountSet(cards, pos=_pos(meta))

    # card sets, places, coins, decks
    def set_last(self, meta: Meta, kind: Token, cols: bool | str, mode: str = "last") -> ir.CardSet:
        word = str(kind)
        kind_name = "dwarf" if word.startswith("dwar") else "non-hero" if word.startswith("non") else "card"
        if isinstance(cols, str):
            return ir.CardSet(kind_name, False, only=cols, mode=mode, pos=_pos(meta))
        return ir.CardSet(kind_name, cols, mode=mode, pos=_pos(meta))

    def set_all(self, meta: Meta, kind: Token, cols: bool | str) -> ir.CardSet:
        return self.set_last(meta, kind, cols, "all")

    def cols_other(self, meta: Meta) -> bool:
        return True

    def cols_any(self, meta: Meta) -> bool:
        return False

    def cols_one(self, meta: Meta, column: Token) -> str:
        return str(column)

    def place_chosen(self, meta: Meta) -> ir.Place:
        return ir.Place("chosen", pos=_pos(meta))

    def place_column(self, meta: Meta, column: Token) -> ir.Place:
        return ir.Place("column", str(column), pos=_pos(meta), arg_pos=_pos(column))

    def place_another(self, meta: Meta) -> ir.Place:
        return ir.Place("another", pos=_pos(meta))

    def place_among(self, meta: Meta, *columns: Token) -> ir.Place:
        return ir.Place("among", among=tuple(str(t) for t in columns), pos=_pos(meta), arg_pos=_pos(columns[0]))

    def place_own(self, meta: Meta) -> ir.Place:
        return ir.Place("own", pos=_pos(meta))

    def place_command(self, meta: Meta) -> ir.Place:
        return ir.Place("command", pos=_pos(meta))

    coin_chosen, coin_lowest, coin_highest = _coin("chosen"), _coin("lowest"), _coin("highest")
    coin_each, coin_trading, coin_other = _coin("each"), _coin("trading"), _coin("other")

    def pouch(self, meta: Meta) -> bool:
        return True

    def zone_discard(self, meta: Meta) -> ir.Word:
        return ir.Word("discard", pos=_pos(meta))

    def zone_named(self, meta: Meta, name: Token) -> ir.Word:
        return ir.Word(str(name), pos=_pos(name))

    def ref_self(self, meta: Meta) -> ir.CardRef:
        return ir.CardRef(None, pos=_pos(meta))

    def ref_subject(self, meta: Meta) -> ir.CardRef:
        return ir.CardRef(None, subject=True, pos=_pos(meta))

    def ref_card(self, meta: Meta, card: Token) -> ir.CardRef:
        return ir.CardRef(str(card), pos=_pos(card))

    def deck_age(self, meta: Meta, age: Token) -> ir.Deck:
        return ir.Deck(_int(age), pos=_pos(meta))

    def deck_current(self, meta: Meta) -> ir.Deck:
        return ir.Deck(None, pos=_pos(meta))

    def deck_zone(self, meta: Meta, zone: Token) -> ir.Deck:
        return ir.Deck(None, str(zone), pos=_pos(meta))

    def rest_shuffled(self, meta: Meta) -> ir.Word:
        return ir.Word("shuffled", pos=_pos(meta))

    def rest_bottom(self, meta: Meta) -> ir.Word:
        return ir.Word("bottom", pos=_pos(meta))

    # actions
    def then(self, meta: Meta, first: ir.Action, rest: ir.Action) -> ir.Then:
        return ir.Then(first, rest, pos=_pos(meta))

    def capture_next(self, meta: Meta, cls: Token) -> ir.CaptureNext:
        return ir.CaptureNext(str(cls), pos=_pos(meta), arg_pos=_pos(cls))

    def each_other(self, meta: Meta, action: ir.Action) -> ir.EachOther:
        return ir.EachOther(action, pos=_pos(meta))

    def actions(self, meta: Meta, *actions: ir.Action) -> _Actions:
        return actions

    # effects
    def usage(self, meta: Meta, *flags: str) -> _Usage:  # flags: the MAY token, once_per_game's "once"
        return (any(str(t) == "may" for t in flags), any(t == "once" for t in flags))

    def once_per_game(self, meta: Meta, once: Token) -> str:
        return "once"

    def trigger(self, meta: Meta, when: Token, event: Token, *filters: _AgeFilter | _WhenCond) -> _Trigger:
        owner = str(when) == "whenever"
        age: int | None = None
        cond: ir.Expr | None = None
        age_pos = 0
        for item in filters:
            if item[0] == "age":
                age, age_pos = item[1], item[2]
            elif item[0] == "if":
                cond = item[1]
        return (str(event), age, cond, _pos(event), age_pos, owner)

    def age_filter(self, meta: Meta, age: Token) -> _AgeFilter:
        return ("age", _int(age), _pos(age))

    def when_cond(self, meta: Meta, cond: ir.Expr) -> _WhenCond:
        return ("if", cond)

    def triggered(self, meta: Meta, usage: _Usage, trigger: _Trigger, actions: _Actions) -> ir.Triggered:
        (may, once), (event, age, cond, pos, age_pos, owner) = usage, trigger
        return ir.Triggered(event, age, cond, actions, owner, may, once, pos=pos, arg_pos=age_pos)

    def replacement(self, meta: Meta, usage: _Usage, *rest: Token | _WhenCond | _Actions) -> ir.Replacement:
        may, once = usage
        owner = isinstance(rest[0], Token) and rest[0].type == "ANY"
        if owner:
            rest = rest[1:]
        # The grammar fixes the rest: NAME when_cond? actions.
        name, actions = cast(Token, rest[0]), cast(_Actions, rest[-1])
        cond = cast(_WhenCond, rest[1])[1] if len(rest) == 3 else None
        return ir.Replacement(str(name), actions, owner, cond, may, once, pos=_pos(name))

    def modifier(self, meta: Meta, param: Token, op: Token, amount: ir.Expr) -> ir.Modifier:
        return ir.Modifier(str(param), str(op), amount, pos=_pos(param))

    def requirement(self, meta: Meta, cond: ir.Expr) -> ir.Requirement:
        return ir.Requirement(cond, pos=_pos(meta))

    def score(self, meta: Meta, *c: Token | ir.Expr) -> ir.Score:
        once = len(c) == 2
        return ir.Score(once, cast(ir.Expr, c[-1]), pos=_pos(meta))  # the grammar: ONCE? expr

    def enters(self, meta: Meta, place: ir.Place) -> ir.Enters:
        return ir.Enters(place, pos=_pos(meta))


for _spec in ACTION_SPECS.values():  # (set after the class's own v_args: each wrapped alike here)
    setattr(_ToIR, _spec.rule, v_args(meta=True, inline=True)(_act(_spec.name)))
_TRANSFORMER = _ToIR()

# Example bad inputs mapped to messages a designer can act on (after Lark's match_examples).
_EXAMPLES: dict[str, list[str]] = {
    "an effect starts with `when`, `instead of`, `modify`, `requires`, `score` or `enters`": [
        "recruited: transform chosen coin by 7",
        "on recruited: gain gem 6",
    ],
    "missing `:` after the trigger (write `when EVENT: ACTION`)": [
        "when recruited transform chosen coin by 7",
        "when won gain gem 6",
    ],
    "missing action after `:`": ["when recruited:", "when won: "],
    "say which coin: `chosen coin`, `lowest coin`, `highest coin`, `each coin` or `trading coin`": [
        "when recruited: transform coin by 7",
        "when won: transform by 5",
    ],
    "missing `by AMOUNT` after the coin (e.g. `transform chosen coin by 7`)": [
        "when recruited: transform chosen coin",
        "when recruited: transform chosen coin 7",
    ],
    "incomplete expression: an operator needs a value on both sides": [
        "score 2 *",
        "score 7 +",
        "requires ranks(explorer) >=",
    ],
    "unbalanced parentheses": ["score (2 * ranks(explorer)", "requires (ranks(explorer) >= 5"],
}


def _terminal_text(name: str) -> str:
    try:
        pattern = parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    if pattern.type == "str":
        return f"`{pattern.value}`"
    return {"NAME": "a name", "INT": "a number", "CMP": "a comparison"}.get(name, name.lower())


def _stream_pos(err: UnexpectedInput) -> int | None:
    """The offset of the problem, if lark knows it (its errors set an int, though the base class
    declares `pos_in_stream = None` only)."""
    pos: int | None = getattr(err, "pos_in_stream", None)
    return pos


def _describe(err: UnexpectedInput, text: str) -> tuple[str, str | None]:
    label = None
    try:
        label = err.match_examples(parser().parse, _EXAMPLES, use_accepts=True)
    except Exception:  # match_examples re-parses examples; never let it mask the real error
        label = None
    pos = _stream_pos(err)
    if isinstance(err, UnexpectedCharacters) and pos is not None:  # (the lexer always sets the position)
        if text[pos:pos + 1] in "\r\n":
            return "unexpected line break in effect", "write the effect on one line (a `>-` block folds its lines)"
        ch = text[pos] if pos < len(text) else ""
        base = f"unexpected character `{ch}` in effect" if ch.isprintable() else \
            f"unexpected character U+{ord(ch):04X} in effect"
    elif isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        base = "effect ends too early"
    elif isinstance(err, UnexpectedToken):
        base = f"unexpected `{err.token}` in effect"
    else:  # pragma: no cover - lark has no other kinds
        base = "cannot parse effect"
    expected = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or [])
    shown = [_terminal_text(e) for e in expected if not e.startswith("__")][:8]
    hint = ("expected one of: " + ", ".join(shown)) if shown and not label else None
    return (f"{base}: {label}" if label else base), hint


# A chain of one operator (`a + b - c`, `a * b * c`, `x and y and z`) is long, not deep: the link
# that continues it (the left operand) stays at its parent's depth, and the emitter writes such a
# chain without brackets. Its length is bounded by MAX_WORDS instead. Each `/` is a level (it is
# emitted as a call), and so is each `then` (emitted as a nested `if`).
_CHAINS: dict[str, tuple[int, frozenset[str]]] = {  # rule -> (the link's index, the rules it continues)
    **dict.fromkeys(("add", "sub"), (0, frozenset({"add", "sub"}))),
    "mul": (0, frozenset({"mul", "div"})),  # (a division is a call in the emitted Python: a level)
    "and_": (0, frozenset({"and_"})),
    "or_": (0, frozenset({"or_"})),
}


def _too_deep(tree: Tree[Token]) -> Tree[Token] | None:
    """The first node nested deeper than MAX_NESTING (walked without recursion), or None."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        link, chain = _CHAINS.get(str(node.data), (-1, frozenset()))
        for i in reversed(range(len(node.children))):
            child = node.children[i]
            if isinstance(child, Tree):
                same = i == link and str(child.data) in chain
                stack.append((child, depth if same else depth + 1))
    return None


# Longer effects are refused: a card's text is a sentence or two (the longest shipped effect has
# about 110 characters and 30 words). A chain of operators nests in the IR as deep as it is long,
# so the bounds keep every pass over the IR (each recursing 2 or 3 frames a level) well inside
# Python's recursion limit.
MAX_CHARS = 2000
MAX_NAME = 64  # characters of one name
MAX_WORDS = 400  # names, numbers and operators (a sum of 200 terms has 399; brackets and commas are not counted)
_WORD = re.compile(r"[A-Za-z0-9_]+(?:[-:][A-Za-z0-9_]+)*|[<>=!]=|[^\s(),;:]")


def _too_long(text: str, parsed: bool) -> DslSyntaxError | None:
    """The effect's length problem, located where it exceeds its bound (a number or a name too
    long: at its start), or None. Before parsing: characters, numbers and names; once parsed (and
    found not too deep): the count of words, numbers and symbols."""
    for n, found in enumerate(_WORD.finditer(text), 1):
        word = found.group()
        if parsed and n > MAX_WORDS:
            return DslSyntaxError(f"effect too long: more than {MAX_WORDS} names, numbers and operators",
                                  found.start(), "shorten it (a card may have several effects)")
        if parsed:
            continue
        if word.isdigit() and len(word) > MAX_TEXT:
            try:
                parse_int(word)  # (refuses it, in the parser's words)
            except NumberError as err:
                return DslSyntaxError(err.message, found.start(), err.hint)
        if len(word) > MAX_NAME and not word.isdigit():
            return DslSyntaxError(f"name too long: {len(word)} characters (at most {MAX_NAME})",
                                  found.start(), "names of cards, classes, params and events are short")
    if not parsed and len(text) > MAX_CHARS:
        return DslSyntaxError(f"effect too long: {len(text)} characters (at most {MAX_CHARS})", MAX_CHARS,
                              "shorten it (a card may have several effects)")
    return None


def parse_effect(text: str) -> ir.Effect:
    """Parse one effect string; raise DslSyntaxError with the offset of the problem."""
    problem = _too_long(text, parsed=False)
    if problem is not None:
        raise problem
    try:
        tree = parser().parse(text)
    except UnexpectedInput as err:
        offset = _stream_pos(err)
        if offset is None or offset < 0:
            offset = len(text.rstrip())
        if isinstance(err, UnexpectedToken) and err.token.type == "$END":
            offset = len(text.rstrip())
        message, hint = _describe(err, text)
        raise DslSyntaxError(message, offset, hint) from None
    deep = _too_deep(tree)
    if deep is not None:
        raise DslSyntaxError(f"effect nested too deeply (more than {MAX_NESTING} levels)", _pos(deep.meta),
                             "split the expression or drop some parentheses")
    problem = _too_long(text, parsed=True)
    if problem is not None:
        raise problem
    try:
        return _TRANSFORMER.transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, DslSyntaxError):  # a token refused where it is read (a number)
            raise err.orig_exc from None
        raise DslSyntaxError(f"cannot build effect: {err.orig_exc}", 0) from None  # pragma: no cover - a bug


def parse_expr(text: str) -> ir.Expr:
    """Parse a bare expression (class formulas) by parsing it as a score effect."""
    try:
        effect = parse_effect("score " + text)
    except DslSyntaxError as err:
        raise DslSyntaxError(err.message, max(0, err.offset - 6), err.hint) from None
    assert isinstance(effect, ir.Score)
    return _shift(effect.expr, -6)


_N = TypeVar("_N", bound=ir.Node)


def _shift(node: _N, delta: int) -> _N:
    """Return `node` with every position moved by `delta` (for prefixed parses)."""
    values: dict[str, Any] = {k: (v + delta if k in ("pos", "arg_pos") else _shift_value(v, delta))
                              for k, v in node.__dict__.items()}
    return type(node)(**values)


def _shift_value(value: object, delta: int) -> object:
    """A node's field with the positions in it moved (nodes, tuples of nodes; other values as they are)."""
    if isinstance(value, tuple):
        return tuple(_shift_value(v, delta) for v in value)
    if isinstance(value, ir.Node):
        return _shift(value, delta)
    return value
