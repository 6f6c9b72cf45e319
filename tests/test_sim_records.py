"""`nidavellir simulate`'s records (issue 11): "per-game records … with seed, seats, bots, scores,
breakdowns and per-card facts (which player took each card, when, and its points at the end)";
"results are identical whatever the jobs, backend or chunking"; "resumable: an interrupted run
continues from the games already written"."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from nidavellir.runtime.bots import make_bot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.scoring import player_score
from nidavellir.runtime.streams import bot_seed

from nidavellir.rulesets import load_rules
from nidavellir.session import Session, play_game
from nidavellir.sim import records
from nidavellir.sim.backends import Inline, Pool, chunk_size
from nidavellir.sim.facts import held_points, record_of
from nidavellir.sim.plan import Plan, PlanError, differences, sides
from nidavellir.sim.provenance import Expected
from nidavellir.sim.worker import Task, run

BOXES = [(), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll")]


def finished(expansions: tuple[str, ...], players: int, seed: int) -> Game:
    game = Game(load_rules(expansions), players, seed, journal=True)
    seats = [make_bot("random", bot_seed(seed, k)) for k in range(players)]
    while game.pending is not None:
        game.answer(seats[game.pending.player].choose(observe(game)))
    return game


# -- the facts of one game -------------------------------------------------------------------

@pytest.mark.parametrize("expansions", BOXES, ids=lambda b: "+".join(b) or "base")
def test_every_card_held_at_the_end_is_a_fact_of_its_holder(expansions):
    """003 "Placing a Dwarf Card in Your Army" / "Recruiting a Hero": each card a player chose or
    recruited joins their army or command zone; the record has a fact for each (who, age, turn),
    and every card a player holds at the end is among their facts, with an age and a turn."""
    for players, seed in [(2, 3), (3, 4), (5, 5)]:
        game = finished(expansions, players, seed)
        record = record_of(game, 0, seed, ["random"] * players)
        e = game.engine
        for p, pl in enumerate(e.s.players):
            held = sorted(e.s.cards[c] for c in [*pl.command, *(c for col in pl.army.values() for c in col)])
            facts = [f for f in record["cards"] if f["player"] == p]
            assert all(1 <= f["age"] <= max(e.rules.ages) and f["turn"] >= 1 for f in facts)
            mine = sorted(f["card"] for f in facts)
            for card in set(held):
                assert mine.count(card) >= held.count(card), (p, card)
        hows = {f["how"] for f in record["cards"]}
        assert {"took", "recruited", "distinction"} <= hows


def test_record_matches_the_game_play_plays():
    """A simulation's game is `nidavellir play`'s game of the same seed and bots (seat k seeded
    bot_seed(seed, k)), so that any game of a simulation replays alone: same totals, breakdowns."""
    rules = load_rules(("thingvellir",))
    for seed in (7, 8):
        result = play_game(Session(rules, ("thingvellir",), ()), 3, seed, ["random"], None, None)
        game = finished(("thingvellir",), 3, seed)
        record = record_of(game, 0, seed, ["random"] * 3)
        assert record["totals"] == [p["total"] for p in result["players"]]
        assert record["breakdown"] == [p["breakdown"] for p in result["players"]]
        assert record["seed"] == seed and sum(record["shares"]) == pytest.approx(1.0)


def test_points_are_what_the_player_loses_without_the_card():
    """003 "Determining the Bravery Value of Each Class": "Hunters: the number of Hunters squared";
    "Blacksmiths: a mathematical sequence (+3, +4, +5, +6, …)". A card's points are its holder's
    total minus the total without it: the k-th of k Hunters is worth k² − (k−1)², the last of k
    Blacksmiths (a plain dwarf, one rank) k + 2; the state is the same afterwards."""
    for seed in range(40):
        game = finished((), 3, seed)
        e = game.engine
        before = [player_score(e, p) for p in range(3)]
        for p, pl in enumerate(e.s.players):
            values = held_points(e, p)
            hunters = [c for c in pl.army.get("hunter", []) if e.defs[c].nranks == 1]
            k = sum(e.defs[c].nranks for c in pl.army.get("hunter", []))
            if hunters and "hunter" in values and e.s.cards[hunters[0]] == "hunter":
                assert values["hunter"][0] == k * k - (k - 1) ** 2
            smiths = [c for c in pl.army.get("blacksmith", []) if e.s.cards[c] == "blacksmith"]
            k = sum(e.defs[c].nranks for c in pl.army.get("blacksmith", []))
            if smiths:
                assert values["blacksmith"][0] == k + 2
        assert [player_score(e, p) for p in range(3)] == before
        assert e.index_problems() == []


def test_skaa_is_worth_17():
    """001/003: "Skaa the Unfathomable: add 17 points to your Final Bravery Value"; a fact of Skaa
    held at the end says 17."""
    seen = 0
    for seed in range(60):
        record = record_of(finished((), 3, seed), 0, seed, ["random"] * 3)
        for f in record["cards"]:
            if f["card"] == "skaa":
                assert f["how"] == "recruited" and f["points"] == 17 and f["class"] == "neutral"
                seen += 1
    assert seen > 5


# -- records on disk ---------------------------------------------------------------------------

def plan(fmt: str, games: int = 12, variants: tuple[str, ...] = ("generous-offerings",)) -> Plan:
    return Plan(3, (), ("random",) * 3, 5, games, sides((), list(variants), []), fmt)


def written(out: Path, p: Plan, backend, size: int, start: int = 0) -> list[dict]:
    w = records.writer(out, p.fmt, Expected(p.manifest()))
    for done in backend.run(p.job(), p.tasks(start, size)):
        w.write(done.payload, done.rows)
    w.close()
    backend.close()
    return list(records.read(out, p.fmt))


def by_game(rs: list[dict]) -> list[dict]:
    return sorted(rs, key=lambda r: (r["set"], r["game"]))


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_records_round_trip_and_do_not_depend_on_chunks_or_workers(tmp_path, fmt):
    """Each rule set's G games, seeds S … S+G−1, paired by index; the records read back equal the
    worker's, and are the same played in one process in chunks of 5 or in two processes in
    chunks of 1 (issue 11: "identical whatever the jobs, backend or chunking")."""
    p = plan(fmt)
    direct = [r for task in [Task(0, 12)] for r in _decoded(run(p.job(), task).payload, fmt)]
    one = written(tmp_path / "one", p, Inline(), 5)
    two = written(tmp_path / "two", p, Pool(2), 1)
    assert by_game(one) == by_game(two) == by_game(direct)
    assert [(r["set"], r["game"], r["seed"]) for r in by_game(one)] == \
        [(s, g, 5 + g) for s in (0, 1) for g in range(12)]
    assert json.loads(json.dumps(one[0])) == one[0]  # JSON-able: lists, dicts, numbers, strings
    assert isinstance(one[0]["breakdown"][0], dict) and one[0]["cards"][0]["card"]


def _decoded(payload: bytes, fmt: str) -> list[dict]:
    if fmt == "jsonl":
        return [json.loads(line) for line in payload.decode().splitlines()]
    import pyarrow as pa

    with pa.ipc.open_stream(payload) as reader:
        return [row for batch in reader for row in batch.to_pylist(maps_as_pydicts="strict")]


def test_a_jsonl_chunk_cut_short_is_cut_away(tmp_path):
    """Resuming: the records on disk are the first k games of every rule set; a line cut short
    and the games of a chunk whose other rule set is missing are removed, and the run goes on from
    game k to the same records as a run never interrupted."""
    p = plan("jsonl")
    full = written(tmp_path / "full", p, Inline(), 4)
    out = tmp_path / "cut"
    out.mkdir()
    path = records.where(out, "jsonl")
    lines = records.where(tmp_path / "full", "jsonl").read_bytes().splitlines(keepends=True)
    # the first chunk (both rule sets), then the second chunk's rule set 0 and half a line
    path.write_bytes(b"".join(lines[:8] + lines[8:12]) + lines[12][:40])
    assert records.complete_games(out, "jsonl", Expected(p.manifest())) == 4
    assert len(path.read_bytes().splitlines()) == 8
    assert by_game(written(out, p, Inline(), 4, start=4)) == by_game(full)


def test_a_jsonl_chunk_cut_anywhere_resumes_from_the_last_whole_chunk(tmp_path):
    """Resuming reads the records as a stream, remembering where every rule set last had the same
    games: a chunk cut anywhere (here within its second rule set's games) is cut away whole, and
    records out of the order simulate writes are refused with their line."""
    p = plan("jsonl")
    full = written(tmp_path / "full", p, Inline(), 4)
    lines = records.where(tmp_path / "full", "jsonl").read_bytes().splitlines(keepends=True)
    out = tmp_path / "cut"
    out.mkdir()
    path = records.where(out, "jsonl")
    path.write_bytes(b"".join(lines[:14]))   # chunk 1 whole; chunk 2: rule set 0, and 2 of rule set 1's 4
    assert records.complete_games(out, "jsonl", Expected(p.manifest())) == 4
    assert path.read_bytes() == b"".join(lines[:8])
    assert by_game(written(out, p, Inline(), 4, start=4)) == by_game(full)
    path.write_bytes(b"".join(lines[:4] + lines[5:8]))   # rule set 1 without its game 0
    with pytest.raises(records.RecordsError, match=r"games.jsonl:5: a record of game 1 of rule set 1 where game "
                                                   r"0's is due: the record of game 0 of rule set 1 is missing"):
        records.complete_games(out, "jsonl", Expected(p.manifest()))


def test_parquet_parts_resume_from_whole_chunks(tmp_path):
    """A Parquet part is complete or absent (written under a temporary name, then renamed); a
    leftover temporary part is deleted; the run goes on after the games of the parts on disk."""
    p = plan("parquet")
    full = written(tmp_path / "full", p, Inline(), 4)
    out = tmp_path / "cut"
    w = records.ParquetWriter(records.where(out, "parquet"), Expected(p.manifest()))
    w.write(run(p.job(), Task(0, 4)).payload, 8)
    w.close()
    (records.where(out, "parquet") / "part-00001.tmp").write_bytes(b"half a part")
    assert records.complete_games(out, "parquet", Expected(p.manifest())) == 4
    assert not list(records.where(out, "parquet").glob("*.tmp"))
    assert by_game(written(out, p, Inline(), 4, start=4)) == by_game(full)


def test_an_unreadable_part_is_named(tmp_path):
    """Bad input is reported with its file, never a traceback."""
    folder = records.where(tmp_path, "parquet")
    folder.mkdir()
    (folder / "part-00000.parquet").write_bytes(b"not parquet")
    with pytest.raises(records.RecordsError, match="part-00000.parquet: unreadable"):
        records.complete_games(tmp_path, "parquet", Expected(plan("parquet").manifest()))
    (tmp_path / "jsonl").mkdir()
    bad = records.where(tmp_path / "jsonl", "jsonl")
    first = run(plan("jsonl").job(), Task(0, 1)).payload.splitlines(keepends=True)[0]
    bad.write_bytes(first + b"not json\n")
    with pytest.raises(records.RecordsError, match=r"games.jsonl:2: not a simulation record"):
        records.complete_games(tmp_path / "jsonl", "jsonl", Expected(plan("jsonl").manifest()))


def test_another_simulation_in_the_folder_is_named_by_its_differences():
    """A folder continues only the simulation it holds: another seed, bots or rules are named."""
    a, b = plan("parquet").manifest(), plan("parquet", variants=("first-game",)).manifest()
    assert differences(a, a) == []
    assert any("rule set 0" in d for d in differences(a, b))
    c = dict(a, seed=6, bots=["greedy"] * 3)
    assert [d.split(":")[0] for d in differences(a, c)] == ["bots", "seed"]


def test_against_base_takes_no_other_layer():
    with pytest.raises(PlanError, match="--against base"):
        sides((), ["first-game"], ["base", "generous-offerings"])


def test_chunks_share_the_work_out():
    """Enough tasks for every worker (8 each when the games allow), at most 20 games each."""
    assert chunk_size(10, 2) == 1
    assert chunk_size(1600, 2) == 20
    assert chunk_size(200, 2) == 12
    assert chunk_size(200, 1) == 20
