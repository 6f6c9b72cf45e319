"""Every number the rules compute is within ±MAX_VALUE (README, "Every number the rules compute is
within ±1,000,000,000"): "`check` ... refuses an operation that is beyond the bound in every state
(`score 1000000 * 1000000`), located at it; one that can pass it (a product of values whose bounds
multiply past it ...) is a warning. In play such an operation is checked as it is worked out, a
product at each factor, and a value past the bound stops the game with a rules error at the
operation's file, line and column, naming the card; so do a param whose modifiers add up past it,
the points of a column, and tokens. Totals ... are 64-bit integers, as in the simulation records."

Issue 17 audit item 1: `score 1000000 * 1000000` passed check and `simulate` failed with an Arrow
int32 error; a tower of params (each the product of 60 reads of the one before) printed a Python
ValueError. Each class of value is built here: a score, a modifier, an amount, a condition, a class
formula, a lookup table; reads of counts, params, tokens, tracks and coins.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from checking import expect, expect_warning, failed, find, run_check, write
from harness import give, new_engine, run, set_coins
from nidavellir.cli import main
from nidavellir.errors import RulesRuntimeError
from nidavellir.interface.support import MAX_VALUE, product
from nidavellir.rulesets import load_rules
from nidavellir.sim import records

BOUND_HINT = ("every number the rules compute (a score, a param, an amount) stays within ±1,000,000,000: bound it "
              "with `min(..., N)`, or multiply fewer values")
BEYOND = "beyond ±1,000,000,000, the bound on every number the rules compute; the game stopped there"


def variant(tmp_path: Path, *effects: str, game: str = "", card: str = "skaa", more: str = "") -> Path:
    listed = "".join(f'      - "{e}"\n' for e in effects)
    return write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + game +
                 f"cards:\n  - id: {card}\n    effects:\n{listed}" + more)


# -- at check: refused where always beyond -----------------------------------------------------------

@pytest.mark.parametrize("effect, needle, value", [
    ("score 1000000 * 1000000", "1000000 * 1000000", "1,000,000,000,000"),       # the audit's input
    ("score 1000000 * 1000 + 1", "1000000 * 1000 + 1", "1,000,000,001"),          # a sum just past it
    ("score 0 - 1000000 * 1000000", "1000000 * 1000000", "1,000,000,000,000"),    # the innermost is named
    ("score 3 - 1000000 * 1000 * 2", "1000000 * 1000 * 2", "2,000,000,000"),
    ("score lookup(ranks(warrior), 1000000 * 1000000, 0)", "1000000 * 1000000", "1,000,000,000,000"),
    ("score max(1, 1000000 * 1000 * 3)", "1000000 * 1000 * 3", "3,000,000,000"),
    ("when recruited: transform chosen coin by 1000000 * 1000000", "1000000 * 1000000", "1,000,000,000,000"),
    ("modify transform_bonus + 1000000 * 5000", "1000000 * 5000", "5,000,000,000"),
    ("when recruited if heroes < 1000000 * 1000000: transform chosen coin by 1", "1000000 * 1000000",
     "1,000,000,000,000"),
])
def test_a_value_always_beyond_the_bound_is_refused_at_the_operation(capsys, tmp_path, effect, needle, value):
    """"refuses an operation that is beyond the bound in every state ..., located at it": in a score,
    a lookup table, an amount, a modifier, a condition."""
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *find(v, needle), f"this value is always {value}, beyond ±1,000,000,000: the rules compute no "
                                     "number beyond that bound", BOUND_HINT)


def test_a_class_formula_always_beyond_the_bound_is_refused(capsys, tmp_path):
    """A class formula is a value the rules compute, as a card's score is."""
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ngame:\n  classes:\n'
                                   '    - {id: hunter, score: "ranks + 1000000 * 1000000"}\n')
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    expect(err, v, *find(v, "1000000 * 1000000"), "this value is always 1,000,000,000,000, beyond ±1,000,000,000: "
                                                  "the rules compute no number beyond that bound", BOUND_HINT)


def test_the_audits_param_tower_is_refused(capsys, tmp_path):
    """Audit s7/param-tower3.yaml: three params, each the product of 60 reads of the one before, the
    first a product of 60 constants. Refused at that product, the others warned (never a Python
    error on a number of thousands of digits)."""
    tower = " * ".join(["1000000"] * 60)
    reads = {name: " * ".join([f"param({name})"] * 60) for name in ("a", "b")}
    v = variant(tmp_path, f"modify b = {tower}", f"modify a = {reads['b']}", f"modify c = {reads['a']}",
                "score param(c)", game="game: {params: {a: 0, b: 0, c: 0}}\n")
    code, out, err = run_check(capsys, str(v))
    failed(code, out, err, 1)
    assert "ValueError" not in err and "digits" not in err
    expect(err, v, *find(v, "1000000 * 1000000"), "this value is always 1,000,000,000,000, beyond ±1,000,000,000: "
                                                  "the rules compute no number beyond that bound", BOUND_HINT)
    assert err.count("warning: this value can reach") == 2


