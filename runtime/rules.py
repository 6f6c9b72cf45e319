"""The compiled rules as the runtime reads them: the typed rule set and indexes derived from it."""
from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from nidavellir.interface.rules import CardDef, ClassScore, RuleSet, SpecialCoin, SpecialGem

if TYPE_CHECKING:
    from .placement import Standing
    from .setup import SetupPlan


class Rules:
    """One compiled rule set (base game plus layers), with the lookups play needs often."""

    def __init__(self, ruleset: RuleSet, module: ModuleType | None = None):
        self.ruleset = ruleset
        self.module = module                     # the module it came from (for locating errors)
        self.content_hash = ruleset.content_hash
        self.cards: Mapping[str, CardDef] = ruleset.cards
        self.classes: tuple[str, ...] = tuple(c.id for c in ruleset.classes)
        self.class_score: dict[str, ClassScore] = {c.id: c.score for c in ruleset.classes}
        # column -> the classes whose formula may read it (`ClassDef.reads`), for every column a formula
        # names and every class; None: those that may read anything, which read any other column too
        self.formula_readers: dict[str | None, tuple[str, ...]] = {
            col: tuple(c.id for c in ruleset.classes if c.reads is None or col in c.reads)
            for col in {*self.classes, *(r for c in ruleset.classes for r in c.reads or ()), None}}
        # card id -> the column of its own class; None (the command zone) for a card of no class
        self.own_columns: dict[str, str | None] = {
            cid: d.cls if d.cls in self.class_score else None for cid, d in ruleset.cards.items()}
        self.params = ruleset.params  # (the compiler gave the runtime's params their defaults)
        self.ages: tuple[int, ...] = ruleset.ages
        self.tavern_ids: tuple[str, ...] = tuple(t.id for t in ruleset.taverns)
        self.tavern_names: tuple[str, ...] = tuple(t.name for t in ruleset.taverns)
        self.min_players, self.max_players = ruleset.players
        self.special_coins: dict[str, SpecialCoin] = {c.id: c for c in ruleset.special_coins}
        self.special_gems: dict[int, SpecialGem] = {g.value: g for g in ruleset.special_gems}
        self.decks = ruleset.decks
        self.dwarf_kinds = frozenset(ruleset.dwarf_kinds)
        self.zone_ids = frozenset(z.id for z in ruleset.zones)
        self.modifier_cards = frozenset(cid for cid, d in self.cards.items() if d.mods)
        self.owner_events = frozenset(e for d in self.cards.values() for e in d.whenever)
        self.owner_replacements = frozenset(e for d in self.cards.values() for e in d.instead_any)
        self.own_replacements = frozenset(e for d in self.cards.values() for e in d.instead)
        self.reacting = frozenset(e for d in self.cards.values() for e in (*d.when, *d.whenever))
        steps = (*ruleset.turn, *ruleset.age_end, *ruleset.tavern)
        self.windows = frozenset(step.window for step in steps if step.window is not None)
        # Cards a player's index of listeners holds (core.listeners): effects on others' events, or on windows
        self.listening = frozenset(cid for cid, d in self.cards.items()
                                   if d.whenever or d.instead_any or self.windows & set(d.when))
        # Whether any card reacts to a card's entry (else a plain dwarf is placed without asking)
        self.entry_watched = bool({"taken", "joined"} & self.owner_events or "taken" in self.owner_replacements
                                  or "taken" in self.own_replacements)
        sources = ruleset.pick_sources  # one pick source, the tavern, open to every bidder: the plain case
        self.tavern_only = len(sources) == 1 and sources[0].zone == "tavern" and sources[0].who == "any"
        self.setup_plans: dict[int, SetupPlan] = {}  # players -> what setup deals (built on first use)
        self.step_plans: dict[int, Any] = {}         # age -> a flow part's steps with their functions (flow.py)
        self.standings: Mapping[str, Standing] | None = None  # card id -> where it may stand (placement.py)

    @property
    def variant_ids(self) -> list[str]:
        return [layer.id for layer in self.ruleset.layers if layer.variant]

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.ruleset.warnings

    def allows(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players
