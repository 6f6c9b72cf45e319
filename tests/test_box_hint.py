"""A card a rule set lacks because its box is not loaded is named with its box (issue 18: "A card id
unknown in the rule set but defined in a box not loaded gets `hint: svalinn is a Thingvellir card:
add --expansions thingvellir`"): compiler/box_cards.py reads which shipped box defines each card."""
from __future__ import annotations

import pytest
import yaml

from checking import ROOT, run_check, write
from nidavellir.compiler.sources import EXPANSIONS

BOX_CARDS = sorted({(box, card["id"]) for box in EXPANSIONS for path in (ROOT / "rules" / box).glob("*.yaml")
                    for card in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cards") or []})
NAMES = {box: yaml.safe_load((ROOT / "rules" / box / "game.yaml").read_text(encoding="utf-8"))["layer"]["name"]
         for box in EXPANSIONS}


@pytest.mark.parametrize("box, cid", BOX_CARDS)
def test_a_card_of_a_box_not_loaded_names_its_box(capsys, tmp_path, box, cid):
    """Changing a card of a box not loaded: refused, the hint names the box and the option."""
    v = write(tmp_path / "v.yaml", f'layer: {{id: v, name: V}}\ncards:\n  - id: "{cid}"\n    points: 3\n')
    code, _, err = run_check(capsys, str(v))
    assert code == 1
    assert f"hint: `{cid}` is a card of {NAMES[box]}: add --expansions {box}" in err, err
    code, _, err = run_check(capsys, "--expansions", box, str(v))
    assert code == 0, err


@pytest.mark.parametrize("text", [
    'cards:\n  - id: astrid\n    effects: ["when taken: place card svalinn in command zone"]\n',  # an effect
    'decks:\n  - age: 1\n    cards: [{card: svalinn, count: 1}]\n',                               # a deck
])
def test_the_box_is_named_wherever_a_card_is_referred_to(capsys, tmp_path, text):
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\n" + text)
    code, _, err = run_check(capsys, str(v))
    assert code == 1 and "hint: `svalinn` is a card of Thingvellir: add --expansions thingvellir" in err, err


def test_a_mistyped_card_still_gets_the_nearest_id(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", 'layer: {id: v, name: V}\ncards:\n  - id: astird\n    points: 3\n')
    code, _, err = run_check(capsys, str(v))
    assert code == 1 and "did you mean `astrid`?" in err, err
