"""`nidavellir lsp` (issue 9, "Errors while typing, not after"): "a language server (pygls) that
publishes the same located diagnostics (errors and warnings, all layers merged as `check` does)
while a designer edits rules YAML in any LSP editor, with hover on a card showing its generated
rule text and its ranks/points, and completion of event, class, param and card names inside DSL
strings. [...] Tested by driving the server over stdio with a scripted client."

The server runs as `python -m nidavellir.lsp`; tests/lsp_client.py is the scripted client.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_client import LspClient

from nidavellir.cli import main

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "rules" / "base"
ERROR, WARNING = 1, 2


@pytest.fixture
def client(tmp_path: Path) -> Iterator[LspClient]:
    c = LspClient(cwd=tmp_path)
    c.initialize(tmp_path)
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def check_output(capsys: pytest.CaptureFixture[str], cwd: Path, *paths: str) -> list[tuple[str, int, int, str, str]]:
    """What `nidavellir check PATH…` run in `cwd` reports: (file, line, col, severity, message)."""
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        main(["check", *paths])
    finally:
        os.chdir(here)
    err = capsys.readouterr().err
    return [(m[1], int(m[2]), int(m[3]), m[4], m[5])
            for m in re.finditer(r"^(.+?):(\d+):(\d+): (error|warning): (.*)$", err, re.MULTILINE)]


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def as_check(d: dict, lines: list[str]) -> tuple[int, int, str, str]:
    """An LSP diagnostic as `check` prints it: 1-based line, 1-based character column, severity,
    the message's first line (the hint is the second)."""
    line = d["range"]["start"]["line"]
    units = d["range"]["start"]["character"]
    col = next(i for i in range(len(lines[line]) + 1) if utf16(lines[line][:i]) == units)
    return line + 1, col + 1, {ERROR: "error", WARNING: "warning"}[d["severity"]], d["message"].split("\n")[0]


VARIANT = dedent("""
    layer:
      id: house
      name: House rules
    cards:
      - id: grid
        points: 8
        effects:
          - "when recruited: transform chosen coin by 7"
    """)


def test_variant_error_published_from_unsaved_text_and_cleared(client: LspClient, tmp_path: Path, capsys) -> None:
    """"publishes the same located diagnostics [...] while a designer edits": the text in the
    editor (not yet saved) is checked; a fix clears the diagnostics."""
    path = tmp_path / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    broken = VARIANT.replace("when recruited", "when recruted")
    uri = client.open(path, broken)
    got = client.diagnostics(uri, lambda ds: bool(ds))
    path.write_text(broken, encoding="utf-8")  # what `check` says of the same text
    expected = check_output(capsys, tmp_path, "house.yaml")
    assert expected == [("house.yaml", 8, 15, "error", "unknown event `recruted`")]
    assert len(got) == 1
    assert got[0]["range"] == {"start": {"line": 7, "character": 14}, "end": {"line": 7, "character": 22}}
    assert got[0]["severity"] == ERROR
    assert got[0]["message"] == "unknown event `recruted`\nhint: did you mean `recruited`?"

    client.change(uri, VARIANT)
    assert client.diagnostics(uri) == []
    assert client.close() == 0


def test_warning_is_published_as_a_warning(client: LspClient, tmp_path: Path, capsys) -> None:
    """"errors and warnings": a variant adding a card whose id is close to an existing one is a
    warning of `check`, and a warning in the editor."""
    text = dedent("""
        layer: {id: house, name: House}
        cards:
          - {id: gridd, name: Gridd, kind: hero, class: neutral, points: 7}
        """)
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    uri = client.open(path)
    got = client.diagnostics(uri, lambda ds: bool(ds))
    expected = check_output(capsys, tmp_path, "house.yaml")
    assert [as_check(d, text.splitlines()) for d in got] == [e[1:] for e in expected]
    assert got[0]["severity"] == WARNING
    assert got[0]["message"].startswith("the variant adds a new card `gridd`")


