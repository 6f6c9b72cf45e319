"""What each `nidavellir` subcommand does; cli.py only parses arguments."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from nidavellir.compiler.build import build as build_generated
from nidavellir.compiler.diagnostics import Diagnostics, RulesError
from nidavellir.errors import NidavellirError
from nidavellir.rulesets import load_rules

from .session import Session, play_game, replay_games
from .table import score_table


class CommandError(NidavellirError):
    """A usage problem (bad option value, unreadable file): printed without a traceback."""


def play(args) -> int:
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    from nidavellir.runtime.bots import BOTS
    for b in bots:
        if b not in BOTS:
            raise CommandError(f"unknown bot `{b}` (choose from: {', '.join(BOTS)})")
    rules = load_rules(tuple(args.expansions), tuple(args.variant))
    for warning in rules.warnings:  # legal, likely not meant: said once, the games still play
        print(warning, file=sys.stderr)
    lo, hi = rules.min_players, rules.max_players
    if not lo <= args.players <= hi:
        raise CommandError(f"--players must be between {lo} and {hi}")
    if args.human is not None and not 1 <= args.human <= args.players:
        raise CommandError(f"--human must name a seat from 1 to {args.players}")
    session = Session(rules, tuple(args.expansions), tuple(args.variant))
    log = _open(args.log) if args.log else None
    try:
        for i in range(args.games):
            seed = args.seed + i
            result = play_game(session, args.players, seed, bots or ["random"], args.human, log)
            if args.json:
                print(json.dumps(result, separators=(",", ":")), flush=True)
            else:
                print(score_table(result, f"Game seed {seed}: {args.players} players, "
                                          f"{session.describe()}"), flush=True)
    finally:
        if log:
            log.close()
    return 0


def _open(path: str) -> TextIO:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as err:
        raise CommandError(f"cannot write the log {path}: {err.strerror}") from None


def score(args) -> int:
    from nidavellir.compiler.yamlload import load_yaml
    from nidavellir.compiler.schema import load_schema, validate
    from nidavellir.runtime.position import PositionError, engine_from_position, run_without_choices
    from nidavellir.runtime.scoring import final_scores

    status = 0
    for path in args.positions:
        diags = Diagnostics()
        try:
            loaded = load_yaml(path)
        except RulesError as err:
            print(str(err), file=sys.stderr)
            status = 1
            continue
        if not isinstance(loaded.data, dict):
            diags.error(loaded.locate(()), "a position is a mapping with `players:`")
        elif validate(loaded, load_schema("position"), diags):
            data = loaded.data
            try:
                rules = load_rules(tuple(data.get("expansions", [])), tuple(args.variant))
                e = engine_from_position(rules, data)
                for window in rules.ruleset.before_scoring:
                    run_without_choices(e, window)
                result = final_scores(e)
            except PositionError as err:
                diags.error(loaded.locate(err.path), err.message, err.hint)
            else:
                if args.json:
                    print(json.dumps(result, separators=(",", ":")), flush=True)
                else:
                    print(score_table(result, path), flush=True)
                continue
        print(diags.format_all(), file=sys.stderr)
        status = 1
    return status


def check(args) -> int:
    """Compile each target (a layer folder or a variant file on the shipped base) and report every
    located error and warning of every target; exit 1 if there was an error (with --strict, a
    warning too)."""
    from itertools import combinations

    from nidavellir.compiler.build import EXPANSIONS, compile_specs, layer_specs, rules_dir

    variants = [(Path(v), v, True) for v in args.variant]
    targets: list[tuple[str, list]] = []
    if not args.paths:
        written = [name for name in EXPANSIONS if (rules_dir() / name).is_dir()]
        for k in range(len(written) + 1):  # every box combination
            for boxes in combinations(written, k):
                targets.append((" + ".join(["rules/base", *(f"rules/{b}" for b in boxes)]), layer_specs(boxes)))
        for v in sorted((rules_dir() / "variants").glob("*.yaml")):
            targets.append((f"rules/variants/{v.name}", layer_specs((), (str(v),))))
        if variants:  # --variant alone: layered on the shipped base
            targets = targets[:1]
    for path in args.paths:
        p = Path(path)
        if _is_dir(p) and _is_base(p):
            specs = [(p, path, False)]
        else:  # a folder is a layer, anything else a variant file (load_layer reports a missing path)
            specs = layer_specs() + [(p, path, not _is_dir(p))]
        targets.append((path, specs))
    errors = warnings = 0
    for name, specs in targets:
        specs = specs + variants
        shown = " + ".join([name] + [v for _, v, _ in variants])
        try:
            compiled = compile_specs(specs)
        except RulesError as err:
            print(str(err), file=sys.stderr)
            errors += sum(d.severity == "error" for d in err.diagnostics)
            warnings += sum(d.severity == "warning" for d in err.diagnostics)
            continue
        for w in compiled.warnings:
            print(w.format(), file=sys.stderr)
        warnings += len(compiled.warnings)
        n = len(compiled.data["cards"])
        note = f", {len(compiled.warnings)} warning(s)" if compiled.warnings else ""
        print(f"ok: {shown} ({n} cards, {len(compiled.data['interpretations'])} interpretations{note})")
    if errors or (warnings and args.strict):
        counts = [f"{errors} error(s)"] if errors else []
        if warnings:
            counts.append(f"{warnings} warning(s)" + (" (errors with --strict)" if args.strict else ""))
        print(", ".join(counts), file=sys.stderr)
        return 1
    if warnings:
        print(f"{warnings} warning(s)", file=sys.stderr)
    return 0


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


def build(args) -> int:
    stale = build_generated(check=args.check)
    if args.check:
        if stale:
            print("stale: " + ", ".join(stale) + " (run `nidavellir build`)", file=sys.stderr)
            return 1
        print("generated/ is fresh")
        return 0
    print("wrote " + ", ".join(stale) if stale else "generated/ was already fresh")
    return 0


def docs(args) -> int:
    """Render the rule reference; with --check, list the keys of --lang that fall back to English."""
    from nidavellir.compiler import docs as rdocs
    from nidavellir.compiler.docs.text import MissingMessage

    try:
        cat = rdocs.load_catalog(args.lang)
        if args.format not in rdocs.FORMATS:
            raise rdocs.DocsError(f"unknown format `{args.format}` (choose from: {', '.join(rdocs.FORMATS)})")
        if not args.check and not args.out:
            raise rdocs.DocsError("--out DIR is required (the folder to write the reference into)")
        compiled = rdocs.compile_rules(tuple(args.expansions), tuple(args.variant))
        if args.check:
            rdocs.render_all(compiled, cat)
            for key in sorted(cat.missing):
                print(key)
            if cat.missing:
                print(f"{len(cat.missing)} message key(s) have no `{cat.lang}` text and fall back to English",
                      file=sys.stderr)
                return 1
            print(f"every message of the reference has a `{cat.lang}` text")
            return 0
        written = rdocs.write(compiled, cat, args.format, Path(args.out))
    except rdocs.DocsError as err:
        raise CommandError(str(err)) from None
    except MissingMessage as err:
        raise CommandError(f"the English message catalog has no text for `{err.args[0]}` "
                           "(compiler/docs/messages/en/)") from None
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


def replay(args) -> int:
    try:
        lines = Path(args.log).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise CommandError(f"cannot read {args.log}: {err}") from None
    for result in replay_games(args.log, lines):
        if args.json:
            print(json.dumps(result, separators=(",", ":")), flush=True)
        else:
            print(score_table(result, f"Replay of {args.log}, seed {result['seed']}"), flush=True)
    return 0
