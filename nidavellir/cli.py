# PYTHON_ARGCOMPLETE_OK
"""The `nidavellir` command line (DESIGN §8); `python -m nidavellir` runs the same.

Only argument parsing lives here, kept light so that `nidavellir --help` starts fast (DESIGN §10:
< 0.15 s): the commands, the rules and argcomplete are imported once they are needed.
Exit codes: 0 done, 1 the input is wrong (rules, positions, logs, a replay that fails), 2 usage.
"""
from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn

from nidavellir.errors import CommandError, NidavellirError, suggest, visible
from nidavellir.sim.workers import POOL_GAMES

# Closed option values, spelled here so that building the parser imports nothing heavy;
# tests/test_cli_polish.py checks them against the modules they come from (compiler/docs).
FORMATS = ("md", "html", "pdf")
LANGS = ("en", "be")
PAPERS = ("a4", "letter")
COPIES = ("all", "one")
COLOURS = ("auto", "always", "never")
SHELLS = ("bash", "zsh", "fish")
RECORD_FORMATS = ("parquet", "jsonl")  # nidavellir/sim/records.FORMATS (a test keeps them equal)
MAX_BLEED_MM = 1.6  # the widest bleed any paper fits (compiler/docs/sheet_layout.max_bleed; a test keeps them equal)
# Bounds of the numbers that size work (a typo of a few zeros is a usage error, not days of games or
# a thousand processes) and of the seeds (every game's seed S … S+G−1 fits a record's 64-bit field)
MAX_GAMES = 10 ** 9
MAX_SEED = 10 ** 12  # nidavellir/interface/numbers.MAX_SEED (a test keeps them equal): every seed played, S to S+G−1
MAX_JOBS = 256
MAX_CHUNK = 1000

EXIT_CODES = """\
exit codes:
  0  done
  1  the input is wrong: rules data (a --variant that is neither a file nor a shipped id too), a position, a decision log, a game that does not replay
  2  usage: an unknown command or option, a bad option value (--players 7, --bots clever, --format docx), a file named on the command line that cannot be read or written"""

EPILOG = f"""\
{EXIT_CODES}

shell completion of commands, options, shipped variants, expansions and bots (`nidavellir completion --help`):
  bash  eval "$(nidavellir completion bash)"  in ~/.bashrc
  zsh   eval "$(nidavellir completion zsh)"  in ~/.zshrc
  fish  nidavellir completion fish | source  in ~/.config/fish/config.fish

examples:
  nidavellir play --players 3 --seed 1
  nidavellir play --players 4 --games 2000 --bots greedy,random
  nidavellir variants
  nidavellir check --variant first-game
  nidavellir simulate --players 3 --variant generous-offerings --games 5000 --out sim/"""


def version() -> str:
    """The installed package's version, or pyproject.toml's in a source tree that is not installed."""
    from importlib import metadata

    try:
        return metadata.version("nidavellir")
    except metadata.PackageNotFoundError:
        import re

        try:
            text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
        except OSError:
            return "unknown"
        found = re.search(r'(?m)^version\s*=\s*"([^"]+)"', text)
        return found.group(1) if found else "unknown"


class _Version(argparse.Action):
    """`--version`, reading the version only when asked (importlib.metadata costs start-up time)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"nidavellir {version()}")
        parser.exit()


class _Formatter(argparse.HelpFormatter):
    """Wraps each line of a description or epilog on its own: a paragraph wraps to the terminal, a
    list (the exit codes, examples) stays a list, a wrapped item keeps its indentation."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        out: list[str] = []
        for line in text.splitlines():
            lead = " " * (len(line) - len(line.lstrip()))
            out += textwrap.wrap(line, width, initial_indent=indent, subsequent_indent=indent + lead + ("   " if lead else ""),
                                 break_on_hyphens=False) or [""]
        return "\n".join(out)


