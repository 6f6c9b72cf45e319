"""One finished game as a simulation's record: scores, length, and a fact per card a player acquired.

A card is *acquired* when a player takes it from a shared place (`took`: a tavern, the Camp, the
discard pile, a draw), recruits it (`recruited`: a hero), wins it (`distinction`), or when an effect
puts it among their cards without a take (`placed`: Olwyn's doubles, say). The journal says who and
when (age, and the turn within the age); a card moving within its owner's cards is no new fact.

A card's points are what its owner would lose at the end without it: the owner's Final Bravery
Value minus the same with that one card out of their army or command zone, every other card kept
(so two Hunters among five are worth 9 each, 25 − 16, and Dwerg's brothers each the step of the
brothers' table they make). A card no longer held at the end (traded, discarded, given back) has
0. A player's copies of one card share their points out in the order they were acquired.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from nidavellir.runtime.journal import (
    DistinctionWon,
    Placed,
    Recruited,
    Took,
    TurnStarted,
)
from nidavellir.runtime.scoring import command_total
from nidavellir.stats import shares

if TYPE_CHECKING:
    from nidavellir.interface.rules import ClassScore
    from nidavellir.runtime.engine import Engine
    from nidavellir.runtime.game import Game

Fact = dict[str, Any]
RECORDED = (TurnStarted, Took, Recruited, DistinctionWon, Placed)  # the journal's kinds a record reads


def record_of(game: Game, set_index: int, game_index: int, bots: list[str], label: str = "",
              name: str | None = None) -> dict[str, Any]:
    """The record of a finished game that kept its journal (sim-formats: a record), with its rule
    set's label, its name (`rules`; None: a record without, for a folder begun before records had
    it) and the content hash of the rules it was played with."""
    e = game.engine
    if game.pending is not None or e.journal is None:
        raise ValueError("a record is made of a finished game that kept its journal")
    scores = game.scores()
    totals = [p["total"] for p in scores["players"]]
    named = {} if name is None else {"rules": name}
    return {"set": set_index, "label": label, **named, "content_hash": game.rules.content_hash,
            "game": game_index, "seed": game.seed, "players": e.n,
            "seats": [pl.name for pl in e.s.players], "bots": list(bots),
            "totals": totals, "shares": shares(totals), "breakdown": [p["breakdown"] for p in scores["players"]],
            "turns": sum(1 for r in e.journal if type(r) is TurnStarted), "decisions": len(game.records()),
            "cards": card_facts(e)}


def card_facts(e: Engine) -> list[Fact]:
    """A fact per card acquired, in the order acquired, with its points at the end."""
    assert e.journal is not None
    defs = e.rules.cards
    facts: list[Fact] = []
    mine: dict[tuple[int, str], list[Fact]] = {}    # (player, card) -> its facts
    unplaced: dict[tuple[int, str], int] = {}       # taken, not yet placed
    for r in e.journal:
        how = _HOW.get(type(r))
        if how is None:
            continue
        player, card = key = r.player, r.card  # type: ignore[attr-defined]
        if how == "placed":
            if r.origin is not None:  # type: ignore[attr-defined]
                continue  # (it moved among its owner's cards)
            waiting = unplaced.get(key)
            if waiting:
                unplaced[key] = waiting - 1
                continue  # (the card taken, recruited or won, placed)
        else:
            unplaced[key] = unplaced.get(key, 0) + 1
        d = defs[card]
        fact = {"card": card, "kind": d.kind, "class": d.cls, "player": player, "age": r.age,
                "turn": r.turn, "how": how, "points": 0}
        facts.append(fact)
        owned = mine.get(key)
        if owned is None:
            mine[key] = [fact]
        else:
            owned.append(fact)
    for p in range(e.n):
        for card, points in held_points(e, p).items():
            owned = mine.get((p, card), [])
            for fact, value in zip(owned, points):
                fact["points"] = value
            for value in points[len(owned):]:  # held, never seen arriving (no journal record says how)
                d = defs[card]
                fact = {"card": card, "kind": d.kind, "class": d.cls, "player": p, "age": 0, "turn": 0,
                        "how": "placed", "points": value}
                facts.append(fact)
    return facts


_HOW: dict[type, str] = {Took: "took", Recruited: "recruited", DistinctionWon: "distinction", Placed: "placed"}


def held_points(e: Engine, p: int) -> dict[str, list[int]]:
    """What player p would lose without each card they hold (by card id, one value per copy, in the
    order the copies lie: army columns bottom to top, then the command zone). Each card steps out
    through the engine's own detach/attach (which keep its rank index) and back to its place;
    copies of one card in one column, without marks, are worth the same and scored once. (The coins
    part, which no card changes, is left out of both sides; so is a class formula the card's leaving
    cannot change, see `_rescored` and `_changed_points`, and so is the command part when the card's
    leaving cannot change it, see `_steady_reads`: then a card takes only its printed points with
    it, and one that changes no formula need not step out at all.)"""
    pl = e.s.players[p]
    class_score = e.rules.class_score
    scored = {cls: int(class_score[cls](e, p, cls)) for cls in e.rules.classes}
    command = command_total(e, p)
    defs = e.defs
    ids = e.s.cards
    army_scored = [c for cards in pl.army.values() for c in cards if defs[c].score is not None]
    counting = [c for c in pl.command if defs[c].score is not None] + [c for c in army_scored if defs[c].score_once]
    counted_ids = {defs[c].id for c in counting}
    loose = [c for c in army_scored if not defs[c].score_once]  # (their scores count in their columns' points)
    loose_ids = {defs[c].id for c in loose}
    every_class = [(cls, class_score[cls]) for cls in scored]
    every_sum = sum(scored.values())
    out: dict[str, list[int]] = defaultdict(list)
    marks = e.s.marks
    steady_reads = _steady_reads(e, counting)
    for column, place in [*pl.army.items(), (None, pl.command)]:
        if not place:
            continue
        known: dict[str, int] = {}
        rescored = _rescored(e, column, loose)
        some_class = list(zip(rescored, map(class_score.__getitem__, rescored)))
        some_sum = sum(map(scored.__getitem__, rescored))
        steady = steady_reads is not None and column not in steady_reads
        for i, card in enumerate(place):
            cid = ids[card]
            value = known.get(cid) if card not in marks else None
            if value is None:
                d = defs[card]
                if not d.mods and d.id not in loose_ids:
                    formulas, before = some_class, some_sum
                else:
                    formulas, before = every_class, every_sum
                own = d.score is not None and (column is None or d.score_once)  # its score is in the command part
                taken = (d.points if column is None else 0) if steady and not own and d.id not in counted_ids \
                    else None  # the command part it takes with it, when that is all it changes there
                if taken is not None and not formulas:
                    value = taken
                else:
                    value = before + command - _score_without(e, p, card, column, place, i, formulas,
                                                              None if taken is None else command - taken)
                if card not in marks:
                    known[cid] = value
            out[cid].append(value)
    return out


def _steady_reads(e: Engine, counting: list[int]) -> set[str | None] | None:
    """The columns the scores counted in the command part read (of the `counting` cards: the
    command zone's, the army's once-per-set; `CardDef.score_reads`), each besides its own card; None
    when one may read anything. The command part stays as it is when a card not among their copies
    leaves a column outside them (None, the command zone, is in none: no score's columns name it)."""
    defs = e.defs
    columns: set[str | None] = set()
    for c in counting:
        reads = defs[c].score_reads
        if reads is None:
            return None
        columns.update(reads)
    return columns


def _changed_points(e: Engine, loose: list[int], column: str | None) -> set[str]:
    """The columns whose points may change, besides `column`'s own, when a card not among the `loose`
    cards' copies leaves `column`: those of a loose card (one whose own score counts in its column's
    points) whose score reads that column, or anything (`CardDef.score_reads`)."""
    defs, where = e.defs, e.where
    return {where[c][1] or "" for c in loose if (reads := defs[c].score_reads) is None or column in reads}


def _rescored(e: Engine, column: str | None, loose: list[int]) -> tuple[str, ...]:
    """The classes whose formula may score otherwise once a card (without modifiers, not a copy of
    one of the `loose` cards) leaves its owner's `column` (None: the command zone): those that read
    that column (`Rules.formula_readers`), or a column whose points may change with it (`_changed_points`)."""
    readers = e.rules.formula_readers
    anything = readers[None]  # (the formulas that may read anything read a column no formula names)
    mine = readers.get(column, anything)
    changed = _changed_points(e, loose, column) if loose else None
    if not changed:
        return mine
    wanted = {*mine, *(cls for col in changed for cls in readers.get(col, anything))}
    return tuple(cls for cls in e.rules.classes if cls in wanted)


def _score_without(e: Engine, p: int, card: int, column: str | None, place: list[int], i: int,
                   formulas: list[tuple[str, ClassScore]], rest: int | None) -> int:
    """With `card` out: the scores of the classes of `formulas` and the command part (`rest`, or
    counted again if None)."""
    e.detach(card)
    try:
        again = 0
        for cls, formula in formulas:
            again += int(formula(e, p, cls))
        return again + (command_total(e, p) if rest is None else rest)
    finally:
        e.attach(p, card, column)
        place.insert(i, place.pop())  # back where it lay
