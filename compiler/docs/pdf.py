"""The printed rule reference: reference.html printed to PDF by headless Chromium on the paper of
PrintOptions, with page numbers in the contents and the card index and an outline of bookmarks.

    print_reference(html, Path("reference.pdf"), PrintOptions(paper="a4"))

Chromium has no target-counter(), so the page numbers take two prints. The printed copy (a
temporary file; reference.html itself stays the screen page with empty, hidden slots) is printed
with a "0" in every page slot, whose width the print CSS reserves; the first PDF's named
destinations (the targets of the slots' links) give the page of each anchor; the copy is printed
again with those numbers, and the pages of the second PDF must agree (a third print if not).
Chromium writes an outline of the headings (h1 → h2 → h3 → h4); the title's level is dropped, so
the sections are the top level, their subsections below, the cards below those, and the cards of
the index that are rows of a table, not headings, are added under the heading they follow.
"""
from __future__ import annotations

import html as htmlmod
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.errors import PyPdfError
from pypdf.generic import Destination, Fit, IndirectObject

from . import sheets
from .errors import DocsError
from .options import PAPERS, PrintOptions

MAX_PRINTS = 3  # the first print, the print with the numbers, one more if a number moved a page
SLOT = re.compile(r'(<span class="page" data-page="([^"]+)">)[^<]*(</span>)')
_CELL = re.compile(r"(<t[hd]\b[^>]*>)(.*?)(</t[hd]>)", re.DOTALL)
_TAG = re.compile(r"(<[^>]*>)")
_HEADING = re.compile(r"<h([1-6])\b([^>]*)>(.*?)</h\1>", re.DOTALL)
_ID = re.compile(r'\bid="([^"]+)"')
_SLOTTED_LINK = re.compile(r'<a href="#([^"]+)">(.*?)</a><span class="page" data-page="\1">')
# Kept on one line: "2 × 7" and "1 × Blacksmith", and a number with a hyphen or dash, after which
# a browser may break ("1-й", "5–6"); in table cells also a word and its number ("Miner 1", "+3").
_TOGETHER = re.compile(r"\d+ × [^\s,;:.()]+|[^\s(]*(?:\d[-‐–—]|[-‐–—]\d)[^\s,;:)]*")
_NAMED_NUMBER = re.compile(r"[^\s(]+ [+−-]?\d+(?:[-‐–—][^\s,;:)]+)?(?!\w)")
_SHORT_NUMERIC = 3                       # letters a cell may hold and still be a number ("1-й", "n²")


@dataclass
class Bookmark:
    """One entry of the outline (a heading, or a card of the index): its title, where it is, and
    the entries below it."""
    title: str
    page: int                     # 0-based
    top: float | None             # PDF points from the bottom of the page; None: the whole page
    left: float | None
    anchor: str | None = None     # the id of its element in the page, when known
    children: list[Bookmark] = field(default_factory=list)

    @property
    def position(self) -> tuple[int, float]:
        """Document order: page, then top to bottom."""
        return self.page, -(self.top if self.top is not None else float("inf"))


# -- the printed copy ----------------------------------------------------------------------------

def printed_copy(html: str, options: PrintOptions) -> str:
    """reference.html as it is printed: the paper of `options`; numeric table cells ("1, 2, 3",
    "1-й") marked `num` and on one line; no line break inside the numbers of `_TOGETHER` and, in
    cells, `_NAMED_NUMBER`. (`fill_pages` fills the page slots.)"""
    if options.paper not in PAPERS:
        raise DocsError(f"unknown paper `{options.paper}` (choose from: {', '.join(PAPERS)})")
    width, height = PAPERS[options.paper]
    head_end, body = html.find("</head>"), html.find("<body")
    if head_end < 0 or body < head_end:
        raise DocsError("the reference has no <head> and <body> to print")
    paper = f"<style>@page {{ size: {width:g}mm {height:g}mm; }}</style>\n"
    page = _each_text(html[body:], lambda text: _nowrap(_TOGETHER, text))
    page = _CELL.sub(lambda m: m[1] + _cell(m[2]) + m[3], page)
    return html[:head_end] + paper + html[head_end:body] + page


def _cell(cell: str) -> str:
    text = htmlmod.unescape(_TAG.sub("", cell))
    number = any(c.isdigit() for c in text) or text.strip() in ("–", "—", "-")  # a dash: none
    if number and sum(c.isalpha() for c in text) <= _SHORT_NUMERIC:
        return f'<span class="num nowrap">{cell}</span>'
    return _each_text(cell, lambda text: _nowrap(_NAMED_NUMBER, text))