class _Parser(argparse.ArgumentParser):
    colour = "auto"  # `--color` as the command line gave it, for a usage error found before it is parsed

    def error(self, message: str) -> NoReturn:
        """A usage error: the error first (coloured on a terminal), then how the command is used; exit 2."""
        from nidavellir.compiler.diagnostics import colour_wanted, paint

        text = f"{self.prog}: error: {message}"
        self.exit(2, (paint(text) if colour_wanted(sys.stderr, _Parser.colour) else text) + "\n"
                  + self.format_usage())


def _colour_given(argv: list[str]) -> str:
    """The value of `--color` in the arguments, before they are parsed."""
    for i, arg in enumerate(argv):
        if arg.startswith("--color="):
            return arg.partition("=")[2]
        if arg == "--color" and i + 1 < len(argv):
            return argv[i + 1]
    return "auto"


# -- option values -------------------------------------------------------------------------------

def _unknown(what: str, name: str, options: Iterable[str]) -> argparse.ArgumentTypeError:
    options = list(options)
    hint = suggest(name, options)
    return argparse.ArgumentTypeError(f"unknown {what} `{visible(name)}` (choose from: {', '.join(options)})"
                                      + (f"; {hint}" if hint else ""))


def _one_of(what: str, options: tuple[str, ...]) -> Callable[[str], str]:
    """A closed option's value, refused with the house's message ("unknown format `docx` (choose
    from: md, html, pdf)") before argparse's own `choices` check would word it."""
    def value(text: str) -> str:
        if text not in options:
            raise _unknown(what, text, options)
        return text
    value.__name__ = what
    return value


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _expansions(text: str) -> tuple[str, ...]:
    """`thingvellir,idavoll`: known boxes, each once (the base game is always in)."""
    from nidavellir.compiler.sources import EXPANSIONS

    names = _names(text)
    for name in names:
        if name not in EXPANSIONS:
            raise _unknown("expansion", name, EXPANSIONS)
    return tuple(dict.fromkeys(names))


def _bots(text: str) -> tuple[str, ...]:
    """`greedy,random` or `search:200,greedy`: bots, each `NAME` or `NAME:BUDGET` (runtime/bots.py
    `parse_spec`), as written back (`spec_text`)."""
    from nidavellir.runtime.bots import BOTS, BotSpecError, spec_text

    names = _names(text)
    if not names:
        raise argparse.ArgumentTypeError(f"name at least one bot (choose from: {', '.join(BOTS)})")
    try:
        return tuple(spec_text(name) for name in names)
    except BotSpecError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _integer(text: str) -> int:
    """An integer option (`--players`, `--seed`, …), read by the bounded parser every number from
    outside goes through (nidavellir/interface/numbers.py): a seed that plays is a seed a log replays."""
    from nidavellir.interface.numbers import NumberError, parse_int

    try:
        return parse_int(text.strip())
    except NumberError as err:
        raise argparse.ArgumentTypeError(visible(err.message)) from None


