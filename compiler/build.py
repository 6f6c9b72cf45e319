"""Compile rule sets from their layers, and keep generated/ fresh (the committed modules and the
base game's references)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .diagnostics import Diagnostics, RulesError, in_file_order
from .sources import (
    DEFAULT_SETS, EXPANSIONS, Spec, generated_dir, layer_specs, rules_dir, source_hash, validate_expansions,
)

if TYPE_CHECKING:
    from .compile import Compiled


def compile_specs(specs: list[Spec]) -> "Compiled":
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


def build(check: bool = False) -> list[str]:
    """Regenerate generated/: the compiled rule sets and the base game's references
    (or with check, list the stale files without writing)."""
    from .docs import default_docs

    stale = []
    out = generated_dir()
    for name, expansions in DEFAULT_SETS.items():
        compiled = compile_specs(layer_specs(expansions))
        files = {f"{name}.py": compiled.source}
        if not expansions:
            files.update(default_docs(compiled))
        for rel, text in files.items():
            path = out / rel
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                stale.append(f"generated/{rel}")
                if not check:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_text(text, encoding="utf-8")
    return stale


__all__ = ["build", "compile_specs", "layer_specs", "rules_dir", "generated_dir", "validate_expansions",
           "EXPANSIONS", "DEFAULT_SETS", "RulesError"]
