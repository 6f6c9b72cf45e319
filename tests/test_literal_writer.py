"""The generated module is written from the typed rule model by one generic literal writer
(compiler/emit.py `literal`): every field of every model class is written and read back equal, a
field at its default is left out, and an object the module binds to a name is written as that name."""
from __future__ import annotations

import re
from dataclasses import MISSING, fields
from typing import Any

import pytest

from nidavellir.compiler.emit import MODEL_NAMES, Ref, literal
from nidavellir.interface import rules as model

H = Ref("_handler")  # a compiled handler, as the compiler holds it before the module exists

STEP = model.Step("s", do="refill", window="w", ages=(2,), source="f:1:2", zone="camp", deck="camp-decks",
                  into="discard", count=5, kind="hero", order=model.Order("most", "hero", False))
CARD = model.CardDef(
    "grid", "Grid", "hero", "neutral", ranks=(1, 0), points=7, copies=2, enters="column", enters_column="miner",
    enters_among=("warrior", "hunter"), track=(0, 3, 6), column_ranks={"miner": (1,)},
    placings=(model.Placing("@self", "column", "miner", ("hunter",)),), captures=(model.Capture("dwarf", "miner", True),),
    marks=("class",), spends=("used",), params={"p": 2}, when={"recruited": (H,)}, whenever={"taken": (H, H)},
    instead={"covered": (H,)}, instead_any={"enters": (H,)}, score=H, score_once=True, score_reads=("hunter",), requires=(H,),
    mods=(model.Modifier("p", "+", H),), source="f:3:4", layers=("base", "house"),
    text=model.CardText("Miner", "1 rank", ("Adds 7.",)))
# One instance of each model class with every field away from its default.
SAMPLES: dict[str, Any] = {
    "BasicCoin": model.BasicCoin(2, trading=True),
    "Capture": model.Capture("dwarf", "warrior", once=True),
    "CardDef": CARD,
    "CardText": model.CardText("Warrior or Hunter", "Ranks: 2", ("When you take it: add 2.", "Adds 7.")),
    "ClassDef": model.ClassDef("warrior", "Warriors", "ranks", H, source="f:5:6", reads=("warrior",)),
    "DeckEntry": model.DeckEntry("hunter", 2, min_players=5),
    "Interpretation": model.Interpretation("i", text="t", source="s", layer="base"),
    "Layer": model.Layer("base", "Base", description="d", source="s", variant=True),
    "LoopWarning": model.LoopWarning(("f:1:1", "f:2:2"), "f:1:1", "the treasure"),
    "Modifier": model.Modifier("p", "=", H),
    "Order": model.Order("most", "mercenary", leader_chooses=False),
    "PickSource": model.PickSource("camp", "camp", name="the Camp", who="top-bidder", also="p", discard=1,
                                   discard_players=(2,)),
    "Placing": model.Placing("@subject", "chosen", "explorer", among=("miner", "hunter")),
    "RuleSet": model.RuleSet(
        content_hash="h", layers=(model.Layer("base", "Base"),), players=(2, 5), cards_per_tavern={2: 3},
        taverns=(model.Tavern("t", "T"),), ages=(1, 2), classes=(model.ClassDef("warrior", "W", "1", H),),
        basic_coins=(model.BasicCoin(0),), special_coins=(model.SpecialCoin("c", 3),), treasure={5: 2},
        treasure_removed={2: {5: 1}}, gems={2: (1, 2)}, special_gems=(model.SpecialGem(6),), params={"p": 1},
        events={"taken": "a card is taken"}, turn=(STEP,), age_end=(model.Step("e"),), before_scoring=("w",),
        cards={"grid": CARD}, decks={1: (model.DeckEntry("grid", 1),)}, interpretations=(model.Interpretation("i"),),
        warnings=("w",), flow_source="f:1:1", kinds={"hero": "own column"}, dwarf_kinds=("dwarf", "animal"),
        score_parts={"god": "mythology"}, discards_to={"hero": "box"}, zones=(model.Zone("camp", "Camp"),),
        zone_decks={"camp": {1: (model.DeckEntry("grid", 1),)}}, tavern=(model.Step("picks", do="picks"),),
        pick_sources=(model.PickSource("tavern", "tavern"),), loops=(model.LoopWarning(("a",), "a", "b"),)),
    "SpecialCoin": model.SpecialCoin("hunter-3", 3, trading=True, name="special coin 3"),
    "SpecialGem": model.SpecialGem(6, points=3, tradable=False),
    "Step": STEP,
    "Tavern": model.Tavern("t", "the T", draws=(model.TavernDraw("camp", (1,)),)),
    "TavernDraw": model.TavernDraw("camp", (1, 2), ages=(2,)),
    "Zone": model.Zone("camp", "the Camp", per_age=True, explored=False),
}
NAMESPACE: dict[str, Any] = {name: getattr(model, name) for name in MODEL_NAMES} | {H.name: H}


def _default(f: Any) -> Any:
    return f.default if f.default is not MISSING else f.default_factory() if f.default_factory is not MISSING \
        else MISSING


def _written(name: str, text: str) -> bool:
    return re.search(rf"\b{name}=", text) is not None


def _read(text: str) -> Any:
    return eval(text, dict(NAMESPACE))


def test_every_model_class_has_a_sample_with_every_field_set():
    """The samples cover the model: each class the module imports, each of its fields away from
    its default (a new field without a sample fails here, not silently in the round trip)."""
    assert sorted(SAMPLES) == sorted(MODEL_NAMES)
    for name, sample in SAMPLES.items():
        assert type(sample).__name__ == name
        for f in fields(sample):
            if f.init and _default(f) is not MISSING:
                assert getattr(sample, f.name) != _default(f), f"{name}.{f.name} is at its default"


@pytest.mark.parametrize("multiline", [False, True])
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_model_instance_is_written_and_read_back_equal(name: str, multiline: bool):
    """Every field of every model class is written and read back equal (handlers by name)."""
    sample = SAMPLES[name]
    text = literal(sample, multiline=multiline)
    assert _read(text) == sample
    for f in fields(sample):
        assert _written(f.name, text) == f.init, f.name


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_field_at_its_default_is_left_out(name: str):
    """A dataclass instance is written listing only the fields that differ from the field's
    default: with only its required fields given, only those are written."""
    sample = SAMPLES[name]
    required = {f.name: getattr(sample, f.name) for f in fields(sample) if f.init and _default(f) is MISSING}
    bare = type(sample)(**required)
    text = literal(bare)
    assert _read(text) == bare
    written = {f.name for f in fields(bare) if _written(f.name, text)}
    assert written == set(required)


def test_a_named_object_is_written_as_its_name():
    """A card's table bound to a module name is written as that name where the rule set holds it."""
    ruleset = SAMPLES["RuleSet"]
    text = literal(ruleset, names={id(CARD): "_CARD_grid"})
    assert "cards={'grid': _CARD_grid}" in text
    assert _read(text.replace("_CARD_grid", literal(CARD))) == ruleset
