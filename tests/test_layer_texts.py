"""A variant's own texts per language (issue 9, "Translations a designer can own"):

  "A variant file can carry its own texts per language (card names and any rule text it changes),
   validated by the schema; `docs --lang be --variant FILE` uses them; without them `--check`
   names the file and the entries that lack a text, and the docs say which entries fell back."
"""
from __future__ import annotations

from pathlib import Path

import pytest

from nidavellir.compiler.diagnostics import RulesError
from nidavellir.compiler.docs import compile_rules, load_catalog, render
from nidavellir.compiler.docs.layer_texts import lacking, with_layer_texts

from checking import find, run_check, write

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rules" / "variants").glob("*.yaml"))

VARIANT = """
layer:
  id: rich-dwerg
  name: Rich Dwerg
  description: The Dwerg brothers are worth more together.
cards:
  - id: grid
    name: Grid the Generous
    effects:
      - "when recruited: transform chosen coin by 9"
interpretations:
  - id: rich-dwerg-timing
    text: The bonus is counted at the end of the game.
    source: House rule.
"""

TEXTS = """
texts:
  be:
    name: "Багатыя Дўэргі"
    description: "Браты Дўэрг разам вартыя больш."
    cards:
      grid: "Грыд Шчодрая"
    interpretations:
      rich-dwerg-timing: {text: "Бонус лічыцца напрыканцы гульні.", source: "Хатняе правіла."}
"""


def _errors(path: Path) -> list[str]:
    with pytest.raises(RulesError) as err:
        compile_rules((), (str(path),))
    return [d.format() for d in err.value.diagnostics]


def test_the_variants_own_belarusian_texts_are_used(tmp_path):
    """`docs --lang be --variant FILE` uses them: the layer's name, its renamed card and its
    interpretation appear in Belarusian, and nothing of the variant falls back to English."""
    v = write(tmp_path / "rich.yaml", VARIANT + TEXTS)
    compiled = compile_rules((), (str(v),))
    cat = load_catalog("be")
    text = render(compiled, cat, "md")
    for be in ("Багатыя Дўэргі", "Грыд Шчодрая", "Бонус лічыцца напрыканцы гульні."):
        assert be in text
    for en in ("Rich Dwerg", "Grid the Generous", "The bonus is counted"):
        assert en not in text
    assert lacking(compiled, cat) == []
    assert not {k for k in cat.missing if "rich-dwerg" in k or k.endswith(".card.grid")}


def test_without_texts_every_entry_that_lacks_one_is_named_at_its_place(tmp_path):
    """Without them, the entries that lack a text are named, each where its English is written."""
    v = write(tmp_path / "rich.yaml", VARIANT)
    lacks = lacking(compile_rules((), (str(v),)), load_catalog("be"))
    got = [(lack.what, lack.loc.line) for lack in lacks]
    assert got == [
        ("the layer's name", find(v, "name: Rich")[0]),
        ("the layer's description", find(v, "description:")[0]),
        ("the name of card grid", find(v, "name: Grid")[0]),
        ("the text of interpretation rich-dwerg-timing", find(v, "text: The bonus")[0]),
        ("the source of interpretation rich-dwerg-timing", find(v, "source: House")[0]),
    ]
    assert all(lack.loc.path == str(v) for lack in lacks)


def test_a_partial_translation_lacks_only_what_it_leaves_out(tmp_path):
    """Only the entries without a text are named; English needs no `texts:` at all."""
    v = write(tmp_path / "rich.yaml", VARIANT + """
texts:
  be:
    name: "Багатыя Дўэргі"
    cards: {grid: "Грыд Шчодрая"}
""")
    compiled = compile_rules((), (str(v),))
    assert [lack.what for lack in lacking(compiled, load_catalog("be"))] == [
        "the layer's description", "the text of interpretation rich-dwerg-timing",
        "the source of interpretation rich-dwerg-timing"]
    assert lacking(compiled, load_catalog("en")) == []


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_variant_carries_its_belarusian_texts(path):
    """The shipped house rules own their translations: nothing of them lacks a Belarusian text."""
    compiled = compile_rules((), (str(path),))
    assert lacking(compiled, load_catalog("be")) == []
    assert with_layer_texts(compiled, load_catalog("be")).t(f"layer.{path.stem}.name") != \
        compiled.ruleset.layers[-1].name


