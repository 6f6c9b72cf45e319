"""`report` and resuming check every record against what the manifest says was played, and every
file of the folder through the path judge (the audit of issue 17 §5, findings on records).

README, the folder: "`report` and resuming refuse a part or record that disagrees with
`simulation.json` in any of them, naming the file, the line or record, and the field (exit 1)";
README, Paths: "a pipe, socket or device (never opened: nothing waits on it)", "a simulation folder
[...] say[s] `cannot read PATH: …` or `cannot write PATH: …` (exit 2)".

The class (the audit: a record whose seed contradicts the manifest, renamed seats, a card the rule
set lacks, a record deleted from the middle, a manifest promising more games, a manifest edited to
the other format, a last line cut short or garbage — each summarised without a word; a FIFO for the
records hangs): a record must be a game the manifest played (its rule set, game index, seed S + i,
players, seats, bots, label, content hash, its cards the rule set's), in the order simulate writes
them; what is not is refused, located; a chunk or a line cut short by an interrupted run is set
aside with a note, and the summary counts exactly the complete paired games, saying when they are
fewer than the manifest's. Resuming agrees: it refuses what `report` refuses, and otherwise
completes the folder to the records of a run never disturbed.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_user_paths import watchdog

from nidavellir.cli import MAX_CHUNK, MAX_SEED, main
from nidavellir.compiler.paths import FOUND_A_FOLDER, NOT_REGULAR
from nidavellir.interface import numbers
from nidavellir.sim import records
from nidavellir.sim.verify import LEAD

GAMES, CHUNK = 6, 3   # games.jsonl: [set 0: games 0-2][set 1: 0-2][set 0: 3-5][set 1: 3-5], a line each
LINES = 2 * GAMES
RUN = ["--players", "3", "--variant", "generous-offerings", "--jobs", "1", "--chunk", str(CHUNK)]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with watchdog(240):
        code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


_MADE: dict[str, Path] = {}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The simulations the tests copy, each played once: JSON lines, and Parquet in two parts (a
    run of 3 games continued to 6)."""
    root = tmp_path_factory.mktemp("made")
    for fmt in records.FORMATS:
        out = root / fmt
        for games in (3, GAMES) if fmt == "parquet" else (GAMES,):
            assert main(["simulate", *RUN, "--games", str(games), "--format", fmt, "--out", str(out)]) == 0
        _MADE[fmt] = out
    return _MADE


def copy(made: dict[str, Path], fmt: str, to: Path) -> Path:
    shutil.copytree(made[fmt], to)
    return to


def digest(out: Path) -> str:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))["records"]["digest"]


def resume(capsys: pytest.CaptureFixture[str], out: Path, fmt: str, games: int = GAMES) -> tuple[int, str, str]:
    return cli(capsys, "simulate", *RUN, "--games", str(games), "--format", fmt, "--out", str(out))


def lines_of(out: Path) -> list[bytes]:
    return records.where(out, "jsonl").read_bytes().splitlines(keepends=True)


def files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def refused_by_both(capsys: pytest.CaptureFixture[str], out: Path, fmt: str, *said: str) -> str:
    """`report` and resuming refuse, exit 1, saying `said`, and change nothing."""
    before = files_of(out)
    code, _, err = cli(capsys, "report", str(out))
    assert code == 1 and all(s in err for s in said) and "Traceback" not in err, err
    code, _, again = resume(capsys, out, fmt)
    assert code == 1 and all(s in again for s in said) and "Traceback" not in again, again
    assert files_of(out) == before
    return err


# -- every field of a record, against the manifest ----------------------------------------------

def _facts(record: dict[str, Any], **change: Any) -> None:
    record["cards"][0].update(change)


