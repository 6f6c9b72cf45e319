"""`nidavellir score` and the position format (DESIGN §8): what a position may hold, checked against
the rules data, every problem reported and located; what `score` does not judge; never a traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from nidavellir.cli import main
from nidavellir.rulesets import load_rules
from nidavellir.runtime.position import PositionError, engine_from_position, position_of
from nidavellir.runtime.position_check import check_position, coin_supply
from nidavellir.runtime.scoring import final_scores

ROOT = Path(__file__).resolve().parent.parent
MECHANICS = str(ROOT / "tests" / "layers" / "mechanics.yaml")
BASE = load_rules()


def score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path: Path, text: str, name: str = "pos.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def two(first: str, second: str = "  - name: Bo\n    coins: [0]\n") -> str:
    """A position of two players (the rules play with 2 to 5)."""
    return "players:\n" + first + second


def errors(err: str) -> list[str]:
    """The `path:line:col: error: message` lines of stderr, without the path."""
    return [line.split(": ", 1)[1] if line.count(":") >= 3 else line
            for line in err.splitlines() if ": error: " in line]


# -- every problem of the file, each located -----------------------------------------------------

def test_every_problem_of_a_file_is_reported_and_located(capsys, tmp_path):
    """Issue: "every problem of a file is reported, each located, all of them (not only the first)";
    "an unknown army column — located at the key, not the list"; issue 17 §3: a state key the card's
    rules do not give it is refused at the key (Dwerg chooses no class), its value not judged."""
    path = write(tmp_path, two(
        "  - name: Ana\n"                                       # 2
        "    gem: 9\n"                                          # 3
        "    coins: [0, 1]\n"                                   # 4
        "    army:\n"                                           # 5
        "      warior: [warrior:3]\n"                           # 6
        "      hunter: [hunter, huntr]\n"                       # 7
        "    command_zone: [skaa, {card: dwerg, class: minr}]\n"))  # 8
    code, out, err = score(capsys, path)
    assert code == 1 and out == ""
    assert f"{path}:3:10: error: no gem 9 in the game" in err
    assert f"{path}:4:16: error: no coin of value 1 in the game" in err
    assert f"{path}:6:7: error: unknown army column `warior`" in err           # the key, column 7
    assert f"{path}:7:24: error: unknown card `huntr`" in err
    assert f"{path}:8:40: error: `dwerg` chooses no class, so no `class`" in err
    assert "did you mean `warrior`?" in err and "did you mean `hunter`?" in err and "minr" not in errors(err)[-1]
    assert len(errors(err)) == 5
    assert "Traceback" not in err


def test_schema_and_rules_problems_are_reported_together(capsys, tmp_path):
    """Issue: "every problem of a file is reported": a value of the wrong type does not hide the
    problems the rules find elsewhere in the file."""
    path = write(tmp_path, two("  - name: Ana\n    coins: [0, two]\n    command_zone: [nobody]\n"))
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:3:16: error: expected integer, got string `two`" in err
    assert f"{path}:4:20: error: unknown card `nobody`" in err


def test_unknown_card_has_a_did_you_mean_hint(capsys, tmp_path):
    """Issue: "unknown card (with a did-you-mean hint)"."""
    path = write(tmp_path, two("  - name: Ana\n    coins: [0]\n    command_zone: [Astrid]\n"))
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:4:20: error: unknown card `Astrid`" in err
    assert "hint: did you mean `astrid`?" in err


def test_copies_are_counted_over_the_whole_position(capsys, tmp_path):
    """Issue: "more copies of a card than the game holds (counted over the whole position, for the
    position's player count)": Skaa once in each of two command zones is one too many."""
    path = write(tmp_path, two("  - name: Ana\n    coins: [0]\n    command_zone: [skaa]\n",
                               "  - name: Bo\n    coins: [0]\n    command_zone: [skaa]\n"))
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:7:20: error: more copies of `skaa` than the game holds (1): 2 in this position" in err


