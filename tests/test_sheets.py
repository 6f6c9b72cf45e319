"""Printable card sheets (compiler/sheets.py): HTML with print CSS, PDF and layout via headless Chromium.

The Chromium tests skip with a reason when chromium or poppler-utils is missing, except under
CI=true, where they fail: .ci/run installs them.
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.docs import card_views, sheet_fit, sheets
from nidavellir.compiler.docs.sheets import (
    DocsError,
    card_sheet_html,
    pdf_from_html,
    run_chromium,
)
from nidavellir.compiler.docs.text import Catalog

IN_CI = os.environ.get("CI") == "true"
PX_PER_MM = 96 / 25.4  # CSS pixels at 96 dpi
CARD_W, CARD_H = 63 * PX_PER_MM, 88 * PX_PER_MM  # ≈ 238.1 × 332.6 px


def need(*tools: str) -> None:
    """Skip (fail under CI=true) unless Chromium and the named programs are installed."""
    missing = [t for t in tools if shutil.which(t) is None]
    try:
        sheets.chromium()
    except DocsError as err:
        missing.insert(0, f"chromium ({err})")
    if missing:
        reason = "not installed: " + ", ".join(missing) + " (apt-get install chromium poppler-utils)"
        if IN_CI:
            pytest.fail(f"CI=true: {reason}; .ci/run should have installed it")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return Catalog.load("en")


@pytest.fixture(scope="module")
def compiled() -> Compiled:
    return compile_specs(layer_specs())


@pytest.fixture(scope="module")
def cards(compiled: Compiled, cat: Catalog) -> list[dict]:
    """The base game's cards as the reference shows them (generated rule text)."""
    return card_views(compiled, cat)


@pytest.fixture(scope="module")
def sheet(cards: list[dict], cat: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sheet") / "cards.html"
    path.write_text(card_sheet_html(cards, cat), encoding="utf-8")
    return path


class _Pages(HTMLParser):
    """Card ids and texts per `section.page`, and the cut marks of each page."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: list[list[dict]] = []
        self.cuts: list[int] = []
        self._card: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "section" and "page" in classes:
            self.pages.append([])
            self.cuts.append(0)
        elif "cut" in classes:
            self.cuts[-1] += 1
        elif tag == "article" and "card" in classes:
            self._card = {"id": a["data-id"], "text": ""}
            self.pages[-1].append(self._card)

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._card = None

    def handle_data(self, data: str) -> None:
        if self._card is not None:
            self._card["text"] += data


def test_sheet_html_has_nine_cards_per_page(cards: list[dict], cat: Catalog) -> None:
    """Issue: "poker-size cards (63 × 88 mm), nine to an A4 page with cut marks": the base game's
    46 cards make 6 page containers of 9, 9, 9, 9, 9 and 1 cards, one card per card id, each
    showing its name, class, ranks and rule text; each full page has its 16 cut marks, and the
    last page, holding one card, only the 8 marks of that card's cut lines (issue 9: "No empty
    last slots with cut marks")."""
    page = card_sheet_html(cards, cat)
    parsed = _Pages()
    parsed.feed(page)
    assert len(cards) == 46
    assert [len(p) for p in parsed.pages] == [9, 9, 9, 9, 9, 1]
    assert parsed.cuts == [16] * 5 + [8]
    shown = [c for p in parsed.pages for c in p]
    assert [c["id"] for c in shown] == [c["id"] for c in cards]
    for view, card in zip(cards, shown):
        text = " ".join(card["text"].split())
        label = view["class_label"] if view["kind"] in ("dwarf", "hero") else ""
        for part in (view["name"], label, view["ranks_label"], *view["text"]):
            assert " ".join(part.split()) in text, (view["id"], part)
    assert "@page { size: 210mm 297mm; margin: 0; }" in page
    assert "Cut along the marks" in page and "<title>Nidavellir — printable cards</title>" in page


def test_text_is_escaped_and_long_text_gets_a_smaller_font(cards: list[dict], cat: Catalog) -> None:
    """Issue: "poker-size cards (63 × 88 mm), nine to an A4 page with cut marks" — a long rule text
    still fits its card: the longer the text, the smaller its font (9, 8, 7.25, then 6.5 pt, the
    smallest readable size; issue 9: "never silently shrunk below a readable size (≥ 6.5 pt)")."""
    parts = sheet_fit.Parts(name="Warrior 3", label="Warrior", ranks="Ranks: 1, worth 3")
    sentence = "When you recruit this hero, transform one of your coins by adding 7 to its value. "

    def step(n: int) -> str | None:
        found = sheet_fit.fitting_step([(sentence * 40)[:n]], parts, "en")
        return found.cls if found else None

    steps = [step(n) for n in range(10, 2000, 10)]
    assert steps[0] == "len-s" and steps[-1] is None
    order = ["len-s", "len-m", "len-l", "len-xl", None]
    assert [order.index(s) for s in steps] == sorted(order.index(s) for s in steps)  # never larger again
    assert set(steps) == set(order)
    assert [(s.cls, s.pt) for s in sheet_fit.STEPS] == [("len-s", 9), ("len-m", 8), ("len-l", 7.25), ("len-xl", 6.5)]
    sizes = [float(pt) for pt in re.findall(r"\.card\.len-\w+ \.text \{ font-size: ([\d.]+)pt", _css())]
    assert sizes == [9, 8, 7.25, 6.5]
    card = dict(cards[0], name="<b>Odd & Co</b>", text=["a < b"])
    page = card_sheet_html([card], cat)
    assert "&lt;b&gt;Odd &amp; Co&lt;/b&gt;" in page and "a &lt; b" in page and "<b>Odd" not in page


def _css() -> str:
    return (Path(sheets.__file__).parent / "templates" / "cards.css").read_text(encoding="utf-8")


# -- with headless Chromium ------------------------------------------------------------------

def _pdftotext(pdf: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(["pdftotext", *pages, str(pdf), "-"], check=True, capture_output=True,
                          text=True, timeout=60).stdout


def test_pdf_has_six_a4_pages_with_every_card(sheet: Path, cards: list[dict], tmp_path: Path) -> None:
    """Issue: "poker-size cards (63 × 88 mm), nine to an A4 page with cut marks": Chromium prints the
    sheet to a PDF of 6 A4 pages; every card's name is in it and page 1 holds exactly nine."""
    need("pdfinfo", "pdftotext")
    pdf = tmp_path / "cards.pdf"
    pdf_from_html(sheet, pdf)
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True, timeout=60).stdout
    assert re.search(r"^Pages:\s+6$", info, re.MULTILINE), info
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE)
    assert size and abs(float(size[1]) - 595.3) < 1 and abs(float(size[2]) - 841.9) < 1, info
    names = [c["name"] for c in cards]

    def names_on(text: str) -> list[str]:  # a card's name is a line of its own (class labels differ)
        lines = {line.strip() for line in text.splitlines()}
        return [n for n in names if n in lines]

    assert names_on(_pdftotext(pdf)) == names
    assert names_on(_pdftotext(pdf, 1)) == names[:9]
    assert names_on(_pdftotext(pdf, 6)) == names[45:]
    assert "Cut along the marks" in _pdftotext(pdf, 1)


