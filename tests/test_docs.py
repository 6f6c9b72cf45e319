"""The rule reference (`nidavellir docs`): formats, links, cards, placeholders, the flow, the worked
table, house-rule marks, languages and the committed defaults."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from markupsafe import escape

from nidavellir.cli import main
from nidavellir.compiler import docs
from nidavellir.compiler.build import generated_dir, rules_dir
from nidavellir.compiler.docs.citations import cite
from nidavellir.compiler.docs.model import card_views
from nidavellir.compiler.docs.text import Catalog

from docs_helpers import section as _section
from docs_helpers import table

GENEROUS = str(rules_dir() / "variants" / "generous-offerings.yaml")
STRICT = str(rules_dir() / "variants" / "strict-warrior-majority.yaml")


@pytest.fixture(scope="module")
def base():
    return docs.compile_rules()


@pytest.fixture(scope="module")
def generous():
    return docs.compile_rules((), (GENEROUS,))


def _render(compiled, fmt: str, lang: str = "en") -> str:
    return docs.render(compiled, Catalog.load(lang), fmt)


@pytest.fixture(scope="module")
def outputs(base, generous) -> dict[str, str]:
    """Every reference the tests read: (rule set, language, format) -> text."""
    out = {}
    for name, compiled in (("base", base), ("generous", generous)):
        for lang in ("en", "be"):
            for fmt in ("md", "html"):
                out[f"{name}.{lang}.{fmt}"] = _render(compiled, fmt, lang)
    return out


def _anchors(text: str, fmt: str) -> list[str]:
    return re.findall(r'<a id="([^"]+)"></a>' if fmt == "md" else r'\bid="([^"]+)"', text)


def _links(text: str, fmt: str) -> list[str]:
    return re.findall(r"\]\(#([^)\s]+)\)" if fmt == "md" else r'href="#([^"]+)"', text)


# -- formats --------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_each_format_renders(tmp_path, capsys, fmt):
    """Issue: "nidavellir docs [--expansions E,…] [--variant FILE]… [--format md|html|pdf]
    [--lang en|be] --out DIR" — each format renders (pdf is tested with the card sheets)."""
    assert main(["docs", "--format", fmt, "--out", str(tmp_path)]) == 0
    text = (tmp_path / f"reference.{fmt}").read_text(encoding="utf-8")
    assert "reference." + fmt in capsys.readouterr().out
    assert Catalog.load("en").t("ref.title") in text
    if fmt == "html":
        assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    else:
        assert text.startswith("# ")


def test_output_is_deterministic_and_names_no_local_path(base, outputs):
    """Issue: "Output must be deterministic (no dates, no absolute paths)"."""
    assert _render(base, "md") == outputs["base.en.md"]
    assert _render(base, "html", "be") == outputs["base.be.html"]
    for text in outputs.values():
        assert str(Path.cwd()) not in text and str(rules_dir()) not in text


# -- links and anchors -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["base.en.md", "base.en.html", "base.be.md", "base.be.html",
                                  "generous.en.md", "generous.en.html"])
def test_every_internal_link_resolves(outputs, name):
    """Issue: "every internal link `#anchor` / `href="#…"` in the outputs resolves to an anchor that
    exists" — and no anchor is defined twice."""
    fmt = name.rsplit(".", 1)[1]
    text = outputs[name]
    anchors = _anchors(text, fmt)
    twice = [a for a, n in Counter(anchors).items() if n > 1]
    assert not twice, f"anchors defined twice: {twice}"
    links = _links(text, fmt)
    assert len(links) > 100  # contents, cards, index
    assert sorted(set(links) - set(anchors)) == []


def test_index_links_every_card(base, outputs):
    """Issue: "an index of cards (links to each card's anchor)"."""
    index = _section(outputs["base.en.md"], "index", "md")
    for view in card_views(base, Catalog.load("en")):
        assert f"](#{view['anchor']})" in index


