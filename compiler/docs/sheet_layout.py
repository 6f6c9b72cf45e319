"""Where the cards, cut marks and notes of a card sheet page go, in millimetres on the paper.

Nine poker cards (63 × 88 mm) in 3 × 3, centred on the paper. With a bleed each card's art
reaches `bleed` beyond its cut line, so neighbouring cards stand 2 × bleed apart. Cut marks are
hairlines on the cut lines, in the margins only, for the cut lines of the cards a page holds.
A back page holds each card's back in the mirrored column (column c at 2 - c), so that after a
flip on the long edge each back lands behind its front; the grid is centred, so mirrored slots
fall on the same paper.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import DocsError
from .options import PAPERS

CARD_W, CARD_H = 63.0, 88.0  # poker size, mm
COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
GAP = 1.5         # between a cut mark and the art (the bleed's edge)
EDGE = 3.0        # between the paper's edge and a cut mark, where the margin allows
MIN_MARK = 2.0    # the shortest cut mark
MIN_EDGE = 1.0    # a cut mark no nearer the paper's edge than this
# The page notes (cards.css .note, 6 pt): three lines across the middle column in the top and bottom
# margins, or, where those are too narrow, two lines turned along the middle row in the side margins.
NOTE_ACROSS, NOTE_ALONG = 8.0, 5.5
MARK_WIDTH = 0.2

Box = tuple[float, float, float, float]  # left, top, width, height (mm)


def _margins(paper: str, bleed: float) -> tuple[float, float]:
    """Left/right and top/bottom margins: from the paper's edge to the nearest art."""
    width, height = PAPERS[paper]
    return (width - COLS * (CARD_W + 2 * bleed)) / 2, (height - ROWS * (CARD_H + 2 * bleed)) / 2


def _room(margin: float) -> float:
    """What a margin leaves a page note: its width less the gap to the art and an edge each side."""
    return margin - GAP - 2 * MIN_EDGE


def fits(paper: str, bleed: float) -> bool:
    """Whether 3 × 3 cards with this bleed, their cut marks and the page notes fit the paper."""
    mx, my = _margins(paper, bleed)
    marks = min(mx, my) >= GAP + MIN_MARK + MIN_EDGE
    return bleed >= 0 and marks and (_room(my) >= NOTE_ACROSS or _room(mx) >= NOTE_ALONG)


def max_bleed(paper: str) -> float:
    """The widest bleed (mm, to 0.1) that fits the paper (A4: 1.6 mm, letter: 1 mm)."""
    tenths = 0
    while fits(paper, (tenths + 1) / 10):
        tenths += 1
    return tenths / 10


@dataclass(frozen=True)
class Layout:
    paper: str = "a4"
    bleed: float = 0.0

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise DocsError(f"unknown paper `{self.paper}` (choose from: {', '.join(PAPERS)})")
        if not (self.bleed <= max_bleed(self.paper) and fits(self.paper, self.bleed)):  # (also refuses nan)
            raise DocsError(
                f"a bleed of {self.bleed:g} mm does not fit 3 × 3 cards of {CARD_W:g} × {CARD_H:g} mm with their "
                f"cut marks and page notes on {self.paper} paper: choose at most {max_bleed(self.paper):g} mm ("
                + ", ".join(f"{p}: {max_bleed(p):g} mm" for p in PAPERS) + ")")

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    @property
    def pitch(self) -> tuple[float, float]:
        """From one card's cut line to the next card's same cut line."""
        return CARD_W + 2 * self.bleed, CARD_H + 2 * self.bleed

    @property
    def margins(self) -> tuple[float, float]:
        """Left/right and top/bottom margins: from the paper's edge to the nearest art."""
        return _margins(self.paper, self.bleed)

    @property
    def side_notes(self) -> bool:
        """Whether the page notes go in the left and right margins (turned), the top and bottom
        margins being too narrow (letter paper)."""
        return _room(self.margins[1]) < NOTE_ACROSS

    def slot(self, index: int, back: bool = False) -> tuple[float, float]:
        """The cut box's left and top of the card at `index` (0-8, row by row); on a back page the
        column is mirrored."""
        row, col = divmod(index, COLS)
        if back:
            col = COLS - 1 - col
        (mx, my), (px, py) = self.margins, self.pitch
        return mx + self.bleed + col * px, my + self.bleed + row * py

    def cuts(self, slots: list[tuple[float, float]]) -> list[tuple[str, Box]]:
        """The cut marks of the cards at these cut-box corners: for each cut line that bounds one of
        them, a hairline in each margin it reaches ("v" vertical, "h" horizontal)."""
        (w, h), (mx, my) = self.size, self.margins
        xs = sorted({round(x + dx, 3) for x, _ in slots for dx in (0.0, CARD_W)})
        ys = sorted({round(y + dy, 3) for _, y in slots for dy in (0.0, CARD_H)})
        half = MARK_WIDTH / 2
        out: list[tuple[str, Box]] = []
        for margin, lines, kind in ((my, xs, "v"), (mx, ys, "h")):
            outer = margin - GAP  # the mark's end nearest the card
            start = min(EDGE, outer - MIN_MARK)
            far = (h if kind == "v" else w) - outer
            for at in lines:
                for lo in (start, far):
                    length = outer - start
                    out.append((kind, (at - half, lo, MARK_WIDTH, length) if kind == "v"
                                else (lo, at - half, length, MARK_WIDTH)))
        return out

    def notes(self) -> tuple[Box, Box]:
        """The boxes of the two page notes (the rule set; cutting and the page number): in the top
        and bottom margins between the middle column's cut lines, or, where those margins are too
        narrow, turned in the left and right margins between the middle row's cut lines; as they
        lie on the paper."""
        (w, h), (mx, my) = self.size, self.margins
        room = _room(my if not self.side_notes else mx)
        if not self.side_notes:
            left = self.slot(1)[0] + 2
            return (left, MIN_EDGE, CARD_W - 4, room), (left, h - MIN_EDGE - room, CARD_W - 4, room)
        top = self.slot(3)[1] + 2
        return (MIN_EDGE, top, room, CARD_H - 4), (w - MIN_EDGE - room, top, room, CARD_H - 4)
