"""Small helpers shared by the compiler's passes."""
from __future__ import annotations

from typing import NoReturn


def assert_never(node: NoReturn) -> NoReturn:
    """The end of an exhaustive `match` over IR nodes: mypy fails where a node type is not handled,
    and at run time an unknown node is a bug."""
    raise AssertionError(f"unhandled IR node: {node!r}")
