"""`nidavellir replay` and the decision log (DESIGN §7: "the decision log (JSON lines) replays to the
identical final state"): every header field and decision line validated with `path:LINE: error:`,
never a traceback; variants found from another folder; old logs still replay. Issue 9: "consistent
exit codes (0 ok, 1 the input is wrong, 2 usage)": a game that does not replay is wrong input, exit 1;
a log that cannot be read at all is a usage error, exit 2."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from nidavellir.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIRST_GAME = ROOT / "rules" / "variants" / "first-game.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def log(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[Path, list[dict[str, Any]], str]:
    """A log of two games (2 players, seeds 5 and 6), its lines as JSON, and the games' --json output."""
    path = tmp_path / "games.jsonl"
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "5", "--games", "2", "--json", "--log", str(path))
    assert code == 0
    return path, [json.loads(line) for line in path.read_text().splitlines()], out


def second_header(lines: list[dict[str, Any]]) -> int:
    return next(i for i, e in enumerate(lines) if i and "nidavellir_log" in e)


def write(path: Path, entries: list[Any]) -> str:
    path.write_text("".join((e if isinstance(e, str) else json.dumps(e)) + "\n" for e in entries))
    return str(path)


def replay(capsys: pytest.CaptureFixture[str], path: str, *more: str) -> tuple[int, str, str]:
    code, out, err = run(capsys, "replay", path, *more)
    assert "Traceback" not in err
    return code, out, err


def test_a_log_replays_to_the_same_results(capsys, log):
    """DESIGN §7: "the decision log (JSON lines) replays to the identical final state"."""
    path, _, played = log
    code, out, err = replay(capsys, str(path), "--json")
    assert code == 0, err
    assert out == played


# -- the header ------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"seed": True}, "the header's `seed` must be an integer, not true"),
    ({"seed": "5"}, "the header's `seed` must be an integer, not \"5\""),
    ({"seed": 5.0}, "the header's `seed` must be an integer, not 5.0"),
    ({"seed": None}, "the header's `seed` must be an integer, not null"),
    ({"players": ["A", "A"]}, "two players are named \"A\""),
    ({"players": ["A", ""]}, "player 2's name must be a non-empty string, not \"\""),
    ({"players": ["A", 7]}, "player 2's name must be a non-empty string, not 7"),
    ({"players": ["A", "\u001b[2J"]}, "player 2's name holds control characters"),
    ({"players": "AB"}, "the header's `players` must be a list of names, not \"AB\""),
    ({"players": ["A"]}, "these rules play with 2 to 5 players; the header names 1"),
    ({"players": ["A", "B", "C", "D", "E", "F"]}, "these rules play with 2 to 5 players; the header names 6"),
    ({"expansions": ["asgard"]}, "unknown expansion `asgard`"),
    ({"expansions": "thingvellir"}, "the header's `expansions` must be a list of strings"),
    ({"variants": [3]}, "the header's `variants` must be a list of strings, not [3]"),
    ({"nidavellir_log": 3}, "this log is of format 3, newer than this program reads (2)"),
    ({"nidavellir_log": 1}, "this log is of format 1: its seed dealt the game from one random stream"),
    ({"nidavellir_log": "1"}, "`nidavellir_log` is the log format version, a positive integer, not \"1\""),
])
def test_header_fields_are_validated_and_located(capsys, tmp_path, log, change, message):
    """Issue: "seed must be an int, not a bool; players a list of distinct non-empty strings within the
    rules' player range; expansions known; variants a list of strings", located `path:LINE: error:`."""
    _, lines, _ = log
    n = second_header(lines)
    path = write(tmp_path / "bad.jsonl", [{**lines[0], **change}] + lines[1:n])
    code, out, err = replay(capsys, path)
    assert code == 1 and out == ""
    assert f"{path}:1: error: {message}" in err


