"""Helpers of the Thingvellir scenario tests (tests/test_thingvellir_*.py): a Thingvellir engine with
gems in seat order, the face-up Camp, reading columns and zones, driving the tavern and age-end steps."""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from harness import THINGVELLIR, give, new_engine, pull, run_log
from nidavellir.runtime.flow import run_steps
from nidavellir.runtime.scoring import player_score

AGE_1_CAMP = ["fafnir-baleygr", "draupnir", "vegvisir", "svalinn", "megingjord", "vidofnir-vedrfolnir",
              "mercenary:warrior6-explorer8", "mercenary:warrior6-blacksmith", "mercenary:hunter-explorer8",
              "mercenary:hunter-miner1", "mercenary:blacksmith-miner1", "mercenary:warrior9-explorer11"]
AGE_2_CAMP = ["brisingamens", "mjollnir", "hofud", "hrafnsmerki", "jarnglofi", "gjallarhorn",
              "mercenary:hunter-blacksmith", "mercenary:warrior6-miner1", "mercenary:blacksmith-explorer8",
              "mercenary:warrior6-hunter", "mercenary:explorer8-miner1", "mercenary:warrior9-explorer11"]
NEW_HEROES = ["andumia", "holda", "khrad", "jarika", "olwyn", "zolkur"]




def engine(players: int = 3, age: int = 1, gems: tuple[int, ...] | None = None, seed: int = 0):
    e = new_engine(players, seed=seed, rules=THINGVELLIR, age=age)
    for pl, g in zip(e.s.players, gems or sorted(e.rules.ruleset.gems[players], reverse=True)):
        pl.gem = g
    return e


def camp(e, *cids: str) -> list[int]:
    """Lay the face-up Camp: these cards, pulled from wherever they wait (the Camp decks)."""
    s = e.s
    for c in s.zones["camp"]:
        s.zones[f"camp-deck@{s.age}"].append(c)
    s.zones["camp"] = [pull(e, cid) for cid in cids]
    return list(s.zones["camp"])


def camp_ids(e) -> list[str]:
    return [e.s.cards[c] for c in e.s.zones["camp"]]


def zone_ids(e, zone) -> list[str]:
    return [e.s.cards[c] for c in e.s.zones[zone]]


def stack(pile: list[int], e, *cids: str) -> None:
    """Put these cards on top of `pile` so that they are drawn in the given order."""
    cards = [pull(e, cid) for cid in cids]
    pile.extend(reversed(cards))


def column(e, p, cls):
    return [e.s.cards[c] for c in e.s.players[p].army.get(cls, [])]


def command(e, p):
    return [e.s.cards[c] for c in e.s.players[p].command]


def discard(e):
    return [e.s.cards[c] for c in e.s.discard]


def take(e, p, cid, *answers):
    return run_log(e.take_card(p, pull(e, cid)), *answers)


def kinds(log):
    return [(d.player, d.kind) for d in log]


def breakdown(e, p):
    return player_score(e, p)["breakdown"]


def steps(e, *names, part: str = "turn"):
    """The flow's steps of `part` with these ids, in the flow's order."""
    return [s for s in getattr(e.rules.ruleset, part) if s.id in names]


def resolve_tavern(e, t: int, *answers, check=None):
    """Resolve tavern t alone by the flow's tavern steps (bids as they lie on the boards)."""
    e.s.tavern, e.s.revealed = t, None
    gen = run_steps(e, e.rules.ruleset.tavern)
    return run_log(gen if check is None else watch(gen, check), *answers)


def age_end(e, age: int, *answers, check=None):
    """The flow's end-of-age steps of `age` (002 "End of Each Age")."""
    e.s.age = age
    gen = run_steps(e, e.rules.ruleset.age_end)
    return run_log(gen if check is None else watch(gen, check), *answers)


def enlist(e, *answers):
    """The enlistment step alone."""
    return run_log(run_steps(e, steps(e, "enlistment", part="age_end")), *answers)


def one_line_but(e, p, missing, *, twice: bool = False):
    cards = {"warrior": "warrior:3", "hunter": "hunter", "miner": "miner:1", "blacksmith": "blacksmith",
             "explorer": "explorer:5"}
    seconds = {"warrior": "warrior:4", "hunter": "hunter", "miner": "miner:2", "blacksmith": "blacksmith",
               "explorer": "explorer:6"}
    for cls, cid in cards.items():
        if cls != missing:
            give(e, p, cid)
            if twice:
                give(e, p, seconds[cls])


def watch(gen: Generator[Any, Any, Any], check: Callable[[int, Any], None]) -> Generator[Any, Any, Any]:
    """Pass `gen`'s decisions through, calling check(index, decision) when each is asked."""
    i = 0
    try:
        decision = gen.send(None)
        while True:
            check(i, decision)
            i += 1
            answer = yield decision
            decision = gen.send(answer)
    except StopIteration as stop:
        return stop.value


def enlistment_step(e):
    return next(s for s in e.rules.ruleset.age_end if s.id == "enlistment")
