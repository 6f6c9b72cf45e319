"""Compile rule sets from their layers. (Writing generated/, which also needs the docs back end,
is nidavellir/build_all.py: the compiler never imports compiler/docs.)"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .diagnostics import Diagnostics, RulesError, in_file_order
from .sources import (
    DEFAULT_SETS, EXPANSIONS, Spec, generated_dir, layer_specs, rules_dir, source_hash, validate_expansions,
)

if TYPE_CHECKING:
    from .compile import Compiled


def compile_specs(specs: list[Spec]) -> Compiled:
    """Load, merge, check and compile the layers; RulesError lists every problem, in file order."""
    from .compile import compile_layers, load_layers
    from .requires import unmet

    diags = Diagnostics()
    layers = load_layers(specs, diags)
    if diags and (len(layers) < len(specs) or not all(layer.complete for layer in layers)):
        diags.raise_if_any()  # a file is missing: checking the rest would only add noise
    missing = unmet(layers)
    if missing:  # a box a layer needs is not loaded: its cards' errors would only follow from that
        diags.extend(missing)
        raise RulesError(in_file_order(diags.items, [f.path for layer in layers for f in layer.files]))
    try:
        compiled = compile_layers(layers, diags, source_hash(specs))
    except RulesError as err:
        raise RulesError(in_file_order(err.diagnostics, [f.path for layer in layers for f in layer.files])) from None
    return compiled


__all__ = ["DEFAULT_SETS", "EXPANSIONS", "RulesError", "compile_specs", "generated_dir", "layer_specs", "rules_dir",
           "validate_expansions"]