def _nowrap(words: re.Pattern[str], text: str) -> str:
    """HTML text with each match of `words` in a span that does not wrap (matched in the text
    itself, not its entities)."""
    plain, out, at = htmlmod.unescape(text), [], 0
    for m in words.finditer(plain):
        out += [htmlmod.escape(plain[at:m.start()], quote=False),
                f'<span class="nowrap">{htmlmod.escape(m[0], quote=False)}</span>']
        at = m.end()
    return "".join(out) + htmlmod.escape(plain[at:], quote=False) if out else text


def _each_text(html: str, change: Callable[[str], str]) -> str:
    """`change` applied to the text between the tags."""
    parts = _TAG.split(html)
    parts[::2] = [change(text) for text in parts[::2]]
    return "".join(parts)


def fill_pages(html: str, pages: Mapping[str, int] | None) -> str:
    """Each page slot with its anchor's page number (1-based); a "0" in each when `pages` is None
    (the first print, which only has to reserve the room)."""
    def number(m: re.Match[str]) -> str:
        page = "0" if pages is None else str(pages.get(m[2], ""))
        return m[1] + page + m[3]
    return SLOT.sub(number, html)


def slot_anchors(html: str) -> list[str]:
    """The anchors whose pages the contents and the card index give, in their order."""
    return [m[2] for m in SLOT.finditer(html)]


def index_entries(html: str) -> list[tuple[str, str]]:
    """(anchor, name) of each entry of the card index: the links with a page slot after the
    heading with id "index"."""
    start = html.find(' id="index"')
    if start < 0:
        return []
    return [(m[1], _text(m[2])) for m in _SLOTTED_LINK.finditer(html, start)]


def _text(markup: str) -> str:
    return " ".join(htmlmod.unescape(_TAG.sub("", markup)).split())


# -- reading a PDF -------------------------------------------------------------------------------

def anchor_pages(reader: PdfReader) -> dict[str, int]:
    """Anchor (without '#') -> 1-based page, from the PDF's named destinations: Chromium writes one
    for each element a link points at."""
    pages = {}
    for name, dest in reader.named_destinations.items():
        number = reader.get_destination_page_number(dest)
        if number is not None and number >= 0:
            pages[name.lstrip("/")] = number + 1
    return pages


def bookmarks(reader: PdfReader) -> list[Bookmark]:
    """The PDF's outline (Chromium's: one entry per heading, in document order) as a tree."""
    def tree(items: list[object]) -> list[Bookmark]:
        out: list[Bookmark] = []
        for item in items:
            if isinstance(item, list):
                (out[-1].children if out else out).extend(tree(item))
            elif isinstance(item, Destination):
                out.append(_bookmark(reader, str(item.title or ""), item))
        return out
    return tree(list(reader.outline))


def _bookmark(reader: PdfReader, title: str, dest: Destination, anchor: str | None = None) -> Bookmark:
    page = reader.get_destination_page_number(dest)
    left, top = dest.get("/Left"), dest.get("/Top")
    if dest.typ != "/XYZ" or top is None:
        left = top = None
    return Bookmark(" ".join(title.split()), max(page or 0, 0), None if top is None else float(top),
                    None if left is None else float(left), anchor)


def _flat(marks: list[Bookmark]) -> list[Bookmark]:
    return [m for mark in marks for m in (mark, *_flat(mark.children))]


def name_headings(marks: list[Bookmark], html: str) -> bool:
    """Give each bookmark its heading's id: the outline lists the page's headings in order. False
    (and no names) if the two disagree."""
    heads = [(_ID.search(attrs), _text(inner)) for _, attrs, inner in _HEADING.findall(html)]
    flat = _flat(marks)
    if len(flat) != len(heads) or any(m.title != title for m, (_, title) in zip(flat, heads)):
        return False
    for mark, (anchor, _) in zip(flat, heads):
        mark.anchor = anchor[1] if anchor else None
    return True


