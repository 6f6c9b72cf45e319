"""One generated example of the property tests (tests/test_structure_property.py,
tests/test_effects_property.py): a variant layer, the boxes it is played on, and the games."""
from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import note

from nidavellir.compiler.build import compile_specs
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.diagnostics import RulesError
from nidavellir.compiler.sources import layer_specs


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


def rule_sets(case: Case, stats: Counter[str],
              refused: Callable[[RulesError, Path], None]) -> Iterator[tuple[tuple[str, ...], Compiled, Path]]:
    """The case's variant written to a file and compiled on each of its box combinations: each rule
    set `check` accepts (its boxes, the compiled rules, the variant's path); a refusal goes to
    `refused` (which checks how it is reported). Counts layers, rule sets, accepted and refused."""
    note(case.text)
    stats["layers"] += 1
    with tempfile.TemporaryDirectory() as tmp:
        variant = Path(tmp) / "generated.yaml"
        variant.write_text(case.text, encoding="utf-8")
        for combo in case.combos:
            stats["rule sets"] += 1
            try:
                compiled = compile_specs(layer_specs(combo, (str(variant),)))
            except RulesError as err:
                stats["refused"] += 1
                refused(err, variant)
                continue
            stats["accepted"] += 1
            yield combo, compiled, variant