FIELD_CASES: list[tuple[str, Any, str]] = [
    ("seed", lambda r: r.update(seed=r["seed"] + 1), "the record's `seed` is `2`, but game 0 of simulation.json "
                                                     "(seeds from 1) is played with seed 1"),
    ("seed far", lambda r: r.update(seed=10 ** 13), "the record's `seed` is `10000000000000`"),
    ("seats", lambda r: r.update(seats=["X1", "P2", "P3"]), "the record's `seats` are `X1,P2,P3`, but simulate "
                                                            "names the seats of a 3-player game `P1,P2,P3`"),
    ("seats short", lambda r: r.update(seats=["P1", "P2"]), "the record's `seats` are `P1,P2`"),
    ("game", lambda r: r.update(game=GAMES), f"the record's `game` is `{GAMES}`, but simulation.json names games 0 "
                                             f"to {GAMES - 1}"),
    ("game negative", lambda r: r.update(game=-1), "the record's `game` is `-1`"),
    ("game a string", lambda r: r.update(game="0"), "the record's `game` is `0`"),
    ("set", lambda r: r.update(set=2), "the record's `set` is `2`, but simulation.json has rule sets 0 and 1"),
    ("set a boolean", lambda r: r.update(set=False), "the record's `set` is `False`"),
    ("players", lambda r: r.update(players=4), "the record's `players` is `4`, but simulation.json says `3`"),
    ("bots", lambda r: r.update(bots=["greedy"] * 3), "the record's `bots` is `greedy,greedy,greedy`"),
    ("label", lambda r: r.update(label="someone"), "the record's `label` is `someone`"),
    ("content hash", lambda r: r.update(content_hash="0" * 64), "the record's `content_hash` is `000000000000…`"),
    ("a card no rule set has", lambda r: _facts(r, card="warrior:66"),
     "the record's card fact 1 names the card `warrior:66`, which rule set 0 of simulation.json does not have"),
    ("a card fact's player", lambda r: _facts(r, player=3), "has `player` `3`, not a seat of the game (0 to 2)"),
    ("a card fact's how", lambda r: _facts(r, how="stolen"), "has `how` `stolen`, not one of took, recruited"),
    ("a card fact's age", lambda r: _facts(r, age="1"), "has `age` `1`, not a whole number"),
    ("a card fact not an object", lambda r: r["cards"].__setitem__(0, "skaa"), "the record's card fact 1 is not "
                                                                               "an object"),
    ("cards not a list", lambda r: r.update(cards={}), "the record's `cards` is not a list of card facts"),
]


@pytest.mark.parametrize("case, change, said", FIELD_CASES, ids=[c[0] for c in FIELD_CASES])
def test_a_jsonl_record_unlike_what_was_played_is_refused_naming_its_line_and_field(capsys, tmp_path, made, case,
                                                                                     change, said):
    out = copy(made, "jsonl", tmp_path / "sim")
    lines = lines_of(out)
    record = json.loads(lines[0])
    change(record)
    lines[0] = (json.dumps(record) + "\n").encode()
    records.where(out, "jsonl").write_bytes(b"".join(lines))
    refused_by_both(capsys, out, "jsonl", "games.jsonl:1: ", said)


PART_CASES = [("seed", 99, "the record's `seed` is `99`"), ("seats", ["P1", "P3", "P2"], "the record's `seats`"),
              ("game", 0, "the record's `seed` is `2`, but game 0"),   # (game 1's record, renumbered)
              ("set", 1, "the record's `content_hash` is")]           # (rule set 0's record, renumbered)