def test_a_header_without_seed_and_every_problem_of_it(capsys, tmp_path, log):
    """Issue: "validate the header … with located errors": each problem of the line is reported."""
    _, lines, _ = log
    header = {k: v for k, v in lines[0].items() if k != "seed"}
    path = write(tmp_path / "bad.jsonl", [{**header, "players": [1], "expansions": ["x"]}] + lines[1:3])
    code, _, err = replay(capsys, path)
    assert code == 1
    assert [line for line in err.splitlines() if ": error: " in line] == [
        f"{path}:1: error: the header has no `seed`",
        f"{path}:1: error: player 1's name must be a non-empty string, not 1",
        f"{path}:1: error: unknown expansion `x` (choose from: thingvellir, idavoll)",
    ]


def test_a_log_of_other_rules_is_noted_and_replayed(capsys, tmp_path, log):
    """Issue: "a log of another rules version (note, as today)": said on stderr; it still replays."""
    _, lines, played = log
    path = write(tmp_path / "old.jsonl", [{**lines[0], "rules": "0" * 64}] + lines[1:])
    code, out, err = replay(capsys, path, "--json")
    assert code == 0
    assert f"{path}:1: note: the rules changed since this log was written" in err
    assert out == played


def test_an_unreadable_variant_is_reported(capsys, tmp_path, log):
    """Issue: "Never a traceback: … an unreadable variant"."""
    _, lines, _ = log
    broken = tmp_path / "broken.yaml"
    broken.write_text("layer: [\n")
    path = write(tmp_path / "v.jsonl", [{**lines[0], "variants": [str(broken), "absent.yaml"]}] + lines[1:3])
    code, _, err = replay(capsys, path)
    assert code == 1
    assert f"{path}:1: error: the rules of this log do not load" in err
    assert "not found as given, at the absolute path the log recorded, nor next to the log: absent.yaml" in err


# -- decision lines ------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    ({"p": 1}, "this line does not match the game: it says p 1, but the game asks for p 0"),
    ({"kind": "hero"}, "this line does not match the game: it says kind \"hero\", but the game asks for kind \"bid\""),
    ({"age": 2, "turn": 4}, "it says age 2, turn 4, but the game asks for age 1, turn 1"),
    ({"p": True}, "`p` must be an integer, not true"),
    ({"turn": "1"}, "`turn` must be an integer, not \"1\""),
    ({"kind": 3}, "`kind` must be a string, not 3"),
])
def test_decision_fields_must_agree_with_the_pending_decision(capsys, tmp_path, log, change, message):
    """Issue: "each decision line an object with `answer` and optionally p/kind/age/turn which, when
    present, must agree with the pending decision — a mismatch is reported as such"."""
    _, lines, _ = log
    n = second_header(lines)
    path = write(tmp_path / "bad.jsonl", [lines[0], {**lines[1], **change}] + lines[2:n])
    code, _, err = replay(capsys, path)
    assert code == 1
    assert f"{path}:2: error: " in err and message in err


def test_answers_are_matched_strictly(capsys, tmp_path, log):
    """Issue: "answers matched strictly": a bid of floats is not the bid of integers it equals."""
    _, lines, _ = log
    bid = lines[1]["answer"]
    path = write(tmp_path / "bad.jsonl", [lines[0], {**lines[1], "answer": [float(v) for v in bid]}] + lines[2:])
    code, _, err = replay(capsys, path)
    assert code == 1
    assert f"{path}:2: error: {[float(v) for v in bid]} is not a legal answer to 'bid'" in err


