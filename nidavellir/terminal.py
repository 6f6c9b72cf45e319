"""The terminal seat (`play --human K`): a person plays one seat at an 80 × 24 terminal.

Issue 10: "Before each of your decisions, what happened since the last one, in words …; bids
entered as one coin per tavern (`5 3 4`, or tavern by tavern), not a list of 60 permutations;
every choice shows what it means (a hero's class, ranks and rule text; a card's points), the
trading coin marked, each opponent's board and your running score on request (`?` for help, `b`
for boards). Fits an 80×24 terminal; readable labels, no Python reprs or raw ids."

What the seat shows is what its player may know: it gets the observation (runtime/observation.py)
and nothing else of the state; the board comes from the observation's view (others' unrevealed
bids are not in it), scores are counted on that view, and the narration is the journal as that
player may know it (the observation's `happened`, filled by runtime/observation.py's Observer).

Input: a number from 1 to the count of options, in the ASCII digits 0-9 (other scripts' digits,
such as "٣" or "３", are refused with a hint rather than guessed at), or an option's label exactly;
a bid is one coin per tavern. `?` (help), `? N` (what option N means), `b` / `b N` (boards), `s`
(scores) and `h` (what happened) work at every prompt. Anything else gets a retry that says what
was wrong. The end of input abandons the game.
Output: every text that comes from outside the program (player names, card and tavern names,
prompts and labels from the rules data) is shown with its control characters escaped, so that a
hostile name cannot drive the terminal; every line fits 80 columns.
"""
from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Sequence, Set as AbstractSet
from typing import Any, BinaryIO, TextIO

from nidavellir.errors import NidavellirError, count_of, visible
from nidavellir.interface.decisions import CardChoice, CoinChoice
from nidavellir.interface.rules import CardText, Zone
from nidavellir.narrate import YOU, Narrator
from nidavellir.runtime.decisions import Decision, Option
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.journal import (
    AgeStarted,
    BidsPlaced,
    Dealt,
    Happening,
)
from nidavellir.runtime.observation import Observation
from nidavellir.runtime.rules import Rules
from nidavellir.runtime.scoring import player_score
from nidavellir.runtime.state import State
from nidavellir.screen_fit import CUT, Block, fit_blocks, mark

MAX_DIGITS = 9       # a longer number is out of range whatever it is (and int() is not asked)
MAX_ECHO = 24        # characters of a refused input repeated back
WIDTH = 80           # columns of the terminal the seat writes for
SCREEN = 21          # lines of one screen (a 24-line terminal, less a blank line, the input line and a spare)
TRADING = "*"        # the mark of a trading coin
LONG_LIST = 12       # more options than this are listed in two columns, in short

HELP = """\
Commands (at any prompt):
  a number      choose that option (or type the option's text exactly)
  5 3 4         a bid: one coin per tavern, in order (an empty line asks
                tavern by tavern; fewer coins ask for the rest)
  ? N           what option N means (its rule text)
  b             every player's board, in short;  b N  player N's in full
  s             the scores as they stand now
  h             everything that happened since your last decision
  q             leave the game (`nidavellir play --resume LOG` continues it)
  ?             this help"""


class InputEnded(NidavellirError):
    """The terminal's input ended (end of file) while a decision waited: the game is abandoned."""


class SeatLeft(NidavellirError):
    """The player typed `q` at a prompt: the game stops at this decision, to be resumed from its log."""


# -- reading a choice -----------------------------------------------------------------------------

def read_choice(text: str, d: Decision) -> tuple[Option | None, str]:
    """The option a line of input names, or None and what to tell the player."""
    n = len(d.options)
    entry = text.strip()
    ask = f"type a number from 1 to {n}"
    if not entry:
        return None, ask
    if entry.isascii() and entry.isdigit() and len(entry) <= MAX_DIGITS and 1 <= int(entry) <= n:
        return d.options[int(entry) - 1], ""
    for i in range(n):
        if d.label(i) == entry:
            return d.options[i], ""
    if any(unicodedata.category(ch) == "Nd" and not ch.isascii() for ch in entry):
        return None, f"{_echo(entry)}: write the number with the digits 0-9; {ask}"
    return None, f"{_echo(entry)} is not an option; {ask}"


def read_bid(text: str, hand: Sequence[int], taverns: int) -> tuple[list[int] | None, str]:
    """The coins a line of a bid names, in tavern order (at most `taverns`, each a coin of `hand`,
    a coin used no more often than the hand holds it), or None and what to tell the player."""
    words = text.split()
    if len(words) > taverns:
        return None, f"{taverns} taverns take {taverns} coins; you typed {len(words)}"
    values: list[int] = []
    for word in words:
        if not (word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS):
            if any(unicodedata.category(ch) == "Nd" and not ch.isascii() for ch in word):
                return None, f"{_echo(word)}: write coins with the digits 0-9"
            return None, f"{_echo(word)} is not a coin; type coin values, such as {_example(hand, taverns)}"
        values.append(int(word))
    left = list(hand)
    for v in values:
        if v not in left:
            if v in hand:
                return None, f"coin {v} used twice: you have {hand.count(v)} coin{'s' if hand.count(v) > 1 else ''} {v}"
            return None, f"you have no coin {v} (your coins: {' '.join(str(c) for c in hand)})"
        left.remove(v)
    return values, ""


