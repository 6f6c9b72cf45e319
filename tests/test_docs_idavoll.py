"""The rule reference and card sheets with the Idavoll expansion (`nidavellir docs --expansions
idavoll` and `--expansions thingvellir,idavoll`): every mythology card and Gullinbursti, the mythology
deck and the turns in which it fills the Dancing Dragon, Loki's window before Freya's, the mythology
part of the score, the Belarusian catalog. Each test quotes the Idavoll section of the wiki rules
summary (001_b589e44fbbff9743.txt, "001"), the only source for Idavoll.
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

BOX = "idavoll"
COMBINATIONS = [(BOX,), ("thingvellir", BOX)]
_COMPILED: dict[tuple[str, ...], Compiled] = {}
_OUTPUTS: dict[tuple[str, ...], dict[str, str]] = {}


def compiled_for(boxes: tuple[str, ...]) -> Compiled:
    if boxes not in _COMPILED:
        _COMPILED[boxes] = docs.compile_rules(boxes)
    return _COMPILED[boxes]


def outputs_for(boxes: tuple[str, ...]) -> dict[str, str]:
    """(language, format) -> the reference's text."""
    if boxes not in _OUTPUTS:
        c = compiled_for(boxes)
        _OUTPUTS[boxes] = {f"{lang}.{fmt}": docs.render(c, Catalog.load(lang), fmt)
                           for lang in ("en", "be") for fmt in ("md", "html")}
    return _OUTPUTS[boxes]


@pytest.fixture(scope="module", params=COMBINATIONS, ids=lambda b: "+".join(b))
def boxes(request: pytest.FixtureRequest) -> tuple[str, ...]:
    return tuple(request.param)


@pytest.fixture(scope="module")
def compiled(boxes: tuple[str, ...]) -> Compiled:
    return compiled_for(boxes)


@pytest.fixture(scope="module")
def outputs(boxes: tuple[str, ...]) -> dict[str, str]:
    return outputs_for(boxes)


def item(text: str, anchor: str, fmt: str) -> str:
    """One list item of the reference, from its anchor to the end of its line."""
    start = text.index(f'<a id="{anchor}"></a>' if fmt == "md" else f'id="{anchor}"')
    return text[start:text.index("\n", start)]


def step_anchors(text: str, prefix: str, fmt: str) -> list[str]:
    found = re.findall(r'<a id="([^"]+)"></a>' if fmt == "md" else r'id="([^"]+)"', text)
    return [a for a in found if a.startswith(prefix)]


# -- every card ------------------------------------------------------------------------------------

def test_the_box_has_the_cards_of_001(compiled):
    """001 "Idavoll Expansion": "Idavoll adds a deck of powerful mythology cards (Animals, Gods,
    Valkyries & Giants)"; "List of Mythological Animals" (5), "List of Norse Gods" (5), "List of Giants"
    (5), "List of Valkyries" (5); Hreasvelg: "Take the special card Gullinbursti"."""
    kinds = Counter(compiled.ruleset.cards[cid].kind for cid in box_cards(compiled, BOX))
    assert kinds == {"animal": 5, "god": 5, "giant": 5, "valkyrie": 5, "special": 1}


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_every_idavoll_card_has_an_entry_in_its_kind_and_in_the_index(compiled, outputs, fmt):
    """001 "List of Mythological Animals", "List of Norse Gods", "List of Giants", "List of
    Valkyries": each card by its name, under its kind, and in the index."""
    text = outputs[f"en.{fmt}"]
    index = section(text, "index", fmt)
    for cid in box_cards(compiled, BOX):
        card = compiled.ruleset.cards[cid]
        entry = section(section(text, f"kind-{card.kind}", fmt), "card-" + cid, fmt)
        assert esc(card.name, fmt) in entry, cid
        assert esc(card.name, fmt) in index, cid


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_belarusian_reference_names_every_idavoll_card_by_its_catalog_name(compiled, outputs, fmt):
    """001 "Idavoll Expansion" (004: "Ідаволь дадае да гульні тальлю магутных міталягічных картаў
    (Жывёлы, Багі, Валькірыі і Гіганты)"): in Belarusian every card has its Cyrillic name of
    cards.yaml, never the English one, and its kind's Belarusian heading."""
    cat = Catalog.load("be")
    text = outputs[f"be.{fmt}"]
    for cid in box_cards(compiled, BOX):
        name = cat.messages[f"card.{cid}"]
        assert not re.search(r"[A-Za-z]", name), (cid, name)
        entry = section(text, "card-" + cid, fmt)
        assert esc(name, fmt) in entry, cid
        assert esc(compiled.ruleset.cards[cid].name, fmt) not in entry, cid
    for kind, heading in {"animal": "Жывёлы", "god": "Багі", "giant": "Гіганты", "valkyrie": "Валькірыі"}.items():
        assert heading in section(text, f"kind-{kind}", fmt)


