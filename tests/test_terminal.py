"""The terminal seat (`play --human K`): any input gets a clear retry, the end of input abandons the
game without a traceback, and outside text is shown with its control characters escaped."""
from __future__ import annotations

import io
import subprocess
import sys

import pytest

from nidavellir.errors import NidavellirError
from nidavellir.interface.decisions import Decision
from nidavellir.rulesets import load_rules
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import Observation, observe
from nidavellir.terminal import InputEnded, TerminalSeat, read_choice, visible

BASE = load_rules()
CHOICE = Decision(0, "class", ("warrior", "hunter", "miner"), "choose a class")
RETRY = "type a number from 1 to 3"


@pytest.mark.parametrize("text, option", [("1", "warrior"), ("3\n", "miner"), ("  2  \r\n", "hunter"),
                                          ("02", "hunter"), ("hunter", "hunter")])
def test_a_number_or_a_label_chooses(text, option):
    """README: "type a number" (an option's label, exactly, is taken too)."""
    assert read_choice(text, CHOICE) == (option, "")


@pytest.mark.parametrize("text, why", [
    ("", RETRY), ("   \t ", RETRY), ("\n", RETRY),
    ("abc", f"`abc` is not an option; {RETRY}"),
    ("-1", f"`-1` is not an option; {RETRY}"),
    ("0", f"`0` is not an option; {RETRY}"),
    ("4", f"`4` is not an option; {RETRY}"),
    ("+2", f"`+2` is not an option; {RETRY}"),
    ("1 2", f"`1 2` is not an option; {RETRY}"),
    ("2.0", f"`2.0` is not an option; {RETRY}"),
    ("9" * 5000, f"`{'9' * 24}…` is not an option; {RETRY}"),
    ("\x1b[A", f"`\\x1b[A` is not an option; {RETRY}"),
    ("\x00\x07", f"`\\x00\\x07` is not an option; {RETRY}"),
    ("\u202e2", f"`\\u202e2` is not an option; {RETRY}"),
])
def test_any_other_input_gets_a_clear_retry(text, why):
    """Issue: "any input gets a clear retry — empty line, spaces, letters, negative or zero, out of
    range, huge numbers, …, control characters" (shown escaped when repeated back)."""
    assert read_choice(text, CHOICE) == (None, why)


@pytest.mark.parametrize("text", ["٣", "３", "٢", "२", "𝟐"])
def test_digits_of_other_scripts_are_refused_with_a_hint(text):
    """Issue: non-ASCII digits such as "٣" or "３" (which `str.isdigit` and `int()` accept): decided
    explicitly — refused, with a hint to use 0-9, rather than read as a number the player may not
    have meant (they are not the digits the options are numbered with)."""
    assert text.isdigit() and 1 <= int(text) <= 3          # what Python alone would accept
    option, why = read_choice(text, CHOICE)
    assert option is None
    assert why == f"`{visible(text)}`: write the number with the digits 0-9; {RETRY}"


def seat_for(text: str | bytes) -> tuple[TerminalSeat, io.StringIO]:
    out = io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(text), encoding="utf-8") if isinstance(text, bytes) else io.StringIO(text)
    return TerminalSeat(stdin, out), out


def at_a_pick(seed: int = 3) -> Game:
    """A two-player game at its first choice of a card in a tavern (the bids answered)."""
    game = Game(BASE, 2, seed=seed)
    while game.pending is not None and game.pending.kind != "pick":
        game.answer(game.pending.options[0])
    assert game.pending is not None and len(game.pending.options) > 1
    return game


def test_the_seat_retries_until_an_option_is_chosen():
    """Each refused line gets its own retry line; the first option named is the answer."""
    game = at_a_pick()
    d = game.pending
    assert d is not None and len(d.options) == 3
    seat, out = seat_for("\nzz\n0\n٣\n2\n")
    assert seat.choose(observe(game)) == d.options[1]
    retries = [line for line in out.getvalue().splitlines() if "type a number from 1 to 3" in line]
    assert len(retries) == 4


def test_a_line_that_is_not_text_is_refused_alone():
    """Bytes that are not UTF-8 on the input get a retry; the next line is still read."""
    game = at_a_pick()
    assert game.pending is not None
    seat, out = seat_for(b"\xff\xfe\n1\n")
    assert seat.choose(observe(game)) == game.pending.options[0]
    assert "that line is not valid text" in out.getvalue()


def test_end_of_input_abandons_the_game():
    """Issue: "end of input abandons the game with a clear message (no traceback)": InputEnded is a
    NidavellirError, which the command line prints as an error."""
    game = Game(BASE, 2, seed=3)
    assert game.pending is not None
    seat, _ = seat_for("x\n")
    with pytest.raises(InputEnded, match="end of input: the game is abandoned"):
        seat.choose(observe(game))
    assert issubclass(InputEnded, NidavellirError)


def test_end_of_input_on_the_command_line():
    """The same from `nidavellir play --human 1` with input that runs out: a message, exit 1."""
    proc = subprocess.run([sys.executable, "-m", "nidavellir.cli", "play", "--players", "2", "--seed", "3",
                           "--human", "1"], input="1\n1\n", capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 1
    assert "nidavellir play: error: end of input: the game is abandoned" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("text, shown", [
    ("\x1b[2J", "\\x1b[2J"), ("a\x9bb", "a\\x9bb"), ("\x7f", "\\x7f"), ("\u202eevil", "\\u202eevil"),
    ("line\nbreak", "line\\x0abreak"), ("\u2028", "\\u2028"), ("tab\t", "tab\\x09"),
])
def test_control_characters_are_shown_escaped(text, shown):
    """Issue: "text with control characters or escape sequences is printed escaped (e.g. `\\x1b`
    shown visibly), so a hostile name cannot drive the terminal"."""
    assert visible(text) == shown


@pytest.mark.parametrize("text", ["Алесь", "Ölrun", "Járnglófi", "👩\u200d👩\u200d👧", "Zoë", "名前"])
def test_letters_of_any_script_are_shown_as_they_are(text):
    """Escaping is for what acts on a terminal, not for names in other scripts (or emoji joined by
    zero-width joiners)."""
    assert visible(text) == text


def test_hostile_names_do_not_reach_the_terminal():
    """Player names from outside (the game API) are escaped on the board the seat shows, and so are
    a decision's prompt and labels."""
    game = Game(BASE, ["\x1b]0;pwned\x07", "Bo\x1b[31m"], seed=3)
    seat, out = seat_for("b\n1\n")
    d = Decision(0, "use", (True, False), "use \x1b[5mit?", ("yes\x1b[0m", "no"))
    assert seat.choose(Observation(d, game.rules, game.engine.names, (), game)) is True
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;pwned\\x07" in text and "Bo\\x1b[31m" in text
    assert "Use \\x1b[5mit?" in text and "1. yes\\x1b[0m" in text  # (the prompt starts a sentence)
