"""What the language server reads, and what it says (the audit of issue 17 §6, findings on paths).

README, `nidavellir lsp`: "**Every request gets an answer** [...] A document that is neither open nor
a readable file gives an empty result, with the reason in the log"; README, Paths: "a pipe, socket
or device (never opened: nothing waits on it)", judged "the same way by every command
(`compiler/paths.py`)". So every file the server reads — a document a request names, the other
files of a rule set it classifies, the files it compiles — goes through the one path judge and is
read to a bounded size; a request on a FIFO, `/dev/zero` or `/dev/urandom` is answered at once
(the audit: no answer, and ~1 GB/s of memory on /dev/zero).

README: diagnostics "are worked out from the text in the editor, including changes you have not
saved": an open document's text is the truth whatever the disk holds (nothing, a pipe, other text).

README: "Each of these is logged as a warning [...] stderr gets one line for each warning, never a
traceback": a warning or error goes to the client's log and, as one line, to stderr.

A number in a message whose numeral is longer than any number read from outside is refused in the
words of the bounded number parser (nidavellir/interface/numbers.py), not "nested too deeply".

Over stdio with the scripted client (tests/lsp_client.py): every wait is bounded, and the server's
address space is capped, so a server that reads a device fails its test instead of the machine.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsp_client import LspClient, serving
from test_user_paths import MAKE, READ_REASONS, watchdog

from nidavellir.compiler.paths import MAX_FILE_BYTES, NOT_REGULAR, too_large

PARSE_ERROR, INVALID_PARAMS = -32700, -32602
WAIT = 30.0
MEMORY = 2 * 2 ** 30   # the server's address space: far above what it needs, far below a device read whole
VARIANT = ('layer: {id: house, name: House}\ncards:\n  - id: grid\n    points: 8\n'
           '    effects: ["when recruited: transform chosen coin by 7"]\n')
BROKEN = 'layer: {id: unsaved, name: U}\ncards:\n  - {id: skaa, effects: ["score 1 + $"]}\n'
DSL_ERROR = "unexpected character `$` in effect"


def at(uri: str, line: int = 0, character: int = 0) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def no_traceback(client: LspClient) -> None:
    assert b"Traceback" not in client.stderr, client.stderr.decode()


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LspClient, str, Path]]:
    """One server, memory capped, with a variant open and checked."""
    root = tmp_path_factory.mktemp("paths")
    path = root / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    with serving(root, path, MEMORY) as (c, uri):
        yield c, uri, root


def _large(folder: Path) -> str:
    path = folder / "large.yaml"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # (sparse: nothing is written)
    return str(path)


def _not_text(folder: Path) -> str:
    (folder / "latin1.yaml").write_bytes(b"layer: {id: caf\xe9, name: x}\n")
    return str(folder / "latin1.yaml")


# each thing a not-open document may be, made in a folder of its own; and the words of the reason
CASES: dict[str, tuple[Any, str]] = {
    **{case: (lambda folder, case=case: MAKE[case](folder, VARIANT, False), READ_REASONS[case])
       for case in ("a folder", "missing", "a part of the path is a file", "a broken symbolic link", "a pipe",
                    "a device")},
    "/dev/zero": (lambda folder: "/dev/zero", NOT_REGULAR),
    "/dev/urandom": (lambda folder: "/dev/urandom", NOT_REGULAR),
    "/dev/stdin (the server's own input)": (lambda folder: "/dev/stdin", NOT_REGULAR),
    "too large": (_large, too_large(MAX_FILE_BYTES + 1, MAX_FILE_BYTES)),
    "not UTF-8": (_not_text, "not UTF-8 text (byte 0xe9 at 15)"),
}


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_request_on_a_file_that_cannot_be_read_is_answered_at_once(session, tmp_path, method, case):
    """Each thing a request may name that is no readable file: an empty result (null), the reason in
    the log in the path judge's words, and the next request answered; the server never opens a
    pipe or device and never reads more than its bound."""
    client, uri, _ = session
    make, reason = CASES[case]
    path = make(tmp_path)
    target = Path(path).as_uri() if path.startswith("/") else path
    answer = client.call(method, at(target), timeout=WAIT)
    assert answer.get("result", "no result") is None, answer
    logged = client.wait_for("window/logMessage", lambda p: target in p["message"], timeout=WAIT)
    assert logged["message"].endswith(f"{target} is not open and cannot be read ({reason})"), logged
    assert "result" in client.call("textDocument/hover", at(uri, 4, 5), timeout=WAIT)
    assert client.proc.poll() is None
    no_traceback(client)


def test_the_files_beside_a_rules_file_are_judged_too(tmp_path):
    """A rules folder whose `.yaml` entries include a pipe and a link to /dev/zero: the server
    classifies the open file and checks the folder as `check FOLDER` does (each odd entry on its
    own file, in the judge's words: `cannot read PATH: …`), answers hover and completion, and never waits on either."""
    folder = tmp_path / "layer"
    folder.mkdir()
    (folder / "about.yaml").write_text("layer: {id: mine, name: Mine}\n", encoding="utf-8")
    cards = folder / "cards.yaml"
    cards.write_text("cards:\n  - {id: skaa, points: 20}\n", encoding="utf-8")
    os.mkfifo(folder / "pipe.yaml")
    os.symlink("/dev/zero", folder / "zero.yaml")
    c = LspClient(cwd=tmp_path, memory=MEMORY)
    try:
        c.initialize(tmp_path)
        c.open(cards)
        for odd in ("pipe.yaml", "zero.yaml"):  # (a link's diagnostics go to the file it names, as they all do)
            found = c.diagnostics((folder / odd).resolve().as_uri(), lambda ds: len(ds) > 0, timeout=120)
            (message,) = [d["message"] for d in found]
            assert message.startswith("cannot read ") and message.endswith(f"{odd}: {NOT_REGULAR}"), found
        assert "result" in c.call("textDocument/hover", at(cards.as_uri(), 1, 10), timeout=WAIT)
        assert "result" in c.call("textDocument/completion", at(cards.as_uri(), 1, 10), timeout=WAIT)
        assert c.close() == 0
        no_traceback(c)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


@pytest.mark.parametrize("case", [c for c in CASES if not c.startswith("/dev/stdin")])
def test_the_server_reads_a_file_through_the_path_judge(tmp_path, case):
    """`disk_text`, what the server reads a file with: for each case, no text and the judge's
    reason, at once (a pipe or device is never opened; a file over the bound is not read)."""
    from nidavellir.lsp.server import disk_text

    make, reason = CASES[case]
    with watchdog(30):
        assert disk_text(Path(make(tmp_path))) == (None, reason)
    (tmp_path / "ok.yaml").write_text(VARIANT, encoding="utf-8")
    assert disk_text(tmp_path / "ok.yaml") == (VARIANT, "")


# -- an open document's text is the truth -------------------------------------------------------

def _on_disk(folder: Path) -> Path:
    path = folder / "ondisk.yaml"
    path.write_text(VARIANT, encoding="utf-8")  # (fine on disk; the editor's text is broken)
    return path


def _pipe(folder: Path) -> Path:
    os.mkfifo(folder / "piped.yaml")
    return folder / "piped.yaml"


def _new_in_layer(folder: Path) -> Path:
    layer = folder / "layer"
    layer.mkdir()
    (layer / "about.yaml").write_text("layer: {id: mine, name: Mine}\n", encoding="utf-8")
    return layer / "more.yaml"  # (not on disk: a new file of the layer, not saved)


@pytest.mark.parametrize("make, text", [
    (lambda folder: folder / "new.yaml", BROKEN),
    (lambda folder: folder / "nested" / "deeper" / "new.yaml", BROKEN),
    (_on_disk, BROKEN),
    (_pipe, BROKEN),
    (_new_in_layer, 'cards:\n  - {id: skaa, effects: ["score 1 + $"]}\n'),
], ids=["a new file", "a new file in folders not made yet", "on disk, changed", "a pipe on disk",
        "a new file of a layer folder"])
def test_an_open_document_is_checked_from_its_text_whatever_the_disk_holds(tmp_path, make, text):
    """The audit: a new document not on disk got "no such file or folder". Now its diagnostics are
    those of its text (here a DSL error at its place), whether the disk holds nothing there, other
    text, or a pipe (never opened)."""
    path = make(tmp_path)
    c = LspClient(cwd=tmp_path, memory=MEMORY)
    try:
        c.initialize(tmp_path)
        uri = c.open(path, text)
        found = c.diagnostics(uri, lambda ds: len(ds) > 0, timeout=120)
        assert len(found) == 1 and found[0]["message"].startswith(DSL_ERROR), found
        line = text.splitlines().index(next(x for x in text.splitlines() if "$" in x))
        assert found[0]["range"]["start"] == {"line": line, "character": text.splitlines()[line].index("$")}
        c.change(uri, text.replace("1 + $", "1 + 2"))
        assert c.diagnostics(uri, lambda ds: ds == [], timeout=120) == []
        assert c.close() == 0
        no_traceback(c)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


# -- what is logged goes to stderr as one line -----------------------------------------------------

def test_a_framing_warning_is_in_the_log_and_one_line_on_stderr(session):
    """"Each of these is logged as a warning [...] stderr gets one line for each warning": the
    warning of bytes skipped before a header is in window/logMessage (type 2) and, the same words
    on one line, on stderr."""
    client, uri, _ = session
    body = json.dumps({"jsonrpc": "2.0", "id": 7001, "method": "textDocument/completion",
                       "params": at(uri)}).encode()
    client.send_raw(b"junk that is no header\r\n" + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert "result" in client.response(7001, "completion", timeout=WAIT)
    logged = client.wait_for("window/logMessage", lambda p: "framing: skipped" in p["message"], timeout=WAIT)
    assert logged["type"] == 2 and "\n" not in logged["message"]
    lines = _stderr_lines(client, logged["message"])
    assert lines == [logged["message"]], client.stderr.decode()


def _stderr_lines(client: LspClient, text: str) -> list[str]:
    """The lines of the server's stderr holding `text` (waiting, bounded, for the line to come)."""
    import time

    deadline = time.monotonic() + WAIT
    while True:
        lines = [line for line in client.stderr.decode().splitlines() if text in line]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def test_a_logged_error_with_a_traceback_is_one_line_on_stderr(capsys):
    """A handler's failure goes to the client's log with its traceback, and to stderr as one line:
    what failed and the exception it ended with, never the traceback."""
    from lsprotocol import types as lsp

    from nidavellir.lsp.server import build, one_line

    message = ("nidavellir lsp: hover failed:\nTraceback (most recent call last):\n  File \"x.py\", line 1, in f\n"
               "    raise KeyError('a fault')\nKeyError: 'a fault'\n")
    assert one_line(message) == "nidavellir lsp: hover failed: KeyError: 'a fault'"
    sent = bytearray()

    class Writer:
        def write(self, data: bytes) -> None:
            sent.extend(data)

        def close(self) -> None:
            pass

    server = build()
    server.protocol.set_writer(Writer())
    server.log(message, lsp.MessageType.Error)
    server.log("nidavellir lsp: just a note", lsp.MessageType.Log)
    server.log("nidavellir lsp: framing: skipped 3 bytes that were not a message", lsp.MessageType.Warning)
    assert capsys.readouterr().err.splitlines() == [
        "nidavellir lsp: hover failed: KeyError: 'a fault'",
        "nidavellir lsp: framing: skipped 3 bytes that were not a message"]
    assert sent.count(b"window/logMessage") == 3 and b"Traceback" in sent  # (the client's log has it all)


# -- numbers in a message ------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["id", "line", "processId"])
def test_a_numeral_too_long_for_any_number_is_refused_in_the_parser_s_words(session, where):
    """A 5,000-digit number anywhere in a message: -32700 with id null, in the bounded number
    parser's words ("is too long a number (5000 characters; at most 40)"), not "nested too
    deeply"; the next request is answered."""
    client, uri, _ = session
    digits = "9" * 5000
    message = {"jsonrpc": "2.0", "id": 7100, "method": "textDocument/hover", "params": at(uri)}
    text = json.dumps(message)
    if where == "id":
        text = text.replace('"id": 7100', f'"id": {digits}')
    elif where == "line":
        text = text.replace('"line": 0', f'"line": {digits}')
    else:
        text = text.replace('"params": {', f'"params": {{"processId": -{digits}, ', 1)
    body = text.encode()
    client.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    answer = client.response(None, "a parse error", timeout=WAIT)
    assert answer["error"]["code"] == PARSE_ERROR and answer["id"] is None, answer
    assert "is too long a number (500" in answer["error"]["message"] and "at most 40)" in answer["error"]["message"]
    assert "nested" not in answer["error"]["message"]
    assert "result" in client.call("textDocument/completion", at(uri), timeout=WAIT)
    no_traceback(client)


def test_a_long_number_that_is_a_number_is_still_invalid_params(session):
    """A numeral within the bound (31 digits) is read as a number: a position out of LSP's range is
    -32602 naming the field, as before."""
    client, uri, _ = session
    answer = client.call("textDocument/hover", at(uri, 10 ** 30), timeout=WAIT)
    assert answer["error"]["code"] == INVALID_PARAMS and "Position.line should be in range" in answer["error"]["message"]
