"""The joins between the stages hold: what the runtime fires is what it declares, the engine
implements the interface generated code calls, every DSL name has its texts, and the packages
import one way (issue: "Rules that compile must be rules that can act", "The generated code and its
contract with the engine", "Layers that point one way")."""
from __future__ import annotations

import ast
import dataclasses
import inspect
import linecache
import re
import subprocess
import sys
from pathlib import Path

import pytest
from runtime_ast import FIRES, RECEIVERS, event_of, forwarding, methods, self_calls

from nidavellir.compiler.docs.text import Catalog
from nidavellir.compiler.names import FUNCTIONS, VARIABLES
from nidavellir.errors import NidavellirError
from nidavellir.interface.engine import EngineAPI
from nidavellir.interface.events import EVENTS, INSTEAD, INSTEAD_ANY, RUNTIME_PARAMS, WHEN, WHENEVER
from nidavellir.runtime.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "runtime"
COMPILER = ROOT / "compiler"


def _calls(folder: Path, names: set[str]) -> list[tuple[str, ast.Call]]:
    out = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("self", "e"):
                out.append((f"{path.name}:{node.lineno}", node))
    return out


def _event_calls() -> list[tuple[str, str, ast.Call]]:
    """Every `emit(p, EVENT, ...)` and `replace(p, EVENT, card)` call of the runtime; an event a
    method forwards (tests/runtime_ast.py) is named at each call of that method, with its emit."""
    fns = methods()
    forwards = forwarding(fns)
    fired_by = {name: next(c for c in self_calls(fns[name], RECEIVERS) if c.func.attr in FIRES)  # type: ignore[attr-defined]
                for name in forwards}
    out = []
    for name, fn in fns.items():
        params = {a.arg for a in fn.args.args}
        for call in self_calls(fn, RECEIVERS):
            attr = call.func.attr  # type: ignore[attr-defined]
            if attr not in FIRES and attr not in forwards:
                continue
            where = f"{name}:{call.lineno}"
            if attr in FIRES and len(call.args) >= 2 and isinstance(call.args[1], ast.Name) \
                    and name in forwards and call.args[1].id in params:
                continue  # (named at each call of its method)
            event = event_of(call, forwards)
            assert event is not None, f"{where}: the event must be a literal name (or a parameter forwarded)"
            out.append((where, event, call if attr in FIRES else fired_by[attr]))
    return out


def test_every_event_the_runtime_fires_is_declared_in_the_form_it_is_fired():
    """Issue: "The runtime declares every event it fires — its name, whether it has a subject card,
    whether it can be replaced … A test fails if a runtime emit/replace call site uses an undeclared
    event"."""
    calls = _event_calls()
    assert calls
    for where, event, call in calls:
        assert event in EVENTS, f"{where}: `{event}` is not declared in nidavellir/interface/events.py"
        spec = EVENTS[event]
        kind = call.func.attr  # type: ignore[attr-defined]
        if kind == "replace":
            assert spec.forms & {INSTEAD, INSTEAD_ANY}, f"{where}: `{event}` is replaced but not declared so"
            continue
        has_subject = len(call.args) >= 3 or any(k.arg == "subject" for k in call.keywords)
        assert has_subject == spec.subject, f"{where}: `{event}` fired {'with' if has_subject else 'without'} a card"
        nobody = isinstance(call.args[0], ast.Name) and call.args[0].id == "NOBODY"
        assert nobody == (not spec.player), f"{where}: `{event}` fired {'for no one' if nobody else 'for a player'}"
        assert spec.forms & {WHEN, WHENEVER}, f"{where}: `{event}` is emitted but declared only as replaceable"
        if not spec.subject:
            assert WHEN not in spec.forms, f"`{event}` has no card: `when {event}` could never act"


