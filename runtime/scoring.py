"""Final Bravery Value: class formulas, the command zone, coins and special gems."""
from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from .engine import Engine


class PlayerScore(TypedDict):
    """One player's Final Bravery Value: the total and what each part gives (DESIGN §8)."""
    name: str
    total: int
    breakdown: dict[str, int]


class Scores(TypedDict):
    players: list[PlayerScore]
    winners: list[str]


def player_score(e: Engine, p: int) -> PlayerScore:
    """Class formulas, then what command-zone cards score (in `heroes`, or the part their kind names:
    a kind's `breakdown`, DESIGN §8), then coins with the special gem's bonus."""
    pl = e.s.players[p]
    breakdown: dict[str, int] = {}
    for cls in e.rules.classes:
        breakdown[cls] = int(e.rules.class_score[cls](e, p, cls))
    parts = e.rules.ruleset.score_parts
    breakdown["heroes"] = 0
    for part in parts.values():
        breakdown[part] = 0
    seen_once: set[str] = set()
    for card in pl.command:
        d = e.defs[card]
        part = parts.get(d.kind, "heroes")
        breakdown[part] += d.points
        if d.score is not None:
            if d.score_once:
                if d.id in seen_once:
                    continue
                seen_once.add(d.id)
            breakdown[part] += e.card_score(p, card)
    for cls in e.rules.classes:  # once-per-set scores of army cards go with the command zone's
        for card in pl.army.get(cls, ()):
            d = e.defs[card]
            if d.score is not None and d.score_once and d.id not in seen_once:
                seen_once.add(d.id)
                breakdown[parts.get(d.kind, "heroes")] += e.card_score(p, card)
    gem = e.rules.special_gems.get(pl.gem)
    gem_bonus = gem.points if gem is not None else 0
    breakdown["coins"] = e.coins_total(p) + gem_bonus
    return {"name": pl.name, "total": sum(breakdown.values()), "breakdown": breakdown}


def final_scores(e: Engine) -> Scores:
    players = [player_score(e, p) for p in range(e.n)]
    best = max(pl["total"] for pl in players)
    return {"players": players, "winners": [pl["name"] for pl in players if pl["total"] == best]}