def test_copies_depend_on_the_player_count(capsys, tmp_path):
    """Issue: "for the position's player count": `explorer:12` is only in the five-player deck."""
    card = "  - name: Ana\n    coins: [0]\n    army: {explorer: [explorer:12]}\n"
    others = "".join(f"  - name: P{i}\n    coins: [0]\n" for i in range(2, 6))
    two_players = write(tmp_path, "players:\n" + card + "  - name: P2\n    coins: [0]\n", "two.yaml")
    five_players = write(tmp_path, "players:\n" + card + others, "five.yaml")
    code, _, err = score(capsys, two_players)
    assert code == 1 and "`explorer:12` is not in the game with 2 players" in err
    assert "it is with 5 or more players" in err
    code, out, err = score(capsys, five_players, "--json")
    assert code == 0, err
    assert json.loads(out)["players"][0]["breakdown"]["explorer"] == 12


def test_a_card_of_a_box_not_listed_is_named_with_its_box():
    """DESIGN §8: "a card of a box that is not listed" is refused, naming the box that has it (the
    mechanics test layer stands in for an expansion box)."""
    every = load_rules((), (MECHANICS,))

    def box_of(cid: str) -> str | None:
        d = every.cards.get(cid)
        return d.layers[0] if d is not None and cid not in BASE.cards else None

    data = {"players": [{"name": "A", "coins": [0], "command_zone": ["test-track", "nobody"]},
                        {"name": "B", "coins": [0]}]}
    problems = check_position(BASE, data, box_of)
    assert [(p.message, p.path, p.hint) for p in problems] == [
        ("`test-track` is a card of `mechanics`, which the position's `expansions` does not list",
         ("players", 0, "command_zone", 0), "add `mechanics` to `expansions`"),
        ("unknown card `nobody`", ("players", 0, "command_zone", 1), None),
    ]


def test_an_unknown_expansion_is_located_in_expansions(capsys, tmp_path):
    """DESIGN §8: "the boxes come from each position's `expansions`": a box that is not one of the
    expansions is reported at its entry, and the rest of the file is still checked."""
    path = write(tmp_path, "expansions: [idavol]\n" + two("  - name: Ana\n    coins: [0]\n    command_zone: [nope]\n"))
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:1:14: error: `idavol` is not one of: thingvellir, idavoll" in err
    assert f"{path}:5:20: error: unknown card `nope`" in err


# -- gems, coins, players, names --------------------------------------------------------------------

@pytest.mark.parametrize("gem, ok", [(1, True), (5, True), (6, True), (0, False), (7, False), (10 ** 40, False)])
def test_gems_are_those_the_rules_have(capsys, tmp_path, gem, ok):
    """Issue: "gems: only values the rules have (dealt gems for some allowed player count or special
    gems)": 1-5 are dealt (1 only with five players), 6 is the special gem."""
    path = write(tmp_path, two(f"  - name: Ana\n    gem: {gem}\n    coins: [0]\n"))
    code, _, err = score(capsys, path)
    assert (code == 0) == ok, err
    if not ok and gem < 10 ** 15:
        assert f"{path}:3:10: error: no gem " in err and "hint: gems: 1-6" in err
    elif not ok:  # beyond the bound every number of a position is read with (issue 17 §7): at the number
        assert f"{path}:3:10: error: `{str(gem)[:40]}..." in err and "number" in err.splitlines()[0]


def test_a_gem_is_held_once(capsys, tmp_path):
    """Issue: "at most one of each across all players"."""
    path = write(tmp_path, two("  - name: Ana\n    gem: 6\n    coins: [0]\n", "  - name: Bo\n    gem: 6\n    coins: [0]\n"))
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:6:10: error: gem 6 is held twice (also by Ana)" in err


def test_coin_values_are_those_of_the_supply(capsys, tmp_path):
    """Issue: "coins: only values that exist in the game's supply (basic coins, treasure values,
    special coins)"."""
    path = write(tmp_path, two("  - name: Ana\n    coins: [0, 2, 5, 25, 1, 26, -3]\n"))
    code, _, err = score(capsys, path)
    assert code == 1
    assert [e.split(": error: ")[1] for e in err.splitlines() if ": error: " in e] == [
        "no coin of value 1 in the game", "no coin of value 26 in the game", "no coin of value -3 in the game"]
    assert "hint: coin values: 0, 2-25" in err


