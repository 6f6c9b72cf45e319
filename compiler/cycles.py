"""Effects that feed themselves, found before a game.

Two graphs of the rules:

- **values**: a param reads what the amounts of its modifiers read; a card's score reads `param(x)`
  and `points(CLASS)`, which counts the scores of the cards that can stand in that column. A cycle
  here is a value that needs itself: once it is worked out, that never ends.
- **events**: an effect on an event runs actions, and an action can fire events
  (`nidavellir.interface.events.ACTION_EVENTS` declares them for each engine action, and the actions
  an effect calls are read from the code the emitter writes for it), which run the effects on them.
  An edge into a card's own event (`when taken`, `when recruited`) is left out when the card could
  not be its subject: a card that never lies in the discard pile is never taken from it.

A cycle with nothing on the way that can stop it is an error, located at each member with the chain
in words; one that something can stop (a condition, `may`, once per game, a choice, a finite
resource such as the treasure's better coins or the available heroes, unless the loop itself gives
that resource back) is a warning. The runtime stops what gets past this (runtime/loops.py).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from nidavellir.interface.events import ACTION_GIVES_BACK, ACTION_USES, CARD, ENTERED, EVENTS, HERO
from nidavellir.interface.events import ARMY as NEXT_TO, IN_ARMY, INSTEAD, INSTEAD_ANY, JOINS, LANDS, NO_CARD, OUTSIDE
from nidavellir.interface.events import OWN, PILE, HEROES, SUPPLY, USED_UP, WHEN, WHENEVER, Fires
from nidavellir.interface.mechanisms import ACTION_EVENTS, ACTION_SPECS
from nidavellir.interface.rules import LoopWarning

from . import ir
from .check import form_text
from .deck_returns import check_deck_returns
from .diagnostics import Diagnostics, Location
from .emit import PyScope, Writer, action as emit_action
from .places import ANY, ARMY, COMMAND, EITHER, NOWHERE, Cards, CardFacts, Places
from .util import strong_components
from .values import Values

Node = tuple[str, ...]   # ("param", name), ("score", card), ("effect", card, index, part)


@dataclass(frozen=True)
class Site:
    """Where a step of a cycle is written: a card's effect and an offset in its DSL string."""
    card: str
    index: int
    pos: int


@dataclass(frozen=True)
class Edge:
    source: Node
    target: Node
    site: Site
    how: str                    # the step in words, `{}` where its target's name goes
    stops: tuple[str, ...] = ()  # what on this step can stop the loop
    uses: str | None = None     # what each step uses up
    needs: str | None = None    # what must be given back for the step to come again (its subject was used up)


@dataclass
class Info:
    name: str
    stops: tuple[str, ...] = ()
    gives_back: set[str] = field(default_factory=set)


@dataclass
class Graph:
    values: bool                 # a graph of values (reads) rather than of events
    nodes: dict[Node, Info] = field(default_factory=dict)
    edges: dict[Node, list[Edge]] = field(default_factory=dict)

    def add(self, edge: Edge) -> None:
        self.edges.setdefault(edge.source, []).append(edge)


# -- the value graph ------------------------------------------------------------------------------

Truth = Callable[[ir.Expr], "bool | None"]  # a condition's value where the rules data decides it


