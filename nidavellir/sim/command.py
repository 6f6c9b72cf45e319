"""`nidavellir simulate` and `nidavellir report`: the commands around nidavellir/sim/run.py."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nidavellir.arguments import boxes_of, output_folder
from nidavellir.compiler.paths import problem
from nidavellir.errors import CommandError
from nidavellir.progress import Stage, is_terminal

READING = "reading the records: "
AFTER_READING = "writing the summary and the report …"


def counted(sets: int) -> str:
    """What a progress line's total counts when the games of several rule sets are in it."""
    return "" if sets <= 1 else "(both rule sets)" if sets == 2 else f"({sets} rule sets)"


def simulate(args: argparse.Namespace, warn: Any) -> int:
    """Play the simulation into --out, then write its summary and report; print the headline
    (or with --json the summary). A file of the folder that cannot be used is a usage error."""
    from .folder import FolderError

    try:
        return _simulate(args, warn)
    except FolderError as err:
        raise CommandError(str(err)) from None


def _simulate(args: argparse.Namespace, warn: Any) -> int:
    from .backends import BackendError, backend
    from .plan import Plan, read_manifest, sides
    from .run import simulate as run

    # (--games, --seed, --jobs and --chunk are in their bounds: nidavellir/cli.py)
    out = output_folder(args.out)
    boxes = boxes_of(args, [*args.variant, *(v for v in args.against if v != "base")], both=True)
    chosen = sides(boxes, args.variant, args.against)
    for side in chosen:
        for warning in side.rules.warnings:
            warn(warning)
        lo, hi = side.rules.min_players, side.rules.max_players
        if not lo <= args.players <= hi:
            raise CommandError(f"--players must be between {lo} and {hi} ({side.name})")
    old = read_manifest(out) if out.is_dir() else None
    fmt = args.format or (old.get("format") if old else None) or "parquet"
    bots = tuple(args.bots[k % len(args.bots)] for k in range(args.players))
    plan = Plan(args.players, boxes, bots, args.seed, args.games, chosen, fmt)
    jobs = args.jobs
    if args.ray is None:
        from .workers import workers_for

        jobs, why = workers_for(args.jobs, args.games * len(chosen))
        if why:
            print(f"nidavellir simulate: {why}", file=sys.stderr)
    try:
        where = backend(jobs, args.ray)
    except BackendError as err:
        raise CommandError(str(err)) from None
    terminal = is_terminal(sys.stderr)
    if old is not None and terminal:
        print(f"continuing the simulation in {out}", file=sys.stderr)
    scope = counted(len(chosen))
    games = Stage(sys.stderr, terminal, scope=scope)
    reading = Stage(sys.stderr, terminal, READING, AFTER_READING, scope=scope)
    try:
        outcome = run(plan, out, where, args.chunk, games.update, reading=reading.update)
    except OSError as err:
        raise CommandError(_unwritable(err, out)) from None
    finally:
        games.stop()
        reading.stop()
    if outcome.before and terminal:
        print(f"{outcome.before} games per rule set were already in {out}; played {outcome.played} more",
              file=sys.stderr)
    _notes(outcome.summary, "simulate")
    _print(outcome.summary, [str(p) for p in outcome.files], args.json)
    return 0


def report(args: argparse.Namespace) -> int:
    from .folder import FolderError

    try:
        return _report(args)
    except FolderError as err:
        raise CommandError(str(err)) from None


def _report(args: argparse.Namespace) -> int:
    from .plan import read_manifest
    from .run import report as make

    found = problem(args.dir, "folder")
    if found is not None:
        raise CommandError(f"cannot read {found}")
    out = Path(args.dir)
    manifest = read_manifest(out) if out.is_dir() else None  # (make says what is wrong with it)
    scope = counted(len(manifest.get("rule_sets") or ())) if isinstance(manifest, dict) else ""
    jobs = _reading_jobs(args.jobs, manifest)
    reading = Stage(sys.stderr, is_terminal(sys.stderr), READING, AFTER_READING, scope=scope)
    try:
        summary, files = make(out, reading=reading.update, jobs=jobs)
    except OSError as err:
        raise CommandError(_unwritable(err, out)) from None
    finally:
        reading.stop()
    _notes(summary, "report")
    _print(summary, [str(p) for p in files], args.json)
    return 0


def _reading_jobs(asked: int | None, manifest: Any) -> int | None:
    """The processes that read a folder's records: as `simulate` chooses its workers, within the
    cores actually free (said on stderr when fewer than asked), where the records are many enough
    to be read in parallel at all (run.PARALLEL_RECORDS)."""
    from . import run
    from .workers import POOL_GAMES, workers_for

    if not isinstance(manifest, dict):
        return asked
    games, sets = manifest.get("games"), manifest.get("rule_sets")
    expected = games * len(sets) if isinstance(games, int) and isinstance(sets, list) else 0
    if expected < run.PARALLEL_RECORDS:
        return asked  # (read in this process whatever is asked)
    jobs, why = workers_for(asked, max(expected, POOL_GAMES))  # (never "few games": many records)
    if why:
        print(f"nidavellir report: {why}", file=sys.stderr)
    return jobs


def _notes(summary: dict[str, Any], command: str) -> None:
    """What the summary did not count, or found fewer than the manifest names: a note on stderr each."""
    from nidavellir.errors import visible

    for note in (summary.get("records") or {}).get("notes") or []:
        print(f"nidavellir {command}: note: {visible(str(note))}", file=sys.stderr)


def _unwritable(err: OSError, out: Path) -> str:
    """A file of the folder that cannot be read or written, said as a usage error (exit 2)."""
    return f"{err.filename or out}: cannot be read or written ({err.strerror or err})"


def _print(summary: dict[str, Any], files: list[str], as_json: bool) -> None:
    from .text import summary_text

    plots = [f for f in files if Path(f).parent.name == "plots"]
    files = [f for f in files if f not in plots] + ([f"{Path(plots[0]).parent}/ ({len(plots)} plots)"] if plots else [])
    if as_json:
        print(json.dumps(summary, separators=(",", ":"), ensure_ascii=False), flush=True)
    else:
        print(summary_text(summary, files), end="", flush=True)
