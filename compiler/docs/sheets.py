"""Printable card sheets: poker-size cards (63 × 88 mm), nine to a page with cut marks, as HTML
with print CSS; headless Chromium prints the HTML to PDF.

    sheet = card_sheet(compiled, cat, PrintOptions(copies="all", backs=True))  # cards.html.j2 + cards.css
    sheet.html, sheet.warnings                                # the page; a located warning per card too long
    pdf_from_html(Path("cards.html"), Path("cards.pdf"))      # chromium --headless --print-to-pdf

A playtest deck (`copies="all"`) prints every copy the rule set holds, pile by pile (compiler/docs/deck.py),
each marked with its pile (Age 1, the Camp deck of Age 2, …) and, where it is only used with more
players, its least player count; a catalogue (`copies="one"`) prints each card once with its copy
count and piles. Backs (`backs=True`) follow each page of fronts, mirrored for a long-edge flip, and
name the pile. Geometry (paper, bleed, marks): compiler/docs/sheet_layout.py.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import jinja2

from nidavellir.interface.rules import Layer, card_marks

from ..diagnostics import Diagnostic, Location
from .deck import Copy, Pile, box_copies, copy_counts, piles_of
from .errors import DocsError
from .model import card_views
from .options import COPIES, PrintOptions
from .sheet_fit import PT_PER_MM, STEPS, Parts, fitting_step, text_height, text_room
from .sheet_layout import CARD_H, CARD_W, PER_PAGE, Layout
from .text import Catalog, rank_class

if TYPE_CHECKING:
    from ..compile import Compiled
    from .views import CardView

CARDS_PER_PAGE = PER_PAGE  # 3 × 3 cards of 63 × 88 mm, centred on the paper
# The font sizes of rule text, largest first (9, 8, 7.25 and 6.5 pt; cards.css): each card gets the
# largest at which its text fits, by the character budget measured in Chromium (sheet_fit.py). 6.5 pt
# is the smallest readable size: a longer text is a warning naming the card (`sheet_warnings`), and
# the sheet's script, which steps down where a text still overflows, stops there and marks the card.
FONT_STEPS: tuple[str, ...] = tuple(step.cls for step in STEPS)
SMALLEST = STEPS[-1]
DEFAULT_OPTIONS = PrintOptions()  # A4, every copy, no backs, no bleed
CHROMIUM_ENV = "NIDAVELLIR_CHROMIUM"
TIMEOUT = 120.0  # seconds for one Chromium run


class Messages(Protocol):
    def t(self, key: str, default: str | None = None, **kw: Any) -> str: ...

    def has(self, key: str) -> bool: ...


@dataclass
class Face:
    """One printed card: what its front and back show."""
    id: str
    anchor: str
    name: str
    kind: str
    accent: str               # the colour's name: the card's one class, else its kind (cards.css)
    label: str                # its class, or its kind (and class): "Warrior", "Hero · neutral", "Royal offering"
    ranks_label: str
    text: list[str]
    size: str = ""            # the font size's class (FONT_STEPS)
    too_long: bool = False    # its text does not fit even the smallest size (a warning)
    pile: str = ""            # the piles it belongs to ("Age 1"); none for a card set aside
    players: str = ""         # the least player count using this copy ("5+ players"), or how many copies need more
    copies: str = ""          # a catalogue's "×5"
    changed: str = ""         # "Added by house rule Brokk's forge." (and/or "Changed by …")
    back: str = ""            # the back's pile name
    back_key: str = ""        # the back's colour's name (cards.css)


@dataclass(frozen=True)
class Sheet:
    html: str
    warnings: list[Diagnostic]
    cards: int  # cards printed (fronts)


def parts_of(face: Face) -> Parts:
    """What besides its rule text takes room on a card."""
    return Parts(face.name, face.label, face.ranks_label, face.changed, (face.pile, face.players, face.copies),
                 face.id)


def _sized(face: Face, lang: str) -> Face:
    """The face with the font size at which its text fits (the smallest if none does)."""
    step = fitting_step(face.text, parts_of(face), lang)
    face.size, face.too_long = (step or SMALLEST).cls, step is None
    return face


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("nidavellir.compiler.docs", "templates"),
                              autoescape=jinja2.select_autoescape(("html", "html.j2")),
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


# -- what each card shows -------------------------------------------------------------------------

def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(cat: Messages, items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return cat.t("list.and", head=", ".join(items[:-1]), last=items[-1])


def _layer_name(cat: Messages, layer: Layer) -> str:
    return cat.t(f"layer.{layer.id}.name", default=layer.name or layer.id)


def rule_set_line(compiled: Compiled, cat: Messages) -> str:
    """The boxes and house rules of a rule set: "Nidavellir + Thingvellir · house rules: Generous offerings"."""
    layers = compiled.ruleset.layers
    boxes = " + ".join(_layer_name(cat, lay) for lay in layers if not lay.variant)
    rules = [_layer_name(cat, lay) for lay in layers if lay.variant]
    return cat.t("sheets.rules_house", boxes=boxes, rules=_join(cat, rules)) if rules else \
        cat.t("sheets.rules", boxes=boxes)


def _own(cat: Messages, key: str, default: Callable[[], str]) -> str:
    """The sheet's own wording where the catalog has one (`sheets.kind.special`), else the default."""
    return cat.t(key) if cat.has(key) else default()


