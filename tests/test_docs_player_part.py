"""The printed reference as players and designers read it (issue 9, "The printed reference"): the
player part says rules, not implementation; the designer's appendix keeps every source and
interpretation; the dense tables count what the rules data holds; Belarusian pages name their
sections in Belarusian; the wording bugs a read-through found stay fixed. Every box combination,
both languages, Markdown and HTML."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from nidavellir.compiler import docs
from nidavellir.compiler.build import rules_dir
from nidavellir.compiler.docs.citations import cite
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.docs.text import Catalog

from docs_helpers import appendix, esc, player_part, section, table, visible

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]
FORMATS = ("md", "html")
_COMPILED: dict[tuple[str, ...], Compiled] = {}
_TEXTS: dict[tuple[tuple[str, ...], str, str], str] = {}


def compiled_for(boxes: tuple[str, ...]) -> Compiled:
    if boxes not in _COMPILED:
        _COMPILED[boxes] = docs.compile_rules(boxes)
    return _COMPILED[boxes]


def text_for(boxes: tuple[str, ...], lang: str, fmt: str) -> str:
    key = (boxes, lang, fmt)
    if key not in _TEXTS:
        _TEXTS[key] = docs.render(compiled_for(boxes), Catalog.load(lang), fmt)
    return _TEXTS[key]


def box_id(boxes: tuple[str, ...]) -> str:
    return "+".join(boxes) or "base"


EVERY = [pytest.param(b, lang, fmt, id=f"{box_id(b)}-{lang}-{fmt}") for b in BOXES for lang in ("en", "be")
         for fmt in FORMATS]


def headings(text: str, fmt: str) -> list[str]:
    """Every heading and every table heading cell, as a reader sees it."""
    if fmt == "md":
        lines = text.splitlines()
        found = [ln.lstrip("#") for ln in lines if ln.startswith("#")]
        for i, ln in enumerate(lines[:-1]):
            if ln.startswith("|") and lines[i + 1].startswith("| ---"):
                found += re.split(r"(?<!\\)\|", ln)[1:-1]
    else:
        found = re.findall(r"<h\d[^>]*>(.*?)</h\d>", text, re.DOTALL) + re.findall(r"<th>(.*?)</th>", text, re.DOTALL)
        found += re.findall(r"<title>(.*?)</title>", text, re.DOTALL)
    return [visible(h, fmt).strip() for h in found]


# -- the player part says rules, not implementation ---------------------------------------------------

@pytest.mark.parametrize("boxes, lang, fmt", EVERY)
def test_the_player_part_shows_no_effect_syntax(boxes, lang, fmt):
    """Issue 9: "The player-facing part says rules, not implementation: no DSL keywords
    (`when`/`whenever`)" — none of the rules data's effect strings ("when taken: transform chosen
    coin by 3"), no DSL trigger head ("when recruited:", "whenever trades:"), no code quotes; in
    Belarusian no English keyword at all."""
    compiled = compiled_for(boxes)
    seen = visible(player_part(text_for(boxes, lang, fmt), fmt), fmt)
    sources = {src for effects in compiled.effects.values() for src, _ in effects}
    assert sources and not [src for src in sources if src in seen]
    assert not re.findall(r"\bwhen(?:ever)? [a-z-]+:", seen)
    assert "`" not in seen
    if lang == "be":
        assert not re.findall(r"\b(?:when|whenever)\b", seen, re.IGNORECASE)


@pytest.mark.parametrize("boxes, lang, fmt", EVERY)
def test_the_player_part_names_no_id_source_or_file(boxes, lang, fmt):
    """Issue 9: "no ids used as headings (show names), no internal section references ("§…",
    interpretation ids, file names)" — the player part (everything before "Sources and
    interpretations") shows no interpretation id, no "§", no DESIGN, no seed or rules file, no
    "Source:" note; and no heading is an id of the rules data."""
    compiled = compiled_for(boxes)
    text = text_for(boxes, lang, fmt)
    seen = visible(player_part(text, fmt), fmt)
    for i in compiled.ruleset.interpretations:
        assert not re.search(rf"(?<![\w-]){re.escape(i.id)}(?![\w-])", seen), i.id
    for bad in ("§", "DESIGN", ".yaml", ".txt", "rules/", "interp-", "ref."):
        assert bad not in seen, bad
    assert Catalog.load(lang).t("ref.appendix.house_source", source="").rstrip(" .") not in seen  # "Source:"
    ids = (set(compiled.ruleset.cards) | {i.id for i in compiled.ruleset.interpretations}
           | set(compiled.merged.game["kinds"]) | {z["id"] for z in compiled.merged.game.get("zones", [])}
           | {s["id"] for part in compiled.merged.game["flow"].values() if isinstance(part, list)
              for s in part if isinstance(s, dict)})
    named = set(headings(player_part(text, fmt), fmt))
    assert not named & (ids - {c.name for c in compiled.cards().values()}), sorted(named & ids)


@pytest.mark.parametrize("boxes, lang, fmt", EVERY)
def test_no_empty_window_is_listed(boxes, lang, fmt):
    """Issue 9: "no "No card of this rule set acts here" (omit empty windows/steps instead)" — every
    timing window the turn and the ends of the ages list names the cards that act there, and a
    window no card of the rule set acts at is not listed."""
    compiled = compiled_for(boxes)
    text = text_for(boxes, lang, fmt)
    assert "No card of this rule set acts here" not in text and "Ніводная карта гэтага набору" not in text
    acted = {getattr(e, "event", None) for effects in compiled.effects.values() for _, e in effects}
    flow = compiled.merged.game["flow"]
    for part, prefix in (("turn", "step-"), ("tavern", "tavern-step-")):
        for step in flow.get(part, []):
            listed = f'id="{prefix}{step["id"]}"' in text
            assert listed == bool(step.get("do") or step.get("window") in acted), step["id"]
            if listed and not step.get("do"):
                assert "#card-" in section(text, prefix + step["id"], fmt), step["id"]


@pytest.mark.parametrize("boxes", BOXES, ids=box_id)
def test_interpretations_read_as_rules_in_the_player_part(boxes):
    """Issue 9: "interpretations read as rules ("With 2 or 3 players…")" — each interpretation's text
    is stated, without its id, in the player part's Clarifications, and the appendix row of its id
    links to it."""
    compiled = compiled_for(boxes)
    for lang in ("en", "be"):
        cat = Catalog.load(lang)
        md = text_for(boxes, lang, "md")
        rules = section(player_part(md, "md"), "clarifications", "md")
        for n, i in enumerate(compiled.ruleset.interpretations, 1):
            stated = section(rules, f"rule-{i.id}", "md")
            assert stated.startswith(f"{n}. ") and docs.md_escape(cat.t(f"interp.{i.id}", default=i.text)) in stated
            assert f"](#rule-{i.id})" in section(appendix(md, "md"), f"interp-{i.id}", "md")
    setup = section(text_for(boxes, "en", "md"), "setup", "md")
    assert "With 2 or 3 players, return" in setup and "With 2 and 3 players" not in setup


# -- the designer's appendix keeps them all --------------------------------------------------------------

@pytest.mark.parametrize("boxes, lang, fmt", EVERY)
def test_the_appendix_lists_every_interpretation_with_its_source_and_file(boxes, lang, fmt):
    """Issue 9: "The sources and the interpretation ids go to a designer's appendix ("Sources and
    interpretations"), which keeps them all" — every interpretation of the rule set, by id, with its
    source citation and the rules file and line that record it."""
    compiled = compiled_for(boxes)
    cat = Catalog.load(lang)
    text = appendix(text_for(boxes, lang, fmt), fmt)
    listed = re.findall(r'<a id="interp-([^"]+)"></a>' if fmt == "md" else r'<li id="interp-([^"]+)"', text)
    assert listed == [i.id for i in compiled.ruleset.interpretations]
    root = rules_dir().parent
    for n, i in enumerate(compiled.ruleset.interpretations, 1):
        item = visible(section(text, f"interp-{i.id}", fmt), fmt)
        assert f"`{i.id}`" in item if fmt == "md" else f" {i.id} " in item, item
        assert visible(esc(cite(cat.t(f"interp.{i.id}.source", default=i.source), cat), fmt), fmt) in item, item
        path, line = re.search(r"(rules/\S+\.yaml):(\d+)", item).groups()  # type: ignore[union-attr]
        assert path.startswith(f"rules/{i.layer}/"), item
        assert f"id: {i.id}" in (root / path).read_text(encoding="utf-8").splitlines()[int(line) - 1], item
        assert f"](#rule-{i.id})" in section(text, f"interp-{i.id}", fmt) if fmt == "md" else \
            f'href="#rule-{i.id}">{n}<' in section(text, f"interp-{i.id}", fmt)


@pytest.mark.parametrize("boxes", BOXES, ids=box_id)
def test_the_section_sources_are_in_the_appendix_only(boxes):
    """Issue 9: "The sources … go to a designer's appendix" — each section's rulebook citation
    (Nidavellir rulebook, "Turn Sequence"; Thingvellir rulebook, "Setup"; …) is listed there with a
    link to the section, and none is printed in the player part."""
    cat = Catalog.load("en")
    md = text_for(boxes, "en", "md")
    sources = section(appendix(md, "md"), "sources-sections", "md")
    for key, anchor in (("ref.setup.source", "setup"), ("ref.turn.source", "turn"), ("ref.final.source", "final-scoring")):
        line = next(ln for ln in sources.splitlines() if f"](#{anchor})" in ln)
        assert docs.md_escape(cite(cat.t(key), cat)) in line
        assert docs.md_escape(cite(cat.t(key), cat)) not in player_part(md, "md")
    for box in boxes:
        assert docs.md_escape(cite(cat.t(f"ref.setup.source.{box}"), cat)) in sources


def test_house_rules_keep_their_marks_and_their_settings_go_to_the_appendix(tmp_path):
    """Issue 9: "With --variant, the house-rule marks still say which entries a house rule changed"
    — a house rule that changes a dwarf, the cards per tavern and adds an interpretation marks the
    dwarf's table row, the Components section and its clarification; the player part names the
    sections it changes, the appendix its settings (`cards_per_tavern.2`), its source, and its
    interpretation by id in the variant's file (by name: no local path)."""
    variant = tmp_path / "tight.yaml"
    variant.write_text(
        "layer: {id: tight, name: Tight taverns, description: Two cards per tavern with 2 players., source: Our table}\n"
        "game:\n  cards_per_tavern: {2: 2}\n"
        "cards:\n  - {id: 'warrior:3', ranks: [4]}\n"
        "interpretations:\n  - {id: tight-leftovers, text: With 2 players no card is left over., source: Our table}\n",
        encoding="utf-8")
    md = docs.render(docs.compile_rules((), (str(variant),)), Catalog.load("en"), "md")
    mark = "Changed by house rule Tight taverns."
    player = player_part(md, "md")
    assert mark in section(player, "card-warrior-3", "md") and mark not in section(player, "card-warrior-4", "md")
    assert mark in section(player, "components", "md") and mark in section(player, "rule-tight-leftovers", "md")
    house = section(player, "house-rules", "md")
    assert "Rules it changes: [Components](#components)." in house and "cards_per_tavern" not in house
    assert "Our table" not in house
    extra = appendix(md, "md")
    assert "`cards_per_tavern.2` = 2" in extra and "Source: Our table" in extra
    item = section(extra, "interp-tight-leftovers", "md")
    assert "`tight-leftovers`" in item and "recorded in `tight.yaml:" in item and str(tmp_path) not in md