def test_coin_supply_per_player_count():
    """Issue: "basic coins: one set per player; treasure: count minus the coins removed for that
    player count; special coins" (003: with 2-3 players two coins each of 7, 9 and 11 stay in the box)."""
    two, four = coin_supply(BASE, 2), coin_supply(BASE, 4)
    assert two[0] == 2 and four[0] == 4                 # the trading coin 0: one per player
    assert two[7] == 1 and four[7] == 3                 # 3 in the treasure, 2 left in the box with 2-3
    assert two[3] == 2 + 1 and four[3] == 4 + 1         # basic 3s and the Hunting Master's special 3
    assert two[5] == 2 + 2                              # basic 5s and the treasure's two 5s
    assert two[25] == 1 and 1 not in two


@pytest.mark.parametrize("coins, players, ok", [
    ("[7]", 2, True), ("[7, 7]", 2, False), ("[7, 7, 7]", 4, True), ("[7, 7, 7, 7]", 4, False),
    ("[0, 0]", 2, True), ("[0, 0, 0]", 2, False), ("[3, 3, 3]", 2, True), ("[3, 3, 3, 3]", 2, False),
])
def test_no_more_coins_of_a_value_than_the_supply(capsys, tmp_path, coins, players, ok):
    """Issue: "no more copies of a value than the supply holds for that player count"."""
    others = "".join(f"  - name: P{i}\n    coins: []\n" for i in range(2, players + 1))
    path = write(tmp_path, f"players:\n  - name: Ana\n    coins: {coins}\n" + others)
    code, _, err = score(capsys, path)
    assert (code == 0) == ok, err
    if not ok:
        assert "error: more coins of value" in err and f"with {players} players" in err


@pytest.mark.parametrize("count", [0, 1, 6])
def test_the_player_count_is_one_the_rules_allow(capsys, tmp_path, count):
    """Issue: "player count the rules allow (rules.min_players..rules.max_players)"."""
    players = "".join(f"  - name: P{i}\n    coins: []\n" for i in range(count))
    path = write(tmp_path, "players:" + (" []\n" if not count else "\n" + players))
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:1:1: error: these rules play with 2 to 5 players; this position has {count}" in err


def test_names_are_unique_and_printable(capsys, tmp_path):
    """DESIGN §8: "two players with the same gem or name" are refused; a name that would drive the
    terminal (an escape sequence) or is blank is refused too; a player without a name is `P<seat>`."""
    path = write(tmp_path, 'players:\n  - {name: P2, coins: [0]}\n  - {coins: [0]}\n  - {name: "\\e[2J", coins: [0]}\n'
                           '  - {name: " ", coins: [0]}\n')
    code, _, err = score(capsys, path)
    assert code == 1
    assert f"{path}:3:5: error: two players are named `P2` (players 1 and 2)" in err
    assert f"{path}:4:12: error: a player's name cannot hold control characters (\\x1b)" in err
    assert f"{path}:5:12: error: a player's name cannot be empty or blank" in err


# -- the cards' state --------------------------------------------------------------------------------

