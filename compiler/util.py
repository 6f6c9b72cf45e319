"""Small helpers shared by the compiler's passes."""
from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

N = TypeVar("N", bound=Hashable)
M = TypeVar("M", bound="DataclassInstance")


def from_data(model: type[M], data: Mapping[str, Any], keys: Sequence[str], /, **given: Any) -> M:
    """An instance of a model class (nidavellir.interface.rules) from rules data: each of `keys` that
    `data` holds (lists as tuples), then `given`; every other field keeps the class's default, which
    is written there only."""
    known = {f.name for f in fields(model) if f.init}
    assert set(keys) <= known and set(given) <= known, (model, keys, given)
    kwargs = {k: _frozen(data[k]) for k in keys if k in data}
    return model(**{**kwargs, **given})


def _frozen(value: Any) -> Any:
    """Rules data as the model holds it: lists as tuples."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def assert_never(node: NoReturn) -> NoReturn:
    """The end of an exhaustive `match` over IR nodes: mypy fails where a node type is not handled,
    and at run time an unknown node is a bug."""
    raise AssertionError(f"unhandled IR node: {node!r}")


def strong_components(nodes: Sequence[N], successors: Callable[[N], Sequence[N]]) -> list[list[N]]:
    """The strongly connected components of a graph (Tarjan, without recursion), each in the order
    its nodes left the stack, the components in the order they were found from `nodes` in order."""
    index: dict[N, int] = {}
    low: dict[N, int] = {}
    stack: list[N] = []
    on_stack: set[N] = set()
    out: list[list[N]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[N, int]] = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = len(index)
                stack.append(v)
                on_stack.add(v)
            succ = successors(v)
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out
