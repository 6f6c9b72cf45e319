"""Each mechanism is declared once (nidavellir/interface/mechanisms.py) and every stage reads that
declaration: the runtime binds one function to each spec, each spec's text is in every catalog, its
operands are the compiled step's fields and the schema's keys, and the editor offers its name
(issue 19 §2: "a spec ... declared in `interface/`, implemented by the runtime, read by the checker,
the emitter, the rule text and the LSP's completion")."""
from __future__ import annotations

import dataclasses
import re

import pytest
from nidavellir.compiler.docs.text import Catalog
from nidavellir.compiler.schema import load_schema
from nidavellir.compiler.sources import grammar_text
from nidavellir.runtime.flow import STEP_FUNCTIONS, TAVERN_STEP_FUNCTIONS

from nidavellir.interface.engine import EngineAPI
from nidavellir.interface.mechanisms import (
    ACTION_SPECS,
    AMOUNT,
    AMOUNTS,
    CARD,
    CARD_REF,
    CARD_SET,
    COIN,
    COINS,
    DECK,
    FLAG,
    FLOW_PARTS,
    FROM_ZONE,
    GEM,
    HERO_CLASS,
    OPERANDS,
    PLACE,
    PLAYER,
    STEP_SPECS,
    SUBJECT,
    TAVERN,
    WORD,
    steps_of,
)
from nidavellir.interface.rules import Step
from nidavellir.lsp.complete import complete, spot
from nidavellir.lsp.vocabulary import Vocabulary


def test_every_step_spec_has_one_runtime_function_and_no_function_lacks_a_spec():
    """A step the flow data may name is one the runtime runs, and the runtime runs no step the
    checker would refuse; a tavern's resolution binds the functions of the specs allowed there."""
    assert set(STEP_FUNCTIONS) == set(STEP_SPECS)
    assert set(TAVERN_STEP_FUNCTIONS) == set(steps_of(TAVERN))
    assert len({id(f) for f in STEP_FUNCTIONS.values()}) == len(STEP_FUNCTIONS)


@pytest.mark.parametrize("lang", ["en", "be"])
def test_every_step_spec_has_its_reference_text_in_each_language(lang):
    """The reference prints each step by its spec's catalog key (`deal` once had none)."""
    cat = Catalog.load(lang)
    assert [s.name for s in STEP_SPECS.values() if s.message not in cat.messages] == []
    assert [k for s in ACTION_SPECS.values() for k in s.messages if k not in cat.messages] == []


def test_every_action_spec_is_a_grammar_rule_and_calls_the_engine_interface():
    """An action spec's phrase is a rule of the grammar (by its alias), and the methods its call and
    its guard name are members of EngineAPI, the interface generated code is checked against."""
    grammar = grammar_text()
    members = set(vars(EngineAPI))
    for spec in ACTION_SPECS.values():
        assert re.search(rf"->\s*{spec.rule}\b", grammar), spec.name
        called = re.findall(r"\bg\.([a-z_]+)\(", spec.call + (spec.guard or ""))
        assert set(called) <= members and (spec.method is None) == (not called), spec.name
        assert set(spec.needs) <= {PLAYER, CARD, SUBJECT}, spec.name


def test_step_operands_are_the_compiled_steps_fields_and_the_schemas_keys():
    """An operand a spec requires is a field of the compiled `Step` and a key the layer schema lets
    a flow step have; each spec stands in a part of the flow, and its own part among them."""
    fields = {f.name for f in dataclasses.fields(Step)}
    assert set(OPERANDS) <= fields
    flow = load_schema("layer")["properties"]["game"]["properties"]["flow"]["properties"]
    for spec in STEP_SPECS.values():
        assert {key for key, _ in spec.operands} <= set(OPERANDS), spec.name
        assert spec.parts and spec.parts <= set(FLOW_PARTS), spec.name
        assert spec.home is None or spec.home in spec.parts, spec.name
    for part in FLOW_PARTS:
        keys = set(flow[part]["items"]["properties"])
        assert {"do", "window"} <= keys
        assert {key for spec in steps_of(part).values() for key, _ in spec.operands} <= keys, part


