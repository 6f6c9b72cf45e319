"""What the rule reference shows, gathered from a compiled rule set.

Every number comes from the rules data, every card text from its effect IR (compiler/docs/text.py),
the turn from the flow data; the templates only arrange it with catalog wording.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any, TypeVar

from .. import ir
from ..compile import Compiled
from ..dsl import parse_expr
from ..layers import Origin
from ..yamlload import JsonDict
from .scoring import TABLE_RANKS, class_scores, example, pointless_values
from .text import Catalog, Context, card_text, context_of, effect_text, formula_text, rank_class
from .views import (
    AgeSteps, AgeTurns, BreakdownPart, CardCount, CardEntry, CardGroup, CardView, ClassView, Components,
    DrawView, Elsewhere, HeroGroup, HouseRule, Interpretation, KindCount, Link, PickSourceView,
    PlayerRow, Reference, Requirements, ScoreTable, Setup, Step, StepFacts, Term, ZoneDeck, ZoneRef,
    ZoneStep, ZoneView,
)

# Sections in reading order: (anchor, catalog key of the title).
SECTIONS = [
    ("house-rules", "ref.house.title"), ("components", "ref.components.title"), ("setup", "ref.setup.title"),
    ("zones", "ref.zones.title"), ("turn", "ref.turn.title"), ("bids", "ref.bids.title"), ("coins", "ref.coins.title"),
    ("heroes", "ref.heroes.title"), ("scoring", "ref.scoring.title"), ("age-end", "ref.age_end.title"),
    ("final-scoring", "ref.final.title"), ("cards", "ref.cards.title"),
    ("interpretations", "ref.interp.title"), ("glossary", "ref.glossary.title"), ("index", "ref.index.title"),
]
# The section that shows each game setting (a house rule that changes one marks it).
SETTING_SECTIONS = {
    "players": "components", "cards_per_tavern": "components", "coins": "components", "gems": "components",
    "taverns": "setup", "ages": "turn", "events": "turn", "kinds": "cards", "classes": "scoring",
    "flow.turn": "turn", "flow.tavern": "turn", "flow.age_end": "age-end", "flow.before_scoring": "final-scoring",
    "zones": "zones", "pick_sources": "turn",
}
# The section whose rule a game param changes (cards that modify it are listed there).
PARAM_SECTIONS = {"bid_from_hand": "bids", "transform_bonus": "coins", "trade_lower": "coins",
                  "recruit_by_lines": "heroes"}

DeckEntry = list[Any]  # [card id, count, min_players], as the compiled rule data holds them
Setting = tuple[str, str, str]  # a house rule's game setting: dotted path, the value it sets or "", section
# Sections whose source note may gain a box's own sources (`<key>.<layer id>` in the catalog).
SOURCE_KEYS = ("ref.setup.source", "ref.zones.source", "ref.turn.source", "ref.bids.source", "ref.coins.source",
               "ref.heroes.source", "ref.scoring.source", "ref.age_end.source", "ref.final.source")


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


def _per(table: dict[Any, Any], n: int, default: Any = None) -> Any:
    """A `{players: value}` table's entry for n players (keys may be str or int)."""
    return table.get(n, table.get(str(n), default))


