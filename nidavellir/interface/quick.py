"""A quicker `__init__` for the frozen dataclasses a game makes by the hundred (decisions, journal
records): the same signature, writing each field into the instance's dict.

A frozen dataclass's own `__init__` sets each field through `object.__setattr__`, a call per
field; a slotted one has no dict to write into. The class stays frozen (its `__setattr__` and
`__delattr__` still refuse), and `fields`, `replace`, equality, hashing, pickling and copying are
the dataclass's own.
"""
from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any


def quick_init(cls: type) -> None:
    """Give the frozen, unslotted dataclass `cls` the quicker `__init__` (no field may have a
    default factory: the value would be shared)."""
    params = getattr(cls, "__dataclass_params__", None)
    assert params is not None and params.frozen and not hasattr(cls, "__slots__"), cls
    names: dict[str, Any] = {}
    positional: list[str] = []
    keywords: list[str] = []
    body = ["    values = self.__dict__"]
    for f in fields(cls):
        assert f.default_factory is MISSING, f"{cls.__name__}.{f.name}: no default factory here"
        body.append(f"    values[{f.name!r}] = {f.name}")
        param = f.name
        if f.default is not MISSING:
            names[f"_default_{f.name}"] = f.default
            param = f"{f.name}=_default_{f.name}"
        (keywords if f.kw_only else positional).append(param)
    params_text = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({params_text}):\n" + "\n".join(body)
    exec(source, names)  # noqa: S102 - field names are identifiers; defaults are passed as values, never text
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - (mypy refuses assigning a method)
