"""Issue 17 §7, paths: "Every command treats a path the same way" — one function judges, reads and
names a user-given path (compiler/paths.py), so that a name that is not UTF-8, a folder where a file
is expected (or a file where a folder is), a missing file, a broken symbolic link, a pipe or a device
(never waited on), and a path that cannot be read or written are each said in the same words by
every command that takes a path, with the name shown escaped; never a traceback, never a hang.

A table: each case against each command that takes a path, built in a tmp folder (a name that is
not UTF-8 through bytes paths: ext4 and tmpfs accept them)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from nidavellir.cli import main
from nidavellir.compiler.diagnostics import clear_sources
from nidavellir.compiler.paths import (
    FOUND_A_FOLDER, NO_SUCH, NOT_REGULAR, NOT_UTF8, PART_IS_A_FILE, output_problem, problem, read_bytes, shown_path,
)

ROOT = Path(__file__).resolve().parent.parent
VARIANT = "layer: {id: v, name: V}\n"
POSITION = "players:\n  - {name: Ana, coins: [0]}\n  - {name: Bo, coins: [0]}\n"


# -- the cases: each makes the odd thing at a path in a folder, and says what must be said ---------

def _not_utf8(folder: Path, content: str, as_folder: bool) -> str:
    name = os.path.join(os.fsencode(folder), b"odd-\xff\xfe.yaml")
    if as_folder:
        os.mkdir(name)
    else:
        with open(name, "wb") as f:
            f.write(content.encode())
    return os.fsdecode(name)


def _folder(folder: Path, content: str, as_folder: bool) -> str:
    (folder / "a-folder").mkdir()
    (folder / "a-folder" / "x.yaml").write_text(content, encoding="utf-8")
    return str(folder / "a-folder")


def _file(folder: Path, content: str, as_folder: bool) -> str:
    (folder / "a-file").write_text(content, encoding="utf-8")
    return str(folder / "a-file")


def _missing(folder: Path, content: str, as_folder: bool) -> str:
    return str(folder / "missing.yaml")


def _part_is_a_file(folder: Path, content: str, as_folder: bool) -> str:
    (folder / "a-file").write_text(content, encoding="utf-8")
    return str(folder / "a-file" / "below.yaml")


def _dangling(folder: Path, content: str, as_folder: bool) -> str:
    os.symlink(folder / "nothing-here", folder / "dangling.yaml")
    return str(folder / "dangling.yaml")


def _fifo(folder: Path, content: str, as_folder: bool) -> str:
    os.mkfifo(folder / "pipe.yaml")
    return str(folder / "pipe.yaml")


def _device(folder: Path, content: str, as_folder: bool) -> str:
    os.symlink("/dev/zero", folder / "device.yaml")  # (reading it would never end)
    return str(folder / "device.yaml")


def _locked(folder: Path, content: str, as_folder: bool) -> str:
    target = folder / ("locked" if as_folder else "locked.yaml")
    if as_folder:
        target.mkdir()
    else:
        target.write_text(content, encoding="utf-8")
    target.chmod(0)
    return str(target)


MAKE: dict[str, Callable[[Path, str, bool], str]] = {
    "a name that is not UTF-8": _not_utf8, "a folder": _folder, "a file": _file, "missing": _missing,
    "a part of the path is a file": _part_is_a_file, "a broken symbolic link": _dangling, "a pipe": _fifo,
    "a device": _device, "permission denied": _locked,
}
READ_REASONS = {"a name that is not UTF-8": NOT_UTF8, "a folder": FOUND_A_FOLDER, "missing": NO_SUCH,
                "a part of the path is a file": PART_IS_A_FILE,
                "a broken symbolic link": "a broken symbolic link: what it points to does not exist",
                "a pipe": NOT_REGULAR, "a device": NOT_REGULAR, "permission denied": "permission denied"}
FOLDER_REASONS = {"a name that is not UTF-8": NOT_UTF8, "a file": "expected a folder, found a file",
                  "missing": NO_SUCH, "a part of the path is a file": PART_IS_A_FILE,
                  "a broken symbolic link": "a broken symbolic link: what it points to does not exist",
                  "a pipe": "expected a folder, found a pipe, a socket or a device",
                  "a device": "expected a folder, found a pipe, a socket or a device",
                  "permission denied": "permission denied"}
WRITE_REASONS = {"a name that is not UTF-8": NOT_UTF8, "a folder": FOUND_A_FOLDER,
                 "a part of the path is a file": PART_IS_A_FILE,
                 "a broken symbolic link": "a broken symbolic link: what it points to does not exist",
                 "a pipe": NOT_REGULAR, "a device": NOT_REGULAR, "permission denied": "permission denied"}
OUT_REASONS = {"a name that is not UTF-8": NOT_UTF8, "a file": "expected a folder, found a file",
               "a part of the path is a file": PART_IS_A_FILE,
               "a broken symbolic link": "a broken symbolic link: what it points to does not exist",
               "a pipe": "expected a folder, found a pipe, a socket or a device",
               "a device": "expected a folder, found a pipe, a socket or a device",
               "permission denied": "permission denied"}

# -- the commands: how each takes the path, what it reads there, how it says the problem ----------

# name -> (arguments with PATH, what the path holds, want, reasons, exit code, "located" or the verb)
COMMANDS: dict[str, tuple[list[str], str, str, dict[str, str], int, str]] = {
    "check PATH": (["check", "PATH"], VARIANT, "file", {k: v for k, v in READ_REASONS.items() if k != "a folder"},
                   1, "located"),
    "check --variant": (["check", "--variant", "PATH"], VARIANT, "file", READ_REASONS, 1, "located"),
    "play --variant": (["play", "--players", "2", "--variant", "PATH"], VARIANT, "file", READ_REASONS, 1, "located"),
    "score POSITION": (["score", "PATH"], POSITION, "file", READ_REASONS, 1, "located"),
    "score --variant": (["score", "POS", "--variant", "PATH"], VARIANT, "file", READ_REASONS, 1, "located"),
    "docs --variant": (["docs", "--out", "OUT", "--variant", "PATH"], VARIANT, "file", READ_REASONS, 1, "located"),
    "league --variant": (["league", "--games", "1", "--variant", "PATH"], VARIANT, "file", READ_REASONS, 1,
                         "located"),
    "simulate --variant": (["simulate", "--games", "1", "--jobs", "1", "--out", "OUT", "--variant", "PATH"],
                           VARIANT, "file", READ_REASONS, 1, "located"),
    "simulate --against": (["simulate", "--games", "1", "--jobs", "1", "--out", "OUT", "--against", "PATH"],
                           VARIANT, "file", READ_REASONS, 1, "located"),
    "replay LOG": (["replay", "PATH"], '{"nidavellir_log": 1}\n', "file", READ_REASONS, 2, "cannot read"),
    "report DIR": (["report", "PATH"], "", "folder", FOLDER_REASONS, 2, "cannot read"),
    "play --log": (["play", "--players", "2", "--log", "PATH"], "", "file", WRITE_REASONS, 2, "cannot write"),
    "docs --out": (["docs", "--out", "PATH"], "", "folder", OUT_REASONS, 2, "cannot write"),
    "simulate --out": (["simulate", "--games", "1", "--jobs", "1", "--out", "PATH"], "", "folder", OUT_REASONS, 2,
                       "cannot write"),
}
TABLE = [(command, case) for command, spec in COMMANDS.items() for case in spec[3]]


@contextmanager
def watchdog(seconds: int = 120) -> Iterator[None]:
    """Fail (instead of hanging the run) if the command waits on what it should never open."""
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError("the command waited on the path")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _args(command: str, path: str, folder: Path) -> list[str]:
    pos = folder / "pos.yaml"
    pos.write_text(POSITION, encoding="utf-8")
    return [path if a == "PATH" else str(folder / "out") if a == "OUT" else str(pos) if a == "POS" else a
            for a in COMMANDS[command][0]]


def _expect(command: str, case: str, path: str, code: int, out: str, err: str) -> None:
    _, _, _, reasons, status, how = COMMANDS[command]
    shown = shown_path(path)
    assert "Traceback" not in out + err, err
    assert code == status, (code, err)
    if how == "located":  # with the rules' other problems (exit 1), but no line: the file is not read
        assert f"\nerror: cannot read {shown}: {reasons[case]}" in "\n" + err, err
        assert f"{shown}:1:1" not in err, err
    else:
        assert f"nidavellir {command.split()[0]}: error: {how} {shown}: {reasons[case]}" in err, err
    assert "\udcff" not in err and "\udcfe" not in err  # the name is escaped: `\xff\xfe`


def _run_in_process(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    clear_sources()
    with watchdog():
        code = main(args)
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("command, case", TABLE)
def test_every_command_treats_a_path_the_same_way(capsys, tmp_path, monkeypatch, command, case):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NIDAVELLIR_CACHE", str(tmp_path / "cache"))
    _, content, want, _, _, _ = COMMANDS[command]
    if case == "permission denied" and os.geteuid() == 0:
        _as_another_user(command, case, content, want)  # (root reads everything)
        return
    path = MAKE[case](tmp_path, content, want == "folder")
    try:
        code, out, err = _run_in_process(capsys, _args(command, path, tmp_path))
    finally:
        if case == "permission denied":
            os.chmod(path, 0o700)
    _expect(command, case, path, code, out, err)
    assert not (tmp_path / "out").exists()  # refused before anything is written


def _as_another_user(command: str, case: str, content: str, want: str) -> None:
    """The permission case, when the tests run as root: the command runs as root without the
    capabilities that let root read and search what its permissions refuse (setpriv drops
    CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH), on a path whose permissions allow nothing — the kernel's
    own refusal, as a user meets it, while the venv (root's) stays readable."""
    if shutil.which("setpriv") is None:
        pytest.fail("running as root, the permission case needs setpriv to drop root's file capabilities")
    folder = Path(tempfile.mkdtemp(prefix="nidavellir-perm-"))
    try:
        path = MAKE[case](folder, content, want == "folder")
        args = _args(command, path, folder)
        env = {**os.environ, "NIDAVELLIR_CACHE": str(folder / "cache"), "HOME": str(folder)}
        proc = subprocess.run(["setpriv", "--bounding-set=-dac_override,-dac_read_search", sys.executable, "-m",
                               "nidavellir", *args], capture_output=True, text=True, timeout=300, cwd=folder, env=env,
                              check=False)
        _expect(command, case, path, proc.returncode, proc.stdout, proc.stderr)
    finally:
        for p in folder.rglob("*"):
            if not p.is_symlink():
                p.chmod(0o700)
        shutil.rmtree(folder)


def test_the_table_covers_every_command_that_takes_a_path():
    """Every argument of the CLI that names a path (a variant, a position, a rules folder, a log, a
    simulation folder, --out, --log) is in the table: as `--flag PATH`, or as the command's PATH."""
    from nidavellir.cli import parser

    sub = next(a for a in parser()._actions if a.dest == "command")
    tables = [args for args, *_ in COMMANDS.values()]
    for name, p in sub.choices.items():  # type: ignore[union-attr]
        for action in p._actions:
            if action.dest not in ("variant", "against", "log", "out", "positions", "paths", "dir"):
                continue
            if action.option_strings:
                flag = action.option_strings[0]
                assert any(t[0] == name and flag in t and t[t.index(flag) + 1] == "PATH" for t in tables), (name, flag)
            else:
                assert any(t[0] == name and t[1] == "PATH" for t in tables), (name, action.dest)


# -- the one function on its own ----------------------------------------------------------------

def test_reading_never_opens_a_pipe(tmp_path):
    """A pipe is judged before it is opened, and once open (a pipe put in a file's place) it is not
    read: nothing waits on it."""
    os.mkfifo(tmp_path / "p")
    with watchdog(30):
        assert problem(tmp_path / "p") is not None and problem(tmp_path / "p").message == NOT_REGULAR  # type: ignore[union-attr]
        with pytest.raises(Exception) as info:
            read_bytes(tmp_path / "p")
    assert str(info.value) == f"{tmp_path / 'p'}: {NOT_REGULAR}"


def test_a_regular_file_and_a_new_output_are_fine(tmp_path):
    (tmp_path / "f.yaml").write_bytes(b"a: 1\n")
    assert problem(tmp_path / "f.yaml") is None and read_bytes(tmp_path / "f.yaml") == b"a: 1\n"
    assert problem(tmp_path, "folder") is None and problem(tmp_path, "any") is None
    assert output_problem(tmp_path / "new.jsonl") is None and output_problem(tmp_path / "a" / "b", "folder") is None
    assert output_problem(tmp_path / "f.yaml") is None  # (an existing file is overwritten)


def test_odd_entries_of_a_rules_folder_are_each_reported(capsys, tmp_path, monkeypatch):
    """A rules folder (`check FOLDER`) read whole: a pipe, a broken link or a file whose name is not
    UTF-8 among its `.yaml` files is reported, naming that entry (`cannot read ENTRY: …`, no line: it
    is not read), in the same words; never
    skipped silently, never waited on."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "layer"
    folder.mkdir()
    (folder / "a.yaml").write_text("interpretations: []\n", encoding="utf-8")
    pipe, dangling, odd = _fifo(folder, "", False), _dangling(folder, "", False), _not_utf8(folder, "a: 1\n", False)
    code, out, err = _run_in_process(capsys, ["check", str(folder)])
    assert code == 1 and "Traceback" not in err
    shown = f"{folder}/"
    for path, reason in ((pipe, NOT_REGULAR), (dangling, READ_REASONS["a broken symbolic link"]), (odd, NOT_UTF8)):
        entry = f"{shown}{shown_path(os.path.basename(path))}"
        assert f"error: cannot read {entry}: {reason}" in err and f"{entry}:1:1" not in err, err


# -- a missing name: the near miss beside it ----------------------------------------------------

NEAR_MISS_COMMANDS = [c for c, spec in COMMANDS.items() if spec[5] in ("located", "cannot read")]


@pytest.mark.parametrize("command", NEAR_MISS_COMMANDS)
@pytest.mark.parametrize("asked, meant", [("first_game.yaml", "first-game.yaml"), ("First-Game.yml", "first-game.yaml"),
                                          ("zzz.yaml", None)])
def test_a_missing_name_gets_the_near_miss_beside_it(capsys, tmp_path, monkeypatch, command, asked, meant):
    """Issue 18: "A file name that does not exist gets a did-you-mean among the files next to it and no
    line:column" — every command that reads a path, through the one judge; a name close to none of
    the files there gets no suggestion."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NIDAVELLIR_CACHE", str(tmp_path / "cache"))
    _, content, want, _, status, how = COMMANDS[command]
    folder = tmp_path / "here"
    folder.mkdir()
    target = folder / ("first-game.yaml" if want == "file" else "first-game")
    if want == "file":
        target.write_text(content, encoding="utf-8")
    else:
        target.mkdir()
    (folder / "other-file.yaml").write_text(content, encoding="utf-8")
    name = asked if want == "file" else asked.removesuffix(".yaml").removesuffix(".yml")
    path = str(folder / name)
    code, out, err = _run_in_process(capsys, _args(command, path, tmp_path))
    assert code == status and "Traceback" not in err
    said = f"cannot read {path}: {NO_SUCH}"
    if meant is None:
        assert said in err and "did you mean" not in err, err
    else:
        assert f"{said} (did you mean {target}?)" in err, err
    assert f"{path}:1:1" not in err and f"{path}:" not in err.replace(f"{path}: {NO_SUCH}", ""), err