def test_layer_file_of_a_base_copy_and_the_files_it_breaks(client: LspClient, tmp_path: Path, capsys) -> None:
    """"all layers merged as `check` does": a file of a folder that defines the game (a copy of
    rules/base) is checked as that folder, as `check FOLDER` does; "diagnostics of other files
    of the same rule set that the change causes" are published for those files, and cleared when
    fixed."""
    base = Path(shutil.copytree(BASE, tmp_path / "base"))
    game = base / "game.yaml"
    good = game.read_text(encoding="utf-8")
    bad = good.replace("    - id: warrior\n", "    - id: warriors\n", 1)
    assert bad != good
    uri = client.open(game, bad)
    dwarves = (base / "dwarves.yaml").as_uri()
    got = client.diagnostics(dwarves, lambda ds: bool(ds))

    game.write_text(bad, encoding="utf-8")
    expected = check_output(capsys, tmp_path, "base")
    game.write_text(good, encoding="utf-8")
    lines = (base / "dwarves.yaml").read_text(encoding="utf-8").splitlines()
    assert sorted(as_check(d, lines) for d in got) == sorted(e[1:] for e in expected if e[0] == "base/dwarves.yaml")
    assert all(d["message"].startswith("unknown class `warrior`") for d in got)

    client.change(uri, good)
    assert client.diagnostics(dwarves) == []


def test_error_in_a_layer_file_is_located_in_it(client: LspClient, tmp_path: Path, capsys) -> None:
    """A DSL error in a file of the base copy: located in that file, as `check` locates it."""
    base = Path(shutil.copytree(BASE, tmp_path / "base"))
    heroes = base / "heroes.yaml"
    bad = heroes.read_text(encoding="utf-8").replace("transform chosen coin by 7", "transform chosen coin bye 7")
    heroes.write_text(bad, encoding="utf-8")
    expected = [e[1:] for e in check_output(capsys, tmp_path, "base") if e[0] == "base/heroes.yaml"]
    assert len(expected) == 1
    uri = client.open(heroes)
    got = client.diagnostics(uri, lambda ds: bool(ds))
    assert [as_check(d, bad.splitlines()) for d in got] == expected


def test_positions_count_utf16_code_units(client: LspClient, tmp_path: Path, capsys) -> None:
    """"LSP positions are 0-based; ours are 1-based [...] LSP counts UTF-16 code units": after
    Belarusian letters, "Mjöllnir" and an emoji (two UTF-16 units) on the same line, the range
    still starts at the name `check` points at."""
    text = 'layer: {id: u, name: U}\ncards:\n  - {id: molot, name: "Молат 😀 Mjöllnir", kind: hero, class: warior}\n'
    path = tmp_path / "u.yaml"
    path.write_text(text, encoding="utf-8")
    uri = client.open(path)
    got = client.diagnostics(uri, lambda ds: bool(ds))
    line = text.splitlines()[2]
    assert got[0]["range"]["start"] == {"line": 2, "character": utf16(line[:line.index("warior")])}
    assert got[0]["range"]["end"]["character"] - got[0]["range"]["start"]["character"] == len("warior")
    assert utf16(line[:line.index("warior")]) == line.index("warior") + 1  # (the emoji takes two)
    assert [as_check(d, text.splitlines()) for d in got] == [e[1:] for e in check_output(capsys, tmp_path, "u.yaml")]


@pytest.mark.parametrize("text, message, at", [
    ("layer:\n\tid: u\n", "tab character not allowed here: YAML indentation must use spaces", (1, 0)),
    ("layer:\n  id: u\n  name: U\n  id: v\n", "duplicate key `id` (first defined at line 2)", (3, 2)),
])
def test_malformed_yaml_gives_a_located_diagnostic(client: LspClient, tmp_path: Path, text: str, message: str,
                                                   at: tuple[int, int]) -> None:
    """"malformed YAML just gives diagnostics" (a tab, a duplicate key), located, and the server
    goes on answering."""
    path = tmp_path / "bad.yaml"
    path.write_text("layer: {id: u, name: U}\n", encoding="utf-8")
    uri = client.open(path, text)
    got = client.diagnostics(uri, lambda ds: bool(ds))
    assert [(d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in got] == [at]
    assert got[0]["message"].split("\n")[0] == message
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 0}}) is None


