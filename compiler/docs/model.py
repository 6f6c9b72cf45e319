"""What the rule reference shows, gathered from a compiled rule set.

Every number comes from the rules data, every card text from its effect IR (compiler/docs/text.py),
the turn from the flow data; the templates only arrange it with catalog wording.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any, TypeVar

from .. import ir
from ..build import rules_dir
from ..compile import Compiled
from ..dsl import parse_expr
from ..layers import Origin
from ..yamlload import JsonDict
from .deck import Copy, Pile, box_copies
from .layer_texts import lacking
from .scoring import TABLE_RANKS, class_scores, example, pointless_values
from .text import Catalog, Context, card_text, context_of, effect_text, formula_text, rank_class
from .views import (
    AgeSteps, AgeTurns, BreakdownPart, CardCount, CardEntry, CardGroup, CardRow, CardTable, CardView,
    ClarificationGroup, ClassView, Components, DrawView, Elsewhere, Fallback, HeroGroup, HouseRule, Interpretation,
    KindCount, Link, PickSourceView, PlainTable, PlayerRow, Reference, Requirements, ScoreTable, Setup,
    SourceNote, Step, StepFacts, Term, ZoneCell, ZoneDeck, ZoneRef, ZoneRow, ZoneStep, ZoneTable, ZoneView,
)

# Sections in reading order: (anchor, catalog key of the title). The player part runs up to the
# designer's appendix ("sources"); the index of cards follows it.
SECTIONS = [
    ("house-rules", "ref.house.title"), ("components", "ref.components.title"), ("setup", "ref.setup.title"),
    ("zones", "ref.zones.title"), ("turn", "ref.turn.title"), ("bids", "ref.bids.title"), ("coins", "ref.coins.title"),
    ("heroes", "ref.heroes.title"), ("scoring", "ref.scoring.title"), ("age-end", "ref.age_end.title"),
    ("final-scoring", "ref.final.title"), ("cards", "ref.cards.title"), ("clarifications", "ref.clarify.title"),
    ("glossary", "ref.glossary.title"), ("sources", "ref.appendix.title"), ("index", "ref.index.title"),
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
# Runtime steps that act only while a game param is on (nidavellir/interface/events.py RUNTIME_PARAMS):
# with the param off and no card turning it on, the reference leaves the step out.
STEP_PARAMS = {"late-bids": "bid_from_hand"}

DeckEntry = list[Any]  # [card id, count, min_players], as the compiled rule data holds them
Setting = tuple[str, str, str]  # a house rule's game setting: dotted path, the value it sets or "", section
# Sections whose source note may gain a box's own sources (`<key>.<layer id>` in the catalog): the
# catalog key of the note -> the section's anchor (the appendix lists them).
SOURCE_KEYS = {"ref.setup.source": "setup", "ref.zones.source": "zones", "ref.turn.source": "turn",
               "ref.bids.source": "bids", "ref.coins.source": "coins", "ref.heroes.source": "heroes",
               "ref.scoring.source": "scoring", "ref.age_end.source": "age-end", "ref.final.source": "final-scoring"}
TITLES = dict(SECTIONS)


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


def _runs(values: dict[int, _T]) -> list[tuple[list[int], _T]]:
    """Consecutive keys with equal values, together: {2: 3, 3: 3, 4: 4} -> [([2, 3], 3), ([4], 4)]."""
    out: list[tuple[list[int], _T]] = []
    for n, v in values.items():
        if out and out[-1][1] == v and out[-1][0][-1] == n - 1:
            out[-1][0].append(n)
        else:
            out.append(([n], v))
    return out


PileCounts = dict[Pile, dict[int, int]]  # deck -> least player count (0: every game) -> copies


def _piles(copies: list[Copy]) -> dict[str, PileCounts]:
    """Card id -> the decks holding its copies (in deck order) -> copies by the least player count."""
    out: dict[str, PileCounts] = {}
    for c in copies:
        by_least = out.setdefault(c.card, {}).setdefault(c.pile, {})
        by_least[c.min_players] = by_least.get(c.min_players, 0) + 1
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


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
        """"3 with 2 or 3 players, 4 with 4 players and 5 with 5 players": player counts in a row
        with the same value said once."""
        return self.cx.join([self.t("ref.per_players", n=self.cx.join([str(n) for n in ns], "list.or"), value=v)
                             for ns, v in _runs(values)])

    def players_range(self, ns: list[int]) -> str:
        """A run of player counts as a table heading says it: "2–4", "5"."""
        return str(ns[0]) if len(ns) == 1 else self.t("ref.players_range", first=ns[0], last=ns[-1])

    def shown_step(self, step: JsonDict) -> bool:
        """A flow step the reference lists: one that does something in this rule set, or a window a
        card acts at."""
        param = STEP_PARAMS.get(str(step.get("do")))
        if param is not None:
            return bool(self.d["params"].get(param)) or bool(self.cards_modifying({param}))
        return bool(step.get("do")) or bool(step.get("window") and self.reacting(step["window"]))

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

    def house_rules(self, settings: dict[str, list[Setting]], interps: list[Interpretation]) -> list[HouseRule]:
        merged = self.c.merged
        out: list[HouseRule] = []
        for lid, layer in self.variants.items():
            removed = [cid for cid, layers in merged.card_layers.items() if lid in layers and cid not in self.d["cards"]]
            out.append({
                "id": lid,
                "name": self.layer_text(layer, "name"),
                "description": self.layer_text(layer, "description"),
                "source": self.layer_text(layer, "source").rstrip("."),  # the appendix adds its own stop
                "cards": [self.link(cid) for cid, c in self.d["cards"].items() if lid in c["layers"]],
                "removed": [self.cat.t(f"card.{cid}", default=_value_at(merged.card_origin[cid]["name"])
                                       if "name" in merged.card_origin[cid] else cid) for cid in removed],
                "classes": [{"anchor": f"scoring-{path.split('.')[1]}", "name": self.cx.cls(path.split(".")[1])}
                            for path, _, _ in settings.get(lid, []) if path.startswith("classes.")],
                "settings": [{"path": path, "value": value, "anchor": section}
                             for path, value, section in settings.get(lid, []) if not path.startswith("classes.")],
                "sections": [{"anchor": a, "name": self.t(TITLES[a])} for a in dict.fromkeys(
                    section for path, _, section in settings.get(lid, []) if not path.startswith("classes."))],
                "interpretations": [{"anchor": i["rule"], "label": str(i["number"])}
                                    for i, data in zip(interps, self.d["interpretations"]) if data.get("layer") == lid],
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
                "treasure": sum(treasure.values()) - removed,
            })
        basic = coins.get("basic", [])
        return {
            "kinds": kinds,
            "rows": rows,
            "decks": self.deck_table(),
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

    def deck_table(self) -> PlainTable:
        """The age decks' make-up: a row per age and run of player counts whose decks are alike, a
        column per kind of card they hold, and the deck's size."""
        ages = self.game["ages"]
        kind_of = {cid: c["kind"] for cid, c in self.d["cards"].items()}
        kinds = [k for k in self.game["kinds"] if any(kind_of[e[0]] == k for a in ages for e in self.decks(a))]
        rows: list[list[str]] = []
        for age in ages:
            counts = {n: tuple(sum(count for cid, count, least in self.decks(age) if least <= n and kind_of[cid] == k)
                               for k in kinds) for n in self.players}
            rows += [[self.t("ref.decks.age", age=age), self.players_range(ns)] + [str(c) for c in row] + [str(sum(row))]
                     for ns, row in _runs(counts)]
        head = [self.t("ref.col.age_deck"), self.t("ref.col.players")] + [self.kind_label(k) for k in kinds] + [
            self.t("ref.col.deck_cards")]
        return {"head": head, "rows": rows}

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
            "removals": [{"players": self.cx.join([str(n) for n in ns], "list.or"),
                          "coins": self.cx.join([self.t("ref.count_of", count=k, what=v) for v, k in table.items()]),
                          "left": treasure_total - sum(table.values())} for table, ns in removals],
            "extra": [{"players": least, "most": least == self.players[-1], "age": age, "cards": cards}
                      for (least, age), cards in sorted(extra.items())],
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
        """The steps of a part of the flow the reference lists (a window no card acts at is left out)."""
        return [self.step_view(step, marks_by_step.get(step["id"], [])) for step in self.game["flow"].get(part, [])
                if self.shown_step(step)]

    def step_view(self, step: JsonDict, changed: list[str]) -> Step:
        """A flow step with the names its catalog text may use: zones, count, kind, player order."""
        window = step.get("window")
        return {
            "id": step["id"],
            "do": step.get("do"),
            "window": window,
            "window_name": _capital(self.cat.t(f"ref.window.{window}", default=window)) if window else "",
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
            steps = [s for s in flow.get(part, []) if self.shown_step(s)]
            out += [(s, {"anchor": prefix + s["id"], "name": self.t(key, n=i)}) for i, s in enumerate(steps, 1)]
        for age in self.game["ages"]:
            steps = [s for s in flow.get("age_end", []) if (not s.get("ages") or age in s["ages"]) and self.shown_step(s)]
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
                "decks": decks, "table": self.zone_table(zid, pile),
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

    def zone_table(self, zid: str, pile: bool) -> ZoneTable | None:
        """A zone's decks as one table: a column per deck (per age, or the one pile), a row per kind
        with its cards, and each deck's size."""
        decks: list[tuple[int, list[JsonDict]]] = [(age, entries) for _, age, entries in self.zone_decks(zid)]
        if not decks:
            return None
        if pile:
            decks = [(0, [e for _, entries in decks for e in entries])]
        kind_of = {cid: c["kind"] for cid, c in self.d["cards"].items()}
        kinds = [k for k in self.game["kinds"] if any(kind_of[e["card"]] == k for _, entries in decks for e in entries)]
        rows: list[ZoneRow] = []
        for k in kinds:
            cells: list[ZoneCell] = []
            for _, entries in decks:
                cards: list[CardCount] = [{**self.link(e["card"]), "count": e["count"]} for e in entries
                                          if kind_of[e["card"]] == k]
                cells.append({"count": sum(c["count"] for c in cards), "cards": cards})
            rows.append({"label": self.kind_label(k), "cells": cells})
        head = [self.t("ref.col.kind")] + [self.t("ref.zones.col_pile") if pile else self.t("ref.zones.col_age", age=age)
                                           for age, _ in decks]
        return {"head": head, "rows": rows, "totals": [sum(e["count"] for e in entries) for _, entries in decks]}

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
        """Each kind's cards: those whose text is only their ranks and points as one table (when
        there are two or more), the others as full entries."""
        piles = _piles(box_copies(self.c))
        groups: list[CardGroup] = []
        for kind in self.game["kinds"]:
            ids = self.cards_of(kind)
            if not ids:
                continue
            views = {cid: self.card_view(cid) for cid in ids}
            show_class = len({v["class_label"] for v in views.values()}) > 1
            plain = [cid for cid in ids if not self.c.effects.get(cid) and not self.d["cards"][cid].get("track")]
            in_table = plain if len(plain) > 1 else []
            cards: list[CardEntry] = [{**views[cid], "copies": self.d["cards"][cid]["copies"],
                                       "changed": self.layer_names(self.d["cards"][cid]["layers"]),
                                       "decks": self.age_decks_of(piles.get(cid, {})) + self.card_decks(cid),
                                       "placed_by": self.placed_by(cid), "show_class": show_class}
                                      for cid in ids if cid not in in_table]
            groups.append({"kind": kind, "anchor": f"kind-{kind}", "label": self.kind_label(kind),
                           "notes": self.kind_notes(kind),
                           "table": self.card_table(in_table, views, piles, show_class) if in_table else None,
                           "cards": cards})
        return groups

    def card_table(self, ids: list[str], views: dict[str, CardView], piles: dict[str, PileCounts],
                   show_class: bool) -> CardTable:
        """Cards without rule text of their own, one row each: class, ranks, Bravery Points, points,
        copies in each deck that holds them (5-player copies as "+ n") and in the box."""
        cards = [self.d["cards"][cid] for cid in ids]
        decks = list(dict.fromkeys(p for cid in ids for p in piles.get(cid, {}) if not p.kind))
        most = {least for cid in ids for p in decks for least in piles.get(cid, {}).get(p, {}) if least}
        ranked = any(c["ranks"] or c["column_ranks"] for c in cards)
        pointed = any(c["points"] for c in cards)
        boxed = bool(decks) or any(c["copies"] > 1 for c in cards)
        head = [self.t("ref.col.card")] + [self.t("ref.col.class")] * show_class
        head += [self.t("ref.col.ranks_count"), self.t("ref.col.bravery")] * ranked + [self.t("ref.col.points")] * pointed
        zones = {p.zone for p in decks}
        one_zone = len(zones) == 1 and "" not in zones and all(p.age for p in decks)  # the Camp deck of each age
        head += [self.t("ref.col.age", age=p.age) if one_zone else self.pile_label(p) for p in decks]
        head += [self.t("ref.col.copies")] * boxed
        rows: list[CardRow] = []
        for cid, card in zip(ids, cards):
            cells = [_capital(views[cid]["class_label"])] * show_class
            if ranked:
                sides = list(card["column_ranks"].values()) or ([card["ranks"]] if card["ranks"] else [])
                counts = list(dict.fromkeys(len(side) for side in sides))
                cells += [" / ".join(map(str, counts)) or "–",
                          " / ".join(", ".join(map(str, side)) for side in sides) or "–"]
            cells += [str(card["points"] or "–")] * pointed
            cells += [self.copies_cell(piles.get(cid, {}).get(p, {}), sorted(most)) for p in decks]
            cells += [str(sum(sum(by.values()) for by in piles.get(cid, {}).values()) or card["copies"])] * boxed
            rows.append({"anchor": self.anchors[cid], "name": views[cid]["name"], "cells": cells,
                         "changed": self.layer_names(card["layers"]), "placed_by": self.placed_by(cid)})
        notes = [self.more_note(sorted(most))] if most else []
        if one_zone:
            notes.append(self.t("ref.cards.zone_note", zone=self.zone_ref(decks[0].zone)["name"]))
        return {"head": head, "rows": rows, "notes": notes}

    def pile_label(self, pile: Pile) -> str:
        """A deck as a column heading: "Age 1", "The Camp deck, Age 1", "The mythology deck"."""
        if not pile.zone:
            return self.t("ref.col.age", age=pile.age)
        name = _capital(self.zone_ref(pile.zone)["name"])
        return self.t("ref.col.zone_age", zone=name, age=pile.age) if pile.age else name

    def copies_cell(self, by_least: dict[int, int], most: list[int]) -> str:
        """A card's copies in one deck: "8", "8 + 2" (2 more with 5 players), "+1", "–"."""
        text = str(by_least.get(0, "") or "")
        for least in most:
            if by_least.get(least):
                more = f"+{by_least[least]}" if len(most) == 1 else f"+{by_least[least]} ({least})"
                text = f"{text} {more[0]} {more[1:]}" if text else more
        return text or "–"

    def more_note(self, most: list[int]) -> str:
        """What "+ n" in a copies cell means."""
        if len(most) > 1:
            return self.t("ref.cards.more_note_at")
        key = "ref.cards.more_note_most" if most[0] == self.players[-1] else "ref.cards.more_note"
        return self.t(key, players=most[0])

    def age_decks_of(self, piles: PileCounts) -> list[str]:
        """A card's copies in the age decks, as its entry says them: "Age 1 deck: 1 (+1 with 5 players)"."""
        out: list[str] = []
        for pile, by_least in piles.items():
            if pile.zone or pile.kind:
                continue
            more = [self.t("ref.card.more_most" if least == self.players[-1] else "ref.card.more", n=n, players=least)
                    for least, n in sorted(by_least.items()) if least]
            count = str(by_least.get(0, 0)) + (f" ({self.cx.join(more)})" if more else "")
            out.append(self.t("ref.card.age_deck", age=pile.age, count=count))
        return out

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
        a step places them, that they count as dwarf cards, where their discards go."""
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
        """Each interpretation's text and source (catalog keys `interp.<id>` and `interp.<id>.source`,
        the rules data's English by default), its number among the clarifications and the place of
        the rules data that records it."""
        where = self.interpretation_files()
        return [{"id": i["id"], "anchor": f"interp-{i['id']}", "rule": f"rule-{i['id']}", "number": n,
                 "text": self.cat.t(f"interp.{i['id']}", default=i["text"]),
                 "source": self.cat.t(f"interp.{i['id']}.source", default=i["source"]) if i.get("source") else "",
                 "file": where.get(i["id"], ""),
                 "changed": self.layer_names([i.get("layer", "")])} for n, i in enumerate(self.d["interpretations"], 1)]

    def fallbacks(self) -> list[Fallback]:
        """The entries of the house rules shown in English for want of a text in this language."""
        names = {layer["id"]: self.layer_text(layer, "name") for layer in self.d["layers"]}
        out: list[Fallback] = []
        for lack in lacking(self.c, self.cat):
            ident = self.cx.card(lack.ident) if lack.kind == "card" else lack.ident
            out.append({"what": self.t(f"ref.fallback.{lack.kind}", id=ident), "layer": names[lack.layer],
                        "file": f"{self.shown_path(lack.loc.path)}:{lack.loc.line}", "fix": lack.fix})
        return out

    def shown_path(self, path: str) -> str:
        """A rules file as the reference names it: the shipped rules as `rules/…`, another file by
        its name alone (the reference names no local path)."""
        p = Path(path)
        try:
            return (Path(rules_dir().resolve().name) / p.resolve().relative_to(rules_dir().resolve())).as_posix()
        except (ValueError, OSError):
            return p.as_posix() if not p.is_absolute() else p.name

    def interpretation_files(self) -> dict[str, str]:
        """Interpretation id -> `file:line` of the entry in force (the last layer's), the shipped rules
        as `rules/…`, another file by its name alone (the reference names no local path)."""
        out: dict[str, str] = {}
        for layer in self.c.merged.layers:
            for f in layer.files:
                for n, item in enumerate(f.data.get("interpretations") or []):
                    if isinstance(item, dict) and "id" in item:
                        out[str(item["id"])] = f"{self.shown_path(f.path)}:{f.locate(('interpretations', n)).line}"
        return out

    def clarifications(self, interps: list[Interpretation]) -> list[ClarificationGroup]:
        """The interpretations stated as rules, by the layer (box or house rule) that records them."""
        names = {layer["id"]: self.layer_text(layer, "name") for layer in self.d["layers"]}
        groups: list[ClarificationGroup] = []
        for item, data in zip(interps, self.d["interpretations"]):
            lid = str(data.get("layer", ""))
            if not groups or groups[-1]["anchor"] != f"rules-{lid}":
                groups.append({"layer": names.get(lid, lid), "anchor": f"rules-{lid}", "start": item["number"], "entries": []})
            groups[-1]["entries"].append(item)
        return groups

    def section_sources(self, shown: set[str]) -> list[SourceNote]:
        """The sources of each section of the player part, for the designer's appendix."""
        return [{"anchor": anchor, "title": self.t(TITLES[anchor]), "source": text}
                for key, text in self.sources().items() if text and (anchor := SOURCE_KEYS[key]) in shown]

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
    interps = m.interpretations()
    house = m.house_rules(settings, interps)
    step_marks = m.marks_under("flow", 2)
    classes, table = m.classes(m.marks_under("classes", 1))
    components = m.components()
    zones = m.zones()
    shown = {"house-rules": bool(house), "zones": bool(zones), "clarifications": bool(interps)}
    sections = [(a, k) for a, k in SECTIONS if shown.get(a, True)]
    return {
        "lang": cat.lang,
        "layers": [m.layer_text(layer, "name") for layer in compiled.data["layers"]],
        "sections": [{"anchor": a, "title": k} for a, k in sections],
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
        "clarifications": m.clarifications(interps),
        "interpretations": interps,
        "fallbacks": m.fallbacks(),
        "section_sources": m.section_sources({a for a, _ in sections}),
        "glossary": m.glossary(),
        "index": m.index(),
    }


def card_views(compiled: Compiled, cat: Catalog) -> list[CardView]:
    """Every card as the reference shows it, grouped by kind: id, anchor, name, kind, class,
    class_label, ranks_label and text (its sentences, from the effect IR)."""
    m = _Model(compiled, cat)
    return [m.card_view(cid) for kind in m.game["kinds"] for cid in m.cards_of(kind)]