def kind_name(cat: Messages, kind: str) -> str:
    """A kind as a card's label names it: "Royal offering", "Distinction"."""
    return _own(cat, f"sheets.kind.{kind}", lambda: _capital(cat.t(f"kind.{kind}", default=kind.replace("-", " "))))


def pile_name(compiled: Compiled, cat: Messages, pile: Pile) -> str:
    """A pile as its cards' backs name it: "Age 1", "Camp · Age 2", "Mythology", "Heroes"."""
    if pile.kind:
        return cat.t(f"ref.kinds.{pile.kind}", default=_capital(pile.kind.replace("-", " ")))
    if not pile.zone:
        return cat.t("sheets.pile.age", age=pile.age)
    zones = {z.id: z.name for z in compiled.ruleset.zones}
    zone = _own(cat, f"sheets.pile.{pile.zone}",
                lambda: _capital(cat.t(f"zone.name.{pile.zone}", default=zones.get(pile.zone, pile.zone))))
    return cat.t("sheets.pile.zone_age", zone=zone, age=pile.age) if pile.age else zone


def _pile_key(pile: Pile) -> str:
    return f"kind-{pile.kind}" if pile.kind else f"{pile.zone or 'age'}-{pile.age}" if pile.age else pile.zone


def face_of(view: CardView, cat: Messages) -> Face:
    """A card as the reference shows it, on a sheet without a rule set's piles and copies; a card
    without a class (neutral is a hero's class) shows its kind."""
    classless = view["class_label"] == cat.t("class.neutral") and view["kind"] != "hero"
    return Face(view["id"], view["anchor"], view["name"], view["kind"],
                view["class"] if view["class"] != "neutral" else view["kind"],
                kind_name(cat, view["kind"]) if classless else view["class_label"],
                view["ranks_label"], list(view["text"]))


class _Faces:
    """The faces of a rule set's cards, one per copy or per card."""

    def __init__(self, compiled: Compiled, cat: Messages, views: list[CardView]):
        self.c, self.cat = compiled, cat
        self.views = {v["id"]: v for v in views}
        self.order = {v["id"]: i for i, v in enumerate(views)}
        self.variants = {lay.id: lay for lay in compiled.ruleset.layers if lay.variant}

    def base(self, cid: str) -> Face:
        view, card = self.views[cid], self.c.ruleset.cards[cid]
        classes = list(card.column_ranks) or [rank_class(card, self.c.effects.get(cid, []))]
        kind = card.kind
        if kind == "dwarf":
            label = view["class_label"]
        elif classes == ["neutral"] and kind != "hero":  # neutral is a hero's class; other cards have none
            label = kind_name(self.cat, kind)
        else:
            label = self.cat.t("sheets.kind_class", kind=kind_name(self.cat, kind), cls=view["class_label"])
        marks = card_marks(card.layers, self.variants)
        face = face_of(view, self.cat)
        face.label = label
        face.accent = classes[0] if len(classes) == 1 and classes[0] != "neutral" else kind
        face.changed = " ".join(self.cat.t(f"sheets.{what}", names=_join(self.cat, names))
                                for what, lids in marks._asdict().items()
                                if (names := [_layer_name(self.cat, self.variants[lid]) for lid in lids]))
        return face

    def deck(self, copies: list[Copy]) -> list[Face]:
        """One face per copy, pile by pile; in a pile by the reference's card order, the copies that
        only games with more players use last."""
        piles = list(dict.fromkeys(c.pile for c in copies))
        ordered = sorted(copies, key=lambda c: (piles.index(c.pile), c.min_players > 0, c.min_players,
                                                self.order.get(c.card, len(self.order))))
        out: list[Face] = []
        for copy in ordered:
            face = self.base(copy.card)
            name = pile_name(self.c, self.cat, copy.pile)
            face.pile, face.back, face.back_key = "" if copy.pile.kind else name, name, _pile_key(copy.pile)
            face.players = self.cat.t("sheets.players", n=copy.min_players) if copy.min_players else ""
            out.append(face)
        return out

    def catalogue(self, copies: list[Copy]) -> list[Face]:
        """One face per card, in the reference's order, with its copy count and piles."""
        counts, piles = copy_counts(copies), piles_of(copies)
        extra: dict[str, dict[int, int]] = {}  # card -> least player count -> copies
        for c in copies:
            if c.min_players:
                extra.setdefault(c.card, {}).setdefault(c.min_players, 0)
                extra[c.card][c.min_players] += 1
        out: list[Face] = []
        for cid in sorted(self.views, key=self.order.__getitem__):
            face = self.base(cid)
            names = [pile_name(self.c, self.cat, p) for p, _ in piles.get(cid, [])]
            more = extra.get(cid, {})
            face.pile = " · ".join(pile_name(self.c, self.cat, p) for p, _ in piles.get(cid, []) if not p.kind)
            face.back = " / ".join(names)
            face.back_key = _pile_key(piles[cid][0][0]) if len(piles.get(cid, [])) == 1 else ""
            face.copies = self.cat.t("sheets.copies", count=counts[cid]) if counts.get(cid, 0) > 1 else ""
            face.players = ", ".join(self.cat.t("sheets.players_some", count=k, n=n) for n, k in sorted(more.items()))
            out.append(face)
        return out


