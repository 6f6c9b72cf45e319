"""`nidavellir lsp` over stdin/stdout: our reader in front of pygls, and how the process ends.

pygls' own stdio loop is not used: its reader wedges on a wrong `Content-Length` and loses a
request whose params do not fit (rpc.py says why). Messages are read by framing.py in a thread,
checked by the gate (rpc.py) and handed to pygls on the event loop, which runs the handlers and
writes their answers. The exit code: 0 after `shutdown` then `exit`; 1 if the client went away
without them, or sent what cannot be read on (the reason on stderr and in the client's log).
Every warning or error logged goes to the client's log (window/logMessage) and, as one line, to
stderr, never a traceback (server.py `RulesServer.log`).
"""
from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter

from .framing import FramingError, MessageReader
from .rpc import Gate
from .server import RulesServer, build


def run() -> int:
    """Serve over stdio. The exit code: 0 after `shutdown` then `exit`; 1 if the client went away
    without them, or sent what cannot be read on (the reason logged)."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must never corrupt the protocol stream
    _quiet_logging()
    server = build()
    try:
        code = asyncio.run(serve(server, sys.stdin.buffer, out))
    except SystemExit as done:  # `exit`
        code = 0 if done.code == 0 else 1
    except (BrokenPipeError, ConnectionResetError):
        print("nidavellir lsp: the client closed the connection", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 1
    except Exception as error:  # noqa: BLE001 (the last resort: said in a line, the details in the client's log)
        print(f"nidavellir lsp: stopped by an internal error: {type(error).__name__}: {error}", file=sys.stderr)
        server.failed("serving")
        code = 1
    finally:
        server.executor.shutdown(wait=False, cancel_futures=True)
        server.shutdown()  # type: ignore[no-untyped-call]
    return code if code else 0 if server.shut_down else 1


async def serve(server: RulesServer, stdin: Any, stdout: Any) -> int | None:
    """Read messages until the stream ends (None) or cannot be read on (1, the reason logged)."""
    writer = StdoutWriter(stdout)
    server.protocol.set_writer(writer)
    gate = Gate(server.protocol, server.converter, writer.write, server.log)
    reader = MessageReader(stdin)
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="nidavellir-read") as reading:
        while True:
            try:
                message = await loop.run_in_executor(reading, reader.next)
            except (FramingError, OSError) as e:
                server.log(f"nidavellir lsp: cannot read the client's messages: {e}; stopping",
                           lsp.MessageType.Error)  # (an error: on stderr too)
                return 1
            if message is None:
                return None
            gate.take(message)


class _OneLine(logging.Formatter):
    """A log record as one line, never a traceback (the client's log has the details)."""

    def format(self, record: logging.LogRecord) -> str:
        first = record.getMessage().strip().split("\n", 1)[0]
        return f"nidavellir lsp: {record.name}: {first}"


def _quiet_logging() -> None:
    """Warnings and errors logged (pygls', asyncio's) go to stderr as one line each."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
