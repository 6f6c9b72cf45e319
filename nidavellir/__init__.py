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

from typing import TYPE_CHECKING

from nidavellir.errors import NidavellirError

if TYPE_CHECKING:  # for type checkers; at run time the names are imported on first use
    from nidavellir.compiler.diagnostics import RulesError
    from nidavellir.interface.decisions import CardChoice, CoinChoice, Decision, Option
    from nidavellir.rulesets import load_rules
    from nidavellir.runtime.decisions import GameOver, IllegalAnswer
    from nidavellir.runtime.game import Game
    from nidavellir.runtime.observation import NoWorld, Observation, observe
    from nidavellir.runtime.rules import Rules
    from nidavellir.runtime.scoring import PlayerScore, Scores

__all__ = ["load_rules", "Game", "Rules", "Decision", "Option", "CardChoice", "CoinChoice", "IllegalAnswer",
           "GameOver", "RulesError", "NidavellirError", "Scores", "PlayerScore", "Observation", "observe", "NoWorld"]

_WHERE = {
    "load_rules": "nidavellir.rulesets",
    "Game": "nidavellir.runtime.game",
    "Rules": "nidavellir.runtime.rules",
    "Decision": "nidavellir.interface.decisions",
    "Option": "nidavellir.interface.decisions",
    "CardChoice": "nidavellir.interface.decisions",
    "CoinChoice": "nidavellir.interface.decisions",
    "IllegalAnswer": "nidavellir.runtime.decisions",
    "GameOver": "nidavellir.runtime.decisions",
    "RulesError": "nidavellir.compiler.diagnostics",
    "Scores": "nidavellir.runtime.scoring",
    "PlayerScore": "nidavellir.runtime.scoring",
    "Observation": "nidavellir.runtime.observation",
    "observe": "nidavellir.runtime.observation",
    "NoWorld": "nidavellir.runtime.observation",
}


def __getattr__(name: str) -> Any:  # imported on first use: the CLI starts faster
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(name)
    import importlib
    return getattr(importlib.import_module(module), name)
