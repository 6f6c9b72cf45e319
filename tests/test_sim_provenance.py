"""Simulation records that cannot lie (issue 17 §5): "Every record (and every Parquet part's
metadata) carries the content hash of the rule set it was played with; `report` refuses records
whose hash, rule-set label, players or bots differ from the manifest, naming the file and the
field. Today a folder of another variant's records is summarised under the manifest's label."
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from nidavellir.cli import main
from nidavellir.sim import records
from nidavellir.sim.provenance import METADATA_KEY

OTHER = {"content_hash": "0" * 64, "label": "someone-else", "players": 4, "bots": ["greedy", "greedy", "greedy"]}
FIELDS = list(OTHER)


def cli(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().err


_MADE: dict[tuple[str, str, int], Path] = {}  # each simulation a test starts from, played once
_ROOT: list[Path] = []


@pytest.fixture(scope="module", autouse=True)
def _made_once(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Each simulation the tests start from is played once for the module (a simulation is
    deterministic: test_simulate.py shows a folder is the same however it is made); each test works
    on its own copy."""
    _ROOT.append(tmp_path_factory.mktemp("made"))
    yield
    _ROOT.clear()
    _MADE.clear()


def simulated(capsys, out: Path, fmt: str, variant: str = "generous-offerings", games: int = 3) -> Path:
    key = (fmt, variant, games)
    if key not in _MADE:
        made = _ROOT[0] / f"{fmt}-{variant}-{games}"
        code, err = cli(capsys, "simulate", "--players", "3", "--variant", variant, "--games", str(games),
                        "--jobs", "1", "--format", fmt, "--out", str(made))
        assert code == 0, err
        _MADE[key] = made
    shutil.copytree(_MADE[key], out, dirs_exist_ok=True)
    return out


def files(out: Path) -> dict[str, bytes]:
    """Every file of the records, by name (to see that a refusal changed nothing)."""
    path = records.where(out, "parquet")
    found = sorted(path.glob("*")) if path.is_dir() else [records.where(out, "jsonl")]
    return {p.name: p.read_bytes() for p in found if p.exists()}