# -- cards -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_every_card_appears_with_name_and_rule_text_grouped_by_kind(base, outputs, fmt):
    """Issue: "every card grouped by kind with its name, class, ranks/points and rule text" and
    "every card's rule text comes from its effect IR (via compiler/text.py), never hand-written";
    issue 9: "one-line card entries grouped into a table; keep full entries for cards with real rule
    text" — a card with effects has its entry with every sentence of its text; a card whose text is
    only its ranks is a row of its kind's table, with its class, ranks and Bravery Points."""
    text = outputs[f"base.en.{fmt}"]
    esc = docs.md_escape if fmt == "md" else escape
    views = card_views(base, Catalog.load("en"))
    assert {v["id"] for v in views} == set(base.ruleset.cards)
    rows = 0
    for kind in base.merged.game["kinds"]:
        group = _section(text, f"kind-{kind}", fmt)
        for view in (v for v in views if v["kind"] == kind):
            entry = _section(group, view["anchor"], fmt)
            assert str(esc(view["name"])) in entry
            card = base.ruleset.cards[view["id"]]
            if base.effects.get(view["id"]):
                for sentence in view["text"]:
                    assert str(esc(sentence)) in entry, (view["id"], sentence)
                continue
            assert entry.startswith("|" if fmt == "md" else "<tr"), view["id"]
            head, *body = table(group, f"kind-{kind}-table", fmt)
            row = dict(zip(head, next(r for r in body if r[0].startswith(view["name"]))))
            assert row["Class"] == view["class_label"].capitalize(), (view["id"], row)
            if "Ranks" in row:
                assert row["Ranks"] == str(len(card.ranks) or "–"), (view["id"], row)
                assert row["Bravery Points"] == (", ".join(map(str, card.ranks)) or "–"), (view["id"], row)
            assert row.get("Points", "–") == str(card.points or "–"), (view["id"], row)
            rows += 1
    assert rows >= 22  # every dwarf, and the heroes of ranks only


def test_card_views_are_the_sheet_contract(base):
    """Issue: "cards = list of dicts: {"id", "anchor", "name", "kind", "class", "class_label",
    "ranks_label", "text": [sentences]} — please produce exactly this list via a function
    card_views(compiled, cat)"."""
    views = card_views(base, Catalog.load("en"))
    assert views and all(set(v) == {"id", "anchor", "name", "kind", "class", "class_label", "ranks_label", "text"}
                         for v in views)
    grid = next(v for v in views if v["id"] == "grid")
    assert grid["anchor"] == "card-grid" and grid["kind"] == "hero" and grid["class"] == "neutral"
    assert grid["ranks_label"] and all(isinstance(s, str) and s for s in grid["text"])
    kinds = [v["kind"] for v in views]
    assert kinds == sorted(kinds, key=list(base.merged.game["kinds"]).index)  # grouped by kind


# -- placeholders --------------------------------------------------------------------------------

def test_no_output_holds_a_placeholder(outputs):
    """Issue: "no output contains a placeholder (`{`, `}`, `<X>`, `None`, `TODO`, an unrendered
    `{{`)"; DESIGN §11: avoid "a fallback that prints "<X>" when a node has no text"."""
    for name, text in outputs.items():
        body = re.sub(r"<style>.*?</style>", "", text, flags=re.S)  # the stylesheet's own braces
        for bad in ("{", "}", "<X>", "None", "TODO", "&lt;X&gt;"):
            assert bad not in body, f"{name} holds {bad!r}"
        assert not re.search(r"\bundefined\b", body), name


