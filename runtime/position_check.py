"""Checking a position (DESIGN §8) against the rules data: every problem of it, each with the JSON
path of the value (or of the mapping key) it is about, for the caller to locate in its file.

What is judged is what the rules data holds: the cards and their copies (for the position's
player count), the boxes listed in `expansions`, the army columns, where each card stands and the
state it carries (runtime/placement.py derives both from the rules: a card stands only where the
rules can put it, and carries only the state its rules give it), the gems, the coins of the
supply, the player count and the names. What is not judged is whether play could have reached the
position (DESIGN §8: "it scores what it is given"): which cards were dealt, heroes against lines,
notches against what moved them. Values of the wrong type are skipped: the position schema reports
those.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard, Union

from nidavellir.errors import shown_char, suggest, unprintable
from nidavellir.interface.rules import CardDef

from .placement import Standing, can_capture, captures_at_most, standings
from .rules import Rules
from .setup import setup_plan

JsonPath = tuple[Union[str, int], ...]
BoxOf = Callable[[str], Union[str, None]]   # card id -> the box (layer) that has it, or None


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a position; `key`: about the mapping key at `path`, not its value."""
    message: str
    path: JsonPath
    hint: str | None = None
    key: bool = False


def box_counts(rules: Rules, players: int) -> Counter[str]:
    """How many copies of each card the game holds with this many players (what setup deals)."""
    return Counter(setup_plan(rules, players).cards)


def coin_supply(rules: Rules, players: int) -> Counter[int]:
    """How many coins of each value the game has with this many players (what setup deals): a
    basic set per player, the Royal Treasure less the coins left in the box, the special coins."""
    return Counter(coin.value for coin in setup_plan(rules, players).coins)


def gem_values(rules: Rules) -> set[int]:
    """Every gem the game has: those dealt for some player count, and the special gems."""
    return {g for gems in rules.ruleset.gems.values() for g in gems} | set(rules.special_gems)


def counted_players(rules: Rules, players: int) -> int:
    """The player count the supply is counted for (the nearest one the rules allow)."""
    return min(max(players, rules.min_players), rules.max_players)


def card_ref(item: Any) -> tuple[str, dict[str, Any]] | None:
    """A card entry as (id, state): an id, or a mapping with the id under `card`; None if neither."""
    if isinstance(item, str):
        return item, {}
    if isinstance(item, dict) and isinstance(item.get("card"), str):
        return item["card"], item
    return None


def captured_ids(value: Any) -> list[tuple[str, tuple[int, ...]]]:
    """The captured cards of a state's `captured` (one id or a list of ids), with their sub-paths."""
    if isinstance(value, str):
        return [(value, ())]
    if isinstance(value, list):
        return [(v, (j,)) for j, v in enumerate(value) if isinstance(v, str)]
    return []


def is_int(value: Any) -> TypeGuard[int]:
    """An integer, not a boolean (JSON `true` is not 1)."""
    return type(value) is int


def check_position(rules: Rules, data: Any, box_of: BoxOf | None = None) -> list[Problem]:
    """Every problem of a position: player by player, then the counts over the whole position
    (copies of cards, coins of each value)."""
    checker = _Checker(rules, box_of)
    if isinstance(data, dict):
        checker.position(data)
    return checker.problems


