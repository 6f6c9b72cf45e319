"""What the rule reference's templates read: the typed views compiler/docs/model.py gathers."""
from __future__ import annotations

from typing import TypedDict

from nidavellir.interface.rules import SpecialGem


class Link(TypedDict):
    anchor: str
    name: str


class CardCount(Link):
    count: int


class ZoneRef(TypedDict):
    anchor: str  # "" for a zone without an entry of its own (the tavern, the discard pile)
    name: str


class ClassLink(Link):
    cls: str


class Requirements(Link):
    text: list[str]


class SettingView(TypedDict):
    path: str
    value: str
    anchor: str


class InterpLink(TypedDict):
    anchor: str  # the clarification that states it (`rule-<id>`)
    label: str   # its number among the clarifications


class HouseRule(TypedDict):
    id: str
    name: str
    description: str
    source: str
    cards: list[Link]
    removed: list[str]
    classes: list[Link]
    settings: list[SettingView]     # shown in the designer's appendix (dotted paths of the rules data)
    sections: list[Link]            # the sections whose rules it changes
    interpretations: list[InterpLink]


class KindCount(TypedDict):
    kind: str
    label: str
    entries: int
    count: int


class PlayerRow(TypedDict):
    players: int
    gems: str
    per_tavern: int
    per_turn: int
    treasure: int


class PlainTable(TypedDict):
    """A table of plain cells (numbers and words), its first row the head."""
    head: list[str]
    rows: list[list[str]]


class Components(TypedDict):
    kinds: list[KindCount]
    rows: list[PlayerRow]
    decks: PlainTable      # the age decks' make-up by number of players
    ages: list[int]
    basic: str
    basic_total: int
    max_players: int
    treasure: str
    treasure_total: int
    special_coins: str
    gems: str
    special_gems: str


class Removal(TypedDict):
    players: str
    coins: str
    left: int


class ExtraCards(TypedDict):
    players: int
    most: bool  # `players` is the most the game allows ("with 5 players", not "5 or more")
    age: int
    cards: list[CardCount]


class DrawView(TypedDict):
    """A tavern filled from a zone's deck instead of the age deck in some turns (`taverns[].draws`)."""
    tavern: str
    zone: ZoneRef
    when: str   # "in turns 1, 2 and 3 of Age 1"


class AgeTurns(TypedDict):
    age: int
    turns: str  # per player count: how many turns the age lasts


class ZoneDecks(TypedDict):
    zone: ZoneRef
    decks: str
    pile: bool          # one deck for the whole game (not one per age)
    count: int
    draws: list[DrawView]


class Setup(TypedDict):
    basic: str
    gems: str
    taverns: str
    heroes: int
    distinctions: list[Link]
    treasure_total: int
    removals: list[Removal]
    extra: list[ExtraCards]
    zone_decks: list[ZoneDecks]


class Elsewhere(TypedDict):
    kinds: str
    zone: ZoneRef


class Step(TypedDict):
    id: str
    do: str | None
    message: str                # the catalog key of its text (a step spec's, or a window's)
    window: str | None
    window_name: str
    ages: list[int]
    ages_text: str
    reacting: list[Link]
    changed: list[str]
    zone: ZoneRef
    deck: ZoneRef
    into: ZoneRef
    count: int
    kind: str
    order: str
    draws: list[DrawView]       # a drawing step: taverns filled from a zone's deck in some turns
    age_turns: list[AgeTurns]   # a drawing step: how long the ages with such turns last
    elsewhere: list[Elsewhere]  # clear into the discard pile: kinds whose discards go to another zone


class ZoneDeck(TypedDict):
    age: int
    count: int
    cards: list[CardCount]


class ZoneStep(TypedDict):
    """A flow step that uses a zone, and the other zone it names."""
    step: Link
    other: ZoneRef
    count: int


class ZoneDealt(TypedDict):
    """A tavern that the dwarves' entry fills from this zone's deck in some turns."""
    step: Link
    tavern: str
    when: str


class ZoneCell(TypedDict):
    count: int
    cards: list[CardCount]


class ZoneRow(TypedDict):
    label: str
    cells: list[ZoneCell]


class ZoneTable(TypedDict):
    """A zone's decks by kind: a column per deck (one per age, or the one pile), a row per kind."""
    head: list[str]
    rows: list[ZoneRow]
    totals: list[int]


