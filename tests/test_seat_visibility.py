"""The terminal seat's screens over whole games: what a decision names is on the screen that asks it.

Issue 18, "The terminal seat": "The board summary cuts columns off without a mark. … Whatever a
decision's options name must be visible on the screen that asks it; nothing is ever cut without a
marker and the key that shows it. Test this on every decision of whole games at 80×24, not on one
screen." Every decision of seeded whole games (each box combination, 2 to 5 players) is shown as the
seat shows it, to the player who decides, and checked: the screen fits 80×24; every option is listed;
a card an option names is shown in its place on the board (its tavern, the Camp, its army column,
the command zone) or, where the board has no such place (the heroes, a deck's draw, the discard),
in the option itself; the coins a coin option names are shown; anything cut is marked and the
screen names the key that shows it in full.
"""
from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from nidavellir.interface.decisions import CardChoice, CoinChoice
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.rules import Rules
from nidavellir.screen_fit import CUT, Block, fit_blocks
from nidavellir.terminal import LONG_LIST, WIDTH, Screen, TerminalSeat, _short, width_of

TERMINAL_LINES = 24
BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]
RULES = {boxes: load_rules(boxes) for boxes in BOXES}


@dataclass
class Shown:
    screen: Screen
    lines: list[str]


def screens(rules: Rules, players: int, seed: int) -> Iterator[Shown]:
    """Every decision of a seeded game (random answers), as the deciding player's seat shows it."""
    game = Game(rules, players, seed=seed, journal=True)
    rng = random.Random(seed)
    out = io.StringIO()
    seat = TerminalSeat(io.StringIO(""), out)
    while game.pending is not None:
        obs = observe(game)
        since = seat.catch_up(obs.rules, obs.names, obs.happened)
        out.seek(0)
        out.truncate()
        screen = Screen(seat, obs)
        screen.show(since)
        yield Shown(screen, out.getvalue().splitlines())
        game.answer(rng.choice(obs.decision.options))


def board_of(shown: Shown) -> list[str]:
    """The board's lines: between the heading (═) and the question's rule (─ Your …)."""
    lines = shown.lines
    top = next(i for i, ln in enumerate(lines) if ln.startswith("═"))
    end = next(i for i, ln in enumerate(lines) if i > top and ln.startswith("─"))
    return lines[top + 1:end]


def block_text(board: list[str], starts: str) -> str | None:
    """The text of the board block whose first line starts with `starts`, with its wrapped lines."""
    for i, line in enumerate(board):
        if line.startswith(starts):
            rest = []
            for ln in board[i + 1:]:
                if not ln.startswith("    "):
                    break
                rest.append(ln.strip())
            return " ".join([line.strip()] + rest)
    return None


def board_question(s: Screen, board: list[str]) -> list[str]:
    """The question and the options (the lines after the board)."""
    return s.question() + s.option_lines()


def problems(shown: Shown) -> list[str]:
    """What the screen fails of the issue's rule (empty when it holds)."""
    s, lines = shown.screen, shown.lines
    d = s.d
    found = []
    if len(lines) + 1 > TERMINAL_LINES:  # (and the input line)
        found.append(f"{len(lines)} lines and the input line do not fit {TERMINAL_LINES}")
    found += [f"line wider than {WIDTH}: {ln!r}" for ln in lines if width_of(ln) > WIDTH]
    board = board_of(shown)
    text = "\n".join(lines)
    if any(CUT in ln for ln in board) and "b shows" not in text:
        found.append("the board is cut but no line names the key b")
    opts = [ln for ln in lines if re.match(r"^ {1,3}\d+\. ", ln)]
    numbers = {int(m.group(1)) for ln in opts for part in (ln, ln[40:])  # (a long list: two columns)
               if (m := re.match(r"^ {0,3}(\d+)\. ", part))}
    if d.kind != "bid" and numbers != set(range(1, len(d.options) + 1)):
        found.append(f"options listed {sorted(numbers)}, the decision has {len(d.options)}")
    if any(CUT in ln for ln in opts) and "? N" not in text:
        found.append("an option is cut but no line names the key ? N")
    for i, o in enumerate(d.options):
        if isinstance(o, CardChoice):
            found += card_shown(s, board, o, i)
        elif isinstance(o, CoinChoice) and block_text(board, "  Bids:") is None \
                and block_text(board, "  Coins:") is None:
            found.append(f"option {i + 1} names a coin ({o.at}) but the coins are not shown")
    if d.kind == "column" and block_text(board, "  Army:") is None:
        found.append("a column is asked but the army is not shown")
    return found


