"""The package's modules import one way (issue 19, §1):

  "No circle between `compiler/build.py` and `compiler/docs/`: the docs back end depends on the
   compiler, never the reverse; the command that builds both orchestrates them. `CommandError` moves
   to `nidavellir/errors.py` (ends the `commands.py` ↔ `sim/command.py` circle)."

Every import is read from the source with `ast` (tests/import_graph.py): at the top of a module,
inside a function (a lazy import is an edge too) and under `if TYPE_CHECKING:`, each mapped to the
package's own modules through pyproject's package-dir (nidavellir.compiler = compiler/, …).
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from import_graph import ROOT, Edge, cycles, edges, module_files, with_packages

MODULES = module_files()
EDGES = edges(MODULES)

DOCS = "nidavellir.compiler.docs"
# The modules that run a command: argument parsing, the subcommands, and what they share.
COMMANDS = ("nidavellir.cli", "nidavellir.commands", "nidavellir.arguments", "nidavellir.build_all",
            "nidavellir.sim.command")

# Imports under `if TYPE_CHECKING:` that close a circle. They never run (annotations only: mypy
# reads them, Python does not), so they are allowed; every other circle fails the test below.
TYPING_BACK_EDGES = {
    ("nidavellir.runtime.core", "nidavellir.runtime.flow"),        # the flow's Snapshot type
    ("nidavellir.runtime.journal", "nidavellir.runtime.game"),     # the Game a journal records
    ("nidavellir.runtime.scoring", "nidavellir.runtime.engine"),   # the Engine that is scored
    ("nidavellir.runtime.rules", "nidavellir.runtime.placement"),  # Rules' cached Standing
    ("nidavellir.runtime.rules", "nidavellir.runtime.setup"),      # Rules' cached SetupPlan
}


def _shown(found: list[Edge]) -> list[str]:
    kind = {(False, False): "", (False, True): " (lazy)", (True, False): " (TYPE_CHECKING)",
            (True, True): " (TYPE_CHECKING)"}
    return sorted({f"{MODULES[e.source].relative_to(ROOT)}:{e.line}: "
                   f"{e.source} imports {e.target}{kind[e.typing, e.lazy]}" for e in found})


def _in_docs(module: str) -> bool:
    return module == DOCS or module.startswith(DOCS + ".")


def test_the_reader_sees_every_kind_of_import():
    """The graph is read, not assumed: a top-level, a lazy, a TYPE_CHECKING, a relative import from a
    package's __init__ and `from . import module` are each found (else every test below is empty)."""
    pairs = {(e.source, e.target, e.typing, e.lazy) for e in EDGES}
    assert ("nidavellir.compiler.build", "nidavellir.compiler.diagnostics", False, False) in pairs
    assert ("nidavellir.commands", "nidavellir.sim.command", False, True) in pairs
    assert ("nidavellir.runtime.journal", "nidavellir.runtime.game", True, False) in pairs
    assert ("nidavellir.compiler.docs", "nidavellir.compiler.docs.render", False, False) in pairs
    assert ("nidavellir.cli", "nidavellir.commands", False, True) in pairs
    assert {"nidavellir.compiler.build", "nidavellir.runtime.engine", "nidavellir.generated.rules_base",
            "nidavellir.sim.command", "nidavellir.errors"} <= set(MODULES)


def test_the_compiler_does_not_import_its_docs_back_end():
    """Issue: "the docs back end depends on the compiler, never the reverse": no module of compiler/
    outside compiler/docs imports compiler/docs, not even lazily or for types."""
    bad = [e for e in EDGES if e.source.startswith("nidavellir.compiler") and not _in_docs(e.source)
           and _in_docs(e.target)]
    assert not bad, "\n".join(_shown(bad))


def test_building_generated_is_orchestrated_above_compiler_and_docs():
    """Issue: "the command that builds both orchestrates them": the step that writes generated/
    imports the compiler and the docs back end, and neither imports it."""
    targets = {e.target for e in EDGES if e.source == "nidavellir.build_all"}
    assert "nidavellir.compiler.build" in targets and DOCS in targets
    back = [e for e in EDGES if e.target == "nidavellir.build_all" and e.source.startswith("nidavellir.compiler")]
    assert not back, "\n".join(_shown(back))