@pytest.mark.parametrize("case, line, message", [
    ("bad json", 3, "not a JSON line: Expecting ',' delimiter"),
    ("no answer", 3, "a decision line needs `answer`"),
    ("not an object", 3, "a log line is a JSON object"),
    ("not utf-8", 3, "not valid UTF-8 (byte 0xff at column 1)"),
    ("too deep", 3, "the answer is nested more than 16 levels deep"),
    ("deeper than json", 3, "not a JSON line: nested too deeply"),
    ("huge integer", 3, "not a JSON line: `" + "9" * 40 + "...` is too long a number (5000 characters; at most 40)"),
    ("16-digit integer", 3, "not a JSON line: `" + "9" * 16 + "` is too large a number (at most 15 digits)"),
    ("huge float", 3, "not a JSON line: `1e400` is too large a number (at most 15 digits)"),
    ("infinity", 3, "not a JSON line: `-Infinity` is not a number"),
    ("not a number", 3, "not a JSON line: `NaN` is not a number"),
    ("truncated line", 3, "not a JSON line: Unterminated string"),
    ("truncated log", 11, "the log ends before the game does: "),
    ("one line too many", None, "the game is already over: this line answers nothing"),
    ("no header", 1, "a log starts with a header line"),
])
def test_bad_lines_are_located(capsys, tmp_path, log, case, line, message):
    """Issue: "Never a traceback: a bad JSON line, a truncated log"; every problem `path:LINE: error:`.
    Issue 17 §7: every number of a log is read by the one bounded parser (NaN and Infinity refused)."""
    _, lines, _ = log
    n = second_header(lines)
    game = [json.dumps(e) for e in lines[:n]]
    bad = {"bad json": '{"p":0,"answer":[1 2]}', "no answer": json.dumps({"p": 1}), "not an object": "[1, 2]",
           "not utf-8": None, "too deep": '{"answer": ' + "[" * 20 + "0" + "]" * 20 + "}",
           "deeper than json": '{"answer": ' + "[" * 100_000 + "]" * 100_000 + "}",
           "huge integer": '{"answer": ' + "9" * 5000 + "}", "truncated line": game[2][:12],
           "16-digit integer": '{"answer": ' + "9" * 16 + "}", "huge float": '{"p": 0, "answer": 1e400}',
           "infinity": '{"answer": -Infinity}', "not a number": '{"answer": [NaN]}'}
    if case in bad:
        raw = [g.encode() for g in game[:2]] + [b"\xff" + game[2].encode() if bad[case] is None else bad[case].encode()]
        raw += [g.encode() for g in game[3:]]
    elif case == "truncated log":
        raw = [g.encode() for g in game[:11]]
    elif case == "one line too many":
        raw = [g.encode() for g in game + [game[-1]]]
        line = len(raw)
    else:
        raw = [g.encode() for g in game[1:]]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b"\n".join(raw) + b"\n")
    code, out, err = replay(capsys, str(path))
    assert code == 1 and out == ""
    assert f"{path}:{line}: error: {message}" in err


@pytest.mark.parametrize("content", [b"", b"\n  \n\n"])
def test_an_empty_log_is_reported(capsys, tmp_path, content):
    """Never a traceback: an empty log says so."""
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    code, _, err = replay(capsys, str(path))
    assert code == 1 and f"{path}:1: error: empty log: no header line" in err


def test_an_unreadable_log_is_a_usage_error(capsys, tmp_path):
    """A missing file or a folder is said plainly (exit 2), without a traceback."""
    for target in (tmp_path / "absent.jsonl", tmp_path):
        code, _, err = replay(capsys, str(target))
        assert code == 2 and f"cannot read {target}" in err


def test_a_bad_game_does_not_stop_the_next_one(capsys, tmp_path, log):
    """Each game of a log is replayed on its own: a problem in the first is reported (with --json,
    an error line in its place), the second still replays."""
    path, lines, played = log
    assert second_header(lines) > 4     # line 4 is a decision of the first game
    lines[3] = {**lines[3], "answer": "nonsense"}
    write(path, lines)
    code, out, err = replay(capsys, str(path), "--json")
    assert code == 1
    first, second = out.splitlines()
    assert json.loads(first)["file"] == str(path) and json.loads(first)["errors"][0]["line"] == 4
    assert json.loads(second) == json.loads(played.splitlines()[1])
    assert f"{path}:4: error: 'nonsense' is not a legal answer" in err