def hover(client: LspClient, uri: str, line: int, character: int) -> str:
    result = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": line, "character": character}})
    assert result is not None
    return str(result["contents"]["value"])


def reference_view(cid: str, *variants: Path) -> dict:
    """The card as the reference shows it (compiler/docs card views), with these variants."""
    from nidavellir.compiler.build import compile_specs, layer_specs
    from nidavellir.compiler.docs import card_views, load_catalog

    compiled = compile_specs(layer_specs((), tuple(str(v) for v in variants)))
    return next(v for v in card_views(compiled, load_catalog("en")) if v["id"] == cid)


def shows(hover_text: str, view: dict) -> bool:
    """The hover holds the card's name, its ranks/points and every sentence of its rule text."""
    parts = [f"**{md(view['name'])}** `{view['id']}`", md(view["ranks_label"]), *map(md, view["text"])]
    return all(p in hover_text for p in parts)


def md(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text)


def test_hover_on_a_card_shows_its_rule_text_and_ranks(client: LspClient, tmp_path: Path) -> None:
    """"hover on a card showing its generated rule text and its ranks/points": on the card's
    `id:`, on a card id inside a DSL string and in `remove:`, the reference's name, text and
    ranks/points."""
    text = dedent("""
        layer: {id: house, name: House}
        remove: [thrud]
        cards:
          - id: grid
            points: 8
          - id: distinction:blacksmith
            effects:
              - "when won: place card special-blacksmith in column blacksmith"
        """)
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    uri = client.open(path)
    client.diagnostics(uri)
    lines = text.splitlines()
    grid = hover(client, uri, 3, lines[3].index("grid") + 1)
    assert shows(grid, reference_view("grid", path)) and "8" in reference_view("grid", path)["ranks_label"]
    assert not shows(grid, reference_view("grid"))  # the variant's points, merged, not the base's 7
    smith = hover(client, uri, 7, lines[7].index("special-blacksmith") + 3)
    assert shows(smith, reference_view("special-blacksmith")) and reference_view("special-blacksmith")["text"]
    thrud = hover(client, uri, 1, lines[1].index("thrud"))  # removed by the variant: as the base has it
    assert shows(thrud, reference_view("thrud")) and "Removed by a layer" in thrud
    entry = hover(client, uri, 4, 6)  # on `points:` of grid's entry
    assert shows(entry, reference_view("grid", path))


def complete_at(client: LspClient, uri: str, line: int, character: int) -> list[dict]:
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": line, "character": character}})
    return [] if result is None else list(result["items"])


def test_completion_of_events_and_card_ids_inside_dsl_strings(client: LspClient, tmp_path: Path) -> None:
    """"completion of event, class, param and card names inside DSL strings": after `when ` the
    events the runtime fires in that form, after `place card ` the card ids, after `column ` the
    classes, in `param(` the params; each filtered by the prefix typed and replacing it."""
    text = dedent("""
        layer: {id: house, name: House}
        cards:
          - id: grid
            effects:
              - "when rec"
              - "when recruited: place card thr"
              - "when recruited: place self in column hun"
              - "score param(explorer_d"
        """)
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    uri = client.open(path)
    lines = text.splitlines()

    events = complete_at(client, uri, 4, len(lines[4]) - 1)
    assert [i["label"] for i in events] == ["recruited"]
    assert events[0]["textEdit"]["range"] == {"start": {"line": 4, "character": lines[4].index("rec")},
                                              "end": {"line": 4, "character": len(lines[4]) - 1}}
    cards = complete_at(client, uri, 5, len(lines[5]) - 1)
    assert "thrud" in [i["label"] for i in cards]
    assert all(i["label"].startswith("thr") for i in cards)
    assert [i["label"] for i in complete_at(client, uri, 6, len(lines[6]) - 1)] == ["hunter"]
    assert [i["label"] for i in complete_at(client, uri, 7, len(lines[7]) - 1)] == ["explorer_draw"]
    assert complete_at(client, uri, 2, 8) == []  # not in a DSL string


