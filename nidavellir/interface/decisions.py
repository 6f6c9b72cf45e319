"""Decisions as data: who decides, what kind, every legal option as a typed, immutable value.

An option is one of:

- `str`: a class or column id, a card id (a hero), ...
- `int`: a coin value (placing a bid from hand)
- `bool`: yes or no (use a power)
- `tuple[int, ...]`: a bid, the coin value put on each tavern in order
- `CoinChoice`: a coin of the player's, by value and where it lies
- `CardChoice`: a card, by id and where it lies

Each has a JSON form (`to_json`) for logs and other programs; `from_json` finds the option a JSON
value names, strictly (`false` is not `0`, `2.0` is not `2`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from .quick import quick_init


@dataclass(frozen=True, slots=True)
class CoinChoice:
    """A coin of the deciding player: its value, and where it is (a tavern id, `hand` or `pouch`)."""
    value: int
    at: str

    def to_json(self) -> dict[str, Any]:
        return {"coin": self.value, "at": self.at}

    def __str__(self) -> str:
        return f"coin {self.value} ({self.at})"


@dataclass(frozen=True, slots=True)
class CardChoice:
    """A card, by id, and where it is: a tavern id, an army column, or a zone (`heroes`, `discard`,
    `camp`, `draw`)."""
    card: str
    at: str

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "at": self.at}

    def __str__(self) -> str:
        return f"{self.card} ({self.at})"


Option = Union[str, int, bool, tuple[int, ...], CoinChoice, CardChoice]


def to_json(option: Option) -> Any:
    """The JSON form of an option."""
    if isinstance(option, (CoinChoice, CardChoice)):
        return option.to_json()
    if isinstance(option, tuple):
        return list(option)
    return option


def same_json(a: Any, b: Any) -> bool:
    """Equal JSON values of equal types: `False` is not `0`, `2.0` is not `2`, a list is a list."""
    if type(a) is not type(b):
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return bool(a == b)


def find_option(options: tuple[Option, ...], answer: Any) -> int | None:
    """The index of the option `answer` names (the option itself or its JSON form), else None."""
    for i, option in enumerate(options):
        if option is answer:
            return i
    for i, option in enumerate(options):
        if type(answer) is type(option) and answer == option:
            return i
    for i, option in enumerate(options):
        if same_json(to_json(option), answer):
            return i
    return None


@dataclass(frozen=True)  # (its `__init__`: quick_init, below the class)
class Decision:
    """A question to one player; `options` lists every legal answer."""
    player: int
    kind: str                   # bid, pick, hero, coin, column, card, class, use, place-bid, trade-coin
    options: tuple[Option, ...]
    prompt: str
    labels: tuple[str, ...] | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "options": [to_json(o) for o in self.options],
                "prompt": self.prompt}

    def label(self, i: int) -> str:
        if self.labels is not None:
            return self.labels[i]
        return plain(self.options[i])


quick_init(Decision)  # (one a decision)


def plain(option: Option) -> str:
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, tuple):
        return " / ".join(str(v) for v in option)
    return str(option)
