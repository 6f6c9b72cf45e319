"""How many worker processes a simulation runs: what was asked, within the cores actually free.

A pool of processes on a core another program keeps busy plays no faster, and its processes then
share the cores with the command's own (which writes the records): on a loaded machine `--jobs 2`
was measured slower than `--jobs 1`. So the workers are the cores asked (`--jobs J`, default every
core this process may run on) but at most the free ones, and a run of few games plays in this
process, where a pool's start costs more than it saves. `NIDAVELLIR_JOBS_EXACT=1` runs exactly
the processes asked (tests and benchmarks).

`choose` is the decision, on numbers; `busy_cores` measures (Linux: /proc/stat, sampled briefly:
it shows a core that a program starts to burn within the sample, where `os.getloadavg` lags a
minute behind and counts tasks waiting, not cores: on a 2-core machine with one core already busy,
a burner took /proc/stat from 1.0 to 2.0 busy cores within 1 s and back 2 s after it stopped, while
the 1-minute load average stayed near 2.5 throughout).
"""
from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

from nidavellir.errors import count_of

EXACT_VARIABLE = "NIDAVELLIR_JOBS_EXACT"
POOL_GAMES = 40       # fewer games (of all rule sets) play in this process: a pool's start costs more
BUSY_SHARE = 0.5      # a core busy more than half of the time is not free
SAMPLE_SECONDS = 0.25


def choose(asked: int | None, cores: int, busy: float, games: int, exact: bool = False) -> tuple[int, str | None]:
    """The workers for `games` games (of all rule sets) when `asked` (None: every core) were asked on
    `cores` cores of which `busy` are kept busy by other programs; with the reason, in one line,
    when they are not what was asked (None: they are). `exact`: the number asked, whatever else."""
    want = asked or cores
    if exact:
        return want, None
    free = max(1, cores - int(busy + (1 - BUSY_SHARE)))   # (busy rounded: more than half a core counts)
    if games < POOL_GAMES:
        workers = 1
        why = f"{count_of(games, 'game')} play faster in this process than a pool starts"
    elif want > free:
        workers = free
        taken = cores - free
        why = (f"{taken} of {count_of(cores, 'core')} {'is' if taken == 1 else 'are'} busy" if taken
               else f"{count_of(cores, 'core')} to run on")
    else:
        workers = want
        why = ""
    workers = max(1, min(workers, want, max(games, 1)))
    if asked is None or workers == asked:
        return workers, None
    return workers, (f"--jobs {asked}: {count_of(workers, 'worker')}, {why} ({EXACT_VARIABLE}=1 runs "
                     f"{asked})")


def workers_for(asked: int | None, games: int) -> tuple[int, str | None]:
    """`choose` on this machine: its cores, and their use measured if it could matter."""
    cpus = available_cpus()
    exact = exact_asked()
    busy = busy_cores(cpus) if worth_measuring(asked, len(cpus), games, exact) else 0.0
    return choose(asked, len(cpus), busy, games, exact)


def worth_measuring(asked: int | None, cores: int, games: int, exact: bool = False) -> bool:
    """Whether the busy cores could change the choice (measuring them takes SAMPLE_SECONDS)."""
    return not exact and games >= POOL_GAMES and (asked or cores) > 1


def exact_asked(environ: dict[str, str] | None = None) -> bool:
    """Whether NIDAVELLIR_JOBS_EXACT asks for exactly the processes asked (1, yes, true)."""
    value = (os.environ if environ is None else environ).get(EXACT_VARIABLE, "")
    return value.strip().lower() in ("1", "yes", "true")


# -- measuring ---------------------------------------------------------------------------------

def cpu_times(text: str, cpus: Iterable[int] | None = None) -> tuple[int, int]:
    """(busy, total) jiffies of /proc/stat's text, summed over `cpus` (None: every cpu line).
    Idle is `idle` + `iowait`; `guest` time is already in `user`, so it is not added again."""
    wanted = None if cpus is None else {f"cpu{c}" for c in cpus}
    busy = total = 0
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if not name.startswith("cpu") or name == "cpu" or (wanted is not None and name not in wanted):
            continue
        fields = [int(x) for x in rest.split()[:8]]  # user nice system idle iowait irq softirq steal
        idle = sum(fields[3:5])
        total += sum(fields)
        busy += sum(fields) - idle
    return busy, total


def busy_between(before: tuple[int, int], after: tuple[int, int], cores: int) -> float:
    """The cores busy between two samples of `cpu_times` (0 when nothing was counted)."""
    busy, total = after[0] - before[0], after[1] - before[1]
    return cores * busy / total if total > 0 else 0.0


def busy_cores(cpus: Iterable[int], seconds: float = SAMPLE_SECONDS, stat: Path = Path("/proc/stat")) -> float:
    """The cores among `cpus` that other programs keep busy, sampled over `seconds` while this
    process sleeps (0.0 where /proc/stat cannot be read: the choice is then the cores asked)."""
    chosen = sorted(cpus)
    try:
        before = cpu_times(stat.read_text(), chosen)
        time.sleep(seconds)
        after = cpu_times(stat.read_text(), chosen)
    except (OSError, ValueError):
        return 0.0
    return busy_between(before, after, len(chosen))


def available_cpus() -> list[int]:
    """The cpus this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))