def _reads(e: ir.Expr, truth: Truth, conditional: bool = False) -> Iterator[tuple[ir.Call, bool]]:
    """`param(...)` and `points(...)` calls that working `e` out makes, each with whether a condition
    decides it is made. A condition is worked out whenever its expression is (so what it reads is
    read), and one the rules data decides (`1 > 0`, a param no card modifies) takes one branch: the
    other is never read, and the one it takes is read as surely as the condition."""
    match e:
        case ir.Call():
            if e.name in ("param", "points"):
                yield e, conditional
            for a in e.args:
                yield from _reads(a, truth, conditional)
        case ir.BinOp() | ir.Compare():
            yield from _reads(e.left, truth, conditional)
            yield from _reads(e.right, truth, conditional)
        case ir.BoolOp():
            yield from _reads(e.left, truth, conditional)
            left = truth(e.left)
            if left is not (e.op == "or"):  # (else the left side decides: the right is never worked out)
                yield from _reads(e.right, truth, conditional or left is None)
        case ir.IfElse():
            yield from _reads(e.cond, truth, conditional)
            cond = truth(e.cond)
            if cond is not False:
                yield from _reads(e.then, truth, conditional or cond is None)
            if cond is not True:
                yield from _reads(e.otherwise, truth, conditional or cond is None)
        case ir.Not():
            yield from _reads(e.operand, truth, conditional)
        case ir.Is():
            yield from _reads(e.subject, truth, conditional)
        case _:
            return


def value_graph(cards: dict[str, CardFacts], places: Places, values: Values) -> Graph:
    g = Graph(values=True)
    scores = {cid: (i, eff) for cid, c in cards.items() for i, eff in c.effects
              if isinstance(eff, ir.Score) and not eff.once}  # (`score once` is not counted by `points`)

    def reads_of(node: Node, cid: str, index: int, expr: ir.Expr) -> None:
        for call, conditional in _reads(expr, lambda cond: values.truth(cond, cid)):
            stops = ("a condition decides the read",) if conditional else ()
            site = Site(cid, index, call.pos)
            arg = call.args[0] if call.args else None
            if call.name == "param" and isinstance(arg, ir.Var):
                target: Node = ("param", arg.name)
                g.nodes.setdefault(target, Info(f"`{arg.name}`"))
                g.add(Edge(node, target, site, "reads {}", stops))
                continue
            column = arg.name if isinstance(arg, ir.Var) and arg.name in places.classes else None
            for other in scores:
                if places.may_stand_in(other, column):
                    target = ("score", other)
                    g.nodes.setdefault(target, Info(f"the score of `{other}`"))
                    through = arg.name if isinstance(arg, ir.Var) else ""
                    g.add(Edge(node, target, site, f"reads {{}} (through `points({through})`)", stops))

    for cid, c in cards.items():
        for index, eff in c.effects:
            if isinstance(eff, ir.Modifier):
                node: Node = ("param", eff.param)
                g.nodes.setdefault(node, Info(f"`{eff.param}`"))
                reads_of(node, cid, index, eff.amount)
            elif isinstance(eff, ir.Score):
                node = ("score", cid)
                g.nodes.setdefault(node, Info(f"the score of `{cid}`"))
                reads_of(node, cid, index, eff.expr)
    return g


# -- the event graph ------------------------------------------------------------------------------

_CALL = re.compile(r"\bg\.([a-z_]+)\(")


@lru_cache(maxsize=4096)
def engine_calls(a: ir.Action) -> frozenset[str]:
    """The engine actions the code the emitter writes for `a` calls."""
    w = Writer()
    emit_action(w, a, PyScope(), lambda pos: "")
    return frozenset(_CALL.findall("\n".join(w.lines)))


def _leaves(actions: tuple[ir.Action, ...], other: bool = False) -> Iterator[tuple[ir.Act, bool]]:
    """The actions in the order they run, each with whether another player does it (`each other player`)."""
    for a in actions:
        if isinstance(a, ir.Then):
            yield from _leaves((a.first, a.rest), other)
        elif isinstance(a, ir.EachOther):
            yield from _leaves((a.action,), True)
        else:
            yield a, other


@dataclass(frozen=True)
class _Effect:
    card: str
    index: int
    effect: ir.Triggered | ir.Replacement

    @property
    def form(self) -> str:
        e = self.effect
        if isinstance(e, ir.Replacement):
            return INSTEAD_ANY if e.owner else INSTEAD
        return WHENEVER if e.owner else WHEN


