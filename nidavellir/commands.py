"""What each `nidavellir` subcommand does; cli.py only parses arguments."""
from __future__ import annotations

import argparse
import io
import json
import shlex
import sys
from collections.abc import Callable
from contextlib import nullcontext
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from nidavellir.compiler.diagnostics import (
    Diagnostic,
    Diagnostics,
    RulesError,
    paint,
)
from nidavellir.errors import CommandError, RulesRuntimeError, visible
from nidavellir.rulesets import load_rules

from .arguments import boxes_of, output_folder, required_boxes
from .arguments import stderr_colour as _colour
from .counts import counted
from .progress import Progress, is_terminal
from .session import Session, play_game
from .table import Tally, score_table

if TYPE_CHECKING:
    from nidavellir.compiler.docs.text import Catalog
    from nidavellir.compiler.sources import Spec
    from nidavellir.compiler.yamlload import Loaded
    from nidavellir.runtime.game import Game
    from nidavellir.runtime.rules import Rules
    from nidavellir.runtime.scoring import Scores


def play(args: argparse.Namespace) -> int:
    """Play the games; with more than one, a summary at the end (after the tables on stdout, or with
    --json on stderr when it is a terminal) and, on a terminal, their progress on stderr. A player
    who leaves (`q`) is told how to resume; --resume LOG continues that game."""
    from .terminal import SeatLeft

    if args.resume is not None:
        return _resume(args)
    bots = list(args.bots)
    boxes = boxes_of(args, args.variant)
    rules = load_rules(boxes, tuple(args.variant))
    colour = _colour(args)
    for warning in rules.warnings:  # legal, likely not meant: said once, the games still play
        print(paint(warning) if colour else warning, file=sys.stderr)
    lo, hi = rules.min_players, rules.max_players
    if not lo <= args.players <= hi:
        raise CommandError(f"--players must be between {lo} and {hi}")
    if args.human is not None and not 1 <= args.human <= args.players:
        raise CommandError(f"--human must name a seat from 1 to {args.players}")
    session = Session(rules, boxes, tuple(args.variant))
    about = f"{args.players} players, {session.describe()}"
    terminal = is_terminal(sys.stderr)
    shown = terminal and args.games > 1 and args.human is None
    shared_screen = shown and is_terminal(sys.stdout)  # tables and progress on one terminal
    tally = Tally()
    log = _open(args.log) if args.log else None
    kept = io.StringIO() if log is None and args.human is not None else None  # (kept for a player who leaves)
    try:
        with Progress(args.games, sys.stderr) if shown else nullcontext() as progress:
            for i in range(args.games):
                seed = args.seed + i
                try:
                    result = play_game(session, args.players, seed, bots, args.human, log or kept,
                                       prompts=sys.stderr if args.json else None)  # (--json: stdout is JSON only)
                except SeatLeft:
                    return _left(args.log, kept, seed)
                if kept is not None:
                    kept.seek(0)
                    kept.truncate()
                tally.add(result)
                if progress is not None and shared_screen:
                    progress.clear()
                if args.json:
                    print(json.dumps(result, separators=(",", ":")), flush=True)
                else:
                    print(score_table(result, f"Game seed {seed}: {about}"), flush=True)
                if progress is not None:
                    progress.update(i + 1)
    finally:
        if log:
            log.close()
    if args.games > 1:
        summary = tally.table(f"Summary of {args.games} games (seeds {args.seed} to {args.seed + args.games - 1}): "
                              f"{about}")
        if not args.json:
            print(summary, end="", flush=True)
        elif terminal:
            print(summary, end="", file=sys.stderr, flush=True)
    return 0


def _left(path: str | None, kept: io.StringIO | None, seed: int) -> int:
    """A player left (`q`): the game's log is where --log wrote it, or written now to a new file of
    the current folder; say how to resume it."""
    if path is None:
        path = f"nidavellir-seed-{seed}.log"
        n = 1
        while Path(path).exists():
            n += 1
            path = f"nidavellir-seed-{seed}-{n}.log"
        try:
            Path(path).write_text(kept.getvalue() if kept is not None else "", encoding="utf-8")
        except OSError as err:
            raise CommandError(f"you left the game, and its log cannot be written to {path}: {err.strerror}") from None
    print(f"You left the game. Its decisions so far are in {visible(path)}.\nTo continue it:\n"
          f"  nidavellir play --resume {shlex.quote(path)}", file=sys.stderr)
    return 0


