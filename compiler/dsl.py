"""Parse effect DSL strings (Lark, LALR) into the typed IR."""
from __future__ import annotations

from functools import lru_cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

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


def _pos(meta_or_tok) -> int:
    if isinstance(meta_or_tok, Token):
        return meta_or_tok.start_pos or 0
    return getattr(meta_or_tok, "start_pos", 0) or 0


@v_args(meta=True)
class _ToIR(Transformer):
    # expressions
    def num(self, meta, c):
        return ir.Num(int(c[0]), pos=_pos(c[0]))

    def var(self, meta, c):
        return ir.Var(str(c[0]), pos=_pos(c[0]))

    def call(self, meta, c):
        return ir.Call(str(c[0]), tuple(c[1:]), pos=_pos(c[0]))

    def _bin(op):  # noqa: N805 - helper factory
        def f(self, meta, c):
            return ir.BinOp(op, c[0], c[1], pos=_pos(meta))
        return f

    add, sub, mul, div = _bin("+"), _bin("-"), _bin("*"), _bin("/")

    def compare(self, meta, c):
        return ir.Compare(str(c[1]), c[0], c[2], pos=_pos(meta))

    def is_(self, meta, c):
        return ir.Is(c[0], str(c[1]), pos=_pos(meta), arg_pos=_pos(c[1]))

    def not_(self, meta, c):
        return ir.Not(c[0], pos=_pos(meta))

    def and_(self, meta, c):
        return ir.BoolOp("and", c[0], c[1], pos=_pos(meta))

    def or_(self, meta, c):
        return ir.BoolOp("or", c[0], c[1], pos=_pos(meta))

    def ifelse(self, meta, c):
        return ir.IfElse(c[0], c[1], c[2], pos=_pos(meta))

    def count_set(self, meta, c):
        return ir.CountSet(c[0], pos=_pos(meta))

    # card sets, places, coins, decks
    def set_last(self, meta, c):
        kind = "dwarf" if str(c[0]).startswith("dwar") else "card"
        cols = c[1]
        if isinstance(cols, str):
            return ir.CardSet(kind, False, only=cols, pos=_pos(meta))
        return ir.CardSet(kind, cols, pos=_pos(meta))

    def cols_other(self, meta, c):
        return True

    def cols_any(self, meta, c):
        return False

    def cols_one(self, meta, c):
        return str(c[0])

    def place_chosen(self, meta, c):
        return ir.Place("chosen", pos=_pos(meta))

    def place_column(self, meta, c):
        return ir.Place("column", str(c[0]), pos=_pos(meta), arg_pos=_pos(c[0]))

    def place_another(self, meta, c):
        return ir.Place("another", pos=_pos(meta))

    def place_among(self, meta, c):
        return ir.Place("among", among=tuple(str(t) for t in c), pos=_pos(meta), arg_pos=_pos(c[0]))

    def place_own(self, meta, c):
        return ir.Place("own", pos=_pos(meta))

    def place_command(self, meta, c):
        return ir.Place("command", pos=_pos(meta))

    def _coin(mode):  # noqa: N805
        def f(self, meta, c):
            return ir.CoinSel(mode, bool(c), pos=_pos(meta))
        return f

    coin_chosen, coin_lowest, coin_highest = _coin("chosen"), _coin("lowest"), _coin("highest")
    coin_each, coin_trading, coin_other = _coin("each"), _coin("trading"), _coin("other")

    def pouch(self, meta, c):
        return True

    def zone_discard(self, meta, c):
        return "discard"

    def zone_camp(self, meta, c):
        return "camp"

    def ref_self(self, meta, c):
        return ir.CardRef(None, pos=_pos(meta))

    def ref_subject(self, meta, c):
        return ir.CardRef(None, subject=True, pos=_pos(meta))

    def ref_card(self, meta, c):
        return ir.CardRef(str(c[0]), pos=_pos(c[0]))

    def deck_age(self, meta, c):
        return ir.Deck(int(c[0]), pos=_pos(meta))

    def deck_current(self, meta, c):
        return ir.Deck(None, pos=_pos(meta))

    def rest_shuffled(self, meta, c):
        return "shuffled"

    def rest_bottom(self, meta, c):
        return "bottom"

    def pick_chosen(self, meta, c):
        return (c[0], c[1])

    # actions
    def transform_coin(self, meta, c):
        return ir.Transform(c[0], c[1], pos=_pos(meta))

    def exchange(self, meta, c):
        return ir.Exchange(c[0], str(c[1]), pos=_pos(meta), arg_pos=_pos(c[1]))

    def gain_gem(self, meta, c):
        return ir.GainGem(int(c[0]), pos=_pos(meta), arg_pos=_pos(c[0]))

    def place(self, meta, c):
        return ir.PlaceCard(c[0], c[1], pos=_pos(meta))

    def discard(self, meta, c):
        count, cards = c[0]
        return ir.Discard(count, cards, pos=_pos(meta))

    def discard_top(self, meta, c):
        return ir.DiscardTop(c[0], pos=_pos(meta))

    def look(self, meta, c):
        return ir.Look(c[0], c[1], c[2], c[3], pos=_pos(meta))

    def recruit_hero(self, meta, c):
        return ir.RecruitHero(not c, pos=_pos(meta))

    def place_under(self, meta, c):
        return ir.PlaceUnder(c[0], c[1], pos=_pos(meta))

    def discard_coin(self, meta, c):
        return ir.DiscardCoin(c[0], pos=_pos(meta))

    def take_from(self, meta, c):
        return ir.TakeFrom(c[0], c[2], pos=_pos(meta))

    def return_hero(self, meta, c):
        return ir.ReturnHero(str(c[0]), pos=_pos(meta), arg_pos=_pos(c[0]))

    def choose_class(self, meta, c):
        return ir.ChooseClass(pos=_pos(meta))

    def advance_track(self, meta, c):
        return ir.AdvanceTrack(c[0] if c else None, pos=_pos(meta))

    def add_tokens(self, meta, c):
        return ir.Tokens(1, c[0], pos=_pos(meta))

    def remove_tokens(self, meta, c):
        return ir.Tokens(-1, c[0], pos=_pos(meta))

    def _simple(name):  # noqa: N805
        def f(self, meta, c):
            return ir.Simple(name, pos=_pos(meta))
        return f

    swap_tavern, capture, cancel, face_down = _simple("swap"), _simple("capture"), _simple("cancel"), \
        _simple("face-down")

    def each_other(self, meta, c):
        return ir.EachOther(c[0], pos=_pos(meta))

    def actions(self, meta, c):
        return tuple(c)

    # effects
    def usage(self, meta, c):
        return (any(str(t) == "may" for t in c), any(t == "once" for t in c))

    def once_per_game(self, meta, c):
        return "once"

    def trigger(self, meta, c):
        owner = str(c[0]) == "whenever"
        c = c[1:]
        event = str(c[0])
        age = cond = None
        age_pos = 0
        for item in c[1:]:
            if isinstance(item, tuple) and item[0] == "age":
                age, age_pos = item[1], item[2]
            elif isinstance(item, tuple) and item[0] == "if":
                cond = item[1]
        return (event, age, cond, _pos(c[0]), age_pos, owner)

    def age_filter(self, meta, c):
        return ("age", int(c[0]), _pos(c[0]))

    def when_cond(self, meta, c):
        return ("if", c[0])

    def triggered(self, meta, c):
        (may, once), (event, age, cond, pos, age_pos, owner), actions = c
        return ir.Triggered(event, age, cond, actions, owner, may, once, pos=pos, arg_pos=age_pos)

    def replacement(self, meta, c):
        (may, once), rest = c[0], c[1:]
        owner = isinstance(rest[0], Token) and rest[0].type == "ANY"
        if owner:
            rest = rest[1:]
        name, actions = rest[0], rest[-1]
        cond = rest[1][1] if len(rest) == 3 else None
        return ir.Replacement(str(name), actions, owner, cond, may, once, pos=_pos(name))

    def modifier(self, meta, c):
        return ir.Modifier(str(c[0]), str(c[1]), c[2], pos=_pos(c[0]))

    def requirement(self, meta, c):
        return ir.Requirement(c[0], pos=_pos(meta))

    def score(self, meta, c):
        once = len(c) == 2
        return ir.Score(once, c[-1], pos=_pos(meta))

    def enters(self, meta, c):
        return ir.Enters(c[0], pos=_pos(meta))


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


