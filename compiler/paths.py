"""How every command treats a path the user names: rules folders and files, variants, positions,
decision logs, simulation folders (read), `--out` and `--log` (written).

One function judges a path before it is used (`problem`), one opens a file without ever waiting on
it (`open_file`, which `read_bytes` reads whole), and one names a path in messages (`shown_path`),
so that each case reads the same whatever the command:

- a name that is not valid UTF-8 (Python keeps its bytes as surrogates) is refused: names are
  shown, logged and recorded as text, and such a name cannot be written faithfully; it is shown
  with the bytes escaped (`\\xff`);
- a missing file, a broken symbolic link, a folder where a file is expected (and a file where a
  folder is), a pipe, socket or device (never opened, so nothing waits on it), a path that cannot
  be read (permission denied, a name too long): each has its own words;
- a missing file or folder gets a did-you-mean (`near_miss`): the path with each missing part
  replaced by the closest name in its folder (`first_game.yaml` → `first-game.yaml`), when that
  path exists;
- a file larger than the reader's bound (`limit`: rules files and positions `MAX_FILE_BYTES`, what
  the language server reads the same as the largest message it takes) is refused unread.

Every command says `cannot read PATH: ...` or `cannot write PATH: ...`, with no line and column:
rules and positions as an error among the file's other problems (diagnostics.unread, exit 1), the
other commands as a usage error (exit 2).
"""
from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO, Literal, Union

from nidavellir.errors import NidavellirError, closest, visible

__all__ = ["PathProblem", "Want", "shown_path", "problem", "output_problem", "open_file", "read_bytes", "NOT_UTF8",
           "NOT_REGULAR", "FOUND_A_FOLDER", "NO_SUCH", "near_miss", "PART_IS_A_FILE", "MAX_FILE_BYTES", "too_large"]

Want = Literal["file", "folder", "any"]
PathLike = Union[str, "os.PathLike[str]"]

NOT_UTF8 = "the file name is not valid UTF-8"
NOT_UTF8_HINT = "rename it: file names are read, shown and recorded as UTF-8"
NOT_REGULAR = "not a regular file (a pipe, a socket or a device): it is not read"
FOUND_A_FOLDER = "expected a file, found a folder"
NO_SUCH = "no such file or folder"
PART_IS_A_FILE = "a part of the path is a file, not a folder"
MAX_FILE_BYTES = 64 * 2 ** 20  # a rules file, a position, a manifest: far beyond any real one


MAX_PARTS = 64  # a path with more parts than this gets no did-you-mean
MAX_NAMES = 2000  # the names of a folder compared with a missing one, at most


def _names(folder: str) -> list[str]:
    """Up to MAX_NAMES names in `folder` that are valid UTF-8 (none if it cannot be listed)."""
    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if len(names) >= MAX_NAMES:
                    break
                if _utf8(entry.name):
                    names.append(entry.name)
    except (OSError, ValueError):
        return []
    return names


def _closest_name(name: str, names: list[str]) -> str | None:
    """The name closest to `name`, compared without the extension (else every `.yaml` is close to
    every other), then the nearest whole name among those of that stem: `first_game.yaml` →
    `first-game.yaml`, `first-game.yml` → `first-game.yaml`."""
    stem = os.path.splitext(name)[0] or name
    stems: dict[str, list[str]] = {}
    for n in names:
        stems.setdefault(os.path.splitext(n)[0] or n, []).append(n)
    if stem in stems:
        near: str | None = stem
    else:
        near = closest(stem, stems)
    if near is None:
        return None
    return closest(name, stems[near]) or stems[near][0]


def near_miss(path: PathLike) -> str | None:
    """The existing path closest to a missing `path`: the parts that exist kept, each missing one
    replaced by the closest name in its folder; None when some part has no close name."""
    text = os.fspath(path)
    if not _utf8(text) or "\0" in text:
        return None
    parts = text.split(os.sep)
    if len(parts) > MAX_PARTS:
        return None
    fixed: list[str] = []
    changed = False
    for i, part in enumerate(parts):
        so_far = os.sep.join(fixed + [part])
        if part in ("", ".", "..") or os.path.lexists(so_far):
            fixed.append(part)
            continue
        folder = os.sep.join(fixed) or ("." if i == 0 else os.sep)
        match = _closest_name(part, _names(folder))
        if match is None:
            return None
        fixed.append(match)
        changed = True
    found = os.sep.join(fixed)
    return found if changed and os.path.lexists(found) else None


def _missing(path: PathLike, shown: str) -> PathProblem:
    """A path that does not exist, with the near miss if there is one."""
    near = near_miss(path)
    return PathProblem(shown, NO_SUCH if near is None else f"{NO_SUCH} (did you mean {shown_path(near)}?)")


def too_large(size: int, limit: int) -> str:
    """The words for a file over a reader's bound."""
    return f"too large to read ({size:,} bytes; at most {limit:,})"


