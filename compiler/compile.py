"""Compile merged rules layers into the source of one Python module the runtime imports."""
from __future__ import annotations

import hashlib
import pprint
from dataclasses import dataclass
from pathlib import Path

from . import ir
from .check import Checker, Names
from .diagnostics import Diagnostics, Location, suggest
from .dsl import DslSyntaxError, parse_effect, parse_expr
from .emit import ModuleEmitter, escaped
from .layers import Layer, Merged, Origin, load_layer, merge
from .sources import COMPILER_VERSION, grammar_text

ENTERS = {"own column": ("own", None), "command zone": ("command", None),
          "chosen column": ("chosen", None), "discard": ("discard", None)}


@dataclass
class Compiled:
    source: str               # the module's Python source
    content_hash: str         # hash of the compiler, grammar and every rules source
    data: dict                # the RULES table
    effects: dict[str, list[tuple[str, ir.Effect]]]  # card id -> (text, IR) for the docs
    merged: Merged


def content_hash(layers: list[Layer]) -> str:
    """A hash of the compiler, the grammar and the loaded data of every layer file."""
    h = hashlib.sha256(f"nidavellir-compiler {COMPILER_VERSION}\n".encode())
    h.update(grammar_text().encode())
    for layer in layers:
        for f in layer.files:
            h.update(f"\0{layer.id}\0{f.path}\0{f.data!r}".encode())
    return h.hexdigest()


def load_layers(specs: list[tuple[Path, str, bool]], diags: Diagnostics) -> list[Layer]:
    layers = []
    for path, shown, is_variant in specs:
        layer = load_layer(path, shown, diags, is_variant)
        if layer is not None:
            layers.append(layer)
    return layers


def compile_layers(layers: list[Layer], diags: Diagnostics | None = None, chash: str | None = None) -> Compiled:
    """Merge, check and compile; raise RulesError with every problem found (and those in `diags`).

    `chash` names the sources (build.source_hash); without it, a hash of the loaded data."""
    diags = diags if diags is not None else Diagnostics()
    merged = merge(layers, diags)
    return _Compiler(merged, diags).run(chash or content_hash(layers))


