"""The journal in words (runtime/journal.py): one sentence per record, in English.

Issue 10: "what happened since the last one, in words (revealed bids per tavern, who chose what,
coin trades and transformations with old → new, gem exchanges, distinctions, heroes recruited,
giants' captures, valkyrie notches)". Card, class, tavern, zone and coin names come from the rules
data; players by their names ("You" reads as "you", "your"). Records that tell one story are told
in one sentence: a card taken and where it went, a hero recruited and its column, a distinction won
and its command zone, a power used for a capture.

The text is plain: a caller that writes it to a terminal escapes what comes from outside (names)
with `nidavellir.errors.visible`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from nidavellir.runtime import journal as j
from nidavellir.runtime.rules import Rules

YOU = "You"


def heading(age: int, turn: int) -> str:
    """The heading of a turn: "Age 1, turn 3"."""
    return f"Age {age}, turn {turn}"


class Narrator:
    """Words for the records of one game: its rules (for names) and its players' names."""

    def __init__(self, rules: Rules, names: Sequence[str]):
        self.rules = rules
        self.names = list(names)
        self.taverns = dict(zip(rules.tavern_ids, rules.tavern_names))
        self.zones = {z.id: z.name for z in rules.ruleset.zones}
        self.classes = {c.id: c.name for c in rules.ruleset.classes}
        self._says: dict[type[j.Happening], Callable[[j.Happening], str]] = {}

    # -- names ------------------------------------------------------------------------------
    def who(self, p: int) -> str:
        """A player at the start of a sentence (a game's own doing: "The game")."""
        return self.names[p] if 0 <= p < len(self.names) else "The game"

    def whose(self, p: int, start: bool = False) -> str:
        """A player's possessive: "P2's", "your" ("Your" at the start of a sentence)."""
        name = self.who(p)
        if name == YOU:
            return "Your" if start else "your"
        return f"{name}'s"

    def card(self, cid: str) -> str:
        d = self.rules.cards.get(cid)
        return d.name if d is not None else cid.replace("-", " ")

    def cards(self, cids: Sequence[str]) -> str:
        return ", ".join(self.card(c) for c in cids) or "nothing"

    def cls(self, cid: str) -> str:
        return self.classes.get(cid, cid)

    def column(self, column: str) -> str:
        """A column or the command zone: "Hunters column", "command zone"."""
        if column == j.COMMAND_ZONE:
            return "command zone"
        return f"{self.cls(column)} column"

    def place(self, at: str) -> str:
        """A shared place by its name: a tavern, a zone, a deck ("the Age 2 deck"), the discard pile."""
        if at in self.taverns:
            return self.taverns[at]
        if at in self.zones:
            return self.zones[at]
        if at.startswith("age:"):
            return f"the Age {at[4:]} deck"
        return {"discard": "the discard pile", "box": "the box (out of the game)", "heroes": "the heroes",
                "supply": "the supply", "draw": "the cards drawn",
                "taken": "the cards you are taking", "hand": "the hand", "pouch": "the pouch",
                j.COMMAND_ZONE: "the command zone"}.get(at, at.replace("-", " "))

    def because(self, h: j.Happening, card: str | None = None) -> str:
        """The card whose effect did it, as a parenthesis (" (Dagda the Explosive)"), or "" (also
        when it is `card`, the record's own card)."""
        return f" ({self.card(h.cause)})" if h.cause and h.cause != card else ""

    # -- records ----------------------------------------------------------------------------
    def line(self, h: j.Happening) -> str:
        """The sentence for one record."""
        say = getattr(self, "_" + h.kind.replace("-", "_"), None)
        if say is None:
            return f"{self.who(h.player)}: {h.kind.replace('-', ' ')}"
        text: str = say(h)
        return text

    def lines(self, records: Sequence[j.Happening], headings: bool = True) -> list[str]:
        """The sentences for records in order, those of one story told together; with `headings`,
        each turn starts with its heading and each age's end is announced."""
        out: list[str] = []
        i = 0
        while i < len(records):
            h = records[i]
            nxt = records[i + 1] if i + 1 < len(records) else None
            if isinstance(h, (j.TurnStarted, j.AgeEnded, j.AgeStarted)):
                if headings:
                    out.append(self.line(h))
                i += 1
                continue
            if isinstance(h, j.PowerUsed) and isinstance(nxt, j.Captured) and nxt.card == h.card:
                i += 1  # the capture says it
                continue
            merged = self._merged(h, nxt)
            if merged is not None:
                out.append(merged)
                i += 2
                continue
            out.append(self.line(h))
            i += 1
        return out

    def _merged(self, h: j.Happening, nxt: j.Happening | None) -> str | None:
        """One sentence for a record and the placement that completes it, if `nxt` is one."""
        if not isinstance(nxt, j.Placed) or nxt.player != h.player or nxt.origin is not None:
            return None
        if isinstance(h, j.Took) and nxt.card == h.card:
            return self._took(h, self.column(nxt.column))
        if isinstance(h, j.Recruited) and nxt.card == h.card:
            return self._recruited(h, self.column(nxt.column))
        if isinstance(h, j.DistinctionWon) and nxt.card == h.card and nxt.column == j.COMMAND_ZONE:
            return self._distinction_won(h)
        return None

    # the course of the game
    def _game_started(self, h: j.Happening) -> str:
        assert isinstance(h, j.GameStarted)
        return "Gems dealt: " + ", ".join(f"{self.who(p)} {gem}" for p, gem in enumerate(h.gems))

    def _age_started(self, h: j.Happening) -> str:
        return f"Age {h.age} begins"

    def _turn_started(self, h: j.Happening) -> str:
        return heading(h.age, h.turn)

    def _age_ended(self, h: j.Happening) -> str:
        return f"End of Age {h.age}"

    def _final_scores(self, h: j.Happening) -> str:
        assert isinstance(h, j.FinalScores)
        scores = ", ".join(f"{self.who(p)} {total}" for p, total in enumerate(h.totals))
        winners = [self.who(p) for p in h.winners]
        if len(winners) == 1:
            won = "You win" if winners[0] == YOU else f"{winners[0]} wins"
        else:
            won = " and ".join(winners) + " share the win"
        return f"Final scores: {scores} — {won}"

    # cards dealt and cleared
    def _dealt(self, h: j.Happening) -> str:
        assert isinstance(h, j.Dealt)
        where = self.place(h.at)
        source = "" if h.deck.startswith("age:") else f" (from {self.place(h.deck)})"
        return f"{_cap(where)}{source}: {self.cards(h.cards)}"

    def _cleared(self, h: j.Happening) -> str:
        assert isinstance(h, j.Cleared)
        return f"Left in {self.place(h.at)}, to {self.place(h.into)}: {self.cards(h.cards)}"

    # bids
    def _coin(self, value: int | None, trading: bool) -> str:
        if value is None:
            return "no coin"
        return f"{value} (trading)" if trading else str(value)

    def _bids_placed(self, h: j.Happening) -> str:
        assert isinstance(h, j.BidsPlaced)
        bids = ", ".join(f"{_short(self.taverns.get(t, t))} {self._coin(v, i in h.trading)}"
                         for i, (t, v) in enumerate(zip(self.rules.tavern_ids, h.bids)))
        pouch = " ".join(str(v) for v in h.pouch) or "empty"
        verb = "bid" if self.who(h.player) == YOU else "bid (secretly)"
        return f"{self.who(h.player)} {verb}: {bids}; pouch {pouch}"

    def _bids_revealed(self, h: j.Happening) -> str:
        assert isinstance(h, j.BidsRevealed)
        bids = ", ".join(f"{self.who(p)} {self._coin(v, p in h.trading)}" for p, v in enumerate(h.bids))
        return f"Bids revealed — {_short(self.place(h.tavern))}: {bids}"

    def _late_bid(self, h: j.Happening) -> str:
        assert isinstance(h, j.LateBid)
        coin = self._coin(h.value, h.trading)
        return f"{self.who(h.player)} put coin {coin} on {self.place(h.tavern)} (bidding after the reveal)"

    # cards
    def _took(self, h: j.Happening, column: str | None = None) -> str:
        assert isinstance(h, j.Took)
        notes = _notes(column, self.card(h.cause) if h.cause else None)
        return f"{self.who(h.player)} took {self.card(h.card)} from {self.place(h.at)}{notes}"

    def _placed(self, h: j.Happening) -> str:
        assert isinstance(h, j.Placed)
        card, to = self.card(h.card), self.column(h.column)
        if h.origin is None:
            return f"{card} goes to {self.whose(h.player)} {to}{self.because(h, h.card)}"
        if h.origin == j.COMMAND_ZONE:
            return f"{self.who(h.player)} placed {card} from the command zone in the {to}{self.because(h, h.card)}"
        return f"{self.who(h.player)} moved {card} from the {self.column(h.origin)} to the {to}{self.because(h, h.card)}"

    def _recruited(self, h: j.Happening, column: str | None = None) -> str:
        assert isinstance(h, j.Recruited)
        how = None if h.by_line else self.card(h.cause) if h.cause else "by an effect"
        return f"{self.who(h.player)} recruited {self.card(h.card)}{_notes(column, how)}"

    def _hero_returned(self, h: j.Happening) -> str:
        assert isinstance(h, j.HeroReturned)
        taking = f", and {self.cards(h.brought)} to the supply" if h.brought else ""
        return f"{self.who(h.player)} put {self.card(h.card)} back among the heroes{taking}{self.because(h)}"

    def _discarded(self, h: j.Happening) -> str:
        assert isinstance(h, j.Discarded)
        card = self.card(h.card)
        if h.at.startswith("age:") or h.at in self.zones and h.at not in self.rules.class_score:
            return f"{card}, the top of {self.place(h.at)}, is discarded to {self.place(h.into)}{self.because(h)}"
        where = self.place(h.at) if h.at in self.taverns else f"the {self.column(h.at)}"
        return f"{self.who(h.player)} discarded {card} from {where}{self.because(h)}"

    def _put_under(self, h: j.Happening) -> str:
        assert isinstance(h, j.PutUnder)
        what = self.cards(h.cards) if h.cards else _count(h.count, "card")
        how = f"shuffled {what} back into" if h.shuffled else f"put {what} under"
        return f"{self.who(h.player)} {how} {self.place(h.deck)}{self.because(h)}"

    def _drew(self, h: j.Happening) -> str:
        assert isinstance(h, j.Drew)
        what = self.cards(h.cards) if h.cards else _count(h.count, "card")
        return f"{self.who(h.player)} drew {what} from {self.place(h.deck)}{self.because(h)}"

    def _reserved(self, h: j.Happening) -> str:
        assert isinstance(h, j.Reserved)
        return (f"{self.who(h.player)} reserved {self.card(h.card)} in {self.place(h.tavern)} for this turn"
                f"{self.because(h)}")

    def _swapped(self, h: j.Happening) -> str:
        assert isinstance(h, j.Swapped)
        return (f"{self.who(h.player)} swapped {self.card(h.first)} ({self.place(h.first_at)}) with "
                f"{self.card(h.second)} ({self.place(h.second_at)}){self.because(h)}")

    def _captured(self, h: j.Happening) -> str:
        assert isinstance(h, j.Captured)
        return f"{self.whose(h.player, start=True)} {self.card(h.card)} captured {self.card(h.subject)}"

    # marks
    def _track_moved(self, h: j.Happening) -> str:
        assert isinstance(h, j.TrackMoved)
        card = self.card(h.card)
        if h.new == h.old:
            return f"{card}'s token stays on notch {h.new}, the last (worth {h.value})"
        return f"{card}'s token moves to notch {h.new} (worth {h.value}){self.because(h, h.card)}"

    def _power_used(self, h: j.Happening) -> str:
        assert isinstance(h, j.PowerUsed)
        return f"{self.who(h.player)} used the power of {self.card(h.card)}"

    def _face_down(self, h: j.Happening) -> str:
        assert isinstance(h, j.FaceDown)
        return f"{self.whose(h.player, start=True)} {self.card(h.card)} turns face down: its power is spent"

    def _class_chosen(self, h: j.Happening) -> str:
        assert isinstance(h, j.ClassChosen)
        return f"{self.who(h.player)} chose {self.cls(h.cls)} for {self.card(h.card)}"

    def _tokens(self, h: j.Happening) -> str:
        assert isinstance(h, j.TokensChanged)
        return f"{self.whose(h.player, start=True)} {self.card(h.card)} now holds {_count(h.tokens, 'token')}"

    # coins and gems
    def _coin_traded(self, h: j.Happening) -> str:
        assert isinstance(h, j.CoinTraded)
        a, b = h.coins
        bonus = h.wanted - a - b
        total = f"{a} + {b}" + (f" + {bonus}" if bonus else "") + f" = {h.wanted}"
        short = "" if h.new == h.wanted else f", none of {h.wanted} left"
        kept = a + b - h.gone
        return (f"{self.who(h.player)} traded coins {total}: new coin {h.new}{short}; "
                f"gave up the {h.gone}, kept the {kept}{self.because(h)}")

    def _coin_transformed(self, h: j.Happening) -> str:
        assert isinstance(h, j.CoinTransformed)
        wanted = h.old + h.amount
        why = [f"+{h.amount}"]
        if h.new != wanted:
            why.append(f"none of {wanted} left")
        if h.cause:
            why.append(self.card(h.cause))
        return f"{self.who(h.player)} transformed {h.old} → {h.new} ({', '.join(why)})"

    def _coin_exchanged(self, h: j.Happening) -> str:
        assert isinstance(h, j.CoinExchanged)
        special = self.rules.special_coins.get(h.special)
        name = special.name if special is not None and special.name else f"special coin {h.new}"
        why = "" if h.cause and self.card(h.cause) in name else self.because(h)
        return f"{self.who(h.player)} exchanged coin {h.old} for the {name}{why}"

    def _coin_discarded(self, h: j.Happening) -> str:
        assert isinstance(h, j.CoinDiscarded)
        where = f" bid on {self.place(h.at)}" if h.at in self.taverns else f" from {self.place(h.at)}" if h.at else ""
        return f"{self.who(h.player)} discarded coin {h.value}{where}{self.because(h)}"

    def _gems_traded(self, h: j.Happening) -> str:
        assert isinstance(h, j.GemsTraded)
        swaps = ", ".join(f"{self.who(p)} {old} → {new}" for p, old, new in h.swaps)
        return f"Gems traded (tie at {self.place(h.tavern)}): {swaps}"

    def _gem_gained(self, h: j.Happening) -> str:
        assert isinstance(h, j.GemGained)
        return f"{self.who(h.player)} took gem {h.new}, covering gem {h.old}{self.because(h)}"

    # distinctions
    def _distinction_won(self, h: j.Happening) -> str:
        assert isinstance(h, j.DistinctionWon)
        won = "win" if self.who(h.player) == YOU else "wins"
        return (f"{self.who(h.player)} {won} {self.card(h.card)} ({self.cls(h.cls)} majority, "
                f"{_count(h.ranks, 'rank')})")

    def _distinction_unclaimed(self, h: j.Happening) -> str:
        assert isinstance(h, j.DistinctionUnclaimed)
        return f"No one wins {self.card(h.card)} (no strict {self.cls(h.cls)} majority)"


def _notes(*notes: str | None) -> str:
    """Notes after a sentence, in one parenthesis: " (Hunters column; Brísingamens)", or ""."""
    shown = [n for n in notes if n]
    return f" ({'; '.join(shown)})" if shown else ""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _short(name: str) -> str:
    """A place's name without its article, as a label: "Laughing Goblin"."""
    return name[4:] if name.lower().startswith("the ") else name


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def narrate(rules: Rules, names: Sequence[str], records: Sequence[j.Happening], headings: bool = True) -> list[str]:
    """The sentences for a game's records (see Narrator.lines)."""
    return Narrator(rules, names).lines(records, headings)
