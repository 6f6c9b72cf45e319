"""Reading LSP's base protocol: `Content-Length` framed JSON messages from a byte stream.

A message is a header block (`Name: value` lines, then an empty line) and a body of
`Content-Length` bytes. A client that gets the framing wrong must not wedge the stream, so the
reader resynchronises where the bytes allow it:

- bytes before a header that are no header (the rest of a body cut short) are skipped up to
  the next `Content-Length:`;
- a body is taken up to its declared length, but it ends earlier where the JSON value it holds
  ends or where the next header starts (a declared length that overruns into the next message);
  so a missing, negative or non-numeric length reads the JSON value that follows, and a length
  too large never waits for bytes that belong to the next message;
- a body cut short (not JSON) or not UTF-8 comes back as a broken message: JSON-RPC's parse error;
  so does a number whose numeral is longer than any number read from outside may be (the bounded
  parser's MAX_TEXT characters; said in its words), which Python could not even convert.

A `Content-Length` over `LIMIT`, or a body without a usable length that runs past it, cannot be
read on safely: `FramingError`, never read into memory.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from nidavellir.interface.numbers import MAX_TEXT, NumberError, parse_float, parse_int

LIMIT = 64 * 2**20   # the largest body read (bytes)
CHUNK = 2**16

# the start of a header, wherever it is (resynchronising); a whole length header, which no JSON
# text can hold outside a string and no JSON string can hold raw (a body that overran into it)
_HEADER_AT = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_HEADER_IN_BODY = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r?\n", re.IGNORECASE)
_FIELD = re.compile(rb"[ \t]*([A-Za-z0-9-]+)[ \t]*:[ \t]*(.*?)[ \t]*\r?\n\Z", re.DOTALL)
_STRUCTURE = re.compile(rb'["{}\[\]]')
_STRING_BODY = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)  # up to a closing quote
_BLANK = re.compile(rb"[ \t\r\n]*")
_KEEP = 64  # bytes of unmatched garbage kept, in case a header starts across two reads


class Stream(Protocol):
    def read1(self, size: int = ..., /) -> bytes: ...


class FramingError(Exception):
    """The stream cannot be read on: the reason, worded."""


@dataclass
class Message:
    """One message read: its JSON `value`, or the `error` that makes it a parse error; `problems`
    with its framing that were recovered from (each worded, for the log)."""
    value: Any = None
    error: str | None = None
    problems: list[str] = field(default_factory=list)


class _Scan:
    """Where a JSON object or array that starts a body ends, found incrementally (linear: a
    string is skipped by one regular expression, resumed where a read cut it)."""

    def __init__(self) -> None:
        self.pos = 0
        self.depth = 0
        self.started = False
        self.in_string = False
        self.end: int | None = None
        self.hopeless = False   # the body does not start with `{` or `[`

    def feed(self, buf: bytearray, upto: int) -> None:
        if not self.started:
            m = _BLANK.match(buf, 0, upto)
            self.pos = m.end() if m else 0
            if self.pos == upto:
                return  # only whitespace so far
            self.started = True
            self.hopeless = buf[self.pos] not in b"{["
        while self.end is None and not self.hopeless and self.pos < upto:
            if self.in_string:
                m = _STRING_BODY.match(buf, self.pos, upto)
                self.pos = m.end() if m else self.pos
                if self.pos >= upto or buf[self.pos] != ord('"'):
                    return  # cut inside the string (or before an escape's second byte): resumed later
                self.in_string, self.pos = False, self.pos + 1
                continue
            m = _STRUCTURE.search(buf, self.pos, upto)
            if m is None:
                self.pos = upto
                return
            ch, self.pos = buf[m.start()], m.end()
            if ch == ord('"'):
                self.in_string = True
            elif ch in b"{[":
                self.depth += 1
            else:
                self.depth -= 1
                if self.depth == 0:
                    self.end = self.pos


class MessageReader:
    """Reads messages from `stream` (anything with `read1`, such as `sys.stdin.buffer`)."""

    def __init__(self, stream: Stream, limit: int = LIMIT) -> None:
        self.stream = stream
        self.limit = limit
        self.buf = bytearray()
        self.ended = False

    def _fill(self) -> bool:
        if self.ended:
            return False
        chunk = self.stream.read1(CHUNK)
        if not chunk:
            self.ended = True
            return False
        self.buf += chunk
        return True

    def next(self) -> Message | None:
        """The next message; None at the end of the stream (`FramingError`: it cannot be read on)."""
        problems: list[str] = []
        length = self._headers(problems)
        if length is False:
            return None
        if length is not None and len(self.buf) >= length:  # the usual case: a whole message at hand
            message = decode(bytes(self.buf[:length]))
            if message.error is None:
                del self.buf[:length]
                message.problems = problems
                return message
        body = self._body(length, problems)
        if body is None:
            return None
        message = decode(body)
        message.problems = problems + message.problems
        return message

    # -- headers ----------------------------------------------------------------------------
    def _headers(self, problems: list[str]) -> int | None | bool:
        """The declared length (None: missing or unusable; False: the stream ended)."""
        length: int | None = None
        seen = usable = False
        skipped = 0
        while True:
            if not seen:  # blank lines (or padding) between messages are no problem
                m = _BLANK.match(self.buf)
                if m is not None and m.end():
                    del self.buf[:m.end()]
            nl = self.buf.find(b"\n")
            if nl < 0:
                m = _HEADER_AT.search(self.buf)
                if m is not None and m.start() > 0:
                    skipped += m.start()
                    del self.buf[:m.start()]
                elif m is None and len(self.buf) > _KEEP:
                    skipped += len(self.buf) - _KEEP
                    del self.buf[:-_KEEP]
                if not self._fill():
                    if seen or self.buf.strip() or skipped:
                        problems.append("the stream ended inside a message's header")
                        raise FramingError("; ".join(problems))
                    return False
                continue
            line = bytes(self.buf[:nl + 1])
            if not line.strip():
                del self.buf[:nl + 1]
                break  # (seen: leading blank lines went above)
            m = _HEADER_AT.search(line)
            if m is not None and m.start() > 0:
                skipped += m.start()
                del self.buf[:m.start()]
                continue
            del self.buf[:nl + 1]
            header = _FIELD.match(line)
            if header is None:
                skipped += len(line)
                continue
            if skipped:
                problems.append(f"skipped {skipped} bytes that were not a message")
                skipped = 0
            seen = True
            if header.group(1).lower() != b"content-length":
                continue  # Content-Type, or a header of no use here
            value = header.group(2)
            usable = bool(re.fullmatch(rb"[0-9]+", value))
            if usable and (len(value) > 19 or int(value) > self.limit):
                raise FramingError(f"Content-Length {value[:40].decode('ascii')} is over the limit of {self.limit}"
                                   " bytes: the message is refused unread")
            length = int(value) if usable else None
            if not usable:
                shown = value[:40].decode("utf-8", "replace")
                problems.append(f"Content-Length `{shown}` is not a byte count: the JSON value that follows"
                                " is read")
        if skipped:
            problems.append(f"skipped {skipped} bytes that were not a message")
        if length is None and not usable and not any(p.startswith("Content-Length") for p in problems):
            problems.append("a message without Content-Length: the JSON value that follows is read")
        return length

    # -- the body ---------------------------------------------------------------------------
    def _body(self, length: int | None, problems: list[str]) -> bytes | None:
        """The body's bytes: up to the declared length, the end of its JSON value or the next
        header, whichever comes first (None: the stream ended between messages)."""
        scan = _Scan()
        searched = 0
        while True:
            have = len(self.buf) if length is None else min(len(self.buf), length)
            scan.feed(self.buf, have)
            cut = _HEADER_IN_BODY.search(self.buf, max(0, searched - _KEEP), have)
            searched = have
            ends = [e for e in (scan.end, cut.start() if cut else None) if e is not None]
            if ends:
                end = min(ends)
                if length is not None and len(self.buf) >= length and not self.buf[end:length].strip():
                    return self._take(length)  # (blank padding up to the declared length)
                if length is not None:
                    problems.append(f"Content-Length {length} runs past the end of the message (byte {end}):"
                                    " read up to there")
                return self._take(end)
            if length is not None and len(self.buf) >= length:
                return self._take(length)
            if length is None and scan.hopeless:
                problems.append("a message without a usable Content-Length that is not a JSON object: skipped")
                self._skip_to_header()
                return b""
            if length is None and len(self.buf) > self.limit:
                raise FramingError(f"a message without a usable Content-Length ran past {self.limit} bytes")
            if not self._fill():
                if self.buf.strip():
                    got = f"{len(self.buf)} of {length}" if length is not None else f"{len(self.buf)}"
                    raise FramingError(f"the stream ended inside a message ({got} bytes)")
                return None

    def _take(self, n: int) -> bytes:
        body = bytes(self.buf[:n])
        del self.buf[:n]
        return body

    def _skip_to_header(self) -> None:
        while (m := _HEADER_AT.search(self.buf)) is None:
            del self.buf[:-_KEEP]
            if not self._fill():
                self.buf.clear()
                return
        del self.buf[:m.start()]


def decode(body: bytes) -> Message:
    """A body's JSON value, or why it is no JSON-RPC message (a parse error)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return Message(error=f"the message is not UTF-8 (byte {body[e.start]:#04x} at {e.start})")
    try:
        return Message(json.loads(text, parse_int=_integer, parse_float=_number))
    except json.JSONDecodeError as e:
        return Message(error=f"the message is not JSON: {e}")
    except NumberError as e:
        return Message(error=f"the message is not JSON-RPC's: {e.message}")
    except RecursionError:
        return Message(error="the message is not JSON: nested too deeply")
    except ValueError as e:  # (none is known: the numbers are bounded first)
        return Message(error=f"the message is not JSON: {e}")


def _integer(text: str) -> int:
    """A JSON integer; one whose numeral is longer than the bounded parser reads anywhere
    (nidavellir/interface/numbers.py) is refused in its words. Shorter ones are taken whole, so a
    position out of LSP's range (10^30) is invalid params naming its field, not a parse error."""
    return parse_int(text) if len(text) > MAX_TEXT else int(text)


def _number(text: str) -> float:
    return parse_float(text) if len(text) > MAX_TEXT else float(text)
