"""Hover: a card's name, kind, class, ranks and points, and its rule text as the reference prints
it (the docs back end's card views), shown on its id wherever the id is written (its `id:`, a DSL
string, `remove:`, a deck entry, a position's army) or anywhere in its entry; and a short note on
an event, class, param or zone name."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nidavellir.compiler.diagnostics import Location, RulesError
from nidavellir.compiler.yamlload import load_yaml

from .positions import TextIndex
from .vocabulary import Vocabulary

if TYPE_CHECKING:
    from nidavellir.compiler.compile import Compiled
    from nidavellir.compiler.docs.views import CardView

_NAME_CHARS = re.compile(r"[a-z0-9_:\-]")


def word_at(text: str, offset: int) -> tuple[int, int] | None:
    """The span of the name (an id: lowercase words joined by `-` or `:`) at `offset`."""
    start = end = offset
    while start > 0 and _NAME_CHARS.match(text[start - 1]):
        start -= 1
    while end < len(text) and _NAME_CHARS.match(text[end]):
        end += 1
    while start < end and not text[start].isalpha():
        start += 1
    while end > start and text[end - 1] in ":-":
        end -= 1
    return (start, end) if start < end and start <= offset <= end else None


def card_entry_at(text: str, offset: int) -> str | None:
    """The id of the `cards:` entry the offset is in, if the text loads."""
    try:
        loaded = load_yaml("<hover>", text=text, name="<hover>")
    except RulesError:
        return None
    data = loaded.data
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return None
    index = TextIndex(text)

    def at(loc: Location) -> int:
        return index.from_loc(loc.line, loc.col)

    starts = [at(loaded.locate(("cards", i))) for i in range(len(data["cards"]))]
    here = at(loaded.locate_key(("cards",)))
    later = [o for k in data if (o := at(loaded.locate_key((k,)))) > here]
    end = min(later) if later else len(text)
    found = None
    for i, start in enumerate(starts):
        if start <= offset < end:
            found = i
    card = data["cards"][found] if found is not None else None
    return card["id"] if isinstance(card, dict) and isinstance(card.get("id"), str) else None


@dataclass
class HoverFacts:
    """What a hover may show: the compiled rules, their names and the reference's card views."""
    compiled: Compiled
    vocabulary: Vocabulary
    views: dict[str, CardView]


def card_markdown(facts: HoverFacts, cid: str) -> str | None:
    card = facts.compiled.ruleset.cards.get(cid)
    if card is None:
        return None
    view = facts.views.get(cid)
    name = view["name"] if view else card.name
    parts = [card.kind]
    label = view["class_label"] if view else card.cls
    if label and label != "neutral":
        parts.append(label)
    elif card.cls == "neutral":
        parts.append("no class")
    if view and view["ranks_label"]:
        parts.append(view["ranks_label"])
    else:
        if card.ranks:
            parts.append(f"ranks: {', '.join(map(str, card.ranks))}")
        if card.points:
            parts.append(f"points: {card.points}")
    if card.copies != 1:
        parts.append(f"{card.copies} copies")
    out = [f"**{_md(name)}** `{cid}`", "", " · ".join(_md(p) for p in parts if p)]
    text = view["text"] if view else []
    if text:
        out += ["", *(_md(t) + "  " for t in text)]
    out += ["", f"*{_md(card.source)}* (layers: {', '.join(card.layers)})"]
    return "\n".join(out).rstrip()


def name_markdown(facts: HoverFacts, name: str, as_class: bool = False) -> str | None:
    """The card of that name, and the event, class, param or zone of that name (the class first
    where the name stands as a class: `class: hunter` is the class, `- id: hunter` the card)."""
    v = facts.vocabulary
    notes = []
    if name in v.classes:
        formula = next((c.formula for c in facts.compiled.ruleset.classes if c.id == name), "")
        notes.append(f"**class** `{name}`: {_md(v.classes[name])}" + (f" · score `{formula}`" if formula else ""))
    if name in v.events:
        spec = v.events[name]
        forms = ", ".join(sorted(spec.forms))
        notes.append(f"**event** `{name}`: {_md(spec.text)} (forms: {forms})")
    if name in v.params:
        notes.append(f"**param** `{name}` {_md(v.params[name])}")
    if name in v.zones:
        notes.append(f"**zone** `{name}`: {_md(v.zones[name])}")
    card = card_markdown(facts, name)
    if card is None:
        return "\n\n".join(notes) or None
    return "\n\n---\n\n".join([*notes, card] if as_class and notes else [card, *notes])


def _md(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text)
