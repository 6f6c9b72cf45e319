"""Rule sets named as the designer wrote them (issue 18): "Rule sets are labelled by the name the
designer wrote ("Brokk's forge"), not the layer id; records carry a readable rule-set label column
besides the 0/1 `set`." A folder written before names: its report shows its labels, resuming it
keeps its records and their columns.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from nidavellir.cli import main
from nidavellir.sim import records
from nidavellir.sim.plots import _labels
from nidavellir.sim.provenance import METADATA_KEY

BROKK = """\
layer:
  id: brokks-forge
  name: Brokk's forge
  description: Skaa the Unfathomable adds 20 points instead of 17.
cards:
  - id: skaa
    points: 20
"""

_MADE: dict[str, Path] = {}
_VARIANT: dict[str, Path] = {}   # the variant file each was played with (its path is in the rules' hash)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def simulated(capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory, fmt: str,
              out: Path) -> Path:
    """Brokk's forge against the base game, 3 games of 2 players, played once per format and copied."""
    if fmt not in _MADE:
        root = tmp_path_factory.mktemp("labels")
        variant = root / "brokks-forge.yaml"
        variant.write_text(BROKK, encoding="utf-8")
        _VARIANT[fmt] = variant
        made = root / fmt
        code, _, err = cli(capsys, "simulate", "--players", "2", "--variant", str(variant), "--games", "3",
                           "--jobs", "1", "--format", fmt, "--out", str(made))
        assert code == 0, err
        _MADE[fmt] = made
    shutil.copytree(_MADE[fmt], out)
    return out


def manifest(out: Path) -> dict[str, Any]:
    return dict(json.loads((out / "simulation.json").read_text(encoding="utf-8")))


