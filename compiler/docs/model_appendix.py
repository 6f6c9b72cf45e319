"""The reference's house rules and the sections they change, its clarifications, and the
designer's appendix: interpretations, texts shown in English, sources, glossary and index."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..build import rules_dir
from ..layers import Origin
from .citations import cite
from .layer_texts import lacking
from .model_base import ModelBase, _add, sort_key
from .model_sections import PARAM_SECTIONS, SETTING_SECTIONS, SOURCE_KEYS, TITLES
from .views import (
    ClarificationGroup,
    Fallback,
    HouseRule,
    Interpretation,
    Link,
    SourceNote,
    Term,
)

Setting = tuple[str, str, str]  # a house rule's game setting: dotted path, the value it sets or "", section


def _value_at(origin: Origin) -> Any:
    value: Any = origin.loaded.data
    for key in origin.path:
        value = value[key]
    return value


class AppendixModel(ModelBase):
    """The house rules, clarifications and the designer's appendix."""

    # -- house rules and marks -------------------------------------------------------------------------
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
            removed = [cid for cid, layers in merged.card_layers.items() if lid in layers and cid not in self.cards]
            out.append({
                "id": lid,
                "name": self.layer_text(layer, "name"),
                "description": self.layer_text(layer, "description"),
                "source": cite(self.layer_text(layer, "source"), self.cat).rstrip("."),  # the appendix adds its stop
                "cards": [self.link(cid) for cid, c in self.cards.items() if lid in c.layers],
                "removed": [self.cat.t(f"card.{cid}", default=_value_at(merged.card_origin[cid]["name"])
                                       if "name" in merged.card_origin[cid] else cid) for cid in removed],
                "classes": [{"anchor": f"scoring-{path.split('.')[1]}", "name": self.cx.cls(path.split(".")[1])}
                            for path, _, _ in settings.get(lid, []) if path.startswith("classes.")],
                "settings": [{"path": path, "value": value, "anchor": section}
                             for path, value, section in settings.get(lid, []) if not path.startswith("classes.")],
                "sections": [{"anchor": a, "name": self.t(TITLES[a])} for a in dict.fromkeys(
                    section for path, _, section in settings.get(lid, []) if not path.startswith("classes."))],
                "interpretations": [{"anchor": i["rule"], "label": str(i["number"])}
                                    for i, data in zip(interps, self.rs.interpretations) if data.layer == lid],
            })
        return out

    # -- interpretations, sources, glossary, index -----------------------------------------------------
    def interpretations(self) -> list[Interpretation]:
        """Each interpretation's text and source (catalog keys `interp.<id>` and `interp.<id>.source`,
        the rules data's English by default), its number among the clarifications and the place of
        the rules data that records it."""
        where = self.interpretation_files()
        return [{"id": i.id, "anchor": f"interp-{i.id}", "rule": f"rule-{i.id}", "number": n,
                 "text": self.cat.t(f"interp.{i.id}", default=i.text),
                 "source": cite(self.cat.t(f"interp.{i.id}.source", default=i.source), self.cat) if i.source else "",
                 "file": where.get(i.id, ""),
                 "changed": self.layer_names([i.layer])} for n, i in enumerate(self.rs.interpretations, 1)]

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

    def shown_path(self, path: str) -> str:
        """A rules file as the reference names it: the shipped rules as `rules/…`, another file by
        its name alone (the reference names no local path)."""
        p = Path(path)
        try:
            return (Path(rules_dir().resolve().name) / p.resolve().relative_to(rules_dir().resolve())).as_posix()
        except (ValueError, OSError):
            return p.as_posix() if not p.is_absolute() else p.name

    def fallbacks(self) -> list[Fallback]:
        """The entries of the house rules shown in English for want of a text in this language."""
        names = {layer.id: self.layer_text(layer, "name") for layer in self.rs.layers}
        out: list[Fallback] = []
        for lack in lacking(self.c, self.cat):
            ident = self.cx.card(lack.ident) if lack.kind == "card" else lack.ident
            out.append({"what": self.t(f"ref.fallback.{lack.kind}", id=ident), "layer": names[lack.layer],
                        "file": f"{self.shown_path(lack.loc.path)}:{lack.loc.line}", "fix": lack.fix})
        return out

    def clarifications(self, interps: list[Interpretation]) -> list[ClarificationGroup]:
        """The interpretations stated as rules, by the layer (box or house rule) that records them."""
        names = {layer.id: self.layer_text(layer, "name") for layer in self.rs.layers}
        groups: list[ClarificationGroup] = []
        for item, data in zip(interps, self.rs.interpretations):
            lid = data.layer
            if not groups or groups[-1]["anchor"] != f"rules-{lid}":
                groups.append({"layer": names.get(lid, lid), "anchor": f"rules-{lid}", "start": item["number"], "entries": []})
            groups[-1]["entries"].append(item)
        return groups

    def sources(self) -> dict[str, str]:
        """Each section's source note: its catalog text, then each box's own (`<key>.<layer id>`), the
        documents they cite named by title."""
        boxes = [layer.id for layer in self.rs.layers if not layer.variant]
        return {key: "; ".join(cite(self.t(k), self.cat) for k in [key] + [f"{key}.{b}" for b in boxes] if self.cat.has(k))
                for key in SOURCE_KEYS}

    def section_sources(self, shown: set[str]) -> list[SourceNote]:
        """The sources of each section of the player part, for the designer's appendix."""
        return [{"anchor": anchor, "title": self.t(TITLES[anchor]), "source": text}
                for key, text in self.sources().items() if text and (anchor := SOURCE_KEYS[key]) in shown]

    def glossary(self) -> list[Term]:
        """The catalog's terms: `glossary.<term>`, and `glossary.<layer>.<term>` while that layer is in force."""
        layers = {layer.id for layer in self.rs.layers}
        keys = [k for k in self.cat.fallback if k.startswith("glossary.") and not k.endswith(".text")
                and (k.count(".") == 1 or (k.count(".") == 2 and k.split(".")[1] in layers))]
        terms: list[Term] = [{"id": k.rsplit(".", 1)[1], "anchor": "term-" + k.rsplit(".", 1)[1], "term": self.t(k),
                              "text": self.t(k + ".text")} for k in keys]
        return sorted(terms, key=lambda x: (sort_key(x["term"]), x["id"]))

    def index(self) -> list[Link]:
        return sorted((self.link(cid) for cid in self.cards), key=lambda x: (sort_key(x["name"]), x["anchor"]))