# -- the sections built from data --------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_turn_sequence_lists_the_flow_steps_in_data_order(base, outputs, fmt):
    """Issue: "the turn sequence rendered from the flow data" and "the turn sequence lists the flow
    steps in data order" (also the end of each age)."""
    flow = base.merged.game["flow"]
    acted = {getattr(e, "event", None) for effects in base.effects.values() for _, e in effects}

    def listed(step: dict) -> bool:  # issue 9: a window no card acts at is left out
        return bool(step.get("do")) or step.get("window") in acted

    text = outputs[f"base.en.{fmt}"]
    turn = [a for a in _anchors(_section(text, "turn", fmt), fmt) if a.startswith("step-")]
    assert turn == [f"step-{s['id']}" for s in flow["turn"] if listed(s)]
    assert len(turn) < len(flow["turn"])  # the base game's "after the dwarves have entered" has no card
    for age in base.merged.game["ages"]:
        section = _section(text, f"age-end-{age}", fmt)
        steps = [a for a in _anchors(section, fmt) if a.startswith(f"age-{age}-")]
        assert steps == [f"age-{age}-{s['id']}" for s in flow["age_end"] if age in s.get("ages", [age]) and listed(s)]


def test_timing_windows_name_the_cards_that_act_there(outputs):
    """DESIGN §7: "Events and timing windows come from the flow data; handlers compiled from cards
    subscribe to them" — the reference says which cards act at each window."""
    md = outputs["base.en.md"]
    age2 = _section(md, "age-end-2", "md")
    assert "](#card-ylud)" in age2 and "](#card-thrud)" in age2
    assert "](#card-thrud)" not in _section(md, "age-end-1", "md")


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_worked_table_evaluates_the_compiled_formulas(outputs, fmt):
    """Issue: "a worked table (e.g. 1–10 ranks, computed by evaluating the compiled class formulas —
    hunters n², blacksmiths n(n+5)/2 — for a column of n pointless ranks)" and "the worked table's
    hunter/blacksmith values match n² and n(n+5)/2"."""
    text = outputs[f"base.en.{fmt}"]
    if fmt == "md":
        block = text[text.index('<a id="worked-table"></a>'):].split("\n\n")[1]
        rows = [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines()]
        head, body = rows[0], rows[2:]
    else:
        block = text[text.index('<table id="worked-table">'):text.index("</table>", text.index('id="worked-table"'))]
        head = re.findall(r"<th>(.*?)</th>", block)
        body = [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", block)[1:]]
    cat = Catalog.load("en")
    hunter, smith = head.index(cat.t("class.hunter")), head.index(cat.t("class.blacksmith"))
    assert [int(r[0]) for r in body] == list(range(1, 11))
    for r in body:
        n = int(r[0])
        assert int(r[hunter]) == n * n
        assert int(r[smith]) == n * (n + 5) // 2


def test_other_classes_explain_their_formula_with_an_example(outputs):
    """Issue: "for warriors/miners/explorers explain the formula" — the formula text from the IR and
    an example column evaluated with the compiled formula."""
    md = outputs["base.en.md"]
    warrior = _section(md, "scoring-warrior", "md")
    assert "highest coin" in warrior and "is worth 17" in warrior  # 3 + 4 + 5 and a highest coin of 5
    assert "is worth 9" in _section(md, "scoring-miner", "md")      # (0 + 1 + 2) × 3 ranks
    assert "is worth 18" in _section(md, "scoring-explorer", "md")  # 5 + 6 + 7


def test_counts_come_from_the_rules_data(base, outputs, tmp_path):
    """Issue: "every number (player counts, gems per count, cards per tavern, treasure coins, deck
    sizes) comes from the data" — a variant that changes a count changes the reference."""
    md = outputs["base.en.md"]
    players = _section(md, "components-players", "md")
    assert "| 2 | 4, 5 | 3 | 9 | 28 |" in players
    assert "| 5 | 1, 2, 3, 4, 5 | 5 | 15 | 34 |" in players
    decks = table(md, "decks-table", "md")
    assert ["Age 1", "2–4", "35", "1", "36"] in decks and ["Age 2", "5", "43", "3", "46"] in decks
    variant = tmp_path / "small-taverns.yaml"
    variant.write_text("layer: {id: small-taverns, name: Small taverns, description: Two cards per tavern.}\n"
                       "game:\n  cards_per_tavern: {2: 2}\n", encoding="utf-8")
    text = _render(docs.compile_rules((), (str(variant),)), "md")
    assert "| 2 | 4, 5 | 2 | 6 | 28 |" in _section(text, "components-players", "md")
    assert "Changed by house rule Small taverns." in _section(text, "components", "md")


# -- house rules ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_variant_names_the_house_rule_and_marks_what_it_changes(generous, outputs, fmt):
    """Issue: "with --variant rules/variants/generous-offerings.yaml the reference names the house
    rule and marks the royal offerings and Grid as changed (and the same without the variant marks
    nothing)"."""
    cat = Catalog.load("en")
    mark = str((docs.md_escape if fmt == "md" else escape)(cat.t("ref.changed", names="Generous offerings")))
    text = outputs[f"generous.en.{fmt}"]
    house = _section(text, "house-rules", fmt)
    assert "Generous offerings" in house and "Grid transforms by 9" in house
    cards = _section(text, "cards", fmt)
    changed = {cid for cid in generous.ruleset.cards if mark in _section(cards, "card-" + cid.replace(":", "-"), fmt)}
    assert changed == {"royal-offering:3", "royal-offering:5", "grid"}
    base = outputs[f"base.en.{fmt}"]
    assert cat.t("ref.changed", names="")[:12] not in base
    assert 'id="house-rules"' not in base


def test_variant_marks_a_changed_class_formula(tmp_path, capsys):
    """Issue: "class formulas/game settings changed by a variant layer: … a card or formula whose
    origin is in a variant layer is marked, e.g. "changed by house rule X""."""
    assert main(["docs", "--variant", STRICT, "--out", str(tmp_path)]) == 0
    md = (tmp_path / "reference.md").read_text(encoding="utf-8")
    assert "Changed by house rule Strict warrior majority." in _section(md, "scoring-warrior", "md")
    assert "Changed by house rule" not in _section(md, "scoring-hunter", "md")
    assert "you alone have the most" in _section(md, "scoring-warrior", "md")


# -- languages -------------------------------------------------------------------------------------------

def test_lang_be_check_lists_the_keys_that_fall_back(base, tmp_path, capsys, monkeypatch):
    """Issue: "`--lang be --check` lists the keys that fell back to English (exit 1 if any, 0
    otherwise) without writing"."""
    monkeypatch.chdir(tmp_path)
    status = main(["docs", "--lang", "be", "--check"])
    out = capsys.readouterr().out
    cat = Catalog.load("be")
    docs.render_all(base, cat)
    assert status == (1 if cat.missing else 0)
    assert out.split("\n")[:len(cat.missing)] == sorted(cat.missing)
    assert list(tmp_path.iterdir()) == []
    assert main(["docs", "--lang", "en", "--check"]) == 0


def test_belarusian_base_reference_has_no_untranslated_interpretation(base, outputs):
    """Issue: "Belarusian complete for the base game, using seed 004_18c418a3c159b928.txt's names and
    wording; a missing translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    Each interpretation of the base game and its source show their `be` text (`interp.<id>`,
    `interp.<id>.source`), never the rules data's English, which the English reference keeps."""
    escapes = {"md": docs.md_escape, "html": lambda text: str(escape(text))}
    cat, en = Catalog.load("be"), Catalog.load("en")
    assert len(base.ruleset.interpretations) == 19
    for i in base.ruleset.interpretations:
        for key, english in ((f"interp.{i.id}", i.text), (f"interp.{i.id}.source", cite(i.source, en))):
            assert key in cat.messages, key
            shown = cite(cat.messages[key], cat) if key.endswith(".source") else cat.messages[key]
            for fmt, esc in escapes.items():
                assert esc(english) in outputs[f"base.en.{fmt}"], (key, fmt)
                assert esc(english) not in outputs[f"base.be.{fmt}"], (key, fmt)
                assert esc(shown) in outputs[f"base.be.{fmt}"], (key, fmt)
    docs.render_all(base, cat)
    assert not cat.missing, sorted(cat.missing)


def test_lang_be_check_lists_an_interpretation_without_be_text(base, capsys, monkeypatch):
    """Issue: "Belarusian complete for the base game, using seed 004_18c418a3c159b928.txt's names and
    wording; a missing translation falls back to English and is listed by `nidavellir docs --lang be --check`".
    With `interp.last-dwarf` and its source removed from the `be` catalog, the reference shows the
    rules data's English for them and `--check` lists both keys (exit 1); English lists nothing."""
    def without_last_dwarf(lang: str) -> Catalog:
        cat = Catalog.load(lang)
        for key in ("interp.last-dwarf", "interp.last-dwarf.source"):
            cat.messages.pop(key, None)
        return cat

    monkeypatch.setattr(docs, "load_catalog", without_last_dwarf)
    assert main(["docs", "--lang", "be", "--check"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["interp.last-dwarf", "interp.last-dwarf.source"]
    assert "2 message keys of the catalog have no `be` text" in captured.err
    cat = without_last_dwarf("be")
    md = docs.render(base, cat, "md")
    last_dwarf = next(i for i in base.ruleset.interpretations if i.id == "last-dwarf")
    assert docs.md_escape(last_dwarf.text) in md and docs.md_escape(cite(last_dwarf.source, cat)) in md
    assert cat.missing == {"interp.last-dwarf", "interp.last-dwarf.source"}
    assert main(["docs", "--lang", "en", "--check"]) == 0


def test_belarusian_reference_uses_the_be_catalog(outputs):
    """Issue: "--lang en|be" — the reference's words come from the catalog of that language."""
    cat = Catalog.load("be")
    title = cat.t("ref.title")
    assert f"{title}</title>" in outputs["base.be.html"] and '<html lang="be">' in outputs["base.be.html"]


# -- command line errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--lang", "xx", "--out", "OUT"], "unknown language `xx` (choose from: en, be)"),
    (["--format", "docx", "--out", "OUT"], "unknown format `docx` (choose from: md, html, pdf)"),
    ([], "--out DIR is required"),
    (["--out", "FILE/sub"], "cannot write"),
])
def test_errors_are_clear_messages(tmp_path, capsys, args, message):
    """Issue: "errors (unknown lang/format, unwritable --out) are clear messages, never tracebacks"."""
    (tmp_path / "FILE").write_text("", encoding="utf-8")
    args = [a.replace("OUT", str(tmp_path / "out")).replace("FILE", str(tmp_path / "FILE")) for a in args]
    assert main(["docs", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nidavellir docs: error: ") and message in err and "Traceback" not in err


def test_rules_errors_print_like_check(tmp_path, capsys):
    """Issue: "rules errors print like `nidavellir check`'s"."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("layer: {id: bad, name: Bad}\ncards:\n  - {id: grid, effects: ['when recruited: transform chosen coin by x']}\n",
                   encoding="utf-8")
    assert main(["docs", "--variant", str(bad), "--out", str(tmp_path / "out")]) == 1
    docs_err = capsys.readouterr().err
    assert main(["check", "--variant", str(bad)]) == 1
    check_err = capsys.readouterr().err
    assert re.search(r"bad\.yaml:3:\d+: error: ", docs_err)
    assert docs_err.strip() in check_err
    assert not (tmp_path / "out").exists()


# -- committed defaults ------------------------------------------------------------------------------------

def test_build_writes_the_default_references_and_check_passes(outputs, capsys):
    """Issue: "`nidavellir build` also writes the default references (base game, `en` and `be`,
    Markdown and HTML) under `generated/docs/`" and "`build --check` passes on the repo"."""
    for lang in ("en", "be"):
        for fmt in ("md", "html"):
            path = generated_dir() / "docs" / lang / f"reference.{fmt}"
            assert path.read_text(encoding="utf-8") == outputs[f"base.{lang}.{fmt}"], path
    assert main(["build", "--check"]) == 0