def test_compiling_a_layer_with_texts_loads_no_docs_module(tmp_path: Path):
    """Issue: "never the reverse", as it runs: checking a variant's `texts: … messages:` against the
    English catalog (compiler/texts.py) reads the catalog's files without loading compiler/docs."""
    variant = tmp_path / "texts.yaml"
    variant.write_text(textwrap.dedent("""\
        layer: {id: worded, name: Worded, description: A layer with its own texts.}
        texts:
          be:
            messages: {no.such.message: "Тэкст"}
        """), encoding="utf-8")
    code = ("import sys\nfrom nidavellir.compiler.build import compile_specs, layer_specs\n"
            "from nidavellir.compiler.diagnostics import RulesError\n"
            f"try:\n    compile_specs(layer_specs((), ({str(variant)!r},)))\n"
            "except RulesError as err:\n    print(err.format(False), file=sys.stderr)\n"
            f"print(sorted(m for m in sys.modules if m.startswith({DOCS!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert "`no.such.message` is not a message of the reference" in out.stderr  # the catalog was read
    assert out.stdout.strip() == "[]"


def test_the_runtime_imports_neither_the_compiler_nor_the_commands():
    """The engine knows no compiler and no command line: runtime/ imports no module of compiler/
    and none of the command modules (cli, commands, arguments, build_all, sim/command)."""
    bad = [e for e in EDGES if e.source.startswith("nidavellir.runtime")
           and (e.target.startswith("nidavellir.compiler") or e.target in COMMANDS)]
    assert not bad, "\n".join(_shown(bad))


def _reaches(start: set[str], goal: str) -> list[str] | None:
    """A chain of imports from one of `start` to `goal`, or None."""
    graph: dict[str, set[str]] = {}
    for e in EDGES:
        graph.setdefault(e.source, set()).add(e.target)
    seen = {s: [s] for s in start}
    todo = sorted(start)
    while todo:
        here = todo.pop()
        for nxt in sorted(graph.get(here, ())):
            if nxt not in seen:
                seen[nxt] = [*seen[here], nxt]
                todo.append(nxt)
    return seen.get(goal)


def test_commands_and_the_simulation_import_one_way():
    """Issue: "`CommandError` moves to `nidavellir/errors.py` (ends the `commands.py` ↔
    `sim/command.py` circle)": commands.py imports the simulation's command, and no module of
    nidavellir/sim/ reaches commands.py back through any chain of imports (lazy ones too)."""
    assert ("nidavellir.commands", "nidavellir.sim.command") in {(e.source, e.target) for e in EDGES}
    sim = {m for m in MODULES if m.startswith("nidavellir.sim.") or m == "nidavellir.sim"}
    chain = _reaches(sim, "nidavellir.commands")
    assert chain is None, " -> ".join(chain)
    from nidavellir.commands import CommandError as used
    from nidavellir.errors import CommandError, NidavellirError
    assert used is CommandError and issubclass(CommandError, NidavellirError)


def test_the_allowed_back_edges_are_only_for_types():
    """An allowed circle's edge may only be an import under `if TYPE_CHECKING:` (one that runs is
    never allowed)."""
    running = [e for e in EDGES if (e.source, e.target) in TYPING_BACK_EDGES and not e.typing]
    assert not running, "\n".join(_shown(running))


@pytest.mark.parametrize("kinds", ["that run (top-level and lazy)", "including TYPE_CHECKING"])
def test_the_module_graph_has_no_cycles(kinds: str):
    """No circle of imports anywhere in the package: none among the imports that run, and none among
    all of them but the listed TYPE_CHECKING back edges (TYPING_BACK_EDGES, each commented). An
    import of `a.b.c` also imports the packages `a.b` and `a` (their __init__.py) first."""
    if kinds.startswith("that run"):
        found = [e for e in EDGES if not e.typing]
    else:
        found = [e for e in EDGES if (e.source, e.target) not in TYPING_BACK_EDGES]
    found = with_packages(found, MODULES)
    circles = cycles(found)
    shown = []
    for circle in circles:
        inside = set(circle)
        shown.append(" <-> ".join(circle) + "\n  " + "\n  ".join(
            _shown([e for e in found if e.source in inside and e.target in inside])))
    assert not circles, "\n".join(shown)