class PathProblem(NidavellirError):
    """A path that cannot be used as asked: `shown` (escaped), `message`, `hint`."""

    def __init__(self, shown: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{shown}: {message}")
        self.shown, self.message, self.hint = shown, message, hint


def shown_path(path: PathLike) -> str:
    """A path fit to print: control characters and bytes that are not UTF-8 escaped."""
    return visible(os.fspath(path))


def _utf8(path: PathLike) -> bool:
    try:
        os.fspath(path).encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _os_problem(err: OSError, shown: str) -> PathProblem:
    if isinstance(err, PermissionError):
        return PathProblem(shown, "permission denied")
    if isinstance(err, FileNotFoundError):
        return PathProblem(shown, NO_SUCH)
    if isinstance(err, NotADirectoryError):
        return PathProblem(shown, PART_IS_A_FILE)
    if err.errno == errno.ELOOP:
        return PathProblem(shown, "a loop of symbolic links")
    reason = err.strerror or str(err)  # (said after `cannot read PATH:`)
    return PathProblem(shown, reason[:1].lower() + reason[1:])


def _judge(path: PathLike, want: Want, shown: str) -> PathProblem | None:
    if not _utf8(path):
        return PathProblem(shown, NOT_UTF8, NOT_UTF8_HINT)
    try:
        st = os.stat(path)
    except ValueError:  # a NUL character in the name
        return PathProblem(shown, "the name holds a NUL character")
    except FileNotFoundError:
        try:
            os.lstat(path)
        except OSError:
            return _missing(path, shown)
        return PathProblem(shown, "a broken symbolic link: what it points to does not exist")
    except OSError as err:
        return _os_problem(err, shown)
    if stat.S_ISDIR(st.st_mode):
        if want == "file":
            return PathProblem(shown, FOUND_A_FOLDER)
        return None if os.access(path, os.R_OK | os.X_OK) else PathProblem(shown, "permission denied")
    if want == "folder":
        return PathProblem(shown, "expected a folder, found a file" if stat.S_ISREG(st.st_mode) else
                           "expected a folder, found a pipe, a socket or a device")
    if not stat.S_ISREG(st.st_mode):
        return PathProblem(shown, NOT_REGULAR)
    return None


def problem(path: PathLike, want: Want = "file") -> PathProblem | None:
    """Why `path` cannot be read as `want` (a file, a folder, or either), or None."""
    return _judge(path, want, shown_path(path))


def output_problem(path: PathLike, want: Want = "file") -> PathProblem | None:
    """Why `path` cannot be written as `want` (a file, or a folder created if missing), or None:
    its name, or what already stands there (a folder for a file, a pipe, a broken link). A file's
    folder must exist; whether it may be written is found when it is opened."""
    shown = shown_path(path)
    if not _utf8(path):
        return PathProblem(shown, NOT_UTF8, NOT_UTF8_HINT)
    try:
        os.lstat(path)
    except ValueError:
        return PathProblem(shown, "the name holds a NUL character")
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(os.fspath(path)))
        if want == "file" and not os.path.isdir(folder):
            return PathProblem(shown, "no such folder to write it in")
        while not os.path.exists(folder):  # (a folder is made with its missing parents)
            folder = os.path.dirname(folder)
        if not os.path.isdir(folder):
            return PathProblem(shown, PART_IS_A_FILE)
        return None if os.access(folder, os.W_OK | os.X_OK) else PathProblem(shown, "permission denied")
    except OSError as err:
        return _os_problem(err, shown)
    found = _judge(path, want, shown)
    if found is None and not os.access(path, os.W_OK | (os.X_OK if want == "folder" else 0)):
        return PathProblem(shown, "permission denied")
    return found


def open_file(path: PathLike, shown: str | None = None, limit: int | None = None) -> BinaryIO:
    """A regular file opened for reading; PathProblem otherwise. Judged first, opened without
    blocking and checked once open, so a pipe or device put in its place is never read; with
    `limit`, a file larger than that many bytes is refused unread."""
    shown = shown_path(path) if shown is None else shown
    found = _judge(path, "file", shown)
    if found is not None:
        raise found
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise PathProblem(shown, FOUND_A_FOLDER) from None
    except OSError as err:
        raise _os_problem(err, shown) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise PathProblem(shown, NOT_REGULAR)
        if limit is not None and st.st_size > limit:
            raise PathProblem(shown, too_large(st.st_size, limit))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: PathLike, shown: str | None = None, limit: int | None = None) -> bytes:
    """The bytes of a regular file; PathProblem otherwise (see `open_file`). With `limit`, a file
    that grows past it while it is read is refused too."""
    shown = shown_path(path) if shown is None else shown
    with open_file(path, shown, limit) as f:
        try:
            data = f.read() if limit is None else f.read(limit + 1)
        except OSError as err:
            raise _os_problem(err, shown) from None
    if limit is not None and len(data) > limit:
        raise PathProblem(shown, too_large(len(data), limit))
    return data