MEASURE = """<script>
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
const page = document.querySelector('.page');
const out = {
  page: box(page),
  cards: [...page.querySelectorAll('.card')].map(box),
  cuts: [...page.querySelectorAll('.cut')].map(box),
  notes: [...page.querySelectorAll('.note')].map(box),
  overflow: [...document.querySelectorAll('.card:not(.back)')].filter(c => {
    const t = c.querySelector('.text');
    return t.scrollHeight > t.clientHeight + 0.5 || c.scrollHeight > c.clientHeight + 0.5
      || c.scrollWidth > c.clientWidth + 0.5;
  }).map(c => c.dataset.id),
  fitted: [...document.querySelectorAll('.card[data-fitted]')].map(c => c.dataset.id),
  marked: [...document.querySelectorAll('.card.overflow')].map(c => c.dataset.id),
  sizes: Object.fromEntries([...document.querySelectorAll('.card:not(.back)')].map(
    c => [c.dataset.id, Math.round(parseFloat(getComputedStyle(c.querySelector('.text')).fontSize) * 75) / 100])),
};
const pre = document.createElement('pre');
pre.id = 'measured';
pre.textContent = JSON.stringify(out);
document.body.append(pre);
</script>"""


def _measure(page_html: str, tmp_path: Path) -> dict:
    """Open the page in headless Chromium and return what MEASURE found (from --dump-dom)."""
    path = tmp_path / "measure.html"
    path.write_text(page_html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = run_chromium(["--window-size=1000,1200", "--dump-dom", path.as_uri()])
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.DOTALL)
    assert found, dom[-2000:]
    return json.loads(html.unescape(found[1]))


