"""A game you drive from outside: read the pending decision, answer it, replay the log."""
from __future__ import annotations

from typing import Any

from .decisions import Decision, GameOver, IllegalAnswer
from .engine import Engine
from .flow import play
from .rules import Rules


class RulesRuntimeError(RuntimeError):
    """A compiled handler failed; the message names the rules file and line of the effect."""


class Game:
    """One game: `pending` is the decision waiting for an answer (None once finished)."""

    def __init__(self, rules: Rules, players: int | list[str], seed: int = 0):
        names = players if isinstance(players, list) else [f"P{i + 1}" for i in range(players)]
        self.rules = rules
        self.engine = Engine(rules, list(names), seed)
        self.log: list[dict] = []
        self._gen = play(self.engine)
        self.pending: Decision | None = None
        self._advance(None, first=True)

    @property
    def finished(self) -> bool:
        return self.pending is None

    @property
    def state(self):
        return self.engine.s

    def answer(self, value: Any) -> None:
        """Answer the pending decision; an illegal answer raises IllegalAnswer and changes nothing."""
        d = self.pending
        if d is None:
            raise GameOver("the game is over: there is no decision to answer")
        value = _normalise(value)
        if value not in d.options:
            shown = ", ".join(d.label(i) for i in range(min(len(d.options), 12)))
            more = "" if len(d.options) <= 12 else f" … ({len(d.options)} options)"
            raise IllegalAnswer(f"{value!r} is not a legal answer to {d.kind!r} for player "
                                f"{self.engine.s.players[d.player].name}; options: {shown}{more}")
        self.log.append({"player": d.player, "kind": d.kind, "answer": value})
        self._advance(value)

    def _advance(self, value: Any, first: bool = False) -> None:
        try:
            self.pending = next(self._gen) if first else self._gen.send(value)
        except StopIteration:
            self.pending = None
        except (IllegalAnswer, GameOver):
            raise
        except Exception as exc:
            where = self._rules_location(exc)
            if where is None:
                raise
            raise RulesRuntimeError(f"{where}: error in compiled effect: {type(exc).__name__}: {exc}") from exc

    def _rules_location(self, exc: BaseException) -> str | None:
        module_file = getattr(self.rules.module, "__file__", None) or self.rules.module.__name__
        tb = exc.__traceback__
        found = None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == module_file:
                found = self.rules.source_map.get(tb.tb_lineno, found)
            tb = tb.tb_next
        return found

    def scores(self) -> dict:
        if self.engine.scores is None:
            raise GameOver("the game is not over yet")
        return self.engine.scores


def _normalise(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_normalise(v) for v in value]
    return value
