"""Layer merging and the lists of a game's structure (issue 17 audit): a list whose items must be
unique refuses a repeat, located at it; a flow step's keys that exclude each other are refused
together, not one silently ignored; a layer can remove a deck (so it can drop an age); and an effect
that fails to compile brings no warning about what it would have read.

DESIGN §6: "Every problem in rules input … conflicting layers — is reported as
`path:line:col: error: message`, followed by the source line and a caret under the column, with a
hint where one helps"; §4: "a later layer may add, remove or override entries by id, and may insert
steps into the flow"."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checking import ROOT, expect, failed, find, run_check, write
from nidavellir.rulesets import load_rules
from nidavellir.runtime.invariants import violations
from nidavellir.runtime.position import score_position
from nidavellir.session import result_of
from test_games import play

SCHEMA = json.loads((ROOT / "rules" / "schemas" / "layer.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # (shipped files are shown as rules/…: their lines are read from here)


def variant(tmp_path: Path, body: str, name: str = "v.yaml") -> Path:
    return write(tmp_path / name, "layer: {id: v, name: V}\n" + body)


def unique_lists(node: Any, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The schema paths (properties only; `*` for a table's values, `[]` for a list's items) of
    every list the schema says holds unique items."""
    found: set[tuple[str, ...]] = set()
    if isinstance(node, dict):
        if node.get("uniqueItems"):
            found.add(path)
        for key, sub in node.get("properties", {}).items():
            found |= unique_lists(sub, path + (key,))
        if isinstance(node.get("additionalProperties"), dict):
            found |= unique_lists(node["additionalProperties"], path + ("*",))
        if isinstance(node.get("items"), dict):
            found |= unique_lists(node["items"], path + ("[]",))
    return found


# Every list of a layer whose items must be unique: (schema path, a layer repeating an item there,
# the text of the repeat as written, the list's name in the message).
REPEATS = [
    (("game", "ages"), "game:\n  ages: [1, 2, 2]\n", "2]", "ages"),
    (("game", "taverns", "[]", "draws", "[]", "ages"),
     "game:\n  taverns:\n    - {id: laughing-goblin, draws: [{zone: z, ages: [1, 1], turns: [1]}]}\n", "1], turns",
     "ages"),
    (("game", "taverns", "[]", "draws", "[]", "turns"),
     "game:\n  taverns:\n    - {id: laughing-goblin, draws: [{zone: z, turns: [1, 2, 1]}]}\n", "1]}", "turns"),
    (("game", "gems", "by_players", "*"), "game:\n  gems:\n    by_players: {3: [4, 5, 4]}\n", "4]}",
     "by_players.3"),
    (("game", "pick_sources", "[]", "discard_players"),
     "game:\n  pick_sources:\n    - {id: tavern, discard_players: [2, 2]}\n", "2]}", "discard_players"),
    (("game", "flow", "before_scoring"), "game:\n  flow:\n    before_scoring: [game-end, game-end]\n", "game-end]",
     "before_scoring"),
    (("game", "flow", "turn", "[]", "ages"), "game:\n  flow:\n    turn:\n      - {id: bids, ages: [1, 1]}\n", "1]}",
     "ages"),
    (("game", "flow", "age_end", "[]", "ages"),
     "game:\n  flow:\n    age_end:\n      - {id: final-scoring, ages: [2, 2]}\n", "2]}", "ages"),
    (("game", "flow", "tavern", "[]", "ages"), "game:\n  flow:\n    tavern:\n      - {id: picks, ages: [2, 2]}\n",
     "2]}", "ages"),
    (("remove",), "remove: [uline, skaa, uline]\n", "uline]", "remove"),
    (("requires",), "requires: [idavoll, thingvellir, idavoll]\n", "idavoll]", "requires"),
]


def test_every_list_whose_items_are_unique_is_covered():
    """The class, not the examples: the lists below are exactly those the schema marks unique, so a
    list that gains the mark gains a test."""
    assert {path for path, *_ in REPEATS} == unique_lists(SCHEMA)


@pytest.mark.parametrize("path, body, repeat, name", REPEATS, ids=lambda x: ".".join(x) if isinstance(x, tuple)
                         else None)
