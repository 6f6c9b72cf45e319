"""The ordered lists of a game's structure checked for what the runtime assumes of them.

The runtime (runtime/flow.py) plays `game.ages` in the order listed; in each age it repeats the
steps of `flow.turn` that run in that age until the age's deck is out, resolves each tavern by
the steps of `flow.tavern`, then runs the steps of `flow.age_end`. What it assumes of those
lists, and what is done about each (E: refused, located error; W: warning, legal but likely
wrong; R: the runtime does not need it):

ages
  - each age once (E, structure.py); played in the order listed (W when not ascending: Age 2 is
    then played before Age 1); every age has a deck (E, compile.py); every age a step, a tavern
    draw, a deck or an effect names is an age of the game (E, compile.py, flowdata.py, check.py).
  - a step's `ages:` is not empty (E: the step would never run), each age once (E, the schema).
  - a step goes `before:` one step or `after:` one, not both, and `remove: true` takes no other key
    (E, the schema and layers.py: the other would be ignored).
parts
  - `enter-dwarves`, `bids` and `resolve-taverns` are steps of a turn, `final-scoring` of an age's
    end (E; interface/mechanisms.py, a step spec's `home`).
  - `order: bid` is the bid order of the tavern being resolved: only in `flow.tavern` (E, the schema).
flow.turn
  - a step draws from the age deck in every age (E, structure.py), else the age never ends.
  - `bids` finds every player's coins in hand: between two `bids` — in one turn, from one turn to
    the next and from an age to the next — a `resolve-taverns` returns them (E: the second `bids`
    would find no coin to bid).
  - `resolve-taverns` resolves the bids of its turn on the cards that entered in it (W when no bid
    is placed in the age's turns, when it runs before that turn's `bids`, when no card has entered
    the taverns before it, and when no step resolves the taverns).
taverns' draws
  - a tavern is filled from one deck a turn: two of its `draws` never name the same turn of an age
    (E, structure.py: the runtime would read only the last); each lists an age or a turn once (E, the
    schema).
flow.tavern
  - a `picks` step (W, flowdata.py); `late-bids` before the first `picks` (W: a player who bids
    from hand places the coin after the picks, and takes nothing there), and some `late-bids` when
    a card or the game sets `bid_from_hand` (W: that player never bids); the tavern is not cleared
    before its first `picks` (W: nothing is left to pick).
flow.age_end
  - `final-scoring` runs once, at the end of the last age (E when it runs in another age or twice),
    and nothing that may change what a player holds runs after it there (E: it would not be counted;
    steps that only move cards between shared zones may, a step spec's `shared`). Without one the game is
    scored at the end of the flow (R, runtime/flow.py).
  - `before_scoring` names windows of the flow (E, compile.py) that open at the end of the last age
    before the final scoring (E: `score` would apply a step that the game does not take before
    scoring), each once (E, the schema: every list of the structure whose items are unique says so). `score` applies them in the order the flow opens them (R: compiled in
    that order), and not at all on the final position of a game that ended (R: `ended: true`).
windows
  - a window opened by two steps makes its cards act at each (W).
"""
from __future__ import annotations

from typing import Any

from nidavellir.interface.mechanisms import step_spec

from .diagnostics import Diagnostics, Location
from .layers import Merged
from .structure import _loc

Step = dict[str, Any]
PART_NAMES = {"turn": "a turn (`flow.turn`)", "age_end": "an age's end (`flow.age_end`)",
              "tavern": "a tavern's resolution (`flow.tavern`)"}


def runs_in(step: Step, age: int) -> bool:
    ages = step.get("ages")
    return ages is None or age in ages


def _draws(do: object) -> bool:
    spec = step_spec(do)
    return spec is not None and spec.draws


def _name(step: Step) -> str:
    return f"`{step['id']}`"