# -- dense where a designer wants dense ---------------------------------------------------------------------

def _cell(by_least: dict[int, int]) -> str:
    """A copies cell computed from the rules data: copies in every game, then "+ n" for 5 players."""
    base, more = by_least.get(0, 0), sum(n for least, n in by_least.items() if least)
    return f"{base} + {more}" if base and more else f"+{more}" if more else str(base) if base else "–"


@pytest.mark.parametrize("boxes", BOXES, ids=box_id)
@pytest.mark.parametrize("lang", ["en", "be"])
def test_the_dwarves_table_counts_each_age_deck_and_the_5_player_copies(boxes, lang):
    """Issue 9: "the dwarves of each class as one compact table (points, copies per age, 5-player
    copies)" — one row per dwarf card: its ranks, its Bravery Points, its copies in each age deck
    ("8 + 2": 2 more with 5 players) and in the box, as the rules data's decks hold them."""
    compiled = compiled_for(boxes)
    game = compiled.merged.game
    least_of = game["players"]["min"]
    head, *rows = table(text_for(boxes, lang, "md"), "kind-dwarf-table", "md")
    cards = compiled.cards()
    dwarves = [cid for cid, c in cards.items() if c.kind == "dwarf"]
    assert len(rows) == len(dwarves) and len(head) == 5 + len(game["ages"])
    cat = Catalog.load(lang)
    total = 0
    for row in rows:
        cid = next(c for c in dwarves if row[0].startswith(cat.t(f"card.{c}", default=cards[c].name)))
        card = cards[cid]
        assert row[2] == str(len(card.ranks)) and row[3] == ", ".join(map(str, card.ranks)), row
        for col, age in enumerate(game["ages"], 4):
            by_least: dict[int, int] = {}
            for e_cid, count, least in ((e.card, e.count, e.min_players) for e in compiled.ruleset.decks[age]):
                if e_cid == cid:
                    key = least if least > least_of else 0
                    by_least[key] = by_least.get(key, 0) + count
            assert row[col] == _cell(by_least), (cid, age, row)
        in_decks = sum(e.count for age in game["ages"] for e in compiled.ruleset.decks[age] if e.card == cid)
        assert int(row[-1]) == (in_decks or card.copies), row
        total += int(row[-1])
    assert total == 87  # 003 "Game Components": "87 Dwarf cards in 5 classes … plus 1 Special Blacksmith"


