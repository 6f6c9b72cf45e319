"""How a rule set is printed: paper, which copies of each card, card backs, bleed, card ids."""
from __future__ import annotations

from dataclasses import dataclass

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm
COPIES = ("all", "one")  # every copy the box holds (a playtest deck), or one of each card (a catalogue)


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"        # a key of PAPERS
    copies: str = "all"      # one of COPIES
    backs: bool = False      # card backs on the reverse of each sheet page (duplex, long-edge flip)
    bleed_mm: float = 0.0    # printed beyond each card's cut line
    ids: bool = False        # each card's id in its footer (for designers; players do not need it)

    @property
    def paper_mm(self) -> tuple[float, float]:
        return PAPERS[self.paper]
