"""The terminal seat a person can play (nidavellir/terminal.py), and `replay --verbose`.

Issue 10, "The terminal seat": "Before each of your decisions, what happened since the last one, in
words …; bids entered as one coin per tavern (`5 3 4`, or tavern by tavern), not a list of 60
permutations; every choice shows what it means (a hero's class, ranks and rule text; a card's
points), the trading coin marked, each opponent's board and your running score on request (`?`
for help, `b` for boards). Fits an 80×24 terminal; readable labels, no Python reprs or raw ids.
`--human K --json` keeps prompts off stdout. `nidavellir replay LOG --verbose` narrates a game turn
by turn with the same words." Tests: "the seat driven through a pseudo-terminal (tmux or pexpect)
for a whole game" — here Python's own `pty`.
"""
from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from nidavellir.interface.decisions import CardChoice
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.terminal import LONG_LIST, WIDTH, InputEnded, TerminalSeat, read_bid, width_of

BASE = load_rules()
BOTH = load_rules(("thingvellir", "idavoll"))
HAND = [0, 2, 3, 4, 5]
CLI = [sys.executable, "-m", "nidavellir.cli"]


def seat_with(text: str, game: Game | None = None) -> tuple[TerminalSeat, io.StringIO]:
    out = io.StringIO()
    return TerminalSeat(io.StringIO(text), out), out


def lines_of(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


# -- bids ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, values", [("5 3 4", [5, 3, 4]), ("  0 5   2 ", [0, 5, 2]), ("", []), ("4", [4]),
                                          ("4 0", [4, 0])])
def test_a_bid_is_one_coin_per_tavern(text, values):
    """Issue: "bids entered as one coin per tavern (`5 3 4`, or tavern by tavern)": fewer coins than
    taverns (or none) leave the rest to be asked tavern by tavern."""
    assert read_bid(text, HAND, 3) == (values, "")


@pytest.mark.parametrize("text, why", [
    ("7 3 4", "you have no coin 7 (your coins: 0 2 3 4 5)"),
    ("5 5 3", "coin 5 used twice: you have 1 coin 5"),
    ("5 3 4 2", "3 taverns take 3 coins; you typed 4"),
    ("5,3,4", "`5,3,4` is not a coin; type coin values, such as 5 4 3"),
    ("5 ٣ 4", "`٣`: write coins with the digits 0-9"),
])
def test_a_bad_bid_says_what_is_wrong(text, why):
    """A coin the player does not have, a coin used twice, the wrong count: each named."""
    assert read_bid(text, HAND, 3) == (None, why)


def test_the_seat_takes_a_bid_typed_in_one_line_after_retries():
    """The first decision of a game is a bid: typed `5 3 4` after refused lines, each with its reason."""
    game = Game(BASE, 3, seed=2, journal=True)
    seat, out = seat_with("1\n7 3 4\n5 5 3\n5 3 4\n", game)
    assert seat.choose(observe(game)) == (5, 3, 4)
    text = out.getvalue()
    assert "you have no coin 1" in text and "you have no coin 7" in text and "coin 5 used twice" in text
    assert "1. " not in text  # no list of permutations


def test_the_seat_asks_tavern_by_tavern():
    """An empty line asks tavern by tavern; a line with fewer coins asks for the rest; `x` restarts."""
    game = Game(BASE, 3, seed=2, journal=True)
    seat, out = seat_with("\n5\n3\n4\n", game)
    assert seat.choose(observe(game)) == (5, 3, 4)
    asked = re.findall(r"coin for ([\w ]+) \(([^)]*); x restarts\)> ", out.getvalue())
    assert asked == [("Laughing Goblin", "0* 2 3 4 5"), ("Dancing Dragon", "0* 2 3 4"), ("Shining Horse", "0* 2 4")]
    # (the trading coin marked)
    seat, out = seat_with("2\n9\nx\n4 0 2\n", game)
    assert seat.choose(observe(game)) == (4, 0, 2)
    assert "the bid starts again" in out.getvalue() and "you have no coin 9" in out.getvalue()


# -- what the seat shows ----------------------------------------------------------------------------

