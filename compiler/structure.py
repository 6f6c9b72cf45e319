"""Structural sanity of the merged game, checked before any game starts: every allowed player
count has its gems, tavern cards and treasure rules; there are coins enough to bid; a turn draws
from the deck (or the age never ends); decks fit the turn structure (warnings)."""
from __future__ import annotations

from typing import Any

from nidavellir.errors import count_of
from nidavellir.interface.mechanisms import STEP_SPECS
from nidavellir.interface.numbers import key_int

MAX_COIN = 1_000_000  # as a number written in an effect (compiler/check.py MAX_NUMBER)

from .diagnostics import Diagnostics, Location
from .layers import Merged

DEFAULT_PLAYERS = (2, 5)
MAX_TURNS = 20  # more turns in an age than this is likely a deck far too large


def _loc(m: Merged, *path: str | int) -> Location:
    """The location of the longest part of `path` the merged game knows (keys as written)."""
    for end in range(len(path), 0, -1):
        origin = m.game_origin.get(tuple(path[:end]))
        if origin is not None:
            return origin.loc
    return Location(m.sources[0].path if m.sources else "<rules>", 1, 1)


def players(m: Merged) -> tuple[int, int]:
    p = m.game.get("players", {})
    return p.get("min", DEFAULT_PLAYERS[0]), p.get("max", DEFAULT_PLAYERS[1])


def per_players(table: dict[Any, Any], n: int) -> Any:
    return table.get(str(n), table.get(n))


def check_structure(m: Merged, diags: Diagnostics) -> None:
    g = m.game
    lo, hi = players(m)
    if lo > hi:
        diags.error(_loc(m, "players", "min"), f"`players.min` ({lo}) is more than `players.max` ({hi})")
        return
    allowed = range(lo, hi + 1)
    if not g.get("classes", True):
        diags.error(_loc(m, "classes"), "the rules have no class",
                    "an army needs at least one column, and a line one rank of each class")
    _per_player_tables(m, diags, allowed)  # (a list whose items are unique, `ages` among them: the schema)
    _gems(m, diags, allowed)
    _treasure(m, diags, allowed)
    taverns = g.get("taverns", [])
    if not taverns:
        diags.error(_loc(m, "taverns"), "the rules have no tavern", "a turn needs at least one tavern to bid on")
    basic = g.get("coins", {}).get("basic", [])
    need = len(taverns) + 2
    if taverns and len(basic) < need:
        diags.error(_loc(m, "coins", "basic"),
                    f"too few basic coins, {count_of(len(basic), 'basic coin')} for {count_of(len(taverns), 'tavern')}: "
                    f"a player bids one on each tavern and keeps two in the pouch for a coin trade ({need} in all)",
                    'the Nidavellir rulebook, "Bids" and "Trading Coins"')
    turn = g.get("flow", {}).get("turn", [])
    drawing = {name for name, spec in STEP_SPECS.items() if spec.draws}
    steps = ", ".join(f"`{s}`" for s in sorted(drawing))
    if not any(step.get("do") in drawing for step in turn):
        diags.error(_loc(m, "flow", "turn"), "no step of a turn draws from the age deck, so no age could ever end",
                    f"add a step that does: {steps}")
    else:
        for age in g.get("ages", []):
            if not any(step.get("do") in drawing and age in step.get("ages", [age]) for step in turn):
                diags.error(_loc(m, "flow", "turn"), f"no step of a turn draws from the deck in Age {age}, "
                                                     "so that age could never end",
                            f"let a step that draws ({steps}) run in Age {age}")
    if taverns:
        _decks(m, diags, allowed, len(taverns))
    _draws(m, diags)


def _draws(m: Merged, diags: Diagnostics) -> None:
    """A tavern is filled from one deck a turn: two of its `draws` that name the same turn of the
    same age would leave the first unread (the runtime takes the last that matches)."""
    ages = [a for a in m.game.get("ages", []) if isinstance(a, int)]
    for tavern in m.game.get("taverns", []):
        origin = m.game_origin.get(("taverns", tavern["id"], "draws"))
        taken: dict[tuple[int, int], int] = {}
        for i, draw in enumerate(tavern.get("draws", [])):
            clash = sorted({(age, turn) for age in draw.get("ages", ages) for turn in draw["turns"]
                            if (age, turn) in taken})
            where = origin.at(i).loc if origin else _loc(m, "taverns")
            if clash:
                age, turn = clash[0]
                diags.error(where, f"the tavern `{tavern['id']}` is filled twice in turn {turn} of Age {age}: by "
                                   f"this draw and by draw {taken[clash[0]] + 1} of its `draws`",
                            "a tavern is filled from one deck a turn: give each turn to one draw")
            for age in draw.get("ages", ages):
                for turn in draw["turns"]:
                    taken.setdefault((age, turn), i)


