"""What a simulation's records say they were played with, checked against its manifest.

Every record carries its rule set's `label` and `content_hash` (the hash of the compiled rules it
was played with, the value the manifest keeps) beside its `players` and `bots`; every Parquet part
carries the same of every rule set in its schema metadata (key `nidavellir.simulation`). A record
or part that disagrees with the manifest in any of them is refused (`report` and resuming alike),
naming its file, its place and the field: records of another variant (or of another number of
players, other bots, another label) are never summarised under the manifest's.

A record must also be a game the manifest says was played: its `set` one of the manifest's rule
sets, its `game` an index from 0 to the manifest's games − 1, its `seed` the manifest's seed + its
game index (game i of every rule set is played with seed S + i), its `seats` the names simulate
gives them (P1, P2, …), and every card of its card facts a card of its rule set (the manifest lists
each rule set's cards; a manifest from before it did, the cards of all its rule sets).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeGuard

from nidavellir.errors import visible

METADATA_KEY = b"nidavellir.simulation"
FIELDS = ("content_hash", "label", "players", "bots")
HOWS = ("took", "recruited", "distinction", "placed")   # nidavellir/sim/facts.py
PREDATES = ("written by a nidavellir from before records named the rules they were played with (no "
            "`content_hash`), so nothing says which rules these are; simulate again into a new folder")


class Expected:
    """What the manifest says every record and part was played with."""

    def __init__(self, manifest: Mapping[str, Any]):
        self.players = manifest["players"]
        self.bots = list(manifest["bots"])
        self.seed: int = manifest.get("seed") or 0
        self.games: int = manifest.get("games") or 0
        self.seats = [f"P{k + 1}" for k in range(self.players)]
        everything = frozenset(manifest.get("cards", {}))
        self.sets: dict[Any, dict[str, Any]] = {
            rs["index"]: {"label": rs["label"], "content_hash": rs.get("content_hash"),
                          **({"rules": rs.get("name")} if manifest.get("rules_column") else {})}
            for rs in manifest["rule_sets"]}
        # (a folder begun before records carried `rules` keeps records without it)
        self.fields = (*FIELDS, "rules") if manifest.get("rules_column") else FIELDS
        self.cards: dict[Any, frozenset[str]] = {
            rs["index"]: frozenset(rs["cards"]) if isinstance(rs.get("cards"), list) else everything
            for rs in manifest["rule_sets"]}

    def metadata(self) -> dict[bytes, bytes]:
        """A Parquet part's schema metadata."""
        stamp = {"players": self.players, "bots": self.bots,
                 "rule_sets": [{"index": i, **v} for i, v in self.sets.items()]}
        return {METADATA_KEY: json.dumps(stamp, ensure_ascii=False).encode("utf-8")}

    def record_problem(self, record: Mapping[str, Any]) -> str | None:
        """How a record disagrees with the manifest, naming the field (None: it does not)."""
        if not isinstance(record, Mapping):
            return "not a simulation record (not a JSON object)"
        index = record.get("set")
        expected = self.sets.get(index) if _whole(index) else None
        if expected is None or not _whole(index):
            return (f"the record's `set` is {_shown(index, 'set')}, but simulation.json has rule set"
                    f"{'s' * (len(self.sets) > 1)} {' and '.join(map(str, self.sets))}; move these records away, "
                    "or simulate again into a new folder")
        if "content_hash" not in record:
            return f"the record was {PREDATES}"
        for field in self.fields:
            want = expected[field] if field in expected else getattr(self, field)
            got = record.get(field)
            if got != want:
                return _differs(f"the record's `{field}`", got, want, field, index)
        return self._game_problem(record) or self._cards_problem(record, index)

    def _game_problem(self, record: Mapping[str, Any]) -> str | None:
        """The record's game index, its seed and its seats, against what the manifest played."""
        game = record.get("game")
        if not _whole(game) or not 0 <= game < self.games:
            return (f"the record's `game` is {_shown(game, 'game')}, but simulation.json names games 0 to "
                    f"{self.games - 1}; move these records away, or simulate again into a new folder")
        seed = record.get("seed")
        if not _whole(seed) or seed != self.seed + game:
            return (f"the record's `seed` is {_shown(seed, 'seed')}, but game {game} of simulation.json (seeds from "
                    f"{self.seed}) is played with seed {self.seed + game}: this is not the game it says it is; "
                    "move these records away, or simulate again into a new folder")
        if record.get("seats") != self.seats:
            return (f"the record's `seats` are {_shown(record.get('seats'), 'seats')}, but simulate names the seats "
                    f"of a {self.players}-player game {_shown(self.seats, 'seats')}; move these records away, or "
                    "simulate again into a new folder")
        return None

    def _cards_problem(self, record: Mapping[str, Any], index: int) -> str | None:
        """Each card fact: a card of its rule set, a player of the game, a way simulate records."""
        facts = record.get("cards")
        if not isinstance(facts, list):
            return "the record's `cards` is not a list of card facts"
        known = self.cards[index]
        for k, fact in enumerate(facts, 1):
            if not isinstance(fact, Mapping):
                return f"the record's card fact {k} is not an object"
            card, player, how = fact.get("card"), fact.get("player"), fact.get("how")
            if not isinstance(card, str) or card not in known:
                return (f"the record's card fact {k} names the card {_shown(card, 'card')}, which rule set {index} "
                        "of simulation.json does not have; move these records away, or simulate again into a "
                        "new folder")
            if not _whole(player) or not 0 <= player < self.players:
                return (f"the record's card fact {k} (`{visible(card)}`) has `player` {_shown(player, 'player')}, "
                        f"not a seat of the game (0 to {self.players - 1})")
            if how not in HOWS:
                return (f"the record's card fact {k} (`{visible(card)}`) has `how` {_shown(how, 'how')}, not one of "
                        f"{', '.join(HOWS)}")
            for field in ("age", "turn", "points"):
                if not _whole(fact.get(field)):
                    return (f"the record's card fact {k} (`{visible(card)}`) has `{field}` "
                            f"{_shown(fact.get(field), field)}, not a whole number")
        return None

    def part_problem(self, metadata: Mapping[bytes, bytes] | None) -> str | None:
        """How a Parquet part's schema metadata disagrees with the manifest (None: it does not)."""
        raw = (metadata or {}).get(METADATA_KEY)
        if raw is None:
            return f"the part was {PREDATES}"
        try:
            stamp = json.loads(raw)
            sets = {rs["index"]: rs for rs in stamp["rule_sets"]}
        except (ValueError, KeyError, TypeError):
            return "the part's `nidavellir.simulation` metadata is not what simulate writes"
        for field in ("players", "bots"):
            if stamp.get(field) != getattr(self, field):
                return _differs(f"the part's `{field}`", stamp.get(field), getattr(self, field), field)
        if sorted(sets, key=str) != sorted(self.sets, key=str):
            return _differs("the part's rule sets", sorted(sets, key=str), sorted(self.sets, key=str), "rule_sets")
        for index, expected in self.sets.items():
            for field in [f for f in ("content_hash", "label", "rules") if f in expected]:
                if sets[index].get(field) != expected[field]:
                    return _differs(f"the part's `{field}` of rule set {index}", sets[index].get(field),
                                    expected[field], field, index)
        return None


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _differs(what: str, got: Any, want: Any, field: str, index: Any = None) -> str:
    where = (f"simulation.json's rule set {index} has" if index is not None and field in ("content_hash", "label", "rules")
             else "simulation.json says")
    why = {"content_hash": ": these records were played with other rules (another variant, or a variant "
                           "file changed since)",
           "label": ": these records are of another rule set",
           "rules": ": these records are of another rule set"}.get(field, "")
    return (f"{what} is {_shown(got, field)}, but {where} {_shown(want, field)}{why}; "
            "move these records away, or simulate again into a new folder")


def _shown(value: Any, field: str) -> str:
    if isinstance(value, str) and field == "content_hash" and len(value) > 16:
        return f"`{value[:12]}…`"
    if isinstance(value, list):
        return "`" + ",".join(visible(str(v)) for v in value) + "`"
    return f"`{visible(str(value))}`" if value is not None else "missing"
