"""What the rule reference shows, gathered from a compiled rule set.

Every number comes from the rules data, every card text from its effect IR (compiler/docs/text.py),
the turn from the flow data; the templates only arrange it with catalog wording. The model's parts
are in compiler/docs/model_*.py: the shared lookups (`model_base`), the sections (`model_sections`),
setup, flow, zones, scoring, cards and the appendix.
"""
from __future__ import annotations

from ..compile import Compiled
from .model_appendix import AppendixModel
from .model_base import card_anchors, sort_key
from .model_cards import CardsModel
from .model_flow import FlowModel
from .model_scoring import ScoringModel
from .model_sections import PARAM_SECTIONS, SECTIONS
from .model_setup import SetupModel
from .model_zones import ZonesModel
from .text import Catalog
from .views import CardView, Reference

__all__ = ["SECTIONS", "card_anchors", "card_views", "reference_context", "sort_key"]


class _Model(SetupModel, FlowModel, ZonesModel, ScoringModel, CardsModel, AppendixModel):
    """The reference model: every part's views over one compiled rule set and catalog."""


def reference_context(compiled: Compiled, cat: Catalog) -> Reference:
    """Everything the reference templates render, for one compiled rule set and language."""
    m = _Model(compiled, cat)
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
        "layers": [m.layer_text(layer, "name") for layer in compiled.ruleset.layers],
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
        "special_gems": [g for g in compiled.ruleset.special_gems if not g.tradable],
        "point_gems": [g for g in compiled.ruleset.special_gems if g.points],
        "trading_coins": m.trading_coins(),
        "modifying": {s: m.modifying(s) for s in dict.fromkeys(PARAM_SECTIONS.values())},
        "class_names": m.cx.join([m.cx.cls(c) for c in m.class_ids]),
        "class_count": len(m.class_ids),
        "heroes": m.heroes_by_class(),
        "requirements": m.requirements(),
        "classes": classes,
        "table": table,
        "distinctions": [{**m.link(cid), "cls": m.cx.cls(m.cards[cid].cls)}
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
    return [m.card_view(cid) for kind in m.rs.kinds for cid in m.cards_of(kind)]
