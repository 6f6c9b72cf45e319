"""What a card's effects say about where cards stand and what the card carries, as data the runtime
reads without running a handler (`CardDef.placings`, `captures`, `marks`, `spends`): the cards its
effects place and where, what it may capture, the marks its actions set on it, and which of them spend
its one once-per-game power."""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from nidavellir.interface.mechanisms import ACTION_SPECS
from nidavellir.interface.rules import PLACED_SELF, PLACED_SUBJECT, Capture, Placing

from . import ir

# How a `place … in PLACE` names where the card goes, as `CardDef.enters` does.
_MODES = {"chosen": "chosen", "another": "chosen", "among": "chosen", "column": "column", "own": "own",
          "command": "command"}


def _expanded(effects: Iterable[ir.Effect]) -> Iterator[ir.Effect]:
    """The effects as the runtime runs them (a giant's `capture next` is two effects)."""
    for effect in effects:
        if isinstance(effect, ir.CaptureNext):
            yield from ir.capture_effects(effect)
        else:
            yield effect


def placings(effects: Iterable[ir.Effect]) -> tuple[Placing, ...]:
    """Every `place CARD in PLACE` (and `move … to …`) of the effects, once each."""
    out: list[Placing] = []
    for effect in _expanded(effects):
        for node in ir.walk(effect):
            placed = node.placed() if isinstance(node, ir.Act) else None
            if placed is None:
                continue
            ref, place = placed
            card = PLACED_SUBJECT if ref.subject else PLACED_SELF if ref.card is None else ref.card
            placing = Placing(card, _MODES[place.mode], place.column, place.among)
            if placing not in out:
                out.append(placing)
    return tuple(out)


def captures(effects: Iterable[ir.Effect]) -> tuple[Capture, ...]:
    """What the effects may capture: each replacement that captures, with the kind and class of the
    event's card its condition requires (only what a conjunction of `subject_kind is K` and
    `subject_class is C` says; anything else it tests is not narrowed, so nothing it may capture is
    left out). A condition no card can meet (two kinds) captures nothing."""
    out: list[Capture] = []
    for effect in _expanded(effects):
        if not isinstance(effect, ir.Replacement):
            continue
        if not any(isinstance(n, ir.Act) and n.name == "capture" for a in effect.actions for n in ir.walk(a)):
            continue
        kinds: set[str] = set()
        classes: set[str] = set()
        for atom in _conjuncts(effect.cond):
            if isinstance(atom, ir.Is) and isinstance(atom.subject, ir.Var):
                if atom.subject.name == "subject_kind":
                    kinds.add(atom.name)
                elif atom.subject.name == "subject_class":
                    classes.add(atom.name)
        if len(kinds) > 1 or len(classes) > 1:
            continue
        capture = Capture(next(iter(kinds), None), next(iter(classes), None), effect.once)
        if capture not in out:
            out.append(capture)
    return tuple(out)


def _conjuncts(cond: ir.Expr | None) -> list[ir.Expr]:
    if cond is None:
        return []
    if isinstance(cond, ir.BoolOp) and cond.op == "and":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def marks(effects: Iterable[ir.Effect]) -> tuple[str, ...]:
    """The marks the effects' actions set on their own card, in the position format's order: `tokens`
    (`add`/`remove N tokens`), `class` (`choose class`), `face_down` (`turn face down`, which also
    spends the card's power) and `used` (a power used once per game)."""
    found: set[str] = set()
    for effect in _expanded(effects):
        if isinstance(effect, (ir.Triggered, ir.Replacement)) and effect.once:
            found.add("used")
        for node in ir.walk(effect):
            if isinstance(node, ir.Act):
                found |= set(ACTION_SPECS[node.name].marks)
    return tuple(m for m in ("tokens", "class", "face_down", "used") if m in found)


def spends(effects: Iterable[ir.Effect]) -> tuple[str, ...]:
    """The state keys (the position format's) that each record a way the card's one once-per-game
    power was spent: set only while the power is unspent, and spending it, so that a card carries at
    most one of them. `captured` when every capture is once per game (a giant's: the power is spent by
    capturing); `face_down` when every `turn face down` (which spends the power, runtime
    `turn_face_down`) runs only while the power is unspent (in a once-per-game effect, or one whose
    condition requires `not used`: a giant's, when its owner places the card instead)."""
    gated: dict[str, list[bool]] = {"captured": [], "face_down": []}
    for effect in _expanded(effects):
        once = isinstance(effect, (ir.Triggered, ir.Replacement)) and effect.once
        unspent = once or isinstance(effect, (ir.Triggered, ir.Replacement)) and any(
            isinstance(atom, ir.Not) and isinstance(atom.operand, ir.Var) and atom.operand.name == "used"
            for atom in _conjuncts(effect.cond))
        for node in ir.walk(effect):
            if isinstance(node, ir.Act) and node.name == "capture" and isinstance(effect, ir.Replacement):
                gated["captured"].append(once)
            elif isinstance(node, ir.Act) and node.name == "face-down":
                gated["face_down"].append(unspent)
    return tuple(key for key, each in gated.items() if each and all(each))
