"""The language server: pygls wiring, the debounced checks and what is published.

Every open document is checked in the rule sets it belongs to (targets.py), with every open
document's unsaved text in place of its file. A change marks the rule sets holding that file;
checks start once the editor has been quiet for `DEBOUNCE` seconds, run one at a time on one
thread (the event loop keeps answering hover and completion), and a result whose rule set changed
again meanwhile is dropped, not published: a newer check is already waiting. Each file's
diagnostics are the union over the open rule sets that reach it, so an error a change causes in
another file is published there, and cleared there once fixed.

No exception of a handler or a check stops the server: it is logged (window/logMessage), and a
request it happened in is answered with an internal error. Messages reach pygls through our own
reader and gate (framing.py, rpc.py, stdio.py), so every request is answered, whatever its params.
"""
from __future__ import annotations

import asyncio
import inspect
import re
import sys
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from nidavellir.compiler.paths import MAX_FILE_BYTES, PathProblem, read_bytes

from .complete import TRIGGERS, Item, complete, spot
from .diagnose import Outcome, check_target, to_lsp
from .hover import HoverFacts, card_entry_at, name_markdown, word_at
from .positions import UTF8, UTF16, UTF32, TextIndex
from .rpc import converter
from .targets import Classifier, Target
from .vocabulary import Vocabulary

if TYPE_CHECKING:
    from nidavellir.compiler.compile import Compiled

DEBOUNCE = 0.25   # seconds of quiet after a change before checking
WAIT = 10.0       # how long hover and completion wait for a first check of their document

_KINDS = {"word": lsp.CompletionItemKind.Keyword, "class": lsp.CompletionItemKind.Class,
          "event": lsp.CompletionItemKind.Event, "param": lsp.CompletionItemKind.Variable,
          "zone": lsp.CompletionItemKind.Folder, "deck": lsp.CompletionItemKind.Folder,
          "coin": lsp.CompletionItemKind.Constant, "kind": lsp.CompletionItemKind.Enum,
          "card": lsp.CompletionItemKind.Value, "step": lsp.CompletionItemKind.Function}


@dataclass
class Knowledge:
    """A rule set that compiled: what hover and completion read."""
    compiled: Compiled
    vocabulary: Vocabulary
    facts: HoverFacts | None = None


@dataclass
class Checks:
    """The state of the checks: which rule sets wait, what each gave, what was published."""
    pending: dict[Target, None] = field(default_factory=dict)   # ordered: the next to check first
    running: Target | None = None
    results: dict[Target, Outcome] = field(default_factory=dict)
    good: dict[Target, Knowledge] = field(default_factory=dict)  # the last compile without error
    published: dict[str, list[lsp.Diagnostic]] = field(default_factory=dict)  # uri -> last sent


class HandlerFailed(JsonRpcInternalError):
    """A handler's unexpected exception, already logged with its traceback: the request's answer."""


