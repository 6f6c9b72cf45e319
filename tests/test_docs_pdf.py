"""The printed rule reference (compiler/docs/pdf.py): paper, page numbers, the contents' and the
card index's page numbers, the outline, headings kept with what follows, numbers kept whole.

Issue 9, "The printed reference":
  "A4 by default for every PDF …, `--paper a4|letter`."
  "Page numbers on every page; the table of contents and the card index give page numbers; the
   PDF has an outline (bookmarks) by section and card."
  "Headings keep with what follows (no heading alone at a page bottom), tables do not split a row,
   narrow cells do not wrap numbers."

The Chromium tests skip with a reason when chromium or poppler-utils is missing, except under
CI=true, where they fail (as tests/test_sheets.py decides): .ci/run installs them. Each rule set
and language is printed once per module (two Chromium runs each: the print that finds the pages
and the print with the numbers).
"""
from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from nidavellir.compiler import docs
from nidavellir.compiler.docs import pdf as printing
from nidavellir.compiler.docs.errors import DocsError
from nidavellir.compiler.docs.options import PrintOptions
from nidavellir.compiler.docs.text import Catalog
from pypdf import PdfReader
from pypdf.generic import Destination

from test_sheets import need

BOXES = ("thingvellir", "idavoll")
MM = 72 / 25.4                      # PDF points per millimetre
A4, LETTER = (595, 842), (612, 792)  # points
FOOTER_MM = 18                      # the bottom page margin, where the page number is




# -- reading the HTML and the PDF -----------------------------------------------------------------

@dataclass
class Line:
    page: int        # 1-based
    top: float       # points from the top of the page
    bottom: float
    text: str


@dataclass
class Mark:
    title: str
    depth: int       # 0: a section
    page: int        # 1-based
    top: float       # points from the top of the page
    children: list[Mark]


@dataclass
class Printed:
    html: str        # reference.html (the screen page, whose slots are empty)
    pdf: Path

    def __post_init__(self) -> None:
        self.reader = PdfReader(self.pdf)
        self.height = float(self.reader.pages[0].mediabox.height)
        text = subprocess.run(["pdftotext", "-layout", str(self.pdf), "-"], check=True, capture_output=True,
                              text=True, timeout=60).stdout
        self.pages = text.split("\f")[:len(self.reader.pages)]  # layout text of each page
        self.lines = _bbox_lines(self.pdf)
        self.marks = _marks(self.reader, self.reader.outline, 0)

    def lines_on(self, page: int) -> list[Line]:
        """The lines of a page, top to bottom."""
        return sorted((line for line in self.lines if line.page == page), key=lambda line: line.top)

    def words_on(self, page: int) -> str:
        """The text of a page in reading order, on one line."""
        return " ".join(line.text for line in self.lines if line.page == page)


def _bbox_lines(pdf: Path) -> list[Line]:
    """Every text line of the PDF with where it is (pdftotext -bbox-layout), top to bottom."""
    xml = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], check=True, capture_output=True,
                         text=True, timeout=60).stdout
    lines = []
    for number, page in enumerate(re.findall(r"<page .*?</page>", xml, re.DOTALL), 1):
        for attrs, body in re.findall(r"<line ([^>]*)>(.*?)</line>", page, re.DOTALL):
            box = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
            words = [html.unescape(w) for w in re.findall(r"<word [^>]*>(.*?)</word>", body)]
            lines.append(Line(number, float(box["yMin"]), float(box["yMax"]), " ".join(words)))
    return lines  # in reading order: block by block (a table cell's lines together)


def _marks(reader: PdfReader, items: list, depth: int) -> list[Mark]:
    out: list[Mark] = []
    height = float(reader.pages[0].mediabox.height)
    for item in items:
        if isinstance(item, list):
            assert out, "an outline's first entry has children of nobody"
            out[-1].children = _marks(reader, item, depth + 1)
        else:
            assert isinstance(item, Destination)
            top = height - float(item["/Top"])
            out.append(Mark(str(item.title), depth, reader.get_destination_page_number(item) + 1, top, []))
    return out


