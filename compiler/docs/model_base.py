"""The reference model's shared state and lookups: the compiled rule set and catalog, names and
links, the decks and zones, the flow steps shown; the small helpers its parts use."""
from __future__ import annotations

import re
import unicodedata
from typing import Any, TypeVar

from nidavellir.interface.mechanisms import step_spec
from nidavellir.interface.rules import CardDef, DeckEntry, Layer, RuleSet, Tavern, TavernDraw, card_marks
from nidavellir.interface.rules import Step as FlowStep

from .. import ir
from ..compile import Compiled
from ..layers import Origin
from .model_sections import PARAM_SECTIONS
from .text import Catalog, Context, context_of
from .views import DrawView, Link, ZoneRef



def card_anchors(card_ids: list[str]) -> dict[str, str]:
    """A unique HTML/Markdown anchor per card id (`warrior:3` -> `card-warrior-3`)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for cid in card_ids:
        anchor = base = "card-" + cid.replace(":", "-")
        i = 2
        while anchor in used:
            anchor, i = f"{base}-{i}", i + 1
        used.add(anchor)
        out[cid] = anchor
    return out


def sort_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Alphabetical order for readers: accents folded, case ignored, numbers by value."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)).casefold()
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", plain) if part)


_T = TypeVar("_T")


def _add(items: list[_T], item: _T) -> None:
    if item not in items:
        items.append(item)


def _runs(values: dict[int, _T]) -> list[tuple[list[int], _T]]:
    """Consecutive keys with equal values, together: {2: 3, 3: 3, 4: 4} -> [([2, 3], 3), ([4], 4)]."""
    out: list[tuple[list[int], _T]] = []
    for n, v in values.items():
        if out and out[-1][1] == v and out[-1][0][-1] == n - 1:
            out[-1][0].append(n)
        else:
            out.append(([n], v))
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class ModelBase:
    """What every part of the reference model reads, and the lookups the parts share."""

    def __init__(self, compiled: Compiled, cat: Catalog):
        self.c = compiled
        self.rs: RuleSet = compiled.ruleset
        self.cards: dict[str, CardDef] = compiled.cards()  # in the order the rules data lists them
        self.cat = cat
        self.cx: Context = context_of(self.rs, cat)
        self.class_ids: list[str] = [c.id for c in self.rs.classes]
        self.anchors = card_anchors(list(self.cards))
        self.variants: dict[str, Layer] = {lay.id: lay for lay in self.rs.layers if lay.variant}
        self.layer_of = {id(f): layer.id for layer in compiled.merged.layers for f in layer.files}
        for cid, origins in compiled.merged.card_origin.items():
            renamer = self.from_variant(origins.get("name"))
            if renamer is not None and cid in self.cards:
                self.cx.renamed[cid] = renamer
        self.players = list(range(self.rs.players[0], self.rs.players[1] + 1))
        for cid, effects in compiled.effects.items():
            for _, e in effects:
                if isinstance(e, ir.Modifier) and cid in self.cards:
                    self.cx.changers.setdefault(e.param, []).append((cid, e))

    # -- catalog text, names and links -----------------------------------------------------------------
    def t(self, key: str, **kw: Any) -> str:
        return self.cat.t(key, **kw)

    def link(self, cid: str) -> Link:
        return {"anchor": self.anchors[cid], "name": self.cx.card(cid)}

    def layer_text(self, layer: Layer, field: str) -> str:
        """A layer's `name`, `description` or `source`: catalog key `layer.<id>.<field>`, the rules
        data's English text by default."""
        text: str = getattr(layer, field) or ""
        return self.cat.t(f"layer.{layer.id}.{field}", default=text) if text else ""

    def per_players_text(self, values: dict[int, Any]) -> str:
        """"3 with 2 or 3 players, 4 with 4 players and 5 with 5 players": player counts in a row
        with the same value said once."""
        return self.cx.join([self.t("ref.per_players", n=self.cx.join([str(n) for n in ns], "list.or"), value=v)
                             for ns, v in _runs(values)])

    def players_range(self, ns: list[int]) -> str:
        """A run of player counts as a table heading says it: "2–4", "5"."""
        return str(ns[0]) if len(ns) == 1 else self.t("ref.players_range", first=ns[0], last=ns[-1])

    def kind_name(self, kind: str) -> str:
        return self.cat.t(f"kind.{kind}", default=kind)

    def kind_label(self, kind: str) -> str:
        return self.cat.t(f"ref.kinds.{kind}", default=kind.replace("-", " ").capitalize())

    def zone_ref(self, zid: str | None) -> ZoneRef:
        """A zone's name (`zone.name.<id>`, the rules data's by default) and its entry's anchor."""
        if not zid:
            return {"anchor": "", "name": ""}
        return {"anchor": f"zone-{zid}" if zid in self.cx.zones else "",
                "name": self.cat.t(f"zone.name.{zid}", default=self.cx.zones.get(zid))}

    def tavern_name(self, tavern: Tavern) -> str:
        return self.cat.t(f"tavern.{tavern.id}", default=tavern.name)

    def taverns(self) -> str:
        return self.cx.join([self.tavern_name(t) for t in self.rs.taverns])

    # -- house rules in force --------------------------------------------------------------------------
    def card_marks(self, cid: str) -> tuple[list[str], list[str]]:
        """The names of the house rules that added the card and of those that changed it."""
        marks = card_marks(self.cards[cid].layers, self.variants)
        return self.layer_names(marks.added), self.layer_names(marks.changed)

    def layer_names(self, layer_ids: list[str]) -> list[str]:
        out: list[str] = []
        for lid in layer_ids:
            if lid in self.variants:
                _add(out, self.layer_text(self.variants[lid], "name"))
        return out

    def from_variant(self, origin: Origin | None) -> str | None:
        lid = self.layer_of.get(id(origin.loaded)) if origin is not None else None
        return lid if lid in self.variants else None

    def marks_under(self, head: str, at: int) -> dict[str, list[str]]:
        """Names of the house rules that set something under `game.<head>`, by the path's key at `at`
        (a flow step id, a class id)."""
        out: dict[str, list[str]] = {}
        for path, origin in self.c.merged.game_origin.items():
            lid = self.from_variant(origin)
            if lid is not None and path[0] == head and len(path) > at + 1 and path[-1] != "id":
                _add(out.setdefault(str(path[at]), []), self.layer_text(self.variants[lid], "name"))
        return out

    # -- decks and zones -------------------------------------------------------------------------------
    def deck_size(self, age: int, n: int) -> int:
        return sum(e.count for e in self.decks(age) if e.min_players <= n)

    def decks(self, age: int) -> tuple[DeckEntry, ...]:
        return self.rs.decks.get(age, ())

    def in_any_deck(self) -> set[str]:
        return {e.card for age in self.rs.ages for e in self.decks(age)} | {
            e.card for _, _, entries in self.zone_decks() for e in entries}

    def zone_decks(self, zid: str | None = None) -> list[tuple[str, int, tuple[DeckEntry, ...]]]:
        """(zone, age, entries) of every deck a zone holds per age (the Camp decks), or of one zone's."""
        return [(zone, age, entries)
                for zone, decks in self.rs.zone_decks.items() if zid in (None, zone)
                for age, entries in sorted(decks.items())]

    def is_pile(self, zid: str) -> bool:
        """A zone whose `decks:` entries, of any age, make one deck shuffled at setup (the mythology deck)."""
        return bool(self.zone_decks(zid)) and not any(z.per_age for z in self.rs.zones if z.id == zid)

    def draws(self, zid: str | None = None) -> list[DrawView]:
        """The taverns that the dwarves' entry fills from a zone's deck in some turns (`draws`)."""
        out: list[DrawView] = []
        for tavern in self.rs.taverns:
            for d in tavern.draws:
                if zid in (None, d.zone):
                    out.append({"tavern": self.tavern_name(tavern), "zone": self.zone_ref(d.zone),
                                "when": self.draw_when(d)})
        return out

    def draw_when(self, draw: TavernDraw) -> str:
        turns = self.cx.join([str(n) for n in draw.turns])
        if draw.ages:
            return self.t("ref.draw.when_age", turns=turns, ages=self.cx.join([str(a) for a in draw.ages]))
        return self.t("ref.draw.when", turns=turns)

    # -- cards by kind and by what they do -------------------------------------------------------------
    def cards_of(self, kind: str) -> list[str]:
        order = {c: i for i, c in enumerate(["neutral"] + self.class_ids)}
        ids = [cid for cid, c in self.cards.items() if c.kind == kind]
        return sorted(ids, key=lambda cid: order.get(self.cards[cid].cls, len(order)))

    def cards_modifying(self, params: set[str]) -> list[Link]:
        return [self.link(cid) for cid, effects in self.c.effects.items()
                if any(isinstance(e, ir.Modifier) and e.param in params for _, e in effects)]

    def reacting(self, event: str) -> list[Link]:
        """Cards with an effect on this flow window, in card-list order."""
        return [self.link(cid) for cid, effects in self.c.effects.items()
                if any(isinstance(e, (ir.Triggered, ir.Replacement)) and e.event == event for _, e in effects)]

    def modifying(self, section: str) -> list[Link]:
        return self.cards_modifying({p for p, s in PARAM_SECTIONS.items() if s == section})

    # -- flow steps ------------------------------------------------------------------------------------
    def shown_step(self, step: FlowStep) -> bool:
        """A flow step the reference lists: one that does something in this rule set (a step acting only
        while its spec's param is on is left out with the param off and no card turning it on), or a
        window a card acts at."""
        spec = step_spec(step.do)
        param = spec.param if spec else None
        if param is not None:
            return bool(self.rs.params.get(param)) or bool(self.cards_modifying({param}))
        return bool(step.do) or bool(step.window and self.reacting(step.window))

    def step_links(self) -> list[tuple[FlowStep, Link]]:
        """Every flow step with a link naming it by its place: in a turn, a tavern's resolution, or the
        end of an age (once per age it runs in)."""
        rs = self.rs
        out: list[tuple[FlowStep, Link]] = []
        for part, prefix, key in ((rs.turn, "step-", "ref.zones.turn_step"), (rs.tavern, "tavern-step-", "ref.zones.tavern_step")):
            steps = [s for s in part if self.shown_step(s)]
            out += [(s, {"anchor": prefix + s.id, "name": self.t(key, n=i)}) for i, s in enumerate(steps, 1)]
        for age in rs.ages:
            steps = [s for s in rs.age_end if (not s.ages or age in s.ages) and self.shown_step(s)]
            out += [(s, {"anchor": f"age-{age}-{s.id}", "name": self.t("ref.zones.age_step", n=i, age=age)})
                    for i, s in enumerate(steps, 1)]
        return out
