"""Render the rule reference (Markdown, HTML, PDF) from compiled rules with the Jinja2 templates
in compiler/docs/templates and the wording of a message catalog (compiler/docs/messages/<lang>)."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from nidavellir.interface.rules import CardText

from ..build import compile_specs, layer_specs, validate_expansions
from ..compile import Compiled
from ..diagnostics import Diagnostic
from . import sheets
from .errors import DocsError
from .layer_texts import with_layer_texts
from .model import card_views, reference_context
from .options import PrintOptions
from .pdf import print_reference
from .text import LANGS, Catalog

FORMATS = ("md", "html", "pdf")
DEFAULT_LANGS = ("en", "be")        # committed references of the base game (generated/docs/<lang>/)
DEFAULT_FORMATS = ("md", "html")

__all__ = ["FORMATS", "LANGS", "DocsError", "card_views", "described", "render", "render_all", "default_docs", "write",
           "compile_rules"]




_MD_SPECIAL = re.compile(r"([\\`*_\[\]|])")
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


class MdMarkup(Markup):
    """Markdown-safe text: plain strings formatted or joined into it are escaped for Markdown
    (and HTML, which Markdown passes through)."""

    @classmethod
    def escape(cls, s: Any, /) -> "MdMarkup":
        if hasattr(s, "__html__"):
            return cls(s.__html__())
        return cls(_MD_SPECIAL.sub(r"\\\1", str(escape(s))))


class _Words:
    """Catalog wording for one output format: `t` plain, `tf` formatted with already-marked-up
    arguments (links), `e` escaped plain text, `join` a list the catalog's way, `seq` with a separator."""

    def __init__(self, cat: Catalog, markup: type[Markup]):
        self.cat = cat
        self.markup = markup

    def t(self, key: str, default: str | None = None, **kw: Any) -> str:
        return self.cat.t(key, default=default, **kw)

    def tf(self, key: str, **kw: Any) -> Markup:
        m = self.markup
        parts = _PLACEHOLDER.split(self.cat.t(key))  # escape the words, keep the {placeholders}
        return m("").join(m(p) if i % 2 else m.escape(p) for i, p in enumerate(parts)).format(**kw)

    def e(self, text: Any) -> Markup:
        return self.markup.escape(text)

    def seq(self, items: list[str], sep: str = " · ") -> Markup:
        return self.markup(sep).join(items)

    def join(self, items: list[str]) -> Markup:
        m = self.markup
        if len(items) < 2:
            return m("").join(items)
        return self.tf("list.and", head=m(", ").join(items[:-1]), last=items[-1])


@lru_cache(maxsize=None)
def _env(fmt: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("nidavellir.compiler.docs", "templates"),
        autoescape=True,  # HTML escaping; Markdown also passes through MdMarkup (finalize)
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    if fmt == "md":
        env.finalize = lambda value: value if hasattr(value, "__html__") else MdMarkup.escape(value)
    return env


def _plain_quotes(text: str) -> str:
    return text.replace("&#39;", "'").replace("&#34;", '"')


def md_escape(text: str) -> str:
    """Plain text as the Markdown reference prints it."""
    return _plain_quotes(str(MdMarkup.escape(text)))


def _tidy(text: str, fmt: str) -> str:
    """No trailing spaces; blank lines only between Markdown blocks (one at most), where quotes
    show plainly."""
    text = re.sub(r"[ \t]+\n", "\n", text)
    if fmt == "md":
        return re.sub(r"\n{3,}", "\n\n", _plain_quotes(text)).strip() + "\n"
    return re.sub(r"\n{2,}", "\n", text).strip() + "\n"


def compile_rules(expansions: tuple[str, ...] = (), variants: tuple[str, ...] = ()) -> Compiled:
    validate_expansions(expansions)
    return compile_specs(layer_specs(tuple(expansions), tuple(variants)))


def described(compiled: Compiled) -> Compiled:
    """The compiled rules with each card's English text as the reference prints it in their tables
    (`CardDef.text`: what a seat shows of a card, without compiling anything while it plays)."""
    views = card_views(compiled, load_catalog("en"))
    return compiled.with_texts({str(v["id"]): CardText(str(v["class_label"]), str(v["ranks_label"]),
                                                        tuple(str(t) for t in v["text"])) for v in views})


def load_catalog(lang: str) -> Catalog:
    if lang not in LANGS:
        raise DocsError(f"unknown language `{lang}` (choose from: {', '.join(LANGS)})")
    return Catalog.load(lang)


def render(compiled: Compiled, cat: Catalog, fmt: str) -> str:
    """The reference in one format (`md` or `html`)."""
    if fmt not in ("md", "html"):
        raise DocsError(f"cannot render `{fmt}` directly (choose from: md, html)")
    cat = with_layer_texts(compiled, cat)
    words = _Words(cat, MdMarkup if fmt == "md" else Markup)
    context = reference_context(compiled, cat)
    template = _env(fmt).get_template(f"reference.{fmt}.j2")
    text = template.render(ref=context, t=words.t, tf=words.tf, e=words.e, join=words.join, seq=words.seq,
                           lang=cat.lang, page=_page_slot if fmt == "html" else _no_page_slot)
    return _tidy(text, fmt)


def _page_slot(anchor: str) -> Markup:
    """Where the printed reference gives the page of `anchor` (pdf.py fills it; empty on screen)."""
    return Markup('<span class="page" data-page="{}"></span>').format(anchor)


def _no_page_slot(anchor: str) -> Markup:
    return Markup("")


def render_all(compiled: Compiled, cat: Catalog, formats: tuple[str, ...] = DEFAULT_FORMATS) -> dict[str, str]:
    """File name -> text, for each format."""
    return {f"reference.{fmt}": render(compiled, cat, fmt) for fmt in formats}


def default_docs(compiled: Compiled) -> dict[str, str]:
    """The committed references of this rule set: `docs/<lang>/reference.<fmt>` -> text."""
    out = {}
    for lang in DEFAULT_LANGS:
        for name, text in render_all(compiled, Catalog.load(lang)).items():
            out[f"docs/{lang}/{name}"] = text
    return out


def write(compiled: Compiled, cat: Catalog, fmt: str, out: Path, options: PrintOptions = PrintOptions(),
          warn: Callable[[Diagnostic], None] | None = None) -> list[Path]:
    """Write the reference in `fmt` (and, for html and pdf, the card sheet) into `out`; `warn` is
    given each located warning (a card whose text does not fit its card)."""
    if fmt not in FORMATS:
        raise DocsError(f"unknown format `{fmt}` (choose from: {', '.join(FORMATS)})")
    files = {"reference.md": render(compiled, cat, "md")} if fmt == "md" else \
        {"reference.html": render(compiled, cat, "html")}
    if fmt != "md":
        sheet = sheets.card_sheet(compiled, with_layer_texts(compiled, cat), options)
        files["cards.html"] = sheet.html
        if warn is not None:
            for warning in sheet.warnings:
                warn(warning)
    written = [_write_text(out / name, text) for name, text in files.items()]
    if fmt == "pdf":
        for html in list(written):
            pdf = html.with_suffix(".pdf")
            try:
                if html.name == "reference.html":  # page numbers, contents, outline: pdf.py
                    print_reference(files[html.name], pdf, options)
                else:
                    sheets.pdf_from_html(html, pdf)
            except (DocsError, OSError) as err:
                raise DocsError(f"cannot print {pdf}: {err}") from None
            written.append(pdf)
    return written


def _write_text(path: Path, text: str) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise DocsError(f"cannot write {path}: {err.strerror or err}") from None
    return path
