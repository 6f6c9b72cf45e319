"""Decisions as data (nidavellir.interface.decisions), and the errors of answering them."""
from __future__ import annotations

from nidavellir.errors import NidavellirError
from nidavellir.interface.decisions import (
    CardChoice, CoinChoice, Decision, Option, find_option, plain, same_json, to_json,
)


class IllegalAnswer(NidavellirError, ValueError):
    """An answer that is not one of the pending decision's options; nothing changed."""


class GameOver(NidavellirError, RuntimeError):
    """The game has ended: there is no pending decision."""


__all__ = ["Decision", "Option", "CardChoice", "CoinChoice", "IllegalAnswer", "GameOver", "find_option",
           "to_json", "same_json", "plain"]
