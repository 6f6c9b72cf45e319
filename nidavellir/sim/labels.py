"""How a simulation names its rule sets for people: by the names the designers wrote.

A rule set's `label` (the manifest's, the records' and the Parquet parts' key) is its variants'
layer ids joined by `+`, or `base`: stable, and what records are checked against. Its `name` is
what the report, the plots and the terminal show, and what records carry in their `rules` column:
the variants' `layer.name`s joined by " + " (in the order applied), or "base game" for a rule set
without a variant. A folder written before rule sets had names shows its labels.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nidavellir.runtime.rules import Rules

BASE_NAME = "base game"
AGAINST = " (against)"   # the second of two rule sets with the same rules


def rule_set_label(rules: Rules) -> str:
    """The rule set's key: its variants' layer ids, or `base`."""
    return "+".join(rules.variant_ids) or "base"


def rule_set_name(rules: Rules) -> str:
    """The rule set's name for people: its variants' names, or "base game"."""
    return " + ".join(layer.name or layer.id for layer in rules.ruleset.layers if layer.variant) or BASE_NAME


def shown(rule_set: Mapping[str, Any], index: int) -> str:
    """What a report calls a rule set of a summary or manifest: its name, else (a folder from
    before names) its label, else its place."""
    for key in ("name", "label"):
        value = rule_set.get(key)
        if isinstance(value, str) and value:
            return value
    return f"rule set {index}"