def test_nine_cards_lay_out_on_a_page_in_chromium(sheet: Path, tmp_path: Path) -> None:
    """Issue: "poker-size cards (63 × 88 mm), nine to an A4 page with cut marks": in Chromium the
    first page's nine cards are 63 × 88 mm each (238 × 333 px at 96 dpi, within 1 px), in three
    columns and three rows, touching, centred on the 210 × 297 mm page; its 16 cut marks lie in the
    margins on the card edges, clear of the page's notes (the rule set above the cards, cutting and
    the page number below); no card's text overflows, and the font size chosen by text length fits
    every card without the sheet's script stepping down."""
    need()
    m = _measure(sheet.read_text(encoding="utf-8"), tmp_path)
    px, py, pw, ph = m["page"]
    assert abs(pw - 210 * PX_PER_MM) < 1 and abs(ph - 297 * PX_PER_MM) < 1
    assert len(m["cards"]) == 9
    for _, _, w, h in m["cards"]:
        assert abs(w - CARD_W) < 1 and abs(h - CARD_H) < 1
    xs = sorted({round(x - px, 1) for x, *_ in m["cards"]})
    ys = sorted({round(y - py, 1) for _, y, *_ in m["cards"]})
    assert len(xs) == 3 and len(ys) == 3
    margin_x, margin_y = 10.5 * PX_PER_MM, 16.5 * PX_PER_MM
    assert all(abs(x - (margin_x + i * CARD_W)) < 1 for i, x in enumerate(xs)), xs
    assert all(abs(y - (margin_y + i * CARD_H)) < 1 for i, y in enumerate(ys)), ys
    assert len(m["cuts"]) == 16
    left, top, right, bottom = px + margin_x, py + margin_y, px + margin_x + 3 * CARD_W, py + margin_y + 3 * CARD_H
    edges_x = [left + i * CARD_W for i in range(4)]
    edges_y = [top + i * CARD_H for i in range(4)]
    for x, y, w, h in m["cuts"]:
        assert x + w <= left + 0.5 or x >= right - 0.5 or y + h <= top + 0.5 or y >= bottom - 0.5  # in a margin
        assert x >= px and y >= py and x + w <= px + pw and y + h <= py + ph  # on the page
        centre = (x + w / 2) if h > w else (y + h / 2)
        assert min(abs(centre - e) for e in (edges_x if h > w else edges_y)) < 0.5  # on a card edge
    (_, ty, _, th), (_, ny, _, nh) = m["notes"]  # the rule set; "Cut along the marks"
    assert py <= ty and ty + th <= top and th > 0
    assert ny >= bottom and ny + nh <= py + ph and nh > 0
    for x0, y0, w0, h0 in m["notes"]:
        assert not any(x < x0 + w0 and x0 < x + w and y < y0 + h0 and y0 < y + h for x, y, w, h in m["cuts"])
    assert m["overflow"] == [] and m["fitted"] == []


def test_each_font_step_fits_a_card_at_its_limit(cat: Catalog, tmp_path: Path) -> None:
    """Issue 9: "text that does not fit is a located warning naming the card, never silently shrunk
    below a readable size (≥ 6.5 pt)": the text estimated to fit at a size (the longest, at each
    size, of long sentences and of short ones, with a name on two lines, a class line on two lines
    and a 5-player mark) does fit there in Chromium, without the sheet's script stepping down; a
    text beyond the smallest size is printed at 6.5 pt, not smaller, and marked on the card."""
    need()
    long_sentence = ("When you recruit this hero, transform one of your coins, except the trading coin, "
                     "by adding 7 to its value.")
    short_sentence = "Gain the special gem 6 at once."

    def face(cid: str, text: list[str]) -> sheets.Face:
        return sheets.Face(cid, cid, "Fafnir Báleygr, Dragon of the Deep Mountain Halls", "mercenary", "mercenary",
                           "Mercenary · Blacksmith or Explorer", "Blacksmith / Explorer 8", text,
                           pile="Camp · Age 1", players="5+ players")

    def text_of(sentence: str, words: int) -> list[str]:
        """Sentences of `sentence`, `words` words in all, the last one cut short."""
        per = sentence.split()
        full, rest = divmod(words, len(per))
        return [sentence] * full + ([" ".join(per[:rest])] if rest else [])

    def longest(cid: str, sentence: str, step: sheet_fit.Step) -> sheets.Face:
        parts = sheets.parts_of(face(cid, []))
        words = 1
        while sheet_fit.fitting_step(text_of(sentence, words + 1), parts, "en") in (step, *_larger(step)):
            words += 1
        found = face(cid, text_of(sentence, words))
        assert sheet_fit.fitting_step(found.text, parts, "en") == step, cid
        return found

    faces = [longest(f"{step.cls}-{kind}", sentence, step) for step in sheet_fit.STEPS
             for kind, sentence in (("long", long_sentence), ("short", short_sentence))]
    faces.append(face("too-long", [long_sentence] * 14))
    page = card_sheet_html(faces, cat)  # sizes each face as the sheet does
    assert [f.too_long for f in faces] == [False] * 8 + [True]
    assert [f.size for f in faces] == [s.cls for s in sheet_fit.STEPS for _ in range(2)] + ["len-xl"]
    m = _measure(page, tmp_path)
    assert m["fitted"] == [] and m["overflow"] == ["too-long"] and m["marked"] == ["too-long"]
    assert m["sizes"] == {**{f.id: s.pt for f in faces[:-1] for s in sheet_fit.STEPS if s.cls == f.size},
                          "too-long": 6.5}