def _describe(err: UnexpectedInput, text: str) -> tuple[str, str | None]:
    label = None
    try:
        label = err.match_examples(parser().parse, _EXAMPLES, use_accepts=True)
    except Exception:  # match_examples re-parses examples; never let it mask the real error
        label = None
    if isinstance(err, UnexpectedCharacters) and text[err.pos_in_stream:err.pos_in_stream + 1] in "\r\n":
        return "unexpected line break in effect", "write the effect on one line (a `>-` block folds its lines)"
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
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


def _too_deep(tree: Tree) -> Tree | None:
    """The first node nested deeper than MAX_NESTING (walked without recursion), or None."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))
    return None


def parse_effect(text: str) -> ir.Effect:
    """Parse one effect string; raise DslSyntaxError with the offset of the problem."""
    try:
        tree = parser().parse(text)
    except UnexpectedInput as err:
        offset = getattr(err, "pos_in_stream", None)
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
    try:
        return _TRANSFORMER.transform(tree)
    except VisitError as err:  # pragma: no cover - transformer bugs, not user input
        raise DslSyntaxError(f"cannot build effect: {err.orig_exc}", 0) from None


def parse_expr(text: str) -> ir.Expr:
    """Parse a bare expression (class formulas) by parsing it as a score effect."""
    try:
        effect = parse_effect("score " + text)
    except DslSyntaxError as err:
        raise DslSyntaxError(err.message, max(0, err.offset - 6), err.hint) from None
    assert isinstance(effect, ir.Score)
    return _shift(effect.expr, -6)


def _shift(node, delta: int):
    """Return `node` with every position moved by `delta` (for prefixed parses)."""
    if isinstance(node, tuple):
        return tuple(_shift(n, delta) for n in node)
    if not isinstance(node, ir.Node):
        return node
    values = {k: (v + delta if k in ("pos", "arg_pos") else _shift(v, delta)) for k, v in node.__dict__.items()}
    return type(node)(**values)
