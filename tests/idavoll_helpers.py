"""Helpers of the Idavoll scenario tests (tests/test_idavoll_*.py): engines with Idavoll alone and with
Thingvellir (gems in seat order), the mythology pile, reading zones, driving decisions with strict
scripts while checking the invariants, and driving whole turns with a fixed policy."""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from harness import give, new_engine, pull, run_log
from nidavellir.runtime.invariants import violations
from thingvellir_helpers import column, command, discard, kinds, steps, watch  # noqa: F401 (re-exported)

from nidavellir.interface.decisions import CardChoice
from nidavellir.rulesets import load_rules

IDAVOLL = load_rules(("idavoll",))
BOTH = load_rules(("thingvellir", "idavoll"))

ANIMALS = ["durathor", "garm", "hreasvelg", "nidhogg", "ratatosk"]
GODS = ["frigg", "thor", "freya", "loki", "odin"]
GIANTS = ["skymir", "surt", "gymir", "hrungnir", "thrivaldi"]
VALKYRIES = ["brynhildr", "hildr", "olrun", "sigrdrifa", "svafa"]
MYTHOLOGY = ANIMALS + GODS + GIANTS + VALKYRIES


def engine(players: int = 3, age: int = 1, gems: tuple[int, ...] | None = None, seed: int = 0,
           rules: Any = None):
    """A set-up game with Idavoll (or `rules`), P1 holding the highest gem, P2 the next, ..."""
    e = new_engine(players, seed=seed, rules=rules or IDAVOLL, age=age)
    for pl, g in zip(e.s.players, gems or sorted(e.rules.ruleset.gems[players], reverse=True)):
        pl.gem = g
    return e


def both(players: int = 3, age: int = 1, gems: tuple[int, ...] | None = None, seed: int = 0):
    """As `engine`, with Thingvellir and Idavoll."""
    return engine(players, age, gems, seed, rules=BOTH)


def ids_of(e, cards) -> list[str]:
    return [e.s.cards[c] for c in cards]


def mythology(e) -> list[str]:
    """The mythology pile (the cards set aside), bottom to top."""
    return ids_of(e, e.s.zones["mythology"])


def box(e) -> list[str]:
    return ids_of(e, e.s.box)


def deck(e, age: int | None = None) -> list[str]:
    """An age deck, bottom to top."""
    return ids_of(e, e.s.decks[e.s.age if age is None else age])


def tavern(e, t: int) -> list[str]:
    return ids_of(e, e.s.taverns[t])


def card_of(e, p: int, cid: str) -> int:
    """p's card (command zone or army) with this id."""
    return next(c for c in e.owned(p) if e.s.cards[c] == cid)


def mine(e, p: int, cid: str) -> int:
    """Give p the mythology/command card `cid` (into its place: a column for an animal, else the command
    zone) and return it."""
    card = pull(e, cid)
    e.attach(p, card, e.own_column(card))
    return card


def stack_pile(e, pile: list[int], *cids: str) -> None:
    """Put these cards on top of `pile` so that they are drawn in the given order."""
    cards = [pull(e, cid) for cid in cids]
    pile.extend(reversed(cards))


def checked(gen: Generator[Any, Any, Any], e, seen: list[list[str]] | None = None) -> Generator[Any, Any, Any]:
    """Pass `gen`'s decisions through, asserting that every invariant holds when each is asked
    (runtime.invariants.violations)."""
    def check(i: int, d: Any) -> None:
        problems = violations(e)
        if seen is not None:
            seen.append(problems)
        assert not problems, f"decision {i} ({d.kind}): {problems}"
    return watch(gen, check)


def run_checked(e, gen, *answers):
    """As harness.run_log (strict), checking the invariants at each decision."""
    return run_log(checked(gen, e), *answers)


def drive(gen: Generator[Any, Any, Any], policy: Callable[[Any], Any], allowed: set[str],
          on: Callable[[Any], None] | None = None, stop: Callable[[], bool] | None = None) -> list[Any]:
    """Answer every decision of `gen` by `policy` (a decision -> one of its options); a decision of a
    kind not in `allowed` fails. `stop()` true before a decision ends the drive there. Returns the
    decisions asked."""
    asked = []
    try:
        d = gen.send(None)
        while True:
            if stop is not None and stop():
                gen.close()
                return asked
            assert d.kind in allowed, f"unexpected decision {d.kind} for P{d.player + 1}: {d.prompt}"
            asked.append(d)
            if on is not None:
                on(d)
            d = gen.send(policy(d))
    except StopIteration:
        return asked


def first_option(d: Any) -> Any:
    """A fixed policy: powers declined, else the first option."""
    if True in d.options and False in d.options:
        return False
    return d.options[0]


def card_answer(d: Any, cid: str) -> CardChoice:
    return next(o for o in d.options if isinstance(o, CardChoice) and o.card == cid)


def one_line_but(e, p: int, *missing: str) -> None:
    """One rank in each class but `missing`."""
    cards = {"warrior": "warrior:3", "hunter": "hunter", "miner": "miner:1", "blacksmith": "blacksmith",
             "explorer": "explorer:5"}
    for cls, cid in cards.items():
        if cls not in missing:
            give(e, p, cid)