def sheet_faces(compiled: Compiled, cat: Catalog, options: PrintOptions = DEFAULT_OPTIONS) -> list[Face]:
    """The cards a sheet prints, in order: every copy (`copies="all"`) or one of each (`"one"`)."""
    if options.copies not in COPIES:
        raise DocsError(f"unknown copies `{options.copies}` (choose from: {', '.join(COPIES)})")
    faces = _Faces(compiled, cat, card_views(compiled, cat))
    copies = box_copies(compiled)
    out = faces.deck(copies) if options.copies == "all" else faces.catalogue(copies)
    return [_sized(face, cat.lang) for face in out]


# -- warnings ---------------------------------------------------------------------------------------

def card_location(compiled: Compiled, cid: str) -> Location:
    """Where a card's rule text is written: its entry in the last layer that wrote its effects, else
    the entry that first defined it."""
    origins = compiled.merged.card_origin.get(cid, {})
    effects = origins.get("effects")
    if effects is not None:
        return effects.loaded.locate(effects.path[:-1])
    return origins["@"].loc


def sheet_warnings(compiled: Compiled, cat: Catalog, options: PrintOptions = DEFAULT_OPTIONS,
                   faces: list[Face] | None = None) -> list[Diagnostic]:
    """A located warning for each card whose rule text (in `cat`'s language) does not fit its card
    even at the smallest readable size, in file order."""
    out: list[Diagnostic] = []
    warned: set[str] = set()
    for face in faces if faces is not None else sheet_faces(compiled, cat, options):
        if not face.too_long or face.id in warned:
            continue
        warned.add(face.id)
        where = f" in {cat.lang}" if cat.lang != "en" else ""
        need = text_height(face.text, SMALLEST, cat.lang) / PT_PER_MM
        room = max(text_room(parts_of(face)), 0.0) / PT_PER_MM
        out.append(Diagnostic(
            card_location(compiled, face.id),
            f"card `{face.id}` ({face.name}): its rule text{where} does not fit a {CARD_W:g} × {CARD_H:g} mm "
            f"card: at {SMALLEST.pt:g} pt, the smallest readable size, its {sum(len(t) for t in face.text)} "
            f"characters need about {need:.0f} mm of the {room:.0f} mm the card leaves them",
            hint="shorten its effects' wording or split the card; the card sheet prints it at "
                 f"{SMALLEST.pt:g} pt and marks it where the text leaves the card",
            severity="warning"))
    return sorted(out, key=lambda d: (d.loc.path, d.loc.line, d.loc.col) if d.loc else ("", 0, 0))


# -- the sheet --------------------------------------------------------------------------------------

