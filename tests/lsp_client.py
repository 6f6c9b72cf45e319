"""A small scripted JSON-RPC client for driving `nidavellir lsp` over stdio in tests.

Messages are framed with `Content-Length` headers; a reader thread collects what the server
sends, and every wait has a timeout, so a server that hangs fails the test instead of hanging it.
"""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TIMEOUT = 30.0


class LspClient:
    def __init__(self, cwd: Path | None = None, memory: int | None = None) -> None:
        """The server as a child process; `memory`: a cap on its address space in bytes (a server that
        reads what it must not fails instead of taking the machine's memory)."""
        def cap() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

        self.proc = subprocess.Popen([sys.executable, "-m", "nidavellir.lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                                     preexec_fn=cap if memory else None)
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.notes: list[dict[str, Any]] = []  # notifications and server requests, in order
        self.responses: dict[int, dict[str, Any]] = {}
        self.next_id = 0
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()

    # -- framing ----------------------------------------------------------------------------
    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None, "a message without Content-Length"
            self.inbox.put(json.loads(out.read(length).decode("utf-8")))

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read1(4096), b""):  # type: ignore[union-attr]  (as it comes)
            self.stderr += chunk

    def all_stderr(self, timeout: float = TIMEOUT) -> bytes:
        """Everything the server wrote on stderr, once it has gone (bounded wait)."""
        self._stderr_reader.join(timeout)
        return self.stderr

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are: framing of the test's own making."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _pump(self, deadline: float) -> bool:
        """Take one message from the server (False at the deadline or when it has gone)."""
        try:
            msg = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return False
        if msg is None:
            return False
        if "id" in msg and "method" not in msg:
            self.responses[msg["id"]] = msg
        else:
            self.notes.append(msg)
            if "id" in msg:  # a request of the server (e.g. registration): say yes
                self.send({"id": msg["id"], "result": None})
        return True

    # -- requests and notifications ---------------------------------------------------------
    def request(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> Any:
        """The result of a request (RuntimeError: it was answered with an error)."""
        answer = self.call(method, params, timeout)
        if "error" in answer:
            raise RuntimeError(f"{method} failed: {answer['error']}")
        return answer.get("result")

    def call(self, method: str, params: Any = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The whole response to a request: its `result` or its `error`."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.response(self.next_id, method, timeout)

    def response(self, rid: Any, what: str = "a request", timeout: float = TIMEOUT) -> dict[str, Any]:
        """The response with id `rid` (None: a response to what had no readable id)."""
        deadline = time.monotonic() + timeout
        while rid not in self.responses:
            if not self._pump(deadline):
                raise TimeoutError(f"no answer to {what} in {timeout}s; stderr:\n{self.stderr.decode()}")
        return self.responses.pop(rid)

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"method": method, "params": params})

    def wait_for(self, method: str, match: Any = lambda p: True, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The params of the first notification `method` not seen before that `match`es."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for note in self.notes[seen:]:
                seen += 1
                if note.get("method") == method and match(note.get("params")):
                    self.notes.remove(note)
                    return note["params"]  # type: ignore[no-any-return]
            if not self._pump(deadline):
                raise TimeoutError(f"no {method} in {timeout}s; got: {[n.get('method') for n in self.notes]};"
                                   f" stderr:\n{self.stderr.decode()}")

    def diagnostics(self, uri: str, match: Any = lambda ds: True, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """The next diagnostics published for `uri` that `match`."""
        params = self.wait_for("textDocument/publishDiagnostics",
                               lambda p: p["uri"] == uri and match(p["diagnostics"]), timeout)
        return params["diagnostics"]  # type: ignore[no-any-return]

    # -- the session ------------------------------------------------------------------------
    def initialize(self, root: Path, options: dict[str, Any] | None = None) -> Any:
        result = self.request("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {},
                                             "initializationOptions": options or {}})
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": path.read_text(encoding="utf-8") if text is None else text}})
        return uri

    def change(self, uri: str, text: str, version: int = 2) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def close(self) -> int:
        """shutdown, exit; the server's exit code."""
        try:
            self.request("shutdown")
            self.notify("exit")
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


@contextmanager
def serving(root: Path, path: Path, memory: int | None = None) -> Iterator[tuple[LspClient, str]]:
    """One server in `root` with `path` open and checked clean; killed afterwards if still running."""
    c = LspClient(cwd=root, memory=memory)
    c.initialize(root)
    uri = c.open(path)
    assert c.diagnostics(uri, timeout=120) == []
    try:
        yield c, uri
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()