def edit_jsonl(out: Path, line: int, change: dict[str, Any] | None = None, drop: tuple[str, ...] = ()) -> None:
    path = records.where(out, "jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    for i in ([line - 1] if line else range(len(lines))):
        r = json.loads(lines[i])
        r.update(change or {})
        for key in drop:
            r.pop(key, None)
        lines[i] = json.dumps(r)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def edit_part(out: Path, column: str | None = None, value: Any = None, stamp: dict[str, Any] | None = None,
              metadata: bool = True) -> Path:
    """Rewrite part-00000: one column's second value changed, or its metadata's stamp changed
    (or dropped), everything else as it was."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    (part,) = records.parts(records.where(out, "parquet"))
    table = pq.read_table(part)
    meta = dict(table.schema.metadata)
    if column is not None:
        values = table.column(column).to_pylist()
        values[1] = value
        index = table.schema.get_field_index(column)
        table = table.set_column(index, table.schema.field(index), pa.array(values, type=table.schema.field(index).type))
    if stamp is not None:
        meta[METADATA_KEY] = json.dumps(stamp).encode()
    pq.write_table(table.replace_schema_metadata(meta if metadata else None), part)
    return part


def refused(capsys, out: Path, *said: str) -> str:
    """`report` and resuming (simulate into the folder again) both refuse, exit 1, saying `said`,
    and change nothing."""
    before = files(out)
    code, err = cli(capsys, "report", str(out))
    assert code == 1 and all(s in err for s in said) and "Traceback" not in err, err
    fmt = json.loads((out / "simulation.json").read_text(encoding="utf-8"))["format"]
    code, again = cli(capsys, "simulate", "--players", "3", "--variant", "generous-offerings", "--games", "4",
                      "--jobs", "1", "--format", fmt, "--out", str(out))
    assert code == 1 and all(s in again for s in said) and "Traceback" not in again, again
    assert files(out) == before
    return err


def test_every_record_and_part_names_the_rules_it_was_played_with(tmp_path, capsys):
    """Every record carries its rule set's label, name (`rules`) and content hash (the manifest's
    values), its players and bots; every Parquet part the same in its schema metadata."""
    import pyarrow.parquet as pq

    for fmt in records.FORMATS:
        out = simulated(capsys, tmp_path / fmt, fmt)
        manifest = json.loads((out / "simulation.json").read_text(encoding="utf-8"))
        rows = list(records.read(out, fmt))
        assert len(rows) == 6
        for r in rows:
            rs = manifest["rule_sets"][r["set"]]
            assert (r["content_hash"], r["label"], r["rules"]) == (rs["content_hash"], rs["label"], rs["name"])
            assert (r["players"], r["bots"]) == (manifest["players"], manifest["bots"])
        assert manifest["rule_sets"][0]["content_hash"] != manifest["rule_sets"][1]["content_hash"]
    (part,) = records.parts(records.where(tmp_path / "parquet", "parquet"))
    stamp = json.loads(pq.read_schema(part).metadata[METADATA_KEY])
    assert stamp == {"players": 3, "bots": manifest["bots"],
                     "rule_sets": [{"index": rs["index"], "label": rs["label"], "content_hash": rs["content_hash"],
                                    "rules": rs["name"]} for rs in manifest["rule_sets"]]}


@pytest.mark.parametrize("field", FIELDS)
def test_a_jsonl_record_that_disagrees_with_the_manifest_is_refused(tmp_path, capsys, field):
    """A record whose hash, label, players or bots differ from the manifest: refused with its
    file, line and the field (exit 1), by `report` and by resuming."""
    out = simulated(capsys, tmp_path / "sim", "jsonl")
    edit_jsonl(out, 2, {field: OTHER[field]})
    refused(capsys, out, "games.jsonl:2:", f"`{field}`")


@pytest.mark.parametrize("field", FIELDS)
def test_a_parquet_record_that_disagrees_with_the_manifest_is_refused(tmp_path, capsys, field):
    """The same for a record of a Parquet part whose metadata still agrees: its part, its place
    and the field."""
    out = simulated(capsys, tmp_path / "sim", "parquet")
    value = OTHER[field] if field != "players" else 4
    edit_part(out, field, value)
    refused(capsys, out, "part-00000.parquet: record 2:", f"`{field}`")


@pytest.mark.parametrize("field", FIELDS)
def test_a_part_whose_metadata_disagrees_with_the_manifest_is_refused(tmp_path, capsys, field):
    """A Parquet part whose metadata names another hash, label, players or bots: refused with the
    part and the field."""
    import pyarrow.parquet as pq

    out = simulated(capsys, tmp_path / "sim", "parquet")
    (part,) = records.parts(records.where(out, "parquet"))
    stamp = json.loads(pq.read_schema(part).metadata[METADATA_KEY])
    if field in ("players", "bots"):
        stamp[field] = OTHER[field]
    else:
        stamp["rule_sets"][1][field] = OTHER[field]
    edit_part(out, stamp=stamp)
    refused(capsys, out, "part-00000.parquet:", f"`{field}`")


@pytest.mark.parametrize("fmt", records.FORMATS)
def test_another_variant_s_records_under_a_manifest_are_refused(tmp_path, capsys, fmt):
    """The issue's case: "a folder of another variant's records is summarised under the manifest's
    label". Records of `first-game` against base put in the folder of `generous-offerings` against
    base, or records of a variant file changed since (the same id, so the same label): refused,
    naming the content hash."""
    mine = simulated(capsys, tmp_path / "mine", fmt)
    for name, text in [("first-game", None), ("changed", "layer: {id: generous-offerings, name: G, description: d.}\n"
                                                         "cards:\n  - {id: skaa, points: 30}\n")]:
        variant = name
        if text is not None:
            variant = str(tmp_path / "generous-offerings.yaml")
            Path(variant).write_text(text, encoding="utf-8")
        theirs = simulated(capsys, tmp_path / name, fmt, variant=variant)
        target = records.where(mine, fmt)
        saved = tmp_path / f"saved-{fmt}"
        shutil.move(str(target), saved)
        if fmt == "jsonl":
            shutil.copy(records.where(theirs, fmt), target)
        else:
            shutil.copytree(records.where(theirs, fmt), target)
        refused(capsys, mine, records.where(mine, fmt).name, "`content_hash`", "other rules")
        shutil.rmtree(target) if target.is_dir() else target.unlink()
        shutil.move(str(saved), target)
    assert cli(capsys, "report", str(mine))[0] == 0


def test_records_from_before_the_hashes_are_refused_as_such(tmp_path, capsys):
    """"Records written before this change: refuse with a clear message saying they predate it":
    JSON lines without `content_hash` and `label`, a Parquet part without the metadata."""
    out = simulated(capsys, tmp_path / "jsonl", "jsonl")
    edit_jsonl(out, 0, drop=("content_hash", "label"))
    refused(capsys, out, "games.jsonl:1:", "from before records named the rules they were played with")
    out = simulated(capsys, tmp_path / "parquet", "parquet")
    edit_part(out, metadata=False)
    refused(capsys, out, "part-00000.parquet:", "from before records named the rules they were played with")


def test_a_manifest_without_content_hashes_is_refused(tmp_path, capsys):
    """The manifest is what records are checked against: a rule set without its content hash is
    an error naming the field."""
    out = simulated(capsys, tmp_path / "sim", "jsonl")
    path = out / "simulation.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    del manifest["rule_sets"][1]["content_hash"]
    path.write_text(json.dumps(manifest), encoding="utf-8")
    code, err = cli(capsys, "report", str(out))
    assert code == 1 and "simulation.json" in err and "content hash" in err
