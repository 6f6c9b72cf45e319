"""A progress line for long runs on a terminal: `340/2000 games · 412 games/s · 4 s left`.

Hand-written rather than tqdm: one line redrawn in place with a carriage return (padded with
spaces, so no terminal escape is needed) is all a run of games needs, and it keeps `play` free of
another dependency and its import time. The command decides whether to show it (`is_terminal`);
this module only draws. As a context manager a Progress closes its line when the work ends and
clears it when the work is interrupted; a `Stage` is one whose total is known once the work starts.
While the work runs, a rate (and the time left, which follows from it) is shown only once it has
been measured over `RATE_AFTER` seconds of the work: a rate over a near-zero interval says nothing.
The final line gives the rate over the whole work, timed from its start.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

RATE_AFTER = 1.0  # seconds of work before a rate is shown


def is_terminal(stream: TextIO) -> bool:
    """Whether a stream is a terminal (False for anything that cannot say)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def duration(seconds: float) -> str:
    """`0.4 s`, `7 s`, `3 min 05 s`, `2 h 04 min`."""
    if seconds < 9.95:
        return f"{max(0.0, seconds):.1f} s"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """Games done of a total, their rate and the time left, on one line of `stream`, redrawn at
    most every `every` seconds; `clear()` before writing other text to the same terminal,
    `close()` at the end leaves the final count on its own line."""

    def __init__(self, total: int, stream: TextIO, every: float = 0.1,
                 clock: Callable[[], float] = time.monotonic, prefix: str = "", scope: str = "",
                 already: int = 0):
        """`prefix` names the work when it is not playing (`reading the records: 120/2000 games …`);
        `scope` says what the total counts (`(both rule sets)`); `already` games were done before
        this work started (a continued simulation): they count towards the total, not the rate."""
        self.total, self.stream, self.every, self.clock, self.prefix = total, stream, every, clock, prefix
        self.scope, self.already = scope, already
        self.start = clock()
        self.drawn_at: float | None = None   # when the line was last drawn (None: not on screen)
        self.width = 0                      # the length of the line on screen
        self.done = already
        self.closed = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:  # interrupted: leave the terminal's line clean
            self.clear()

    def update(self, done: int) -> None:
        self.done = done
        now = self.clock()
        if self.drawn_at is None or now - self.drawn_at >= self.every:
            self._draw(self.line(now), now)

    def line(self, now: float) -> str:
        """`340/2000 games · 412 games/s · 4 s left` (the rate and time left once measured)."""
        text = self._count()
        rate = self.rate(now)
        if rate:
            text += f" · {rate:,.0f} games/s · {duration((self.total - self.done) / rate)} left"
        return text

    def rate(self, now: float) -> float | None:
        """Games per second of this work, or None before `RATE_AFTER` seconds of it or any game."""
        elapsed = now - self.start
        played = self.done - self.already
        if elapsed < RATE_AFTER or played <= 0:
            return None
        return played / elapsed

    def final(self, now: float) -> str:
        """`2000/2000 games · 412 games/s · 4.9 s in all`: the rate over the whole work, however short."""
        elapsed, played = now - self.start, self.done - self.already
        shown = f" · {played / elapsed:,.0f} games/s" if elapsed > 0 and played > 0 else ""
        return f"{self._count()}{shown} · {duration(now - self.start)} in all"

    def _count(self) -> str:
        return f"{self.prefix}{self.done}/{self.total} games" + (f" {self.scope}" if self.scope else "")

    def clear(self) -> None:
        if self.drawn_at is not None:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.drawn_at, self.width = None, 0

    def close(self) -> None:
        """The final count, rate and time, and a line break (once)."""
        if self.closed:
            return
        self.closed = True
        now = self.clock()
        self._draw(self.final(now), now)
        self.stream.write("\n")
        self.stream.flush()
        self.drawn_at, self.width = None, 0

    def _draw(self, text: str, now: float) -> None:
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.drawn_at, self.width = now, len(text)


class Stage:
    """The progress line of work whose total is known once it starts (a simulation's games, its
    records read back): drawn from the first `update(done, total)`, which the work makes when it
    starts (`done` then counts what was done before it: no part of the rate), closed when `done`
    reaches the total (then `after`, if given, is written on its own line), cleared by `stop()` if
    the work ended first. Not `shown`, it draws nothing."""

    def __init__(self, stream: TextIO, shown: bool, prefix: str = "", after: str | None = None,
                 scope: str = "", clock: Callable[[], float] = time.monotonic):
        self.stream, self.shown, self.prefix, self.after = stream, shown, prefix, after
        self.scope, self.clock = scope, clock
        self.bar: Progress | None = None
        self.finished = False

    def update(self, done: int, total: int) -> None:
        if not self.shown or self.finished:
            return
        if self.bar is None:
            self.bar = Progress(total, self.stream, clock=self.clock, prefix=self.prefix,
                                scope=self.scope, already=done)
        self.bar.total = total
        self.bar.update(done)
        if done >= total:
            self.bar.close()
            self.bar, self.finished = None, True
            if self.after:
                print(self.after, file=self.stream, flush=True)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.clear()
            self.bar = None
