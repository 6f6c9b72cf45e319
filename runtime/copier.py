"""A dataclass's copy function, written from its fields' declared types (as `dataclasses` writes
`__init__`): a list, set or dict is copied as deep as its type says it holds mutable values; a field
of an immutable type is shared. Used for the game state (runtime/state.py), so that no field can be
left out of a copy."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

IMMUTABLE = frozenset({"int", "str", "bool", "float", "None", "Coin", "FlowPoint", "Scores"})  # (Scores: set once, then only read)
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9.]*|[\[\],|])")


class Unknown(TypeError):
    """A field type the copier cannot copy (declare it immutable, or give its copy function)."""


def _any(value: Any) -> Any:
    """A value of undeclared type (`Any`): lists, dicts and sets copied all the way down."""
    if isinstance(value, list):
        return [_any(v) for v in value]
    if isinstance(value, dict):
        return {k: _any(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


def _parse(text: str) -> Any:
    """An annotation's text as a tree: a name, (name, [args]) or ('|', [alternatives])."""
    tokens = [t for t in _TOKEN.findall(text)]
    pos = 0

    def one() -> Any:
        nonlocal pos
        name = tokens[pos]
        pos += 1
        if pos < len(tokens) and tokens[pos] == "[":
            pos += 1
            args = [union()]
            while tokens[pos] == ",":
                pos += 1
                args.append(union())
            pos += 1  # "]"
            return (name, args)
        return name

    def union() -> Any:
        nonlocal pos
        alts = [one()]
        while pos < len(tokens) and tokens[pos] == "|":
            pos += 1
            alts.append(one())
        return alts[0] if len(alts) == 1 else ("|", alts)

    return union()


def _immutable(t: Any) -> bool:
    if isinstance(t, str):
        return t in IMMUTABLE
    head, args = t
    return head in ("|", "tuple", "frozenset") and all(_immutable(a) for a in args)


def _expr(t: Any, v: str, nested: Mapping[str, str], depth: int = 0) -> str:
    """Python source copying the value `v` of type `t`."""
    if _immutable(t):
        return v
    x = f"x{depth}"
    if isinstance(t, str):
        if t == "Any":
            return f"_any({v})"
        if t in nested:
            return f"{nested[t]}({v})"
        raise Unknown(f"no copy for type `{t}`")
    head, args = t
    if head == "|":
        rest = [a for a in args if a != "None"]
        if len(rest) == 1 and len(args) == 2:
            return f"(None if {v} is None else {_expr(rest[0], v, nested, depth)})"
        raise Unknown(f"no copy for a union of {args}")
    if head == "list":
        return f"list({v})" if _immutable(args[0]) else f"[{_expr(args[0], x, nested, depth + 1)} for {x} in {v}]"
    if head == "set" and _immutable(args[0]):
        return f"set({v})"
    if head == "dict" and _immutable(args[0]):
        if _immutable(args[1]):
            return f"dict({v})"
        k = f"k{depth}"
        return f"{{{k}: {_expr(args[1], x, nested, depth + 1)} for {k}, {x} in {v}.items()}}"
    raise Unknown(f"no copy for type `{head}[{', '.join(map(str, args))}]`")


def _declared(cls: type) -> dict[str, str]:
    """Each field's annotation as written: the class's own (postponed annotations are text), or, for
    a class compiled by mypyc (which keeps only the erased types: `list`), read from its source."""
    own = {f.name: f.type for f in fields(cls)}
    text = {name: t for name, t in own.items() if isinstance(t, str)}
    if len(text) == len(own):
        return text
    package, _, name = cls.__module__.rpartition(".")
    source = Path(__file__).resolve().with_name(f"{name}.py")  # (a compiled class: one of this package's)
    if package != __name__.rpartition(".")[0] or not source.is_file():
        raise Unknown(f"no source for the fields of {cls.__name__} (its types are erased)")
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return {s.target.id: ast.unparse(s.annotation) for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
    raise Unknown(f"no source for the fields of {cls.__name__} in {source}")


def copier(cls: type[T], nested: Mapping[str, Callable[[Any], Any]] | None = None) -> Callable[[T], T]:
    """The copy function of dataclass `cls` (every field an init field), written from its
    annotations; `nested` gives the copy functions of the other classes its fields hold."""
    nested = dict(nested or {})
    names = {name: f"_copy_{name}" for name in nested}
    declared = _declared(cls)
    args = ", ".join(_expr(_parse(declared[f.name]), f"old.{f.name}", names) for f in fields(cls))  # type: ignore[arg-type]
    source = f"def copy(old):\n    return cls({args})\n"
    namespace: dict[str, Any] = {"cls": cls, "_any": _any, **{names[n]: fn for n, fn in nested.items()}}
    exec(compile(source, f"<copy of {cls.__name__}>", "exec"), namespace)
    fn: Callable[[T], T] = namespace["copy"]
    fn.__doc__ = f"An independent copy of a {cls.__name__} (written from its fields' types)."
    return fn
