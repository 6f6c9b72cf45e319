"""Printable card sheets: poker-size cards (63 × 88 mm), nine to an A4 page with cut marks,
as HTML with print CSS; headless Chromium prints the HTML to PDF.

    html = card_sheet_html(card_views(compiled, cat), cat)   # cards.html.j2 + cards.css
    pdf_from_html(Path("cards.html"), Path("cards.pdf"))     # chromium --headless --print-to-pdf
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import jinja2

from .errors import DocsError

if TYPE_CHECKING:
    from .views import CardView

CARDS_PER_PAGE = 9  # 3 × 3 cards of 63 × 88 mm: 189 × 264 mm, centred on A4 (210 × 297 mm)
# Rule text length (characters) up to which each font size fits a card whose name takes two lines;
# longer texts get the next, smaller size (9, 8, 7, 6, 5 pt; cards.css). Measured in Chromium with
# DejaVu Sans (tests/test_sheets.py). Where an odd mix of sentence lengths still overflows, the
# sheet's script steps down further, so no text ever leaves its card.
FONT_STEPS: tuple[tuple[int, str], ...] = ((240, "len-s"), (380, "len-m"), (520, "len-l"), (680, "len-xl"))
LONGEST = "len-xxl"
CHROMIUM_ENV = "NIDAVELLIR_CHROMIUM"
TIMEOUT = 120.0  # seconds for one Chromium run


class Messages(Protocol):
    def t(self, key: str, **kw: Any) -> str: ...


def size_class(text: list[str]) -> str:
    """The CSS class that sets a card's font size: smaller for longer rule text."""
    length = sum(len(s) for s in text)
    return next((cls for limit, cls in FONT_STEPS if length <= limit), LONGEST)


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("nidavellir.compiler.docs", "templates"),
                              autoescape=jinja2.select_autoescape(("html", "html.j2")),
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def card_sheet_html(cards: list[CardView], cat: Messages) -> str:
    """A self-contained HTML page of the cards, nine to a page in the order given.

    One card per card id (not one per copy in the box): the sheet is a reference to print and
    cut, and a designer prints as many of a card as they need.
    """
    pages = [cards[i:i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    return _env().get_template("cards.html.j2").render(
        pages=pages, cat=cat, size_class=size_class, size_steps=[cls for _, cls in FONT_STEPS] + [LONGEST],
        lang=getattr(cat, "lang", "en"))


# -- Chromium ----------------------------------------------------------------------------------

def chromium() -> str:
    """The Chromium binary: $NIDAVELLIR_CHROMIUM, else `chromium` on PATH."""
    chosen = os.environ.get(CHROMIUM_ENV)
    if chosen:
        found = shutil.which(chosen)
        if found is None:
            raise DocsError(f"{CHROMIUM_ENV}={chosen} is not an executable program; "
                            f"point it at a Chromium binary or unset it")
        return found
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found is not None:
            return found
    raise DocsError(f"printing needs headless Chromium, which was not found: install Debian's chromium "
                    f"(apt-get install chromium) or set {CHROMIUM_ENV} to a Chromium binary")


def _noise(line: str) -> bool:
    """Chromium's harmless complaints on a headless server (no D-Bus, no GPU)."""
    return not line.strip() or any(w in line for w in ("dbus", "unexpected operator", "bytes written to file"))


def run_chromium(args: list[str], timeout: float = TIMEOUT) -> str:
    """Run headless Chromium with a fresh profile and no network chatter; its stdout.

    `args` are the action and target, e.g. ["--dump-dom", "file:///…/cards.html"].
    """
    binary = chromium()
    with tempfile.TemporaryDirectory(prefix="nidavellir-chromium-", ignore_cleanup_errors=True) as profile:
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                   "--disable-quic", "--no-first-run", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--disable-extensions",
                   f"--user-data-dir={profile}", *args]
        # Its own session, so a timeout ends the renderer and GPU processes too.
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise DocsError(f"Chromium ({binary}) did not finish within {timeout:.0f} s") from None
    if proc.returncode != 0:
        detail = "\n".join(line for line in err.splitlines() if not _noise(line))[-2000:]
        raise DocsError(f"Chromium ({binary}) failed with exit code {proc.returncode}"
                        + (f":\n{detail}" if detail else ""))
    return out


def pdf_from_html(html_path: Path, pdf_path: Path, timeout: float = TIMEOUT) -> None:
    """Print an HTML file to PDF with headless Chromium (A4 pages come from the page's @page CSS)."""
    html_path, pdf_path = Path(html_path).resolve(), Path(pdf_path).resolve()
    if not html_path.is_file():
        raise DocsError(f"{html_path}: no such file to print")
    pdf_path.unlink(missing_ok=True)
    # --no-pdf-header-footer is this name since Chromium 111; --print-to-pdf-no-header is the older one.
    run_chromium(["--no-pdf-header-footer", "--print-to-pdf-no-header", f"--print-to-pdf={pdf_path}",
                  html_path.as_uri()], timeout)
    if not pdf_path.is_file() or pdf_path.stat().st_size == 0:
        raise DocsError(f"Chromium finished but wrote no PDF at {pdf_path}")
