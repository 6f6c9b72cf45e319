"""Words a reader can follow (issue 18): a card a house rule adds or changes says so by the house
rule's name in the reference and on the card sheet; the designer's appendix and the README cite
sources by their titles, never by a file name or a bare number; a count agrees with its noun
("1 coin", "2 coins"), never "coin(s)"."""
from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest
from checking import run_check, write
from docs_helpers import appendix, section
from nidavellir.compiler import docs
from nidavellir.compiler.build import compile_specs, layer_specs
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.docs.citations import cite
from nidavellir.compiler.docs.text import Catalog

from nidavellir.errors import count_of

ROOT = Path(__file__).resolve().parents[1]
# A seed document by file name (`002_3fed4e836b428413.txt`) or by bare number (`003 "Setup"`, `001`).
SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
SEED_NUMBER = re.compile(r"(?<![\w.,/-])00[0-4](?![\w/-]|[.,]\d)")

FORGE = """\
layer:
  id: brokks-forge
  name: Brokk's forge
  description: Brokk joins the heroes; Skaa is worth 15 and Grid transforms by 9.
cards:
  - id: brokk
    name: Brokk the Smith
    kind: hero
    class: neutral
    points: 12
  - id: skaa
    points: 15
  - id: grid
    effects:
      - "when recruited: transform chosen coin by 9"
texts:
  be:
    name: "Кузьня Брока"
    description: "Брок далучаецца да герояў; Скаа варты 15, а Грыд трансфармуе манэту на 9."
    cards:
      brokk: "Брок Коваль"
"""
NAMES = {"en": "Brokk's forge", "be": "Кузьня Брока"}


