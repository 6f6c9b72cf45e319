"""`nidavellir simulate` and `nidavellir report`: the commands around nidavellir/sim/run.py."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from nidavellir.errors import NidavellirError
from nidavellir.progress import Progress


class SimUsageError(NidavellirError):
    """A bad option value found after parsing (exit 2, as argparse's own)."""


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def simulate(args: argparse.Namespace, warn: Any) -> int:
    """Play the simulation into --out, then write its summary and report; print the headline
    (or with --json the summary)."""
    from .backends import BackendError, backend
    from .plan import Plan, read_manifest, sides
    from .run import simulate as run

    if args.games < 1:
        raise SimUsageError("--games must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise SimUsageError("--jobs must be at least 1")
    if args.chunk is not None and args.chunk < 1:
        raise SimUsageError("--chunk must be at least 1")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise SimUsageError(f"--out {out}: not a folder")
    chosen = sides(tuple(args.expansions), args.variant, args.against)
    for side in chosen:
        for warning in side.rules.warnings:
            warn(warning)
        lo, hi = side.rules.min_players, side.rules.max_players
        if not lo <= args.players <= hi:
            raise SimUsageError(f"--players must be between {lo} and {hi} ({side.label})")
    old = read_manifest(out) if out.is_dir() else None
    fmt = args.format or (old.get("format") if old else None) or "parquet"
    bots = tuple(args.bots[k % len(args.bots)] for k in range(args.players))
    plan = Plan(args.players, tuple(args.expansions), bots, args.seed, args.games, chosen, fmt)
    try:
        where = backend(args.jobs, args.ray)
    except BackendError as err:
        raise SimUsageError(str(err)) from None
    terminal = _is_terminal(sys.stderr)
    bar: Progress | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(total, sys.stderr)
        bar.update(done)
        if done >= total:  # the games are played: the summary and report follow
            bar.close()
            bar = None

    if old is not None and terminal:
        print(f"continuing the simulation in {out}", file=sys.stderr)
    try:
        reader = Reading(sys.stderr) if terminal else None
        try:
            outcome = run(plan, out, where, args.chunk, progress if terminal else None,
                          reading=reader.update if reader is not None else None)
        except OSError as err:
            raise SimUsageError(_unwritable(err, out)) from None
        finally:
            if reader is not None:
                reader.done()
        if bar is not None:
            bar.close()
            bar = None
    finally:
        if bar is not None:
            bar.clear()
    if outcome.before and terminal:
        print(f"{outcome.before} games per rule set were already in {out}; played {outcome.played} more",
              file=sys.stderr)
    _print(outcome.summary, [str(p) for p in outcome.files], args.json)
    return 0


def report(args: argparse.Namespace) -> int:
    from .run import report as make

    out = Path(args.dir)
    if args.jobs is not None and args.jobs < 1:
        raise SimUsageError("--jobs must be at least 1")
    if not out.is_dir():
        raise SimUsageError(f"{out}: not a folder")
    reader = Reading(sys.stderr) if _is_terminal(sys.stderr) else None
    try:
        summary, files = make(out, reading=reader.update if reader is not None else None, jobs=args.jobs)
    except OSError as err:
        raise SimUsageError(_unwritable(err, out)) from None
    finally:
        if reader is not None:
            reader.done()
    _print(summary, [str(p) for p in files], args.json)
    return 0


def _unwritable(err: OSError, out: Path) -> str:
    """A file of the folder that cannot be read or written, said as a usage error (exit 2)."""
    return f"{err.filename or out}: cannot be read or written ({err.strerror or err})"


class Reading:
    """The progress of reading the records back (the summary and report follow it)."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.bar: Progress | None = None
        self.finished = False

    def update(self, done: int, total: int) -> None:
        if self.finished:
            return
        if self.bar is None:
            self.bar = Progress(total, self.stream, prefix="reading the records: ")
        self.bar.total = total
        self.bar.update(done)
        if done >= total:
            self.bar.close()
            self.bar, self.finished = None, True
            print("writing the summary and the report …", file=self.stream, flush=True)

    def done(self) -> None:
        if self.bar is not None:  # interrupted or failed: leave the line clean
            self.bar.clear()
            self.bar = None


def _print(summary: dict[str, Any], files: list[str], as_json: bool) -> None:
    from .text import summary_text

    plots = [f for f in files if Path(f).parent.name == "plots"]
    files = [f for f in files if f not in plots] + ([f"{Path(plots[0]).parent}/ ({len(plots)} plots)"] if plots else [])
    if as_json:
        print(json.dumps(summary, separators=(",", ":"), ensure_ascii=False), flush=True)
    else:
        print(summary_text(summary, files), end="", flush=True)