def test_card_state_is_validated_and_located(capsys, tmp_path):
    """Issue: "the cards' state objects ({card: …, notch/class/captured/face_down/used}) are
    validated as far as the schema and rules allow (e.g. an unknown class in `class:` is located)"."""
    path = write(tmp_path, two(
        "  - name: Ana\n    coins: [0]\n    command_zone:\n"
        "      - {card: test-track, notch: 4}\n"             # 5: off the track (notches 0-3)
        "      - {card: test-class, class: hunters}\n"       # 6
        "      - {card: test-giant, captured: [hunter, nope], face_down: yes}\n"   # 7
        "      - {card: test-bonus, notch: 1}\n"             # 8: no track
        "      - {card: test-swap, colour: red}\n"           # 9
        "      - {card: test-tokens, used: 1}\n"))           # 10
    code, _, err = score(capsys, path, "--variant", MECHANICS)
    assert code == 1
    assert f"{path}:5:35: error: notch 4 is off `test-track`'s track" in err and "its notches are 0 to 3" in err
    assert f"{path}:6:35: error: unknown class `hunters`" in err and "did you mean `hunter`?" in err
    assert f"{path}:7:47: error: unknown card `nope`" in err
    assert f"{path}:8:28: error: `test-bonus` has no strength track, so no `notch`" in err   # at the key
    assert f"{path}:9:27: error: unknown key `colour`" in err
    assert f"{path}:10:35: error: expected boolean, got integer `1`" in err
    # issue 17 §3: the state the card's rules give it, no other (test-giant captures once, a blacksmith;
    # test-tokens has no once-per-game power)
    assert f"{path}:7:39: error: `test-giant` cannot capture `hunter`, a dwarf card of the hunter class" in err
    assert "hint: it captures only a card of the blacksmith class" in err
    assert f"{path}:7:47: error: `test-giant` captures one card, once per game: 2 here" in err
    assert f"{path}:10:29: error: `test-tokens` has no once-per-game power, so no `used`" in err
    assert len(errors(err)) == 9


def test_captured_cards_count_as_copies(capsys, tmp_path):
    """A captured card is one of the game's cards: it counts against the copies the box holds
    (Kraal, one copy, both in the army and under a giant)."""
    path = write(tmp_path, two("  - name: Ana\n    coins: [0]\n    army: {warrior: [kraal]}\n"
                               "    command_zone: [{card: test-giant, captured: kraal}]\n"))
    code, _, err = score(capsys, path, "--variant", MECHANICS)
    assert code == 1
    assert f"{path}:5:49: error: more copies of `kraal` than the game holds (1): 2 in this position" in err


def test_card_state_is_scored():
    """DESIGN §8: a valkyrie-like track card scores its notch; a class chosen for a card is the
    class it reads; `face_down` and `used` spend a power (test cards of tests/layers/mechanics.yaml)."""
    rules = load_rules((), (MECHANICS,))
    data = {"players": [
        {"name": "Ana", "coins": [0], "army": {"hunter": ["hunter", "hunter", "hunter"]},
         "command_zone": [{"card": "test-track", "notch": 3}, {"card": "test-class", "class": "hunter"},
                          {"card": "test-giant", "captured": ["blacksmith"], "face_down": True}]},
        {"name": "Bo", "coins": [0], "command_zone": ["test-tokens"]}]}
    e = engine_from_position(rules, data)
    giant = e.s.players[0].command[2]
    assert e.used(giant) and [e.s.cards[c] for c in e.mark(giant, "captured")] == ["blacksmith"]
    assert final_scores(e)["players"][0]["breakdown"]["heroes"] == 16 + 2 * 3


def test_state_round_trips_through_position_of():
    """DESIGN §8: the position format is what `play --json` writes as `final` and `score` reads:
    a card carrying state is written as an object, and reads back to the same state and score."""
    rules = load_rules((), (MECHANICS,))
    data = {"expansions": [], "players": [
        {"name": "Ana", "gem": 6, "coins": [0, 3, 3],
         "army": {"hunter": ["hunter"]},
         "command_zone": [{"card": "test-track", "notch": 2}, {"card": "test-class", "class": "hunter"},
                          {"card": "test-giant", "captured": "blacksmith"},  # (spent: implied)
                          {"card": "test-tokens", "tokens": 2}, "test-swap"]},
        {"name": "Bo", "gem": 4, "coins": [0], "army": {}, "command_zone": []}]}
    e = engine_from_position(rules, data)
    written = position_of(e)
    assert written == {**data, "players": [{**p, "army": {k: v for k, v in p["army"].items() if v}}
                                           for p in data["players"]]}
    again = engine_from_position(rules, json.loads(json.dumps(written)))
    assert final_scores(again) == final_scores(e)


