"""What the runtime does that rules data may name: the events it fires, in which forms, and the
params it reads (the flow steps it implements are interface/mechanisms.py's).

This is the one place these are declared. The checker refuses an effect on an event in a form
the runtime never fires (so no rule compiles that cannot act), and a test checks every `emit` /
`replace` call site of `runtime/` against this table.

Forms of an effect on an event:

- ``when``: the event's subject card is the effect's own card;
- ``whenever``: the event concerns a card (or no card) of the effect's owner;
- ``instead``: the event is offered to its subject card's replacement effects before it happens;
- ``instead-any``: it is offered to the replacement effects of every card of the subject's owner.

Flow windows (the `window:` steps of the flow data) are events too: every card of every player
reacts to them with `when` or `whenever` (both mean the same there); they have no subject card
and cannot be replaced.
"""
from __future__ import annotations

from dataclasses import dataclass

WHEN, WHENEVER, INSTEAD, INSTEAD_ANY = "when", "whenever", "instead", "instead-any"
FORMS = (WHEN, WHENEVER, INSTEAD, INSTEAD_ANY)


# Where an event's subject card is while the effects on the event run (so the checker knows what an
# action of theirs on that card does: a card already in its owner's army that moves joins nothing):
IN_ARMY = "army"        # in one of its owner's army columns (or stepping aside from it: covered)
ENTERED = "entered"     # where its kind enters when taken or recruited (an army column or the command zone)
HELD = "held"           # in its owner's army or command zone
OUTSIDE = "outside"     # held by no player (a tavern, a distinction no one won)


@dataclass(frozen=True, slots=True)
class EventSpec:
    name: str
    text: str                  # what happens, for designers and the reference
    forms: frozenset[str]      # the forms in which the runtime fires it
    subject: bool = True       # it concerns one card (`subject`, `subject_class`, ... are readable)
    player: bool = True        # it belongs to a player (effects may act for that player)
    amount: bool = False       # it carries an amount (`amount` is readable)
    subject_at: str = ""       # where the subject is while its effects run (IN_ARMY, ENTERED, HELD, OUTSIDE)


def _spec(name: str, text: str, *forms: str, subject: bool = True, player: bool = True,
          amount: bool = False, at: str = "") -> EventSpec:
    return EventSpec(name, text, frozenset(forms), subject, player, amount, at)


EVENTS: dict[str, EventSpec] = {e.name: e for e in (
    _spec("taken", "a card is taken from a tavern, a draw or a pile",
          WHEN, WHENEVER, INSTEAD, INSTEAD_ANY, at=ENTERED),
    _spec("recruited", "a hero is recruited", WHEN, WHENEVER, at=ENTERED),
    _spec("won", "a distinction is won at the Troop Evaluation", WHEN, WHENEVER, at=ENTERED),
    _spec("unclaimed", "no one wins a distinction", WHEN, player=False, at=OUTSIDE),
    _spec("covered", "another card is about to be placed on top of this card in its column", INSTEAD, at=IN_ARMY),
    _spec("discarded", "a card of a player's army is about to be discarded", INSTEAD, INSTEAD_ANY, at=HELD),
    _spec("picked", "a player has chosen a card in the tavern being resolved", INSTEAD, INSTEAD_ANY, at=OUTSIDE),
    _spec("bid-won", "a player's bid is the highest of a tavern and they choose first",
          WHENEVER, subject=False),
    _spec("coin-bettered", "a trade or transformation gave a player a better coin (amount: points gained)",
          WHENEVER, subject=False, amount=True),
    _spec("coin-traded", "a player traded coins", WHENEVER, subject=False),
    _spec("captured", "a card captured another (the capturing card's event)", WHEN, WHENEVER, at=HELD),
    _spec("joined", "a card joins a player's army from outside it (taken, recruited, enlisted or placed "
                    "by an effect; not a move within the army)", WHEN, WHENEVER, at=IN_ARMY),
)}


