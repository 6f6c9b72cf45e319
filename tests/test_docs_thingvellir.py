"""The rule reference and card sheets of the Thingvellir rule set (`nidavellir docs --expansions
thingvellir`): every card of the box, the Camp and its decks, the flow steps it adds, the Belarusian
catalog. Each test quotes the rule of the Thingvellir rulebook (002_3fed4e836b428413.txt, "002") it checks.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest

from nidavellir.cli import main
from nidavellir.compiler import docs
from nidavellir.compiler.compile import Compiled
from nidavellir.compiler.docs import sheets
from nidavellir.compiler.docs.model import card_views
from nidavellir.compiler.docs.text import Catalog

from docs_helpers import appendix, box_cards, esc, section, table

BOX = "thingvellir"


@pytest.fixture(scope="module")
def compiled() -> Compiled:
    return docs.compile_rules((BOX,))


@pytest.fixture(scope="module")
def outputs(compiled: Compiled) -> dict[str, str]:
    """(language, format) -> the reference's text."""
    return {f"{lang}.{fmt}": docs.render(compiled, Catalog.load(lang), fmt) for lang in ("en", "be") for fmt in ("md", "html")}


def step_anchors(text: str, prefix: str) -> list[str]:
    return [a for a in re.findall(r'<a id="([^"]+)"></a>', text) if a.startswith(prefix)]


# -- every card ------------------------------------------------------------------------------------

def test_the_box_has_the_cards_of_the_rulebook(compiled):
    """002 "Matériel": "24 Camp cards, including: A: 12 Mercenary cards, B: 12 Artifact cards" and
    "6 new Hero cards and 2 "Olwyn's Double" cards"."""
    kinds = Counter(compiled.ruleset.cards[cid].kind for cid in box_cards(compiled, BOX))
    assert kinds == {"artifact": 12, "mercenary": 11, "hero": 6, "double": 1}  # Warrior 9 / Explorer 11: 2 decks


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_english_reference_names_every_thingvellir_card(compiled, outputs, fmt):
    """002 "Matériel": "24 Camp cards, including: A: 12 Mercenary cards, B: 12 Artifact cards" and
    "6 new Hero cards and 2 "Olwyn's Double" cards" — each by its rules-data name, in its kind's
    group of the Cards section and in the index."""
    text = outputs[f"en.{fmt}"]
    index = section(text, "index", fmt)
    for cid in box_cards(compiled, BOX):
        card = compiled.ruleset.cards[cid]
        name = esc(card.name, fmt)
        entry = section(section(text, f"kind-{card.kind}", fmt), "card-" + cid.replace(":", "-"), fmt)
        assert name in entry, cid
        assert name in index, cid


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_belarusian_reference_names_every_thingvellir_card_by_its_catalog_name(compiled, outputs, fmt):
    """002 "Matériel": "24 Camp cards, including: A: 12 Mercenary cards, B: 12 Artifact cards" and
    "6 new Hero cards and 2 "Olwyn's Double" cards" — in Belarusian by the names of cards.yaml (seed
    004's: Андумія, Брызынгамэнс, Найміт Ваяр 6 / Шукальнік 8, Дубль Ольвына), never the English."""
    cat = Catalog.load("be")
    text = outputs[f"be.{fmt}"]
    for cid in box_cards(compiled, BOX):
        name = cat.messages[f"card.{cid}"]
        entry = section(text, "card-" + cid.replace(":", "-"), fmt)
        assert esc(name, fmt) in entry, cid
        english = compiled.ruleset.cards[cid].name
        assert esc(english, fmt) not in entry, (cid, english)


SEED_004 = {  # card id -> its name in seed 004 (lines ~100-135)
    "andumia": "Андумія", "holda": "Гольда", "khrad": "Храд", "jarika": "Ярыка", "olwyn": "Ольвын",
    "zolkur": "Золкур", "brisingamens": "Брызынгамэнс", "draupnir": "Драўпнір", "fafnir-baleygr": "Фафнір Балейгр",
    "gjallarhorn": "Г’яляргорн", "hofud": "Гофуд", "megingjord": "Мэгінг’ёрд", "hrafnsmerki": "Графнсмэркі",
    "jarnglofi": "Ярнглёфі", "mjollnir": "М’ёльнір", "svalinn": "Свалін", "vegvisir": "Вэгвісыр",
    "vidofnir-vedrfolnir": "Відафнір & Вэдарфальнір", "olwyn-double": "Дубль Ольвына",
}