@pytest.mark.parametrize("lang", ["en", "be"])
def test_every_idavoll_card_has_rule_text(compiled, lang):
    """001 "Idavoll Expansion": "Mythological animals strengthen your class columns", "The power of
    the Norse Gods may be triggered once in the game", "Giants capture Dwarves to trigger their power",
    "Valkyries increase their strength with specific requirements" — each card's rule text is
    generated from its effects, with no placeholder, in both languages."""
    views = {v["id"]: v for v in card_views(compiled, Catalog.load(lang))}
    for cid in box_cards(compiled, BOX):
        text = views[cid]["text"]
        assert text and all(s.strip() for s in text), cid
        assert not [s for s in text if re.search(r"[{}<>]|None|TODO|card\(s\)|token\(s\)|“\w+”", s)], (cid, text)
        if lang == "be":
            assert not [s for s in text if re.search(r"[A-Za-z]", s)], (cid, text)


def test_gods_show_their_points_and_a_once_per_game_power(compiled):
    """001 "The power of the Norse Gods may be triggered once in the game"; Frigg "Adds 12 points",
    Thor "Adds 8 points", Freya "Adds 15 points", Loki "Adds 8 points", Odin "Adds 0 points"."""
    views = {v["id"]: v["text"] for v in card_views(compiled, Catalog.load("en"))}
    for cid in box_cards(compiled, BOX):
        card = compiled.ruleset.cards[cid]
        if card.kind == "god":
            text = " ".join(views[cid])
            assert "Once per game." in text and "you may" in text, cid
            if card.points:
                assert f"Adds {card.points} to your Final Bravery Value" in text, cid
    assert "cancel that discard" in " ".join(views["thor"])
    assert "if that card is a dwarf or royal offering card" in " ".join(views["frigg"])
    odin = " ".join(views["odin"])
    assert "At the end of each turn" in odin and "put one of your neutral heroes back" in odin
    assert "if you do, recruit a neutral hero other than the one put back" in odin


def test_giants_say_what_they_capture_and_what_follows(compiled):
    """001 "List of Giants": Skymir "Capture the next Hunter card you recruit to draw 5 Mythology
    cards ... and keep 2", Surt "the next Warrior card ... the value of your highest coin", Gymir "the
    next Explorer card ... 3 times its Bravery Value", Hrungnir "the next Miner card ... +2", Thrivaldi
    "the next Blacksmith card ... recruit a Hero card. This card does not count"."""
    views = {v["id"]: " ".join(v["text"]) for v in card_views(compiled, Catalog.load("en"))}
    facts = {"skymir": ["next Hunter dwarf card", "draw 5 cards from the mythology deck, keep 2"],
             "surt": ["next Warrior dwarf card", "highest coin if this card has captured a card"],
             "gymir": ["next Explorer dwarf card", "3 × the Bravery Points of the card this card captured"],
             "hrungnir": ["next Miner dwarf card", "add 2 to each of your coins"],
             "thrivaldi": ["next Blacksmith dwarf card", "recruit a hero that does not count"]}
    for cid, words in facts.items():
        assert "turn this card face down" in views[cid], cid
        for word in words:
            assert word in views[cid], (cid, word, views[cid])


