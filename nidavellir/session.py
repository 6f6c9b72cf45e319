"""Playing and replaying games: bots, the terminal seat and the decision log.

The log is JSON lines: per game a header `{"nidavellir_log": 2, "seed", "players", "expansions",
"variants", "variant_files", "rules", "seats"}`, then one line per decision `{"p", "kind", "answer",
"age", "turn"}` (`p` is the deciding seat, from 0). `variants` are the variant paths as given;
`variant_files` adds, for each, its absolute path, its path from the log's folder and the SHA-256
of its bytes, so that a log replays from another folder. On replay only `answer` is required of a decision line; `p`, `kind`,
`age` and `turn`, when present, must agree with the decision the game asks for.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from nidavellir.compiler.sources import EXPANSIONS
from nidavellir.errors import NidavellirError, shown_value, unprintable
from nidavellir.interface.numbers import MAX_SEED, NumberError, is_seed, json_loads
from nidavellir.rulesets import load_rules
from nidavellir.runtime.bots import make_bot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import Observer
from nidavellir.runtime.position import position_of
from nidavellir.runtime.position_check import is_int
from nidavellir.runtime.rules import Rules
from nidavellir.runtime.streams import bot_seed

LOG_VERSION = 2  # 2: the seed deals by a random stream per source (runtime/streams.py); 1 dealt otherwise
MAX_ANSWER_DEPTH = 16   # an answer is at most a list of objects; deeper is not an answer


class Session:
    """The rules a run plays with, and how they were chosen (for logs and results)."""

    def __init__(self, rules: Rules, expansions: tuple[str, ...], variants: tuple[str, ...]):
        self.rules, self.expansions, self.variants = rules, expansions, variants

    def describe(self) -> str:
        text = " + ".join(["base", *self.expansions])
        if self.variants:
            text += "; variants: " + ", ".join(self.rules.variant_ids)
        return text


def play_game(session: Session, players: int, seed: int, bots: list[str], human: int | None,
              log: TextIO | None, prompts: TextIO | None = None,
              resume: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Play one game; seat `human` (1-based) at the terminal, which writes to `prompts` (default
    stdout; `play --json` gives stderr, so that stdout holds only the JSON lines). `resume`: the
    decisions a log already holds, answered first (each bot still chooses, so that it goes on as it
    would have; the log gets only the decisions after them, and no second header)."""
    names = [f"P{i + 1}" for i in range(players)]
    if human is not None:
        names[human - 1] = "You"
    game = Game(session.rules, names, seed, journal=human is not None)  # (the seat tells what happened)
    seats = [make_bot(bots[i % len(bots)], bot_seed(seed, i)) for i in range(players)]
    terminal = None
    if human is not None:
        from .terminal import TerminalSeat
        terminal = TerminalSeat(sys.stdin, prompts or sys.stdout)
        seats[human - 1] = terminal
    seat_names = [("human" if human == i + 1 else bots[i % len(bots)]) for i in range(players)]
    if log and resume is None:
        log.write(json.dumps({"nidavellir_log": LOG_VERSION, "seed": seed, "players": names,
                              "expansions": list(session.expansions), "variants": list(session.variants),
                              "variant_files": [variant_record(v, _file_name(log)) for v in session.variants],
                              "rules": session.rules.content_hash,
                              "seats": seat_names})
                  + "\n")
    observer = Observer(game)  # what each seat may know, and what happened since its last decision
    logged = list(resume or ())
    while game.pending is not None:
        d = game.pending
        if logged:  # (a resumed game: the log's answer, each bot's choice made again for its state)
            obs = observer.observe()
            if seats[d.player] is not terminal:
                seats[d.player].choose(obs)
            problem = _answer(game, logged.pop(0))
            if problem is not None:
                raise NidavellirError(f"the log does not resume: {problem}")
            continue
        game.answer(seats[d.player].choose(observer.observe()))
        if log:
            entry = game.log[-1]
            log.write(json.dumps({"p": entry["player"], "kind": entry["kind"], "answer": entry["answer"],
                                  "age": entry["age"], "turn": entry["turn"]}, separators=(",", ":")) + "\n")
    if terminal is not None and human is not None:
        terminal.finish(observer.since(human - 1), game.rules, game.engine.names)
    return result_of(game, seed, seat_names)