class ZoneView(TypedDict):
    id: str
    anchor: str
    title: str
    per_age: bool
    pile: bool                 # one shuffled deck for the whole game (its `decks:` entries of any age)
    explored: bool
    decks: list[ZoneDeck]
    table: ZoneTable | None    # the same decks, as one table
    dealt: list[ZoneDealt]
    kept: bool                 # a pile no step empties: what is not dealt stays to the end
    drawn_by: list[Link]       # cards whose effects draw from its top or put cards under it
    refilled: list[ZoneStep]
    feeds: list[ZoneStep]
    cleared: list[ZoneStep]
    receives: list[ZoneStep]
    picked: bool
    taken_by: list[Link]
    discarded: str  # the kinds whose discarded cards go here (`discards_to`), joined
    changed: list[str]


class PickSourceView(TypedDict):
    id: str
    zone: ZoneRef
    who: str
    also: list[Link]
    discard: int
    discard_players: str


class BreakdownPart(TypedDict):
    part: str
    kinds: str


class StepFacts(TypedDict):
    per_tavern: str
    taverns: str


class AgeSteps(TypedDict):
    age: int
    last: bool
    steps: list[Step]


class ExampleView(TypedDict):
    cards: list[Link]
    ranks: int
    points: int
    value: int
    facts: str


class ClassView(TypedDict):
    id: str
    anchor: str
    name: str
    formula: str
    tabulated: bool
    example: ExampleView | None
    changed: list[str]
    changed_by: list[Link]  # cards that modify a setting the formula reads (`param(x)`)


class ScoreTable(TypedDict):
    classes: list[str]
    rows: list[list[int]]


CardView = TypedDict("CardView", {"id": str, "anchor": str, "name": str, "kind": str, "class": str,
                                  "class_label": str, "ranks_label": str, "text": list[str]})


class CardEntry(CardView):
    copies: int
    added: list[str]    # the house rule that added it (names; interface/rules.py card_marks)
    changed: list[str]  # the house rules that changed it
    decks: list[str]
    placed_by: list[Link]  # a card in no deck that other cards' effects bring into play
    show_class: bool       # its kind holds cards of more than one class


class CardRow(TypedDict):
    """One card of a kind's table: a card whose text is only its ranks and points."""
    anchor: str
    name: str
    cells: list[str]
    added: list[str]
    changed: list[str]
    placed_by: list[Link]


class CardTable(TypedDict):
    head: list[str]   # the card's column first
    rows: list[CardRow]
    notes: list[str]  # what the copy counts mean ("8 + 2": 2 more with 5 players)


class CardGroup(TypedDict):
    kind: str
    anchor: str
    label: str
    notes: list[str]
    table: CardTable | None  # its cards without rule text of their own, one row each
    cards: list[CardEntry]   # its cards with rule text, one entry each


HeroGroup = TypedDict("HeroGroup", {"class": str, "label": str, "cards": list[Link]})


class Interpretation(TypedDict):
    id: str
    anchor: str       # its row of the designer's appendix
    rule: str         # the anchor of the clarification that states it as a rule
    number: int       # that clarification's number
    text: str
    source: str
    file: str         # where the rules data records it (`rules/base/game.yaml:117`)
    changed: list[str]


class ClarificationGroup(TypedDict):
    """The interpretations of one layer (a box or a house rule), stated as rules."""
    layer: str
    anchor: str
    start: int
    entries: list[Interpretation]


class SourceNote(TypedDict):
    """A section of the player part and the sources its rules rest on."""
    anchor: str
    title: str
    source: str


class Term(TypedDict):
    id: str
    anchor: str
    term: str
    text: str


class Section(TypedDict):
    anchor: str
    title: str


class Fallback(TypedDict):
    what: str         # the entry, in the reference's language
    layer: str        # the house rule's name
    file: str         # where its English is written (`file:line`)
    fix: str          # where its text goes (`texts.be.cards.grid`)


class Reference(TypedDict):
    lang: str
    layers: list[str]
    sections: list[Section]
    sources: dict[str, str]
    marks: dict[str, list[str]]
    house_rules: list[HouseRule]
    components: Components
    setup: Setup
    zones: list[ZoneView]
    turn: list[Step]
    tavern: list[Step]
    pick_sources: list[PickSourceView]
    facts: StepFacts
    ages: list[AgeSteps]
    gems: str
    special_gems: list[SpecialGem]
    point_gems: list[SpecialGem]
    trading_coins: str
    modifying: dict[str, list[Link]]
    class_names: str
    class_count: int
    heroes: list[HeroGroup]
    requirements: list[Requirements]
    classes: list[ClassView]
    table: ScoreTable
    distinctions: list[ClassLink]
    breakdown: list[BreakdownPart]
    card_groups: list[CardGroup]
    clarifications: list[ClarificationGroup]
    interpretations: list[Interpretation]
    fallbacks: list[Fallback]  # the house rules' entries without a text in this language
    section_sources: list[SourceNote]
    glossary: list[Term]
    index: list[Link]
