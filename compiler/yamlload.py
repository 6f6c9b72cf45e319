"""Safe YAML loading into plain Python data, remembering where every node came from.

Rules files are untrusted. PyYAML is used only as a parser (its event stream;
libyaml's when available): no YAML tag ever constructs a Python object. The
plain data and a light node tree for locations are built here in one pass,
bounded in depth and in size (aliases included), and every problem found is
reported together as one ``RulesError``.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Any, Final, Protocol, Union, final

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from nidavellir.interface.numbers import MAX_DIGITS, NumberError, is_numeral, parse_float, parse_int

from .diagnostics import Diagnostic, Location, RulesError, register_source, suggest, unread
from .paths import MAX_FILE_BYTES, PathProblem, read_bytes

__all__ = ["Loaded", "load_yaml", "overlay", "overlaid", "overlaid_in", "MAX_DEPTH", "MAX_NODES", "JsonPath", "JsonDict"]

MAX_DEPTH = 64
MAX_NODES = 200_000

JsonPath = tuple[Union[str, int], ...]
# A loaded mapping. Its values are plain data (dicts with string keys, lists, str, int, float, bool,
# None) of a user's file: checked against the schemas, then read freely, hence `Any`.
JsonDict = dict[str, Any]

try:  # libyaml's parser is ~15x faster; both are event parsers with the same marks.
    _ParserClass: type[yaml.CSafeLoader | yaml.SafeLoader] = yaml.CSafeLoader
    _BYTE_OFFSETS = True  # libyaml reports reader errors as UTF-8 byte offsets
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _ParserClass = yaml.SafeLoader
    _BYTE_OFFSETS = False

_T = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = _T + "str", _T + "int", _T + "float", _T + "bool", _T + "null"
SEQ, MAP, MERGE = _T + "seq", _T + "map", _T + "merge"
_AS_STRING = {_T + "timestamp", _T + "binary", _T + "value", _T + "yaml"}
_BOOLS = {"yes": True, "no": False, "true": True, "false": False, "on": True, "off": False}
_BREAKS = "\r\n\x85\u2028\u2029"
# first character -> (tag, pattern) in the order they are tried
_RESOLVERS: dict[str | None, list[tuple[str, re.Pattern[str]]]] = yaml.SafeLoader.yaml_implicit_resolvers
_RESOLVED: dict[str, str] = {}  # plain scalar text -> tag (short values only)


def _resolve(value: str) -> str:
    """Tag of an untagged plain scalar, by the SafeLoader's implicit resolvers."""
    tag = _RESOLVED.get(value)
    if tag is None:
        tag = STR
        for cand, regexp in _RESOLVERS.get(value[:1], ()):
            if regexp.match(value):
                tag = cand
                break
        if len(value) <= 40:
            if len(_RESOLVED) > 20_000:
                _RESOLVED.clear()
            _RESOLVED[value] = tag
    return tag


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_T):] if tag.startswith(_T) else tag


# Location tree. A scalar is a plain tuple, kept small and cheap for the garbage
# collector: (line, col, end line, end col, style, source text); 0-based positions,
# style "" (plain), "'", '"', "|" or ">".
_Scalar = tuple[int, int, int, int, str, str]


class _Seq:
    __slots__ = ("line", "col", "items")
    line: int
    col: int
    items: list[_Node]


class _Map:
    __slots__ = ("line", "col", "entries")
    line: int
    col: int
    entries: dict[str, tuple[_Node, _Node]]  # key -> (key node, value node)


class _Alias:
    __slots__ = ("line", "col", "target")
    line: int
    col: int
    target: _Node


_Node = Union[_Scalar, _Seq, _Map, _Alias]


class _Mark(Protocol):
    """A parser position, PyYAML's or libyaml's (0-based)."""

    line: int
    column: int


def _pos(node: _Node) -> tuple[int, int]:
    """0-based (line, column) where a node starts."""
    return (node[0], node[1]) if isinstance(node, tuple) else (node.line, node.col)