def _example(hand: Sequence[int], taverns: int) -> str:
    return " ".join(str(v) for v in sorted(hand, reverse=True)[:taverns])


def _echo(text: str) -> str:
    short = text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "…"
    return "`" + visible(short) + "`"


# -- fitting text to the terminal -----------------------------------------------------------------

def width_of(text: str) -> int:
    """Columns a text takes on a terminal (wide characters two, combining marks none)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def fit(text: str, width: int = WIDTH) -> str:
    """The text cut to `width` columns, an ellipsis marking the cut."""
    if width_of(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = width_of(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out).rstrip() + "…"


def wrap(text: str, width: int = WIDTH, indent: str = "", rest: str | None = None) -> list[str]:
    """The text wrapped to `width` columns (lines too wide still, for wide characters, are cut)."""
    lines = textwrap.wrap(text, width=width, initial_indent=indent,
                          subsequent_indent=indent if rest is None else rest, break_on_hyphens=False) or [indent]
    return [fit(line, width) for line in lines]


# -- the rule reference's card texts --------------------------------------------------------------

class Cards:
    """What a card means, for a person: the rule reference's English text the compiled rules hold
    (`CardDef.text`), else the rules data alone."""

    def __init__(self, rules: Rules):
        self.rules = rules

    def view(self, cid: str) -> CardText | None:
        d = self.rules.cards.get(cid)
        return d.text if d is not None else None

    def name(self, cid: str) -> str:
        d = self.rules.cards.get(cid)
        return d.name if d is not None else cid

    def what(self, cid: str) -> str:
        """The card's class (or kind) and ranks or points: "Warrior, ranks: 1, worth 9"."""
        view = self.view(cid)
        d = self.rules.cards.get(cid)
        kind = (d.kind if d is not None else "card").replace("-", " ")
        if view is None:
            if d is None:
                return kind
            ranks = f", ranks {' '.join(str(r) for r in d.ranks)}" if d.ranks else ""
            points = f", {d.points} points" if d.points else ""
            return f"{kind}{ranks}{points}"
        label = view.class_label
        who = label if kind == "dwarf" else f"{label or 'neutral'} {kind}"
        ranks = view.ranks_label.replace("; Points", "; points")
        if ranks.startswith(("Ranks", "Points")):
            ranks = ranks[:1].lower() + ranks[1:]
        if d is not None and ranks in d.name:  # (a mercenary's name says its sides)
            ranks = ""
        return who + (f", {ranks}" if ranks else "")

    def rule(self, cid: str) -> list[str]:
        """The card's rule text, sentence by sentence, without the sentences its ranks already say."""
        view = self.view(cid)
        if view is None:
            return []
        d = self.rules.cards.get(cid)
        plain = d is not None and d.kind == "dwarf" and not (d.when or d.whenever or d.instead or d.score)
        text = view.text
        said = (r"^\d+ (\w+ )?ranks?\b", r"^Adds \d+ to your Final Bravery Value from the command zone\.$")
        return [] if plain else [t for t in text if not any(re.match(pattern, t) for pattern in said)]

    def short(self, cid: str) -> str:
        """The card in a few words: "Kraal the Venal · Warrior 7 0", "Skaa the Unfathomable · 17 pts"."""
        d = self.rules.cards.get(cid)
        if d is None or d.kind == "dwarf":
            return self.name(cid)
        first = d.name.split(" ", 1)[0] if len(d.name) > 14 else d.name
        view = self.view(cid)
        label = view.class_label if view is not None else ""
        if label and label != "neutral" and d.ranks:
            ranks = f"×{len(d.ranks)}" if not any(d.ranks) else " ".join(str(r) for r in d.ranks)
            return f"{first} · {label} {ranks}"
        if d.points:
            return f"{first} · {d.points} pts"
        rule = self.rule(cid)
        return f"{first} · {rule[0] if rule else d.kind.replace('-', ' ')}"

    def summary(self, cid: str) -> str:
        rule = self.rule(cid)
        return f"{self.name(cid)} — {self.what(cid)}" + (f": {' '.join(rule)}" if rule else "")


# -- the seat -------------------------------------------------------------------------------------