def _whole(what: str, low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high` (`what` names it in the error: "a number of games"), read
    by the bounded parser."""
    from nidavellir.interface.numbers import NumberError, parse_int

    def value(text: str) -> int:
        try:
            n: int | None = parse_int(text.strip())
        except NumberError:
            n = None
        if n is None or not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{what} from {_grouped(low)} to {_grouped(high)}, "
                                             f"not `{visible(text[:40])}{'…' if len(text) > 40 else ''}`")
        return n
    return value


def _grouped(n: int) -> str:
    return f"{n:,}".replace("-", "−") if abs(n) < 10 ** 6 else f"{'−' if n < 0 else ''}10^{len(str(abs(n))) - 1}"


def _bleed(text: str) -> float:
    try:
        mm = float(text)
    except ValueError:
        mm = float("nan")
    if not 0 <= mm <= MAX_BLEED_MM:  # (also refuses nan and inf)
        raise argparse.ArgumentTypeError(f"the bleed is a number of millimetres from 0 to {MAX_BLEED_MM:g}, "
                                         f"not `{visible(text)}`")
    return mm


# -- completion (asked by the shell through argcomplete; cheap, and never when parsing) -------------

def _completes(action: argparse.Action, completer: Callable[..., Iterable[str]]) -> None:
    setattr(action, "completer", completer)  # noqa: B010 - argcomplete reads this attribute


def _comma_list(options: Callable[[], Iterable[str]]) -> Callable[..., list[str]]:
    """Completes the last name of a comma list (`thingvellir,i` -> `thingvellir,idavoll`)."""
    def complete(prefix: str, **_: Any) -> list[str]:
        head, comma, last = prefix.rpartition(",")
        given = set(head.split(","))
        return [head + comma + name for name in options() if name.startswith(last) and name not in given]
    return complete


def _expansion_names() -> Iterable[str]:
    from nidavellir.compiler.sources import written_expansions
    return written_expansions()


def _bot_names() -> Iterable[str]:
    from nidavellir.runtime.bots import BOTS
    return BOTS


def _variant_names(prefix: str, **_: Any) -> list[str]:
    """The shipped variants' ids, folders, and the YAML files that are rule layers (not every YAML file)."""
    from argcomplete.completers import FilesCompleter

    from nidavellir.compiler.sources import shipped_variants

    ids = [vid for vid in shipped_variants() if vid.startswith(prefix)]
    found = FilesCompleter(("yaml", "yml"))(prefix)
    return ids + [name for name in found if name.endswith("/") or os.path.isdir(name) or _is_layer(name)]


def _is_layer(path: str) -> bool:
    """Whether a file looks like a rule layer: a regular file whose text has a top-level `layer:` key
    among its first 64 KiB (read only so far; a pipe or device is never opened)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return False
    return any(line.startswith((b"layer:", b"layer :")) for line in head.splitlines())


def _files(*suffixes: str) -> Callable[..., list[str]]:
    def complete(prefix: str, **_: Any) -> list[str]:
        from argcomplete.completers import FilesCompleter
        return list(FilesCompleter(suffixes)(prefix))
    return complete


# -- the parser ------------------------------------------------------------------------------------

def parser() -> argparse.ArgumentParser:
    top = _Parser(
        prog="nidavellir",
        description="Rules compiler and engine for the card game Nidavellir: play bot games, "
                    "score positions, check and build the rules data, render the rule reference.",
        epilog=EPILOG, formatter_class=_Formatter,
    )
    top.add_argument("--version", action=_Version, help="print the version and exit")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    common = _Parser(add_help=False)
    common.add_argument("--color", type=_one_of("--color value", COLOURS), choices=COLOURS, default="auto",
                        metavar="auto|always|never",
                        help="colour the diagnostics: auto (default) on a terminal, unless NO_COLOR is set; "
                             "FORCE_COLOR colours a pipe too")

    def command(name: str, **kw: Any) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], epilog=kw.pop("epilog", EXIT_CODES),
                              formatter_class=_Formatter, **kw)

    def games_args(p: argparse.ArgumentParser, players: int, games: int, what: str) -> None:
        """--players, --games and --seed of a command that plays games S, S+1, …"""
        p.add_argument("--players", type=_integer, default=players, metavar="N",
                       help=f"number of players (default {players})")
        p.add_argument("--games", type=_whole("a number of games", 1, MAX_GAMES), default=games, metavar="G",
                       help=f"{what}, seeds S, S+1, … (default {games}; at most 10^9)")
        p.add_argument("--seed", type=_whole("a seed", -MAX_SEED, MAX_SEED), default=1, metavar="S",
                       help="seed of the first game (default 1; from −10^12 to 10^12)")

    def seat_bots(p: argparse.ArgumentParser) -> None:
        _completes(p.add_argument("--bots", type=_bots, default=("random",), metavar="B,…",
                                  help="bot per seat, cycled, each NAME or NAME:BUDGET: random, greedy, search "
                                       "(default random)"),
                   _comma_list(_bot_names))

    def rules_args(p: argparse.ArgumentParser, expansions: bool = True) -> None:
        if expansions:
            _completes(p.add_argument(
                "--expansions", type=_expansions, default=None, metavar="E,…",
                help="expansions to add to the base game: thingvellir, idavoll (comma-separated; default: "
                     "those the variants require, else none)"),
                _comma_list(_expansion_names))
        _completes(p.add_argument(
            "--variant", action="append", default=[], metavar="V",
            help="a house-rule variant: its file, or a shipped one by its id (`nidavellir variants` lists "
                 "them); repeatable, applied in order"), _variant_names)

    play = command("play", help="play whole games with bots (and optionally you)",
                   description="Play whole games. Seats are filled by bots (--bots, cycled); --human K makes "
                               "seat K a terminal player. Each game prints its score table, the bot of each "
                               "seat beside its name, or with --json one object per line. Several games end "
                               "with a summary (wins and mean score per seat): on stdout after the tables, or "
                               "with --json on stderr when it is a terminal. On a terminal, stderr shows the "
                               "progress of a long run.")
    games_args(play, players=3, games=1, what="games to play")
    rules_args(play)
    seat_bots(play)
    play.add_argument("--human", type=_integer, default=None, metavar="K", help="seat K (1-based) is played at the terminal")
    play.add_argument("--json", action="store_true", help="one JSON object per game per line (and nothing else "
                                                          "on stdout)")
    _completes(play.add_argument("--log", metavar="FILE", help="write the decision log (JSON lines) to FILE"),
               _files("jsonl"))
    _completes(play.add_argument(
        "--resume", metavar="LOG", help="continue the game you left (`q`) at the decision its log LOG stopped "
                                        "at, adding the rest to LOG; the rules, seed, players and bots are the "
                                        "log's (give none of them)"), _files("jsonl", "log"))

    league = command(
        "league", help="bots play every seating; a win-rate table with 95%% intervals",
        description="Play G games (seeds S, S+1, …) of every seating of the bots: every assignment of the "
                    "listed bots to the N seats in which each bot sits at least as often as it is listed "
                    "(`--bots greedy,random,random --players 3`: one greedy seat, in turn in each seat). Prints "
                    "per bot its games (its seats), wins (a tie of k winners gives each 1/k), win rate with a "
                    "95% Wilson score interval, mean score and win rate in each seat; with --json one JSON "
                    "object. On a terminal, stderr shows the progress.")
    _completes(league.add_argument("--bots", type=_bots, default=("random", "greedy"), metavar="B,…",
                                   help="the bots, each NAME or NAME:BUDGET: random, greedy (default "
                                        "random,greedy); a bot listed twice sits in at least two seats"),
               _comma_list(_bot_names))
    games_args(league, players=2, games=100, what="games per seating")
    rules_args(league)
    league.add_argument("--json", action="store_true", help="the table as one JSON object (and nothing else on stdout)")

    simulate = command(
        "simulate", help="many games of a house rule against the base rules, and what changed (report)",
        description="Play G seeded games (seeds S, S+1, …) of each rule set: the tested one (the boxes with "
                    "every --variant) and, with --variant or --against, the one it is compared with (the "
                    "boxes with every --against layer; the base rules when none is given), the same seeds "
                    "for both, so that games pair up. Games run in parallel on every core (--jobs) or on a "
                    "Ray cluster (--ray); the records are the same whatever runs them. Writes into DIR: "
                    "simulation.json, the per-game records (games.parquet/ or games.jsonl: seed, seats, "
                    "bots, scores, breakdowns, and per card who acquired it, when and its points at the "
                    "end), summary.json, report.html, report.md and plots/. Running the same command again "
                    "continues an interrupted run (or adds games when --games grew). On a terminal, "
                    "stderr shows the progress.",
        epilog="examples:\n"
               "  nidavellir simulate --players 3 --variant generous-offerings --games 5000 --out sim/\n"
               "  nidavellir simulate --players 4 --expansions thingvellir --variant my-rule.yaml "
               "--against first-game --games 20000 --out sim2/\n"
               "  nidavellir simulate --players 3 --variant my-rule.yaml --games 100000 --ray auto --out big/\n"
               "  nidavellir report sim/\n\n"
               "Ray (pip install \"nidavellir[ray]\" on every machine, the same version): --ray auto joins "
               "the cluster this machine is part of (`ray start --head` on one machine, `ray start "
               "--address HEAD:6379` on the others); --ray HEAD:6379 or ray://HEAD:10001 names it; "
               "--ray local starts one here.\n\n" + EXIT_CODES)
    games_args(simulate, players=3, games=1000, what="games per rule set")
    rules_args(simulate)
    _completes(simulate.add_argument(
        "--against", action="append", default=[], metavar="V",
        help="what the tested rules are compared with: `base` (the default beside --variant) or a variant's "
             "file or id; repeatable, applied in order"), _variant_names)
    seat_bots(simulate)
    where = simulate.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=_whole("a number of processes", 1, MAX_JOBS), default=None, metavar="J",
                       help=f"worker processes (default: every core; 1 plays in this process; at most {MAX_JOBS}); "
                            f"at most the cores not busy with other programs, and 1 for fewer than {POOL_GAMES} games of all rule sets (said "
                            "on stderr when --jobs is given); NIDAVELLIR_JOBS_EXACT=1 runs exactly J")
    where.add_argument("--ray", default=None, metavar="ADDRESS",
                       help="run on a Ray cluster: auto, an address (HEAD:6379, ray://HEAD:10001), or local")
    simulate.add_argument("--chunk", type=_whole("a number of games per task", 1, MAX_CHUNK), default=None,
                          metavar="K", help="games per task (default: from the games and workers, at most 20; the "
                                            f"records are the same; at most {MAX_CHUNK})")
    simulate.add_argument("--format", type=_one_of("records format", RECORD_FORMATS), choices=RECORD_FORMATS,
                          default=None, metavar="parquet|jsonl",
                          help="the records' format (default parquet, or the one DIR already holds)")
    _completes(simulate.add_argument("--out", required=True, metavar="DIR",
                                     help="folder of the simulation (created if missing; continued if it holds "
                                          "this simulation)"), _files())
    simulate.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    report = command(
        "report", help="a simulation folder's summary, report.html, report.md and plots, from its records",
        description="Read the records of a simulation folder (written by `nidavellir simulate`) and write its "
                    "summary.json, report.html (tables and plots, one self-contained file), report.md (to "
                    "paste into a discussion) and plots/*.png: per seat the win rate with a 95% interval; "
                    "per rule set scores, breakdown and game length; per card how often and when it is "
                    "taken, by which seat, its mean points and its taker's win rate; and with two rule sets "
                    "the paired differences, the figures that moved significantly first.")
    _completes(report.add_argument("dir", metavar="DIR"), _files())
    report.add_argument("--jobs", type=_whole("a number of processes", 1, MAX_JOBS), default=None, metavar="J",
                        help=f"processes reading the records (default: every core; the summary is the same; at "
                             f"most {MAX_JOBS}); many records only, and at most the cores not busy with other "
                             "programs, as simulate's --jobs (said on stderr when --jobs is given)")
    report.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    score = command(
        "score", help="score positions (YAML or JSON files)",
        description="Score each position as if the game ended now (DESIGN §8's position format; the boxes come "
                    "from each position's `expansions`). A file with problems gets all of them, located, on "
                    "stderr; with --json its line is {\"file\": …, \"errors\": [{\"line\", \"col\", \"message\", "
                    "\"hint\"}]}, so lines match files. Exit 1 if any file failed.")
    _completes(score.add_argument("positions", nargs="+", metavar="POSITION"), _files("yaml", "yml", "json"))
    rules_args(score, expansions=False)
    score.add_argument("--json", action="store_true", help="one JSON object per file per line, in order")

    check = command("check", help="validate rules data; errors as path:line:col",
                    description="Check rules layers (folders such as rules/base) and variant files (or a "
                                "shipped variant by its id): every error and warning located as "
                                "path:line:col. With no PATH, checks the shipped rules in each box "
                                "combination and each shipped variant; with --expansions, that combination "
                                "only (PATHs are layered on it). Exit 1 on an error.")
    _completes(check.add_argument("paths", nargs="*", metavar="PATH"), _variant_names)
    rules_args(check)
    check.add_argument("--strict", action="store_true",
                       help="treat warnings (legal but likely wrong: unused params or events, decks that do not "
                            "fit the turns, a variant adding an id close to an existing one) as errors")

    build = command("build", help="regenerate the compiled rules in generated/")
    build.add_argument("--check", action="store_true", help="fail if generated/ is stale instead of writing it")

    docs = command(
        "docs", help="render the rule reference (Markdown, HTML or PDF) from the compiled rules",
        description="Render the rule reference of a rule set: components and counts per player count, setup, "
                    "the turn sequence (from the flow data), bids and gem trades, coins, heroes, class "
                    "scoring with a worked table, the end of each age, final scoring, every card with its "
                    "rule text (generated from its effects), the interpretations, a glossary and an index. "
                    "With --variant, the house rules in force are named and every entry they change is marked.",
        epilog="formats:\n"
               "  md    reference.md\n"
               "  html  reference.html (self-contained) and cards.html, the printable card sheets\n"
               "  pdf   the HTML files and their PDFs (printed with headless Chromium)\n"
               "--paper, --copies, --backs and --bleed shape the printed files (html and pdf).\n"
               "examples:\n"
               "  nidavellir docs --format html --out out/\n"
               "  nidavellir docs --format pdf --paper letter --copies one --out out/\n"
               "  nidavellir docs --variant generous-offerings --lang be --out out/\n"
               "  nidavellir docs --lang be --check\n\n" + EXIT_CODES)
    rules_args(docs)
    docs.add_argument("--format", type=_one_of("format", FORMATS), choices=FORMATS, default="md",
                      metavar="md|html|pdf", help="output format (default md)")
    docs.add_argument("--lang", type=_one_of("language", LANGS), choices=LANGS, default="en", metavar="en|be",
                      help="language of the reference (default en)")
    docs.add_argument("--paper", type=_one_of("paper", PAPERS), choices=PAPERS, default="a4", metavar="a4|letter",
                      help="paper size of the printed reference and card sheets (default a4)")
    docs.add_argument("--copies", type=_one_of("--copies value", COPIES), choices=COPIES, default="all",
                      metavar="all|one",
                      help="card sheets: all (default) prints every copy the box holds, a deck to playtest "
                           "with; one prints each card once, a catalogue")
    docs.add_argument("--backs", action="store_true",
                      help="card sheets: add a page of card backs after each page of fronts, for duplex "
                           "printing (mirrored to line up when the sheet flips on its long edge)")
    docs.add_argument("--bleed", type=_bleed, default=0.0, metavar="MM",
                      help=f"card sheets: print each card's art this many millimetres beyond its cut line "
                           f"(default 0; at most what fits 3 × 3 cards with their cut marks: {MAX_BLEED_MM:g} on A4, 1 on "
                           f"Letter), so that a cut a little off shows no white edge")
    docs.add_argument("--ids", action="store_true",
                      help="card sheets: print each card's id in its footer (for designers: the id a layer or a "
                           "position names; off by default)")
    _completes(docs.add_argument("--out", metavar="DIR", help="folder to write into (created if missing)"),
               _files())
    docs.add_argument("--check", action="store_true",
                      help="write nothing; list the message keys of --lang that fall back to English "
                           "(exit 1 if there are any)")

    replay = command(
        "replay", help="replay a decision log and print its final scores",
        description="Replay each game of a decision log (written by `play --log`) to its final state and print "
                    "its scores. A game that does not replay is reported as LOG:LINE: error: …, and the next "
                    "game still replays (with --json, the same error object); exit 1 if any game failed.")
    _completes(replay.add_argument("log", metavar="LOG"), _files("jsonl", "json", "log"))
    replay.add_argument("--json", action="store_true", help="one JSON object per game per line")
    replay.add_argument("--verbose", action="store_true",
                        help="narrate each game turn by turn (every bid, card, trade, gem, distinction, "
                             "hero, capture and notch), then its scores")

    variants = command("variants", help="list the shipped house rules (rules/variants/) with their descriptions",
                       description="List the house-rule variants that ship with the rules: the id to give to "
                                   "--variant, the name and what it changes.")
    variants.add_argument("--lang", type=_one_of("language", LANGS), choices=LANGS, default="en", metavar="en|be",
                          help="language of the names and descriptions (default en)")
    variants.add_argument("--json", action="store_true",
                          help="one JSON object per variant per line: id, name, description, file")

    completion = command(
        "completion", help="print the shell code that completes nidavellir's commands and options",
        description="Print the code that makes your shell complete nidavellir's commands, options and their "
                    "values (the shipped variants' ids, expansions, bots, files), from argcomplete.",
        epilog="enable it:\n"
               "  bash  eval \"$(nidavellir completion bash)\"  in ~/.bashrc\n"
               "  zsh   eval \"$(nidavellir completion zsh)\"  in ~/.zshrc, after compinit\n"
               "  fish  nidavellir completion fish | source  in ~/.config/fish/config.fish\n\n" + EXIT_CODES)
    completion.add_argument("shell", type=_one_of("shell", SHELLS), choices=SHELLS, metavar="SHELL",
                            help="bash, zsh or fish")

    command("lsp", help="a language server for rules YAML over stdio (for editors)",
            description="A language server for rules YAML over stdio: the located errors and warnings of "
                        "`nidavellir check` while you type, hover on a card, completion inside the effect "
                        "DSL. Started by an editor (see the README), not by hand.")
    return top