class _Checker:
    def __init__(self, rules: Rules, box_of: BoxOf | None):
        self.rules, self.box_of = rules, box_of
        self.problems: list[Problem] = []
        self.cards: dict[str, list[JsonPath]] = {}     # card id -> where each copy is
        self.coins: dict[int, list[JsonPath]] = {}
        self.gems: dict[int, str] = {}                  # gem -> the player holding it
        self.names: dict[str, int] = {}

    def add(self, message: str, path: JsonPath, hint: str | None = None, key: bool = False) -> None:
        self.problems.append(Problem(message, path, hint, key))

    def position(self, data: dict[str, Any]) -> None:
        players = data.get("players")
        if not isinstance(players, list):
            return
        r = self.rules
        if not r.allows(len(players)):
            self.add(f"these rules play with {r.min_players} to {r.max_players} players; this position has "
                     f"{len(players)}", ("players",), key=True)
        n = counted_players(r, len(players))
        for i, pl in enumerate(players):
            if isinstance(pl, dict):
                self.player(i, pl)
        self.copies(n)
        self.supply(n)

    def player(self, i: int, pl: dict[str, Any]) -> None:
        at: JsonPath = ("players", i)
        name = pl.get("name", f"P{i + 1}")
        if isinstance(name, str):
            self.name(name, at + ("name",) if "name" in pl else at, i)
        gem = pl.get("gem")
        if is_int(gem):
            self.gem(gem, at + ("gem",), name if isinstance(name, str) else f"P{i + 1}")
        coins = pl.get("coins")
        if isinstance(coins, list):
            for j, value in enumerate(coins):
                if is_int(value):
                    self.coins.setdefault(value, []).append(at + ("coins", j))
        army = pl.get("army")
        if isinstance(army, dict):
            for cls, cards in army.items():
                if cls not in self.rules.classes:
                    self.add(f"unknown army column `{clip(cls)}`", at + ("army", cls),
                             suggest(cls, self.rules.classes) or "columns: " + ", ".join(self.rules.classes), key=True)
                self.card_list(cards, at + ("army", cls), cls if cls in self.rules.classes else "")
        self.card_list(pl.get("command_zone"), at + ("command_zone",), None)

    def name(self, name: str, path: JsonPath, i: int) -> None:
        if not name.strip():
            self.add("a player's name cannot be empty or blank", path)
        bad = [ch for ch in name if unprintable(ch)]
        if bad:
            self.add(f"a player's name cannot hold control characters ({shown_char(bad[0])})", path,
                     "use letters, digits, spaces and punctuation")
        if name in self.names:
            self.add(f"two players are named `{clip(name)}` (players {self.names[name] + 1} and {i + 1})", path,
                     "give each player their own name")
        else:
            self.names[name] = i

    def gem(self, gem: int, path: JsonPath, holder: str) -> None:
        values = gem_values(self.rules)
        if gem not in values:
            self.add(f"no gem {shown_int(gem)} in the game", path, "gems: " + spans(values))
        elif gem in self.gems:
            self.add(f"gem {gem} is held twice (also by {clip(self.gems[gem])})", path, "each gem is held by one player")
        else:
            self.gems[gem] = holder

    def card_list(self, cards: Any, path: JsonPath, column: str | None) -> None:
        """The cards of an army column (`column`; "" for an unknown one) or of the command zone (None)."""
        if isinstance(cards, list):
            for j, item in enumerate(cards):
                self.card(item, path + (j,), column)

    def card(self, item: Any, path: JsonPath, column: str | None) -> None:
        ref = card_ref(item)
        if ref is None:
            return
        cid, state = ref
        known = self.card_id(cid, path + ("card",) if state else path)
        standing = standings(self.rules)[cid] if known else None
        if standing is not None and column != "" and not standing.allows(column):
            where = "the command zone" if column is None else f"the {column} column"
            self.add(f"`{clip(cid)}` cannot stand in {where}", path, places(self.rules.cards[cid], standing,
                                                                             self.rules.classes))
        if not state:
            return
        refused = self.state_keys(cid, state, standing, path) if standing is not None else set()
        if "notch" in state and is_int(state["notch"]) and standing is not None and "notch" not in refused:
            track = self.rules.cards[cid].track
            if not 0 <= state["notch"] < len(track):
                self.add(f"notch {shown_int(state['notch'])} is off `{clip(cid)}`'s track", path + ("notch",),
                         f"its notches are 0 to {len(track) - 1}")
        cls = state.get("class")
        if isinstance(cls, str) and cls not in self.rules.classes and "class" not in refused:
            self.add(f"unknown class `{clip(cls)}`", path + ("class",),
                     suggest(cls, self.rules.classes) or "classes: " + ", ".join(self.rules.classes))
        captured = captured_ids(state.get("captured"))
        for target, sub in captured:  # (each counts as a copy, wherever it is written)
            if self.card_id(target, path + ("captured",) + sub) and standing is not None \
                    and "captured" not in refused:
                self.capture(cid, target, path + ("captured",) + sub)
        most = captures_at_most(self.rules.cards[cid]) if standing is not None else None
        if most is not None and len(captured) > most:
            self.add(f"`{clip(cid)}` captures one card, once per game: {len(captured)} here",
                     path + ("captured",) + captured[most][1], "keep the card it captured; remove the others")
        if standing is not None:
            self.together(cid, state, standing, refused, path)

    def together(self, cid: str, state: dict[str, Any], standing: Standing, refused: set[str], path: JsonPath) -> None:
        """State keys that exclude each other (runtime/placement.py derives which): two ways of spending
        the card's one power, `used: false` beside a key that spends it; and `captured: []`, no capture
        (`play --json` leaves the key out for a card that captured nothing)."""
        if state.get("captured") == [] and "captured" not in refused:
            self.add(f"`{clip(cid)}` has an empty `captured`: no card is captured", path + ("captured",),
                     "leave `captured` out for a card that captured nothing")
        held = [k for k in state if k in standing.state and k not in refused and holds(state, k)]
        both = [k for k in standing.exclusive if k in held]
        if len(both) > 1:
            first, second = both[0], both[1]
            last = [k for k in held if k in (first, second)][-1]  # located at the one written second
            self.add(f"`{clip(cid)}` {HOLDS[first]} and {HOLDS[second]}: its once-per-game power is spent once, "
                     f"by {SPENDS[first]} or by {SPENDS[second]}", path + (last,),
                     f"keep `{first}` or `{second}`: the one way its power was spent", key=True)
        spent = [k for k in held if k in standing.spent_by]
        if spent and state.get("used") is False and "used" not in refused:
            self.add(f"`{clip(cid)}` has `used: false`, but it {HOLDS[spent[0]]}: {SPENDS[spent[0]]} spends its "
                     "once-per-game power", path + ("used",), "leave out `used`: the power is spent", key=True)

    def state_keys(self, cid: str, state: dict[str, Any], standing: Standing, path: JsonPath) -> set[str]:
        """Each state key the card's rules do not give it (DESIGN §8), located at the key; the keys
        refused (their values are not judged further)."""
        refused = set()
        for key in state:
            if key == "card" or key in standing.state or key not in NO_STATE:
                continue  # (an unknown key: the schema reports it)
            hint = carried(standing)
            if key == "class" and standing.columns:  # DESIGN §9: "it has that column's class"
                columns = "any" if standing.columns == self.rules.classes else " or ".join(standing.columns)
                hint = f"its class is that of the army column it stands in ({columns})"
            self.add(NO_STATE[key].format(card=f"`{clip(cid)}`"), path + (key,), hint, key=True)
            refused.add(key)
        return refused

    def capture(self, cid: str, target: str, path: JsonPath) -> None:
        d, t = self.rules.cards[cid], self.rules.cards[target]
        if not can_capture(d, t):
            self.add(f"`{clip(cid)}` cannot capture `{clip(target)}`, {card_nature(t)}", path,
                     "it captures only " + " or ".join(dict.fromkeys(capture_nature(c.kind, c.cls)
                                                                     for c in d.captures)))

    def card_id(self, cid: str, path: JsonPath) -> bool:
        if cid in self.rules.cards:
            self.cards.setdefault(cid, []).append(path)
            return True
        box = self.box_of(cid) if self.box_of is not None else None
        if box is not None:
            self.add(f"`{clip(cid)}` is a card of `{box}`, which the position's `expansions` does not list", path,
                     f"add `{box}` to `expansions`")
        else:
            self.add(f"unknown card `{clip(cid)}`", path, suggest(cid, self.rules.cards))
        return False

    def copies(self, n: int) -> None:
        box = box_counts(self.rules, n)
        for cid, paths in self.cards.items():
            if len(paths) <= box[cid]:
                continue
            if box[cid] == 0:
                more = min((k for k in range(n, self.rules.max_players + 1) if box_counts(self.rules, k)[cid]),
                           default=None)
                self.add(f"`{cid}` is not in the game with {n} players", paths[0],
                         None if more is None else f"it is with {more} or more players")
            else:
                self.add(f"more copies of `{cid}` than the game holds ({box[cid]}): {len(paths)} in this position",
                         paths[box[cid]], f"counted for {n} players, over the whole position")

    def supply(self, n: int) -> None:
        supply = coin_supply(self.rules, n)
        every = set(coin_supply(self.rules, self.rules.min_players)) | set(coin_supply(self.rules, self.rules.max_players))
        for value, paths in self.coins.items():
            if value not in every:
                for path in paths:
                    self.add(f"no coin of value {shown_int(value)} in the game", path, "coin values: " + spans(every))
            elif len(paths) > supply[value]:
                self.add(f"more coins of value {value} than the game has with {n} players ({supply[value]}): "
                         f"{len(paths)} in this position", paths[supply[value]],
                         "basic coins: one set per player; the Royal Treasure; the special coins")