def _start_mark(ev: Event) -> _Mark:
    """Where an event starts (the parser marks every event it emits)."""
    mark = ev.start_mark
    assert mark is not None
    return mark


class _Anchor:
    __slots__ = ("node", "data", "size", "height", "tag")

    def __init__(self, node: _Node, data: Any, size: int, height: int, tag: str | None) -> None:
        self.node, self.data, self.size, self.height, self.tag = node, data, size, height, tag


class _Key(Enum):
    """What a mapping waits for when it is not a key's value."""

    NONE = 0
    BAD = 1


_NO_KEY: Final = _Key.NONE  # the next child of a mapping is a key
_BAD_KEY: Final = _Key.BAD  # the pending key was rejected: drop its value
# (module names: reading them is faster than reading enum members)


class _Frame:
    """An open collection: its node, its data, and bookkeeping."""

    __slots__ = ("height", "count0", "anchor")
    height: int
    count0: int
    anchor: str | None


@final
class _SeqFrame(_Frame):
    __slots__ = ("node", "data")
    node: _Seq
    data: list[Any]


@final
class _MapFrame(_Frame):
    __slots__ = ("node", "data", "key", "key_node")
    node: _Map
    data: JsonDict
    key: str | _Key  # the pending key, or what the mapping waits for
    key_node: _Node  # (set with each key)


class _Stop(Exception):
    """Abandon the document (after a diagnostic has been recorded)."""


def _copy(data: Any) -> Any:
    """Deep copy of plain data (alias re-expansion; depth and size already bounded)."""
    if type(data) is dict:
        return {k: _copy(v) for k, v in data.items()}
    if type(data) is list:
        return [_copy(v) for v in data]
    return data


def _placeholder(mark: _Mark) -> _Scalar:
    """Stands for a value that was rejected (and already reported)."""
    return (mark.line, mark.column, mark.line, mark.column, "", "")