def test_a_log_without_the_new_fields_still_replays(capsys, tmp_path, log):
    """Issue: "Keep the log format backward compatible where possible (logs without age/turn still
    replay)": decision lines of `answer` alone, a header without `variant_files`."""
    _, lines, played = log
    old = [{k: v for k, v in lines[0].items() if k != "variant_files"}]
    old += [{"answer": e["answer"]} if "answer" in e else e for e in lines[1:]]
    path = write(tmp_path / "old.jsonl", old)
    code, out, err = replay(capsys, path, "--json")
    assert code == 0, err
    assert out == played


def test_a_byte_order_mark_is_ignored(capsys, tmp_path, log):
    """A log saved by an editor with a UTF-8 byte order mark still replays."""
    path, _, played = log
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    code, out, _ = replay(capsys, str(path), "--json")
    assert code == 0 and out == played


# -- variants from another folder ---------------------------------------------------------------

@pytest.fixture()
def variant_log(capsys, tmp_path, monkeypatch) -> tuple[Path, str]:
    """A game played in tmp_path/play with `--variant v/house.yaml --log v/game.jsonl` (relative)."""
    folder = tmp_path / "play"
    (folder / "v").mkdir(parents=True)
    shutil.copy(FIRST_GAME, folder / "v" / "house.yaml")
    monkeypatch.chdir(folder)
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "2", "--json",
                       "--variant", "v/house.yaml", "--log", "v/game.jsonl")
    assert code == 0
    return folder, out


def test_the_header_records_the_variant_paths(variant_log):
    """Issue: "write both the path as given and its absolute resolved path (and the variant's
    content hash if cheap)"."""
    folder, _ = variant_log
    header = json.loads((folder / "v" / "game.jsonl").read_text().splitlines()[0])
    assert header["variants"] == ["v/house.yaml"]
    (record,) = header["variant_files"]
    assert record["given"] == "v/house.yaml"
    assert record["path"] == str((folder / "v" / "house.yaml").resolve())
    assert record["from_log"] == "house.yaml"
    import hashlib
    assert record["sha256"] == hashlib.sha256(FIRST_GAME.read_bytes()).hexdigest()


def test_a_variant_is_found_as_given_first(capsys, variant_log):
    """Issue: "try the path as given relative to the current folder" first: no note then."""
    folder, played = variant_log
    code, out, err = replay(capsys, "v/game.jsonl", "--json")
    assert code == 0 and out == played
    assert "note:" not in err


def test_a_variant_is_found_by_its_absolute_path(capsys, variant_log, monkeypatch):
    """Issue: "… then the absolute one …; say which was used if not the first"."""
    folder, played = variant_log
    monkeypatch.chdir(folder.parent)
    code, out, err = replay(capsys, "play/v/game.jsonl", "--json")
    assert code == 0 and out == played
    assert "note: the variant `v/house.yaml` is not found from the current folder; using " \
           f"{(folder / 'v' / 'house.yaml').resolve()} (its absolute path when the log was written)" in err
    assert "the rules changed" not in err


def test_a_variant_is_found_next_to_the_log(capsys, variant_log, monkeypatch, tmp_path):
    """Issue: "… then relative to the log file's folder": the folder moved, the log and the variant
    with it; found from where it was relative to the log."""
    folder, played = variant_log
    moved = tmp_path / "moved"
    os.rename(folder, moved)
    monkeypatch.chdir(tmp_path)
    code, out, err = replay(capsys, "moved/v/game.jsonl", "--json")
    assert code == 0, err
    assert out == played
    assert "using moved/v/house.yaml (where it was from the log)" in err
    assert "the rules changed" not in err


def test_a_changed_variant_is_noted(capsys, variant_log):
    """A variant whose bytes differ from those the log recorded is used, with a note."""
    folder, _ = variant_log
    with open(folder / "v" / "house.yaml", "a") as f:
        f.write("# edited\n")
    code, _, err = replay(capsys, "v/game.jsonl")
    assert code == 0
    assert "note: the variant `v/house.yaml` changed since the log was written" in err