@pytest.fixture(scope="module")
def forge(tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    """The base game with a house rule that adds a hero (Brokk) and changes two (Skaa's points, a
    table row; Grid's effect, a full entry)."""
    path = write(tmp_path_factory.mktemp("forge") / "brokks-forge.yaml", FORGE)
    return compile_specs(layer_specs((), (str(path),)))


def _plain(text: str) -> str:
    """Markdown or HTML as a reader sees it: no tags, no escapes, no emphasis marks."""
    return html.unescape(re.sub(r"\\(.)", r"\1", re.sub(r"<[^>]+>", "", text))).replace("*", "")


# -- Added by / Changed by ----------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "be"])
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_reference_says_which_house_rule_added_and_which_changed_a_card(forge, lang, fmt):
    """Issue 18: "A new card is "Added by house rule …" in the reference and on the sheet, a changed
    one "Changed by"." — with the house rule's name in the page's language: Brokk (new, in the
    heroes' table) is added, Skaa (a row) and Grid (an entry) are changed; a card the house rule
    leaves alone carries neither mark."""
    cat = Catalog.load(lang)
    added, changed = cat.t("ref.added", names=NAMES[lang]), cat.t("ref.changed", names=NAMES[lang])
    if lang == "en":
        assert (added, changed) == ("Added by house rule Brokk's forge.", "Changed by house rule Brokk's forge.")
    else:
        assert added != changed and "Brokk" not in added + changed
    text = docs.render(forge, cat, fmt)
    cards = section(text, "cards", fmt)
    for cid, mark, other in (("brokk", added, changed), ("skaa", changed, added), ("grid", changed, added)):
        entry = _plain(section(cards, f"card-{cid}", fmt))
        assert mark in entry and other not in entry, (cid, entry)
    astrid = _plain(section(cards, "card-astrid", fmt))
    assert NAMES[lang] not in astrid


@pytest.mark.parametrize("lang", ["en", "be"])
def test_the_card_sheet_says_which_house_rule_added_and_which_changed_a_card(forge, lang, tmp_path):
    """Issue 18: "A new card is "Added by house rule …" in the reference and on the sheet, a changed
    one "Changed by"." — every printed copy of Brokk says added, of Skaa and Grid changed, in the
    sheet `docs --format html` writes; no other card carries a house rule's mark."""
    cat = Catalog.load(lang)
    docs.write(forge, cat, "html", tmp_path)
    page = (tmp_path / "cards.html").read_text(encoding="utf-8")
    marks: dict[str, set[str]] = {}
    for cid, body in re.findall(r'<article class="card [^"]*"[^>]*data-id="([^"]+)"(.*?)</article>', page, re.DOTALL):
        found = re.search(r'<p class="changed">(.*?)</p>', body, re.DOTALL)
        if found:
            marks.setdefault(cid, set()).add(_plain(found.group(1)))
    assert marks == {"brokk": {cat.t("sheets.added", names=NAMES[lang])},
                     "skaa": {cat.t("sheets.changed", names=NAMES[lang])},
                     "grid": {cat.t("sheets.changed", names=NAMES[lang])}}
    if lang == "en":
        assert marks["brokk"] == {"Added by house rule Brokk's forge."}


def test_a_card_one_house_rule_adds_and_another_changes_says_both(forge, tmp_path):
    """Issue 18: "Added by house rule …" … "Changed by" — a card a first house rule adds and a
    second changes names the first as adding it and the second as changing it."""
    first = write(tmp_path / "brokks-forge.yaml", FORGE)
    second = write(tmp_path / "sharper.yaml", "layer: {id: sharper, name: Sharper Brokk}\n"
                                              "cards:\n  - id: brokk\n    points: 14\n")
    compiled = compile_specs(layer_specs((), (str(first), str(second))))
    row = _plain(section(docs.render(compiled, Catalog.load("en"), "md"), "card-brokk", "md"))
    assert "Added by house rule Brokk's forge." in row and "Changed by house rule Sharper Brokk." in row
    assert "Changed by house rule Brokk's forge" not in row


# -- sources by their titles ---------------------------------------------------------------------------

SETS = [((), ()), (("thingvellir",), ()), (("idavoll",), ()),
        (("thingvellir", "idavoll"), ("first-game", "generous-offerings", "strict-warrior-majority"))]


@pytest.mark.parametrize("lang", ["en", "be"])
@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("boxes, variants", SETS, ids=["base", "thingvellir", "idavoll", "all"])
def test_the_appendix_cites_sources_by_title(boxes, variants, lang, fmt):
    """Issue 18: "The printed reference's designer appendix cites sources by their title
    ("Thingvellir rulebook, glossary"; "Nidavellir rulebook, Setup"), never by a file name such as
    `002_…txt` or a bare number." Every rule set's appendix, both languages: no seed file name, no
    bare seed number, the rulebook of each box in force by its title, a heading after it."""
    cat = Catalog.load(lang)
    text = _plain(appendix(docs.render(docs.compile_rules(boxes, variants), cat, fmt), fmt))
    assert not SEED_FILE.findall(text) and not SEED_NUMBER.findall(text), \
        sorted({m.group(0) for p in (SEED_FILE, SEED_NUMBER) for m in p.finditer(text)})
    assert "DESIGN §" not in text
    quote = '"' if lang == "en" else "«"
    assert f"{cat.t('cite.003')}, {quote}Setup" in text
    if "thingvellir" in boxes:
        assert f"{cat.t('cite.002')}, {quote}Glossary" in text
    if "idavoll" in boxes:
        assert f"{cat.t('cite.001')}, {quote}Idavoll Expansion" in text
    if "first-game" in variants:
        assert f"{cat.t('cite.003')}, {quote}First Game Advice" in text
    if lang == "en":
        assert 'Nidavellir rulebook, "Setup"' in text


def test_citing_keeps_what_is_not_a_source_document():
    """Issue 18: titles, "never … a file name … or a bare number" — the file name and the number of
    a document become its title (a comma after it kept, one added before a heading); a number that
    is no document, or a number inside a longer one, is printed as written."""
    en, be = Catalog.load("en"), Catalog.load("be")
    assert cite('002_3fed4e836b428413.txt "Glossary"', en) == 'Thingvellir rulebook, "Glossary"'
    assert cite("003 has no such rule; see 001.", en) == \
        "Nidavellir rulebook has no such rule; see Board Game Arena's Nidavellir help page."
    assert cite("003, «Setup»", be) == f"{be.t('cite.003')}, «Setup»"
    assert cite("DESIGN §9", en) == "the compiler's design notes, §9"
    for kept in ("1,000,000 games", "009 \"Notes\"", "my-notes.txt", "rank 003b", "2.003"):
        assert cite(kept, en) == kept


def test_the_readme_cites_no_seed_by_file_name_or_number():
    """Issue 18: sources by their title, never by a file name or a bare number — "the README likewise"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not SEED_FILE.findall(readme)
    assert not re.findall(r'(?<![\w.,/-])00[0-4] "', readme)
    assert not re.findall(r"\bseed 00[0-4]\b", readme)


# -- counts agree with their nouns ------------------------------------------------------------------------

@pytest.mark.parametrize("body, said", [
    ("game:\n  gems:\n    by_players: {3: [3]}\n", "error: 1 gem for 3 players"),
    ("game:\n  gems:\n    by_players: {3: [3, 4]}\n", "error: 2 gems for 3 players"),
    ("game:\n  coins:\n    treasure_removed: {2: {26: 1}}\n", "error: 1 coin of value 26 removed with 2 players"),
    ("game:\n  coins:\n    treasure_removed: {2: {25: 2}}\n", "error: 2 coins of value 25 removed with 2 players"),
    ("game:\n  coins:\n    basic: [{value: 0, trading: true}]\n", "1 basic coin for 3 taverns"),
    ("game:\n  coins:\n    basic: [{value: 0, trading: true}, {value: 2}]\n", "2 basic coins for 3 taverns"),
    ("decks:\n  - age: 1\n    remove: true\n  - age: 1\n    cards:\n      - {card: hunter, count: 1}\n",
     "warning: the Age 1 deck holds 1 card with 2 players"),
    ("decks:\n  - age: 1\n    remove: true\n  - age: 1\n    cards:\n      - {card: hunter, count: 2}\n",
     "warning: the Age 1 deck holds 2 cards with 2 players"),
    ('cards:\n  - id: grid\n    effects:\n      - "score ranks()"\n', "`ranks` takes 1 argument, got 0"),
    ('cards:\n  - id: grid\n    effects:\n      - "score lookup(1)"\n', "`lookup` takes at least 2 arguments, got 1"),
])
def test_check_says_a_count_with_the_noun_that_agrees(capsys, tmp_path, body, said):
    """Issue 18: ""1 error", "2 errors" (not "error(s)")" — every count `check` reports agrees with
    its noun: "1 coin", "2 coins", "1 card", "2 cards", never "coin(s)"."""
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + body)
    _, _, err = run_check(capsys, str(v))
    assert said in err, err
    assert "(s)" not in err and "Traceback" not in err


def test_count_of_agrees_with_the_number():
    """Issue 18: "1 error", "2 errors" (not "error(s)")."""
    assert [count_of(n, "coin") for n in (0, 1, 2)] == ["0 coins", "1 coin", "2 coins"]
    assert count_of(1, "entry", "entries") == "1 entry" and count_of(3, "entry", "entries") == "3 entries"


def _literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that a user may read: every one but docstrings and comments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_message_says_a_plural_in_brackets():
    """Issue 18: "(not "error(s)")", in both languages — no string of the program's code, its message
    catalogs or its templates says a noun with "(s)"."""
    found = [f"{p.relative_to(ROOT)}:{line}: {text}" for folder in ("compiler", "runtime", "nidavellir")
             for p in sorted((ROOT / folder).rglob("*.py")) for line, text in _literals(p)
             if re.search(r"[^\W\d_]\((?:s|es|ies)\)", text)]
    for p in sorted((ROOT / "compiler" / "docs").rglob("*")):
        if p.suffix in {".yaml", ".j2"}:  # (a template's words: not its `{% … %}` and `{{ … }}` code)
            lines = re.sub(r"\{([%{]).*?[%}]\}", "", p.read_text("utf-8")).splitlines()
            found += [f"{p.relative_to(ROOT)}:{n}: {line}" for n, line in enumerate(lines, 1)
                      if not line.lstrip().startswith("#") and re.search(r"[^\W\d_]\((?:s|es|ies|ы|і)\)", line)]
    assert not found, "\n".join(found)
