"""Card sheets as a playtest deck (issue 9, "The card sheets"): every copy the box holds or one of
each, copy counts, mirrored backs, bleed, paper, no empty framed slots, located warnings for a
text too long, no "NEUTRAL" on classless cards, the rule set and the house rules' marks; every card
of the three boxes printed to PDF in both languages.

The PDF tests skip with a reason when chromium or poppler-utils is missing, except under CI=true,
where they fail (tests/test_sheets.py `need`). Two Chromium runs in all, shared by a module fixture.
"""
from __future__ import annotations

import math
import re
import subprocess
from collections import Counter
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.docs import card_views
from nidavellir.compiler.docs.deck import Pile, box_copies, copy_counts
from nidavellir.compiler.docs.errors import DocsError
from nidavellir.compiler.docs.model import reference_context
from nidavellir.compiler.docs.options import PAPERS, PrintOptions
from nidavellir.compiler.docs.sheet_layout import CARD_H, CARD_W, max_bleed
from nidavellir.compiler.docs.sheets import (
    card_sheet,
    pdf_from_html,
    sheet_faces,
    sheet_warnings,
)
from nidavellir.compiler.docs.text import Catalog
from pypdf import PdfReader
from test_sheets import need

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]
ALL = ("thingvellir", "idavoll")
# Copies per kind (003 "Game Components"; 002 "24 Camp cards ... 6 new Hero cards and 2 Olwyn's
# Double cards"; 001 the mythology deck of 20 cards, and Gullinbursti).
BASE = {"dwarf": 87, "royal-offering": 5, "hero": 21, "distinction": 5}
THINGVELLIR = {"hero": 6, "artifact": 12, "mercenary": 12, "double": 2}
IDAVOLL = {"animal": 5, "god": 5, "giant": 5, "valkyrie": 5, "special": 1}


def expected(boxes: tuple[str, ...]) -> Counter[str]:
    out = Counter(BASE)
    for box, extra in (("thingvellir", THINGVELLIR), ("idavoll", IDAVOLL)):
        if box in boxes:
            out.update(extra)
    return out


@pytest.fixture(scope="module")
def rule_sets() -> dict[tuple[str, ...], Compiled]:
    return {boxes: compile_specs(layer_specs(boxes)) for boxes in BOXES}


@pytest.fixture(scope="module")
def en() -> Catalog:
    return Catalog.load("en")


@pytest.fixture(scope="module")
def be() -> Catalog:
    return Catalog.load("be")


