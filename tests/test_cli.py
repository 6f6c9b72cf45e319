"""The command line contracts of DESIGN §8: play, score, replay."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nidavellir.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_play_prints_a_final_table(capsys):
    code, out, _ = run_cli(capsys, "play", "--players", "3", "--seed", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("Game seed 1: 3 players")
    assert lines[1].split() == ["player", "warrior", "hunter", "miner", "blacksmith", "explorer", "heroes",
                                "coins", "total"]
    assert [l.split()[0] for l in lines[3:6]] == ["P1", "P2", "P3"]
    assert lines[6].startswith("Winner")


def test_play_json_games_and_seeds(capsys):
    """`--games G` plays seeds S, S+1, …; `--json` prints one object per game per line."""
    code, out, _ = run_cli(capsys, "play", "--players", "4", "--seed", "10", "--games", "3", "--json")
    assert code == 0
    games = json_lines(out)
    assert [g["seed"] for g in games] == [10, 11, 12]
    for g in games:
        assert len(g["players"]) == 4 and g["winners"]
        for p in g["players"]:
            assert p["total"] == sum(p["breakdown"].values())
            assert set(p["breakdown"]) >= {"warrior", "hunter", "miner", "blacksmith", "explorer", "heroes", "coins"}
        assert len(g["final"]["players"]) == 4


def test_play_is_deterministic(capsys):
    first = run_cli(capsys, "play", "--players", "5", "--seed", "4", "--json", "--bots", "random,greedy")[1]
    second = run_cli(capsys, "play", "--players", "5", "--seed", "4", "--json", "--bots", "random,greedy")[1]
    assert first == second


def test_log_replays_to_the_same_result(capsys, tmp_path):
    """`nidavellir replay LOG` reproduces the game."""
    log = tmp_path / "games.jsonl"
    _, out, _ = run_cli(capsys, "play", "--players", "3", "--seed", "7", "--games", "2", "--json",
                        "--log", str(log), "--bots", "greedy,random")
    code, replayed, _ = run_cli(capsys, "replay", str(log), "--json")
    assert code == 0
    assert json_lines(replayed) == json_lines(out)
    code, table, _ = run_cli(capsys, "replay", str(log))
    assert code == 0 and table.count("Winner") == 2


def test_replay_refuses_a_tampered_log(capsys, tmp_path):
    log = tmp_path / "g.jsonl"
    run_cli(capsys, "play", "--players", "2", "--seed", "1", "--log", str(log))
    lines = log.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["answer"] = [99, 98, 97]
    lines[1] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run_cli(capsys, "replay", str(log))
    assert code == 1  # issue 9: "1 the input is wrong"
    assert f"{log}:2:" in err and "not a legal answer" in err


def test_score_several_files_in_order(capsys, tmp_path):
    """`score POSITION… --json`: one JSON object per file per line, in order."""
    _, out, _ = run_cli(capsys, "play", "--players", "3", "--seed", "2", "--games", "2", "--json")
    games = json_lines(out)
    paths = []
    for i, g in enumerate(games):
        path = tmp_path / f"pos{i}.json"
        path.write_text(json.dumps(g["final"]))
        paths.append(str(path))
    code, scored, _ = run_cli(capsys, "score", *paths, "--json")
    assert code == 0
    results = json_lines(scored)
    assert [r["players"] for r in results] == [g["players"] for g in games]


def test_score_design_example_position(capsys, tmp_path):
    """DESIGN §8's example position, scored by the rules of 003."""
    path = tmp_path / "ana.yaml"
    path.write_text(
        "players:\n"
        "  - name: Ana\n"
        "    gem: 6\n"
        "    coins: [3, 5, 9, 14, 25]\n"
        "    army:\n"
        "      warrior: [warrior:3, warrior:9, kraal]\n"
        "      hunter: [hunter, hunter, hunter, aral]\n"
        "      miner: ['miner:0', 'miner:2', zoral]\n"
        "      blacksmith: [blacksmith, special-blacksmith]\n"
        "      explorer: [explorer:5, explorer:11, idunn]\n"
        "    command_zone: [dwerg, dwerg, astrid, distinction:miner, distinction:hunter]\n"
        "  - {name: Bo, coins: [0]}\n")  # a position holds as many players as the rules allow (2 to 5)
    code, out, err = run_cli(capsys, "score", str(path), "--json")
    assert code == 0, err
    (result,) = json_lines(out)
    b = result["players"][0]["breakdown"]
    # Warriors 3+9+7+0 = 19, plus the highest coin 25: the only player has the majority.
    assert b["warrior"] == 19 + 25
    # Hunters: 3 dwarves + Aral's 2 ranks = 5 ranks, 5² = 25.
    assert b["hunter"] == 25
    # Miners: (0+2+1+0+0) × 5 ranks = 15.
    assert b["miner"] == 15
    # Blacksmiths: 1 + 2 (special card) = 3 ranks: 3+4+5 = 12.
    assert b["blacksmith"] == 12
    # Explorers: 5 + 11 + Idunn 7 + 2 × 3 ranks = 29.
    assert b["explorer"] == 29
    # Heroes: two Dwerg brothers 40, Astrid = highest coin 25.
    assert b["heroes"] == 65
    # Coins 3+5+9+14+25 = 56, plus 3 for gem 6.
    assert b["coins"] == 59
    assert result["players"][0]["total"] == sum(b.values())


def test_score_refuses_a_position_that_breaks_the_rules(capsys, tmp_path):
    """DESIGN §8: a card that does not exist or more copies than the box holds: a located error."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("players:\n  - name: Bo\n    coins: [0, 2]\n    army:\n      warrior: [warrior:3, warior:9]\n")
    many = tmp_path / "many.yaml"
    many.write_text("players:\n  - name: Cy\n    coins: [0]\n    command_zone: [skaa, skaa]\n")
    code, out, err = run_cli(capsys, "score", str(bad), str(many))
    assert code == 1
    assert f"{bad}:5:28: error: unknown card `warior:9`" in err
    assert "did you mean `warrior:9`?" in err
    assert f"{many}:4:26: error: more copies of `skaa` than the game holds (1)" in err


def test_score_schema_error_is_located(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("players:\n  - name: Bo\n    coins: [0, two]\n")
    code, _, err = run_cli(capsys, "score", str(bad))
    assert code == 1
    assert f"{bad}:3:16: error:" in err


@pytest.mark.parametrize("args, message", [
    (["play", "--players", "7"], "--players must be between 2 and 5"),
    (["play", "--bots", "clever"], "unknown bot `clever`"),
    (["play", "--human", "4", "--players", "3"], "--human must name a seat"),
    (["play", "--expansions", "asgard"], "unknown expansion `asgard`"),
    (["play", "--games", "0"], "argument --games: a number of games from 1 to 10^9, not `0`"),
])
def test_bad_options_are_explained(capsys, args, message):
    """Issue 9: "consistent exit codes (0 ok, 1 the input is wrong, 2 usage)": a bad option value is usage."""
    code, _, err = run_cli(capsys, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_variant_changes_the_game(capsys):
    """`--variant FILE` works on play: first-game removes Thrud, Ylud and Uline."""
    variant = str(ROOT / "rules" / "variants" / "first-game.yaml")
    code, out, _ = run_cli(capsys, "play", "--players", "3", "--seed", "1", "--games", "5", "--json",
                           "--variant", variant)
    assert code == 0
    for g in json_lines(out):
        held = {c for p in g["final"]["players"] for c in p["command_zone"] + sum(p["army"].values(), [])}
        assert not held & {"thrud", "ylud", "uline"}


def test_human_seat_shows_the_board_and_refuses_nonsense(tmp_path):
    """`--human K`: a terminal seat that shows the board and the taverns, asks for a bid as one coin
    per tavern (issue 10) and says what is wrong with an answer; the end of input abandons the
    game (exit 1, said on stderr). Whole games through a pseudo-terminal: tests/test_terminal_seat.py."""
    proc = subprocess.run([sys.executable, "-m", "nidavellir.cli", "play", "--players", "2", "--seed", "3",
                           "--human", "1"], input="zzz\n999\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "Laughing Goblin" in proc.stdout and "One coin per tavern" in proc.stdout
    assert "`zzz` is not a coin" in proc.stdout and "you have no coin 999" in proc.stdout
    assert "end of input: the game is abandoned" in proc.stderr
