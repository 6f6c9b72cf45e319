"""interface/quick.py: the quicker `__init__` of the frozen dataclasses a game makes by the hundred."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import KW_ONLY, dataclass

import pytest

from nidavellir.interface.decisions import CardChoice, Decision
from nidavellir.interface.quick import quick_init


def test_a_decision_is_built_as_its_fields_say_and_stays_immutable():
    """interface/decisions.py: "Decisions as data: who decides, what kind, every legal option as a
    typed, immutable value" — with the quicker `__init__`, a Decision takes its fields by position or
    by name, fills `labels` with its default, refuses a missing or an unknown field, and is frozen;
    equality, hashing, `replace`, copying and pickling are the dataclass's."""
    options = (CardChoice("hunter", "t1"), CardChoice("blacksmith", "t1"))
    d = Decision(1, "pick", options, "choose a card")
    assert (d.player, d.kind, d.options, d.prompt, d.labels) == (1, "pick", options, "choose a card", None)
    named = Decision(player=1, kind="pick", options=options, prompt="choose a card", labels=("a", "b"))
    assert named.labels == ("a", "b") and named.label(1) == "b" and d.label(0) == "hunter (t1)"
    assert d == Decision(1, "pick", options, "choose a card") and d != named
    assert hash(d) == hash(Decision(1, "pick", options, "choose a card"))
    assert dataclasses.replace(d, player=2).player == 2 and d.player == 1
    assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.player = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del d.kind  # type: ignore[misc]
    with pytest.raises(TypeError):
        Decision(1, "pick", options)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Decision(1, "pick", options, "p", None, 5)  # type: ignore[call-arg]


def test_quick_init_keeps_positional_keyword_only_and_default_fields_apart():
    """The quicker `__init__` has the dataclass's own signature: positional fields first (a default
    where declared), keyword-only fields after `*`."""
    @dataclass(frozen=True)
    class Thing:
        a: int
        b: str = "b"
        _: KW_ONLY
        c: int
        d: tuple[int, ...] = ()

    quick_init(Thing)
    assert Thing(1, c=3) == Thing(a=1, b="b", c=3, d=())
    assert vars(Thing(1, "x", c=3, d=(4,))) == {"a": 1, "b": "x", "c": 3, "d": (4,)}
    with pytest.raises(TypeError):
        Thing(1, "x", 3)  # type: ignore[misc]  # (c is keyword-only)
    with pytest.raises(TypeError):
        Thing(1)  # type: ignore[call-arg]  # (c is required)


def test_quick_init_refuses_a_class_it_would_break():
    """Only a frozen dataclass without slots: a slotted one has no dict to write into, and a mutable
    one needs nothing quicker."""
    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    @dataclass
    class Mutable:
        a: int

    for cls in (Slotted, Mutable):
        with pytest.raises(AssertionError):
            quick_init(cls)
