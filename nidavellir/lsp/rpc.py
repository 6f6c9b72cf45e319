"""The JSON-RPC gate in front of pygls: every request gets a result or an error.

pygls reads a message with its structuring inside `json.loads`, so a request whose params do not
fit its type (a negative position, a missing field) raises before its id is known and is never
answered; it also drops requests after `shutdown` without a word. Here a message is read by our
own framing reader (framing.py), checked, and only a well-formed message in the right state of
the session is handed to pygls, which runs its handler and answers it. Otherwise the gate
answers, as JSON-RPC and LSP say:

- a body that is no JSON (or not UTF-8): -32700 parse error, id null;
- no JSON-RPC request (not an object, `jsonrpc` not "2.0", an id that is null or no number or
  string, no method or one that is no string): -32600, id null unless the id was readable;
- a request before `initialize`: -32002 (server not initialized), a notification is dropped;
  after `shutdown` a request is -32600 and a notification dropped, except `exit` in both;
- a method the server does not have: -32601; a notification's method sent with an id: -32600;
  params that do not fit the method's type: -32602 naming each bad field.
Primitive fields are typed strictly (`converter`): cattrs alone would take "3" or 1.5 for a
line number. A notification, or a response of the client, is never answered: what was wrong with
it is logged. `exit` is honoured in any state, whatever came with it.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from lsprotocol import types as lsp
from pygls.protocol import JsonRPCNotification, JsonRPCProtocol, JsonRPCRequestMessage, default_converter

from .framing import Message

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
NOT_INITIALIZED = -32002

Log = Callable[[str, lsp.MessageType], None]


def frame(message: dict[str, Any]) -> bytes:
    """A message as the base protocol sends it."""
    body = json.dumps(message, ensure_ascii=True).encode("ascii")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _exactly(*kinds: type) -> Callable[[Any, Any], Any]:
    """A structure hook that takes a JSON value of `kinds` as it is (cattrs would take "3" or 1.5
    for an integer, 5 for a string): a field of another type is invalid params."""
    name = " or ".join({int: "an integer", float: "a number", str: "a string", bool: "a boolean"}[k] for k in kinds)

    def hook(value: Any, _: Any) -> Any:
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise ValueError(f"expected {name}, got {json_kind(value)} {value!r:.40}")
        return float(value) if float in kinds and isinstance(value, (int, float)) else value
    return hook


def converter() -> cattrs.Converter:
    """pygls' converter, taking JSON's primitive types strictly."""
    c: cattrs.Converter = default_converter()  # type: ignore[no-untyped-call]
    c.register_structure_hook(int, _exactly(int))
    c.register_structure_hook(float, _exactly(int, float))
    c.register_structure_hook(str, _exactly(str))
    c.register_structure_hook(bool, _exactly(bool))
    return c


class Gate:
    """Checks each message read and hands the good ones to pygls' `protocol`."""

    def __init__(self, protocol: JsonRPCProtocol, converter: cattrs.Converter, write: Callable[[bytes], None],
                 log: Log) -> None:
        self.protocol = protocol
        self.converter = converter
        self.write = write
        self.log = log
        self.initialized = False
        self.shut_down = False

    def answer(self, rid: Any, code: int, message: str) -> None:
        self.write(frame({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}))

    def warn(self, message: str) -> None:
        self.log(f"nidavellir lsp: {message}", lsp.MessageType.Warning)

    def take(self, message: Message) -> None:
        for problem in message.problems:
            self.warn(f"framing: {problem}")
        if message.error is not None:
            self.warn(message.error)
            self.answer(None, PARSE_ERROR, f"Parse error: {message.error}")
            return
        self.dispatch(message.value)

    def dispatch(self, value: Any) -> None:
        envelope = self.envelope(value)
        if envelope is None:
            return
        method, rid, value = envelope
        request = "id" in value
        if method != lsp.EXIT and not self.allowed(method, request, rid):
            return
        params = value.get("params")
        if params is not None and not isinstance(params, (dict, list)):
            what = f"params must be an object or an array, not {json_kind(params)}"
            return self.bad_params(method, request, rid, what)
        if request and not self.known(method):
            return self.answer(rid, METHOD_NOT_FOUND, f"Method not found: {method}")
        kind = self.protocol.get_message_type(method) or (JsonRPCRequestMessage if request else JsonRPCNotification)
        if request != _has_id(kind):  # a notification sent with an id, or a request without one
            if request:
                return self.invalid(rid, f"`{method}` is a notification: it takes no `id`")
            return self.warn(f"`{method}` is a request: sent without an `id`, it is ignored")
        try:
            structured = self.converter.structure(value, kind)
        except Exception as error:  # noqa: BLE001 (what was wrong is answered and logged, never raised)
            return self.bad_params(method, request, rid, params_error(error))
        if method == lsp.INITIALIZE:
            self.initialized = True
        elif method == lsp.SHUTDOWN:
            self.shut_down = True
        self.protocol.handle_message(structured)

    def envelope(self, value: Any) -> tuple[str, Any, dict[str, Any]] | None:
        """A request's or notification's method, id and message (None: it was something else,
        answered or handed on as a response)."""
        if not isinstance(value, dict):
            what = "a batch (LSP has none)" if isinstance(value, list) else f"a JSON {json_kind(value)}"
            self.invalid(None, f"a message must be a JSON object, not {what}")
            return None
        rid = value.get("id")
        readable = _good_id(rid)
        if "method" not in value and "id" in value and ("result" in value or "error" in value):
            if readable and value.get("jsonrpc") == "2.0":
                self.response(value)
                return None
            self.warn(f"a response that is no JSON-RPC 2.0 response (id {json_kind(rid)}): ignored")
            return None
        if "id" in value and not readable:
            self.invalid(None, f"`id` must be an integer or a string, not {json_kind(rid)} {rid!r:.40}")
            return None
        if value.get("jsonrpc") != "2.0":
            self.invalid(rid, '`jsonrpc` must be "2.0"')
            return None
        method = value.get("method")
        if not isinstance(method, str):
            if "method" not in value:
                self.invalid(rid, "a message needs a `method` (or, as a response, a `result` or an `error`)")
                return None
            self.invalid(rid, f"`method` must be a string, not {json_kind(method)}")
            return None
        if method == lsp.EXIT:  # honoured whatever came with it
            value = {"jsonrpc": "2.0", "method": method}
        return method, rid, value

    def allowed(self, method: str, request: bool, rid: Any) -> bool:
        """Whether the session's state lets the message through (else it is answered or dropped)."""
        if not self.initialized:
            if method == lsp.INITIALIZE and request:
                return True
            if request:
                self.answer(rid, NOT_INITIALIZED, f"the server is not initialized: `{method}` before `initialize`")
            else:
                self.warn(f"`{method}` before `initialize`: ignored")
            return False
        if self.shut_down:
            if request:
                self.answer(rid, INVALID_REQUEST, f"the server is shut down: `{method}` after `shutdown`"
                                                  " (only `exit` is accepted)")
            else:
                self.warn(f"`{method}` after `shutdown`: ignored")
            return False
        if method == lsp.INITIALIZE:
            if request:
                self.answer(rid, INVALID_REQUEST, "`initialize` was already received")
            return False
        return True

    def known(self, method: str) -> bool:
        fm = self.protocol.fm
        return method in fm.builtin_features or method in fm.features

    def invalid(self, rid: Any, message: str) -> None:
        self.warn(f"invalid message: {message}")
        self.answer(rid, INVALID_REQUEST, f"Invalid request: {message}")

    def bad_params(self, method: str, request: bool, rid: Any, reason: str) -> None:
        if request:
            self.answer(rid, INVALID_PARAMS, f"Invalid params of {method}: {reason}")
        else:
            self.warn(f"{method}: invalid params, ignored: {reason}")

    def response(self, value: dict[str, Any]) -> None:
        """A response of the client to a request of the server."""
        try:
            structured = self.protocol.structure_message(value)
        except Exception as error:  # noqa: BLE001 (logged)
            self.warn(f"a response to {value.get('id')!r} that does not fit: {params_error(error.__cause__ or error)}")
            return
        self.protocol.handle_message(structured)