@pytest.mark.parametrize("lang", ["en", "be"])
def test_valkyries_show_their_strength_tracks(compiled, lang):
    """001 "List of Valkyries": "(Strength track : 0 - 3 - 6 - 10 - 16)", Hildr "(0 - 8 - 16 - 0)",
    Sigrdrífa "(0 - 0 - 8 - 16)", Svafa "(0 - 4 - 8 - 16)" — each valkyrie's card shows its track and
    scores the notch its token stands on."""
    views = {v["id"]: v["text"] for v in card_views(compiled, Catalog.load(lang))}
    tracks = {"brynhildr": [0, 3, 6, 10, 16], "hildr": [0, 8, 16, 0], "olrun": [0, 3, 6, 10, 16],
              "sigrdrifa": [0, 0, 8, 16], "svafa": [0, 4, 8, 16]}
    for cid, track in tracks.items():
        assert list(compiled.ruleset.cards[cid].track) == track
        assert " – ".join(map(str, track)) in views[cid][0], (cid, views[cid])
    if lang == "en":
        assert "if that card has at least one rank of the chosen class" in " ".join(views["olrun"])
        assert "as many notches as the number of points gained" in " ".join(views["svafa"])


def test_animals_show_their_ranks_and_gullinbursti_who_brings_it(compiled, outputs):
    """001 "List of Mythological Animals": Garm "Has 2 Explorer ranks. Adds 9 and 0 points", Nidhogg
    "Adds 5 points ... +2 points per rank present in the Warrior column", Hreasvelg "Take the special
    card Gullinbursti and place it in the column of your choice"."""
    views = {v["id"]: " ".join(v["text"]) for v in card_views(compiled, Catalog.load("en"))}
    assert "2 Explorer ranks, worth 9 and 0 Bravery Points" in views["garm"]
    assert "worth 5 Bravery Points" in views["nidhogg"] and "2 × the number of your Warrior ranks" in views["nidhogg"]
    assert "place Gullinbursti in a column of your choice" in views["hreasvelg"]
    assert "1 rank, of the class of the column it stands in" in views["gullinbursti"]
    entry = section(outputs["en.md"], "card-gullinbursti", "md")
    assert "Brought into play by [Hreasvelg](#card-hreasvelg)" in entry
    assert "count as dwarf cards" in section(outputs["en.md"], "kind-special", "md")


# -- the mythology deck ------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_mythology_deck_is_one_pile_of_the_20_cards(compiled, outputs, fmt):
    """001 "Idavoll Expansion": "Idavoll adds a deck of powerful mythology cards"; Skymir "draw 5
    Mythology cards from the cards next to the Royal Treasure" — one shuffled deck, its cards listed
    in one compact table by kind (issue 9: "the mythology deck" dense), the cards not dealt kept
    aside face down for Skymir, who draws from it."""
    text = outputs[f"en.{fmt}"]
    zone = section(section(text, "zones", fmt), "zone-mythology", fmt)
    entries = [e for decks in compiled.merged.zone_decks["mythology"].values() for e in decks]
    assert sum(e["count"] for e in entries) == 20
    head, *rows = table(zone, "zone-mythology-decks", fmt)
    assert head == ["Kind", "One deck for the whole game"] and rows[-1] == ["All cards", "20"]
    assert [r[0] for r in rows[:-1]] == ["Animals", "Gods", "Giants", "Valkyries"]
    assert all(r[1].startswith("5: ") for r in rows[:-1])
    for e in entries:
        assert "#card-" + e["card"] in zone, e["card"]
    assert "step-enter-dwarves" in zone and "in turns 1, 2 and 3 of Age 1" in zone
    assert "the Dancing Dragon is filled from here instead of from the age deck" in zone
    assert "The cards not dealt stay here, face down, until the end of the game." in zone
    assert "Cards whose effects draw cards from it" in zone and "#card-skymir" in zone
    setup = section(text, "setup", fmt)
    assert "(20 cards) and put it face down next to the Royal Treasure" in setup
    assert "it fills the Dancing Dragon instead of the age deck" in setup
    cards = section(text, "kind-god", fmt)
    assert "In the mythology deck" in cards and "of Age 1" not in cards


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_dwarves_entry_fills_the_dancing_dragon_from_the_mythology_deck(compiled, outputs, fmt):
    """001 "Idavoll Expansion": "During the 3 first rounds of Age 1, the second tavern contains the new
    mythology cards" and "Age 1 therefore has an additional round with this expansion: 5 rounds at 2-3
    players and 4 rounds with 4-5 players"."""
    draws = [(t["id"], d) for t in compiled.merged.game["taverns"] for d in t.get("draws", [])]
    assert draws == [("dancing-dragon", {"zone": "mythology", "ages": [1], "turns": [1, 2, 3]})]
    text = outputs[f"en.{fmt}"]
    entry = item(section(text, "turn", fmt), "step-enter-dwarves", fmt)
    assert "Exception: in turns 1, 2 and 3 of Age 1 the Dancing Dragon takes its cards from" in entry
    assert "zone-mythology" in entry
    assert "So Age 1 lasts this many turns: 5 with 2 or 3 players and 4 with 4 or 5 players." in entry
    be = item(section(outputs[f"be.{fmt}"], "turn", fmt), "step-enter-dwarves", fmt)
    assert "у 1\u2011й эпосе ў хадах 1, 2 і 3 тавэрна «Танцуючы Цмок»" in be  # a hyphen no line breaks at
    assert "Таму колькасьць ходаў 1\u2011й эпохі: 5 пры 2 ці 3 гульцах і 4 пры 4 ці 5 гульцах." in be