class _Builder:
    """Turns a parser's event stream into plain data plus a location tree."""

    def __init__(self, path: str, text: str) -> None:
        self.path, self.text = path, text
        self.diags: list[Diagnostic] = []
        self.anchors: dict[str, _Anchor | None] = {}  # None: still being built
        self.stack: list[_SeqFrame | _MapFrame] = []
        self.count = 0
        self.docs = 0
        self.root: _Node | None = None
        self.data: Any = None

    def loc(self, where: _Mark | _Node) -> Location:
        """Location of a parser mark or of a node."""
        line, col = _pos(where) if isinstance(where, (tuple, _Seq, _Map, _Alias)) else (where.line, where.column)
        return Location(self.path, line + 1, col + 1)

    def error(self, where: _Mark | _Node, message: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(self.loc(where), message, hint))

    # -- the event loop ----------------------------------------------------
    def run(self) -> None:
        parser = None
        try:
            parser = _ParserClass(self.text)
            self._events(parser.get_event)
        except _Stop:
            pass
        except yaml.YAMLError as exc:
            self.diags.append(self._syntax_error(exc))
        except UnicodeError:
            self.diags.append(Diagnostic(Location(self.path, 1, 1), "text is not valid Unicode"))
        finally:
            if parser is not None:
                parser.dispose()

    def _events(self, get_event: Callable[[], Event | None]) -> None:
        stack = self.stack
        while True:
            ev = get_event()
            # (exact types, cheaper than isinstance: the parser makes no subclasses)
            if type(ev) is ScalarEvent:
                self._scalar(ev)
            elif type(ev) is MappingStartEvent or type(ev) is SequenceStartEvent:
                if len(stack) >= MAX_DEPTH:
                    # Stop at once: even scanning a very deep subtree is quadratic in libyaml.
                    self.error(_start_mark(ev), f"document too deeply nested (more than {MAX_DEPTH} levels)")
                    raise _Stop
                self._start(ev, type(ev) is MappingStartEvent)
            elif type(ev) is MappingEndEvent or type(ev) is SequenceEndEvent:
                self._end(ev)
            elif type(ev) is AliasEvent:
                self._alias(ev)
            elif type(ev) is DocumentStartEvent:
                self.docs += 1
                if self.docs > 1:
                    self.error(
                        _start_mark(ev),
                        "a rules file must hold a single YAML document; a second one starts here",
                        "remove the `---` line, or split the file in two",
                    )
                    raise _Stop
            elif type(ev) is StreamEndEvent:
                return

    def _count(self, n: int, mark: _Mark) -> None:
        self.count += n
        if self.count > MAX_NODES:
            self._too_many(mark)

    def _too_many(self, mark: _Mark) -> None:
        self.error(mark, f"too many nodes (alias expansion?): more than {MAX_NODES} values")
        raise _Stop

    def _define(self, anchor: str | None, mark: _Mark) -> bool:
        if anchor is None:
            return False
        if anchor in self.anchors:
            self.error(mark, f"duplicate anchor `&{anchor}`", "give each anchor its own name")
            return False
        return True

    # -- nodes -------------------------------------------------------------
    def _scalar(self, ev: ScalarEvent) -> None:
        start, end = ev.start_mark, ev.end_mark
        assert start is not None and end is not None  # (the parser marks every event)
        self.count += 1  # (inlined _count: this is the hot path)
        if self.count > MAX_NODES:
            self._too_many(start)
        text, tag = ev.value, ev.tag
        if tag is None:
            tag = _resolve(text) if ev.implicit[0] else STR
        elif tag == "!":
            tag = STR
        value: Any = text
        if tag != STR:
            value, tag = self._convert(start, text, tag)
        elif ev.style == '"' and _NOT_TEXT.search(text):  # `"\ud800"`: an escape that is no character
            self._lone_surrogate(start.line, start.column)
            value, tag = None, None
        node = (start.line, start.column, end.line, end.column, ev.style or "", text)
        if ev.anchor is not None and self._define(ev.anchor, start):
            self.anchors[ev.anchor] = _Anchor(node, value, 1, 0, tag)
        self._add(value, node, 0, tag)

    def _lone_surrogate(self, line: int, col: int) -> None:
        """Report an escape of a lone surrogate (U+D800 to U+DFFF) at its backslash, the first one at
        or after (line, col), 0-based."""
        starts = _line_starts(self.text)
        begin = starts[min(line, len(starts) - 1)] + col
        m = _SURROGATE_ESCAPE.search(self.text, begin)
        at = m.start() if m else begin
        row = bisect.bisect_right(starts, at) - 1
        self.diags.append(Diagnostic(Location(self.path, row + 1, at - starts[row] + 1),
                                     "this escape is a lone surrogate (U+D800 to U+DFFF), not a character",
                                     "write the character itself, or one `\\U` escape of it (YAML does not join a `\\u` pair)"))

    def _convert(self, mark: _Mark, text: str, tag: str) -> tuple[Any, str | None]:
        """Value of a non-string scalar, and its tag (None once reported as invalid)."""
        if tag == INT or tag == FLOAT:
            try:
                if tag == INT:
                    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS and (text[0] != "0" or len(text) == 1):
                        return int(text), tag  # the common case: a short plain decimal
                    return parse_int(text, yaml=True), tag
                return parse_float(text, yaml=True), tag
            except NumberError as err:
                self.error(mark, err.message, err.hint)
        elif tag == BOOL:
            if text.lower() in _BOOLS:
                return _BOOLS[text.lower()], tag
            self.error(mark, f"`{text[:40]}` is not a valid boolean", "use true or false")
        elif tag == NULL:
            return None, tag
        elif tag in _AS_STRING or tag == MERGE:
            return text, tag
        else:
            self._bad_tag(mark, tag)
        return None, None

    def _bad_tag(self, mark: _Mark, tag: str) -> None:
        self.error(
            mark,
            f"unsupported YAML tag `{_short_tag(tag)}`",
            "rules files use plain values only; remove the tag",
        )

    def _start(self, ev: CollectionStartEvent, is_map: bool) -> None:
        mark = ev.start_mark
        assert mark is not None  # (the parser marks every event)
        self._count(1, mark)
        if ev.tag is not None and ev.tag not in ("!", MAP if is_map else SEQ):
            self._bad_tag(mark, ev.tag)
        f: _SeqFrame | _MapFrame
        if is_map:
            f = _MapFrame()
            f.node, f.data, f.key = _Map(), {}, _NO_KEY
            f.node.entries = {}
        else:
            f = _SeqFrame()
            f.node, f.data = _Seq(), []
            f.node.items = []
        f.node.line, f.node.col = mark.line, mark.column
        f.height, f.count0 = 0, self.count
        f.anchor = ev.anchor if self._define(ev.anchor, mark) else None
        if f.anchor is not None:
            self.anchors[f.anchor] = None
        self.stack.append(f)

    def _end(self, ev: CollectionEndEvent) -> None:
        f = self.stack.pop()
        height = f.height + 1
        if f.anchor is not None:
            self.anchors[f.anchor] = _Anchor(f.node, f.data, self.count - f.count0 + 1, height, None)
        self._add(f.data, f.node, height, "")

    def _alias(self, ev: AliasEvent) -> None:
        name, mark = ev.anchor, ev.start_mark
        assert name is not None and mark is not None  # (an alias names its anchor; the parser marks it)
        anchor = self.anchors.get(name)
        node = _Alias()
        node.line, node.col = mark.line, mark.column
        if anchor is None:
            if name in self.anchors:
                self.error(mark, f"alias `*{name}` is used inside its own anchor (recursive data)")
            else:
                hint = suggest(name, [a for a, v in self.anchors.items() if v is not None])
                self.error(mark, f"unknown alias `*{name}`", hint and hint.replace("`", "`*", 1))
            node.target = _placeholder(mark)
            self._add(None, node, 0, None)
            return
        node.target = anchor.node
        if len(self.stack) + anchor.height > MAX_DEPTH:
            self.error(mark, f"document too deeply nested (more than {MAX_DEPTH} levels)")
            raise _Stop
        self._count(anchor.size, mark)
        self._add(_copy(anchor.data), node, anchor.height, anchor.tag)

    def _add(self, value: Any, node: _Node, height: int, tag: str | None) -> None:
        """Attach a finished node to the open collection (or make it the root).

        ``tag`` is the scalar's resolved tag, "" for a collection, None if already reported.
        """
        if not self.stack:
            self.root, self.data = node, value
            return
        f = self.stack[-1]
        if height > f.height:
            f.height = height
        if type(f) is _SeqFrame:
            f.data.append(value)
            f.node.items.append(node)
        elif f.key is _NO_KEY:
            f.key_node = node
            if tag == INT:  # `{2: 3}` tables keyed by player count or value; JSON keys are text
                value, tag = str(value), STR
            elif tag == STR and len(value) > MAX_DIGITS and is_numeral(value):
                try:  # `{"3": …}` is the same table's key written as text: the same bound
                    parse_int(value)
                except NumberError as err:
                    self.error(node, err.message, err.hint)
                    tag = None
            if tag == STR and value not in f.data:
                f.key = value
            else:
                f.key = _BAD_KEY
                self._bad_key(value, node, tag, f.node)
        else:
            if f.key is not _BAD_KEY:
                f.data[f.key] = value
                f.node.entries[f.key] = (f.key_node, node)
            f.key = _NO_KEY

    def _bad_key(self, value: Any, node: _Node, tag: str | None, mapping: _Map) -> None:
        """Report why a mapping key was rejected."""
        if tag is None:  # an invalid value, already reported
            return
        if tag == STR:
            first_line = _pos(mapping.entries[value][0])[0] + 1
            self.error(node, f"duplicate key `{value}` (first defined at line {first_line})")
        elif tag == MERGE:
            self.error(
                node,
                "YAML merge keys (`<<`) are not supported",
                "write the keys out, or reuse a whole value with an alias `*name`",
            )
        else:
            hint = None
            if type(node) is tuple:
                hint = f'quote the key if it is meant as text: `"{node[5]}"`'
            self.error(node, "mapping keys must be strings", hint)

    # -- parser errors -----------------------------------------------------
    def _syntax_error(self, exc: yaml.YAMLError) -> Diagnostic:
        if isinstance(exc, yaml.reader.ReaderError):
            return self._reader_error(exc)
        if not isinstance(exc, yaml.MarkedYAMLError):
            return Diagnostic(Location(self.path, 1, 1), f"invalid YAML: {exc}")
        mark: _Mark | None = exc.problem_mark or exc.context_mark
        cmark: _Mark | None = exc.context_mark
        problem = exc.problem or "invalid YAML"
        context = exc.context or ""
        hint = None
        if mark is None:
            return Diagnostic(Location(self.path, 1, 1), problem)
        if "invalid Unicode character escape code" in problem:  # libyaml's word for `"\ud800"`
            self._lone_surrogate(cmark.line if cmark else mark.line, cmark.column if cmark else 0)
            return self.diags.pop()
        if "maximum nesting depth" in problem:  # libyaml ≥ 0.2.5's own limit, above ours
            return Diagnostic(self.loc(mark), f"document too deeply nested (more than {MAX_DEPTH} levels)")
        if "quoted scalar" in context and "end of stream" in problem and cmark is not None:
            quote = self._char_at(cmark)
            return Diagnostic(
                self.loc(cmark),
                f"unclosed quoted string: no closing {quote} before the end of the file",
                f"add the closing {quote}",
            )
        if self._char_at(mark) == "\t" or "tab character" in problem:
            return Diagnostic(
                self.loc(mark),
                "tab character not allowed here: YAML indentation must use spaces",
                "replace the tab with spaces",
            )
        moved = self._before_trailing_space(mark)
        at_end = moved is not mark
        mark = moved
        if cmark is not None:
            cmark = self._before_trailing_space(cmark)
        message = problem
        if context:
            where = ""
            if cmark is not None and cmark.line != mark.line:
                where = f" that starts at line {cmark.line + 1}"
            message += f" ({context}{where})"
        if "mapping values are not allowed" in problem:
            hint = "quote a value that contains `: `; otherwise check the indentation"
        elif "flow sequence" in context or "flow mapping" in context:
            opener, closer = ("[", "]") if "sequence" in context else ("{", "}")
            hint = f"check that every `{opener}` is closed by a `{closer}`"
        elif "block mapping" in context or "block collection" in context or "indent" in problem:
            hint = "check the indentation of this line"
        elif at_end:
            hint = "the file ends too early: check that every `[`, `{` and quote is closed"
        return Diagnostic(self.loc(mark), message, hint)

    def _reader_error(self, exc: yaml.reader.ReaderError) -> Diagnostic:
        pos = int(exc.position)
        if _BYTE_OFFSETS:
            pos = len(self.text.encode("utf-8", "surrogatepass")[:pos].decode("utf-8", "ignore"))
        starts = _line_starts(self.text)
        line = bisect.bisect_right(starts, pos) - 1
        ch = self.text[pos] if pos < len(self.text) else ""
        what = f"U+{ord(ch):04X}" if ch else "character"
        return Diagnostic(
            Location(self.path, line + 1, pos - starts[line] + 1),
            f"invalid character {what}: control characters are not allowed in YAML",
            "remove it (or write it as an escape inside a double-quoted string)",
        )

    def _before_trailing_space(self, mark: _Mark) -> _Mark:
        """A mark in the blank end of the file moves to just after the last text, to show a line."""
        starts = _line_starts(self.text)
        if mark.line >= len(starts):
            i = len(self.text)
        else:
            i = starts[mark.line] + mark.column
        if self.text[i:].strip() or not self.text[:i].strip():
            return mark
        i = len(self.text[:i].rstrip())
        line = bisect.bisect_right(starts, i - 1) - 1
        # (With no buffer PyYAML's own marks have no pointer either; types-PyYAML requires an int.)
        return yaml.Mark(self.path, i, line, i - starts[line], None, None)  # type: ignore[arg-type]

    def _char_at(self, mark: _Mark) -> str:
        starts = _line_starts(self.text)
        if mark.line >= len(starts):
            return ""
        i = starts[mark.line] + mark.column
        return self.text[i : i + 1]


