"""Reading the runtime's code for the events it fires (for the contract tests).

An `emit(p, EVENT, …)` or `replace(p, EVENT, …)` call names its event as a literal, or forwards a
parameter of its method (`enter(p, card, event)`): then each call of that method names the event, as
a literal, in that parameter's place."""
from __future__ import annotations

import ast
from pathlib import Path

RUNTIME = Path(__file__).resolve().parent.parent / "runtime"
FIRES = ("emit", "replace")
RECEIVERS = ("self", "e")  # an engine method's receiver, a flow function's engine


def self_calls(tree: ast.AST, receivers: tuple[str, ...] = ("self",)) -> list[ast.Call]:
    """The calls `self.name(...)` (or through another receiver) under `tree`."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id in receivers]


def methods() -> dict[str, ast.FunctionDef]:
    """Every function of the runtime by name (the engine's methods and the flow's functions)."""
    out: dict[str, ast.FunctionDef] = {}
    for path in sorted(RUNTIME.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                out.setdefault(node.name, node)
    return out


def forwarding(fns: dict[str, ast.FunctionDef]) -> dict[str, int]:
    """Methods that fire an event named by one of their parameters: name -> that parameter's place
    among the call's arguments (self left out). Such a parameter must be forwarded as is."""
    out: dict[str, int] = {}
    for name, fn in fns.items():
        params = [a.arg for a in fn.args.args if a.arg != "self"]
        for call in self_calls(fn, RECEIVERS):
            if call.func.attr in FIRES and len(call.args) >= 2 and isinstance(call.args[1], ast.Name) \
                    and call.args[1].id in params:  # type: ignore[attr-defined]
                out[name] = params.index(call.args[1].id)
    return out


def event_of(call: ast.Call, forwards: dict[str, int]) -> str | None:
    """The event a call fires as a literal: an emit or replace, or a call of a forwarding method."""
    attr = call.func.attr  # type: ignore[attr-defined]
    at = 1 if attr in FIRES else forwards.get(attr)
    if at is None or len(call.args) <= at:
        return None
    arg = call.args[at]
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