@dataclass
class Resumable:
    """The game a log stopped in the middle of (its last): what `play --resume` needs to go on."""
    header: dict[str, Any]
    decisions: list[dict[str, Any]]
    rules: Rules
    human: int            # the seat played at the terminal (1-based)


def resumable(path: str, data: bytes) -> Resumable:
    """The last game of a log, if it stopped before its end at a terminal player's decision; else a
    NidavellirError saying why not (the log's own problems, located, as `replay` reports them)."""
    games = list(replay_log(path, data.splitlines()))
    last = games[-1]
    problems = [p for g in games for p in g.problems if not (g is last and last.unfinished and p is g.problems[-1])]
    if problems:
        raise NidavellirError("\n".join(p.format(path) for p in problems))
    if not last.unfinished or last.game is None:
        raise NidavellirError(f"{path}: its last game has ended, nothing to resume (`nidavellir replay {path}` "
                              "shows its scores)")
    lines = data.splitlines()[last.line - 1:]
    header = json.loads(lines[0])
    decisions = [json.loads(x) for x in lines[1:] if x.strip()]
    seats = header.get("seats")
    if not isinstance(seats, list) or "human" not in seats:
        raise NidavellirError(f"{path}:{last.line}: this game has no seat played at the terminal (`seats` names "
                              "no \"human\"): `nidavellir replay` shows a game of bots")
    return Resumable(header, decisions, last.game.rules, seats.index("human") + 1)