def test_a_shipped_variant_id_gets_the_near_miss_among_the_ids(capsys, monkeypatch, tmp_path):
    """Issue 18: "for `--variant first_game` the shipped variant id `first-game`"."""
    monkeypatch.chdir(tmp_path)
    code, _, err = _run_in_process(capsys, ["check", "--variant", "first_game"])
    assert code == 1 and "hint: did you mean `first-game`?" in err and ":1:1" not in err


def test_the_shipped_variant_file_by_a_near_name(capsys, monkeypatch):
    """Issue 18: `nidavellir check rules/variants/first_game.yaml` → `cannot read
    rules/variants/first_game.yaml: no such file (did you mean rules/variants/first-game.yaml?)`."""
    monkeypatch.chdir(ROOT)
    code, _, err = _run_in_process(capsys, ["check", "rules/variants/first_game.yaml"])
    assert code == 1
    assert err.startswith("error: cannot read rules/variants/first_game.yaml: no such file or folder "
                          "(did you mean rules/variants/first-game.yaml?)\n"), err


def test_near_miss_mends_each_missing_part(tmp_path):
    """`near_miss`: the parts that exist kept, each missing part replaced by the closest name in its
    folder, compared without the extension; None when a part has no close name, and for a path
    that exists."""
    from nidavellir.compiler.paths import near_miss

    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "first-game.yaml").write_text("", encoding="utf-8")
    (tmp_path / "ab.yaml").write_text("", encoding="utf-8")
    v = tmp_path / "variants"
    assert near_miss(v / "first_game.yaml") == str(v / "first-game.yaml")
    assert near_miss(tmp_path / "variant" / "first_game.yaml") == str(v / "first-game.yaml")  # two parts mended
    assert near_miss(v / "first-game.yml") == str(v / "first-game.yaml")  # the extension
    assert near_miss(tmp_path / "cd.yaml") is None  # a shared `.yaml` is not closeness
    assert near_miss(tmp_path / "nothing" / "first-game.yaml") is None
    assert near_miss(v / "first-game.yaml") is None  # (it exists: nothing to mend)
    assert near_miss("/" + "/".join(["x"] * 100)) is None
    assert problem(v / "first_game.yaml") is not None
    assert problem(v / "first_game.yaml").message == f"{NO_SUCH} (did you mean {v / 'first-game.yaml'}?)"