def _effects(cards: dict[str, CardFacts]) -> Iterator[tuple[Node, _Effect]]:
    for cid, c in cards.items():
        for index, eff in c.effects:
            parts: list[tuple[str, ir.Triggered | ir.Replacement]] = []
            if isinstance(eff, (ir.Triggered, ir.Replacement)):
                parts = [("", eff)]
            elif isinstance(eff, ir.CaptureNext):
                capture, declined = ir.capture_effects(eff)
                parts = [("capture", capture), ("declined", declined)]
            for part, e in parts:
                if e.event in EVENTS:  # (a flow window is fired by the flow alone)
                    yield ("effect", cid, str(index), part), _Effect(cid, index, e)


def _maybe(cond: ir.Expr | None, card: str, places: Places, cards: dict[str, CardFacts]) -> bool:
    """Whether `cond` may hold for an event about `card` (False: its test of the subject's kind or
    class rules it out)."""
    if cond is None:
        return True
    match cond:
        case ir.BoolOp():
            left, right = _maybe(cond.left, card, places, cards), _maybe(cond.right, card, places, cards)
            return (left and right) if cond.op == "and" else (left or right)
        case ir.Is() if isinstance(cond.subject, ir.Var) and card in cards:
            c = cards[card]
            if cond.subject.name == "subject_kind":
                return c.kind == cond.name
            if cond.subject.name == "subject_class":
                return cond.name == c.cls or places.may_stand_in(card, cond.name)
            return True
        case _:
            return True


class _Whereabouts:
    """Where the effect's own card and the event's card are while the effect runs, relative to the
    acting player (places.ARMY, COMMAND, NOWHERE or EITHER): where the event leaves its subject
    (`EventSpec.subject_at`) and where its owner holds the effect's own card (Places.held_at: a
    `whenever` effect runs for a card its owner holds), then where the effect's own actions move them. (A move by another
    effect in between is not followed: the runtime's guard stops what that makes endless.)"""

    def __init__(self, eff: _Effect, places: Places, start: str | None = None):
        spec = EVENTS[eff.effect.event]
        subject = {IN_ARMY: ARMY, OUTSIDE: NOWHERE}.get(spec.subject_at, EITHER)
        own = eff.form in (WHEN, INSTEAD)
        if spec.subject_at == ENTERED and own:
            subject = places.entered(eff.card)
        self.same = own or start is not None  # (the effect's card is the event's card)
        self.actor = eff.card
        self.at = {"self": subject if self.same else places.held_at(eff.card), "subject": subject}
        self.places = places

    def of(self, ref: ir.CardRef) -> str:
        """Where a card reference's card is (a card of the supply: outside every army)."""
        if ref.card is not None and not ref.subject:
            return NOWHERE
        return self.at["subject" if ref.subject else "self"]

    def move(self, ref: ir.CardRef, to: str) -> None:
        if ref.card is not None and not ref.subject:
            return
        for key in (("self", "subject") if self.same else ("subject" if ref.subject else "self",)):
            self.at[key] = to

    def after(self, leaf: ir.Act, other: bool) -> None:
        """Follow what `leaf` does to the two cards."""
        if (placed := _placed(leaf)) is not None:
            self.move(placed[0], EITHER if other else _landing(placed, self.actor, self.places))
        elif (under := leaf.under()) is not None:
            self.move(under[0], NOWHERE)
        elif ACTION_SPECS[leaf.name].unsettles:
            self.at = {key: EITHER for key in self.at}  # (it may be the card discarded, returned or captured)


def _placed(leaf: ir.Act) -> tuple[ir.CardRef, ir.Place] | None:
    """The card an action places in an army column or a command zone, and where, if it places one."""
    return leaf.placed()


def _landing(placed: tuple[ir.CardRef, ir.Place], actor: str, places: Places) -> str:
    """Where a card `actor`'s effect places lands: an army column, or the command zone (which a kind an
    age's end places at once leaves for a column while that step runs)."""
    ref, place = placed
    if place.mode != "command":
        return ARMY
    card = None if ref.subject else ref.card or actor
    if card is None:
        return EITHER if places.held_kinds else COMMAND
    return EITHER if card in places.cards and places.cards[card].kind in places.held_kinds else COMMAND


