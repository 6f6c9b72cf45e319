"""The Belarusian message catalogs (compiler/messages/be/*.yaml).

Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
translation falls back to English and is listed by `nidavellir docs --lang be --check`".
"""
from __future__ import annotations

import re
import string
from importlib import resources
from pathlib import Path

import pytest
import yaml
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.compiler.docs.text import (
    PLURAL_CATEGORIES,
    Catalog,
    card_text,
    context_of,
    formula_text,
)
from nidavellir.compiler.dsl import parse_expr

BASE = compile_specs(layer_specs())
FOLDER = resources.files("nidavellir.compiler.docs") / "messages"


def _files(lang: str) -> dict[str, dict[str, str]]:
    return {e.name: {str(k): str(v) for k, v in (yaml.safe_load(e.read_text(encoding="utf-8")) or {}).items()}
            for e in sorted((FOLDER / lang).iterdir(), key=lambda e: e.name) if e.name.endswith(".yaml")}


BE_FILES = _files("be")
BE = {k: v for texts in BE_FILES.values() for k, v in texts.items()}
EN = {k: v for texts in _files("en").values() for k, v in texts.items()}

# Texts whose English is the rules data's own (no English catalog key): the catalog may translate
# the rules data's card, special coin, tavern, zone and layer names and its interpretations and their
# sources, for the base game and each shipped box (Thingvellir, Idavoll). A zone's name may also be
# given as the deck effects draw from (`zone.deck.<id>`, a Belarusian genitive).
DATA_NAMES: set[str] = set()
for _box in (BASE, compile_specs(layer_specs(("thingvellir",))), compile_specs(layer_specs(("idavoll",)))):
    DATA_NAMES |= ({f"card.{cid}" for cid in _box.ruleset.cards}
                   | {f"coin.name.{c['id']}" for c in _box.merged.game["coins"].get("special", [])}
                   | {f"tavern.{t['id']}" for t in _box.merged.game["taverns"]}
                   | {f"zone.{f}.{z['id']}" for z in _box.merged.game.get("zones", []) for f in ("name", "deck")}
                   | {f"layer.{layer.id}.{f}" for layer in _box.ruleset.layers for f in ("name", "description", "source")}
                   | {f"interp.{i.id}{end}" for i in _box.ruleset.interpretations for end in ("", ".source")})
# The shipped house rules: their own texts, and the cards they rename.
for _variant in sorted((Path(__file__).parent.parent / "rules" / "variants").glob("*.yaml")):
    _compiled = compile_specs(layer_specs((), (str(_variant),)))
    _layer = _compiled.ruleset.layers[-1].id
    DATA_NAMES |= {f"layer.{_layer}.{f}" for f in ("name", "description", "source")}
    DATA_NAMES |= {f"layer.{_layer}.card.{cid}" for cid, card in _compiled.cards().items()
                   if card.name != getattr(BASE.ruleset.cards.get(cid), "name", None)}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_be_key_exists_in_english():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    Every `be` key translates an English one (or a rules-data name), so none is dead."""
    stray = {f"{name}: {key}" for name, texts in BE_FILES.items() for key in texts
             if key not in EN and key not in DATA_NAMES and not _be_plural_form(key)}
    assert not stray, sorted(stray)


def _be_plural_form(key: str) -> bool:
    """`plural.<noun>.<category>`: a Belarusian form (one, few, many) of a noun English counts."""
    noun, _, category = key.rpartition(".")
    return noun.startswith("plural.") and category in PLURAL_CATEGORIES["be"] and f"{noun}.other" in EN


def test_every_counted_noun_has_the_three_belarusian_forms():
    """Issue 9: "checks agreement (singular/plural)". A noun English counts (`plural.<noun>.one` /
    `.other`) has in Belarusian the forms after 1, after 2–4 and after 5 or more (one, few, many),
    and no other."""
    nouns = {k.rpartition(".")[0] for k in EN if k.startswith("plural.")}
    assert {f"{n}.{c}" for n in nouns for c in PLURAL_CATEGORIES["en"]} == {k for k in EN if k.startswith("plural.")}
    wanted = {f"{n}.{c}" for n in nouns for c in PLURAL_CATEGORIES["be"]}
    assert wanted == {k for k in BE if k.startswith("plural.")}, sorted(wanted ^ {k for k in BE if k.startswith("plural.")})


def test_no_key_is_given_twice_across_be_files():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    The files are merged: a key in two files would let one silently win."""
    seen: dict[str, str] = {}
    twice = []
    for name, texts in BE_FILES.items():
        for key in texts:
            if key in seen:
                twice.append(f"{key} ({seen[key]}, {name})")
            seen[key] = name
    assert not twice, twice


@pytest.mark.parametrize("key", sorted(BE))
def test_be_text_uses_exactly_the_english_placeholders(key):
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    Same placeholder names as the English text (a rules-data name has none), and it formats."""
    english = EN.get(key, "")
    assert fields(BE[key]) == fields(english), (key, BE[key], english)
    BE[key].format(**{name: "x" for name in fields(english)})


def test_base_game_rule_text_renders_in_belarusian_without_fallback():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    Every card's text and every class formula of the base game, with no English key used."""
    cat = Catalog.load("be")
    cx = context_of(BASE.ruleset, cat)
    texts = []
    for cid, card in BASE.cards().items():
        texts += card_text(card, BASE.effects[cid], cx)
    for cl in BASE.merged.game["classes"]:
        texts.append(formula_text(cl["id"], parse_expr(cl["score"]), cx))
    assert not cat.missing, sorted(cat.missing)
    assert all(t.strip() and not re.search(r"[{}]", t) for t in texts)
    assert not [t for t in texts if re.search(r"[A-Za-z]", t)], "English words left in the Belarusian text"