def all_records(out: Path, fmt: str) -> list[dict[str, Any]]:
    return list(records.read(out, fmt))


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_the_designers_name_labels_every_output(fmt: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The manifest and summary name each rule set (`name`) beside its key (`label`, the layer ids);
    the report (HTML and Markdown), the plots and the terminal call it by its name; the layer id
    stays in the report's description of the rule set."""
    out = simulated(capsys, tmp_path_factory, fmt, tmp_path / "sim")
    sets = manifest(out)["rule_sets"]
    assert [(s["label"], s["name"]) for s in sets] == [("brokks-forge", "Brokk's forge"), ("base", "base game")]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in summary["rule_sets"]] == ["Brokk's forge", "base game"]
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Simulation report: Brokk's forge against base game")
    assert "variants: brokks-forge" in md
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Brokk&#39;s forge against base game" in html or "Brokk&#x27;s forge against base game" in html
    assert "brokks-forge against" not in html and "brokks-forge against" not in md
    assert _labels(summary) == ["Brokk's forge", "base game"]
    code, text, _ = cli(capsys, "report", str(out))
    assert code == 0 and "Brokk's forge against base game over 3 paired games" in " ".join(text.split())


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_records_carry_the_name_in_a_rules_column(fmt: str, tmp_path: Path,
                                                  tmp_path_factory: pytest.TempPathFactory,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """"records carry a readable rule-set label column besides the 0/1 `set`": `rules`, in both
    formats, the rule set's name; in Parquet a column of the table itself."""
    out = simulated(capsys, tmp_path_factory, fmt, tmp_path / "sim")
    rows = all_records(out, fmt)
    assert {(r["set"], r["rules"]) for r in rows} == {(0, "Brokk's forge"), (1, "base game")}
    if fmt == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(records.where(out, fmt))
        assert table.column_names[:3] == ["set", "label", "rules"]
        assert set(table.column("rules").to_pylist()) == {"Brokk's forge", "base game"}
        stamp = json.loads(table.schema.metadata[METADATA_KEY])
        assert [rs["rules"] for rs in stamp["rule_sets"]] == ["Brokk's forge", "base game"]
    else:
        first = records.where(out, fmt).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith('{"set":0,"label":"brokks-forge","rules":"Brokk\'s forge",')


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_a_record_of_another_name_is_refused(fmt: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The `rules` column is checked as `label` is: a record (or part) that names another rule set
    is refused, naming the field, and nothing is written over."""
    out = simulated(capsys, tmp_path_factory, fmt, tmp_path / "sim")
    if fmt == "jsonl":
        path = records.where(out, fmt)
        lines = path.read_text(encoding="utf-8").splitlines()
        first = json.loads(lines[0])
        first["rules"] = "someone else's"
        lines[0] = json.dumps(first)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        said = "the record's `rules` is `someone else's`, but simulation.json's rule set 0 has `Brokk's forge`"
    else:
        import pyarrow.parquet as pq

        (part,) = records.parts(records.where(out, fmt))
        table = pq.read_table(part)
        meta = dict(table.schema.metadata)
        stamp = json.loads(meta[METADATA_KEY])
        stamp["rule_sets"][1]["rules"] = "someone else's"
        meta[METADATA_KEY] = json.dumps(stamp).encode()
        pq.write_table(table.replace_schema_metadata(meta), part)
        said = "the part's `rules` of rule set 1 is `someone else's`, but simulation.json's rule set 1 has `base game`"
    code, _, err = cli(capsys, "report", str(out))
    assert code == 1 and said in err and "Traceback" not in err, err


def make_old(out: Path, fmt: str) -> None:
    """The folder as a nidavellir from before names wrote it: no `name` nor `rules_column` in the
    manifest, no `rules` in the records (nor in a part's metadata)."""
    data = manifest(out)
    del data["rules_column"]
    for rs in data["rule_sets"]:
        del rs["name"]
    (out / "simulation.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    if fmt == "jsonl":
        path = records.where(out, fmt)
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "rules"},
                                           separators=(",", ":")) + "\n" for r in rows), encoding="utf-8")
        return
    import pyarrow.parquet as pq

    for part in records.parts(records.where(out, fmt)):
        table = pq.read_table(part)
        meta = dict(table.schema.metadata)
        stamp = json.loads(meta[METADATA_KEY])
        for rs in stamp["rule_sets"]:
            del rs["rules"]
        meta[METADATA_KEY] = json.dumps(stamp).encode()
        pq.write_table(table.drop(["rules"]).replace_schema_metadata(meta), part)


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_a_folder_from_before_names_reports_and_resumes(fmt: str, tmp_path: Path,
                                                        tmp_path_factory: pytest.TempPathFactory,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """"make sure resuming a run and `report DIR` still work with old and new records ... never
    lose records": `report` on a folder written before names counts every record under its labels;
    simulating more games into it keeps its records and writes the new ones with the same columns
    (a folder's records are of one layout), while the manifest gains the names, so the report
    then uses them."""
    out = simulated(capsys, tmp_path_factory, fmt, tmp_path / "sim")
    make_old(out, fmt)
    old_rows = all_records(out, fmt)
    code, text, err = cli(capsys, "report", str(out), "--json")
    assert code == 0, err
    summary = json.loads(text)
    assert summary["records"]["games"] == 3 and summary["records"]["count"] == 6
    assert [s["name"] for s in summary["rule_sets"]] == ["brokks-forge", "base"]   # (its labels)
    code, text, err = cli(capsys, "simulate", "--players", "2", "--variant", str(_VARIANT[fmt]), "--games", "5",
                          "--jobs", "1", "--out", str(out), "--json")
    assert code == 0, err
    summary = json.loads(text)
    assert summary["records"]["games"] == 5 and summary["records"]["count"] == 10
    rows = all_records(out, fmt)
    assert len(rows) == 10 and rows[:len(old_rows)] == old_rows   # (the old records first, unchanged)
    assert all("rules" not in r for r in rows)
    data = manifest(out)
    assert data["rules_column"] is False
    assert [s["name"] for s in data["rule_sets"]] == ["Brokk's forge", "base game"]
    assert [s["name"] for s in summary["rule_sets"]] == ["Brokk's forge", "base game"]