def add_entries(marks: list[Bookmark], reader: PdfReader, html: str) -> None:
    """The entries of the card index that are no heading (a card in a table row) as bookmarks, each
    under the last heading before it that is not itself a card, in page order among its children."""
    dests = {name.lstrip("/"): dest for name, dest in reader.named_destinations.items()}
    cards = dict(index_entries(html))
    named = {m.anchor for m in _flat(marks)}
    for anchor, title in cards.items():
        if anchor in named or anchor not in dests:
            continue
        entry = _bookmark(reader, title, dests[anchor], anchor)
        before = [m for m in _flat(marks) if m.position <= entry.position and m.anchor not in cards]
        siblings = before[-1].children if before else marks
        at = next((i for i, m in enumerate(siblings) if m.position > entry.position), len(siblings))
        siblings.insert(at, entry)


def sections_first(marks: list[Bookmark]) -> list[Bookmark]:
    """The outline without the title's level: a lone top entry (the h1) gives way to its children."""
    if len(marks) == 1 and marks[0].children:
        return marks[0].children
    return marks


def outline(reader: PdfReader, html: str) -> list[Bookmark]:
    """Sections, their subsections, the cards: Chromium's outline of the headings without the
    title, and every card of the index in it."""
    marks = bookmarks(reader)
    if name_headings(marks, html):  # else which cards are headings is unknown: headings only
        add_entries(marks, reader, html)
    return sections_first(marks)


def _read(pdf: Path) -> PdfReader:
    try:
        return PdfReader(pdf)
    except (OSError, PyPdfError) as err:
        raise DocsError(f"cannot read the PDF Chromium printed ({pdf}): {err}") from None


# -- printing ------------------------------------------------------------------------------------

def chromium_print(html_path: Path, pdf_path: Path, timeout: float = sheets.TIMEOUT) -> None:
    """Print an HTML file with headless Chromium: no browser header or footer (the page's @page
    margin boxes number the pages), an outline of the headings."""
    pdf_path.unlink(missing_ok=True)
    # --print-to-pdf-no-header: the older name of --no-pdf-header-footer (before Chromium 111).
    sheets.run_chromium(["--no-pdf-header-footer", "--print-to-pdf-no-header", "--generate-pdf-document-outline",
                         f"--print-to-pdf={pdf_path}", html_path.resolve().as_uri()], timeout)
    if not pdf_path.is_file() or pdf_path.stat().st_size == 0:
        raise DocsError(f"Chromium finished but wrote no PDF at {pdf_path}")


def print_reference(html: str, pdf_path: Path, options: PrintOptions | None = None,
                    timeout: float = sheets.TIMEOUT) -> None:
    """Print the reference (the text of reference.html) to `pdf_path`: paper (A4 unless `options`
    say otherwise), page numbers in the contents and the index, an outline by section, subsection
    and card."""
    copy = printed_copy(html, options or PrintOptions())
    anchors = slot_anchors(copy)
    with tempfile.TemporaryDirectory(prefix="nidavellir-print-", ignore_cleanup_errors=True) as tmp:
        page_html, printed = Path(tmp) / "reference.html", Path(tmp) / "reference.pdf"
        pages: dict[str, int] | None = None
        for _ in range(MAX_PRINTS):
            page_html.write_text(fill_pages(copy, pages), encoding="utf-8")
            chromium_print(page_html, printed, timeout)
            reader = _read(printed)
            found = anchor_pages(reader)
            missing = [a for a in anchors if a not in found]
            if missing:
                raise DocsError(f"the printed reference has no page for {', '.join(missing[:5])}")
            now = {a: found[a] for a in anchors}
            if now == pages or not anchors:
                break
            pages = now
        else:
            raise DocsError(f"the page numbers of the contents did not settle after {MAX_PRINTS} prints")
        _write_with_outline(reader, outline(reader, copy), Path(pdf_path))


def _write_with_outline(reader: PdfReader, marks: list[Bookmark], pdf_path: Path) -> None:
    """Copy the PDF with `marks` as its outline, shown when it opens."""
    writer = PdfWriter(clone_from=reader)
    writer.get_outline_root().empty_tree()

    def add(items: list[Bookmark], parent: IndirectObject | None) -> None:
        for mark in items:
            fit = Fit.xyz(left=mark.left, top=mark.top) if mark.top is not None else Fit.fit()
            ref = writer.add_outline_item(title=mark.title, page_number=mark.page, parent=parent,
                                          fit=fit, is_open=False)
            add(mark.children, ref)
    add(marks, None)
    writer.page_mode = "/UseOutlines"
    try:
        pdf_path.parent.mkdir(parents=True, exist_ok=True)
        with open(pdf_path, "wb") as out:
            writer.write(out)
    except OSError as err:
        raise DocsError(f"cannot write {pdf_path}: {err.strerror or err}") from None