def test_untaken_mythology_cards_leave_the_game(compiled, outputs):
    """001 "Idavoll Expansion": the mythology cards are bid for in the Dancing Dragon; DESIGN §9:
    "untaken mythology cards leave the game" — the tavern's leftovers of those kinds go to the box."""
    kinds = {k: v.get("discards_to") for k, v in compiled.merged.game["kinds"].items()}
    assert {k for k, z in kinds.items() if z == "box"} == {"animal", "god", "giant", "valkyrie"}
    leftovers = item(section(outputs["en.md"], "tavern-resolution", "md"), "tavern-step-leftovers", "md")
    assert "Of these, animal, god, giant and valkyrie cards go to the box (out of the game) instead." in leftovers
    assert "Discarded, they go to the box (out of the game)." in section(outputs["en.md"], "kind-giant", "md")


# -- Loki before Freya -------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "be"])
@pytest.mark.parametrize("fmt", ["md", "html"])
def test_lokis_window_comes_before_freyas(compiled, outputs, lang, fmt):
    """001 "Freya": "At the end of THE ENTRANCE OF THE DWARVES and before the biddings ... Loki has
    priority on the ability of Freya"; "Loki: At the end of the entrance of the Dwarves and before the
    biddings, you ca place the Power token of Loki on 1 card of your choice to reserve that card"."""
    turn = section(outputs[f"{lang}.{fmt}"], "turn", fmt)
    ids = step_anchors(turn, "step-", fmt)
    assert ids == [f"step-{s['id']}" for s in compiled.merged.game["flow"]["turn"]]
    assert ids.index("step-enter-dwarves") < ids.index("step-reservations") < ids.index("step-dwarves-entered") \
        < ids.index("step-bids")
    assert "#card-loki" in item(turn, "step-reservations", fmt)
    assert "#card-freya" in item(turn, "step-dwarves-entered", fmt)
    assert "#card-loki" not in item(turn, "step-dwarves-entered", fmt)
    loki = " ".join(next(v["text"] for v in card_views(compiled, Catalog.load(lang)) if v["id"] == "loki"))
    assert ("before the other effects of that moment" if lang == "en" else "раней за іншыя эфэкты") in loki


# -- scoring --------------------------------------------------------------------------------------------

def test_the_miner_formula_names_ratatosk(compiled, outputs):
    """001 "Ratatosk": "each pair of 0 point rank adds 1 point to the Miner Bravery Value before the
    multiplication by the amount of ranks" — the overridden class formula shows the setting, its value
    with Ratatosk, and the card that changes it."""
    miner = section(outputs["en.md"], "scoring-miner", "md")
    assert "the number of 0-point ranks ÷ 2" in miner and "(1 with Ratatosk, else 0)" in miner
    assert "Cards that change this formula: [Ratatosk](#card-ratatosk)." in miner
    ratatosk = " ".join(next(v["text"] for v in card_views(compiled, Catalog.load("en")) if v["id"] == "ratatosk"))
    assert "each pair of 0-point ranks in your Miner column adds 1 to the Miner sum" in ratatosk


