"""Sources cited by their titles: the rules data and the catalogs cite the documents the rules were
written from by file (`002_3fed4e836b428413.txt`) or by number (`003 "Setup"`); a reader of the
reference sees the document's title ("Nidavellir rulebook, "Setup"").

The titles are catalog texts, `cite.<number>` (and `cite.design` for the project's design notes,
cited as `DESIGN §9`), so each language names them its own way. A number that is not one of the
documents (no `cite.<number>` key) is printed as written: a house rule may cite what it likes.
"""
from __future__ import annotations

import re

from .text import Catalog

# A document by number (`000`-`009`) or file name; not inside a longer number ("1,000,000") or a word.
_SEED = re.compile(r"(?<![\w.,§/-])(?P<n>00\d)(?:_[0-9a-f]{16}\.txt)?(?![\w/-]|[.,]\d)(?P<comma>,)?")
_DESIGN = re.compile(r"\bDESIGN(?:\.md)?(?P<comma>,)?(?=\s*§)")
# What names a place in a document after its title: a quoted heading, a section (§).
_PLACE = re.compile(r"\s+[\"«“„§]")


def cite(text: str, cat: Catalog) -> str:
    """`text` with each document it cites named by its title; a comma written after the number
    stays, and one goes between a title and the quoted heading or section that follows it
    ("Nidavellir rulebook, "Setup"")."""
    def title(key: str, m: re.Match[str]) -> str:
        if not cat.has(key):
            return m.group(0)
        return cat.t(key) + ("," if m.group("comma") or _PLACE.match(m.string, m.end()) else "")

    text = _SEED.sub(lambda m: title(f"cite.{m.group('n')}", m), text)
    return _DESIGN.sub(lambda m: title("cite.design", m), text)


def uncited(text: str) -> list[str]:
    """The document file names and bare document numbers left in `text` (none, once cited)."""
    return [m.group(0) for m in _SEED.finditer(text)] + re.findall(r"\b\w+\.txt\b", text) + [m.group(0) for m in _DESIGN.finditer(text)]