@pytest.mark.parametrize("column, value, said", PART_CASES, ids=[c[0] for c in PART_CASES])
def test_a_parquet_record_unlike_what_was_played_is_refused_naming_its_part_and_place(capsys, tmp_path, made,
                                                                                       column, value, said):
    """The same of a record of a Parquet part (its second record changed, the part rewritten with
    its metadata): the part, the record's place in it, and the field or the order it breaks."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = copy(made, "parquet", tmp_path / "sim")
    part = records.parts(records.where(out, "parquet"))[0]
    table = pq.read_table(part)
    values = table.column(column).to_pylist()
    values[1] = value
    i = table.schema.get_field_index(column)
    table = table.set_column(i, table.schema.field(i), pa.array(values, type=table.schema.field(i).type))
    pq.write_table(table, part)
    refused_by_both(capsys, out, "parquet", "part-00000.parquet: record 2: ", said)


def test_a_card_of_the_other_rule_set_only_is_refused(capsys, tmp_path, made):
    """"card ids known to the rule set": a variant that removes Skaa; a record of the variant's rule
    set naming Skaa (which the base rule set has) is refused; the manifest lists each rule set's cards."""
    variant = tmp_path / "no-skaa.yaml"
    variant.write_text("layer: {id: no-skaa, name: No Skaa, description: d.}\nremove: [skaa]\n", encoding="utf-8")
    out = tmp_path / "sim"
    args = ["--players", "3", "--variant", str(variant), "--jobs", "1", "--games", "2", "--format", "jsonl",
            "--out", str(out)]
    assert cli(capsys, "simulate", *args)[0] == 0
    manifest = json.loads((out / "simulation.json").read_text(encoding="utf-8"))
    assert "skaa" not in manifest["rule_sets"][0]["cards"] and "skaa" in manifest["rule_sets"][1]["cards"]
    lines = lines_of(out)
    record = json.loads(lines[0])
    record["cards"][0]["card"] = "skaa"
    lines[0] = (json.dumps(record) + "\n").encode()
    records.where(out, "jsonl").write_bytes(b"".join(lines))
    code, _, err = cli(capsys, "report", str(out))
    assert code == 1 and "games.jsonl:1: the record's card fact 1 names the card `skaa`, which rule set 0" in err


# -- the order, and what is counted -------------------------------------------------------------

def _complete_pairs(kept: list[bytes]) -> int:
    """The games every rule set has, from game 0 on: what a summary may count."""
    have = {(r["set"], r["game"]) for r in map(json.loads, kept)}
    k = 0
    while (0, k) in have and (1, k) in have:
        k += 1
    return k


@pytest.mark.parametrize("edit", ["removed", "repeated", "moved to the end"])
@pytest.mark.parametrize("line", range(1, LINES + 1))
def test_no_record_is_lost_or_added_without_a_word(capsys, tmp_path, made, edit, line):
    """Any one record removed, repeated or moved: `report` either refuses, naming a line of the
    file, or counts exactly the complete paired games that are there and, when they are fewer than
    the manifest's six, says in a note what it did not count. Never fewer games without a word.
    Resuming agrees: it refuses what `report` refuses, or completes the folder to the records of a
    run never disturbed."""
    out = copy(made, "jsonl", tmp_path / "sim")
    lines = lines_of(out)
    gone = lines.pop(line - 1)
    if edit == "repeated":
        lines.insert(line - 1, gone)
        lines.insert(line - 1, gone)
    elif edit == "moved to the end":
        lines.append(gone)
    records.where(out, "jsonl").write_bytes(b"".join(lines))
    code, out_text, err = cli(capsys, "report", str(out), "--json")
    if code == 1:
        assert "games.jsonl:" in err and "Traceback" not in err, err
        code, _, again = resume(capsys, out, "jsonl")
        assert code == 1 and again.splitlines()[-1].split(": error: ")[1] == err.splitlines()[-1].split(": error: ")[1]
        return
    assert code == 0, err
    summary = json.loads(out_text)
    counted = _complete_pairs(lines)
    assert [rs["games"] for rs in summary["rule_sets"]] == [counted, counted] and summary["records"]["games"] == counted
    if counted == GAMES:  # (a record moved where simulate's order still allows it: every game is there)
        assert summary["records"]["digest"] == digest(made["jsonl"]) and "note:" not in err
    else:
        assert summary["records"]["notes"] and "note:" in err, summary["records"]
        assert f"the records hold {counted} of the {GAMES} games per rule set" in err
    assert resume(capsys, out, "jsonl")[0] == 0 and digest(out) == digest(made["jsonl"])


