"""A terminal seat: shows the player's board, the taverns and numbered options; reads a number.

Input: a number from 1 to the count of options, in the ASCII digits 0-9 (other scripts' digits,
such as "٣" or "３", are refused with a hint rather than guessed at), or an option's label exactly.
Anything else gets a retry that says what was wrong. The end of input abandons the game.
Output: every text that comes from outside the program (player names, card and tavern names,
prompts and labels from the rules data) is shown with its control characters escaped, so that a
hostile name cannot drive the terminal.
"""
from __future__ import annotations

import unicodedata
from typing import BinaryIO, TextIO

from nidavellir.errors import NidavellirError, visible
from nidavellir.interface.decisions import CardChoice, CoinChoice
from nidavellir.runtime.decisions import Decision, Option
from nidavellir.runtime.engine import Engine

MAX_DIGITS = 9       # a longer number is out of range whatever it is (and int() is not asked)
MAX_ECHO = 24        # characters of a refused input repeated back


class InputEnded(NidavellirError):
    """The terminal's input ended (end of file) while a decision waited: the game is abandoned."""


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


def _echo(text: str) -> str:
    short = text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "…"
    return "`" + visible(short) + "`"


def option_label(e: Engine, d: Decision, i: int) -> str:
    """How an option reads to a person: a card by its name and where it lies (a tavern or a column
    by its name), a coin by its value and place."""
    if d.labels is not None:
        return d.labels[i]
    option = d.options[i]
    if isinstance(option, CardChoice):
        card = e.rules.cards.get(option.card)
        name = card.name if card is not None else option.card
        places = dict(zip(e.rules.tavern_ids, e.rules.tavern_names))
        places.update((z.id, z.name) for z in e.rules.ruleset.zones)
        where = places.get(option.at) or (f"{option.at} column" if option.at in e.rules.class_score else option.at)
        return f"{name} ({where})" if option.at not in ("heroes", "draw") else name
    if isinstance(option, CoinChoice):
        taverns = dict(zip(e.rules.tavern_ids, e.rules.tavern_names))
        return f"coin {option.value} ({taverns.get(option.at, option.at)})"
    return d.label(i)


class TerminalSeat:
    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin, self.out = stdin, stdout
        # Lines are read as bytes where the stream has them (this seat is its only reader), so
        # that a line that is not text is refused alone (a text stream stops after one).
        self.raw: BinaryIO | None = getattr(stdin, "buffer", None)
        self.encoding = getattr(stdin, "encoding", None) or "utf-8"

    def readline(self) -> str | None:
        """The next line ("" at the end of input), or None for a line that is not valid text."""
        try:
            if self.raw is not None:
                return self.raw.readline().decode(self.encoding)
            return self.stdin.readline()
        except (UnicodeDecodeError, LookupError):
            return None

    def show(self, e: Engine, p: int) -> None:
        s = e.s
        pl = s.players[p]
        w = self.out.write
        v = visible

        def names(cards: list[int]) -> str:
            return ", ".join(v(e.defs[c].name) for c in cards)

        w(f"\n=== Age {s.age}, turn {s.turn} ===\n")
        for t, tavern in enumerate(s.taverns):
            w(f"  {v(e.rules.tavern_names[t])}: {names(tavern) or '(empty)'}\n")
        w(f"You ({v(pl.name)}): gem {pl.gem}; coins in hand {sorted(s.coins[c].value for c in pl.hand)}, "
          f"on taverns {[s.coins[c].value if c is not None else '-' for c in pl.slots]}, "
          f"pouch {sorted(s.coins[c].value for c in pl.pouch)}\n")
        for cls in e.rules.classes:
            cards = ", ".join(v(s.cards[c]) for c in pl.army.get(cls, []))
            w(f"  {v(cls):<10} ({e.ranks(p, cls)} ranks): {cards}\n")
        w(f"  command zone: {names(pl.command) or '-'}\n")
        for q, other in enumerate(s.players):
            if q != p:
                ranks = " ".join(f"{v(cls[:2])}{e.ranks(q, cls)}" for cls in e.rules.classes)
                w(f"  {v(other.name)}: gem {other.gem}, {ranks}, command {len(other.command)}\n")

    def choose(self, e: Engine, d: Decision) -> Option:
        self.show(e, d.player)
        self.out.write(f"{visible(d.prompt)}\n")
        for i in range(len(d.options)):
            self.out.write(f"  {i + 1:>3}. {visible(option_label(e, d, i))}\n")
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.readline()
            if line is None:
                self.out.write(f"that line is not valid text; type a number from 1 to {len(d.options)}\n")
                continue
            if not line:
                self.out.write("\n")
                raise InputEnded("end of input: the game is abandoned")
            option, why = read_choice(line, d)
            if option is not None:
                return option
            self.out.write(why + "\n")
