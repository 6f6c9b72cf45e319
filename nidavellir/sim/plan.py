"""What a simulation plays: the rule sets, seats and seeds, and its manifest (`simulation.json`).

Rule set 0 is the one tested: the base game with the boxes and every `--variant` layer; rule set 1,
when there is one, is what it is compared with: the same boxes with every `--against` layer
(`--against base`, or none given beside a `--variant`: no layer). Both play game indexes 0 … G−1
with seeds S … S+G−1, so each game of one is paired with the game of the same seed of the other.

The manifest names what was played; a run into a folder that holds a manifest continues it when
it names the same simulation (the same players, boxes, bots, seed, records format and the rules'
content hashes: variant files changed since are another simulation), with as many games as asked
or already there.
"""
from __future__ import annotations

import json
import linecache
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nidavellir.compiler.paths import MAX_FILE_BYTES, PathProblem, read_bytes
from nidavellir.errors import NidavellirError
from nidavellir.interface.numbers import MAX_SEED, is_seed, json_loads
from nidavellir.runtime.rules import Rules

from . import folder
from .labels import AGAINST, rule_set_label, rule_set_name
from .records import FORMATS
from .worker import Job, RuleSource, Task

MANIFEST = "simulation.json"
VERSION = 1


class PlanError(NidavellirError):
    """A simulation that cannot be played as asked (printed as an error, exit 1)."""


@dataclass(frozen=True)
class Side:
    """One rule set of a simulation: its label (the records' key) and name (labels.py)."""
    label: str
    variants: tuple[str, ...]     # as given (files or shipped ids)
    rules: Rules
    name: str = ""

    def about(self, expansions: Sequence[str]) -> str:
        text = " + ".join(["base", *expansions])
        ids = self.rules.variant_ids
        return text + ("; variants: " + ", ".join(ids) if ids else "")


@dataclass(frozen=True)
class Plan:
    players: int
    expansions: tuple[str, ...]
    bots: tuple[str, ...]         # by seat
    seed: int
    games: int
    sides: tuple[Side, ...]
    fmt: str

    def job(self, rules_column: bool = True) -> Job:
        """What the workers need; this process keeps its loaded rules for the workers it forks.
        Without `rules_column` (a folder begun before records had one) records carry no `rules`."""
        from .worker import preload

        sources = tuple(source_of(s.rules, s.label, self.play_options(s), s.name if rules_column else None)
                        for s in self.sides)
        for side, rs in zip(self.sides, sources):
            preload(rs, side.rules)
        return Job(sources, self.players, self.bots, self.seed, self.fmt)

    def play_options(self, side: Side) -> tuple[str, ...]:
        """The options that make `nidavellir play` play a game of this rule set."""
        boxes = ("--expansions", ",".join(self.expansions)) if self.expansions else ()
        return (*boxes, *(x for v in side.variants for x in ("--variant", v)))

    def tasks(self, start: int, size: int) -> Iterator[Task]:
        """Game indexes start … games − 1 in tasks of `size` games, each made when it is taken:
        the plan of any number of games costs no memory."""
        for first in range(start, self.games, size):
            yield Task(first, min(first + size, self.games))

    def manifest(self) -> dict[str, Any]:
        from nidavellir.session import variant_record

        from .variant_cards import variant_cards

        cards: dict[str, dict[str, str]] = {}
        parts: dict[str, None] = {}
        for side in self.sides:
            for cid, d in side.rules.cards.items():
                cards.setdefault(cid, {"name": d.name, "kind": d.kind, "class": d.cls})
            parts.update(dict.fromkeys(breakdown_parts(side.rules)))
        return {
            "simulation": VERSION, "players": self.players, "expansions": list(self.expansions),
            "bots": list(self.bots), "seed": self.seed, "games": self.games, "format": self.fmt,
            "rule_sets": [{"index": i, "label": s.label, "name": s.name, "about": s.about(self.expansions),
                           "variants": s.rules.variant_ids, "given": list(s.variants),
                           "variant_files": [variant_record(v) for v in s.variants],
                           "content_hash": s.rules.content_hash, "cards": sorted(s.rules.cards),
                           "variant_cards": variant_cards(s.rules)}
                          for i, s in enumerate(self.sides)],
            "cards": dict(sorted(cards.items())), "parts": list(parts), "rules_column": True,
        }


def breakdown_parts(rules: Rules) -> list[str]:
    """The breakdown's parts in the order scores list them (runtime/scoring.py)."""
    return [*rules.classes, "heroes", *dict.fromkeys(rules.ruleset.score_parts.values()), "coins"]


def source_of(rules: Rules, label: str, options: tuple[str, ...] = (), rules_name: str | None = None) -> RuleSource:
    """A rule set's compiled module source (the committed file's, or the one compiled and cached)."""
    module = rules.module
    name = getattr(module, "__file__", None)
    lines = linecache.getlines(name) if name else []
    if not lines:
        raise PlanError(f"the compiled source of the rules {rules.content_hash[:12]} is not at hand")
    return RuleSource(rules.content_hash, "".join(lines), label, options, rules_name)


def _side(rules: Rules, given: tuple[str, ...], again: bool = False) -> Side:
    suffix = AGAINST if again else ""
    return Side(rule_set_label(rules) + suffix, given, rules, rule_set_name(rules) + suffix)


