"""An error inside a compiled handler names the card's YAML file and line (DESIGN §6, §11)."""
from __future__ import annotations

import pytest

from harness import BASE, give
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.flow import troop_evaluation
from nidavellir.runtime.game import Game, RulesRuntimeError


def test_failure_in_handler_names_the_rules_line(monkeypatch):
    game = Game(BASE, 3, seed=0)
    e = game.engine
    give(e, 0, "miner:1")  # P1 alone has miners: wins the Crown Jeweler ("when won: gain gem 6")

    def boom(self, p, value):
        raise ValueError("no gem here")

    monkeypatch.setattr(Engine, "gain_gem", boom)
    game._gen = troop_evaluation(e)
    with pytest.raises(RulesRuntimeError) as err:
        game._advance(None, first=True)
    text = str(err.value)
    assert text.startswith("rules/base/distinctions.yaml:22:9: error in compiled effect: ValueError: no gem here")


def test_generated_module_has_header_and_source_map():
    """DESIGN §6: a header names the sources and a content hash."""
    source = open(BASE.module.__file__, encoding="utf-8").read()
    head = source[:2000]
    assert "rules/base/heroes.yaml" in head and "CONTENT_HASH = '" in head
    assert BASE.content_hash and len(BASE.content_hash) == 64
    assert all(loc.startswith("rules/base/") for loc in BASE.source_map.values())