@pytest.mark.parametrize("boxes", BOXES, ids=box_id)
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_age_decks_table_gives_the_make_up_per_player_count(boxes, fmt):
    """Issue 9: "the age-deck make-up per player count" as one table — for each age and each player
    count, the number of cards of each kind in its deck and the deck's size, from the rules data."""
    compiled = compiled_for(boxes)
    game = compiled.merged.game
    head, *rows = table(text_for(boxes, "en", fmt), "decks-table", fmt)
    kinds = head[2:-1]
    label = {Catalog.load("en").t(f"ref.kinds.{k}"): k for k in game["kinds"]}
    covered = []
    for row in rows:
        age = int(row[0].split()[-1])
        first, _, last = row[1].partition("–")
        for n in range(int(first), int(last or first) + 1):
            covered.append((age, n))
            entries = [(e.card, e.count) for e in compiled.ruleset.decks[age] if e.min_players <= n]
            for col, kind in enumerate(kinds, 2):
                assert int(row[col]) == sum(c for cid, c in entries if compiled.ruleset.cards[cid].kind == label[kind]), row
            assert int(row[-1]) == sum(c for _, c in entries), row
    players = range(game["players"]["min"], game["players"]["max"] + 1)
    assert covered == [(age, n) for age in game["ages"] for n in players]


