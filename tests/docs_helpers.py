"""Helpers of the reference tests of the expansions (tests/test_docs_*.py): a box's cards, escaping
for a format, and the text of one section of a rendered reference."""
from __future__ import annotations

import re

from markupsafe import escape

from nidavellir.compiler import docs
from nidavellir.compiler.compile import Compiled


def box_cards(compiled: Compiled, box: str) -> list[str]:
    """The ids of the cards a box's layer adds."""
    return [cid for cid, card in compiled.data["cards"].items() if box in card["layers"]]


def esc(text: str, fmt: str) -> str:
    return docs.md_escape(text) if fmt == "md" else str(escape(text))


def section(text: str, anchor: str, fmt: str) -> str:
    """The text from an anchor to the next heading of the same or a higher level."""
    start = text.index(f'<a id="{anchor}"></a>' if fmt == "md" else f'id="{anchor}"')
    if fmt == "md":
        line = text.rfind("\n", 0, start) + 1
        level = len(text[line:start]) - len(text[line:start].lstrip("#"))
        stop = re.compile(r"^#{1,%d} " % level, re.M)
    else:
        level = int(text[text.rfind("<", 0, start) + 2])
        stop = re.compile(r"<h[1-%d][ >]" % level)
    found = stop.search(text, start + 1)
    return text[start:found.start() if found else len(text)]
