"""Completion inside effect DSL strings (a card's `effects:` entries, a class's `score:` formula)
and of the values of `class:`, `kind:`, `card:` and `do:` keys (a flow step's, from the step specs).

What is offered: the word under the cursor is completed from the names its place in the grammar
takes, when the words before it say which (`when ` / `whenever ` → events the runtime fires in that
form, `instead of ` → replaceable events, `column `, `is `, `ranks(` → classes, `param(` /
`modify ` → params, `place card ` → card ids, `from ` / `under ` → zones and decks, `for coin ` →
special coins, `cards(` → kinds, ...). Elsewhere in a DSL string every name is offered (DSL words,
classes, events, params, zones, card ids, in that order), filtered by the word's prefix. Typing a
trigger character (space, `(`, `,`) opens the list only where the place is known.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from nidavellir.compiler.names import FUNCTIONS
from nidavellir.interface.events import INSTEAD, INSTEAD_ANY, WHEN, WHENEVER
from nidavellir.interface.mechanisms import STEP_SPECS

from .vocabulary import Vocabulary, dsl_words

TRIGGERS = [" ", "(", ","]

# kinds of name, in the order a list shows them when the place does not say which
WORD, CLASS, EVENT, PARAM, ZONE, DECK, COIN, KIND, CARD, STEP = (
    "word", "class", "event", "param", "zone", "deck", "coin", "kind", "card", "step")
_RANK = {WORD: 0, CLASS: 1, EVENT: 2, PARAM: 3, ZONE: 4, DECK: 4, COIN: 5, KIND: 6, CARD: 7, STEP: 8}

_STARTERS = ("when", "whenever", "may", "once", "instead", "modify", "requires", "score", "enters", "capture")
_TOKEN = re.compile(r"[a-z][a-z0-9_]*(?:[-:][a-z0-9_]+)*|\d+|[^\s\w]")
_PREFIX = re.compile(r"[a-z0-9_:\-]*\Z")
_ITEM = re.compile(r"^([ \t]*)-[ \t]+")
_EFFECTS_FLOW = re.compile(r"\beffects[ \t]*:[ \t]*\[")  # (also inside a flow mapping `{id: x, effects: [`)
_SCORE = re.compile(r"^[ \t]*(?:-[ \t]+)?score[ \t]*:[ \t]*")
_EFFECTS_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?effects[ \t]*:[ \t]*(?:#.*)?$")
_VALUE_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?(?:\{[^}]*?)?\b(class|kind|card|do)[ \t]*:[ \t]*([a-z0-9_:\-]*)\Z")
_REMOVE = re.compile(r"^[ \t]*remove[ \t]*:[ \t]*\[[^\]]*?([a-z0-9_:\-]*)\Z")


@dataclass(frozen=True)
class Spot:
    """Where the cursor is: the DSL text before it (`dsl`, None outside one) or the key whose
    value it is in (`key`), and the name being typed."""
    prefix: str
    dsl: str | None = None
    key: str | None = None


@dataclass(frozen=True)
class Item:
    label: str
    what: str       # one of the kinds of name above
    detail: str
    rank: int


def _string_rest(value: str) -> str | None:
    """The part of a YAML scalar before the cursor, if the cursor is still inside it."""
    if value[:1] in ("'", '"'):
        q, body = value[0], value[1:]
        inner = re.sub(r"''", "", body) if q == "'" else re.sub(r"\\.", "", body)
        return None if q in inner else body
    return None if " #" in value else value


def _in_flow_list(after: str) -> str | None:
    """In `[a, "b", 'c` the element the cursor is in (None after a closed list)."""
    start, quote, i = 0, "", 0
    while i < len(after):
        c = after[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                if quote == "'" and after[i + 1:i + 2] == "'":
                    i += 1
                else:
                    quote = ""
        elif c in "'\"":
            quote, start = c, i + 1
        elif c == ",":
            start = i + 1
        elif c == "]":
            return None
        i += 1
    return after[start:] if quote else after[start:].lstrip()


def _parent_is_effects(lines: list[str], row: int, indent: int) -> bool:
    """Whether the list item on `row` (its dash at `indent`) is an entry of an `effects:` key."""
    for k in range(row - 1, -1, -1):
        text = lines[k]
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        here = len(text) - len(text.lstrip(" \t"))
        if here > indent or (here == indent and stripped.startswith("- ")):
            continue  # a sibling item, or a continuation line
        return bool(_EFFECTS_KEY.match(text))
    return False


def spot(lines: list[str], row: int, col: int) -> Spot | None:
    """What the cursor at (row, character col) of the document's lines is in, or None."""
    before = lines[row][:col] if row < len(lines) else ""
    m = _PREFIX.search(before)
    prefix = m.group() if m else ""
    if (v := _VALUE_KEY.match(before)) is not None:
        return Spot(v.group(2), key=v.group(1))
    if (r := _REMOVE.match(before)) is not None:
        return Spot(r.group(1), key="card")
    dsl: str | None = None
    if (f := next(reversed(list(_EFFECTS_FLOW.finditer(before))), None)) is not None:
        dsl = _in_flow_list(before[f.end():])
    elif (s := _SCORE.match(before)) is not None:
        dsl = _string_rest(before[s.end():])
    elif (i := _ITEM.match(before)) is not None and _parent_is_effects(lines, row, len(i.group(1))):
        dsl = _string_rest(before[i.end():])
    if dsl is None:
        return None
    return Spot(prefix, dsl=dsl)


def _events(v: Vocabulary, form: str) -> list[tuple[str, str, str]]:
    return [(name, EVENT, spec.text) for name, spec in v.events.items() if form in spec.forms]