def test_final_scoring_names_the_mythology_part(compiled, outputs):
    """001 "Idavoll Expansion": "There is an additional scoring round after Age 2 for the powers of the
    creatures" — gods, giants and valkyries score in the `mythology` part of the breakdown."""
    parts = {k: v["breakdown"] for k, v in compiled.merged.game["kinds"].items() if "breakdown" in v}
    assert {k for k, p in parts.items() if p == "mythology"} == {"god", "giant", "valkyrie"}
    md = outputs["en.md"]
    final = section(md, "final-scoring", "md")
    assert "the points of their god, giant and valkyrie cards and what those cards' texts score;" in final
    assert "“mythology”" not in final  # issue 9: the score breakdown is the designer's, in the appendix
    assert "“mythology”: what the god, giant and valkyrie cards score." in section(appendix(md, "md"), "sources-breakdown", "md")
    sources = section(appendix(md, "md"), "sources-sections", "md")
    assert 'Board Game Arena\'s Nidavellir help page, "Idavoll Expansion"' in next(line for line in sources.splitlines() if "(#final-scoring)" in line)


# -- the whole reference ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["en.md", "en.html", "be.md", "be.html"])
def test_every_link_resolves_and_nothing_is_left_unrendered(outputs, name):
    """001 "Idavoll Expansion": "Idavoll adds a deck of powerful mythology cards" — the reference with
    it links every card, step and zone it names, and holds no placeholder."""
    fmt = name.rsplit(".", 1)[1]
    text = outputs[name]
    anchors = re.findall(r'<a id="([^"]+)"></a>' if fmt == "md" else r'\bid="([^"]+)"', text)
    links = re.findall(r"\]\(#([^)\s]+)\)" if fmt == "md" else r'href="#([^"]+)"', text)
    assert not [a for a, n in Counter(anchors).items() if n > 1]
    assert sorted(set(links) - set(anchors)) == []
    body = re.sub(r"<style>.*?</style>", "", text, flags=re.S)
    for bad in ("{", "}", "<X>", "None", "TODO", "“reservations”", "“joined”"):
        assert bad not in body, bad


def test_the_belarusian_catalog_has_no_fallback(compiled, boxes, capsys):
    """001 "Idavoll Expansion" (004: "Ідаволь"): every message of the reference and the card sheets,
    the Idavoll interpretations included, has a `be` text: `nidavellir docs --lang be --check` exits 0
    for Idavoll, Thingvellir + Idavoll, Thingvellir and the base game."""
    cat = Catalog.load("be")
    docs.render_all(compiled, cat)
    sheets.card_sheet_html(card_views(compiled, cat), cat)
    assert not cat.missing, sorted(cat.missing)
    for expansions in (",".join(boxes), "thingvellir"):
        assert main(["docs", "--expansions", expansions, "--lang", "be", "--check"]) == 0
    assert main(["docs", "--lang", "be", "--check"]) == 0
    assert "every message of the reference has a `be` text" in capsys.readouterr().out
    for i in compiled.ruleset.interpretations:
        assert f"interp.{i.id}" in cat.messages and f"interp.{i.id}.source" in cat.messages, i.id


def test_every_idavoll_interpretation_is_listed(compiled, outputs):
    """001 is "the only source for Idavoll" (DESIGN §2): each reading the rules data records for it is
    printed with its source, in both languages."""
    ours = [i for i in compiled.ruleset.interpretations if i.layer == BOX]
    assert len(ours) >= 9
    cat = Catalog.load("be")
    for i in ours:
        assert f'<a id="interp-{i.id}"></a>' in outputs["en.md"], i.id
        assert docs.md_escape(cat.messages[f"interp.{i.id}"])[:40] in outputs["be.md"], i.id


def test_the_card_sheets_include_every_mythology_card_and_gullinbursti(compiled, boxes, tmp_path):
    """001 "Idavoll Expansion": "Idavoll adds a deck of powerful mythology cards"; Hreasvelg: "Take the
    special card Gullinbursti" — the printable sheet (cards.html) has one card per id, these included."""
    assert main(["docs", "--expansions", ",".join(boxes), "--format", "html", "--copies", "one", "--out", str(tmp_path)]) == 0
    html = (tmp_path / "cards.html").read_text(encoding="utf-8")
    ids = re.findall(r'data-id="([^"]+)"', html)
    assert ids == [v["id"] for v in card_views(compiled, Catalog.load("en"))]
    mythology = {e["card"] for decks in compiled.merged.zone_decks["mythology"].values() for e in decks}
    assert mythology | {"gullinbursti"} <= set(ids)
    assert set(box_cards(compiled, BOX)) <= set(ids)