def _all(marks: list[Mark]) -> list[Mark]:
    return [m for mark in marks for m in [mark, *_all(mark.children)]]


def _section(text: str, anchor: str) -> str:
    """reference.html from the h2 with id `anchor` to the next h2."""
    start = text.index(f'<h2 id="{anchor}"')
    stop = text.find("<h2", start + 1)
    return text[start:stop if stop > 0 else len(text)]


def _slotted(text: str, anchor: str) -> list[tuple[str, str]]:
    """(anchor, title) of the links with a page slot in the section `anchor` (the contents, the index)."""
    found = re.findall(r'<a href="#([^"]+)">(.*?)</a><span class="page" data-page="([^"]+)">', _section(text, anchor))
    assert all(a == slot for a, _, slot in found)
    return [(a, html.unescape(re.sub(r"<[^>]+>", "", title))) for a, title, _ in found]


def _numbered(printed: Printed, titles: list[str], first_page: int = 1) -> dict[str, int]:
    """The page number the printed contents or index gives each title, the first found from
    `first_page` on (title, leader, number: pdftotext -layout shows the number after two or more
    spaces; the index has two columns)."""
    text = "\n".join(printed.pages[first_page - 1:])
    numbers = {}
    for title in titles:
        found = re.search(r"(?:^|\s{2})\s*" + re.escape(title) + r"\s{2,}(\d+)(?=\s{2}|\s*$)", text, re.MULTILINE)
        assert found, f"no page number printed for {title!r}"
        numbers[title] = int(found[1])
    return numbers


def _headings(printed: Printed) -> list[Mark]:
    """The outline's entries that are headings of the page (h1–h4, matched in order by their text;
    the other entries are cards in table rows)."""
    titles = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", t)).split())
              for t in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", printed.html, re.DOTALL)]
    if titles and titles[0] not in [mark.title for mark in printed.marks]:
        titles.pop(0)  # the title (h1), which the reference's outline leaves out
    found = []
    for mark in _all(printed.marks):
        if titles and mark.title == titles[0]:
            found.append(mark)
            titles.pop(0)
    assert not titles, f"headings not in the outline: {titles[:5]}"
    return found


def lone_headings(printed: Printed) -> list[str]:
    """Headings (where the outline puts them) with no text after them on their page but the page
    number: a heading alone at a page bottom."""
    footer_top = printed.height - FOOTER_MM * MM
    alone = []
    for mark in _headings(printed):
        below = [line for line in printed.lines_on(mark.page) if line.bottom > mark.top + 1]
        title, taken = " ".join(mark.title.split()), ""
        while below and (taken + " " + below[0].text).strip() in title and taken != title:
            taken = (taken + " " + below.pop(0).text).strip()  # the heading's own lines
        assert taken == title, f"heading {title!r} not found on page {mark.page} where the outline puts it"
        if not [line for line in below if line.top < footer_top]:
            alone.append(f"{title} (page {mark.page})")
    return alone


# -- the prints ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def boxes_en(tmp_path_factory: pytest.TempPathFactory) -> Printed:
    """All three boxes in English, through `docs.write` with the default options."""
    need("pdfinfo", "pdftotext")
    out = tmp_path_factory.mktemp("pdf-en")
    written = docs.write(docs.compile_rules(BOXES), Catalog.load("en"), "pdf", out)
    assert out / "reference.pdf" in written
    return Printed((out / "reference.html").read_text(encoding="utf-8"), out / "reference.pdf")


@pytest.fixture(scope="module")
def boxes_be(tmp_path_factory: pytest.TempPathFactory) -> Printed:
    """All three boxes in Belarusian."""
    need("pdfinfo", "pdftotext")
    out = tmp_path_factory.mktemp("pdf-be")
    text = docs.render(docs.compile_rules(BOXES), Catalog.load("be"), "html")
    printing.print_reference(text, out / "reference.pdf")
    return Printed(text, out / "reference.pdf")


