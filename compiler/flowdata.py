"""The game's structure as data: zones and their decks, the flow's steps with their operands and
player orders, the pick sources of a tavern's resolution. Checked against what the runtime
implements (nidavellir.interface.events) and compiled to the rule set's tables."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from nidavellir.errors import suggest
from nidavellir.interface.events import BUILTIN_ZONES, ORDERS, PICK_WHO
from nidavellir.interface.mechanisms import (
    COUNT,
    DECKS,
    FACE_UP,
    FILLED,
    FLOW_PARTS,
    KIND,
    OPERANDS,
    STEP_SPECS,
    TAVERN,
    steps_of,
    steps_with,
)
from nidavellir.interface.rules import (
    DeckEntry,
    Order,
    PickSource,
    Step,
    TavernDraw,
    Zone,
)

from .box_cards import card_hint
from .diagnostics import Diagnostics, Location
from .layers import Merged, Origin
from .util import from_data

# What a rule set that says nothing of them gets: the base game's tavern resolution (003 "Taverns
# Resolution") and its one pick source, the tavern.
DEFAULT_TAVERN = [{"id": "late-bids", "do": "late-bids"}, {"id": "picks", "do": "picks"},
                  {"id": "gem-trades", "do": "gem-trades"},
                  {"id": "leftovers", "do": "clear", "zone": "tavern", "into": "discard"}]
DEFAULT_SOURCES = [{"id": "tavern", "zone": "tavern", "name": "the tavern"}]


class FlowData:
    """Checks and compiles the structure data of one merged rule set."""

    def __init__(self, m: Merged, diags: Diagnostics, err: Callable[[Origin | None, str, str | None], None]):
        self.m, self.diags, self.err = m, diags, err
        g = m.game
        flow = g.setdefault("flow", {})
        if "tavern" not in flow:
            flow["tavern"] = [dict(step) for step in DEFAULT_TAVERN]
        if "pick_sources" not in g:
            g["pick_sources"] = [dict(src) for src in DEFAULT_SOURCES]
        self.zones: dict[str, dict[str, Any]] = {z["id"]: z for z in g.get("zones", [])}
        self.kinds = set(g.get("kinds", {}))

    def at(self, *path: str) -> Origin | None:
        go = self.m.game_origin
        for end in range(len(path), 0, -1):
            origin = go.get(tuple(path[:end]))
            if origin is not None:
                return origin
        return None

    # -- checks ---------------------------------------------------------------------------------
    def check(self, params: set[str]) -> None:
        for zid in self.zones:
            if zid in BUILTIN_ZONES:
                self.err(self.at("zones", zid, "id"), f"a zone cannot be called `{zid}`: every rule set has "
                                                       f"that zone ({BUILTIN_ZONES[zid]})", None)
        flow = self.m.game.get("flow", {})
        for part in FLOW_PARTS:
            for step in flow.get(part, []):
                self.step(part, step)
        sources = self.m.game.get("pick_sources", [])
        if not sources:
            where = self.at("pick_sources")
            self.diags.warning(where.loc if where else self._nowhere(),
                               "no pick source: no bidder can ever take a card",
                               "add `{id: tavern, zone: tavern}` to `pick_sources`")
        if not any(s.get("do") == "picks" for s in flow.get("tavern", [])):
            where = self.at("flow", "tavern")
            self.diags.warning(where.loc if where else self._nowhere(),
                               "no step of a tavern's resolution lets players pick: no card is ever taken",
                               "add `{id: picks, do: picks}` to `flow.tavern`")
        for src in sources:
            self.source(src, params)
        piles = set(self.m.zone_decks)
        for tavern in self.m.game.get("taverns", []):
            for d in tavern.get("draws", []):
                where = self.at("taverns", tavern["id"], "draws")
                if d["zone"] not in piles or self.zones.get(d["zone"], {}).get("per_age"):
                    self.err(where, f"the tavern `{tavern['id']}` draws from `{d['zone']}`, which holds no deck",
                             suggest(d["zone"], piles) or "a zone's deck is given by `decks:` entries with `zone:`")
                for age in d.get("ages", []):
                    if age not in set(self.m.game.get("ages", [])):
                        self.err(where, f"there is no age {age}", None)
        for kind, spec in self.m.game.get("kinds", {}).items():
            if "discards_to" in spec:
                self.zone_ref(spec["discards_to"], self.at("kinds", kind, "discards_to"), False,
                              f"where discarded `{kind}` cards go")
        for zone, decks in self.m.zone_decks.items():
            where = self.m.zone_deck_origin.get((zone, (min(decks), None)))
            if zone not in self.zones:
                self.err(where, f"unknown zone `{zone}` for a deck", suggest(zone, self.zones) or
                         "declare it under `game.zones` with `per_age: true`")
            ages = set(self.m.game.get("ages", []))
            for age, entries in decks.items():
                if age not in ages:
                    self.err(self.m.zone_deck_origin.get((zone, (age, None))), f"there is no age {age}", None)
                for e in entries:
                    if e["card"] not in self.m.cards:
                        key = (e["card"], e.get("min_players", 0))
                        self.err(self.m.zone_deck_origin.get((zone, (age, key))),
                                 f"unknown card `{e['card']}` in the age {age} deck of `{zone}`",
                                 card_hint(e["card"], self.m.cards))

    def _nowhere(self) -> Location:
        return Location(self.m.sources[0].path if self.m.sources else "<rules>", 1, 1)

    def zone_ref(self, name: str, where: Origin | None, tavern_ok: bool, what: str) -> None:
        if self.zones.get(name, {}).get("per_age"):
            self.err(where, f"`{name}` holds a deck per age, not cards face up ({what})",
                     "name it as the `deck:` of a " + " or ".join(f"`{d}`" for d in steps_with("deck")) + " step")
            return
        known = {z for z, spec in self.zones.items() if not spec.get("per_age")} | {"discard", "box"} | (
            {"tavern"} if tavern_ok else set())
        if name not in known:
            hint = suggest(name, known) or ("`tavern` names the tavern being resolved only in `flow.tavern` "
                                            "and pick sources" if name == "tavern" else
                                            "zones: " + ", ".join(sorted(known)))
            self.err(where, f"unknown zone `{name}` ({what})", hint)

    def step(self, part: str, step: dict[str, Any]) -> None:
        sid = step["id"]

        def at(key: str) -> Origin | None:
            return self.at("flow", part, sid, key)

        do = step.get("do")
        if do is None and "window" not in step:
            self.err(at("id"), f"flow step `{sid}` has neither `do` nor `window`",
                     "a new step names the runtime step it runs (`do:`) or the window it opens (`window:`); "
                     "to change a step of an earlier layer, give its id")
            return
        if do is not None and "window" in step:
            self.err(at("window"), f"flow step `{sid}` has both `do: {do}` and a `window`",
                     "a step runs a runtime step or opens a window, not both (an earlier layer may have given the other)")
            return
        table = steps_of(part)
        if do is not None and do not in table:
            other = "a turn or age-end step" if part == TAVERN else "a step of `flow.tavern`"
            hint = f"`{do}` is {other}" if do in STEP_SPECS else suggest(do, table)
            self.err(at("do"), f"unknown flow step `{do}`", hint or "steps: " + ", ".join(table))
            return
        spec = STEP_SPECS.get(do or "")
        allowed = dict(spec.operands) if spec else {}
        for key in OPERANDS:
            if key in step and key not in allowed:
                what = f"a `{do}` step" if do else "a window"
                self.err(at(key), f"`{key}` means nothing on {what}",
                         f"`{key}` is an operand of: " + ", ".join(f"`{d}`" for d in steps_with(key)))
        for key in allowed:
            if key not in step:
                self.err(at("id"), f"the `{do}` step `{sid}` needs `{key}`", spec.text if spec else None)
        if "order" in step:
            if part == TAVERN and do is not None:
                self.err(at("order"), "a tavern's steps follow the bid order", "`order` applies to its windows")
            elif spec is not None and not spec.ordered:
                ordered = " and ".join(n for n, s in STEP_SPECS.items() if s.ordered)
                self.err(at("order"), f"a `{do}` step has no player order", f"`order` applies to windows and {ordered}")
            order = step["order"]
            if isinstance(order, dict) and order["most"] not in self.kinds:
                self.err(at("order"), f"unknown kind `{order['most']}`", suggest(order["most"], self.kinds))
        for key in OPERANDS:
            if key in step:
                self.operand(spec.operand(key) if spec else OPERANDS[key], step[key], at(key), part,
                             f"the `{do}` step `{sid}`")

    def operand(self, names: str, value: Any, where: Origin | None, part: str, what: str) -> None:
        """Whether a step's operand names what it should (`names`: a value kind of the step specs)."""
        if names in (FACE_UP, FILLED):
            self.zone_ref(value, where, part == TAVERN, what)
            if names == FILLED and self.zones.get(value, {}).get("per_age"):
                self.err(where, f"`{value}` holds decks: refill a face-up zone from it", None)
        elif names == DECKS:
            if value not in self.zones:
                self.err(where, f"unknown zone `{value}`", suggest(value, self.zones))
            elif not self.zones[value].get("per_age"):
                self.err(where, f"zone `{value}` holds no decks", "declare it with `per_age: true`")
        elif names == KIND and value not in self.kinds:
            self.err(where, f"unknown kind `{value}`", suggest(value, self.kinds))
        else:
            assert names in (KIND, COUNT)  # (a count's type is the schema's)

    def source(self, src: dict[str, Any], params: set[str]) -> None:
        def at(key: str) -> Origin | None:
            return self.at("pick_sources", src["id"], key)

        if "zone" not in src:
            self.err(at("id"), f"pick source `{src['id']}` names no `zone`", "the tavern being resolved is `tavern`")
        else:
            self.zone_ref(src["zone"], at("zone"), True, f"pick source `{src['id']}`")
        if src.get("also") is not None and src["also"] not in params:
            self.err(at("also"), f"unknown param `{src['also']}`", suggest(src["also"], params))
        if src.get("discard") and src.get("who", "any") != "top-bidder":
            self.err(at("discard"), "only a source of the top bidder discards tavern cards", "set `who: top-bidder`")
        assert src.get("who", "any") in PICK_WHO  # (the schema's enum)

    # -- tables ----------------------------------------------------------------------------------
    def steps(self, part: str) -> tuple[Step, ...]:
        out = []
        for s in self.m.game.get("flow", {}).get(part, []):
            origin = self.at("flow", part, s["id"], "id")
            given: dict[str, Any] = {"source": str(origin.loc) if origin else ""}
            order = s.get("order")
            if order == "bid":
                given["order"] = Order(by="bid")
            elif isinstance(order, dict):
                given["order"] = from_data(Order, order, ("leader_chooses",), by="most", kind=order["most"])
            out.append(from_data(Step, s, ("id", "do", "window", "ages", *OPERANDS), **given))
        return tuple(out)

    def tavern_draws(self, tavern: dict[str, Any]) -> tuple[TavernDraw, ...]:
        return tuple(from_data(TavernDraw, d, ("zone", "turns", "ages")) for d in tavern.get("draws", []))

    def zone_tables(self) -> tuple[Zone, ...]:
        return tuple(from_data(Zone, z, ("id", "per_age", "explored"), name=z.get("name", z["id"]))
                     for z in self.zones.values())

    def zone_decks(self) -> dict[str, dict[int, tuple[DeckEntry, ...]]]:
        return {zone: {age: tuple(from_data(DeckEntry, e, ("card", "count", "min_players")) for e in entries)
                       for age, entries in sorted(decks.items())}
                for zone, decks in sorted(self.m.zone_decks.items())}

    def sources(self) -> tuple[PickSource, ...]:
        return tuple(from_data(PickSource, s, ("id", "zone", "who", "also", "discard", "discard_players"),
                               name=s.get("name", s["id"]))
                     for s in self.m.game.get("pick_sources", []))


__all__ = ["FlowData", "FLOW_PARTS", "ORDERS"]
