"""A terminal seat: shows the player's board, the taverns and numbered options."""
from __future__ import annotations

from typing import Any, TextIO

from nidavellir.runtime.decisions import Decision
from nidavellir.runtime.engine import Engine


class TerminalSeat:
    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin, self.out = stdin, stdout

    def show(self, e: Engine, p: int) -> None:
        s = e.s
        pl = s.players[p]
        w = self.out.write
        w(f"\n=== Age {s.age}, turn {s.turn} ===\n")
        for t, tavern in enumerate(s.taverns):
            cards = ", ".join(e.defs[c].name for c in tavern) or "(empty)"
            w(f"  {e.rules.tavern_names[t]}: {cards}\n")
        w(f"You ({pl.name}): gem {pl.gem}; coins in hand {sorted(s.coins[c].value for c in pl.hand)}, "
          f"on taverns {[s.coins[c].value if c is not None else '-' for c in pl.slots]}, "
          f"pouch {sorted(s.coins[c].value for c in pl.pouch)}\n")
        for cls in e.rules.classes:
            cards = pl.army.get(cls, [])
            w(f"  {cls:<10} ({e.ranks(p, cls)} ranks): {', '.join(s.cards[c] for c in cards)}\n")
        w(f"  command zone: {', '.join(e.defs[c].name for c in pl.command) or '-'}\n")
        for q, other in enumerate(s.players):
            if q != p:
                ranks = " ".join(f"{cls[:2]}{e.ranks(q, cls)}" for cls in e.rules.classes)
                w(f"  {other.name}: gem {other.gem}, {ranks}, command {len(other.command)}\n")

    def choose(self, e: Engine, d: Decision) -> Any:
        self.show(e, d.player)
        self.out.write(f"{d.prompt}\n")
        for i in range(len(d.options)):
            self.out.write(f"  {i + 1:>3}. {d.label(i)}\n")
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                raise SystemExit("\nend of input: game abandoned")
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(d.options):
                return d.options[int(text) - 1]
            matches = [o for i, o in enumerate(d.options) if d.label(i) == text or str(o) == text]
            if matches:
                return matches[0]
            self.out.write(f"type a number from 1 to {len(d.options)}\n")