def test_engine_from_position_lists_every_problem():
    """The runtime API refuses a position with PositionError holding every problem, with paths."""
    data = {"players": [{"name": "A", "coins": [1], "command_zone": ["zz"]}, {"name": "A", "coins": [0]}]}
    with pytest.raises(PositionError) as info:
        engine_from_position(BASE, data)
    assert [p.path for p in info.value.problems] == [
        ("players", 0, "command_zone", 0), ("players", 1, "name"), ("players", 0, "coins", 0)]


# -- what score does not judge -----------------------------------------------------------------------

def test_score_does_not_judge_whether_play_could_reach_the_position(capsys, tmp_path):
    """DESIGN §8: "`score` does not judge whether play could have reached the position (heroes
    against lines, …): it scores what it is given": heroes without a line are scored as given.
    (Where a card stands is judged: issue 17 §3, tests/test_placement.py.)"""
    path = write(tmp_path, two("  - name: Ana\n    coins: [5]\n    army: {warrior: [warrior:3, kraal]}\n"
                               "    command_zone: [dwerg, dwerg, dwerg, astrid]\n"))
    code, out, err = score(capsys, path, "--json")
    assert code == 0, err
    b = json.loads(out)["players"][0]["breakdown"]
    assert b["heroes"] == 81 + 5          # three Dwerg brothers, Astrid (the highest coin, 5)
    assert b["warrior"] == 3 + 7 + 5      # the dwarf's 3, Kraal's ranks, the majority's coin


# -- never a traceback; --json lines match the files ------------------------------------------------

