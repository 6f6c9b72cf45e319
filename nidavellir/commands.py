"""What each `nidavellir` subcommand does; cli.py only parses arguments."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from nidavellir.compiler.build import build as build_generated, load_rules
from nidavellir.compiler.diagnostics import Diagnostics, RulesError

from .session import Session, play_game, replay_games
from .table import score_table


class CommandError(Exception):
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
    lo, hi = rules.game["players"].get("min", 2), rules.game["players"].get("max", 5)
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
                for window in rules.game["flow"].get("before_scoring", []):
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
    from nidavellir.compiler.build import EXPANSIONS, compile_specs, layer_specs, rules_dir

    targets: list[tuple[str, list]] = []
    if not args.paths:
        targets.append(("rules/base", layer_specs((), tuple(args.variant))))
        for name in EXPANSIONS:
            if (rules_dir() / name).is_dir():
                targets.append((f"rules/{name}", layer_specs((name,), tuple(args.variant))))
        for v in sorted((rules_dir() / "variants").glob("*.yaml")):
            targets.append((f"rules/variants/{v.name}", layer_specs((), (str(v),))))
    for path in args.paths:
        p = Path(path)
        base = layer_specs((), ())
        if not p.exists():
            raise CommandError(f"no such rules folder or file: {path}")
        if p.is_dir() and _is_base(p):
            specs = [(p, path, False)]
        elif p.is_dir():
            specs = base + [(p, path, False)]
        else:
            specs = base + [(p, path, True)]
        specs += [(Path(v), v, True) for v in args.variant]
        targets.append((path, specs))
    failed = 0
    for name, specs in targets:
        try:
            compiled = compile_specs(specs)
        except RulesError as err:
            print(str(err), file=sys.stderr)
            failed += len(err.diagnostics)
            continue
        n = len(compiled.data["cards"])
        print(f"ok: {name} ({n} cards, {len(compiled.data['interpretations'])} interpretations)")
    if failed:
        print(f"{failed} error(s)", file=sys.stderr)
        return 1
    return 0


def _is_base(folder: Path) -> bool:
    """A folder that defines the game itself (like rules/base) is checked alone."""
    from nidavellir.compiler.build import rules_dir
    try:
        if folder.resolve() == (rules_dir() / "base").resolve():
            return True
    except OSError:
        return False
    for f in folder.glob("*.yaml"):
        try:
            head = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if "\nlayer:" in "\n" + head and "\n  id: base" in head:
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