def _resume(args: argparse.Namespace) -> int:
    """`play --resume LOG`: the log's last game, replayed to where it stopped, goes on at the terminal,
    the rest of its decisions appended to LOG; its score table printed as `play` prints one."""
    from nidavellir.compiler.paths import PathProblem, read_bytes

    from .session import resumable
    from .terminal import SeatLeft

    given = [flag for flag in ("--variant", "--expansions", "--human", "--log") if getattr(args, flag[2:])]
    if given or args.games != 1:
        raise CommandError(f"--resume takes the rules, seed, players and bots from the log: leave out "
                           f"{', '.join(given) or '--games'}")
    try:
        data = read_bytes(args.resume)
    except PathProblem as err:
        raise CommandError(f"cannot read {err}") from None
    game = resumable(args.resume, data)
    header = game.header
    session = Session(game.rules, tuple(header.get("expansions", [])), tuple(header.get("variants", [])))
    seats = [str(x) for x in header["seats"]]
    bots = [seat if seat != "human" else "random" for seat in seats]  # (the human seat is the terminal's)
    with _open(args.resume, append=True) as log:
        try:
            result = play_game(session, len(seats), header["seed"], bots, game.human, log,
                               prompts=sys.stderr if args.json else None, resume=game.decisions)
        except SeatLeft:
            return _left(args.resume, None, header["seed"])
    if args.json:
        print(json.dumps(result, separators=(",", ":")), flush=True)
    else:
        print(score_table(result, f"Game seed {header['seed']}: {len(seats)} players, {session.describe()}"),
              flush=True)
    return 0


def league(args: argparse.Namespace) -> int:
    """Play every seating of the bots, G games each (nidavellir/league.py), and print the win-rate
    table (or with --json one JSON object); on a terminal, the progress on stderr."""
    from .league import LeagueError, play_league, seatings

    boxes = boxes_of(args, args.variant)
    rules = load_rules(boxes, tuple(args.variant))
    colour = _colour(args)
    for warning in rules.warnings:
        print(paint(warning) if colour else warning, file=sys.stderr)
    lo, hi = rules.min_players, rules.max_players
    if not lo <= args.players <= hi:
        raise CommandError(f"--players must be between {lo} and {hi}")
    try:
        total = len(seatings(args.bots, args.players)) * args.games
    except LeagueError as err:
        raise CommandError(f"--bots: {err}") from None
    session = Session(rules, boxes, tuple(args.variant))
    with Progress(total, sys.stderr) if is_terminal(sys.stderr) and total > 1 else nullcontext() as progress:
        result = play_league(session, args.bots, args.players, args.games, args.seed,
                             progress.update if progress is not None else None)
    if args.json:
        print(json.dumps(result.to_json(), separators=(",", ":")), flush=True)
    else:
        print(result.table(), end="", flush=True)
    return 0


def simulate(args: argparse.Namespace) -> int:
    """Many games of a variant and what it is compared with (nidavellir/sim/), into --out."""
    from nidavellir.sim.command import simulate as run
    from nidavellir.sim.run import Interrupted

    colour = _colour(args)
    try:
        return run(args, lambda w: print(paint(w) if colour else w, file=sys.stderr))
    except Interrupted as err:
        print(f"\nnidavellir simulate: {err}", file=sys.stderr)
        return 130


def report(args: argparse.Namespace) -> int:
    """A simulation folder's records to its summary and report (nidavellir/sim/)."""
    from nidavellir.sim.command import report as run

    return run(args)