def test_help_boards_and_scores_on_request():
    """Issue: "each opponent's board and your running score on request (`?` for help, `b` for
    boards)"; `s` the scores, `b N` one player's board in full, `h` what happened."""
    game = Game(BASE, 3, seed=2, journal=True)
    seat, out = seat_with("?\nb\nb 3\ns\nh\n5 3 4\n", game)
    seat.choose(observe(game))
    text = out.getvalue()
    assert "Commands (at any prompt):" in text
    assert "── Boards" in text and "1. P1 · gem" in text and "3. P3 · gem" in text
    assert "── P3's board" in text
    assert "── Scores now" in text and re.search(r"P2 +14", text)  # (the coins: 0+2+3+4+5)
    assert "Yours: Warriors 0" in text


def test_every_line_fits_80_columns_and_a_screen_fits_the_terminal():
    """Issue: "Fits an 80×24 terminal": lines cut or wrapped to 80 columns, each decision's screen
    (what happened, the board, the question, the options) under 22 lines; a card option shows its
    name ("more options than [12] are listed in two columns, in short", nidavellir/terminal.py)."""
    game = Game(BOTH, 4, seed=6, journal=True)
    names = {cid: d.name for cid, d in BOTH.cards.items()}
    screens = 0
    while game.pending is not None and screens < 60:
        d = game.pending
        seat, out = seat_with("b\ns\n", game)
        seat.seen = 0
        answer = d.options[0]
        with pytest.raises(InputEnded):  # (the input runs out: the seat was only looked at)
            seat.choose(observe(game))
        lines = re.sub(r"> ", ">\n", out.getvalue()).splitlines()  # (a terminal echoes the input's newline)
        assert all(width_of(line) <= WIDTH for line in lines)
        screen = lines[:next(i for i, line in enumerate(lines) if line.endswith(">"))]
        assert len(screen) <= 22
        if isinstance(answer, CardChoice):  # the card by its name; in a long list "in short" (terminal.py):
            name = names[answer.card]           # a long name of a card other than a dwarf by its first word
            if len(d.options) > LONG_LIST and len(name) > 14 and BOTH.cards[answer.card].kind != "dwarf":
                name = name.split(" ", 1)[0]
            assert name[:20] in out.getvalue()
        game.answer(answer)
        screens += 1
    assert screens == 60


def test_the_seat_sees_no_hidden_bid():
    """Issue: "a bot or the terminal seat can read every player's hidden bids from the state" — no
    more: P2's screen, boards, scores and history are the same whatever P1 bid."""
    shown = []
    for p1_bid in [(5, 4, 3), (0, 2, 3)]:
        game = Game(BASE, 3, seed=9, journal=True)
        game.answer(p1_bid)
        seat, out = seat_with("b\nb 1\ns\nh\n5 3 4\n", game)
        assert seat.choose(observe(game)) == (5, 3, 4)
        shown.append(out.getvalue())
    assert shown[0] == shown[1]
    assert "P1 bid" not in shown[0]


def test_choices_say_what_they_mean():
    """Issue: "every choice shows what it means (a hero's class, ranks and rule text; a card's
    points)": a tavern card with its class and points; `? N` tells its rule text in full."""
    game = Game(BASE, 3, seed=4, journal=True)
    while game.pending.kind != "pick":
        game.answer(game.pending.options[0])
    seat, out = seat_with("? 1\n1\n", game)
    seat.choose(observe(game))
    text = out.getvalue()
    assert re.search(r" 1\. \S.* — \w+", text)
    assert "worth" in text or "ranks" in text
    # a hero: class and ranks, and the rule text generated from its effects
    game = Game(BASE, 3, seed=3, journal=True)
    while game.pending is not None and game.pending.kind != "hero":
        game.answer(game.pending.options[0])
    assert game.pending is not None
    seat, out = seat_with("? 1\n1\n", game)
    seat.choose(observe(game))
    text = out.getvalue()
    assert "Recruit a hero" in text and " hero, " in text and "ranks" in text


# -- a whole game through a pseudo-terminal --------------------------------------------------------

PROMPT = re.compile(r"(?:bid> |coin for .*\((?P<left>[^)]*); x restarts\)> |> )$")


