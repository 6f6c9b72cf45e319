"""Positions between the compiler and the editor.

The compiler counts 1-based lines split at YAML's line breaks (which include U+0085, U+2028 and
U+2029) and 1-based columns in characters. LSP counts 0-based lines split at `\\n`, `\\r\\n` and
`\\r` only, and 0-based columns in the code units of the negotiated encoding (UTF-16 unless the
client offers another). Both go through a character offset into the text, so neither a non-ASCII
letter ("Mjöllnir", Belarusian words, an emoji) nor an unusual line break shifts a position.
"""
from __future__ import annotations

import bisect
import re

_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_LSP_BREAK = re.compile("\r\n|[\r\n]")

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"


def units(text: str, encoding: str = UTF16) -> int:
    """How many code units of `encoding` the text takes."""
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == UTF32:
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _starts(text: str, breaks: re.Pattern[str]) -> list[int]:
    return [0] + [m.end() for m in breaks.finditer(text)]


class TextIndex:
    """Converts between character offsets, the compiler's (line, col) and LSP positions."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self._yaml = _starts(text, _YAML_BREAK)
        self._lsp = _starts(text, _LSP_BREAK)

    def line_text(self, line: int) -> str:
        """The 0-based LSP line, without its line break."""
        if not 0 <= line < len(self._lsp):
            return ""
        end = self._lsp[line + 1] if line + 1 < len(self._lsp) else len(self.text)
        return self.text[self._lsp[line]:end].rstrip("\r\n")

    def from_loc(self, line: int, col: int) -> int:
        """Offset of the compiler's 1-based (line, col), kept inside the text and its line."""
        i = min(max(line, 1), len(self._yaml)) - 1
        start = self._yaml[i]
        end = self._yaml[i + 1] if i + 1 < len(self._yaml) else len(self.text)
        width = len(self.text[start:end].rstrip("\r\n\x85\u2028\u2029"))
        return start + min(max(col - 1, 0), width)

    def to_lsp(self, offset: int) -> tuple[int, int]:
        """The 0-based LSP (line, character) of an offset."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect.bisect_right(self._lsp, offset) - 1
        return line, units(self.text[self._lsp[line]:offset], self.encoding)

    def from_lsp(self, line: int, character: int) -> int:
        """The offset of a 0-based LSP position (past the end of a line: the line's end)."""
        if line >= len(self._lsp):
            return len(self.text)
        text = self.line_text(max(line, 0))
        start = self._lsp[max(line, 0)]
        if self.encoding == UTF32:
            return start + min(max(character, 0), len(text))
        count = 0
        for i, ch in enumerate(text):
            if count >= character:
                return start + i
            count += units(ch, self.encoding)
        return start + len(text)