# -- at check: warned where it can be ---------------------------------------------------------------

@pytest.mark.parametrize("effects, needle, message", [
    (["score ranks(warrior) * 1000000 * 1000"], "ranks(warrior) * 1000000",
     "this value can reach 13,000,000,000"),   # (13: the most warrior ranks the base game's cards hold)
    (["score count(last dwarf of other columns) * 1000000 * 1000"], "count(",
     "this value can reach 5,000,000,000"),    # (the five columns, for a card in the command zone)
    (["score highest_coin * highest_coin * highest_coin * highest_coin * highest_coin * highest_coin * "
      "highest_coin"], "highest_coin *", "this value can reach 6,103,515,625"),  # (25: the best coin)
    (["when recruited: add 1 token", "score tokens * tokens"], "tokens * tokens",
     "this product of values the rules data does not bound can grow beyond ±1,000,000,000"),
    (["when recruited: transform chosen coin by cards(dwarf) * 1000000 * 1000"], "cards(dwarf)",
     "this value can reach"),
])
def test_a_value_that_can_pass_the_bound_is_a_warning(capsys, tmp_path, effects, needle, message):
    """"one that can pass it (a product of values whose bounds multiply past it ...) is a warning":
    what each read can be comes from the rules data (counts from the cards, coins from the coins,
    tokens open once an effect adds them)."""
    v = variant(tmp_path, *effects)
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    line, col = find(v, needle)
    heads = [x for x in err.splitlines() if x.startswith(f"{v}:{line}:{col}: warning: {message}")]
    assert len(heads) == 1, err
    assert "play stops with an error" in heads[0]


def test_modifiers_that_add_up_past_the_bound_are_warned_at_the_modifier(capsys, tmp_path):
    """"a param whose modifiers add up past it": each within the bound, their sum (a player may hold
    both cards) is not: warned at the modifier with which the sum passes it."""
    v = variant(tmp_path, "modify z + 1000000 * 600", "score param(z)", game="game: {params: {z: 0}}\n",
                more='  - id: astrid\n    effects: ["modify z + 1000000 * 600"]\n')
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    line, _ = find(v, "- id: astrid")
    col = len('    effects: ["modify ') + 1  # (a modifier is located at its param)
    expect_warning(err, v, line + 1, col,
                   "with this modifier, param `z` can reach 1,200,000,000 (its value and what every modifier a "
                   "player's cards may hold adds), beyond ±1,000,000,000, the bound on every number the rules "
                   "compute: where it does, play stops with an error")
    assert err.count("warning:") == 1, err


@pytest.mark.parametrize("effect", [
    "score ranks(warrior) * 1000",
    "score 1000000 * 1000",                       # the bound itself
    "score 0 - 1000000 * 1000",
    "score min(ranks(warrior) * 1000000 * 1000, 5)",  # (warned inside, but bounded outside: see below)
])
def test_values_within_the_bound_pass(capsys, tmp_path, effect):
    """Within ±MAX_VALUE (the bound included) nothing is reported; `min(..., N)` (the hint's advice)
    bounds what follows it, though the product inside it is still warned of."""
    v = variant(tmp_path, effect)
    code, out, err = run_check(capsys, str(v))
    assert code == 0 and ": error:" not in err, err
    if "min(" in effect:
        assert err.count("warning:") == 1 and find(v, "ranks(warrior)")[1] > 0
    else:
        assert "warning" not in err, err


def test_a_class_formula_reads_its_own_columns_points(capsys, tmp_path):
    """In a class formula `points` and `ranks` are that column's (README: "`ranks`, `points` and
    `zero_ranks` of that column"): an explorer scoring 900,000,000 does not make the miners'
    `points * ranks` warn, a miner doing so does."""
    explorer = variant(tmp_path, "score 1000000 * 900", card="explorer:5")
    code, out, err = run_check(capsys, str(explorer))
    assert code == 0 and "warning" not in err, err
    miner = variant(tmp_path, "score 1000000 * 900", card="miner:1")
    code, out, err = run_check(capsys, str(miner))
    assert code == 0
    assert any(x.startswith("rules/base/game.yaml:") and "warning: this value can reach" in x
               for x in err.splitlines()), err


# -- in play ----------------------------------------------------------------------------------------------

def _rules(tmp_path: Path, *effects: str, **kw: str) -> tuple[Path, object]:
    v = variant(tmp_path, *effects, **kw)
    return v, load_rules((), (str(v),))