def variant_record(variant: str, log_path: str | None = None) -> dict[str, str]:
    """A variant as the log header keeps it: the path as given, absolute, relative to the log's
    folder (`from_log`, when the log is a file) and the SHA-256 of its bytes."""
    path = Path(variant)
    try:
        record = {"given": variant, "path": str(path.resolve()),
                  "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    except (OSError, ValueError, RuntimeError):  # not a file (e.g. a shipped variant's id)
        return {"given": variant}
    if log_path:
        try:
            record["from_log"] = os.path.relpath(record["path"], Path(log_path).resolve().parent)
        except (OSError, ValueError):  # (another drive)
            pass
    return record


def _file_name(stream: TextIO) -> str | None:
    name = getattr(stream, "name", None)
    return name if isinstance(name, str) and not name.startswith("<") else None


def result_of(game: Game, seed: int, bots: list[str] | None = None) -> dict[str, Any]:
    """A game's result as `play --json` writes it (DESIGN §8): seed, scores, the seats' bots, the
    boxes and variants played, and the final position."""
    scores = game.scores()
    final = position_of(game.engine)
    layers = game.engine.rules.ruleset.layers
    return {"seed": seed, "players": scores["players"], "winners": scores["winners"], "bots": list(bots or []),
            "expansions": [layer.id for layer in layers[1:] if not layer.variant and layer.id in EXPANSIONS],
            "variants": [layer.id for layer in layers if layer.variant], "final": final}


# -- replay ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogProblem:
    """A problem of a log line: `path:LINE: error: message`, a hint, and located details (a
    variant's own errors)."""
    line: int | None
    message: str
    hint: str | None = None
    detail: str = ""

    def format(self, path: str) -> str:
        where = f"{path}:{self.line}" if self.line is not None else path
        out = [f"{where}: error: {self.message}"]
        if self.hint:
            out.append(f"  hint: {self.hint}")
        if self.detail:
            out.append(self.detail)
        return "\n".join(out)


@dataclass
class Replayed:
    """One game of a log (from its header line): its result, or the problems that stopped it."""
    line: int
    result: dict[str, Any] | None = None
    problems: list[LogProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    game: Game | None = None    # the game replayed (as far as it went), with its journal if asked for
    unfinished: bool = False    # the log ends before the game does (its last problem says so)


def replay_log(path: str, lines: Iterable[str | bytes], journal: bool = False) -> Iterator[Replayed]:
    """Replay every game of a log; a game with a problem is reported and skipped to the next header.
    With `journal`, each game keeps its journal (runtime/journal.py), for `replay --verbose`."""
    replay = _Replay(path, journal)
    for number, raw in enumerate(lines, 1):
        yield from replay.line(number, raw)
    yield from replay.end()


class _Replay:
    def __init__(self, path: str, journal: bool = False):
        self.path = path
        self.journal = journal
        self.game: Game | None = None
        self.current: Replayed | None = None     # the game being replayed
        self.skipping = False                    # after a problem: until the next header
        self.seats: list[str] = []               # the current game's seats, from its header
        self.last = 0                            # the last non-blank line
        self.reported = False

    def line(self, number: int, raw: str | bytes) -> Iterator[Replayed]:
        text, problem = _decode(raw, number)
        entry: Any = None
        if text is not None:
            if not text.strip():
                return
            entry, problem = _parse(text)
        if isinstance(entry, dict) and "nidavellir_log" in entry:
            yield from self.finish()
            self.last = number
            yield from self.header(number, entry)
            return
        self.last = number
        if problem is None and not isinstance(entry, dict):
            problem = "a log line is a JSON object: a header, or a decision with `answer`"
        if self.skipping:
            return
        if self.game is None or self.current is None:
            yield self.failed(Replayed(number), LogProblem(number, problem) if problem else LogProblem(
                number, "a log starts with a header line", "a header has `nidavellir_log`"))
            return
        problem = problem or _answer(self.game, entry)
        if problem is not None:
            yield self.failed(self.current, LogProblem(number, problem))

    def failed(self, game: Replayed, problem: LogProblem) -> Replayed:
        game.problems.append(problem)
        self.game, self.current, self.skipping, self.reported = None, None, True, True
        return game

    def header(self, number: int, entry: dict[str, Any]) -> Iterator[Replayed]:
        self.skipping = False
        replayed = Replayed(number)
        game = _start(self.path, number, entry, replayed, self.journal)
        if game is None:
            self.reported, self.skipping = True, True
            yield replayed
        else:
            self.game, self.current = game, replayed
            replayed.game = game
        seats = entry.get("seats")
        self.seats = [str(x) for x in seats] if isinstance(seats, list) else []

    def finish(self) -> Iterator[Replayed]:
        game, current = self.game, self.current
        if game is None or current is None:
            return
        self.game, self.current, self.reported = None, None, True
        d = game.pending
        if d is not None:
            s = game.engine.s
            current.problems.append(LogProblem(
                self.last, f"the log ends before the game does: {game.engine.names[d.player]} was to answer "
                           f"`{d.kind}` (age {s.age}, turn {s.turn})", "a truncated log: was the game abandoned? "
                           "(`nidavellir play --resume LOG` continues a game you left)"))
            current.unfinished = True
        else:
            current.result = result_of(game, game.seed, self.seats)
        yield current

    def end(self) -> Iterator[Replayed]:
        yield from self.finish()
        if not self.reported:
            yield Replayed(1, problems=[LogProblem(1, "empty log: no header line",
                                                   "a log is written by `nidavellir play --log FILE`")])


def _decode(raw: str | bytes, number: int) -> tuple[str | None, str | None]:
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            column = len(raw[:err.start].decode("utf-8")) + 1  # characters, as every column counts
            return None, f"not valid UTF-8 (byte 0x{raw[err.start]:02x} at column {column})"
    return (text.removeprefix("\ufeff") if number == 1 else text), None


def _parse(text: str) -> tuple[Any, str | None]:
    """A log line's JSON, every number read by the bounded parser (compiler/numbers.py)."""
    try:
        return json_loads(text), None
    except json.JSONDecodeError as err:
        return None, f"not a JSON line: {err.msg} (column {err.colno})"
    except NumberError as err:
        return None, f"not a JSON line: {err.message}"
    except RecursionError:
        return None, "not a JSON line: nested too deeply"
    except ValueError as err:  # (no other is known: the bounded parser refuses long numbers first)
        return None, "not a JSON line: " + str(err)[:80]


def _start(path: str, number: int, entry: dict[str, Any], replayed: Replayed, journal: bool = False) -> Game | None:
    """The game a header line starts, or None with its problems in `replayed`."""
    bad = _Problems(number, replayed.problems)
    version = entry["nidavellir_log"]
    if not is_int(version) or version < 1:
        bad(f"`nidavellir_log` is the log format version, a positive integer, not {shown_value(version)}")
    elif version > LOG_VERSION:
        bad(f"this log is of format {version}, newer than this program reads ({LOG_VERSION})",
            "replay it with the program that wrote it")
    elif version < LOG_VERSION:
        bad(f"this log is of format {version}: its seed dealt the game from one random stream, as nidavellir "
            "did before every deck, the gems and each bot drew from a stream of their own (format 2); here "
            "it would deal another game", "replay it with the program that wrote it")
    seed = entry.get("seed")
    if not is_int(seed):
        bad(f"the header's `seed` must be an integer, not {shown_value(seed)}" if "seed" in entry
            else "the header has no `seed`")
    elif not is_seed(seed):
        bad(f"the header's `seed` {seed} is past the bound of a seed, −10^12 to 10^12 ({MAX_SEED:,}): no game "
            "nidavellir plays has it", "a log is written by `nidavellir play --log FILE`")
    names = _names(entry.get("players"), bad)
    expansions = _strings(entry.get("expansions", []), "expansions", bad)
    variants = _strings(entry.get("variants", []), "variants", bad)
    known = expansions is not None and _boxes_written(expansions, bad)
    rules = None
    if known and expansions is not None and variants is not None:
        rules = _rules(path, number, expansions, variants, entry, bad, replayed.notes)
    if rules is not None and names is not None and not rules.allows(len(names)):
        bad(f"these rules play with {rules.min_players} to {rules.max_players} players; the header names {len(names)}")
    if replayed.problems or rules is None or names is None or not is_seed(seed):
        return None
    try:
        return Game(rules, names, seed, journal=journal)
    except NidavellirError as err:
        bad(f"the game cannot start: {err}")
        return None


class _Problems:
    """Collects the problems of one log line."""

    def __init__(self, number: int, out: list[LogProblem]):
        self.number, self.out = number, out

    def __call__(self, message: str, hint: str | None = None, detail: str = "") -> None:
        self.out.append(LogProblem(self.number, message, hint, detail))


def _names(value: Any, bad: _Problems) -> list[str] | None:
    if not isinstance(value, list) or not value:
        bad(f"the header's `players` must be a list of names, not {shown_value(value)}")
        return None
    ok = True
    seen: set[str] = set()
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            bad(f"player {i + 1}'s name must be a non-empty string, not {shown_value(name)}")
            ok = False
        elif any(unprintable(ch) for ch in name):
            bad(f"player {i + 1}'s name holds control characters: {shown_value(name)}")
            ok = False
        elif name in seen:
            bad(f"two players are named {shown_value(name)}", "each player has their own name")
            ok = False
        else:
            seen.add(name)
    return list(value) if ok else None


def _strings(value: Any, key: str, bad: _Problems) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    bad(f"the header's `{key}` must be a list of strings, not {shown_value(value)}")
    return None


def _boxes_written(expansions: list[str], bad: _Problems) -> bool:
    """Whether each expansion the header names is a box whose rules are written (else said why)."""
    from nidavellir.compiler.diagnostics import RulesError
    from nidavellir.compiler.sources import validate_expansions

    ok = True
    for name in expansions:
        try:
            validate_expansions((name,))
        except RulesError as err:
            bad("; ".join(d.message for d in err.diagnostics))
            ok = False
    return ok


def _rules(path: str, number: int, expansions: list[str], variants: list[str], entry: dict[str, Any],
           bad: _Problems, notes: list[str]) -> Rules | None:
    from nidavellir.compiler.diagnostics import RulesError
    from nidavellir.compiler.sources import layer_specs, shipped_variants, source_hash, variant_specs

    records = entry.get("variant_files")
    records = records if isinstance(records, list) else []
    found = [_variant_file(path, number, v, records[i] if i < len(records) else None, notes)
             for i, v in enumerate(variants)]
    try:
        rules = load_rules(tuple(expansions), tuple(found))
    except RulesError as err:
        missing = [v for v, f in zip(variants, found) if not _is_file(Path(f)) and f not in shipped_variants()]
        hint = ("not found as given, at the absolute path the log recorded, nor next to the log: "
                + ", ".join(missing)) if missing else None
        bad("the rules of this log do not load", hint, str(err))
        return None
    # The hash the log's rules had: the same sources, named as the log named them (a shipped
    # variant by its id is the shipped file, as when it was played).
    specs = layer_specs(tuple(expansions)) + variant_specs(variants, found)
    if source_hash(specs) != entry.get("rules"):
        notes.append(f"{path}:{number}: note: the rules changed since this log was written; the replay may differ")
    return rules


def _variant_file(path: str, number: int, given: str, record: Any, notes: list[str]) -> str:
    """Where a header's variant is read from: as given (from the current folder), else its recorded
    absolute path, else next to the log; a file whose hash the log recorded is preferred."""
    record = record if isinstance(record, dict) and record.get("given") == given else {}
    candidates = [("as given", Path(given))]
    if isinstance(record.get("path"), str):
        candidates.append(("its absolute path when the log was written", Path(record["path"])))
    if not Path(given).is_absolute():
        candidates.append(("next to the log", Path(path).parent / given))
    if isinstance(record.get("from_log"), str):
        candidates.append(("where it was from the log", Path(path).parent / record["from_log"]))
    existing = [(how, p) for how, p in candidates if _is_file(p)]
    if not existing:
        return given  # load_rules says what is wrong (or it is a shipped variant's id)
    digest = record.get("sha256")
    matching = [c for c in existing if not isinstance(digest, str) or _sha256(c[1]) == digest]
    how, chosen = (matching or existing)[0]
    if isinstance(digest, str) and not matching:
        notes.append(f"{path}:{number}: note: the variant `{given}` changed since the log was written")
    if chosen != candidates[0][1]:
        notes.append(f"{path}:{number}: note: the variant `{given}` is not found from the current folder; "
                     f"using {chosen} ({how})")
    return str(chosen)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _answer(game: Game, entry: dict[str, Any]) -> str | None:
    """Answer the pending decision with a decision line; the problem if it does not fit."""
    if "answer" not in entry:
        return "a decision line needs `answer`"
    d = game.pending
    if d is None:
        return "the game is already over: this line answers nothing"
    s = game.engine.s
    expected: dict[str, Any] = {"p": d.player, "kind": d.kind, "age": s.age, "turn": s.turn}
    said, asked = [], []
    for key, want in expected.items():
        if key not in entry:
            continue
        got = entry[key]
        if (key == "kind" and not isinstance(got, str)) or (key != "kind" and not is_int(got)):
            return f"`{key}` must be {'a string' if key == 'kind' else 'an integer'}, not {shown_value(got)}"
        if got != want:
            said.append(f"{key} {shown_value(got)}")
            asked.append(f"{key} {shown_value(want)}")
    if said:
        return (f"this line does not match the game: it says {', '.join(said)}, but the game asks for "
                f"{', '.join(asked)} ({game.engine.names[d.player]} to answer `{d.kind}`)")
    if _depth(entry["answer"]) > MAX_ANSWER_DEPTH:
        return f"the answer is nested more than {MAX_ANSWER_DEPTH} levels deep: not an answer"
    try:
        game.answer(entry["answer"])
    except NidavellirError as err:
        return str(err)
    return None


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a JSON value (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, depth)
            if depth <= MAX_ANSWER_DEPTH:
                stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest
