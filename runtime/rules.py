"""The compiled rules as the runtime reads them: card definitions with their handlers."""
from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

NO_HANDLERS: dict = {}


@dataclass(slots=True)
class CardDef:
    id: str
    name: str
    kind: str
    cls: str
    ranks: tuple[int, ...]
    nranks: int
    rank_points: int
    points: int
    copies: int
    enters: tuple[str, str | None]
    on: dict[str, tuple[Callable, ...]]            # `when EVENT`: events of this card
    any: dict[str, tuple[Callable, ...]]           # `whenever EVENT`: events of the owner's cards
    instead: dict[str, tuple[Callable, ...]]       # `instead of EVENT`
    instead_any: dict[str, tuple[Callable, ...]]   # `instead of any EVENT`
    score: Callable | None
    once: bool
    requires: tuple[Callable, ...]
    mods: tuple[tuple[str, str, Callable], ...]
    track: tuple[int, ...]


class Rules:
    """One compiled rule set (base game plus layers)."""

    def __init__(self, module: ModuleType):
        self.module = module
        data: dict[str, Any] = module.RULES
        self.data = data
        self.content_hash: str = module.CONTENT_HASH
        self.source_map: dict[int, str] = module.SOURCE_MAP
        self.game: dict[str, Any] = data["game"]
        self.classes: list[str] = [c["id"] for c in data["classes"]]
        self.class_score: dict[str, Callable] = module.CLASS_SCORE
        self.params: dict[str, int] = data["params"]
        self.layers: list[dict] = data["layers"]
        self.cards: dict[str, CardDef] = {}
        for cid, c in data["cards"].items():
            code = module.CARD_CODE.get(cid, NO_HANDLERS)
            self.cards[cid] = CardDef(
                id=cid, name=c["name"], kind=c["kind"], cls=c["class"],
                ranks=tuple(c["ranks"]), nranks=len(c["ranks"]), rank_points=sum(c["ranks"]),
                points=c["points"], copies=c["copies"], enters=tuple(c["enters"]),
                on=code.get("on", {}), any=code.get("any", {}), instead=code.get("instead", {}),
                instead_any=code.get("instead_any", {}), score=code.get("score"), once=code.get("once", False),
                requires=code.get("requires", ()), mods=code.get("mods", ()), track=tuple(c.get("track", ())),
            )
        self.decks: dict[int, list] = {int(k): v for k, v in data["decks"].items()}
        self.ages: list[int] = list(self.game["ages"])
        self.tavern_ids: list[str] = [t["id"] for t in self.game["taverns"]]
        coins = self.game["coins"]
        self.special_coins = {c["id"]: c for c in coins.get("special", [])}
        self.special_gems = {g["value"]: g for g in self.game["gems"].get("special", [])}
        self.modifier_cards = frozenset(cid for cid, d in self.cards.items() if d.mods)
        self.owner_events = frozenset(e for d in self.cards.values() for e in d.any)
        self.owner_replacements = frozenset(e for d in self.cards.values() for e in d.instead_any)

    def per_players(self, table: dict, n: int, default: Any = None) -> Any:
        """A `{players: value}` table's entry for n players (keys may be str or int)."""
        if n in table:
            return table[n]
        return table.get(str(n), default)

    @property
    def variant_ids(self) -> list[str]:
        return [layer["id"] for layer in self.layers if layer["variant"]]