def params_error(error: BaseException) -> str:
    """What is wrong with params, as `problem @ field` items (cattrs' error tree, worded)."""
    if isinstance(error, (cattrs.ClassValidationError, cattrs.IterableValidationError)):
        items = cattrs.transform_error(error, path="$", format_exception=_wording)
        return "; ".join(_camel(i) for i in items)
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _wording(error: BaseException, kind: Any) -> str:
    if isinstance(error, ValueError) and type(error) is ValueError and str(error):
        return f"invalid value ({error})"  # lsprotocol's range checks say what the range is
    from cattrs.v import format_exception

    return format_exception(error, kind)


def _camel(item: str) -> str:
    """`… @ params.text_document.uri` as the protocol spells it: `params.textDocument.uri`."""
    text, at, path = item.rpartition(" @ ")
    if not at:
        return item
    path = path.removeprefix("$.").removeprefix("$")
    return f"{text} @ " + re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path or "params")


def _has_id(kind: type) -> bool:
    """Whether messages of this type are requests (lsprotocol's request types have an id)."""
    return attrs.has(kind) and "id" in attrs.fields_dict(kind)


def _good_id(rid: Any) -> bool:
    """JSON-RPC allows a null id but discourages it; answered, it could not be told apart from an
    answer to what had no readable id, so it is refused."""
    return isinstance(rid, (int, str)) and not isinstance(rid, bool)


def json_kind(value: Any) -> str:
    """A JSON value's type, as JSON names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {int: "number", float: "number", str: "string", list: "array", dict: "object"}.get(type(value), "value")
