"""The abstract evaluation of the rules' values (compiler/values.py): "what every number of the rules
can be, worked out once before a game ... A param no card modifies is its value; the tokens of a card
with no `add`/`remove … token` stay 0; a track its card never advances stays at its first notch;
counts are bounded by the cards the rules hold, coins by the coins they have; a condition that cannot
change (`1 > 0`, `param(z) > 0` with `z` never modified) has one value."

Each test compiles a small variant as `check` does, keeps the `Values` the compiler built for it,
and asks what an expression (parsed here) can be when a given card's effect reads it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from checking import write
from nidavellir.compiler import compile as compile_module
from nidavellir.compiler.build import compile_specs
from nidavellir.compiler.dsl import parse_expr
from nidavellir.compiler.sources import layer_specs
from nidavellir.compiler.values import Span, Values
from nidavellir.interface.support import MAX_VALUE


def values_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cards: str, game: str = "",
              boxes: tuple[str, ...] = ()) -> Values:
    """The Values the compiler works out for the base game (and `boxes`) with this variant."""
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + game + ("cards:\n" + cards if cards else ""))
    made: list[Values] = []

    class Kept(Values):
        def __post_init__(self) -> None:
            super().__post_init__()
            made.append(self)

    monkeypatch.setattr(compile_module, "Values", Kept)
    compile_specs(layer_specs(boxes, (str(v),)))
    assert len(made) == 1
    return made[0]


def span(values: Values, text: str, card: str | None = "skaa", column: str | None = None) -> Span:
    return values.span(parse_expr(text), card, column)


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Values:
    return values_of(tmp_path, monkeypatch, '  - id: skaa\n    effects: ["score param(z)"]\n',
                     "game: {params: {z: 0, w: 7}}\n")


# -- constants and what the rules data fixes ------------------------------------------------------------

@pytest.mark.parametrize("text, lo, hi", [
    ("3 * 4 - 2", 10, 10),
    ("10 / 3", 3, 3),
    ("(0 - 7) / 2", -4, -4),                          # (`/` rounds down)
    ("0 - 7 / 2", -3, -3),
    ("param(z)", 0, 0),                               # a param no card modifies is its value
    ("param(w) * 2", 14, 14),
    ("tokens", 0, 0),                                 # no effect of Skaa adds tokens
    ("track", 0, 0),                                  # (no track: nothing to advance)
    ("lookup(1, 5, 6, 7)", 6, 6),
    ("lookup(9, 5, 6, 7)", 7, 7),                     # an index past the end reads the last value
    ("lookup(0 - 4, 5, 6, 7)", 5, 5),
    ("min(0, ranks(warrior))", 0, 0),
    ("max(3, 0 - ranks(warrior))", 3, 3),
    ("2 if 1 > 0 else ranks(warrior)", 2, 2),         # a constant condition takes its one branch
    ("ranks(warrior) if 0 > 1 else 5", 5, 5),
    ("1 if param(z) > 0 else 0", 0, 0),               # ... also one the rules data decides
    ("1 if 0 > 1 or param(w) > 0 else 0", 1, 1),
    ("1 if not param(z) == 0 else 0", 0, 0),
])
def test_what_the_rules_data_fixes_has_one_value(base, text, lo, hi):
    assert span(base, text) == Span(lo, hi)


@pytest.mark.parametrize("text", ["ranks(warrior)", "1 if ranks(warrior) > 0 else 0", "heroes", "highest_coin",
                                  "lookup(ranks(warrior), 0, 1)", "age"])
def test_what_play_decides_has_a_range(base, text):
    """A count or a coin can be several values: not one (nor a constant condition)."""
    s = span(base, text)
    assert s.const is None and s.within, s


def test_counts_are_bounded_by_the_cards_and_coins_by_the_coins(base):
    """"counts are bounded by the cards the rules hold, coins by the coins they have"."""
    warriors = span(base, "ranks(warrior)")
    assert warriors.lo == 0 and warriors.hi == sum(len(c.ranks_in("warrior")) * c.copies
                                                  for cid, c in base.cards.items()
                                                  if base.places.may_stand_in(cid, "warrior"))
    assert span(base, "highest_coin") == Span(0, 25)   # the base game's best coin is a treasure 25
    assert span(base, "age") == Span(1, 2)
    assert span(base, "cards(hero)").hi == sum(c.copies for c in base.cards.values() if c.kind == "hero")


def test_a_modified_param_spans_its_modifiers(tmp_path, monkeypatch):
    """A param "changed by every modifier a player's cards may hold, in any order": from its value
    to its value plus what they add (each card's copies counted), a `=` modifier's value included."""
    v = values_of(tmp_path, monkeypatch, '  - id: skaa\n    effects: ["modify z + 3", "score param(z) + param(y)"]\n'
                                         '  - id: astrid\n    effects: ["modify z - 1", "modify y = 9"]\n',
                  "game: {params: {z: 2, y: 1}}\n")
    assert span(v, "param(z)") == Span(1, 5)
    assert span(v, "param(y)") == Span(1, 9)


def test_tokens_and_tracks_open_only_when_an_effect_changes_them(tmp_path, monkeypatch):
    """"the tokens of a card with no `add`/`remove … token` stay 0; a track its card never advances
    stays at its first notch"; with such an effect the tokens are open above, the track any notch."""
    v = values_of(tmp_path, monkeypatch,
                  '  - id: skaa\n    track: [4, 9, 2]\n    effects: ["score track + tokens"]\n'
                  '  - id: astrid\n    track: [1, 6]\n    effects: ["when recruited: advance track", '
                  '"when recruited: add 1 token", "score track + tokens"]\n')
    assert span(v, "track") == Span(4, 4) and span(v, "tokens") == Span(0, 0)
    assert span(v, "track", "astrid") == Span(1, 6) and span(v, "tokens", "astrid") == Span(0, None)


def test_products_of_reads_multiply_their_bounds(tmp_path, monkeypatch):
    """A product of reads: its span is the product of theirs, not clamped (check compares it with the
    bound); what an expression reads of a guarded value is clamped to ±MAX_VALUE."""
    v = values_of(tmp_path, monkeypatch, '  - id: skaa\n    effects: ["modify b + ranks(warrior) * 1000", '
                                         '"score param(b)"]\n', "game: {params: {b: 0}}\n")
    b = span(v, "param(b)")
    assert b.lo == 0 and b.hi == 1000 * span(v, "ranks(warrior)").hi
    cube = span(v, "param(b) * param(b) * param(b)")
    assert cube == Span(0, b.hi ** 3) and not cube.within
    assert v.guarded(parse_expr("param(b) * param(b) * param(b)"), "skaa")
    assert not v.guarded(parse_expr("param(b) + 1"), "skaa")
    negative = span(v, "0 - param(b) * param(b) * param(b)")
    assert negative.lo is not None and negative.lo >= -MAX_VALUE  # (the product, read, is within the bound)


def test_a_class_formula_reads_its_own_column(tmp_path, monkeypatch):
    """In a class formula `points` and `ranks` are that column's (with `card` None)."""
    v = values_of(tmp_path, monkeypatch, '  - id: "explorer:5"\n    effects: ["score 1000"]\n')
    assert span(v, "points", None, "explorer").hi >= 1000
    assert span(v, "points", None, "miner").hi < 1000
    assert span(v, "points", None).hi >= 1000  # (any column: the hull)


def test_a_chain_of_params_is_worked_out_without_nesting(tmp_path, monkeypatch):
    """"params worked out once each after what they read (no nesting, whatever the chain)": a chain of
    params (as many as a card has effects), each one more than the one before, is exact at its end,
    and so is each link."""
    n = 29
    params = ", ".join(f"p{i}: 0" for i in range(n + 1))
    mods = ", ".join(f'"modify p{i + 1} = param(p{i}) + 1"' for i in range(n))
    v = values_of(tmp_path, monkeypatch, f'  - id: skaa\n    effects: [{mods}, "score param(p{n})"]\n',
                  f"game: {{params: {{{params}}}}}\n")
    assert [span(v, f"param(p{i})") for i in range(n + 1)] == [Span(0, 0)] + [Span(0, i) for i in range(1, n + 1)]
