"""Records checked as simulate writes them, and paired: what `report` counts and resuming keeps.

Simulate writes a task's games (a chunk of game indexes, at most `LEAD` of them) of every rule set in
turn: rule set 0's games a … b−1, then rule set 1's. So in games.jsonl, and in each Parquet part
(which holds whole chunks), each rule set's records come in game order, without a gap or a repeat,
and no rule set runs more than a chunk ahead of another. A record out of that order is refused,
named by its place: a record removed from the middle, one repeated, or records of one rule set
where the other's should be, are not what simulate wrote.

`Pairing` holds a game's records until every rule set's has come, then releases them together: a
summary counts only complete games (all rule sets, paired), so its count of games is the games it
compares. What is still held at the end of games.jsonl is a chunk cut short (an interrupted run)
and is set aside, said in a note; a Parquet part holds whole chunks, so there it is refused.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .folder import RecordsError
from .provenance import Expected

LEAD = 1000   # the most games of one task (nidavellir/cli.py MAX_CHUNK; a test keeps them equal)

Held = tuple[str, dict[str, Any]]   # a record and its place


class Pairing:
    """The records of one file or part, checked against the manifest and in simulate's order;
    `start` is the game index the first must have (None: whatever a part's first record has)."""

    def __init__(self, expected: Expected, name: Path, start: int | None = 0):
        self.expected = expected
        self.name = name
        self.sets = sorted(expected.sets)
        self.first = 0 if start is None else start
        self.started = start is not None
        self.next = dict.fromkeys(self.sets, self.first)
        self.held: dict[int, dict[int, Held]] = {}

    @property
    def games(self) -> int:
        """The end of the games released: every rule set has games first … games − 1."""
        return min(self.next.values())

    @property
    def balanced(self) -> bool:
        return not self.held

    def add(self, record: dict[str, Any], place: str) -> list[Held]:
        """Check one record; the records of its game, by rule set, once they have all come."""
        problem = self.expected.record_problem(record)
        if problem:
            raise RecordsError(f"{place}: {problem}")
        s, g = record["set"], record["game"]
        if not self.started:
            self.started, self.first = True, g
            self.next = dict.fromkeys(self.sets, g)
        due = self.next[s]
        if g != due:
            what = (f"the record of game {due} of rule set {s} is missing before it" if g > due else
                    f"it is a second record of game {g} of rule set {s}")
            raise RecordsError(f"{place}: a record of game {g} of rule set {s} where game {due}'s is due: {what} "
                               "(simulate writes each rule set's games in order); move "
                               f"{self.name.name} away to start again")
        self.next[s] = g + 1
        behind = min(self.sets, key=lambda t: self.next[t])
        if self.next[s] - self.next[behind] > LEAD:
            raise RecordsError(f"{place}: rule set {s}'s records run more than {LEAD} games ahead of rule set "
                               f"{behind}'s (which stop before game {self.next[behind]}): simulate writes at most "
                               f"{LEAD} games of a rule set before the others'; move {self.name.name} away to "
                               "start again")
        game = self.held.setdefault(g, {})
        game[s] = (place, record)
        if len(game) < len(self.sets):
            return []
        del self.held[g]
        return [game[t] for t in self.sets]

    def leftovers(self) -> list[Held]:
        """The records still waiting for another rule set's, in the order they came."""
        return [held for g in sorted(self.held) for held in self.held[g].values()]

    def finish_part(self) -> None:
        """A Parquet part ends with whole chunks: nothing may be held."""
        left = self.leftovers()
        if left:
            place, record = left[0]
            missing = [t for t in self.sets if t not in self.held[record["game"]]]
            raise RecordsError(f"{place}: game {record['game']} of rule set {record['set']} without its record of "
                               f"rule set {missing[0]} in {self.name.name}: a part simulate writes holds whole "
                               "chunks of every rule set; delete it to play its games again")


class Tiling:
    """The game ranges of the Parquet parts, in order: each starts where the one before ended,
    the first at game 0."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.end = 0

    def add(self, part: Path, first: int, end: int) -> None:
        if end == first:
            return  # (an empty part)
        if first != self.end:
            what = (f"games {self.end} to {first - 1} are in no part" if first > self.end else
                    f"games {first} to {min(end, self.end) - 1} are in an earlier part too")
            raise RecordsError(f"{part}: holds games {first} to {end - 1}, but the parts before it end at game "
                               f"{self.end - 1}: {what}; move the folder away to start again")
        self.end = end


def set_aside_note(path: Path, held: list[Held]) -> str:
    """The note for the records of games.jsonl held at its end (places `PATH:LINE`): not counted."""
    lines = [place.rsplit(":", 1)[-1] for place, _ in held]
    games = sorted({record["game"] for _, record in held})
    span = f"game {games[0]}" if len(games) == 1 else f"games {games[0]} to {games[-1]}"
    if len(held) == 1:
        return (f"{path}:{lines[0]}: a record of {span} without its game of every rule set (a chunk cut short by "
                "an interrupted run?) is not counted; run simulate again to complete it")
    return (f"{path}:{lines[0]}–{lines[-1]}: {len(held)} records of {span} without their games of every rule set "
            "(a chunk cut short by an interrupted run?) are not counted; run simulate again to complete them")
