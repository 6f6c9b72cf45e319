"""The `nidavellir` command line (DESIGN §8)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from nidavellir.errors import NidavellirError


def _expansions(text: str) -> tuple[str, ...]:
    return tuple(x.strip() for x in text.split(",") if x.strip())


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="nidavellir",
        description="Rules compiler and engine for the card game Nidavellir: play bot games, "
                    "score positions, check and build the rules data, render the rule reference.",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def rules_args(p: argparse.ArgumentParser, expansions: bool = True) -> None:
        if expansions:
            p.add_argument("--expansions", type=_expansions, default=(), metavar="E,…",
                           help="expansions to add to the base game: thingvellir, idavoll (comma-separated)")
        p.add_argument("--variant", action="append", default=[], metavar="FILE",
                       help="a house-rule variant file layered on the rules (repeatable, applied in order)")

    play = sub.add_parser("play", help="play whole games with bots (and optionally you)",
                          description="Play whole games. Seats are filled by bots (--bots, cycled); "
                                      "--human K makes seat K a terminal player.")
    play.add_argument("--players", type=int, default=3, metavar="N", help="number of players (default 3)")
    rules_args(play)
    play.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)")
    play.add_argument("--games", type=int, default=1, metavar="G", help="games to play, seeds S, S+1, … (default 1)")
    play.add_argument("--bots", default="random", metavar="B,…",
                      help="bot per seat, cycled: random, greedy (default random)")
    play.add_argument("--human", type=int, default=None, metavar="K", help="seat K (1-based) is played at the terminal")
    play.add_argument("--json", action="store_true", help="one JSON object per game per line")
    play.add_argument("--log", metavar="FILE", help="write the decision log (JSON lines) to FILE")

    score = sub.add_parser(
        "score", help="score positions (YAML or JSON files)",
        description="Score each position as if the game ended now (DESIGN §8's position format; the boxes come "
                    "from each position's `expansions`). A file with problems gets all of them, located, on "
                    "stderr; with --json its line is {\"file\": …, \"errors\": [{\"line\", \"col\", \"message\", "
                    "\"hint\"}]}, so lines match files. Exit 1 if any file failed.")
    score.add_argument("positions", nargs="+", metavar="POSITION")
    rules_args(score, expansions=False)
    score.add_argument("--json", action="store_true", help="one JSON object per file per line, in order")

    check = sub.add_parser("check", help="validate rules data; errors as path:line:col",
                           description="Check rules layers (folders such as rules/base) and variant files: every "
                                       "error and warning located as path:line:col. With no PATH, checks "
                                       "the shipped rules in each box combination and each shipped variant; "
                                       "with --expansions, that combination only (PATHs are layered on it).")
    check.add_argument("paths", nargs="*", metavar="PATH")
    rules_args(check)
    check.add_argument("--strict", action="store_true",
                       help="treat warnings (legal but likely wrong: unused params or events, decks that do not "
                            "fit the turns, a variant adding an id close to an existing one) as errors")

    build = sub.add_parser("build", help="regenerate the compiled rules in generated/")
    build.add_argument("--check", action="store_true", help="fail if generated/ is stale instead of writing it")

    docs = sub.add_parser(
        "docs", help="render the rule reference (Markdown, HTML or PDF) from the compiled rules",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Render the rule reference of a rule set: components and counts per player count, setup, "
                    "the turn sequence (from the flow data), bids and gem trades, coins, heroes, class "
                    "scoring with a worked table, the end of each age, final scoring, every card with its "
                    "rule text (generated from its effects), the interpretations, a glossary and an index. "
                    "With --variant, the house rules in force are named and every entry they change is marked.",
        epilog="formats:\n"
               "  md    reference.md\n"
               "  html  reference.html (self-contained) and, where card sheets are available, cards.html\n"
               "  pdf   the HTML files and their PDFs (printed with headless Chromium)\n"
               "examples:\n"
               "  nidavellir docs --format html --out out/\n"
               "  nidavellir docs --variant rules/variants/generous-offerings.yaml --lang be --out out/\n"
               "  nidavellir docs --lang be --check")
    rules_args(docs)
    docs.add_argument("--format", default="md", metavar="md|html|pdf", help="output format (default md)")
    docs.add_argument("--lang", default="en", metavar="en|be", help="language of the reference (default en)")
    docs.add_argument("--out", metavar="DIR", help="folder to write into (created if missing)")
    docs.add_argument("--check", action="store_true",
                      help="write nothing; list the message keys of --lang that fall back to English "
                           "(exit 1 if there are any)")

    replay = sub.add_parser(
        "replay", help="replay a decision log and print its final scores",
        description="Replay each game of a decision log (written by `play --log`) to its final state and print "
                    "its scores. A game that does not replay is reported as LOG:LINE: error: …, and the next "
                    "game still replays (with --json, the same error object); exit 2 if any game failed.")
    replay.add_argument("log", metavar="LOG")
    replay.add_argument("--json", action="store_true", help="one JSON object per game per line")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # imported only once the arguments are parsed: `--help` starts fast
    from nidavellir.compiler.diagnostics import RulesError

    from . import commands

    try:
        command: Callable[[argparse.Namespace], int] = getattr(commands, args.command)
        return command(args)
    except RulesError as err:
        print(str(err), file=sys.stderr)
        return 1
    except commands.CommandError as err:
        print(f"nidavellir {args.command}: error: {err}", file=sys.stderr)
        return 2
    except NidavellirError as err:  # a position, log, answer or compiled effect the user gave us
        print(f"nidavellir {args.command}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
