"""Emit Python source for effect handlers from the IR.

Safe by construction: every value from the rules reaches the source through `repr` of a
validated value; function names are generated here. Each emitted line records the rules
location it came from (SOURCE_MAP), so a failure inside a handler names the YAML line.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ir


def escaped(text: str) -> str:
    """`text` as the inside of a Python string literal: fit for a comment or a docstring."""
    return repr(text)[1:-1].replace('"', '\\"')


@dataclass
class Writer:
    lines: list[str] = field(default_factory=list)
    source_map: dict[int, str] = field(default_factory=dict)
    indent: int = 0
    origin: str = ""
    track_coins: bool = False    # the effect has an `other coin`: remember the coins it chose
    track_columns: bool = False  # the effect has `another chosen column`: remember the columns

    def line(self, text: str = "") -> None:
        self.lines.append("    " * self.indent + text if text else "")
        if self.origin and text:
            self.source_map[len(self.lines)] = self.origin


class ExprEmitter:
    """Python expression text for an IR expression. `col` is the Python text naming the column."""

    def __init__(self, col: str):
        self.col = col

    def __call__(self, node: ir.Expr) -> str:
        return getattr(self, type(node).__name__)(node)

    def Num(self, n: ir.Num) -> str:
        return repr(n.value)

    def Var(self, n: ir.Var) -> str:
        simple = {
            "highest_coin": "g.highest_coin(p)",
            "lowest_coin": "g.lowest_coin(p)",
            "coins_total": "g.coins_total(p)",
            "copies": "g.copies(p, card)",
            "heroes": "g.heroes(p)",
            "age": "g.age",
            "column": "g.column_of(card)",
            "ranks": f"g.ranks(p, {self.col})",
            "points": f"g.points(p, {self.col})",
            "zero_ranks": f"g.zero_ranks(p, {self.col})",
            "tokens": "g.mark(card, 'tokens')",
            "track": "g.track_value(card)",
            "chosen_class": "g.mark(card, 'class', None)",
            "trading_in_pouch": "g.trading_in_pouch(p)",
            "amount": "ev.amount",
            "subject_class": "g.card_class(ev.subject)",
        }
        return simple.get(n.name) or repr(n.name)  # a class name

    def Call(self, n: ir.Call) -> str:
        args = [self(a) for a in n.args]
        if n.name in ("ranks", "points", "most_ranks", "strict_most_ranks", "zero_ranks", "coins_at_least"):
            return f"g.{n.name}(p, {args[0]})"
        if n.name == "cards":
            return f"g.cards_of_kind(p, {args[0]})"
        if n.name == "subject_ranks":
            return f"g.ranks_of(ev.subject, {args[0]})"
        if n.name == "param":
            return f"g.param(p, {args[0]})"
        if n.name == "lookup":
            return f"_lookup({args[0]}, ({', '.join(args[1:])},))"
        return f"{n.name}({', '.join(args)})"  # max, min

    def BinOp(self, n: ir.BinOp) -> str:
        if n.op == "/":
            return f"_div({self(n.left)}, {self(n.right)})"
        return f"({self(n.left)} {n.op} {self(n.right)})"

    def Compare(self, n: ir.Compare) -> str:
        return f"({self(n.left)} {n.op} {self(n.right)})"

    def Is(self, n: ir.Is) -> str:
        name = None if n.name == "none" else n.name
        return f"({self(n.subject)} == {name!r})"

    def Not(self, n: ir.Not) -> str:
        return f"(not {self(n.operand)})"

    def BoolOp(self, n: ir.BoolOp) -> str:
        return f"({self(n.left)} {n.op} {self(n.right)})"

    def IfElse(self, n: ir.IfElse) -> str:
        return f"({self(n.then)} if {self(n.cond)} else {self(n.otherwise)})"

    def CountSet(self, n: ir.CountSet) -> str:
        return f"len({card_set(n.cards)})"


def card_set(s: ir.CardSet) -> str:
    only = f", {s.only!r}" if s.only else ""
    return f"g.last_cards(p, card, {s.kind!r}, {s.other!r}{only})"


CARD_EXPR = ExprEmitter("g.column_of(card)")


def coin_selector(sel: ir.CoinSel, purpose: str) -> tuple[str, bool]:
    """Python text giving the coin(s); True when it is a generator to `yield from`.

    `used` lists the coins this effect already chose (for `other coin`)."""
    where = ", 'pouch'" if sel.pouch else ""
    if sel.mode in ("chosen", "other"):
        exclude = ", exclude=tuple(used)" if sel.mode == "other" else ""
        where = where or (", None" if exclude else "")
        return f"g.choose_coin(p, g.transformable_coins(p{where}{exclude}), {purpose!r})", True
    if sel.mode == "each":
        return f"g.transformable_coins(p{where})", False
    return {"lowest": f"g.lowest_transformable(p{where})", "highest": f"g.highest_transformable(p{where})",
            "trading": f"g.trading_coin(p{where})"}[sel.mode], False


def place_target(w: Writer, place: ir.Place, ref: str) -> str:
    if place.mode in ("chosen", "another", "among"):
        extra = ", exclude=tuple(cols)" if place.mode == "another" else ""
        if place.mode == "among":
            extra = f", among={place.among!r}"
        w.line(f"dest = yield from g.choose_column(p, {ref}{extra})")
        if w.track_columns:
            w.line("cols.append(dest)")
        return "dest"
    if place.mode == "column":
        return repr(place.column)
    if place.mode == "own":
        return f"g.own_column({ref})"
    return "None"


def _kept(call: str, w: Writer) -> str:
    """A transformation, its resulting coin remembered when the effect needs it."""
    return f"used.append(({call}))" if w.track_coins else call


def card_ref(w: Writer, ref: ir.CardRef) -> str | None:
    """Python text naming the card; None-safe block opened for a supply card."""
    if ref.subject:
        return "ev.subject"
    if ref.card is None:
        return "card"
    w.line(f"placed = g.supply_card({ref.card!r})")
    w.line("if placed is not None:")
    w.indent += 1
    return "placed"


def emit_actions(w: Writer, actions: tuple[ir.Action, ...]) -> None:
    for a in actions:
        emit_action(w, a)


def emit_action(w: Writer, a: ir.Action) -> None:
    e = CARD_EXPR
    if isinstance(a, ir.Transform):
        amount = e(a.amount)
        text, gen = coin_selector(a.coins, f"transform a coin by {amount}")
        if a.coins.mode == "each":
            w.line(f"for coin in list({text}):")
            w.line(f"    {_kept('yield from g.transform(p, coin, ' + amount + ')', w)}")
        else:
            w.line(f"coin = {'yield from ' if gen else ''}{text}")
            w.line("if coin is not None:")
            w.line(f"    {_kept('yield from g.transform(p, coin, ' + amount + ')', w)}")
    elif isinstance(a, ir.Exchange):
        text, gen = coin_selector(a.coins, f"exchange for {a.coin}")
        w.line(f"coin = {'yield from ' if gen else ''}{text}")
        w.line("if coin is not None:")
        w.line(f"    g.exchange_coin(p, coin, {a.coin!r})")
    elif isinstance(a, ir.DiscardCoin):
        text, gen = coin_selector(a.coins, "discard")
        w.line(f"g.discard_coin(p, {'(yield from ' + text + ')' if gen else text})")
    elif isinstance(a, ir.GainGem):
        w.line(f"g.gain_gem(p, {a.value!r})")
    elif isinstance(a, (ir.PlaceCard, ir.PlaceUnder)):
        depth = w.indent
        ref = card_ref(w, a.card)
        if isinstance(a, ir.PlaceUnder):
            w.line(f"g.put_under_deck({ref}, {a.deck.age!r})")
        else:
            dest = place_target(w, a.place, ref)
            w.line(f"yield from g.place(p, {ref}, {dest})")
        w.indent = depth
    elif isinstance(a, ir.Discard):
        w.line(f"picked = yield from g.choose_cards(p, {card_set(a.cards)}, {e(a.count)}, 'discard')")
        w.line("for c in picked:")
        w.line("    yield from g.discard_card(p, c)")
    elif isinstance(a, ir.DiscardTop):
        w.line(f"g.discard_top({a.deck.age!r})")
    elif isinstance(a, ir.Look):
        w.line(f"yield from g.look(p, {a.deck.age!r}, {e(a.count)}, {e(a.take)}, {a.rest!r})")
    elif isinstance(a, ir.TakeFrom):
        w.line(f"yield from g.take_from(p, {a.zone!r}, {e(a.count)})")
    elif isinstance(a, ir.RecruitHero):
        w.line(f"yield from g.recruit_hero(p, counted={a.counted!r})")
    elif isinstance(a, ir.ReturnHero):
        w.line(f"yield from g.return_hero(p, {a.cls!r})")
    elif isinstance(a, ir.ChooseClass):
        w.line("yield from g.choose_class(p, card)")
    elif isinstance(a, ir.AdvanceTrack):
        w.line(f"g.advance_track(card, {e(a.steps) if a.steps is not None else 1})")
    elif isinstance(a, ir.Tokens):
        w.line(f"g.add_tokens(card, {'' if a.sign > 0 else '-'}{e(a.amount)})")
    elif isinstance(a, ir.Simple):
        w.line({"swap": "yield from g.swap_tavern_cards(p)", "capture": "yield from g.capture(p, card, ev.subject)",
                "cancel": "pass  # the event does not happen", "face-down": "g.use(card)"}[a.name])
    elif isinstance(a, ir.EachOther):
        w.line("owner = p")
        w.line("for p in g.other_players(owner):")
        w.indent += 1
        emit_action(w, a.action)
        w.indent -= 1
        w.line("p = owner")
    else:  # pragma: no cover
        raise AssertionError(a)


@dataclass
class CardCode:
    on: dict[str, list[str]] = field(default_factory=dict)
    any: dict[str, list[str]] = field(default_factory=dict)
    instead: dict[str, list[str]] = field(default_factory=dict)
    instead_any: dict[str, list[str]] = field(default_factory=dict)
    score: str | None = None
    once: bool = False
    requires: list[str] = field(default_factory=list)
    mods: list[tuple[str, str, str]] = field(default_factory=list)


class ModuleEmitter:
    def __init__(self) -> None:
        self.w = Writer()
        self.count = 0
        self.cards: dict[str, CardCode] = {}
        self.classes: dict[str, str] = {}

    def _name(self, prefix: str, ident: str) -> str:
        self.count += 1
        safe = "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in ident)
        return f"_{prefix}{self.count}_{safe}"

    def card_effect(self, card_id: str, effect: ir.Effect, origin: str, text: str) -> None:
        code = self.cards.setdefault(card_id, CardCode())
        w = self.w
        w.origin = origin
        if isinstance(effect, (ir.Triggered, ir.Replacement)):
            replacement = isinstance(effect, ir.Replacement)
            name = self._name("instead" if replacement else "on", card_id)
            stop = "return False" if replacement else "return"
            w.line(f"def {name}(g, p, card, ev):")
            w.indent += 1
            w.line(f"# {escaped(card_id)}: {text!r}")
            w.line("yield from ()")
            if getattr(effect, "age", None) is not None:
                w.line(f"if g.age != {effect.age!r}:")
                w.line(f"    {stop}")
            if effect.cond is not None:
                w.line(f"if not {CARD_EXPR(effect.cond)}:")
                w.line(f"    {stop}")
            if effect.once:
                w.line("if g.used(card):")
                w.line(f"    {stop}")
            if effect.may:
                w.line(f"if not (yield from g.may(p, card, {text!r})):")
                w.line(f"    {stop}")
            if effect.once:
                w.line("g.use(card)")
            w.track_coins = any(isinstance(n, ir.CoinSel) and n.mode == "other" for n in ir.walk(effect))
            w.track_columns = any(isinstance(n, ir.Place) and n.mode == "another" for n in ir.walk(effect))
            if w.track_coins:
                w.line("used = []  # coins this effect chose")
            if w.track_columns:
                w.line("cols = []  # columns this effect chose")
            emit_actions(w, effect.actions)
            if replacement:
                w.line("return True")
            table = (code.instead_any if effect.owner else code.instead) if replacement else \
                (code.any if effect.owner else code.on)
            table.setdefault(effect.event, []).append(name)
            w.indent -= 1
        elif isinstance(effect, ir.Score):
            name = self._name("score", card_id)
            w.line(f"def {name}(g, p, card):")
            w.line(f"    return {CARD_EXPR(effect.expr)}")
            code.score, code.once = name, effect.once
        elif isinstance(effect, ir.Requirement):
            name = self._name("req", card_id)
            w.line(f"def {name}(g, p, card):")
            w.line(f"    return bool({CARD_EXPR(effect.cond)})")
            code.requires.append(name)
        elif isinstance(effect, ir.Modifier):
            name = self._name("mod", card_id)
            w.line(f"def {name}(g, p, card):")
            w.line(f"    return {CARD_EXPR(effect.amount)}")
            code.mods.append((effect.param, effect.op, name))
        w.line()
        w.origin = ""

    def class_score(self, cls: str, expr: ir.Expr, origin: str) -> None:
        name = self._name("class", cls)
        self.w.origin = origin
        self.w.line(f"def {name}(g, p, col):")
        self.w.line(f"    return {ExprEmitter('col')(expr)}")
        self.w.line()
        self.w.origin = ""
        self.classes[cls] = name

    def tables(self) -> None:
        w = self.w
        w.line("CARD_CODE = {")
        for cid in sorted(self.cards):
            c = self.cards[cid]
            tables = ", ".join(f"{key!r}: {_table(getattr(c, key))}" for key in ("on", "any", "instead", "instead_any"))
            req = "(" + "".join(f"{r}, " for r in c.requires) + ")"
            mods = "(" + "".join(f"({m[0]!r}, {m[1]!r}, {m[2]}), " for m in c.mods) + ")"
            w.line(f"    {cid!r}: {{{tables}, 'score': {c.score}, "
                   f"'once': {c.once!r}, 'requires': {req}, 'mods': {mods}}},")
        w.line("}")
        w.line()
        w.line("CLASS_SCORE = {" + ", ".join(f"{k!r}: {v}" for k, v in self.classes.items()) + "}")


def _table(handlers: dict[str, list[str]]) -> str:
    return "{" + ", ".join(f"{k!r}: ({', '.join(v)},)" for k, v in sorted(handlers.items())) + "}"
