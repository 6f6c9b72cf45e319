"""What a simulation's records say they were played with, checked against its manifest.

Every record carries its rule set's `label` and `content_hash` (the hash of the compiled rules it
was played with, the value the manifest keeps) beside its `players` and `bots`; every Parquet part
carries the same of every rule set in its schema metadata (key `nidavellir.simulation`). A record
or part that disagrees with the manifest in any of them is refused (`report` and resuming alike),
naming its file, its place and the field: records of another variant (or of another number of
players, other bots, another label) are never summarised under the manifest's.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from nidavellir.errors import visible

METADATA_KEY = b"nidavellir.simulation"
FIELDS = ("content_hash", "label", "players", "bots")
PREDATES = ("written by a nidavellir from before records named the rules they were played with (no "
            "`content_hash`), so nothing says which rules these are; simulate again into a new folder")


class Expected:
    """What the manifest says every record and part was played with."""

    def __init__(self, manifest: Mapping[str, Any]):
        self.players = manifest["players"]
        self.bots = list(manifest["bots"])
        self.sets: dict[Any, dict[str, Any]] = {
            rs["index"]: {"label": rs["label"], "content_hash": rs.get("content_hash")}
            for rs in manifest["rule_sets"]}

    def metadata(self) -> dict[bytes, bytes]:
        """A Parquet part's schema metadata."""
        stamp = {"players": self.players, "bots": self.bots,
                 "rule_sets": [{"index": i, **v} for i, v in self.sets.items()]}
        return {METADATA_KEY: json.dumps(stamp, ensure_ascii=False).encode("utf-8")}

    def record_problem(self, record: Mapping[str, Any]) -> str | None:
        """How a record disagrees with the manifest (None: it does not; a rule set the manifest
        lacks is left to the reader that counts it)."""
        expected = self.sets.get(record.get("set"))
        if expected is None:
            return None
        if "content_hash" not in record:
            return f"the record was {PREDATES}"
        for field in FIELDS:
            want = expected[field] if field in expected else getattr(self, field)
            got = record.get(field)
            if got != want:
                return _differs(f"the record's `{field}`", got, want, field, record.get("set"))
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
            for field in ("content_hash", "label"):
                if sets[index].get(field) != expected[field]:
                    return _differs(f"the part's `{field}` of rule set {index}", sets[index].get(field),
                                    expected[field], field, index)
        return None


def _differs(what: str, got: Any, want: Any, field: str, index: Any = None) -> str:
    where = (f"simulation.json's rule set {index} has" if index is not None and field in ("content_hash", "label")
             else "simulation.json says")
    why = {"content_hash": ": these records were played with other rules (another variant, or a variant "
                           "file changed since)",
           "label": ": these records are of another rule set"}.get(field, "")
    return (f"{what} is {_shown(got, field)}, but {where} {_shown(want, field)}{why}; "
            "move these records away, or simulate again into a new folder")


def _shown(value: Any, field: str) -> str:
    if isinstance(value, str) and field == "content_hash" and len(value) > 16:
        return f"`{value[:12]}…`"
    if isinstance(value, list):
        return "`" + ",".join(visible(str(v)) for v in value) + "`"
    return f"`{visible(str(value))}`" if value is not None else "missing"
