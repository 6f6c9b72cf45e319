"""A game you drive from outside: read the pending decision, answer it, copy it, replay the log."""
from __future__ import annotations

import ast
import linecache
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from nidavellir.errors import NidavellirError
from nidavellir.errors import RulesRuntimeError as RulesRuntimeError  # (its public home was here)
from nidavellir.interface.decisions import Decision, Option, find_option, to_json
from nidavellir.interface.engine import Gen
from nidavellir.interface.rules import SOURCE_MARKER

from .decisions import GameOver, IllegalAnswer
from .engine import Engine
from .flow import Snapshot, play, resume_point
from .journal import Happening
from .rules import Rules
from .scoring import Scores
from .state import State


class LogEntry(TypedDict):
    """One answered decision, as the log keeps it (the answer in its JSON form)."""
    player: int
    kind: str
    answer: Any
    age: int
    turn: int


class Game:
    """One game: `pending` is the decision waiting for an answer (None once finished)."""

    def __init__(self, rules: Rules, players: int | Sequence[str], seed: int = 0,
                 journal: bool | Iterable[str | type[Happening]] = False):
        """`journal`: keep the journal of what happens (runtime/journal.py; `engine.journal`): True
        every record, or the records of the kinds given (classes or kind names, "took")."""
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        self.rules = rules
        self.seed = seed
        self.engine = Engine(rules, names, seed)
        if journal is True:
            self.engine.keep_journal()
        elif journal is not False:
            self.engine.keep_journal(journal)
        self._records: list[tuple[int, str, Option, int, int]] = []  # player, kind, answer, age, turn
        self._log: list[LogEntry] = []  # the records in JSON form, made as far as `log` was read
        self._checkpoint: tuple[Snapshot, int] | None = None  # a saved point and the answers given by then
        self.pending: Decision | None = None
        self._gen: Gen[None] = play(self.engine)
        self._advance(None, first=True)

    @property
    def log(self) -> list[LogEntry]:
        """Every answered decision in order, answers in their JSON form (a new list: yours to keep)."""
        for p, kind, answer, age, turn in self._records[len(self._log):]:
            self._log.append({"player": p, "kind": kind, "answer": to_json(answer), "age": age, "turn": turn})
        return list(self._log)

    @property
    def finished(self) -> bool:
        return self.pending is None

    @property
    def state(self) -> State:
        return self.engine.s

    def answer(self, value: Any) -> None:
        """Answer the pending decision with one of its options (or an option's JSON form).

        An answer that is not an option (compared strictly: `False` is not `0`, `2.0` is not `2`)
        raises IllegalAnswer and changes nothing: not the state, not the log."""
        d = self.pending
        if d is None:
            raise GameOver("the game is over: there is no decision to answer")
        index = find_option(d.options, value)
        if index is None:
            shown = ", ".join(d.label(i) for i in range(min(len(d.options), 12)))
            more = "" if len(d.options) <= 12 else f" … ({len(d.options)} options)"
            raise IllegalAnswer(f"{_shown(value)} is not a legal answer to {d.kind!r} for player "
                                f"{self.engine.names[d.player]}; options: {shown}{more}")
        option = d.options[index]
        s = self.engine.s
        self._records.append((d.player, d.kind, option, s.age, s.turn))
        self._advance(option)

    def _advance(self, value: Option | None, first: bool = False) -> None:
        try:
            self.pending = next(self._gen) if first else self._gen.send(value)
            saved = self.engine.saved
            if saved is not None and (self._checkpoint is None or self._checkpoint[0] is not saved):
                self._checkpoint = (saved, len(self._records))  # (no answer is given within one advance)
        except StopIteration:
            self.pending = None
        except (NidavellirError, KeyboardInterrupt):
            raise
        except Exception as exc:
            where = self._rules_location(exc)
            if where is None:
                raise
            raise RulesRuntimeError(f"{where}: error in compiled effect: {type(exc).__name__}: {exc}") from exc

    def _rules_location(self, exc: BaseException) -> str | None:
        """The rules location of the innermost frame of the rules module in the traceback: the
        nearest location marker (`'@ file:line:col'`) above the failing line."""
        module = self.rules.module
        if module is None:
            return None
        module_file = getattr(module, "__file__", None) or module.__name__
        tb = exc.__traceback__
        found = None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == module_file:
                found = marker_above(module_file, tb.tb_lineno) or found
            tb = tb.tb_next
        return found

    def scores(self) -> Scores:
        if self.engine.s.scores is None:
            raise GameOver("the game is not over yet")
        return self.engine.s.scores

    def copy(self, journal: bool = True) -> Game:
        """An independent game at the same decision: answering one does not change the other.

        At a decision the flow asks itself (a bid, a pick: most of them) the copy is the state's
        copy, resumed where the flow stands; at one an effect asks, it resumes from the state saved
        at the start of the current turn and replays the answers given since (the first such copy
        of a game replays it from its start and begins saving). A game that keeps a journal gives
        its copy a copy of it (`journal=False`: the copy keeps none)."""
        new = Game.__new__(Game)
        keep = self.engine.journal if journal else None
        kinds = self.engine.keeps
        at = resume_point(self.engine)
        if at is not None and self.pending is not None:
            new.start_from(None, 0, self)
            new.engine.restore(self.engine.s)
            new._records, new._checkpoint = list(self._records), self._checkpoint
            if new._checkpoint is not None:
                new.engine.saved = new._checkpoint[0]
            _keep_like(new.engine, keep, kinds)
            new.begin(play(new.engine, at))
            assert new.pending == self.pending, "a copy resumed at another decision"
            replay: list[tuple[int, str, Option, int, int]] = []
        elif self._checkpoint is None:
            new.start_from(None, 0, self)
            _keep_like(new.engine, keep, kinds)  # (kept while replaying: the same causes)
            new.begin(play(new.engine))
            replay = self._records
        else:
            saved, answers = self._checkpoint
            new.start_from(saved, answers, self)
            _keep_like(new.engine, keep, kinds)
            new.begin(play(new.engine, saved.point))
            replay = self._records[answers:]
        for record in replay:
            new._records.append(record)
            new._advance(record[2])
        if keep is not None:
            new.engine.keep_journal(kinds, list(keep))
        if self._checkpoint is None and new._checkpoint is not None:  # from now on this game saves its turns' starts too
            self._checkpoint, self.engine.saving = new._checkpoint, True
        return new

    def checkpoint(self) -> tuple[Snapshot, int]:
        """The state saved at the start of the current turn (or age end) and the number of answers
        given by then (saving begins on the first call)."""
        if self._checkpoint is None:
            self._replayed()
        assert self._checkpoint is not None
        return self._checkpoint

    def _replayed(self) -> Game:
        """A copy replayed from the start of the game, which begins saving (in both games)."""
        new = Game.__new__(Game)
        new.start_from(None, 0, self)
        new.engine.journal = None
        new.begin(play(new.engine))
        for record in self._records:
            new._records.append(record)
            new._advance(record[2])
        self._checkpoint, self.engine.saving = new._checkpoint, True
        return new

    def records(self) -> list[tuple[int, str, Option, int, int]]:
        """Every answer given: (player, kind, answer, age, turn), in order (a new list)."""
        return list(self._records)

    def start_from(self, saved: Snapshot | None, answers: int, source: Game) -> None:
        """(For copies and sampled worlds.) A new engine for `source`'s rules and seed, restored from
        `saved` (the answers given by then taken from `source`), or at the start of the game."""
        self.rules, self.seed = source.rules, source.seed
        self.engine = Engine(source.rules, source.engine.names, source.seed)
        self.engine.saving = True
        self._records, self._log, self._checkpoint = [], [], None
        self.pending = None
        if saved is not None:
            saved.restore(self.engine)
            self.engine.saved = saved
            self._records, self._checkpoint = source._records[:answers], (saved, answers)

    def checkpoint_here(self, saved: Snapshot, answers: int) -> None:
        """(For sampled worlds.) Copies of this game resume from `saved`, taken after `answers` answers."""
        self.engine.saved = saved
        self._checkpoint = (saved, answers)

    def forget_turns(self) -> None:
        """Keep no state at turns' starts from now on (a world played out and dropped: nothing
        copies it at an effect's decision); a later `copy` or `checkpoint` replays from the start."""
        self.engine.saving, self.engine.saved, self._checkpoint = False, None, None

    def begin(self, flow: Gen[None]) -> None:
        """(For copies and sampled worlds.) Run `flow` up to its first decision."""
        self._gen = flow
        self._advance(None, first=True)


def _keep_like(engine: Engine, keep: list[Happening] | None, kinds: frozenset[type[Happening]]) -> None:
    """A copy's engine keeps a journal of the same kinds as its game's (none: none)."""
    if keep is None:
        engine.journal = None
    else:
        engine.keep_journal(kinds)


def marker_above(filename: str, lineno: int) -> str | None:
    """The location a generated module's marker gives for line `lineno` (the nearest marker at
    or above it, within the same function)."""
    for n in range(lineno, 0, -1):
        text = linecache.getline(filename, n).strip()
        if text[:1] in ("'", '"') and text[1:1 + len(SOURCE_MARKER)] == SOURCE_MARKER:
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                return None
            return str(value)[len(SOURCE_MARKER):].split("\n", 1)[0]
        if text.startswith("def "):
            return None
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