def test_the_editor_completes_a_flow_steps_do_from_the_specs():
    """Typing a step's `do:` offers the steps the runtime implements, each with what it does."""
    where = spot(["    - {id: x, do: re"], 0, len("    - {id: x, do: re"))
    assert where is not None
    items = complete(Vocabulary(), where, False)
    assert [i.label for i in items] == ["resolve-taverns", "refill"]
    assert items[1].detail == STEP_SPECS["refill"].text


def test_choose_class_is_one_action_spec_read_by_every_stage():
    """Ölrun's class token (DESIGN §9, 001 "Ölrun: choose a class"): `choose class` parses to its
    spec's action, leaves the position's `class` mark on the card, emits the spec's engine call and
    reads as its catalog text."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.card_facts import marks
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, action

    effect = parse_effect("when taken: choose class")
    assert effect.actions == (ir.Act("choose-class"),)
    assert marks([effect]) == ("class",)
    w = Writer()
    action(w, effect.actions[0], PyScope(), lambda pos: "<rules>")
    assert "yield from g.choose_class(p, card)" in "\n".join(w.lines)
    assert action_text(effect.actions[0], context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))) == "choose a class"


@pytest.mark.parametrize("expansions", [(), ("thingvellir", "idavoll")])
def test_every_action_of_the_rules_data_has_its_specs_operands(expansions):
    """An action a card's effect does is parsed into its spec's operands, one of each kind in the
    spec's order: so the checker, the emitter and the rule text, which read the operands by the
    spec, read what was written."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs

    kinds = {AMOUNT: ir.is_amount, DECK: lambda a: isinstance(a, ir.Deck),
             GEM: lambda a: isinstance(a, ir.Num), FROM_ZONE: lambda a: isinstance(a, ir.Word),
             WORD: lambda a: isinstance(a, ir.Word), COIN: lambda a: isinstance(a, ir.Word),
             COINS: lambda a: isinstance(a, ir.CoinSel), CARD_REF: lambda a: isinstance(a, ir.CardRef),
             CARD_SET: lambda a: isinstance(a, ir.CardSet), AMOUNTS: lambda a: isinstance(a, ir.Amounts),
             PLACE: lambda a: isinstance(a, ir.Place), HERO_CLASS: lambda a: isinstance(a, ir.Word),
             FLAG: lambda a: isinstance(a, ir.Word)}
    seen = set()
    for cid, effects in compile_specs(layer_specs(expansions)).effects.items():
        for _, effect in effects:
            for node in ir.walk(effect):
                if isinstance(node, ir.Act):
                    spec = ACTION_SPECS[node.name]
                    assert len(node.args) == len(spec.operands), (cid, node)
                    for operand, arg in zip(spec.operands, node.args):
                        if isinstance(arg, ir.Omitted):  # (only an operand the phrase may leave out)
                            assert operand.token is not None, (cid, operand)
                            continue
                        assert kinds[operand.kind](arg), (cid, operand, arg)
                        assert operand.kind != WORD or arg.value in operand.words, (cid, operand, arg)
                    seen.add(node.name)
    if expansions:  # (the boxes together do every action that takes operands)
        assert {n for n, s in ACTION_SPECS.items() if s.operands} <= seen