def test_handler_errors_do_not_stop_the_server(client: LspClient, tmp_path: Path) -> None:
    """"any exception inside a handler must not kill the server (log it via window/logMessage)":
    a hover on a document the editor never opened (and no file) is logged, and the server still
    answers."""
    missing = (tmp_path / "nowhere" / "x.yaml").as_uri()
    assert client.request("textDocument/hover", {"textDocument": {"uri": missing},
                                                 "position": {"line": 0, "character": 0}}) is None
    logged = client.wait_for("window/logMessage")
    assert logged["type"] == ERROR and "hover failed" in logged["message"]
    path = tmp_path / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    uri = client.open(path)
    assert client.diagnostics(uri) == []
    assert client.close() == 0


def test_quick_edits_are_checked_once_settled(client: LspClient, tmp_path: Path) -> None:
    """"do not recompile on every keystroke if a newer change is already waiting": ten changes in
    a row are checked once, as the last of them reads."""
    path = tmp_path / "house.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    uri = client.open(path)
    assert client.diagnostics(uri) == []
    for n in range(9):
        client.change(uri, VARIANT.replace("by 7", f"by 7{n} +"), version=2 + n)
    client.change(uri, VARIANT.replace("when recruited", "when recruted"), version=11)
    got = client.diagnostics(uri)
    assert [d["message"].split("\n")[0] for d in got] == ["unknown event `recruted`"]
    time.sleep(1.0)
    client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    assert not [n for n in client.notes if n.get("method") == "textDocument/publishDiagnostics"]


def test_shutdown_and_exit(tmp_path: Path) -> None:
    """LSP's end of a session: `shutdown` then `exit` ends the server with status 0; `exit` without
    `shutdown`, 1."""
    c = LspClient(cwd=tmp_path)
    c.initialize(tmp_path)
    assert c.close() == 0
    c = LspClient(cwd=tmp_path)
    c.initialize(tmp_path)
    c.notify("exit")
    assert c.proc.wait(timeout=30) == 1


def test_importing_the_package_stays_light() -> None:
    """"imported lazily: `nidavellir --help` must stay fast": importing nidavellir.lsp loads
    neither pygls nor the compiler."""
    code = "import sys, nidavellir.lsp; print(sorted(m for m in ('pygls', 'nidavellir.compiler') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- the pieces, without a server ---------------------------------------------------------------

def test_positions_convert_lines_and_columns_both_ways() -> None:
    """"LSP positions are 0-based; ours are 1-based [...] LSP counts UTF-16 code units; our col
    is characters": through a character offset, also where YAML breaks a line that LSP does not
    (U+2028) and after a character outside the BMP."""
    from nidavellir.lsp.positions import UTF8, TextIndex

    text = "a: Mjöllnir 😀 x\nb: y\u2028c: z\r\nd"
    index = TextIndex(text)
    at = index.from_loc(1, text.index("x") + 1)
    assert index.to_lsp(at) == (0, text.index("x") + 1)  # the emoji is two UTF-16 units
    assert index.from_lsp(0, text.index("x") + 1) == at
    z = index.from_loc(3, 4)  # YAML's line 3 starts after U+2028
    assert text[z] == "z" and index.to_lsp(z) == (1, len("b: y\u2028c: "))
    assert index.from_lsp(2, 0) == text.index("d")
    assert TextIndex(text, UTF8).to_lsp(at) == (0, len("a: Mjöllnir 😀 ".encode()))


