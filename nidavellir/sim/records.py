"""A simulation's records on disk: `games.parquet/` (a folder of Parquet parts) or `games.jsonl`.

Records are written in task order (a chunk of game indexes, each rule set's games of it in turn), a
whole chunk at a time, so that what is on disk after an interruption is always the games of the
first k indexes of every rule set plus, at worst, a chunk cut short, which resuming cuts away.

- Parquet: each part (`part-00000.parquet`, …) holds whole chunks and is written under a temporary
  name, then renamed: a part on disk is complete. Columns mirror the record (sim-formats), nested
  as lists, maps and structs.
- JSON lines: one record per line, appended a chunk at a time; a line cut short is cut away.

Every file is judged before it is opened (folder.py: never a pipe or device, never a link out of
the folder), and every record is checked against the manifest as it is read (verify.py).

Workers encode their chunk (`encode`): Arrow IPC bytes or JSON-lines text, so that the process that
writes does little more than write.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from nidavellir.interface.numbers import NumberError, json_loads

# (RecordsError is defined in folder.py, below this module and verify.py, which both raise it)
from . import folder
from .folder import RecordsError as RecordsError
from .provenance import Expected

FORMATS = ("parquet", "jsonl")
PARQUET_DIR = "games.parquet"
JSONL_FILE = "games.jsonl"
PART_ROWS = 4000          # a part's records (whole chunks; more once a chunk is larger)


def schema(rules: bool = True) -> Any:
    """The Arrow schema of a record (without `rules`: of a folder begun before records had it)."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    fact = pa.struct([("card", pa.string()), ("kind", pa.string()), ("class", pa.string()),
                      ("player", pa.int8()), ("age", pa.int8()), ("turn", pa.int16()),
                      ("how", pa.string()), ("points", pa.int64())])
    named = [("rules", pa.string())] if rules else []
    return pa.schema([
        ("set", pa.int16()), ("label", pa.string()), *named, ("content_hash", pa.string()), ("game", pa.int64()),
        ("seed", pa.int64()), ("players", pa.int8()),
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
    batch = pa.RecordBatch.from_pylist(rows, schema=schema(bool(records) and "rules" in records[0]))
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return bytes(sink.getvalue().to_pybytes())


class Writer(Protocol):
    def write(self, payload: bytes, rows: int) -> None: ...
    def close(self) -> None: ...


def where(out: Path, fmt: str) -> Path:
    return out / (PARQUET_DIR if fmt == "parquet" else JSONL_FILE)


# -- the folder's records, judged and checked ----------------------------------------------------

def check_format(out: Path, fmt: str) -> None:
    """The folder holds no records of the other format: a simulation's records are in one format,
    the one its manifest names (a manifest edited to say another is refused, not read as empty)."""
    for other in FORMATS:
        path = where(out, other)
        if other != fmt and folder.exists(path):
            raise RecordsError(f"{path}: simulation.json says the records are {fmt} ({where(out, fmt).name}), "
                               f"but the folder holds {path.name}: a simulation's records are in one format; "
                               f"move {path.name} away (or simulation.json, edited?)")


@dataclass
class Line:
    """A line of games.jsonl: its number, the byte offset after it, and its record, or `cut`: the
    last line, without its end (a run stopped while writing it), which is not a record yet."""
    number: int
    end: int
    record: dict[str, Any] | None
    cut: bool = False


_RECORD_START = b'{"set":'  # how every record simulate writes begins


def jsonl_lines(out: Path, path: Path) -> Iterator[Line]:
    """The lines of games.jsonl (judged first: never a pipe, never a file out of the folder), each
    read by the bounded number parser; RecordsError naming the line for one that is no record. A
    last line without its end is `cut` if it is how a record begins, else refused."""
    if not folder.exists(path):
        return
    offset = 0
    with folder.open_read(out, path) as f:
        for n, raw in enumerate(f, 1):
            offset += len(raw)
            if not raw.endswith(b"\n"):
                text = raw.lstrip()
                if text.startswith(_RECORD_START) or _RECORD_START.startswith(text):
                    yield Line(n, offset - len(raw), None, cut=True)
                    return
                raise RecordsError(f"{path}:{n}: not a simulation record, nor one cut short (the last line has no "
                                   "end, and a record begins `{\"set\":`); move the file away to start again")
            yield Line(n, offset, _record(path, n, raw))


def _record(path: Path, n: int, raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        raise RecordsError(f"{path}:{n}: a blank line, not a simulation record; move the file away to start again")
    try:
        record = json_loads(raw)
    except NumberError as err:
        raise RecordsError(f"{path}:{n}: not a simulation record: {err.message}") from None
    except (ValueError, RecursionError):
        raise RecordsError(f"{path}:{n}: not a simulation record (not a line of JSON); move the file away to "
                           "start again") from None
    if not isinstance(record, dict):
        raise RecordsError(f"{path}:{n}: not a simulation record (not a JSON object)")
    return record


def cut_note(path: Path, line: Line) -> str:
    return (f"{path}:{line.number}: a record cut short (an interrupted run?) is not counted; run simulate again "
            "to complete it")


def parts(folder_path: Path) -> list[Path]:
    return sorted(folder_path.glob("part-*.parquet"))


def part_files(out: Path, fmt: str) -> list[Path]:
    """The Parquet parts of the folder, in order (the folder judged: a folder, inside `out`)."""
    path = where(out, fmt)
    if fmt != "parquet" or not folder.exists(path):
        return []
    folder.check_read(out, path, "folder")
    return parts(path)


def _unreadable(part: Path, err: BaseException) -> RecordsError:
    return RecordsError(f"{part}: unreadable ({err}); delete it to play its games again "
                        "(or move the folder away: a part of another version of nidavellir?)")


def part_metadata(part: Path) -> dict[bytes, bytes] | None:
    """A Parquet part's schema metadata (None: it has none); the part judged first."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    with folder.open_read(part.parent.parent, part) as f:
        try:
            meta = pq.read_schema(f).metadata
        except (OSError, ValueError) as err:  # (pyarrow's ArrowInvalid is a ValueError)
            raise _unreadable(part, err) from None
    return dict(meta) if meta else None


def check_part(part: Path, expected: Expected) -> None:
    """Refuse a part whose metadata disagrees with the manifest (named with the field)."""
    problem = expected.part_problem(part_metadata(part))
    if problem:
        raise RecordsError(f"{part}: {problem}")


# -- resuming ----------------------------------------------------------------------------------

def complete_games(out: Path, fmt: str, expected: Expected) -> int:
    """How many game indexes (0, 1, …, k−1) every rule set has on disk; records beyond them (a
    chunk cut short) are removed, and leftover temporary parts deleted. Every record (and part) is
    checked against what the manifest says it was played (verify.py), as `report` checks them.
    Read as a stream: memory does not grow with the games."""
    check_format(out, fmt)
    if fmt == "jsonl":
        return _resume_jsonl(out, where(out, fmt), expected)
    return _resume_parquet(out, where(out, fmt), expected)


def _resume_jsonl(out: Path, path: Path, expected: Expected) -> int:
    """Read line by line, remembering only where every rule set last had the same games."""
    from .verify import Pairing

    pairing = Pairing(expected, path)
    keep = games = 0   # (the byte offset after the last balanced line, its games)
    for line in jsonl_lines(out, path):
        if line.cut or line.record is None:
            break
        pairing.add(line.record, f"{path}:{line.number}")
        if pairing.balanced:
            keep, games = line.end, pairing.games
    if folder.exists(path) and keep != path.stat().st_size:
        folder.check_write(out, path)
        os.truncate(path, keep)
    return games


def _resume_parquet(out: Path, folder_path: Path, expected: Expected) -> int:
    """Part by part (each holds whole chunks), checking each record's place and provenance."""
    from .verify import Tiling

    found = part_files(out, "parquet")
    if not folder.exists(folder_path):
        return 0
    for tmp in folder_path.glob("*.tmp"):
        folder.check_write(out, tmp)
        tmp.unlink()
    tiling = Tiling(folder_path)
    for part in found:
        tiling.add(part, *part_range(part, expected, lambda place, record: None))
    return tiling.end


def part_range(part: Path, expected: Expected, take: Any) -> tuple[int, int]:
    """The game indexes [first, end) a part holds of every rule set, each record checked (verify.py)
    and handed to `take(place, record)` once its game's records of every rule set have come
    (RecordsError: a part that is not whole chunks of every rule set, in order)."""
    from .verify import Pairing

    check_part(part, expected)
    pairing = Pairing(expected, part, start=None)
    for n, record in enumerate(read_part(part), 1):
        for place, whole in pairing.add(record, f"{part}: record {n}"):
            take(place, whole)
    pairing.finish_part()
    return pairing.first, pairing.games


# -- writing -----------------------------------------------------------------------------------

class JsonlWriter:
    def __init__(self, path: Path):
        self.out = path.parent
        folder.make_folder(self.out, self.out)
        self.file = folder.open_append(self.out, path)

    def write(self, payload: bytes, rows: int) -> None:
        self.file.write(payload)
        self.file.flush()

    def close(self) -> None:
        self.file.close()


class ParquetWriter:
    """Chunks gathered into parts of about PART_ROWS records (or fewer at `flush`), each part
    stamped with what its records were played with (provenance.py)."""

    def __init__(self, folder_path: Path, expected: Expected):
        self.out = folder_path.parent
        folder.make_folder(self.out, folder_path)
        self.folder = folder_path
        self.metadata = expected.metadata()
        existing = parts(folder_path)
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

        table = pa.Table.from_batches(self.batches, schema=self.batches[0].schema).replace_schema_metadata(self.metadata)
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        final = self.folder / f"part-{self.next:05d}.parquet"
        folder.write_file(self.out, final, sink.getvalue().to_pybytes())
        self.next += 1
        self.batches, self.rows = [], 0

    def close(self) -> None:
        self.flush()


def writer(out: Path, fmt: str, expected: Expected) -> Writer:
    return JsonlWriter(where(out, fmt)) if fmt == "jsonl" else ParquetWriter(where(out, fmt), expected)


# -- reading -----------------------------------------------------------------------------------

def read(out: Path, fmt: str) -> Iterator[dict[str, Any]]:
    """Every whole record on disk, in order, as dicts (streamed: a part's row group at a time; a
    last line cut short is not a record yet)."""
    if fmt == "jsonl":
        for line in jsonl_lines(out, where(out, fmt)):
            if line.record is not None:
                yield line.record
        return
    for part in part_files(out, fmt):
        yield from read_part(part)


def read_part(part: Path) -> Iterator[dict[str, Any]]:
    """The records of one Parquet part, in order (the part judged first)."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    with folder.open_read(part.parent.parent, part) as f:
        try:
            file = pq.ParquetFile(f)
            for batch in file.iter_batches(batch_size=1000):
                yield from rows_of(batch)
        except (OSError, ValueError, KeyError, IndexError) as err:
            raise _unreadable(part, err) from None


SCALARS = ("set", "label", "rules", "content_hash", "game", "seed", "players", "turns", "decisions")
LISTS = ("seats", "bots", "totals", "shares")
FACT_FIELDS = ("card", "kind", "class", "player", "age", "turn", "how", "points")


def rows_of(batch: Any) -> Iterator[dict[str, Any]]:
    """A record batch's rows as records, column by column (pyarrow's own `to_pylist` builds
    each struct through Python scalars, twenty times slower)."""
    columns = {name: batch.column(name) for name in batch.schema.names}
    scalars = [name for name in SCALARS if name in columns]   # (`rules`: not in a part from before it)
    plain = {name: columns[name].to_pylist() for name in (*scalars, *LISTS)}
    breakdown = columns["breakdown"]
    maps = breakdown.values                     # every seat's map, one after another
    keys, values = maps.keys.to_pylist(), maps.items.to_pylist()
    map_at, seat_at = maps.offsets.to_pylist(), breakdown.offsets.to_pylist()
    cards = columns["cards"]
    facts = cards.values
    fields = [facts.field(name).to_pylist() for name in FACT_FIELDS]
    fact_at = cards.offsets.to_pylist()
    for i in range(batch.num_rows):
        record = {name: plain[name][i] for name in scalars}
        for name in LISTS:
            record[name] = plain[name][i]
        record["breakdown"] = [dict(zip(keys[map_at[m]:map_at[m + 1]], values[map_at[m]:map_at[m + 1]]))
                               for m in range(seat_at[i], seat_at[i + 1])]
        record["cards"] = [dict(zip(FACT_FIELDS, row))
                           for row in zip(*(f[fact_at[i]:fact_at[i + 1]] for f in fields))]
        yield {name: record[name] for name in columns}
