"""The generated code (issue 6, section 2): compound actions nest without rebinding a name, so each
acts for the right player; handlers are named per card and effect, so an edit to one card changes
only that card's lines; the generated module is typed against the engine's interface."""
from __future__ import annotations

import difflib
import re
import textwrap
from pathlib import Path


import pytest
import yaml

from harness import new_engine, pull, run_log, set_coins, shown, values
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.rulesets import load_rules
from nidavellir.runtime.invariants import card_zones, violations
from nidavellir.runtime.rules import Rules

LAYER = """
layer: {id: nest, name: Nesting}
game:
  kinds:
    relic: {enters: command zone}
cards:
"""


def rules_with(tmp_path: Path, cards: str, game: str = "") -> Rules:
    """The base game with the layer's relic kind, `cards` and `game` (YAML under `game:`)."""
    path = tmp_path / "nest.yaml"
    layer = LAYER.replace("game:\n", "game:\n" + textwrap.indent(textwrap.dedent(game).strip("\n") + "\n", "  ")) \
        if game else LAYER
    path.write_text(layer + textwrap.indent(textwrap.dedent(cards).strip("\n"), "  ") + "\n", encoding="utf-8")
    return load_rules((), (str(path),))


def coins_of(e, p):
    return sorted(values(e, e.s.players[p].hand))


def taking(tmp_path, effect, *answers):
    """A 3-player engine where each player holds the basic coins and P1 takes a relic with
    `effect`; returns the engine and the decisions asked."""
    rules = rules_with(tmp_path, f"""
        - id: test-nest
          kind: relic
          effects:
            - "{effect}"
    """)
    e = new_engine(3, rules=rules)
    for p in range(3):
        set_coins(e, p, hand=[0, 2, 3, 4, 5])
    return e, run_log(e.take_card(0, e.new_card("test-nest")), *answers)


def test_each_other_player_inside_each_other_player_then_the_owner_acts(tmp_path):
    """Issue: "nested constructs (`each other player` inside `each other player`, then another action)
    act for the right player". With players 1, 2, 3: each other player (2 and 3) makes each of their
    other players discard their lowest coin — P1 twice, P2 and P3 once — then P1, the owner, once more."""
    e, _ = taking(tmp_path, "when taken: each other player each other player discard lowest coin; discard lowest coin")
    assert coins_of(e, 0) == [0, 5]
    assert coins_of(e, 1) == [0, 3, 4, 5] and coins_of(e, 2) == [0, 3, 4, 5]


def test_each_other_player_then_a_choice_of_the_owner(tmp_path):
    """After `each other player …`, the next action is the owner's again (a choice asked of P1)."""
    e, log = taking(tmp_path, "when taken: each other player discard lowest coin; transform chosen coin by 2", "5@hand")
    assert [d.player for d in log] == [0]
    assert coins_of(e, 0) == [0, 2, 3, 4, 7]
    assert coins_of(e, 1) == [0, 3, 4, 5]


def test_a_card_from_the_supply_then_another_action_then_other_coins(tmp_path):
    """A guarded block (a card of the supply, a chosen coin) closes before the next action; `other
    coin` excludes the coins this effect chose."""
    e, log = taking(tmp_path, "when taken: place card special-blacksmith in column blacksmith; "
                              "transform chosen coin by 1; transform other coin by 1", "5@hand", "4@hand")
    assert "6@hand" not in shown(log[1])          # the coin the first transformation made is excluded
    assert coins_of(e, 0) == [0, 2, 3, 5, 6]
    assert [e.s.cards[c] for c in e.s.players[0].army["blacksmith"]] == ["special-blacksmith"]


def with_relic(tmp_path, *effects, track=None):
    """A 3-player engine of a layer with a special coin 7 (`test-seven`) and a relic with `effects`
    (and a `track`, if given), each player holding coins 0, 2, 4 and 5."""
    card = {"id": "test-nest", "kind": "relic", "effects": list(effects), **({"track": track} if track else {})}
    rules = rules_with(tmp_path, yaml.safe_dump([card], sort_keys=False),
                       game="coins:\n  special:\n    - {id: test-seven, value: 7, name: special coin 7}")
    e = new_engine(3, rules=rules)
    for p in range(3):
        set_coins(e, p, hand=[0, 2, 4, 5])
    return e


