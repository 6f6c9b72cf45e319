"""`nidavellir build`: generated/ from the compiler and the docs back end together (the compiled
rule sets' modules with their cards' English texts, and the base game's references). The docs depend on the compiler, never the
reverse, so the step that needs both lives here, above them."""
from __future__ import annotations

from nidavellir.compiler.build import compile_specs
from nidavellir.compiler.docs import default_docs, described
from nidavellir.compiler.sources import DEFAULT_SETS, generated_dir, layer_specs


def build(check: bool = False) -> list[str]:
    """Regenerate generated/: the compiled rule sets and the base game's references
    (or with check, list the stale files without writing)."""
    stale = []
    out = generated_dir()
    for name, expansions in DEFAULT_SETS.items():
        compiled = described(compile_specs(layer_specs(expansions)))
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
