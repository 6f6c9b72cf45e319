"""Positions (DESIGN §8): what each player holds; read into an engine, written from one."""
from __future__ import annotations

from typing import Any

from nidavellir.errors import NidavellirError
from nidavellir.interface.engine import Event
from nidavellir.interface.rules import SpecialCoin

from .engine import Engine
from .position_check import JsonPath, Problem, box_counts, captured_ids, card_ref, check_position
from .rules import Rules
from .scoring import Scores, final_scores
from .state import BASIC, SPECIAL, TREASURE, Coin, Player

__all__ = ["PositionError", "engine_from_position", "position_of", "run_without_choices", "score_position",
           "box_counts", "check_position", "Problem"]


class PositionError(NidavellirError):
    """A position that breaks the rules data; `path` is the JSON path of the (first) offending
    value, `problems` every problem found (runtime/position_check.py)."""

    def __init__(self, message: str, path: JsonPath, hint: str | None = None,
                 problems: tuple[Problem, ...] = ()):
        super().__init__(message)
        self.message, self.path, self.hint = message, path, hint
        self.problems = problems or (Problem(message, path, hint),)


def engine_from_position(rules: Rules, data: dict[str, Any]) -> Engine:
    """An engine holding exactly the position's cards, coins, gems and card states (no decks or
    taverns), in the last age (where the game ends, and so where `age` is read when it is scored). `data` has the shape rules/schemas/position.schema.json gives (the caller validates
    it); a position that breaks the rules data (check_position) raises PositionError listing every
    problem."""
    problems = check_position(rules, data)
    if problems:
        first = problems[0]
        raise PositionError(first.message, first.path, first.hint, tuple(problems))
    players = data["players"]
    e = Engine(rules, [pl.get("name", f"P{i + 1}") for i, pl in enumerate(players)], seed=0)
    basic = {c.value: c.trading for c in rules.ruleset.basic_coins}
    special = {c.value: c for c in rules.special_coins.values()}
    given: set[str] = set()
    for i, pdata in enumerate(players):
        pl = Player(name=e.names[i], gem=pdata.get("gem", 0), slots=[None] * len(rules.tavern_ids))
        e.s.players.append(pl)
        for value in pdata.get("coins", []):
            coin = _coin(value, [e.s.coins[c] for c in pl.hand], basic, special, given)
            pl.hand.append(e.new_coin(coin))
        for cls, cards in (pdata.get("army") or {}).items():
            for item in cards:
                e.attach(i, _card(e, item), cls)
        for item in pdata.get("command_zone") or []:
            e.attach(i, _card(e, item), None)
    e.reindex()
    e.s.finished = data.get("ended") is True
    e.s.age = rules.ruleset.ages[-1]  # (a position is scored as the game ends: in its last age)
    return e


def score_position(rules: Rules, data: dict[str, Any]) -> Scores:
    """The Final Bravery Value of a position as if the game ended now (DESIGN §8): the windows the
    rules take before scoring (`before_scoring`, in the flow's order) are applied without choices —
    except on the final position of a game that ended (`ended: true`), which has taken them."""
    e = engine_from_position(rules, data)
    if not e.s.finished:
        for window in rules.ruleset.before_scoring:
            run_without_choices(e, window)
    return final_scores(e)


def _coin(value: int, held: list[Coin], basic: dict[int, bool], special: dict[int, SpecialCoin],
          given: set[str]) -> Coin:
    """A player's first coin of a basic value is of their basic set; another is the special coin of
    that value while one is left, else a treasure coin (which it is does not change the score)."""
    if value in basic and not any(c.origin == BASIC and c.value == value for c in held):
        return Coin(value, BASIC, basic[value])
    sc = special.get(value)
    if sc is not None and sc.id not in given:
        given.add(sc.id)
        return Coin(value, SPECIAL, sc.trading, sc.id)
    return Coin(value, TREASURE)


