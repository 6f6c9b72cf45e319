"""Loading a rule set for play: the committed module under generated/ when it is fresh, else the
on-disk cache, else compiled in memory (and cached by content hash).

A cached module is used only if it is the one its key names (its CONTENT_HASH and rule set say
so); a corrupt, empty, truncated or foreign file is ignored, recompiled and overwritten.
"""
from __future__ import annotations

import importlib
import linecache
import os
import sys
import types
from pathlib import Path

from nidavellir.compiler.sources import DEFAULT_SETS, layer_specs, source_hash, validate_expansions
from nidavellir.interface.rules import RuleSet
from nidavellir.runtime.rules import Rules

_memory: dict[str, Rules] = {}


def cache_dir() -> Path:
    base = os.environ.get("NIDAVELLIR_CACHE") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nidavellir"


def module_from_source(source: str, chash: str) -> types.ModuleType:
    """Run a compiled module's source as a module (its lines kept for tracebacks)."""
    filename = f"<nidavellir-rules-{chash[:16]}>"
    module = types.ModuleType(f"nidavellir_rules_{chash[:16]}")
    module.__file__ = filename
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), module.__dict__)  # noqa: S102 - our compiler's output
    return module


def rules_of(module: types.ModuleType, chash: str | None = None) -> Rules | None:
    """The rule set a module holds, if it is a compiled rule set (of hash `chash`, when given)."""
    ruleset = getattr(module, "RULES", None)
    if not isinstance(ruleset, RuleSet) or getattr(module, "CONTENT_HASH", None) != ruleset.content_hash:
        return None
    if chash is not None and ruleset.content_hash != chash:
        return None
    return Rules(ruleset, module)


def load_rules(expansions: tuple[str, ...] = (), variants: tuple[str, ...] = ()) -> Rules:
    """The rule set of the base game with these expansions and variants (in order)."""
    from nidavellir.compiler.build import compile_specs

    expansions, variants = tuple(expansions), tuple(variants)
    validate_expansions(expansions)
    specs = layer_specs(expansions, variants)
    chash = source_hash(specs)
    if chash is not None and chash in _memory:
        return _memory[chash]
    rules = _committed(expansions, variants, chash) or _cached(chash)
    if rules is None:
        from nidavellir.compiler.docs import described

        compiled = described(compile_specs(specs))  # (the cards' texts for the seats, as generated/ has them)
        chash = compiled.content_hash
        _store(chash, compiled.source)
        rules = rules_of(module_from_source(compiled.source, chash), chash)
        assert rules is not None, "the compiler's output holds no rule set"
    if chash is not None:
        _memory[chash] = rules
    return rules


def _committed(expansions: tuple[str, ...], variants: tuple[str, ...], chash: str | None) -> Rules | None:
    if variants or chash is None:
        return None
    for name, exp in DEFAULT_SETS.items():
        if set(exp) == set(expansions):
            try:
                module = importlib.import_module(f"nidavellir.generated.{name}")
            except (Exception, SystemExit):  # a broken committed module: compile instead
                return None
            rules = rules_of(module, chash)
            if rules is None:
                print(f"note: generated/{name}.py is stale; compiling the rules in memory "
                      "(run `nidavellir build` to refresh it)", file=sys.stderr)
            return rules
    return None


def _cached(chash: str | None) -> Rules | None:
    if chash is None:
        return None
    path = cache_dir() / f"{chash}.py"
    try:
        source = path.read_text(encoding="utf-8")
        return rules_of(module_from_source(source, chash), chash)
    except (Exception, SystemExit):  # unreadable, corrupt, truncated or foreign: compile it anew
        return None


def _store(chash: str, source: str) -> None:
    try:
        d = cache_dir()
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f"{chash}.tmp{os.getpid()}"
        tmp.write_text(source, encoding="utf-8")
        tmp.replace(d / f"{chash}.py")
    except OSError:
        pass  # a cache that cannot be written only costs time


__all__ = ["load_rules", "cache_dir", "module_from_source", "rules_of"]