def _open(path: str, append: bool = False) -> TextIO:
    """The `--log` file, opened for writing, or to add to (compiler/paths.py judges the path as every
    command does)."""
    from nidavellir.compiler.paths import output_problem, shown_path

    found = output_problem(path, "file")
    if found is not None:
        raise CommandError(f"cannot write {found}")
    try:
        return open(path, "a" if append else "w", encoding="utf-8")
    except OSError as err:
        raise CommandError(f"cannot write {shown_path(path)}: {_reason(err)}") from None


def _reason(err: OSError) -> str:
    return "permission denied" if isinstance(err, PermissionError) else str(err.strerror or err)


def score(args: argparse.Namespace) -> int:
    """Score each position file (DESIGN §8). A file with problems gets every one of them, located,
    on stderr, and with --json an error line `{"file": PATH, "errors": [...]}` (error_line) in its
    place, so that output lines match the files; exit 1 if any file failed. The variants are compiled
    on the boxes each position lists ("the boxes come from each position's `expansions`"), once per
    box combination (PositionRules)."""
    from nidavellir.compiler.sources import variant_specs

    variants = tuple(args.variant)
    variant_specs(variants)  # a name that is neither a file nor a shipped id: the command's error, said once
    composed = PositionRules(variants)
    shown: dict[int, Diagnostic] = {}  # the rules' diagnostics already on stderr: said once, whichever file needs them
    status = 0
    for path in args.positions:
        diags, result = _score_file(path, composed)
        if result is not None:
            if args.json:
                print(json.dumps(result, separators=(",", ":")), flush=True)
            else:
                print(score_table(dict(result), visible(path)), flush=True)
            continue
        status = 1
        fresh = [d for d in diags.items if id(d) not in shown]
        shown.update((id(d), d) for d in diags.items if d.loc is None or d.loc.path != path)  # (kept: ids stay theirs)
        print("\n".join(d.format(_colour(args)) for d in fresh), file=sys.stderr, flush=True)
        if args.json:
            print(json.dumps(error_line(path, diags.items), separators=(",", ":")), flush=True)
    return status