def test_belarusian_names_follow_seed_004(compiled):
    """002 "Hero Abilities" and "Artifact cards" name the cards; seed 004 gives their Belarusian
    names. A mercenary is "Найміт" and its two sides, named like dwarf cards ("Ваяр 6 / Шукальнік 8")."""
    cat = Catalog.load("be")
    for cid, name in SEED_004.items():
        assert cat.messages[f"card.{cid}"].startswith(name), cid
    classes = {cls: cat.messages[f"class.{cls}"] for cls in (c["id"] for c in compiled.merged.game["classes"])}
    for cid in box_cards(compiled, BOX):
        card = compiled.ruleset.cards[cid]
        if card.kind == "mercenary":
            sides = [f"{classes[cls]} {ranks[0]}" if ranks[0] else classes[cls] for cls, ranks in card.column_ranks.items()]
            assert cat.messages[f"card.{cid}"] == f"{cat.messages['kind.mercenary'].capitalize()} " + " / ".join(sides)


@pytest.mark.parametrize("lang", ["en", "be"])
def test_every_thingvellir_card_has_rule_text(compiled, lang):
    """002 "Matériel": the Reference cards' "text is not transcribed separately, because each effect is
    given in full under Artifact cards below" — every card of the box has generated rule text, with no
    placeholder, in both languages."""
    views = {v["id"]: v for v in card_views(compiled, Catalog.load(lang))}
    for cid in box_cards(compiled, BOX):
        text = views[cid]["text"]
        assert text and all(s.strip() for s in text), cid
        assert not [s for s in text if re.search(r"[{}<>]|None|TODO|card\(s\)|token\(s\)", s)], (cid, text)
        if lang == "be":
            assert not [s for s in text if re.search(r"[A-Za-z]", s)], (cid, text)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_mercenary_shows_both_sides_with_their_points(compiled, outputs, fmt):
    """002 "Mercenary cards": "When placing them, you choose the class of the card from the two listed
    on it" — Warrior 6 / Explorer 8 is a warrior rank worth 6 or an explorer rank worth 8. Issue 9:
    "one-line card entries grouped into a table" — the mercenaries, which have no other text, are
    the rows of one table: both classes, one rank, each side's points, the Camp deck of each age."""
    head, *rows = table(outputs[f"en.{fmt}"], "kind-mercenary-table", fmt)
    assert head == ["Card", "Class", "Ranks", "Bravery Points", "Age 1", "Age 2", "In the box"]
    assert "The columns of the ages count the copies in the Camp deck of that age." in section(
        outputs[f"en.{fmt}"], "kind-mercenary", fmt)
    row = dict(zip(head, next(r for r in rows if r[0] == "Mercenary Warrior 6 / Explorer 8")))
    assert row["Class"] == "Warrior or Explorer" and row["Ranks"] == "1" and row["Bravery Points"] == "6 / 8"
    assert (row["Age 1"], row["Age 2"], row["In the box"]) == ("1", "–", "1")
    twice = dict(zip(head, next(r for r in rows if r[0] == "Mercenary Warrior 9 / Explorer 11")))
    assert (twice["Age 1"], twice["Age 2"], twice["In the box"]) == ("1", "1", "2")
    assert len(rows) == sum(1 for c in compiled.cards().values() if c.kind == "mercenary")
    view = next(v for v in card_views(compiled, Catalog.load("en")) if v["id"] == "mercenary:hunter-miner1")
    assert view["ranks_label"] == "Hunter / Miner 1"
    assert view["text"] == ["In your Hunter column: 1 Hunter rank.", "In your Miner column: 1 Miner rank, worth 1 Bravery Point."]


