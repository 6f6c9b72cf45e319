"""The texts a layer carries for the reference's other languages (`texts: {be: …}`, checked by
compiler/texts.py), laid over the message catalog, and which entries of a variant still lack one.

    cat = with_layer_texts(compiled, Catalog.load("be"))   # the variant's own Belarusian texts win
    for lack in lacking(compiled, cat): print(lack.loc, lack.what)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..compile import Compiled
from ..diagnostics import Location
from ..layers import Layer
from .text import Catalog


# What a lacking entry is, by kind: the English the command line prints (the reference words it
# in its own language: catalog keys `ref.fallback.<kind>`).
WHAT = {"name": "the layer's name", "description": "the layer's description", "source": "the layer's source",
        "card": "the name of card {id}", "interp-text": "the text of interpretation {id}",
        "interp-source": "the source of interpretation {id}"}


@dataclass(frozen=True)
class Lack:
    """An entry of a variant shown in English in another language: where its English is written,
    its kind (a key of WHAT) and id, its catalog key, and where its text goes
    (`texts.be.cards.royal-offering:3`)."""
    loc: Location
    layer: str
    kind: str
    ident: str
    key: str
    fix: str

    @property
    def what(self) -> str:
        return WHAT[self.kind].format(id=self.ident)


def _blocks(layer: Layer, lang: str) -> list[dict[str, Any]]:
    return [f.data["texts"][lang] for f in layer.files
            if isinstance(f.data.get("texts"), dict) and isinstance(f.data["texts"].get(lang), dict)]


def layer_texts(compiled: Compiled, lang: str) -> dict[str, str]:
    """Catalog key -> text, from every layer's `texts.<lang>` (a later layer's text wins)."""
    out: dict[str, str] = {}
    for layer in compiled.merged.layers:
        for block in _blocks(layer, lang):
            for field in ("name", "description", "source"):
                if field in block:
                    out[f"layer.{layer.id}.{field}"] = block[field]
            for cid, name in block.get("cards", {}).items():
                out[f"layer.{layer.id}.card.{cid}"] = name
                out.setdefault(f"card.{cid}", name)  # the name where no layer renamed it (a new card)
            for iid, item in block.get("interpretations", {}).items():
                out[f"interp.{iid}"] = item["text"]
                if "source" in item:
                    out[f"interp.{iid}.source"] = item["source"]
            out.update(block.get("messages", {}))
    return out


def with_layer_texts(compiled: Compiled, cat: Catalog) -> Catalog:
    """`cat` with the rule set's own texts in its language laid over it; the fallbacks it records
    are recorded in `cat.missing` too."""
    if cat.lang == "en":
        return cat
    own = layer_texts(compiled, cat.lang)
    if not own:
        return cat
    return Catalog(cat.lang, {**cat.messages, **own}, cat.fallback, cat.missing)


def lacking(compiled: Compiled, cat: Catalog) -> list[Lack]:
    """Every entry a variant writes in English (its name, description and source, the names of
    the cards it adds or renames, its interpretations) that has no text in `cat`'s language,
    neither in the variant's `texts:` nor in the shipped catalog; in file order."""
    if cat.lang == "en":
        return []
    messages = with_layer_texts(compiled, cat).messages
    out: list[Lack] = []
    merged = compiled.merged
    for layer in merged.layers:
        if not layer.is_variant:
            continue

        def need(key: str, loc: Location, kind: str, ident: str, fix: str, lid: str = layer.id) -> None:
            if key not in messages:
                out.append(Lack(loc, lid, kind, ident, key, f"texts.{cat.lang}.{fix}"))

        for f in layer.files:
            info = f.data.get("layer")
            if isinstance(info, dict):
                for field in ("name", "description", "source"):
                    if info.get(field):
                        need(f"layer.{layer.id}.{field}", f.locate(("layer", field)), field, "", field)
            for i, item in enumerate(f.data.get("interpretations", [])):
                iid = item["id"]
                need(f"interp.{iid}", f.locate(("interpretations", i, "text")), "interp-text", iid,
                     f"interpretations.{iid}.text")
                if item.get("source"):
                    need(f"interp.{iid}.source", f.locate(("interpretations", i, "source")), "interp-source", iid,
                         f"interpretations.{iid}.source")
        for cid, origins in merged.card_origin.items():
            origin = origins.get("name")
            if origin is not None and cid in merged.cards and any(origin.loaded is f for f in layer.files):
                need(f"layer.{layer.id}.card.{cid}", origin.loc, "card", cid, f"cards.{cid}")
    return sorted(out, key=lambda lack: (lack.loc.path, lack.loc.line, lack.loc.col))
