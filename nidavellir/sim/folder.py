"""Every file `simulate` and `report` read or write inside a simulation's folder, judged first.

The folder's files are `simulation.json`, the records (`games.jsonl`, or `games.parquet/` and its
parts), `summary.json`, `report.html`, `report.md` and `plots/*.png`, with the temporary files they
are written through. Each is judged by the one path judge (compiler/paths.py) before it is opened:
a pipe, socket or device is never opened (nothing waits on it), a folder where a file belongs (or a
file where a folder belongs) is refused, and so is a symbolic link that leads out of the folder (a
folder's files are its own: resuming would append to another simulation's records, a report would
overwrite what is not its own). Each refusal is `cannot read PATH: …` or `cannot write PATH: …`, a
`FolderError` (exit 2, as every path a command cannot use).

A file is written whole under a temporary name beside it and renamed into place, so it is never
seen half written, and a link at its name is replaced, never followed.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

from nidavellir.compiler.paths import PathProblem, Want, open_file, output_problem, problem, shown_path
from nidavellir.errors import NidavellirError

__all__ = ["FolderError", "RecordsError", "check_read", "check_write", "open_read", "open_append", "write_file",
           "make_folder", "exists"]


class FolderError(NidavellirError):
    """A file of a simulation's folder that cannot be used as asked (a usage error, exit 2)."""


class RecordsError(NidavellirError):
    """Records on disk that cannot be read or continued (named with their file). (records.py reads
    them and verify.py checks them: both raise it, so it lives here, below both.)"""


def _outside(out: Path, path: Path) -> str | None:
    """Where `path` leads, if that is not inside `out` (None: it stays inside)."""
    try:
        home, real = os.path.realpath(out), os.path.realpath(path)
    except (OSError, ValueError):
        return None  # (the judge says what is wrong with the name)
    if real == home or real.startswith(home.rstrip(os.sep) + os.sep):
        return None
    return real


def _leaves(out: Path, path: Path) -> str:
    return (f"a symbolic link out of the simulation's folder (to {shown_path(_outside(out, path) or '')}): "
            "a folder's files are its own")


def exists(path: Path) -> bool:
    """Whether anything stands at `path` (a broken link too)."""
    try:
        os.lstat(path)
        return True
    except (OSError, ValueError):
        return False


def check_read(out: Path, path: Path, want: Want = "file") -> None:
    """`path` can be read as `want` and stays inside `out`; FolderError otherwise."""
    found = problem(path, want)
    if found is not None:
        raise FolderError(f"cannot read {found}")
    if _outside(out, path) is not None:
        raise FolderError(f"cannot read {shown_path(path)}: {_leaves(out, path)}")


def check_write(out: Path, path: Path, want: Want = "file") -> None:
    """`path` can be written as `want` (nothing there, or a file, or a folder) inside `out`."""
    found = output_problem(path, want)
    if found is not None:
        raise FolderError(f"cannot write {found}")
    if exists(path) and _outside(out, path) is not None:
        raise FolderError(f"cannot write {shown_path(path)}: {_leaves(out, path)}")


def open_read(out: Path, path: Path) -> BinaryIO:
    """A file of the folder opened for reading (judged, never waiting on a pipe)."""
    check_read(out, path)
    try:
        return open_file(path)
    except PathProblem as err:  # (something else put there meanwhile)
        raise FolderError(f"cannot read {err}") from None


def open_append(out: Path, path: Path) -> BinaryIO:
    """A file of the folder opened to append to (created if missing)."""
    check_write(out, path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as err:
        raise FolderError(f"cannot write {shown_path(path)}: {err.strerror or err}") from None
    if not _regular(fd):
        os.close(fd)
        raise FolderError(f"cannot write {shown_path(path)}: not a regular file (a pipe, a socket or a device)")
    return os.fdopen(fd, "ab")


def _regular(fd: int) -> bool:
    import stat

    return stat.S_ISREG(os.fstat(fd).st_mode)


def write_file(out: Path, path: Path, data: bytes) -> None:
    """`data` as the file `path` of the folder: written under a temporary name, then renamed."""
    check_write(out, path)
    tmp = path.with_name(path.name + ".tmp")
    if exists(tmp):
        check_write(out, tmp)
        os.unlink(tmp)  # (a leftover of a run cut short: ours to remove)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(tmp, flags, 0o644)
    except OSError as err:
        raise FolderError(f"cannot write {shown_path(tmp)}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if exists(tmp):
            os.unlink(tmp)
        raise


def make_folder(out: Path, path: Path) -> None:
    """The folder `path` inside `out`, made if missing."""
    check_write(out, path, "folder")
    path.mkdir(parents=True, exist_ok=True)
