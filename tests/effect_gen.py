"""A generator of rules layers whose cards' effects span the effect DSL (README "The effect DSL",
grammar/effects.lark), for the property of tests/test_effects_property.py.

Effects are built from the grammar's forms — every effect form (`when`/`whenever`/`instead of [any]`
with `may`, `once per game`, `in age N`, `if COND`; `modify`, `requires`, `score [once]`, `enters`,
`capture next`), every action (with `then` and `each other player`), every coin selection, place,
deck and zone, and expressions over the built-in names of compiler/names.py (the registry the
checker reads, so a new built-in is generated as soon as it is declared) — with names drawn from
the rule set it is played on: its classes, params (the runtime's and the cards'), cards, kinds,
zones, decks, coins, gems, ages, the runtime's events and the flow's windows. Most of what it
writes is valid; now and then a name or form is not (another box's name, an event in a form the
runtime does not fire, a division by 0), so that refusals are exercised too. Effects that feed
themselves are made on purpose: an effect on an event often acts in a way that fires that event.

Shrinking goes towards the first choice of each `sampled_from` and the smallest numbers, so the
simplest forms come first and a shrunk layer stays short and readable.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from property_case import Case
from nidavellir.compiler.names import AMOUNT, BOOL, CARD, CLASS, COLUMN, FUNCTIONS, INT, KIND, PARAM, PLAYER, SUBJECT, \
    VARIABLES, VARIADIC
from nidavellir.interface.events import EVENTS, INSTEAD, INSTEAD_ANY, RUNTIME_PARAMS, WHEN, WHENEVER
from nidavellir.interface.rules import RuleSet

# Precedence levels of the grammar, loosest first: `A if C else B`, or, and, not, a comparison, a
# sum, a product, an atom. Text is kept with its level and bracketed where a tighter one is needed.
IFELSE, OR, AND, NOT, CMP, SUM, PRODUCT, ATOM = range(8)
Text = tuple[str, int]


@dataclass(frozen=True)
class Vocab:
    """The names a layer over these rule sets may use (those every one of them has)."""
    classes: tuple[str, ...]
    params: tuple[str, ...]
    cards: tuple[str, ...]          # every card id
    supply: tuple[str, ...]         # cards in no deck and not heroes (`place card ID` takes them)
    kinds: tuple[str, ...]
    zones: tuple[str, ...]          # face-up zones effects may take from (besides the discard pile)
    decks: tuple[str, ...]          # zones that hold a face-down deck (`NAME deck`)
    decks_of_zones: tuple[str, ...]  # zones whose decks `decks:` entries fill (per age or not)
    coins: tuple[str, ...]
    gems: tuple[int, ...]
    ages: tuple[int, ...]
    windows: tuple[str, ...]
    others: tuple[str, ...]         # names that one of the rule sets lacks (refused there)

    @staticmethod
    def of(rulesets: list[RuleSet]) -> "Vocab":
        def common(get: Any) -> tuple[Any, ...]:
            sets = [get(r) for r in rulesets]
            first = list(dict.fromkeys(sets[0]))
            return tuple(x for x in first if all(x in s for s in sets))

        def every(get: Any) -> set[Any]:
            return set().union(*(set(get(r)) for r in rulesets))

        def supply(r: RuleSet) -> list[str]:
            dealt = {e.card for entries in r.decks.values() for e in entries}
            dealt |= {e.card for by_age in r.zone_decks.values() for entries in by_age.values() for e in entries}
            return [c for c, d in r.cards.items() if c not in dealt and d.kind not in ("hero", "distinction")]

        def windows(r: RuleSet) -> list[str]:
            return [s.window for s in (*r.turn, *r.age_end) if s.window]

        names = {
            "classes": lambda r: [c.id for c in r.classes],
            "params": lambda r: list(r.params),
            "cards": lambda r: list(r.cards),
            "kinds": lambda r: list(r.kinds),
            "zones": lambda r: [z.id for z in r.zones if not z.per_age and z.explored],
            "decks": lambda r: [z for z in r.zone_decks if not any(x.id == z and x.per_age for x in r.zones)],
            "windows": windows,
        }
        got = {k: common(f) for k, f in names.items()}
        others = sorted(set().union(*(every(f) - set(got[k]) for k, f in names.items())))
        return Vocab(classes=got["classes"], params=got["params"], cards=got["cards"], supply=common(supply),
                     kinds=got["kinds"], zones=got["zones"], decks=got["decks"],
                     decks_of_zones=common(lambda r: list(r.zone_decks)),
                     coins=common(lambda r: [c.id for c in r.special_coins]),
                     gems=common(lambda r: [g.value for g in r.special_gems]),
                     ages=common(lambda r: list(r.ages)), windows=got["windows"], others=tuple(others))


@dataclass
class Ctx:
    """What the effects drawn so far use, for the layer that carries them."""
    v: Vocab
    events: set[str] = field(default_factory=set)   # runtime events used (listed under `game.events`)
    fresh_params: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Scope:
    """What an expression may read where it is written (compiler/names.py's `needs`)."""
    provides: frozenset[str]
    replacement: bool = False
    event: str | None = None


CARD_SCOPE = Scope(frozenset({PLAYER, CARD}))
FORMULA_SCOPE = Scope(frozenset({PLAYER, COLUMN}))


def event_scope(event: str, replacement: bool) -> Scope:
    spec = EVENTS.get(event)
    provides = {CARD, PLAYER}
    if spec is not None:
        provides = {CARD} | ({PLAYER} if spec.player else set()) | ({SUBJECT} if spec.subject else set()) \
            | ({AMOUNT} if spec.amount else set())
    return Scope(frozenset(provides), replacement, event)


def wrap(t: Text, level: int) -> str:
    return t[0] if t[1] >= level else f"({t[0]})"


def small() -> st.SearchStrategy[int]:
    """A number of the rules: mostly small, now and then large, and rarely past the bound (refused)."""
    return st.integers(0, 40).flatmap(lambda k: st.integers(0, 9) if k < 37 else st.sampled_from(
        (10, 25, 100, 999_999, 1_000_000, 1_000_001)))


# -- expressions -----------------------------------------------------------------------------------

def _builtins(table: dict[str, Any], type_: str, scope: Scope) -> list[Any]:
    return [b for b in table.values() if b.type == type_ and b.needs <= scope.provides]


@st.composite
def class_arg(draw: st.DrawFn, ctx: Ctx, scope: Scope) -> str:
    """A class: a class name, or a variable whose value is a class (`chosen_class`, `subject_class`)."""
    vars_ = [b.name for b in _builtins(VARIABLES, CLASS, scope)]
    return draw(st.sampled_from([*ctx.v.classes, *vars_]))


@st.composite
def int_expr(draw: st.DrawFn, ctx: Ctx, scope: Scope, depth: int = 2) -> Text:
    forms = ["num", "var", "call"] + (["sum", "product", "div", "ifelse", "count"] if depth > 0 else [])
    form = draw(st.sampled_from(forms))
    if form == "num":
        return str(draw(small())), ATOM
    if form == "var":
        choices = _builtins(VARIABLES, INT, scope)
        if not choices:
            return str(draw(small())), ATOM
        return draw(st.sampled_from(choices)).name, ATOM
    if form == "call":
        choices = _builtins(FUNCTIONS, INT, scope)
        if not choices:
            return str(draw(small())), ATOM
        return draw(call(ctx, scope, draw(st.sampled_from(choices)), depth)), ATOM
    if form == "sum":
        op = draw(st.sampled_from(("+", "-")))
        left, right = draw(int_expr(ctx, scope, depth - 1)), draw(int_expr(ctx, scope, depth - 1))
        return f"{wrap(left, SUM)} {op} {wrap(right, PRODUCT)}", SUM
    if form == "product":
        left, right = draw(int_expr(ctx, scope, depth - 1)), draw(int_expr(ctx, scope, depth - 1))
        return f"{wrap(left, PRODUCT)} * {wrap(right, ATOM)}", PRODUCT
    if form == "div":
        left = draw(int_expr(ctx, scope, depth - 1))
        divisor = draw(st.integers(0, 9))
        if divisor < 3:
            right = str(draw(st.integers(1, 4))), ATOM
        elif divisor < 6:
            right = draw(int_expr(ctx, scope, depth - 1))                       # can be 0: a warning
        elif divisor < 9:
            right = f"max(1, {wrap(draw(int_expr(ctx, scope, depth - 1)), IFELSE)})", ATOM
        else:
            right = "0", ATOM                                                   # always 0: refused
        return f"{wrap(left, PRODUCT)} / {wrap(right, ATOM)}", PRODUCT
    if form == "ifelse":
        then = draw(int_expr(ctx, scope, depth - 1))
        cond = draw(bool_expr(ctx, scope, depth - 1))
        other = draw(int_expr(ctx, scope, depth - 1))
        return f"{wrap(then, OR)} if {wrap(cond, OR)} else {wrap(other, IFELSE)}", IFELSE
    if PLAYER in scope.provides and CARD in scope.provides:  # count(...)
        return f"count({draw(card_set(ctx))})", ATOM
    return str(draw(small())), ATOM


@st.composite
def call(draw: st.DrawFn, ctx: Ctx, scope: Scope, b: Any, depth: int) -> str:
    assert b.args is not None
    args = list(b.args)
    if args and args[-1] == VARIADIC:
        args = args[:-1] + [args[-2]] * draw(st.integers(0, 2))
    out = []
    for kind in args:
        if kind == CLASS:
            out.append(draw(class_arg(ctx, scope)))
        elif kind == KIND:
            out.append(draw(st.sampled_from(ctx.v.kinds)))
        elif kind == PARAM:
            out.append(draw(param_name(ctx)))
        else:
            out.append(wrap(draw(int_expr(ctx, scope, depth - 1)), IFELSE))
    return f"{b.name}({', '.join(out)})"


@st.composite
def param_name(draw: st.DrawFn, ctx: Ctx) -> str:
    """A param: one the runtime reads, one of the rules, or one the layer declares."""
    runtime = [p for p in RUNTIME_PARAMS if p in ctx.v.params]
    choice = draw(st.sampled_from(("runtime", "rules", "fresh")))
    if choice == "runtime":
        return draw(st.sampled_from(runtime))
    if choice == "rules":
        return draw(st.sampled_from(ctx.v.params))
    name = draw(st.sampled_from(("p", "q")))
    ctx.fresh_params.setdefault(name, draw(st.integers(0, 3)))
    return name


@st.composite
def bool_expr(draw: st.DrawFn, ctx: Ctx, scope: Scope, depth: int = 2) -> Text:
    forms = ["compare", "is", "var", "call"] + (["not", "and", "or"] if depth > 0 else [])
    form = draw(st.sampled_from(forms))
    if form == "compare":
        op = draw(st.sampled_from((">=", "<=", "==", "!=", ">", "<")))
        left, right = draw(int_expr(ctx, scope, depth - 1)), draw(int_expr(ctx, scope, depth - 1))
        return f"{wrap(left, SUM)} {op} {wrap(right, SUM)}", CMP
    if form == "is":
        kinds = [b.name for b in _builtins(VARIABLES, KIND, scope)]
        classes = [b.name for b in _builtins(VARIABLES, CLASS, scope)]
        if kinds and draw(st.booleans()):
            return f"{kinds[0]} is {draw(st.sampled_from(ctx.v.kinds))}", CMP
        if classes:
            return f"{draw(st.sampled_from(classes))} is {draw(st.sampled_from((*ctx.v.classes, 'none')))}", CMP
        form = "var"
    if form == "var":
        choices = _builtins(VARIABLES, BOOL, scope)
        if choices:
            return draw(st.sampled_from(choices)).name, ATOM
        form = "call"
    if form == "call":
        choices = _builtins(FUNCTIONS, BOOL, scope)
        if choices:
            return draw(call(ctx, scope, draw(st.sampled_from(choices)), depth)), ATOM
        return f"{wrap(draw(int_expr(ctx, scope, 0)), SUM)} > 0", CMP
    if form == "not":
        return f"not {wrap(draw(bool_expr(ctx, scope, depth - 1)), NOT)}", NOT
    op, level = ("and", AND) if form == "and" else ("or", OR)
    left, right = draw(bool_expr(ctx, scope, depth - 1)), draw(bool_expr(ctx, scope, depth - 1))
    return f"{wrap(left, level)} {op} {wrap(right, level + 1)}", level


# -- places, coins, cards, decks -------------------------------------------------------------------

@st.composite
def columns(draw: st.DrawFn, ctx: Ctx) -> str:
    return draw(st.sampled_from(("other columns", "any columns", "army", "column {}"))).format(
        draw(st.sampled_from(ctx.v.classes)))


@st.composite
def card_set(draw: st.DrawFn, ctx: Ctx) -> str:
    if draw(st.booleans()):
        return f"last {draw(st.sampled_from(('dwarf', 'non-hero', 'card')))} of {draw(columns(ctx))}"
    return f"{draw(st.sampled_from(('dwarves', 'non-heroes', 'cards')))} in {draw(columns(ctx))}"


@st.composite
def place(draw: st.DrawFn, ctx: Ctx, entering: bool = False) -> str:
    """A place; a card that enters has no column chosen before (`another chosen column` is refused)."""
    modes = ("chosen column", "own column", "command zone", "column", "among", "another")
    mode = draw(st.sampled_from(modes[:-1] if entering and draw(st.integers(0, 9)) else modes))
    if mode == "column":
        return f"column {draw(st.sampled_from(ctx.v.classes))}"
    if mode == "among":
        among = draw(st.lists(st.sampled_from(ctx.v.classes), min_size=2, max_size=3, unique=True))
        return "chosen column of " + ", ".join(among)
    if mode == "another":
        return "another chosen column"
    return mode


@st.composite
def coin(draw: st.DrawFn) -> str:
    mode = draw(st.sampled_from(("lowest", "chosen", "highest", "each", "trading", "other")))
    return f"{mode} coin" + (" in pouch" if draw(st.integers(0, 3)) == 3 else "")


@st.composite
def deck(draw: st.DrawFn, ctx: Ctx) -> str:
    forms = ["current deck", "age"] + (["zone"] if ctx.v.decks else [])
    form = draw(st.sampled_from(forms))
    if form == "age":
        return f"age {draw(st.sampled_from(ctx.v.ages))} deck"
    if form == "zone":
        return f"{draw(st.sampled_from(ctx.v.decks))} deck"
    return form


@st.composite
def card_ref(draw: st.DrawFn, ctx: Ctx, scope: Scope) -> str:
    forms = ["self", "card"] + (["subject"] if SUBJECT in scope.provides else [])
    form = draw(st.sampled_from(forms))
    if form == "card":
        return "card " + draw(st.sampled_from(ctx.v.supply or ctx.v.cards) if draw(st.integers(0, 3)) < 3
                              else st.sampled_from(ctx.v.cards))
    return form


# -- actions ---------------------------------------------------------------------------------------

# The actions that fire each event (what makes an effect feed itself), by the grammar's forms.
FEEDS: dict[str, tuple[str, ...]] = {
    "coin-bettered": ("transform",),
    "joined": ("place", "take", "look", "recruit"),
    "covered": ("place",),
    "recruited": ("recruit", "place", "take"),
    "taken": ("take", "look"),
    "discarded": ("discard",),
    "captured": ("capture",),
}
ACTIONS = ("transform", "gain", "place", "discard", "discard-coin", "take", "look", "recruit", "return",
           "choose", "advance", "tokens", "spread", "exchange", "under", "discard-top", "swap", "reserve",
           "face-down", "cancel", "capture", "each-other", "then")


@st.composite
def action(draw: st.DrawFn, ctx: Ctx, scope: Scope, card: str, prefer: tuple[str, ...] = (), depth: int = 1) -> str:
    forms = [a for a in ACTIONS if depth > 0 or a not in ("each-other", "then")]
    name = draw(st.sampled_from(prefer)) if prefer and draw(st.integers(0, 2)) == 2 else draw(st.sampled_from(forms))
    e = lambda: wrap(draw(int_expr(ctx, scope, 1)), IFELSE)  # noqa: E731
    n = lambda: wrap(draw(st.one_of(st.builds(lambda k: (str(k), ATOM), st.integers(1, 3)),  # noqa: E731
                                    int_expr(ctx, scope, 1))), IFELSE)
    if name == "transform":
        return f"transform {draw(coin())} by {e()}"
    if name == "spread":
        amounts = [e() for _ in range(draw(st.integers(2, 3)))]
        return f"transform coins in pouch by {', '.join(amounts)} in chosen order"
    if name == "exchange":
        return f"exchange {draw(coin())} for coin {draw(st.sampled_from(ctx.v.coins))}"
    if name == "gain":
        return f"gain gem {draw(st.sampled_from(ctx.v.gems)) if draw(st.integers(0, 11)) else 3}"
    if name == "place":
        verb = draw(st.sampled_from(("place {} in {}", "move {} to {}")))
        return verb.format(draw(card_ref(ctx, scope)), draw(place(ctx)))
    if name == "under":
        return f"place {draw(card_ref(ctx, scope))} under {draw(deck(ctx))}"
    if name == "discard":
        return f"discard chosen {n()} {draw(card_set(ctx))}"
    if name == "discard-coin":
        return f"discard {draw(coin())}"
    if name == "discard-top":
        return f"discard top of {draw(deck(ctx))}"
    if name == "look":
        rest = draw(st.sampled_from(("shuffled", "under deck in chosen order")))
        return f"look at {n()} from {draw(deck(ctx))}, take {n()}, rest {rest}"
    if name == "take":
        zone = draw(st.sampled_from(("discard", *ctx.v.zones)))
        return f"take chosen {n()} {draw(st.sampled_from(('cards', 'card')))} from {zone}"
    if name == "recruit":
        cls = draw(st.sampled_from(("", "neutral ", *(f"{c} " for c in ctx.v.classes))))
        return f"recruit {cls}hero" + draw(st.sampled_from(("", " uncounted")))
    if name == "return":
        return f"return chosen {draw(st.sampled_from(('neutral', *ctx.v.classes)))} hero"
    if name == "choose":
        return "choose class"
    if name == "advance":
        return "advance track" + (f" by {e()}" if draw(st.booleans()) else "")
    if name == "tokens":
        return f"{draw(st.sampled_from(('add', 'remove')))} {n()} {draw(st.sampled_from(('tokens', 'token')))}"
    if name == "swap":
        return "swap chosen tavern cards"
    if name == "reserve":
        return "reserve chosen tavern card"
    if name == "face-down":
        return "turn face down"
    if name in ("cancel", "capture"):
        return name if scope.replacement or draw(st.integers(0, 19)) == 19 else "choose class"
    if name == "each-other":
        return "each other player " + draw(action(ctx, scope, card, prefer, depth - 1))
    # `A then B`: A a cost that can fail (returning or recruiting a hero)
    first = draw(st.sampled_from(("return chosen neutral hero", "recruit hero uncounted", "recruit neutral hero")))
    rest = draw(st.sampled_from(("recruit another neutral hero uncounted", "recruit hero")) if draw(st.booleans())
                else action(ctx, scope, card, prefer, 0))
    return f"{first} then {rest}"


@st.composite
def actions(draw: st.DrawFn, ctx: Ctx, scope: Scope, card: str) -> str:
    prefer = FEEDS.get(scope.event or "", ())
    return "; ".join(draw(action(ctx, scope, card, prefer)) for _ in range(draw(st.integers(1, 2))))


# -- effects ---------------------------------------------------------------------------------------

def _event_forms(event: str, window: bool) -> list[str]:
    if window:
        return [WHEN, WHENEVER]
    return sorted(EVENTS[event].forms)


# Effects that feed themselves through one event each (`{cond}`: a condition, or none): whether one
# can stop depends on what guards it (`may`, `once per game`, a condition), which is drawn with it.
FEEDERS = (
    ("whenever joined{cond}: place self in command zone; place self in chosen column", "joined"),
    ("instead of covered{cond}: place self in chosen column", "covered"),
    ("whenever coin-bettered{cond}: transform lowest coin by 1", "coin-bettered"),
    ("whenever recruited{cond}: return chosen neutral hero then recruit another neutral hero uncounted",
     "recruited"),
    ("instead of any discarded{cond}: discard chosen 1 cards in army", "discarded"),
    ("whenever taken{cond}: place subject under current deck", "taken"),
    ("whenever joined{cond}: place card {supply} in chosen column", "joined"),
)


@st.composite
def feeder(draw: st.DrawFn, ctx: Ctx) -> str:
    text, event = draw(st.sampled_from(FEEDERS))
    ctx.events.add(event)
    cond = draw(st.sampled_from(("", " if age > 0", " if copies > 0", " if heroes < 3", " if tokens == 0")))
    usage = draw(st.sampled_from(("", "may ", "once per game ")))
    return usage + text.format(cond=cond, supply=draw(st.sampled_from(ctx.v.supply or ctx.v.cards)))


@st.composite
def effect(draw: st.DrawFn, ctx: Ctx, card: str) -> str:
    """One effect of `card`, of any form of the grammar."""
    form = draw(st.sampled_from(("trigger", "score", "modify", "trigger", "replace", "requires", "enters",
                                 "capture", "feeder")))
    if form == "feeder":
        return draw(feeder(ctx))
    if form == "score":
        once = "once " if draw(st.integers(0, 4)) == 4 else ""
        return f"score {once}{wrap(draw(int_expr(ctx, CARD_SCOPE)), IFELSE)}"
    if form == "modify":
        op = draw(st.sampled_from(("+", "-", "=")))
        return f"modify {draw(param_name(ctx))} {op} {wrap(draw(int_expr(ctx, CARD_SCOPE, 1)), SUM)}"
    if form == "requires":
        return f"requires {wrap(draw(bool_expr(ctx, CARD_SCOPE, 1)), IFELSE)}"
    if form == "enters":
        return f"enters {draw(place(ctx, entering=True))}"
    if form == "capture":
        return f"capture next {draw(st.sampled_from(ctx.v.classes))} dwarf"
    # an effect on an event or window
    window = draw(st.integers(0, 2)) == 0
    if window:
        event = draw(st.sampled_from(ctx.v.windows))
        forms = [WHEN, WHENEVER]
    else:
        event = draw(st.sampled_from(sorted(EVENTS)))
        forms = sorted(EVENTS[event].forms)
        wanted = [f for f in forms if (f in (INSTEAD, INSTEAD_ANY)) == (form == "replace")]
        forms = wanted or forms
        if draw(st.integers(0, 9)) == 9:  # a form the runtime never fires (refused)
            forms = [WHEN, WHENEVER, INSTEAD, INSTEAD_ANY]
        ctx.events.add(event)
    how = draw(st.sampled_from(forms))
    replacement = how in (INSTEAD, INSTEAD_ANY)
    scope = event_scope(event, replacement)
    usage = draw(st.sampled_from(("", "", "may ", "once per game ", "may once per game ")))
    head = {WHEN: f"when {event}", WHENEVER: f"whenever {event}", INSTEAD: f"instead of {event}",
            INSTEAD_ANY: f"instead of any {event}"}[how]
    if not replacement and draw(st.integers(0, 5)) == 5:
        head += f" in age {draw(st.sampled_from(ctx.v.ages))}"
    if draw(st.integers(0, 2)) == 2:
        head += f" if {wrap(draw(bool_expr(ctx, scope, 1)), OR)}"
    return f"{usage}{head}: {draw(actions(ctx, scope, card))}"


@st.composite
def effects(draw: st.DrawFn, ctx: Ctx, card: str, least: int = 1) -> list[str]:
    out = [draw(effect(ctx, card)) for _ in range(draw(st.integers(least, 3)))]
    return list(dict.fromkeys(out))


@st.composite
def class_formula(draw: st.DrawFn, ctx: Ctx) -> str:
    """A class's scoring formula: an expression over that column (`ranks`, `points`, `zero_ranks`)."""
    return wrap(draw(int_expr(ctx, FORMULA_SCOPE)), IFELSE)


# -- layers ----------------------------------------------------------------------------------------

COMBOS: tuple[tuple[str, ...], ...] = ((), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll"))
NEW_KIND = "relic"   # a kind the layer declares, entering where it says


@st.composite
def made_card(draw: st.DrawFn, ctx: Ctx, i: int, kinds: list[str], decks: list[dict[str, Any]]) -> dict[str, Any]:
    """A new card of a kind of the rules (or the layer's), its effects drawn, and where it is dealt."""
    kind = draw(st.sampled_from(kinds))
    cid = f"made-{kind}-{i}"
    card: dict[str, Any] = {"id": cid, "kind": kind}
    cls = draw(st.sampled_from(("neutral", *ctx.v.classes)))
    if kind != "royal-offering" and (kind != "hero" or draw(st.booleans())):
        card["class"] = cls
    shape = draw(st.sampled_from(("ranks", "points", "none", "columns")))
    if shape == "ranks":
        card["ranks"] = draw(st.lists(st.integers(0, 12), min_size=1, max_size=2))
    elif shape == "points":
        card["points"] = draw(st.integers(-5, 20))
    elif shape == "columns":  # ranks by column, as a mercenary's two sides
        card["ranks"] = {c: [draw(st.integers(0, 9))] for c in draw(st.lists(st.sampled_from(ctx.v.classes),
                                                                          min_size=1, max_size=2, unique=True))}
    if draw(st.integers(0, 3)) == 3:
        card["copies"] = draw(st.integers(2, 3))
    made = draw(effects(ctx, cid))
    card["effects"] = made
    if any("track" in e for e in made) and draw(st.integers(0, 5)):
        card["track"] = draw(st.lists(st.integers(-3, 9), min_size=1, max_size=4))
    if draw(st.integers(0, 5)) == 5:
        card["params"] = {"r": draw(st.integers(0, 3))}
    if kind not in ("hero", "distinction") and draw(st.integers(0, 4)):  # (else: in the supply, for `place card`)
        where = draw(st.sampled_from(("age", "age", *(f"zone:{d}" for d in ctx.v.decks_of_zones))))
        entry: dict[str, Any] = {"age": draw(st.sampled_from(ctx.v.ages)),
                                 "cards": [{"card": cid, "count": draw(st.integers(1, 3))}]}
        if where.startswith("zone:"):
            entry["zone"] = where[5:]
        decks.append(entry)
    return card


@st.composite
def cases(draw: st.DrawFn, shipped: dict[tuple[str, ...], RuleSet], flow_changes: Any = None,
          games_per_rules: int = 2) -> Case:
    combos = draw(st.lists(st.sampled_from(COMBOS), min_size=1, max_size=2, unique=True))
    v = Vocab.of([shipped[c] for c in combos])
    layer: dict[str, Any] = {"layer": {"id": "generated", "name": "Generated"}}
    game: dict[str, Any] = {}
    if flow_changes is not None and draw(st.integers(0, 4)) == 4:  # the structure's steps moved too
        flow, windows = draw(flow_changes(combos, list(v.ages)))
        game["flow"] = flow
        v = Vocab(**{**v.__dict__, "windows": tuple(dict.fromkeys((*v.windows, *windows)))})
    ctx = Ctx(v)
    kinds = [k for k in v.kinds if k != "distinction"] + ["distinction"] * (draw(st.integers(0, 5)) == 5)
    if draw(st.integers(0, 3)) == 3:
        game["kinds"] = {NEW_KIND: {"enters": draw(st.sampled_from(("command zone", "own column", "chosen column",
                                                                     "discard"))),
                                    "dwarf_card": draw(st.booleans())}}
        kinds.append(NEW_KIND)
    cards: list[dict[str, Any]] = []
    decks: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 4))):
        cards.append(draw(made_card(ctx, i, kinds, decks)))
    for cid in draw(st.lists(st.sampled_from(v.cards), max_size=2, unique=True)):  # shipped cards changed
        change: dict[str, Any] = {"id": cid, "effects": draw(effects(ctx, cid))}
        if any("track" in e for e in change["effects"]):
            change["track"] = [0, 3, 6]
        cards.append(change)
    if draw(st.integers(0, 3)) == 3:
        cls = draw(st.sampled_from(v.classes))
        game["classes"] = [{"id": cls, "score": draw(class_formula(ctx))}]
    events = sorted(ctx.events)
    if events and draw(st.integers(0, 9)) == 9:  # an event the rules do not list (refused)
        events.pop(draw(st.integers(0, len(events) - 1)))
    if events:
        game["events"] = {e: EVENTS[e].text for e in events}
    params = dict(ctx.fresh_params)
    if draw(st.integers(0, 3)) == 3:  # a param the runtime or a card reads, set by the layer
        params[draw(st.sampled_from(v.params))] = draw(st.integers(-1, 6))
    if params:
        game["params"] = params
    if game:
        layer["game"] = game
    layer["cards"] = cards
    if decks:
        layer["decks"] = decks
    if draw(st.integers(0, 5)) == 5:
        layer["remove"] = [draw(st.sampled_from(v.cards))]
    games = draw(st.lists(st.tuples(st.integers(2, 5), st.integers(0, 10_000)), min_size=games_per_rules,
                          max_size=games_per_rules))
    return Case(combos, layer, games)
