"""`nidavellir league` (issue 10): "plays all seatings and prints a win-rate table with 95 %
confidence intervals (and `--json`)"; its statistics (nidavellir/stats.py), seatings and the
command's output."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from nidavellir.cli import main
from nidavellir.league import BotResults, League, LeagueError, Record, seatings
from nidavellir.stats import shares, wilson


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- statistics ------------------------------------------------------------------------------

def test_wilson_interval_matches_published_values():
    """The Wilson score interval, 95 %, without continuity correction, as R computes it:
    `prop.test(5, 10, correct = FALSE)$conf.int` = 0.2365931–0.7634069,
    `prop.test(50, 100, correct = FALSE)$conf.int` = 0.4038315–0.5961685,
    `binom::binom.wilson(0, 10)` = 0–0.2775328, and `binom::binom.wilson(10, 10)` = 0.7224672–1."""
    assert wilson(5, 10) == pytest.approx((0.2365931, 0.7634069), abs=1e-7)
    assert wilson(50, 100) == pytest.approx((0.4038315, 0.5961685), abs=1e-7)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775328), abs=1e-7)
    assert wilson(10, 10) == pytest.approx((0.7224672, 1.0), abs=1e-7)


def test_wilson_interval_edges():
    """No trial says nothing (0–1); an impossible proportion is refused; a shared win (a half)
    falls between its neighbours."""
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    low, high = wilson(5.5, 10)
    assert wilson(5, 10)[0] < low < wilson(6, 10)[0] and wilson(5, 10)[1] < high < wilson(6, 10)[1]


def test_a_tie_shares_the_win():
    """A tie of k winners gives each 1/k: the shares of a game add up to one win."""
    assert shares([10, 12, 12]) == [0.0, 0.5, 0.5]
    assert shares([7, 7, 7]) == pytest.approx([1 / 3] * 3)
    assert shares([30, 12]) == [1.0, 0.0]


# -- seatings --------------------------------------------------------------------------------

def test_two_bots_two_seats_play_both_seatings():
    assert seatings(["random", "greedy"], 2) == [("random", "greedy"), ("greedy", "random")]


def test_seatings_put_every_bot_in_every_seat_equally_often():
    """More seats than bots: every assignment in which each bot sits at least once (for 2 bots and
    3 seats, the six with one or two seats of each); each bot sits in each seat equally often."""
    found = seatings(["random", "greedy"], 3)
    assert len(found) == 6 and len(set(found)) == 6
    assert all(set(s) == {"random", "greedy"} for s in found)
    for seat in range(3):
        assert Counter(s[seat] for s in found) == {"random": 3, "greedy": 3}
    five = seatings(["a", "b", "c"], 5)
    assert len(five) == 150  # 3^5 less those missing a bot: 243 - 3·32 + 3
    for seat in range(5):
        assert Counter(s[seat] for s in five) == {"a": 50, "b": 50, "c": 50}


def test_a_bot_listed_twice_sits_at_least_twice():
    """`--bots greedy,random,random` with 3 players: one greedy seat against two randoms, the greedy
    seat in each seat in turn."""
    assert seatings(["greedy", "random", "random"], 3) == [
        ("greedy", "random", "random"), ("random", "greedy", "random"), ("random", "random", "greedy")]
    assert seatings(["greedy"], 3) == [("greedy", "greedy", "greedy")]


def test_more_bots_than_seats_is_refused():
    with pytest.raises(LeagueError, match="3 bots listed for 2 seats"):
        seatings(["a", "b", "c"], 2)


def test_the_tally_shares_ties_per_seat():
    """A bot's games are its seats; a tie gives each winner its share, in its seat too."""
    league = League(3, ("greedy", "random"), [("greedy", "random", "random")], 1, 1, "base", (), ())
    for bot in ("greedy", "random"):
        league.results[bot] = BotResults(bot, Record(), [Record() for _ in range(3)])
    league.add(("greedy", "random", "random"), [50, 50, 40])
    league.add(("random", "greedy", "random"), [10, 60, 20])
    g, r = league.results["greedy"], league.results["random"]
    assert (g.total.games, g.total.wins, r.total.games, r.total.wins) == (2, 1.5, 4, 0.5)
    assert [s.wins for s in g.seats] == [0.5, 1.0, 0.0] and [s.games for s in r.seats] == [1, 1, 2]
    assert league.ties == 1 and g.total.mean_score == 55.0


# -- the command -----------------------------------------------------------------------------

def test_league_prints_a_win_rate_table(capsys):
    """One row per bot: games, wins, win rate, its 95 % interval, mean score and the win rate in
    each seat; the notes say how ties count and which interval it is."""
    code, out, _ = run_cli(capsys, "league", "--bots", "random,greedy", "--players", "2", "--games", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "League: 2 seatings × 3 games (seeds 1 to 3), 2 players, base"
    assert lines[1].split() == ["bot", "games", "wins", "win", "rate", "95%", "interval", "mean", "score",
                                "seat", "1", "seat", "2"]
    rows = {line.split()[0]: line.split() for line in lines[3:5]}
    assert set(rows) == {"random", "greedy"} and rows["greedy"][1] == rows["random"][1] == "6"
    assert float(rows["greedy"][2]) + float(rows["random"][2]) == 6
    assert "Wilson score interval" in out and "1/k" in out
    assert all(len(line) <= 80 for line in lines)


def test_league_json_shape(capsys):
    """`--json`: one JSON object with the seatings, the interval's method and a table entry per bot
    with its seats; the shares of all seats add up to the games played."""
    code, out, _ = run_cli(capsys, "league", "--bots", "greedy,random,random", "--players", "3", "--games", "2",
                           "--seed", "5", "--json")
    assert code == 0
    assert len(out.splitlines()) == 1
    data = json.loads(out)
    assert data["players"] == 3 and data["games"] == 6 and data["games_per_seating"] == 2 and data["seed"] == 5
    assert data["seatings"] == [["greedy", "random", "random"], ["random", "greedy", "random"],
                                ["random", "random", "greedy"]]
    assert data["interval"]["method"] == "wilson" and data["interval"]["confidence"] == 0.95
    table = {row["bot"]: row for row in data["table"]}
    assert set(table) == {"greedy", "random"}
    assert table["greedy"]["games"] == 6 and table["random"]["games"] == 12
    assert sum(row["wins"] for row in data["table"]) == pytest.approx(6)
    for row in data["table"]:
        assert set(row) == {"bot", "games", "wins", "win_rate", "low", "high", "mean_score", "seats"}
        assert row["low"] <= row["win_rate"] <= row["high"]
        assert [s["seat"] for s in row["seats"]] == [1, 2, 3]
        assert sum(s["games"] for s in row["seats"]) == row["games"]
    assert [s["games"] for s in table["greedy"]["seats"]] == [2, 2, 2]


def test_league_is_deterministic(capsys):
    """Same seed, same table; the games are those `play` plays for each seating and seed."""
    args = ("league", "--bots", "random,greedy", "--players", "2", "--games", "2", "--json")
    first, second = run_cli(capsys, *args)[1], run_cli(capsys, *args)[1]
    assert first == second
    other = run_cli(capsys, *args, "--seed", "40")[1]
    assert json.loads(other)["table"] != json.loads(first)["table"]
    # seat scores agree with `play` of the same seating and seed
    _, played, _ = run_cli(capsys, "play", "--players", "2", "--bots", "greedy,random", "--seed", "1", "--json")
    game = json.loads(played)
    _, one, _ = run_cli(capsys, "league", "--bots", "greedy,random", "--players", "2", "--games", "1", "--json")
    seat_one = json.loads(one)["table"][0]["seats"][0]
    assert seat_one["games"] == 1 and seat_one["mean_score"] == game["players"][0]["total"]


@pytest.mark.parametrize("args, message", [
    (("--bots", "greedy:5"), "the bot `greedy` takes no budget"),
    (("--bots", "gredy"), "unknown bot `gredy`"),
    (("--bots", "random,greedy,random", "--players", "2"), "3 bots listed for 2 seats"),
    (("--games", "0"), "argument --games: a number of games from 1 to 10^9, not `0`"),
    (("--players", "7"), "--players must be between 2 and 5"),
])
def test_league_refuses_bad_options_with_a_message(capsys, args, message):
    """Usage errors exit 2 with the problem said, no traceback."""
    code, out, err = run_cli(capsys, "league", *args)
    assert code == 2 and message in err and "Traceback" not in err and out == ""
