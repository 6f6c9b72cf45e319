"""Issue 17 §7, numbers: "Every number anywhere in the rules, as a key or a value, goes through one
bounded parser" (compiler/numbers.py), refused beyond the bound at the number itself (for a key: at
the key), before anything converts it; Python's 4300-digit limit is never reachable from input.

The corpus is generated, not written by hand: every numeric place of the layer schema
(rules/schemas/layer.schema.json: each `integer` value, each table whose keys are numbers) and of
the position schema gets each hostile number (huge, a little too large, negative, a fraction, a
boolean, `1e400`, `.inf`, `.nan`, hex, a numeric string), in a file built around it from the
schema; `check`, `play` and `docs` run on each variant, `score` on each position. Each answers
with located errors (or accepts a valid value and then plays and renders), never a traceback."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Union

import pytest

from nidavellir.cli import main
from nidavellir.compiler.diagnostics import clear_sources
from nidavellir.interface.numbers import MAX_DIGITS, MAX_TEXT, NumberError, json_loads, key_int, parse_float, parse_int

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "rules" / "schemas"
LEAF = "\x00LEAF\x00"  # where the hostile number goes, replaced once the file is written

# -- the places, from the schemas ----------------------------------------------------------------

Step = Union[str, int]  # a property name, "[]" (an item), "*" (any key), "KEY" (the key itself), "|i" (oneOf branch i)


def _resolve(node: Any, root: dict[str, Any]) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = root
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def numeric_places(root: dict[str, Any]) -> list[tuple[tuple[Step, ...], str]]:
    """Every place the schema gives a number: (steps to it, "value" or "key")."""
    found: list[tuple[tuple[Step, ...], str]] = []

    def walk(node: Any, steps: tuple[Step, ...], depth: int) -> None:
        node = _resolve(node, root)
        if not isinstance(node, dict) or depth > 12:
            return
        if node.get("type") == "integer":
            found.append((steps, "value"))
        names = node.get("propertyNames", {})
        if isinstance(names, dict) and re.fullmatch(r"\^\[[0-9-]+\]\+?\$", names.get("pattern", "")):
            found.append((steps + ("KEY",), "key"))
        for key, sub in node.get("properties", {}).items():
            walk(sub, steps + (key,), depth + 1)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], steps + ("*",), depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], steps + ("[]",), depth + 1)
        for i, sub in enumerate(node.get("oneOf", [])):
            walk(sub, steps + (f"|{i}",), depth + 1)
        for key in ("then", "else"):
            if key in node:
                walk(node[key], steps + (f"|{key}",), depth + 1)

    walk(root, (), 0)
    return found


# Where a required text must name something that exists for the file to mean anything (the rest of
# the file is filled from the schema alone).
NAMES = {"cards/[]/id": "skaa", "decks/[]/cards/[]/card": "warrior:3", "game/taverns/[]/id": "laughing-goblin",
         "game/classes/[]/id": "warrior", "game/flow/turn/[]/id": "bids", "game/flow/age_end/[]/id": "troop-evaluation",
         "game/flow/tavern/[]/id": "picks", "game/coins/special/[]/id": "hunter-3", "game/pick_sources/[]/id": "tavern",
         "players/[]/army/*/[]/|then/card": "warrior:3", "players/[]/command_zone/[]/|then/card": "skaa",
         "players/[]/name": "Ana"}
SAMPLE_KEYS = ["3", "x"]  # a key of a table that names no form: a column


def _sample(node: dict[str, Any], where: str) -> Any:
    """A plain value for a required key the hostile number does not stand in."""
    if where.lstrip("/") in NAMES:
        return NAMES[where.lstrip("/")]
    kind = node.get("type")
    if kind == "integer":
        return max(node.get("minimum", 0), 0) if node.get("maximum", 1) >= 0 else node["maximum"]
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {}
    pattern = node.get("pattern")
    return next((s for s in ["x", "3", "a"] if not pattern or re.search(pattern, s)), "x")


def build(root: dict[str, Any], steps: tuple[Step, ...]) -> Any:
    """The smallest document that puts LEAF at `steps`, with every required key along the way."""
    def make(node: Any, rest: tuple[Step, ...], where: str) -> Any:
        node = _resolve(node, root)
        if not rest:
            return LEAF
        step, more = rest[0], rest[1:]
        if isinstance(step, str) and step.startswith("|"):
            branch = step[1:]
            sub = node["oneOf"][int(branch)] if branch.isdigit() else node[branch]
            return make(sub, more, where + "/" + step)
        if step == "[]":
            return [make(node["items"], more, where + "/[]")]
        out: dict[str, Any] = {}
        if step == "KEY":
            value = _resolve(node.get("additionalProperties", {}), root)
            out[LEAF] = _sample(value, where + "/*") if isinstance(value, dict) else 1
            return out
        for req in node.get("required", []):
            if req != step:
                sub = _resolve(node["properties"][req], root)
                out[req] = make_required(sub, where + "/" + req)
        if step == "*":
            pattern = node.get("propertyNames", {}).get("pattern")
            key = next(k for k in SAMPLE_KEYS if re.search(pattern, k)) if pattern else "warrior"
            out[key] = make(node["additionalProperties"], more, where + "/*")
        else:
            out[str(step)] = make(node["properties"][step], more, where + "/" + str(step))
        return out

    def make_required(node: dict[str, Any], where: str) -> Any:
        if node.get("type") == "object":
            return {r: make_required(_resolve(node["properties"][r], root), where + "/" + r)
                    for r in node.get("required", [])}
        return _sample(node, where)

    return make(root, steps, "")


def flow_yaml(value: Any) -> str:
    """`value` as one line of flow YAML; keys that stand for the hostile number are explicit (`? K`),
    as a key of 5,000 characters must be."""
    if isinstance(value, dict):
        items = [(f"? {k}" if k == LEAF else json.dumps(k)) + ": " + flow_yaml(v) for k, v in value.items()]
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow_yaml(v) for v in value) + "]"
    if value == LEAF:
        return LEAF
    return json.dumps(value)


# The hostile numbers, as written in YAML; "at": refused by the bounded parser at the number itself.
VALUES: dict[str, tuple[str, bool]] = {
    "5,000 digits": ("9" * 5000, True),
    "one digit beyond the bound": ("1" + "0" * MAX_DIGITS, True),
    "negative": ("-3", False),
    "a fraction": ("2.5", False),
    "a boolean": ("true", False),
    "1e400 (text in YAML 1.1)": ("1e400", False),
    "1.0e+400": ("1.0e+400", True),
    ".inf": (".inf", True),
    "-.inf": ("-.inf", True),
    ".nan": (".nan", True),
    "hex": ("0x10", False),
    "a numeric string": ('"7"', False),
    "a numeric string of 5,000 digits": ('"' + "9" * 5000 + '"', False),
}
KEYS: dict[str, tuple[str, bool]] = {
    "5,000 digits": ("9" * 5000, True),
    "5,000 digits as text": ('"' + "9" * 5000 + '"', True),
    "16 digits as text": ("'" + "9" * 16 + "'", True),
    "negative": ("-1", False),
    "a fraction": ("2.5", False),
    "a boolean": ("true", False),
    ".inf": (".inf", True),
    "hex": ("0x3", False),
    "zero-padded text": ('"03"', False),
    "empty": ("~", False),
}
# A value the schema refuses at its place whatever the bounds: reported at the number too.
WRONG_TYPE = {"a fraction", "a boolean", "1e400 (text in YAML 1.1)", "a numeric string",
              "a numeric string of 5,000 digits"}

LAYER = json.loads((SCHEMAS / "layer.schema.json").read_text(encoding="utf-8"))
POSITION = json.loads((SCHEMAS / "position.schema.json").read_text(encoding="utf-8"))
LAYER_PLACES = numeric_places(LAYER)
POSITION_PLACES = numeric_places(POSITION)


def _name(steps: tuple[Step, ...]) -> str:
    return "/".join(str(s) for s in steps)


def cases(places: list[tuple[tuple[Step, ...], str]]) -> list[tuple[str, str, str]]:
    return [(_name(steps), kind, label) for steps, kind in places
            for label in (VALUES if kind == "value" else KEYS)]


def write_case(tmp_path: Path, root: dict[str, Any], steps_name: str, kind: str, label: str,
               head: dict[str, Any]) -> tuple[Path, int, int, bool]:
    """The file of one case; the line and column of its number; whether it must be refused there."""
    steps = next(s for s, _ in (LAYER_PLACES if root is LAYER else POSITION_PLACES) if _name(s) == steps_name)
    doc = {**head, **build(root, steps)}
    if root is POSITION and isinstance(doc.get("players"), list):
        doc["players"].append({"name": "Bo", "coins": [0]})  # (the rules play with 2 to 5)
    text, refused = (VALUES if kind == "value" else KEYS)[label]
    line = flow_yaml(doc)
    col = line.index(LEAF) + 1
    path = tmp_path / ("v.yaml" if root is LAYER else "pos.yaml")
    path.write_text(line.replace(LEAF, text) + "\n", encoding="utf-8")
    return path, 1, col, refused


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    clear_sources()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


HEAD = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?:error|warning): (?P<message>.*)$")


def located_errors(err: str) -> list[tuple[str, int, int, str]]:
    return [(m["path"], int(m["line"]), int(m["col"]), m["message"]) for m in
            (HEAD.match(line) for line in err.splitlines()) if m and ": error: " in m.group(0)]


def judge(code: int, out: str, err: str, path: Path, line: int, col: int, refused: bool, wrong_type: bool) -> None:
    assert "Traceback" not in out + err and "Exceeds the limit" not in err
    if code == 0:
        assert not refused and not wrong_type, err
        return
    assert code == 1, err
    errors = located_errors(err)
    assert errors, err
    for where, _, _, _ in errors:
        assert where == str(path) or where.startswith("rules/"), err
    here = [e for e in errors if e[:3] == (str(path), line, col)]
    if refused:
        assert here and "number" in here[0][3], err
    elif wrong_type:
        assert here, err


def test_the_schemas_have_numeric_places():
    """The corpus is as large as the schemas: every integer and every numeric-keyed table."""
    names = {_name(s) for s, _ in LAYER_PLACES}
    assert {"game/players/min", "cards/[]/points", "decks/[]/cards/[]/count", "game/coins/treasure/KEY",
            "game/coins/treasure_removed/*/KEY", "game/gems/by_players/KEY", "game/cards_per_tavern/KEY"} <= names
    assert len(LAYER_PLACES) >= 35
    assert {"players/[]/gem", "players/[]/coins/[]"} <= {_name(s) for s, _ in POSITION_PLACES}


@pytest.mark.parametrize("place, kind, label", cases(LAYER_PLACES))
def test_every_number_of_the_rules_is_bounded(capsys, tmp_path, monkeypatch, place, kind, label):
    """`check` on a variant with the hostile number at one place of the layer schema: refused at the
    number (a key: at the key) if beyond the bound; a value of the wrong type refused at it; anything
    else located or accepted. Never a traceback."""
    monkeypatch.chdir(tmp_path)
    path, line, col, refused = write_case(tmp_path, LAYER, place, kind, label, {"layer": {"id": "v", "name": "V"}})
    code, out, err = run(capsys, "check", str(path))
    judge(code, out, err, path, line, col, refused, kind == "value" and label in WRONG_TYPE)


# `play` and `docs` read the same rules: each place once with a number beyond the bound, once with
# each value the loader lets through (those the schema or the checker judge, or that play).
SPOT = [(p, k, label) for p, k, label in cases(LAYER_PLACES)
        if label in ("5,000 digits", "5,000 digits as text", "negative", "hex", "zero-padded text", ".inf")]


@pytest.mark.parametrize("place, kind, label", SPOT)
def test_play_and_docs_answer_the_same(capsys, tmp_path, monkeypatch, place, kind, label):
    """`play` and `docs` on the same variants as `check`: the same located refusal, or (where the
    value is accepted) a whole game and a reference."""
    monkeypatch.chdir(tmp_path)
    path, line, col, refused = write_case(tmp_path, LAYER, place, kind, label, {"layer": {"id": "v", "name": "V"}})
    checked, _, check_err = run(capsys, "check", str(path))
    for args in (["play", "--players", "2", "--seed", "3"], ["docs", "--out", str(tmp_path / "out")]):
        code, out, err = run(capsys, *args, "--variant", str(path))
        judge(code, out, err, path, line, col, refused, False)
        assert (code == 0) == (checked == 0), err
        if code:
            assert set(located_errors(err)) == {e for e in located_errors(check_err)}, err


@pytest.mark.parametrize("place, kind, label", cases(POSITION_PLACES))
def test_every_number_of_a_position_is_bounded(capsys, tmp_path, monkeypatch, place, kind, label):
    """`score` on a position with the hostile number at one place of the position schema: refused
    at the number if beyond the bound (a wrong type too), else located or scored."""
    monkeypatch.chdir(tmp_path)
    path, line, col, refused = write_case(tmp_path, POSITION, place, kind, label, {})
    code, out, err = run(capsys, "score", str(path))
    judge(code, out, err, path, line, col, refused, label in WRONG_TYPE)
    code, out, err = run(capsys, "score", "--json", str(path))
    assert "Traceback" not in out + err
    (line_json,) = [json.loads(x) for x in out.splitlines()]
    assert ("errors" in line_json) == (code == 1)


# -- the parser itself ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["9" * 5000, "9" * (MAX_TEXT + 1), "-" + "9" * 16, "1" + "0" * MAX_DIGITS])
def test_the_parser_refuses_beyond_the_bound_before_converting(text):
    """No `int()` on a long numeral: refused by its length first, then by its value."""
    with pytest.raises(NumberError):
        parse_int(text)
    with pytest.raises(NumberError):
        parse_float(text)
    with pytest.raises(NumberError):
        json_loads('{"a": ' + text + "}")


def test_the_parser_reads_what_is_within_the_bound():
    assert parse_int("9" * MAX_DIGITS) == 10 ** MAX_DIGITS - 1 and parse_int("-12") == -12
    assert parse_int("0x_1F", yaml=True) == 31 and parse_int("1:30", yaml=True) == 90 and parse_int("017", yaml=True) == 15
    assert key_int("3") == 3 and key_int(4) == 4
    assert json_loads('{"a": [1, 2.5, -3]}') == {"a": [1, 2.5, -3]}
    for bad in ("", "1.5", "٣", " 3", "3 ", "+"):
        with pytest.raises(NumberError):
            parse_int(bad)
    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(NumberError):
            json_loads(f"[{constant}]")