def test_recruit_and_return_are_costs_declared_as_action_specs():
    """001 "Odin": "put one of your Neutral Heroes back in the reserve and recruit another Neutral
    Hero" (rules/idavoll: "return chosen neutral hero then recruit another neutral hero uncounted");
    DESIGN §9 "Where the powers meet": a power is offered only when each of its actions finds
    something to act on. Both phrases parse to their specs' operands (the words `recruit … hero`
    may leave out read as left out), only a cost stands before `then`, the return offers only heroes
    that leave one to recruit (its guard stands for the recruitment too), the calls report whether
    they were done, and the text picks its key by what is written."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    text = "when taken: return chosen neutral hero then recruit another neutral hero uncounted"
    odin = parse_effect(text).actions[0]
    assert isinstance(odin, ir.Then) and isinstance(odin.first, ir.Act) and isinstance(odin.rest, ir.Act)
    assert (odin.first.name, odin.first.args) == ("return", (ir.Word("neutral"),))
    assert odin.rest.name == "recruit" and odin.rest.args == (ir.Word("another"), ir.Word("neutral"), ir.Word("uncounted"))
    assert odin.rest.arg("cls").pos == text.rindex("neutral")
    bare = parse_effect("when taken: recruit hero").actions[0]
    assert isinstance(bare, ir.Act) and all(isinstance(arg, ir.Omitted) for arg in bare.args) and bare.heroes() == (None,)
    assert [n for n, s in ACTION_SPECS.items() if s.cost] == ["recruit", "return"]
    assert _can_act(odin, PyScope()) == "g.can_return_hero(p, 'neutral', then=('neutral', True))"
    assert _can_act(bare, PyScope()) == "g.can_recruit_hero(p, None, False)"
    w = Writer()
    action(w, odin, PyScope(), lambda pos: "<rules>")
    assert "\n".join(line.strip() for line in w.lines if not line.strip().startswith("'")) == (
        "if (yield from g.return_hero(p, 'neutral', then=('neutral', True))):\n"
        "yield from g.recruit_hero(p, counted=False, cls='neutral', another=True)")
    w = Writer()
    action(w, parse_effect("when taken: return chosen neutral hero").actions[0], PyScope(), lambda pos: "<rules>")
    assert "yield from g.return_hero(p, 'neutral')" in w.lines
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert [action_text(parse_effect(f"when taken: {t}").actions[0], cx) for t in (
        "recruit hero", "recruit hero uncounted", "recruit warrior hero", "recruit another hero",
        "return chosen warrior hero then recruit another warrior hero uncounted")] == [
        "recruit a hero", "recruit a hero that does not count against your complete lines", "recruit a Warrior hero",
        "recruit a hero other than the one put back",
        "put one of your Warrior heroes back among the available heroes; if you do, recruit a Warrior hero other "
        "than the one put back, which does not count against your complete lines"]


def test_every_amount_operand_has_a_value_check():
    """An action's amount is checked against the values it can take (`take chosen 0 cards` never
    takes one): each amount operand names a verb the value checker words."""
    from nidavellir.compiler.value_checks import _AMOUNTS

    assert [(s.name, o.name) for s in ACTION_SPECS.values() for o in s.operands
            if o.kind in (AMOUNT, AMOUNTS) and o.verb not in _AMOUNTS] == []
    assert all(o.kind in (AMOUNT, AMOUNTS) for s in ACTION_SPECS.values() for o in s.operands if o.verb or o.positive)


def test_take_is_one_action_spec_read_by_every_stage():
    """Taking from a pile (002 "Brísingamens": "look at all the cards in the discard pile and choose
    two"; rules/thingvellir/artifacts.yaml "take chosen 2 cards from discard"): the phrase parses
    to its spec's operands, the guard tests the amount and then the pile, the call hands both to the
    engine, and the text counts the cards."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    effect = parse_effect("when won: take chosen param(x) cards from discard")
    take = effect.actions[0]
    assert isinstance(take, ir.Act) and take.name == "take"
    assert take.arg("zone") == ir.Word("discard") and isinstance(take.arg("count"), ir.Call)
    assert _can_act(take, PyScope()) == "((g.param(p, 'x') > 0) and g.can_take_from(p, 'discard'))"
    w = Writer()
    action(w, take, PyScope(), lambda pos: "<rules>")
    assert "yield from g.take_from(p, 'discard', g.param(p, 'x'))" in "\n".join(w.lines)
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert action_text(parse_effect("when won: take chosen 2 cards from discard").actions[0], cx) == \
        "take 2 cards of your choice from the discard pile"


def test_advance_track_with_and_without_an_amount_are_two_specs():
    """A strength track (rules/idavoll: "whenever won: advance track"; "whenever coin-bettered:
    advance track by amount"): without an amount the token moves one notch, with one by that many
    (runtime `advance_track`: 0 or less moves nothing, so the guard tests the amount, and a token at
    the last notch stays there, so both test that it is short of it); both leave the card's notch, and
    the text counts the notches."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    bare, by = (parse_effect(f"whenever won: {text}").actions[0] for text in ("advance track", "advance track by amount"))
    assert bare == ir.Act("advance") and isinstance(by, ir.Act) and by.name == "advance-by"
    assert by.arg("steps") == ir.Var("amount")
    assert _can_act(bare, PyScope()) == "g.can_advance(card)"
    assert _can_act(by, PyScope()) == "((ev.amount > 0) and g.can_advance(card))"
    for a, call in ((bare, "g.advance_track(card, 1)"), (by, "g.advance_track(card, ev.amount)")):
        w = Writer()
        action(w, a, PyScope(), lambda pos: "<rules>")
        assert call in "\n".join(w.lines)
        assert "notch" in ACTION_SPECS[a.name].marks
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert [action_text(parse_effect(f"whenever won: {text}").actions[0], cx) for text in
            ("advance track", "advance track by 2")] == ["move this card's token one notch along its track",
                                                         "move this card's token 2 notches along its track"]


def test_place_under_takes_a_card_operand_read_by_every_stage():
    """README "Effects": a card put under a deck leaves play for that deck, and a card a hero's
    effect names (`place card ID …`) comes from the supply; DESIGN §9 "Where the powers meet": a power
    is offered only when each of its actions finds something to act on. `place X under D` parses to
    its spec's card and deck operands, keeps the card's position, is offered while the supply holds
    the card it names, emits the engine's `put_under_deck` (for a card of the supply, only when one
    is left) and reads as its text."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    text = "when taken: place card grid under age 2 deck"
    under = parse_effect(text).actions[0]
    assert isinstance(under, ir.Act) and under.name == "place-under"
    assert under.under() == (ir.CardRef("grid"), ir.Deck(2)) and under.arg("moved").pos == text.index("grid")
    assert _can_act(under, PyScope()) == "g.in_supply('grid')"  # (offered only while one is left)
    w = Writer()
    action(w, under, PyScope(), lambda pos: "<rules>")
    code = "\n".join(w.lines)
    assert "placed1 = g.supply_card('grid', card)\nif placed1 is not None:\n    g.put_under_deck(placed1, 2)" in code
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert action_text(parse_effect("when taken: place self under current deck").actions[0], cx) == \
        "put this card under the current age's deck"


