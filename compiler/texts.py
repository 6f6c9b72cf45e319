"""A layer's own texts in the reference's other languages (`texts: {be: …}` in any file of the
layer): what they name must be in the rule set. Which entries still lack a text is the docs'
business (compiler/docs/layer_texts.py); the compiler only refuses texts that name nothing."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .diagnostics import Diagnostics, suggest
from .layers import Merged

# Message families whose last part is an id of the rules data (the docs look them up with the
# rules data's English name as the default): `zone.name.camp`, `class.warrior`, …
NAME_FAMILIES = ("card", "class", "kind", "zone", "zone.name", "tavern", "coin.name", "param", "ref.kinds",
                 "ref.window", "interp", "layer")


def check_texts(m: Merged, diags: Diagnostics, english: Callable[[], frozenset[str]]) -> None:
    """Every card, interpretation and message key a `texts:` block names exists (a located error
    with a did-you-mean otherwise). `english()`: the keys of the English message catalog (read only
    when a layer gives `messages`)."""
    for layer in m.layers:
        for f in layer.files:
            texts: dict[str, Any] = f.data.get("texts") or {}
            for lang, block in texts.items():
                for cid in block.get("cards", {}):
                    if cid not in m.cards:
                        diags.error(f.locate_key(("texts", lang, "cards", cid)),
                                    f"a text for the card `{cid}`, which this rule set does not have",
                                    suggest(cid, list(m.cards)))
                for iid in block.get("interpretations", {}):
                    if iid not in m.interpretations:
                        diags.error(f.locate_key(("texts", lang, "interpretations", iid)),
                                    f"a text for the interpretation `{iid}`, which this rule set does not have",
                                    suggest(iid, list(m.interpretations)))
                for key in block.get("messages", {}):
                    if key.rpartition(".")[0] not in NAME_FAMILIES and key not in english():
                        diags.error(f.locate_key(("texts", lang, "messages", key)),
                                    f"`{key}` is not a message of the reference",
                                    suggest(key, sorted(english())) or "the keys are those of compiler/docs/messages/en")


def english_keys() -> frozenset[str]:
    """The keys of the English message catalog (compiler/docs/messages/en), read on first use."""
    from .messages import catalog_messages

    return frozenset(catalog_messages("en"))