def holds(state: dict[str, Any], key: str) -> bool:
    """Whether a state key says something is so: a capture, a card face down, a power used (not
    `false`, `0` or an empty list)."""
    value = state.get(key)
    return value is not None and value is not False and value != [] and not (key in ("notch", "tokens") and value == 0)


# The state keys that spend a card's power: what a card with each is, and how it spent the power.
HOLDS = {"captured": "holds a capture", "face_down": "is face down"}
SPENDS = {"captured": "capturing a card", "face_down": "turning face down"}

# What a card carries no `KEY` for: the message, by key.
NO_STATE = {
    "notch": "{card} has no strength track, so no `notch`",
    "tokens": "{card} holds no tokens, so no `tokens`",
    "class": "{card} chooses no class, so no `class`",
    "captured": "{card} captures no card, so no `captured`",
    "face_down": "{card} cannot turn face down, so no `face_down`",
    "used": "{card} has no once-per-game power, so no `used`",
}


def places(d: CardDef, standing: Standing, classes: tuple[str, ...]) -> str:
    """Where a card may stand, for a hint."""
    parts = []
    if standing.columns == classes:
        parts.append("any army column")
    elif standing.columns:
        parts.append("the " + " or ".join(standing.columns) + " column")
    if standing.command:
        parts.append("the command zone")
    if not parts:
        return f"no player holds it: a card of kind `{d.kind}` goes to the discard pile once taken" \
            if d.enters == "discard" else "no rule puts it in an army or a command zone"
    return "it may stand in " + " or in ".join(parts)