@pytest.fixture(scope="module")
def base_letter(tmp_path_factory: pytest.TempPathFactory) -> Printed:
    """The base game in English on US Letter."""
    need("pdfinfo", "pdftotext")
    out = tmp_path_factory.mktemp("pdf-letter")
    text = docs.render(docs.compile_rules(), Catalog.load("en"), "html")
    printing.print_reference(text, out / "reference.pdf", PrintOptions(paper="letter"))
    return Printed(text, out / "reference.pdf")


@pytest.fixture(params=["en", "be"])
def printed(request: pytest.FixtureRequest) -> Printed:
    return request.getfixturevalue(f"boxes_{request.param}")


def _page_sizes(pdf: Path) -> list[tuple[float, float]]:
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "9999", str(pdf)], check=True, capture_output=True,
                          text=True, timeout=60).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE)]


# -- paper -------------------------------------------------------------------------------------------

def test_reference_is_a4_by_default(boxes_en: Printed) -> None:
    """Issue: "A4 by default for every PDF (today the reference is US Letter …)" — every page
    595 × 842 pt (210 × 297 mm)."""
    sizes = _page_sizes(boxes_en.pdf)
    assert len(sizes) == len(boxes_en.reader.pages) > 10
    assert all(abs(w - A4[0]) <= 1 and abs(h - A4[1]) <= 1 for w, h in sizes), sizes[:3]


def test_reference_on_letter_paper(base_letter: Printed) -> None:
    """Issue: "`--paper a4|letter`" — with paper="letter" every page is 612 × 792 pt, and the
    page numbers follow the paper."""
    sizes = _page_sizes(base_letter.pdf)
    assert sizes and all(abs(w - LETTER[0]) <= 1 and abs(h - LETTER[1]) <= 1 for w, h in sizes), sizes[:3]
    assert [page.split()[-1] for page in base_letter.pages] == [str(i) for i in range(1, len(sizes) + 1)]


def test_unknown_paper_is_an_error_not_a_traceback() -> None:
    with pytest.raises(DocsError, match=r"unknown paper `a5` \(choose from: a4, letter\)"):
        printing.printed_copy("<html><head></head><body></body></html>", PrintOptions(paper="a5"))


# -- page numbers --------------------------------------------------------------------------------------

def test_every_page_has_its_number_at_the_bottom(printed: Printed) -> None:
    """Issue: "Page numbers on every page" — the last line of page i is "i", in the bottom margin."""
    count = len(printed.reader.pages)
    for i in range(1, count + 1):
        last = printed.lines_on(i)[-1]
        assert last.text == str(i), f"page {i} ends with {last.text!r}"
        assert last.top > printed.height - FOOTER_MM * MM, f"page {i}: the number is not at the bottom"


def test_contents_give_the_page_of_each_section(printed: Printed) -> None:
    """Issue: "the table of contents … give[s] page numbers" — each number is the page where the
    section's heading is printed (a line of the sections' heading size with the title)."""
    sections = _slotted(printed.html, "contents")
    assert len(sections) >= 10
    numbers = _numbered(printed, [title for _, title in sections])
    contents_title = re.search(r'<h2 id="contents">(.*?)</h2>', printed.html)
    assert contents_title
    size = next(line.bottom - line.top for line in printed.lines if line.text == html.unescape(contents_title[1]))
    headings = {(line.text, line.page) for line in printed.lines if abs((line.bottom - line.top) - size) < .5}
    for _, title in sections:
        pages = [page for text, page in headings if text == title]
        assert pages == [numbers[title]], f"{title!r}: contents say page {numbers[title]}, printed on {pages}"


def test_card_index_gives_the_page_of_each_card(printed: Printed) -> None:
    """Issue: "the card index give[s] page numbers" — each card's number is the page where its
    entry is printed (a card's heading, or the first cell of its row in a table): its name is
    there, and so is its bookmark in the outline."""
    cards = _slotted(printed.html, "index")
    assert len(cards) > 80
    sections = _slotted(printed.html, "contents")
    index_page = _numbered(printed, [title for anchor, title in sections if anchor == "index"])
    numbers = _numbered(printed, [name for _, name in cards], *index_page.values())
    deepest: dict[str, list[int]] = {}
    for mark in _all(printed.marks):
        if mark.depth == 2:
            deepest.setdefault(mark.title, []).append(mark.page)
    for _, name in cards:
        page = numbers[name]
        assert name in printed.words_on(page), f"{name!r} is not on page {page}"
        assert page in deepest.get(name, []), f"{name!r}: index says {page}, the outline {deepest.get(name)}"