class TerminalSeat:
    """A seat played at the terminal: it tells what happened since its last decision (the
    observation's `happened`), and what a card means in the rule reference's words."""

    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin, self.out = stdin, stdout
        # Lines are read as bytes where the stream has them (this seat is its only reader), so
        # that a line that is not text is refused alone (a text stream stops after one).
        self.raw: BinaryIO | None = getattr(stdin, "buffer", None)
        self.encoding = getattr(stdin, "encoding", None) or "utf-8"
        self._cards: Cards | None = None
        self.since: list[str] = []       # what happened since the last decision, in words
        self.player: int | None = None

    # -- input and output --------------------------------------------------------------------
    def readline(self) -> str | None:
        """The next line ("" at the end of input), or None for a line that is not valid text."""
        try:
            if self.raw is not None:
                return self.raw.readline().decode(self.encoding)
            return self.stdin.readline()
        except (UnicodeDecodeError, LookupError):
            return None

    def say(self, *lines: str) -> None:
        """Write lines (outside text already escaped by the caller), each cut to the width."""
        for line in lines:
            self.out.write(fit(line) + "\n")

    def ask(self, prompt: str) -> str:
        """A line of input after `prompt`; InputEnded at the end of input."""
        while True:
            self.out.write(prompt)
            self.out.flush()
            line = self.readline()
            if line is None:
                self.say("that line is not valid text")
                continue
            if not line:
                self.out.write("\n")
                raise InputEnded("end of input: the game is abandoned")
            return line

    def cards(self, rules: Rules) -> Cards:
        if self._cards is None or self._cards.rules is not rules:
            self._cards = Cards(rules)
        return self._cards

    # -- what happened -----------------------------------------------------------------------
    def catch_up(self, rules: Rules, names: Sequence[str], happened: Sequence[Any] = ()) -> list[str]:
        """What happened since the seat's last decision, in words: the observation's `happened`
        (what its player may know of it)."""
        records: list[Happening] = [h for h in happened if isinstance(h, Happening)]
        taverns = set(rules.tavern_ids)  # (the taverns' cards, the age and your bids are on the board)
        told = [h for h in records if not (isinstance(h, Dealt) and h.at in taverns)
                and not isinstance(h, (AgeStarted, BidsPlaced))]
        return Narrator(rules, names).lines(told) if told else []

    def finish(self, happened: Sequence[Any], rules: Rules, names: Sequence[str]) -> None:
        """Tell what happened after the last decision (the game's end), as the seat's player may know it."""
        lines = self.catch_up(rules, names, happened)
        if lines:
            self.say("", _rule("What happened since your last decision"))
            self.say(*[line for text in lines for line in wrap(visible(text), indent="  ", rest="    ")])

    # -- a decision --------------------------------------------------------------------------
    def choose(self, obs: Observation) -> Option:
        d = obs.decision
        self.player = d.player
        self.since = self.catch_up(obs.rules, obs.names, obs.happened)
        screen = Screen(self, obs)
        screen.show(self.since)
        if d.kind == "bid" and all(isinstance(o, tuple) for o in d.options):
            return self.choose_bid(screen)
        return self.choose_option(screen)

    def command(self, screen: Screen, line: str) -> bool:
        """Run a command typed at a prompt (True if it was one)."""
        entry = line.strip().lower()
        if entry in ("q", "quit"):
            raise SeatLeft("you left the game")
        if entry in ("?", "help"):
            self.say(*HELP.splitlines())
        elif entry.startswith("? ") or entry.startswith("?") and entry[1:].strip().isdigit():
            screen.explain(entry[1:].strip())
        elif entry == "b":
            screen.boards()
        elif entry.startswith("b ") and entry[2:].strip():
            screen.board_of(entry[2:].strip())
        elif entry == "s":
            screen.scores()
        elif entry == "h":
            history = self.since or ["(nothing yet)"]
            self.say(_rule("What happened since your last decision"))
            self.say(*[ln for text in history for ln in wrap(visible(text), indent="  ", rest="    ")])
        else:
            return False
        return True

    def choose_option(self, screen: Screen) -> Option:
        d = screen.d
        while True:
            line = self.ask("> ")
            if self.command(screen, line):
                continue
            option, why = read_choice(line, d)
            if option is not None:
                return option
            shown = [screen.label(i).casefold() for i in range(len(d.options))]
            if line.strip().casefold() in shown:  # (an option's text as the screen shows it)
                return d.options[shown.index(line.strip().casefold())]
            self.say(why + "; ? for help")

    def choose_bid(self, screen: Screen) -> Option:
        """A bid typed as one coin per tavern (`5 3 4`), or tavern by tavern."""
        d = screen.d
        names = [_short(n) for n in screen.rules.tavern_names]
        first = d.options[0] if d.options else None
        if isinstance(first, tuple):  # with fewer coins than taverns, the first taverns only (flow.bids)
            names = names[:len(first)]
        hand = screen.hand_values()
        while True:
            line = self.ask("bid> ")
            if self.command(screen, line):
                continue
            values, why = read_bid(line, hand, len(names))
            if values is None:
                self.say(why + "; ? for help")
                continue
            values = self._rest_of_bid(screen, values, hand, names)
            if values is None:
                continue
            if tuple(values) in d.options:
                return tuple(values)
            self.say("that bid is not one the rules allow here; ? for help")  # (rules that limit bids)

    def _rest_of_bid(self, screen: Screen, values: list[int], hand: list[int],
                     names: list[str]) -> list[int] | None:
        """Ask tavern by tavern for the coins a bid still lacks (None: start the bid again)."""
        while len(values) < len(names):
            left = list(hand)
            for v in values:
                left.remove(v)
            shown = " ".join(_coin_text(v, screen.trading_left(values, v)) for v in sorted(left))
            line = self.ask(fit(f"coin for {visible(names[len(values)])} ({shown}; x restarts)", WIDTH - 3) + "> ")
            entry = line.strip()
            if entry.lower() == "x":
                self.say("the bid starts again: type one coin per tavern")
                return None
            if self.command(screen, line):
                continue
            more, why = read_bid(entry, left, 1)
            if more is None or not more:
                self.say((why or "type one coin") + "; x starts the bid again")
                continue
            values = values + more
        return values


