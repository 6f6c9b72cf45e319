"""The mechanisms rules data may name, each declared once: the flow steps (`do:`) the runtime
implements, and the engine actions of the effect DSL (those whose phrase the spec's grammar rule
gives). A step's spec gives its typed operands, the flow parts it may stand in, what it does to the
cards (draws from the age deck, moves only shared zones), its catalog key and a one-line text; an
action's gives its phrase, its typed operands, what it needs, the call it emits, its guard, the
events it fires, what it moves and its catalog key. The compiler checks the flow data and the
effects against the specs, the emitter and the rule text read them, the LSP offers the steps'
names, and runtime/flow.py binds one function to each step (a test checks both ways)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .events import ACTION_EVENTS as EVENT_ACTIONS
from .events import ARMY, HERO, JOINS, LANDS, LINES, OWN, PILE, PILES, Fires
from .events import DECKS as DECKS_USED

# The parts of the flow data: a turn's steps, an age's end, a tavern's resolution.
TURN, AGE_END, TAVERN = "turn", "age_end", "tavern"
FLOW_PARTS = (TURN, AGE_END, TAVERN)

# What an operand's value names (the checker's test of it).
FACE_UP = "face-up zone"                  # a zone of cards face up (the tavern too, in `flow.tavern`)
FILLED = "face-up zone filled from decks" # a face-up zone a step fills from a zone's deck
DECKS = "zone of decks"                   # a zone holding one deck per age (`per_age: true`)
COUNT = "number"
KIND = "kind of card"

# The operands a step may take (fields of interface/rules.py `Step`), each with the value it names
# unless a spec says otherwise, in the order of the compiled tables.
OPERANDS: dict[str, str] = {"zone": FACE_UP, "deck": DECKS, "into": FACE_UP, "count": COUNT, "kind": KIND}


@dataclass(frozen=True)
class StepSpec:
    """A flow step the runtime implements. `operands`: the keys it requires (any other is refused)
    with the value each names; `parts`: where it may stand; `home`: the part it belongs to, if one
    (the others may run in either of a turn and an age's end); `draws`: it puts cards of the
    current age's deck into play (a turn without one never ends its age); `shared`: it only moves
    cards between shared zones, so it may follow the final scoring; `ordered`: it takes a player
    order (`order:`; by gem without one); `param`: the runtime param without which it does nothing."""
    name: str
    text: str
    operands: tuple[tuple[str, str], ...] = ()
    parts: frozenset[str] = frozenset({TURN, AGE_END})
    home: str | None = None
    draws: bool = False
    shared: bool = False
    ordered: bool = False
    param: str | None = None

    @property
    def message(self) -> str:
        """The catalog key of the step's text in the reference."""
        return f"ref.step.{self.name}"

    def operand(self, key: str) -> str:
        """What the value of `key` names on this step."""
        return dict(self.operands).get(key, OPERANDS[key])


_TAVERN = frozenset({TAVERN})
# (in the order the checker's hints list them: a turn's steps, then a tavern's)
STEP_SPECS: dict[str, StepSpec] = {s.name: s for s in (
    StepSpec("enter-dwarves", "cards of the current age's deck are put face up in each tavern", home=TURN, draws=True),
    StepSpec("bids", "each player bids one coin on each tavern", home=TURN),
    StepSpec("resolve-taverns", "the taverns are resolved in order, each by the steps of `flow.tavern`", home=TURN),
    StepSpec("troop-evaluation", "the distinctions are awarded to the strict majority of each class"),
    StepSpec("final-scoring", "the Final Bravery Value of every player is counted", home=AGE_END),
    StepSpec("refill", "`zone` is refilled to `count` face-up cards from the current age's deck of `deck`",
             (("zone", FILLED), ("deck", DECKS), ("count", COUNT)), shared=True),
    StepSpec("deal", "`count` cards of the current age's deck of `deck` are put face up in `zone`",
             (("zone", FILLED), ("deck", DECKS), ("count", COUNT)), shared=True),
    StepSpec("late-bids", "players who bid from their hand place a coin on the tavern, the others' bids revealed",
             parts=_TAVERN, param="bid_from_hand"),
    StepSpec("picks", "each bidder in bid order takes a card from a pick source they may use, then trades a "
                      "trading coin bid here", parts=_TAVERN),
    StepSpec("gem-trades", "players tied on a bid trade gems", parts=_TAVERN),
    StepSpec("clear", "every card of `zone` goes to `into`", (("zone", FACE_UP), ("into", FACE_UP)),
             parts=frozenset(FLOW_PARTS), shared=True),
    StepSpec("place-held", "in the step's player order, each player places every card of `kind` from their command "
                           "zone into one of its columns, in the order they choose; a hero a placement recruits "
                           "comes before the next placement", (("kind", KIND),), ordered=True),
)}


def step_spec(do: object) -> StepSpec | None:
    """The spec a flow step's `do:` value names, if any."""
    return STEP_SPECS.get(do) if isinstance(do, str) else None


def steps_of(part: str) -> dict[str, StepSpec]:
    """The steps that may stand in a part of the flow, by name."""
    return {n: s for n, s in STEP_SPECS.items() if part in s.parts}


def steps_with(key: str, value: str | None = None) -> list[str]:
    """The steps taking the operand `key` (naming `value`, if given), in declaration order."""
    return [n for n, s in STEP_SPECS.items() if key in dict(s.operands) and value in (None, s.operand(key))]


# -- actions -------------------------------------------------------------------------------------
# What an action needs of its effect's scope (compiler/names.py's names for them).
PLAYER, CARD, SUBJECT = "player", "card", "subject"

# What an action's operand is: how the checker tests it, the emitter writes it and the rule text words it.
AMOUNT = "amount"          # a number expression
AMOUNTS = "amounts"        # several number expressions, each an amount (it ends the operands)
DECK = "deck"              # an age's deck, the current age's, or a zone's pile (`<zone> deck`)
GEM = "special gem"        # a special gem's value, as written
FROM_ZONE = "zone taken from"  # `discard` or a zone the rules declare, one an effect may look into
WORD = "word"              # one of the grammar's fixed words: it picks the action's message
COINS = "coins"            # the player's coin(s) a selection names: the call runs once per coin (`{coin}`)
COIN = "coin"              # a coin of the rules, by its id
CARD_REF = "card reference"  # the effect's own card, the event's subject, or a card of the supply by id
PLACE = "place"            # an army column (chosen or named) or the command zone, for the card operand
CARD_SET = "card set"      # cards of the player's army (`last dwarf of other columns`, `non-hero in column X`)
HERO_CLASS = "hero class"  # a class of the rules or `neutral` (heroes of no class); left out: any class (None)
FLAG = "flag"              # a word the phrase may leave out: the call gets whether it is written

# The forms a card set's action words itself in (its message's key, then one of these): by the
# columns it names, and `all.` when it is every card of them, not each column's last.
SET_FORMS = ("any", "other", "only", "all.any", "all.other", "all.only")


@dataclass(frozen=True)
class Operand:
    """An action's operand: its name (the placeholder of the spec's call, guard and message), what it
    is, and for an amount the verb its value check words (`verb`) and whether the action acts on
    nothing unless it is at least 1 (`positive`: the guard tests that first; for several amounts,
    unless one of them is); for a word, the words the grammar gives it. An operand the phrase may
    leave out has the grammar terminal that writes it (`token`; left out, its value is ir.Omitted)
    and the part it adds to the message key when written (`key`); a flag's value when written is
    `written` (the opposite when left out)."""
    name: str
    kind: str
    verb: str | None = None
    positive: bool = False
    words: tuple[str, ...] = ()
    token: str | None = None
    key: str = ""
    written: bool = True


@dataclass(frozen=True)
class ActionSpec:
    """An engine action of the effect DSL: what it acts on is its effect's own player, card or event
    subject, and its `operands`, in the order its grammar rule gives them. `rule`: the phrase's alias
    in grammar/effects.lark; `phrase`: how diagnostics quote it; `call`: the Python it runs (in
    braces the scope's names, `{p}`, `{card}`, `{ev}`, and the operands'), through an EngineAPI
    method; `needs`: what its scope must have; `instead_only`: only an `instead of` effect may do it;
    `guard`: the EngineAPI test of whether it finds something to act on (compiler/emit.py
    `_can_act`, after its positive operands); `fires`: the events its method fires
    (compiler/cycles.py); `marks`: the position-format keys of the state it leaves on its card;
    `message`: the catalog key of its rule text (its words' operands in braces; with a card set, the
    key of its `SET_FORMS`; with a selection of coins, the key of the selection's words, when the
    catalog has one: `.each`, `.pouch.chosen`); `prompt`: what a player choosing a coin for it is
    told (its coin operands' ids in braces; a part in square brackets is kept only when the operands
    it names are known as the rules compile, a number as written); `gives_coin`: its call gives back
    the coin it leaves, which a later `other coin` of the effect does not choose again; `counted`:
    the amount operand the text counts, and the noun it counts (a card set names its own); `source`:
    the operand naming the pile or deck whose cards it moves, to the acting player or (`discards`) to
    the discard pile, where a card set's cards go too;
    `under`: the deck operand under which it puts its card operand (which leaves play for that
    deck); `unsettles`: it may move the effect's own card or the event's subject anywhere (a
    discard, a capture); `temps`: the temporaries its call binds, each a fresh name of the handler
    (in braces; the call may take several lines). `cost`: its call's value says whether it was done,
    so it may stand before `then` (what follows is done only if it was); `leaves`: an action and
    some of its operands: when `then` follows this one with that action, the call and the guard
    get those operands' values (`{then}`: `, then=(…)`; empty otherwise) and offer only the choices
    that leave that action something to act on, so the guard tests both; `heroes`: the operand
    naming the class of the heroes it moves to the acting player (its value None: any)."""
    name: str
    rule: str
    phrase: str
    call: str
    message: str
    needs: frozenset[str] = frozenset()
    instead_only: bool = False
    guard: str | None = None
    fires: tuple[Fires, ...] = ()
    marks: tuple[str, ...] = ()
    operands: tuple[Operand, ...] = ()
    prompt: str = ""
    gives_coin: bool = False
    counted: tuple[str, str] | None = None
    source: str | None = None
    discards: bool = False
    under: str | None = None
    unsettles: bool = False
    temps: tuple[str, ...] = ()
    cost: bool = False
    leaves: tuple[str, tuple[str, ...]] | None = None
    heroes: str | None = None

    def index(self, operand: str) -> int:
        """Where the operand named `operand` stands among the operands."""
        return next(i for i, o in enumerate(self.operands) if o.name == operand)

    @property
    def messages(self) -> list[str]:
        """Every catalog key its text may take (one per word of its word operands)."""
        keys = [self.message]
        for o in self.operands:
            if o.kind == WORD:
                keys = [k.replace("{" + o.name + "}", w) for k in keys for w in o.words]
            elif o.kind == CARD_SET:
                keys = [f"{k}.{form}" for k in keys for form in SET_FORMS]
            elif o.token is not None:
                keys = [k.replace("{" + o.name + "}", part) for k in keys for part in ("", o.key)]
        return keys

    @property
    def method(self) -> str | None:
        """The EngineAPI method it calls (None: it calls none)."""
        found = re.search(r"\bg\.([a-z_]+)\(", self.call)
        return found.group(1) if found else None


def _joins_from(where: str) -> tuple[Fires, ...]:
    """What an action firing as it moves cards of a pile or deck (`where` says which may be used
    up) to the acting player fires: each card is taken, joins the army where it enters a column
    (covering the column's top card), and a line it completes recruits a hero."""
    return (Fires("taken", PILE, where), Fires("joined", PILE, where, JOINS), Fires("covered", ARMY, where, LANDS),
            Fires("recruited", HERO, LINES), Fires("joined", HERO, LINES, JOINS))


ACTION_SPECS: dict[str, ActionSpec] = {s.name: s for s in (
    ActionSpec("recruit", "recruit_hero", "recruit",
               "yield from g.recruit_hero({p}, counted={counted}, cls={cls}, another={another})",
               "act.recruit{counted}{cls}{another}", frozenset({PLAYER}),
               guard="g.can_recruit_hero({p}, {cls}, {another})",
               operands=(Operand("another", FLAG, token="ANOTHER", key=".another"),
                         Operand("cls", HERO_CLASS, token="NAME", key=".of"),
                         Operand("counted", FLAG, token="COUNTS", key="_uncounted", written=False)),
               cost=True, heroes="cls"),
    ActionSpec("return", "return_hero", "return", "yield from g.return_hero({p}, {cls}{then})", "act.return_hero",
               frozenset({PLAYER}), guard="g.can_return_hero({p}, {cls}{then})",
               operands=(Operand("cls", HERO_CLASS),), cost=True, leaves=("recruit", ("cls", "another")),
               unsettles=True),
    ActionSpec("swap", "swap_tavern", "swap", "yield from g.swap_tavern_cards({p})", "act.swap",
               frozenset({PLAYER}), guard="g.can_swap({p})"),
    ActionSpec("reserve", "reserve", "reserve", "yield from g.reserve_tavern_card({p})", "act.reserve",
               frozenset({PLAYER}), guard="g.can_reserve({p})"),
    ActionSpec("capture", "capture", "capture", "yield from g.capture({p}, {card}, {ev}.subject)", "act.capture",
               frozenset({PLAYER, SUBJECT}), instead_only=True, fires=(Fires("captured", OWN),), unsettles=True),
    ActionSpec("cancel", "cancel", "cancel", "pass  # the event does not happen", "act.cancel", instead_only=True),
    ActionSpec("choose-class", "choose_class", "choose class", "yield from g.choose_class({p}, {card})",
               "act.choose_class", frozenset({PLAYER}), marks=("class",)),
    ActionSpec("face-down", "face_down", "turn face down", "g.turn_face_down({card})", "act.face-down",
               marks=("face_down", "used")),
    ActionSpec("transform", "transform_coin", "transform", "yield from g.transform({p}, {coin}, {amount})",
               "act.transform", frozenset({PLAYER}),
               operands=(Operand("coin", COINS), Operand("amount", AMOUNT, "transform", positive=True)),
               prompt="transform a coin[ by {amount}]", gives_coin=True),
    ActionSpec("transform-spread", "transform_spread", "transform",
               "yield from g.transform_spread({p}, 'pouch', ({amounts},))", "act.transform_spread", frozenset({PLAYER}),
               guard="bool(g.transformable_coins({p}, 'pouch'))",
               operands=(Operand("amounts", AMOUNTS, "transform", positive=True),)),
    ActionSpec("exchange", "exchange", "exchange", "g.exchange_coin({p}, {coin}, {new})", "act.exchange",
               frozenset({PLAYER}), operands=(Operand("coin", COINS), Operand("new", COIN)),
               prompt="exchange for {new}", guard="g.special_coin_left({new})", gives_coin=True),
    ActionSpec("discard-coin", "discard_coin", "discard", "g.discard_coin({p}, {coin})", "act.discard_coin",
               frozenset({PLAYER}), operands=(Operand("coin", COINS),), prompt="discard"),
    ActionSpec("gain-gem", "gain_gem", "gain gem", "g.gain_gem({p}, {value})", "act.gain_gem",
               frozenset({PLAYER}), guard="g.special_gem_left({value})", operands=(Operand("value", GEM),)),
    ActionSpec("place", "place", "place", "yield from g.place({p}, {moved}, {dest})", "act.place", frozenset({PLAYER}),
               operands=(Operand("moved", CARD_REF), Operand("dest", PLACE))),
    ActionSpec("place-under", "place_under", "place under", "g.put_under_deck({moved}, {deck})", "act.place_under",
               operands=(Operand("moved", CARD_REF), Operand("deck", DECK)), under="deck"),
    ActionSpec("discard", "discard", "discard",
               "{picked} = yield from g.choose_cards({p}, {cards}, {count}, 'discard')\n"
               "for {each} in g.each_card({picked}):\n"
               "    yield from g.discard_card({p}, {each})", "act.discard", frozenset({PLAYER, CARD}),
               guard="(len({cards}) > 0)", operands=(Operand("count", AMOUNT, "discard", positive=True),
                                                     Operand("cards", CARD_SET)),
               counted=("count", "card"), discards=True, unsettles=True, temps=("picked", "each")),
    ActionSpec("discard-top", "discard_top", "discard top", "g.discard_top({deck})", "act.discard_top",
               guard="(g.deck_size({deck}) > 0)", operands=(Operand("deck", DECK),), source="deck", discards=True),
    ActionSpec("look", "look", "look at", "yield from g.look({p}, {deck}, {count}, {take}, {rest_mode})",
               "act.look.{rest_mode}", frozenset({PLAYER}), guard="(g.deck_size({deck}) > 0)",
               fires=_joins_from(DECKS_USED),
               operands=(Operand("count", AMOUNT, "look", positive=True), Operand("deck", DECK),
                         Operand("take", AMOUNT, "keep"), Operand("rest_mode", WORD, words=("shuffled", "bottom"))),
               counted=("count", "card"), source="deck"),
    ActionSpec("take", "take_from", "take", "yield from g.take_from({p}, {zone}, {count})", "act.take_from",
               frozenset({PLAYER}), guard="g.can_take_from({p}, {zone})", fires=_joins_from(PILES),
               operands=(Operand("count", AMOUNT, "take", positive=True), Operand("zone", FROM_ZONE)),
               counted=("count", "card"), source="zone"),
    ActionSpec("advance", "advance_track", "advance track", "g.advance_track({card}, 1)", "act.advance",
               guard="g.can_advance({card})", marks=("notch",)),
    ActionSpec("advance-by", "advance_track_by", "advance track", "g.advance_track({card}, {steps})", "act.advance_by",
               guard="g.can_advance({card})", marks=("notch",),
               operands=(Operand("steps", AMOUNT, "advance", positive=True),), counted=("steps", "notch")),
    ActionSpec("add-tokens", "add_tokens", "add tokens", "g.add_tokens({card}, {amount})", "act.add_tokens",
               marks=("tokens",), operands=(Operand("amount", AMOUNT, "add", positive=True),),
               counted=("amount", "token")),
    ActionSpec("remove-tokens", "remove_tokens", "remove tokens", "g.remove_tokens({card}, {amount})",
               "act.remove_tokens", guard="(g.tokens({card}) > 0)", marks=("tokens",),
               operands=(Operand("amount", AMOUNT, "remove", positive=True),), counted=("amount", "token")),
)}

# The events each engine action fires, by EngineAPI method: interface/events.py's and the specs'.
ACTION_EVENTS: dict[str, tuple[Fires, ...]] = {
    **EVENT_ACTIONS, **{m: s.fires for s in ACTION_SPECS.values() if s.fires and (m := s.method) is not None}}