HOSTILE = {
    "empty.yaml": b"",
    "list.yaml": b"- 1\n- 2\n",
    "scalar.yaml": b"42\n",
    "names.yaml": b"players:\n  - {name: 5, coins: [0]}\n  - {name: 6.5, coins: [0]}\n",
    "huge.yaml": b"players:\n  - {name: A, gem: " + b"9" * 200 + b", coins: [" + b"9" * 290 + b"]}\n  - {name: B, coins: []}\n",
    "bytes.yaml": b"players:\n  - name: \xff\xfe\n",
    "deep.yaml": b"players: " + b"[" * 500 + b"]" * 500 + b"\n",
    "alias.yaml": b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                  b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                  b"e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n",
    "json.json": b'{"players": [{"coins": [NaN, Infinity, 1e400]}, {"coins": []}]}',
    "tabs.yaml": b"players:\n\t- coins: []\n",
    "twodocs.yaml": b"players: []\n---\nplayers: []\n",
    "wrongtypes.yaml": b"expansions: thingvellir\nplayers:\n  - coins: {a: 1}\n    army: [x]\n    command_zone: 5\n"
                       b"    gem: true\n  - coins: [0]\n    army: {warrior: 7, 12: [a]}\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_give_located_errors_not_tracebacks(capsys, tmp_path, name):
    """Issue: "Never a traceback, whatever the file holds"; "with --json, a bad file still yields
    exactly one line — an error object"."""
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    code, out, err = score(capsys, str(path), "--json")
    assert code == 1
    assert "Traceback" not in err
    assert any(line.startswith(f"{path}:") and ": error: " in line for line in err.splitlines())
    (line,) = out.splitlines()
    result = json.loads(line)
    assert result["file"] == str(path) and result["errors"]
    assert all(isinstance(e["message"], str) and e["line"] >= 1 and e["col"] >= 1 for e in result["errors"])


def test_json_lines_match_the_files_one_to_one(capsys, tmp_path):
    """DESIGN §8: "with --json one JSON object per file, one per line, in order"; issue: a bad file
    yields an error object in its place, and the exit status is 1 if any file failed."""
    good = write(tmp_path, two("  - name: Ana\n    coins: [0, 25]\n"), "good.yaml")
    bad = write(tmp_path, two("  - name: Ana\n    coins: [1]\n"), "bad.yaml")
    folder = tmp_path / "folder"
    folder.mkdir()
    missing = str(tmp_path / "missing.yaml")
    code, out, err = score(capsys, good, bad, str(folder), missing, good, "--json")
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 5
    assert lines[0] == lines[4] and lines[0]["players"][0]["total"] == 25
    assert lines[1] == {"file": bad, "errors": [{"line": 3, "col": 13, "message": "no coin of value 1 in the game",
                                                 "hint": "coin values: 0, 2-25"}]}
    assert lines[2] == {"file": str(folder), "errors": [{"line": None, "col": None,
                                                         "message": f"cannot read {folder}: expected a file, found a folder"}]}
    assert lines[3] == {"file": missing, "errors": [{"line": None, "col": None,
                                                     "message": f"cannot read {missing}: no such file or folder"}]}


def test_all_good_files_exit_zero(capsys, tmp_path):
    """The exit status is 0 when every file scores."""
    good = write(tmp_path, two("  - name: Ana\n    coins: [0]\n"))
    code, out, _ = score(capsys, good, good)
    assert code == 0 and out.count("Winner") == 2


def test_error_output_escapes_control_characters(capsys, tmp_path):
    """Issue: text with control characters or escape sequences is printed escaped, so a hostile
    value cannot drive the terminal (here a card id holding a C1 control, CSI)."""
    path = write(tmp_path, two('  - name: Ana\n    coins: [0]\n    command_zone: ["\\x9b2J"]\n'))
    code, _, err = score(capsys, path)
    assert code == 1
    assert "\x9b" not in err and "unknown card `\\x9b2J`" in err


def test_scoring_applies_steps_without_a_choice(capsys, tmp_path):
    """DESIGN §8: "steps that the rules take before scoring without a choice are applied (Thrud
    leaves the army)": his rank leaves the hunter column (2 ranks, 4 points, become 1 rank, 1 point)
    and he scores his 13 points from the command zone."""
    path = write(tmp_path, two("  - name: Ana\n    coins: [0]\n    army: {hunter: [hunter, thrud]}\n"))
    code, out, err = score(capsys, path, "--json")
    assert code == 0, err
    b = json.loads(out)["players"][0]["breakdown"]
    assert (b["hunter"], b["heroes"]) == (1, 13)


@pytest.mark.parametrize("ages, expected", [([1, 2], 20), ([1, 2, 3], 30)])
def test_a_score_that_reads_the_age_reads_the_last_one(tmp_path, ages, expected):
    """DESIGN §8: `score` gives the Final Bravery Value "as if the game ended now", and a game ends in
    its last age (final scoring there): an effect that reads `age` reads the last age, in play's
    final scoring and in `score` of the position alike, so that `score` of a game's final position
    gives the totals the game reported (issue 17; found by tests/test_effects_property.py: `score`
    read age 0)."""
    layer = tmp_path / "aged.yaml"
    decks = "decks:\n  - {age: 3, cards: [{card: hunter, count: 9}]}\n" if 3 in ages else ""
    moved = ("  flow:\n    age_end:\n      - {id: game-end, ages: [3]}\n      - {id: final-scoring, ages: [3]}\n"
             if 3 in ages else "")
    layer.write_text(f"layer: {{id: aged, name: Aged}}\ngame:\n  ages: {ages}\n{moved}{decks}"
                     "cards:\n  - {id: skaa, points: 0, effects: ['score 10 * age']}\n", encoding="utf-8")
    rules = load_rules((), (str(layer),))
    position = {"players": [{"name": "Ana", "coins": [0], "command_zone": ["skaa"]}, {"name": "Bo", "coins": [0]}]}
    e = engine_from_position(rules, position)
    assert final_scores(e)["players"][0]["breakdown"]["heroes"] == expected  # `score` of the position
    e.s.age, e.s.finished = 1, True  # a state in another age: play's final scoring runs in the last one
    assert final_scores(engine_from_position(rules, {**position_of(e), "ended": True})) == final_scores(
        engine_from_position(rules, position))
