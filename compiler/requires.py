"""The boxes a layer needs: its `requires: [thingvellir, ...]` (issue 18: "A variant declares the
boxes it needs; `check`, `play`, `docs`, `simulate` use them or refuse, located, when they are
missing").

A rule set that lacks a box one of its layers requires does not compile: an error at the
`requires` entry (`unmet`, in compile_specs). A command whose user gave no --expansions loads the
boxes its variants require instead, and says so in one note (`choose`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .diagnostics import Diagnostic, Diagnostics, Location
from .layers import Layer, load_layer
from .sources import EXPANSIONS, Spec, rules_dir


@dataclass(frozen=True)
class Required:
    """One `requires` entry: the box, the layer that needs it, and where it is written."""
    box: str
    layer: str
    is_variant: bool
    loc: Location

    @property
    def who(self) -> str:
        return f"{'variant' if self.is_variant else 'layer'} {self.layer}"


def listed(data: object) -> tuple[str, ...]:
    """The boxes a file's `requires` names (those that are boxes), in their fixed order."""
    items = data.get("requires") if isinstance(data, dict) else None
    return tuple(b for b in EXPANSIONS if isinstance(items, list) and b in items)


def declared(layer: Layer) -> list[Required]:
    """The boxes a loaded layer requires, each where it is written (any of the layer's files may
    give `requires`; a name that is not a box is the schema's error, not listed here)."""
    out: list[Required] = []
    for f in layer.files:
        items = f.data.get("requires") if isinstance(f.data, dict) else None
        for i, box in enumerate(items if isinstance(items, list) else []):
            if box in EXPANSIONS:
                out.append(Required(box, layer.id, layer.is_variant, f.locate(("requires", i))))
    return out


def loaded_boxes(layers: Sequence[Layer]) -> list[str]:
    """The expansions among the layers (a box is a layer that is not a variant, by its id)."""
    return [layer.id for layer in layers if not layer.is_variant and layer.id in EXPANSIONS]


def unmet(layers: Sequence[Layer]) -> list[Diagnostic]:
    """An error for each box a layer requires that the rule set does not load, at its entry."""
    have = loaded_boxes(layers)
    missing = [r for layer in layers for r in declared(layer) if r.box not in have]
    wanted = ",".join(b for b in EXPANSIONS if b in have or any(r.box == b for r in missing))
    hint = f"add --expansions {wanted}" if not have else f"add it to --expansions: --expansions {wanted}"
    diags = Diagnostics()
    for r in missing:
        diags.error(r.loc, f"{r.who} requires {r.box}, not loaded", hint)
    return diags.items


def needed(specs: Sequence[Spec]) -> list[Required]:
    """The boxes the layers of `specs` require (read ahead of compiling, to load them; a layer that
    cannot be read requires nothing here: compiling it says what is wrong)."""
    shipped = {rules_dir() / b for b in ("base", *EXPANSIONS)}
    out: list[Required] = []
    for path, shown, is_variant in specs:
        if path in shipped:
            continue
        layer = load_layer(path, shown, Diagnostics(), is_variant)
        if layer is not None:
            out += declared(layer)
    return out


def choose(given: Sequence[str] | None, specs: Sequence[Spec], both: bool = False) -> tuple[tuple[str, ...], str | None]:
    """The boxes to load and the note that says why: the boxes given (compiling refuses those that
    lack a required box), or with none given (None), the boxes the layers require. `both`: the
    layers are those of two rule sets compared (simulate), which play the same boxes."""
    if given is not None:
        return tuple(given), None
    required = needed(specs)
    boxes = tuple(b for b in EXPANSIONS if any(r.box == b for r in required))
    if not boxes:
        return (), None
    who: dict[str, list[str]] = {}
    for r in required:
        names = who.setdefault(r.who, [])
        if r.box not in names:
            names.append(r.box)
    why = "; ".join(f"{name} requires {', '.join(names)}" for name, names in who.items())
    fair = f"; both rule sets play with {'it' if len(boxes) == 1 else 'them'}, so that their games pair up" if both else ""
    return boxes, f"note: {why}: added, as --expansions {','.join(boxes)} would{fair}"


__all__ = ["Required", "choose", "declared", "listed", "loaded_boxes", "needed", "unmet"]
