"""Tests for nidavellir.compiler.schema (inline schemas; the real ones live elsewhere)."""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path

import pytest

from nidavellir.compiler import schema as schema_mod
from nidavellir.compiler.diagnostics import Diagnostic, Diagnostics, Location, clear_sources
from nidavellir.compiler.schema import load_schema, validate
from nidavellir.compiler.yamlload import load_yaml

SUITS = ["blacksmith", "hunter", "explorer", "miner", "warrior"]

CARD = {
    "type": "object",
    "required": ["id", "suit"],
    "additionalProperties": False,
    "properties": {
        "id": {
            "type": "string",
            "pattern": "^[a-z_0-9]+$",
            "description": "lowercase letters, digits and underscores",
        },
        "suit": {"enum": SUITS},
        "rank": {"type": "integer", "minimum": 1, "maximum": 5},
        "name": {"type": "string", "pattern": "^[A-Z]", "minLength": 2},
        "bravery": {"type": "array", "minItems": 1, "items": {"type": "integer"}},
        "kind": {"const": "card"},
        "effect": {
            "oneOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "required": ["do"],
                    "additionalProperties": False,
                    "properties": {"do": {"enum": ["gain", "lose"]}, "amount": {"type": "integer"}},
                },
            ]
        },
        "cost": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]},
    },
}


@pytest.fixture(autouse=True)
def _fresh_sources():
    clear_sources()
    yield
    clear_sources()


def check(text: str, schema: dict = CARD, path: str = "card.yaml") -> list[Diagnostic]:
    diags = Diagnostics()
    ok = validate(load_yaml(path, text), schema, diags)
    assert ok == (not diags)
    return diags.items


def check_one(text: str, schema: dict = CARD) -> Diagnostic:
    (diag,) = check(text, schema)
    return diag


def at(diag: Diagnostic) -> tuple[int, int]:
    assert diag.loc is not None
    return diag.loc.line, diag.loc.col


def test_valid_document_adds_nothing():
    diags = Diagnostics()
    loaded = load_yaml("card.yaml", "id: dwarf_1\nsuit: miner\nrank: 2\neffect: {do: gain, amount: 3}\n")
    assert validate(loaded, CARD, diags) is True
    assert not diags


def test_unknown_key_at_the_key_with_suggestion():
    diag = check_one("id: a\nsuit: miner\nbravry: [1]\n")
    assert diag.message == "unknown key `bravry`"
    assert diag.hint == "did you mean `bravery`?"
    assert at(diag) == (3, 1)
    assert diag.format() == (
        "card.yaml:3:1: error: unknown key `bravry`\n"
        "    bravry: [1]\n"
        "    ^\n"
        "  hint: did you mean `bravery`?"
    )


def test_unknown_key_without_a_close_match_lists_the_allowed_keys():
    diag = check_one("id: a\nsuit: miner\nzzz: 1\n")
    assert diag.hint == "allowed keys: id, suit, rank, name, bravery, kind, effect, cost"


def test_unknown_keys_each_reported_in_flow_mappings():
    diags = check("{id: a, suit: miner, colour: red, rnk: 2}\n")
    assert [(d.message, at(d)) for d in diags] == [
        ("unknown key `colour`", (1, 22)),
        ("unknown key `rnk`", (1, 35)),
    ]
    assert diags[1].hint == "did you mean `rank`?"


def test_missing_required_key_at_the_mapping():
    diags = check("# a card\nrank: 2\nname: Ylud\n")
    assert [(d.message, at(d)) for d in diags] == [
        ("missing required key `id`", (2, 1)),
        ("missing required key `suit`", (2, 1)),
    ]


def test_enum_with_suggestion():
    diag = check_one("id: a\nsuit: explorr\n")
    assert diag.message == "`explorr` is not one of: blacksmith, hunter, explorer, miner, warrior"
    assert diag.hint == "did you mean `explorer`?"
    assert at(diag) == (2, 7)


def test_const():
    diag = check_one("id: a\nsuit: miner\nkind: crad\n")
    assert diag.message == "`crad` is not one of: card"
    assert diag.hint == "did you mean `card`?"
    assert at(diag) == (3, 7)


def test_type_messages():
    diags = check("id: a\nsuit: miner\nrank: abc\nbravery: [1, two, 3]\nname: 7\n")
    assert [(d.message, at(d)) for d in diags] == [
        ("expected integer, got string `abc`", (3, 7)),
        ("expected integer, got string `two`", (4, 14)),
        ("expected string, got integer `7`", (5, 7)),
    ]


def test_type_of_empty_and_container_values():
    diags = check("id:\nsuit: miner\nrank: [1]\nname: {a: 1}\n")
    assert [d.message for d in diags] == [
        "expected string, got an empty value",
        "expected integer, got a list",
        "expected string, got a mapping",
    ]


