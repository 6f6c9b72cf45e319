"""What a worker does: play a chunk of game indexes under every rule set and encode their records.

A worker gets the rule sets as compiled module sources (not file names), so that a machine of a
Ray cluster plays exactly the rules the command compiled, with or without the variant files; each
source is run once per process and checked against its content hash. A game depends only on its
rule set, seed and bots: seat k of game `seed` is bot `bots[k]` seeded `bot_seed(seed, k)`
(runtime/streams.py), as `nidavellir play --seed S --bots …` plays it, so any game of a simulation
replays alone.
"""
from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Any

from nidavellir.errors import NidavellirError, game_failed, visible
from nidavellir.runtime.bots import make_bot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.rules import Rules
from nidavellir.runtime.streams import bot_seed

from .facts import RECORDED, record_of
from .records import encode


@dataclass(frozen=True)
class RuleSource:
    """A rule set as a worker receives it: its compiled module's source and content hash, and its
    label and name (the records carry them, the name in `rules`; None: records without `rules`)."""
    content_hash: str
    source: str
    label: str
    options: tuple[str, ...] = ()  # the boxes and variants as `play` takes them (a failed game names them)
    name: str | None = None


@dataclass(frozen=True)
class Job:
    """What every task of one simulation shares."""
    rule_sets: tuple[RuleSource, ...]
    players: int
    bots: tuple[str, ...]        # by seat
    seed: int                    # game index i is played with seed + i
    fmt: str                     # parquet | jsonl


@dataclass(frozen=True)
class Task:
    """Game indexes [start, end) of every rule set."""
    start: int
    end: int


@dataclass(frozen=True)
class Done:
    """A task's records, encoded for the writer."""
    payload: bytes
    rows: int


class WorkerError(NidavellirError):
    """A worker could not load the rules it was sent."""


_loaded: dict[str, Rules] = {}
_job: Job | None = None


def rules_of_source(rs: RuleSource) -> Rules:
    """The rule set of a compiled source (run once per process)."""
    from nidavellir.rulesets import module_from_source, rules_of

    rules = _loaded.get(rs.content_hash)
    if rules is None:
        found = rules_of(module_from_source(rs.source, rs.content_hash), rs.content_hash)
        if found is None:
            raise WorkerError("the rules sent to this worker do not match their content hash "
                              "(another nidavellir version on this machine?)")
        rules = _loaded[rs.content_hash] = found
    return rules


def preload(rs: RuleSource, rules: Rules) -> None:
    """The rules of a source already loaded in this process (so that this process, and workers
    forked from it, need not run the source again)."""
    if rules.content_hash != rs.content_hash:
        raise WorkerError("a rule set does not match its source's content hash")
    _loaded.setdefault(rs.content_hash, rules)


def start(job: Job) -> None:
    """A pool process's initializer: keep the job, leave Ctrl-C to the command (it stops the pool)."""
    global _job
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _job = job


def run_pooled(task: Task) -> Done:
    assert _job is not None, "the worker was not started"
    return run(_job, task)


def run(job: Job, task: Task) -> Done:
    """Play the task's games, each rule set in turn, and encode their records."""
    records: list[dict[str, Any]] = []
    bots = [job.bots[k % len(job.bots)] for k in range(job.players)]
    for index, rs in enumerate(job.rule_sets):
        rules = rules_of_source(rs)
        for game_index in range(task.start, task.end):
            seed = job.seed + game_index
            try:
                records.append(play(rules, index, game_index, seed, bots, rs.label, rs.name))
            except NidavellirError as err:  # (a rules error in play: which game, and how to play it alone)
                raise game_failed(f"game {game_index} of rule set {index} (`{visible(rs.label)}`)", seed, bots,
                                  rs.options, err) from None
    return Done(encode(records, job.fmt), len(records))


def play(rules: Rules, set_index: int, game_index: int, seed: int, bots: list[str], label: str = "",
         name: str | None = None) -> dict[str, Any]:
    """One game by bots, to its record."""
    game = Game(rules, len(bots), seed, journal=RECORDED)  # (only what the record reads)
    seats = [make_bot(bot, bot_seed(seed, k)) for k, bot in enumerate(bots)]
    while game.pending is not None:
        game.answer(seats[game.pending.player].choose(observe(game)))
    return record_of(game, set_index, game_index, bots, label, name)
