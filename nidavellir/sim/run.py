"""Running a simulation into its folder, and reading a folder back into its report.

A folder holds `simulation.json` (the manifest), the records (`games.parquet/` or `games.jsonl`),
`summary.json` (every figure, sim-formats), `report.html`, `report.md` and `plots/`. The records
are the truth: the summary and the report are made from them, after a run or by `report` alone.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nidavellir.errors import NidavellirError

from . import folder, records
from .backends import Backend, chunk_size
from .plan import Plan, PlanError, differences, read_manifest, write_manifest
from .provenance import Expected
from .verify import Pairing, Tiling, set_aside_note

if TYPE_CHECKING:
    from .aggregate import Aggregator

SUMMARY = "summary.json"


class Interrupted(NidavellirError):
    """A run stopped by Ctrl-C after writing the games it had finished."""

    def __init__(self, done: int, total: int, out: Path):
        super().__init__(f"interrupted: {done} of {total} games are in {out}; run the same command to go on")
        self.done, self.total = done, total


@dataclass
class Outcome:
    """What a run did: the games already there, those played, and the folder's summary."""
    out: Path
    before: int            # game indexes already on disk (per rule set)
    played: int            # games played now (all rule sets)
    summary: dict[str, Any]
    files: list[Path]


def simulate(plan: Plan, out: Path, backend: Backend, chunk: int | None = None,
             progress: Callable[[int, int], None] | None = None, render: bool = True,
             reading: Callable[[int, int], None] | None = None) -> Outcome:
    """`play`, then the summary and (with `render`) the report, read by as many processes as the
    backend ran here; `reading(done, total)` is told while the records are read back."""
    before, played = play(plan, out, backend, chunk, progress)
    summary, files = report(out, render, reading, backend.readers)
    return Outcome(out, before, played, summary, files)


