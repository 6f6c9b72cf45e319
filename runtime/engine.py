"""The generic game engine: the core (state, setup, queries, events) with the primitive actions
on coins and cards.

The flow (runtime/flow.py) runs the steps. The game runs as a generator that yields a Decision
whenever a player must choose; `Game` (runtime/game.py) drives it from outside. The engine
implements `nidavellir.interface.engine.EngineAPI`, the interface compiled handlers call.
"""
from __future__ import annotations

from nidavellir.interface.engine import EngineAPI

from .coin_actions import CoinActions
from .core import COMMAND, NOBODY, EngineCore, SetupError


class Engine(CoinActions):
    """The whole engine: one game's state and everything that acts on it."""

    @property
    def api(self) -> EngineAPI:
        return self  # mypy checks here that Engine implements the interface handlers call


__all__ = ["Engine", "EngineCore", "SetupError", "COMMAND", "NOBODY"]
