"""Primitive actions on cards: place, take, discard, draw, recruit; events, replacements, windows
and the marks (tokens, tracks, chosen class, used powers) that cards carry."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import Engine, Gen

COMMAND = None  # destination: the command zone


@dataclass(slots=True)
class Event:
    """What a handler reacts to: the event's name, the card it concerns, an amount."""
    name: str
    subject: int | None = None
    amount: int = 0


class CardActions:
    """Mixed into Engine."""

    # -- events ------------------------------------------------------------------------------
    def emit(self: "Engine", p: int, event: str, subject: int | None = None, amount: int = 0) -> "Gen":
        """Fire `event`: the subject's own `when` effects, then the `whenever` effects of p's cards.

        Effects of one player's cards run in command-zone order, then army columns in class
        order, bottom to top."""
        ev = Event(event, subject, amount)
        if subject is not None:
            for handler in self.defs[subject].on.get(event, ()):
                yield from handler(self, p, subject, ev)
        if p >= 0 and event in self.rules.owner_events:
            for card in self.owned(p):
                for handler in self.defs[card].any.get(event, ()):
                    yield from handler(self, p, card, ev)

    def replace(self: "Engine", p: int, event: str, subject: int) -> "Gen":
        """Offer `event` on `subject` to replacement effects: the subject's own `instead of`, then
        `instead of any` on p's cards. The first that applies replaces it: True."""
        ev = Event(event, subject)
        for handler in self.defs[subject].instead.get(event, ()):
            if (yield from handler(self, p, subject, ev)):
                return True
        if p >= 0 and event in self.rules.owner_replacements:
            for card in self.owned(p):
                for handler in self.defs[card].instead_any.get(event, ()):
                    if (yield from handler(self, p, card, ev)):
                        return True
        return False

    def window(self: "Engine", name: str) -> "Gen":
        """A timing window of the flow: every player's cards that wait for it, players by gem."""
        for p in self.player_order():
            for card in self.owned(p):
                d = self.defs[card]
                for handler in d.on.get(name, ()) + d.any.get(name, ()):
                    if self.where.get(card, (None,))[0] == p:
                        yield from handler(self, p, card, Event(name))

    def player_order(self: "Engine") -> list[int]:
        """Players by gem, highest first: the order simultaneous effects run in."""
        return sorted(range(self.n), key=lambda q: -self.s.players[q].gem)

    def other_players(self: "Engine", p: int) -> list[int]:
        return [q for q in self.player_order() if q != p]

    # -- marks: tokens, tracks, chosen class, once-per-game powers ---------------------------
    def mark(self: "Engine", card: int, key: str, default: Any = 0) -> Any:
        return self.s.marks.get(card, {}).get(key, default)

    def set_mark(self: "Engine", card: int, key: str, value: Any) -> None:
        self.s.marks.setdefault(card, {})[key] = value

    def add_tokens(self: "Engine", card: int, n: int) -> None:
        self.set_mark(card, "tokens", max(0, self.mark(card, "tokens") + n))

    def advance_track(self: "Engine", card: int, steps: int = 1) -> None:
        """Move the card's token `steps` notches along its track; it stops at the last notch."""
        last = len(self.defs[card].track) - 1
        self.set_mark(card, "notch", max(0, min(last, self.mark(card, "notch") + steps)))

    def track_value(self: "Engine", card: int) -> int:
        track = self.defs[card].track
        return track[self.mark(card, "notch")] if track else 0

    def used(self: "Engine", card: int) -> bool:
        return bool(self.mark(card, "used", False))

    def use(self: "Engine", card: int) -> None:
        self.set_mark(card, "used", True)

    def may(self: "Engine", p: int, card: int, text: str) -> "Gen":
        answer = yield from self.ask(p, "use", ["yes", "no"], f"use {self.defs[card].name}: {text}?")
        return answer == "yes"

    def choose_class(self: "Engine", p: int, card: int) -> "Gen":
        cls = yield from self.ask(p, "class", list(self.rules.classes), f"choose a class for {self.defs[card].name}")
        self.set_mark(card, "class", cls)

    def choose_card(self: "Engine", p: int, cards: list[int], kind: str, prompt: str) -> "Gen":
        """Ask p to choose one of `cards` by card id (copies of one card are one option)."""
        options: dict[str, int] = {}
        for c in cards:
            options.setdefault(self.s.cards[c], c)
        if not options:
            return None
        return options[(yield from self.ask(p, kind, list(options), prompt))]

    # -- placing -----------------------------------------------------------------------------
    def supply_card(self: "Engine", cid: str) -> int | None:
        """Take a card of the supply (None when none is left)."""
        card = next((c for c in self.s.supply if self.s.cards[c] == cid), None)
        if card is not None:
            self.s.supply.remove(card)
            self.s.resolving.append(card)
        return card

    def _lift(self: "Engine", card: int) -> None:
        """Take a card out of its army column or command zone (or out of `resolving`)."""
        loc = self.where.pop(card, None)
        if loc is None:
            if card in self.s.resolving:
                self.s.resolving.remove(card)
            return
        p, col = loc
        pl = self.s.players[p]
        (pl.command if col is None else pl.army[col]).remove(card)

    def place(self: "Engine", p: int, card: int, dest: str | None, check: bool = True) -> "Gen":
        """Put a card in an army column (or the command zone); then recruit heroes for new lines.

        A card placed where it already is stays where it is: it is not moved to the top and covers
        nothing. A top card with `instead of covered` steps aside before the new card lands; its
        replacement runs after."""
        if self.where.get(card) == (p, dest):
            if check:
                yield from self.check_heroes(p)
            return
        self._lift(card)
        pl = self.s.players[p]
        if dest is COMMAND:
            pl.command.append(card)
            self.where[card] = (p, None)
            return
        column = pl.army.setdefault(dest, [])
        covered = column[-1] if column else None
        steps_aside = covered is not None and "covered" in self.defs[covered].instead
        if steps_aside:
            self._lift(covered)
            self.s.resolving.append(covered)
        column.append(card)
        self.where[card] = (p, dest)
        if steps_aside:
            yield from self.replace(p, "covered", covered)
        if check:
            yield from self.check_heroes(p)

    def put_under_deck(self: "Engine", card: int, age: int | None) -> None:
        self._lift(card)
        self.s.decks[self.s.age if age is None else age].insert(0, card)

    def choose_column(self: "Engine", p: int, card: int, among: tuple = (), exclude: tuple = ()) -> "Gen":
        options = [c for c in (among or self.rules.classes) if c not in exclude]
        return (yield from self.ask(p, "column", options, f"choose a column for {self.card_def(card).name}"))

    def _destination(self: "Engine", p: int, card: int, mode: str, column: str | None) -> "Gen":
        if mode == "chosen":
            return (yield from self.choose_column(p, card))
        if mode == "column":
            return column
        if mode == "command":
            return COMMAND
        return self.own_column(card)

    # -- taking ------------------------------------------------------------------------------
    def take_card(self: "Engine", p: int, card: int) -> "Gen":
        """A card taken from a tavern or a draw enters as its kind says, then `taken` fires.

        `instead of any taken` effects (a capture, say) may replace its entry."""
        d = self.defs[card]
        mode, column = d.enters
        if card not in self.s.resolving:
            self.s.resolving.append(card)
        if self.rules.owner_replacements and (yield from self.replace(p, "taken", card)):
            if card in self.s.resolving:  # a replacement that left the card where it was: discard it
                self._lift(card)
                self.s.discard.append(card)
            yield from self.check_heroes(p)
            return
        if mode == "discard":
            yield from self.emit(p, "taken", card)
            self._lift(card)
            self.s.discard.append(card)
            return
        dest = yield from self._destination(p, card, mode, column)
        yield from self.place(p, card, dest, check=False)
        yield from self.emit(p, "taken", card)
        yield from self.check_heroes(p)

    def take_from(self: "Engine", p: int, zone_name: str, count: int) -> "Gen":
        """Choose `count` cards of a shared zone (discard pile, camp) and take them."""
        zone = {"discard": self.s.discard, "camp": self.s.camp}[zone_name]
        for _ in range(count):
            card = yield from self.choose_card(p, zone, "card", f"choose a card to take from the {zone_name}")
            if card is None:
                return
            zone.remove(card)
            yield from self.take_card(p, card)

    def look(self: "Engine", p: int, age: int | None, count: int, take: int, rest: str) -> "Gen":
        deck = self.s.decks[self.s.age if age is None else age]
        drawn = [deck.pop() for _ in range(min(count, len(deck)))]
        self.s.resolving.extend(drawn)
        kept: list[int] = []
        for i in range(min(take, len(drawn))):
            left = [c for c in drawn if c not in kept]
            kept.append((yield from self.choose_card(p, left, "card", f"choose a card to keep ({i + 1} of {take})")))
        left = [c for c in drawn if c not in kept]
        for c in left:
            self.s.resolving.remove(c)
        if rest == "shuffled":
            deck.extend(left)
            self.rng.shuffle(deck)
        else:
            while left:
                card = yield from self.choose_card(p, left, "card", "choose the next card to put under the deck")
                deck.insert(0, card)
                left.remove(card)
        for c in kept:
            yield from self.take_card(p, c)

    def capture(self: "Engine", p: int, card: int, subject: int | None) -> "Gen":
        """The subject card goes under `card` (out of play); then `captured` fires for `card`."""
        if subject is None:
            return
        self._lift(subject)
        self.s.marks.setdefault(card, {}).setdefault("captured", []).append(subject)
        yield from self.emit(p, "captured", card)

    def swap_tavern_cards(self: "Engine", p: int) -> "Gen":
        """Swap a card of one tavern with a card of another."""
        s = self.s
        first = {f"{s.cards[c]}@{self.rules.tavern_ids[t]}": (t, c) for t, tav in enumerate(s.taverns) for c in tav}
        if len({t for t, _ in first.values()}) < 2:
            return
        a = yield from self.ask(p, "card", list(first), "choose a tavern card to swap")
        ta, ca = first[a]
        second = {k: v for k, v in first.items() if v[0] != ta}
        b = yield from self.ask(p, "card", list(second), "choose the card to swap it with")
        tb, cb = second[b]
        s.taverns[ta][s.taverns[ta].index(ca)], s.taverns[tb][s.taverns[tb].index(cb)] = cb, ca

    # -- discarding ----------------------------------------------------------------------------
    def choose_cards(self: "Engine", p: int, cards: list[int], count: int, purpose: str) -> "Gen":
        chosen: list[int] = []
        for i in range(min(count, len(cards))):
            options = {f"{self.s.cards[c]}@{self.column_of(c)}": c for c in cards if c not in chosen}
            answer = yield from self.ask(p, "card", list(options), f"choose a card to {purpose} ({i + 1} of {count})")
            chosen.append(options[answer])
        return chosen

    def discard_card(self: "Engine", p: int, card: int) -> "Gen":
        """An owned card goes to the discard pile, unless a replacement effect cancels it."""
        if self.rules.owner_replacements and (yield from self.replace(p, "discarded", card)):
            return
        self._lift(card)
        self.s.discard.append(card)

    def discard_top(self: "Engine", age: int | None) -> None:
        deck = self.s.decks.get(self.s.age if age is None else age)
        if deck:
            self.s.discard.append(deck.pop())

    # -- heroes ------------------------------------------------------------------------------
    def recruitable(self: "Engine", p: int) -> list[int]:
        seen: dict[str, int] = {}
        for h in self.s.heroes:
            d = self.defs[h]
            if d.id not in seen and all(req(self, p, d.id) for req in d.requires):
                seen[d.id] = h
        return list(seen.values())

    def check_heroes(self: "Engine", p: int) -> "Gen":
        """003 "Recruiting a Hero": each complete line not yet used recruits a hero."""
        pl = self.s.players[p]
        while self.param(p, "recruit_by_lines") > 0 and self.lines(p) > pl.heroes_counted:
            if not (yield from self.recruit_hero(p, counted=True)):
                return

    def recruit_hero(self: "Engine", p: int, counted: bool = True) -> "Gen":
        options = {self.s.cards[h]: h for h in self.recruitable(p)}
        if not options:
            return False
        labels = [self.rules.cards[cid].name for cid in options]
        answer = yield from self.ask(p, "hero", list(options), "recruit a hero", labels)
        hero = options[answer]
        self.s.heroes.remove(hero)
        if counted:
            self.s.players[p].heroes_counted += 1
        mode, column = self.defs[hero].enters
        self.s.resolving.append(hero)
        dest = yield from self._destination(p, hero, mode, column)
        yield from self.place(p, hero, dest, check=False)
        yield from self.emit(p, "recruited", hero)
        yield from self.check_heroes(p)
        return True

    def return_hero(self: "Engine", p: int, cls: str) -> "Gen":
        """Put back a hero of class `cls` from p's command zone among the available heroes."""
        heroes = [c for c in self.s.players[p].command if self.defs[c].kind == "hero" and self.defs[c].cls == cls]
        card = yield from self.choose_card(p, heroes, "card", f"choose a {cls} hero to put back")
        if card is None:
            return
        self._lift(card)
        self.s.marks.pop(card, None)
        self.s.heroes.append(card)
