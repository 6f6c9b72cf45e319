"""Nidavellir: a rules compiler and engine for the card game.

The public API::

    from nidavellir import load_rules, Game
    rules = load_rules(expansions=(), variants=("rules/variants/first-game.yaml",))
    game = Game(rules, 3, seed=1)
    while game.pending is not None:          # a Decision: player, kind, options, prompt
        game.answer(game.pending.options[0])  # an illegal answer raises IllegalAnswer
    game.scores()
"""
from __future__ import annotations

from typing import Any

__all__ = ["load_rules", "Game", "Decision", "IllegalAnswer", "RulesError"]


def __getattr__(name: str) -> Any:  # imported on first use: the CLI starts faster
    if name == "load_rules":
        from nidavellir.compiler.build import load_rules
        return load_rules
    if name == "Game":
        from nidavellir.runtime.game import Game
        return Game
    if name in ("Decision", "IllegalAnswer"):
        from nidavellir.runtime import decisions
        return getattr(decisions, name)
    if name == "RulesError":
        from nidavellir.compiler.diagnostics import RulesError
        return RulesError
    raise AttributeError(name)
