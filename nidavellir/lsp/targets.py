"""Which rule sets a rules file is checked in: the targets of `nidavellir check`.

- A file of a shipped box folder (rules/base, rules/thingvellir, rules/idavoll) is checked in
  every shipped box combination that holds its box, the smallest first: a base file in rules/base
  alone, with each expansion and with both, and under each shipped variant (`check` without PATH
  checks all of these, and a change to the base can break any of them); an expansion's file in
  base + that box, then base + both boxes (an expansion is written against the base alone, and
  must also hold with the other box).
- A file of a folder that defines the game itself (a `layer:` with `id: base`, such as a copy of
  rules/base) is that folder checked alone (`check FOLDER`).
- A file of a folder that defines a layer (one of its files has the `layer:` description and the
  others hold its rules) is that folder on the shipped base (`check FOLDER`).
- Any other YAML with rules keys (`layer:`, `cards:`, `game:`, ...) is a variant on the shipped
  base (`check FILE`), like a shipped house rule in rules/variants.

The `expansions` option (as `check --expansions`) puts those boxes under a variant or a folder;
without it, as `check` without --expansions, a variant or folder gets the boxes its `requires` names.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from nidavellir.compiler.diagnostics import RulesError
from nidavellir.compiler.layers import layer_files
from nidavellir.compiler.requires import listed
from nidavellir.compiler.sources import EXPANSIONS, Spec, rules_dir, written_expansions
from nidavellir.compiler.yamlload import load_yaml

ReadText = Callable[[Path], "str | None"]  # a file's text: the editor's if open, else the disk's

_RULES_KEY = re.compile(r"^(layer|requires|cards|game|decks|remove|interpretations|texts)[ \t]*:", re.MULTILINE)
_LAYER_KEY = re.compile(r"^layer[ \t]*:", re.MULTILINE)
_LAYER_SCHEMA = re.compile(r"^#\s*yaml-language-server:\s*\$schema=\S*layer\.schema\.json", re.MULTILINE)
# the `layer:` entry: its line and the more indented (or blank) lines after it
_LAYER_BLOCK = re.compile(r"^layer[ \t]*:[^\n]*(?:\n(?:[ \t][^\n]*|[ \t]*))*", re.MULTILINE)
_BASE_ID = re.compile(r"\bid[ \t]*:[ \t]*[\"']?base\b")


@dataclass(frozen=True)
class Target:
    """One rule set to check: its name as `check` prints it, and its layers."""
    name: str
    specs: tuple[Spec, ...]
    paths: tuple[Path, ...] = field(default=(), compare=False)  # every file of its layers, resolved

    def holds(self, path: Path) -> bool:
        return path in self.paths


@dataclass(frozen=True)
class FileInfo:
    rules: bool      # has a top-level rules key (or names the layer schema)
    layer: bool      # has the `layer:` description
    base: bool       # describes the game itself (`layer.id: base`)
    requires: tuple[str, ...] = ()  # the boxes its `requires` names


def file_info(text: str | None) -> FileInfo:
    """What a rules file is, read from its text (a broken file is read with patterns)."""
    if text is None:
        return FileInfo(False, False, False)
    try:
        data = load_yaml("<classify>", text=text, name="<classify>").data
    except RulesError:
        layer = bool(_LAYER_KEY.search(text))
        return FileInfo(layer or bool(_RULES_KEY.search(text) or _LAYER_SCHEMA.search(text)), layer,
                        any(_BASE_ID.search(m.group()) for m in _LAYER_BLOCK.finditer(text)))
    if not isinstance(data, dict):
        return FileInfo(bool(_LAYER_SCHEMA.search(text)), False, False)
    info = data.get("layer")
    return FileInfo(bool(_RULES_KEY.search(text) or _LAYER_SCHEMA.search(text)), "layer" in data,
                    isinstance(info, dict) and info.get("id") == "base", listed(data))


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # (ValueError: a NUL, or a name the file system cannot encode)
        return path


class Classifier:
    """Finds the targets of a file. `root` is the workspace folder display names are relative to
    (as if `check` ran there); `expansions` the boxes put under a variant or a layer folder (None:
    not given, the boxes the variant's or folder's `requires` names)."""

    def __init__(self, read: ReadText, root: Path | None, expansions: tuple[str, ...] | None = None) -> None:
        self.read = read
        self.root = _resolved(root) if root else None
        self.given = expansions is not None
        self.expansions = tuple(b for b in EXPANSIONS if b in (expansions or ()) and b in written_expansions())
        self.shipped = _resolved(rules_dir())
        self._infos: dict[Path, tuple[str | None, FileInfo]] = {}  # path -> (text, what it is)

    def info(self, path: Path) -> FileInfo:
        """What a file is (parsed again only when its text changed)."""
        text = self.read(path)
        known = self._infos.get(path)
        if known is None or known[0] != text:
            known = self._infos[path] = (text, file_info(text))
        return known[1]

    def shown(self, path: Path) -> str:
        """A path as `check` would print it when run in the workspace folder."""
        if self.root is not None:
            try:
                return path.relative_to(self.root).as_posix()
            except ValueError:
                pass
        return str(path)

    def targets(self, path: Path) -> list[Target]:
        """The rule sets `path` is checked in, the one it is written against first; [] if it is
        not a rules file."""
        path = _resolved(path)
        folder = path.parent
        boxes = ("base", *written_expansions())
        if folder.parent == self.shipped and folder.name in boxes:
            return self._shipped(folder.name)
        if folder == self.shipped / "variants":
            return [self._variant(path)]
        return self._other(path)

    def _shipped_specs(self, boxes: tuple[str, ...]) -> tuple[Spec, ...]:
        specs: list[Spec] = [(self.shipped / "base", "rules/base", False)]
        specs += [(self.shipped / b, f"rules/{b}", False) for b in EXPANSIONS if b in boxes]
        return tuple(specs)

    def _shipped(self, box: str) -> list[Target]:
        written = written_expansions()
        combos = [c for k in range(len(written) + 1) for c in combinations(written, k)
                  if box == "base" or box in c]
        out = [self._target(" + ".join(["rules/base", *(f"rules/{b}" for b in c)]), self._shipped_specs(c))
               for c in combos]
        if box == "base":
            for v in sorted((self.shipped / "variants").glob("*.yaml")):
                out.append(self._target(f"rules/variants/{v.name}",
                                        self._shipped_specs(()) + ((v, f"rules/variants/{v.name}", True),)))
        return out

    def _boxes(self, *infos: FileInfo) -> tuple[str, ...]:
        """The boxes under a variant or a folder: those given, else those its files require."""
        if self.given:
            return self.expansions
        return tuple(b for b in written_expansions() if any(b in i.requires for i in infos))

    def _variant(self, path: Path) -> Target:
        shown = self.shown(path)
        return self._target(shown, self._shipped_specs(self._boxes(self.info(path))) + ((path, shown, True),))

    def _other(self, path: Path) -> list[Target]:
        me = self.info(path)
        folder = path.parent
        try:
            others = [_resolved(f) for f in layer_files(folder) if _resolved(f) != path]
        except OSError:
            others = []
        infos = {f: self.info(f) for f in others}
        shown = self.shown(folder)
        if me.base or any(i.base for i in infos.values()):  # the game itself: checked alone
            return [self._target(shown, ((folder, shown, False),))]
        if not me.rules:
            return []
        described = [f for f, i in infos.items() if i.layer] + ([path] if me.layer else [])
        plain = [f for f, i in infos.items() if i.rules and not i.layer]
        if (not me.layer and described) or (described == [path] and plain):  # a layer in files
            boxes = self._boxes(me, *infos.values())
            return [self._target(shown, self._shipped_specs(boxes) + ((folder, shown, False),))]
        return [self._variant(path)]

    def _target(self, name: str, specs: tuple[Spec, ...]) -> Target:
        paths: list[Path] = []
        for p, _, _ in specs:
            try:
                paths += [_resolved(f) for f in layer_files(p)]
            except OSError:
                paths.append(_resolved(p))
        return Target(name, specs, tuple(paths))


def display_paths(target: Target) -> dict[str, Path]:
    """Each file of a target by the name its diagnostics give it (as load_layer names them)."""
    out: dict[str, Path] = {}
    for p, shown, _ in target.specs:
        try:
            if p.is_dir():
                for f in layer_files(p):
                    out[f"{shown.rstrip('/')}/{f.name}"] = _resolved(f)
                continue
        except OSError:
            pass
        out[shown] = _resolved(p)
    return out
