"""The package's import graph read from the source with `ast`: every `import` and `from … import`,
at the top of a module or inside a function, mapped to the package's own modules through
pyproject's `[tool.setuptools.package-dir]` (nidavellir.compiler = compiler/, …)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from nidavellir.compiler.util import strong_components

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "nidavellir"


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """pyproject's package-dir: import name -> folder (read with a pattern: tomllib is 3.11+)."""
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    section = re.search(r"^\[tool\.setuptools\.package-dir\]\n(.*?)(?=^\[|\Z)", text, re.MULTILINE | re.DOTALL)
    assert section is not None, "pyproject.toml has no [tool.setuptools.package-dir]"
    pairs = re.findall(r'^"([\w.]+)"\s*=\s*"([^"]+)"', section.group(1), re.MULTILINE)
    return {name: root / folder for name, folder in pairs}


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package is its __init__.py)."""
    found: dict[str, Path] = {}
    dirs = package_dirs(root)
    for name, folder in dirs.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            dotted = ".".join([name, *parts])
            inner = next((n for n in dirs if n != name and n.startswith(name + ".")
                          and (dotted == n or dotted.startswith(n + "."))), None)
            if inner is None:  # a folder mapped elsewhere (nidavellir/compiler would be shadowed) is not this one
                found[dotted] = path
    return found


@dataclass(frozen=True)
class Edge:
    """`source` imports `target` at `line`; `typing` when only under `if TYPE_CHECKING:`, `lazy`
    when inside a function."""
    source: str
    target: str
    line: int
    typing: bool
    lazy: bool


def _typing_lines(tree: ast.Module) -> set[int]:
    """The line numbers of statements under `if TYPE_CHECKING:` (never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if hasattr(sub, "lineno"):
                        lines.add(sub.lineno)
    return lines


def _function_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if hasattr(sub, "lineno") and sub is not node:
                    lines.add(sub.lineno)
    return lines


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The package module `name` names, or the longest of its prefixes that is one."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        candidate = ".".join(parts[:k])
        if candidate in modules:
            return candidate
    return None


def edges(modules: dict[str, Path] | None = None) -> list[Edge]:
    """Every import of a package module by a package module (each once per line)."""
    modules = module_files() if modules is None else modules
    out: list[Edge] = []
    for source, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        typing, lazy = _typing_lines(tree), _function_lines(tree)
        package = source if path.name == "__init__.py" else source.rpartition(".")[0]
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                # `from pkg import sub` imports the submodule when there is one
                names = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
            for name in names:
                target = _known(name, modules)
                if target is not None and target != source:
                    out.append(Edge(source, target, node.lineno, node.lineno in typing, node.lineno in lazy))
    return list(dict.fromkeys(out))


def with_packages(found: list[Edge], modules: dict[str, Path]) -> list[Edge]:
    """`found` and, for each import of `a.b.c`, the packages `a` and `a.b` that Python imports first
    (an __init__.py that imports more closes circles too); a module's own packages are left out."""
    out = list(found)
    for e in found:
        parts = e.target.split(".")
        for k in range(1, len(parts)):
            package = ".".join(parts[:k])
            if package in modules and package != e.source and not e.source.startswith(package + "."):
                out.append(Edge(e.source, package, e.line, e.typing, e.lazy))
    return list(dict.fromkeys(out))


def cycles(found: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    graph: dict[str, set[str]] = {}
    for e in found:
        graph.setdefault(e.source, set()).add(e.target)
        graph.setdefault(e.target, set())
    succ = {v: sorted(ws) for v, ws in graph.items()}
    return sorted(sorted(c) for c in strong_components(sorted(graph), succ.__getitem__) if len(c) > 1)
