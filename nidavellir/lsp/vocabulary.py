"""The names a rule set defines, for completion and hover: events (the runtime's, as the rules list
them, and the flow's windows), classes, params, cards, zones, special coins and kinds; and the
DSL's own words (keywords, built-in variables and functions)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nidavellir.compiler.names import FUNCTIONS, VARIABLES, keywords
from nidavellir.interface.events import (
    BUILTIN_ZONES,
    EVENTS,
    RUNTIME_PARAMS,
    EventSpec,
    window_spec,
)
from nidavellir.interface.mechanisms import FLOW_PARTS

if TYPE_CHECKING:
    from nidavellir.compiler.compile import Compiled


@dataclass
class Vocabulary:
    events: dict[str, EventSpec] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)      # id -> name
    params: dict[str, str] = field(default_factory=dict)       # name -> value and meaning
    cards: dict[str, str] = field(default_factory=dict)        # id -> name
    kinds: dict[str, str] = field(default_factory=dict)        # card kind -> what it is
    zones: dict[str, str] = field(default_factory=dict)        # id -> name
    decks: set[str] = field(default_factory=set)               # zones that hold a deck
    coins: dict[str, str] = field(default_factory=dict)        # special coin id -> name

    @classmethod
    def of(cls, compiled: Compiled) -> Vocabulary:
        rules = compiled.ruleset
        v = cls()
        for name in rules.events:
            if name in EVENTS:
                v.events[name] = EVENTS[name]
        for part in FLOW_PARTS:
            for step in getattr(rules, part):
                if step.window and step.window not in EVENTS:
                    v.events[step.window] = window_spec(step.window)
        v.classes = {c.id: c.name for c in rules.classes}
        for name, value in sorted(rules.params.items()):
            meaning = RUNTIME_PARAMS[name][1] if name in RUNTIME_PARAMS else "a param of the rules"
            v.params[name] = f"= {value}: {meaning}"
        v.cards = {cid: card.name for cid, card in compiled.cards().items()}
        v.kinds = {k: f"enters {enters}" for k, enters in rules.kinds.items()}
        v.zones = dict(BUILTIN_ZONES)
        v.zones.update({z.id: z.name for z in rules.zones})
        v.decks = set(rules.zone_decks)
        v.coins = {c.id: c.name for c in rules.special_coins}
        return v

    def add_cards(self, ids: dict[str, str]) -> None:
        """Cards a document defines that the compiled rules do not (yet) hold."""
        for cid, name in ids.items():
            self.cards.setdefault(cid, name)


def dsl_words() -> dict[str, str]:
    """The DSL's own words: keywords, then variables and functions (with what they give)."""
    words = {k: "keyword" for k in sorted(keywords())}
    for name, b in VARIABLES.items():
        words[name] = f"variable: a {b.type}"
    for name, b in FUNCTIONS.items():
        words[name] = f"function ({', '.join(b.args or ())}) -> a {b.type}"
    return words