def test_every_declared_event_and_form_is_fired_somewhere():
    """No declaration the runtime does not honour: each declared form has a call site."""
    fired: dict[str, set[str]] = {}
    for _, event, call in _event_calls():
        fired.setdefault(event, set()).add(call.func.attr)  # type: ignore[attr-defined]
    for name, spec in EVENTS.items():
        assert name in fired, f"`{name}` is declared but never fired"
        if spec.forms & {WHEN, WHENEVER}:
            assert "emit" in fired[name], f"`{name}` is declared for when/whenever but never emitted"
        if spec.forms & {INSTEAD, INSTEAD_ANY}:
            assert "replace" in fired[name], f"`{name}` is declared replaceable but never offered"


def test_params_the_runtime_reads_are_declared():
    """A param the runtime reads is declared with its default (so an unused-param warning can
    tell rules data from the runtime's own params)."""
    read = {call.args[1].value for _, call in _calls(RUNTIME, {"param"})
            if len(call.args) >= 2 and isinstance(call.args[1], ast.Constant)}
    assert read == set(RUNTIME_PARAMS)


def _protocol_members() -> dict[str, inspect.Signature | None]:
    out: dict[str, inspect.Signature | None] = {}
    for name, value in vars(EngineAPI).items():
        if name.startswith("_"):
            continue
        out[name] = None if isinstance(value, property) else inspect.signature(value)
    return out


@pytest.mark.sources
def test_the_engine_implements_the_interface_with_the_same_parameters():
    """Issue: "The interface generated code calls on the engine is a typed Protocol … a test checks
    every name the emitter can write exists on the engine with that signature"."""
    members = _protocol_members()
    assert len(members) >= 45
    for name, sig in members.items():
        assert hasattr(Engine, name), f"Engine lacks `{name}`"
        if sig is None:
            assert isinstance(inspect.getattr_static(Engine, name), property), name
            continue
        mine = inspect.signature(getattr(Engine, name))
        theirs = [(p.name, p.kind, p.default) for p in sig.parameters.values()]
        ours = [(p.name, p.kind, p.default) for p in mine.parameters.values()]
        assert ours == theirs, f"Engine.{name}{mine} differs from EngineAPI.{name}{sig}"


def _emitted_names() -> set[str]:
    """Every `g.NAME` the emitter, the registry of DSL names or an action spec (its call and its
    guard) can write."""
    from nidavellir.interface.mechanisms import ACTION_SPECS

    texts = [(COMPILER / "emit.py").read_text(encoding="utf-8")]
    texts += [b.emit for b in (*VARIABLES.values(), *FUNCTIONS.values())]
    texts += [text for spec in ACTION_SPECS.values() for text in (spec.call, spec.guard or "")]
    return {m for text in texts for m in re.findall(r"\bg\.([a-z_]+)", text)}


def test_every_name_the_emitter_writes_is_in_the_interface():
    names = _emitted_names()
    assert {"transform", "place", "ranks", "choose_coin"} <= names
    missing = names - set(_protocol_members())
    assert not missing, f"the emitter writes g.{sorted(missing)} that EngineAPI does not declare"


def test_generated_module_calls_only_the_interface():
    from harness import BASE
    assert BASE.module is not None and BASE.module.__file__
    tree = ast.parse("".join(linecache.getlines(BASE.module.__file__)))
    used = {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "g"}
    assert used and used <= set(_protocol_members())


@pytest.mark.parametrize("lang", ["en", "be"])
def test_every_dsl_name_has_a_text_in_each_language(lang):
    """Issue: "one registry of DSL names (type, allowed contexts, emit template, message key), so
    adding a construct touches few files and forgetting one fails a test"."""
    cat = Catalog.load(lang)
    missing = [b.message for b in (*VARIABLES.values(), *FUNCTIONS.values())
               if b.message and b.message not in cat.messages]
    assert not missing


def _imports(folder: Path) -> set[str]:
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module if node.level == 0 else "." * node.level + node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
    return found


