"""The compiled engine (setup.py: mypyc) and its sources play the same games.

Issue 19: "behaviour unchanged (every seeded game, log and rendered reference identical before and
after, asserted)". The build compiles the modules of runtime/native.py's NATIVE; the sources stay the
truth: a compiled module runs only while every one was built from the source beside it, and
NIDAVELLIR_PURE=1 runs the sources. What is asserted:

- under CI (a fresh install, where a C compiler is there) the compiled engine is the one that runs,
  so the suite and the benchmark measure what users get;
- the sources alone (NIDAVELLIR_PURE=1) give every digest tests/test_behaviour_digest.py holds the
  compiled engine to: the same games, replays and references;
- a source edited after the build runs as edited (not the stale compiled module), and the same games;
- the freshness check: a missing module, a changed source or a missing manifest means the sources.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nidavellir.runtime.flow
from nidavellir.runtime import native

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = Path(nidavellir.runtime.flow.__file__).resolve().parent
BUILT = all(native.built(m) for m in native.NATIVE)
ENV = {k: v for k, v in os.environ.items() if k != "NIDAVELLIR_PURE"}

PLAY = """
import json, random, sys
import nidavellir.runtime.flow as flow
from nidavellir import Game, load_rules
from nidavellir.runtime import native
out = {"active": native.active(), "flow": flow.__file__, "games": []}
for boxes in ((), ("thingvellir", "idavoll")):
    rules = load_rules(boxes)
    for seed in range(1, 9):
        g = Game(rules, 2 + seed % 4, seed)
        rng = random.Random(seed)
        while g.pending is not None:
            g.answer(rng.choice(g.pending.options))
        out["games"].append([g.log, g.scores()])
print(json.dumps(out))
"""


def _play(env: dict[str, str], cwd: Path, path: Path | None = None) -> dict:
    code = PLAY if path is None else f"import sys; sys.path.insert(0, {str(path)!r})\n" + PLAY
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_ci_runs_the_compiled_engine():
    """A fresh install compiles the engine where a C compiler is there (CI's machines have one): the
    suite runs it, with every module of NATIVE compiled and fresh."""
    if os.environ.get("CI") != "true":
        pytest.skip("outside CI a checkout may be installed without a compiler, or edited since")
    assert BUILT, f"the install compiled no engine in {RUNTIME}"
    assert native.active(), "the compiled engine is stale or switched off (NIDAVELLIR_PURE)"
    assert not nidavellir.runtime.flow.__file__.endswith(".py")


def test_the_sources_give_every_recorded_digest():
    """NIDAVELLIR_PURE=1: the sources play every recorded game, replay and reference as recorded (the
    compiled engine is held to the same digests by tests/test_behaviour_digest.py)."""
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "behaviour_digest.py")], capture_output=True,
                          text=True, env={**ENV, "NIDAVELLIR_PURE": "1"}, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " as recorded" in done.stdout


@pytest.mark.skipif(not BUILT, reason="no compiled engine in this install")
def test_an_edited_source_runs_as_edited_and_plays_the_same(tmp_path):
    """A copy of the installed package whose flow.py was edited after the build: every compiled
    module gives way to its source (flow's edit runs), and the games are those the compiled engine
    plays."""
    site = tmp_path / "site"
    package = Path(nidavellir.__file__).resolve().parent
    shutil.copytree(package, site / "nidavellir", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, folder in (("runtime", RUNTIME), ("compiler", None), ("generated", None), ("rules", None),
                         ("grammar", None)):
        source = folder or Path(__import__(f"nidavellir.{name}", fromlist=["_"]).__file__).resolve().parent
        target = site / "nidavellir" / name
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    flow = site / "nidavellir" / "runtime" / "flow.py"
    flow.write_text(flow.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    compiled = _play(ENV, tmp_path)
    edited = _play(ENV, tmp_path, site)
    assert compiled["active"] and not edited["active"]
    assert edited["flow"] == str(flow)
    assert edited["games"] == compiled["games"]


def test_freshness_needs_every_module_its_source_and_the_manifest(tmp_path):
    """`fresh` is True only with every module of NATIVE built, and the manifest naming each one's
    source as it is now."""
    suffix = native.EXTENSION_SUFFIX
    for m in native.NATIVE:
        (tmp_path / f"{m}.py").write_text(f"# {m}\n", encoding="utf-8")
        (tmp_path / f"{m}{suffix}").write_bytes(b"")
    digests = {m: native.source_digest(tmp_path / f"{m}.py") for m in native.NATIVE}
    assert not native.fresh(tmp_path, {})  # no manifest
    (tmp_path / native.MANIFEST).write_text(json.dumps(digests), encoding="utf-8")
    assert native.fresh(tmp_path, {})
    assert not native.fresh(tmp_path, {"NIDAVELLIR_PURE": "1"})
    first = native.NATIVE[0]
    (tmp_path / f"{first}.py").write_text("# edited\n", encoding="utf-8")
    assert not native.fresh(tmp_path, {})
    (tmp_path / f"{first}.py").write_text(f"# {first}\n", encoding="utf-8")
    (tmp_path / f"{native.NATIVE[-1]}{suffix}").unlink()
    assert not native.fresh(tmp_path, {})


def test_frozen_pieces_copy_and_pickle():
    """The engine's frozen values (a coin, a point of the flow, where a card may stand) copy and pickle
    to equal values, compiled or not (a compiled frozen class cannot be rebuilt field by field)."""
    import copy
    import pickle

    from nidavellir.runtime.placement import Standing
    from nidavellir.runtime.state import Coin, FlowPoint

    for value in (Coin(5, "treasure", True, "x"), FlowPoint(1, 3, asking=True), Standing(("blue",), True, ("notch",))):
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value == copy.copy(value)


def test_a_loop_past_the_limit_stops_the_compiled_engine_located(tmp_path):
    """runtime/loops.py: "MAX_CASCADE ... effects and values nested in one another" — a loop of effects
    past the limit raises CascadeError, worded as on the sources, in whichever engine runs: the
    compiled one nests its calls on the C stack, and 256 levels must not overflow it (the child
    process would die of a signal)."""
    code = f"""
import sys
sys.path.insert(0, {str(ROOT / 'tests')!r})
from pathlib import Path
from test_cascades import better_loop
from harness import new_engine, give, set_coins, run
from nidavellir.rulesets import load_rules
from nidavellir.runtime.loops import CascadeError
e = new_engine(2, rules=load_rules(("idavoll",), (str(better_loop(Path({str(tmp_path)!r}), 400)),)))
give(e, 0, "skaa", column=None)
set_coins(e, 0, hand=[0, 2, 3, 4, 5])
try:
    run(e.transform(0, e.s.players[0].hand[1], 1))
except CascadeError as err:
    print(err)
"""
    out = {}
    for mode, env in (("this", ENV), ("sources", {**ENV, "NIDAVELLIR_PURE": "1"})):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                              timeout=300)
        assert done.returncode == 0, f"{mode}: exit {done.returncode}\n{done.stderr[-3000:]}"
        out[mode] = done.stdout
    assert "effects went deeper than 256 nested effects" in out["this"]
    assert out["this"] == out["sources"]
