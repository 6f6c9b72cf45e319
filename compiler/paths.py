"""How every command treats a path the user names: rules folders and files, variants, positions,
decision logs, simulation folders (read), `--out` and `--log` (written).

One function judges a path before it is used (`problem`), one reads a file without ever waiting on
it (`read_bytes`), and one names a path in messages (`shown_path`), so that each case reads the
same whatever the command:

- a name that is not valid UTF-8 (Python keeps its bytes as surrogates) is refused: names are
  shown, logged and recorded as text, and such a name cannot be written faithfully; it is shown
  with the bytes escaped (`\\xff`);
- a missing file, a broken symbolic link, a folder where a file is expected (and a file where a
  folder is), a pipe, socket or device (never opened, so nothing waits on it), a path that cannot
  be read (permission denied, a name too long): each has its own words.

Rules and positions report the problem located at the path (`PATH:1:1: error: ...`, exit 1, with
the file's other problems); the other commands say `cannot read PATH: ...` or `cannot write PATH:
...` (exit 2, a usage error).
"""
from __future__ import annotations

import errno
import os
import stat
from typing import Literal, Union

from nidavellir.errors import NidavellirError, visible

__all__ = ["PathProblem", "Want", "shown_path", "problem", "output_problem", "read_bytes", "NOT_UTF8",
           "NOT_REGULAR", "FOUND_A_FOLDER", "NO_SUCH", "PART_IS_A_FILE"]

Want = Literal["file", "folder", "any"]
PathLike = Union[str, "os.PathLike[str]"]

NOT_UTF8 = "the file name is not valid UTF-8"
NOT_UTF8_HINT = "rename it: file names are read, shown and recorded as UTF-8"
NOT_REGULAR = "not a regular file (a pipe, a socket or a device): it is not read"
FOUND_A_FOLDER = "expected a file, found a folder"
NO_SUCH = "no such file or folder"
PART_IS_A_FILE = "a part of the path is a file, not a folder"


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
    return PathProblem(shown, f"cannot read: {err.strerror or err}")


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
            return PathProblem(shown, NO_SUCH)
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


def read_bytes(path: PathLike, shown: str | None = None) -> bytes:
    """The bytes of a regular file; PathProblem otherwise. Opened without blocking and checked once
    open, so a pipe or device put in its place is never read."""
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
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PathProblem(shown, NOT_REGULAR)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except PathProblem:
        raise
    except OSError as err:
        raise _os_problem(err, shown) from None
    finally:
        os.close(fd)
