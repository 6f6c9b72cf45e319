"""Files that name their boxes are read with the rules of those boxes (issue 17 audit): `score`
compiles its `--variant` layers on the boxes each position lists, and `replay` on the boxes and
variants its log's header names, so a variant that needs an expansion scores and replays what
`play` produced with it.

DESIGN §8: "`nidavellir score POSITION… [--variant V]…` … the boxes come from each position's
`expansions`"; "`play --json` adds … `final`: the final position in the position format, which
`score` scores to the same totals"; "`nidavellir replay LOG` replays a decision log and prints its
final scores"."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nidavellir.cli import main
from nidavellir.compiler.sources import DEFAULT_SETS

# Per box: a change only that box's rules can take (a card of that box; for Thingvellir also its
# before-scoring windows), so a variant holding it compiles only with the box in.
NEEDS = {
    "thingvellir": {"cards": ["{id: olwyn, points: 20}"],
                    "game": "game:\n  flow:\n    before_scoring: [game-end, final-discards, counting]\n"},
    "idavoll": {"cards": ["{id: odin, points: 9}"], "game": ""},
}
COMBOS = sorted(DEFAULT_SETS.values(), key=len)


def variant_for(folder: Path, boxes: tuple[str, ...]) -> Path:
    """A variant that changes a base card and one card (and structure) of each box in `boxes`."""
    cards = ["{id: skaa, points: 21}"] + [c for b in boxes for c in NEEDS[b]["cards"]]
    game = "".join(NEEDS[b]["game"] for b in boxes)
    path = folder / f"needs-{'-'.join(boxes) or 'base'}.yaml"
    path.write_text(f"layer: {{id: needs-{'-'.join(boxes) or 'base'}, name: Needs}}\n{game}cards:\n"
                    + "".join(f"  - {c}\n" for c in cards), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def totals(result: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["total"] for p in result["players"]}


@pytest.mark.parametrize("boxes", COMBOS, ids=lambda b: "+".join(b) or "base")
def test_score_and_replay_of_what_play_produced_with_a_variant_give_its_totals(capsys, tmp_path, boxes):
    """For every box combination and a variant that needs it: `play --json` then `score` of each
    game's `final` with the same `--variant` gives the totals play reported, and so does `replay`
    of the game's log (DESIGN §8, above)."""
    v = variant_for(tmp_path, boxes)
    log = tmp_path / "games.log"
    play = ["play", "--players", "3", "--seed", "3", "--games", "2", "--json", "--variant", str(v), "--log", str(log)]
    code, out, err = run(capsys, *play, *(["--expansions", ",".join(boxes)] if boxes else []))
    assert code == 0, err
    games = lines(out)
    assert len(games) == 2 and all(g["expansions"] == list(boxes) for g in games)
    files = []
    for i, game in enumerate(games):
        files.append(tmp_path / f"final-{i}.json")
        files[-1].write_text(json.dumps(game["final"]), encoding="utf-8")
    code, out, err = run(capsys, "score", *map(str, files), "--variant", str(v), "--json")
    assert code == 0, err
    assert [totals(s) for s in lines(out)] == [totals(g) for g in games]
    code, out, err = run(capsys, "replay", str(log), "--json")
    assert code == 0, err
    assert [totals(r) for r in lines(out)] == [totals(g) for g in games]


def test_positions_of_different_boxes_each_get_their_rules_in_one_run(capsys, tmp_path):
    """The boxes come from *each* position: one run scores a base position and a Thingvellir one
    with the same variant, which touches a base card only (so it compiles on both)."""
    v = variant_for(tmp_path, ())
    base = tmp_path / "base.yaml"
    base.write_text("players:\n  - {name: Ana, coins: [0], command_zone: [skaa]}\n  - {name: Bo, coins: [0]}\n")
    camp = tmp_path / "camp.yaml"
    camp.write_text("expansions: [thingvellir]\nplayers:\n  - {name: Ana, coins: [0], command_zone: [skaa, olwyn]}\n"
                    "  - {name: Bo, coins: [0]}\n")
    code, out, err = run(capsys, "score", str(base), str(camp), "--variant", str(v), "--json")
    assert code == 0, err
    first, second = lines(out)
    assert first["players"][0]["breakdown"]["heroes"] == 21
    assert "artifacts" in second["players"][0]["breakdown"] and "artifacts" not in first["players"][0]["breakdown"]


def test_a_variant_that_needs_a_box_the_position_lacks_is_located_in_the_variant(capsys, tmp_path):
    """"Every problem … is reported as `path:line:col: error: message`" (DESIGN §6): the variant's own
    error is located in the variant file (with --json, under that file's name), and the position is
    told which boxes it was compiled on, with the hint that the variant compiles with every box."""
    v = variant_for(tmp_path, ("thingvellir",))
    pos = tmp_path / "pos.yaml"
    pos.write_text("players:\n  - {name: Ana, coins: [0]}\n  - {name: Bo, coins: [0]}\n")
    code, out, err = run(capsys, "score", str(pos), "--variant", str(v), "--json")
    assert code == 1 and "Traceback" not in err
    text = v.read_text().splitlines()
    line = next(i for i, t in enumerate(text, 1) if "olwyn" in t)
    col = text[line - 1].index("olwyn") + 1
    assert f"{v}:{line}:{col}: error: unknown card `olwyn`" in err
    assert f"{pos}:1:1: error: the variant `{v}` does not compile on the boxes this position lists (base)" in err
    (result,) = lines(out)
    assert result["file"] == str(pos)
    own, variant = result["errors"][0], [e for e in result["errors"] if e.get("file") == str(v)]
    assert own["line"] == 1 and "file" not in own and "every box" in own["hint"]
    assert any(e["line"] == line and e["col"] == col and "unknown card `olwyn`" in e["message"] for e in variant)


def test_a_variant_error_is_said_once_on_stderr_and_in_every_json_line(capsys, tmp_path):
    """Output lines match the files (README "score"): each failing file has its error line with
    every problem; on stderr the variant's errors, the same for every file of those boxes, are
    printed once, each file still getting its own located error."""
    v = variant_for(tmp_path, ("idavoll",))
    files = []
    for i in range(3):
        files.append(tmp_path / f"p{i}.yaml")
        files[-1].write_text("players:\n  - {name: Ana, coins: [0]}\n  - {name: Bo, coins: [0]}\n")
    code, out, err = run(capsys, "score", *map(str, files), "--variant", str(v), "--json")
    assert code == 1
    results = lines(out)
    assert [r["file"] for r in results] == list(map(str, files))
    assert all(any("unknown card `odin`" in e["message"] for e in r["errors"]) for r in results)
    assert err.count("unknown card `odin`") == 1
    assert all(f"{f}:1:1: error: the variant" in err for f in files)


def test_an_unknown_variant_name_is_the_commands_error_before_any_position(capsys, tmp_path):
    """README: "A bare name that is neither [a file nor a shipped id] is an error with the likely id":
    it does not depend on a position's boxes, so it is said once, and no position is read."""
    pos = tmp_path / "pos.yaml"
    pos.write_text("players:\n  - {name: Ana, coins: [0]}\n  - {name: Bo, coins: [0]}\n")
    code, out, err = run(capsys, "score", str(pos), str(pos), "--variant", "frist-game", "--json")
    assert code == 1 and out == ""
    assert err.count("unknown variant `frist-game`") == 1 and "did you mean `first-game`?" in err