@pytest.mark.parametrize("keep", [1, 4, 7, 40, -1], ids=["1 byte", "4 bytes", "7 bytes", "40 bytes", "all but its end"])
def test_a_last_line_cut_short_is_set_aside_in_words_and_resuming_completes_it(capsys, tmp_path, made, keep):
    """"a cut last line of an interrupted run: say plainly what it set aside". The last line (game
    5 of rule set 1) cut anywhere: not counted, said at its line; the record of game 5 of rule set 0
    waits for it and is set aside, said at its line; the summary counts games 0-4 and says so."""
    out = copy(made, "jsonl", tmp_path / "sim")
    lines = lines_of(out)
    lines[-1] = lines[-1][:keep] if keep > 0 else lines[-1][:-1]
    records.where(out, "jsonl").write_bytes(b"".join(lines))
    code, out_text, err = cli(capsys, "report", str(out), "--json")
    assert code == 0, err
    path = records.where(out, "jsonl")
    assert f"note: {path}:{LINES}: a record cut short (an interrupted run?) is not counted; run simulate again " \
           "to complete it" in err
    assert f"note: {path}:{GAMES + CHUNK}: a record of game {GAMES - 1} without its game of every rule set" in err
    assert json.loads(out_text)["records"]["games"] == GAMES - 1
    assert resume(capsys, out, "jsonl")[0] == 0 and digest(out) == digest(made["jsonl"])


@pytest.mark.parametrize("tail", [b"garbage", b"}{", b"[1, 2]", b"\xff"])
def test_a_last_line_that_is_no_record_nor_the_start_of_one_is_refused(capsys, tmp_path, made, tail):
    """A last line without its end that is not how a record begins: refused at its line by both."""
    out = copy(made, "jsonl", tmp_path / "sim")
    with open(records.where(out, "jsonl"), "ab") as f:
        f.write(tail)
    refused_by_both(capsys, out, "jsonl", f"games.jsonl:{LINES + 1}: not a simulation record, nor one cut short")


def test_a_chunk_of_one_rule_set_far_ahead_of_the_other_is_refused():
    """Simulate writes at most a chunk (--chunk ≤ 1,000 games) of one rule set before the others':
    records of one rule set running further ahead are not its order (and holding them would grow)."""
    from nidavellir.sim.provenance import Expected
    from nidavellir.sim.records import RecordsError
    from nidavellir.sim.verify import Pairing

    assert LEAD == MAX_CHUNK
    manifest = {"players": 3, "bots": ["random"] * 3, "seed": 1, "games": LEAD + 5, "cards": {},
                "rule_sets": [{"index": i, "label": "x", "content_hash": "h", "cards": []} for i in (0, 1)]}
    pairing = Pairing(Expected(manifest), Path("games.jsonl"))
    record = {"set": 0, "label": "x", "content_hash": "h", "players": 3, "bots": ["random"] * 3,
              "seats": ["P1", "P2", "P3"], "cards": []}
    for g in range(LEAD):
        assert pairing.add({**record, "game": g, "seed": 1 + g}, f"games.jsonl:{g + 1}") == []
    with pytest.raises(RecordsError, match=f"games.jsonl:{LEAD + 1}: rule set 0's records run more than {LEAD} games "
                                           "ahead of rule set 1's"):
        pairing.add({**record, "game": LEAD, "seed": 1 + LEAD}, f"games.jsonl:{LEAD + 1}")


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_a_manifest_promising_more_games_is_said_and_the_count_is_what_is_there(capsys, tmp_path, made, fmt):
    """"a manifest saying 30 games over 20 records gives '20 games'" without a word: now the summary
    counts the games there, says they are fewer than the manifest's, and resuming plays the rest."""
    out = copy(made, fmt, tmp_path / "sim")
    path = out / "simulation.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**manifest, "games": GAMES + 3}), encoding="utf-8")
    code, out_text, err = cli(capsys, "report", str(out), "--json")
    summary = json.loads(out_text)
    assert code == 0 and summary["records"]["games"] == GAMES and [rs["games"] for rs in summary["rule_sets"]] == \
        [GAMES, GAMES]
    assert f"note: {records.where(out, fmt)}: the records hold {GAMES} of the {GAMES + 3} games per rule set" in err
    code, _, err = resume(capsys, out, fmt, GAMES + 3)
    assert code == 0 and "note:" not in err, err


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_records_of_the_other_format_are_refused(capsys, tmp_path, made, fmt):
    """"a manifest `format` edited to `parquet` beside `games.jsonl` gives 'games 0' exit 0 (and a
    resumed simulate then writes games.parquet/ beside the JSON lines)": the manifest names the
    format, the folder holds the other: refused by both, nothing written."""
    other = next(f for f in records.FORMATS if f != fmt)
    out = copy(made, fmt, tmp_path / "sim")
    path = out / "simulation.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**manifest, "format": other}), encoding="utf-8")
    before = files_of(out)
    code, _, err = cli(capsys, "report", str(out))
    assert code == 1 and f"simulation.json says the records are {other}" in err and \
        f"but the folder holds {records.where(out, fmt).name}" in err, err
    code, _, err = resume(capsys, out, other)
    assert code == 1 and f"but the folder holds {records.where(out, fmt).name}" in err, err
    assert files_of(out) == before and not records.where(out, other).exists()