def test_artifact_texts_carry_the_rulebook_numbers(compiled):
    """002 "Artifact cards": Draupnir "6 points per coin of value 15 or more", Vegvisir "counts as an
    Explorer rank and adds 13 points", Svalinn "5 points per Hero card", Megingjord "add 28 points",
    Hrafnsmerki "5 points per Mercenary card", Járnglófi "add 24 points", Mjöllnir "2 points per rank in
    the class of your choice", Vidofnir & Vedrfölnir "+2 and the other with a +3" ("+5" with a Trading coin)."""
    views = {v["id"]: " ".join(v["text"]) for v in card_views(compiled, Catalog.load("en"))}
    facts = {"draupnir": ["6 ×", "15 or more"], "vegvisir": ["1 Explorer rank", "13"], "svalinn": ["5 ×", "heroes"],
             "megingjord": ["28", "no hero"], "hrafnsmerki": ["5 ×", "mercenary"], "jarnglofi": ["24", "trading coin"],
             "mjollnir": ["2 ×", "chosen class"], "vidofnir-vedrfolnir": ["2 and 3", "5", "trading coin"],
             "hofud": ["each other player", "non-hero", "Warrior column"], "gjallarhorn": ["recruit a hero"],
             "brisingamens": ["2 cards", "discard pile", "dwarf card"], "fafnir-baleygr": ["the Camp", "top bidder"]}
    for cid, words in facts.items():
        for word in words:
            assert word in views[cid], (cid, word, views[cid])


# -- the Camp -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_reference_lists_the_camp_decks(compiled, outputs, fmt):
    """002 "Setup": "Separate the Age 1 and Age 2 Camp cards. Shuffle the decks of cards separately" —
    the Camp deck's entry has one compact table (issue 9: "the Camp decks" dense): a column per age,
    a row per kind with its cards, and each deck's size; setup shuffles each on its own."""
    text = outputs[f"en.{fmt}"]
    zones = section(text, "zones", fmt)
    decks = compiled.merged.zone_decks["camp-deck"]
    assert sorted(decks) == [1, 2]
    head, *rows = table(zones, "zone-camp-deck-decks", fmt)
    assert head == ["Kind", "Age 1 deck", "Age 2 deck"]
    assert rows[-1] == ["All cards"] + [str(sum(e["count"] for e in decks[age])) for age in (1, 2)]
    cat = Catalog.load("en")
    by_label = {r[0]: r for r in rows[:-1]}
    for col, age in enumerate((1, 2), 1):
        counts: Counter[str] = Counter()
        for e in decks[age]:
            card = compiled.ruleset.cards[e["card"]]
            label = cat.t(f"ref.kinds.{card.kind}")
            assert card.name in by_label[label][col], (age, e["card"])
            counts[label] += e["count"]
        assert {label: int(r[col].split(":")[0]) for label, r in by_label.items()} == counts
    deck_entry = section(zones, "zone-camp-deck", fmt)
    for age, entries in decks.items():
        for e in entries:
            assert "card-" + e["card"].replace(":", "-") in deck_entry, (age, e["card"])
    for zone in compiled.merged.game["zones"]:
        assert esc(zone["name"][0].upper() + zone["name"][1:], fmt) in section(zones, f"zone-{zone['id']}", fmt)
    setup = section(text, "setup", fmt)
    assert "zone-camp-deck" in setup and "of each age on its own (Age 1: 12 cards and Age 2: 12 cards)" in setup


