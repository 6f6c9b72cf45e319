"""What the commands make of the options several of them share: the boxes a command plays, the
`--out` folder it writes, whether its stderr is coloured. Used by nidavellir/commands.py and
nidavellir/sim/command.py alike, so that neither imports the other's module."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from nidavellir.compiler.diagnostics import colour_wanted, paint
from nidavellir.errors import CommandError

if TYPE_CHECKING:
    from nidavellir.compiler.sources import Spec


def boxes_of(args: argparse.Namespace, variants: list[str], both: bool = False) -> tuple[str, ...]:
    """The expansions a command plays: --expansions as given (a rule set lacking a box a variant
    requires then does not compile: compiler/requires.py), or with none given, those the variants
    require, said in one note on stderr. `both`: the variants of two rule sets that are compared."""
    from nidavellir.compiler.sources import variant_specs

    return required_boxes(args.expansions, variant_specs(variants), stderr_colour(args), both)


def required_boxes(given: Sequence[str] | None, specs: Sequence[Spec], colour: bool, both: bool = False) -> tuple[str, ...]:
    """The boxes to put under the layers `specs`: those `given`, else (None) those they require,
    said in one note on stderr (compiler/requires.py `choose`)."""
    from nidavellir.compiler.requires import choose

    boxes, note = choose(given, specs, both)
    if note is not None:
        print(paint(note) if colour else note, file=sys.stderr)
    return boxes


def stderr_colour(args: argparse.Namespace) -> bool:
    """Whether the diagnostics this command writes to stderr are coloured (`--color`, NO_COLOR, a terminal)."""
    return colour_wanted(sys.stderr, getattr(args, "color", "auto"))


def output_folder(path: str) -> Path:
    """An `--out` folder (docs, simulate): refused, as every command refuses a path, before anything
    is written."""
    from nidavellir.compiler.paths import output_problem

    found = output_problem(path, "folder")
    if found is not None:
        raise CommandError(f"cannot write {found}")
    return Path(path)