def _last_seed(top: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Games S … S+G−1 (play, league, simulate): the last seed is within the bound too, so that a log's
    header and a simulation's records read every seed played back."""
    seed, games = getattr(args, "seed", None), getattr(args, "games", None)
    if isinstance(seed, int) and isinstance(games, int) and seed + games - 1 > MAX_SEED:
        sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices[args.command].error(
            f"argument --seed: the last game's seed, {seed} + {games} − 1 = {seed + games - 1}, is past 10^12: "
            f"every seed is from −10^12 to 10^12 (at most --seed {MAX_SEED - games + 1} for {games} games)")


def main(argv: list[str] | None = None) -> int:
    top = parser()
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions: argcomplete answers and exits
        import argcomplete
        argcomplete.autocomplete(top)
    _Parser.colour = _colour_given(sys.argv[1:] if argv is None else argv)
    try:
        args = top.parse_args(argv)
        _last_seed(top, args)
    except SystemExit as done:  # --help, --version, or a usage error (already printed)
        return done.code if isinstance(done.code, int) else 0 if done.code is None else 2
    # imported only once the arguments are parsed: `--help` starts fast
    from nidavellir.compiler.diagnostics import RulesError, colour_wanted, paint

    from . import commands

    def error(text: str) -> None:
        print(paint(text) if colour_wanted(sys.stderr, args.color) else text, file=sys.stderr)

    try:
        run: Callable[[argparse.Namespace], int] = getattr(commands, args.command)
        return run(args)
    except RulesError as err:
        print(err.format(colour_wanted(sys.stderr, args.color)), file=sys.stderr)
        return 1
    except CommandError as err:
        error(f"nidavellir {args.command}: error: {err}")
        return 2
    except NidavellirError as err:  # a position, log, answer or compiled effect the user gave us
        error(f"nidavellir {args.command}: error: {err}")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