def _at(path: Path, needle: str) -> str:
    line, col = find(path, needle)
    return f"{path}:{line}:{col}: "


def test_a_score_past_the_bound_stops_at_the_product(tmp_path):
    """A count read (`ranks`) times constants: two warrior ranks make 2,000,000,000; the error is at
    the product, names the card, and says the value."""
    v, rules = _rules(tmp_path, "score ranks(warrior) * 1000000 * 1000")
    e = new_engine(2, rules=rules)
    skaa = give(e, 0, "skaa", column=None)[0]
    give(e, 0, "warrior:3")
    assert e.card_score(0, skaa) == 1000000 * 1000  # (one rank: the bound itself)
    give(e, 0, "warrior:4")
    with pytest.raises(RulesRuntimeError) as err:
        e.card_score(0, skaa)
    assert str(err.value).startswith(_at(v, "ranks(warrior) *") + "this value of `skaa` is 2,000,000,000 here, "
                                     + BEYOND)


def test_a_count_of_cards_past_the_bound_stops(tmp_path):
    v, rules = _rules(tmp_path, "score count(last dwarf of other columns) * 1000000 * 1000")
    e = new_engine(2, rules=rules)
    skaa = give(e, 0, "skaa", column=None)[0]
    give(e, 0, "warrior:3", "hunter")
    with pytest.raises(RulesRuntimeError, match=r"this value of `skaa` is 2,000,000,000 here") as err:
        e.card_score(0, skaa)
    assert str(err.value).startswith(_at(v, "count("))


def test_a_track_read_past_the_bound_stops_at_the_first_factor_past_it(tmp_path):
    """"a product at each factor": 1000⁴ stops at 10^12 (the first partial product past the bound),
    never building a larger number; at the first notch (0) the score is 0."""
    v, rules = _rules(tmp_path, "when recruited: advance track", "score track * track * track * track",
                      card="skaa\n    track: [0, 1000]")
    e = new_engine(2, rules=rules)
    skaa = give(e, 0, "skaa", column=None)[0]
    assert e.card_score(0, skaa) == 0
    run(e.emit(0, "recruited", skaa))
    with pytest.raises(RulesRuntimeError) as err:
        e.card_score(0, skaa)
    assert str(err.value).startswith(_at(v, "track * track") + "this value of `skaa` is 1,000,000,000,000 here")


def test_tokens_past_the_bound_stop_at_the_effect_adding_them(tmp_path):
    """"so do ... tokens": a card holds at most MAX_VALUE tokens."""
    v, rules = _rules(tmp_path, "when recruited: add 1000000 * 600 token", "score tokens",
                      game="game: {events: {recruited: a hero is recruited}}\n")
    e = new_engine(2, rules=rules)
    skaa = give(e, 0, "skaa", column=None)[0]
    run(e.emit(0, "recruited", skaa))
    assert e.tokens(skaa) == 600000000
    with pytest.raises(RulesRuntimeError) as err:
        run(e.emit(0, "recruited", skaa))
    assert str(err.value).startswith(_at(v, '"when recruited: add') + "`skaa`'s `when recruited: add 1000000 * 600 "
                                     "token` gives it 1,200,000,000 tokens, " + BEYOND)
    assert e.tokens(skaa) == 600000000  # (nothing past the bound was kept)


def test_a_transformation_amount_past_the_bound_stops(tmp_path):
    v, rules = _rules(tmp_path, "when recruited: transform chosen coin by ranks(warrior) * 1000000 * 1000")
    e = new_engine(2, rules=rules)
    skaa = give(e, 0, "skaa", column=None)[0]
    give(e, 0, "warrior:3", "warrior:4")
    set_coins(e, 0, hand=[0, 2, 3, 4, 5])
    with pytest.raises(RulesRuntimeError) as err:
        run(e.emit(0, "recruited", skaa), "2@hand")
    assert str(err.value).startswith(_at(v, "ranks(warrior) *") + "this value of `skaa` is 2,000,000,000 here")


def test_modifiers_adding_up_past_the_bound_stop_at_the_modifier(tmp_path):
    """"a param whose modifiers add up past it": one card's modifier keeps `z` within the bound, the
    second's takes it past: the error names that modifier and the param's value."""
    v, rules = _rules(tmp_path, "modify z + 1000000 * 600", "score param(z)", game="game: {params: {z: 0}}\n",
                      more='  - id: astrid\n    effects: ["modify z + 1000000 * 600"]\n')
    e = new_engine(2, rules=rules)
    give(e, 0, "skaa", column=None)
    assert e.param(0, "z") == 600000000
    give(e, 0, "astrid", column=None)
    with pytest.raises(RulesRuntimeError) as err:
        e.param(0, "z")
    line, _ = find(v, "- id: astrid")
    assert str(err.value).startswith(f"{v}:{line + 1}:{len('    effects: [') + 1}: `astrid`'s `modify z + 1000000 * "
                                     "600` makes param `z` 1,200,000,000, " + BEYOND)