def play(plan: Plan, out: Path, backend: Backend, chunk: int | None = None,
         progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """Play what the folder lacks of the plan's games (all of them in a new folder) and write their
    records; `progress(done, total)` is told when the work starts and after each chunk, in games of
all rule sets, counting those already on disk (total: the games asked of every rule set). Returns
    the game indexes already on disk (per rule set) and the games played now (all rule sets)."""
    manifest = plan.manifest()
    old = read_manifest(out)
    sets = len(plan.sides)
    if old is not None and not old.get("rules_column"):
        manifest["rules_column"] = False  # (a folder begun before records had `rules` keeps their columns)
    expected = Expected(manifest)
    if old is None:
        found = [f for f in (records.where(out, fmt) for fmt in records.FORMATS) if folder.exists(f)]
        if found:
            raise PlanError(f"{out} holds records ({found[0].name}) but no simulation.json that says what they "
                            "are: choose another --out, or move them away")
        start = 0
    else:
        problems = differences(old, manifest)
        if problems:
            raise PlanError(f"{out} holds another simulation ({'; '.join(problems)}): choose another --out, "
                            "or move that folder away")
        manifest["games"] = max(plan.games, int(old.get("games", 0)))
        start = records.complete_games(out, plan.fmt, expected)
    write_manifest(out, manifest)
    end = max(start, plan.games)
    size = chunk or chunk_size(end - start, backend.workers)
    done = 0
    writer = records.writer(out, plan.fmt, expected)
    try:
        if progress is not None and end > start:
            progress(start * sets, end * sets)  # the work starts (the games already there are done)
        for result in backend.run(plan.job(manifest["rules_column"]), plan.tasks(start, size)):
            writer.write(result.payload, result.rows)
            done += result.rows
            if progress is not None:
                progress(start * sets + done, end * sets)
    except KeyboardInterrupt:
        raise Interrupted(start * sets + done, end * sets, out) from None
    finally:
        writer.close()
        backend.close()
    return start, done


READ_STEP = 1000         # records between two calls of `reading`
PARALLEL_RECORDS = 20_000  # fewer records are read faster by this process than a pool starts


def report(out: Path, render: bool = True, reading: Callable[[int, int], None] | None = None,
           jobs: int | None = None) -> tuple[dict[str, Any], list[Path]]:
    """The folder's records to summary.json and (with `render`) report.html, report.md and plots/;
    `reading(done, total)` is told as the records are read (total: the records the manifest
    promises, or more if there are). Many Parquet parts are read by `jobs` processes (default every
    core), each counting its parts; their counts are exact sums, merged into the same summary.

    Every record is checked against the manifest and in simulate's order (verify.py) before
    anything is written; only complete games (every rule set's record) are counted, and what is not
    counted, or fewer games than the manifest names, is said in `summary["records"]["notes"]`."""
    from .backends import cores

    manifest = read_manifest(out)
    if manifest is None:
        raise PlanError(f"{out}: no {out / 'simulation.json'}; is this a simulation's folder?")
    fmt = manifest["format"]
    records.check_format(out, fmt)
    promised = manifest["games"]
    expected = promised * len(manifest["rule_sets"])
    path = records.where(out, fmt)
    if reading is not None:
        reading(0, max(1, expected))
    notes: list[str] = []
    if fmt == "jsonl":
        tally = _Tally(manifest, reading, expected)
        games = _count_jsonl(out, path, Expected(manifest), tally, notes)
        aggregator, digest, count = tally.aggregator, tally.digest, tally.count
    else:
        parts = records.part_files(out, fmt)
        workers = min(jobs or cores(), len(parts))
        if workers > 1 and expected >= PARALLEL_RECORDS:
            aggregator, digest, count, ranges = _in_parallel(manifest, parts, workers, reading, expected)
        else:
            aggregator, digest, count, ranges = _count_parts((manifest, parts), reading, expected)
        tiling = Tiling(path)
        for part, first, end in ranges:
            tiling.add(part, first, end)
        games = tiling.end
    if games < promised:
        notes.append(f"{path}: the records hold {games} of the {promised} games per rule set that simulation.json "
                     f"names (an interrupted run?): the summary counts those {games}; run simulate again to complete "
                     "them")
    summary = aggregator.summary()
    summary["records"] = {"count": count, "digest": f"{digest % 2 ** 256:064x}", "format": fmt,
                          "path": path.name, "games": games, "notes": notes}
    written = out / SUMMARY
    folder.write_file(out, written, (json.dumps(summary, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    files = [written]
    if render:
        from .report import render_report

        files += render_report(summary, out)
    return summary, files


class _Tally:
    """What the counted records add up to: the Aggregator, the sum of their digests, their number.
    A record the Aggregator refuses is named by its place."""

    def __init__(self, manifest: dict[str, Any], reading: Callable[[int, int], None] | None = None,
                 expected: int = 0) -> None:
        from .aggregate import Aggregator

        self.aggregator = Aggregator(manifest)
        self.digest = self.count = 0
        self.reading, self.expected = reading, expected

    def take(self, place: str, record: dict[str, Any]) -> None:
        try:
            self.aggregator.add(record)
        except (ValueError, KeyError, TypeError, IndexError) as err:
            raise records.RecordsError(f"{place}: not a record of this simulation ({err})") from None
        self.digest += int.from_bytes(hashlib.sha256(canonical(record)).digest(), "big")
        self.count += 1
        if self.reading is not None and self.count % READ_STEP == 0:
            self.reading(self.count, max(self.count, self.expected))

    def done(self) -> None:
        if self.reading is not None and self.count % READ_STEP:
            self.reading(self.count, max(self.count, self.expected))


def _count_jsonl(out: Path, path: Path, expected: Expected, tally: _Tally, notes: list[str]) -> int:
    """Count games.jsonl's complete games; the games counted. A chunk cut short at its end (and a
    last line cut short) is set aside, said in `notes`."""
    pairing = Pairing(expected, path)
    cut = None
    for line in records.jsonl_lines(out, path):
        if line.cut or line.record is None:
            cut = line
            break
        for place, record in pairing.add(line.record, f"{path}:{line.number}"):
            tally.take(place, record)
    tally.done()
    left = pairing.leftovers()
    if left:
        notes.append(set_aside_note(path, left))
    if cut is not None:
        notes.append(records.cut_note(path, cut))
    return pairing.games


Ranges = list[tuple[Path, int, int]]  # a part and the games [first, end) it holds


def _count_parts(job: tuple[dict[str, Any], list[Path]], reading: Callable[[int, int], None] | None = None,
                 expected: int = 0) -> tuple[Aggregator, int, int, Ranges]:
    """Count the complete games of Parquet parts: the Aggregator, the sum of their digests, their
    number, and each part's games."""
    manifest, parts = job
    tally = _Tally(manifest, reading, expected)
    stamp = Expected(manifest)
    ranges = [(part, *records.part_range(part, stamp, tally.take)) for part in parts]
    tally.done()
    return tally.aggregator, tally.digest, tally.count, ranges


def _in_parallel(manifest: dict[str, Any], parts: list[Path], workers: int,
                 reading: Callable[[int, int], None] | None, expected: int) -> tuple[Aggregator, int, int, Ranges]:
    """The parts shared out in runs of neighbours (twice as many runs as workers), counted apart
    and merged in order."""
    from concurrent.futures import ProcessPoolExecutor

    from .backends import start_method

    groups = min(len(parts), 2 * workers)
    runs = [parts[i * len(parts) // groups:(i + 1) * len(parts) // groups] for i in range(groups)]
    merged: Aggregator | None = None
    digest = count = 0
    ranges: Ranges = []
    with ProcessPoolExecutor(workers, mp_context=start_method()) as pool:
        for aggregator, part_digest, part_count, part_ranges in pool.map(_count_parts,
                                                                          [(manifest, run) for run in runs]):
            if merged is None:
                merged = aggregator
            else:
                merged.merge(aggregator)
            digest += part_digest
            count += part_count
            ranges += part_ranges
            if reading is not None:
                reading(count, max(count, expected))
    assert merged is not None  # (there is a run per worker, at least two)
    return merged, digest, count, ranges


def canonical(record: dict[str, Any]) -> bytes:
    """A record's bytes for its digest: JSON with sorted keys. The folder's digest is the sum of
    its records' SHA-256 (mod 2²⁵⁶): the same records give the same digest in any order, so runs
    with other chunks, workers or backends can be compared by it."""
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode("utf-8")