@pytest.mark.parametrize("change, said", [({"seed": MAX_SEED + 1}, "`seed` 1000000000001 and `games` 6 play seeds past"),
                                          ({"seed": MAX_SEED - 2}, "`seed` 999999999998 and `games` 6 play seeds past"),
                                          ({"seed": -MAX_SEED - 1}, "past the bound of a seed")])
def test_a_manifest_whose_seeds_pass_the_bound_is_refused(capsys, tmp_path, made, change, said):
    """One bound for a seed wherever one is read: a manifest whose games S … S+G−1 pass ±10^12."""
    out = copy(made, "jsonl", tmp_path / "sim")
    path = out / "simulation.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**manifest, **change}), encoding="utf-8")
    code, _, err = cli(capsys, "report", str(out))
    assert code == 1 and "simulation.json: " in err and said in err, err


def test_the_seed_bound_is_one():
    """The command line's bound is the one every reader uses."""
    assert MAX_SEED == numbers.MAX_SEED and numbers.is_seed(MAX_SEED) and not numbers.is_seed(MAX_SEED + 1)
    assert not numbers.is_seed(True) and not numbers.is_seed(1.0)


# -- every file of the folder, through the path judge ---------------------------------------------

def _pipe(path: Path, elsewhere: Path) -> None:
    _clear(path)
    os.mkfifo(path)


def _device(path: Path, elsewhere: Path) -> None:
    _clear(path)
    os.symlink("/dev/zero", path)


def _out_of_folder(path: Path, elsewhere: Path) -> None:
    target = elsewhere / path.name
    if path.is_dir():
        shutil.copytree(path, target)
    else:
        shutil.copy(path, target)
    _clear(path)
    os.symlink(target, path)


def _swapped(path: Path, elsewhere: Path) -> None:
    """A folder where a file belongs, a file where a folder belongs."""
    folder = path.is_dir()
    _clear(path)
    if folder:
        path.write_text("a file", encoding="utf-8")
    else:
        path.mkdir()