class _Sheet(HTMLParser):
    """Per `section.page`: its side, cards (id, slot, left and top in mm, text), cut marks (kind and
    box in mm) and notes."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: list[dict[str, Any]] = []
        self._in: dict[str, Any] | None = None
        self._depth = 0

    @staticmethod
    def _box(style: str) -> dict[str, float]:
        return {k: float(v) for k, v in re.findall(r"(left|top|width|height): ([\d.]+)mm", style)}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if self._in is not None:
            self._depth += tag not in ("br", "i")
            return
        if tag == "section" and "page" in classes:
            self.pages.append({"side": classes[1], "cards": [], "cuts": [], "notes": []})
        elif tag == "i" and "cut" in classes:
            self.pages[-1]["cuts"].append((classes[1], self._box(a["style"])))
        elif tag == "article":
            self._in = {"id": a["data-id"], "slot": int(a["data-slot"]), **self._box(a["style"]), "text": "",
                        "back": a.get("data-back", ""), "classes": classes}
            self.pages[-1]["cards"].append(self._in)
            self._depth = 1
        elif tag == "p" and "note" in classes:
            self._in = {"text": "", **self._box(a["style"])}
            self.pages[-1]["notes"].append(self._in)
            self._depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self._in is not None and tag not in ("br", "i"):
            self._depth -= 1
            if self._depth == 0:
                self._in["text"] = " ".join(self._in["text"].split())
                self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._in["text"] += data + " "


def parse(page: str) -> list[dict[str, Any]]:
    sheet = _Sheet()
    sheet.feed(page)
    return sheet.pages


# -- which copies -------------------------------------------------------------------------------

def test_a_playtest_deck_holds_every_copy_of_the_box(rule_sets: dict[tuple[str, ...], Compiled], en: Catalog) -> None:
    """Issue 9: "A playtest deck, not one of each: every copy the box holds (87 dwarves, 5 Dwerg,
    2 doubles, …)". 003 "Game Components": "87 Dwarf cards ... plus 1 Special Blacksmith card", "21
    Hero cards" (Dwerg is 5 of them), "5 Distinction cards", "5 Royal Offering cards"; 002: 12
    Mercenary and 12 Artifact cards in the Camp, "6 new Hero cards and 2 Olwyn's Double cards"; 001:
    the 20 mythology cards and Gullinbursti. Each box's deck prints them all, as many as the
    reference's component list counts; the age decks hold their 5-player cards (9 in each age),
    marked "5+ players"."""
    for boxes, compiled in rule_sets.items():
        copies = box_copies(compiled)
        kinds = Counter(compiled.ruleset.cards[c.card].kind for c in copies)
        assert kinds == expected(boxes), boxes
        listed = {k["kind"]: k["count"] for k in reference_context(compiled, en)["components"]["kinds"]}
        assert dict(kinds) == {k: n for k, n in listed.items() if n}, boxes
        faces = sheet_faces(compiled, en)
        assert len(faces) == sum(expected(boxes).values())
        assert Counter(f.players for f in faces)["5+ players"] == 18
        assert copy_counts(copies)["dwerg"] == 5 and copy_counts(copies)["blacksmith"] == 20
        piles = Counter(c.pile for c in copies)
        assert piles[Pile(age=1)] == 36 + 9 and piles[Pile(age=2)] == 37 + 9
        if "thingvellir" in boxes:
            assert piles[Pile("camp-deck", 1)] == piles[Pile("camp-deck", 2)] == 12
            assert copy_counts(copies)["olwyn-double"] == 2
        if "idavoll" in boxes:
            assert piles[Pile("mythology")] == 20
    assert [len(sheet_faces(c, en)) for c in rule_sets.values()] == [118, 150, 139, 171]


def test_a_catalogue_prints_one_of_each_with_its_copy_count(rule_sets: dict[tuple[str, ...], Compiled],
                                                           en: Catalog) -> None:
    """Issue 9: "`--copies one` for a catalogue; the card shows its copy count where that helps":
    one card per card id, "×N" where the box holds more than one, with the piles it is in and how
    many copies only games of 5 players use."""
    compiled = rule_sets[ALL]
    faces = {f.id: f for f in sheet_faces(compiled, en, PrintOptions(copies="one"))}
    assert list(faces) == [v["id"] for v in card_views(compiled, en)] and len(faces) == 97
    assert faces["dwerg"].copies == "×5" and faces["olwyn-double"].copies == "×2"
    assert faces["skaa"].copies == "" and faces["fafnir-baleygr"].copies == ""
    assert (faces["blacksmith"].copies, faces["blacksmith"].pile, faces["blacksmith"].players) == \
        ("×20", "Age 1 · Age 2", "4 for 5+ players")
    assert faces["mercenary:warrior9-explorer11"].pile == "Camp · Age 1 · Camp · Age 2"
    assert faces["frigg"].pile == "Mythology" and faces["grid"].pile == ""
    page = card_sheet(compiled, en, PrintOptions(copies="one")).html
    assert page.count('<span class="copies">×5</span>') == 1 and "×1<" not in page


# -- backs, bleed, paper, last page ----------------------------------------------------------------

def test_backs_follow_each_page_mirrored_for_a_long_edge_flip(rule_sets: dict[tuple[str, ...], Compiled],
                                                              en: Catalog) -> None:
    """Issue 9: "optional card backs (duplex, mirrored for long-edge flipping)": after each page of
    fronts a page of backs, each row's columns reversed so that each back lies behind its front
    when the sheet turns over its long edge (the grid is centred: a back's left edge is the paper
    width less its front's right edge); a back names the card's pile ("Age 1", "Camp · Age 2",
    "Mythology", "Heroes"), the same for every card of that pile."""
    compiled = rule_sets[ALL]
    sheet = card_sheet(compiled, en, PrintOptions(backs=True))
    pages = parse(sheet.html)
    assert [p["side"] for p in pages] == ["front", "back"] * math.ceil(171 / 9)
    width = PAPERS["a4"][0]
    margin = (width - 3 * CARD_W) / 2

    def column(card: dict[str, Any]) -> int:
        return round((card["left"] - margin) / CARD_W)

    for front, back in zip(pages[::2], pages[1::2]):
        assert [c["id"] for c in front["cards"]] == [c["id"] for c in back["cards"]]
        for f, b in zip(front["cards"], back["cards"]):
            col = f["slot"] % 3
            assert (column(f), column(b)) == (col, 2 - col) and b["top"] == f["top"]
            assert abs(b["left"] - (width - f["left"] - CARD_W)) < 0.01
    backs = {(c["id"], c["text"]) for p in pages[1::2] for c in p["cards"]}
    assert ("warrior:3", "Nidavellir Age 1") in backs and ("warrior:3", "Nidavellir Age 2") in backs
    assert ("fafnir-baleygr", "Nidavellir Camp · Age 1") in backs and ("frigg", "Nidavellir Mythology") in backs
    assert ("skaa", "Nidavellir Heroes") in backs and ("distinction:miner", "Nidavellir Distinctions") in backs
    by_pile: dict[str, set[str]] = {}
    for p in pages[1::2]:
        for c in p["cards"]:
            by_pile.setdefault(c["text"], set()).add(c["back"])
    assert all(len(keys) == 1 for keys in by_pile.values()), by_pile  # one look per pile
    # The base game's last page holds one card, top left; its back is top right.
    base = parse(card_sheet(rule_sets[()], en, PrintOptions(backs=True)).html)
    (front,), (back,) = base[-2]["cards"], base[-1]["cards"]
    assert front["id"] == back["id"] == "distinction:explorer"
    assert (column(front), column(back)) == (0, 2) and front["top"] == back["top"]


def test_bleed_puts_the_art_beyond_the_cut_line(rule_sets: dict[tuple[str, ...], Compiled], en: Catalog) -> None:
    """Issue 9: "`--bleed MM`": each card's art reaches that far beyond its cut line, so cards stand
    2 × bleed apart and the cut marks stay on the cut lines, outside every card's art; a bleed too
    wide for 3 × 3 cards, their marks and the page notes on the paper is refused, naming the widest
    that fits."""
    compiled = rule_sets[()]
    pages = parse(card_sheet(compiled, en, PrintOptions(bleed_mm=1.5)).html)
    page = card_sheet(compiled, en, PrintOptions(bleed_mm=1.5)).html
    assert "--bleed: 1.5mm;" in page and ".card .bleed { position: absolute; inset: calc(-1 * var(--bleed));" in page
    cards = pages[0]["cards"]
    lefts = sorted({c["left"] for c in cards})
    tops = sorted({c["top"] for c in cards})
    assert [round(b - a, 3) for a, b in pairwise(lefts)] == [CARD_W + 3] * 2
    assert [round(b - a, 3) for a, b in pairwise(tops)] == [CARD_H + 3] * 2
    assert abs(lefts[0] - 1.5 - (210 - 3 * 66) / 2) < 0.01  # the art, bleed and all, centred
    lines_x = {round(x + dx, 3) for x in lefts for dx in (0, CARD_W)}
    lines_y = {round(y + dy, 3) for y in tops for dy in (0, CARD_H)}
    for kind, box in pages[0]["cuts"]:
        centre = box["left"] + box["width"] / 2 if kind == "v" else box["top"] + box["height"] / 2
        assert round(centre, 3) in (lines_x if kind == "v" else lines_y)
        for c in cards:  # outside the art
            art = (c["left"] - 1.5, c["top"] - 1.5, c["left"] + CARD_W + 1.5, c["top"] + CARD_H + 1.5)
            assert (box["left"] + box["width"] <= art[0] or box["left"] >= art[2]
                    or box["top"] + box["height"] <= art[1] or box["top"] >= art[3])
    assert max_bleed("a4") == 1.6 and max_bleed("letter") == 1.0
    with pytest.raises(DocsError, match=r"a bleed of 3 mm does not fit .* on letter paper: choose at most 1 mm"):
        card_sheet(compiled, en, PrintOptions(paper="letter", bleed_mm=3))


def test_paper_sets_the_page_size_and_the_grid_is_centred(rule_sets: dict[tuple[str, ...], Compiled],
                                                          en: Catalog) -> None:
    """Issue 9: "`--paper a4|letter`": the sheet's @page is the paper's size and the 3 × 3 cards are
    centred on it; on letter paper, whose top and bottom margins are narrow, the page notes turn
    into the side margins."""
    for paper, (width, height) in PAPERS.items():
        page = card_sheet(rule_sets[()], en, PrintOptions(paper=paper)).html
        assert f"@page {{ size: {width:g}mm {height:g}mm; margin: 0; }}" in page
        cards = parse(page)[0]["cards"]
        left, top = min(c["left"] for c in cards), min(c["top"] for c in cards)
        right, bottom = max(c["left"] for c in cards) + CARD_W, max(c["top"] for c in cards) + CARD_H
        assert abs(left - (width - right)) < 0.01 and abs(top - (height - bottom)) < 0.01
        assert abs(right - left - 3 * CARD_W) < 0.01 and abs(bottom - top - 3 * CARD_H) < 0.01
        assert ('class="note first turned"' in page) == (paper == "letter")


def test_the_last_page_frames_no_empty_slot(rule_sets: dict[tuple[str, ...], Compiled], en: Catalog) -> None:
    """Issue 9: "No empty last slots with cut marks": the base game's 118 cards fill 13 pages and
    one card of a 14th; that page shows one card and only the 8 cut marks of its own 4 cut lines."""
    pages = parse(card_sheet(rule_sets[()], en).html)
    assert [len(p["cards"]) for p in pages] == [9] * 13 + [1]
    assert all(len(p["cuts"]) == 16 for p in pages[:-1])
    (card,) = pages[-1]["cards"]
    cuts = pages[-1]["cuts"]
    assert len(cuts) == 8
    lines = {("v", card["left"]), ("v", card["left"] + CARD_W), ("h", card["top"]), ("h", card["top"] + CARD_H)}
    assert {(k, round(b["left"] + b["width"] / 2 if k == "v" else b["top"] + b["height"] / 2, 3))
            for k, b in cuts} == {(k, round(x, 3)) for k, x in lines}


# -- text that does not fit ------------------------------------------------------------------------

WORDY = """\
# yaml-language-server: $schema=../schemas/layer.schema.json
layer:
  id: wordy
  name: Wordy heroes
  description: Grid explains himself at length.
cards:
  - id: grid
    effects:
""" + '      - "when recruited: transform chosen coin by 7"\n' * 12


def test_a_text_too_long_is_a_warning_naming_the_card(tmp_path: Path, en: Catalog) -> None:
    """Issue 9: "text that does not fit is a located warning naming the card, never silently shrunk
    below a readable size (≥ 6.5 pt)": a house rule giving Grid twelve effects makes a text no card
    holds; the sheet's warnings name `grid` at its entry in that file (line 7, column 5), and the
    card is printed at the smallest size, 6.5 pt; no other card is warned about."""
    variant = tmp_path / "wordy.yaml"
    variant.write_text(WORDY, encoding="utf-8")
    compiled = compile_specs(layer_specs((), (str(variant),)))
    warnings = sheet_warnings(compiled, en)
    assert len(warnings) == 1
    (w,) = warnings
    assert w.severity == "warning" and w.loc is not None
    assert (Path(w.loc.path).resolve(), w.loc.line, w.loc.col) == (variant.resolve(), 7, 5)
    text = w.format()
    assert re.match(rf"{re.escape(w.loc.path)}:7:5: warning: card `grid` \(Grid the Mercantile\): its rule text "
                    r"does not fit a 63 × 88 mm card: at 6.5 pt, the smallest readable size", text), text
    assert "  - id: grid" in text
    sheet = card_sheet(compiled, en, PrintOptions(copies="one"))
    assert [str(d) for d in sheet.warnings] == [text]
    grid = next(c for p in parse(sheet.html) for c in p["cards"] if c["id"] == "grid")
    assert "len-xl" in grid["classes"]
    assert sheet_warnings(compile_specs(layer_specs(ALL)), en) == []  # the shipped cards all fit


# -- labels, rule set, house rules ---------------------------------------------------------------------

def test_classless_cards_show_their_kind_not_neutral(rule_sets: dict[tuple[str, ...], Compiled], en: Catalog,
                                                     be: Catalog) -> None:
    """Issue 9: "Royal offerings, distinctions and other classless cards are not labelled
    'NEUTRAL'": neutral is a hero class; a card without a class shows its kind in the catalog's
    language, with its class where it has one."""
    compiled = rule_sets[ALL]
    for cat, neutral in ((en, "neutral"), (be, "нэўтральны")):
        faces = {f.id: f for f in sheet_faces(compiled, cat, PrintOptions(copies="one"))}
        for face in faces.values():
            if face.kind != "hero":
                assert neutral not in face.label.lower(), (cat.lang, face.id, face.label)
        if cat is en:
            assert {cid: faces[cid].label for cid in ("royal-offering:3", "distinction:warrior", "fafnir-baleygr",
                                                       "vegvisir", "mercenary:hunter-miner1", "olwyn-double",
                                                       "gullinbursti", "frigg", "durathor", "skaa", "kraal",
                                                       "warrior:3")} == {
                "royal-offering:3": "Royal offering", "distinction:warrior": "Distinction · Warrior",
                "fafnir-baleygr": "Artifact", "vegvisir": "Artifact · Explorer",
                "mercenary:hunter-miner1": "Mercenary · Hunter or Miner", "olwyn-double": "Double",
                "gullinbursti": "Special card", "frigg": "God", "durathor": "Animal · Hunter",
                "skaa": "Hero · neutral", "kraal": "Hero · Warrior", "warrior:3": "Warrior"}
        else:
            assert faces["royal-offering:3"].label == "Каралеўскі дарунак"
            assert faces["distinction:warrior"].label == "Адзнака · Ваяр"


def test_each_page_names_the_rule_set_and_marks_changed_cards(en: Catalog, be: Catalog) -> None:
    """Issue 9: "the sheet names the rule set (boxes and variants) and marks the cards a house rule
    changed": every page's note names the boxes and the house rules ("Nidavellir + Thingvellir ·
    house rules: Generous offerings"); the cards that house rule changes (both royal offerings and
    Grid) carry "Changed by house rule Generous offerings." (issue 18: "a changed one "Changed by""),
    every copy of them and no other card."""
    compiled = compile_specs(layer_specs(("thingvellir",), ("generous-offerings",)))
    sheet = card_sheet(compiled, en, PrintOptions(backs=True))
    pages = parse(sheet.html)
    assert all(p["notes"][0]["text"] == "Nidavellir + Thingvellir · house rules: Generous offerings" for p in pages)
    marked = Counter(c["id"] for p in pages if p["side"] == "front" for c in p["cards"]
                     if "Changed by house rule Generous offerings." in c["text"])
    assert marked == {"royal-offering:3": 2, "royal-offering:5": 3, "grid": 1}
    assert sheet.html.count('<p class="changed">') == 6
    plain = card_sheet(compile_specs(layer_specs(ALL)), be, PrintOptions(copies="one"))
    assert all(p["notes"][0]["text"] == "Нідавэлір + Тынгвэлір + Ідаволь" for p in parse(plain.html))
    assert '<p class="changed">' not in plain.html


# -- printed: every card of the three boxes, in both languages ---------------------------------------------

def _rects(pdf: Path, page: int) -> list[tuple[tuple[float, ...], tuple[float, float, float, float]]]:
    """The filled rectangles of a PDF page: (fill colour, (left, top, width, height) in mm)."""
    reader = PdfReader(pdf)
    out: list[tuple[tuple[float, ...], tuple[float, float, float, float]]] = []
    state: dict[str, Any] = {"fill": (0.0, 0.0, 0.0), "re": None}

    def visit(op: bytes, args: list[Any], cm: list[float], tm: list[float]) -> None:
        if op == b"rg":
            state["fill"] = tuple(round(float(a), 3) for a in args)
        elif op == b"re":
            x, y, w, h = (float(a) for a in args)
            a, b, c, d, e, f = cm
            xs = [a * px + c * py + e for px, py in ((x, y), (x + w, y + h))]
            ys = [b * px + d * py + f for px, py in ((x, y), (x + w, y + h))]
            state["re"] = tuple(v * 25.4 / 72 for v in (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
        elif op in (b"f", b"f*") and state["re"] is not None:
            out.append((state["fill"], state["re"]))
            state["re"] = None

    reader.pages[page - 1].extract_text(visitor_operand_before=visit)
    return out


def _cut_lines(pdf: Path, page: int) -> tuple[list[float], list[float]]:
    """The cut lines (mm) the black hairline cut marks of a page stand on: vertical, horizontal."""
    xs, ys = set(), set()
    for fill, (x, y, w, h) in _rects(pdf, page):
        if fill == (0.0, 0.0, 0.0) and min(w, h) < 0.5 and max(w, h) >= 1.5:
            (xs if h > w else ys).add(round((x + w / 2) if h > w else (y + h / 2), 1))
    return sorted(xs), sorted(ys)


def _pdf_info(pdf: Path) -> tuple[int, float, float]:
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True, timeout=60).stdout
    pages = re.search(r"^Pages:\s+(\d+)$", info, re.MULTILINE)
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE)
    assert pages and size, info
    return int(pages[1]), float(size[1]) * 25.4 / 72, float(size[2]) * 25.4 / 72


def _text(pdf: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(["pdftotext", *pages, str(pdf), "-"], check=True, capture_output=True, text=True,
                          timeout=120).stdout


# The two prints: English, the deck of every copy with backs and a 1 mm bleed on A4; Belarusian,
# the catalogue on letter paper.
PRINTS = {"en": PrintOptions(paper="a4", copies="all", backs=True, bleed_mm=1.0),
          "be": PrintOptions(paper="letter", copies="one")}


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Any, list[str]]]:
    """Each language's PDF of all three boxes, its sheet and its cards' names (one Chromium run each)."""
    need("pdfinfo", "pdftotext")
    compiled = compile_specs(layer_specs(ALL))
    out = {}
    for lang, options in PRINTS.items():
        cat = Catalog.load(lang)
        sheet = card_sheet(compiled, cat, options)
        html = tmp_path_factory.mktemp(f"print-{lang}") / "cards.html"
        html.write_text(sheet.html, encoding="utf-8")
        pdf = html.with_suffix(".pdf")
        pdf_from_html(html, pdf)
        out[lang] = (pdf, sheet, [v["name"] for v in card_views(compiled, cat)])
    return out


@pytest.mark.parametrize("lang", list(PRINTS))
def test_every_card_of_the_three_boxes_prints(printed: dict[str, tuple[Path, Any, list[str]]], lang: str) -> None:
    """Issue 9: "Every card of all three boxes, in both languages, checked by rendering to PDF in CI
    (page count, no missing text, size 63 × 88 mm)": the English deck of 171 copies with backs makes
    2 × 19 pages of A4, the Belarusian catalogue of 97 cards 11 pages of letter; pdftotext finds
    every card's name and no "text too long" mark; the cut marks in the PDF stand on cut lines
    63 mm and 88 mm apart (with the 1 mm bleed, 2 mm between neighbouring cards), measured from
    the marks' rectangles in the page content (pypdf)."""
    pdf, sheet, names = printed[lang]
    options = PRINTS[lang]
    pages, width, height = _pdf_info(pdf)
    per_side = math.ceil(sheet.cards / 9)
    assert (sheet.cards, pages) == ((171, 38) if lang == "en" else (97, 11))
    assert pages == per_side * (2 if options.backs else 1)
    paper_w, paper_h = PAPERS[options.paper]
    assert abs(width - paper_w) < 0.5 and abs(height - paper_h) < 0.5
    text = " ".join(_text(pdf).split())
    missing = [n for n in names if " ".join(n.split()) not in text]
    assert missing == []
    cat = Catalog.load(lang)
    for page in (1, pages):  # the page notes, all there (not clipped)
        notes = " ".join(_text(pdf, page).split())
        assert cat.t("sheets.page", n=page, total=pages) in notes and cat.t("sheets.rules", boxes="") in notes
        assert cat.t("sheets.scale" if page == 1 else "sheets.back_note" if options.backs else "sheets.scale",
                     n=page - 1) in notes
    overflow = cat.t("sheets.overflow")
    assert overflow not in text and sheet.warnings == []
    gap = 2 * options.bleed_mm
    for page in (1, pages):
        xs, ys = _cut_lines(pdf, page)
        for lines, size in ((xs, CARD_W), (ys, CARD_H)):
            steps = [round(b - a, 1) for a, b in pairwise(lines)]
            cards = [s for s in steps if s > 10]
            assert len(cards) == 3 and all(abs(s - size) < 0.4 for s in cards), (page, lines)
            assert all(abs(s - gap) < 0.4 for s in steps if s <= 10), (page, lines)
        assert abs(xs[0] - (paper_w - xs[-1])) < 0.4 and abs(ys[0] - (paper_h - ys[-1])) < 0.4  # centred
    if options.backs:
        art = [box for fill, box in _rects(pdf, 1) if abs(box[2] - (CARD_W + gap)) < 0.4
               and abs(box[3] - (CARD_H + gap)) < 0.4]
        assert len(art) == 9  # each card's art: 63 × 88 mm and the bleed on every side
        back = " ".join(_text(pdf, 2).split())
        assert back.count("Age 1") == 9 and not any(n in back for n in names[:3])


def test_the_docs_command_prints_the_warning_of_a_text_too_long(tmp_path: Path, capsys: Any) -> None:
    """Issue 9: "text that does not fit is a located warning naming the card": `nidavellir docs`
    prints it on stderr, located at the card's entry, and still writes the sheet (exit 0)."""
    from nidavellir.cli import main

    variant = tmp_path / "wordy.yaml"
    variant.write_text(WORDY, encoding="utf-8")
    assert main(["docs", "--format", "html", "--variant", str(variant), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert f"{variant}:7:5: warning: card `grid` (Grid the Mercantile): its rule text does not fit" in err
    assert (tmp_path / "out" / "cards.html").is_file()