def test_rule_sets_of_a_file_are_those_check_uses(tmp_path: Path) -> None:
    """Which layers a file is checked with: a base file in every box combination (and under each
    shipped variant), an expansion's file in base + that box and with both boxes, a shipped
    variant on the base, a folder that describes a layer on the base, a copy of the base alone."""
    from nidavellir.lsp.targets import Classifier

    def read(p: Path) -> str | None:
        return p.read_text(encoding="utf-8") if p.is_file() else None

    c = Classifier(read, ROOT)
    variants = [f"rules/variants/{v.name}" for v in sorted((ROOT / "rules" / "variants").glob("*.yaml"))]
    assert [t.name for t in c.targets(BASE / "heroes.yaml")] == [
        "rules/base", "rules/base + rules/thingvellir", "rules/base + rules/idavoll",
        "rules/base + rules/thingvellir + rules/idavoll", *variants]
    assert [t.name for t in c.targets(ROOT / "rules" / "thingvellir" / "heroes.yaml")] == [
        "rules/base + rules/thingvellir", "rules/base + rules/thingvellir + rules/idavoll"]
    assert [t.name for t in c.targets(ROOT / "rules" / "idavoll" / "mythology.yaml")] == [
        "rules/base + rules/idavoll", "rules/base + rules/thingvellir + rules/idavoll"]
    [first_game] = c.targets(ROOT / "rules" / "variants" / "first-game.yaml")
    assert [s[1] for s in first_game.specs] == ["rules/base", "rules/variants/first-game.yaml"]

    box = Path(shutil.copytree(ROOT / "rules" / "thingvellir", tmp_path / "box"))
    base = Path(shutil.copytree(BASE, tmp_path / "base"))
    (tmp_path / "v.yaml").write_text("layer: {id: v, name: V}\nremove: [thrud]\n", encoding="utf-8")
    (tmp_path / "position.yaml").write_text("players: []\n", encoding="utf-8")
    t = Classifier(read, tmp_path)
    [layer] = t.targets(box / "artifacts.yaml")
    assert [(s[1], s[2]) for s in layer.specs] == [("rules/base", False), ("box", False)]
    assert [(s[1], s[2]) for s in t.targets(base / "dwarves.yaml")[0].specs] == [("base", False)]
    assert [(s[1], s[2]) for s in t.targets(tmp_path / "v.yaml")[0].specs] == [("rules/base", False), ("v.yaml", True)]
    assert t.targets(tmp_path / "position.yaml") == []
    with_box = Classifier(read, tmp_path, ("thingvellir",))
    assert [s[1] for s in with_box.targets(tmp_path / "v.yaml")[0].specs] == ["rules/base", "rules/thingvellir", "v.yaml"]


def test_completion_reads_the_place_in_the_grammar() -> None:
    """Which names complete where: the DSL string is found in an `effects:` list (block or flow)
    and in a class's `score:`; the words before the cursor choose the names."""
    from nidavellir.compiler.build import compile_specs, layer_specs

    from nidavellir.lsp.complete import complete, spot
    from nidavellir.lsp.vocabulary import Vocabulary

    v = Vocabulary.of(compile_specs(layer_specs(("thingvellir", "idavoll"))))

    def labels(*lines: str, triggered: bool = False) -> list[str]:
        where = spot(list(lines), len(lines) - 1, len(lines[-1]))
        return [] if where is None else [i.label for i in complete(v, where, triggered)]

    assert "covered" in labels("    effects:", '      - "instead of ') and "recruited" not in labels(
        "    effects:", '      - "instead of ')
    assert labels('    effects: ["score 3", "when won: exchange trading coin for coin h') == ["hunter-3"]
    assert labels("  classes:", "    - id: miner", "      score: points * ranks(mi") == ["miner"]
    assert labels("    effects:", '    - "whenever ') and all(
        n in v.events for n in labels("    effects:", '    - "whenever '))
    assert labels("    effects:", '      - "when won: look at 3 from ') [:2] == ["age", "current"]
    assert labels("    class: blac") == ["blacksmith"]
    assert labels('  - {id: x, kind: hero, effects: ["when recruited: place card special-b') == ["special-blacksmith"]
    assert labels("    effects:", '      - "score 2 * ranks(explorer) + ', triggered=True) == []
    assert "highest_coin" in labels("    effects:", '      - "score high')
    assert labels("    effects:", '      - "when recruited: transform chosen coin by 7" # x') == []
    assert labels("    name: when ") == []


def test_the_loader_reads_an_overlay_in_place_of_a_file(tmp_path: Path) -> None:
    """"Diagnostics use the unsaved editor text": within `overlay`, a file is read as the text the
    editor holds (named by any path that resolves to it), and from disk again after."""
    from nidavellir.compiler.yamlload import load_yaml, overlay

    path = tmp_path / "v.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    with overlay({str(tmp_path / "." / "v.yaml"): "a: 2\n"}):
        assert load_yaml(path).data == {"a": 2}
    assert load_yaml(path).data == {"a": 1}
