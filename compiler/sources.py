"""What a compiled rule set depends on: the compiler's code, the grammar and the rules files.

Kept free of heavy imports so that finding a fresh compiled module costs almost nothing.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

COMPILER_VERSION = "3"

Spec = tuple[Path, str, bool]  # path, display name, is a variant


@lru_cache(maxsize=1)
def compiler_digest() -> bytes:
    """The compiler's own code and the interface it compiles against (not the docs back end, which
    does not change what compiles): a change to either invalidates every compiled rule set."""
    h = hashlib.sha256(f"nidavellir-compiler {COMPILER_VERSION}\n".encode())
    interface = Path(str(resources.files("nidavellir.interface")))
    for folder in (Path(__file__).parent, interface):
        for f in sorted(folder.glob("*.py")):
            h.update(f"{folder.name}/{f.name}".encode() + b"\0" + f.read_bytes())
    h.update(grammar_text().encode())
    return h.digest()


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return (resources.files("nidavellir.grammar") / "effects.lark").read_text(encoding="utf-8")


def source_hash(specs: list[Spec]) -> str | None:
    """Hash of the compiler, grammar and every source file's bytes; None if a file is unreadable.
    (A name that is not UTF-8 hashes as its bytes; compiling refuses it.)"""
    h = hashlib.sha256(compiler_digest())
    try:
        for path, shown, is_variant in specs:
            files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
            h.update(f"\0layer {shown} {is_variant}\0".encode("utf-8", "surrogateescape"))
            for f in files:
                if not f.is_file():  # missing, or a pipe that reading would wait on
                    return None
                h.update(f"\0{f.name}\0".encode("utf-8", "surrogateescape") + f.read_bytes())
    except OSError:  # (a name too long, a folder given as a file, ...): compiling reports it
        return None
    return h.hexdigest()


# -- the shipped layers ---------------------------------------------------------------------------

EXPANSIONS = ("thingvellir", "idavoll")


def rules_dir() -> Path:
    return Path(str(resources.files("nidavellir.rules")))


def written_expansions() -> tuple[str, ...]:
    """The boxes whose rules are written (a folder under rules/), in their fixed order."""
    return tuple(name for name in EXPANSIONS if (rules_dir() / name).is_dir())


def _default_sets() -> dict[str, tuple[str, ...]]:
    from itertools import combinations

    boxes = written_expansions()
    return {"rules_" + "_".join(combo or ("base",)): combo
            for k in range(len(boxes) + 1) for combo in combinations(boxes, k)}


# Rule sets committed under generated/, one per box combination: module name -> expansions.
DEFAULT_SETS: dict[str, tuple[str, ...]] = _default_sets()


def generated_dir() -> Path:
    return Path(str(resources.files("nidavellir.generated")))


def layer_specs(expansions: tuple[str, ...] = (), variants: tuple[str, ...] = ()) -> list[Spec]:
    """The layers of a rule set: the base game, the expansions in their fixed order, the variants
    (each a file, or a shipped one by its id: variant_specs)."""
    root = rules_dir()
    specs: list[Spec] = [(root / "base", "rules/base", False)]
    for name in EXPANSIONS:
        if name in expansions:
            specs.append((root / name, f"rules/{name}", False))
    return specs + variant_specs(variants)


def shipped_variants() -> dict[str, Path]:
    """The house rules shipped in rules/variants/, by id (each file is named by its layer's id)."""
    return {p.stem: p for p in sorted((rules_dir() / "variants").glob("*.yaml"))}


def variant_specs(names: tuple[str, ...] | list[str], files: tuple[str, ...] | list[str] = ()) -> list[Spec]:
    """The layer of each variant named (DESIGN §8: "a variant may be named by its file or, for a
    shipped one, by its id"): an existing file wins, else the shipped variant of that id, shown as
    `rules/variants/ID.yaml` so that it compiles, caches and logs the same however it was named.
    `files`, where given, is where each is read from (a replay's variant found elsewhere) under the
    name it was given. A name written as a path (a `/`, a `.yaml` ending) is a file, which loading
    reports if it is missing, with the rules' other problems; a bare name that is neither is an
    error at once (all of them), with the likely shipped id."""
    from .diagnostics import Diagnostic, RulesError, suggest

    specs: list[Spec] = []
    unknown: list[Diagnostic] = []
    shipped: dict[str, Path] | None = None
    for i, name in enumerate(names):
        path = Path(files[i] if i < len(files) else name)
        try:
            found = path.exists()
        except (OSError, ValueError):  # a name too long, a NUL byte: loading says what is wrong
            found = True
        if found or "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
            specs.append((path, name, True))
            continue
        shipped = shipped_variants() if shipped is None else shipped
        if name in shipped:
            specs.append((shipped[name], f"rules/variants/{shipped[name].name}", True))
            continue
        hint = suggest(name, shipped) or "`nidavellir variants` lists the shipped ones: " + ", ".join(shipped)
        unknown.append(Diagnostic(None, f"unknown variant `{name}`: no such file, and no shipped variant has "
                                        "this id", hint))
    if unknown:
        raise RulesError(unknown)
    return specs


def validate_expansions(expansions: tuple[str, ...]) -> None:
    """Refuse an expansion that is not one of the boxes, or whose rules are not written."""
    from .diagnostics import Diagnostic, RulesError

    for name in expansions:
        if name not in EXPANSIONS:
            raise RulesError([Diagnostic(None, f"unknown expansion `{name}` (choose from: {', '.join(EXPANSIONS)})")])
        if not (rules_dir() / name).is_dir():
            raise RulesError([Diagnostic(None, f"the expansion `{name}` is not written yet: no rules/{name}/ folder")])
