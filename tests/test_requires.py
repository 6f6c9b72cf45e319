"""A variant declares the boxes it needs (issue 18, "Variants know their boxes"): "A variant declares
the boxes it needs (`requires: [thingvellir]`); `check`, `play`, `docs`, `simulate` use them or
refuse, located, when they are missing. A card id unknown in the rule set but defined in a box not
loaded gets `hint: svalinn is a Thingvellir card: add --expansions thingvellir`."

Given --expansions without a required box, the command refuses: `path:line:col: error: variant V
requires B, not loaded` at the `requires` entry, the --expansions to give as the hint, exit 1,
nothing written. Without --expansions, the required boxes are loaded and one note on stderr says so.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from checking import ROOT, expect, find, run_check, write
from nidavellir.compiler.sources import EXPANSIONS

from nidavellir.cli import main

NOTE = "note: variant {id} requires {boxes}: added, as --expansions {given} would"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    got = capsys.readouterr()
    return code, got.out, got.err


def needs(folder: Path, box: str, vid: str | None = None) -> Path:
    """A variant that requires `box` and changes one of its cards (so it compiles only with it)."""
    card = {"thingvellir": "svalinn", "idavoll": "odin"}[box]
    vid = vid or f"needs-{box}"
    return write(folder / f"{vid}.yaml", f"""
        layer: {{id: {vid}, name: Needs {box}}}
        requires: [{box}]
        cards:
          - id: {card}
            points: 1
        """)


def entry(v: Path, box: str) -> tuple[int, int]:
    """Where `box` is written in the variant's `requires`."""
    line, col = find(v, f"requires: [{box}")
    return line, col + len("requires: [")


def refused_at_entry(err: str, v: Path, box: str, hint: str) -> None:
    line, col = entry(v, box)
    expect(err, v, line, col, f"variant {v.stem} requires {box}, not loaded", hint)
    assert "Traceback" not in err


# -- the schema ---------------------------------------------------------------------------------