def test_the_points_of_a_column_past_the_bound_stop(tmp_path):
    """"so do ... the points of a column": two warriors each scoring half the bound, with their ranks."""
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ncards:\n'
                                   '  - {id: "warrior:3", effects: ["score 1000000 * 500"]}\n'
                                   '  - {id: "warrior:4", effects: ["score 1000000 * 500"]}\n')
    e = new_engine(2, rules=load_rules((), (str(v),)))
    give(e, 0, "warrior:3")
    assert e.points(0, "warrior") == 500000000 + 3
    give(e, 0, "warrior:4")
    with pytest.raises(RulesRuntimeError, match=r"with `warrior:4`'s score, the points of the `warrior` column of P1 are 1,000,000,007, "
                                                r"beyond ±1,000,000,000"):
        e.points(0, "warrior")


def test_a_tower_of_params_stops_at_once_in_play(tmp_path, capsys):
    """Audit item 1: "a value beyond the bound stops with a located rules error, never a traceback
    nor slow arithmetic". A tower whose base the rules data does not fix (so check only warns):
    `score` of a position reports the first product past the bound, at its factor."""
    reads = {name: " * ".join([f"param({name})"] * 60) for name in ("a", "b")}
    v = variant(tmp_path, "modify b = ranks(warrior) + 1", f"modify a = {reads['b']}",
                f"modify c = {reads['a']}", "score param(c)", game="game: {params: {a: 0, b: 0, c: 0}}\n")
    pos = write(tmp_path / "pos.yaml", "players:\n  - {name: Ana, gem: 5, coins: [0, 2, 3, 4, 5], "
                                       "command_zone: [skaa], army: {warrior: [warrior:3]}}\n"
                                       "  - {name: Bo, gem: 4, coins: [0, 2, 3, 4, 5]}\n")
    code = main(["score", str(pos), "--variant", str(v), "--json"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "ValueError" not in err + out
    message = json.loads(out)["errors"][0]["message"]
    assert message.startswith(_at(v, "param(b) *") + "this value of `skaa` is 1,073,741,824 here, " + BEYOND)


def test_the_product_guard_stops_at_the_first_partial_product():
    """support.product: multiplied one factor at a time, stopped at the first past the bound."""
    assert product((1000, 1000, 1000), "f:1:1", "x") == MAX_VALUE
    with pytest.raises(RulesRuntimeError, match=r"^f:1:1: this value of x is -1,000,000,000,000 here"):
        product((1000, -1000, 1000, 1000, 10 ** 6), "f:1:1", "x")


# -- records -------------------------------------------------------------------------------------------

def test_a_simulation_scoring_near_the_bound_in_several_classes_is_recorded_in_64_bits(tmp_path, capsys):
    """Audit item 1: a variant scoring near 10^9 in several classes failed with ArrowInvalid (int32).
    Each class's value is within the bound, a player's total (three of them) is not within 32 bits:
    the records hold the totals as int64, equal to each breakdown's sum, and `report` of the folder
    agrees with them (mean score)."""
    v = write(tmp_path / "big.yaml", """\
        layer: {id: big, name: Big, description: three classes score near the bound}
        game:
          classes:
            - {id: warrior, score: "1000000 * 900 + points"}
            - {id: hunter, score: "1000000 * 900 + ranks"}
            - {id: miner, score: "1000000 * 900"}
        """)
    out = tmp_path / "sim"
    code = main(["simulate", "--players", "2", "--games", "4", "--jobs", "1", "--variant", str(v), "--out", str(out)])
    capsys.readouterr()
    assert code == 0
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(out / records.PARQUET_DIR)
    assert table.schema.field("totals").type == pa.list_(pa.int64())
    assert table.schema.field("breakdown").type == pa.list_(pa.map_(pa.string(), pa.int64()))
    rows = [r for r in records.read(out, "parquet") if r["label"] == "big"]  # (paired with the base game's)
    totals = [t for r in rows for t in r["totals"]]
    assert len(totals) == 8 and min(totals) > 3 * 900000000 > 2 ** 31
    for r in rows:
        assert r["totals"] == [sum(b.values()) for b in r["breakdown"]]
    assert main(["report", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    (rule_set,) = [r for r in summary["rule_sets"] if r["label"] == "big"]
    assert rule_set["scores"]["mean"] == pytest.approx(sum(totals) / len(totals))
    assert rule_set["scores"]["max"] == max(totals) and rule_set["scores"]["min"] == min(totals)
