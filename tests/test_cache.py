"""The on-disk cache of compiled rule sets (`$NIDAVELLIR_CACHE`, nidavellir/rulesets.py): "a cached
module is used only if it is the one its key names; a corrupt, empty, truncated or foreign file is
ignored, recompiled and overwritten" — and the right rules are then played."""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from nidavellir import rulesets
from nidavellir.compiler import build
from nidavellir.compiler.sources import layer_specs, source_hash
from nidavellir.runtime.bots import RandomBot
from nidavellir.runtime.game import Game
from nidavellir.runtime.observation import observe
from nidavellir.runtime.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rules" / "variants"


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, and no rule set remembered in memory (so the disk is asked)."""
    monkeypatch.setenv("NIDAVELLIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(rulesets, "_memory", {})
    return tmp_path / "cache" / "nidavellir"


@pytest.fixture()
def variant(tmp_path: Path) -> str:
    """A copy of the first-game variant (it removes Thrud, Ylud and Uline)."""
    path = tmp_path / "first-game.yaml"
    shutil.copy(VARIANTS / "first-game.yaml", path)
    return str(path)


def cache_file(cache: Path, variant: str) -> Path:
    chash = source_hash(layer_specs((), (variant,)))
    assert chash is not None
    return cache / f"{chash}.py"


def fresh(variant: str) -> Rules:
    """The rule set compiled now, without any cache."""
    rulesets._memory.clear()
    return rulesets.load_rules((), (variant,))


def play(rules: Rules, seed: int = 4) -> tuple[list[str], object]:
    """A random-bot game: the cards its players end with, and its scores."""
    game = Game(rules, 3, seed)
    bots = [RandomBot(seed * 10 + i) for i in range(3)]
    while game.pending is not None:
        game.answer(bots[game.pending.player].choose(observe(game)))
    held = sorted(game.state.cards[c] for p in range(3) for c in game.engine.owned(p))
    return held, game.scores()


def test_a_compiled_rule_set_is_cached_and_used(cache, variant, monkeypatch):
    """The first load writes the cache file; a later load (nothing in memory) reads it and does not
    compile (the compiler is made to fail here)."""
    first = fresh(variant)
    assert cache_file(cache, variant).is_file()
    rulesets._memory.clear()

    def no_compiling(specs: object) -> None:
        raise AssertionError("compiled although the cache holds the rule set")
    monkeypatch.setattr(build, "compile_specs", no_compiling)
    second = rulesets.load_rules((), (variant,))
    assert second.content_hash == first.content_hash and second is not first


BAD: dict[str, Callable[[str, str], str]] = {
    "empty": lambda good, other: "",
    "corrupt": lambda good, other: "\x00\x01garbage ((( not python",
    "truncated": lambda good, other: good[: len(good) // 2],
    "truncated at a line": lambda good, other: "".join(good.splitlines(True)[: len(good.splitlines()) // 2]),
    "another hash's module": lambda good, other: other,
    "not a rules module": lambda good, other: "RULES = 1\nCONTENT_HASH = 'x'\n",
    "raising on import": lambda good, other: "raise RuntimeError('boom')\n",
    "a missing import": lambda good, other: "import nidavellir_no_such_module\n",
    "deep recursion": lambda good, other: "def f(): return f()\nf()\n",
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_cache_file_is_ignored_recompiled_and_overwritten(cache, variant, tmp_path, case):
    """rulesets.py: "a corrupt, empty, truncated or foreign file is ignored, recompiled and
    overwritten"; then the right rules are played (the same game as with freshly compiled rules)."""
    right = fresh(variant)
    path = cache_file(cache, variant)
    good = path.read_text(encoding="utf-8")
    other_variant = tmp_path / "generous.yaml"
    shutil.copy(VARIANTS / "generous-offerings.yaml", other_variant)
    rulesets.load_rules((), (str(other_variant),))
    other = cache_file(cache, str(other_variant)).read_text(encoding="utf-8")
    path.write_text(BAD[case](good, other), encoding="utf-8")
    rulesets._memory.clear()
    rules = rulesets.load_rules((), (variant,))
    assert rules.content_hash == right.content_hash
    assert not {"thrud", "ylud", "uline"} & set(rules.cards)
    assert path.read_text(encoding="utf-8") == good          # overwritten with the compiled module
    assert play(rules) == play(right)


def test_a_cache_file_that_is_not_text_is_ignored(cache, variant):
    """Bytes that are not UTF-8 in the cache file: ignored and overwritten."""
    fresh(variant)
    path = cache_file(cache, variant)
    good = path.read_bytes()
    path.write_bytes(b"\xff\xfe\x00" * 100)
    rulesets._memory.clear()
    rules = rulesets.load_rules((), (variant,))
    assert "thrud" not in rules.cards
    assert path.read_bytes() == good


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch, variant):
    """A cache folder that is a file (nothing can be written there): the rules still load."""
    blocker = tmp_path / "blocked"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NIDAVELLIR_CACHE", str(blocker))
    monkeypatch.setattr(rulesets, "_memory", {})
    rules = rulesets.load_rules((), (variant,))
    assert "thrud" not in rules.cards and blocker.read_text() == "not a folder"


def test_a_cache_entry_that_is_a_folder_is_ignored(cache, variant):
    """A folder where the cache file should be: ignored; the rules are compiled in memory."""
    right = fresh(variant)
    path = cache_file(cache, variant)
    path.unlink()
    path.mkdir()
    rulesets._memory.clear()
    assert rulesets.load_rules((), (variant,)).content_hash == right.content_hash


def test_a_cache_file_raising_system_exit_is_ignored(cache, variant):
    """A foreign file that exits on import is ignored like one that raises any other error."""
    fresh(variant)
    path = cache_file(cache, variant)
    path.write_text("raise SystemExit(3)\n", encoding="utf-8")
    rulesets._memory.clear()
    assert "thrud" not in rulesets.load_rules((), (variant,)).cards
