"""Primitive actions on cards: place, take, discard, draw, recruit; events, replacements, windows
and the marks (tokens, tracks, chosen class, used powers) that cards carry.

Events are fired only as `nidavellir.interface.events` declares them (a test reads every `emit` and
`replace` call here against that table)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nidavellir.interface.decisions import CardChoice, Decision, Option
from nidavellir.interface.engine import Gen

from nidavellir.interface.support import MAX_VALUE, beyond

from .core import COMMAND, EngineCore
from .journal import (
    COMMAND_ZONE,
    Captured,
    ClassChosen,
    Discarded,
    Drew,
    FaceDown,
    HeroReturned,
    Placed,
    PowerUsed,
    PutUnder,
    Recruited,
    Reserved,
    Swapped,
    TokensChanged,
    Took,
    TrackMoved,
    deck_place,
)
from .loops import origin
from .placement import column_choices
from .state import deck_key

_CHOICES: dict[tuple[str, str], CardChoice] = {}


def card_choice(card: str, at: str) -> CardChoice:
    """The option for a card at a place (options are immutable values: made once, shared)."""
    choice = _CHOICES.get((card, at))
    if choice is None:
        if len(_CHOICES) > 65536:
            _CHOICES.clear()
        choice = _CHOICES[(card, at)] = CardChoice(card, at)
    return choice


class Entry:
    """`with Entry(engine):` a card's entry in progress — hero checks wait for its end (DESIGN §9:
    "Hero recruitment is checked only once the entering card's own effects are done")."""

    __slots__ = ("engine",)

    def __init__(self, engine: EngineCore):
        self.engine = engine

    def __enter__(self) -> None:
        self.engine.s.entering += 1

    def __exit__(self, *exc: object) -> None:
        self.engine.s.entering -= 1


class CardActions(EngineCore):
    """Placing, taking, discarding, recruiting; the marks cards carry."""

    # -- marks: tokens, tracks, chosen class, once-per-game powers ---------------------------
    def mark(self, card: int, key: str, default: Any = 0) -> Any:
        return self.s.marks.get(card, {}).get(key, default)

    def set_mark(self, card: int, key: str, value: Any) -> None:
        self.s.marks.setdefault(card, {})[key] = value

    def tokens(self, card: int) -> int:
        return int(self.mark(card, "tokens"))

    def add_tokens(self, card: int, n: int) -> None:
        """`add N tokens`: N of 0 or less adds none (README, the effect DSL: amounts); a card holds at
        most MAX_VALUE tokens (past it, a located error at the effect adding them)."""
        if n <= 0:
            return
        total = self.tokens(card) + n
        if total > MAX_VALUE:
            where, text = origin(self.cascade[-1][1]) if self.cascade else ("<rules>", "")
            raise beyond(total, where, f"`{self.s.cards[card]}`'s `{text}` gives it {{}} tokens")
        self._tokens_now(card, total)

    def remove_tokens(self, card: int, n: int) -> None:
        """`remove N tokens`: down to 0 at the least; N of 0 or less removes none."""
        if n > 0:
            self._tokens_now(card, max(0, self.tokens(card) - n))

    def _tokens_now(self, card: int, tokens: int) -> None:
        self.set_mark(card, "tokens", tokens)
        if TokensChanged in self.keeps:
            self.note(TokensChanged(self.s.age, self.s.turn, player=self.owner(card), cause=self.cause(),
                                    card=self.s.cards[card], tokens=tokens))

    def advance_track(self, card: int, steps: int = 1) -> None:
        """Move the card's token `steps` notches along its track; it stops at the last notch, and
        `steps` of 0 or less does not move it (a track only advances)."""
        if steps <= 0:
            return
        last = len(self.defs[card].track) - 1
        old = int(self.mark(card, "notch"))
        self.set_mark(card, "notch", max(0, min(last, old + steps)))
        if TrackMoved in self.keeps and self.mark(card, "notch") != old:
            self.note(TrackMoved(self.s.age, self.s.turn, player=self.owner(card), cause=self.cause(),
                                 card=self.s.cards[card], old=old, new=int(self.mark(card, "notch")),
                                 value=self.track_value(card)))

    def can_advance(self, card: int) -> bool:
        """Whether the card's token is short of its track's last notch (so an advance moves it)."""
        return int(self.mark(card, "notch")) < len(self.defs[card].track) - 1

    def track_value(self, card: int) -> int:
        track = self.defs[card].track
        return track[int(self.mark(card, "notch"))] if track else 0

    def chosen_class(self, card: int) -> str | None:
        cls = self.mark(card, "class", None)
        return None if cls is None else str(cls)

    def used(self, card: int) -> bool:
        return bool(self.mark(card, "used", False))

    def use(self, card: int) -> None:
        self.set_mark(card, "used", True)
        if PowerUsed in self.keeps:
            self.note(PowerUsed(self.s.age, self.s.turn, player=self.owner(card), card=self.s.cards[card]))

    def turn_face_down(self, card: int) -> None:
        """The card turns face down for good: its power is spent."""
        self.set_mark(card, "face_down", True)
        self.set_mark(card, "used", True)
        if FaceDown in self.keeps:
            self.note(FaceDown(self.s.age, self.s.turn, player=self.owner(card), card=self.s.cards[card]))

    def captures(self, card: int) -> int:
        return len(self.mark(card, "captured", None) or ())

    def captured_points(self, card: int) -> int:
        """The Bravery Points of the cards `card` captured (their printed ranks' points)."""
        return sum(self.defs[c].rank_points for c in self.mark(card, "captured", None) or ())

    def may(self, p: int, card: int, text: str) -> Gen[bool]:
        answer = yield from self.ask(p, "use", [True, False], f"use {self.defs[card].name}: {text}?")
        return answer is True

    def choose_class(self, p: int, card: int) -> Gen[None]:
        cls = yield from self.ask(p, "class", list(self.rules.classes), f"choose a class for {self.defs[card].name}")
        self.set_mark(card, "class", cls)
        if ClassChosen in self.keeps:
            self.note(ClassChosen(self.s.age, self.s.turn, player=p, card=self.s.cards[card], cls=str(cls)))

    def choose_card(self, p: int, cards: Sequence[int], kind: str, prompt: str, at: str) -> Gen[int | None]:
        """Ask p to choose one of `cards`, which lie at `at` (copies of one card are one option)."""
        ids = self.s.cards
        first: dict[str, int] = {}
        for c in cards:
            if ids[c] not in first:
                first[ids[c]] = c
        if not first:
            return None
        if len(first) == 1:  # one option: taken without asking
            return next(iter(first.values()))
        answer = yield Decision(p, kind, tuple([card_choice(cid, at) for cid in first]), prompt)
        assert isinstance(answer, CardChoice)
        return first[answer.card]

    # -- placing -----------------------------------------------------------------------------
    def supply_card(self, cid: str, by: int = -1) -> int | None:
        """Take a card of the supply (None when none is left); `by`: the card whose effect takes it,
        which then brought it (`brought`: it takes it back when it returns among the heroes)."""
        card = next((c for c in self.s.supply if self.s.cards[c] == cid), None)
        if card is not None:
            self.s.supply.remove(card)
            self.s.resolving.append(card)
            if by >= 0:
                self.s.marks.setdefault(by, {}).setdefault("brought", []).append(card)
        return card

    def in_supply(self, cid: str) -> bool:
        return any(self.s.cards[c] == cid for c in self.s.supply)

    def brought(self, card: int) -> list[int]:
        """The cards `card`'s effects took from the supply, while its owner still has them."""
        p = self.owner(card)
        return [c for c in self.mark(card, "brought", None) or () if p >= 0 and self.owner(c) == p]

    def _lift(self, card: int) -> None:
        """Take a card out of wherever it lies — its owner's army column or command zone, `resolving`,
        or a shared zone (an effect that moved the card before may have put it in a deck, a pile,
        a tavern, among the heroes) — so that a move never leaves a copy behind."""
        if self.detach(card) is not None:
            return
        s = self.s
        if card in s.resolving:
            s.resolving.remove(card)
            return
        for zone in (s.discard, *s.decks.values(), *s.zones.values(), *s.taverns, s.heroes, s.supply, s.box,
                     s.distinctions):
            if card in zone:
                zone.remove(card)
                return

    def _release(self, card: int) -> None:
        """`card` left its owner for a shared zone (a pile, a deck, the heroes, the supply): what its
        holder put on it goes (tokens, the track's notch, a chosen class), and the cards it captured,
        which lay under it, are discarded (each to its kind's pile) rather than lost with it; what
        lasts the game stays (a power used once per game, a card turned face down for good)."""
        marks = self.s.marks.pop(card, None)
        if marks is None:
            return
        for captured in marks.get("captured") or ():
            self.discard_pile(captured).append(captured)
        kept: dict[str, Any] = {key: marks[key] for key in ("used", "face_down") if key in marks}
        if kept:
            self.s.marks[card] = kept

    def place(self, p: int, card: int, dest: str | None, check: bool = True) -> Gen[None]:
        """Put a card in an army column (or the command zone); then recruit heroes for new lines.

        A card placed where it already is stays where it is: it is not moved to the top and covers
        nothing. A top card with `instead of covered` steps aside before the new card lands; its
        replacement runs after. A card of a kind placed at once (an age end's placing) goes to the
        army instead of the command zone. `joined` fires for a card that comes from outside the army."""
        if dest is COMMAND and self.s.at_once and self.defs[card].kind in self.s.at_once:
            dest = yield from self.choose_column(p, card)
        loc = self.where.get(card)
        if loc != (p, dest):
            aside = self._put(p, card, dest)
            if aside >= 0:  # it moves within the army: stepping aside is no joining
                self.s.stepping_aside[aside] = p
                yield from self.replace(p, "covered", aside)
                self.s.stepping_aside.pop(aside, None)
            elif dest is COMMAND:
                return  # the command zone completes no line
            if (loc is None or loc[0] != p or loc[1] is None) and self.reacts("joined", card, p) \
                    and self.s.stepping_aside.get(card) != p:
                yield from self.emit(p, "joined", card)
        if check and self.may_recruit(p):
            yield from self.check_heroes(p)

    def _put(self, p: int, card: int, dest: str | None) -> int:
        """Move `card` to the top of p's column `dest` (None: the command zone). The card it would
        cover, if that card steps aside (`instead of covered`), is lifted first and returned: the
        caller offers its replacement. Else -1."""
        if Placed in self.keeps:
            loc = self.where.get(card)
            origin = None if loc is None or loc[0] != p else COMMAND_ZONE if loc[1] is None else loc[1]
            origin = self.s.aside_from.pop(card, origin)  # (a card that stepped aside moves from its column)
            self.note(Placed(self.s.age, self.s.turn, player=p, cause=self.cause(), card=self.s.cards[card],
                             column=COMMAND_ZONE if dest is None else dest, origin=origin))
        loc = self.where.get(card)
        kept = loc is not None and loc[0] == p or bool(self.s.stepping_aside) and self.s.stepping_aside.get(card) == p
        since = self.s.arrived.get(card, 0) if kept else 0  # (a card moving among p's own places has not newly arrived)
        self._lift(card)
        covered = -1
        if dest is not COMMAND:
            column = self.s.players[p].army.get(dest)
            if column and "covered" in self.defs[column[-1]].instead:
                covered = column[-1]
                if Placed in self.keeps:  # (its record says the column it left)
                    self.s.aside_from[covered] = dest
                self._lift(covered)
                self.s.resolving.append(covered)
        self.attach(p, card, dest)
        if kept:
            self.s.arrived[card] = since
        return covered
    def deck(self, deck: int | str | None) -> list[int]:
        """A deck: an age's (None: the current age's), or a zone's face-down pile by id (a zone with a
        deck per age: its current age's)."""
        if isinstance(deck, str):
            zones = self.s.zones
            return zones[deck] if deck in zones else zones.setdefault(deck_key(deck, self.s.age), [])
        return self.s.decks.setdefault(self.s.age if deck is None else deck, [])

    def deck_size(self, deck: int | str | None) -> int:
        """How many cards a deck holds (`deck` as `deck` names it; asking creates no pile)."""
        s = self.s
        if isinstance(deck, str):
            return len(s.zones[deck] if deck in s.zones else s.zones.get(deck_key(deck, s.age), ()))
        return len(s.decks.get(s.age if deck is None else deck, ()))

    def put_under_deck(self, card: int, deck: int | str | None) -> None:
        """Put `card` under a deck. Under an age's deck, the effect doing it is counted (`put_back`):
        an age that never ends names the effects that kept its deck full (runtime/flow.py)."""
        if PutUnder in self.keeps:  # (a card put back from where everyone saw it)
            self.note(PutUnder(self.s.age, self.s.turn, player=self.actor(), cause=self.cause(),
                               cards=(self.s.cards[card],), deck=deck_place(deck, self.s.age), count=1))
        if not isinstance(deck, str):
            age = self.s.age if deck is None else deck
            cid, fn = self.cascade[-1] if self.cascade else (self.s.cards[card], None)
            where, text = origin(fn) if fn is not None else ("<rules>", "")
            counts = self.s.put_back.setdefault(age, {})
            key = f"`{cid}`: `{text}` ({where})"
            counts[key] = counts.get(key, 0) + 1
        self._lift(card)
        self._release(card)
        self.deck(deck).insert(0, card)

    def column_options(self, card: int | str, among: tuple[str, ...] = (),
                       exclude: tuple[str, ...] = ()) -> list[str]:
        """The columns a choice of column for `card` (a card, or a card id) offers (`exclude`: those
        chosen before, for `another chosen column`; it may leave none)."""
        d = self.rules.cards[card] if isinstance(card, str) else self.defs[card]
        return [c for c in column_choices(self.rules, d, among) if c not in exclude]

    def choose_column(self, p: int, card: int, among: tuple[str, ...] = (),
                      exclude: tuple[str, ...] = ()) -> Gen[str]:
        options = self.column_options(card, among, exclude)
        answer = yield from self.ask(p, "column", options, f"choose a column for {self.defs[card].name}")
        return str(answer)

    def _destination(self, p: int, card: int) -> Gen[str | None]:
        """Where a card taken or recruited goes, as its definition says (asking if it is a choice)."""
        d = self.defs[card]
        if d.enters == "chosen":
            return (yield from self.choose_column(p, card, d.enters_among))
        if d.enters == "column":
            return d.enters_column
        if d.enters == "command":
            return COMMAND
        return self.own_column(card)

    # -- taking ------------------------------------------------------------------------------
    def enters_at_once(self, p: int, card: int) -> bool:
        """Whether p's taking `card` asks nothing and fires nothing: it goes into its own column
        (most dwarves), no effect of its own or of p's cards watches a card taken or joining, and it
        covers no card that steps aside."""
        d = self.defs[card]
        if d.enters != "own" or "taken" in d.when or "joined" in d.when:
            return False
        if self.rules.entry_watched and (self.reacts("taken", p=p) or self.reacts("joined", p=p)
                                         or self.replaceable("taken", card, p)):
            return False
        dest = self.own_column(card)
        column = self.s.players[p].army.get(dest) if dest is not None else None
        return not (column and "covered" in self.defs[column[-1]].instead)

    def _take_at_once(self, p: int, card: int) -> bool:
        """Take a card that enters at once: placed now, True. Else False, nothing done."""
        if not self.enters_at_once(p, card):
            return False
        self._put(p, card, self.own_column(card))
        return True

    def take_card(self, p: int, card: int) -> Gen[None]:
        """A card taken from a tavern or a draw enters as its kind says, then `taken` fires; heroes
        for new lines are recruited once its own effects are done.

        `instead of [any] taken` effects (a capture, say) may replace its entry."""
        resolving = self.s.resolving
        if card not in resolving:
            resolving.append(card)
        if not self._take_at_once(p, card):
            with Entry(self):
                if self.replaceable("taken", card, p) and (yield from self.replace(p, "taken", card)):
                    if card in resolving:  # a replacement that left the card where it was: discard it
                        self._lift(card)
                        self.discard_pile(card).append(card)
                elif not (yield from self.enter(p, card, "taken")):
                    return
        if self.may_recruit(p):
            yield from self.check_heroes(p)

    def win_distinction(self, p: int, card: int) -> Gen[None]:
        """p wins the distinction `card` (the Troop Evaluation's award): it enters, its `won` effects
        run, then heroes for new lines are recruited."""
        self.s.distinctions.remove(card)
        self.s.resolving.append(card)
        with Entry(self):
            yield from self.enter(p, card, "won")
        if self.may_recruit(p):
            yield from self.check_heroes(p)

    def enter(self, p: int, card: int, event: str) -> Gen[bool]:
        """`card` (in `resolving`) reaches p — taken, recruited or won —, enters where its definition
        says, and `event` fires for it: every way a card reaches a player goes through here, so that
        it stands where the rules say it may (runtime/placement.py). A card that enters the discard
        pile goes there once its effects are done (unless they moved it): False."""
        if self.defs[card].enters == "discard":
            if self.reacts(event, card, p):
                yield from self.emit(p, event, card)
            if card in self.s.resolving:
                self._lift(card)
                self.discard_pile(card).append(card)
            return False
        dest = yield from self._destination(p, card)
        yield from self.place(p, card, dest, check=False)
        if self.reacts(event, card, p):
            yield from self.emit(p, event, card)
        return True

    def zone(self, name: str) -> list[int]:
        """A shared zone by name: the discard pile, the box (out of the game), the tavern being
        resolved, or a zone of the rules."""
        if name == "discard":
            return self.s.discard
        if name == "tavern":
            return self.s.taverns[self.s.tavern]
        if name == "box":
            return self.s.box
        return self.s.zones[name]

    def takable(self, p: int, cards: list[int]) -> list[int]:
        """The cards of `cards` p may take: all but those another player reserved (`bound`)."""
        return [c for c in cards if not self.bound(c, p)] if self.s.reserved else cards

    def can_take_from(self, p: int, zone: str) -> bool:
        return bool(self.takable(p, self.zone(zone)))

    def take_from(self, p: int, zone: str, count: int) -> Gen[None]:
        """Choose `count` cards of a shared zone (fewer if it holds fewer), then take them one by one
        in the order the player chooses; a card reserved by another player stays (`bound`)."""
        cards = self.zone(zone)
        chosen: list[int] = []
        for i in range(count):
            card = yield from self.choose_card(p, self.takable(p, cards), "card", f"choose a card to take from "
                                                                                f"the {zone} ({i + 1} of {count})", zone)
            if card is None:
                break
            cards.remove(card)
            self.s.resolving.append(card)
            chosen.append(card)
        while chosen:
            chosen = [c for c in chosen if c in self.s.resolving]  # (skip one an earlier card's effect moved)
            if not chosen:
                break
            card = chosen[0] if len(chosen) == 1 else (
                yield from self.choose_card(p, chosen, "card", "choose the card to take next", "taken"))
            assert card is not None
            chosen.remove(card)
            if Took in self.keeps:
                self.note(Took(self.s.age, self.s.turn, player=p, cause=self.cause(), card=self.s.cards[card], at=zone))
            yield from self.take_card(p, card)

    def look(self, p: int, deck: int | str | None, count: int, take: int, rest: str) -> Gen[None]:
        """Draw `count` cards of a deck, keep `take` of them (taken as usual), and put the rest back:
        shuffled in, or under the deck in the order the player chooses (until placed, the cards wait
        with those being resolved). A count of 0 or less looks at nothing: nothing happens (README, the
        effect DSL: amounts), the deck is not shuffled."""
        if count <= 0:
            return
        pile = self.deck(deck)
        drawn = [pile.pop() for _ in range(min(count, len(pile)))]
        self.s.resolving.extend(drawn)
        where = deck_place(deck, self.s.age)
        if Drew in self.keeps:  # only the drawer sees the cards
            self.note(Drew(self.s.age, self.s.turn, player=p, cause=self.cause(), seen_by=frozenset((p,)),
                           cards=tuple(self.s.cards[c] for c in drawn), deck=where, count=len(drawn)))
        kept: list[int] = []
        for i in range(min(take, len(drawn))):
            left = [c for c in drawn if c not in kept]
            chosen = yield from self.choose_card(p, left, "card", f"choose a card to keep ({i + 1} of {take})", "draw")
            assert chosen is not None
            kept.append(chosen)
        left = [c for c in drawn if c not in kept]
        back = list(left)  # in the order they go back
        if rest == "shuffled":
            for c in left:
                self.s.resolving.remove(c)
            pile.extend(left)
            self.reshuffle(pile, where)
        else:
            back = []
            while left:
                card = yield from self.choose_card(p, left, "card", "choose the next card to put under the deck", "draw")
                assert card is not None
                self.s.resolving.remove(card)
                pile.insert(0, card)
                left.remove(card)
                back.append(card)
        if PutUnder in self.keeps and back:  # only the drawer sees which
            self.note(PutUnder(self.s.age, self.s.turn, player=p, cause=self.cause(), seen_by=frozenset((p,)),
                               cards=tuple(self.s.cards[c] for c in back), deck=where, count=len(back),
                               shuffled=rest == "shuffled"))
        for c in self.each_card(kept):
            if Took in self.keeps:
                self.note(Took(self.s.age, self.s.turn, player=p, cause=self.cause(), card=self.s.cards[c], at=where))
            yield from self.take_card(p, c)

    def capture(self, p: int, card: int, subject: int) -> Gen[None]:
        """The subject card goes under `card` (out of play); then `captured` fires for `card`."""
        if subject < 0:
            return
        self._lift(subject)
        self.s.marks.setdefault(card, {}).setdefault("captured", []).append(subject)
        if Captured in self.keeps:
            self.note(Captured(self.s.age, self.s.turn, player=p, card=self.s.cards[card], subject=self.s.cards[subject]))
        yield from self.emit(p, "captured", card)

    # -- discarding ----------------------------------------------------------------------------
    def choose_cards(self, p: int, cards: list[int], count: int, purpose: str, at: str | None = None) -> Gen[list[int]]:
        """Ask p for `count` of `cards` one by one (fewer if there are fewer); they lie in p's army or
        command zone, or at `at`."""
        chosen: list[int] = []
        for i in range(min(count, len(cards))):
            options: dict[Option, int] = {}
            for c in cards:
                if c not in chosen:
                    options.setdefault(card_choice(self.s.cards[c], at or self.column_of(c) or "command"), c)
            answer = yield from self.ask(p, "card", list(options), f"choose a card to {purpose} ({i + 1} of {count})")
            chosen.append(options[answer])
        return chosen

    def discard_card(self, p: int, card: int) -> Gen[None]:
        """An owned card goes to the discard pile, unless a replacement effect cancels it."""
        if self.replaceable("discarded", card, p) and (yield from self.replace(p, "discarded", card)):
            return
        if Discarded in self.keeps:
            column = self.column_of(card)
            self.note(Discarded(self.s.age, self.s.turn, player=p, cause=self.cause(), card=self.s.cards[card],
                                at=COMMAND_ZONE if column is None else column, into=self.discard_into(card)))
        self._lift(card)
        self._release(card)
        self.discard_pile(card).append(card)

    def discard_pile(self, card: int) -> list[int]:
        """Where a discarded card goes: the discard pile, or the zone its kind names
        (`discards_to`)."""
        zone = self.rules.ruleset.discards_to.get(self.defs[card].kind)
        return self.s.discard if zone is None else self.zone(zone)

    def discard_into(self, card: int) -> str:
        """The id of the pile `discard_pile` gives."""
        return self.rules.ruleset.discards_to.get(self.defs[card].kind) or "discard"

    def discard_top(self, deck: int | str | None) -> None:
        pile = self.deck(deck)
        if pile:
            card = pile.pop()
            if Discarded in self.keeps:
                self.note(Discarded(self.s.age, self.s.turn, player=self.actor(), cause=self.cause(),
                                    card=self.s.cards[card], at=deck_place(deck, self.s.age),
                                    into=self.discard_into(card)))
            self.discard_pile(card).append(card)

    # -- heroes ------------------------------------------------------------------------------
    def recruitable(self, p: int, cls: str | None = None, exclude: int = -1) -> list[int]:
        """The heroes p may recruit now: one of each kind left, whose requirement p meets (`cls`: of
        that class only; `exclude`: not copies of that card)."""
        key = tuple(self.s.heroes)
        kinds = self._hero_kinds.get(key)
        if kinds is None:  # the available heroes changed: one instance of each, in order
            if len(self._hero_kinds) > 64:
                self._hero_kinds.clear()
            first: dict[str, int] = {}
            for h in self.s.heroes:
                first.setdefault(self.defs[h].id, h)
            kinds = self._hero_kinds[key] = tuple(first.values())
        defs = self.defs
        if cls is not None or exclude >= 0:
            gone = defs[exclude].id if exclude >= 0 else None
            kinds = tuple(h for h in kinds if (cls is None or defs[h].cls == cls) and defs[h].id != gone)
        return [h for h in kinds if not defs[h].requires or all(req(self.api, p, h) for req in defs[h].requires)]

    def may_recruit(self, p: int) -> bool:
        """Whether a hero check could recruit now (cheap: it runs after every placement)."""
        return not self.s.entering and self.lines(p) > self.s.players[p].heroes_counted

    def check_heroes(self, p: int) -> Gen[None]:
        """003 "Recruiting a Hero": each complete line not yet used recruits a hero. While a card's
        entry is in progress the check waits for its end: 003 "You cannot recruit a new Hero until
        you replace the discarded cards and make a new complete line"."""
        if self.s.entering:
            return
        pl = self.s.players[p]
        while self.lines(p) > pl.heroes_counted and self.param(p, "recruit_by_lines") > 0:
            if not (yield from self._recruit(p, True, None, False, by_line=True)):
                return

    def recruit_hero(self, p: int, counted: bool = True, cls: str | None = None,
                     another: bool = False) -> Gen[bool]:
        """Recruit a hero p chooses (`cls`: of that class; `another`: not the one p returned last);
        False if none can be recruited."""
        return (yield from self._recruit(p, counted, cls, another, by_line=False))

    def _recruit(self, p: int, counted: bool, cls: str | None, another: bool, by_line: bool) -> Gen[bool]:
        """`recruit_hero`; `by_line`: for a complete line (the journal says so), else by an effect."""
        heroes = self.recruitable(p, cls, self.s.returned.get(p, -1) if another else -1)
        if not heroes:
            return False
        ids = self.s.cards
        answer = yield from self.ask(p, "hero", [card_choice(ids[h], "heroes") for h in heroes], "recruit a hero",
                                     [self.defs[h].name for h in heroes])
        assert isinstance(answer, CardChoice)
        yield from self.recruit_chosen(p, next(h for h in heroes if ids[h] == answer.card), counted, by_line)
        return True

    def recruit_chosen(self, p: int, hero: int, counted: bool = True, by_line: bool = True) -> Gen[None]:
        """p recruits `hero`, chosen among those available: it leaves the heroes, enters where it
        goes (its `recruited` effects run) and any line it completes recruits in turn."""
        if Recruited in self.keeps:
            self.note(Recruited(self.s.age, self.s.turn, player=p, cause=None if by_line else self.cause(),
                                card=self.s.cards[hero], by_line=by_line, counted=counted))
        self.s.heroes.remove(hero)
        if counted:
            self.s.players[p].heroes_counted += 1
        self.s.resolving.append(hero)
        with Entry(self):
            yield from self.enter(p, hero, "recruited")
        if self.may_recruit(p):
            yield from self.check_heroes(p)

    def hero_returns(self, p: int, cls: str, then: tuple[str | None, bool] | None = None) -> list[int]:
        """The heroes of class `cls` in p's command zone that p may put back; with `then` (a class or
        None, and `another`), only those after whose return `recruitable` — the test the recruitment
        itself makes — leaves a hero to recruit (DESIGN §9 "Where the powers meet": a return-and-recruit
        power is offered only when a hero other than the returned card's copies could be recruited)."""
        heroes = [c for c in self.s.players[p].command if self.defs[c].kind == "hero" and self.defs[c].cls == cls]
        if then is None:
            return heroes
        rcls, another = then
        return [h for h in heroes if self._recruitable_after_return(p, h, rcls, another)]

    def _recruitable_after_return(self, p: int, hero: int, cls: str | None, another: bool) -> bool:
        """Whether, `hero` put back, p could recruit a hero of `cls` (`another`: not of its copies).
        The return is made and undone: the recruitment's requirements read the state it leaves."""
        pl = self.s.players[p]
        at, since = pl.command.index(hero), self.s.arrived.get(hero, 0)
        self.detach(hero)
        self.s.heroes.append(hero)
        try:
            return bool(self.recruitable(p, cls, hero if another else -1))
        finally:
            self.s.heroes.pop()
            self.attach(p, hero, COMMAND)
            pl.command.insert(at, pl.command.pop())
            self._owned[p] = None
            self.s.arrived[hero] = since

    def can_return_hero(self, p: int, cls: str, then: tuple[str | None, bool] | None = None) -> bool:
        return bool(self.hero_returns(p, cls, then))

    def can_recruit_hero(self, p: int, cls: str | None = None, another: bool = False) -> bool:
        return bool(self.recruitable(p, cls, self.s.returned.get(p, -1) if another else -1))

    def return_hero(self, p: int, cls: str, then: tuple[str | None, bool] | None = None) -> Gen[bool]:
        """Put back a hero of class `cls` from p's command zone among the available heroes, chosen
        among `hero_returns`; False if there is none. The cards it brought (`brought`) go back to the
        supply with it; one that has left p's army and command zone (discarded) stays where it is."""
        card = yield from self.choose_card(p, self.hero_returns(p, cls, then), "card",
                                           f"choose a {cls} hero to put back", "command")
        if card is None:
            return False
        brought = self.brought(card)
        if HeroReturned in self.keeps:
            self.note(HeroReturned(self.s.age, self.s.turn, player=p, cause=self.cause(), card=self.s.cards[card],
                                   brought=tuple(self.s.cards[c] for c in brought)))
        self._lift(card)
        self._release(card)
        self.s.heroes.append(card)
        for c in brought:
            self._lift(c)
            self._release(c)
            self.s.supply.append(c)
        self.s.returned[p] = card
        return True

    # -- reservations --------------------------------------------------------------------------
    def bound(self, card: int, taker: int = -1) -> bool:
        """Whether `card` is bound where it lies for a move by `taker` (-1: a move that is no one's
        taking, such as a swap or a discard): a card reserved this turn may be taken from its tavern
        only by the player who reserved it, and no other effect moves it (DESIGN §9: a reservation
        binds the card where it lies); once out of the taverns it is bound no more."""
        holder = self.s.reserved.get(card)
        return holder is not None and holder != taker and any(card in tavern for tavern in self.s.taverns)

    def _tavern_options(self) -> dict[Option, tuple[int, int]]:
        """The tavern cards no reservation binds, one option per card and tavern: option -> (tavern,
        card)."""
        s = self.s
        out: dict[Option, tuple[int, int]] = {}
        for t, tavern in enumerate(s.taverns):
            for c in tavern:
                if not self.bound(c):
                    out.setdefault(card_choice(s.cards[c], self.rules.tavern_ids[t]), (t, c))
        return out

    def _swap_options(self) -> dict[Option, tuple[int, int]]:
        """The cards a swap may move: unreserved tavern cards, when two taverns hold some."""
        first = self._tavern_options()
        return first if len({t for t, _ in first.values()}) >= 2 else {}

    def can_swap(self, p: int) -> bool:
        return bool(self._swap_options())

    def swap_tavern_cards(self, p: int) -> Gen[None]:
        """Swap a card of one tavern with a card of another; a reserved card does not move."""
        s = self.s
        first = self._swap_options()
        if not first:
            return
        a = yield from self.ask(p, "card", list(first), "choose a tavern card to swap")
        ta, ca = first[a]
        second = {k: v for k, v in first.items() if v[0] != ta}
        b = yield from self.ask(p, "card", list(second), "choose the card to swap it with")
        tb, cb = second[b]
        s.taverns[ta][s.taverns[ta].index(ca)], s.taverns[tb][s.taverns[tb].index(cb)] = cb, ca
        if Swapped in self.keeps:
            ids = self.rules.tavern_ids
            self.note(Swapped(self.s.age, self.s.turn, player=p, cause=self.cause(), first=s.cards[ca], first_at=ids[ta],
                              second=s.cards[cb], second_at=ids[tb]))

    def can_reserve(self, p: int) -> bool:
        return bool(self._tavern_options())

    def reserve_tavern_card(self, p: int) -> Gen[None]:
        """p reserves a tavern card for the turn: only p may take it."""
        s = self.s
        options = self._tavern_options()
        if not options:
            return
        answer = yield from self.ask(p, "card", list(options), "choose a tavern card to reserve")
        where, chosen = options[answer]
        s.reserved[chosen] = p
        if Reserved in self.keeps:
            self.note(Reserved(self.s.age, self.s.turn, player=p, cause=self.cause(), card=s.cards[chosen],
                               tavern=self.rules.tavern_ids[where]))