class FlowOrder:
    """Checks the order of one merged game's flow (see the module's list of assumptions)."""

    def __init__(self, m: Merged, diags: Diagnostics, modified_params: set[str]):
        self.m, self.diags = m, diags
        self.modified = modified_params
        flow = m.game.get("flow", {})
        self.parts: dict[str, list[Step]] = {part: [s for s in flow.get(part, []) if isinstance(s, dict)]
                                             for part in ("turn", "tavern", "age_end")}
        self.ages: list[int] = [a for a in m.game.get("ages", []) if isinstance(a, int)]
        self.said: set[tuple[str, str]] = set()  # (what, step id): a step's warning once, not per age

    def once(self, what: str, step: Step | None) -> bool:
        key = (what, step["id"] if step else "")
        if key in self.said:
            return False
        self.said.add(key)
        return True

    def ages_shown(self) -> str:
        return f"ages: {self.ages}, at {_loc(self.m, 'ages')}"

    def at(self, part: str, step: Step, key: str) -> Location:
        return _loc(self.m, "flow", part, step["id"], key)

    def check(self) -> None:
        self.age_order()
        self.placement()
        for age in dict.fromkeys(self.ages):
            self.turn(age)
            self.tavern(age)
        self.bid_cycle()
        self.final_scoring()
        self.before_scoring()
        self.windows()

    # -- ages and parts --------------------------------------------------------------------------
    def age_order(self) -> None:
        if self.ages != sorted(self.ages) and len(set(self.ages)) == len(self.ages):
            later = next(a for i, a in enumerate(self.ages) if any(b < a for b in self.ages[i + 1:]))
            first = min(self.ages[self.ages.index(later):])
            self.diags.warning(_loc(self.m, "ages"), f"the ages are played in the order listed: Age {later} "
                                                     f"before Age {first}",
                               "list the ages in ascending order, unless the game is meant to play them so")

    def placement(self) -> None:
        for part, steps in self.parts.items():
            for step in steps:
                if step.get("ages") == []:
                    self.diags.error(self.at(part, step, "ages"), f"the step {_name(step)} runs in no age "
                                                                  "(`ages: []`)", "list the ages it runs in, "
                                     "or leave `ages` out for every age, or remove the step (`remove: true`)")
                do = step.get("do")
                home = spec.home if (spec := step_spec(do)) is not None else None
                if home is not None and part != home:
                    self.diags.error(self.at(part, step, "do"), f"`{do}` is a step of {PART_NAMES[home]}, "
                                                                f"not of {PART_NAMES[part]}",
                                     f"move it to `flow.{home}`")

    # -- a turn ----------------------------------------------------------------------------------
    def turn(self, age: int) -> None:
        steps = [s for s in self.parts["turn"] if runs_in(s, age)]
        does = [s.get("do") for s in steps]
        if "resolve-taverns" not in does:
            if "bids" not in does and self.once("no-resolve", None):  # (bids alone: the bid cycle's error)
                self.diags.warning(_loc(self.m, "flow", "turn"),
                                   f"no step of a turn resolves the taverns in Age {age}: no card is ever taken",
                                   "add `{id: taverns, do: resolve-taverns}` after the bids")
            return
        first = does.index("resolve-taverns")
        resolve = steps[first]
        where = self.at("turn", resolve, "do")
        if "bids" not in does:
            if self.once("no-bids", resolve):
                self.diags.warning(where, f"no step of a turn places bids in Age {age}: the taverns are resolved "
                                          "with no bid, and no card is taken",
                                   "add `{id: bids, do: bids}` before the resolution")
        elif first < does.index("bids") and self.once("resolve-first", resolve):
            bids = steps[does.index("bids")]
            self.diags.warning(self.later("turn", "do", resolve, bids),
                               "the taverns are resolved before the turn's bids: with the bids of the turn before "
                               "(none in the first turn)", "place `bids` before `resolve-taverns`")
        dealt = any(_draws(d) for d in does[:first])
        if not dealt and any(_draws(d) for d in does) and self.once("undealt", resolve):
            deal = next(st for st in steps if _draws(st.get("do")))
            self.diags.warning(self.later("turn", "do", resolve, deal),
                               "the taverns are resolved before any card enters them in the turn: the cards wait "
                               "for the next turn, and the last turn's are never taken",
                               "place the step that deals the taverns before `resolve-taverns`")

    def bid_cycle(self) -> None:
        """Every `bids` finds the coins in hand: an abstract run of the turns, age after age, keeping
        which `bids` step left the coins on the taverns (None: they are in hand)."""
        reported: set[tuple[str, str]] = set()
        entry: set[str | None] = {None}  # at the start of the game every coin is in hand
        by_id = {s["id"]: s for s in self.parts["turn"]}
        for age in self.ages:
            steps = [s for s in self.parts["turn"] if runs_in(s, age)]
            seen, frontier = set(entry), set(entry)
            while frontier:
                after: set[str | None] = set()
                for placed in frontier:
                    for step in steps:
                        if step.get("do") == "bids":
                            if placed is not None and (placed, step["id"]) not in reported:
                                reported.add((placed, step["id"]))
                                self.bids_again(age, by_id[placed], step)
                            placed = step["id"]
                        elif step.get("do") == "resolve-taverns":
                            placed = None
                    after.add(placed)
                frontier = after - seen
                seen |= after
            entry = seen

    def bids_again(self, age: int, placed: Step, step: Step) -> None:
        """`step` bids while the coins `placed` put on the taverns are still there: located at the
        one of the two a later layer wrote (the likely change), naming the other."""
        first, second = self.at("turn", placed, "do"), self.at("turn", step, "do")
        where = self.later("turn", "do", step, placed)
        if placed is step:
            what = f"{_name(step)} runs again while the coins it placed are still on the taverns"
        else:
            what = (f"{_name(step)} (at {second}) runs while the coins {_name(placed)} (at {first}) placed are "
                    "still on the taverns")
        self.diags.error(where, f"{what} (Age {age}): no `resolve-taverns` returns them to the hands in between, "
                                "so no player has a coin to bid",
                         "resolve the taverns between two bids: a turn runs `bids`, then `resolve-taverns`")

    def rank(self, step: Step, part: str = "turn") -> int:
        """The index of the source that put the step where it is (later layers are later)."""
        origin = None
        for key in ("before", "after", "do", "window", "id"):
            origin = origin or self.m.game_origin.get(("flow", part, step["id"], key))
        return next((i for i, f in enumerate(self.m.sources) if origin is not None and f is origin.loaded), -1)

    def later(self, part: str, key: str, *steps: Step) -> Location:
        """Where the one of `steps` that a later layer placed is written (the likely change)."""
        step = max(steps, key=lambda s: self.rank(s, part))
        where = next((k for k in ("before", "after") if ("flow", part, step["id"], k) in self.m.game_origin), key)
        return self.at(part, step, where)

    # -- a tavern's resolution -------------------------------------------------------------------
    def tavern(self, age: int) -> None:
        steps = [s for s in self.parts["tavern"] if runs_in(s, age)]
        does = [s.get("do") for s in steps]
        if "picks" not in does:
            return  # (flowdata warns)
        first = does.index("picks")
        late = [s for s in steps if s.get("do") == "late-bids"]
        from_hand = "bid_from_hand" in self.modified or self.m.game.get("params", {}).get("bid_from_hand")
        if late and does.index("late-bids") > first and self.once("late", late[0]):
            self.diags.warning(self.later("tavern", "do", late[0], steps[first]),
                               "`late-bids` comes after `picks`: a player who bids from hand places the coin "
                               "once the cards are taken, and takes none", "place `late-bids` before `picks`")
        elif not late and from_hand and self.once("no-late", None):
            self.diags.warning(_loc(self.m, "flow", "tavern"),
                               "no `late-bids` step, but a player may bid from hand (`bid_from_hand`): that "
                               "player never places a coin", "add `{id: late-bids, do: late-bids, before: picks}`")
        for step in steps[:first]:
            if step.get("do") == "clear" and step.get("zone") == "tavern" and self.once("cleared", step):
                self.diags.warning(self.at("tavern", step, "zone"),
                                   f"{_name(step)} clears the tavern before its cards are picked: nothing is left "
                                   "to take", "clear the tavern after `picks`")

    # -- the end of the game ---------------------------------------------------------------------
    def last_end(self) -> list[Step]:
        """The steps of the last age's end, in order."""
        if not self.ages:
            return []
        return [s for s in self.parts["age_end"] if runs_in(s, self.ages[-1])]

    def final_scoring(self) -> None:
        if not self.ages:
            return
        last = self.ages[-1]
        for step in self.parts["age_end"]:
            if step.get("do") != "final-scoring":
                continue
            ages = step.get("ages")
            early = [a for a in self.ages[:-1] if ages is None or a in ages]
            if early:
                where = self.at("age_end", step, "ages" if ages is not None else "id")
                runs = "at the end of every age" if ages is None else f"at the end of Age {early[0]}"
                self.diags.error(where, f"{_name(step)} scores the game {runs}, before Age "
                                        f"{self.ages[self.ages.index(early[0]) + 1]} is played: the game ends "
                                        f"with the last age ({self.ages_shown()})",
                                 f"give it `ages: [{last}]`: the game is scored once, at the end of the last age")
        steps = self.last_end()
        scoring = [i for i, s in enumerate(steps) if s.get("do") == "final-scoring"]
        if not scoring:
            return
        first = steps[scoring[0]]
        for step in steps[scoring[0] + 1:]:
            if step.get("do") == "final-scoring":
                self.diags.error(self.at("age_end", step, "do"), f"the game is scored twice at the end of Age "
                                                                 f"{last} (first by {_name(first)}, at "
                                                                 f"{self.at('age_end', first, 'do')})",
                                 "keep one `final-scoring` step")
            elif (spec := step_spec(step.get("do"))) is None or not spec.shared:
                self.diags.error(self.at("age_end", step, "id"), f"{_name(step)} runs after the final scoring "
                                                                 f"({_name(first)}) at the end of Age {last}: "
                                                                 "what it does would not be counted",
                                 f"place it before the scoring: `before: {first['id']}`")

    def scoring_windows(self) -> list[str]:
        """The windows that open at the end of the last age before the final scoring, in order."""
        out: list[str] = []
        for step in self.last_end():
            if step.get("do") == "final-scoring":
                break
            window = step.get("window")
            if isinstance(window, str) and window not in out:
                out.append(window)
        return out

    def before_scoring(self) -> None:
        names = self.m.game.get("flow", {}).get("before_scoring", [])
        origin = self.m.game_origin.get(("flow", "before_scoring"))
        opened = {s.get("window") for part in self.parts.values() for s in part}
        final = self.scoring_windows()
        for i, name in enumerate(names):
            where = origin.at(i).loc if origin else _loc(self.m, "flow", "before_scoring")
            if name in opened and name not in final:  # (a name that is no window: compile.py's error)
                last = self.ages[-1] if self.ages else "?"
                listed = ", ".join(f"`{w}`" for w in final) or "none"
                self.diags.error(where, f"`before_scoring` names `{name}`, which does not open at the end of the "
                                        f"last age (Age {last}) before the final scoring: `score` would apply "
                                        f"a step the game does not take before it is scored ({self.ages_shown()})",
                                 f"name windows that do (here: {listed}), or move `{name}` there")

    def windows(self) -> None:
        first: dict[str, tuple[str, Step]] = {}
        for part, steps in self.parts.items():
            for step in steps:
                window = step.get("window")
                if not isinstance(window, str):
                    continue
                if window in first:
                    fpart, fstep = first[window]
                    self.diags.warning(self.at(part, step, "window"),
                                       f"the window `{window}` opens at two steps ({_name(fstep)}, at "
                                       f"{self.at(fpart, fstep, 'window')}, and {_name(step)}): the cards that "
                                       "wait for it act at each", "give one of them another name")
                else:
                    first[window] = (part, step)


def check_flow_order(m: Merged, diags: Diagnostics, modified_params: set[str]) -> None:
    FlowOrder(m, diags, modified_params).check()


def scoring_windows(m: Merged) -> tuple[str, ...]:
    """The `before_scoring` windows in the order the flow opens them (each once)."""
    named = set(m.game.get("flow", {}).get("before_scoring", []))
    return tuple(w for w in FlowOrder(m, Diagnostics(), set()).scoring_windows() if w in named)