def drive(args: list[str], stdin_fd: int, read_fd: int, limit: float = 150.0, leave_at: int | None = None,
          extra: list[str] | None = None) -> str:
    """Answer every prompt on `read_fd` until the program ends: a bid tavern by tavern (the first
    coin left), an option by its number (1); the first prompts ask for help, boards and scores.
    `leave_at`: at that prompt (counting from 0) type `q` instead."""
    extra = ["?", "b", "s", "b 2", "h"] if extra is None else extra
    buf, seen = "", []
    prompts = 0
    start = time.time()
    while time.time() - start < limit:
        ready, _, _ = select.select([read_fd], [], [], 15)
        if not ready:
            raise AssertionError("the seat stopped answering: " + buf[-300:])
        try:
            data = os.read(read_fd, 65536)
        except OSError:  # (the pseudo-terminal closes with the program)
            break
        if not data:
            break
        text = data.decode("utf-8", "replace")
        buf += text
        seen.append(text)
        m = PROMPT.search(buf)
        if m is None:
            continue
        if m.group("left") is not None:
            answer = m.group("left").split()[0].rstrip("*")
        elif buf.endswith("bid> "):
            answer = extra.pop(0) if extra else ""
        else:
            answer = extra.pop(0) if extra else "1"
        if prompts == leave_at:
            answer = "q"
        prompts += 1
        os.write(stdin_fd, (answer + "\n").encode())
        buf = ""
    else:
        raise AssertionError("the game did not end in time")
    return "".join(seen).replace("\r\n", "\n")


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("boxes", [[], ["--expansions", "thingvellir,idavoll"]])
def test_a_whole_game_through_a_pseudo_terminal(boxes):
    """Seat 1 is human, against bots, at an 80 × 24 pseudo-terminal: the script answers each prompt
    (a valid bid, tavern by tavern; the first option) until the final scores appear."""
    import pty

    args = CLI + ["play", "--players", "3", "--seed", "7", "--human", "1", "--bots", "random", *boxes]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game at the terminal
        os.environ.update(COLUMNS="80", LINES="24")
        os.execvp(args[0], args)
    try:
        text = drive(args, fd, fd)
    finally:
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, text[-2000:]
    assert "Commands (at any prompt):" in text and "── Boards" in text and "── Scores now" in text
    assert "Bids revealed — " in text and "You took " in text
    assert re.search(r"Final scores: .* — .*(wins|win|share the win)", text)
    assert "Winner" in text  # the score table
    seat_part = text[:text.rfind("Game seed")]
    assert all(width_of(line) <= WIDTH for line in seat_part.splitlines())
    for raw in ("laughing-goblin", "CardChoice", "CoinChoice", "warrior:", "None"):
        assert raw not in seat_part