def sort_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """Alphabetical order for readers: accents folded, case ignored, numbers by value."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)).casefold()
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", plain) if part)


_T = TypeVar("_T")


def _add(items: list[_T], item: _T) -> None:
    if item not in items:
        items.append(item)


def _value_at(origin: Origin) -> Any:
    value: Any = origin.loaded.data
    for key in origin.path:
        value = value[key]
    return value


class _Model:
    def __init__(self, compiled: Compiled, cat: Catalog):
        self.c = compiled
        self.d = compiled.data
        self.game: JsonDict = self.d["game"]
        self.cat = cat
        self.cx: Context = context_of(self.d, cat)
        self.class_ids: list[str] = [c["id"] for c in self.d["classes"]]
        self.anchors = card_anchors(list(self.d["cards"]))
        self.variants: dict[str, JsonDict] = {l["id"]: l for l in self.d["layers"] if l["variant"]}
        self.layer_of = {id(f): layer.id for layer in compiled.merged.layers for f in layer.files}
        for cid, origins in compiled.merged.card_origin.items():
            renamer = self.from_variant(origins.get("name"))
            if renamer is not None and cid in self.d["cards"]:
                self.cx.renamed[cid] = renamer
        self.players = list(range(self.game["players"]["min"], self.game["players"]["max"] + 1))
        for cid, effects in compiled.effects.items():
            for _, e in effects:
                if isinstance(e, ir.Modifier) and cid in self.d["cards"]:
                    self.cx.changers.setdefault(e.param, []).append((cid, e))

    # -- helpers -------------------------------------------------------------------------------
    def t(self, key: str, **kw: Any) -> str:
        return self.cat.t(key, **kw)

    def link(self, cid: str) -> Link:
        return {"anchor": self.anchors[cid], "name": self.cx.card(cid)}

    def layer_text(self, layer: JsonDict, field: str) -> str:
        """A layer's `name`, `description` or `source`: catalog key `layer.<id>.<field>`, the rules
        data's English text by default."""
        text = layer.get(field) or ""
        return self.cat.t(f"layer.{layer['id']}.{field}", default=text) if text else ""

    def layer_names(self, layer_ids: list[str]) -> list[str]:
        out: list[str] = []
        for lid in layer_ids:
            if lid in self.variants:
                _add(out, self.layer_text(self.variants[lid], "name"))
        return out

    def from_variant(self, origin: Origin | None) -> str | None:
        lid = self.layer_of.get(id(origin.loaded)) if origin is not None else None
        return lid if lid in self.variants else None

    def per_players_text(self, values: dict[int, Any]) -> str:
        return self.cx.join([self.t("ref.per_players", n=n, value=v) for n, v in values.items()])

    def deck_size(self, age: int, n: int) -> int:
        return sum(count for _, count, least in self.decks(age) if least <= n)

    def decks(self, age: int) -> list[DeckEntry]:
        entries: list[DeckEntry] = self.d["decks"].get(age, self.d["decks"].get(str(age), []))
        return entries

    def in_any_deck(self) -> set[str]:
        return {e[0] for age in self.game["ages"] for e in self.decks(age)} | {
            e["card"] for _, _, entries in self.zone_decks() for e in entries}

    def zone_decks(self, zid: str | None = None) -> list[tuple[str, int, list[JsonDict]]]:
        """(zone, age, entries) of every deck a zone holds per age (the Camp decks), or of one zone's."""
        return [(zone, age, entries) for zone, decks in self.d.get("zone_decks", {}).items() if zid in (None, zone)
                for age, entries in sorted(decks.items())]

    def zone_spec(self, zid: str) -> JsonDict:
        return next((z for z in self.game.get("zones", []) if z["id"] == zid), {})

    def is_pile(self, zid: str) -> bool:
        """A zone whose `decks:` entries, of any age, make one deck shuffled at setup (the mythology deck)."""
        return bool(self.zone_decks(zid)) and not self.zone_spec(zid).get("per_age")

    def draws(self, zid: str | None = None) -> list[DrawView]:
        """The taverns that the dwarves' entry fills from a zone's deck in some turns (`draws`)."""
        out: list[DrawView] = []
        for tavern in self.game["taverns"]:
            for d in tavern.get("draws", []):
                if zid in (None, d["zone"]):
                    out.append({"tavern": self.tavern_name(tavern), "zone": self.zone_ref(d["zone"]),
                                "when": self.draw_when(d)})
        return out

    def draw_when(self, draw: JsonDict) -> str:
        turns = self.cx.join([str(n) for n in draw["turns"]])
        if draw.get("ages"):
            return self.t("ref.draw.when_age", turns=turns, ages=self.cx.join([str(a) for a in draw["ages"]]))
        return self.t("ref.draw.when", turns=turns)

    def age_turns(self) -> list[AgeTurns]:
        """How many turns each age with tavern draws lasts, per player count: an age ends with the turn
        in which its deck runs out, and a tavern filled from another zone takes nothing from it."""
        out: list[AgeTurns] = []
        for age in self.game["ages"]:
            draws = [(i, d) for i, t in enumerate(self.game["taverns"]) for d in t.get("draws", [])
                     if not d.get("ages") or age in d["ages"]]
            if not draws:
                continue
            counts: dict[int, Any] = {}
            for n in self.players:
                per, left, turn = _per(self.game["cards_per_tavern"], n, 0), self.deck_size(age, n), 0
                while left > 0 and per > 0:
                    turn += 1
                    others = {i for i, d in draws if turn in d["turns"]}
                    left -= per * (len(self.game["taverns"]) - len(others))
                counts[n] = turn
            out.append({"age": age, "turns": self.per_players_text(counts)})
        return out

    def kinds_dealt_to(self, zid: str) -> list[str]:
        """The kinds of the cards a zone can hold while play goes on: a tavern's come from the age
        decks and the zones taverns draw from; another zone's from its decks and those refilling it."""
        cards: set[str] = set()
        if zid == "tavern":
            cards |= {e[0] for age in self.game["ages"] for e in self.decks(age)}
            sources = {d["zone"] for t in self.game["taverns"] for d in t.get("draws", [])}
        else:
            sources = {zid} | {s.get("deck") for s, _ in self.step_links() if s.get("zone") == zid and s.get("deck")}
        cards |= {e["card"] for z, _, entries in self.zone_decks() if z in sources for e in entries}
        return [k for k in self.game["kinds"] if any(self.d["cards"][c]["kind"] == k for c in cards)]

    def elsewhere(self, step: JsonDict) -> list[Elsewhere]:
        """For a step that clears a zone into the discard pile: the kinds of its cards whose discards
        go to another zone (`discards_to`), by zone."""
        if step.get("do") != "clear" or step.get("into") != "discard" or not step.get("zone"):
            return []
        by_zone: dict[str, list[str]] = {}
        for kind in self.kinds_dealt_to(step["zone"]):
            to = self.game["kinds"][kind].get("discards_to")
            if to and to != "discard":
                by_zone.setdefault(to, []).append(self.kind_name(kind))
        return [{"kinds": self.cx.join(kinds), "zone": self.zone_ref(z)} for z, kinds in by_zone.items()]

    def zone_ref(self, zid: str | None) -> ZoneRef:
        """A zone's name (`zone.name.<id>`, the rules data's by default) and its entry's anchor."""
        if not zid:
            return {"anchor": "", "name": ""}
        return {"anchor": f"zone-{zid}" if zid in self.cx.zones else "",
                "name": self.cat.t(f"zone.name.{zid}", default=self.cx.zones.get(zid))}

    def kind_name(self, kind: str) -> str:
        return self.cat.t(f"kind.{kind}", default=kind)

    def cards_modifying(self, params: set[str]) -> list[Link]:
        return [self.link(cid) for cid, effects in self.c.effects.items()
                if any(isinstance(e, ir.Modifier) and e.param in params for _, e in effects)]

    def sources(self) -> dict[str, str]:
        """Each section's source note: its catalog text, then each box's own (`<key>.<layer id>`)."""
        boxes = [layer["id"] for layer in self.d["layers"] if not layer["variant"]]
        return {key: "; ".join(self.t(k) for k in [key] + [f"{key}.{b}" for b in boxes] if self.cat.has(k))
                for key in SOURCE_KEYS}

    def cards_of(self, kind: str) -> list[str]:
        order = {c: i for i, c in enumerate(["neutral"] + self.class_ids)}
        ids = [cid for cid, c in self.d["cards"].items() if c["kind"] == kind]
        return sorted(ids, key=lambda cid: order.get(self.d["cards"][cid]["class"], len(order)))

    def reacting(self, event: str) -> list[Link]:
        """Cards with an effect on this flow window, in card-list order."""
        return [self.link(cid) for cid, effects in self.c.effects.items()
                if any(isinstance(e, (ir.Triggered, ir.Replacement)) and e.event == event for _, e in effects)]

    def modifying(self, section: str) -> list[Link]:
        return self.cards_modifying({p for p, s in PARAM_SECTIONS.items() if s == section})

    # -- house rules and marks ---------------------------------------------------------------------
    def changes(self) -> tuple[dict[str, list[str]], dict[str, list[Setting]]]:
        """Section anchor -> names of the house rules that change it, and house rule id -> the game
        settings it changes (dotted path, the value it sets or "", section anchor)."""
        marks: dict[str, list[str]] = {}
        settings: dict[str, list[Setting]] = {}
        origins = self.c.merged.game_origin
        containers = {p[:i] for p in origins for i in range(1, len(p))}
        for path, origin in origins.items():
            lid = self.from_variant(origin)
            if lid is None or path in containers or path[-1] == "id":
                continue  # another layer's, a container of other settings, or a mere id
            unit = path[:3] if path[0] == "flow" else path[:2] if path[0] == "classes" else path
            if path[0] == "params":
                section = PARAM_SECTIONS.get(str(path[1]), "house-rules")
            else:
                head = ".".join(str(k) for k in path[:2]) if path[0] == "flow" else str(path[0])
                section = SETTING_SECTIONS.get(head, "house-rules")
            _add(marks.setdefault(section, []), self.layer_text(self.variants[lid], "name"))
            value = _value_at(origin) if unit == path and isinstance(_value_at(origin), (int, str)) else ""
            _add(settings.setdefault(lid, []), (".".join(str(k) for k in unit), str(value), section))
        for origin in self.c.merged.deck_origin.values():
            lid = self.from_variant(origin)
            if lid is not None:
                _add(marks.setdefault("components", []), self.layer_text(self.variants[lid], "name"))
        return marks, settings

    def house_rules(self, settings: dict[str, list[Setting]]) -> list[HouseRule]:
        merged = self.c.merged
        out: list[HouseRule] = []
        for lid, layer in self.variants.items():
            removed = [cid for cid, layers in merged.card_layers.items() if lid in layers and cid not in self.d["cards"]]
            out.append({
                "id": lid,
                "name": self.layer_text(layer, "name"),
                "description": self.layer_text(layer, "description"),
                "source": self.layer_text(layer, "source"),
                "cards": [self.link(cid) for cid, c in self.d["cards"].items() if lid in c["layers"]],
                "removed": [self.cat.t(f"card.{cid}", default=_value_at(merged.card_origin[cid]["name"])
                                       if "name" in merged.card_origin[cid] else cid) for cid in removed],
                "classes": [{"anchor": f"scoring-{path.split('.')[1]}", "name": self.cx.cls(path.split(".")[1])}
                            for path, _, _ in settings.get(lid, []) if path.startswith("classes.")],
                "settings": [{"path": path, "value": value, "anchor": section}
                             for path, value, section in settings.get(lid, []) if not path.startswith("classes.")],
                "interpretations": [{"anchor": f"interp-{i['id']}", "id": i["id"]}
                                    for i in self.d["interpretations"] if i.get("layer") == lid],
            })
        return out

    # -- components and setup ----------------------------------------------------------------------
    def components(self) -> Components:
        g = self.game
        coins = g["coins"]
        in_decks = self.in_any_deck()
        kinds: list[KindCount] = []
        for kind in g["kinds"]:
            ids = [cid for cid, c in self.d["cards"].items() if c["kind"] == kind]
            count = sum(e[1] for age in g["ages"] for e in self.decks(age) if self.d["cards"][e[0]]["kind"] == kind)
            count += sum(e["count"] for _, _, entries in self.zone_decks() for e in entries
                         if self.d["cards"][e["card"]]["kind"] == kind)
            count += sum(self.d["cards"][cid]["copies"] for cid in ids if cid not in in_decks)
            kinds.append({"kind": kind, "label": self.kind_label(kind), "entries": len(ids), "count": count})
        treasure = {int(v): n for v, n in coins.get("treasure", {}).items()}
        rows: list[PlayerRow] = []
        for n in self.players:
            removed = sum(_per(coins.get("treasure_removed", {}), n, {}).values())
            per_tavern = _per(g["cards_per_tavern"], n, 0)
            rows.append({
                "players": n,
                "gems": ", ".join(str(v) for v in _per(g["gems"]["by_players"], n, [])),
                "per_tavern": per_tavern,
                "per_turn": per_tavern * len(g["taverns"]),
                "decks": [self.deck_size(age, n) for age in g["ages"]],
                "treasure": sum(treasure.values()) - removed,
            })
        basic = coins.get("basic", [])
        return {
            "kinds": kinds,
            "rows": rows,
            "ages": g["ages"],
            "basic": self.cx.join([self.coin_label(c) for c in basic]),
            "basic_total": len(basic) * self.players[-1],
            "max_players": self.players[-1],
            "treasure": self.cx.join([self.t("ref.count_of", count=treasure[v], what=v) for v in sorted(treasure)]),
            "treasure_total": sum(treasure.values()),
            "special_coins": self.cx.join([self.t("ref.coin.special", name=self.coin_name(c), value=c["value"])
                                           for c in coins.get("special", [])]),
            "gems": ", ".join(str(v) for v in sorted({v for n in self.players
                                                      for v in _per(g["gems"]["by_players"], n, [])})),
            "special_gems": self.cx.join([self.t("ref.gem.special" if s.get("tradable", True)
                                                 else "ref.gem.special_untradable", value=s["value"],
                                                 points=s.get("points", 0)) for s in g["gems"].get("special", [])]),
        }

    def coin_label(self, coin: JsonDict) -> str:
        key = "ref.coin.trading" if coin.get("trading") else "ref.coin.value"
        return self.t(key, value=coin["value"])

    def trading_coins(self) -> str:
        coins = self.game["coins"]
        return self.cx.join([str(c["value"]) for c in coins.get("basic", []) if c.get("trading")]
                            + [self.coin_name(c) for c in coins.get("special", []) if c.get("trading")])

    def coin_name(self, coin: JsonDict) -> str:
        return self.cat.t(f"coin.name.{coin['id']}", default=coin.get("name", coin["id"]))

    def kind_label(self, kind: str) -> str:
        return self.cat.t(f"ref.kinds.{kind}", default=kind.replace("-", " ").capitalize())

    def setup(self) -> Setup:
        g = self.game
        coins = g["coins"]
        treasure_total = sum(coins.get("treasure", {}).values())
        removals: list[tuple[dict[str, int], list[int]]] = []  # coins removed (value -> count), for n players
        for n in self.players:
            table = _per(coins.get("treasure_removed", {}), n)
            if not table:
                continue
            for known, ns in removals:
                if known == table:
                    ns.append(n)
                    break
            else:
                removals.append((table, [n]))
        extra: dict[tuple[int, int], list[CardCount]] = {}
        for age in g["ages"]:
            for cid, count, least in self.decks(age):
                if least > self.players[0]:
                    extra.setdefault((least, age), []).append({**self.link(cid), "count": count})
        return {
            "basic": self.cx.join([self.coin_label(c) for c in coins.get("basic", [])]),
            "gems": "; ".join(self.t("ref.setup.gems_for", n=n, gems=", ".join(map(str, _per(g["gems"]["by_players"], n, []))))
                              for n in self.players),
            "taverns": self.taverns(),
            "heroes": sum(c["copies"] for c in self.d["cards"].values() if c["kind"] == "hero"),
            "distinctions": [self.link(cid) for cid in self.cards_of("distinction")],
            "treasure_total": treasure_total,
            "removals": [{"players": self.cx.join([str(n) for n in ns]),
                          "coins": self.cx.join([self.t("ref.count_of", count=k, what=v) for v, k in table.items()]),
                          "left": treasure_total - sum(table.values())} for table, ns in removals],
            "extra": [{"players": least, "age": age, "cards": cards} for (least, age), cards in sorted(extra.items())],
            "zone_decks": [{"zone": self.zone_ref(zid), "decks": self.cx.join(
                [self.t("ref.setup.zone_deck", age=age, count=sum(e["count"] for e in entries))
                 for _, age, entries in self.zone_decks(zid)]),
                "pile": self.is_pile(zid),
                "count": sum(e["count"] for _, _, entries in self.zone_decks(zid) for e in entries),
                "draws": self.draws(zid)}
                for zid in self.cx.zones if self.zone_decks(zid)],
        }

    def taverns(self) -> str:
        return self.cx.join([self.tavern_name(t) for t in self.game["taverns"]])

    def tavern_name(self, tavern: JsonDict) -> str:
        return self.cat.t(f"tavern.{tavern['id']}", default=tavern.get("name", tavern["id"]))

    # -- flow ----------------------------------------------------------------------------------------
    def steps(self, part: str, marks_by_step: dict[str, list[str]]) -> list[Step]:
        return [self.step_view(step, marks_by_step.get(step["id"], [])) for step in self.game["flow"].get(part, [])]

    def step_view(self, step: JsonDict, changed: list[str]) -> Step:
        """A flow step with the names its catalog text may use: zones, count, kind, player order."""
        window = step.get("window")
        return {
            "id": step["id"],
            "do": step.get("do"),
            "window": window,
            "window_name": self.cat.t(f"ref.window.{window}", default=window) if window else "",
            "ages": list(step.get("ages", [])),
            "ages_text": self.cx.join([str(a) for a in step.get("ages", [])]),
            "reacting": self.reacting(window) if window else [],
            "changed": changed,
            "zone": self.zone_ref(step.get("zone")),
            "deck": self.zone_ref(step.get("deck")),
            "into": self.zone_ref(step.get("into")),
            "count": int(step.get("count", 0)),
            "kind": self.kind_name(step["kind"]) if "kind" in step else "",
            "order": self.order_text(step),
            "draws": self.draws() if step.get("do") == "enter-dwarves" else [],
            "age_turns": self.age_turns() if step.get("do") == "enter-dwarves" else [],
            "elsewhere": self.elsewhere(step),
        }

    def order_text(self, step: JsonDict) -> str:
        """A step's player order: most cards of a kind first (its leader may go last), or by gem."""
        order = step.get("order")
        if isinstance(order, dict):
            text = self.t("ref.order.most", kind=self.kind_name(order["most"]))
            return self.t("ref.order.leader", order=text) if order["leader_chooses"] else text
        if order == "bid":
            return self.t("ref.order.bid")
        return self.t("ref.order.gem") if step.get("do") == "place-held" else ""

    def pick_sources(self) -> list[PickSourceView]:
        """Where a bidder may take their card while a tavern resolves, and who may."""
        out: list[PickSourceView] = []
        for src in self.game.get("pick_sources", []):
            also = src.get("also")
            out.append({"id": src["id"], "zone": self.zone_ref(src.get("zone", "tavern")), "who": src.get("who", "any"),
                        "also": self.cards_modifying({also}) if also else [], "discard": int(src.get("discard", 0)),
                        "discard_players": self.cx.join([str(n) for n in src.get("discard_players", [])])})
        return out

    def marks_under(self, head: str, at: int) -> dict[str, list[str]]:
        """Names of the house rules that set something under `game.<head>`, by the path's key at `at`
        (a flow step id, a class id)."""
        out: dict[str, list[str]] = {}
        for path, origin in self.c.merged.game_origin.items():
            lid = self.from_variant(origin)
            if lid is not None and path[0] == head and len(path) > at + 1 and path[-1] != "id":
                _add(out.setdefault(str(path[at]), []), self.layer_text(self.variants[lid], "name"))
        return out

    def step_facts(self) -> StepFacts:
        """Numbers the flow steps' catalog texts may name."""
        g = self.game
        return {
            "per_tavern": self.per_players_text({n: _per(g["cards_per_tavern"], n, 0) for n in self.players}),
            "taverns": self.taverns(),
        }

    def ages(self, steps: list[Step]) -> list[AgeSteps]:
        ages = self.game["ages"]
        return [{"age": age, "last": age == ages[-1],
                 "steps": [s for s in steps if not s["ages"] or age in s["ages"]]} for age in ages]

    # -- zones ---------------------------------------------------------------------------------------------
    def step_links(self) -> list[tuple[JsonDict, Link]]:
        """Every flow step with a link naming it by its place: in a turn, a tavern's resolution, or the
        end of an age (once per age it runs in)."""
        flow = self.game["flow"]
        out: list[tuple[JsonDict, Link]] = []
        for part, prefix, key in (("turn", "step-", "ref.zones.turn_step"), ("tavern", "tavern-step-", "ref.zones.tavern_step")):
            out += [(s, {"anchor": prefix + s["id"], "name": self.t(key, n=i)}) for i, s in enumerate(flow.get(part, []), 1)]
        for age in self.game["ages"]:
            steps = [s for s in flow.get("age_end", []) if not s.get("ages") or age in s["ages"]]
            out += [(s, {"anchor": f"age-{age}-{s['id']}", "name": self.t("ref.zones.age_step", n=i, age=age)})
                    for i, s in enumerate(steps, 1)]
        return out

    def zones(self) -> list[ZoneView]:
        """The zones the rules declare (the Camp, its decks, the camp discard, the mythology deck) and what
        fills, empties and draws from each."""
        links = self.step_links()
        marks = self.marks_under("zones", 1)

        def using(do: str, field: str, other: str, zid: str) -> list[ZoneStep]:
            return [{"step": link, "other": self.zone_ref(s.get(other)), "count": int(s.get("count", 0))}
                    for s, link in links if s.get("do") == do and s.get(field) == zid]

        entry = next((link for s, link in links if s.get("do") == "enter-dwarves"), None)

        def deck_of(node: ir.Node) -> str | None:
            return node.deck.zone if isinstance(node, (ir.Look, ir.DiscardTop, ir.PlaceUnder)) else None

        out: list[ZoneView] = []
        for zone in self.game.get("zones", []):
            zid = zone["id"]
            name = self.zone_ref(zid)["name"]
            pile = self.is_pile(zid)
            decks: list[ZoneDeck] = [{"age": age, "count": sum(e["count"] for e in entries),
                                      "cards": [{**self.link(e["card"]), "count": e["count"]} for e in entries]}
                                     for _, age, entries in self.zone_decks(zid)]
            if pile and decks:  # one deck for the whole game: its entries of every age together
                decks = [{"age": 0, "count": sum(d["count"] for d in decks), "cards": [c for d in decks for c in d["cards"]]}]
            cleared = using("clear", "zone", "into", zid)
            out.append({
                "id": zid, "anchor": f"zone-{zid}", "title": name[:1].upper() + name[1:],
                "per_age": bool(zone.get("per_age")), "pile": pile, "explored": bool(zone.get("explored", True)),
                "decks": decks,
                "dealt": [{"step": entry, "tavern": d["tavern"], "when": d["when"]} for d in self.draws(zid)]
                if entry else [],
                "kept": pile and not cleared,
                "drawn_by": [self.link(cid) for cid, effects in self.c.effects.items()
                             if any(deck_of(n) == zid for _, e in effects for n in ir.walk(e))],
                "refilled": using("refill", "zone", "deck", zid), "feeds": using("refill", "deck", "zone", zid),
                "cleared": cleared, "receives": using("clear", "into", "zone", zid),
                "picked": any(src.get("zone") == zid for src in self.game.get("pick_sources", [])),
                "taken_by": [self.link(cid) for cid, effects in self.c.effects.items()
                             if any(isinstance(n, ir.TakeFrom) and n.zone == zid for _, e in effects for n in ir.walk(e))],
                "discarded": self.cx.join([self.kind_name(k) for k, v in self.game["kinds"].items()
                                           if v.get("discards_to") == zid]),
                "changed": marks.get(zid, []),
            })
        return out

    # -- scoring -----------------------------------------------------------------------------------------
    def classes(self, marks: dict[str, list[str]]) -> tuple[list[ClassView], ScoreTable]:
        scores = class_scores(self.c.source)
        params = dict(self.d["params"])
        coin = max((c["value"] for c in self.game["coins"].get("basic", [])), default=0)
        out: list[ClassView] = []
        table_classes: list[tuple[str, list[int]]] = []
        for c in self.d["classes"]:
            cid = c["id"]
            fn = scores[cid]
            values = pointless_values(fn, cid, params)
            ex = None
            if values is None:
                ex = example(fn, cid, self.example_cards(cid), params, coin)
            else:
                table_classes.append((cid, values))
            out.append({
                "id": cid,
                "anchor": f"scoring-{cid}",
                "name": self.cx.cls(cid),
                "formula": formula_text(cid, parse_expr(c["score"]), self.cx),
                "tabulated": values is not None,
                "example": None if ex is None else {
                    "cards": [self.link(x) for x in ex.cards], "ranks": ex.ranks, "points": ex.points,
                    "value": ex.value,
                    "facts": self.cx.join([self.t(k, **{n: self.cx.cls(v) if n == "cls" else v for n, v in kw.items()})
                                           for k, kw in ex.facts]),
                },
                "changed": marks.get(cid, []),
                "changed_by": [self.link(card) for node in ir.walk(parse_expr(c["score"]))
                               if isinstance(node, ir.Call) and node.name == "param" and isinstance(node.args[0], ir.Var)
                               for card, _ in self.cx.changed(node.args[0].name)],
            })
        table: ScoreTable = {"classes": [self.cx.cls(cid) for cid, _ in table_classes],
                 "rows": [[n] + [values[i] for _, values in table_classes] for i, n in enumerate(TABLE_RANKS)]}
        return out, table

    def example_cards(self, cls: str, size: int = 3) -> list[JsonDict]:
        """The first distinct dwarf cards of a class in the age decks, as an example column."""
        cards: list[JsonDict] = []
        for age in self.game["ages"]:
            for cid, _, _ in self.decks(age):
                card = self.d["cards"][cid]
                if card["class"] == cls and card["kind"] == "dwarf" and card["ranks"] and card not in cards:
                    cards.append(card)
        return cards[:size]

    # -- cards -------------------------------------------------------------------------------------------
    def card_view(self, cid: str) -> CardView:
        card = self.d["cards"][cid]
        effects = self.c.effects.get(cid, [])
        ranks = card["ranks"]
        sides: dict[str, list[int]] = card.get("column_ranks") or {}
        label: list[str] = []
        if ranks:
            label.append(self.t("ref.card.ranks_points", n=len(ranks), points=", ".join(map(str, ranks))) if any(ranks)
                         else self.t("ref.card.ranks_plain", n=len(ranks)))
        if sides:
            label.append(" / ".join(self.side_label(cls, side) for cls, side in sides.items()))
        if card["points"]:
            label.append(self.t("ref.card.points", points=card["points"]))
        classes = list(sides) or [rank_class(card, effects)]
        return {
            "id": cid,
            "anchor": self.anchors[cid],
            "name": self.cx.card(cid),
            "kind": card["kind"],
            "class": card["class"],
            "class_label": self.cx.join([self.cx.cls(c) for c in classes], "list.or"),
            "ranks_label": "; ".join(label),
            "text": card_text(card, effects, self.cx),
        }

    def side_label(self, cls: str, ranks: list[int]) -> str:
        """One side of a card with ranks per column: "Warrior 6", "Hunter"."""
        if any(ranks):
            return self.t("ref.card.side_points", cls=self.cx.cls(cls), points=", ".join(map(str, ranks)))
        return self.t("ref.card.side_plain", cls=self.cx.cls(cls))

    def card_groups(self) -> list[CardGroup]:
        groups: list[CardGroup] = []
        for kind in self.game["kinds"]:
            cards: list[CardEntry] = [{**self.card_view(cid), "copies": self.d["cards"][cid]["copies"],
                                       "changed": self.layer_names(self.d["cards"][cid]["layers"]),
                                       "decks": self.card_decks(cid), "placed_by": self.placed_by(cid)}
                                      for cid in self.cards_of(kind)]
            if cards:
                groups.append({"kind": kind, "anchor": f"kind-{kind}", "label": self.kind_label(kind),
                               "notes": self.kind_notes(kind), "cards": cards})
        return groups

    def card_decks(self, cid: str) -> list[str]:
        """The zone decks that hold a card ("In the Camp deck of Age 1", "In the mythology deck")."""
        out: list[str] = []
        for zid, age, entries in self.zone_decks():
            if any(e["card"] == cid for e in entries):
                name = self.zone_ref(zid)["name"]
                _add(out, self.t("ref.card.pile", zone=name) if self.is_pile(zid) else
                     self.t("ref.card.deck", zone=name, age=age))
        return out

    def placed_by(self, cid: str) -> list[Link]:
        """The cards whose effects bring a card of no deck into play (Olwyn's doubles, Gullinbursti)."""
        if cid in self.in_any_deck():
            return []
        return [self.link(other) for other, effects in self.c.effects.items() if other != cid and any(
            isinstance(n, ir.PlaceCard) and n.card.card == cid for _, e in effects for n in ir.walk(e))]

    def kind_notes(self, kind: str) -> list[str]:
        """What the kinds data says of a kind's cards: where they go (command zone, discard pile), when
        a step places them, that they count as dwarf cards, the score breakdown's part they go to."""
        info = self.game["kinds"][kind]
        notes: list[str] = []
        where = f"ref.kind.enters.{str(info.get('enters', '')).split(' ')[0]}"
        if self.cat.has(where):  # a card entering its own column needs no note
            notes.append(self.t(where))
        for step in self.game["flow"].get("age_end", []):
            if step.get("do") == "place-held" and step.get("kind") == kind:
                ages = self.cx.join([str(a) for a in step.get("ages", [])])
                notes.append(self.t("ref.kind.placed_in", ages=ages) if ages else self.t("ref.kind.placed"))
        if info.get("dwarf_card") and kind != "dwarf":  # the dwarf kind itself needs no note
            notes.append(self.t("ref.kind.dwarf_card"))
        if info.get("discards_to"):
            notes.append(self.t("ref.kind.discards_to", zone=self.zone_ref(info["discards_to"])["name"]))
        if info.get("breakdown"):
            notes.append(self.t("ref.kind.breakdown", part=info["breakdown"]))
        return notes

    def breakdown(self) -> list[BreakdownPart]:
        """The score breakdown's parts that kinds add (`artifacts`), with the kinds that score there."""
        parts: dict[str, list[str]] = {}
        for kind, info in self.game["kinds"].items():
            if info.get("breakdown"):
                parts.setdefault(info["breakdown"], []).append(self.kind_name(kind))
        return [{"part": part, "kinds": self.cx.join(kinds)} for part, kinds in parts.items()]

    def requirements(self) -> list[Requirements]:
        return [{**self.link(cid), "text": [effect_text(e, self.cx) for _, e in effects
                                            if isinstance(e, ir.Requirement)]}
                for cid, effects in self.c.effects.items() if any(isinstance(e, ir.Requirement) for _, e in effects)]

    def heroes_by_class(self) -> list[HeroGroup]:
        heroes = self.cards_of("hero")
        out: list[HeroGroup] = []
        for cls in ["neutral"] + self.class_ids:
            cards = [self.link(cid) for cid in heroes if self.d["cards"][cid]["class"] == cls]
            if cards:
                out.append({"class": cls, "label": self.cx.cls(cls), "cards": cards})
        return out

    # -- interpretations, glossary, index --------------------------------------------------------------------
    def interpretations(self) -> list[Interpretation]:
        """Each interpretation's text and source: catalog keys `interp.<id>` and `interp.<id>.source`,
        the rules data's English by default."""
        return [{"id": i["id"], "anchor": f"interp-{i['id']}",
                 "text": self.cat.t(f"interp.{i['id']}", default=i["text"]),
                 "source": self.cat.t(f"interp.{i['id']}.source", default=i["source"]) if i.get("source") else "",
                 "changed": self.layer_names([i.get("layer", "")])} for i in self.d["interpretations"]]

    def glossary(self) -> list[Term]:
        """The catalog's terms: `glossary.<term>`, and `glossary.<layer>.<term>` while that layer is in force."""
        layers = {layer["id"] for layer in self.d["layers"]}
        keys = [k for k in self.cat.fallback if k.startswith("glossary.") and not k.endswith(".text")
                and (k.count(".") == 1 or (k.count(".") == 2 and k.split(".")[1] in layers))]
        terms: list[Term] = [{"id": k.rsplit(".", 1)[1], "anchor": "term-" + k.rsplit(".", 1)[1], "term": self.t(k),
                              "text": self.t(k + ".text")} for k in keys]
        return sorted(terms, key=lambda x: (sort_key(x["term"]), x["id"]))

    def index(self) -> list[Link]:
        return sorted((self.link(cid) for cid in self.d["cards"]), key=lambda x: (sort_key(x["name"]), x["anchor"]))