def _mm(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") + "mm"


def _style(box: tuple[float, float, float, float]) -> str:
    left, top, width, height = box
    return f"left: {_mm(left)}; top: {_mm(top)}; width: {_mm(width)}; height: {_mm(height)}"


def card_sheet_html(cards: list[Face] | list[CardView], cat: Messages, options: PrintOptions = DEFAULT_OPTIONS,
                    rule_set: str = "") -> str:
    """A self-contained HTML page of the cards, nine to a page in the order given; with
    `options.backs` a page of their backs after each page of fronts. `cards` are faces
    (`sheet_faces`) or the reference's card views; each gets the largest font size its text fits."""
    lang = getattr(cat, "lang", "en")
    faces = [_sized(c if isinstance(c, Face) else face_of(c, cat), lang) for c in cards]
    layout = Layout(options.paper, options.bleed_mm)
    chunks = [faces[i:i + PER_PAGE] for i in range(0, len(faces), PER_PAGE)]
    total = len(chunks) * (2 if options.backs else 1)
    pages: list[dict[str, Any]] = []
    for chunk in chunks:
        for back in (False, True) if options.backs else (False,):
            slots = [layout.slot(i, back) for i in range(len(chunk))]
            number = len(pages) + 1
            page = cat.t("sheets.page", n=number, total=total)
            pages.append({
                "side": "back" if back else "front", "number": number, "front": number - 1 if back else number,
                "cards": [{"face": f, "style": _style((x, y, CARD_W, CARD_H)), "slot": i}
                          for i, (f, (x, y)) in enumerate(zip(chunk, slots))],
                "cuts": [{"kind": kind, "style": _style(box)} for kind, box in layout.cuts(slots)],
                "note": [cat.t("sheets.back_note", n=number - 1), page] if back else
                        [f"{cat.t('sheets.cut')} · {page}", cat.t("sheets.scale")],
            })
    top, bottom = layout.notes()
    width, height = layout.size
    return _env().get_template("cards.html.j2").render(
        pages=pages, cat=cat, lang=lang, rule_set=rule_set, ids=options.ids,
        size_steps=list(FONT_STEPS), side_notes=layout.side_notes,
        notes=[_style(top), _style(bottom)], paper=f"{_mm(width)} {_mm(height)}", page_w=_mm(width),
        page_h=_mm(height), bleed=_mm(options.bleed_mm), card_w=_mm(CARD_W), card_h=_mm(CARD_H))


def card_sheet(compiled: Compiled, cat: Catalog, options: PrintOptions = DEFAULT_OPTIONS) -> Sheet:
    """The card sheet of a rule set (every copy, or one of each), naming the rule set on each page,
    and the warnings for the cards whose text is too long."""
    faces = sheet_faces(compiled, cat, options)
    html = card_sheet_html(faces, cat, options, rule_set_line(compiled, cat))
    return Sheet(html, sheet_warnings(compiled, cat, options, faces), len(faces))


# -- Chromium ----------------------------------------------------------------------------------

def chromium() -> str:
    """The Chromium binary: $NIDAVELLIR_CHROMIUM, else `chromium` on PATH."""
    chosen = os.environ.get(CHROMIUM_ENV)
    if chosen:
        found = shutil.which(chosen)
        if found is None:
            raise DocsError(f"{CHROMIUM_ENV}={chosen} is not an executable program; "
                            f"point it at a Chromium binary or unset it")
        return found
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found is not None:
            return found
    raise DocsError(f"printing needs headless Chromium, which was not found: install Debian's chromium "
                    f"(apt-get install chromium) or set {CHROMIUM_ENV} to a Chromium binary")


def _noise(line: str) -> bool:
    """Chromium's harmless complaints on a headless server (no D-Bus, no GPU)."""
    return not line.strip() or any(w in line for w in ("dbus", "unexpected operator", "bytes written to file"))


def run_chromium(args: list[str], timeout: float = TIMEOUT) -> str:
    """Run headless Chromium with a fresh profile and no network chatter; its stdout.

    `args` are the action and target, e.g. ["--dump-dom", "file:///…/cards.html"].
    """
    binary = chromium()
    with tempfile.TemporaryDirectory(prefix="nidavellir-chromium-", ignore_cleanup_errors=True) as profile:
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                   "--disable-quic", "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--disable-extensions",
                   f"--user-data-dir={profile}", *args]
        # Its own session, so a timeout ends the renderer and GPU processes too.
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise DocsError(f"Chromium ({binary}) did not finish within {timeout:.0f} s") from None
    if proc.returncode != 0:
        detail = "\n".join(line for line in err.splitlines() if not _noise(line))[-2000:]
        raise DocsError(f"Chromium ({binary}) failed with exit code {proc.returncode}"
                        + (f":\n{detail}" if detail else ""))
    return out


def pdf_from_html(html_path: Path, pdf_path: Path, timeout: float = TIMEOUT) -> None:
    """Print an HTML file to PDF with headless Chromium (A4 pages come from the page's @page CSS)."""
    html_path, pdf_path = Path(html_path).resolve(), Path(pdf_path).resolve()
    if not html_path.is_file():
        raise DocsError(f"{html_path}: no such file to print")
    pdf_path.unlink(missing_ok=True)
    # --no-pdf-header-footer is this name since Chromium 111; --print-to-pdf-no-header is the older one.
    run_chromium(["--no-pdf-header-footer", "--print-to-pdf-no-header", f"--print-to-pdf={pdf_path}",
                  html_path.as_uri()], timeout)
    if not pdf_path.is_file() or pdf_path.stat().st_size == 0:
        raise DocsError(f"Chromium finished but wrote no PDF at {pdf_path}")
