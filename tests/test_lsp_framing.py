"""The language server's reader of LSP's base protocol (nidavellir/lsp/framing.py), without a server.

Issue 17 §6: "A wrong `Content-Length` should not wedge the stream for good: recover at the next
header if the framing allows, else exit with a logged reason." LSP's base protocol: "The header
part consists of header fields [...] `Content-Length` [...] The length of the content part in
bytes. This header is required." and "The content part is encoded using the charset provided in
the Content-Type field. It defaults to utf-8". JSON-RPC 2.0: "Parse error: Invalid JSON was
received by the server."

The streams here hand out their bytes in the chunks given and fail the test if the reader asks
for more than there is: a reader that would wait for bytes belonging to the next message fails
instead of hanging.
"""
from __future__ import annotations

import json

import pytest

from nidavellir.lsp.framing import FramingError, Message, MessageReader


class Chunks:
    """A stream that hands out `chunks` one read at a time; asked for more, it fails the test
    (`then_end`: it ends there instead, as a closed pipe does)."""

    def __init__(self, *chunks: bytes, then_end: bool = False) -> None:
        self.chunks = list(chunks)
        self.then_end = then_end
        self.reads = 0

    def read1(self, size: int = -1, /) -> bytes:
        self.reads += 1
        if not self.chunks:
            if self.then_end:
                return b""
            raise AssertionError("the reader waited for bytes that nobody sends")
        chunk = self.chunks.pop(0)
        if 0 <= size < len(chunk):
            self.chunks.insert(0, chunk[size:])
            chunk = chunk[:size]
        return chunk


def body(rid: int, **more: object) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "textDocument/hover", **more}, ensure_ascii=False).encode()


def framed(b: bytes, length: int | None = None, header: bytes | None = None) -> bytes:
    head = header if header is not None else b"Content-Length: %d\r\n" % (len(b) if length is None else length)
    return head + b"\r\n" + b


def read_all(stream: Chunks, limit: int | None = None) -> list[Message]:
    reader = MessageReader(stream) if limit is None else MessageReader(stream, limit)
    out: list[Message] = []
    while (m := reader.next()) is not None:
        out.append(m)
    return out


def ids(messages: list[Message]) -> list[object]:
    return [m.value["id"] if m.error is None else "parse error" for m in messages]


def test_well_framed_messages_in_any_chunks() -> None:
    """"Content-Length [...] The length of the content part in bytes" (so a non-ASCII body counts
    bytes), with `Content-Type` before or after it; read whole however the pipe splits them, even
    a byte at a time, with no problem reported."""
    text = 'Молат 😀 "quoted" {braces} [and] \\ back'
    stream = (framed(body(1)) + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
              + framed(body(2, text=text))
              + framed(body(3), header=b"Content-Length: %d\r\nContent-Type: x\r\n" % len(body(3))))
    for chunks in ([stream], [stream[i:i + 1] for i in range(len(stream))], [stream[:7], stream[7:40], stream[40:]]):
        got = read_all(Chunks(*chunks, then_end=True))
        assert ids(got) == [1, 2, 3]
        assert got[1].value["text"] == text
        assert all(not m.problems for m in got)


def test_a_length_too_small_is_a_parse_error_then_the_next_message_is_read() -> None:
    """Too small: the body is cut (not JSON: a parse error) and the rest of it is garbage before
    the next header, skipped up to it (and said)."""
    first, second = body(1), body(2)
    got = read_all(Chunks(framed(first, len(first) - 10) + framed(second), then_end=True))
    assert ids(got) == ["parse error", 2]
    assert got[0].error is not None and got[0].error.startswith("the message is not JSON")
    assert got[1].problems == ["skipped 10 bytes that were not a message"]


def test_a_length_too_large_stops_at_the_next_message() -> None:
    """Too large, the next message already sent: the body ends where its JSON value ends (the
    declared length overruns into the next header); both messages are read."""
    first, second = body(1), body(2)
    got = read_all(Chunks(framed(first, len(first) + 40) + framed(second), then_end=True))
    assert ids(got) == [1, 2]
    assert got[0].problems == [f"Content-Length {len(first) + 40} runs past the end of the message (byte"
                               f" {len(first)}): read up to there"]
    assert not got[1].problems


def test_a_length_too_large_does_not_wait_for_bytes_that_never_come() -> None:
    """Too large and nothing follows (the client waits for the answer): the message is read as
    soon as its JSON value is whole; the reader never asks for the missing bytes."""
    first = body(1)
    reader = MessageReader(Chunks(framed(first, len(first) + 1000)))
    m = reader.next()
    assert m is not None and m.value["id"] == 1 and m.problems