def _clear(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


ODD = {"a pipe": _pipe, "a device": _device, "a link out of the folder": _out_of_folder, "swapped": _swapped}
# a file of the folder: its format, whether it is a folder, and the verb of report and of resuming
FILES = {"simulation.json": ("jsonl", False, "read", "read"), "games.jsonl": ("jsonl", False, "read", "read"),
         "games.parquet": ("parquet", True, "read", "read"),
         "games.parquet/part-00001.parquet": ("parquet", False, "read", "read"),
         "summary.json": ("jsonl", False, "write", "write"), "report.html": ("jsonl", False, "write", "write"),
         "report.md": ("parquet", False, "write", "write"), "plots": ("jsonl", True, "write", "write"),
         "plots/seats.png": ("jsonl", False, "write", "write")}


def _reason(case: str, folder: bool) -> str:
    if case == "a link out of the folder":
        return "a symbolic link out of the simulation's folder (to "
    if case == "swapped":
        return "expected a folder, found a file" if folder else FOUND_A_FOLDER
    return "expected a folder, found a pipe, a socket or a device" if folder else NOT_REGULAR


@pytest.mark.parametrize("command", ["report", "resume"])
@pytest.mark.parametrize("case", list(ODD))
@pytest.mark.parametrize("name", list(FILES))
def test_every_file_of_the_folder_goes_through_the_path_judge(capsys, tmp_path, made, name, case, command):
    """Each file `report` or a resumed `simulate` reads or writes in the folder, made a pipe, a
    device, a link out of the folder, or a folder for a file (a file for a folder): refused at once
    (never waited on), exit 2, `cannot read PATH: …` or `cannot write PATH: …` in the judge's words,
    and nothing outside the folder written."""
    fmt, folder, report_verb, resume_verb = FILES[name]
    out = copy(made, fmt, tmp_path / "sim")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = out / name
    ODD[case](path, elsewhere)
    outside = files_of(elsewhere)
    if command == "report":
        code, _, err = cli(capsys, "report", str(out))
        verb = report_verb
    else:
        code, _, err = resume(capsys, out, fmt)
        verb = resume_verb
    assert code == 2 and "Traceback" not in err, err
    assert f"error: cannot {verb} {path}: {_reason(case, folder)}" in err, err
    assert files_of(elsewhere) == outside


# -- a game that fails in play ----------------------------------------------------------------------

FAILS = 'layer: {id: fails, name: Fails}\ngame:\n  classes:\n    - id: hunter\n      score: "ranks * ranks + 10 / cards(royal-offering)"\n'


@pytest.mark.parametrize("command", ["simulate --jobs 1", "simulate --jobs 2", "league"])
def test_a_game_that_fails_in_play_names_itself_and_how_to_play_it_alone(capsys, tmp_path, command, monkeypatch):
    """"name the rule set, game index, seed and seats, so `play --seed … --bots …` reproduces it": a
    variant whose hunter formula divides by the royal offerings a player holds at the end (none:
    they are used and discarded; `check` can only warn) stops every game at final scoring. The error
    names the game, its seed and seats, and the `play` command it prints stops with the same error.
    (`--jobs 2` runs two workers exactly: NIDAVELLIR_JOBS_EXACT=1, else 4 games play in-process.)"""
    monkeypatch.setenv("NIDAVELLIR_JOBS_EXACT", "1")
    variant = tmp_path / "fails.yaml"
    variant.write_text(FAILS, encoding="utf-8")
    if command == "league":
        args = ["league", "--players", "2", "--bots", "greedy,random", "--games", "2", "--seed", "40",
                "--variant", str(variant)]
        names = ("game 1 of seating 1 (greedy,random), seed 40, seats P1 greedy, P2 random, stopped: ",)
    else:
        args = ["simulate", "--players", "3", "--bots", "random,greedy", "--games", "4", "--seed", "40",
                "--variant", str(variant), "--against", "base", *command.split()[1:], "--out", str(tmp_path / "s")]
        names = ("game 0 of rule set 0 (`fails`), seed 40, seats P1 random, P2 greedy, P3 random, stopped: ",)
    code, _, err = cli(capsys, *args)
    assert code == 1 and all(n in err for n in names) and "Traceback" not in err, err
    error = err.split("stopped: ", 1)[1].split("\n", 1)[0]
    assert f"{variant}:5:" in error and "division by zero" in error
    command_line = err.split("to play it alone: ", 1)[1].split("\n", 1)[0]
    played = shlex.split(command_line)
    assert played[:2] == ["nidavellir", "play"]
    code, _, again = cli(capsys, *played[1:])
    assert code == 1 and f"nidavellir play: error: {error}" in again, again