def carried(standing: Standing) -> str:
    """The state keys a card may carry, for a hint."""
    if not standing.state:
        return "it carries no state: write it as its id alone"
    return "its state: " + ", ".join(f"`{key}`" for key in standing.state)


def card_nature(d: CardDef) -> str:
    """`a hero card of the warrior class`: a card's kind and printed class."""
    return capture_nature(d.kind, None if d.cls == "neutral" else d.cls)


def capture_nature(kind: str | None, cls: str | None) -> str:
    """`a dwarf card of the warrior class`, `an artifact card`, `a card`."""
    what = ("an " if kind[:1] in tuple("aeiou") else "a ") + f"{kind} card" if kind else "a card"
    return what + (f" of the {cls} class" if cls else "")


def spans(values: Iterable[int]) -> str:
    """`1-6`, `0, 2-25`: the sorted values with runs joined."""
    runs: list[list[int]] = []
    for v in sorted(set(values)):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def clip(text: str, limit: int = 60) -> str:
    """A name or id for a message, cut short if long."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def shown_int(value: int) -> str:
    """A number for a message; a huge one is cut short (and never turned whole into text)."""
    if abs(value) < 10 ** 15:
        return str(value)
    sign = "-" if value < 0 else ""
    if abs(value).bit_length() > 13_000:  # beyond what str() converts (sys.int_info)
        return f"{sign}a number of about {int(abs(value).bit_length() * 0.30103)} digits"
    text = str(abs(value))
    return f"{sign}{text[:6]}… ({len(text)} digits)"