@pytest.mark.parametrize("header, said", [
    (b"Content-Length: twelve\r\n", "Content-Length `twelve` is not a byte count"),
    (b"Content-Length: -5\r\n", "Content-Length `-5` is not a byte count"),
    (b"Content-Length:\r\n", "Content-Length `` is not a byte count"),
    (b"Content-Type: application/vscode-jsonrpc\r\n", "a message without Content-Length"),
])
def test_an_unusable_length_reads_the_json_value_that_follows(header: bytes, said: str) -> None:
    """Not a number, negative, empty or missing: the body is the JSON value that follows (up to
    the next header, never waiting for more), said in the problems; the next message is read."""
    got = read_all(Chunks(framed(body(1), header=header) + framed(body(2)), then_end=True))
    assert ids(got) == [1, 2]
    assert got[0].problems[0].startswith(said)
    alone = MessageReader(Chunks(framed(body(3), header=header))).next()
    assert alone is not None and alone.value["id"] == 3


def test_a_length_over_the_limit_is_refused_unread() -> None:
    """"A Content-Length beyond a bound (e.g. 64 MiB) is refused without reading it": the stream
    cannot be read on (FramingError, worded), and the body's bytes are never asked for."""
    stream = Chunks(b"Content-Length: 67108865\r\n\r\n", b"x" * 1000)
    with pytest.raises(FramingError, match="Content-Length 67108865 is over the limit of 67108864 bytes"):
        MessageReader(stream).next()
    assert stream.chunks == [b"x" * 1000]
    with pytest.raises(FramingError, match="over the limit"):
        MessageReader(Chunks(b"Content-Length: " + b"9" * 400 + b"\r\n\r\n")).next()


def test_without_a_length_a_body_over_the_limit_is_refused() -> None:
    """Without a usable length, a JSON value that does not end within the bound is refused (never
    held past it)."""
    stream = Chunks(b"Content-Length: x\r\n\r\n{\"a\": \"" + b"y" * 100, b"y" * 100, b"y" * 100)
    with pytest.raises(FramingError, match="ran past 150 bytes"):
        MessageReader(stream, limit=150).next()


@pytest.mark.parametrize("raw, said", [
    (b"hello, server", "the message is not JSON"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": {"t": "\xff\xfe"}}', "the message is not UTF-8"),
    (b"", "the message is not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "the message is not JSON"),
])
def test_a_body_that_is_no_json_is_a_parse_error_and_the_stream_goes_on(raw: bytes, said: str) -> None:
    """JSON-RPC's "Parse error: Invalid JSON was received by the server", for a body that is no
    JSON, is not UTF-8 (LSP's charset), is empty, or nests too deep; the next message is read."""
    got = read_all(Chunks(framed(raw) + framed(body(2)), then_end=True))
    assert ids(got) == ["parse error", 2]
    assert got[0].error is not None and got[0].error.startswith(said)


def test_garbage_between_messages_is_skipped_and_said() -> None:
    """Bytes that are no header before a message (with or without line breaks, even containing
    a header's name in the middle) are skipped up to the next `Content-Length:`."""
    got = read_all(Chunks(b"noise\r\nmore noise" + framed(body(1)) + b"\r\n\r\n" + b"z" * 5000 + framed(body(2)),
                          then_end=True))
    assert ids(got) == [1, 2]
    assert got[0].problems == ["skipped 17 bytes that were not a message"]
    assert got[1].problems == ["skipped 5000 bytes that were not a message"]


def test_a_header_inside_a_json_string_is_no_header() -> None:
    """A document's text may hold "Content-Length: 12" and line breaks (escaped in JSON): a
    message holding them is read whole, with a declared length or without one."""
    text = "Content-Length: 12\r\n\r\n{\"id\": 9}\nContent-Length: 3\n"
    first = body(1, text=text)
    for header in (None, b"Content-Length: nope\r\n"):
        got = read_all(Chunks(framed(first, header=header) + framed(body(2)), then_end=True))
        assert ids(got) == [1, 2] and got[0].value["text"] == text


def test_without_a_length_a_body_that_is_no_object_is_skipped() -> None:
    """Without a usable length, a body that does not start a JSON object or array has no end to
    find: skipped to the next header, a parse error."""
    got = read_all(Chunks(framed(b"not json at all", header=b"Content-Length: ?\r\n") + framed(body(2)),
                          then_end=True))
    assert ids(got) == ["parse error", 2]


def test_the_end_of_the_stream() -> None:
    """The stream ending between messages is the end (None); inside a header or a body it cannot
    be read on (FramingError, worded)."""
    assert MessageReader(Chunks(framed(body(1)) + b"\r\n", then_end=True)).next() is not None
    reader = MessageReader(Chunks(framed(body(1)) + b"\r\n", then_end=True))
    reader.next()
    assert reader.next() is None
    with pytest.raises(FramingError, match=r"the stream ended inside a message \(10 of 50 bytes\)"):
        MessageReader(Chunks(b"Content-Length: 50\r\n\r\n" + b'{"a": "bcd', then_end=True)).next()
    with pytest.raises(FramingError, match="the stream ended inside a message's header"):
        MessageReader(Chunks(b"Content-Length: 50\r\n", then_end=True)).next()


def test_a_zero_length_is_a_parse_error() -> None:
    """`Content-Length: 0`: an empty body, no JSON."""
    got = read_all(Chunks(framed(b"") + framed(body(2)), then_end=True))
    assert ids(got) == ["parse error", 2]