def test_layers_point_one_way():
    """Issue: "runtime/ imports nothing from compiler/; … compiling does not import the runtime"."""
    runtime = _imports(RUNTIME)
    assert not {m for m in runtime if m.startswith("nidavellir.compiler") or m.startswith("nidavellir.rulesets")}
    compiler = _imports(COMPILER)
    assert not {m for m in compiler if m.startswith("nidavellir.runtime") or m.startswith("nidavellir.rulesets")}
    interface = _imports(ROOT / "nidavellir" / "interface")
    assert not {m for m in interface if m.startswith(("nidavellir.compiler", "nidavellir.runtime"))}


def test_compiling_loads_no_runtime_module():
    code = ("import sys\nfrom nidavellir.compiler.build import compile_specs, layer_specs\n"
            "compile_specs(layer_specs())\n"
            "print(sorted(m for m in sys.modules if m.startswith('nidavellir.runtime')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_every_user_facing_error_is_a_nidavellir_error():
    """Issue: "One exception base (NidavellirError) for everything a user can cause"."""
    from nidavellir.compiler.diagnostics import RulesError
    from nidavellir.compiler.docs.errors import DocsError
    from nidavellir.errors import CommandError
    from nidavellir.runtime.decisions import GameOver, IllegalAnswer
    from nidavellir.runtime.engine import SetupError
    from nidavellir.runtime.flow import TurnLimit
    from nidavellir.runtime.game import RulesRuntimeError
    from nidavellir.runtime.position import PositionError
    for error in (CommandError, RulesError, DocsError, GameOver, IllegalAnswer, SetupError, TurnLimit,
                  RulesRuntimeError, PositionError):
        assert issubclass(error, NidavellirError), error


def test_the_package_ships_its_types():
    """Issue: "the package ships py.typed"."""
    assert (ROOT / "nidavellir" / "py.typed").is_file()


def _corpus() -> list[str]:
    from test_dsl_patterns import PATTERNS
    import yaml
    texts = list(PATTERNS.values())
    for path in [*sorted((ROOT / "rules" / "base").glob("*.yaml")), ROOT / "tests" / "layers" / "mechanics.yaml"]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        texts += [e for card in data.get("cards", []) for e in card.get("effects", [])]
    texts += ["score 3 if column is explorer else 1 if not (ranks(warrior) > 2 or heroes == 1) else 0",
              "score max(ranks(warrior), min(1, 2)) - 4 / 2 + zero_ranks(miner) * points(hunter)",
              "when won: discard top of age 2 deck; place self under age 1 deck; gain gem 6",
              "when taken: exchange chosen coin for coin hunter-3; discard highest coin in pouch",
              "requires strict_most_ranks(miner) and age >= 1 and copies <= 2",
              "score once lookup(copies, 0, 1)",
              "when taken: remove 1 token; add tokens token; discard chosen 1 last card of column hunter"]
    return texts


def test_every_ir_construct_goes_through_the_checker_the_emitter_and_the_rule_text():
    """Issue: "One traversal style for the IR … shared by the checker, the emitter and the rule-text
    renderer … so adding a construct touches few files and forgetting one fails a test". Every node
    type of the IR appears in this corpus, and each pass handles every effect of it."""
    import typing

    from nidavellir.compiler import ir
    from nidavellir.compiler.check import check_effect
    from nidavellir.compiler.docs.text import Context, effect_text
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import CardEmitter
    from test_dsl_patterns import NAMES

    wanted = {t for union in (ir.Expr, ir.Action, ir.Effect) for t in typing.get_args(union)}
    seen: set[type] = set()
    cx = Context(Catalog.load("en"), {c: c for c in NAMES.classes}, {}, {})
    names = dataclasses.replace(NAMES, cards=NAMES.cards | {"test-double", "special-blacksmith"})
    for i, text in enumerate(_corpus()):
        effect = parse_effect(text)
        seen |= {type(n) for n in ir.walk(effect)}
        check_effect(effect, names)                       # no unhandled node (problems are fine here)
        CardEmitter("card").effect(i, effect, "x:1:1", text, lambda off: f"x:1:{off + 1}")
        assert effect_text(effect, cx)
    missing = sorted(t.__name__ for t in wanted - seen)
    assert not missing, f"no example of {missing} in the corpus: add one"