# What the engine actions compiled effects call can fire, so that the checker sees effects that
# feed themselves (compiler/cycles.py). Per action (an `EngineAPI` method), the events it may fire
# (a test checks them against what the runtime's code fires, through every call it makes), which card
# each is about, and what each firing uses up, if anything: a loop through it stops when that runs out.
# The card an event is about:
CARD = "card"    # the card the action is given (a card placed, a card discarded)
OWN = "own"      # the card whose effect acts (a giant that captures)
ARMY = "army"    # another card of the army (the one a placed card lands on)
PILE = "pile"    # a card of the pile or deck the action takes from
HERO = "hero"    # a hero from those available
NO_CARD = ""     # no card
# Under which circumstances an action fires the event (the runtime's code, tests/test_cycles.py):
ALWAYS = ""          # whenever the action acts
LANDS = "lands"      # only when the card it moves lands in an army column (not the command zone)
JOINS = "joins"      # only for a card that lands in an army column from outside its owner's army: a
                     # card already in that army (moving to another column, stepping aside) joins nothing
# What a firing uses up (and the actions that give it back, so that a loop can go on):
TREASURE, HEROES, LINES, PILES, DECKS, SUPPLY = "treasure", "heroes", "lines", "piles", "decks", "supply"
USED_UP = {TREASURE: "the treasure has no better coin", HEROES: "no hero is left to recruit",
           LINES: "no new line is completed", PILES: "the pile runs out of cards",
           DECKS: "the deck runs out of cards", SUPPLY: "the supply runs out of the card"}


@dataclass(frozen=True, slots=True)
class Fires:
    event: str
    about: str                 # CARD, OWN, ARMY, PILE, HERO or NO_CARD
    uses: str | None = None    # what each firing uses up (None: nothing; a loop through it can run forever)
    when: str = ALWAYS         # the circumstances in which the action fires it (ALWAYS, LANDS, JOINS)


ACTION_EVENTS: dict[str, tuple[Fires, ...]] = {
    "transform": (Fires("coin-bettered", NO_CARD, TREASURE),),   # a better coin each time, never more than the best
    "transform_spread": (Fires("coin-bettered", NO_CARD, TREASURE),),
    # (a hero for a complete line: each new line recruits once, and lines once counted stay counted; the
    # hero joins the army where it enters one)
    "place": (Fires("joined", CARD, when=JOINS), Fires("covered", ARMY, when=LANDS),
              Fires("recruited", HERO, LINES, LANDS), Fires("joined", HERO, LINES, JOINS)),
    "recruit_hero": (Fires("recruited", HERO, HEROES), Fires("joined", HERO, HEROES, JOINS),
                     Fires("covered", ARMY, HEROES, LANDS), Fires("recruited", HERO, LINES),
                     Fires("joined", HERO, LINES, JOINS)),
    "discard_card": (Fires("discarded", CARD),),   # (only `instead of` it: the card stays, nothing is used up)
}  # (and the action specs' own, interface/mechanisms.py ACTION_SPECS)
ACTION_USES: dict[str, str] = {"supply_card": SUPPLY}   # actions that use something up and fire nothing
ACTION_GIVES_BACK: dict[str, str] = {"return_hero": HEROES, "discard_card": PILES, "discard_top": PILES,
                                     "put_under_deck": DECKS}


def window_spec(name: str) -> EventSpec:
    """A flow window as an event: every player's cards, no subject card, never replaced."""
    return EventSpec(name, f"the flow window `{name}`", frozenset({WHEN, WHENEVER}), subject=False)


# Who may use a pick source (`who:`).
PICK_WHO: dict[str, str] = {
    "any": "every bidder, in bid order",
    "top-bidder": "the top bidder only",
}

# Player orders of a step (`order.by`).
ORDERS: dict[str, str] = {
    "gem": "players by gem, highest first",
    "bid": "the bidders of the tavern being resolved, highest bid first (ties: higher gem); in `flow.tavern`",
    "most": "players holding cards of `kind` in their command zone, most first (ties: higher gem); the "
            "first of them chooses to go first or last",
}

# Zones every rule set has; a layer declares the others under `game.zones`.
BUILTIN_ZONES: dict[str, str] = {
    "discard": "the discard pile",
    "box": "the box: cards out of the game",
    "tavern": "the tavern being resolved (in `flow.tavern` and pick sources)",
}

# Params the runtime itself reads (with the value it assumes when the rules give none).
RUNTIME_PARAMS: dict[str, tuple[int, str]] = {
    "bid_from_hand": (0, ">0: the player keeps coins in hand and bids each tavern after the others reveal"),
    "transform_bonus": (0, "added to every coin trade and transformation"),
    "trade_lower": (0, ">0: a coin trade discards the lower coin"),
    "recruit_by_lines": (1, "0: complete lines recruit no hero"),
}

# The last guard against rules that never end: a turn past this many in one age stops the game.
MAX_TURNS_PER_AGE = 200