def test_the_schema_knows_exactly_the_expansions():
    """"only known expansion names": the schema's names are the boxes the program loads."""
    schema = json.loads((ROOT / "rules" / "schemas" / "layer.schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["requires"]["items"]["enum"] == list(EXPANSIONS)


def test_an_unknown_box_name_is_located_with_the_likely_one(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\nrequires: [thingveller]\n")
    code, out, err = run_check(capsys, str(v))
    assert code == 1 and "ok:" not in out
    expect(err, v, 2, 12, "`thingveller` is not one of: thingvellir, idavoll", "did you mean `thingvellir`?")


def test_the_base_game_is_not_a_box_to_require(capsys, tmp_path):
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\nrequires: [base]\n")
    code, _, err = run_check(capsys, str(v))
    assert code == 1 and "`base` is not one of: thingvellir, idavoll" in err, err


# -- check --------------------------------------------------------------------------------------

def test_check_with_expansions_lacking_the_box_refuses_at_the_entry(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    code, out, err = run_check(capsys, str(v), "--expansions", "idavoll")
    assert code == 1 and "ok:" not in out
    refused_at_entry(err, v, "thingvellir", "add it to --expansions: --expansions thingvellir,idavoll")
    assert "svalinn" not in err  # (its card's error only follows from the missing box)
    assert err.rstrip().endswith("1 error")


def test_check_with_an_empty_expansions_is_given_too(capsys, tmp_path):
    """`--expansions ""` says "no expansion": the box is not added."""
    v = needs(tmp_path, "thingvellir")
    code, _, err = run_check(capsys, str(v), "--expansions", "")
    assert code == 1
    refused_at_entry(err, v, "thingvellir", "add --expansions thingvellir")


def test_check_without_expansions_loads_the_box_and_says_so_once(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    code, out, err = run_check(capsys, str(v))
    assert code == 0, err
    assert out.startswith(f"ok: {v} ")
    note = NOTE.format(id="needs-thingvellir", boxes="thingvellir", given="thingvellir")
    assert err.splitlines() == [note]


def test_check_variant_alone_is_layered_on_the_boxes_it_requires(capsys, tmp_path):
    v = needs(tmp_path, "idavoll")
    code, out, err = run_check(capsys, "--variant", str(v))
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"ok: rules/base + rules/idavoll + {v} ")


def test_check_of_two_variants_loads_the_boxes_of_both(capsys, tmp_path):
    one, two = needs(tmp_path, "thingvellir"), needs(tmp_path, "idavoll")
    code, _, err = run_check(capsys, str(one), "--variant", str(two))
    assert code == 0, err
    assert err.splitlines() == [("note: variant needs-thingvellir requires thingvellir; variant needs-idavoll "
                                 "requires idavoll: added, as --expansions thingvellir,idavoll would")]


def test_a_layer_folder_requires_too(capsys, tmp_path):
    """A layer in a folder declares its boxes in any of its files."""
    folder = tmp_path / "layer"
    folder.mkdir()
    write(folder / "about.yaml", "layer: {id: mine, name: Mine}\nrequires: [thingvellir]\n")
    write(folder / "cards.yaml", "cards:\n  - {id: svalinn, points: 2}\n")
    code, _, err = run_check(capsys, str(folder), "--expansions", "idavoll")
    assert code == 1
    expect(err, folder / "about.yaml", 2, 12, "layer mine requires thingvellir, not loaded",
           "add it to --expansions: --expansions thingvellir,idavoll")
    code, _, err = run_check(capsys, str(folder))
    assert code == 0 and "note: layer mine requires thingvellir" in err, err


def test_check_without_path_checks_a_shipped_variant_in_the_boxes_it_requires(capsys, tmp_path, monkeypatch):
    """"shipped variants are checked in the box combinations they require": a rules folder whose
    variants/ holds one that requires Thingvellir (the shipped boxes' folders beside it)."""
    from nidavellir.compiler import build

    rules = tmp_path / "rules"
    for box in ("base", *EXPANSIONS):
        (rules / box).mkdir(parents=True)
    (rules / "variants").mkdir()
    needs(rules / "variants", "thingvellir")
    monkeypatch.setattr(build, "rules_dir", lambda: rules)
    code, out, err = run_check(capsys)
    assert code == 0, err
    assert "ok: rules/variants/needs-thingvellir.yaml + rules/thingvellir (" in out, out
    assert "note:" not in err  # (the shipped rules are not the user's: no note for them)


def test_the_shipped_variants_compile_on_the_boxes_they_declare():
    """Each shipped variant requires what its cards need: it compiles on the base with exactly the
    boxes its `requires` names."""
    from nidavellir.compiler.build import compile_specs
    from nidavellir.compiler.requires import choose
    from nidavellir.compiler.sources import layer_specs, shipped_variants

    for vid, path in shipped_variants().items():
        boxes, _ = choose(None, [(path, vid, True)])
        compile_specs(layer_specs(boxes, (str(path),)))


def test_a_card_of_a_box_not_loaded_still_names_its_box(capsys, tmp_path):
    """The hint of a variant without `requires` that changes a card of a box not loaded."""
    v = write(tmp_path / "v.yaml", "layer: {id: v, name: V}\ncards:\n  - {id: svalinn, points: 2}\n")
    code, _, err = run_check(capsys, str(v))
    assert code == 1
    assert "hint: `svalinn` is a card of Thingvellir: add --expansions thingvellir" in err, err


# -- play, league, docs -------------------------------------------------------------------------

def test_play_loads_the_required_box(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    code, out, err = run(capsys, "play", "--variant", str(v), "--json", "--seed", "2")
    assert code == 0, err
    (game,) = [json.loads(line) for line in out.splitlines()]
    assert game["expansions"] == ["thingvellir"] and game["variants"] == ["needs-thingvellir"]
    assert NOTE.format(id="needs-thingvellir", boxes="thingvellir", given="thingvellir") in err.splitlines()


def test_play_with_expansions_lacking_the_box_refuses_and_writes_no_log(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    log = tmp_path / "game.log"
    code, out, err = run(capsys, "play", "--variant", str(v), "--expansions", "idavoll", "--log", str(log))
    assert code == 1 and out == "" and not log.exists()
    refused_at_entry(err, v, "thingvellir", "add it to --expansions: --expansions thingvellir,idavoll")


def test_league_loads_the_box_or_refuses(capsys, tmp_path):
    v = needs(tmp_path, "idavoll")
    code, out, err = run(capsys, "league", "--variant", str(v), "--games", "1", "--json")
    assert code == 0, err
    assert "note: variant needs-idavoll requires idavoll" in err
    code, out, err = run(capsys, "league", "--variant", str(v), "--games", "1", "--expansions", "thingvellir")
    assert code == 1 and out == ""
    refused_at_entry(err, v, "idavoll", "add it to --expansions: --expansions thingvellir,idavoll")


def test_docs_loads_the_box_or_refuses_writing_nothing(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    out_dir = tmp_path / "out"
    code, _, err = run(capsys, "docs", "--variant", str(v), "--expansions", "idavoll", "--out", str(out_dir))
    assert code == 1 and not out_dir.exists()
    refused_at_entry(err, v, "thingvellir", "add it to --expansions: --expansions thingvellir,idavoll")
    code, _, err = run(capsys, "docs", "--variant", str(v), "--out", str(out_dir))
    assert code == 0, err
    assert "Svalinn" in (out_dir / "reference.md").read_text(encoding="utf-8")


# -- simulate -----------------------------------------------------------------------------------

def test_simulate_plays_both_sides_with_the_union_of_boxes(capsys, tmp_path):
    """"a variant compared with base/--against: both sides play the union of boxes so the pair is
    fair; say so"."""
    one, two = needs(tmp_path, "thingvellir"), needs(tmp_path, "idavoll")
    out_dir = tmp_path / "sim"
    code, _, err = run(capsys, "simulate", "--variant", str(one), "--against", str(two), "--games", "2",
                       "--jobs", "1", "--format", "jsonl", "--out", str(out_dir))
    assert code == 0, err
    assert ("note: variant needs-thingvellir requires thingvellir; variant needs-idavoll requires idavoll: added, "
            "as --expansions thingvellir,idavoll would; both rule sets play with them, so that their games pair up"
            ) in err.splitlines()
    manifest = json.loads((out_dir / "simulation.json").read_text(encoding="utf-8"))
    assert manifest["expansions"] == ["thingvellir", "idavoll"]
    assert [rs["about"].split(";")[0] for rs in manifest["rule_sets"]] == ["base + thingvellir + idavoll"] * 2


def test_simulate_against_base_gives_the_base_side_the_box_too(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    out_dir = tmp_path / "sim"
    code, _, err = run(capsys, "simulate", "--variant", str(v), "--games", "1", "--jobs", "1", "--format", "jsonl",
                       "--out", str(out_dir))
    assert code == 0, err
    assert "both rule sets play with it, so that their games pair up" in err
    manifest: dict[str, Any] = json.loads((out_dir / "simulation.json").read_text(encoding="utf-8"))
    assert [rs["about"] for rs in manifest["rule_sets"]] == ["base + thingvellir; variants: needs-thingvellir",
                                                             "base + thingvellir"]


def test_simulate_with_expansions_lacking_the_box_refuses_writing_nothing(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    out_dir = tmp_path / "sim"
    code, _, err = run(capsys, "simulate", "--variant", str(v), "--expansions", "idavoll", "--games", "1",
                       "--jobs", "1", "--out", str(out_dir))
    assert code == 1 and not out_dir.exists()
    refused_at_entry(err, v, "thingvellir", "add it to --expansions: --expansions thingvellir,idavoll")


# -- score and replay: the boxes of a position or a log are given ------------------------------

def test_score_refuses_a_variant_requiring_a_box_the_position_lacks(capsys, tmp_path):
    v = needs(tmp_path, "thingvellir")
    pos = write(tmp_path / "pos.yaml", "players:\n  - {name: Ana, coins: [0]}\n  - {name: Bo, coins: [0]}\n")
    code, _, err = run(capsys, "score", str(pos), "--variant", str(v))
    assert code == 1
    refused_at_entry(err, v, "thingvellir", "add --expansions thingvellir")
    write(pos, "expansions: [thingvellir]\nplayers:\n  - {name: Ana, coins: [0]}\n  - {name: Bo, coins: [0]}\n")
    code, _, err = run(capsys, "score", str(pos), "--variant", str(v))
    assert code == 0, err


def test_replay_keeps_the_logs_boxes_and_refuses_a_variant_requiring_another(capsys, tmp_path):
    """"a log records its expansions: keep them; a variant requiring a box the log lacks is an error"."""
    v = needs(tmp_path, "thingvellir")
    log = tmp_path / "game.log"
    code, _, err = run(capsys, "play", "--variant", str(v), "--seed", "5", "--log", str(log))
    assert code == 0, err
    code, out, err = run(capsys, "replay", str(log), "--json")
    assert code == 0, err
    assert json.loads(out)["expansions"] == ["thingvellir"] and "note: variant" not in err
    header, *rest = log.read_text(encoding="utf-8").splitlines()
    edited = json.loads(header)
    edited["expansions"] = []
    log.write_text("\n".join([json.dumps(edited), *rest]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and "Traceback" not in err
    assert f"{log}:1: error: the rules of this log do not load" in err
    assert "variant needs-thingvellir requires thingvellir, not loaded" in err


# -- the language server ------------------------------------------------------------------------

def test_the_language_server_checks_a_variant_with_the_boxes_it_requires(tmp_path):
    """The editor's check is `check`'s: without the `expansions` option, the boxes `requires`
    names (read from the editor's text); with it, those given, and the requires error."""
    from nidavellir.lsp.diagnose import check_target
    from nidavellir.lsp.targets import Classifier

    v = needs(tmp_path, "thingvellir")
    texts: dict[Path, str] = {}

    def read(p: Path) -> str | None:
        return texts.get(p) or (p.read_text(encoding="utf-8") if p.is_file() else None)

    [target] = Classifier(read, tmp_path).targets(v)
    assert [s[1] for s in target.specs] == ["rules/base", "rules/thingvellir", v.name]
    assert not check_target(target, {}).by_file
    texts[v.resolve()] = v.read_text(encoding="utf-8").replace("[thingvellir]", "[idavoll]")
    [edited] = Classifier(read, tmp_path).targets(v)
    assert [s[1] for s in edited.specs] == ["rules/base", "rules/idavoll", v.name]
    [given] = Classifier(read, tmp_path, ("idavoll",)).targets(v)
    outcome = check_target(given, {})
    [problem] = [d for ds in outcome.by_file.values() for d in ds]
    assert problem.message == "variant needs-thingvellir requires thingvellir, not loaded"
    assert (problem.loc.line, problem.loc.col) == entry(v, "thingvellir")


def test_a_copy_of_a_box_folder_counts_as_that_box(capsys, tmp_path):
    """A box is a layer (not a variant) with the box's id: `check` of a copy of Thingvellir's folder
    on the base, with a variant requiring it, is met."""
    box = Path(shutil.copytree(ROOT / "rules" / "thingvellir", tmp_path / "box"))
    v = needs(tmp_path, "thingvellir")
    code, _, err = run_check(capsys, str(box), "--variant", str(v), "--expansions", "")
    assert code == 0, err