_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _line_starts(text: str) -> list[int]:
    """Character offset at which each line starts (YAML line breaks)."""
    return [0] + [m.end() for m in _LINE_BREAK.finditer(text)]


def _flow_positions(raw: str, style: str | None) -> list[int]:
    """For each character of a flow scalar's value, its index in ``raw`` (its source).

    Applies YAML line folding and, for quoted styles, the escapes.
    """
    out: list[int] = []
    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c in _BREAKS:
            while out and raw[out[-1]] in " \t":  # trailing blanks before a break vanish
                out.pop()
            at, breaks = i, 0
            while i < n and raw[i] in " \t" + _BREAKS:
                if raw[i] in _BREAKS and not (raw[i] == "\r" and raw[i + 1 : i + 2] == "\n"):
                    breaks += 1
                i += 1
            out.extend([at] * max(breaks - 1, 1))  # one break -> space; more -> newlines
        elif style == '"' and c == "\\":
            nxt = raw[i + 1 : i + 2]
            if nxt and nxt in _BREAKS:  # escaped line break: joins the lines
                i += 3 if raw[i + 1 : i + 3] == "\r\n" else 2
                while i < n and raw[i] in " \t":
                    i += 1
            else:
                out.append(i)
                i += {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
        else:
            out.append(i)
            i += 2 if style == "'" and c == "'" else 1
    return out


class Loaded:
    """A loaded YAML file: plain ``data`` plus the location of every node."""

    def __init__(self, path: str, text: str, data: Any, root: _Node | None) -> None:
        self.path = path
        self.text = text
        self.data = data
        self._root = root
        self._starts: list[int] | None = None

    def __repr__(self) -> str:
        return f"Loaded({self.path!r})"

    def locate(self, path: JsonPath = ()) -> Location:
        """Location of the value at ``path`` (or of its nearest existing ancestor)."""
        node = self._walk(tuple(path))[0]
        return self._loc(node) if node is not None else Location(self.path, 1, 1)

    def locate_key(self, path: JsonPath) -> Location:
        """Location of the mapping key naming the last component of ``path``."""
        _, _, key, ok = self._walk(tuple(path))
        return self._loc(key) if ok and key is not None else self.locate(path)

    def locate_in_string(self, path: JsonPath, offset: int) -> Location:
        """Location of character ``offset`` of the string value at ``path``.

        Exact for flow scalars (plain, quoted, escapes, folded lines) and for
        literal/folded block scalars; otherwise the start of the value plus
        ``offset``, kept on its first line.
        """
        node, parent, _, ok = self._walk(tuple(path))
        scalar = node.target if isinstance(node, _Alias) else node
        if not ok or type(scalar) is not tuple:
            return self.locate(path)
        _, _, end_line, end_col, style, value = scalar
        offset = max(0, offset)
        starts = self._line_starts()
        begin = self._content_start(scalar)
        if style in ("|", ">"):
            found = self._in_block(scalar, parent, begin, offset)
            if found is not None:
                return found
        else:
            end = starts[end_line] + end_col
            if style:  # quoted: step inside the quotes
                begin, end = begin + 1, end - 1
            positions = _flow_positions(self.text[begin:end], style)
            if len(positions) == len(value):
                return self._at(begin + (positions[offset] if offset < len(positions) else end - begin))
        line = bisect.bisect_right(starts, begin) - 1
        width = len(self._line(line))
        return Location(self.path, line + 1, min(begin - starts[line] + offset, width) + 1)

    # -- helpers -------------------------------------------------------------
    def _loc(self, node: _Node) -> Location:
        line, col = _pos(node)
        return Location(self.path, line + 1, col + 1)

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = _line_starts(self.text)
        return self._starts

    def _line(self, line: int) -> str:
        """Text of a 0-based line, without its line break."""
        starts = self._line_starts()
        if line >= len(starts):
            return ""
        end = starts[line + 1] if line + 1 < len(starts) else len(self.text)
        return self.text[starts[line] : end].rstrip(_BREAKS)

    def _at(self, index: int) -> Location:
        starts = self._line_starts()
        line = bisect.bisect_right(starts, index) - 1
        return Location(self.path, line + 1, index - starts[line] + 1)

    def _walk(self, path: JsonPath) -> tuple[_Node | None, _Node | None, _Node | None, bool]:
        """Follow ``path``: (deepest node reached, its parent, its key node, reached all)."""
        node: _Node | None = self._root
        parent: _Node | None = None
        key: _Node | None = None
        for comp in path:
            here = node.target if isinstance(node, _Alias) else node
            if isinstance(here, _Map) and isinstance(comp, str) and comp in here.entries:
                parent, (key, node) = here, here.entries[comp]
            elif isinstance(here, _Seq) and type(comp) is int and 0 <= comp < len(here.items):
                parent, key, node = here, None, here.items[comp]
            else:
                return node, parent, key, False
        return node, parent, key, True

    def _content_start(self, node: _Scalar) -> int:
        """Index of a scalar's first character (quote or block indicator), past any
        anchor or tag."""
        starts, text = self._line_starts(), self.text
        line, col, end_line, end_col, style, value = node
        i = starts[line] + col
        if not style and line == end_line:  # single-line plain: source == value
            return max(i, starts[end_line] + end_col - len(value))
        while text[i : i + 1] in ("&", "!"):
            while i < len(text) and text[i] not in " \t" + _BREAKS:
                i += 1
            while i < len(text) and text[i] in " \t" + _BREAKS:
                i += 1
        return i

    def _in_block(
        self, node: _Scalar, parent: _Node | None, header: int, offset: int
    ) -> Location | None:
        """Exact position inside a literal (``|``) or folded (``>``) block scalar."""
        text = self.text
        if text[header : header + 1] not in ("|", ">"):
            return None
        j, explicit = header + 1, 0
        while text[j : j + 1] and text[j] in "+-0123456789":
            explicit = int(text[j]) if text[j].isdigit() else explicit
            j += 1
        first = bisect.bisect_right(self._line_starts(), header)  # the line after the header
        style, value = node[4], node[5]
        lines = [self._line(k) for k in range(first, node[2] + 1)]
        if explicit:
            outer = parent.col if isinstance(parent, (_Map, _Seq)) else -1
            indent = max(outer + 1, 1) + explicit - 1
        else:
            nonblank = next((ln for ln in lines if ln.strip(" ")), None)
            if nonblank is None:
                return None
            indent = len(nonblank) - len(nonblank.lstrip(" "))
        # (line, value offset, content) for each text line, following YAML's folding rules
        rows: list[tuple[int, int, str]] = []
        pos, blanks, prev_plain = 0, 0, False
        for k, ln in enumerate(lines):
            if len(ln) <= indent and not ln.strip(" "):
                blanks += 1
                continue
            if ln[:indent].strip(" "):
                break  # less indented: the scalar has ended
            content = ln[indent:]
            plain = not content.startswith((" ", "\t"))
            if not rows:
                pos += blanks
            elif style == ">" and prev_plain and plain:
                pos += blanks or 1
            else:
                pos += 1 + blanks
            rows.append((first + k, pos, content))
            pos += len(content)
            blanks, prev_plain = 0, plain
        if not rows or any(value[v : v + len(c)] != c for _, v, c in rows):
            return None
        line, start, content = rows[0]
        for row in rows:
            if row[1] > offset:
                break
            line, start, content = row
        col = indent + min(max(offset - start, 0), len(content))
        return Location(self.path, line + 1, col + 1)


# Texts read in place of files while an `overlay` is active: resolved path -> text.
_OVERLAY: dict[str, str] = {}


@contextmanager
def overlay(texts: Mapping[str, str]) -> Iterator[None]:
    """Within the block, a file whose resolved path is a key of ``texts`` is read as that text,
    not from disk (a language server's unsaved editor buffers, so that a whole compile sees them).

    One compile at a time: the overlay is the module's, not the thread's."""
    saved = dict(_OVERLAY)
    _OVERLAY.clear()
    _OVERLAY.update({_resolved(p): text for p, text in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.clear()
        _OVERLAY.update(saved)


def overlaid(path: str | Path) -> bool:
    """Whether an active overlay holds a text for `path` (whatever the disk holds there)."""
    return bool(_OVERLAY) and _resolved(str(path)) in _OVERLAY


def overlaid_in(folder: str | Path) -> list[Path]:
    """The overlay's `.yaml` files in `folder` (an editor's new files are not on disk yet)."""
    where = _resolved(str(folder))
    return [Path(p) for p in _OVERLAY if os.path.dirname(p) == where and p.endswith(".yaml")]


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):  # (a symlink loop, a name too long): the path as given
        return str(path)


def _read(path: str, name: str) -> tuple[str | None, list[Diagnostic]]:
    """The text of a file (paths.read_bytes: never waits on a pipe), or why there is none. A byte
    that is not UTF-8 is kept as a surrogate (U+DC80 to U+DCFF) for `_not_text` to locate."""
    if _OVERLAY and (text := _OVERLAY.get(_resolved(path))) is not None:
        return text, []
    try:
        raw = read_bytes(path, name, MAX_FILE_BYTES)
    except PathProblem as err:
        return None, [unread(name, err.message, err.hint)]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError:
        return raw.decode("utf-8", "surrogateescape"), []


_NOT_TEXT = re.compile("[\ud800-\udfff]+")  # (a run of them is reported once)
_SURROGATE_ESCAPE = re.compile(r"\\(?:u[dD][89a-fA-F][0-9a-fA-F]{2}|U0000[dD][89a-fA-F][0-9a-fA-F]{2})")
_MAX_NOT_TEXT = 20


def _not_text(name: str, text: str) -> list[Diagnostic]:
    """Each byte that is not UTF-8 (and each lone surrogate an editor's buffer may hold), located at
    its line and column (characters before it on its line, as every column counts; the source line
    is shown with it escaped and the caret under it)."""
    found: list[Diagnostic] = []
    starts: list[int] | None = None
    for m in _NOT_TEXT.finditer(text):
        starts = starts or _line_starts(text)
        line = bisect.bisect_right(starts, m.start()) - 1
        at = Location(name, line + 1, m.start() - starts[line] + 1)
        if len(found) == _MAX_NOT_TEXT:
            found.append(Diagnostic(at, "more text that is not UTF-8 follows (not reported one by one)"))
            break
        code = ord(m.group()[0])
        if 0xDC80 <= code <= 0xDCFF:
            found.append(Diagnostic(at, f"byte 0x{code - 0xDC00:02x} is not valid UTF-8: the file must be UTF-8 text",
                                    "save the file with UTF-8 encoding"))
        else:
            found.append(Diagnostic(at, f"U+{code:04X} is a lone surrogate, not a character", "remove it"))
    return found


def load_yaml(path: str | Path, text: str | None = None, name: str | None = None) -> Loaded:
    """Load one YAML document safely; raise RulesError listing every problem found.

    ``name`` is the path that locations show (default: ``path``).
    """
    name = str(path) if name is None else name
    if text is None:
        text, problems = _read(str(path), name)
        if problems or text is None:
            raise RulesError(problems)
    text = text.removeprefix("\ufeff")
    register_source(name, text)
    if _NOT_TEXT.search(text):
        raise RulesError(_not_text(name, text))
    builder = _Builder(name, text)
    builder.run()
    if builder.diags:
        raise RulesError(builder.diags)
    return Loaded(name, text, builder.data, builder.root)