def test_discarding_cards_is_one_action_spec_read_by_every_stage():
    """003 "Dagda the Explosive": "discard the last Dwarf card of your choosing from two other
    (different) columns in your army" (rules/base/heroes.yaml "discard chosen param(dagda_discards)
    last dwarf of other columns"): the count and the card set
    are the spec's operands; the guard tests the count, then that the set holds a card; the call has
    the player choose the cards, then discards each; the text takes the set's form."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    discard = parse_effect("when recruited: discard chosen param(x) last dwarf of other columns").actions[0]
    assert isinstance(discard, ir.Act) and discard.name == "discard"
    assert discard.cards() == ir.CardSet("dwarf", True) and isinstance(discard.arg("count"), ir.Call)
    assert _can_act(discard, PyScope()) == \
        "((g.param(p, 'x') > 0) and (len(g.last_cards(p, card, 'dwarf', True)) > 0))"
    w = Writer()
    action(w, discard, PyScope(), lambda pos: "<rules>")
    assert "\n".join(w.lines[1:]) == (
        "picked1 = yield from g.choose_cards(p, g.last_cards(p, card, 'dwarf', True), g.param(p, 'x'), 'discard')\n"
        "for each2 in g.each_card(picked1):\n"
        "    yield from g.discard_card(p, each2)")
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert [action_text(parse_effect(f"when recruited: {text}").actions[0], cx) for text in
            ("discard chosen 2 last dwarf of other columns", "discard chosen 1 non-hero in column warrior")] == \
        ["discard the last dwarf card of 2 of your other columns, one per column",
         "discard a non-hero card of your choice from your Warrior column"]


def test_transform_is_one_action_spec_read_by_every_stage():
    """003 "Royal Offering": "increase the value of one of your coins by 3 or 5"; rules/base
    "transform chosen coin by 3": the coins and the amount are the spec's operands; by 0 or less no
    coin is chosen (the guard and the body test the amount first); the player is told the amount
    when it is written as a number; the coin it leaves is kept for a later `other coin`; several
    coins read as transformed one after another."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    by_three = parse_effect("when taken: transform chosen coin by 3").actions[0]
    assert isinstance(by_three, ir.Act) and by_three.name == "transform"
    assert by_three.arg("coin") == ir.CoinSel("chosen") and by_three.arg("amount") == ir.Num(3)
    assert _can_act(by_three, PyScope()) == "bool(g.transformable_coins(p, None))"

    def code(a: ir.Action, sc: PyScope) -> str:
        w = Writer()
        action(w, a, sc, lambda pos: "<rules>")
        return "\n".join(w.lines[1:])

    assert code(by_three, PyScope()) == (
        "coin1 = yield from g.choose_coin(p, g.transformable_coins(p, None), 'transform a coin by 3')\n"
        "if coin1 is not None:\n"
        "    yield from g.transform(p, coin1, 3)")
    computed = parse_effect("when taken: transform other coin by param(x)").actions[0]
    assert code(computed, PyScope(chosen_coins="chosen")) == (
        "if (g.param(p, 'x') > 0):\n"
        "    coin1 = yield from g.choose_coin(p, g.transformable_coins(p, None, tuple(chosen)), 'transform a coin')\n"
        "    if coin1 is not None:\n"
        "        chosen.append((yield from g.transform(p, coin1, g.param(p, 'x'))))")
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert [action_text(parse_effect(f"when taken: {text}").actions[0], cx) for text in
            ("transform chosen coin by 3", "transform each coin by 2")] == [
        "add 3 to one of your coins (transforming it)",
        "add 2 to each of your coins in board order (taverns, then pouch), transforming them one after another"]