def test_other_coin_excludes_the_coin_an_exchange_put_in_the_chosen_coins_place(tmp_path):
    """README, the effect DSL: `other coin` is "one this effect did not choose yet"; as a coin
    transformed stays chosen in its new form (the test above), so does a coin exchanged: the special
    coin that took its place is not offered again, the coins it did not choose are."""
    e = with_relic(tmp_path, "when taken: exchange chosen coin for coin test-seven; transform other coin by 1")
    log = run_log(e.take_card(0, e.new_card("test-nest")), "5@hand", "4@hand")
    assert shown(log[1]) == ["2@hand", "4@hand"]  # (not 7@hand: the exchanged coin's new form)
    assert coins_of(e, 0) == [0, 2, 5, 7]


def test_an_exchange_for_a_special_coin_already_handed_out_is_neither_offered_nor_spent(tmp_path):
    """README, the effect DSL: "Such a power is offered only when each of its actions finds something
    to act on […]: one that would do nothing is neither asked nor spent." An exchange acts only while
    its special coin is there: the first relic's power hands it out, so a second relic's is not asked
    (its power is still unused), and P2's coins stay as they were."""
    e = with_relic(tmp_path, "may once per game when taken: exchange chosen coin for coin test-seven")
    first = run_log(e.take_card(0, e.new_card("test-nest")), True, "5@hand")
    assert [d.kind for d in first] == ["use", "coin"] and coins_of(e, 0) == [0, 2, 4, 7]
    second = e.new_card("test-nest")
    assert run_log(e.take_card(1, second)) == []
    assert coins_of(e, 1) == [0, 2, 4, 5] and "used" not in e.s.marks.get(second, {})


def test_a_gem_already_handed_out_is_not_offered_to_gain(tmp_path):
    """README, the effect DSL: a power "is offered only when each of its actions finds something to
    act on": `gain gem 6` acts while the special gem 6 is there (003 "King's Hand": one gem 6), so
    after the first relic's power took it, the second relic's is not asked."""
    e = with_relic(tmp_path, "may once per game when taken: gain gem 6")
    assert [d.kind for d in run_log(e.take_card(0, e.new_card("test-nest")), True)] == ["use"]
    gem = e.s.players[1].gem
    assert e.s.players[0].gem == 6 and run_log(e.take_card(1, e.new_card("test-nest"))) == []
    assert e.s.players[1].gem == gem


def test_an_advance_at_the_tracks_last_notch_and_a_removal_from_no_tokens_are_not_offered(tmp_path):
    """README: "0 or less notches do not move the token (a track only advances), tokens are not added
    or removed (a card never holds fewer than 0)", and a power that would do nothing "is neither
    asked nor spent". The first advance moves the token to the last notch and is asked; the second
    could not move it, and the removal finds no token: neither is asked. With a token on it, the
    removal is asked."""
    effects = ("may when taken: advance track", "may when taken: advance track by 2", "may when taken: remove 1 token")
    e = with_relic(tmp_path, *effects, track=[0, 4])
    card = e.new_card("test-nest")
    assert [d.kind for d in run_log(e.take_card(0, card), True)] == ["use"]
    assert e.mark(card, "notch") == 1 and e.tokens(card) == 0
    e = with_relic(tmp_path, "when taken: add 1 token", "may when taken: remove 1 token")
    card = e.new_card("test-nest")
    assert [d.kind for d in run_log(e.take_card(0, card), True)] == ["use"] and e.tokens(card) == 0


def test_each_other_player_is_offered_when_one_of_them_can_act(tmp_path):
    """README, the effect DSL: a power "is offered only when each of its actions finds something to
    act on"; `each other player` acts for each of them as they can, so it is offered when one can.
    With no transformable coin among P2's and P3's (003 "Trading Coins": a trading coin is never
    transformed), a discard of their lowest coin is not asked, nor is the power spent; once P3 holds
    a 2, it is, and P3 alone discards it."""
    e = with_relic(tmp_path, "may once per game when taken: each other player discard lowest coin")
    for q in (1, 2):
        set_coins(e, q, hand=[0])
    first = e.new_card("test-nest")
    assert run_log(e.take_card(0, first)) == [] and "used" not in e.s.marks.get(first, {})
    set_coins(e, 2, hand=[0, 2])
    assert [d.kind for d in run_log(e.take_card(0, e.new_card("test-nest")), True)] == ["use"]
    assert coins_of(e, 1) == [0] and coins_of(e, 2) == [0]