class RulesServer(LanguageServer):
    def __init__(self) -> None:
        self.converter = converter()
        super().__init__("nidavellir", _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Full,
                         converter_factory=lambda: self.converter)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nidavellir-check")
        self.classifier = Classifier(self.read, None)
        self.doc_targets: dict[str, list[Target]] = {}   # open document uri -> its rule sets
        self.checks = Checks()
        self.lang = "en"
        self.shut_down = False
        self._wake: asyncio.Event | None = None
        self._idle: asyncio.Event | None = None
        self._last_change = 0.0
        self._task: asyncio.Task[None] | None = None
        self._fallback: Knowledge | None = None

    # -- reporting ----------------------------------------------------------------------------
    def log(self, message: str, kind: lsp.MessageType = lsp.MessageType.Log) -> None:
        """Say `message` in the client's log (window/logMessage); a warning or an error also as one
        line on stderr (never a traceback: its last line, the exception, stands for it)."""
        sent = True
        try:
            self.window_log_message(lsp.LogMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001 (no client yet, or the pipe is gone): stderr is all there is
            sent = False
        if not sent or kind in (lsp.MessageType.Error, lsp.MessageType.Warning):
            print(one_line(message), file=sys.stderr, flush=True)

    def report_server_error(self, error: Exception, source: Any) -> None:
        if not isinstance(error, HandlerFailed):  # (that one was logged with its traceback)
            self.log(f"nidavellir lsp: {type(error).__name__}: {error}", lsp.MessageType.Error)

    def failed(self, what: str) -> None:
        self.log(f"nidavellir lsp: {what} failed:\n{traceback.format_exc()}", lsp.MessageType.Error)

    # -- documents ----------------------------------------------------------------------------
    def open_paths(self) -> dict[Path, str]:
        """Open documents that are files: resolved path -> uri."""
        out: dict[Path, str] = {}
        for uri in list(self.workspace.text_documents):
            path = _path_of(uri)
            if path is not None:
                out[path] = uri
        return out

    def read(self, path: Path) -> str | None:
        """A file's text: the editor's if it is open, else the disk's (None: unreadable)."""
        uri = self.open_paths().get(path)
        if uri is not None:
            return self.workspace.get_text_document(uri).source
        return disk_text(path)[0]

    def text_of(self, uri: str, what: str) -> str | None:
        """The text of a document: the editor's, else its file's (None, logged: it has none)."""
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is not None:
            return str(doc.source)
        path = _path_of(uri)
        reason = "it names no file"
        if path is not None:
            uri_open = self.open_paths().get(path)
            if uri_open is not None:
                return str(self.workspace.get_text_document(uri_open).source)
            text, reason = disk_text(_named(uri) or path)  # (judged as named: a broken link says so)
            if text is not None:
                return text
        self.log(f"nidavellir lsp: {what} failed: {uri} is not open and cannot be read ({reason})",
                 lsp.MessageType.Error)
        return None

    def overlay(self) -> dict[str, str]:
        return {str(p): self.workspace.get_text_document(uri).source for p, uri in self.open_paths().items()}

    def encoding(self) -> str:
        enc = str(self.workspace.position_encoding or UTF16)
        return enc if enc in (UTF8, UTF16, UTF32) else UTF16

    def index(self, path: Path) -> TextIndex | None:
        text = self.read(path)
        return TextIndex(text, self.encoding()) if text is not None else None

    def document_changed(self, uri: str) -> None:
        path = _path_of(uri)
        if path is None:
            return
        try:
            self.doc_targets[uri] = self.classifier.targets(path)
        except Exception:  # noqa: BLE001 (logged: no error stops the server)
            self.failed(f"finding the rule sets of {path}")
            self.doc_targets[uri] = []
        self.republish(self.drop_inactive())
        self.file_changed(path, first=self.doc_targets[uri])

    def file_changed(self, path: Path, first: list[Target] | None = None) -> None:
        """Check again every open rule set that holds `path` (`first`, then the others)."""
        touched = list(first or []) + [t for t in self.active() if t.holds(path)]
        self.schedule(touched)

    def document_closed(self, uri: str) -> None:
        self.doc_targets.pop(uri, None)
        self.drop_inactive()
        path = _path_of(uri)
        if path is not None:  # the file itself, as the rule sets still open read it from disk
            self.file_changed(path)
        self.republish(set(self.checks.published))

    def active(self) -> list[Target]:
        seen: dict[Target, None] = {}
        for targets in self.doc_targets.values():
            seen.update(dict.fromkeys(targets))
        return list(seen)

    def drop_inactive(self) -> set[str]:
        """Forget the rule sets no open document needs; the files they had diagnostics for."""
        live = set(self.active())
        uris: set[str] = set()
        for t in [t for t in self.checks.results if t not in live]:
            uris |= {self.uri_of(p) for p in self.checks.results.pop(t).by_file if p is not None}
        for t in [t for t in self.checks.pending if t not in live]:
            del self.checks.pending[t]
        for t in [t for t in self.checks.good if t not in live]:
            del self.checks.good[t]
        return uris & set(self.checks.published)

    # -- checking -----------------------------------------------------------------------------
    def schedule(self, targets: list[Target]) -> None:
        if not targets:
            return
        loop = asyncio.get_running_loop()
        rest = {t: None for t in self.checks.pending if t not in targets}
        self.checks.pending = {**dict.fromkeys(targets), **rest}
        self._last_change = loop.time()
        if self._wake is None or self._idle is None:
            self._wake, self._idle = asyncio.Event(), asyncio.Event()
        self._idle.clear()
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._checker())

    async def _checker(self) -> None:
        """Check the waiting rule sets, one at a time, once the editor is quiet."""
        assert self._wake is not None and self._idle is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while (delay := self._last_change + DEBOUNCE - loop.time()) > 0:
                await asyncio.sleep(delay)  # a newer change: wait for quiet again
            while self.checks.pending and loop.time() - self._last_change >= DEBOUNCE:
                await self._check_next(loop)
            if not self.checks.pending:
                self._idle.set()
            else:
                self._wake.set()  # the editor was busy again: let it settle first

    async def _check_next(self, loop: asyncio.AbstractEventLoop) -> None:
        target = next(iter(self.checks.pending))
        del self.checks.pending[target]
        self.checks.running = target
        try:
            outcome = await loop.run_in_executor(self.executor, check_target, target, self.overlay())
            if target not in self.checks.pending and target in self.active():
                self.publish(outcome)  # (else changed again meanwhile, a newer check waits; or closed)
        except Exception:  # noqa: BLE001 (logged: no error stops the server)
            self.failed(f"checking {target.name}")
        finally:
            self.checks.running = None

    def publish(self, outcome: Outcome) -> None:
        old = self.checks.results.get(outcome.target)
        self.checks.results[outcome.target] = outcome
        if outcome.compiled is not None:
            self.checks.good[outcome.target] = Knowledge(outcome.compiled, Vocabulary.of(outcome.compiled))
        uris = {self.uri_of(p) for p in outcome.by_file if p is not None}
        if old is not None:
            uris |= {self.uri_of(p) for p in old.by_file if p is not None}
        uris |= {uri for uri, ts in self.doc_targets.items() if outcome.target in ts}
        self.republish(uris)

    def uri_of(self, path: Path) -> str:
        return self.open_paths().get(path) or from_fs_path(str(path)) or path.as_uri()

    def republish(self, uris: set[str]) -> None:
        """Send each file's diagnostics (the union over the open rule sets), where they changed."""
        wanted: dict[str, list[lsp.Diagnostic]] = {uri: [] for uri in uris}
        keys: dict[str, set[tuple[Any, ...]]] = {uri: set() for uri in uris}
        for target in self.active():
            outcome = self.checks.results.get(target)
            if outcome is None:
                continue
            for path, diags in outcome.by_file.items():
                if path is None:  # no place in a file: said on the documents of that rule set
                    places = [u for u, ts in self.doc_targets.items() if target in ts]
                    index = None
                else:
                    places = [self.uri_of(path)]
                    index = self.index(path)
                for uri in places:
                    if uri not in wanted:
                        continue
                    for d in diags:
                        item = to_lsp(d, index, f"nidavellir ({target.name})")
                        key = (item.range.start.line, item.range.start.character, item.message, item.severity)
                        if key not in keys[uri]:
                            keys[uri].add(key)
                            wanted[uri].append(item)
        for uri, items in wanted.items():
            if uri in self.checks.published and self.checks.published[uri] == items:
                continue
            self.checks.published[uri] = items
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=items))

    # -- what hover and completion read -------------------------------------------------------
    async def knowledge(self, uri: str) -> Knowledge:
        """The compiled rules of the document's rule sets (waiting for a first check), or else
        of another open rule set, or else of the shipped rules with every box."""
        targets = self.doc_targets.get(uri, [])
        busy = bool(self.checks.pending) or self.checks.running is not None
        if targets and busy and not any(t in self.checks.good for t in targets) and self._idle is not None:
            try:
                await asyncio.wait_for(self._idle.wait(), WAIT)
            except asyncio.TimeoutError:
                pass
        for t in targets + list(self.checks.good):
            if t in self.checks.good:
                return self.checks.good[t]
        return await self.shipped()

    async def shipped(self) -> Knowledge:
        """The shipped rules with every box (compiled once)."""
        if self._fallback is None:
            compiled = await asyncio.get_running_loop().run_in_executor(self.executor, _shipped)
            self._fallback = Knowledge(compiled, Vocabulary.of(compiled))
        return self._fallback

    async def facts(self, known: Knowledge) -> HoverFacts:
        if known.facts is None:
            try:
                views = await asyncio.get_running_loop().run_in_executor(self.executor, _views, known.compiled,
                                                                         self.lang)
            except Exception:  # noqa: BLE001 the card's facts without the reference's text, said in the log
                self.failed("rendering the rule text of the cards")
                views = {}
            known.facts = HoverFacts(known.compiled, known.vocabulary, views)
        return known.facts

    async def hover(self, params: lsp.HoverParams) -> lsp.Hover | None:
        uri = params.text_document.uri
        text = self.text_of(uri, "hover")
        if text is None:
            return None
        index = TextIndex(text, self.encoding())
        at = index.from_lsp(params.position.line, params.position.character)
        known = await self.knowledge(uri)
        facts = await self.facts(known)
        span = word_at(text, at)
        as_class = bool(span and _CLASS_PLACE.search(text[max(0, span[0] - 40):span[0]]))
        value = name_markdown(facts, text[span[0]:span[1]], as_class) if span else None
        if value is None and span:  # a card this rule set lacks (removed, or of another box)
            shipped = await self.facts(await self.shipped())
            value = name_markdown(shipped, text[span[0]:span[1]])
            if value is not None:
                gone = text[span[0]:span[1]] in known.compiled.merged.removed
                value = ("*Removed by a layer of this rule set.*" if gone else
                         "*Not in this rule set: as the shipped rules define it.*") + "\n\n" + value
        if value is None:
            cid = card_entry_at(text, at)
            value = name_markdown(facts, cid) if cid else None
            span = None
        if value is None:
            return None
        rng = lsp.Range(lsp.Position(*index.to_lsp(span[0])), lsp.Position(*index.to_lsp(span[1]))) if span else None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=value), range=rng)

    async def completion(self, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        uri = params.text_document.uri
        text = self.text_of(uri, "completion")
        if text is None:
            return None
        index = TextIndex(text, self.encoding())
        at = index.from_lsp(params.position.line, params.position.character)
        line = index.to_lsp(at)[0]  # (a position past the end: the last line's end)
        lines = [index.line_text(k) for k in range(line + 1)]
        where = spot(lines, line, at - index.from_lsp(line, 0))
        if where is None:
            return None
        known = await self.knowledge(uri)
        vocabulary = replace(known.vocabulary, cards=dict(known.vocabulary.cards))
        vocabulary.add_cards(_cards_of(text))
        ctx = params.context
        triggered = ctx is not None and ctx.trigger_kind == lsp.CompletionTriggerKind.TriggerCharacter
        items = complete(vocabulary, where, triggered)
        start = lsp.Position(*index.to_lsp(at - len(where.prefix)))
        end = lsp.Position(*index.to_lsp(at))
        return lsp.CompletionList(is_incomplete=False, items=[_item(i, start, end) for i in items])


def _item(i: Item, start: lsp.Position, end: lsp.Position) -> lsp.CompletionItem:
    return lsp.CompletionItem(label=i.label, kind=_KINDS.get(i.what), detail=i.detail, sort_text=f"{i.rank:07d}",
                              filter_text=i.label, text_edit=lsp.TextEdit(lsp.Range(start, end), i.label))


# where a name is a class (`class: hunter`, `column hunter`, `is hunter`, `ranks(hunter)`), not a card
_CLASS_PLACE = re.compile(r"(?:\bclass[ \t]*:[ \t]*[\"']?|\b(?:column|is)[ \t]+|\([ \t]*)\Z")
_CARD_ID = re.compile(r"^[ \t]*-[ \t]+id[ \t]*:[ \t]*[\"']?([a-z0-9]+(?:[-:][a-z0-9]+)*)", re.MULTILINE)


def _cards_of(text: str) -> dict[str, str]:
    """The card ids a document defines (`- id: x` entries), for completing what is not compiled yet."""
    return {m.group(1): "defined in this file" for m in _CARD_ID.finditer(text)}


def one_line(message: str) -> str:
    """A logged message as one line for stderr: its first line, and for a traceback the exception
    it ends with."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if len(lines) > 1 and lines[1].startswith("Traceback"):
        return f"{lines[0]} {lines[-1]}"
    return " ".join(lines)


def disk_text(path: Path) -> tuple[str | None, str]:
    """A file's text on disk, or None and why not: read through the one path judge
    (compiler/paths.py: a pipe or device is never opened), at most MAX_FILE_BYTES, as UTF-8."""
    try:
        raw = read_bytes(path, limit=MAX_FILE_BYTES)
    except PathProblem as err:
        return None, err.message
    try:
        return raw.decode("utf-8"), ""
    except UnicodeDecodeError as err:
        return None, f"not UTF-8 text (byte {raw[err.start]:#04x} at {err.start})"


def _named(uri: str) -> Path | None:
    """The path a file: URI names, as named (not resolved)."""
    if not uri.startswith("file:"):
        return None
    fs = to_fs_path(uri)
    return Path(fs) if fs is not None else None


def _path_of(uri: str) -> Path | None:
    """The path a file: URI names, resolved (the key of the open documents and of the overlay)."""
    fs = _named(uri)
    if fs is None:
        return None
    try:
        return fs.resolve()
    except (OSError, RuntimeError):
        return fs
    except ValueError:  # a NUL, or a name the file system cannot encode: no file
        return None


def _shipped() -> Compiled:
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.sources import written_expansions

    return compile_specs(layer_specs(written_expansions()))


def _views(compiled: Compiled, lang: str) -> dict[str, Any]:
    from nidavellir.compiler.docs import card_views, load_catalog

    return {v["id"]: v for v in card_views(compiled, load_catalog(lang))}


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("nidavellir")
    except Exception:  # noqa: BLE001 (not installed: a version is only shown)
        return "0"


def build() -> RulesServer:
    """The server with its features registered."""
    server = RulesServer()

    def guard(what: str, handler: Callable[..., Any], request: bool = False) -> Callable[..., Any]:
        """The handler, its unexpected exception logged with its traceback (window/logMessage)
        and, in a request, answered as an internal error."""
        def failed(ls: RulesServer, error: Exception) -> None:
            ls.failed(what)
            if request:
                raise HandlerFailed(f"{what} failed: {type(error).__name__}: {error}") from error

        if inspect.iscoroutinefunction(handler):
            async def run_async(ls: RulesServer, params: Any) -> Any:
                try:
                    return await handler(ls, params)
                except Exception as error:  # noqa: BLE001 (logged, answered: no error stops the server)
                    return failed(ls, error)
            return run_async

        def run(ls: RulesServer, params: Any) -> Any:
            try:
                return handler(ls, params)
            except Exception as error:  # noqa: BLE001 (logged, answered: no error stops the server)
                return failed(ls, error)
        return run

    def initialize(ls: RulesServer, params: lsp.InitializeParams) -> None:
        root = params.root_uri or (params.workspace_folders[0].uri if params.workspace_folders else None)
        root_path = _path_of(root) if root else None
        options = params.initialization_options
        if not isinstance(options, dict):
            if options is not None:
                ls.log("nidavellir lsp: initializationOptions should be an object: ignored", lsp.MessageType.Warning)
            options = {}
        boxes = options.get("expansions")  # (none given: a variant's `requires` chooses, as in `check`)
        if isinstance(boxes, str):
            boxes = boxes.split(",")
        if boxes is not None and (not isinstance(boxes, list) or not all(isinstance(b, str) for b in boxes)):
            ls.log("nidavellir lsp: initializationOptions.expansions should be a list of box names: ignored",
                   lsp.MessageType.Warning)
            boxes = None
        ls.classifier = Classifier(ls.read, root_path or Path.cwd(),
                                   None if boxes is None else tuple(b.strip() for b in boxes))
        lang = str(options.get("lang") or params.locale or "en").split("-")[0].lower()
        ls.lang = lang if lang in ("en", "be") else "en"

    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.document_changed(params.text_document.uri)

    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.document_changed(params.text_document.uri)

    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.document_changed(params.text_document.uri)

    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.document_closed(params.text_document.uri)

    def watched(ls: RulesServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = _path_of(change.uri)
            if path is not None and path not in ls.open_paths():
                for uri in [u for u, p in ((u, _path_of(u)) for u in ls.doc_targets) if p and p.parent == path.parent]:
                    ls.document_changed(uri)  # a file of its folder came or went
                ls.file_changed(path)

    def shutdown(ls: RulesServer, *args: Any) -> None:
        ls.shut_down = True

    async def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return await ls.hover(params)

    async def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        return await ls.completion(params)

    server.feature(lsp.INITIALIZE)(guard("initialize", initialize, request=True))
    server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)(guard("didOpen", did_open))
    server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)(guard("didChange", did_change))
    server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)(guard("didSave", did_save))
    server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(guard("didClose", did_close))
    server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)(guard("didChangeWatchedFiles", watched))
    server.feature(lsp.SHUTDOWN)(guard("shutdown", shutdown, request=True))
    server.feature(lsp.TEXT_DOCUMENT_HOVER)(guard("hover", hover, request=True))
    server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=TRIGGERS))(
        guard("completion", completion, request=True))
    return server
