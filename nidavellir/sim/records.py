"""A simulation's records on disk: `games.parquet/` (a folder of Parquet parts) or `games.jsonl`.

Records are written in task order (a chunk of game indexes, each rule set's games of it in turn), a
whole chunk at a time, so that what is on disk after an interruption is always the games of the
first k indexes of every rule set plus, at worst, a chunk cut short, which resuming cuts away.

- Parquet: each part (`part-00000.parquet`, …) holds whole chunks and is written under a temporary
  name, then renamed: a part on disk is complete. Columns mirror the record (sim-formats), nested
  as lists, maps and structs.
- JSON lines: one record per line, appended a chunk at a time; a line cut short is cut away.

Workers encode their chunk (`encode`): Arrow IPC bytes or JSON-lines text, so that the process that
writes does little more than write.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from nidavellir.errors import NidavellirError
from nidavellir.interface.numbers import json_loads

from .provenance import FIELDS as PROVENANCE
from .provenance import Expected

FORMATS = ("parquet", "jsonl")
PARQUET_DIR = "games.parquet"
JSONL_FILE = "games.jsonl"
PART_ROWS = 4000          # a part's records (whole chunks; more once a chunk is larger)


class RecordsError(NidavellirError):
    """Records on disk that cannot be read or continued (named with their file)."""


def schema() -> Any:
    """The Arrow schema of a record."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    fact = pa.struct([("card", pa.string()), ("kind", pa.string()), ("class", pa.string()),
                      ("player", pa.int8()), ("age", pa.int8()), ("turn", pa.int16()),
                      ("how", pa.string()), ("points", pa.int64())])
    return pa.schema([
        ("set", pa.int16()), ("label", pa.string()), ("content_hash", pa.string()), ("game", pa.int64()), ("seed", pa.int64()), ("players", pa.int8()),
        ("seats", pa.list_(pa.string())), ("bots", pa.list_(pa.string())),
        # (scores: each value the rules compute is within ±10^9, their sums are not: 64 bits)
        ("totals", pa.list_(pa.int64())), ("shares", pa.list_(pa.float64())),
        ("breakdown", pa.list_(pa.map_(pa.string(), pa.int64()))),
        ("turns", pa.int16()), ("decisions", pa.int32()), ("cards", pa.list_(fact)),
    ])


def encode(records: Sequence[dict[str, Any]], fmt: str) -> bytes:
    """A chunk's records as the writer takes them: Arrow IPC stream bytes, or JSON lines."""
    if fmt == "jsonl":
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records).encode("utf-8")
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    rows = [{**r, "breakdown": [list(b.items()) for b in r["breakdown"]]} for r in records]
    batch = pa.RecordBatch.from_pylist(rows, schema=schema())
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return bytes(sink.getvalue().to_pybytes())


class Writer(Protocol):
    def write(self, payload: bytes, rows: int) -> None: ...
    def close(self) -> None: ...


def where(out: Path, fmt: str) -> Path:
    return out / (PARQUET_DIR if fmt == "parquet" else JSONL_FILE)


# -- resuming ----------------------------------------------------------------------------------

def complete_games(out: Path, fmt: str, expected: Expected) -> int:
    """How many game indexes (0, 1, …, k−1) every rule set has on disk; records beyond them (a
    chunk cut short) are removed, and leftover temporary parts deleted. Every record (and part) is
    checked against what the manifest says it was played with. Read as a stream: memory does not
    grow with the games."""
    if fmt == "jsonl":
        return _resume_jsonl(where(out, fmt), expected)
    return _resume_parquet(where(out, fmt), expected)


class _Order:
    """The records of each rule set must come as simulate writes them: game 0, 1, 2, … (a chunk of
    indexes of every rule set in turn); `balanced` once every rule set has the same games."""

    def __init__(self, sets: int, path: Path):
        self.next = [0] * sets
        self.path = path

    def add(self, s: Any, g: Any, place: str) -> None:
        if not (isinstance(s, int) and 0 <= s < len(self.next) and g == self.next[s]):
            raise RecordsError(f"{place}: not the record simulate writes there (rule set {s!r}, game {g!r}; "
                               "the records are not in the order a simulation writes them); move "
                               f"{self.path.name} away to start again")
        self.next[s] += 1

    @property
    def balanced(self) -> bool:
        return all(k == self.next[0] for k in self.next)


def _resume_jsonl(path: Path, expected: Expected) -> int:
    """Read line by line, remembering only where every rule set last had the same games."""
    if not path.exists():
        return 0
    order = _Order(len(expected.sets), path)
    keep = games = offset = 0   # (the byte offset after the last balanced line, its games)
    with path.open("rb") as f:
        for n, line in enumerate(f, 1):
            if not line.endswith(b"\n"):
                break  # cut short
            try:
                r = json_loads(line)
                s, g = r["set"], r["game"]
            except (ValueError, KeyError, TypeError):
                raise RecordsError(f"{path}:{n}: not a simulation record; move the file away to start "
                                   "again") from None
            problem = expected.record_problem(r)
            if problem:
                raise RecordsError(f"{path}:{n}: {problem}")
            order.add(s, g, f"{path}:{n}")
            offset += len(line)
            if order.balanced:
                keep, games = offset, order.next[0]
    if keep != path.stat().st_size:
        with path.open("r+b") as f:
            f.truncate(keep)
    return games


def parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def part_metadata(part: Path) -> dict[bytes, bytes] | None:
    """A Parquet part's schema metadata (None: it has none)."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    try:
        meta = pq.read_schema(part).metadata
    except (OSError, ValueError) as err:  # (pyarrow's ArrowInvalid is a ValueError)
        raise RecordsError(f"{part}: unreadable ({err}); delete it to play its games again") from None
    return dict(meta) if meta else None


def check_part(part: Path, expected: Expected) -> None:
    """Refuse a part whose metadata disagrees with the manifest (named with the field)."""
    problem = expected.part_problem(part_metadata(part))
    if problem:
        raise RecordsError(f"{part}: {problem}")


def _resume_parquet(folder: Path, expected: Expected) -> int:
    """Part by part (each holds whole chunks), checking each record's place and provenance."""
    if not folder.exists():
        return 0
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    for tmp in folder.glob("*.tmp"):
        tmp.unlink()
    order = _Order(len(expected.sets), folder)
    for part in parts(folder):
        check_part(part, expected)
        try:
            table = pq.read_table(part, columns=["set", "game", *PROVENANCE])
        except (OSError, ValueError, KeyError) as err:
            raise RecordsError(f"{part}: unreadable ({err}); delete it to play its games again") from None
        columns = [table.column(name).to_pylist() for name in ("set", "game", *PROVENANCE)]
        for n, (s, g, *values) in enumerate(zip(*columns), 1):
            problem = expected.record_problem({"set": s, "game": g, **dict(zip(PROVENANCE, values))})
            if problem:
                raise RecordsError(f"{part}: record {n}: {problem}")
            order.add(s, g, f"{part}: record {n}")
    if not order.balanced:  # (parts hold whole chunks)
        raise RecordsError(f"{folder}: its parts do not hold the first games of every rule set; "
                           "move the folder away to start again")
    return order.next[0]


# -- writing -----------------------------------------------------------------------------------

class JsonlWriter:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("ab")

    def write(self, payload: bytes, rows: int) -> None:
        self.file.write(payload)
        self.file.flush()

    def close(self) -> None:
        self.file.close()


class ParquetWriter:
    """Chunks gathered into parts of about PART_ROWS records (or fewer at `flush`), each part
    stamped with what its records were played with (provenance.py)."""

    def __init__(self, folder: Path, expected: Expected):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.metadata = expected.metadata()
        existing = parts(folder)
        self.next = int(existing[-1].stem.split("-")[1]) + 1 if existing else 0
        self.batches: list[Any] = []
        self.rows = 0

    def write(self, payload: bytes, rows: int) -> None:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        with pa.ipc.open_stream(payload) as reader:
            self.batches.extend(reader)
        self.rows += rows
        if self.rows >= PART_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.batches:
            return
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

        table = pa.Table.from_batches(self.batches, schema=schema()).replace_schema_metadata(self.metadata)
        final = self.folder / f"part-{self.next:05d}.parquet"
        tmp = final.with_suffix(".tmp")
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, final)
        self.next += 1
        self.batches, self.rows = [], 0

    def close(self) -> None:
        self.flush()


def writer(out: Path, fmt: str, expected: Expected) -> Writer:
    return JsonlWriter(where(out, fmt)) if fmt == "jsonl" else ParquetWriter(where(out, fmt), expected)


# -- reading -----------------------------------------------------------------------------------

def read(out: Path, fmt: str) -> Iterator[dict[str, Any]]:
    """Every record on disk, in order, as dicts (streamed: a part's row group at a time)."""
    path = where(out, fmt)
    if fmt == "jsonl":
        if not path.exists():
            return
        with path.open("rb") as f:
            for n, line in enumerate(f, 1):
                if not line.endswith(b"\n"):
                    return  # cut short: not a record yet
                try:
                    yield json_loads(line)
                except ValueError:
                    raise RecordsError(f"{path}:{n}: not a JSON record") from None
        return
    for part in parts(path):
        yield from read_part(part)


def read_part(part: Path) -> Iterator[dict[str, Any]]:
    """The records of one Parquet part, in order."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    try:
        file = pq.ParquetFile(part)
        for batch in file.iter_batches(batch_size=1000):
            yield from rows_of(batch)
    except (OSError, ValueError, KeyError, IndexError) as err:
        raise RecordsError(f"{part}: unreadable ({err}); delete it to play its games again "
                           "(or move the folder away: a part of another version of nidavellir?)") from None


SCALARS = ("set", "label", "content_hash", "game", "seed", "players", "turns", "decisions")
LISTS = ("seats", "bots", "totals", "shares")
FACT_FIELDS = ("card", "kind", "class", "player", "age", "turn", "how", "points")


def rows_of(batch: Any) -> Iterator[dict[str, Any]]:
    """A record batch's rows as records, column by column (pyarrow's own `to_pylist` builds
    each struct through Python scalars, twenty times slower)."""
    columns = {name: batch.column(name) for name in batch.schema.names}
    plain = {name: columns[name].to_pylist() for name in (*SCALARS, *LISTS)}
    breakdown = columns["breakdown"]
    maps = breakdown.values                     # every seat's map, one after another
    keys, values = maps.keys.to_pylist(), maps.items.to_pylist()
    map_at, seat_at = maps.offsets.to_pylist(), breakdown.offsets.to_pylist()
    cards = columns["cards"]
    facts = cards.values
    fields = [facts.field(name).to_pylist() for name in FACT_FIELDS]
    fact_at = cards.offsets.to_pylist()
    for i in range(batch.num_rows):
        record = {name: plain[name][i] for name in SCALARS}
        for name in LISTS:
            record[name] = plain[name][i]
        record["breakdown"] = [dict(zip(keys[map_at[m]:map_at[m + 1]], values[map_at[m]:map_at[m + 1]]))
                               for m in range(seat_at[i], seat_at[i + 1])]
        record["cards"] = [dict(zip(FACT_FIELDS, row))
                           for row in zip(*(f[fact_at[i]:fact_at[i + 1]] for f in fields))]
        yield {name: record[name] for name in columns}
