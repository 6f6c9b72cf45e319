"""Decisions as data: who decides, what kind, every legal option."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class IllegalAnswer(ValueError):
    """An answer that is not one of the pending decision's options; nothing changed."""


class GameOver(RuntimeError):
    """The game has ended: there is no pending decision."""


@dataclass(slots=True)
class Decision:
    player: int
    kind: str            # bid, pick, hero, coin, column, card, place-bid, trade-coin
    options: list[Any]   # JSON values; an answer must be one of them
    prompt: str
    labels: list[str] | None = field(default=None)

    def to_json(self) -> dict:
        return {"player": self.player, "kind": self.kind, "options": self.options, "prompt": self.prompt}

    def label(self, i: int) -> str:
        if self.labels is not None:
            return self.labels[i]
        return _plain(self.options[i])


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return " / ".join(_plain(v) for v in value)
    return str(value)