def test_the_camp_entry_says_what_fills_empties_and_takes_from_it(outputs):
    """002 "Management during the game": "Reveal new Camp cards of the current Age in order to have 5
    cards face up" and "At the end of Age 1, after the Distinctions have been awarded, discard all
    remaining Camp cards"; 002 "Glossary": "Camp cards are not part of the discard pile that can be
    explored"; Holda "choose a Mercenary or Artifact card available at the Camp"."""
    md = outputs["en.md"]
    camp = section(md, "zone-camp", "md")
    assert "(#step-camp-refill)" in camp and "until 5 cards lie face up" in camp
    assert "(#age-1-camp-discarded)" in camp and "(#zone-camp-discard)" in camp
    assert "(#card-holda)" in camp and "(#pick-sources)" in camp
    assert "No effect may look through it" in section(md, "zone-camp-discard", "md")


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_turn_refills_the_camp_before_the_dwarves_enter(compiled, outputs, fmt):
    """002 "Management during the game": "At the start of each turn, before the Dwarves enter the
    Taverns: Reveal new Camp cards of the current Age in order to have 5 cards face up"."""
    text = outputs[f"en.{fmt}"]
    turn = section(text, "turn", fmt)
    ids = re.findall(r'<a id="(step-[^"]+)"></a>' if fmt == "md" else r'id="(step-[^"]+)"', turn)
    acted = {getattr(e, "event", None) for effects in compiled.effects.values() for _, e in effects}
    assert ids == [f"step-{s['id']}" for s in compiled.merged.game["flow"]["turn"]
                   if s.get("do") or s.get("window") in acted]  # issue 9: no window where no card acts
    assert ids.index("step-camp-refill") == 0 and ids[1] == "step-enter-dwarves"
    refill = turn[turn.index("step-camp-refill"):turn.index("step-enter-dwarves")]
    assert "Refill" in refill and "until 5 lie face up" in refill and "zone-camp-deck" in refill


def test_the_tavern_steps_and_the_pick_sources_come_from_the_flow_data(compiled, outputs):
    """002 "New rules": "Only the Elvaland with the highest bid can get to the Camp and take a card
    there"; "Fafnir Báleygr": "you can go to the Camp on your turn ... if the Elvaland that won the bid
    did not go"; "New 2 Elvalands rule": "he must also discard a card of his choosing from the three
    cards in the tavern being resolved"."""
    md = outputs["en.md"]
    tavern = section(md, "tavern-resolution", "md")
    assert step_anchors(tavern, "tavern-step-") == [f"tavern-step-{s['id']}" for s in compiled.merged.game["flow"]["tavern"]]
    sources = section(md, "pick-sources", "md")
    camp = next(line for line in sources.splitlines() if "(#zone-camp)" in line)
    assert "the top bidder only" in camp and "(#card-fafnir-baleygr)" in camp
    assert "With 2 players, a top bidder who takes their card here also discards 1 of the tavern's cards" in camp
    assert "From the tavern being resolved: every bidder, in bid order." in sources


# -- the end of each age -------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_end_of_each_age_enlists_the_mercenaries_before_ylud(compiled, outputs, fmt):
    """002 "End of Each Age": "End of Age 1 - Enlistment of Mercenaries: the Elvaland who has the most
    chooses to place them first or last. - Ylud place. - Troop assessments (Distinctions)"; "At the end
    of Age 1, after the Distinctions have been awarded, discard all remaining Camp cards"."""
    text = outputs[f"en.{fmt}"]
    age1 = section(text, "age-end-1", fmt)
    steps = re.findall(r'id="(age-1-[^"]+)"', age1)
    assert steps == ["age-1-enlistment", "age-1-age-end", "age-1-troop-evaluation", "age-1-camp-discarded"]
    enlistment = age1[age1.index("age-1-enlistment"):age1.index("age-1-age-end")]
    assert "mercenary cards" in enlistment and "the player holding the most mercenary cards first" in enlistment
    assert "may choose to go last instead" in enlistment
    window = age1[age1.index("age-1-age-end"):age1.index("age-1-troop-evaluation")]
    assert "card-ylud" in window


def test_age_2_ends_with_thrud_brisingamens_mjollnir_and_final_scoring(outputs):
    """002 "End of Each Age": "End of Age 2 - Enlistment of Mercenaries ... - Ylud place. - Departure
    from Thrud. - Discard power of Brísingamens. - Final scoring"; Mjöllnir: "At the end of Age 2, when
    counting points ... the class of your choice"."""
    age2 = section(outputs["en.md"], "age-end-2", "md")
    assert step_anchors(age2, "age-2-") == ["age-2-enlistment", "age-2-age-end", "age-2-game-end",
                                            "age-2-final-discards", "age-2-counting", "age-2-final-scoring"]
    assert "(#card-thrud)" in age2[age2.index("age-2-game-end"):age2.index("age-2-final-discards")]
    assert "(#card-brisingamens)" in age2[age2.index("age-2-final-discards"):age2.index("age-2-counting")]
    assert "(#card-mjollnir)" in age2[age2.index("age-2-counting"):age2.index("age-2-final-scoring")]
    assert "camp-discarded" not in age2


