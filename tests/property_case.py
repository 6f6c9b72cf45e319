"""One generated example of the property tests (tests/test_structure_property.py,
tests/test_effects_property.py): a variant layer, the boxes it is played on, and the games."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml


@dataclass
class Case:
    """One generated example: the variant, the boxes it is played on, and the games."""
    combos: list[tuple[str, ...]]
    layer: dict[str, Any]
    games: list[tuple[int, int]]  # (players, seed)
    text: str = field(init=False)

    def __post_init__(self) -> None:  # (block style: a shrunk layer reads line by line)
        self.text = yaml.safe_dump(self.layer, sort_keys=False, default_flow_style=False, width=400,
                                   allow_unicode=True)

    def __repr__(self) -> str:  # what a shrunk failure shows
        return f"Case(combos={self.combos}, games={self.games}, layer=\n{self.text})"
