"""The rule reference's sections, and which section shows each game setting, param and source note."""
from __future__ import annotations

# Sections in reading order: (anchor, catalog key of the title). The player part runs up to the
# designer's appendix ("sources"); the index of cards follows it.
SECTIONS = [
    ("house-rules", "ref.house.title"), ("components", "ref.components.title"), ("setup", "ref.setup.title"),
    ("zones", "ref.zones.title"), ("turn", "ref.turn.title"), ("bids", "ref.bids.title"), ("coins", "ref.coins.title"),
    ("heroes", "ref.heroes.title"), ("scoring", "ref.scoring.title"), ("age-end", "ref.age_end.title"),
    ("final-scoring", "ref.final.title"), ("cards", "ref.cards.title"), ("clarifications", "ref.clarify.title"),
    ("glossary", "ref.glossary.title"), ("sources", "ref.appendix.title"), ("index", "ref.index.title"),
]
# The section that shows each game setting (a house rule that changes one marks it).
SETTING_SECTIONS = {
    "players": "components", "cards_per_tavern": "components", "coins": "components", "gems": "components",
    "taverns": "setup", "ages": "turn", "events": "turn", "kinds": "cards", "classes": "scoring",
    "flow.turn": "turn", "flow.tavern": "turn", "flow.age_end": "age-end", "flow.before_scoring": "final-scoring",
    "zones": "zones", "pick_sources": "turn",
}
# The section whose rule a game param changes (cards that modify it are listed there).
PARAM_SECTIONS = {"bid_from_hand": "bids", "transform_bonus": "coins", "trade_lower": "coins",
                  "recruit_by_lines": "heroes"}
# Sections whose source note may gain a box's own sources (`<key>.<layer id>` in the catalog): the
# catalog key of the note -> the section's anchor (the appendix lists them).
SOURCE_KEYS = {"ref.setup.source": "setup", "ref.zones.source": "zones", "ref.turn.source": "turn",
               "ref.bids.source": "bids", "ref.coins.source": "coins", "ref.heroes.source": "heroes",
               "ref.scoring.source": "scoring", "ref.age_end.source": "age-end", "ref.final.source": "final-scoring"}
TITLES = dict(SECTIONS)
