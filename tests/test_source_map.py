"""An error inside a compiled handler names the card's YAML file, line and column of the action
that failed (DESIGN §6, §11)."""
from __future__ import annotations

import ast
import linecache

import pytest

from harness import BASE, give
from nidavellir.interface.rules import SOURCE_MARKER
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.flow import troop_evaluation
from nidavellir.runtime.game import Game, RulesRuntimeError, marker_above
from nidavellir.runtime.streams import bot_seed


def test_failure_in_handler_names_the_rules_line_of_the_action(monkeypatch):
    game = Game(BASE, 3, seed=0)
    e = game.engine
    give(e, 0, "miner:1")  # P1 alone has miners: wins the Crown Jeweler ("when won: gain gem 6")

    def boom(self: Engine, p: int, value: int) -> None:
        raise ValueError("no gem here")

    monkeypatch.setattr(Engine, "gain_gem", boom)
    game._gen = troop_evaluation(e)
    with pytest.raises(RulesRuntimeError) as err:
        game._advance(None, first=True)
    # distinctions.yaml line 22: `      - "when won: gain gem 6"`; the action starts at column 20
    assert str(err.value).startswith("rules/base/distinctions.yaml:22:20: error in compiled effect: "
                                     "ValueError: no gem here")


def _source() -> tuple[str, list[str]]:
    assert BASE.module is not None
    filename = BASE.module.__file__ or ""
    return filename, linecache.getlines(filename)


def test_generated_module_has_header_hash_and_a_marker_on_every_handler():
    """DESIGN §6: a header names the sources and a content hash; every handler carries its
    location and DSL text."""
    filename, lines = _source()
    head = "".join(lines[:40])
    assert "rules/base/heroes.yaml" in head and "CONTENT_HASH = '" in head
    assert BASE.content_hash and len(BASE.content_hash) == 64
    tree = ast.parse("".join(lines))
    handlers = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert len(handlers) > 20
    for fn in handlers:
        doc = ast.get_docstring(fn, clean=False) or ""
        assert doc.startswith(SOURCE_MARKER + "rules/base/"), fn.name
        where, text = doc[len(SOURCE_MARKER):].split("\n", 1)
        path, line, col = where.rsplit(":", 2)
        assert line.isdigit() and col.isdigit() and text.strip(), fn.name


def test_every_line_of_a_handler_is_located():
    """Each action is located, not only each effect: every body line of every handler maps to a
    `file:line:col` of the rules."""
    filename, lines = _source()
    tree = ast.parse("".join(lines))
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        for stmt in fn.body[1:]:
            where = marker_above(filename, stmt.lineno)
            assert where is not None and where.startswith("rules/base/"), (fn.name, stmt.lineno)


def test_the_cli_prints_a_failing_handler_located_and_without_a_traceback(monkeypatch, capsys):
    """Issue: "the CLI catches it (and a runtime error inside a compiled handler) and prints it
    located, never a traceback"."""
    from nidavellir.cli import main

    def boom(self: Engine, p: int, value: int) -> None:
        raise ValueError("no gem here")

    seed = next(s for s in range(1, 60) if _wins_crown_jeweler(s))
    monkeypatch.setattr(Engine, "gain_gem", boom)
    code = main(["play", "--players", "3", "--seed", str(seed)])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "rules/base/distinctions.yaml:22:20: error in compiled effect: ValueError: no gem here" in err


def _wins_crown_jeweler(seed: int) -> bool:
    from nidavellir.runtime.bots import RandomBot
    from nidavellir.runtime.observation import observe
    game = Game(BASE, 3, seed)
    bots = [RandomBot(bot_seed(seed, i)) for i in range(3)]
    while game.pending is not None:
        d = game.pending
        game.answer(bots[d.player].choose(observe(game)))
    return any("distinction:miner" in [game.engine.s.cards[c] for c in pl.command] for pl in game.state.players)
