"""The docs back end: rule text from the effect IR (`text`), what the reference shows (`model`),
the worked scoring table (`scoring`), rendering with Jinja2 templates and message catalogs
(`render`), printable card sheets (`sheets`)."""
from __future__ import annotations

from .render import (
    FORMATS, LANGS, DocsError, card_views, compile_rules, described, default_docs, load_catalog, md_escape, render, render_all,
    write,
)

__all__ = ["FORMATS", "LANGS", "DocsError", "card_views", "described", "render", "render_all", "default_docs", "write",
           "compile_rules", "load_catalog", "md_escape"]