def test_pattern_uses_the_description_when_there_is_one():
    diags = check("id: Bad-Id\nsuit: miner\nname: ylud\n")
    assert [(d.message, at(d)) for d in diags] == [
        ("`Bad-Id` does not match the expected form: lowercase letters, digits and underscores", (1, 5)),
        ("`ylud` does not match the expected form `^[A-Z]`", (3, 7)),
    ]


def test_bounds():
    diags = check("id: a\nsuit: miner\nrank: 9\nname: Y\nbravery: []\n")
    assert [(d.message, at(d)) for d in diags] == [
        ("`9` is too large: the maximum is 5", (3, 7)),
        ("`Y` is too short: at least 2 characters expected", (4, 7)),
        ("expected at least 1 item, got 0", (5, 10)),
    ]
    assert check_one("id: a\nsuit: miner\nrank: 0\n").message == "`0` is too small: the minimum is 1"


def test_one_of_reports_the_errors_of_the_intended_alternative():
    diags = check("id: a\nsuit: miner\neffect: {do: gian, amont: 2}\n")
    assert [(d.message, at(d), d.hint) for d in diags] == [
        ("`gian` is not one of: gain, lose", (3, 14), "did you mean `gain`?"),
        ("unknown key `amont`", (3, 20), "did you mean `amount`?"),
    ]
    diag = check_one("id: a\nsuit: miner\neffect: {amount: 2}\n")
    assert (diag.message, at(diag)) == ("missing required key `do`", (3, 9))


def test_one_of_without_a_clear_alternative():
    diag = check_one("id: a\nsuit: miner\neffect: 3\n")
    assert diag.message == "expected string or mapping, got integer `3`"
    assert at(diag) == (3, 9)


def test_any_of():
    diag = check_one("id: a\nsuit: miner\ncost: [1]\n")
    assert diag.message == "expected integer or string, got a list"
    diag = check_one("id: a\nsuit: miner\ncost: lots\n")
    assert diag.message == "`lots` does not match the expected form `^[0-9]+$`"
    assert at(diag) == (3, 7)


def test_one_of_matching_several_alternatives():
    ambiguous = {"oneOf": [{"type": "integer"}, {"minimum": 0}]}
    diag = check_one("3\n", ambiguous)
    assert diag.message == "`3` matches more than one of the allowed forms"


def test_all_errors_reported_sorted_by_location():
    text = "name: y\nrank: 0\nsuit: explorr\nextra: 1\nid: X\n"
    diags = check(text)
    assert [(at(d), d.message.split(" ")[0]) for d in diags] == [
        ((1, 7), "`y`"),  # pattern
        ((1, 7), "`y`"),  # minLength
        ((2, 7), "`0`"),
        ((3, 7), "`explorr`"),
        ((4, 1), "unknown"),
        ((5, 5), "`X`"),
    ]


def test_errors_are_added_to_an_existing_collector():
    diags = Diagnostics()
    diags.error(None, "earlier problem")
    assert validate(load_yaml("card.yaml", "id: a\n"), CARD, diags) is False
    assert [d.message for d in diags] == ["earlier problem", "missing required key `suit`"]


def test_located_in_nested_lists():
    schema = {"type": "array", "items": CARD}
    text = "- id: a\n  suit: miner\n- id: b\n  suit: hunter\n  rank: high\n"
    diag = check_one(text, schema)
    assert (diag.message, at(diag)) == ("expected integer, got string `high`", (5, 9))


def test_unique_items_points_at_the_repeat():
    schema = {"type": "array", "uniqueItems": True}
    diag = check_one("[1, 2, 1, true]\n", schema)
    assert (diag.message, at(diag)) == (f"`1` is listed twice (first at {diag.loc.path}:1:2)", (1, 8))
    assert diag.hint == "list each item once"


def test_property_names():
    schema = {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}
    diag = check_one("good: 1\nBad: 2\n", schema)
    assert diag.message == "invalid key: `Bad` does not match the expected form `^[a-z]+$`"
    assert at(diag) == (2, 1)


def test_dependent_required():
    schema = {"type": "object", "dependentRequired": {"cost": ["currency"]}}
    diag = check_one("name: x\ncost: 3\n", schema)
    assert (diag.message, at(diag)) == ("key `cost` requires key `currency`", (2, 1))


def test_false_subschema_forbids_a_key():
    schema = {"type": "object", "properties": {"old_name": False}}
    diag = check_one("a: 1\nold_name: x\n", schema)
    assert (diag.message, at(diag)) == ("key `old_name` is not allowed here", (2, 1))