@pytest.mark.skipif(sys.platform == "win32", reason="select on pipes is POSIX")
def test_human_json_keeps_prompts_off_stdout():
    """Issue: "`--human K --json` keeps prompts off stdout": the seat talks on stderr; stdout holds
    only the game's JSON line."""
    proc = subprocess.Popen(CLI + ["play", "--players", "2", "--seed", "3", "--human", "2", "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        told = drive([], proc.stdin.fileno(), proc.stderr.fileno())
        out = proc.stdout.read().decode()
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == 0, told[-2000:]
    assert "bid> " in told and "Final scores:" in told
    lines = out.splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["bots"] == ["random", "human"]


# -- replay --verbose ------------------------------------------------------------------------------

def test_replay_verbose_narrates_each_game_turn_by_turn(tmp_path):
    """Issue: "`nidavellir replay LOG --verbose` narrates a game turn by turn with the same words",
    then its scores; with --json the JSON lines stay alone on stdout."""
    log = tmp_path / "games.jsonl"
    subprocess.run(CLI + ["play", "--players", "3", "--seed", "5", "--games", "2", "--expansions",
                          "thingvellir,idavoll", "--log", str(log)], check=True, capture_output=True, timeout=120)
    proc = subprocess.run(CLI + ["replay", str(log), "--verbose"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    games = [json.loads(line) for line in log.read_text().splitlines() if "nidavellir_log" in line]
    assert text.count("Game of line ") == len(games) == 2
    turns = {(e["age"], e["turn"]) for e in map(json.loads, log.read_text().splitlines()) if "answer" in e}
    for age, turn in turns:
        assert f"\nAge {age}, turn {turn}\n" in text
    assert "Bids revealed — Laughing Goblin: P1 " in text and " took " in text and "End of Age 2" in text
    assert text.count("Final scores: ") == 2 and text.count("Winner") == 2
    first = text.index("Final scores: ")
    assert first < text.index("Replay of ")  # the story, then the score table
    quiet = subprocess.run(CLI + ["replay", str(log), "--verbose", "--json"], capture_output=True, text=True,
                           timeout=120, check=False)
    assert [json.loads(line)["seed"] for line in quiet.stdout.splitlines()] == [5, 6]
    assert "Bids revealed" in quiet.stderr


# -- leaving and coming back ------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["q\n", "quit\n", "  Q \n"])
def test_q_leaves_the_game_at_any_prompt(text):
    """Issue 18: "A person can leave and come back: `q`/`quit` (today "`q` is not a coin")" — at an
    option's prompt, a bid's, and a coin's when a bid is asked tavern by tavern."""
    from nidavellir.terminal import SeatLeft

    game = Game(BASE, 3, seed=4, journal=True)
    for prompt_text in (text, "\n" + text):  # (a bid: at once, and at the first tavern's coin)
        seat, _ = seat_with(prompt_text, game)
        with pytest.raises(SeatLeft):
            seat.choose(observe(game))
    while game.pending.kind != "pick":
        game.answer(game.pending.options[0])
    seat, _ = seat_with(text, game)
    with pytest.raises(SeatLeft):
        seat.choose(observe(game))


def _at_terminal(args: list[str], cwd: Path, **kw: Any) -> tuple[int, str]:
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.environ.update(COLUMNS="80", LINES="24")
        os.execvp(args[0], args)
    try:
        text = drive(args, fd, fd, extra=[], **kw)
    finally:
        _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), text


def _decisions(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize("boxes, leave_at", [([], 0), ([], 7), (["--expansions", "thingvellir,idavoll"], 31)])
def test_a_game_left_and_resumed_is_the_game_never_left(tmp_path, boxes, leave_at):
    """Issue 18: "`play --resume LOG` continues a human game from its log at the same decision". A
    game left with `q` and resumed (twice: the second time without --log, so the log is written to
    the current folder) plays on to the very game, decision for decision and score for score, that
    the same answers give without leaving; the bots choose as they would have."""
    play = CLI + ["play", "--players", "3", "--seed", "11", "--human", "2", "--bots", "random,greedy", *boxes]
    code, whole = _at_terminal(play + ["--log", "whole.log"], tmp_path)
    assert code == 0, whole[-2000:]
    code, left = _at_terminal(play, tmp_path, leave_at=leave_at)
    assert code == 0, left[-2000:]
    assert "You left the game. Its decisions so far are in nidavellir-seed-11.log.\nTo continue it:" in left
    assert "nidavellir play --resume nidavellir-seed-11.log" in left
    log = tmp_path / "nidavellir-seed-11.log"
    kept = _decisions(log)
    assert kept == _decisions(tmp_path / "whole.log")[:len(kept)] and len(kept) >= 1  # (a header at least)
    code, again = _at_terminal(CLI + ["play", "--resume", log.name], tmp_path, leave_at=3)
    assert code == 0 and "nidavellir play --resume nidavellir-seed-11.log" in again, again[-2000:]
    code, rest = _at_terminal(CLI + ["play", "--resume", log.name], tmp_path)
    assert code == 0, rest[-2000:]
    assert _decisions(log) == _decisions(tmp_path / "whole.log")
    table = rest[rest.rfind("Game seed 11"):]
    assert table and table.strip() == whole[whole.rfind("Game seed 11"):].strip()


def test_resume_refuses_what_it_cannot_resume(tmp_path, capsys):
    """A finished game, a log with no terminal seat, options the log decides: refused with why."""
    from nidavellir.cli import main

    bots = tmp_path / "bots.log"
    assert main(["play", "--players", "3", "--seed", "2", "--log", str(bots)]) == 0
    capsys.readouterr()
    assert main(["play", "--resume", str(bots)]) == 1
    assert "its last game has ended, nothing to resume" in capsys.readouterr().err
    cut = tmp_path / "cut.log"
    cut.write_text("\n".join(bots.read_text(encoding="utf-8").splitlines()[:5]) + "\n", encoding="utf-8")
    assert main(["play", "--resume", str(cut)]) == 1
    assert "has no seat played at the terminal" in capsys.readouterr().err
    assert main(["play", "--resume", str(cut), "--variant", "first-game"]) == 2
    assert "--resume takes the rules, seed, players and bots from the log: leave out --variant" in \
        capsys.readouterr().err