@pytest.mark.parametrize("boxes", [b for b in BOXES if b], ids=box_id)
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_zone_decks_tables_give_their_sizes(boxes, fmt):
    """Issue 9: "the Camp decks, the mythology deck" dense — each zone's decks as one table, whose
    last row gives each deck's size: 12 and 12 Camp cards (002 "24 Camp cards"), 20 mythology cards
    (001 "Idavoll adds a deck of powerful mythology cards"), computed from the rules data."""
    compiled = compiled_for(boxes)
    text = text_for(boxes, "en", fmt)
    for zone, decks in compiled.merged.zone_decks.items():
        head, *rows = table(text, f"zone-{zone}-decks", fmt)
        per_age = next(z for z in compiled.merged.game["zones"] if z["id"] == zone).get("per_age")
        sizes = [sum(e["count"] for e in decks[age]) for age in sorted(decks)] if per_age else \
            [sum(e["count"] for entries in decks.values() for e in entries)]
        assert rows[-1][1:] == [str(n) for n in sizes], zone
        by_kind = [[0 if r[col] == "–" else int(r[col].split(":")[0]) for r in rows[:-1]] for col in range(1, len(head))]
        assert [sum(counts) for counts in by_kind] == sizes, zone  # the kinds' rows add up to the deck
    expected = {"camp-deck": [12, 12], "mythology": [20]}
    for zone, sizes in expected.items():
        if zone in compiled.merged.zone_decks:
            assert table(text, f"zone-{zone}-decks", fmt)[-1][1:] == [str(n) for n in sizes]