def _classes(v: Vocabulary, neutral: bool = False) -> list[tuple[str, str, str]]:
    out = [(c, CLASS, f"class: {name}") for c, name in v.classes.items()]
    return out + ([("neutral", CLASS, "a card of no class")] if neutral else [])


def _open_call(tokens: list[str]) -> tuple[str, int] | None:
    """The function whose argument list the cursor is in, and the argument's index."""
    depth, index = 0, 0
    for k in range(len(tokens) - 1, -1, -1):
        t = tokens[k]
        if t == ")":
            depth += 1
        elif t == "(":
            if depth == 0:
                return (tokens[k - 1] if k else ""), index
            depth -= 1
        elif t == "," and depth == 0:
            index += 1
    return None


def _arg_names(v: Vocabulary, fn: str, index: int) -> list[tuple[str, str, str]] | None:
    b = FUNCTIONS.get(fn)
    if b is None or not b.args:
        return None
    args = list(b.args)
    kind = args[min(index, len(args) - 1)]
    if kind == "...":
        kind = args[-2]
    return {"class": _classes(v), "param": [(p, PARAM, d) for p, d in v.params.items()],
            "kind": [(k, KIND, d) for k, d in v.kinds.items()]}.get(kind)


def _decks(v: Vocabulary) -> list[tuple[str, str, str]]:
    return ([("age", WORD, "age N deck"), ("current", WORD, "the current age's deck")]
            + [(z, DECK, f"{v.zones.get(z, z)} (deck)") for z in sorted(v.decks)])


def slot(v: Vocabulary, dsl: str) -> list[tuple[str, str, str]] | None:
    """The names the grammar takes where the DSL text `dsl` ends (without the word being typed);
    None where the words before do not say."""
    tokens = _TOKEN.findall(dsl)
    prev, prev2, prev3 = ([""] * 3 + tokens)[-1], ([""] * 3 + tokens)[-2], ([""] * 3 + tokens)[-3]
    if prev in (WHEN, WHENEVER):
        return _events(v, prev)
    if prev == "of" and prev2 == "instead":
        return _events(v, INSTEAD) + [("any", WORD, "any card of the owner's")]
    if prev == "any" and prev2 == "of" and prev3 == "instead":
        return _events(v, INSTEAD_ANY)
    if prev in ("(", ",") and (call := _open_call(tokens)) is not None:
        return _arg_names(v, *call)
    if prev == "is":
        return _classes(v) + [("none", CLASS, "no class")] + [(k, KIND, d) for k, d in v.kinds.items()]
    if prev == "column" and prev2 not in ("chosen",):
        return _classes(v)
    if (prev == "of" and prev2 == "column") or (prev == "," and "column" in tokens and "of" in tokens):
        return _classes(v)
    if prev == "card" and prev2 in ("place", "move"):
        return [(c, CARD, name) for c, name in v.cards.items()]
    if prev == "from" and "take" in tokens:
        return [(z, ZONE, name) for z, name in v.zones.items() if z not in ("tavern", "box")]
    if prev == "from" or (prev == "of" and prev2 == "top"):
        return _decks(v)
    if prev == "under":
        return _decks(v) + [("deck", WORD, "rest under deck in chosen order")]
    if prev == "coin" and prev2 == "for":
        return [(c, COIN, name) for c, name in v.coins.items()]
    if prev == "recruit" or (prev == "another" and prev2 == "recruit") or (prev == "chosen" and prev2 == "return"):
        extra = [("another", WORD, "keyword"), ("hero", WORD, "keyword")] if prev == "recruit" else []
        return _classes(v, neutral=True) + extra
    if prev == "next" and prev2 == "capture":
        return _classes(v)
    if prev == "modify":
        return [(p, PARAM, d) for p, d in v.params.items()]
    return None


def _everything(v: Vocabulary, dsl: str) -> list[tuple[str, str, str]]:
    words = dsl_words()
    starters = [(w, WORD, "begins an effect") for w in _STARTERS] if not dsl.strip() else []
    return (starters + [(w, WORD, d) for w, d in words.items()] + _classes(v)
            + [(e, EVENT, s.text) for e, s in v.events.items()] + [(p, PARAM, d) for p, d in v.params.items()]
            + [(z, ZONE, n) for z, n in v.zones.items()] + [(c, CARD, n) for c, n in v.cards.items()])


def complete(v: Vocabulary, where: Spot, triggered: bool) -> list[Item]:
    """The names to offer at `where` that start with the word being typed (`triggered`: the
    editor asked because a trigger character was typed)."""
    if where.key is not None:
        names = {"class": _classes(v, neutral=True), "kind": [(k, KIND, d) for k, d in v.kinds.items()],
                 "card": [(c, CARD, n) for c, n in v.cards.items()],
                 "do": [(n, STEP, spec.text) for n, spec in STEP_SPECS.items()]}[where.key]
    else:
        dsl = where.dsl or ""
        if not re.fullmatch(r"(?:[a-z][a-z0-9_:\-]*)?", where.prefix):
            return []  # a number, or not a name
        known = slot(v, dsl[:len(dsl) - len(where.prefix)])
        if known is None and triggered:
            return []
        names = known if known is not None else _everything(v, dsl[:len(dsl) - len(where.prefix)])
    seen: set[str] = set()
    items: list[Item] = []
    for k, (label, what, detail) in enumerate(names):
        if label.startswith(where.prefix) and label not in seen:
            seen.add(label)
            items.append(Item(label, what, detail, _RANK[what] * 10_000 + k))
    return items