def test_texts_for_an_unknown_card_or_interpretation_are_located_errors(tmp_path):
    """Validated: a text for a card or an interpretation the rule set lacks is refused at its key,
    with a did-you-mean."""
    v = write(tmp_path / "bad.yaml", VARIANT + """
texts:
  be:
    cards: {gird: "Грыд"}
    interpretations:
      rich-dwerg-timeing: {text: "…"}
    messages: {zone.nmae.camp: "Лагер"}
""")
    errors = _errors(v)
    line, col = find(v, "gird:")
    assert any(f"{v}:{line}:{col}: error: a text for the card `gird`" in e and "grid" in e for e in errors)
    line, col = find(v, "rich-dwerg-timeing:")
    assert any(f"{v}:{line}:{col}: error: a text for the interpretation `rich-dwerg-timeing`" in e
               and "rich-dwerg-timing" in e for e in errors)
    line, col = find(v, "zone.nmae.camp")
    assert any(f"{v}:{line}:{col}: error: `zone.nmae.camp` is not a message of the reference" in e for e in errors)


@pytest.mark.parametrize("block, words", [
    ("texts:\n  fr:\n    name: Nain\n", "fr"),
    ("texts:\n  be:\n    name: 3\n", "name"),
    ("texts:\n  be:\n    nmae: Імя\n", "nmae"),
    ("texts:\n  be:\n    interpretations:\n      rich-dwerg-timing: {source: Хатняе}\n", "text"),
])
def test_the_schema_refuses_malformed_texts(tmp_path, capsys, block, words):
    """Validated by the schema: an unknown language, a text that is not a string, an unknown
    field and an interpretation without its text are located errors of `check`."""
    v = write(tmp_path / "bad.yaml", VARIANT + block)
    code, _, err = run_check(capsys, "--variant", str(v))
    assert code == 1
    assert f"{v}:" in err and "error" in err and words in err


def test_docs_check_names_the_file_and_the_entries_that_lack_a_text(tmp_path, capsys):
    """`docs --lang be --variant FILE --check` names the file and each entry without a text (where
    its English is written, and where its text goes), and fails; with the texts it passes."""
    from nidavellir.cli import main

    v = write(tmp_path / "rich.yaml", VARIANT)
    assert main(["docs", "--lang", "be", "--variant", str(v), "--check"]) == 1
    err = capsys.readouterr().err
    line, col = find(v, "Grid the Generous")
    assert f"{v}:{line}:{col}: warning: no `be` text for the name of card grid" in err
    assert "texts.be.cards.grid" in err
    assert "5 entries of the variants have no `be` text" in err
    v.write_text(v.read_text(encoding="utf-8") + TEXTS, encoding="utf-8")
    assert main(["docs", "--lang", "be", "--variant", str(v), "--check"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_the_reference_says_which_entries_fell_back(tmp_path):
    """"…and the docs say which entries fell back": the designer's appendix lists each entry shown
    in English, in the page's language, with its house rule, its file and where its text goes."""
    v = write(tmp_path / "rich.yaml", VARIANT + """
texts:
  be:
    name: "Багатыя Дўэргі"
""")
    compiled = compile_rules((), (str(v),))
    text = render(compiled, load_catalog("be"), "md")
    appendix = text[text.index('<a id="sources"></a>'):]
    assert '<a id="sources-fallbacks"></a>Запісы, паказаныя па-ангельску' in appendix
    line = find(v, "name: Grid")[0]
    assert f"Назва карты «Grid the Generous» (Багатыя Дўэргі, `rich.yaml:{line}`): тэкст даецца пад " \
           "ключом `texts.be.cards.grid`." in appendix
    assert "Тэкст тлумачэньня rich-dwerg-timing" in appendix
    assert "Entries shown in English" not in render(compiled, load_catalog("en"), "md")