def test_unevaluated_properties_with_refs():
    schema = {
        "$defs": {"named": {"properties": {"name": {"type": "string"}}}},
        "$ref": "#/$defs/named",
        "properties": {"rank": {"type": "integer"}},
        "unevaluatedProperties": False,
    }
    diag = check_one("name: x\nrnak: 1\n", schema)
    assert (diag.message, at(diag), diag.hint) == ("unknown key `rnak`", (2, 1), "did you mean `rank`?")


def test_additional_properties_with_pattern_properties():
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {"^x_": {"type": "integer"}},
        "additionalProperties": False,
    }
    diags = check("name: a\nx_custom: 1\nnmae: b\n", schema)
    assert [(d.message, at(d)) for d in diags] == [("unknown key `nmae`", (3, 1))]


def test_root_type_error_on_empty_document():
    diag = check_one("", CARD)
    assert diag.message == "expected mapping, got an empty value"
    assert diag.loc == Location("card.yaml", 1, 1)


def test_long_and_multiline_values_are_shortened():
    schema = {"type": "object", "properties": {"t": {"type": "integer"}}}
    diag = check_one("t: |\n  " + "x" * 80 + "\n  second line\n", schema)
    assert diag.message == "expected integer, got string `" + "x" * 37 + "...`"
    diag = check_one('t: "a\\nb"\n', schema)
    assert diag.message == "expected integer, got string `a\\nb`"


def test_non_ascii_and_bool_values():
    schema = {"type": "object", "properties": {"t": {"type": "string"}, "n": {"enum": [1, 2]}}}
    diags = check("t: yes\nn: 3\n", schema)
    assert [d.message for d in diags] == ["expected string, got boolean `true`", "`3` is not one of: 1, 2"]


# -- load_schema ------------------------------------------------------------------


@pytest.fixture
def schema_dir(tmp_path: Path, monkeypatch):
    """Make ``nidavellir.rules`` resources come from a temporary folder."""
    (tmp_path / "schemas").mkdir()
    real_files = importlib.resources.files

    def files(package):
        return tmp_path if package == "nidavellir.rules" else real_files(package)

    monkeypatch.setattr(importlib.resources, "files", files)
    load_schema.cache_clear()
    yield tmp_path / "schemas"
    load_schema.cache_clear()


def test_load_schema_reads_and_caches(schema_dir: Path):
    (schema_dir / "card.schema.json").write_text(json.dumps(CARD), encoding="utf-8")
    loaded = load_schema("card")
    assert loaded == CARD
    assert load_schema("card") is loaded


def test_load_schema_follows_refs_between_schema_files(schema_dir: Path):
    (schema_dir / "common.schema.json").write_text(
        json.dumps({"$defs": {"suit": {"enum": SUITS}}}), encoding="utf-8"
    )
    (schema_dir / "hero.schema.json").write_text(
        json.dumps({"type": "object", "properties": {"suit": {"$ref": "common.schema.json#/$defs/suit"}}}),
        encoding="utf-8",
    )
    diag = check_one("suit: minor\n", load_schema("hero"))
    assert (diag.message, diag.hint) == ("`minor` is not one of: " + ", ".join(SUITS), "did you mean `miner`?")


def test_load_schema_rejects_bad_names(schema_dir: Path):
    for name in ("../secrets", "a/b", "", ".hidden"):
        with pytest.raises(ValueError):
            load_schema(name)
    with pytest.raises(FileNotFoundError):
        load_schema("does_not_exist")


def test_the_packaged_schema_folder_is_used(monkeypatch):
    seen = []
    real_files = importlib.resources.files

    def files(package):
        seen.append(package)
        return real_files(package)

    monkeypatch.setattr(importlib.resources, "files", files)
    load_schema.cache_clear()
    try:
        with pytest.raises(FileNotFoundError):
            load_schema("no_such_schema_for_tests")
    finally:
        load_schema.cache_clear()
    assert seen == ["nidavellir.rules"]


def test_invalid_schema_is_a_programming_error():
    with pytest.raises(Exception) as info:
        validate(load_yaml("x.yaml", "a: 1\n"), {"type": "no-such-type"}, Diagnostics())
    assert type(info.value).__name__ == "SchemaError"


def test_validator_is_cached_per_schema(monkeypatch):
    schema = {"type": "object"}
    validate(load_yaml("x.yaml", "a: 1\n"), schema, Diagnostics())
    calls = []
    monkeypatch.setattr(schema_mod.Draft202012Validator, "check_schema", classmethod(lambda cls, s: calls.append(s)))
    validate(load_yaml("x.yaml", "a: 1\n"), schema, Diagnostics())
    assert calls == []