class _Compiler:
    def __init__(self, merged: Merged, diags: Diagnostics):
        self.m = merged
        self.diags = diags
        self.emitter = ModuleEmitter()
        self.effects: dict[str, list[tuple[str, ir.Effect]]] = {}  # card id -> (text, IR)

    def err(self, origin: Origin | None, message: str, hint: str | None = None) -> None:
        loc = origin.loc if origin else Location("<rules>", 1, 1)
        self.diags.error(loc, message, hint)

    def run(self, chash: str) -> Compiled:
        m = self.m
        game = m.game
        missing = [key for key in ("players", "cards_per_tavern", "taverns", "ages", "classes", "coins", "gems",
                                   "flow", "kinds") if key not in game]
        for key in missing:
            self.err(m.game_origin.get(("game",)) or self._first_origin(), f"the rules define no `game.{key}`")
        if missing:  # the checks below need the whole game
            self.diags.raise_if_any()
        names = self.names()
        data_cards = {cid: self.card(cid, card, names) for cid, card in m.cards.items()}
        classes = self.classes(names)
        decks = self.decks()
        self.flow_check()
        self.diags.raise_if_any()
        params = dict(game.get("params", {}))
        for card in data_cards.values():
            params.update(card["params"])
        data = {
            "layers": [{"id": l.id, "name": l.name, "description": l.description, "source": l.source,
                        "variant": l.is_variant} for l in m.layers],
            "game": {k: v for k, v in game.items() if k != "classes"},
            "classes": classes,
            "cards": data_cards,
            "decks": decks,
            "params": params,
            "interpretations": list(m.interpretations.values()),
        }
        return Compiled(self.source(data, chash), chash, data, self.effects, m)

    def _first_origin(self) -> Origin | None:
        return Origin(self.m.sources[0], ()) if self.m.sources else None

    def names(self) -> Names:
        g = self.m.game
        events = set(g.get("events", {}))
        for part in g.get("flow", {}).values():
            events |= {s["window"] for s in part if isinstance(s, dict) and "window" in s}
        params = set(g.get("params", {}))
        for card in self.m.cards.values():
            params |= set(card.get("params", {}))
        return Names(
            classes={c["id"] for c in g["classes"]},
            events=events,
            params=params,
            coins={c["id"] for c in g["coins"].get("special", [])},
            gems={s["value"] for s in g["gems"].get("special", [])},
            cards=set(self.m.cards),
            ages=set(g["ages"]),
            kinds=set(g["kinds"]),
        )

    # -- cards ------------------------------------------------------------------------
    def card(self, cid: str, card: dict, names: Names) -> dict:
        origin = self.m.card_origin[cid]
        at = lambda key: origin.get(key) or origin["@"]  # noqa: E731
        kinds = self.m.game["kinds"]
        kind = card.get("kind")
        if kind is None:
            self.err(origin["@"], f"card `{cid}` has no `kind`", "kinds: " + ", ".join(kinds))
        elif kind not in kinds:
            self.err(at("kind"), f"unknown card kind `{kind}`", suggest(kind, kinds))
        cls = card.get("class", "neutral")
        if cls != "neutral" and cls not in names.classes:
            self.err(at("class"), f"unknown class `{cls}`", suggest(cls, names.classes | {"neutral"}))
        ranks = card.get("ranks", [])
        ranks = [0] * ranks if isinstance(ranks, int) else list(ranks)
        enters = ENTERS.get(kinds.get(kind, {}).get("enters", "own column"), ("own", None))
        compiled_effects = []
        for i, text in enumerate(card.get("effects", [])):
            eff_origin = at("effects").at(i) if "effects" in origin else origin["@"]
            effect = self.parse(text, eff_origin)
            if effect is None:
                continue
            checker = Checker(names, "trigger" if isinstance(effect, (ir.Triggered, ir.Replacement)) else "card")
            checker.effect(effect)
            for prob in checker.problems:
                self.diags.error(eff_origin.loaded.locate_in_string(eff_origin.path, prob.pos),
                                 prob.message, prob.hint)
            if checker.problems:
                continue
            compiled_effects.append((text, effect))
            if isinstance(effect, ir.Enters):
                enters = (effect.place.mode, effect.place.column)
            else:
                self.emitter.card_effect(cid, effect, str(eff_origin.loc), text)
        self.effects[cid] = compiled_effects
        return {
            "id": cid,
            "name": card.get("name") or _default_name(cid),
            "kind": kind,
            "class": cls,
            "ranks": ranks,
            "points": card.get("points", 0),
            "copies": card.get("copies", 1),
            "track": list(card.get("track", [])),
            "params": dict(card.get("params", {})),
            "enters": list(enters),
            "source": str(origin["@"].loc),
            "layers": self.m.card_layers.get(cid, []),
        }

    def parse(self, text: str, origin: Origin) -> ir.Effect | None:
        try:
            return parse_effect(text)
        except DslSyntaxError as err:
            self.diags.error(origin.loaded.locate_in_string(origin.path, err.offset), err.message, err.hint)
            return None

    def classes(self, names: Names) -> list[dict]:
        out = []
        for c in self.m.game["classes"]:
            origin = self.m.game_origin.get(("classes", c["id"], "score")) or self.m.game_origin.get(("classes",))
            text = c.get("score")
            if not text:
                self.err(origin, f"class `{c['id']}` has no `score` formula")
                continue
            try:
                expr = parse_expr(text)
            except DslSyntaxError as err:
                self.diags.error(origin.loaded.locate_in_string(origin.path, err.offset), err.message, err.hint)
                continue
            checker = Checker(names, "column")
            checker.expr(expr, "number")
            for prob in checker.problems:
                self.diags.error(origin.loaded.locate_in_string(origin.path, prob.pos), prob.message, prob.hint)
            if not checker.problems:
                self.emitter.class_score(c["id"], expr, str(origin.loc))
            out.append({"id": c["id"], "name": c.get("name", c["id"]), "score": text, "expr": expr})
        return out

    def decks(self) -> dict:
        decks = {}
        for age in sorted(set(self.m.decks) - set(self.m.game["ages"])):
            self.err(self.m.deck_origin[(age, None)], f"there is no age {age}",
                     "ages: " + ", ".join(map(str, self.m.game["ages"])))
        for age in self.m.game["ages"]:
            if age not in self.m.decks:
                self.err(self.m.game_origin.get(("ages",)), f"no deck for age {age}")
                continue
            entries = []
            for e in self.m.decks[age]:
                key = (e["card"], e.get("min_players", 0))
                if e["card"] not in self.m.cards:
                    self.err(self.m.deck_origin[(age, key)].at("card"), f"unknown card `{e['card']}` in the age {age} deck",
                             suggest(e["card"], self.m.cards))
                entries.append([e["card"], e["count"], e.get("min_players", 0)])
            decks[age] = entries
        return decks

    def flow_check(self) -> None:
        from nidavellir.runtime.flow import STEPS
        flow = self.m.game["flow"]
        for part in ("turn", "age_end"):
            for step in flow.get(part, []):
                if "do" in step and step["do"] not in STEPS:
                    self.err(self.m.game_origin.get(("flow", part, step["id"], "do")),
                             f"unknown flow step `{step['do']}`", suggest(step["do"], STEPS))

    # -- source ---------------------------------------------------------------------------
    def source(self, data: dict, chash: str) -> str:
        em = self.emitter
        em.tables()
        head = [
            '"""Compiled rules: generated by `nidavellir build` from the rules data. Do not edit.',
            "",
            "Layers: " + ", ".join(escaped(l["id"]) for l in data["layers"]),
            "Sources:",
            *[f"  {escaped(f.path)}" for f in self.m.sources],
            '"""',
            f"CONTENT_HASH = {chash!r}",
            "",
            "from nidavellir.runtime.support import div as _div, lookup as _lookup",
            "",
        ]
        plain = dict(data, classes=[{k: v for k, v in c.items() if k != "expr"} for c in data["classes"]])
        offset = len(head)
        body = em.w.lines
        tail = ["", "RULES = " + pprint.pformat(plain, width=110, sort_dicts=True), "",
                "SOURCE_MAP = " + pprint.pformat({k + offset: v for k, v in em.w.source_map.items()}, width=110), ""]
        return "\n".join(head + body + tail)


def _default_name(cid: str) -> str:
    base, _, points = cid.partition(":")
    words = base.replace("-", " ").capitalize()
    return f"{words} {points}" if points else words
