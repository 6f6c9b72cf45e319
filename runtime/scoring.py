"""Final Bravery Value: class formulas, the command zone, coins and special gems."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import Engine


def player_score(e: "Engine", p: int) -> dict:
    pl = e.s.players[p]
    breakdown: dict[str, int] = {}
    for cls in e.rules.classes:
        breakdown[cls] = int(e.rules.class_score[cls](e, p, cls))
    heroes = 0
    seen_once: set[str] = set()
    for card in pl.command:
        d = e.defs[card]
        heroes += d.points
        if d.score is not None:
            if d.once:
                if d.id in seen_once:
                    continue
                seen_once.add(d.id)
            heroes += d.score(e, p, card)
    for cls in e.rules.classes:  # once-per-set scores of army cards go with the heroes
        for card in pl.army.get(cls, ()):
            d = e.defs[card]
            if d.score is not None and d.once and d.id not in seen_once:
                seen_once.add(d.id)
                heroes += d.score(e, p, card)
    breakdown["heroes"] = heroes
    gem_bonus = e.rules.special_gems.get(pl.gem, {}).get("points", 0)
    breakdown["coins"] = e.coins_total(p) + gem_bonus
    return {"name": pl.name, "total": sum(breakdown.values()), "breakdown": breakdown}


def final_scores(e: "Engine") -> dict:
    players = [player_score(e, p) for p in range(e.n)]
    best = max(pl["total"] for pl in players)
    return {"players": players, "winners": [pl["name"] for pl in players if pl["total"] == best]}