class Screen:
    """One decision's screen: what happened, the taverns, your board, the question and its options
    (at most SCREEN lines: the narration gives way, `h` shows it all)."""

    def __init__(self, seat: TerminalSeat, obs: Observation):
        self.seat, self.d, self.view = seat, obs.decision, obs.view
        self.p = obs.player
        self.rules = rules = obs.rules
        self.names = list(obs.names)
        self.cards = seat.cards(rules)
        self.narrator = Narrator(rules, self.names)
        self.taverns = dict(zip(rules.tavern_ids, rules.tavern_names))
        self.zones = {z.id: z.name for z in rules.ruleset.zones}
        self.classes = {c.id: c.name for c in rules.ruleset.classes}
        self._scorer: Engine | None = None

    # -- the parts ---------------------------------------------------------------------------
    def name(self, q: int) -> str:
        return visible(self.names[q])

    def coin_values(self, q: int) -> list[tuple[int, bool]]:
        """Every coin player q owns, by value, with whether it is a trading coin (public)."""
        pl = self.view.players[q]
        coins = self.view.coins
        ids = pl.hand + [c for c in pl.slots if c is not None] + pl.pouch
        return sorted((coins[c].value, coins[c].trading) for c in ids)

    def hand_values(self) -> list[int]:
        coins = self.view.coins
        return sorted(coins[c].value for c in self.view.players[self.p].hand)

    def trading_left(self, bid: list[int], value: int) -> bool:
        """Whether a coin of `value` left in the hand after `bid` is a trading coin (the trading
        coins of a value are put last: 003 "Bids")."""
        coins = self.view.coins
        same = [coins[c].trading for c in self.view.players[self.p].hand if coins[c].value == value]
        plain = same.count(False)
        used = bid.count(value)
        return used >= plain and True in same

    def coins_text(self, q: int) -> str:
        return " ".join(f"{v}{TRADING if t else ''}" for v, t in self.coin_values(q))

    def ranks(self, q: int, cls: str) -> int:
        total = 0
        for c in self.view.players[q].army.get(cls, ()):
            d = self.rules.cards[self.view.cards[c]]
            total += len(d.ranks_in(cls)) if d.column_ranks else d.nranks
        return total

    def army_parts(self, q: int, names: bool) -> list[str]:
        pl = self.view.players[q]
        parts = []
        for cls in self.rules.classes:
            label = f"{visible(self.classes[cls])} {self.ranks(q, cls)}"
            cards = pl.army.get(cls, [])
            if names and cards:
                label += ": " + ", ".join(visible(self.cards.name(self.view.cards[c])) for c in cards)
            parts.append(label)
        return parts

    def command_text(self, q: int) -> str:
        pl = self.view.players[q]
        return ", ".join(visible(self.card_with_marks(c)) for c in pl.command) or "empty"

    def card_with_marks(self, c: int) -> str:
        """A card's name with what it carries (a track's notch, a chosen class, a spent power)."""
        cid = self.view.cards[c]
        d = self.rules.cards[cid]
        marks = self.view.marks.get(c, {})
        notes = []
        if d.track:
            notch = int(marks.get("notch", 0))
            notes.append(f"notch {notch}: {d.track[notch]}")
        if marks.get("class"):
            notes.append(self.classes.get(str(marks["class"]), str(marks["class"])))
        if marks.get("captured"):
            notes.append("captured " + ", ".join(self.cards.name(self.view.cards[x]) for x in marks["captured"]))
        if marks.get("tokens"):
            notes.append(count_of(int(marks["tokens"]), "token"))
        if marks.get("used") or marks.get("face_down"):
            notes.append("face down" if marks.get("face_down") else "used")
        return self.cards.name(cid) + (f" ({'; '.join(notes)})" if notes else "")

    @property
    def scorer(self) -> Engine:
        """An engine holding the view, to count scores on (what the player may know)."""
        if self._scorer is None:
            self._scorer = engine_of(self.rules, self.names, self.view)
        return self._scorer

    def score(self, q: int) -> int:
        return int(player_score(self.scorer, q)["total"])

    # -- the screen --------------------------------------------------------------------------
    def show(self, since: list[str]) -> None:
        """The screen: what happened (as much as fits), the heading, the board (the taverns, your
        coins, army and command zone: what the options name first, the rest as room allows, every
        cut marked and the key that shows it named), then the question and its options."""
        s = self.view
        top = f" Age {s.age}, turn {s.turn} · {self.name(self.p)} · gem {s.players[self.p].gem}" \
              f" · score {self.score(self.p)} "
        question, options = self.question(), self.option_lines()
        room = SCREEN - 2 - len(question) - len(options)  # (the heading and the input line)
        fitted = fit_blocks(self.board_blocks(), room - 1)  # (a line kept for the key)
        board = fitted.lines
        cut = fitted.shortened or any(CUT in line for line in board)
        if fitted.left_out or cut:
            said = [f"{CUT} marks a cut"] * cut + ["part of the board is left out"] * fitted.left_out
            board.append(f"  ({'; '.join(said)}: b shows it all)")
        told = [ln for text in since for ln in wrap(visible(text), indent="  ", rest="    ")]
        room -= len(board)
        lines: list[str] = []
        if told and room < 2:  # no room: say where it is
            lines = [f"  (h: what happened since your last decision, {len(told)} line{'s' if len(told) > 1 else ''})"
                     ][:max(room, 0)]
        elif told:
            header = "What happened since your last decision"
            if len(told) > room - 1:
                keep = room - 1
                hidden = len(told) - keep
                told = told[-keep:]
                header += f" ({hidden} earlier line{'s' if hidden > 1 else ''}: type h)"
            lines = [_rule(header)] + told
        self.seat.say("", *lines, _rule(top, "═"), *board, *question, *options)

    def needs(self) -> set[str]:
        """The parts of the board the decision's options name: `tavern:ID`, `zone:ID`, `army:CLASS`,
        `command`, `coins` (a bid needs every tavern: what it bids for)."""
        d, classes = self.d, set(self.rules.classes)
        taverns = set(self.rules.tavern_ids)
        need: set[str] = set()
        if d.kind == "bid":
            need |= {"coins"} | {f"tavern:{t}" for t in taverns}
        elif d.kind == "place-bid":
            need |= {"coins", f"tavern:{self.rules.tavern_ids[self.tavern_asked()]}"}
        elif d.kind == "column":
            need |= {f"army:{o}" for o in d.options if isinstance(o, str) and o in classes}
        for o in d.options:
            if isinstance(o, CoinChoice):
                need.add("coins")
            elif isinstance(o, CardChoice):
                need.add(f"tavern:{o.at}" if o.at in taverns else f"army:{o.at}" if o.at in classes
                         else "command" if o.at == "command" else f"zone:{o.at}")
        return need

    def table_zones(self) -> list[Zone]:
        """The zones on the table the board shows (face up, not an age's own: the Camp)."""
        return [z for z in self.rules.ruleset.zones if z.explored and z.id in self.view.zones and not z.per_age]

    def table_blocks(self, need: AbstractSet[str] = frozenset()) -> list[Block]:
        """The taverns and the zones on the table, a block each (`need`: the parts the decision needs)."""
        s, rules = self.view, self.rules
        blocks = []
        for t, tavern in enumerate(s.taverns):
            cards = ", ".join(visible(self.card_label(c)) for c in tavern) or "(empty)"
            blocks.append(_wrapped(f"  {visible(_short(rules.tavern_names[t])):<16} {cards}", " " * 19,
                                   f"tavern:{rules.tavern_ids[t]}" in need, 2))
        for zone in self.table_zones():
            cards = ", ".join(visible(self.cards.name(s.cards[c])) for c in s.zones[zone.id]) or "(empty)"
            blocks.append(_wrapped(f"  {visible(_short(zone.name)):<16} {cards}", " " * 19,
                                   f"zone:{zone.id}" in need, 0))
        return blocks

    def board_blocks(self) -> list[Block]:
        """The board's blocks in the screen's order: the table's (taverns, zones), your coins, army
        and command zone; `drop` orders what gives way first (the zones, the command zone, the
        taverns, the army, the coins)."""
        rules, need = self.rules, self.needs()
        blocks = self.table_blocks(need)
        blocks.append(_wrapped(self.coins_line(), "    ", "coins" in need, 4))
        keep = {cls for cls in rules.classes if f"army:{cls}" in need}
        army = wrap(self.army_short(self.p), indent="  Army: ", rest="    ")
        short = wrap(self.army_short(self.p, keep), indent="  Army: ", rest="    ")
        blocks.append(Block(army, short if short != army else None, bool(keep), 3))
        if self.view.players[self.p].command:
            blocks.append(_wrapped(f"  Command zone: {self.command_text(self.p)}", "    ", "command" in need, 1))
        return blocks

    def coins_line(self) -> str:
        """Your coins: by value before the bids; then on each tavern, in the pouch and in the hand."""
        pl = self.view.players[self.p]
        coins = self.view.coins
        if not any(c is not None for c in pl.slots):
            return f"  Coins: {self.coins_text(self.p)}  ({TRADING} trading)"
        bids = ", ".join(f"{visible(_short(self.rules.tavern_names[t]))} "
                         f"{'-' if c is None else _coin_text(coins[c].value, coins[c].trading)}"
                         for t, c in enumerate(pl.slots))
        pouch = " ".join(_coin_text(coins[c].value, coins[c].trading) for c in pl.pouch) or "empty"
        hand = " ".join(_coin_text(coins[c].value, coins[c].trading) for c in pl.hand)
        return f"  Bids: {bids} · pouch {pouch}" + (f" · hand {hand}" if hand else "")

    def army_short(self, q: int, keep: set[str] | None = None) -> str:
        """A player's army in short: each column's ranks, then its cards (a dwarf by its points,
        copies counted): "Warriors 3 (7 3 6) · Hunters 4 (Hunter ×3, Aral)". With `keep`, only the
        columns kept show their cards, the others their ranks and the cut mark: "Warriors 3 (…)"."""
        pl = self.view.players[q]
        parts = []
        for cls in self.rules.classes:
            labels: list[str] = []
            for c in pl.army.get(cls, ()):
                d = self.rules.cards[self.view.cards[c]]
                last = d.name.rsplit(" ", 1)[-1]
                label = last if d.kind == "dwarf" and last.isdigit() else \
                    d.name if len(d.name) <= 14 or d.kind == "dwarf" else d.name.split(" ", 1)[0]
                labels.append(label)
            grouped: list[str] = []
            for label in labels:
                if grouped and grouped[-1].split(" ×")[0] == label and not label.isdigit():
                    count = int(grouped[-1].split(" ×")[1]) + 1 if " ×" in grouped[-1] else 2
                    grouped[-1] = f"{label} ×{count}"
                else:
                    grouped.append(label)
            text = f"{visible(self.classes[cls])} {self.ranks(q, cls)}"
            if keep is not None and cls not in keep and grouped:
                parts.append(f"{text} ({CUT})")
                continue
            parts.append(text + (f" ({visible(' '.join(grouped) if all(x.isdigit() for x in grouped) else ', '.join(grouped))})"
                                 if grouped else ""))
        return " · ".join(parts)

    def card_label(self, c: int) -> str:
        """A tavern card: its name, with its points where the name does not say them."""
        cid = self.view.cards[c]
        reserved = self.view.reserved.get(c)
        mark = f" [reserved: {self.names[reserved]}]" if reserved is not None else ""
        return self.cards.name(cid) + mark

    def question(self) -> list[str]:
        d, rules = self.d, self.rules
        if d.kind == "bid":
            order = ", ".join(visible(_short(n)) for n in rules.tavern_names)
            return [_rule("Your bid"),
                    *wrap(f"One coin per tavern ({order}), e.g. `{_example(self.hand_values(), len(rules.tavern_ids))}`"
                          "; the rest go to your pouch. Empty line: tavern by tavern. ? help")]
        more = " (? N: option N in full)" if any(isinstance(o, CardChoice) for o in d.options) else ""
        lines = [_rule("Your decision"), *wrap(visible(self.prompt()) + more)]
        if d.kind == "use":
            card = self.use_card()
            if card is not None:
                lines.extend(wrap(" ".join(visible(t) for t in self.cards.rule(card)), indent="  ", rest="  ")[:3])
        return lines

    def tavern_asked(self) -> int:
        """The tavern a `place-bid` decision is about (its prompt names it), else the first whose
        bids are revealed and where the player has no coin."""
        ids = self.rules.tavern_ids
        for t, tid in enumerate(ids):
            if re.search(rf"(?<![\w-]){re.escape(tid)}(?![\w-])", self.d.prompt):
                return t
        pl = self.view.players[self.p]
        return next((t for t, c in enumerate(pl.slots) if c is None), 0)

    def use_card(self) -> str | None:
        """The card a `use` decision asks about (its prompt names it: "use NAME: …?")."""
        prompt = self.d.prompt
        if not prompt.startswith("use "):
            return None
        name = prompt[4:].split(": ", 1)[0].rstrip("?")
        return next((cid for cid, c in self.rules.cards.items() if c.name == name), None)

    def prompt(self) -> str:
        """The decision's question in words (ids in the engine's prompts become names)."""
        d = self.d
        if d.kind == "place-bid":
            t = self.tavern_asked()
            shown = ", ".join(f"{self.names[q]} {_coin_text(self.view.coins[c].value, self.view.coins[c].trading)}"
                              for q, pl in enumerate(self.view.players) if (c := pl.slots[t]) is not None)
            return f"Place a coin on {self.rules.tavern_names[t]} (bids there: {shown or 'none'})"
        if d.kind == "use":
            card = self.use_card()
            if card is not None:
                said = d.prompt.split(": ", 1)[1].rstrip("?") if ": " in d.prompt else ""
                plain = said and ":" not in said and not said.startswith("may ")  # (not the effect's DSL)
                return f"Use {self.cards.name(card)} now" + (f": {said}?" if plain else "?")
        text = d.prompt
        for tid, tname in self.taverns.items():
            text = re.sub(rf"(?<![\w-]){re.escape(tid)}(?![\w-])", tname, text)
        for zid, zname in self.zones.items():
            text = re.sub(rf"\bthe {re.escape(zid)}(?![\w-])", zname, text)
        text = re.sub(r"\bthe discard\b(?! pile)", "the discard pile", text)
        text = re.sub(r"to transform a coin by (\d+)", r"to transform (+\1)", text)
        place = self.off_board()
        if place is not None and not _names_place(text, place):
            text += f", from {place}"
        return text[:1].upper() + text[1:]

    def off_board(self) -> str | None:
        """The one place the cards offered come from when the board does not show it (the cards
        drawn, the discard pile …), by its name; else None (the labels name several places)."""
        ats = {o.at for o in self.d.options if isinstance(o, CardChoice)}
        shown = set(self.rules.tavern_ids) | set(self.rules.classes) | {"command"} | {z.id for z in self.table_zones()}
        if len(ats) != 1 or ats <= shown:
            return None
        return self.place(ats.pop())

    def option_lines(self) -> list[str]:
        d = self.d
        if d.kind == "bid":
            return []
        n = len(d.options)
        labels = [visible(self.label(i)) for i in range(n)]
        if n <= LONG_LIST:
            return [f"  {i + 1:>2}. {labels[i]}" for i in range(n)]
        # A long list in two columns, each option in short (`? N` tells it in full)
        short = [visible(self.label(i, short=True)) for i in range(n)]
        half = (n + 1) // 2
        rows = []
        for i in range(half):
            left = fit(f"  {i + 1:>2}. {short[i]}", 39)
            right = fit(f"{i + half + 1:>2}. {short[i + half]}", 39) if i + half < n else ""
            rows.append(left + " " * (40 - width_of(left)) + right)
        return rows

    def label(self, i: int, short: bool = False) -> str:
        """How option i reads to a person: a card by its name and what it means (`short`: its
        class and ranks or points alone), a coin by its value (the trading coin marked) and place,
        a column with its ranks."""
        d = self.d
        option = d.options[i]
        if d.labels is not None and not isinstance(option, CardChoice):
            return d.labels[i]
        if isinstance(option, CardChoice):
            text = self.cards.short(option.card) if short else self.cards.summary(option.card)
            ats = {o.at for o in d.options if isinstance(o, CardChoice)}
            if len(ats) > 1 and option.at not in self.rules.class_score:
                text = f"{text} [{self.place(option.at)}]"
            return text
        if isinstance(option, CoinChoice):
            trading = d.kind == "trade-coin" or self.is_trading(option)
            where = self.place(option.at)
            return f"coin {_coin_text(option.value, trading)} {'on' if option.at in self.taverns else 'in'} {where}"
        if isinstance(option, bool):
            return "yes" if option else "no"
        if isinstance(option, str) and option in self.classes:
            if d.kind == "column":
                return f"{self.classes[option]} column ({self.ranks(self.p, option)} ranks)"
            return self.classes[option]
        if d.kind == "order" and option in ("first", "last"):
            return f"go {option}"
        if d.kind == "amount" and isinstance(option, int):
            return f"+{option}"
        if d.kind == "place-bid" and isinstance(option, int):
            hand = [self.view.coins[c] for c in self.view.players[self.p].hand if self.view.coins[c].value == option]
            return f"coin {_coin_text(option, all(c.trading for c in hand) and bool(hand))}"
        return d.label(i)

    def is_trading(self, option: CoinChoice) -> bool:
        pl = self.view.players[self.p]
        coins = self.view.coins
        if option.at in self.taverns:
            c = pl.slots[self.rules.tavern_ids.index(option.at)]
            return c is not None and coins[c].trading and coins[c].value == option.value
        zone = pl.pouch if option.at == "pouch" else pl.hand
        same = [coins[c] for c in zone if coins[c].value == option.value]
        return bool(same) and all(c.trading for c in same)

    def place(self, at: str) -> str:
        if at in self.taverns:
            return self.taverns[at]
        if at in self.classes:
            return f"your {self.classes[at]} column"
        return self.narrator.place(at)

    # -- on request --------------------------------------------------------------------------
    def explain(self, which: str) -> None:
        d = self.d
        if d.kind == "bid":
            self.seat.say("a bid has no numbered options: type one coin per tavern, such as "
                          f"{_example(self.hand_values(), len(self.rules.tavern_ids))}")
            return
        if not (which.isascii() and which.isdigit() and 1 <= int(which) <= len(d.options)):
            self.seat.say(f"? N explains option N, from 1 to {len(d.options)}" if d.options and d.kind != "bid"
                          else "? explains an option by its number")
            return
        option = d.options[int(which) - 1]
        card = self.use_card() if d.kind == "use" else None
        if isinstance(option, CardChoice):
            self.explain_card(option.card)
        elif card is not None:
            self.explain_card(card)
        else:
            self.seat.say(f"{which}. {visible(self.label(int(which) - 1))}")

    def explain_card(self, cid: str) -> None:
        cards = self.cards
        self.seat.say(_rule(visible(cards.name(cid))), *wrap(visible(cards.what(cid)), indent="  "))
        for sentence in cards.rule(cid):
            self.seat.say(*wrap(visible(sentence), indent="  ", rest="    "))

    def boards(self) -> None:
        """The taverns (and the zones on the table) in full, then every player's board in short:
        gem, coins, ranks and cards per class, command zone, score."""
        lines = [_rule("Taverns")] + [line for b in self.table_blocks() for line in b.full]
        lines.append(_rule("Boards"))
        for q in range(len(self.view.players)):
            pl = self.view.players[q]
            lines.append(fit(f"{q + 1}. {self.name(q)} · gem {pl.gem} · coins {self.coins_text(q)} · "
                             f"score {self.score(q)} · command zone {len(pl.command)}"))
            lines.extend(wrap(self.army_short(q), indent="   "))
        lines.append(f"({TRADING} trading coin; `b N` shows player N's cards)")
        self.seat.say(*lines)

    def board_of(self, which: str) -> None:
        q = self.player_named(which)
        if q is None:
            self.seat.say(f"b N shows player N's board, N from 1 to {len(self.view.players)}")
            return
        pl = self.view.players[q]
        lines = [_rule(f"{self.name(q)}'s board"),
                 f"  gem {pl.gem} · coins {self.coins_text(q)} · score {self.score(q)}"]
        for part in self.army_parts(q, names=True):
            lines.extend(wrap(part, indent="  ", rest="      "))
        lines.extend(wrap(f"Command zone: {self.command_text(q)}", indent="  ", rest="    "))
        self.seat.say(*lines)

    def player_named(self, which: str) -> int | None:
        if which.isascii() and which.isdigit() and 1 <= int(which) <= len(self.view.players):
            return int(which) - 1
        names = [n.lower() for n in self.names]
        return names.index(which.lower()) if which.lower() in names else None

    def scores(self) -> None:
        """The scores as they stand (the Final Bravery Value if the game ended now), and yours by part."""
        lines = [_rule("Scores now")]
        for q in range(len(self.view.players)):
            lines.append(f"  {self.name(q):<16} {self.score(q):>4}")
        mine = player_score(self.scorer, self.p)["breakdown"]
        parts = " · ".join(f"{visible(self.classes.get(k, k))} {v}" for k, v in mine.items())
        lines.extend(wrap(f"Yours: {parts}", indent="  ", rest="    "))
        self.seat.say(*lines)