def error_line(path: str, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """The --json line of a file that failed: `{"file": PATH, "errors": [{"line", "col", "message",
    "hint"}]}` (line and col are null where a problem has no place; hint only where there is one; an
    error located in another file, a variant's, names it under `file`)."""
    errors: list[dict[str, Any]] = []
    for d in diagnostics:
        item: dict[str, Any] = {"line": d.loc.line if d.loc else None, "col": d.loc.col if d.loc else None,
                                "message": d.message}
        if d.loc is not None and d.loc.path != path:
            item = {"file": d.loc.path, **item}
        if d.hint:
            item["hint"] = d.hint
        errors.append(item)
    return {"file": path, "errors": errors}


class PositionRules:
    """The rules a position is scored with: the base game, the boxes it lists and the command's
    variants, compiled once per box combination (a failure too: its diagnostics, located in the
    variant or the box that failed)."""

    def __init__(self, variants: tuple[str, ...]):
        self.variants = variants
        self.done: dict[tuple[str, ...], Rules | RulesError] = {}

    def __call__(self, boxes: tuple[str, ...]) -> Rules | RulesError:
        from nidavellir.compiler.sources import EXPANSIONS

        key = tuple(b for b in EXPANSIONS if b in boxes)
        if key not in self.done:
            try:
                self.done[key] = load_rules(key, self.variants)
            except RulesError as err:
                self.done[key] = err
        return self.done[key]

    def every_box(self) -> Rules | None:
        """The rules of every written box (with the variants), or None if they do not compile."""
        from nidavellir.compiler.sources import written_expansions

        rules = self(written_expansions())
        return None if isinstance(rules, RulesError) else rules


def _score_file(path: str, composed: PositionRules) -> tuple[Diagnostics, Scores | None]:
    """Every problem of one position file, located; or its scores."""
    from nidavellir.compiler.diagnostics import in_file_order
    from nidavellir.compiler.schema import load_schema, validate
    from nidavellir.compiler.yamlload import load_yaml
    from nidavellir.runtime.position import score_position
    from nidavellir.runtime.position_check import check_position

    diags = Diagnostics()
    try:
        loaded = load_yaml(path)
    except RulesError as err:
        diags.extend(err.diagnostics)
        return diags, None
    data = loaded.data
    if not isinstance(data, dict):
        diags.error(loaded.locate(()), "a position is a mapping with `players:`",
                    "see the position format in README.md")
        return diags, None
    validate(loaded, load_schema("position"), diags)
    rules = _position_rules(loaded, composed, diags)
    if rules is not None:
        for problem in check_position(rules, data, _box_of(rules, composed)):
            loc = loaded.locate_key(problem.path) if problem.key else loaded.locate(problem.path)
            diags.error(loc, problem.message, problem.hint)
    if diags or rules is None:
        diags.items = in_file_order(diags.items, [loaded.path])
        return diags, None
    try:
        return diags, score_position(rules, data)
    except RulesRuntimeError as err:  # the rules fail on this position: no place in it, the rules' place in the message
        diags.error(None, str(err))
        return diags, None


def _position_rules(loaded: Loaded, composed: PositionRules, diags: Diagnostics) -> Rules | None:
    """The rules of a position's boxes (its `expansions`; an entry that is not a written box is
    reported, located, and left out), with the variants; if they do not compile, an error at the
    position's `expansions` and the rules' own errors, located where they are written."""
    from nidavellir.compiler.sources import EXPANSIONS, validate_expansions, written_expansions

    listed = loaded.data.get("expansions", [])
    boxes: list[str] = []
    seen: set[str] = set()
    for i, name in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(name, str) or name not in EXPANSIONS or name in seen:
            continue  # the schema says why
        seen.add(name)
        try:
            validate_expansions((name,))
        except RulesError as err:
            diags.error(loaded.locate(("expansions", i)), "; ".join(d.message for d in err.diagnostics))
            continue
        boxes.append(name)
    rules = composed(tuple(boxes))
    if not isinstance(rules, RulesError):
        return rules
    named = " + ".join(["base", *(b for b in EXPANSIONS if b in boxes)])
    variants = composed.variants
    if variants:
        message = (f"the variant{'s' if len(variants) > 1 else ''} {', '.join(f'`{v}`' for v in variants)} "
                   f"do{'' if len(variants) > 1 else 'es'} not compile on the boxes this position lists ({named})")
    else:
        message = f"the rules of the boxes this position lists ({named}) do not compile"
    hint = None
    if variants and len(boxes) < len(written_expansions()) and composed.every_box() is not None:
        hint = (f"with every box ({', '.join(written_expansions())}) {'they compile' if len(variants) > 1 else 'it compiles'}: "
                "list in `expansions` the boxes the position's cards come from")
    diags.error(loaded.locate(("expansions",)) if "expansions" in loaded.data else loaded.locate(()), message, hint)
    diags.extend(rules.diagnostics)
    return None


def _box_of(rules: Rules, composed: PositionRules) -> Callable[[str], str | None] | None:
    """For a card the position's rules lack: the box (not listed) that has it, from the rules of
    every written box (compiled on first use); None when every box is listed."""
    from nidavellir.compiler.sources import written_expansions

    listed = {layer.id for layer in rules.ruleset.layers}
    if set(written_expansions()) <= listed:
        return None

    def box_of(cid: str) -> str | None:
        every = composed.every_box()
        d = every.cards.get(cid) if every is not None else None
        return d.layers[0] if d is not None and d.layers and d.layers[0] not in listed else None
    return box_of


def check(args: argparse.Namespace) -> int:
    """Compile each target (a layer folder or a variant file on the shipped base) and report every
    located error and warning of every target; exit 1 if there was an error (with --strict, a
    warning too)."""
    from itertools import combinations

    from nidavellir.compiler.build import (
        EXPANSIONS,
        compile_specs,
        layer_specs,
        rules_dir,
    )
    from nidavellir.compiler.requires import choose
    from nidavellir.compiler.sources import (
        shipped_variants,
        validate_expansions,
        variant_specs,
    )

    colour = _colour(args)
    variants = variant_specs(args.variant)
    targets: list[tuple[str, list[Spec]]] = []
    given = args.expansions  # (None: not given; the boxes the variants require are loaded)
    boxes = tuple(given or ())
    validate_expansions(boxes)

    def combo(boxes: tuple[str, ...]) -> str:
        return " + ".join(["rules/base", *(f"rules/{b}" for b in EXPANSIONS if b in boxes)])

    if boxes and not args.paths:
        targets.append((combo(boxes), layer_specs(boxes)))
    elif not args.paths:
        written = [name for name in EXPANSIONS if (rules_dir() / name).is_dir()]
        for k in range(len(written) + 1):  # every box combination
            for boxes in combinations(written, k):
                targets.append((combo(boxes), layer_specs(boxes)))
        for v in sorted((rules_dir() / "variants").glob("*.yaml")):  # each in the boxes it requires
            need, _ = choose(None, [(v, f"rules/variants/{v.name}", True)])  # (said in its ok: line)
            named = f"rules/variants/{v.name}" + "".join(f" + rules/{b}" for b in need)
            targets.append((named, layer_specs(need, (str(v),))))
        if variants:  # --variant alone: layered on the shipped base (and the boxes they require)
            need = required_boxes(given, variants, colour)
            targets = [(combo(need), layer_specs(need))]
    for path in args.paths:
        p = Path(path)
        if _is_dir(p) and _is_base(p):
            specs = [(p, path, False)]
        elif not _exists(p) and path in shipped_variants():  # a shipped variant by its id
            own = variant_specs([path])
            specs = layer_specs(required_boxes(given, own + variants, colour), (path,))
        else:  # a folder is a layer, anything else a variant file (load_layer reports a missing path)
            own = [(p, path, not _is_dir(p))]
            specs = layer_specs(required_boxes(given, own + variants, colour)) + own
        targets.append((path, specs))
    errors = warnings = 0
    for name, specs in targets:
        specs = specs + variants
        shown = " + ".join([name] + [v for _, v, _ in variants])
        try:
            compiled = compile_specs(specs)
        except RulesError as err:
            print(err.format(colour), file=sys.stderr)
            errors += sum(d.severity == "error" for d in err.diagnostics)
            warnings += sum(d.severity == "warning" for d in err.diagnostics)
            continue
        for w in compiled.warnings:
            print(w.format(colour), file=sys.stderr)
        warnings += len(compiled.warnings)
        if args.strict and compiled.warnings:  # failed: its warnings are errors (counted once, below)
            continue
        cards, kept = len(compiled.ruleset.cards), len(compiled.ruleset.interpretations)
        print(f"ok: {shown} ({counted(cards, 'card')}, {counted(kept, 'interpretation')})")
    counts = [counted(errors, "error")] if errors else []
    if warnings:
        strict = (" (an error with --strict)" if warnings == 1 else " (errors with --strict)") if args.strict else ""
        counts.append(counted(warnings, "warning") + strict)
    if counts:
        print(", ".join(counts), file=sys.stderr)
    return 1 if errors or (warnings and args.strict) else 0
    return 0


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # reported when the path is loaded
        return True


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # e.g. a name too long: reported when the path is loaded
        return False


def _is_base(folder: Path) -> bool:
    """A folder that defines the game itself (its `layer:` has `id: base`) is checked alone."""
    from nidavellir.compiler.layers import layer_files
    from nidavellir.compiler.yamlload import load_yaml

    for f in layer_files(folder):
        try:
            data = load_yaml(f).data
        except RulesError:
            continue  # reported when the folder is loaded
        if isinstance(data, dict) and isinstance(data.get("layer"), dict) and data["layer"].get("id") == "base":
            return True
    return False


def build(args: argparse.Namespace) -> int:
    """Regenerate generated/ (or with --check, say which files are stale)."""
    from nidavellir.build_all import build as build_generated

    stale = build_generated(check=args.check)
    if args.check:
        if stale:
            print("stale: " + ", ".join(stale) + " (run `nidavellir build`)", file=sys.stderr)
            return 1
        print("generated/ is fresh")
        return 0
    print("wrote " + ", ".join(stale) if stale else "generated/ was already fresh")
    return 0


def docs(args: argparse.Namespace) -> int:
    """Render the rule reference; with --check, list the keys of --lang that fall back to English."""
    from nidavellir.compiler import docs as rdocs
    from nidavellir.compiler.docs.layer_texts import lacking
    from nidavellir.compiler.docs.options import PrintOptions
    from nidavellir.compiler.docs.text import MissingMessage

    options = PrintOptions(paper=args.paper, copies=args.copies, backs=args.backs, bleed_mm=args.bleed, ids=args.ids)
    if args.format == "md" and options != PrintOptions() and not args.check:
        print("note: --paper, --copies, --backs, --bleed and --ids shape the printed files: they apply to "
              "--format html and pdf, not to md", file=sys.stderr)
    try:
        cat = rdocs.load_catalog(args.lang)
        if args.format not in rdocs.FORMATS:
            raise rdocs.DocsError(f"unknown format `{args.format}` (choose from: {', '.join(rdocs.FORMATS)})")
        if not args.check and not args.out:
            raise rdocs.DocsError("--out DIR is required (the folder to write the reference into)")
        out = output_folder(args.out) if not args.check else Path()
        compiled = rdocs.compile_rules(boxes_of(args, args.variant), tuple(args.variant))
        lacks = lacking(compiled, cat)
        for lack in lacks:  # a variant's own entries, each named where its English is written
            text = (f"{lack.loc.path}:{lack.loc.line}:{lack.loc.col}: warning: no `{cat.lang}` text for {lack.what}: "
                    f"the reference shows it in English\n  hint: give it as `{lack.fix}`")
            print(paint(text) if _colour(args) else text, file=sys.stderr)
        if args.check:
            rdocs.render_all(compiled, cat)
            own = {lack.key for lack in lacks}
            for key in sorted(cat.missing - own):
                print(key)
            if cat.missing or lacks:
                counts = [f"{counted(len(lacks), 'entry')} of the variants"] if lacks else []
                if cat.missing - own:
                    counts.append(f"{counted(len(cat.missing - own), 'message key')} of the catalog")
                one = len(counts) == 1 and len(lacks) + len(cat.missing - own) == 1
                print(f"{' and '.join(counts)} {'has' if one else 'have'} no `{cat.lang}` text and "
                      f"{'falls' if one else 'fall'} back to English", file=sys.stderr)
                return 1
            print(f"every message of the reference has a `{cat.lang}` text")
            return 0
        colour = _colour(args)

        def warn(d: Diagnostic) -> None:
            print(d.format(colour), file=sys.stderr)
        written = rdocs.write(compiled, cat, args.format, out, options=options, warn=warn)
    except rdocs.DocsError as err:
        raise CommandError(str(err)) from None
    except MissingMessage as err:
        raise CommandError(f"the English message catalog has no text for `{err.args[0]}` "
                           "(compiler/docs/messages/en/)") from None
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def replay(args: argparse.Namespace) -> int:
    """Replay each game of a decision log. A game that does not replay gets its problems on stderr
    as `LOG:LINE: error: ...` and, with --json, an error line `{"file": LOG, "errors": [...]}` in
    place of its result; exit 1 if any game failed (the input is wrong), 2 if the log cannot be read.
    With --verbose each game is first told turn by turn (nidavellir/narrate.py: everything, as an
    analyst sees it), on stdout, or on stderr with --json (stdout keeps only the JSON lines)."""
    from .session import replay_log

    from nidavellir.compiler.paths import PathProblem, read_bytes

    try:
        data = read_bytes(args.log)
    except PathProblem as err:
        raise CommandError(f"cannot read {err}") from None
    status = 0
    colour = _colour(args)
    verbose = getattr(args, "verbose", False)
    for game in replay_log(args.log, data.splitlines(), journal=verbose):
        for note in game.notes:
            print(paint(visible(note)) if colour else visible(note), file=sys.stderr)
        if verbose and game.game is not None:
            _narrate(game.game, game.line, sys.stderr if args.json else sys.stdout)
        if game.result is not None:
            if args.json:
                print(json.dumps(game.result, separators=(",", ":")), flush=True)
            else:
                print(score_table(game.result, f"Replay of {visible(args.log)}, seed {game.result['seed']}"),
                      flush=True)
            continue
        status = 1
        problems = visible("\n".join(p.format(args.log) for p in game.problems), keep="\n\t")
        print(paint(problems) if colour else problems, file=sys.stderr)
        if args.json:
            errors = [{"line": p.line, "col": None, "message": p.message, **({"hint": p.hint} if p.hint else {})}
                      for p in game.problems]
            print(json.dumps({"file": args.log, "errors": errors}, separators=(",", ":")), flush=True)
    return status


def _narrate(game: Game, line: int, out: TextIO) -> None:
    """A replayed game told turn by turn (every record of its journal), as `replay --verbose` prints it."""
    from .narrate import Narrator

    journal = game.engine.journal or []
    print(f"Game of line {line}: seed {game.seed}, players {', '.join(visible(n) for n in game.engine.names)}",
          file=out)
    for text in Narrator(game.rules, game.engine.names).lines(journal):
        heading = text.startswith("Age ") and ", turn " in text or text.startswith("End of Age ")
        print(f"\n{visible(text)}" if heading else f"  {visible(text)}", file=out)
    print(file=out, flush=True)


def variants(args: argparse.Namespace) -> int:
    """The shipped house rules (rules/variants/*.yaml): the id `--variant` takes, the name and the
    description, in --lang (the variant's own `texts: {LANG: {name, description}}`, else the message
    catalog's `layer.<id>.name`/`.description`, else the file's English); with --json one object per
    variant per line."""
    import textwrap

    from nidavellir.compiler.sources import shipped_variants
    from nidavellir.compiler.yamlload import load_yaml

    shipped = shipped_variants()
    entries: list[dict[str, str]] = []
    for vid, path in shipped.items():
        data = load_yaml(path, name=f"rules/variants/{path.name}").data  # (a broken file: located, exit 1)
        layer = _mapping(data, "layer")
        own = _mapping(_mapping(data, "texts"), args.lang) if args.lang != "en" else {}
        entry = {"id": vid, "name": str(layer.get("name", vid)), "description": str(layer.get("description", "")),
                 "file": str(path)}
        for key in ("name", "description"):
            if isinstance(own.get(key), str):
                entry[key] = own[key]
            elif args.lang != "en":
                entry[key] = _catalog(args.lang).t(f"layer.{vid}.{key}", default=entry[key])
        entries.append(entry)
    if args.json:
        for entry in entries:
            print(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
        return 0
    width = max((len(e["id"]) for e in entries), default=0)
    for e in entries:
        print(f"{e['id'].ljust(width)}  {visible(e['name'])}")
        for line in textwrap.wrap(visible(e["description"]), 92):
            print(f"    {line}")
    if not entries:
        print("No variant is shipped.")
        return 0
    print(f"\nUse one with --variant ID (e.g. `nidavellir play --variant {entries[0]['id']}`); the files are in "
          f"{Path(entries[0]['file']).parent}.")
    return 0


def _mapping(data: object, key: str) -> dict[str, Any]:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, dict) else {}


@cache
def _catalog(lang: str) -> Catalog:
    """The message catalog, loaded (with the docs back end) only for a variant without its own texts."""
    from nidavellir.compiler.docs.text import Catalog
    return Catalog.load(lang)


def completion(args: argparse.Namespace) -> int:
    """The shell code (argcomplete's) that completes `nidavellir` in bash, zsh or fish."""
    from argcomplete.shell_integration import shellcode

    sys.stdout.write(shellcode(["nidavellir"], shell=args.shell))
    return 0


def lsp(args: argparse.Namespace) -> int:
    """The language server for rules YAML, over stdio (nidavellir/lsp)."""
    from nidavellir.lsp import serve
    return serve()