def test_other_coin_counts_the_coins_the_effects_earlier_actions_took(tmp_path):
    """README, the effect DSL: a power "is offered only when each of its actions finds something to
    act on", and `other coin` is "one this effect did not choose yet". With one transformable coin
    in the pouch (003 "Trading Coins": the trading coin never transforms), the first action takes it
    and `other coin in pouch` would find none: the power is not asked. With two it is, and each
    action transforms one of them (the second, left one coin to choose, is not asked)."""
    power = "may when taken: transform chosen coin in pouch by 2; transform other coin in pouch by 1"
    e = with_relic(tmp_path, power)
    set_coins(e, 0, hand=[2, 4], pouch=[0, 5])
    assert run_log(e.take_card(0, e.new_card("test-nest"))) == []
    assert sorted(values(e, e.s.players[0].pouch)) == [0, 5]
    set_coins(e, 0, hand=[2], pouch=[0, 4, 5])
    log = run_log(e.take_card(0, e.new_card("test-nest")), True, "4@pouch")
    assert [d.kind for d in log] == ["use", "coin"]
    assert sorted(values(e, e.s.players[0].pouch)) == [0, 6, 6]  # (4 + 2, then the 5 + 1)


def test_other_coins_guard_counts_only_the_earlier_coins_among_its_own():
    """`other coin` is "one this effect did not choose yet" (README): an earlier choice among any
    coins may take one outside the pouch, so `other coin in pouch` does not count it; one in the
    pouch counts for `other coin`; `each coin in pouch` takes all of the pouch's; the trading coin
    (never transformable) takes none of them; another player's choices are theirs."""
    from nidavellir.compiler.dsl import parse_effect
    from nidavellir.compiler.emit import PyScope, _can_act_all

    def guard(actions):
        return _can_act_all(parse_effect(f"may when taken: {actions}").actions, PyScope())

    anywhere, pouch = "bool(g.transformable_coins(p, None))", "bool(g.transformable_coins(p, 'pouch'))"
    assert guard("transform chosen coin by 2; transform other coin in pouch by 1") == f"{anywhere} and {pouch}"
    assert guard("transform chosen coin in pouch by 2; discard other coin") == \
        f"{pouch} and (len(g.transformable_coins(p, None)) > 1)"
    assert guard("transform each coin in pouch by 2; transform other coin by 1") == \
        f"{pouch} and (len(g.transformable_coins(p, None)) > len(g.transformable_coins(p, 'pouch')))"
    assert guard("exchange trading coin for coin special-5; transform other coin by 1").endswith(f" and {anywhere}")
    assert guard("transform chosen coin by 2; each other player transform other coin by 1") == \
        f"{anywhere} and any(bool(g.transformable_coins(other, None)) for other in g.other_players(p))"


def test_nested_handlers_never_rebind_a_parameter(tmp_path):
    """Code generation uses fresh temporaries and never rebinds a parameter (`g`, `p`, `card`, `ev`)."""
    path = tmp_path / "nest.yaml"
    path.write_text(LAYER + "  - id: test-nest\n    kind: relic\n    effects:\n      - \"when taken: each other "
                    "player each other player discard chosen 1 last dwarf of any columns; transform chosen coin "
                    "by 1; each other player transform chosen coin by 2\"\n", encoding="utf-8")
    source = compile_specs(layer_specs((), (str(path),))).source
    body = source.split("def _test_nest_0(")[1].split("\n\n")[0]
    assert not re.search(r"^\s*(p|card|ev|g)\s*=|for (p|card|ev|g) in", body, re.M), body


def _compiled(tmp_path: Path, name: str, effects: list[str]) -> str:
    (tmp_path / name).mkdir()
    path = tmp_path / name / "v.yaml"
    lines = "".join(f'      - "{e}"\n' for e in effects)
    path.write_text(f"layer: {{id: v, name: V}}\ncards:\n  - id: grid\n    effects:\n{lines}", encoding="utf-8")
    source = compile_specs(layer_specs((), (str(path),))).source
    return source.replace(str(tmp_path / name), "TMP")


def test_adding_an_effect_to_one_card_changes_only_that_cards_lines(tmp_path):
    """Issue: "Handlers are named per card and effect (stable across unrelated edits: adding one
    effect to one card changes only that card's lines in generated/)"."""
    before = _compiled(tmp_path, "a", ["when recruited: transform chosen coin by 7"])
    after = _compiled(tmp_path, "b", ["when recruited: transform chosen coin by 7",
                                      "when recruited: gain gem 6"])
    old, new = before.splitlines(), after.splitlines()
    grid = [i for i, line in enumerate(new) if line.startswith("# -- card grid ")][0]
    end = next(i for i in range(grid + 1, len(new)) if new[i].startswith("# -- card "))
    changed = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            changed.extend(range(j1, max(j2, j1 + 1)))
    outside = [new[j] for j in changed if not (grid <= j < end) and not new[j].startswith("CONTENT_HASH")]
    assert not outside, outside