def event_graph(cards: dict[str, CardFacts], places: Places, values: Values) -> Graph:
    g = Graph(values=False)
    effects = dict(_effects(cards))
    on: dict[str, list[Node]] = {}
    acting: dict[Node, _Effect] = {}
    for node, eff in effects.items():
        e = eff.effect
        stops = []
        name = f"`{eff.card}`'s `{form_text(eff.form, e.event)}`"
        cond = None if e.cond is None else values.truth(e.cond, eff.card)
        if cond is False:
            continue  # a condition the rules data makes false: the effect never acts
        if e.cond is not None and cond is None:
            stops.append(f"{name} finds its condition false")
        if e.may:
            stops.append(f"its owner declines {name}")
        if e.once:
            stops.append(f"{name} has been used (once per game)")
        g.nodes[node] = Info(name, tuple(stops))
        on.setdefault(e.event, []).append(node)
        acting[node] = eff
    # Each effect once as the event leaves it; and, where an effect of a card that has one copy places
    # that card and so fires an event about it that the card's own `whenever` / `instead of any`
    # effect takes, that effect once more as it runs then: its card is the event's card (`@`: a node
    # of the effect with its card where that event leaves it, so `whenever joined: place self in
    # column X` moves within the army the second time, and joins nothing).
    todo = [(node, eff) for node, eff in acting.items()]
    while todo:
        node, eff = todo.pop(0)
        where = _Whereabouts(eff, places, node[4] if len(node) > 4 else None)
        for leaf, other in _leaves(eff.effect.actions):
            calls = engine_calls(leaf)
            g.nodes[node].gives_back |= {ACTION_GIVES_BACK[c] for c in calls if c in ACTION_GIVES_BACK}
            used = {ACTION_USES[c] for c in calls if c in ACTION_USES}
            for fired in (f for c in sorted(calls) for f in ACTION_EVENTS.get(c, ())):
                for new in _fire(g, node, eff, leaf, fired, used, on, acting, cards, places,
                                 _Move(leaf, other, where, places)):
                    todo.append((new, acting[new[:4]]))
            where.after(leaf, other)
    return g


def _as_subject(target: Node, other: _Effect, fired: Fires, leaf: ir.Act, eff: _Effect,
                cards: dict[str, CardFacts]) -> Node:
    """The node of `other` (an effect on the event fired) as it runs: its variant with its card where
    the event leaves it, when the event is about that very card (placed by this action, one copy) and
    `other` is an effect of its owner (`whenever`, `instead of any`) — else `target` itself."""
    at = {IN_ARMY: ARMY, OUTSIDE: NOWHERE}.get(EVENTS[fired.event].subject_at)
    if at is None or other.form not in (WHENEVER, INSTEAD_ANY) or fired.about != CARD:
        return target
    moved = _placed(leaf)
    if moved is None or moved[0].subject:
        return target
    placed = moved[0].card or eff.card
    if placed != other.card or cards[placed].copies != 1:
        return target
    return (*target[:4], at)


