"""Find the shipped layers, compile rule sets (cached by content hash) and keep generated/ fresh."""
from __future__ import annotations

import importlib
import linecache
import os
import sys
import types
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from nidavellir.runtime.rules import Rules

from .diagnostics import Diagnostics, Location, RulesError, in_file_order
from .sources import Spec, source_hash

if TYPE_CHECKING:
    from .compile import Compiled

EXPANSIONS = ("thingvellir", "idavoll")
# Rule sets committed under generated/: module name -> expansions.
DEFAULT_SETS: dict[str, tuple[str, ...]] = {"rules_base": ()}

_memory: dict[str, Rules] = {}


def rules_dir() -> Path:
    return Path(str(resources.files("nidavellir.rules")))


def generated_dir() -> Path:
    return Path(str(resources.files("nidavellir.generated")))


def layer_specs(expansions: tuple[str, ...] = (), variants: tuple[str, ...] = ()) -> list[Spec]:
    root = rules_dir()
    specs: list[Spec] = [(root / "base", "rules/base", False)]
    for name in EXPANSIONS:
        if name in expansions:
            specs.append((root / name, f"rules/{name}", False))
    for v in variants:
        specs.append((Path(v), v, True))
    return specs


def validate_expansions(expansions: tuple[str, ...]) -> None:
    for name in expansions:
        if name not in EXPANSIONS:
            raise RulesError([_diag(f"unknown expansion `{name}` (choose from: {', '.join(EXPANSIONS)})")])
        if not (rules_dir() / name).is_dir():
            raise RulesError([_diag(f"the expansion `{name}` is not written yet: no rules/{name}/ folder")])


def _diag(message: str):
    d = Diagnostics()
    d.error(None, message)
    return d.items[0]


def compile_specs(specs: list[Spec]) -> "Compiled":
    from .compile import compile_layers, load_layers

    diags = Diagnostics()
    layers = load_layers(specs, diags)
    if diags and (len(layers) < len(specs) or not all(layer.complete for layer in layers)):
        diags.raise_if_any()  # a file is missing: checking the rest would only add noise
    try:
        compiled = compile_layers(layers, diags, source_hash(specs))
    except RulesError as err:
        raise RulesError(in_file_order(err.diagnostics, [f.path for layer in layers for f in layer.files])) from None
    return compiled


def module_from_source(source: str, chash: str) -> types.ModuleType:
    filename = f"<nidavellir-rules-{chash[:16]}>"
    module = types.ModuleType(f"nidavellir_rules_{chash[:16]}")
    module.__file__ = filename
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), module.__dict__)
    return module


def cache_dir() -> Path:
    base = os.environ.get("NIDAVELLIR_CACHE") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nidavellir"


def load_rules(expansions: tuple[str, ...] = (), variants: tuple[str, ...] = ()) -> Rules:
    """The rule set for these layers: the committed module if fresh, else compiled (and cached)."""
    validate_expansions(expansions)
    specs = layer_specs(tuple(expansions), tuple(variants))
    chash = source_hash(specs)
    if chash is not None and chash in _memory:
        return _memory[chash]
    rules = _committed(expansions, variants, chash) or _cached(chash)
    if rules is None:
        compiled = compile_specs(specs)
        chash = compiled.content_hash
        _store(chash, compiled.source)
        rules = Rules(module_from_source(compiled.source, chash))
    if chash is not None:
        _memory[chash] = rules
    return rules


def _committed(expansions, variants, chash) -> Rules | None:
    if variants:
        return None
    for name, exp in DEFAULT_SETS.items():
        if set(exp) == set(expansions):
            try:
                module = importlib.import_module(f"nidavellir.generated.{name}")
            except ImportError:
                return None
            if module.CONTENT_HASH == chash:
                return Rules(module)
            print(f"note: generated/{name}.py is stale; compiling the rules in memory "
                  "(run `nidavellir build` to refresh it)", file=sys.stderr)
    return None


def _cached(chash: str | None) -> Rules | None:
    if chash is None:
        return None
    path = cache_dir() / f"{chash}.py"
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return None
    return Rules(module_from_source(source, chash))


def _store(chash: str, source: str) -> None:
    try:
        d = cache_dir()
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f"{chash}.tmp{os.getpid()}"
        tmp.write_text(source, encoding="utf-8")
        tmp.replace(d / f"{chash}.py")
    except OSError:
        pass  # a cache that cannot be written only costs time


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


__all__ = ["load_rules", "build", "compile_specs", "layer_specs", "RulesError", "Location"]