def test_final_scoring_names_the_artifacts_part_of_the_breakdown(compiled, outputs):
    """002 "Draupnir": "At the end of Age 2, when counting points, add to your Final Bravery Value: 6
    points per coin of value 15 or more owned" — final scoring counts the artifacts; what they score
    is its own part of the score breakdown (`artifacts`, from the kinds data), which the designer's
    appendix names (issue 9: the player part says rules, not implementation)."""
    parts = {k: v["breakdown"] for k, v in compiled.merged.game["kinds"].items() if "breakdown" in v}
    assert parts == {"artifact": "artifacts"}
    md = outputs["en.md"]
    final = section(md, "final-scoring", "md")
    assert "the points of their artifact cards and what those cards' texts score;" in final
    assert "“artifacts”" not in final and "“artifacts”" not in section(md, "kind-artifact", "md")
    assert "“artifacts”: what the artifact cards score." in section(appendix(md, "md"), "sources-breakdown", "md")


# -- the whole reference ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["en.md", "en.html", "be.md", "be.html"])
def test_every_link_resolves_and_nothing_is_left_unrendered(outputs, name):
    """002 "Matériel": "The expansion allows you to play Nidavellir by adding a new recruiting location:
    the Camp" — the reference with it links every card, step and zone it names, and holds no placeholder."""
    fmt = name.rsplit(".", 1)[1]
    text = outputs[name]
    anchors = re.findall(r'<a id="([^"]+)"></a>' if fmt == "md" else r'\bid="([^"]+)"', text)
    links = re.findall(r"\]\(#([^)\s]+)\)" if fmt == "md" else r'href="#([^"]+)"', text)
    assert not [a for a, n in Counter(anchors).items() if n > 1]
    assert sorted(set(links) - set(anchors)) == []
    body = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
    for bad in ("{", "}", "<X>", "None", "TODO"):
        assert bad not in body, bad


def test_the_belarusian_catalog_has_no_fallback_for_thingvellir(compiled, capsys):
    """002 "Matériel": "The expansion allows you to play Nidavellir by adding a new recruiting location:
    the Camp" — every message of its reference, interpretations included, has a `be` text:
    `nidavellir docs --expansions thingvellir --lang be --check` exits 0, as the base game's does."""
    cat = Catalog.load("be")
    docs.render_all(compiled, cat)
    sheets.card_sheet_html(card_views(compiled, cat), cat)
    assert not cat.missing, sorted(cat.missing)
    assert main(["docs", "--expansions", BOX, "--lang", "be", "--check"]) == 0
    assert main(["docs", "--lang", "be", "--check"]) == 0
    assert "every message of the reference has a `be` text" in capsys.readouterr().out
    for i in compiled.ruleset.interpretations:
        assert f"interp.{i.id}" in cat.messages and f"interp.{i.id}.source" in cat.messages, i.id


def test_the_card_sheets_include_the_thingvellir_cards(compiled, tmp_path):
    """002 "Matériel": "24 Camp cards", "6 new Hero cards and 2 "Olwyn's Double" cards" — the printable
    card sheet (cards.html) has one card per id, the Camp's and the new heroes' included."""
    assert main(["docs", "--expansions", BOX, "--format", "html", "--copies", "one", "--out", str(tmp_path)]) == 0
    html = (tmp_path / "cards.html").read_text(encoding="utf-8")
    ids = re.findall(r'data-id="([^"]+)"', html)
    assert ids == [v["id"] for v in card_views(compiled, Catalog.load("en"))]
    assert set(box_cards(compiled, BOX)) <= set(ids)