def card_shown(s: Screen, board: list[str], o: CardChoice, i: int) -> list[str]:
    rules, name = s.rules, s.cards.name(o.card)
    if o.at in rules.tavern_ids:
        where = block_text(board, f"  {_short(rules.tavern_names[rules.tavern_ids.index(o.at)])}")
    elif o.at in rules.classes:
        army = block_text(board, "  Army:")
        column = re.escape(s.classes[o.at])
        if army is None:
            return [f"option {i + 1} ({name}) is in the army, which is not shown"]
        cards = re.search(rf"{column} \d+ \(([^)]*)\)", army)
        if cards is None or CUT in cards.group(1):
            return [f"option {i + 1} ({name}) is in the {s.classes[o.at]} column, whose cards are not shown: {army}"]
        return []
    elif o.at == "command":
        where = block_text(board, "  Command zone:")
    elif any(z.id == o.at and z.explored and not z.per_age for z in rules.ruleset.zones):
        where = block_text(board, f"  {_short(s.zones[o.at])}")
    else:  # (no place on the board: the option names the card; it or the question names the place)
        said = "\n".join(board_question(s, board)).casefold()
        place = s.place(o.at).casefold()
        if s.d.kind == "hero":
            return []  # (a hero recruit's question: "Recruit a hero")
        return [] if place in said else [f"option {i + 1} ({name}) is in {place}, which the screen does not name"]
    if where is None or name not in where:
        return [f"option {i + 1} ({name}, {o.at}) is not shown in its place: {where}"]
    return []


GAMES = [(boxes, players, seed) for boxes in BOXES for players, seed in ((2, 11), (3, 3), (4, 7), (5, 5))]


@pytest.mark.parametrize("boxes, players, seed", GAMES, ids=[f"{'+'.join(b) or 'base'}-{p}p-s{s}" for b, p, s in GAMES])
def test_every_decision_shows_what_its_options_name(boxes, players, seed):
    """Issue 18: "Whatever a decision's options name must be visible on the screen that asks it;
    nothing is ever cut without a marker and the key that shows it. Test this on every decision of
    whole games at 80×24." """
    bad = []
    count = 0
    for shown in screens(RULES[boxes], players, seed):
        count += 1
        for problem in problems(shown):
            bad.append(f"decision {count} ({shown.screen.d.kind}): {problem}\n" + "\n".join(shown.lines))
    assert count > 50
    assert not bad, f"{len(bad)} screens fail; the first:\n{bad[0]}"


def test_the_checker_finds_a_column_cut_without_its_cards():
    """The check above can fail: a screen whose army shows a column cut ("Explorers 2 (…)") while
    an option names a card in that column is reported."""
    for shown in screens(RULES[("thingvellir",)], 3, 3):
        d = shown.screen.d
        army_opts = [o for o in d.options if isinstance(o, CardChoice) and o.at in shown.screen.rules.classes]
        if not army_opts:
            continue
        o = army_opts[0]
        column = shown.screen.classes[o.at]
        cut = [re.sub(rf"({re.escape(column)} \d+) \([^)]*\)", rf"\1 ({CUT})", ln) for ln in shown.lines]
        assert any("whose cards are not shown" in p for p in problems(Shown(shown.screen, cut)))
        return
    pytest.fail("no decision named a card in the army")


# -- fitting the board (nidavellir/screen_fit.py) ------------------------------------------------

def test_everything_fits_in_full_when_there_is_room():
    blocks = [Block(["a1", "a2"], ["a…"]), Block(["b1"], needed=True)]
    fitted = fit_blocks(blocks, 3)
    assert fitted.lines == ["a1", "a2", "b1"] and not fitted.shortened and not fitted.left_out


def test_what_the_decision_does_not_need_gives_way_first():
    """The unneeded blocks are shortened first (lowest `drop` first), then left out; a needed block
    keeps its full form while anything else can give way."""
    blocks = [Block(["z1", "z2"], ["z…"], drop=0), Block(["t1", "t2"], ["t…"], drop=2),
              Block(["n1", "n2"], ["n…"], needed=True, drop=1)]
    assert fit_blocks(blocks, 5).lines == ["z…", "t1", "t2", "n1", "n2"]
    assert fit_blocks(blocks, 4).lines == ["z…", "t…", "n1", "n2"]
    left = fit_blocks(blocks, 3)
    assert left.lines == ["t…", "n1", "n2"] and left.left_out and left.shortened


def test_a_needed_block_is_shortened_then_cut_with_the_mark_only_as_the_last_resort():
    blocks = [Block(["n1", "n2", "n3"], ["n1", "n…"], needed=True), Block(["x"])]
    assert fit_blocks(blocks, 2).lines == ["n1", "n…"]
    cut = fit_blocks([Block(["n1", "n2", "n3"], needed=True)], 2)
    assert cut.lines == ["n1", f"n2 {CUT}"] and cut.shortened


def test_a_long_list_of_options_shows_every_number():
    """A decision of more than LONG_LIST options (the heroes) lists each in two columns."""
    for shown in screens(RULES[()], 2, 11):
        if len(shown.screen.d.options) > LONG_LIST:
            assert not [p for p in problems(shown) if "options listed" in p]
            return
    pytest.fail("no long list of options in the game")