# -- outline ------------------------------------------------------------------------------------------

def test_outline_by_section_subsection_and_card(printed: Printed) -> None:
    """Issue: "the PDF has an outline (bookmarks) by section and card" — the sections at the top
    (every section of the contents, at its page), their subsections below, the cards below those;
    the document opens with the outline shown."""
    sections = _slotted(printed.html, "contents")
    numbers = _numbered(printed, [title for _, title in sections])
    top = {mark.title: mark for mark in printed.marks}
    assert len(top) == len(printed.marks)
    for _, title in sections:
        assert title in top, f"section {title!r} is not in the outline"
        assert top[title].page == numbers[title]
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", printed.html)
    assert h1 and html.unescape(h1[1]) not in top  # the title is the document, not a section
    cards = {name for _, name in _slotted(printed.html, "index")}
    nested = {card.title for mark in printed.marks for group in mark.children for card in group.children}
    assert cards <= nested, f"cards not under a section and subsection: {sorted(cards - nested)[:5]}"
    assert max(mark.depth for mark in _all(printed.marks)) == 2
    assert printed.reader.trailer["/Root"].get("/PageMode") == "/UseOutlines"


# -- keeping things together ----------------------------------------------------------------------------

def test_no_heading_alone_at_a_page_bottom(printed: Printed) -> None:
    """Issue: "Headings keep with what follows (no heading alone at a page bottom)" — after every
    heading something more than the page number follows on its page."""
    assert len(_headings(printed)) > 50
    assert lone_headings(printed) == []


def test_the_heading_check_finds_a_lone_heading(tmp_path: Path) -> None:
    """The check above can fail: a heading pushed to the bottom of the page by a spacer, with
    nothing keeping it with its text, is found."""
    need("pdfinfo", "pdftotext")
    page = tmp_path / "lone.html"
    page.write_text("<!DOCTYPE html><html><head><style>@page { size: A4; margin: 20mm 20mm 18mm;"
                    " @bottom-center { content: counter(page); } } h2 { break-after: auto; margin: 0 }"
                    "</style></head><body><h1>Title</h1><div style='height: 225mm'></div>"
                    "<h2>Lone heading</h2><p style='break-inside: avoid'>" + "Some text. " * 60 + "</p>"
                    "</body></html>", encoding="utf-8")
    printing.chromium_print(page, tmp_path / "lone.pdf")
    assert lone_headings(Printed(page.read_text(encoding="utf-8"), tmp_path / "lone.pdf")) == ["Lone heading (page 1)"]


def test_long_tables_repeat_their_header_and_keep_each_row_whole(tmp_path: Path) -> None:
    """Issue: "tables do not split a row" — a table longer than a page, printed with the
    reference's style sheet, has its header row on each page and every row (seven lines tall)
    whole on one page."""
    need("pdftotext")
    css = (Path(printing.__file__).parent / "templates" / "reference.css").read_text(encoding="utf-8")
    lines = "<br>".join(f"line {i}" for i in range(5))  # tall rows: without the style sheet some split
    rows = "".join(f"<tr><td>Row {n} top<br>{lines}<br>Row {n} bottom</td><td>{n}</td></tr>" for n in range(1, 41))
    page = tmp_path / "table.html"
    page.write_text(printing.printed_copy(f"<!DOCTYPE html><html><head><style>{css}</style></head><body><main>"
                                          f"<table><thead><tr><th>Head of the table</th><th>N</th></tr></thead>"
                                          f"<tbody>{rows}</tbody></table></main></body></html>", PrintOptions()),
                    encoding="utf-8")
    printing.chromium_print(page, tmp_path / "table.pdf")
    text = subprocess.run(["pdftotext", str(tmp_path / "table.pdf"), "-"], check=True, capture_output=True,
                          text=True, timeout=60).stdout.split("\f")[:-1]
    assert len(text) >= 3
    for number, body in enumerate(text, 1):
        assert "Head of the table" in body, f"page {number} has no header row"
    for n in range(1, 41):
        pages = [i for i, body in enumerate(text) if f"Row {n} top" in body or f"Row {n} bottom" in body]
        assert len(pages) == 1, f"row {n} is split over pages {pages}"


