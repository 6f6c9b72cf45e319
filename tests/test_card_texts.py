"""Each card's English rule text is part of the compiled artefact (issue 19, §1): "Card text (en) is
part of the compiled artefact, so the terminal seat no longer recompiles the YAML to show it"."""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from nidavellir.compiler.docs import card_views, compile_rules, load_catalog
from nidavellir.rulesets import load_rules


@pytest.mark.parametrize("expansions", [(), ("thingvellir", "idavoll")])
def test_a_cards_text_in_the_artefact_is_the_references(expansions: tuple[str, ...]):
    """Issue: "the docs, the terminal seat and the LSP read the same objects the runtime runs": every
    card's text in the loaded rules (its class, its ranks and points, its rule text sentence by
    sentence) is what the English reference prints for it."""
    rules = load_rules(expansions)
    views = card_views(compile_rules(expansions), load_catalog("en"))
    assert {str(v["id"]) for v in views} == set(rules.cards)
    for v in views:
        text = rules.cards[str(v["id"])].text
        assert text is not None, v["id"]
        assert (text.class_label, text.ranks_label, list(text.text)) == (v["class_label"], v["ranks_label"],
                                                                          [str(t) for t in v["text"]])
    assert any(v["text"] for v in views)  # (rule text, not only labels)


def test_a_variant_compiled_in_memory_carries_its_texts(tmp_path):
    """A rule set compiled when it is loaded (a variant) has its cards' texts too, in its variant's
    words: a hero whose points a house rule changed says the new points."""
    variant = tmp_path / "skaa.yaml"
    variant.write_text(textwrap.dedent("""\
        layer: {id: big-skaa, name: Big Skaa, description: Skaa is worth more.}
        cards:
          - {id: skaa, points: 21}
        """), encoding="utf-8")
    rules = load_rules((), (str(variant),))
    text = rules.cards["skaa"].text
    assert text is not None and "21" in text.ranks_label + " ".join(text.text)


SHOW_A_HERO = """\
import io, sys
import nidavellir.compiler.compile as compile_module
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.terminal import TerminalSeat

def refuse(*args, **kwargs):
    raise AssertionError("the seat compiled the rules during play")

rules = load_rules()
compile_module.compile_layers = refuse
game = Game(rules, 3, seed=3, journal=True)
while game.pending is not None and game.pending.kind != "hero":
    game.answer(game.pending.options[0])
out = io.StringIO()
TerminalSeat(io.StringIO("? 1\\n1\\n"), out).choose(observe(game))
print(out.getvalue())
print(sorted(m for m in sys.modules if m.startswith("nidavellir.compiler.docs")))
"""


def test_the_terminal_seat_compiles_nothing_while_a_game_is_shown():
    """Issue: "the terminal seat no longer recompiles the YAML to show it": a hero is
    shown, in the reference's words, while the compiler refuses to run and no module of the docs back end is loaded."""
    out = subprocess.run([sys.executable, "-c", SHOW_A_HERO], capture_output=True, text=True, timeout=120,
                         check=False)
    assert out.returncode == 0, out.stderr
    shown, modules = out.stdout.rstrip().rsplit("\n", 1)
    assert "Recruit a hero" in shown and " hero, " in shown and "ranks" in shown
    assert re.search(r"\b[A-Z][a-z]+ hero, ranks", shown)  # the reference's class label (the rules data has none)
    assert modules == "[]"