def sides(expansions: tuple[str, ...], variants: Sequence[str], against: Sequence[str]) -> tuple[Side, ...]:
    """The rule sets: the tested one, and what it is compared with (none when neither
    `--variant` nor `--against` is given)."""
    from nidavellir.rulesets import load_rules

    tested = tuple(variants)
    other = tuple(v for v in against if v != "base")
    if "base" in against and other:
        raise PlanError("--against base compares with the base rules: it takes no other --against")
    rules = load_rules(expansions, tested)
    first = _side(rules, tested)
    if not tested and not against:
        return (first,)
    rules = load_rules(expansions, other)
    return first, _side(rules, other, again=rules.content_hash == first.rules.content_hash)


# -- the manifest ------------------------------------------------------------------------------

def read_manifest(out: Path) -> dict[str, Any] | None:
    """The folder's manifest (None: it has none), judged first (folder.py: exit 2 for a pipe, a
    folder or a link out of the folder) and checked for what the runner and the report rely on."""
    path = out / MANIFEST
    if not folder.exists(path) or not folder.exists(out) or not out.is_dir():
        return None  # (a new folder, or one that cannot be made: said where it is written)
    folder.check_read(out, path)
    try:
        text = read_bytes(path, limit=MAX_FILE_BYTES).decode("utf-8")
    except PathProblem as err:
        raise folder.FolderError(f"cannot read {err}") from None
    except UnicodeDecodeError:
        raise PlanError(f"{path}: not JSON (not UTF-8 text); is this a simulation's folder?") from None
    try:
        data = json_loads(text)
    except ValueError as err:
        raise PlanError(f"{path}:{getattr(err, 'lineno', 1)}:{getattr(err, 'colno', 1)}: not JSON "
                        f"({getattr(err, 'msg', err)}); is this a simulation's folder?") from None
    if not isinstance(data, dict) or data.get("simulation") != VERSION:
        raise PlanError(f"{path}: not the manifest of a simulation (version {VERSION})")
    problem = _manifest_problem(data)
    if problem:
        raise PlanError(f"{path}: {problem}; is it a simulation's manifest, edited?")
    return data


def _manifest_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with a manifest's shape (None: nothing the runner and the report rely on)."""
    def ints(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not ints(data.get("players")) or not 1 <= data["players"] <= 64:
        return "`players` is not a number of players"
    if not ints(data.get("games")) or data["games"] < 0 or not ints(data.get("seed")):
        return "`games` and `seed` must be whole numbers"
    if not is_seed(data["seed"]) or not is_seed(data["seed"] + max(data["games"], 1) - 1):
        return (f"`seed` {data['seed']} and `games` {data['games']} play seeds past the bound of a seed, −10^12 to "
                f"10^12 ({MAX_SEED:,})")
    if data.get("format") not in FORMATS:
        return f"`format` must be one of {', '.join(FORMATS)}"
    for key in ("bots", "expansions", "parts"):
        if not isinstance(data.get(key, []), list) or not all(isinstance(x, str) for x in data.get(key, [])):
            return f"`{key}` must be a list of names"
    sets = data.get("rule_sets")
    if (not isinstance(sets, list) or not 1 <= len(sets) <= 2
            or any(not isinstance(rs, dict) or rs.get("index") != i or not isinstance(rs.get("label"), str)
                   or not isinstance(rs.get("content_hash"), str) for i, rs in enumerate(sets))):
        return "`rule_sets` must list one or two rule sets, indexed 0 and 1, each with a label and a content hash"
    if data.get("rules_column") is not None and not isinstance(data["rules_column"], bool):
        return "`rules_column` must be true or false"
    if data.get("rules_column") and any(not isinstance(rs.get("name"), str) for rs in sets):
        return "a rule set's `name` must be text (its records' `rules`)"
    if any(not isinstance(rs.get("cards", []), list) or not all(isinstance(c, str) for c in rs.get("cards", []))
           for rs in sets):
        return "a rule set's `cards` must be a list of card ids"
    if any(not isinstance(rs.get("variant_cards", []), list)
           or not all(isinstance(c, dict) and isinstance(c.get("card"), str) and c.get("how") in ("added", "changed")
                      for c in rs.get("variant_cards", [])) for rs in sets):
        return "a rule set's `variant_cards` must list cards, each with its id and how (added, changed)"
    cards = data.get("cards", {})
    if not isinstance(cards, dict) or not all(isinstance(v, dict) for v in cards.values()):
        return "`cards` must map card ids to their name, kind and class"
    return None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    folder.make_folder(out, out)
    folder.write_file(out, out / MANIFEST, (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """How a folder's simulation differs from the one asked (empty: the same; games may differ)."""
    out = []
    for key in ("players", "expansions", "bots", "seed", "format"):
        if old.get(key) != new.get(key):
            out.append(f"{key}: {_shown(old.get(key))} there, {_shown(new.get(key))} asked")
    was = [r.get("content_hash") for r in old.get("rule_sets", []) if isinstance(r, dict)]
    now = [r["content_hash"] for r in new["rule_sets"]]
    if len(was) != len(now):
        out.append(f"rule sets: {len(was)} there, {len(now)} asked")
    else:
        for i, (a, b) in enumerate(zip(was, now)):
            if a != b:
                label = new["rule_sets"][i]["label"]
                out.append(f"rule set {i} ({label}): other rules (a variant file changed, or another version "
                           "of nidavellir)")
    return out


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return str(value)