def engine_of(rules: Rules, names: Sequence[str], view: State) -> Engine:
    """An engine whose state is `view` (a copy), to read and score it."""
    e = Engine(rules, names, 0)
    e.restore(view)
    return e


def _wrapped(text: str, rest: str, needed: bool, drop: int) -> Block:
    """A board line as a block: wrapped in full, or its first line marked as cut."""
    indent = text[:len(text) - len(text.lstrip())]
    lines = wrap(text.lstrip(), indent=indent, rest=rest)
    return Block(lines, [mark(lines[0])] if len(lines) > 1 else None, needed, drop)


def _names_place(text: str, place: str) -> bool:
    """Whether a question already says the place (by the last word of its name: "pile", "hero")."""
    last = place.split()[-1].casefold()
    stems = {last, last.removesuffix("s"), last.removesuffix("es")}
    return any(re.search(rf"\b{re.escape(w)}", text.casefold()) for w in stems if len(w) > 2)


def _coin_text(value: int, trading: bool) -> str:
    return f"{value}{TRADING}" if trading else str(value)


def _short(name: str) -> str:
    """A name without its article, as a label: "Laughing Goblin"."""
    return name[4:] if name.lower().startswith("the ") else name


def _rule(title: str, ch: str = "─") -> str:
    """A heading drawn across the width: "── title ────…"."""
    head = f"{ch * 2} {title.strip()} "
    return fit(head + ch * max(0, WIDTH - width_of(head)))


__all__ = [
    "YOU",
    "InputEnded",
    "SeatLeft",
    "TerminalSeat",
    "fit",
    "read_bid",
    "read_choice",
    "visible",
    "width_of",
    "wrap",
]
