"""Issue 9, "The command line as people expect it": `--version`, `python -m nidavellir`, shell
completion, `nidavellir variants` and `--variant NAME` for a shipped one, `choices=` for closed
options, consistent exit codes (0 ok, 1 the input is wrong, 2 usage), coloured diagnostics on a
terminal, progress and a summary for long runs, the bot of each seat in the results."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from itertools import chain
from pathlib import Path
from typing import Any

import pytest

from nidavellir import cli
from nidavellir.cli import main
from nidavellir.compiler.diagnostics import Diagnostic, Location, colour_wanted, paint, register_source
from nidavellir.progress import Progress, duration
from nidavellir.table import Tally, score_table

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rules" / "variants"
FIRST_GAME = VARIANTS / "first-game.yaml"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def plain_env(**more: str) -> dict[str, str]:
    """The environment without colour settings, a terminal that can show colour, and `more`."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "_ARGCOMPLETE")}
    return {**env, "TERM": "xterm-256color", **more}


def on_terminal(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """`python -m nidavellir ARGS` with stderr on a pseudo-terminal and stdout a pipe: the exit
    code, stdout and what the terminal showed."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "nidavellir", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave, env=env or plain_env(), cwd=ROOT)
    os.close(slave)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else b""))
    reader.start()
    shown = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        shown.append(data)
    os.close(master)
    reader.join(timeout=120)
    code = proc.wait(timeout=120)
    return code, b"".join(out).decode(), b"".join(shown).decode().replace("\r\n", "\n")


def in_a_pipe(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nidavellir", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120, env=env or plain_env(), cwd=ROOT,
                          check=False)


# -- version, python -m, help ------------------------------------------------------------------------

def test_version_is_the_package_version(capsys):
    """Issue: "`nidavellir --version`"."""
    from importlib import metadata
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out == f"nidavellir {metadata.version('nidavellir')}\n"


def test_version_falls_back_to_pyproject(monkeypatch):
    """Not installed (a source tree): the version pyproject.toml gives."""
    from importlib import metadata

    def absent(name: str) -> str:
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "version", absent)
    written = re.search(r'(?m)^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert cli.version() == written


def test_python_m_nidavellir_is_the_same_command_line():
    """Issue: "`python -m nidavellir`" (DESIGN §8: "entry point `nidavellir` (also `python -m
    nidavellir`)")."""
    proc = in_a_pipe(["--help"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: nidavellir ")
    for command in ("play", "score", "check", "build", "docs", "replay", "variants", "completion", "lsp"):
        assert re.search(rf"^\s+{command}\b", proc.stdout, re.MULTILINE), command
    proc = in_a_pipe(["--version"])
    assert proc.returncode == 0 and proc.stdout.startswith("nidavellir ")


def test_the_exit_codes_are_in_the_help(capsys):
    """Issue: "consistent exit codes (0 ok, 1 the input is wrong, 2 usage), documented in `--help`"."""
    code, out, _ = run(capsys, "--help")
    assert code == 0
    codes = out[out.index("exit codes:"):]
    assert re.search(r"^  0  done", codes, re.MULTILINE)
    assert re.search(r"^  1  the input is wrong", codes, re.MULTILINE)
    assert re.search(r"^  2  usage", codes, re.MULTILINE)
    code, out, _ = run(capsys, "replay", "--help")
    assert "exit codes:" in out and "exit 1 if any game failed" in " ".join(out.split())


def test_help_imports_nothing_heavy():
    """DESIGN §10: "`nidavellir --help` < 0.15 s": parsing imports no rules, runtime, docs back end
    or argcomplete (only asked for by the shell), which is what makes start-up fast."""
    code = ("import sys\nfrom nidavellir.cli import main\ncode = main(['--help'])\n"
            "heavy = ('nidavellir.compiler', 'nidavellir.runtime', 'nidavellir.rulesets', 'argcomplete', 'jinja2',"
            " 'yaml', 'lark', 'jsonschema', 'importlib.metadata')\n"
            "print(code, sorted(m for m in sys.modules if m.startswith(heavy)), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=plain_env(), check=False)
    assert proc.stderr.strip() == "0 []"


# -- shell completion ------------------------------------------------------------------------------

@pytest.mark.parametrize("shell, marker", [("bash", "complete "), ("zsh", "#compdef nidavellir"),
                                           ("fish", "complete ")])
def test_completion_prints_the_shell_code(capsys, shell, marker):
    """Issue: "shell completion (argcomplete or equivalent)": `nidavellir completion SHELL` prints
    the code to source."""
    code, out, _ = run(capsys, "completion", shell)
    assert code == 0
    assert marker in out and "nidavellir" in out and "_ARGCOMPLETE" in out


@pytest.mark.parametrize("line, expected", [
    ("nidavellir var", ["variants"]),
    ("nidavellir play --variant fi", ["first-game"]),
    ("nidavellir play --variant strict", ["strict-warrior-majority"]),
    ("nidavellir play --expansions thingvellir,i", ["thingvellir,idavoll"]),
    ("nidavellir play --bots greedy,r", ["greedy,random"]),
    ("nidavellir docs --format ", ["md", "html", "pdf"]),
    ("nidavellir docs --paper ", ["a4", "letter"]),
])
def test_the_shell_completes_commands_and_values(tmp_path, line, expected):
    """Completers for variant ids, expansions, bots and the closed options, as the shell asks
    argcomplete for them (the `_ARGCOMPLETE` protocol)."""
    assert completions(tmp_path, line) == expected


def completions(folder: Path, line: str) -> list[str]:
    """What the shell is offered for `line` (the `_ARGCOMPLETE` protocol), run in `folder`."""
    answer = folder / "completions"
    env = plain_env(_ARGCOMPLETE="1", COMP_LINE=line, COMP_POINT=str(len(line)), _ARGCOMPLETE_IFS="\n",
                    _ARGCOMPLETE_STDOUT_FILENAME=str(answer))
    proc = subprocess.run([sys.executable, "-m", "nidavellir"], capture_output=True, text=True, timeout=60,
                          env=env, cwd=folder, check=False)
    assert proc.returncode == 0, proc.stderr
    return [c.strip() for c in answer.read_text().split("\n")]


def test_variant_completion_offers_rule_layers_not_every_yaml_file(tmp_path):
    """Issue 18: "Completion of `--variant` offers rule layers, not every YAML file": a file with a
    top-level `layer:` and a folder are offered; other YAML (a position, a CI file) and a pipe are
    not (nor is the pipe opened: the completion answers)."""
    (tmp_path / "house.yaml").write_text("layer: {id: house, name: House}\n", encoding="utf-8")
    (tmp_path / "hosed.yml").write_text("# a rule layer\nlayer:\n  id: hosed\n  name: Hosed\n", encoding="utf-8")
    (tmp_path / "h-position.yaml").write_text("players: []\n", encoding="utf-8")
    (tmp_path / "h-ci.yaml").write_text("jobs: {}\nplayer: layer\n", encoding="utf-8")
    (tmp_path / "hdir").mkdir()
    os.mkfifo(tmp_path / "h-pipe.yaml")
    assert sorted(completions(tmp_path, "nidavellir play --variant h")) == ["hdir/", "hosed.yml", "house.yaml"]


# -- shipped variants by id ------------------------------------------------------------------------

def shipped() -> list[tuple[str, dict[str, Any]]]:
    import yaml
    return [(p.stem, yaml.safe_load(p.read_text(encoding="utf-8"))) for p in sorted(VARIANTS.glob("*.yaml"))]


def test_a_shipped_variant_is_named_by_its_id():
    """DESIGN §8: "a variant may be named by its file or, for a shipped one, by its id": each
    shipped file is named by its layer's id, so the id finds the file."""
    assert shipped()
    for stem, data in shipped():
        assert data["layer"]["id"] == stem


def test_variants_lists_the_shipped_house_rules(capsys):
    """Issue: "`nidavellir variants` listing the shipped house rules with their descriptions"."""
    code, out, _ = run(capsys, "variants")
    assert code == 0
    flat = " ".join(out.split())
    for vid, data in shipped():
        assert re.search(rf"^{re.escape(vid)} +{re.escape(data['layer']['name'])}$", out, re.MULTILINE)
        assert " ".join(data["layer"]["description"].split()) in flat
    assert "--variant ID" in out


def test_variants_json_and_belarusian(capsys):
    """`--json`: one object per variant; `--lang be`: the variant's own Belarusian texts."""
    code, out, _ = run(capsys, "variants", "--json")
    assert code == 0
    listed = json_lines(out)
    assert [v["id"] for v in listed] == [vid for vid, _ in shipped()]
    for v, (_, data) in zip(listed, shipped()):
        assert v["name"] == data["layer"]["name"] and v["description"] == data["layer"]["description"]
        assert Path(v["file"]).samefile(VARIANTS / f"{v['id']}.yaml")
    code, out, _ = run(capsys, "variants", "--json", "--lang", "be")
    assert code == 0
    for v, (_, data) in zip(json_lines(out), shipped()):
        be = data.get("texts", {}).get("be", {})
        assert v["name"] == be.get("name", data["layer"]["name"])
        assert v["description"] == be.get("description", data["layer"]["description"])
    assert json_lines(out)[0]["name"] == "Першая гульня"


def test_a_shipped_variant_by_id_plays_the_same_game_as_by_its_file(capsys):
    """Issue: "`--variant NAME` for a shipped one"; the same game as `--variant FILE`."""
    args = ["play", "--players", "3", "--seed", "3", "--games", "2", "--json"]
    code, by_id, err = run(capsys, *args, "--variant", "first-game")
    assert code == 0, err
    code, by_file, _ = run(capsys, *args, "--variant", str(FIRST_GAME))
    assert code == 0
    assert by_id == by_file
    for game in json_lines(by_id):
        assert game["variants"] == ["first-game"]
        held = {c for p in game["final"]["players"] for c in [*p["command_zone"], *chain(*p["army"].values())]}
        assert not held & {"thrud", "ylud", "uline"}


def test_every_command_takes_a_shipped_variant_by_id(capsys, tmp_path):
    """DESIGN §8: "Every command that reads rules takes `--expansions` and `--variant`; a variant
    may be named by … its id": check (also as a PATH), score, and the layers every command loads."""
    from nidavellir.compiler.sources import layer_specs

    code, out, err = run(capsys, "check", "--variant", "first-game")
    assert code == 0, err
    assert out.startswith("ok: rules/base + rules/variants/first-game.yaml (")
    code, out, err = run(capsys, "check", "strict-warrior-majority")
    assert code == 0, err
    assert out.startswith("ok: strict-warrior-majority (")
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "1", "--json")
    position = tmp_path / "end.json"
    position.write_text(json.dumps(json_lines(out)[0]["final"]))
    code, _, err = run(capsys, "score", str(position), "--variant", "strict-warrior-majority")
    assert code == 0, err
    path, shown, is_variant = layer_specs((), ("generous-offerings",))[-1]
    assert path.samefile(VARIANTS / "generous-offerings.yaml") and is_variant
    assert shown == "rules/variants/generous-offerings.yaml"


def test_a_file_of_that_name_wins_over_the_id(capsys, tmp_path, monkeypatch):
    """"Named by its file or, for a shipped one, by its id": a file comes first."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "first-game").write_text("layer: {id: mine, name: Mine}\n")
    code, out, err = run(capsys, "check", "--variant", "first-game")
    assert code == 0, err
    assert out.startswith("ok: rules/base + first-game (")


def test_an_unknown_variant_is_a_clear_error_with_a_hint(capsys):
    """Issue: a name that is neither a file nor a shipped id: a clear error, with a did-you-mean."""
    code, out, err = run(capsys, "play", "--variant", "frist-game")
    assert code == 1 and out == ""
    assert err == ("error: unknown variant `frist-game`: no such file, and no shipped variant has this id\n"
                   "  hint: did you mean `first-game`?\n")
    code, _, err = run(capsys, "check", "--variant", "house")
    assert code == 1
    assert "`nidavellir variants` lists the shipped ones: first-game, generous-offerings, " \
           "strict-warrior-majority" in err
    code, _, err = run(capsys, "play", "--variant", "rules/variants/first-gam.yaml")  # meant as a file
    assert code == 1
    assert ("error: cannot read rules/variants/first-gam.yaml: no such file or folder "
            "(did you mean rules/variants/first-game.yaml?)") in err
    assert "Traceback" not in err


def test_a_log_of_a_variant_by_id_replays_from_anywhere(capsys, tmp_path, monkeypatch):
    """A replay log that recorded a shipped variant by its id replays to the same results from
    another folder, with the same rules (no "the rules changed" note)."""
    log = tmp_path / "game.jsonl"
    code, played, _ = run(capsys, "play", "--players", "2", "--seed", "9", "--json", "--variant", "first-game",
                          "--log", str(log))
    assert code == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert header["variants"] == ["first-game"] and header["variant_files"] == [{"given": "first-game"}]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "replay", str(log), "--json")
    assert code == 0, err
    assert out == played
    assert "note:" not in err


# -- closed options and exit codes -----------------------------------------------------------------

def test_the_closed_values_are_those_of_the_modules_that_use_them():
    """cli.py spells the closed values to stay light; they are the docs back end's own."""
    from argcomplete.shell_integration import shellcode

    from nidavellir.compiler.docs import FORMATS, LANGS
    from nidavellir.compiler.docs.options import COPIES, PAPERS
    assert cli.FORMATS == tuple(FORMATS)
    assert cli.LANGS == tuple(LANGS)
    assert cli.PAPERS == tuple(PAPERS)
    assert cli.COPIES == tuple(COPIES)
    for shell in cli.SHELLS:
        assert shellcode(["nidavellir"], shell=shell)


@pytest.mark.parametrize("args, message", [
    (["docs", "--format", "docx"], "argument --format: unknown format `docx` (choose from: md, html, pdf)"),
    (["docs", "--lang", "fr"], "argument --lang: unknown language `fr` (choose from: en, be)"),
    (["docs", "--paper", "a3"], "argument --paper: unknown paper `a3` (choose from: a4, letter)"),
    (["docs", "--paper", "Letter"], "unknown paper `Letter` (choose from: a4, letter); did you mean `letter`?"),
    (["docs", "--copies", "two"], "argument --copies: unknown --copies value `two` (choose from: all, one)"),
    (["docs", "--bleed", "2"], "argument --bleed: the bleed is a number of millimetres from 0 to 1.6, not `2`"),
    (["docs", "--bleed", "nan"], "the bleed is a number of millimetres from 0 to 1.6, not `nan`"),
    (["docs", "--bleed", "-1"], "the bleed is a number of millimetres from 0 to 1.6, not `-1`"),
    (["play", "--bots", "greedy,clever"], "argument --bots: unknown bot `clever` (choose from: random, greedy, search)"),
    (["play", "--bots", ","], "argument --bots: name at least one bot (choose from: random, greedy, search)"),
    (["play", "--expansions", "thingvelir"],
     "unknown expansion `thingvelir` (choose from: thingvellir, idavoll); did you mean `thingvellir`?"),
    (["variants", "--lang", "de"], "unknown language `de` (choose from: en, be)"),
    (["completion", "tcshell"], "unknown shell `tcshell` (choose from: bash, zsh, fish)"),
    (["check", "--color", "sometimes"], "unknown --color value `sometimes` (choose from: auto, always, never)"),
    (["play", "--players", "seven"], "argument --players: `seven` is not a valid integer"),
    (["play", "--seed", "9" * 16], "argument --seed: a seed from −10^12 to 10^12, not `" + "9" * 16 + "`"),
    (["play", "--seed", "9" * 5000], "argument --seed: a seed from −10^12 to 10^12, not `" + "9" * 40 + "…`"),
    (["simulate"], "the following arguments are required: --out"),
    (["simulate", "--format", "csv", "--out", "x"],
     "argument --format: unknown records format `csv` (choose from: parquet, jsonl)"),
    (["simulated"], "argument COMMAND: invalid choice: 'simulated'"),
    (["play", "--players", "7"], "--players must be between 2 and 5"),
])
def test_usage_errors_exit_2(capsys, args, message):
    """Issue: "`choices=` for closed options; consistent exit codes (… 2 usage)": the error first,
    then how the command is used, never a traceback."""
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    first = err.splitlines()[0]
    assert re.match(r"nidavellir( [a-z]+)?: error: ", first) and message in first, err
    assert "usage: nidavellir" in err or "--players" in message
    assert "Traceback" not in err


def test_the_docs_print_options_reach_the_writer(capsys, tmp_path, monkeypatch):
    """`docs --paper --copies --backs --bleed` make the PrintOptions the reference and sheets are
    written with; the defaults are A4, every copy, no backs, no bleed."""
    from nidavellir.compiler import docs as rdocs
    from nidavellir.compiler.docs.options import PrintOptions

    seen: list[PrintOptions] = []

    def write(compiled: Any, cat: Any, fmt: str, out: Path, options: PrintOptions | None = None,
              warn: Any = None) -> list[Path]:
        assert options is not None, "the command passes its PrintOptions"
        seen.append(options)
        return [out / f"reference.{fmt}"]
    monkeypatch.setattr(rdocs, "write", write)
    code, _, err = run(capsys, "docs", "--format", "html", "--paper", "letter", "--copies", "one", "--backs",
                       "--bleed", "1", "--out", str(tmp_path))
    assert code == 0, err
    code, _, _ = run(capsys, "docs", "--format", "pdf", "--out", str(tmp_path))
    assert code == 0
    assert seen == [PrintOptions(paper="letter", copies="one", backs=True, bleed_mm=1.0), PrintOptions()]
    assert seen[1].paper == "a4" and seen[1].copies == "all"


def test_the_bleed_limit_is_what_the_widest_paper_fits():
    """`--bleed MM` takes no more than what fits 3 × 3 cards with their cut marks on some paper (the
    sheet refuses, with the limit, what does not fit the paper chosen)."""
    from nidavellir.cli import MAX_BLEED_MM
    from nidavellir.compiler.docs.options import PAPERS
    from nidavellir.compiler.docs.sheet_layout import max_bleed

    assert MAX_BLEED_MM == max(max_bleed(p) for p in PAPERS)


def test_lsp_starts_the_language_server(capsys, monkeypatch):
    """Issue: "`nidavellir lsp`": the command runs nidavellir.lsp.serve() and exits with its code."""
    import nidavellir.lsp
    calls: list[int] = []
    monkeypatch.setattr(nidavellir.lsp, "serve", lambda: calls.append(1) or 0)
    code, out, _ = run(capsys, "lsp")
    assert code == 0 and calls == [1] and out == ""


def test_wrong_input_exits_1(capsys, tmp_path):
    """Issue: "1 the input is wrong": rules, positions, logs."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("layer: {id: broken, name: Broken}\ncards:\n  - id: idunn\n    ranks: many\n")
    code, _, err = run(capsys, "check", str(broken))
    assert code == 1 and f"{broken}:4:" in err
    position = tmp_path / "pos.yaml"
    position.write_text("players:\n  - name: Bo\n    coins: [0, 77]\n")
    code, _, err = run(capsys, "score", str(position))
    assert code == 1 and f"{position}:3:" in err
    code, _, _ = run(capsys, "play", "--variant", str(broken))
    assert code == 1


def test_a_replay_that_fails_exits_1(capsys, tmp_path):
    """Issue: "1 the input is wrong" (a replay that fails: today's exit 2 made 1); a log that cannot
    be read at all is usage, 2."""
    log = tmp_path / "g.jsonl"
    run(capsys, "play", "--players", "2", "--seed", "1", "--log", str(log))
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:5]) + "\n")      # the game ends before its decisions do
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and f"{log}:5: error: the log ends before the game does" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "absent.jsonl"))
    assert code == 2 and "cannot read" in err


# -- colour ----------------------------------------------------------------------------------------

@pytest.fixture()
def misspelt(tmp_path: Path) -> Path:
    v = tmp_path / "mine.yaml"
    v.write_text("layer: {id: mine, name: Mine}\ncards:\n  - id: idunn\n    effects:\n"
                 "      - \"score 2 * ranks(explorr)\"\n")
    return v


def test_diagnostics_are_plain_to_a_pipe(capsys, monkeypatch, misspelt):
    """Issue: "Diagnostics coloured when writing to a terminal …, plain otherwise": to a pipe, the
    text is exactly the plain format."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, _, err = run(capsys, "check", str(misspelt))
    assert code == 1
    assert "\x1b" not in err
    assert err == (f"{misspelt}:5:26: error: `explorr` is not a class\n"
                   "          - \"score 2 * ranks(explorr)\"\n"
                   + " " * (4 + 25) + "^\n"
                   "  hint: did you mean `explorer`?\n"
                   "1 error\n")


@pytest.mark.parametrize("how", [["--color", "always"], "FORCE_COLOR", "terminal"])
def test_diagnostics_are_coloured_on_a_terminal_or_when_asked(capsys, monkeypatch, misspelt, how):
    """Coloured on a terminal, with `--color always` or FORCE_COLOR: the severity word red and bold,
    the place bold, the caret green, `hint:` cyan; without the colours, the plain text."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    plain = run(capsys, "check", str(misspelt))[2]
    if how == "terminal":
        code, _, err = on_terminal(["check", str(misspelt)])
    elif how == "FORCE_COLOR":
        monkeypatch.setenv("FORCE_COLOR", "1")
        code, _, err = run(capsys, "check", str(misspelt))
    else:
        code, _, err = run(capsys, "check", *how, str(misspelt))
    assert code == 1
    assert f"\x1b[1m{misspelt}:5:26\x1b[0m: \x1b[1;31merror\x1b[0m: " in err
    assert "\x1b[1;32m^\x1b[0m" in err and "  \x1b[36mhint:\x1b[0m did you mean" in err
    assert ANSI.sub("", err) == plain


@pytest.mark.parametrize("how, args", [({"NO_COLOR": "1"}, []), ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, []),
                                       ({"TERM": "dumb"}, []), ({}, ["--color", "never"])])
def test_no_color_is_respected_on_a_terminal(misspelt, how, args):
    """Issue: "respect `NO_COLOR`" (no-color.org; it wins over FORCE_COLOR), a dumb terminal, and
    `--color never`."""
    code, _, err = on_terminal(["check", *args, str(misspelt)], plain_env(**how))
    assert code == 1
    assert "error: `explorr` is not a class" in err and "\x1b[" not in err


def test_a_usage_error_is_coloured_when_asked(capsys):
    """`--color` counts even for the error that stops the arguments being parsed."""
    code, _, err = run(capsys, "play", "--color", "always", "--bots", "clever")
    assert code == 2
    assert err.startswith("\x1b[1mnidavellir play\x1b[0m: \x1b[1;31merror\x1b[0m: ")
    code, _, err = run(capsys, "play", "--color=never", "--bots", "clever")
    assert code == 2 and err.startswith("nidavellir play: error: ")


def test_colour_choice(monkeypatch):
    """`--color always|never` beats the environment; `auto` follows NO_COLOR, FORCE_COLOR, the terminal."""
    class Stream:
        def __init__(self, tty: bool):
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    tty, pipe = Stream(True), Stream(False)
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    assert colour_wanted(tty) and not colour_wanted(pipe)  # type: ignore[arg-type]
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(tty) and colour_wanted(pipe, "always")  # type: ignore[arg-type]
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert colour_wanted(pipe) and not colour_wanted(tty, "never")  # type: ignore[arg-type]
    monkeypatch.setenv("FORCE_COLOR", "")      # empty: as if unset
    assert not colour_wanted(pipe)  # type: ignore[arg-type]
    monkeypatch.setenv("TERM", "dumb")
    assert not colour_wanted(tty)  # type: ignore[arg-type]


def test_paint_reads_diagnostics_by_position():
    """A source line that looks like a diagnostic, a caret or a hint is the file's text, not ours:
    it stays uncoloured; a warning is yellow; unlocated diagnostics and notes are coloured too."""
    register_source("tricky.yaml", "x: error: y\n  hint: z\n")
    text = "\n".join([Diagnostic(Location("tricky.yaml", 1, 4), "bad", "fix it", "warning").format(),
                      Diagnostic(Location("tricky.yaml", 2, 3), "also").format(),
                      Diagnostic(None, "nowhere").format(), "log.jsonl:3: note: the rules changed"])
    painted = paint(text)
    assert ANSI.sub("", painted) == text
    lines = painted.split("\n")
    assert lines[0] == "\x1b[1mtricky.yaml:1:4\x1b[0m: \x1b[1;33mwarning\x1b[0m: \x1b[1mbad\x1b[0m"
    assert lines[1] == "    x: error: y"                      # the file's line, as it is
    assert lines[2] == "       \x1b[1;32m^\x1b[0m"
    assert lines[5] == "      hint: z"                        # the file's line again
    assert lines[7] == "\x1b[1;31merror\x1b[0m: \x1b[1mnowhere\x1b[0m"
    assert lines[8] == "\x1b[1mlog.jsonl:3\x1b[0m: \x1b[1;36mnote\x1b[0m: \x1b[1mthe rules changed\x1b[0m"
    assert Diagnostic(None, "x").format(colour=False) == "error: x"


# -- progress and summary ------------------------------------------------------------------------

def test_progress_is_shown_on_a_terminal_and_json_stays_clean():
    """Issue: "Long runs show progress on stderr when it is a terminal (`play --games 2000`), with a
    summary at the end (games, wins per seat, mean scores)": with --json, stdout holds only the
    JSON lines."""
    code, out, shown = on_terminal(["play", "--players", "2", "--games", "30", "--json", "--bots", "greedy,random"])
    assert code == 0, shown
    games = json_lines(out)
    assert len(games) == 30 and len(out.splitlines()) == 30
    # (a rate and the time left join the line after a second of work: tests/test_progress.py)
    assert re.search(r"\r\d+/30 games(?: · [\d,]+ games/s · [\d.]+ (?:s|min) left)?\r", shown)
    assert re.search(r"\r30/30 games · [\d,]+ games/s · [\d.]+ s in all\n", shown)
    assert "Summary of 30 games (seeds 1 to 30): 2 players, base" in shown
    assert re.search(r"^P1 \(greedy\) +\d+ +[\d.]+% +[\d.]+$", shown, re.MULTILINE)
    assert re.search(r"^P2 \(random\) +\d+ +[\d.]+% +[\d.]+$", shown, re.MULTILINE)


def test_quiet_to_a_pipe():
    """"… and stay quiet under `--json` to a pipe": no progress, no summary; in table mode the
    summary follows the tables on stdout, and still no progress."""
    proc = in_a_pipe(["play", "--players", "2", "--games", "5", "--json"])
    assert proc.returncode == 0
    assert "games" not in proc.stderr and "Summary" not in proc.stderr and "\r" not in proc.stderr
    assert len(json_lines(proc.stdout)) == 5
    proc = in_a_pipe(["play", "--players", "2", "--games", "3"])
    assert proc.returncode == 0
    assert "games/s" not in proc.stderr and "\r" not in proc.stderr
    tail = proc.stdout[proc.stdout.rindex("Winner"):]
    assert "\nSummary of 3 games (seeds 1 to 3): 2 players, base\n" in tail


def test_one_game_has_no_summary(capsys):
    code, out, _ = run(capsys, "play", "--players", "3", "--seed", "2")
    assert code == 0 and "Summary" not in out


def test_the_summary_counts_wins_and_mean_scores(capsys):
    """"A summary at the end (games, wins per seat, mean scores)", each seat with its bot."""
    args = ["play", "--players", "3", "--seed", "20", "--games", "6", "--bots", "greedy,random"]
    code, out, _ = run(capsys, *args, "--json")
    games = json_lines(out)
    code, table, _ = run(capsys, *args)
    assert code == 0
    summary = table[table.index("Summary of 6 games"):].splitlines()
    assert summary[0] == "Summary of 6 games (seeds 20 to 25): 3 players, base"
    assert summary[1].split() == ["seat", "wins", "win", "%", "mean", "score"]
    for i, (label, bot) in enumerate([("P1", "greedy"), ("P2", "random"), ("P3", "greedy")]):
        wins = sum(label in g["winners"] for g in games)
        mean = sum(g["players"][i]["total"] for g in games) / len(games)
        assert summary[3 + i].split() == [label, f"({bot})", str(wins), f"{100 * wins / 6:.1f}%", f"{mean:.1f}"]
    shared = sum(len(g["winners"]) > 1 for g in games)
    assert (f"{shared} of 6 games had more than one winner" in table) == bool(shared)


def test_a_shared_win_counts_for_each_winner():
    tally = Tally()
    for winners in (["A"], ["A", "B"]):
        tally.add({"players": [{"name": "A", "total": 10}, {"name": "B", "total": 4}], "winners": winners,
                   "bots": ["greedy", "random"]})
    text = tally.table("T")
    assert text.splitlines()[3].split() == ["A", "(greedy)", "2", "100.0%", "10.0"]
    assert text.splitlines()[4].split() == ["B", "(random)", "1", "50.0%", "4.0"]
    assert "1 of 2 games had more than one winner" in text


def test_progress_line():
    """Games done / total, games/s, time left; redrawn at most every `every` seconds."""
    now = [0.0]

    class Screen:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

        def flush(self) -> None:
            pass

    screen = Screen()
    bar = Progress(2000, screen, every=0.1, clock=lambda: now[0])  # type: ignore[arg-type]
    now[0] = 1.0
    bar.update(400)
    assert screen.text == "\r400/2000 games · 400 games/s · 4.0 s left"
    now[0] = 1.05
    bar.update(420)                       # too soon: not redrawn
    assert screen.text.count("\r") == 1
    now[0] = 2.0
    bar.update(800)
    assert screen.text.endswith("\r800/2000 games · 400 games/s · 3.0 s left")
    now[0] = 5.0
    bar.update(2000)
    bar.close()
    assert screen.text.endswith("\r2000/2000 games · 400 games/s · 5.0 s in all\n")
    assert [duration(s) for s in (0.44, 12, 185, 7440)] == ["0.4 s", "12 s", "3 min 05 s", "2 h 04 min"]


# -- the results name the bots, the boxes and the variants -----------------------------------------

def test_the_results_name_the_bot_of_each_seat_and_the_rules(capsys):
    """Issue: "The results of `play` name the bot in each seat (table and JSON) and the boxes and
    variants"."""
    args = ["play", "--players", "3", "--seed", "5", "--bots", "greedy,random", "--expansions", "thingvellir",
            "--variant", "first-game"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Game seed 5: 3 players, base + thingvellir; variants: first-game"
    assert [line.split("  ")[0] for line in lines[3:6]] == ["P1 (greedy)", "P2 (random)", "P3 (greedy)"]
    code, out, _ = run(capsys, *args, "--json")
    (game,) = json_lines(out)
    assert game["bots"] == ["greedy", "random", "greedy"]
    assert game["expansions"] == ["thingvellir"] and game["variants"] == ["first-game"]
    assert game["final"]["expansions"] == ["thingvellir"]


def test_a_human_seat_is_labelled_and_a_position_has_names_only():
    result = {"players": [{"name": "You", "total": 3, "breakdown": {"coins": 3}},
                          {"name": "P2", "total": 5, "breakdown": {"coins": 5}}], "winners": ["P2"],
              "bots": ["human", "greedy"]}
    assert [line.split("  ")[0] for line in score_table(result, "t").splitlines()[3:5]] == ["You (human)",
                                                                                           "P2 (greedy)"]
    scored = {k: v for k, v in result.items() if k != "bots"}
    assert [line.split()[0] for line in score_table(scored, "t").splitlines()[3:5]] == ["You", "P2"]