def _card(e: Engine, item: Any) -> int:
    """A card instance for a position's card entry, with its state (DESIGN §8) as marks."""
    ref = card_ref(item)
    assert ref is not None, "checked by check_position"
    cid, state = ref
    card = e.new_card(cid)
    for key in ("notch", "tokens", "class"):
        if key in state:
            e.set_mark(card, key, state[key])
    if state.get("used") or state.get("face_down"):
        e.set_mark(card, "used", True)
    if state.get("face_down"):
        e.set_mark(card, "face_down", True)
    captured = captured_ids(state.get("captured"))
    if captured:
        e.set_mark(card, "captured", [e.new_card(c) for c, _ in captured])
        e.set_mark(card, "used", True)
    return card


def run_without_choices(e: Engine, window: str) -> None:
    """Apply a window's effects that need no decision; an effect that asks is skipped, except that a
    class chosen when the points are counted is the class that scores the player most (DESIGN §8,
    a class a card chooses at the final count)."""
    for p in e.player_order():
        for card in list(e.owned(p)):
            for handler in e.defs[card].when.get(window, ()):
                gen = handler(e, p, card, Event(window))
                try:
                    decision = next(gen)
                except StopIteration:
                    continue
                gen.close()
                if decision.kind == "class" and decision.player == p:
                    _best_class(e, p, card, window, [str(o) for o in decision.options])


def _best_class(e: Engine, p: int, card: int, window: str, classes: list[str]) -> None:
    """Run the handler answering each class in turn on the same state; keep the best for p's total."""
    from .scoring import player_score

    start = e.snapshot()
    best: tuple[int, str] | None = None
    for cls in classes:
        e.restore(start)
        _answer_all(e, p, card, window, cls)
        total = player_score(e, p)["total"]
        if best is None or total > best[0]:
            best = (total, cls)
    e.restore(start)
    if best is not None:
        _answer_all(e, p, card, window, best[1])


def _answer_all(e: Engine, p: int, card: int, window: str, cls: str) -> None:
    """Run the card's handlers of `window`, answering its class decisions with `cls` (any other
    decision ends it)."""
    for handler in e.defs[card].when.get(window, ()):
        gen = handler(e, p, card, Event(window))
        try:
            decision = next(gen)
            while decision.kind == "class" and cls in decision.options:
                decision = gen.send(cls)
            gen.close()
        except StopIteration:
            pass


def position_of(e: Engine) -> dict[str, Any]:
    """The position format of an engine's players (DESIGN §8): a card carrying state (a track
    notch, tokens, a chosen class, a spent power, captured cards) is written as an object."""
    s = e.s
    out = []
    for pl in s.players:
        player: dict[str, Any] = {"name": pl.name}
        if pl.gem:
            player["gem"] = pl.gem
        player["coins"] = sorted(s.coins[c].value for c in pl.coin_ids())
        player["army"] = {cls: [_entry(e, c) for c in pl.army[cls]] for cls in e.rules.classes if pl.army.get(cls)}
        player["command_zone"] = [_entry(e, c) for c in pl.command]
        out.append(player)
    expansions = [layer.id for layer in e.rules.ruleset.layers[1:] if not layer.variant]
    if s.finished:  # the end's steps were taken: `score` applies none again (score_position)
        return {"expansions": expansions, "ended": True, "players": out}
    return {"expansions": expansions, "players": out}


def _entry(e: Engine, card: int) -> str | dict[str, Any]:
    cid = e.s.cards[card]
    marks = e.s.marks.get(card)
    if not marks:
        return cid
    state: dict[str, Any] = {}
    for key in ("notch", "tokens"):
        if marks.get(key):
            state[key] = int(marks[key])
    if marks.get("class") is not None:
        state["class"] = str(marks["class"])
    if marks.get("face_down"):
        state["face_down"] = True
    elif marks.get("used") and not marks.get("captured"):  # (a capture spends the power: implied)
        state["used"] = True
    captured = [e.s.cards[c] for c in marks.get("captured") or ()]
    if captured:
        state["captured"] = captured[0] if len(captured) == 1 else captured
    return {"card": cid, **state} if state else cid
