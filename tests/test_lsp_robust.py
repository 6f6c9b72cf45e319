"""The language server answers every request (issue 17 §6): "A hover at a negative or huge position
gets no response at all (a client waits forever): every request gets a result or a JSON-RPC error.
A wrong `Content-Length` should not wedge the stream for good: recover at the next header if the
framing allows, else exit with a logged reason."

What the answers are, from JSON-RPC 2.0: "-32700 Parse error: Invalid JSON was received by the
server", "-32600 Invalid Request: The JSON sent is not a valid Request object", "-32601 Method not
found", "-32602 Invalid params", "-32603 Internal error", and "If there was an error in detecting
the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null"; from LSP:
"If the server receives a request or notification before the initialize request it should act as
follows: For a request the response should be an error with code: -32002. [...] Notifications
should be dropped, except for the exit notification", and "If a server receives requests after a
shutdown request those requests should error with InvalidRequest."

Over stdio with the scripted client (tests/lsp_client.py): every wait is bounded, so a request
left unanswered fails its test on a timeout instead of hanging it.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsp_client import LspClient, serving

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
NOT_INITIALIZED = -32002
WAIT = 30.0
VARIANT = ('layer: {id: house, name: House}\ncards:\n  - id: grid\n    points: 8\n'
           '    effects: ["when recruited: transform chosen coin by 7"]\n')


def no_traceback(client: LspClient) -> None:
    """"the server process never leaves a traceback on stderr (a logged, worded reason instead)"."""
    assert b"Traceback" not in client.stderr, client.stderr.decode()


def frame(message: Any) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def ended(client: LspClient) -> int:
    """The exit code of a server that should stop on its own (TimeoutError if it does not)."""
    import subprocess

    try:
        return client.proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        raise TimeoutError(f"the server did not stop; stderr:\n{client.stderr.decode()}") from None


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LspClient, str, Path]]:
    """One server for the table: a variant open (and checked, so hover has its rules), a rules
    file on disk that is not open."""
    root = tmp_path_factory.mktemp("robust")
    (root / "plain.yaml").write_text(VARIANT.replace("house", "plain"), encoding="utf-8")
    path = root / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    with serving(root, path) as (c, uri):
        yield c, uri, root


def at(uri: str, line: Any = 0, character: Any = 0) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


POSITIONS: list[tuple[str, Any, int | str]] = [
    ("negative line", {"line": -1, "character": 0}, INVALID_PARAMS),
    ("negative character", {"line": 0, "character": -1}, INVALID_PARAMS),
    ("line past 2**31-1", {"line": 2**31, "character": 0}, INVALID_PARAMS),
    ("huge line", {"line": 2**40, "character": 0}, INVALID_PARAMS),
    ("huge character", {"line": 0, "character": 10**30}, INVALID_PARAMS),
    ("fractional line", {"line": 1.5, "character": 0}, INVALID_PARAMS),
    ("line as a string", {"line": "1", "character": 0}, INVALID_PARAMS),
    ("line as a boolean", {"line": True, "character": 0}, INVALID_PARAMS),
    ("line null", {"line": None, "character": 0}, INVALID_PARAMS),
    ("character missing", {"line": 0}, INVALID_PARAMS),
    ("position an array", [0, 0], INVALID_PARAMS),
    ("past the end of the document", {"line": 10**6, "character": 0}, "result"),
    ("past the end of a line", {"line": 0, "character": 2**31 - 1}, "result"),
    ("the largest position", {"line": 2**31 - 1, "character": 2**31 - 1}, "result"),
    ("inside the document", {"line": 2, "character": 9}, "result"),
]


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion"])
@pytest.mark.parametrize("case, position, expect", POSITIONS, ids=[p[0] for p in POSITIONS])
def test_every_position_is_answered(session: tuple[LspClient, str, Path], method: str, case: str, position: Any,
                                    expect: int | str) -> None:
    """"A hover at a negative or huge position gets no response at all": every position gets an
    answer: outside LSP's `uinteger` (0 to 2^31 - 1) or not an integer, -32602 naming the field;
    past the end of the document or of a line, a result (the nearest place)."""
    client, uri, _ = session
    answer = client.call(method, {"textDocument": {"uri": uri}, "position": position}, timeout=WAIT)
    if expect == "result":
        assert "result" in answer and "error" not in answer, answer
    else:
        assert answer["error"]["code"] == expect, answer
        assert "position" in answer["error"]["message"], answer
    no_traceback(client)


PARAMS: list[tuple[str, Any, int | str]] = [
    ("params null", None, INVALID_PARAMS),
    ("params a number", 5, INVALID_PARAMS),
    ("params a string", "hover", INVALID_PARAMS),
    ("params an empty array", [], INVALID_PARAMS),
    ("params empty", {}, INVALID_PARAMS),
    ("textDocument missing", {"position": {"line": 0, "character": 0}}, INVALID_PARAMS),
    ("textDocument a string", {"textDocument": "house.yaml", "position": {"line": 0, "character": 0}},
     INVALID_PARAMS),
    ("uri a number", {"textDocument": {"uri": 5}, "position": {"line": 0, "character": 0}}, INVALID_PARAMS),
    ("uri null", {"textDocument": {"uri": None}, "position": {"line": 0, "character": 0}}, INVALID_PARAMS),
]


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion"])
@pytest.mark.parametrize("case, params, expect", PARAMS, ids=[p[0] for p in PARAMS])
def test_missing_or_mistyped_params_are_invalid_params(session: tuple[LspClient, str, Path], method: str, case: str,
                                                       params: Any, expect: int) -> None:
    """"-32602 Invalid params": params missing, of the wrong JSON type, or a field of the wrong
    type, each answered with the field named (in the protocol's spelling)."""
    client, _, _ = session
    answer = client.call(method, params, timeout=WAIT)
    assert answer["error"]["code"] == expect, answer
    assert answer["error"]["message"].startswith(f"Invalid params of {method}: ")
    if isinstance(params, dict) and params:
        assert "textDocument" in answer["error"]["message"] or "uri" in answer["error"]["message"], answer
    no_traceback(client)


URIS = ["untitled:Untitled-1", "http://example.com/rules.yaml", "", "not a uri", "file:///%FF%FE.yaml",
        "file:///tmp/a%00b.yaml", "file:///\ud800.yaml", "file:///nowhere/at/all.yaml"]


@pytest.mark.parametrize("method", ["textDocument/hover", "textDocument/completion"])
@pytest.mark.parametrize("uri", URIS)
def test_a_document_that_is_not_open_and_no_file_is_answered(session: tuple[LspClient, str, Path], method: str,
                                                             uri: str) -> None:
    """A URI that is not open, not a file, not a file: URI, or names bytes that are not UTF-8 (or
    a NUL): a result (nothing to show), and the reason in the client's log."""
    client, _, _ = session
    answer = client.call(method, at(uri), timeout=WAIT)
    assert answer.get("result", "no result") is None, answer
    logged = client.wait_for("window/logMessage", lambda p: uri in p["message"], timeout=WAIT)
    assert "is not open and cannot be read" in logged["message"]
    no_traceback(client)


def test_a_rules_file_that_is_not_open_is_read_from_disk(session: tuple[LspClient, str, Path]) -> None:
    """A request on a file the editor has not opened reads the file (as pygls does): hover on a
    card id of it shows the card."""
    client, _, root = session
    answer = client.call("textDocument/hover", at((root / "plain.yaml").as_uri(), 2, 9), timeout=120)
    assert "grid" in answer["result"]["contents"]["value"], answer


@pytest.mark.parametrize("method, params, code", [
    ("nonsense/method", {}, METHOD_NOT_FOUND),
    ("$/unknownRequest", None, METHOD_NOT_FOUND),
    ("textDocument/definition", at("file:///x.yaml"), METHOD_NOT_FOUND),
    ("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, INVALID_REQUEST),
])
def test_unknown_methods_and_a_second_initialize(session: tuple[LspClient, str, Path], method: str, params: Any,
                                                 code: int) -> None:
    """"-32601 Method not found" for a method the server does not offer; `initialize` once
    only: a second one is an invalid request."""
    client, _, _ = session
    assert client.call(method, params, timeout=WAIT)["error"]["code"] == code


def test_a_notification_sent_as_a_request_and_a_request_sent_as_a_notification(
        session: tuple[LspClient, str, Path]) -> None:
    """JSON-RPC: "A Notification is a Request object without an "id" member [...] The Server MUST
    NOT reply to a Notification": `didOpen` with an id is an invalid request (answered, so the
    client does not wait); a hover without an id is a notification of a request's method, not
    answered; the next request is."""
    client, uri, _ = session
    client.send_raw(frame({"jsonrpc": "2.0", "id": 950, "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "untitled:1", "languageId": "yaml", "version": 1, "text": "a: 1\n"}}}))
    assert client.response(950, "didOpen with an id", timeout=WAIT)["error"]["code"] == INVALID_REQUEST
    client.notify("textDocument/hover", at(uri))
    before = set(client.responses)
    assert "result" in client.call("textDocument/completion", at(uri), timeout=WAIT)
    assert set(client.responses) == before
    logged = client.wait_for("window/logMessage", lambda p: "sent without an `id`" in p["message"], timeout=WAIT)
    assert "textDocument/hover" in logged["message"]


@pytest.mark.parametrize("message, rid", [
    ({"id": 900, "method": "textDocument/hover", "params": {}}, 900),                 # no `jsonrpc`
    ({"jsonrpc": "1.0", "id": 901, "method": "shutdown"}, 901),
    ({"jsonrpc": "2.0", "id": True, "method": "shutdown"}, None),
    ({"jsonrpc": "2.0", "id": {"n": 1}, "method": "shutdown"}, None),
    ({"jsonrpc": "2.0", "id": None, "method": "shutdown"}, None),
    ({"jsonrpc": "2.0", "id": 902, "method": 5}, 902),
    ({"jsonrpc": "2.0", "id": 903}, 903),                                              # no method, no result
    ({"jsonrpc": "2.0"}, None),
    ([], None),                                                                         # a batch
    ([{"jsonrpc": "2.0", "id": 904, "method": "shutdown"}], None),
    (5, None),
    ("hover", None),
    (None, None),
], ids=["no jsonrpc", "jsonrpc 1.0", "id a boolean", "id an object", "id null", "method a number", "no method",
        "nothing", "empty batch", "batch", "a number", "a string", "null"])
def test_what_is_no_request_is_an_invalid_request(session: tuple[LspClient, str, Path], message: Any,
                                                  rid: Any) -> None:
    """"-32600 Invalid Request: The JSON sent is not a valid Request object", with the request's
    id where it could be read and null where not ("it MUST be Null")."""
    client, _, _ = session
    client.send_raw(frame(message))
    answer = client.response(rid, "an invalid request", timeout=WAIT)
    assert answer["error"]["code"] == INVALID_REQUEST and answer["id"] == rid, answer
    no_traceback(client)


@pytest.mark.parametrize("method, params", [
    ("textDocument/didOpen", {"textDocument": {"uri": "file:///x.yaml"}}),
    ("textDocument/didOpen", 7),
    ("textDocument/didChange", {"textDocument": {"uri": "file:///never-opened.yaml", "version": 2},
                                "contentChanges": [{"text": "a: 1\n"}]}),
    ("textDocument/didClose", {"textDocument": {"uri": "file:///never-opened.yaml"}}),
    ("textDocument/didSave", {"textDocument": {"uri": "untitled:1"}}),
    ("workspace/didChangeWatchedFiles", {"changes": [{"uri": "file:///\ud800", "type": 1}]}),
    ("workspace/didChangeWatchedFiles", {"changes": [{"uri": "file:///x.yaml", "type": 99}]}),
    ("$/cancelRequest", {"id": 123456}),
    ("$/cancelRequest", {}),
    ("$/someNotification", {"x": 1}),
    ("nonsense/notification", None),
], ids=["didOpen without text", "didOpen params a number", "didChange of a closed file", "didClose of a closed file",
        "didSave untitled", "watched file not UTF-8", "watched change of no type", "cancel unknown id",
        "cancel without id", "unknown $/ notification", "unknown notification"])
def test_hostile_notifications_are_not_answered_and_change_nothing(session: tuple[LspClient, str, Path], method: str,
                                                                    params: Any) -> None:
    """A notification is never answered (JSON-RPC: "The Server MUST NOT reply to a
    Notification"), however wrong; the server goes on answering requests."""
    client, uri, _ = session
    client.notify(method, params)
    before = set(client.responses)
    assert "result" in client.call("textDocument/completion", at(uri), timeout=WAIT)
    assert set(client.responses) == before
    no_traceback(client)


@pytest.mark.parametrize("message", [
    {"jsonrpc": "2.0", "id": "never-asked", "result": None},
    {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no"}},
    {"jsonrpc": "2.0", "id": 77, "error": "not an error object"},
    {"id": 78, "result": 1},
], ids=["unknown id", "error with id null", "malformed error", "no jsonrpc"])
def test_responses_of_the_client_are_not_answered(session: tuple[LspClient, str, Path], message: Any) -> None:
    """A response (to a request the server never sent, or malformed) is not answered: answering
    it would be a response to a response; the next request is answered."""
    client, uri, _ = session
    client.send_raw(frame(message))
    before = set(client.responses)
    assert "result" in client.call("textDocument/completion", at(uri), timeout=WAIT)
    assert set(client.responses) == before
    no_traceback(client)


def test_the_document_is_unchanged_by_the_table(session: tuple[LspClient, str, Path]) -> None:
    """Bad input changes nothing: after every case above, hover still shows the open variant's
    card as it is (its own points, merged)."""
    client, uri, _ = session
    value = client.call("textDocument/hover", at(uri, 2, 9), timeout=120)["result"]["contents"]["value"]
    assert "grid" in value and "8" in value
    no_traceback(client)


# -- the order of a session ----------------------------------------------------------------------

def test_before_initialize_requests_are_refused_and_notifications_dropped(tmp_path: Path) -> None:
    """"For a request the response should be an error with code: -32002 [...] Notifications should
    be dropped": a hover and a completion before `initialize` are refused; a didOpen before it is
    dropped (no diagnostics come for it), and `initialize` then works."""
    c = LspClient(cwd=tmp_path)
    try:
        path = tmp_path / "house.yaml"
        path.write_text(VARIANT.replace("recruited", "recruted"), encoding="utf-8")
        for method in ("textDocument/hover", "textDocument/completion", "shutdown"):
            assert c.call(method, at(path.as_uri()), timeout=WAIT)["error"]["code"] == NOT_INITIALIZED
        c.open(path)
        assert "capabilities" in c.initialize(tmp_path)
        assert c.call("textDocument/completion", at(path.as_uri()), timeout=WAIT)["result"] is None
        assert not [n for n in c.notes if n.get("method") == "textDocument/publishDiagnostics"]
        assert c.close() == 0
        no_traceback(c)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_an_initialize_with_bad_params_is_refused_and_another_one_taken(tmp_path: Path) -> None:
    """`initialize` whose params do not fit InitializeParams is -32602 naming the field, and the
    server is still not initialized (-32002 for a hover); a good `initialize` then works, and
    options of the wrong type are ignored with a warning in the log."""
    c = LspClient(cwd=tmp_path)
    try:
        bad = [({"processId": "x", "capabilities": {}}, "params.processId"),
               ({"processId": None}, "params.capabilities"), (None, "params")]
        for params, field in bad:
            error = c.call("initialize", params, timeout=WAIT)["error"]
            assert error["code"] == INVALID_PARAMS and error["message"].endswith(f"@ {field}"), error
        assert c.call("textDocument/hover", at("file:///x.yaml"), timeout=WAIT)["error"]["code"] == NOT_INITIALIZED
        assert "capabilities" in c.initialize(tmp_path, {"expansions": 5, "lang": {"no": 1}})
        logged = c.wait_for("window/logMessage", lambda p: "expansions" in p["message"], timeout=WAIT)
        assert logged["message"].endswith("should be a list of box names: ignored")
        assert c.close() == 0
        no_traceback(c)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_after_shutdown_requests_are_invalid_and_exit_ends(tmp_path: Path) -> None:
    """"If a server receives requests after a shutdown request those requests should error with
    InvalidRequest": hover, completion and a second shutdown are refused; `exit` then ends the
    server with status 0."""
    c = LspClient(cwd=tmp_path)
    c.initialize(tmp_path)
    assert c.call("shutdown", timeout=WAIT) == {"jsonrpc": "2.0", "id": c.next_id, "result": None}
    for method in ("textDocument/hover", "textDocument/completion", "shutdown", "nonsense/method"):
        assert c.call(method, at("file:///x.yaml"), timeout=WAIT)["error"]["code"] == INVALID_REQUEST
    c.notify("exit")
    assert ended(c) == 0
    no_traceback(c)


@pytest.mark.parametrize("exit", [{"method": "exit"}, {"method": "exit", "id": 5, "params": 7}],
                         ids=["a notification", "with an id and params"])
def test_exit_before_initialize_ends_with_1(tmp_path: Path, exit: dict[str, Any]) -> None:
    """"The server should exit with success code 0 if the shutdown request has been received
    before; otherwise with error code 1", also before `initialize`, and whatever came with it."""
    c = LspClient(cwd=tmp_path)
    c.send(exit)
    assert ended(c) == 1
    no_traceback(c)


def test_a_document_closed_while_its_request_runs_is_answered(tmp_path: Path) -> None:
    """A document closed mid-request: the hover sent after a change (waiting for its check) and
    the close right after it are both taken; the hover is answered with the text it was asked
    about."""
    c = LspClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path)
        path = tmp_path / "house.yaml"
        path.write_text(VARIANT, encoding="utf-8")
        uri = c.open(path)
        c.change(uri, VARIANT.replace("points: 8", "points: 9"))
        c.next_id += 1
        c.send({"id": c.next_id, "method": "textDocument/hover", "params": at(uri, 2, 9)})
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        answer = c.response(c.next_id, "hover", timeout=120)
        assert "grid" in answer["result"]["contents"]["value"], answer
        assert c.close() == 0
        no_traceback(c)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_a_cancelled_request_is_answered(tmp_path: Path) -> None:
    """LSP's `$/cancelRequest`: "A request that got canceled still needs to return from the server
    and send a response back": a result or -32800."""
    c = LspClient(cwd=tmp_path)
    try:
        c.initialize(tmp_path)
        path = tmp_path / "house.yaml"
        path.write_text(VARIANT, encoding="utf-8")
        uri = c.open(path)
        c.next_id += 1
        c.send({"id": c.next_id, "method": "textDocument/hover", "params": at(uri, 2, 9)})
        c.notify("$/cancelRequest", {"id": c.next_id})
        answer = c.response(c.next_id, "hover", timeout=120)
        assert "result" in answer or answer["error"]["code"] == -32800, answer
        assert c.close() == 0
        no_traceback(c)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


# -- framing -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def framing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LspClient, str]]:
    root = tmp_path_factory.mktemp("framing")
    path = root / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    c = LspClient(cwd=root)
    c.initialize(root)
    uri = c.open(path)
    yield c, uri
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def completion(rid: int, uri: str) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "textDocument/completion", "params": at(uri)}).encode()


def answered(client: LspClient, rid: int) -> None:
    assert "result" in client.response(rid, f"request {rid}", timeout=WAIT)


def test_a_length_too_small_is_a_parse_error_then_requests_are_answered(framing: tuple[LspClient, str]) -> None:
    """Too small: the body is cut, "-32700 Parse error" with id null; the rest of it is skipped
    to the next header, and the request after it is answered."""
    client, uri = framing
    cut = completion(1001, uri)
    client.send_raw(b"Content-Length: %d\r\n\r\n" % (len(cut) - 12) + cut + frame(json.loads(completion(1002, uri))))
    assert client.response(None, "a parse error", timeout=WAIT)["error"]["code"] == PARSE_ERROR
    answered(client, 1002)
    logged = client.wait_for("window/logMessage", lambda p: "skipped 12 bytes" in p["message"], timeout=WAIT)
    assert logged["type"] == 2
    no_traceback(client)


def test_a_length_too_large_answers_both_requests(framing: tuple[LspClient, str]) -> None:
    """Too large, the next message behind it: the first body ends where its JSON ends (the
    declared length runs into the next header), so both requests are answered."""
    client, uri = framing
    first = completion(1003, uri)
    second = frame(json.loads(completion(1004, uri)))
    client.send_raw(b"Content-Length: %d\r\n\r\n" % (len(first) + 30) + first + second)
    answered(client, 1003)
    answered(client, 1004)
    no_traceback(client)


def test_a_length_too_large_with_nothing_after_is_answered(framing: tuple[LspClient, str]) -> None:
    """Too large, and the client waits for the answer before sending more: the server does not
    wait for the missing bytes."""
    client, uri = framing
    first = completion(1005, uri)
    client.send_raw(b"Content-Length: %d\r\n\r\n" % (len(first) + 500) + first)
    answered(client, 1005)
    client.send_raw(frame(json.loads(completion(1006, uri))))
    answered(client, 1006)


@pytest.mark.parametrize("header", [b"Content-Length: twelve\r\n", b"Content-Length: -5\r\n",
                                    b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"],
                         ids=["not a number", "negative", "missing"])
def test_an_unusable_length_is_read_to_the_end_of_its_json(framing: tuple[LspClient, str], header: bytes) -> None:
    """A length that is not a number, negative or missing: the request is still read (to the end
    of its JSON value) and answered, and so is the next one; the problem is logged."""
    client, uri = framing
    client.send_raw(header + b"\r\n" + completion(1007, uri))
    answered(client, 1007)
    client.send_raw(frame(json.loads(completion(1008, uri))))
    answered(client, 1008)
    client.wait_for("window/logMessage", lambda p: "framing:" in p["message"], timeout=WAIT)
    no_traceback(client)


@pytest.mark.parametrize("body", [b"this is not json", b'{"jsonrpc": "2.0", "id": 1009, "method": "shutdown"',
                                  b'{"jsonrpc": "2.0", "id": 1010, "method": "x\xff"}'],
                         ids=["not JSON", "cut JSON", "not UTF-8"])
def test_a_body_that_is_not_json_is_a_parse_error(framing: tuple[LspClient, str], body: bytes) -> None:
    """"-32700 Parse error: Invalid JSON was received by the server", id null: a body that is no
    JSON or not UTF-8; the next request is answered."""
    client, uri = framing
    client.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    answer = client.response(None, "a parse error", timeout=WAIT)
    assert answer["error"]["code"] == PARSE_ERROR and answer["id"] is None, answer
    client.send_raw(frame(json.loads(completion(1011, uri))))
    answered(client, 1011)
    no_traceback(client)


def test_garbage_between_messages_is_skipped(framing: tuple[LspClient, str]) -> None:
    """Bytes that are no message before a header are skipped (and logged); the request is answered."""
    client, uri = framing
    client.send_raw(b"\x00\x01 garbage \r\n\r\n more garbage" + frame(json.loads(completion(1012, uri))))
    answered(client, 1012)
    no_traceback(client)


@pytest.mark.parametrize("data, close, reason", [
    (b"Content-Length: 1000000000000\r\n\r\n{", False, "is over the limit of 67108864 bytes"),
    (b"Content-Length: 400\r\n\r\n{\"jsonrpc\": \"2.0\", ", True, "the stream ended inside a message"),
], ids=["absurdly large", "the stream ends inside a body"])
def test_framing_that_cannot_be_read_on_ends_the_server_with_its_reason(tmp_path: Path, data: bytes, close: bool,
                                                                        reason: str) -> None:
    """"else exit with a logged reason": a length over the 64 MiB bound is refused unread (the
    server stops at once, the client's pipe still open), and a stream that ends inside a body
    cannot be read on: the server exits with status 1 and says why on stderr (no traceback)."""
    c = LspClient(cwd=tmp_path)
    c.initialize(tmp_path)
    c.send_raw(data)
    if close:
        assert c.proc.stdin is not None
        c.proc.stdin.close()
    assert ended(c) == 1
    err = c.all_stderr().decode()
    assert "cannot read the client's messages: " in err and reason in err, err
    assert "Traceback" not in err


# -- the wrapper around every handler, without a process ----------------------------------------

class Collect:
    """A writer for pygls and the gate: the messages sent, decoded."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass

    def messages(self) -> list[dict[str, Any]]:
        import io

        from nidavellir.lsp.framing import MessageReader

        reader = MessageReader(io.BytesIO(bytes(self.data)))
        out = []
        while (m := reader.next()) is not None:
            assert m.error is None and not m.problems
            out.append(m.value)
        return out


async def drive(server: Any, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Hand messages to the server's gate as the stdio loop does; what it sent once every
    handler has finished."""
    from nidavellir.lsp.framing import Message
    from nidavellir.lsp.rpc import Gate

    out = Collect()
    server.protocol.set_writer(out)
    gate = Gate(server.protocol, server.converter, out.write, server.log)
    for m in ({"id": 0, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
              *messages):
        gate.take(Message({"jsonrpc": "2.0", **m}))
        while pending := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            await asyncio.gather(*pending, return_exceptions=True)
    return out.messages()


def test_an_unexpected_exception_in_a_request_is_an_internal_error() -> None:
    """"one wrapper around every handler that turns an unexpected exception into an InternalError
    response (logged with window/logMessage)": a hover whose code raises is answered -32603
    naming the failure, and its traceback is in the client's log."""
    from nidavellir.lsp.server import build

    server = build()

    async def broken(params: Any) -> None:
        raise KeyError("a fault")

    server.hover = broken  # type: ignore[method-assign]
    sent = asyncio.run(drive(server, {"id": 1, "method": "textDocument/hover", "params": at("file:///x.yaml")}))
    [answer] = [m for m in sent if m.get("id") == 1]
    assert answer["error"]["code"] == INTERNAL_ERROR
    assert answer["error"]["message"] == "hover failed: KeyError: 'a fault'"
    logs = [m["params"]["message"] for m in sent if m.get("method") == "window/logMessage"]
    assert len(logs) == 1 and logs[0].startswith("nidavellir lsp: hover failed:\nTraceback") and "a fault" in logs[0]


def test_an_unexpected_exception_in_a_notification_is_logged_not_answered() -> None:
    """A notification whose handler raises is logged (its traceback in window/logMessage) and
    never answered; the request after it is."""
    from nidavellir.lsp.server import build

    server = build()

    def broken(uri: str) -> None:
        raise RuntimeError("a fault")

    server.document_changed = broken  # type: ignore[method-assign]
    sent = asyncio.run(drive(server, {"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///x.yaml", "languageId": "yaml", "version": 1, "text": "a: 1\n"}}},
        {"id": 2, "method": "textDocument/completion", "params": at("file:///x.yaml")}))
    assert [m["id"] for m in sent if "id" in m] == [0, 2]
    assert [m for m in sent if m.get("id") == 2][0]["result"] is None
    logs = [m["params"]["message"] for m in sent if m.get("method") == "window/logMessage"]
    assert len(logs) == 1 and logs[0].startswith("nidavellir lsp: didOpen failed:\nTraceback") and "a fault" in logs[0]