def test_a_repeated_item_is_refused_at_the_repeat_naming_the_first(capsys, tmp_path, path, body, repeat, name):
    """Audit: "`ages: [2, 2]` in a step is accepted — refuse duplicates in every list of the
    structure whose members must be unique … located" (the repeat's line and column, the first's
    place in the message, the list's meaning in the hint)."""
    v = variant(tmp_path, body)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(v, repeat)
    value = repeat.rstrip("]}, turns")
    text = v.read_text().splitlines()[line - 1]
    first = text.index(value, text.index("[")) + 1
    head = f"{v}:{line}:{col}: error: `{value}` is listed twice in `{name}` (first at {v}:{line}:{first})"
    assert head in err.splitlines(), err
    assert "each" in err.splitlines()[err.splitlines().index(head) + 3]  # the hint says why: each once


def test_a_card_listed_twice_in_one_layers_deck_is_refused(capsys, tmp_path):
    """A deck's cards are keyed by card (and `min_players`): the second entry of one layer would
    silently replace the first's count. Within one entry and across two entries of the same age."""
    v = variant(tmp_path, "decks:\n  - age: 1\n    cards:\n      - {card: hunter, count: 2}\n"
                          "      - {card: hunter, count: 3}\n  - age: 1\n    cards: [{card: hunter, count: 4}]\n"
                          "  - age: 1\n    cards: [{card: hunter, count: 1, min_players: 5}]\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    first = f"{v}:5:16"
    expect(err, v, 6, 16, f"`hunter` is listed twice in the age 1 deck in layer `v` (first at {first})",
           "give each card of a deck once, with its `count`")
    expect(err, v, 8, 20, f"`hunter` is listed twice in the age 1 deck in layer `v` (first at {first})",
           "give each card of a deck once, with its `count`")  # (min_players 5: another entry, accepted)


def test_a_later_layer_still_overrides_a_deck_entry(tmp_path):
    """§4 "a later layer may … override entries": the same card in a later layer's deck sets its count."""
    v = variant(tmp_path, "decks:\n  - age: 1\n    cards: [{card: hunter, count: 9}]\n")
    rules = load_rules((), (str(v),))
    assert ("hunter", 9, 0) in {(e.card, e.count, e.min_players) for e in rules.ruleset.decks[1]}


def test_repeats_across_the_files_of_one_layer_folder_are_refused(capsys, tmp_path):
    """One layer gives each entry once, whichever of its files: a removal or a deck card in two files."""
    folder = tmp_path / "layer"
    folder.mkdir()
    a = write(folder / "a.yaml", "layer: {id: two-files, name: Two files}\nremove: [uline]\n"
                                 "decks:\n  - age: 1\n    cards: [{card: hunter, count: 2}]\n")
    b = write(folder / "b.yaml", "remove: [uline]\ndecks:\n  - age: 1\n    cards: [{card: hunter, count: 3}]\n")
    code, out, err = run_check(capsys, "--expansions", "thingvellir", str(folder))
    failed(code, out, err, 2)
    expect(err, b, 1, 10, f"`uline` is removed twice in layer `two-files` (first at {a}:2:10)", "remove each id once")
    expect(err, b, 4, 20, f"`hunter` is listed twice in the age 1 deck in layer `two-files` (first at {a}:5:20)",
           "give each card of a deck once, with its `count`")


def test_a_special_gem_given_twice_is_refused(capsys, tmp_path):
    """Gems are one of a kind (003 "Gems"): two special gems of one value would be one gem scored twice."""
    v = variant(tmp_path, "game:\n  gems:\n    special: [{value: 6, points: 3}, {value: 6, points: 5}]\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    assert f"{v}:4:14: error: special gem 6 is given twice (entries 1 and 2): each gem is one of a kind" in err


def test_two_draws_of_one_tavern_in_the_same_turn_are_refused(capsys, tmp_path):
    """runtime/flow.py enter_dwarves: a tavern is filled from one deck a turn (the last matching
    draw): a second draw that names a turn of an age the first names would leave the first unread."""
    v = variant(tmp_path, "game:\n  taverns:\n    - id: dancing-dragon\n      draws:\n"
                          "        - {zone: mythology, ages: [1], turns: [1, 2, 3]}\n"
                          "        - {zone: mythology, turns: [3, 4]}\n")
    code, out, err = run_check(capsys, "--expansions", "idavoll", str(v))
    failed(code, out, err, 1)
    expect(err, v, 7, 11, "the tavern `dancing-dragon` is filled twice in turn 3 of Age 1: by this draw and by "
                          "draw 1 of its `draws`", "a tavern is filled from one deck a turn: give each turn to one draw")
    ok = variant(tmp_path, "game:\n  taverns:\n    - id: dancing-dragon\n      draws:\n"
                           "        - {zone: mythology, ages: [1], turns: [1, 2, 3]}\n"
                           "        - {zone: mythology, ages: [2], turns: [1]}\n", "ok.yaml")
    taverns = load_rules(("idavoll",), (str(ok),)).ruleset.taverns
    assert [d.ages for t in taverns if t.id == "dancing-dragon" for d in t.draws] == [(1,), (2,)]


# -- a step's keys that exclude each other -------------------------------------------------------

@pytest.mark.parametrize("step, key, message, hint", [
    ("{id: xx, window: xx, before: bids, after: taverns}", "after", "`before` and `after` cannot be given together",
     "a step goes `before:` one step or `after:` one, not both"),
    ("{id: xx, after: taverns, window: xx, before: bids}", "before", "`before` and `after` cannot be given together",
     "a step goes `before:` one step or `after:` one, not both"),
    ("{id: bids, before: taverns, after: enter-dwarves}", "after", "`before` and `after` cannot be given together",
     "a step goes `before:` one step or `after:` one, not both"),
    ("{id: xx, do: bids, window: xx}", "window", "`do` and `window` cannot be given together",
     "a step does a runtime step (`do`) or opens a window (`window`), not both"),
])
def test_keys_of_a_step_that_exclude_each_other_are_refused(capsys, tmp_path, step, key, message, hint):
    """Audit: "a step with both `before:` and `after:` silently ignores `after`" (before-and-after.yaml
    placed `xx` before `bids`): refused, located at the key given second, new step or moved one."""
    v = variant(tmp_path, f"game:\n  flow:\n    turn:\n      - {step}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(v, f"{key}:")
    expect(err, v, line, col, message, hint)


def test_a_removed_step_takes_no_other_key(capsys, tmp_path):
    """`remove: true` removes the step: a `before:` (or any key) beside it would be ignored; refused at it."""
    v = variant(tmp_path, "game:\n  flow:\n    turn:\n      - {id: bids, remove: true, before: taverns, do: bids}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    for key in ("before", "do"):
        line, col = find(v, f"{key}:")
        expect(err, v, line, col, f"`remove: true` removes the flow step `bids`: its `{key}` would be ignored",
               "remove the step, or leave out `remove`")


# -- removing a deck, and ages with a gap ---------------------------------------------------------

GAP = """\
game:
  ages: [1, 3]
  flow:
    age_end:
      - {id: game-end, ages: [3]}
      - {id: final-scoring, ages: [3]}
decks:
  - {age: 2, remove: true}
  - age: 3
    cards: [{card: warrior:3, count: 6}, {card: hunter, count: 6}, {card: explorer:9, count: 6}]
cards:
  - id: distinction:explorer
    effects:
      - "when won: look at param(explorer_draw) from age 3 deck, take 1, rest shuffled"
      - "when unclaimed: discard top of age 3 deck"
"""


def plays_to_an_end(rules: Any) -> None:
    """Seeded random games at every player count end, keep the invariants, and `score` of the final
    position gives the reported totals (DESIGN §8)."""
    for n in range(rules.min_players, rules.max_players + 1):
        for seed in range(2):
            game = play(n, seed, rules=rules, check_every=25)
            assert game.finished and not violations(game.engine)
            result = result_of(game, seed)
            assert score_position(rules, result["final"])["players"] == result["players"]


def test_a_layer_removes_a_deck_so_an_age_can_be_dropped(tmp_path):
    """Audit: "ages with a gap cannot be written over the base game at all, because the age 2 deck
    cannot be removed — make it possible (a layer can remove a deck)": `{age: 2, remove: true}`
    removes it, every card of it; the game plays Age 1 then Age 3."""
    rules = load_rules((), (str(variant(tmp_path, GAP)),))
    assert rules.ruleset.ages == (1, 3) and set(rules.ruleset.decks) == {1, 3}
    plays_to_an_end(rules)


def test_a_zone_deck_is_removed_by_its_zone_and_age(tmp_path):
    """The same for a zone's deck of an age (Thingvellir's Camp deck): `{zone, age, remove: true}`;
    the Age 2 Camp cards are given again for Age 3."""
    camp2 = list(load_rules(("thingvellir",)).ruleset.zone_decks["camp-deck"][2])
    rules = load_rules(("thingvellir",), (str(variant(tmp_path, _gap_camp(camp2))),))
    assert set(rules.ruleset.zone_decks["camp-deck"]) == {1, 3}
    plays_to_an_end(rules)


def _gap_camp(camp2: list[Any]) -> str:
    cards = "".join(f"      - {{card: \"{e.card}\", count: {e.count}}}\n" for e in camp2)
    decks = f"  - {{zone: camp-deck, age: 2, remove: true}}\n  - zone: camp-deck\n    age: 3\n    cards:\n{cards}"
    steps = "      - {id: final-discards, ages: [3]}\n      - {id: counting, ages: [3]}\n"
    return GAP.replace("decks:\n", steps + "decks:\n" + decks, 1)


@pytest.mark.parametrize("body, key, message, hint", [
    ("decks:\n  - {age: 3, remove: true}\n", "remove", "cannot remove the age 3 deck: no earlier layer gives it",
     "the decks of the ages: ages 1, 2"),
    ("decks:\n  - {age: 1, zone: pile, remove: true}\n", "remove",
     "cannot remove the age 1 deck of `pile`: no earlier layer gives it", None),
    ("decks:\n  - {age: 2, remove: true, cards: [{card: hunter, count: 1}]}\n", "cards",
     "key `cards` is not allowed here", "a deck that is removed (`remove: true`) lists no cards"),
    ("decks:\n  - {age: 2}\n", "age", "missing required key `cards`", None),
])
def test_removing_a_deck_is_checked_and_located(capsys, tmp_path, body, key, message, hint):
    """A removal names a deck an earlier layer gives (else said, with the decks there are); a deck
    removed lists no cards, and a deck not removed lists them."""
    v = variant(tmp_path, body)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(v, "{age:") if key == "age" else find(v, f"{key}:")
    expect(err, v, line, col, message, hint)


def test_the_hint_of_a_deck_of_a_dropped_age_says_how_to_remove_it(capsys, tmp_path):
    """Audit: "or say exactly why not in the error's hint": the base game's Age 2 deck, left by a layer
    that lists ages 1 and 3, is located where it is written, and the hint gives the removal."""
    v = variant(tmp_path, GAP.replace("  - {age: 2, remove: true}\n", ""))
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    line, col = find(ROOT / "rules/base/dwarves.yaml", "age: 2")
    expect(err, "rules/base/dwarves.yaml", line, col + len("age: "), "there is no age 2",
           "ages: 1, 3; the layer that drops Age 2 removes its deck too: `decks: [{age: 2, remove: true}]`")
    # (a deck a layer adds for an age the game does not have gets no such hint)
    code, out, err = run_check(capsys, str(variant(tmp_path, "decks:\n  - age: 4\n    cards: []\n", "w.yaml")))
    assert "there is no age 4" in err and "remove: true" not in err


# -- no knock-on warning from an effect that failed -------------------------------------------------

def test_an_effect_that_fails_brings_no_warning_about_what_it_reads(capsys, tmp_path):
    """Audit: with `ages: [1, 3]` "the errors bring false warnings ('no effect reads `explorer_draw`',
    'no effect reacts to `unclaimed`') because the effects that read them are the ones that failed":
    the errors alone are reported."""
    v = variant(tmp_path, GAP.split("cards:\n  - id: distinction:explorer")[0])
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 2)
    assert "there is no age 2 deck" in err and "warning" not in err


@pytest.mark.parametrize("effect", [
    "when unclaimed: discard top of age 7 deck with param(my_draw)",   # checks fail (no age 7, bad form)
    "when unclaimed: look at param(my_draw) from age 2 deck take",     # does not parse
])
def test_a_failed_effect_counts_as_reading_its_names(capsys, tmp_path, effect):
    """Generally: an effect that does not compile (a check fails, or it does not parse) still counts
    as reading the params and events it names, so no "no effect reads/reacts" warning comes with its
    error; the same param unread by any effect is still warned of."""
    body = ("game:\n  params:\n    my_draw: 2\n  events:\n    unclaimed: no one wins a distinction\ncards:\n"
            "  - id: distinction:explorer\n    effects:\n      - \"when won: gain gem 6\"\n      - \"" + effect + "\"\n")
    v = variant(tmp_path, body)
    code, out, err = run_check(capsys, str(v))
    assert code == 1 and "Traceback" not in err and " error: " in err
    assert "no effect reads the param `my_draw`" not in err and "no effect reacts to the event `unclaimed`" not in err
    unread = variant(tmp_path, "game:\n  params:\n    my_draw: 2\n", "unread.yaml")
    code, out, err = run_check(capsys, str(unread))
    assert "warning: no effect reads the param `my_draw`" in err