def test_numbers_are_not_broken_across_lines(printed: Printed) -> None:
    """Issue: "narrow cells do not wrap numbers" (and "a header breaking "1-й"") — no printed
    line ends inside a number with a hyphen or dash, and every numeric table cell (digits, at most
    a short suffix) is printed on one line."""
    broken = [line.text for line in printed.lines if re.search(r"\d[-‐–—]$", line.text)]
    assert broken == []
    cells = {html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<t[hd]>(.*?)</t[hd]>", printed.html)}
    numeric = {c for c in cells if re.search(r"\d", c) and re.search(r"[\s\-–]", c)
               and sum(ch.isalpha() for ch in c) <= 3}
    assert numeric, "no numeric cell with a space or dash to check"
    texts = [line.text for line in printed.lines]
    assert [c for c in numeric if not any(c in t for t in texts)] == []


def test_printed_copy_keeps_numbers_whole_and_sets_the_paper() -> None:
    """The printed copy wraps numeric cells and hyphenated numbers in a no-wrap span (not inside
    tags or attributes) and sets the paper."""
    page = ('<html><head><style>p {}</style></head><body><table><tr><th>Тальля 1-й эпохі</th>'
            '<td>1, 2, 3, 4, 5</td><td><a href="#age-1-x">Warrior 3</a> or Miner 1 and words</td></tr></table>'
            '<p>In 5–6 turns, return 2 × 7 and 1 × Blacksmith; Age 1 (&#39;8-9&#39;)</p></body></html>')
    copy = printing.printed_copy(page, PrintOptions(paper="letter"))
    assert "<style>@page { size: 215.9mm 279.4mm; }</style>" in copy
    assert '<th>Тальля <span class="nowrap">1-й</span> эпохі</th>' in copy  # words: not a number cell
    assert '<td><span class="num nowrap">1, 2, 3, 4, 5</span></td>' in copy
    assert ('<td><a href="#age-1-x"><span class="nowrap">Warrior 3</span></a> or <span class="nowrap">Miner 1'
            '</span> and words</td>') in copy
    assert ('<p>In <span class="nowrap">5–6</span> turns, return <span class="nowrap">2 × 7</span> and '
            '<span class="nowrap">1 × Blacksmith</span>; Age 1 (<span class="nowrap">\'8-9\'</span>)</p>') in copy


# -- the screen page and Markdown --------------------------------------------------------------------

def test_screen_page_keeps_its_slots_empty_and_markdown_has_none() -> None:
    """Page numbers make no sense on screen: reference.html has an empty, hidden slot after each
    link of the contents and the index (filled only in the printed copy); Markdown has none."""
    compiled, cat = docs.compile_rules(), Catalog.load("en")
    text, md = docs.render(compiled, cat, "html"), docs.render(compiled, cat, "md")
    slots = re.findall(r'<span class="page" data-page="[^"]+">([^<]*)</span>', text)
    assert len(slots) == len(_slotted(text, "contents")) + len(_slotted(text, "index")) > 50
    assert set(slots) == {""}
    assert ".page:empty { display: none; }" in text
    assert "data-page" not in md and 'class="page"' not in md
    filled = printing.fill_pages(text, {anchor: 7 for anchor in printing.slot_anchors(text)})
    assert set(re.findall(r'<span class="page" data-page="[^"]+">([^<]*)</span>', filled)) == {"7"}
    assert set(re.findall(r'data-page="[^"]+">([^<]*)<', printing.fill_pages(text, None))) == {"0"}