def _larger(step: sheet_fit.Step) -> tuple[sheet_fit.Step, ...]:
    return sheet_fit.STEPS[:sheet_fit.STEPS.index(step)]


def test_belarusian_cards_fit_too(compiled: Compiled, tmp_path: Path) -> None:
    """Issue: "poker-size cards (63 × 88 mm), nine to an A4 page with cut marks" — in Belarusian
    (longer words) every base card's text fits its card at the size chosen by its length."""
    need()
    be = Catalog.load("be")
    views = card_views(compiled, be)
    page = card_sheet_html(views, be)
    assert '<html lang="be">' in page and "Разрэжце" in page
    m = _measure(page, tmp_path)
    assert len(m["cards"]) == 9 and m["overflow"] == [] and m["fitted"] == []


def test_screenshot_of_the_sheet(sheet: Path, tmp_path: Path) -> None:
    """Issue: "poker-size cards (63 × 88 mm), nine to an A4 page with cut marks": a screenshot of
    the sheet's first page (sheet.png under the test's tmp_path) is a real, non-blank image."""
    need()
    png = tmp_path / "sheet.png"
    run_chromium([f"--screenshot={png}", "--window-size=820,1140", "--hide-scrollbars", sheet.as_uri()])
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (820, 1140)
    assert len(data) > 20_000, f"{png} is {len(data)} bytes: a blank page?"


# -- Chromium missing or failing -----------------------------------------------------------------

def _fake(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "fake-chromium"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(0o755)
    return script


def test_missing_chromium_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Printing without Chromium says what to install, or that NIDAVELLIR_CHROMIUM is wrong."""
    (tmp_path / "x.html").write_text("<p>x</p>", encoding="utf-8")
    monkeypatch.delenv("NIDAVELLIR_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(DocsError, match="install Debian's chromium .* or set NIDAVELLIR_CHROMIUM"):
        pdf_from_html(tmp_path / "x.html", tmp_path / "x.pdf")
    monkeypatch.setenv("NIDAVELLIR_CHROMIUM", str(tmp_path / "no-such-chromium"))
    with pytest.raises(DocsError, match="NIDAVELLIR_CHROMIUM=.*no-such-chromium is not an executable"):
        pdf_from_html(tmp_path / "x.html", tmp_path / "x.pdf")


def test_failing_chromium_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """NIDAVELLIR_CHROMIUM picks the binary; its failure, silence or hang becomes a DocsError."""
    page = tmp_path / "x.html"
    page.write_text("<p>x</p>", encoding="utf-8")
    monkeypatch.setenv("NIDAVELLIR_CHROMIUM", str(_fake(tmp_path, 'echo "cannot open display" >&2; exit 3')))
    with pytest.raises(DocsError, match=r"failed with exit code 3:\ncannot open display"):
        pdf_from_html(page, tmp_path / "x.pdf")
    monkeypatch.setenv("NIDAVELLIR_CHROMIUM", str(_fake(tmp_path, "exit 0")))
    with pytest.raises(DocsError, match="wrote no PDF"):
        pdf_from_html(page, tmp_path / "x.pdf")
    monkeypatch.setenv("NIDAVELLIR_CHROMIUM", str(_fake(tmp_path, "exec sleep 30")))
    with pytest.raises(DocsError, match="did not finish within 1 s"):
        pdf_from_html(page, tmp_path / "x.pdf", timeout=1)
    with pytest.raises(DocsError, match="no such file"):
        pdf_from_html(tmp_path / "missing.html", tmp_path / "x.pdf")


def test_card_ids_are_printed_only_when_asked(compiled: Compiled, cat: Catalog):
    """Issue 18: "The cards' ids on the playtest sheet: `--ids` to print them (designers), off by
    default": without it no card's footer shows its id; with it every card's does."""
    from nidavellir.compiler.docs.options import PrintOptions

    plain = sheets.card_sheet(compiled, cat, PrintOptions(copies="one")).html
    assert '<span class="id">' not in plain
    shown = sheets.card_sheet(compiled, cat, PrintOptions(copies="one", ids=True)).html
    footers = re.findall(r'data-id="([^"]+)".*?<span class="id">([^<]*)</span></footer>', shown, re.S)
    ids = re.findall(r'<article class="card (?!back)[^"]*"[^>]*data-id="([^"]+)"', shown)
    assert ids and [a for a, _ in footers] == ids and all(html.unescape(a) == html.unescape(b) for a, b in footers)
