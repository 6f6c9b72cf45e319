"""Helpers of the reference tests (tests/test_docs*.py): a box's cards, escaping for a format, the
text of one section (or one table row, one list item) of a rendered reference, a table's cells, the
player part before the designer's appendix and the words a reader sees."""
from __future__ import annotations

import html
import re

from markupsafe import escape

from nidavellir.compiler import docs
from nidavellir.compiler.compile import Compiled

APPENDIX = "sources"  # the anchor of the designer's appendix ("Sources and interpretations")


def box_cards(compiled: Compiled, box: str) -> list[str]:
    """The ids of the cards a box's layer adds."""
    return [cid for cid, card in compiled.cards().items() if box in card.layers]


def esc(text: str, fmt: str) -> str:
    return docs.md_escape(text) if fmt == "md" else str(escape(text))


def _start(text: str, anchor: str, fmt: str) -> int:
    return text.index(f'<a id="{anchor}"></a>' if fmt == "md" else f'id="{anchor}"')


def section(text: str, anchor: str, fmt: str) -> str:
    """The text from an anchor to the next heading of the same or a higher level; for the anchor of
    a table row or a list item, that row or item."""
    start = _start(text, anchor, fmt)
    if fmt == "md":
        line = text.rfind("\n", 0, start) + 1
        level = len(text[line:start]) - len(text[line:start].lstrip("#"))
        if not level:
            end = text.find("\n", start)
            return text[line:end if end >= 0 else len(text)]
        stop = re.compile(r"^#{1,%d} " % level, re.MULTILINE)  # noqa: UP031 - a regex full of braces
    else:
        tag = re.match(r"<(\w+)", text[text.rfind("<", 0, start):]).group(1)  # type: ignore[union-attr]
        if not re.fullmatch(r"h\d", tag):
            return text[text.rfind("<", 0, start):text.index(f"</{tag}>", start) + len(tag) + 3]
        stop = re.compile(f"<h[1-{tag[1]}][ >]")
    found = stop.search(text, start + 1)
    return text[start:found.start() if found else len(text)]


def table(text: str, anchor: str, fmt: str) -> list[list[str]]:
    """The rows of the table an anchor names (its head first), each cell as a reader sees it."""
    start = _start(text, anchor, fmt)
    if fmt == "md":
        block = text[start:].split("\n\n")[1]
        rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]] for line in block.splitlines()]
        rows = [r for r in rows if not all(set(c) <= {"-", " "} for c in r)]
    else:
        block = text[start:text.index("</table>", start)]
        rows = [re.findall(r"<t[hd]>(.*?)</t[hd]>", r, re.DOTALL) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", block, re.DOTALL)]
    return [[visible(c, fmt).replace("`", "").strip() for c in r] for r in rows]


def player_part(text: str, fmt: str) -> str:
    """Everything before the designer's appendix: what players read."""
    return text[:_start(text, APPENDIX, fmt)]


def appendix(text: str, fmt: str) -> str:
    """The designer's appendix ("Sources and interpretations"), up to the index of cards."""
    return section(text, APPENDIX, fmt)


def visible(text: str, fmt: str) -> str:
    """The words a reader sees: no anchors, link targets, tags or Markdown marks."""
    if fmt == "md":
        text = re.sub(r'<a id="[^"]*"></a>', "", text)
        text = re.sub(r"\]\(#[^)\s]*\)", "]", text)
        text = re.sub(r"\\(.)", r"\1", text)  # escaped Markdown characters
        text = re.sub(r"[*\[\]#|]", " ", text)
    else:
        text = re.sub(r"<style>.*?</style>", "", text, flags=re.DOTALL)
        text = re.sub(r"<[^>]+>", " ", text)
    return html.unescape(text)