@pytest.mark.parametrize("boxes", BOXES, ids=box_id)
def test_cards_with_rule_text_keep_their_entries(boxes):
    """Issue 9: "one screen's worth instead of a page per handful of one-line entries (e.g. one-line
    card entries grouped into a table; keep full entries for cards with real rule text)" — every card
    with an effect or a strength track has a heading of its own; every other card of a kind with two
    or more of them is a table row."""
    compiled = compiled_for(boxes)
    md = text_for(boxes, "en", "md")
    for kind in compiled.merged.game["kinds"]:
        ids = [cid for cid, c in compiled.cards().items() if c.kind == kind]
        plain = [cid for cid in ids if not compiled.effects.get(cid) and not compiled.ruleset.cards[cid].track]
        for cid in ids:
            anchor = '<a id="card-{}"></a>'.format(cid.replace(":", "-"))
            line = next(ln for ln in md.splitlines() if anchor in ln)
            assert line.startswith("|" if cid in plain and len(plain) > 1 else "#### "), (cid, line)


# -- Belarusian pages and the wording bugs -------------------------------------------------------------------

@pytest.mark.parametrize("boxes", BOXES, ids=box_id)
@pytest.mark.parametrize("fmt", FORMATS)
def test_belarusian_pages_use_belarusian_section_names(boxes, fmt):
    """Issue 9: "Belarusian pages use Belarusian section names throughout" — no heading, table
    heading or title of the Belarusian reference (its appendix included) has an English word, and
    the player part has none at all (a single letter such as the n of "n²" is no word)."""
    text = text_for(boxes, "be", fmt)
    english = [h for h in headings(text, fmt) if re.search(r"[A-Za-z]{2,}", h)]
    assert not english, english
    words = re.findall(r"[A-Za-z]{2,}", visible(player_part(text, fmt), fmt))
    assert not words, sorted(set(words))


@pytest.mark.parametrize("boxes, lang, fmt", EVERY)
def test_the_wording_bugs_stay_fixed(boxes, lang, fmt):
    """Issue 9: "Fix the text bugs a read-through finds (e.g. … "With 5 players or more", a capital
    after a semicolon, a header breaking "1-й")" — 5 players is the most the game allows, so the
    5-player cards are added "with 5 players"; a Belarusian heading writes its ordinals with a
    non-breaking hyphen (U+2011); no sentence of the reference's own wording has a capital after a
    semicolon (card names aside)."""
    text = text_for(boxes, lang, fmt)
    most = compiled_for(boxes).merged.game["players"]["max"]
    assert f"With {most} players or more" not in text and f"Калі гульцоў {most} ці больш" not in text
    assert ("With 5 players, add to the Age 1 deck" if lang == "en" else "Калі гульцоў 5, дадайце") in text
    if lang == "be":
        broken = [h for h in headings(text, fmt) if re.search(r"\d-[а-яё]", h)]
        assert not broken, broken
    names = {Catalog.load(lang).t(f"card.{cid}", default=c.name) for cid, c in compiled_for(boxes).cards().items()}
    seen = visible(player_part(text, fmt), fmt)
    capitals = [m.group(0) for m in re.finditer(r"; (\w+)", seen) if m.group(1)[0].isupper()
                and not any(n.startswith(m.group(1)) for n in names)]
    assert not capitals, capitals[:5]


def test_the_interpretations_file_shown_is_relative_to_the_rules(tmp_path):
    """Issue 9: the appendix names "where it is recorded — the rules file"; DESIGN §8 output is
    deterministic: a shipped file is named `rules/…`, whichever way it was given."""
    shipped = docs.compile_rules((), (str(rules_dir() / "variants" / "first-game.yaml"),))
    md = docs.render(shipped, Catalog.load("en"), "md")
    files = re.findall(r"recorded in `([^`]+)`", appendix(md, "md"))
    assert len(files) == len(shipped.ruleset.interpretations) and all(f.startswith("rules/base/") for f in files)
    assert str(Path(rules_dir()).resolve()) not in md


def test_a_step_no_card_uses_is_left_out():
    """Issue 9: "omit empty windows/steps" — the late bids of a tavern's resolution happen only for
    a player who bids from their hand (Uline the Seer, 003 "Uline the Seer"); with the first-game
    house rule, which removes Uline (003 "First Game Advice"), no card lets anyone bid from their
    hand and the step is not listed, and the steps after it are numbered without it."""
    base = text_for((), "en", "md")
    assert 'id="tavern-step-late-bids"' in base and "(#card-uline)" in section(base, "bids", "md")
    first = docs.render(docs.compile_rules((), (str(rules_dir() / "variants" / "first-game.yaml"),)),
                        Catalog.load("en"), "md")
    tavern = section(first, "tavern-resolution", "md")
    assert 'id="tavern-step-late-bids"' not in tavern and '1. <a id="tavern-step-picks"></a>' in tavern
