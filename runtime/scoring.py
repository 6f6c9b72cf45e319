"""Final Bravery Value: class formulas, the command zone, coins and special gems."""
from __future__ import annotations

from collections.abc import Iterator
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
    breakdown: dict[str, int] = {}
    for cls in e.rules.classes:
        breakdown[cls] = 0
    breakdown["heroes"] = 0
    for part in e.rules.ruleset.score_parts.values():
        breakdown[part] = 0
    for part, value in _card_parts(e, p):
        breakdown[part] += value
    breakdown["coins"] = coins_part(e, p)
    return {"name": e.s.players[p].name, "total": sum(breakdown.values()), "breakdown": breakdown}


def coins_part(e: Engine, p: int) -> int:
    """The coin total with the special gem's bonus: it reads p's coins and gem, no card."""
    gem = e.rules.special_gems.get(e.s.players[p].gem)
    return e.coins_total(p) + (gem.points if gem is not None else 0)


def _card_parts(e: Engine, p: int) -> Iterator[tuple[str, int]]:
    """(part, value) of each class formula, then of each command-zone card's points and score, then of
    the once-per-set scores of army cards (a part may come more than once: its values add up)."""
    class_score = e.rules.class_score
    for cls in e.rules.classes:
        yield cls, int(class_score[cls](e, p, cls))
    yield from _command_parts(e, p)


def command_total(e: Engine, p: int) -> int:
    """What p's cards score besides the class formulas (the command zone, once-per-set scores)."""
    return sum(value for _, value in _command_parts(e, p))


def _command_parts(e: Engine, p: int) -> Iterator[tuple[str, int]]:
    pl = e.s.players[p]
    defs = e.defs
    parts = e.rules.ruleset.score_parts
    seen_once: set[str] = set()
    for card in pl.command:
        d = defs[card]
        part = parts.get(d.kind, "heroes")
        yield part, d.points
        if d.score is not None:
            if d.score_once:
                if d.id in seen_once:
                    continue
                seen_once.add(d.id)
            yield part, e.card_score(p, card)
    for cls in e.rules.classes:  # once-per-set scores of army cards go with the command zone's
        for card in pl.army.get(cls, ()):
            d = defs[card]
            if d.score is not None and d.score_once and d.id not in seen_once:
                seen_once.add(d.id)
                yield parts.get(d.kind, "heroes"), e.card_score(p, card)


def final_scores(e: Engine) -> Scores:
    players = [player_score(e, p) for p in range(e.n)]
    best = max(pl["total"] for pl in players)
    return {"players": players, "winners": [pl["name"] for pl in players if pl["total"] == best]}