def test_generated_names_do_not_depend_on_other_cards(tmp_path):
    """A handler's name is its card's id and the effect's index: `_grid_0`, `_distinction__miner_0`."""
    source = _compiled(tmp_path, "a", ["when recruited: transform chosen coin by 7"])
    assert "def _grid_0(" in source and "def _distinction__miner_0(" in source
    assert "def _class_warrior(" in source


def test_another_chosen_column_with_every_column_chosen_places_nothing(tmp_path):
    """README "Places": `another chosen column` is a column not chosen before in the effect. A card
    that can stand only in the miner column, placed in a chosen column and then in another: the
    second placement has no column left, and places nothing — no question without options is asked
    (found by tests/test_effects_property.py: a decision with no options)."""
    rules = rules_with(tmp_path, """
        - {id: test-nest, kind: relic, effects: ["when taken: place card test-one in chosen column; place card test-one in another chosen column"]}
        - {id: test-one, kind: relic, copies: 2, ranks: {miner: [1]}}
    """)
    e = new_engine(3, rules=rules)
    assert run_log(e.take_card(0, e.new_card("test-nest"))) == []  # (a choice of one column is not asked)
    assert [e.s.cards[c] for c in e.s.players[0].army["miner"]] == ["test-one"]
    assert e.s.cards.count("test-one") == 2 and e.in_supply("test-one")  # the second stays in the supply


def test_each_other_player_chooses_columns_of_their_own(tmp_path):
    """`each other player` acts for each of them in turn: `another chosen column` excludes the columns
    that player chose, not those an earlier player chose for their own army. Each other player places
    a card that stands in the miner or the hunter column: both choose between the two."""
    rules = rules_with(tmp_path, """
        - {id: test-nest, kind: relic, effects: ["when taken: each other player place card test-one in another chosen column"]}
        - {id: test-one, kind: relic, copies: 2, ranks: {miner: [1], hunter: [1]}}
    """)
    e = new_engine(3, rules=rules)
    log = run_log(e.take_card(0, e.new_card("test-nest")), "miner", "miner")
    assert [d.player for d in log] == [1, 2] and all(sorted(d.options) == ["hunter", "miner"] for d in log)
    assert [[e.s.cards[c] for c in e.s.players[p].army["miner"]] for p in (1, 2)] == [["test-one"], ["test-one"]]


def test_a_card_of_the_supply_put_under_a_deck_lies_at_its_bottom_while_one_is_left(tmp_path):
    """README "Effects": a card an effect names (`place card ID …`) comes from the supply, and a card
    put under a deck lies at its bottom. The relic puts its named card under the Age 2 deck each time
    it is taken: the one copy of the supply goes there first; the second time none is left, and
    nothing moves."""
    rules = rules_with(tmp_path, """
        - {id: test-nest, kind: relic, copies: 2, effects: ["when taken: place card test-one under age 2 deck"]}
        - {id: test-one, kind: relic}
    """)
    e = new_engine(3, rules=rules)
    below = len(e.s.decks[2])
    assert e.in_supply("test-one")
    run_log(e.take_card(0, pull(e, "test-nest")))
    assert e.s.cards[e.s.decks[2][0]] == "test-one" and len(e.s.decks[2]) == below + 1
    assert not e.in_supply("test-one")
    run_log(e.take_card(1, pull(e, "test-nest")))
    assert len(e.s.decks[2]) == below + 1 and not violations(e)


@pytest.mark.parametrize("effect, lands", [
    ("when taken: each other player place self under age 2 deck", "deck:2"),
    ("when taken: place self under current deck; place self in column warrior", "p0:army:warrior"),
    ("when taken: place self under current deck; place self under age 2 deck", "deck:2"),
])
def test_a_card_moved_again_leaves_where_the_first_move_put_it(tmp_path, effect, lands):
    """Every card is in exactly one place (DESIGN §10): an effect that moves its card once and then
    again (for each other player, or a second action) takes it from where the first move put it — a
    deck — never leaving a copy there (found by tests/test_effects_property.py: one card twice in
    the Age 2 deck). A card put under a deck lies at its bottom."""
    e = new_engine(3, rules=rules_with(tmp_path, f"""
        - {{id: test-nest, kind: relic, effects: ["{effect}"]}}
    """))
    card = pull(e, "test-nest")  # (from the supply)
    run_log(e.take_card(0, card))
    assert [name for name, cards in card_zones(e).items() for c in cards if c == card] == [lands]
    assert lands != "deck:2" or e.s.decks[2][0] == card
    assert not violations(e)