@dataclass(frozen=True)
class _Move:
    """What an action moves, for the circumstances in which it fires an event (`Fires.when`)."""
    leaf: ir.Act
    other: bool                # another player acts (`each other player`)
    where: _Whereabouts
    places: Places

    def moved(self, eff: _Effect, cards: dict[str, CardFacts]) -> Cards:
        """The cards the action moves into a player's holdings (ANY: any card)."""
        leaf, places = self.leaf, self.places
        if (placed := _placed(leaf)) is not None:
            return ANY if placed[0].subject else frozenset({placed[0].card or eff.card})
        if (source := leaf.source()) is not None:
            return _source_cards(source, places)
        if (heroes := leaf.heroes()) is not None:
            return places.heroes(*heroes)
        return ANY

    def lands(self, cards: Cards) -> bool:
        """Whether a card it moves can land in an army column."""
        if (placed := _placed(self.leaf)) is not None:
            return _landing(placed, self.where.actor, self.places) != COMMAND
        return cards is ANY or any(self.places.enters_army(c) for c in cards)

    def joining(self, cards: Cards) -> Cards:
        """The cards of `cards` that can join the acting player's army: they land in a column and
        were not in that army before."""
        if (placed := _placed(self.leaf)) is not None:
            before = self.where.of(placed[0])
            if self.other and before != EITHER:
                before = NOWHERE  # (it is in its owner's army, not the acting player's)
            return cards if self.lands(cards) and before != ARMY else frozenset()
        if cards is ANY:
            return ANY
        return frozenset(c for c in cards if self.places.enters_army(c))


def _subjects(fired: Fires, eff: _Effect, leaf: ir.Act, cards: dict[str, CardFacts],
              places: Places) -> tuple[Cards, frozenset[str]]:
    """The cards the fired event can be about (ANY: any card) and the cards it cannot be about."""
    placing = _placed(leaf)
    placed = None
    if placing is not None and not placing[0].subject:
        placed = placing[0].card or eff.card
    if fired.about == CARD:
        if placing is not None:
            return (ANY, frozenset()) if placed is None else (frozenset({placed}), frozenset())
        if (acted := leaf.cards()) is not None:
            return places.card_set(acted), frozenset()
        return ANY, frozenset()
    if fired.about == OWN:
        return frozenset({eff.card}), frozenset()
    if fired.about == NEXT_TO:  # the card a placed card lands on: not that card itself (unless it has copies)
        but = frozenset({placed}) if placed is not None and cards[placed].copies == 1 else frozenset()
        return frozenset(cid for cid in cards if places.may_stand_in(cid, None)), but
    if fired.about == PILE:
        if (source := leaf.source()) is not None:
            return _source_cards(source, places), frozenset()
        return ANY, frozenset()
    if fired.about == HERO:
        return places.heroes(*(leaf.heroes() or (None,))), frozenset()
    return frozenset(), frozenset()


def _source_cards(source: ir.Deck | ir.Word, places: Places) -> Cards:
    """The cards of the deck or the pile (a zone's id) an action moves cards of."""
    return places.deck(source) if isinstance(source, ir.Deck) else places.pile(source.value)


def _fire(g: Graph, node: Node, eff: _Effect, leaf: ir.Act, fired: Fires, used: set[str],
          on: dict[str, list[Node]], effects: dict[Node, _Effect], cards: dict[str, CardFacts],
          places: Places, move: _Move) -> list[Node]:
    """Add the edges of `leaf` firing `fired`; return the nodes of effects as they run that the graph
    did not have yet (`_as_subject`)."""
    new: list[Node] = []
    subjects, but = _subjects(fired, eff, leaf, cards, places)
    if fired.when == LANDS and not move.lands(move.moved(eff, cards)):
        return new  # (the card goes to the command zone: it covers nothing and completes no line)
    if fired.when == JOINS:
        if fired.about == HERO:  # the hero a complete line (or the action) recruits, where it enters a column
            landed = move.lands(move.moved(eff, cards))
            subjects = frozenset() if not landed else \
                ANY if subjects is ANY else frozenset(c for c in subjects if places.enters_army(c))
        else:
            subjects = move.joining(subjects)
        if subjects is not ANY and not subjects:
            return new  # (a card already in the army moves within it; one that lands in no column joins nothing)
    verb = ACTION_SPECS[leaf.name].phrase
    uses = fired.uses or (next(iter(sorted(used))) if used else None)
    stops: tuple[str, ...] = ()
    if fired.about == NEXT_TO and (placed := _placed(leaf)) is not None and placed[1].mode in ("chosen", "another", "among"):
        stops = ("a column is chosen whose top card does not step aside",)
    for target in on.get(fired.event, []):
        other = effects[target]
        own = other.form in (WHEN, INSTEAD)
        if fired.about == NO_CARD:
            possible: list[str] | None = None
        elif own:
            possible = [other.card] if (subjects is ANY or other.card in subjects) and other.card not in but else []
        else:
            possible = None if subjects is ANY else [c for c in subjects if c not in but]
        if possible is not None and not any(_maybe(other.effect.cond, c, places, cards) for c in possible):
            continue
        # A card's own event about a card that was used up (taken from a pile, recruited, from the
        # supply) comes again only if the loop gives that back (or for another copy of the card)
        needs = None
        if not own or cards[other.card].copies > 1:
            pass
        elif fired.about == HERO:
            needs = HEROES
        elif fired.about == PILE:
            needs = fired.uses
        elif fired.about == CARD and SUPPLY in used:
            needs = SUPPLY
        into = _as_subject(target, other, fired, leaf, eff, cards)
        if into not in g.nodes:
            g.nodes[into] = Info(g.nodes[target].name, g.nodes[target].stops)
            new.append(into)
        g.add(Edge(node, into, Site(eff.card, eff.index, leaf.pos),
                   f"fires `{fired.event}` (`{verb}`), which runs {{}}", stops, uses, needs))
    return new