def test_every_base_card_class_kind_and_special_coin_has_a_belarusian_name():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    Names come from cards.yaml, not from the English rules data."""
    names = BE_FILES["cards.yaml"]
    wanted = ({f"card.{cid}" for cid in BASE.ruleset.cards}
              | {f"class.{c['id']}" for c in BASE.merged.game["classes"]} | {"class.neutral", "class.none"}
              | {f"kind.{k}" for k in BASE.merged.game["kinds"]}
              | {f"coin.name.{c['id']}" for c in BASE.merged.game["coins"].get("special", [])})
    assert wanted <= set(names), sorted(wanted - set(names))


SEED_004 = {  # card id -> its name as seed 004 writes it (the name, or the hero's short name)
    "distinction:warrior": "Каралеўская рука", "distinction:hunter": "Майстар паляваньня",
    "distinction:miner": "Каронны злотнік", "distinction:blacksmith": "Каралеўскі збраяр",
    "distinction:explorer": "Піянэр каралеўства", "royal-offering:3": "Каралеўскі дарунак",
    "astrid": "Астрыд", "dwerg": "Двэрг", "grid": "Грыд", "skaa": "Ска", "thrud": "Труд", "uline": "Улін",
    "ylud": "Ілюд", "aegur": "Эгур", "bonfur": "Банфур", "hourya": "Гурыя", "idunn": "Ідун", "aral": "Арал",
    "dagda": "Дагда", "lokdur": "Локдур", "zoral": "Зараль", "kraal": "Крааль", "tarah": "Тара",
    "warrior:3": "Ваяр", "hunter": "Паляўнічы", "miner:0": "Шахтэр", "blacksmith": "Каваль",
    "explorer:5": "Шукальнік",
}


@pytest.mark.parametrize("cid", sorted(SEED_004))
def test_card_names_follow_seed_004(cid):
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`"."""
    assert BE[f"card.{cid}"].startswith(SEED_004[cid]), BE[f"card.{cid}"]


def test_dwarf_cards_are_named_by_class_and_points():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    `warrior:3` ("Warrior 3") is "Ваяр 3": the class's Belarusian name and the same number."""
    for cid, card in BASE.cards().items():
        if ":" in cid and card.kind == "dwarf":
            cls, points = cid.split(":")
            assert BE[f"card.{cid}"] == f"{BE[f'class.{cls}']} {points}"


def test_no_word_mixes_cyrillic_and_latin_letters():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    A Latin look-alike inside a Cyrillic word (і/i, о/o, с/c) would break search and the index."""
    mixed = {(key, word) for key, text in BE.items() for word in re.findall(r"\w+", text)
             if re.search(r"[A-Za-z]", word) and re.search(r"[\u0400-\u04FF]", word)}
    assert not mixed, sorted(mixed)


def test_a_missing_translation_falls_back_to_english_and_is_listed():
    """Issue: "Belarusian complete for the base game, using seed 004's names and wording; a missing
    translation falls back to English and is listed by `nidavellir docs --lang be --check`"."""
    cat = Catalog.load("be")
    cat.messages.pop("card.grid")
    cat.messages.pop("effect.score")
    cx = context_of(BASE.ruleset, cat)
    assert cx.card("grid") == "Grid the Mercantile"  # the rules data's English name
    text = card_text(BASE.ruleset.cards["astrid"], BASE.effects["astrid"], cx)
    assert text[0].startswith("Scores ")
    assert "effect.score" in cat.missing


@pytest.mark.parametrize("variant", sorted(p.name for p in (Path(__file__).parent.parent / "rules" / "variants").glob("*.yaml")))
def test_shipped_variants_are_complete_in_belarusian(variant, capsys):
    """"a missing translation falls back to English and is listed by `nidavellir docs --lang be
    --check`": the shipped house rules have their `be` texts."""
    from nidavellir.cli import main

    path = str(Path(__file__).parent.parent / "rules" / "variants" / variant)
    assert main(["docs", "--lang", "be", "--variant", path, "--check"]) == 0, capsys.readouterr()


def test_a_card_a_variant_renames_is_not_shown_under_its_base_translation(tmp_path, capsys):
    """A house rule that renames a card: the `be` reference must not show the base game's
    translation of the old name; the new name falls back to English and `--check` names it, where
    its English is written and where its text goes."""
    from nidavellir.cli import main

    variant = tmp_path / "renamed.yaml"
    variant.write_text("layer: {id: renamed, name: Renamed}\n"
                       "cards:\n  - {id: skaa, name: Skaa the Enormous}\n", encoding="utf-8")
    assert main(["docs", "--lang", "be", "--variant", str(variant), "--check"]) == 1
    err_out = capsys.readouterr()
    assert f"{variant}:3:" in err_out.err and "no `be` text for the name of card skaa" in err_out.err
    assert "texts.be.cards.skaa" in err_out.err
    out = tmp_path / "out"
    assert main(["docs", "--lang", "be", "--variant", str(variant), "--out", str(out)]) == 0
    text = (out / "reference.md").read_text(encoding="utf-8")
    assert "Skaa the Enormous" in text
