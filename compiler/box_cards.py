"""Which shipped box defines a card: for the hint of a card a rule set lacks because its box is not
loaded (issue 18: "a card id unknown in the rule set but defined in a box not loaded gets `hint:
svalinn is a Thingvellir card: add --expansions thingvellir`"). The boxes are read from the shipped
rules folder as data, the same for every box."""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import yaml

from nidavellir.errors import suggest

from .sources import EXPANSIONS, rules_dir


@lru_cache(maxsize=1)
def _boxes() -> dict[str, tuple[str, str]]:
    """Card id -> (box id, box name: its layer's name) for every card an expansion's files define."""
    out: dict[str, tuple[str, str]] = {}
    for box in EXPANSIONS:
        name, ids = box, []
        for path in sorted((rules_dir() / box).glob("*.yaml")):
            try:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            except (OSError, yaml.YAMLError):
                continue
            if not isinstance(data, dict):
                continue
            layer = data.get("layer")
            if isinstance(layer, dict) and isinstance(layer.get("name"), str):
                name = layer["name"]
            ids += [c["id"] for c in data.get("cards") or [] if isinstance(c, dict) and isinstance(c.get("id"), str)]
        for cid in ids:
            out.setdefault(cid, (box, name))
    return out


def card_hint(cid: str, known: Iterable[object]) -> str | None:
    """The hint for a card id the rule set lacks: its box when a box not loaded defines it, else the
    nearest known id."""
    found = _boxes().get(cid)
    if found is not None:
        box, name = found
        return f"`{cid}` is a card of {name}: add --expansions {box}"
    return suggest(cid, known)