# -- cycles ---------------------------------------------------------------------------------------

def _components(nodes: list[Node], edges: dict[Node, list[Edge]]) -> list[list[Node]]:
    """Strongly connected components of the graph's nodes (its edges' targets as successors)."""
    targets = {v: [e.target for e in out] for v, out in edges.items()}
    return strong_components(nodes, lambda v: targets.get(v, []))


def _looping(g: Graph) -> list[tuple[set[Node], dict[Node, list[Edge]], set[str]]]:
    """The components that hold a cycle: their nodes, their inner edges and what their actions give
    back. An edge that needs something given back stays only in a component that gives it back."""
    edges = g.edges
    while True:
        comps = _components(sorted(g.nodes), edges)
        where = {n: k for k, comp in enumerate(comps) for n in comp}
        gives = [set().union(*(g.nodes[n].gives_back for n in comp)) for comp in comps]
        kept = {n: [e for e in es if where.get(e.target) == where[n] and (e.needs is None or e.needs in gives[where[n]])]
                for n, es in edges.items()}
        if sum(map(len, kept.values())) == sum(map(len, edges.values())):
            break
        edges = kept
    out = []
    for k, comp in enumerate(comps):
        inner = {n: kept.get(n, []) for n in comp}
        if len(comp) > 1 or any(e.target == comp[0] for e in inner[comp[0]]):
            out.append((set(comp), inner, gives[k]))
    return out


def _shortest_cycle(start: Node, inner: dict[Node, list[Edge]]) -> list[Edge]:
    """The shortest cycle through `start` (its edges), by breadth-first search."""
    back: dict[Node, Edge] = {}
    frontier = [start]
    seen = {start}
    while frontier:
        nxt = []
        for v in frontier:
            for e in inner.get(v, []):
                if e.target == start:
                    path = [e]
                    while path[0].source != start:
                        path.insert(0, back[path[0].source])
                    return path
                if e.target not in seen:
                    seen.add(e.target)
                    back[e.target] = e
                    nxt.append(e.target)
        frontier = nxt
    return []


def _gives(g: Graph, cycle: list[Edge]) -> set[str]:
    """What the actions of a cycle give back."""
    return set().union(*(g.nodes[e.source].gives_back for e in cycle))


def _stops(g: Graph, cycle: list[Edge]) -> list[str]:
    """What can stop a cycle, in words (none: it never ends)."""
    gives = _gives(g, cycle)
    stops: list[str] = []
    for e in cycle:
        for s in (*g.nodes[e.source].stops, *e.stops):
            if s not in stops:
                stops.append(s)
        if e.uses is not None and e.uses not in gives and USED_UP[e.uses] not in stops:
            stops.append(USED_UP[e.uses])
    return stops