def test_transform_in_chosen_order_takes_several_amounts_as_one_operand():
    """000 "Vidofnir & Vedrfolnir: Add 2 and 3 to each of the coins in your pouch" (rules/thingvellir "transform coins in pouch by 2, 3 in chosen order"): the amounts are one
    operand, checked each as an amount; the power acts unless every amount is 0 or less and needs a
    coin of the pouch; the text lists the amounts."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    text = "when taken: transform coins in pouch by 2, param(x) in chosen order"
    spread = parse_effect(text).actions[0]
    assert isinstance(spread, ir.Act) and spread.name == "transform-spread"
    amounts = spread.arg("amounts")
    assert isinstance(amounts, ir.Amounts) and amounts.items[0] == ir.Num(2) and amounts.pos == text.index("2,")
    assert _can_act(spread, PyScope()) == "bool(g.transformable_coins(p, 'pouch'))"  # (2 is at least 1)
    computed = parse_effect("when taken: transform coins in pouch by param(x), 0 in chosen order").actions[0]
    assert _can_act(computed, PyScope()) == \
        "((max(g.param(p, 'x'), 0, 0) > 0) and bool(g.transformable_coins(p, 'pouch')))"
    w = Writer()
    action(w, spread, PyScope(), lambda pos: "<rules>")
    assert w.lines[1:] == ["yield from g.transform_spread(p, 'pouch', (2, g.param(p, 'x'),))"]
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert action_text(parse_effect("when taken: transform coins in pouch by 2, 3 in chosen order").actions[0], cx) \
        .startswith("add 2 and 3 to the coins in your pouch, each amount to a different coin")


def test_placing_a_card_takes_a_card_and_a_place_operand_read_by_every_stage():
    """000 "Olwyn: Put his two doubles in your army" (rules/thingvellir "place card olwyn-double in
    chosen column; place card olwyn-double in another chosen column"): the card and
    its place are the spec's operands; a card of the supply is offered only while one is left; the
    column is chosen for that card, and `another chosen column` leaves out those chosen before, so
    that with none left nothing is placed; the text names the card and the place."""
    from nidavellir.compiler import ir
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs.text import action_text, context_of
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, Writer, _can_act, action

    again = parse_effect("when recruited: place card grid in another chosen column").actions[0]
    assert isinstance(again, ir.Act) and again.name == "place"
    assert again.placed() == (ir.CardRef("grid"), ir.Place("another"))
    assert _can_act(again, PyScope()) == "g.in_supply('grid')"
    w = Writer()
    action(w, again, PyScope(chosen_columns="chosen"), lambda pos: "<rules>")
    assert "\n".join(w.lines[1:]) == (
        "if g.column_options('grid', exclude=tuple(chosen)):\n"
        "    placed1 = g.supply_card('grid', card)\n"
        "    if placed1 is not None:\n"
        "        dest2 = yield from g.choose_column(p, placed1, exclude=tuple(chosen))\n"
        "        chosen.append(dest2)\n"
        "        yield from g.place(p, placed1, dest2)")
    own = parse_effect("when taken: move self to command zone").actions[0]
    assert _can_act(own, PyScope()) is None
    cx = context_of(compile_specs(layer_specs(())).ruleset, Catalog.load("en"))
    assert action_text(parse_effect("when taken: place self in column miner").actions[0], cx) == \
        "place this card in your Miner column"
