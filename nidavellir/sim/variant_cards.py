"""The cards a rule set's variants add and change, and how each fared against its peers.

A variant layer *adds* a card when the card's first definition is in a variant layer of the rule set
(no box defines its id), and *changes* one when a box defines it and a variant layer redefines any of
its fields: `card_marks` (nidavellir/interface/rules.py) decides, as for the reference's "Added by"
and "Changed by". The manifest lists them per rule set (`variant_cards`), so `report DIR` rebuilds
this section from the records alone.

Each such card is measured with three figures of its rule set's summary, each with its 95 %
interval: the take rate (games in which it was taken: Wilson), the mean points per take (the game as
the unit: stats.ratio_interval) and the takers' win rate (Wilson). Its **peers** are the other cards
of the same kind and class in the same rule set that no variant adds or changes (the other neutral
heroes, the other artifacts, the other warrior dwarves …); the peers' mean of a figure is the plain
mean over the peers: of the take rate over every peer (a peer never taken counts 0), of the points
and the win rate over the peers taken at least once. A figure is **flagged** when its interval
excludes the peers' mean: `higher` when the whole interval lies above it, `lower` when below.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from nidavellir.interface.rules import card_marks
from nidavellir.stats import wilson

if TYPE_CHECKING:
    from nidavellir.runtime.rules import Rules

ADDED, CHANGED = "added", "changed"
MEASURES = ("take_rate", "mean_points", "taker_win_rate")
HIGHER, LOWER = "higher", "lower"


def variant_cards(rules: Rules) -> list[dict[str, Any]]:
    """The cards the rule set's variant layers add or change: card, how (added, changed), kind,
    class and the variant layers that wrote it; added ones first, then by kind and id."""
    variants = {layer.id for layer in rules.ruleset.layers if layer.variant}
    out = []
    for cid, d in rules.cards.items():
        added, changed = card_marks(d.layers, variants)
        if added or changed:
            out.append({"card": cid, "how": ADDED if added else CHANGED, "kind": d.kind, "class": d.cls,
                        "layers": added + changed})
    return sorted(out, key=lambda c: (c["how"] != ADDED, c["kind"], c["card"]))


def peer_group(kind: str, cls: str) -> str:
    """The words for a card's peers: "neutral heroes", "warrior dwarves", "artifacts" (a class is
    named unless it is neutral, or the kind is hero: neutral heroes are a group of their own)."""
    many = _kinds(kind)
    return f"{cls} {many}" if cls and (cls != "neutral" or kind == "hero") else many


def _kinds(kind: str) -> str:
    """A kind's words, many of it: the reference's heading of its cards ("Royal offerings"), in
    lower case; a kind it has no heading for, its id's words with an "s"."""
    from nidavellir.compiler.messages import catalog_messages

    heading = catalog_messages("en").get(f"ref.kinds.{kind}")
    return heading[:1].lower() + heading[1:] if heading else kind.replace("-", " ") + "s"


def flag(low: float | None, high: float | None, peers: float | None) -> str | None:
    """`higher` when the interval [low, high] lies wholly above the peers' mean, `lower` when
    wholly below; None when it holds the mean, or a value is missing."""
    if low is None or high is None or peers is None:
        return None
    if low > peers:
        return HIGHER
    if high < peers:
        return LOWER
    return None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _figures(row: Mapping[str, Any] | None, games: int) -> dict[str, tuple[float | None, float | None, float | None]]:
    """A card's (value, low, high) of each measure from its summary row (None: never taken)."""
    if row is None:
        low, high = wilson(0, games) if games else (None, None)
        return {"take_rate": (0.0 if games else None, low, high), "mean_points": (None, None, None),
                "taker_win_rate": (None, None, None)}
    take_low, take_high = wilson(int(row["games_taken"]), games)
    return {"take_rate": (row["take_rate"], take_low, take_high),
            "mean_points": (row["mean_points"], row.get("points_low"), row.get("points_high")),
            "taker_win_rate": (row["taker_win_rate"], row["low"], row["high"])}


def section(rule_set: Mapping[str, Any], about: Mapping[str, Any],
            names: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a rule set's variant cards: each figure with its interval, its peers' mean and its
    flag. `rule_set` is the rule set's summary (its `cards` rows, `games`), `about` its manifest
    entry (`variant_cards`, `cards`: every card id of the rule set), `names` the manifest's cards."""
    listed = [c for c in about.get("variant_cards") or [] if isinstance(c, Mapping)]
    if not listed:
        return []
    games = int(rule_set.get("games") or 0)
    rows = {str(r["card"]): r for r in rule_set.get("cards", [])}
    touched = {str(c["card"]) for c in listed}

    def key(cid: str, entry: Mapping[str, Any] | None = None) -> tuple[str, str]:
        e = entry or names.get(cid, {})
        return str(e.get("kind", "")), str(e.get("class", ""))

    groups: dict[tuple[str, str], list[str]] = {}
    for cid in about.get("cards") or sorted(set(rows) | touched):
        if cid not in touched:
            groups.setdefault(key(cid), []).append(cid)
    out = []
    for c in listed:
        cid = str(c["card"])
        kind, cls = key(cid, c)
        peers = groups.get((kind, cls), [])
        peer_figures = [_figures(rows.get(p), games) for p in peers]
        figures = {}
        for m, (v, low, high) in _figures(rows.get(cid), games).items():
            mean = _mean([x for f in peer_figures if (x := f[m][0]) is not None])
            figures[m] = {"value": v, "low": low, "high": high, "peers": mean, "flag": flag(low, high, mean)}
        out.append({"card": cid, "name": str(names.get(cid, {}).get("name", cid)), "how": str(c.get("how")),
                    "kind": kind, "class": cls, "peers": peer_group(kind, cls), "peer_count": len(peers),
                    "games_taken": int(rows[cid]["games_taken"]) if cid in rows else 0, **figures})
    return out