def cycles(g: Graph) -> Iterator[list[Edge]]:
    """Cycles of the graph: in each looping component, first the shortest cycle through each node of
    the loops nothing can stop, then the shortest through each node left."""
    seen: set[tuple[Edge, ...]] = set()

    def canonical(cycle: list[Edge]) -> tuple[Edge, ...]:
        first = min(range(len(cycle)), key=lambda k: cycle[k].source)
        return tuple(cycle[first:] + cycle[:first])

    for comp, inner, gives in _looping(g):
        hard = {n: [e for e in inner[n] if not e.stops and (e.uses is None or e.uses in gives)]
                for n in comp if not g.nodes[n].stops}
        covered: set[Node] = set()
        for start in sorted(hard):
            cycle = _shortest_cycle(start, hard)
            if cycle and not _stops(g, cycle):
                covered |= {e.source for e in cycle}
                key = canonical(cycle)
                if key not in seen:
                    seen.add(key)
                    yield list(key)
        for start in sorted(comp - covered):
            if start[4:] and start[:4] in comp:
                continue  # (an effect as it runs on its own card's event: its cycles go through the effect)
            cycle = _shortest_cycle(start, inner)
            if cycle and canonical(cycle) not in seen:
                seen.add(canonical(cycle))
                yield list(canonical(cycle))


def report(g: Graph, diags: Diagnostics, locate: Callable[[Site], Location],
           effect_at: Callable[[str, int], str] | None = None) -> list[LoopWarning]:
    """Each cycle of the graph: an error (nothing can stop it) or a warning, at each of its steps.
    Returns the loops of events it warns of, for the runtime's words when play goes deep in one
    (`RuleSet.loops`; `effect_at`: where a card's effect is written, as its handlers' markers say)."""
    warned: list[LoopWarning] = []
    said: set[tuple[str, str]] = set()  # (an effect and its variant as it runs can make one chain twice)
    for cycle in cycles(g):
        stops = _stops(g, cycle)
        for k in range(len(cycle)):
            steps = cycle[k:] + cycle[:k]
            chain = g.nodes[steps[0].source].name + " " + ", which ".join(
                e.how.format(g.nodes[e.target].name) for e in steps) + " again"
            where = locate(steps[0].site)
            if (str(where), chain) in said:
                continue
            said.add((str(where), chain))
            if g.values:
                if stops:
                    diags.warning(where, f"{chain}: where a condition lets these reads happen, working it out "
                                         "never ends", "a param or a score cannot read itself, even through others")
                else:
                    diags.error(where, f"{chain}: working it out never ends",
                                "a param or a score cannot read itself, even through others: remove one of these reads")
            elif stops:
                diags.warning(where, f"{chain}: this can repeat, and stops only when " + " or ".join(stops),
                              "make sure it cannot go on without end")
            else:
                diags.error(where, f"{chain}: nothing on the way can stop it, so it never ends",
                            "give one of these effects a condition (`if ...`), `may` or `once per game`, "
                            "or break the chain")
        if stops and not g.values and effect_at is not None:
            members = tuple(dict.fromkeys(effect_at(e.source[1], int(e.source[2])) for e in cycle))
            warned.append(LoopWarning(members, str(locate(cycle[0].site)), " or ".join(stops)))
    return warned


def check_cycles(cards: dict[str, CardFacts], places: Places, values: Values, diags: Diagnostics,
                 locate: Callable[[Site], Location],
                 effect_at: Callable[[str, int], str] | None = None) -> list[LoopWarning]:
    """Report every cycle of values and of events in the rules, and effects that put cards back in an
    age's deck; return the loops of events warned of."""
    report(value_graph(cards, places, values), diags, locate)
    warned = report(event_graph(cards, places, values), diags, locate, effect_at)
    check_deck_returns(cards, diags, lambda cid, index, pos: locate(Site(cid, index, pos)))
    return warned