def reference_context(compiled: Compiled, cat: Catalog) -> Reference:
    """Everything the reference templates render, for one compiled rule set and language."""
    m = _Model(compiled, cat)
    gems = compiled.data["game"]["gems"].get("special", [])
    marks, settings = m.changes()
    house = m.house_rules(settings)
    step_marks = m.marks_under("flow", 2)
    classes, table = m.classes(m.marks_under("classes", 1))
    components = m.components()
    zones = m.zones()
    shown = {"house-rules": bool(house), "zones": bool(zones)}
    return {
        "lang": cat.lang,
        "layers": [m.layer_text(layer, "name") for layer in compiled.data["layers"]],
        "sections": [{"anchor": a, "title": k} for a, k in SECTIONS if shown.get(a, True)],
        "sources": m.sources(),
        "marks": marks,
        "house_rules": house,
        "components": components,
        "setup": m.setup(),
        "zones": zones,
        "turn": m.steps("turn", step_marks),
        "tavern": m.steps("tavern", step_marks),
        "pick_sources": m.pick_sources(),
        "facts": m.step_facts(),
        "ages": m.ages(m.steps("age_end", step_marks)),
        "gems": components["gems"],
        "special_gems": [g for g in gems if not g.get("tradable", True)],
        "point_gems": [g for g in gems if g.get("points")],
        "trading_coins": m.trading_coins(),
        "modifying": {s: m.modifying(s) for s in dict.fromkeys(PARAM_SECTIONS.values())},
        "class_names": m.cx.join([m.cx.cls(c) for c in m.class_ids]),
        "class_count": len(m.class_ids),
        "heroes": m.heroes_by_class(),
        "requirements": m.requirements(),
        "classes": classes,
        "table": table,
        "distinctions": [{**m.link(cid), "cls": m.cx.cls(compiled.data["cards"][cid]["class"])}
                         for cid in m.cards_of("distinction")],
        "breakdown": m.breakdown(),
        "card_groups": m.card_groups(),
        "interpretations": m.interpretations(),
        "glossary": m.glossary(),
        "index": m.index(),
    }


def card_views(compiled: Compiled, cat: Catalog) -> list[CardView]:
    """Every card as the reference shows it, grouped by kind: id, anchor, name, kind, class,
    class_label, ranks_label and text (its sentences, from the effect IR)."""
    m = _Model(compiled, cat)
    return [m.card_view(cid) for kind in m.game["kinds"] for cid in m.cards_of(kind)]
