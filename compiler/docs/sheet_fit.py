"""Whether a card's rule text fits its card at a font size, estimated without a browser from
character widths measured in Chromium (DejaVu Sans and Serif, cards.css).

A card's panel holds its name, its class line, the rule text, a house-rule line and a footer;
the text gets the height the others leave. Each sentence starts a line and takes as many lines
as its characters need at that size's characters per line (measured per language on the sentences
of every card of the three boxes: Belarusian words are longer, so its lines hold fewer characters),
and the sentences are 0.45 em apart. The other parts' lines are estimated from their characters'
widths the same way. Every figure errs towards too little room, so a text that is estimated to
fit does fit (checked in Chromium: texts at each size's limit in tests/test_sheets.py, every card of
the three boxes in tests/test_sheets_deck.py); the sheet's script remains a safety net.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .sheet_layout import CARD_H, CARD_W

PT_PER_MM = 72 / 25.4
FRAME, PAD_X, PAD_TOP, PAD_BOTTOM = 2.0, 2.2, 2.0, 1.4  # mm (cards.css: .panel inset and padding)
WIDTH = (CARD_W - 2 * FRAME - 2 * PAD_X) * PT_PER_MM     # the panel's inner width, pt (≈ 154.8)
HEIGHT = (CARD_H - 2 * FRAME - PAD_TOP - PAD_BOTTOM) * PT_PER_MM  # its inner height, pt (≈ 228.5)
# Fixed heights (pt): header rule and spacing (1.2 + 0.3 + 1.6 mm), the class line's top margin
# (1 mm), the footer's and the house-rule line's top margins (0.8 mm each).
HEADER_FIXED = 3.1 * PT_PER_MM + 1.0 * PT_PER_MM
FOOTER_GAP = CHANGED_GAP = 0.8 * PT_PER_MM
# Line heights (pt) and widths of one character (pt, a little over the widest of the boxes' texts).
NAME_LINE, NAME_CHAR = 11 * 1.15, 7.25          # .name: DejaVu Serif bold 11 pt
META_LINE, LABEL_CHAR, RANKS_CHAR = 10.5, 5.6, 5.3  # .meta: 7 pt bold capitals, 8.5 pt bold
FOOT_LINE, FOOT_CHAR, ID_CHAR = 9.5, 4.4, 3.4   # footer: 6.5 pt bold (a boxed badge); the id 5.5 pt
CHANGED_LINE, CHANGED_CHAR = 6.5 * 1.2, 3.6     # .changed: 6.5 pt italic
ITEM_GAP = 1.5 * PT_PER_MM                       # between a flex row's items
WRAP = 0.93                                      # a wrapped line is this full at most


@dataclass(frozen=True)
class Step:
    cls: str          # the card's CSS class (cards.css)
    pt: float         # font size
    line: float       # line height, em
    chars: dict[str, int]  # characters per line of rule text, per language


# The font steps, largest first; 6.5 pt is the smallest readable size.
STEPS: tuple[Step, ...] = (
    Step("len-s", 9.0, 1.3, {"en": 28, "be": 24}),
    Step("len-m", 8.0, 1.25, {"en": 32, "be": 27}),
    Step("len-l", 7.25, 1.2, {"en": 36, "be": 30}),
    Step("len-xl", 6.5, 1.15, {"en": 40, "be": 34}),
)
SENTENCE_GAP = 0.45  # em, between sentences (.text li margin)


def _wrapped(chars: int, char_pt: float) -> int:
    """Lines a wrapped block of `chars` characters takes."""
    return max(1, math.ceil(chars * char_pt / (WIDTH * WRAP))) if chars else 0


def _row(items: list[tuple[int, float]]) -> int:
    """Lines a wrapping flex row of items (characters, width of one) takes."""
    lines, used = 0, WIDTH
    for chars, char_pt in items:
        if not chars:
            continue
        width = chars * char_pt
        if width > WIDTH:  # wraps inside itself, from a new line
            lines += _wrapped(chars, char_pt)
            used = WIDTH
        elif used + ITEM_GAP + width <= WIDTH:
            used += ITEM_GAP + width
        else:
            lines, used = lines + 1, width
    return lines


@dataclass(frozen=True)
class Parts:
    """The characters of a card's parts besides its rule text."""
    name: str = ""
    label: str = ""
    ranks: str = ""
    changed: str = ""
    footer: tuple[str, ...] = ()  # pile, players, copies (bold)
    id: str = ""


def text_room(parts: Parts) -> float:
    """The height (pt) the rule text gets on a card with these parts."""
    used = HEADER_FIXED + _wrapped(len(parts.name), NAME_CHAR) * NAME_LINE
    used += _row([(len(parts.label), LABEL_CHAR), (len(parts.ranks), RANKS_CHAR)]) * META_LINE
    if parts.changed:
        used += CHANGED_GAP + _wrapped(len(parts.changed), CHANGED_CHAR) * CHANGED_LINE
    foot = _row([(len(s) + 2, FOOT_CHAR) for s in parts.footer] + [(len(parts.id), ID_CHAR)])
    used += FOOTER_GAP + foot * FOOT_LINE
    return HEIGHT - used


def chars_per_line(step: Step, lang: str) -> int:
    """Characters per line of rule text; a language not measured gets the fewest measured."""
    return step.chars.get(lang, min(step.chars.values()))


def text_height(text: list[str], step: Step, lang: str) -> float:
    """The height (pt) of a rule text at a step: each sentence its lines, then its gap."""
    cpl = chars_per_line(step, lang)
    lines = sum(max(1, math.ceil(len(s) / cpl)) for s in text)
    return lines * step.pt * step.line + len(text) * SENTENCE_GAP * step.pt


def fitting_step(text: list[str], parts: Parts, lang: str) -> Step | None:
    """The largest step at which the text fits its card, or None where not even the smallest does."""
    room = text_room(parts)
    return next((s for s in STEPS if text_height(text, s, lang) <= room), None)