def _per_player_tables(m: Merged, diags: Diagnostics, allowed: range) -> None:
    tables = {("cards_per_tavern",): "cards per tavern", ("gems", "by_players"): "gems"}
    for path, what in tables.items():
        table: Any = m.game
        for key in path:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        for n in allowed:
            if per_players(table, n) is None:
                diags.error(_loc(m, *path), f"no {what} for {n} players (these rules allow "
                                            f"{allowed.start} to {allowed.stop - 1})",
                            f"add `{n}: …` to `game.{'.'.join(path)}`")
        for key in table:
            if key_int(key) not in allowed:
                diags.warning(_loc(m, *path, key), f"`game.{'.'.join(path)}` has an entry for {key} players, "
                                                   f"but these rules allow {allowed.start} to {allowed.stop - 1}")


def _gems(m: Merged, diags: Diagnostics, allowed: range) -> None:
    gems = m.game.get("gems", {})
    special = {s["value"] for s in gems.get("special", [])}
    first: dict[int, int] = {}
    for i, gem in enumerate(gems.get("special", [])):
        if gem["value"] in first:
            diags.error(_loc(m, "gems", "special"), f"special gem {gem['value']} is given twice (entries "
                                                    f"{first[gem['value']] + 1} and {i + 1}): each gem is one "
                                                    "of a kind", "give each special gem once")
        first.setdefault(gem["value"], i)
    by_players = gems.get("by_players", {})
    for n in allowed:
        key: str | int = str(n) if str(n) in by_players else n
        dealt = by_players.get(key)
        if dealt is None:
            continue
        where = _loc(m, "gems", "by_players", key)
        if len(dealt) != n:
            diags.error(where, f"{count_of(len(dealt), 'gem')} for {n} players: each player takes one gem")
        both = sorted(special & set(dealt))
        if both:
            diags.error(where, f"gem {both[0]} is both dealt and a special gem")


def _treasure(m: Merged, diags: Diagnostics, allowed: range) -> None:
    coins = m.game.get("coins", {})
    treasure = {key_int(v): c for v, c in coins.get("treasure", {}).items()}
    for key in coins.get("treasure", {}):  # (a coin's value is read by scores: `highest_coin`, `coins_total`)
        if key_int(key) > MAX_COIN:
            origin = m.game_origin.get(("coins", "treasure", key))
            where = origin.loaded.locate_key(origin.path) if origin else _loc(m, "coins", "treasure")
            diags.error(where, f"a coin of value {key_int(key):,} is beyond the rules' bound: a coin is worth at "
                               f"most {MAX_COIN:,}", "every number the rules compute from coins stays within "
                                                     "±1,000,000,000")
    for n_key, removed in coins.get("treasure_removed", {}).items():
        if key_int(n_key) not in allowed:
            diags.warning(_loc(m, "coins", "treasure_removed", n_key),
                          f"coins removed for {n_key} players, but these rules allow {allowed.start} "
                          f"to {allowed.stop - 1}")
        for value, count in removed.items():
            held = treasure.get(key_int(value), 0)
            if count > held:
                diags.error(_loc(m, "coins", "treasure_removed", n_key, value),
                            f"{count_of(count, 'coin')} of value {value} removed with {n_key} players, but the treasure "
                            f"holds {held}")


def _decks(m: Merged, diags: Diagnostics, allowed: range, taverns: int) -> None:
    cards_per_tavern = m.game.get("cards_per_tavern", {})
    for age in m.game.get("ages", []):
        entries = m.decks.get(age)
        if entries is None:
            continue  # reported by the compiler (no deck for that age)
        origin = m.deck_origin.get((age, None))
        where = origin.loc if origin else _loc(m, "ages")
        for n in allowed:
            per_tavern = per_players(cards_per_tavern, n)
            if per_tavern is None:
                continue
            size = sum(e["count"] for e in entries if n >= e.get("min_players", 0))
            per_turn = taverns * per_tavern
            if size == 0:
                diags.warning(where, f"the Age {age} deck holds no card with {n} players: that age has no turn")
            elif size < per_turn:
                diags.warning(where, f"the Age {age} deck holds {count_of(size, 'card')} with {n} players, too few to fill "
                                     f"the taverns once ({per_turn})")
            elif -(-size // per_turn) > MAX_TURNS:
                diags.warning(where, f"the Age {age} deck lasts {-(-size // per_turn)} turns with {n} players "
                                     f"({size} cards, {per_turn} a turn): is it meant to be that large?")
