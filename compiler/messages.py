"""The reference's message catalogs as files: `compiler/docs/messages/<lang>/*.yaml`, read and
merged. The compiler checks a layer's `texts:` against the English keys and the docs back end
phrases with them; the files are read here, so that the compiler never imports compiler/docs."""
from __future__ import annotations

from functools import cache
from importlib import resources

import yaml


@cache
def catalog_messages(lang: str) -> dict[str, str]:
    """Every `compiler/docs/messages/<lang>/*.yaml` file, merged (flat `key: text` mappings)."""
    # (a folder of data under the compiler package: reaching it imports no module of compiler/docs)
    folder = resources.files("nidavellir.compiler") / "docs" / "messages" / lang
    merged: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            data = yaml.safe_load(entry.read_text(encoding="utf-8")) or {}
            merged.update({str(k): str(v) for k, v in data.items()})
    return merged
